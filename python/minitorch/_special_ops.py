"""Special functions composed in Python: frexp (two C kernels and its out= pair), mvlgamma."""
import math

from . import _C
from ._reductions import _return_type

frexp_ret = _return_type("frexp", ["mantissa", "exponent"])

# the element type names torch's frexp messages use
_TYPE_NAMES = {"float32": "float", "float64": "double", "float16": "c10::Half",
               "bfloat16": "c10::BFloat16", "int32": "int", "int64": "long int", "int16": "short int",
               "int8": "signed char", "uint8": "unsigned char", "bool": "bool"}


def _type_name(dt):
    name = str(dt).split(".")[-1]
    return _TYPE_NAMES.get(name, name)


def frexp(input, *, out=None):
    """input = mantissa * 2 ** exponent, mantissa in [0.5, 1) (or 0), exponent int32."""
    if not isinstance(input, _C.TensorBase):
        raise TypeError(f"frexp(): argument 'input' (position 1) must be Tensor, not "
                        f"{type(input).__name__}")
    if not input.dtype.is_floating_point:
        raise RuntimeError("torch.frexp() only supports floating-point dtypes")
    mantissa, exponent = _C._frexp_parts(input)
    if out is not None:
        if not isinstance(out, (tuple, list)) or len(out) != 2:
            raise TypeError("frexp(): argument 'out' must be tuple of Tensors")
        om, oe = out
        if om.dtype != input.dtype:
            raise RuntimeError("torch.frexp() expects mantissa to have dtype "
                               f"{_type_name(input.dtype)} but got {_type_name(om.dtype)}")
        if oe.dtype != _C.int32:
            raise RuntimeError("torch.frexp() expects exponent to have int dtype but got "
                               f"{_type_name(oe.dtype)}")
        om.resize_(mantissa.shape).copy_(mantissa)
        oe.resize_(exponent.shape).copy_(exponent)
        return frexp_ret(om, oe)
    return frexp_ret(mantissa, exponent)


def mvlgamma(input, p, *, out=None):
    """The multivariate log-gamma function of dimension p:
    log(pi) p (p - 1) / 4 + sum_{j<p} lgamma(input - j / 2) (defined for input > (p - 1) / 2;
    as torch, other values are not refused)."""
    if not isinstance(input, _C.TensorBase):
        raise TypeError(f"mvlgamma(): argument 'input' (position 1) must be Tensor, not "
                        f"{type(input).__name__}")
    if isinstance(p, bool) or not isinstance(p, int):
        raise TypeError(f"mvlgamma(): argument 'p' (position 2) must be int, not "
                        f"{type(p).__name__}")
    if input.dtype == _C.bool:
        raise RuntimeError("The input tensor may not be a boolean tensor.")
    if input.dtype.is_complex:
        raise NotImplementedError("mvlgamma is not implemented for complex tensors")
    if p < 1:
        raise RuntimeError("p has to be greater than or equal to 1")
    x = input if input.dtype.is_floating_point else input.to(_C.get_default_dtype())
    shifts = _C.arange(p, dtype=x.dtype, device=x.device) * -0.5
    r = (x.unsqueeze(-1) + shifts).lgamma().sum(-1) + p * (p - 1) / 4 * math.log(math.pi)
    if out is not None:
        return out.resize_(r.shape).copy_(r)
    return r
