"""The elementwise math functions beyond the basic ones: inverse/hyperbolic trigonometry, exp2,
erfc/erfinv/lgamma, deg2rad/rad2deg, sinc, frac, signbit, hypot, logaddexp(2), fmax/fmin,
copysign, xlogy — values against NumPy / math, torch's dtype rules and errors."""
import math

import numpy as np
import pytest

import minitorch as torch

X = [-3.5, -1.0, -0.5, -0.0, 0.0, 0.25, 0.5, 0.999, 1.0, 2.0, 7.5, 100.0,
     float("inf"), float("-inf"), float("nan")]

UNARY_NP = {
    "asin": np.arcsin, "acos": np.arccos, "atan": np.arctan, "sinh": np.sinh, "cosh": np.cosh,
    "asinh": np.arcsinh, "acosh": np.arccosh, "atanh": np.arctanh, "exp2": np.exp2,
    "deg2rad": np.deg2rad, "rad2deg": np.rad2deg, "sinc": np.sinc,
    "frac": lambda a: a - np.trunc(a), "signbit": np.signbit,
    "erfc": np.vectorize(math.erfc),
    # math.lgamma raises at the poles (0, -1, ...) where lgamma is +inf
    "lgamma": np.vectorize(lambda v: float("inf") if math.isinf(v) or (v <= 0 and v % 1 == 0) else math.lgamma(v)),
}


@pytest.mark.parametrize("name", sorted(UNARY_NP))
@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
def test_unary_values_match_numpy(name, dtype):
    a = np.array(X, dtype=np.float64 if dtype == torch.float64 else np.float32)
    with np.errstate(all="ignore"):
        ref = UNARY_NP[name](a.astype(np.float64) if name in ("erfc", "lgamma") else a)
    t = getattr(torch, name)(torch.from_numpy(a))
    assert t.dtype == (torch.bool if name == "signbit" else dtype)
    rtol = 1e-6 if dtype == torch.float32 else 1e-12
    np.testing.assert_allclose(t.numpy().astype(np.float64), np.asarray(ref, np.float64),
                               rtol=rtol, atol=1e-6 if dtype == torch.float32 else 1e-12)


def test_signbit_sees_negative_zero_and_integers():
    assert torch.signbit(torch.tensor([-0.0, 0.0, -1.0, float("-inf")])).tolist() == [True, False, True, True]
    assert torch.signbit(torch.tensor([-2, 0, 3])).tolist() == [True, False, False]
    assert torch.signbit(torch.tensor([True, False])).tolist() == [False, False]


def test_erfinv_inverts_erf():
    y = torch.linspace(-0.999999, 0.999999, 2001, dtype=torch.float64)
    x = torch.erfinv(y)
    np.testing.assert_allclose(torch.erf(x).numpy(), y.numpy(), rtol=0, atol=1e-14)
    assert torch.erfinv(torch.tensor([1.0, -1.0, 1.5, float("nan"), 0.0])).tolist()[:2] == \
        [float("inf"), float("-inf")]
    r = torch.erfinv(torch.tensor([1.5, float("nan")]))
    assert all(math.isnan(v) for v in r.tolist())
    assert torch.erfinv(torch.tensor([0.5], dtype=torch.float32)).item() == pytest.approx(0.4769362762, rel=1e-6)


@pytest.mark.parametrize("name,ref", [
    ("hypot", np.hypot), ("logaddexp", np.logaddexp), ("logaddexp2", np.logaddexp2),
    ("fmax", np.fmax), ("fmin", np.fmin), ("copysign", np.copysign),
])
@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
def test_binary_values_match_numpy(name, ref, dtype):
    npdt = np.float64 if dtype == torch.float64 else np.float32
    a = np.array(X, dtype=npdt)
    b = a[::-1].copy()
    with np.errstate(all="ignore"):
        expected = ref(a, b)
    t = getattr(torch, name)(torch.from_numpy(a), torch.from_numpy(b))
    assert t.dtype == dtype
    np.testing.assert_allclose(t.numpy(), expected, rtol=1e-6 if dtype == torch.float32 else 1e-13)


