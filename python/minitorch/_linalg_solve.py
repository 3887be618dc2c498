"""Linear systems through LAPACK: LU (lu_factor, lu, lu_solve, lu_unpack), inverses, solve,
det/slogdet/logdet, Cholesky (cholesky, cholesky_solve, cholesky_inverse) and triangular
solves, with torch's names, arguments, batching and errors, and the deprecated top-level names.

The functions named linalg_* here are the primitives of minitorch.linalg (op-table rows with a
derivative formula); the others are composites of them (Note [Recording Python ops])."""
import warnings

from . import _C, _op_forms
from . import _lapack as la
from ._lapack import check_tensor, check_matrix, check_dtype
from ._reductions import _scalar_type_name


# The recorded form of op-table row `name` (composites call primitives through it); the dict
# is filled when minitorch.linalg and the top-level functions are built.
_op = _op_forms.FORMS.__getitem__


lu_factor_ret = la.return_type("linalg_lu_factor", ["LU", "pivots"])
lu_factor_ex_ret = la.return_type("linalg_lu_factor_ex", ["LU", "pivots", "info"])
lu_ret = la.return_type("linalg_lu", ["P", "L", "U"])
lu_unpack_ret = la.return_type("lu_unpack", ["P", "L", "U"])
lu_with_info_ret = la.return_type("_lu_with_info", ["LU", "pivots", "info"])
inv_ex_ret = la.return_type("linalg_inv_ex", ["inverse", "info"])
solve_ex_ret = la.return_type("linalg_solve_ex", ["result", "info"])
cholesky_ex_ret = la.return_type("linalg_cholesky_ex", ["L", "info"])
slogdet_ret = la.return_type("linalg_slogdet", ["sign", "logabsdet"])
slogdet_old_ret = la.return_type("slogdet", ["sign", "logabsdet"])
triangular_solve_ret = la.return_type("triangular_solve", ["solution", "cloned_coefficient"])


def _singular_lu(code):
    return (f"U[{code},{code}] is zero and using it on lu_solve would result in a division by "
            "zero. If you still want to perform the factorization, consider calling "
            "linalg.lu(A, pivot) or linalg.lu_factor_ex(A, pivot)")


def _singular_inv(code):
    return (f"The diagonal element {code} is zero, the inversion could not be completed because "
            "the input matrix is singular.")


def _not_pd(code):
    return ("The factorization could not be completed because the input is not "
            f"positive-definite (the leading minor of order {code} is not positive-definite).")


# ---- LU --------------------------------------------------------------------------------------

def _getrf(A):
    """(LU, pivots, info) of A (any batch; a fresh column-major LU)."""
    LU = la.fortran(A)
    m, n = A.size(-2), A.size(-1)
    batch = tuple(A.shape)[:-2]
    piv = _C.empty(batch + (min(m, n),), dtype=_C.int32, device=A.device)
    info = la.info_tensor(batch, A.device)
    _C._lapack_getrf(LU, piv, info)
    return LU, piv, info


def _check_lu_input(A, fname, pyname, pivot):
    check_tensor(A, pyname, "A", 1)
    if A.dim() < 2:
        raise RuntimeError(f"{fname}: Expected tensor with 2 or more dimensions. Got size: "
                           f"{list(A.shape)} instead")
    if not pivot:
        raise RuntimeError("linalg.lu_factor: LU without pivoting is not implemented on the CPU")
    if A.dtype not in la.LAPACK_DTYPES:
        raise NotImplementedError(f"\"lu_cpu\" not implemented for '{_scalar_type_name(A.dtype)}'")


def linalg_lu_factor_ex(A, *, pivot=True, check_errors=False, out=None):
    """(LU, pivots, info): A = P L U packed as LAPACK's getrf gives it."""
    _check_lu_input(A, "torch.lu_factor", "linalg_lu_factor_ex", pivot)
    LU, piv, info = _getrf(A)
    if check_errors:
        la.raise_info(info, "torch.linalg.lu_factor_ex", _singular_lu, A.dim() > 2, RuntimeError)
    if out is not None:
        return la.store_outs(out, (LU, piv, info), "linalg_lu_factor_ex", lu_factor_ex_ret)
    return lu_factor_ex_ret(LU, piv, info)


