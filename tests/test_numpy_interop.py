"""Zero-copy NumPy interop: from_numpy, .numpy(), __array__, the buffer protocol, as_tensor."""
import gc
import subprocess
import sys
import textwrap
import weakref

import numpy as np
import pytest

import minitorch as torch

PAIRS = [  # (numpy dtype, minitorch dtype)
    (np.bool_, torch.bool), (np.uint8, torch.uint8), (np.int8, torch.int8),
    (np.int16, torch.int16), (np.int32, torch.int32), (np.int64, torch.int64),
    (np.float16, torch.float16), (np.float32, torch.float32), (np.float64, torch.float64),
]
PAIR_IDS = [np.dtype(p[0]).name for p in PAIRS]


def sample(np_dtype, shape=(3, 4), seed=0):
    rng = np.random.default_rng(seed)
    if np_dtype is np.bool_:
        return rng.integers(0, 2, size=shape).astype(np.bool_)
    if np.issubdtype(np_dtype, np.integer):
        info = np.iinfo(np_dtype)
        return rng.integers(max(info.min, -100), min(info.max, 100), size=shape).astype(np_dtype)
    return rng.standard_normal(shape).astype(np_dtype)


# ---- the programs from the user's notes ---------------------------------------

def test_notes_tensor_copies():
    np_array = np.ones((1, 2))
    torch_array = torch.tensor(np_array)
    torch_array.fill_(2.0)
    assert np_array.tolist() == [[1.0, 1.0]]
    assert torch_array.tolist() == [[2.0, 2.0]]


def test_notes_from_numpy_in_place_write_changes_array():
    np_array = np.ones((1, 2))
    torch_array = torch.from_numpy(np_array)
    torch_array[:] = 2.0
    assert np_array.tolist() == [[2.0, 2.0]]
    torch_array.fill_(3.0)
    assert np_array.tolist() == [[3.0, 3.0]]


def test_notes_add_inplace_changes_array():
    np_array = np.ones((1, 2))
    t = torch.from_numpy(np_array)
    t.add_(1)
    assert np_array.tolist() == [[2.0, 2.0]]
    t += 1
    assert np_array.tolist() == [[3.0, 3.0]]
    assert t.data_ptr() == np_array.ctypes.data


def test_notes_rebinding_with_plus_does_not_change_array():
    np_array = np.ones((1, 2))
    t = torch.from_numpy(np_array)
    t = t + 1
    assert np_array.tolist() == [[1.0, 1.0]]
    assert t.tolist() == [[2.0, 2.0]]
    assert t.data_ptr() != np_array.ctypes.data


# ---- from_numpy ---------------------------------------------------------------

