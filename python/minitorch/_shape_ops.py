"""Shape, join, sort and gather/scatter ops, and index_put_.

The heavy lifting is in C (cat, sort/topk, searchsorted, gather/scatter, index_select,
nonzero, _index_put_); this module applies torch's argument rules.  Tensor indexing
(t[key], t[key] = v) is planned and run in C: csrc/indexing.c, aten_lite/indexing.c."""
import builtins

from . import _C
from ._ops import clamp as _clamp
from ._reductions import _return_type, _store_pair
from ._C import TensorBase as Tensor
from ._checks import _VIEW_BYTES, _check_count_fits, _check_short

sort_ret = _return_type("sort", ["values", "indices"])
topk_ret = _return_type("topk", ["values", "indices"])
kthvalue_ret = _return_type("kthvalue", ["values", "indices"])


def _check(x, fname, what="input"):
    if not isinstance(x, _C.TensorBase):
        raise TypeError(f"{fname}(): argument '{what}' must be Tensor, not {type(x).__name__}")


def _wrap(dim, ndim):
    n = builtins.max(ndim, 1)
    if not -n <= dim < n:
        raise IndexError(f"Dimension out of range (expected to be in range of [{-n}, {n - 1}], but got {dim})")
    return dim % n


def _dims_arg(dims):
    if isinstance(dims, int):
        return (dims,)
    _check_short(dims, "dims")
    return tuple(dims)


# ---------------------------------------------------------------- joining
cat = _C.cat
concat = concatenate = _C.cat


def stack(tensors, dim=0, *, out=None):
    """Joins equally shaped tensors along a new dim."""
    if isinstance(tensors, _C.TensorBase) or not isinstance(tensors, (list, tuple)):
        raise TypeError(f"stack(): argument 'tensors' must be tuple of Tensors, not {type(tensors).__name__}")
    if not tensors:
        raise RuntimeError("stack expects a non-empty TensorList")
    for i, t in enumerate(tensors):
        _check(t, "stack", f"tensors[{i}]")
        if t.shape != tensors[0].shape:
            raise RuntimeError(f"stack expects each tensor to be equal size, but got {list(tensors[0].shape)} "
                               f"at entry 0 and {list(t.shape)} at entry {i}")
    d = _wrap(dim, tensors[0].dim() + 1)
    return _C.cat([t.unsqueeze(d) for t in tensors], d, out=out)


def atleast_1d(*tensors):
    r = [t.reshape(1) if t.dim() == 0 else t for t in _flat_args(tensors)]
    return r[0] if len(r) == 1 else tuple(r)


def atleast_2d(*tensors):
    r = [t.reshape(1, 1) if t.dim() == 0 else t.unsqueeze(0) if t.dim() == 1 else t for t in _flat_args(tensors)]
    return r[0] if len(r) == 1 else tuple(r)


def atleast_3d(*tensors):
    def one(t):
        if t.dim() == 0:
            return t.reshape(1, 1, 1)
        if t.dim() == 1:
            return t.reshape(1, -1, 1)
        if t.dim() == 2:
            return t.unsqueeze(-1)
        return t
    r = [one(t) for t in _flat_args(tensors)]
    return r[0] if len(r) == 1 else tuple(r)


def _flat_args(tensors):
    if len(tensors) == 1 and isinstance(tensors[0], (list, tuple)):
        tensors = tuple(tensors[0])
    for t in tensors:
        _check(t, "atleast_nd")
    return tensors


def _stack_args(tensors, fname):
    if not isinstance(tensors, (list, tuple)):
        raise TypeError(f"{fname}(): argument 'tensors' must be tuple of Tensors, not {type(tensors).__name__}")
    if not tensors:
        raise RuntimeError(f"{fname} expects a non-empty TensorList")
    return tensors


def hstack(tensors, *, out=None):
    """Joins along dim 1 (dim 0 for 1-d inputs), 0-d inputs as 1-d."""
    ts = atleast_1d(*_stack_args(tensors, "hstack"))
    ts = ts if isinstance(ts, tuple) else (ts,)
    return _C.cat(ts, 0 if ts[0].dim() == 1 else 1, out=out)


def vstack(tensors, *, out=None):
    """Joins along dim 0, inputs of fewer dims as 2-d rows."""
    ts = atleast_2d(*_stack_args(tensors, "vstack"))
    return _C.cat(ts if isinstance(ts, tuple) else (ts,), 0, out=out)


