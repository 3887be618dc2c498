"""Linear systems through LAPACK: inv/inv_ex, solve/solve_ex, det/slogdet/logdet, LU
(lu_factor, lu, lu_unpack, lu_solve), Cholesky (cholesky, cholesky_ex, cholesky_solve,
cholesky_inverse), triangular solves, matrix_power and tensorinv/tensorsolve: values against
NumPy, batches (empty ones and 0 x 0 matrices too), layouts, out=, and torch's errors."""
import warnings

import numpy as np
import pytest

import minitorch as torch
from laref import LA_DTYPES, close, hpd, rand, wellcond

L = torch.linalg
BATCHES = [(), (3,), (2, 2), (0,)]


@pytest.fixture
def rng():
    return np.random.default_rng(0)


# ---- inverses ------------------------------------------------------------------------------

@pytest.mark.parametrize("dt", LA_DTYPES)
@pytest.mark.parametrize("batch", BATCHES)
def test_inv_matches_numpy(rng, dt, batch):
    A, a = wellcond(rng, batch + (4, 4), dt)
    X = L.inv(A)
    assert X.dtype == dt and X.shape == A.shape
    close(X, np.linalg.inv(a) if a.size else a, dt)
    close(torch.inverse(A), np.linalg.inv(a) if a.size else a, dt)
    close(A.inverse(), np.linalg.inv(a) if a.size else a, dt)
    Y, info = L.inv_ex(A)
    assert info.dtype == torch.int32 and tuple(info.shape) == batch
    assert not info.any()


def test_inv_layout_and_empty():
    # torch returns the inverse column-major: strides (1, 3) for 3 x 3, (9, 1, 3) for a batch
    assert L.inv(torch.eye(3)).stride() == (1, 3)
    assert L.inv(torch.eye(3).expand(2, 3, 3)).stride() == (9, 1, 3)
    assert L.inv(torch.empty(2, 0, 0)).shape == (2, 0, 0)
    # non-contiguous, negative-stride and expanded inputs are read as they are
    a = np.random.default_rng(1).standard_normal((6, 6)) + 6 * np.eye(6)
    A = torch.tensor(a)
    close(L.inv(A[::2, ::2]), np.linalg.inv(a[::2, ::2]), torch.float64)
    close(L.inv(A.flip(0)), np.linalg.inv(a[::-1]), torch.float64)
    close(L.inv(A.mT), np.linalg.inv(a.T), torch.float64)


def test_inv_errors():
    with pytest.raises(RuntimeError, match=r"^linalg.inv: A must be batches of square matrices, "
                       r"but they are 2 by 3 matrices$"):
        L.inv(torch.ones(2, 3))
    with pytest.raises(RuntimeError, match=r"^linalg.inv: The input tensor A must have at least 2 "
                       r"dimensions.$"):
        L.inv(torch.ones(3))
    with pytest.raises(NotImplementedError, match=r"^linalg.inv: Expected a floating point or "
                       r"complex tensor as input. Got Long$"):
        L.inv(torch.eye(3, dtype=torch.int64))
    with pytest.raises(NotImplementedError, match=r"^linalg.inv: Low precision dtypes not "
                       r"supported. Got Half$"):
        L.inv(torch.eye(3, dtype=torch.float16))
    with pytest.raises(TypeError, match=r"linalg_inv\(\): argument 'A' \(position 1\) must be "
                       r"Tensor, not int"):
        L.inv(3)
    sing = torch.zeros(3, 3)
    with pytest.raises(L.LinAlgError, match=r"^linalg.inv: The diagonal element 1 is zero, the "
                       r"inversion could not be completed because the input matrix is singular.$"):
        L.inv(sing)
    assert issubclass(L.LinAlgError, RuntimeError)
    with pytest.raises(L.LinAlgError, match=r"^linalg.inv: \(Batch element 1\): The diagonal "
                       r"element 2 is zero"):
        L.inv(torch.stack([torch.eye(3), torch.tensor([[1., 0, 0], [0, 0, 0], [0, 0, 1]])]))
    X, info = L.inv_ex(sing)
    assert int(info) == 1 and not bool(X.isfinite().all())
    with pytest.raises(L.LinAlgError, match=r"^linalg.inv_ex: \(Batch element 1\): The diagonal"):
        L.inv_ex(torch.stack([torch.eye(3), sing]), check_errors=True)


