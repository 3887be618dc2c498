"""The legacy typed constructors: ``minitorch.FloatTensor``, ``LongTensor``, ... (as torch's).

``FloatTensor(data)`` copies data into a float32 tensor, ``FloatTensor(2, 3)`` or
``FloatTensor(Size([2, 3]))`` makes a zero-filled one (torch leaves it uninitialised),
``FloatTensor()`` an empty one and ``FloatTensor(t)`` aliases a float32 tensor t.
``isinstance(t, minitorch.FloatTensor)`` is true for float32 tensors, and
``t.type(minitorch.DoubleTensor)`` converts."""
from . import _C
from ._size import Size
from ._C import TensorBase as Tensor

__all__ = ["FloatTensor", "DoubleTensor", "HalfTensor", "BFloat16Tensor", "ByteTensor",
           "CharTensor", "ShortTensor", "IntTensor", "LongTensor", "BoolTensor"]


def _scalar_name(t):
    """torch's ScalarType name of t's dtype ("Float", "Long"), from its legacy type name."""
    return t.type().rsplit(".", 1)[1][:-len("Tensor")]


class _LegacyTensorType(type):
    def __instancecheck__(cls, obj):
        return isinstance(obj, Tensor) and obj.dtype == cls.dtype

    def __call__(cls, *args, device=None):
        if device is not None and _C.device(device).type != "cpu":
            raise RuntimeError(f"{cls.__name__}(): legacy constructors make CPU tensors only, "
                               f"got device '{device}'")
        if not args:
            return _C.empty(0, dtype=cls.dtype)
        first = args[0]
        if len(args) == 1 and isinstance(first, Tensor):
            if first.dtype != cls.dtype:
                raise TypeError(f"expected {cls.__name__[:-len('Tensor')]} (got "
                                f"{_scalar_name(first)})")
            return first.view_as(first)
        if len(args) == 1 and not isinstance(first, (int, Size)):
            if isinstance(first, (str, bytes, float)):
                raise TypeError(f"{cls.__name__}(): expected a sequence or sizes, got "
                                f"{type(first).__name__}")
            return _C.tensor(first, dtype=cls.dtype)
        sizes = tuple(first) if len(args) == 1 and isinstance(first, Size) else args
        for s in sizes:
            if isinstance(s, bool) or not isinstance(s, int):
                raise TypeError(f"{cls.__name__}(): sizes must be ints, got "
                                f"{type(s).__name__}")
        return _C.zeros(*sizes, dtype=cls.dtype)

    def __repr__(cls):
        return f"<class 'minitorch.{cls.__name__}'>"


def _make(name, dtype):
    return _LegacyTensorType(name, (), {"dtype": dtype, "__module__": "minitorch",
                                        "__doc__": f"Legacy constructor of {dtype} tensors."})


FloatTensor = _make("FloatTensor", _C.float32)
DoubleTensor = _make("DoubleTensor", _C.float64)
HalfTensor = _make("HalfTensor", _C.float16)
BFloat16Tensor = _make("BFloat16Tensor", _C.bfloat16)
ByteTensor = _make("ByteTensor", _C.uint8)
CharTensor = _make("CharTensor", _C.int8)
ShortTensor = _make("ShortTensor", _C.int16)
IntTensor = _make("IntTensor", _C.int32)
LongTensor = _make("LongTensor", _C.int64)
BoolTensor = _make("BoolTensor", _C.bool)

_c_type = Tensor._type


def tensor_type(self, dtype=None, non_blocking=False, **kwargs):
    """type() -> 'minitorch.FloatTensor'; type(dtype, a type name or a legacy class) converts."""
    if isinstance(dtype, _LegacyTensorType):
        dtype = dtype.dtype
    return _c_type(self, dtype, non_blocking, **kwargs)


tensor_type.__name__ = "type"
