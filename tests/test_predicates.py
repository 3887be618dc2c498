"""is_nonzero, is_same_size, isreal (compared with torch 2.15)."""
import pytest

import minitorch as torch


def test_is_nonzero():
    assert torch.is_nonzero(torch.tensor([2.0])) and not torch.tensor(0).is_nonzero()
    with pytest.raises(RuntimeError, match="more than one value is ambiguous"):
        torch.is_nonzero(torch.ones(2))
    with pytest.raises(RuntimeError, match="no values is ambiguous"):
        torch.is_nonzero(torch.ones(0))


def test_is_same_size_and_isreal():
    x = torch.ones(3)
    assert x.is_same_size(x) and not torch.is_same_size(x, x[:2])
    assert torch.isreal(torch.tensor([1 + 1j, 2])).tolist() == [False, True]
    assert torch.isreal(x).tolist() == [True, True, True] and x.isreal().dtype is torch.bool
