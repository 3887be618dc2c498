"""Norms: linalg.vector_norm (the primitive, with its derivative formula), linalg.matrix_norm,
linalg.norm, linalg.cond, and torch.norm's dispatch over them, with torch's rules, dtypes and
errors."""
import builtins
import math
import numbers

from . import _C, _op_forms
from . import _lapack as la
from ._reductions import _scalar_type_name, _numel_reduced


# The recorded form of op-table row `name` (composites call primitives through it); the dict
# is filled when minitorch.linalg and the top-level functions are built.
_op = _op_forms.FORMS.__getitem__


def _opmath(x):
    """float16/bfloat16 values summed in float32 (as torch's accumulate type)."""
    return x.float() if x.dtype in (_C.float16, _C.bfloat16) else x


def _vector_dtype(x, dtype, fname):
    """The tensor vector_norm reduces: x, or x converted to dtype= (torch's checks)."""
    if not (x.dtype.is_floating_point or x.dtype.is_complex):
        raise NotImplementedError(f"{fname}: Expected a floating point or complex tensor as "
                                  f"input. Got {_scalar_type_name(x.dtype)}")
    if dtype is None:
        return x
    if not isinstance(dtype, _C.dtype):
        raise TypeError(f"{fname.replace('.', '_')}(): argument 'dtype' must be torch.dtype, not "
                        f"{type(dtype).__name__}")
    if x.dtype.is_complex and not dtype.is_complex:
        raise RuntimeError(f"{fname}: dtype should be complex for complex inputs, but got "
                           f"{_scalar_type_name(dtype)}")
    if not (dtype.is_floating_point or dtype.is_complex) or \
            _C.promote_types(x.dtype, dtype) != dtype:
        raise RuntimeError(f"{fname}: the dtype of the input ({_scalar_type_name(x.dtype)}) "
                           "should be convertible without narrowing to the specified dtype "
                           f"({_scalar_type_name(dtype)})")
    return x.to(dtype)


def _check_ord_number(ord, fname):
    if isinstance(ord, _C.TensorBase) and ord.numel() == 1 and not ord.dtype.is_complex:
        return ord.item()
    if isinstance(ord, builtins.bool) or not isinstance(ord, numbers.Real):
        raise TypeError(f"{fname}(): argument 'ord' must be Number, not {type(ord).__name__}")
    return ord


def linalg_vector_norm(x, ord=2, dim=None, keepdim=False, *, dtype=None, out=None):
    """(sum |x|^ord)^(1/ord) over dim (all dims when None); ord inf/-inf: the largest/smallest
    modulus, 0: the count of nonzeros.  The result is real (complex inputs too)."""
    la.check_tensor(x, "linalg_vector_norm", "input", 1)
    ord = _check_ord_number(ord, "linalg_vector_norm")
    x = _vector_dtype(x, dtype, "linalg.vector_norm")
    if isinstance(dim, (list, tuple)) and len(dim) == 0:
        dim = None
    a = _C.abs(_opmath(x))
    if ord in (math.inf, -math.inf) and _numel_reduced(x, dim) == 0:
        raise RuntimeError(f"linalg.vector_norm cannot compute the {'' if ord > 0 else '-'}inf "
                           "norm on an empty tensor because the operation does not have an "
                           "identity")
    if ord == math.inf:
        r = _C.amax(a, dim, keepdim) if a.numel() else _C.sum(a, dim, keepdim)
    elif ord == -math.inf:
        r = _C.amin(a, dim, keepdim)
    elif ord == 0:
        r = _C.sum(_C.ne(a, 0), dim, keepdim).to(a.dtype)
    elif ord == 1:
        r = _C.sum(a, dim, keepdim)
    elif ord == 2:
        r = _C.sqrt(_C.sum(_C.mul(a, a), dim, keepdim))
    else:
        r = _C.pow(_C.sum(_C.pow(a, ord), dim, keepdim), 1.0 / ord)
    rdt = la.real_dtype(x.dtype)
    if r.dtype != rdt:
        r = r.to(rdt)
    return la.store_out(out, r, "linalg_vector_norm") if out is not None else r


_MATRIX_ORDS = ("fro", "nuc", math.inf, -math.inf, 1, -1, 2, -2)


def _matrix_dims(A, dim):
    if not isinstance(dim, (list, tuple)) or len(dim) != 2:
        got = " ".join(str(d) for d in dim) if isinstance(dim, (list, tuple)) else dim
        raise RuntimeError(f"linalg.matrix_norm: dim must be a 2-tuple. Got {got}")
    nd = A.dim()
    d0, d1 = dim
    for d in (d0, d1):
        if not -nd <= d < nd:
            raise IndexError(f"Dimension out of range (expected to be in range of [{-nd}, "
                             f"{nd - 1}], but got {d})")
    d0, d1 = d0 % nd, d1 % nd
    if d0 == d1:
        raise RuntimeError(f"linalg.matrix_norm: dims must be different. Got ({dim[0]}, {dim[1]})")
    return d0, d1


