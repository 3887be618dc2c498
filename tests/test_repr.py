"""Tensor.__repr__ in torch's exact format (with 'minitorch.' in dtype names)."""
import pytest

import minitorch as torch

nan, inf = float("nan"), float("inf")


@pytest.fixture(autouse=True)
def restore_print_options():
    saved = torch.get_printoptions()
    dt = torch.get_default_dtype()
    yield
    torch.set_printoptions(**saved)
    torch.set_default_dtype(dt)


# The expected strings are what torch prints for the same tensors (with 'torch.' -> 'minitorch.').
CASES = [
    ("float matrix", lambda: torch.tensor([[1.0, 2.0], [3.0, 4.0]]), "tensor([[1., 2.],\n        [3., 4.]])"),
    ("fixed point", lambda: torch.tensor([1.0, 1.5, 2.0]), "tensor([1.0000, 1.5000, 2.0000])"),
    ("negative fixed", lambda: torch.tensor([0.1, -0.25]), "tensor([ 0.1000, -0.2500])"),
    ("negative int-valued", lambda: torch.tensor([-1.0, 2.0]), "tensor([-1.,  2.])"),
    ("zeros", lambda: torch.zeros(3), "tensor([0., 0., 0.])"),
    ("small sci", lambda: torch.tensor([1e-5, 1.0]), "tensor([1.0000e-05, 1.0000e+00])"),
    ("tiny alone", lambda: torch.tensor([0.00001]), "tensor([1.0000e-05])"),
    # float32(0.0001) is just below 1e-4, so torch switches to sci mode; float64 does not
    ("1e-4 float32", lambda: torch.tensor([0.0, 0.0001]), "tensor([0.0000e+00, 1.0000e-04])"),
    ("1e-4 float64", lambda: torch.tensor([0.0, 0.0001], dtype=torch.float64),
     "tensor([0.0000, 0.0001], dtype=minitorch.float64)"),
    ("big sci", lambda: torch.tensor([1e10]), "tensor([1.0000e+10])"),
    ("big non-int sci", lambda: torch.tensor([123456789.0]), "tensor([1.2346e+08])"),
    ("range > 1000 sci", lambda: torch.tensor([1.0, 1001.0]), "tensor([1.0000e+00, 1.0010e+03])"),
    ("range 1000 fixed", lambda: torch.tensor([1.0, 1000.0]), "tensor([   1., 1000.])"),
    ("ints padded", lambda: torch.tensor([1, 10, 100]), "tensor([  1,  10, 100])"),
    ("negative ints", lambda: torch.tensor([-5, 3]), "tensor([-5,  3])"),
    ("bool", lambda: torch.tensor([True, False]), "tensor([ True, False])"),
    ("0-d float", lambda: torch.tensor(3.5), "tensor(3.5000)"),
    ("0-d int-valued float", lambda: torch.tensor(2.0), "tensor(2.)"),
    ("0-d int", lambda: torch.tensor(3), "tensor(3)"),
    ("0-d bool", lambda: torch.tensor(True), "tensor(True)"),
    ("0-d negative zero", lambda: torch.tensor(-0.0), "tensor(-0.)"),
    ("0-d double", lambda: torch.tensor(3.5, dtype=torch.float64), "tensor(3.5000, dtype=minitorch.float64)"),
    ("float64 suffix", lambda: torch.tensor([1.0, 2.0], dtype=torch.float64),
     "tensor([1., 2.], dtype=minitorch.float64)"),
    ("int32 suffix", lambda: torch.tensor([1, 2], dtype=torch.int32), "tensor([1, 2], dtype=minitorch.int32)"),
    ("uint8 suffix", lambda: torch.tensor([1, 2], dtype=torch.uint8), "tensor([1, 2], dtype=minitorch.uint8)"),
    ("int8 suffix", lambda: torch.tensor([-1], dtype=torch.int8), "tensor([-1], dtype=minitorch.int8)"),
    ("int16 suffix", lambda: torch.tensor([7], dtype=torch.int16), "tensor([7], dtype=minitorch.int16)"),
    ("float16", lambda: torch.tensor([1.5, 2], dtype=torch.float16), "tensor([1.5000, 2.0000], dtype=minitorch.float16)"),
    ("float16 rounding", lambda: torch.tensor([0.1], dtype=torch.float16), "tensor([0.1000], dtype=minitorch.float16)"),
    ("bfloat16", lambda: torch.tensor([1.1], dtype=torch.bfloat16), "tensor([1.1016], dtype=minitorch.bfloat16)"),
    ("bfloat16 ints", lambda: torch.tensor([1.0, 256.0], dtype=torch.bfloat16),
     "tensor([  1., 256.], dtype=minitorch.bfloat16)"),
    ("empty 1-d", lambda: torch.tensor([]), "tensor([])"),
    ("empty 2-d", lambda: torch.empty(0, 3), "tensor([], size=(0, 3))"),
    ("empty 2-d other", lambda: torch.zeros(2, 0), "tensor([], size=(2, 0))"),
    ("empty int64", lambda: torch.tensor([], dtype=torch.int64), "tensor([], dtype=minitorch.int64)"),
    ("empty bool", lambda: torch.zeros(0, dtype=torch.bool), "tensor([], dtype=minitorch.bool)"),
    ("empty int32 2-d", lambda: torch.empty(2, 0, dtype=torch.int32),
     "tensor([], size=(2, 0), dtype=minitorch.int32)"),
    ("nan inf int mode", lambda: torch.tensor([nan, 1.0, inf]), "tensor([nan, 1., inf])"),
    ("nan inf fixed", lambda: torch.tensor([1.5, nan, -inf]), "tensor([1.5000,    nan,   -inf])"),
    ("only nan", lambda: torch.tensor([nan]), "tensor([nan])"),
    ("only infs", lambda: torch.tensor([inf, -inf]), "tensor([inf, -inf])"),
    ("3-d", lambda: torch.arange(8).view(2, 2, 2),
     "tensor([[[0, 1],\n         [2, 3]],\n\n        [[4, 5],\n         [6, 7]]])"),
    ("line wrap", lambda: torch.arange(30.0),
     "tensor([ 0.,  1.,  2.,  3.,  4.,  5.,  6.,  7.,  8.,  9., 10., 11., 12., 13.,\n"
     "        14., 15., 16., 17., 18., 19., 20., 21., 22., 23., 24., 25., 26., 27.,\n"
     "        28., 29.])"),
    ("non-contiguous", lambda: torch.arange(6).view(2, 3).t(), "tensor([[0, 3],\n        [1, 4],\n        [2, 5]])"),
    ("column", lambda: torch.arange(3.0).view(3, 1), "tensor([[0.],\n        [1.],\n        [2.]])"),
    ("expanded", lambda: torch.tensor([1, 2]).expand(2, 2), "tensor([[1, 2],\n        [1, 2]])"),
    ("4-d", lambda: torch.zeros(1, 1, 1, 1), "tensor([[[[0.]]]])"),
    ("empty 3-d", lambda: torch.zeros(3, 0, 2), "tensor([], size=(3, 0, 2))"),
    ("negative sci", lambda: torch.tensor([-1e-5, 1.0]), "tensor([-1.0000e-05,  1.0000e+00])"),
    ("bool summarized", lambda: torch.ones(2000, dtype=torch.bool), "tensor([True, True, True,  ..., True, True, True])"),
    ("negative ints summarized", lambda: torch.arange(-1000, 1000),
     "tensor([-1000,  -999,  -998,  ...,   997,   998,   999])"),
    ("rows wrap", lambda: torch.arange(40.0).view(2, 20),
     "tensor([[ 0.,  1.,  2.,  3.,  4.,  5.,  6.,  7.,  8.,  9., 10., 11., 12., 13.,\n"
     "         14., 15., 16., 17., 18., 19.],\n"
     "        [20., 21., 22., 23., 24., 25., 26., 27., 28., 29., 30., 31., 32., 33.,\n"
     "         34., 35., 36., 37., 38., 39.]])"),
]


