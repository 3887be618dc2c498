"""Advanced indexing: __getitem__/__setitem__ and index_put_ with integer tensors, lists,
NumPy arrays and boolean masks, mixed with ints, slices, None and ..., against NumPy.

torch's placement rule differs from NumPy's in one way: plain ints are applied first as
selects (basic indexing), so they never count as advanced indices.  The reference below
follows torch: it applies the basic part of the key in NumPy, then indexes the result
with the index arrays alone (where NumPy's and torch's rules agree)."""
import numpy as np
import pytest

import minitorch as torch
import npref
from npref import DTYPES, to_np


def make(rng, shape, dtype, noncontig=False):
    """(tensor, ndarray) with equal values in [-50, 50)."""
    return npref.make(rng, shape, dtype, noncontig, lo=-50, hi=50)


# ---- the reference ------------------------------------------------------------------
def _np_item(it):
    if isinstance(it, (torch.Tensor, np.ndarray)):
        it = to_np(it) if isinstance(it, torch.Tensor) else it
        return int(it) if it.ndim == 0 and it.dtype != np.bool_ else it   # 0-d ints select (torch)
    if isinstance(it, list):
        return np.array(it, dtype=np.int64 if not it or not isinstance(it[0], bool) else np.bool_)
    return it


def _is_adv(it):
    return isinstance(it, np.ndarray)


def np_split(a, key):
    """(basic view of a, key over that view holding only index arrays and full slices)."""
    items = [_np_item(i) for i in (key if isinstance(key, tuple) else (key,))]
    consumed = sum(it.ndim if _is_adv(it) and it.dtype == np.bool_ else 0 if it is None or it is Ellipsis
                   else 1 for it in items)
    basic, second, out = [], [], 0
    for it in items:
        if it is Ellipsis:
            n = a.ndim - consumed
            basic += [slice(None)] * n
            second += [slice(None)] * n
            out += n
        elif _is_adv(it):
            k = it.ndim if it.dtype == np.bool_ else 1
            basic += [slice(None)] * k
            second.append(it)
            out += k
        elif isinstance(it, (int, np.integer)):
            basic.append(it)
        else:  # slice or None
            basic.append(it)
            second.append(slice(None))
            out += 1
    if not any(i is Ellipsis for i in basic):
        basic.append(Ellipsis)          # keeps a 0-d result a view
    b = a[tuple(basic)]
    pos = 0
    for it in second:                   # torch checks mask shapes (NumPy lets empty masks through)
        k = it.ndim if _is_adv(it) and it.dtype == np.bool_ else 1
        if k != 1 or (_is_adv(it) and it.dtype == np.bool_):
            if tuple(it.shape) != tuple(b.shape[pos:pos + k]):
                raise IndexError("mask shape mismatch")
        pos += k
    return b, tuple(second)


def np_getitem(a, key):
    b, k2 = np_split(a, key)
    return b[k2]


def np_setitem(a, key, value):
    b, k2 = np_split(a, key)
    b[k2] = value


# ---- random keys --------------------------------------------------------------------
def random_index(rng, size, shape, kind):
    vals = rng.integers(-size, size, size=shape) if size else np.zeros(shape, dtype=np.int64)
    if kind == "list":
        return vals.tolist() if np.ndim(vals) else [int(vals)]
    if kind == "ndarray":
        return vals.astype(np.int64)
    if kind == "int32":
        return torch.tensor(vals.tolist(), dtype=torch.int32)
    return torch.tensor(vals.tolist(), dtype=torch.int64)


