"""Broadcast shapes: broadcast_shapes, broadcast_tensors, broadcast_to."""
import builtins

from ._checks import _check, _check_short


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



def broadcast_to(input, size):
    """input expanded to `size` (a view), by the broadcasting rules."""
    _check(input, "broadcast_to")
    return input.expand(size)


__all__ = ["broadcast_shapes", "broadcast_tensors", "broadcast_to"]
