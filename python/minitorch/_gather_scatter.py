"""Gather, scatter and masked ops: gather, scatter(_add/_reduce), index_add/fill/copy, take,
take_along_dim, nonzero/argwhere, where, masked_select/masked_scatter, one_hot, index_put(_).
Tensor indexing itself (t[key], t[key] = v) is planned and run in C: csrc/indexing.c,
aten_lite/indexing.c."""
import builtins
import re as _re

from . import _C
from ._broadcasting import _broadcast_shapes
from ._checks import _check, _legacy_name, _wrap
from ._rearranging import movedim


def gather(input, dim, index, *, sparse_grad=False, out=None):
    """Values of ``input`` along ``dim`` at positions ``index`` (``out[i][j] = input[index[i][j]][j]`` for dim 0)."""
    if out is None:
        return _C._gather(input, dim, index)
    return _C._gather(input, dim, index, out=out)


def scatter(input, dim, index, src=None, *, value=None, reduce=None):
    _check(input, "scatter")
    r = input.clone()
    return r.scatter_(dim, index, src if src is not None else value, reduce=reduce)


def scatter_add(input, dim, index, src):
    _check(input, "scatter_add")
    return input.clone().scatter_add_(dim, index, src)


_REDUCE_MODES = {"sum": 1, "prod": 2, "amax": 3, "amin": 4, "mean": 1}


def _dtype_range(dt):
    """(lowest, highest) value of dt: the identities of amax and amin."""
    if dt.is_floating_point:
        return float("-inf"), float("inf")
    if dt == _C.bool:
        return False, True
    bits = {_C.uint8: 8, _C.int8: 8, _C.int16: 16, _C.int32: 32, _C.int64: 64}[dt]
    if dt == _C.uint8:
        return 0, 255
    return -(1 << (bits - 1)), (1 << (bits - 1)) - 1


def _scatter_reduce_(self, dim, index, src, reduce, *, include_self=True):
    """self[..., index[i][j], ...] = reduce(self there (if include_self), every src scattered
    there) for reduce in sum, prod, mean, amax, amin (NaN wins in amax/amin; integer means
    round down).  Positions no index points at are left as they are."""
    _check(index, "scatter_reduce_", "index")
    _check(src, "scatter_reduce_", "src")
    if reduce not in _REDUCE_MODES:
        raise RuntimeError(f"reduce argument must be either sum, prod, mean, amax or amin, got {reduce}")
    if index.numel() and src.dtype != self.dtype:
        raise RuntimeError("scatter_reduce(): Expected self.dtype to be equal to src.dtype")
    r = self.clone()     # errors below leave self unchanged
    if not include_self and index.numel():
        if reduce in ("amax", "amin"):
            lowest, highest = _dtype_range(self.dtype)
            ident = lowest if reduce == "amax" else highest
        else:
            ident = 1 if reduce == "prod" else 0
        r.scatter_(dim, index, ident)
    _C._scatter_reduce_(r, dim, index, src, _REDUCE_MODES[reduce])
    if reduce == "mean" and index.numel():
        counts = _C.full(r.shape, 1 if include_self else 0, dtype=_C.int64, device=r.device)
        counts.scatter_add_(dim, index, _C.ones(index.shape, dtype=_C.int64, device=r.device))
        counts = _C._where(_C.eq(counts, 0), 1, counts)
        if self.dtype.is_floating_point:
            r = _C.div(r, counts).to(self.dtype)
        else:
            r = _C.div(r, counts, rounding_mode="floor").to(self.dtype)
    return self.copy_(r)


def scatter_reduce(input, dim, index, src, reduce, *, include_self=True):
    _check(input, "scatter_reduce")
    return _scatter_reduce_(input.clone(), dim, index, src, reduce, include_self=include_self)


def index_add(input, dim, index, source, *, alpha=1):
    _check(input, "index_add")
    return input.clone().index_add_(dim, index, source, alpha=alpha)


