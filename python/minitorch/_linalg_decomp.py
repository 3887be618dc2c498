"""Orthogonal and spectral decompositions through LAPACK: QR, SVD (svd, svdvals), Hermitian and
general eigenproblems (eigh, eigvalsh, eig, eigvals), least squares (lstsq), the
pseudoinverse (pinv) and the numerical rank, with torch's names, arguments, batching and
errors, and the deprecated top-level names (torch.svd, pinverse; removed ones raise).

The functions named linalg_* are the primitives of minitorch.linalg (op-table rows with a
derivative formula); the others are composites of them (Note [Recording Python ops])."""
from . import _C, _op_forms
from . import _lapack as la
from ._lapack import check_tensor, check_matrix, check_dtype, LinAlgError
from ._reductions import _scalar_type_name


# The recorded form of op-table row `name` (composites call primitives through it); the dict
# is filled when minitorch.linalg and the top-level functions are built.
_op = _op_forms.FORMS.__getitem__


def _no_grad():
    from .autograd.grad_mode import no_grad
    return no_grad()


def _needs_grad(*ts):
    """Whether the differentiable path is needed: an argument requires grad (grad mode on), or
    has a tangent (forward-mode AD)."""
    if _C.is_grad_enabled() and any(isinstance(t, _C.TensorBase) and t.requires_grad
                                    for t in ts):
        return True
    from .autograd import _forward
    return _forward.active() and any(_forward.tangent(t) is not None for t in ts)


qr_ret = la.return_type("linalg_qr", ["Q", "R"])
svd_ret = la.return_type("linalg_svd", ["U", "S", "Vh"])
svd_old_ret = la.return_type("svd", ["U", "S", "V"])
eigh_ret = la.return_type("linalg_eigh", ["eigenvalues", "eigenvectors"])
eig_ret = la.return_type("linalg_eig", ["eigenvalues", "eigenvectors"])
lstsq_ret = la.return_type("linalg_lstsq", ["solution", "residuals", "rank", "singular_values"])


def _eye(batch, n, dtype, device):
    I = _C.zeros(tuple(batch) + (n, n), dtype=dtype, device=device)
    I.diagonal(dim1=-2, dim2=-1).fill_(1)
    return I


# ---- QR ----------------------------------------------------------------------------------------

def linalg_qr(A, mode="reduced", *, out=None):
    """(Q, R) with A = Q R: Q with orthonormal columns (m x k, or m x m with mode='complete'),
    R upper triangular (k x n, or m x n); mode='r' computes R only (Q is empty)."""
    check_tensor(A, "linalg_qr", "A", 1)
    check_matrix(A, "linalg.qr")
    if mode not in ("reduced", "r", "complete"):
        raise RuntimeError(f"qr received unrecognized mode '{mode}' but expected one of 'reduced' "
                           "(default), 'r', or 'complete'")
    check_dtype(A, "linalg.qr")
    m, n = A.size(-2), A.size(-1)
    k = min(m, n)
    batch = tuple(A.shape)[:-2]
    F = la.fortran(A)
    tau = _C.empty(batch + (k,), dtype=A.dtype, device=A.device)
    _C._lapack_geqrf(F, tau)
    R = la.fortran((F if mode == "complete" else F[..., :k, :]).triu())   # column-major, as torch
    if mode == "r":
        Q = _C.empty(0, dtype=A.dtype, device=A.device)
    elif mode == "complete" and m > n:
        Q = la.fortran_empty(batch + (m, m), A.dtype, A.device)
        Q[..., :, :n] = F
        Q[..., :, n:] = 0
        _C._lapack_orgqr(Q, tau)
    else:
        Q = la.fortran(F[..., :, :k])
        _C._lapack_orgqr(Q, tau)
    if out is not None:
        return la.store_outs(out, (Q, R), "linalg_qr", qr_ret)
    return qr_ret(Q, R)


# ---- SVD -------------------------------------------------------------------------------------

