"""grad_fn names that programs print: the nodes named as torch 2.15 names them (captured from
torch), for the rows whose kernel torch names differently from the function."""
import minitorch as torch
import minitorch.nn as nn
import minitorch.nn.functional as F


def _name(t):
    return type(t.grad_fn).__name__


def test_norm_loss_and_view_node_names():
    x = torch.randn(4, 3, 8, 8, requires_grad=True)
    v = torch.randn(4, 6, requires_grad=True)
    assert _name(nn.BatchNorm2d(3)(x)) == "NativeBatchNormBackward0"
    assert _name(nn.LayerNorm(6)(v)) == "NativeLayerNormBackward0"
    assert _name(F.layer_norm(v, (6,))) == "NativeLayerNormBackward0"
    t = torch.tensor([0, 1, 2, 3])
    assert _name(F.nll_loss(v, t)) == "NllLossBackward0"
    assert _name(F.nll_loss(v, t, reduction="none")) == "NllLossBackward0"
    assert _name(F.cross_entropy(v, t)) == "NllLossBackward0"
    assert _name(v.narrow(1, 0, 2)) == "SliceBackward0"
    assert _name(v.t().contiguous()) == "CloneBackward0"
    # the gradients are those of the ops, whatever the name
    y = v.t().contiguous().narrow(0, 1, 2)
    y.sum().backward()
    assert v.grad[:, 1:3].eq(1).all() and v.grad.sum().item() == 8
