"""out= of the unary ops torch builds with one dtype for input and output (neg, abs, floor, ...)
must have the result's dtype; the floating ops (sin, exp, ...) cast into any castable out."""
import pytest

import minitorch as mt

SAME = [mt.neg, mt.abs, mt.floor, mt.ceil, mt.trunc, mt.round, mt.sign, mt.sgn, mt.conj_physical, mt.fix]


@pytest.mark.parametrize("op", SAME)
@pytest.mark.parametrize("src,dst", [(mt.float32, mt.float64), (mt.float64, mt.float32),
                                     (mt.int64, mt.float32), (mt.int64, mt.int32)])
def test_same_dtype_ops_refuse_other_out(op, src, dst):
    with pytest.raises(RuntimeError, match="Found dtype .* but expected"):
        op(mt.tensor([1, 2], dtype=src), out=mt.empty(0, dtype=dst))


@pytest.mark.parametrize("op", SAME)
def test_same_dtype_ops_fill_matching_out(op):
    out = mt.empty(0, dtype=mt.float64)
    r = op(mt.tensor([-1.5, 2.25], dtype=mt.float64), out=out)
    assert r is out and r.tolist() == op(mt.tensor([-1.5, 2.25], dtype=mt.float64)).tolist()


def test_message_names_both_dtypes():
    with pytest.raises(RuntimeError, match="Found dtype Double but expected Float"):
        mt.neg(mt.ones(2), out=mt.empty(2, dtype=mt.float64))


def test_abs_of_complex_out_is_real():
    out = mt.empty(0, dtype=mt.float32)
    assert mt.abs(mt.tensor([3 + 4j], dtype=mt.complex64), out=out).tolist() == [5.0]
    with pytest.raises(RuntimeError, match="Found dtype"):
        mt.abs(mt.tensor([3 + 4j], dtype=mt.complex64), out=mt.empty(0, dtype=mt.complex64))


def test_signbit_out_must_be_bool():
    with pytest.raises(RuntimeError, match="signbit does not support non-boolean outputs"):
        mt.signbit(mt.tensor([-1.0]), out=mt.empty(1))
    assert mt.signbit(mt.tensor([-1.0]), out=mt.empty(1, dtype=mt.bool)).tolist() == [True]


def test_floating_ops_still_cast_into_out():
    out = mt.empty(0, dtype=mt.float64)
    assert mt.sin(mt.tensor([0.0]), out=out).dtype == mt.float64
    assert mt.exp(mt.tensor([0]), out=mt.empty(0)).tolist() == [1.0]


def test_inplace_forms_unaffected():
    t = mt.tensor([-1.0, 2.0])
    t.neg_().abs_().floor_()
    assert t.tolist() == [1.0, 2.0]
