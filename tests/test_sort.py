"""sort/argsort/msort, topk, kthvalue, unique/unique_consecutive against NumPy.

Sorting is stable (equal keys keep their order, in descending order too) and NaN sorts as
the largest value, so values and indices are compared exactly, for every dtype."""
import warnings

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import minitorch as torch
import npref
from npref import DTYPES, to_np


def make(rng, shape, dtype, noncontig=False, lo=-5, hi=5, specials=False):
    """(tensor, ndarray) with equal values, many ties (floats are halves); specials adds
    nan/inf/-0.0 to floats."""
    return npref.make(rng, shape, dtype, noncontig, lo, hi, halves=True, specials=specials)


def np_sort(a, dim, descending):
    """Stable sort of NumPy (NaN last); descending keeps equal keys in order, NaN first."""
    if a.ndim == 0:
        return a.copy(), np.zeros((), dtype=np.int64)
    if not descending:
        idx = np.argsort(a, axis=dim, kind="stable")
    else:
        n = a.shape[dim]
        idx = n - 1 - np.flip(np.argsort(np.flip(a, dim), axis=dim, kind="stable"), dim)
    return np.take_along_axis(a, idx, dim), idx


def same(t, e):
    e = np.asarray(e)
    assert tuple(t.shape) == e.shape
    np.testing.assert_array_equal(to_np(t), e)


@pytest.mark.parametrize("dtype", DTYPES)
def test_sort_random(dtype):
    rng = np.random.default_rng(DTYPES.index(dtype))
    for _ in range(12):
        nd = int(rng.integers(0, 4))
        shape = tuple(int(s) for s in rng.integers(0, 6, size=nd))
        t, a = make(rng, shape, dtype, noncontig=bool(rng.integers(2)), specials=True)
        dim = int(rng.integers(-max(nd, 1), max(nd, 1)))
        for desc in (False, True):
            v, i = torch.sort(t, dim, descending=desc)
            ev, ei = np_sort(a, dim, desc)
            same(v, ev)
            same(i, ei)
            assert v.dtype == dtype and i.dtype == torch.int64
            r = t.sort(dim=dim, descending=desc, stable=True)
            same(r.values, ev)
            same(r.indices, ei)
            same(torch.argsort(t, dim, descending=desc), ei)
            same(t.argsort(dim=dim, descending=desc, stable=True), ei)
        if nd:
            same(torch.msort(t), np_sort(a, 0, False)[0])


def test_sort_stability_and_special_values():
    t = torch.tensor([2.0, float("nan"), -0.0, 1.0, 0.0, float("nan"), float("-inf"), 2.0])
    v, i = torch.sort(t)
    assert i.tolist() == [6, 2, 4, 3, 0, 7, 1, 5]
    v, i = torch.sort(t, descending=True)
    assert i.tolist() == [1, 5, 0, 7, 3, 2, 4, 6]
    b = torch.tensor([True, False, True, False])
    assert torch.sort(b).indices.tolist() == [1, 3, 0, 2]
    assert torch.sort(b, descending=True).indices.tolist() == [0, 2, 1, 3]
    big = torch.tensor([np.iinfo(np.int64).max, np.iinfo(np.int64).min, 0, np.iinfo(np.int64).max - 1])
    assert torch.sort(big).indices.tolist() == [1, 2, 3, 0]


def test_sort_return_type_and_out():
    r = torch.sort(torch.tensor([3, 1, 2]))
    assert type(r).__name__ == "sort" and "minitorch.return_types.sort" in repr(r)
    v, i = r
    assert v.tolist() == [1, 2, 3] and i.tolist() == [1, 2, 0] and r[0] is r.values
    vo, io = torch.empty(3, dtype=torch.int64), torch.empty(3, dtype=torch.int64)
    r = torch.sort(torch.tensor([3, 1, 2]), descending=True, out=(vo, io))
    assert r.values is vo and vo.tolist() == [3, 2, 1] and io.tolist() == [0, 2, 1]
    s = torch.tensor(4.0)
    assert torch.sort(s).values.item() == 4.0 and torch.sort(s).indices.item() == 0