def random_key(rng, shape):
    """A key over `shape` with at least one advanced index; lists only in 1-d form."""
    nd = len(shape)
    bshape = tuple(int(x) for x in rng.integers(0, 4, size=int(rng.integers(0, 3))))
    items, d = [], 0
    has_adv = False
    while d < nd:
        r = rng.random()
        if r < 0.1:
            items.append(None)
            continue
        if r < 0.2 and d + 2 <= nd and not has_adv and rng.random() < 0.5:
            m = rng.random(size=shape[d:d + 2]) < 0.5
            items.append(torch.tensor(m.tolist(), dtype=torch.bool) if rng.random() < 0.7 else m)
            d += 2
            has_adv = True
            bshape = None
            continue
        if r < 0.45:
            if bshape is None:
                items.append(slice(None))
            else:
                kind = ["list", "ndarray", "int32", "int64"][int(rng.integers(4))]
                sh = bshape[int(rng.integers(0, len(bshape) + 1)):]
                sh = tuple(1 if rng.random() < 0.3 else s for s in sh)
                if kind == "list" and len(sh) != 1:
                    kind = "int64"
                items.append(random_index(rng, shape[d], sh, kind))
                has_adv = True
        elif r < 0.55 and bshape is not None and not has_adv:
            m = rng.random(size=shape[d]) < 0.5
            items.append(torch.tensor(m.tolist(), dtype=torch.bool) if rng.random() < 0.5 else m.tolist())
            has_adv = True
            bshape = None
        elif r < 0.7 and shape[d] > 0:
            items.append(int(rng.integers(-shape[d], shape[d])))
        elif r < 0.8 and not any(i is Ellipsis for i in items):
            items.append(Ellipsis)
            d = nd - int(rng.integers(0, nd - d + 1)) if d < nd else d
            continue
        else:
            lo = int(rng.integers(-4, 4))
            items.append(slice(lo, None, int(rng.integers(1, 3))))
        d += 1
    if not any(isinstance(i, (list, np.ndarray, torch.Tensor)) for i in items):
        return None
    return tuple(items)


def check_getitem(t, a, key):
    try:
        e = np_getitem(a, key)
    except IndexError:
        with pytest.raises(IndexError):
            t[key]
        return
    r = t[key]
    assert tuple(r.shape) == e.shape, key
    assert r.dtype == t.dtype
    np.testing.assert_array_equal(to_np(r), e, err_msg=repr(key))
    if r.numel() and any(isinstance(i, list) or getattr(i, "ndim", 0) for i in key):
        assert r.untyped_storage().data_ptr() != t.untyped_storage().data_ptr()


@pytest.mark.parametrize("seed", range(8))
def test_random_getitem_matches_numpy(seed):
    rng = np.random.default_rng(seed)
    done = 0
    while done < 60:
        shape = tuple(int(s) for s in rng.integers(0, 5, size=int(rng.integers(1, 5))))
        if rng.random() < 0.8:
            shape = tuple(s or 1 for s in shape)
        key = random_key(rng, shape)
        if key is None:
            continue
        dt = DTYPES[int(rng.integers(len(DTYPES)))]
        t, a = make(rng, shape, dt, noncontig=bool(rng.integers(2)))
        check_getitem(t, a, key)
        done += 1


@pytest.mark.parametrize("seed", range(6))
def test_random_setitem_matches_numpy(seed):
    rng = np.random.default_rng(100 + seed)
    done = 0
    while done < 50:
        shape = tuple(int(s) or 1 for s in rng.integers(1, 5, size=int(rng.integers(1, 4))))
        key = random_key(rng, shape)
        if key is None:
            continue
        dt = [torch.int64, torch.float32, torch.float64, torch.int32, torch.uint8, torch.bool][done % 6]
        t, a = make(rng, shape, dt, noncontig=bool(rng.integers(2)))
        try:
            res_shape = np_getitem(a, key).shape
        except IndexError:
            continue
        b, k2 = np_split(a, key)
        # NumPy assigns duplicates in order (last wins); torch leaves that unspecified
        idx_pos = np.arange(b.size).reshape(b.shape)[k2]
        if len(np.unique(idx_pos)) != idx_pos.size:
            continue
        mode = done % 3
        if mode == 0:
            value = 7
            np_value = 7
        else:
            vshape = res_shape if mode == 1 else res_shape[int(rng.integers(0, len(res_shape) + 1)):]
            vv, np_value = make(rng, vshape, dt)
            value = vv
        t[key] = value
        np_setitem(a, key, np_value)
        np.testing.assert_array_equal(to_np(t), a, err_msg=repr(key))
        done += 1


