"""Writes into copies: slice_scatter, select_scatter, diagonal_scatter, as_strided_scatter;
index_reduce (prod, mean, amax, amin, include_self); put / put_ (accumulate).  Values against
NumPy, torch's errors, and derivatives by gradcheck."""
import warnings

import numpy as np
import pytest

import minitorch as torch
from minitorch.autograd import gradcheck, gradgradcheck


def _rand(*shape, seed=0):
    return np.random.default_rng(seed).standard_normal(shape)


def _t(a, **kw):
    return torch.tensor(a, dtype=torch.float64, **kw)


# ---- the *_scatter family ---------------------------------------------------------------------

def test_slice_scatter():
    x, s = _rand(4, 5), _rand(4, 2, seed=1)
    want = x.copy()
    want[:, 1:5:2] = s
    got = torch.slice_scatter(_t(x), _t(s), dim=1, start=1, step=2)
    np.testing.assert_array_equal(got.numpy(), want)
    want = x.copy()
    want[1:3] = _rand(2, 5, seed=2)
    np.testing.assert_array_equal(_t(x).slice_scatter(_t(want[1:3]), 0, 1, 3).numpy(), want)
    want = x.copy()
    want[:, -2:] = s
    np.testing.assert_array_equal(torch.slice_scatter(_t(x), _t(s), 1, -2).numpy(), want)
    # src is converted to input's dtype; input is not modified
    xi = _t(x)
    r = torch.slice_scatter(xi.float(), torch.ones(4, 5, dtype=torch.int64))
    assert r.dtype == torch.float32 and (r == 1).all() and torch.equal(xi, _t(x))


def test_select_diagonal_and_as_strided_scatter():
    x = _rand(3, 4)
    want = x.copy()
    want[:, -1] = [7, 8, 9]
    np.testing.assert_array_equal(torch.select_scatter(_t(x), _t([7, 8, 9]), 1, -1).numpy(), want)
    want = x.copy()
    want[[0, 1, 2], [1, 2, 3]] = [4, 5, 6]
    np.testing.assert_array_equal(torch.diagonal_scatter(_t(x), _t([4, 5, 6]), 1).numpy(), want)
    y = _rand(2, 3, 4)
    got = torch.diagonal_scatter(_t(y), _t(np.ones((4, 2))), 0, 0, 1)
    want = y.copy()
    want[0, 0], want[1, 1] = 1, 1
    np.testing.assert_array_equal(got.numpy(), want)
    # as_strided_scatter counts storage offsets from the copy's first element and keeps input's
    # strides
    got = torch.as_strided_scatter(_t(x), _t([-1, -2]), (2,), (5,))
    want = x.copy().ravel()
    want[[0, 5]] = [-1, -2]
    np.testing.assert_array_equal(got.numpy().ravel(), want)
    base = torch.arange(10.0)[2:]
    got = torch.as_strided_scatter(base, -torch.ones(2), (2,), (2,), 1)
    assert got.tolist() == [2, -1, 4, -1, 6, 7, 8, 9]
    xt = torch.arange(6.0).reshape(2, 3).t()
    got = torch.as_strided_scatter(xt, -torch.ones(2), (2,), (1,))
    assert got.stride() == xt.stride() and got.tolist() == [[-1, 3], [-1, 4], [2, 5]]


def test_scatter_errors():
    x = torch.zeros(4, 3)
    with pytest.raises(RuntimeError, match=r"expected src to have a size equal to the slice of self. "
                                           r"src size = \[1, 3\], slice size = \[2, 3\]"):
        torch.slice_scatter(x, torch.ones(1, 3), step=2)
    with pytest.raises(RuntimeError, match="slice step must be positive"):
        torch.slice_scatter(x, torch.ones(2, 3), step=0)
    with pytest.raises(RuntimeError, match=r"src size = \[4\], slice size = \[3\]"):
        torch.select_scatter(x, torch.ones(4), 0, 1)
    with pytest.raises(IndexError):
        torch.select_scatter(x, torch.ones(3), 0, 9)
    with pytest.raises(RuntimeError, match=r"src size = \[3\], slice size = \[2\]"):
        torch.diagonal_scatter(torch.zeros(3, 3), torch.ones(3), 1)
    with pytest.raises(RuntimeError, match=r"src size = \[3\], slice size = \[2\]"):
        torch.as_strided_scatter(torch.zeros(3, 3), torch.ones(3), (2,), (4,))


