"""Joining, rearranging, triangular/diagonal, gather/scatter and selection ops against NumPy.

All of these move values without arithmetic (except scatter_add/index_add_/trace, which
use small integers), so every comparison is exact for every dtype."""
import numpy as np
import pytest

import minitorch as torch
from npref import DTYPES, make, to_np

ARITH = [torch.uint8, torch.int8, torch.int16, torch.int32, torch.int64, torch.float16,
         torch.bfloat16, torch.float32, torch.float64]


def rshape(rng, nd, lo=0, hi=4):
    return tuple(int(x) for x in rng.integers(lo, hi + 1, size=nd))


def same(t, e):
    e = np.asarray(e)
    assert tuple(t.shape) == e.shape
    np.testing.assert_array_equal(to_np(t), e)


# ---- cat / stack ----------------------------------------------------------------
@pytest.mark.parametrize("seed", range(4))
def test_cat_random(seed):
    rng = np.random.default_rng(seed)
    for _ in range(40):
        nd = int(rng.integers(1, 4))
        base = rshape(rng, nd)
        dim = int(rng.integers(-nd, nd))
        parts = []
        for _ in range(int(rng.integers(1, 4))):
            shape = list(base)
            shape[dim] = int(rng.integers(0, 4))
            dt = DTYPES[int(rng.integers(len(DTYPES)))]
            parts.append(make(rng, shape, dt, noncontig=bool(rng.integers(2))))
        ts = [p[0] for p in parts]
        r = torch.cat(ts, dim)
        want = ts[0].dtype
        for t in ts[1:]:
            want = torch.promote_types(want, t.dtype)
        assert r.dtype == want and r.is_contiguous()
        e = np.concatenate([p[1].astype(np.float64) for p in parts], axis=dim)
        np.testing.assert_array_equal(to_np(r).astype(np.float64), e)


def test_cat_forms_and_aliases():
    a, b = torch.arange(6).view(2, 3), torch.arange(6, 12).view(2, 3)
    assert torch.cat((a, b)).tolist() == np.arange(12).reshape(4, 3).tolist()
    assert torch.cat([a, b], dim=-1).tolist() == np.concatenate([np.arange(6).reshape(2, 3),
                                                                 np.arange(6, 12).reshape(2, 3)], 1).tolist()
    assert torch.concat([a, b], 1).shape == (2, 6) and torch.concatenate([a, b]).shape == (4, 3)
    assert torch.cat([a]).tolist() == a.tolist() and not shares(torch.cat([a]), a)
    assert torch.cat([a.t(), b.t()], 1).tolist() == np.concatenate([np.arange(6).reshape(2, 3).T,
                                                                    np.arange(6, 12).reshape(2, 3).T], 1).tolist()
    assert torch.cat([torch.zeros(0, 3), a]).shape == (2, 3)
    assert torch.cat([torch.zeros(2, 0), torch.zeros(2, 0)], 1).shape == (2, 0)


def shares(a, b):
    return a.untyped_storage().data_ptr() == b.untyped_storage().data_ptr()


def test_cat_skips_empty_1d_but_promotes_with_it():
    a = torch.arange(6).view(2, 3)
    r = torch.cat([a, torch.tensor([])])
    assert r.dtype == torch.float32 and r.tolist() == [[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]]
    r = torch.cat([torch.tensor([], dtype=torch.int64), a, torch.tensor([], dtype=torch.int64)], 1)
    assert r.dtype == torch.int64 and r.shape == (2, 3)
    e = torch.cat([torch.tensor([], dtype=torch.bool), torch.tensor([], dtype=torch.int8)])
    assert e.shape == (0,) and e.dtype == torch.int8


def test_cat_out():
    a = torch.arange(3)
    out = torch.empty(6, dtype=torch.int64)
    assert torch.cat([a, a], out=out) is out and out.tolist() == [0, 1, 2, 0, 1, 2]
    outf = torch.empty(6, dtype=torch.float64)
    torch.cat([a, a], out=outf)
    assert outf.tolist() == [0.0, 1.0, 2.0, 0.0, 1.0, 2.0]
    with pytest.warns(UserWarning, match=r"had shape \[5\], which does not match the required output shape \[6\]"):
        assert torch.cat([a, a], out=torch.empty(5, dtype=torch.int64)).tolist() == [0, 1, 2, 0, 1, 2]
    with pytest.raises(RuntimeError, match="can't be cast to the desired output type"):
        torch.cat([a.float(), a], out=torch.empty(6, dtype=torch.int64))


@pytest.mark.parametrize("args,exc,msg", [
    (([],), RuntimeError, "expected a non-empty list of Tensors"),
    (([torch.zeros(2, 3), torch.zeros(2, 4)],), RuntimeError,
     "Sizes of tensors must match except in dimension 0. Expected size 3 but got size 4 for tensor number 1 in the list."),
    (([torch.zeros(2, 3), torch.zeros(3)],), RuntimeError, "Tensors must have same number of dimensions: got 2 and 1"),
    (([torch.zeros(3), torch.tensor(1.0)],), RuntimeError, r"zero-dimensional tensor \(at position 1\) cannot be concatenated"),
    (([torch.zeros(2, 3)], 2), IndexError, r"Dimension out of range \(expected to be in range of \[-2, 1\], but got 2\)"),
    ((torch.zeros(2, 3),), TypeError, "must be tuple of Tensors, not Tensor"),
    (([torch.zeros(2), 1.0],), TypeError, "expected Tensor as element 1"),
])
def test_cat_errors(args, exc, msg):
    with pytest.raises(exc, match=msg):
        torch.cat(*args)


@pytest.mark.parametrize("seed", range(3))
def test_stack_family_random(seed):
    rng = np.random.default_rng(10 + seed)
    for _ in range(25):
        nd = int(rng.integers(0, 4))
        shape = rshape(rng, nd)
        n = int(rng.integers(1, 4))
        dt = DTYPES[int(rng.integers(len(DTYPES)))]
        parts = [make(rng, shape, dt, noncontig=bool(rng.integers(2))) for _ in range(n)]
        ts, arrs = [p[0] for p in parts], [p[1] for p in parts]
        dim = int(rng.integers(-nd - 1, nd + 1))
        same(torch.stack(ts, dim), np.stack(arrs, dim))
        same(torch.hstack(ts), np.hstack(arrs))
        same(torch.vstack(ts), np.vstack(arrs))
        same(torch.row_stack(ts), np.vstack(arrs))
        same(torch.dstack(ts), np.dstack(arrs))
    out = torch.empty(2, 3)
    assert torch.stack([torch.zeros(3), torch.ones(3)], out=out) is out and out[1].tolist() == [1.0] * 3


def test_stack_promotes_and_errors():
    assert torch.stack([torch.zeros(2, dtype=torch.int32), torch.ones(2)]).dtype == torch.float32
    with pytest.raises(RuntimeError, match=r"stack expects each tensor to be equal size, but got \[3\] at entry 0 "
                                           r"and \[2\] at entry 1"):
        torch.stack([torch.zeros(3), torch.zeros(2)])
    with pytest.raises(RuntimeError, match="stack expects a non-empty TensorList"):
        torch.stack([])
    with pytest.raises(IndexError, match="Dimension out of range"):
        torch.stack([torch.zeros(3)], 2)
    with pytest.raises(TypeError, match="must be tuple of Tensors"):
        torch.stack(torch.zeros(3))
    for fn in (torch.hstack, torch.vstack, torch.dstack):
        with pytest.raises(TypeError, match="argument 'tensors' must be tuple of Tensors, not Tensor"):
            fn(torch.zeros(3))
        with pytest.raises(RuntimeError, match="expects a non-empty TensorList"):
            fn([])


