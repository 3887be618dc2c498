"""Convolutions and pooling on CUDA: conv1d/2d/3d and conv_transpose (stride, padding, dilation,
groups, bias), their gradients through backward(), max pooling (indices, ceil_mode, dilation,
adaptive, integer dtypes) and average pooling (count_include_pad, ceil_mode, divisor_override,
adaptive) with their backward, compared with the same ops on the CPU in float32 and float64.
Runs on a GPU or on the emulated device (MINITORCH_CUDA=EMULATE, .ci/cuda_emulated); skipped
without one."""
import numpy as np
import pytest

import minitorch as torch
import minitorch.nn.functional as F

pytestmark = pytest.mark.skipif(torch.cuda.device_count() == 0,
                                reason="needs a CUDA device (a GPU, or the emulated build)")

TOL = {torch.float32: (1e-4, 1e-5), torch.float64: (1e-10, 1e-12),
       torch.float16: (2e-3, 2e-3), torch.bfloat16: (1.6e-2, 1.6e-2)}


@pytest.fixture(autouse=True)
def _full_precision():
    torch.backends.cuda.matmul.allow_tf32 = False
    yield
    torch.backends.cuda.matmul.allow_tf32 = False


def _rand(*shape, dtype=torch.float32, seed=0):
    g = np.random.default_rng(seed + 11 * len(shape) + sum(shape))
    return torch.from_numpy(g.standard_normal(shape)).to(dtype)


def _cuda(v):
    return v.cuda() if isinstance(v, torch.Tensor) else v


def _same(got, want):
    assert got.is_cuda and got.dtype == want.dtype and tuple(got.shape) == tuple(want.shape)
    g = got.cpu()
    if want.dtype.is_floating_point:
        rtol, atol = TOL[want.dtype]
        assert torch.allclose(g.double(), want.double(), rtol=rtol, atol=atol, equal_nan=True), (g, want)
    else:
        assert torch.equal(g, want), (g, want)


def _check(fn, *args, **kw):
    """fn on CUDA copies of the tensor arguments gives fn's CPU result."""
    want = fn(*args, **kw)
    got = fn(*[_cuda(a) for a in args], **{k: _cuda(v) for k, v in kw.items()})
    if isinstance(want, tuple):
        for g, w in zip(got, want):
            _same(g, w)
    else:
        _same(got, want)


def _check_grads(fn, *args, seed=5):
    """The gradients of every floating tensor argument through fn, for one output gradient."""
    want = fn(*args)
    gy = _rand(*want.shape, dtype=want.dtype, seed=seed)
    cpu = [a.clone().requires_grad_() if isinstance(a, torch.Tensor) else a for a in args]
    dev = [a.cuda().requires_grad_() if isinstance(a, torch.Tensor) else a for a in args]
    fn(*cpu).backward(gy)
    out = fn(*dev)
    _same(out.detach(), want)
    out.backward(gy.cuda())
    for c, d in zip(cpu, dev):
        if isinstance(c, torch.Tensor):
            assert d.grad is not None
            _same(d.grad, c.grad)


# ---- convolutions --------------------------------------------------------------------------------

CONV2D = [
    dict(),
    dict(stride=2, padding=1),
    dict(stride=(1, 2), padding=(2, 0), dilation=(2, 1)),
    dict(padding=1, groups=2),
    dict(stride=2, padding=1, dilation=2, groups=4),
    dict(padding="same", dilation=2),
]


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
@pytest.mark.parametrize("kw", CONV2D)
def test_conv2d(dtype, kw):
    g = kw.get("groups", 1)
    x, w, b = _rand(2, 4, 9, 8, dtype=dtype), _rand(6 if g != 4 else 8, 4 // g, 3, 3, dtype=dtype,
                                                   seed=1), None
    b = _rand(w.shape[0], dtype=dtype, seed=2)
    _check(F.conv2d, x, w, b, **kw)
    _check(F.conv2d, x, w, None, **kw)


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
def test_conv1d_conv3d(dtype):
    _check(F.conv1d, _rand(3, 2, 11, dtype=dtype), _rand(4, 2, 3, dtype=dtype, seed=1),
           _rand(4, dtype=dtype), stride=2, padding=1)
    _check(F.conv1d, _rand(2, 4, 10, dtype=dtype), _rand(4, 1, 5, dtype=dtype, seed=1),
           None, dilation=2, groups=4)
    _check(F.conv3d, _rand(2, 2, 5, 6, 4, dtype=dtype), _rand(3, 2, 2, 3, 2, dtype=dtype, seed=1),
           _rand(3, dtype=dtype), padding=1, stride=(1, 2, 1))


def test_conv_unbatched_pointwise_and_large():
    _check(F.conv2d, _rand(3, 7, 6), _rand(5, 3, 1, 1, seed=1), _rand(5))  # no batch, 1x1
    # many blocks: 4 * 16 * 3*3 * 30*30 column entries
    _check(F.conv2d, _rand(4, 16, 30, 30), _rand(8, 16, 3, 3, seed=1), _rand(8), padding=1)


