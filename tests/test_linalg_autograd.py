"""Derivatives of minitorch.linalg: gradcheck and gradgradcheck in float64 for every function
(inputs where it is smooth: well-conditioned matrices, distinct singular values and
eigenvalues; losses of singular vectors and eigenvectors that do not depend on their phase),
central differences for complex inputs (first and second order), torch's conventions where the
gradient is a choice (captured from torch 2.15 in REF below), node names and errors."""
import math
import warnings

import numpy as np
import pytest

import minitorch as torch
from laref import complex_gradcheck
from minitorch.autograd import gradcheck, gradgradcheck

L = torch.linalg
D = torch.float64


def _t(a, grad=True):
    return torch.tensor(np.asarray(a), dtype=D, requires_grad=grad)


def _r(rng, *shape):
    return _t(rng.standard_normal(shape))


def _wc(rng, n, batch=()):
    """Random n x n matrices plus n I."""
    return _t(rng.standard_normal(batch + (n, n)) + n * np.eye(n))


def _spd(a):
    return a @ a.mT + torch.eye(a.shape[-1], dtype=a.dtype)


def _cases(rng):
    """name -> (function, inputs): outputs that do not depend on a phase of singular vectors
    or eigenvectors."""
    r, wc = (lambda *s: _r(rng, *s)), (lambda n, b=(): _wc(rng, n, b))
    sing = _t([[1.0, 2.0, 3.0], [2.0, 4.0, 6.0], [1.0, 0.0, 1.0]])
    return {
        "inv": (L.inv, [wc(3, (2,))]),
        "inv_ex": (lambda a: L.inv_ex(a).inverse, [wc(3)]),
        "solve": (L.solve, [wc(3, (2,)), r(2, 3, 2)]),
        "solve_vector": (L.solve, [wc(3), r(3)]),
        "solve_right": (lambda a, b: L.solve(a, b, left=False), [wc(3), r(2, 3)]),
        "solve_broadcast": (L.solve, [wc(3, (2, 1)), r(3, 3, 2)]),
        "det": (L.det, [wc(3, (2,))]),
        "det_singular": (L.det, [sing]),
        "slogdet": (lambda a: L.slogdet(a).logabsdet, [wc(3, (2,))]),
        "logdet": (lambda a: torch.logdet(_spd(a)), [r(3, 3)]),
        "cholesky": (lambda a: L.cholesky(_spd(a)), [r(2, 3, 3)]),
        "cholesky_upper": (lambda a: L.cholesky(_spd(a), upper=True), [r(3, 3)]),
        "cholesky_solve": (lambda b, a: torch.cholesky_solve(b, L.cholesky(_spd(a))),
                           [r(3, 2), r(3, 3)]),
        "cholesky_inverse": (lambda a: torch.cholesky_inverse(L.cholesky(_spd(a))), [r(3, 3)]),
        "qr_tall": (L.qr, [r(4, 3)]),
        "qr_wide": (L.qr, [r(3, 4)]),
        "qr_complete_square": (lambda a: L.qr(a, mode="complete"), [r(3, 3)]),
        "svd": (lambda a: (lambda u, s, vh: (u @ vh, s))(*L.svd(a, full_matrices=False)),
                [r(2, 4, 3)]),
        "svd_wide": (lambda a: (lambda u, s, vh: (u @ vh, s))(*L.svd(a, full_matrices=False)),
                     [r(3, 4)]),
        "svd_full": (lambda a: (lambda u, s, vh: (u[:, :3] @ vh, s))(*L.svd(a)), [r(4, 3)]),
        "svd_projector": (lambda a: (lambda u, s, vh: u @ u.mT)(*L.svd(a, full_matrices=False)),
                          [r(4, 3)]),
        "torch_svd": (lambda a: (lambda u, s, v: (u @ v.mT, s))(*torch.svd(a)), [r(4, 3)]),
        "svdvals": (L.svdvals, [r(2, 4, 3)]),
        "eigh": (lambda a: (lambda w, v: (w, v @ torch.diag_embed(w.exp()) @ v.mT, v * v))(
            *L.eigh(a + a.mT)), [r(3, 3)]),
        "eigh_upper": (lambda a: (lambda w, v: (w, v * v))(*L.eigh(a + a.mT, UPLO="U")),
                       [r(3, 3)]),
        "eigvalsh": (lambda a: L.eigvalsh(a + a.mT), [r(2, 3, 3)]),
        "eig": (lambda a: (lambda w, v: ((v @ torch.diag_embed(w.exp()) @ L.inv(v)).real,
                                         torch.view_as_real(w)))(*L.eig(a)), [r(3, 3)]),
        "eigvals": (lambda a: torch.view_as_real(L.eigvals(a)), [r(3, 3)]),
        "pinv": (L.pinv, [r(4, 3)]),
        "pinv_wide": (L.pinv, [r(2, 3, 4)]),
        "pinv_hermitian": (lambda a: L.pinv(_spd(a), hermitian=True), [r(3, 3)]),
        "pinverse": (torch.pinverse, [r(3, 4)]),
        "lstsq": (lambda a, b: L.lstsq(a, b).solution, [r(5, 3), r(5, 2)]),
        "lstsq_vector": (lambda a, b: L.lstsq(a, b, driver="gelsd").solution, [r(2, 5, 3), r(2, 5)]),
        "lu_factor": (lambda a: L.lu_factor(a).LU, [wc(3, (2,))]),
        "lu": (lambda a: L.lu(a)[1:], [wc(3)]),
        "lu_tall": (lambda a: L.lu(a)[1:], [r(4, 3)]),
        "lu_wide": (lambda a: L.lu(a)[1:], [r(3, 4)]),
        "lu_solve": (lambda a, b: L.lu_solve(*L.lu_factor(a), b), [wc(3), r(3, 2)]),
        "lu_solve_adjoint": (lambda a, b: L.lu_solve(*L.lu_factor(a), b, adjoint=True),
                             [wc(3), r(3, 2)]),
        "lu_solve_right": (lambda a, b: L.lu_solve(*L.lu_factor(a), b, left=False), [wc(3), r(2, 3)]),
        "lu_solve_right_adjoint": (lambda a, b: L.lu_solve(*L.lu_factor(a), b, left=False,
                                                           adjoint=True), [wc(3), r(2, 3)]),
        "lu_solve_packed": (lambda lu, b: L.lu_solve(lu, torch.tensor([1, 2, 3], dtype=torch.int32),
                                                      b), [wc(3), r(3, 2)]),
        "solve_triangular": (lambda a, b: L.solve_triangular(a, b, upper=True), [wc(3), r(3, 2)]),
        "solve_triangular_lower_right_unit": (
            lambda a, b: L.solve_triangular(a, b, upper=False, left=False, unitriangular=True),
            [wc(3), r(2, 3)]),
        "triangular_solve": (lambda b, a: torch.triangular_solve(b, a, transpose=True)[0],
                             [r(3, 2), wc(3)]),
        "cross": (L.cross, [r(2, 3), r(2, 3)]),
        "cross_broadcast": (lambda a, b: L.cross(a, b, dim=0), [r(3, 1), r(3, 2)]),
        "matrix_exp": (L.matrix_exp, [r(2, 3, 3)]),
        "matrix_exp_scaled": (lambda a: L.matrix_exp(6 * a), [r(3, 3)]),
        "matrix_power": (lambda a: L.matrix_power(a, -3), [wc(3)]),
        "multi_dot": (lambda a, b, c: L.multi_dot([a, b, c]), [r(3), r(3, 4), r(4, 2)]),
        "vecdot": (L.vecdot, [r(2, 3), r(2, 3)]),
        "vector_norm": (lambda a: L.vector_norm(a, 3, dim=1), [r(2, 3)]),
        "vector_norm_inf": (lambda a: L.vector_norm(a, math.inf), [r(2, 3)]),
        "matrix_norm_nuc": (lambda a: L.matrix_norm(a, "nuc"), [r(2, 4, 3)]),
        "matrix_norm_2": (lambda a: L.matrix_norm(a, 2), [r(2, 4, 3)]),
        "matrix_norm_1": (lambda a: L.matrix_norm(a, 1), [r(2, 4, 3)]),
        "norm_fro": (torch.norm, [r(2, 4, 3)]),
        "norm_nuc": (lambda a: torch.norm(a, "nuc"), [r(4, 3)]),
        "cond": (L.cond, [r(4, 3)]),
        "cond_1": (lambda a: L.cond(a, 1), [wc(3)]),
        "tensorinv": (lambda a: L.tensorinv(a.reshape(4, 2, 2), 1), [wc(4)]),
        "tensorsolve": (lambda a, b: L.tensorsolve(a.reshape(2, 2, 4), b), [wc(4), r(2, 2)]),
        "householder_product": (L.householder_product, [r(4, 3), r(2)]),
        "ormqr": (lambda a, t, c: torch.ormqr(a, t, c, left=False, transpose=True),
                  [r(4, 3), r(3), r(2, 4)]),
        "vander": (lambda x: L.vander(x, N=4), [r(2, 3)]),
        "matrix_sqrth": (lambda a: L.matrix_sqrth(_spd(a)), [r(2, 3, 3)]),
        "polar": (L.polar, [r(4, 3)]),
        "polar_square": (L.polar, [wc(3)]),
    }


