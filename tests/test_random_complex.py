"""Normal numbers for complex dtypes: real and imaginary parts each with std/sqrt(2)."""
import math

import pytest

import minitorch as mt


@pytest.mark.parametrize("dtype", [mt.complex64, mt.complex128])
def test_randn_complex(dtype):
    mt.manual_seed(3)
    z = mt.randn(40000, dtype=dtype)
    assert z.dtype == dtype and z.shape == (40000,)
    assert abs(float(z.real.std()) - 1 / math.sqrt(2)) < 0.02
    assert abs(float(z.imag.std()) - 1 / math.sqrt(2)) < 0.02
    assert abs(float((z.abs() ** 2).mean()) - 1.0) < 0.05


def test_randn_complex_reproducible():
    mt.manual_seed(7)
    a = mt.randn(5, dtype=mt.complex64)
    mt.manual_seed(7)
    b = mt.randn(5, dtype=mt.complex64)
    assert mt.equal(a, b)


def test_normal_inplace_complex_mean():
    mt.manual_seed(1)
    t = mt.empty(20000, dtype=mt.complex128).normal_(3.0, 2.0)
    assert abs(float(t.real.mean()) - 3.0) < 0.05 and abs(float(t.imag.mean()) - 3.0) < 0.05
    assert abs(float(t.real.std()) - math.sqrt(2)) < 0.05


def test_randn_like_complex():
    z = mt.randn_like(mt.zeros(3, dtype=mt.complex64))
    assert z.dtype == mt.complex64 and z.shape == (3,)


def test_normal_complex_negative_std_raises():
    with pytest.raises(RuntimeError, match="std >= 0.0"):
        mt.empty(2, dtype=mt.complex64).normal_(0.0, -1.0)


def test_randn_integer_dtype_still_raises():
    with pytest.raises((RuntimeError, NotImplementedError)):
        mt.randn(3, dtype=mt.int64)