def test_sort_large_lines_and_many_lines():
    rng = np.random.default_rng(5)
    a = rng.integers(0, 1000, size=200000).astype(np.float32)   # one long line, many ties
    v, i = torch.sort(torch.from_numpy(a))
    np.testing.assert_array_equal(i.numpy(), np.argsort(a, kind="stable"))
    d = torch.sort(torch.from_numpy(a), descending=True).indices
    np.testing.assert_array_equal(d.numpy(), np_sort(a, 0, True)[1])
    n = torch.get_num_threads()
    try:
        torch.set_num_threads(1)
        assert torch.sort(torch.from_numpy(a), descending=True).indices.tolist() == d.tolist()
    finally:
        torch.set_num_threads(n)
    b = rng.standard_normal((3000, 40))
    v, i = torch.sort(torch.from_numpy(b), dim=1, descending=True)
    np.testing.assert_array_equal(v.numpy(), -np.sort(-b, axis=1))
    v, i = torch.sort(torch.from_numpy(b), dim=0)
    np.testing.assert_array_equal(i.numpy(), np.argsort(b, axis=0, kind="stable"))


@pytest.mark.parametrize("fn,exc,msg", [
    (lambda: torch.sort(torch.zeros(2, 3), 2), IndexError, r"Dimension out of range \(expected to be in range of \[-2, 1\], but got 2\)"),
    (lambda: torch.sort([3, 1]), TypeError, "must be Tensor"),
    (lambda: torch.argsort(torch.zeros(2), -2), IndexError, "Dimension out of range"),
    (lambda: torch.sort(torch.zeros(2), dim=0.5), TypeError, "dim"),
])
def test_sort_errors(fn, exc, msg):
    with pytest.raises(exc, match=msg):
        fn()


# ---- topk / kthvalue ---------------------------------------------------------------
@pytest.mark.parametrize("dtype", [torch.uint8, torch.int8, torch.int32, torch.int64, torch.float16,
                                   torch.bfloat16, torch.float32, torch.float64])
def test_topk_random(dtype):
    rng = np.random.default_rng(50 + DTYPES.index(dtype))
    for _ in range(12):
        nd = int(rng.integers(1, 4))
        shape = tuple(int(s) for s in rng.integers(1, 6, size=nd))
        t, a = make(rng, shape, dtype, noncontig=bool(rng.integers(2)), specials=True)
        dim = int(rng.integers(-nd, nd))
        k = int(rng.integers(0, shape[dim] + 1))
        for largest in (True, False):
            v, i = torch.topk(t, k, dim, largest=largest)
            ev, ei = np_sort(a, dim, largest)
            ev, ei = np.take(ev, np.arange(k), dim), np.take(ei, np.arange(k), dim)
            same(v, ev)
            same(i, ei)
            r = t.topk(k, dim=dim, largest=largest, sorted=True)
            same(r.values, ev)
            # any order is allowed with sorted=False; the set of picks is not
            r = t.topk(k, dim=dim, largest=largest, sorted=False)
            same(torch.sort(r.values, dim).values, np_sort(ev, dim, False)[0])
            same(torch.gather(t, dim, r.indices), to_np(r.values))


def test_topk_kthvalue_forms():
    t = torch.tensor([[1.0, 5.0, 3.0], [4.0, 2.0, 6.0]])
    r = torch.topk(t, 2)
    assert type(r).__name__ == "topk" and r.values.tolist() == [[5.0, 3.0], [6.0, 4.0]]
    assert r.indices.tolist() == [[1, 2], [2, 0]]
    assert torch.topk(t, 1, dim=0, largest=False).indices.tolist() == [[0, 1, 0]]
    assert torch.topk(torch.tensor(2.0), 1).values.item() == 2.0
    assert torch.topk(torch.tensor(2.0), 0).values.item() == 2.0 and torch.topk(torch.tensor(2.0), 0).indices.item() == 0
    assert torch.topk(t, 0).values.shape == (2, 0)
    k = torch.kthvalue(t, 2)
    assert type(k).__name__ == "kthvalue" and k.values.tolist() == [3.0, 4.0] and k.indices.tolist() == [2, 0]
    k = t.kthvalue(1, dim=0, keepdim=True)
    assert k.values.tolist() == [[1.0, 2.0, 3.0]] and k.indices.tolist() == [[0, 1, 0]]
    assert torch.kthvalue(torch.tensor([1.0, float("nan"), 0.0]), 3).values.item() != \
        torch.kthvalue(torch.tensor([1.0, float("nan"), 0.0]), 3).values.item()   # NaN is the largest
    assert torch.kthvalue(torch.tensor(7), 1).values.item() == 7