row_stack = vstack


def dstack(tensors, *, out=None):
    """Joins along dim 2, inputs of fewer dims as 3-d."""
    ts = atleast_3d(*_stack_args(tensors, "dstack"))
    return _C.cat(ts if isinstance(ts, tuple) else (ts,), 2, out=out)


def column_stack(tensors, *, out=None):
    """hstack with 0-d and 1-d inputs as columns."""
    ts = _stack_args(tensors, "column_stack")
    for i, t in enumerate(ts):
        _check(t, "column_stack", f"tensors[{i}]")
    ts = [t.reshape(t.numel(), 1) if t.dim() <= 1 else t for t in ts]
    return _C.cat(ts, 1, out=out)


def tensor_split(input, indices_or_sections, dim=0):
    """Views of input cut along dim into `sections` near-equal parts (the first size % sections
    one longer) or at the given indices (clamped to the dim, as slicing)."""
    _check(input, "tensor_split")
    if input.dim() == 0:
        raise RuntimeError("tensor_split expected at least a 1-dimensional tensor, but got a tensor with 0 dims")
    d = _wrap(dim, input.dim())
    n = input.size(d)
    ios = indices_or_sections
    if isinstance(ios, _C.TensorBase):
        if ios.dtype != _C.int64:
            raise RuntimeError(f"tensor_split expected tensor_indices_or_sections to have dtype of long, but got "
                               f"{_legacy_name(ios.dtype)}")
        if ios.dim() > 1:
            raise RuntimeError("tensor_split expected tensor_indices_or_sections to be a zero-dimensional or "
                               f"one-dimensional tensor, but got a tensor with {ios.dim()} dims")
        ios = int(ios) if ios.dim() == 0 else ios.tolist()
    if isinstance(ios, int):
        if ios <= 0:
            raise RuntimeError(f"number of sections must be larger than 0, got {ios}")
        _check_count_fits(ios, _VIEW_BYTES, "tensor_split")
        q, r = divmod(n, ios)
        bounds, at = [], 0
        for k in range(ios):
            at += q + (1 if k < r else 0)
            bounds.append(at)
        bounds = bounds[:-1]
    else:
        bounds = [int(b) for b in ios]
    def clip(i):  # as a slice bound
        return builtins.min(builtins.max(i + n if i < 0 else i, 0), n)

    parts, start = [], 0
    for b in bounds + [n]:
        s0, e0 = clip(start), clip(b)
        parts.append(input.narrow(d, s0, builtins.max(e0 - s0, 0)))
        start = b
    return tuple(parts)


def _dir_split(input, ios, dim, min_dims, fname):
    _check(input, fname)
    if input.dim() < min_dims:
        raise RuntimeError(f"torch.{fname} requires a tensor with at least {min_dims} dimension"
                           f"{'s' if min_dims > 1 else ''}, but got a tensor with {input.dim()} dimensions!")
    if isinstance(ios, int) and (ios == 0 or input.size(dim) % ios != 0):
        raise RuntimeError(f"torch.{fname} attempted to split along dimension {dim}, but the size of the "
                           f"dimension {input.size(dim)} is not divisible by the split_size {ios}!")
    return tensor_split(input, ios, dim)


def hsplit(input, indices_or_sections):
    """tensor_split along dim 1 (dim 0 for 1-d input); a number of sections must divide it."""
    return _dir_split(input, indices_or_sections, 1 if getattr(input, "ndim", 0) > 1 else 0, 1, "hsplit")


def vsplit(input, indices_or_sections):
    """tensor_split along dim 0 of an input of at least 2 dims."""
    return _dir_split(input, indices_or_sections, 0, 2, "vsplit")


def dsplit(input, indices_or_sections):
    """tensor_split along dim 2 of an input of at least 3 dims."""
    return _dir_split(input, indices_or_sections, 2, 3, "dsplit")


