"""float_power, ldexp, cross, chain_matmul, constant_pad_nd, split_with_sizes and the unsafe_
splits, torch.dropout and its feature / alpha / in-place forms, renorm, clamp with tensor
bounds: against NumPy and torch's rules, errors, derivatives."""
import math
import warnings

import numpy as np
import pytest

import minitorch as torch
from minitorch.autograd import gradcheck, gradgradcheck


def _rand(*shape, seed=0):
    return np.random.default_rng(seed).standard_normal(shape)


def _t(a, **kw):
    return torch.tensor(a, dtype=torch.float64, **kw)


# ---- float_power / ldexp ----------------------------------------------------------------------

def test_float_power():
    x = torch.tensor([1.5, 2.0, 3.0])
    r = torch.float_power(x, 2)
    assert r.dtype == torch.float64 and torch.equal(r, x.double() ** 2)
    assert torch.float_power(torch.tensor([2, 3]), torch.tensor([3, 2], dtype=torch.int32)).tolist() == [8.0, 9.0]
    assert torch.float_power(2, x).dtype == torch.float64
    assert torch.float_power(x, 2j).dtype == torch.complex128
    assert x.float_power(0.5).dtype == torch.float64
    y = x.double()
    assert y.float_power_(2) is y and y.tolist() == [2.25, 4.0, 9.0]
    with pytest.raises(RuntimeError, match="the base given to float_power_ has dtype Float but the "
                                           "operation's result requires dtype Double"):
        x.float_power_(2)
    out = torch.empty(3, dtype=torch.float64)
    assert torch.float_power(x, 2, out=out) is out
    with pytest.raises(RuntimeError, match="the output given to float_power has dtype Float"):
        torch.float_power(x, 2, out=torch.empty(3))
    a = _t([0.5, 1.5, 2.0], requires_grad=True)
    e = _t([1.5, -0.5, 2.0], requires_grad=True)
    assert gradcheck(torch.float_power, (a, e)) and gradgradcheck(torch.float_power, (a, e))


def test_ldexp():
    x = torch.tensor([1.0, -2.5, 3.0])
    e = torch.tensor([1, 2, -3])
    np.testing.assert_array_equal(torch.ldexp(x, e).numpy(), np.ldexp(x.numpy(), e.numpy()))
    assert torch.ldexp(e, e).dtype == torch.float32
    assert torch.ldexp(x.half(), e).dtype == torch.float16
    assert torch.ldexp(x.double(), e).dtype == torch.float64
    y = x.clone()
    assert torch.ldexp_(y, e) is y and torch.equal(y, torch.ldexp(x, e))
    assert torch.equal(x.ldexp(e), torch.ldexp(x, e))
    with pytest.raises(TypeError, match="argument 'other' \\(position 2\\) must be Tensor, not int"):
        torch.ldexp(x, 2)
    with pytest.raises(RuntimeError, match="ldexp can't be cast to the desired output type Long"):
        e.clone().ldexp_(e)
    a = _t([0.5, 1.5], requires_grad=True)
    b = _t([1.0, -2.0], requires_grad=True)
    assert gradcheck(torch.ldexp, (a, b))


# ---- cross ------------------------------------------------------------------------------------

def test_cross():
    a, b = _rand(4, 3), _rand(4, 3, seed=1)
    np.testing.assert_allclose(torch.cross(_t(a), _t(b), dim=1).numpy(), np.cross(a, b), rtol=1e-14)
    np.testing.assert_allclose(torch.cross(_t(a.T), _t(b.T), dim=0).numpy(), np.cross(a, b).T, rtol=1e-14)
    np.testing.assert_allclose(torch.cross(_t(a), _t(b[:1]), dim=-1).numpy(), np.cross(a, b[:1]), rtol=1e-14)
    i = torch.tensor([[1, 0, 0], [0, 1, 0]])
    assert torch.cross(i, i.roll(1, 1), dim=1).tolist() == [[0, 0, 1], [1, 0, 0]]
    out = torch.empty(0, dtype=torch.float64)
    assert torch.cross(_t(a), _t(b), dim=1, out=out) is out
    assert torch.equal(_t(a).cross(_t(b), dim=1), out)
    # without dim: the first dimension of size 3, with torch's deprecation warning
    with pytest.warns(UserWarning, match="Using torch.cross without specifying the dim arg is deprecated"):
        r = torch.cross(_t(a[:3]), _t(b[:3]))
    np.testing.assert_allclose(r.numpy(), np.cross(a[:3], b[:3], axis=0), rtol=1e-14)


