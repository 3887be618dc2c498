"""minitorch.testing: assert_close's rules and messages, make_tensor (messages as torch 2.15's)."""
import math
import re

import numpy as np
import pytest

import minitorch as torch
from minitorch.testing import assert_allclose, assert_close, make_tensor


def _message(actual, expected, **kw):
    with pytest.raises((AssertionError, TypeError, ValueError)) as info:
        assert_close(actual, expected, **kw)
    return info.type, str(info.value)


def test_close_values_pass():
    assert_close(torch.tensor([1.0, 0.0]), torch.tensor([1.0, 1e-9]))
    assert_close(torch.tensor([1.0]), torch.tensor([1.0]).double(), check_dtype=False)
    assert_close(torch.tensor([math.nan]), torch.tensor([math.nan]), equal_nan=True)
    assert_close((1, [2.0, torch.ones(2)]), [1, (2.0, torch.ones(2))])
    assert_close({"a": torch.ones(2), "b": [1]}, {"b": [1], "a": torch.ones(2)})
    assert_close(np.array([1.0, 2.0]), np.array([1.0, 2.0]))
    assert_close(None, None)
    assert_close(torch.tensor([1.0, 5.0], dtype=torch.float16),
                 torch.tensor([1.0, 5.001], dtype=torch.float16))


def test_tensor_messages():
    kind, msg = _message(torch.tensor([1.0, 2.0, 3.0]), torch.tensor([1.0, 2.5, 3.0]))
    assert kind is AssertionError and msg == (
        "Tensor-likes are not close!\n\nMismatched elements: 1 / 3 (33.3%)\n"
        "Greatest absolute difference: 0.5 at index (1,) (up to 1e-05 allowed)\n"
        "Greatest relative difference: 0.20000000298023224 at index (1,) (up to 1.3e-06 allowed)")
    assert _message(torch.tensor([1, 2, 3]), torch.tensor([1, 2, 4]))[1] == (
        "Tensor-likes are not equal!\n\nMismatched elements: 1 / 3 (33.3%)\n"
        "Greatest absolute difference: 1 at index (2,)\nGreatest relative difference: 0.25 at index (2,)")
    assert _message(torch.tensor([[1.0, math.nan]]), torch.tensor([[1.0, math.nan]]))[1] == (
        "Tensor-likes are not close!\n\nMismatched elements: 1 / 2 (50.0%)\n"
        "Greatest absolute difference: nan at index (0, 1) (up to 1e-05 allowed)\n"
        "Greatest relative difference: nan at index (0, 1) (up to 1.3e-06 allowed)")
    assert _message(torch.tensor([1 + 1j]), torch.tensor([1 + 2j]))[1].endswith(
        "Greatest relative difference: 0.4472135901451111 at index (0,) (up to 1.3e-06 allowed)")
    assert _message(torch.tensor([0.0, 1.0]), torch.tensor([0.0, math.inf]))[1].split("\n")[3] == (
        "Greatest absolute difference: inf at index (1,) (up to 1e-05 allowed)")
    assert _message(torch.tensor([True, False]), torch.tensor([True, True]))[1] == (
        "Tensor-likes are not equal!\n\nMismatched elements: 1 / 2 (50.0%)\n"
        "Greatest absolute difference: 1 at index (1,)\nGreatest relative difference: 1.0 at index (1,)")
    assert _message(torch.tensor(1.0), torch.tensor(2.0))[1] == (
        "Scalars are not close!\n\nExpected 2.0 but got 1.0.\n"
        "Absolute difference: 1.0 (up to 1e-05 allowed)\nRelative difference: 0.5 (up to 1.3e-06 allowed)")


