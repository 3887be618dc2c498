"""The *_copy forms of the view ops: the view's elements in new memory, with out=."""
import numpy as np
import pytest

import minitorch as torch

X = torch.arange(24.0).view(2, 3, 4)

CASES = [
    ("view_copy", ((4, 6),), lambda x: x.view(4, 6)),
    ("alias_copy", (), lambda x: x),
    ("detach_copy", (), lambda x: x),
    ("as_strided_copy", ((2, 2), (1, 2), 1), lambda x: x.as_strided((2, 2), (1, 2), 1)),
    ("diagonal_copy", (1, 1, 2), lambda x: x.diagonal(1, 1, 2)),
    ("expand_copy", ((2, 2, 3, 4),), lambda x: x.expand(2, 2, 3, 4)),
    ("narrow_copy", (2, 1, 2), lambda x: x.narrow(2, 1, 2)),
    ("permute_copy", ((2, 0, 1),), lambda x: x.permute(2, 0, 1)),
    ("select_copy", (1, -1), lambda x: x.select(1, -1)),
    ("slice_copy", (2, 1, None, 2), lambda x: x[:, :, 1::2]),
    ("squeeze_copy", (), lambda x: x.squeeze()),
    ("transpose_copy", (0, 2), lambda x: x.transpose(0, 2)),
    ("unfold_copy", (2, 2, 1), lambda x: x.unfold(2, 2, 1)),
    ("unsqueeze_copy", (1,), lambda x: x.unsqueeze(1)),
]


@pytest.mark.parametrize("name,args,view", CASES, ids=[c[0] for c in CASES])
def test_copy_forms_equal_the_view_in_new_memory(name, args, view):
    fn = getattr(torch, name)
    r = fn(X, *args)
    v = view(X)
    assert r.shape == v.shape and r.dtype == v.dtype and r.is_contiguous()
    np.testing.assert_array_equal(r.numpy(), v.numpy())
    assert not r._is_view() and r.data_ptr() != X.data_ptr()
    out = torch.empty(0)
    assert fn(X, *args, out=out) is out
    np.testing.assert_array_equal(out.numpy(), v.numpy())


def test_view_copy_takes_any_layout():
    t = torch.arange(6.0).view(2, 3).t()
    assert torch.view_copy(t, (-1,)).tolist() == [0, 3, 1, 4, 2, 5]     # t.view(-1) would refuse
    with pytest.raises(RuntimeError, match=r"shape '\[4\]' is invalid for input of size 6"):
        torch.view_copy(t, (4,))


def test_t_copy_and_complex_views():
    m = torch.arange(6.0).view(2, 3)
    np.testing.assert_array_equal(torch.t_copy(m).numpy(), m.numpy().T)
    c = torch.view_as_complex_copy(torch.arange(4.0).view(2, 2))
    assert c.dtype == torch.complex64 and c.tolist() == [1j, 2 + 3j]
    assert torch.view_as_real_copy(c).tolist() == [[0, 1], [2, 3]]
    assert m.narrow_copy(1, 1, 2).tolist() == [[1, 2], [4, 5]]


def test_multi_output_copies_and_their_out():
    a = torch.arange(5.0)
    parts = torch.split_copy(a, 2)
    assert [p.tolist() for p in parts] == [[0, 1], [2, 3], [4]]
    assert all(not p._is_view() for p in parts)
    assert [p.tolist() for p in torch.split_with_sizes_copy(a, [1, 4])] == [[0], [1, 2, 3, 4]]
    assert [p.tolist() for p in torch.unbind_copy(torch.arange(4).view(2, 2), 1)] == [[0, 2], [1, 3]]
    outs = (torch.empty(2), torch.empty(2), torch.empty(1))
    torch.split_copy(a, 2, out=outs)
    assert [o.tolist() for o in outs] == [[0, 1], [2, 3], [4]]


def test_copy_forms_reject_bad_input():
    with pytest.raises(TypeError):
        torch.view_copy([1, 2], (2,))
    with pytest.raises(RuntimeError):
        torch.view_copy(X, (5, 5))
    with pytest.raises(IndexError):
        torch.select_copy(X, 3, 0)
    with pytest.raises(RuntimeError):
        torch.split_copy(torch.arange(4.0), 2, out=(torch.empty(2),))
    with pytest.raises(TypeError):
        torch.split_copy(torch.arange(4.0), 2, out=torch.empty(4))
    with pytest.raises(RuntimeError):
        torch.diagonal_copy(X, out=torch.empty(2, dtype=torch.int64))   # float result into int out
