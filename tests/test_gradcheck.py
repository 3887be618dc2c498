"""autograd.gradcheck / gradgradcheck: what passes and what fails, with torch's arguments
(eps, atol, rtol, raise_exception, nondet_tol, check_undefined_grad, check_grad_dtypes,
check_batched_grad, fast_mode, masked, gradgradcheck's grad_outputs), and the errors and their
messages (first line), against what PyTorch 2.15 returns for the same calls (REF, at the end of
this file)."""
import warnings

import numpy as np
import pytest

import minitorch as torch
from minitorch.autograd import GradcheckError, gradcheck, gradgradcheck


def _cases(t):
    """name -> a call (the same calls run in torch for REF)."""
    A = t.autograd
    d = t.float64

    def x():
        return t.tensor([[0.5, -1.2], [0.3, 2.0], [-0.7, 0.9]], dtype=d, requires_grad=True)

    def y():
        return t.tensor([0.7, -0.4], dtype=d, requires_grad=True)

    def xc():
        return t.tensor([0.5 + 0.2j, -1.2 + 1.0j, 0.3 - 0.6j], dtype=t.complex128,
                        requires_grad=True)

    def fn_class(fwd, bwd, materialize=True):
        class F(t.autograd.Function):
            @staticmethod
            def forward(ctx, *args):
                ctx.set_materialize_grads(materialize)
                ctx.save_for_backward(*args)
                return fwd(*args)

            @staticmethod
            def backward(ctx, *grads):
                return bwd(ctx.saved_tensors, *grads)
        return F.apply

    wrong = fn_class(lambda a: a * 2, lambda s, g: g * 3)
    approx = fn_class(lambda a: a.sin(), lambda s, g: g * (s[0].cos() + 5e-3))
    noisy = fn_class(lambda a: a * 2,
                     lambda s, g: g * 2 + t.rand(g.shape, dtype=d) * 1e-3 * (g != 0))
    not_mul = fn_class(lambda a: a * 2, lambda s, g: g * 2 + (g.abs().sum() == 0).double())

    # (torch calls a Function's backward with None for every output when all are undefined;
    # minitorch's engine does not call a node that no gradient reached, so a backward that
    # returns non-zero gradients then is not caught: the case is left out)
    def none_to_ones(s, g1, g2):
        if g1 is None and g2 is None:
            return t.ones_like(s[0])
        return (0 if g1 is None else g1 * 2) + (0 if g2 is None else g2 * 3)

    def none_raises(s, g1, g2):
        if g1 is None or g2 is None:
            raise RuntimeError("an undefined gradient")
        return g1 * 2 + g2 * 3
    ignores_none = fn_class(lambda a: (a * 2, a * 3), none_to_ones, materialize=False)
    raises_none = fn_class(lambda a: (a * 2, a * 3), none_raises, materialize=False)
    handles_none = fn_class(lambda a: (a * 2, a * 3),
                            lambda s, g1, g2: (0 if g1 is None else g1 * 2) +
                            (0 if g2 is None else g2 * 3) if (g1 is not None or g2 is not None)
                            else None, materialize=False)
    bad_double = fn_class(lambda a: a ** 2, lambda s, g: g * 2 * s[0].detach())

    def f_two(a, b):
        return (a * b).sin()

    def f_multi(a, b):
        return a.exp(), b.pow(3), a @ b, (a.sum() > 0).long()

    cases = {}
    for fm in (False, True):
        tag = f"fast{int(fm)}"
        cases.update({
            f"pass_two_{tag}": lambda fm=fm: A.gradcheck(f_two, (x(), y()), fast_mode=fm),
            f"pass_tensor_input_{tag}": lambda fm=fm: A.gradcheck(lambda a: a.exp(), x(),
                                                                 fast_mode=fm),
            f"pass_list_input_{tag}": lambda fm=fm: A.gradcheck(f_two, [x(), y()], fast_mode=fm),
            f"pass_multi_{tag}": lambda fm=fm: A.gradcheck(f_multi, (x(), y()), fast_mode=fm),
            f"pass_nondiff_input_{tag}": lambda fm=fm: A.gradcheck(
                lambda a, k, b: a * k + b, (x(), 3, y().detach()), fast_mode=fm),
            f"pass_complex_in_{tag}": lambda fm=fm: A.gradcheck(
                lambda a: (a * a.conj()).real + a.abs(), (xc(),), fast_mode=fm),
            f"pass_complex_out_{tag}": lambda fm=fm: A.gradcheck(lambda a: a * a.exp(), (xc(),),
                                                                fast_mode=fm),
            f"pass_real_to_complex_{tag}": lambda fm=fm: A.gradcheck(
                lambda a: a * (1 + 2j), (x(),), fast_mode=fm),
            f"fail_wrong_{tag}": lambda fm=fm: A.gradcheck(wrong, (x(),), fast_mode=fm),
            f"fail_wrong_noraise_{tag}": lambda fm=fm: A.gradcheck(wrong, (x(),), fast_mode=fm,
                                                                  raise_exception=False),
            f"fail_wrong_complex_{tag}": lambda fm=fm: A.gradcheck(
                fn_class(lambda a: a * a, lambda s, g: g * 2), (xc(),), fast_mode=fm),
            f"fail_approx_default_{tag}": lambda fm=fm: A.gradcheck(approx, (x(),), fast_mode=fm),
            f"pass_approx_atol_{tag}": lambda fm=fm: A.gradcheck(approx, (x(),), fast_mode=fm,
                                                                atol=1e-2),
            f"fail_approx_eps_{tag}": lambda fm=fm: A.gradcheck(
                lambda a: a.sin(), (x(),), fast_mode=fm, eps=1e-1, rtol=1e-6, atol=1e-6),
            f"fail_nondet_{tag}": lambda fm=fm: A.gradcheck(noisy, (x(),), fast_mode=fm,
                                                           atol=1e-2),
            f"pass_nondet_tol_{tag}": lambda fm=fm: A.gradcheck(noisy, (x(),), fast_mode=fm,
                                                               atol=1e-2, nondet_tol=1e-2),
            f"fail_not_mul_{tag}": lambda fm=fm: A.gradcheck(not_mul, (x(),), fast_mode=fm,
                                                            check_undefined_grad=False),
            f"fail_undef_raises_{tag}": lambda fm=fm: A.gradcheck(raises_none, (x(),),
                                                                 fast_mode=fm),
            f"pass_undef_handled_{tag}": lambda fm=fm: A.gradcheck(handles_none, (x(),),
                                                                  fast_mode=fm),
            f"pass_undef_off_{tag}": lambda fm=fm: A.gradcheck(ignores_none, (x(),),
                                                              fast_mode=fm,
                                                              check_undefined_grad=False),
            f"pass_batched_{tag}": lambda fm=fm: A.gradcheck(f_two, (x(), y()), fast_mode=fm,
                                                            check_batched_grad=True),
            f"pass_grad_dtypes_{tag}": lambda fm=fm: A.gradcheck(f_two, (x(), y()), fast_mode=fm,
                                                                check_grad_dtypes=True),
            f"pass_masked_{tag}": lambda fm=fm: A.gradcheck(f_two, (x(), y()), fast_mode=fm,
                                                           masked=True),
            f"fail_nodiff_output_{tag}": lambda fm=fm: A.gradcheck(lambda a: a.detach() * 2,
                                                                  (x(),), fast_mode=fm),
            f"pass_nodiff_output_zero_{tag}": lambda fm=fm: A.gradcheck(
                lambda a: (a.detach() * 0).round(), (x(),), fast_mode=fm),
            f"gg_pass_{tag}": lambda fm=fm: A.gradgradcheck(f_two, (x(), y()), fast_mode=fm),
            f"gg_fail_{tag}": lambda fm=fm: A.gradgradcheck(bad_double, (x(),), fast_mode=fm),
            f"gg_fail_noraise_{tag}": lambda fm=fm: A.gradgradcheck(bad_double, (x(),),
                                                                   fast_mode=fm,
                                                                   raise_exception=False),
            f"gg_grad_outputs_{tag}": lambda fm=fm: A.gradgradcheck(
                lambda a: a.pow(3), (x(),), (t.ones(3, 2, dtype=d, requires_grad=True),),
                fast_mode=fm),
            f"gg_grad_outputs_nograd_{tag}": lambda fm=fm: A.gradgradcheck(
                lambda a: a.pow(3), (x(),), (t.ones(3, 2, dtype=d),), fast_mode=fm),
            f"gg_non_contig_batched_{tag}": lambda fm=fm: A.gradgradcheck(
                lambda a: a.pow(3).sin(), (x(),), gen_non_contig_grad_outputs=True,
                check_batched_grad=True, fast_mode=fm),
            f"gg_complex_{tag}": lambda fm=fm: A.gradgradcheck(lambda a: a * a.exp(), (xc(),),
                                                              fast_mode=fm),
        })

    def float32_warning():
        with warnings.catch_warnings(record=True) as ws:
            warnings.simplefilter("always")
            ok = A.gradcheck(lambda a: a * 2, (t.tensor([0.5, 1.5], requires_grad=True),),
                             eps=1e-3, atol=1e-2, rtol=1e-2)
        return ok, [str(w.message) for w in ws if "double precision" in str(w.message)]

    cases.update({
        "err_no_input_requires_grad": lambda: A.gradcheck(lambda a: a, (x().detach(),)),
        "err_stride0": lambda: A.gradcheck(
            lambda a: a * 2, (t.tensor([0.5], dtype=d).expand(3).requires_grad_(),)),
        "err_neither_mode": lambda: A.gradcheck(lambda a: a, (x(),), check_backward_ad=False),
        "err_batched_needs_backward": lambda: A.gradcheck(
            lambda a: a, (x(),), check_backward_ad=False, check_forward_ad=True,
            check_batched_grad=True),
        "err_batched_fwd_needs_fwd": lambda: A.gradcheck(lambda a: a, (x(),),
                                                         check_batched_forward_grad=True),
        "err_gg_neither": lambda: A.gradgradcheck(lambda a: a, (x(),), check_rev_over_rev=False),
        "err_gg_undefined_needs_rev": lambda: A.gradgradcheck(
            lambda a: a, (x(),), check_rev_over_rev=False, check_fwd_over_rev=True),
        "err_gg_batched_needs_rev": lambda: A.gradgradcheck(
            lambda a: a, (x(),), check_rev_over_rev=False, check_fwd_over_rev=True,
            check_undefined_grad=False, check_batched_grad=True),
        "float32_warning": float32_warning,
        "err_noraise_keeps_other_errors": lambda: A.gradcheck(
            lambda a: a, (x().detach(),), raise_exception=False),
    })
    return cases