def test_inv_out():
    A = torch.tensor([[4.0, 3.0], [6.0, 3.0]])
    out = torch.empty(2, 2)
    assert L.inv(A, out=out) is out
    np.testing.assert_allclose(out.numpy(), np.linalg.inv(A.numpy()), rtol=1e-6)
    with pytest.raises(RuntimeError, match=r"^Expected out tensor to have dtype float, but got "
                       r"double instead$"):
        L.inv(A, out=torch.empty(2, 2, dtype=torch.float64))
    with pytest.raises(RuntimeError, match=r"Expected out tensor to have dtype int, but got long "
                       r"int instead"):
        L.inv_ex(A, out=(torch.empty(2, 2), torch.empty((), dtype=torch.int64)))
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        small = torch.empty(3)
        L.inv(A, out=small)                  # resized as torch resizes outputs, with its warning
    assert small.shape == (2, 2) and any("resized" in str(x.message) for x in w)
    r = L.inv_ex(A, out=(torch.empty(2, 2), torch.empty((), dtype=torch.int32)))
    assert r.inverse.shape == (2, 2) and int(r.info) == 0


# ---- solve ---------------------------------------------------------------------------------

@pytest.mark.parametrize("dt", LA_DTYPES)
def test_solve_matches_numpy(rng, dt):
    A, a = wellcond(rng, (2, 4, 4), dt)
    B, b = rand(rng, (2, 4, 3), dt)
    close(L.solve(A, B), np.linalg.solve(a, b), dt)
    # X A = B
    Bt, bt = rand(rng, (2, 3, 4), dt)
    close(L.solve(A, Bt, left=False), bt @ np.linalg.inv(a), dt)
    # vectors: B of A's batch shape with one dim less, or 1-D (broadcast)
    v, vn = rand(rng, (2, 4), dt)
    close(L.solve(A, v), np.linalg.solve(a, vn[..., None])[..., 0], dt)
    w, wn = rand(rng, (4,), dt)
    close(L.solve(A, w), np.stack([np.linalg.solve(x, wn) for x in a]), dt)
    X, info = L.solve_ex(A, B)
    assert info.dtype == torch.int32 and info.shape == (2,) and not info.any()


def test_solve_broadcasting_and_info_shape(rng):
    A, a = wellcond(rng, (2, 1, 3, 3), torch.float64)
    B, b = rand(rng, (5, 3, 4), torch.float64)
    X = L.solve(A, B)
    assert X.shape == (2, 5, 3, 4) and X.stride() == (60, 12, 1, 3)
    close(X, np.linalg.solve(a, b), torch.float64)
    assert L.solve_ex(A, B).info.shape == (2, 1)                # A's batch shape, as torch
    # a (3, 3, 3) A and a (3, 3) B: B is a batch of vectors (torch's rule)
    A3, a3 = wellcond(rng, (3, 3, 3), torch.float64)
    B3, b3 = rand(rng, (3, 3), torch.float64)
    close(L.solve(A3, B3), np.linalg.solve(a3, b3[..., None])[..., 0], torch.float64)


def test_solve_errors():
    A = torch.eye(3)
    with pytest.raises(RuntimeError, match=r"^linalg.solve: Incompatible shapes of A and B for the "
                       r"equation AX = B \(3x3 and 4x1\)$"):
        L.solve(A, torch.ones(4))
    with pytest.raises(RuntimeError, match=r"equation AX = B \(3x3 and 4x2\)$"):
        L.solve(A, torch.ones(4, 2))
    with pytest.raises(RuntimeError, match=r"equation XA = B \(3x3 and 2x4\)$"):
        L.solve(A, torch.ones(2, 4), left=False)
    with pytest.raises(RuntimeError, match=r"equation XA = B \(3x3 and 3x1\)$"):
        L.solve(A, torch.ones(3), left=False)          # vectors are columns, as in torch
    with pytest.raises(RuntimeError, match=r"^linalg.solve: Expected A and B to have the same "
                       r"dtype, but found A of type Float and B of type Double instead$"):
        L.solve(A, torch.ones(3, dtype=torch.float64))
    with pytest.raises(RuntimeError, match=r"The input tensor B must have at least 2 dimensions"):
        L.solve(A, torch.tensor(1.0))
    with pytest.raises(NotImplementedError, match=r"Expected a floating point or complex tensor"):
        L.solve(torch.eye(3, dtype=torch.int64), torch.ones(3, dtype=torch.int64))
    with pytest.raises(L.LinAlgError, match=r"^torch.linalg.solve: The solver failed because the "
                       r"input matrix is singular.$"):
        L.solve(torch.zeros(3, 3), torch.ones(3))
    with pytest.raises(L.LinAlgError, match=r"^torch.linalg.solve: \(Batch element 1\): The"):
        L.solve(torch.stack([A, torch.zeros(3, 3)]), torch.ones(2, 3))
    X, info = L.solve_ex(torch.zeros(3, 3), torch.ones(3))
    assert int(info) == 1
    with pytest.raises(L.LinAlgError, match=r"^torch.linalg.solve_ex: The solver failed"):
        L.solve_ex(torch.zeros(3, 3), torch.ones(3), check_errors=True)