# ---- placement of the advanced dims ----------------------------------------------
@pytest.mark.parametrize("key,shape", [
    ((slice(None), [0, 1]), (3, 2, 5)),
    (([0, 1], slice(None)), (2, 4, 5)),
    ((slice(None), [0, 2], [1, 3]), (3, 2)),                    # adjacent: in place
    (([0, 1], slice(None), [1, 3]), (2, 4)),                    # separated: first
    ((slice(None), [[0], [1]], [1, 3]), (3, 2, 2)),             # broadcast 2x2, in place
    ((Ellipsis, [0, 1]), (3, 4, 2)),
    ((None, [0, 1], None), (1, 2, 1, 4, 5)),
    ((0, slice(None), [1, 2]), (4, 2)),                         # the int is a select (torch)
    (([1, 0], 0, [1, 2]), (2,)),                                # adjacent once the int is gone
    ((slice(None), 1, [0, 1]), (3, 2)),
    ((slice(None), None, [0, 1], [1, 2]), (3, 1, 2)),
    (([0, 1], None, slice(None), [1, 2]), (2, 1, 4)),
])
def test_placement(key, shape):
    t, a = torch.arange(60).view(3, 4, 5), np.arange(60).reshape(3, 4, 5)
    r = t[key]
    assert tuple(r.shape) == shape
    np.testing.assert_array_equal(r.numpy(), np_getitem(a, key))


def test_int_applied_before_advanced_differs_from_numpy():
    t, a = torch.arange(24).view(2, 3, 4), np.arange(24).reshape(2, 3, 4)
    assert tuple(t[0, :, [1, 2]].shape) == (3, 2)      # torch; NumPy gives (2, 3)
    assert a[0, :, [1, 2]].shape == (2, 3)
    np.testing.assert_array_equal(t[0, :, [1, 2]].numpy(), a[0][:, [1, 2]])


def test_mask_forms():
    t, a = torch.arange(12).view(3, 4), np.arange(12).reshape(3, 4)
    m = a % 3 == 0
    for key in [torch.tensor(m.tolist()), m, (torch.tensor(m[:, 0].tolist()),), [True, False, True]]:
        e = a[np.array(key) if isinstance(key, list) else key if isinstance(key, np.ndarray)
              else to_np(key[0]) if isinstance(key, tuple) else to_np(key)]
        np.testing.assert_array_equal(t[key].numpy(), e)
    assert t[t > 100].shape == (0,)
    assert t[torch.ones(3, 4, dtype=torch.bool)].tolist() == list(range(12))
    # a mask followed by more indices
    np.testing.assert_array_equal(t[torch.tensor([True, False, True]), 1:3].numpy(), a[[True, False, True], 1:3])
    np.testing.assert_array_equal(t[:, torch.tensor([True, False, True, True])].numpy(), a[:, [True, False, True, True]])


def test_uint8_tensor_index_is_a_mask():
    t = torch.arange(4)
    assert t[torch.tensor([1, 0, 1, 1], dtype=torch.uint8)].tolist() == [0, 2, 3]


def test_bool_scalar_with_advanced_index():
    t, a = torch.arange(6).view(2, 3), np.arange(6).reshape(2, 3)
    for key in [(True, [0, 1]), ([1, 0], True), (slice(None), True, [2]), (True, slice(None), [2])]:
        np.testing.assert_array_equal(t[key].numpy(), a[key])


def test_zero_dim_and_empty():
    t = torch.tensor(5.0)
    assert t[torch.tensor(True)].tolist() == [5.0]
    assert t[torch.tensor(False)].shape == (0,)
    e = torch.zeros(0, 3)
    assert e[torch.tensor([], dtype=torch.int64)].shape == (0, 3)
    assert e[:, [0, 2]].shape == (0, 2)
    assert e[e > 0].shape == (0,)
    assert torch.arange(3)[[]].shape == (0,)
    assert torch.arange(3)[torch.zeros(2, 0, dtype=torch.int64)].shape == (2, 0)


