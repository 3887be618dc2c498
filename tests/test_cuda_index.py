"""CUDA index kernels: advanced indexing (get and put, accumulate), index_select, gather /
scatter / scatter_add / scatter_reduce, nonzero, and the ops built on them (masked_select, take,
index_add_/index_copy_/index_fill_, embedding, take_along_dim), plus the shape ops made of copies
and views (cat, stack, split, flip, roll, repeat, tril, triu, diag, ...).  Each CUDA result is
compared with the same op on the CPU: exactly, except sums of repeated indices (atomics add in
no fixed order), compared with a tolerance.  Index values are checked on the device: a bad one
raises the CPU's error and message, and nothing is written.  Runs on a GPU or on the emulated
device (MINITORCH_CUDA=EMULATE, .ci/cuda_emulated); skipped without one."""
import numpy as np
import pytest

import minitorch as torch

pytestmark = pytest.mark.skipif(torch.cuda.device_count() == 0,
                                reason="needs a CUDA device (a GPU, or the emulated build)")

DTYPES = [torch.float32, torch.float64, torch.float16, torch.bfloat16, torch.int64, torch.int32,
          torch.int16, torch.int8, torch.uint8, torch.bool, torch.complex64, torch.complex128]
INDEX_DTYPES = [torch.int64, torch.int32]


def _values(shape, dtype=torch.float32, seed=0):
    rng = np.random.default_rng(seed)
    a = rng.integers(-50, 50, size=shape).astype(np.float64) * 0.75
    t = torch.from_numpy(a)
    if dtype == torch.bool:
        return t > 0
    if dtype == torch.uint8:
        return t.abs().to(dtype)
    if dtype.is_complex:
        return torch.complex(t, t * -0.5).to(dtype)
    return t.to(dtype)


def _same(got, want):
    """got (a CUDA tensor) equals want (a CPU tensor): dtype, shape, values."""
    assert got.is_cuda
    g = got.cpu()
    assert g.dtype == want.dtype and g.shape == want.shape
    assert g.equal(want), (g, want)


def _close(got, want, **tol):
    assert got.is_cuda
    g = got.cpu()
    assert g.dtype == want.dtype and g.shape == want.shape
    assert torch.allclose(g.to(torch.float64), want.to(torch.float64), **tol), (g, want)


def _raises_like(cpu_call, cuda_call):
    """cuda_call raises the exception type and message cpu_call raises."""
    with pytest.raises(Exception) as want:
        cpu_call()
    with pytest.raises(want.type) as got:
        cuda_call()
    assert str(got.value) == str(want.value)


# ---- advanced indexing: get -------------------------------------------------------------------

@pytest.mark.parametrize("dtype", DTYPES)
def test_getitem_dtypes(dtype):
    x = _values((5, 4, 3), dtype)
    xc = x.cuda()
    i = torch.tensor([4, 0, -1, 2, 2])
    _same(xc[i.cuda()], x[i])
    _same(xc[:, torch.tensor([3, -4]).cuda()], x[:, torch.tensor([3, -4])])
    _same(xc[i.cuda(), 1:3], x[i, 1:3])


@pytest.mark.parametrize("idt", INDEX_DTYPES)
def test_getitem_index_forms(idt):
    x = _values((6, 6, 6))
    xc = x.cuda()
    a = torch.tensor([[0], [5], [-2]], dtype=idt)
    b = torch.tensor([1, 4, 0, 3], dtype=idt)
    _same(xc[a.cuda(), b.cuda()], x[a, b])                 # broadcast to (3, 4)
    _same(xc[a.cuda(), :, b.cuda()], x[a, :, b])           # separated: index dims first
    _same(xc[:, a.cuda(), b.cuda()], x[:, a, b])           # adjacent: in place
    _same(xc[a, b], x[a, b])                               # cpu index tensors, cuda tensor
    _same(xc[..., b.cuda()], x[..., b])
    _same(xc[None, b.cuda()], x[None, b])
    _same(xc[torch.tensor(3, dtype=idt).cuda()], x[torch.tensor(3, dtype=idt)])