# ---- determinants --------------------------------------------------------------------------

@pytest.mark.parametrize("dt", LA_DTYPES)
@pytest.mark.parametrize("batch", BATCHES)
def test_det_slogdet_match_numpy(rng, dt, batch):
    A, a = rand(rng, batch + (4, 4), dt)
    d = L.det(A)
    assert d.dtype == dt and tuple(d.shape) == batch
    close(d, np.linalg.det(a) if a.size else np.ones(batch), dt, scale=10)
    close(torch.det(A), np.linalg.det(a) if a.size else np.ones(batch), dt, scale=10)
    sign, logabs = L.slogdet(A)
    s2, l2 = np.linalg.slogdet(a) if a.size else (np.ones(batch), np.zeros(batch))
    assert sign.dtype == dt and logabs.dtype == (torch.float32 if dt in (torch.float32, torch.complex64)
                                                   else torch.float64)
    close(sign, s2, dt, scale=10)
    close(logabs, l2, dt, scale=10)
    r = torch.slogdet(A)
    assert type(r).__name__ == "slogdet" and r.sign.shape == sign.shape
    close(A.det(), np.linalg.det(a) if a.size else np.ones(batch), dt, scale=10)


def test_det_special_cases():
    assert L.det(torch.empty(2, 0, 0)).tolist() == [1.0, 1.0]
    sign, logabs = L.slogdet(torch.empty(0, 0))
    assert float(sign) == 1.0 and float(logabs) == 0.0
    sing = torch.tensor([[1.0, 2.0], [2.0, 4.0]])
    assert float(L.det(sing)) == 0.0
    sign, logabs = L.slogdet(sing)
    assert float(sign) == 0.0 and float(logabs) == -np.inf
    # a row swap flips the sign
    assert float(L.det(torch.tensor([[0.0, 1.0], [1.0, 0.0]]))) == -1.0
    assert np.isnan(float(torch.logdet(-torch.eye(3))))
    assert float(torch.logdet(torch.zeros(3, 3))) == -np.inf
    np.testing.assert_allclose(torch.logdet(2 * torch.eye(3, dtype=torch.float64)).item(),
                               3 * np.log(2))
    z = torch.logdet(-torch.eye(3, dtype=torch.complex128))
    np.testing.assert_allclose(complex(z), 1j * np.pi, atol=1e-12)
    assert np.isnan(float(L.det(torch.full((3, 3), float("nan")))))
    with pytest.raises(RuntimeError, match=r"^linalg.det: A must be batches of square matrices"):
        L.det(torch.ones(2, 3))
    with pytest.raises(RuntimeError, match=r"^linalg.det: The input tensor A must have at least 2"):
        torch.det(torch.ones(2))
    with pytest.raises(NotImplementedError, match=r"^linalg.slogdet: Expected a floating point"):
        L.slogdet(torch.ones(3, 3, dtype=torch.int64))
    with pytest.raises(RuntimeError, match=r"Expected out tensor to have dtype float, but got "
                       r"double instead"):
        L.det(torch.eye(2), out=torch.empty((), dtype=torch.float64))


