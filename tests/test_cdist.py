"""cdist, pdist (torch.pdist, F.pdist) and dist: values against NumPy, torch's compute modes,
batch broadcasting, dtypes, errors, and derivatives (gradcheck / gradgradcheck in float64)."""
import math

import numpy as np
import pytest

import minitorch as torch
import minitorch.nn.functional as F
from minitorch.autograd import gradcheck, gradgradcheck

PS = [0, 0.5, 1, 1.5, 2, 3, math.inf]


def _np_cdist(a, b, p):
    d = np.abs(a[..., :, None, :] - b[..., None, :, :])
    if p == 0:
        return (d != 0).sum(-1).astype(a.dtype)
    if math.isinf(p):
        return d.max(-1) if d.shape[-1] else np.zeros(d.shape[:-1])
    return (d ** p).sum(-1) ** (1 / p)


def _rand(*shape, seed=0):
    return np.random.default_rng(seed).standard_normal(shape)


@pytest.mark.parametrize("p", PS)
def test_values_against_numpy(p):
    a, b = _rand(5, 4), _rand(7, 4, seed=1)
    a[1] = b[2]                                     # a zero distance
    got = torch.cdist(torch.tensor(a), torch.tensor(b), p)
    assert got.dtype == torch.float64 and got.shape == (5, 7)
    np.testing.assert_allclose(got.numpy(), _np_cdist(a, b, p), rtol=1e-13, atol=1e-15)
    got32 = torch.cdist(torch.tensor(a).float(), torch.tensor(b).float(), p)
    assert got32.dtype == torch.float32
    np.testing.assert_allclose(got32.numpy(), _np_cdist(a, b, p), rtol=2e-6, atol=1e-6)


def test_batches_broadcast():
    a, b = _rand(2, 1, 3, 4), _rand(5, 6, 4, seed=1)
    got = torch.cdist(torch.tensor(a), torch.tensor(b), 1.0)
    assert got.shape == (2, 5, 3, 6)
    np.testing.assert_allclose(got.numpy(), _np_cdist(np.broadcast_to(a, (2, 5, 3, 4)), b, 1.0), rtol=1e-13)


def test_euclidean_compute_modes():
    a, b = _rand(30, 6), _rand(27, 6, seed=1)
    want = _np_cdist(a, b, 2)
    ta, tb = torch.tensor(a), torch.tensor(b)
    for mode in (None, "use_mm_for_euclid_dist_if_necessary", "use_mm_for_euclid_dist",
                 "donot_use_mm_for_euclid_dist"):
        np.testing.assert_allclose(torch.cdist(ta, tb, compute_mode=mode).numpy(), want, rtol=1e-11, atol=1e-12)
    # the product path clamps the rounding below zero: identical rows are exactly 0 apart
    same = torch.cdist(ta, ta, compute_mode="use_mm_for_euclid_dist")
    assert (same.diagonal() >= 0).all() and float(same.diagonal().max()) < 1e-6
    with pytest.raises(ValueError, match="foo is not a valid value for compute_mode"):
        torch.cdist(ta, tb, compute_mode="foo")


def test_empty_and_strided_operands():
    assert torch.cdist(torch.ones(0, 3), torch.ones(2, 3)).shape == (0, 2)
    z = torch.cdist(torch.ones(2, 0), torch.ones(3, 0))
    assert z.shape == (2, 3) and (z == 0).all()
    base = torch.tensor(_rand(4, 6))
    a, b = base.t()[::2], base.t()[1::2]
    np.testing.assert_allclose(torch.cdist(a, b, 3).numpy(), _np_cdist(a.numpy(), b.numpy(), 3), rtol=1e-13)


