"""The LAPACK behind minitorch.linalg (Note [Run-time LAPACK] in aten_lite/lapack.h): which
library is opened and when, its errors, the batched drivers' checks of their operands, the
batch split over the thread pool, and hostile inputs (non-finite values, unusual layouts and
sizes) that must give torch's errors or values, never a crash or a hang."""
import math
import os
import subprocess
import sys
import threading

import numpy as np
import pytest

import minitorch as torch
from minitorch import _C

L = torch.linalg


def _run(code, **env):
    e = dict(os.environ, **env)
    r = subprocess.run([sys.executable, "-c", code], env=e, capture_output=True, text=True,
                       timeout=120)
    return r.returncode, r.stdout, r.stderr


def test_lapack_with_the_builtin_gemm():
    # MINITORCH_BLAS=0 keeps the products on the built-in GEMM; LAPACK still comes from
    # scipy-openblas32, opened at the first decomposition
    pytest.importorskip("scipy_openblas32")
    code = ("import minitorch as t\n"
            "assert t._C._blas_info() is None\n"
            "x = t.tensor([[4.0, 3.0], [6.0, 3.0]], dtype=t.float64)\n"
            "print(t.linalg.inv(x).tolist(), 'scipy_openblas' in t._C._lapack_ensure())")
    rc, out, err = _run(code, MINITORCH_BLAS="0")
    assert rc == 0, err
    assert out.strip() == "[[-0.5, 0.5], [1.0, -0.6666666666666666]] True"


@pytest.mark.parametrize("var", ["MINITORCH_LAPACK", "MINITORCH_BLAS"])
def test_missing_library_is_an_error_at_first_use(var):
    code = ("import minitorch as t\n"
            "print(t.ones(2, 2).sum().item())\n"           # importing and other ops are fine
            "try:\n    t.linalg.det(t.eye(2))\n"
            "except RuntimeError as e:\n    print(e)\n")
    rc, out, err = _run(code, **{var: "/nonexistent/liblapack.so"})
    assert rc == 0, err
    lines = out.splitlines()
    assert lines[0] == "4.0"
    assert lines[1].startswith("cannot load LAPACK library /nonexistent/liblapack.so")


def test_library_without_lapack_names_what_is_missing():
    import ctypes.util
    libm = ctypes.util.find_library("m")
    if libm is None:
        pytest.skip("no libm to stand in for a library without LAPACK")
    code = ("import minitorch as t\n"
            "try:\n    t.linalg.inv(t.eye(2))\n"
            "except RuntimeError as e:\n    print(e)\n")
    rc, out, err = _run(code, MINITORCH_LAPACK=libm)
    assert rc == 0, err
    assert "does not provide the LAPACK routines minitorch.linalg uses (missing: sgetrf_" in out


def test_drivers_reject_bad_operands():
    # the private drivers check what they are given: wrong dtypes, layouts and counts raise
    a = torch.eye(3)
    piv = torch.empty(3, dtype=torch.int32)
    info = torch.empty((), dtype=torch.int32)
    with pytest.raises(RuntimeError, match="LAPACK driver: the matrix"):
        _C._lapack_getrf(a, piv, info)                      # row-major, not column-major
    f = a.mT.contiguous().mT
    with pytest.raises(RuntimeError, match="the pivots"):
        _C._lapack_getrf(f, torch.empty(2, dtype=torch.int32), info)
    with pytest.raises(RuntimeError, match="the pivots"):
        _C._lapack_getrf(f, torch.empty(3, dtype=torch.int64), info)
    with pytest.raises(RuntimeError, match="info"):
        _C._lapack_getrf(f, piv, torch.empty(2, dtype=torch.int32))
    with pytest.raises(RuntimeError, match="the matrix"):
        _C._lapack_getrf(f.to(torch.int64), piv, info)
    with pytest.raises(RuntimeError, match="the right-hand side"):
        _C._lapack_getrs(f, piv, torch.empty(4, 2).mT.contiguous().mT, "N")
    with pytest.raises(RuntimeError, match="the singular values"):
        _C._lapack_gesdd(f, torch.empty(2), None, None, "N", info)
    with pytest.raises(RuntimeError):
        _C._lapack_gesdd(f, torch.empty(3), None, None, "A", info)     # vectors asked, not given
    with pytest.raises(TypeError):
        _C._lapack_potrf(f, True, 3)
    with pytest.raises(IndexError):
        _C._lapack_permutation(torch.tensor([4, 1], dtype=torch.int32),
                               torch.empty(3, dtype=torch.int64))


def test_batches_split_over_the_pool_give_the_same_results():
    rng = np.random.default_rng(0)
    a = rng.standard_normal((64, 24, 24)) + 24 * np.eye(24)
    A = torch.tensor(a)
    old = torch.get_num_threads()
    results = []
    try:
        for n in (1, 3):
            torch.set_num_threads(n)
            results.append([L.inv(A), L.det(A), L.svdvals(A), L.eigvalsh(A + A.mT),
                            L.qr(A).R, L.cholesky(A @ A.mT), L.eigvals(A)])
    finally:
        torch.set_num_threads(old)
    for x, y in zip(*results):
        assert torch.equal(x, y)          # each matrix is one LAPACK call, whichever thread


