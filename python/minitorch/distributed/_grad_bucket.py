"""GradBucket and BuiltinCommHookType: what a DistributedDataParallel communication hook is
given (see Note [Communication hooks] in nn/parallel/_reducer.py)."""
import enum

__all__ = ["GradBucket", "BuiltinCommHookType"]


class GradBucket:
    """One bucket of gradients, as a communication hook sees it: ``buffer()`` is the flat
    tensor holding the bucket's gradients (this rank's, not yet averaged), ``gradients()`` the
    per-parameter views into it, ``parameters()`` the parameters, ``index()`` the bucket's
    number (0 is the bucket of the last layers, reduced first), ``is_last()`` whether it is the
    last bucket of the iteration."""

    def __init__(self, index, buffer, params, offsets, is_last):
        self._index = index
        self._buffer = buffer
        self._params = list(params)
        self._offsets = list(offsets)
        self._is_last = is_last

    def index(self):
        return self._index

    def buffer(self):
        return self._buffer

    def set_buffer(self, buffer):
        """Replaces the flat buffer (same number of elements) the hook's result is read from."""
        if buffer.numel() != self._buffer.numel():
            raise ValueError(f"set_buffer: expected a tensor of {self._buffer.numel()} elements, "
                             f"got {buffer.numel()}")
        self._buffer = buffer

    def gradients(self):
        return [self._buffer.narrow(0, off, p.numel()).view(p.shape)
                for p, off in zip(self._params, self._offsets)]

    def parameters(self):
        return list(self._params)

    def is_last(self):
        return self._is_last

    def __repr__(self):
        return f"GradBucket(index={self._index}, numel={self._buffer.numel()})"


class BuiltinCommHookType(enum.Enum):
    """The hooks DistributedDataParallel.register_builtin_comm_hook knows."""
    ALLREDUCE = 0
    FP16_COMPRESS = 1
