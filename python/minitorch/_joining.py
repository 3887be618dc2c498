"""Joining and splitting tensors: cat/stack and their h/v/d/column forms, atleast_*d,
tensor_split/hsplit/vsplit/dsplit, meshgrid, cartesian_prod, tril/triu_indices, block_diag."""
import builtins

from . import _C
from ._checks import _check, _check_count_fits, _legacy_name, _VIEW_BYTES, _wrap
from ._rearranging import _tri


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


def _tri_indices(row, col, offset, dtype, upper, fname, device):
    if row < 0:
        raise RuntimeError(f"row must be non-negative, got{row}")
    if col < 0:
        raise RuntimeError(f"col must be non-negative, got{col}")
    keep = _tri(_C.ones(row, col, dtype=_C.bool), offset, upper, fname)
    r = _C._nonzero(keep).t().to(dtype).contiguous()
    return r if device is None else r.to(device)


def tril_indices(row, col, offset=0, *, dtype=None, device=None, layout=None):
    """(2, N) coordinates of the lower triangle of a row x col matrix, row by row."""
    _C._check_tensor_options("tril_indices", layout, None)
    return _tri_indices(row, col, offset, dtype or _C.int64, False, "tril", device)


def triu_indices(row, col, offset=0, *, dtype=None, device=None, layout=None):
    """(2, N) coordinates of the upper triangle of a row x col matrix, row by row."""
    _C._check_tensor_options("triu_indices", layout, None)
    return _tri_indices(row, col, offset, dtype or _C.int64, True, "triu", device)


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
    r = _C.zeros(builtins.sum(b.size(0) for b in blocks), builtins.sum(b.size(1) for b in blocks), dtype=dt,
                 device=blocks[0].device if blocks else None)
    i = j = 0
    for b in blocks:
        r[i:i + b.size(0), j:j + b.size(1)] = b
        i, j = i + b.size(0), j + b.size(1)
    return r


__all__ = ["cat", "concat", "stack", "atleast_1d", "atleast_2d", "atleast_3d", "hstack", "vstack",
           "row_stack", "dstack", "column_stack", "tensor_split", "hsplit", "vsplit", "dsplit",
           "meshgrid", "cartesian_prod", "tril_indices", "triu_indices", "block_diag",
           "concatenate"]


def combinations(input, r=2, with_replacement=False):
    """The length-r combinations of a 1-d tensor's entries, as rows in lexicographic order of
    their positions (itertools.combinations, or combinations_with_replacement): the r-fold grid
    of positions, masked to the increasing (non-decreasing) ones, as torch's."""
    _check(input, "combinations")
    if input.dim() != 1:
        raise RuntimeError(f"Expect a 1D vector, but got shape {list(input.shape)}")
    if r < 0:
        raise RuntimeError(f"Expect a non-negative number, but got {r}")
    if r == 0:
        return _C.empty(0, dtype=input.dtype, device=input.device)
    n = input.size(0)
    pos = _C.arange(n, device=input.device)
    grids = meshgrid(*([pos] * r), indexing="ij")
    mask = None
    for a, b in zip(grids, grids[1:]):
        m = (a <= b) if with_replacement else (a < b)
        mask = m if mask is None else mask & m
    if mask is None:                                   # r == 1: every entry
        return input.unsqueeze(1)
    index = stack([g[mask] for g in grids], 1)
    return input[index.reshape(-1)].reshape(index.size(0), r)


def vander(x, N=None, increasing=False):
    """The Vandermonde matrix of a 1-d tensor: columns x**0 ... x**(N-1) (reversed unless
    increasing); integer and bool inputs give int64, as torch."""
    _check(x, "vander")
    if x.dim() != 1:
        raise RuntimeError("x must be a one-dimensional tensor.")
    n = x.size(0) if N is None else N
    if n < 0:
        raise RuntimeError("N must be non-negative.")
    if x.dtype == _C.bool or not (x.is_floating_point() or x.is_complex()):
        x = x.to(_C.int64)
    if n == 0:
        return _C.empty((x.size(0), 0), dtype=x.dtype, device=x.device)
    # columns x**0 .. x**(k-1) doubled to 2k by multiplying them by x**k: log2(N) steps of
    # recorded products (their first and second derivatives are the products')
    x.new_empty((x.size(0), n))          # a result too large fails here, before any work
    m = x.new_ones((x.size(0), 1))
    xk = x.unsqueeze(1)
    while m.size(1) < n:
        k = m.size(1)
        m = cat([m, m[:, :min(k, n - k)] * xk], 1)
        xk = xk * xk
    return m if increasing else m.flip(1)
