"""ravel() and broadcast_to(): views when the layout allows, torch's messages otherwise."""
import numpy as np
import pytest

import minitorch as torch


@pytest.mark.parametrize("shape", [(), (0,), (3,), (2, 3), (2, 0, 3)])
def test_ravel(shape):
    t = torch.arange(int(np.prod(shape))).view(shape).clone()
    r = torch.ravel(t)
    assert r.shape == (max(t.numel(), 0),) if shape else r.shape == (1,)
    np.testing.assert_array_equal(r.numpy(), t.numpy().ravel())
    assert r._base is t and t.ravel().is_contiguous()


def test_ravel_of_non_contiguous_copies():
    t = torch.arange(6).view(2, 3)
    r = t.t().ravel()
    assert r.tolist() == [0, 3, 1, 4, 2, 5] and r._base is not t and r.is_contiguous()
    with pytest.raises(TypeError):
        torch.ravel([1, 2])


@pytest.mark.parametrize("src,dst", [((), (2, 3)), ((1,), (4,)), ((3, 1), (2, 3, 4)), ((2, 3), (2, 3)),
                                     ((0,), (2, 0))])
def test_broadcast_to_matches_numpy(src, dst):
    t = torch.arange(int(np.prod(src))).view(src).clone()
    r = torch.broadcast_to(t, dst)
    np.testing.assert_array_equal(r.numpy(), np.broadcast_to(t.numpy(), dst))
    assert r._base is t and t.broadcast_to(dst).shape == dst


def test_broadcast_to_errors():
    with pytest.raises(RuntimeError, match=r"The expanded size of the tensor \(3\) must match the existing "
                                           r"size \(2\) at non-singleton dimension 0"):
        torch.broadcast_to(torch.ones(2), (3,))
    with pytest.raises(RuntimeError, match="the number of sizes provided"):
        torch.broadcast_to(torch.ones(2, 2), (2,))
    with pytest.raises(TypeError):
        torch.broadcast_to(torch.ones(2), "2")


def test_ravel_of_a_strided_1d_tensor_is_a_contiguous_copy():
    x = torch.arange(10.0)[::2]
    r = x.ravel()
    assert r.is_contiguous() and r.tolist() == [0.0, 2.0, 4.0, 6.0, 8.0]
    r[0] = 99.0
    assert x[0].item() == 0.0  # a copy, not a view
    y = torch.ones(3, 4)
    assert y.ravel()._base is y and y.ravel().is_contiguous()