NAMES = list(_cases(np.random.default_rng(0)))


@pytest.mark.parametrize("name", NAMES)
def test_gradcheck_and_gradgradcheck(name):
    f, inputs = _cases(np.random.default_rng(0))[name]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")              # the deprecated names warn
        assert gradcheck(f, inputs)
        assert gradgradcheck(f, inputs)


# ---- complex inputs: central differences along both parts ----------------------------------

C = torch.complex128


def _c(rng, *shape, shift=0.0):
    a = rng.standard_normal(shape) + 1j * rng.standard_normal(shape)
    if shift:
        a = a + shift * np.eye(shape[-1])
    return torch.tensor(a, dtype=C)


def _hpd(a):
    return a @ a.mH + torch.eye(a.shape[-1], dtype=a.dtype)


def _complex_cases(rng):
    c = lambda *s, shift=0.0: _c(rng, *s, shift=shift)   # noqa: E731
    return {
        "inv": (L.inv, [c(2, 3, 3, shift=3)]),
        "solve": (L.solve, [c(3, 3, shift=3), c(3, 2)]),
        "det": (L.det, [c(3, 3)]),
        "slogdet": (lambda a: L.slogdet(a), [c(3, 3)]),
        "cholesky": (lambda a: L.cholesky(_hpd(a)), [c(3, 3)]),
        "qr": (L.qr, [c(4, 3)]),
        "qr_wide": (L.qr, [c(3, 4)]),
        "svd": (lambda a: (lambda u, s, vh: (u @ vh, s))(*L.svd(a, full_matrices=False)),
                [c(4, 3)]),
        "svd_wide": (lambda a: (lambda u, s, vh: (u @ vh, s))(*L.svd(a, full_matrices=False)),
                     [c(3, 4)]),
        "svdvals": (L.svdvals, [c(3, 3)]),
        "eigh": (lambda a: (lambda w, v: (w, v @ torch.diag_embed(w.exp().to(C)) @ v.mH))(
            *L.eigh(a + a.mH)), [c(3, 3)]),
        "eig": (lambda a: (lambda w, v: (v @ torch.diag_embed(w.exp()) @ L.inv(v), w))(*L.eig(a)),
                [c(3, 3)]),
        "pinv": (L.pinv, [c(4, 3)]),
        "lstsq": (lambda a, b: L.lstsq(a, b).solution, [c(4, 3), c(4, 2)]),
        "lu": (lambda a: L.lu(a)[1:], [c(3, 3, shift=3)]),
        "lu_solve_adjoint": (lambda a, b: L.lu_solve(*L.lu_factor(a), b, adjoint=True),
                             [c(3, 3, shift=3), c(3, 2)]),
        "solve_triangular": (lambda a, b: L.solve_triangular(a, b, upper=False, left=False),
                             [c(3, 3, shift=3), c(2, 3)]),
        "cross": (L.cross, [c(2, 3), c(2, 3)]),
        "matrix_exp": (L.matrix_exp, [c(3, 3)]),
        "vector_norm": (lambda a: L.vector_norm(a, 3), [c(2, 3)]),
        "matrix_norm_nuc": (lambda a: L.matrix_norm(a, "nuc"), [c(3, 3)]),
        "logdet": (lambda a: torch.logdet(a), [c(3, 3, shift=3)]),
        "householder_product": (L.householder_product, [c(4, 3), c(2)]),
        "vander": (lambda x: L.vander(x, N=3), [c(3)]),
        "matrix_sqrth": (lambda a: L.matrix_sqrth(_hpd(a)), [c(3, 3)]),
        "polar": (L.polar, [c(4, 3)]),
    }


