"""Python operators on tensors: every binary operator with its reflected and in-place forms,
unary operators, comparisons returning tensors, hashing by identity, and bool()/int()/float()
/index() conversions -- compared with NumPy and with torch's rules."""
import math
import operator

import numpy as np
import pytest

import minitorch as torch

F32, F64, I64, I32, U8, B = torch.float32, torch.float64, torch.int64, torch.int32, torch.uint8, torch.bool


def np_of(t):
    return t.numpy()


# operator, in-place operator, NumPy function, operand kind
ARITH = [
    (operator.add, operator.iadd, np.add, "any"),
    (operator.sub, operator.isub, np.subtract, "any"),
    (operator.mul, operator.imul, np.multiply, "any"),
    (operator.truediv, operator.itruediv, np.true_divide, "nonzero"),
    (operator.floordiv, operator.ifloordiv, np.floor_divide, "nonzero"),
    (operator.mod, operator.imod, np.remainder, "nonzero"),
    (operator.pow, operator.ipow, np.power, "pow"),
]
BITWISE = [
    (operator.and_, operator.iand, np.bitwise_and),
    (operator.or_, operator.ior, np.bitwise_or),
    (operator.xor, operator.ixor, np.bitwise_xor),
    (operator.lshift, operator.ilshift, np.left_shift),
    (operator.rshift, operator.irshift, np.right_shift),
]
COMPARE = [(operator.eq, np.equal), (operator.ne, np.not_equal), (operator.lt, np.less),
           (operator.le, np.less_equal), (operator.gt, np.greater), (operator.ge, np.greater_equal)]


def _operands(kind, dt):
    a = np.array([[3, -4, 5], [7, 2, -9]])
    b = np.array([2, 3, -2])
    if kind == "pow":
        a, b = np.array([[3, -2, 5], [1, 2, -1]]), np.array([2, 3, 0])
    if dt == F64:
        a, b = a * 1.5, b * 0.5
    return a.astype(np.int64 if dt == I64 else np.float64), b.astype(np.int64 if dt == I64 else np.float64)


@pytest.mark.parametrize("op,iop,nf,kind", ARITH, ids=lambda v: getattr(v, "__name__", str(v)))
@pytest.mark.parametrize("dt", [I64, F64], ids=str)
def test_arithmetic_operators(op, iop, nf, kind, dt):
    a, b = _operands(kind, dt)
    x, y = torch.tensor(a), torch.tensor(b)
    with np.errstate(all="ignore"):
        want = nf(a.astype(np.float64), b.astype(np.float64)) if op is operator.truediv else nf(a, b)
    # tensor-tensor (broadcasting), tensor-scalar, scalar-tensor (reflected)
    r = op(x, y)
    assert isinstance(r, torch.Tensor)
    rtol = 1e-7 if (op is operator.truediv and dt == I64) else 1e-12  # int / int is float32
    np.testing.assert_allclose(np_of(r), want, rtol=rtol)
    s = b[1].item()
    with np.errstate(all="ignore"):
        np.testing.assert_allclose(np_of(op(x, s)), nf(a.astype(np.float64), s) if op is operator.truediv else nf(a, s), rtol=rtol)
    if not (op is operator.pow and dt == I64):  # int ** negative-int tensor: see test_elementwise
        sa = a[0, 0].item()
        with np.errstate(all="ignore"):
            rw = nf(np.float64(sa), b.astype(np.float64)) if op is operator.truediv else nf(sa, b)
        np.testing.assert_allclose(np_of(op(sa, y)), rw, rtol=rtol)
    # in place: same object, values as the out-of-place op
    if op is operator.truediv and dt == I64:
        z = x.clone()
        with pytest.raises(RuntimeError, match="result type Float can't be cast to the desired output type Long"):
            iop(z, y)
        return
    z = x.clone()
    z2 = iop(z, y)
    assert z2 is z
    np.testing.assert_allclose(np_of(z), want, rtol=1e-12)
    z = x.clone()
    assert iop(z, s) is z
    w = x.clone()
    with pytest.raises(RuntimeError):
        iop(y.clone(), x)  # the broadcast shape [2, 3] is not y's shape [3]
    assert torch.equal(w, x)


def test_reflected_true_division_is_reciprocal_times_number():
    # torch's __rtruediv__ is self.reciprocal() * other: rounded twice
    rng = np.random.default_rng(3)
    v = rng.uniform(0.1, 100, 5000).astype(np.float32)
    x = torch.from_numpy(v)
    for s in [3, 0.3, -7.5]:
        want = (np.float32(1) / v) * np.float32(s)
        np.testing.assert_array_equal((s / x).numpy(), want)
    i = torch.tensor([1, 2, 0, -4])
    r = 3 / i
    assert r.dtype == F32 and r.tolist()[:2] == [3.0, 1.5] and r[2].item() == math.inf
    assert (0 / torch.tensor([0.0])).isnan().all()
    assert (2 / torch.tensor([True, False])).tolist() == [2.0, math.inf]