def _check_finite(A, fname):
    if A.numel() and not bool(A.isfinite().all()):
        raise LinAlgError(f"{fname}: The algorithm failed to converge because the input matrix "
                          "contained non-finite values.")


def _svd_failed(code):
    return ("The algorithm failed to converge because the input matrix is ill-conditioned or "
            f"has too many repeated singular values (error code: {code}).")


def _check_svd(A, pyname, driver):
    check_tensor(A, pyname, "A", 1)
    check_matrix(A, "linalg.svd")
    check_dtype(A, "linalg.svd")
    if driver is not None:
        raise RuntimeError("torch.linalg.svd: keyword argument `driver=` is only supported on "
                           "CUDA inputs with cuSOLVER backend.")
    _check_finite(A, "linalg.svd")


def _gesdd(A, jobz):
    """(U, S, Vh) through gesdd (U, Vh None for jobz 'N')."""
    m, n = A.size(-2), A.size(-1)
    k = min(m, n)
    batch = tuple(A.shape)[:-2]
    F = la.fortran(A)
    S = _C.empty(batch + (k,), dtype=la.real_dtype(A.dtype), device=A.device)
    U = Vh = None
    if jobz != "N":
        full = jobz == "A"
        U = la.fortran_empty(batch + (m, m if full else k), A.dtype, A.device)
        Vh = la.fortran_empty(batch + (n if full else k, n), A.dtype, A.device)
        if k == 0 and full:
            U.copy_(_eye(batch, m, A.dtype, A.device))
            Vh.copy_(_eye(batch, n, A.dtype, A.device))
    info = la.info_tensor(batch, A.device)
    _C._lapack_gesdd(F, S, U, Vh, jobz, info)
    la.raise_info(info, "linalg.svd", _svd_failed, A.dim() > 2)
    return U, S, Vh


def linalg_svd(A, full_matrices=True, *, driver=None, out=None):
    """(U, S, Vh) with A = U diag(S) Vh, S descending (divide and conquer, gesdd)."""
    _check_svd(A, "linalg_svd", driver)
    r = _gesdd(A, "A" if full_matrices else "S")
    if out is not None:
        return la.store_outs(out, r, "linalg_svd", svd_ret)
    return svd_ret(*r)


def linalg_svdvals(A, *, driver=None, out=None):
    """The singular values of A, descending (no singular vectors computed unless A needs a
    gradient)."""
    _check_svd(A, "linalg_svdvals", driver)
    if out is not None:
        la.check_out_grad("linalg_svdvals", A)
    if _needs_grad(A):
        return _op("linalg_svd")(A, full_matrices=False)[1]
    with _no_grad():
        S = _gesdd(A, "N")[1]
    return la.store_out(out, S, "linalg_svdvals") if out is not None else S


def _check_bool(v, fname, name, pos):
    if not isinstance(v, (bool, int)):
        raise TypeError(f"{fname}(): argument '{name}' (position {pos}) must be bool, not "
                        f"{type(v).__name__}")


def svd(input, some=True, compute_uv=True, *, out=None):
    """torch.svd: (U, S, V) with input = U diag(S) V^H (V, not Vh); some=False: full U and V;
    compute_uv=False: U and V are zeros (of the full shapes)."""
    check_tensor(input, "svd", "input", 1)
    _check_bool(some, "svd", "some", 2)
    _check_bool(compute_uv, "svd", "compute_uv", 3)
    if compute_uv:
        U, S, Vh = _op("linalg_svd")(input, full_matrices=not some)
        r = (U, S, Vh.mH)
    else:
        S = linalg_svdvals(input)
        m, n = input.size(-2), input.size(-1)
        batch = tuple(input.shape)[:-2]
        r = (_C.zeros(batch + (m, m), dtype=input.dtype, device=input.device), S,
             _C.zeros(batch + (n, n), dtype=input.dtype, device=input.device))
    if out is not None:
        return la.store_outs(out, r, "svd", svd_old_ret)
    return svd_old_ret(*r)