def test_numpy_index_arrays_and_scalars():
    t, a = torch.arange(20).view(4, 5), np.arange(20).reshape(4, 5)
    for idx in [np.array([3, 0]), np.array([[1], [2]], dtype=np.int32), np.array([-1, -4])]:
        np.testing.assert_array_equal(t[idx].numpy(), a[idx])
        np.testing.assert_array_equal(t[:, idx].numpy(), a[:, idx])
    assert t[np.int64(2), [1, 2]].tolist() == [11, 12]


def test_getitem_result_is_a_copy():
    t = torch.arange(6)
    r = t[[0, 1]]
    r[0] = 100
    assert t[0].item() == 0


# ---- setitem --------------------------------------------------------------------
def test_setitem_forms():
    t = torch.zeros(3, 4)
    t[t == 0] = 1.0
    assert t.tolist() == [[1.0] * 4] * 3
    t[[0, 2]] = torch.tensor([5.0, 6.0, 7.0, 8.0])       # broadcast over rows
    assert t[0].tolist() == [5.0, 6.0, 7.0, 8.0] and t[2].tolist() == [5.0, 6.0, 7.0, 8.0]
    t[:, [1]] = torch.tensor([[9.0], [9.0], [9.0]])
    assert t[:, 1].tolist() == [9.0] * 3
    t[[0, 1], [0, 0]] = torch.tensor([-1.0, -2.0])
    assert t[:, 0].tolist() == [-1.0, -2.0, 5.0]
    t[torch.tensor([True, False, False])] = 0
    assert t[0].tolist() == [0.0] * 4
    t[[1]] = torch.ones(1, 1, 4)                          # leading 1-dims dropped
    assert t[1].tolist() == [1.0] * 4
    i = torch.zeros(2, 3, dtype=torch.int64)
    i[i == 0] = 2.7                                       # value cast to the tensor's dtype
    assert i.tolist() == [[2] * 3] * 2
    with pytest.raises(RuntimeError, match="Index put requires the source and destination dtypes "
                                           "match, got Long for the destination and Float"):
        i[:, [0]] = torch.tensor([[1.5], [2.5]])          # index_put_'s rule, as torch
    i[:, [0]] = torch.tensor([[1], [2]])
    assert i[:, 0].tolist() == [1, 2]
    i[i == 1] = torch.tensor(7.9, dtype=torch.float64)    # one mask, one element: converted
    assert i[:, 0].tolist() == [7, 2]
    b = torch.zeros(3, dtype=torch.bool)
    b[[1]] = True
    assert b.tolist() == [False, True, False]


def test_setitem_non_contiguous_target_writes_through():
    base = torch.zeros(4, 6)
    v = base[:, ::2]
    v[[0, 3], [1, 2]] = torch.tensor([1.0, 2.0])
    assert base[0, 2].item() == 1.0 and base[3, 4].item() == 2.0
    assert base.sum().item() == 3.0
    base.t()[[1]] = 5.0
    assert base[:, 1].tolist() == [5.0] * 4


def test_setitem_errors_leave_tensor_unchanged():
    t = torch.arange(5)
    with pytest.raises(IndexError, match="index 7 is out of bounds for dimension 0 with size 5"):
        t[[0, 7]] = 1
    assert t.tolist() == list(range(5))
    with pytest.raises(RuntimeError, match=r"shape mismatch: value tensor of shape \[3\] cannot be broadcast "
                                           r"to indexing result of shape \[2\]"):
        t[[0, 1]] = torch.tensor([1, 2, 3])
    assert t.tolist() == list(range(5))


# ---- index_put_ -----------------------------------------------------------------
@pytest.mark.parametrize("dtype", [torch.int64, torch.int32, torch.float32, torch.float64, torch.uint8])
def test_index_put_accumulate_matches_add_at(dtype):
    rng = np.random.default_rng(3)
    t, a = make(rng, (6, 3), dtype)
    idx = rng.integers(-6, 6, size=20)
    v, va = make(rng, (20, 3), dtype)
    t.index_put_((torch.tensor(idx.tolist()),), v, accumulate=True)
    np.add.at(a, idx, va)
    np.testing.assert_array_equal(to_np(t), a)


