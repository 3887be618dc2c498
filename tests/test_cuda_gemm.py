"""Matrix products on CUDA (cuBLAS, or the emulated cuBLAS of the emulated device): mm, bmm, mv,
dot, addmm, baddbmm, matmul, linear and einsum compared with the same op on the CPU, over dtypes
(float32 with TF32 on and off, float64, float16, bfloat16, integers), transposed, strided and
sliced operands, batch broadcasting, empty results and empty inner dimensions, and their
gradients through backward().  Runs on a GPU or on the emulated device (MINITORCH_CUDA=EMULATE,
.ci/cuda_emulated); skipped without one."""
import numpy as np
import pytest

import minitorch as torch

pytestmark = pytest.mark.skipif(torch.cuda.device_count() == 0,
                                reason="needs a CUDA device (a GPU, or the emulated build)")

EMULATED = torch.cuda.device_count() > 0 and "emulated" in torch.cuda.get_device_name(0).lower()

TOL = {torch.float32: (1e-5, 1e-5), torch.float64: (1e-12, 1e-12),
       torch.float16: (2e-3, 2e-3), torch.bfloat16: (1.6e-2, 1.6e-2)}


@pytest.fixture(autouse=True)
def _full_precision():
    """Every test starts with TF32 off (torch's default) and leaves it so."""
    torch.backends.cuda.matmul.allow_tf32 = False
    yield
    torch.backends.cuda.matmul.allow_tf32 = False


def _rand(*shape, dtype=torch.float32, seed=0):
    g = np.random.default_rng(seed + 7 * len(shape) + sum(shape))
    if dtype.is_floating_point:
        return torch.from_numpy(g.standard_normal(shape)).to(dtype)
    return torch.from_numpy(g.integers(-9, 10, size=shape)).to(dtype)


def _same(got, want, dtype=None):
    """got (a CUDA tensor) holds want's values (a CPU tensor)."""
    assert got.is_cuda and got.dtype == want.dtype and tuple(got.shape) == tuple(want.shape)
    g, w = got.cpu(), want
    dt = dtype or want.dtype
    if dt.is_floating_point:
        rtol, atol = TOL[dt]
        assert torch.allclose(g.double(), w.double(), rtol=rtol, atol=atol), (g, w)
    else:
        assert torch.equal(g, w), (g, w)


# ---- the products vs the cpu ---------------------------------------------------------------------

@pytest.mark.parametrize("dtype", [torch.float32, torch.float64, torch.float16, torch.bfloat16,
                                   torch.int64, torch.int32, torch.int16, torch.int8,
                                   torch.uint8])
def test_mm_dtypes(dtype):
    a, b = _rand(5, 7, dtype=dtype), _rand(7, 3, dtype=dtype, seed=1)
    _same(torch.mm(a.cuda(), b.cuda()), torch.mm(a, b))
    _same(a.cuda() @ b.cuda(), a @ b)


def test_integer_products_wrap_as_the_cpu():
    a = torch.full((3, 40), 100, dtype=torch.int8)
    b = torch.full((40, 2), 77, dtype=torch.int8)
    _same(torch.mm(a.cuda(), b.cuda()), torch.mm(a, b))
    big = torch.full((2, 3), 2 ** 40, dtype=torch.int64)
    _same(torch.mm(big.cuda(), big.t().contiguous().cuda()), torch.mm(big, big.t()))


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
@pytest.mark.parametrize("ta", [False, True])
@pytest.mark.parametrize("tb", [False, True])
def test_mm_transposed_operands(dtype, ta, tb):
    a = _rand(6, 4, dtype=dtype) if not ta else _rand(4, 6, dtype=dtype).t()
    b = _rand(4, 5, dtype=dtype, seed=2) if not tb else _rand(5, 4, dtype=dtype, seed=2).t()
    _same(torch.mm(a.cuda() if not ta else a.t().cuda().t(),
                   b.cuda() if not tb else b.t().cuda().t()), torch.mm(a, b))


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64, torch.int64])
def test_mm_strided_operands(dtype):
    base_a, base_b = _rand(9, 12, dtype=dtype), _rand(10, 14, dtype=dtype, seed=3)
    ca, cb = base_a.cuda(), base_b.cuda()
    # column slices (row stride > columns), steps in both dims (copied), offsets
    for sa, sb in [((slice(1, 7), slice(2, 7)), (slice(0, 5), slice(3, 11))),
                   ((slice(0, 9, 2), slice(0, 12, 3)), (slice(1, 5), slice(0, 14, 2))),
                   ((slice(2, 3), slice(None)), (slice(None, None, 1), slice(4, 5)))]:
        a, b = base_a[sa], base_b[sb]
        k = min(a.shape[1], b.shape[0])
        a, b = a[:, :k], b[:k]
        want = torch.mm(a, b)
        got = torch.mm(ca[sa][:, :k], cb[sb][:k])
        _same(got, want)
    # an expanded operand (stride 0 in a matrix dim)
    v = _rand(1, 4, dtype=dtype)
    e = v.expand(3, 4)
    _same(torch.mm(v.cuda().expand(3, 4), base_b[:4, :5].cuda()), torch.mm(e, base_b[:4, :5]))


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64, torch.float16, torch.bfloat16,
                                   torch.int32])
