"""Conversions: to(), type(), float()/int()/..., cast rules, copy_, fill_, zero_."""
import numpy as np
import pytest

import minitorch as torch

DTYPES = [torch.bool, torch.uint8, torch.int8, torch.int16, torch.int32, torch.int64,
          torch.float16, torch.bfloat16, torch.float32, torch.float64]
NP = {torch.bool: np.bool_, torch.uint8: np.uint8, torch.int8: np.int8, torch.int16: np.int16,
      torch.int32: np.int32, torch.int64: np.int64, torch.float16: np.float16,
      torch.float32: np.float32, torch.float64: np.float64}


def bf16_round(values):
    """float32 -> bfloat16 -> float32 with round-to-nearest-even, in numpy."""
    u = np.asarray(values, dtype=np.float32).view(np.uint32).astype(np.uint64)
    u = (u + 0x7FFF + ((u >> 16) & 1)) >> 16 << 16
    return u.astype(np.uint32).view(np.float32)


# ---- the shorthand methods -----------------------------------------------------------

@pytest.mark.parametrize("method,dt", [
    ("float", torch.float32), ("double", torch.float64), ("half", torch.float16), ("bfloat16", torch.bfloat16),
    ("int", torch.int32), ("long", torch.int64), ("short", torch.int16), ("char", torch.int8),
    ("byte", torch.uint8), ("bool", torch.bool),
])
def test_shorthand_casts(method, dt):
    src = torch.tensor([[0.0, 1.0], [2.0, 3.0]], dtype=torch.float64)
    r = getattr(src, method)()
    assert r.dtype is dt and r.shape == (2, 2)
    expected = [[False, True], [True, True]] if dt is torch.bool else [[0, 1], [2, 3]]
    assert r.tolist() == expected
    assert (r is src) == (dt is torch.float64)
    same = torch.zeros(2, dtype=dt)
    assert getattr(same, method)() is same  # no copy when the dtype already matches


@pytest.mark.parametrize("src_dt", [d for d in DTYPES if d is not torch.bfloat16], ids=str)
@pytest.mark.parametrize("dst_dt", [d for d in DTYPES if d is not torch.bfloat16], ids=str)
def test_cast_matrix_matches_numpy(src_dt, dst_dt):
    # values every dtype holds exactly, so every cast is well defined
    vals = [0, 1, 2, 7, 100, 0, 1] if src_dt in (torch.bool, torch.uint8) else [0, 1, -1, 2, -7, 100, -100]
    a = np.array(vals).astype(NP[src_dt])
    r = torch.from_numpy(a).to(dst_dt)
    assert r.dtype is dst_dt
    np.testing.assert_array_equal(r.numpy(), a.astype(NP[dst_dt]))


def test_float_to_int_truncates_toward_zero():
    x = torch.tensor([1.7, -1.7, 2.5, -0.5, 0.99, -0.99, 123.999])
    assert x.int().tolist() == [1, -1, 2, 0, 0, 0, 123]
    assert x.long().tolist() == [1, -1, 2, 0, 0, 0, 123]
    assert x.to(torch.int16).tolist() == np.array(x.tolist(), dtype=np.float32).astype(np.int16).tolist()
    assert torch.tensor([2.9, -2.9], dtype=torch.float64).char().tolist() == [2, -2]
    assert torch.tensor([2.9]).byte().tolist() == [2]


def test_bool_conversions():
    assert torch.tensor([0.0, -0.0, 0.1, -3.0, float("nan"), float("inf")]).bool().tolist() == \
        [False, False, True, True, True, True]
    assert torch.tensor([0, 5, -1, 256]).bool().tolist() == [False, True, True, True]
    assert torch.tensor([True, False]).float().tolist() == [1.0, 0.0]
    assert torch.tensor([True, False]).long().tolist() == [1, 0]
    assert torch.tensor([256, 512], dtype=torch.int16).bool().tolist() == [True, True]  # no truncation first


def test_integer_narrowing_wraps_like_numpy():
    a = np.array([300, -1, 2**31 + 5, -(2**40)], dtype=np.int64)
    for dt in (torch.uint8, torch.int8, torch.int16, torch.int32):
        np.testing.assert_array_equal(torch.from_numpy(a).to(dt).numpy(), a.astype(NP[dt]))


