"""Products and functions of matrices built on matmul: cross (linalg.cross and torch.cross),
vecdot, multi_dot/chain_matmul (in the cheapest order), matrix_power, matrix_exp (the
primitive, with its derivative formula), tensorinv/tensorsolve, linalg.diagonal and
linalg.matmul, with torch's names, arguments and errors."""
import builtins
import operator
import warnings

from . import _C, _broadcasting, _op_forms
from . import _lapack as la
from ._reductions import _scalar_type_name


# The recorded form of op-table row `name` (composites call primitives through it); the dict
# is filled when minitorch.linalg and the top-level functions are built.
_op = _op_forms.FORMS.__getitem__


# ---- cross and vecdot --------------------------------------------------------------------------

def linalg_cross(input, other, *, dim=-1, out=None):
    """The cross product of 3-vectors along dim (the other dims broadcast)."""
    la.check_tensor(input, "linalg_cross", "input", 1)
    la.check_tensor(other, "linalg_cross", "other", 2)
    if input.dim() != other.dim():
        raise RuntimeError("linalg.cross: inputs must have the same number of dimensions.")
    nd = input.dim()
    if not -builtins.max(nd, 1) <= dim < builtins.max(nd, 1):
        raise IndexError(f"Dimension out of range (expected to be in range of [{-nd}, {nd - 1}], "
                         f"but got {dim})")
    if nd == 0 or input.shape[dim] != 3 or other.shape[dim] != 3:
        a = input.shape[dim] if nd else 0
        b = other.shape[dim] if nd else 0
        raise RuntimeError(f"linalg.cross: inputs dimension {dim} must have length 3. Got {a} "
                           f"and {b}")
    if input.dtype != other.dtype:
        raise RuntimeError(f"expected scalar type {_scalar_type_name(input.dtype)} but found "
                           f"{_scalar_type_name(other.dtype)}")
    a, b = _broadcasting.broadcast_tensors(input, other) if input.shape != other.shape else (input, other)

    def part(t, i):
        return t.narrow(dim, i, 1)
    r = _C.cat([part(a, 1) * part(b, 2) - part(a, 2) * part(b, 1),
                part(a, 2) * part(b, 0) - part(a, 0) * part(b, 2),
                part(a, 0) * part(b, 1) - part(a, 1) * part(b, 0)], dim)
    return la.store_out(out, r, "linalg_cross") if out is not None else r


def cross(input, other, dim=None, *, out=None):
    """torch.cross: linalg.cross along dim; without dim, along the first dim of size 3 (with
    torch's deprecation warning)."""
    la.check_tensor(input, "cross", "input", 1)
    la.check_tensor(other, "cross", "other", 2)
    if dim is None:
        warnings.warn("Using torch.cross without specifying the dim arg is deprecated.\nPlease "
                      "either pass the dim explicitly or simply use torch.linalg.cross.\nThe "
                      "default value of dim will change to agree with that of linalg.cross in a "
                      "future release.", UserWarning, stacklevel=2)
        shape = _broadcasting.broadcast_shapes(tuple(input.shape), tuple(other.shape))
        dim = next((i for i, n in enumerate(shape) if n == 3), None)
        if dim is None:
            raise RuntimeError("no dimension of size 3 in input")
    return _op("linalg_cross")(input, other, dim=dim, out=out)


def linalg_vecdot(x, y, *, dim=-1, out=None):
    """sum(conj(x) * y) along dim (the other dims broadcast)."""
    la.check_tensor(x, "linalg_vecdot", "x", 1)
    la.check_tensor(y, "linalg_vecdot", "y", 2)
    la.check_same_dtype(x, y, "linalg.vecdot", "x", "y")
    if not (x.dtype.is_floating_point or x.dtype.is_complex):
        raise NotImplementedError(f"linalg.vecdot: Expected a floating point or complex tensor as "
                                  f"input. Got {_scalar_type_name(x.dtype)}")
    r = ((x.conj() if x.dtype.is_complex else x) * y).sum(dim)
    return la.store_out(out, r, "linalg_vecdot") if out is not None else r


