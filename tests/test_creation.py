"""Factories: empty/zeros/ones/full/*_like, arange, range, linspace, logspace, eye, tensor, as_tensor."""
import math
import warnings

import numpy as np
import pytest

import minitorch as torch

DTYPES = [torch.bool, torch.uint8, torch.int8, torch.int16, torch.int32, torch.int64,
          torch.float16, torch.bfloat16, torch.float32, torch.float64]


@pytest.fixture
def default_dtype():
    saved = torch.get_default_dtype()
    yield
    torch.set_default_dtype(saved)


# ---- empty / zeros / ones / full ------------------------------------------------------------

@pytest.mark.parametrize("fn,value", [(torch.zeros, 0), (torch.ones, 1)])
@pytest.mark.parametrize("dt", DTYPES, ids=str)
def test_zeros_ones(fn, value, dt):
    t = fn(2, 3, dtype=dt)
    assert t.shape == (2, 3) and t.dtype is dt and t.is_contiguous()
    assert t.tolist() == [[bool(value) if dt is torch.bool else value] * 3] * 2


@pytest.mark.parametrize("fn", [torch.empty, torch.zeros, torch.ones])
def test_size_forms(fn):
    assert fn(2, 3).shape == (2, 3)
    assert fn((2, 3)).shape == (2, 3)
    assert fn([2, 3]).shape == (2, 3)
    assert fn(torch.Size([2, 3])).shape == (2, 3)
    assert fn(size=(2, 3)).shape == (2, 3)
    assert fn(()).shape == ()
    assert fn(0).shape == (0,)
    assert fn(4, 0, 2).numel() == 0
    assert fn(np.int64(3)).shape == (3,)
    assert fn(2, dtype=torch.float64).dtype is torch.float64
    assert fn(2).dtype is torch.float32


@pytest.mark.parametrize("fn", [torch.empty, torch.zeros, torch.ones])
@pytest.mark.parametrize("args,kwargs,exc,msg", [
    ((-1,), {}, RuntimeError, r"Trying to create tensor with negative dimension -1: \[-1\]"),
    ((2, -3), {}, RuntimeError, "negative dimension -3"),
    ((2, "a"), {}, TypeError, "must be int"),
    ((2.0,), {}, TypeError, "must be int"),
    (((2, 3.5),), {}, TypeError, "must be int"),
    ((2,), {"dtype": "float"}, TypeError, "dtype"),
    ((2,), {"bogus": 1}, TypeError, "unexpected keyword argument 'bogus'"),
    ((2,), {"out": [0.0, 0.0]}, TypeError, "'out' must be Tensor"),
    ((2,), {"out": torch.zeros(2), "dtype": torch.int64}, RuntimeError,
     r"dtype int64 does not match dtype of out parameter \(float32\)"),
    ((2,), {"device": "nope"}, RuntimeError, "device"),
])
def test_sized_factories_bad_input(fn, args, kwargs, exc, msg):
    with pytest.raises(exc, match=msg):
        fn(*args, **kwargs)


def test_empty_is_usable_memory():
    t = torch.empty(1000)
    t.fill_(2.0)
    assert t.tolist() == [2.0] * 1000
    assert torch.empty(3, dtype=torch.int8).element_size() == 1


@pytest.mark.parametrize("value,dtype,expected_dtype", [
    (3, None, torch.int64), (3.0, None, torch.float32), (True, None, torch.bool),
    (1.5, torch.int32, torch.int32), (7, torch.float64, torch.float64),
    (np.float64(2.5), None, torch.float32),  # a Scalar fill value: the default dtype (as torch)
    (torch.tensor(4, dtype=torch.int16), None, torch.int16),
])
def test_full(value, dtype, expected_dtype):
    t = torch.full((2, 3), value, dtype=dtype)
    assert t.dtype is expected_dtype and t.shape == (2, 3)
    assert t.tolist() == np.full((2, 3), value if not isinstance(value, torch.Tensor) else value.item()).astype(
        {torch.int64: np.int64, torch.float32: np.float32, torch.bool: np.bool_, torch.int32: np.int32,
         torch.float64: np.float64, torch.int16: np.int16}[expected_dtype]).tolist()