def meshgrid(*tensors, indexing=None):
    """Coordinate grids of 0-d/1-d tensors: views, ij indexing unless indexing='xy'."""
    if len(tensors) == 1 and isinstance(tensors[0], (list, tuple)):
        tensors = tuple(tensors[0])
    if indexing is None:
        import warnings
        warnings.warn("torch.meshgrid: in an upcoming release, it will be required to pass the indexing "
                      "argument.", UserWarning, stacklevel=2)
        indexing = "ij"
    if indexing not in ("ij", "xy"):
        raise RuntimeError(f'torch.meshgrid: indexing must be one of "xy" or "ij", but received: {indexing}')
    if not tensors:
        raise RuntimeError("meshgrid expects a non-empty TensorList")
    for t in tensors:
        _check(t, "meshgrid", "tensors")
        if t.dim() > 1:
            raise RuntimeError(f"torch.meshgrid: Expected 0D or 1D tensor in the tensor list but got: {t}")
        if t.dtype != tensors[0].dtype:
            raise RuntimeError("meshgrid expects all tensors to have the same dtype")
    ts = [t.reshape(-1) for t in tensors]
    swap = indexing == "xy" and len(ts) >= 2
    if swap:
        ts[0], ts[1] = ts[1], ts[0]
    shape = [t.numel() for t in ts]
    grids = []
    for i, t in enumerate(ts):
        view = [1] * len(ts)
        view[i] = t.numel()
        grids.append(t.reshape(view).expand(shape))
    if swap:
        grids[0], grids[1] = grids[1], grids[0]
    return tuple(grids)


def cartesian_prod(*tensors):
    """Every combination of the 1-d inputs' entries, as rows (the input itself for one)."""
    for t in tensors:
        _check(t, "cartesian_prod", "tensors")
        if t.dim() != 1:
            raise RuntimeError(f"Expect a 1D vector, but got shape {list(t.shape)}")
    if len(tensors) == 1:
        return tensors[0]
    return stack([g.reshape(-1) for g in meshgrid(*tensors, indexing="ij")], 1)


def _tri_indices(row, col, offset, dtype, upper, fname):
    if row < 0:
        raise RuntimeError(f"row must be non-negative, got{row}")
    if col < 0:
        raise RuntimeError(f"col must be non-negative, got{col}")
    keep = _tri(_C.ones(row, col, dtype=_C.bool), offset, upper, fname)
    return _C._nonzero(keep).t().to(dtype).contiguous()


def tril_indices(row, col, offset=0, *, dtype=None, device=None, layout=None):
    """(2, N) coordinates of the lower triangle of a row x col matrix, row by row."""
    _C._check_tensor_options("tril_indices", layout, None)
    return _tri_indices(row, col, offset, dtype or _C.int64, False, "tril")


def triu_indices(row, col, offset=0, *, dtype=None, device=None, layout=None):
    """(2, N) coordinates of the upper triangle of a row x col matrix, row by row."""
    _C._check_tensor_options("triu_indices", layout, None)
    return _tri_indices(row, col, offset, dtype or _C.int64, True, "triu")


def block_diag(*tensors):
    """The 0-d/1-d/2-d inputs as blocks along the diagonal of one zero matrix."""
    blocks = []
    for i, t in enumerate(tensors):
        _check(t, "block_diag", "tensors")
        if t.dim() > 2:
            raise RuntimeError(f"torch.block_diag: Input tensors must have 2 or fewer dimensions. Input {i} has "
                               f"{t.dim()} dimensions")
        blocks.append(t.reshape(1, 1) if t.dim() == 0 else t.reshape(1, -1) if t.dim() == 1 else t)
    dt = blocks[0].dtype if blocks else _C.float32
    for b in blocks[1:]:
        dt = _C.promote_types(dt, b.dtype)
    r = _C.zeros(builtins.sum(b.size(0) for b in blocks), builtins.sum(b.size(1) for b in blocks), dtype=dt)
    i = j = 0
    for b in blocks:
        r[i:i + b.size(0), j:j + b.size(1)] = b
        i, j = i + b.size(0), j + b.size(1)
    return r


# ---------------------------------------------------------------- rearranging
def movedim(input, source, destination):
    _check(input, "movedim")
    src = [_wrap(d, input.dim()) for d in _dims_arg(source)]
    dst = [_wrap(d, input.dim()) for d in _dims_arg(destination)]
    if len(src) != len(dst):
        raise RuntimeError(f"movedim: Invalid source or destination dims: source ({list(src)} dims) should "
                           f"contain the same number of dims as destination ({list(dst)} dims)")
    if len(set(src)) != len(src) or len(set(dst)) != len(dst):
        raise RuntimeError("movedim: repeated dim in `source` or `destination`")
    order = [None] * input.dim()
    for s, d in zip(src, dst):
        order[d] = s
    rest = iter(d for d in range(input.dim()) if d not in src)
    order = [o if o is not None else next(rest) for o in order]
    return input.permute(order)


