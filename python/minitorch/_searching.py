"""Searching and counting: searchsorted, bucketize, bincount, histc."""
import builtins
import math

from . import _C
from ._checks import _check, _legacy_name
from ._reductions import _scalar_type_name


def searchsorted(sorted_sequence, input, *, out_int32=False, right=False, side=None, out=None, sorter=None):
    """Insertion positions of input's values in the sorted last-dim lines of sorted_sequence
    (left: first position not below the value; right: first position above it)."""
    _check(sorted_sequence, "searchsorted", "sorted_sequence")
    if side is not None:
        if side not in ("left", "right"):
            raise RuntimeError(f"torch.searchsorted(): side can only be 'left' or 'right' but got {side}")
        if right and side != "right":
            raise RuntimeError(f"torch.searchsorted(): side and right can't be set to opposites, got side of "
                               f"{side} while right was True")
        right = side == "right"
    bd = sorted_sequence
    if isinstance(input, _C.TensorBase):
        values = input
        dt = _C.result_type(bd, values)
    elif isinstance(input, (bool, int, float)):
        dt = _C.result_type(bd, input)
        values = _C.full((), input, dtype=dt, device=bd.device)
    else:
        raise TypeError(f"searchsorted(): argument 'input' must be Tensor or Number, not {type(input).__name__}")
    if bd.dim() == 0:
        raise RuntimeError("torch.searchsorted(): boundaries tensor should have positive dimension, but got 0 "
                           "dimension")
    if values.dim() == 0 and bd.dim() != 1:
        raise RuntimeError("torch.searchsorted(): input value can be a scalar only when boundaries tensor "
                           f"dimension is 1, but we got boundaries tensor dim({bd.dim()}) and input value's "
                           f"dim({values.dim()}) numel({values.numel()})")
    if bd.dim() != 1 and (bd.dim() != values.dim() or tuple(bd.shape[:-1]) != tuple(values.shape[:-1])):
        raise RuntimeError("torch.searchsorted(): boundaries tensor should be 1 dimension or the first N-1 "
                           "dimensions of boundaries tensor and input value tensor must match, but we got "
                           f"boundaries tensor {list(bd.shape)} and input value tensor {list(values.shape)}")
    if sorter is not None:
        _check(sorter, "searchsorted", "sorter")
        if tuple(sorter.shape) != tuple(bd.shape):
            raise RuntimeError("torch.searchsorted(): boundary and sorter must have the same size, but got "
                               f"boundary tensor {list(bd.shape)}and got sorter tensor {list(sorter.shape)}")
        if sorter.dtype != _C.int64:
            raise RuntimeError("torch.searchsorted(): sorter must be a tensor of long dtype but got dtype "
                               f"{_legacy_name(sorter.dtype)}")
        from ._gather_scatter import _check_in_range   # (imports this module)
        try:
            _check_in_range(sorter, bd.size(-1))
        except IndexError:
            raise RuntimeError("torch.searchsorted(): sorter index out of range") from None
    if out is not None and out.dtype != (_C.int32 if out_int32 else _C.int64):
        raise RuntimeError("torch.searchsorted(): output tensor's dtype is wrong, it can only be Int(int32) or "
                           "Long(int64) depending on whether out_int32 flag is True, but we got output tensor's "
                           f"dtype {_legacy_name(out.dtype)} and out_int32 flag is {bool(out_int32)}")
    r = _C._searchsorted(bd.to(dt), values.to(dt), sorter, bool(right), bool(out_int32))
    return _C._store_out(out, r, "searchsorted") if out is not None else r


def bucketize(input, boundaries, *, out_int32=False, right=False, out=None):
    """Index of the bucket of each value: boundaries[i-1] < x <= boundaries[i] (right=False)
    or boundaries[i-1] <= x < boundaries[i] (right=True)."""
    _check(boundaries, "bucketize", "boundaries")
    if boundaries.dim() != 1:
        raise RuntimeError(f"boundaries tensor must be 1 dimension, but got dim({boundaries.dim()})")
    return searchsorted(boundaries, input, out_int32=out_int32, right=right, out=out)


