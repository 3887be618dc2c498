"""uint16/uint32/uint64: tensors that can be made, cast, viewed, indexed and shared with NumPy,
with torch's promotion rule (only with themselves and floating dtypes) and no math kernels."""
import numpy as np
import pytest

import minitorch as mt

UNSIGNED = [(mt.uint16, np.uint16, 16), (mt.uint32, np.uint32, 32), (mt.uint64, np.uint64, 64)]


@pytest.mark.parametrize("dt,npdt,bits", UNSIGNED)
def test_create_and_read(dt, npdt, bits):
    t = mt.tensor([0, 1, 2 ** bits - 1], dtype=dt)
    assert t.dtype == dt and t.tolist() == [0, 1, 2 ** bits - 1]
    assert t.element_size() == bits // 8 and dt.itemsize == bits // 8 and not dt.is_signed
    assert mt.zeros(2, dtype=dt).tolist() == [0, 0]
    assert mt.full((2,), 7, dtype=dt).tolist() == [7, 7]
    assert mt.iinfo(dt).max == 2 ** bits - 1 and mt.iinfo(dt).min == 0
    assert repr(mt.tensor([3], dtype=dt)) == f"tensor([3], dtype=minitorch.{dt}".replace("minitorch.minitorch.", "minitorch.") + ")"


@pytest.mark.parametrize("dt,npdt,bits", UNSIGNED)
def test_numpy_round_trip(dt, npdt, bits):
    a = np.array([1, 2 ** bits - 1, 5], dtype=npdt)
    t = mt.from_numpy(a)
    assert t.dtype == dt and t.tolist() == a.tolist()
    a[0] = 9
    assert t[0].item() == 9  # shares memory
    back = t.numpy()
    assert back.dtype == npdt and back.tolist() == a.tolist()
    assert mt.as_tensor(np.array([3], dtype=npdt)).dtype == dt


@pytest.mark.parametrize("dt,npdt,bits", UNSIGNED)
def test_casts(dt, npdt, bits):
    t = mt.tensor([1, 300], dtype=dt)
    assert t.to(mt.float64).tolist() == [1.0, 300.0]
    assert t.to(mt.uint8).tolist() == [1, 300 % 256]
    assert mt.tensor([-1], dtype=mt.int64).to(dt).tolist() == [2 ** bits - 1]
    assert mt.tensor([2.75]).to(dt).tolist() == [2]
    assert t.to(mt.complex64).tolist() == [1 + 0j, 300 + 0j]


def test_view_as_other_element_size():
    t = mt.arange(4, dtype=mt.int64)
    v = t.view(mt.uint16)
    assert v.shape == (16,) and v.dtype == mt.uint16
    assert v.tolist()[:8] == [0, 0, 0, 0, 1, 0, 0, 0]
    assert v.view(mt.int64).tolist() == [0, 1, 2, 3]
    assert t.view(mt.uint64).tolist() == [0, 1, 2, 3]


def test_indexing_and_joining():
    t = mt.tensor([5, 6, 7], dtype=mt.uint32)
    assert t[1].item() == 6 and t[mt.tensor([True, False, True])].tolist() == [5, 7]
    t[0] = 9
    assert t.tolist() == [9, 6, 7]
    assert mt.cat([t, t]).tolist() == [9, 6, 7, 9, 6, 7]
    assert t.clone().tolist() == [9, 6, 7]


def test_uint64_full_range_item():
    t = mt.from_numpy(np.array([2 ** 64 - 1], dtype=np.uint64))
    assert t.item() == 2 ** 64 - 1 and t.tolist() == [2 ** 64 - 1]


def test_promotion_with_floating():
    assert mt.promote_types(mt.uint16, mt.float16) == mt.float16
    assert mt.promote_types(mt.float64, mt.uint64) == mt.float64
    assert mt.promote_types(mt.uint32, mt.uint32) == mt.uint32
    u = mt.tensor([1, 2], dtype=mt.uint16)
    r = mt.ones(2) + u
    assert r.dtype == mt.float32 and r.tolist() == [2.0, 3.0]
    assert mt.result_type(u, 1.5) == mt.float32