# ---- eigenproblems -----------------------------------------------------------------------------

def _eig_failed(code):
    return ("The algorithm failed to converge because the input matrix is ill-conditioned or "
            f"has too many repeated eigenvalues (error code: {code}).")


def _check_eigh(A, UPLO, pyname):
    check_tensor(A, pyname, "A", 1)
    check_matrix(A, "linalg.eigh", square=True)
    if not isinstance(UPLO, str) or UPLO.upper() not in ("L", "U") or len(UPLO) != 1:
        raise RuntimeError(f"Expected UPLO argument to be 'L' or 'U', but got {UPLO}")
    if A.dtype not in la.LAPACK_DTYPES:
        raise NotImplementedError(f"\"linalg_eigh_cpu\" not implemented for "
                                  f"'{_scalar_type_name(A.dtype)}'")


def _syevd(A, UPLO, vectors):
    """(eigenvalues, eigenvectors or None) of the Hermitian matrix in A's UPLO triangle."""
    n = A.size(-1)
    batch = tuple(A.shape)[:-2]
    F = la.fortran(A)
    w = _C.empty(batch + (n,), dtype=la.real_dtype(A.dtype), device=A.device)
    info = la.info_tensor(batch, A.device)
    _C._lapack_syevd(F, w, bool(vectors), UPLO.upper() == "U", info)
    la.raise_info(info, "linalg.eigh", _eig_failed, A.dim() > 2)
    # LAPACK's iterations do not see NaN: a non-finite input gives non-finite values or none
    if A.numel() and not bool(w.isfinite().all()) and not bool(A.isfinite().all()):
        raise LinAlgError(f"linalg.eigh: {_eig_failed(n)}")
    return w, (F if vectors else None)


def linalg_eigh(A, UPLO="L", *, out=None):
    """(eigenvalues, eigenvectors) of the Hermitian (symmetric) matrices in A's lower (UPLO='L')
    or upper triangle: eigenvalues ascending and real, A = V diag(w) V^H."""
    _check_eigh(A, UPLO, "linalg_eigh")
    w, V = _syevd(A, UPLO, True)
    if out is not None:
        return la.store_outs(out, (w, V), "linalg_eigh", eigh_ret)
    return eigh_ret(w, V)


def linalg_eigvalsh(A, UPLO="L", *, out=None):
    """The eigenvalues (ascending, real) of Hermitian matrices (no eigenvectors computed unless
    A needs a gradient)."""
    _check_eigh(A, UPLO, "linalg_eigvalsh")
    if out is not None:
        la.check_out_grad("linalg_eigvalsh", A)
    if _needs_grad(A):
        return _op("linalg_eigh")(A, UPLO)[0]
    with _no_grad():
        w = _syevd(A, UPLO, False)[0]
    return la.store_out(out, w, "linalg_eigvalsh") if out is not None else w


def _check_eig(A, pyname):
    check_tensor(A, pyname, "A", 1)
    check_matrix(A, "linalg.eig", square=True)
    if A.dtype not in la.LAPACK_DTYPES:
        raise RuntimeError(f"Unknown Complex ScalarType for {_scalar_type_name(A.dtype)}")
    if A.numel() and not bool(A.isfinite().all()):
        raise RuntimeError("torch.linalg.eig: input tensor should not contain infs or NaNs.")


def _geev(A, vectors):
    n = A.size(-1)
    batch = tuple(A.shape)[:-2]
    cdt = la.complex_dtype(A.dtype)
    F = la.fortran(A)
    w = _C.empty(batch + (n,), dtype=cdt, device=A.device)
    V = la.fortran_empty(batch + (n, n), cdt, A.device) if vectors else None
    info = la.info_tensor(batch, A.device)
    _C._lapack_geev(F, w, V, info)
    la.raise_info(info, "linalg.eig", _eig_failed, A.dim() > 2)
    return w, V


