"""split, split_with_sizes and unbind: views of the pieces of a tensor, each call one op of
several outputs for autograd (SplitBackward0, SplitWithSizesBackward0, UnbindBackward0, whose
gradient is the pieces' gradients joined, as torch's), and the unsafe_ forms of split and chunk
(the same pieces as views autograd does not treat as one op's outputs, so in-place ops on them
are allowed)."""
import sys

from . import _C
from ._checks import _VIEW_BYTES, _check_count_fits


def _recorded(name):
    return getattr(sys.modules["minitorch"], name)


# the creation meta of the views of one op that returns several (Note [Creation meta of views]
# in csrc/autograd/autograd.h): in-place ops on them are errors where autograd records them
_MULTI_OUTPUT = 2


def _multi_views(pieces):
    _C._mark_views(pieces, _MULTI_OUTPUT)
    return pieces


def unbind(input, dim=0):
    """The slices of input along dim, as views."""
    n = input.size(dim)
    _check_count_fits(n, _VIEW_BYTES, "unbind")
    return _multi_views(tuple(input.select(dim, i) for i in range(n)))


def _split(input, split_size, dim=0):
    """Pieces of split_size along dim (the last one shorter), as views."""
    length = input.size(dim)
    if length == 0:
        return _multi_views((input.narrow(dim, 0, 0),))
    _check_count_fits(-(-length // split_size), _VIEW_BYTES, "split")
    return _multi_views(tuple(input.narrow(dim, s, min(split_size, length - s))
                              for s in range(0, length, split_size)))


def split(input, split_size_or_sections, dim=0):
    """Tensor.split / torch.split: pieces of one size (an int) or of the listed sizes."""
    length = input.size(dim)
    if isinstance(split_size_or_sections, int) or (
            hasattr(split_size_or_sections, "__index__") and
            not isinstance(split_size_or_sections, (list, tuple))):
        size = int(split_size_or_sections)
        if size < 0 or (size == 0 and length != 0):
            raise RuntimeError(f"split_size can only be 0 if dimension size is 0, but got "
                               f"dimension size of {length}" if size == 0 else
                               f"split expects split_size be non-negative, but got "
                               f"split_size={size}")
        return _recorded("_split")(input, size, dim)
    sections = [int(s) for s in split_size_or_sections]
    if sum(sections) != length or any(s < 0 for s in sections):
        raise RuntimeError(
            f"split_with_sizes expects split_sizes to sum exactly to {length} (input tensor's "
            f"size at dimension {dim}), but got split_sizes={sections}")
    return _recorded("split_with_sizes")(input, sections, dim)


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
    length = input.size(dim)
    if sum(sizes) != length:
        raise RuntimeError(
            f"split_with_sizes expects split_sizes to sum exactly to {length} (input tensor's "
            f"size at dimension {dim}), but got split_sizes={sizes}")
    _check_count_fits(len(sizes), _VIEW_BYTES, "split_with_sizes")
    out, start = [], 0
    for n in sizes:
        out.append(input.narrow(dim, start, n))
        start += n
    return _multi_views(tuple(out))


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