def test_bmm_and_baddbmm(dtype):
    a, b = _rand(4, 3, 5, dtype=dtype), _rand(4, 5, 2, dtype=dtype, seed=4)
    _same(torch.bmm(a.cuda(), b.cuda()), torch.bmm(a, b))
    # transposed batch members
    at, bt = _rand(4, 5, 3, dtype=dtype).transpose(1, 2), _rand(4, 2, 5, dtype=dtype).transpose(1, 2)
    _same(torch.bmm(at.transpose(1, 2).cuda().transpose(1, 2),
                    bt.transpose(1, 2).cuda().transpose(1, 2)), torch.bmm(at, bt))
    c = _rand(4, 3, 2, dtype=dtype, seed=5)
    if dtype.is_floating_point:
        kw = dict(beta=0.5, alpha=-2.0)
    else:
        kw = dict(beta=3, alpha=-2)
    _same(torch.baddbmm(c.cuda(), a.cuda(), b.cuda(), **kw), torch.baddbmm(c, a, b, **kw))


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
def test_mv_dot_addmm_addmv(dtype):
    m, v, w = _rand(6, 4, dtype=dtype), _rand(4, dtype=dtype, seed=1), _rand(4, dtype=dtype, seed=2)
    _same(torch.mv(m.cuda(), v.cuda()), torch.mv(m, v))
    _same(torch.mv(m.t().cuda().t().t(), _rand(6, dtype=dtype).cuda()),
          torch.mv(m.t(), _rand(6, dtype=dtype)))
    _same(torch.dot(v.cuda(), w.cuda()), torch.dot(v, w))
    _same(torch.dot(m.cuda()[:, 1], m.cuda()[:, 2]),
          torch.dot(m[:, 1], m[:, 2]))
    inp, b = _rand(6, 3, dtype=dtype, seed=3), _rand(4, 3, dtype=dtype, seed=4)
    _same(torch.addmm(inp.cuda(), m.cuda(), b.cuda(), beta=0.25, alpha=3.0),
          torch.addmm(inp, m, b, beta=0.25, alpha=3.0))
    # a broadcast input row
    row = _rand(3, dtype=dtype, seed=6)
    _same(torch.addmm(row.cuda(), m.cuda(), b.cuda()), torch.addmm(row, m, b))
    _same(torch.addmv(_rand(6, dtype=dtype).cuda(), m.cuda(), v.cuda(), beta=2.0),
          torch.addmv(_rand(6, dtype=dtype), m, v, beta=2.0))


@pytest.mark.parametrize("sa,sb", [((3, 4), (4,)), ((4,), (4, 5)), ((2, 3, 4), (4, 5)),
                                   ((3, 4), (2, 4, 5)), ((2, 1, 3, 4), (5, 4, 2)),
                                   ((1, 3, 4), (6, 4, 2)), ((4,), (2, 4, 3)), ((2, 3, 4), (4,))])
