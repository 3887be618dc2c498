"""Type promotion: promote_types, result_type (dim / 0-d / Python-number operands), can_cast,
the dtype every op computes in, and out=/in-place casting rules -- all as torch."""
import itertools

import numpy as np
import pytest

import minitorch as torch

B, U8, I8, I16, I32, I64 = torch.bool, torch.uint8, torch.int8, torch.int16, torch.int32, torch.int64
F16, BF16, F32, F64 = torch.float16, torch.bfloat16, torch.float32, torch.float64
DTYPES = [B, U8, I8, I16, I32, I64, F16, BF16, F32, F64]
INTS = [U8, I8, I16, I32, I64]
FLOATS = [F16, BF16, F32, F64]

# torch's promotion table (torch/_prims_common and c10/core/ScalarType.cpp), rows/cols in DTYPES order
_N = {"b1": B, "u1": U8, "i1": I8, "i2": I16, "i4": I32, "i8": I64, "f2": F16, "bf": BF16,
      "f4": F32, "f8": F64}
_TABLE = """
    b1 u1 i1 i2 i4 i8 f2 bf f4 f8
b1  b1 u1 i1 i2 i4 i8 f2 bf f4 f8
u1  u1 u1 i2 i2 i4 i8 f2 bf f4 f8
i1  i1 i2 i1 i2 i4 i8 f2 bf f4 f8
i2  i2 i2 i2 i2 i4 i8 f2 bf f4 f8
i4  i4 i4 i4 i4 i4 i8 f2 bf f4 f8
i8  i8 i8 i8 i8 i8 i8 f2 bf f4 f8
f2  f2 f2 f2 f2 f2 f2 f2 f4 f4 f8
bf  bf bf bf bf bf bf f4 bf f4 f8
f4  f4 f4 f4 f4 f4 f4 f4 f4 f4 f8
f8  f8 f8 f8 f8 f8 f8 f8 f8 f8 f8
"""
PROMOTE = {}
_rows = [r.split() for r in _TABLE.strip().splitlines()]
for _r in _rows[1:]:
    for _c, _v in zip(_rows[0], _r[1:]):
        PROMOTE[_N[_r[0]], _N[_c]] = _N[_v]


def _cat(dt):
    return 0 if dt == B else 2 if dt in FLOATS else 1


def _promote(a, b):
    if a is None:
        return b
    if b is None:
        return a
    return PROMOTE[a, b]


def _combine(higher, lower):
    """torch's combine_categories: a higher-priority group keeps its dtype unless the lower group
    is of a higher category (bool < integer < floating)."""
    if higher is None:
        return lower
    if lower is None:
        return higher
    if higher in FLOATS:
        return higher
    if higher == B or lower in FLOATS:
        return _promote(higher, lower)
    return higher


def ref_result_type(*operands):
    """Reference torch.result_type: operands are ('dim', dtype), ('zero', dtype) or Python numbers."""
    dim = zero = wrapped = None
    for op in operands:
        if isinstance(op, tuple):
            kind, dt = op
            if kind == "dim":
                dim = _promote(dim, dt)
            else:
                zero = _promote(zero, dt)
        else:
            dt = B if isinstance(op, bool) else I64 if isinstance(op, int) else torch.get_default_dtype()
            wrapped = _promote(wrapped, dt)
    return _combine(dim, _combine(zero, wrapped))


def _make(op):
    if isinstance(op, tuple):
        kind, dt = op
        return torch.ones(2, 3, dtype=dt) if kind == "dim" else torch.ones((), dtype=dt)
    return op


@pytest.fixture
def default_float64():
    old = torch.get_default_dtype()
    torch.set_default_dtype(torch.float64)
    yield
    torch.set_default_dtype(old)


# ---- promote_types / can_cast ---------------------------------------------------------

@pytest.mark.parametrize("a,b", list(itertools.product(DTYPES, DTYPES)))
def test_promote_types_table(a, b):
    assert torch.promote_types(a, b) == PROMOTE[a, b]
    assert PROMOTE[a, b] == PROMOTE[b, a]


def test_can_cast_is_by_category():
    for a, b in itertools.product(DTYPES, DTYPES):
        assert torch.can_cast(a, b) == (_cat(a) <= _cat(b)), (a, b)


def test_promote_types_bad_arguments():
    with pytest.raises(TypeError):
        torch.promote_types(1, torch.int32)
    with pytest.raises(TypeError):
        torch.promote_types(torch.int32)
    with pytest.raises(TypeError):
        torch.can_cast("float", torch.int32)


# ---- result_type -----------------------------------------------------------------------

OPERANDS = ([("dim", d) for d in DTYPES] + [("zero", d) for d in DTYPES] + [True, 3, 2.5])


@pytest.mark.parametrize("a", OPERANDS, ids=str)
def test_result_type_against_reference(a):
    for b in OPERANDS:
        if not isinstance(a, tuple) and not isinstance(b, tuple):
            continue
        want = ref_result_type(a, b)
        assert torch.result_type(_make(a), _make(b)) == want, (a, b)
        assert torch.result_type(_make(b), _make(a)) == want, (b, a)


