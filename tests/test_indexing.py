"""Basic indexing (__getitem__/__setitem__ with ints, slices, None, ..., tuples), against NumPy."""
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import minitorch as torch

def base(*shape):
    return torch.arange(float(np.prod(shape))).view(*shape)


def ref(*shape):
    return np.arange(float(np.prod(shape))).reshape(shape)


def shares(a, b):
    return a.untyped_storage().data_ptr() == b.untyped_storage().data_ptr()


KEYS = [
    0, 1, -1, -2,
    slice(None), slice(1, None), slice(None, 2), slice(None, None, 2), slice(1, None, 2),
    slice(-2, None), slice(-100, 100), slice(5, 1), slice(10, 20), slice(0, 0),
    (0, 1), (-1, -1, -1), (1, slice(None), 2), (slice(None), 1), (slice(None), slice(None), 0),
    Ellipsis, (Ellipsis, 0), (0, Ellipsis), (0, Ellipsis, 1), (Ellipsis, slice(None, None, 3)),
    None, (None, 0), (0, None), (None, None, Ellipsis, None), (slice(None), None, slice(None), None),
    (1, slice(1, 3), slice(None, None, 2)), (slice(None, None, 2), slice(None, None, 2), slice(None, None, 2)),
    (), (Ellipsis, None), (0, 1, 2), (0, 1, None, 2),
]


