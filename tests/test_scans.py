"""Cumulative ops along a dim: cumsum/cumprod (incl. complex), cummax/cummin, logcumsumexp;
and histc.  References are written here in NumPy / plain Python."""
import math

import numpy as np
import pytest

import minitorch as torch

REAL = [torch.bool, torch.uint8, torch.int8, torch.int16, torch.int32, torch.int64,
        torch.float16, torch.bfloat16, torch.float32, torch.float64]
FLOATS = [torch.float16, torch.bfloat16, torch.float32, torch.float64]


def ref_cumext(a, is_max):
    """Running extreme along the last axis of a 2-d float64 array, torch's rules: a tie moves
    the index to the later element; a NaN wins and keeps the index of the latest NaN."""
    vals, idx = np.empty_like(a), np.zeros(a.shape, dtype=np.int64)
    for r in range(a.shape[0]):
        best, at = None, 0
        for i, v in enumerate(a[r]):
            if i == 0 or math.isnan(v) or (not math.isnan(best) and (v >= best if is_max else v <= best)):
                best, at = v, i
            vals[r, i], idx[r, i] = a[r, at], at
    return vals, idx


def sample(dt, shape, rng):
    if dt == torch.bool:
        return torch.tensor(rng.integers(0, 2, shape).astype(bool))
    if dt.is_floating_point:
        v = rng.integers(-3, 4, shape).astype(np.float64)   # small ints: many ties
        v[rng.random(shape) < 0.1] = np.nan
        return torch.tensor(v, dtype=dt)
    return torch.tensor(rng.integers(0, 5, shape), dtype=dt)


@pytest.mark.parametrize("dt", REAL, ids=str)
@pytest.mark.parametrize("is_max", [True, False])
@pytest.mark.parametrize("layout", ["contiguous", "transposed"])
def test_cummax_cummin_against_reference(dt, is_max, layout):
    rng = np.random.default_rng(3)
    x = sample(dt, (5, 7), rng)
    if layout == "transposed":
        x = x.t().contiguous().t()
        assert not x.is_contiguous()
    r = (torch.cummax if is_max else torch.cummin)(x, 1)
    assert type(r).__name__ == ("cummax" if is_max else "cummin")
    v, i = r
    assert v.dtype == dt and i.dtype == torch.int64 and v.shape == x.shape == i.shape
    ev, ei = ref_cumext(x.double().numpy(), is_max)
    np.testing.assert_array_equal(i.numpy(), ei)
    np.testing.assert_array_equal(v.double().numpy(), ev)
    # along dim 0 it is the same as along dim 1 of the transpose
    v0, i0 = (torch.cummax if is_max else torch.cummin)(x, 0)
    ev0, ei0 = ref_cumext(x.t().double().numpy(), is_max)
    np.testing.assert_array_equal(i0.t().numpy(), ei0)


def test_cummax_known_values():
    t = torch.tensor([1., 3., 3., float("nan"), 2., float("nan"), 5.])
    v, i = torch.cummax(t, 0)
    assert i.tolist() == [0, 1, 2, 3, 3, 5, 5]
    assert v[:3].tolist() == [1., 3., 3.] and torch.isnan(v[3:]).all()
    assert torch.cummin(t, 0).indices.tolist() == [0, 0, 0, 3, 3, 5, 5]
    assert t.cummax(dim=0).indices.tolist() == [0, 1, 2, 3, 3, 5, 5]
    b = torch.tensor([True, False, True])
    assert torch.cummax(b, 0).indices.tolist() == [0, 0, 2]


def test_cummax_zero_dim_empty_and_out():
    v, i = torch.cummax(torch.tensor(2.5), 0)
    assert v.item() == 2.5 and i.item() == 0 and v.dim() == 0
    v, i = torch.cummin(torch.tensor(1 + 2j), -1)          # 0-d: no loop, any dtype
    assert v.item() == 1 + 2j and i.item() == 0
    v, i = torch.cummax(torch.zeros(0, 3, dtype=torch.complex64), 0)
    assert v.shape == (0, 3) and i.dtype == torch.int64
    with pytest.raises(IndexError, match="Dimension out of range"):
        torch.cummax(torch.tensor(2.), 1)
    with pytest.raises(NotImplementedError, match="\"cummax_cpu\" not implemented for 'ComplexFloat'"):
        torch.cummax(torch.tensor([1j, 2]), 0)
    with pytest.raises(TypeError):
        torch.cummax([1, 2], 0)
    with pytest.raises(TypeError):
        torch.cummax(torch.ones(2), "0")
    t = torch.tensor([[2., 1.], [0., 4.]])
    out = (torch.empty(0), torch.empty(0, dtype=torch.int64))
    r = torch.cummax(t, 1, out=out)
    assert r.values is out[0] and r.indices is out[1]
    assert out[0].tolist() == [[2., 2.], [0., 4.]] and out[1].tolist() == [[0, 0], [0, 1]]
    with pytest.raises(RuntimeError):
        torch.cummax(t, 1, out=(torch.empty(0, dtype=torch.int32), torch.empty(0, dtype=torch.int64)))
    with pytest.raises(RuntimeError):
        torch.cummin(t, 1, out=(torch.empty(0), torch.empty(0, dtype=torch.int32)))


@pytest.mark.parametrize("dt", [torch.float32, torch.float64], ids=str)
def test_logcumsumexp_against_numpy(dt):
    rng = np.random.default_rng(5)
    a = rng.normal(0, 30, (4, 9))
    x = torch.tensor(a, dtype=dt)
    for dim in (0, 1, -1):
        got = torch.logcumsumexp(x, dim)
        assert got.dtype == dt
        want = np.logaddexp.accumulate(x.double().numpy(), axis=dim % 2)
        np.testing.assert_allclose(got.double().numpy(), want, rtol=1e-6 if dt == torch.float32 else 1e-12)
    np.testing.assert_allclose(x.t().logcumsumexp(1).numpy(), np.logaddexp.accumulate(x.numpy().T, axis=1),
                               rtol=1e-6)


