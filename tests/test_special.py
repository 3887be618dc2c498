"""minitorch.special and the special-function ops (digamma, polygamma, i0, igamma, ...): values at
many points against torch 2.15's (where torch is accurate) and against exact values (mpmath,
40 digits), both captured in REF at the end of this file; float32/float16/bfloat16 through the
float64 math; dtypes and errors as torch's; mathematical identities; derivatives by gradcheck
and gradgradcheck in float64."""
import math

import numpy as np
import pytest

import minitorch as torch
from minitorch.autograd import gradcheck, gradgradcheck

S = torch.special
inf, nan = math.inf, math.nan

# torch.special.__all__ of torch 2.15
TORCH_SPECIAL_ALL = [
    "airy_ai", "bessel_j0", "bessel_j1", "bessel_y0", "bessel_y1", "chebyshev_polynomial_t",
    "chebyshev_polynomial_u", "chebyshev_polynomial_v", "chebyshev_polynomial_w", "digamma",
    "entr", "erf", "erfc", "erfcx", "erfinv", "exp2", "expit", "expm1", "gammainc", "gammaincc",
    "gammaln", "hermite_polynomial_h", "hermite_polynomial_he", "i0", "i0e", "i1", "i1e",
    "laguerre_polynomial_l", "legendre_polynomial_p", "log1p", "log_ndtr", "log_softmax", "logit",
    "logsumexp", "modified_bessel_i0", "modified_bessel_i1", "modified_bessel_k0",
    "modified_bessel_k1", "multigammaln", "ndtr", "ndtri", "polygamma", "psi", "round",
    "shifted_chebyshev_polynomial_t", "shifted_chebyshev_polynomial_u",
    "shifted_chebyshev_polynomial_v", "shifted_chebyshev_polynomial_w",
    "scaled_modified_bessel_k0", "scaled_modified_bessel_k1", "sinc", "softmax",
    "spherical_bessel_j0", "xlog1py", "xlogy", "zeta",
]

UNARY = ["digamma", "i0", "i0e", "i1", "i1e", "modified_bessel_i0", "modified_bessel_i1",
         "modified_bessel_k0", "modified_bessel_k1", "scaled_modified_bessel_k0",
         "scaled_modified_bessel_k1", "bessel_j0", "bessel_j1", "bessel_y0", "bessel_y1",
         "spherical_bessel_j0", "airy_ai", "erfcx", "ndtr", "log_ndtr", "ndtri", "entr"]
BINARY = {"zeta": S.zeta, "igamma": torch.igamma, "igammac": torch.igammac,
          "xlog1py": S.xlog1py}
POLYNOMIALS = ["chebyshev_polynomial_t", "chebyshev_polynomial_u", "chebyshev_polynomial_v",
               "chebyshev_polynomial_w", "shifted_chebyshev_polynomial_t",
               "shifted_chebyshev_polynomial_u", "shifted_chebyshev_polynomial_v",
               "shifted_chebyshev_polynomial_w", "hermite_polynomial_h", "hermite_polynomial_he",
               "laguerre_polynomial_l", "legendre_polynomial_p"]

# How far torch 2.15 itself is from the exact values (its Bessel functions of the first and
# second kind lose digits near their zeros, its incomplete gamma around a = 20, its trigamma
# everywhere): the tolerance of the comparison with torch, (rtol, atol).
TORCH_TOL = {"bessel_j0": (1e-6, 5e-7), "bessel_j1": (1e-6, 5e-7), "bessel_y0": (1e-6, 5e-7),
             "bessel_y1": (1e-6, 5e-7), "airy_ai": (1e-3, 1e-6), "igamma": (1e-8, 1e-14),
             "igammac": (1e-8, 1e-14), "polygamma1": (1e-8, 0), "ndtr": (1e-12, 1e-16),
             "laguerre_polynomial_l": (1e-10, 1e-12), "legendre_polynomial_p": (1e-10, 1e-12),
             "digamma": (1e-12, 1e-15)}
# minitorch against the exact values: (rtol, atol)
EXACT_TOL = {"bessel_j0": (1e-13, 1e-16), "bessel_j1": (1e-13, 1e-16), "bessel_y0": (1e-13, 1e-16),
             "bessel_y1": (1e-13, 1e-16), "airy_ai": (1e-12, 1e-16), "digamma": (1e-13, 1e-15),
             "igamma": (5e-14, 1e-300), "igammac": (5e-14, 1e-300), "ndtri": (2e-14, 1e-30)}


def _arr(values):
    return np.array([float(v) for v in values], dtype=np.float64)


def _close(got, want, rtol, atol, what):
    got, want = np.asarray(got, dtype=np.float64), np.asarray(want, dtype=np.float64)
    np.testing.assert_array_equal(np.isnan(got), np.isnan(want), err_msg=f"{what}: NaN pattern")
    inf_ = np.isinf(want) | np.isinf(got)
    np.testing.assert_array_equal(got[inf_], want[inf_], err_msg=f"{what}: infinities")
    fin = ~np.isnan(want) & ~inf_
    np.testing.assert_allclose(got[fin], want[fin], rtol=rtol, atol=atol, err_msg=what)


def _unary(name):
    return getattr(S, name)


# ---- the namespace --------------------------------------------------------------------------

def test_special_has_every_function_of_torch_special():
    missing = [n for n in TORCH_SPECIAL_ALL if not callable(getattr(S, n, None))]
    assert missing == []
    assert sorted(S.__all__) == sorted(TORCH_SPECIAL_ALL)


def test_aliases_are_the_top_level_ops():
    x = torch.tensor([0.3, 1.7, 4.0], dtype=torch.float64)
    pairs = [(S.expit, torch.sigmoid), (S.gammaln, torch.lgamma), (S.psi, torch.digamma),
             (S.digamma, torch.digamma), (S.i0, torch.i0), (S.erf, torch.erf),
             (S.erfc, torch.erfc), (S.exp2, torch.exp2), (S.expm1, torch.expm1),
             (S.log1p, torch.log1p), (S.sinc, torch.sinc)]
    for f, g in pairs:
        assert torch.equal(f(x), g(x)), f
    assert torch.equal(S.erfinv(x / 5), torch.erfinv(x / 5))
    assert torch.equal(S.gammainc(x, x + 1), torch.igamma(x, x + 1))
    assert torch.equal(S.gammaincc(x, x + 1), torch.igammac(x, x + 1))
    assert torch.equal(S.polygamma(2, x), torch.polygamma(2, x))
    assert torch.equal(S.multigammaln(x + 2, 3), torch.mvlgamma(x + 2, 3))
    assert torch.equal(S.xlogy(x, x), torch.xlogy(x, x))
    assert torch.equal(S.logit(x / 5, eps=0.1), torch.logit(x / 5, 0.1))
    assert torch.equal(S.softmax(x, 0), torch.softmax(x, 0))
    assert torch.equal(S.log_softmax(x, 0, dtype=torch.float32), torch.log_softmax(x, 0, dtype=torch.float32))
    assert torch.equal(S.logsumexp(x, 0), torch.logsumexp(x, 0))
    assert torch.equal(S.round(x * 1.37, decimals=1), torch.round(x * 1.37, decimals=1))


# ---- values ---------------------------------------------------------------------------------

@pytest.mark.parametrize("name", UNARY)
def test_unary_values_against_torch_and_exact(name):
    ref = REF[name]
    x = torch.tensor(_arr(ref["x"]), dtype=torch.float64)
    got = _unary(name)(x).numpy()
    rt, at = TORCH_TOL.get(name, (1e-12, 0))
    _close(got, _arr(ref["torch"]), rt, at, f"{name} vs torch")
    exact = _arr(ref["exact"])
    known = ~np.isnan(exact)
    re_, ae = EXACT_TOL.get(name, (2e-14, 0))
    np.testing.assert_allclose(got[known], exact[known], rtol=re_, atol=ae,
                               err_msg=f"{name} vs exact")


@pytest.mark.parametrize("n", [1, 2, 3, 6])
def test_polygamma_values(n):
    ref = REF[f"polygamma{n}"]
    x = torch.tensor(_arr(ref["x"]), dtype=torch.float64)
    got = torch.polygamma(n, x).numpy()
    rt, at = TORCH_TOL.get(f"polygamma{n}", (1e-12, 0))
    _close(got, _arr(ref["torch"]), rt, at, f"polygamma({n}) vs torch")
    # negative x: the sum over (x + k)^-(n+1) passes small |x + k|, its cancellation costs digits
    x = x.numpy()
    exact = _arr(ref["exact"])
    np.testing.assert_allclose(got[x > 0], exact[x > 0], rtol=3e-14)
    np.testing.assert_allclose(got[x < 0], exact[x < 0], rtol=1e-10)


@pytest.mark.parametrize("name", list(BINARY) + POLYNOMIALS)
def test_binary_values_against_torch_and_exact(name):
    ref = REF[name]
    a = torch.tensor(_arr(ref["a"]), dtype=torch.float64)
    b = torch.tensor(_arr(ref["b"]), dtype=torch.float64)
    f = BINARY.get(name) or getattr(S, name)
    got = f(a, b).numpy()
    rt, at = TORCH_TOL.get(name, (1e-12, 1e-300))
    _close(got, _arr(ref["torch"]), rt, at, f"{name} vs torch")
    exact = _arr(ref["exact"])
    known = ~np.isnan(exact) & np.isfinite(got)
    re_, ae = EXACT_TOL.get(name, (1e-13, 1e-13 if name in POLYNOMIALS else 0))
    np.testing.assert_allclose(got[known], exact[known], rtol=re_, atol=ae,
                               err_msg=f"{name} vs exact")


def test_trigamma_poles_are_infinite():
    # torch evaluates pi^2 / sin^2(pi x) with sin(pi n) != 0 and gives large finite values
    x = torch.tensor([0.0, -1.0, -2.0, -10.0], dtype=torch.float64)
    assert torch.polygamma(1, x).isinf().all()
    assert torch.polygamma(1, x.float()).isinf().all()


@pytest.mark.parametrize("name", UNARY)
def test_float32_is_the_float64_math_rounded_once(name):
    x = np.clip(_arr(REF[name]["x"]), -3e38, 3e38).astype(np.float32)
    f = _unary(name)
    got = f(torch.tensor(x)).numpy()
    with np.errstate(over="ignore"):
        want = f(torch.tensor(x.astype(np.float64))).numpy().astype(np.float32)
    if name == "ndtri":     # one Newton step fewer in float32
        np.testing.assert_allclose(got, want, rtol=2e-7, atol=0, equal_nan=True)
    else:
        np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("name", ["digamma", "i0", "i0e", "i1", "i1e", "ndtr", "entr"])
@pytest.mark.parametrize("dtype", [torch.float16, torch.bfloat16])
def test_reduced_precision_through_float32(name, dtype):
    x = torch.tensor([0.1, 0.5, 1.0, 2.5, 7.0, -3.25], dtype=dtype)
    got = _unary(name)(x)
    assert got.dtype == dtype
    want = _unary(name)(x.float()).to(dtype)
    assert torch.equal(got, want)


def test_polygamma_reduced_precision_and_binary_ops():
    x = torch.tensor([0.5, 1.0, 2.5], dtype=torch.float16)
    assert torch.equal(torch.polygamma(2, x), torch.polygamma(2, x.float()).half())
    assert torch.equal(torch.igamma(x, x), torch.igamma(x.float(), x.float()).half())
    assert torch.equal(S.xlog1py(x, x), S.xlog1py(x.float(), x.float()).half())


# ---- dtypes and errors ------------------------------------------------------------------------

FLOAT32_ONLY = ["erfcx", "ndtri", "log_ndtr", "airy_ai", "bessel_j0", "bessel_j1", "bessel_y0",
                "bessel_y1", "modified_bessel_i0", "modified_bessel_i1", "modified_bessel_k0",
                "modified_bessel_k1", "scaled_modified_bessel_k0", "scaled_modified_bessel_k1",
                "spherical_bessel_j0"]


@pytest.mark.parametrize("name", UNARY)
def test_integer_and_bool_inputs_take_the_default_dtype(name):
    f = _unary(name)
    for dt in (torch.bool, torch.uint8, torch.int32, torch.int64):
        r = f(torch.tensor([1, 0, 1], dtype=dt))
        assert r.dtype == torch.float32
        assert torch.equal(r, f(torch.tensor([1.0, 0.0, 1.0])))
    torch.set_default_dtype(torch.float64)
    try:
        assert f(torch.tensor([1, 2])).dtype == torch.float64
    finally:
        torch.set_default_dtype(torch.float32)


@pytest.mark.parametrize("name", FLOAT32_ONLY)
def test_no_reduced_precision_kernels_where_torch_has_none(name):
    kernel = {"scaled_modified_bessel_k0": "scaled_modified_bessel_k0"}.get(name, name)
    for dt, tn in ((torch.float16, "Half"), (torch.bfloat16, "BFloat16")):
        with pytest.raises(NotImplementedError, match=f'"{kernel}_cpu" not implemented for \'{tn}\''):
            _unary(name)(torch.ones(2, dtype=dt))


@pytest.mark.parametrize("name", UNARY)
def test_complex_inputs_are_refused(name):
    with pytest.raises(NotImplementedError, match="not implemented for 'ComplexFloat'"):
        _unary(name)(torch.ones(2, dtype=torch.complex64))


def test_binary_dtypes():
    i = torch.tensor([1, 2])
    f = torch.tensor([0.5, 1.5])
    d = f.double()
    assert S.zeta(i, i).dtype == torch.float32
    assert S.zeta(f, d).dtype == torch.float64
    assert S.zeta(f, 2).dtype == torch.float32 and S.zeta(2.0, f).dtype == torch.float32
    assert S.xlog1py(i, 2.5).dtype == torch.float32
    assert S.chebyshev_polynomial_t(i, i).dtype == torch.float32
    assert S.chebyshev_polynomial_t(0.5, i).dtype == torch.float32
    assert torch.igamma(f, i).dtype == torch.float32
    with pytest.raises(NotImplementedError, match="\"igamma_cpu\" not implemented for 'Long'"):
        torch.igamma(i, i)
    with pytest.raises(NotImplementedError, match="\"igamma_cpu\" not implemented for 'Bool'"):
        torch.igamma(i > 0, i > 0)
    with pytest.raises(NotImplementedError, match="\"zeta_cpu\" not implemented for 'Half'"):
        S.zeta(f.half(), f.half())
    with pytest.raises(NotImplementedError, match="\"chebyshev_polynomial_t_cpu\" not implemented"):
        S.chebyshev_polynomial_t(f.half(), 2)
    with pytest.raises(TypeError, match="must be Tensor"):
        torch.igamma(f, 2.0)
    with pytest.raises(TypeError):
        S.zeta(2.0, 3.0)
    with pytest.raises(TypeError, match=r"special_erfcx\(\): argument 'input' \(position 1\) must be Tensor, not str"):
        S.erfcx("a")
    for f in (S.erfcx, S.i1, S.bessel_y0, torch.digamma, torch.i0):     # numbers are no inputs
        with pytest.raises(TypeError, match="must be Tensor, not int"):
            f(2)


def test_polygamma_arguments():
    x = torch.tensor([0.5, 2.0])
    assert torch.polygamma(1, torch.tensor([1, 2])).dtype == torch.float32
    assert torch.equal(x.polygamma(3), torch.polygamma(3, x))
    y = x.clone()
    assert y.polygamma_(2) is y and torch.equal(y, torch.polygamma(2, x))
    with pytest.raises(RuntimeError, match="does not support negative n"):
        torch.polygamma(-1, x)
    with pytest.raises(TypeError, match="argument 'n' \\(position 1\\) must be int, not float"):
        torch.polygamma(1.5, x)
    with pytest.raises(TypeError, match="argument 'input' \\(position 2\\) must be Tensor"):
        torch.polygamma(1, 2.0)
    # orders past 170 overflow n! (as torch)
    assert torch.polygamma(171, torch.tensor([2.0], dtype=torch.float64)).isinf().all()


def test_out_and_in_place_forms():
    x = torch.tensor([0.5, 1.5, 3.0])
    out = torch.empty(3, dtype=torch.float64)
    assert S.erfcx(x, out=out) is out
    assert torch.allclose(out, S.erfcx(x.double()))
    with pytest.raises(RuntimeError, match="result type Float can't be cast to the desired output type Long"):
        S.i0e(x, out=torch.empty(3, dtype=torch.int64))
    out = torch.empty(0)
    S.zeta(x + 1, x, out=out)
    assert out.shape == (3,) and torch.equal(out, S.zeta(x + 1, x))
    y = x.clone()
    assert y.digamma_() is y and torch.equal(y, torch.digamma(x))
    y = x.clone()
    assert torch.i0_(y) is y and torch.equal(y, torch.i0(x))
    y = x.clone()
    assert y.igamma_(x) is y and torch.equal(y, torch.igamma(x, x))
    with pytest.raises(RuntimeError, match="result type Float can't be cast"):
        torch.ones(3, dtype=torch.int32).digamma_()
    with pytest.raises(RuntimeError, match=r"output with shape \[1\] doesn't match the broadcast shape \[3\]"):
        torch.ones(1).igamma_(torch.ones(3))


def test_strided_and_broadcast_operands():
    base = torch.arange(1.0, 13.0, dtype=torch.float64).reshape(3, 4)
    t = base.t()[::2]
    assert torch.equal(S.i1(t), S.i1(t.contiguous()))
    assert torch.equal(S.zeta(t + 1, torch.tensor([1.0, 2.0, 3.0], dtype=torch.float64)),
                       S.zeta((t + 1).contiguous(), torch.tensor([[1.0, 2.0, 3.0]] * 2, dtype=torch.float64)))
    big = torch.linspace(0.1, 30, 100_000, dtype=torch.float64)    # runs without the GIL
    assert torch.equal(S.i0e(big)[::997], S.i0e(big[::997]))


# ---- identities -----------------------------------------------------------------------------

def _x(*values):
    return torch.tensor(values, dtype=torch.float64)


def test_gamma_function_identities():
    x = _x(0.25, 0.7, 1.3, 2.9, 7.3, 23.1, -0.4, -2.6)
    assert torch.allclose(torch.digamma(x + 1), torch.digamma(x) + 1 / x, rtol=1e-13, atol=1e-13)
    # reflection: psi(1 - x) - psi(x) = pi cot(pi x)
    assert torch.allclose(torch.digamma(1 - x) - torch.digamma(x), math.pi / torch.tan(math.pi * x),
                          rtol=1e-12, atol=1e-12)
    for n in (1, 2, 3, 5):
        step = (-1) ** n * math.factorial(n) / x ** (n + 1)
        assert torch.allclose(torch.polygamma(n, x + 1), torch.polygamma(n, x) + step, rtol=1e-12)
    assert torch.polygamma(0, x).equal(torch.digamma(x))
    assert abs(torch.polygamma(1, _x(1.0)).item() - math.pi ** 2 / 6) < 1e-15
    assert abs(torch.digamma(_x(1.0)).item() + 0.5772156649015329) < 2.3e-16
    # zeta(s, 1) = riemann zeta; zeta(s, q) - zeta(s, q + 1) = q^-s
    assert abs(S.zeta(_x(2.0), _x(1.0)).item() - math.pi ** 2 / 6) < 1e-15
    assert abs(S.zeta(_x(4.0), _x(1.0)).item() - math.pi ** 4 / 90) < 1e-15
    q = _x(0.3, 1.7, 5.0)
    for s in (1.5, 2.0, 3.7):
        assert torch.allclose(S.zeta(_x(s), q) - S.zeta(_x(s), q + 1), q ** -s, rtol=1e-13)
    # the multivariate log-gamma function
    y = _x(2.5, 4.0, 9.25)
    want = sum(torch.lgamma(y - j / 2) for j in range(4)) + 4 * 3 / 4 * math.log(math.pi)
    assert torch.allclose(torch.mvlgamma(y, 4), want, rtol=1e-14)


