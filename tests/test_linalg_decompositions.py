"""Orthogonal and spectral decompositions through LAPACK: qr, svd/svdvals (and torch.svd),
eigh/eigvalsh, eig/eigvals, lstsq, pinv/pinverse and matrix_rank: values against NumPy (the
same LAPACK algorithms, so the same signs), gauge-free checks where conventions could differ
(reconstruction, orthonormality), shapes of torch's conventions (captured from torch 2.15),
batches (empty ones, 0 x 0 and 0 x n matrices), non-finite inputs and torch's errors."""
import math

import numpy as np
import pytest

import minitorch as torch
from laref import LA_DTYPES, close, hpd, rand

L = torch.linalg


@pytest.fixture
def rng():
    return np.random.default_rng(0)


def _h(x):
    return np.conj(np.swapaxes(x, -1, -2))


def _eye(n):
    return np.eye(n)


# ---- QR -------------------------------------------------------------------------------------

@pytest.mark.parametrize("dt", LA_DTYPES)
@pytest.mark.parametrize("shape", [(4, 4), (2, 5, 3), (2, 3, 5), (0, 3, 3)])
def test_qr_modes(rng, dt, shape):
    A, a = rand(rng, shape, dt)
    m, n = shape[-2], shape[-1]
    k = min(m, n)
    Q, R = L.qr(A)
    assert Q.shape == shape[:-2] + (m, k) and R.shape == shape[:-2] + (k, n)
    if a.size:
        q, r = np.linalg.qr(a)
        close(Q, q, dt, scale=10)
        close(R, r, dt, scale=10)
    close(Q @ R, a, dt, scale=10)
    close(Q.mH @ Q, np.broadcast_to(_eye(k), shape[:-2] + (k, k)), dt, scale=10)
    Qc, Rc = L.qr(A, mode="complete")
    assert Qc.shape == shape[:-2] + (m, m) and Rc.shape == shape
    close(Qc @ Rc, a, dt, scale=10)
    close(Qc.mH @ Qc, np.broadcast_to(_eye(m), shape[:-2] + (m, m)), dt, scale=10)
    assert np.allclose(np.tril(Rc.numpy(), -1), 0)
    Qr, Rr = L.qr(A, mode="r")
    assert Qr.shape == (0,)
    close(Rr, R.numpy(), dt)


def test_qr_empty_layout_and_errors():
    Q, R = L.qr(torch.empty(0, 3))
    assert Q.shape == (0, 0) and R.shape == (0, 3)
    Q, R = L.qr(torch.empty(4, 0), mode="complete")
    assert Q.tolist() == np.eye(4).tolist() and R.shape == (4, 0)
    Q, R = L.qr(torch.randn(2, 4, 3))
    assert Q.stride() == (12, 1, 4) and R.stride() == (9, 1, 3)   # torch's column-major results
    with pytest.raises(RuntimeError, match=r"^qr received unrecognized mode 'x' but expected one of "
                       r"'reduced' \(default\), 'r', or 'complete'$"):
        L.qr(torch.eye(3), mode="x")
    with pytest.raises(RuntimeError, match=r"^linalg.qr: The input tensor A must have at least 2"):
        L.qr(torch.ones(3))
    with pytest.raises(NotImplementedError, match=r"^linalg.qr: Expected a floating point"):
        L.qr(torch.ones(3, 3, dtype=torch.int64))
    for some, mode in ((True, "reduced"), (False, "complete")):
        with pytest.raises(RuntimeError, match=rf"`torch.qr` is deprecated in favor of "
                           rf"`torch.linalg.qr`(.|\n)*Since `some` was set to {some}, use "
                           rf"mode='{mode}'.$"):
            torch.qr(torch.eye(3), some=some)
    with pytest.raises(RuntimeError, match=r"is now removed"):
        torch.eye(3).qr()


# ---- SVD ------------------------------------------------------------------------------------

