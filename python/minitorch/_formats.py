"""``minitorch.layout`` (``strided``, ``sparse_coo``; the compressed sparse layouts are named
only) and ``minitorch.memory_format`` (``contiguous_format``, ``preserve_format``, ``channels_last``, ``channels_last_3d``), as torch's.

``memory_format=`` of to/contiguous/clone/empty/*_like lays tensors out channels-last (see Note
[Memory formats] in aten_lite/memory_format.c); the convolution, pooling and resampling ops give
channels-last inputs channels-last results as torch does (_channels_last_of, _like_format)."""
from . import _C

__all__ = ["layout", "strided", "sparse_coo", "sparse_csr", "sparse_csc", "sparse_bsr",
           "sparse_bsc", "memory_format", "contiguous_format", "preserve_format",
           "channels_last", "channels_last_3d"]


class _Named:
    __slots__ = ("_name",)

    def __init__(self, name):
        self._name = name

    def __repr__(self):
        return f"minitorch.{self._name}"

    def __reduce__(self):
        return self._name  # pickles as the module-level singleton


class layout(_Named):
    """The memory layout of a tensor: ``minitorch.strided`` or ``minitorch.sparse_coo``."""
    __slots__ = ()
    __module__ = "minitorch"


class memory_format(_Named):
    """How a new tensor orders its dimensions in memory."""
    __slots__ = ()
    __module__ = "minitorch"


strided = layout("strided")
# sparse COO tensors: _sparse_coo.py; the compressed sparse layouts have no tensors (named so
# that programs may compare against them)
sparse_coo = layout("sparse_coo")
sparse_csr = layout("sparse_csr")
sparse_csc = layout("sparse_csc")
sparse_bsr = layout("sparse_bsr")
sparse_bsc = layout("sparse_bsc")
contiguous_format = memory_format("contiguous_format")
preserve_format = memory_format("preserve_format")
channels_last = memory_format("channels_last")
channels_last_3d = memory_format("channels_last_3d")

_C._set_formats(strided, preserve_format, contiguous_format, channels_last, channels_last_3d)


def _channels_last_of(*tensors):
    """channels_last / channels_last_3d when one of the tensors' strides suggest it (torch's
    suggest_memory_format), else None: the layout torch gives a convolution's result."""
    for t in tensors:
        if isinstance(t, _C.TensorBase) and t.dim() in (4, 5):
            f = _C._suggest_memory_format(t)
            if f is not contiguous_format:
                return f
    return None


def _in_format(t, fmt):
    """t laid out in fmt (None: as it is); a recorded op (contiguous) when a copy is needed."""
    if fmt is None or t is None or t.dim() != (4 if fmt is channels_last else 5):
        return t
    return t.contiguous(memory_format=fmt)