COMPLEX_NAMES = list(_complex_cases(np.random.default_rng(0)))


@pytest.mark.parametrize("name", COMPLEX_NAMES)
def test_complex_first_and_second_order(name):
    f, inputs = _complex_cases(np.random.default_rng(1))[name]
    assert complex_gradcheck(f, inputs)
    # the gradient of a fixed real loss is itself differentiable (double backward)

    def first(*xs):
        with torch.enable_grad():
            # the numerical side calls this without grad: its inputs then become leaves
            xs = [x if x.requires_grad else x.detach().requires_grad_() for x in xs]
            outs = f(*xs)
            outs = outs if isinstance(outs, tuple) else (outs,)
            loss = 0
            rng = np.random.default_rng(2)
            for o in outs:
                w = torch.tensor(rng.standard_normal(tuple(o.shape)), dtype=o.dtype)
                loss = loss + ((w.conj() * o).real.sum() if o.dtype.is_complex else (w * o).sum())
            return torch.autograd.grad(loss, xs, create_graph=True)
    assert complex_gradcheck(first, inputs, eps=1e-5, rtol=1e-4, atol=1e-6)


# ---- torch's conventions ------------------------------------------------------------------

def test_cholesky_complex_gradient_is_torchs():
    # for complex inputs torch's gradient is not Hermitian (half the imaginary part of the
    # diagonal of L^H gL stays): the same values
    A = torch.tensor(REF["A_CHOL"], dtype=C, requires_grad=True)
    (L.cholesky(A) * torch.tensor(REF["W_CHOL"], dtype=C)).real.sum().backward()
    np.testing.assert_allclose(A.grad.numpy(), np.array(REF["G_CHOL"]), atol=1e-9)


