"""Argument checks shared by the Python-level ops."""
import builtins
import os

from . import _C


_SCALAR_TYPE_NAMES = {"bool": "Bool", "uint8": "Byte", "int8": "Char", "int16": "Short",
                      "int32": "Int", "int64": "Long", "float16": "Half", "bfloat16": "BFloat16",
                      "float32": "Float", "float64": "Double",
                      "complex64": "ComplexFloat", "complex128": "ComplexDouble",
                      "uint16": "UInt16", "uint32": "UInt32", "uint64": "UInt64"}


def scalar_type_name(dtype):
    """The name torch's messages give a dtype: Float for float32, Long for int64, ..."""
    return _SCALAR_TYPE_NAMES[str(dtype).split(".")[-1]]


# Bytes a tensor object and its impl take at least: a bound used to refuse a result list no
# machine can hold before building any of it.
_VIEW_BYTES = 256


def _check_count_fits(count, bytes_each, fname):
    """Fails at once, as one allocation of that size would, when `count` results of at least
    `bytes_each` bytes cannot fit in this machine's memory (instead of building them one by one
    until memory runs out)."""
    try:
        total = os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (AttributeError, OSError, ValueError):
        total = 1 << 48
    if count * bytes_each > total:
        raise RuntimeError(f"{fname}: {count} results would need more memory than this machine "
                           f"has ({total} bytes)")


def _check_short(seq, what):
    """A size or dims argument is at most 64 long: refuses a longer one (a huge tensor, say)
    before iterating it."""
    n = len(seq) if hasattr(seq, "__len__") else 0
    if n > 64:
        raise RuntimeError(f"{what}: at most 64 dimensions are supported, got a sequence of {n}")


def _check(x, fname, what="input"):
    if not isinstance(x, _C.TensorBase):
        raise TypeError(f"{fname}(): argument '{what}' must be Tensor, not {type(x).__name__}")


def _wrap(dim, ndim):
    n = builtins.max(ndim, 1)
    if not -n <= dim < n:
        raise IndexError(f"Dimension out of range (expected to be in range of [{-n}, {n - 1}], but got {dim})")
    return dim % n


def _dims_arg(dims):
    if isinstance(dims, int):
        return (dims,)
    _check_short(dims, "dims")
    return tuple(dims)


def _legacy_name(dt):
    """torch's scalar-type names in messages: Float, Long, Bool, ..."""
    return {"float32": "Float", "float64": "Double", "float16": "Half", "bfloat16": "BFloat16",
            "int64": "Long", "int32": "Int", "int16": "Short", "int8": "Char", "uint8": "Byte",
            "bool": "Bool", "complex64": "ComplexFloat", "complex128": "ComplexDouble",
            "uint16": "UInt16", "uint32": "UInt32", "uint64": "UInt64"}[str(dt).rsplit(".", 1)[-1]]