def linalg_eig(A, *, out=None):
    """(eigenvalues, eigenvectors) of general square matrices, complex (A V = V diag(w), the
    columns of V of unit norm)."""
    _check_eig(A, "linalg_eig")
    w, V = _geev(A, True)
    if out is not None:
        return la.store_outs(out, (w, V), "linalg_eig", eig_ret)
    return eig_ret(w, V)


def linalg_eigvals(A, *, out=None):
    """The (complex) eigenvalues of general square matrices."""
    _check_eig(A, "linalg_eigvals")
    if out is not None:
        la.check_out_grad("linalg_eigvals", A)
    if _needs_grad(A):
        return _op("linalg_eig")(A)[0]
    with _no_grad():
        w = _geev(A, False)[0]
    return la.store_out(out, w, "linalg_eigvals") if out is not None else w


# ---- least squares -----------------------------------------------------------------------------

_DRIVERS = {"gels": "l", "gelsy": "y", "gelsd": "d", "gelss": "s"}


def linalg_lstsq(A, B, rcond=None, *, driver=None):
    """(solution, residuals, rank, singular_values) of min ||A X - B||_F as torch computes
    them: residuals when m > n and every matrix has full rank (not with gelsy), rank with
    gelsy/gelsd/gelss, singular values with gelsd/gelss (else empty tensors)."""
    check_tensor(A, "linalg_lstsq", "self", 1)
    check_tensor(B, "linalg_lstsq", "b", 2)
    if A.dim() < 2:
        raise RuntimeError("torch.linalg.lstsq: input must have at least 2 dimensions.")
    if B.dim() < 1:
        raise RuntimeError("torch.linalg.lstsq: other must have at least 1 dimension.")
    if A.dtype != B.dtype:
        raise RuntimeError(f"torch.linalg.lstsq: Expected input and other to have the same dtype, "
                           f"but got input's dtype {_scalar_type_name(A.dtype)} and other's dtype "
                           f"{_scalar_type_name(B.dtype)}")
    if A.dtype not in la.LAPACK_DTYPES:
        raise RuntimeError("This function doesn't handle types other than float and double")
    vector = B.dim() == A.dim() - 1
    B2 = B.unsqueeze(-1) if vector else B
    if B2.dim() < 2 or A.size(-2) != B2.size(-2):
        raise RuntimeError("torch.linalg.lstsq: input.size(-2) should match other.size(-2)")
    if driver is None:
        driver = "gelsy"
    if driver not in _DRIVERS:
        raise RuntimeError("torch.linalg.lstsq: parameter `driver` should be one of (gels, gelsy, "
                           "gelsd, gelss)")
    if driver in ("gelsd", "gelss") and not (bool(A.isfinite().all()) and
                                             bool(B.isfinite().all())):
        # the SVD-based drivers never return on non-finite values (OpenBLAS loops forever)
        raise LinAlgError("torch.linalg.lstsq: The algorithm failed to converge because the input "
                          "matrix contained non-finite values.")
    m, n = A.size(-2), A.size(-1)
    k = B2.size(-1)
    mn, mx = min(m, n), max(m, n)
    batch = la.batch_shape(A, B2)
    rdt = la.real_dtype(A.dtype)
    if rcond is None:
        rcond = la.eps(A.dtype) * mx
    F = la.fortran(A.expand(batch + (m, n)))
    buf = la.fortran_empty(batch + (mx, k), A.dtype, A.device)
    buf[..., :m, :] = B2
    if mx > m:
        buf[..., m:, :] = 0
    ranked = driver != "gels"
    rank = _C.empty(batch, dtype=_C.int64, device=A.device) if ranked else None
    S = _C.empty(batch + (mn,), dtype=rdt, device=A.device) if driver in ("gelsd", "gelss") else None
    info = la.info_tensor(batch, A.device)
    _C._lapack_gels(F, buf, _DRIVERS[driver], float(rcond), rank, S, info)
    la.raise_info(info, "torch.linalg.lstsq", lambda c: "The least squares solution could not be "
                  "computed because the input matrix does not have full rank (error code: "
                  f"{c}).", A.dim() > 2)
    X = buf[..., :n, :]
    residuals = _C.empty(0, dtype=rdt, device=A.device)
    if m > n and driver != "gelsy" and (rank is None or bool(rank.eq(n).all())):
        residuals = buf[..., n:, :].abs().square().sum(-2)
    if vector:
        X = X.squeeze(-1)
    if rank is None:
        rank = _C.empty(0, dtype=_C.int64, device=A.device)
    if S is None:
        S = _C.empty(0, dtype=rdt, device=A.device)
    return lstsq_ret(X, residuals, rank, S)