moveaxis = movedim


def index_select(input, dim, index, *, out=None):
    """Entries of input along dim at the positions in the 1-d integer tensor index."""
    _check(input, "index_select")
    _check(index, "index_select", "index")
    if index.dim() > 1:
        raise IndexError("index_select(): Index is supposed to be a vector")
    if index.dtype not in (_C.int64, _C.int32):
        raise RuntimeError(f"index_select(): Expected dtype int32/int64 for index but got: {index.dtype}")
    d = _wrap(dim, input.dim())
    if input.dim() == 0:
        r = _C._index_select(input.reshape(1), 0, index).reshape(index.shape)
    else:
        r = _C._index_select(input, d, index)
    return _C._store_out(out, r, "index_select") if out is not None else r


def flip(input, dims):
    """A copy of input with the order of entries reversed along each of dims."""
    _check(input, "flip")
    wrapped = [_wrap(d, input.dim()) for d in _dims_arg(dims)]
    for i, d in enumerate(wrapped):
        if d in wrapped[:i]:
            raise RuntimeError(f"dim {d} appears multiple times in the list of dims")
    return _C._flip(input, wrapped if input.dim() else [])


def rot90(input, k=1, dims=(0, 1)):
    """input rotated by k quarter turns in the plane of dims, from the first towards the second."""
    _check(input, "rot90")
    dims = _dims_arg(dims)
    if len(dims) != 2:
        raise RuntimeError(f"expected total rotation dims == 2, but got dims = {len(dims)}")
    n = input.dim()
    if n < 2:
        raise RuntimeError(f"expected total dims >= 2, but got total dims = {n}")
    d0, d1 = dims
    if d0 == d1 or abs(d0 - d1) == n:
        raise RuntimeError(f"expected rotation dims to be different, but got dim0 = {d0} and dim1 = {d1}")
    if not -n <= d0 < n:
        raise RuntimeError(f"Rotation dim0 out of range, dim0 = {d0}")
    if not -n <= d1 < n:
        raise RuntimeError(f"Rotation dim1 out of range, dim1 = {d1}")
    k %= 4
    if k == 1:
        return flip(input, d1).transpose(d0, d1)
    if k == 2:
        return flip(input, (d0, d1))
    if k == 3:
        return flip(input, d0).transpose(d0, d1)
    return input.clone()


def fliplr(input):
    _check(input, "fliplr")
    if input.dim() < 2:
        raise RuntimeError("Input must be >= 2-d.")
    return flip(input, (1,))


def flipud(input):
    _check(input, "flipud")
    if input.dim() < 1:
        raise RuntimeError("Input must be >= 1-d.")
    return flip(input, (0,))


def roll(input, shifts, dims=None):
    """A copy of input with entries shifted (circularly) along dims, or along the flattened
    input when dims is None."""
    _check(input, "roll")
    shifts = _dims_arg(shifts)
    if not shifts:
        raise RuntimeError("`shifts` required")
    if dims is None or not _dims_arg(dims):
        if len(shifts) != 1:
            raise RuntimeError(f"shifts and dimensions must align. shifts: {len(shifts)}, dims:0")
        return roll(input.flatten(), shifts, 0).view(input.shape)
    dims = _dims_arg(dims)
    if len(shifts) != len(dims):
        raise RuntimeError(f"shifts and dimensions must align. shifts: {len(shifts)}, dims:{len(dims)}")
    r = input
    for s, d in zip(shifts, dims):
        d = _wrap(d, input.dim())
        n = input.size(d)
        if n == 0:
            continue
        s %= n
        if s:
            r = _C.cat([r.narrow(d, n - s, s), r.narrow(d, 0, n - s)], d)
    return r.clone() if r is input else r