def test_incomplete_gamma_identities():
    a = _x(0.2, 1.0, 3.5, 40.0, 2e6, 1e-3)
    x = _x(0.7, 2.0, 3.0, 37.0, 2e6 + 1e3, 0.5)
    p, q = torch.igamma(a, x), torch.igammac(a, x)
    assert torch.allclose(p + q, torch.ones(6, dtype=torch.float64), rtol=0, atol=1e-15)
    # P(1, x) = 1 - e^-x, Q(1/2, x) = erfc(sqrt(x))
    z = _x(0.1, 1.0, 5.0, 30.0)
    assert torch.allclose(torch.igamma(torch.ones_like(z), z), -torch.expm1(-z), rtol=1e-15)
    assert torch.allclose(torch.igammac(torch.full_like(z, 0.5), z), torch.erfc(z.sqrt()), rtol=1e-14)
    # the recurrence P(a + 1, x) = P(a, x) - x^a e^-x / Gamma(a + 1)
    a = _x(0.5, 2.0, 7.0, 30.0)
    x = _x(1.0, 2.5, 6.0, 28.0)
    term = torch.exp(a * x.log() - x - torch.lgamma(a + 1))
    assert torch.allclose(torch.igamma(a + 1, x), torch.igamma(a, x) - term, rtol=1e-13)


def test_bessel_identities():
    x = _x(0.1, 0.9, 1.9, 2.1, 4.0, 12.0, 19.5, 21.0, 60.0)
    i0, i1, k0, k1 = S.i0(x), S.i1(x), S.modified_bessel_k0(x), S.modified_bessel_k1(x)
    # Wronskian I0 K1 + I1 K0 = 1 / x
    assert torch.allclose(i0 * k1 + i1 * k0, 1 / x, rtol=1e-14)
    assert torch.allclose(S.i0e(x), i0 * torch.exp(-x), rtol=1e-14)
    assert torch.allclose(S.i1e(-x), -i1 * torch.exp(-x), rtol=1e-14)
    assert torch.allclose(S.scaled_modified_bessel_k0(x), k0 * torch.exp(x), rtol=1e-14)
    assert torch.allclose(S.scaled_modified_bessel_k1(x), k1 * torch.exp(x), rtol=1e-14)
    assert torch.equal(S.modified_bessel_i0(x), i0) and torch.equal(S.modified_bessel_i1(x), i1)
    j0, j1, y0, y1 = S.bessel_j0(x), S.bessel_j1(x), S.bessel_y0(x), S.bessel_y1(x)
    assert torch.allclose(j1 * y0 - j0 * y1, 2 / (math.pi * x), rtol=1e-13)
    assert torch.allclose(S.spherical_bessel_j0(x), torch.sin(x) / x, rtol=1e-15)
    assert torch.equal(S.i0(-x), S.i0(x)) and torch.equal(S.i1(-x), -S.i1(x))


def test_airy_function_satisfies_its_equation():
    # Ai'' = x Ai: a central second difference across the method's switch points
    x = _x(-12.0, -10.25, -7.3, -2.0, -0.4, 0.0, 1.1, 2.75, 4.0)
    h = 1e-3
    d2 = (S.airy_ai(x + h) - 2 * S.airy_ai(x) + S.airy_ai(x - h)) / h ** 2
    assert torch.allclose(d2, x * S.airy_ai(x), rtol=2e-5, atol=1e-6)
    # Ai(0) = 3^(-2/3) / Gamma(2/3)
    assert abs(S.airy_ai(_x(0.0)).item() - 3 ** (-2 / 3) / math.gamma(2 / 3)) < 1e-16


def test_error_function_family_identities():
    x = _x(-5.0, -1.2, -1e-3, 0.0, 0.4, 2.0, 8.0, 11.5, 12.5, 25.0)
    assert torch.allclose(S.erfcx(x), torch.exp(x * x) * torch.erfc(x), rtol=1e-13)
    assert torch.allclose(S.ndtr(x), 0.5 * torch.erfc(-x / math.sqrt(2)), rtol=1e-15)
    assert torch.allclose(S.log_ndtr(x), torch.log(S.ndtr(x)), rtol=1e-14)
    z = _x(-37.0, -8.0, -3.0, -0.5, 0.0, 0.25, 1.0)
    assert torch.allclose(S.ndtri(S.ndtr(z)), z, rtol=1e-13, atol=1e-15)
    p = _x(1e-300, 1e-50, 0.01, 0.3, 0.5, 0.6, 0.99)
    assert torch.allclose(S.ndtr(S.ndtri(p)), p, rtol=1e-13)
    # the large-x behaviour: erfcx(x) ~ 1 / (x sqrt(pi))
    assert abs(S.erfcx(_x(1e10)).item() * 1e10 * math.sqrt(math.pi) - 1) < 1e-15
    assert S.erfcx(_x(inf)).item() == 0 and S.erfcx(_x(-30.0)).item() == inf


def test_entr_and_xlog1py():
    x = _x(0.0, 1e-300, 0.5, 1.0, 3.0, -1.0, inf, nan)
    assert torch.allclose(S.entr(x[1:5]), -x[1:5] * torch.log(x[1:5]), rtol=1e-15)
    assert S.entr(x)[0].item() == 0 and S.entr(x)[5].item() == -inf
    assert S.entr(x)[6].item() == -inf and math.isnan(S.entr(x)[7].item())
    y = _x(-0.5, 0.0, 2.0, nan)
    assert torch.equal(S.xlog1py(torch.zeros(3, dtype=torch.float64), y[:3]), torch.zeros(3, dtype=torch.float64))
    assert math.isnan(S.xlog1py(_x(0.0), _x(nan)).item())
    assert torch.allclose(S.xlog1py(_x(2.0), y[:3]), 2 * torch.log1p(y[:3]))


def test_orthogonal_polynomial_identities():
    t = torch.linspace(0.05, 3.0, 17, dtype=torch.float64)
    c = torch.cos(t)
    for n in (0, 1, 2, 5, 6, 7, 11, 40):
        assert torch.allclose(S.chebyshev_polynomial_t(c, n), torch.cos(n * t), atol=1e-12)
        assert torch.allclose(S.chebyshev_polynomial_u(c, n) * torch.sin(t), torch.sin((n + 1) * t), atol=1e-12)
        assert torch.allclose(S.chebyshev_polynomial_v(c, n) * torch.cos(t / 2), torch.cos((n + 0.5) * t), atol=1e-12)
        assert torch.allclose(S.chebyshev_polynomial_w(c, n) * torch.sin(t / 2), torch.sin((n + 0.5) * t), atol=1e-12)
        s = (c + 1) / 2
        assert torch.allclose(S.shifted_chebyshev_polynomial_t(s, n), S.chebyshev_polynomial_t(c, n), atol=1e-11)
    x = torch.linspace(-2, 2, 9, dtype=torch.float64)
    for n in (1, 4, 9):
        # He_n(x) = 2^(-n/2) H_n(x / sqrt 2); H_n' = 2n H_(n-1) (by differences)
        assert torch.allclose(S.hermite_polynomial_he(x, n),
                              2 ** (-n / 2) * S.hermite_polynomial_h(x / math.sqrt(2), n), rtol=1e-12, atol=1e-12)
        assert torch.allclose(S.legendre_polynomial_p(torch.ones(1, dtype=torch.float64), n), torch.ones(1, dtype=torch.float64))
        assert S.legendre_polynomial_p(-torch.ones(1, dtype=torch.float64), n).item() == (-1) ** n
        # L_n(0) = 1, L_n'(0) = -n
        assert S.laguerre_polynomial_l(torch.zeros(1, dtype=torch.float64), n).item() == 1
    # the degree is truncated; NaN, infinite and negative degrees give 0 (as torch)
    x = _x(0.3)
    assert torch.equal(S.legendre_polynomial_p(x, 2.9), S.legendre_polynomial_p(x, 2))
    for n in (-1, nan, inf, -inf):
        assert S.chebyshev_polynomial_t(x, n).item() == 0
    # degrees past the recurrence's overflow: NaN, as torch's recurrence gives
    assert math.isnan(S.chebyshev_polynomial_t(_x(2.0), 10_000).item())
    assert math.isnan(S.hermite_polynomial_h(_x(0.5), 10_000).item())
    assert math.isnan(S.chebyshev_polynomial_t(_x(1.5), 2 ** 40).item())
    assert abs(S.chebyshev_polynomial_t(_x(0.3), 2 ** 40).item()) <= 1


# ---- other special ops ------------------------------------------------------------------------

def test_frexp():
    x = _x(0.0, -0.0, 1.0, -0.75, 1e-310, 3e300, inf, -inf, nan, 6.0)
    m, e = torch.frexp(x)
    assert e.dtype == torch.int32 and m.dtype == torch.float64
    np.testing.assert_array_equal(m.numpy(), np.frexp(x.numpy())[0])
    np.testing.assert_array_equal(e.numpy()[[0, 1, 2, 3, 4, 5, 9]], np.frexp(x.numpy())[1][[0, 1, 2, 3, 4, 5, 9]])
    assert (e[6:9] == 0).all()
    for dt in (torch.float16, torch.bfloat16, torch.float32):
        y = torch.tensor([3.0, -0.1, 1e-5], dtype=dt)
        m, e = y.frexp()
        assert m.dtype == dt and torch.equal(m.to(torch.float64) * torch.exp2(e.to(torch.float64)), y.to(torch.float64))
    om, oe = torch.empty(0), torch.empty(0, dtype=torch.int32)
    r = torch.frexp(torch.tensor([8.0]), out=(om, oe))
    assert r.mantissa is om and r.exponent is oe and oe.item() == 4
    with pytest.raises(RuntimeError, match="only supports floating-point dtypes"):
        torch.frexp(torch.tensor([1, 2]))
    with pytest.raises(RuntimeError, match="expects exponent to have int dtype but got float"):
        torch.frexp(torch.tensor([1.0]), out=(torch.empty(1), torch.empty(1)))
    with pytest.raises(RuntimeError, match="expects mantissa to have dtype float but got double"):
        torch.frexp(torch.tensor([1.0]), out=(torch.empty(1, dtype=torch.float64), torch.empty(1, dtype=torch.int32)))


def test_gcd_lcm():
    a = torch.tensor([0, 4, -6, 7, 12, -128, 0])
    b = torch.tensor([0, 6, 9, 0, -18, 6, -5])
    np.testing.assert_array_equal(torch.gcd(a, b).numpy(), np.gcd(a.numpy(), b.numpy()))
    np.testing.assert_array_equal(torch.lcm(a, b).numpy(), np.lcm(a.numpy(), b.numpy()))
    # |x| wraps in the element type as torch's: the most negative int8 stays negative
    assert torch.gcd(torch.tensor([-128], dtype=torch.int8), torch.tensor([6], dtype=torch.int8)).item() == -2
    assert torch.gcd(torch.tensor([200], dtype=torch.uint8), torch.tensor([150], dtype=torch.uint8)).item() == 50
    assert torch.lcm(torch.tensor([16], dtype=torch.int8), torch.tensor([9], dtype=torch.int8)).item() == -112
    y = a.clone()
    assert torch.gcd_(y, b) is y and torch.equal(y, torch.gcd(a, b))
    assert torch.gcd(a.int(), b).dtype == torch.int64
    with pytest.raises(NotImplementedError, match="\"gcd_cpu\" not implemented for 'Float'"):
        torch.gcd(a.float(), b.float())
    with pytest.raises(NotImplementedError, match="\"lcm_cpu\" not implemented for 'Bool'"):
        torch.lcm(a > 0, b > 0)


def test_heaviside_and_nextafter():
    x = torch.tensor([-1.5, 0.0, -0.0, 2.0, nan])
    v = torch.tensor([7.0, 0.5, 0.25, 7.0, 7.0])
    assert torch.heaviside(x, v).tolist()[:4] == [0.0, 0.5, 0.25, 1.0]
    assert torch.heaviside(x, v)[4].item() == 0.0     # NaN is not > 0 (as torch)
    assert torch.heaviside(torch.tensor([0, 3, -2]), torch.tensor([5])).tolist() == [5, 1, 0]
    with pytest.raises(RuntimeError, match="not yet implemented for tensors with different dtypes"):
        torch.heaviside(x, v.double())
    with pytest.raises(NotImplementedError, match="not yet implemented for complex tensors"):
        torch.heaviside(x.to(torch.complex64), v.to(torch.complex64))
    a = torch.tensor([1.0, 1.0, 0.0, -0.0, inf, 3.0], dtype=torch.float64)
    b = torch.tensor([2.0, 0.0, 1.0, -1.0, 0.0, 3.0], dtype=torch.float64)
    np.testing.assert_array_equal(torch.nextafter(a, b).numpy(), np.nextafter(a.numpy(), b.numpy()))
    for dt, npdt in ((torch.float32, np.float32), (torch.float16, np.float16)):
        got = torch.nextafter(a.to(dt), b.to(dt)).numpy()
        np.testing.assert_array_equal(got, np.nextafter(a.numpy().astype(npdt), b.numpy().astype(npdt)))
    bf = torch.nextafter(torch.tensor([1.0], dtype=torch.bfloat16), torch.tensor([2.0], dtype=torch.bfloat16))
    assert bf.item() == 1.0078125
    with pytest.raises(NotImplementedError, match="\"nextafter_cpu\" not implemented for 'Long'"):
        torch.nextafter(torch.tensor([1]), torch.tensor([2]))


def test_mvlgamma_arguments():
    x = torch.tensor([2.5, 3.0])
    assert torch.mvlgamma(torch.tensor([3, 4]), 2).dtype == torch.float32
    y = x.clone()
    assert y.mvlgamma_(2) is y and torch.equal(y, torch.mvlgamma(x, 2))
    with pytest.raises(RuntimeError, match="p has to be greater than or equal to 1"):
        torch.mvlgamma(x, 0)
    with pytest.raises(RuntimeError, match="may not be a boolean tensor"):
        torch.mvlgamma(x > 0, 2)
    assert torch.mvlgamma(torch.tensor([-5.0]), 2).isinf().all()   # not refused (as torch)


def test_special_round_and_logit_refuse_what_torch_refuses():
    with pytest.raises(NotImplementedError, match="\"round_vml_cpu\" not implemented for 'Long'"):
        S.round(torch.tensor([1, 2]))
    with pytest.raises(NotImplementedError, match="\"logit_cpu\" not implemented for 'ComplexFloat'"):
        S.logit(torch.ones(2, dtype=torch.complex64))


# ---- derivatives ------------------------------------------------------------------------------

def _leaf(*values):
    return torch.tensor(values, dtype=torch.float64, requires_grad=True)


DIFFERENTIABLE = {
    "digamma": (0.3, 1.7, 4.2, -0.6), "i0": (0.3, -1.7, 4.2, 25.0), "i0e": (0.3, -1.7, 4.2, 25.0),
    "i1": (0.3, -1.7, 4.2, 25.0), "i1e": (0.3, -1.7, 4.2, 25.0),
    "modified_bessel_i0": (0.3, -1.7, 4.2), "modified_bessel_i1": (0.3, -1.7, 4.2),
    "modified_bessel_k0": (0.3, 1.7, 4.2), "modified_bessel_k1": (0.3, 1.7, 4.2),
    "bessel_j0": (0.3, -1.7, 4.2), "bessel_j1": (0.3, -1.7, 4.2), "bessel_y0": (0.3, 1.7, 4.2),
    "bessel_y1": (0.3, 1.7, 4.2), "erfcx": (-1.3, 0.2, 3.0, 14.0), "ndtr": (-3.0, 0.1, 2.0),
    "log_ndtr": (-9.0, -1.5, 0.1, 2.0), "ndtri": (0.01, 0.3, 0.6, 0.97), "entr": (0.2, 1.0, 3.0),
    "gammaln": (0.3, 2.5, -1.5),
}
NODE_NAMES = {"digamma": "DigammaBackward0", "i0": "I0Backward0", "erfcx": "SpecialErfcxBackward0",
              "bessel_j0": "SpecialBesselJ0Backward0", "modified_bessel_k1": "SpecialModifiedBesselK1Backward0",
              "ndtri": "SpecialNdtriBackward0", "entr": "SpecialEntrBackward0"}


@pytest.mark.parametrize("name", list(DIFFERENTIABLE))
def test_unary_derivatives(name):
    f = getattr(S, name)
    x = _leaf(*DIFFERENTIABLE[name])
    assert gradcheck(f, (x,))
    assert gradgradcheck(f, (x,))
    if name in NODE_NAMES:
        assert f(x).grad_fn.name() == NODE_NAMES[name]


def test_derivatives_at_zero_as_torch():
    x = _leaf(0.0, 0.0)
    for name, want in (("bessel_j1", 0.5), ("i1", 0.5), ("i1e", 0.5), ("modified_bessel_i1", 0.5),
                       ("bessel_y1", inf), ("bessel_j0", 0.0), ("i0", 0.0)):
        g, = torch.autograd.grad(getattr(S, name)(x).sum(), x)
        assert g.tolist() == [want, want], name
    g, = torch.autograd.grad(S.modified_bessel_k1(x[:1]).sum(), x)
    assert g[0].item() == -inf


def test_binary_derivatives():
    x = _leaf(0.7, 1.3, 2.5)
    q = _leaf(1.5, 2.0, 3.0)
    assert gradcheck(lambda v: torch.polygamma(2, v), (x,))
    assert gradgradcheck(lambda v: v.polygamma(1), (x,))
    assert gradcheck(lambda v: torch.mvlgamma(v + 2, 3), (x,))
    assert gradgradcheck(lambda v: S.multigammaln(v + 2, 3), (x,))
    assert gradcheck(lambda v: S.zeta(x.detach() + 1, v), (q,))
    assert gradgradcheck(lambda v: S.zeta(3.0, v), (q,))
    assert gradcheck(S.xlog1py, (x, q)) and gradgradcheck(S.xlog1py, (x, q))
    assert gradcheck(lambda v: S.xlog1py(v, 2.0), (x,)) and gradcheck(lambda v: S.xlog1py(2.0, v), (q,))
    assert gradcheck(lambda v: torch.igamma(x.detach(), v), (q,))
    assert gradgradcheck(lambda v: S.gammaincc(x.detach(), v), (q,))
    assert gradcheck(lambda v: torch.frexp(v * 3)[0], (x,))
    assert gradcheck(lambda a, b: torch.nextafter(a, b), (x, q))
    # no derivative where torch has none: the inputs of zeta's x and igamma's a
    with pytest.raises(NotImplementedError, match="the derivative for 'zeta' is not implemented"):
        S.zeta(x, q).sum().backward()
    with pytest.raises(NotImplementedError, match="the derivative for 'igamma: input' is not implemented"):
        torch.igamma(x, q).sum().backward()
    with pytest.raises(NotImplementedError, match="'igammac: input'"):
        torch.igammac(x, q.detach()).sum().backward()
    y = torch.heaviside(x, q)
    assert y.requires_grad
    with pytest.raises(RuntimeError, match="derivative for aten::heaviside is not implemented"):
        y.sum().backward()