@pytest.mark.parametrize("dt", LA_DTYPES)
@pytest.mark.parametrize("shape", [(4, 4), (2, 5, 3), (2, 3, 5), (0, 3, 3)])
def test_svd(rng, dt, shape):
    A, a = rand(rng, shape, dt)
    m, n = shape[-2], shape[-1]
    k = min(m, n)
    s_ref = np.linalg.svd(a, compute_uv=False) if a.size else np.zeros(shape[:-2] + (k,))
    U, S, Vh = L.svd(A)
    rdt = torch.float32 if dt in (torch.float32, torch.complex64) else torch.float64
    assert S.dtype == rdt and U.shape == shape[:-2] + (m, m) and Vh.shape == shape[:-2] + (n, n)
    close(S, s_ref, dt)
    close(U.mH @ U, np.broadcast_to(_eye(m), shape[:-2] + (m, m)), dt, scale=10)
    close(Vh @ Vh.mH, np.broadcast_to(_eye(n), shape[:-2] + (n, n)), dt, scale=10)
    U, S, Vh = L.svd(A, full_matrices=False)
    assert U.shape == shape[:-2] + (m, k) and Vh.shape == shape[:-2] + (k, n)
    close((U * S.to(dt).unsqueeze(-2)) @ Vh, a, dt, scale=10)
    close(L.svdvals(A), s_ref, dt)
    # torch.svd: V (not Vh), some=True is the reduced form
    U2, S2, V2 = torch.svd(A)
    close((U2 * S2.to(dt).unsqueeze(-2)) @ V2.mH, a, dt, scale=10)
    assert V2.shape == shape[:-2] + (n, k)
    U3, S3, V3 = A.svd(some=False, compute_uv=False)
    assert U3.shape == shape[:-2] + (m, m) and V3.shape == shape[:-2] + (n, n)
    assert not U3.any() and not V3.any()
    close(S3, s_ref, dt)


def test_svd_conventions_and_errors():
    U, S, Vh = L.svd(torch.empty(0, 3))
    assert U.shape == (0, 0) and S.shape == (0,) and Vh.tolist() == np.eye(3).tolist()
    U, S, Vh = L.svd(torch.empty(4, 0))
    assert U.tolist() == np.eye(4).tolist() and Vh.shape == (0, 0)
    U, S, Vh = L.svd(torch.empty(0, 3), full_matrices=False)
    assert U.shape == (0, 0) and Vh.shape == (0, 3)
    U, S, Vh = L.svd(torch.randn(2, 4, 3))
    assert U.stride() == (16, 1, 4) and Vh.stride() == (9, 1, 3)
    # descending singular values, sign gauge as LAPACK's
    S = L.svdvals(torch.diag(torch.tensor([1.0, -3.0, 2.0])))
    assert S.tolist() == [3.0, 2.0, 1.0]
    with pytest.raises(RuntimeError, match=r"keyword argument `driver=` is only supported on CUDA"):
        L.svd(torch.eye(3), driver="gesvd")
    for bad in (math.nan, math.inf):
        X = torch.eye(3)
        X[1, 2] = bad
        with pytest.raises(L.LinAlgError, match=r"^linalg.svd: The algorithm failed to converge "
                           r"because the input matrix contained non-finite values.$"):
            L.svd(X)
        with pytest.raises(L.LinAlgError, match=r"^linalg.svd"):
            L.svdvals(X)
    with pytest.raises(NotImplementedError, match=r"^linalg.svd: Expected a floating point"):
        L.svd(torch.ones(2, 3, dtype=torch.int64))
    with pytest.raises(RuntimeError, match=r"^linalg.svd: The input tensor A must have at least 2"):
        L.svd(torch.ones(3))


# ---- Hermitian eigenproblems ----------------------------------------------------------------

@pytest.mark.parametrize("dt", LA_DTYPES)
@pytest.mark.parametrize("batch", [(), (3,), (0,)])
def test_eigh(rng, dt, batch):
    H, h = hpd(rng, batch + (4, 4), dt)
    w_ref = np.linalg.eigvalsh(h) if h.size else np.zeros(batch + (4,))
    w, V = L.eigh(H)
    rdt = torch.float32 if dt in (torch.float32, torch.complex64) else torch.float64
    assert w.dtype == rdt and V.dtype == dt
    close(w, w_ref, dt, scale=10)
    close((V * w.to(dt).unsqueeze(-2)) @ V.mH, h, dt, scale=10)
    close(L.eigvalsh(H), w_ref, dt, scale=10)
    # UPLO picks the triangle that is read
    lower = torch.from_numpy(np.tril(h).copy())
    upper = torch.from_numpy(np.triu(h).copy())
    close(L.eigvalsh(lower), w_ref, dt, scale=10)
    close(L.eigvalsh(upper, UPLO="U"), w_ref, dt, scale=10)
    close(L.eigh(upper, "U").eigenvalues, w_ref, dt, scale=10)