# ---- LU ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("dt", LA_DTYPES)
@pytest.mark.parametrize("shape", [(4, 4), (2, 5, 3), (2, 3, 5), (0, 3, 3), (3, 0), (0, 2)])
def test_lu_reconstructs(rng, dt, shape):
    A, a = rand(rng, shape, dt)
    P, Lo, U = L.lu(A)
    m, n = shape[-2], shape[-1]
    k = min(m, n)
    assert P.shape == shape[:-2] + (m, m) and Lo.shape == shape[:-2] + (m, k) and \
        U.shape == shape[:-2] + (k, n)
    close(P @ Lo @ U, a, dt, scale=10)
    lo, up = Lo.numpy(), U.numpy()
    assert np.allclose(np.triu(lo, 1), 0) and np.allclose(np.tril(up, -1), 0)
    assert np.allclose(np.diagonal(lo, axis1=-2, axis2=-1), 1)
    LU, piv = L.lu_factor(A)
    assert piv.dtype == torch.int32 and piv.shape == shape[:-2] + (k,)
    P2, L2, U2 = torch.lu_unpack(LU, piv)
    np.testing.assert_array_equal(P2.numpy(), P.numpy())
    np.testing.assert_array_equal(L2.numpy(), Lo.numpy())
    np.testing.assert_array_equal(U2.numpy(), U.numpy())
    assert LU.stride()[-2:] == ((1, max(m, 1)) if m * n else LU.stride()[-2:])


def test_lu_factor_partial_pivoting():
    # the largest modulus of the column becomes the pivot: rows swapped as LAPACK's getrf does
    A = torch.tensor([[1.0, 2.0], [3.0, 4.0]])
    LU, piv = L.lu_factor(A)
    assert piv.tolist() == [2, 2]
    np.testing.assert_allclose(LU.numpy(), [[3.0, 4.0], [1 / 3, 2 / 3]], rtol=1e-6)
    P, Lo, U = L.lu(A)
    assert P.tolist() == [[0.0, 1.0], [1.0, 0.0]]
    LU, piv, info = L.lu_factor_ex(torch.zeros(3, 3))
    assert piv.tolist() == [1, 2, 3] and int(info) == 1


def test_lu_errors_and_legacy():
    with pytest.raises(RuntimeError, match=r"^torch.lu_factor: Expected tensor with 2 or more "
                       r"dimensions. Got size: \[3\] instead$"):
        L.lu_factor(torch.ones(3))
    with pytest.raises(RuntimeError, match=r"LU without pivoting is not implemented on the CPU"):
        L.lu_factor(torch.eye(3), pivot=False)
    with pytest.raises(NotImplementedError, match=r"^\"lu_cpu\" not implemented for 'Long'$"):
        L.lu(torch.ones(3, 3, dtype=torch.int64))
    with pytest.raises(RuntimeError, match=r"^torch.linalg.lu_factor: U\[1,1\] is zero and using it "
                       r"on lu_solve would result in a division by zero"):
        L.lu_factor(torch.zeros(3, 3))
    with pytest.raises(RuntimeError, match=r"^torch.linalg.lu_factor: \(Batch element 1\): U\[1,1\]"):
        L.lu_factor(torch.stack([torch.eye(3), torch.zeros(3, 3)]))
    with pytest.raises(RuntimeError, match=r"^torch.linalg.lu_factor_ex: U\[1,1\] is zero"):
        L.lu_factor_ex(torch.zeros(3, 3), check_errors=True)
    with pytest.warns(UserWarning, match="torch.lu is deprecated"):
        LU, piv = torch.lu(torch.eye(3))
    with pytest.warns(UserWarning):
        LU, piv, info = torch.eye(3).lu(get_infos=True)
    assert int(info) == 0
    with pytest.raises(RuntimeError, match=r"pivots passed to lu_unpack must be between 1 and "
                       r"LU.size\(-2\) inclusive"):
        torch.lu_unpack(torch.eye(3), torch.tensor([5, 1, 1], dtype=torch.int32))
    with pytest.raises(RuntimeError, match=r"LU_pivots is expected to be a contiguous tensor of "
                       r"torch.int32 dtype"):
        torch.lu_unpack(torch.eye(3), torch.ones(3, dtype=torch.int64))
    P, Lo, U = torch.lu_unpack(*L.lu_factor(torch.eye(3)), unpack_data=False)
    assert P.shape == (3, 3) and Lo.numel() == 0 and U.numel() == 0


