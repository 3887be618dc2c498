"""Elementwise ops composed from the C kernels (clamp, lerp, comparisons of whole tensors)."""
import builtins

from . import _C
from ._finfo import iinfo


def _check_tensor(x, fname):
    if not isinstance(x, _C.TensorBase):
        raise TypeError(f"{fname}(): argument 'input' must be Tensor, not {type(x).__name__}")


def _category(dt):
    return 3 if dt.is_complex else 2 if dt.is_floating_point else 0 if dt == _C.bool else 1


def _combine_categories(higher, lower):
    """torch's combine_categories: the lower class counts only when its category is higher."""
    if higher is None:
        return lower
    if lower is None:
        return higher
    if _category(higher) < 3 and _category(lower) == 3:
        if _category(higher) == 2:
            return _C.complex128 if higher == _C.float64 else _C.complex64
        return lower
    if _category(higher) >= 2:
        return higher
    if higher == _C.bool or _category(lower) == 2:
        return _C.promote_types(higher, lower)
    return higher


def result_type_of(*operands):
    """torch's result type of several operands at once (tensors with dimensions, then 0-d
    tensors, then Python numbers, each class promoted within itself), as TensorIterator's
    common dtype; torch.result_type is the two-operand case."""
    classes = [None, None, None]
    for x in operands:
        if isinstance(x, _C.TensorBase):
            k, dt = (0 if x.dim() > 0 else 1), x.dtype
        else:
            k, dt = 2, _C.result_type(x, x)
        classes[k] = dt if classes[k] is None else _C.promote_types(classes[k], dt)
    r = _combine_categories(classes[0], _combine_categories(classes[1], classes[2]))
    return _C.get_default_dtype() if r is None else r


def clamp(input, min=None, max=None, *, out=None):
    """Limits input to [min, max] (NaN stays NaN; min > max gives max everywhere); with a tensor
    bound, all three operands are promoted to their common dtype first, as torch."""
    _check_tensor(input, "clamp")
    if min is None and max is None:
        raise RuntimeError("torch.clamp: At least one of 'min' or 'max' must not be None")
    if isinstance(min, _C.TensorBase) or isinstance(max, _C.TensorBase):
        dt = result_type_of(*(x for x in (input, min, max) if x is not None))
        input, min, max = (x.to(dt) if isinstance(x, _C.TensorBase) else x for x in (input, min, max))
    r = input
    if min is not None:
        r = _C.maximum(r, _int_bound(input, min))
    if max is not None:
        r = _C.minimum(r, _int_bound(input, max))
    if r is input:
        r = input.clone()
    if out is not None:
        return _C._store_out(out, r, "clamp")
    return r


def _int_bound(input, b):
    """A Python-int bound of an integer result, limited to that dtype's range: torch compares
    before it converts, so a bound beyond the range limits nothing (it never wraps)."""
    if isinstance(b, int) and not isinstance(b, bool):
        dt = _C.result_type(input, b)
        if dt != _C.bool and not (dt.is_floating_point or dt.is_complex):
            info = iinfo(dt)
            return builtins.min(builtins.max(b, info.min), info.max)
    return b


_TYPEMETA_NAMES = {"bool": "bool", "uint8": "unsigned char", "int8": "signed char",
                   "int16": "short int", "int32": "int", "int64": "long int",
                   "float16": "c10::Half", "bfloat16": "c10::BFloat16", "float32": "float",
                   "float64": "double", "complex64": "c10::complex<float>",
                   "complex128": "c10::complex<double>", "uint16": "unsigned short",
                   "uint32": "unsigned int", "uint64": "unsigned long"}


def _dtype_name(dt):
    """The element type's C++ name ('float', 'double'), as torch's messages print dtypes."""
    return _TYPEMETA_NAMES[str(dt).split(".")[-1]]


def lerp(input, end, weight, *, out=None):
    """input + weight * (end - input), computed as torch does (exact at weight 1)."""
    _check_tensor(input, "lerp")
    if not isinstance(end, _C.TensorBase):
        raise TypeError(f"lerp(): argument 'end' must be Tensor, not {type(end).__name__}")
    if end.dtype != input.dtype:
        raise RuntimeError(f"expected dtype {_dtype_name(input.dtype)} for `end` but got dtype "
                           f"{_dtype_name(end.dtype)}")
    if isinstance(weight, _C.TensorBase) and weight.dtype != input.dtype:
        raise RuntimeError(f"expected dtype {_dtype_name(input.dtype)} for `weight` but got dtype "
                           f"{_dtype_name(weight.dtype)}")
    if not input.dtype.is_floating_point:
        from ._reductions import _scalar_type_name
        kernel = "lerp_kernel_tensor" if isinstance(weight, _C.TensorBase) else "lerp_kernel_scalar"
        raise NotImplementedError(f"\"{kernel}\" not implemented for '{_scalar_type_name(input.dtype)}'")
    diff = _C.sub(end, input)
    if isinstance(weight, _C.TensorBase):
        r = _C._where(_C.lt(_C.abs(weight), 0.5), _C.add(input, _C.mul(weight, diff)),
                     _C.sub(end, _C.mul(diff, _C.sub(1, weight))))
    elif abs(weight) < 0.5:
        r = _C.add(input, _C.mul(diff, weight))
    else:
        r = _C.sub(end, _C.mul(diff, 1 - weight))
    if r.dtype != input.dtype:
        r = r.to(input.dtype)
    if out is not None:
        return _C._store_out(out, r, "lerp")
    return r


def rsub(input, other, *, alpha=1):
    """other - alpha * input."""
    if input.dtype == _C.bool or isinstance(other, bool) or \
            (isinstance(other, _C.TensorBase) and other.dtype == _C.bool):
        return _C.sub(other, input) if isinstance(other, _C.TensorBase) else _C.sub(input, other)
    return _C.sub(other, input, alpha=alpha) if isinstance(other, _C.TensorBase) else \
        _C.add(_C.mul(input, -alpha), other)


def equal(input, other):
    """True when both have the same shape and all elements are equal."""
    _check_tensor(input, "equal")
    _check_tensor(other, "equal")
    if tuple(input.shape) != tuple(other.shape):
        return False
    return bool(_C.eq(input, other).all())


def isclose(input, other, rtol=1e-05, atol=1e-08, equal_nan=False):
    """|input - other| <= atol + rtol * |other|, elementwise (inf == inf)."""
    _check_tensor(input, "isclose")
    if isinstance(other, _C.TensorBase) and other.dtype != input.dtype:
        from ._reductions import _scalar_type_name
        raise RuntimeError(f"{_scalar_type_name(input.dtype)} did not match "
                           f"{_scalar_type_name(other.dtype)}")
    a = input
    b = other
    close = _C.le(_C.abs(_C.sub(a, b)), _C.add(_C.mul(_C.abs(b), rtol), atol))
    if a.dtype.is_floating_point or a.dtype.is_complex:
        # an infinity is close only to itself (the bound above is inf there)
        close = _C.logical_and(close, _C.logical_and(_C.isfinite(a), _C.isfinite(b)))
    close = _C.logical_or(close, _C.eq(a, b))
    if equal_nan and a.dtype.is_floating_point:
        close = _C.logical_or(close, _C.logical_and(_C.isnan(a), _C.isnan(b)))
    return close


def allclose(input, other, rtol=1e-05, atol=1e-08, equal_nan=False):
    return bool(isclose(input, other, rtol, atol, equal_nan).all())
