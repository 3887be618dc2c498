"""dtypes torch names that minitorch has no tensors of: they exist, answer dtype questions and
promote as torch's; making a tensor of one raises NotImplementedError."""
import pytest

import minitorch as mt


NAMED = ["complex32", "bcomplex32", "float8_e5m2", "float8_e4m3fn"]


@pytest.mark.parametrize("name", NAMED)
def test_named_dtype_attributes(name):
    d = getattr(mt, name)
    assert isinstance(d, mt.dtype)
    assert repr(d) == f"minitorch.{name}"
    assert mt.promote_types(d, d) is d


def test_named_dtype_properties():
    assert mt.chalf is mt.complex32
    assert mt.complex32.itemsize == 4 and mt.complex32.is_complex and not mt.complex32.is_floating_point
    assert mt.float8_e5m2.itemsize == 1 and mt.float8_e5m2.is_floating_point


@pytest.mark.parametrize("name", NAMED)
def test_named_dtype_tensor_raises(name):
    with pytest.raises(NotImplementedError, match="no tensors of dtype"):
        mt.zeros(2, dtype=getattr(mt, name))
    with pytest.raises(NotImplementedError):
        mt.ones(2).to(getattr(mt, name))


def test_complex32_promotion():
    assert mt.promote_types(mt.chalf, mt.half) is mt.chalf
    assert mt.promote_types(mt.int64, mt.chalf) is mt.chalf
    assert mt.promote_types(mt.chalf, mt.float32) is mt.complex64
    assert mt.promote_types(mt.chalf, mt.float64) is mt.complex128
    assert mt.promote_types(mt.bfloat16, mt.chalf) is mt.complex64
    assert mt.promote_types(mt.chalf, mt.complex128) is mt.complex128


def test_float8_promotion_raises():
    with pytest.raises(RuntimeError, match="Promotion for Float8 Types is not supported"):
        mt.promote_types(mt.float8_e5m2, mt.float32)
    with pytest.raises(RuntimeError, match="Float8_e4m3fn and Float8_e5m2"):
        mt.promote_types(mt.float8_e4m3fn, mt.float8_e5m2)


def test_promote_types_bad_argument():
    with pytest.raises(TypeError):
        mt.promote_types(mt.complex32, "float32")


def test_element_size():
    from minitorch import _utils
    assert _utils._element_size(mt.float64) == 8
    assert _utils._element_size(mt.complex32) == 4
    assert _utils._element_size(mt.bool) == 1
    with pytest.raises(RuntimeError):
        _utils._element_size(3)
