"""Tensor.apply_, map_, map2_: a Python callable per element, in place (compared with torch
2.15)."""
import pytest

import minitorch as torch


def test_apply_map_map2():
    t = torch.arange(4.0)
    t.map_(torch.tensor(2.0), lambda a, b: a * b)
    assert t.tolist() == [0.0, 2.0, 4.0, 6.0]
    t.map2_(torch.ones(4), torch.tensor([1.0, 2, 3, 4]), lambda a, b, c: a + b * c)
    assert t.tolist() == [1.0, 4.0, 7.0, 10.0]
    i = torch.arange(3)
    assert i.apply_(lambda v: v * 3) is i and i.tolist() == [0, 3, 6]
    assert torch.empty(0).apply_(lambda v: 1 / 0).shape == (0,)


def test_refused_where_torch_refuses():
    x = torch.ones(2, requires_grad=True)
    for t in (x, x * 1):
        with pytest.raises(RuntimeError, match=r"Can't call apply_\(\) on Variable that "
                                               r"requires grad"):
            t.apply_(lambda v: v)
    with pytest.raises(RuntimeError, match="expand"):
        torch.ones(2).map_(torch.ones(3), lambda a, b: a)
