"""CUDA kernels of the special functions (torch.special, digamma, polygamma, igamma, frexp,
nextafter, gcd, ...): each compared with the same op on the CPU, whose scalar math they share
(aten_lite/special_math.h), over the CPU's dtypes (a dtype the CPU refuses is refused on CUDA
too), NaN, infinities, poles and domain edges, 0-d, empty, non-contiguous and broadcast operands,
Python-number operands, out= and in-place forms, enough elements for many blocks, and the
derivatives of the differentiable ones.  On the emulated device both sides run the same host
libm (the values agree to the bit); on a GPU the device's libm rounds differently, hence the
tolerances.  Skipped without a CUDA device."""
import numpy as np
import pytest

import minitorch as torch

pytestmark = pytest.mark.skipif(torch.cuda.device_count() == 0,
                                reason="needs a CUDA device (a GPU, or the emulated build)")

S = torch.special
FLOATS = [torch.float64, torch.float32, torch.float16, torch.bfloat16]
INTS = [torch.uint8, torch.int8, torch.int16, torch.int32, torch.int64]

UNARY = ["airy_ai", "bessel_j0", "bessel_j1", "bessel_y0", "bessel_y1", "digamma", "entr",
         "erfcx", "i0", "i0e", "i1", "i1e", "log_ndtr", "ndtr", "ndtri", "modified_bessel_i0",
         "modified_bessel_i1", "modified_bessel_k0", "modified_bessel_k1",
         "scaled_modified_bessel_k0", "scaled_modified_bessel_k1", "spherical_bessel_j0",
         "gammaln", "psi", "erf", "erfc", "erfinv", "sinc", "exp2"]
POLYNOMIALS = ["chebyshev_polynomial_t", "chebyshev_polynomial_u", "chebyshev_polynomial_v",
               "chebyshev_polynomial_w", "shifted_chebyshev_polynomial_t",
               "shifted_chebyshev_polynomial_u", "shifted_chebyshev_polynomial_v",
               "shifted_chebyshev_polynomial_w", "hermite_polynomial_h", "hermite_polynomial_he",
               "laguerre_polynomial_l", "legendre_polynomial_p"]

EDGES = [0.0, -0.0, 1.0, -1.0, 2.0, -2.0, -3.0, 0.5, -0.5, 1e-300, 1e-30, 30.0, -30.0, 700.0,
         -700.0, 1e6, 2.75, -10.25, 18.0, 1.0 - 1e-12, float("inf"), -float("inf"), float("nan")]