@pytest.mark.parametrize("dt", LA_DTYPES)
def test_lu_solve_variants(rng, dt):
    A, a = wellcond(rng, (2, 4, 4), dt)
    LU, piv = L.lu_factor(A)
    B, b = rand(rng, (2, 4, 3), dt)
    Bt, bt = rand(rng, (2, 3, 4), dt)
    ah = np.conj(np.swapaxes(a, -1, -2))
    close(L.lu_solve(LU, piv, B), np.linalg.solve(a, b), dt)
    close(L.lu_solve(LU, piv, B, adjoint=True), np.linalg.solve(ah, b), dt)
    close(L.lu_solve(LU, piv, Bt, left=False), bt @ np.linalg.inv(a), dt)
    close(L.lu_solve(LU, piv, Bt, left=False, adjoint=True), bt @ np.linalg.inv(ah), dt)
    with pytest.warns(UserWarning, match="torch.lu_solve is deprecated"):
        close(torch.lu_solve(B, LU, piv), np.linalg.solve(a, b), dt)
    # one factorisation, a batch of right-hand sides
    B4, b4 = rand(rng, (5, 2, 4, 1), dt)
    close(L.lu_solve(LU, piv, B4), np.linalg.solve(a, b4), dt)


def test_lu_solve_errors():
    LU, piv = L.lu_factor(torch.eye(3))
    with pytest.raises(RuntimeError, match=r"^linalg.lu_solve: The input tensor B must have at least"):
        L.lu_solve(LU, piv, torch.ones(3))
    with pytest.raises(RuntimeError, match=r"equation AX = B \(3x3 and 4x2\)"):
        L.lu_solve(LU, piv, torch.ones(4, 2))
    with pytest.raises(RuntimeError, match=r"equation XA = B \(3x3 and 4x2\)"):
        L.lu_solve(LU, piv, torch.ones(4, 2), left=False)
    with pytest.raises(RuntimeError, match=r"Expected LU and B to have the same dtype, but found LU "
                       r"of type Float and B of type Double instead"):
        L.lu_solve(LU, piv, torch.ones(3, 2, dtype=torch.float64))
    with pytest.raises(RuntimeError, match=r"pivots should be a Tensor of scalar type torch.int32"):
        L.lu_solve(LU, piv.long(), torch.ones(3, 2))
    with pytest.raises(RuntimeError, match=r"Number of pivots per batch should be same as the "
                       r"dimension of the matrix"):
        L.lu_solve(LU, piv[:2], torch.ones(3, 2))
    with pytest.raises(RuntimeError, match=r"^torch.linalg.lu_solve: A must be batches of square"):
        L.lu_solve(torch.ones(3, 4), piv, torch.ones(3, 2))
    # pivots out of range are refused before LAPACK reads them
    with pytest.raises(RuntimeError, match=r"must all be greater or equal to 1"):
        L.lu_solve(LU, torch.tensor([0, 1, 1], dtype=torch.int32), torch.ones(3, 2))
    with pytest.raises(RuntimeError, match=r"must all be smaller or equal to LU.size\(-2\)"):
        L.lu_solve(LU, torch.tensor([4, 1, 1], dtype=torch.int32), torch.ones(3, 2))


# ---- Cholesky -------------------------------------------------------------------------------

@pytest.mark.parametrize("dt", LA_DTYPES)
@pytest.mark.parametrize("batch", BATCHES)
def test_cholesky_matches_numpy(rng, dt, batch):
    A, a = hpd(rng, batch + (4, 4), dt)
    ref = np.linalg.cholesky(a) if a.size else a
    close(L.cholesky(A), ref, dt)
    close(L.cholesky(A, upper=True), np.conj(np.swapaxes(ref, -1, -2)), dt)
    Lo, info = L.cholesky_ex(A)
    close(Lo, ref, dt)
    assert tuple(info.shape) == batch and not info.any()
    # only the lower triangle is read
    junk = A.clone()
    junk[..., 0, 3] = 1e6
    close(L.cholesky(junk), ref, dt)
    B, b = rand(rng, batch + (4, 2), dt)
    x = np.linalg.solve(a, b) if a.size else b
    close(torch.cholesky_solve(B, L.cholesky(A)), x, dt)
    close(torch.cholesky_solve(B, L.cholesky(A, upper=True), upper=True), x, dt)
    close(B.cholesky_solve(L.cholesky(A)), x, dt)
    inv = np.linalg.inv(a) if a.size else a
    close(torch.cholesky_inverse(L.cholesky(A)), inv, dt)
    close(L.cholesky(A, upper=True).cholesky_inverse(upper=True), inv, dt)