def linalg_lu_factor(A, *, pivot=True, out=None):
    """(LU, pivots) of A; an exactly singular A (a zero on U's diagonal) is an error."""
    _check_lu_input(A, "torch.lu_factor", "linalg_lu_factor", pivot)
    LU, piv, info = _op("linalg_lu_factor_ex")(A, pivot=pivot)
    la.raise_info(info, "torch.linalg.lu_factor", _singular_lu, A.dim() > 2, RuntimeError)
    if out is not None:
        return la.store_outs(out, (LU, piv), "linalg_lu_factor", lu_factor_ret)
    return lu_factor_ret(LU, piv)


def _permutation(piv, m, dtype, fname_msg):
    """P (dtype, (*batch, m, m)) with A = P L U from getrf's pivots."""
    batch = tuple(piv.shape)[:-1]
    perm = _C.empty(batch + (m,), dtype=_C.int64, device=piv.device)
    try:
        _C._lapack_permutation(piv.contiguous(), perm)
    except IndexError:
        raise RuntimeError(fname_msg) from None
    P = _C.zeros(batch + (m, m), dtype=dtype, device=piv.device)
    return P.scatter_(-2, perm.unsqueeze(-2), 1)


def _unpack(LU, piv, data=True, pivots=True, msg=None):
    """(P, L, U) from packed LU factors (empty tensors for the parts not asked for)."""
    m, n = LU.size(-2), LU.size(-1)
    k = min(m, n)
    P = L = U = _C.empty(0, dtype=LU.dtype, device=LU.device)
    if data:
        L = LU[..., :, :k].tril(-1)
        L.diagonal(dim1=-2, dim2=-1).fill_(1)
        U = LU[..., :k, :].triu()
    if pivots:
        P = _permutation(piv, m, LU.dtype, msg or "pivots passed to lu_unpack must be between 1 "
                         "and LU.size(-2) inclusive.Did you properly pass the result of lu_factor?")
    return P, L, U


def linalg_lu(A, *, pivot=True, out=None):
    """(P, L, U) with A = P @ L @ U: L unit lower trapezoidal, U upper trapezoidal."""
    _check_lu_input(A, "linalg.lu", "linalg_lu", pivot)
    LU, piv, _ = _getrf(A)
    r = _unpack(LU, piv)
    if out is not None:
        return la.store_outs(out, r, "linalg_lu", lu_ret)
    return lu_ret(*r)


def lu_unpack(LU_data, LU_pivots, unpack_data=True, unpack_pivots=True, *, out=None):
    """(P, L, U) from lu_factor's (LU, pivots)."""
    check_tensor(LU_data, "lu_unpack", "LU_data", 1)
    check_tensor(LU_pivots, "lu_unpack", "LU_pivots", 2)
    if LU_data.dim() < 2:
        raise RuntimeError(f"torch.lu_unpack: Expected tensor with 2 or more dimensions. Got "
                           f"size: {list(LU_data.shape)} instead")
    if LU_pivots.dtype != _C.int32:
        raise RuntimeError("torch.lu_unpack: LU_pivots is expected to be a contiguous tensor of "
                           "torch.int32 dtype.\nNote: this function is intended to be used with "
                           "the output produced by torch.linalg.lu_factor")
    k = min(LU_data.size(-2), LU_data.size(-1))
    if unpack_pivots and (tuple(LU_pivots.shape)[:-1] != tuple(LU_data.shape)[:-2] or
                          LU_pivots.dim() < 1 or LU_pivots.size(-1) != k):
        raise RuntimeError("torch.lu_unpack: LU_pivots must have the shape of the batch of "
                           f"LU_data with {k} pivots, but got {list(LU_pivots.shape)}")
    r = _unpack(LU_data, LU_pivots, unpack_data, unpack_pivots)
    if out is not None:
        return la.store_outs(out, r, "lu_unpack", lu_unpack_ret)
    return lu_unpack_ret(*r)