def test_full_follows_default_dtype(default_dtype):
    torch.set_default_dtype(torch.float64)
    assert torch.full((1,), 1.0).dtype is torch.float64


@pytest.mark.parametrize("args,exc", [(((2,), "a"), TypeError), ((2, 1.0), TypeError), (((-1,), 1.0), RuntimeError),
                                      (((2,), None), TypeError), (((2,),), TypeError)])
def test_full_bad_input(args, exc):
    with pytest.raises(exc):
        torch.full(*args)


def test_like_factories():
    src = torch.arange(6, dtype=torch.int16).view(2, 3).t()
    for fn, value in [(torch.zeros_like, 0), (torch.ones_like, 1)]:
        t = fn(src)
        assert t.shape == (3, 2) and t.dtype is torch.int16 and t.device == src.device
        assert t.tolist() == [[value] * 2] * 3
        assert t.data_ptr() != src.data_ptr()
    assert torch.empty_like(src).shape == (3, 2)
    assert torch.full_like(src, 7).tolist() == [[7, 7]] * 3
    assert torch.full_like(src, 2.5, dtype=torch.float32).tolist() == [[2.5, 2.5]] * 3
    assert torch.zeros_like(src, dtype=torch.float64).dtype is torch.float64
    with pytest.raises(TypeError, match="Tensor"):
        torch.zeros_like([1, 2])
    with pytest.raises(RuntimeError):
        torch.ones_like(src, device="cuda")


def test_new_factories():
    src = torch.zeros(2, dtype=torch.int32)
    assert src.new_zeros(3).dtype is torch.int32 and src.new_ones((2, 2)).tolist() == [[1, 1], [1, 1]]
    assert src.new_full((2,), 5).tolist() == [5, 5]
    assert src.new_empty(4).shape == (4,)
    assert src.new_tensor([1.7, 2.2]).dtype is torch.int32
    assert src.new_tensor([1.7], dtype=torch.float32).tolist() == [pytest.approx(1.7)]


# ---- arange / range ----------------------------------------------------------------

@pytest.mark.parametrize("args", [
    (5,), (0,), (2, 9), (2, 9, 3), (10, 0, -3), (-5, 5, 2), (1, 1), (0, 7, 7), (0, 8, 7),
])
def test_arange_int(args):
    t = torch.arange(*args)
    assert t.dtype is torch.int64
    assert t.tolist() == np.arange(*args).tolist()


@pytest.mark.parametrize("args", [
    (5.0,), (0, 1, 0.1), (1, 2.5, 0.5), (1, 1.3, 0.1), (0, 0.3, 0.1), (-1, 1, 0.25), (3.0, 0.0, -0.5),
    (0.5, 10), (1e-3, 1e-2, 1e-3), (0, 1, 1 / 3),
])
def test_arange_float_length_rule(args):
    # torch: size = ceil((end - start) / step) computed in double, as numpy
    t = torch.arange(*args, dtype=torch.float64)
    start, end, step = (0.0, args[0], 1.0) if len(args) == 1 else (args + (1.0,))[:3]
    assert t.numel() == math.ceil((end - start) / step) == np.arange(*args).size
    np.testing.assert_allclose(t.numpy(), np.arange(*args, dtype=np.float64), rtol=0, atol=1e-12)
    assert torch.arange(*args).dtype is torch.float32
    np.testing.assert_allclose(torch.arange(*args).numpy(), np.arange(*args).astype(np.float32), rtol=1e-6)


@pytest.mark.parametrize("dt", [torch.uint8, torch.int8, torch.int16, torch.int32, torch.float16,
                                torch.bfloat16, torch.float64])
def test_arange_dtype(dt):
    t = torch.arange(2, 10, 2, dtype=dt)
    assert t.dtype is dt and t.tolist() == [2, 4, 6, 8]


def test_arange_keywords_and_tensor_args():
    assert torch.arange(start=1, end=4).tolist() == [1, 2, 3]
    assert torch.arange(0, 6, step=2).tolist() == [0, 2, 4]
    assert torch.arange(torch.tensor(3)).tolist() == [0, 1, 2]
    assert torch.arange(np.int64(2)).tolist() == [0, 1]