def test_cholesky_errors():
    with pytest.raises(L.LinAlgError, match=r"^linalg.cholesky: The factorization could not be "
                       r"completed because the input is not positive-definite \(the leading minor "
                       r"of order 1 is not positive-definite\).$"):
        L.cholesky(-torch.eye(3))
    with pytest.raises(L.LinAlgError, match=r"^linalg.cholesky: \(Batch element 1\): The"):
        L.cholesky(torch.stack([torch.eye(3), -torch.eye(3)]))
    Lo, info = L.cholesky_ex(torch.tensor([[1.0, 2.0], [2.0, 1.0]]))
    assert int(info) == 2
    with pytest.raises(L.LinAlgError, match=r"^linalg.cholesky_ex: The factorization"):
        L.cholesky_ex(-torch.eye(3), check_errors=True)
    with pytest.raises(RuntimeError, match=r"^linalg.cholesky: A must be batches of square matrices"):
        L.cholesky(torch.ones(2, 3))
    with pytest.raises(NotImplementedError, match=r"^linalg.cholesky: Expected a floating point"):
        L.cholesky(torch.ones(3, 3, dtype=torch.int64))
    with pytest.raises(RuntimeError, match=r"^b should have at least 2 dimensions, but has 1 "
                       r"dimensions instead$"):
        torch.cholesky_solve(torch.ones(3), torch.eye(3))
    with pytest.raises(RuntimeError, match=r"^Incompatible matrix sizes for cholesky_solve: each A "
                       r"matrix is 3 by 3 but each b matrix is 4 by 2$"):
        torch.cholesky_solve(torch.ones(4, 2), torch.eye(3))
    with pytest.raises(RuntimeError, match=r"^cholesky_inverse: A must be batches of square"):
        torch.cholesky_inverse(torch.ones(3, 4))
    # removed from torch: its error
    with pytest.raises(RuntimeError, match=r"^This function was deprecated since version 1.9 and "
                       r"is now removed. `torch.cholesky` is deprecated"):
        torch.cholesky(torch.eye(3))
    with pytest.raises(RuntimeError, match=r"`torch.solve` is deprecated"):
        torch.eye(3).solve(torch.eye(3))


# ---- triangular systems ---------------------------------------------------------------------

@pytest.mark.parametrize("dt", LA_DTYPES)
@pytest.mark.parametrize("upper", [True, False])
@pytest.mark.parametrize("left", [True, False])
@pytest.mark.parametrize("unit", [True, False])
def test_solve_triangular(rng, dt, upper, left, unit):
    A, a = rand(rng, (2, 4, 4), dt)
    A = A + 4 * torch.eye(4, dtype=dt)
    a = a + 4 * np.eye(4)
    tri = np.triu(a) if upper else np.tril(a)
    if unit:
        tri = tri - np.eye(4) * np.diagonal(tri, axis1=-2, axis2=-1)[..., None, :] + np.eye(4)
    shape = (2, 4, 3) if left else (2, 3, 4)
    B, b = rand(rng, shape, dt)
    X = L.solve_triangular(A, B, upper=upper, left=left, unitriangular=unit)
    ref = np.linalg.solve(tri, b) if left else b @ np.linalg.inv(tri)
    close(X, ref, dt)


