"""Broadcast shapes: broadcast_shapes, broadcast_tensors, broadcast_to."""
import builtins

from ._checks import _check, _check_short


def _broadcast_shapes(*shapes):
    """The broadcast shape of `shapes` (tuples of ints), each broadcast in turn with the
    shape of those before it, from the last dimension to the first; a mismatch raises the
    message of torch's ops ("The size of tensor a ... at non-singleton dimension i", a the
    shape so far, b the shape that does not fit)."""
    out = ()
    for s in shapes:
        nd = builtins.max(len(out), len(s))
        a = (1,) * (nd - len(out)) + tuple(out)
        b = (1,) * (nd - len(s)) + tuple(s)
        r = [1] * nd
        for i in range(nd - 1, -1, -1):
            if a[i] != b[i] and a[i] != 1 and b[i] != 1:
                raise RuntimeError(f"The size of tensor a ({a[i]}) must match the size of tensor b "
                                   f"({b[i]}) at non-singleton dimension {i}")
            r[i] = b[i] if a[i] == 1 else a[i]
        out = tuple(r)
    return out


def broadcast_shapes(*shapes):
    """The shape tensors of `shapes` broadcast to. Each shape widens a result of ones from
    its last dimension to its first; a dimension that is neither 1 nor the result's raises
    torch's message, naming the argument as it was given."""
    from ._size import Size
    sized = []
    for s in shapes:
        t = (s,) if isinstance(s, int) else s
        _check_short(t, "broadcast_shapes")
        dims = []
        for n in t:
            if isinstance(n, (bool, float)) or not hasattr(n, "__index__"):
                raise TypeError(f"broadcast_shapes(): shapes must hold ints, got "
                                f"{type(n).__name__}")
            dims.append(n.__index__())
        sized.append((s, tuple(dims)))
    out = [1] * builtins.max((len(d) for _, d in sized), default=0)
    for k, (s, dims) in enumerate(sized):
        for i in range(-1, -len(dims) - 1, -1):
            if dims[i] == 1 or dims[i] == out[i]:
                continue
            if out[i] != 1:
                raise RuntimeError(f"Attempting to broadcast a dimension of length {dims[i]} at "
                                   f"{i}! Mismatching argument at index {k} had "
                                   f"{(s,) if isinstance(s, int) else s!r}; but expected shape "
                                   f"should be broadcastable to {out}")
            if dims[i] < 0:
                raise ValueError("Attempting to broadcast a dimension with negative length!")
            out[i] = dims[i]
    return Size(out)


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