def _check_pivots(pivots, n, batch):
    if pivots.dtype != _C.int32:
        raise RuntimeError("linalg.lu_solve: pivots should be a Tensor of scalar type torch.int32")
    if pivots.dim() < 1 or pivots.size(-1) != n:
        raise RuntimeError("linalg.lu_solve: Number of pivots per batch should be same as the "
                           "dimension of the matrix")
    if pivots.numel():
        if bool((pivots < 1).any()):
            raise RuntimeError("Pivots given to lu_solve must all be greater or equal to 1. Did "
                               "you properly pass the result of lu_factor?")
        if bool((pivots > n).any()):
            raise RuntimeError("Pivots given to lu_solve must all be smaller or equal to "
                               "LU.size(-2). Did you properly pass the result of lu_factor?")


def _getrs(LU, piv, B, left, adjoint):
    """op(A)^{-1} B (left) or B op(A)^{-1}, A = P L U from (LU, piv); op: adjoint or not.
    Batches broadcast; returns a fresh column-major result."""
    n = LU.size(-1)
    batch = la.batch_shape(LU, B)
    LUb = LU.expand(batch + (n, n))
    pivb = piv.expand(batch + (n,))
    cplx = LU.dtype.is_complex
    if left:
        X = la.fortran(B.expand(batch + tuple(B.shape[-2:])))
        trans = ("C" if cplx else "T") if adjoint else "N"
        _C._lapack_getrs(la.fortran_readonly(LUb), pivb.contiguous(), X, trans)
        return X
    # X A = B is A^T X^T = B^T (getrs 'T' on B^T); X A^H = B is A X^H = B^H (getrs 'N' on B^H)
    Bt = B.expand(batch + tuple(B.shape[-2:])).mT
    if adjoint:
        Xt = la.fortran(Bt.conj() if cplx else Bt)
        _C._lapack_getrs(la.fortran_readonly(LUb), pivb.contiguous(), Xt, "N")
        return (Xt.conj() if cplx else Xt).mT
    Xt = la.fortran(Bt)
    _C._lapack_getrs(la.fortran_readonly(LUb), pivb.contiguous(), Xt, "T")
    return Xt.mT


def linalg_lu_solve(LU, pivots, B, *, left=True, adjoint=False, out=None):
    """Solves A X = B (or X A = B with left=False; A^H with adjoint=True) given lu_factor(A)."""
    check_tensor(LU, "linalg_lu_solve", "LU", 1)
    check_tensor(pivots, "linalg_lu_solve", "pivots", 2)
    check_tensor(B, "linalg_lu_solve", "B", 3)
    check_matrix(LU, "linalg.lu_solve", "LU")
    check_matrix(B, "linalg.lu_solve", "B")
    if LU.size(-1) != LU.size(-2):
        raise RuntimeError(f"torch.linalg.lu_solve: A must be batches of square matrices, but they "
                           f"are {LU.size(-2)} by {LU.size(-1)} matrices")
    n = LU.size(-1)
    rows = B.size(-2) if left else B.size(-1)
    if rows != n:
        eq = "AX = B" if left else "XA = B"
        raise RuntimeError(f"linalg.lu_solve: Incompatible shapes of A and B for the equation {eq} "
                           f"({n}x{n} and {B.size(-2)}x{B.size(-1)})")
    la.check_same_dtype(LU, B, "linalg.lu_solve", "LU", "B")
    check_dtype(LU, "linalg.lu_solve")
    _check_pivots(pivots, n, LU.shape[:-2])
    if tuple(pivots.shape)[:-1] != tuple(LU.shape)[:-2]:
        pivots = pivots.expand(tuple(LU.shape)[:-2] + (n,))
    X = _getrs(LU, pivots, B, left, adjoint)
    if out is not None:
        return la.store_out(out, X, "linalg_lu_solve")
    return X


def lu_solve(b, LU_data, LU_pivots, *, out=None):
    """Deprecated: linalg.lu_solve(LU_data, LU_pivots, b)."""
    warnings.warn("torch.lu_solve is deprecated in favor of torch.linalg.lu_solveand will be "
                  "removed in a future PyTorch release.\nNote that torch.linalg.lu_solve has its "
                  "arguments reversed.\nX = torch.lu_solve(B, LU, pivots)\nshould be replaced with\n"
                  "X = torch.linalg.lu_solve(LU, pivots, B)", UserWarning, stacklevel=2)
    return _op("linalg_lu_solve")(LU_data, LU_pivots, b, out=out)


