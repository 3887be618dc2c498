"""torch.cond and torch.while_loop, run eagerly (compared with torch 2.15)."""
import pytest

import minitorch as torch


def test_cond_takes_the_branch_and_its_gradient():
    x = torch.ones(2, requires_grad=True)
    y = torch.cond(torch.tensor(True), lambda a: a * 3, lambda a: a - 1, (x,))
    y.sum().backward()
    assert y.tolist() == [3.0, 3.0] and x.grad.tolist() == [3.0, 3.0]
    assert torch.cond(False, lambda a: a + 1, lambda a: a - 1, (x,)).tolist() == [0.0, 0.0]
    with pytest.raises(RuntimeError, match="single-element tensor"):
        torch.cond(torch.ones(2), lambda a: a, lambda a: a, (x,))


def test_while_loop():
    i, a = torch.while_loop(lambda i, a: i < 3, lambda i, a: (i + 1, a * 2),
                            (torch.tensor(0), torch.ones(2)))
    assert i.item() == 3 and a.tolist() == [8.0, 8.0]
    with pytest.raises(RuntimeError, match="as many values"):
        torch.while_loop(lambda i, a: i < 3, lambda i, a: (i + 1,), (torch.tensor(0), 1))
