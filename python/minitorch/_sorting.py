"""Sorting and order statistics: sort/argsort/msort/topk/kthvalue, median/nanmedian,
quantile/nanquantile, mode, unique/unique_consecutive, isin."""
import builtins

from . import _C
from ._checks import _check, _wrap
from ._joining import stack
from ._ops import clamp as _clamp
from ._rearranging import movedim
from ._reductions import _return_type, _store_pair


sort_ret = _return_type("sort", ["values", "indices"])


topk_ret = _return_type("topk", ["values", "indices"])


kthvalue_ret = _return_type("kthvalue", ["values", "indices"])


def sort(input, dim=-1, descending=False, stable=False, *, out=None):
    """Stable sort along dim (NaN last ascending, first descending) -> (values, indices)."""
    v, i = _C._sort(input, dim, descending)
    if out is not None:
        v, i = _store_pair(out, v, i, "sort")
    return sort_ret(v, i)


def argsort(input, dim=-1, descending=False, stable=False):
    return _C._sort(input, dim, descending)[1]


def msort(input):
    return _C._sort(input, 0, False)[0]


def topk(input, k, dim=-1, largest=True, sorted=True, *, out=None):
    _check(input, "topk")
    d = _wrap(dim, input.dim())
    n = input.size(d) if input.dim() else 1
    if not 0 <= k <= n:
        raise RuntimeError("selected index k out of range")
    v, i = _C._topk(input, k, d, bool(largest))
    if out is not None:
        v, i = _store_pair(out, v, i, "topk")
    return topk_ret(v, i)


def kthvalue(input, k, dim=-1, keepdim=False):
    """The k-th smallest entry along dim (NaN largest) and its index, as the stable sort's
    (k-1)-th entry: named tuple (values, indices)."""
    _check(input, "kthvalue")
    d = _wrap(dim, input.dim())
    n = input.size(d) if input.dim() else 1
    if n == 0:
        raise IndexError(f"kthvalue(): Expected reduction dim {d} to have non-zero size.")
    if not 1 <= k <= n:
        raise RuntimeError(f"kthvalue(): selected number k out of range for dimension {d}")
    v, i = _C._topk(input, k, d, False)
    v, i = (v.select(d, k - 1), i.select(d, k - 1)) if input.dim() else (v, i)
    if keepdim and input.dim():
        v, i = v.unsqueeze(d), i.unsqueeze(d)
    return kthvalue_ret(v.contiguous(), i.contiguous())


median_ret = _return_type("median", ["values", "indices"])


nanmedian_ret = _return_type("nanmedian", ["values", "indices"])