def test_arange_end_keyword_alone():
    assert torch.arange(end=3).tolist() == [0, 1, 2]


def test_arange_follows_default_dtype(default_dtype):
    torch.set_default_dtype(torch.float64)
    assert torch.arange(3.0).dtype is torch.float64
    assert torch.arange(3).dtype is torch.int64


@pytest.mark.parametrize("args,kwargs,exc,msg", [
    ((0, 10, 0), {}, RuntimeError, "step must be nonzero"),
    ((0, 1, 0.0), {}, RuntimeError, "step must be nonzero"),
    ((0, 10, -1), {}, RuntimeError, "upper bound and larger bound inconsistent with step sign"),
    ((10, 0), {}, RuntimeError, "upper bound and larger bound inconsistent with step sign"),
    ((-1,), {}, RuntimeError, "inconsistent with step sign"),
    ((float("inf"),), {}, RuntimeError, "unsupported range"),
    ((float("nan"),), {}, RuntimeError, "unsupported range"),
    (("a",), {}, TypeError, "number"),
    ((None,), {}, TypeError, "number"),
    ((), {}, TypeError, "missing"),
    ((5,), {"dtype": torch.bool}, RuntimeError, "Bool"),
    ((5,), {"out": torch.zeros(5, dtype=torch.bool)}, RuntimeError, "Bool"),
    ((5,), {"out": 3}, TypeError, "'out' must be Tensor"),
])
def test_arange_bad_input(args, kwargs, exc, msg):
    with pytest.raises(exc, match=msg):
        torch.arange(*args, **kwargs)


def test_range_is_inclusive_and_warns():
    with pytest.warns(UserWarning, match="deprecated"):
        t = torch.range(1, 4)
    assert t.tolist() == [1.0, 2.0, 3.0, 4.0] and t.dtype is torch.float32
    with pytest.warns(UserWarning):
        assert torch.range(0, 1, 0.25).tolist() == [0.0, 0.25, 0.5, 0.75, 1.0]
    with pytest.warns(UserWarning):
        assert torch.range(3, 1, -1).tolist() == [3.0, 2.0, 1.0]
    with pytest.warns(UserWarning):
        assert torch.range(1, 3, dtype=torch.int64).tolist() == [1, 2, 3]


def test_range_bad_input():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises(RuntimeError, match="step must be nonzero"):
            torch.range(0, 1, 0)
        with pytest.raises(RuntimeError, match="inconsistent with step sign"):
            torch.range(0, 3, -1)


# ---- linspace / logspace / eye ---------------------------------------------------------

@pytest.mark.parametrize("start,end,steps", [(0, 1, 5), (-3, 7, 11), (1, 0, 4), (0, 1, 1), (0, 1, 0),
                                             (2.5, 2.5, 3), (0, 1, 100), (-1e3, 1e3, 7)])
def test_linspace_matches_numpy(start, end, steps):
    t = torch.linspace(start, end, steps, dtype=torch.float64)
    e = np.linspace(start, end, steps)
    assert t.shape == e.shape
    np.testing.assert_allclose(t.numpy(), e, rtol=1e-13, atol=1e-12)
    if steps > 1:
        assert t[0].item() == start and t[-1].item() == end  # exact at both ends
    f = torch.linspace(start, end, steps)
    assert f.dtype is torch.float32
    np.testing.assert_allclose(f.numpy(), e.astype(np.float32), rtol=1e-6, atol=1e-6)


@pytest.mark.parametrize("start,end,steps,base", [(0, 2, 3, 10.0), (0, 3, 4, 2.0), (-2, 2, 5, 10.0), (1, 0, 3, math.e),
                                                  (0, 1, 1, 10.0)])
def test_logspace_matches_numpy(start, end, steps, base):
    t = torch.logspace(start, end, steps, base=base, dtype=torch.float64)
    np.testing.assert_allclose(t.numpy(), np.logspace(start, end, steps, base=base), rtol=1e-12)
    assert torch.logspace(start, end, steps, base).shape == (steps,)


