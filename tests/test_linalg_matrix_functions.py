"""Functions of matrices built on products: matrix_exp, cross (linalg.cross and torch.cross),
vecdot, multi_dot/chain_matmul, linalg.diagonal and linalg.matmul: values against NumPy,
batches, dtypes and torch's errors."""
import math

import numpy as np
import pytest

import minitorch as torch
from laref import LA_DTYPES, close, rand

L = torch.linalg


@pytest.fixture
def rng():
    return np.random.default_rng(0)


def _expm_ref(a):
    """exp of diagonalisable matrices through NumPy's eigendecomposition (complex128)."""
    w, v = np.linalg.eig(a.astype(np.complex128))
    return (v * np.exp(w)[..., None, :]) @ np.linalg.inv(v)


@pytest.mark.parametrize("dt", LA_DTYPES)
@pytest.mark.parametrize("scale", [0.01, 1.0, 8.0])
def test_matrix_exp_matches_eigendecomposition(rng, dt, scale):
    A, a = rand(rng, (3, 4, 4), dt)
    A, a = A * scale, a * scale
    ref = _expm_ref(a)
    if not dt.is_complex:
        ref = ref.real
    r = L.matrix_exp(A)
    assert r.dtype == dt and r.shape == A.shape
    close(r, ref, dt, scale=100)
    close(torch.matrix_exp(A), ref, dt, scale=100)
    close(A.matrix_exp(), ref, dt, scale=100)


def test_matrix_exp_special_cases():
    # nilpotent: exp(N) = I + N + N^2 / 2 exactly
    N = torch.tensor([[0.0, 1.0, 2.0], [0.0, 0.0, 3.0], [0.0, 0.0, 0.0]], dtype=torch.float64)
    n = N.numpy()
    np.testing.assert_allclose(L.matrix_exp(N).numpy(), np.eye(3) + n + n @ n / 2, atol=1e-14)
    # rotation generator
    t = 0.7
    G = torch.tensor([[0.0, -t], [t, 0.0]], dtype=torch.float64)
    np.testing.assert_allclose(L.matrix_exp(G).numpy(),
                               [[math.cos(t), -math.sin(t)], [math.sin(t), math.cos(t)]], atol=1e-14)
    # a batch of very different norms: each matrix scaled on its own
    D = torch.stack([torch.diag(torch.tensor([1e-3, 2e-3], dtype=torch.float64)),
                     torch.diag(torch.tensor([20.0, -30.0], dtype=torch.float64))])
    r = L.matrix_exp(D)
    np.testing.assert_allclose(r[0].diagonal().numpy(), np.exp([1e-3, 2e-3]), rtol=1e-14)
    np.testing.assert_allclose(r[1].diagonal().numpy(), np.exp([20.0, -30.0]), rtol=1e-12)
    assert L.matrix_exp(torch.empty(2, 0, 0)).shape == (2, 0, 0)
    assert abs(float(L.matrix_exp(torch.tensor([[2.0]], dtype=torch.float64))) - math.exp(2.0)) < 1e-12
    h = L.matrix_exp(torch.ones(3, 3, dtype=torch.float16))     # computed in float32 (torch: inf)
    assert h.dtype == torch.float16
    np.testing.assert_allclose(h.float().numpy(), _expm_ref(np.ones((3, 3))).real, rtol=2e-3)
    assert not bool(L.matrix_exp(torch.full((3, 3), math.nan)).isfinite().any())
    with pytest.raises(RuntimeError, match=r"^linalg.matrix_exp: A must be batches of square"):
        L.matrix_exp(torch.ones(2, 3))
    with pytest.raises(RuntimeError, match=r"^linalg.matrix_exp: The input tensor A must have at"):
        L.matrix_exp(torch.ones(3))
    with pytest.raises(NotImplementedError, match=r"^linalg.matrix_exp: Expected a floating point"):
        L.matrix_exp(torch.eye(3, dtype=torch.int64))


@pytest.mark.parametrize("dt", LA_DTYPES + [torch.int64])
def test_cross(rng, dt):
    if dt == torch.int64:
        a = rng.integers(-5, 5, (2, 4, 3))
        b = rng.integers(-5, 5, (2, 4, 3))
        A, B = torch.tensor(a), torch.tensor(b)
    else:
        A, a = rand(rng, (2, 4, 3), dt)
        B, b = rand(rng, (2, 4, 3), dt)
    close(L.cross(A, B), np.cross(a, b), torch.float64 if dt == torch.int64 else dt)
    close(L.cross(A.mT, B.mT, dim=-2), np.cross(a, b).swapaxes(-1, -2),
          torch.float64 if dt == torch.int64 else dt)
    close(torch.cross(A, B, dim=2), np.cross(a, b), torch.float64 if dt == torch.int64 else dt)
    close(A.cross(B, dim=-1), np.cross(a, b), torch.float64 if dt == torch.int64 else dt)