def test_cross_errors_and_derivative():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises(RuntimeError, match="no dimension of size 3 in input"):
            torch.cross(torch.ones(2, 4), torch.ones(2, 4))
    with pytest.raises(RuntimeError, match="linalg.cross: inputs dimension 0 must have length 3. Got 2 and 2"):
        torch.cross(torch.ones(2, 3), torch.ones(2, 3), dim=0)
    with pytest.raises(RuntimeError, match="expected scalar type Float but found Long"):
        torch.cross(torch.ones(3, 2), torch.ones(3, 2, dtype=torch.int64), dim=0)
    with pytest.raises(RuntimeError, match="inputs must have the same number of dimensions"):
        torch.cross(torch.ones(4, 3), torch.ones(3), dim=1)
    with pytest.raises(IndexError, match="Dimension out of range"):
        torch.cross(torch.ones(2, 3), torch.ones(2, 3), dim=5)
    a = _t(_rand(2, 3), requires_grad=True)
    b = _t(_rand(2, 3, seed=1), requires_grad=True)
    assert gradcheck(lambda u, v: torch.cross(u, v, dim=1), (a, b))
    assert gradgradcheck(lambda u, v: torch.cross(u, v, dim=1), (a, b))


# ---- chain_matmul -----------------------------------------------------------------------------

def test_chain_matmul():
    ms = [_rand(2, 30), _rand(30, 4, seed=1), _rand(4, 50, seed=2), _rand(50, 2, seed=3), _rand(2, 3, seed=4)]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        got = torch.chain_matmul(*[_t(m) for m in ms])
        np.testing.assert_allclose(got.numpy(), np.linalg.multi_dot(ms), rtol=1e-12)
        one = _t(ms[0])
        r = torch.chain_matmul(one)
        assert torch.equal(r, one) and r.data_ptr() != one.data_ptr()
        out = torch.empty(0, dtype=torch.float64)
        assert torch.chain_matmul(_t(ms[0]), _t(ms[1]), out=out) is out
        assert torch.chain_matmul(torch.ones(2, 3, dtype=torch.int64), torch.ones(3, 2, dtype=torch.int64)).tolist() == [[3, 3], [3, 3]]
        with pytest.raises(RuntimeError, match="Expected one or more matrices"):
            torch.chain_matmul()
        with pytest.raises(RuntimeError, match="Tensor dimension is 1, expected 2 instead."):
            torch.chain_matmul(torch.ones(2, 3), torch.ones(3))
        with pytest.raises(RuntimeError, match=r"tensors 0 and 1 with shapes \[2, 3\] and \[2, 3\] cannot be multiplied"):
            torch.chain_matmul(torch.ones(2, 3), torch.ones(2, 3))
        a = _t(_rand(2, 3), requires_grad=True)
        b = _t(_rand(3, 4), requires_grad=True)
        c = _t(_rand(4, 1), requires_grad=True)
        assert gradcheck(lambda *m: torch.chain_matmul(*m), (a, b, c))
    with pytest.warns(UserWarning, match="torch.chain_matmul is deprecated"):
        torch.chain_matmul(torch.ones(2, 2))


# ---- constant_pad_nd --------------------------------------------------------------------------

def test_constant_pad_nd():
    x = _rand(2, 3, 4)
    got = torch.constant_pad_nd(_t(x), (1, 2, 0, 1), 7.5)
    np.testing.assert_array_equal(got.numpy(), np.pad(x, ((0, 0), (0, 1), (1, 2)), constant_values=7.5))
    got = torch.constant_pad_nd(_t(x), (1, -1, -1, 0, 2, 0))           # negative amounts crop
    np.testing.assert_array_equal(got.numpy(), np.pad(x[:, 1:, :-1], ((2, 0), (0, 0), (1, 0))))
    assert torch.constant_pad_nd(_t(x), []).shape == (2, 3, 4)
    assert torch.constant_pad_nd(_t(x), (-4, 0)).shape == (2, 3, 0)
    r = torch.constant_pad_nd(torch.ones(2, 3, dtype=torch.int64), (1, 1), 2.5)
    assert r.dtype == torch.int64 and r[0].tolist() == [2, 1, 1, 1, 2]
    r = torch.constant_pad_nd(torch.zeros(2, dtype=torch.bool), (1, 0), 2.5)
    assert r.tolist() == [True, False, False]
    with pytest.raises(RuntimeError, match="Length of pad must be even but instead it equals 1"):
        torch.constant_pad_nd(_t(x), (1,))
    with pytest.raises(RuntimeError, match="Pad length is 8while the input has 3dimensions."):
        torch.constant_pad_nd(_t(x), (1,) * 8)
    with pytest.raises(RuntimeError, match="narrow\\(\\): length must be non-negative."):
        torch.constant_pad_nd(_t(x), (-3, -2))
    a = _t(x, requires_grad=True)
    assert gradcheck(lambda v: torch.constant_pad_nd(v, (1, -1, -1, 2), -1.0), (a,))