def test_linspace_integer_dtype():
    assert torch.linspace(0, 10, 5, dtype=torch.int64).tolist() == [0, 2, 5, 7, 10]


@pytest.mark.parametrize("fn", [torch.linspace, torch.logspace])
def test_linspace_bad_input(fn):
    with pytest.raises(RuntimeError, match="non-negative"):
        fn(0, 1, -1)
    with pytest.raises(TypeError):
        fn(0, 1)
    with pytest.raises(TypeError):
        fn(0, 1, 2.5)
    with pytest.raises(TypeError):
        fn("a", 1, 3)


def test_linspace_has_no_base():
    with pytest.raises(TypeError, match="base"):
        torch.linspace(0, 1, 3, base=2)


@pytest.mark.parametrize("n,m", [(3, None), (2, 4), (4, 2), (0, None), (1, 1), (0, 3)])
def test_eye(n, m):
    t = torch.eye(n) if m is None else torch.eye(n, m)
    np.testing.assert_array_equal(t.numpy(), np.eye(n, m, dtype=np.float32))
    assert t.dtype is torch.float32


def test_eye_dtypes_and_errors():
    assert torch.eye(2, dtype=torch.bool).tolist() == [[True, False], [False, True]]
    assert torch.eye(2, dtype=torch.int64).dtype is torch.int64
    with pytest.raises(RuntimeError, match="n must be greater or equal to 0, got -1"):
        torch.eye(-1)
    with pytest.raises(RuntimeError, match="m must be greater or equal to 0, got -2"):
        torch.eye(2, -2)
    with pytest.raises(TypeError):
        torch.eye(2.0)


# ---- tensor(): inference, nesting, copying ------------------------------------------------

@pytest.mark.parametrize("data,dtype", [
    ([True, False], torch.bool), ([1, 2], torch.int64), ([1.0, 2.0], torch.float32),
    ([1, 2.5], torch.float32), ([True, 2], torch.int64), ([True, 2.5], torch.float32),
    (3, torch.int64), (2.5, torch.float32), (True, torch.bool), ([], torch.float32), ([[], []], torch.float32),
    ([np.float32(1.0), np.float32(2.0)], torch.float32), (np.float64(2.0), torch.float64),
    (np.int32(3), torch.int32), ([np.int8(1), 2], torch.int64), (np.bool_(True), torch.bool),
    ([torch.tensor(1, dtype=torch.int16), torch.tensor(2, dtype=torch.int16)], torch.int16),
    ([torch.tensor(1.0), 2], torch.float32),
])
def test_tensor_dtype_inference(data, dtype):
    assert torch.tensor(data).dtype is dtype


def test_tensor_float_inference_follows_default(default_dtype):
    torch.set_default_dtype(torch.float64)
    assert torch.tensor([1.5]).dtype is torch.float64
    assert torch.tensor([1, 2.5]).dtype is torch.float64
    assert torch.tensor([1, 2]).dtype is torch.int64


@pytest.mark.parametrize("data", [
    [[1, 2], [3, 4]], ((1, 2), (3, 4)), [(1, 2), [3, 4]], [[[1], [2]], [[3], [4]]], [[1.5, -2.0, 3.25]],
    [[True], [False]], [[]], [[], []], 7, [0.0],
])
def test_tensor_nested_matches_numpy(data):
    t = torch.tensor(data)
    a = np.array(data)
    assert t.shape == a.shape
    assert t.tolist() == a.tolist()


def test_tensor_accepts_sequences_and_nested_arrays():
    assert torch.tensor(range(3)).tolist() == [0, 1, 2]
    assert torch.tensor([range(2), (3, 4)]).tolist() == [[0, 1], [3, 4]]
    assert torch.tensor([np.array([1, 2]), np.array([3, 4])]).tolist() == [[1, 2], [3, 4]]
    assert torch.tensor([torch.tensor([1.0, 2.0]), torch.tensor([3.0, 4.0])]).tolist() == [[1.0, 2.0], [3.0, 4.0]]
    assert torch.tensor(torch.arange(3.0).storage()).tolist() == [0.0, 1.0, 2.0]