@pytest.mark.parametrize("other", [mt.int8, mt.int64, mt.uint8, mt.bool, mt.complex64, mt.uint32])
def test_promotion_refused(other):
    msg = "Promotion for uint16, uint32, uint64 types is not supported"
    with pytest.raises(RuntimeError, match=msg):
        mt.promote_types(mt.uint16, other)
    u = mt.tensor([1], dtype=mt.uint16)
    with pytest.raises(RuntimeError, match=msg):
        u + mt.tensor([1], dtype=other)
    with pytest.raises(RuntimeError, match=msg):
        mt.cat([u, mt.tensor([1], dtype=other)])
    with pytest.raises(RuntimeError, match=msg):
        mt.result_type(u, mt.tensor([1], dtype=other))


def test_promotion_refused_in_tensor_data():
    with pytest.raises(RuntimeError, match="Promotion for uint16"):
        mt.tensor([np.array([1], dtype=np.uint16), np.array([2], dtype=np.int8)])


def test_math_not_implemented():
    u = mt.tensor([3, 1, 2], dtype=mt.uint16)
    for f in (lambda: u + u, lambda: u * 2, lambda: -u, lambda: u.max(), lambda: u.argmax(),
              lambda: mt.searchsorted(u, u), lambda: mt.maximum(u, u),
              lambda: u.index_put_((mt.tensor([0]),), mt.tensor([1], dtype=mt.uint16), accumulate=True),
              lambda: u.scatter_add(0, mt.tensor([0]), u)):
        with pytest.raises(NotImplementedError, match="not implemented for 'UInt16'"):
            f()


def test_uint64_python_int_range():
    assert mt.tensor([2 ** 64 - 1, 5], dtype=mt.uint64).tolist() == [2 ** 64 - 1, 5]
    with pytest.raises(OverflowError):
        mt.tensor([2 ** 64], dtype=mt.uint64)
    with pytest.raises(OverflowError):
        mt.tensor([-1], dtype=mt.uint64)
    assert mt.tensor([-1], dtype=mt.uint16).tolist() == [65535]
    with pytest.raises(RuntimeError, match="without overflow"):
        mt.tensor([70000], dtype=mt.uint16)


@pytest.mark.parametrize("dt,npdt,bits", UNSIGNED)
def test_comparisons(dt, npdt, bits):
    u = mt.tensor([0, 7, 2 ** bits - 1], dtype=dt)
    assert (u == u).tolist() == [True, True, True]
    assert (u < 7).tolist() == [True, False, False]
    assert (u >= mt.tensor([0, 8, 1], dtype=dt)).tolist() == [True, False, True]
    assert (u != 7).dtype == mt.bool
    assert (u == -1).tolist() == [False, False, True]  # the int wraps into the type, as torch


@pytest.mark.parametrize("dt,npdt,bits", UNSIGNED)
def test_sort(dt, npdt, bits):
    u = mt.tensor([5, 2 ** bits - 1, 0, 5], dtype=dt)
    v, i = u.sort()
    assert v.tolist() == [0, 5, 5, 2 ** bits - 1] and v.dtype == dt and i.tolist() == [2, 0, 3, 1]
    v, i = u.sort(descending=True)
    assert v.tolist() == [2 ** bits - 1, 5, 5, 0]
    assert mt.argsort(u).tolist() == [2, 0, 3, 1]


@pytest.mark.parametrize("dt,npdt,bits", UNSIGNED)
def test_integer_reductions_and_scans(dt, npdt, bits):
    u = mt.tensor([[3, 1], [2, 5]], dtype=dt)
    assert u.sum().dtype == mt.int64 and u.sum().item() == 11
    assert u.sum(0).tolist() == [5, 6] and u.prod().item() == 30
    assert u.all().item() is True and mt.tensor([0, 1], dtype=dt).any().item() is True
    assert u.cumsum(0).tolist() == [[3, 1], [5, 6]] and u.cumsum(0).dtype == mt.int64
    assert u.cumprod(1).tolist() == [[3, 3], [2, 10]]


def test_mean_of_unsigned_raises_as_torch():
    with pytest.raises(NotImplementedError, match="Got: UInt16"):
        mt.tensor([1, 2], dtype=mt.uint16).mean()
