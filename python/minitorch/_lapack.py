"""The bridge between minitorch.linalg and the batched LAPACK drivers of aten_lite/lapack.c.

Operands are laid out as the drivers take them (Note [Batched column-major operands] in
aten_lite/lapack.h), the checks every decomposition shares (dimensions, square matrices,
dtypes) raise torch's errors, LAPACK's info codes become torch's LinAlgError messages, and
out= arguments are filled as torch's linear algebra fills them (same dtype, resized)."""
import os as _os
from collections import namedtuple as _namedtuple

from . import _C, _broadcasting
from ._reductions import _scalar_type_name


class LinAlgError(RuntimeError):
    """A decomposition failed on its input: singular, not positive-definite, no convergence
    (torch.linalg.LinAlgError; a RuntimeError)."""


LinAlgError.__module__ = "minitorch.linalg"


def _lapack_path():
    """The library LAPACK comes from (See Note [Run-time LAPACK] in aten_lite/lapack.h):
    $MINITORCH_LAPACK, else the library $MINITORCH_BLAS names, else scipy-openblas32 (also
    when MINITORCH_BLAS=0 keeps the products on the built-in GEMM)."""
    path = _os.environ.get("MINITORCH_LAPACK", "")
    if path:
        return path
    blas = _os.environ.get("MINITORCH_BLAS", "")
    if blas and blas != "0":
        return blas
    try:
        import scipy_openblas32
    except ImportError:
        return None
    return _os.path.join(scipy_openblas32.get_lib_dir(), scipy_openblas32.get_library(fullname=True))


_C._lapack_set_path(_lapack_path())

LAPACK_DTYPES = (_C.float32, _C.float64, _C.complex64, _C.complex128)
_LOW = (_C.float16, _C.bfloat16)


def return_type(name, fields):
    """A named tuple class as torch.return_types.<name>."""
    cls = _namedtuple(name, fields)
    cls.__module__ = "minitorch.return_types"
    cls.__qualname__ = name

    def __repr__(self):
        body = ",\n".join(f"{f}={getattr(self, f)!r}" for f in fields)
        return f"minitorch.return_types.{name}(\n{body})"
    cls.__repr__ = __repr__
    return cls


# ---- argument checks ---------------------------------------------------------------------

def check_tensor(x, fname, name, pos=None):
    if not isinstance(x, _C.TensorBase):
        where = f" (position {pos})" if pos is not None else ""
        raise TypeError(f"{fname}(): argument '{name}'{where} must be Tensor, not {type(x).__name__}")


def check_matrix(A, fname, name="A", square=False):
    """At least 2-D, and square when asked (torch's messages)."""
    if A.dim() < 2:
        raise RuntimeError(f"{fname}: The input tensor {name} must have at least 2 dimensions.")
    if square and A.size(-1) != A.size(-2):
        raise RuntimeError(f"{fname}: {name} must be batches of square matrices, but they are "
                           f"{A.size(-2)} by {A.size(-1)} matrices")


def check_dtype(A, fname):
    """A dtype LAPACK has routines for: float32, float64, complex64, complex128."""
    if A.dtype in LAPACK_DTYPES:
        return
    if A.dtype in _LOW:
        raise NotImplementedError(f"{fname}: Low precision dtypes not supported. Got "
                                  f"{_scalar_type_name(A.dtype)}")
    raise NotImplementedError(f"{fname}: Expected a floating point or complex tensor as input. "
                              f"Got {_scalar_type_name(A.dtype)}")


def check_same_dtype(A, B, fname, an="A", bn="B"):
    if A.dtype != B.dtype:
        raise RuntimeError(f"{fname}: Expected {an} and {bn} to have the same dtype, but found {an} "
                           f"of type {_scalar_type_name(A.dtype)} and {bn} of type "
                           f"{_scalar_type_name(B.dtype)} instead")


def real_dtype(dt):
    return {_C.complex64: _C.float32, _C.complex128: _C.float64}.get(dt, dt)


def complex_dtype(dt):
    return {_C.float32: _C.complex64, _C.float64: _C.complex128}.get(dt, dt)


def eps(dt):
    return 1.1920928955078125e-07 if real_dtype(dt) == _C.float32 else 2.220446049250313e-16


