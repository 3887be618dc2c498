"""NumPy ufuncs given tensors: they run in NumPy over the tensors' memory and give tensors."""
import numpy as np
import pytest

import minitorch as torch


def test_ufuncs_of_tensors_give_tensors():
    t = torch.tensor([1., -2., 3., 4.])
    r = np.abs(t)
    assert isinstance(r, torch.Tensor) and r.dtype == torch.float32 and r.tolist() == [1., 2., 3., 4.]
    r = np.add(t, 1)
    assert isinstance(r, torch.Tensor) and r.tolist() == [2., -1., 4., 5.]
    r = np.abs(torch.tensor(-1.5))                       # 0-d: a 0-d tensor, not a NumPy scalar
    assert isinstance(r, torch.Tensor) and r.dim() == 0 and r.item() == 1.5
    mant, whole = np.modf(torch.tensor([1.5, -2.25]))   # several outputs: a tuple of tensors
    assert isinstance(mant, torch.Tensor) and mant.tolist() == [0.5, -0.25] and whole.tolist() == [1., -2.]
    assert np.add.reduce(t).item() == 6.0 and isinstance(np.add.accumulate(t), torch.Tensor)


def test_ndarray_on_the_left():
    t = torch.tensor([1., -2., 3., 4.])
    for r, want in ((np.ones(4) + t, [2., -1., 4., 5.]), (np.ones(4) * t, [1., -2., 3., 4.]),
                    (np.full(4, 10.) - t, [9., 12., 7., 6.])):
        assert isinstance(r, torch.Tensor) and r.dtype == torch.float64 and r.tolist() == want
    r = np.zeros(4) > t
    assert isinstance(r, torch.Tensor) and r.dtype == torch.bool and r.tolist() == [False, True, False, False]
    # an explicit ufunc call with the tensor first runs in NumPy, as torch (bool -> uint8)
    r = np.greater(t, 0)
    assert r.dtype == torch.uint8 and r.tolist() == [1, 0, 1, 1]
    # the same dtype as the tensor-on-the-left form
    assert (t + np.ones(4)).dtype == (np.ones(4) + t).dtype


def test_ufunc_out_writes_the_tensor_in_place():
    t = torch.tensor([1., 2.])
    r = np.multiply(t, 3, out=t)
    assert r is t and t.tolist() == [3., 6.]
    o = torch.empty(2)
    assert np.add(np.ones(2), np.ones(2), out=o) is o and o.tolist() == [2., 2.]


def test_ufunc_results_share_no_memory_with_inputs():
    t = torch.tensor([1., 2.])
    r = np.negative(t)
    r[0] = 7
    assert t.tolist() == [1., 2.]


def test_operator_ufuncs_follow_torch_promotion():
    t = torch.ones(2)
    # a NumPy scalar is a number to torch: float32 stays float32 (NumPy would give float64)
    for r in (np.float64(2.0) * t, np.float64(2.0) - t):
        assert isinstance(r, torch.Tensor) and r.dtype == torch.float32
    assert (np.float64(2.0) - t).tolist() == [1.0, 1.0]
    assert np.add(t, np.float64(1.0)).dtype == torch.float64      # explicit: NumPy's rules
    assert (np.int64(3) + torch.ones(2, dtype=torch.int8)).dtype == torch.int8
    assert (np.float64(1.0) - torch.ones(2, dtype=torch.bfloat16)).dtype == torch.bfloat16


def test_other_ufuncs_on_a_dtype_numpy_lacks_raise():
    with pytest.raises(TypeError):
        np.exp(torch.ones(2, dtype=torch.bfloat16))
