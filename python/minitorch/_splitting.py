"""split_with_sizes and the unsafe_ forms of split and chunk (the same pieces, as views that
autograd does not treat as one op's several outputs, so in-place ops on them are allowed)."""
from . import _C


def _check(input, fname):
    if not isinstance(input, _C.TensorBase):
        raise TypeError(f"{fname}(): argument 'input' (position 1) must be Tensor, not "
                        f"{type(input).__name__}")


def _as_plain_views(input, pieces, dim):
    out, start = [], 0
    for p in pieces:
        n = p.shape[dim]
        out.append(input.narrow(dim, start, n))
        start += n
    return tuple(out)


def split_with_sizes(input, split_sizes, dim=0):
    """The pieces of input along dim with the given sizes (which must add up to its size)."""
    _check(input, "split_with_sizes")
    sizes = [int(s) for s in split_sizes]
    if any(s < 0 for s in sizes):
        raise RuntimeError(f"split_with_sizes expects split_sizes have only non-negative entries, "
                           f"but got split_sizes={sizes}")
    return input.split(sizes, dim)


def unsafe_split(input, split_size, dim=0):
    _check(input, "unsafe_split")
    pieces = input.split(split_size, dim)
    return _as_plain_views(input, pieces, dim if dim >= 0 else dim + input.dim())


def unsafe_chunk(input, chunks, dim=0):
    _check(input, "unsafe_chunk")
    pieces = input.chunk(chunks, dim)
    d = dim if dim >= 0 else dim + input.dim()
    if all(p.shape[d] == 0 for p in pieces):
        return tuple(input.narrow(d, 0, 0) for _ in pieces)
    return _as_plain_views(input, pieces, d)


def unsafe_split_with_sizes(input, split_sizes, dim=0):
    _check(input, "unsafe_split_with_sizes")
    pieces = split_with_sizes(input, split_sizes, dim)
    return _as_plain_views(input, pieces, dim if dim >= 0 else dim + input.dim())