# ---- pseudoinverse and rank --------------------------------------------------------------------

def _tolerances(A, atol, rtol, pyname):
    """(atol, rtol) as tensors of A's real dtype (broadcasting over its batch), by torch's
    rule: rtol defaults to eps * max(m, n), or to 0 where atol is given and positive."""
    rdt = la.real_dtype(A.dtype)
    default = la.eps(A.dtype) * max(A.size(-2), A.size(-1))

    def as_t(x):
        if isinstance(x, _C.TensorBase):
            if x.dtype.is_complex:
                raise RuntimeError(f"{pyname}: atol and rtol must be real tensors")
            return x.to(device=A.device, dtype=rdt)
        return _C.full((), float(x), dtype=rdt, device=A.device)
    at = as_t(atol) if atol is not None else None
    if rtol is not None:
        rt = as_t(rtol)
    elif at is not None:
        rt = _C._where(at.gt(0), 0.0, default)
    else:
        rt = _C.full((), default, dtype=rdt, device=A.device)
    if at is None:
        at = _C.zeros((), dtype=rdt, device=A.device)
    return at, rt


def _cutoff(S, atol, rtol):
    """max(atol, rtol * largest value) per matrix, with a trailing unit dim to compare S."""
    smax = S.amax(-1) if S.size(-1) else S.sum(-1)
    return _C.maximum(atol, rtol * smax).unsqueeze(-1)


def _check_pinv(A, pyname):
    check_tensor(A, pyname, "A", 1)
    if A.dim() < 2 or A.dtype not in la.LAPACK_DTYPES:
        raise RuntimeError(f"linalg.pinv({_scalar_type_name(A.dtype)}{{{list(A.shape)}}}): "
                           "expected a tensor with 2 or more dimensions of float, double, cfloat "
                           "or cdouble types")


def linalg_pinv(A, rcond=None, hermitian=False, *, atol=None, rtol=None, out=None):
    """The Moore-Penrose pseudoinverse: singular values (|eigenvalues| with hermitian=True)
    up to max(atol, rtol * largest) count as zero.  The positional rcond of torch's older
    signature is rtol (atol 0 then)."""
    _check_pinv(A, "linalg_pinv")
    if rcond is not None:
        atol, rtol = 0.0, rcond
    at, rt = _tolerances(A, atol, rtol, "linalg.pinv")
    if hermitian:
        _check_eigh(A, "L", "linalg_pinv")
        w, V = _syevd(A, "L", True)
        keep = w.abs().gt(_cutoff(w.abs(), at, rt))
        inv = _C._where(keep, 1.0 / w.masked_fill(~keep, 1), 0.0).to(A.dtype)
        P = (V * inv.unsqueeze(-2)) @ V.mH
    else:
        _check_finite(A, "linalg.svd")
        U, S, Vh = _gesdd(A, "S")
        keep = S.gt(_cutoff(S, at, rt))
        inv = _C._where(keep, 1.0 / S.masked_fill(~keep, 1), 0.0).to(A.dtype)
        P = (Vh.mH * inv.unsqueeze(-2)) @ U.mH
    return la.store_out(out, P, "linalg_pinv") if out is not None else P


