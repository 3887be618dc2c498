"""Convolution and pooling (nn.functional and the _C kernels behind it) against naive NumPy
references: conv2d forward and all three gradients over a grid of shapes (stride, padding,
dilation, groups, bias, odd sizes, batch 1, unbatched, 1x1 kernels, non-contiguous operands),
with the BLAS and with the portable GEMM; conv1d and padding='same'/'valid'; max_pool2d values,
indices and gradient (padding, dilation, ceil_mode, NaN, ties, integer dtypes); avg_pool2d and
adaptive_avg_pool2d; gradients through autograd.Function and gradcheck; torch's messages for bad
arguments, and hostile arguments (overflowing sizes, huge padding, forged indices) that must
raise, never crash."""
import itertools

import numpy as np
import pytest

import minitorch as torch
import minitorch.nn.functional as F

F32, F64 = torch.float32, torch.float64
NP = {F32: np.float32, F64: np.float64}
TOL = {F32: 1e-4, F64: 1e-10}
HAS_BLAS = torch._C._blas_info() is not None


@pytest.fixture(params=["blas", "fallback"])
def engine(request):
    if request.param == "blas" and not HAS_BLAS:
        pytest.skip("no BLAS loaded (scipy-openblas32 not installed)")
    torch._C._blas_set_enabled(request.param == "blas")
    yield request.param
    torch._C._blas_set_enabled(True)


def pair(v):
    return tuple(v) if isinstance(v, (tuple, list)) else (v, v)


def conv2d_kernel(x, w, b, s=1, p=0, d=1, g=1):
    """The convolution kernel itself (_C._convolution, 2-D)."""
    return torch._C._convolution(x, w, b, pair(s), pair(p), pair(d), False, (0, 0), g)


def conv2d_kernel_backward(gy, x, w, s=1, p=0, d=1, g=1, output_mask=(True, True, True)):
    return torch._C._convolution_backward(gy, x, w, pair(s), pair(p), pair(d), False, (0, 0), g,
                                          output_mask)


# ---- NumPy references ------------------------------------------------------------------------

def conv_out(size, k, s, p, d):
    return (size + 2 * p - d * (k - 1) - 1) // s + 1


def conv_taps(x, w, stride, padding, dilation):
    """For each kernel tap (i, j): the input patch it meets, shape (N, C, OH, OW), of the
    zero-padded input; and the output size."""
    (sh, sw), (ph, pw), (dh, dw) = pair(stride), pair(padding), pair(dilation)
    kh, kw = w.shape[2:]
    xp = np.pad(x, ((0, 0), (0, 0), (ph, ph), (pw, pw)))
    oh = conv_out(x.shape[2], kh, sh, ph, dh)
    ow = conv_out(x.shape[3], kw, sw, pw, dw)
    for i in range(kh):
        for j in range(kw):
            rs = slice(i * dh, i * dh + sh * (oh - 1) + 1, sh)
            cs = slice(j * dw, j * dw + sw * (ow - 1) + 1, sw)
            yield i, j, rs, cs, xp[:, :, rs, cs]


def ref_conv2d(x, w, b, stride=1, padding=0, dilation=1, groups=1):
    n, c = x.shape[:2]
    co, cg = w.shape[:2]
    og = co // groups
    out = None
    for i, j, _, _, patch in conv_taps(x, w, stride, padding, dilation):
        if out is None:
            out = np.zeros((n, co) + patch.shape[2:], dtype=np.float64)
        for g in range(groups):
            out[:, g * og:(g + 1) * og] += np.einsum(
                "nchw,oc->nohw", patch[:, g * cg:(g + 1) * cg], w[g * og:(g + 1) * og, :, i, j])
    if b is not None:
        out += b[None, :, None, None]
    return out


def ref_conv2d_backward(gy, x, w, stride=1, padding=0, dilation=1, groups=1):
    co, cg = w.shape[:2]
    og = co // groups
    (ph, pw) = pair(padding)
    gxp = np.zeros((x.shape[0], x.shape[1], x.shape[2] + 2 * ph, x.shape[3] + 2 * pw))
    gw = np.zeros(w.shape)
    for i, j, rs, cs, patch in conv_taps(x, w, stride, padding, dilation):
        for g in range(groups):
            gyg = gy[:, g * og:(g + 1) * og]
            gw[g * og:(g + 1) * og, :, i, j] += np.einsum(
                "nohw,nchw->oc", gyg, patch[:, g * cg:(g + 1) * cg])
            gxp[:, g * cg:(g + 1) * cg, rs, cs] += np.einsum(
                "nohw,oc->nchw", gyg, w[g * og:(g + 1) * og, :, i, j])
    gx = gxp[:, :, ph:ph + x.shape[2], pw:pw + x.shape[3]]
    return gx, gw, gy.sum(axis=(0, 2, 3))


def pool_out(size, k, s, p, d, ceil_mode):
    num = size + 2 * p - d * (k - 1) - 1 + (s - 1 if ceil_mode else 0)
    o = num // s + 1
    if ceil_mode and (o - 1) * s >= size + p:
        o -= 1
    return o


def ref_max_pool2d(x, kernel, stride=None, padding=0, dilation=1, ceil_mode=False):
    """Values and indices, window by window in torch's order (rows, then columns; the first
    maximum wins; a NaN replaces the running maximum)."""
    (kh, kw), (ph, pw), (dh, dw) = pair(kernel), pair(padding), pair(dilation)
    sh, sw = pair(kernel if stride is None else stride)
    n, c, h, w = x.shape
    oh, ow = pool_out(h, kh, sh, ph, dh, ceil_mode), pool_out(w, kw, sw, pw, dw, ceil_mode)
    vals = np.zeros((n, c, oh, ow), dtype=x.dtype)
    idx = np.zeros((n, c, oh, ow), dtype=np.int64)
    for a, b in itertools.product(range(oh), range(ow)):
        taps = [(r, q) for r in range(a * sh - ph, a * sh - ph + dh * (kh - 1) + 1, dh)
                for q in range(b * sw - pw, b * sw - pw + dw * (kw - 1) + 1, dw)
                if 0 <= r < h and 0 <= q < w]
        for nn_, cc in itertools.product(range(n), range(c)):
            best, m = None, None
            for r, q in taps:
                v = x[nn_, cc, r, q]
                if best is None or v > m or (isinstance(v, np.floating) and np.isnan(v)):
                    best, m = r * w + q, v
            vals[nn_, cc, a, b], idx[nn_, cc, a, b] = m, best
    return vals, idx