def test_getitem_masks():
    x = _values((4, 5, 3))
    m = _values((4, 5), seed=1) > 0
    xc = x.cuda()
    _same(xc[m.cuda()], x[m])
    _same(xc[m], x[m])                                     # a cpu mask
    m1 = torch.tensor([True, False, True, True, False])
    _same(xc[:, m1.cuda()], x[:, m1])
    _same(xc[m1.cuda()[:4], 2], x[m1[:4], 2])
    _same(xc[torch.zeros(4, 5, dtype=torch.bool).cuda()], x[torch.zeros(4, 5, dtype=torch.bool)])
    _same(xc[torch.tensor(True).cuda()], x[torch.tensor(True)])
    _same(xc[torch.tensor(False).cuda()], x[torch.tensor(False)])


def test_getitem_noncontiguous_and_empty():
    x = _values((6, 7))
    xt, xct = x.t(), x.cuda().t()                          # strided source
    i = torch.tensor([6, 1, 1, 0])
    _same(xct[i.cuda()], xt[i])
    _same(xct[i.cuda(), 2:5], xt[i, 2:5])
    step = torch.tensor([0, 1, 2, 3, 4, 5, 6, 0])[::2]     # strided index
    _same(xct[step.cuda()], xt[step])
    e = torch.tensor([], dtype=torch.int64)
    _same(x.cuda()[e.cuda()], x[e])
    _same(x.cuda()[e.cuda(), e.cuda()], x[e, e])
    z = torch.empty(0, 3)
    _same(z.cuda()[e.cuda()], z[e])


def test_getitem_many_blocks():
    x = _values((400, 250))
    i = torch.from_numpy(np.random.default_rng(3).integers(-400, 400, size=(300,)))
    _same(x.cuda()[i.cuda()], x[i])
    j = torch.from_numpy(np.random.default_rng(4).integers(0, 250, size=(400, 1)))
    _same(x.cuda()[torch.arange(400).reshape(400, 1).cuda(), j.cuda()],
          x[torch.arange(400).reshape(400, 1), j])


def test_getitem_out_of_range():
    x = _values((4, 5))
    xc = x.cuda()
    for key in [torch.tensor([0, 4]), torch.tensor([1, -5, 9]), torch.tensor([[0, 3], [7, 1]])]:
        _raises_like(lambda: x[key], lambda: xc[key.cuda()])
        _raises_like(lambda: x[:, key + 3], lambda: xc[:, (key + 3).cuda()])
    a, b = torch.tensor([0, 1]), torch.tensor([2, 5])
    _raises_like(lambda: x[a, b], lambda: xc[a.cuda(), b.cuda()])


# ---- advanced indexing: put -------------------------------------------------------------------

@pytest.mark.parametrize("dtype", DTYPES)
def test_setitem_dtypes(dtype):
    x = _values((5, 4), dtype)
    v = _values((3, 4), dtype, seed=2)
    i = torch.tensor([4, 0, -2])
    xc = x.cuda()
    x[i] = v
    xc[i.cuda()] = v.cuda()
    _same(xc, x)
    x[:, torch.tensor([1, 3])] = v[0, 0]                   # a 0-d value
    xc[:, torch.tensor([1, 3]).cuda()] = v[0, 0].cuda()
    _same(xc, x)