# ---- operands ------------------------------------------------------------------------------

def fortran(A, dtype=None):
    """A fresh batched column-major copy of A (converted to dtype): the drivers write into
    their operands."""
    s = tuple(A.shape)
    buf = _C.empty(s[:-2] + (s[-1], s[-2]), dtype=dtype or A.dtype, device=A.device)
    buf.copy_(A.mT)
    return buf.mT


def fortran_empty(shape, dtype, device):
    """An uninitialised batched column-major tensor of `shape` on `device` (a driver operand:
    one on a device is staged through the host, Note [LAPACK on device tensors])."""
    s = tuple(shape)
    return _C.empty(s[:-2] + (s[-1], s[-2]), dtype=dtype, device=device).mT


def fortran_readonly(A):
    """A itself when it is laid out as a driver operand already (an input the driver only
    reads), else a copy."""
    return A if A.mT.is_contiguous() else fortran(A)


def info_tensor(batch, device):
    return _C.empty(tuple(batch), dtype=_C.int32, device=device)


def batch_shape(*ts):
    """The broadcast shape of the batch dims (all but the last two) of matrices ts."""
    shapes = [tuple(t.shape)[:-2] for t in ts]
    if all(s == shapes[0] for s in shapes):
        return shapes[0]
    return tuple(_broadcasting.broadcast_shapes(*shapes))


def first_error(info):
    """(flat index, code) of the first nonzero info, or None."""
    if info.numel() == 0:
        return None
    flat = info.reshape(-1)
    bad = flat.ne(0)
    if not bool(bad.any()):
        return None
    i = int(bad.nonzero()[0, 0])
    return i, int(flat[i])


def raise_info(info, fname, message, batched, cls=None):
    """Raises cls (LinAlgError) with message(code) for the first matrix whose info is not 0,
    prefixed by its batch index when the input is a batch (torch's messages)."""
    err = first_error(info)
    if err is None:
        return
    i, code = err
    if code < 0:
        raise RuntimeError(f"{fname}: Argument {-code} has illegal value. Most certainly there "
                           "is a bug in the implementation calling the backend library.")
    prefix = f"(Batch element {i}): " if batched else ""
    raise (cls or LinAlgError)(f"{fname}: {prefix}{message(code)}")


# ---- out= ------------------------------------------------------------------------------------

_CPP_NAMES = {
    _C.float32: "float", _C.float64: "double", _C.complex64: "c10::complex<float>",
    _C.complex128: "c10::complex<double>", _C.int32: "int", _C.int64: "long int",
    _C.float16: "c10::Half", _C.bfloat16: "c10::BFloat16", _C.bool: "bool",
    _C.uint8: "unsigned char", _C.int8: "signed char", _C.int16: "short int",
}


def check_out_grad(fname, *inputs):
    """torch's error for out= when an input requires grad (for composites whose result is
    computed without a history)."""
    if _C.is_grad_enabled() and any(isinstance(t, _C.TensorBase) and t.requires_grad
                                    for t in inputs):
        raise RuntimeError(f"{fname}(): functions with out=... arguments don't support automatic "
                           "differentiation, but one of the arguments requires grad.")


def store_out(out, r, fname):
    """r written into the out= tensor out (its dtype must be r's; resized as torch resizes
    outputs); returns out."""
    if not isinstance(out, _C.TensorBase):
        raise TypeError(f"{fname}(): argument 'out' must be Tensor, not {type(out).__name__}")
    check_out_grad(fname, r, out)
    if out.dtype != r.dtype:
        raise RuntimeError(f"Expected out tensor to have dtype {_CPP_NAMES.get(r.dtype, r.dtype)}, "
                           f"but got {_CPP_NAMES.get(out.dtype, out.dtype)} instead")
    if tuple(out.shape) != tuple(r.shape):
        _C._resize_output(out, tuple(r.shape))
    out.copy_(r)
    return out


def store_outs(out, rs, fname, cls):
    """Results rs written into the tuple of out= tensors; returns cls(*out)."""
    if not isinstance(out, (tuple, list)) or len(out) != len(rs):
        raise TypeError(f"{fname}(): argument 'out' must be tuple of {len(rs)} Tensors")
    for o, r in zip(out, rs):
        store_out(o, r, fname)
    return cls(*out)
