"""GELU's float32 kernels (forward and derivative, Note [GELU's shared Gaussian]) against a
float64 reference built from math.erf, over the whole range, short rows (below the vector
width), strided inputs and non-finite values."""
import math

import numpy as np
import pytest

import minitorch as torch
import minitorch.nn.functional as F


def _ref(x):
    xd = np.asarray(x, dtype=np.float64)
    cdf = 0.5 * (1 + np.vectorize(math.erf)(xd / math.sqrt(2)))
    return xd * cdf, cdf + xd * np.exp(-xd * xd / 2) / math.sqrt(2 * math.pi)


def _gelu_and_grad(x):
    t = torch.tensor(x, requires_grad=True)
    y = F.gelu(t)
    y.backward(torch.ones_like(y))
    return y.detach().numpy(), t.grad.numpy()


@pytest.mark.parametrize("n", [1, 3, 7, 8, 15, 16, 17, 33, 1000])
def test_gelu_float32_matches_float64_reference(n):
    x = np.linspace(-9, 9, n).astype(np.float32)
    y, g = _gelu_and_grad(x)
    ry, rg = _ref(x)
    assert y.dtype == np.float32 and g.dtype == np.float32
    assert np.all(np.abs(y - ry) <= 1e-6 * np.abs(ry) + 5e-7 * np.maximum(1, np.abs(x)))
    assert np.all(np.abs(g - rg) <= 1e-6 * np.abs(rg) + 5e-7)


def test_gelu_float32_dense_range():
    x = np.linspace(-12, 12, 100001).astype(np.float32)
    y, g = _gelu_and_grad(x)
    ry, rg = _ref(x)
    assert np.abs(y - ry).max() < 5e-7 * 12
    assert np.abs(g - rg).max() < 5e-7
    # the negative tail stays tiny: it never exceeds the reference's magnitude by much
    neg = x < -6
    assert np.abs(y[neg]).max() < 2e-6


def test_gelu_float32_non_contiguous():
    base = np.random.RandomState(0).randn(6, 10).astype(np.float32) * 4
    t = torch.tensor(base).t()  # a transposed view
    assert not t.is_contiguous()
    ry, _ = _ref(base.T)
    np.testing.assert_allclose(F.gelu(t).numpy(), ry, rtol=1e-6, atol=3e-6)
    tg = torch.tensor(base, requires_grad=True)
    y = F.gelu(tg.t())
    y.backward(torch.ones_like(y))
    _, rg = _ref(base)
    np.testing.assert_allclose(tg.grad.numpy(), rg, rtol=1e-6, atol=5e-7)


def test_gelu_float32_non_finite_and_zero():
    y, g = _gelu_and_grad(np.array([np.inf, np.nan, 0.0, -0.0, 88.0, -88.0, 200.0, -200.0],
                                   dtype=np.float32))
    assert y[0] == np.inf and np.isnan(y[1]) and np.isnan(g[1])
    assert y[2] == 0 and y[3] == 0
    assert g[2] == pytest.approx(0.5) and g[3] == pytest.approx(0.5)
    assert y[4] == 88.0 and g[4] == pytest.approx(1.0)
    assert y[6] == 200.0 and g[6] == pytest.approx(1.0)
    assert abs(y[5]) < 1e-30 and abs(y[7]) < 1e-30
    assert abs(g[5]) < 1e-30 and abs(g[7]) < 1e-30


def test_gelu_float64_uses_exact_erf():
    x = np.linspace(-7, 7, 41)
    t = torch.tensor(x, dtype=torch.float64)
    ry, _ = _ref(x)
    np.testing.assert_allclose(F.gelu(t).numpy(), ry, rtol=1e-14, atol=1e-300)