def test_atleast():
    s, v, m = torch.tensor(1.0), torch.zeros(2), torch.zeros(2, 3)
    assert torch.atleast_1d(s).shape == (1,) and torch.atleast_1d(v) is v
    assert torch.atleast_2d(v).shape == (1, 2) and torch.atleast_2d(s).shape == (1, 1)
    assert torch.atleast_3d(m).shape == (2, 3, 1) and torch.atleast_3d(v).shape == (1, 2, 1)
    assert [t.shape for t in torch.atleast_2d(s, v)] == [(1, 1), (1, 2)]
    assert [t.shape for t in torch.atleast_1d([s, v])] == [(1,), (2,)]


# ---- flip / roll / repeat / tile / movedim ------------------------------------------
@pytest.mark.parametrize("seed", range(3))
def test_flip_roll_repeat_tile_random(seed):
    rng = np.random.default_rng(20 + seed)
    for _ in range(30):
        nd = int(rng.integers(1, 4))
        shape = rshape(rng, nd)
        dt = DTYPES[int(rng.integers(len(DTYPES)))]
        t, a = make(rng, shape, dt, noncontig=bool(rng.integers(2)))
        dims = tuple(int(d) for d in rng.permutation(nd)[:int(rng.integers(1, nd + 1))])
        same(torch.flip(t, dims), np.flip(a, dims))
        same(t.flip(dims[0]), np.flip(a, dims[0]))
        shifts = tuple(int(s) for s in rng.integers(-7, 8, size=len(dims)))
        same(torch.roll(t, shifts, dims), np.roll(a, shifts, dims))
        same(t.roll(shifts[0]), np.roll(a, shifts[0]))
        reps = tuple(int(r) for r in rng.integers(0, 3, size=nd + int(rng.integers(0, 2))))
        same(t.repeat(*reps), np.tile(a, reps))
        same(t.repeat(reps), np.tile(a, reps))
        treps = reps[:int(rng.integers(1, len(reps) + 1))]
        same(torch.tile(t, treps), np.tile(a, treps))
        same(t.tile(treps), np.tile(a, treps))
        src = [int(d) for d in rng.permutation(nd)[:int(rng.integers(1, nd + 1))]]
        dst = [int(d) for d in rng.permutation(nd)[:len(src)]]
        same(torch.movedim(t, src, dst), np.moveaxis(a, src, dst))
        same(t.moveaxis(src[0], dst[0]), np.moveaxis(a, src[0], dst[0]))


def test_flip_takes_dims_as_a_sequence_one_by_one_or_by_keyword():
    t = torch.arange(6).view(2, 3)
    both = [[5, 4, 3], [2, 1, 0]]
    assert t.flip(0, 1).tolist() == both and t.flip((0, 1)).tolist() == both
    assert t.flip(dims=[0, 1]).tolist() == both and torch.flip(t, dims=(1,)).tolist() == [[2, 1, 0], [5, 4, 3]]
    with pytest.raises(TypeError, match="missing required argument 'dims'"):
        t.flip()
    with pytest.raises(TypeError, match="multiple values for argument 'dims'"):
        t.flip(0, dims=[1])


def test_flip_roll_results_are_copies_and_zero_dim():
    t = torch.arange(4)
    for r in [t.roll(0), t.roll(4), t.flip(()), t.repeat(1), t.tile((1,))]:
        assert r.tolist() == [0, 1, 2, 3] and not shares(r, t)
    r = t.flip(0)
    assert r.tolist() == [3, 2, 1, 0] and not shares(r, t)
    s = torch.tensor(5)
    assert s.flip(0).item() == 5 and s.roll(3).item() == 5 and s.repeat(2, 2).tolist() == [[5, 5], [5, 5]]
    assert torch.fliplr(torch.arange(6).view(2, 3)).tolist() == [[2, 1, 0], [5, 4, 3]]
    assert torch.flipud(torch.arange(6).view(2, 3)).tolist() == [[3, 4, 5], [0, 1, 2]]
    assert torch.flipud(torch.arange(3)).tolist() == [2, 1, 0]


@pytest.mark.parametrize("fn,exc,msg", [
    (lambda t: t.flip((0, 0)), RuntimeError, "dim 0 appears multiple times in the list of dims"),
    (lambda t: t.flip((0, -2)), RuntimeError, "dim 0 appears multiple times"),
    (lambda t: t.flip(2), IndexError, r"Dimension out of range \(expected to be in range of \[-2, 1\], but got 2\)"),
    (lambda t: torch.fliplr(t[0]), RuntimeError, "Input must be >= 2-d."),
    (lambda t: torch.flipud(t[0, 0]), RuntimeError, "Input must be >= 1-d."),
    (lambda t: t.roll((1, 2)), RuntimeError, "shifts and dimensions must align. shifts: 2, dims:0"),
    (lambda t: t.roll((1, 2), (0,)), RuntimeError, "shifts and dimensions must align. shifts: 2, dims:1"),
    (lambda t: t.roll(1, 3), IndexError, "Dimension out of range"),
    (lambda t: t.repeat(2), RuntimeError, "Number of dimensions of repeat dims can not be smaller than number of "
                                          "dimensions of tensor"),
    (lambda t: t.repeat(2, -1), RuntimeError, "negative dimension -1"),
    (lambda t: torch.movedim(t, (0, 1), (0,)), RuntimeError, "movedim: Invalid source or destination dims"),
    (lambda t: torch.movedim(t, (0, 0), (0, 1)), RuntimeError, "movedim: repeated dim in `source`"),
])
def test_rearrange_errors(fn, exc, msg):
    with pytest.raises(exc, match=msg):
        fn(torch.zeros(2, 3))


# ---- triangles and diagonals -------------------------------------------------------
@pytest.mark.parametrize("dtype", DTYPES)
def test_tril_triu_random(dtype):
    rng = np.random.default_rng(30)
    for _ in range(8):
        shape = rshape(rng, int(rng.integers(2, 4)))
        t, a = make(rng, shape, dtype, noncontig=bool(rng.integers(2)))
        k = int(rng.integers(-4, 5))
        same(torch.tril(t, k), np.tril(a, k))
        same(t.triu(diagonal=k), np.triu(a, k))
        c = t.clone()
        assert c.tril_(k) is c
        same(c, np.tril(a, k))
        c = t.clone()
        c.triu_(k)
        same(c, np.triu(a, k))
    out = torch.empty(2, 2, dtype=dtype)
    assert torch.triu(torch.ones(2, 2, dtype=dtype), out=out) is out
    with pytest.raises(RuntimeError, match="tril: input tensor must have at least 2 dimensions"):
        torch.tril(torch.zeros(3, dtype=dtype))
    with pytest.raises(RuntimeError, match="triu: input tensor must have at least 2 dimensions"):
        torch.zeros(3, dtype=dtype).triu()


@pytest.mark.parametrize("dtype", [torch.bool, torch.int32, torch.int64, torch.float16, torch.float32])
def test_diag_diagonal_trace(dtype):
    rng = np.random.default_rng(31)
    for _ in range(12):
        k = int(rng.integers(-4, 5))
        v, va = make(rng, (int(rng.integers(0, 5)),), dtype, noncontig=bool(rng.integers(2)))
        same(torch.diag(v, k), np.diag(va, k))
        m, ma = make(rng, rshape(rng, 2), dtype, noncontig=bool(rng.integers(2)))
        d = torch.diag(m, k)
        same(d, np.diag(ma, k))
        assert not shares(d, m) or d.numel() == 0
        x, xa = make(rng, rshape(rng, 3, 1), dtype)
        d1, d2 = [int(i) for i in rng.permutation(3)[:2]]
        dv = torch.diagonal(x, k, d1, d2 - 3)
        same(dv, np.diagonal(xa, k, d1, d2))
        same(x.diagonal(offset=k, dim1=d1, dim2=d2), np.diagonal(xa, k, d1, d2))
        if dv.numel():
            assert shares(dv, x)
        if dtype != torch.bool:
            tr = torch.trace(m)
            assert tr.dtype == (dtype if dtype.is_floating_point else torch.int64)
            assert float(tr) == pytest.approx(float(np.trace(ma.astype(np.float64))), rel=1e-2)