def test_metadata_and_structure_messages():
    assert re.fullmatch(r"The values for attribute 'shape' do not match: \w+\.Size\(\[2\]\) != "
                        r"\w+\.Size\(\[3\]\)\.",
                        _message(torch.ones(2), torch.ones(3))[1])
    assert _message(torch.ones(1), torch.ones(1).double())[1].startswith(
        "The values for attribute 'dtype' do not match:")
    assert _message(torch.ones(2, 2), torch.ones(2, 2).t().contiguous().t(), check_stride=True)[1] == \
        "The values for attribute 'stride()' do not match: (2, 1) != (1, 2)."
    assert _message([1.0, 2.0], [1.0, 2.0, 3.0])[1] == "The length of the sequences mismatch: 2 != 3"
    assert _message({"a": 1}, {"b": 1})[1] == (
        "The keys of the mappings do not match:\nMissing keys in the actual mapping: ['b']\n"
        "Additional keys in the actual mapping: ['a']")
    assert _message([[torch.tensor(1.0)], {"a": torch.tensor(1.0)}],
                    [[torch.tensor(1.0)], {"a": torch.tensor(3.0)}])[1].endswith(
        "Relative difference: 0.6666666666666666 (up to 1.3e-06 allowed)\n\n"
        "The failure occurred for item [1]['a']")
    assert _message((1, [2, 3]), (1, [2, 4]))[1] == (
        "Scalars are not equal!\n\nExpected 4 but got 3.\nAbsolute difference: 1\n"
        "Relative difference: 0.25\n\nThe failure occurred for item [1][1]")
    assert _message(1.0, 1)[1] == "The (d)types do not match: <class 'float'> != <class 'int'>."
    assert _message(None, 1)[1] == "None mismatch: None is not 1"
    kind, msg = _message("a", "a")
    assert kind is TypeError and msg == ("No comparison pair was able to handle inputs of type "
                                         "<class 'str'> and <class 'str'>.")
    assert _message(torch.ones(2), np.ones(2))[0] is TypeError
    assert _message(torch.nn.Parameter(torch.ones(1)), torch.ones(1), allow_subclasses=False)[0] \
        is TypeError
    assert _message(torch.ones(1), torch.ones(1) + 1, msg="custom")[1] == "custom"
    assert _message(torch.ones(1), torch.ones(1) + 1, msg=lambda m: m + "!!")[1].endswith("!!")
    kind, msg = _message(torch.ones(1), torch.ones(1), rtol=1e-3)
    assert kind is ValueError and msg == ("Both 'rtol' and 'atol' must be either specified or "
                                          "omitted, but got no atol.")
    assert _message(torch.tensor([1.0, 2.0]), torch.tensor([1.0, 2.5]), rtol=0, atol=0)[1] \
        .startswith("Tensor-likes are not equal!")


def test_isclose_infinities():
    a = torch.tensor([1.0, math.inf, -math.inf, math.inf, 2.0])
    b = torch.tensor([math.inf, math.inf, math.inf, 1.0, 2.0])
    assert torch.isclose(a, b).tolist() == [False, True, False, False, True]
    assert not torch.allclose(torch.tensor([1.0]), torch.tensor([math.inf]))


def test_assert_allclose_is_deprecated():
    with pytest.warns(FutureWarning, match="assert_allclose"):
        assert_allclose(torch.tensor([1.0, math.nan]), torch.tensor([1.0, math.nan]))


def test_make_tensor():
    t = make_tensor(4, 5, dtype=torch.float32, device="cpu", noncontiguous=True)
    assert t.shape == (4, 5) and not t.is_contiguous()
    assert make_tensor((2, 3), dtype=torch.float64, device="cpu").shape == (2, 3)
    assert make_tensor((), dtype=torch.float32, device="cpu").shape == ()
    for dtype, lo, hi in [(torch.uint8, 0, 9), (torch.int8, -9, 9), (torch.int64, -9, 9),
                          (torch.float32, -9, 9), (torch.float16, -9, 9)]:
        v = make_tensor(2000, dtype=dtype, device="cpu")
        assert v.dtype is dtype and lo <= v.min().item() and v.max().item() <= hi
    c = make_tensor(100, dtype=torch.complex64, device="cpu", low=0, high=1)
    assert c.dtype is torch.complex64 and 0 <= c.real.min().item() and c.imag.max().item() < 1
    b = make_tensor(100, dtype=torch.bool, device="cpu")
    assert b.dtype is torch.bool
    z = make_tensor(1000, dtype=torch.int64, device="cpu", low=-1, high=2, exclude_zero=True)
    assert (z == 0).sum().item() == 0
    g = make_tensor(3, dtype=torch.float32, device="cpu", requires_grad=True)
    assert g.requires_grad and g.is_leaf
    with pytest.raises(ValueError, match=r"`low` must be less than `high`, but got 2 >= 1"):
        make_tensor(3, dtype=torch.float32, device="cpu", low=2, high=1)
    with pytest.raises(ValueError, match="cannot be NaN, but got low=nan and high=9"):
        make_tensor(3, dtype=torch.float32, device="cpu", low=math.nan)
    with pytest.raises(TypeError, match="device"):
        make_tensor(3, dtype=torch.float32)
    with pytest.raises(ValueError, match="requires_grad"):
        make_tensor(3, dtype=torch.int64, device="cpu", requires_grad=True)