@pytest.mark.parametrize("dt", DTYPES, ids=str)
def test_tensor_with_dtype(dt):
    t = torch.tensor([[0, 1], [1, 0]], dtype=dt)
    assert t.dtype is dt
    assert t.tolist() == ([[False, True], [True, False]] if dt is torch.bool else [[0, 1], [1, 0]])


def test_tensor_float_to_int_dtype_truncates():
    assert torch.tensor([1.9, -1.9, 2.5], dtype=torch.int32).tolist() == [1, -1, 2]
    assert torch.tensor([0.0, 0.5, -2.0], dtype=torch.bool).tolist() == [False, True, True]


@pytest.mark.parametrize("data,msg", [
    ([[1, 2], [3]], r"expected sequence of length 2 at dim 1 \(got 1\)"),
    ([[1, 2], [3, 4, 5]], r"expected sequence of length 2 at dim 1 \(got 3\)"),
    ([[[1, 2]], [[3]]], "expected sequence of length 2 at dim 2"),
    ([1, [2]], "expected a number"),
])
def test_tensor_ragged_raises_value_error(data, msg):
    with pytest.raises(ValueError, match=msg):
        torch.tensor(data)


def test_tensor_ragged_sequence_where_number_expected():
    with pytest.raises((ValueError, TypeError)):
        torch.tensor([[1], 2])


@pytest.mark.parametrize("data", [
    [[1, 2, 3], 5],
    [[np.zeros(3), 5.0]],
    [np.zeros(3), np.float64(2.0)],
    [[np.zeros(3)], [np.array(4.0)]],
])
def test_tensor_number_where_sequence_expected_is_type_error(data):
    with pytest.raises(TypeError, match="not a sequence"):
        torch.tensor(data)


@pytest.mark.parametrize("data", ["abc", ["a"], [1, "a"], [[1.0], ["x"]], b"ab", {1: 2}, {1, 2}, [1, None], object()])
def test_tensor_bad_types_raise_type_error(data):
    with pytest.raises(TypeError, match="invalid data type"):
        torch.tensor(data)


def test_tensor_none_raises():
    with pytest.raises((TypeError, RuntimeError)):
        torch.tensor(None)


@pytest.mark.parametrize("data,dtype", [
    ([2**63], None), ([-(2**63) - 1], None), (2**64, None), ([300], torch.uint8), ([-256], torch.uint8),
    ([1e39], torch.int8), ([-3.0], torch.uint8),
    ([128], torch.int8), ([-129], torch.int8), ([40000], torch.int16), ([2**31], torch.int32),
])
def test_tensor_int_overflow_raises_runtime_error(data, dtype):
    with pytest.raises(RuntimeError, match="[Oo]verflow"):
        torch.tensor(data, dtype=dtype)


def test_negative_ints_wrap_into_unsigned_as_torch():
    # c10's rule: an int may wrap into an unsigned type down to -max
    assert torch.tensor([1, 0, -3], dtype=torch.uint8).tolist() == [1, 0, 253]
    assert torch.tensor([-255], dtype=torch.uint8).tolist() == [1]
    assert torch.zeros(2, dtype=torch.uint8).fill_(-4).tolist() == [252, 252]
    assert torch.full((2,), -1, dtype=torch.uint8).tolist() == [255, 255]
    m = torch.zeros(2, dtype=torch.uint8).masked_fill_(torch.tensor([True, False]), -2)
    assert m.tolist() == [254, 0]
    assert torch.zeros(2, dtype=torch.uint8).index_fill_(0, torch.tensor([1]), -5).tolist() == [0, 251]
    x = torch.zeros(2, dtype=torch.uint8)
    x[0] = -1
    assert x.tolist() == [255, 0]
    assert torch.tensor([255.9], dtype=torch.uint8).tolist() == [255]
    with pytest.raises(RuntimeError, match="value cannot be converted to type int8_t without overflow"):
        torch.full((2,), 1e39, dtype=torch.int8)


def test_integer_arange_truncates_start_and_step():
    assert torch.arange(0, 5, 1.5, dtype=torch.int64).tolist() == [0, 1, 2, 3]
    assert torch.arange(0.5, 5, 1.5, dtype=torch.int32).tolist() == [0, 1, 2]
    assert torch.arange(-2.7, 3, 1.9, dtype=torch.int64).tolist() == [-2, -1, 0, 1]