def _median(input, dim, keepdim, ignore_nan, fname):
    _check(input, fname)
    if dim is None:
        n = input.numel()
        if n == 0:
            if not input.dtype.is_floating_point:
                raise RuntimeError(f"{fname}() input tensor cannot be empty")
            return _C.full((), float("nan"), dtype=input.dtype, device=input.device)
        s = _C._sort(input.reshape(-1), 0, False)[0]
        if input.dtype.is_floating_point:
            nans = int(s.isnan().sum())
            if nans and not ignore_nan:
                return s[n - 1].clone()
            return s[builtins.max(n - nans - 1, 0) // 2].clone()
        return s[(n - 1) // 2].clone()
    d = _wrap(dim, input.dim())
    x = input.reshape(1) if input.dim() == 0 else input
    n = x.size(d)
    if n == 0:
        raise IndexError(f"{fname}(): Expected reduction dim {d} to have non-zero size.")
    v, i = _C._sort(x, d, False)
    if input.dtype.is_floating_point:
        good = _C.sub(n, v.isnan().sum(d, keepdim=True))      # NaNs sort last, stably
        if ignore_nan:
            k = _C.floor_divide(_clamp(_C.sub(good, 1), min=0), 2)
        else:  # any NaN: the line's first NaN (at position `good` of the sorted line)
            k = _C._where(_C.lt(good, n), _clamp(good, max=n - 1), (n - 1) // 2)
        vals, idx = _C._gather(v, d, k), _C._gather(i, d, k)
    else:
        vals, idx = v.narrow(d, (n - 1) // 2, 1), i.narrow(d, (n - 1) // 2, 1)
    if input.dim() == 0:
        vals, idx = vals.reshape(()), idx.reshape(())
    elif not keepdim:
        vals, idx = vals.squeeze(d), idx.squeeze(d)
    ret = nanmedian_ret if ignore_nan else median_ret
    return ret(vals.contiguous(), idx.contiguous())


def median(input, dim=None, keepdim=False):
    """The lower median of all entries (a 0-d tensor; NaN if any is NaN), or along dim the
    named tuple (values, indices), the index being the median's position in a stable sort."""
    return _median(input, dim, keepdim, False, "median")


def nanmedian(input, dim=None, keepdim=False):
    """median() over the entries that are not NaN (NaN only where all are)."""
    return _median(input, dim, keepdim, True, "nanmedian")


_INTERPOLATIONS = ("linear", "lower", "higher", "midpoint", "nearest")


def _quantile(input, q, dim, keepdim, interpolation, ignore_nan, out, fname):
    _check(input, fname)
    if input.dtype not in (_C.float32, _C.float64):
        raise RuntimeError(f"{fname}() input tensor must be either float or double dtype")
    if interpolation not in _INTERPOLATIONS:
        raise RuntimeError(f"{fname}() interpolation must be one of linear, lower, higher, midpoint or nearest. "
                           f"Got {interpolation}")
    scalar_q = not isinstance(q, _C.TensorBase)
    if scalar_q:
        if not 0 <= q <= 1:
            raise RuntimeError(f"{fname}() q must be in the range [0, 1] but got {q}")
        qs = _C.full((1,), q, dtype=input.dtype, device=input.device)
    else:
        if q.dim() > 1:
            raise RuntimeError(f"{fname}() q must be a scalar or 1D tensor")
        if q.dtype != input.dtype:
            raise RuntimeError(f"{fname}() q tensor must be same dtype as the input tensor")
        qs = q.reshape(-1)
        if qs.numel() and (float(qs.amin()) < 0 or float(qs.amax()) > 1):
            raise RuntimeError(f"{fname}() q values must be in the range [0, 1]")
    if input.numel() == 0:
        raise RuntimeError(f"{fname}() input tensor must be non-empty")
    if dim is None:
        x = input.reshape(-1)
        out_shape = [1] * input.dim() if keepdim else []
    else:
        d = _wrap(dim, input.dim())
        x = movedim(input, d, -1) if input.dim() else input.reshape(1)
        out_shape = list(input.shape)
        if input.dim():
            if keepdim:
                out_shape[d] = 1
            else:
                del out_shape[d]
    s = x.sort(-1).values                             # (..., n), NaN last (recorded)
    n = s.size(-1)
    nan_count = s.isnan().sum(-1, keepdim=True)
    cnt = _C.sub(n, nan_count) if ignore_nan else _C.full(nan_count.shape, n, dtype=_C.int64, device=input.device)
    last = _clamp(_C.sub(cnt, 1), min=0).to(input.dtype)
    res = []
    for j in range(qs.numel()):
        rank = _C.mul(last, qs[j])
        if interpolation == "nearest":
            rank = _C.round(rank)
        lo = _clamp(_C.floor(rank).to(_C.int64), max=n - 1)
        hi = _clamp(_C.ceil(rank).to(_C.int64), max=n - 1)
        vlo, vhi = s.gather(-1, lo), s.gather(-1, hi)
        if interpolation in ("lower", "nearest"):
            r = vlo
        elif interpolation == "higher":
            r = vhi
        elif interpolation == "midpoint":
            r = _C.mul(_C.add(vlo, vhi), 0.5)
        else:
            r = _C.add(vlo, _C.mul(_C.sub(vhi, vlo), _C.sub(rank, lo.to(input.dtype))))
        bad = _C.eq(cnt, 0) if ignore_nan else _C.gt(nan_count, 0)
        r = r.masked_fill(bad, float("nan"))
        res.append(r.reshape(out_shape))
    r = res[0] if scalar_q or q.dim() == 0 else stack(res) if res else _C.empty([0] + out_shape, dtype=input.dtype, device=input.device)
    return _C._store_out(out, r, fname) if out is not None else r


mode_ret = _return_type("mode", ["values", "indices"])


def mode(input, dim=-1, keepdim=False):
    """The most frequent entry along dim (the smallest of equally frequent ones; NaNs never
    repeat) and the index of its last occurrence: named tuple (values, indices)."""
    _check(input, "mode")
    d = _wrap(dim, input.dim())
    x = movedim(input, d, -1) if input.dim() else input.reshape(1)
    n = x.size(-1)
    if n == 0:
        raise IndexError(f"mode(): Expected reduction dim {d} to have non-zero size.")
    v, i = _C._sort(x, -1, False)
    first = _C.ones(v.shape, dtype=_C.bool, device=v.device)
    if n > 1:
        first[..., 1:] = _C.ne(v[..., 1:], v[..., :-1])
    run = _C.sub(_C.cumsum(first, -1), 1)                       # run number of each entry
    counts = _C.zeros(v.shape, dtype=_C.int64, device=v.device).scatter_add_(
        -1, run, _C.ones(v.shape, dtype=_C.int64, device=v.device))
    best = _C.argmax(counts, -1, keepdim=True)                  # the first (smallest) longest run
    end = _C.sub(_C._gather(_C.cumsum(counts, -1), -1, best), 1)  # its last entry, sorted stably
    vals, idx = _C._gather(v, -1, end).squeeze(-1), _C._gather(i, -1, end).squeeze(-1)
    if input.dim() and keepdim:
        vals, idx = vals.unsqueeze(d), idx.unsqueeze(d)
    return mode_ret(vals.contiguous(), idx.contiguous())


def quantile(input, q, dim=None, keepdim=False, *, interpolation="linear", out=None):
    """The q-th quantiles (q a number or a 1-d tensor in [0, 1]) of all entries or along dim,
    interpolating between order statistics as asked; NaN where a line holds a NaN."""
    return _quantile(input, q, dim, keepdim, interpolation, False, out, "quantile")


def nanquantile(input, q, dim=None, keepdim=False, *, interpolation="linear", out=None):
    """quantile() over the entries that are not NaN (NaN only where all are)."""
    return _quantile(input, q, dim, keepdim, interpolation, True, out, "nanquantile")


def isin(elements, test_elements, *, assume_unique=False, invert=False):
    """Whether each entry of elements occurs in test_elements (either may be a number)."""
    if not isinstance(elements, _C.TensorBase) and not isinstance(test_elements, _C.TensorBase):
        raise TypeError("isin(): at least one of 'elements' and 'test_elements' must be a Tensor")
    dt = _C.result_type(elements, test_elements)
    dev = elements.device if isinstance(elements, _C.TensorBase) else test_elements.device
    e = elements.to(dt) if isinstance(elements, _C.TensorBase) else _C.full((), elements, dtype=dt, device=dev)
    t = test_elements.to(dt) if isinstance(test_elements, _C.TensorBase) else _C.full((1,), test_elements, dtype=dt, device=dev)
    s = _C._sort(t.reshape(-1), 0, False)[0]
    if s.numel() == 0:
        found = _C.zeros(e.shape, dtype=_C.bool, device=e.device)
    else:
        pos = _clamp(_C._searchsorted(s, e, None, False, False), max=s.numel() - 1)
        found = _C.eq(s[pos.reshape(-1)].reshape(e.shape), e)
    return _C.logical_not(found) if invert else found


def _unique_impl(input, return_inverse, return_counts, dim, consecutive, fname):
    """Shared by unique and unique_consecutive: groups equal entries (dim=None) or equal
    slices along dim, after sorting them unless consecutive."""
    _check(input, fname)
    if dim is None:
        x = input.reshape(-1, 1)
        d = None
    else:
        d = _wrap(dim, input.dim())
        x = movedim(input, d, 0) if input.dim() else input.reshape(1)
        if x.numel() == 0 and x.size(0) != 0:
            raise RuntimeError("There are 0 sized dimensions, and they aren't selected, so unique cannot be applied")
        m = 1
        for n in x.shape[1:]:
            m *= n
        x = x.reshape(x.size(0), m)
    n, m = x.size(0), x.size(1)
    if consecutive:
        order, s = None, x
    else:  # lexicographic order of the rows: stable sorts from the last column to the first
        order = _C.arange(n).to(x.device)
        for c in range(m - 1, -1, -1):
            order = order[_C._sort(x.select(1, c)[order], 0, False)[1]]
        s = x[order]
    first = _C.ones(n, dtype=_C.bool, device=x.device)
    if n > 1:
        first[1:] = _C.ne(s[1:], s[:-1]).any(1)
    values = s[first]
    if d is None:
        values = values.reshape(-1)
    else:
        rest = list(input.shape[:d]) + list(input.shape[d + 1:])
        values = movedim(values.reshape([values.size(0)] + rest), 0, d) if input.dim() else values.reshape(-1)
        values = values.contiguous()
    out = [values]
    if return_inverse:
        group = _C.sub(_C.cumsum(first, 0), 1)
        if order is None:
            inverse = group
        else:
            inverse = _C.empty(n, dtype=_C.int64, device=x.device)
            _C._index_put_(inverse, [order], group, False)
        out.append(inverse.reshape(input.shape) if d is None else inverse)
    if return_counts:
        starts = _C._nonzero(first).reshape(-1)
        ends = _C.cat([starts[1:], _C.full((1,), n, dtype=_C.int64, device=x.device)])
        out.append(_C.sub(ends, starts))
    return out[0] if len(out) == 1 else tuple(out)


def unique(input, sorted=True, return_inverse=False, return_counts=False, dim=None):
    """Unique entries (dim=None, flattened) or unique slices along dim, in ascending
    (lexicographic) order, optionally with inverse indices and counts.  NaNs never
    compare equal, so each NaN is its own entry (as torch on the CPU).  Recorded as torch
    records it: through _unique2 or _unique_dim (whose derivatives do not exist)."""
    import minitorch
    if dim is None:
        r = minitorch._unique2(input, sorted, return_inverse, return_counts)
    else:
        r = minitorch._unique_dim(input, dim, sorted, return_inverse, return_counts)
    out = [r[0]] + ([r[1]] if return_inverse else []) + ([r[2]] if return_counts else [])
    return out[0] if len(out) == 1 else tuple(out)


def _empty_index(input):
    return _C.empty(0, dtype=_C.int64, device=input.device)


def _unique(input, sorted=True, return_inverse=False):
    """torch._unique: (unique entries, inverse indices, empty unless return_inverse)."""
    r = _unique_impl(input, True, False, None, False, "unique")
    return r[0], (r[1] if return_inverse else _empty_index(input))


def _unique2(input, sorted=True, return_inverse=False, return_counts=False):
    """torch._unique2: (unique entries, inverse indices, counts), the last two empty unless
    asked for."""
    r = _unique_impl(input, True, True, None, False, "unique")
    return (r[0], r[1] if return_inverse else _empty_index(input),
            r[2] if return_counts else _empty_index(input))


def _unique_dim(input, dim, sorted=True, return_inverse=False, return_counts=False):
    """torch._VF.unique_dim: (unique slices along dim, inverse indices, counts), all three
    always computed (as torch's)."""
    return _unique_impl(input, True, True, dim, False, "unique")


def unique_consecutive(input, return_inverse=False, return_counts=False, dim=None):
    """Collapses runs of equal consecutive entries (or slices along dim)."""
    return _unique_impl(input, return_inverse, return_counts, dim, True, "unique_consecutive")


__all__ = ["sort", "argsort", "msort", "topk", "kthvalue", "median", "nanmedian", "mode",
           "quantile", "nanquantile", "isin", "unique", "unique_consecutive"]