def _index_add_(self, dim, index, source, *, alpha=1):
    """self[..., index[i], ...] += alpha * source[..., i, ...] along dim (repeated indices add up)."""
    _check(index, "index_add_", "index")
    _check(source, "index_add_", "source")
    d = _wrap(dim, self.dim())
    if index.dim() > 1:
        raise IndexError("index_add_(): Index is supposed to be a vector")
    if index.dtype not in (_C.int64, _C.int32):
        raise RuntimeError("index_add_(): Expected dtype int32/int64 for index")
    if source.dtype != self.dtype:
        raise RuntimeError(f"index_add_(): self ({_legacy_name(self.dtype)}) and source "
                           f"({_legacy_name(source.dtype)}) must have the same scalar type")
    if source.dim() > 0 and index.numel() != source.size(d):
        raise RuntimeError(f"index_add_(): Number of indices ({index.numel()}) should be equal to "
                           f"source.size(dim) ({source.size(d)})")
    _check_in_range(index, builtins.max(self.dim() and self.size(d), 1))
    src = source if alpha == 1 else _C.mul(source, alpha).to(self.dtype)
    if self.dim() == 0:
        _C._index_put_(self.view(1), [index.reshape(-1)], src.reshape(-1), True)
        return self
    _C._index_put_(movedim(self, d, 0), [index.reshape(-1)], movedim(src, d, 0) if src.dim() else src, True)
    return self


def _check_in_range(index, size):
    """IndexError "index out of range in self" unless every value of index lies in [0, size)."""
    if not index.numel():
        return
    if index.device.type == "cpu":
        if not (0 <= int(index.amin()) and int(index.amax()) < size):
            raise IndexError("index out of range in self")
        return
    # on a device, the check of index_select's kernel, over a stride-0 row of size entries
    _C._index_select(_C.zeros(1, dtype=_C.uint8, device=index.device).expand(size), 0,
                     index.reshape(-1))


def _along(self, d):
    """self with dim d moved first (a view); 0-d tensors as 1-d."""
    return self.view(1) if self.dim() == 0 else movedim(self, d, 0)


def _index_fill_(self, dim, index, value):
    """self[..., index[i], ...] = value along dim (negative indices wrap)."""
    _check(index, "index_fill_", "index")
    d = _wrap(dim, self.dim())
    if index.dtype != _C.int64:
        raise RuntimeError("index_fill_(): Expected dtype int64 for index.")
    if index.dim() > 1:
        raise IndexError("Index has to be a vector/scalar")
    if isinstance(value, _C.TensorBase):
        if value.dim() != 0:
            raise RuntimeError("index_fill_ only supports a 0-dimensional value tensor, but got tensor with "
                               f"{value.dim()} dimension(s).")
        v = value.to(self.dtype)
    else:
        v = _C.full((), value, dtype=self.dtype)
    _C._index_put_(_along(self, d), [index.reshape(-1)], v, False)
    return self


def _index_copy_(self, dim, index, source):
    """self[..., index[i], ...] = source[..., i, ...] along dim."""
    _check(index, "index_copy_", "index")
    _check(source, "index_copy_", "source")
    d = _wrap(dim, self.dim())
    if index.dtype != _C.int64:
        raise RuntimeError(f"index_copy_(): Expected a long tensor for index, but got {_legacy_name(index.dtype)}")
    if index.dim() > 1:
        raise IndexError("index_copy_(): Index should have dimension 1 or 0 (got " + str(index.dim()) + ")")
    if source.dtype != self.dtype:
        raise RuntimeError("index_copy_(): self and source expected to have the same dtype, but got (self) "
                           f"{_legacy_name(self.dtype)} and (source) {_legacy_name(source.dtype)}")
    n = source.size(d) if source.dim() else 1
    if index.numel() != n:
        raise RuntimeError(f"index_copy_(): Number of indices ({index.numel()}) should be equal to "
                           f"source.size(dim) ({n})")
    _C._index_put_(_along(self, d), [index.reshape(-1)], _along(source, d), False)
    return self


def index_fill(input, dim, index, value):
    return input.clone().index_fill_(dim, index, value)


def index_copy(input, dim, index, source):
    return input.clone().index_copy_(dim, index, source)