def test_eigh_errors():
    with pytest.raises(RuntimeError, match=r"^Expected UPLO argument to be 'L' or 'U', but got X$"):
        L.eigh(torch.eye(3), UPLO="X")
    with pytest.raises(RuntimeError, match=r"^linalg.eigh: A must be batches of square matrices"):
        L.eigh(torch.ones(2, 3))
    with pytest.raises(NotImplementedError, match=r"^\"linalg_eigh_cpu\" not implemented for "
                       r"'Long'$"):
        L.eigvalsh(torch.ones(3, 3, dtype=torch.int64))
    X = torch.full((3, 3), math.nan)
    with pytest.raises(L.LinAlgError, match=r"^linalg.eigh: The algorithm failed to converge "
                       r"because the input matrix is ill-conditioned or has too many repeated "
                       r"eigenvalues \(error code: \d+\).$"):
        L.eigh(X)
    # a NaN in the triangle that is not read does not matter
    Y = torch.eye(3)
    Y[0, 2] = math.nan
    assert L.eigvalsh(Y).tolist() == [1.0, 1.0, 1.0]


# ---- general eigenproblems ------------------------------------------------------------------

@pytest.mark.parametrize("dt", LA_DTYPES)
def test_eig(rng, dt):
    A, a = rand(rng, (3, 4, 4), dt)
    w, V = L.eig(A)
    cdt = torch.complex64 if dt in (torch.float32, torch.complex64) else torch.complex128
    assert w.dtype == cdt and V.dtype == cdt and V.stride() == (16, 1, 4)
    close(A.to(cdt) @ V, (V * w.unsqueeze(-2)).numpy(), dt, scale=10)
    close(L.vector_norm(V, dim=-2), np.ones((3, 4)), dt, scale=10)
    ref = np.sort_complex(np.linalg.eigvals(a).astype(np.complex128))
    close(np.sort_complex(L.eigvals(A).numpy().astype(np.complex128)), ref, dt, scale=10)


def test_eig_real_pairs_and_errors():
    w, V = L.eig(torch.tensor([[0.0, 1.0], [-1.0, 0.0]]))
    np.testing.assert_allclose(w.numpy(), [1j, -1j], atol=1e-7)
    r = 1 / math.sqrt(2)
    np.testing.assert_allclose(V.numpy(), [[r, r], [r * 1j, -r * 1j]], atol=1e-6)
    w, V = L.eig(torch.empty(0, 0))
    assert w.dtype == torch.complex64 and w.shape == (0,) and V.shape == (0, 0)
    with pytest.raises(RuntimeError, match=r"^torch.linalg.eig: input tensor should not contain "
                       r"infs or NaNs.$"):
        L.eig(torch.full((3, 3), math.inf))
    with pytest.raises(RuntimeError, match=r"^Unknown Complex ScalarType for Long$"):
        L.eigvals(torch.ones(3, 3, dtype=torch.int64))
    with pytest.raises(RuntimeError, match=r"^linalg.eig: A must be batches of square matrices"):
        L.eig(torch.ones(2, 3))
    for name in ("eig", "symeig"):
        with pytest.raises(RuntimeError, match=r"is now removed"):
            getattr(torch, name)(torch.eye(3))


# ---- least squares --------------------------------------------------------------------------

@pytest.mark.parametrize("dt", LA_DTYPES)
@pytest.mark.parametrize("driver", [None, "gels", "gelsy", "gelsd", "gelss"])
def test_lstsq_drivers(rng, dt, driver):
    A, a = rand(rng, (2, 6, 3), dt)
    B, b = rand(rng, (2, 6, 2), dt)
    r = L.lstsq(A, B, driver=driver)
    x = np.stack([np.linalg.lstsq(a[i], b[i], rcond=None)[0] for i in range(2)])
    close(r.solution, x, dt, scale=10)
    rdt = torch.float32 if dt in (torch.float32, torch.complex64) else torch.float64
    # torch's rules: residuals when m > n with every matrix of full rank, never with gelsy;
    # rank from gelsy/gelsd/gelss; singular values from gelsd/gelss
    if driver in ("gels", "gelsd", "gelss"):
        res = (np.abs(a @ x - b) ** 2).sum(-2)
        close(r.residuals, res, dt, scale=10)
    else:
        assert r.residuals.shape == (0,) and r.residuals.dtype == rdt
    if driver == "gels":
        assert r.rank.shape == (0,) and r.rank.dtype == torch.int64
    else:
        assert r.rank.tolist() == [3, 3]
    if driver in ("gelsd", "gelss"):
        close(r.singular_values, np.linalg.svd(a, compute_uv=False), dt)
    else:
        assert r.singular_values.shape == (0,)
    assert r.solution.stride() == (12, 1, 6)        # a view of the (6, 2) buffer, as in torch