def repeat(input, *sizes):
    """Tiles input: result size along each dim is size * repeats."""
    _check(input, "repeat")
    if len(sizes) == 1 and isinstance(sizes[0], (list, tuple)):
        sizes = tuple(sizes[0])
    sizes = tuple(int(s) for s in sizes)
    if len(sizes) < input.dim():
        raise RuntimeError("Number of dimensions of repeat dims can not be smaller than number of dimensions of tensor")
    if any(s < 0 for s in sizes):
        raise RuntimeError(f"Trying to create tensor with negative dimension {builtins.min(sizes)}: {list(sizes)}")
    shape = (1,) * (len(sizes) - input.dim()) + tuple(input.shape)
    x = input.reshape(shape)
    inter, expanded, final = [], [], []
    for r, s in zip(sizes, shape):
        inter += [1, s]
        expanded += [r, s]
        final.append(r * s)
    return x.reshape(inter).expand(expanded).reshape(final).clone()


def tile(input, dims):
    """repeat() with dims padded by leading 1s to input's number of dims."""
    _check(input, "tile")
    dims = _dims_arg(dims)
    dims = (1,) * (input.dim() - len(dims)) + tuple(dims)
    return repeat(input, dims)


def _tri(input, diagonal, upper, fname):
    _check(input, fname)
    if input.dim() < 2:
        raise RuntimeError(f"{fname}: input tensor must have at least 2 dimensions")
    rows, cols = input.shape[-2], input.shape[-1]
    off = _C.sub(_C.arange(cols).unsqueeze(0), _C.arange(rows).unsqueeze(1))
    keep = _C.ge(off, diagonal) if upper else _C.le(off, diagonal)
    return _C._where(keep, input, _C.zeros((), dtype=input.dtype))


def tril(input, diagonal=0, *, out=None):
    r = _tri(input, diagonal, False, "tril")
    return _C._store_out(out, r, "tril") if out is not None else r


def triu(input, diagonal=0, *, out=None):
    r = _tri(input, diagonal, True, "triu")
    return _C._store_out(out, r, "triu") if out is not None else r


def diagonal(input, offset=0, dim1=0, dim2=1):
    """A view of the diagonal of (dim1, dim2), appended as the last dim."""
    _check(input, "diagonal")
    d1, d2 = _wrap(dim1, input.dim()), _wrap(dim2, input.dim())
    if d1 == d2:
        raise RuntimeError(f"diagonal dimensions cannot be identical {dim1}, {dim2}")
    size, stride = list(input.shape), list(input.stride())
    start = input.storage_offset()
    if offset >= 0:
        n = builtins.max(0, builtins.min(size[d1], size[d2] - offset))
        start += offset * stride[d2] if n else 0
    else:
        n = builtins.max(0, builtins.min(size[d1] + offset, size[d2]))
        start += -offset * stride[d1] if n else 0
    keep = [d for d in range(input.dim()) if d not in (d1, d2)]
    return input.as_strided([size[d] for d in keep] + [n], [stride[d] for d in keep] + [stride[d1] + stride[d2]], start)


def diag(input, diagonal=0):
    _check(input, "diag")
    if input.dim() == 1:
        n = input.size(0) + abs(diagonal)
        r = _C.zeros(n, n, dtype=input.dtype)
        globals()["diagonal"](r, diagonal).copy_(input)
        return r
    if input.dim() == 2:
        return globals()["diagonal"](input, diagonal).clone()
    raise RuntimeError("diag(): Supports 1D or 2D tensors. Got %dD" % input.dim())


def diagflat(input, offset=0):
    """diag() of the flattened input."""
    _check(input, "diagflat")
    return diag(input.reshape(-1), offset)


def diag_embed(input, offset=0, dim1=-2, dim2=-1):
    """Matrices (in dims dim1, dim2 of the result) whose offset diagonal is input's last dim."""
    _check(input, "diag_embed")
    nd = input.dim() + 1
    d1, d2 = _wrap(dim1, nd), _wrap(dim2, nd)
    if d1 == d2:
        raise RuntimeError(f"diagonal dimensions cannot be identical {dim1}, {dim2}")
    n = input.size(-1) + abs(offset) if input.dim() else 1 + abs(offset)
    batch = iter(input.shape[:-1])
    shape = [n if d in (d1, d2) else next(batch) for d in range(nd)]
    r = _C.zeros(*shape, dtype=input.dtype)
    diagonal(r, offset, d1, d2).copy_(input)
    return r


def trace(input):
    _check(input, "trace")
    if input.dim() != 2:
        raise RuntimeError(f"trace: expected a matrix, but got tensor with dim {input.dim()}")
    return diagonal(input).sum()