def _run(thunk):
    try:
        r = thunk()
        return ["ok", r if isinstance(r, bool) else [r[0], r[1]]]
    except Exception as e:  # noqa: BLE001 - every exception is part of the spec
        return ["err", type(e).__name__, str(e).split("\n")[0].replace("minitorch.", "torch.")]


CASES = _cases(torch)


@pytest.mark.parametrize("name", sorted(CASES))
def test_against_torch(name):
    assert _run(CASES[name]) == REF[name]


def test_every_case_has_a_reference():
    assert sorted(CASES) == sorted(REF)


# ---- minitorch's own ---------------------------------------------------------------------------

def test_forward_ad_checks():
    """check_forward_ad / check_fwd_over_rev run forward-mode AD (tests/test_forward_ad.py
    has the rest)."""
    x = torch.tensor([0.5, 1.0], dtype=torch.float64, requires_grad=True)
    assert gradcheck(lambda a: a.sin(), (x,), check_forward_ad=True)
    assert gradgradcheck(lambda a: a.sin(), (x,), check_fwd_over_rev=True)


def test_mismatch_message_shows_both_jacobians():
    class Wrong(torch.autograd.Function):
        @staticmethod
        def forward(ctx, a):
            return a * 2

        @staticmethod
        def backward(ctx, g):
            return g * 3

    x = torch.tensor([0.5, 1.0], dtype=torch.float64, requires_grad=True)
    with pytest.raises(GradcheckError) as info:
        gradcheck(Wrong.apply, (x,))
    msg = str(info.value)
    assert msg.startswith("Jacobian mismatch for output 0 with respect to input 0,\nnumerical:")
    assert "[2.0000, 0.0000]" in msg and "[3., 0.]" in msg
    with pytest.raises(GradcheckError) as info:
        gradcheck(Wrong.apply, (x,), fast_mode=True)
    assert "recompute numerical and analytical jacobians in slow mode" in str(info.value)


