"""autograd.functional (vjp, jvp, jacobian, hessian, vhp, hvp): results for tensor and tuple
inputs and outputs, with every combination of create_graph / strict / vectorize, and the errors,
against what PyTorch 2.15 returns for the same calls (REF, at the end of this file: structure,
shapes, dtypes, requires_grad, values, or the exception's type and message)."""
import numpy as np
import pytest

import minitorch as torch
from minitorch.autograd import functional as F


# ---- the calls REF holds (written against a torch-like module `t`) -------------------------

def _cases(t):
    """name -> a call of t.autograd.functional (the same calls run in torch for REF)."""
    F_ = t.autograd.functional
    d = t.float64

    def x():
        return t.tensor([[0.5, -1.2], [0.3, 2.0]], dtype=d)

    def y():
        return t.tensor([0.7, -0.4], dtype=d)

    def v2():
        return t.tensor([1.5, -0.5], dtype=d)

    def v22():
        return t.tensor([[1.0, 2.0], [-1.0, 0.5]], dtype=d)

    # functions: tuple in/out, tensor in/out, linear, with an unused input, scalar ones
    def f_tt(a, b):
        return (a.sin() * b).sum(1), a.exp().sum() * b.pow(2)

    def f_t(a):
        return a.sin() * a

    def f_lin(a):
        return a * 3

    def f_unused(a, b):
        return a.tanh()

    def f_const(a):
        return a.detach() * 2

    def s_cubic(a):
        return (a ** 3).sum()

    def s_tuple(a, b):
        return (a.sin().sum() * b).sum() + (b ** 3).sum()

    def s_lin(a):
        return a.sum() * 2

    def s_quad(a):
        return (a * a).sum()

    def s_unused(a, b):
        return (a ** 3).sum()

    cases = {}
    for cg in (False, True):
        for strict in (False, True):
            tag = f"cg{int(cg)}_st{int(strict)}"
            for vec in (False, True):
                vt = f"{tag}_vec{int(vec)}"
                for name, fn, inp in (("tt", f_tt, lambda: (x(), y())), ("t", f_t, x),
                                      ("lin", f_lin, x), ("unused", f_unused, lambda: (x(), y())),
                                      ("const", f_const, x)):
                    cases[f"jacobian_{name}_{vt}"] = (
                        lambda fn=fn, inp=inp, cg=cg, strict=strict, vec=vec:
                        F_.jacobian(fn, inp(), create_graph=cg, strict=strict, vectorize=vec))
                for name, fn, inp in (("cubic", s_cubic, x), ("tuple", s_tuple, lambda: (x(), y())),
                                      ("lin", s_lin, x), ("quad", s_quad, x),
                                      ("unused", s_unused, lambda: (x(), y()))):
                    cases[f"hessian_{name}_{vt}"] = (
                        lambda fn=fn, inp=inp, cg=cg, strict=strict, vec=vec:
                        F_.hessian(fn, inp(), create_graph=cg, strict=strict, vectorize=vec))
            for name, fn, inp, v in (("tt", f_tt, lambda: (x(), y()), lambda: (v2(), v2())),
                                     ("t", f_t, x, v22), ("lin", f_lin, x, v22),
                                     ("unused", f_unused, lambda: (x(), y()), v22),
                                     ("const", f_const, x, v22),
                                     ("scalar_none", s_cubic, x, lambda: None)):
                cases[f"vjp_{name}_{tag}"] = (
                    lambda fn=fn, inp=inp, v=v, cg=cg, strict=strict:
                    F_.vjp(fn, inp(), v(), create_graph=cg, strict=strict))
            for name, fn, inp, v in (("tt", f_tt, lambda: (x(), y()), lambda: (v22(), v2())),
                                     ("t", f_t, x, v22), ("lin", f_lin, x, v22),
                                     ("unused", f_unused, lambda: (x(), y()),
                                      lambda: (v22(), v2())),
                                     ("const", f_const, x, v22),
                                     ("single_none", lambda a: a.exp() * 2,
                                      lambda: t.tensor([0.3], dtype=d), lambda: None)):
                cases[f"jvp_{name}_{tag}"] = (
                    lambda fn=fn, inp=inp, v=v, cg=cg, strict=strict:
                    F_.jvp(fn, inp(), v(), create_graph=cg, strict=strict))
            for op in ("hvp", "vhp"):
                for name, fn, inp, v in (("cubic", s_cubic, x, v22),
                                         ("tuple", s_tuple, lambda: (x(), y()),
                                          lambda: (v22(), v2())),
                                         ("lin", s_lin, x, v22), ("quad", s_quad, x, v22),
                                         ("unused", s_unused, lambda: (x(), y()),
                                          lambda: (v22(), v2())),
                                         ("single_none", lambda a: (a ** 4).sum(),
                                          lambda: t.tensor([0.3], dtype=d), lambda: None)):
                    cases[f"{op}_{name}_{tag}"] = (
                        lambda op=op, fn=fn, inp=inp, v=v, cg=cg, strict=strict:
                        getattr(F_, op)(fn, inp(), v(), create_graph=cg, strict=strict))
    # inputs that require grad already: create_graph keeps their history
    for cg in (False, True):
        def with_history(cg=cg):
            a = x().requires_grad_()
            j = F_.jacobian(lambda z: z.sin(), a * 2, create_graph=cg)
            return j, t.autograd.grad(j.sum(), a, allow_unused=True) if j.requires_grad else None
        cases[f"jacobian_history_cg{int(cg)}"] = with_history
    # errors
    cases.update({
        "err_strategy": lambda: F_.jacobian(f_t, x(), strategy="central"),
        "err_fwd_cg": lambda: F_.jacobian(f_t, x(), strategy="forward-mode", create_graph=True),
        "err_fwd_strict": lambda: F_.jacobian(f_t, x(), strategy="forward-mode", strict=True),
        "err_fwd_novec": lambda: F_.jacobian(f_t, x(), strategy="forward-mode"),
        "err_hessian_strategy": lambda: F_.hessian(s_cubic, x(), outer_jacobian_strategy="x"),
        "err_inputs_type": lambda: F_.jacobian(f_t, 3),
        "err_inputs_tuple_type": lambda: F_.vjp(f_tt, (x(), [1.0]), (v2(), v2())),
        "err_inputs_list": lambda: F_.jvp(f_tt, [x(), y()], (v22(), v2())),
        "err_outputs_type": lambda: F_.jacobian(lambda a: 3.0, x()),
        "err_outputs_tuple_type": lambda: F_.vjp(lambda a: (a, 1), x(), (v22(), v22())),
        "err_vjp_v_none": lambda: F_.vjp(f_t, x()),
        "err_vjp_v_len": lambda: F_.vjp(f_tt, (x(), y()), (v2(),)),
        "err_vjp_v_single": lambda: F_.vjp(f_t, x(), (v22(), v22())),
        "err_vjp_v_size": lambda: F_.vjp(f_t, x(), v2()),
        "err_vjp_v_size_tuple": lambda: F_.vjp(f_tt, (x(), y()), (v2(), v22())),
        "err_vjp_v_type": lambda: F_.vjp(f_t, x(), [1.0]),
        "err_jvp_v_none": lambda: F_.jvp(f_t, x()),
        "err_jvp_v_size": lambda: F_.jvp(f_t, x(), v2()),
        "err_hvp_v_none": lambda: F_.hvp(s_cubic, x()),
        "err_vhp_v_none": lambda: F_.vhp(s_cubic, x()),
        "err_hessian_tuple_out": lambda: F_.hessian(lambda a: (a.sum(), a.sum()), x()),
        "err_hessian_not_scalar": lambda: F_.hessian(f_t, x()),
        "err_hvp_tuple_out": lambda: F_.hvp(lambda a: (a.sum(),), x(), v22()),
        "err_hvp_not_scalar": lambda: F_.hvp(f_t, x(), v22()),
        "err_vhp_tuple_out": lambda: F_.vhp(lambda a: (a.sum(),), x(), v22()),
        "err_vhp_not_scalar": lambda: F_.vhp(f_t, x(), v22()),
    })
    return cases


# ---- encoding results (the same in torch and here) -----------------------------------------

def _encode(r):
    if r is None:
        return None
    if isinstance(r, (tuple, list)):
        return ["tuple" if isinstance(r, tuple) else "list", [_encode(e) for e in r]]
    if hasattr(r, "shape") and hasattr(r, "dtype"):
        vals = [float(v) for v in r.detach().reshape(-1).tolist()]
        return ["T", list(r.shape), str(r.dtype).split(".")[-1], bool(r.requires_grad), vals]
    return ["other", repr(r)]


def _run(thunk):
    try:
        return ["ok", _encode(thunk())]
    except Exception as e:  # noqa: BLE001 - every exception is part of the spec
        return ["err", type(e).__name__, str(e).replace("minitorch.", "torch.")]


def _same(got, ref, path="result"):
    if ref is None or got is None:
        assert got == ref, path
        return
    assert got[0] == ref[0], f"{path}: {got[0]} != {ref[0]}"
    if ref[0] in ("tuple", "list"):
        assert len(got[1]) == len(ref[1]), f"{path}: length {len(got[1])} != {len(ref[1])}"
        for i, (g, r) in enumerate(zip(got[1], ref[1])):
            _same(g, r, f"{path}[{i}]")
    elif ref[0] == "T":
        assert got[1:4] == ref[1:4], \
            f"{path}: (shape, dtype, requires_grad) {got[1:4]} != {ref[1:4]}"
        np.testing.assert_allclose(got[4], ref[4], rtol=1e-9, atol=1e-12, err_msg=path)
    else:
        assert got == ref, path


CASES = _cases(torch)


@pytest.mark.parametrize("name", sorted(CASES))
def test_against_torch(name):
    got = _run(CASES[name])
    ref = REF[name]
    assert got[0] == ref[0], f"{got} != {ref}"
    if ref[0] == "err":
        assert got[1:] == ref[1:]
    else:
        _same(got[1], ref[1])


def test_every_case_has_a_reference():
    assert sorted(CASES) == sorted(REF)


# ---- what torch cannot tell: forward mode, batched vjp, second derivatives ------------------

def test_forward_mode_equals_reverse_mode():
    x = torch.tensor([[0.5, -1.2, 0.1], [0.3, 2.0, -0.7]], dtype=torch.float64)
    y = torch.tensor([0.7, -0.4, 0.2], dtype=torch.float64)

    def f(a, b):
        return (a @ b).exp(), (a * b).cumsum(1), a.sum() * b

    fwd = F.jacobian(f, (x, y), strategy="forward-mode", vectorize=True)
    rev = F.jacobian(f, (x, y))
    for rf, rr in zip(fwd, rev):
        for a, b in zip(rf, rr):
            assert a.shape == b.shape and torch.allclose(a, b)
    one = F.jacobian(lambda a: a.sin(), y, strategy="forward-mode", vectorize=True)
    assert torch.allclose(one, torch.diag(y.cos()))

    def g(a, b):
        return ((a @ b) ** 3).sum() + (a.sin() * b).sum()

    hf = F.hessian(g, (x, y), outer_jacobian_strategy="forward-mode", vectorize=True)
    hr = F.hessian(g, (x, y))
    for rf, rr in zip(hf, hr):
        for a, b in zip(rf, rr):
            assert a.shape == b.shape and torch.allclose(a, b)