def test_lstsq_shapes_rank_and_errors(rng):
    A, a = rand(rng, (2, 3, 5), torch.float64)                  # under-determined: min norm
    B, b = rand(rng, (2, 3), torch.float64)                     # a batch of vectors
    x = L.lstsq(A, B, driver="gelsd").solution
    assert x.shape == (2, 5)
    close(x, np.stack([np.linalg.lstsq(a[i], b[i], rcond=None)[0] for i in range(2)]),
          torch.float64)
    low = torch.tensor([[1.0, 2.0], [2.0, 4.0], [3.0, 6.0]], dtype=torch.float64)
    r = L.lstsq(low, torch.ones(3, 1, dtype=torch.float64), driver="gelsd")
    assert int(r.rank) == 1 and r.residuals.shape == (0,)         # rank-deficient: none
    r = L.lstsq(torch.randn(4, 3, dtype=torch.float64), torch.ones(4, 2, dtype=torch.float64),
                rcond=0.9, driver="gelss")
    assert int(r.rank) <= 3
    r = L.lstsq(torch.empty(0, 3), torch.empty(0, 2))
    assert r.solution.tolist() == [[0.0, 0.0]] * 3 and int(r.rank) == 0
    r = L.lstsq(torch.empty(3, 0), torch.ones(3, 2), driver="gelsd")
    assert r.solution.shape == (0, 2) and r.residuals.tolist() == [3.0, 3.0]
    X = L.lstsq(torch.randn(2, 1, 4, 3), torch.randn(1, 3, 4, 2)).solution
    assert X.shape == (2, 3, 3, 2)
    with pytest.raises(RuntimeError, match=r"parameter `driver` should be one of \(gels, gelsy, "
                       r"gelsd, gelss\)"):
        L.lstsq(torch.eye(3), torch.eye(3), driver="x")
    with pytest.raises(RuntimeError, match=r"^torch.linalg.lstsq: input.size\(-2\) should match "
                       r"other.size\(-2\)$"):
        L.lstsq(torch.eye(3), torch.ones(4, 2))
    with pytest.raises(RuntimeError, match=r"^torch.linalg.lstsq: Expected input and other to have "
                       r"the same dtype, but got input's dtype Float and other's dtype Double$"):
        L.lstsq(torch.eye(3), torch.ones(3, 2, dtype=torch.float64))
    with pytest.raises(RuntimeError, match=r"^torch.linalg.lstsq: input must have at least 2"):
        L.lstsq(torch.ones(3), torch.ones(3))
    with pytest.raises(RuntimeError, match=r"^torch.linalg.lstsq: other must have at least 1"):
        L.lstsq(torch.eye(3), torch.tensor(1.0))
    with pytest.raises(RuntimeError, match=r"doesn't handle types other than float and double"):
        L.lstsq(torch.eye(3, dtype=torch.int64), torch.eye(3, dtype=torch.int64))
    # the SVD-based drivers refuse non-finite values (LAPACK would not return)
    X = torch.eye(3)
    X[0, 1] = math.nan
    for driver in ("gelsd", "gelss"):
        with pytest.raises(L.LinAlgError, match=r"non-finite"):
            L.lstsq(X, torch.ones(3, 1), driver=driver)
    assert not bool(L.lstsq(X, torch.ones(3, 1), driver="gelsy").solution.isfinite().all())
    with pytest.raises(RuntimeError, match=r"`torch.lstsq` is deprecated"):
        torch.lstsq(torch.eye(3), torch.eye(3))


# ---- pseudoinverse and rank -----------------------------------------------------------------

@pytest.mark.parametrize("dt", LA_DTYPES)
@pytest.mark.parametrize("shape", [(4, 3), (2, 3, 5), (0, 3, 3), (0, 3)])
def test_pinv(rng, dt, shape):
    A, a = rand(rng, shape, dt)
    P = L.pinv(A)
    assert P.shape == shape[:-2] + (shape[-1], shape[-2])
    close(P, np.linalg.pinv(a) if a.size else np.zeros(P.shape), dt, scale=10)
    close(torch.pinverse(A), np.linalg.pinv(a) if a.size else np.zeros(P.shape), dt, scale=10)
    close(A.pinverse(), np.linalg.pinv(a) if a.size else np.zeros(P.shape), dt, scale=10)