def test_diagonal_is_a_writable_view():
    m = torch.zeros(3, 4)
    m.diagonal(1).fill_(1.0)
    assert m.tolist() == [[0, 1, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1]]
    assert torch.diag_embed(torch.tensor([[1, 2], [3, 4]])).tolist() == [[[1, 0], [0, 2]], [[3, 0], [0, 4]]]


@pytest.mark.parametrize("fn,exc,msg", [
    (lambda: torch.diag(torch.zeros(2, 2, 2)), RuntimeError, r"diag\(\): Supports 1D or 2D tensors. Got 3D"),
    (lambda: torch.diag(torch.tensor(1.0)), RuntimeError, r"diag\(\): Supports 1D or 2D tensors. Got 0D"),
    (lambda: torch.diagonal(torch.zeros(2, 2), 0, 1, -1), RuntimeError, "diagonal dimensions cannot be identical 1, -1"),
    (lambda: torch.diagonal(torch.zeros(2, 2), 0, 0, 2), IndexError, "Dimension out of range"),
    (lambda: torch.trace(torch.zeros(3)), RuntimeError, "trace: expected a matrix, but got tensor with dim 1"),
    (lambda: torch.diag([1, 2]), TypeError, "must be Tensor"),
])
def test_diag_errors(fn, exc, msg):
    with pytest.raises(exc, match=msg):
        fn()


# ---- one_hot ------------------------------------------------------------------------
def test_one_hot():
    rng = np.random.default_rng(40)
    for shape in [(5,), (2, 3), (), (0,), (2, 0, 3)]:
        idx = rng.integers(0, 4, size=shape)
        t = torch.from_numpy(idx.astype(np.int64))
        r = torch.one_hot(t, 6)
        assert r.dtype == torch.int64
        same(r, np.eye(6, dtype=np.int64)[idx])
        if idx.size:
            same(torch.one_hot(t), np.eye(idx.max() + 1, dtype=np.int64)[idx])
    from minitorch import _gather_scatter
    assert _gather_scatter.one_hot(torch.tensor([1]), num_classes=2).tolist() == [[0, 1]]


@pytest.mark.parametrize("fn,msg", [
    (lambda: torch.one_hot(torch.tensor([0, 1], dtype=torch.int32)), "one_hot is only applicable to index tensor"),
    (lambda: torch.one_hot(torch.tensor([0.0])), "one_hot is only applicable to index tensor"),
    (lambda: torch.one_hot(torch.tensor([-1, 1])), "Class values must be non-negative."),
    (lambda: torch.one_hot(torch.tensor([0, 3]), 3), "Class values must be smaller than num_classes."),
    (lambda: torch.one_hot(torch.tensor([], dtype=torch.int64)), "Can not infer total number of classes from empty tensor."),
])
def test_one_hot_errors(fn, msg):
    with pytest.raises(RuntimeError, match=msg):
        fn()


# ---- index_select / gather / scatter / index_add_ ---------------------------------------
@pytest.mark.parametrize("seed", range(3))
def test_index_select_random(seed):
    rng = np.random.default_rng(50 + seed)
    for _ in range(25):
        nd = int(rng.integers(1, 4))
        shape = rshape(rng, nd, 1)
        dt = DTYPES[int(rng.integers(len(DTYPES)))]
        t, a = make(rng, shape, dt, noncontig=bool(rng.integers(2)))
        dim = int(rng.integers(-nd, nd))
        idx = rng.integers(0, shape[dim], size=int(rng.integers(0, 6)))
        it = torch.from_numpy(idx.astype(np.int64 if rng.random() < 0.5 else np.int32))
        r = torch.index_select(t, dim, it)
        same(r, np.take(a, idx, axis=dim))
        assert r.is_contiguous()
        same(t.index_select(dim, it), np.take(a, idx, axis=dim))
    out = torch.empty(2)
    assert torch.index_select(torch.arange(3.0), 0, torch.tensor([2, 0]), out=out) is out
    assert out.tolist() == [2.0, 0.0]
    assert torch.tensor(5).index_select(0, torch.tensor([0])).tolist() == [5]


@pytest.mark.parametrize("fn,exc,msg", [
    (lambda t: t.index_select(0, torch.tensor([3])), IndexError, "index out of range in self"),
    (lambda t: t.index_select(1, torch.tensor([-1])), IndexError, "index out of range in self"),
    (lambda t: t.index_select(0, torch.tensor([[0]])), IndexError, r"index_select\(\): Index is supposed to be a vector"),
    (lambda t: t.index_select(0, torch.tensor([0.0])), RuntimeError, "Expected dtype int32/int64 for index"),
    (lambda t: t.index_select(2, torch.tensor([0])), IndexError, "Dimension out of range"),
])
def test_index_select_errors(fn, exc, msg):
    with pytest.raises(exc, match=msg):
        fn(torch.zeros(3, 4))


def along(index_shape, dim, idx):
    """NumPy coordinates addressing [pos with pos[dim] = idx[pos]] for every pos of index_shape."""
    coords = list(np.indices(index_shape, sparse=False))
    coords[dim] = idx
    return tuple(coords)


@pytest.mark.parametrize("seed", range(3))
def test_gather_random(seed):
    rng = np.random.default_rng(60 + seed)
    for _ in range(30):
        nd = int(rng.integers(1, 4))
        shape = rshape(rng, nd, 1)
        dim = int(rng.integers(-nd, nd))
        ishape = tuple(int(rng.integers(0, s + 1)) for s in shape)
        ishape = tuple(int(rng.integers(0, 5)) if d == dim % nd else s for d, s in enumerate(ishape))
        dt = DTYPES[int(rng.integers(len(DTYPES)))]
        t, a = make(rng, shape, dt, noncontig=bool(rng.integers(2)))
        idx = rng.integers(0, shape[dim], size=ishape)
        it = torch.from_numpy(idx)
        if rng.random() < 0.5 and it.dim() > 1:
            it = it.transpose(0, -1).contiguous().transpose(0, -1)
        e = a[along(ishape, dim % nd, idx)]
        same(torch.gather(t, dim, it), e)
        same(t.gather(dim, it), e)
    out = torch.empty(2, dtype=torch.int64)
    assert torch.gather(torch.arange(4), 0, torch.tensor([3, 1]), out=out) is out and out.tolist() == [3, 1]
    assert torch.gather(torch.tensor(7), 0, torch.tensor(0)).item() == 7


def test_gather_large_parallel():
    rng = np.random.default_rng(61)
    a = rng.standard_normal((400, 300))
    idx = rng.integers(0, 400, size=(1000, 300))
    same(torch.gather(torch.from_numpy(a), 0, torch.from_numpy(idx)), np.take_along_axis(a, idx, 0))


@pytest.mark.parametrize("fn,msg", [
    (lambda t: t.gather(1, torch.tensor([[0], [4]])), "index 4 is out of bounds for dimension 1 with size 4"),
    (lambda t: t.gather(1, torch.tensor([[-1]])), "index -1 is out of bounds for dimension 1 with size 4"),
    (lambda t: t.gather(1, torch.tensor([[0]], dtype=torch.int32)), r"gather\(\): Expected dtype int64 for index"),
    (lambda t: t.gather(1, torch.tensor([0])), "Index tensor must have the same number of dimensions as input tensor"),
    (lambda t: t.gather(1, torch.zeros(4, 1, dtype=torch.int64)),
     r"Size does not match at dimension 0 expected index \[4, 1\] to be smaller than self \[3, 4\] apart from dimension 1"),
])
def test_gather_errors(fn, msg):
    with pytest.raises(RuntimeError, match=msg):
        fn(torch.zeros(3, 4))