def test_index_put_forms():
    t = torch.zeros(3, 3)
    r = t.index_put_((torch.tensor([0, 2]), torch.tensor([1, 1])), torch.tensor(4.0))
    assert r is t and t[0, 1].item() == 4.0 and t[2, 1].item() == 4.0
    u = torch.index_put(t, (torch.tensor([1]),), torch.tensor([7.0, 8.0, 9.0]))
    assert u[1].tolist() == [7.0, 8.0, 9.0] and t[1].tolist() == [0.0] * 3
    t.index_put_((t > 3,), torch.tensor(1.0))
    assert t.sum().item() == 2.0
    t.index_put_((torch.tensor([0, 0, 0]), torch.tensor([0, 0, 0])), torch.tensor(1.0), accumulate=True)
    assert t[0, 0].item() == 3.0
    m = torch.zeros(2, 2)
    m.index_put_((torch.tensor([[True, False], [True, True]]),), torch.tensor([1.0, 2.0, 3.0]), True)
    assert m.tolist() == [[1.0, 0.0], [2.0, 3.0]]


def test_index_put_errors():
    t = torch.zeros(3)
    with pytest.raises(RuntimeError, match="Index put requires the source and destination dtypes match, "
                                           "got Float for the destination and Long for the source."):
        t.index_put_((torch.tensor([0]),), torch.tensor([1]))
    with pytest.raises(IndexError, match="index -4 is out of bounds for dimension 0 with size 3"):
        t.index_put_((torch.tensor([-4]),), torch.tensor(1.0), accumulate=True)
    assert t.tolist() == [0.0] * 3
    with pytest.raises(TypeError):
        t.index_put_(torch.tensor([0]), torch.tensor(1.0))


# ---- bad keys -------------------------------------------------------------------
@pytest.mark.parametrize("key,exc,msg", [
    ([5], IndexError, "index 5 is out of bounds for dimension 0 with size 3"),
    (torch.tensor([-4]), IndexError, "index -4 is out of bounds for dimension 0 with size 3"),
    ((slice(None), [0, 4]), IndexError, "index 4 is out of bounds for dimension 0 with size 4"),
    (([0], [9]), IndexError, "index 9 is out of bounds for dimension 1 with size 4"),
    (torch.tensor([0.0]), IndexError, "tensors used as indices must be long, int, byte or bool tensors"),
    ([0.5], IndexError, "tensors used as indices must be long, int, byte or bool tensors"),
    (torch.tensor([1], dtype=torch.int16), IndexError, "tensors used as indices must be long, int, byte or bool"),
    (([0, 1], [0, 1, 2]), IndexError, r"shape mismatch: indexing tensors could not be broadcast together "
                                      r"with shapes \[2\], \[3\]"),
    (([0], [0], [0]), IndexError, "too many indices for tensor of dimension 2"),
    (torch.tensor([True, False]), IndexError, r"The shape of the mask \[2\] at index 0 does not match the shape "
                                              r"of the indexed tensor \[3, 4\] at index 0"),
    ((slice(None), [True, False, True]), IndexError, r"The shape of the mask \[3\] at index 0 does not match"),
    (([0], Ellipsis, Ellipsis), IndexError, "an index can only have a single ellipsis"),
    (([0], "a"), IndexError, "only integers, slices"),
])
def test_bad_keys(key, exc, msg):
    t = torch.zeros(3, 4)
    with pytest.raises(exc, match=msg):
        t[key]
    with pytest.raises(exc, match=msg):
        t[key] = 1.0
    assert t.sum().item() == 0.0


