"""Finite differences (diff: n, dim, prepend, append, bool inputs) and the trapezoidal rule
(trapezoid / trapz / cumulative_trapezoid with x, dx, dim): against NumPy, torch's errors,
derivatives."""
import numpy as np
import pytest

import minitorch as torch
from minitorch.autograd import gradcheck


def _rand(*shape, seed=0):
    return np.random.default_rng(seed).standard_normal(shape)


def _t(a, **kw):
    return torch.tensor(a, dtype=torch.float64, **kw)


@pytest.mark.parametrize("n", [0, 1, 2, 3, 7])
@pytest.mark.parametrize("dim", [0, 1, -1])
def test_diff_against_numpy(n, dim):
    x = _rand(4, 5)
    np.testing.assert_allclose(torch.diff(_t(x), n, dim).numpy(), np.diff(x, n, dim), rtol=1e-14)
    pre, app = _rand(4, 5, seed=1), _rand(4, 5, seed=2)
    pre = pre[:2] if dim == 0 else pre[:, :2]
    app = app[:1] if dim == 0 else app[:, :1]
    got = torch.diff(_t(x), n, dim, prepend=_t(pre), append=_t(app))
    np.testing.assert_allclose(got.numpy(), np.diff(x, n, dim, prepend=pre, append=app), rtol=1e-13)


def test_diff_dtypes_and_forms():
    b = np.array([True, False, False, True, True])
    assert torch.diff(torch.tensor(b)).tolist() == np.diff(b).tolist()
    assert torch.diff(torch.tensor(b), n=2).dtype == torch.bool
    u = torch.tensor([1, 5, 2], dtype=torch.uint8)
    assert torch.diff(u).tolist() == [4, 253]                     # wraps, as torch
    x = torch.tensor([[1.0, 4.0, 9.0]])
    assert torch.diff(x, dim=0, append=torch.ones(1, 3, dtype=torch.float64)).dtype == torch.float64
    assert x.diff().tolist() == [[3.0, 5.0]]
    assert torch.diff(x, n=0).tolist() == x.tolist() and torch.diff(x, n=0).data_ptr() != x.data_ptr()
    assert torch.diff(x, n=5).shape == (1, 0)
    out = torch.empty(0)
    assert torch.diff(x, out=out) is out and out.tolist() == [[3.0, 5.0]]


def test_diff_errors():
    x = torch.ones(2, 3)
    with pytest.raises(RuntimeError, match="diff expects input to be at least one-dimensional"):
        torch.diff(torch.tensor(1.0))
    with pytest.raises(RuntimeError, match="order must be non-negative but got -1"):
        torch.diff(x, n=-1)
    with pytest.raises(RuntimeError, match="diff expects prepend or append to be the same dimension as input"):
        torch.diff(x, prepend=torch.ones(3))
    with pytest.raises(RuntimeError, match=r"input.size\(1\) = 3, but got tensor.size\(1\) = 2"):
        torch.diff(x, dim=0, append=torch.ones(1, 2))
    with pytest.raises(TypeError, match="argument 'prepend' must be Tensor, not int"):
        torch.diff(x, prepend=2)


def test_diff_derivative():
    x = _t(_rand(3, 5), requires_grad=True)
    p = _t(_rand(3, 2, seed=1), requires_grad=True)
    assert gradcheck(lambda a, b: torch.diff(a, 2, -1, prepend=b), (x, p))


def test_trapezoid_against_numpy():
    y = _rand(3, 6)
    x1 = np.cumsum(np.abs(_rand(6, seed=1)))
    x2 = np.cumsum(np.abs(_rand(3, 6, seed=2)), axis=1)
    np.testing.assert_allclose(torch.trapezoid(_t(y)).numpy(), np.trapezoid(y), rtol=1e-14)
    np.testing.assert_allclose(torch.trapezoid(_t(y), dx=0.25).numpy(), np.trapezoid(y, dx=0.25), rtol=1e-14)
    np.testing.assert_allclose(torch.trapezoid(_t(y), _t(x1)).numpy(), np.trapezoid(y, x1), rtol=1e-14)
    np.testing.assert_allclose(torch.trapezoid(_t(y), _t(x2)).numpy(), np.trapezoid(y, x2), rtol=1e-14)
    np.testing.assert_allclose(torch.trapezoid(_t(y), dim=0).numpy(), np.trapezoid(y, axis=0), rtol=1e-14)
    np.testing.assert_allclose(torch.trapz(_t(y), _t(x1)).numpy(), np.trapezoid(y, x1), rtol=1e-14)
    np.testing.assert_allclose(torch.trapz(_t(y), dx=3).numpy(), np.trapezoid(y, dx=3), rtol=1e-14)
    y3 = _rand(2, 3, 4)
    x3 = np.cumsum(np.abs(_rand(3, 4, seed=3)), axis=0)
    np.testing.assert_allclose(torch.trapezoid(_t(y3), _t(x3), dim=1).numpy(),
                               np.trapezoid(y3, x3[None], axis=1), rtol=1e-14)
    # integers integrate in the default dtype; no samples integrate to 0
    assert torch.trapezoid(torch.tensor([1, 2, 3])).item() == 4.0
    assert torch.trapezoid(torch.tensor([1, 2, 3]), dx=2).dtype == torch.float32
    assert torch.trapezoid(torch.ones(0)).item() == 0.0
    assert torch.trapezoid(torch.ones(2, 0)).shape == (2,)


def test_cumulative_trapezoid():
    y = _rand(3, 6)
    x = np.cumsum(np.abs(_rand(6, seed=1)))
    want = np.cumsum((y[:, 1:] + y[:, :-1]) / 2 * np.diff(x), axis=1)
    np.testing.assert_allclose(torch.cumulative_trapezoid(_t(y), _t(x)).numpy(), want, rtol=1e-14)
    want = np.cumsum((y[1:] + y[:-1]) / 2 * 0.5, axis=0)
    np.testing.assert_allclose(torch.cumulative_trapezoid(_t(y), dx=0.5, dim=0).numpy(), want, rtol=1e-14)
    assert torch.cumulative_trapezoid(torch.ones(1)).shape == (0,)
    last = torch.cumulative_trapezoid(_t(y), _t(x))[:, -1]
    assert torch.allclose(last, torch.trapezoid(_t(y), _t(x)), rtol=1e-14)


def test_trapezoid_errors_and_derivatives():
    y = torch.ones(2, 3)
    with pytest.raises(RuntimeError, match="There must be one `x` value for each sample point"):
        torch.trapezoid(y, torch.tensor([0.0, 1.0]))
    with pytest.raises(IndexError, match="Dimension specified as -1 but tensor has no dimensions"):
        torch.trapezoid(torch.tensor(3.0))
    with pytest.raises(TypeError):
        torch.trapezoid(y, torch.tensor([0.0, 1.0, 2.0]), dx=2)
    a = _t(_rand(3, 4), requires_grad=True)
    xs = _t(np.cumsum(np.abs(_rand(4, seed=1))), requires_grad=True)
    assert gradcheck(lambda u, v: torch.trapezoid(u, v), (a, xs))
    assert gradcheck(lambda u: torch.trapezoid(u, dx=0.3, dim=0), (a,))
    assert gradcheck(lambda u, v: torch.cumulative_trapezoid(u, v), (a, xs))
