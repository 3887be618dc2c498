"""Linear algebra of CUDA tensors (Note [LAPACK on device tensors] in csrc/lapack_binding.c):
every decomposition, solver, inverse, determinant, norm and function of a matrix gives results
on the input's device holding the CPU's values, gradients flow back to the device, and errors
are the CPU's.  Runs on a GPU or on the emulated device (MINITORCH_CUDA=EMULATE,
.ci/cuda_emulated); skipped without one."""
import numpy as np
import pytest

import minitorch as torch

pytestmark = pytest.mark.skipif(torch.cuda.device_count() == 0,
                                reason="needs a CUDA device (a GPU, or the emulated build)")

LA = torch.linalg


def _mat(*shape, dtype=torch.float64, seed=0, spd=False):
    g = np.random.default_rng(seed)
    a = g.standard_normal(shape)
    if dtype.is_complex:
        a = a + 1j * g.standard_normal(shape)
    t = torch.from_numpy(a).to(dtype)
    if spd:
        t = t @ t.mH + shape[-1] * torch.eye(shape[-1], dtype=dtype)
    return t


def _flat(r):
    """The tensors of a result (a tensor, a tuple or a named tuple), in order."""
    if isinstance(r, torch.Tensor):
        return [r]
    return [x for part in r for x in _flat(part)]


def _same_on_device(got, want, dev, rtol=1e-9, atol=1e-9):
    g, w = _flat(got), _flat(want)
    assert len(g) == len(w)
    for a, b in zip(g, w):
        assert a.device == dev, (a.device, dev)
        assert a.dtype == b.dtype and tuple(a.shape) == tuple(b.shape)
        if a.numel():
            np.testing.assert_allclose(a.cpu().numpy(), b.numpy(), rtol=rtol, atol=atol)


A3 = lambda dt=torch.float64: _mat(2, 3, 3, dtype=dt)          # noqa: E731
SPD = lambda dt=torch.float64: _mat(2, 3, 3, dtype=dt, spd=True)  # noqa: E731