def test_large_gather_is_exact():
    rng = np.random.default_rng(9)
    a = rng.standard_normal((300, 400)).astype(np.float32)
    t = torch.from_numpy(a)
    i = rng.integers(-300, 300, size=5000)
    j = rng.integers(-400, 400, size=5000)
    np.testing.assert_array_equal(t[torch.from_numpy(i), torch.from_numpy(j)].numpy(), a[i, j])
    np.testing.assert_array_equal(t[:, torch.from_numpy(j[:1000])].numpy(), a[:, j[:1000]])


def test_large_index_reports_the_first_bad_index():
    t = torch.zeros(1000)
    idx = np.zeros(200000, dtype=np.int64)
    idx[150000], idx[170000] = 1000, -2000
    with pytest.raises(IndexError, match="index 1000 is out of bounds for dimension 0 with size 1000"):
        t[torch.from_numpy(idx)]
    with pytest.raises(IndexError, match="index 1000 is out of bounds for dimension 0 with size 1000"):
        t[torch.from_numpy(idx)] = 1.0
    with pytest.raises(IndexError, match="index 1000 is out of bounds"):
        t.view(10, 100)[torch.from_numpy(idx % 10), torch.from_numpy(idx)]
    with pytest.raises(IndexError, match="index out of range in self"):
        t.index_select(0, torch.from_numpy(idx))
    assert t.sum().item() == 0.0


def test_put_and_scatter_read_overlapping_values_before_writing():
    t = torch.arange(6.0)
    t[[0, 1, 2]] = t[1:4]                          # the values are a view of t itself
    assert t.tolist() == [1.0, 2.0, 3.0, 3.0, 4.0, 5.0]
    t = torch.arange(6.0)
    t.index_put_((torch.tensor([1, 2, 3]),), t[0:3], accumulate=True)
    assert t.tolist() == [0.0, 1.0, 3.0, 5.0, 4.0, 5.0]
    t = torch.arange(6.0)
    t.scatter_(0, torch.tensor([1, 2, 3]), t)
    assert t.tolist() == [0.0, 0.0, 1.0, 2.0, 4.0, 5.0]


def test_empty_tensors_with_zero_strides_accept_puts():
    t = torch.zeros(1, 0).expand(3, 0)          # stride 0 over a size-3 dim, but no elements
    t[[0, 2]] = 1.0
    t.index_put_((torch.tensor([1]),), torch.zeros(1, 0))
    with pytest.raises(IndexError, match="index 3 is out of bounds for dimension 0 with size 3"):
        t[[3]] = 1.0
    assert t.shape == (3, 0)


# ---------------------------------------------------------------- key parsing (in C) as torch
def test_list_key_holding_sequences_is_a_tuple_with_a_warning():
    x = torch.arange(12.0).reshape(3, 4)
    with pytest.warns(UserWarning, match="non-tuple sequence for multidimensional indexing"):
        r = x[[[0, 1], [1, 2]]]                 # read as x[[0, 1], [1, 2]]
    assert r.tolist() == [1.0, 6.0]
    with pytest.warns(UserWarning):
        assert x[[0, slice(None)]].tolist() == [0.0, 1.0, 2.0, 3.0]
    assert x[[0, 2]].shape == (2, 4)            # a plain list of ints is an index tensor


def test_index_tensor_dtypes_as_torch():
    x = torch.arange(12.0).reshape(3, 4)
    for dt in (torch.int16, torch.int8, torch.float32):
        with pytest.raises(IndexError, match="tensors used as indices must be long, int, byte or bool"):
            x[torch.tensor([1], dtype=dt)]
    assert x[torch.tensor([1], dtype=torch.int32)].tolist() == [[4.0, 5.0, 6.0, 7.0]]
    assert x[torch.tensor(1, dtype=torch.int16)].tolist() == [4.0, 5.0, 6.0, 7.0]   # 0-d: an int
    assert x[np.array(1, dtype=np.uint8)].shape == (4,)                            # 0-d array: an int
    assert x[np.array([2, 0])].tolist() == [[8.0, 9.0, 10.0, 11.0], [0.0, 1.0, 2.0, 3.0]]
    with pytest.raises(IndexError, match=r"only integers, slices .* \(got float\)"):
        x[1.0]