def test_result_type_follows_default_dtype(default_float64):
    for a in OPERANDS:
        if isinstance(a, tuple):
            for b in (2.5, 3, True):
                assert torch.result_type(_make(a), b) == ref_result_type(a, b), (a, b)
    assert torch.result_type(torch.ones(2, dtype=I32), 2.5) == F64
    assert torch.result_type(torch.ones(2, dtype=F32), 2.5) == F32


@pytest.mark.parametrize("x,y,want", [
    (torch.ones(3, dtype=I32), 2.5, F32),                       # scalar float: default dtype
    (torch.ones(3, dtype=U8), 1000, U8),                        # scalars do not upcast within ints
    (torch.ones(3, dtype=F16), 2.5, F16),
    (torch.ones(3, dtype=BF16), 2.5, BF16),
    (torch.ones(3, dtype=I32), torch.tensor(1.0, dtype=F64), F64),  # 0-d of higher category
    (torch.ones(3, dtype=I32), torch.tensor(1, dtype=I64), I32),    # 0-d of same category
    (torch.ones(3, dtype=F16), torch.tensor(1.0, dtype=F64), F16),
    (torch.ones(3, dtype=I64), torch.ones(3, dtype=F16), F16),      # dim tensors: promote_types
    (torch.ones(3, dtype=B), torch.ones(3, dtype=B), B),
    (torch.ones(3, dtype=B), 5, I64),
    (torch.ones(3, dtype=B), True, B),
    (torch.ones(3, dtype=B), torch.tensor(1, dtype=U8), U8),
    (torch.tensor(1, dtype=I32), 2.5, F32),
    (torch.tensor(1, dtype=F64), 2.5, F64),
    (torch.tensor(1, dtype=I8), torch.tensor(1, dtype=U8), I16),
    (5, torch.ones(3, dtype=I8), I8),
])
def test_result_type_documented_cases(x, y, want):
    assert torch.result_type(x, y) == want
    assert (x + y).dtype == want
    assert (y * x).dtype == want


def test_result_type_bad_arguments():
    with pytest.raises(TypeError, match="result_type"):
        torch.result_type("a", torch.ones(2))
    with pytest.raises(TypeError):
        torch.result_type(torch.ones(2))


# ---- the dtype each op computes in ------------------------------------------------------

def _np(t):
    if t.dtype == BF16:
        return t.float().numpy()
    return t.numpy()


NP = {B: np.bool_, U8: np.uint8, I8: np.int8, I16: np.int16, I32: np.int32, I64: np.int64,
      F16: np.float16, F32: np.float32, F64: np.float64}


@pytest.mark.parametrize("a,b", list(itertools.product(DTYPES, DTYPES)))
def test_add_mul_values_in_promoted_dtype(a, b):
    x = torch.tensor([[0, 1, 2], [3, 100, 7]]).to(a)
    y = torch.tensor([1, 0, 5]).to(b)
    want = PROMOTE[a, b]
    for f, nf in [(torch.add, np.add), (torch.mul, np.multiply)]:
        r = f(x, y)
        assert r.dtype == want
        if want == BF16:
            continue
        expect = nf(_np(x).astype(NP[want]), _np(y).astype(NP[want]))
        np.testing.assert_array_equal(_np(r), expect)


def test_uint8_plus_large_scalar_wraps():
    r = torch.tensor([1, 2, 255], dtype=U8) + 1000  # 1000 -> uint8 232
    assert r.dtype == U8
    assert r.tolist() == [233, 234, 231]


def test_int8_scalar_wraps_in_tensor_dtype():
    assert (torch.tensor([1], dtype=I8) + 200).tolist() == [-55]


@pytest.mark.parametrize("dt", INTS + [B])
def test_true_division_of_integers_gives_default_float(dt):
    x = torch.tensor([1, 0, 1]).to(dt)
    y = torch.tensor([2, 1, 1]).to(dt)
    assert (x / y).dtype == F32
    assert torch.div(x, 2).dtype == F32
    assert (3 / torch.ones(2, dtype=dt)).dtype == F32
    assert torch.atan2(x, y).dtype == F32
    np.testing.assert_allclose((x / y).numpy(), _np(x).astype(float) / _np(y).astype(float), rtol=1e-6)


@pytest.mark.parametrize("dt", INTS)
def test_true_division_follows_default_dtype(dt, default_float64):
    x = torch.ones(3, dtype=dt)
    assert (x / x).dtype == F64
    assert (x / 3).dtype == F64
    assert torch.sqrt(x).dtype == F64
    assert (x + 0.5).dtype == F64


@pytest.mark.parametrize("dt", INTS + [B])
def test_float_only_unary_promote_integers(dt):
    x = torch.tensor([0, 1, 1]).to(dt)
    for name in ["exp", "expm1", "log", "log1p", "log2", "log10", "sqrt", "rsqrt", "sin", "cos",
                 "tan", "tanh", "sigmoid", "erf", "reciprocal"]:
        assert getattr(torch, name)(x).dtype == F32, name