def test_setitem_forms():
    x = _values((6, 6, 5))
    xc = x.clone().cuda()
    m = _values((6, 6), seed=5) > 0
    x[m] = 2.5                                             # python scalar, mask
    xc[m.cuda()] = 2.5
    _same(xc, x)
    a, b = torch.tensor([[0], [5]]), torch.tensor([4, 0, 1])
    val = _values((2, 3, 5), seed=6)
    x[a, b] = val
    xc[a, b] = val.cuda()                                  # cpu indices, cuda values
    _same(xc, x)
    x[:, a, b] = 7.0
    xc[:, a.cuda(), b.cuda()] = 7.0
    _same(xc, x)
    x[..., a, b] = -3.0                                    # a scalar broadcast in place
    xc[..., a.cuda(), b.cuda()] = -3.0
    _same(xc, x)
    xt, xct = x.transpose(0, 2), xc.transpose(0, 2)        # a strided destination
    xt[torch.tensor([3, 1])] = -1.0
    xct[torch.tensor([3, 1]).cuda()] = -1.0
    _same(xc, x)
    e = torch.tensor([], dtype=torch.int64)
    x[e] = 1.0
    xc[e.cuda()] = 1.0
    _same(xc, x)
    r = _values((5,), seed=23)
    _same(xc.index_put_((), r.cuda(), accumulate=True), x.index_put_((), r, accumulate=True))
    _same(xc.index_put_((), torch.tensor(0.5)), x.index_put_((), torch.tensor(0.5)))


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64, torch.int64, torch.int32,
                                   torch.int16, torch.int8, torch.uint8, torch.float16,
                                   torch.bfloat16, torch.bool, torch.complex64, torch.complex128])
def test_index_put_accumulate_duplicates(dtype):
    x = _values((7, 3), dtype)
    i = torch.tensor([0, 3, 0, 6, 3, 0, -1, 2, 3, 3])
    v = _values((10, 3), dtype, seed=7)
    want = x.clone().index_put_((i,), v, accumulate=True)
    got = x.cuda().index_put_((i.cuda(),), v.cuda(), accumulate=True)
    if dtype.is_complex:
        np.testing.assert_allclose(got.cpu().numpy(), want.numpy(), rtol=1e-6)
    elif dtype.is_floating_point:
        tol = 1e-2 if dtype in (torch.float16, torch.bfloat16) else 1e-6
        _close(got, want, rtol=tol, atol=tol)
    else:
        _same(got, want)


def test_index_put_bool_mask_and_int32():
    x = _values((4, 5))
    m = _values((4, 5), seed=26) > 0
    v = _values((int(m.sum()),), seed=27)
    _same(x.cuda().index_put_((m.cuda(),), v.cuda()), x.clone().index_put_((m,), v))
    i = torch.tensor([3, 1, 3], dtype=torch.int32)
    w = _values((3, 5), seed=28)
    _close(x.cuda().index_put_((i.cuda(),), w.cuda(), accumulate=True),
           x.clone().index_put_((i,), w, accumulate=True))


def test_index_put_accumulate_many():
    rng = np.random.default_rng(8)
    i = torch.from_numpy(rng.integers(0, 50, size=(20000,)))
    v = torch.from_numpy(rng.standard_normal(20000))
    want = torch.zeros(50, dtype=torch.float64).index_put_((i,), v, accumulate=True)
    got = torch.zeros(50, dtype=torch.float64).cuda().index_put_((i.cuda(),), v.cuda(),
                                                                  accumulate=True)
    _close(got, want, rtol=1e-9, atol=1e-9)
    iv = torch.from_numpy(rng.integers(-5, 5, size=(20000,)))
    want = torch.zeros(50, dtype=torch.int64).index_put_((i,), iv, accumulate=True)
    got = torch.zeros(50, dtype=torch.int64).cuda().index_put_((i.cuda(),), iv.cuda(),
                                                                accumulate=True)
    _same(got, want)


def test_index_put_out_of_range_writes_nothing():
    x = _values((4, 5))
    xc = x.cuda()
    for acc in (False, True):
        key = (torch.tensor([0, 2, 4]),)
        _raises_like(lambda: x.clone().index_put_(key, torch.ones(3, 5), accumulate=acc),
                     lambda: xc.index_put_((key[0].cuda(),), torch.ones(3, 5).cuda(),
                                           accumulate=acc))
        _same(xc, x)
    def bad():
        xc[torch.tensor([1, -7]).cuda()] = 0.0
    _raises_like(lambda: x.clone().__setitem__(torch.tensor([1, -7]), 0.0), bad)
    _same(xc, x)


# ---- index_select, take, index_add_/copy_/fill_, embedding ------------------------------------

