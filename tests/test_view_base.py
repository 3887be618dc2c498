"""Tensor._base and Tensor._is_view(): which tensors are views and of what (torch's rules)."""
import gc
import weakref

import numpy as np
import pytest

import minitorch as torch


def test_plain_tensors_are_not_views():
    for t in (torch.ones(3), torch.tensor([1, 2]), torch.zeros(()), torch.from_numpy(np.ones(2)),
              torch.ones(2, 3).clone(), torch.ones(2, 3).t().contiguous()):
        assert t._base is None and not t._is_view()


@pytest.mark.parametrize("make", [
    lambda t: t.view(12), lambda t: t.reshape(3, 4),
    lambda t: t.t(), lambda t: t.T, lambda t: t.mT, lambda t: t.transpose(0, 1),
    lambda t: t.permute(1, 0), lambda t: t[1:], lambda t: t[0], lambda t: t[..., None],
    lambda t: t.narrow(1, 1, 2), lambda t: t.select(0, 1), lambda t: t.unsqueeze(0),
    lambda t: t.unsqueeze(0).squeeze(0), lambda t: t.expand(2, 4, 3), lambda t: t.flatten(),
    lambda t: t.unfold(1, 2, 1), lambda t: t.as_strided((2,), (1,)), lambda t: t.diagonal(),
    lambda t: t.unbind(0)[1], lambda t: t.split(2)[1], lambda t: t.chunk(2, 1)[0],
    lambda t: t.movedim(0, 1), lambda t: t.swapaxes(0, 1), lambda t: t.swapdims(0, 1),
    lambda t: t.view_as(t),
])
def test_view_ops_record_their_base(make):
    t = torch.arange(12.0).view(4, 3).clone()
    v = make(t)
    assert v._is_view() and v._base is t
    assert v.untyped_storage().data_ptr() == t.untyped_storage().data_ptr()


def test_chains_collapse_to_the_first_base():
    t = torch.ones(4, 4)
    v = t[1:][1:].t().reshape(4, 2)
    assert v._base is t
    assert v[0]._base is t


def test_copies_are_not_views():
    t = torch.ones(4, 4)
    assert t.t().reshape(16)._base is None          # reshape had to copy
    assert t.clone()._base is None
    assert t[torch.tensor([0, 1])]._base is None     # advanced indexing copies
    assert (t + 1)._base is None
    v = t.view(torch.int32)                          # shares the bytes, yet no view (as torch)
    assert v._base is None and v.data_ptr() == t.data_ptr()


def test_in_place_shape_changes_keep_the_base():
    t = torch.ones(5, 5)
    v = t.view_as(t)
    for op in (lambda x: x.t_(), lambda x: x.transpose_(0, 1), lambda x: x.swapaxes_(0, 1),
               lambda x: x.unsqueeze_(0), lambda x: x.squeeze_()):
        assert op(v) is v
        assert v._base is t
    assert t.t_()._base is None                     # a non-view stays one


def test_the_base_stays_alive_with_its_view():
    t = torch.ones(3)
    ref = weakref.ref(t)
    v = t[1:]
    del t
    gc.collect()
    assert ref() is not None and v._base is ref()
    del v
    gc.collect()
    assert ref() is None


def test_base_is_read_only():
    t = torch.ones(2)
    with pytest.raises(AttributeError):
        t._base = torch.ones(2)
    with pytest.raises(TypeError):
        t._is_view(1)


def test_a_cycle_through_the_base_is_collected():
    t = torch.ones(3)
    ref = weakref.ref(t)
    t.keep = t[1:]                                   # t -> its view -> t
    del t
    gc.collect()
    assert ref() is None


def test_real_and_imag_parts():
    t = torch.ones(3)
    assert t.real is t and torch.real(t) is t              # a real tensor is its own real part
    c = torch.ones(3, dtype=torch.complex64)
    assert c.real._base is c and c.imag._base is c and torch.view_as_real(c)._base is c
    with pytest.raises((RuntimeError, TypeError)):     # torch: TypeError from the property
        t.imag
