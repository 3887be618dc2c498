"""Out-of-place writes into a copy (slice_scatter, select_scatter, diagonal_scatter,
as_strided_scatter), index_reduce and put/put_, composed from views, copy_, scatter_reduce and
index_put_ (differentiable through them)."""
import warnings

from . import _C
from ._checks import scalar_type_name as _scalar_type_name


def _check_tensor(x, fname, name, pos):
    if not isinstance(x, _C.TensorBase):
        raise TypeError(f"{fname}(): argument '{name}' (position {pos}) must be Tensor, not "
                        f"{type(x).__name__}")


def _write(input, src, view_of):
    """A copy of input (its strides kept) with src written into view_of(copy)."""
    _check_tensor(input, "scatter", "input", 1)
    _check_tensor(src, "scatter", "src", 2)
    out = input.clone()
    view = view_of(out)
    if tuple(src.shape) != tuple(view.shape):
        raise RuntimeError(f"expected src to have a size equal to the slice of self. src size = "
                           f"{list(src.shape)}, slice size = {list(view.shape)}")
    view.copy_(src)
    return out


def slice_scatter(input, src, dim=0, start=None, end=None, step=1):
    """input with src written into input[..., start:end:step, ...] (along dim)."""
    _check_tensor(input, "slice_scatter", "input", 1)
    _check_tensor(src, "slice_scatter", "src", 2)
    if step <= 0:
        raise RuntimeError("slice step must be positive")
    d = dim + input.dim() if dim < 0 else dim
    if not 0 <= d < max(input.dim(), 1):
        raise IndexError(f"Dimension out of range (expected to be in range of [{-max(input.dim(), 1)}, "
                         f"{max(input.dim(), 1) - 1}], but got {dim})")
    key = (slice(None),) * d + (slice(start, end, step),)
    return _write(input, src, lambda t: t[key])


def select_scatter(input, src, dim, index):
    """input with src written into input.select(dim, index)."""
    _check_tensor(input, "select_scatter", "input", 1)
    _check_tensor(src, "select_scatter", "src", 2)
    return _write(input, src, lambda t: t.select(dim, index))


def diagonal_scatter(input, src, offset=0, dim1=0, dim2=1):
    """input with src written into input.diagonal(offset, dim1, dim2)."""
    _check_tensor(input, "diagonal_scatter", "input", 1)
    _check_tensor(src, "diagonal_scatter", "src", 2)
    return _write(input, src, lambda t: t.diagonal(offset, dim1, dim2))


def as_strided_scatter(input, src, size, stride, storage_offset=None):
    """input with src written into as_strided(size, stride, storage_offset) of a copy of input
    (which keeps input's strides; the offset counts from the copy's first element)."""
    _check_tensor(input, "as_strided_scatter", "input", 1)
    _check_tensor(src, "as_strided_scatter", "src", 2)
    off = 0 if storage_offset is None else storage_offset
    return _write(input, src, lambda t: t.as_strided(size, stride, off))


_REDUCES = ("prod", "mean", "amax", "amin")
_warned_index_reduce = []


