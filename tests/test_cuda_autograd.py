"""Autograd across devices: a copy to another device (.cuda(), .cpu(), .to(device[, dtype]))
is recorded, and its gradient goes back to the device (and dtype) of its input, as torch's
ToCopyBackward0 does; gradients of device leaves stay on their device.  Runs on a GPU or on
the emulated device (MINITORCH_CUDA=EMULATE, .ci/cuda_emulated); skipped without one."""
import pytest

import minitorch as torch

pytestmark = pytest.mark.skipif(torch.cuda.device_count() == 0,
                                reason="needs a CUDA device (a GPU, or the emulated build)")

TWO = pytest.mark.skipif(torch.cuda.device_count() < 2, reason="needs two CUDA devices")


def _leaf(device="cpu", dtype=torch.float32):
    return torch.tensor([1.0, -2.0, 3.5], dtype=dtype, device=device, requires_grad=True)


def test_cuda_is_recorded_and_its_gradient_comes_home():
    x = _leaf()
    y = x.cuda()
    assert y.requires_grad and type(y.grad_fn).__name__ == "ToCopyBackward0"
    z = (y * 3).cpu()
    assert type(z.grad_fn).__name__ == "ToCopyBackward0"
    z.backward(torch.tensor([1.0, 2.0, 4.0]))
    assert x.grad.device == torch.device("cpu")
    assert x.grad.tolist() == [3.0, 6.0, 12.0]


@pytest.mark.parametrize("move", [lambda t: t.cpu(), lambda t: t.to("cpu"),
                                  lambda t: t.to(torch.device("cpu"), torch.float64)])
def test_device_leaf_gets_its_gradient_on_its_device(move):
    a = _leaf("cuda")
    b = move(a * a)
    b.backward(torch.ones(3, dtype=b.dtype))
    assert a.grad.is_cuda and a.grad.dtype == torch.float32
    assert a.grad.cpu().tolist() == [2.0, -4.0, 7.0]


def test_gradients_accumulate_on_the_device():
    a = _leaf("cuda")
    for _ in range(2):
        (a * 2).cpu().backward(torch.ones(3))
    assert a.grad.is_cuda and a.grad.cpu().tolist() == [4.0, 4.0, 4.0]


def test_dtype_and_device_in_one_copy():
    x = _leaf(dtype=torch.float64)
    y = x.to("cuda", torch.float32)
    assert y.is_cuda and y.dtype == torch.float32
    y.cpu().backward(torch.ones(3))
    assert x.grad.dtype == torch.float64 and x.grad.device.type == "cpu"
    assert x.grad.tolist() == [1.0, 1.0, 1.0]


def test_int_device_argument():
    x = _leaf()
    y = x.to(0)
    assert y.device == torch.device("cuda", 0)
    (y * y).cpu().backward(torch.ones(3))
    assert x.grad.tolist() == [2.0, -4.0, 7.0]


@TWO
def test_between_two_devices():
    a = _leaf("cuda:0")
    b = a.to("cuda:1")
    assert b.device == torch.device("cuda", 1)
    (b * 5).cpu().backward(torch.ones(3))
    assert a.grad.device == torch.device("cuda", 0)
    assert a.grad.cpu().tolist() == [5.0, 5.0, 5.0]


def test_torch_autograd_grad_and_create_graph():
    x = _leaf(dtype=torch.float64)
    y = x.cuda()
    z = (y * y * y).cpu()
    (g,) = torch.autograd.grad(z, x, torch.ones(3, dtype=torch.float64), create_graph=True)
    assert g.device.type == "cpu" and g.requires_grad
    assert g.tolist() == [3.0, 12.0, 36.75]
    (gg,) = torch.autograd.grad(g, x, torch.ones(3, dtype=torch.float64))
    assert gg.device.type == "cpu" and gg.tolist() == [6.0, -12.0, 21.0]


def test_no_grad_copy_is_not_recorded():
    x = _leaf()
    with torch.no_grad():
        y = x.cuda()
    assert not y.requires_grad and y.grad_fn is None


def test_gradcheck_of_device_inputs():
    # finite differences write into the device inputs without changing their versions, and the
    # Jacobians live on the inputs' device
    x = torch.randn(2, 3, dtype=torch.float64, device="cuda", requires_grad=True)
    w = torch.randn(3, 3, dtype=torch.float64, device="cuda", requires_grad=True)
    f = lambda a, b: (a * a).sin() @ b  # noqa: E731
    assert torch.autograd.gradcheck(f, (x, w))
    assert torch.autograd.gradcheck(f, (x, w), fast_mode=True)
    assert torch.autograd.gradgradcheck(f, (x, w))
    with pytest.raises(RuntimeError, match="Jacobian mismatch"):  # half of the slope is hidden
        torch.autograd.gradcheck(lambda a: a * a.detach(), (x,))

