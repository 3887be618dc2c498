"""clamp_min/clamp_max, addcmul/addcdiv, positive, isposinf/isneginf, logit, nan_to_num,
nansum/nanmean, aminmax, inner, kron, scalar_tensor, round(decimals=), cumsum_/cumprod_,
finfo/iinfo — against NumPy and torch's documented values."""
import math

import numpy as np
import pytest

import minitorch as torch

NAN, INF = float("nan"), float("inf")


def test_clamp_min_max_forms():
    t = torch.tensor([1.0, 5.0, -2.0])
    assert torch.clamp_min(t, 0).tolist() == [1.0, 5.0, 0.0]
    assert t.clamp_max(2).tolist() == [1.0, 2.0, -2.0]
    u = t.clone()
    u.clamp_min_(1.5)
    assert u.tolist() == [1.5, 5.0, 1.5]
    out = torch.empty(3)
    assert torch.clamp_max(t, 0, out=out) is out and out.tolist() == [0.0, 0.0, -2.0]
    assert torch.clamp_min(torch.tensor([1, 5]), 3).dtype == torch.int64


def test_addcmul_addcdiv():
    a, b, c = torch.tensor([1.0, 2.0]), torch.tensor([3.0, 4.0]), torch.tensor([2.0, 8.0])
    assert torch.addcmul(a, b, c, value=0.5).tolist() == [4.0, 18.0]
    assert torch.addcdiv(a, b, c, value=2).tolist() == [4.0, 3.0]
    p = a.clone()
    p.addcmul_(b, c)
    assert p.tolist() == [7.0, 34.0]
    p.addcdiv_(b, c)
    assert p.tolist() == [8.5, 34.5]
    assert torch.addcmul(torch.tensor([1]), torch.tensor([2]), torch.tensor([3]), value=0.5).tolist() == [1]
    with pytest.raises(RuntimeError, match="Integer division with addcdiv is no longer supported"):
        torch.addcdiv(torch.tensor([1]), torch.tensor([1]), torch.tensor([2]))
    with pytest.raises(TypeError):
        torch.addcmul(a, [1.0], c)
    with pytest.raises(RuntimeError):
        a.clone().addcmul_(torch.ones(3), torch.ones(3))          # result shape differs from self


def test_positive_isposinf_isneginf():
    t = torch.tensor([1.0, INF, -INF, NAN])
    assert torch.positive(t) is t
    with pytest.raises(NotImplementedError, match="on a bool tensor is not supported"):
        torch.positive(torch.tensor([True]))
    assert torch.isposinf(t).tolist() == [False, True, False, False]
    assert t.isneginf().tolist() == [False, False, True, False]
    assert torch.isposinf(torch.tensor([1, 2])).tolist() == [False, False]
    out = torch.empty(4, dtype=torch.bool)
    assert torch.isneginf(t, out=out) is out and out.tolist() == [False, False, True, False]


def test_logit_and_nan_to_num():
    p = torch.tensor([0.25, 0.0, 1.0], dtype=torch.float64)
    r = torch.logit(p).tolist()
    assert r[0] == pytest.approx(math.log(1 / 3)) and r[1] == -INF and r[2] == INF
    r = torch.logit(p, eps=1e-6).tolist()
    assert r[1] == pytest.approx(math.log(1e-6 / (1 - 1e-6)))
    assert torch.logit(torch.tensor([0, 1])).dtype == torch.float32
    x = torch.tensor([NAN, INF, -INF, 1.5])
    info = torch.finfo(torch.float32)
    assert torch.nan_to_num(x).tolist() == [0.0, info.max, info.min, 1.5]
    assert torch.nan_to_num(x, nan=7, posinf=1, neginf=-1).tolist() == [7.0, 1.0, -1.0, 1.5]
    y = x.clone()
    y.nan_to_num_(nan=2.0)
    assert y.tolist()[0] == 2.0
    assert torch.nan_to_num(torch.tensor([3, 4])).tolist() == [3, 4]
    h = torch.nan_to_num(torch.tensor([INF], dtype=torch.float16))
    assert h.item() == 65504.0


