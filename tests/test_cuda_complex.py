"""CUDA kernels of the complex functions: the elementary functions of complex64/complex128
(exp, log, sqrt, pow, the trigonometric and hyperbolic functions and their inverses, sigmoid,
sinc, ...; aten_lite/complex_math.h) compared with the CPU's (the C library's cexp, clog, ...):
values over the plane, near 0, the unit circle, the branch points and both sides of the branch
cuts; infinities, NaNs and signed zeros as C99's Annex G gives them; strided, broadcast, 0-d,
empty and many-block operands; out= and in-place forms; derivatives through complex results;
and complex matrix products (mm, bmm, matmul, addmm, linear through cuBLAS's cgemm/zgemm).
Skipped without a CUDA device."""
import itertools

import numpy as np
import pytest

import minitorch as torch

pytestmark = pytest.mark.skipif(torch.cuda.device_count() == 0,
                                reason="needs a CUDA device (a GPU, or the emulated build)")

COMPLEX = [torch.complex64, torch.complex128]
UNARY = ["exp", "expm1", "log", "log1p", "log2", "log10", "sqrt", "rsqrt", "sin", "cos", "tan",
         "sinh", "cosh", "tanh", "asin", "acos", "atan", "asinh", "acosh", "atanh", "exp2",
         "sinc", "sigmoid", "reciprocal", "abs", "angle", "sgn", "square"]
# functions whose infinities, NaNs and signed zeros follow Annex G on both devices (the others
# divide, where the two sides' algorithms may give a zero of the other sign)
ANNEX_G = ["exp", "expm1", "log", "log1p", "log2", "log10", "sqrt", "sin", "cos", "tan", "sinh",
           "cosh", "tanh", "asin", "acos", "atan", "asinh", "acosh", "atanh"]
RTOL = {torch.complex64: 3e-5, torch.complex128: 1e-12}


