"""Calling a graph node (tensor.grad_fn(*grad_outputs)) as torch does: its input gradients
(a tensor for one input, a tuple otherwise, None where none flows), computed in the current grad
mode, AccumulateGrad adding into .grad, and the errors; against PyTorch 2.15 (REF, at the end
of this file)."""
import numpy as np
import pytest

import minitorch as torch


def _cases(t):
    d = t.float64

    def a_():
        return t.tensor([0.5, -1.2, 2.0], dtype=d, requires_grad=True)

    def b_():
        return t.tensor([0.7, 0.4, -1.5], dtype=d)

    def g3():
        return t.tensor([1.0, 2.0, 3.0], dtype=d)

    def call(make, *grads, no_grad=False, **kw):
        def run():
            a = a_()
            y = make(a)
            gs = [g() if callable(g) else g for g in grads]
            if no_grad:
                with t.no_grad():
                    r = y.grad_fn(*gs, **kw)
            else:
                r = y.grad_fn(*gs, **kw)
            return r
        return run

    def accumulate():
        a = a_()
        acc = (a * 1).grad_fn.next_functions[0][0]
        r1 = acc(g3())
        r2 = acc(g3())
        return [r1, r2, a.grad]

    def after_backward(retain):
        def run():
            a = a_()
            y = a.sin()
            y.sum().backward(retain_graph=retain)
            return y.grad_fn(g3())
        return run

    def function_node():
        class Double(t.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                return x * 2

            @staticmethod
            def backward(ctx, g):
                return g * 2
        return Double.apply(a_()).grad_fn(g3())

    def second_order():
        a = a_()
        y = a.exp() * a
        g, = y.grad_fn(g3())[:1] if isinstance(y.grad_fn(g3()), tuple) else (y.grad_fn(g3()),)
        return g.requires_grad

    return {
        "mul_const": call(lambda a: a * b_(), g3),
        "mul_self": call(lambda a: a * a, g3),
        "mul_self_no_grad": call(lambda a: a * a, g3, no_grad=True),
        "sin": call(lambda a: a.sin(), g3),
        "sin_no_grad": call(lambda a: a.sin(), g3, no_grad=True),
        "exp": call(lambda a: a.exp(), g3),
        "sum": call(lambda a: a.sum(), lambda: t.tensor(2.0, dtype=d)),
        "mean": call(lambda a: a.mean(), lambda: t.tensor(3.0, dtype=d)),
        "view": call(lambda a: a.view(3, 1), lambda: g3().view(3, 1)),
        "expand": call(lambda a: a.expand(2, 3), lambda: t.ones(2, 3, dtype=d)),
        "add_alpha": call(lambda a: t.add(a, a * 1, alpha=2), g3),
        "cumsum": call(lambda a: a.cumsum(0), g3),
        "matmul": call(lambda a: a.view(3, 1) @ b_().view(1, 3), lambda: t.ones(3, 3, dtype=d)),
        "none": call(lambda a: a.sin(), None),
        "err_too_many": call(lambda a: a.sin(), g3, g3),
        "err_none_given": call(lambda a: a.sin()),
        "err_keyword": call(lambda a: a.sin(), grad=g3()),
        "err_number": call(lambda a: a.sin(), 1.0),
        "err_wrong_shape": call(lambda a: a.sin(), lambda: t.ones(4, dtype=d)),
        "accumulate_grad": accumulate,
        "err_after_backward": after_backward(False),
        "after_backward_retained": after_backward(True),
        "err_function_node": function_node,
        "create_graph_by_grad_mode": second_order,
    }


def _encode(r):
    if r is None or isinstance(r, (bool, int, float, str)):
        return r
    if isinstance(r, tuple):
        return ["tuple", [_encode(e) for e in r]]
    if isinstance(r, list):
        return [_encode(e) for e in r]
    if hasattr(r, "shape") and hasattr(r, "dtype"):
        return ["T", list(r.shape), bool(r.requires_grad),
                [float(v) for v in r.detach().reshape(-1).tolist()]]
    return ["other", type(r).__name__]


def _run(thunk):
    try:
        return ["ok", _encode(thunk())]
    except Exception as e:  # noqa: BLE001 - every exception is part of the spec
        return ["err", type(e).__name__, str(e).replace("minitorch.", "torch.")]


def _same(got, ref, path="result"):
    if isinstance(ref, list) and ref and ref[0] == "T":
        assert isinstance(got, list) and got[:3] == ref[:3], f"{path}: {got} != {ref}"
        np.testing.assert_allclose(got[3], ref[3], rtol=1e-12, atol=1e-14, err_msg=path)
    elif isinstance(ref, list):
        assert isinstance(got, list) and len(got) == len(ref), f"{path}: {got} != {ref}"
        for i, (g, r) in enumerate(zip(got, ref)):
            _same(g, r, f"{path}[{i}]")
    else:
        assert got == ref, f"{path}: {got} != {ref}"


CASES = _cases(torch)


@pytest.mark.parametrize("name", sorted(CASES))
def test_against_torch(name):
    got, ref = _run(CASES[name]), REF[name]
    assert got[0] == ref[0], f"{got} != {ref}"
    if ref[0] == "err":
        assert got[1:] == ref[1:]
    else:
        _same(got[1], ref[1])


def test_every_case_has_a_reference():
    assert sorted(CASES) == sorted(REF)


def test_calling_runs_no_hooks_and_keeps_saved_tensors():
    a = torch.tensor([0.5, -1.2, 2.0], dtype=torch.float64, requires_grad=True)
    y = a.sin()
    calls = []
    y.grad_fn.register_hook(lambda gi, go: calls.append("post"))
    y.grad_fn.register_prehook(lambda go: calls.append("pre"))
    g = torch.ones(3, dtype=torch.float64)
    r1 = y.grad_fn(g)
    r2 = y.grad_fn(g * 2)
    assert calls == []
    np.testing.assert_allclose(r1.detach().numpy(), np.cos(a.detach().numpy()))
    np.testing.assert_allclose(r2.detach().numpy(), 2 * np.cos(a.detach().numpy()))
    y.sum().backward()                           # the graph is still whole
    assert calls == ["pre", "post"]


# ---- REF: captured from PyTorch 2.15 ----------------------------------------------------------

REF = {'accumulate_grad': ['ok', [['tuple', []], ['tuple', []], ['T', [3], False, [2.0, 4.0, 6.0]]]],
 'add_alpha': ['ok',
               ['tuple', [['T', [3], False, [1.0, 2.0, 3.0]], ['T', [3], False, [2.0, 4.0, 6.0]]]]],
 'after_backward_retained': ['ok',
                             ['T', [3], True,
                              [0.8775825618903728, 0.7247155089533472, -1.2484405096414273]]],
 'create_graph_by_grad_mode': ['ok', True],
 'cumsum': ['ok', ['T', [3], False, [6.0, 5.0, 3.0]]],
 'err_after_backward': ['err', 'RuntimeError',
                        'Trying to backward through the graph a second time (or directly access '
                        'saved tensors after they have already been freed). Saved intermediate '
                        'values of the graph are freed when you call .backward() or '
                        'autograd.grad(). Specify retain_graph=True if you need to backward '
                        'through the graph a second time or if you need to access saved tensors '
                        'after calling backward.'],
 'err_function_node': ['err', 'TypeError', "'DoubleBackward' object is not callable"],
 'err_keyword': ['err', 'TypeError', 'keyword arguments are not supported'],
 'err_none_given': ['err', 'TypeError', 'expected 1 arguments, got 0 instead'],
 'err_number': ['err', 'TypeError', 'argument 0 is not a Variable'],
 'err_too_many': ['err', 'TypeError', 'expected 1 arguments, got 2 instead'],
 'err_wrong_shape': ['err', 'RuntimeError',
                     'The size of tensor a (4) must match the size of tensor b (3) at '
                     'non-singleton dimension 0'],
 'exp': ['ok', ['T', [3], True, [1.6487212707001282, 0.6023884238244043, 22.16716829679195]]],
 'expand': ['ok', ['T', [3], False, [2.0, 2.0, 2.0]]],
 'matmul': ['ok',
            ['tuple',
             [['T', [3, 1], False, [-0.3999999999999999, -0.3999999999999999, -0.3999999999999999]],
              None]]],
 'mean': ['ok', ['T', [3], False, [1.0, 1.0, 1.0]]],
 'mul_const': ['ok', ['tuple', [['T', [3], False, [0.7, 0.8, -4.5]], None]]],
 'mul_self': ['ok',
              ['tuple', [['T', [3], True, [0.5, -2.4, 6.0]], ['T', [3], True, [0.5, -2.4, 6.0]]]]],
 'mul_self_no_grad': ['ok',
                      ['tuple',
                       [['T', [3], False, [0.5, -2.4, 6.0]], ['T', [3], False, [0.5, -2.4, 6.0]]]]],
 'none': ['ok', None],
 'sin': ['ok', ['T', [3], True, [0.8775825618903728, 0.7247155089533472, -1.2484405096414273]]],
 'sin_no_grad': ['ok',
                 ['T', [3], False, [0.8775825618903728, 0.7247155089533472, -1.2484405096414273]]],
 'sum': ['ok', ['T', [3], False, [2.0, 2.0, 2.0]]],
 'view': ['ok', ['T', [3], False, [1.0, 2.0, 3.0]]]}