# ---- chains of products ------------------------------------------------------------------------

def _chain_order(dims):
    """The split points of the cheapest parenthesisation of matrices of shapes
    (dims[i], dims[i + 1]) (the textbook dynamic program), as split[i][j]."""
    n = len(dims) - 1
    cost = [[0] * n for _ in range(n)]
    split = [[0] * n for _ in range(n)]
    for length in range(1, n):
        for i in range(n - length):
            j = i + length
            best = None
            for k in range(i, j):
                c = cost[i][k] + cost[k + 1][j] + dims[i] * dims[k + 1] * dims[j + 1]
                if best is None or c < best:
                    best, split[i][j] = c, k
            cost[i][j] = best
    return split


def _multiply(ms, split, i, j):
    if i == j:
        return ms[i]
    k = split[i][j]
    return _multiply(ms, split, i, k) @ _multiply(ms, split, k + 1, j)


def linalg_multi_dot(tensors, *, out=None):
    """The product of two or more matrices in the order of fewest operations; the first may
    be a row vector and the last a column vector given as 1-D tensors."""
    if not isinstance(tensors, (list, tuple)):
        raise TypeError(f"linalg_multi_dot(): argument 'tensors' (position 1) must be tuple of "
                        f"Tensors, not {type(tensors).__name__}")
    n = len(tensors)
    if n < 2:
        raise RuntimeError(f"multi_dot(): expected at least 2 tensors but got {n}")
    for i, t in enumerate(tensors):
        la.check_tensor(t, "linalg_multi_dot", "tensors", 1)
    first, last = tensors[0], tensors[-1]
    if first.dim() not in (1, 2):
        raise RuntimeError(f"multi_dot(): the first tensor must be 1D or 2D but got {first.dim()}D")
    if last.dim() not in (1, 2):
        raise RuntimeError(f"multi_dot(): the last tensor must be 1D or 2D but got {last.dim()}D")
    for i in range(1, n - 1):
        if tensors[i].dim() != 2:
            raise RuntimeError(f"multi_dot(): tensor {i} must be 2D but got {tensors[i].dim()}D")
    for i in range(1, n):
        if tensors[i].dtype != first.dtype:
            raise RuntimeError(f"multi_dot(): all tensors must have be the same dtype but tensor 0 "
                               f"is {la._CPP_NAMES.get(first.dtype)} and tensor {i} "
                               f"{la._CPP_NAMES.get(tensors[i].dtype)}")
    ms = list(tensors)
    if first.dim() == 1:
        ms[0] = first.unsqueeze(0)
    if last.dim() == 1:
        ms[-1] = last.unsqueeze(-1)
    for i in range(n - 1):
        if ms[i].shape[1] != ms[i + 1].shape[0]:
            raise RuntimeError(f"multi_dot(): tensors {i} and {i + 1} with shapes "
                               f"{list(tensors[i].shape)} and {list(tensors[i + 1].shape)} "
                               "cannot be multiplied")
    dims = [ms[0].shape[0]] + [m.shape[1] for m in ms]
    r = _multiply(ms, _chain_order(dims), 0, n - 1)
    if first.dim() == 1:
        r = r.squeeze(0)
    if last.dim() == 1:
        r = r.squeeze(-1)
    return la.store_out(out, r, "linalg_multi_dot") if out is not None else r


def chain_matmul(*matrices, out=None):
    """Deprecated: linalg.multi_dot of 2-D matrices."""
    warnings.warn("torch.chain_matmul is deprecated and will be removed in a future PyTorch "
                  "release. Use torch.linalg.multi_dot instead, which accepts a list of two or "
                  "more tensors rather than multiple parameters.", UserWarning, stacklevel=2)
    if len(matrices) == 1 and isinstance(matrices[0], (list, tuple)):
        matrices = tuple(matrices[0])
    for i, m in enumerate(matrices):
        la.check_tensor(m, "chain_matmul", "matrices", 1)
        if m.dim() != 2:
            raise RuntimeError(f"Tensor dimension is {m.dim()}, expected 2 instead.")
    if len(matrices) == 0:
        raise RuntimeError("chain_matmul(): Expected one or more matrices")
    if len(matrices) == 1:
        r = matrices[0].clone()
        return la.store_out(out, r, "chain_matmul") if out is not None else r
    return linalg_multi_dot(list(matrices), out=out)