def test_solve_triangular_broadcast_errors_and_legacy(rng):
    A, a = wellcond(rng, (3, 1, 3, 3), torch.float64)
    B, b = rand(rng, (2, 3, 2), torch.float64)
    X = L.solve_triangular(A, B, upper=False)
    assert X.shape == (3, 2, 3, 2)
    close(X, np.linalg.solve(np.tril(a), b), torch.float64)
    with pytest.raises(TypeError):
        L.solve_triangular(A, B)                      # upper has no default
    with pytest.raises(RuntimeError, match=r"The input tensor B must have at least 2 dimensions"):
        L.solve_triangular(torch.eye(3), torch.ones(3), upper=True)
    with pytest.raises(RuntimeError, match=r"equation AX = B \(3x3 and 4x2\)"):
        L.solve_triangular(torch.eye(3), torch.ones(4, 2), upper=True)
    with pytest.raises(NotImplementedError, match=r"\"triangular_solve_cpu\" not implemented for "
                       r"'Long'"):
        L.solve_triangular(torch.eye(3, dtype=torch.int64), torch.ones(3, 2, dtype=torch.int64),
                           upper=True)
    # a zero on the diagonal gives infinities or NaNs, as in torch, never an error
    X = L.solve_triangular(torch.zeros(3, 3), torch.ones(3, 2), upper=True)
    assert not bool(X.isfinite().all())
    A2, a2 = wellcond(rng, (3, 3), torch.float64)
    B2, b2 = rand(rng, (3, 2), torch.float64)
    with pytest.warns(UserWarning, match="torch.triangular_solve is deprecated"):
        X, M = torch.triangular_solve(B2, A2)
    close(X, np.linalg.solve(np.triu(a2), b2), torch.float64)
    assert torch.equal(M, A2) and M.data_ptr() != A2.data_ptr()
    with pytest.warns(UserWarning):
        X = B2.triangular_solve(A2, upper=False, transpose=True).solution
    close(X, np.linalg.solve(np.tril(a2).T, b2), torch.float64)


# ---- powers and tensor inverses --------------------------------------------------------------

@pytest.mark.parametrize("dt", LA_DTYPES)
def test_matrix_power(rng, dt):
    A, a = wellcond(rng, (2, 3, 3), dt)
    for n in (0, 1, 2, 5, -1, -3):
        close(L.matrix_power(A, n), np.linalg.matrix_power(a, n), dt, scale=100)
    close(torch.matrix_power(A, 3), np.linalg.matrix_power(a, 3), dt, scale=100)
    close(A.matrix_power(3), np.linalg.matrix_power(a, 3), dt, scale=100)
    i = L.matrix_power(torch.ones(3, 3, dtype=torch.int64), 0)
    assert i.dtype == torch.int64 and i.tolist() == np.eye(3).tolist()
    assert L.matrix_power(torch.ones(2, 2, dtype=torch.int64), 3).tolist() == [[4, 4], [4, 4]]
    with pytest.raises(TypeError, match=r"argument 'n' \(position 2\) must be int, not float"):
        L.matrix_power(A, 1.5)
    with pytest.raises(RuntimeError, match=r"^linalg.matrix_power: A must be batches of square"):
        L.matrix_power(torch.ones(2, 3), 2)
    with pytest.raises(NotImplementedError, match=r"^linalg.inv: Expected a floating point"):
        L.matrix_power(torch.eye(3, dtype=torch.int64), -1)
    with pytest.raises(L.LinAlgError, match=r"^linalg.inv: The diagonal element 1 is zero"):
        L.matrix_power(torch.zeros(3, 3), -1)


def test_tensorinv_tensorsolve(rng):
    A, a = wellcond(rng, (24, 24), torch.float64)
    T4 = A.reshape(4, 6, 8, 3)
    inv = L.tensorinv(T4, ind=2)
    assert inv.shape == (8, 3, 4, 6)
    close(inv.reshape(24, 24), np.linalg.inv(a), torch.float64)
    with pytest.raises(RuntimeError, match=r"^Expected self to satisfy the requirement "
                       r"prod\(self.shape\[ind:\]\) == prod\(self.shape\[:ind\]\), but got 32 != 24$"):
        L.tensorinv(torch.ones(4, 6, 8, 4), ind=2)
    with pytest.raises(RuntimeError, match=r"Expected a strictly positive integer for 'ind'"):
        L.tensorinv(torch.ones(4, 4), ind=0)
    A6, a6 = wellcond(rng, (6, 6), torch.float64)
    B, b = rand(rng, (2, 3), torch.float64)
    X = L.tensorsolve(A6.reshape(2, 3, 6), B)
    assert X.shape == (6,)
    close(X, np.linalg.solve(a6, b.reshape(6)), torch.float64)
    # dims: those dims of A move last first
    X2 = L.tensorsolve(A6.reshape(2, 3, 6).movedim(2, 0), B, dims=(0,))
    close(X2, X.numpy(), torch.float64)