def test_functions_without_derivative_in_torch_give_outputs_that_do_not_require_grad():
    x = _leaf(0.3, 0.6)
    for f in (S.airy_ai, S.scaled_modified_bessel_k0, S.scaled_modified_bessel_k1, S.spherical_bessel_j0):
        assert not f(x).requires_grad
    for name in POLYNOMIALS:
        assert not getattr(S, name)(x, 3).requires_grad


# ---- reference values: torch 2.15 (float64) and mpmath (40 digits) -----------------------------
REF = {
    'digamma': {
        "x": [0.0, -0.0, 1e-300, 1e-10, 0.1, 0.5, 1.0, 1.4616321449683622, 2.0, 2.5, 3.25, 5.0, 7.5, 10.0, 15.0, 19.5, 20.5, 30.0, 100.0, 500.0, -0.3, -1.5, -2.75, -9.9, -30.0, 1e+300, -1e+300, inf, -inf, nan],
        "torch": [-inf, inf, -9.999999999999999e+299, -10000000000.577213, -10.423754940411076, -1.9635100260214229, -0.5772156649015328, -4.069010753338098e-16, 0.422784335098467, 0.7031566406452431, 1.016990911068179, 1.5061176684318003, 1.9467574842460869, 2.251752589066721, 2.6743466616607936, 2.944554343425595, 2.9958363947076467, 3.384438132685525, 4.600161852738088, 6.213607765088991, 2.1133097796353986, 0.7031566406452433, -1.9590552649779964, -7.326637572847584, nan, 690.7755278982137, nan, inf, nan, nan],
        "exact": [nan, nan, -9.999999999999999e+299, -10000000000.577215, -10.423754940411076, -1.9635100260214235, -0.5772156649015329, -9.241265521729427e-17, 0.42278433509846713, 0.7031566406452432, 1.016990911068179, 1.5061176684318005, 1.9467574842460869, 2.251752589066721, 2.6743466616607936, 2.944554343425595, 2.9958363947076467, 3.384438132685525, 4.600161852738087, 6.213607765088992, 2.113309779635399, 0.7031566406452432, -1.959055264977997, -7.32663757284758, nan, 690.7755278982137, nan, nan, nan, nan],
    },
    'i0': {
        "x": [0.0, -0.0, 1e-300, 1e-10, 0.1, 0.5, 1.0, 1.4616321449683622, 2.0, 2.5, 3.25, 5.0, 7.5, 10.0, 15.0, 19.5, 20.5, 30.0, 100.0, 500.0, -0.3, -1.5, -2.75, -9.9, -30.0, 1e+300, -1e+300, inf, -inf, nan],
        "torch": [1.0, 1.0, 1.0, 0.9999999999999998, 1.0025015629340956, 1.0634833707413236, 1.2660658777520082, 1.6097820675735208, 2.279585302336067, 3.289839144050123, 5.989335997939519, 27.239871823604442, 268.1613115151893, 2815.716628466254, 339649.3732979138, 26760525.339838758, 70922869.83431698, 781672297823.9775, 1.0737517071310738e+42, 2.504809476570078e+215, 1.0226268793515967, 1.6467231897728907, 3.9959131072376564, 2560.963353256044, 781672297823.9775, inf, inf, nan, nan, nan],
        "exact": [1.0, 1.0, 1.0, 1.0, 1.0025015629340956, 1.0634833707413236, 1.2660658777520084, 1.6097820675735208, 2.2795853023360673, 3.289839144050123, 5.989335997939518, 27.239871823604446, 268.16131151518937, 2815.7166284662544, 339649.3732979139, 26760525.339838766, 70922869.83431701, 781672297823.9775, 1.0737517071310738e+42, 2.504809476570078e+215, 1.022626879351597, 1.646723189772891, 3.995913107237656, 2560.963353256044, 781672297823.9775, inf, inf, nan, nan, nan],
    },
    'i0e': {
        "x": [0.0, -0.0, 1e-300, 1e-10, 0.1, 0.5, 1.0, 1.4616321449683622, 2.0, 2.5, 3.25, 5.0, 7.5, 10.0, 15.0, 19.5, 20.5, 30.0, 100.0, 500.0, -0.3, -1.5, -2.75, -9.9, -30.0, 1e+300, -1e+300, inf, -inf, nan],
        "torch": [1.0, 1.0, 1.0, 0.9999999998999998, 0.9071009257823011, 0.6450352704491501, 0.46575960759364043, 0.3732401111234624, 0.308508322553671, 0.27004644161220276, 0.23223175875812105, 0.18354081260932834, 0.1483158300773955, 0.1278333371634286, 0.1038995314488227, 0.09093943209515647, 0.08866442901574523, 0.0731459464822373, 0.03994437929909668, 0.017845706500153165, 0.7575806251825477, 0.36743360905415834, 0.2554501785135525, 0.12849552200713849, 0.0731459464822373, 3.989422804014327e-151, 3.989422804014327e-151, 0.0, 0.0, nan],
        "exact": [1.0, 1.0, 1.0, 0.9999999999, 0.9071009257823011, 0.6450352704491501, 0.46575960759364043, 0.37324011112346245, 0.30850832255367105, 0.27004644161220276, 0.23223175875812105, 0.18354081260932836, 0.14831583007739552, 0.1278333371634286, 0.10389953144882272, 0.09093943209515648, 0.08866442901574524, 0.0731459464822373, 0.03994437929909668, 0.017845706500153168, 0.7575806251825479, 0.36743360905415834, 0.25545017851355245, 0.1284955220071385, 0.0731459464822373, 3.9894228040143264e-151, 3.9894228040143264e-151, nan, nan, nan],
    },
    'i1': {
        "x": [0.0, -0.0, 1e-300, 1e-10, 0.1, 0.5, 1.0, 1.4616321449683622, 2.0, 2.5, 3.25, 5.0, 7.5, 10.0, 15.0, 19.5, 20.5, 30.0, 100.0, 500.0, -0.3, -1.5, -2.75, -9.9, -30.0, 1e+300, -1e+300, inf, -inf, nan],
        "torch": [0.0, 0.0, 5.000000000000001e-301, 5e-11, 0.050062526047092694, 0.25789430539089636, 0.5651591039924851, 0.9441442293919317, 1.5906368546373295, 2.5167162452886984, 4.952546165908547, 24.335642142450524, 249.58436542268808, 2670.988303701255, 328124.92197020643, 26065069.264457162, 69170831.67918436, 768532038938.9569, 1.0683693903381625e+42, 2.5023034121760998e+215, -0.15169384000359282, -0.9816664285779075, -3.155410138619003, -2427.9583129509456, -768532038938.9569, inf, -inf, nan, nan, nan],
        "exact": [0.0, 0.0, 5e-301, 5e-11, 0.050062526047092694, 0.2578943053908963, 0.565159103992485, 0.9441442293919318, 1.590636854637329, 2.5167162452886984, 4.952546165908548, 24.335642142450528, 249.58436542268814, 2670.9883037012546, 328124.9219702064, 26065069.264457166, 69170831.67918438, 768532038938.957, 1.0683693903381625e+42, 2.5023034121761e+215, -0.15169384000359276, -0.9816664285779075, -3.155410138619003, -2427.958312950946, -768532038938.957, inf, -inf, nan, nan, nan],
    },
    'i1e': {
        "x": [0.0, -0.0, 1e-300, 1e-10, 0.1, 0.5, 1.0, 1.4616321449683622, 2.0, 2.5, 3.25, 5.0, 7.5, 10.0, 15.0, 19.5, 20.5, 30.0, 100.0, 500.0, -0.3, -1.5, -2.75, -9.9, -30.0, 1e+300, -1e+300, inf, -inf, nan],
        "torch": [0.0, 0.0, 5.000000000000001e-301, 4.9999999995e-11, 0.045298446808809324, 0.15642080318487173, 0.2079104153497085, 0.21890695901836796, 0.2152692892489377, 0.20658464953126654, 0.19203105433313603, 0.16397226694454234, 0.13804121154855417, 0.1212626813844555, 0.10037417504516664, 0.08857608609431485, 0.08647411349408725, 0.07191633059864755, 0.03974415302513025, 0.017827851852898053, -0.11237756063983881, -0.21903938742092566, -0.20171862139187355, -0.12182203639796144, -0.07191633059864755, 3.989422804014327e-151, -3.989422804014327e-151, 0.0, -0.0, nan],
        "exact": [0.0, 0.0, 5e-301, 4.9999999995e-11, 0.045298446808809324, 0.1564208031848717, 0.20791041534970844, 0.21890695901836799, 0.21526928924893765, 0.20658464953126657, 0.19203105433313603, 0.16397226694454237, 0.1380412115485542, 0.12126268138445552, 0.10037417504516666, 0.08857608609431485, 0.08647411349408725, 0.07191633059864755, 0.03974415302513025, 0.017827851852898056, -0.1123775606398388, -0.21903938742092569, -0.20171862139187355, -0.12182203639796144, -0.07191633059864755, 3.9894228040143264e-151, -3.9894228040143264e-151, nan, nan, nan],
    },
    'modified_bessel_i0': {
        "x": [0.0, -0.0, 1e-300, 1e-10, 0.1, 0.5, 1.0, 1.4616321449683622, 2.0, 2.5, 3.25, 5.0, 7.5, 10.0, 15.0, 19.5, 20.5, 30.0, 100.0, 500.0, -0.3, -1.5, -2.75, -9.9, -30.0, 1e+300, -1e+300, inf, -inf, nan],
        "torch": [1.0, 1.0, 1.0, 0.9999999999999998, 1.0025015629340956, 1.0634833707413236, 1.2660658777520082, 1.6097820675735208, 2.279585302336067, 3.289839144050123, 5.989335997939519, 27.239871823604442, 268.1613115151893, 2815.716628466254, 339649.3732979138, 26760525.339838758, 70922869.83431698, 781672297823.9775, 1.0737517071310738e+42, 2.504809476570078e+215, 1.0226268793515967, 1.6467231897728907, 3.9959131072376564, 2560.963353256044, 781672297823.9775, inf, inf, nan, nan, nan],
        "exact": [1.0, 1.0, 1.0, 1.0, 1.0025015629340956, 1.0634833707413236, 1.2660658777520084, 1.6097820675735208, 2.2795853023360673, 3.289839144050123, 5.989335997939518, 27.239871823604446, 268.16131151518937, 2815.7166284662544, 339649.3732979139, 26760525.339838766, 70922869.83431701, 781672297823.9775, 1.0737517071310738e+42, 2.504809476570078e+215, 1.022626879351597, 1.646723189772891, 3.995913107237656, 2560.963353256044, 781672297823.9775, inf, inf, nan, nan, nan],
    },
    'modified_bessel_i1': {
        "x": [0.0, -0.0, 1e-300, 1e-10, 0.1, 0.5, 1.0, 1.4616321449683622, 2.0, 2.5, 3.25, 5.0, 7.5, 10.0, 15.0, 19.5, 20.5, 30.0, 100.0, 500.0, -0.3, -1.5, -2.75, -9.9, -30.0, 1e+300, -1e+300, inf, -inf, nan],
        "torch": [0.0, 0.0, 5.000000000000001e-301, 5e-11, 0.050062526047092694, 0.25789430539089636, 0.5651591039924851, 0.9441442293919317, 1.5906368546373295, 2.5167162452886984, 4.952546165908548, 24.335642142450524, 249.58436542268808, 2670.988303701255, 328124.92197020643, 26065069.264457162, 69170831.67918436, 768532038938.9569, 1.0683693903381625e+42, 2.5023034121760998e+215, -0.15169384000359282, -0.9816664285779074, -3.155410138619003, -2427.9583129509456, -768532038938.9569, inf, -inf, nan, nan, nan],
        "exact": [0.0, 0.0, 5e-301, 5e-11, 0.050062526047092694, 0.2578943053908963, 0.565159103992485, 0.9441442293919318, 1.590636854637329, 2.5167162452886984, 4.952546165908548, 24.335642142450528, 249.58436542268814, 2670.9883037012546, 328124.9219702064, 26065069.264457166, 69170831.67918438, 768532038938.957, 1.0683693903381625e+42, 2.5023034121761e+215, -0.15169384000359276, -0.9816664285779075, -3.155410138619003, -2427.958312950946, -768532038938.957, inf, -inf, nan, nan, nan],
    },
    'modified_bessel_k0': {
        "x": [1e-300, 1e-10, 0.1, 0.5, 1.0, 1.9, 2.0, 2.1, 3.25, 5.0, 7.5, 10.0, 15.0, 25.0, 100.0, 700.0, 0.0, -1.0, inf, nan],
        "torch": [690.8914594138721, 23.141782445598864, 2.427069024702017, 0.924419071227666, 0.4210244382407082, 0.1288459792760475, 0.1138938727495334, 0.10078374088996692, 0.026058755255154952, 0.0036910983340425942, 0.00024917761635611437, 1.778006231616765e-05, 9.819536482396433e-08, 3.4641615622131143e-12, 4.6566282291759025e-45, 4.6697764316853765e-306, inf, nan, 0.0, nan],
        "exact": [690.8914594138721, 23.14178244559887, 2.4270690247020164, 0.9244190712276659, 0.42102443824070834, 0.1288459792760475, 0.11389387274953344, 0.10078374088996693, 0.02605875525515495, 0.0036910983340425942, 0.00024917761635611437, 1.778006231616765e-05, 9.819536482396435e-08, 3.4641615622131143e-12, 4.656628229175902e-45, 4.669776431685377e-306, inf, nan, nan, nan],
    },
    'modified_bessel_k1': {
        "x": [1e-300, 1e-10, 0.1, 0.5, 1.0, 1.9, 2.0, 2.1, 3.25, 5.0, 7.5, 10.0, 15.0, 25.0, 100.0, 700.0, 0.0, -1.0, inf, nan],
        "torch": [9.999999999999999e+299, 10000000000.0, 9.853844780870606, 1.6564411200033007, 0.6019072301972346, 0.15966015303266767, 0.13986588181652246, 0.1227464115335079, 0.029825529796040123, 0.004044613445452163, 0.00026529739012528955, 1.8648773453825585e-05, 1.014172936976209e-07, 3.5327780731999337e-12, 4.67985373563691e-45, 4.6731107967079664e-306, inf, nan, 0.0, nan],
        "exact": [9.999999999999999e+299, 10000000000.0, 9.853844780870606, 1.656441120003301, 0.6019072301972346, 0.15966015303266762, 0.13986588181652243, 0.12274641153350789, 0.029825529796040123, 0.004044613445452165, 0.0002652973901252895, 1.8648773453825585e-05, 1.0141729369762092e-07, 3.5327780731999337e-12, 4.6798537356369095e-45, 4.6731107967079664e-306, inf, nan, nan, nan],
    },
    'scaled_modified_bessel_k0': {
        "x": [1e-300, 1e-10, 0.1, 0.5, 1.0, 1.9, 2.0, 2.1, 3.25, 5.0, 7.5, 10.0, 15.0, 25.0, 100.0, 700.0, 0.0, -1.0, inf, nan],
        "torch": [690.8914594138721, 23.14178244791304, 2.682326102262895, 1.5241093857739099, 1.1444630798068944, 0.8614506167517557, 0.8415682150707712, 0.8230171525316619, 0.6720641558493873, 0.547807564313519, 0.45052369910491563, 0.39163193443659866, 0.3210023535057762, 0.2494366045755967, 0.1251756216591266, 0.04736236945461357, inf, nan, 0.0, nan],
        "exact": [690.8914594138721, 23.141782447913048, 2.6823261022628944, 1.5241093857739094, 1.144463079806895, 0.8614506167517558, 0.8415682150707714, 0.8230171525316621, 0.6720641558493872, 0.547807564313519, 0.4505236991049157, 0.39163193443659866, 0.3210023535057762, 0.2494366045755967, 0.12517562165912657, 0.04736236945461357, inf, nan, nan, nan],
    },
    'scaled_modified_bessel_k1': {
        "x": [1e-300, 1e-10, 0.1, 0.5, 1.0, 1.9, 2.0, 2.1, 3.25, 5.0, 7.5, 10.0, 15.0, 25.0, 100.0, 700.0, 0.0, -1.0, inf, nan],
        "torch": [9.999999999999999e+299, 10000000001.0, 10.890182683049698, 2.7310097082117855, 1.636153486263258, 1.0674709298145704, 1.0334768470686888, 1.002368052740579, 0.7692105516502447, 0.6002738587883125, 0.47966893379102066, 0.4107665705957887, 0.3315348949666291, 0.25437732954208525, 0.12579995047957854, 0.04739618765349455, inf, nan, 0.0, nan],
        "exact": [9.999999999999999e+299, 10000000001.0, 10.890182683049696, 2.731009708211786, 1.6361534862632583, 1.0674709298145701, 1.0334768470686886, 1.0023680527405792, 0.7692105516502447, 0.6002738587883126, 0.4796689337910206, 0.41076657059578875, 0.3315348949666291, 0.25437732954208525, 0.12579995047957854, 0.04739618765349454, inf, nan, nan, nan],
    },
    'bessel_j0': {
        "x": [0.0, -0.0, 1e-300, 0.5, 1.0, 2.404825557695773, 3.25, 3.8317059702075125, 5.0, 5.52, 7.0, 8.0, 10.0, 25.0, 30.0, 100000.0, -1.0, -7.5, inf, -inf, nan],
        "torch": [1.0, 1.0, 1.0, 0.938469807240813, 0.7651976865579665, -9.5868825549231e-17, -0.3327508021953472, -0.40275939608868144, -0.17759678121123898, -2.6735603154863217e-05, 0.3000792697173623, 0.17165080909758512, -0.24593576441958856, 0.09626678327595771, -0.08636798358104034, -0.001719201116238339, 0.7651976865579665, 0.26633966007879234, nan, nan, nan],
        "exact": [1.0, 1.0, 1.0, 0.9384698072408129, 0.7651976865579666, -6.10876525973673e-17, -0.33275080217061154, -0.402759395702553, -0.1775967713143383, -2.6578369480081305e-05, 0.3000792705195556, 0.1716508071375539, -0.24593576445134835, 0.09626678327595811, -0.08636798358104021, -0.0017192011162359723, 0.7651976865579666, 0.2663396578803784, nan, nan, nan],
    },
    'bessel_j1': {
        "x": [0.0, -0.0, 1e-300, 0.5, 1.0, 2.404825557695773, 3.25, 3.8317059702075125, 5.0, 5.52, 7.0, 8.0, 10.0, 25.0, 30.0, 100000.0, -1.0, -7.5, inf, -inf, nan],
        "torch": [0.0, -0.0, 5.000000000000001e-301, 0.24226845767487387, 0.44005058574493355, 0.5191474972895775, 0.24111968802107597, -9.335846917510438e-17, -0.3275791437359959, -0.34026961245653226, -0.004682797275893047, 0.2346363501030504, 0.043472745839915526, -0.1253502495802893, -0.11875106261662309, 0.0018467575628759575, -0.44005058574493355, -0.1352484382588624, nan, nan, nan],
        "exact": [0.0, 0.0, 5e-301, 0.2422684576748739, 0.4400505857449335, 0.5191474972894667, 0.2411196880152039, -6.149807356994906e-17, -0.32757913759146523, -0.3402696204082897, -0.004682823482345833, 0.23463634685391463, 0.04347274616886144, -0.1253502495802899, -0.11875106261662294, 0.0018467575628825677, -0.4400505857449335, -0.1352484275797055, nan, nan, nan],
    },
    'bessel_y0': {
        "x": [0.0, -0.0, 1e-300, 0.5, 1.0, 2.404825557695773, 3.25, 3.8317059702075125, 5.0, 5.52, 7.0, 8.0, 10.0, 25.0, 30.0, 100000.0, -1.0, -7.5, inf, -inf, nan],
        "torch": [-inf, -inf, -439.8351636227653, -0.4445187335067066, 0.08825696421567697, 0.5099243834488885, 0.28828690268207224, 0.051397672962064114, -0.3085176376345636, -0.338938513278645, -0.02594975564546204, 0.22352148793012566, 0.05567116743247819, -0.12724943226800647, -0.11729573168666393, 0.0018467661588628603, nan, nan, nan, nan, nan],
        "exact": [-inf, -inf, -439.8351636227653, -0.44451873350670656, 0.08825696421567696, 0.509924383448479, 0.28828690267308704, 0.0513976730994109, -0.30851762524903376, -0.33893850978546153, -0.025949743967209265, 0.22352148938756622, 0.055671167283599395, -0.12724943226800614, -0.11729573168666403, 0.001846766158865064, nan, nan, nan, nan, nan],
    },
    'bessel_y1': {
        "x": [0.0, -0.0, 1e-300, 0.5, 1.0, 2.404825557695773, 3.25, 3.8317059702075125, 5.0, 5.52, 7.0, 8.0, 10.0, 25.0, 30.0, 100000.0, -1.0, -7.5, inf, -inf, nan],
        "torch": [-inf, -inf, -6.366197723675813e+299, -1.4714723926702433, -0.7812128213002888, 0.1027466824383435, 0.3797777737343038, 0.4125173954024421, 0.14786315225770025, -0.030444636319112154, -0.3026672388243377, -0.15806045736166432, 0.24901542427712678, -0.09882996478323822, 0.08442557066174709, 0.0017192103500953573, nan, nan, nan, nan, nan],
        "exact": [-inf, -inf, -6.366197723675813e+299, -1.471472392670243, -0.7812128213002887, 0.1027466824382596, 0.37977777371708354, 0.41251739515882574, 0.14786314339122683, -0.030444278398032303, -0.30266723702418485, -0.1580604617312475, 0.24901542420695388, -0.09882996478323741, 0.08442557066174723, 0.0017192103500882562, nan, nan, nan, nan, nan],
    },
    'spherical_bessel_j0': {
        "x": [0.0, -0.0, 1e-300, 0.5, 1.0, 2.404825557695773, 3.25, 3.8317059702075125, 5.0, 5.52, 7.0, 8.0, 10.0, 25.0, 30.0, 100000.0, -1.0, -7.5, inf, -inf, nan],
        "torch": [1.0, 1.0, 1.0, 0.958851077208406, 0.8414709848078965, 0.2793953149271445, -0.03329081062464873, -0.16614650969431635, -0.1917848549326277, -0.1252222412313636, 0.09385522838839844, 0.12366978082792272, -0.05440211108893698, -0.005294070003910922, -0.03293438746976206, 3.574879797201651e-07, 0.8414709848078965, 0.12506666356996518, 0.0, 0.0, nan],
        "exact": [1.0, 1.0, 1.0, 0.958851077208406, 0.8414709848078965, 0.2793953149271445, -0.03329081062464873, -0.16614650969431638, -0.1917848549326277, -0.1252222412313636, 0.09385522838839844, 0.12366978082792272, -0.05440211108893698, -0.005294070003910921, -0.03293438746976206, 3.574879797201651e-07, 0.8414709848078965, 0.12506666356996518, nan, nan, nan],
    },
    'airy_ai': {
        "x": [-100.3, -30.5, -10.3, -10.2, -5.0, -2.338107410459767, -1.0, 0.0, 0.5, 1.0, 2.7, 2.8, 5.0, 10.0, 50.0, 110.0, inf, -inf, nan],
        "torch": [-0.17154021742618786, -0.004333637288742016, -0.2321080188548294, -0.153696782607082, 0.35076100902415286, 6.632816105867871e-07, 0.5355608832923521, 0.3550280538878172, 0.23169360648083345, 0.13529241631288144, 0.011198535451065876, 0.009410506914923969, 0.00010834442813607433, 1.1047532552898654e-10, 4.5849417240747895e-104, 0.0, nan, nan, nan],
        "exact": [-0.17154021742619094, -0.004333637288742865, -0.23210801885482976, -0.15369678260708255, 0.35076100902411433, 2.743319340666283e-17, 0.5355608832923521, 0.3550280538878172, 0.23169360648083348, 0.13529241631288141, 0.011198535451065878, 0.009410506914923965, 0.00010834442813607442, 1.1047532552898686e-10, 4.5849417240748285e-104, 0.0, nan, nan, nan],
    },
    'erfcx': {
        "x": [-30.0, -26.0, -10.0, -3.0, -1.0, -0.1, 0.0, 1e-10, 0.5, 1.0, 3.0, 11.9, 12.1, 30.0, 100000.0, 1e+200, inf, -inf, nan],
        "torch": [inf, 7.657724931490568e+293, 5.376234283632271e+43, 16205.988853999586, 5.008980080762283, 1.123643354199209, 1.0, 0.9999999998871619, 0.6156903441929258, 0.427583576155807, 0.17900115118138998, 0.047245232484087664, 0.046469607339835, 0.018795888861416754, 5.6418958351954685e-06, 5.641895835477563e-201, 0.0, inf, nan],
        "exact": [inf, 7.657724931490568e+293, 5.376234283632271e+43, 16205.988853999586, 5.008980080762283, 1.1236433541992095, 1.0, 0.999999999887162, 0.6156903441929259, 0.427583576155807, 0.17900115118138996, 0.04724523248408767, 0.04646960733983501, 0.01879588886141675, 5.6418958351954685e-06, nan, nan, nan, nan],
    },
    'ndtr': {
        "x": [-40.0, -38.0, -20.0, -5.0, -1.5, -1.0, -0.5, 0.0, 0.5, 1.0, 3.0, 8.0, 40.0, inf, -inf, nan],
        "torch": [0.0, 0.0, 0.0, 2.8665157186802404e-07, 0.06680720126885803, 0.15865525393145702, 0.3085375387259869, 0.5, 0.6914624612740131, 0.841344746068543, 0.9986501019683699, 0.9999999999999993, 1.0, 1.0, 0.0, nan],
        "exact": [0.0, 2.88542835e-316, 2.7536241186062337e-89, 2.866515718791939e-07, 0.06680720126885807, 0.15865525393145705, 0.3085375387259869, 0.5, 0.6914624612740131, 0.8413447460685429, 0.9986501019683699, 0.9999999999999993, 1.0, nan, nan, nan],
    },
    'log_ndtr': {
        "x": [-40.0, -38.0, -20.0, -5.0, -1.5, -1.0, -0.5, 0.0, 0.5, 1.0, 3.0, 8.0, 40.0, inf, -inf, nan],
        "torch": [-804.6084420137539, -726.5572160188201, -203.9171553710973, -15.064998393988727, -2.7059444008238898, -1.841021645009264, -1.1759117615936185, -0.6931471805599453, -0.36894641528865635, -0.17275377902344985, -0.0013508099647481923, -6.220960574271758e-16, -0.0, -0.0, -inf, nan],
        "exact": [-804.6084420137538, -726.5572160188201, -203.91715537109727, -15.064998393988725, -2.7059444008238898, -1.8410216450092636, -1.1759117615936185, -0.6931471805599453, -0.3689464152886564, -0.17275377902344988, -0.0013508099647481938, -6.220960574271786e-16, 0.0, nan, nan, nan],
    },
    'ndtri': {
        "x": [1e-300, 1e-100, 1e-20, 1e-08, 0.001, 0.02, 0.1, 0.25, 0.3, 0.4999, 0.5, 0.5001, 0.7, 0.75, 0.9, 0.999, 0.999999999999, 0.0, 1.0, -0.1, 1.1, nan],
        "torch": [-37.0470962993612, -21.273453560965322, -9.262340089798409, -5.612001244174789, -3.090232306167813, -2.053748910631823, -1.2815515655446004, -0.6744897501960817, -0.5244005127080409, -0.0002506628300880075, 0.0, 0.0002506628300880075, 0.5244005127080407, 0.6744897501960817, 1.2815515655446004, 3.090232306167813, 7.0344869100478356, -inf, inf, nan, nan, nan],
        "exact": [-37.0470962993612, -21.273453560965326, -9.262340089798407, -5.612001244174789, -3.0902323061678136, -2.053748910631823, -1.2815515655446004, -0.6744897501960817, -0.5244005127080408, -0.00025066283008800747, 4.090469753180225e-48, 0.00025066283008800747, 0.5244005127080407, 0.6744897501960817, 1.2815515655446006, 3.090232306167813, nan, nan, nan, nan, nan, nan],
    },
    'entr': {
        "x": [0.0, -0.0, 1e-300, 1e-10, 0.1, 0.5, 1.0, 1.4616321449683622, 2.0, 2.5, 3.25, 5.0, 7.5, 10.0, 15.0, 19.5, 20.5, 30.0, 100.0, 500.0, -0.3, -1.5, -2.75, -9.9, -30.0, 1e+300, -1e+300, inf, -inf, nan],
        "torch": [0.0, 0.0, 6.907755278982137e-298, 2.302585092994046e-09, 0.23025850929940456, 0.34657359027997264, -0.0, -0.5547679161981233, -1.3862943611198906, -2.2907268296853878, -3.83062873811035, -8.047189562170502, -15.111772654066986, -23.02585092994046, -40.62075301653315, -57.92308207860917, -61.91871016595943, -102.03592144986466, -460.51701859880916, -3107.304049211096, -inf, -inf, -inf, -inf, -inf, -6.907755278982137e+302, -inf, -inf, -inf, nan],
        "exact": [0.0, 0.0, 6.9077552789821376e-298, 2.302585092994046e-09, 0.23025850929940458, 0.34657359027997264, 0.0, -0.5547679161981233, -1.3862943611198906, -2.2907268296853878, -3.83062873811035, -8.047189562170502, -15.111772654066986, -23.025850929940457, -40.62075301653315, -57.92308207860917, -61.91871016595943, -102.03592144986466, -460.51701859880916, -3107.304049211096, -inf, -inf, -inf, -inf, -inf, -6.907755278982137e+302, -inf, nan, nan, nan],
    },
    "polygamma1": {"x": [0.5, 1.0, 1.1377831862250751, 2.5, 10.0, 15.0, 100.0, -0.3, -1.5, -2.5, 1e-05], "torch": [4.934802202073678, 1.6449340676383375, 1.3660539332853332, 0.4903577562398206, 0.10516633568216657, 0.06893822784772556, 0.010050166663333571, 13.945160267262267, 9.37924664484954, 9.53924664493752, 10000000001.644907], "exact": [4.934802200544679, 1.6449340668482264, 1.3660539326212688, 0.49035775610023485, 0.10516633568168575, 0.0689382278476838, 0.010050166663333571, 13.945160267805722, 9.379246644989124, 9.539246644989124, 10000000001.644909]},
    "polygamma2": {"x": [0.5, 1.0, 1.1377831862250751, 2.5, 10.0, 15.0, 100.0, -0.3, -1.5, -2.5, 1e-05], "torch": [-16.828796644234316, -2.404113806319188, -1.7014939307344985, -0.23620405164172736, -0.011049834970802069, -0.004750602716551555, -0.00010100499983335001, 67.63908119988314, -0.23620405164172825, -0.1082040516417282, -2000000000000001.8], "exact": [-16.82879664423432, -2.4041138063191885, -1.7014939307344983, -0.2362040516417274, -0.011049834970802067, -0.004750602716551555, -0.00010100499983335, 67.63908119988317, -0.2362040516417274, -0.1082040516417274, -2000000000000002.0]},
    "polygamma3": {"x": [0.5, 1.0, 1.1377831862250751, 2.5, 10.0, 15.0, 100.0, -0.3, -1.5, -2.5, 1e-05], "torch": [97.40909103400242, 6.493939402266829, 3.9694877507010866, 0.2239058488172521, 0.0023199013042898686, 0.0006544797782827372, 2.030199990001333e-06, 766.6198904191684, 194.59427621918758, 194.74787621918756, 5.999999999999997e+20], "exact": [97.40909103400244, 6.493939402266829, 3.969487750701086, 0.22390584881725206, 0.0023199013042898686, 0.0006544797782827373, 2.030199990001333e-06, 766.6198904191685, 194.59427621918763, 194.74787621918762, 5.999999999999999e+20]},
    "polygamma6": {"x": [0.5, 1.0, 1.1377831862250751, 2.5, 10.0, 15.0, 100.0, -0.3, -1.5, -2.5, 1e-05], "torch": [-92203.45792380297, -726.0114797149846, -295.5009495817269, -1.3180061075500353, -0.0001601508710767886, -1.2804988754626056e-05, -1.236419949613195e-10, 3283420.0265157693, -1.3180061075581837, -0.13835810754472572, -7.199999999999997e+37], "exact": [-92203.45792380303, -726.0114797149845, -295.5009495817269, -1.318006107550035, -0.0001601508710767886, -1.2804988754626055e-05, -1.2364199496131948e-10, 3283420.02651577, -1.318006107550035, -0.1383581075500352, -7.199999999999996e+37]},
    'zeta': {
        "a": [2.0, 2.0, 3.0, 1.5, 4.0, 2.0, 3.0, 20.0, 1.0, 0.5, 2.5, 3.0, 2.0, inf, inf, inf, 2.0, nan, nan],
        "b": [1.0, 0.5, 2.5, 10.0, 1000000000.0, -1.5, -2.5, 1.3, 2.0, 2.0, -1.5, 0.0, -2.0, 0.5, 1.0, 3.0, inf, 1.0, -1.0],
        "torch": [1.6449340668482266, 4.93480220054468, 0.11810202582086368, 0.6486616319415703, 3.333333338333334e-28, 9.379246644989124, 0.0541020258208641, 0.00526184155958799, inf, nan, nan, inf, inf, inf, 1.0, nan, nan, nan, inf],
        "exact": [1.6449340668482264, 4.934802200544679, 0.1181020258208637, 0.6486616319415704, 3.3333333383333335e-28, 9.379246644989124, 0.0541020258208637, 0.005261841559587991, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan],
    },
    'igamma': {
        "a": [0.5, 1.0, 3.0, 10.0, 21.75, 100.0, 100.0, 1000.0, 1e-05, 0.01, 5.0, 0.3, 50.0, 10000000.0, 10000000.0, 2000000.0, 0.0, 0.0, 1.0, -1.0, 1.0, inf, 1.0, inf, nan, nan, inf],
        "b": [0.5, 1.0, 0.5, 10.0, 15.32, 90.0, 120.0, 1000.0, 0.1, 0.5, 100.0, 30.0, 2.0, 10003000.0, 9990000.0, 2000000.0, 1.0, 0.0, 0.0, 1.0, -1.0, 1.0, inf, inf, 0.0, inf, nan],
        "torch": [0.6826894921370859, 0.6321205588285577, 0.014387677966970684, 0.5420702855281478, 0.07067485549297724, 0.15822098907532103, 0.9721362600793289, 0.5042052441217048, 0.9999817708537221, 0.9943732438060334, 1.0, 0.9999999999999972, 5.2143019033173107e-51, 0.8286118293315031, 0.000780153215248329, 0.5000940315962108, 1.0, nan, 0.0, nan, nan, 0.0, 1.0, nan, 0.0, 1.0, 0.0],
        "exact": [0.6826894921370859, 0.6321205588285577, 0.014387677966970687, 0.5420702855281478, 0.07067485562395553, 0.15822098918643016, 0.9721362601094793, 0.5042052441802155, 0.9999817708537233, 0.9943732438060329, 1.0, 0.9999999999999972, 5.214301903317168e-51, nan, nan, nan, nan, nan, 0.0, nan, nan, nan, nan, nan, nan, nan, nan],
    },
    'igammac': {
        "a": [0.5, 1.0, 3.0, 10.0, 21.75, 100.0, 100.0, 1000.0, 1e-05, 0.01, 5.0, 0.3, 50.0, 10000000.0, 10000000.0, 2000000.0, 0.0, 0.0, 1.0, -1.0, 1.0, inf, 1.0, inf, nan, nan, inf],
        "b": [0.5, 1.0, 0.5, 10.0, 15.32, 90.0, 120.0, 1000.0, 0.1, 0.5, 100.0, 30.0, 2.0, 10003000.0, 9990000.0, 2000000.0, 1.0, 0.0, 0.0, 1.0, -1.0, 1.0, inf, inf, 0.0, inf, nan],
        "torch": [0.3173105078629141, 0.36787944117144245, 0.9856123220330293, 0.4579297144718523, 0.9293251445070227, 0.8417790109246789, 0.027863739920671086, 0.4957947558782953, 1.8229146276660778e-05, 0.005626756193967182, 1.6139305336977317e-37, 2.8285793848940158e-15, 1.0, 0.17138817066849685, 0.9992198467847516, 0.4999059684037892, 0.0, nan, 1.0, nan, nan, 1.0, 0.0, nan, 1.0, 0.0, 1.0],
        "exact": [0.3173105078629141, 0.36787944117144233, 0.9856123220330293, 0.4579297144718522, 0.9293251443760444, 0.8417790108135699, 0.027863739890520663, 0.4957947558197845, 1.8229146276698593e-05, 0.0056267561939671844, 1.6139305336977305e-37, 2.8285793848940106e-15, 1.0, nan, nan, nan, nan, nan, 1.0, nan, nan, nan, nan, nan, nan, nan, nan],
    },
    'xlog1py': {
        "a": [1.0, 0.0, 0.0, 2.0, 3.0, -2.0, 0.0, 1.0, 2.0],
        "b": [2.0, -1.0, -2.0, -1.0, 1e-10, 0.5, nan, inf, -0.5],
        "torch": [1.0986122886681096, 0.0, 0.0, -inf, 2.99999999985e-10, -0.8109302162163288, nan, inf, -1.3862943611198906],
        "exact": [1.0986122886681098, 0.0, 0.0, -inf, 2.99999999985e-10, -0.8109302162163288, nan, nan, -1.3862943611198906],
    },
    'chebyshev_polynomial_t': {
        "a": [-2.0, -2.0, -2.0, -2.0, -2.0, -2.0, -2.0, -2.0, -2.0, -2.0, -2.0, -2.0, -1.0, -1.0, -1.0, -1.0, -1.0, -1.0, -1.0, -1.0, -1.0, -1.0, -1.0, -1.0, -0.999, -0.999, -0.999, -0.999, -0.999, -0.999, -0.999, -0.999, -0.999, -0.999, -0.999, -0.999, -0.5, -0.5, -0.5, -0.5, -0.5, -0.5, -0.5, -0.5, -0.5, -0.5, -0.5, -0.5, -0.001, -0.001, -0.001, -0.001, -0.001, -0.001, -0.001, -0.001, -0.001, -0.001, -0.001, -0.001, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.3, 0.3, 0.3, 0.3, 0.3, 0.3, 0.3, 0.3, 0.3, 0.3, 0.3, 0.3, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.999, 0.999, 0.999, 0.999, 0.999, 0.999, 0.999, 0.999, 0.999, 0.999, 0.999, 0.999, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5, inf, inf, inf, inf, inf, inf, inf, inf, inf, inf, inf, inf, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan],
        "b": [-1.0, 0.0, 1.0, 2.0, 2.7, 3.0, 6.0, 7.0, 9.0, 12.0, nan, inf, -1.0, 0.0, 1.0, 2.0, 2.7, 3.0, 6.0, 7.0, 9.0, 12.0, nan, inf, -1.0, 0.0, 1.0, 2.0, 2.7, 3.0, 6.0, 7.0, 9.0, 12.0, nan, inf, -1.0, 0.0, 1.0, 2.0, 2.7, 3.0, 6.0, 7.0, 9.0, 12.0, nan, inf, -1.0, 0.0, 1.0, 2.0, 2.7, 3.0, 6.0, 7.0, 9.0, 12.0, nan, inf, -1.0, 0.0, 1.0, 2.0, 2.7, 3.0, 6.0, 7.0, 9.0, 12.0, nan, inf, -1.0, 0.0, 1.0, 2.0, 2.7, 3.0, 6.0, 7.0, 9.0, 12.0, nan, inf, -1.0, 0.0, 1.0, 2.0, 2.7, 3.0, 6.0, 7.0, 9.0, 12.0, nan, inf, -1.0, 0.0, 1.0, 2.0, 2.7, 3.0, 6.0, 7.0, 9.0, 12.0, nan, inf, -1.0, 0.0, 1.0, 2.0, 2.7, 3.0, 6.0, 7.0, 9.0, 12.0, nan, inf, -1.0, 0.0, 1.0, 2.0, 2.7, 3.0, 6.0, 7.0, 9.0, 12.0, nan, inf, -1.0, 0.0, 1.0, 2.0, 2.7, 3.0, 6.0, 7.0, 9.0, 12.0, nan, inf, -1.0, 0.0, 1.0, 2.0, 2.7, 3.0, 6.0, 7.0, 9.0, 12.0, nan, inf],
        "torch": [0.0, 1.0, -2.0, 7.0, 7.0, -26.0, 1351.0, -5042.0, -70226.0, 3650401.0, 0.0, 0.0, 0.0, 1.0, -1.0, 1.0, 1.0, -1.0, 1.0, -1.0, -1.0, 1.0, 0.0, 0.0, 0.0, 1.0, -0.999, 0.9960019999999999, 0.9960019999999999, -0.9910119959999999, 0.9642095524318078, -0.9513908256787683, -0.920074470235426, 0.8594001220014937, 0.0, 0.0, 0.0, 1.0, -0.5, -0.5, -0.5, 1.0, 1.0, -0.5000000000000006, 1.0, 1.0, 0.0, 0.0, 0.0, 1.0, -0.001, -0.999998, -0.999998, 0.002999996, -0.999982000048, 0.006999944000112592, -0.008999880000431238, 0.9999280008399964, 0.0, 0.0, 0.0, 1.0, 0.0, -1.0, -1.0, -0.0, -1.0, -4.286263797015736e-16, 5.51091059616309e-16, 1.0, 0.0, 0.0, 0.0, 1.0, 0.3, -0.8200000000000001, -0.8200000000000001, -0.792, 0.254528, -0.8461632000000004, 0.3888276480000005, -0.870430994432001, 0.0, 0.0, 0.0, 1.0, 0.5, -0.5, -0.5, -1.0, 1.0, 0.4999999999999997, -1.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.999, 0.9960019999999999, 0.9960019999999999, 0.9910119959999999, 0.9642095524318078, 0.9513908256787684, 0.9200744702354253, 0.859400122001495, 0.0, 0.0, 0.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 0.0, 0.0, 0.0, 1.0, 1.5, 3.5, 3.5, 9.0, 161.0, 421.5, 2889.0, 51841.0, 0.0, 0.0, 0.0, 1.0, inf, inf, inf, nan, nan, nan, nan, nan, 0.0, 0.0, 0.0, 1.0, nan, nan, nan, nan, nan, nan, nan, nan, 0.0, 0.0],
        "exact": [0.0, 1.0, -2.0, 7.0, 7.0, -26.0, 1351.0, -5042.0, -70226.0, 3650401.0, nan, nan, 0.0, 1.0, -1.0, 1.0, 1.0, -1.0, 1.0, -1.0, -1.0, 1.0, nan, nan, 0.0, 1.0, -0.999, 0.9960019999999999, 0.9960019999999999, -0.991011996, 0.964209552431808, -0.9513908256787684, -0.9200744702354254, 0.859400122001495, nan, nan, 0.0, 1.0, -0.5, -0.5, -0.5, 1.0, 1.0, -0.5, 1.0, 1.0, nan, nan, 0.0, 1.0, -0.001, -0.999998, -0.999998, 0.002999996, -0.999982000048, 0.006999944000112, -0.008999880000432, 0.9999280008399964, nan, nan, 0.0, 1.0, 0.0, -1.0, -1.0, 0.0, -1.0, 0.0, 0.0, 1.0, nan, nan, 0.0, 1.0, 0.3, -0.8200000000000001, -0.8200000000000001, -0.7919999999999999, 0.2545279999999999, -0.8461632, 0.3888276480000001, -0.8704309944320001, nan, nan, 0.0, 1.0, 0.5, -0.5, -0.5, -1.0, 1.0, 0.5, -1.0, 1.0, nan, nan, 0.0, 1.0, 0.999, 0.9960019999999999, 0.9960019999999999, 0.991011996, 0.964209552431808, 0.9513908256787684, 0.9200744702354254, 0.859400122001495, nan, nan, 0.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, nan, nan, 0.0, 1.0, 1.5, 3.5, 3.5, 9.0, 161.0, 421.5, 2889.0, 51841.0, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan],
    },
    'chebyshev_polynomial_u': {
        "a": [-2.0, -2.0, -2.0, -2.0, -2.0, -2.0, -2.0, -2.0, -2.0, -2.0, -2.0, -2.0, -1.0, -1.0, -1.0, -1.0, -1.0, -1.0, -1.0, -1.0, -1.0, -1.0, -1.0, -1.0, -0.999, -0.999, -0.999, -0.999, -0.999, -0.999, -0.999, -0.999, -0.999, -0.999, -0.999, -0.999, -0.5, -0.5, -0.5, -0.5, -0.5, -0.5, -0.5, -0.5, -0.5, -0.5, -0.5, -0.5, -0.001, -0.001, -0.001, -0.001, -0.001, -0.001, -0.001, -0.001, -0.001, -0.001, -0.001, -0.001, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.3, 0.3, 0.3, 0.3, 0.3, 0.3, 0.3, 0.3, 0.3, 0.3, 0.3, 0.3, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.999, 0.999, 0.999, 0.999, 0.999, 0.999, 0.999, 0.999, 0.999, 0.999, 0.999, 0.999, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5, inf, inf, inf, inf, inf, inf, inf, inf, inf, inf, inf, inf, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan],
        "b": [-1.0, 0.0, 1.0, 2.0, 2.7, 3.0, 6.0, 7.0, 9.0, 12.0, nan, inf, -1.0, 0.0, 1.0, 2.0, 2.7, 3.0, 6.0, 7.0, 9.0, 12.0, nan, inf, -1.0, 0.0, 1.0, 2.0, 2.7, 3.0, 6.0, 7.0, 9.0, 12.0, nan, inf, -1.0, 0.0, 1.0, 2.0, 2.7, 3.0, 6.0, 7.0, 9.0, 12.0, nan, inf, -1.0, 0.0, 1.0, 2.0, 2.7, 3.0, 6.0, 7.0, 9.0, 12.0, nan, inf, -1.0, 0.0, 1.0, 2.0, 2.7, 3.0, 6.0, 7.0, 9.0, 12.0, nan, inf, -1.0, 0.0, 1.0, 2.0, 2.7, 3.0, 6.0, 7.0, 9.0, 12.0, nan, inf, -1.0, 0.0, 1.0, 2.0, 2.7, 3.0, 6.0, 7.0, 9.0, 12.0, nan, inf, -1.0, 0.0, 1.0, 2.0, 2.7, 3.0, 6.0, 7.0, 9.0, 12.0, nan, inf, -1.0, 0.0, 1.0, 2.0, 2.7, 3.0, 6.0, 7.0, 9.0, 12.0, nan, inf, -1.0, 0.0, 1.0, 2.0, 2.7, 3.0, 6.0, 7.0, 9.0, 12.0, nan, inf, -1.0, 0.0, 1.0, 2.0, 2.7, 3.0, 6.0, 7.0, 9.0, 12.0, nan, inf, -1.0, 0.0, 1.0, 2.0, 2.7, 3.0, 6.0, 7.0, 9.0, 12.0, nan, inf],
        "torch": [0.0, 1.0, -4.0, 15.0, 15.0, -56.0, 2911.0, -10864.0, -151316.0, 7865521.0, 0.0, 0.0, 0.0, 1.0, -2.0, 3.0, 3.0, -4.0, 7.0, -8.0, -10.0, 13.0, 0.0, 0.0, 0.0, 1.0, -1.998, 2.992004, 2.992004, -3.980023992, 6.888503040879614, -7.833005363517502, -9.673154303988321, 12.28392086794342, 0.0, 0.0, 0.0, 1.0, -1.0, 0.0, 0.0, 1.0, 1.0, -1.0, 0.999999999999998, 0.9999999999999981, 0.0, 0.0, 0.0, 1.0, -0.002, -0.999996, -0.999996, 0.003999992, -0.9999760000799999, 0.007999920000192, -0.009999840000672337, 0.9999160011199947, 0.0, 0.0, 0.0, 1.0, 0.0, -1.0, -1.0, -0.0, -1.0, -0.0, 6.123233995736766e-16, 1.0, 0.0, 0.0, 0.0, 1.0, 0.6, -0.64, -0.64, -0.984, 0.5586559999999999, -0.6785664, 0.09908889600000047, -0.7156128112640001, 0.0, 0.0, 0.0, 1.0, 1.0, 0.0, 0.0, -1.0, 1.0, 1.0, -1.000000000000001, 1.000000000000001, 0.0, 0.0, 0.0, 1.0, 1.998, 2.992004, 2.992004, 3.980023992, 6.888503040879614, 7.833005363517502, 9.673154303988355, 12.283920867943365, 0.0, 0.0, 0.0, 1.0, 2.0, 3.0, 3.0, 4.0, 7.0, 8.0, 10.0, 13.0, 0.0, 0.0, 0.0, 1.0, 3.0, 8.0, 8.0, 21.0, 377.0, 987.0, 6765.0, 121393.0, 0.0, 0.0, 0.0, 1.0, inf, inf, inf, nan, nan, nan, nan, nan, 0.0, 0.0, 0.0, 1.0, nan, nan, nan, nan, nan, nan, nan, nan, 0.0, 0.0],
        "exact": [0.0, 1.0, -4.0, 15.0, 15.0, -56.0, 2911.0, -10864.0, -151316.0, 7865521.0, nan, nan, 0.0, 1.0, -2.0, 3.0, 3.0, -4.0, 7.0, -8.0, -10.0, 13.0, nan, nan, 0.0, 1.0, -1.998, 2.992004, 2.992004, -3.980023992, 6.888503040879616, -7.833005363517505, -9.673154303988355, 12.283920867943365, nan, nan, 0.0, 1.0, -1.0, nan, nan, 1.0, 1.0, -1.0, 1.0, 1.0, nan, nan, 0.0, 1.0, -0.002, -0.999996, -0.999996, 0.003999992, -0.99997600008, 0.007999920000192, -0.009999840000671998, 0.9999160011199946, nan, nan, 0.0, 1.0, 0.0, -1.0, -1.0, 0.0, -1.0, 0.0, 0.0, 1.0, nan, nan, 0.0, 1.0, 0.6, -0.64, -0.64, -0.984, 0.5586559999999999, -0.6785664000000001, 0.09908889600000012, -0.7156128112640001, nan, nan, 0.0, 1.0, 1.0, nan, nan, -1.0, 1.0, 1.0, -1.0, 1.0, nan, nan, 0.0, 1.0, 1.998, 2.992004, 2.992004, 3.980023992, 6.888503040879616, 7.833005363517505, 9.673154303988355, 12.283920867943365, nan, nan, 0.0, 1.0, 2.0, 3.0, 3.0, 4.0, 7.0, 8.0, 10.0, 13.0, nan, nan, 0.0, 1.0, 3.0, 8.0, 8.0, 21.0, 377.0, 987.0, 6765.0, 121393.0, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan],
    },
    'chebyshev_polynomial_v': {
        "a": [-2.0, -2.0, -2.0, -2.0, -2.0, -2.0, -2.0, -2.0, -2.0, -2.0, -2.0, -2.0, -1.0, -1.0, -1.0, -1.0, -1.0, -1.0, -1.0, -1.0, -1.0, -1.0, -1.0, -1.0, -0.999, -0.999, -0.999, -0.999, -0.999, -0.999, -0.999, -0.999, -0.999, -0.999, -0.999, -0.999, -0.5, -0.5, -0.5, -0.5, -0.5, -0.5, -0.5, -0.5, -0.5, -0.5, -0.5, -0.5, -0.001, -0.001, -0.001, -0.001, -0.001, -0.001, -0.001, -0.001, -0.001, -0.001, -0.001, -0.001, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.3, 0.3, 0.3, 0.3, 0.3, 0.3, 0.3, 0.3, 0.3, 0.3, 0.3, 0.3, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.999, 0.999, 0.999, 0.999, 0.999, 0.999, 0.999, 0.999, 0.999, 0.999, 0.999, 0.999, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5, inf, inf, inf, inf, inf, inf, inf, inf, inf, inf, inf, inf, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan],
        "b": [-1.0, 0.0, 1.0, 2.0, 2.7, 3.0, 6.0, 7.0, 9.0, 12.0, nan, inf, -1.0, 0.0, 1.0, 2.0, 2.7, 3.0, 6.0, 7.0, 9.0, 12.0, nan, inf, -1.0, 0.0, 1.0, 2.0, 2.7, 3.0, 6.0, 7.0, 9.0, 12.0, nan, inf, -1.0, 0.0, 1.0, 2.0, 2.7, 3.0, 6.0, 7.0, 9.0, 12.0, nan, inf, -1.0, 0.0, 1.0, 2.0, 2.7, 3.0, 6.0, 7.0, 9.0, 12.0, nan, inf, -1.0, 0.0, 1.0, 2.0, 2.7, 3.0, 6.0, 7.0, 9.0, 12.0, nan, inf, -1.0, 0.0, 1.0, 2.0, 2.7, 3.0, 6.0, 7.0, 9.0, 12.0, nan, inf, -1.0, 0.0, 1.0, 2.0, 2.7, 3.0, 6.0, 7.0, 9.0, 12.0, nan, inf, -1.0, 0.0, 1.0, 2.0, 2.7, 3.0, 6.0, 7.0, 9.0, 12.0, nan, inf, -1.0, 0.0, 1.0, 2.0, 2.7, 3.0, 6.0, 7.0, 9.0, 12.0, nan, inf, -1.0, 0.0, 1.0, 2.0, 2.7, 3.0, 6.0, 7.0, 9.0, 12.0, nan, inf, -1.0, 0.0, 1.0, 2.0, 2.7, 3.0, 6.0, 7.0, 9.0, 12.0, nan, inf, -1.0, 0.0, 1.0, 2.0, 2.7, 3.0, 6.0, 7.0, 9.0, 12.0, nan, inf],
        "torch": [0.0, 1.0, -5.0, 19.0, 19.0, -71.0, 3691.0, -13775.0, -191861.0, 9973081.0, 0.0, 0.0, 0.0, 1.0, -3.0, 5.0, 5.0, -7.0, 13.0, -15.0, -19.0, 25.0, 0.0, 0.0, 0.0, 1.0, -2.998, 4.990004000000001, 4.990004000000001, -6.972027992000001, 12.818726753039586, -14.721508404397124, -18.434995979416662, 23.71987757058787, 0.0, 0.0, 0.0, 1.0, -2.0, 1.0, 1.0, 1.0, 1.0, -2.0, 0.9999999999999974, 0.9999999999999979, 0.0, 0.0, 0.0, 1.0, -1.002, -0.997996, -0.997996, 1.003995992, -0.9939760320799679, 1.0079759200801919, -1.0099598402406713, 0.9879162811182013, 0.0, 0.0, 0.0, 1.0, -1.0, -1.0, -1.0, 1.0, -1.0, 1.0, -0.9999999999999984, 0.9999999999999999, 0.0, 0.0, 0.0, 1.0, -0.4, -1.24, -1.24, -0.344, -0.45510400000000006, -1.2372224, 1.064884736000001, -1.231673421824, 0.0, 0.0, 0.0, 1.0, 0.0, -1.0, -1.0, -1.0, 1.0, 0.0, -0.9999999999999997, 0.9999999999999997, 0.0, 0.0, 0.0, 1.0, 0.998, 0.994004, 0.994004, 0.988019992, 0.9582793287196482, 0.9445023226378889, 0.9113126285599971, 0.8479641652988504, 0.0, 0.0, 0.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 0.0, 0.0, 0.0, 1.0, 2.0, 5.0, 5.0, 13.0, 233.0, 610.0, 4181.0, 75025.0, 0.0, 0.0, 0.0, 1.0, inf, inf, inf, nan, nan, nan, nan, nan, 0.0, 0.0, 0.0, 1.0, nan, nan, nan, nan, nan, nan, nan, nan, 0.0, 0.0],
        "exact": [nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan],
    },
    'chebyshev_polynomial_w': {
        "a": [-2.0, -2.0, -2.0, -2.0, -2.0, -2.0, -2.0, -2.0, -2.0, -2.0, -2.0, -2.0, -1.0, -1.0, -1.0, -1.0, -1.0, -1.0, -1.0, -1.0, -1.0, -1.0, -1.0, -1.0, -0.999, -0.999, -0.999, -0.999, -0.999, -0.999, -0.999, -0.999, -0.999, -0.999, -0.999, -0.999, -0.5, -0.5, -0.5, -0.5, -0.5, -0.5, -0.5, -0.5, -0.5, -0.5, -0.5, -0.5, -0.001, -0.001, -0.001, -0.001, -0.001, -0.001, -0.001, -0.001, -0.001, -0.001, -0.001, -0.001, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.3, 0.3, 0.3, 0.3, 0.3, 0.3, 0.3, 0.3, 0.3, 0.3, 0.3, 0.3, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.999, 0.999, 0.999, 0.999, 0.999, 0.999, 0.999, 0.999, 0.999, 0.999, 0.999, 0.999, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5, inf, inf, inf, inf, inf, inf, inf, inf, inf, inf, inf, inf, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan],
        "b": [-1.0, 0.0, 1.0, 2.0, 2.7, 3.0, 6.0, 7.0, 9.0, 12.0, nan, inf, -1.0, 0.0, 1.0, 2.0, 2.7, 3.0, 6.0, 7.0, 9.0, 12.0, nan, inf, -1.0, 0.0, 1.0, 2.0, 2.7, 3.0, 6.0, 7.0, 9.0, 12.0, nan, inf, -1.0, 0.0, 1.0, 2.0, 2.7, 3.0, 6.0, 7.0, 9.0, 12.0, nan, inf, -1.0, 0.0, 1.0, 2.0, 2.7, 3.0, 6.0, 7.0, 9.0, 12.0, nan, inf, -1.0, 0.0, 1.0, 2.0, 2.7, 3.0, 6.0, 7.0, 9.0, 12.0, nan, inf, -1.0, 0.0, 1.0, 2.0, 2.7, 3.0, 6.0, 7.0, 9.0, 12.0, nan, inf, -1.0, 0.0, 1.0, 2.0, 2.7, 3.0, 6.0, 7.0, 9.0, 12.0, nan, inf, -1.0, 0.0, 1.0, 2.0, 2.7, 3.0, 6.0, 7.0, 9.0, 12.0, nan, inf, -1.0, 0.0, 1.0, 2.0, 2.7, 3.0, 6.0, 7.0, 9.0, 12.0, nan, inf, -1.0, 0.0, 1.0, 2.0, 2.7, 3.0, 6.0, 7.0, 9.0, 12.0, nan, inf, -1.0, 0.0, 1.0, 2.0, 2.7, 3.0, 6.0, 7.0, 9.0, 12.0, nan, inf, -1.0, 0.0, 1.0, 2.0, 2.7, 3.0, 6.0, 7.0, 9.0, 12.0, nan, inf],
        "torch": [0.0, 1.0, -3.0, 11.0, 11.0, -41.0, 2131.0, -7953.0, -110771.0, 5757961.0, 0.0, 0.0, 0.0, 1.0, -1.0, 1.0, 1.0, -1.0, 1.0, -1.0, -1.0, 1.0, 0.0, 0.0, 0.0, 1.0, -0.998, 0.994004, 0.994004, -0.988019992, 0.9582793287196482, -0.9445023226378889, -0.911312628559998, 0.8479641652988512, 0.0, 0.0, 0.0, 1.0, 0.0, -1.0, -1.0, 1.0, 1.0, 0.0, 1.0000000000000009, 1.0000000000000007, 0.0, 0.0, 0.0, 1.0, 0.998, -1.001996, -1.001996, -0.995996008, -1.0059759680800322, -0.9919760800798079, 0.9899601602393279, 1.011915721121788, 0.0, 0.0, 0.0, 1.0, 1.0, -1.0, -1.0, -1.0, -1.0, -1.0, 1.0000000000000016, 1.0000000000000002, 0.0, 0.0, 0.0, 1.0, 1.6, -0.03999999999999998, -0.03999999999999998, -1.624, 1.572416, -0.1199104000000001, -0.866706943999998, -0.1995522007040017, 0.0, 0.0, 0.0, 1.0, 2.0, 1.0, 1.0, -1.0, 1.0, 2.0, -1.0000000000000013, 1.000000000000001, 0.0, 0.0, 0.0, 1.0, 2.998, 4.990004000000001, 4.990004000000001, 6.972027992000001, 12.818726753039586, 14.721508404397124, 18.434995979416716, 23.71987757058788, 0.0, 0.0, 0.0, 1.0, 3.0, 5.0, 5.0, 7.0, 13.0, 15.0, 19.0, 25.0, 0.0, 0.0, 0.0, 1.0, 4.0, 11.0, 11.0, 29.0, 521.0, 1364.0, 9349.0, 167761.0, 0.0, 0.0, 0.0, 1.0, inf, inf, inf, nan, nan, nan, nan, nan, 0.0, 0.0, 0.0, 1.0, nan, nan, nan, nan, nan, nan, nan, nan, 0.0, 0.0],
        "exact": [nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan],
    },
    'shifted_chebyshev_polynomial_t': {
        "a": [-2.0, -2.0, -2.0, -2.0, -2.0, -2.0, -2.0, -2.0, -2.0, -2.0, -2.0, -2.0, -1.0, -1.0, -1.0, -1.0, -1.0, -1.0, -1.0, -1.0, -1.0, -1.0, -1.0, -1.0, -0.999, -0.999, -0.999, -0.999, -0.999, -0.999, -0.999, -0.999, -0.999, -0.999, -0.999, -0.999, -0.5, -0.5, -0.5, -0.5, -0.5, -0.5, -0.5, -0.5, -0.5, -0.5, -0.5, -0.5, -0.001, -0.001, -0.001, -0.001, -0.001, -0.001, -0.001, -0.001, -0.001, -0.001, -0.001, -0.001, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.3, 0.3, 0.3, 0.3, 0.3, 0.3, 0.3, 0.3, 0.3, 0.3, 0.3, 0.3, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.999, 0.999, 0.999, 0.999, 0.999, 0.999, 0.999, 0.999, 0.999, 0.999, 0.999, 0.999, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5, inf, inf, inf, inf, inf, inf, inf, inf, inf, inf, inf, inf, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan],
        "b": [-1.0, 0.0, 1.0, 2.0, 2.7, 3.0, 6.0, 7.0, 9.0, 12.0, nan, inf, -1.0, 0.0, 1.0, 2.0, 2.7, 3.0, 6.0, 7.0, 9.0, 12.0, nan, inf, -1.0, 0.0, 1.0, 2.0, 2.7, 3.0, 6.0, 7.0, 9.0, 12.0, nan, inf, -1.0, 0.0, 1.0, 2.0, 2.7, 3.0, 6.0, 7.0, 9.0, 12.0, nan, inf, -1.0, 0.0, 1.0, 2.0, 2.7, 3.0, 6.0, 7.0, 9.0, 12.0, nan, inf, -1.0, 0.0, 1.0, 2.0, 2.7, 3.0, 6.0, 7.0, 9.0, 12.0, nan, inf, -1.0, 0.0, 1.0, 2.0, 2.7, 3.0, 6.0, 7.0, 9.0, 12.0, nan, inf, -1.0, 0.0, 1.0, 2.0, 2.7, 3.0, 6.0, 7.0, 9.0, 12.0, nan, inf, -1.0, 0.0, 1.0, 2.0, 2.7, 3.0, 6.0, 7.0, 9.0, 12.0, nan, inf, -1.0, 0.0, 1.0, 2.0, 2.7, 3.0, 6.0, 7.0, 9.0, 12.0, nan, inf, -1.0, 0.0, 1.0, 2.0, 2.7, 3.0, 6.0, 7.0, 9.0, 12.0, nan, inf, -1.0, 0.0, 1.0, 2.0, 2.7, 3.0, 6.0, 7.0, 9.0, 12.0, nan, inf, -1.0, 0.0, 1.0, 2.0, 2.7, 3.0, 6.0, 7.0, 9.0, 12.0, nan, inf],
        "torch": [0.0, 1.0, -5.0, 49.0, 49.0, -485.0, 470449.0, -4656965.0, -456335045.0, 442644523201.0, 0.0, 0.0, 0.0, 1.0, -3.0, 17.0, 17.0, -99.0, 19601.0, -114243.0, -3880899.0, 768398401.0, 0.0, 0.0, 0.0, 1.0, -2.998, 16.976008000000004, 16.976008000000004, -98.79014396800002, 19517.98509043634, -113678.71205361247, -3856270.323955, 761903482.9809906, 0.0, 0.0, 0.0, 1.0, -2.0, 7.0, 7.0, -26.0, 1351.0, -5042.0, -70226.0, 3650401.0, 0.0, 0.0, 0.0, 1.0, -1.002, 1.008008, 1.008008, -1.018048032, 1.0728435909181464, -1.0995774349194531, -1.166364580756064, 1.3019867411482862, 0.0, 0.0, 0.0, 1.0, -1.0, 1.0, 1.0, -1.0, 1.0, -1.0, -1.0, 1.0, 0.0, 0.0, 0.0, 1.0, -0.4, -0.6799999999999999, -0.6799999999999999, 0.944, 0.782272, 0.25802240000000076, 0.5329295360000004, 0.22389896396800066, 0.0, 0.0, 0.0, 1.0, 0.0, -1.0, -1.0, -0.0, -1.0, -4.286263797015736e-16, 5.51091059616309e-16, 1.0, 0.0, 0.0, 0.0, 1.0, 0.998, 0.992008, 0.992008, 0.982047968, 0.9288364229058582, 0.9035586188406046, 0.842275875438173, 0.7254742010330997, 0.0, 0.0, 0.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 0.0, 0.0, 0.0, 1.0, 2.0, 7.0, 7.0, 26.0, 1351.0, 5042.0, 70226.0, 3650401.0, 0.0, 0.0, 0.0, 1.0, inf, inf, inf, nan, nan, nan, nan, nan, 0.0, 0.0, 0.0, 1.0, nan, nan, nan, nan, nan, nan, nan, nan, 0.0, 0.0],
        "exact": [0.0, 1.0, -5.0, 49.0, 49.0, -485.0, 470449.0, -4656965.0, -456335045.0, 442644523201.0, nan, nan, 0.0, 1.0, -3.0, 17.0, 17.0, -99.0, 19601.0, -114243.0, -3880899.0, 768398401.0, nan, nan, 0.0, 1.0, -2.998, 16.976008, 16.976008, -98.790143968, 19517.985090436334, -113678.71205361241, -3856270.3239549976, 761903482.98099, nan, nan, 0.0, 1.0, -2.0, 7.0, 7.0, -26.0, 1351.0, -5042.0, -70226.0, 3650401.0, nan, nan, 0.0, 1.0, -1.002, 1.008008, 1.008008, -1.018048032, 1.072843590918146, -1.0995774349194527, -1.1663645807560634, 1.3019867411482846, nan, nan, 0.0, 1.0, -1.0, 1.0, 1.0, -1.0, 1.0, -1.0, -1.0, 1.0, nan, nan, 0.0, 1.0, -0.4, -0.6799999999999999, -0.6799999999999999, 0.9440000000000001, 0.7822720000000001, 0.2580223999999998, 0.5329295360000001, 0.22389896396800027, nan, nan, 0.0, 1.0, 0.0, -1.0, -1.0, 0.0, -1.0, 0.0, 0.0, 1.0, nan, nan, 0.0, 1.0, 0.998, 0.992008, 0.992008, 0.9820479679999999, 0.928836422905858, 0.9035586188406046, 0.842275875438173, 0.7254742010330997, nan, nan, 0.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, nan, nan, 0.0, 1.0, 2.0, 7.0, 7.0, 26.0, 1351.0, 5042.0, 70226.0, 3650401.0, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan],
    },
    'shifted_chebyshev_polynomial_u': {
        "a": [-2.0, -2.0, -2.0, -2.0, -2.0, -2.0, -2.0, -2.0, -2.0, -2.0, -2.0, -2.0, -1.0, -1.0, -1.0, -1.0, -1.0, -1.0, -1.0, -1.0, -1.0, -1.0, -1.0, -1.0, -0.999, -0.999, -0.999, -0.999, -0.999, -0.999, -0.999, -0.999, -0.999, -0.999, -0.999, -0.999, -0.5, -0.5, -0.5, -0.5, -0.5, -0.5, -0.5, -0.5, -0.5, -0.5, -0.5, -0.5, -0.001, -0.001, -0.001, -0.001, -0.001, -0.001, -0.001, -0.001, -0.001, -0.001, -0.001, -0.001, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.3, 0.3, 0.3, 0.3, 0.3, 0.3, 0.3, 0.3, 0.3, 0.3, 0.3, 0.3, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.999, 0.999, 0.999, 0.999, 0.999, 0.999, 0.999, 0.999, 0.999, 0.999, 0.999, 0.999, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5, inf, inf, inf, inf, inf, inf, inf, inf, inf, inf, inf, inf, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan],
        "b": [-1.0, 0.0, 1.0, 2.0, 2.7, 3.0, 6.0, 7.0, 9.0, 12.0, nan, inf, -1.0, 0.0, 1.0, 2.0, 2.7, 3.0, 6.0, 7.0, 9.0, 12.0, nan, inf, -1.0, 0.0, 1.0, 2.0, 2.7, 3.0, 6.0, 7.0, 9.0, 12.0, nan, inf, -1.0, 0.0, 1.0, 2.0, 2.7, 3.0, 6.0, 7.0, 9.0, 12.0, nan, inf, -1.0, 0.0, 1.0, 2.0, 2.7, 3.0, 6.0, 7.0, 9.0, 12.0, nan, inf, -1.0, 0.0, 1.0, 2.0, 2.7, 3.0, 6.0, 7.0, 9.0, 12.0, nan, inf, -1.0, 0.0, 1.0, 2.0, 2.7, 3.0, 6.0, 7.0, 9.0, 12.0, nan, inf, -1.0, 0.0, 1.0, 2.0, 2.7, 3.0, 6.0, 7.0, 9.0, 12.0, nan, inf, -1.0, 0.0, 1.0, 2.0, 2.7, 3.0, 6.0, 7.0, 9.0, 12.0, nan, inf, -1.0, 0.0, 1.0, 2.0, 2.7, 3.0, 6.0, 7.0, 9.0, 12.0, nan, inf, -1.0, 0.0, 1.0, 2.0, 2.7, 3.0, 6.0, 7.0, 9.0, 12.0, nan, inf, -1.0, 0.0, 1.0, 2.0, 2.7, 3.0, 6.0, 7.0, 9.0, 12.0, nan, inf, -1.0, 0.0, 1.0, 2.0, 2.7, 3.0, 6.0, 7.0, 9.0, 12.0, nan, inf],
        "torch": [0.0, 1.0, -10.0, 99.0, 99.0, -980.0, 950599.0, -9409960.0, -922080050.0, 894416697901.0, 0.0, 0.0, 0.0, 1.0, -6.0, 35.0, 35.0, -204.0, 40391.0, -235416.0, -7997214.0, 1583407981.0, 0.0, 0.0, 0.0, 1.0, -5.996, 34.95201600000001, 34.95201600000001, -203.57628793600006, 40221.661587336945, -234263.25349244865, -7946803.90140245, 1570091581.3484373, 0.0, 0.0, 0.0, 1.0, -4.0, 15.0, 15.0, -56.0, 2911.0, -10864.0, -151316.0, 7865521.0, 0.0, 0.0, 0.0, 1.0, -2.004, 3.016016, 3.016016, -4.040096064, 7.226023694092293, -8.34005317639993, -10.672782337912057, 14.504786416059169, 0.0, 0.0, 0.0, 1.0, -2.0, 3.0, 3.0, -4.0, 7.0, -8.0, -10.0, 13.0, 0.0, 0.0, 0.0, 1.0, -0.8, -0.35999999999999993, -0.35999999999999993, 1.088, 1.0541440000000002, -0.16363519999999984, 0.9022238719999996, 0.6492546703359996, 0.0, 0.0, 0.0, 1.0, 0.0, -1.0, -1.0, -0.0, -1.0, -4.898587196589413e-16, 6.123233995736766e-16, 1.0, 0.0, 0.0, 0.0, 1.0, 1.996, 2.984016, 2.984016, 3.960095936, 6.778008334067715, 7.668010936240184, 9.352562687116531, 11.5913220308831, 0.0, 0.0, 0.0, 1.0, 2.0, 3.0, 3.0, 4.0, 7.0, 8.0, 10.0, 13.0, 0.0, 0.0, 0.0, 1.0, 4.0, 15.0, 15.0, 56.0, 2911.0, 10864.0, 151316.0, 7865521.0, 0.0, 0.0, 0.0, 1.0, inf, inf, inf, nan, nan, nan, nan, nan, 0.0, 0.0, 0.0, 1.0, nan, nan, nan, nan, nan, nan, nan, nan, 0.0, 0.0],
        "exact": [0.0, 1.0, -10.0, 99.0, 99.0, -980.0, 950599.0, -9409960.0, -922080050.0, 894416697901.0, nan, nan, 0.0, 1.0, -6.0, 35.0, 35.0, -204.0, 40391.0, -235416.0, -7997214.0, 1583407981.0, nan, nan, 0.0, 1.0, -5.996, 34.952016, 34.952016, -203.576287936, 40221.66158733692, -234263.2534924485, -7946803.901402444, 1570091581.3484356, nan, nan, 0.0, 1.0, -4.0, 15.0, 15.0, -56.0, 2911.0, -10864.0, -151316.0, 7865521.0, nan, nan, 0.0, 1.0, -2.004, 3.016016, 3.016016, -4.040096064, 7.226023694092292, -8.340053176399929, -10.672782337912055, 14.504786416059163, nan, nan, 0.0, 1.0, -2.0, 3.0, 3.0, -4.0, 7.0, -8.0, -10.0, 13.0, nan, nan, 0.0, 1.0, -0.8, -0.35999999999999993, -0.35999999999999993, 1.088, 1.054144, -0.1636352000000002, 0.9022238720000002, 0.6492546703360003, nan, nan, 0.0, 1.0, 0.0, -1.0, -1.0, 0.0, -1.0, 0.0, 0.0, 1.0, nan, nan, 0.0, 1.0, 1.996, 2.984016, 2.984016, 3.960095936, 6.7780083340677155, 7.668010936240185, 9.352562687116531, 11.591322030883102, nan, nan, 0.0, 1.0, 2.0, 3.0, 3.0, 4.0, 7.0, 8.0, 10.0, 13.0, nan, nan, 0.0, 1.0, 4.0, 15.0, 15.0, 56.0, 2911.0, 10864.0, 151316.0, 7865521.0, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan],
    },
    'shifted_chebyshev_polynomial_v': {
        "a": [-2.0, -2.0, -2.0, -2.0, -2.0, -2.0, -2.0, -2.0, -2.0, -2.0, -2.0, -2.0, -1.0, -1.0, -1.0, -1.0, -1.0, -1.0, -1.0, -1.0, -1.0, -1.0, -1.0, -1.0, -0.999, -0.999, -0.999, -0.999, -0.999, -0.999, -0.999, -0.999, -0.999, -0.999, -0.999, -0.999, -0.5, -0.5, -0.5, -0.5, -0.5, -0.5, -0.5, -0.5, -0.5, -0.5, -0.5, -0.5, -0.001, -0.001, -0.001, -0.001, -0.001, -0.001, -0.001, -0.001, -0.001, -0.001, -0.001, -0.001, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.3, 0.3, 0.3, 0.3, 0.3, 0.3, 0.3, 0.3, 0.3, 0.3, 0.3, 0.3, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.999, 0.999, 0.999, 0.999, 0.999, 0.999, 0.999, 0.999, 0.999, 0.999, 0.999, 0.999, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5, inf, inf, inf, inf, inf, inf, inf, inf, inf, inf, inf, inf, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan],
        "b": [-1.0, 0.0, 1.0, 2.0, 2.7, 3.0, 6.0, 7.0, 9.0, 12.0, nan, inf, -1.0, 0.0, 1.0, 2.0, 2.7, 3.0, 6.0, 7.0, 9.0, 12.0, nan, inf, -1.0, 0.0, 1.0, 2.0, 2.7, 3.0, 6.0, 7.0, 9.0, 12.0, nan, inf, -1.0, 0.0, 1.0, 2.0, 2.7, 3.0, 6.0, 7.0, 9.0, 12.0, nan, inf, -1.0, 0.0, 1.0, 2.0, 2.7, 3.0, 6.0, 7.0, 9.0, 12.0, nan, inf, -1.0, 0.0, 1.0, 2.0, 2.7, 3.0, 6.0, 7.0, 9.0, 12.0, nan, inf, -1.0, 0.0, 1.0, 2.0, 2.7, 3.0, 6.0, 7.0, 9.0, 12.0, nan, inf, -1.0, 0.0, 1.0, 2.0, 2.7, 3.0, 6.0, 7.0, 9.0, 12.0, nan, inf, -1.0, 0.0, 1.0, 2.0, 2.7, 3.0, 6.0, 7.0, 9.0, 12.0, nan, inf, -1.0, 0.0, 1.0, 2.0, 2.7, 3.0, 6.0, 7.0, 9.0, 12.0, nan, inf, -1.0, 0.0, 1.0, 2.0, 2.7, 3.0, 6.0, 7.0, 9.0, 12.0, nan, inf, -1.0, 0.0, 1.0, 2.0, 2.7, 3.0, 6.0, 7.0, 9.0, 12.0, nan, inf, -1.0, 0.0, 1.0, 2.0, 2.7, 3.0, 6.0, 7.0, 9.0, 12.0, nan, inf],
        "torch": [0.0, 1.0, -11.0, 109.0, 109.0, -1079.0, 1046629.0, -10360559.0, -1015229051.0, 984771132841.0, 0.0, 0.0, 0.0, 1.0, -7.0, 41.0, 41.0, -239.0, 47321.0, -275807.0, -9369319.0, 1855077841.0, 0.0, 0.0, 0.0, 1.0, -6.996, 40.948016, 40.948016, -238.52830393600004, 47127.49097256063, -274484.9150797856, -9311224.707755836, 1839667331.3042233, 0.0, 0.0, 0.0, 1.0, -5.0, 19.0, 19.0, -71.0, 3691.0, -13775.0, -191861.0, 9973081.0, 0.0, 0.0, 0.0, 1.0, -3.004, 5.020016, 5.020016, -7.056112064, 13.366922000653314, -15.56607687049222, -20.16022520932522, 27.68123319740735, 0.0, 0.0, 0.0, 1.0, -3.0, 5.0, 5.0, -7.0, 13.0, -15.0, -19.0, 25.0, 0.0, 0.0, 0.0, 1.0, -1.8, 0.4400000000000001, 0.4400000000000001, 1.448, 1.733824, -1.2177792000000005, 1.825459712, 1.7126439362560002, 0.0, 0.0, 0.0, 1.0, -1.0, -1.0, -1.0, 1.0, -1.0, 0.9999999999999986, -0.9999999999999984, 0.9999999999999999, 0.0, 0.0, 0.0, 1.0, 0.996, 0.988016, 0.988016, 0.976079936, 0.9171146355087402, 0.8900026021724692, 0.8252211924488375, 0.7036989548810957, 0.0, 0.0, 0.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 0.0, 0.0, 0.0, 1.0, 3.0, 11.0, 11.0, 41.0, 2131.0, 7953.0, 110771.0, 5757961.0, 0.0, 0.0, 0.0, 1.0, inf, inf, inf, nan, nan, nan, nan, nan, 0.0, 0.0, 0.0, 1.0, nan, nan, nan, nan, nan, nan, nan, nan, 0.0, 0.0],
        "exact": [nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan],
    },
    'shifted_chebyshev_polynomial_w': {
        "a": [-2.0, -2.0, -2.0, -2.0, -2.0, -2.0, -2.0, -2.0, -2.0, -2.0, -2.0, -2.0, -1.0, -1.0, -1.0, -1.0, -1.0, -1.0, -1.0, -1.0, -1.0, -1.0, -1.0, -1.0, -0.999, -0.999, -0.999, -0.999, -0.999, -0.999, -0.999, -0.999, -0.999, -0.999, -0.999, -0.999, -0.5, -0.5, -0.5, -0.5, -0.5, -0.5, -0.5, -0.5, -0.5, -0.5, -0.5, -0.5, -0.001, -0.001, -0.001, -0.001, -0.001, -0.001, -0.001, -0.001, -0.001, -0.001, -0.001, -0.001, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.3, 0.3, 0.3, 0.3, 0.3, 0.3, 0.3, 0.3, 0.3, 0.3, 0.3, 0.3, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.999, 0.999, 0.999, 0.999, 0.999, 0.999, 0.999, 0.999, 0.999, 0.999, 0.999, 0.999, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5, inf, inf, inf, inf, inf, inf, inf, inf, inf, inf, inf, inf, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan],
        "b": [-1.0, 0.0, 1.0, 2.0, 2.7, 3.0, 6.0, 7.0, 9.0, 12.0, nan, inf, -1.0, 0.0, 1.0, 2.0, 2.7, 3.0, 6.0, 7.0, 9.0, 12.0, nan, inf, -1.0, 0.0, 1.0, 2.0, 2.7, 3.0, 6.0, 7.0, 9.0, 12.0, nan, inf, -1.0, 0.0, 1.0, 2.0, 2.7, 3.0, 6.0, 7.0, 9.0, 12.0, nan, inf, -1.0, 0.0, 1.0, 2.0, 2.7, 3.0, 6.0, 7.0, 9.0, 12.0, nan, inf, -1.0, 0.0, 1.0, 2.0, 2.7, 3.0, 6.0, 7.0, 9.0, 12.0, nan, inf, -1.0, 0.0, 1.0, 2.0, 2.7, 3.0, 6.0, 7.0, 9.0, 12.0, nan, inf, -1.0, 0.0, 1.0, 2.0, 2.7, 3.0, 6.0, 7.0, 9.0, 12.0, nan, inf, -1.0, 0.0, 1.0, 2.0, 2.7, 3.0, 6.0, 7.0, 9.0, 12.0, nan, inf, -1.0, 0.0, 1.0, 2.0, 2.7, 3.0, 6.0, 7.0, 9.0, 12.0, nan, inf, -1.0, 0.0, 1.0, 2.0, 2.7, 3.0, 6.0, 7.0, 9.0, 12.0, nan, inf, -1.0, 0.0, 1.0, 2.0, 2.7, 3.0, 6.0, 7.0, 9.0, 12.0, nan, inf, -1.0, 0.0, 1.0, 2.0, 2.7, 3.0, 6.0, 7.0, 9.0, 12.0, nan, inf],
        "torch": [0.0, 1.0, -9.0, 89.0, 89.0, -881.0, 854569.0, -8459361.0, -828931049.0, 804062262961.0, 0.0, 0.0, 0.0, 1.0, -5.0, 29.0, 29.0, -169.0, 33461.0, -195025.0, -6625109.0, 1311738121.0, 0.0, 0.0, 0.0, 1.0, -4.996, 28.956016000000005, 28.956016000000005, -168.62427193600004, 33315.83220211326, -194041.5919051117, -6582383.095049065, 1300515831.392651, 0.0, 0.0, 0.0, 1.0, -3.0, 11.0, 11.0, -41.0, 2131.0, -7953.0, -110771.0, 5757961.0, 0.0, 0.0, 0.0, 1.0, -1.004, 1.012016, 1.012016, -1.024080064, 1.0851253875312685, -1.1140294823076378, -1.1853394664988903, 1.328339634710982, 0.0, 0.0, 0.0, 1.0, -1.0, 1.0, 1.0, -1.0, 1.0, -1.0, -1.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.19999999999999996, -1.16, -1.16, 0.728, 0.37446399999999974, 0.8905087999999997, -0.021011968000000072, -0.41413459558399984, 0.0, 0.0, 0.0, 1.0, 1.0, -1.0, -1.0, -1.0, -1.0000000000000007, -1.0000000000000013, 1.0000000000000016, 1.0000000000000002, 0.0, 0.0, 0.0, 1.0, 2.996, 4.980016, 4.980016, 6.944111936, 12.638902032626692, 14.446019270307902, 17.879904181784223, 22.47894510688511, 0.0, 0.0, 0.0, 1.0, 3.0, 5.0, 5.0, 7.0, 13.0, 15.0, 19.0, 25.0, 0.0, 0.0, 0.0, 1.0, 5.0, 19.0, 19.0, 71.0, 3691.0, 13775.0, 191861.0, 9973081.0, 0.0, 0.0, 0.0, 1.0, inf, inf, inf, nan, nan, nan, nan, nan, 0.0, 0.0, 0.0, 1.0, nan, nan, nan, nan, nan, nan, nan, nan, 0.0, 0.0],
        "exact": [nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan],
    },
    'hermite_polynomial_h': {
        "a": [-2.0, -2.0, -2.0, -2.0, -2.0, -2.0, -2.0, -2.0, -2.0, -2.0, -2.0, -2.0, -1.0, -1.0, -1.0, -1.0, -1.0, -1.0, -1.0, -1.0, -1.0, -1.0, -1.0, -1.0, -0.999, -0.999, -0.999, -0.999, -0.999, -0.999, -0.999, -0.999, -0.999, -0.999, -0.999, -0.999, -0.5, -0.5, -0.5, -0.5, -0.5, -0.5, -0.5, -0.5, -0.5, -0.5, -0.5, -0.5, -0.001, -0.001, -0.001, -0.001, -0.001, -0.001, -0.001, -0.001, -0.001, -0.001, -0.001, -0.001, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.3, 0.3, 0.3, 0.3, 0.3, 0.3, 0.3, 0.3, 0.3, 0.3, 0.3, 0.3, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.999, 0.999, 0.999, 0.999, 0.999, 0.999, 0.999, 0.999, 0.999, 0.999, 0.999, 0.999, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5, inf, inf, inf, inf, inf, inf, inf, inf, inf, inf, inf, inf, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan],
        "b": [-1.0, 0.0, 1.0, 2.0, 2.7, 3.0, 6.0, 7.0, 9.0, 12.0, nan, inf, -1.0, 0.0, 1.0, 2.0, 2.7, 3.0, 6.0, 7.0, 9.0, 12.0, nan, inf, -1.0, 0.0, 1.0, 2.0, 2.7, 3.0, 6.0, 7.0, 9.0, 12.0, nan, inf, -1.0, 0.0, 1.0, 2.0, 2.7, 3.0, 6.0, 7.0, 9.0, 12.0, nan, inf, -1.0, 0.0, 1.0, 2.0, 2.7, 3.0, 6.0, 7.0, 9.0, 12.0, nan, inf, -1.0, 0.0, 1.0, 2.0, 2.7, 3.0, 6.0, 7.0, 9.0, 12.0, nan, inf, -1.0, 0.0, 1.0, 2.0, 2.7, 3.0, 6.0, 7.0, 9.0, 12.0, nan, inf, -1.0, 0.0, 1.0, 2.0, 2.7, 3.0, 6.0, 7.0, 9.0, 12.0, nan, inf, -1.0, 0.0, 1.0, 2.0, 2.7, 3.0, 6.0, 7.0, 9.0, 12.0, nan, inf, -1.0, 0.0, 1.0, 2.0, 2.7, 3.0, 6.0, 7.0, 9.0, 12.0, nan, inf, -1.0, 0.0, 1.0, 2.0, 2.7, 3.0, 6.0, 7.0, 9.0, 12.0, nan, inf, -1.0, 0.0, 1.0, 2.0, 2.7, 3.0, 6.0, 7.0, 9.0, 12.0, nan, inf, -1.0, 0.0, 1.0, 2.0, 2.7, 3.0, 6.0, 7.0, 9.0, 12.0, nan, inf],
        "torch": [0.0, 1.0, -4.0, 14.0, 14.0, -40.0, -824.0, 3104.0, -46144.0, -4894016.0, 0.0, 0.0, 0.0, 1.0, -2.0, 2.0, 2.0, 4.0, 184.0, -464.0, 10720.0, 280768.0, 0.0, 0.0, 0.0, 1.0, -1.998, 1.9920039999999999, 1.9920039999999999, 4.011976008, 184.09480064047963, -461.4233335977587, 10690.269307664048, 275229.83799013606, 0.0, 0.0, 0.0, 1.0, -1.0, -1.0, -1.0, 5.0, 31.0, 461.0, -6481.0, -604031.0, 0.0, 0.0, 0.0, 1.0, -0.002, -1.999996, -1.999996, 0.011999992000000001, -119.99928000048, 1.6799966400013442, -30.239919360048386, 665272.0166533056, 0.0, 0.0, 0.0, 1.0, 0.0, -2.0, -2.0, -0.0, -120.0, -0.0, 0.0, 665280.0, 0.0, 0.0, 0.0, 1.0, 0.6, -1.6400000000000001, -1.6400000000000001, -3.384, -59.041344, -416.5179264, 7010.287658496, 49478.71593365919, 0.0, 0.0, 0.0, 1.0, 1.0, -1.0, -1.0, -5.0, 31.0, -461.0, 6481.0, -604031.0, 0.0, 0.0, 0.0, 1.0, 1.998, 1.9920039999999999, 1.9920039999999999, -4.011976008, 184.09480064047963, 461.4233335977587, -10690.269307664048, 275229.83799013606, 0.0, 0.0, 0.0, 1.0, 2.0, 2.0, 2.0, -4.0, 184.0, 464.0, -10720.0, 280768.0, 0.0, 0.0, 0.0, 1.0, 3.0, 7.0, 7.0, 9.0, -201.0, 801.0, 2835.0, 940113.0, 0.0, 0.0, 0.0, 1.0, inf, inf, inf, nan, nan, nan, nan, nan, 0.0, 0.0, 0.0, 1.0, nan, nan, nan, nan, nan, nan, nan, nan, 0.0, 0.0],
        "exact": [0.0, 1.0, -4.0, 14.0, 14.0, -40.0, -824.0, 3104.0, -46144.0, -4894016.0, nan, nan, 0.0, 1.0, -2.0, 2.0, 2.0, 4.0, 184.0, -464.0, 10720.0, 280768.0, nan, nan, 0.0, 1.0, -1.998, 1.9920039999999999, 1.9920039999999999, 4.011976008, 184.0948006404796, -461.42333359775864, 10690.269307664048, 275229.83799013606, nan, nan, 0.0, 1.0, -1.0, -1.0, -1.0, 5.0, 31.0, 461.0, -6481.0, -604031.0, nan, nan, 0.0, 1.0, -0.002, -1.999996, -1.999996, 0.011999992000000001, -119.99928000048, 1.679996640001344, -30.239919360048386, 665272.0166533056, nan, nan, 0.0, 1.0, 0.0, -2.0, -2.0, 0.0, -120.0, 0.0, 0.0, 665280.0, nan, nan, 0.0, 1.0, 0.6, -1.6400000000000001, -1.6400000000000001, -3.384, -59.041344, -416.51792639999996, 7010.2876584959995, 49478.71593365917, nan, nan, 0.0, 1.0, 1.0, -1.0, -1.0, -5.0, 31.0, -461.0, 6481.0, -604031.0, nan, nan, 0.0, 1.0, 1.998, 1.9920039999999999, 1.9920039999999999, -4.011976008, 184.0948006404796, 461.42333359775864, -10690.269307664048, 275229.83799013606, nan, nan, 0.0, 1.0, 2.0, 2.0, 2.0, -4.0, 184.0, 464.0, -10720.0, 280768.0, nan, nan, 0.0, 1.0, 3.0, 7.0, 7.0, 9.0, -201.0, 801.0, 2835.0, 940113.0, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan],
    },
    'hermite_polynomial_he': {
        "a": [-2.0, -2.0, -2.0, -2.0, -2.0, -2.0, -2.0, -2.0, -2.0, -2.0, -2.0, -2.0, -1.0, -1.0, -1.0, -1.0, -1.0, -1.0, -1.0, -1.0, -1.0, -1.0, -1.0, -1.0, -0.999, -0.999, -0.999, -0.999, -0.999, -0.999, -0.999, -0.999, -0.999, -0.999, -0.999, -0.999, -0.5, -0.5, -0.5, -0.5, -0.5, -0.5, -0.5, -0.5, -0.5, -0.5, -0.5, -0.5, -0.001, -0.001, -0.001, -0.001, -0.001, -0.001, -0.001, -0.001, -0.001, -0.001, -0.001, -0.001, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.3, 0.3, 0.3, 0.3, 0.3, 0.3, 0.3, 0.3, 0.3, 0.3, 0.3, 0.3, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.999, 0.999, 0.999, 0.999, 0.999, 0.999, 0.999, 0.999, 0.999, 0.999, 0.999, 0.999, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5, inf, inf, inf, inf, inf, inf, inf, inf, inf, inf, inf, inf, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan],
        "b": [-1.0, 0.0, 1.0, 2.0, 2.7, 3.0, 6.0, 7.0, 9.0, 12.0, nan, inf, -1.0, 0.0, 1.0, 2.0, 2.7, 3.0, 6.0, 7.0, 9.0, 12.0, nan, inf, -1.0, 0.0, 1.0, 2.0, 2.7, 3.0, 6.0, 7.0, 9.0, 12.0, nan, inf, -1.0, 0.0, 1.0, 2.0, 2.7, 3.0, 6.0, 7.0, 9.0, 12.0, nan, inf, -1.0, 0.0, 1.0, 2.0, 2.7, 3.0, 6.0, 7.0, 9.0, 12.0, nan, inf, -1.0, 0.0, 1.0, 2.0, 2.7, 3.0, 6.0, 7.0, 9.0, 12.0, nan, inf, -1.0, 0.0, 1.0, 2.0, 2.7, 3.0, 6.0, 7.0, 9.0, 12.0, nan, inf, -1.0, 0.0, 1.0, 2.0, 2.7, 3.0, 6.0, 7.0, 9.0, 12.0, nan, inf, -1.0, 0.0, 1.0, 2.0, 2.7, 3.0, 6.0, 7.0, 9.0, 12.0, nan, inf, -1.0, 0.0, 1.0, 2.0, 2.7, 3.0, 6.0, 7.0, 9.0, 12.0, nan, inf, -1.0, 0.0, 1.0, 2.0, 2.7, 3.0, 6.0, 7.0, 9.0, 12.0, nan, inf, -1.0, 0.0, 1.0, 2.0, 2.7, 3.0, 6.0, 7.0, 9.0, 12.0, nan, inf, -1.0, 0.0, 1.0, 2.0, 2.7, 3.0, 6.0, 7.0, 9.0, 12.0, nan, inf],
        "torch": [0.0, 1.0, -2.0, 3.0, 3.0, -2.0, -11.0, -86.0, 190.0, 22147.0, 0.0, 0.0, 0.0, 1.0, -1.0, 0.0, 0.0, 2.0, 16.0, 20.0, -28.0, -12440.0, 0.0, 0.0, 0.0, 1.0, -0.999, -0.0019990000000000016, -0.0019990000000000016, 1.999997001, 15.963970039999994, 20.111873930069997, -29.187278656756227, -12451.151750225323, 0.0, 0.0, 0.0, 1.0, -0.5, -0.75, -0.75, 1.375, -4.671875, 40.0234375, -326.533203125, -2159.888427734375, 0.0, 0.0, 0.0, 1.0, -0.001, -0.999999, -0.999999, 0.002999999, -14.999955000015, 0.10499989500002099, -0.944998740000378, 10394.937630051974, 0.0, 0.0, 0.0, 1.0, 0.0, -1.0, -1.0, -0.0, -15.0, -0.0, 0.0, 10395.0, 0.0, 0.0, 0.0, 1.0, 0.3, -0.91, -0.91, -0.873, -11.070771, -28.7158113, 250.390686483, 5192.690601658041, 0.0, 0.0, 0.0, 1.0, 0.5, -0.75, -0.75, -1.375, -4.671875, -40.0234375, 326.533203125, -2159.888427734375, 0.0, 0.0, 0.0, 1.0, 0.999, -0.0019990000000000016, -0.0019990000000000016, -1.999997001, 15.963970039999994, -20.111873930069997, 29.187278656756227, -12451.151750225323, 0.0, 0.0, 0.0, 1.0, 1.0, 0.0, 0.0, -2.0, 16.0, -20.0, 28.0, -12440.0, 0.0, 0.0, 0.0, 1.0, 1.5, 1.25, 1.25, -1.125, 21.703125, 54.4921875, -541.212890625, 9694.654541015625, 0.0, 0.0, 0.0, 1.0, inf, inf, inf, nan, nan, nan, nan, nan, 0.0, 0.0, 0.0, 1.0, nan, nan, nan, nan, nan, nan, nan, nan, 0.0, 0.0],
        "exact": [0.0, 1.0, -2.0, 3.0, 3.0, -2.0, -11.0, -86.0, 190.0, 22147.0, nan, nan, 0.0, 1.0, -1.0, 1.8342580872600396e-41, 1.8342580872600396e-41, 2.0, 16.0, 20.0, -28.0, -12440.0, nan, nan, 0.0, 1.0, -0.999, -0.0019990000000000016, -0.0019990000000000016, 1.999997001, 15.963970039999994, 20.11187393007, -29.187278656756252, -12451.151750225325, nan, nan, 0.0, 1.0, -0.5, -0.75, -0.75, 1.375, -4.671875, 40.0234375, -326.533203125, -2159.888427734375, nan, nan, 0.0, 1.0, -0.001, -0.999999, -0.999999, 0.002999999, -14.999955000015, 0.104999895000021, -0.944998740000378, 10394.937630051974, nan, nan, 0.0, 1.0, 0.0, -1.0, -1.0, 0.0, -15.0, 0.0, 0.0, 10395.0, nan, nan, 0.0, 1.0, 0.3, -0.91, -0.91, -0.873, -11.070771, -28.7158113, 250.390686483, 5192.6906016580415, nan, nan, 0.0, 1.0, 0.5, -0.75, -0.75, -1.375, -4.671875, -40.0234375, 326.533203125, -2159.888427734375, nan, nan, 0.0, 1.0, 0.999, -0.0019990000000000016, -0.0019990000000000016, -1.999997001, 15.963970039999994, -20.11187393007, 29.187278656756252, -12451.151750225325, nan, nan, 0.0, 1.0, 1.0, 1.8342580872600396e-41, 1.8342580872600396e-41, -2.0, 16.0, -20.0, 28.0, -12440.0, nan, nan, 0.0, 1.0, 1.5, 1.25, 1.25, -1.125, 21.703125, 54.4921875, -541.212890625, 9694.654541015625, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan],
    },
    'laguerre_polynomial_l': {
        "a": [-2.0, -2.0, -2.0, -2.0, -2.0, -2.0, -2.0, -2.0, -2.0, -2.0, -2.0, -2.0, -1.0, -1.0, -1.0, -1.0, -1.0, -1.0, -1.0, -1.0, -1.0, -1.0, -1.0, -1.0, -0.999, -0.999, -0.999, -0.999, -0.999, -0.999, -0.999, -0.999, -0.999, -0.999, -0.999, -0.999, -0.5, -0.5, -0.5, -0.5, -0.5, -0.5, -0.5, -0.5, -0.5, -0.5, -0.5, -0.5, -0.001, -0.001, -0.001, -0.001, -0.001, -0.001, -0.001, -0.001, -0.001, -0.001, -0.001, -0.001, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.3, 0.3, 0.3, 0.3, 0.3, 0.3, 0.3, 0.3, 0.3, 0.3, 0.3, 0.3, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.999, 0.999, 0.999, 0.999, 0.999, 0.999, 0.999, 0.999, 0.999, 0.999, 0.999, 0.999, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5, inf, inf, inf, inf, inf, inf, inf, inf, inf, inf, inf, inf, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan],
        "b": [-1.0, 0.0, 1.0, 2.0, 2.7, 3.0, 6.0, 7.0, 9.0, 12.0, nan, inf, -1.0, 0.0, 1.0, 2.0, 2.7, 3.0, 6.0, 7.0, 9.0, 12.0, nan, inf, -1.0, 0.0, 1.0, 2.0, 2.7, 3.0, 6.0, 7.0, 9.0, 12.0, nan, inf, -1.0, 0.0, 1.0, 2.0, 2.7, 3.0, 6.0, 7.0, 9.0, 12.0, nan, inf, -1.0, 0.0, 1.0, 2.0, 2.7, 3.0, 6.0, 7.0, 9.0, 12.0, nan, inf, -1.0, 0.0, 1.0, 2.0, 2.7, 3.0, 6.0, 7.0, 9.0, 12.0, nan, inf, -1.0, 0.0, 1.0, 2.0, 2.7, 3.0, 6.0, 7.0, 9.0, 12.0, nan, inf, -1.0, 0.0, 1.0, 2.0, 2.7, 3.0, 6.0, 7.0, 9.0, 12.0, nan, inf, -1.0, 0.0, 1.0, 2.0, 2.7, 3.0, 6.0, 7.0, 9.0, 12.0, nan, inf, -1.0, 0.0, 1.0, 2.0, 2.7, 3.0, 6.0, 7.0, 9.0, 12.0, nan, inf, -1.0, 0.0, 1.0, 2.0, 2.7, 3.0, 6.0, 7.0, 9.0, 12.0, nan, inf, -1.0, 0.0, 1.0, 2.0, 2.7, 3.0, 6.0, 7.0, 9.0, 12.0, nan, inf, -1.0, 0.0, 1.0, 2.0, 2.7, 3.0, 6.0, 7.0, 9.0, 12.0, nan, inf],
        "torch": [0.0, 1.0, 3.0, 7.0, 7.0, 14.333333333333334, 81.35555555555554, 133.24761904761903, 329.0395061728394, 1097.253463737908, 0.0, 0.0, 0.0, 1.0, 2.0, 3.5, 3.5, 5.666666666666667, 18.509722222222223, 25.9765873015873, 48.424035493827155, 111.34504439442371, 0.0, 0.0, 0.0, 1.0, 1.999, 3.4970005000000004, 3.4970005000000004, 5.6601686665000015, 18.47598565336202, 25.924357882416196, 48.310137541576985, 111.03299598799445, 0.0, 0.0, 0.0, 1.0, 1.5, 2.125, 2.125, 2.8958333333333335, 6.332313368055556, 7.950934709821428, 12.112817097551183, 21.349974753444695, 0.0, 0.0, 0.0, 1.0, 1.001, 1.0020004999999998, 1.0020004999999998, 1.0030015001666663, 1.0060075033339573, 1.0070105058347905, 1.0090180140052494, 1.012033036687297, 0.0, 0.0, 0.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.7, 0.445, 0.445, 0.23050000000000007, -0.21005798749999982, -0.3011057058928569, -0.41794299755200853, -0.4680735234891154, 0.0, 0.0, 0.0, 1.0, 0.5, 0.125, 0.125, -0.14583333333333334, -0.5041449652777779, -0.5183392237103176, -0.4529195203562474, -0.23164963886551904, 0.0, 0.0, 0.0, 1.0, 0.0010000000000000009, -0.4989995, -0.4989995, -0.6661656665000001, -0.2582020056384932, -0.04199132502407936, 0.30834111472161063, 0.49601630906535704, 0.0, 0.0, 0.0, 1.0, 0.0, -0.5, -0.5, -0.6666666666666666, -0.2569444444444445, -0.040476190476190554, 0.3097442680776013, 0.4962122235082303, 0.0, 0.0, 0.0, 1.0, -0.5, -0.875, -0.875, -0.6875, 0.42519531250000003, 0.5987583705357143, 0.5671661376953127, 0.02070516350981479, 0.0, 0.0, 0.0, 1.0, -inf, inf, inf, nan, nan, nan, nan, nan, 0.0, 0.0, 0.0, 1.0, nan, nan, nan, nan, nan, nan, nan, nan, 0.0, 0.0],
        "exact": [0.0, 1.0, 3.0, 7.0, 7.0, 14.333333333333334, 81.35555555555555, 133.24761904761905, 329.0395061728395, 1097.253463737908, nan, nan, 0.0, 1.0, 2.0, 3.5, 3.5, 5.666666666666667, 18.509722222222223, 25.9765873015873, 48.42403549382716, 111.34504439442374, nan, nan, 0.0, 1.0, 1.999, 3.4970005, 3.4970005, 5.6601686665, 18.475985653362006, 25.924357882416178, 48.31013754157694, 111.0329959879944, nan, nan, 0.0, 1.0, 1.5, 2.125, 2.125, 2.8958333333333335, 6.332313368055556, 7.9509347098214285, 12.112817097551188, 21.349974753444705, nan, nan, 0.0, 1.0, 1.001, 1.0020005, 1.0020005, 1.0030015001666666, 1.0060075033339584, 1.0070105058347918, 1.0090180140052512, 1.0120330366872983, nan, nan, 0.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, nan, nan, 0.0, 1.0, 0.7, 0.445, 0.445, 0.2305, -0.2100579875, -0.3011057058928571, -0.4179429975520089, -0.46807352348911624, nan, nan, 0.0, 1.0, 0.5, 0.125, 0.125, -0.14583333333333334, -0.5041449652777777, -0.5183392237103175, -0.4529195203562472, -0.23164963886551915, nan, nan, 0.0, 1.0, 0.0010000000000000009, -0.4989995, -0.4989995, -0.6661656665, -0.258202005638493, -0.04199132502407925, 0.3083411147216106, 0.4960163090653566, nan, nan, 0.0, 1.0, nan, -0.5, -0.5, -0.6666666666666666, -0.2569444444444444, -0.04047619047619048, 0.3097442680776014, 0.49621222350823047, nan, nan, 0.0, 1.0, -0.5, -0.875, -0.875, -0.6875, 0.4251953125, 0.5987583705357142, 0.5671661376953125, 0.02070516350981477, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan],
    },
    'legendre_polynomial_p': {
        "a": [-2.0, -2.0, -2.0, -2.0, -2.0, -2.0, -2.0, -2.0, -2.0, -2.0, -2.0, -2.0, -1.0, -1.0, -1.0, -1.0, -1.0, -1.0, -1.0, -1.0, -1.0, -1.0, -1.0, -1.0, -0.999, -0.999, -0.999, -0.999, -0.999, -0.999, -0.999, -0.999, -0.999, -0.999, -0.999, -0.999, -0.5, -0.5, -0.5, -0.5, -0.5, -0.5, -0.5, -0.5, -0.5, -0.5, -0.5, -0.5, -0.001, -0.001, -0.001, -0.001, -0.001, -0.001, -0.001, -0.001, -0.001, -0.001, -0.001, -0.001, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.3, 0.3, 0.3, 0.3, 0.3, 0.3, 0.3, 0.3, 0.3, 0.3, 0.3, 0.3, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.999, 0.999, 0.999, 0.999, 0.999, 0.999, 0.999, 0.999, 0.999, 0.999, 0.999, 0.999, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5, inf, inf, inf, inf, inf, inf, inf, inf, inf, inf, inf, inf, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan],
        "b": [-1.0, 0.0, 1.0, 2.0, 2.7, 3.0, 6.0, 7.0, 9.0, 12.0, nan, inf, -1.0, 0.0, 1.0, 2.0, 2.7, 3.0, 6.0, 7.0, 9.0, 12.0, nan, inf, -1.0, 0.0, 1.0, 2.0, 2.7, 3.0, 6.0, 7.0, 9.0, 12.0, nan, inf, -1.0, 0.0, 1.0, 2.0, 2.7, 3.0, 6.0, 7.0, 9.0, 12.0, nan, inf, -1.0, 0.0, 1.0, 2.0, 2.7, 3.0, 6.0, 7.0, 9.0, 12.0, nan, inf, -1.0, 0.0, 1.0, 2.0, 2.7, 3.0, 6.0, 7.0, 9.0, 12.0, nan, inf, -1.0, 0.0, 1.0, 2.0, 2.7, 3.0, 6.0, 7.0, 9.0, 12.0, nan, inf, -1.0, 0.0, 1.0, 2.0, 2.7, 3.0, 6.0, 7.0, 9.0, 12.0, nan, inf, -1.0, 0.0, 1.0, 2.0, 2.7, 3.0, 6.0, 7.0, 9.0, 12.0, nan, inf, -1.0, 0.0, 1.0, 2.0, 2.7, 3.0, 6.0, 7.0, 9.0, 12.0, nan, inf, -1.0, 0.0, 1.0, 2.0, 2.7, 3.0, 6.0, 7.0, 9.0, 12.0, nan, inf, -1.0, 0.0, 1.0, 2.0, 2.7, 3.0, 6.0, 7.0, 9.0, 12.0, nan, inf, -1.0, 0.0, 1.0, 2.0, 2.7, 3.0, 6.0, 7.0, 9.0, 12.0, nan, inf],
        "torch": [0.0, 1.0, -2.0, 5.5, 5.5, -17.0, 634.9375, -2199.125, -27100.671875, 1223479.4833984375, 0.0, 0.0, 0.0, 1.0, -1.0, 1.0, 1.0, -1.0, 1.0, -1.0, -1.0, 1.0, 0.0, 0.0, 0.0, 1.0, -0.999, 0.9970015, 0.9970015, -0.9940074975000001, 0.9791047901967885, -0.9721884757213556, -0.9554926956227487, 0.923489043653365, 0.0, 0.0, 0.0, 1.0, -0.5, -0.125, -0.125, 0.4375, 0.3232421875, -0.22314453125, 0.2678985595703125, 0.23375296592712402, 0.0, 0.0, 0.0, 1.0, -0.001, -0.4999985, -0.4999985, 0.0014999975, -0.31249343751968756, 0.002187480312543313, -0.0024609014063907662, 0.22556834201682038, 0.0, 0.0, 0.0, 1.0, 0.0, -0.5, -0.5, -0.0, -0.3125, -0.0, 0.0, 0.2255859375, 0.0, 0.0, 0.0, 1.0, 0.3, -0.365, -0.365, -0.3825, 0.12918118750000002, -0.22407298125, 0.0637003817578125, -0.18100217969140728, 0.0, 0.0, 0.0, 1.0, 0.5, -0.125, -0.125, -0.4375, 0.3232421875, 0.22314453125, -0.2678985595703125, 0.23375296592712402, 0.0, 0.0, 0.0, 1.0, 0.999, 0.9970015, 0.9970015, 0.9940074975000001, 0.9791047901967885, 0.9721884757213556, 0.9554926956227487, 0.923489043653365, 0.0, 0.0, 0.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 0.0, 0.0, 0.0, 1.0, 1.5, 2.875, 2.875, 6.1875, 79.2373046875, 192.37646484375, 1165.556167602539, 18151.005744695663, 0.0, 0.0, 0.0, 1.0, inf, inf, inf, nan, nan, nan, nan, nan, 0.0, 0.0, 0.0, 1.0, nan, nan, nan, nan, nan, nan, nan, nan, 0.0, 0.0],
        "exact": [0.0, 1.0, -2.0, 5.5, 5.5, -17.0, 634.9375, -2199.125, -27100.671875, 1223479.4833984375, nan, nan, 0.0, 1.0, -1.0, 1.0, 1.0, -1.0, 1.0, -1.0, -1.0, 1.0, nan, nan, 0.0, 1.0, -0.999, 0.9970015, 0.9970015, -0.9940074975, 0.9791047901967884, -0.9721884757213554, -0.9554926956227486, 0.9234890436533646, nan, nan, 0.0, 1.0, -0.5, -0.125, -0.125, 0.4375, 0.3232421875, -0.22314453125, 0.2678985595703125, 0.23375296592712402, nan, nan, 0.0, 1.0, -0.001, -0.4999985, -0.4999985, 0.0014999975, -0.3124934375196875, 0.0021874803125433123, -0.0024609014063907654, 0.2255683420168203, nan, nan, 0.0, 1.0, 0.0, -0.5, -0.5, 0.0, -0.3125, 0.0, 0.0, 0.2255859375, nan, nan, 0.0, 1.0, 0.3, -0.365, -0.365, -0.3825, 0.1291811875, -0.22407298125000003, 0.06370038175781252, -0.18100217969140725, nan, nan, 0.0, 1.0, 0.5, -0.125, -0.125, -0.4375, 0.3232421875, 0.22314453125, -0.2678985595703125, 0.23375296592712402, nan, nan, 0.0, 1.0, 0.999, 0.9970015, 0.9970015, 0.9940074975, 0.9791047901967884, 0.9721884757213554, 0.9554926956227486, 0.9234890436533646, nan, nan, 0.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, nan, nan, 0.0, 1.0, 1.5, 2.875, 2.875, 6.1875, 79.2373046875, 192.37646484375, 1165.556167602539, 18151.005744695663, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan],
    },
}