@pytest.mark.parametrize("key,shape", [
    ((slice(None), [0, 2], [1, 3]), (2, 2)),
    (([0, 1], slice(None), [1, 3]), (2, 3)),
    ((slice(None), [[0], [2]], slice(None)), (2, 2, 1, 4)),
    ((Ellipsis, [1, 2]), (2, 3, 2)),
    ((slice(None), [1, 2]), (2, 2, 4)),
    (([1, 0],), (2, 3, 4)),
    ((None, [1, 0], None, 1), (1, 2, 1, 4)),     # ints select first (NumPy would move B first)
    ((True, [1, 0]), (2, 3, 4)),
    ((0, torch.tensor([[True, False, True, False]] * 3)), (6,)),
])
def test_result_shapes_and_values_as_numpy(key, shape):
    a = np.arange(24).reshape(2, 3, 4)
    x = torch.from_numpy(a)
    r = x[key]
    assert tuple(r.shape) == shape and r.is_contiguous()
    nkey = tuple(k.numpy() if isinstance(k, torch.Tensor) else k for k in key)
    if key[0] is None and key[-1] == 1:
        expected = a[:, 1][None, [1, 0], None]
    else:
        expected = a[nkey]
    assert r.tolist() == expected.tolist()


def test_setitem_value_dtype_rules_as_torch():
    x = torch.zeros(3, 4)
    m = torch.tensor([True, False, True])
    x[m] = torch.tensor(2)                           # one mask, one element: any dtype
    x[m, 1] = torch.tensor([7], dtype=torch.float64)
    assert x[:, 1].tolist() == [7.0, 0.0, 7.0] and x[0, 0].item() == 2.0
    with pytest.raises(RuntimeError, match="got Float for the destination and Long for the source"):
        x[torch.tensor([0, 1])] = torch.tensor(2)    # an index tensor: dtypes must match
    with pytest.raises(RuntimeError, match="got Float for the destination and Double"):
        x[m] = torch.tensor([1.0, 2.0, 3.0, 4.0], dtype=torch.float64)
    x[[0, 1]] = 2.5                                  # numbers take the tensor's dtype
    assert x[1].tolist() == [2.5] * 4
    u = torch.zeros(3, dtype=torch.uint8)
    with pytest.raises(RuntimeError, match="value cannot be converted to type uint8_t without overflow"):
        u[[0, 1]] = 300
    assert u.tolist() == [0, 0, 0]
    with pytest.raises(TypeError, match="can't assign a list to a minitorch.ByteTensor"):
        u[[0, 1]] = [1, 2]


def test_key_is_read_before_the_tensor():
    x = torch.arange(12.0).reshape(3, 4)

    class Idx:
        def __index__(self):
            x.data = torch.arange(8.0).reshape(2, 4)
            return 1

    assert x[[0, 1], Idx()].tolist() == [1.0, 5.0]   # indexes the tensor as it is after the key
    assert x[slice(Idx(), None)].tolist() == [[4.0, 5.0, 6.0, 7.0]]


@pytest.mark.parametrize("dt", [torch.complex64, torch.complex128])
def test_complex_gather_and_accumulate(dt):
    # one-element rows of 8 and 16 bytes are gathered whole; accumulating puts add complex values
    g = torch.tensor([1 + 2j, 3 + 0j, 5 + 1j], dtype=dt)
    expect = [1 + 2j, 5 + 1j]
    assert g[torch.tensor([0, 2])].tolist() == expect
    assert g[torch.tensor([True, False, True])].tolist() == expect
    z = torch.zeros(3, dtype=dt).index_add(0, torch.tensor([1, 1]), torch.tensor([1j, 2 + 1j], dtype=dt))
    assert z.tolist() == [0, 2 + 2j, 0]
    x = torch.zeros(2, 2, dtype=dt)
    x.index_put_((torch.tensor([0, 0]), torch.tensor([1, 1])), torch.tensor([1j, 1j], dtype=dt),
                 accumulate=True)
    assert x.tolist() == [[0, 2j], [0, 0]]
