"""finfo / iinfo: the numerical limits of a dtype (torch.finfo, torch.iinfo)."""
from . import _C

__all__ = ["finfo", "iinfo"]

# bits, eps, max, tiny (= smallest_normal), resolution (10 ** -decimal digits)
_FLOAT = {
    "float16": (16, 2.0 ** -10, 65504.0, 2.0 ** -14, 1e-3),
    "bfloat16": (16, 2.0 ** -7, 3.3895313892515355e38, 2.0 ** -126, 1e-2),
    "float32": (32, 2.0 ** -23, 3.4028234663852886e38, 2.0 ** -126, 1e-6),
    "float64": (64, 2.0 ** -52, 1.7976931348623157e308, 2.0 ** -1022, 1e-15),
}
_COMPLEX_PARTS = {"complex64": "float32", "complex128": "float64"}
_INT = {"uint8": (8, 0, 255), "int8": (8, -128, 127), "int16": (16, -32768, 32767),
        "int32": (32, -2 ** 31, 2 ** 31 - 1), "int64": (64, -2 ** 63, 2 ** 63 - 1),
        "uint16": (16, 0, 2 ** 16 - 1), "uint32": (32, 0, 2 ** 32 - 1), "uint64": (64, 0, 2 ** 64 - 1)}


def _name(dt, fname):
    if not isinstance(dt, _C.dtype):
        raise TypeError(f"{fname}(): argument 'type' (position 1) must be minitorch.dtype, not "
                        f"{type(dt).__name__}")
    return str(dt).split(".")[-1]


class finfo:
    """Limits of a floating dtype (complex: of its real parts): bits, eps, max, min, tiny,
    smallest_normal, resolution, dtype."""

    def __init__(self, type=None):
        name = _name(type if type is not None else _C.get_default_dtype(), "finfo")
        name = _COMPLEX_PARTS.get(name, name)
        if name not in _FLOAT:
            raise TypeError("minitorch.finfo() requires a floating point input type. Use "
                            "minitorch.iinfo to handle 'minitorch.finfo'")
        self.bits, self.eps, self.max, self.tiny, self.resolution = _FLOAT[name]
        self.min = -self.max
        self.smallest_normal = self.tiny
        self.dtype = name

    def __eq__(self, other):
        return isinstance(other, finfo) and other.dtype == self.dtype

    def __hash__(self):
        return hash(("finfo", self.dtype))

    def __repr__(self):
        return (f"finfo(resolution={self.resolution:g}, min={self.min:g}, max={self.max:g}, "
                f"eps={self.eps:g}, smallest_normal={self.smallest_normal:g}, tiny={self.tiny:g}, "
                f"dtype={self.dtype})")


class iinfo:
    """Limits of an integer dtype: bits, max, min, dtype."""

    def __init__(self, type):
        name = _name(type, "iinfo")
        if name == "bool":
            raise TypeError("minitorch.bool is not supported by minitorch.iinfo")
        if name not in _INT:
            raise TypeError("minitorch.iinfo() requires an integer input type. Use minitorch.finfo "
                            "to handle 'minitorch.iinfo'")
        self.bits, self.min, self.max = _INT[name]
        self.dtype = name

    def __eq__(self, other):
        return isinstance(other, iinfo) and other.dtype == self.dtype

    def __hash__(self):
        return hash(("iinfo", self.dtype))

    def __repr__(self):
        return f"iinfo(min={self.min:g}, max={self.max:g}, dtype={self.dtype})"