def scatter_case(rng, unique):
    nd = int(rng.integers(1, 4))
    shape = rshape(rng, nd, 1)
    dim = int(rng.integers(0, nd))
    ishape = [int(rng.integers(0, s + 1)) for s in shape]
    if unique:  # distinct targets along each line: a prefix of a permutation
        ishape[dim] = int(rng.integers(0, shape[dim] + 1))
        idx = np.argsort(rng.random(size=tuple(ishape[:dim]) + (shape[dim],) + tuple(ishape[dim + 1:])), axis=dim)
        idx = np.take(idx, np.arange(ishape[dim]), axis=dim)
    else:
        ishape[dim] = int(rng.integers(0, 6))
        idx = rng.integers(0, shape[dim], size=tuple(ishape))
    return shape, dim, tuple(ishape), idx


@pytest.mark.parametrize("seed", range(3))
def test_scatter_random(seed):
    rng = np.random.default_rng(70 + seed)
    for _ in range(30):
        shape, dim, ishape, idx = scatter_case(rng, unique=True)
        dt = DTYPES[int(rng.integers(len(DTYPES)))]
        t, a = make(rng, shape, dt, noncontig=bool(rng.integers(2)))
        sshape = tuple(i + int(rng.integers(0, 2)) for i in ishape)
        s, sa = make(rng, sshape, dt, noncontig=bool(rng.integers(2)))
        coords = along(ishape, dim, idx)
        e = a.copy()
        e[coords] = sa[tuple(slice(0, n) for n in ishape)]
        same(torch.scatter(t, dim, torch.from_numpy(idx), s), e)
        c = t.clone()
        assert c.scatter_(dim, torch.from_numpy(idx), s) is c
        same(c, e)
        e = a.copy()
        e[coords] = 1
        same(t.scatter(dim, torch.from_numpy(idx), 1), e)
        same(torch.scatter(t, dim, torch.from_numpy(idx), value=1), e)


@pytest.mark.parametrize("seed", range(3))
def test_scatter_add_and_reduce_random(seed):
    rng = np.random.default_rng(80 + seed)
    for _ in range(30):
        shape, dim, ishape, idx = scatter_case(rng, unique=False)
        dt = ARITH[int(rng.integers(len(ARITH)))]
        t, a = make(rng, shape, dt, lo=0, hi=3)
        s, sa = make(rng, ishape, dt, lo=0, hi=3)
        coords = along(ishape, dim, idx)
        e = a.astype(np.float64)
        np.add.at(e, coords, sa.astype(np.float64))
        same(torch.scatter_add(t, dim, torch.from_numpy(idx), s), e.astype(a.dtype))
        c = t.clone()
        assert c.scatter_add_(dim, torch.from_numpy(idx), s) is c
        same(c, e.astype(a.dtype))
        same(t.scatter(dim, torch.from_numpy(idx), s, reduce="add"), e.astype(a.dtype))
        e = a.astype(np.float64)
        np.multiply.at(e, coords, sa.astype(np.float64))
        same(t.clone().scatter_(dim, torch.from_numpy(idx), s, reduce="multiply"), e.astype(a.dtype))
        e = a.astype(np.float64)
        np.multiply.at(e, coords, 2.0)
        same(t.clone().scatter_(dim, torch.from_numpy(idx), 2, reduce="multiply"), e.astype(a.dtype))


def test_scatter_add_float_is_deterministic():
    rng = np.random.default_rng(81)
    src = torch.from_numpy(rng.standard_normal(100000).astype(np.float32))
    idx = torch.from_numpy(rng.integers(0, 7, size=100000))
    r1 = torch.zeros(7).scatter_add_(0, idx, src)
    r2 = torch.zeros(7).scatter_add_(0, idx, src)
    assert r1.tolist() == r2.tolist()
    e = np.zeros(7, dtype=np.float64)
    np.add.at(e, idx.numpy(), src.numpy().astype(np.float64))
    np.testing.assert_allclose(r1.numpy(), e, rtol=1e-4, atol=1e-3)


def test_one_hot_and_empty_scatter():
    t = torch.zeros(2, 3)
    t.scatter_(1, torch.zeros(2, 0, dtype=torch.int64), torch.ones(2, 0))
    t.scatter_(1, torch.zeros(0, dtype=torch.int32), 1.0)   # empty index: no checks, no-op (torch)
    assert t.sum().item() == 0.0


@pytest.mark.parametrize("fn,exc,msg", [
    (lambda t: t.scatter_(1, torch.tensor([[4]]), 1.0), RuntimeError, "index 4 is out of bounds for dimension 1 with size 4"),
    (lambda t: t.scatter_(1, torch.tensor([[-1]]), 1.0), RuntimeError, "index -1 is out of bounds for dimension 1 with size 4"),
    (lambda t: t.scatter_(1, torch.tensor([[0]]), torch.ones(1, 1, dtype=torch.int64)), RuntimeError,
     r"scatter\(\): Expected self.dtype to be equal to src.dtype"),
    (lambda t: t.scatter_add_(1, torch.tensor([[0]]), torch.ones(1, 1, dtype=torch.int64)), RuntimeError,
     r"scatter_add\(\): Expected self.dtype to be equal to src.dtype"),
    (lambda t: t.scatter_(1, torch.tensor([[0]], dtype=torch.int32), 1.0), RuntimeError,
     r"scatter\(\): Expected dtype int64 for index"),
    (lambda t: t.scatter_(1, torch.tensor([0]), 1.0), RuntimeError,
     "Index tensor must have the same number of dimensions as self tensor"),
    (lambda t: t.scatter_(1, torch.tensor([[0]]), torch.ones(1)), RuntimeError,
     "Index tensor must have the same number of dimensions as src tensor"),
    (lambda t: t.scatter_(1, torch.zeros(1, 2, dtype=torch.int64), torch.ones(1, 1)), RuntimeError,
     r"Expected index \[1, 2\] to be smaller than self \[3, 4\] apart from dimension 1 and to be smaller size than src \[1, 1\]"),
    (lambda t: t.scatter_(1, torch.zeros(4, 1, dtype=torch.int64), 1.0), RuntimeError,
     r"Expected index \[4, 1\] to be smaller than self \[3, 4\] apart from dimension 1"),
    (lambda t: t.scatter_(1, torch.tensor([[0]]), 1.0, reduce="max"), RuntimeError,
     "reduce argument must be either add or multiply."),
    (lambda t: t.scatter_add_(1, torch.tensor([[0]]), 1.0), TypeError, "argument 'src' must be Tensor"),
    (lambda t: t.scatter_(1, [[0]], 1.0), TypeError, "argument 'index' must be Tensor"),
    (lambda t: t.scatter_(2, torch.tensor([[0]]), 1.0), IndexError, "Dimension out of range"),
])
def test_scatter_errors_leave_self_unchanged(fn, exc, msg):
    t = torch.zeros(3, 4)
    with pytest.raises(exc, match=msg):
        fn(t)
    assert t.sum().item() == 0.0


def test_scatter_into_expanded_rejected():
    t = torch.zeros(1, 4).expand(3, 4)
    with pytest.raises(RuntimeError, match="unsupported operation"):
        t.scatter_(0, torch.tensor([[0]]), 1.0)


@pytest.mark.parametrize("dtype", [torch.int32, torch.int64, torch.float32, torch.float64])
def test_index_add(dtype):
    rng = np.random.default_rng(90)
    for _ in range(15):
        nd = int(rng.integers(1, 4))
        shape = rshape(rng, nd, 1)
        dim = int(rng.integers(-nd, nd))
        n = int(rng.integers(0, 6))
        idx = rng.integers(0, shape[dim], size=n)
        sshape = list(shape)
        sshape[dim] = n
        t, a = make(rng, shape, dtype, noncontig=bool(rng.integers(2)))
        s, sa = make(rng, sshape, dtype)
        e = np.moveaxis(a.copy(), dim, 0)
        np.add.at(e, idx, np.moveaxis(sa, dim, 0) * 2)
        r = t.clone()
        assert r.index_add_(dim, torch.from_numpy(idx), s, alpha=2) is r
        same(r, np.moveaxis(e, 0, dim))
        same(torch.index_add(t, dim, torch.from_numpy(idx), s, alpha=2), np.moveaxis(e, 0, dim))