@pytest.mark.parametrize("dtype", [torch.int16, torch.int64, torch.float32, torch.float64])
def test_kthvalue_random(dtype):
    rng = np.random.default_rng(60)
    for _ in range(15):
        nd = int(rng.integers(1, 4))
        shape = tuple(int(s) for s in rng.integers(1, 6, size=nd))
        t, a = make(rng, shape, dtype, noncontig=bool(rng.integers(2)))
        dim = int(rng.integers(-nd, nd))
        k = int(rng.integers(1, shape[dim] + 1))
        keep = bool(rng.integers(2))
        v, i = torch.kthvalue(t, k, dim, keep)
        ev = np.take(np.sort(a, axis=dim), [k - 1], axis=dim)
        same(v, ev if keep else np.squeeze(ev, dim))
        picked = np.take_along_axis(a, (i.numpy() if keep else np.expand_dims(i.numpy(), dim)), dim)
        np.testing.assert_array_equal(picked, ev)


@pytest.mark.parametrize("fn,exc,msg", [
    (lambda: torch.topk(torch.zeros(3), 4), RuntimeError, "selected index k out of range"),
    (lambda: torch.topk(torch.zeros(3), -1), RuntimeError, "selected index k out of range"),
    (lambda: torch.topk(torch.zeros(3), 1, 1), IndexError, "Dimension out of range"),
    (lambda: torch.kthvalue(torch.zeros(2, 3), 4), RuntimeError, "kthvalue\\(\\): selected number k out of range for dimension 1"),
    (lambda: torch.kthvalue(torch.zeros(2, 3), 0, 0), RuntimeError, "selected number k out of range for dimension 0"),
    (lambda: torch.kthvalue(torch.zeros(2, 0), 1), IndexError, r"kthvalue\(\): Expected reduction dim 1 to have non-zero size."),
    (lambda: torch.topk([1.0], 1), TypeError, "must be Tensor"),
])
def test_topk_kthvalue_errors(fn, exc, msg):
    with pytest.raises(exc, match=msg):
        fn()


# ---- unique / unique_consecutive ----------------------------------------------------------
@pytest.mark.parametrize("dtype", DTYPES)
def test_unique_random(dtype):
    rng = np.random.default_rng(70 + DTYPES.index(dtype))
    for _ in range(8):
        nd = int(rng.integers(0, 4))
        shape = tuple(int(s) for s in rng.integers(0, 5, size=nd))
        t, a = make(rng, shape, dtype, noncontig=bool(rng.integers(2)))
        u, inv, cnt = torch.unique(t, return_inverse=True, return_counts=True)
        eu, einv, ecnt = np.unique(a, return_inverse=True, return_counts=True)
        same(u, eu)
        assert inv.shape == t.shape and inv.dtype == torch.int64 and cnt.dtype == torch.int64
        np.testing.assert_array_equal(inv.numpy().reshape(-1), np.asarray(einv).reshape(-1))
        same(cnt, ecnt)
        same(t.unique(), eu)
        same(torch.unique(t, sorted=False), eu)
        if nd:
            dim = int(rng.integers(-nd, nd))
            if a.size == 0 and a.shape[dim] != 0:
                with pytest.raises(RuntimeError, match="unique cannot be applied"):
                    torch.unique(t, dim=dim)
                continue
            u, inv, cnt = torch.unique(t, dim=dim, return_inverse=True, return_counts=True)
            eu, einv, ecnt = np.unique(a, axis=dim, return_inverse=True, return_counts=True)
            same(u, eu)
            np.testing.assert_array_equal(inv.numpy(), np.asarray(einv).reshape(-1))
            same(cnt, ecnt)


def np_unique_consecutive(a):
    flat = a.reshape(-1)
    if flat.size == 0:
        return flat, np.zeros(a.shape, np.int64), np.zeros(0, np.int64)
    first = np.concatenate([[True], flat[1:] != flat[:-1]])
    starts = np.flatnonzero(first)
    return flat[first], (np.cumsum(first) - 1).reshape(a.shape), np.diff(np.append(starts, flat.size))


@pytest.mark.parametrize("dtype", [torch.bool, torch.int8, torch.int64, torch.float16, torch.float32])
def test_unique_consecutive_random(dtype):
    rng = np.random.default_rng(80)
    for _ in range(10):
        shape = tuple(int(s) for s in rng.integers(0, 6, size=int(rng.integers(0, 3))))
        t, a = make(rng, shape, dtype, lo=0, hi=3, noncontig=bool(rng.integers(2)))
        u, inv, cnt = torch.unique_consecutive(t, return_inverse=True, return_counts=True)
        eu, einv, ecnt = np_unique_consecutive(a)
        same(u, eu)
        same(inv, einv)
        same(cnt, ecnt)
        same(t.unique_consecutive(), eu)


