"""Tensor.H / mT / mH / adjoint() and swapaxes/swapdims with their keyword names."""
import numpy as np
import pytest

import minitorch as torch

DTYPES = [torch.float32, torch.int64, torch.bool, torch.float16, torch.complex64, torch.complex128]


@pytest.mark.parametrize("dtype", DTYPES)
def test_transposes_match_numpy(dtype):
    a = torch.arange(24).view(2, 3, 4).to(dtype)
    if dtype.is_complex:
        a = a + torch.ones(2, 3, 4, dtype=dtype) * 1j
    n = a.numpy()
    m = a[0]
    np.testing.assert_array_equal(m.H.resolve_conj().numpy(), n[0].T.conj())
    np.testing.assert_array_equal(a.mT.numpy(), np.swapaxes(n, -1, -2))
    np.testing.assert_array_equal(a.mH.resolve_conj().numpy(), np.swapaxes(n, -1, -2).conj())
    np.testing.assert_array_equal(a.adjoint().resolve_conj().numpy(), np.swapaxes(n, -1, -2).conj())
    np.testing.assert_array_equal(torch.adjoint(a).resolve_conj().numpy(), np.swapaxes(n, -1, -2).conj())
    s = torch.tensor(3, dtype=dtype)
    for v in (s.H, s.mT, s.mH, s.adjoint()):            # 0-d: its own (conjugate) transpose
        assert v.shape == () and v.item() == (s.item().conjugate() if dtype.is_complex else s.item())


def test_real_transposes_are_views():
    t = torch.ones(3, 3)
    for v in (t.H, t.mH, t.mT, t.adjoint()):
        assert v._base is t
        v[0, 1] = 0
        assert t[1, 0].item() == 0
        t.fill_(1)


def test_transposes_reject_wrong_ranks():
    with pytest.raises(RuntimeError, match=r"tensor.H is only supported on matrices \(2-D tensors\). "
                                           r"Got 1-D tensor."):
        torch.ones(2).H
    with pytest.raises(RuntimeError, match="Got 3-D tensor. For batches of matrices, consider using tensor.mH"):
        torch.ones(2, 3, 4).H
    with pytest.raises(RuntimeError, match="tensor.mH is only supported on matrices or batches of matrices"):
        torch.ones(2).mH
    with pytest.raises(RuntimeError, match=r"tensor.adjoint\(\) is only supported on matrices or batches "
                                           r"of matrices. Got 1-D tensor."):
        torch.ones(2).adjoint()
    with pytest.raises(RuntimeError, match="tensor.mT is only supported"):
        torch.ones(2).mT
    with pytest.raises(TypeError):
        torch.adjoint([[1, 2]])


def test_swapaxes_and_swapdims_keywords():
    t = torch.arange(24).view(2, 3, 4)
    n = t.numpy()
    np.testing.assert_array_equal(torch.swapaxes(t, axis0=0, axis1=2).numpy(), np.swapaxes(n, 0, 2))
    np.testing.assert_array_equal(t.swapaxes(axis0=-1, axis1=0).numpy(), np.swapaxes(n, -1, 0))
    np.testing.assert_array_equal(torch.swapdims(t, dim0=0, dim1=1).numpy(), np.swapaxes(n, 0, 1))
    np.testing.assert_array_equal(t.swapdims(1, 2).numpy(), np.swapaxes(n, 1, 2))
    u = t.clone()
    assert u.swapaxes_(0, 1) is u and u.shape == (3, 2, 4)
    with pytest.raises(TypeError):
        torch.swapaxes(t, dim0=0, dim1=1)
    with pytest.raises(TypeError):
        torch.swapdims(t, axis0=0, axis1=1)
    with pytest.raises(IndexError, match="Dimension out of range"):
        torch.swapaxes(t, 5, 0)
    with pytest.raises(IndexError, match="Dimension out of range"):
        t.swapdims(0, -4)