def test_xlogy():
    x = torch.tensor([0.0, 0.0, 2.0, 1.0, 3.0])
    y = torch.tensor([0.0, float("nan"), 3.0, float("inf"), 0.0])
    r = torch.xlogy(x, y).tolist()
    assert r[0] == 0.0 and math.isnan(r[1]) and r[2] == pytest.approx(2 * math.log(3))
    assert r[3] == float("inf") and r[4] == float("-inf")
    assert torch.xlogy(torch.tensor([2, 0]), 3).dtype == torch.float32        # ints promote
    assert torch.xlogy(2.0, torch.tensor([3.0])).item() == pytest.approx(2 * math.log(3))


def test_dtype_rules_as_torch():
    i = torch.tensor([1, -2, 3])
    for name in ("asin", "sinh", "exp2", "erfc", "erfinv", "lgamma", "deg2rad", "sinc"):
        assert getattr(torch, name)(i).dtype == torch.float32, name
        assert getattr(torch, name)(torch.tensor([True])).dtype == torch.float32, name
    assert torch.copysign(i, -1).dtype == torch.float32
    assert torch.fmax(i, torch.tensor([0, 0, 5])).tolist() == [1, 0, 5]
    assert torch.fmin(torch.tensor([True, False]), torch.tensor([True, True])).tolist() == [True, False]
    assert torch.fix(i).tolist() == [1, -2, 3] and torch.fix(torch.tensor([-1.5])).item() == -1.0
    for name, args in (("frac", (i,)), ("hypot", (i, i)), ("logaddexp", (i, i)),
                       ("logaddexp2", (torch.tensor([True]),) * 2)):
        with pytest.raises(NotImplementedError, match="not implemented for '(Long|Bool)'"):
            getattr(torch, name)(*args)
    with pytest.raises(NotImplementedError, match="not implemented for 'ComplexFloat'"):
        torch.erfinv(torch.tensor([1j]))


@pytest.mark.parametrize("name", ["asin", "acos", "atan", "sinh", "cosh", "asinh", "acosh",
                                  "atanh", "exp2", "sinc"])
def test_complex_kernels_match_numpy(name):
    z = np.array([1 + 1j, -0.5 + 0.25j, 0.1 - 2j, 3 + 0j], dtype=np.complex128)
    ref = {"asin": np.arcsin, "acos": np.arccos, "atan": np.arctan, "asinh": np.arcsinh,
           "acosh": np.arccosh, "atanh": np.arctanh, "exp2": np.exp2, "sinc": np.sinc}.get(name)
    ref = ref or getattr(np, name)
    r = getattr(torch, name)(torch.from_numpy(z))
    assert r.dtype == torch.complex128
    np.testing.assert_allclose(r.numpy(), ref(z), rtol=1e-12)


def test_forms_aliases_out_and_inplace():
    a = torch.tensor([0.25, 0.5])
    assert torch.arcsin(a).tolist() == torch.asin(a).tolist() == a.asin().tolist() == a.arcsin().tolist()
    for alias, name in (("arccos", "acos"), ("arctan", "atan"), ("arcsinh", "asinh"),
                        ("arccosh", "acosh"), ("arctanh", "atanh")):
        assert getattr(torch, alias) is not None and hasattr(a, alias) and hasattr(a, alias + "_")
    out = torch.empty(2)
    assert torch.sinh(a, out=out) is out
    np.testing.assert_allclose(out.numpy(), np.sinh(a.numpy()))
    b = a.clone()
    b.atan_()
    np.testing.assert_allclose(b.numpy(), np.arctan(a.numpy()))
    c = torch.tensor([1.0, -2.0])
    c.copysign_(torch.tensor([-1.0, 1.0]))
    assert c.tolist() == [-1.0, 2.0]
    v = torch.arange(6.0).reshape(2, 3).t()           # non-contiguous input
    np.testing.assert_allclose(torch.exp2(v).numpy(), np.exp2(v.numpy()))
    with pytest.raises(RuntimeError):
        torch.asin(a, out=torch.empty(2, dtype=torch.int64))   # float result into int64
    with pytest.raises(TypeError):
        torch.hypot(a, "x")
