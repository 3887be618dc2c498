"""Complex tensors: real/imag views, view_as_real/view_as_complex, conj, angle, sgn.

conj() materialises the conjugate (there is no lazy conjugate bit), so is_conj() is always
False and resolve_conj() returns its input; see README."""
from . import _C
from ._C import TensorBase as Tensor
from ._checks import scalar_type_name

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


def isreal(input):
    """Elementwise: whether the value has no imaginary part (True everywhere for real dtypes)."""
    _tensor_arg("isreal", input)
    if input.dtype.is_complex:
        return input.imag == 0
    return input.new_ones(input.shape, dtype=_C.bool)




def cfloat(self):
    return self.to(_C.complex64)


def cdouble(self):
    return self.to(_C.complex128)


def _complex_parts(fname, a, b, names):
    for pos, (x, name) in enumerate(zip((a, b), names), 1):
        if not isinstance(x, Tensor):
            raise TypeError(f"{fname}(): argument '{name}' (position {pos}) must be Tensor, not "
                            f"{type(x).__name__}")
    ok = (_C.float32, _C.float64)
    if a.dtype not in ok + (_C.float16,) or b.dtype not in ok + (_C.float16,):
        raise NotImplementedError("Expected both inputs to be Half, Float or Double tensors but "
                                  f"got {scalar_type_name(a.dtype)} and "
                                  f"{scalar_type_name(b.dtype)}")
    if a.dtype != b.dtype:
        raise RuntimeError(f"Expected object of scalar type {scalar_type_name(a.dtype)} but got "
                           f"scalar type {scalar_type_name(b.dtype)} for second argument")
    if a.dtype == _C.float16:
        raise NotImplementedError(f"{fname}(): complex32 (ComplexHalf) tensors are not "
                                  "supported; use Float or Double inputs")


def _store(out, r, fname):
    if out is None:
        return r
    if not isinstance(out, Tensor):
        raise TypeError(f"{fname}(): argument 'out' must be Tensor, not {type(out).__name__}")
    if out.dtype != r.dtype:
        raise RuntimeError(f"Expected object of scalar type {scalar_type_name(r.dtype)} but got "
                           f"scalar type {scalar_type_name(out.dtype)} for argument 'out'")
    out.resize_(r.shape)
    out.copy_(r)
    return out


def complex(real, imag, *, out=None):
    """real + i imag, broadcast, as a complex tensor of the matching precision
    (differentiable in both parts)."""
    _complex_parts("complex", real, imag, ("real", "imag"))
    from ._op_forms import FORMS  # the recorded forms (this module defines some of them)
    real, imag = FORMS["broadcast_tensors"](real, imag)
    return _store(out, FORMS["view_as_complex"](FORMS["stack"]((real, imag), -1)), "complex")


def polar(abs, angle, *, out=None):
    """abs (cos angle + i sin angle), broadcast (differentiable in both)."""
    _complex_parts("polar", abs, angle, ("abs", "angle"))
    return _store(out, complex(abs * angle.cos(), abs * angle.sin()), "polar")