def test_reflected_operators_with_python_numbers():
    t = torch.tensor([1.0, 2.0, 4.0])
    assert (1 - t).tolist() == [0.0, -1.0, -3.0]
    assert (2 ** t).tolist() == [2.0, 4.0, 16.0]
    assert (1 / t).tolist() == [1.0, 0.5, 0.25]
    assert (3 + t).tolist() == [4.0, 5.0, 7.0]
    assert (3 * t).tolist() == [3.0, 6.0, 12.0]
    assert (9 // t).tolist() == [9.0, 4.0, 2.0]
    assert (9 % t).tolist() == [0.0, 1.0, 1.0]
    i = torch.tensor([1, 2, 3])
    assert (1 & i).tolist() == [1, 0, 1]
    assert (4 | i).tolist() == [5, 6, 7]
    assert (1 ^ i).tolist() == [0, 3, 2]
    assert (1 << i).tolist() == [2, 4, 8]
    assert (64 >> i).tolist() == [32, 16, 8]
    assert (2 ** i).dtype == I64 and (2.5 ** i).dtype == F32
    assert (True + torch.tensor([True, False])).tolist() == [True, True]
    with pytest.raises(RuntimeError, match="Subtraction, the `-` operator, with a bool tensor"):
        1 - torch.tensor([True, False])
    # the reflected forms keep the scalar as the left operand
    assert (10 - i).tolist() == [9, 8, 7]
    assert (7 % torch.tensor([-3, 3])).tolist() == [-2, 1]


@pytest.mark.parametrize("op,iop,nf", BITWISE, ids=lambda v: getattr(v, "__name__", str(v)))
@pytest.mark.parametrize("dt", [U8, I32, I64, B], ids=str)
def test_bitwise_operators(op, iop, nf, dt):
    if dt == B and op in (operator.lshift, operator.rshift):
        with pytest.raises(RuntimeError, match="not implemented for 'Bool'"):
            op(torch.tensor([True]), torch.tensor([True]))
        return
    rng = np.random.default_rng(0)
    npdt = {U8: np.uint8, I32: np.int32, I64: np.int64, B: np.bool_}[dt]
    if dt == B:
        a, b = rng.random((3, 4)) < 0.5, rng.random(4) < 0.5
    else:
        a = rng.integers(0, 100, (3, 4)).astype(npdt)
        b = rng.integers(0, 7, 4).astype(npdt)
    x, y = torch.from_numpy(a), torch.from_numpy(b)
    np.testing.assert_array_equal(np_of(op(x, y)), nf(a, b))
    z = x.clone()
    assert iop(z, y) is z
    np.testing.assert_array_equal(np_of(z), nf(a, b))
    with pytest.raises(RuntimeError, match="not implemented for 'Float'"):
        op(torch.ones(2), torch.ones(2))
    with pytest.raises(RuntimeError, match="not implemented for 'Float'"):
        op(torch.ones(2), 1)


@pytest.mark.parametrize("op,nf", COMPARE, ids=lambda v: getattr(v, "__name__", str(v)))
def test_comparisons_return_tensors(op, nf):
    a = np.array([[1.0, 2.0, math.nan], [4.0, -1.0, 0.0]])
    b = np.array([1.0, 3.0, math.nan])
    x, y = torch.tensor(a), torch.tensor(b)
    r = op(x, y)
    assert isinstance(r, torch.Tensor) and r.dtype == B and r.shape == (2, 3)
    np.testing.assert_array_equal(np_of(r), nf(a, b))
    np.testing.assert_array_equal(np_of(op(x, 2.0)), nf(a, 2.0))
    np.testing.assert_array_equal(np_of(op(2.0, x)), nf(2.0, a))  # reflected
    np.testing.assert_array_equal(np_of(op(x, torch.tensor(2))), nf(a, 2))


def test_eq_with_foreign_objects():
    x = torch.tensor([1.0, 2.0])
    assert (x == None) is False  # noqa: E711
    assert (x != None) is True  # noqa: E711
    assert (x == "a") is False
    assert x.__eq__(None) is NotImplemented
    with pytest.raises(TypeError):
        x < None
    with pytest.raises(TypeError):
        x + "a"
    with pytest.raises(TypeError):
        "a" * x
    with pytest.raises(TypeError):
        x + [1, 2]
    y = x
    with pytest.raises(TypeError):
        y += None
    assert y is x
    with pytest.raises(TypeError):
        y *= "a"

    class Other:
        def __radd__(self, t):
            return "radd"

    z = x
    z += Other()
    assert z == "radd"
    with pytest.raises(TypeError):
        divmod(x, 2)


def test_unary_operators():
    x = torch.tensor([-1.5, 0.0, 2.0])
    assert (-x).tolist() == [1.5, -0.0, -2.0]
    assert (+x).tolist() == x.tolist()
    assert abs(x).tolist() == [1.5, 0.0, 2.0]
    i = torch.tensor([0, 5, -3])
    assert (~i).tolist() == [-1, -6, 2]
    assert (~torch.tensor([True, False])).tolist() == [False, True]
    assert (-i).tolist() == [0, -5, 3]
    assert (~torch.tensor([1], dtype=U8)).tolist() == [254]
    with pytest.raises(TypeError, match="only implemented on integer and Boolean-type tensors"):
        ~x
    with pytest.raises(RuntimeError, match="Negation, the `-` operator, on a bool tensor is not supported"):
        -torch.tensor([True])


def test_hash_is_identity():
    a = torch.tensor([1.0, 2.0])
    b = torch.tensor([1.0, 2.0])
    assert hash(a) == hash(a)
    assert hash(a) != hash(b)
    d = {a: "a", b: "b"}
    assert d[a] == "a" and d[b] == "b"
    assert len({a, b, a}) == 2
    a += 1  # in place: the same object, the same hash
    assert d[a] == "a"
    assert a in [a] and a in {a}
    assert hash(a.view(2)) != hash(a)


def test_bool_rules():
    assert bool(torch.tensor([1.0])) is True
    assert bool(torch.tensor(0)) is False
    assert bool(torch.tensor([[True]])) is True
    assert bool(torch.tensor(math.nan)) is True
    assert not torch.tensor([0.0])
    with pytest.raises(RuntimeError, match="Boolean value of Tensor with more than one value is ambiguous"):
        bool(torch.tensor([1, 2]))
    with pytest.raises(RuntimeError, match="Boolean value of Tensor with no values is ambiguous"):
        bool(torch.tensor([]))
    with pytest.raises(RuntimeError, match="Boolean value of Tensor with more than one value is ambiguous"):
        if torch.ones(2) == torch.ones(2):
            pass
    assert (torch.tensor([1, 2]) == torch.tensor([1, 2])).all()
    assert torch.tensor([2]) in [torch.tensor([1]), torch.tensor([2])]  # list membership uses ==


def test_number_conversions():
    assert int(torch.tensor([3.7])) == 3 and float(torch.tensor([2])) == 2.0
    assert operator.index(torch.tensor(3)) == 3
    assert [10, 20, 30][torch.tensor(1)] == 20
    with pytest.raises(TypeError, match="only integer tensors of a single element can be converted to an index"):
        operator.index(torch.tensor(3.0))
    with pytest.raises(TypeError):
        operator.index(torch.tensor([1, 2]))
    with pytest.raises(ValueError, match="only one element tensors can be converted to Python scalars"):
        int(torch.tensor([1, 2]))
    with pytest.raises(ValueError, match="only one element tensors can be converted to Python scalars"):
        float(torch.tensor([]))
    assert len(torch.ones(4, 2)) == 4
    with pytest.raises(TypeError, match="len\\(\\) of a 0-d tensor"):
        len(torch.tensor(1.0))


def test_inplace_operator_rules():
    x = torch.tensor([1, 2, 3])
    ref = x
    x += 1
    x *= 2
    x -= torch.tensor([1, 1, 1])
    x //= 2
    x %= 3
    x **= 2
    x <<= 1
    x >>= 1
    x &= 7
    x |= 8
    x ^= 1
    assert x is ref
    v = np.array([1, 2, 3])
    v = ((v + 1) * 2 - 1) // 2 % 3
    v = (v ** 2 << 1 >> 1 & 7 | 8) ^ 1
    assert x.tolist() == v.tolist()
    with pytest.raises(RuntimeError, match="result type Float can't be cast to the desired output type Long"):
        x /= 2
    with pytest.raises(RuntimeError, match="result type Float can't be cast to the desired output type Long"):
        x += 0.5
    with pytest.raises(RuntimeError, match="result type Float can't be cast to the desired output type Long"):
        x **= 0.5
    f = torch.tensor([1.0, 2.0])
    f += torch.tensor([1, 1])  # ints fit in a float tensor
    f /= 2
    assert f.tolist() == [1.0, 1.5]
    base = torch.zeros(2, 3)
    view = base[:, 1]
    view += 5  # writes through the view
    assert base.tolist() == [[0.0, 5.0, 0.0], [0.0, 5.0, 0.0]]
    b = torch.tensor([True, False])
    b |= torch.tensor([False, True])
    assert b.tolist() == [True, True]
    with pytest.raises(RuntimeError, match="result type Long can't be cast to the desired output type Bool"):
        b += 1


def test_operators_on_0d_and_empty():
    s = torch.tensor(3.0)
    assert (s + 1).shape == () and (s * s).item() == 9.0
    assert (1 - s).item() == -2.0 and (s > 2).item() is True
    e = torch.ones(0, 4)
    assert (e + 1).shape == (0, 4) and (e == e).shape == (0, 4)
    assert (e + torch.ones(4)).shape == (0, 4)
    with pytest.raises(RuntimeError, match="The size of tensor a"):
        e + torch.ones(3)


# ---- NumPy operands ----------------------------------------------------------------------

def test_tensor_op_ndarray_takes_the_array_as_a_tensor():
    t = torch.ones(2)
    r = t + np.array([1.0, 2.0])
    assert isinstance(r, torch.Tensor) and r.dtype == torch.float64 and r.tolist() == [2.0, 3.0]
    assert (t * np.arange(2, dtype=np.int32)).dtype == torch.float32
    assert (t > np.zeros(2)).tolist() == [True, True]
    t += np.ones(2)
    assert t.tolist() == [2.0, 2.0]
    with pytest.raises(RuntimeError, match="must match the size"):
        t + np.ones(3)
    with pytest.raises(TypeError, match="can't convert np.ndarray"):
        t + np.array(["a"])


def test_numpy_defers_to_tensors():
    t = torch.ones(2)
    r = np.float64(2.0) * t
    assert isinstance(r, torch.Tensor) and r.dtype == torch.float32 and r.tolist() == [2.0, 2.0]
    assert isinstance(np.int64(3) + t, torch.Tensor)
    # torch: ndarray <op> tensor fails; here it is the tensor operation (see test_numpy_ufuncs.py)
    assert (np.ones(2) + t).tolist() == [2.0, 2.0]


# ---- reflected operators record torch's graph (Note [Reflected operators]) ----------------
def _graph(t):
    fn = t.grad_fn
    return type(fn).__name__, [None if n is None else type(n).__name__ for n, _ in fn.next_functions]


def test_reflected_operators_record_torchs_graph():
    b = torch.ones(2, requires_grad=True) * 1
    # (expression, torch 2.15's node and next_functions)
    assert _graph(2 * b) == ("MulBackward0", ["MulBackward0", None])
    assert _graph(b * 2) == ("MulBackward0", ["MulBackward0", None])
    assert _graph(1 + b) == ("AddBackward0", ["MulBackward0", None])
    assert _graph(1.5 + b) == ("AddBackward0", ["MulBackward0", None])
    assert _graph(2 / b) == ("MulBackward0", ["ReciprocalBackward0", None])
    assert _graph(b.__rtruediv__(2)) == ("MulBackward0", ["ReciprocalBackward0", None])
    assert _graph(b.__radd__(1)) == ("AddBackward0", ["MulBackward0", None])
    assert _graph(b.__rmul__(3)) == ("MulBackward0", ["MulBackward0", None])


def test_reflected_operators_values_and_gradients():
    x = torch.tensor([0.0, -0.0, 3.0], requires_grad=True)
    r = 1 / x
    r.sum().backward()
    # torch: the gradient of reciprocal is -grad * r * r (float32 rounding of r first)
    assert r.tolist() == [math.inf, -math.inf, 0.3333333432674408]
    assert x.grad.tolist() == [-math.inf, -math.inf, -0.111111119389534]
    for dt in (torch.int64, torch.uint8, torch.bool, torch.float16):
        t = torch.tensor([1, 0, 3]).to(dt)
        assert (2 * t).tolist() == (t * 2).tolist() and (2 * t).dtype == (t * 2).dtype
        assert (1.5 + t).tolist() == (t + 1.5).tolist() and (1.5 + t).dtype == (t + 1.5).dtype
    assert (2 / torch.tensor([1, 2, 3])).tolist() == [2.0, 1.0, 0.6666666865348816]
    assert (2 / torch.tensor([1, 2, 3])).dtype == torch.float32
    assert (2 / torch.tensor([True, False])).tolist() == [2.0, math.inf]
    assert ((1 + 2j) / torch.tensor([1.0, 2.0])).tolist() == [(1 + 2j), (0.5 + 1j)]
    assert (-3 * torch.tensor([1, 2], dtype=torch.uint8)).tolist() == [253, 250]
