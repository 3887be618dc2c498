"""CUDA sort kernels: sort (stable, NaN largest, descending), argsort, msort, topk, kthvalue and
searchsorted, compared exactly (values and indices) with the same op on the CPU: every real
dtype, any dim, duplicates (stability), NaN and signed zeros, lines shorter than a tile (several
per block), longer than a tile (merge passes), non-contiguous inputs, 0-d and empty tensors.
Runs on a GPU or on the emulated device (MINITORCH_CUDA=EMULATE, .ci/cuda_emulated); skipped
without one."""
import numpy as np
import pytest

import minitorch as torch

pytestmark = pytest.mark.skipif(torch.cuda.device_count() == 0,
                                reason="needs a CUDA device (a GPU, or the emulated build)")

REAL = [torch.float32, torch.float64, torch.float16, torch.bfloat16, torch.int64, torch.int32,
        torch.int16, torch.int8, torch.uint8, torch.bool]


def _values(shape, dtype=torch.float32, seed=0, spread=20):
    """Values with many duplicates (spread distinct ones) to exercise stability."""
    a = np.random.default_rng(seed).integers(-spread, spread, size=shape).astype(np.float64)
    t = torch.from_numpy(a * 0.5)
    if dtype == torch.bool:
        return t > 0
    if dtype == torch.uint8:
        return t.abs().to(dtype)
    return t.to(dtype)


def _same(got, want):
    assert got.is_cuda
    g = got.cpu()
    assert g.dtype == want.dtype and g.shape == want.shape
    if g.dtype.is_floating_point:   # NaNs equal to NaNs, -0.0 distinct from 0.0
        gb = g.to(torch.float64).numpy()
        wb = want.to(torch.float64).numpy()
        np.testing.assert_array_equal(gb, wb)
        np.testing.assert_array_equal(np.signbit(gb), np.signbit(wb))
    else:
        assert g.equal(want), (g, want)


def _check_sort(x, dim=-1, descending=False):
    v, i = torch.sort(x.cuda(), dim=dim, descending=descending)
    wv, wi = torch.sort(x, dim=dim, descending=descending)
    _same(v, wv)
    _same(i, wi)


@pytest.mark.parametrize("dtype", REAL)
@pytest.mark.parametrize("descending", [False, True])
def test_sort_dtypes(dtype, descending):
    x = _values((6, 37), dtype)
    _check_sort(x, -1, descending)
    _check_sort(x, 0, descending)


@pytest.mark.parametrize("dtype", [torch.uint16, torch.uint32, torch.uint64])
def test_sort_barebones_unsigned(dtype):
    x = torch.from_numpy(np.random.default_rng(1).integers(0, 50, size=(4, 30))).to(dtype)
    _check_sort(x)
    _check_sort(x, 0, True)


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64, torch.float16, torch.bfloat16])
def test_sort_nan_inf_signed_zero(dtype):
    x = torch.tensor([[1.0, float("nan"), -0.0, 0.0, float("-inf"), float("inf"), -0.0, float("nan"),
                       -2.5, 0.0, 1.0]], dtype=dtype).repeat(3, 1)
    for desc in (False, True):
        _check_sort(x, -1, desc)
        _check_sort(x.t(), 0, desc)


@pytest.mark.parametrize("n", [1, 2, 3, 1000, 1024, 1025, 3000, 9000])
def test_sort_line_lengths(n):
    """Short lines (several per block), a tile exactly, and merges of 2 to 9 tiles."""
    lines = max(1, 6000 // n)
    x = _values((lines, n), torch.float32, seed=n, spread=n // 3 + 2)
    _check_sort(x)
    _check_sort(x, -1, True)


def test_sort_long_single_line_int():
    x = _values((20000,), torch.int64, seed=3, spread=500)
    _check_sort(x)
    _check_sort(x, 0, True)


def test_sort_dims_and_noncontiguous():
    x = _values((5, 6, 7), torch.float64, seed=4)
    for d in (0, 1, 2, -1):
        _check_sort(x, d)
        _check_sort(x.transpose(0, 2), d, True)
    _check_sort(x[:, ::2, 1:], 1)
    _check_sort(x.expand(2, 5, 6, 7), 0)


def test_sort_0d_and_empty():
    _check_sort(torch.tensor(2.5))
    _check_sort(torch.tensor(3), 0, True)
    _check_sort(torch.empty(0, 4), 0)
    _check_sort(torch.empty(3, 0), 1)


def test_argsort_msort():
    x = _values((8, 50), torch.float32, seed=5)
    _same(torch.argsort(x.cuda(), dim=1, descending=True), torch.argsort(x, dim=1, descending=True))
    _same(torch.argsort(x.cuda(), dim=0, stable=True), torch.argsort(x, dim=0, stable=True))
    _same(torch.msort(x.cuda()), torch.msort(x))
    _same(x.cuda().argsort(), x.argsort())


@pytest.mark.parametrize("dtype", [torch.float32, torch.float16, torch.int64, torch.int8,
                                   torch.uint8])
def test_topk(dtype):
    x = _values((7, 300), dtype, seed=6)
    for k in (0, 1, 5, 300):
        for largest in (True, False):
            v, i = torch.topk(x.cuda(), k, 1, largest)
            wv, wi = torch.topk(x, k, 1, largest)
            _same(v, wv)
            _same(i, wi)
    v, i = torch.topk(x.cuda(), 3, 0)
    wv, wi = torch.topk(x, 3, 0)
    _same(v, wv)
    _same(i, wi)
    with pytest.raises(RuntimeError, match="selected index k out of range"):
        torch.topk(x.cuda(), 301, 1)


def test_topk_long_line_and_nan():
    x = _values((3000,), torch.float32, seed=7, spread=100)
    x[17] = float("nan")
    for largest in (True, False):
        v, i = torch.topk(x.cuda(), 40, largest=largest)
        wv, wi = torch.topk(x, 40, largest=largest)
        _same(v, wv)
        _same(i, wi)


def test_kthvalue():
    x = _values((5, 40), torch.float64, seed=8)
    for k in (1, 7, 40):
        v, i = torch.kthvalue(x.cuda(), k, 1)
        wv, wi = torch.kthvalue(x, k, 1)
        _same(v, wv)
        _same(i, wi)
    v, i = torch.kthvalue(x.cuda(), 2, 0, keepdim=True)
    wv, wi = torch.kthvalue(x, 2, 0, keepdim=True)
    _same(v, wv)
    _same(i, wi)


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64, torch.float16, torch.bfloat16,
                                   torch.int64, torch.int32, torch.int16, torch.uint8])
