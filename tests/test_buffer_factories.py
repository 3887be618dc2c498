"""asarray, frombuffer and empty_permuted: tensors over existing memory, or laid out in a
given order (compared with torch 2.15)."""
import array

import numpy as np
import pytest

import minitorch as torch


def test_frombuffer_shares_the_buffer():
    b = bytearray(b"\x01\x00\x00\x00\x02\x00\x00\x00")
    t = torch.frombuffer(b, dtype=torch.int32)
    assert t.tolist() == [1, 2]
    t[0] = 7
    assert b[:4] == b"\x07\x00\x00\x00"
    a = array.array("f", [1, 2, 3])
    assert torch.frombuffer(a, dtype=torch.float32, count=2, offset=4).tolist() == [2.0, 3.0]
    assert torch.frombuffer(bytearray(4), dtype=torch.bfloat16).tolist() == [0.0, 0.0]
    with pytest.warns(UserWarning, match="not writable"):
        assert torch.frombuffer(bytes(8), dtype=torch.float32).tolist() == [0.0, 0.0]
    with pytest.raises(ValueError, match="multiple of element size"):
        torch.frombuffer(bytearray(5), dtype=torch.float32)
    with pytest.raises(ValueError, match="must not be greater than actual buffer length"):
        torch.frombuffer(bytearray(8), dtype=torch.float32, count=3)
    with pytest.raises(ValueError, match="buffer protocol"):
        torch.frombuffer([1, 2], dtype=torch.float32)
    with pytest.raises(TypeError, match="dtype"):
        torch.frombuffer(bytearray(4), dtype="float32")


def test_asarray_shares_where_it_can():
    x = np.ones(3)
    y = torch.asarray(x)
    y[0] = 5
    assert x[0] == 5.0 and y.dtype is torch.float64
    assert torch.asarray(x, copy=True).data_ptr() != y.data_ptr()
    t = torch.ones(2)
    assert torch.asarray(t) is t
    assert torch.asarray(t, dtype=torch.float64).dtype is torch.float64
    with pytest.raises(ValueError, match="can't alias"):
        torch.asarray(t, dtype=torch.float64, copy=False)
    assert torch.asarray([1, 2]).dtype is torch.int64
    assert torch.asarray([1.0], requires_grad=True).requires_grad
    m = memoryview(bytearray(b"\x00\x00\x80\x3f"))
    assert torch.asarray(m).tolist() == [0, 0, 128, 63]          # a byte buffer: uint8
    with pytest.raises(ValueError, match="can't alias"):
        torch.asarray([1, 2], copy=False)


def test_empty_permuted_lays_out_dimensions_in_the_given_order():
    t = torch.empty_permuted((2, 3, 4), (0, 2, 1))
    assert t.shape == (2, 3, 4) and t.stride() == (12, 1, 3)
    assert torch.empty_permuted((2, 3), (1, 0)).stride() == (1, 2)
    with pytest.raises(RuntimeError, match="Duplicate dim not allowed"):
        torch.empty_permuted((2, 3), (0, 0))
    with pytest.raises(RuntimeError, match="does not match the length of the physical_layout"):
        torch.empty_permuted((2, 3), (0,))
    with pytest.raises(RuntimeError, match="Dimension out of range"):
        torch.empty_permuted((2, 3), (0, 2))