def lu(A, pivot=True, get_infos=False, out=None):
    """Deprecated: (LU, pivots) of linalg.lu_factor (and info with get_infos=True)."""
    warnings.warn("torch.lu is deprecated in favor of torch.linalg.lu_factor / "
                  "torch.linalg.lu_factor_ex and will be removed in a future PyTorch release.\n"
                  "LU, pivots = torch.lu(A, compute_pivots)\nshould be replaced with\n"
                  "LU, pivots = torch.linalg.lu_factor(A, compute_pivots)\nand\n"
                  "LU, pivots, info = torch.lu(A, compute_pivots, get_infos=True)\nshould be "
                  "replaced with\nLU, pivots, info = torch.linalg.lu_factor_ex(A, compute_pivots)",
                  UserWarning, stacklevel=2)
    r = _op("linalg_lu_factor_ex")(A, pivot=pivot)
    if get_infos:
        r = lu_with_info_ret(*r)
        return la.store_outs(out, r, "lu", lu_with_info_ret) if out is not None else r
    r = (r[0], r[1])
    return la.store_outs(out, r, "lu", tuple) if out is not None else r


# ---- inverses and solves -------------------------------------------------------------------

def _eye_like(batch, n, dtype, device):
    I = _C.zeros(tuple(batch) + (n, n), dtype=dtype, device=device)
    I.diagonal(dim1=-2, dim2=-1).fill_(1)
    return I


def linalg_inv_ex(A, *, check_errors=False, out=None):
    """(inverse, info): A^{-1} through getrf + getrs; info > 0 marks a singular matrix (its
    inverse then holds infinities or NaNs)."""
    check_tensor(A, "linalg_inv_ex", "A", 1)
    check_matrix(A, "linalg.inv_ex", square=True)
    check_dtype(A, "linalg.inv_ex")
    n = A.size(-1)
    batch = tuple(A.shape)[:-2]
    LU, piv, info = _getrf(A)
    X = la.fortran(_eye_like((), n, A.dtype, A.device).expand(batch + (n, n)))
    _C._lapack_getrs(LU, piv, X, "N")
    if check_errors:
        la.raise_info(info, "linalg.inv_ex", _singular_inv, A.dim() > 2)
    if out is not None:
        return la.store_outs(out, (X, info), "linalg_inv_ex", inv_ex_ret)
    return inv_ex_ret(X, info)


def linalg_inv(A, *, out=None):
    """A^{-1}; a singular matrix is a LinAlgError."""
    check_tensor(A, "linalg_inv", "A", 1)
    check_matrix(A, "linalg.inv", square=True)
    check_dtype(A, "linalg.inv")
    X, info = _op("linalg_inv_ex")(A)
    la.raise_info(info, "linalg.inv", _singular_inv, A.dim() > 2)
    return la.store_out(out, X, "linalg_inv") if out is not None else X


def inverse(input, *, out=None):
    return linalg_inv(input, out=out)


def _is_vector_rhs(A, B):
    """torch's rule: B is a (batch of) vector(s) when it is 1-D or has A's batch shape and
    one dim less than A."""
    return B.dim() == 1 or (B.dim() == A.dim() - 1 and tuple(B.shape) == tuple(A.shape)[:-1])


def _check_solve(A, B, left, fname):
    check_matrix(A, fname, square=True)
    vector = _is_vector_rhs(A, B)
    B2 = B.unsqueeze(-1) if vector else B
    check_matrix(B2, fname, "B")
    n = A.size(-1)
    if (B2.size(-2) if left else B2.size(-1)) != n:
        eq = "AX = B" if left else "XA = B"
        raise RuntimeError(f"{fname}: Incompatible shapes of A and B for the equation {eq} "
                           f"({n}x{n} and {B2.size(-2)}x{B2.size(-1)})")
    la.check_same_dtype(A, B, fname)
    check_dtype(A, fname)
    return vector, B2


