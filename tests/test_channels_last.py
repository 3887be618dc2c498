"""Memory formats: channels_last and channels_last_3d in contiguous/clone/to/the cast methods,
empty and the *_like factories (preserve_format as torch: a dense tensor keeps its strides, another
takes the format its strides resemble), is_contiguous(memory_format=), Module.to(memory_format=),
and the layouts torch gives the results (and input gradients) of convolution, pooling,
batch norm, elementwise ops and interpolate on channels-last inputs.  The expected strides are
torch 2.15's; the values are those of the same ops on row-major copies."""
import numpy as np
import pytest

import minitorch as torch
import minitorch.nn.functional as F

from spatial_ref import det

CL, CL3 = torch.channels_last, torch.channels_last_3d


def t(shape, seed=0, requires_grad=False):
    x = torch.from_numpy(det(shape, seed).copy())
    return x.requires_grad_() if requires_grad else x


def test_contiguous_and_is_contiguous():
    x = t((2, 3, 4, 5))
    c = x.contiguous(memory_format=CL)
    assert c.stride() == (60, 1, 15, 3)
    assert c.is_contiguous(memory_format=CL) and not c.is_contiguous()
    assert c.contiguous(memory_format=CL) is c and x.contiguous() is x
    assert np.array_equal(c.numpy(), x.numpy())
    assert c.contiguous().stride() == (60, 20, 5, 1)
    v = t((2, 3, 4, 5, 6)).contiguous(memory_format=CL3)
    assert v.stride() == (360, 1, 90, 18, 3) and v.is_contiguous(memory_format=CL3)
    # size-1 dims are ambiguous: both formats hold, nothing is copied (as torch)
    for shape, strides in (((2, 1, 4, 5), (20, 20, 5, 1)), ((2, 3, 1, 1), (3, 1, 1, 1))):
        y = torch.zeros(shape)
        assert y.contiguous(memory_format=CL).stride() == strides
        assert y.is_contiguous() and y.is_contiguous(memory_format=CL)
    # a slice of a channels-last tensor
    s = c[:, :, ::2]
    assert s.stride() == (60, 1, 30, 3)
    assert s.contiguous(memory_format=CL).stride() == (30, 1, 15, 3)


def test_rank_and_format_errors():
    x = t((2, 3, 4))
    for fn, msg in ((lambda: x.contiguous(memory_format=CL), "required rank 4 tensor to use "
                     "channels_last format"),
                    (lambda: torch.zeros(2, 3, 4, 5).contiguous(memory_format=CL3),
                     "required rank 5 tensor to use channels_last_3d format"),
                    (lambda: x.to(memory_format=CL), "required rank 4"),
                    (lambda: x.clone(memory_format=CL), "required rank 4"),
                    (lambda: torch.empty(2, 3, 4, memory_format=CL), "required rank 4"),
                    (lambda: torch.empty_like(x, memory_format=CL), "required rank 4"),
                    (lambda: torch.empty(2, 3, memory_format=torch.preserve_format),
                     "unsupported memory format Preserve"),
                    (lambda: x.transpose(0, 1).contiguous(memory_format=torch.preserve_format),
                     "preserve memory format is unsupported by the contiguous operator")):
        with pytest.raises(RuntimeError, match=msg):
            fn()
    with pytest.raises(TypeError, match="memory_format"):
        x.contiguous(memory_format="channels_last")


def test_clone_to_and_casts():
    x = t((2, 3, 4, 5))
    c = x.contiguous(memory_format=CL)
    assert c.clone().stride() == (60, 1, 15, 3)                     # preserve: dense kept
    assert c.clone(memory_format=torch.contiguous_format).stride() == (60, 20, 5, 1)
    assert x.clone(memory_format=CL).stride() == (60, 1, 15, 3)
    s = c[:, :, ::2]                                                # not dense: suggested format
    for y in (s.clone(), s.half(), s.float(), torch.empty_like(s), torch.zeros_like(s)):
        assert y.stride() == (30, 1, 15, 3)
    assert x.to(memory_format=CL).stride() == (60, 1, 15, 3)
    assert x.to(torch.float32, memory_format=CL).stride() == (60, 1, 15, 3)
    assert c.to(memory_format=CL) is c
    assert x.float(memory_format=CL).stride() == (60, 1, 15, 3)
    assert x.cpu(memory_format=CL).stride() == (60, 1, 15, 3)
    assert c.half().stride() == (60, 1, 15, 3) and c.to(torch.float64).stride() == c.stride()
    assert np.array_equal(x.to(torch.float32, memory_format=CL).numpy(), x.float().numpy())
    # transposes and permutations stay as they are under preserve_format
    assert t((3, 4)).t().double().stride() == (1, 4)
    e = torch.randn(1, 3, 1, 5).expand(2, 3, 4, 5)
    assert e.clone().stride() == (60, 20, 5, 1)


