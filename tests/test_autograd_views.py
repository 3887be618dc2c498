"""In-place ops on views of tensors that require grad (Note [In-place ops on views]): the base's
history is rewritten (torch's CopySlices), the view and the other views of the base read the
new history; the expected gradients are torch's (worked by hand below) and finite differences."""
import gc

import pytest

import minitorch as torch
from minitorch.autograd import gradcheck
from minitorch.autograd import _record


def test_in_place_on_a_slice_reaches_the_base_and_the_other_views():
    x = torch.arange(12.).requires_grad_()
    y = x * 1
    b = y.view(3, 4)          # a view taken before the in-place op
    v = b[:, 1]
    v.mul_(torch.arange(3.) + 2)
    assert y.grad_fn.name() == "CopySlices"
    assert v.grad_fn.name() == "AsStridedBackward0" and b.grad_fn.name() == "AsStridedBackward0"
    (b * torch.arange(12.).view(3, 4)).sum().backward()
    # column 1 was multiplied by 2, 3, 4: its gradient is the weight times that factor
    assert x.grad.tolist() == [0, 2, 2, 3, 4, 15, 6, 7, 8, 36, 10, 11]


def test_values_written_into_a_plain_tensor_get_their_gradient():
    base = torch.zeros(2, 3)                   # requires no grad until a value that does lands
    w = torch.tensor([1., 2., 3.]).requires_grad_()
    base[0].copy_(w)
    base[1].add_(w * 3)
    assert base.requires_grad and not base.is_leaf
    (base * base).sum().backward()
    assert w.grad.tolist() == [20.0, 40.0, 60.0]   # 2w + 2(3w)*3


def test_setitem_and_add_on_rows_of_a_clone():
    x = torch.ones(3, 4).requires_grad_()
    w = torch.full((4,), 2.).requires_grad_()
    b = x.clone()
    b[1].add_(w * w)
    b[2] = w
    (b ** 2).sum().backward()
    assert x.grad.tolist() == [[2.0] * 4, [10.0] * 4, [0.0] * 4]
    assert w.grad.tolist() == [44.0] * 4


def test_a_view_of_a_leaf_that_requires_grad_is_torchs_error():
    x = torch.ones(3).requires_grad_()
    with pytest.raises(RuntimeError, match="a view of a leaf Variable that requires grad is "
                                           "being used in an in-place operation"):
        x[1:].mul_(2)
    with torch.no_grad():
        x[1:].mul_(2)                          # not recorded: allowed, as torch
    assert x.tolist() == [1.0, 2.0, 2.0]


def test_a_saved_value_changed_through_a_view_is_torchs_error():
    x = torch.arange(6.).requires_grad_()
    b = x.exp()                                # exp's formula reads its output
    b[2:5].sin_()
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        b.sum().backward()


@pytest.mark.parametrize("name", ["mul_slice", "transpose_rows", "chain", "setitem_column",
                                  "relu_inplace"])
def test_gradcheck(name):
    def mul_slice(x, w):
        b = x * 1
        b[1:3].mul_(w)
        return b
    def transpose_rows(x, w):
        b = x.sin() * 3                        # mul does not read its output
        b.t()[1].add_(w.sum())
        return b * 1
    def chain(x, w):
        b = x.clone()
        v = b.view(-1)[2:8]
        v.mul_(w.repeat(3))
        v[1:3].add_(w)
        return b.sin()
    def setitem_column(x, w):
        b = x * 2
        b[:, 1] = w * w
        return b
    def relu_inplace(x, w):
        b = x - 0.3
        b[0].relu_()
        return b * w.sum()
    fn = locals()[name]
    x = torch.randn(4, 2, dtype=torch.float64).requires_grad_()
    w = torch.randn(2, dtype=torch.float64).requires_grad_()
    if name == "mul_slice":
        w = torch.randn(2, 2, dtype=torch.float64).requires_grad_()
    if name == "setitem_column":
        w = torch.randn(4, dtype=torch.float64).requires_grad_()
    assert gradcheck(fn, (x, w))


def test_the_view_registry_does_not_keep_tensors():
    gc.collect()
    before = len(_record._views)
    for _ in range(200):
        x = torch.ones(8).requires_grad_()
        b = x * 2
        for i in range(4):
            b[i:i + 2].add_(1)
        b.sum().backward()
    del x, b
    gc.collect()
    assert len(_record._views) <= before