def test_nansum_nanmean_aminmax():
    a = np.array([[1.0, np.nan, 3.0], [np.nan, np.nan, 2.0]])
    t = torch.from_numpy(a)
    assert torch.nansum(t).item() == np.nansum(a)
    np.testing.assert_array_equal(torch.nansum(t, 1).numpy(), np.nansum(a, 1))
    with np.errstate(all="ignore"), pytest.warns(RuntimeWarning):
        expected = np.nanmean(a, 0)             # a column of NaNs: NaN
    np.testing.assert_array_equal(t.nanmean(0).numpy(), expected)
    assert torch.nansum(torch.tensor([1, 2])).item() == 3
    with pytest.raises(NotImplementedError, match="expected input to have floating point"):
        torch.nanmean(torch.tensor([1, 2]))
    r = torch.aminmax(torch.tensor([[1, 5], [3, 2]]), dim=0)
    assert r.min.tolist() == [1, 2] and r.max.tolist() == [3, 5]
    lo, hi = torch.tensor([4.0, -1.0, 9.0]).aminmax()
    assert (lo.item(), hi.item()) == (-1.0, 9.0)
    assert torch.aminmax(torch.ones(2, 3), keepdim=True).min.shape == (1, 1)


def test_inner_kron_scalar_tensor():
    a, b = np.arange(6.0).reshape(2, 3), np.arange(12.0).reshape(4, 3)
    np.testing.assert_array_equal(torch.inner(torch.from_numpy(a), torch.from_numpy(b)).numpy(),
                                  np.inner(a, b))
    assert torch.inner(torch.tensor(2.0), torch.ones(3)).tolist() == [2.0] * 3
    with pytest.raises(RuntimeError, match="the last dimension must match"):
        torch.inner(torch.ones(2), torch.ones(3))
    x, y = np.array([[1, 2], [3, 4]]), np.array([[0, 1], [1, 0]])
    np.testing.assert_array_equal(torch.kron(torch.from_numpy(x), torch.from_numpy(y)).numpy(),
                                  np.kron(x, y))
    np.testing.assert_array_equal(torch.kron(torch.ones(2), torch.ones(2, 3)).numpy(),
                                  np.kron(np.ones(2), np.ones((2, 3))))
    s = torch.scalar_tensor(1)
    assert s.dim() == 0 and s.dtype == torch.float32 and s.item() == 1.0
    assert torch.scalar_tensor(2, dtype=torch.int64).dtype == torch.int64


def test_round_decimals():
    t = torch.tensor([1.2345, -2.555, 1234.5])
    np.testing.assert_allclose(torch.round(t, decimals=2).numpy(), [1.23, -2.56, 1234.5], rtol=1e-6)
    assert torch.round(torch.tensor([1234.5, 1250.0]), decimals=-2).tolist() == [1200.0, 1200.0]
    u = torch.tensor([1.26])
    u.round_(decimals=1)
    assert u.item() == pytest.approx(1.3)
    out = torch.empty(1)
    assert torch.round(torch.tensor([2.5]), decimals=0, out=out) is out and out.item() == 2.0
    assert torch.round(torch.tensor([15]), decimals=0).tolist() == [15]
    with pytest.raises(NotImplementedError, match="round_cpu"):
        torch.round(torch.tensor([15]), decimals=-1)
    with pytest.raises(TypeError):
        torch.round(t, decimals="1")


def test_cumsum_cumprod_in_place():
    x = torch.tensor([1, 2, 3], dtype=torch.int32)
    x.cumsum_(0)
    assert x.tolist() == [1, 3, 6] and x.dtype == torch.int32
    y = torch.tensor([[1.0, 2.0], [3.0, 4.0]])
    y.cumprod_(1)
    assert y.tolist() == [[1.0, 2.0], [3.0, 12.0]]


