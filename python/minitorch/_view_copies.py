"""The *_copy forms of the view ops (view_copy, diagonal_copy, split_copy, ...): what the view
op gives, as new tensors that never share memory with the input.  Each takes out= (a tuple of
tensors for the ops that return several)."""
from . import _C
from ._C import TensorBase as Tensor


def _check(x, fname):
    if not isinstance(x, Tensor):
        raise TypeError(f"{fname}(): argument 'input' (position 1) must be Tensor, not {type(x).__name__}")


def _fresh(view):
    """The view's elements, contiguous, in memory of their own."""
    c = view.contiguous()
    return c.clone() if c is view else c


def _one(view, out, fname):
    r = _fresh(view)
    return r if out is None else _C._store_out(out, r, fname)


def _many(views, out, fname):
    rs = [_fresh(v) for v in views]
    if out is None:
        return tuple(rs)
    if isinstance(out, Tensor) or not isinstance(out, (list, tuple)):
        raise TypeError(f"{fname}(): argument 'out' must be tuple of Tensors, not {type(out).__name__}")
    if len(out) != len(rs):
        raise RuntimeError(f"{fname}(): expected an out= of {len(rs)} tensors, got {len(out)}")
    for o, r in zip(out, rs):
        _C._store_out(o, r, fname)
    return None


def view_copy(input, size, *, out=None):
    """input.view(size) copied; as torch, a layout view() refuses is copied too (reshape's rule)."""
    _check(input, "view_copy")
    return _one(input.reshape(size), out, "view_copy")


def alias_copy(input, *, out=None):
    _check(input, "alias_copy")
    return _one(input, out, "alias_copy")


def detach_copy(input, *, out=None):
    _check(input, "detach_copy")
    return _one(input.detach(), out, "detach_copy")


def as_strided_copy(input, size, stride, storage_offset=None, *, out=None):
    _check(input, "as_strided_copy")
    return _one(input.as_strided(size, stride, storage_offset), out, "as_strided_copy")


def diagonal_copy(input, offset=0, dim1=0, dim2=1, *, out=None):
    _check(input, "diagonal_copy")
    return _one(input.diagonal(offset, dim1, dim2), out, "diagonal_copy")


def expand_copy(input, size, *, implicit=False, out=None):
    _check(input, "expand_copy")
    return _one(input.expand(size), out, "expand_copy")


def narrow_copy(input, dim, start, length, *, out=None):
    _check(input, "narrow_copy")
    return _one(input.narrow(dim, start, length), out, "narrow_copy")


def permute_copy(input, dims, *, out=None):
    _check(input, "permute_copy")
    return _one(input.permute(dims), out, "permute_copy")


def select_copy(input, dim, index, *, out=None):
    _check(input, "select_copy")
    return _one(input.select(dim, index), out, "select_copy")


def slice_copy(input, dim=0, start=None, end=None, step=1, *, out=None):
    _check(input, "slice_copy")
    if step <= 0:
        raise RuntimeError("slice step must be positive")
    key = (slice(None),) * (dim % max(input.dim(), 1)) + (slice(start, end, step),)
    return _one(input[key], out, "slice_copy")


def split_copy(input, split_size, dim=0, *, out=None):
    _check(input, "split_copy")
    return _many(input.split(split_size, dim), out, "split_copy")


def split_with_sizes_copy(input, split_sizes, dim=0, *, out=None):
    _check(input, "split_with_sizes_copy")
    if not isinstance(split_sizes, (list, tuple)):
        raise TypeError("split_with_sizes_copy(): argument 'split_sizes' must be tuple of ints, not "
                        f"{type(split_sizes).__name__}")
    return _many(input.split(list(split_sizes), dim), out, "split_with_sizes_copy")


def squeeze_copy(input, dim=None, *, out=None):
    _check(input, "squeeze_copy")
    return _one(input.squeeze() if dim is None else input.squeeze(dim), out, "squeeze_copy")


def t_copy(input, *, out=None):
    _check(input, "t_copy")
    return _one(input.t(), out, "t_copy")


def transpose_copy(input, dim0, dim1, *, out=None):
    _check(input, "transpose_copy")
    return _one(input.transpose(dim0, dim1), out, "transpose_copy")


def unbind_copy(input, dim=0, *, out=None):
    _check(input, "unbind_copy")
    return _many(input.unbind(dim), out, "unbind_copy")


def unfold_copy(input, dimension, size, step, *, out=None):
    _check(input, "unfold_copy")
    return _one(input.unfold(dimension, size, step), out, "unfold_copy")


def unsqueeze_copy(input, dim, *, out=None):
    _check(input, "unsqueeze_copy")
    return _one(input.unsqueeze(dim), out, "unsqueeze_copy")


def view_as_real_copy(input, *, out=None):
    _check(input, "view_as_real_copy")
    return _one(_C._view_as_real(input), out, "view_as_real_copy")


def view_as_complex_copy(input, *, out=None):
    _check(input, "view_as_complex_copy")
    return _one(_C._view_as_complex(input), out, "view_as_complex_copy")
