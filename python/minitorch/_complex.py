"""Complex tensors: real/imag views, view_as_real/view_as_complex, conj, angle, sgn.

conj() materialises the conjugate (there is no lazy conjugate bit), so is_conj() is always
False and resolve_conj() returns its input; see README."""
from . import _C
from ._tensor import Tensor

__all__ = ["view_as_real", "view_as_complex", "real", "imag", "conj", "conj_physical",
           "resolve_conj", "resolve_neg", "is_conj", "is_neg", "is_complex", "angle", "sgn"]

view_as_real = _C._view_as_real
view_as_complex = _C._view_as_complex
real = _C._real
imag = _C._imag
angle = _C.angle
sgn = _C.sgn
conj_physical = _C.conj_physical


def _tensor_arg(fname, input):
    if not isinstance(input, Tensor):
        raise TypeError(f"{fname}(): argument 'input' (position 1) must be Tensor, not "
                        f"{type(input).__name__}")


def conj(input):
    """The complex conjugate; a real tensor is returned as it is (as torch).  Materialised:
    the result is a new tensor, not a view with a conjugate bit."""
    _tensor_arg("conj", input)
    return _C.conj_physical(input) if input.dtype.is_complex else input


def resolve_conj(input):
    _tensor_arg("resolve_conj", input)
    return input


def resolve_neg(input):
    _tensor_arg("resolve_neg", input)
    return input


def is_conj(input):
    _tensor_arg("is_conj", input)
    return False


def is_neg(input):
    _tensor_arg("is_neg", input)
    return False


def is_complex(input):
    _tensor_arg("is_complex", input)
    return input.dtype.is_complex


def _set_real(self, value):
    _C._real(self).copy_(value)


def _set_imag(self, value):
    _C._imag(self).copy_(value)


Tensor.real = property(_C._real, _set_real, doc="The real part, as a view.")
Tensor.imag = property(_C._imag, _set_imag, doc="The imaginary part, as a view (complex only).")
for _name in ("conj", "resolve_conj", "resolve_neg", "is_conj", "is_neg", "is_complex"):
    setattr(Tensor, _name, globals()[_name])
Tensor.cfloat = lambda self: self.to(_C.complex64)
Tensor.cdouble = lambda self: self.to(_C.complex128)
del _name


def _complex_value(self):
    """complex(t) of a one-element tensor (of any dtype), as torch."""
    return complex(self.item())


Tensor.__complex__ = _complex_value
