"""nn.functional.threshold's derivatives: values, the out-of-place and in-place forms, and the
node of its gradient under create_graph (ThresholdBackwardBackward0, the node of torch's
threshold_backward), with second derivatives, against torch 2.15 (REF)."""
import minitorch as torch
from minitorch.autograd import gradcheck, gradgradcheck

F = torch.nn.functional


def test_threshold_against_torch():
    r = {}
    x = torch.tensor([-1.0, 0.5, 0.25, 2.0, 0.0], dtype=torch.float64, requires_grad=True)
    y = F.threshold(x, 0.3, -2.0)
    r["fwd"] = (y.tolist(), type(y.grad_fn).__name__)
    w = torch.tensor([1.0, 2.0, 3.0, 4.0, 5.0], dtype=torch.float64, requires_grad=True)
    (g,) = torch.autograd.grad((y * w).sum(), x, create_graph=True)
    r["grad"] = (g.tolist(), type(g.grad_fn).__name__)
    (gw,) = torch.autograd.grad((g * g).sum(), w)
    r["ggw"] = gw.tolist()
    z = x.clone()
    F.threshold(z, 0.3, -2.0, True)
    r["inplace"] = (z.tolist(), type(z.grad_fn).__name__)
    (gi,) = torch.autograd.grad(z.sum(), x, create_graph=True)
    r["inplace_grad"] = (gi.tolist(), type(gi.grad_fn).__name__ if gi.grad_fn else None)
    assert r == REF


def test_threshold_gradcheck_and_gradgradcheck():
    x = torch.tensor([[-1.0, 0.5, 0.25], [2.0, 0.75, -0.1]], dtype=torch.float64,
                     requires_grad=True)
    assert gradcheck(lambda t: F.threshold(t, 0.3, -2.0), (x,))
    assert gradgradcheck(lambda t: F.threshold(t, 0.3, -2.0) * t, (x,))
    assert gradgradcheck(lambda t: F.threshold(t * 1, 0.3, -2.0, True) * t, (x,))


# torch 2.15, the same program (torch names the in-place form's node ThresholdBackward1, an
# overload minitorch names as the out-of-place one: README)
REF = {'fwd': ([-2.0, 0.5, -2.0, 2.0, -2.0], 'ThresholdBackward0'),
 'ggw': [0.0, 4.0, 0.0, 8.0, 0.0],
 'grad': ([0.0, 2.0, 0.0, 4.0, 0.0], 'ThresholdBackwardBackward0'),
 'inplace': ([-2.0, 0.5, -2.0, 2.0, -2.0], 'ThresholdBackward0'),
 'inplace_grad': ([0.0, 1.0, 0.0, 1.0, 0.0], 'ThresholdBackwardBackward0')}