def linalg_solve_ex(A, B, *, left=True, check_errors=False, out=None):
    """(result, info): X with A X = B (left) or X A = B; B may be a (batch of) vector(s)."""
    check_tensor(A, "linalg_solve_ex", "A", 1)
    check_tensor(B, "linalg_solve_ex", "B", 2)
    vector, B2 = _check_solve(A, B, left, "linalg.solve")
    LU, piv, info = _getrf(A)
    X = _getrs(LU, piv, B2, left, False)
    if vector:
        X = X.squeeze(-1)
    if check_errors:
        la.raise_info(info, "torch.linalg.solve_ex", lambda c: "The solver failed because the "
                      "input matrix is singular.", A.dim() > 2)
    if out is not None:
        return la.store_outs(out, (X, info), "linalg_solve_ex", solve_ex_ret)
    return solve_ex_ret(X, info)


def linalg_solve(A, B, *, left=True, out=None):
    """X with A X = B (left) or X A = B; a singular A is a LinAlgError."""
    check_tensor(A, "linalg_solve", "A", 1)
    check_tensor(B, "linalg_solve", "B", 2)
    _check_solve(A, B, left, "linalg.solve")
    X, info = _op("linalg_solve_ex")(A, B, left=left)
    la.raise_info(info, "torch.linalg.solve", lambda c: "The solver failed because the input "
                  "matrix is singular.", A.dim() > 2)
    return la.store_out(out, X, "linalg_solve") if out is not None else X


# ---- determinants ----------------------------------------------------------------------------

def _lu_parts(A):
    """(diagonal of U, parity of the permutation as +-1) of A = P L U."""
    LU, piv, _ = _getrf(A)
    n = A.size(-1)
    diag = LU.diagonal(dim1=-2, dim2=-1)
    swaps = piv.ne(_C.arange(1, n + 1, dtype=_C.int32, device=piv.device)).sum(-1)
    parity = 1 - 2 * (swaps % 2)
    return diag, parity


def _check_det(A, fname, pyname):
    check_tensor(A, pyname, "A", 1)
    check_matrix(A, fname, square=True)
    check_dtype(A, fname)


def linalg_det(A, *, out=None):
    """det(A): the product of U's diagonal of A = P L U, signed by P's parity."""
    _check_det(A, "linalg.det", "linalg_det")
    diag, parity = _lu_parts(A)
    d = diag.prod(-1) * parity.to(A.dtype)
    return la.store_out(out, d, "linalg_det") if out is not None else d


def det(input):
    return _op("linalg_det")(input)


def linalg_slogdet(A, *, out=None):
    """(sign, logabsdet): det(A) = sign * exp(logabsdet); sign is 0 and logabsdet -inf for a
    singular A (sign is complex for complex A)."""
    _check_det(A, "linalg.slogdet", "linalg_slogdet")
    diag, parity = _lu_parts(A)
    absd = diag.abs()
    logabs = absd.log().sum(-1)
    if A.dtype.is_complex:
        unit = _C._where(absd.eq(0), 0, diag / absd.masked_fill(absd.eq(0), 1))
        sign = unit.prod(-1) * parity.to(A.dtype)
    else:
        sign = diag.sgn().prod(-1) * parity.to(A.dtype)
    if out is not None:
        return la.store_outs(out, (sign, logabs), "linalg_slogdet", slogdet_ret)
    return slogdet_ret(sign, logabs)


def slogdet(input, *, out=None):
    r = _op("linalg_slogdet")(input, out=out)
    return slogdet_old_ret(*r)


def logdet(input):
    """log(det(input)): NaN for a real matrix of negative determinant, -inf for a singular
    one; for complex matrices log(sign) + logabsdet."""
    check_tensor(input, "logdet", "input", 1)
    check_matrix(input, "linalg.slogdet", square=True)
    check_dtype(input, "linalg.slogdet")
    sign, logabs = _op("linalg_slogdet")(input)
    if input.dtype.is_complex:
        return sign.log() + logabs
    return _op("where")(sign.lt(0), float("nan"), logabs)


# ---- Cholesky ----------------------------------------------------------------------------------