# ---------------------------------------------------------------- gather / scatter / select
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
        counts = _C.full(r.shape, 1 if include_self else 0, dtype=_C.int64)
        counts.scatter_add_(dim, index, _C.ones(index.shape, dtype=_C.int64))
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
    if index.numel() and not (0 <= int(index.amin()) and int(index.amax()) < builtins.max(self.dim() and self.size(d), 1)):
        raise IndexError("index out of range in self")
    src = source if alpha == 1 else _C.mul(source, alpha).to(self.dtype)
    if self.dim() == 0:
        _C._index_put_(self.view(1), [index.reshape(-1)], src.reshape(-1), True)
        return self
    _C._index_put_(movedim(self, d, 0), [index.reshape(-1)], movedim(src, d, 0) if src.dim() else src, True)
    return self


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
    if flat.numel():
        lo, hi = int(flat.amin()), int(flat.amax())
        bad = lo if lo < -n else hi if hi >= n else None
        if bad is not None:
            raise IndexError(f"out of range: tried to access index {bad} on a tensor of {n} elements.")
    if n == 0:
        return _C.empty(index.shape, dtype=input.dtype)
    return _C._index_select(input.reshape(-1), 0, flat, True).reshape(index.shape)


def take_along_dim(input, indices, dim=None, *, out=None):
    """gather along dim after broadcasting input and indices over the other dims; with dim=None
    the flattened input is read at the flattened indices."""
    _check(input, "take_along_dim")
    _check(indices, "take_along_dim", "indices")
    if indices.dtype != _C.int64:
        raise RuntimeError(f"torch.take_along_dim(): dtype of indices should be Long but got "
                           f"{_legacy_name(indices.dtype)}")
    if dim is None:
        r = _C._gather(input.reshape(-1), 0, indices.reshape(-1))
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
        r = _C._gather(input.expand(bi), d, indices.expand(bx))
    return _C._store_out(out, r, "take_along_dim") if out is not None else r


def nonzero(input, *, as_tuple=False):
    _check(input, "nonzero")
    nz = _C._nonzero(input)
    if not as_tuple:
        return nz
    if input.dim() == 0:
        return (_C.zeros(nz.size(0), dtype=_C.int64),)
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
    shape = _broadcast_shapes(input.shape, mask.shape)
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
    shape = _broadcast_shapes(input.shape, mask.shape)
    return _masked_scatter_(input.expand(shape).clone(), mask, source)


def _broadcast_shapes(*shapes):
    nd = builtins.max((len(s) for s in shapes), default=0)
    out = [1] * nd
    for k, s in enumerate(shapes):
        for i, n in enumerate(s):
            j = nd - len(s) + i
            if n != 1 and out[j] != 1 and out[j] != n:
                first = next(a for a in range(k) if len(shapes[a]) - nd + j >= 0
                             and shapes[a][len(shapes[a]) - nd + j] == out[j])
                raise RuntimeError("Shape mismatch: objects cannot be broadcast to a single shape.  "
                                   f"Mismatch is between arg {first} and arg {k}.")
            if n != 1:
                out[j] = n
    return tuple(out)


def broadcast_shapes(*shapes):
    from ._size import Size
    sized = []
    for s in shapes:
        s = (s,) if isinstance(s, int) else s
        _check_short(s, "broadcast_shapes")
        dims = []
        for n in s:
            if isinstance(n, (bool, float)) or not hasattr(n, "__index__"):
                raise TypeError(f"broadcast_shapes(): shapes must hold ints, got "
                                f"{type(n).__name__}")
            n = n.__index__()
            if n < 0:
                raise RuntimeError(f"Trying to create tensor with negative dimension {n}: "
                                   f"{list(s)}")
            dims.append(n)
        sized.append(tuple(dims))
    return Size(_broadcast_shapes(*sized))


def broadcast_tensors(*tensors):
    for i, t in enumerate(tensors):
        _check(t, "broadcast_tensors", f"tensors[{i}]")
    shape = _broadcast_shapes(*[tuple(t.shape) for t in tensors])
    return tuple(t.expand(shape) for t in tensors)


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
    r = _C.zeros(*tensor.shape, num_classes, dtype=_C.int64)
    return r.scatter_(-1, tensor.unsqueeze(-1), 1)


# ---------------------------------------------------------------- sorting
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