def ref_max_pool2d_backward(gy, x, idx):
    n, c, h, w = x.shape
    gx = np.zeros((n, c, h * w), dtype=np.float64)
    for nn_, cc in itertools.product(range(n), range(c)):
        np.add.at(gx[nn_, cc], idx[nn_, cc].ravel(), gy[nn_, cc].ravel())
    return gx.reshape(x.shape)


def avg_windows(size, k, s, p, ceil_mode, count_include_pad):
    out = []
    for o in range(pool_out(size, k, s, p, 1, ceil_mode)):
        start = o * s - p
        end = min(start + k, size + p)
        lo, hi = max(start, 0), min(end, size)
        out.append((lo, hi, end - start if count_include_pad else hi - lo))
    return out


def adaptive_windows(size, osize):
    return [(o * size // osize, -(-(o + 1) * size // osize), None) for o in range(osize)]


def ref_avg(x, rows, cols, divisor=None):
    n, c = x.shape[:2]
    out = np.zeros((n, c, len(rows), len(cols)))
    for a, (r0, r1, rc) in enumerate(rows):
        for b, (c0, c1, cc) in enumerate(cols):
            d = divisor or (rc if rc is not None else r1 - r0) * (cc if cc is not None else c1 - c0)
            out[:, :, a, b] = x[:, :, r0:r1, c0:c1].sum(axis=(2, 3)) / d if r1 > r0 and c1 > c0 else 0
    return out


def ref_avg_backward(gy, x, rows, cols, divisor=None):
    gx = np.zeros(x.shape)
    for a, (r0, r1, rc) in enumerate(rows):
        for b, (c0, c1, cc) in enumerate(cols):
            d = divisor or (rc if rc is not None else r1 - r0) * (cc if cc is not None else c1 - c0)
            gx[:, :, r0:r1, c0:c1] += (gy[:, :, a, b] / d)[:, :, None, None]
    return gx


# ---- helpers ---------------------------------------------------------------------------------

def rand(rng, shape, dt=F64):
    a = rng.standard_normal(shape).astype(NP[dt])
    return torch.from_numpy(a.copy()), a


def close(t, ref, dt, scale=1.0):
    got = t.detach().numpy()
    assert got.shape == np.shape(ref)
    np.testing.assert_allclose(got, ref, rtol=TOL[dt], atol=TOL[dt] * max(scale, 1.0))


# ---- conv2d ----------------------------------------------------------------------------------

# (N, C_in, H, W, C_out, kernel, stride, padding, dilation, groups, bias)
CONV_CASES = [
    (2, 3, 7, 6, 4, 3, 1, 1, 1, 1, True),
    (1, 1, 5, 5, 2, 3, 1, 0, 1, 1, False),
    (3, 4, 9, 8, 6, (3, 2), (2, 1), (1, 0), (1, 2), 2, True),
    (2, 6, 5, 7, 6, 1, 1, 0, 1, 3, True),            # 1x1: the input is its own column matrix
    (2, 4, 6, 6, 8, 1, 2, 0, 1, 1, False),           # 1x1 with stride: im2col
    (2, 3, 8, 8, 5, 2, 2, 0, 1, 1, True),
    (1, 2, 11, 13, 3, 5, 3, 2, 1, 1, True),
    (2, 2, 4, 4, 4, 3, 1, 3, 2, 2, True),            # padding larger than the image
    (5, 2, 3, 3, 3, 3, 1, 1, 1, 1, True),            # more images than threads, tiny planes
    (3, 8, 6, 5, 8, 3, 1, 1, 1, 8, False),           # depthwise
    (2, 3, 6, 6, 2, (1, 3), 1, (0, 1), 1, 1, True),
    # 3x3, stride 1, >= 16 channels per group: Winograd's F(2x2, 3x3) for y, grad_input, grad_weight
    (2, 16, 7, 9, 16, 3, 1, 1, 1, 1, True),
    (3, 32, 6, 5, 32, 3, 1, 0, 1, 2, False),
    (1, 16, 1, 1, 20, 3, 1, 1, 1, 1, True),
    (5, 24, 10, 3, 16, 3, 1, 2, 1, 1, True),
    (2, 16, 5, 6, 16, 3, 1, 3, 1, 1, True),           # padding 3: grad_input by im2col
    (40, 16, 5, 5, 16, 3, 1, 1, 1, 1, True),          # many units and partial-sum slots
    (1, 16, 3, 40, 16, 3, 1, (2, 0), 1, 1, False),
]


@pytest.mark.parametrize("case", CONV_CASES, ids=[str(i) for i in range(len(CONV_CASES))])
@pytest.mark.parametrize("dt", [F32, F64], ids=["f32", "f64"])
def test_conv2d_forward_backward(case, dt, engine):
    n, c, h, w, co, k, s, p, d, g, has_bias = case
    kh, kw = pair(k)
    rng = np.random.default_rng(hash(case) % 2**32)
    x, xa = rand(rng, (n, c, h, w), dt)
    wt, wa = rand(rng, (co, c // g, kh, kw), dt)
    b, ba = rand(rng, (co,), dt) if has_bias else (None, None)
    y = conv2d_kernel(x, wt, b, s, p, d, g)
    ref = ref_conv2d(xa, wa, ba, s, p, d, g)
    close(y, ref, dt, scale=np.abs(ref).max())
    gy, gya = rand(rng, tuple(y.shape), dt)
    gx, gw, gb = conv2d_kernel_backward(gy, x, wt, s, p, d, g, (True, True, True))
    rx, rw, rb = ref_conv2d_backward(gya, xa, wa, s, p, d, g)
    close(gx, rx, dt, scale=np.abs(rx).max())
    close(gw, rw, dt, scale=np.abs(rw).max())
    close(gb, rb, dt, scale=np.abs(rb).max())
    # each output_mask entry on its own gives the same gradient, None for the others
    for i in range(3):
        mask = tuple(j == i for j in range(3))
        r = conv2d_kernel_backward(gy, x, wt, s, p, d, g, mask)
        assert [t is None for t in r] == [not m for m in mask]
        assert np.array_equal(r[i].numpy(), (gx, gw, gb)[i].numpy())


def test_conv2d_unbatched_and_batch_one():
    rng = np.random.default_rng(1)
    x, xa = rand(rng, (3, 7, 6))
    w, wa = rand(rng, (4, 3, 3, 3))
    b, ba = rand(rng, (4,))
    y = F.conv2d(x, w, b, padding=1)
    assert tuple(y.shape) == (4, 7, 6)
    close(y, ref_conv2d(xa[None], wa, ba, 1, 1)[0], F64)
    y1 = F.conv2d(x.unsqueeze(0), w, b, padding=1)
    assert np.array_equal(y1[0].numpy(), y.numpy())
    gy, gya = rand(rng, (4, 7, 6))
    gx, gw, gb = conv2d_kernel_backward(gy, x, w, 1, 1)
    rx, rw, rb = ref_conv2d_backward(gya[None], xa[None], wa, 1, 1)
    assert tuple(gx.shape) == (3, 7, 6)
    close(gx, rx[0], F64)
    close(gw, rw, F64)
    close(gb, rb, F64)


def test_conv2d_noncontiguous_and_empty():
    rng = np.random.default_rng(2)
    x, xa = rand(rng, (2, 6, 5, 10))
    w, wa = rand(rng, (4, 3, 2, 2))
    xs, ws = x[:, ::2, :, ::2], w.transpose(2, 3)
    y = F.conv2d(xs, ws, None, 1, 1)
    close(y, ref_conv2d(xa[:, ::2, :, ::2], wa.transpose(0, 1, 3, 2), None, 1, 1), F64)
    # empty batch: an empty result; its gradients are zeros of the operands' shapes
    e = torch.zeros(0, 3, 5, 5, dtype=F64)
    ye = F.conv2d(e, ws, torch.ones(4, dtype=F64))
    assert tuple(ye.shape) == (0, 4, 4, 4)
    gx, gw, gb = conv2d_kernel_backward(torch.zeros(0, 4, 4, 4, dtype=F64), e, ws)
    assert tuple(gx.shape) == (0, 3, 5, 5) and not gw.numpy().any() and not gb.numpy().any()
    # no input channels: the output is the bias
    z = F.conv2d(torch.zeros(2, 0, 4, 4, dtype=F64), torch.zeros(3, 0, 3, 3, dtype=F64),
                 torch.tensor([1.0, 2.0, 3.0], dtype=F64))
    assert np.array_equal(z.numpy(), np.broadcast_to(np.array([1.0, 2, 3])[None, :, None, None],
                                                     (2, 3, 2, 2)))


@pytest.mark.parametrize("cin", [3, 16], ids=["im2col", "winograd"])
def test_conv2d_inf_and_nan_stay_where_they_reach(cin):
    # Winograd's transforms would mix a tile's values (inf - inf = NaN next to an inf)
    rng = np.random.default_rng(12)
    x, xa = rand(rng, (2, cin, 6, 7), F32)
    w, wa = rand(rng, (16, cin, 3, 3), F32)
    xa[0, 0, 2, 3] = np.inf
    xa[1, 1, 4, 4] = np.nan
    x = torch.from_numpy(xa.copy())
    y = F.conv2d(x, w, None, 1, 1).numpy()
    ref = ref_conv2d(xa.astype(np.float64), wa.astype(np.float64), None, 1, 1)
    assert np.array_equal(np.isinf(y), np.isinf(ref)) and np.array_equal(np.isnan(y), np.isnan(ref))
    fin = np.isfinite(ref)
    np.testing.assert_allclose(y[fin], ref[fin], rtol=1e-4, atol=1e-4)
    gy = torch.from_numpy(np.where(fin, 1.0, 0.0).astype(np.float32))
    gx, gw, _ = conv2d_kernel_backward(gy, x, w, 1, 1)
    rx, rw, _ = ref_conv2d_backward(gy.numpy().astype(np.float64), xa.astype(np.float64),
                                    wa.astype(np.float64), 1, 1)
    for got, want in ((gx.numpy(), rx), (gw.numpy(), rw)):
        assert np.array_equal(np.isnan(got), np.isnan(want))
        assert np.array_equal(np.isinf(got), np.isinf(want))


def test_conv2d_half_dtypes():
    rng = np.random.default_rng(3)
    xa = rng.standard_normal((2, 3, 6, 6)).astype(np.float16)
    wa = rng.standard_normal((4, 3, 3, 3)).astype(np.float16)
    for dt in (torch.float16, torch.bfloat16):
        x, w = torch.from_numpy(xa).to(dt), torch.from_numpy(wa).to(dt)
        y = F.conv2d(x, w, padding=1)
        assert y.dtype == dt
        ref = ref_conv2d(x.float().numpy().astype(np.float64), w.float().numpy().astype(np.float64),
                         None, 1, 1)
        np.testing.assert_allclose(y.float().numpy(), ref, rtol=2e-2, atol=5e-2)


@pytest.mark.parametrize("cin,cout", [(4, 8), (16, 16)], ids=["im2col", "winograd"])
def test_conv2d_results_do_not_depend_on_thread_count(cin, cout):
    rng = np.random.default_rng(4)
    x, _ = rand(rng, (16, cin, 9, 9), F32)
    w, _ = rand(rng, (cout, cin, 3, 3), F32)
    gy, _ = rand(rng, (16, cout, 9, 9), F32)
    n = torch.get_num_threads()
    try:
        res = []
        for threads in (1, 3):
            torch.set_num_threads(threads)
            res.append([t.numpy() for t in (F.conv2d(x, w, None, 1, 1),)
                        + conv2d_kernel_backward(gy, x, w, 1, 1, output_mask=(True, True, True))])
    finally:
        torch.set_num_threads(n)
    for a, b in zip(*res):
        assert np.array_equal(a, b)


@pytest.mark.parametrize("padding", ["same", "valid", 2])
def test_conv2d_string_padding(padding):
    rng = np.random.default_rng(5)
    x, xa = rand(rng, (2, 3, 7, 8))
    for k, d in [((3, 3), 1), ((2, 4), 1), ((3, 2), (2, 3))]:
        w, wa = rand(rng, (4, 3) + k)
        y = F.conv2d(x, w, None, 1, padding, d)
        if padding == "same":
            # torch: total padding d * (k - 1), the odd one on the right/bottom
            tot = [dd * (kk - 1) for dd, kk in zip(pair(d), k)]
            xp = np.pad(xa, ((0, 0), (0, 0), (tot[0] // 2, tot[0] - tot[0] // 2),
                             (tot[1] // 2, tot[1] - tot[1] // 2)))
            ref = ref_conv2d(xp, wa, None, 1, 0, d)
            assert tuple(y.shape) == (2, 4, 7, 8)
        else:
            ref = ref_conv2d(xa, wa, None, 1, 0 if padding == "valid" else padding, d)
        close(y, ref, F64)


def test_conv1d():
    rng = np.random.default_rng(6)
    x, xa = rand(rng, (2, 3, 11))
    w, wa = rand(rng, (4, 3, 3))
    b, ba = rand(rng, (4,))
    y = F.conv1d(x, w, b, 2, 1)
    close(y, ref_conv2d(xa[:, :, None], wa[:, :, None], ba, (1, 2), (0, 1))[:, :, 0], F64)
    yu = F.conv1d(x[0], w, b, 1, "same", 2)
    assert tuple(yu.shape) == (4, 11)
    with pytest.raises(RuntimeError, match="Expected 2D \\(unbatched\\) or 3D \\(batched\\) input "
                                           "to conv1d, but got input of size: \\[2, 3, 5, 5\\]"):
        F.conv1d(torch.zeros(2, 3, 5, 5), torch.zeros(4, 3, 2))


def test_conv2d_autograd_matches_reference_and_gradcheck():
    rng = np.random.default_rng(7)
    x, xa = rand(rng, (2, 4, 6, 5))
    w, wa = rand(rng, (6, 2, 3, 2))
    b, ba = rand(rng, (6,))
    for t in (x, w, b):
        t.requires_grad_()
    y = F.conv2d(x, w, b, (2, 1), 1, 1, 2)
    gya = rng.standard_normal(tuple(y.shape))
    y.backward(torch.from_numpy(gya))
    rx, rw, rb = ref_conv2d_backward(gya, xa, wa, (2, 1), 1, 1, 2)
    close(x.grad, rx, F64)
    close(w.grad, rw, F64)
    close(b.grad, rb, F64)
    # only the weight needs a gradient: the others are not computed
    w2 = w.detach().requires_grad_()
    F.conv2d(x.detach(), w2, b.detach(), (2, 1), 1, 1, 2).backward(torch.from_numpy(gya))
    close(w2.grad, rw, F64)
    xs, ws, bs = (torch.randn(2, 2, 5, 5, dtype=F64, requires_grad=True),
                  torch.randn(3, 2, 2, 3, dtype=F64, requires_grad=True),
                  torch.randn(3, dtype=F64, requires_grad=True))
    assert torch.autograd.gradcheck(lambda a, c, e: F.conv2d(a, c, e, (1, 2), (1, 0), (2, 1)),
                                    (xs, ws, bs))
    assert torch.autograd.gradcheck(lambda a, c: F.conv1d(a, c, None, 1, "same"),
                                    (xs[:, :, 0].detach().contiguous().requires_grad_(),
                                     ws[:, :, 0].detach().contiguous().requires_grad_()))


# ---- max_pool2d ------------------------------------------------------------------------------

POOL_CASES = [
    dict(kernel_size=2),
    dict(kernel_size=3, stride=2, padding=1),
    dict(kernel_size=3, stride=2, padding=1, ceil_mode=True),
    dict(kernel_size=(3, 2), stride=(2, 1), padding=(1, 0), dilation=(2, 1), ceil_mode=True),
    dict(kernel_size=2, stride=2, padding=1, dilation=2, ceil_mode=True),
    dict(kernel_size=(2, 4), stride=3, padding=(1, 2), ceil_mode=False),
    dict(kernel_size=5, stride=1, padding=2),
]


def _pool_args(kw):
    return (kw["kernel_size"], kw.get("stride"), kw.get("padding", 0), kw.get("dilation", 1),
            kw.get("ceil_mode", False))


@pytest.mark.parametrize("kw", POOL_CASES, ids=[str(i) for i in range(len(POOL_CASES))])
@pytest.mark.parametrize("dt", [F32, F64], ids=["f32", "f64"])
def test_max_pool2d(kw, dt):
    rng = np.random.default_rng(8)
    for shape in [(2, 3, 9, 11), (1, 2, 7, 6), (2, 1, 5, 40)]:
        xa = rng.integers(-5, 5, size=shape).astype(NP[dt])    # ties: the first maximum wins
        x = torch.from_numpy(xa.copy()).requires_grad_()
        v, i = F.max_pool2d(x, **kw, return_indices=True)
        rv, ri = ref_max_pool2d(xa, *_pool_args(kw))
        assert np.array_equal(v.detach().numpy(), rv) and np.array_equal(i.numpy(), ri)
        assert i.dtype == torch.int64 and not i.requires_grad
        gya = rng.standard_normal(rv.shape)
        v.backward(torch.from_numpy(gya.astype(NP[dt])))
        close(x.grad, ref_max_pool2d_backward(gya.astype(NP[dt]), xa, ri), dt)


def test_max_pool2d_nan_inf_and_unbatched():
    x = torch.tensor([[[1.0, float("nan"), 3.0, 2.0],
                       [float("nan"), 0.0, float("-inf"), float("-inf")]]], dtype=F32)
    v, i = F.max_pool2d(x, 2, return_indices=True)
    assert np.isnan(v.numpy()[0, 0, 0]) and i.numpy().tolist() == [[[4, 2]]]
    assert v.numpy()[0, 0, 1] == 3.0
    ninf = torch.full((1, 1, 2, 2), float("-inf"))
    v, i = F.max_pool2d(ninf, 2, padding=1, return_indices=True)
    assert i.numpy().ravel().tolist() == [0, 1, 2, 3]          # padding is never chosen
    assert tuple(F.max_pool2d(torch.zeros(3, 6, 6), 2).shape) == (3, 3, 3)
    assert tuple(F.max_pool2d(torch.zeros(0, 3, 6, 6), 2).shape) == (0, 3, 3, 3)


@pytest.mark.parametrize("dt", [torch.uint8, torch.int8, torch.int16, torch.int32, torch.int64,
                                torch.float16, torch.bfloat16])
def test_max_pool2d_other_dtypes(dt):
    rng = np.random.default_rng(9)
    xa = rng.integers(-100 if dt != torch.uint8 else 0, 100, size=(2, 3, 7, 7))
    x = torch.from_numpy(xa).to(dt)
    v, i = F.max_pool2d(x, 3, 2, 1, ceil_mode=True, return_indices=True)
    rv, ri = ref_max_pool2d(xa, 3, 2, 1, 1, True)
    assert v.dtype == dt
    assert np.array_equal(v.to(torch.int64).numpy(), rv) and np.array_equal(i.numpy(), ri)


def test_max_pool2d_gradcheck():
    x = torch.randn(2, 2, 6, 7, dtype=F64, requires_grad=True)
    assert torch.autograd.gradcheck(lambda a: F.max_pool2d(a, (3, 2), 2, 1, 1, True), (x,))


# ---- average pooling -------------------------------------------------------------------------

AVG_CASES = [
    dict(kernel_size=2),
    dict(kernel_size=3, stride=2, padding=1),
    dict(kernel_size=3, stride=2, padding=1, ceil_mode=True),
    dict(kernel_size=3, stride=2, padding=1, ceil_mode=True, count_include_pad=False),
    dict(kernel_size=(3, 2), stride=(2, 1), padding=(1, 0), divisor_override=5),
]


@pytest.mark.parametrize("kw", AVG_CASES, ids=[str(i) for i in range(len(AVG_CASES))])
def test_avg_pool2d(kw):
    rng = np.random.default_rng(10)
    x, xa = rand(rng, (2, 3, 9, 8))
    x.requires_grad_()
    y = F.avg_pool2d(x, **kw)
    (kh, kw_), (sh, sw) = pair(kw["kernel_size"]), pair(kw.get("stride") or kw["kernel_size"])
    (ph, pw), cm = pair(kw.get("padding", 0)), kw.get("ceil_mode", False)
    cip = kw.get("count_include_pad", True)
    rows, cols = avg_windows(9, kh, sh, ph, cm, cip), avg_windows(8, kw_, sw, pw, cm, cip)
    close(y, ref_avg(xa, rows, cols, kw.get("divisor_override")), F64)
    gya = rng.standard_normal(tuple(y.shape))
    y.backward(torch.from_numpy(gya))
    close(x.grad, ref_avg_backward(gya, xa, rows, cols, kw.get("divisor_override")), F64)


@pytest.mark.parametrize("osize", [1, (3, 4), (None, 5), (9, 8), (13, 17)])
def test_adaptive_avg_pool2d(osize):
    rng = np.random.default_rng(11)
    x, xa = rand(rng, (2, 3, 9, 8))
    x.requires_grad_()
    y = F.adaptive_avg_pool2d(x, osize)
    oh, ow = pair(osize)
    oh, ow = oh or 9, ow or 8
    rows, cols = adaptive_windows(9, oh), adaptive_windows(8, ow)
    close(y, ref_avg(xa, rows, cols), F64)
    gya = rng.standard_normal(tuple(y.shape))
    y.backward(torch.from_numpy(gya))
    close(x.grad, ref_avg_backward(gya, xa, rows, cols), F64)
    assert tuple(F.adaptive_avg_pool2d(x[0], osize).shape) == (3, oh, ow)


@pytest.mark.parametrize("osize", [1, (3, 4), (None, 5), (9, 8), (13, 17)])
def test_adaptive_max_pool2d(osize):
    rng = np.random.default_rng(13)
    xa = rng.integers(-4, 4, size=(2, 3, 9, 8)).astype(np.float64)   # ties: the first wins
    xa[0, 0, 4, 4] = np.nan
    x = torch.from_numpy(xa.copy()).requires_grad_()
    v, i = F.adaptive_max_pool2d(x, osize, return_indices=True)
    oh, ow = pair(osize)
    oh, ow = oh or 9, ow or 8
    rows, cols = adaptive_windows(9, oh), adaptive_windows(8, ow)
    rv, ri = np.zeros((2, 3, oh, ow)), np.zeros((2, 3, oh, ow), dtype=np.int64)
    for (a, (r0, r1, _)), (b, (c0, c1, _)) in itertools.product(enumerate(rows), enumerate(cols)):
        for n, c in itertools.product(range(2), range(3)):
            best, m = None, None
            for r, q in itertools.product(range(r0, r1), range(c0, c1)):
                val = xa[n, c, r, q]
                if best is None or val > m or np.isnan(val):
                    best, m = r * 8 + q, val
            rv[n, c, a, b], ri[n, c, a, b] = m, best
    np.testing.assert_array_equal(v.detach().numpy(), rv)
    np.testing.assert_array_equal(i.numpy(), ri)
    gya = rng.standard_normal((2, 3, oh, ow))
    v.backward(torch.from_numpy(gya))
    close(x.grad, ref_max_pool2d_backward(gya, xa, ri), F64)
    assert tuple(F.adaptive_max_pool2d(x[0], osize).shape) == (3, oh, ow)


def test_pool_gradcheck():
    x = torch.randn(1, 2, 7, 6, dtype=F64, requires_grad=True)
    assert torch.autograd.gradcheck(lambda a: F.avg_pool2d(a, 3, 2, 1, True, False), (x,))
    assert torch.autograd.gradcheck(lambda a: F.adaptive_avg_pool2d(a, (4, 5)), (x,))
    assert torch.autograd.gradcheck(lambda a: F.adaptive_max_pool2d(a, (4, 5)), (x,))


# ---- bad input -------------------------------------------------------------------------------

CONV_ERRORS = [
    (lambda: F.conv2d(torch.zeros(2, 4, 5, 5), torch.zeros(8, 3, 3, 3)), RuntimeError,
     "Given groups=1, weight of size [8, 3, 3, 3], expected input[2, 4, 5, 5] to have 3 channels, "
     "but got 4 channels instead"),
    (lambda: F.conv2d(torch.zeros(2, 5, 5), torch.zeros(8, 3, 3, 3)), RuntimeError,
     "expected input[1, 2, 5, 5] to have 3 channels, but got 2 channels instead"),
    (lambda: F.conv2d(torch.zeros(2, 3, 2, 2), torch.zeros(8, 3, 3, 3)), RuntimeError,
     "Calculated padded input size per channel: (2 x 2). Kernel size: (3 x 3). Kernel size can't "
     "be greater than actual input size"),
    (lambda: F.conv2d(torch.zeros(2, 3, 5, 5), torch.zeros(8, 3, 3, 3), dilation=3), RuntimeError,
     "Calculated padded input size per channel: (5 x 5). Kernel size: (7 x 7)."),
    (lambda: F.conv2d(torch.zeros(2, 3, 5, 5), torch.zeros(8, 3, 3, 3), padding=-1), RuntimeError,
     "negative padding is not supported"),
    (lambda: F.conv2d(torch.zeros(2, 3, 5, 5), torch.zeros(8, 3, 3, 3), stride=0), RuntimeError,
     "non-positive stride is not supported"),
    (lambda: F.conv2d(torch.zeros(2, 3, 5, 5), torch.zeros(8, 3, 3, 3), dilation=0), RuntimeError,
     "non-positive dilation is not supported"),
    (lambda: F.conv2d(torch.zeros(2, 3, 5, 5), torch.zeros(8, 3, 3, 3), groups=0), RuntimeError,
     "non-positive groups is not supported"),
    (lambda: F.conv2d(torch.zeros(2, 3, 5, 5), torch.zeros(8, 3, 3, 3, dtype=F64)), RuntimeError,
     "Input type (torch.FloatTensor) and weight type (torch.DoubleTensor) should be the same"),
    (lambda: F.conv2d(torch.zeros(2, 3, 5, 5), torch.zeros(8, 3, 3, 3), torch.zeros(8, dtype=F64)),
     RuntimeError, "Input type (float) and bias type (double) should be the same"),
    (lambda: F.conv2d(torch.zeros(2, 3, 5, 5, dtype=torch.int64),
                      torch.zeros(8, 3, 3, 3, dtype=torch.int64)), NotImplementedError,
     "\"slow_conv2d_cpu\" not implemented for 'Long'"),
    (lambda: F.conv2d(torch.zeros(5, 5), torch.zeros(8, 3, 3, 3)), RuntimeError,
     "Expected 3D (unbatched) or 4D (batched) input to conv2d, but got input of size: [5, 5]"),
    (lambda: F.conv2d(torch.zeros(2, 3, 5, 5), torch.zeros(8, 3, 3)), RuntimeError,
     "expected stride to be a single integer value or a list of 1 values to match the "
     "convolution dimensions, but got stride=[1, 1]"),
    (lambda: F.conv2d(torch.zeros(2, 3, 5, 5), torch.zeros(8, 3)), RuntimeError,
     "weight should have at least three dimensions"),
    (lambda: F.conv1d(torch.zeros(2, 3, 5), torch.zeros(8, 3, 3, 3)), RuntimeError,
     "Expected 4-dimensional input for 4-dimensional weight [8, 3, 3, 3], but got 3-dimensional "
     "input of size [2, 3, 5] instead"),
    (lambda: F.conv2d(torch.zeros(2, 4, 5, 5), torch.zeros(6, 2, 3, 3), groups=4), RuntimeError,
     "Given groups=4, expected weight to be divisible by 4 at dimension 0, but got weight of size "
     "[[6, 2, 3, 3]] instead"),
    (lambda: F.conv2d(torch.zeros(2, 3, 5, 5), torch.zeros(8, 3, 3, 3), torch.zeros(7)),
     RuntimeError, "Given weight of size [8, 3, 3, 3], expected bias to be 1-dimensional with 8 "
     "elements, but got bias of size [7] instead"),
    (lambda: F.conv2d(torch.zeros(2, 3, 5, 5), torch.zeros(8, 3, 3, 3), stride=(1, 2, 3)),
     RuntimeError, "expected stride to be a single integer value or a list of 2 values to match "
     "the convolution dimensions, but got stride=[1, 2, 3]"),
    (lambda: F.conv2d(torch.zeros(2, 3, 5, 5), torch.zeros(8, 3, 3, 3), padding="same", stride=2),
     RuntimeError, "padding='same' is not supported for strided convolutions"),
    (lambda: F.conv2d(torch.zeros(2, 3, 5, 5), torch.zeros(8, 3, 3, 3), padding="foo"),
     RuntimeError, "Invalid padding string: 'foo'"),
    (lambda: F.conv2d(torch.zeros(2, 3, 5, 5), torch.zeros(8, 3, 3, 3), stride=1.5), TypeError,
     "must be int"),
]

POOL_ERRORS = [
    (lambda: F.max_pool2d(torch.zeros(2, 3, 5, 5), 3, padding=2), RuntimeError,
     "pad should be at most half of effective kernel size, but got pad=2, kernel_size=3 and "
     "dilation=1"),
    (lambda: F.max_pool2d(torch.zeros(2, 3, 5, 5), 2, stride=0), RuntimeError,
     "stride should not be zero"),
    (lambda: F.max_pool2d(torch.zeros(2, 3, 5, 5), 2, stride=-1), RuntimeError,
     "stride should be greater than zero, but got dH: -1 dW: -1"),
    (lambda: F.max_pool2d(torch.zeros(2, 3, 5, 5), 0, stride=1), RuntimeError,
     "kernel size should be greater than zero, but got kH: 0 kW: 0"),
    (lambda: F.max_pool2d(torch.zeros(2, 3, 5, 5), 2, padding=-1), RuntimeError,
     "pad must be non-negative, but got pad: -1"),
    (lambda: F.max_pool2d(torch.zeros(2, 3, 5, 5), 2, dilation=0), RuntimeError,
     "dilation should be greater than zero, but got dilationH: 0 dilationW: 0"),
    (lambda: F.max_pool2d(torch.zeros(2, 3, 5, 5), 7), RuntimeError,
     "Given input size: (3x5x5). Calculated output size: (3x0x0). Output size is too small"),
    (lambda: F.max_pool2d(torch.zeros(5, 5), 2), RuntimeError,
     "non-empty 3D or 4D (batch mode) tensor expected for input"),
    (lambda: F.max_pool2d(torch.zeros(2, 0, 5, 5), 2), RuntimeError,
     "Expected 3D or 4D (batch mode) tensor with optional 0 dim batch size for input, but "
     "got:[2, 0, 5, 5]"),
    (lambda: F.max_pool2d(torch.zeros(2, 3, 5, 5, dtype=torch.bool), 2), NotImplementedError,
     "\"max_pool2d\" not implemented for 'Bool'"),
    (lambda: F.max_pool2d(torch.zeros(2, 3, 5, 5), (2, 2, 2)), RuntimeError,
     "max_pool2d: kernel_size must either be a single int, or a tuple of two ints"),
    (lambda: F.max_pool2d(torch.zeros(2, 3, 5, 5), 2, 2**62), RuntimeError,
     "value cannot be converted to type int without overflow"),
    (lambda: F.avg_pool2d(torch.zeros(2, 3, 5, 5), 2, divisor_override=0), RuntimeError,
     "divisor must be not zero"),
    (lambda: F.avg_pool2d(torch.zeros(2, 3, 5, 5, dtype=torch.int64), 2), NotImplementedError,
     "\"avg_pool2d\" not implemented for 'Long'"),
    (lambda: F.adaptive_avg_pool2d(torch.zeros(2, 3, 5, 5), (2,)), RuntimeError,
     "adaptive_avg_pool2d: output_size must be 2"),
    (lambda: F.adaptive_avg_pool2d(torch.zeros(2, 3, 5, 5), (3, -1)), RuntimeError,
     "adaptive_avg_pool2d: elements of output_size must be greater than or equal to 0 but "
     "received {3, -1}"),
    (lambda: F.adaptive_avg_pool2d(torch.zeros(2, 3, 0, 5), 2), RuntimeError,
     "Expected input to have non-zero size for non-batch dimensions, but input has sizes "
     "[2, 3, 0, 5] with dimension 2 being empty"),
    (lambda: F.adaptive_max_pool2d(torch.zeros(2, 3, 5, 5, dtype=torch.int64), 2),
     NotImplementedError, "\"adaptive_max_pool2d\" not implemented for 'Long'"),
    (lambda: F.adaptive_max_pool2d(torch.zeros(5, 5), 2), RuntimeError,
     "adaptive_max_pool2d(): Expected 3D or 4D tensor, but got: [5, 5]"),
    (lambda: F.adaptive_max_pool2d(torch.zeros(2, 3, 5, 5), (2,)), RuntimeError,
     "adaptive_max_pool2d(): internal error: output_size.size() must be 2"),
    (lambda: F.adaptive_max_pool2d(torch.zeros(2, 3, 5, 5), -1), RuntimeError,
     "Trying to create tensor with negative dimension -1: [2, 3, -1, -1]"),
]


@pytest.mark.parametrize("fn,exc,msg", CONV_ERRORS + POOL_ERRORS,
                         ids=[str(i) for i in range(len(CONV_ERRORS + POOL_ERRORS))])
def test_bad_input_messages(fn, exc, msg):
    with pytest.raises(exc) as info:
        fn()
    assert msg in str(info.value)


HOSTILE = [
    lambda: conv2d_kernel(torch.zeros(1, 1, 3, 3), torch.zeros(1, 1, 3, 3), None, 1, 2**62),
    lambda: conv2d_kernel(torch.zeros(1, 1, 3, 3), torch.zeros(1, 1, 3, 3), None, 1, 2**40),
    lambda: conv2d_kernel(torch.zeros(1, 16, 3, 3), torch.zeros(16, 16, 3, 3), None, 1, 2**40),
    lambda: conv2d_kernel_backward(torch.zeros(1, 16, 1, 1), torch.zeros(1, 16, 3, 3),
                                      torch.zeros(16, 16, 3, 3), 1, (0, 2**40)),
    lambda: conv2d_kernel(torch.zeros(1, 1, 3, 3), torch.zeros(1, 1, 3, 3), None, 1, 0, 2**62),
    lambda: conv2d_kernel(torch.zeros(1, 1, 3, 3), torch.zeros(1, 1, 3, 3), None, 1, 0, 1,
                             2**62),
    lambda: conv2d_kernel(torch.zeros(1, 1, 3, 3), torch.zeros(1, 1, 3, 3), None, 1, 2**64),
    lambda: conv2d_kernel(torch.zeros(1, 2**20, 1, 1).expand(2**20, 2**20, 1, 1),
                             torch.zeros(1, 2**20, 1, 1), None),
    lambda: conv2d_kernel_backward(torch.zeros(1, 1, 2, 2), torch.zeros(1, 1, 3, 3),
                                      torch.zeros(1, 1, 3, 3)),
    lambda: conv2d_kernel_backward(torch.zeros(1, 1, 1, 1, dtype=F64), torch.zeros(1, 1, 3, 3),
                                      torch.zeros(1, 1, 3, 3)),
    lambda: conv2d_kernel_backward(torch.zeros(1, 1, 1, 1), torch.zeros(1, 1, 3, 3),
                                      torch.zeros(1, 1, 3, 3), output_mask=(True,)),
    lambda: torch._C._max_pool2d_with_indices(torch.zeros(1, 1, 3, 3), 2**31),
    lambda: torch._C._max_pool2d_with_indices(torch.zeros(1, 1, 2**20, 1).expand(1, 1, 2**20,
                                                                                 2**44), 1),
    lambda: torch._C._max_pool2d_backward(torch.ones(1, 1, 1, 1), torch.zeros(1, 1, 2, 2),
                                          torch.tensor([[[[4]]]]), 2),
    lambda: torch._C._max_pool2d_backward(torch.ones(1, 1, 1, 1), torch.zeros(1, 1, 2, 2),
                                          torch.tensor([[[[-7]]]]), 2),
    lambda: torch._C._max_pool2d_backward(torch.ones(1, 1, 1, 1), torch.zeros(1, 1, 2, 2),
                                          torch.tensor([[[[0.0]]]]), 2),
    lambda: torch._C._max_pool2d_backward(torch.ones(1, 1, 2, 1), torch.zeros(1, 1, 2, 2),
                                          torch.tensor([[[[0]]]]), 2),
    lambda: torch._C._adaptive_avg_pool2d(torch.zeros(1, 1, 3, 3), 2**62),
    lambda: torch._C._adaptive_max_pool2d(torch.zeros(1, 1, 3, 3), (2**62, 1)),
    lambda: torch._C._adaptive_max_pool2d_backward(torch.ones(1, 1, 1, 1), torch.zeros(1, 1, 2, 2),
                                                   torch.tensor([[[[9]]]])),
    lambda: torch._C._adaptive_avg_pool2d_backward(torch.zeros(1, 1), torch.zeros(1, 1, 3, 3)),
    lambda: torch._C._avg_pool2d(torch.zeros(1, 1, 3, 3), 2, 1, 0, False, True, 2**40),
]


@pytest.mark.parametrize("fn", HOSTILE, ids=[str(i) for i in range(len(HOSTILE))])
def test_hostile_arguments_raise(fn):
    with pytest.raises((RuntimeError, MemoryError, TypeError, ValueError, IndexError)):
        fn()


def test_huge_stride_and_empty_window():
    y = conv2d_kernel(torch.ones(1, 1, 3, 3), torch.ones(1, 1, 2, 2), None, 2**62)
    assert y.numpy().ravel().tolist() == [4.0]
    y = conv2d_kernel(torch.ones(1, 1, 3, 3), torch.ones(1, 1, 3, 3), None, 2**61, 2**61)
    assert y.numpy().ravel().tolist() == [0, 0, 0, 0, 9, 0, 0, 0, 0]
    # a dilated window whose taps all skip the input: -inf and index -1, skipped by the backward
    x = torch.randn(1, 1, 2, 2, requires_grad=True)
    v, i = F.max_pool2d(x, 2, padding=1, dilation=3, return_indices=True)
    assert v.item() == float("-inf") and i.item() == -1
    v.sum().backward()
    assert not x.grad.numpy().any()



# ---- torch.ops.aten.convolution_backward ----------------------------------------------------

def test_aten_convolution_backward_against_torch():
    import minitorch.autograd.forward_ad as fwAD
    x = (torch.arange(2 * 4 * 5 * 5, dtype=torch.float64).reshape(2, 4, 5, 5) / 50).sin()
    w = (torch.arange(6 * 2 * 3 * 3, dtype=torch.float64).reshape(6, 2, 3, 3) / 20).cos()
    out = torch.nn.functional.conv2d(x, w, stride=(2, 1), padding=(1, 0), groups=2)
    go = (torch.arange(out.numel(), dtype=torch.float64).reshape(out.shape) / 7).sin()
    got = {}
    for mask in ((True, True, True), (False, True, False), (True, False, True)):
        grads = torch.ops.aten.convolution_backward(go, x, w, [6], (2, 1), (1, 0), (1, 1), False,
                                                    (0, 0), 2, mask)
        got[mask] = tuple(None if g is None else (tuple(g.shape), round(float(g.sum()), 9),
                                                  round(float((g * g).sum()), 9)) for g in grads)
    # a dual weight: the input gradient carries a tangent, the masked ones are None
    with fwAD.dual_level():
        dw = fwAD.make_dual(w, torch.ones_like(w))
        gi, gw, gb = torch.ops.aten.convolution_backward(go, x, dw, None, (2, 1), (1, 0), (1, 1),
                                                         False, (0, 0), 2, (True, False, False))
        t = fwAD.unpack_dual(gi).tangent
        got["fwd"] = (gw, gb, tuple(t.shape), round(float(t.sum()), 9))
    assert got == CONV_BACKWARD_REF


# torch 2.15, the same calls: per output (shape, sum, sum of squares)
CONV_BACKWARD_REF = {'fwd': (None, None, (2, 4, 5, 5), 191.6835088),
 (False, True, False): (None, ((6, 2, 3, 3), -77.232995779, 2317.968129095), None),
 (True, False, True): (((2, 4, 5, 5), 414.059990892, 1680.860385686),
                       None,
                       ((6,), 13.567321902, 557.964063953)),
 (True, True, True): (((2, 4, 5, 5), 414.059990892, 1680.860385686),
                      ((6, 2, 3, 3), -77.232995779, 2317.968129095),
                      ((6,), 13.567321902, 557.964063953))}
