"""Tensor attributes and Python protocols: shape, strides, numel, item, tolist, len, iter, bool..."""
import math
import operator

import numpy as np
import pytest

import minitorch as torch

DTYPES = [torch.bool, torch.uint8, torch.int8, torch.int16, torch.int32, torch.int64,
          torch.float16, torch.bfloat16, torch.float32, torch.float64]


# ---- shape / size / Size -------------------------------------------------------

def test_shape_and_size():
    t = torch.zeros(2, 3)
    assert t.shape == (2, 3)
    assert t.size() == (2, 3)
    assert isinstance(t.shape, torch.Size) and isinstance(t.size(), torch.Size)
    assert isinstance(t.shape, tuple)
    assert t.size(0) == 2 and t.size(1) == 3
    assert t.size(-1) == 3 and t.size(-2) == 2
    assert t.size(dim=1) == 3
    assert type(t.size(0)) is int


def test_size_repr_and_tuple_behaviour():
    s = torch.zeros(2, 3).shape
    assert repr(s) == "minitorch.Size([2, 3])"
    assert str(s) == "minitorch.Size([2, 3])"
    assert repr(torch.zeros(()).shape) == "minitorch.Size([])"
    assert repr(torch.Size([4])) == "minitorch.Size([4])"
    assert s == (2, 3) and s == torch.Size([2, 3]) and s != (3, 2)
    assert hash(s) == hash((2, 3))
    assert s[1:] == (3,) and isinstance(s[1:], torch.Size)
    assert isinstance(s + (4,), torch.Size) and s + (4,) == (2, 3, 4)
    assert isinstance((1,) + s, torch.Size) and (1,) + s == (1, 2, 3)
    assert s.numel() == 6 and torch.Size([]).numel() == 1 and torch.Size([0, 5]).numel() == 0
    assert list(s) == [2, 3]
    a, b = s
    assert (a, b) == (2, 3)


def test_size_constructor():
    assert torch.Size([2, 3]) == (2, 3) and torch.Size() == () and torch.Size((4,)) == (4,)
    assert torch.Size([np.int64(2), torch.tensor(3)]) == (2, 3)
    assert torch.Size(range(3)) == (0, 1, 2)
    with pytest.raises(TypeError, match=r"takes an iterable of 'int' \(item 1 is 'float'\)"):
        torch.Size([2, 2.5])
    with pytest.raises(TypeError):
        torch.Size(["2"])
    with pytest.raises(TypeError):
        torch.Size([1]) + [2]  # like tuple + list
    assert torch.Size([1]) * 2 == (1, 1) and isinstance(torch.Size([1]) * 2, torch.Size)


def test_size_accepted_by_factories_and_views():
    s = torch.zeros(2, 3).shape
    assert torch.ones(s).shape == s
    assert torch.arange(6).view(s).shape == s
    assert torch.arange(6).reshape(s).shape == s


