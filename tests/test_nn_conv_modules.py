"""Conv2d / Conv1d / MaxPool2d / AvgPool2d / AdaptiveAvgPool2d modules over nn.functional's
convolution and pooling: values against NumPy loops, padding modes, gradients."""
import math

import numpy as np
import pytest

import minitorch as torch
import minitorch.nn as nn
import minitorch.nn.functional as F


def t64(a):
    return torch.from_numpy(np.ascontiguousarray(a, dtype=np.float64))


def np_conv2d(x, w, b, stride, padding, dilation, groups):
    n, c, h, wd = x.shape
    o, cg, kh, kw = w.shape
    x = np.pad(x, ((0, 0), (0, 0), (padding[0], padding[0]), (padding[1], padding[1])))
    oh = (x.shape[2] - dilation[0] * (kh - 1) - 1) // stride[0] + 1
    ow = (x.shape[3] - dilation[1] * (kw - 1) - 1) // stride[1] + 1
    out = np.zeros((n, o, oh, ow))
    per = o // groups
    for oc in range(o):
        g = oc // per
        xs = x[:, g * cg:(g + 1) * cg]
        for i in range(oh):
            for j in range(ow):
                patch = xs[:, :, i * stride[0]:i * stride[0] + dilation[0] * (kh - 1) + 1:dilation[0],
                           j * stride[1]:j * stride[1] + dilation[1] * (kw - 1) + 1:dilation[1]]
                out[:, oc, i, j] = (patch * w[oc]).sum(axis=(1, 2, 3))
    if b is not None:
        out += b[None, :, None, None]
    return out


def np_max_pool2d(x, k, s, p):
    x = np.pad(x, ((0, 0), (0, 0), (p, p), (p, p)), constant_values=-np.inf)
    oh = (x.shape[2] - k) // s + 1
    ow = (x.shape[3] - k) // s + 1
    out = np.empty(x.shape[:2] + (oh, ow))
    for i in range(oh):
        for j in range(ow):
            out[:, :, i, j] = x[:, :, i * s:i * s + k, j * s:j * s + k].max(axis=(2, 3))
    return out


@pytest.fixture
def rng():
    return np.random.default_rng(5)