@pytest.mark.parametrize("idt", INDEX_DTYPES)
def test_index_select(idt):
    x = _values((5, 6, 7))
    i = torch.tensor([4, 0, 0, 3], dtype=idt)
    for d in range(3):
        _same(x.cuda().index_select(d, i.cuda()), x.index_select(d, i))
        _same(x.cuda().transpose(0, 2).index_select(d, i.cuda()), x.transpose(0, 2).index_select(d, i))
    _same(x.cuda().index_select(1, i.cuda()[::2]), x.index_select(1, i[::2]))
    _same(x.cuda().index_select(2, torch.tensor([], dtype=idt).cuda()),
          x.index_select(2, torch.tensor([], dtype=idt)))
    s = torch.tensor(2.5)
    _same(s.cuda().index_select(0, torch.tensor([0], dtype=idt).cuda()),
          s.index_select(0, torch.tensor([0], dtype=idt)))
    for bad in ([0, 6], [-1]):
        b = torch.tensor(bad, dtype=idt)
        _raises_like(lambda: x.index_select(1, b), lambda: x.cuda().index_select(1, b.cuda()))


def test_take_and_take_along_dim():
    x = _values((4, 5))
    i = torch.tensor([[0, 19, -1], [-20, 7, 7]])
    _same(torch.take(x.cuda(), i.cuda()), torch.take(x, i))
    bad = torch.tensor([3, 20])
    _raises_like(lambda: torch.take(x, bad), lambda: torch.take(x.cuda(), bad.cuda()))
    bad = torch.tensor([-21])
    _raises_like(lambda: torch.take(x, bad), lambda: torch.take(x.cuda(), bad.cuda()))
    e = torch.empty(0, 2)
    _raises_like(lambda: torch.take(e, torch.tensor([0])), lambda: torch.take(e.cuda(), torch.tensor([0]).cuda()))
    _same(torch.take(e.cuda(), torch.empty(0, dtype=torch.int64).cuda()),
          torch.take(e, torch.empty(0, dtype=torch.int64)))
    j = torch.tensor([[0, 4], [1, 1], [3, 2], [0, 0]])
    _same(torch.take_along_dim(x.cuda(), j.cuda(), 1), torch.take_along_dim(x, j, 1))


def test_index_add_copy_fill():
    x = _values((6, 4))
    i = torch.tensor([5, 0, 5, 2])
    src = _values((4, 4), seed=9)
    _close(x.cuda().index_add_(0, i.cuda(), src.cuda()), x.clone().index_add_(0, i, src))
    _close(x.cuda().index_add(0, i.cuda(), src.cuda(), alpha=2.0), x.index_add(0, i, src, alpha=2.0))
    xi = x.to(torch.int64)
    _same(xi.cuda().index_add_(0, i.cuda(), src.to(torch.int64).cuda()),
          xi.clone().index_add_(0, i, src.to(torch.int64)))
    _raises_like(lambda: x.clone().index_add_(0, torch.tensor([6]), src[:1]),
                 lambda: x.cuda().index_add_(0, torch.tensor([6]).cuda(), src[:1].cuda()))
    _raises_like(lambda: x.clone().index_add_(0, torch.tensor([-1]), src[:1]),
                 lambda: x.cuda().index_add_(0, torch.tensor([-1]).cuda(), src[:1].cuda()))
    s = torch.tensor(1.5)
    _same(s.cuda().index_add_(0, torch.tensor([0, 0]).cuda(), torch.tensor([1.0, 2.0]).cuda()),
          s.clone().index_add_(0, torch.tensor([0, 0]), torch.tensor([1.0, 2.0])))
    u = torch.tensor([5, 0, 2])
    _same(x.cuda().index_copy_(0, u.cuda(), src[:3].cuda()), x.clone().index_copy_(0, u, src[:3]))
    src2 = _values((6, 2), seed=10)
    _same(x.cuda().index_copy(1, torch.tensor([3, 1]).cuda(), src2.cuda()),
          x.index_copy(1, torch.tensor([3, 1]), src2))
    _same(x.cuda().index_fill_(1, torch.tensor([0, 3]).cuda(), -2.0),
          x.clone().index_fill_(1, torch.tensor([0, 3]), -2.0))
    _same(x.cuda().index_fill(0, torch.tensor([1]).cuda(), torch.tensor(4.0)),
          x.index_fill(0, torch.tensor([1]), torch.tensor(4.0)))