@pytest.mark.parametrize("fn,exc,msg", [
    (lambda t: t.index_add_(0, torch.tensor([0, 3]), torch.ones(2, 4)), IndexError, "index out of range in self"),
    (lambda t: t.index_add_(0, torch.tensor([0, 1]), torch.ones(3, 4)), RuntimeError,
     r"index_add_\(\): Number of indices \(2\) should be equal to source.size\(dim\) \(3\)"),
    (lambda t: t.index_add_(0, torch.tensor([0]), torch.ones(1, 4, dtype=torch.int64)), RuntimeError,
     r"index_add_\(\): self \(Float\) and source \(Long\) must have the same scalar type"),
    (lambda t: t.index_add_(0, torch.tensor([[0]]), torch.ones(1, 4)), IndexError, "Index is supposed to be a vector"),
    (lambda t: t.index_add_(0, torch.tensor([0.0]), torch.ones(1, 4)), RuntimeError, "Expected dtype int32/int64"),
])
def test_index_add_errors(fn, exc, msg):
    t = torch.zeros(3, 4)
    with pytest.raises(exc, match=msg):
        fn(t)
    assert t.sum().item() == 0.0


# ---- masked_select / nonzero / argwhere / where(cond) ------------------------------------
@pytest.mark.parametrize("seed", range(3))
def test_masked_select_random(seed):
    rng = np.random.default_rng(100 + seed)
    for _ in range(25):
        nd = int(rng.integers(0, 4))
        shape = rshape(rng, nd)
        mshape = tuple(1 if rng.random() < 0.3 else s for s in shape)[int(rng.integers(0, nd + 1)):]
        if rng.random() < 0.3:  # broadcast the input against the mask instead
            shape, mshape = mshape, shape
        dt = DTYPES[int(rng.integers(len(DTYPES)))]
        t, a = make(rng, shape, dt, noncontig=bool(rng.integers(2)))
        m, ma = make(rng, mshape, torch.bool, noncontig=bool(rng.integers(2)))
        bshape = np.broadcast_shapes(a.shape, ma.shape)
        e = np.broadcast_to(a, bshape)[np.broadcast_to(ma, bshape)]
        same(torch.masked_select(t, m), e)
        same(t.masked_select(m), e)


def test_masked_select_errors():
    with pytest.raises(RuntimeError, match="masked_select: expected BoolTensor for mask"):
        torch.masked_select(torch.zeros(3), torch.ones(3, dtype=torch.uint8))
    with pytest.raises(RuntimeError, match=r"^The size of tensor a \(2\) must match the size of tensor b "
                                           r"\(3\) at non-singleton dimension 0$"):
        torch.masked_select(torch.zeros(3), torch.ones(2, dtype=torch.bool))
    out = torch.empty(2)
    assert torch.masked_select(torch.arange(3.0), torch.tensor([True, False, True]), out=out) is out


@pytest.mark.parametrize("dtype", DTYPES)
def test_nonzero_argwhere_where_random(dtype):
    rng = np.random.default_rng(110)
    for _ in range(8):
        nd = int(rng.integers(0, 4))
        t, a = make(rng, rshape(rng, nd), dtype, noncontig=bool(rng.integers(2)), lo=-2, hi=2)
        nz = torch.nonzero(t)
        assert nz.dtype == torch.int64
        same(nz, np.argwhere(a))
        same(t.nonzero(), np.argwhere(a))
        same(torch.argwhere(t), np.argwhere(a))
        tup = torch.nonzero(t, as_tuple=True)
        etup = np.nonzero(a) if a.ndim else (np.arange(int(a != 0)),)
        assert len(tup) == len(etup)
        for x, y in zip(tup, etup):
            same(x, y)
        for x, y in zip(torch.where(t), etup):
            same(x, y)


def test_nonzero_special_values_and_where_forms():
    t = torch.tensor([0.0, -0.0, float("nan"), float("inf"), 1e-30])
    assert torch.nonzero(t).reshape(-1).tolist() == [2, 3, 4]
    assert torch.nonzero(torch.tensor(3)).shape == (1, 0)
    assert [x.tolist() for x in torch.nonzero(torch.tensor(3), as_tuple=True)] == [[0]]
    assert [x.tolist() for x in torch.nonzero(torch.tensor(0), as_tuple=True)] == [[]]
    c = torch.tensor([True, False, True])
    assert torch.where(c, torch.ones(3), torch.zeros(3)).tolist() == [1.0, 0.0, 1.0]
    assert torch.where(c, 1.0, 0.0).tolist() == [1.0, 0.0, 1.0]
    with pytest.raises(TypeError, match="where"):
        torch.where(c, torch.ones(3))
    with pytest.raises(TypeError, match="must be Tensor"):
        torch.nonzero([1, 0])


def test_broadcast_shapes_and_tensors():
    assert torch.broadcast_shapes((2, 1), (3,), 1) == (2, 3)
    assert torch.broadcast_shapes() == ()
    a, b = torch.broadcast_tensors(torch.zeros(2, 1), torch.ones(3))
    assert a.shape == b.shape == (2, 3)
    # torch 2.15's messages: broadcast_shapes names the argument as given, the tensors'
    # functions report the last dimension that does not fit
    with pytest.raises(RuntimeError, match=r"^Attempting to broadcast a dimension of length 3 at -1! "
                                           r"Mismatching argument at index 1 had \(3,\); but expected "
                                           r"shape should be broadcastable to \[2\]$"):
        torch.broadcast_shapes((2,), (3,))
    with pytest.raises(RuntimeError, match=r"length 5 at -2! Mismatching argument at index 1 had "
                                           r"\(5, 3\); but expected shape should be broadcastable to \[2, 3\]$"):
        torch.broadcast_shapes((2, 1), (5, 3))
    with pytest.raises(RuntimeError, match=r"length 5 at -1! Mismatching argument at index 1 had "
                                           r"\(2, 4, 5\); but expected shape should be broadcastable to "
                                           r"\[1, 1, 3\]$"):
        torch.broadcast_shapes((3,), (2, 4, 5))
    with pytest.raises(RuntimeError, match=r"length 3 at -1! Mismatching argument at index 1 had \[3\];"):
        torch.broadcast_shapes((2,), [3])
    with pytest.raises(RuntimeError, match=r"length 4 at -2! Mismatching argument at index 2 had \(4, 3\); "
                                           r"but expected shape should be broadcastable to \[2, 3\]$"):
        torch.broadcast_shapes((2, 3), (1, 3), (4, 3))
    assert torch.broadcast_shapes((2, 0), (0,)) == (2, 0)
    with pytest.raises(RuntimeError, match=r"^The size of tensor a \(3\) must match the size of tensor b "
                                           r"\(2\) at non-singleton dimension 1$"):
        torch.broadcast_tensors(torch.ones(2, 3), torch.ones(3, 2))
    with pytest.raises(RuntimeError, match=r"^The size of tensor a \(2\) must match the size of tensor b "
                                           r"\(4\) at non-singleton dimension 0$"):
        torch.broadcast_tensors(torch.ones(2, 3), torch.ones(1, 3), torch.ones(4, 3))
    with pytest.raises(RuntimeError, match=r"^The size of tensor a \(2\) must match the size of tensor b "
                                           r"\(3\) at non-singleton dimension 1$"):
        torch.masked_select(torch.ones(2, 3), torch.ones(3, 2, dtype=torch.bool))


@pytest.mark.parametrize("shape", [(300001,), (3, 70001), (5, 7, 9001), (2, 3, 5, 7000)])
def test_nonzero_large_spans_many_chunks(shape):
    rng = np.random.default_rng(120)
    a = rng.random(size=shape) < 0.3
    t = torch.from_numpy(a)
    same(torch.nonzero(t), np.argwhere(a))
    same(t[t], a[a])
    same(torch.nonzero(t.float()), np.argwhere(a))