def test_searchsorted(dtype):
    b = torch.sort(_values((50,), dtype, seed=9)).values
    v = _values((4, 30), dtype, seed=10)
    for right in (False, True):
        _same(torch.searchsorted(b.cuda(), v.cuda(), right=right),
              torch.searchsorted(b, v, right=right))
    bb = torch.sort(_values((4, 25), dtype, seed=11), dim=1).values
    _same(torch.searchsorted(bb.cuda(), v.cuda()), torch.searchsorted(bb, v))
    _same(torch.searchsorted(bb.cuda(), v.cuda(), side="right", out_int32=True),
          torch.searchsorted(bb, v, side="right", out_int32=True))
    u = _values((50,), dtype, seed=12)
    s = torch.argsort(u)
    _same(torch.searchsorted(u.cuda(), v.cuda(), sorter=s.cuda()), torch.searchsorted(u, v, sorter=s))


def test_searchsorted_nan_and_many():
    b = torch.tensor([-1.0, 0.0, 0.0, 2.0, float("nan")])
    v = torch.tensor([float("nan"), -0.0, 2.0, 5.0, -3.0])
    for right in (False, True):
        _same(torch.searchsorted(b.cuda(), v.cuda(), right=right),
              torch.searchsorted(b, v, right=right))
    bb = torch.sort(_values((2000,), torch.float32, seed=13, spread=1000)).values
    vv = _values((50000,), torch.float32, seed=14, spread=1100)
    _same(torch.searchsorted(bb.cuda(), vv.cuda()), torch.searchsorted(bb, vv))
    _same(torch.bucketize(vv.cuda(), bb.cuda(), right=True), torch.bucketize(vv, bb, right=True))


def test_sort_errors():
    x = torch.tensor([1 + 2j, 3 + 0j]).cuda()
    with pytest.raises(NotImplementedError):
        torch.sort(x)
    with pytest.raises(IndexError, match="Dimension out of range"):
        torch.sort(torch.zeros(3).cuda(), 1)
    with pytest.raises(RuntimeError, match="same device"):
        torch.searchsorted(torch.zeros(3).cuda(), torch.zeros(2))
    b, s = torch.tensor([1.0, 2.0, 3.0]), torch.tensor([0, 3, 1])
    for call in (lambda: torch.searchsorted(b, b, sorter=s),
                 lambda: torch.searchsorted(b.cuda(), b.cuda(), sorter=s.cuda())):
        with pytest.raises(RuntimeError, match=r"^torch.searchsorted\(\): sorter index out of range$"):
            call()
    _same(torch.searchsorted(b.cuda(), 2.5), torch.searchsorted(b, 2.5))


@pytest.mark.skipif(torch.cuda.device_count() < 2, reason="needs two CUDA devices")
def test_second_device():
    x = _values((3, 2000), torch.float32, seed=15)
    v, i = torch.sort(x.to("cuda:1"), 1, True)
    assert v.device == torch.device("cuda:1") and i.device == torch.device("cuda:1")
    wv, wi = torch.sort(x, 1, True)
    _same(v, wv)
    _same(i, wi)
    b = torch.sort(x[0]).values
    _same(torch.searchsorted(b.to("cuda:1"), x.to("cuda:1")), torch.searchsorted(b, x))


@pytest.mark.parametrize("op", ["sort", "topk", "kthvalue", "msort"])
def test_backward(op):
    x = _values((5, 30), torch.float64, seed=16)
    f = {"sort": lambda t: t.sort(1, descending=True)[0], "topk": lambda t: t.topk(4, 1)[0],
         "kthvalue": lambda t: t.kthvalue(3, 1)[0], "msort": lambda t: t.msort()}[op]

    def grad(dev):
        xx = x.clone().to(dev).requires_grad_()
        y = f(xx)
        y.backward(torch.arange(1, y.numel() + 1, dtype=torch.float64).reshape(y.shape).to(dev))
        return xx.grad

    _same(grad("cuda"), grad("cpu"))


def test_median_integer():
    """The integer median is the sort's middle entry (float medians also count NaNs, on the
    elementwise kernels)."""
    x = _values((5, 31), torch.int64, seed=17)
    _same(torch.median(x.cuda()), torch.median(x))
    for d in (0, 1):
        v, i = torch.median(x.cuda(), d, keepdim=d == 1)
        wv, wi = torch.median(x, d, keepdim=d == 1)
        _same(v, wv)
        _same(i, wi)