def test_embedding_forward_backward():
    w = _values((10, 3))
    idx = torch.tensor([[1, 9, 1], [0, 4, 9]])
    F = torch.nn.functional
    _same(F.embedding(idx.cuda(), w.cuda()), F.embedding(idx, w))
    _raises_like(lambda: F.embedding(torch.tensor([10]), w),
                 lambda: F.embedding(torch.tensor([10]).cuda(), w.cuda()))
    wc = w.cuda().requires_grad_()
    wr = w.clone().requires_grad_()
    g = _values((2, 3, 3), seed=22)
    F.embedding(idx.cuda(), wc, padding_idx=4).backward(g.cuda())
    F.embedding(idx, wr, padding_idx=4).backward(g)
    _same(wc.grad, wr.grad)
    emb = torch.nn.Embedding(10, 3)
    with torch.no_grad():
        emb.weight.copy_(w)
    emb_c = torch.nn.Embedding(10, 3).cuda()
    with torch.no_grad():
        emb_c.weight.copy_(w.cuda())
    _same(emb_c(idx.cuda()), emb(idx))


# ---- gather / scatter -------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", DTYPES)
def test_gather_scatter_dtypes(dtype):
    x = _values((4, 5), dtype)
    i = torch.tensor([[0, 4, 4], [1, 0, 2]])
    for d in (0, 1):
        j = i.clamp(max=x.size(d) - 1)
        _same(x.cuda().gather(d, j.cuda()), x.gather(d, j))
    src = _values((2, 3), dtype, seed=3)
    perm = torch.tensor([[3, 0, 1], [4, 2, 0]])           # distinct along dim 1 per row
    _same(x.cuda().scatter(1, perm.cuda(), src.cuda()), x.scatter(1, perm, src))
    _same(x.cuda().scatter(1, perm.cuda(), src[0, 0].item()), x.scatter(1, perm, src[0, 0].item()))


def test_gather_noncontiguous_and_large():
    x = _values((300, 200))
    rng = np.random.default_rng(11)
    i = torch.from_numpy(rng.integers(0, 300, size=(200, 300))).t()   # strided index
    _same(x.cuda().gather(0, i.cuda()), x.gather(0, i))
    xt = x.t()
    _same(xt.cuda().gather(1, i.t().contiguous().cuda()), xt.gather(1, i.t().contiguous()))
    _same(x.cuda().gather(1, torch.empty(0, 3, dtype=torch.int64).cuda()),
          x.gather(1, torch.empty(0, 3, dtype=torch.int64)))
    s = torch.tensor(1.5)
    _same(s.cuda().gather(0, torch.tensor(0).cuda()), s.gather(0, torch.tensor(0)))


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64, torch.float16, torch.int64,
                                   torch.int32, torch.int8, torch.uint8, torch.bfloat16])
def test_scatter_add_duplicates(dtype):
    x = _values((3, 6), dtype)
    rng = np.random.default_rng(12)
    i = torch.from_numpy(rng.integers(0, 6, size=(3, 40)))
    src = _values((3, 40), dtype, seed=13)
    want = x.clone().scatter_add_(1, i, src)
    got = x.cuda().scatter_add_(1, i.cuda(), src.cuda())
    if dtype.is_floating_point:
        tol = 5e-2 if dtype in (torch.float16, torch.bfloat16) else 1e-6
        _close(got, want, rtol=tol, atol=tol)
    else:
        _same(got, want)


@pytest.mark.parametrize("reduce", ["sum", "prod", "amax", "amin"])
@pytest.mark.parametrize("dtype", [torch.float32, torch.float64, torch.float16, torch.int64,
                                   torch.int32, torch.int16, torch.uint8])