def test_jacobian_vectorized_equals_row_by_row():
    x = torch.tensor([[0.5, -1.2, 0.1], [0.3, 2.0, -0.7]], dtype=torch.float64)
    y = torch.tensor([0.7, -0.4, 0.2], dtype=torch.float64)

    def f(a, b):
        return (a @ b).exp(), (a * b).cumsum(1), a.sum() * b

    j0 = F.jacobian(f, (x, y))
    j1 = F.jacobian(f, (x, y), vectorize=True)
    for r0, r1 in zip(j0, j1):
        for a, b in zip(r0, r1):
            assert a.shape == b.shape
            np.testing.assert_allclose(a.numpy(), b.numpy(), rtol=1e-12, atol=1e-14)


def test_jacobian_matches_finite_differences():
    x = torch.tensor([0.5, -1.2, 0.3], dtype=torch.float64)

    def f(a):
        return torch.stack([a.prod(), (a ** 2).sum().sqrt(), a.logsumexp(0)])

    j = F.jacobian(f, x).numpy()
    eps = 1e-6
    num = np.zeros((3, 3))
    for k in range(3):
        d = np.zeros(3)
        d[k] = eps
        hi = f(torch.tensor(x.numpy() + d)).numpy()
        lo = f(torch.tensor(x.numpy() - d)).numpy()
        num[:, k] = (hi - lo) / (2 * eps)
    np.testing.assert_allclose(j, num, rtol=1e-6, atol=1e-8)


def test_hessian_is_the_jacobian_of_the_gradient_and_symmetric():
    x = torch.tensor([0.5, -1.2, 0.3], dtype=torch.float64)

    def f(a):
        return (a.sin() * a.roll(1)).sum() + a.prod()

    h = F.hessian(f, x)
    g = F.jacobian(lambda a: torch.autograd.grad(f(a), a, create_graph=True)[0], x)
    np.testing.assert_allclose(h.numpy(), g.numpy(), rtol=1e-12)
    np.testing.assert_allclose(h.numpy(), h.numpy().T, rtol=1e-12)
    v = torch.tensor([1.0, 2.0, -1.0], dtype=torch.float64)
    _, hv = F.hvp(f, x, v)
    _, vh = F.vhp(f, x, v)
    np.testing.assert_allclose(hv.numpy(), h.numpy() @ v.numpy(), rtol=1e-12)
    np.testing.assert_allclose(vh.numpy(), v.numpy() @ h.numpy(), rtol=1e-12)


def test_create_graph_results_are_differentiable():
    x = torch.tensor([0.5, -1.2], dtype=torch.float64, requires_grad=True)
    _, jv = F.jvp(lambda a: a ** 3, x, torch.ones(2, dtype=torch.float64), create_graph=True)
    g, = torch.autograd.grad(jv.sum(), x)
    np.testing.assert_allclose(g.numpy(), 6 * x.detach().numpy(), rtol=1e-12)
    _, vj = F.vjp(lambda a: a ** 3, x, torch.ones(2, dtype=torch.float64), create_graph=True)
    g, = torch.autograd.grad(vj.sum(), x)
    np.testing.assert_allclose(g.numpy(), 6 * x.detach().numpy(), rtol=1e-12)
    # the results do not require grad without create_graph, and the inputs are untouched
    _, vj = F.vjp(lambda a: a ** 3, x, torch.ones(2, dtype=torch.float64))
    assert not vj.requires_grad and x.grad is None


def test_grad_mode_off_outside():
    x = torch.tensor([0.5, -1.2], dtype=torch.float64)
    with torch.no_grad():
        out, vj = F.vjp(lambda a: a.exp(), x, torch.ones(2, dtype=torch.float64))
        j = F.jacobian(lambda a: a.exp(), x)
    np.testing.assert_allclose(vj.numpy(), np.exp(x.numpy()))
    np.testing.assert_allclose(np.diag(j.numpy()), np.exp(x.numpy()))


def test_grad_is_grads_batched():
    x = torch.tensor([0.5, -1.2, 2.0], dtype=torch.float64, requires_grad=True)
    w = torch.tensor([1.0, 2.0], dtype=torch.float64, requires_grad=True)
    y = x * x
    g, gw = torch.autograd.grad(y, (x, w), torch.eye(3, dtype=torch.float64),
                                is_grads_batched=True, allow_unused=True, retain_graph=True)
    np.testing.assert_allclose(g.numpy(), np.diag(2 * x.detach().numpy()))
    assert gw is None
    g, gw = torch.autograd.grad(y, (x, w), torch.eye(3, dtype=torch.float64),
                                is_grads_batched=True, materialize_grads=True)
    assert gw.shape == (2,) and not gw.any()
    with pytest.raises(RuntimeError, match="Trying to backward through the graph a second"):
        torch.autograd.grad(y, x, torch.eye(3, dtype=torch.float64), is_grads_batched=True)
    y = x.sin()
    with pytest.raises(RuntimeError, match=r"If `is_grads_batched=True`, we interpret the first "
                                           r"dimension .* grad_output\[0\] has a shape of"):
        torch.autograd.grad(y, x, torch.ones(3, dtype=torch.float64), is_grads_batched=True)
    with pytest.raises(RuntimeError, match="grad can be implicitly created only for scalar"):
        torch.autograd.grad(y, x, None, is_grads_batched=True)


def test_results_with_create_graph_pass_gradcheck_and_gradgradcheck():
    from minitorch.autograd import gradcheck, gradgradcheck
    d = torch.float64

    def adder(x, y):
        return 2 * x + 3 * y, x * y

    xs = (torch.tensor([0.3, 0.8], dtype=d, requires_grad=True),
          torch.tensor([0.6, 0.2], dtype=d, requires_grad=True))
    vs = (torch.tensor([1.0, 0.0], dtype=d, requires_grad=True),
          torch.tensor([1.0, 0.0], dtype=d, requires_grad=True))
    for api in (F.vjp, F.jvp):
        def nested(*args, api=api):
            x, y = args[0].cos(), args[1]
            val, grad = api(adder, (x, y), args[2:], create_graph=True)
            return val[0].exp() + val[1].exp() + grad[0].exp() + grad[1].exp() + x.exp()
        assert gradcheck(nested, xs + vs) and gradgradcheck(nested, xs + vs)
    a = torch.tensor([[0.1, 0.5], [0.9, 0.3]], dtype=d, requires_grad=True)
    for vec in (False, True):
        def jac(z, vec=vec):
            return F.jacobian(lambda t: t.exp().sum(1), z, create_graph=True, vectorize=vec)

        def hess(z, vec=vec):
            return F.hessian(lambda t: t.pow(3).sum(), z, create_graph=True, vectorize=vec)
        assert gradcheck(jac, a) and gradgradcheck(jac, a)
        assert gradcheck(hess, a) and gradgradcheck(hess, a)
    w = torch.ones(2, 2, dtype=d, requires_grad=True)
    for api in (F.hvp, F.vhp):
        def prod(z, v, api=api):
            return api(lambda t: (t.sin() * t.exp()).sum() * t.sum(), z, v, create_graph=True)
        assert gradcheck(prod, (a, w)) and gradgradcheck(prod, (a, w))


def test_standard_basis():
    inputs = (torch.randn(2, 3), torch.randn(()), torch.randn(3, dtype=torch.float64))
    numels = tuple(t.numel() for t in inputs)
    blocks = F._construct_standard_basis_for(inputs, numels)
    assert [b.dtype for b in blocks] == [t.dtype for t in inputs]
    full = torch.cat([b.float() for b in blocks], 1)
    assert torch.equal(full, torch.eye(sum(numels)))


def test_create_graph_under_no_grad():
    x = torch.rand(4, 4, dtype=torch.float64, requires_grad=True)
    v = torch.ones(4, dtype=torch.float64, requires_grad=True)
    with torch.no_grad():
        out, vj = F.vjp(lambda z: z.sum(1), x, v, create_graph=True)
        j = F.jacobian(lambda z: z.exp().sum(1), x.detach(), create_graph=True)
        out2, vj2 = F.vjp(lambda z: z.sum(1), x, v)
    assert out.grad_fn is not None and vj.grad_fn is not None and j.grad_fn is not None
    assert out2.grad_fn is None and vj2.grad_fn is None


# ---- REF: captured from PyTorch 2.15 (torch.autograd.functional on the same calls) ----------