def pinverse(input, rcond=1e-15):
    """torch.pinverse: linalg.pinv with rtol=rcond."""
    return _op("linalg_pinv")(input, rcond)


def linalg_matrix_rank(A, tol=None, hermitian=False, *, atol=None, rtol=None, out=None):
    """The number of singular values (|eigenvalues| with hermitian=True) above
    max(atol, rtol * largest); torch's older tol= is atol with rtol 0."""
    check_tensor(A, "linalg_matrix_rank", "input", 1)
    if A.dim() < 2:
        raise RuntimeError("torch.linalg.matrix_rank: The input tensor input must have at least "
                           "2 dimensions.")
    if A.dtype not in la.LAPACK_DTYPES:
        raise RuntimeError("This function doesn't handle types other than float and double")
    if tol is not None:
        atol, rtol = tol, 0.0
    at, rt = _tolerances(A, atol, rtol, "linalg.matrix_rank")
    if hermitian:
        _check_eigh(A, "L", "linalg_matrix_rank")
        S = _syevd(A, "L", False)[0].abs()
    else:
        _check_finite(A, "linalg.svd")
        S = _gesdd(A, "N")[1]
    r = S.gt(_cutoff(S, at, rt)).sum(-1)
    return la.store_out(out, r, "linalg_matrix_rank") if out is not None else r


# ---- names torch removed: they raise torch's errors ---------------------------------------------

_REMOVED = "This function was deprecated since version 1.9 and is now removed. "


def qr(input, some=True, *, out=None):
    _check_bool(some, "qr", "some", 2)
    raise RuntimeError(_REMOVED + "`torch.qr` is deprecated in favor of `torch.linalg.qr` and the "
                       "boolean parameter `some` has been replaced with a string parameter "
                       "`mode`.\n\nQ, R = torch.qr(A) should be replaced with:\nQ, R = "
                       "torch.linalg.qr(A, mode='reduced')\n\nand\n\nQ, R = torch.qr(A, some=False) "
                       "should be replaced with:\nQ, R = torch.linalg.qr(A, mode='complete')\n\n"
                       f"Since `some` was set to {bool(some)}, use mode="
                       f"'{'reduced' if some else 'complete'}'.")


def symeig(input, eigenvectors=False, upper=True, *, out=None):
    raise RuntimeError(_REMOVED + "The default behavior has changed from using the upper "
                       "triangular portion of the matrix by default to using the lower triangular "
                       "portion.\n\nL, _ = torch.symeig(A, upper=upper) should be replaced with:\n"
                       "L = torch.linalg.eigvalsh(A, UPLO='U' if upper else 'L')\n\nand\n\nL, V = "
                       "torch.symeig(A, eigenvectors=True) should be replaced with:\nL, V = "
                       "torch.linalg.eigh(A, UPLO='U' if upper else 'L')")


def eig(input, eigenvectors=False, *, out=None):
    raise RuntimeError(_REMOVED + "`torch.linalg.eig` returns complex tensors of dtype `cfloat` or "
                       "`cdouble` rather than real tensors mimicking complex tensors.\n\nL, _ = "
                       "torch.eig(A) should be replaced with:\nL_complex = torch.linalg.eigvals(A)"
                       "\n\nand\n\nL, V = torch.eig(A, eigenvectors=True) should be replaced with:\n"
                       "L_complex, V_complex = torch.linalg.eig(A)")


def lstsq(input, A, *, out=None):
    raise RuntimeError(_REMOVED + "`torch.lstsq` is deprecated in favor of `torch.linalg.lstsq`.\n"
                       "`torch.linalg.lstsq` has reversed arguments and does not return the QR "
                       "decomposition in the returned tuple (although it returns other information "
                       "about the problem).\n\nTo get the QR decomposition consider using "
                       "`torch.linalg.qr`.\n\nThe returned solution in `torch.lstsq` stored the "
                       "residuals of the solution in the last m - n columns of the returned value "
                       "whenever m > n. In torch.linalg.lstsq, the residuals are in the field "
                       "'residuals' of the returned named tuple.\n\nThe unpacking of the solution, "
                       "as in\nX, _ = torch.lstsq(B, A).solution[:A.size(1)]\nshould be replaced "
                       "with:\nX = torch.linalg.lstsq(A, B).solution")


