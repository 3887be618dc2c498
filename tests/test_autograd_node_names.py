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


def test_embedding_is_one_node_in_the_indices_shape():
    w = torch.arange(15., dtype=torch.float64).reshape(5, 3).requires_grad_()
    idx = torch.tensor([[0, 2], [2, 4]])
    out = F.embedding(idx, w, padding_idx=2)
    assert _name(out) == "EmbeddingBackward0" and out.shape == (2, 2, 3)
    assert _name(nn.Embedding(5, 3)(torch.tensor(3))) == "EmbeddingBackward0"
    weights = torch.arange(12, dtype=torch.float64).reshape(2, 2, 3)
    g, = torch.autograd.grad((out * weights).sum(), w)
    # torch 2.15: row 2 is the padding row (no gradient), rows 0 and 4 get theirs
    assert g.tolist() == [[0.0, 1.0, 2.0], [0.0, 0.0, 0.0], [0.0, 0.0, 0.0], [0.0, 0.0, 0.0],
                          [9.0, 10.0, 11.0]]
    g, = torch.autograd.grad((F.embedding(idx, w, scale_grad_by_freq=True) * weights).sum(), w)
    assert g.tolist() == [[0.0, 1.0, 2.0], [0.0, 0.0, 0.0], [4.5, 5.5, 6.5], [0.0, 0.0, 0.0],
                          [9.0, 10.0, 11.0]]
    assert torch.autograd.gradgradcheck(lambda v: F.embedding(idx, v) ** 2, (w,))
    assert F.embedding(torch.zeros(2, 0, dtype=torch.long), w).shape == (2, 0, 3)