@pytest.mark.filterwarnings("ignore:overflow encountered in cast:RuntimeWarning")
def test_half_rounding_matches_numpy():
    rng = np.random.default_rng(0)
    a = np.concatenate([rng.standard_normal(1000).astype(np.float32) * 10.0 ** rng.integers(-6, 5, 1000),
                        np.array([65504.0, 65520.0, 1e-8, 6e-8, -0.0, np.inf, -np.inf], dtype=np.float32)])
    h = torch.from_numpy(a).half()
    np.testing.assert_array_equal(h.numpy(), a.astype(np.float16))
    np.testing.assert_array_equal(h.float().numpy(), a.astype(np.float16).astype(np.float32))
    assert np.isnan(torch.tensor([float("nan")]).half().float().item())
    d = torch.from_numpy(a.astype(np.float64)).half()
    np.testing.assert_array_equal(d.numpy(), a.astype(np.float64).astype(np.float16))


def test_bfloat16_rounding():
    rng = np.random.default_rng(1)
    a = (rng.standard_normal(2000) * 10.0 ** rng.integers(-10, 10, 2000)).astype(np.float32)
    b = torch.from_numpy(a).bfloat16().float()
    np.testing.assert_array_equal(b.numpy(), bf16_round(a))
    assert torch.tensor([1 / 3]).bfloat16().float().item() == 0.333984375
    assert torch.tensor([1.0 + 2**-8]).bfloat16().float().item() == 1.0      # tie: to even
    assert torch.tensor([1.0 + 3 * 2**-8]).bfloat16().float().item() == 1.015625
    assert torch.tensor([3.4e38]).bfloat16().float().item() == float("inf") or \
        torch.tensor([3.4e38]).bfloat16().float().item() == pytest.approx(3.4e38, rel=1e-2)
    assert np.isnan(torch.tensor([float("nan")]).bfloat16().float().item())
    assert torch.tensor([2.5, -7.0]).bfloat16().int().tolist() == [2, -7]


# ---- to() ----------------------------------------------------------------------

def test_to_forms():
    x = torch.tensor([1.5, -2.5])
    assert x.to(torch.float64).dtype is torch.float64
    assert x.to(dtype=torch.int32).tolist() == [1, -2]
    assert x.to("cpu") is x
    assert x.to(torch.device("cpu")) is x
    assert x.to("cpu", torch.float16).dtype is torch.float16
    assert x.to(device="cpu", dtype=torch.float64).dtype is torch.float64
    assert x.to(torch.zeros(1, dtype=torch.int8)).dtype is torch.int8   # to(other)
    assert x.to(torch.float32) is x
    assert x.to(x) is x
    assert x.to(float).dtype is torch.float64


def test_to_copy():
    x = torch.tensor([1.5, -2.5])
    for c in (x.to(torch.float32, copy=True), x.to("cpu", copy=True), x.to(x, copy=True),
              x.to(torch.float32, False, True)):
        assert c is not x and c.data_ptr() != x.data_ptr() and c.tolist() == x.tolist()
        assert c.dtype is torch.float32


def test_to_keeps_views_independent():
    base = torch.arange(6.0).view(2, 3)
    v = base.t().to(torch.float64)
    assert v.tolist() == np.arange(6.0).reshape(2, 3).T.tolist()
    v[0, 0] = 100.0
    assert base[0, 0].item() == 0.0


@pytest.mark.parametrize("args,kwargs,exc", [
    (("foo",), {}, RuntimeError), ((3.5,), {}, TypeError), (("cuda",), {}, RuntimeError),
    ((), {"dtype": "float32"}, TypeError), ((), {"bogus": 1}, TypeError),
    ((torch.float32, False, False, None, 1), {}, TypeError),
])
def test_to_bad_input(args, kwargs, exc):
    with pytest.raises(exc):
        torch.ones(2).to(*args, **kwargs)


def test_cpu_and_cuda_methods():
    x = torch.ones(2)
    assert x.cpu() is x
    with pytest.raises(RuntimeError):
        x.cuda()
    with pytest.raises(RuntimeError, match="cuda device"):
        x.cuda("cpu")


# ---- type() -------------------------------------------------------------------------