def take(input, index):
    """input as 1-d, read at index (negative values wrap); the result has index's shape."""
    _check(input, "take")
    _check(index, "take", "index")
    if index.dtype != _C.int64:
        raise RuntimeError(f"take(): Expected a long tensor for index, but got {_legacy_name(index.dtype)}")
    n = input.numel()
    flat = index.reshape(-1)
    if flat.numel() and index.device.type == "cpu":
        lo, hi = int(flat.amin()), int(flat.amax())
        bad = lo if lo < -n else hi if hi >= n else None
        if bad is not None:
            raise IndexError(f"out of range: tried to access index {bad} on a tensor of {n} elements.")
    if n == 0 and not flat.numel():
        return _C.empty(index.shape, dtype=input.dtype, device=input.device)
    try:
        return _C._index_select(input.reshape(-1), 0, flat, True).reshape(index.shape)
    except IndexError as e:  # on a device the kernel checked the values: take's message
        m = _re.match(r"index (-?\d+) is out of bounds", str(e))
        if m is None:
            raise
        raise IndexError(f"out of range: tried to access index {m.group(1)} on a tensor of {n} "
                         "elements.") from None


def take_along_dim(input, indices, dim=None, *, out=None):
    """gather along dim after broadcasting input and indices over the other dims; with dim=None
    the flattened input is read at the flattened indices."""
    _check(input, "take_along_dim")
    _check(indices, "take_along_dim", "indices")
    if indices.dtype != _C.int64:
        raise RuntimeError(f"torch.take_along_dim(): dtype of indices should be Long but got "
                           f"{_legacy_name(indices.dtype)}")
    # gather through the method, recorded when input requires grad
    if dim is None:
        r = input.reshape(-1).gather(0, indices.reshape(-1))
    else:
        if input.dim() != indices.dim():
            raise RuntimeError("torch.take_along_dim(): input and indices should have the same number of "
                               f"dimensions, but got {input.dim()} dimensions for input, and {indices.dim()} "
                               "dimensions for indices")
        d = _wrap(dim, input.dim())
        si, sx = list(input.shape), list(indices.shape)
        si[d] = sx[d] = 1
        b = list(_broadcast_shapes(tuple(si), tuple(sx)))
        bi, bx = list(b), list(b)
        if input.dim():
            bi[d], bx[d] = input.size(d), indices.size(d)
        r = input.expand(bi).gather(d, indices.expand(bx))
    return _C._store_out(out, r, "take_along_dim") if out is not None else r


def nonzero(input, *, as_tuple=False):
    _check(input, "nonzero")
    nz = _C._nonzero(input)
    if not as_tuple:
        return nz
    if input.dim() == 0:
        return (_C.zeros(nz.size(0), dtype=_C.int64, device=input.device),)
    return tuple(nz.select(1, i).contiguous() for i in range(input.dim()))


def argwhere(input):
    return nonzero(input)


def where(condition, input=None, other=None, *, out=None):
    """where(condition, input, other) elementwise; where(condition) is nonzero(as_tuple=True)."""
    if input is None and other is None:
        return nonzero(condition, as_tuple=True)
    if input is None or other is None:
        raise TypeError("where() expects either 1 or 3 arguments")
    return _C._where(condition, input, other, out=out)


def masked_select(input, mask, *, out=None):
    _check(input, "masked_select")
    _check(mask, "masked_select", "mask")
    if mask.dtype != _C.bool:
        raise RuntimeError(f"masked_select: expected BoolTensor for mask, got {mask.dtype}")
    shape = _broadcast_shapes(mask.shape, input.shape)
    r = input.expand(shape)[mask.expand(shape)]
    return _C._store_out(out, r, "masked_select") if out is not None else r


def _masked_scatter_(self, mask, source):
    """Copies source's leading elements, in order, into self where mask (broadcast) is True."""
    _check(mask, "masked_scatter_", "mask")
    _check(source, "masked_scatter_", "source")
    if mask.dtype != _C.bool:
        raise RuntimeError(f"masked_scatter_ only supports boolean masks, but got mask with dtype {mask.dtype}")
    if source.dtype != self.dtype:
        raise RuntimeError("masked_scatter_: expected self and source to have same dtypes but got "
                           f"{_legacy_name(self.dtype)} and {_legacy_name(source.dtype)}")
    m = mask.expand(self.shape)
    n = int(m.sum())
    if source.numel() < n:
        raise RuntimeError("masked_scatter_: expected source to have at least as many elements as ones in mask")
    self[m] = source.reshape(-1)[:n]
    return self


def masked_scatter(input, mask, source):
    shape = _broadcast_shapes(mask.shape, input.shape)
    return _masked_scatter_(input.expand(shape).clone(), mask, source)