def test_matmul_broadcasting(sa, sb):
    a, b = _rand(*sa), _rand(*sb, seed=9)
    _same(torch.matmul(a.cuda(), b.cuda()), torch.matmul(a, b))


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64, torch.float16, torch.int64])
def test_empty_products(dtype):
    # empty results: nothing to compute
    for sa, sb in [((0, 3), (3, 4)), ((2, 3), (3, 0)), ((0, 2, 3), (0, 3, 4))]:
        a, b = _rand(*sa, dtype=dtype), _rand(*sb, dtype=dtype)
        _same(torch.matmul(a.cuda(), b.cuda()), torch.matmul(a, b))
    # k == 0: zeros, or beta * input
    a, b = _rand(3, 0, dtype=dtype), _rand(0, 4, dtype=dtype)
    _same(torch.mm(a.cuda(), b.cuda()), torch.mm(a, b))
    c = _rand(3, 4, dtype=dtype, seed=2)
    beta = 2 if not dtype.is_floating_point else 0.5
    _same(torch.addmm(c.cuda(), a.cuda(), b.cuda(), beta=beta),
          torch.addmm(c, a, b, beta=beta))
    _same(torch.bmm(_rand(2, 3, 0, dtype=dtype).cuda(), _rand(2, 0, 5, dtype=dtype).cuda()),
          torch.zeros(2, 3, 5, dtype=dtype))


def test_beta_zero_ignores_nan_input():
    c = torch.full((3, 2), float("nan"))
    a, b = _rand(3, 4), _rand(4, 2, seed=1)
    _same(torch.addmm(c.cuda(), a.cuda(), b.cuda(), beta=0), torch.addmm(c, a, b, beta=0))


def test_many_blocks_and_larger_products():
    a, b = _rand(3, 70, 90), _rand(3, 90, 65, seed=1)
    _same(torch.bmm(a.cuda(), b.cuda()), torch.bmm(a, b))
    ai, bi = _rand(150, 40, dtype=torch.int64), _rand(40, 700, dtype=torch.int64, seed=2)
    _same(torch.mm(ai.cuda(), bi.cuda()), torch.mm(ai, bi))


def test_linear_and_einsum():
    x, w, b = _rand(5, 6), _rand(3, 6, seed=1), _rand(3, seed=2)
    _same(torch.nn.functional.linear(x.cuda(), w.cuda(), b.cuda()),
          torch.nn.functional.linear(x, w, b))
    _same(torch.nn.functional.linear(_rand(2, 5, 6).cuda(), w.cuda()),
          torch.nn.functional.linear(_rand(2, 5, 6), w))
    a, c = _rand(2, 3, 4), _rand(2, 4, 5, seed=3)
    _same(torch.einsum("bij,bjk->bik", a.cuda(), c.cuda()), torch.einsum("bij,bjk->bik", a, c))
    _same(torch.einsum("ij,kj->ik", x.cuda(), w.cuda()), torch.einsum("ij,kj->ik", x, w))


def test_results_on_the_operands_device():
    if torch.cuda.device_count() < 2:
        pytest.skip("needs two CUDA devices")
    a, b = _rand(4, 3), _rand(3, 2, seed=1)
    got = torch.mm(a.to("cuda:1"), b.to("cuda:1"))
    assert got.device == torch.device("cuda:1")
    _same(got, torch.mm(a, b))
    with pytest.raises(RuntimeError, match="same device"):
        torch.mm(a.to("cuda:0"), b.to("cuda:1"))
    with pytest.raises(RuntimeError, match="same device"):
        torch.mm(a.cuda(), b)


def test_errors_as_on_the_cpu():
    a = _rand(3, 4).cuda()
    with pytest.raises(RuntimeError, match="cannot be multiplied"):
        torch.mm(a, _rand(3, 4).cuda())
    with pytest.raises(RuntimeError, match="same dtype"):
        torch.mm(a, _rand(4, 2, dtype=torch.float64).cuda())
    with pytest.raises(NotImplementedError, match="\"addmm_cuda\" not implemented for 'Bool'"):
        torch.mm(torch.ones(2, 2, dtype=torch.bool).cuda(), torch.ones(2, 2, dtype=torch.bool).cuda())


# ---- TF32 ------------------------------------------------------------------------------------

def test_tf32_switch():
    a, b = _rand(16, 64), _rand(64, 16, seed=1)
    want = torch.mm(a, b)
    assert torch.backends.cuda.matmul.allow_tf32 is False
    _same(torch.mm(a.cuda(), b.cuda()), want)
    torch.backends.cuda.matmul.allow_tf32 = True
    assert torch.get_float32_matmul_precision() == "high"
    got = torch.mm(a.cuda(), b.cuda()).cpu()
    # TF32 keeps 10 mantissa bits of each operand: about 1e-3 relative
    assert torch.allclose(got, want, rtol=2e-2, atol=2e-2)
    if EMULATED:  # the emulated cuBLAS rounds operands to TF32 as tensor cores do
        assert not torch.allclose(got, want, rtol=1e-6, atol=1e-6)
    # float64 is never affected
    ad, bd = a.double(), b.double()
    _same(torch.mm(ad.cuda(), bd.cuda()), torch.mm(ad, bd))
    torch.set_float32_matmul_precision("highest")
    assert torch.backends.cuda.matmul.allow_tf32 is False
    _same(torch.mm(a.cuda(), b.cuda()), want)
    torch.set_float32_matmul_precision("medium")
    assert torch.backends.cuda.matmul.allow_tf32 is True
    torch.set_float32_matmul_precision("highest")


