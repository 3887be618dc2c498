"""Elementwise ops against NumPy: every binary op (tensor-tensor, tensor-scalar, scalar-tensor),
every unary op, broadcasting, 0-d / 0-size / non-contiguous / expanded inputs, every dtype where
the op is defined, out= and in-place forms, and bad inputs.

Tolerances: integer and bool results are exact; float results of correctly rounded operations
(+ - * /, floor/trunc division, remainder, fmod, maximum/minimum, comparisons) are exact against
NumPy computing in the same dtype; results of libm functions (exp, log, pow, atan2, ...) are
compared with the relative tolerance of TOL[dtype] (about 2-8 ulp)."""
import math
import zlib

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st
from hypothesis.extra.numpy import mutually_broadcastable_shapes

import minitorch as torch

B, U8, I8, I16, I32, I64 = torch.bool, torch.uint8, torch.int8, torch.int16, torch.int32, torch.int64
F16, BF16, F32, F64 = torch.float16, torch.bfloat16, torch.float32, torch.float64
DTYPES = [B, U8, I8, I16, I32, I64, F16, BF16, F32, F64]
INTS = [U8, I8, I16, I32, I64]
FLOATS = [F16, BF16, F32, F64]
NUMERIC = INTS + FLOATS
NP = {B: np.bool_, U8: np.uint8, I8: np.int8, I16: np.int16, I32: np.int32, I64: np.int64,
      F16: np.float16, BF16: np.float32, F32: np.float32, F64: np.float64}
TOL = {F16: 4e-3, BF16: 3e-2, F32: 1e-5, F64: 1e-12}
SETTINGS = settings(max_examples=120, deadline=None, derandomize=True, database=None)


# ---- helpers --------------------------------------------------------------------------

def seed_of(*parts):
    """A seed fixed across runs (str hashes are randomised per process)."""
    return zlib.crc32("/".join(map(str, parts)).encode())


def bf16_round(a):
    """float32 -> nearest bfloat16 (ties to even), returned as float32."""
    a = np.array(a, dtype=np.float32, copy=True)
    bits = a.reshape(-1).view(np.uint32).astype(np.uint64).reshape(a.shape)
    bits = ((bits + 0x7FFF + ((bits >> 16) & 1)) & 0xFFFF0000).astype(np.uint32)
    r = bits.view(np.float32).reshape(a.shape)
    return np.where(np.isnan(a), np.float32("nan"), r)


def cast(a, dt):
    """NumPy values as the dtype dt would hold them (bfloat16 as rounded float32)."""
    if dt == BF16:
        return bf16_round(np.asarray(a).astype(np.float32))
    with np.errstate(all="ignore"):
        return np.asarray(a).astype(NP[dt])


def to_np(t):
    return t.float().numpy() if t.dtype == BF16 else t.numpy()