def one_hot(tensor, num_classes=-1):
    """Index tensor (int64) -> int64 tensor with a trailing dim of num_classes."""
    _check(tensor, "one_hot", "tensor")
    if tensor.dtype != _C.int64:
        raise RuntimeError("one_hot is only applicable to index tensor of type LongTensor.")
    if tensor.numel() and int(tensor.amin()) < 0:
        raise RuntimeError("Class values must be non-negative.")
    if num_classes == -1:
        if tensor.numel() == 0:
            raise RuntimeError("Can not infer total number of classes from empty tensor.")
        num_classes = int(tensor.amax()) + 1
    elif tensor.numel() and int(tensor.amax()) >= num_classes:
        raise RuntimeError("Class values must be smaller than num_classes.")
    r = _C.zeros(*tensor.shape, num_classes, dtype=_C.int64, device=tensor.device)
    return r.scatter_(-1, tensor.unsqueeze(-1), 1)


_INDEX_DTYPES = (_C.int64, _C.int32)


def index_put_(self, indices, values, accumulate=False):
    """self[indices] = values (or += with accumulate, repeated indices adding up)."""
    _check(self, "index_put_", "self")
    if not isinstance(indices, (list, tuple)):
        raise TypeError(f"index_put_(): argument 'indices' must be tuple of Tensors, not {type(indices).__name__}")
    _check(values, "index_put_", "values")
    if values.dtype != self.dtype:
        raise RuntimeError("Index put requires the source and destination dtypes match, got "
                           f"{_legacy_name(self.dtype)} for the destination and "
                           f"{_legacy_name(values.dtype)} for the source.")
    idx = []
    for i in indices:
        _check(i, "index_put_", "indices")
        if i.dtype in (_C.bool, _C.uint8):
            nz = _C._nonzero(i)
            idx += [nz.select(1, j) for j in range(i.dim())]
        elif i.dtype in (_C.int64, _C.int32):
            idx.append(i)
        else:
            raise _bad_index_dtype()
    _C._index_put_(self, idx, values, bool(accumulate))
    return self


def index_put(input, indices, values, accumulate=False):
    return index_put_(input.clone(), indices, values, accumulate)


__all__ = ["gather", "scatter", "scatter_add", "scatter_reduce", "index_add", "index_fill",
           "index_copy", "take", "take_along_dim", "nonzero", "argwhere", "where", "masked_select",
           "masked_scatter", "one_hot", "index_put_", "index_put"]


def nonzero_static(input, *, size, fill_value=-1):
    """nonzero(input) as a (size, input.dim()) tensor: its first `size` rows, padded with
    fill_value when there are fewer (a shape known without reading the values)."""
    _check(input, "nonzero_static")
    if size < 0:
        raise RuntimeError(f"nonzero_static: 'size' must be an non-negative integer, but got "
                           f"size: {size}")
    nz = _C._nonzero(input)
    n = nz.size(0)
    if n >= size:
        return nz[:size].contiguous()
    pad = _C.full((size - n, nz.size(1)), fill_value, dtype=_C.int64, device=input.device)
    return _C.cat([nz, pad])


def fill_diagonal_(self, fill_value, wrap=False):
    """Writes fill_value on the main diagonal of a matrix, or of a tensor whose dimensions are
    all of one length; with wrap, a tall matrix's diagonal starts again every columns + 1 rows,
    as torch's."""
    _check(self, "fill_diagonal_")
    if self.dim() < 2:
        raise RuntimeError("dimensions must larger than 1")
    if self.dim() > 2 and any(s != self.size(0) for s in self.shape):
        raise RuntimeError("all dimensions of input must be of equal length")
    if self.numel() == 0:
        return self
    if self.dim() == 2:
        rows, cols = self.shape
        if wrap and rows > cols + 1:
            flat = builtins.range(0, rows * cols, cols + 1)
            idx = [(f // cols, f % cols) for f in flat]
        else:
            idx = [(i, i) for i in builtins.range(min(rows, cols))]
        index = tuple(_C.tensor([p[d] for p in idx], dtype=_C.int64, device=self.device)
                      for d in (0, 1))
    else:
        diag = _C.arange(self.size(0), device=self.device)
        index = (diag,) * self.dim()
    self[index] = fill_value
    return self