def test_inputs_are_left_as_they_were():
    x = torch.tensor([0.5, 1.0, -2.0], dtype=torch.float64, requires_grad=True)
    y = (x * x).sum()                           # a graph that saved x
    version = x._version
    assert gradcheck(lambda a: a.exp(), (x,))
    assert gradcheck(lambda a: a.exp(), (x,), fast_mode=True)
    assert x._version == version
    np.testing.assert_array_equal(x.detach().numpy(), [0.5, 1.0, -2.0])
    y.backward()                                # still valid
    np.testing.assert_allclose(x.grad.numpy(), [1.0, 2.0, -4.0])


def test_gradgradcheck_of_many_ops():
    a = torch.tensor([[0.5, -1.2, 0.8], [0.3, 2.0, -0.6]], dtype=torch.float64,
                     requires_grad=True)
    for fn in (lambda z: z.softmax(1), lambda z: z.logsumexp(0), lambda z: (z @ z.T).tanh(),
               lambda z: z.cumprod(1), lambda z: z.norm(dim=1), lambda z: z.sigmoid() * z.exp()):
        assert gradcheck(fn, (a,))
        assert gradgradcheck(fn, (a,))
        assert gradcheck(fn, (a,), fast_mode=True)


def test_batched_grad_failure_is_reported(monkeypatch):
    import sys
    gc = sys.modules["minitorch.autograd.gradcheck"]
    x = torch.tensor([0.5, 1.0], dtype=torch.float64, requires_grad=True)
    real = torch.autograd.grad

    def lying(*args, is_grads_batched=False, **kwargs):
        r = real(*args, is_grads_batched=is_grads_batched, **kwargs)
        return tuple(g + 1 for g in r) if is_grads_batched else r

    monkeypatch.setattr(torch.autograd, "grad", lying)
    with pytest.raises(gc.GradcheckError, match="For output 0 and input 0"):
        gradcheck(lambda a: a.sin(), (x,), check_batched_grad=True)