def test_errors():
    x = torch.ones(2, 3)
    with pytest.raises(RuntimeError, match="cdist only supports at least 2D tensors, X1 got: 1D"):
        torch.cdist(torch.ones(3), x)
    with pytest.raises(RuntimeError, match="X1 and X2 must have the same number of columns. X1: 3 X2: 4"):
        torch.cdist(x, torch.ones(2, 4))
    with pytest.raises(RuntimeError, match="cdist only supports non-negative p values"):
        torch.cdist(x, x, -1.0)
    with pytest.raises(RuntimeError, match="cdist only supports floating-point dtypes, X1 got: Long"):
        torch.cdist(x.long(), x.long())
    with pytest.raises(RuntimeError, match="expected scalar type Float but found Double"):
        torch.cdist(x, x.double())
    with pytest.raises(NotImplementedError, match="\"cdist\" not implemented for 'Half'"):
        torch.cdist(x.half(), x.half())
    with pytest.raises(RuntimeError, match="pdist only supports 2D tensors, got: 1D"):
        torch.pdist(torch.ones(3))
    with pytest.raises(RuntimeError, match="pdist only supports non-negative p values"):
        torch.pdist(x, -1)
    with pytest.raises(RuntimeError, match="pdist only supports floating-point dtypes"):
        torch.pdist(x.long())
    with pytest.raises(NotImplementedError, match="input dtype should be either floating point or complex"):
        torch.dist(x.long(), x.long())


@pytest.mark.parametrize("p", [0.5, 1, 1.5, 2, 3, math.inf])
def test_derivatives(p):
    a = torch.tensor(_rand(3, 4), requires_grad=True)
    b = torch.tensor(_rand(5, 4, seed=1), requires_grad=True)
    f = lambda x, y: torch.cdist(x, y, p)
    assert f(a, b).grad_fn.name() == "CdistBackward0"
    assert gradcheck(f, (a, b))
    if p not in (1, math.inf):
        assert gradgradcheck(f, (a, b))
    assert gradcheck(lambda x: torch.pdist(x, p), (b,))


def test_derivative_through_the_product_path_and_batches():
    a = torch.tensor(_rand(2, 3, 4), requires_grad=True)
    b = torch.tensor(_rand(1, 30, 4, seed=1), requires_grad=True)
    f = lambda x, y: torch.cdist(x, y)
    assert gradcheck(f, (a, b)) and gradgradcheck(f, (a, b))


def test_zero_distances_have_zero_gradient():
    a = torch.ones(2, 3, dtype=torch.float64, requires_grad=True)
    b = torch.ones(4, 3, dtype=torch.float64, requires_grad=True)
    for p in (0.5, 1.5, 2, 3):
        ga, gb = torch.autograd.grad(torch.cdist(a, b, p).sum(), (a, b))
        assert (ga == 0).all() and (gb == 0).all()
    x = torch.tensor([[1.0, 2.0], [1.0, 2.0], [0.0, 0.0]], dtype=torch.float64, requires_grad=True)
    g, = torch.autograd.grad(torch.pdist(x).sum(), x, create_graph=True)
    assert not g.isnan().any()
    gg, = torch.autograd.grad((g * g).sum(), x)     # no NaN from the zero distance either
    assert not gg.isnan().any()
    # p = 0 counts differing coordinates: a step function, zero gradient
    g0, = torch.autograd.grad(torch.cdist(a, b + 1, 0).sum(), a)
    assert (g0 == 0).all()


def test_pdist_is_the_upper_triangle():
    x = _rand(6, 3)
    for p in (1, 2, 2.5, math.inf):
        d = _np_cdist(x, x, p)
        want = d[np.triu_indices(6, 1)]
        np.testing.assert_allclose(torch.pdist(torch.tensor(x), p).numpy(), want, rtol=1e-13)
        np.testing.assert_allclose(F.pdist(torch.tensor(x), p).numpy(), want, rtol=1e-13)
    assert torch.pdist(torch.ones(1, 3)).shape == (0,)


@pytest.mark.parametrize("p", [2, 1, 0, 3.5, math.inf, -math.inf])
def test_dist(p):
    a, b = _rand(2, 3), _rand(3, seed=1)
    d = (a - b).ravel()
    want = {0: np.count_nonzero(d), math.inf: np.abs(d).max(), -math.inf: np.abs(d).min()}.get(
        p, (np.abs(d) ** p).sum() ** (1 / p) if p else 0)
    got = torch.dist(torch.tensor(a), torch.tensor(b), p)
    assert got.shape == () and abs(got.item() - want) < 1e-13
    assert torch.tensor(a).dist(torch.tensor(b), p).item() == got.item()
    assert torch.dist(torch.tensor(a).float(), torch.tensor(b), p).dtype == torch.float64
    ta = torch.tensor(a, requires_grad=True)
    if p in (2, 3.5):
        assert gradcheck(lambda x: torch.dist(x, torch.tensor(b), p), (ta,))
