"""Gradients at edge values (ties, NaN, infinite upstream gradients, bounds, repeated indices)
as torch 2.15 gives them: the expected values below were produced by torch on these inputs."""
import math

import pytest

import minitorch as torch
import minitorch.nn.functional as F

nan, inf = math.nan, math.inf


def grads(fn, *values, upstream=None):
    xs = [torch.tensor(v, dtype=torch.float64, requires_grad=True) for v in values]
    out = fn(*xs)
    out.backward(torch.ones_like(out) if upstream is None
                 else torch.tensor(upstream, dtype=torch.float64))
    return [None if x.grad is None else x.grad.tolist() for x in xs]


def same(got, want):
    """Equal lists of floats, NaN equal to NaN."""
    if isinstance(want, list):
        return len(got) == len(want) and all(same(g, w) for g, w in zip(got, want))
    if want is None or got is None:
        return got is want
    return (math.isnan(got) and math.isnan(want)) or got == pytest.approx(want, rel=1e-12)


CASES = {
    "cross_entropy all ignored": (lambda x: F.cross_entropy(x, torch.tensor([-100, -100])),
                                  [[[1., 2.], [3., 4.]]], None, [[[0., 0.], [0., 0.]]]),
    "nll_loss all ignored": (lambda x: F.nll_loss(x, torch.tensor([-100, -100])),
                             [[[1., 2.], [3., 4.]]], None, [[[0., 0.], [0., 0.]]]),
    "binary_cross_entropy at 0 and 1": (
        lambda p: F.binary_cross_entropy(p, torch.tensor([0., 1., 1., 0.], dtype=torch.float64)),
        [[0., 1., 0., 1.]], None, [[0., 0., -250000000998.9507, 250000000998.9507]]),
    "round, infinite upstream": (torch.round, [[1.5, 2.]], [inf, 1.], [[0., 0.]]),
    "floor, infinite upstream": (torch.floor, [[1.5, 2.]], [inf, 1.], [[0., 0.]]),
    "sign, infinite upstream": (torch.sign, [[1.5, 2.]], [inf, 1.], [[0., 0.]]),
    "clamp masks infinite upstream": (lambda x: x.clamp(-1, 1), [[-5., .5, 5.]], [inf, 1., inf],
                                      [[0., 1., 0.]]),
    "hardtanh masks infinite upstream": (F.hardtanh, [[-5., .5, 5.]], [inf, 1., inf],
                                         [[0., 1., 0.]]),
    "relu6 masks infinite upstream": (F.relu6, [[-5., .5, 5.]], [inf, 1., inf], [[0., 1., inf]]),
    "softshrink masks infinite upstream": (lambda x: F.softshrink(x, 1.), [[-5., .5, 5.]],
                                           [inf, 1., inf], [[inf, 0., inf]]),
    "maximum masks infinite upstream": (
        lambda x: torch.maximum(x, torch.zeros(3, dtype=torch.float64)), [[-5., .5, 5.]],
        [inf, 1., inf], [[0., 1., inf]]),
    "atan2(0, 0)": (torch.atan2, [[0., 1.], [0., 1.]], None, [[0., .5], [-0., -.5]]),
    "relu at NaN": (torch.relu, [[nan, 1., -1.]], None, [[1., 1., 0.]]),
    "clamp with a NaN tensor bound": (lambda x, lo: torch.clamp(x, min=lo),
                                      [[0., 1., 2.], [nan, 0., 5.]], None,
                                      [[1., 1., 0.], [1., 0., 1.]]),
    "clamp of NaN, number bounds": (lambda x: torch.clamp(x, 0., 3.), [[nan, 1., 5., 0., 3.]],
                                    None, [[0., 1., 0., 0., 0.]]),
    "clamp with a NaN number bound": (lambda x: torch.clamp(x, nan, 3.), [[0., 2., nan]], None,
                                      [[0., 0., 0.]]),
    "clamp with tensor bounds: ties split, lo > hi to hi": (
        torch.clamp, [[0., 1., 2., 3., 4., 2.], [1.] * 5 + [3.], [3.] * 5 + [1.]], None,
        [[0., .5, 1., .5, 0., 0.], [1., .5, 0., 0., 0., 0.], [0., 0., 0., .5, 1., 1.]]),
    "clamp_max with a NaN tensor bound": (
        lambda x, hi: torch.clamp(x, None, hi), [[0., 1., 2., 3., 4., nan], [nan, 3, 3, 3, 3, 3]],
        None, [[1., 1., 1., .5, 0., 1.], [1., 0., 0., .5, 1., 1.]]),
    "maximum with NaN and ties": (torch.maximum, [[nan, 1., 2.], [1., nan, 2.]], None,
                                  [[1., 1., .5], [1., 1., .5]]),
    "fmax with NaN and ties": (torch.fmax, [[nan, 1., 2., nan, 1.], [1., nan, 2., nan, 3.]], None,
                               [[0., 1., .5, 1., 0.], [1., 0., .5, 0., 1.]]),
    "fmin with NaN and ties": (torch.fmin, [[nan, 1., 2., nan, 1.], [1., nan, 2., nan, 3.]], None,
                               [[0., 1., .5, 1., 1.], [1., 0., .5, 0., 0.]]),
    "max splits ties": (lambda x: x.max(), [[1., 3., 3.]], None, [[0., .5, .5]]),
    "polar at abs 0": (lambda a, b: torch.polar(a, b).abs(), [[0., 1.], [0., 1.]], None,
                       [[0., 1.], [0., 0.]]),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_edge_gradients_as_torch(name):
    fn, values, upstream, want = CASES[name]
    got = grads(fn, *values, upstream=upstream)
    assert same(got, want), (got, want)


def test_index_fill_counts_a_repeated_position_once():
    x = torch.zeros(3, dtype=torch.float64, requires_grad=True)
    v = torch.tensor(2., dtype=torch.float64, requires_grad=True)
    x.index_fill(0, torch.tensor([1, 1, 2]), v).sum().backward()
    assert x.grad.tolist() == [1., 0., 0.]
    assert v.item() == 2. and v.grad.item() == 2.


def test_norm_zero_has_no_gradient():
    x = torch.tensor([1., 0., 2.], dtype=torch.float64, requires_grad=True)
    n = x.norm(p=0)
    assert n.item() == 2. and n.requires_grad
    n.backward()
    assert x.grad is None


def test_complex_and_polar():
    re = torch.tensor([1., 2.], requires_grad=True)
    im = torch.tensor([.5, -1.], requires_grad=True)
    c = torch.complex(re, im)
    assert c.dtype == torch.complex64 and c.tolist() == [1 + .5j, 2 - 1j]
    c.real.sum().backward()
    assert re.grad.tolist() == [1., 1.] and im.grad.tolist() == [0., 0.]
    p = torch.polar(torch.tensor([2.], dtype=torch.float64), torch.tensor([math.pi / 2],
                                                                         dtype=torch.float64))
    assert p.dtype == torch.complex128 and abs(p.item() - 2j) < 1e-15
    assert torch.complex(torch.ones(2, 1), torch.ones(3)).shape == (2, 3)
    out = torch.empty(0, dtype=torch.complex64)
    assert torch.polar(torch.ones(2), torch.zeros(2), out=out) is out and out.tolist() == [1, 1]
    with pytest.raises(NotImplementedError, match="Half, Float or Double tensors but got Float "
                                                  "and Long"):
        torch.complex(torch.ones(1), torch.ones(1, dtype=torch.int64))
    with pytest.raises(RuntimeError, match="scalar type Float but got scalar type Double"):
        torch.polar(torch.ones(1), torch.ones(1, dtype=torch.float64))
    with pytest.raises(TypeError, match="argument 'imag'"):
        torch.complex(torch.ones(1), 1.0)


def test_complex_pow_gradients():
    # conjugate Wirtinger gradients of |x ** e| (torch 2.15's values), and 0 ** e for real e >= 0
    x = torch.tensor([1 + 2j, 0.5 - 1j, 0j], dtype=torch.complex128, requires_grad=True)
    e = torch.tensor([2.5 + 0.5j, 1.5 - 0.25j, 2 + 0j], dtype=torch.complex128, requires_grad=True)
    (x ** e).abs().sum().backward()
    want_x = [3.008820338151203 + 3.868483291908689j, 0.7170762721391056 - 0.9859798741912703j, 0]
    want_e = [3.4589353742309537 - 4.758873684938408j, 0.10000684120517173 + 0.9923875940742213j, 0]
    for got, want in ((x.grad, want_x), (e.grad, want_e)):
        for g, w in zip(got.tolist(), want):
            assert g == pytest.approx(w, rel=1e-12, abs=1e-15)
    x.grad = None
    (x[:2] ** (1.5 + 0.5j)).abs().sum().backward()
    want = [0.9611324011699988 + 0.961132401169999j, 0.41126977619302235 - 2.878888433351155j, 0]
    for g, w in zip(x.grad.tolist(), want):
        assert g == pytest.approx(w, rel=1e-12, abs=1e-15)
    e.grad = None
    (2.0 ** e).abs().sum().backward()
    assert e.grad.tolist()[2] == pytest.approx(2.772588722239781)
    xs = torch.tensor([1 + 2j, 0.5 - 1j], dtype=torch.complex128, requires_grad=True)
    es = torch.tensor([2.5 + 0.5j, 1.5 - 0.25j], dtype=torch.complex128, requires_grad=True)
    assert torch.autograd.gradcheck(lambda a, b: a ** b, (xs, es))
    assert torch.autograd.gradgradcheck(lambda a, b: a ** b, (xs, es))
    assert torch.autograd.gradgradcheck(lambda a: a ** 2.5, (xs,))


def test_complex_logcumsumexp_gradient():
    # torch 2.15's values: exp(reverse logcumsumexp(log(conj g) - out) + x), conjugated
    x = torch.tensor([1 + 2j, 0.5 - 1j, -0.3 + 0.2j, 2 - 0.5j, 0.1 + 0.1j], dtype=torch.complex128,
                     requires_grad=True)
    torch.logcumsumexp(x, 0).abs().sum().backward()
    want = [2.335611886612904 + 3.851637253598717j, -1.387027441995995 - 1.6140538962368107j,
            -0.23535028391316037 + 0.29110116212829223j, 1.884154548365083 + 0.11694470002623591j,
            0.11652271987509716 - 0.062288880152127274j]
    for g, w in zip(x.grad.tolist(), want):
        assert g == pytest.approx(w, rel=1e-12)
    assert torch.autograd.gradcheck(lambda a: torch.logcumsumexp(a, 1),
                                    (x.detach().reshape(1, 5).requires_grad_(),))


def test_pow_of_a_negative_real_base_with_a_complex_exponent():
    # the slope in the exponent uses the complex log of the base (torch 2.15's values)
    base = -torch.ones(2, dtype=torch.float64)
    e = torch.tensor([0.3 + 0.2j, -1.1 + 0.5j], dtype=torch.complex128, requires_grad=True)
    assert torch.autograd.gradcheck(lambda e: torch.pow(base, e), (e,))
    assert torch.autograd.gradcheck(lambda e: torch.pow(-1, e), (e,))
    assert torch.autograd.gradgradcheck(lambda e: torch.pow(base, e), (e,))
    (g,) = torch.autograd.grad(torch.pow(-2.5, e).abs().sum(), e)
    ref = [0.6435 - 2.2063j, 0.0695 - 0.2384j]
    assert all(abs(a - b) < 1e-4 for a, b in zip(g.tolist(), ref))
    # a real exponent keeps the real log: NaN for a negative base, as torch
    y = torch.tensor([0.5, 1.5], dtype=torch.float64, requires_grad=True)
    (g,) = torch.autograd.grad(torch.pow(-2.0, y).sum(), y)
    assert all(math.isnan(v) for v in g.tolist())
    (g,) = torch.autograd.grad(torch.pow(0.0, y).sum(), y)
    assert g.tolist() == [0.0, 0.0]


def test_scatter_reduce_prod_second_derivative_with_zeros():
    # torch 2.15: correct second derivatives with one zero per place (also a zero of self
    # next to one of src); two zeros of src at one place: the src gradient's backward raises
    from minitorch.autograd import gradcheck, gradgradcheck
    idx = torch.tensor([0, 0, 1])
    for vals in ([0.0, 2.0, 3.0], [0.5, 0.0, -3.0], [1.5, 2.0, 3.0]):
        for xv in (1.0, 0.0):
            for inc in (True, False):
                x = torch.tensor([xv, 1.3], dtype=torch.float64, requires_grad=True)
                s = torch.tensor(vals, dtype=torch.float64, requires_grad=True)

                def f(x, s, inc=inc):
                    return torch.scatter_reduce(x, 0, idx, s, "prod", include_self=inc)

                assert gradcheck(f, (x, s)) and gradgradcheck(f, (x, s))
    x = torch.tensor([1.0], dtype=torch.float64, requires_grad=True)
    s = torch.tensor([0.0, 0.0], dtype=torch.float64, requires_grad=True)
    i2 = torch.tensor([0, 0])
    out = torch.scatter_reduce(x, 0, i2, s, "prod")
    gx, gs = torch.autograd.grad(out.sum(), [x, s], create_graph=True)
    assert gs.tolist() == [0.0, 0.0]
    with pytest.raises(RuntimeError, match="Double backward is unsupported for src when >1 "
                                           "zeros in src are scattered to the same position"):
        torch.autograd.grad(gs.sum(), [x, s])
    assert torch.autograd.grad(gx.sum(), [x, s], allow_unused=True)[1].tolist() == [0.0, 0.0]