def rand_values(rng, shape, dt, kind="any"):
    """Random values for dt.  kind: 'any', 'small' (|v| <= 6), 'nonzero' (ints: |v| in 1..100),
    'exp' (small non-negative exponents), 'special' (floats incl. nan/inf/-0.0)."""
    shape = tuple(shape)
    if dt == B:
        return rng.random(shape) < 0.5
    if dt in INTS:
        info = np.iinfo(NP[dt])
        if kind == "small" or kind == "exp":
            lo = 0 if (kind == "exp" or dt == U8) else -6
            return rng.integers(lo, 7, shape).astype(NP[dt])
        if kind == "nonzero":
            lo = 1 if dt == U8 else -100
            v = rng.integers(lo, 101, shape)
            v[v == 0] = 7
            return v.astype(NP[dt])
        return rng.integers(info.min, int(info.max) + 1, shape, dtype=np.int64).astype(NP[dt])
    v = rng.standard_normal(shape) * 4
    if kind == "small" or kind == "exp":
        v = rng.uniform(-3, 3, shape)
    if kind == "special" and v.size:
        flat = v.reshape(-1)
        k = rng.integers(0, flat.size, max(1, flat.size // 4))
        flat[k] = rng.choice([0.0, -0.0, np.inf, -np.inf, np.nan, 1.0, -1.0], size=k.size)
    return cast(v, dt)


def make(values, dt, layout="contig"):
    """A minitorch tensor of dtype dt holding `values`, in the given memory layout."""
    a = np.asarray(values)
    if layout == "transposed" and a.ndim >= 2:
        perm = tuple(range(a.ndim))[::-1]
        return make(np.ascontiguousarray(a.transpose(perm)), dt).permute(*perm)
    if layout == "strided" and a.ndim >= 1:
        big = np.zeros(a.shape[:-1] + (2 * a.shape[-1] + 1,), dtype=a.dtype)
        big[..., 1::2] = a
        return make(big, dt)[..., 1::2]
    if layout == "expanded" and a.ndim >= 1 and a.shape[0] > 0:
        row = make(a[:1], dt)
        if (a == a[:1]).all() or a.shape[0] == 1:
            return row.expand(*a.shape)
    if dt == BF16:
        return torch.tensor(a.astype(np.float32)).to(BF16)
    return torch.from_numpy(np.ascontiguousarray(a).astype(NP[dt], copy=True))


def check(got, want, dt, exact=True):
    assert isinstance(got, torch.Tensor)
    assert got.dtype == dt, (got.dtype, dt)
    g = to_np(got)
    w = cast(want, dt)
    assert g.shape == w.shape, (g.shape, w.shape)
    if dt in FLOATS and not exact:
        np.testing.assert_allclose(g, w, rtol=TOL[dt], atol=TOL[dt], equal_nan=True)
    else:
        np.testing.assert_array_equal(g, w)


def result_dtype(a, b):
    return torch.result_type(a, b)  # checked against torch's rules in test_promotion.py


# ---- binary ops: NumPy references with torch's semantics ------------------------------

def _trunc_div(x, y):
    if x.dtype.kind == "f":
        with np.errstate(all="ignore"):
            return np.trunc(x / y)
    q = np.abs(x.astype(np.int64)) // np.abs(y.astype(np.int64))
    return (np.sign(x.astype(np.int64)) * np.sign(y.astype(np.int64)) * q).astype(x.dtype)


# name: (numpy function of values already in the compute dtype, dtypes, exact, operand kind)
BINARY = {
    "add": (np.add, DTYPES, True, "any"),
    "sub": (np.subtract, NUMERIC, True, "any"),
    "mul": (np.multiply, DTYPES, True, "any"),
    "div": (np.true_divide, DTYPES, True, "special"),
    "div_trunc": (_trunc_div, NUMERIC, True, "nonzero"),
    "div_floor": (np.floor_divide, NUMERIC, True, "nonzero"),
    "floor_divide": (np.floor_divide, NUMERIC, True, "nonzero"),
    "remainder": (np.remainder, NUMERIC, True, "nonzero"),
    "fmod": (np.fmod, NUMERIC, True, "nonzero"),
    "pow": (np.power, NUMERIC, False, "exp"),
    "maximum": (np.maximum, DTYPES, True, "special"),
    "minimum": (np.minimum, DTYPES, True, "special"),
    "atan2": (np.arctan2, DTYPES, False, "special"),
    "eq": (np.equal, DTYPES, True, "small"),
    "ne": (np.not_equal, DTYPES, True, "small"),
    "lt": (np.less, DTYPES, True, "special"),
    "le": (np.less_equal, DTYPES, True, "special"),
    "gt": (np.greater, DTYPES, True, "special"),
    "ge": (np.greater_equal, DTYPES, True, "special"),
    "logical_and": (np.logical_and, DTYPES, True, "small"),
    "logical_or": (np.logical_or, DTYPES, True, "small"),
    "logical_xor": (np.logical_xor, DTYPES, True, "small"),
    "bitwise_and": (np.bitwise_and, [B] + INTS, True, "any"),
    "bitwise_or": (np.bitwise_or, [B] + INTS, True, "any"),
    "bitwise_xor": (np.bitwise_xor, [B] + INTS, True, "any"),
    "bitwise_left_shift": (None, INTS, True, "shift"),
    "bitwise_right_shift": (None, INTS, True, "shift"),
}
FLOAT_RESULT = {"div", "atan2"}
BOOL_RESULT = {"eq", "ne", "lt", "le", "gt", "ge", "logical_and", "logical_or", "logical_xor"}


def call_binary(name, x, y, **kw):
    if name == "div_trunc":
        return torch.div(x, y, rounding_mode="trunc", **kw)
    if name == "div_floor":
        return torch.div(x, y, rounding_mode="floor", **kw)
    return getattr(torch, name)(x, y, **kw)


def _shift(name, x, y, dt):
    bits = np.dtype(NP[dt]).itemsize * 8
    xi = x.astype(np.int64)
    yi = y.astype(np.int64)
    ok = (yi >= 0) & (yi < bits)
    ys = np.where(ok, yi, 0)
    if name == "bitwise_left_shift":
        r = np.where(ok, (xi.astype(np.uint64) << ys.astype(np.uint64)).astype(np.int64), 0)
    else:
        r = np.where(ok, xi >> ys, xi >> (bits - 1 if np.issubdtype(NP[dt], np.signedinteger) else bits))
    return cast(r, dt)


_SCALAR_OPMATH = {"mul", "div", "div_trunc", "div_floor"}


def _is_scalar_operand(v):
    return not isinstance(v, torch.Tensor) or v.dim() == 0


def ref_binary(name, xv, yv, rdt, exact_x=False, exact_y=False):
    """Reference of name(x, y) where the inputs hold xv/yv and the result dtype is rdt.
    exact_x/exact_y: that operand is a scalar taken at float32 precision instead of being
    rounded to a float16/bfloat16 rdt first (torch's mul/div with a scalar operand)."""
    fn = BINARY[name][0]
    compute = rdt
    xc, yc = cast(xv, compute), cast(yv, compute)
    if compute in (F16, BF16):
        if exact_x:
            xc = np.asarray(xv, dtype=np.float64).astype(np.float32)
        if exact_y:
            yc = np.asarray(yv, dtype=np.float64).astype(np.float32)
    if name.startswith("bitwise_") and "shift" in name:
        return _shift(name, xc, yc, compute)
    if compute in (F16, BF16):
        # reduced-precision floats compute in float32 and round once, as torch's CPU kernels
        xc, yc = xc.astype(np.float32), yc.astype(np.float32)
    with np.errstate(all="ignore"):
        r = fn(xc, yc)
    return r


def expected(name, x, y):
    """(values, dtype) expected for name(x, y); x, y tensors or Python numbers."""
    rdt = result_dtype(x, y)
    xv = to_np(x) if isinstance(x, torch.Tensor) else x
    yv = to_np(y) if isinstance(y, torch.Tensor) else y
    if name in FLOAT_RESULT and rdt not in FLOATS:
        rdt = torch.get_default_dtype()
    if name in BOOL_RESULT:
        xc, yc = cast(xv, rdt), cast(yv, rdt)
        with np.errstate(all="ignore"):
            return BINARY[name][0](xc, yc), B
    opmath = name in _SCALAR_OPMATH or (name == "floor_divide")
    exact_y = opmath and isinstance(x, torch.Tensor) and _is_scalar_operand(y)
    exact_x = name == "mul" and not isinstance(x, torch.Tensor)
    return ref_binary(name, xv, yv, rdt, exact_x, exact_y), rdt


def binary_case(name, x, y, exact):
    want, rdt = expected(name, x, y)
    got = call_binary(name, x, y)
    check(got, np.broadcast_to(want, got.shape) if np.ndim(want) == 0 else want, rdt, exact)
    return got


ALL_BINARY = sorted(BINARY)


@pytest.mark.parametrize("name,dt", [(n, d) for n in ALL_BINARY for d in BINARY[n][1]], ids=str)
def test_binary_same_dtype(name, dt):
    fn, dts, exact, kind = BINARY[name]
    rng = np.random.default_rng(seed_of(name, dt))
    k = "small" if kind == "shift" else kind
    xv = rand_values(rng, (4, 5), dt, "any" if kind in ("nonzero", "exp") else k)
    if kind == "exp" and dt in INTS:
        xv = rand_values(rng, (4, 5), dt, "small")
    yv = rand_values(rng, (4, 5), dt, k)
    if kind == "shift":
        xv = rand_values(rng, (4, 5), dt, "any")
        bits = np.dtype(NP[dt]).itemsize * 8
        yv = rng.integers(0, bits, (4, 5)).astype(NP[dt])
    if name in ("div_trunc", "div_floor", "floor_divide", "remainder", "fmod") and dt in FLOATS:
        xv = rand_values(rng, (4, 5), dt, "special")
        yv = rand_values(rng, (4, 5), dt, "special")
    binary_case(name, make(xv, dt), make(yv, dt), exact)


@pytest.mark.parametrize("name", ALL_BINARY)
def test_binary_property(name):
    fn, dts, exact, kind = BINARY[name]

    @SETTINGS
    @given(shapes=mutually_broadcastable_shapes(num_shapes=2, min_dims=0, max_dims=4, max_side=4),
           da=st.sampled_from(dts), db=st.sampled_from(dts),
           la=st.sampled_from(["contig", "transposed", "strided", "expanded"]),
           lb=st.sampled_from(["contig", "transposed", "strided"]),
           seed=st.integers(0, 2 ** 31))
    def run(shapes, da, db, la, lb, seed):
        rng = np.random.default_rng(seed)
        (sa, sb), _ = shapes
        rdt = torch.promote_types(da, db)
        if rdt not in dts:
            return
        k = kind
        if kind == "shift":
            bits = np.dtype(NP[rdt]).itemsize * 8
            xv = rand_values(rng, sa, da)
            yv = rng.integers(0, min(bits, 8), sb).astype(NP[db])
        elif kind == "exp":
            xv = rand_values(rng, sa, da, "small")
            yv = rand_values(rng, sb, db, "exp")
        elif kind == "nonzero":
            xv = rand_values(rng, sa, da, "nonzero" if da in INTS else "special")
            yv = rand_values(rng, sb, db, "nonzero" if da in INTS or db in INTS else "special")
            if rdt in INTS:
                xv = rand_values(rng, sa, da, "nonzero")
        else:
            xv = rand_values(rng, sa, da, k)
            yv = rand_values(rng, sb, db, k)
        binary_case(name, make(xv, da, la), make(yv, db, lb), exact)

    run()


@pytest.mark.parametrize("name", ALL_BINARY)
@pytest.mark.parametrize("dt", DTYPES, ids=str)
@pytest.mark.parametrize("scalar", [3, -2, 2.5, True, 0.0])
def test_binary_with_python_scalar(name, dt, scalar):
    fn, dts, exact, kind = BINARY[name]
    rng = np.random.default_rng(7)
    xv = rand_values(rng, (3, 4), dt, "small" if kind != "special" else "special")
    if kind == "nonzero" and dt in INTS:
        xv = rand_values(rng, (3, 4), dt, "nonzero")
    x = make(xv, dt, "transposed")
    for a, b in [(x, scalar), (scalar, x)]:
        rdt = result_dtype(a, b)
        if rdt not in dts or (name in ("div_trunc", "div_floor", "floor_divide", "remainder",
                                       "fmod") and b is not scalar and rdt in INTS and
                              (xv == 0).any()):
            continue
        if kind == "shift" and (not isinstance(b, int) or b is True or (b is not scalar)):
            continue
        if kind == "exp" and b is not scalar and rdt in INTS:
            continue  # scalar base with tensor exponents: see test_pow_integer_rules
        if name == "pow" and rdt in INTS and isinstance(b, int) and b < 0:
            continue  # raises, see test_pow_integer_rules
        if name == "sub" and (dt == B or isinstance(scalar, bool)):
            continue  # raises, see test_bool_arithmetic_rules
        binary_case(name, a, b, exact)


def test_scalar_tensor_reflected_forms():
    x = torch.tensor([1.0, 2.0, 4.0])
    assert (1 - x).tolist() == [0.0, -1.0, -3.0]
    assert (2 ** x).tolist() == [2.0, 4.0, 16.0]
    assert (1 / x).tolist() == [1.0, 0.5, 0.25]
    i = torch.tensor([1, 2, 3])
    assert (2 ** i).tolist() == [2, 4, 8] and (2 ** i).dtype == I64
    assert (2.0 ** i).dtype == F32
    assert (7 // i).tolist() == [7, 3, 2]
    assert (-7 % i).tolist() == [0, 1, 2]
    assert (1 / i).dtype == F32
    assert (10 - i).dtype == I64


# ---- specific semantics ------------------------------------------------------------------

def test_add_sub_alpha():
    rng = np.random.default_rng(1)
    for dt in [U8, I16, I32, I64]:
        xv, yv = rand_values(rng, (5,), dt), rand_values(rng, (5,), dt)
        x, y = make(xv, dt), make(yv, dt)
        check(torch.add(x, y, alpha=3), xv + cast(3 * yv.astype(np.int64), dt), dt)
        check(torch.sub(x, y, alpha=-2), xv - cast(-2 * yv.astype(np.int64), dt), dt)
        check(x.add(2, alpha=5), xv + cast(10, dt), dt)
        with pytest.raises(RuntimeError, match="For integral input tensors, argument alpha must not be a floating point number."):
            torch.add(x, y, alpha=0.5)
    for dt in FLOATS:
        xv, yv = rand_values(rng, (4, 3), dt), rand_values(rng, (3,), dt)
        x, y = make(xv, dt), make(yv, dt)
        check(torch.add(x, y, alpha=0.5), xv.astype(np.float64) + 0.5 * yv, dt, exact=False)
        check(torch.sub(x, y, alpha=2), xv.astype(np.float64) - 2 * yv, dt, exact=False)
        check(torch.sub(y, x, alpha=2), yv.astype(np.float64) - 2 * xv, dt, exact=False)
    # an int tensor with a float tensor and float alpha computes in float
    r = torch.add(torch.tensor([1, 2]), torch.tensor([1.0, 1.0]), alpha=0.5)
    assert r.dtype == F32 and r.tolist() == [1.5, 2.5]
    x = torch.tensor([1.0, 2.0])
    x.add_(torch.tensor([2.0, 2.0]), alpha=-1.5)
    assert x.tolist() == [-2.0, -1.0]
    x.sub_(1, alpha=2)
    assert x.tolist() == [-4.0, -3.0]


def test_div_rounding_modes_known_values():
    a = torch.tensor([7, -7, 7, -7, 0])
    b = torch.tensor([2, 2, -2, -2, 3])
    assert torch.div(a, b).tolist() == [3.5, -3.5, -3.5, 3.5, 0.0]
    assert torch.div(a, b, rounding_mode="trunc").tolist() == [3, -3, -3, 3, 0]
    assert torch.div(a, b, rounding_mode="floor").tolist() == [3, -4, -4, 3, 0]
    assert torch.div(a, b, rounding_mode=None).dtype == F32
    assert torch.div(a, b, rounding_mode="trunc").dtype == I64
    assert torch.floor_divide(a, b).tolist() == [3, -4, -4, 3, 0]
    f = torch.tensor([7.5, -7.5, 1.0, -1.0])
    assert torch.div(f, 2, rounding_mode="trunc").tolist() == [3.0, -3.0, 0.0, -0.0]
    assert torch.div(f, 2, rounding_mode="floor").tolist() == [3.0, -4.0, 0.0, -1.0]
    assert a.div(2, rounding_mode="floor").tolist() == [3, -4, 3, -4, 0]
    x = torch.tensor([7, -7])
    x.div_(2, rounding_mode="trunc")
    assert x.tolist() == [3, -3]
    with pytest.raises(ValueError, match="div expected rounding_mode to be one of None, 'trunc', or 'floor' but found 'round'"):
        torch.div(a, b, rounding_mode="round")
    with pytest.raises(TypeError, match="rounding_mode"):
        torch.mul(a, b, rounding_mode="floor")


def test_remainder_python_sign_rules_and_fmod_c_rules():
    a = torch.tensor([7, -7, 7, -7, 6])
    b = torch.tensor([3, 3, -3, -3, 3])
    assert torch.remainder(a, b).tolist() == [7 % 3, -7 % 3, 7 % -3, -7 % -3, 0]
    assert (a % b).tolist() == [1, 2, -2, -1, 0]
    assert torch.fmod(a, b).tolist() == [1, -1, 1, -1, 0]
    f = torch.tensor([7.5, -7.5, 7.5, -7.5])
    g = torch.tensor([2.0, 2.0, -2.0, -2.0])
    assert torch.remainder(f, g).tolist() == [7.5 % 2, -7.5 % 2, 7.5 % -2, -7.5 % -2]
    assert torch.fmod(f, g).tolist() == [math.fmod(7.5, 2), math.fmod(-7.5, 2), 1.5, -1.5]
    assert torch.remainder(-3, torch.tensor([5])).tolist() == [2]
    assert torch.remainder(torch.tensor([5.0]), 0).isnan().all()
    assert torch.fmod(torch.tensor([5.0]), 0.0).isnan().all()


@pytest.mark.parametrize("dt", INTS)
@pytest.mark.parametrize("name", ["div_trunc", "div_floor", "floor_divide", "remainder", "fmod"])
def test_integer_division_by_zero_raises(dt, name):
    x = torch.tensor([4, 5, 6], dtype=dt)
    z = torch.tensor([1, 0, 1], dtype=dt)
    with pytest.raises(RuntimeError, match="ZeroDivisionError"):
        call_binary(name, x, z)
    with pytest.raises(RuntimeError, match="ZeroDivisionError"):
        call_binary(name, x, 0)
    with pytest.raises(RuntimeError, match="ZeroDivisionError"):
        x // 0


def test_float_division_by_zero_gives_ieee():
    x = torch.tensor([1.0, -1.0, 0.0])
    r = x / 0
    assert r[0].item() == math.inf and r[1].item() == -math.inf and math.isnan(r[2].item())
    i = torch.tensor([1, -1, 0]) / 0  # int / int is true division
    assert i.dtype == F32 and i[0].item() == math.inf and math.isnan(i[2].item())
    r = x // 0
    assert r[0].item() == math.inf and r[1].item() == -math.inf and math.isnan(r[2].item())


def test_pow_integer_rules():
    x = torch.tensor([2, -2, 1, -1, 0, 3])
    with pytest.raises(RuntimeError, match="Integers to negative integer powers are not allowed."):
        x ** -1
    with pytest.raises(RuntimeError, match="Integers to negative integer powers are not allowed."):
        torch.pow(x, -2)
    with pytest.raises(RuntimeError, match="Integers to negative integer powers are not allowed."):
        torch.tensor([True]) ** -1
    # tensor exponents: 1 ** n = 1, (-1) ** n = +-1, else 0 for negative n (as torch)
    e = torch.tensor([-1, -1, -3, -3, 2, -2])
    assert (x ** e).tolist() == [0, 0, 1, -1, 0, 0]
    assert torch.pow(2, torch.tensor([-1, 0, 3])).tolist() == [0, 1, 8]
    assert torch.pow(-1, torch.tensor([-1, -2])).tolist() == [-1, 1]
    assert (x ** torch.tensor(-1)).tolist() == [0, 0, 1, -1, 0, 0]
    assert (x ** 0).tolist() == [1] * 6
    assert (x ** 2.0).dtype == F32
    assert (x ** -1.0).tolist()[:4] == [0.5, -0.5, 1.0, -1.0]
    assert (torch.tensor([3], dtype=U8) ** 6).tolist() == [729 % 256]
    assert (torch.tensor([2.0]) ** -1).tolist() == [0.5]
    assert (torch.tensor([True, False]) ** 2).tolist() == [1, 0]
    # overflow wraps as two's complement
    assert (torch.tensor([3], dtype=I64) ** 41).tolist() == [int(np.int64(3) ** np.int64(41))]


def test_keyword_arguments():
    x = torch.arange(3.0)
    assert torch.pow(x, exponent=2).tolist() == [0.0, 1.0, 4.0]
    assert x.pow(exponent=3).tolist() == [0.0, 1.0, 8.0]
    assert torch.add(input=x, other=1, alpha=2).tolist() == [2.0, 3.0, 4.0]
    assert x.sub(other=x).tolist() == [0.0] * 3
    assert torch.div(x, other=2, rounding_mode="floor").tolist() == [0.0, 0.0, 1.0]
    assert torch.exp(input=torch.zeros(1)).tolist() == [1.0]
    with pytest.raises(TypeError, match="unexpected keyword argument 'other'"):
        torch.pow(x, other=2)
    with pytest.raises(TypeError, match="argument 'exponent' must be Tensor or Number, not str"):
        torch.pow(x, "a")


@pytest.mark.parametrize("dt", [F16, BF16], ids=str)
def test_reduced_precision_scalar_operands(dt):
    # float16/bfloat16 times or over a scalar compute in float32 with the scalar's own value
    # and round once (torch's opmath), rather than rounding the scalar to dt first
    rng = np.random.default_rng(31)
    xv = cast(rng.uniform(-2000, 2000, 4000), dt)
    x = make(xv, dt)
    xf = xv.astype(np.float32)
    for s in [0.1, 1 / 3, 7e4, -2.7, 1e-5]:
        check(x * s, cast(xf * np.float32(s), dt), dt)
        check(s * x, cast(np.float32(s) * xf, dt), dt)
        check(x / s, cast(xf / np.float32(s), dt), dt)
        check(x * torch.tensor(s, dtype=F64), cast(xf * np.float32(s), dt), dt)
        check(torch.div(x, s, rounding_mode="floor"), cast(np.floor_divide(xf, np.float32(s)), dt), dt)
        check(torch.div(x, s, rounding_mode="trunc"), cast(np.trunc(xf / np.float32(s)), dt), dt)
        y = x.clone()
        y.mul_(s)
        check(y, cast(xf * np.float32(s), dt), dt)
        out = torch.empty(4000)  # the result is rounded to dt, then written to float32
        torch.mul(x, s, out=out)
        np.testing.assert_array_equal(out.numpy(), cast(xf * np.float32(s), dt).astype(np.float32))
    if dt == F16:
        assert (torch.tensor([1023.0], dtype=F16) * 0.1).item() == 102.3125
        assert (torch.tensor([1e-3], dtype=F16) * 70000).item() == pytest.approx(70.0, rel=1e-3)
    small = torch.empty(3, dtype=dt)  # out= of another shape is resized, with torch's warning
    with pytest.warns(UserWarning, match=r"shape \[3\], which does not match the required output shape \[4000\]"):
        assert torch.mul(x, 0.1, out=small) is small
    check(small, cast(xf * np.float32(0.1), dt), dt)


def test_maximum_minimum_nan_propagation_and_ties():
    a = torch.tensor([1.0, math.nan, 3.0, -0.0, math.inf])
    b = torch.tensor([math.nan, 2.0, 1.0, 0.0, -math.inf])
    mx, mn = torch.maximum(a, b), torch.minimum(a, b)
    assert math.isnan(mx[0].item()) and math.isnan(mx[1].item()) and mx[2].item() == 3.0
    assert math.isnan(mn[0].item()) and math.isnan(mn[1].item()) and mn[2].item() == 1.0
    assert mx[4].item() == math.inf and mn[4].item() == -math.inf
    assert torch.maximum(torch.tensor([True, False]), torch.tensor([False, False])).tolist() == [True, False]
    assert torch.maximum(torch.tensor([1, 5]), 3).tolist() == [3, 5]


def test_shift_out_of_range_amounts():
    x = torch.tensor([1, -128, 64, 100], dtype=I8)
    assert (x << 8).tolist() == [0, 0, 0, 0]
    assert (x >> 8).tolist() == [0, -1, 0, 0]
    assert (x >> 7).tolist() == [0, -1, 0, 0]
    assert (x << torch.tensor([-1, 1, 1, 0], dtype=I8)).tolist() == [0, 0, -128, 100]
    assert (torch.tensor([1, 2], dtype=I64) << 62).tolist() == [1 << 62, -(1 << 63)]
    assert (torch.tensor([-(1 << 40)]) >> 70).tolist() == [-1]
    assert (torch.tensor([200], dtype=U8) >> 3).tolist() == [25]
    assert (5 << torch.tensor([1, 2])).tolist() == [10, 20]


def test_comparisons_mixed_dtypes_and_nan():
    a = torch.tensor([1, 2, 3], dtype=U8)
    b = torch.tensor([-1, 2, 4], dtype=I8)
    assert (a > b).tolist() == [True, False, False]
    assert (a == b).tolist() == [False, True, False]
    f = torch.tensor([math.nan, 1.0])
    assert (f == f).tolist() == [False, True]
    assert (f != f).tolist() == [True, False]
    assert torch.lt(2.5, torch.tensor([2, 3])).tolist() == [False, True]
    assert torch.eq(torch.tensor([256], dtype=I16), torch.tensor([0], dtype=U8)).tolist() == [False]
    # the scalar is cast to the tensor's dtype first (wrapped numbers do not upcast)
    assert torch.eq(torch.tensor([0], dtype=U8), 256).tolist() == [True]


# ---- out= and in-place -----------------------------------------------------------------

@pytest.mark.parametrize("name", ["add", "sub", "mul", "div", "remainder", "maximum", "atan2",
                                  "pow", "fmod", "floor_divide"])
def test_binary_out_and_inplace(name):
    rng = np.random.default_rng(3)
    xv = rand_values(rng, (3, 4), F32, "small") + 4
    yv = rand_values(rng, (4,), F32, "small") + 4
    x, y = make(xv, F32), make(yv, F32)
    want = to_np(call_binary(name, x, y))
    out = torch.empty(3, 4, dtype=F64)
    assert call_binary(name, x, y, out=out) is out
    np.testing.assert_allclose(out.numpy(), want, rtol=1e-6)
    # out of a non-contiguous layout
    out_t = torch.empty(4, 3).t()
    call_binary(name, x, y, out=out_t)
    np.testing.assert_array_equal(out_t.numpy(), want)
    # in-place method
    z = x.clone()
    assert getattr(z, name + "_")(y) is z
    np.testing.assert_array_equal(z.numpy(), want)
    with pytest.raises(TypeError):
        getattr(z, name + "_")(y, out=out)


PARTIAL = ("unsupported operation: some elements of the input tensor and the written-to tensor "
           "refer to a single memory location")


def test_inplace_on_overlapping_views():
    # the same view as input and output is fine
    x = torch.arange(10.0)
    x.add_(x)
    assert x.tolist() == [2.0 * i for i in range(10)]
    v = x[::2]
    v.mul_(x[::2])
    assert v.tolist() == [(4.0 * i) ** 2 for i in range(5)]
    # dense views that partially overlap the output raise, as torch
    x = torch.arange(10.0)
    with pytest.raises(RuntimeError, match=PARTIAL):
        x[1:].add_(x[:-1])
    y = torch.arange(6.0).reshape(2, 3)
    with pytest.raises(RuntimeError, match=PARTIAL):
        y.mul_(y[0])
    z = torch.arange(9).reshape(3, 3)
    with pytest.raises(RuntimeError, match=PARTIAL):
        z.add_(z.t())
    w = torch.arange(5)
    with pytest.raises(RuntimeError, match=PARTIAL):
        torch.add(w[:3], w[2:], out=w[2:])
    with pytest.raises(RuntimeError, match=PARTIAL):
        torch.neg(w[:3], out=w[2:])
    assert x.tolist() == [float(i) for i in range(10)] and w.tolist() == list(range(5))
    # disjoint interleaved views of one buffer: every element read before it is written
    a = torch.arange(12.0).reshape(3, 4)
    a[:, ::2].add_(a[:, 1::2])
    assert a.tolist() == [[1.0, 1.0, 5.0, 3.0], [9.0, 5.0, 13.0, 7.0], [17.0, 9.0, 21.0, 11.0]]
    # a non-dense input overlapping the output is read before the output is written
    b = torch.arange(8.0)
    b[:4].add_(b[::2])
    assert b.tolist() == [0.0, 3.0, 6.0, 9.0, 4.0, 5.0, 6.0, 7.0]
    e = torch.ones(3)[None].expand(2, 3)
    with pytest.raises(RuntimeError, match="more than one element of the written-to tensor refers to a single memory location"):
        e.add_(1)
    with pytest.raises(RuntimeError, match="more than one element of the written-to tensor refers to a single memory location"):
        torch.add(torch.ones(2, 3), 1, out=e)


def test_inplace_result_cast_errors():
    x = torch.tensor([1, 2, 3])
    with pytest.raises(RuntimeError, match="result type Float can't be cast to the desired output type Long"):
        x.add_(0.5)
    with pytest.raises(RuntimeError, match="result type Float can't be cast to the desired output type Long"):
        x *= torch.tensor([1.0, 2.0, 3.0])
    with pytest.raises(RuntimeError, match="result type Float can't be cast to the desired output type Long"):
        x.exp_()
    with pytest.raises(RuntimeError, match="result type Float can't be cast to the desired output type Long"):
        x.atan2_(x)
    assert x.tolist() == [1, 2, 3]
    with pytest.raises(RuntimeError, match="output with shape \\[3\\] doesn't match the broadcast shape \\[2, 3\\]"):
        x.add_(torch.ones(2, 3, dtype=I64))


# ---- unary ops ---------------------------------------------------------------------------

def _np_round(a):
    return np.round(a)  # half to even, as torch


UNARY = {
    # name: (numpy reference, input kind, dtypes, exact)
    "neg": (np.negative, "any", NUMERIC, True),
    "abs": (np.abs, "special", NUMERIC, True),
    "sign": (lambda a: a.copy() if a.dtype == np.bool_ else np.nan_to_num(np.sign(a), nan=0.0), "special", DTYPES, True),
    "exp": (np.exp, "special", DTYPES, False),
    "expm1": (np.expm1, "special", DTYPES, False),
    "log": (np.log, "special", DTYPES, False),
    "log1p": (np.log1p, "special", DTYPES, False),
    "log2": (np.log2, "special", DTYPES, False),
    "log10": (np.log10, "special", DTYPES, False),
    "sqrt": (np.sqrt, "special", DTYPES, False),
    "rsqrt": (lambda a: 1 / np.sqrt(a), "special", DTYPES, False),
    "sin": (np.sin, "small", DTYPES, False),
    "cos": (np.cos, "small", DTYPES, False),
    "tan": (np.tan, "small", DTYPES, False),
    "tanh": (np.tanh, "special", DTYPES, False),
    "sigmoid": (lambda a: 1 / (1 + np.exp(-a)), "special", DTYPES, False),
    "relu": (lambda a: np.where(np.isnan(a) | (a > 0), a, 0).astype(a.dtype), "special", NUMERIC, True),
    "erf": (None, "special", DTYPES, False),
    "floor": (np.floor, "special", NUMERIC, True),
    "ceil": (np.ceil, "special", NUMERIC, True),
    "round": (_np_round, "special", NUMERIC, True),
    "trunc": (np.trunc, "special", NUMERIC, True),
    "reciprocal": (np.reciprocal, "special", DTYPES, False),
    "square": (np.square, "small", NUMERIC, True),
    "isnan": (np.isnan, "special", DTYPES, True),
    "isinf": (np.isinf, "special", DTYPES, True),
    "isfinite": (np.isfinite, "special", DTYPES, True),
    "bitwise_not": (np.invert, "any", [B] + INTS, True),
    "logical_not": (np.logical_not, "small", DTYPES, True),
}
_BOOL_UNARY = {"isnan", "isinf", "isfinite", "logical_not"}
_FLOAT_ONLY = {"exp", "expm1", "log", "log1p", "log2", "log10", "sqrt", "rsqrt", "sin", "cos",
               "tan", "tanh", "sigmoid", "erf", "reciprocal"}


def _erf(a):
    return np.vectorize(math.erf, otypes=[np.float64])(a)


def ref_unary(name, xv, dt):
    fn = UNARY[name][0] or _erf
    rdt = B if name in _BOOL_UNARY else (torch.get_default_dtype() if name in _FLOAT_ONLY and dt not in FLOATS else dt)
    if name in _BOOL_UNARY:
        xc = cast(xv, dt)
    else:
        xc = cast(xv, rdt)
    if rdt in FLOATS and not UNARY[name][3]:
        xc = xc.astype(np.float64)  # libm functions: compare with a float64 reference
    with np.errstate(all="ignore"):
        return fn(xc), rdt


@pytest.mark.parametrize("name,dt", [(n, d) for n in sorted(UNARY) for d in UNARY[n][2]], ids=str)
def test_unary(name, dt):
    fn, kind, dts, exact = UNARY[name]
    rng = np.random.default_rng(seed_of(name, dt))
    xv = rand_values(rng, (5, 7), dt, kind)
    for layout in ["contig", "transposed", "strided"]:
        x = make(xv, dt, layout)
        want, rdt = ref_unary(name, to_np(x), dt)
        check(getattr(torch, name)(x), want, rdt, exact)
        check(getattr(x, name)(), want, rdt, exact)
    # 0-d and 0-size
    x0 = make(xv[0, 0], dt)
    want, rdt = ref_unary(name, to_np(x0), dt)
    check(getattr(torch, name)(x0), want, rdt, exact)
    xe = make(xv[:0], dt)
    assert getattr(torch, name)(xe).shape == (0, 7)
    # out= and in-place where the result type allows it
    out = torch.empty(5, 7, dtype=rdt)
    x = make(xv, dt)
    want, _ = ref_unary(name, to_np(x), dt)
    assert getattr(torch, name)(x, out=out) is out
    check(out, want, rdt, exact)
    if rdt == dt:
        y = x.clone()
        assert getattr(y, name + "_")() is y
        check(y, want, rdt, exact)
    elif not torch.can_cast(rdt, dt):
        y = x.clone()
        with pytest.raises(RuntimeError, match="can't be cast to the desired output type"):
            getattr(y, name + "_")()


def test_unary_known_values():
    assert torch.round(torch.tensor([0.5, 1.5, 2.5, -0.5, -1.5])).tolist() == [0.0, 2.0, 2.0, -0.0, -2.0]
    assert torch.sign(torch.tensor([-3, 0, 5])).tolist() == [-1, 0, 1]
    assert torch.sign(torch.tensor([math.nan, -0.0, -math.inf])).tolist() == [0.0, 0.0, -1.0]
    assert torch.abs(torch.tensor([-128], dtype=I8)).tolist() == [-128]  # wraps, as torch
    assert torch.neg(torch.tensor([1], dtype=U8)).tolist() == [255]
    assert torch.square(torch.tensor([True, False])).tolist() == [1, 0]
    assert torch.square(torch.tensor([True])).dtype == I64
    assert torch.bitwise_not(torch.tensor([True, False])).tolist() == [False, True]
    assert torch.sigmoid(torch.tensor([-200.0, 0.0, 200.0])).tolist() == [0.0, 0.5, 1.0]
    assert torch.exp(torch.tensor([-200.0, 89.0, math.inf, -math.inf])).tolist() == [0.0, math.inf, math.inf, 0.0]
    assert torch.relu(torch.tensor([-1, 0, 3])).tolist() == [0, 0, 3]
    assert torch.rsqrt(torch.tensor([0.0, 4.0])).tolist() == [math.inf, 0.5]
    assert torch.log(torch.tensor([0, 1])).tolist() == [-math.inf, 0.0]


@pytest.mark.parametrize("n", [1, 7, 255, 256, 1000, 100003])
def test_float32_exp_matches_float64_reference(n):
    # vectorised expf: every element within 2 ulp, including lanes outside [-87, 88]
    rng = np.random.default_rng(n)
    xv = rng.uniform(-104, 90, n).astype(np.float32)
    got = torch.exp(torch.from_numpy(xv)).numpy()
    with np.errstate(over="ignore"):
        want = np.exp(xv.astype(np.float64)).astype(np.float32)
    np.testing.assert_allclose(got, want, rtol=3e-7, atol=1e-44)
    x = torch.from_numpy(xv.copy())
    x.exp_()
    np.testing.assert_array_equal(x.numpy(), got)


# ---- bad inputs --------------------------------------------------------------------------

@pytest.mark.parametrize("name,dt,tname", [
    ("bitwise_and", F32, "Float"), ("bitwise_or", F64, "Double"), ("bitwise_xor", F16, "Half"),
    ("bitwise_left_shift", F32, "Float"), ("bitwise_right_shift", B, "Bool"),
    ("remainder", B, "Bool"), ("fmod", B, "Bool"), ("floor_divide", B, "Bool"), ("pow", B, "Bool"),
])
def test_binary_unsupported_dtypes(name, dt, tname):
    x = torch.ones(3, dtype=dt)
    kernel = {"floor_divide": "div_floor_cpu", "pow": "pow"}.get(name, name + "_cpu")  # torch's names
    with pytest.raises(RuntimeError, match=f'"{kernel}" not implemented for \'{tname}\''):
        getattr(torch, name)(x, x)


@pytest.mark.parametrize("name,dt,tname", [
    ("bitwise_not", F32, "Float"), ("abs", B, "Bool"),
])
def test_unary_unsupported_dtypes(name, dt, tname):
    with pytest.raises(RuntimeError, match=f'"{name}_cpu" not implemented for \'{tname}\''):
        getattr(torch, name)(torch.ones(3, dtype=dt))


def test_unary_bool_rules():
    b = torch.tensor([True, False])
    with pytest.raises(RuntimeError, match="Negation, the `-` operator, on a bool tensor is not supported."):
        torch.neg(b)
    with pytest.raises(RuntimeError, match="Boolean inputs not supported for relu"):
        torch.relu(b)
    with pytest.raises(TypeError, match=r"~ \(operator.invert\) is only implemented on integer and Boolean-type tensors"):
        ~torch.ones(2)
    assert torch.exp(b).dtype == F32
    np.testing.assert_allclose(torch.exp(b).numpy(), [math.e, 1.0], rtol=1e-6)


def test_binary_bad_inputs():
    x = torch.ones(2, 3)
    with pytest.raises(RuntimeError, match=r"The size of tensor a \(3\) must match the size of tensor b \(4\) at non-singleton dimension 1"):
        x + torch.ones(4)
    with pytest.raises(RuntimeError, match=r"The size of tensor a \(2\) must match the size of tensor b \(5\) at non-singleton dimension 0"):
        torch.mul(torch.ones(2, 1), torch.ones(5, 3))
    # the shapes are compared from the last dimension to the first (torch's messages)
    with pytest.raises(RuntimeError, match=r"^The size of tensor a \(3\) must match the size of tensor b \(2\) at non-singleton dimension 1$"):
        torch.ones(2, 3) * torch.ones(3, 2)
    with pytest.raises(RuntimeError, match=r"^The size of tensor a \(2\) must match the size of tensor b \(3\) at non-singleton dimension 2$"):
        torch.ones(4, 3, 2) * torch.ones(4, 3)
    with pytest.raises(RuntimeError, match=r"^The size of tensor a \(2\) must match the size of tensor b \(0\) at non-singleton dimension 2$"):
        torch.ones(4, 3, 2) * torch.ones(0)
    with pytest.raises(RuntimeError, match=r"^The size of tensor a \(3\) must match the size of tensor b \(7\) at non-singleton dimension 2$"):
        torch.ones(5, 4, 3) + torch.ones(2, 4, 7)
    with pytest.raises(TypeError, match="must be Tensor or Number, not str"):
        torch.add(x, "a")
    with pytest.raises(TypeError, match="must be Tensor or Number, not list"):
        torch.mul(x, [1, 2, 3])
    with pytest.raises(TypeError):
        x + "a"
    assert torch.add(1, 2).item() == 3  # two numbers: torch makes the first a tensor
    with pytest.raises(TypeError):
        torch.add(x)
    with pytest.raises(TypeError):
        torch.add(x, x, x, x)
    with pytest.raises(TypeError, match="alpha"):
        torch.mul(x, 2, alpha=2)
    with pytest.raises(TypeError, match="'out' must be Tensor"):
        torch.add(x, 1, out=[1])
    with pytest.raises(TypeError):
        torch.add(x, 1, bogus=1)
    with pytest.raises(TypeError, match="must be Tensor"):
        torch.exp(3)
    with pytest.raises(TypeError):
        x.exp(1)
    with pytest.raises(RuntimeError, match=r"The size of tensor a \(3\) must match the size of tensor b \(4\)"):
        torch.add(x, torch.ones(4, dtype=F64), out=torch.empty(2, 3, dtype=F64))


# ---- broadcasting, 0-d, 0-size, large ----------------------------------------------------

def test_broadcasting_shapes():
    a = torch.arange(6).reshape(2, 1, 3)
    b = torch.arange(4).reshape(4, 1)
    r = a + b
    assert r.shape == (2, 4, 3)
    np.testing.assert_array_equal(r.numpy(), a.numpy() + b.numpy())
    assert (torch.ones(0, 3) + torch.ones(3)).shape == (0, 3)
    assert (torch.ones(2, 0) * torch.ones(1, 1)).shape == (2, 0)
    assert (torch.tensor(2.0) * torch.tensor(3.0)).shape == ()
    assert (torch.tensor(2.0) * torch.ones(1, 1, 2)).shape == (1, 1, 2)
    e = torch.arange(3.0).expand(4, 3)
    np.testing.assert_array_equal((e * e.t().t()).numpy(), np.broadcast_to(np.arange(3.0) ** 2, (4, 3)))


@pytest.mark.parametrize("dt", [U8, I32, I64, F16, BF16, F32, F64], ids=str)
def test_large_noncontiguous_binary(dt):
    # big enough to be split across threads and to release the GIL
    rng = np.random.default_rng(11)
    xv = rand_values(rng, (300, 257), dt, "small")
    yv = rand_values(rng, (257,), dt, "small")
    x = make(xv, dt, "transposed")
    y = make(yv, dt, "strided")
    for name in ["add", "mul", "maximum", "lt"]:
        binary_case(name, x, y, True)
    xl = make(rand_values(rng, (70000,), dt, "small"), dt)
    binary_case("sub", xl, xl.flip(0), True)


# ---- where / clamp / lerp / masked_fill -----------------------------------------------------

@pytest.mark.parametrize("dt", [U8, I32, I64, F16, F32, F64], ids=str)
def test_clamp_against_numpy(dt):
    rng = np.random.default_rng(21)
    xv = rand_values(rng, (4, 6), dt, "special" if dt in FLOATS else "small")
    x = make(xv, dt, "transposed")
    lo, hi = (1, 5) if dt in INTS else (-1.5, 2.0)
    check(torch.clamp(x, lo, hi), np.minimum(np.maximum(to_np(x), lo), hi), dt)
    check(x.clamp(min=lo), np.maximum(to_np(x), lo), dt)
    check(torch.clip(x, max=hi), np.minimum(to_np(x), hi), dt)
    lo_t = make(rand_values(rng, (6,), dt, "small"), dt)
    check(torch.clamp(x, lo_t, hi), np.minimum(np.maximum(to_np(x), to_np(lo_t)), hi), dt)
    xs = to_np(x)
    want = np.where(np.isnan(xs), xs, lo) if dt in FLOATS else np.full(x.shape, lo)
    check(torch.clamp(x, min=hi, max=lo), want, dt)  # min > max: max (NaN stays NaN)
    y = x.clone()
    assert y.clamp_(lo, hi) is y
    check(y, np.minimum(np.maximum(to_np(x), lo), hi), dt)
    out = torch.empty(4, 6, dtype=dt)
    assert torch.clamp(x, lo, hi, out=out) is out
    with pytest.raises(RuntimeError, match="At least one of 'min' or 'max' must not be None"):
        torch.clamp(x)


def test_clamp_promotion_and_nan():
    i = torch.tensor([0, 3, 9])
    r = torch.clamp(i, 0.5, 4)
    assert r.dtype == F32 and r.tolist() == [0.5, 3.0, 4.0]
    with pytest.raises(RuntimeError, match="result type Float can't be cast to the desired output type Long"):
        i.clamp_(min=0.5)
    assert math.isnan(torch.clamp(torch.tensor([math.nan]), 0, 1).item())
    with pytest.raises(TypeError):
        torch.clamp([1, 2], 0)


@pytest.mark.parametrize("dx,dy", [(F32, F32), (I64, F32), (U8, I8), (B, B), (F16, F64)], ids=str)
def test_where_against_numpy(dx, dy):
    rng = np.random.default_rng(22)
    cv = rng.random((3, 1, 4)) < 0.5
    xv = rand_values(rng, (5, 4), dx, "small")
    yv = rand_values(rng, (4,), dy, "small")
    c, x, y = make(cv, B), make(xv, dx, "transposed"), make(yv, dy, "strided")
    rdt = torch.promote_types(dx, dy)
    r = torch.where(c, x, y)
    check(r, np.where(cv, cast(to_np(x), rdt), cast(to_np(y), rdt)), rdt)
    check(x.where(c, y), np.where(cv, cast(to_np(x), rdt), cast(to_np(y), rdt)), rdt)
    r = torch.where(c, x, 2)
    assert r.dtype == torch.result_type(x, 2)


def test_where_scalars_and_bad_inputs():
    b = torch.tensor([True, False])
    assert torch.where(b, 1, 0).tolist() == [1, 0] and torch.where(b, 1, 0).dtype == I64
    assert torch.where(b, 1.5, 0).dtype == F32
    assert torch.where(b, torch.ones(2, dtype=I32), 2.5).dtype == F32
    with pytest.raises(RuntimeError, match="where expected condition to be a boolean tensor, but got a tensor with dtype Long"):
        torch.where(torch.tensor([1, 0]), 1, 0)
    with pytest.raises(RuntimeError, match="The size of tensor a"):
        torch.where(b, torch.ones(3), 0)
    with pytest.raises(TypeError):
        torch.where(b, "a", 0)


@pytest.mark.parametrize("dt", [F16, BF16, F32, F64], ids=str)
def test_lerp_against_numpy(dt):
    rng = np.random.default_rng(23)
    s, e = rand_values(rng, (3, 4), dt), rand_values(rng, (4,), dt)
    x, y = make(s, dt, "transposed"), make(e, dt)
    sv, ev = to_np(x).astype(np.float64), to_np(y).astype(np.float64)
    for w in [0.0, 0.25, 0.5, 0.75, 1.0, -1.0]:
        check(torch.lerp(x, y, w), sv + w * (ev - sv), dt, exact=False)
    assert torch.lerp(x, y, 1.0).tolist() == y.expand(3, 4).tolist()  # exact at weight 1
    wt = make(rng.uniform(0, 1, (3, 4)), dt)
    check(torch.lerp(x, y, wt), sv + to_np(wt).astype(np.float64) * (ev - sv), dt, exact=False)
    z = x.clone()
    assert z.lerp_(y, 0.5) is z


def test_masked_fill():
    x = torch.arange(6.0).reshape(2, 3)
    m = torch.tensor([True, False, True])
    assert x.masked_fill(m, -1).tolist() == [[-1.0, 1.0, -1.0], [-1.0, 4.0, -1.0]]
    assert x.masked_fill(m, torch.tensor(7.0)).tolist()[1] == [7.0, 4.0, 7.0]
    i = torch.tensor([1, 2, 3], dtype=I32)
    r = i.masked_fill(m, 2.5)  # converted like fill_: truncated
    assert r.dtype == I32 and r.tolist() == [2, 2, 2]
    with pytest.raises(RuntimeError, match="value cannot be converted to type uint8_t without overflow"):
        torch.zeros(3, dtype=U8).masked_fill(m, 300)
    y = x.clone()
    assert y.masked_fill_(m, 0) is y and y.tolist() == [[0.0, 1.0, 0.0], [0.0, 4.0, 0.0]]
    with pytest.raises(RuntimeError, match="masked_fill_ only supports boolean masks"):
        y.masked_fill_(torch.tensor([1, 0, 1]), 0)
    with pytest.raises(RuntimeError, match="0-dimensional value tensor"):
        y.masked_fill(m, torch.ones(3))
    with pytest.raises(RuntimeError):
        y.masked_fill_(torch.ones(4, 2, 3, dtype=B), 0)  # in place: self's shape may not grow


def test_alpha_bool_rules():
    b = torch.tensor([True, False])
    assert torch.add(b, b, alpha=True).tolist() == [True, False]
    assert torch.add(b, torch.tensor([False, True]), alpha=2).tolist() == [True, True]
    assert torch.add(b, torch.tensor([False, True]), alpha=False).tolist() == [True, False]
    with pytest.raises(RuntimeError, match="Boolean alpha only supported for Boolean results."):
        torch.add(torch.ones(2, dtype=I32), 1, alpha=True)
    with pytest.raises(RuntimeError, match="Boolean alpha only supported for Boolean results."):
        torch.sub(torch.ones(2), 1, alpha=False)


def test_lerp_bad_inputs():
    f = torch.ones(2)
    with pytest.raises(RuntimeError, match="expected dtype float for `end` but got dtype double"):
        torch.lerp(f, torch.ones(2, dtype=F64), 0.5)
    with pytest.raises(RuntimeError, match="expected dtype float for `weight` but got dtype double"):
        torch.lerp(f, f, torch.tensor(0.5, dtype=F64))
    with pytest.raises(RuntimeError, match="\"lerp_kernel_scalar\" not implemented for 'Int'"):
        torch.lerp(torch.ones(2, dtype=I32), torch.ones(2, dtype=I32), 0.5)
    with pytest.raises(TypeError):
        torch.lerp(f, 1.0, 0.5)
    with pytest.raises(RuntimeError, match="The size of tensor a"):
        torch.lerp(f, torch.ones(3), 0.5)


@settings(max_examples=300, deadline=None, derandomize=True, database=None)
@given(shape=st.lists(st.integers(0, 5), min_size=0, max_size=4),
       name=st.sampled_from(sorted(UNARY)), dt=st.sampled_from(DTYPES),
       layout=st.sampled_from(["contig", "transposed", "strided", "expanded"]),
       seed=st.integers(0, 2 ** 31))
def test_unary_property(shape, name, dt, layout, seed):
    fn, kind, dts, exact = UNARY[name]
    rng = np.random.default_rng(seed)
    x = make(rand_values(rng, shape, dt, kind), dt, layout)
    if dt not in dts:
        with pytest.raises((RuntimeError, TypeError)):
            getattr(torch, name)(x)
        return
    want, rdt = ref_unary(name, to_np(x), dt)
    check(getattr(torch, name)(x), want, rdt, exact)


def test_pow_bool_scalar_exponent_and_complex_negative_powers():
    b = torch.tensor([True, False])
    assert (b ** True).dtype == torch.bool and (b ** True).tolist() == [True, False]
    assert (b ** False).tolist() == [True, True]
    assert (b ** 2).dtype == torch.int64 and (b ** 2).tolist() == [1, 0]
    with pytest.raises(NotImplementedError, match="\"pow\" not implemented for 'Bool'"):
        torch.pow(b, b)
    c = torch.tensor([1 + 1j], dtype=torch.complex64) ** -3
    assert c.dtype == torch.complex64
    np.testing.assert_allclose(c.numpy(), [(1 + 1j) ** -3], rtol=1e-6)
    with pytest.raises(RuntimeError, match="Integers to negative integer powers are not allowed"):
        torch.tensor([2]) ** -1


@pytest.mark.parametrize("dt", [torch.uint8, torch.int8, torch.int16], ids=str)
def test_clamp_integer_bounds_beyond_the_dtype(dt):
    # torch compares before converting: a bound outside the dtype's range limits nothing
    x = torch.tensor([0, 1, 2, 3, 100], dtype=dt)
    assert torch.clamp(x, -1000, 2).tolist() == [0, 1, 2, 2, 2]
    assert torch.clamp(x, 1, 1000).tolist() == [1, 1, 2, 3, 100]
    assert torch.clamp(x, min=-1).tolist() == [0, 1, 2, 3, 100]
    assert torch.clamp(x, -1, 2).dtype == dt


def test_binary_op_of_two_numbers_gives_a_tensor():
    import minitorch as _m
    r = _m.add(True, True)
    assert isinstance(r, _m.Tensor) and r.dtype == _m.bool and r.item() is True
    assert _m.add(1, 2.5).dtype == _m.get_default_dtype()
    assert _m.mul(2, 3).tolist() == 6 and _m.sub(2, 3).dtype == _m.int64
    with pytest.raises(RuntimeError, match="Boolean alpha only supported for Boolean results"):
        _m.add(1, 1, alpha=True)


def test_deprecated_alpha_overload():
    import warnings
    import minitorch as _m
    with warnings.catch_warnings(record=True) as ws:
        warnings.simplefilter("always")
        r = _m.add(_m.tensor([1.0, 2.0]), 2, _m.tensor([1.0, 1.0]))
    assert r.tolist() == [3.0, 4.0]
    assert any("This overload of add is deprecated" in str(w.message) for w in ws)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert _m.tensor([1.0, 2.0]).sub(2, _m.tensor([1.0, 1.0])).tolist() == [-1.0, 0.0]
        assert _m.add(_m.tensor(True), _m.tensor(True), True).item() is True
    with pytest.raises(TypeError, match="positional"):
        _m.add(_m.ones(2), _m.ones(2), _m.ones(2))


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("e", [2, 3, 0.5, -0.5, -1, -2, 2.0, -1.0, 4, 1.5])
def test_pow_by_scalar_exponents_as_torch(dtype, e):
    # Note [Powers by a scalar]: 2, 3, 0.5, -0.5, -1, -2 run as square/cube/sqrt/rsqrt/reciprocal
    # with torch's roundings and special values (checked against torch 2.15: the same bits, NaN
    # signs aside)
    v = np.array([0.0, -0.0, 1.5, -2.25, 3e-20, 1e20, -1e30, np.inf, -np.inf, np.nan, 7.0, -0.5],
                 dtype=dtype)
    with np.errstate(all="ignore"):
        want = {2: v * v, 3: v * v * v, 0.5: np.sqrt(v), -0.5: 1 / np.sqrt(v), -1: 1 / v,
                -2: 1 / (v * v)}.get(e, np.power(v, dtype(e)))
    got = torch.tensor(v).pow(e)
    assert got.dtype == torch.tensor(v).dtype
    if e in (4, 1.5):          # libm's pow: within an ulp of NumPy's
        np.testing.assert_allclose(got.numpy(), want, rtol=2 * np.finfo(dtype).eps)
        return
    np.testing.assert_array_equal(got.numpy(), want)
    x = torch.tensor(v)
    x.pow_(e)
    np.testing.assert_array_equal(x.numpy(), want)
    out = torch.empty(len(v), dtype=torch.float64)
    torch.pow(torch.tensor(v), e, out=out)
    np.testing.assert_array_equal(out.numpy(), want.astype(np.float64))


def test_pow_by_scalar_keeps_its_derivative():
    x = torch.tensor([0.5, 2.0, 3.0], dtype=torch.float64, requires_grad=True)
    for e in (2, 3, 0.5, -0.5, -1, -2):
        (g,) = torch.autograd.grad(x.pow(e).sum(), x)
        np.testing.assert_allclose(g.numpy(), e * x.detach().numpy() ** (e - 1), rtol=1e-12)
        assert x.pow(e).grad_fn.name() == "PowBackward0"


def test_tanh_float32_accuracy_and_special_values():
    # Note [Vectorisable tanhf]: within 2 ulp of the float64 tanh rounded, over the polynomial
    # range, the crossover at 0.625, the exp range and saturation; odd (-0 stays -0); NaN/inf
    x = np.concatenate([np.linspace(-12, 12, 200001), np.logspace(-40, 2, 20000),
                        -np.logspace(-40, 2, 20000),
                        [0.625, -0.625, 0.62499994, 44, 45, 88, 89, 1e30, -1e30]]).astype(np.float32)
    got = torch.tensor(x).tanh().numpy().astype(np.float64)
    ref = np.tanh(x.astype(np.float64))
    ulp = np.spacing(np.abs(ref).astype(np.float32)).astype(np.float64)
    assert np.max(np.abs(got - ref) / ulp) <= 2.0
    s = torch.tensor([0.0, -0.0, np.inf, -np.inf, np.nan], dtype=torch.float32).tanh().numpy()
    assert list(np.signbit(s[:2])) == [False, True]
    assert s[2] == 1.0 and s[3] == -1.0 and np.isnan(s[4])