def test_unique_forms():
    t = torch.tensor([[1, 3], [1, 3], [0, 5], [1, 3]])
    u, inv, cnt = torch.unique(t, dim=0, return_inverse=True, return_counts=True)
    assert u.tolist() == [[0, 5], [1, 3]] and inv.tolist() == [1, 1, 0, 1] and cnt.tolist() == [1, 3]
    u, cnt = torch.unique_consecutive(t, dim=0, return_counts=True)
    assert u.tolist() == [[1, 3], [0, 5], [1, 3]] and cnt.tolist() == [2, 1, 1]
    u, inv = torch.unique_consecutive(t, dim=1, return_inverse=True)
    assert u.tolist() == t.tolist() and inv.tolist() == [0, 1]
    # each NaN is its own entry, as torch on the CPU (NaN != NaN)
    f = torch.unique(torch.tensor([2.0, float("nan"), 1.0, float("nan"), 2.0, -0.0, 0.0]), return_counts=True)
    assert f[0].tolist()[:3] == [-0.0, 1.0, 2.0] and len(f[0]) == 5 and f[1].tolist() == [2, 1, 2, 1, 1]
    e = torch.unique(torch.tensor([]), return_inverse=True, return_counts=True)
    assert [x.shape for x in e] == [(0,), (0,), (0,)]
    with pytest.raises(IndexError, match="Dimension out of range"):
        torch.unique(t, dim=2)
    with pytest.raises(TypeError, match="must be Tensor"):
        torch.unique([1, 2])


# ---- searchsorted / bucketize / bincount ------------------------------------------------
@pytest.mark.parametrize("dtype", [torch.uint8, torch.int16, torch.int32, torch.int64, torch.float16,
                                   torch.bfloat16, torch.float32, torch.float64])
def test_searchsorted_random(dtype):
    rng = np.random.default_rng(90 + DTYPES.index(dtype))
    for _ in range(12):
        nd = int(rng.integers(1, 4))
        shape = tuple(int(s) for s in rng.integers(0, 6, size=nd))
        bt, ba = make(rng, shape, dtype, lo=-50, hi=50)     # NaN-free: see test_searchsorted_forms
        bt, ba = torch.sort(bt).values, np.sort(ba, axis=-1)
        one_d = rng.random() < 0.4
        if one_d:
            bt, ba = bt.reshape(-1).sort().values, np.sort(ba.reshape(-1))
            vshape = tuple(int(s) for s in rng.integers(0, 4, size=int(rng.integers(0, 3))))
        else:
            vshape = shape[:-1] + (int(rng.integers(0, 5)),)
        vt, va = make(rng, vshape, dtype, noncontig=bool(rng.integers(2)) and len(vshape) > 0, specials=True)
        for side in ("left", "right"):
            if one_d:
                e = np.searchsorted(ba, va, side=side)
            elif va.size == 0 or ba.size == 0:
                e = np.zeros(vshape, np.int64)
            else:
                lines_b, lines_v = ba.reshape(-1, shape[-1]), va.reshape(-1, vshape[-1])
                e = np.stack([np.searchsorted(x, y, side=side) for x, y in zip(lines_b, lines_v)]) \
                    if lines_b.shape[0] else np.zeros((0, vshape[-1]), np.int64)
                e = e.reshape(vshape)
            r = torch.searchsorted(bt, vt, side=side)
            assert r.dtype == torch.int64
            same(r, e)
            same(torch.searchsorted(bt, vt, right=side == "right", out_int32=True), e.astype(np.int32))


def test_searchsorted_forms():
    b = torch.tensor([1, 3, 5, 7, 9])
    assert torch.searchsorted(b, 5).item() == 2 and torch.searchsorted(b, 5, right=True).item() == 3
    assert torch.searchsorted(b, 5.5).item() == 3          # the float scalar is compared as float
    assert torch.searchsorted(b, torch.tensor([4.5, 9.5])).tolist() == [2, 5]
    unsorted = torch.tensor([9, 1, 7, 3, 5])
    assert torch.searchsorted(unsorted, torch.tensor([4, 8]), sorter=torch.argsort(unsorted)).tolist() == [2, 4]
    # a NaN value goes after every boundary; NaN boundaries compare false with everything, as
    # torch's search does (NumPy would place 2.0 before the NaN instead)
    assert torch.searchsorted(torch.tensor([1.0, 3.0]), torch.tensor([float("nan")])).tolist() == [2]
    assert torch.searchsorted(torch.tensor([1.0, float("nan")]), torch.tensor([float("nan"), 2.0])).tolist() == [2, 2]
    out = torch.empty(2, dtype=torch.int64)
    assert torch.searchsorted(b, torch.tensor([0, 10]), out=out) is out and out.tolist() == [0, 5]
    assert torch.bucketize(torch.tensor([1, 4, 9, 10]), b).tolist() == [0, 2, 4, 5]
    assert torch.bucketize(torch.tensor([1, 4, 9, 10]), b, right=True).tolist() == [1, 2, 5, 5]
    assert torch.bucketize(3, b, out_int32=True).dtype == torch.int32