# ---- index_fill_ / index_copy_ / masked_scatter_ ----------------------------------------
@pytest.mark.parametrize("dtype", [torch.bool, torch.int32, torch.float16, torch.float64])
def test_index_fill_copy_random(dtype):
    rng = np.random.default_rng(130)
    for _ in range(12):
        nd = int(rng.integers(1, 4))
        shape = rshape(rng, nd, 1)
        dim = int(rng.integers(-nd, nd))
        t, a = make(rng, shape, dtype, noncontig=bool(rng.integers(2)))
        idx = rng.integers(-shape[dim], shape[dim], size=int(rng.integers(0, 4)))
        e = np.moveaxis(a.copy(), dim, 0)
        e[idx] = 1
        same(t.clone().index_fill_(dim, torch.from_numpy(idx), 1), np.moveaxis(e, 0, dim))
        same(torch.index_fill(t, dim, torch.from_numpy(idx), torch.tensor(1)), np.moveaxis(e, 0, dim))
        perm = rng.permutation(shape[dim])[:int(rng.integers(0, shape[dim] + 1))]
        sshape = list(shape)
        sshape[dim] = len(perm)
        s, sa = make(rng, sshape, dtype)
        e = np.moveaxis(a.copy(), dim, 0)
        e[perm] = np.moveaxis(sa, dim, 0)
        r = t.clone()
        assert r.index_copy_(dim, torch.from_numpy(perm), s) is r
        same(r, np.moveaxis(e, 0, dim))
        same(torch.index_copy(t, dim, torch.from_numpy(perm), s), np.moveaxis(e, 0, dim))


def test_masked_scatter():
    rng = np.random.default_rng(131)
    for _ in range(10):
        shape = rshape(rng, int(rng.integers(1, 4)))
        t, a = make(rng, shape, torch.float32, noncontig=bool(rng.integers(2)))
        m, ma = make(rng, shape[int(rng.integers(0, len(shape) + 1)):], torch.bool)
        mb = np.broadcast_to(ma, a.shape)
        src, sa = make(rng, (int(mb.sum()) + int(rng.integers(0, 3)),), torch.float32)
        e = a.copy()
        e[mb] = sa[:int(mb.sum())]
        same(t.clone().masked_scatter_(m, src), e)
        same(torch.masked_scatter(t, m, src), e)


@pytest.mark.parametrize("fn,exc,msg", [
    (lambda t: t.index_fill_(0, torch.tensor([0], dtype=torch.int32), 1.0), RuntimeError,
     r"index_fill_\(\): Expected dtype int64 for index."),
    (lambda t: t.index_fill_(0, torch.tensor([3]), 1.0), IndexError, "index 3 is out of bounds for dimension 0 with size 3"),
    (lambda t: t.index_fill_(0, torch.tensor([0]), torch.ones(2)), RuntimeError,
     "index_fill_ only supports a 0-dimensional value tensor, but got tensor with 1 dimension"),
    (lambda t: t.index_copy_(0, torch.tensor([0]), torch.ones(1, 4, dtype=torch.int64)), RuntimeError,
     r"index_copy_\(\): self and source expected to have the same dtype, but got \(self\) Float and \(source\) Long"),
    (lambda t: t.index_copy_(0, torch.tensor([0, 1]), torch.ones(1, 4)), RuntimeError,
     r"index_copy_\(\): Number of indices \(2\) should be equal to source.size\(dim\) \(1\)"),
    (lambda t: t.index_copy_(0, torch.tensor([0.0]), torch.ones(1, 4)), RuntimeError, "Expected a long tensor for index"),
    (lambda t: t.masked_scatter_(torch.ones(3, 4, dtype=torch.bool), torch.ones(11)), RuntimeError,
     "expected source to have at least as many elements as ones in mask"),
    (lambda t: t.masked_scatter_(torch.ones(3, 4), torch.ones(12)), RuntimeError, "only supports boolean masks"),
    (lambda t: t.masked_scatter_(torch.ones(3, 4, dtype=torch.bool), torch.ones(12, dtype=torch.int64)),
     RuntimeError, "expected self and source to have same dtypes"),
])
def test_index_fill_copy_masked_scatter_errors(fn, exc, msg):
    t = torch.zeros(3, 4)
    with pytest.raises(exc, match=msg):
        fn(t)
    assert t.sum().item() == 0.0


# ---- rot90 / take / take_along_dim / column_stack ------------------------------------------
def test_rot90_take_random():
    rng = np.random.default_rng(140)
    for _ in range(20):
        nd = int(rng.integers(2, 4))
        shape = rshape(rng, nd)
        dt = DTYPES[int(rng.integers(len(DTYPES)))]
        t, a = make(rng, shape, dt, noncontig=bool(rng.integers(2)))
        d0, d1 = [int(d) for d in rng.permutation(nd)[:2]]
        k = int(rng.integers(-5, 6))
        same(torch.rot90(t, k, (d0, d1 - nd)), np.rot90(a, k, (d0, d1)))
        same(t.rot90(k, [d0, d1]), np.rot90(a, k, (d0, d1)))
        if a.size:
            idx = rng.integers(-a.size, a.size, size=rshape(rng, int(rng.integers(0, 3))))
            same(torch.take(t, torch.from_numpy(np.asarray(idx, dtype=np.int64))), np.take(a, idx))
        dim = int(rng.integers(0, nd))
        ishape = list(shape)
        ishape[dim] = int(rng.integers(0, 4))
        if shape[dim]:
            ishape = [1 if rng.random() < 0.3 else s for s in ishape]   # broadcast over other dims
            idx = rng.integers(0, shape[dim], size=ishape)
            e = np.take_along_axis(a, idx, dim)
            same(torch.take_along_dim(t, torch.from_numpy(idx), dim), e)
            same(t.take_along_dim(torch.from_numpy(idx), dim - nd), e)
        if a.size:
            flat = rng.integers(0, a.size, size=5)
            same(torch.take_along_dim(t, torch.from_numpy(flat)), np.take_along_axis(a.reshape(-1), flat, 0))
    v, m = torch.arange(3), torch.arange(6).view(3, 2)
    same(torch.column_stack([v, m, torch.tensor([9, 9, 9])]), np.column_stack([np.arange(3), np.arange(6).reshape(3, 2),
                                                                                [9, 9, 9]]))
    same(torch.column_stack((torch.tensor(1), torch.tensor(2))), np.column_stack((1, 2)))


@pytest.mark.parametrize("fn,exc,msg", [
    (lambda t: torch.rot90(t, 1, (0, 1, 2)), RuntimeError, "expected total rotation dims == 2, but got dims = 3"),
    (lambda t: torch.rot90(t[0], 1), RuntimeError, "expected total dims >= 2, but got total dims = 1"),
    (lambda t: torch.rot90(t, 1, (0, 0)), RuntimeError, "expected rotation dims to be different, but got dim0 = 0 and dim1 = 0"),
    (lambda t: torch.rot90(t, 1, (0, 3)), RuntimeError, "Rotation dim1 out of range, dim1 = 3"),
    (lambda t: torch.take(t, torch.tensor([12])), IndexError, r"out of range: tried to access index 12 on a tensor of 12 elements."),
    (lambda t: torch.take(t, torch.tensor([-13])), IndexError, "tried to access index -13"),
    (lambda t: torch.take(t, torch.tensor([0], dtype=torch.int32)), RuntimeError, "take\\(\\): Expected a long tensor for index, but got Int"),
    (lambda t: torch.take_along_dim(t, torch.tensor([0]), 1), RuntimeError,
     "input and indices should have the same number of dimensions, but got 2 dimensions for input, and 1 dimensions for indices"),
    (lambda t: torch.take_along_dim(t, torch.tensor([[0]], dtype=torch.int32), 1), RuntimeError, "dtype of indices should be Long but got Int"),
    (lambda t: torch.take_along_dim(t, torch.tensor([[4]]), 1), RuntimeError, "index 4 is out of bounds for dimension 1 with size 4"),
    (lambda t: torch.column_stack(t), TypeError, "must be tuple of Tensors"),
])
def test_rot90_take_errors(fn, exc, msg):
    with pytest.raises(exc, match=msg):
        fn(torch.zeros(3, 4))


