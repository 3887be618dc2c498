"""combinations and vander (compared with torch 2.15; vander's gradient, which torch's in-place
implementation cannot give, checked with gradcheck)."""
import pytest

import minitorch as torch


def test_combinations():
    x = torch.tensor([1.0, 2.0, 3.0])
    assert torch.combinations(x).tolist() == [[1.0, 2.0], [1.0, 3.0], [2.0, 3.0]]
    assert torch.combinations(x, 2, True).tolist() == [[1.0, 1.0], [1.0, 2.0], [1.0, 3.0],
                                                       [2.0, 2.0], [2.0, 3.0], [3.0, 3.0]]
    assert torch.combinations(x, 4).shape == (0, 4) and torch.combinations(x, 0).shape == (0,)
    g = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    torch.combinations(g).sum().backward()
    assert g.grad.tolist() == [2.0, 2.0, 2.0]
    with pytest.raises(RuntimeError, match="Expect a 1D vector"):
        torch.combinations(torch.ones(2, 2))


def test_vander():
    x = torch.tensor([1.0, 2.0, 3.0])
    assert torch.vander(x).tolist() == [[1.0, 1.0, 1.0], [4.0, 2.0, 1.0], [9.0, 3.0, 1.0]]
    v = torch.vander(torch.tensor([1, 2]), 3, True)
    assert v.tolist() == [[1, 1, 1], [1, 2, 4]] and v.dtype is torch.int64
    assert torch.vander(x, 0).shape == (3, 0)
    g = torch.tensor([1.0, 2.0, 3.0], dtype=torch.float64, requires_grad=True)
    assert torch.autograd.gradcheck(lambda t: torch.vander(t, 4), (g,))
    with pytest.raises(RuntimeError, match="one-dimensional"):
        torch.vander(torch.ones(2, 2))
