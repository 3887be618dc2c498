"""Norms: linalg.vector_norm, linalg.matrix_norm, linalg.norm, linalg.cond and torch.norm's
dispatch over them (values against NumPy, dtypes, dims, keepdim, out=, torch's errors)."""
import math

import numpy as np
import pytest

import minitorch as torch
from laref import LA_DTYPES, close, rand, wellcond

L = torch.linalg


@pytest.fixture
def rng():
    return np.random.default_rng(0)


def _np_vector_norm(x, ord, axis):
    a = np.abs(x)
    if ord == 0:
        return np.count_nonzero(a, axis).astype(np.float64)
    if ord == math.inf:
        return a.max(axis)
    if ord == -math.inf:
        return a.min(axis)
    return (a.astype(np.float64) ** ord).sum(axis) ** (1 / ord)


@pytest.mark.parametrize("dt", LA_DTYPES)
@pytest.mark.parametrize("ord", [2, 1, 0, 3, -1, 0.5, math.inf, -math.inf])
@pytest.mark.parametrize("dim", [None, 1, (0, 2), -1])
def test_vector_norm(rng, dt, ord, dim):
    X, x = rand(rng, (2, 3, 4), dt)
    r = L.vector_norm(X, ord, dim)
    ref = _np_vector_norm(x, ord, dim)
    rdt = torch.float32 if dt in (torch.float32, torch.complex64) else torch.float64
    assert r.dtype == rdt
    close(r, ref, dt, scale=10)
    k = L.vector_norm(X, ord, dim, keepdim=True)
    assert k.dim() == 3


def test_vector_norm_dtypes_and_errors():
    x = torch.tensor([3.0, 4.0], dtype=torch.float16)
    assert L.vector_norm(x).dtype == torch.float16 and float(L.vector_norm(x)) == 5.0
    assert L.vector_norm(torch.tensor([3.0, 4.0]), dtype=torch.float64).dtype == torch.float64
    c = torch.tensor([3j, 4.0], dtype=torch.complex64)
    r = L.vector_norm(c, dtype=torch.complex128)
    assert r.dtype == torch.float64 and float(r) == 5.0
    with pytest.raises(NotImplementedError, match=r"^linalg.vector_norm: Expected a floating point "
                       r"or complex tensor as input. Got Long$"):
        L.vector_norm(torch.ones(3, dtype=torch.int64))
    with pytest.raises(NotImplementedError, match=r"Got Long$"):
        torch.norm(torch.ones(3, dtype=torch.int64))
    with pytest.raises(RuntimeError, match=r"^linalg.vector_norm: the dtype of the input \(Double\) "
                       r"should be convertible without narrowing to the specified dtype \(Float\)$"):
        L.vector_norm(torch.ones(3, dtype=torch.float64), dtype=torch.float32)
    with pytest.raises(RuntimeError, match=r"^linalg.vector_norm: dtype should be complex for "
                       r"complex inputs, but got Double$"):
        L.vector_norm(c, dtype=torch.float64)
    with pytest.raises(TypeError, match=r"argument 'ord' must be Number, not str"):
        L.vector_norm(torch.ones(3), ord="fro")
    with pytest.raises(RuntimeError, match=r"cannot compute the inf norm on an empty tensor"):
        L.vector_norm(torch.empty(0), math.inf)
    assert float(L.vector_norm(torch.empty(0))) == 0.0
    out = torch.empty(())
    assert L.vector_norm(torch.tensor([3.0, 4.0]), out=out) is out and float(out) == 5.0


@pytest.mark.parametrize("dt", LA_DTYPES)
@pytest.mark.parametrize("ord", ["fro", "nuc", 1, -1, 2, -2, math.inf, -math.inf])
def test_matrix_norm(rng, dt, ord):
    A, a = rand(rng, (2, 3, 4), dt)
    close(L.matrix_norm(A, ord), np.linalg.norm(a, ord, axis=(-2, -1)), dt, scale=10)
    # other dims, keepdim
    r = L.matrix_norm(A, ord, dim=(0, 2), keepdim=True)
    assert r.shape == (1, 3, 1)
    close(r.reshape(3), np.linalg.norm(a, ord, axis=(0, 2)), dt, scale=10)
    close(L.norm(A, ord, dim=(-2, -1)), np.linalg.norm(a, ord, axis=(-2, -1)), dt, scale=10)
    close(L.norm(A[0], ord), np.linalg.norm(a[0], ord), dt, scale=10)