def test_factories():
    assert torch.empty(2, 3, 4, 5, memory_format=CL).stride() == (60, 1, 15, 3)
    assert torch.empty(2, 3, 4, 5, 6, memory_format=CL3).stride() == (360, 1, 90, 18, 3)
    assert torch.empty((2, 3, 4, 5), memory_format=torch.contiguous_format).is_contiguous()
    c = t((2, 3, 4, 5)).contiguous(memory_format=CL)
    for fn in (torch.empty_like, torch.zeros_like, torch.ones_like, torch.rand_like,
               torch.randn_like, lambda x: torch.full_like(x, 2.0),
               lambda x: torch.randint_like(x, 5)):
        assert fn(c).stride() == (60, 1, 15, 3), fn
    assert torch.ones_like(c, memory_format=torch.contiguous_format).stride() == (60, 20, 5, 1)
    assert torch.zeros_like(t((2, 3, 4, 5)), memory_format=CL).stride() == (60, 1, 15, 3)
    z = torch.zeros_like(c)
    assert not z.numpy().any() and torch.full_like(c, 2.0).numpy().min() == 2
    r = torch.ones_like(c, requires_grad=True)
    assert r.requires_grad and r.stride() == (60, 1, 15, 3)
    assert c.new_empty(c.shape).stride() == (60, 20, 5, 1)       # new_*: row-major, as torch


def test_elementwise_and_reductions_follow_the_layout():
    x = t((2, 3, 4, 5))
    c = x.contiguous(memory_format=CL)
    assert F.relu(c).stride() == (60, 1, 15, 3) and torch.sigmoid(c).stride() == (60, 1, 15, 3)
    assert (c * 2).stride() == (60, 1, 15, 3) and (c + x).stride() == (60, 1, 15, 3)
    assert (x + c).stride() == (60, 20, 5, 1)
    assert c.sum(1).stride() == (20, 5, 1)
    assert F.dropout(c, 0.5).stride() == (60, 1, 15, 3)
    s = c[:, :, ::2]
    assert (s * 2).stride() == (30, 1, 15, 3)
    assert np.array_equal((c * 2).numpy(), (x * 2).numpy())


def _same(a, b, tol=1e-12):
    np.testing.assert_allclose(a.detach().numpy(), b.detach().numpy(), rtol=tol, atol=tol)


def test_convolutions_keep_channels_last():
    x = t((2, 3, 6, 5), 1)
    w = t((4, 3, 3, 3), 2)
    xc, wc = x.contiguous(memory_format=CL), w.contiguous(memory_format=CL)
    ref = F.conv2d(x, w)
    for a, b in ((xc, w), (x, wc), (xc, wc)):
        y = F.conv2d(a, b)
        assert y.stride() == (48, 1, 12, 4)
        _same(y, ref)
    assert F.conv2d(xc, t((6, 3, 1, 1))).stride() == (180, 1, 30, 6)
    assert F.conv2d(xc, t((6, 1, 3, 3)), groups=3).stride() == (72, 1, 18, 6)
    y = F.conv_transpose2d(xc, t((3, 4, 3, 3), 3))
    assert y.stride() == (224, 1, 28, 4)
    _same(y, F.conv_transpose2d(x, t((3, 4, 3, 3), 3)))
    x5 = t((2, 3, 4, 5, 6), 4).float()
    c5 = x5.contiguous(memory_format=CL3)
    w5 = t((4, 3, 2, 2, 2), 5).float()
    y = F.conv3d(c5, w5)
    assert y.stride() == (240, 1, 80, 20, 4)
    _same(y, F.conv3d(x5, w5), 1e-5)
    assert F.conv_transpose3d(c5, t((3, 4, 2, 2, 2)).float()).stride() == (840, 1, 168, 28, 4)
    # torch's float64 3-D convolutions (its slow kernels) give row-major results
    assert F.conv3d(c5.double(), w5.double()).stride() == (240, 60, 20, 5, 1)
    assert F.conv_transpose3d(c5.double(), t((3, 4, 2, 2, 2))).stride() == (840, 210, 42, 7, 1)
    # a 1-D convolution of a transposed input stays row-major (as torch)
    x1 = t((2, 5, 3)).transpose(1, 2)
    assert F.conv1d(x1, t((4, 3, 2))).stride() == (16, 4, 1)
    # modules
    m = torch.nn.Conv2d(3, 4, 3).double().to(memory_format=CL)
    assert m.weight.stride() == (27, 1, 9, 3) and m.bias.stride() == (1,)
    assert m(x).stride() == (48, 1, 12, 4)
    _same(m(x), F.conv2d(x, m.weight.contiguous(), m.bias))


