"""Tensor.set_ in its three forms: set_(), set_(tensor), set_(storage, offset, size, stride)."""
import pytest

import minitorch as torch


def test_set_empty():
    t = torch.ones(2, 3)
    assert t.set_() is t
    assert t.shape == (0,) and t.dtype == torch.float32 and t.numel() == 0


def test_set_tensor_shares_its_elements():
    src = torch.arange(6.0).view(2, 3).t()
    t = torch.ones(4)
    assert t.set_(src) is t
    assert t.shape == (3, 2) and t.stride() == src.stride() and t.data_ptr() == src.data_ptr()
    src[0, 1] = 42
    assert t[0, 1].item() == 42
    assert torch.ones(1).set_(source=src).shape == (3, 2)


def test_set_storage_whole_and_window():
    src = torch.arange(6.0).view(2, 3)
    t = torch.empty(0)
    t.set_(src.storage())
    assert t.shape == (6,) and t.tolist() == [0, 1, 2, 3, 4, 5]
    t.set_(src.untyped_storage())
    assert t.shape == (6,)
    t.set_(src.storage(), 1, (2, 2))
    assert t.stride() == (2, 1) and t.storage_offset() == 1 and t.tolist() == [[1, 2], [3, 4]]
    t.set_(src.storage(), 1, (2, 2), (1, 2))
    assert t.tolist() == [[1, 3], [2, 4]]
    t.set_(src.storage(), storage_offset=0, size=torch.Size([3]), stride=(2,))
    assert t.tolist() == [0, 2, 4]
    u = torch.zeros(3, dtype=torch.int16)
    u.set_(src.untyped_storage())            # untyped bytes are read as the tensor's dtype
    assert u.shape == (12,)


def test_set_tensor_window_uses_its_storage():
    x = torch.arange(6.0).view(2, 3)
    assert torch.ones(3).set_(x, 1, (2, 2)).tolist() == [[1, 2], [3, 4]]
    assert torch.ones(3).set_(x[1:], 1, (2,)).tolist() == [4, 5]     # offset counts from x[1:]'s
    assert torch.ones(3).set_(x, 1, (2, 2), (1, 2)).tolist() == [[1, 3], [2, 4]]


def test_set_keeps_the_view_base():
    base = torch.ones(4)
    v = base[1:]
    v.set_()
    assert v._base is base and v.shape == (0,)
    t = torch.ones(2)
    t.set_(torch.ones(3))
    assert t._base is None


def test_set_rejects_bad_input():
    x = torch.ones(2, 3)
    with pytest.raises(RuntimeError, match="Could not set tensor of type float to a tensor of type long int"):
        torch.ones(3, dtype=torch.int64).set_(x)
    with pytest.raises(RuntimeError, match="Expected a Storage of type long int or an UntypedStorage, "
                                           "but got type Float for argument 1 'storage'"):
        torch.ones(3, dtype=torch.int64).set_(x.storage())
    with pytest.raises(RuntimeError, match="invalid storage offset -1"):
        torch.ones(3).set_(x.storage(), -1, (2,))
    with pytest.raises(RuntimeError, match=r"unequal size length \(2\) and stride length \(1\)"):
        torch.ones(3).set_(x.storage(), 1, (2, 2), (1,))
    with pytest.raises(TypeError):
        torch.ones(3).set_(5)
    with pytest.raises(TypeError):
        torch.ones(3).set_(x.storage(), 0)
    with pytest.raises(RuntimeError):          # more than the storage holds
        torch.ones(3).set_(x.storage(), 1, (20, 2))
    t = torch.ones(3)
    with pytest.raises(RuntimeError):
        t.set_(x.storage(), 0, (7,))
    assert t.tolist() == [1, 1, 1]             # nothing changed on error


def test_is_set_to():
    a = torch.ones(3)
    b = torch.empty(0)
    assert not b.is_set_to(a)
    b.set_(a)
    assert b.is_set_to(a) and a.is_set_to(b) and a.is_set_to(a)
    assert a.view(3).is_set_to(a)
    assert not a[1:].is_set_to(a) and not a.view(1, 3).is_set_to(a)
    assert not torch.empty(0).is_set_to(torch.empty(0))       # two storages
    with pytest.raises(TypeError, match="must be Tensor, not int"):
        a.is_set_to(3)