def test_eigh_gradient_is_symmetric_as_torchs():
    H = torch.tensor(REF["H_EIGH"], dtype=D, requires_grad=True)
    w, V = L.eigh(H)
    ((V * V * torch.tensor(REF["WV_EIGH"], dtype=D)).sum() +
     (w * torch.tensor(REF["WW_EIGH"], dtype=D)).sum()).backward()
    np.testing.assert_allclose(H.grad.numpy(), np.array(REF["G_EIGH"]), atol=1e-9)


def test_det_of_singular_matrices_is_the_adjugate():
    # det's gradient is adj(A)^T, also where A is singular (rank n - 1 and a batch mixing ranks)
    A = torch.tensor([[[2.0, 1.0, 0.0], [4.0, 2.0, 0.0], [1.0, 1.0, 1.0]],
                      [[1.0, 2.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 2.0]]], dtype=D,
                     requires_grad=True)
    L.det(A).sum().backward()
    a = A.detach().numpy()
    for k in range(2):
        adj = np.array([[(-1) ** (i + j) * np.linalg.det(np.delete(np.delete(a[k], i, 0), j, 1))
                         for j in range(3)] for i in range(3)])
        np.testing.assert_allclose(A.grad[k].numpy(), adj, atol=1e-10)
    B = torch.zeros(3, 3, dtype=D, requires_grad=True)       # rank 0: zero gradient
    L.det(B).backward()
    assert not B.grad.any()


