"""Padding layers: constant (and zero), reflection, replication and circular padding of the
last 1, 2 or 3 dims, each a module around nn.functional.pad."""
from .. import functional as F
from .module import Module
from .utils import _ntuple, _pair, _quadruple

__all__ = ["CircularPad1d", "CircularPad2d", "CircularPad3d", "ConstantPad1d", "ConstantPad2d",
           "ConstantPad3d", "ReflectionPad1d", "ReflectionPad2d", "ReflectionPad3d",
           "ReplicationPad1d", "ReplicationPad2d", "ReplicationPad3d", "ZeroPad1d", "ZeroPad2d",
           "ZeroPad3d"]

_sextuple = _ntuple(6, "_sextuple")
# padding sizes of the 1d, 2d and 3d layers: (left, right[, top, bottom[, front, back]])
_EXPAND = {1: _pair, 2: _quadruple, 3: _sextuple}


class _PadNd(Module):
    """F.pad(input, self.padding, mode); the subclasses set the mode and the number of
    padded dims (_k)."""

    __constants__ = ["padding"]
    _mode = "constant"
    _k = 1

    def __init__(self, padding):
        super().__init__()
        self.padding = _EXPAND[self._k](padding)

    def forward(self, input):
        return F.pad(input, self.padding, self._mode)

    def extra_repr(self):
        return f"{self.padding}"


class _CircularPadNd(_PadNd):
    _mode = "circular"

    def _check_input_dim(self, input):
        k = self._k
        if input.dim() != k + 1 and input.dim() != k + 2:
            raise ValueError(f"expected {k + 1}D or {k + 2}D input (got {input.dim()}D input)")

    def forward(self, input):
        self._check_input_dim(input)
        return F.pad(input, self.padding, "circular")


class CircularPad1d(_CircularPadNd):
    """Pads the last dim of (C, W) or (N, C, W) inputs with the values of its other end."""
    _k = 1


class CircularPad2d(_CircularPadNd):
    """Circular padding of the last 2 dims: padding (left, right, top, bottom)."""
    _k = 2


class CircularPad3d(_CircularPadNd):
    """Circular padding of the last 3 dims: (left, right, top, bottom, front, back)."""
    _k = 3


class _ConstantPadNd(_PadNd):
    __constants__ = ["padding", "value"]

    def __init__(self, padding, value):
        super().__init__(padding)
        self.value = value

    def forward(self, input):
        return F.pad(input, self.padding, "constant", self.value)

    def extra_repr(self):
        return f"padding={self.padding}, value={self.value}"


class ConstantPad1d(_ConstantPadNd):
    """Pads the last dim with `value`."""
    _k = 1


class ConstantPad2d(_ConstantPadNd):
    """Pads the last 2 dims with `value`."""
    _k = 2


class ConstantPad3d(_ConstantPadNd):
    """Pads the last 3 dims with `value`."""
    _k = 3


class ZeroPad1d(ConstantPad1d):
    """Pads the last dim with zeros."""

    def __init__(self, padding):
        super().__init__(padding, 0.0)

    def extra_repr(self):
        return f"{self.padding}"


class ZeroPad2d(ConstantPad2d):
    """Pads the last 2 dims with zeros."""

    def __init__(self, padding):
        super().__init__(padding, 0.0)

    def extra_repr(self):
        return f"{self.padding}"


class ZeroPad3d(ConstantPad3d):
    """Pads the last 3 dims with zeros."""

    def __init__(self, padding):
        super().__init__(padding, 0.0)

    def extra_repr(self):
        return f"{self.padding}"


class _ReflectionPadNd(_PadNd):
    _mode = "reflect"


class ReflectionPad1d(_ReflectionPadNd):
    """Pads the last dim with its reflection (the edge value not repeated)."""
    _k = 1


class ReflectionPad2d(_ReflectionPadNd):
    """Reflection padding of the last 2 dims."""
    _k = 2


class ReflectionPad3d(_ReflectionPadNd):
    """Reflection padding of the last 3 dims."""
    _k = 3


class _ReplicationPadNd(_PadNd):
    _mode = "replicate"


class ReplicationPad1d(_ReplicationPadNd):
    """Pads the last dim by repeating its edge values."""
    _k = 1


class ReplicationPad2d(_ReplicationPadNd):
    """Replication padding of the last 2 dims."""
    _k = 2


class ReplicationPad3d(_ReplicationPadNd):
    """Replication padding of the last 3 dims."""
    _k = 3
