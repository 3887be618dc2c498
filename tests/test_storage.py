"""Storage / UntypedStorage / TypedStorage: the refcounted bytes under every tensor."""
import operator
import struct

import numpy as np
import pytest

import minitorch as torch

DTYPES = [torch.bool, torch.uint8, torch.int8, torch.int16, torch.int32, torch.int64,
          torch.float16, torch.bfloat16, torch.float32, torch.float64]


def test_the_notes_view_shares_storage():
    t_a = torch.ones((2, 2))
    t_b = t_a.view(4)
    assert t_a.view(4).storage().data_ptr() == t_a.storage().data_ptr()
    assert t_b.untyped_storage().data_ptr() == t_a.untyped_storage().data_ptr()


def test_typed_storage_of_a_tensor():
    t = torch.arange(6, dtype=torch.int16)
    s = t.storage()
    assert isinstance(s, torch.TypedStorage)
    assert torch.Storage is torch.TypedStorage
    assert torch.is_storage(s) and not torch.is_storage(t)
    assert s.dtype is torch.int16
    assert s.device == torch.device("cpu")
    assert s.size() == len(s) == 6
    assert s.nbytes() == 12
    assert s.element_size() == 2
    assert s.data_ptr() == t.data_ptr()
    assert s.tolist() == list(range(6))
    assert [s[i] for i in range(6)] == list(range(6))
    assert list(s) == list(range(6))
    assert s[-1] == 5 and s[-6] == 0
    assert s[1:4] == [1, 2, 3]
    assert s[::2] == [0, 2, 4]


def test_untyped_storage_of_a_tensor_is_bytes():
    t = torch.tensor([1.0, -2.0])
    u = t.untyped_storage()
    assert isinstance(u, torch.UntypedStorage)
    assert u.size() == u.nbytes() == len(u) == 8
    assert u.element_size() == 1
    assert u.dtype is torch.uint8
    assert bytes(u.tolist()) == struct.pack("=ff", 1.0, -2.0)
    assert u[7] == struct.pack("=f", -2.0)[3]
    assert u.data_ptr() == t.data_ptr()
    assert t.storage().untyped().data_ptr() == u.data_ptr()
    assert t.storage().untyped_storage().nbytes() == 8


@pytest.mark.parametrize("dt", DTYPES, ids=str)
def test_typed_storage_reads_every_dtype(dt):
    vals = [1, 0, 1] if dt is torch.bool else [1, 2, 3]
    t = torch.tensor(vals, dtype=dt)
    s = t.storage()
    assert s.dtype is dt
    assert s.element_size() == dt.itemsize
    assert s.nbytes() == 3 * dt.itemsize
    expected = [bool(v) for v in vals] if dt is torch.bool else vals
    assert s.tolist() == expected
    assert type(s[0]) is (bool if dt is torch.bool else float if dt.is_floating_point else int)


def test_storage_is_the_whole_buffer_not_the_view():
    base = torch.arange(10.0)
    v = base[3:7]
    assert v.storage_offset() == 3
    assert v.storage().size() == 10
    assert v.storage().data_ptr() == base.data_ptr()
    assert v.data_ptr() == base.data_ptr() + 3 * 4
    assert v.storage()[3] == 3.0


@pytest.mark.parametrize("make_view", [
    lambda t: t.view(3, 4),
    lambda t: t.view(2, 6).t(),
    lambda t: t[2:],
    lambda t: t[::3],
    lambda t: t.view(3, 4)[1],
    lambda t: t.view(3, 4).unsqueeze(0).expand(2, 3, 4),
    lambda t: t.reshape(4, 3),
    lambda t: t.detach(),
    lambda t: t.view(torch.int32),
    lambda t: t.as_strided((2, 2), (1, 2), 1),
    lambda t: t.unfold(0, 3, 2),
], ids=["view", "t", "slice", "step", "select", "expand", "reshape", "detach", "view_dtype",
        "as_strided", "unfold"])
def test_views_share_storage(make_view):
    t = torch.arange(12.0)
    v = make_view(t)
    assert v.untyped_storage().data_ptr() == t.untyped_storage().data_ptr()
    assert v.untyped_storage().nbytes() == t.untyped_storage().nbytes() == 48


def test_copies_get_new_storage():
    t = torch.arange(12.0)
    for c in (t.clone(), t.view(3, 4).t().contiguous(), t.view(3, 4).t().reshape(12),
              torch.tensor(t.tolist()), t.to(torch.float64)):
        assert c.untyped_storage().data_ptr() != t.untyped_storage().data_ptr()


def test_storage_keeps_memory_alive():
    t = torch.arange(5.0)
    s = t.storage()
    ptr = s.data_ptr()
    del t
    assert s.data_ptr() == ptr
    assert s.tolist() == [0.0, 1.0, 2.0, 3.0, 4.0]