def linalg_matrix_power(A, n, *, out=None):
    """A^n by repeated squaring (n < 0: of A's inverse; n = 0: the identity)."""
    la.check_tensor(A, "linalg_matrix_power", "A", 1)
    if isinstance(n, builtins.bool) or not isinstance(n, int):
        try:
            n = operator.index(n)
        except TypeError:
            raise TypeError(f"linalg_matrix_power(): argument 'n' (position 2) must be int, not "
                            f"{type(n).__name__}") from None
    la.check_matrix(A, "linalg.matrix_power", square=True)
    if n == 0:
        r = _C.zeros(tuple(A.shape), dtype=A.dtype, device=A.device)
        r.diagonal(dim1=-2, dim2=-1).fill_(1)
    else:
        base = _op("linalg_inv")(A) if n < 0 else A
        k = abs(n)
        r = None
        while True:
            if k & 1:
                r = base if r is None else r @ base
            k >>= 1
            if not k:
                break
            base = base @ base
        if r is A:
            r = A.clone()
    return la.store_out(out, r, "linalg_matrix_power") if out is not None else r


def matrix_power(input, n, *, out=None):
    return linalg_matrix_power(input, n, out=out)


# ---- the matrix exponential ----------------------------------------------------------------

# Note [Matrix exponential]
# exp(A) by scaling and squaring with the [13/13] Pade approximant (Higham, "The scaling and
# squaring method for the matrix exponential revisited", 2005): each matrix is scaled by 2^-s,
# s the least with ||A||_1 / 2^s <= theta_13, the approximant r(B) = (V - U)^{-1} (V + U) is
# evaluated with six products and one solve, and squared s times (each matrix of a batch its
# own number of times).  float16/bfloat16 inputs are computed in float32.
_PADE13 = (64764752532480000.0, 32382376266240000.0, 7771770303897600.0, 1187353796428800.0,
           129060195264000.0, 10559470521600.0, 670442572800.0, 33522128640.0, 1323241920.0,
           40840800.0, 960960.0, 16380.0, 182.0, 1.0)
_THETA13 = 5.371920351148152


def _expm(A):
    b = _PADE13
    n = A.size(-1)
    norm1 = A.abs().sum(-2).amax(-1)                     # the 1-norm of each matrix
    finite = norm1.isfinite()
    ratio = _C._where(finite, norm1, 0.0) / _THETA13
    s = _C.ceil(_C.log2(_C._where(ratio.gt(1), ratio, 1.0))).to(_C.int64)
    smax = int(s.amax()) if s.numel() else 0
    B = A / (2.0 ** s.to(la.real_dtype(A.dtype))).unsqueeze(-1).unsqueeze(-1).to(A.dtype)
    I = _C.zeros((n, n), dtype=A.dtype, device=A.device)
    I.diagonal().fill_(1)
    B2 = B @ B
    B4 = B2 @ B2
    B6 = B4 @ B2
    U = B @ (B6 @ (b[13] * B6 + b[11] * B4 + b[9] * B2) + b[7] * B6 + b[5] * B4 + b[3] * B2 +
             b[1] * I)
    V = B6 @ (b[12] * B6 + b[10] * B4 + b[8] * B2) + b[6] * B6 + b[4] * B4 + b[2] * B2 + b[0] * I
    R = _op("linalg_solve_ex")(V - U, V + U)[0]
    for i in range(smax):
        squared = R @ R
        R = _C._where(s.gt(i).unsqueeze(-1).unsqueeze(-1), squared, R)
    return R


