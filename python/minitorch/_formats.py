"""``minitorch.layout`` (only ``strided``) and ``minitorch.memory_format`` (``contiguous_format``,
``preserve_format``, ``channels_last``, ``channels_last_3d``), as torch's.

minitorch makes row-major tensors: ``memory_format=`` accepts contiguous_format and
preserve_format, ``is_contiguous(memory_format=channels_last)`` answers for any strides, and
asking for a channels-last copy raises NotImplementedError."""
from . import _C

__all__ = ["layout", "strided", "memory_format", "contiguous_format", "preserve_format",
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
    """The memory layout of a tensor; minitorch has ``minitorch.strided`` only."""
    __slots__ = ()
    __module__ = "minitorch"


class memory_format(_Named):
    """How a new tensor orders its dimensions in memory."""
    __slots__ = ()
    __module__ = "minitorch"


strided = layout("strided")
contiguous_format = memory_format("contiguous_format")
preserve_format = memory_format("preserve_format")
channels_last = memory_format("channels_last")
channels_last_3d = memory_format("channels_last_3d")

_C._set_formats(strided, preserve_format, contiguous_format, channels_last, channels_last_3d)