def test_scatter_reduce(reduce, dtype):
    x = _values((4, 5), dtype)
    i = torch.tensor([[0, 0, 4], [1, 1, 1], [3, 2, 3], [4, 4, 4]])
    src = _values((4, 3), dtype, seed=14)
    if reduce == "prod" and dtype.is_floating_point:
        src = src.abs() * 0 + 0.5 if dtype != torch.float16 else src.sign()
    want = x.clone().scatter_reduce_(1, i, src, reduce)
    got = x.cuda().scatter_reduce_(1, i.cuda(), src.cuda(), reduce)
    if dtype.is_floating_point and reduce == "sum":
        _close(got, want, rtol=1e-2 if dtype == torch.float16 else 1e-6)
    else:
        _same(got, want)
    if reduce in ("amax", "amin") and dtype.is_floating_point:
        s = src.clone()
        s[1, 1] = float("nan")
        want = x.clone().scatter_reduce_(1, i, s, reduce, include_self=False)
        got = x.cuda().scatter_reduce_(1, i.cuda(), s.cuda(), reduce, include_self=False)
        np.testing.assert_array_equal(got.cpu().to(torch.float64).numpy(),
                                      want.to(torch.float64).numpy())


def test_scatter_legacy_reduce_and_bool():
    x = _values((3, 4))
    i = torch.tensor([[0, 0], [3, 3], [1, 2]])
    src = _values((3, 2), seed=15)
    for r in ("add", "multiply"):
        _close(x.cuda().scatter_(1, i.cuda(), src.cuda(), reduce=r),
               x.clone().scatter_(1, i, src, reduce=r))
        _close(x.cuda().scatter_(1, i.cuda(), 1.5, reduce=r), x.clone().scatter_(1, i, 1.5, reduce=r))
    b = _values((3, 4), torch.bool)
    bs = _values((3, 2), torch.bool, seed=16)
    _same(b.cuda().scatter_add_(1, i.cuda(), bs.cuda()), b.clone().scatter_add_(1, i, bs))


def test_gather_scatter_out_of_range_writes_nothing():
    x = _values((3, 4))
    xc = x.cuda()
    i32 = torch.tensor([[0, 1]], dtype=torch.int32)
    _raises_like(lambda: x.gather(1, i32), lambda: xc.gather(1, i32.cuda()))
    for bad in ([[0, 4]], [[-1, 0]]):
        b = torch.tensor(bad)
        _raises_like(lambda: x.gather(1, b), lambda: xc.gather(1, b.cuda()))
        _raises_like(lambda: x.clone().scatter_(1, b, 1.0), lambda: xc.scatter_(1, b.cuda(), 1.0))
        _raises_like(lambda: x.clone().scatter_add_(1, b, torch.ones(1, 2)),
                     lambda: xc.scatter_add_(1, b.cuda(), torch.ones(1, 2).cuda()))
        _same(xc, x)


# ---- nonzero and masks --------------------------------------------------------------------------

@pytest.mark.parametrize("shape", [(), (0,), (7,), (3, 0, 2), (4, 5, 6), (2, 3, 4, 5)])
def test_nonzero_shapes(shape):
    x = _values(shape, torch.int64, seed=17) if shape else torch.tensor(3)
    m = x > 10 if shape else x
    _same(torch.nonzero(m.cuda()), torch.nonzero(m))
    for a, b in zip(torch.nonzero(m.cuda(), as_tuple=True), torch.nonzero(m, as_tuple=True)):
        _same(a, b)
    _same(torch.argwhere(x.cuda()), torch.argwhere(x))


def test_nonzero_many_blocks_and_dtypes():
    rng = np.random.default_rng(18)
    m = torch.from_numpy(rng.random(100000) < 0.3)
    _same(torch.nonzero(m.cuda()), torch.nonzero(m))
    m2 = m.reshape(250, 400).t()                           # non-contiguous
    _same(torch.nonzero(m2.cuda()), torch.nonzero(m2))
    _same(torch.nonzero(torch.ones(70000, dtype=torch.bool).cuda()),
          torch.nonzero(torch.ones(70000, dtype=torch.bool)))
    for dt in (torch.float32, torch.float16, torch.int32, torch.uint8, torch.complex64):
        x = _values((6, 7), dt, seed=19)
        _same(torch.nonzero(x.cuda()), torch.nonzero(x))