@pytest.mark.parametrize("key", KEYS, ids=repr)
def test_getitem_matches_numpy(key):
    t, a = base(2, 3, 4), ref(2, 3, 4)
    r = t[key]
    e = a[key]
    assert tuple(r.shape) == e.shape
    assert r.tolist() == (e.tolist() if isinstance(e, np.ndarray) else e)
    assert shares(r, t)
    if isinstance(e, np.ndarray) and e.size:
        # strides of size-1 dims are arbitrary (numpy uses 0 for new axes)
        assert [s for s, n in zip(r.stride(), r.shape) if n > 1] == \
            [s // 8 for s, n in zip(e.strides, e.shape) if n > 1]
        assert r.storage_offset() == (e.ctypes.data - a.ctypes.data) // 8


def test_getitem_returns_views_that_write_through():
    t = torch.zeros(3, 4)
    t[1][2] = 5.0
    t[:, 0][1:].fill_(7.0)
    t[..., -1][None][0, 0] = 9.0
    assert t.tolist() == [[0.0, 0.0, 0.0, 9.0], [7.0, 0.0, 5.0, 0.0], [7.0, 0.0, 0.0, 0.0]]


def test_getitem_int_gives_zero_dim():
    t = base(5)
    s = t[3]
    assert s.shape == () and s.item() == 3.0 and s.storage_offset() == 3
    assert t[-1].item() == 4.0


def test_getitem_bool_and_numpy_scalar_keys():
    t = base(2, 3)
    assert t[True].shape == (1, 2, 3)
    assert t[False].shape == (0, 2, 3)
    assert t[np.int64(1)].tolist() == [3.0, 4.0, 5.0]
    assert t[np.int32(-1), np.int8(0)].item() == 3.0
    # 0-d integer tensors act as ints, 0-d bool tensors as bools (views, as torch)
    assert t[torch.tensor(1)].tolist() == [3.0, 4.0, 5.0] and shares(t[torch.tensor(1)], t)
    assert t[0, torch.tensor(-1, dtype=torch.int32)].item() == 2.0
    assert t[torch.tensor(True)].shape == (1, 2, 3)
    assert t[torch.tensor(False), 0].shape == (0, 3)
    with pytest.raises(IndexError, match="out of bounds"):
        t[torch.tensor(2)]
    t[torch.tensor(1), torch.tensor(0)] = -1.0
    assert t[1, 0].item() == -1.0


def test_getitem_zero_dim_tensor():
    s = torch.tensor(5.0)
    assert s[...].shape == () and shares(s[...], s)
    assert s[None].shape == (1,)
    assert s[()].shape == ()
    with pytest.raises(IndexError):
        s[0]
    with pytest.raises(IndexError):
        s[:]


@settings(max_examples=200, deadline=None, derandomize=True, database=None)
@given(st.lists(st.integers(0, 5), min_size=1, max_size=4), st.data())
def test_getitem_random_slices_match_numpy(shape, data):
    a = np.arange(float(np.prod(shape))).reshape(shape)
    t = torch.tensor(a)
    key = []
    for n in shape[:data.draw(st.integers(0, len(shape)))]:
        if n and data.draw(st.booleans()):
            key.append(data.draw(st.integers(-n, n - 1)))
        else:
            key.append(slice(data.draw(st.none() | st.integers(-7, 7)), data.draw(st.none() | st.integers(-7, 7)),
                             data.draw(st.none() | st.integers(1, 3))))
    for _ in range(data.draw(st.integers(0, 2))):  # None adds a dim anywhere
        key.insert(data.draw(st.integers(0, len(key))), None)
    if data.draw(st.booleans()):
        key.insert(data.draw(st.integers(0, len(key))), Ellipsis)
    key = tuple(key)
    try:
        e = a[key]
    except IndexError:  # e.g. an int moved onto an empty dim by the ellipsis
        with pytest.raises(IndexError):
            t[key]
        return
    r = t[key]
    assert tuple(r.shape) == e.shape
    assert r.tolist() == e.tolist()


# ---- bad indices ----------------------------------------------------------------------

@pytest.mark.parametrize("key,exc,msg", [
    ((0, 0, 0, 0), IndexError, "too many indices for tensor of dimension 3"),
    ((0, Ellipsis, 0, 0, 0), IndexError, "too many indices"),
    (2, IndexError, "index 2 is out of bounds for dimension 0 with size 2"),
    (-3, IndexError, "index -3 is out of bounds for dimension 0 with size 2"),
    ((slice(None), 3), IndexError, "index 3 is out of bounds for dimension 1 with size 3"),
    # torch numbers the dim in the partly indexed result: two ints consumed dims 0 and 1
    ((0, 0, -5), IndexError, "index -5 is out of bounds for dimension 0 with size 4"),
    (slice(None, None, 0), ValueError, "slice step cannot be zero"),
    (slice(None, None, -1), ValueError, "step must be greater than zero"),
    ((0, slice(None, None, -2)), ValueError, "step must be greater than zero"),
    ((Ellipsis, Ellipsis), IndexError, "an index can only have a single ellipsis"),
    ("a", IndexError, "only integers, slices"),
    (1.0, IndexError, "only integers, slices"),
    ((0, 1.5), IndexError, "only integers, slices"),
    ({}, IndexError, "only integers, slices"),
    (2**70, (IndexError, OverflowError), None),
])
def test_getitem_errors(key, exc, msg):
    with pytest.raises(exc, match=msg):
        base(2, 3, 4)[key]


@pytest.mark.parametrize("key", [
    [0, 1], [True, False], torch.tensor([0]), torch.tensor([True, False]), np.array([0, 1]),
    (0, [1]), (slice(None), torch.tensor([1, 2])), (Ellipsis, np.array([0])),
], ids=["list", "bool_list", "long_tensor", "mask", "ndarray", "tuple_list", "tuple_tensor", "tuple_ndarray"])
def test_advanced_keys_match_numpy(key):
    def np_key(k):
        if isinstance(k, tuple):
            return tuple(np_key(e) for e in k)
        return k.numpy() if isinstance(k, torch.Tensor) else k
    t, a = base(2, 3), ref(2, 3)
    assert t[key].tolist() == a[np_key(key)].tolist()
    t[key] = -1.0
    a[np_key(key)] = -1.0
    assert t.tolist() == a.tolist()


# ---- __setitem__ ------------------------------------------------------------------------

@pytest.mark.parametrize("key", KEYS, ids=repr)
def test_setitem_scalar_matches_numpy(key):
    t, a = base(2, 3, 4), ref(2, 3, 4)
    t[key] = -1.0
    a[key] = -1.0
    assert t.tolist() == a.tolist()


@pytest.mark.parametrize("key,value", [
    (0, [[1.0, 2.0, 3.0, 4.0]]),                   # (1, 4) broadcast over (3, 4)
    (0, [1.0, 2.0, 3.0, 4.0]),
    ((slice(None), 1), [[9.0], [8.0]]),            # (2, 1) over (2, 4)
    (Ellipsis, 5.0),
    ((1, slice(None), 2), [7.0, 8.0, 9.0]),
    ((slice(None), slice(None), slice(None, None, 2)), [[[1.0, 2.0]]]),
    ((0, 0), [[[[3.0, 3.0, 3.0, 3.0]]]]),          # leading size-1 dims are dropped (as torch)
    ((None, 1), [1.0]),
])
def test_setitem_broadcast_tensors(key, value):
    t, a = base(2, 3, 4), ref(2, 3, 4)
    t[key] = torch.tensor(value)
    a[key] = np.squeeze(np.array(value), axis=tuple(range(max(0, np.ndim(value) - np.ndim(a[key])))))
    assert t.tolist() == a.tolist()
    if isinstance(value, list):     # as torch: a value is a tensor or a number
        with pytest.raises(TypeError, match="can't assign a list to a minitorch.FloatTensor"):
            t[key] = value


def test_setitem_casts_value_dtype():
    t = torch.zeros(2, 3, dtype=torch.int32)
    t[0] = torch.tensor([1.9, -1.9, 2.5])
    t[1] = 7.8
    assert t.tolist() == [[1, -1, 2], [7, 7, 7]]
    b = torch.zeros(3, dtype=torch.bool)
    b[1] = 5
    assert b.tolist() == [False, True, False]
    f = torch.zeros(2)
    f[0] = True
    f[1] = np.float64(2.5)
    assert f.tolist() == [1.0, 2.5]
    with pytest.raises(TypeError, match="can't assign a numpy.ndarray to a minitorch.FloatTensor"):
        f[:] = np.array([3.0, 4.0])
    f[:] = torch.from_numpy(np.array([3.0, 4.0]))
    assert f.tolist() == [3.0, 4.0]
    f[0] = torch.tensor(9, dtype=torch.int64)  # 0-d tensors broadcast
    assert f.tolist() == [9.0, 4.0]


def test_setitem_from_overlapping_view():
    t = base(6)
    t[1:] = t[:-1]
    assert t.tolist() == [0.0, 0.0, 1.0, 2.0, 3.0, 4.0]
    t = base(6)
    t[:-1] = t[1:].clone()
    assert t.tolist() == [1.0, 2.0, 3.0, 4.0, 5.0, 5.0]
    t = base(6)
    t[:-1] = t[1:]
    assert t.tolist() == [1.0, 2.0, 3.0, 4.0, 5.0, 5.0]
    m = base(3, 3)
    m[:] = m.t()
    assert m.tolist() == ref(3, 3).T.tolist()


def test_setitem_writes_through_to_numpy():
    a = np.zeros((3, 3))
    t = torch.from_numpy(a)
    t[1, ::2] = 4.0
    t[2] = torch.tensor([1.0, 2.0, 3.0])
    assert a.tolist() == [[0.0, 0.0, 0.0], [4.0, 0.0, 4.0], [1.0, 2.0, 3.0]]


@pytest.mark.parametrize("key,value,exc,msg", [
    (0, torch.tensor([1.0, 2.0]), RuntimeError, r"The expanded size of the tensor \(4\) must match the existing size \(2\)"),
    (0, torch.zeros(5), RuntimeError, "must match the existing size"),
    (0, torch.zeros(2, 3, 4), RuntimeError, "the number of sizes provided"),
    (5, 1.0, IndexError, "index 5 is out of bounds for dimension 0 with size 2"),
    ((0, 0, 0, 0), 1.0, IndexError, "too many indices"),
    (slice(None, None, -1), 1.0, ValueError, "step must be greater than zero"),
    (0, "a", TypeError, "str"),
    (0, None, TypeError, None),
    (0, object(), TypeError, None),
    (0, [1.0, [2.0]], TypeError, "can't assign a list"),
    ("x", 1.0, IndexError, "only integers"),
])
def test_setitem_errors(key, value, exc, msg):
    t = base(2, 3, 4)
    before = t.tolist()
    with pytest.raises(exc, match=msg):
        t[key] = value
    assert t.tolist() == before  # nothing is modified


def test_setitem_expanded_target_raises():
    t = torch.zeros(1, 3).expand(2, 3)
    with pytest.raises(RuntimeError, match="more than one element of the written-to tensor"):
        t[:] = 1.0


def test_delitem_not_supported():
    t = base(3)
    with pytest.raises(TypeError, match="deletion"):
        del t[0]


@settings(max_examples=100, deadline=None, derandomize=True, database=None)
@given(st.lists(st.integers(1, 4), min_size=1, max_size=3), st.data())
def test_setitem_random_slices_match_numpy(shape, data):
    a = np.zeros(shape)
    t = torch.zeros(*shape, dtype=torch.float64)
    key = tuple(slice(data.draw(st.none() | st.integers(-5, 5)), data.draw(st.none() | st.integers(-5, 5)),
                      data.draw(st.integers(1, 3))) for _ in shape)
    target = a[key].shape
    # a value broadcastable to the target: some dims set to 1
    vshape = tuple(1 if data.draw(st.booleans()) else n for n in target)
    value = np.arange(1.0, 1.0 + np.prod(vshape)).reshape(vshape)
    a[key] = value
    t[key] = torch.tensor(value)
    assert t.tolist() == a.tolist()


# ---- grad_fn names of x[key] (torch's: the node of the last op its indexing applies) -----
# (key, torch's name) for a (3, 4, 5) input, captured from torch 2.15
GRAD_FN_NAMES_3D = [
    (0, "SelectBackward0"), (-1, "SelectBackward0"), (slice(None), "SliceBackward0"),
    (slice(0, 2), "SliceBackward0"), (slice(None, None, 2), "SliceBackward0"),
    ((0, 1), "SelectBackward0"), ((slice(None), 0), "SelectBackward0"),
    ((0, slice(1, 3)), "SliceBackward0"), ((slice(1, 3), 0), "SelectBackward0"),
    (None, "UnsqueezeBackward0"), ((None, 0), "SelectBackward0"), ((0, None), "UnsqueezeBackward0"),
    (Ellipsis, "AliasBackward0"), ((Ellipsis, 0), "SelectBackward0"),
    ((Ellipsis, None), "UnsqueezeBackward0"), ((0, Ellipsis), "SelectBackward0"),
    ((slice(None), slice(None)), "AliasBackward0"), ((slice(0, 3),), "AliasBackward0"),
    (slice(0, 100), "SliceBackward0"), ((slice(0, 100),), "AliasBackward0"),
    ((slice(None, 3),), "AliasBackward0"), ((slice(-3, None),), "SliceBackward0"),
    ((slice(None, -1),), "SliceBackward0"), ((slice(None, None, 1),), "AliasBackward0"),
    ((slice(0, 0),), "SliceBackward0"), ((slice(None, 3, 2),), "SliceBackward0"),
    ((0, slice(0, 4)), "SelectBackward0"), ((0, slice(0, 10)), "SelectBackward0"),
    ((0, slice(-10, 10)), "SliceBackward0"), ((0, 0, slice(None)), "SelectBackward0"),
    ((slice(None), slice(None), None), "UnsqueezeBackward0"), ((Ellipsis, slice(None)), "AliasBackward0"),
    ((slice(None), Ellipsis, 0), "SelectBackward0"), (True, "IndexBackward0"),
    ((0, True), "IndexBackward0"), ([0, 1], "IndexBackward0"),
]


@pytest.mark.parametrize("key,name", GRAD_FN_NAMES_3D)
def test_getitem_grad_fn_name(key, name):
    x = torch.randn(3, 4, 5, requires_grad=True)
    assert type(x[key].grad_fn).__name__ == name


def test_getitem_grad_fn_name_tensor_keys():
    x = torch.randn(3, 4, 5, requires_grad=True)
    assert type(x[torch.tensor(1)].grad_fn).__name__ == "SelectBackward0"
    assert type(x[0, torch.tensor(1)].grad_fn).__name__ == "SelectBackward0"
    assert type(x[torch.tensor([0, 1])].grad_fn).__name__ == "IndexBackward0"
    assert type(x[torch.tensor([0, 1]), 0].grad_fn).__name__ == "IndexBackward0"
    assert type(x[torch.tensor([True, False, True])].grad_fn).__name__ == "IndexBackward0"
    e = torch.randn(0, 3, requires_grad=True)
    assert type(e[:].grad_fn).__name__ == "SliceBackward0"
    assert type(e[0:0, ].grad_fn).__name__ == "AliasBackward0"
    z = torch.tensor(2.0, requires_grad=True)
    assert type(z[()].grad_fn).__name__ == "AliasBackward0"
    assert type(z[None, None].grad_fn).__name__ == "UnsqueezeBackward0"
    # the gradient is unchanged by the name
    y = x[1, 1:3]
    y.sum().backward()
    assert x.grad[1, 1:3].eq(1).all() and x.grad.sum().item() == 10