def test_cross_broadcast_and_errors():
    a = torch.tensor([[1.0, 0.0, 0.0]])
    b = torch.tensor([[0.0, 1.0, 0.0], [0.0, 0.0, 1.0]])
    assert L.cross(a, b).tolist() == [[0.0, 0.0, 1.0], [0.0, -1.0, 0.0]]
    with pytest.warns(UserWarning, match="Using torch.cross without specifying the dim arg is "
                      "deprecated"):
        r = torch.cross(torch.eye(3)[:2], torch.eye(3)[1:])      # the first dim of size 3: dim 1
    assert r.tolist() == [[0.0, 0.0, 1.0], [1.0, 0.0, 0.0]]
    with pytest.raises(RuntimeError, match=r"^no dimension of size 3 in input$"):
        with pytest.warns(UserWarning):
            torch.cross(torch.ones(2, 2), torch.ones(2, 2))
    with pytest.raises(RuntimeError, match=r"^linalg.cross: inputs dimension -1 must have length 3. "
                       r"Got 2 and 2$"):
        L.cross(torch.ones(2), torch.ones(2))
    with pytest.raises(RuntimeError, match=r"^linalg.cross: inputs must have the same number of "
                       r"dimensions.$"):
        L.cross(torch.ones(2, 3), torch.ones(3))
    with pytest.raises(RuntimeError, match=r"^expected scalar type Float but found Double$"):
        L.cross(torch.ones(3), torch.ones(3, dtype=torch.float64))


@pytest.mark.parametrize("dt", LA_DTYPES)
def test_vecdot(rng, dt):
    X, x = rand(rng, (2, 3, 4), dt)
    Y, y = rand(rng, (3, 4), dt)
    close(L.vecdot(X, Y), (np.conj(x) * y).sum(-1), dt, scale=10)
    close(L.vecdot(X, Y[:, :1].expand(3, 4).contiguous(), dim=1),
          (np.conj(x) * y[:, :1]).sum(1), dt, scale=10)
    with pytest.raises(RuntimeError, match=r"^linalg.vecdot: Expected x and y to have the same "
                       r"dtype, but found x of type Float and y of type Double instead$"):
        L.vecdot(torch.ones(3), torch.ones(3, dtype=torch.float64))
    with pytest.raises(NotImplementedError, match=r"^linalg.vecdot: Expected a floating point"):
        L.vecdot(torch.ones(3, dtype=torch.int64), torch.ones(3, dtype=torch.int64))


def test_multi_dot(rng):
    shapes = [(10, 100), (100, 5), (5, 50), (50, 2)]
    mats = [rand(rng, s, torch.float64) for s in shapes]
    ref = mats[0][1] @ mats[1][1] @ mats[2][1] @ mats[3][1]
    close(L.multi_dot([m for m, _ in mats]), ref, torch.float64)
    v, vn = rand(rng, (10,), torch.float64)
    w, wn = rand(rng, (2,), torch.float64)
    r = L.multi_dot([v] + [m for m, _ in mats] + [w])
    assert r.shape == ()
    close(r, vn @ ref @ wn, torch.float64)
    ints = L.multi_dot([torch.ones(3, 3, dtype=torch.int64)] * 2)
    assert ints.dtype == torch.int64 and ints.tolist() == [[3] * 3] * 3
    with pytest.warns(UserWarning, match="torch.chain_matmul is deprecated"):
        close(torch.chain_matmul(*[m for m, _ in mats]), ref, torch.float64)
    with pytest.raises(RuntimeError, match=r"^multi_dot\(\): expected at least 2 tensors but got 1$"):
        L.multi_dot([torch.eye(3)])
    with pytest.raises(RuntimeError, match=r"^multi_dot\(\): the last tensor must be 1D or 2D but "
                       r"got 3D$"):
        L.multi_dot([torch.eye(3), torch.ones(2, 3, 3)])
    with pytest.raises(RuntimeError, match=r"^multi_dot\(\): tensor 1 must be 2D but got 1D$"):
        L.multi_dot([torch.eye(3), torch.ones(3), torch.eye(3)])
    with pytest.raises(RuntimeError, match=r"^multi_dot\(\): all tensors must have be the same dtype "
                       r"but tensor 0 is float and tensor 1 double$"):
        L.multi_dot([torch.eye(3), torch.eye(3, dtype=torch.float64)])
    with pytest.raises(RuntimeError, match=r"^multi_dot\(\): tensors 0 and 1 with shapes \[3, 3\] "
                       r"and \[2, 3\] cannot be multiplied$"):
        L.multi_dot([torch.eye(3), torch.ones(2, 3)])


def test_diagonal_and_matmul(rng):
    X, x = rand(rng, (2, 3, 4), torch.float64)
    close(L.diagonal(X), np.diagonal(x, axis1=-2, axis2=-1), torch.float64)
    close(L.diagonal(X, offset=1, dim1=0, dim2=2), np.diagonal(x, 1, 0, 2), torch.float64)
    Y, y = rand(rng, (4, 5), torch.float64)
    close(L.matmul(X, Y), x @ y, torch.float64)
    out = torch.empty(2, 3, 5, dtype=torch.float64)
    assert L.matmul(X, Y, out=out) is out


def test_vander(rng):
    assert L.vander(torch.tensor([1, 2, 3, 5])).tolist() == \
        [[1, 1, 1, 1], [1, 2, 4, 8], [1, 3, 9, 27], [1, 5, 25, 125]]
    assert L.vander(torch.tensor([1, 2, 3, 5]), N=3).tolist() == \
        [[1, 1, 1], [1, 2, 4], [1, 3, 9], [1, 5, 25]]
    X, x = rand(rng, (2, 3), torch.complex128)
    close(L.vander(X, N=5), np.stack([np.vander(v, 5, increasing=True) for v in x]),
          torch.complex128)
    with pytest.raises(RuntimeError, match=r"^N must be greater than 1.$"):
        L.vander(torch.tensor([1.0, 2.0]), N=1)
    with pytest.raises(TypeError, match=r"argument 'N' must be int, not float"):
        L.vander(torch.tensor([1.0, 2.0]), N=1.5)
    with pytest.raises(NotImplementedError, match=r"supports floating point, complex, and integer "
                       r"tensors, but got Bool"):
        L.vander(torch.tensor([True, False]))