@pytest.mark.parametrize("make,expected", [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_repr(make, expected):
    t = make()
    assert repr(t) == expected
    assert str(t) == expected


def test_repr_arange_2000_float_summarized():
    assert repr(torch.arange(2000.0)) == (
        "tensor([0.0000e+00, 1.0000e+00, 2.0000e+00,  ..., 1.9970e+03, 1.9980e+03,\n"
        "        1.9990e+03])")


def test_repr_arange_2000_int_summarized():
    assert repr(torch.arange(2000)) == "tensor([   0,    1,    2,  ..., 1997, 1998, 1999])"


def test_repr_1000x1000_int_summarized():
    assert repr(torch.arange(1000 * 1000).view(1000, 1000)) == (
        "tensor([[     0,      1,      2,  ...,    997,    998,    999],\n"
        "        [  1000,   1001,   1002,  ...,   1997,   1998,   1999],\n"
        "        [  2000,   2001,   2002,  ...,   2997,   2998,   2999],\n"
        "        ...,\n"
        "        [997000, 997001, 997002,  ..., 997997, 997998, 997999],\n"
        "        [998000, 998001, 998002,  ..., 998997, 998998, 998999],\n"
        "        [999000, 999001, 999002,  ..., 999997, 999998, 999999]])")


def test_repr_1000x1000_zeros_summarized():
    row = "[0., 0., 0.,  ..., 0., 0., 0.]"
    assert repr(torch.zeros(1000, 1000)) == (
        f"tensor([{row},\n        {row},\n        {row},\n        ...,\n"
        f"        {row},\n        {row},\n        {row}])")


def test_summarization_threshold_is_1000_elements():
    assert "..." not in repr(torch.arange(1000))
    assert "..." in repr(torch.arange(1001))
    # a short first dim is printed whole, each long row summarized
    r = repr(torch.arange(2000).view(2, 1000))
    assert r == ("tensor([[   0,    1,    2,  ...,  997,  998,  999],\n"
                 "        [1000, 1001, 1002,  ..., 1997, 1998, 1999]])")


def test_summarized_formatter_only_sees_printed_values():
    # the hidden middle value would force sci mode / wider columns if it were considered
    t = torch.ones(2001)
    t[1000] = 1e20
    assert repr(t) == "tensor([1., 1., 1.,  ..., 1., 1., 1.])"


def test_repr_3d_summarized():
    r = repr(torch.zeros(10, 10, 20))
    lines = r.split("\n")
    assert lines[0] == "tensor([[[0., 0., 0.,  ..., 0., 0., 0.],"
    assert "        ...,\n" in r  # outer dim summarized
    assert "         ...,\n" in r  # inner dim summarized
    assert r.endswith("0., 0., 0.]]])")


def test_repr_of_views_does_not_copy_semantics():
    base = torch.arange(12.0).view(3, 4)
    assert repr(base[:, ::2]) == "tensor([[ 0.,  2.],\n        [ 4.,  6.],\n        [ 8., 10.]])"
    assert repr(base[1]) == "tensor([4., 5., 6., 7.])"
    assert repr(base[1, 2]) == "tensor(6.)"


def test_repr_default_dtype_float64(restore_print_options):
    torch.set_default_dtype(torch.float64)
    assert repr(torch.tensor([1.5])) == "tensor([1.5000])"
    assert repr(torch.tensor([1.5], dtype=torch.float32)) == "tensor([1.5000], dtype=minitorch.float32)"
    assert repr(torch.zeros(0, dtype=torch.float32)) == "tensor([], dtype=minitorch.float32)"


def test_dtype_suffix_wraps_at_linewidth():
    t = torch.arange(13.0, dtype=torch.float64)
    # the last line is long, so the suffix goes on its own line (as torch)
    s = repr(t)
    assert s == ("tensor([ 0.,  1.,  2.,  3.,  4.,  5.,  6.,  7.,  8.,  9., 10., 11., 12.],\n"
                 "       dtype=minitorch.float64)")
    assert repr(torch.arange(3.0, dtype=torch.float64)) == "tensor([0., 1., 2.], dtype=minitorch.float64)"


def test_set_printoptions_precision_and_sci_mode():
    torch.set_printoptions(precision=2)
    assert repr(torch.tensor([1.2345, 2.0])) == "tensor([1.23, 2.00])"
    torch.set_printoptions(precision=4, sci_mode=True)
    assert repr(torch.tensor([1.5])) == "tensor([1.5000e+00])"
    torch.set_printoptions(sci_mode=False)
    assert repr(torch.tensor([1.5, 2.0])) == "tensor([1.5000, 2.0000])"
    r = repr(torch.tensor([1e-5, 1.0]))
    assert "e" not in r.replace("tensor", "") and "0.0000" in r and "1.0000" in r


def test_set_printoptions_threshold_and_edgeitems():
    torch.set_printoptions(threshold=5, edgeitems=2)
    assert repr(torch.arange(10)) == "tensor([0, 1,  ..., 8, 9])"
    torch.set_printoptions(profile="default")
    assert repr(torch.arange(10)) == "tensor([0, 1, 2, 3, 4, 5, 6, 7, 8, 9])"
    torch.set_printoptions(profile="full")
    assert "..." not in repr(torch.arange(2000))


def test_set_printoptions_linewidth():
    torch.set_printoptions(linewidth=20)
    assert repr(torch.arange(6)) == "tensor([0, 1, 2, 3,\n        4, 5])"


def test_set_printoptions_bad_profile():
    with pytest.raises(ValueError, match="profile"):
        torch.set_printoptions(profile="wide")


def test_format_spec():
    assert f"{torch.tensor(2.5):.1f}" == "2.5"
    assert format(torch.tensor([1.0])) == "tensor([1.])"


def test_subclass_prints_under_its_name():
    class Wrapped(torch.Tensor):
        pass

    w = torch.arange(6.0).view(2, 3).as_subclass(Wrapped)
    assert repr(w) == "Wrapped([[0., 1., 2.],\n         [3., 4., 5.]])"  # as torch
    assert repr(torch.nn.Buffer(torch.ones(2))) == "tensor([1., 1.])"
    assert repr(torch.nn.Parameter(torch.ones(2))) == (
        "Parameter containing:\ntensor([1., 1.], requires_grad=True)")