# ---- REF: captured from PyTorch 2.15 ----------------------------------------------------------

REF = {'err_batched_fwd_needs_fwd': ['err', 'AssertionError',
                               'Setting check_batched_forward_grad=True requires check_forward_ad '
                               'to be True'],
 'err_batched_needs_backward': ['err', 'AssertionError',
                                'Setting check_batched_grad=True requires check_backward_ad to be '
                                'True'],
 'err_gg_batched_needs_rev': ['err', 'AssertionError',
                              'Setting check_batched_grad=True requires check_rev_over_rev to be '
                              'True'],
 'err_gg_neither': ['err', 'AssertionError',
                    'Expected at least one of check_fwd_over_rev or check_rev_over_rev to be True'],
 'err_gg_undefined_needs_rev': ['err', 'AssertionError',
                                'Setting check_undefined_grad=True requires check_rev_over_rev to '
                                'be True'],
 'err_neither_mode': ['err', 'AssertionError',
                      'Expected at least one of check_forward_ad or check_backward_ad to be True'],
 'err_no_input_requires_grad': ['err', 'ValueError',
                                'gradcheck expects at least one input tensor to require gradient, '
                                'but none of them have requires_grad=True.'],
 'err_noraise_keeps_other_errors': ['err', 'ValueError',
                                    'gradcheck expects at least one input tensor to require '
                                    'gradient, but none of them have requires_grad=True.'],
 'err_stride0': ['err', 'RuntimeError',
                 'The 0th input has a dimension with stride 0. gradcheck only supports inputs that '
                 'are non-overlapping to be able to compute the numerical gradients correctly. You '
                 'should call .contiguous on the input before passing it to gradcheck.'],
 'fail_approx_default_fast0': ['err', 'GradcheckError',
                               'Jacobian mismatch for output 0 with respect to input 0,'],
 'fail_approx_default_fast1': ['err', 'GradcheckError',
                               'Jacobian mismatch for output 0 with respect to input 0,'],
 'fail_approx_eps_fast0': ['err', 'GradcheckError',
                           'Jacobian mismatch for output 0 with respect to input 0,'],
 'fail_approx_eps_fast1': ['err', 'GradcheckError',
                           'Jacobian mismatch for output 0 with respect to input 0,'],
 'fail_nodiff_output_fast0': ['err', 'GradcheckError',
                              'Numerical gradient for function expected to be zero'],
 'fail_nodiff_output_fast1': ['err', 'GradcheckError',
                              'Numerical gradient for function expected to be zero'],
 'fail_nondet_fast0': ['err', 'GradcheckError',
                       'Backward is not reentrant, i.e., running backward with same input and '
                       'grad_output multiple times gives different values, although analytical '
                       'gradient matches numerical gradient.The tolerance for nondeterminism was '
                       '0.0.'],
 'fail_nondet_fast1': ['err', 'GradcheckError',
                       'Backward is not reentrant, i.e., running backward with same input and '
                       'grad_output multiple times gives different values, although analytical '
                       'gradient matches numerical gradient.The tolerance for nondeterminism was '
                       '0.0.'],
 'fail_not_mul_fast0': ['err', 'GradcheckError', 'backward not multiplied by grad_output'],
 'fail_not_mul_fast1': ['err', 'GradcheckError', 'backward not multiplied by grad_output'],
 'fail_undef_raises_fast0': ['err', 'RuntimeError', 'an undefined gradient'],
 'fail_undef_raises_fast1': ['err', 'RuntimeError', 'an undefined gradient'],
 'fail_wrong_complex_fast0': ['err', 'GradcheckError',
                              'While considering the imaginary part of complex outputs only, '
                              'Jacobian mismatch for output 0 with respect to input 0,'],
 'fail_wrong_complex_fast1': ['err', 'GradcheckError',
                              'While considering the imaginary part of complex outputs only, '
                              'Jacobian mismatch for output 0 with respect to input 0,'],
 'fail_wrong_fast0': ['err', 'GradcheckError',
                      'Jacobian mismatch for output 0 with respect to input 0,'],
 'fail_wrong_fast1': ['err', 'GradcheckError',
                      'Jacobian mismatch for output 0 with respect to input 0,'],
 'fail_wrong_noraise_fast0': ['ok', False],
 'fail_wrong_noraise_fast1': ['ok', False],
 'float32_warning': ['ok',
                     [True,
                      ['Input #0 requires gradient and is not a double precision floating point or '
                       'complex. This check will likely fail if all the inputs are not of double '
                       'precision floating point or complex. ']]],
 'gg_complex_fast0': ['ok', True],
 'gg_complex_fast1': ['ok', True],
 'gg_fail_fast0': ['err', 'GradcheckError',
                   'Jacobian mismatch for output 0 with respect to input 0,'],
 'gg_fail_fast1': ['err', 'GradcheckError',
                   'Jacobian mismatch for output 0 with respect to input 0,'],
 'gg_fail_noraise_fast0': ['ok', False],
 'gg_fail_noraise_fast1': ['ok', False],
 'gg_grad_outputs_fast0': ['ok', True],
 'gg_grad_outputs_fast1': ['ok', True],
 'gg_grad_outputs_nograd_fast0': ['ok', True],
 'gg_grad_outputs_nograd_fast1': ['ok', True],
 'gg_non_contig_batched_fast0': ['ok', True],
 'gg_non_contig_batched_fast1': ['ok', True],
 'gg_pass_fast0': ['ok', True],
 'gg_pass_fast1': ['ok', True],
 'pass_approx_atol_fast0': ['ok', True],
 'pass_approx_atol_fast1': ['ok', True],
 'pass_batched_fast0': ['ok', True],
 'pass_batched_fast1': ['ok', True],
 'pass_complex_in_fast0': ['ok', True],
 'pass_complex_in_fast1': ['ok', True],
 'pass_complex_out_fast0': ['ok', True],
 'pass_complex_out_fast1': ['ok', True],
 'pass_grad_dtypes_fast0': ['ok', True],
 'pass_grad_dtypes_fast1': ['ok', True],
 'pass_list_input_fast0': ['ok', True],
 'pass_list_input_fast1': ['ok', True],
 'pass_masked_fast0': ['ok', True],
 'pass_masked_fast1': ['ok', True],
 'pass_multi_fast0': ['ok', True],
 'pass_multi_fast1': ['ok', True],
 'pass_nodiff_output_zero_fast0': ['ok', True],
 'pass_nodiff_output_zero_fast1': ['ok', True],
 'pass_nondet_tol_fast0': ['ok', True],
 'pass_nondet_tol_fast1': ['ok', True],
 'pass_nondiff_input_fast0': ['ok', True],
 'pass_nondiff_input_fast1': ['ok', True],
 'pass_real_to_complex_fast0': ['ok', True],
 'pass_real_to_complex_fast1': ['ok', True],
 'pass_tensor_input_fast0': ['ok', True],
 'pass_tensor_input_fast1': ['ok', True],
 'pass_two_fast0': ['ok', True],
 'pass_two_fast1': ['ok', True],
 'pass_undef_handled_fast0': ['ok', True],
 'pass_undef_handled_fast1': ['ok', True],
 'pass_undef_off_fast0': ['ok', True],
 'pass_undef_off_fast1': ['ok', True]}