@pytest.mark.parametrize("fn,exc,msg", [
    (lambda b: torch.searchsorted(b.reshape(5, 1), torch.tensor([1])), RuntimeError,
     "boundaries tensor should be 1 dimension or the first N-1 dimensions"),
    (lambda b: torch.searchsorted(b.reshape(5, 1), 3), RuntimeError, "input value can be a scalar only when"),
    (lambda b: torch.searchsorted(b[0], torch.tensor([1])), RuntimeError, "boundaries tensor should have positive dimension"),
    (lambda b: torch.searchsorted(b, torch.tensor([1]), side="middle"), RuntimeError, "side can only be 'left' or 'right'"),
    (lambda b: torch.searchsorted(b, torch.tensor([1]), side="left", right=True), RuntimeError,
     "side and right can't be set to opposites"),
    (lambda b: torch.searchsorted(b, torch.tensor([1]), sorter=torch.tensor([0, 1])), RuntimeError,
     "boundary and sorter must have the same size"),
    (lambda b: torch.searchsorted(b, torch.tensor([1]), sorter=torch.tensor([0, 1, 2, 3, 5])), RuntimeError,
     "sorter index out of range"),
    (lambda b: torch.searchsorted(b, torch.tensor([1]), out=torch.empty(1, dtype=torch.int32)), RuntimeError,
     "output tensor's dtype is wrong"),
    (lambda b: torch.searchsorted(b, "x"), TypeError, "must be Tensor or Number"),
    (lambda b: torch.bucketize(torch.tensor([1]), b.reshape(5, 1)), RuntimeError, "boundaries tensor must be 1 dimension"),
])
def test_searchsorted_errors(fn, exc, msg):
    with pytest.raises(exc, match=msg):
        fn(torch.tensor([1, 3, 5, 7, 9]))


@pytest.mark.parametrize("dtype", [torch.uint8, torch.int8, torch.int16, torch.int32, torch.int64])
def test_bincount_random(dtype):
    rng = np.random.default_rng(100)
    for _ in range(10):
        x = rng.integers(0, 20, size=int(rng.integers(0, 50)))
        t = torch.from_numpy(x).to(dtype)
        ml = int(rng.integers(0, 30))
        r = torch.bincount(t, minlength=ml)
        assert r.dtype == torch.int64
        same(r, np.bincount(x, minlength=ml))
        same(t.bincount(), np.bincount(x))
        w = rng.standard_normal(x.size)
        rw = torch.bincount(t, torch.from_numpy(w), ml)
        assert rw.dtype == torch.float64
        np.testing.assert_allclose(rw.numpy(), np.bincount(x, w, ml), rtol=1e-12, atol=1e-12)
        rf = torch.bincount(t, torch.from_numpy(w.astype(np.float32)))
        assert rf.dtype == torch.float32
        np.testing.assert_allclose(rf.numpy(), np.bincount(x, w.astype(np.float32)), rtol=1e-5, atol=1e-5)
        assert torch.bincount(t, torch.ones(x.size, dtype=torch.int32)).dtype == torch.float64


@pytest.mark.parametrize("fn,msg", [
    (lambda: torch.bincount(torch.tensor([-1, 2])), "bincount only supports 1-d non-negative integral inputs."),
    (lambda: torch.bincount(torch.tensor([[1]])), "bincount only supports 1-d non-negative integral inputs."),
    (lambda: torch.bincount(torch.tensor([1.0])), "bincount only supports 1-d non-negative integral inputs."),
    (lambda: torch.bincount(torch.tensor([1]), minlength=-1), "minlength should be >= 0"),
    (lambda: torch.bincount(torch.tensor([1, 2]), torch.ones(3)), "weights should be 1-d and have the same length as input"),
])
def test_bincount_errors(fn, msg):
    with pytest.raises(RuntimeError, match=msg):
        fn()