def test_pinv_tolerances_and_hermitian(rng):
    H, h = hpd(rng, (2, 4, 4), torch.float64)
    close(L.pinv(H, hermitian=True), np.linalg.inv(h), torch.float64)
    A = torch.diag(torch.tensor([4.0, 2.0, 1e-3], dtype=torch.float64))
    assert L.pinv(A).diagonal().tolist() == [0.25, 0.5, 1000.0]
    assert L.pinv(A, rtol=0.1).diagonal().tolist() == [0.25, 0.5, 0.0]
    assert L.pinv(A, atol=1.0).diagonal().tolist() == [0.25, 0.5, 0.0]      # rtol becomes 0
    assert L.pinv(A, atol=3.0, rtol=1.0).diagonal().tolist() == [0.0, 0.0, 0.0]
    assert L.pinv(A, 0.3).diagonal().tolist() == [0.25, 0.5, 0.0]           # torch's old rcond
    assert torch.pinverse(A, rcond=0.6).diagonal().tolist() == [0.25, 0.0, 0.0]
    assert L.pinv(-A, hermitian=True, rtol=0.1).diagonal().tolist() == [-0.25, -0.5, 0.0]
    # tolerances per matrix of a batch
    AA = torch.stack([A, A])
    P = L.pinv(AA, atol=torch.tensor([0.1, 100.0], dtype=torch.float64))
    assert P[0].diagonal().tolist() == [0.25, 0.5, 0.0] and not P[1].any()
    with pytest.raises(RuntimeError, match=r"^linalg.pinv\(Long\{\[2, 3\]\}\): expected a tensor "
                       r"with 2 or more dimensions of float, double, cfloat or cdouble types$"):
        L.pinv(torch.ones(2, 3, dtype=torch.int64))
    X = torch.eye(3)
    X[0, 0] = math.nan
    with pytest.raises(L.LinAlgError, match=r"^linalg.svd: The algorithm failed"):
        L.pinv(X)


@pytest.mark.parametrize("dt", LA_DTYPES)
def test_matrix_rank(rng, dt):
    _, a = rand(rng, (3, 5, 2), dt)
    _, b = rand(rng, (3, 2, 4), dt)
    low = torch.from_numpy((a @ b).astype(a.dtype))          # rank 2
    assert L.matrix_rank(low).tolist() == [2, 2, 2]
    assert L.matrix_rank(low).dtype == torch.int64
    H = low @ low.mH
    assert L.matrix_rank(H, hermitian=True).tolist() == [2, 2, 2]
    assert L.matrix_rank(torch.eye(3, dtype=dt), atol=2.0).tolist() == 0
    assert L.matrix_rank(torch.eye(3, dtype=dt), 0.5).tolist() == 3
    assert L.matrix_rank(torch.eye(3, dtype=dt), tol=2.0).tolist() == 0
    assert L.matrix_rank(torch.empty(2, 0, 3, dtype=dt)).tolist() == [0, 0]


def test_matrix_rank_errors():
    with pytest.raises(RuntimeError, match=r"^torch.linalg.matrix_rank: The input tensor input must "
                       r"have at least 2 dimensions.$"):
        L.matrix_rank(torch.ones(3))
    with pytest.raises(RuntimeError, match=r"doesn't handle types other than float and double"):
        L.matrix_rank(torch.eye(3, dtype=torch.int64))
    with pytest.raises(RuntimeError, match=r"Please use the `torch.linalg.matrix_rank` function"):
        torch.matrix_rank(torch.eye(3))


# ---- Householder reflectors, polar decomposition, Hermitian square roots -----------------------