@pytest.mark.parametrize("dtype", [torch.float16, torch.bfloat16])
def test_conv_half_dtypes(dtype):
    x, w, b = _rand(2, 3, 7, 7, dtype=dtype), _rand(4, 3, 3, 3, dtype=dtype, seed=1), _rand(4, dtype=dtype)
    _check(F.conv2d, x, w, b, padding=1)


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
@pytest.mark.parametrize("kw", [dict(stride=2, padding=1, output_padding=1),
                                dict(stride=2, padding=1, groups=2),
                                dict(stride=(2, 1), dilation=(1, 2))])
def test_conv_transpose2d(dtype, kw):
    g = kw.get("groups", 1)
    x = _rand(2, 4, 5, 6, dtype=dtype)
    w = _rand(4, 6 // g, 3, 3, dtype=dtype, seed=1)
    _check(F.conv_transpose2d, x, w, _rand(w.shape[1] * g, dtype=dtype, seed=2), **kw)


def test_conv_transpose1d():
    _check(F.conv_transpose1d, _rand(2, 3, 7), _rand(3, 2, 4, seed=1), _rand(2), stride=3,
           padding=1)


def test_empty_convolutions():
    _check(F.conv2d, _rand(0, 3, 5, 5), _rand(4, 3, 3, 3, seed=1), _rand(4))
    _check(F.conv_transpose2d, _rand(0, 3, 5, 5), _rand(3, 2, 3, 3, seed=1), _rand(2))
    _check_grads(lambda x, w: F.conv2d(x, w), _rand(0, 3, 5, 5), _rand(4, 3, 3, 3, seed=1))


def test_conv_errors_and_devices():
    x, w = _rand(2, 3, 5, 5).cuda(), _rand(4, 3, 3, 3, seed=1)
    with pytest.raises(RuntimeError, match="same device|should be the same"):
        F.conv2d(x, w)
    with pytest.raises(RuntimeError):
        F.conv2d(x, _rand(4, 2, 3, 3).cuda())


# ---- gradients -----------------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
@pytest.mark.parametrize("kw", [dict(stride=2, padding=1, groups=2), dict(dilation=2, padding=2)])
def test_conv2d_gradients(dtype, kw):
    _check_grads(lambda x, w, b: F.conv2d(x, w, b, **kw), _rand(2, 4, 8, 7, dtype=dtype),
                 _rand(6, 4 // kw.get("groups", 1), 3, 3, dtype=dtype, seed=1),
                 _rand(6, dtype=dtype, seed=2))


def test_conv1d_conv3d_transpose_gradients():
    _check_grads(lambda x, w, b: F.conv1d(x, w, b, stride=2, padding=1), _rand(3, 2, 11),
                 _rand(4, 2, 3, seed=1), _rand(4))
    _check_grads(lambda x, w: F.conv3d(x, w, padding=1), _rand(2, 2, 4, 5, 3),
                 _rand(3, 2, 2, 3, 2, seed=1))
    _check_grads(lambda x, w, b: F.conv_transpose2d(x, w, b, stride=2, padding=1, output_padding=1),
                 _rand(2, 4, 5, 6), _rand(4, 3, 3, 3, seed=1), _rand(3, seed=2))


def test_conv_module_training_step():
    torch.manual_seed(0)
    conv = torch.nn.Conv2d(3, 4, 3, padding=1)
    ref = torch.nn.Conv2d(3, 4, 3, padding=1)
    ref.load_state_dict(conv.state_dict())
    conv.cuda()
    x = _rand(2, 3, 6, 6)
    gy = _rand(2, 4, 6, 6, seed=3)
    conv(x.cuda()).backward(gy.cuda())
    ref(x).backward(gy)
    _same(conv.weight.grad, ref.weight.grad)
    _same(conv.bias.grad, ref.bias.grad)


# ---- pooling -------------------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
@pytest.mark.parametrize("args", [(3, 2, 1), (2, 2, 1, 2, True), (3, 1, 0, 1, False),
                                  ((2, 3), (2, 1), (1, 1), (1, 2), True)])
def test_max_pool2d(dtype, args):
    x = _rand(2, 3, 9, 8, dtype=dtype)
    _check(F.max_pool2d, x, *args, return_indices=True)
    _check_grads(lambda t: F.max_pool2d(t, *args), x)


def test_max_pool_ties_nan_and_integers():
    x = torch.tensor([[[[1.0, 1.0, 2.0, 2.0], [1.0, float("nan"), 2.0, 0.0],
                        [0.0, 0.0, 0.0, 0.0]]]])
    _check(F.max_pool2d, x, 2, 1, return_indices=True)
    _check_grads(lambda t: F.max_pool2d(t, 2, 1), torch.ones(1, 2, 4, 5))
    for dtype in [torch.int64, torch.int32, torch.int16, torch.int8, torch.uint8]:
        xi = torch.from_numpy(np.random.default_rng(1).integers(0, 100, (2, 3, 7, 6))).to(dtype)
        _check(F.max_pool2d, xi, 3, 2, 1, return_indices=True)


def test_max_pool_1d_3d_and_adaptive():
    _check(F.max_pool1d, _rand(2, 3, 10), 3, 2, 1, return_indices=True)
    _check(F.max_pool3d, _rand(2, 2, 5, 6, 4), 2, return_indices=True)
    _check(F.adaptive_max_pool2d, _rand(2, 3, 9, 7), (4, 3), True)
    _check(F.adaptive_max_pool3d, _rand(1, 2, 5, 6, 7), (2, 3, 4), True)
    _check_grads(lambda t: F.adaptive_max_pool2d(t, (4, 3)), _rand(2, 3, 9, 7))
    _check_grads(lambda t: F.max_pool3d(t, 2, 1), _rand(1, 2, 4, 5, 3))


def test_max_pool_backward_bad_index():
    gy, x = torch.ones(1, 1, 1, 1).cuda(), torch.zeros(1, 1, 2, 2).cuda()
    for bad in (4, -7):
        with pytest.raises(IndexError):
            torch._C._max_pool2d_backward(gy, x, torch.tensor([[[[bad]]]]).cuda(), 2)
    with pytest.raises(IndexError):
        torch._C._adaptive_max_pool2d_backward(gy, x, torch.tensor([[[[9]]]]).cuda())
    # the cpu raises the same
    with pytest.raises(IndexError):
        torch._C._max_pool2d_backward(gy.cpu(), x.cpu(), torch.tensor([[[[4]]]]), 2)


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
@pytest.mark.parametrize("kw", [dict(kernel_size=3, stride=2, padding=1),
                                dict(kernel_size=3, stride=2, padding=1, ceil_mode=True,
                                     count_include_pad=False),
                                dict(kernel_size=(2, 3), stride=(1, 2), padding=(1, 1),
                                     divisor_override=5),
                                dict(kernel_size=2, ceil_mode=True)])
def test_avg_pool2d(dtype, kw):
    x = _rand(2, 3, 9, 8, dtype=dtype)
    _check(F.avg_pool2d, x, **kw)
    _check_grads(lambda t: F.avg_pool2d(t, **kw), x)


def test_avg_pool_1d_3d_and_adaptive():
    _check(F.avg_pool1d, _rand(2, 3, 10), 3, 2, 1)
    _check(F.avg_pool3d, _rand(2, 2, 5, 6, 4), 2, count_include_pad=False, padding=1)
    _check(F.adaptive_avg_pool2d, _rand(2, 3, 9, 7), (4, 3))
    _check(F.adaptive_avg_pool2d, _rand(2, 3, 9, 7), 1)
    _check_grads(lambda t: F.adaptive_avg_pool2d(t, (4, 3)), _rand(2, 3, 9, 7))
    _check_grads(lambda t: F.avg_pool3d(t, 2, 1, 1), _rand(1, 2, 4, 5, 3))


def test_pool_many_blocks():
    x = _rand(8, 16, 20, 20)
    _check(F.max_pool2d, x, 2, return_indices=True)
    _check(F.avg_pool2d, x, 3, 1, 1)


# ---- resampling (interpolate) ------------------------------------------------------------------

@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
@pytest.mark.parametrize("kw", [dict(scale_factor=2, mode="nearest"),
                                dict(size=(5, 11), mode="nearest-exact"),
                                dict(scale_factor=(1.5, 0.75), mode="bilinear"),
                                dict(size=(4, 13), mode="bilinear", align_corners=True),
                                dict(size=(7, 5), mode="bicubic"),
                                dict(size=(3, 4), mode="bilinear", antialias=True),
                                dict(size=(6, 8), mode="area")])
def test_interpolate_2d(dtype, kw):
    x = _rand(2, 3, 6, 8, dtype=dtype)
    _check(F.interpolate, x, **kw)
    _check_grads(lambda t: F.interpolate(t, **kw), x)


def test_interpolate_1d_3d_and_dtypes():
    _check(F.interpolate, _rand(2, 3, 7), size=12, mode="linear")
    _check(F.interpolate, _rand(1, 2, 3, 4, 5), scale_factor=2, mode="trilinear")
    _check(F.interpolate, _rand(1, 2, 3, 4, 5), size=(2, 6, 5), mode="nearest")
    xi = torch.from_numpy(np.random.default_rng(2).integers(0, 255, (1, 3, 5, 6))).to(torch.uint8)
    _check(F.interpolate, xi, scale_factor=3, mode="nearest")
    _check(F.interpolate, _rand(1, 2, 5, 6, dtype=torch.float16), scale_factor=2, mode="nearest")
    _check(F.interpolate, _rand(1, 2, 5, 6, dtype=torch.bfloat16), size=(9, 4), mode="bilinear")
    _check(F.interpolate, _rand(1, 2, 5, 6), size=(5, 6), mode="bilinear")  # identity
    _check_grads(lambda t: F.interpolate(t, scale_factor=2, mode="trilinear"), _rand(1, 2, 3, 2, 3))
