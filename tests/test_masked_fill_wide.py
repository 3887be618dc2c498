"""masked_fill / boolean-mask assignment into every dtype, the 16-byte complex128 included."""
import numpy as np
import pytest

import minitorch as torch

DTYPES = [torch.bool, torch.uint8, torch.int8, torch.int16, torch.int32, torch.int64, torch.float16,
          torch.bfloat16, torch.float32, torch.float64, torch.complex64, torch.complex128]


@pytest.mark.parametrize("dtype", DTYPES)
def test_masked_fill_each_dtype(dtype):
    t = torch.zeros(2, 5, dtype=dtype)
    m = torch.tensor([[True, False, True, False, False]] * 2)
    t[m] = 1
    got = t.real if dtype.is_complex else t.to(torch.float64)
    assert got.tolist() == [[1, 0, 1, 0, 0]] * 2
    r = torch.zeros(5, dtype=dtype).masked_fill(m[0], 1)
    np.testing.assert_array_equal(r.to(torch.float64).numpy() if not dtype.is_complex else r.numpy().real,
                                  [1, 0, 1, 0, 0])


def test_masked_fill_complex_value():
    t = torch.zeros(3, dtype=torch.complex128)
    t.masked_fill_(torch.tensor([False, True, True]), 2 - 3j)
    assert t.tolist() == [0j, 2 - 3j, 2 - 3j]
    with pytest.raises(RuntimeError, match="only supports boolean masks"):
        t.masked_fill_(torch.tensor([0, 1, 1]), 1)