def test_logcumsumexp_infinities_and_dtypes():
    inf = float("inf")
    assert torch.logcumsumexp(torch.tensor([1., -inf, inf, 2.]), 0).tolist() == [1., 1., inf, inf]
    assert torch.logcumsumexp(torch.tensor([-inf, -inf, 1.]), 0).tolist() == [-inf, -inf, 1.]
    assert math.isnan(torch.logcumsumexp(torch.tensor([1., float("nan"), 2.]), 0)[2].item())
    h = torch.logcumsumexp(torch.tensor([1., 2.], dtype=torch.float16), 0)
    assert h.dtype == torch.float16 and h.tolist() == [1.0, 2.3125]
    assert torch.logcumsumexp(torch.tensor(2.), 0).item() == 2.
    c = torch.logcumsumexp(torch.tensor([1 + 1j, 2.]), 0)
    assert c.dtype == torch.complex64
    want = np.log(np.cumsum(np.exp(np.array([1 + 1j, 2.]))))
    np.testing.assert_allclose(c.numpy(), want, rtol=1e-6)
    for dt, name in ((torch.int64, "Long"), (torch.bool, "Bool")):
        with pytest.raises(NotImplementedError, match=f"\"logcumsumexp_out_cpu\" not implemented for '{name}'"):
            torch.logcumsumexp(torch.ones(2, dtype=dt), 0)
    o = torch.empty(0)
    assert torch.logcumsumexp(torch.zeros(3), 0, out=o) is o and o.shape == (3,)
    with pytest.raises(RuntimeError):
        torch.logcumsumexp(torch.zeros(3), 0, out=torch.empty(0, dtype=torch.int64))


@pytest.mark.parametrize("dt", [torch.complex64, torch.complex128], ids=str)
def test_cumsum_cumprod_complex(dt):
    rng = np.random.default_rng(1)
    a = (rng.normal(size=(3, 4)) + 1j * rng.normal(size=(3, 4)))
    x = torch.tensor(a, dtype=dt)
    tol = 1e-5 if dt == torch.complex64 else 1e-12
    assert torch.cumsum(x, 1).dtype == dt
    np.testing.assert_allclose(torch.cumsum(x, 1).numpy(), np.cumsum(x.numpy(), 1), rtol=tol)
    np.testing.assert_allclose(torch.cumprod(x, 0).numpy(), np.cumprod(x.numpy(), 0), rtol=tol)


def ref_histc(a, bins, lo, hi):
    a = a[(a >= lo) & (a <= hi)]
    pos = np.minimum(((a - lo) * bins / (hi - lo)).astype(np.int64), bins - 1)
    return np.bincount(pos, minlength=bins).astype(np.float64)


@pytest.mark.parametrize("dt", FLOATS, ids=str)
def test_histc_against_reference(dt):
    rng = np.random.default_rng(9)
    x = torch.tensor(rng.normal(size=(6, 5)), dtype=dt)
    xs = x.double().numpy().ravel()
    got = torch.histc(x, bins=7)
    assert got.dtype == dt and got.shape == (7,)
    np.testing.assert_array_equal(got.double().numpy(), ref_histc(xs, 7, xs.min(), xs.max()))
    got = torch.histc(x.t(), 4, -1, 1)
    np.testing.assert_array_equal(got.double().numpy(), ref_histc(xs, 4, -1, 1))
    assert float(torch.histc(x, bins=3).sum()) == x.numel()


def test_histc_rules():
    nan, inf = float("nan"), float("inf")
    assert torch.histc(torch.tensor([1., 2, 1, 3, 7, -1, nan]), bins=4, min=0, max=3).tolist() == [0, 2, 1, 1]
    assert torch.histc(torch.tensor([1., 1]), bins=4).tolist() == [0, 0, 2, 0]      # widened by 1
    assert torch.histc(torch.tensor([]), bins=4).tolist() == [0, 0, 0, 0]
    assert torch.histc(torch.tensor([0.1, 0.2, 0.3]), bins=3, min=0, max=0.3).tolist() == [0, 1, 2]
    assert torch.histc(torch.tensor([1., 2, 3]), 3, 0, 3).tolist() == [0, 1, 2]
    o = torch.empty(0)
    assert torch.histc(torch.tensor([1., 2]), bins=2, out=o) is o and o.tolist() == [1, 1]
    with pytest.raises(NotImplementedError, match="\"histogram_cpu\" not implemented for 'Long'"):
        torch.histc(torch.tensor([1, 2, 1]), bins=4, min=0, max=3)
    with pytest.raises(RuntimeError, match="bins must be > 0, but got 0"):
        torch.histc(torch.tensor([1., 2]), bins=0)
    with pytest.raises(RuntimeError, match="max must be larger than min"):
        torch.histc(torch.tensor([1., 2]), bins=4, min=3, max=1)
    with pytest.raises(RuntimeError, match=r"range of \[1, inf\] is not finite"):
        torch.histc(torch.tensor([1., 2, inf]), bins=4)
    with pytest.raises(RuntimeError, match=r"range of \[nan, 0\] is not finite"):
        torch.histc(torch.tensor([1., 2]), bins=3, min=nan)
    with pytest.raises(TypeError, match="'bins' must be int, not float"):
        torch.histc(torch.tensor([1., 2]), bins=2.5)
    with pytest.raises(RuntimeError, match="should have the same dtype"):
        torch.histc(torch.tensor([1., 2]), bins=2, out=torch.empty(0, dtype=torch.float64))