def test_storage_of_from_numpy_keeps_array_alive():
    a = np.arange(4.0)
    s = torch.from_numpy(a).storage()
    assert s.data_ptr() == a.ctypes.data
    del a
    assert s.tolist() == [0.0, 1.0, 2.0, 3.0]


def test_empty_storage():
    s = torch.zeros(0).storage()
    assert s.size() == 0 and s.nbytes() == 0 and s.tolist() == []
    with pytest.raises(IndexError):
        s[0]


def test_new_storages():
    u = torch.UntypedStorage(8)
    assert u.nbytes() == u.size() == 8
    assert u.tolist() == [0] * 8
    assert u.device.type == "cpu"
    ts = torch.TypedStorage(3)
    assert ts.dtype is torch.get_default_dtype()
    assert ts.size() == 3 and ts.nbytes() == 12
    assert ts.tolist() == [0.0] * 3
    ti = torch.TypedStorage(3, dtype=torch.int64)
    assert ti.nbytes() == 24 and ti.element_size() == 8
    assert torch.UntypedStorage().nbytes() == 0


def test_storage_repr():
    r = repr(torch.tensor([1.0, 2.0]).storage())
    assert r == " 1.0\n 2.0\n[minitorch.storage.TypedStorage(dtype=minitorch.float32, device=cpu) of size 2]"
    r = repr(torch.tensor([1], dtype=torch.uint8).untyped_storage())
    assert r.endswith("[minitorch.storage.UntypedStorage(device=cpu) of size 1]")


# ---- bad input -----------------------------------------------------------------

@pytest.mark.parametrize("i", [4, 5, 100, -5, -100])
def test_storage_index_out_of_range(i):
    s = torch.arange(4.0).storage()
    with pytest.raises(IndexError, match=f"index {i} out of range for storage of size 4"):
        s[i]


def test_storage_negative_index_wraps_once():
    s = torch.arange(4.0).storage()
    assert operator.getitem(s, -4) == 0.0
    with pytest.raises(IndexError, match="index -5 out of range"):
        operator.getitem(s, -5)


@pytest.mark.parametrize("key", ["0", 1.0, None, (0,)])
def test_storage_index_wrong_type(key):
    s = torch.arange(4.0).storage()
    with pytest.raises(TypeError):
        s[key]


def test_storage_is_read_only_from_python():
    s = torch.arange(4.0).storage()
    with pytest.raises((TypeError, AttributeError)):
        s[0] = 1.0


@pytest.mark.parametrize("args,kwargs,exc", [
    ((-1,), {}, RuntimeError),
    (("3",), {}, TypeError),
    ((2.5,), {}, TypeError),
    ((2,), {"device": "tpu"}, RuntimeError),
    ((2,), {"device": "cuda"}, RuntimeError),
])
def test_bad_untyped_storage_arguments(args, kwargs, exc):
    with pytest.raises(exc):
        torch.UntypedStorage(*args, **kwargs)


def test_bad_typed_storage_dtype():
    with pytest.raises(TypeError, match="dtype"):
        torch.TypedStorage(2, dtype="float32")


# ---- legacy typed storage names (torch.DoubleStorage, ...) ---------------------------------------
@pytest.mark.parametrize("name,dtype", [("DoubleStorage", torch.float64), ("FloatStorage", torch.float32),
                                        ("LongStorage", torch.int64), ("IntStorage", torch.int32),
                                        ("ByteStorage", torch.uint8), ("BoolStorage", torch.bool),
                                        ("HalfStorage", torch.float16), ("CharStorage", torch.int8),
                                        ("ShortStorage", torch.int16), ("BFloat16Storage", torch.bfloat16),
                                        ("ComplexFloatStorage", torch.complex64),
                                        ("ComplexDoubleStorage", torch.complex128)])
def test_legacy_storage_names(name, dtype):
    cls = getattr(torch, name)
    assert cls.dtype == dtype
    s = cls(3)
    assert type(s) is torch.TypedStorage and s.dtype == dtype and len(s) == 3
    assert isinstance(s, cls) and isinstance(s, torch.TypedStorage)
    assert isinstance(torch.zeros(2, dtype=dtype).storage(), cls)
    assert len(cls()) == 0


def test_legacy_storage_from_a_sequence_and_isinstance_by_dtype():
    assert torch.DoubleStorage([1, 2.5]).tolist() == [1.0, 2.5]
    assert torch.LongStorage([3, 4]).dtype == torch.int64
    assert not isinstance(torch.FloatStorage(2), torch.DoubleStorage)
    assert not isinstance(torch.ones(2), torch.FloatStorage)
    assert issubclass(torch.DoubleStorage, torch.TypedStorage)


def test_cdata_identifies_the_storage():
    x = torch.randn(4, 3)
    assert x.storage()._cdata == x[1].storage()._cdata == x.untyped_storage()._cdata
    assert x.storage()._cdata != x.clone().storage()._cdata