def test_calls_from_several_threads():
    rng = np.random.default_rng(1)
    a = rng.standard_normal((8, 16, 16)) + 16 * np.eye(16)
    A = torch.tensor(a)
    ref = np.linalg.inv(a)
    errors = []

    def work():
        try:
            for _ in range(20):
                np.testing.assert_allclose(L.inv(A).numpy(), ref, rtol=1e-10, atol=1e-12)
                L.svd(A)
        except Exception as e:          # noqa: BLE001
            errors.append(e)
    threads = [threading.Thread(target=work) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors


@pytest.mark.parametrize("value", [math.nan, math.inf, -math.inf])
@pytest.mark.parametrize("dt", [torch.float32, torch.complex128])
def test_non_finite_inputs_never_hang(value, dt):
    for n in (1, 3, 8):
        for pos in ((0, 0), (n - 1, 0), (n // 2, n - 1)):
            A = (torch.randn(n, n) + n * torch.eye(n)).to(dt)
            A[pos] = value
            B = torch.ones(n, 2, dtype=dt)
            # values through, as torch: NaN/inf results
            Ai = L.inv(A)                                # an infinite pivot may give 0s
            assert not math.isnan(value) or not bool(Ai.isfinite().all())
            L.det(A), L.slogdet(A), L.lu_factor_ex(A), L.qr(A), L.matrix_exp(A)
            L.cholesky_ex(A), L.solve_ex(A, B), L.lstsq(A, B, driver="gelsy")
            # errors where LAPACK cannot iterate on them
            for fn in (L.svd, L.svdvals, L.pinv, L.matrix_rank, L.cond):
                with pytest.raises(L.LinAlgError, match="non-finite"):
                    fn(A)
            for fn in (L.eig, L.eigvals):
                with pytest.raises(RuntimeError, match="should not contain infs or NaNs"):
                    fn(A)
            for driver in ("gelsd", "gelss"):
                with pytest.raises(L.LinAlgError, match="non-finite"):
                    L.lstsq(A, B, driver=driver)
            # eigh reads one triangle: a non-finite value in it fails to converge, else it is
            # not seen
            H = A.triu() + A.triu(1).mH if pos[0] <= pos[1] else A.tril() + A.tril(-1).mH
            uplo = "U" if pos[0] <= pos[1] else "L"
            with pytest.raises(L.LinAlgError, match="failed to converge"):
                L.eigh(H, UPLO=uplo)


def test_layouts():
    rng = np.random.default_rng(2)
    a = rng.standard_normal((4, 6, 6)) + 6 * np.eye(6)
    A = torch.tensor(a)
    views = {
        "transposed": (A.mT, np.swapaxes(a, -1, -2)),
        "strided": (A[::2, ::2, ::2], a[::2, ::2, ::2]),
        "flipped": (A.flip(-1), a[..., ::-1]),
        "expanded": (A[:1].expand(3, 6, 6), np.broadcast_to(a[:1], (3, 6, 6))),
        "offset": (A[1:, 1:, 1:], a[1:, 1:, 1:]),
    }
    for name, (v, ref) in views.items():
        np.testing.assert_allclose(L.inv(v).numpy(), np.linalg.inv(ref), rtol=1e-9, atol=1e-12,
                                   err_msg=name)
        np.testing.assert_allclose(L.svdvals(v).numpy(), np.linalg.svd(ref, compute_uv=False),
                                   rtol=1e-9, err_msg=name)
        np.testing.assert_allclose(L.solve(v, v).numpy(), np.broadcast_to(np.eye(v.shape[-1]),
                                                                          v.shape), atol=1e-9)
    x = A.clone()
    L.inv(x), L.qr(x), L.svd(x), L.eigh(x), L.cholesky(x @ x.mT)
    assert torch.equal(x, A)                       # inputs are never written


def test_sizes():
    # matrices with no elements, whatever their other dimension, and empty batches
    assert L.svdvals(torch.empty(0, 3_000_000_000)).shape == (0,)
    assert L.qr(torch.empty(5, 0, 7)).R.shape == (5, 0, 7)
    assert L.inv(torch.empty(0, 2, 2)).shape == (0, 2, 2)
    assert L.solve(torch.empty(0, 2, 2), torch.empty(0, 2, 1)).shape == (0, 2, 1)
    assert L.eigh(torch.empty(3, 0, 0)).eigenvalues.shape == (3, 0)
    assert L.lstsq(torch.empty(2, 0, 3), torch.empty(2, 0, 1)).solution.shape == (2, 3, 1)
    assert L.det(torch.empty(0, 4, 4)).shape == (0,)
    assert L.lu(torch.empty(0, 5)).P.shape == (0, 0)
    with pytest.raises((MemoryError, RuntimeError, ValueError)):
        L.inv(torch.empty(1 << 30, 1 << 30))


def test_dtypes_without_lapack_raise_torchs_errors():
    for dt in (torch.int32, torch.bool, torch.uint8):
        x = torch.ones(3, 3, dtype=dt)
        for fn in (L.inv, L.det, L.cholesky, L.qr, L.svd, L.matrix_exp):
            with pytest.raises((NotImplementedError, RuntimeError)):
                fn(x)
    for dt in (torch.float16, torch.bfloat16):
        with pytest.raises(NotImplementedError, match="Low precision dtypes not supported"):
            L.inv(torch.eye(3, dtype=dt))