@pytest.mark.parametrize("dt,name", [
    (torch.float32, "FloatTensor"), (torch.float64, "DoubleTensor"), (torch.float16, "HalfTensor"),
    (torch.bfloat16, "BFloat16Tensor"), (torch.int64, "LongTensor"), (torch.int32, "IntTensor"),
    (torch.int16, "ShortTensor"), (torch.int8, "CharTensor"), (torch.uint8, "ByteTensor"), (torch.bool, "BoolTensor"),
])
def test_type_names(dt, name):
    t = torch.zeros(2, dtype=dt)
    assert t.type() == f"minitorch.{name}"
    assert torch.typename(t) == f"minitorch.{name}"
    src = torch.tensor([1.0, 0.0])
    assert src.type(f"minitorch.{name}").dtype is dt
    assert src.type(f"torch.{name}").dtype is dt  # scripts written for torch
    assert src.type(dt).dtype is dt


def test_type_no_copy_when_same():
    x = torch.ones(2)
    assert x.type(torch.float32) is x
    assert x.type("minitorch.FloatTensor") is x


@pytest.mark.parametrize("bad", ["minitorch.Foo", "minitorch.cuda.FloatTensor", "a.b.FloatTensor", "float32",
                                 "minitorch.float32", "numpy.FloatTensor", ""])
def test_type_bad_strings(bad):
    with pytest.raises(ValueError, match="invalid type"):
        torch.ones(2).type(bad)


def test_type_bad_types():
    with pytest.raises(TypeError):
        torch.ones(2).type(3)


# ---- copy_ -----------------------------------------------------------------------------

def test_copy_same_shape_and_cast():
    dst = torch.zeros(2, 3, dtype=torch.int32)
    src = torch.tensor([[1.9, -1.9, 3.0], [4.5, 5.5, -6.5]])
    assert dst.copy_(src) is dst
    assert dst.tolist() == [[1, -1, 3], [4, 5, -6]]
    f = torch.zeros(3)
    f.copy_(torch.tensor([True, False, True]))
    assert f.tolist() == [1.0, 0.0, 1.0]


@pytest.mark.parametrize("src_dt", DTYPES, ids=str)
@pytest.mark.parametrize("dst_dt", DTYPES, ids=str)
def test_copy_between_every_dtype(src_dt, dst_dt):
    src = torch.tensor([[0, 1], [1, 0]], dtype=src_dt).t()
    dst = torch.full((2, 2), 9, dtype=dst_dt)
    dst.copy_(src)
    expected = [[False, True], [True, False]] if dst_dt is torch.bool else [[0, 1], [1, 0]]
    assert dst.tolist() == expected


def test_copy_into_views_and_from_views():
    base = torch.zeros(4, 4)
    base[1:3, ::2].copy_(torch.tensor([[1.0, 2.0], [3.0, 4.0]]))
    expected = np.zeros((4, 4))
    expected[1:3, ::2] = [[1, 2], [3, 4]]
    assert base.tolist() == expected.tolist()
    dst = torch.zeros(3, 2)
    dst.copy_(torch.arange(6.0).view(2, 3).t())
    assert dst.tolist() == np.arange(6.0).reshape(2, 3).T.tolist()





@pytest.mark.parametrize("src", [torch.tensor([1.0, 2.0, 3.0]), torch.tensor([[1.0], [2.0]]), torch.tensor(5.0),
                                 torch.tensor([[1, 2, 3]], dtype=torch.int64)], ids=["row", "col", "scalar", "int_row"])
def test_copy_broadcasts(src):
    dst = torch.zeros(2, 3)
    dst.copy_(src)
    assert dst.tolist() == np.broadcast_to(np.array(src.tolist(), dtype=np.float32), (2, 3)).tolist()


def test_copy_shape_mismatch_raises():
    dst = torch.zeros(2, 3)
    for bad in (torch.zeros(4), torch.zeros(3, 3), torch.zeros(2, 2, 3)):
        with pytest.raises(RuntimeError):
            dst.copy_(bad)
    assert dst.tolist() == [[0.0] * 3] * 2


def test_copy_bad_arguments():
    with pytest.raises(TypeError, match="Tensor"):
        torch.zeros(3).copy_([1, 2, 3])
    with pytest.raises(TypeError, match="Tensor"):
        torch.zeros(3).copy_(np.zeros(3))
    with pytest.raises(TypeError):
        torch.zeros(3).copy_()


