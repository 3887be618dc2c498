"""Rearranging elements: movedim, index_select, flip/rot90/roll, repeat/tile/repeat_interleave,
tril/triu, diagonal/diag/diagflat/diag_embed, trace (the kernels are in C; this applies torch's
argument rules)."""
import builtins

from . import _C
from ._checks import _check, _dims_arg, _wrap
from ._searching import searchsorted


def movedim(input, source, destination):
    _check(input, "movedim")
    src = [_wrap(d, input.dim()) for d in _dims_arg(source)]
    dst = [_wrap(d, input.dim()) for d in _dims_arg(destination)]
    if len(src) != len(dst):
        raise RuntimeError(f"movedim: Invalid source or destination dims: source ({list(src)} dims) should "
                           f"contain the same number of dims as destination ({list(dst)} dims)")
    if len(set(src)) != len(src) or len(set(dst)) != len(dst):
        raise RuntimeError("movedim: repeated dim in `source` or `destination`")
    if input.dim() == 0:
        return input.permute([])       # dims 0 and -1 both name the only "dim": nothing moves
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


def flip(input, *args, dims=None):
    """A copy of input with the order of entries reversed along each of dims (a sequence, or
    the dims one by one as the method takes them: x.flip(0, 1))."""
    _check(input, "flip")
    if (dims is None) == (not args):
        raise TypeError("flip() missing required argument 'dims'" if dims is None else
                        "flip() got multiple values for argument 'dims'")
    if dims is None:
        dims = args[0] if len(args) == 1 else args
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
    if not sizes:
        raise TypeError('repeat() missing 1 required positional arguments: "repeats"')
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
    keep = _C.ge(off, diagonal) if upper else _C.le(off, diagonal)   # (rows, cols), on the cpu
    if input.device.type == "cpu":
        return _C._where(keep, input, _C.zeros((), dtype=input.dtype))
    # on a device: a copy with the other triangle's entries zeroed by an index put
    r = input.clone()
    drop = _C._nonzero(_C.logical_not(keep))
    if drop.size(0) and r.numel():
        r[..., drop.select(1, 0), drop.select(1, 1)] = _C.zeros((), dtype=input.dtype)
    return r


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
        r = _C.zeros(n, n, dtype=input.dtype, device=input.device)
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
    r = _C.zeros(*shape, dtype=input.dtype, device=input.device)
    diagonal(r, offset, d1, d2).copy_(input)
    return r


def trace(input):
    _check(input, "trace")
    if input.dim() != 2:
        raise RuntimeError(f"trace: expected a matrix, but got tensor with dim {input.dim()}")
    return diagonal(input).sum()


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
    if idx.device != input.device:
        idx = idx.to(input.device)
    return input.index_select(d, idx)          # the method: recorded when input requires grad


def adjoint(input):
    """The conjugate transpose of the last two dimensions: a view for real dtypes; complex
    ones are conjugated into a new tensor (minitorch has no lazy conjugate bit)."""
    _check(input, "adjoint")
    if input.dim() == 1:
        raise RuntimeError("tensor.adjoint() is only supported on matrices or batches of matrices. "
                           f"Got {input.dim()}-D tensor.")
    return input.mT.conj()


def ravel(input):
    """The elements as a contiguous 1-d tensor: a view of a contiguous input, else a copy
    (as torch: ravel is contiguous().view(-1), even where reshape could view)."""
    _check(input, "ravel")
    return input.contiguous().view(-1)


__all__ = ["movedim", "moveaxis", "index_select", "flip", "rot90", "fliplr", "flipud", "roll",
           "repeat", "tile", "tril", "triu", "diagonal", "diag", "diagflat", "diag_embed", "trace",
           "repeat_interleave", "adjoint", "ravel"]