def bincount(input, weights=None, minlength=0):
    """Count of each value of the 1-d non-negative integer tensor input (or the sum of
    weights at it): int64 counts; float32 weights give float32, other weights float64."""
    _check(input, "bincount")
    if input.dim() != 1 or input.dtype not in (_C.uint8, _C.int8, _C.int16, _C.int32, _C.int64):
        raise RuntimeError("bincount only supports 1-d non-negative integral inputs.")
    if minlength < 0:
        raise RuntimeError("minlength should be >= 0")
    if weights is not None:
        _check(weights, "bincount", "weights")
        if weights.dim() != 1 or weights.size(0) != input.size(0):
            raise RuntimeError("weights should be 1-d and have the same length as input")
    if input.numel() and int(input.amin()) < 0:
        raise RuntimeError("bincount only supports 1-d non-negative integral inputs.")
    n = builtins.max(minlength, int(input.amax()) + 1 if input.numel() else 0)
    if weights is None:
        r, src = _C.zeros(n, dtype=_C.int64), _C.ones(input.numel(), dtype=_C.int64)
    else:
        dt = _C.float32 if weights.dtype == _C.float32 else _C.float64
        r, src = _C.zeros(n, dtype=dt), weights.to(dt)
    _C._index_put_(r, [input], src, True)
    return r


def histc(input, bins=100, min=0, max=0, *, out=None):
    """Counts of input's elements in `bins` equal-width bins over [min, max] (both 0: the
    elements' own range; a zero-width range is widened by 1 on each side), in input's
    floating dtype.  Elements outside the range and NaNs are not counted; max itself falls
    in the last bin.  Bin positions are computed in input's dtype, as torch."""
    _check(input, "histc")
    if isinstance(bins, bool) or not isinstance(bins, int):
        raise TypeError(f"histc(): argument 'bins' must be int, not {type(bins).__name__}")
    if input.dtype not in (_C.float16, _C.bfloat16, _C.float32, _C.float64):
        raise NotImplementedError(f"\"histogram_cpu\" not implemented for '{_scalar_type_name(input.dtype)}'")
    if out is not None:
        _check(out, "histc", "out")
        if out.dtype != input.dtype:
            raise RuntimeError("torch.histogram: input tensor and hist tensor should have the same dtype, "
                               f"but got input {_cpp_name(input.dtype)} and hist {_cpp_name(out.dtype)}")
    if bins <= 0:
        raise RuntimeError(f"torch.histogram(): bins must be > 0, but got {bins} for dimension 0")
    lo, hi = float(min), float(max)
    if lo == hi and input.numel():
        lo, hi = float(input.amin()), float(input.amax())
    if lo == hi:
        lo, hi = lo - 1, hi + 1
    if not (math.isfinite(lo) and math.isfinite(hi)):
        raise RuntimeError(f"torch.histc: range of [{_g(lo)}, {_g(hi)}] is not finite")
    if lo > hi:
        raise RuntimeError("torch.histc: max must be larger than min")
    x = input.reshape(-1)
    edges = _C.tensor([lo, hi], dtype=input.dtype)
    inside = (x >= edges[0]) & (x <= edges[1])          # False for NaN
    x = x[inside]
    pos = ((x - edges[0]) * bins / (edges[1] - edges[0])).to(_C.int64).clamp_(0, bins - 1)
    counts = bincount(pos, minlength=bins).to(input.dtype)
    return counts if out is None else _C._store_out(out, counts, "histc")


def _g(v):
    return f"{v:g}" if math.isfinite(v) else str(v)


def _cpp_name(dtype):
    return {_C.float16: "c10::Half", _C.bfloat16: "c10::BFloat16", _C.float32: "float",
            _C.float64: "double"}.get(dtype, _scalar_type_name(dtype))


__all__ = ["searchsorted", "bucketize", "bincount", "histc"]