def _plane(n=300, seed=0):
    g = np.random.default_rng(seed)
    parts = [g.standard_normal(n) * 3 + 1j * g.standard_normal(n) * 3,
             (g.standard_normal(n // 3) + 1j * g.standard_normal(n // 3)) * 1e-5,
             np.exp(1j * g.uniform(0, 2 * np.pi, n // 3)) * (1 + 1e-6 * g.standard_normal(n // 3))]
    # the branch points +-1, +-i and both sides of the cuts (signed zero imaginary parts)
    pts = [1, -1, 1j, -1j, 1 + 1e-8j, -1 + 1e-8j, 1e-8 + 1j, 1e-8 - 1j]
    cuts = [complex(r, s) for r in (-3.0, -1.5, 1.5, 3.0) for s in (0.0, -0.0)]
    cuts += [complex(s, r) for r in (-3.0, -1.5, 1.5, 3.0) for s in (0.0, -0.0)]
    return np.concatenate(parts + [np.array(pts), np.array(cuts)])


def _parts(t):
    t = t.cpu().to(torch.complex128) if t.dtype.is_complex else t.cpu().double()
    if t.dtype.is_complex:
        return [t.real.numpy(), t.imag.numpy()]
    return [t.numpy()]


def _close(got, expect, rtol=None):
    assert got.is_cuda and got.dtype == expect.dtype and got.shape == expect.shape
    if rtol is None:
        rtol = RTOL.get(expect.dtype, 3e-5 if expect.dtype == torch.float32 else 1e-12)
    mag = np.abs(expect.cpu().to(torch.complex128).numpy()) if expect.dtype.is_complex else None
    for a, b in zip(_parts(got), _parts(expect)):
        assert np.array_equal(np.isnan(a), np.isnan(b))
        m = ~np.isnan(b)
        assert np.array_equal(np.isinf(a[m]), np.isinf(b[m]))
        f = m & np.isfinite(b)
        # the tolerance scales with |z|: a part much smaller than the other carries its error
        scale = (mag if mag is not None else np.abs(b))[f]
        assert np.all(np.abs(a[f] - b[f]) <= rtol * scale + rtol * np.abs(b[f]) + 1e-300), \
            np.max(np.abs(a[f] - b[f]) / (scale + 1e-300))


@pytest.mark.parametrize("dtype", COMPLEX, ids=str)
@pytest.mark.parametrize("op", UNARY)
def test_unary(op, dtype):
    x = torch.tensor(_plane(seed=sum(map(ord, op)))).to(dtype)
    _close(getattr(torch, op)(x.cuda()), getattr(torch, op)(x))


@pytest.mark.parametrize("dtype", COMPLEX, ids=str)
def test_infinities_nans_signed_zeros(dtype):
    vals = [0.0, -0.0, 1.0, -1.0, 0.5, -2.0, 30.0, -30.0, 800.0, -800.0, float("inf"),
            -float("inf"), float("nan")]
    x = torch.tensor(np.array([complex(a, b) for a, b in itertools.product(vals, vals)]))
    x = x.to(dtype)
    for op in ANNEX_G:
        got = getattr(torch, op)(x.cuda()).cpu().to(torch.complex128).numpy()
        exp = getattr(torch, op)(x).to(torch.complex128).numpy()
        # Annex G leaves the signs of a part beside a NaN open
        other = np.isnan(got.real) | np.isnan(got.imag) | np.isnan(exp.real) | np.isnan(exp.imag)
        for a, b in [(got.real, exp.real), (got.imag, exp.imag)]:
            assert np.array_equal(np.isnan(a), np.isnan(b)), op
            a = np.where(other, np.abs(a), a)
            b = np.where(other, np.abs(b), b)
            m = ~np.isnan(b)
            assert np.array_equal(np.isinf(a[m]) & (a[m] > 0), np.isinf(b[m]) & (b[m] > 0)), op
            assert np.array_equal(np.isinf(a[m]) & (a[m] < 0), np.isinf(b[m]) & (b[m] < 0)), op
            z = m & (b == 0)
            assert np.array_equal(a[z] == 0, b[z] == 0), op
            assert np.array_equal(np.signbit(a[z]), np.signbit(b[z])), op
            f = m & np.isfinite(b)
            assert np.allclose(a[f], b[f], rtol=RTOL[dtype], atol=0), op


@pytest.mark.parametrize("dtype", COMPLEX, ids=str)
def test_pow(dtype):
    g = np.random.default_rng(1)
    a = torch.tensor(_plane(200, seed=2)).to(dtype)
    b = torch.tensor(g.standard_normal(a.shape[0]) + 1j * g.standard_normal(a.shape[0])).to(dtype)
    _close(torch.pow(a.cuda(), b.cuda()), torch.pow(a, b), rtol=RTOL[dtype] * 100)
    # the special cases: ** 0, ** 2, 0 ** positive
    for e in [0, 2, 0.5, -1, 3 + 1j]:
        _close(a.cuda() ** e, a ** e, rtol=RTOL[dtype] * 100)
    z = torch.zeros(3, dtype=dtype)
    _close(z.cuda() ** torch.tensor([2.0, 0.5, 0.0]).to(dtype).cuda(),
           z ** torch.tensor([2.0, 0.5, 0.0]).to(dtype))
    # a number base, a 0-d cpu exponent, broadcasting
    _close(torch.pow(2.0, b.cuda()), torch.pow(2.0, b))
    _close(a.cuda() ** torch.tensor(1.5 - 0.5j), a ** torch.tensor(1.5 - 0.5j))
    m = a[:60].reshape(6, 10)
    _close(m.cuda() ** b[:10].cuda(), m ** b[:10])


def test_layouts_and_many_blocks():
    g = np.random.default_rng(3)
    x = torch.tensor(g.standard_normal((40, 60)) + 1j * g.standard_normal((40, 60)))
    for t in [x.t(), x[:, ::3], x[1::2]]:
        _close(torch.tanh(t.cuda()), torch.tanh(t))
        _close(torch.asinh(t.cuda()), torch.asinh(t))
    _close(torch.exp(torch.tensor(1 + 2j).cuda()), torch.exp(torch.tensor(1 + 2j)))
    e = torch.empty(0, 4, dtype=torch.complex64)
    _close(torch.log(e.cuda()), torch.log(e))
    big = torch.tensor(g.standard_normal(100_001) + 1j * g.standard_normal(100_001)).to(
        torch.complex64)
    _close(torch.exp(big.cuda()), torch.exp(big))
    # complex64 inputs promote a float32 exponent; a real tensor to a complex power
    r = torch.tensor(g.uniform(0.5, 2, 50)).float()
    _close(torch.pow(r.cuda(), torch.tensor(0.5 + 1j)), torch.pow(r, torch.tensor(0.5 + 1j)))


def test_out_and_in_place():
    g = np.random.default_rng(4)
    x = torch.tensor(g.standard_normal(30) + 1j * g.standard_normal(30)).to(torch.complex64)
    c = x.cuda()
    c.sqrt_()
    _close(c, x.sqrt())
    o = torch.empty(30, dtype=torch.complex128, device="cuda")
    torch.sin(x.cuda(), out=o)
    _close(o, torch.sin(x).to(torch.complex128), rtol=3e-5)
    with pytest.raises(RuntimeError, match="can't be cast"):
        torch.exp(x.cuda(), out=torch.empty(30, device="cuda"))


def test_errors_as_the_cpu():
    x = torch.tensor([1 + 1j]).cuda()
    for fn in [torch.erf, torch.lgamma, torch.special.i0, torch.digamma, torch.erfinv]:
        with pytest.raises((RuntimeError, NotImplementedError)):
            fn(x.cpu())
        with pytest.raises((RuntimeError, NotImplementedError)):
            fn(x)


def test_gradients():
    g = np.random.default_rng(5)
    x = torch.tensor(g.standard_normal(12) + 1j * g.standard_normal(12))
    w = torch.tensor(g.standard_normal(12) + 1j * g.standard_normal(12))
    fns = [torch.exp, torch.log, torch.sqrt, torch.sin, torch.tanh, torch.sigmoid, torch.asin,
           torch.atanh, lambda t: t ** (1.5 - 0.5j)]
    for fn in fns:
        grads = []
        for dev in ["cpu", "cuda"]:
            t = x.to(dev).detach().requires_grad_()
            (fn(t) * w.to(dev)).abs().sum().backward()
            grads.append(t.grad)
        _close(grads[1], grads[0], rtol=1e-10)


# ---- matrix products ---------------------------------------------------------------------------

def _c(g, *shape, dtype=torch.complex128):
    return torch.tensor(g.standard_normal(shape) + 1j * g.standard_normal(shape)).to(dtype)


@pytest.mark.parametrize("dtype", COMPLEX, ids=str)
@pytest.mark.parametrize("blas", [True, False], ids=["blas", "no-blas"])
def test_matmul(dtype, blas):
    g = np.random.default_rng(6)
    a, b = _c(g, 5, 7, dtype=dtype), _c(g, 7, 3, dtype=dtype)
    rtol = 1e-4 if dtype == torch.complex64 else 1e-12
    cases = [
        (torch.mm, (a, b)),
        (torch.matmul, (a, b)),
        (torch.bmm, (_c(g, 4, 5, 7, dtype=dtype), _c(g, 4, 7, 3, dtype=dtype))),
        (lambda i, x, y: torch.addmm(i, x, y, beta=0.5 + 1j, alpha=2 - 1j),
         (_c(g, 5, 3, dtype=dtype), a, b)),
        (lambda i, x, y: torch.addmm(i, x, y, beta=0), (_c(g, 5, 3, dtype=dtype), a, b)),
        (torch.nn.functional.linear, (_c(g, 6, 7, dtype=dtype), _c(g, 3, 7, dtype=dtype),
                                      _c(g, 3, dtype=dtype))),
        (torch.mv, (a, _c(g, 7, dtype=dtype))),
        (torch.vdot, (_c(g, 7, dtype=dtype), _c(g, 7, dtype=dtype))),
        (torch.matmul, (_c(g, 2, 1, 5, 7, dtype=dtype), _c(g, 3, 7, 2, dtype=dtype))),
        (torch.matmul, (a.mT.contiguous().mT, b.t().contiguous().t())),  # column-major (op T)
        (torch.matmul, (a[:, ::2], _c(g, 4, 3, dtype=dtype))),  # strided: copied first
        (torch.mm, (_c(g, 3, 0, dtype=dtype), _c(g, 0, 4, dtype=dtype))),  # k == 0: zeros
        (torch.mm, (_c(g, 0, 5, dtype=dtype), _c(g, 5, 4, dtype=dtype))),  # empty result
        (torch.matmul, (_c(g, 70, 90, dtype=dtype), _c(g, 90, 40, dtype=dtype))),
    ]
    torch._C._blas_set_enabled(blas)
    try:
        for fn, args in cases:
            expect = fn(*args)
            got = fn(*[x.cuda() for x in args])
            _close(got, expect, rtol=rtol)
    finally:
        torch._C._blas_set_enabled(True)
    # out= with the C operand's beta reading a NaN-free result, and an in-place addmm_
    o = torch.empty(5, 3, dtype=dtype, device="cuda")
    torch.mm(a.cuda(), b.cuda(), out=o)
    _close(o, torch.mm(a, b), rtol=rtol)
    c = _c(g, 5, 3, dtype=dtype)
    cc = c.cuda()
    cc.addmm_(a.cuda(), b.cuda(), beta=1j)
    _close(cc, c.addmm(a, b, beta=1j), rtol=rtol)


def test_matmul_mixed_and_errors():
    g = np.random.default_rng(7)
    a = _c(g, 3, 4)
    with pytest.raises(RuntimeError, match="expected m1 and m2 to have the same dtype|same dtype"):
        torch.mm(a.cuda(), torch.ones(4, 2, device="cuda", dtype=torch.float64))
    with pytest.raises(RuntimeError, match="same device"):
        torch.mm(a.cuda(), _c(g, 4, 2))


def test_matmul_gradients():
    g = np.random.default_rng(8)
    a, b, w = _c(g, 4, 6), _c(g, 6, 5), _c(g, 4, 5)
    grads = []
    for dev in ["cpu", "cuda"]:
        x, y = a.to(dev).detach().requires_grad_(), b.to(dev).detach().requires_grad_()
        ((x @ y) * w.to(dev)).abs().sum().backward()
        grads.append((x.grad, y.grad))
    _close(grads[1][0], grads[0][0], rtol=1e-10)
    _close(grads[1][1], grads[0][1], rtol=1e-10)
