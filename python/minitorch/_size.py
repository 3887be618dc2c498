"""minitorch.Size: the tuple subclass returned by Tensor.shape / Tensor.size()."""
import operator


class Size(tuple):
    """A tuple of ints describing a tensor's shape, printed as ``minitorch.Size([2, 3])``."""

    __slots__ = ()
    __module__ = "minitorch"

    def __new__(cls, sizes=()):
        items = []
        for i, s in enumerate(sizes):
            try:
                items.append(operator.index(s))
            except TypeError:
                raise TypeError(f"minitorch.Size() takes an iterable of 'int' (item {i} is "
                                f"'{type(s).__name__}')") from None
        return super().__new__(cls, items)

    def __repr__(self):
        return f"minitorch.Size({list(self)!r})"

    __str__ = __repr__

    def numel(self):
        n = 1
        for s in self:
            n *= s
        return n

    def __getitem__(self, key):
        r = super().__getitem__(key)
        return Size(r) if isinstance(key, slice) else r

    def __add__(self, other):
        if not isinstance(other, tuple):
            return NotImplemented
        return Size(tuple(self) + tuple(other))

    def __radd__(self, other):
        if not isinstance(other, tuple):
            return NotImplemented
        return Size(tuple(other) + tuple(self))

    def __mul__(self, n):
        return Size(tuple(self) * n)

    __rmul__ = __mul__

    def __reduce__(self):
        return (Size, (tuple(self),))