# name -> (function, inputs); the outputs are compared with the CPU's
CASES = {
    "det": (LA.det, lambda: [A3()]),
    "slogdet": (LA.slogdet, lambda: [A3()]),
    "logdet": (torch.logdet, lambda: [SPD()]),
    "inv": (LA.inv, lambda: [A3()]),
    "inv_ex": (LA.inv_ex, lambda: [A3()]),
    "solve": (LA.solve, lambda: [A3(), _mat(2, 3, 2, seed=1)]),
    "solve_ex": (LA.solve_ex, lambda: [A3(), _mat(2, 3, 2, seed=1)]),
    "cholesky": (LA.cholesky, lambda: [SPD()]),
    "cholesky_ex": (LA.cholesky_ex, lambda: [SPD()]),
    "cholesky_inverse": (torch.cholesky_inverse, lambda: [LA.cholesky(SPD())]),
    "cholesky_solve": (torch.cholesky_solve, lambda: [_mat(2, 3, 2, seed=2), LA.cholesky(SPD())]),
    "lu_factor": (LA.lu_factor, lambda: [A3()]),
    "lu": (LA.lu, lambda: [_mat(3, 4)]),
    "lu_solve": (lambda LU, piv, B: LA.lu_solve(LU, piv, B),
                 lambda: [*LA.lu_factor(A3()), _mat(2, 3, 2, seed=3)]),
    "lu_unpack": (torch.lu_unpack, lambda: [*LA.lu_factor(A3())]),
    "qr": (LA.qr, lambda: [_mat(4, 3)]),
    "qr_complete": (lambda a: LA.qr(a, mode="complete"), lambda: [_mat(4, 3)]),
    "svdvals": (LA.svdvals, lambda: [_mat(4, 3)]),
    "matrix_norm_2": (lambda a: LA.matrix_norm(a, 2), lambda: [_mat(4, 3)]),
    "matrix_norm_nuc": (lambda a: LA.matrix_norm(a, "nuc"), lambda: [_mat(4, 3)]),
    "cond": (LA.cond, lambda: [A3()]),
    "matrix_rank": (LA.matrix_rank, lambda: [_mat(4, 3)]),
    "pinv": (LA.pinv, lambda: [_mat(4, 3)]),
    "lstsq": (lambda a, b: LA.lstsq(a, b, driver="gelsd"), lambda: [_mat(4, 3), _mat(4, 2, seed=4)]),
    "lstsq_gels": (lambda a, b: LA.lstsq(a, b).solution, lambda: [_mat(4, 3), _mat(4, 2, seed=4)]),
    "eigvalsh": (LA.eigvalsh, lambda: [SPD()]),
    "eigvals": (LA.eigvals, lambda: [A3()]),
    "matrix_exp": (LA.matrix_exp, lambda: [A3()]),
    "matrix_power_neg": (lambda a: LA.matrix_power(a, -2), lambda: [A3()]),
    "solve_triangular": (lambda a, b: LA.solve_triangular(a.triu(), b, upper=True),
                         lambda: [A3(), _mat(2, 3, 2, seed=5)]),
    "householder_product": (lambda a: LA.householder_product(*torch.geqrf(a)), lambda: [_mat(4, 3)]),
    "geqrf": (torch.geqrf, lambda: [_mat(4, 3)]),
    "ormqr": (lambda a, c: torch.ormqr(*torch.geqrf(a), c), lambda: [_mat(4, 3), _mat(4, 2, seed=6)]),
    "tensorinv": (lambda a: LA.tensorinv(a, ind=1), lambda: [_mat(4, 2, 2)]),
    "tensorsolve": (LA.tensorsolve, lambda: [_mat(2, 3, 6), _mat(2, 3, seed=7)]),
    "complex_inv": (LA.inv, lambda: [A3(torch.complex128)]),
    "complex_det": (LA.det, lambda: [A3(torch.complex128)]),
    "float32_solve": (LA.solve, lambda: [A3(torch.float32), _mat(2, 3, 2, dtype=torch.float32)]),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_results_stay_on_the_device(name):
    fn, make = CASES[name]
    args = make()
    dev = torch.device("cuda", 0)
    want = fn(*args)
    got = fn(*[a.to(dev) for a in args])
    tol = 1e-4 if any(a.dtype == torch.float32 for a in args) else 1e-9
    _same_on_device(got, want, dev, rtol=tol, atol=tol)


def test_decompositions_with_sign_freedom():
    # eigenvectors and singular vectors are defined up to a sign (a phase): check what they
    # reconstruct on the device
    dev = torch.device("cuda", 0)
    a = _mat(4, 3).to(dev)
    U, S, Vh = LA.svd(a, full_matrices=False)
    assert {U.device, S.device, Vh.device} == {dev}
    np.testing.assert_allclose((U * S.unsqueeze(-2) @ Vh).cpu().numpy(), a.cpu().numpy(),
                               atol=1e-10)
    s = SPD().to(dev)
    w, V = LA.eigh(s)
    assert w.device == V.device == dev
    np.testing.assert_allclose((V * w.unsqueeze(-2) @ V.mT).cpu().numpy(), s.cpu().numpy(),
                               atol=1e-9)
    g = A3().to(dev)
    w, V = LA.eig(g)
    assert w.device == V.device == dev and w.dtype == torch.complex128
    np.testing.assert_allclose((g.to(torch.complex128) @ V).cpu().numpy(),
                               (V * w.unsqueeze(-2)).cpu().numpy(), atol=1e-9)


@pytest.mark.parametrize("name", ["det", "inv", "solve", "cholesky", "svdvals", "pinv",
                                  "matrix_exp", "slogdet", "eigvalsh"])
def test_gradients_flow_back_to_the_device(name):
    fn, make = CASES[name]
    dev = torch.device("cuda", 0)
    cpu = [a.clone().requires_grad_() for a in make()]
    cuda = [a.to(dev).requires_grad_() for a in make()]
    for args in (cpu, cuda):
        sum(o.sum() for o in _flat(fn(*args)) if o.is_floating_point()).backward()
    for c, g in zip(cpu, cuda):
        assert g.grad.device == dev
        np.testing.assert_allclose(g.grad.cpu().numpy(), c.grad.numpy(), rtol=1e-8, atol=1e-8)


def test_out_arguments_on_the_device():
    dev = torch.device("cuda", 0)
    a = A3().to(dev)
    out = torch.empty(0, dtype=torch.float64, device=dev)
    r = LA.inv(a, out=out)
    assert r is out and out.device == dev
    np.testing.assert_allclose(out.cpu().numpy(), LA.inv(A3()).numpy(), rtol=1e-10)


def test_errors_are_the_cpus():
    dev = torch.device("cuda", 0)
    sing = torch.zeros(3, 3, dtype=torch.float64, device=dev)
    with pytest.raises(torch.linalg.LinAlgError, match="singular"):
        LA.inv(sing)
    with pytest.raises(torch.linalg.LinAlgError, match="positive-definite"):
        LA.cholesky(-torch.eye(3, dtype=torch.float64, device=dev))
    _, info = LA.inv_ex(sing)
    assert info.device == dev and int(info) == 1
    with pytest.raises(RuntimeError, match="square"):
        LA.det(torch.ones(2, 3, device=dev))
