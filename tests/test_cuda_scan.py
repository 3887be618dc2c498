"""CUDA scans (Note [CUDA scans]): cumsum, cumprod, cummax/cummin with indices and logcumsumexp
along any dim, over dtypes, layouts and line lengths (a thread per short line, a block per long
one), compared with the CPU: the same values for integers, the extremes and short float lines,
within rounding for long float lines.  Runs on a GPU or on the emulated device
(.ci/cuda_emulated); skipped without one."""
import numpy as np
import pytest

import minitorch as torch

pytestmark = pytest.mark.skipif(torch.cuda.device_count() == 0,
                                reason="needs a CUDA device (a GPU, or the emulated build)")

DTYPES = [torch.float32, torch.float64, torch.float16, torch.bfloat16, torch.int64, torch.int32,
          torch.int16, torch.int8, torch.uint8, torch.bool]


def _values(shape, dtype, seed=0, low=-3, high=4):
    g = np.random.default_rng(seed)
    if dtype == torch.bool:
        return torch.from_numpy(g.integers(0, 2, size=shape).astype(np.bool_))
    if dtype.is_complex:
        return torch.from_numpy(g.standard_normal(shape) + 1j * g.standard_normal(shape)).to(dtype)
    if dtype.is_floating_point:
        return torch.from_numpy(g.uniform(low, high, size=shape)).to(dtype)
    return torch.from_numpy(g.integers(low, high, size=shape)).to(dtype)


def _same(got, want, exact, rtol=1e-6, atol=1e-6):
    got = got.cpu()
    assert got.dtype == want.dtype and got.shape == want.shape
    if exact or not (want.dtype.is_floating_point or want.dtype.is_complex):
        assert torch.equal(got, want) or (
            want.dtype.is_floating_point and
            np.array_equal(got.double().numpy(), want.double().numpy(), equal_nan=True)), (got, want)
    else:
        ct = torch.complex128 if want.dtype.is_complex else torch.float64
        np.testing.assert_allclose(got.to(ct).numpy(), want.to(ct).numpy(), rtol=rtol, atol=atol,
                                   equal_nan=True)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("dim", [0, 1, -1])
def test_cumsum_cumprod_short_lines_exact(dtype, dim):
    x = _values((5, 6, 7), dtype, low=-2, high=3)
    _same(x.cuda().cumsum(dim), x.cumsum(dim), exact=True)
    _same(x.cuda().cumprod(dim), x.cumprod(dim), exact=True)


@pytest.mark.parametrize("dtype", [d for d in DTYPES])
@pytest.mark.parametrize("op", ["cummax", "cummin"])
def test_cummax_cummin(dtype, op):
    x = _values((4, 9, 5), dtype, low=-2, high=3)  # many ties
    for dim in (0, 1, -1):
        got = getattr(x.cuda(), op)(dim)
        want = getattr(x, op)(dim)
        _same(got.values, want.values, exact=True)
        _same(got.indices, want.indices, exact=True)
    long = _values((3, 3000), dtype, low=-50, high=50)
    got = getattr(long.cuda(), op)(1)
    want = getattr(long, op)(1)
    _same(got.values, want.values, exact=True)
    _same(got.indices, want.indices, exact=True)


def test_cummax_nan_rule():
    x = torch.tensor([1.0, float("nan"), 3.0, float("nan"), 0.5, 7.0])
    for op in ("cummax", "cummin"):
        got = getattr(x.cuda(), op)(0)
        want = getattr(x, op)(0)
        _same(got.values, want.values, exact=True)
        assert got.indices.cpu().tolist() == want.indices.tolist()
    long = torch.arange(5000, dtype=torch.float32)
    long[1234] = float("nan")
    long[4000] = float("nan")
    got = long.cuda().cummax(0)
    want = long.cummax(0)
    _same(got.values, want.values, exact=True)
    assert torch.equal(got.indices.cpu(), want.indices)


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64, torch.int64, torch.int32])
def test_long_lines_block_scan(dtype):
    x = _values((3, 5000), dtype, low=-5, high=6)
    exact = not dtype.is_floating_point
    _same(x.cuda().cumsum(1), x.cumsum(1), exact, rtol=1e-5, atol=1e-4)
    y = _values((20000,), dtype, low=-5, high=6)
    _same(y.cuda().cumsum(0), y.cumsum(0), exact, rtol=1e-5, atol=1e-3)
    p = (_values((2, 3000), torch.float64, low=0.999, high=1.001)).to(dtype) \
        if dtype.is_floating_point else _values((2, 3000), dtype, low=1, high=2)
    _same(p.cuda().cumprod(1), p.cumprod(1), exact, rtol=1e-5, atol=1e-6)
    # a long line along dim 0 (strided)
    z = _values((3000, 4), dtype, low=-5, high=6)
    _same(z.cuda().cumsum(0), z.cumsum(0), exact, rtol=1e-5, atol=1e-3)


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64, torch.float16, torch.bfloat16])
def test_logcumsumexp(dtype):
    x = _values((4, 50), dtype)
    tol = dict(rtol=1e-2, atol=1e-2) if dtype in (torch.float16, torch.bfloat16) else \
        dict(rtol=1e-6, atol=1e-6)
    _same(x.cuda().logcumsumexp(1), x.logcumsumexp(1), False, **tol)
    _same(x.cuda().logcumsumexp(0), x.logcumsumexp(0), False, **tol)
    y = _values((3000,), dtype)
    _same(y.cuda().logcumsumexp(0), y.logcumsumexp(0), False, **tol)
    s = torch.tensor([float("-inf"), float("-inf"), 0.0, float("inf"), 1.0, float("nan"), 2.0],
                     dtype=dtype)
    _same(s.cuda().logcumsumexp(0), s.logcumsumexp(0), True)