# ---- scatter_reduce -------------------------------------------------------------------------
@pytest.mark.parametrize("reduce", ["sum", "prod", "mean", "amax", "amin"])
@pytest.mark.parametrize("include_self", [True, False])
def test_scatter_reduce_random(reduce, include_self):
    rng = np.random.default_rng(150)
    ufunc = {"sum": np.add, "prod": np.multiply, "mean": np.add, "amax": np.maximum, "amin": np.minimum}[reduce]
    for _ in range(12):
        shape, dim, ishape, idx = scatter_case(rng, unique=False)
        dt = [torch.int64, torch.int32, torch.float32, torch.float64, torch.int16][int(rng.integers(5))]
        t, a = make(rng, shape, dt, lo=-3, hi=4)
        s, sa = make(rng, ishape, dt, lo=-3, hi=4)
        coords = along(ishape, dim, idx)
        e = a.astype(np.float64)
        if not include_self:
            e[coords] = {"sum": 0, "mean": 0, "prod": 1, "amax": -np.inf, "amin": np.inf}[reduce]
        ufunc.at(e, coords, sa.astype(np.float64))
        if reduce == "mean":
            cnt = np.full(a.shape, 1 if include_self else 0)
            np.add.at(cnt, coords, 1)
            cnt = np.maximum(cnt, 1)
            e = e / cnt if dt.is_floating_point else np.floor(e / cnt)
        e = e.astype(a.dtype)
        r = torch.scatter_reduce(t, dim, torch.from_numpy(idx), s, reduce, include_self=include_self)
        np.testing.assert_allclose(to_np(r), e, rtol=1e-6)
        c = t.clone()
        assert c.scatter_reduce_(dim, torch.from_numpy(idx), s, reduce, include_self=include_self) is c
        np.testing.assert_allclose(to_np(c), e, rtol=1e-6)


def test_scatter_reduce_nan_and_errors():
    x = torch.tensor([1.0, 2.0])
    r = x.scatter_reduce(0, torch.tensor([0, 0, 1]), torch.tensor([float("nan"), 5.0, 0.0]), "amax")
    assert r[0].item() != r[0].item() and r[1].item() == 2.0
    t = torch.zeros(3)
    with pytest.raises(RuntimeError, match="reduce argument must be either sum, prod, mean, amax or amin, got max"):
        t.scatter_reduce_(0, torch.tensor([0]), torch.ones(1), "max")
    with pytest.raises(RuntimeError, match=r"scatter_reduce\(\): Expected self.dtype to be equal to src.dtype"):
        t.scatter_reduce_(0, torch.tensor([0]), torch.ones(1, dtype=torch.int64), "sum")
    with pytest.raises(RuntimeError, match="index 3 is out of bounds for dimension 0 with size 3"):
        t.scatter_reduce_(0, torch.tensor([3]), torch.ones(1), "amin", include_self=False)
    assert t.tolist() == [0.0, 0.0, 0.0]


# ---- meshgrid / cartesian_prod / tril_indices / triu_indices / block_diag / diagflat ----------
def test_meshgrid_and_cartesian_prod():
    a, b, c = torch.arange(2), torch.arange(3) * 10, torch.tensor(7)
    for indexing in ("ij", "xy"):
        got = torch.meshgrid(a, b, c, indexing=indexing)
        want = np.meshgrid(np.arange(2), np.arange(3) * 10, np.array([7]), indexing=indexing)
        assert len(got) == 3
        for g, w in zip(got, want):
            same(g, w)
        assert shares(got[0], a)                                 # views, as torch
    with pytest.warns(UserWarning, match="indexing argument"):
        g = torch.meshgrid([a, b])
    same(g[1], np.meshgrid(np.arange(2), np.arange(3) * 10, indexing="ij")[1])
    same(torch.cartesian_prod(a, b), np.array([[i, j] for i in range(2) for j in range(0, 30, 10)]))
    same(torch.cartesian_prod(a), np.arange(2))
    with pytest.raises(RuntimeError, match='indexing must be one of "xy" or "ij", but received: ji'):
        torch.meshgrid(a, b, indexing="ji")
    with pytest.raises(RuntimeError, match="Expected 0D or 1D tensor"):
        torch.meshgrid(torch.zeros(2, 2), indexing="ij")
    with pytest.raises(RuntimeError, match="meshgrid expects all tensors to have the same dtype"):
        torch.meshgrid(a, a.float(), indexing="ij")
    with pytest.raises(RuntimeError, match=r"Expect a 1D vector, but got shape \[2, 2\]"):
        torch.cartesian_prod(torch.zeros(2, 2))


@pytest.mark.parametrize("row,col,offset", [(3, 3, 0), (4, 2, 1), (2, 5, -1), (0, 3, 0), (3, 4, -5), (3, 4, 7)])
def test_tri_indices(row, col, offset):
    same(torch.tril_indices(row, col, offset), np.array(np.tril_indices(row, offset, col)).reshape(2, -1))
    same(torch.triu_indices(row, col, offset), np.array(np.triu_indices(row, offset, col)).reshape(2, -1))
    assert torch.tril_indices(row, col, offset, dtype=torch.int32).dtype == torch.int32
    with pytest.raises(RuntimeError, match="row must be non-negative"):
        torch.tril_indices(-1, 2)


def test_block_diag_and_diagflat():
    r = torch.block_diag(torch.tensor([[1, 2], [3, 4]]), torch.tensor(5), torch.tensor([6.0, 7.0]), torch.zeros(0, 2))
    e = np.zeros((4, 7))
    e[:2, :2] = [[1, 2], [3, 4]]
    e[2, 2] = 5
    e[3, 3:5] = [6, 7]
    assert r.dtype == torch.float32
    same(r, e)
    assert torch.block_diag().shape == (0, 0)
    with pytest.raises(RuntimeError, match="Input tensors must have 2 or fewer dimensions. Input 1 has 3 dimensions"):
        torch.block_diag(torch.zeros(1), torch.zeros(1, 1, 1))
    m = torch.arange(4).view(2, 2)
    for k in (-2, 0, 1):
        same(torch.diagflat(m, k), np.diagflat(np.arange(4).reshape(2, 2), k))
        same(m.diagflat(k), np.diagflat(np.arange(4), k))


# ---- tensor_split / hsplit / vsplit / dsplit --------------------------------------------------
def test_tensor_split_random():
    rng = np.random.default_rng(160)
    for _ in range(30):
        nd = int(rng.integers(1, 4))
        shape = rshape(rng, nd)
        t, a = make(rng, shape, torch.float32, noncontig=bool(rng.integers(2)))
        dim = int(rng.integers(-nd, nd))
        if rng.random() < 0.5:
            ios = int(rng.integers(1, 6))
            want = np.array_split(a, ios, axis=dim)
            forms = [ios, torch.tensor(ios)]
        else:
            ios = [int(i) for i in rng.integers(-6, 8, size=int(rng.integers(0, 4)))]
            want = np.array_split(a, ios, axis=dim)
            forms = [ios, tuple(ios), torch.tensor(ios, dtype=torch.int64)]
        for f in forms:
            got = torch.tensor_split(t, f, dim)
            assert len(got) == len(want)
            for g, w in zip(got, want):
                same(g, w)
                assert g.numel() == 0 or shares(g, t)          # views
        got = t.tensor_split(forms[0], dim=dim)
        assert len(got) == len(want)
    m = np.arange(24.0).reshape(2, 3, 4)
    tm = torch.from_numpy(m)
    for fn, nfn, arg in [(torch.hsplit, np.hsplit, 3), (torch.vsplit, np.vsplit, 2), (torch.dsplit, np.dsplit, 2),
                         (torch.hsplit, np.hsplit, [1, 2]), (torch.dsplit, np.dsplit, [3])]:
        got, want = fn(tm, arg), nfn(m, arg)
        assert len(got) == len(want)
        for g, w in zip(got, want):
            same(g, w)
    for g, w in zip(torch.hsplit(torch.arange(6), 3), np.hsplit(np.arange(6), 3)):
        same(g, w)