# ---- splits -----------------------------------------------------------------------------------

def test_split_with_sizes_and_unsafe_splits():
    x = torch.arange(12.0).reshape(3, 4)
    parts = torch.split_with_sizes(x, [1, 3], 1)
    assert [p.shape for p in parts] == [(3, 1), (3, 3)] and parts[1].tolist()[0] == [1, 2, 3]
    assert [p.shape[0] for p in x.split_with_sizes([2, 1])] == [2, 1]
    with pytest.raises(RuntimeError, match=r"split_with_sizes expects split_sizes to sum exactly to 3 \(input tensor's size at dimension 0\), but got split_sizes=\[1, 1\]"):
        x.split_with_sizes([1, 1])
    with pytest.raises(RuntimeError, match="expects split_sizes have only non-negative entries"):
        x.split_with_sizes([4, -1])
    for a, b in zip(torch.unsafe_split(x, 3, 1), x.split(3, 1)):
        assert torch.equal(a, b) and a.data_ptr() == b.data_ptr()
    for a, b in zip(x.unsafe_chunk(3, 1), x.chunk(3, 1)):
        assert torch.equal(a, b)
    assert [p.shape for p in torch.unsafe_split_with_sizes(x, [2, 2], 1)] == [(3, 2), (3, 2)]
    with pytest.raises(RuntimeError, match="split_size can only be 0 if dimension size is 0"):
        torch.unsafe_split(x, 0)
    with pytest.raises(RuntimeError, match="chunk expects `chunks` to be greater than 0, got: 0"):
        torch.unsafe_chunk(x, 0)


def test_unsafe_split_outputs_take_in_place_ops_under_autograd():
    x = _t(_rand(2, 4), requires_grad=True)
    y = x * 1
    with pytest.raises(RuntimeError, match="is a view and is being modified inplace"):
        y.split(2, 1)[0].mul_(2)
    y = x * 1
    for p in torch.unsafe_split(y, 2, 1):
        p.mul_(3)
    g, = torch.autograd.grad(y.sum(), x)
    assert (g == 3).all()
    assert gradcheck(lambda v: torch.unsafe_chunk(v, 2, 1)[1] * 2, (x,))


# ---- dropout ----------------------------------------------------------------------------------

DROPOUTS = ["dropout", "feature_dropout", "alpha_dropout", "feature_alpha_dropout"]


@pytest.mark.parametrize("name", DROPOUTS)
def test_dropout_functions(name):
    f, f_ = getattr(torch, name), getattr(torch, name + "_")
    x = torch.ones(64, 32, 3)
    assert f(x, 0.5, False) is x and f(x, 0.0, True) is x
    assert (f(x, 1.0, True) == 0).all()
    torch.manual_seed(0)
    r = f(x, 0.25, True)
    vals = sorted(set(np.round(r.numpy().ravel().astype(np.float64), 5).tolist()))
    if name.startswith("alpha") or name.startswith("feature_alpha"):
        a = 1 / math.sqrt((1.7580993408473766 ** 2 * 0.25 + 1) * 0.75)
        assert np.allclose(vals, [-1.7580993408473766 * a * 0.75, a + 1.7580993408473766 * a * 0.25], atol=1e-5)
    else:
        assert np.allclose(vals, [0.0, 1 / 0.75], atol=1e-5)
    kept = (r.numpy() == r.numpy().max()).mean()
    assert abs(kept - 0.75) < 0.03
    if name.startswith("feature"):
        # whole channels: one value per (N, C)
        assert (r == r[:, :, :1]).all()
        with pytest.raises(RuntimeError, match="Feature dropout requires at least 2 dimensions in the input"):
            f(torch.ones(5), 0.5, True)
    y = torch.ones(4, 3)
    assert f_(y, 0.5, True) is y
    with pytest.raises(RuntimeError, match="dropout probability has to be between 0 and 1, but got 1.5"):
        f(x, 1.5, True)
    with pytest.raises(RuntimeError, match="result type Float can't be cast to the desired output type Long"):
        f(torch.ones(3, 2, dtype=torch.int64), 0.5, True)
    with pytest.raises(TypeError):
        f(x, 0.5)
    a = _t(_rand(3, 4), requires_grad=True)
    torch.manual_seed(1)
    r = f(a, 0.5, True)
    g, = torch.autograd.grad(r.sum(), a)
    torch.manual_seed(1)
    mask = f(torch.ones(3, 4, dtype=torch.float64), 0.5, True)
    if not name.startswith(("alpha", "feature_alpha")):
        assert torch.equal(g, mask)