def matrix_rank(input, tol=None, symmetric=False, *, out=None):
    raise RuntimeError("This function was deprecated since version 1.9 and is now removed.\nPlease "
                       "use the `torch.linalg.matrix_rank` function instead. The parameter "
                       "'symmetric' was renamed in `torch.linalg.matrix_rank()` to 'hermitian'.")


# ---- Householder reflectors: geqrf, householder_product (orgqr), ormqr ---------------------

geqrf_ret = la.return_type("geqrf", ["a", "tau"])
polar_ret = la.return_type("linalg_polar", ["U", "H"])


def geqrf(input, *, out=None):
    """(a, tau): LAPACK's QR with R on and above a's diagonal and the Householder vectors
    below it (torch.geqrf; its derivative is not implemented, as in torch)."""
    check_tensor(input, "geqrf", "input", 1)
    if input.dim() < 2:
        raise RuntimeError("torch.geqrf: input must have at least 2 dimensions.")
    check_dtype(input, "torch.geqrf")
    m, n = input.size(-2), input.size(-1)
    F = la.fortran(input)
    tau = _C.empty(tuple(input.shape)[:-2] + (min(m, n),), dtype=input.dtype,
                   device=input.device)
    _C._lapack_geqrf(F, tau)
    if out is not None:
        return la.store_outs(out, (F, tau), "geqrf", geqrf_ret)
    return geqrf_ret(F, tau)


def _check_householder(A, tau, fname):
    check_matrix(A, fname, "input")
    if A.size(-2) < A.size(-1):
        raise RuntimeError(f"{fname}: input.shape[-2] must be greater than or equal to "
                           "input.shape[-1]")
    if tau.dim() != A.dim() - 1:
        raise RuntimeError(f"{fname}: Expected tau to have one dimension less than input, but got "
                           f"tau.ndim equal to {tau.dim()} and input.ndim is equal to {A.dim()}")
    if A.size(-1) < tau.size(-1):
        raise RuntimeError(f"{fname}: input.shape[-1] must be greater than or equal to "
                           "tau.shape[-1]")
    if tuple(tau.shape)[:-1] != tuple(A.shape)[:-2]:
        raise RuntimeError(f"{fname}: Expected batch dimensions of tau to be equal to "
                           f"input.shape[:-2], but got {list(tau.shape[:-1])}")
    if tau.dtype != A.dtype:
        raise RuntimeError(f"{fname}: tau dtype {_scalar_type_name(tau.dtype)} does not match input dtype "
                           f"{_scalar_type_name(A.dtype)}")
    check_dtype(A, fname)


def _apply_reflectors(A, tau, X):
    """H_1 H_2 ... H_k X with H_i = I - tau_i v_i v_i^H, v_i column i of A below the
    diagonal with a 1 on it (recorded ops: the composite is differentiable)."""
    m, k = A.size(-2), tau.size(-1)
    V = A[..., :, :k].tril(-1) + _eye((), m, A.dtype, A.device)[:, :k]
    for i in range(k - 1, -1, -1):
        v = V[..., :, i:i + 1]
        X = X - tau[..., i:i + 1].unsqueeze(-1) * (v @ (v.mH @ X))
    return X


