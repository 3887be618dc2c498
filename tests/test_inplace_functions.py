"""The module forms of in-place ops (torch.sin_(x), torch.relu_(x), ...): they write their
input and return it. Values captured from torch 2.15."""
import math

import pytest

import minitorch as torch

X = [0.5, -1.5, 2.0]

# name -> torch's result on X (4 decimals)
REF = {
    "sin_": [0.4794, -0.9975, 0.9093],
    "exp_": [1.6487, 0.2231, 7.3891],
    "abs_": [0.5, 1.5, 2.0],
    "relu_": [0.5, 0.0, 2.0],
    "zero_": [0.0, 0.0, 0.0],
    "sigmoid_": [0.6225, 0.1824, 0.8808],
    "neg_": [-0.5, 1.5, -2.0],
    "floor_": [0.0, -2.0, 2.0],
    "square_": [0.25, 2.25, 4.0],
}


@pytest.mark.parametrize("name", sorted(REF))
def test_module_inplace_function_writes_and_returns_input(name):
    y = torch.tensor(X)
    r = getattr(torch, name)(y)
    assert r is y
    assert [round(v, 4) for v in y.tolist()] == pytest.approx(REF[name], abs=1e-4)


def test_module_inplace_functions_with_arguments():
    assert torch.fill_(torch.tensor(X), 3).tolist() == [3.0, 3.0, 3.0]
    assert torch.threshold_(torch.tensor(X), 0.6, -9.0).tolist() == [-9.0, -9.0, 2.0]
    r = torch.xlogy_(torch.tensor(X).abs(), 2.0)
    assert r.tolist() == pytest.approx([0.3466, 1.0397, 1.3863], abs=1e-4)
    assert torch.nan_to_num_(torch.tensor([math.nan, 1.0])).tolist() == [0.0, 1.0]
    assert torch.logit_(torch.tensor([0.25, 0.5]), eps=0.1).tolist() == pytest.approx([-1.0986, 0.0], abs=1e-4)
    assert torch.addmv_(torch.zeros(2), torch.ones(2, 3), torch.ones(3), beta=1, alpha=2).tolist() == [6.0, 6.0]
    assert torch.as_strided_(torch.arange(6.), (2, 2), (1, 2)).tolist() == [[0.0, 2.0], [1.0, 3.0]]
    assert torch.resize_as_(torch.ones(2, 2), torch.ones(3)).shape == (3,)
    w = torch.tensor([[3.0, 4.0], [0.3, 0.4], [6.0, 8.0]])
    assert torch.embedding_renorm_(w, torch.tensor([0, 1]), 1.0, 2.0) is w
    assert w.reshape(-1).tolist() == pytest.approx([0.6, 0.8, 0.3, 0.4, 6.0, 8.0], abs=1e-5)
    # input= by keyword
    y = torch.tensor(X)
    assert torch.sin_(input=y) is y


def test_module_inplace_functions_record_and_refuse_as_the_methods():
    a = torch.ones(3, requires_grad=True)
    b = a * 2
    torch.sin_(b)
    assert type(b.grad_fn).__name__ == "SinBackward0"
    b.sum().backward()
    assert a.grad.tolist() == pytest.approx([2 * math.cos(2.0)] * 3)
    with pytest.raises(RuntimeError, match="a leaf Variable that requires grad is being used in an in-place operation."):
        torch.sin_(torch.ones(2, requires_grad=True))
    with pytest.raises(RuntimeError, match="result type Float can't be cast to the desired output type Long"):
        torch.sin_(torch.ones(2, dtype=torch.long))
    with pytest.raises(TypeError, match=r"^sin_\(\): argument 'input' \(position 1\) must be Tensor, not int$"):
        torch.sin_(3)
    with pytest.raises(TypeError, match=r'^sin_\(\) missing 1 required positional arguments: "input"$'):
        torch.sin_()
    with pytest.raises(TypeError):
        torch.sin_(torch.ones(2), 1)
    assert torch.sin_.__name__ == "sin_"
    d = a * 2
    assert torch.detach_(d) is d and not d.requires_grad