def _x(dtype, n=400, seed=0, scale=6.0):
    g = np.random.default_rng(seed)
    v = np.concatenate([g.standard_normal(n) * scale, g.uniform(0, 1, n // 4), EDGES])
    return torch.tensor(v).to(dtype)


def _close(got, expect, atol64=1e-12):
    """got (a CUDA result) against expect (the CPU's): dtype, shape, NaNs, values (atol64: the
    absolute tolerance in float64, for functions a GPU's libm gives to an absolute error)."""
    assert got.is_cuda and got.dtype == expect.dtype and got.shape == expect.shape
    got = got.cpu()
    if not expect.dtype.is_floating_point:
        assert torch.equal(got, expect)
        return
    rtol, atol = {torch.float64: (1e-9, atol64), torch.float32: (2e-6, 1e-7)}.get(
        expect.dtype, (1e-2, 1e-3))
    a, b = got.double(), expect.double()
    assert torch.equal(a.isnan(), b.isnan())
    m = ~b.isnan()
    assert torch.equal(a[m].isinf(), b[m].isinf())
    assert torch.equal(a[m & a.isinf()], b[m & a.isinf()])
    f = m & ~b.isinf()
    assert torch.allclose(a[f], b[f], rtol=rtol, atol=atol)


def _both(fn, *args, **kwargs):
    """fn on the CPU and on CUDA (tensors moved): (cpu result, cuda result), or (None, None)
    when the CPU raises, which CUDA must do too with the same type."""
    dev = [a.cuda() if isinstance(a, torch.Tensor) else a for a in args]
    try:
        expect = fn(*args, **kwargs)
    except Exception as e:  # noqa: BLE001 - the CPU's error is the specification
        with pytest.raises(type(e)) as info:
            fn(*dev, **kwargs)
        assert str(info.value).replace("cuda", "cpu") == str(e) or "cuda" not in str(e)
        return None, None
    return expect, fn(*dev, **kwargs)


@pytest.mark.parametrize("dtype", FLOATS, ids=str)
@pytest.mark.parametrize("name", UNARY)
def test_unary(name, dtype):
    x = _x(dtype, seed=sum(map(ord, name)))
    expect, got = _both(getattr(S, name), x)
    if expect is not None:
        # (CUDA's j0, j1, y0, y1 and lgamma are accurate to an absolute 5e-12 on a GPU)
        _close(got, expect, atol64=1e-10 if name.startswith("bessel") or name == "gammaln"
               else 1e-12)


@pytest.mark.parametrize("dtype", FLOATS, ids=str)
def test_unary_integer_inputs_promote(dtype):
    i = torch.arange(-5, 6)
    for name in ["digamma", "i0", "erfcx", "bessel_j0", "ndtri"]:
        expect, got = _both(getattr(S, name), i)
        _close(got, expect)


@pytest.mark.parametrize("dtype", FLOATS, ids=str)
@pytest.mark.parametrize("name", POLYNOMIALS)
def test_polynomials(name, dtype):
    x = torch.cat([_x(torch.float64, n=60, scale=1.5), torch.tensor([1.0, -1.0, 0.999, -1.5])])
    g = np.random.default_rng(1)
    n = torch.tensor(g.integers(-2, 12, size=x.shape[0])).double()
    n[:6] = torch.tensor([float("nan"), float("inf"), -1.0, 40.0, 3.7, 1e30])
    expect, got = _both(getattr(S, name), x.to(dtype), n.to(dtype))
    if expect is not None:
        _close(got, expect)
    # a number as either operand, and the degree as a 0-d tensor
    for a, b in [(x.to(dtype), 5), (0.3, n.abs().nan_to_num(0).to(dtype)),
                 (x.to(dtype), torch.tensor(7.0).to(dtype))]:
        expect, got = _both(getattr(S, name), a, b)
        if expect is not None:
            _close(got, expect)


@pytest.mark.parametrize("dtype", FLOATS, ids=str)
def test_binary(dtype):
    g = np.random.default_rng(2)
    a = torch.tensor(np.concatenate([g.uniform(0, 8, 200), [0, 1, 2, 1e7, 1e7, float("inf"),
                                                             float("nan"), -1, 0.5]]))
    b = torch.tensor(np.concatenate([g.uniform(0, 8, 200), [0, 1e-3, 1e-300, 1e7, 1.001e7,
                                                             3, 1, 2, float("inf")]]))
    a, b = a.to(dtype), b.to(dtype)
    for fn in [S.zeta, S.xlog1py, S.xlogy, S.gammainc, S.gammaincc, torch.igamma,
               torch.igammac, torch.nextafter, torch.heaviside]:
        for args in [(a, b), (b, a), (-a, b)]:
            expect, got = _both(fn, *args)
            if expect is not None:
                if fn is torch.nextafter and dtype in (torch.float16, torch.bfloat16):
                    # a step of the 16-bit pattern: bit-identical
                    m = ~expect.isnan()
                    assert torch.equal(got.cpu().isnan(), expect.isnan())
                    assert torch.equal(got.cpu()[m], expect[m])
                else:
                    _close(got, expect)


@pytest.mark.parametrize("dtype", FLOATS, ids=str)
def test_polygamma(dtype):
    x = _x(dtype, n=150, seed=3)
    for n in range(5):
        expect, got = _both(S.polygamma, n, x)
        _close(got, expect)
        _close(x.cuda().polygamma(n), x.polygamma(n))
    with pytest.raises(RuntimeError, match="does not support negative n"):
        torch.polygamma(-1, x.cuda())


@pytest.mark.parametrize("dtype", INTS + [torch.bool], ids=str)
def test_integer_ops(dtype):
    g = np.random.default_rng(4)
    lo = 0 if dtype in (torch.uint8, torch.bool) else -120
    a = torch.tensor(g.integers(lo, 120, size=300)).to(dtype)
    b = torch.tensor(g.integers(lo, 120, size=300)).to(dtype)
    if dtype == torch.int64:
        a[:3] = torch.tensor([-2**63, 0, 2**62])
        b[:3] = torch.tensor([6, 0, -2**62])
    for fn in [torch.gcd, torch.lcm, torch.heaviside]:
        expect, got = _both(fn, a, b)
        if expect is not None:
            _close(got, expect)


@pytest.mark.parametrize("dtype", FLOATS, ids=str)
def test_frexp(dtype):
    x = _x(dtype, seed=5) * 1e3
    em, ee = torch.frexp(x)
    gm, ge = torch.frexp(x.cuda())
    assert ge.dtype == torch.int32 and ge.is_cuda
    _close(gm, em)
    assert torch.equal(ge.cpu(), ee)


def test_shapes_and_layouts():
    x = _x(torch.float64, n=2000, seed=6)[:2000].reshape(40, 50)
    # non-contiguous: a transpose, a step
    for t in [x.t(), x[:, ::3], x[::2, 1:]]:
        _close(S.i1e(t.cuda()), S.i1e(t))
        _close(S.zeta(t.abs().cuda() + 1, t.t().t().abs().cuda()), S.zeta(t.abs() + 1, t.abs()))
    # broadcast
    col, row = x[:, :1], x[:1, :]
    _close(S.xlog1py(col.cuda(), row.abs().cuda()), S.xlog1py(col, row.abs()))
    _close(S.hermite_polynomial_he(col.cuda(), torch.arange(7.0).cuda()),
           S.hermite_polynomial_he(col, torch.arange(7.0)))
    # 0-d and empty
    z = torch.tensor(2.5, dtype=torch.float64)
    _close(S.digamma(z.cuda()), S.digamma(z))
    _close(S.zeta(z.cuda(), z.cuda()), S.zeta(z, z))
    _close(S.zeta(x.abs().cuda() + 1, z), S.zeta(x.abs() + 1, z))  # a 0-d cpu operand
    e = torch.empty(0, 3, dtype=torch.float32)
    _close(S.erfcx(e.cuda()), S.erfcx(e))
    _close(S.chebyshev_polynomial_t(e.cuda(), e.cuda()), S.chebyshev_polynomial_t(e, e))


def test_many_blocks():
    g = np.random.default_rng(7)
    x = torch.tensor(g.standard_normal(100_003) * 10)
    _close(S.modified_bessel_k1(x.abs().cuda()), S.modified_bessel_k1(x.abs()))
    _close(S.ndtri(torch.sigmoid(x).float().cuda()), S.ndtri(torch.sigmoid(x).float()))
    _close(S.legendre_polynomial_p(x.cuda() / 10, 9.0), S.legendre_polynomial_p(x / 10, 9.0))


def test_out_and_in_place():
    x = _x(torch.float32, seed=8)
    o = torch.empty(3, device="cuda")
    with pytest.warns(UserWarning, match="was resized"):
        S.i0e(x.cuda(), out=o)  # resized to the result's shape
    _close(o, S.i0e(x))
    c = x.cuda()
    c.digamma_()
    _close(c, x.digamma())
    c = x.cuda()
    c.polygamma_(1)
    _close(c, x.polygamma(1))
    o2 = torch.empty(x.shape, dtype=torch.float64, device="cuda")
    S.erfcx(x.cuda(), out=o2)  # a float32 result written as float64
    _close(o2, S.erfcx(x).double())
    with pytest.raises(RuntimeError, match="result type Float can't be cast to the desired "
                                           "output type Long"):
        S.erfcx(x.cuda(), out=o2.long())
    with pytest.raises(RuntimeError, match="same device"):
        S.zeta(x.cuda(), x)


def test_dtypes_the_cpu_refuses():
    h = _x(torch.float16, n=10).cuda()
    # float32/float64-only kernels, as the cpu's (and torch's)
    for name in ["erfcx", "ndtri", "log_ndtr", "airy_ai", "bessel_j0", "modified_bessel_k0"]:
        with pytest.raises(NotImplementedError, match=r"_cuda\" not implemented for 'Half'"):
            getattr(S, name)(h)
    with pytest.raises(NotImplementedError, match=r"not implemented for 'Float'"):
        torch.gcd(h.float(), h.float())


# ---- derivatives -------------------------------------------------------------------------------

GRAD_UNARY = ["digamma", "gammaln", "i0", "i0e", "i1", "i1e", "erfcx", "ndtri", "log_ndtr",
              "ndtr", "entr", "erfinv", "sinc", "erfc"]


@pytest.mark.parametrize("name", GRAD_UNARY)
def test_gradients_unary(name):
    g = np.random.default_rng(9)
    v = g.uniform(0.05, 0.95, 24) if name in ("ndtri", "erfinv") else g.uniform(0.2, 4, 24)
    x = torch.tensor(v)
    x.requires_grad_()
    xc = x.detach().cuda().requires_grad_()
    w = torch.tensor(g.standard_normal(24))
    (getattr(S, name)(x) * w).sum().backward()
    (getattr(S, name)(xc) * w.cuda()).sum().backward()
    assert xc.grad.is_cuda
    _close(xc.grad, x.grad)


def test_gradients_binary():
    g = np.random.default_rng(10)
    a = torch.tensor(g.uniform(0.5, 3, 16))
    b = torch.tensor(g.uniform(0.5, 3, 16))
    cases = [(lambda p, q: S.xlog1py(p, q), True, True),
             (lambda p, q: S.xlogy(p, q), True, True),
             (lambda p, q: S.zeta(p + 1, q), False, True),
             (lambda p, q: torch.igamma(p, q), False, True),
             (lambda p, q: torch.igammac(p, q), False, True),
             (lambda p, q: S.polygamma(2, q) * p, True, True)]
    for fn, ga, gb in cases:
        ca, cb = a.clone().requires_grad_(ga), b.clone().requires_grad_(gb)
        da, db = a.cuda().requires_grad_(ga), b.cuda().requires_grad_(gb)
        fn(ca, cb).sum().backward()
        fn(da, db).sum().backward()
        if ga:
            _close(da.grad, ca.grad)
        if gb:
            _close(db.grad, cb.grad)


def test_second_derivatives():
    g = np.random.default_rng(11)
    x = torch.tensor(g.uniform(0.5, 2.5, 12))
    for fn in [S.digamma, S.i0, S.i1e, S.erfcx, lambda t: S.xlog1py(t, t * 2)]:
        grads = []
        for t in [x.clone().requires_grad_(), x.cuda().requires_grad_()]:
            (d,) = torch.autograd.grad(fn(t).sum(), t, create_graph=True)
            (dd,) = torch.autograd.grad((d * d).sum(), t)
            grads.append((d.detach(), dd))
        _close(grads[1][0], grads[0][0])
        _close(grads[1][1], grads[0][1])


def test_composites():
    g = np.random.default_rng(12)
    x = torch.tensor(g.uniform(1.2, 4, (4, 5)))
    for fn in [lambda t: S.multigammaln(t, 3), lambda t: torch.mvlgamma(t, 2),
               lambda t: S.logit(t / 5, eps=1e-6), lambda t: S.logsumexp(t, 1),
               lambda t: S.log_softmax(t, 0), lambda t: S.round(t * 3), S.expit, S.gammaln]:
        _close(fn(x.cuda()), fn(x))
    for fn in [lambda t: S.multigammaln(t, 3), lambda t: S.logit(t / 5)]:
        grads = []
        for t in [x.clone().requires_grad_(), x.cuda().requires_grad_()]:
            fn(t).sum().backward()
            grads.append(t.grad)
        _close(grads[1], grads[0])