def index_reduce(input, dim, index, source, reduce, *, include_self=True):
    """Reduces the slices source.select(dim, i) into input.select(dim, index[i]) with prod,
    mean, amax or amin (include_self=False leaves input's values of the written slices out)."""
    _check_tensor(input, "index_reduce", "input", 1)
    _check_tensor(index, "index_reduce", "index", 3)
    _check_tensor(source, "index_reduce", "source", 4)
    if not _warned_index_reduce:
        _warned_index_reduce.append(True)
        warnings.warn("index_reduce() is in beta and the API may change at any time.", UserWarning,
                      stacklevel=3)
    if reduce not in _REDUCES:
        raise RuntimeError(f"index_reduce(): Expected reduce to be one of prod, mean, amax or amin "
                           f"but got {reduce}.")
    if index.dim() > 1:
        raise IndexError(f"index_reduce_(): Index is supposed to be a vector, but got dim: "
                         f"{index.dim()} with type: {_scalar_type_name(index.dtype)} and size: "
                         f"{list(index.shape)}")
    if index.dtype not in (_C.int32, _C.int64):
        raise RuntimeError(f"index_reduce_(): Expected dtype int32/int64 for index but got: "
                           f"{_scalar_type_name(index.dtype)}")
    nd = max(input.dim(), 1)
    d = dim + nd if dim < 0 else dim
    if not 0 <= d < nd:
        raise IndexError(f"Dimension out of range (expected to be in range of [{-nd}, {nd - 1}], "
                         f"but got {dim})")
    if input.dtype != source.dtype:
        raise RuntimeError(f"index_reduce_(): self ({_scalar_type_name(input.dtype)}) and source "
                           f"({_scalar_type_name(source.dtype)}) must have the same scalar type")
    src_shape = list(source.shape) if source.dim() else [1]
    self_shape = list(input.shape) if input.dim() else [1]
    if len(src_shape) != len(self_shape) or any(a != b for i, (a, b) in
                                                enumerate(zip(src_shape, self_shape)) if i != d):
        raise RuntimeError("source tensor shape must match self tensor shape, excluding the "
                           f"specified dimension. Got self.shape = {list(input.shape)} "
                           f"source.shape = {list(source.shape)}")
    n = index.numel()
    if n != src_shape[d]:
        raise RuntimeError(f"index_reduce_(): Number of indices ({n}) should be equal to "
                           f"source.size(dim): ({src_shape[d]}), for dim: {dim}")
    size = self_shape[d]
    if n and bool(((index < 0) | (index >= size)).any()):
        raise IndexError("index out of range in self")
    shape = [1] * len(self_shape)
    shape[d] = n
    idx = index.to(_C.int64).reshape(shape).expand(src_shape)
    x, s = input, source
    if input.dim() == 0:
        x, s = input.reshape(1), source.reshape(1)
    r = x.scatter_reduce(d, idx, s, reduce, include_self=include_self)
    return r.reshape(input.shape)


def _put_checks(self, index, source):
    _check_tensor(self, "put_", "input", 1)
    _check_tensor(index, "put_", "index", 2)
    _check_tensor(source, "put_", "source", 3)
    if index.dtype != _C.int64:
        raise RuntimeError(f"put_(): Expected a long tensor for index, but got "
                           f"{_scalar_type_name(index.dtype)}")
    if self.dtype != source.dtype:
        raise RuntimeError(f"put_(): self and source expected to have the same dtype, but got "
                           f"self.dtype = {_scalar_type_name(self.dtype)} and source.dtype = "
                           f"{_scalar_type_name(source.dtype)}")
    if source.numel() != index.numel():
        raise IndexError(f"put_(): Expected source and index to have the same number of elements, "
                         f"but got source.numel() = {source.numel()}, index.numel() = "
                         f"{index.numel()}")
    n = self.numel()
    if index.numel() == 0:
        return
    if n == 0:
        raise IndexError("put_(): Tried to put elements into an empty tensor")
    bad = (index < -n) | (index >= n)
    if bool(bad.any()):
        i = int(index.reshape(-1)[bad.reshape(-1).nonzero()[0, 0]].item())
        raise IndexError(f"out of range: tried to access index {i} on a tensor of {n} elements.")


def put_(self, index, source, accumulate=False):
    """Writes source into self as if self were 1-D (row-major order), at index (negative
    indices count from the end); accumulate=True adds instead (repeated indices add up)."""
    _put_checks(self, index, source)
    if index.numel() == 0:
        return self
    idx = index.reshape(-1)
    idx = idx + (idx < 0).to(_C.int64) * self.numel()
    if self.is_contiguous():
        self.view(-1).index_put_((idx,), source.reshape(-1), accumulate)
        return self
    flat = self.reshape(-1).clone()
    flat.index_put_((idx,), source.reshape(-1), accumulate)
    return self.copy_(flat.view(self.shape))


def put(input, index, source, accumulate=False):
    """put_ on a copy of input."""
    _put_checks(input, index, source)
    return put_(input.clone(), index, source, accumulate)