def test_tensor_int_bounds_fit():
    assert torch.tensor([2**63 - 1, -(2**63)]).tolist() == [2**63 - 1, -(2**63)]
    assert torch.tensor([255, 0], dtype=torch.uint8).tolist() == [255, 0]
    assert torch.tensor([-128, 127], dtype=torch.int8).tolist() == [-128, 127]


def test_tensor_always_copies():
    a = np.arange(4.0)
    t = torch.tensor(a)
    a[0] = 100.0
    assert t[0].item() == 0.0
    src = torch.arange(3.0)
    with pytest.warns(UserWarning, match="clone\\(\\).detach\\(\\)"):
        c = torch.tensor(src)
    assert c.data_ptr() != src.data_ptr() and c.tolist() == src.tolist()
    lst = [1.0, 2.0]
    t = torch.tensor(lst)
    lst[0] = 5.0
    assert t.tolist() == [1.0, 2.0]


def test_tensor_bad_arguments():
    with pytest.raises(TypeError):
        torch.tensor()
    with pytest.raises(TypeError, match="dtype"):
        torch.tensor([1], dtype="int64")
    assert torch.tensor([1.0], requires_grad=True).requires_grad
    with pytest.raises(RuntimeError, match="floating point and complex"):
        torch.tensor([1], requires_grad=True)
    with pytest.raises(RuntimeError):
        torch.tensor([1.0], device="cuda")


def test_as_tensor_shares_when_it_can():
    a = np.arange(3, dtype=np.int64)
    t = torch.as_tensor(a)
    a[1] = 9
    assert t.tolist() == [0, 9, 2]
    c = torch.as_tensor(a, dtype=torch.float32)
    a[2] = 7
    assert c.tolist() == [0.0, 9.0, 2.0]
    x = torch.ones(2)
    assert torch.as_tensor(x) is x
    assert torch.as_tensor(x, device="cpu") is x
    assert torch.as_tensor([1, 2]).tolist() == [1, 2]
    assert torch.as_tensor(3.5).shape == ()


# ---- the legacy constructor minitorch.Tensor(...) -----------------------------------------------

def test_legacy_tensor_constructor():
    assert torch.Tensor(2, 3).shape == (2, 3) and torch.Tensor(2, 3).dtype is torch.float32
    assert torch.Tensor([1, 2]).tolist() == [1.0, 2.0] and torch.Tensor([1, 2]).dtype is torch.float32
    assert torch.Tensor().shape == (0,)
    x = torch.ones(2)
    assert torch.Tensor(x).data_ptr() == x.data_ptr()  # an alias, as torch
    with pytest.raises(TypeError, match="keyword"):
        torch.Tensor(2, dtype=torch.int64)
    with pytest.raises(TypeError):
        torch.Tensor("a")
    with pytest.raises(RuntimeError, match="negative dimension"):
        torch.Tensor(-1)


def test_legacy_tensor_constructor_with_size():
    assert torch.Tensor(torch.Size([2, 3])).shape == (2, 3)


def test_is_tensor():
    assert torch.is_tensor(torch.ones(1)) and not torch.is_tensor([1]) and not torch.is_tensor(np.ones(1))
    assert type(torch.ones(1)) is torch.Tensor and isinstance(torch.arange(3)[1:], torch.Tensor)


def test_like_factories_preserve_a_dense_layout():
    x = torch.ones(2, 3).t()                    # dense, not contiguous
    for r in (torch.empty_like(x), torch.zeros_like(x), torch.ones_like(x, dtype=torch.int32),
              torch.full_like(x, 7)):
        assert r.stride() == (1, 3) and r.shape == (3, 2)
    assert torch.full_like(x, 7).tolist() == [[7., 7.]] * 3
    assert torch.zeros_like(x).tolist() == [[0., 0.]] * 3
    assert torch.empty_like(x, memory_format=torch.contiguous_format).stride() == (2, 1)
    y = torch.ones(4, 6)[::2, ::2]              # not dense: contiguous result
    assert torch.empty_like(y).stride() == (3, 1)
