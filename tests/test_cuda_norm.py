"""The fused softmax / log_softmax / layer norm kernels and the fused Adam step on a CUDA device,
against the same ops on the CPU (forward and backward, float32 and float64).  Runs on a GPU or on
the emulated device (MINITORCH_CUDA=EMULATE, .ci/cuda_emulated); skipped without one."""
import numpy as np
import pytest

import minitorch as torch
import minitorch.nn.functional as F

pytestmark = pytest.mark.skipif(torch.cuda.device_count() == 0,
                                reason="needs a CUDA device (a GPU, or the emulated build)")

TOL = {torch.float32: dict(rtol=2e-5, atol=2e-6), torch.float64: dict(rtol=1e-12, atol=1e-13)}


def _close(a, b, dtype):
    np.testing.assert_allclose(a.detach().cpu().numpy(), b.detach().cpu().numpy(), **TOL[dtype])


def _x(shape, dtype, seed=0, scale=3.0):
    g = torch.Generator().manual_seed(seed)
    return (torch.randn(*shape, generator=g, dtype=torch.float64) * scale).to(dtype)


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
@pytest.mark.parametrize("shape", [(5,), (7, 3), (4, 300), (2, 3, 1000), (1, 1)])
@pytest.mark.parametrize("fn", [F.softmax, F.log_softmax])
def test_softmax_forward_backward(fn, shape, dtype):
    x = _x(shape, dtype)
    g = _x(shape, dtype, seed=1)
    xc = x.clone().requires_grad_()
    xd = x.cuda().requires_grad_()
    yc, yd = fn(xc, dim=-1), fn(xd, dim=-1)
    assert yd.is_cuda and yd.dtype == dtype
    _close(yd, yc, dtype)
    yc.backward(g)
    yd.backward(g.cuda())
    assert xd.grad.is_cuda
    _close(xd.grad, xc.grad, dtype)


def test_softmax_special_values():
    x = torch.tensor([[1.0, float("nan"), 2.0], [float("-inf"), 0.0, 1.0],
                      [float("inf"), 0.0, 1.0], [-1e30, -1e30, -1e30]])
    for fn in (F.softmax, F.log_softmax):
        a = fn(x, dim=-1)
        b = fn(x.cuda(), dim=-1).cpu()
        np.testing.assert_allclose(b.numpy(), a.numpy(), rtol=1e-6, atol=1e-7)


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
@pytest.mark.parametrize("shape,norm", [((6, 10), (10,)), ((2, 3, 257), (257,)),
                                        ((4, 3, 5), (3, 5)), ((3, 1), (1,))])
@pytest.mark.parametrize("affine", [True, False])
def test_layer_norm_forward_backward(shape, norm, affine, dtype):
    x = _x(shape, dtype)
    g = _x(shape, dtype, seed=2)
    w = _x(norm, dtype, seed=3) if affine else None
    b = _x(norm, dtype, seed=4) if affine else None

    def run(dev):
        xx = x.to(dev, copy=True).requires_grad_()
        ww = w.to(dev, copy=True).requires_grad_() if affine else None
        bb = b.to(dev, copy=True).requires_grad_() if affine else None
        y = F.layer_norm(xx, norm, ww, bb, eps=1e-5)
        y.backward(g.to(dev))
        return y, xx.grad, ww.grad if affine else None, bb.grad if affine else None

    cpu, dev = run("cpu"), run("cuda")
    assert dev[0].is_cuda and dev[1].is_cuda
    for a, b_ in zip(dev, cpu):
        if b_ is not None:
            _close(a, b_, dtype)


def test_layer_norm_module_on_the_device():
    torch.manual_seed(0)
    m = torch.nn.LayerNorm(16)
    x = _x((8, 16), torch.float32)
    ref = m(x)
    m.cuda()
    assert m.weight.is_cuda
    _close(m(x.cuda()), ref, torch.float32)


@pytest.mark.parametrize("opt,kw", [("Adam", {}), ("Adam", {"weight_decay": 0.1}),
                                    ("Adam", {"amsgrad": True}), ("AdamW", {}),
                                    ("Adam", {"maximize": True}),
                                    ("AdamW", {"amsgrad": True, "weight_decay": 0.5})])
@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
def test_adam_step_matches_the_cpu(opt, kw, dtype):
    p0 = _x((33, 17), dtype)
    grads = [_x((33, 17), dtype, seed=10 + i) for i in range(4)]
    results = []
    for dev in ("cpu", "cuda"):
        p = p0.to(dev, copy=True).requires_grad_()
        o = getattr(torch.optim, opt)([p], lr=0.01, **kw)
        for gr in grads:
            p.grad = gr.to(dev)
            o.step()
        results.append(p.detach())
        if dev == "cuda":
            assert p.is_cuda and o.state[p]["exp_avg"].is_cuda
    _close(results[1], results[0], dtype)


def test_adam_on_a_non_contiguous_parameter():
    base = _x((6, 8), torch.float32)
    outs = []
    for dev in ("cpu", "cuda"):
        p = base.to(dev, copy=True).t().requires_grad_()   # a transposed leaf: strided state
        o = torch.optim.Adam([p], lr=0.1)
        for i in range(3):
            p.grad = _x((8, 6), torch.float32, seed=20 + i).to(dev)
            o.step()
        outs.append(p.detach())
    _close(outs[1], outs[0], torch.float32)