def test_scatter_derivatives():
    x = _t(_rand(4, 5), requires_grad=True)
    s = _t(_rand(4, 2, seed=1), requires_grad=True)
    f = lambda a, b: torch.slice_scatter(a, b, 1, 1, 5, 2)
    assert gradcheck(f, (x, s)) and gradgradcheck(f, (x, s))
    assert gradcheck(lambda a, b: torch.select_scatter(a, b, 0, 2), (x, _t(_rand(5), requires_grad=True)))
    assert gradcheck(lambda a, b: torch.diagonal_scatter(a, b, -1), (x, _t(_rand(3), requires_grad=True)))
    assert gradcheck(lambda a, b: torch.as_strided_scatter(a, b, (2, 2), (5, 1), 1),
                     (x, _t(_rand(2, 2), requires_grad=True)))
    # the gradient of input is zero where src was written
    g, = torch.autograd.grad(torch.as_strided_scatter(x, s[:, 0], (4,), (5,)).sum(), x)
    assert g.reshape(-1)[::5].tolist() == [0, 0, 0, 0] and g.sum().item() == 16


# ---- index_reduce -----------------------------------------------------------------------------

def _np_index_reduce(x, dim, index, src, reduce, include_self):
    x = np.moveaxis(x.copy(), dim, 0)
    src = np.moveaxis(src, dim, 0)
    out = x.copy()
    groups = {}
    for i, j in enumerate(index):
        groups.setdefault(int(j), []).append(src[i])
    for j, rows in groups.items():
        vals = ([x[j]] if include_self else []) + rows
        stack = np.stack(vals)
        out[j] = {"prod": stack.prod(0), "mean": stack.mean(0), "amax": stack.max(0),
                  "amin": stack.min(0)}[reduce]
    return np.moveaxis(out, 0, dim)


@pytest.mark.parametrize("reduce", ["prod", "mean", "amax", "amin"])
@pytest.mark.parametrize("include_self", [True, False])
def test_index_reduce(reduce, include_self):
    x, src = _rand(3, 4), _rand(5, 4, seed=1)
    idx = np.array([0, 2, 0, 2, 2])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        got = _t(x).index_reduce(0, torch.tensor(idx), _t(src), reduce, include_self=include_self)
    np.testing.assert_allclose(got.numpy(), _np_index_reduce(x, 0, idx, src, reduce, include_self),
                               rtol=1e-14)
    x2, src2 = _rand(4, 3), _rand(4, 5, seed=2)
    idx2 = np.array([1, 1, 0, 2, 1])
    got = torch.index_reduce(_t(x2), 1, torch.tensor(idx2, dtype=torch.int32), _t(src2), reduce,
                             include_self=include_self)
    np.testing.assert_allclose(got.numpy(), _np_index_reduce(x2, 1, idx2, src2, reduce, include_self),
                               rtol=1e-14)
    y = _t(x)
    assert y.index_reduce_(0, torch.tensor(idx), _t(src), reduce, include_self=include_self) is y
    src_ = _t(src, requires_grad=True)
    x_ = _t(x + 3, requires_grad=True)
    assert gradcheck(lambda a, b: a.index_reduce(0, torch.tensor(idx), b, reduce, include_self=include_self),
                     (x_, src_))