def linalg_matrix_norm(A, ord="fro", dim=(-2, -1), keepdim=False, *, dtype=None, out=None):
    """Matrix norms over the two dims: 'fro', 'nuc' (sum of singular values), 2/-2 (largest /
    smallest singular value), 1/-1 (max/min column sum of moduli), inf/-inf (row sums)."""
    la.check_tensor(A, "linalg_matrix_norm", "input", 1)
    if A.dim() < 2:
        raise RuntimeError("linalg.matrix_norm: The input tensor A must have at least 2 "
                           "dimensions.")
    d0, d1 = _matrix_dims(A, dim)
    if ord not in _MATRIX_ORDS or isinstance(ord, builtins.bool):
        raise RuntimeError(f"linalg.matrix_norm: Order {ord} not supported.")
    x = _vector_dtype(A, dtype, "linalg.matrix_norm")
    if ord == "fro":
        r = _op("linalg_vector_norm")(x, 2, (d0, d1), keepdim)
    elif ord in ("nuc", 2, -2):
        la.check_dtype(x, "linalg.matrix_norm")
        S = _op("linalg_svdvals")(x.movedim((d0, d1), (-2, -1)))
        r = S.sum(-1) if ord == "nuc" else S.amax(-1) if ord == 2 else S.amin(-1)
        if keepdim:
            for d in sorted((d0, d1)):
                r = r.unsqueeze(d)
    else:
        reduce_first, then = (d0, d1) if ord in (1, -1) else (d1, d0)
        s = _op("linalg_vector_norm")(x, 1, reduce_first, True)
        r = s.amax(then, True) if ord > 0 else s.amin(then, True)
        if not keepdim:
            r = r.squeeze((d0, d1))
    return la.store_out(out, r, "linalg_matrix_norm") if out is not None else r


def linalg_norm(A, ord=None, dim=None, keepdim=False, *, out=None, dtype=None):
    """A vector norm (ord=None, a 1-D input or one dim) or a matrix norm (a 2-D input with
    ord, or two dims), as torch.linalg.norm chooses."""
    la.check_tensor(A, "linalg_norm", "input", 1)
    if dim is not None:
        dims = [dim] if isinstance(dim, int) else dim
        if not isinstance(dims, (list, tuple)) or not all(isinstance(d, int) for d in dims):
            raise TypeError(f"linalg_norm(): argument 'dim' must be tuple of ints, not "
                            f"{type(dim).__name__}")
        dims = list(dims)
        if len(dims) not in (1, 2):
            raise RuntimeError(f"linalg.norm: If dim is specified, it must be of length 1 or 2. "
                               f"Got {dims}")
    elif ord is not None and A.dim() not in (1, 2):
        raise RuntimeError(f"linalg.norm: If dim is not specified but ord is, the input must be "
                           f"1D or 2D. Got {A.dim()}D.")
    if ord is None:
        return _op("linalg_vector_norm")(A, 2, dim, keepdim, dtype=dtype, out=out)
    matrix = isinstance(ord, str) or (dim is not None and len(dims) == 2) or \
        (dim is None and A.dim() == 2)
    if matrix:
        return linalg_matrix_norm(A, ord, dims if dim is not None else (-2, -1), keepdim,
                                  dtype=dtype, out=out)
    return _op("linalg_vector_norm")(A, ord, dim, keepdim, dtype=dtype, out=out)


def norm(input, p="fro", dim=None, keepdim=False, out=None, dtype=None):
    """torch.norm: the 2-norm over dims for 'fro' (up to two dims), a matrix norm for 'nuc'
    (or 'fro' over more dims: an error as in torch), else a vector p-norm."""
    la.check_tensor(input, "norm", "input", 1)
    if isinstance(p, str):
        if p == "fro" and (dim is None or isinstance(dim, int) or len(dim) <= 2):
            return _op("linalg_vector_norm")(input, 2, dim, keepdim, dtype=dtype, out=out)
        if dim is None:
            dim = list(range(input.dim()))
        return linalg_matrix_norm(input, p, dim, keepdim, dtype=dtype, out=out)
    return _op("linalg_vector_norm")(input, 2.0 if p is None else p, dim, keepdim, dtype=dtype,
                                     out=out)


_COND_ORDS = (None, "fro", "nuc", math.inf, -math.inf, 1, -1, 2, -2)


def linalg_cond(A, p=None, *, out=None):
    """The condition number ||A|| ||A^{-1}|| in norm p: the ratio of extreme singular values
    for p None/2/-2 (any shape), else square matrices (inf where A is singular)."""
    la.check_tensor(A, "linalg_cond", "A", 1)
    if p not in _COND_ORDS or isinstance(p, builtins.bool):
        raise ValueError(f"linalg.cond got an invalid norm type: {p}")
    if p in (None, 2, -2):
        la.check_matrix(A, "linalg.cond")
        la.check_dtype(A, "linalg.svd")
        S = _op("linalg_svdvals")(A)
        if S.size(-1) == 0:
            r = _C.zeros(tuple(A.shape)[:-2], dtype=S.dtype, device=A.device)
        elif p == -2:
            r = S[..., -1] / S[..., 0]
        else:
            r = S[..., 0] / S[..., -1]
    else:
        la.check_matrix(A, f"linalg.cond(ord={p})", square=True)
        la.check_dtype(A, "linalg.cond")
        if A.size(-1) == 0:
            r = _C.zeros(tuple(A.shape)[:-2], dtype=la.real_dtype(A.dtype), device=A.device)
        else:
            inv, info = _op("linalg_inv_ex")(A)
            r = linalg_matrix_norm(A, p) * linalg_matrix_norm(inv, p)
            r = _op("where")(info.gt(0), math.inf, r)
    return la.store_out(out, r, "linalg_cond") if out is not None else r
