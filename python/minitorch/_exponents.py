"""Powers computed in double precision (float_power) and multiplication by powers of two (ldexp)."""
from . import _C
from ._checks import scalar_type_name as _scalar_type_name


def _mt():
    import minitorch
    return minitorch


def _is_complex(x):
    return x.dtype.is_complex if isinstance(x, _C.TensorBase) else isinstance(x, complex)


def _float_power_dtype(input, exponent):
    return _C.complex128 if _is_complex(input) or _is_complex(exponent) else _C.float64


def _as(x, dt):
    return x.to(dt) if isinstance(x, _C.TensorBase) else x


def float_power(input, exponent, *, out=None):
    """input ** exponent computed in float64 (complex128 when either is complex)."""
    if not isinstance(input, _C.TensorBase) and not isinstance(exponent, _C.TensorBase):
        raise TypeError("float_power() received an invalid combination of arguments: one of "
                        "input and exponent must be a Tensor")
    dt = _float_power_dtype(input, exponent)
    if out is not None and out.dtype != dt:
        raise RuntimeError(f"the output given to float_power has dtype {_scalar_type_name(out.dtype)} "
                           f"but the operation's result requires dtype {_scalar_type_name(dt)}")
    return _mt().pow(_as(input, dt), _as(exponent, dt), out=out)


def float_power_(self, exponent):
    dt = _float_power_dtype(self, exponent)
    if self.dtype != dt:
        raise RuntimeError(f"the base given to float_power_ has dtype {_scalar_type_name(self.dtype)} "
                           f"but the operation's result requires dtype {_scalar_type_name(dt)}")
    return self.pow_(_as(exponent, dt))


def _ldexp_dtype(input, other):
    for name, x in (("input", input), ("other", other)):
        if not isinstance(x, _C.TensorBase):
            raise TypeError(f"ldexp(): argument '{name}' (position {1 if name == 'input' else 2}) "
                            f"must be Tensor, not {type(x).__name__}")
    dt = _C.result_type(input, other)
    return dt if (dt.is_floating_point or dt.is_complex) else _C.get_default_dtype()


def ldexp(input, other, *, out=None):
    """input * 2 ** other, in input and other's floating type (integers: the default dtype)."""
    dt = _ldexp_dtype(input, other)
    return _mt().mul(input.to(dt), _mt().pow(2.0, other.to(dt)), out=out)


def ldexp_(self, other):
    dt = _ldexp_dtype(self, other)
    if not _C.can_cast(dt, self.dtype):
        raise RuntimeError(f"ldexp can't be cast to the desired output type "
                           f"{_scalar_type_name(self.dtype)}")
    return self.mul_(_mt().pow(2.0, other.to(dt)))