@pytest.mark.parametrize("kwargs", [
    dict(),
    dict(stride=2, padding=1),
    dict(padding=(2, 1), dilation=2),
    dict(groups=2, bias=False),
])
def test_conv2d_module_forward(rng, kwargs):
    conv = nn.Conv2d(4, 6, 3, **kwargs).double()
    x = rng.standard_normal((2, 4, 7, 6))
    stride = conv.stride
    want = np_conv2d(x, conv.weight.detach().numpy(),
                     None if conv.bias is None else conv.bias.detach().numpy(),
                     stride, conv.padding, conv.dilation, conv.groups)
    np.testing.assert_allclose(conv(t64(x)).detach().numpy(), want, rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("mode, np_mode", [("reflect", "reflect"), ("replicate", "edge"),
                                           ("circular", "wrap")])
def test_conv2d_padding_modes(rng, mode, np_mode):
    conv = nn.Conv2d(2, 3, 3, padding=1, padding_mode=mode).double()
    x = rng.standard_normal((1, 2, 5, 5))
    padded = np.pad(x, ((0, 0), (0, 0), (1, 1), (1, 1)), mode=np_mode)
    want = np_conv2d(padded, conv.weight.detach().numpy(), conv.bias.detach().numpy(),
                     (1, 1), (0, 0), (1, 1), 1)
    np.testing.assert_allclose(conv(t64(x)).detach().numpy(), want, rtol=1e-10, atol=1e-12)


def test_conv2d_same_padding(rng):
    conv = nn.Conv2d(2, 2, (3, 4), padding="same").double()
    x = rng.standard_normal((1, 2, 6, 7))
    out = conv(t64(x))
    assert tuple(out.shape) == (1, 2, 6, 7)
    padded = np.pad(x, ((0, 0), (0, 0), (1, 1), (1, 2)))
    want = np_conv2d(padded, conv.weight.detach().numpy(), conv.bias.detach().numpy(),
                     (1, 1), (0, 0), (1, 1), 1)
    np.testing.assert_allclose(out.detach().numpy(), want, rtol=1e-10, atol=1e-12)


def test_conv2d_gradients(rng):
    conv = nn.Conv2d(2, 3, 3, stride=2, padding=1).double()
    x = t64(rng.standard_normal((2, 2, 5, 5))).requires_grad_()
    assert torch.autograd.gradcheck(lambda a, w, b: F.conv2d(a, w, b, 2, 1), (x, conv.weight, conv.bias),
                                    eps=1e-6, atol=1e-5, rtol=1e-4)
    conv(x).sum().backward()
    assert conv.weight.grad is not None and tuple(conv.weight.grad.shape) == (3, 2, 3, 3)
    np.testing.assert_allclose(conv.bias.grad.numpy(), [2 * 3 * 3] * 3)


def test_conv1d(rng):
    conv = nn.Conv1d(3, 2, 3, stride=2, padding=1).double()
    x = rng.standard_normal((2, 3, 9))
    want = np_conv2d(x[:, :, None], conv.weight.detach().numpy()[:, :, None], conv.bias.detach().numpy(),
                     (1, 2), (0, 1), (1, 1), 1)[:, :, 0]
    np.testing.assert_allclose(conv(t64(x)).detach().numpy(), want, rtol=1e-10, atol=1e-12)


def test_lenet_style_model_trains(rng):
    torch.manual_seed(0)
    model = nn.Sequential(nn.Conv2d(1, 4, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
                          nn.Flatten(), nn.Linear(4 * 4 * 4, 2))
    x = torch.randn(16, 1, 8, 8)
    y = (x.mean((1, 2, 3)) > 0).long()
    losses = []
    for _ in range(30):
        loss = F.cross_entropy(model(x), y)
        losses.append(loss.item())
        model.zero_grad()
        loss.backward()
        with torch.no_grad():
            for p in model.parameters():
                p -= 0.1 * p.grad
    assert losses[-1] < losses[0]


@pytest.mark.parametrize("k, s, p", [(2, None, 0), (3, 2, 1), (3, 1, 0)])
def test_max_pool2d_module(rng, k, s, p):
    pool = nn.MaxPool2d(k, s, p)
    x = rng.standard_normal((2, 3, 7, 6))
    want = np_max_pool2d(x, k, s if s is not None else k, p)
    np.testing.assert_allclose(pool(t64(x)).numpy(), want, rtol=1e-12)
    xt = t64(x).requires_grad_()
    pool(xt).sum().backward()
    g = xt.grad.numpy()
    assert g.sum() == pytest.approx(want.size)                  # one winner per window
    assert repr(nn.MaxPool2d(3, 2, 1)) == "MaxPool2d(kernel_size=3, stride=2, padding=1, dilation=1, ceil_mode=False)"


def test_max_pool2d_return_indices(rng):
    x = t64(rng.standard_normal((1, 1, 4, 4)))
    out, idx = nn.MaxPool2d(2, return_indices=True)(x)
    flat = x.numpy().reshape(-1)
    np.testing.assert_array_equal(flat[idx.numpy().reshape(-1)], out.numpy().reshape(-1))


def test_avg_pool2d_module(rng):
    x = rng.standard_normal((2, 3, 6, 6))
    want = x.reshape(2, 3, 3, 2, 3, 2).mean(axis=(3, 5))
    np.testing.assert_allclose(nn.AvgPool2d(2)(t64(x)).numpy(), want, rtol=1e-12)


def test_adaptive_avg_pool2d_module(rng):
    x = rng.standard_normal((2, 3, 5, 7))
    out = nn.AdaptiveAvgPool2d((1, 1))(t64(x))
    np.testing.assert_allclose(out.numpy(), x.mean(axis=(2, 3), keepdims=True), rtol=1e-12)
    assert math.isclose(nn.AdaptiveAvgPool2d(1)(t64(x)).numpy()[0, 0, 0, 0], x[0, 0].mean())