@pytest.mark.parametrize("np_dtype,dt", PAIRS, ids=PAIR_IDS)
def test_from_numpy_every_dtype_shares(np_dtype, dt):
    a = sample(np_dtype)
    t = torch.from_numpy(a)
    assert t.dtype is dt
    assert t.shape == a.shape
    assert t.stride() == tuple(s // a.itemsize for s in a.strides)
    assert t.data_ptr() == a.ctypes.data
    assert t.tolist() == a.tolist()
    # writes through the tensor are seen by the array
    t[1, 2] = True if dt is torch.bool else 7
    assert a[1, 2] == (True if dt is torch.bool else 7)
    # and writes through the array by the tensor
    a[0, 0] = 0
    assert t[0, 0].item() == 0


@pytest.mark.parametrize("np_dtype,dt", PAIRS, ids=PAIR_IDS)
def test_numpy_every_dtype_shares(np_dtype, dt):
    t = torch.tensor(sample(np_dtype, seed=1))
    a = t.numpy()
    assert a.dtype == np.dtype(np_dtype)
    assert a.shape == tuple(t.shape)
    assert a.ctypes.data == t.data_ptr()
    assert a.flags.writeable
    assert a.tolist() == t.tolist()
    a[2, 3] = 1
    assert t[2, 3].item() == 1


@pytest.mark.parametrize("make", [
    lambda a: a.T,
    lambda a: a[::2],
    lambda a: a[:, 1::3],
    lambda a: a[1:, ::2],
    lambda a: a[1],
    lambda a: a[:, 2],
    lambda a: np.asfortranarray(a),
    lambda a: a.reshape(2, 3, 4).transpose(2, 0, 1),
    lambda a: a.reshape(2, 3, 4)[:, ::2, 1:3],
    lambda a: np.broadcast_to(a[0], (5, 6)),
], ids=["T", "rows_step", "cols_step", "both", "row", "col", "fortran", "permuted3d",
        "sliced3d", "broadcast"])
@pytest.mark.filterwarnings("ignore:The given NumPy array is not writable")
def test_from_numpy_non_contiguous(make):
    a = make(np.arange(24.0).reshape(4, 6))
    t = torch.from_numpy(a)
    assert t.shape == a.shape
    assert t.stride() == tuple(s // 8 for s in a.strides)
    assert t.tolist() == a.tolist()
    assert t.is_contiguous() == a.flags["C_CONTIGUOUS"]
    assert np.shares_memory(t.numpy(), a)
    assert t.numpy().strides == a.strides


def test_from_numpy_strided_write_back():
    a = np.zeros((4, 6))
    t = torch.from_numpy(a[1:, ::2])
    t.fill_(1.0)
    expected = np.zeros((4, 6))
    expected[1:, ::2] = 1.0
    np.testing.assert_array_equal(a, expected)


def test_from_numpy_zero_dim():
    a = np.array(3.5)
    t = torch.from_numpy(a)
    assert t.shape == () and t.dim() == 0
    assert t.item() == 3.5
    t.fill_(1.25)
    assert a[()] == 1.25
    assert t.numpy().shape == ()


@pytest.mark.parametrize("shape", [(0,), (0, 3), (3, 0), (2, 0, 4)])
def test_from_numpy_empty(shape):
    a = np.zeros(shape, dtype=np.float32)
    t = torch.from_numpy(a)
    assert t.shape == shape and t.numel() == 0
    assert t.tolist() == a.tolist()
    assert t.numpy().shape == shape
    assert repr(t).startswith("tensor([]")
    # an empty array may carry negative strides: nothing is addressed, so it is accepted
    assert torch.from_numpy(np.zeros((0, 3))[:, ::-1]).shape == (0, 3)


def test_from_numpy_record_field_and_reinterpreted_views():
    rec = np.zeros(4, dtype=[("a", "<i4"), ("b", "<f4")])
    rec["b"] = [1, 2, 3, 4]
    t = torch.from_numpy(rec["b"])
    assert t.dtype is torch.float32 and t.stride() == (2,)
    assert t.tolist() == [1.0, 2.0, 3.0, 4.0]
    halves = np.arange(5, dtype=np.int64).view(np.int32)[::2]
    assert torch.from_numpy(halves).tolist() == halves.tolist()


@pytest.mark.parametrize("a", [
    np.arange(5)[::-1],
    np.arange(12.0).reshape(3, 4)[:, ::-1],
    np.arange(12.0).reshape(3, 4)[::-2],
    np.flip(np.ones((2, 2))),
], ids=["1d", "cols", "rows_step", "flip"])
def test_from_numpy_negative_strides(a):
    with pytest.raises(ValueError, match="At least one stride in the given numpy array is negative"):
        torch.from_numpy(a)


@pytest.mark.parametrize("dt", [">i4", ">f8", ">i2", ">f2", "<i4" if sys.byteorder == "big" else ">i8"])
def test_from_numpy_non_native_byte_order(dt):
    a = np.arange(4).astype(dt)
    with pytest.raises(ValueError, match="byte order"):
        torch.from_numpy(a)


@pytest.mark.parametrize("np_dtype", [np.clongdouble,
                                      np.object_, "U3", "S2", "datetime64[s]", np.longdouble])
def test_from_numpy_unsupported_dtypes(np_dtype):
    a = np.zeros(3, dtype=np_dtype)
    with pytest.raises(TypeError, match="can't convert np.ndarray of type"):
        torch.from_numpy(a)


@pytest.mark.parametrize("bad", [[1, 2], (1.0,), 3.0, np.float64(3.0), None, "abc", torch.zeros(2)])
def test_from_numpy_wants_an_ndarray(bad):
    with pytest.raises(TypeError, match="expected np.ndarray"):
        torch.from_numpy(bad)


def _run(code):
    r = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True,
                       timeout=60)
    assert r.returncode == 0, r.stderr
    return r.stdout


def test_from_numpy_non_writeable_warns_once():
    # the warning is process-wide "once" (as torch), so it is checked in a fresh interpreter
    out = _run("""
        import warnings, numpy as np, minitorch as torch
        a = np.ones(3)
        a.flags.writeable = False
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            t = torch.from_numpy(a)
            torch.from_numpy(a)
            torch.from_numpy(np.frombuffer(b"abcd", dtype=np.uint8))
        print(len(w), w[0].category.__name__, "not writable" in str(w[0].message))
        print(t.tolist())
    """)
    assert out.split("\n")[:2] == ["1 UserWarning True", "[1.0, 1.0, 1.0]"]


def test_from_numpy_non_writeable_warning_can_be_an_error():
    out = _run("""
        import warnings, numpy as np, minitorch as torch
        a = np.ones(3)
        a.flags.writeable = False
        warnings.simplefilter("error")
        try:
            torch.from_numpy(a)
        except UserWarning:
            print("raised")
    """)
    assert out.strip() == "raised"


# ---- lifetimes -------------------------------------------------------------------

def test_array_outlives_its_name_while_a_tensor_uses_it():
    a = np.arange(6.0)
    ref = weakref.ref(a)
    t = torch.from_numpy(a)
    v = t[2:].view(2, 2)
    s = t.storage()
    del a, t
    gc.collect()
    assert ref() is not None
    assert v.tolist() == [[2.0, 3.0], [4.0, 5.0]]
    del v
    gc.collect()
    assert ref() is not None  # the storage still holds it
    assert s.tolist() == [0.0, 1.0, 2.0, 3.0, 4.0, 5.0]
    del s
    gc.collect()
    assert ref() is None  # freed with the last user of its memory


def test_array_freed_when_tensors_die():
    a = np.arange(4.0)
    ref = weakref.ref(a)
    views = [torch.from_numpy(a)[i:] for i in range(4)]
    del a
    gc.collect()
    assert ref() is not None
    views.clear()
    gc.collect()
    assert ref() is None


def test_numpy_array_outlives_tensor():
    t = torch.arange(5.0)
    storage = t.untyped_storage()
    count = storage._refcount()
    a = t.numpy()
    assert storage._refcount() == count + 1
    b = t[1:].numpy()
    del t
    gc.collect()
    assert a.tolist() == [0.0, 1.0, 2.0, 3.0, 4.0]
    a[0] = 42.0
    assert b.tolist() == [1.0, 2.0, 3.0, 4.0]
    del a, b
    gc.collect()
    assert storage._refcount() == count - 1  # the tensor's reference is gone too


def test_numpy_base_is_not_the_tensor():
    t = torch.arange(3.0)
    a = t.numpy()
    assert a.base is not None and a.base is not t
    t.t_()  # re-pointing the tensor does not affect the array
    t.unsqueeze_(0)
    assert a.tolist() == [0.0, 1.0, 2.0]


def test_round_trip_chain():
    a = np.arange(12, dtype=np.int32).reshape(3, 4)
    b = torch.from_numpy(torch.from_numpy(a).t().numpy()).numpy()
    assert np.shares_memory(a, b)
    np.testing.assert_array_equal(b, a.T)


# ---- .numpy() -----------------------------------------------------------------------

@pytest.mark.parametrize("make", [
    lambda t: t.t(),
    lambda t: t[1:, ::2],
    lambda t: t[:, 1],
    lambda t: t.unsqueeze(1),
    lambda t: t[0:1].expand(3, 4),
    lambda t: t.view(2, 2, 3).permute(2, 0, 1),
    lambda t: t[1, 2],
], ids=["t", "slice", "col", "unsqueeze", "expand", "permute", "scalar"])
def test_numpy_of_views(make):
    base = torch.arange(12.0).view(3, 4)
    v = make(base)
    a = v.numpy()
    assert a.shape == tuple(v.shape)
    assert a.strides == tuple(s * 4 for s in v.stride())
    assert a.tolist() == v.tolist()
    assert np.shares_memory(a, base.numpy())


def test_numpy_bfloat16_raises():
    with pytest.raises(TypeError, match="bfloat16"):
        torch.ones(2, dtype=torch.bfloat16).numpy()
    with pytest.raises(TypeError, match="bfloat16"):
        np.asarray(torch.ones(2, dtype=torch.bfloat16))


def test_numpy_rejects_arguments():
    with pytest.raises(TypeError):
        torch.ones(2).numpy(1, 2)
    assert torch.ones(2).numpy(force=True).tolist() == [1.0, 1.0]


# ---- __array__ and the buffer protocol ----------------------------------------------------

@pytest.mark.parametrize("np_dtype,dt", PAIRS, ids=PAIR_IDS)
def test_asarray(np_dtype, dt):
    t = torch.tensor(sample(np_dtype, seed=2))
    a = np.asarray(t)
    assert a.dtype == np.dtype(np_dtype)
    assert np.shares_memory(a, t.numpy())
    np.testing.assert_array_equal(a, t.numpy())


def test_array_conversions():
    t = torch.arange(6.0).view(2, 3)
    assert np.asarray(t.t()).strides == (4, 12)
    c = np.array(t)
    assert not np.shares_memory(c, t.numpy())
    f = np.asarray(t, dtype=np.float64)
    assert f.dtype == np.float64 and f.tolist() == t.tolist()
    assert not np.shares_memory(f, t.numpy())
    assert np.add(np.ones(3), torch.ones(3)).tolist() == [2.0] * 3


@pytest.mark.parametrize("dt,fmt", [(torch.bool, "?"), (torch.uint8, "B"), (torch.int8, "b"),
                                    (torch.int16, "h"), (torch.int32, "i"), (torch.int64, "q"),
                                    (torch.float16, "e"), (torch.float32, "f"), (torch.float64, "d")])
def test_memoryview(dt, fmt):
    t = torch.ones(2, 3, dtype=dt)
    m = memoryview(t)
    assert m.format == fmt
    assert m.shape == (2, 3)
    assert m.itemsize == dt.itemsize
    assert m.nbytes == 6 * dt.itemsize
    assert not m.readonly
    np.testing.assert_array_equal(np.asarray(m), t.numpy())
    if fmt != "e":  # memoryview.tolist() cannot unpack half floats
        assert m.tolist() == t.tolist()


def test_memoryview_strided_and_writable():
    t = torch.arange(12, dtype=torch.int16).view(3, 4)
    m = memoryview(t[:, ::2])
    assert m.strides == (8, 4)
    assert m.tolist() == [[0, 2], [4, 6], [8, 10]]
    m[1, 1] = 99
    assert t[1, 2].item() == 99
    c = memoryview(t)
    assert c.c_contiguous
    c.cast("B")  # contiguous buffers can be reinterpreted
    assert bytes(memoryview(torch.tensor([1, 2], dtype=torch.uint8))) == b"\x01\x02"


def test_memoryview_keeps_storage_alive():
    t = torch.arange(4.0)
    m = memoryview(t)
    del t
    gc.collect()
    assert m.tolist() == [0.0, 1.0, 2.0, 3.0]
    m.release()


def test_memoryview_bfloat16_raises():
    with pytest.raises(BufferError, match="bfloat16"):
        memoryview(torch.ones(2, dtype=torch.bfloat16))


# ---- tensor() and as_tensor() ---------------------------------------------------------

@pytest.mark.parametrize("np_dtype,dt", PAIRS, ids=PAIR_IDS)
def test_tensor_of_ndarray_copies(np_dtype, dt):
    a = sample(np_dtype, seed=3)
    t = torch.tensor(a)
    assert t.dtype is dt
    assert t.tolist() == a.tolist()
    assert t.data_ptr() != a.ctypes.data
    assert t.is_contiguous()


def test_tensor_of_awkward_arrays_copies():
    assert torch.tensor(np.arange(5)[::-1]).tolist() == [4, 3, 2, 1, 0]
    assert torch.tensor(np.arange(4).astype(">i4")).tolist() == [0, 1, 2, 3]
    assert torch.tensor(np.arange(4).astype(">i4")).dtype is torch.int32
    assert torch.tensor(np.arange(12.0).reshape(3, 4).T).tolist() == np.arange(12.0).reshape(3, 4).T.tolist()
    assert torch.tensor(np.arange(4), dtype=torch.float32).tolist() == [0.0, 1.0, 2.0, 3.0]


def test_as_tensor_sharing_rules():
    a = np.arange(6, dtype=np.float32)
    assert torch.as_tensor(a).data_ptr() == a.ctypes.data
    assert torch.as_tensor(a, dtype=torch.float32).data_ptr() == a.ctypes.data
    assert torch.as_tensor(a, device="cpu").data_ptr() == a.ctypes.data
    c = torch.as_tensor(a, dtype=torch.float64)  # a different dtype needs a copy
    assert c.dtype is torch.float64 and c.data_ptr() != a.ctypes.data
    assert c.tolist() == a.tolist()
    r = torch.as_tensor(a[::-1])  # layouts a tensor cannot describe are copied
    assert r.tolist() == a[::-1].tolist()
    t = torch.arange(3.0)
    assert torch.as_tensor(t) is t
    assert torch.as_tensor(t, dtype=torch.float32) is t
    assert torch.as_tensor(t, dtype=torch.int64).dtype is torch.int64
    lst = [1, 2, 3]
    assert torch.as_tensor(lst).tolist() == lst and torch.as_tensor(lst).dtype is torch.int64


def test_as_tensor_bad_input():
    with pytest.raises(TypeError):
        torch.as_tensor("abc")
    with pytest.raises(TypeError):
        torch.as_tensor(np.zeros(2, dtype=np.clongdouble))
    with pytest.raises(RuntimeError):
        torch.as_tensor(np.zeros(2), device="cuda")


def test_from_numpy_memmap_writes_to_the_file(tmp_path):
    path = tmp_path / "m.bin"
    m = np.memmap(path, dtype=np.int32, mode="w+", shape=(4,))
    t = torch.from_numpy(m)
    t.fill_(7)
    del m  # the tensor keeps the mapping alive
    gc.collect()
    t[1] = 3
    del t
    gc.collect()
    assert np.fromfile(path, dtype=np.int32).tolist() == [7, 3, 7, 7]


def test_numpy_export_makes_storage_unresizable():
    z = torch.randn(5, 5)
    w = z.numpy()
    with pytest.raises(RuntimeError, match="Trying to resize storage that is not resizable"):
        z.resize_(10, 10)
    z.resize_(2, 2)  # shrinking needs no new bytes
    assert z.shape == (2, 2) and w.shape == (5, 5)
    with pytest.raises(ValueError):
        w.resize((10, 10))
    q = torch.randn(3)
    q.resize_(50)  # never exported: grows
    assert q.shape == (50,)


def test_from_numpy_storage_unresizable():
    x = np.zeros((2, 2))
    y = torch.from_numpy(x)
    with pytest.raises(RuntimeError, match="not resizable"):
        y.resize_(5, 5)


def test_array_wrap_bool_result_is_uint8():
    x = torch.tensor([1.0, 2.0, 3.0])
    r = np.greater_equal(x, 2)
    assert isinstance(r, torch.Tensor) and r.dtype == torch.uint8 and r.tolist() == [0, 1, 1]
    assert isinstance(r, torch.ByteTensor)
    assert np.abs(torch.tensor([-1, 2])).dtype == torch.int64