# ---------------------------------------------------------------- order statistics
median_ret = _return_type("median", ["values", "indices"])
nanmedian_ret = _return_type("nanmedian", ["values", "indices"])


def _median(input, dim, keepdim, ignore_nan, fname):
    _check(input, fname)
    if dim is None:
        n = input.numel()
        if n == 0:
            if not input.dtype.is_floating_point:
                raise RuntimeError(f"{fname}() input tensor cannot be empty")
            return _C.full((), float("nan"), dtype=input.dtype)
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
        qs = _C.full((1,), q, dtype=input.dtype)
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
    s = _C._sort(x, -1, False)[0]                     # (..., n), NaN last
    n = s.size(-1)
    nan_count = s.isnan().sum(-1, keepdim=True)
    cnt = _C.sub(n, nan_count) if ignore_nan else _C.full(nan_count.shape, n, dtype=_C.int64)
    last = _clamp(_C.sub(cnt, 1), min=0).to(input.dtype)
    res = []
    for j in range(qs.numel()):
        rank = _C.mul(last, qs[j])
        if interpolation == "nearest":
            rank = _C.round(rank)
        lo = _clamp(_C.floor(rank).to(_C.int64), max=n - 1)
        hi = _clamp(_C.ceil(rank).to(_C.int64), max=n - 1)
        vlo, vhi = _C._gather(s, -1, lo), _C._gather(s, -1, hi)
        if interpolation in ("lower", "nearest"):
            r = vlo
        elif interpolation == "higher":
            r = vhi
        elif interpolation == "midpoint":
            r = _C.mul(_C.add(vlo, vhi), 0.5)
        else:
            r = _C.add(vlo, _C.mul(_C.sub(vhi, vlo), _C.sub(rank, lo.to(input.dtype))))
        bad = _C.eq(cnt, 0) if ignore_nan else _C.gt(nan_count, 0)
        r = _C._where(bad, float("nan"), r)
        res.append(r.reshape(out_shape))
    r = res[0] if scalar_q or q.dim() == 0 else stack(res) if res else _C.empty([0] + out_shape, dtype=input.dtype)
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
    first = _C.ones(v.shape, dtype=_C.bool)
    if n > 1:
        first[..., 1:] = _C.ne(v[..., 1:], v[..., :-1])
    run = _C.sub(_C.cumsum(first, -1), 1)                       # run number of each entry
    counts = _C.zeros(v.shape, dtype=_C.int64).scatter_add_(-1, run, _C.ones(v.shape, dtype=_C.int64))
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
    e = elements.to(dt) if isinstance(elements, _C.TensorBase) else _C.full((), elements, dtype=dt)
    t = test_elements.to(dt) if isinstance(test_elements, _C.TensorBase) else _C.full((1,), test_elements, dtype=dt)
    s = _C._sort(t.reshape(-1), 0, False)[0]
    if s.numel() == 0:
        found = _C.zeros(e.shape, dtype=_C.bool)
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
        order = _C.arange(n)
        for c in range(m - 1, -1, -1):
            order = order[_C._sort(x.select(1, c)[order], 0, False)[1]]
        s = x[order]
    first = _C.ones(n, dtype=_C.bool)
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
            inverse = _C.empty(n, dtype=_C.int64)
            _C._index_put_(inverse, [order], group, False)
        out.append(inverse.reshape(input.shape) if d is None else inverse)
    if return_counts:
        starts = _C._nonzero(first).reshape(-1)
        ends = _C.cat([starts[1:], _C.full((1,), n, dtype=_C.int64)])
        out.append(_C.sub(ends, starts))
    return out[0] if len(out) == 1 else tuple(out)


def unique(input, sorted=True, return_inverse=False, return_counts=False, dim=None):
    """Unique entries (dim=None, flattened) or unique slices along dim, in ascending
    (lexicographic) order, optionally with inverse indices and counts.  NaNs never
    compare equal, so each NaN is its own entry (as torch on the CPU)."""
    return _unique_impl(input, return_inverse, return_counts, dim, False, "unique")


def unique_consecutive(input, return_inverse=False, return_counts=False, dim=None):
    """Collapses runs of equal consecutive entries (or slices along dim)."""
    return _unique_impl(input, return_inverse, return_counts, dim, True, "unique_consecutive")