def linalg_matrix_exp(A):
    """The matrix exponential of square matrices (See Note [Matrix exponential])."""
    la.check_tensor(A, "linalg_matrix_exp", "A", 1)
    la.check_matrix(A, "linalg.matrix_exp", square=True)
    if not (A.dtype.is_floating_point or A.dtype.is_complex):
        raise NotImplementedError(f"linalg.matrix_exp: Expected a floating point or complex "
                                  f"tensor as input. Got {_scalar_type_name(A.dtype)}")
    if A.numel() == 0:
        return A.clone()
    if A.size(-1) == 1:
        return A.exp()
    low = A.dtype in (_C.float16, _C.bfloat16)
    r = _expm(A.float() if low else A)
    return r.to(A.dtype) if low else r


def matrix_exp(input):
    return _op("linalg_matrix_exp")(input)


# ---- tensor inverses and solves --------------------------------------------------------------

def _prod(shape):
    p = 1
    for s in shape:
        p *= s
    return p


def linalg_tensorinv(A, ind=2, *, out=None):
    """The inverse of A read as a (prod(shape[:ind]) x prod(shape[ind:])) matrix, shaped
    shape[ind:] + shape[:ind]."""
    la.check_tensor(A, "linalg_tensorinv", "A", 1)
    if ind <= 0:
        raise RuntimeError(f"Expected a strictly positive integer for 'ind', but got {ind}")
    rows, cols = tuple(A.shape[:ind]), tuple(A.shape[ind:])
    p, q = _prod(rows), _prod(cols)
    if p != q:
        raise RuntimeError(f"Expected self to satisfy the requirement prod(self.shape[ind:]) == "
                           f"prod(self.shape[:ind]), but got {q} != {p}")
    r = _op("linalg_inv")(A.reshape(p, q)).reshape(cols + rows)
    return la.store_out(out, r, "linalg_tensorinv") if out is not None else r


def linalg_tensorsolve(A, B, dims=None, *, out=None):
    """X with tensordot(A, X, X.ndim) = B (the dims of A in `dims` moved last first)."""
    la.check_tensor(A, "linalg_tensorsolve", "A", 1)
    la.check_tensor(B, "linalg_tensorsolve", "B", 2)
    if dims is not None:
        nd = A.dim()
        dims = [d % nd for d in ([dims] if isinstance(dims, int) else dims)]
        A = A.movedim(dims, list(range(nd - len(dims), nd)))
    nb = B.dim()
    lead, rest = tuple(A.shape[:nb]), tuple(A.shape[nb:])
    p, q = _prod(lead), _prod(rest)
    if p != q:
        raise RuntimeError(f"Expected self to satisfy the requirement prod(self.shape[other.ndim:])"
                           f" == prod(self.shape[:other.ndim]), but got {q} != {p}")
    r = _op("linalg_solve")(A.reshape(p, q), B.reshape(p)).reshape(rest)
    return la.store_out(out, r, "linalg_tensorsolve") if out is not None else r


def linalg_diagonal(A, *, offset=0, dim1=-2, dim2=-1):
    """torch.diagonal with the matrix dims last by default."""
    la.check_tensor(A, "linalg_diagonal", "A", 1)
    return A.diagonal(offset, dim1, dim2)


def linalg_matmul(input, other, *, out=None):
    return _C.matmul(input, other, out=out)


def linalg_vander(x, *, N=None):
    """The Vandermonde matrices of vectors x: columns x^0, x^1, ..., x^(N-1) (N defaults to
    x's length)."""
    la.check_tensor(x, "linalg_vander", "x", 1)
    if N is not None and (isinstance(N, builtins.bool) or not isinstance(N, int)):
        raise TypeError(f"linalg_vander(): argument 'N' must be int, not {type(N).__name__}")
    if x.dtype == _C.bool:
        raise NotImplementedError("linalg.vander supports floating point, complex, and integer "
                                  "tensors, but got Bool")
    if x.dim() == 0:
        raise RuntimeError("N must be greater than 1.")
    if N is None:
        N = x.size(-1)
    if N <= 1:
        raise RuntimeError("N must be greater than 1.")
    ones = _C.ones(tuple(x.shape) + (1,), dtype=x.dtype, device=x.device)
    return _C.cat([ones, x.unsqueeze(-1).expand(tuple(x.shape) + (N - 1,))], -1).cumprod(-1)