def test_matrix_norm_errors():
    with pytest.raises(RuntimeError, match=r"^linalg.matrix_norm: The input tensor A must have at "
                       r"least 2 dimensions.$"):
        L.matrix_norm(torch.ones(3))
    with pytest.raises(RuntimeError, match=r"^linalg.matrix_norm: Order 3 not supported.$"):
        L.matrix_norm(torch.eye(3), ord=3)
    with pytest.raises(RuntimeError, match=r"^linalg.matrix_norm: dims must be different. Got "
                       r"\(0, 0\)$"):
        L.matrix_norm(torch.eye(3), dim=(0, 0))
    with pytest.raises(RuntimeError, match=r"^linalg.matrix_norm: dim must be a 2-tuple. Got 0 1 2$"):
        torch.norm(torch.ones(2, 3, 3), "nuc")
    with pytest.raises(NotImplementedError, match=r"^linalg.matrix_norm: Expected a floating point"):
        L.matrix_norm(torch.ones(3, 3, dtype=torch.int64), 2)
    with pytest.raises(NotImplementedError, match=r"^linalg.matrix_norm: Low precision dtypes not "
                       r"supported. Got Half$"):
        L.matrix_norm(torch.ones(3, 3, dtype=torch.float16), "nuc")
    assert float(L.matrix_norm(torch.ones(3, 3, dtype=torch.float16))) == 3.0


def test_linalg_norm_dispatch(rng):
    X, x = rand(rng, (2, 3, 4), torch.float64)
    close(L.norm(X), np.linalg.norm(x.reshape(-1)), torch.float64)           # all elements
    close(L.norm(X, dim=1), np.linalg.norm(x, axis=1), torch.float64)
    close(L.norm(X, 3, dim=2), np.linalg.norm(x, 3, axis=2), torch.float64)  # a vector norm
    close(L.norm(X[0, 0], 3), np.linalg.norm(x[0, 0], 3), torch.float64)
    close(L.norm(X[0], 2), np.linalg.norm(x[0], 2), torch.float64)           # 2-D: matrix norm
    with pytest.raises(RuntimeError, match=r"^linalg.norm: If dim is not specified but ord is, the "
                       r"input must be 1D or 2D. Got 3D.$"):
        L.norm(X, 2)
    with pytest.raises(RuntimeError, match=r"^linalg.norm: If dim is specified, it must be of length "
                       r"1 or 2. Got \[0, 1, 2\]$"):
        L.norm(X, dim=(0, 1, 2))
    with pytest.raises(RuntimeError, match=r"^linalg.matrix_norm: The input tensor A must have at "
                       r"least 2 dimensions.$"):
        L.norm(torch.ones(3), "fro")


def test_torch_norm(rng):
    X, x = rand(rng, (2, 3, 4), torch.float64)
    close(torch.norm(X), np.linalg.norm(x.reshape(-1)), torch.float64)
    close(X.norm(), np.linalg.norm(x.reshape(-1)), torch.float64)
    close(torch.norm(X, "fro", dim=(1, 2)), np.linalg.norm(x, "fro", axis=(1, 2)), torch.float64)
    close(torch.norm(X, "nuc", dim=(1, 2)), np.linalg.norm(x, "nuc", axis=(1, 2)), torch.float64)
    close(torch.norm(X[0], "nuc"), np.linalg.norm(x[0], "nuc"), torch.float64)
    close(torch.norm(X, 3, dim=1, keepdim=True), np.linalg.norm(x, 3, axis=1, keepdims=True),
          torch.float64)
    close(torch.norm(X, math.inf), np.abs(x).max(), torch.float64)
    close(torch.norm(X, p=1, dim=(0, 2)), np.abs(x).sum((0, 2)), torch.float64)
    assert torch.norm(torch.ones(3), dtype=torch.float64).dtype == torch.float64
    assert torch.norm(X).grad_fn is None
    Y = X.clone().requires_grad_()
    assert type(torch.norm(Y).grad_fn).__name__ == "LinalgVectorNormBackward0"
    out = torch.empty((), dtype=torch.float64)
    assert torch.norm(X, out=out) is out


@pytest.mark.parametrize("dt", LA_DTYPES)
@pytest.mark.parametrize("p", [None, "fro", "nuc", 1, -1, 2, -2, math.inf, -math.inf])
def test_cond(rng, dt, p):
    A, a = wellcond(rng, (2, 4, 4), dt)
    close(L.cond(A, p), np.linalg.cond(a, p), dt, scale=100)


def test_cond_special_cases():
    sing = torch.zeros(3, 3)
    assert float(L.cond(sing, 1)) == math.inf
    assert math.isnan(float(L.cond(sing)))
    assert float(L.cond(torch.diag(torch.tensor([1.0, 0.0])))) == math.inf
    assert float(L.cond(torch.empty(0, 0))) == 0.0
    assert float(L.cond(torch.ones(2, 3))) > 1e6                    # rank 1, any shape for p=2
    with pytest.raises(RuntimeError, match=r"^linalg.cond\(ord=1\): A must be batches of square "
                       r"matrices, but they are 2 by 3 matrices$"):
        L.cond(torch.ones(2, 3), 1)
    with pytest.raises(ValueError, match=r"^linalg.cond got an invalid norm type: 3$"):
        L.cond(torch.eye(3), 3)
    with pytest.raises(NotImplementedError, match=r"^linalg.svd: Expected a floating point"):
        L.cond(torch.ones(2, 2, dtype=torch.int64))