# ---------------------------------------------------------------- searching and counting
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
        values = _C.full((), input, dtype=dt)
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
        if sorter.numel() and (int(sorter.amax()) >= bd.size(-1) or int(sorter.amin()) < 0):
            raise RuntimeError("torch.searchsorted(): sorter index out of range")
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


# ---------------------------------------------------------------- advanced indexing
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


def _legacy_name(dt):
    """torch's scalar-type names in messages: Float, Long, Bool, ..."""
    return {"float32": "Float", "float64": "Double", "float16": "Half", "bfloat16": "BFloat16",
            "int64": "Long", "int32": "Int", "int16": "Short", "int8": "Char", "uint8": "Byte",
            "bool": "Bool"}[str(dt).rsplit(".", 1)[-1]]


def index_put(input, indices, values, accumulate=False):
    return index_put_(input.clone(), indices, values, accumulate)



def repeat_interleave(input, repeats=None, dim=None, *, output_size=None):
    """Repeats each element (along dim; of the flattened input when dim is None) repeats times.
    repeat_interleave(repeats) alone repeats arange(len(repeats))."""
    if repeats is None:  # the one-argument form
        _check(input, "repeat_interleave", "repeats")
        repeats = input
        if repeats.dim() != 1:
            raise RuntimeError("repeat_interleave only accept 1D vector as repeat")
        input = _C.arange(repeats.numel(), dtype=_C.int64)
        dim = 0
    _check(input, "repeat_interleave")
    if dim is None:
        input, dim = input.reshape(-1), 0
    d = _wrap(dim, input.dim())
    n = input.size(d) if input.dim() else 1
    if isinstance(repeats, _C.TensorBase):
        if repeats.dtype not in (_C.int64, _C.int32):
            raise RuntimeError("repeats has to be Long or Int tensor")
        if repeats.dim() > 1:
            raise RuntimeError("repeats must be 0-dim or 1-dim tensor")
        if repeats.dim() == 1 and repeats.numel() != 1 and repeats.numel() != n:
            raise RuntimeError(f"repeats must have the same size as input along dim, but got "
                               f"repeats.size(0) = {repeats.numel()} and input.size({d}) = {n}")
        if repeats.numel() and bool((repeats < 0).any()):
            raise RuntimeError("repeats can not be negative")
        if repeats.numel() == 1:
            repeats = int(repeats.reshape(-1)[0])
    elif isinstance(repeats, bool) or not isinstance(repeats, int):
        raise TypeError(f"repeat_interleave(): argument 'repeats' must be Tensor or int, "
                        f"not {type(repeats).__name__}")
    if isinstance(repeats, int):
        if repeats < 0:
            raise RuntimeError("repeats can not be negative")
        idx = _C.arange(n, dtype=_C.int64).unsqueeze(1).expand(n, repeats).reshape(-1)
    else:
        ends = repeats.to(_C.int64).cumsum(0)
        total = int(ends[-1]) if n else 0
        idx = searchsorted(ends, _C.arange(total, dtype=_C.int64), right=True)
    if output_size is not None and output_size != idx.numel():
        raise RuntimeError(f"repeat_interleave: output_size {output_size} does not match the "
                           f"sum of repeats {idx.numel()}")
    if input.dim() == 0:
        input = input.reshape(1)
    return index_select(input, d, idx)



__all__ = ["cat", "concat", "concatenate", "stack", "hstack", "vstack", "row_stack", "dstack",
           "atleast_1d", "atleast_2d", "atleast_3d", "movedim", "moveaxis", "index_select", "flip",
           "fliplr", "flipud", "roll", "repeat", "tile", "tril", "triu", "diagonal", "diag",
           "diag_embed", "repeat_interleave", "trace", "gather", "scatter", "scatter_add", "index_add", "nonzero",
           "argwhere", "where", "masked_select", "broadcast_shapes", "broadcast_tensors", "one_hot",
           "sort", "argsort", "msort", "topk", "kthvalue", "unique", "unique_consecutive",
           "index_put", "index_put_", "searchsorted", "bucketize", "bincount", "index_fill", "index_copy",
           "masked_scatter", "column_stack", "rot90", "take", "take_along_dim", "scatter_reduce", "median",
           "nanmedian", "quantile", "nanquantile", "isin", "meshgrid", "cartesian_prod", "tril_indices",
           "triu_indices", "block_diag", "diagflat", "mode", "tensor_split", "hsplit", "vsplit", "dsplit"]