def test_finfo_iinfo():
    f = torch.finfo(torch.float32)
    assert (f.bits, f.eps, f.max, f.tiny, f.resolution, f.dtype) == \
        (32, np.finfo(np.float32).eps, float(np.finfo(np.float32).max), 2.0 ** -126, 1e-6, "float32")
    assert f.min == -f.max and f.smallest_normal == f.tiny
    assert torch.finfo(torch.float16).max == 65504.0 and torch.finfo(torch.bfloat16).eps == 2 ** -7
    assert torch.finfo(torch.complex128) == torch.finfo(torch.float64)
    assert torch.finfo() == torch.finfo(torch.get_default_dtype())
    i = torch.iinfo(torch.int64)
    assert (i.bits, i.min, i.max, i.dtype) == (64, -2 ** 63, 2 ** 63 - 1, "int64")
    assert torch.iinfo(torch.uint8).max == 255
    with pytest.raises(TypeError, match="requires a floating point input type"):
        torch.finfo(torch.int32)
    with pytest.raises(TypeError, match="requires an integer input type"):
        torch.iinfo(torch.float32)
    with pytest.raises(TypeError, match="bool is not supported"):
        torch.iinfo(torch.bool)
    with pytest.raises(TypeError):
        torch.finfo(3)
    assert "eps=1.19209e-07" in repr(f)


def test_nansum_refuses_complex():
    with pytest.raises(NotImplementedError, match="nansum on CPU does not support complex inputs"):
        torch.nansum(torch.tensor([1j, 2]))


def test_clamp_min_max_inplace_functions():
    t = torch.tensor([1.0, 5.0, -3.0])
    r = torch.clamp_min_(t, 0.0)
    assert r is t and t.tolist() == [1.0, 5.0, 0.0]
    r = torch.clamp_max_(t, 2.0)
    assert r is t and t.tolist() == [1.0, 2.0, 0.0]
    t = torch.tensor([1, 5, -3])
    torch.clamp_min_(t, torch.tensor(0))
    assert t.tolist() == [1, 5, 0]


def test_clamp_min_inplace_function_cannot_cast():
    with pytest.raises(RuntimeError, match="can't be cast"):
        torch.clamp_min_(torch.tensor([1, 2], dtype=torch.int32), 1.5)


def test_clamp_tensor_bounds_promote_jointly():
    inp = torch.tensor([True, False, True])
    lo64 = torch.tensor(0.5, dtype=torch.float64)  # 0-d: does not raise a float32 result
    hi32 = torch.tensor([0.7, 0.2, 0.9])
    r = torch.clamp(inp, lo64, hi32)
    assert r.dtype == torch.float32
    assert r.tolist() == pytest.approx([0.7, 0.2, 0.9])
    r = torch.clamp(inp, torch.tensor([0.5, 0.5, 0.5], dtype=torch.float64), torch.tensor(0.7))
    assert r.dtype == torch.float64
    assert torch.clamp(torch.tensor([1, 9], dtype=torch.int32), torch.tensor(2), 5).dtype == torch.int32


def test_result_type_of_several_operands():
    from minitorch._ops import result_type_of
    assert result_type_of(torch.ones(2, dtype=torch.int32), torch.tensor(1.0, dtype=torch.float64)) == torch.float64
    assert result_type_of(torch.ones(2), torch.tensor(1.0, dtype=torch.float64), 2) == torch.float32
    assert result_type_of(torch.ones(2, dtype=torch.int64), 2.5, 1j) == torch.complex64
    assert result_type_of(3) == torch.int64


def test_clamp_tensor_bound_out_cannot_cast():
    with pytest.raises(RuntimeError):
        torch.clamp(torch.tensor([1.5]), torch.tensor([0.0]), None, out=torch.empty(1, dtype=torch.int64))