def linalg_householder_product(A, tau, *, out=None):
    """The first n columns of H_1 ... H_k from geqrf-style reflectors (LAPACK's orgqr; the
    reflectors applied as recorded products when a gradient is needed)."""
    check_tensor(A, "linalg_householder_product", "input", 1)
    check_tensor(tau, "linalg_householder_product", "tau", 2)
    _check_householder(A, tau, "torch.linalg.householder_product")
    m, n = A.size(-2), A.size(-1)
    if out is not None:
        la.check_out_grad("linalg_householder_product", A, tau)
    if _needs_grad(A, tau):
        Q = _apply_reflectors(A, tau, _eye((), m, A.dtype, A.device)[:, :n].expand(tuple(A.shape)))
    else:
        with _no_grad():
            Q = la.fortran(A)
            _C._lapack_orgqr(Q, tau.contiguous())
    return la.store_out(out, Q, "linalg_householder_product") if out is not None else Q


def orgqr(input, tau, *, out=None):
    """torch.orgqr: linalg.householder_product."""
    return linalg_householder_product(input, tau, out=out)


def ormqr(input, tau, other, left=True, transpose=False, *, out=None):
    """op(Q) @ other (left) or other @ op(Q), Q = H_1 ... H_k from geqrf-style reflectors,
    op the conjugate transpose when transpose=True."""
    check_tensor(input, "ormqr", "input", 1)
    check_tensor(tau, "ormqr", "input2", 2)
    check_tensor(other, "ormqr", "input3", 3)
    check_matrix(other, "torch.ormqr", "other")
    _check_householder(input, tau, "torch.ormqr")
    if other.dtype != input.dtype:
        raise RuntimeError(f"torch.ormqr: Expected input and other to have the same dtype, but "
                           f"input has dtype {_scalar_type_name(input.dtype)} and other has dtype "
                           f"{_scalar_type_name(other.dtype)}")
    m = input.size(-2)
    if (other.size(-2) if left else other.size(-1)) != m:
        raise RuntimeError(f"torch.ormqr: other.shape[{-2 if left else -1}] must be equal to "
                           f"input.shape[-2]")
    pad = _C.zeros(tuple(input.shape)[:-1] + (m - input.size(-1),), dtype=input.dtype,
                      device=input.device)
    Q = _apply_reflectors(_C.cat([input, pad], -1) if m > input.size(-1) else input, tau,
                          _eye((), m, input.dtype, input.device).expand(tuple(input.shape)[:-2] + (m, m)))
    Q = Q.mH if transpose else Q
    r = Q @ other if left else other @ Q
    return la.store_out(out, r, "ormqr") if out is not None else r


# ---- functions of Hermitian matrices and the polar decomposition -------------------------------

def linalg_matrix_sqrth(A):
    """The principal square root V diag(sqrt(w)) V^H of Hermitian positive-(semi)definite
    matrices (eigenvalues below zero count as zero), read from the lower triangle."""
    check_tensor(A, "linalg_matrix_sqrth", "A", 1)
    check_matrix(A, "linalg.matrix_sqrth", square=True)
    check_dtype(A, "linalg.matrix_sqrth")
    w, V = _syevd(A, "L", True)
    s = w.clamp_min(0).sqrt().to(A.dtype)
    return (V * s.unsqueeze(-2)) @ V.mH


def linalg_polar(A, *, out=None):
    """(U, H) with A = U H: U with orthonormal columns (the nearest to A), H Hermitian
    positive-semidefinite; A m x n with m >= n (through the SVD: U = W Vh, H = V S Vh)."""
    check_tensor(A, "linalg_polar", "A", 1)
    check_matrix(A, "linalg.polar")
    check_dtype(A, "linalg.polar")
    if A.size(-2) < A.size(-1):
        raise RuntimeError("linalg.polar: input must have at least as many rows as columns, but "
                           f"got {A.size(-2)} by {A.size(-1)} matrices")
    _check_finite(A, "linalg.svd")
    W, S, Vh = _gesdd(A, "S")
    U = W @ Vh
    H = (Vh.mH * S.to(A.dtype).unsqueeze(-2)) @ Vh
    if out is not None:
        return la.store_outs(out, (U, H), "linalg_polar", polar_ret)
    return polar_ret(U, H)