@pytest.mark.parametrize("dtype", [torch.complex64, torch.complex128])
def test_complex_cumsum_cumprod(dtype):
    x = _values((3, 70), dtype)
    _same(x.cuda().cumsum(1), x.cumsum(1), False, rtol=1e-5, atol=1e-5)
    _same(x.cuda().cumprod(1) if False else (x / 2).cuda().cumprod(1), (x / 2).cumprod(1), False,
          rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize("dtype", [torch.complex64, torch.complex128])
def test_complex_logcumsumexp(dtype):
    # the cpu's rule (operands ordered by real part): short lines in order, long ones by tiles
    x = _values((3, 40), dtype)
    _same(x.cuda().logcumsumexp(1), x.logcumsumexp(1), False, rtol=1e-5, atol=1e-5)
    y = _values((2000,), dtype)
    _same(y.cuda().logcumsumexp(0), y.logcumsumexp(0), False, rtol=1e-5, atol=1e-5)
    inf, nan = float("inf"), float("nan")
    s = torch.tensor([complex(-inf, 0), complex(1, 2), complex(-inf, 1), complex(nan, 0), 1j],
                     dtype=dtype)
    _same(s.cuda().logcumsumexp(0), s.logcumsumexp(0), False, rtol=1e-6, atol=0)
    g = x.to(torch.complex128).cuda().requires_grad_()
    c = x.to(torch.complex128).requires_grad_()
    for t in (g, c):
        t.logcumsumexp(1).abs().sum().backward()
    _same(g.grad, c.grad, False, rtol=1e-10, atol=1e-10)


def test_non_contiguous_and_dtype_argument():
    base = _values((6, 8, 100), torch.float32)
    for v in (base.transpose(0, 2), base[:, ::2, 3:], base.permute(2, 0, 1)):
        for dim in (0, 1, 2):
            _same(v.cuda().cumsum(dim), v.cumsum(dim), False, rtol=1e-5, atol=1e-4)
            got, want = v.cuda().cummin(dim), v.cummin(dim)
            _same(got.values, want.values, True)
            _same(got.indices, want.indices, True)
    x = _values((4, 5), torch.int32)
    _same(x.cuda().cumsum(1, dtype=torch.float64), x.cumsum(1, dtype=torch.float64), True)


def test_zero_dim_and_empty():
    for dtype in (torch.float32, torch.int64, torch.bool):
        x = torch.tensor(3, dtype=dtype)
        _same(x.cuda().cumsum(0), x.cumsum(0), True)
        _same(x.cuda().cumprod(-1), x.cumprod(-1), True)
        got, want = x.cuda().cummax(0), x.cummax(0)
        _same(got.values, want.values, True)
        _same(got.indices, want.indices, True)
    e = torch.zeros(3, 0)
    _same(e.cuda().cumsum(1), e.cumsum(1), True)
    got = e.cuda().cummax(0)
    assert got.values.shape == (3, 0) and got.indices.dtype == torch.int64


def test_errors():
    x = torch.ones(3, dtype=torch.int64, device="cuda")
    with pytest.raises(NotImplementedError, match="logcumsumexp"):
        x.logcumsumexp(0)
    c = torch.ones(3, dtype=torch.complex64, device="cuda")
    with pytest.raises(RuntimeError):
        c.cummax(0)
    with pytest.raises(IndexError):
        x.cumsum(1)