def linalg_cholesky_ex(A, *, upper=False, check_errors=False, out=None):
    """(L, info): L lower triangular (U = L^H with upper=True) with A = L L^H, read from A's
    lower (upper) triangle; info > 0: A is not positive-definite."""
    check_tensor(A, "linalg_cholesky_ex", "A", 1)
    check_matrix(A, "linalg.cholesky_ex", square=True)
    check_dtype(A, "linalg.cholesky_ex")
    L = la.fortran(A)
    info = la.info_tensor(A.shape[:-2], A.device)
    _C._lapack_potrf(L, bool(upper), info)
    if check_errors:
        la.raise_info(info, "linalg.cholesky_ex", _not_pd, A.dim() > 2)
    if out is not None:
        return la.store_outs(out, (L, info), "linalg_cholesky_ex", cholesky_ex_ret)
    return cholesky_ex_ret(L, info)


def linalg_cholesky(A, *, upper=False, out=None):
    """The Cholesky factor; a matrix that is not positive-definite is a LinAlgError."""
    check_tensor(A, "linalg_cholesky", "A", 1)
    check_matrix(A, "linalg.cholesky", square=True)
    check_dtype(A, "linalg.cholesky")
    L, info = _op("linalg_cholesky_ex")(A, upper=upper)
    la.raise_info(info, "linalg.cholesky", _not_pd, A.dim() > 2)
    return la.store_out(out, L, "linalg_cholesky") if out is not None else L


def cholesky_solve(input, input2, upper=False, *, out=None):
    """X with A X = input, A = L L^H from its Cholesky factor input2 (U^H U with upper)."""
    check_tensor(input, "cholesky_solve", "input", 1)
    check_tensor(input2, "cholesky_solve", "input2", 2)
    B, L = input, input2
    if B.dim() < 2:
        raise RuntimeError(f"b should have at least 2 dimensions, but has {B.dim()} dimensions "
                           "instead")
    if L.dim() < 2:
        raise RuntimeError(f"u should have at least 2 dimensions, but has {L.dim()} dimensions "
                           "instead")
    if L.size(-1) != L.size(-2) or B.size(-2) != L.size(-1):
        raise RuntimeError("Incompatible matrix sizes for cholesky_solve: each A matrix is "
                           f"{L.size(-2)} by {L.size(-1)} but each b matrix is {B.size(-2)} "
                           f"by {B.size(-1)}")
    la.check_same_dtype(B, L, "cholesky_solve", "b", "u")
    check_dtype(L, "cholesky_solve")
    st = _op("linalg_solve_triangular")
    if upper:   # A = U^H U
        X = st(L, st(L.mH, B, upper=False), upper=True)
    else:       # A = L L^H
        X = st(L.mH, st(L, B, upper=False), upper=True)
    return la.store_out(out, X, "cholesky_solve") if out is not None else X


def cholesky_inverse(input, upper=False, *, out=None):
    """(L L^H)^{-1} from the Cholesky factor L (U^H U with upper=True)."""
    check_tensor(input, "cholesky_inverse", "input", 1)
    check_matrix(input, "cholesky_inverse", square=True)
    check_dtype(input, "cholesky_inverse")
    n = input.size(-1)
    I = _eye_like((), n, input.dtype, input.device).expand(tuple(input.shape)[:-2] + (n, n))
    st = _op("linalg_solve_triangular")
    if upper:   # (U^H U)^{-1} = U^{-1} U^{-H}
        Ui = st(input, I, upper=True)
        X = Ui @ Ui.mH
    else:       # (L L^H)^{-1} = L^{-H} L^{-1}
        Li = st(input, I, upper=False)
        X = Li.mH @ Li
    return la.store_out(out, X, "cholesky_inverse") if out is not None else X


# ---- triangular systems ------------------------------------------------------------------------

def linalg_solve_triangular(A, B, *, upper, left=True, unitriangular=False, out=None):
    """X with A X = B (left) or X A = B, A upper or lower triangular (the other triangle is
    not read; unitriangular: its diagonal is taken as ones)."""
    check_tensor(A, "linalg_solve_triangular", "A", 1)
    check_tensor(B, "linalg_solve_triangular", "B", 2)
    check_matrix(A, "linalg.solve_triangular", square=True)
    check_matrix(B, "linalg.solve_triangular", "B")
    n = A.size(-1)
    if (B.size(-2) if left else B.size(-1)) != n:
        eq = "AX = B" if left else "XA = B"
        raise RuntimeError(f"linalg.solve_triangular: Incompatible shapes of A and B for the "
                           f"equation {eq} ({n}x{n} and {B.size(-2)}x{B.size(-1)})")
    dt = _C.promote_types(A.dtype, B.dtype)
    if dt not in la.LAPACK_DTYPES:
        raise NotImplementedError(f"\"triangular_solve_cpu\" not implemented for "
                                  f"'{_scalar_type_name(dt)}'")
    batch = la.batch_shape(A, B)
    Ab = A.expand(batch + (n, n))
    Aop = la.fortran_readonly(Ab) if Ab.dtype == dt else la.fortran(Ab, dt)
    X = la.fortran(B.expand(batch + tuple(B.shape[-2:])), dt)
    _C._lapack_trsm(Aop, X, bool(left), bool(upper), "N", bool(unitriangular))
    return la.store_out(out, X, "linalg_solve_triangular") if out is not None else X