def test_repeated_values_with_value_only_losses():
    # svdvals / eigvalsh of matrices with repeated values: no division by their gaps
    for fn, A in ((L.svdvals, torch.eye(3, dtype=D)), (L.eigvalsh, torch.eye(3, dtype=D)),
                  (lambda a: L.matrix_norm(a, "nuc"), torch.eye(3, dtype=D))):
        A = A.clone().requires_grad_()
        fn(A).sum().backward()
        np.testing.assert_allclose(A.grad.numpy(), np.eye(3), atol=1e-12)


def test_matrix_sqrth_of_repeated_eigenvalues():
    # the Sylvester form divides by sums of square roots, not by gaps: finite at 4 I (torch's
    # values); a second derivative there would need eigh's, which has none
    A = (4 * torch.eye(3, dtype=D)).requires_grad_()
    L.matrix_sqrth(A).sum().backward()
    np.testing.assert_allclose(A.grad.numpy(), np.full((3, 3), 0.25), atol=1e-12)


def test_node_names():
    A = torch.tensor(np.random.default_rng(3).standard_normal((3, 3)) + 3 * np.eye(3),
                     dtype=D, requires_grad=True)
    S = A @ A.mT
    names = {
        "LinalgInvExBackward0": L.inv(A), "LinalgDetBackward0": torch.det(A),
        "LinalgSlogdetBackward0": L.slogdet(A)[1], "LinalgSvdBackward0": L.svdvals(A),
        "LinalgEighBackward0": L.eigvalsh(S), "LinalgEigBackward0": L.eigvals(A),
        "LinalgCholeskyExBackward0": L.cholesky(S), "LinalgQrBackward0": L.qr(A)[0],
        "LinalgSolveExBackward0": L.solve(A, A), "LinalgLstsqBackward0": L.lstsq(A, A)[0],
        "LinalgLuFactorExBackward0": L.lu_factor(A)[0], "LinalgLuBackward0": L.lu(A)[1],
        "LinalgLuSolveBackward0": L.lu_solve(*L.lu_factor(A), A),
        "LinalgSolveTriangularBackward0": L.solve_triangular(A, A, upper=True),
        "LinalgMatrixExpBackward0": L.matrix_exp(A), "LinalgCrossBackward0": L.cross(A, A),
        "LinalgVectorNormBackward0": L.matrix_norm(A), "LinalgPinvBackward0": L.pinv(A),
    }
    for name, t in names.items():
        assert type(t.grad_fn).__name__ == name
    assert L.matrix_rank(A).grad_fn is None and not L.matrix_rank(A).requires_grad


def test_errors():
    A = torch.randn(4, 3, dtype=D, requires_grad=True)
    with pytest.raises(RuntimeError, match=r"The derivative of linalg.qr depends on Q, which is not "
                       r"computed when mode='r'"):
        L.qr(A, mode="r")[1].sum().backward()
    with pytest.raises(RuntimeError, match=r"The QR decomposition is not differentiable when "
                       r"mode='complete' and nrows > ncols."):
        L.qr(A, mode="complete")[1].sum().backward()
    B = torch.randn(3, 3, dtype=D, requires_grad=True)
    for call in (lambda: L.inv(B, out=torch.empty(3, 3, dtype=D)),
                 lambda: L.inv_ex(B, out=(torch.empty(3, 3, dtype=D),
                                          torch.empty((), dtype=torch.int32))),
                 lambda: L.svdvals(B, out=torch.empty(3, dtype=D)),
                 lambda: torch.norm(B, out=torch.empty((), dtype=D))):
        with pytest.raises(RuntimeError, match=r"functions with out=\.\.\. arguments don't support "
                           r"automatic differentiation, but one of the arguments requires grad."):
            call()
    with torch.no_grad():
        L.inv(B, out=torch.empty(3, 3, dtype=D))