def test_get_numerical_and_analytical_jacobian_deprecated_helpers():
    # torch 2.15's values: both warn (FutureWarning), Jacobians (numel in, numel out) of the
    # first output; grad_out other than 1.0 is a ValueError
    import warnings as _w
    from minitorch.autograd.gradcheck import get_analytical_jacobian, get_numerical_jacobian
    a = torch.tensor([0.3, 0.7], requires_grad=True, dtype=torch.float64)
    b = torch.tensor([0.1, 0.9], requires_grad=True, dtype=torch.float64)
    with _w.catch_warnings(record=True) as w:
        _w.simplefilter("always")
        ja, jb = get_numerical_jacobian(lambda t: (2 * t[0] + t[1], t[0]), (a, b), eps=1e-6)
        (jt,) = get_numerical_jacobian(lambda t: 2 * t[0] + t[1] * t[1], (a, b), target=b)
        (aa, ab), reentrant, sizes_ok, types_ok = get_analytical_jacobian((a, b), 2 * a + b * b)
    assert len(w) == 3 and all(x.category is FutureWarning for x in w)
    assert "`get_numerical_jacobian` was part of PyTorch's private API" in str(w[0].message)
    assert "`get_analytical_jacobian` was part of PyTorch's private API" in str(w[2].message)
    eye = torch.eye(2, dtype=torch.float64)
    assert torch.allclose(ja, 2 * eye) and torch.allclose(jb, eye)
    assert torch.allclose(jt, torch.tensor([[0.2, 0.0], [0.0, 1.8]], dtype=torch.float64))
    assert torch.equal(aa, 2 * eye)
    assert torch.allclose(ab, torch.tensor([[0.2, 0.0], [0.0, 1.8]], dtype=torch.float64))
    assert reentrant and sizes_ok and types_ok
    with _w.catch_warnings():
        _w.simplefilter("ignore")
        with pytest.raises(ValueError, match="Expected grad_out to be 1.0. get_numerical_jacobian"):
            get_numerical_jacobian(lambda t: t[0], (a,), grad_out=2.0)
        with pytest.raises(ValueError, match="Expected grad_out to be 1.0. get_analytical_jacob"):
            get_analytical_jacobian((a,), a * 2, grad_out=2.0)

        class Jitter(torch.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                return x.clone()

            @staticmethod
            def backward(ctx, g):
                return g * (1 + torch.rand_like(g) * 1e-6)

        _, reentrant, _, _ = get_analytical_jacobian((a,), Jitter.apply(a))
        assert not reentrant


def test_batched_forward_check_refuses_random_ops():
    # torch 2.15: a jvp that draws random numbers fails the batched forward-mode check
    # ("vmap: We do not yet support calling random operations inside of vmap"); without
    # randomness the check passes
    x = torch.rand(2, dtype=torch.float64, requires_grad=True)

    def make(random):
        class Fn(torch.autograd.Function):
            @staticmethod
            def forward(ctx, a):
                return a * 2

            @staticmethod
            def vjp(ctx, g):
                return g * 2

            @staticmethod
            def jvp(ctx, t):
                if random:
                    torch.randn_like(t)
                return t * 2
        return Fn

    with pytest.raises(GradcheckError, match="vmap: We do not yet support calling random "
                                             "operations inside of vmap"):
        gradcheck(make(True).apply, (x,), check_forward_ad=True, check_batched_forward_grad=True)
    assert gradcheck(make(False).apply, (x,), check_forward_ad=True,
                     check_batched_forward_grad=True)


# ---- complex inputs and outputs (Wirtinger), against torch --------------------------------------

def _complex_cases(t):
    """name -> a call of gradcheck/gradgradcheck with complex inputs or outputs (the same calls
    run in torch for COMPLEX_REF): real and imaginary parts perturbed separately, a complex
    output checked as its real and its imaginary part, failures naming the part."""
    A = t.autograd

    def xc():
        return t.tensor([0.5 + 0.2j, -1.2 + 1.0j, 0.3 - 0.6j], dtype=t.complex128,
                        requires_grad=True)

    def near_zero():
        # 1/|z| near the origin: fast mode's tolerance must count both parts of its vector
        return (1e-2 * t.tensor([0.061566744677567065 + 0.04301913813374936j,
                                 0.7709603902816519 + 0.8219129866459042j],
                                dtype=t.complex128)).requires_grad_()

    class BadJvp(A.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def backward(ctx, g):
            return g * 2

        @staticmethod
        def jvp(ctx, tangent):
            return tangent.real * 2 + 0j      # drops the imaginary part of the tangent

    class BadAbs(A.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x.abs()

        @staticmethod
        def backward(ctx, g):
            x, = ctx.saved_tensors
            return g * x / x.abs() * 1j       # rotated by 90 degrees

    class RealPartWrong(A.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def backward(ctx, g):
            return g.imag * 2j + 0 * g        # right for the imaginary part of the output only

    cases = {}
    for fm in (False, True):
        tag = f"fast{int(fm)}"
        cases.update({
            f"c_square_{tag}": lambda fm=fm: A.gradcheck(lambda z: z * z, (xc(),), fast_mode=fm),
            f"c_abs_{tag}": lambda fm=fm: A.gradcheck(lambda z: z.abs(), (xc(),), fast_mode=fm),
            f"c_inv_norm_{tag}": lambda fm=fm: A.gradcheck(
                lambda z: 1.0 / t.norm(z), (near_zero(),), fast_mode=fm, atol=8.3e-6,
                rtol=1e-9),
            f"c_wrong_jvp_{tag}": lambda fm=fm: A.gradcheck(
                BadJvp.apply, (xc(),), check_forward_ad=True, check_backward_ad=False,
                check_undefined_grad=False, fast_mode=fm),
            f"c_wrong_backward_real_out_{tag}": lambda fm=fm: A.gradcheck(
                BadAbs.apply, (xc(),), fast_mode=fm),
            f"c_wrong_backward_real_part_{tag}": lambda fm=fm: A.gradcheck(
                RealPartWrong.apply, (xc(),), fast_mode=fm),
            f"c_forward_ad_{tag}": lambda fm=fm: A.gradcheck(
                lambda z: z.exp() * z, (xc(),), check_forward_ad=True, fast_mode=fm),
            f"c_gg_abs_{tag}": lambda fm=fm: A.gradgradcheck(
                lambda z: (z * z).abs(), (xc(),), fast_mode=fm),
            f"c_gg_mixed_{tag}": lambda fm=fm: A.gradgradcheck(
                lambda a, b: (a * b.exp(), (a * b).real), (xc(), xc()), fast_mode=fm),
        })
    return cases


COMPLEX_CASES = _complex_cases(torch)


@pytest.mark.parametrize("name", sorted(COMPLEX_CASES))
def test_complex_against_torch(name):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert _run(COMPLEX_CASES[name]) == COMPLEX_REF[name]


def test_every_complex_case_has_a_reference():
    assert sorted(COMPLEX_CASES) == sorted(COMPLEX_REF)


COMPLEX_REF = {'c_abs_fast0': ['ok', True],
 'c_abs_fast1': ['ok', True],
 'c_forward_ad_fast0': ['ok', True],
 'c_forward_ad_fast1': ['ok', True],
 'c_gg_abs_fast0': ['ok', True],
 'c_gg_abs_fast1': ['ok', True],
 'c_gg_mixed_fast0': ['ok', True],
 'c_gg_mixed_fast1': ['ok', True],
 'c_inv_norm_fast0': ['ok', True],
 'c_inv_norm_fast1': ['ok', True],
 'c_square_fast0': ['ok', True],
 'c_square_fast1': ['ok', True],
 'c_wrong_backward_real_out_fast0': ['err',
                                     'GradcheckError',
                                     'Jacobian mismatch for output 0 with respect to input 0,'],
 'c_wrong_backward_real_out_fast1': ['err',
                                     'GradcheckError',
                                     'Jacobian mismatch for output 0 with respect to input 0,'],
 'c_wrong_backward_real_part_fast0': ['err',
                                      'GradcheckError',
                                      'While considering the real part of complex outputs only, '
                                      'Jacobian mismatch for output 0 with respect to input 0,'],
 'c_wrong_backward_real_part_fast1': ['err',
                                      'GradcheckError',
                                      'While considering the real part of complex outputs only, '
                                      'Jacobian mismatch for output 0 with respect to input 0,'],
 'c_wrong_jvp_fast0': ['err',
                       'GradcheckError',
                       'While considering the imaginary part of complex inputs only, Jacobian '
                       'computed with forward mode mismatch for output 0 with respect to input '
                       '0,'],
 'c_wrong_jvp_fast1': ['err',
                       'GradcheckError',
                       'While considering the imaginary part of complex inputs only, Jacobian '
                       'computed with forward mode mismatch for output 0 with respect to input '
                       '0,']}