@pytest.mark.parametrize("fn,msg", [
    (lambda: torch.tensor_split(torch.zeros(4), 0), "number of sections must be larger than 0, got 0"),
    (lambda: torch.tensor_split(torch.tensor(1.0), 2), "expected at least a 1-dimensional tensor"),
    (lambda: torch.tensor_split(torch.zeros(4), torch.tensor([1.0])), "to have dtype of long, but got Float"),
    (lambda: torch.tensor_split(torch.zeros(4), torch.tensor([[1]])), "zero-dimensional or one-dimensional tensor"),
    (lambda: torch.hsplit(torch.zeros(2, 3), 2), "torch.hsplit attempted to split along dimension 1, but the size "
                                                  "of the dimension 3 is not divisible by the split_size 2!"),
    (lambda: torch.vsplit(torch.zeros(3), 1), "torch.vsplit requires a tensor with at least 2 dimensions, but got "
                                               "a tensor with 1 dimensions!"),
    (lambda: torch.dsplit(torch.zeros(2, 2), 1), "torch.dsplit requires a tensor with at least 3 dimensions"),
    (lambda: torch.hsplit(torch.tensor(1.0), 1), "torch.hsplit requires a tensor with at least 1 dimension,"),
])
def test_tensor_split_errors(fn, msg):
    with pytest.raises(RuntimeError, match=msg):
        fn()


# ---- diag_embed with dims, repeat_interleave, argument types ---------------------------------

@pytest.mark.parametrize("offset,dim1,dim2", [(0, -2, -1), (1, 0, 2), (-1, 2, 0), (0, 1, 0), (2, 0, -1)])
def test_diag_embed_dims(offset, dim1, dim2):
    x = torch.arange(6.0).reshape(2, 3)
    r = torch.diag_embed(x, offset, dim1, dim2)
    assert r.dim() == 3
    assert torch.diagonal(r, offset, dim1, dim2).tolist() == x.tolist()
    assert float(r.abs().sum()) == float(x.sum())  # nothing off the diagonal
    # NumPy reference: put x on the diagonal of each (n, n) matrix, then move the two dims into place
    n = 3 + abs(offset)
    ref = np.zeros((2, n, n))
    i = np.arange(3)
    ref[:, i + max(-offset, 0), i + max(offset, 0)] = x.numpy()
    d1, d2 = dim1 % 3, dim2 % 3
    assert r.tolist() == np.moveaxis(ref, (1, 2), (d1, d2)).tolist()


def test_diag_embed_same_dims_raise():
    with pytest.raises(RuntimeError, match="diagonal dimensions cannot be identical"):
        torch.diag_embed(torch.ones(2), 0, 1, 1)


@pytest.mark.parametrize("dtype", [torch.float32, torch.int64, torch.bool])
def test_repeat_interleave_matches_numpy(dtype):
    rng = np.random.default_rng(0)
    x = torch.from_numpy(rng.integers(0, 2, (3, 4))).to(dtype)
    a = x.numpy()
    assert torch.repeat_interleave(x, 2).tolist() == np.repeat(a, 2).tolist()
    assert x.repeat_interleave(3, dim=-1).tolist() == np.repeat(a, 3, axis=-1).tolist()
    reps = [0, 2, 1]
    assert x.repeat_interleave(torch.tensor(reps), dim=0).tolist() == np.repeat(a, reps, axis=0).tolist()
    assert x.t().repeat_interleave(torch.tensor([2]), dim=1).tolist() == np.repeat(a.T, 2, axis=1).tolist()
    assert torch.repeat_interleave(torch.tensor([1, 0, 3])).tolist() == [0, 2, 2, 2]
    assert torch.repeat_interleave(torch.tensor(5.0), 3).tolist() == [5.0, 5.0, 5.0]
    assert torch.repeat_interleave(torch.zeros(0), 2).shape == (0,)


@pytest.mark.parametrize("call,exc,msg", [
    (lambda x: x.repeat_interleave(-1), RuntimeError, "repeats can not be negative"),
    (lambda x: x.repeat_interleave(torch.tensor([1, -1]), dim=0), RuntimeError, "repeats can not be negative"),
    (lambda x: x.repeat_interleave(torch.tensor([1, 2, 3]), dim=0), RuntimeError, "same size as input along dim"),
    (lambda x: x.repeat_interleave(torch.tensor([1.0]), dim=0), RuntimeError, "Long or Int"),
    (lambda x: x.repeat_interleave(torch.ones(2, 2, dtype=torch.int64), dim=0), RuntimeError, "0-dim or 1-dim"),
    (lambda x: x.repeat_interleave(1, dim=3), IndexError, "Dimension out of range"),
    (lambda x: x.repeat_interleave("a"), TypeError, "must be Tensor or int"),
    (lambda x: x.repeat_interleave(2, output_size=3), RuntimeError, "output_size"),
    (lambda x: torch.repeat_interleave(None, 2), TypeError, "must be Tensor"),
], ids=["neg", "neg_tensor", "size", "float", "2d", "dim", "type", "output_size", "none"])
def test_repeat_interleave_bad_input(call, exc, msg):
    with pytest.raises(exc, match=msg):
        call(torch.ones(2, 3))


@pytest.mark.parametrize("call", [
    lambda: torch.scatter(None, 0, torch.zeros(1, dtype=torch.int64), 1.0),
    lambda: torch.scatter_add(None, 0, None, None),
    lambda: torch.index_add(None, 0, None, None),
    lambda: torch.repeat(None, 2),
    lambda: torch.diag_embed(None),
    lambda: torch.broadcast_tensors(torch.ones(2), None),
    lambda: torch.column_stack([1.0, 2.0]),
], ids=["scatter", "scatter_add", "index_add", "repeat", "diag_embed", "broadcast_tensors", "column_stack"])
def test_non_tensor_input_is_a_type_error(call):
    with pytest.raises(TypeError, match="must be Tensor"):
        call()


def test_nonzero_static_pads_or_cuts_to_size():
    # values from torch 2.15
    assert torch.nonzero_static(torch.tensor([0, 1, 0, 2]), size=3).tolist() == [[1], [3], [-1]]
    assert torch.tensor([[0, 1], [3, 2]]).nonzero_static(size=2, fill_value=9).tolist() == \
        [[0, 1], [1, 0]]
    assert torch.nonzero_static(torch.zeros(3), size=0).shape == (0, 1)
    with pytest.raises(RuntimeError, match="non-negative integer"):
        torch.nonzero_static(torch.ones(2), size=-1)


def test_fill_diagonal_():
    # values from torch 2.15
    assert torch.zeros(3, 3).fill_diagonal_(5).tolist() == [[5, 0, 0], [0, 5, 0], [0, 0, 5]]
    wrapped = torch.zeros(7, 3).fill_diagonal_(5, wrap=True)
    assert wrapped.nonzero().tolist() == [[0, 0], [1, 1], [2, 2], [4, 0], [5, 1], [6, 2]]
    assert torch.zeros(7, 3).fill_diagonal_(5).nonzero().tolist() == [[0, 0], [1, 1], [2, 2]]
    assert torch.zeros(2, 4).fill_diagonal_(1).tolist() == [[1, 0, 0, 0], [0, 1, 0, 0]]
    assert torch.zeros(2, 2, 2).fill_diagonal_(5).nonzero().tolist() == [[0, 0, 0], [1, 1, 1]]
    with pytest.raises(RuntimeError, match="all dimensions of input must be of equal length"):
        torch.zeros(2, 3, 2).fill_diagonal_(1)
    with pytest.raises(RuntimeError, match="dimensions must larger than 1"):
        torch.zeros(3).fill_diagonal_(1)
    y = torch.ones(3, 3, requires_grad=True)
    (y * 2).fill_diagonal_(0).sum().backward()
    assert y.grad.tolist() == [[0, 2, 2], [2, 0, 2], [2, 2, 0]]