def test_batches_and_broadcast_gradients():
    rng = np.random.default_rng(4)
    A = _wc(rng, 3, (2, 1))
    B = _r(rng, 4, 3, 2)
    X = L.solve(A, B)
    assert X.shape == (2, 4, 3, 2)
    X.sum().backward()
    assert A.grad.shape == (2, 1, 3, 3) and B.grad.shape == (4, 3, 2)
    ref = sum(np.linalg.solve(np.swapaxes(A.detach().numpy(), -1, -2),
                              np.ones((2, 4, 3, 2)))[:, i] for i in range(4))
    np.testing.assert_allclose(B.grad.numpy(), np.linalg.solve(
        np.swapaxes(A.detach().numpy(), -1, -2), np.ones((2, 4, 3, 2))).sum(0), atol=1e-12)
    assert ref.shape == (2, 3, 2)
    E = torch.empty(0, 3, 3, dtype=D, requires_grad=True)
    L.inv(E).sum().backward()
    assert E.grad.shape == (0, 3, 3)


# Values captured from torch 2.15 (CPU): inputs rounded to 12 digits, gradients of
# sum(Re(W * cholesky(A))) for a complex Hermitian A, and of sum(V * V * WV) + sum(w * WW)
# for (w, V) = eigh(H).
REF = {
    "A_CHOL": [[(1.916704645231 + 0j), (-0.396707438422 + 0.245791708784j),
                (-0.717798360346 + 0.718787040558j)],
               [(-0.396707438422 - 0.245791708784j), (3.860980851418 - 0j),
                (1.162604419395 - 1.672026354778j)],
               [(-0.717798360346 - 0.718787040558j), (1.162604419395 + 1.672026354778j),
                (5.541832880364 + 0j)]],
    "W_CHOL": [[(-1.901222739801 - 0.538692895847j), (-1.289537739785 - 0.048500945401j),
                (-1.841735037792 + 0.113308986003j)],
               [(-0.235091131075 - 1.530135765505j), (-1.267446481444 - 0.477753276034j),
                (0.271264358822 - 0.978519078057j)],
               [(0.156751086624 - 0.808837239426j), (-0.18693094463 + 1.060898623386j),
                (-2.516759710821 - 0.807534675332j)]],
    "G_CHOL": [[(-0.6723267854017279 + 0.027284542501864056j),
                (-0.09027539371500005 - 0.573686669728525j),
                (-0.10343449563004027 + 0.004906016352298995j)],
               [(-0.15025385338824246 + 0.524407227806638j),
                (-0.35082438931048965 + 0.12603759962057232j),
                (0.018807584920810236 - 0.04368109961127426j)],
               [(-0.20507537015765814 + 0.14654918007271145j),
                (0.19112902968221457 - 0.05466381787810982j),
                (-0.6229600280307142 + 0.1998847255133959j)]],
    "H_EIGH": [[-0.065043409891, 0.772687917799, -1.808656259161],
               [0.772687917799, 0.220928286499, 0.139922004632],
               [-1.808656259161, 0.139922004632, 2.717646843483]],
    "WV_EIGH": [[-1.547144678128, 0.859382688022, 0.119354025697],
                [-0.641470394107, 2.000416546342, 0.762259712085],
                [-1.199288902105, 0.074516228771, 0.57668958367]],
    "WW_EIGH": [-0.188782125351, 0.682910267195, -0.066517320149],
    "G_EIGH": [[-0.1472752393143352, 0.18814169257474347, 0.02018249957056837],
               [0.18814169257474345, 0.5821973688833899, 0.24182938605036022],
               [0.020182499570568384, 0.24182938605036025, -0.0073113078740135486]],
}