def test_convolution_gradients_take_the_inputs_layouts():
    x = t((2, 3, 6, 5), 1)
    w = t((4, 3, 3, 3), 2)
    g = t((2, 4, 4, 3), 3)
    F.conv2d(x.clone().requires_grad_(), w.clone().requires_grad_()).backward(g)
    for xi, wi, gx_strides, gw_strides in (
            (x.contiguous(memory_format=CL), w, (90, 1, 15, 3), (27, 9, 3, 1)),
            (x, w.contiguous(memory_format=CL), (90, 30, 5, 1), (27, 1, 9, 3)),
            (x.contiguous(memory_format=CL), w.contiguous(memory_format=CL), (90, 1, 15, 3),
             (27, 1, 9, 3))):
        xr, wr = xi.clone().requires_grad_(), wi.clone().requires_grad_()
        F.conv2d(xr, wr).backward(g)
        assert xr.grad.stride() == gx_strides and wr.grad.stride() == gw_strides
        xp, wp = x.clone().requires_grad_(), w.clone().requires_grad_()
        F.conv2d(xp, wp).backward(g)
        _same(xr.grad, xp.grad)
        _same(wr.grad, wp.grad)
    x5 = t((2, 3, 4, 5, 6), 4).contiguous(memory_format=CL3).requires_grad_()
    F.conv3d(x5, t((2, 3, 2, 2, 2))).sum().backward()
    assert x5.grad.stride() == (360, 1, 90, 18, 3)


def test_pooling_batchnorm_and_interpolate_layouts():
    x = t((2, 3, 6, 5), 1)
    c = x.contiguous(memory_format=CL)
    cases = [
        (lambda a: F.max_pool2d(a, 2), (18, 1, 6, 3)),
        (lambda a: F.max_pool2d(a, 2, return_indices=True)[1], (18, 1, 6, 3)),
        (lambda a: F.avg_pool2d(a, 2), (18, 1, 6, 3)),
        (lambda a: F.adaptive_avg_pool2d(a, 2), (12, 1, 6, 3)),
        (lambda a: F.adaptive_max_pool2d(a, 2), (12, 1, 6, 3)),
        (lambda a: F.interpolate(a, scale_factor=2, mode="bilinear"), (360, 1, 30, 3)),
        (lambda a: F.interpolate(a, scale_factor=2), (360, 1, 30, 3)),
        (lambda a: F.interpolate(a, size=(3, 2), mode="bicubic", antialias=True), (18, 1, 6, 3)),
        (lambda a: F.interpolate(a, size=(4, 4), mode="area"), (48, 1, 12, 3)),
        (lambda a: torch.nn.BatchNorm2d(3).double()(a), (90, 1, 15, 3)),
        (lambda a: torch.nn.BatchNorm2d(3).double().eval()(a), (90, 1, 15, 3)),
    ]
    for fn, strides in cases:
        y = fn(c)
        assert y.stride() == strides
        _same(y, fn(x))
    x5 = t((2, 3, 4, 5, 6), 2)
    c5 = x5.contiguous(memory_format=CL3)
    assert F.max_pool3d(c5, 2).stride() == (36, 1, 18, 9, 3)
    assert F.avg_pool3d(c5, 2).stride() == (36, 12, 6, 3, 1)          # torch: row-major here
    assert F.adaptive_avg_pool3d(c5, 2).stride() == (24, 8, 4, 2, 1)
    assert F.interpolate(c5, size=(3, 7, 8), mode="trilinear").stride() == (504, 1, 168, 24, 3)
    _same(F.interpolate(c5, size=(3, 7, 8), mode="trilinear"),
          F.interpolate(x5, size=(3, 7, 8), mode="trilinear"))
    # the input gradients of these ops are laid out as the input
    for fn in (lambda a: F.max_pool2d(a, 2), lambda a: F.avg_pool2d(a, 2),
               lambda a: F.interpolate(a, scale_factor=2, mode="bilinear")):
        r = c.clone().requires_grad_()
        fn(r).sum().backward()
        assert r.grad.stride() == (90, 1, 15, 3)
    r5 = c5.clone().requires_grad_()
    F.max_pool3d(r5, 2).sum().backward()
    assert r5.grad.stride() == (360, 1, 90, 18, 3)


def test_training_a_channels_last_model():
    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Conv2d(3, 8, 3, padding=1), torch.nn.BatchNorm2d(8),
                                torch.nn.ReLU(), torch.nn.MaxPool2d(2),
                                torch.nn.Conv2d(8, 4, 3, padding=1), torch.nn.AdaptiveAvgPool2d(1),
                                torch.nn.Flatten())
    ref = torch.nn.Sequential(*[m for m in model])   # the same modules
    x = torch.randn(4, 3, 8, 8)
    out_rm = ref(x).detach().clone()
    model.to(memory_format=CL)
    out_cl = model(x.contiguous(memory_format=CL))
    np.testing.assert_allclose(out_cl.detach().numpy(), out_rm.numpy(), rtol=1e-4, atol=1e-5)
    out_cl.sum().backward()
    assert model[0].weight.grad.shape == (8, 3, 3, 3)