@pytest.mark.parametrize("dtype", [torch.int8, torch.int64, torch.float16, torch.float32, torch.float64])
def test_topk_selection_matches_stable_sort(dtype):
    rng = np.random.default_rng(110)
    for shape, dim in [((3000,), 0), ((7, 500), 1), ((400, 6), 0)]:
        t, a = make(rng, shape, dtype, lo=-20, hi=20, specials=True)
        n = shape[dim]
        for k in (1, 3, n // 10, n // 5):
            for largest in (True, False):
                v, i = torch.topk(t, k, dim, largest)
                ev, ei = np_sort(a, dim, largest)
                same(v, np.take(ev, np.arange(k), dim))
                same(i, np.take(ei, np.arange(k), dim))
    # already sorted and reversed inputs (pivot worst cases), all equal keys
    for x in (np.arange(5000.0), np.arange(5000.0)[::-1].copy(), np.zeros(5000)):
        r = torch.topk(torch.from_numpy(x), 7)
        ev, ei = np_sort(x, 0, True)
        same(r.values, ev[:7])
        same(r.indices, ei[:7])


# ---- properties ---------------------------------------------------------------------------
FLOATS = st.floats(allow_nan=True, allow_infinity=True, width=32)


@settings(max_examples=200, deadline=None, derandomize=True, database=None)
@given(st.lists(st.one_of(FLOATS, st.sampled_from([0.0, -0.0, 1.0, float("nan")])), max_size=40),
       st.booleans())
def test_sort_properties(xs, descending):
    t = torch.tensor(xs, dtype=torch.float32)
    v, i = torch.sort(t, descending=descending)
    idx = i.tolist()
    assert sorted(idx) == list(range(len(xs)))                       # a permutation
    assert torch.equal(v.isnan(), t[i].isnan()) and v[~v.isnan()].tolist() == t[i][~v.isnan()].tolist()
    keys = [(1, 0.0) if x != x else (0, x) for x in np.float32(xs).tolist()]  # NaN as the largest
    for a, b in zip(range(len(xs) - 1), range(1, len(xs))):
        ka, kb = keys[idx[a]], keys[idx[b]]
        assert (ka >= kb) if descending else (ka <= kb)
        if ka == kb:
            assert idx[a] < idx[b]                                       # stable
    k = len(xs) // 3
    r = torch.topk(t, k, largest=descending)
    assert r.indices.tolist() == idx[:k]


@settings(max_examples=150, deadline=None, derandomize=True, database=None)
@given(st.lists(st.integers(-3, 3), max_size=30), st.lists(st.integers(-4, 4), max_size=10))
def test_unique_and_searchsorted_properties(xs, qs):
    t = torch.tensor(xs, dtype=torch.int64)
    u, inv, cnt = torch.unique(t, return_inverse=True, return_counts=True)
    assert u.tolist() == sorted(set(xs))
    assert u[inv].tolist() == xs and sum(cnt.tolist()) == len(xs)
    b = torch.sort(t).values
    for side in ("left", "right"):
        r = torch.searchsorted(b, torch.tensor(qs, dtype=torch.int64), side=side).tolist()
        assert r == [int(np.searchsorted(np.sort(np.array(xs, dtype=np.int64)), q, side=side)) for q in qs]


# ---- median / nanmedian / quantile / nanquantile / isin ------------------------------------
@pytest.mark.parametrize("dtype", [torch.int16, torch.int64, torch.float32, torch.float64])
def test_median_random(dtype):
    rng = np.random.default_rng(120)
    for _ in range(15):
        nd = int(rng.integers(1, 4))
        shape = tuple(int(s) for s in rng.integers(1, 6, size=nd))
        t, a = make(rng, shape, dtype, noncontig=bool(rng.integers(2)), specials=dtype.is_floating_point)
        s = np.sort(a.reshape(-1))
        nan = np.isnan(s).any() if dtype.is_floating_point else False
        m = torch.median(t)
        assert m.dim() == 0 and m.dtype == dtype
        np.testing.assert_array_equal(to_np(m), np.nan if nan else s[(s.size - 1) // 2])
        good = s[~np.isnan(s)] if dtype.is_floating_point else s
        np.testing.assert_array_equal(to_np(torch.nanmedian(t)), good[(good.size - 1) // 2] if good.size else np.nan)
        dim = int(rng.integers(-nd, nd))
        keep = bool(rng.integers(2))
        for fn, ignore in ((torch.median, False), (torch.nanmedian, True)):
            v, i = fn(t, dim, keepdim=keep)
            ev, ei = np_sort(a, dim, False)
            n = a.shape[dim]
            if dtype.is_floating_point:
                good_n = n - np.isnan(a).sum(axis=dim, keepdims=True)
                k = np.maximum(good_n - 1, 0) // 2 if ignore else np.where(good_n < n, good_n, (n - 1) // 2)
            else:
                k = np.full([1 if d == dim % nd else s_ for d, s_ in enumerate(a.shape)], (n - 1) // 2)
            want_v, want_i = np.take_along_axis(ev, k, dim), np.take_along_axis(ei, k, dim)
            if not keep:
                want_v, want_i = np.squeeze(want_v, dim), np.squeeze(want_i, dim)
            same(v, want_v)
            same(i, want_i)


def test_median_forms_and_errors():
    assert type(torch.median(torch.tensor([1, 2]), 0)).__name__ == "median"
    assert type(torch.nanmedian(torch.tensor([1.0]), 0)).__name__ == "nanmedian"
    assert torch.median(torch.tensor([3, 1, 2, 4])).item() == 2          # the lower median
    assert torch.median(torch.tensor([]).float()).item() != torch.median(torch.tensor([]).float()).item()
    assert torch.tensor([[1.0, 5.0, 3.0]]).median(1).indices.tolist() == [2]
    assert torch.median(torch.tensor(4.0), 0).values.item() == 4.0
    with pytest.raises(RuntimeError, match=r"median\(\) input tensor cannot be empty"):
        torch.median(torch.tensor([], dtype=torch.int64))
    with pytest.raises(IndexError, match=r"median\(\): Expected reduction dim 1 to have non-zero size."):
        torch.median(torch.zeros(2, 0), 1)
    with pytest.raises(IndexError, match="Dimension out of range"):
        torch.median(torch.zeros(2), 1)


@pytest.mark.parametrize("interpolation", ["linear", "lower", "higher", "midpoint", "nearest"])
@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
def test_quantile_random(interpolation, dtype):
    rng = np.random.default_rng(121)
    tol = 1e-5 if dtype == torch.float32 else 1e-12
    for _ in range(8):
        nd = int(rng.integers(1, 4))
        shape = tuple(int(s) for s in rng.integers(1, 6, size=nd))
        t = torch.from_numpy(rng.standard_normal(shape)).to(dtype)
        a = to_np(t).astype(np.float64)
        if rng.random() < 0.5:
            a.reshape(-1)[rng.integers(0, a.size)] = np.nan
            t = torch.from_numpy(a).to(dtype)
        q = rng.random(size=int(rng.integers(1, 4)))
        dim = None if rng.random() < 0.3 else int(rng.integers(-nd, nd))
        keep = bool(rng.integers(2))
        tq = torch.from_numpy(q).to(dtype)
        for fn, ref in ((torch.quantile, np.quantile), (torch.nanquantile, np.nanquantile)):
            with np.errstate(all="ignore"), warnings.catch_warnings():
                warnings.simplefilter("ignore")            # NumPy warns on all-NaN slices
                e = ref(a, q, axis=dim, keepdims=keep, method=interpolation)
                e1 = ref(a, float(q[0]), axis=dim, keepdims=keep, method=interpolation)
            r = fn(t, tq, dim, keep, interpolation=interpolation)
            assert r.dtype == dtype and tuple(r.shape) == e.shape
            np.testing.assert_allclose(to_np(r), e, rtol=tol, atol=tol)
            r1 = fn(t, float(q[0]), dim=dim, keepdim=keep, interpolation=interpolation)
            assert tuple(r1.shape) == np.shape(e1)
            np.testing.assert_allclose(to_np(r1), e1, rtol=tol, atol=tol)


@pytest.mark.parametrize("fn,msg", [
    (lambda: torch.quantile(torch.tensor([1, 2]), 0.5), r"quantile\(\) input tensor must be either float or double dtype"),
    (lambda: torch.quantile(torch.tensor([1.0]), 1.5), r"quantile\(\) q must be in the range \[0, 1\] but got 1.5"),
    (lambda: torch.quantile(torch.tensor([1.0]), torch.tensor([0.5, 2.0])), r"q values must be in the range \[0, 1\]"),
    (lambda: torch.quantile(torch.tensor([1.0]), torch.tensor([0.5], dtype=torch.float64)), "q tensor must be same dtype"),
    (lambda: torch.quantile(torch.tensor([1.0]), 0.5, interpolation="cubic"), "interpolation must be one of linear"),
    (lambda: torch.quantile(torch.tensor([]), 0.5), r"quantile\(\) input tensor must be non-empty"),
    (lambda: torch.nanquantile(torch.tensor([1.0]), torch.tensor([[0.5]])), "q must be a scalar or 1D tensor"),
])
def test_quantile_errors(fn, msg):
    with pytest.raises(RuntimeError, match=msg):
        fn()


def test_isin():
    rng = np.random.default_rng(122)
    for dtype in (torch.int8, torch.int64, torch.float32, torch.float64):
        e, ea = make(rng, (3, 4), dtype, noncontig=True)
        s, sa = make(rng, (5,), dtype)
        same(torch.isin(e, s), np.isin(ea, sa))
        same(torch.isin(e, s, invert=True), np.isin(ea, sa, invert=True))
        same(torch.isin(e, torch.tensor([], dtype=dtype)), np.zeros((3, 4), bool))
    assert torch.isin(torch.tensor([1.0, 2.0, float("nan")]), 2).tolist() == [False, True, False]
    assert torch.isin(2, torch.tensor([1, 2])).item() is True
    assert torch.isin(torch.tensor([1, 2]), torch.tensor([2.5, 1.0])).tolist() == [True, False]
    with pytest.raises(TypeError, match="at least one"):
        torch.isin(1, 2)


def np_mode_line(line):
    """(value, index of its last occurrence): most frequent, smallest among ties, NaN never repeats."""
    best = None
    for v in np.unique(line[~np.isnan(line)] if line.dtype.kind == "f" else line):
        c = int((line == v).sum())
        if best is None or c > best[1]:
            best = (v, c)
    if best is None:                                     # all NaN: the first one
        return np.nan, int(np.flatnonzero(np.isnan(line))[0])
    return best[0], int(np.flatnonzero(line == best[0])[-1])


@pytest.mark.parametrize("dtype", [torch.bool, torch.int8, torch.int64, torch.float32, torch.float64])
def test_mode_random(dtype):
    rng = np.random.default_rng(123)
    for _ in range(12):
        nd = int(rng.integers(1, 4))
        shape = tuple(int(s) for s in rng.integers(1, 6, size=nd))
        t, a = make(rng, shape, dtype, lo=-2, hi=3, noncontig=bool(rng.integers(2)))
        dim = int(rng.integers(-nd, nd))
        keep = bool(rng.integers(2))
        v, i = torch.mode(t, dim, keep)
        lines = np.moveaxis(a, dim, -1)
        ev = np.empty(lines.shape[:-1], dtype=a.dtype)
        ei = np.empty(lines.shape[:-1], dtype=np.int64)
        for pos in np.ndindex(lines.shape[:-1]):
            ev[pos], ei[pos] = np_mode_line(lines[pos])
        if keep:
            ev, ei = np.expand_dims(ev, dim), np.expand_dims(ei, dim)
        same(v, ev)
        same(i, ei)
        r = t.mode(dim=dim, keepdim=keep)
        same(r.values, ev)


def test_mode_forms_and_errors():
    r = torch.mode(torch.tensor([1, 2, 2, 3, 2]))
    assert type(r).__name__ == "mode" and r.values.item() == 2 and r.indices.item() == 4
    assert torch.mode(torch.tensor([3.0, 1.0, 3.0, 1.0])).values.item() == 1.0    # smallest of the ties
    assert torch.mode(torch.tensor([float("nan"), float("nan"), 5.0])).values.item() == 5.0
    assert torch.mode(torch.tensor(4.0)).values.item() == 4.0
    with pytest.raises(IndexError, match=r"mode\(\): Expected reduction dim 1 to have non-zero size."):
        torch.mode(torch.zeros(2, 0))


def test_unique_internal_forms_and_their_history():
    # torch 2.15: _unique / _unique2 give empty index tensors for what was not asked for,
    # _VF.unique_dim always gives all three; only the values have a history, whose backward
    # raises "the derivative for '<name>' is not implemented."
    inp = torch.tensor([1.0, 3.0, 1.0, 2.0], requires_grad=True)
    u, inv = torch._unique(inp)
    assert u.tolist() == [1.0, 2.0, 3.0] and inv.numel() == 0 and inv.dtype == torch.int64
    u, inv, cnt = torch._unique2(inp, return_counts=True)
    assert inv.numel() == 0 and cnt.tolist() == [2, 1, 1]
    u, inv, cnt = torch._VF.unique_dim(inp, dim=0)
    assert inv.tolist() == [0, 2, 0, 1] and cnt.tolist() == [2, 1, 1]
    assert u.grad_fn.name() == "UniqueDimBackward0"
    assert not inv.requires_grad and not cnt.requires_grad
    u, inv, cnt = torch.unique(inp, return_inverse=True, return_counts=True)
    assert u.requires_grad and not inv.requires_grad and not cnt.requires_grad
    assert u.grad_fn.name() == "Unique2Backward0"
    cases = [(lambda: torch.unique(inp), "_unique2"), (lambda: torch.unique(inp, dim=0), "unique_dim"),
             (lambda: torch.unique_consecutive(inp), "unique_consecutive"),
             (lambda: torch._unique(inp)[0], "_unique")]
    for make, name in cases:
        with pytest.raises(NotImplementedError,
                           match=f"the derivative for '{name}' is not implemented."):
            make().sum().backward()