def triangular_solve(input, A, upper=True, transpose=False, unitriangular=False, *, out=None):
    """Deprecated: (solution, cloned_coefficient) with op(A) X = input, op: the transpose when
    transpose=True."""
    warnings.warn("torch.triangular_solve is deprecated in favor of "
                  "torch.linalg.solve_triangularand will be removed in a future PyTorch release.\n"
                  "torch.linalg.solve_triangular has its arguments reversed and does not return a "
                  "copy of one of the inputs.\nX = torch.triangular_solve(B, A).solution\nshould be "
                  "replaced with\nX = torch.linalg.solve_triangular(A, B).", UserWarning,
                  stacklevel=2)
    check_tensor(input, "triangular_solve", "input", 1)
    check_tensor(A, "triangular_solve", "A", 2)
    if input.dim() < 2:
        raise RuntimeError(f"torch.triangular_solve: Expected b to have at least 2 dimensions, but "
                           f"it has {input.dim()} dimensions instead")
    if A.dim() < 2:
        raise RuntimeError(f"torch.triangular_solve: Expected A to have at least 2 dimensions, but "
                           f"it has {A.dim()} dimensions instead")
    op = A.mT if transpose else A
    X = _op("linalg_solve_triangular")(op, input, upper=bool(upper) != bool(transpose),
                                      unitriangular=unitriangular)
    batch = la.batch_shape(A, input)
    M = A.expand(batch + tuple(A.shape[-2:])).clone()
    r = triangular_solve_ret(X, M)
    return la.store_outs(out, r, "triangular_solve", triangular_solve_ret) if out is not None else r


# ---- names torch removed: they raise torch's errors ---------------------------------------------

_REMOVED = "This function was deprecated since version 1.9 and is now removed. "


def cholesky(input, upper=False, *, out=None):
    raise RuntimeError(_REMOVED + "`torch.cholesky` is deprecated in favor of "
                       "`torch.linalg.cholesky`.\nL = torch.cholesky(A) should be replaced with:\n"
                       "L = torch.linalg.cholesky(A)\nU = torch.cholesky(A, upper=True) should be "
                       "replaced with:\nU = torch.linalg.cholesky(A).mH")


def solve(input, other, *, out=None):
    raise RuntimeError(_REMOVED + "`torch.solve` is deprecated in favor of `torch.linalg.solve`. "
                       "`torch.linalg.solve` has its arguments reversed and does not return the LU "
                       "factorization.\n\nTo get the LU factorization see `torch.lu`, which can be "
                       "used with `torch.lu_solve` or `torch.lu_unpack`.\nX = torch.solve(B, A)."
                       "solution should be replaced with:\nX = torch.linalg.solve(A, B)")


# ---- LDL: not implemented ---------------------------------------------------------------------

def _no_ldl(name):
    raise NotImplementedError(f"minitorch.linalg.{name} is not implemented: the LDL^H "
                              "factorization needs LAPACK's sytrf/hetrf, which minitorch does not "
                              "call yet; linalg.cholesky, linalg.lu_factor or linalg.solve serve "
                              "positive-definite and general matrices")


def linalg_ldl_factor(A, *, hermitian=False, out=None):
    _no_ldl("ldl_factor")


def linalg_ldl_factor_ex(A, *, hermitian=False, check_errors=False, out=None):
    _no_ldl("ldl_factor_ex")


def linalg_ldl_solve(LD, pivots, B, *, hermitian=False, out=None):
    _no_ldl("ldl_solve")