def test_masked_select():
    x = _values((4, 6))
    m = _values((4, 6), seed=20) > 0
    _same(torch.masked_select(x.cuda(), m.cuda()), torch.masked_select(x, m))
    row = torch.tensor([True, False, False, True, True, False])
    _same(torch.masked_select(x.cuda(), row.cuda()), torch.masked_select(x, row))   # broadcast
    _same(x.cuda().masked_select(torch.zeros(4, 6, dtype=torch.bool).cuda()),
          x.masked_select(torch.zeros(4, 6, dtype=torch.bool)))


# ---- shape ops made of copies and views -------------------------------------------------------

SHAPE_OPS = {
    "cat": lambda t: torch.cat([t, t[:, :2]], 1),
    "cat_dim0": lambda t: torch.cat([t, t, t[:1]]),
    "stack": lambda t: torch.stack([t, t * 1], 1),
    "hstack": lambda t: torch.hstack([t, t]),
    "vstack": lambda t: torch.vstack([t, t]),
    "split": lambda t: torch.split(t, 2)[1],
    "chunk": lambda t: torch.chunk(t, 3, 1)[2],
    "tensor_split": lambda t: torch.tensor_split(t, [1, 3], 1)[1],
    "unbind": lambda t: torch.unbind(t)[2],
    "flip": lambda t: torch.flip(t, [0, 1]),
    "fliplr": lambda t: torch.fliplr(t),
    "rot90": lambda t: torch.rot90(t, 1, [0, 1]),
    "roll": lambda t: torch.roll(t, 2, 1),
    "roll_dims": lambda t: torch.roll(t, (1, -2), (0, 1)),
    "roll_flat": lambda t: torch.roll(t, 5),
    "repeat": lambda t: t.repeat(2, 1, 2),
    "tile": lambda t: torch.tile(t, (2,)),
    "repeat_interleave": lambda t: t.repeat_interleave(2, 0),
    "tril": lambda t: torch.tril(t),
    "triu": lambda t: torch.triu(t, 1),
    "tril_neg": lambda t: torch.tril(t, -2),
    "tril_batched": lambda t: torch.tril(t.reshape(2, 2, 6), 1),
    "diag": lambda t: torch.diag(t, 1),
    "diag_1d": lambda t: torch.diag(t[0], -1),
    "diagonal": lambda t: torch.diagonal(t, -1),
    "diag_embed": lambda t: torch.diag_embed(t),
    "narrow": lambda t: t.narrow(1, 1, 3),
    "movedim": lambda t: torch.movedim(t.reshape(2, 2, 6), 0, 2),
    "transpose": lambda t: t.t(),
    "expand": lambda t: t[:1].expand(3, 6),
}


@pytest.mark.parametrize("name", sorted(SHAPE_OPS))
def test_shape_ops(name):
    x = _values((4, 6))
    f = SHAPE_OPS[name]
    want = f(x)
    got = f(x.cuda())
    _same(got.contiguous(), want.contiguous())
    xt = _values((6, 4), seed=21).t()                       # a non-contiguous input
    _same(f(xt.cuda()).contiguous(), f(xt).contiguous())


def test_shape_ops_dtypes_and_devices():
    for dt in (torch.int8, torch.float16, torch.bool, torch.complex64):
        x = _values((3, 5), dt)
        _same(torch.cat([x.cuda(), x.cuda()]), torch.cat([x, x]))
        _same(torch.flip(x.cuda(), [1]), torch.flip(x, [1]))
        _same(torch.triu(x.cuda()), torch.triu(x))
    _same(torch.cat([torch.tensor([]).cuda(), _values((2, 3)).cuda()]),
          torch.cat([torch.tensor([]), _values((2, 3))]))
    with pytest.raises(RuntimeError, match="same device"):
        torch.cat([_values((2, 3)).cuda(), _values((2, 3))])
    a, b = _values((2, 3)), _values((1, 2), torch.float32, seed=24)
    _same(torch.block_diag(a.cuda(), b.cuda()), torch.block_diag(a, b))
    _same(torch.tril_indices(4, 3, -1, device="cuda"), torch.tril_indices(4, 3, -1))
    _same(torch.triu_indices(3, 5, 1, device="cuda"), torch.triu_indices(3, 5, 1))