def test_dropout_expectation():
    torch.manual_seed(3)
    x = torch.ones(200_000, dtype=torch.float64)
    assert abs(torch.dropout(x, 0.3, True).mean().item() - 1) < 0.01
    # alpha dropout keeps mean 0 and variance 1 of a standard normal input
    z = torch.randn(200_000, dtype=torch.float64)
    r = torch.alpha_dropout(z, 0.3, True)
    assert abs(r.mean().item()) < 0.02 and abs(r.var().item() - 1) < 0.03


# ---- renorm -----------------------------------------------------------------------------------

@pytest.mark.parametrize("p,dim,maxnorm", [(2, 0, 5.0), (1, 1, 5.0), (math.inf, 0, 4.0), (3, 1, 1.5)])
def test_renorm(p, dim, maxnorm):
    x = _rand(3, 4) * 3
    xm = np.moveaxis(x, dim, 0).reshape(x.shape[dim], -1)
    norms = np.abs(xm).max(1) if math.isinf(p) else (np.abs(xm) ** p).sum(1) ** (1 / p)
    factor = np.where(norms > maxnorm, maxnorm / (norms + 1e-7), 1.0)
    shape = [1, 1]
    shape[dim] = -1
    want = x * factor.reshape(shape)
    np.testing.assert_allclose(torch.renorm(_t(x), p, dim, maxnorm).numpy(), want, rtol=1e-14)
    y = _t(x)
    assert y.renorm_(p, dim, maxnorm) is y and np.allclose(y.numpy(), want, rtol=1e-14)
    a = _t(x, requires_grad=True)
    assert gradcheck(lambda v: torch.renorm(v, p, dim, maxnorm), (a,))


def test_renorm_errors():
    x = torch.ones(2, 3)
    with pytest.raises(RuntimeError, match="renorm: non-positive-norm not supported"):
        x.renorm(-1, 0, 4)
    with pytest.raises(RuntimeError, match="renorm: expected maxnorm to be >= 0 but got -1"):
        x.renorm(2, 0, -1)
    with pytest.raises(RuntimeError, match="renorm: input needs at least 2 dimensions, got 1 dimensions"):
        torch.renorm(torch.ones(3), 2, 0, 1)
    with pytest.raises(NotImplementedError, match="Expected a floating point or complex tensor as input. Got Long"):
        x.long().renorm(2, 0, 5)


# ---- clamp with tensor bounds -----------------------------------------------------------------

def test_clamp_with_tensor_bounds():
    x = torch.arange(5.0)
    assert torch.clamp(x, torch.ones(5), torch.tensor(3.0)).tolist() == [1, 1, 2, 3, 3]
    r = torch.clamp(torch.arange(5), torch.tensor(1.5))
    assert r.dtype == torch.float32 and r.tolist() == [1.5, 1.5, 2, 3, 4]
    assert torch.clamp(torch.arange(5), max=torch.tensor([2])).tolist() == [0, 1, 2, 2, 2]
    with pytest.raises(RuntimeError, match="must match the size of tensor b"):
        torch.clamp(x, min=torch.ones(2))
    a = _t([0.5, 1.5, 2.5, 3.5], requires_grad=True)
    lo = _t([1.0, 1.0, 3.0, 0.0], requires_grad=True)
    hi = _t([2.0, 2.0, 4.0, 3.0], requires_grad=True)
    assert gradcheck(torch.clamp, (a, lo, hi))
