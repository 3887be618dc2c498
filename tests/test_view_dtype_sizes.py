"""Tensor.view(dtype) to a dtype of another element size: the last dimension is rescaled."""
import numpy as np
import pytest

import minitorch as torch


def _np(t):
    return t.numpy()


@pytest.mark.parametrize("src,dst", [(torch.float32, torch.int8), (torch.float64, torch.int16),
                                     (torch.int64, torch.float32), (torch.complex128, torch.float64),
                                     (torch.int16, torch.uint8), (torch.bool, torch.uint8)])
def test_smaller_element_size(src, dst):
    a = torch.arange(24).view(2, 3, 4).to(src)
    v = a.view(dst)
    r = a.element_size() // v.element_size()
    assert v.shape == (2, 3, 4 * r) and v.stride() == (12 * r, 4 * r, 1)
    assert v.data_ptr() == a.data_ptr()
    np.testing.assert_array_equal(_np(v), _np(a).view(_np(v).dtype))
    assert torch.equal(v.view(src), a)


@pytest.mark.parametrize("src,dst", [(torch.int8, torch.float32), (torch.int16, torch.float64),
                                     (torch.float32, torch.complex128), (torch.uint8, torch.int16)])
def test_larger_element_size(src, dst):
    a = torch.arange(64).view(2, 32).to(src)
    v = a.view(dst)
    r = v.element_size() // a.element_size()
    assert v.shape == (2, 32 // r) and v.stride() == (32 // r, 1)
    np.testing.assert_array_equal(_np(v), _np(a).view(_np(v).dtype))


def test_strided_offset_and_expanded_inputs():
    a = torch.arange(2 * 5 * 16, dtype=torch.int8).view(2, 5, 16)[1:, 1:, 2:]
    v = a.view(torch.int16)
    assert v.shape == (1, 4, 7) and v.stride() == (40, 8, 1) and v.storage_offset() == 49
    np.testing.assert_array_equal(_np(v), np.ascontiguousarray(_np(a)).view(np.int16))
    e = torch.ones(1, 4).expand(3, 4).view(torch.int8)
    assert e.shape == (3, 16) and e.stride() == (0, 1)
    assert torch.zeros(0, 5, 8).view(torch.float64).shape == (0, 5, 4)


def test_view_dtype_errors():
    with pytest.raises(RuntimeError, match=r"self.dim\(\) cannot be 0 to view Float as Short "
                                           r"\(different element sizes\)"):
        torch.ones(()).view(torch.int16)
    with pytest.raises(RuntimeError, match=r"self.stride\(-1\) must be 1 to view Float as Short "
                                           r"\(different element sizes\), but got 4"):
        torch.ones(4, 4).t().view(torch.int16)
    with pytest.raises(RuntimeError, match=r"self.size\(-1\) must be divisible by 2 to view Float as "
                                           r"Double \(different element sizes\), but got 3"):
        torch.ones(4, 3).view(torch.float64)
    with pytest.raises(RuntimeError, match=r"self.storage_offset\(\) must be divisible by 2 .*but got 1"):
        torch.ones(4, 4)[:, 1:3].view(torch.float64)
    with pytest.raises(RuntimeError, match=r"self.stride\(0\) must be divisible by 2 .*but got 3"):
        torch.ones(4, 4).as_strided((4, 2), (3, 1)).view(torch.float64)
    assert torch.ones(4).view(torch.int32).shape == (4,)      # same size: any layout
    assert torch.ones(4, 4).t().view(torch.int32).stride() == (1, 4)
