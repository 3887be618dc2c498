"""minitorch: a small PyTorch-compatible tensor and distributed-training runtime.

``import minitorch as torch`` gives the torch API subset listed in README.md."""
import builtins as _builtins
import warnings as _warnings

from . import _C
from ._formats import (layout, strided, memory_format, contiguous_format,  # noqa: F401
                       preserve_format, channels_last, channels_last_3d)
from ._size import Size
from ._tensor import Tensor, _check_count_fits
from ._storage import TypedStorage, UntypedStorage
from ._tensor_str import set_printoptions, get_printoptions

_C._set_tensor_class(Tensor)
_C._set_size_class(Size)

__version__ = "0.1.0"

# ---- dtypes -------------------------------------------------------------
dtype = _C.dtype
bool = _C.bool
uint8 = _C.uint8
int8 = _C.int8
int16 = _C.int16
int32 = _C.int32
int64 = _C.int64
float16 = _C.float16
bfloat16 = _C.bfloat16
float32 = _C.float32
float64 = _C.float64
float = float32
double = float64
half = float16
long = int64
int = int32
short = int16

device = _C.device
Storage = TypedStorage

get_default_dtype = _C.get_default_dtype
set_default_dtype = _C.set_default_dtype
set_num_threads = _C.set_num_threads
get_num_threads = _C.get_num_threads

# ---- factories ----------------------------------------------------------
empty = _C.empty
zeros = _C.zeros
ones = _C.ones
full = _C.full
empty_strided = _C.empty_strided
arange = _C.arange
linspace = _C.linspace
logspace = _C.logspace
eye = _C.eye
tensor = _C.tensor
as_tensor = _C.as_tensor
from_numpy = _C.from_numpy


def _like(fn, input, *args, dtype=None, device=None, requires_grad=False, memory_format=None,
          layout=None):
    _C._check_tensor_options(fn.__name__ + "_like", layout, memory_format)
    if not isinstance(input, Tensor):
        raise TypeError(f"{fn.__name__}_like(): argument 'input' must be Tensor, not {type(input).__name__}")
    return fn(input.shape, *args, dtype=input.dtype if dtype is None else dtype,
              device=input.device if device is None else device, requires_grad=requires_grad)


def empty_like(input, **kw):
    """An uninitialised tensor with input's shape, dtype and device."""
    return _like(empty, input, **kw)


def zeros_like(input, **kw):
    return _like(zeros, input, **kw)


def ones_like(input, **kw):
    return _like(ones, input, **kw)


def full_like(input, fill_value, **kw):
    return _like(full, input, fill_value, **kw)


def range(start=0, end=None, step=1, *, dtype=None, device=None, requires_grad=False):
    """Deprecated torch.range: like arange but includes `end`; float by default."""
    _warnings.warn("minitorch.range is deprecated and will be removed in a future release "
                   "because its behavior is inconsistent with Python's range builtin. "
                   "Instead, use minitorch.arange, which produces values in [start, end).",
                   UserWarning, stacklevel=2)
    if end is None:
        start, end = 0, start
    for name, v in (("start", start), ("end", end), ("step", step)):
        # numbers only: anything else would meet NumPy's or the object's own arithmetic
        if not isinstance(v, (_builtins.int, _builtins.float)) and not (
                isinstance(v, Tensor) and v.numel() == 1):
            raise TypeError(f"range(): argument '{name}' must be Number, not {type(v).__name__}")
    start, end, step = (v.item() if isinstance(v, Tensor) else v for v in (start, end, step))
    if step == 0:
        raise RuntimeError("step must be nonzero")
    n = _builtins.int((end - start) // step) + 1
    if n < 0:
        raise RuntimeError("upper bound and larger bound inconsistent with step sign")
    _check_count_fits(n, 48, "range")  # a Python number and a list slot per value
    dt = get_default_dtype() if dtype is None else dtype
    return tensor([start + i * step for i in _builtins.range(n)], dtype=dt, device=device,
                  requires_grad=requires_grad)


# ---- elementwise ops (C) ------------------------------------------------------
from ._C import (  # noqa: E402
    add, sub, mul, div, floor_divide, remainder, fmod, pow, maximum, minimum, atan2,
    eq, ne, lt, le, gt, ge, logical_and, logical_or, logical_xor, bitwise_and, bitwise_or,
    bitwise_xor, bitwise_left_shift, bitwise_right_shift, neg, abs, sign, exp, expm1, log,
    log1p, log2, log10, sqrt, rsqrt, sin, cos, tan, tanh, sigmoid, relu, erf, floor, ceil,
    round, trunc, reciprocal, square, isnan, isinf, isfinite, bitwise_not, logical_not, where,
    result_type, promote_types, can_cast,
)
from ._C import sum, prod, amax, amin, argmax, argmin, all, any, cumsum, cumprod  # noqa: E402
from ._ops import clamp, clip, lerp, rsub, true_divide, equal, allclose, isclose  # noqa: E402
from ._reductions import (  # noqa: E402
    mean, var, std, var_mean, std_mean, norm, logsumexp, max, min, count_nonzero,
)
from . import _tensor_methods  # noqa: E402,F401  (Python-level Tensor methods)

# ---- further op families: one `from ._module import *` line each -----------------
from ._linalg import *  # noqa: E402,F401,F403
from ._random import *  # noqa: E402,F401,F403
from ._shape_ops import *  # noqa: E402,F401,F403
from .distributed._autoload import *  # noqa: E402,F401,F403
from .multiprocessing._autoload import *  # noqa: E402,F401,F403

subtract = sub
multiply = mul
divide = div
negative = neg
absolute = abs
arctan2 = atan2
greater = gt
greater_equal = ge
less = lt
less_equal = le
not_equal = ne

# ---- functional forms of Tensor methods -----------------------------------
def _method(name):
    def f(input, *args, **kwargs):
        if not isinstance(input, Tensor):
            raise TypeError(f"{name}(): argument 'input' must be Tensor, not {type(input).__name__}")
        return getattr(input, name)(*args, **kwargs)
    f.__name__ = f.__qualname__ = name
    f.__doc__ = f"minitorch.{name}(input, ...) is input.{name}(...)."
    return f


for _name in ("reshape", "permute", "transpose", "swapaxes", "swapdims", "t", "squeeze",
              "unsqueeze", "narrow", "select", "flatten", "unflatten", "as_strided", "clone",
              "detach", "chunk", "split", "unbind", "numel", "is_floating_point",
              "masked_fill"):
    globals()[_name] = _method(_name)
del _name


def is_tensor(obj):
    return isinstance(obj, Tensor)


def is_storage(obj):
    return isinstance(obj, _C.StorageBase)


def typename(obj):
    if isinstance(obj, Tensor):
        return obj.type()
    return type(obj).__qualname__


# ---- serialization: see serialization.py (weights-only loading by default) ---
from .serialization import save, load  # noqa: E402
from . import serialization  # noqa: E402,F401

from . import cuda  # noqa: E402
from . import futures  # noqa: E402
from ._legacy import *  # noqa: E402,F401,F403