def test_index_reduce_integer_mean_and_errors():
    s = torch.ones(3, 2, dtype=torch.int64)
    r = s.index_reduce(0, torch.tensor([0, 2, 0, 2]), torch.arange(8).reshape(4, 2), "mean")
    assert r.tolist() == [[1, 2], [1, 1], [3, 3]]        # floor of the mean, as torch
    s = torch.ones(3, 2)
    src = torch.arange(8.0).reshape(4, 2)
    idx = torch.tensor([0, 2, 0, 2])
    with pytest.raises(RuntimeError, match="Expected reduce to be one of prod, mean, amax or amin but got sum."):
        s.index_reduce(0, idx, src, "sum")
    with pytest.raises(RuntimeError, match="Expected dtype int32/int64 for index but got: Float"):
        s.index_reduce(0, idx.float(), src, "prod")
    with pytest.raises(RuntimeError, match=r"Number of indices \(3\) should be equal to source.size\(dim\): \(4\)"):
        s.index_reduce(0, idx[:3], src, "prod")
    with pytest.raises(IndexError, match="index out of range in self"):
        s.index_reduce(0, torch.tensor([0, 5, 0, 2]), src, "prod")
    with pytest.raises(IndexError, match="index out of range in self"):
        s.index_reduce(0, torch.tensor([0, -1, 0, 2]), src, "prod")
    with pytest.raises(IndexError, match="Index is supposed to be a vector"):
        s.index_reduce(0, idx.reshape(2, 2), src, "prod")
    with pytest.raises(RuntimeError, match=r"self \(Float\) and source \(Double\) must have the same scalar type"):
        s.index_reduce(0, idx, src.double(), "prod")
    with pytest.raises(RuntimeError, match="source tensor shape must match self tensor shape"):
        s.index_reduce(0, idx, torch.ones(4, 3), "prod")


# ---- put / put_ -------------------------------------------------------------------------------

def test_put():
    x = _rand(2, 3)
    idx = np.array([0, -1, 4])
    src = np.array([9.0, 8.0, 7.0])
    want = x.copy().ravel()
    want[idx] = src
    got = torch.put(_t(x), torch.tensor(idx), _t(src))
    np.testing.assert_array_equal(got.numpy().ravel(), want)
    # accumulate adds, repeated indices too
    idx = np.array([0, 0, 5, -6])
    want = x.copy().ravel()
    np.add.at(want, idx, src[[0, 1, 2, 0]])
    got = _t(x).put(torch.tensor(idx), _t(src[[0, 1, 2, 0]]), accumulate=True)
    np.testing.assert_allclose(got.numpy().ravel(), want, rtol=1e-15)
    # positions are those of the row-major order, whatever the strides
    xt = _t(x).t()
    y = xt.clone()
    assert y.put_(torch.tensor([1, 4]), _t([-1.0, -2.0])) is y
    want = x.T.copy().ravel()
    want[[1, 4]] = [-1, -2]
    np.testing.assert_array_equal(y.numpy().ravel(), want)
    nc = _t(x).t()          # a non-contiguous tensor written in place
    nc.put_(torch.tensor([[1, 4]]), _t([[-1.0, -2.0]]))
    np.testing.assert_array_equal(nc.numpy().ravel(), want)


def test_put_errors_and_derivatives():
    x = torch.zeros(2, 3)
    with pytest.raises(IndexError, match="out of range: tried to access index 6 on a tensor of 6 elements."):
        torch.put(x, torch.tensor([0, 6]), torch.ones(2))
    with pytest.raises(IndexError, match="tried to access index -7 on a tensor of 6 elements."):
        torch.put(x, torch.tensor([0, -7]), torch.ones(2))
    with pytest.raises(RuntimeError, match="Expected a long tensor for index, but got Int"):
        torch.put(x, torch.tensor([0, 1], dtype=torch.int32), torch.ones(2))
    with pytest.raises(RuntimeError, match="self.dtype = Float and source.dtype = Double"):
        torch.put(x, torch.tensor([0, 1]), torch.ones(2, dtype=torch.float64))
    with pytest.raises(IndexError, match=r"source.numel\(\) = 3, index.numel\(\) = 2"):
        torch.put(x, torch.tensor([0, 1]), torch.ones(3))
    with pytest.raises(IndexError, match="Tried to put elements into an empty tensor"):
        torch.put(torch.ones(0), torch.tensor([0]), torch.ones(1))
    a = _t(_rand(2, 3), requires_grad=True)
    s = _t([1.0, 2.0, 3.0], requires_grad=True)
    assert gradcheck(lambda u, v: torch.put(u, torch.tensor([0, 5, 5]), v, accumulate=True), (a, s))
    assert gradgradcheck(lambda u, v: torch.put(u, torch.tensor([0, 5, 2]), v), (a, s))
    g, = torch.autograd.grad(torch.put(a, torch.tensor([0, 5, 2]), s).sum(), a)
    assert g.reshape(-1).tolist() == [0, 1, 0, 1, 1, 0]