@pytest.mark.skipif(torch.cuda.device_count() < 2, reason="needs two CUDA devices")
def test_second_device():
    x = _values((5, 4))
    xc = x.to("cuda:1")
    i = torch.tensor([4, 0, 4])
    _same(xc[i], x[i])                                      # cpu index moved to cuda:1
    got = xc[i.to("cuda:1")]
    assert got.device == torch.device("cuda:1")
    _same(got, x[i])
    _same(xc.index_put_((i.to("cuda:1"),), torch.ones(3, 4).to("cuda:1"), accumulate=True),
          x.clone().index_put_((i,), torch.ones(3, 4), accumulate=True))
    m = x > 0
    _same(torch.nonzero(m.to("cuda:1")), torch.nonzero(m))
    _raises_like(lambda: x[torch.tensor([5])], lambda: xc[torch.tensor([5]).to("cuda:1")])
    with pytest.raises(RuntimeError, match="indices should be either on cpu or on the same device"):
        xc[i.cuda()]


BACKWARD = {
    "getitem": lambda t, d: t[torch.tensor([3, 0, 3]).to(d)],
    "getitem_pair": lambda t, d: t[torch.tensor([3, 0, 3]).to(d), torch.tensor([1, 2, 1]).to(d)],
    "getitem_cpu_index": lambda t, d: t[torch.tensor([[1], [1]]), 2:5],
    "mask": lambda t, d: t[(torch.arange(24).reshape(4, 6) % 3 == 0).to(d)],
    "masked_select": lambda t, d: torch.masked_select(t, (torch.arange(6) % 2 == 0).to(d)),
    "index_select": lambda t, d: t.index_select(1, torch.tensor([5, 0, 5]).to(d)),
    "gather": lambda t, d: t.gather(1, torch.tensor([[0, 0], [1, 5], [2, 2], [3, 4]]).to(d)),
    "scatter": lambda t, d: t.scatter(1, torch.tensor([[0, 1]]).to(d), torch.zeros(1, 2, dtype=torch.float64).to(d)),
    "index_put": lambda t, d: t.index_put((torch.tensor([2, 0]).to(d),), torch.zeros(6, dtype=torch.float64).to(d)),
    "embedding": lambda t, d: torch.nn.functional.embedding(torch.tensor([3, 0, 3]).to(d), t),
    "cat": lambda t, d: torch.cat([t, t[1:]], 0),
    "flip": lambda t, d: t.flip([0, 1]),
    "roll": lambda t, d: t.roll(1, 0),
    "tril": lambda t, d: t.tril(),
}


@pytest.mark.parametrize("name", sorted(BACKWARD))
def test_backward(name):
    f = BACKWARD[name]
    x = _values((4, 6), torch.float64, seed=25)

    def grad(dev):
        xx = x.clone().to(dev).requires_grad_()
        y = f(xx, dev)
        g = torch.arange(1, y.numel() + 1, dtype=torch.float64).reshape(y.shape).to(dev)
        y.backward(g)
        return xx.grad

    _same(grad("cuda"), grad("cpu"))


@pytest.mark.parametrize("mode", ["sum", "mean", "max"])
def test_embedding_bag_on_the_device(mode):
    w = torch.randn(10, 3)
    idx = torch.tensor([1, 2, 4, 5, 4, 3, 2, 9])
    offs = torch.tensor([0, 4])
    ref = torch.nn.functional.embedding_bag(idx, w, offs, mode=mode)
    got = torch.nn.functional.embedding_bag(idx.cuda(), w.cuda(), offs.cuda(), mode=mode)
    assert got.is_cuda and torch.allclose(got.cpu(), ref)