@pytest.mark.parametrize("shape", [(), (0,), (5,), (2, 3), (2, 0, 4), (1, 1, 1, 1), (3, 1, 2, 1, 2)])
def test_attributes_match_numpy(shape):
    a = np.zeros(shape, dtype=np.float32)
    t = torch.zeros(shape)
    assert t.shape == a.shape
    assert t.ndim == t.dim() == t.ndimension() == a.ndim
    assert t.numel() == t.nelement() == a.size
    assert t.stride() == tuple(s // 4 for s in a.strides) or a.size == 0
    assert t.element_size() == t.itemsize == 4
    assert t.nbytes == a.nbytes
    assert t.is_contiguous()
    assert t.storage_offset() == 0


def test_stride_and_storage_offset_of_views():
    t = torch.arange(24).view(2, 3, 4)
    assert t.stride() == (12, 4, 1)
    assert t.stride(0) == 12 and t.stride(-1) == 1 and t.stride(dim=1) == 4
    assert isinstance(t.stride(), tuple)
    u = t.transpose(0, 2)
    assert u.stride() == (1, 4, 12) and u.shape == (4, 3, 2)
    v = t[1, 1:, ::2]
    assert v.shape == (2, 2)
    assert v.stride() == (4, 2)
    assert v.storage_offset() == 12 + 4
    assert v.data_ptr() == t.data_ptr() + 16 * 8
    assert t.select(2, 3).storage_offset() == 3
    assert t.expand(2, 2, 3, 4).stride() == (0, 12, 4, 1)


def test_zero_dim_tensor_attributes():
    s = torch.tensor(3.5)
    assert s.shape == () and s.dim() == 0 and s.ndim == 0
    assert s.numel() == 1
    assert s.stride() == ()
    assert s.is_contiguous()
    assert s.item() == 3.5
    assert s.tolist() == 3.5


def test_size_of_zero_dim_tensor_raises():
    with pytest.raises(IndexError, match="no dimensions"):
        torch.tensor(3.5).size(0)


@pytest.mark.parametrize("dim", [2, -3, 5, 100])
def test_size_and_stride_dim_out_of_range(dim):
    t = torch.zeros(2, 3)
    msg = rf"Dimension out of range \(expected to be in range of \[-2, 1\], but got {dim}\)"
    with pytest.raises(IndexError, match=msg):
        t.size(dim)
    with pytest.raises(IndexError, match=msg):
        t.stride(dim)


@pytest.mark.parametrize("bad", ["0", 1.0, [0], True])
def test_size_dim_wrong_type(bad):
    with pytest.raises(TypeError):
        torch.zeros(2, 3).size(bad)
    with pytest.raises(TypeError):
        torch.zeros(2, 3).stride(bad)


def test_size_too_many_arguments():
    with pytest.raises(TypeError):
        torch.zeros(2).size(0, 1)
    with pytest.raises(TypeError):
        torch.zeros(2).size(foo=0)


# ---- contiguity and data_ptr -----------------------------------------------------

@pytest.mark.parametrize("make,expected", [
    (lambda t: t, True),
    (lambda t: t.t(), False),
    (lambda t: t[1:], True),
    (lambda t: t[:, 1:], False),
    (lambda t: t[:, ::2], False),
    (lambda t: t[::2], False),
    (lambda t: t[1], True),
    (lambda t: t[:, 1], False),
    (lambda t: t[:, :1], False),
    (lambda t: t[:1, :], True),
    (lambda t: t[:1].t(), True),          # size-1 dims do not matter
    (lambda t: t[:, 1:2].t(), False),     # a column's values are 6 apart
    (lambda t: t.unsqueeze(1), True),
    (lambda t: t[0:1].expand(5, 6), False),
    (lambda t: t[0:0].t(), True),         # empty tensors are contiguous
    (lambda t: t.view(3, 2, 4).permute(1, 0, 2), False),
    (lambda t: t.t().contiguous(), True),
], ids=lambda x: "" if callable(x) else str(x))
def test_is_contiguous(make, expected):
    t = make(torch.arange(24.0).view(4, 6))
    assert t.is_contiguous() is expected
    a = t.numpy()
    assert a.flags["C_CONTIGUOUS"] == expected


def test_data_ptr():
    t = torch.arange(10, dtype=torch.int32)
    assert t.data_ptr() == t.storage().data_ptr() == t.numpy().ctypes.data
    assert t[3:].data_ptr() == t.data_ptr() + 12
    assert t[3].data_ptr() == t.data_ptr() + 12
    a, b = torch.zeros(3), torch.zeros(3)
    assert a.data_ptr() != b.data_ptr()


# ---- item / tolist ----------------------------------------------------------------

@pytest.mark.parametrize("dt", DTYPES, ids=str)
def test_item_types(dt):
    t = torch.ones(1, dtype=dt)
    v = t.item()
    if dt is torch.bool:
        assert v is True
    elif dt.is_floating_point:
        assert type(v) is float and v == 1.0
    else:
        assert type(v) is int and v == 1


def test_item_values():
    assert torch.tensor([[-7]]).item() == -7
    assert torch.tensor(2**40).item() == 2**40
    assert torch.tensor(0.1).item() == np.float32(0.1).item()
    assert torch.tensor(0.1, dtype=torch.float64).item() == 0.1
    assert torch.tensor(255, dtype=torch.uint8).item() == 255
    assert torch.tensor(-128, dtype=torch.int8).item() == -128
    assert math.isnan(torch.tensor(float("nan")).item())
    assert torch.tensor(float("-inf")).item() == float("-inf")
    assert torch.arange(10)[7].item() == 7


@pytest.mark.parametrize("t,n", [(torch.zeros(2), 2), (torch.zeros(0), 0), (torch.zeros(2, 3), 6)])
def test_item_needs_one_element(t, n):
    with pytest.raises(RuntimeError, match=f"a Tensor with {n} elements cannot be converted to Scalar"):
        t.item()


@pytest.mark.parametrize("shape", [(), (0,), (3,), (2, 3), (2, 0, 3), (1, 2, 1, 2)])
@pytest.mark.parametrize("dt", [torch.bool, torch.int8, torch.int64, torch.float16, torch.float64])
def test_tolist_matches_numpy(shape, dt):
    rng = np.random.default_rng(0)
    np_dt = {torch.bool: np.bool_, torch.int8: np.int8, torch.int64: np.int64,
             torch.float16: np.float16, torch.float64: np.float64}[dt]
    a = (rng.integers(-50, 50, size=shape)).astype(np_dt)
    t = torch.tensor(a)
    assert t.tolist() == a.tolist()
    if len(shape) == 2:
        assert t.t().tolist() == a.T.tolist()


def test_tolist_of_views():
    t = torch.arange(12).view(3, 4)
    assert t[:, ::2].tolist() == [[0, 2], [4, 6], [8, 10]]
    assert t.t().tolist() == np.arange(12).reshape(3, 4).T.tolist()
    assert t[0:1].expand(2, 4).tolist() == [[0, 1, 2, 3]] * 2


# ---- len / iter ------------------------------------------------------------------

def test_len():
    assert len(torch.zeros(4, 2)) == 4
    assert len(torch.zeros(0, 2)) == 0
    with pytest.raises(TypeError, match="len\\(\\) of a 0-d tensor"):
        len(torch.tensor(1.0))


def test_iter_yields_views():
    t = torch.arange(6).view(3, 2)
    rows = list(t)
    assert len(rows) == 3
    assert [r.tolist() for r in rows] == [[0, 1], [2, 3], [4, 5]]
    assert all(r.shape == (2,) for r in rows)
    rows[1].fill_(9)
    assert t.tolist() == [[0, 1], [9, 9], [4, 5]]
    assert [x.item() for x in torch.arange(3)] == [0, 1, 2]
    assert [x.tolist() for x in reversed(torch.arange(3))] == [2, 1, 0]
    assert list(torch.zeros(0, 3)) == []
    a, b = torch.tensor([1, 2])
    assert (a.item(), b.item()) == (1, 2)


def test_iter_zero_dim_raises():
    with pytest.raises(TypeError, match="iteration over a 0-d tensor"):
        iter(torch.tensor(1.0))
    with pytest.raises(TypeError, match="iteration over a 0-d tensor"):
        reversed(torch.tensor(1.0))


# ---- bool / int / float / index ---------------------------------------------------

@pytest.mark.parametrize("value,expected", [
    ([0.0], False), ([0.5], True), ([[3]], True), (0, False), (-1, True), (True, True),
    ([False], False), (float("nan"), True), (-0.0, False),
])
def test_bool_of_one_element(value, expected):
    assert bool(torch.tensor(value)) is expected


def test_bool_of_one_element_every_dtype():
    for dt in DTYPES:
        assert bool(torch.zeros(1, dtype=dt)) is False
        assert bool(torch.ones(1, 1, dtype=dt)) is True


def test_bool_ambiguous():
    with pytest.raises(RuntimeError, match="Boolean value of Tensor with more than one value is ambiguous"):
        bool(torch.zeros(2))
    with pytest.raises(RuntimeError, match="Boolean value of Tensor with no values is ambiguous"):
        bool(torch.zeros(0))
    with pytest.raises(RuntimeError):
        if torch.ones(2, 2):
            pass


def test_int_float_conversions():
    assert int(torch.tensor([2.7])) == 2
    assert int(torch.tensor(-2.7)) == -2  # truncates toward zero like Python
    assert int(torch.tensor(7, dtype=torch.uint8)) == 7
    assert int(torch.tensor(True)) == 1
    assert float(torch.tensor(3)) == 3.0 and type(float(torch.tensor(3))) is float
    assert float(torch.tensor([[0.25]])) == 0.25
    assert complex(torch.tensor(2.0)) == 2 + 0j
    assert f"{torch.tensor(3.14159):.2f}" == "3.14"
    assert f"{torch.tensor(42):5d}" == "   42"


def test_int_of_non_finite_raises_like_python():
    with pytest.raises(ValueError):
        int(torch.tensor(float("nan")))
    with pytest.raises(OverflowError):
        int(torch.tensor(float("inf")))


@pytest.mark.parametrize("conv", [int, float])
def test_int_float_of_many_elements_raise_value_error(conv):
    with pytest.raises(ValueError, match="only one element tensors can be converted to Python scalars"):
        conv(torch.zeros(2))


@pytest.mark.parametrize("conv", [int, float])
def test_int_float_of_many_elements_raise(conv):
    with pytest.raises((TypeError, ValueError), match="only one element tensors"):
        conv(torch.zeros(2))
    with pytest.raises((TypeError, ValueError), match="only one element tensors"):
        conv(torch.zeros(0))


def test_index_conversion():
    lst = list(range(10))
    assert lst[torch.tensor(3)] == 3
    assert lst[torch.tensor([4])] == 4
    assert operator.index(torch.tensor(5, dtype=torch.int8)) == 5
    assert operator.index(torch.tensor(True)) == 1
    assert lst[torch.tensor(-1)] == 9
    assert range(10)[torch.tensor(2, dtype=torch.int16)] == 2
    assert hex(torch.tensor(255)) == "0xff"


@pytest.mark.parametrize("bad", [torch.tensor(3.0), torch.tensor([1, 2]), torch.zeros(0, dtype=torch.int64),
                                 torch.tensor(1.0, dtype=torch.float16)])
def test_index_conversion_errors(bad):
    with pytest.raises(TypeError, match="only integer tensors of a single element can be converted to an index"):
        operator.index(bad)
    with pytest.raises(TypeError):
        [1, 2, 3][bad]


def test_hash_is_identity():
    a, b = torch.zeros(2), torch.zeros(2)
    assert hash(a) != hash(b) or a is b
    d = {a: 1, b: 2}
    assert d[a] == 1 and d[b] == 2
    assert len({a, a, b}) == 2


def test_misc_flags():
    t = torch.zeros(2)
    assert t.requires_grad is False and t.grad is None and t.is_leaf
    assert t.is_sparse is False and t.is_quantized is False
    t.requires_grad = True
    assert t.requires_grad and t.is_leaf
    assert torch.zeros(2, requires_grad=True).requires_grad
    with pytest.raises(RuntimeError, match="floating point and complex"):
        torch.zeros(2, dtype=torch.int64).requires_grad_()


def test_layout_and_dtype_queries():
    # values from torch 2.15
    assert torch.ones(2, 3).t().dim_order() == (1, 0)
    assert torch.ones(2, 3, 4).permute(2, 0, 1).dim_order() == (1, 2, 0)
    assert torch.ones(2, 3).storage_type() is torch.FloatStorage
    assert torch.ones(2, dtype=torch.int8).is_signed() and not torch.ones(2, dtype=torch.uint8).is_signed()
    x = torch.ones(2)
    assert x.const_data_ptr() == x.data_ptr()
    e = torch.ones(2, 3, dtype=torch.float64).new_empty_strided((2, 2), (1, 2))
    assert e.stride() == (1, 2) and e.dtype is torch.float64