@pytest.mark.parametrize("dst_sl,src_sl", [
    (slice(1, None), slice(None, -1)), (slice(None, -1), slice(1, None)), (slice(2, 8), slice(0, 6)),
    (slice(0, 6), slice(3, 9)), (slice(None, None, 2), slice(1, None, 2)),
])
def test_copy_between_overlapping_views(dst_sl, src_sl):
    # behaves as if the source were copied first (numpy's assignment semantics)
    t = torch.arange(10.0)
    a = np.arange(10.0)
    t[dst_sl].copy_(t[src_sl])
    a[dst_sl] = a[src_sl].copy()
    assert t.tolist() == a.tolist()


def test_copy_transpose_into_itself():
    t = torch.arange(9.0).view(3, 3)
    t.copy_(t.t())
    assert t.tolist() == np.arange(9.0).reshape(3, 3).T.tolist()
    u = torch.arange(4.0)
    assert u.copy_(u) is u and u.tolist() == [0.0, 1.0, 2.0, 3.0]


def test_copy_into_numpy_shared_memory():
    a = np.zeros(3, dtype=np.int16)
    torch.from_numpy(a).copy_(torch.tensor([1.5, 2.5, -3.5]))
    assert a.tolist() == [1, 2, -3]


# ---- fill_ / zero_ --------------------------------------------------------------------------

@pytest.mark.parametrize("dt", DTYPES, ids=str)
def test_fill_and_zero(dt):
    t = torch.empty(2, 3, dtype=dt)
    assert t.fill_(1) is t
    assert t.tolist() == [[True if dt is torch.bool else 1] * 3] * 2
    assert t.zero_() is t
    assert t.tolist() == [[False if dt is torch.bool else 0] * 3] * 2


def test_fill_values():
    assert torch.zeros(3, dtype=torch.int32).fill_(2.7).tolist() == [2, 2, 2]
    assert torch.zeros(2, dtype=torch.bool).fill_(0.1).tolist() == [True, True]
    assert torch.zeros(2).fill_(True).tolist() == [1.0, 1.0]
    assert torch.zeros(2).fill_(torch.tensor(2.5)).tolist() == [2.5, 2.5]
    assert torch.zeros(2).fill_(np.float32(1.5)).tolist() == [1.5, 1.5]
    assert torch.zeros(2).fill_(value=3).tolist() == [3.0, 3.0]
    t = torch.zeros(4, 4)
    t[::2, 1:3].fill_(7.0)
    expected = np.zeros((4, 4))
    expected[::2, 1:3] = 7.0
    assert t.tolist() == expected.tolist()
    assert torch.zeros(0).fill_(1.0).numel() == 0


def test_fill_bad_input():
    with pytest.raises(RuntimeError, match="fill_ only supports 0-dimension value tensor but got tensor with 1 dimensions"):
        torch.zeros(2).fill_(torch.tensor([2.5]))
    with pytest.raises(TypeError, match="number"):
        torch.zeros(2).fill_("a")
    with pytest.raises(TypeError, match="number"):
        torch.zeros(2).fill_(None)
    with pytest.raises(TypeError):
        torch.zeros(2).fill_()
    with pytest.raises(TypeError):
        torch.zeros(2).zero_(1)


def test_fill_integer_overflow_raises():
    with pytest.raises(RuntimeError, match="overflow"):
        torch.zeros(3, dtype=torch.int8).fill_(300)


@pytest.mark.parametrize("op", [
    lambda e: e.fill_(1.0), lambda e: e.zero_(), lambda e: e.copy_(torch.ones(2, 3)),
    lambda e: e.__setitem__(slice(None), 1.0), lambda e: e.add_(1),
], ids=["fill_", "zero_", "copy_", "setitem", "add_"])
def test_in_place_on_expanded_tensor_raises(op):
    base = torch.zeros(1, 3)
    e = base.expand(2, 3)
    with pytest.raises(RuntimeError, match="more than one element of the written-to tensor refers to a single memory location"):
        op(e)
    assert base.tolist() == [[0.0, 0.0, 0.0]]


def test_in_place_on_expanded_size_one_is_fine():
    base = torch.zeros(1, 3)
    base.expand(1, 3).fill_(2.0)
    assert base.tolist() == [[2.0, 2.0, 2.0]]


def test_in_place_on_empty_zero_stride_tensor_is_allowed():
    e = torch.empty(0).as_strided((0, 3), (1, 0))  # writes nothing, as torch
    e.fill_(1.0)
    e.copy_(torch.ones(3))
    e.zero_()
    assert e.shape == (0, 3)
