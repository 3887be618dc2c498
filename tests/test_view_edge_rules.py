"""Edge rules of view ops that torch's own view tests pin down: strides of new size-1
dimensions in expand, tensor arguments of narrow, flatten of one dimension, resize_ overflow,
0-d tensors in permute/movedim/unflatten."""
import pytest

import minitorch as torch


def test_expand_new_size_one_dims_get_contiguous_strides():
    t = torch.rand(5)
    assert t.expand(1, 1, 5).stride() == t.unsqueeze(0).unsqueeze(1).stride() == (5, 5, 1)
    assert t.expand(3, 1, 5).stride() == (0, 5, 1)
    assert torch.rand(2, 1).expand(1, 2, 4).stride() == (2, 1, 0)
    assert torch.equal(t.expand(1, 1, 5)[0, 0], t)


def test_narrow_tensor_start():
    x = torch.arange(9).view(3, 3)
    assert x.narrow(0, torch.tensor(1), 1).tolist() == [[3, 4, 5]]
    for bad in (torch.tensor(0.0), torch.tensor([0]), torch.tensor([0, 1])):
        with pytest.raises(RuntimeError, match="start must be an 0-dim integral Tensor."):
            x.narrow(0, bad, 1)


def test_flatten_of_one_dim_is_self():
    t = torch.ones(2, 2)
    assert t.flatten(1, 1) is t and t.flatten(-1, 1) is t
    assert t.flatten(0, 1)._base is t
    s = torch.tensor(1.0)
    assert s.flatten().shape == (1,) and s.flatten()._base is s
    with pytest.raises(IndexError, match="Dimension out of range"):
        t.flatten(2, 2)


def test_resize_overflow_messages():
    x = torch.empty((), dtype=torch.float64)
    with pytest.raises(RuntimeError, match=r"Storage size calculation overflowed with sizes="
                                           r"\[2, 4, 536870912, 536870912\]"):
        x.resize_([2, 4, 2**29, 2**29])
    with pytest.raises(RuntimeError, match="numel: integer multiplication overflow"):
        x.resize_([8, 8, 2**29, 2**29])
    with pytest.raises(RuntimeError):
        x.resize_([2, -1])
    assert x.shape == ()


def test_zero_dim_tensors_in_permute_movedim_unflatten():
    s = torch.tensor(3.0)
    assert s.permute([]).shape == () and s.permute(()).shape == ()
    with pytest.raises(TypeError, match="missing 1 required positional arguments"):
        torch.ones(2, 3).permute()
    assert torch.movedim(s, 0, -1).shape == () and torch.movedim(s, (0,), (-1,)).item() == 3
    with pytest.raises(IndexError, match="Dimension out of range"):
        torch.movedim(s, 1, 0)
    with pytest.raises(RuntimeError, match="Dimension specified as 0 but tensor has no dimensions"):
        s.unflatten(0, (1,))
    assert torch.ones(6).unflatten(0, (2, -1)).shape == (2, 3)
