"""Complex tensors: real/imag views, view_as_real/view_as_complex, conj, angle, sgn.

conj() materialises the conjugate (there is no lazy conjugate bit), so is_conj() is always
False and resolve_conj() returns its input; see README."""
from . import _C
from ._C import TensorBase as Tensor

view_as_real = _C._view_as_real
view_as_complex = _C._view_as_complex
real = _C._real
imag = _C._imag


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




def cfloat(self):
    return self.to(_C.complex64)


def cdouble(self):
    return self.to(_C.complex128)