@pytest.mark.parametrize("dt", LA_DTYPES)
def test_geqrf_householder_product_ormqr(rng, dt):
    A, a = rand(rng, (2, 5, 3), dt)
    F, tau = torch.geqrf(A)
    assert F.shape == (2, 5, 3) and tau.shape == (2, 3)
    q, r = np.linalg.qr(a)
    close(F.triu()[..., :3, :], r, dt, scale=10)                 # R on and above the diagonal
    Q = L.householder_product(F, tau)
    close(Q, q, dt, scale=10)
    close(torch.orgqr(F, tau), q, dt, scale=10)
    Qg = L.householder_product(F.clone().requires_grad_(), tau)     # the recorded composite
    close(Qg.detach(), q, dt, scale=10)
    qf = np.linalg.qr(a, mode="complete")[0]
    C, c = rand(rng, (2, 5, 2), dt)
    close(torch.ormqr(F, tau, C), qf @ c, dt, scale=10)
    close(torch.ormqr(F, tau, C, transpose=True), _h(qf) @ c, dt, scale=10)
    Ct, ct = rand(rng, (2, 2, 5), dt)
    close(F.ormqr(tau, Ct, left=False), ct @ qf, dt, scale=10)
    close(torch.ormqr(F, tau, Ct, False, True), ct @ _h(qf), dt, scale=10)


def test_householder_errors():
    with pytest.raises(RuntimeError, match=r"input.shape\[-2\] must be greater than or equal to "
                       r"input.shape\[-1\]"):
        L.householder_product(torch.ones(3, 4), torch.ones(2))
    with pytest.raises(RuntimeError, match=r"input.shape\[-1\] must be greater than or equal to "
                       r"tau.shape\[-1\]"):
        L.householder_product(torch.ones(4, 3), torch.ones(4))
    with pytest.raises(RuntimeError, match=r"tau dtype Double does not match input dtype Float"):
        L.householder_product(torch.ones(4, 3), torch.ones(2, dtype=torch.float64))
    with pytest.raises(RuntimeError, match=r"Expected tau to have one dimension less than input"):
        L.householder_product(torch.ones(4, 3), torch.ones(1, 2))
    a, tau = torch.geqrf(torch.randn(3, 2, requires_grad=True))
    with pytest.raises(NotImplementedError, match=r"the derivative for 'geqrf' is not implemented"):
        a.sum().backward()


@pytest.mark.parametrize("dt", LA_DTYPES)
@pytest.mark.parametrize("shape", [(4, 4), (2, 5, 3), (0, 3, 3)])
def test_polar(rng, dt, shape):
    A, a = rand(rng, shape, dt)
    U, H = L.polar(A)
    n = shape[-1]
    assert U.shape == shape and H.shape == shape[:-2] + (n, n)
    close(U @ H, a, dt, scale=10)
    close(U.mH @ U, np.broadcast_to(_eye(n), shape[:-2] + (n, n)), dt, scale=10)
    close(H, _h(H.numpy()), dt)
    if a.size:
        w, s, vh = np.linalg.svd(a, full_matrices=False)
        close(U, w @ vh, dt, scale=10)
        assert (np.linalg.eigvalsh(H.numpy()) > -1e-4).all()
    with pytest.raises(RuntimeError, match=r"^linalg.polar: input must have at least as many rows "
                       r"as columns, but got 3 by 4 matrices$"):
        L.polar(torch.ones(3, 4, dtype=dt))


@pytest.mark.parametrize("dt", LA_DTYPES)
def test_matrix_sqrth(rng, dt):
    H, h = hpd(rng, (2, 4, 4), dt)
    X = L.matrix_sqrth(H)
    close(X @ X, h, dt, scale=10)
    close(X, _h(X.numpy()), dt)
    assert (np.linalg.eigvalsh(X.numpy()) > 0).all()
    r = L.matrix_sqrth(torch.tensor([[-1.0, 0.0], [0.0, 4.0]]))   # negative eigenvalues: 0
    assert r.tolist() == [[0.0, 0.0], [0.0, 2.0]]
    with pytest.raises(RuntimeError, match=r"^linalg.matrix_sqrth: A must be batches of square"):
        L.matrix_sqrth(torch.ones(2, 3))
    with pytest.raises(NotImplementedError, match=r"^linalg.matrix_sqrth: Expected a floating point"):
        L.matrix_sqrth(torch.ones(2, 2, dtype=torch.int64))


def test_ldl_is_not_implemented():
    for name in ("ldl_factor", "ldl_factor_ex"):
        with pytest.raises(NotImplementedError, match=rf"minitorch.linalg.{name} is not implemented"):
            getattr(L, name)(torch.eye(3))
    with pytest.raises(NotImplementedError, match="ldl_solve"):
        L.ldl_solve(torch.eye(3), torch.ones(3, dtype=torch.int32), torch.ones(3, 1))