def test_tf32_batched():
    torch.backends.cuda.matmul.allow_tf32 = True
    a, b = _rand(3, 8, 32), _rand(3, 32, 8, seed=1)
    assert torch.allclose(torch.bmm(a.cuda(), b.cuda()).cpu(), torch.bmm(a, b), rtol=2e-2,
                          atol=2e-2)


# ---- gradients ---------------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
def test_mm_matmul_gradients(dtype):
    a, b = _rand(4, 3, dtype=dtype), _rand(3, 5, dtype=dtype, seed=1)
    g = _rand(4, 5, dtype=dtype, seed=2)
    ac, bc = a.cuda().requires_grad_(), b.cuda().requires_grad_()
    torch.mm(ac, bc).backward(g.cuda())
    a.requires_grad_()
    b.requires_grad_()
    torch.mm(a, b).backward(g)
    _same(ac.grad, a.grad)
    _same(bc.grad, b.grad)
    x, y = _rand(2, 4, 3, dtype=dtype), _rand(2, 3, 5, dtype=dtype, seed=3)
    gy = _rand(2, 4, 5, dtype=dtype, seed=4)
    xc, yc = x.cuda().requires_grad_(), y.cuda().requires_grad_()
    torch.matmul(xc, yc).backward(gy.cuda())
    x.requires_grad_()
    y.requires_grad_()
    torch.matmul(x, y).backward(gy)
    _same(xc.grad, x.grad)
    _same(yc.grad, y.grad)


def test_linear_gradients_without_bias():
    x, w = _rand(5, 6), _rand(3, 6, seed=1)
    g = _rand(5, 3, seed=2)
    xc, wc = x.cuda().requires_grad_(), w.cuda().requires_grad_()
    torch.nn.functional.linear(xc, wc).backward(g.cuda())
    x.requires_grad_()
    w.requires_grad_()
    torch.nn.functional.linear(x, w).backward(g)
    _same(xc.grad, x.grad)
    _same(wc.grad, w.grad)


# ---- cdist -----------------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
@pytest.mark.parametrize("p", [0.0, 1.0, 2.0, 3.5, float("inf")])
def test_cdist(dtype, p):
    a, b = _rand(2, 5, 3, dtype=dtype), _rand(2, 4, 3, dtype=dtype, seed=1)
    b[0, 1] = a[0, 2]  # a zero distance (counted by p = 0)
    _same(torch.cdist(a.cuda(), b.cuda(), p=p), torch.cdist(a, b, p=p))
    _same(torch.cdist(a[0].cuda(), b[0].cuda(), p=p), torch.cdist(a[0], b[0], p=p))


# ---- streams and threads -----------------------------------------------------------------------

def test_products_on_a_side_stream_and_threads():
    import threading
    a, b = _rand(32, 48), _rand(48, 40, seed=1)
    want = torch.mm(a, b)
    ca, cb = a.cuda(), b.cuda()
    s = torch.cuda.Stream()
    s.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s):
        got = torch.mm(ca, cb)  # queued on s (the handle follows the current stream)
        got2 = torch.mm(got, cb.t())
    torch.cuda.current_stream().wait_stream(s)
    _same(got, want)
    _same(got2, torch.mm(want, b.t()))
    # one handle per thread: products from several threads at once
    results, errors = {}, []

    def work(i):
        try:
            dev = f"cuda:{i % torch.cuda.device_count()}"
            x, y = _rand(20, 30, seed=i), _rand(30, 10, seed=i + 1)
            results[i] = (torch.mm(x.to(dev), y.to(dev)).cpu(), torch.mm(x, y))
        except Exception as e:  # reported below
            errors.append(e)

    threads = [threading.Thread(target=work, args=(i,)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors
    for got_i, want_i in results.values():
        assert torch.allclose(got_i, want_i, rtol=1e-5, atol=1e-5)