@pytest.mark.parametrize("dt", INTS)
def test_integer_preserving_unary(dt):
    x = torch.tensor([0, 1, 2]).to(dt)
    for name in ["neg", "abs", "sign", "square", "relu", "floor", "ceil", "round", "trunc",
                 "bitwise_not"]:
        assert getattr(torch, name)(x).dtype == dt, name
    for name in ["isnan", "isinf", "isfinite", "logical_not"]:
        assert getattr(torch, name)(x).dtype == B, name


@pytest.mark.parametrize("a,b", list(itertools.product(DTYPES, DTYPES)))
def test_comparisons_and_logical_give_bool(a, b):
    x = torch.ones(2, dtype=a)
    y = torch.zeros(2, dtype=b)
    for name in ["eq", "ne", "lt", "le", "gt", "ge", "logical_and", "logical_or", "logical_xor"]:
        assert getattr(torch, name)(x, y).dtype == B


def test_bool_arithmetic_rules():
    t, f = torch.tensor([True, False, True]), torch.tensor([True, True, False])
    assert (t + f).dtype == B and (t + f).tolist() == [True, True, True]
    assert (t * f).dtype == B and (t * f).tolist() == [True, False, False]
    assert (t + 1).dtype == I64 and (t + 1).tolist() == [2, 1, 2]
    assert (t * 2.5).dtype == F32
    with pytest.raises(RuntimeError, match="Subtraction, the `-` operator, with two bool tensors"):
        t - f
    with pytest.raises(RuntimeError, match="Subtraction, the `-` operator, with two bool tensors"):
        t - True
    with pytest.raises(RuntimeError, match="Negation, the `-` operator, on a bool tensor"):
        -t
    # one bool operand is enough (torch's sub_check); NotImplementedError is a RuntimeError
    for a, b in [(t, 1), (1, t), (torch.ones(3), t), (t, torch.ones(3)), (torch.ones(3), True)]:
        with pytest.raises(NotImplementedError, match="Subtraction, the `-` operator, with a bool tensor"):
            a - b


# ---- out= and in-place casting ---------------------------------------------------------

@pytest.mark.parametrize("dt,other,res", [
    (I64, 2.5, "Float"), (I32, torch.ones(3), "Float"), (U8, torch.ones(3, dtype=F64), "Double"),
    (B, 1, "Long"), (B, torch.ones(3, dtype=U8), "Byte"), (I16, torch.ones((), dtype=F16), "Half"),
])
def test_inplace_needing_wider_category_raises(dt, other, res):
    x = torch.zeros(3, dtype=dt)
    want = f"result type {res} can't be cast to the desired output type"
    with pytest.raises(RuntimeError, match=want):
        x.add_(other)
    with pytest.raises(RuntimeError, match=want):
        x += other
    with pytest.raises(RuntimeError, match=want):
        x.mul_(other)
    assert x.tolist() == [0] * 3  # nothing written


def test_inplace_true_division_of_integers_raises():
    x = torch.tensor([4, 6])
    with pytest.raises(RuntimeError, match="result type Float can't be cast to the desired output type Long"):
        x /= 2
    with pytest.raises(RuntimeError, match="result type Float can't be cast to the desired output type Long"):
        x.div_(x)
    with pytest.raises(RuntimeError, match="result type Float can't be cast to the desired output type Int"):
        torch.ones(2, dtype=I32).sqrt_()
    assert x.tolist() == [4, 6]
    x //= 4
    assert x.tolist() == [1, 1]
    x.div_(2, rounding_mode="floor")
    assert x.tolist() == [0, 0]


def test_inplace_within_category_narrows():
    x = torch.tensor([1, 2, 3], dtype=I32)
    x += torch.tensor([2 ** 33 + 1, 1, 1])  # int64 result cast (wrapping) to int32
    assert x.dtype == I32 and x.tolist() == [2, 3, 4]
    f = torch.tensor([1.0, 2.0], dtype=F16)
    f *= torch.tensor([2.0, 0.5], dtype=F64)
    assert f.dtype == F16 and f.tolist() == [2.0, 1.0]
    g = torch.zeros(2)
    g += torch.tensor([1, 2])
    assert g.dtype == F32 and g.tolist() == [1.0, 2.0]


def test_out_dtype_rules():
    x = torch.tensor([1, 2])
    out = torch.empty(2, dtype=F64)
    assert torch.add(x, 0.5, out=out) is out
    assert out.tolist() == [1.5, 2.5]
    lout = torch.empty(2, dtype=I64)
    with pytest.raises(RuntimeError, match="result type Float can't be cast to the desired output type Long"):
        torch.add(x, 0.5, out=lout)
    with pytest.raises(RuntimeError, match="result type Float can't be cast to the desired output type Long"):
        torch.div(x, x, out=lout)
    # a comparison writes bool, which casts to anything
    fout = torch.empty(2)
    torch.gt(x, 1, out=fout)
    assert fout.tolist() == [0.0, 1.0]
    bout = torch.empty(2, dtype=B)
    with pytest.raises(RuntimeError, match="result type Long can't be cast to the desired output type Bool"):
        torch.add(x, 1, out=bout)
    with pytest.raises(RuntimeError, match="result type Float can't be cast to the desired output type Long"):
        torch.exp(x, out=lout)