REF = {'err_fwd_cg': ['err', 'NotImplementedError',
                'torch.autograd.functional.jacobian: `create_graph=True` and '
                '`strategy="forward-mode"` are not supported together (yet). Please either set '
                '`create_graph=False` or `strategy="reverse-mode"`.'],
 'err_fwd_novec': ['err', 'NotImplementedError',
                   'Computing Jacobian using forward-AD or forward-over-reverse Hessian isonly '
                   'implemented for `vectorize=True`.'],
 'err_fwd_strict': ['err', 'RuntimeError',
                    'torch.autograd.functional.jacobian: `strict=True` and '
                    '`strategy="forward-mode"` are not supported together (yet). Please either set '
                    '`strict=False` or `strategy="reverse-mode"`.'],
 'err_hessian_not_scalar': ['err', 'RuntimeError',
                            'The Tensor returned by the function given to hessian should contain a '
                            'single element'],
 'err_hessian_strategy': ['err', 'AssertionError',
                          'Expected strategy to be either "forward-mode" or "reverse-mode".'],
 'err_hessian_tuple_out': ['err', 'RuntimeError',
                           'The function given to hessian should return a single Tensor'],
 'err_hvp_not_scalar': ['err', 'RuntimeError',
                        'The Tensor returned by the function given to hvp should contain a single '
                        'element'],
 'err_hvp_tuple_out': ['err', 'RuntimeError',
                       'The function given to hvp should return a single Tensor'],
 'err_hvp_v_none': ['err', 'RuntimeError',
                    'The vector v can only be None if the input to the user-provided function is a '
                    'single Tensor with a single element.'],
 'err_inputs_list': ['err', 'TypeError',
                     'The inputs given to jvp must be either a Tensor or a tuple of Tensors but '
                     "the given inputs has type <class 'list'>."],
 'err_inputs_tuple_type': ['err', 'TypeError',
                           'The inputs given to vjp must be either a Tensor or a tuple of Tensors '
                           "but the value at index 1 has type <class 'list'>."],
 'err_inputs_type': ['err', 'TypeError',
                     'The inputs given to jacobian must be either a Tensor or a tuple of Tensors '
                     "but the given inputs has type <class 'int'>."],
 'err_jvp_v_none': ['err', 'RuntimeError',
                    'The vector v can only be None if the input to the user-provided function is a '
                    'single Tensor with a single element.'],
 'err_jvp_v_size': ['err', 'RuntimeError',
                    'v has invalid size: should be torch.Size([2, 2]) but got torch.Size([2]).'],
 'err_outputs_tuple_type': ['err', 'TypeError',
                            'The outputs of the user-provided function given to vjp must be either '
                            'a Tensor or a tuple of Tensors but the value at index 1 has type '
                            "<class 'int'>."],
 'err_outputs_type': ['err', 'TypeError',
                      'The outputs of the user-provided function given to jacobian must be either '
                      'a Tensor or a tuple of Tensors but the given outputs of the user-provided '
                      "function has type <class 'float'>."],
 'err_strategy': ['err', 'AssertionError',
                  'Expected strategy to be either "forward-mode" or "reverse-mode". Hint: If your '
                  'function has more outputs than inputs, "forward-mode" tends to be more '
                  'performant. Otherwise, prefer to use "reverse-mode".'],
 'err_vhp_not_scalar': ['err', 'RuntimeError',
                        'The Tensor returned by the function given to vhp should contain a single '
                        'element'],
 'err_vhp_tuple_out': ['err', 'RuntimeError',
                       'The function given to vhp should return a single Tensor'],
 'err_vhp_v_none': ['err', 'RuntimeError',
                    'The vector v can only be None if the input to the user-provided function is a '
                    'single Tensor with a single element.'],
 'err_vjp_v_len': ['err', 'RuntimeError', 'v is a tuple of invalid length: should be 2 but got 1.'],
 'err_vjp_v_none': ['err', 'RuntimeError',
                    'The vector v can only be None if the user-provided function returns a single '
                    'Tensor with a single element.'],
 'err_vjp_v_single': ['err', 'RuntimeError', 'The given v should contain a single Tensor.'],
 'err_vjp_v_size': ['err', 'RuntimeError',
                    'v has invalid size: should be torch.Size([2, 2]) but got torch.Size([2]).'],
 'err_vjp_v_size_tuple': ['err', 'RuntimeError',
                          'Entry 1 in v has invalid size: should be torch.Size([2]) but got '
                          'torch.Size([2, 2]).'],
 'err_vjp_v_type': ['err', 'TypeError',
                    'The v given to vjp must be either a Tensor or a tuple of Tensors but the '
                    "given v has type <class 'list'>."],
 'hessian_cubic_cg0_st0_vec0': ['ok',
                                ['T', [2, 2, 2, 2], 'float64', False,
                                 [3.0, -0.0, 0.0, 0.0, 0.0, -7.199999999999999, 0.0, 0.0, 0.0, -0.0,
                                  1.7999999999999998, 0.0, 0.0, -0.0, 0.0, 12.0]]],
 'hessian_cubic_cg0_st0_vec1': ['ok',
                                ['T', [2, 2, 2, 2], 'float64', False,
                                 [3.0, -0.0, 0.0, 0.0, 0.0, -7.199999999999999, 0.0, 0.0, 0.0, -0.0,
                                  1.7999999999999998, 0.0, 0.0, -0.0, 0.0, 12.0]]],
 'hessian_cubic_cg0_st1_vec0': ['ok',
                                ['T', [2, 2, 2, 2], 'float64', False,
                                 [3.0, -0.0, 0.0, 0.0, 0.0, -7.199999999999999, 0.0, 0.0, 0.0, -0.0,
                                  1.7999999999999998, 0.0, 0.0, -0.0, 0.0, 12.0]]],
 'hessian_cubic_cg0_st1_vec1': ['err', 'RuntimeError',
                                'torch.autograd.functional.jacobian: `strict=True` and '
                                '`vectorized=True` are not supported together. Please either set '
                                '`strict=False` or `vectorize=False`.'],
 'hessian_cubic_cg1_st0_vec0': ['ok',
                                ['T', [2, 2, 2, 2], 'float64', True,
                                 [3.0, -0.0, 0.0, 0.0, 0.0, -7.199999999999999, 0.0, 0.0, 0.0, -0.0,
                                  1.7999999999999998, 0.0, 0.0, -0.0, 0.0, 12.0]]],
 'hessian_cubic_cg1_st0_vec1': ['ok',
                                ['T', [2, 2, 2, 2], 'float64', True,
                                 [3.0, -0.0, 0.0, 0.0, 0.0, -7.199999999999999, 0.0, 0.0, 0.0, -0.0,
                                  1.7999999999999998, 0.0, 0.0, -0.0, 0.0, 12.0]]],
 'hessian_cubic_cg1_st1_vec0': ['ok',
                                ['T', [2, 2, 2, 2], 'float64', True,
                                 [3.0, -0.0, 0.0, 0.0, 0.0, -7.199999999999999, 0.0, 0.0, 0.0, -0.0,
                                  1.7999999999999998, 0.0, 0.0, -0.0, 0.0, 12.0]]],
 'hessian_cubic_cg1_st1_vec1': ['err', 'RuntimeError',
                                'torch.autograd.functional.jacobian: `strict=True` and '
                                '`vectorized=True` are not supported together. Please either set '
                                '`strict=False` or `vectorize=False`.'],
 'hessian_lin_cg0_st0_vec0': ['ok',
                              ['T', [2, 2, 2, 2], 'float64', False,
                               [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0,
                                0.0, 0.0, 0.0]]],
 'hessian_lin_cg0_st0_vec1': ['ok',
                              ['T', [2, 2, 2, 2], 'float64', False,
                               [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0,
                                0.0, 0.0, 0.0]]],
 'hessian_lin_cg0_st1_vec0': ['err', 'RuntimeError',
                              'While computing the hessian, found that the jacobian of the '
                              'user-provided function with respect to input 0 is independent of '
                              'the input. This is not allowed in strict mode. You should ensure '
                              'that your function is twice differentiable and that the jacobian '
                              'depends on the inputs (this would be violated by a linear function '
                              'for example).'],
 'hessian_lin_cg0_st1_vec1': ['err', 'RuntimeError',
                              'While computing the hessian, found that the jacobian of the '
                              'user-provided function with respect to input 0 is independent of '
                              'the input. This is not allowed in strict mode. You should ensure '
                              'that your function is twice differentiable and that the jacobian '
                              'depends on the inputs (this would be violated by a linear function '
                              'for example).'],
 'hessian_lin_cg1_st0_vec0': ['ok',
                              ['T', [2, 2, 2, 2], 'float64', False,
                               [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0,
                                0.0, 0.0, 0.0]]],
 'hessian_lin_cg1_st0_vec1': ['ok',
                              ['T', [2, 2, 2, 2], 'float64', False,
                               [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0,
                                0.0, 0.0, 0.0]]],
 'hessian_lin_cg1_st1_vec0': ['err', 'RuntimeError',
                              'While computing the hessian, found that the jacobian of the '
                              'user-provided function with respect to input 0 is independent of '
                              'the input. This is not allowed in strict mode. You should ensure '
                              'that your function is twice differentiable and that the jacobian '
                              'depends on the inputs (this would be violated by a linear function '
                              'for example).'],
 'hessian_lin_cg1_st1_vec1': ['err', 'RuntimeError',
                              'While computing the hessian, found that the jacobian of the '
                              'user-provided function with respect to input 0 is independent of '
                              'the input. This is not allowed in strict mode. You should ensure '
                              'that your function is twice differentiable and that the jacobian '
                              'depends on the inputs (this would be violated by a linear function '
                              'for example).'],
 'hessian_quad_cg0_st0_vec0': ['ok',
                               ['T', [2, 2, 2, 2], 'float64', False,
                                [2.0, 0.0, 0.0, 0.0, 0.0, 2.0, 0.0, 0.0, 0.0, 0.0, 2.0, 0.0, 0.0,
                                 0.0, 0.0, 2.0]]],
 'hessian_quad_cg0_st0_vec1': ['ok',
                               ['T', [2, 2, 2, 2], 'float64', False,
                                [2.0, 0.0, 0.0, 0.0, 0.0, 2.0, 0.0, 0.0, 0.0, 0.0, 2.0, 0.0, 0.0,
                                 0.0, 0.0, 2.0]]],
 'hessian_quad_cg0_st1_vec0': ['ok',
                               ['T', [2, 2, 2, 2], 'float64', False,
                                [2.0, 0.0, 0.0, 0.0, 0.0, 2.0, 0.0, 0.0, 0.0, 0.0, 2.0, 0.0, 0.0,
                                 0.0, 0.0, 2.0]]],
 'hessian_quad_cg0_st1_vec1': ['err', 'RuntimeError',
                               'torch.autograd.functional.jacobian: `strict=True` and '
                               '`vectorized=True` are not supported together. Please either set '
                               '`strict=False` or `vectorize=False`.'],
 'hessian_quad_cg1_st0_vec0': ['ok',
                               ['T', [2, 2, 2, 2], 'float64', False,
                                [2.0, 0.0, 0.0, 0.0, 0.0, 2.0, 0.0, 0.0, 0.0, 0.0, 2.0, 0.0, 0.0,
                                 0.0, 0.0, 2.0]]],
 'hessian_quad_cg1_st0_vec1': ['ok',
                               ['T', [2, 2, 2, 2], 'float64', False,
                                [2.0, 0.0, 0.0, 0.0, 0.0, 2.0, 0.0, 0.0, 0.0, 0.0, 2.0, 0.0, 0.0,
                                 0.0, 0.0, 2.0]]],
 'hessian_quad_cg1_st1_vec0': ['err', 'RuntimeError',
                               'The jacobian of the user-provided function is independent of input '
                               '0. This is not allowed in strict mode when create_graph=True.'],
 'hessian_quad_cg1_st1_vec1': ['err', 'RuntimeError',
                               'torch.autograd.functional.jacobian: `strict=True` and '
                               '`vectorized=True` are not supported together. Please either set '
                               '`strict=False` or `vectorize=False`.'],
 'hessian_tuple_cg0_st0_vec0': ['ok',
                                ['tuple',
                                 [['tuple',
                                   [['T', [2, 2, 2, 2], 'float64', False,
                                     [-0.14382766158126087, 0.0, -0.0, -0.0, -0.0,
                                      0.2796117257901678, -0.0, -0.0, -0.0, 0.0,
                                      -0.08865606199840184, -0.0, -0.0, 0.0, -0.0,
                                      -0.27278922804770445]],
                                    ['T', [2, 2, 2], 'float64', False,
                                     [0.8775825618903728, 0.8775825618903728, 0.3623577544766736,
                                      0.3623577544766736, 0.955336489125606, 0.955336489125606,
                                      -0.4161468365471424, -0.4161468365471424]]]],
                                  ['tuple',
                                   [['T', [2, 2, 2], 'float64', False,
                                     [0.8775825618903728, 0.3623577544766736, 0.955336489125606,
                                      -0.4161468365471424, 0.8775825618903728, 0.3623577544766736,
                                      0.955336489125606, -0.4161468365471424]],
                                    ['T', [2, 2], 'float64', False,
                                     [4.199999999999999, -0.0, 0.0, -2.4000000000000004]]]]]]],
 'hessian_tuple_cg0_st0_vec1': ['ok',
                                ['tuple',
                                 [['tuple',
                                   [['T', [2, 2, 2, 2], 'float64', False,
                                     [-0.14382766158126087, 0.0, 0.0, -0.0, 0.0, 0.2796117257901678,
                                      0.0, -0.0, 0.0, 0.0, -0.08865606199840184, -0.0, 0.0, 0.0,
                                      0.0, -0.27278922804770445]],
                                    ['T', [2, 2, 2], 'float64', False,
                                     [0.8775825618903728, 0.8775825618903728, 0.3623577544766736,
                                      0.3623577544766736, 0.955336489125606, 0.955336489125606,
                                      -0.4161468365471424, -0.4161468365471424]]]],
                                  ['tuple',
                                   [['T', [2, 2, 2], 'float64', False,
                                     [0.8775825618903728, 0.3623577544766736, 0.955336489125606,
                                      -0.4161468365471424, 0.8775825618903728, 0.3623577544766736,
                                      0.955336489125606, -0.4161468365471424]],
                                    ['T', [2, 2], 'float64', False,
                                     [4.199999999999999, 0.0, 0.0, -2.4000000000000004]]]]]]],
 'hessian_tuple_cg0_st1_vec0': ['ok',
                                ['tuple',
                                 [['tuple',
                                   [['T', [2, 2, 2, 2], 'float64', False,
                                     [-0.14382766158126087, 0.0, -0.0, -0.0, -0.0,
                                      0.2796117257901678, -0.0, -0.0, -0.0, 0.0,
                                      -0.08865606199840184, -0.0, -0.0, 0.0, -0.0,
                                      -0.27278922804770445]],
                                    ['T', [2, 2, 2], 'float64', False,
                                     [0.8775825618903728, 0.8775825618903728, 0.3623577544766736,
                                      0.3623577544766736, 0.955336489125606, 0.955336489125606,
                                      -0.4161468365471424, -0.4161468365471424]]]],
                                  ['tuple',
                                   [['T', [2, 2, 2], 'float64', False,
                                     [0.8775825618903728, 0.3623577544766736, 0.955336489125606,
                                      -0.4161468365471424, 0.8775825618903728, 0.3623577544766736,
                                      0.955336489125606, -0.4161468365471424]],
                                    ['T', [2, 2], 'float64', False,
                                     [4.199999999999999, -0.0, 0.0, -2.4000000000000004]]]]]]],
 'hessian_tuple_cg0_st1_vec1': ['err', 'RuntimeError',
                                'torch.autograd.functional.jacobian: `strict=True` and '
                                '`vectorized=True` are not supported together. Please either set '
                                '`strict=False` or `vectorize=False`.'],
 'hessian_tuple_cg1_st0_vec0': ['ok',
                                ['tuple',
                                 [['tuple',
                                   [['T', [2, 2, 2, 2], 'float64', True,
                                     [-0.14382766158126087, 0.0, -0.0, -0.0, -0.0,
                                      0.2796117257901678, -0.0, -0.0, -0.0, 0.0,
                                      -0.08865606199840184, -0.0, -0.0, 0.0, -0.0,
                                      -0.27278922804770445]],
                                    ['T', [2, 2, 2], 'float64', True,
                                     [0.8775825618903728, 0.8775825618903728, 0.3623577544766736,
                                      0.3623577544766736, 0.955336489125606, 0.955336489125606,
                                      -0.4161468365471424, -0.4161468365471424]]]],
                                  ['tuple',
                                   [['T', [2, 2, 2], 'float64', True,
                                     [0.8775825618903728, 0.3623577544766736, 0.955336489125606,
                                      -0.4161468365471424, 0.8775825618903728, 0.3623577544766736,
                                      0.955336489125606, -0.4161468365471424]],
                                    ['T', [2, 2], 'float64', True,
                                     [4.199999999999999, -0.0, 0.0, -2.4000000000000004]]]]]]],
 'hessian_tuple_cg1_st0_vec1': ['ok',
                                ['tuple',
                                 [['tuple',
                                   [['T', [2, 2, 2, 2], 'float64', True,
                                     [-0.14382766158126087, 0.0, 0.0, -0.0, 0.0, 0.2796117257901678,
                                      0.0, -0.0, 0.0, 0.0, -0.08865606199840184, -0.0, 0.0, 0.0,
                                      0.0, -0.27278922804770445]],
                                    ['T', [2, 2, 2], 'float64', True,
                                     [0.8775825618903728, 0.8775825618903728, 0.3623577544766736,
                                      0.3623577544766736, 0.955336489125606, 0.955336489125606,
                                      -0.4161468365471424, -0.4161468365471424]]]],
                                  ['tuple',
                                   [['T', [2, 2, 2], 'float64', True,
                                     [0.8775825618903728, 0.3623577544766736, 0.955336489125606,
                                      -0.4161468365471424, 0.8775825618903728, 0.3623577544766736,
                                      0.955336489125606, -0.4161468365471424]],
                                    ['T', [2, 2], 'float64', True,
                                     [4.199999999999999, 0.0, 0.0, -2.4000000000000004]]]]]]],
 'hessian_tuple_cg1_st1_vec0': ['ok',
                                ['tuple',
                                 [['tuple',
                                   [['T', [2, 2, 2, 2], 'float64', True,
                                     [-0.14382766158126087, 0.0, -0.0, -0.0, -0.0,
                                      0.2796117257901678, -0.0, -0.0, -0.0, 0.0,
                                      -0.08865606199840184, -0.0, -0.0, 0.0, -0.0,
                                      -0.27278922804770445]],
                                    ['T', [2, 2, 2], 'float64', True,
                                     [0.8775825618903728, 0.8775825618903728, 0.3623577544766736,
                                      0.3623577544766736, 0.955336489125606, 0.955336489125606,
                                      -0.4161468365471424, -0.4161468365471424]]]],
                                  ['tuple',
                                   [['T', [2, 2, 2], 'float64', True,
                                     [0.8775825618903728, 0.3623577544766736, 0.955336489125606,
                                      -0.4161468365471424, 0.8775825618903728, 0.3623577544766736,
                                      0.955336489125606, -0.4161468365471424]],
                                    ['T', [2, 2], 'float64', True,
                                     [4.199999999999999, -0.0, 0.0, -2.4000000000000004]]]]]]],
 'hessian_tuple_cg1_st1_vec1': ['err', 'RuntimeError',
                                'torch.autograd.functional.jacobian: `strict=True` and '
                                '`vectorized=True` are not supported together. Please either set '
                                '`strict=False` or `vectorize=False`.'],
 'hessian_unused_cg0_st0_vec0': ['ok',
                                 ['tuple',
                                  [['tuple',
                                    [['T', [2, 2, 2, 2], 'float64', False,
                                      [3.0, -0.0, 0.0, 0.0, 0.0, -7.199999999999999, 0.0, 0.0, 0.0,
                                       -0.0, 1.7999999999999998, 0.0, 0.0, -0.0, 0.0, 12.0]],
                                     ['T', [2, 2, 2], 'float64', False,
                                      [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]]]],
                                   ['tuple',
                                    [['T', [2, 2, 2], 'float64', False,
                                      [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]],
                                     ['T', [2, 2], 'float64', False, [0.0, 0.0, 0.0, 0.0]]]]]]],
 'hessian_unused_cg0_st0_vec1': ['ok',
                                 ['tuple',
                                  [['tuple',
                                    [['T', [2, 2, 2, 2], 'float64', False,
                                      [3.0, -0.0, 0.0, 0.0, 0.0, -7.199999999999999, 0.0, 0.0, 0.0,
                                       -0.0, 1.7999999999999998, 0.0, 0.0, -0.0, 0.0, 12.0]],
                                     ['T', [2, 2, 2], 'float64', False,
                                      [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]]]],
                                   ['tuple',
                                    [['T', [2, 2, 2], 'float64', False,
                                      [0.0, -0.0, 0.0, 0.0, 0.0, -0.0, 0.0, 0.0]],
                                     ['T', [2, 2], 'float64', False, [0.0, 0.0, 0.0, 0.0]]]]]]],
 'hessian_unused_cg0_st1_vec0': ['err', 'RuntimeError',
                                 'While computing the hessian, found that the jacobian of the '
                                 'user-provided function with respect to input 1 is independent of '
                                 'the input. This is not allowed in strict mode. You should ensure '
                                 'that your function is twice differentiable and that the jacobian '
                                 'depends on the inputs (this would be violated by a linear '
                                 'function for example).'],
 'hessian_unused_cg0_st1_vec1': ['err', 'RuntimeError',
                                 'While computing the hessian, found that the jacobian of the '
                                 'user-provided function with respect to input 1 is independent of '
                                 'the input. This is not allowed in strict mode. You should ensure '
                                 'that your function is twice differentiable and that the jacobian '
                                 'depends on the inputs (this would be violated by a linear '
                                 'function for example).'],
 'hessian_unused_cg1_st0_vec0': ['ok',
                                 ['tuple',
                                  [['tuple',
                                    [['T', [2, 2, 2, 2], 'float64', True,
                                      [3.0, -0.0, 0.0, 0.0, 0.0, -7.199999999999999, 0.0, 0.0, 0.0,
                                       -0.0, 1.7999999999999998, 0.0, 0.0, -0.0, 0.0, 12.0]],
                                     ['T', [2, 2, 2], 'float64', False,
                                      [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]]]],
                                   ['tuple',
                                    [['T', [2, 2, 2], 'float64', False,
                                      [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]],
                                     ['T', [2, 2], 'float64', False, [0.0, 0.0, 0.0, 0.0]]]]]]],
 'hessian_unused_cg1_st0_vec1': ['ok',
                                 ['tuple',
                                  [['tuple',
                                    [['T', [2, 2, 2, 2], 'float64', True,
                                      [3.0, -0.0, 0.0, 0.0, 0.0, -7.199999999999999, 0.0, 0.0, 0.0,
                                       -0.0, 1.7999999999999998, 0.0, 0.0, -0.0, 0.0, 12.0]],
                                     ['T', [2, 2, 2], 'float64', False,
                                      [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]]]],
                                   ['tuple',
                                    [['T', [2, 2, 2], 'float64', True,
                                      [0.0, -0.0, 0.0, 0.0, 0.0, -0.0, 0.0, 0.0]],
                                     ['T', [2, 2], 'float64', False, [0.0, 0.0, 0.0, 0.0]]]]]]],
 'hessian_unused_cg1_st1_vec0': ['err', 'RuntimeError',
                                 'While computing the hessian, found that the jacobian of the '
                                 'user-provided function with respect to input 1 is independent of '
                                 'the input. This is not allowed in strict mode. You should ensure '
                                 'that your function is twice differentiable and that the jacobian '
                                 'depends on the inputs (this would be violated by a linear '
                                 'function for example).'],
 'hessian_unused_cg1_st1_vec1': ['err', 'RuntimeError',
                                 'While computing the hessian, found that the jacobian of the '
                                 'user-provided function with respect to input 1 is independent of '
                                 'the input. This is not allowed in strict mode. You should ensure '
                                 'that your function is twice differentiable and that the jacobian '
                                 'depends on the inputs (this would be violated by a linear '
                                 'function for example).'],
 'hvp_cubic_cg0_st0': ['ok',
                       ['tuple',
                        [['T', [], 'float64', False, [6.4239999999999995]],
                         ['T', [2, 2], 'float64', False,
                          [3.0, -14.399999999999999, -1.7999999999999998, 6.0]]]]],
 'hvp_cubic_cg0_st1': ['ok',
                       ['tuple',
                        [['T', [], 'float64', False, [6.4239999999999995]],
                         ['T', [2, 2], 'float64', False,
                          [3.0, -14.399999999999999, -1.7999999999999998, 6.0]]]]],
 'hvp_cubic_cg1_st0': ['ok',
                       ['tuple',
                        [['T', [], 'float64', True, [6.4239999999999995]],
                         ['T', [2, 2], 'float64', True,
                          [3.0, -14.399999999999999, -1.7999999999999998, 6.0]]]]],
 'hvp_cubic_cg1_st1': ['ok',
                       ['tuple',
                        [['T', [], 'float64', True, [6.4239999999999995]],
                         ['T', [2, 2], 'float64', True,
                          [3.0, -14.399999999999999, -1.7999999999999998, 6.0]]]]],
 'hvp_lin_cg0_st0': ['ok',
                     ['tuple',
                      [['T', [], 'float64', False, [3.2]],
                       ['T', [2, 2], 'float64', False, [0.0, 0.0, 0.0, 0.0]]]]],
 'hvp_lin_cg0_st1': ['err', 'RuntimeError',
                     'While computing the hessian, found that the jacobian of the user-provided '
                     'function with respect to input 0 is independent of the input. This is not '
                     'allowed in strict mode. You should ensure that your function is twice '
                     'differentiable and that the jacobian depends on the inputs (this would be '
                     'violated by a linear function for example).'],
 'hvp_lin_cg1_st0': ['ok',
                     ['tuple',
                      [['T', [], 'float64', True, [3.2]],
                       ['T', [2, 2], 'float64', False, [0.0, 0.0, 0.0, 0.0]]]]],
 'hvp_lin_cg1_st1': ['err', 'RuntimeError',
                     'While computing the hessian, found that the jacobian of the user-provided '
                     'function with respect to input 0 is independent of the input. This is not '
                     'allowed in strict mode. You should ensure that your function is twice '
                     'differentiable and that the jacobian depends on the inputs (this would be '
                     'violated by a linear function for example).'],
 'hvp_quad_cg0_st0': ['ok',
                      ['tuple',
                       [['T', [], 'float64', False, [5.78]],
                        ['T', [2, 2], 'float64', False, [2.0, 4.0, -2.0, 1.0]]]]],
 'hvp_quad_cg0_st1': ['ok',
                      ['tuple',
                       [['T', [], 'float64', False, [5.78]],
                        ['T', [2, 2], 'float64', False, [2.0, 4.0, -2.0, 1.0]]]]],
 'hvp_quad_cg1_st0': ['ok',
                      ['tuple',
                       [['T', [], 'float64', True, [5.78]],
                        ['T', [2, 2], 'float64', False, [2.0, 4.0, -2.0, 1.0]]]]],
 'hvp_quad_cg1_st1': ['err', 'RuntimeError',
                      'The hessian of the user-provided function is independent of input 0. This '
                      'is not allowed in strict mode when create_graph=True.'],
 'hvp_single_none_cg0_st0': ['ok',
                             ['tuple',
                              [['T', [], 'float64', False, [0.0081]],
                               ['T', [1], 'float64', False, [1.08]]]]],
 'hvp_single_none_cg0_st1': ['ok',
                             ['tuple',
                              [['T', [], 'float64', False, [0.0081]],
                               ['T', [1], 'float64', False, [1.08]]]]],
 'hvp_single_none_cg1_st0': ['ok',
                             ['tuple',
                              [['T', [], 'float64', True, [0.0081]],
                               ['T', [1], 'float64', True, [1.08]]]]],
 'hvp_single_none_cg1_st1': ['ok',
                             ['tuple',
                              [['T', [], 'float64', True, [0.0081]],
                               ['T', [1], 'float64', True, [1.08]]]]],
 'hvp_tuple_cg0_st0': ['ok',
                       ['tuple',
                        [['T', [], 'float64', False, [0.5046612258371992]],
                         ['tuple',
                          [['T', [2, 2], 'float64', False,
                            [0.733754900309112, 0.9215812060570092, 1.0439925511240078,
                             -0.5525414505709947]],
                           ['T', [2], 'float64', False,
                            [6.738888163444542, 1.638888163444543]]]]]]],
 'hvp_tuple_cg0_st1': ['ok',
                       ['tuple',
                        [['T', [], 'float64', False, [0.5046612258371992]],
                         ['tuple',
                          [['T', [2, 2], 'float64', False,
                            [0.733754900309112, 0.9215812060570092, 1.0439925511240078,
                             -0.5525414505709947]],
                           ['T', [2], 'float64', False,
                            [6.738888163444542, 1.638888163444543]]]]]]],
 'hvp_tuple_cg1_st0': ['ok',
                       ['tuple',
                        [['T', [], 'float64', True, [0.5046612258371992]],
                         ['tuple',
                          [['T', [2, 2], 'float64', True,
                            [0.733754900309112, 0.9215812060570092, 1.0439925511240078,
                             -0.5525414505709947]],
                           ['T', [2], 'float64', True, [6.738888163444542, 1.638888163444543]]]]]]],
 'hvp_tuple_cg1_st1': ['ok',
                       ['tuple',
                        [['T', [], 'float64', True, [0.5046612258371992]],
                         ['tuple',
                          [['T', [2, 2], 'float64', True,
                            [0.733754900309112, 0.9215812060570092, 1.0439925511240078,
                             -0.5525414505709947]],
                           ['T', [2], 'float64', True, [6.738888163444542, 1.638888163444543]]]]]]],
 'hvp_unused_cg0_st0': ['ok',
                        ['tuple',
                         [['T', [], 'float64', False, [6.4239999999999995]],
                          ['tuple',
                           [['T', [2, 2], 'float64', False,
                             [3.0, -14.399999999999999, -1.7999999999999998, 6.0]],
                            ['T', [2], 'float64', False, [0.0, 0.0]]]]]]],
 'hvp_unused_cg0_st1': ['err', 'RuntimeError',
                        'The output of the user-provided function is independent of input 1. This '
                        'is not allowed in strict mode.'],
 'hvp_unused_cg1_st0': ['ok',
                        ['tuple',
                         [['T', [], 'float64', True, [6.4239999999999995]],
                          ['tuple',
                           [['T', [2, 2], 'float64', True,
                             [3.0, -14.399999999999999, -1.7999999999999998, 6.0]],
                            ['T', [2], 'float64', False, [0.0, 0.0]]]]]]],
 'hvp_unused_cg1_st1': ['err', 'RuntimeError',
                        'The output of the user-provided function is independent of input 1. This '
                        'is not allowed in strict mode.'],
 'jacobian_const_cg0_st0_vec0': ['ok',
                                 ['T', [2, 2, 2, 2], 'float64', False,
                                  [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0,
                                   0.0, 0.0, 0.0]]],
 'jacobian_const_cg0_st0_vec1': ['ok',
                                 ['T', [2, 2, 2, 2], 'float64', False,
                                  [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0,
                                   0.0, 0.0, 0.0]]],
 'jacobian_const_cg0_st1_vec0': ['err', 'RuntimeError',
                                 'Output 0 of the user-provided function does not require '
                                 'gradients. The outputs must be computed in a differentiable '
                                 'manner from the input when running in strict mode.'],
 'jacobian_const_cg0_st1_vec1': ['err', 'RuntimeError',
                                 'Output 0 of the user-provided function does not require '
                                 'gradients. The outputs must be computed in a differentiable '
                                 'manner from the input when running in strict mode.'],
 'jacobian_const_cg1_st0_vec0': ['ok',
                                 ['T', [2, 2, 2, 2], 'float64', False,
                                  [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0,
                                   0.0, 0.0, 0.0]]],
 'jacobian_const_cg1_st0_vec1': ['ok',
                                 ['T', [2, 2, 2, 2], 'float64', False,
                                  [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0,
                                   0.0, 0.0, 0.0]]],
 'jacobian_const_cg1_st1_vec0': ['err', 'RuntimeError',
                                 'Output 0 of the user-provided function does not require '
                                 'gradients. The outputs must be computed in a differentiable '
                                 'manner from the input when running in strict mode.'],
 'jacobian_const_cg1_st1_vec1': ['err', 'RuntimeError',
                                 'Output 0 of the user-provided function does not require '
                                 'gradients. The outputs must be computed in a differentiable '
                                 'manner from the input when running in strict mode.'],
 'jacobian_history_cg0': ['ok',
                          ['tuple',
                           [['T', [2, 2, 2, 2], 'float64', False,
                             [0.5403023058681398, -0.0, 0.0, -0.0, 0.0, -0.7373937155412454, 0.0,
                              -0.0, 0.0, -0.0, 0.8253356149096783, -0.0, 0.0, -0.0, 0.0,
                              -0.6536436208636119]],
                            None]]],
 'jacobian_history_cg1': ['ok',
                          ['tuple',
                           [['T', [2, 2, 2, 2], 'float64', True,
                             [0.5403023058681398, -0.0, 0.0, -0.0, 0.0, -0.7373937155412454, 0.0,
                              -0.0, 0.0, -0.0, 0.8253356149096783, -0.0, 0.0, -0.0, 0.0,
                              -0.6536436208636119]],
                            ['tuple',
                             [['T', [2, 2], 'float64', False,
                               [-1.682941969615793, 1.350926361102302, -1.1292849467900707,
                                1.5136049906158564]]]]]]],
 'jacobian_lin_cg0_st0_vec0': ['ok',
                               ['T', [2, 2, 2, 2], 'float64', False,
                                [3.0, 0.0, 0.0, 0.0, 0.0, 3.0, 0.0, 0.0, 0.0, 0.0, 3.0, 0.0, 0.0,
                                 0.0, 0.0, 3.0]]],
 'jacobian_lin_cg0_st0_vec1': ['ok',
                               ['T', [2, 2, 2, 2], 'float64', False,
                                [3.0, 0.0, 0.0, 0.0, 0.0, 3.0, 0.0, 0.0, 0.0, 0.0, 3.0, 0.0, 0.0,
                                 0.0, 0.0, 3.0]]],
 'jacobian_lin_cg0_st1_vec0': ['ok',
                               ['T', [2, 2, 2, 2], 'float64', False,
                                [3.0, 0.0, 0.0, 0.0, 0.0, 3.0, 0.0, 0.0, 0.0, 0.0, 3.0, 0.0, 0.0,
                                 0.0, 0.0, 3.0]]],
 'jacobian_lin_cg0_st1_vec1': ['err', 'RuntimeError',
                               'torch.autograd.functional.jacobian: `strict=True` and '
                               '`vectorized=True` are not supported together. Please either set '
                               '`strict=False` or `vectorize=False`.'],
 'jacobian_lin_cg1_st0_vec0': ['ok',
                               ['T', [2, 2, 2, 2], 'float64', False,
                                [3.0, 0.0, 0.0, 0.0, 0.0, 3.0, 0.0, 0.0, 0.0, 0.0, 3.0, 0.0, 0.0,
                                 0.0, 0.0, 3.0]]],
 'jacobian_lin_cg1_st0_vec1': ['ok',
                               ['T', [2, 2, 2, 2], 'float64', False,
                                [3.0, 0.0, 0.0, 0.0, 0.0, 3.0, 0.0, 0.0, 0.0, 0.0, 3.0, 0.0, 0.0,
                                 0.0, 0.0, 3.0]]],
 'jacobian_lin_cg1_st1_vec0': ['err', 'RuntimeError',
                               'The jacobian of the user-provided function is independent of input '
                               '0. This is not allowed in strict mode when create_graph=True.'],
 'jacobian_lin_cg1_st1_vec1': ['err', 'RuntimeError',
                               'torch.autograd.functional.jacobian: `strict=True` and '
                               '`vectorized=True` are not supported together. Please either set '
                               '`strict=False` or `vectorize=False`.'],
 'jacobian_t_cg0_st0_vec0': ['ok',
                             ['T', [2, 2, 2, 2], 'float64', False,
                              [0.9182168195493894, -0.0, 0.0, 0.0, 0.0, -1.3668683913392345, 0.0,
                               0.0, 0.0, -0.0, 0.5821211533990214, 0.0, 0.0, -0.0, 0.0,
                               0.0770037537313969]]],
 'jacobian_t_cg0_st0_vec1': ['ok',
                             ['T', [2, 2, 2, 2], 'float64', False,
                              [0.9182168195493894, -0.0, 0.0, 0.0, 0.0, -1.3668683913392345, 0.0,
                               0.0, 0.0, -0.0, 0.5821211533990214, 0.0, 0.0, -0.0, 0.0,
                               0.0770037537313969]]],
 'jacobian_t_cg0_st1_vec0': ['ok',
                             ['T', [2, 2, 2, 2], 'float64', False,
                              [0.9182168195493894, -0.0, 0.0, 0.0, 0.0, -1.3668683913392345, 0.0,
                               0.0, 0.0, -0.0, 0.5821211533990214, 0.0, 0.0, -0.0, 0.0,
                               0.0770037537313969]]],
 'jacobian_t_cg0_st1_vec1': ['err', 'RuntimeError',
                             'torch.autograd.functional.jacobian: `strict=True` and '
                             '`vectorized=True` are not supported together. Please either set '
                             '`strict=False` or `vectorize=False`.'],
 'jacobian_t_cg1_st0_vec0': ['ok',
                             ['T', [2, 2, 2, 2], 'float64', True,
                              [0.9182168195493894, -0.0, 0.0, 0.0, 0.0, -1.3668683913392345, 0.0,
                               0.0, 0.0, -0.0, 0.5821211533990214, 0.0, 0.0, -0.0, 0.0,
                               0.0770037537313969]]],
 'jacobian_t_cg1_st0_vec1': ['ok',
                             ['T', [2, 2, 2, 2], 'float64', True,
                              [0.9182168195493894, -0.0, 0.0, 0.0, 0.0, -1.3668683913392345, 0.0,
                               0.0, 0.0, -0.0, 0.5821211533990214, 0.0, 0.0, -0.0, 0.0,
                               0.0770037537313969]]],
 'jacobian_t_cg1_st1_vec0': ['ok',
                             ['T', [2, 2, 2, 2], 'float64', True,
                              [0.9182168195493894, -0.0, 0.0, 0.0, 0.0, -1.3668683913392345, 0.0,
                               0.0, 0.0, -0.0, 0.5821211533990214, 0.0, 0.0, -0.0, 0.0,
                               0.0770037537313969]]],
 'jacobian_t_cg1_st1_vec1': ['err', 'RuntimeError',
                             'torch.autograd.functional.jacobian: `strict=True` and '
                             '`vectorized=True` are not supported together. Please either set '
                             '`strict=False` or `vectorize=False`.'],
 'jacobian_tt_cg0_st0_vec0': ['ok',
                              ['tuple',
                               [['tuple',
                                 [['T', [2, 2, 2], 'float64', False,
                                   [0.6143077933232609, -0.14494310179066947, 0.0, 0.0, 0.0, -0.0,
                                    0.6687355423879241, 0.16645873461885696]],
                                  ['T', [2, 2], 'float64', False,
                                   [0.479425538604203, -0.9320390859672263, 0.29552020666133955,
                                    0.9092974268256817]]]],
                                ['tuple',
                                 [['T', [2, 2, 2], 'float64', False,
                                   [0.8078734226430627, 0.14758516383697903, 0.6614308157122415,
                                    3.620637488476018, 0.26379540331202056, 0.04819107390595235,
                                    0.21597740921216055, 1.1822489758289043]],
                                  ['T', [2, 2], 'float64', False,
                                   [14.964362544766576, -0.0, 0.0, -8.551064311295187]]]]]]],
 'jacobian_tt_cg0_st0_vec1': ['ok',
                              ['tuple',
                               [['tuple',
                                 [['T', [2, 2, 2], 'float64', False,
                                   [0.6143077933232609, -0.14494310179066947, 0.0, 0.0, 0.0, 0.0,
                                    0.6687355423879241, 0.16645873461885696]],
                                  ['T', [2, 2], 'float64', False,
                                   [0.479425538604203, -0.9320390859672263, 0.29552020666133955,
                                    0.9092974268256817]]]],
                                ['tuple',
                                 [['T', [2, 2, 2], 'float64', False,
                                   [0.8078734226430627, 0.14758516383697903, 0.6614308157122415,
                                    3.620637488476018, 0.26379540331202056, 0.04819107390595235,
                                    0.21597740921216055, 1.1822489758289043]],
                                  ['T', [2, 2], 'float64', False,
                                   [14.964362544766576, 0.0, 0.0, -8.551064311295187]]]]]]],
 'jacobian_tt_cg0_st1_vec0': ['ok',
                              ['tuple',
                               [['tuple',
                                 [['T', [2, 2, 2], 'float64', False,
                                   [0.6143077933232609, -0.14494310179066947, 0.0, 0.0, 0.0, -0.0,
                                    0.6687355423879241, 0.16645873461885696]],
                                  ['T', [2, 2], 'float64', False,
                                   [0.479425538604203, -0.9320390859672263, 0.29552020666133955,
                                    0.9092974268256817]]]],
                                ['tuple',
                                 [['T', [2, 2, 2], 'float64', False,
                                   [0.8078734226430627, 0.14758516383697903, 0.6614308157122415,
                                    3.620637488476018, 0.26379540331202056, 0.04819107390595235,
                                    0.21597740921216055, 1.1822489758289043]],
                                  ['T', [2, 2], 'float64', False,
                                   [14.964362544766576, -0.0, 0.0, -8.551064311295187]]]]]]],
 'jacobian_tt_cg0_st1_vec1': ['err', 'RuntimeError',
                              'torch.autograd.functional.jacobian: `strict=True` and '
                              '`vectorized=True` are not supported together. Please either set '
                              '`strict=False` or `vectorize=False`.'],
 'jacobian_tt_cg1_st0_vec0': ['ok',
                              ['tuple',
                               [['tuple',
                                 [['T', [2, 2, 2], 'float64', True,
                                   [0.6143077933232609, -0.14494310179066947, 0.0, 0.0, 0.0, -0.0,
                                    0.6687355423879241, 0.16645873461885696]],
                                  ['T', [2, 2], 'float64', True,
                                   [0.479425538604203, -0.9320390859672263, 0.29552020666133955,
                                    0.9092974268256817]]]],
                                ['tuple',
                                 [['T', [2, 2, 2], 'float64', True,
                                   [0.8078734226430627, 0.14758516383697903, 0.6614308157122415,
                                    3.620637488476018, 0.26379540331202056, 0.04819107390595235,
                                    0.21597740921216055, 1.1822489758289043]],
                                  ['T', [2, 2], 'float64', True,
                                   [14.964362544766576, -0.0, 0.0, -8.551064311295187]]]]]]],
 'jacobian_tt_cg1_st0_vec1': ['ok',
                              ['tuple',
                               [['tuple',
                                 [['T', [2, 2, 2], 'float64', True,
                                   [0.6143077933232609, -0.14494310179066947, 0.0, 0.0, 0.0, 0.0,
                                    0.6687355423879241, 0.16645873461885696]],
                                  ['T', [2, 2], 'float64', True,
                                   [0.479425538604203, -0.9320390859672263, 0.29552020666133955,
                                    0.9092974268256817]]]],
                                ['tuple',
                                 [['T', [2, 2, 2], 'float64', True,
                                   [0.8078734226430627, 0.14758516383697903, 0.6614308157122415,
                                    3.620637488476018, 0.26379540331202056, 0.04819107390595235,
                                    0.21597740921216055, 1.1822489758289043]],
                                  ['T', [2, 2], 'float64', True,
                                   [14.964362544766576, 0.0, 0.0, -8.551064311295187]]]]]]],
 'jacobian_tt_cg1_st1_vec0': ['ok',
                              ['tuple',
                               [['tuple',
                                 [['T', [2, 2, 2], 'float64', True,
                                   [0.6143077933232609, -0.14494310179066947, 0.0, 0.0, 0.0, -0.0,
                                    0.6687355423879241, 0.16645873461885696]],
                                  ['T', [2, 2], 'float64', True,
                                   [0.479425538604203, -0.9320390859672263, 0.29552020666133955,
                                    0.9092974268256817]]]],
                                ['tuple',
                                 [['T', [2, 2, 2], 'float64', True,
                                   [0.8078734226430627, 0.14758516383697903, 0.6614308157122415,
                                    3.620637488476018, 0.26379540331202056, 0.04819107390595235,
                                    0.21597740921216055, 1.1822489758289043]],
                                  ['T', [2, 2], 'float64', True,
                                   [14.964362544766576, -0.0, 0.0, -8.551064311295187]]]]]]],
 'jacobian_tt_cg1_st1_vec1': ['err', 'RuntimeError',
                              'torch.autograd.functional.jacobian: `strict=True` and '
                              '`vectorized=True` are not supported together. Please either set '
                              '`strict=False` or `vectorize=False`.'],
 'jacobian_unused_cg0_st0_vec0': ['ok',
                                  ['tuple',
                                   [['T', [2, 2, 2, 2], 'float64', False,
                                     [0.7864477329659274, 0.0, 0.0, 0.0, 0.0, 0.30501999620740905,
                                      0.0, 0.0, 0.0, 0.0, 0.9151369618266292, 0.0, 0.0, 0.0, 0.0,
                                      0.07065082485316443]],
                                    ['T', [2, 2, 2], 'float64', False,
                                     [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]]]]],
 'jacobian_unused_cg0_st0_vec1': ['ok',
                                  ['tuple',
                                   [['T', [2, 2, 2, 2], 'float64', False,
                                     [0.7864477329659274, 0.0, 0.0, 0.0, 0.0, 0.30501999620740905,
                                      0.0, 0.0, 0.0, 0.0, 0.9151369618266292, 0.0, 0.0, 0.0, 0.0,
                                      0.07065082485316443]],
                                    ['T', [2, 2, 2], 'float64', False,
                                     [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]]]]],
 'jacobian_unused_cg0_st1_vec0': ['err', 'RuntimeError',
                                  'Output 0 of the user-provided function is independent of input '
                                  '1. This is not allowed in strict mode.'],
 'jacobian_unused_cg0_st1_vec1': ['err', 'RuntimeError',
                                  'torch.autograd.functional.jacobian: `strict=True` and '
                                  '`vectorized=True` are not supported together. Please either set '
                                  '`strict=False` or `vectorize=False`.'],
 'jacobian_unused_cg1_st0_vec0': ['ok',
                                  ['tuple',
                                   [['T', [2, 2, 2, 2], 'float64', True,
                                     [0.7864477329659274, 0.0, 0.0, 0.0, 0.0, 0.30501999620740905,
                                      0.0, 0.0, 0.0, 0.0, 0.9151369618266292, 0.0, 0.0, 0.0, 0.0,
                                      0.07065082485316443]],
                                    ['T', [2, 2, 2], 'float64', False,
                                     [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]]]]],
 'jacobian_unused_cg1_st0_vec1': ['ok',
                                  ['tuple',
                                   [['T', [2, 2, 2, 2], 'float64', True,
                                     [0.7864477329659274, 0.0, 0.0, 0.0, 0.0, 0.30501999620740905,
                                      0.0, 0.0, 0.0, 0.0, 0.9151369618266292, 0.0, 0.0, 0.0, 0.0,
                                      0.07065082485316443]],
                                    ['T', [2, 2, 2], 'float64', False,
                                     [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]]]]],
 'jacobian_unused_cg1_st1_vec0': ['err', 'RuntimeError',
                                  'Output 0 of the user-provided function is independent of input '
                                  '1. This is not allowed in strict mode.'],
 'jacobian_unused_cg1_st1_vec1': ['err', 'RuntimeError',
                                  'torch.autograd.functional.jacobian: `strict=True` and '
                                  '`vectorized=True` are not supported together. Please either set '
                                  '`strict=False` or `vectorize=False`.'],
 'jvp_const_cg0_st0': ['ok',
                       ['tuple',
                        [['T', [2, 2], 'float64', False, [1.0, -2.4, 0.6, 4.0]],
                         ['T', [2, 2], 'float64', False, [0.0, 0.0, 0.0, 0.0]]]]],
 'jvp_const_cg0_st1': ['err', 'RuntimeError',
                       'Output 0 of the user-provided function does not require gradients. The '
                       'outputs must be computed in a differentiable manner from the input when '
                       'running in strict mode.'],
 'jvp_const_cg1_st0': ['ok',
                       ['tuple',
                        [['T', [2, 2], 'float64', False, [1.0, -2.4, 0.6, 4.0]],
                         ['T', [2, 2], 'float64', False, [0.0, 0.0, 0.0, 0.0]]]]],
 'jvp_const_cg1_st1': ['err', 'RuntimeError',
                       'Output 0 of the user-provided function does not require gradients. The '
                       'outputs must be computed in a differentiable manner from the input when '
                       'running in strict mode.'],
 'jvp_lin_cg0_st0': ['ok',
                     ['tuple',
                      [['T', [2, 2], 'float64', False,
                        [1.5, -3.5999999999999996, 0.8999999999999999, 6.0]],
                       ['T', [2, 2], 'float64', False, [3.0, 6.0, -3.0, 1.5]]]]],
 'jvp_lin_cg0_st1': ['ok',
                     ['tuple',
                      [['T', [2, 2], 'float64', False,
                        [1.5, -3.5999999999999996, 0.8999999999999999, 6.0]],
                       ['T', [2, 2], 'float64', False, [3.0, 6.0, -3.0, 1.5]]]]],
 'jvp_lin_cg1_st0': ['ok',
                     ['tuple',
                      [['T', [2, 2], 'float64', True,
                        [1.5, -3.5999999999999996, 0.8999999999999999, 6.0]],
                       ['T', [2, 2], 'float64', False, [3.0, 6.0, -3.0, 1.5]]]]],
 'jvp_lin_cg1_st1': ['err', 'RuntimeError',
                     'The jacobian of the user-provided function is independent of input 0. This '
                     'is not allowed in strict mode when create_graph=True.'],
 'jvp_single_none_cg0_st0': ['ok',
                             ['tuple',
                              [['T', [1], 'float64', False, [2.6997176151520064]],
                               ['T', [1], 'float64', False, [2.6997176151520064]]]]],
 'jvp_single_none_cg0_st1': ['ok',
                             ['tuple',
                              [['T', [1], 'float64', False, [2.6997176151520064]],
                               ['T', [1], 'float64', False, [2.6997176151520064]]]]],
 'jvp_single_none_cg1_st0': ['ok',
                             ['tuple',
                              [['T', [1], 'float64', True, [2.6997176151520064]],
                               ['T', [1], 'float64', True, [2.6997176151520064]]]]],
 'jvp_single_none_cg1_st1': ['ok',
                             ['tuple',
                              [['T', [1], 'float64', True, [2.6997176151520064]],
                               ['T', [1], 'float64', True, [2.6997176151520064]]]]],
 'jvp_t_cg0_st0': ['ok',
                   ['tuple',
                    [['T', [2, 2], 'float64', False,
                      [0.2397127693021015, 1.1184469031606714, 0.08865606199840186,
                       1.8185948536513634]],
                     ['T', [2, 2], 'float64', False,
                      [0.9182168195493894, -2.733736782678469, -0.5821211533990214,
                       0.03850187686569845]]]]],
 'jvp_t_cg0_st1': ['ok',
                   ['tuple',
                    [['T', [2, 2], 'float64', False,
                      [0.2397127693021015, 1.1184469031606714, 0.08865606199840186,
                       1.8185948536513634]],
                     ['T', [2, 2], 'float64', False,
                      [0.9182168195493894, -2.733736782678469, -0.5821211533990214,
                       0.03850187686569845]]]]],
 'jvp_t_cg1_st0': ['ok',
                   ['tuple',
                    [['T', [2, 2], 'float64', True,
                      [0.2397127693021015, 1.1184469031606714, 0.08865606199840186,
                       1.8185948536513634]],
                     ['T', [2, 2], 'float64', True,
                      [0.9182168195493894, -2.733736782678469, -0.5821211533990214,
                       0.03850187686569845]]]]],
 'jvp_t_cg1_st1': ['ok',
                   ['tuple',
                    [['T', [2, 2], 'float64', True,
                      [0.2397127693021015, 1.1184469031606714, 0.08865606199840186,
                       1.8185948536513634]],
                     ['T', [2, 2], 'float64', True,
                      [0.9182168195493894, -2.733736782678469, -0.5821211533990214,
                       0.03850187686569845]]]]],
 'jvp_tt_cg0_st0': ['ok',
                    ['tuple',
                     [['tuple',
                       [['T', [2], 'float64', False, [0.7084135114098327, -0.15685482606733503]],
                        ['T', [2], 'float64', False, [5.237526890668302, 1.7102128622590378]]]],
                      ['tuple',
                       [['T', [2], 'float64', False, [1.5095794406318397, -0.5968745784993272]],
                        ['T', [2], 'float64', False, [24.69847549599265, 5.010856785473811]]]]]]],
 'jvp_tt_cg0_st1': ['ok',
                    ['tuple',
                     [['tuple',
                       [['T', [2], 'float64', False, [0.7084135114098327, -0.15685482606733503]],
                        ['T', [2], 'float64', False, [5.237526890668302, 1.7102128622590378]]]],
                      ['tuple',
                       [['T', [2], 'float64', False, [1.5095794406318397, -0.5968745784993272]],
                        ['T', [2], 'float64', False, [24.69847549599265, 5.010856785473811]]]]]]],
 'jvp_tt_cg1_st0': ['ok',
                    ['tuple',
                     [['tuple',
                       [['T', [2], 'float64', True, [0.7084135114098327, -0.15685482606733503]],
                        ['T', [2], 'float64', True, [5.237526890668302, 1.7102128622590378]]]],
                      ['tuple',
                       [['T', [2], 'float64', True, [1.5095794406318397, -0.5968745784993272]],
                        ['T', [2], 'float64', True, [24.69847549599265, 5.010856785473811]]]]]]],
 'jvp_tt_cg1_st1': ['ok',
                    ['tuple',
                     [['tuple',
                       [['T', [2], 'float64', True, [0.7084135114098327, -0.15685482606733503]],
                        ['T', [2], 'float64', True, [5.237526890668302, 1.7102128622590378]]]],
                      ['tuple',
                       [['T', [2], 'float64', True, [1.5095794406318397, -0.5968745784993272]],
                        ['T', [2], 'float64', True, [24.69847549599265, 5.010856785473811]]]]]]],
 'jvp_unused_cg0_st0': ['ok',
                        ['tuple',
                         [['T', [2, 2], 'float64', False,
                           [0.46211715726000974, -0.8336546070121552, 0.2913126124515909,
                            0.9640275800758169]],
                          ['T', [2, 2], 'float64', False,
                           [0.7864477329659274, 0.6100399924148181, -0.9151369618266292,
                            0.035325412426582214]]]]],
 'jvp_unused_cg0_st1': ['err', 'RuntimeError',
                        'The output of the user-provided function is independent of input 1. This '
                        'is not allowed in strict mode.'],
 'jvp_unused_cg1_st0': ['ok',
                        ['tuple',
                         [['T', [2, 2], 'float64', True,
                           [0.46211715726000974, -0.8336546070121552, 0.2913126124515909,
                            0.9640275800758169]],
                          ['T', [2, 2], 'float64', True,
                           [0.7864477329659274, 0.6100399924148181, -0.9151369618266292,
                            0.035325412426582214]]]]],
 'jvp_unused_cg1_st1': ['err', 'RuntimeError',
                        'The output of the user-provided function is independent of input 1. This '
                        'is not allowed in strict mode.'],
 'vhp_cubic_cg0_st0': ['ok',
                       ['tuple',
                        [['T', [], 'float64', False, [6.4239999999999995]],
                         ['T', [2, 2], 'float64', False,
                          [3.0, -14.399999999999999, -1.7999999999999998, 6.0]]]]],
 'vhp_cubic_cg0_st1': ['ok',
                       ['tuple',
                        [['T', [], 'float64', False, [6.4239999999999995]],
                         ['T', [2, 2], 'float64', False,
                          [3.0, -14.399999999999999, -1.7999999999999998, 6.0]]]]],
 'vhp_cubic_cg1_st0': ['ok',
                       ['tuple',
                        [['T', [], 'float64', True, [6.4239999999999995]],
                         ['T', [2, 2], 'float64', True,
                          [3.0, -14.399999999999999, -1.7999999999999998, 6.0]]]]],
 'vhp_cubic_cg1_st1': ['ok',
                       ['tuple',
                        [['T', [], 'float64', True, [6.4239999999999995]],
                         ['T', [2, 2], 'float64', True,
                          [3.0, -14.399999999999999, -1.7999999999999998, 6.0]]]]],
 'vhp_lin_cg0_st0': ['ok',
                     ['tuple',
                      [['T', [], 'float64', False, [3.2]],
                       ['T', [2, 2], 'float64', False, [0.0, 0.0, 0.0, 0.0]]]]],
 'vhp_lin_cg0_st1': ['err', 'RuntimeError',
                     'While computing the hessian, found that the jacobian of the user-provided '
                     'function with respect to input 0 is independent of the input. This is not '
                     'allowed in strict mode. You should ensure that your function is twice '
                     'differentiable and that the jacobian depends on the inputs (this would be '
                     'violated by a linear function for example).'],
 'vhp_lin_cg1_st0': ['ok',
                     ['tuple',
                      [['T', [], 'float64', True, [3.2]],
                       ['T', [2, 2], 'float64', False, [0.0, 0.0, 0.0, 0.0]]]]],
 'vhp_lin_cg1_st1': ['err', 'RuntimeError',
                     'While computing the hessian, found that the jacobian of the user-provided '
                     'function with respect to input 0 is independent of the input. This is not '
                     'allowed in strict mode. You should ensure that your function is twice '
                     'differentiable and that the jacobian depends on the inputs (this would be '
                     'violated by a linear function for example).'],
 'vhp_quad_cg0_st0': ['ok',
                      ['tuple',
                       [['T', [], 'float64', False, [5.78]],
                        ['T', [2, 2], 'float64', False, [2.0, 4.0, -2.0, 1.0]]]]],
 'vhp_quad_cg0_st1': ['ok',
                      ['tuple',
                       [['T', [], 'float64', False, [5.78]],
                        ['T', [2, 2], 'float64', False, [2.0, 4.0, -2.0, 1.0]]]]],
 'vhp_quad_cg1_st0': ['ok',
                      ['tuple',
                       [['T', [], 'float64', True, [5.78]],
                        ['T', [2, 2], 'float64', False, [2.0, 4.0, -2.0, 1.0]]]]],
 'vhp_quad_cg1_st1': ['err', 'RuntimeError',
                      'The hessian of the user-provided function is independent of input 0. This '
                      'is not allowed in strict mode when create_graph=True.'],
 'vhp_single_none_cg0_st0': ['ok',
                             ['tuple',
                              [['T', [], 'float64', False, [0.0081]],
                               ['T', [1], 'float64', False, [1.08]]]]],
 'vhp_single_none_cg0_st1': ['ok',
                             ['tuple',
                              [['T', [], 'float64', False, [0.0081]],
                               ['T', [1], 'float64', False, [1.08]]]]],
 'vhp_single_none_cg1_st0': ['ok',
                             ['tuple',
                              [['T', [], 'float64', True, [0.0081]],
                               ['T', [1], 'float64', True, [1.08]]]]],
 'vhp_single_none_cg1_st1': ['ok',
                             ['tuple',
                              [['T', [], 'float64', True, [0.0081]],
                               ['T', [1], 'float64', True, [1.08]]]]],
 'vhp_tuple_cg0_st0': ['ok',
                       ['tuple',
                        [['T', [], 'float64', False, [0.5046612258371992]],
                         ['tuple',
                          [['T', [2, 2], 'float64', False,
                            [0.733754900309112, 0.9215812060570092, 1.0439925511240078,
                             -0.5525414505709947]],
                           ['T', [2], 'float64', False,
                            [6.738888163444543, 1.638888163444543]]]]]]],
 'vhp_tuple_cg0_st1': ['ok',
                       ['tuple',
                        [['T', [], 'float64', False, [0.5046612258371992]],
                         ['tuple',
                          [['T', [2, 2], 'float64', False,
                            [0.733754900309112, 0.9215812060570092, 1.0439925511240078,
                             -0.5525414505709947]],
                           ['T', [2], 'float64', False,
                            [6.738888163444543, 1.638888163444543]]]]]]],
 'vhp_tuple_cg1_st0': ['ok',
                       ['tuple',
                        [['T', [], 'float64', True, [0.5046612258371992]],
                         ['tuple',
                          [['T', [2, 2], 'float64', True,
                            [0.733754900309112, 0.9215812060570092, 1.0439925511240078,
                             -0.5525414505709947]],
                           ['T', [2], 'float64', True, [6.738888163444543, 1.638888163444543]]]]]]],
 'vhp_tuple_cg1_st1': ['ok',
                       ['tuple',
                        [['T', [], 'float64', True, [0.5046612258371992]],
                         ['tuple',
                          [['T', [2, 2], 'float64', True,
                            [0.733754900309112, 0.9215812060570092, 1.0439925511240078,
                             -0.5525414505709947]],
                           ['T', [2], 'float64', True, [6.738888163444543, 1.638888163444543]]]]]]],
 'vhp_unused_cg0_st0': ['ok',
                        ['tuple',
                         [['T', [], 'float64', False, [6.4239999999999995]],
                          ['tuple',
                           [['T', [2, 2], 'float64', False,
                             [3.0, -14.399999999999999, -1.7999999999999998, 6.0]],
                            ['T', [2], 'float64', False, [0.0, 0.0]]]]]]],
 'vhp_unused_cg0_st1': ['err', 'RuntimeError',
                        'The output of the user-provided function is independent of input 1. This '
                        'is not allowed in strict mode.'],
 'vhp_unused_cg1_st0': ['ok',
                        ['tuple',
                         [['T', [], 'float64', True, [6.4239999999999995]],
                          ['tuple',
                           [['T', [2, 2], 'float64', True,
                             [3.0, -14.399999999999999, -1.7999999999999998, 6.0]],
                            ['T', [2], 'float64', False, [0.0, 0.0]]]]]]],
 'vhp_unused_cg1_st1': ['err', 'RuntimeError',
                        'The output of the user-provided function is independent of input 1. This '
                        'is not allowed in strict mode.'],
 'vjp_const_cg0_st0': ['ok',
                       ['tuple',
                        [['T', [2, 2], 'float64', False, [1.0, -2.4, 0.6, 4.0]],
                         ['T', [2, 2], 'float64', False, [0.0, 0.0, 0.0, 0.0]]]]],
 'vjp_const_cg0_st1': ['err', 'RuntimeError',
                       'Output 0 of the user-provided function does not require gradients. The '
                       'outputs must be computed in a differentiable manner from the input when '
                       'running in strict mode.'],
 'vjp_const_cg1_st0': ['ok',
                       ['tuple',
                        [['T', [2, 2], 'float64', False, [1.0, -2.4, 0.6, 4.0]],
                         ['T', [2, 2], 'float64', False, [0.0, 0.0, 0.0, 0.0]]]]],
 'vjp_const_cg1_st1': ['err', 'RuntimeError',
                       'Output 0 of the user-provided function does not require gradients. The '
                       'outputs must be computed in a differentiable manner from the input when '
                       'running in strict mode.'],
 'vjp_lin_cg0_st0': ['ok',
                     ['tuple',
                      [['T', [2, 2], 'float64', False,
                        [1.5, -3.5999999999999996, 0.8999999999999999, 6.0]],
                       ['T', [2, 2], 'float64', False, [3.0, 6.0, -3.0, 1.5]]]]],
 'vjp_lin_cg0_st1': ['ok',
                     ['tuple',
                      [['T', [2, 2], 'float64', False,
                        [1.5, -3.5999999999999996, 0.8999999999999999, 6.0]],
                       ['T', [2, 2], 'float64', False, [3.0, 6.0, -3.0, 1.5]]]]],
 'vjp_lin_cg1_st0': ['ok',
                     ['tuple',
                      [['T', [2, 2], 'float64', True,
                        [1.5, -3.5999999999999996, 0.8999999999999999, 6.0]],
                       ['T', [2, 2], 'float64', False, [3.0, 6.0, -3.0, 1.5]]]]],
 'vjp_lin_cg1_st1': ['err', 'RuntimeError',
                     'The jacobian of the user-provided function is independent of input 0. This '
                     'is not allowed in strict mode when create_graph=True.'],
 'vjp_scalar_none_cg0_st0': ['ok',
                             ['tuple',
                              [['T', [], 'float64', False, [6.4239999999999995]],
                               ['T', [2, 2], 'float64', False, [0.75, 4.32, 0.27, 12.0]]]]],
 'vjp_scalar_none_cg0_st1': ['ok',
                             ['tuple',
                              [['T', [], 'float64', False, [6.4239999999999995]],
                               ['T', [2, 2], 'float64', False, [0.75, 4.32, 0.27, 12.0]]]]],
 'vjp_scalar_none_cg1_st0': ['ok',
                             ['tuple',
                              [['T', [], 'float64', True, [6.4239999999999995]],
                               ['T', [2, 2], 'float64', True, [0.75, 4.32, 0.27, 12.0]]]]],
 'vjp_scalar_none_cg1_st1': ['ok',
                             ['tuple',
                              [['T', [], 'float64', True, [6.4239999999999995]],
                               ['T', [2, 2], 'float64', True, [0.75, 4.32, 0.27, 12.0]]]]],
 'vjp_t_cg0_st0': ['ok',
                   ['tuple',
                    [['T', [2, 2], 'float64', False,
                      [0.2397127693021015, 1.1184469031606714, 0.08865606199840186,
                       1.8185948536513634]],
                     ['T', [2, 2], 'float64', False,
                      [0.9182168195493894, -2.733736782678469, -0.5821211533990214,
                       0.03850187686569845]]]]],
 'vjp_t_cg0_st1': ['ok',
                   ['tuple',
                    [['T', [2, 2], 'float64', False,
                      [0.2397127693021015, 1.1184469031606714, 0.08865606199840186,
                       1.8185948536513634]],
                     ['T', [2, 2], 'float64', False,
                      [0.9182168195493894, -2.733736782678469, -0.5821211533990214,
                       0.03850187686569845]]]]],
 'vjp_t_cg1_st0': ['ok',
                   ['tuple',
                    [['T', [2, 2], 'float64', True,
                      [0.2397127693021015, 1.1184469031606714, 0.08865606199840186,
                       1.8185948536513634]],
                     ['T', [2, 2], 'float64', True,
                      [0.9182168195493894, -2.733736782678469, -0.5821211533990214,
                       0.03850187686569845]]]]],
 'vjp_t_cg1_st1': ['ok',
                   ['tuple',
                    [['T', [2, 2], 'float64', True,
                      [0.2397127693021015, 1.1184469031606714, 0.08865606199840186,
                       1.8185948536513634]],
                     ['T', [2, 2], 'float64', True,
                      [0.9182168195493894, -2.733736782678469, -0.5821211533990214,
                       0.03850187686569845]]]]],
 'vjp_tt_cg0_st0': ['ok',
                    ['tuple',
                     [['tuple',
                       [['T', [2], 'float64', False, [0.7084135114098327, -0.15685482606733503]],
                        ['T', [2], 'float64', False, [5.237526890668302, 1.7102128622590378]]]],
                      ['tuple',
                       [['T', [2, 2], 'float64', False,
                         [2.0013741222934747, -0.020132443883511875, 0.5497897477683198,
                          4.756602377490146]],
                        ['T', [2], 'float64', False, [23.017922021725497, 2.4228248132839134]]]]]]],
 'vjp_tt_cg0_st1': ['ok',
                    ['tuple',
                     [['tuple',
                       [['T', [2], 'float64', False, [0.7084135114098327, -0.15685482606733503]],
                        ['T', [2], 'float64', False, [5.237526890668302, 1.7102128622590378]]]],
                      ['tuple',
                       [['T', [2, 2], 'float64', False,
                         [2.0013741222934747, -0.020132443883511875, 0.5497897477683198,
                          4.756602377490146]],
                        ['T', [2], 'float64', False, [23.017922021725497, 2.4228248132839134]]]]]]],
 'vjp_tt_cg1_st0': ['ok',
                    ['tuple',
                     [['tuple',
                       [['T', [2], 'float64', True, [0.7084135114098327, -0.15685482606733503]],
                        ['T', [2], 'float64', True, [5.237526890668302, 1.7102128622590378]]]],
                      ['tuple',
                       [['T', [2, 2], 'float64', True,
                         [2.0013741222934747, -0.020132443883511875, 0.5497897477683198,
                          4.756602377490146]],
                        ['T', [2], 'float64', True, [23.017922021725497, 2.4228248132839134]]]]]]],
 'vjp_tt_cg1_st1': ['ok',
                    ['tuple',
                     [['tuple',
                       [['T', [2], 'float64', True, [0.7084135114098327, -0.15685482606733503]],
                        ['T', [2], 'float64', True, [5.237526890668302, 1.7102128622590378]]]],
                      ['tuple',
                       [['T', [2, 2], 'float64', True,
                         [2.0013741222934747, -0.020132443883511875, 0.5497897477683198,
                          4.756602377490146]],
                        ['T', [2], 'float64', True, [23.017922021725497, 2.4228248132839134]]]]]]],
 'vjp_unused_cg0_st0': ['ok',
                        ['tuple',
                         [['T', [2, 2], 'float64', False,
                           [0.46211715726000974, -0.8336546070121552, 0.2913126124515909,
                            0.9640275800758169]],
                          ['tuple',
                           [['T', [2, 2], 'float64', False,
                             [0.7864477329659274, 0.6100399924148181, -0.9151369618266292,
                              0.035325412426582214]],
                            ['T', [2], 'float64', False, [0.0, 0.0]]]]]]],
 'vjp_unused_cg0_st1': ['err', 'RuntimeError',
                        'The output of the user-provided function is independent of input 1. This '
                        'is not allowed in strict mode.'],
 'vjp_unused_cg1_st0': ['ok',
                        ['tuple',
                         [['T', [2, 2], 'float64', True,
                           [0.46211715726000974, -0.8336546070121552, 0.2913126124515909,
                            0.9640275800758169]],
                          ['tuple',
                           [['T', [2, 2], 'float64', True,
                             [0.7864477329659274, 0.6100399924148181, -0.9151369618266292,
                              0.035325412426582214]],
                            ['T', [2], 'float64', False, [0.0, 0.0]]]]]]],
 'vjp_unused_cg1_st1': ['err', 'RuntimeError',
                        'The output of the user-provided function is independent of input 1. This '
                        'is not allowed in strict mode.']}
