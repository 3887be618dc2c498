"""3-D convolution and pooling: minitorch.conv3d / nn.functional.conv3d and nn.Conv3d (every
padding mode, 'same'/'valid'), max_pool3d (indices, ceil_mode, dilation, padding), avg_pool3d
(count_include_pad, divisor_override), adaptive_avg_pool3d, adaptive_max_pool3d,
adaptive_max_pool1d and their modules.  Values and gradients against torch 2.15's for fixed
float64 inputs (REF, at the end: run this file with torch importable to print it again);
gradcheck and gradgradcheck (every backward is a recorded op); indices, NaN and integer inputs;
torch's messages for bad arguments; hostile sizes that must raise, never crash."""
import itertools
import warnings

import numpy as np
import pytest

import minitorch as torch
import minitorch.nn.functional as F
from minitorch.autograd import gradcheck, gradgradcheck

from spatial_ref import assert_matches, backward, capture, det, run, tensor

X5 = (2, 4, 5, 6, 7)


def _conv3d(kw, ws=(6, 4, 3, 2, 3), bias=True, xs=X5):
    def case(lib):
        x = tensor(lib, xs, 1)
        w = tensor(lib, ws, 2)
        b = tensor(lib, (ws[0],), 3) if bias else None
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")   # padding='same' with an even kernel warns
            y = lib.nn.functional.conv3d(x, w, b, **kw)
        backward(lib, y)
        out = {"y": y, "gx": x.grad, "gw": w.grad}
        if bias:
            out["gb"] = b.grad
        return out
    return case


def _conv3d_module(padding_mode, padding):
    def case(lib):
        m = lib.nn.Conv3d(4, 6, (3, 2, 3), padding=padding, padding_mode=padding_mode,
                          groups=2).double()
        with lib.no_grad():
            m.weight.copy_(lib.from_numpy(det(tuple(m.weight.shape), 5).copy()))
            m.bias.copy_(lib.from_numpy(det((6,), 6).copy()))
        x = tensor(lib, X5, 1)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            y = m(x)
        backward(lib, y)
        return {"y": y, "gx": x.grad, "gw": m.weight.grad, "gb": m.bias.grad}
    return case


def _pool(fname, kw, xs=X5, indices=False):
    def case(lib):
        x = tensor(lib, xs, 1)
        r = getattr(lib.nn.functional, fname)(x, **kw)
        y = r[0] if indices else r
        backward(lib, y)
        out = {"y": y, "gx": x.grad}
        if indices:
            out["idx"] = r[1].double()
        return out
    return case


CASES = {}
for _s, _p, _d, _g in itertools.product((1, 2, (1, 2, 3)), (0, 1, (1, 0, 2)), (1, (2, 1, 1)),
                                        (1, 2)):
    CASES[f"conv3d_s{_s}p{_p}d{_d}g{_g}"] = _conv3d(
        {"stride": _s, "padding": _p, "dilation": _d, "groups": _g}, ws=(6, 4 // _g, 3, 2, 3))
CASES["conv3d_nobias"] = _conv3d({"stride": 2}, bias=False)
CASES["conv3d_unbatched"] = _conv3d({"padding": 1}, xs=X5[1:])
CASES["conv3d_same"] = _conv3d({"padding": "same"})
CASES["conv3d_same_even_dilated"] = _conv3d({"padding": "same", "dilation": (1, 2, 3)},
                                            ws=(6, 4, 2, 4, 3))
CASES["conv3d_valid"] = _conv3d({"padding": "valid"})
CASES["conv3d_1x1x1"] = _conv3d({}, ws=(5, 4, 1, 1, 1))
for _mode in ("zeros", "reflect", "replicate", "circular"):
    for _pad in ((1, 0, 2), "same", "valid"):
        CASES[f"Conv3d_{_mode}_{_pad}"] = _conv3d_module(_mode, _pad)
for _k, _s, _p, _d, _c in itertools.product((2, (3, 2, 2)), (None, 1, (2, 1, 3)), (0, 1),
                                            (1, (2, 1, 2)), (False, True)):
    _kw = {"kernel_size": _k, "stride": _s, "padding": _p, "dilation": _d, "ceil_mode": _c,
           "return_indices": True}
    CASES[f"max_pool3d_k{_k}s{_s}p{_p}d{_d}c{int(_c)}"] = _pool("max_pool3d", _kw, indices=True)
    if _d == 1:
        for _cip, _div in ((True, None), (False, None), (True, 5)):
            _kw = {"kernel_size": _k, "stride": _s, "padding": _p, "ceil_mode": _c,
                   "count_include_pad": _cip, "divisor_override": _div}
            CASES[f"avg_pool3d_k{_k}s{_s}p{_p}c{int(_c)}cip{int(_cip)}div{_div}"] = \
                _pool("avg_pool3d", _kw)
CASES["max_pool3d_unbatched"] = _pool("max_pool3d", {"kernel_size": 2, "stride": 1,
                                                     "return_indices": True}, X5[1:], True)
CASES["avg_pool3d_unbatched"] = _pool("avg_pool3d", {"kernel_size": 3, "padding": 1}, X5[1:])
for _o in (1, 2, (3, 4, 2), (None, 3, None), (5, 6, 7), (9, 8, 10)):
    CASES[f"adaptive_avg_pool3d_{_o}"] = _pool("adaptive_avg_pool3d", {"output_size": _o})
    CASES[f"adaptive_max_pool3d_{_o}"] = _pool("adaptive_max_pool3d",
                                               {"output_size": _o, "return_indices": True},
                                               indices=True)
CASES["adaptive_avg_pool3d_unbatched"] = _pool("adaptive_avg_pool3d", {"output_size": 3}, X5[1:])
for _o in (1, 3, 7, 10):
    CASES[f"adaptive_max_pool1d_{_o}"] = _pool("adaptive_max_pool1d",
                                               {"output_size": _o, "return_indices": True},
                                               (2, 3, 7), True)
CASES["adaptive_max_pool1d_unbatched"] = _pool("adaptive_max_pool1d",
                                               {"output_size": 4, "return_indices": True},
                                               (3, 7), True)


def _modules(lib):
    x = tensor(lib, X5, 1)
    outs = {}
    for name, m in (("MaxPool3d", lib.nn.MaxPool3d(2, 1, 1, ceil_mode=True)),
                    ("AvgPool3d", lib.nn.AvgPool3d((2, 3, 2), 2, 1, count_include_pad=False)),
                    ("AdaptiveAvgPool3d", lib.nn.AdaptiveAvgPool3d((2, None, 3))),
                    ("AdaptiveMaxPool3d", lib.nn.AdaptiveMaxPool3d(3)),
                    ("AdaptiveMaxPool1d", lib.nn.AdaptiveMaxPool1d(4))):
        outs[name] = m(x[0, 0] if name == "AdaptiveMaxPool1d" else x)
    y = sum(v.sum() * (i + 1) for i, v in enumerate(outs.values()))
    y.backward()
    outs["gx"] = x.grad
    return outs


CASES["modules"] = _modules


@pytest.mark.parametrize("name", sorted(CASES))
def test_values_and_gradients_match_torch(name):
    assert_matches(run(CASES[name], torch), REF[name], name=name)


def test_torch_functions_and_grad_fns():
    x = tensor(torch, X5, 1)
    assert torch.max_pool3d(x, 2, 1, 1).grad_fn.name() == "MaxPool3DWithIndicesBackward0"
    assert F.avg_pool3d(x, 2).grad_fn.name() == "AvgPool3DBackward0"
    v, i = torch.adaptive_max_pool1d(x[0, 0, 0], 3)
    assert v.shape == i.shape == (6, 3) and i.dtype == torch.int64
    assert torch._adaptive_avg_pool3d(x, (1, 2, 3)).shape == (2, 4, 1, 2, 3)
    assert F.conv3d(x, tensor(torch, (2, 4, 1, 1, 1))).grad_fn.name() == "ConvolutionBackward0"


@pytest.mark.parametrize("fn", [
    lambda x: F.conv3d(x, tensor(torch, (2, 2, 2, 3, 2), 2), tensor(torch, (2,), 3), stride=2,
                       padding=1),
    lambda x: F.max_pool3d(x, 2, 1, 1, dilation=(1, 2, 1), ceil_mode=True),
    lambda x: F.avg_pool3d(x, (3, 2, 2), 2, 1, True, False),
    lambda x: F.avg_pool3d(x, 2, 1, 0, False, True, 3),
    lambda x: F.adaptive_avg_pool3d(x, (3, 5, 4)),
    lambda x: F.adaptive_max_pool3d(x, (3, 2, 4)),
    lambda x: F.adaptive_max_pool1d(x[0, 0, 0], 3),
], ids=["conv3d", "max_pool3d", "avg_pool3d_ceil", "avg_pool3d_divisor", "adaptive_avg_pool3d",
        "adaptive_max_pool3d", "adaptive_max_pool1d"])
def test_gradcheck_and_gradgradcheck(fn):
    x = tensor(torch, (2, 2, 5, 4, 6), 1)
    assert gradcheck(fn, (x,))
    assert gradgradcheck(fn, (x,))


def test_conv3d_weight_and_bias_second_derivatives():
    x = tensor(torch, (1, 2, 3, 4, 3), 1)
    w = tensor(torch, (3, 2, 2, 2, 2), 2)
    b = tensor(torch, (3,), 3)
    f = lambda x, w, b: F.conv3d(x, w, b, stride=(1, 2, 1), padding=1, dilation=(2, 1, 1))  # noqa
    assert gradcheck(f, (x, w, b))
    assert gradgradcheck(f, (x, w, b))


def test_max_pool3d_nan_ties_integers_and_empty_window():
    x = torch.zeros(1, 1, 2, 2, 2)
    v, i = F.max_pool3d(x, 2, return_indices=True)
    assert v.item() == 0 and i.item() == 0           # ties: the first wins
    x[0, 0, 1, 0, 1] = float("nan")
    v, i = F.max_pool3d(x, 2, return_indices=True)
    assert np.isnan(v.item()) and i.item() == 5
    xi = torch.arange(64, dtype=torch.int64).reshape(1, 1, 4, 4, 4)
    v, i = F.max_pool3d(xi, 2, return_indices=True)
    assert v.dtype == torch.int64 and v.flatten().tolist() == [21, 23, 29, 31, 53, 55, 61, 63]
    assert i.flatten().tolist() == [21, 23, 29, 31, 53, 55, 61, 63]
    # a dilated window whose taps all skip the input: -inf and index -1, skipped by the backward
    x = torch.randn(1, 1, 2, 2, 2, requires_grad=True)
    v, i = F.max_pool3d(x, 2, padding=1, dilation=3, return_indices=True)
    assert v.flatten()[0].item() == float("-inf") and i.flatten()[0].item() == -1
    v[v > float("-inf")].sum().backward()
    assert x.grad.shape == x.shape


def test_float32_and_half_follow_float64():
    x = tensor(torch, X5, 1, requires_grad=False)
    w = tensor(torch, (6, 4, 3, 2, 3), 2, requires_grad=False)
    ref = F.conv3d(x, w, padding=1).numpy()
    np.testing.assert_allclose(F.conv3d(x.float(), w.float(), padding=1).numpy(), ref,
                               rtol=1e-4, atol=1e-4)
    y16 = F.conv3d(x.half(), w.half(), padding=1)
    assert y16.dtype == torch.float16
    np.testing.assert_allclose(y16.float().numpy(), ref, rtol=0.05, atol=0.2)
    for fn in (lambda t: F.max_pool3d(t, 2), lambda t: F.avg_pool3d(t, 2),
               lambda t: F.adaptive_avg_pool3d(t, 3), lambda t: F.adaptive_max_pool3d(t, 3)):
        np.testing.assert_allclose(fn(x.float()).numpy(), fn(x).numpy(), rtol=1e-6, atol=1e-6)
        assert fn(x.bfloat16()).dtype == torch.bfloat16


def test_modules_repr_and_conv3d_modes():
    assert repr(torch.nn.Conv3d(4, 6, 3, padding=1, padding_mode="circular")) == \
        ("Conv3d(4, 6, kernel_size=(3, 3, 3), stride=(1, 1, 1), padding=(1, 1, 1), "
         "padding_mode=circular)")
    assert repr(torch.nn.MaxPool3d(2)) == \
        "MaxPool3d(kernel_size=2, stride=2, padding=0, dilation=1, ceil_mode=False)"
    assert repr(torch.nn.AvgPool3d(2, 1)) == "AvgPool3d(kernel_size=2, stride=1, padding=0)"
    assert repr(torch.nn.AdaptiveAvgPool3d((2, None, 3))) == \
        "AdaptiveAvgPool3d(output_size=(2, None, 3))"
    assert repr(torch.nn.AdaptiveMaxPool1d(3)) == "AdaptiveMaxPool1d(output_size=3)"
    m = torch.nn.AdaptiveMaxPool3d(2, return_indices=True)
    v, i = m(torch.zeros(1, 1, 4, 4, 4))
    assert v.shape == i.shape == (1, 1, 2, 2, 2)
    with pytest.raises(ValueError, match="padding_mode must be one of"):
        torch.nn.Conv3d(1, 1, 1, padding_mode="wrap")
    with pytest.raises(ValueError, match="padding='same' is not supported for strided"):
        torch.nn.Conv3d(1, 1, 3, stride=2, padding="same")


Z5 = torch.zeros(2, 4, 5, 6, 7)
W5 = torch.zeros(6, 4, 3, 3, 3)
ERRORS = [
    (lambda: F.conv3d(torch.zeros(4, 5, 6), W5), RuntimeError,
     "Expected 4D (unbatched) or 5D (batched) input to conv3d, but got input of size: [4, 5, 6]"),
    (lambda: F.conv3d(Z5, torch.zeros(6, 4, 3, 3)), RuntimeError,
     "expected stride to be a single integer value or a list of 2 values to match the "
     "convolution dimensions, but got stride=[1, 1, 1]"),
    (lambda: F.conv3d(Z5, torch.zeros(6, 3, 3, 3, 3)), RuntimeError,
     "Given groups=1, weight of size [6, 3, 3, 3, 3], expected input[2, 4, 5, 6, 7] to have 3 "
     "channels, but got 4 channels instead"),
    (lambda: F.conv3d(Z5, torch.zeros(6, 2, 3, 3, 3), groups=4), RuntimeError,
     "Given groups=4, expected weight to be divisible by 4 at dimension 0, but got weight of "
     "size [[6, 2, 3, 3, 3]] instead"),
    (lambda: F.conv3d(Z5, torch.zeros(6, 4, 9, 3, 3)), RuntimeError,
     "Calculated padded input size per channel: (5 x 6 x 7). Kernel size: (9 x 3 x 3). Kernel "
     "size can't be greater than actual input size"),
    (lambda: F.conv3d(Z5, W5, padding=-1), RuntimeError, "negative padding is not supported"),
    (lambda: F.conv3d(Z5, W5, stride=0), RuntimeError, "non-positive stride is not supported"),
    (lambda: F.conv3d(Z5, W5, dilation=0), RuntimeError,
     "non-positive dilation is not supported"),
    (lambda: F.conv3d(Z5, W5, groups=0), RuntimeError, "non-positive groups is not supported"),
    (lambda: F.conv3d(Z5, W5, stride=(1, 2)), RuntimeError,
     "expected stride to be a single integer value or a list of 3 values to match the "
     "convolution dimensions, but got stride=[1, 2]"),
    (lambda: F.conv3d(Z5, W5, torch.zeros(5)), RuntimeError,
     "Given weight of size [6, 4, 3, 3, 3], expected bias to be 1-dimensional with 6 elements, "
     "but got bias of size [5] instead"),
    (lambda: F.conv3d(Z5.double(), W5), RuntimeError,
     "expected scalar type Double but found Float"),
    (lambda: F.conv3d(Z5, W5, torch.zeros(6, dtype=torch.float16)), RuntimeError,
     "Input type (float) and bias type (c10::Half) should be the same"),
    (lambda: F.conv3d(Z5, W5, padding="same", stride=2), RuntimeError,
     "padding='same' is not supported for strided convolutions"),
    (lambda: F.conv3d(Z5, W5, padding="foo"), RuntimeError, "Invalid padding string: 'foo'"),
    (lambda: F.conv3d(torch.zeros(2, 4, 0, 6, 7), W5), RuntimeError,
     "Calculated padded input size per channel: (0 x 6 x 7)"),
    (lambda: F.conv3d(Z5, torch.zeros(0, 4, 3, 3, 3)), RuntimeError,
     "Given groups=1, expected weight to be at least 1 at dimension 0, but got weight of size "
     "[0, 4, 3, 3, 3] instead"),
    (lambda: F.conv3d(Z5.long(), W5.long()), NotImplementedError,
     "\"slow_conv3d_cpu\" not implemented for 'Long'"),
    (lambda: F.max_pool3d(Z5, 3, padding=2), RuntimeError,
     "pad should be at most half of effective kernel size, but got pad=2, kernel_size=3 and "
     "dilation=1"),
    (lambda: F.max_pool3d(Z5, 3, padding=2, dilation=2), RuntimeError,
     "pad should be smaller than or equal to half of kernel size, but got kT: 3 kW: 3 kH: 3 "
     "padT: 2 padW: 2 padH: 2"),
    (lambda: F.max_pool3d(Z5, 2, stride=0), RuntimeError, "stride should not be zero"),
    (lambda: F.max_pool3d(Z5, 2, stride=-1), RuntimeError,
     "stride should be greater than zero, but got dT: -1 dH: -1 dW: -1"),
    (lambda: F.max_pool3d(Z5, 0, stride=1), RuntimeError,
     "kernel size should be greater than zero, but got kT: 0 kH: 0 kW: 0"),
    (lambda: F.max_pool3d(Z5, 2, padding=-1), RuntimeError,
     "pad must be non-negative, but got pad: -1"),
    (lambda: F.max_pool3d(Z5, 2, dilation=0), RuntimeError,
     "dilation should be greater than zero, but got dilationT: 0 dilationH: 0 dilationW: 0"),
    (lambda: F.max_pool3d(Z5, 7), RuntimeError,
     "Given input size: (4x5x6x7). Calculated output size: (4x0x0x1). Output size is too small"),
    (lambda: F.max_pool3d(torch.zeros(5, 6, 7), 2), RuntimeError,
     "non-empty 4D or 5D (batch mode) tensor expected for input"),
    (lambda: F.max_pool3d(torch.zeros(2, 0, 5, 6, 7), 2), RuntimeError,
     "max_pool3d_with_indices_out_cpu_template(): Expected input to have non-zero size for "
     "non-batch dimensions, but input has sizes [2, 0, 5, 6, 7] with dimension 1 being empty"),
    (lambda: F.max_pool3d(Z5.bool(), 2), NotImplementedError,
     "\"max_pool3d\" not implemented for 'Bool'"),
    (lambda: F.max_pool3d(Z5, (2, 2)), RuntimeError,
     "max_pool3d: kernel_size must either be a single int, or a tuple of three ints"),
    (lambda: F.max_pool3d(Z5, 2, (1, 2)), RuntimeError,
     "max_pool3d: stride must either be omitted, a single int, or a tuple of three ints"),
    (lambda: F.max_pool3d(Z5, 2, 1, (1, 0)), RuntimeError,
     "max_pool3d: padding must either be a single int, or a tuple of three ints"),
    (lambda: F.max_pool3d(Z5, 2, 1, 0, (1, 2)), RuntimeError,
     "max_pool3d: dilation must be either a single int, or a tuple of three ints"),
    (lambda: F.max_pool3d(Z5, 2 ** 31), RuntimeError,
     "value cannot be converted to type int without overflow"),
    (lambda: F.avg_pool3d(Z5, 7), RuntimeError,
     "input image (T: 5 H: 6 W: 7) smaller than kernel size (kT: 7 kH: 7 kW: 7)"),
    (lambda: F.avg_pool3d(Z5, 2, divisor_override=0), RuntimeError, "divisor must be not zero"),
    (lambda: F.avg_pool3d(torch.zeros(2, 3, 0, 6, 7), 2), RuntimeError,
     "avg_pool3d(): Expected input to have non-zero size for non-batch dimensions, but input has "
     "sizes [2, 3, 0, 6, 7] with dimension 2 being empty"),
    (lambda: F.avg_pool3d(Z5, (2, 2)), RuntimeError,
     "avg_pool3d: kernel_size must be a single int, or a tuple of three ints"),
    (lambda: F.avg_pool3d(Z5, 2, (2, 2)), RuntimeError,
     "avg_pool3d: stride must be omitted, a single int, or a tuple of three ints"),
    (lambda: F.adaptive_avg_pool3d(Z5, (2, 2)), RuntimeError,
     "adaptive_avg_pool3d: output_size must be 3"),
    (lambda: F.adaptive_avg_pool3d(Z5, (2, -1, 2)), RuntimeError,
     "adaptive_avg_pool3d: elements of output_size must be greater than or equal to 0 but "
     "received {2, -1,2}"),
    (lambda: F.adaptive_avg_pool3d(torch.zeros(2, 3, 0, 6, 7), 2), RuntimeError,
     "adaptive_avg_pool3d(): Expected input to have non-zero size for non-batch dimensions, but "
     "input has sizes [2, 3, 0, 6, 7] with dimension 2 being empty"),
    (lambda: F.adaptive_avg_pool3d(torch.zeros(5, 6, 7), 2), RuntimeError,
     "adaptive_avg_pool3d(): Expected 4D or 5D tensor, but got [5, 6, 7]"),
    (lambda: F.adaptive_avg_pool3d(Z5.long(), 2), NotImplementedError,
     "\"adaptive_avg_pool3d_cpu\" not implemented for 'Long'"),
    (lambda: F.adaptive_max_pool3d(Z5, (2, 2)), RuntimeError,
     "adaptive_max_pool3d(): internal error: output_size.size() must be 3"),
    (lambda: F.adaptive_max_pool3d(Z5, (2, -1, 2)), RuntimeError,
     "Trying to create tensor with negative dimension -1: [2, 4, 2, -1, 2]"),
    (lambda: F.adaptive_max_pool3d(torch.zeros(5, 6, 7), 2), RuntimeError,
     "adaptive_max_pool3d(): Expected 4D or 5D tensor, but got: [5, 6, 7]"),
    (lambda: F.adaptive_max_pool3d(Z5.long(), 2), NotImplementedError,
     "\"adaptive_max_pool3d_cpu\" not implemented for 'Long'"),
    (lambda: F.adaptive_max_pool1d(torch.zeros(7), 3), RuntimeError,
     "Expected 2 to 3 dimensions, but got 1-dimensional tensor for argument #1 'self' (while "
     "checking arguments for adaptive_max_pool1d)"),
    (lambda: F.adaptive_max_pool1d(torch.zeros(2, 3, 7), (3, 3)), RuntimeError,
     "adaptive_max_pool1d() argument 'output_size' should contain one int (got 2)"),
    (lambda: F.adaptive_max_pool1d(torch.zeros(2, 3, 7), -1), RuntimeError,
     "Trying to create tensor with negative dimension -1: [2, 3, 1, -1]"),
    (lambda: F.adaptive_max_pool1d(torch.zeros(2, 3, 0), 2), RuntimeError,
     "adaptive_max_pool1d(): Expected input to have non-zero size for non-batch dimensions, but "
     "input has sizes [2, 3, 0] with dimension 2 being empty"),
]


@pytest.mark.parametrize("fn,exc,msg", ERRORS, ids=[str(i) for i in range(len(ERRORS))])
def test_errors_as_torch(fn, exc, msg):
    with pytest.raises(exc) as info:
        fn()
    assert msg in str(info.value)


HOSTILE = [
    lambda: F.conv3d(Z5, W5, padding=2 ** 40),
    lambda: F.conv3d(Z5, W5, padding=2 ** 62),
    lambda: F.conv3d(Z5, W5, dilation=2 ** 62),
    lambda: F.conv3d(torch.zeros(1, 2 ** 20, 1, 1, 1).expand(2 ** 20, 2 ** 20, 1, 1, 1),
                     torch.zeros(1, 2 ** 20, 1, 1, 1)),
    lambda: F.max_pool3d(Z5, 2, 2 ** 40),
    lambda: F.max_pool3d(torch.zeros(1, 1, 2 ** 20, 1, 1).expand(1, 1, 2 ** 20, 2 ** 22, 2 ** 22),
                         1),
    lambda: F.adaptive_avg_pool3d(Z5, 2 ** 40),
    lambda: F.adaptive_max_pool3d(Z5, (2 ** 62, 1, 1)),
    lambda: torch._C._max_pool3d_backward(torch.ones(1, 1, 1, 1, 1), torch.zeros(1, 1, 2, 2, 2),
                                          torch.tensor([[[[[8]]]]]), 2),
    lambda: torch._C._max_pool3d_backward(torch.ones(1, 1, 1, 1, 1), torch.zeros(1, 1, 2, 2, 2),
                                          torch.tensor([[[[[-3]]]]]), 2),
    lambda: torch._C._max_pool3d_backward(torch.ones(1, 1, 2, 1, 1), torch.zeros(1, 1, 2, 2, 2),
                                          torch.tensor([[[[[0]]]]]), 2),
    lambda: torch._C._adaptive_max_pool3d_backward(torch.ones(1, 1, 1, 1, 1),
                                                   torch.zeros(1, 1, 2, 2, 2),
                                                   torch.tensor([[[[[9]]]]])),
    lambda: torch._C._adaptive_avg_pool3d_backward(torch.zeros(1, 1), torch.zeros(1, 1, 2, 2, 2)),
    lambda: torch._C._avg_pool3d_backward(torch.zeros(1, 1, 2, 2, 2), torch.zeros(1, 1, 2, 2, 2),
                                          2),
]


@pytest.mark.parametrize("fn", HOSTILE, ids=[str(i) for i in range(len(HOSTILE))])
def test_hostile_arguments_raise(fn):
    with pytest.raises((RuntimeError, MemoryError, TypeError, ValueError, IndexError)):
        fn()


def test_zero_sizes():
    assert F.conv3d(torch.zeros(0, 4, 5, 6, 7), W5).shape == (0, 6, 3, 4, 5)
    x = torch.zeros(2, 0, 5, 6, 7, requires_grad=True)
    w = torch.zeros(3, 0, 3, 3, 3, requires_grad=True)
    y = F.conv3d(x, w, torch.ones(3))
    assert y.shape == (2, 3, 3, 4, 5) and y.detach().numpy().min() == 1
    y.sum().backward()
    assert x.grad.shape == x.shape and w.grad.shape == w.shape
    assert F.max_pool3d(torch.zeros(0, 3, 5, 6, 7), 2, ceil_mode=True).shape == (0, 3, 3, 3, 4)
    assert F.avg_pool3d(torch.zeros(0, 3, 5, 6, 7), 2).shape == (0, 3, 2, 3, 3)
    assert F.adaptive_avg_pool3d(Z5, 0).shape == (2, 4, 0, 0, 0)
    assert F.adaptive_max_pool3d(torch.zeros(0, 3, 4, 5, 6), 2).shape == (0, 3, 2, 2, 2)


if __name__ == "__main__":
    capture(CASES)

# fingerprints of torch 2.15's results (spatial_ref.capture)
REF = {
    'conv3d_s1p0d1g1': {
        'y': [[2, 6, 3, 5, 5], 13.568125034231953, 29768.215069233673, [-5.805849526592944, -7.150303212381747, -6.535560725283647, -4.172841003631367]],
        'gx': [[2, 4, 5, 6, 7], 0.5329878851609209, 25016.502181037904, [-0.683111854736965, -1.8925571987205108, -2.3332468592729088, -0.5485560293455349]],
        'gw': [[6, 4, 3, 2, 3], -3.9672074020293877, 20099.662645183973, [-0.7728727920295798, -1.6019532769738707, -4.306797307527919, 2.4961028852599494]],
        'gb': [[6], 13.04141668457287, 1204.0779517940537, [-12.826483366885572, -6.457946437177144, 20.31440572360406, -17.551734069217837]],
    },
    'conv3d_s1p0d1g2': {
        'y': [[2, 6, 3, 5, 5], 9.111910819753032, 10330.453087022339, [-5.193631348742281, -4.476044390524947, -2.7888059545164396, -0.8944447218904785]],
        'gx': [[2, 4, 5, 6, 7], -9.878749634718325, 4352.74788959055, [0.27322492594046294, 0.10698250103557977, -0.3342429035749906, -0.0015061531620250979]],
        'gw': [[6, 2, 3, 2, 3], 22.63732621399237, 10047.803729627693, [-0.7728727920295828, -1.601953276973867, -4.306797307527924, 2.4961028852599525]],
        'gb': [[6], 13.04141668457287, 1204.0779517940537, [-12.826483366885572, -6.457946437177144, 20.31440572360406, -17.551734069217837]],
    },
    'conv3d_s1p0d(2, 1, 1)g1': {
        'y': [[2, 6, 1, 5, 5], -74.06261969369675, 10096.47952721308, [-10.23846893204518, -5.084179615152274, 1.5273709546194776, 6.503579711434318]],
        'gx': [[2, 4, 5, 6, 7], -47.77994884895077, 10921.070453258555, [0.1640667199853291, -0.27859029905319976, -0.4202768519247724, 3.098709034173833]],
        'gw': [[6, 4, 3, 2, 3], -54.93187287439226, 10637.17674061056, [-2.8940177126766615, 0.033529792325409556, 2.5366764187449067, -4.41077750913088]],
        'gb': [[6], -12.20667018999018, 446.94852820665824, [1.5996114210021428, -5.841269967189213, 12.31116945947505, -9.760795816041782]],
    },
    'conv3d_s1p0d(2, 1, 1)g2': {
        'y': [[2, 6, 1, 5, 5], -12.150681814623846, 4803.936207727536, [-4.363140277623929, -0.353487099054693, 2.964075540728904, 4.029569327315226]],
        'gx': [[2, 4, 5, 6, 7], -0.7884365209322031, 22780.918867706394, [1.3359657362777075, -0.48923167235625775, -4.721137451258679, -3.5696637611206503]],
        'gw': [[6, 2, 3, 2, 3], 9.100218871790233, 5335.595311285231, [-2.894017712676661, 0.03352979232540987, 2.5366764187449062, -4.410777509130877]],
        'gb': [[6], -12.20667018999018, 446.94852820665824, [1.5996114210021428, -5.841269967189213, 12.31116945947505, -9.760795816041782]],
    },
    'conv3d_s1p1d1g1': {
        'y': [[2, 6, 5, 7, 7], 27.249205582188154, 87055.90321691599, [-2.5001757112146668, 1.977486240103184, 4.7574735563238635, 3.8578016353653903]],
        'gx': [[2, 4, 5, 6, 7], 103.13221508239079, 57228.92218169871, [-5.398736072538136, -5.738803655614137, -9.673317443687449, -10.14457754775938]],
        'gw': [[6, 4, 3, 2, 3], -4.858610659452978, 372797.53302632924, [-7.429523258185526, 3.529907637013381, 43.79517674611889, -37.442653330294334]],
        'gb': [[6], -7.158198498204267, 63.917336829123656, [-1.3777098299815589, -2.205683645141292, -0.7343764519937324, 4.564444322492575]],
    },
    'conv3d_s1p1d1g2': {
        'y': [[2, 6, 5, 7, 7], 4.181732239488362, 34578.28023625129, [0.534200354771603, 2.724863270243203, 1.8165597756909695, -1.040328760031732]],
        'gx': [[2, 4, 5, 6, 7], 62.827877999473564, 22845.234091812395, [-3.033416628869709, -4.20295170449208, -5.903489983692585, -5.686099140774139]],
        'gw': [[6, 2, 3, 2, 3], -199.6937107059055, 185823.11594338814, [-7.429523258185506, 3.5299076370133573, 43.79517674611886, -37.44265333029438]],
        'gb': [[6], -7.158198498204267, 63.917336829123656, [-1.3777098299815589, -2.205683645141292, -0.7343764519937324, 4.564444322492575]],
    },
    'conv3d_s1p1d(2, 1, 1)g1': {
        'y': [[2, 6, 3, 7, 7], 134.50520368573453, 43079.336601627685, [-0.8277637484243011, -3.809884444169583, -7.0042570894613725, -8.099698239311923]],
        'gx': [[2, 4, 5, 6, 7], -230.17804192669837, 4790.5997664997285, [-0.10977625930591062, -1.1203471696929888, -1.7457228616205671, -1.9764065841590308]],
        'gw': [[6, 4, 3, 2, 3], -482.9945156104343, 1037682.0074965188, [-36.71459422829197, 12.035606369815472, 48.512774895902865, -68.82244622531638]],
        'gb': [[6], -15.485164250979194, 1276.9978606159675, [-14.54330630178589, 17.846258131424676, -8.213631760325365, -7.792707140380315]],
    },
    'conv3d_s1p1d(2, 1, 1)g2': {
        'y': [[2, 6, 3, 7, 7], 41.88735207873107, 18581.3223547846, [-3.4176354962744093, -4.863499800966211, -5.465511413245594, -4.54690011113277]],
        'gx': [[2, 4, 5, 6, 7], -90.06806677355262, 3000.8051668055396, [0.8267786478716053, 0.2549659484184874, -0.8195800304569169, -1.7332363496732623]],
        'gw': [[6, 2, 3, 2, 3], 1.4675957720850192, 516167.16987016774, [-36.714594228291965, 12.035606369815476, 48.51277489590287, -68.8224462253164]],
        'gb': [[6], -15.485164250979194, 1276.9978606159675, [-14.54330630178589, 17.846258131424676, -8.213631760325365, -7.792707140380315]],
    },
    'conv3d_s1p(1, 0, 2)d1g1': {
        'y': [[2, 6, 5, 5, 9], -14.348294526917073, 55752.65430494349, [-2.887409977298674, -3.78490305293648, -3.9832170669873235, -2.634278470804937]],
        'gx': [[2, 4, 5, 6, 7], -137.75972593872268, 280565.0574609686, [-13.397375049510726, -6.129829989781519, 1.6043373370623026, 5.846502343602718]],
        'gw': [[6, 4, 3, 2, 3], -89.42027505253239, 20066.03875558311, [-7.390363265961053, -3.1097792347548667, 1.1093507337498392, -8.835365191881877]],
        'gb': [[6], 3.2522431419261424, 14.284287158469914, [-0.6195997431080933, -1.1878587440632504, -1.6072836943239512, -1.8413970842567555]],
    },
    'conv3d_s1p(1, 0, 2)d1g2': {
        'y': [[2, 6, 5, 5, 9], -67.53582001679436, 21049.540254435855, [-2.296000540063286, -2.719002172813212, -2.343383940212047, -1.0794709267725284]],
        'gx': [[2, 4, 5, 6, 7], -99.51633117565021, 169750.9569991708, [-5.317394419822676, -4.261598638782569, -1.6713651129616296, 1.024985610324002]],
        'gw': [[6, 2, 3, 2, 3], -4.276711181868819, 9910.311549457794, [-7.39036326596105, -3.1097792347548596, 1.1093507337498365, -8.835365191881868]],
        'gb': [[6], 3.2522431419261424, 14.284287158469914, [-0.6195997431080933, -1.1878587440632504, -1.6072836943239512, -1.8413970842567555]],
    },
    'conv3d_s1p(1, 0, 2)d(2, 1, 1)g1': {
        'y': [[2, 6, 3, 5, 9], -24.81162325693881, 39910.92612576696, [1.4181836833283565, 3.8989237603018387, 4.592874890762111, 4.722819424469052]],
        'gx': [[2, 4, 5, 6, 7], -71.44235017034794, 276543.3438927311, [4.712622090424254, 10.504611255155867, 10.754121012557025, 5.361657858872407]],
        'gw': [[6, 4, 3, 2, 3], 69.0145595809613, 5561.366400208245, [-1.0884176893633581, 1.6062002392789316, 5.145972318954177, -4.320684188648957]],
        'gb': [[6], 2.40884789470465, 44.20297075951955, [2.6560906313941866, -3.987357080441511, 2.9263826184351456, -3.444768885388748]],
    },
    'conv3d_s1p(1, 0, 2)d(2, 1, 1)g2': {
        'y': [[2, 6, 3, 5, 9], 9.512936869760441, 17501.713699187047, [0.5432455749004523, 1.9308706892950254, 1.605826876183802, 0.2809019376045012]],
        'gx': [[2, 4, 5, 6, 7], -28.76702393834975, 155489.92216314064, [0.09454125881295461, 5.724183851416523, 8.425957500177637, 6.90830413668014]],
        'gw': [[6, 2, 3, 2, 3], -23.624045251578718, 2692.2902466911964, [-1.08841768936336, 1.6062002392789365, 5.14597231895418, -4.320684188648958]],
        'gb': [[6], 2.40884789470465, 44.20297075951955, [2.6560906313941866, -3.987357080441511, 2.9263826184351456, -3.444768885388748]],
    },
    'conv3d_s2p0d1g1': {
        'y': [[2, 6, 2, 3, 3], -104.390626080262, 7067.596525089829, [-5.805849526592944, -6.535560725283647, -1.0670292198421716, 3.528494107696698]],
        'gx': [[2, 4, 5, 6, 7], 111.74492233869239, 109353.30624406326, [0.6666009691635179, -0.644891091863816, -3.1018645449663875, 3.2584183380209413]],
        'gw': [[6, 4, 3, 2, 3], -147.3509039024831, 5376.147704899924, [1.0754587564706866, -0.7913507401557268, -3.1373307760513596, -5.222662010150622]],
        'gb': [[6], 4.334853861052948, 622.0325604101528, [1.1697661311499243, -13.65076892236928, 11.202961380642911, 3.8003086658891534]],
    },
    'conv3d_s2p0d1g2': {
        'y': [[2, 6, 2, 3, 3], -48.5365774491103, 2502.4256259252847, [-5.193631348742281, -2.7888059545164396, 0.3642770737382941, 1.7112449578540856]],
        'gx': [[2, 4, 5, 6, 7], 36.73916823038452, 26158.65586115433, [0.37927410115372556, -0.5614786713065447, -2.4996519328245723, 1.4821345464987752]],
        'gw': [[6, 2, 3, 2, 3], -101.90117599173026, 2706.3462170303455, [1.0754587564706872, -0.7913507401557263, -3.1373307760513605, -5.222662010150623]],
        'gb': [[6], 4.334853861052948, 622.0325604101528, [1.1697661311499243, -13.65076892236928, 11.202961380642911, 3.8003086658891534]],
    },
    'conv3d_s2p0d(2, 1, 1)g1': {
        'y': [[2, 6, 1, 3, 3], -67.78633652427818, 3077.0333670405316, [-10.23846893204518, 1.5273709546194787, 7.528613832346313, 4.5820696899794235]],
        'gx': [[2, 4, 5, 6, 7], 14.417062570046824, 60412.25772385751, [0.04755751352557283, -1.386123174425178, -4.323273009937052, 2.5653403648335886]],
        'gw': [[6, 4, 3, 2, 3], -52.686214622768944, 2527.399753513011, [0.7034178679944073, 0.46819105275847234, -0.5989020457439851, -4.3841132745890405]],
        'gb': [[6], 26.80254356938738, 216.5426380217419, [4.096692533341464, -4.2641640597421535, -8.54858100264812, -4.6952774826429575]],
    },
    'conv3d_s2p0d(2, 1, 1)g2': {
        'y': [[2, 6, 1, 3, 3], -46.69426509562727, 1589.8725253095351, [-4.363140277623929, 2.964075540728904, 2.346843013882785, -1.0205233549188575]],
        'gx': [[2, 4, 5, 6, 7], 9.179281066183435, 18276.31521765807, [0.31948405102371846, -0.5688622758634612, -2.604479570518836, 1.5493148220267206]],
        'gw': [[6, 2, 3, 2, 3], -22.940290581153565, 1267.4011866652866, [0.7034178679944074, 0.46819105275847206, -0.5989020457439853, -4.3841132745890405]],
        'gb': [[6], 26.80254356938738, 216.5426380217419, [4.096692533341464, -4.2641640597421535, -8.54858100264812, -4.6952774826429575]],
    },
    'conv3d_s2p1d1g1': {
        'y': [[2, 6, 3, 4, 4], 47.26305714974154, 13778.440384324713, [-2.5001757112146668, 4.7574735563238635, -0.245342409065506, -6.153157145181342]],
        'gx': [[2, 4, 5, 6, 7], -9.075423614943844, 6067.465994788188, [0.2197191776515311, -0.2254760769628451, -0.3650768560481237, -0.8585639008552586]],
        'gw': [[6, 4, 3, 2, 3], 247.02806417504644, 17840.53835949661, [-8.667707091193233, -7.041699949044207, -5.858418582095682, 6.810147185496066]],
        'gb': [[6], 17.870802259475216, 356.55229321270997, [-9.664170001150971, -7.495759935978981, 3.008136577239352, -5.20169026326918]],
    },
    'conv3d_s2p1d1g2': {
        'y': [[2, 6, 3, 4, 4], 22.81932515098329, 6209.661209274914, [0.534200354771603, 1.8165597756909695, -4.506692819869274, -5.27303796650206]],
        'gx': [[2, 4, 5, 6, 7], -10.510800423560926, 4114.620247529655, [-0.7077379464049404, -1.4740957820656255, -1.0183293310534574, -1.7865475570821123]],
        'gw': [[6, 2, 3, 2, 3], 3.064277115598763, 8598.317507289912, [-8.667707091193233, -7.041699949044208, -5.858418582095682, 6.810147185496067]],
        'gb': [[6], 17.870802259475216, 356.55229321270997, [-9.664170001150971, -7.495759935978981, 3.008136577239352, -5.20169026326918]],
    },
    'conv3d_s2p1d(2, 1, 1)g1': {
        'y': [[2, 6, 2, 4, 4], 32.44256978516946, 6282.668824753417, [-0.8277637484243011, -7.0042570894613725, -6.502221397176501, -2.0401139521473715]],
        'gx': [[2, 4, 5, 6, 7], -105.77553348166444, 3651.917517842544, [0.0, 0.0, 0.0, 0.0]],
        'gw': [[6, 4, 3, 2, 3], 252.74139479895135, 35523.47301305296, [-9.368214287491538, -11.431090075811362, -17.297445991819437, 5.603878500169126]],
        'gb': [[6], -5.245411826894967, 74.55212394109707, [-3.746557278990238, 1.7296360394347943, 0.6205561230327099, -2.850357076444702]],
    },
    'conv3d_s2p1d(2, 1, 1)g2': {
        'y': [[2, 6, 2, 4, 4], -23.403223296357343, 2987.842099772488, [-3.4176354962744093, -5.465511413245594, -2.5169905355878104, -0.7410995388745523]],
        'gx': [[2, 4, 5, 6, 7], -60.61817458472905, 2289.9182551206277, [0.0, 0.0, 0.0, 0.0]],
        'gw': [[6, 2, 3, 2, 3], -12.68579903152343, 18486.920823874476, [-9.368214287491538, -11.431090075811362, -17.297445991819437, 5.603878500169127]],
        'gb': [[6], -5.245411826894967, 74.55212394109707, [-3.746557278990238, 1.7296360394347943, 0.6205561230327099, -2.850357076444702]],
    },
    'conv3d_s2p(1, 0, 2)d1g1': {
        'y': [[2, 6, 3, 3, 5], -214.01317512150123, 10183.600288117992, [-2.887409977298674, -3.9832170669873235, -0.1920897378481373, 3.643112823057542]],
        'gx': [[2, 4, 5, 6, 7], 163.13689117542583, 162182.71424811322, [-5.835414883987622, -7.225280166754927, -13.889531575787789, -11.216328762717055]],
        'gw': [[6, 4, 3, 2, 3], -63.88590482631966, 11511.438868908024, [-1.6536758216156642, 3.5457000460166026, 0.10895857700052305, 2.0294401708640097]],
        'gb': [[6], -25.08572274719306, 272.1327228978119, [-8.199960538895086, 0.24124754723577446, 8.463510201623503, 5.971507994198619]],
    },
    'conv3d_s2p(1, 0, 2)d1g2': {
        'y': [[2, 6, 3, 3, 5], -109.78454640924286, 3581.774804147924, [-2.296000540063286, -2.343383940212047, 0.15240897881038262, 0.6584429231468554]],
        'gx': [[2, 4, 5, 6, 7], 114.73780281339775, 54068.352724871176, [0.8887221210059711, -1.7720854945555466, -3.5086595262814027, -3.96436232601067]],
        'gw': [[6, 2, 3, 2, 3], -68.48156813358838, 5762.0753011436, [-1.6536758216156606, 3.545700046016603, 0.10895857700052392, 2.0294401708640173]],
        'gb': [[6], -25.08572274719306, 272.1327228978119, [-8.199960538895086, 0.24124754723577446, 8.463510201623503, 5.971507994198619]],
    },
    'conv3d_s2p(1, 0, 2)d(2, 1, 1)g1': {
        'y': [[2, 6, 2, 3, 5], 46.50616186811486, 7276.59476001243, [1.4181836833283565, 4.592874890762111, 2.002419858529983, -5.680379313137813]],
        'gx': [[2, 4, 5, 6, 7], 29.240525124473923, 1686.8378499075334, [0.0, 0.0, 0.0, 0.0]],
        'gw': [[6, 4, 3, 2, 3], 95.03615930602746, 9999.143762940104, [-7.079151011276181, -0.9212345988007457, -1.0686649147234928, 0.48617211667487925]],
        'gb': [[6], 4.474507997489276, 659.5101779052559, [-17.607106441677118, 10.23246891723375, -4.257703526442025, 4.209026186658334]],
    },
    'conv3d_s2p(1, 0, 2)d(2, 1, 1)g2': {
        'y': [[2, 6, 2, 3, 5], 29.53114569511312, 2854.668163187547, [0.5432455749004523, 1.605826876183802, -1.999480643260933, -4.916320664011879]],
        'gx': [[2, 4, 5, 6, 7], 4.896226483581048, 671.4719374900278, [0.0, 0.0, 0.0, 0.0]],
        'gw': [[6, 2, 3, 2, 3], -66.91535035166834, 5029.925148294575, [-7.079151011276183, -0.921234598800746, -1.0686649147234935, 0.48617211667487936]],
        'gb': [[6], 4.474507997489276, 659.5101779052559, [-17.607106441677118, 10.23246891723375, -4.257703526442025, 4.209026186658334]],
    },
    'conv3d_s(1, 2, 3)p0d1g1': {
        'y': [[2, 6, 3, 3, 2], -28.926335719697274, 7183.558099773666, [-5.805849526592944, -4.172841003631367, 3.528494107696698, -0.6133491954281911]],
        'gx': [[2, 4, 5, 6, 7], 26.21117163762716, 145993.16013798333, [0.6666009691635179, -0.644891091863816, -1.642664612516932, -1.4591999324494553]],
        'gw': [[6, 4, 3, 2, 3], -37.136839738278766, 295.5300710525476, [0.07475524798448445, -0.15642605391192374, -0.5141566591759439, -1.4417290596910854]],
        'gb': [[6], 4.334853861052948, 622.0325604101528, [1.1697661311499243, -13.65076892236928, 11.202961380642911, 3.8003086658891534]],
    },
    'conv3d_s(1, 2, 3)p0d1g2': {
        'y': [[2, 6, 3, 3, 2], -15.133141544661093, 2481.8027237254373, [-5.193631348742281, -0.8944447218904785, 1.7112449578540856, -3.1016626114667556]],
        'gx': [[2, 4, 5, 6, 7], 8.790888011129844, 40648.01975012028, [0.37927410115372556, -0.5614786713065447, -1.3158784057734245, -1.1837735270511476]],
        'gw': [[6, 2, 3, 2, 3], -25.42881287938595, 147.22390489408116, [0.07475524798448563, -0.15642605391192432, -0.5141566591759436, -1.4417290596910872]],
        'gb': [[6], 4.334853861052948, 622.0325604101528, [1.1697661311499243, -13.65076892236928, 11.202961380642911, 3.8003086658891534]],
    },
    'conv3d_s(1, 2, 3)p0d(2, 1, 1)g1': {
        'y': [[2, 6, 1, 3, 2], 20.761319525932837, 2226.49028298962, [-10.23846893204518, 6.503579711434317, 4.5820696899794235, -10.853256904556492]],
        'gx': [[2, 4, 5, 6, 7], -6.121642706231511, 1738.5786717348715, [0.5269479272851317, 0.9398124417466738, 0.6105953195788756, -0.09840028779608434]],
        'gw': [[6, 4, 3, 2, 3], -31.16237112020429, 426.82764067141244, [0.04824919619335734, -0.49457623133642, -1.2301840282617524, -1.2862097543166287]],
        'gb': [[6], -1.4169278851413114, 157.5079513576539, [-4.931542838066779, 5.994403896731494, 4.67759561965735, -8.460553474693029]],
    },
    'conv3d_s(1, 2, 3)p0d(2, 1, 1)g2': {
        'y': [[2, 6, 1, 3, 2], 22.223650341499145, 1104.3045283299145, [-4.363140277623929, 4.029569327315226, -1.0205233549188575, -6.698357656980264]],
        'gx': [[2, 4, 5, 6, 7], -2.48033599036421, 727.1776743449054, [-0.07160200693450625, -0.3394699911911587, -0.6071975016204045, -0.004856201623890444]],
        'gw': [[6, 2, 3, 2, 3], -23.245337889518197, 214.28503944279993, [0.048249196193357546, -0.4945762313364206, -1.2301840282617524, -1.2862097543166287]],
        'gb': [[6], -1.4169278851413114, 157.5079513576539, [-4.931542838066779, 5.994403896731494, 4.67759561965735, -8.460553474693029]],
    },
    'conv3d_s(1, 2, 3)p1d1g1': {
        'y': [[2, 6, 5, 4, 3], -23.980656476481116, 18588.462435703423, [-2.5001757112146668, 3.8578016353653903, -6.153157145181342, -0.07249683104929505]],
        'gx': [[2, 4, 5, 6, 7], -1.9057009517411654, 17072.622176219473, [4.980045224358004, 2.925257699826642, 4.701565206812557, 4.209868245520803]],
        'gw': [[6, 4, 3, 2, 3], 22.61789323205838, 17886.854185821383, [6.191041582580053, -0.16725718992747882, 3.746129272884373, 6.816077519637958]],
        'gb': [[6], 4.937906679367255, 162.38963065160772, [-6.769093339576352, 0.14664217742955432, 5.784622423532509, -5.640102817019724]],
    },
    'conv3d_s(1, 2, 3)p1d1g2': {
        'y': [[2, 6, 5, 4, 3], -19.51154305638461, 8241.007184726695, [0.534200354771603, -1.040328760031732, -5.27303796650206, -1.6993842746427632]],
        'gx': [[2, 4, 5, 6, 7], -6.433048466408303, 6970.188448278885, [2.2011360726612694, 0.4147707239899601, 3.3104114781999914, 2.1518951581059036]],
        'gw': [[6, 2, 3, 2, 3], -48.27322604745719, 8961.950749362015, [6.191041582580054, -0.16725718992748195, 3.74612927288437, 6.81607751963796]],
        'gb': [[6], 4.937906679367255, 162.38963065160772, [-6.769093339576352, 0.14664217742955432, 5.784622423532509, -5.640102817019724]],
    },
    'conv3d_s(1, 2, 3)p1d(2, 1, 1)g1': {
        'y': [[2, 6, 3, 4, 3], -24.043578063934262, 10066.455391551863, [-0.8277637484243011, -8.099698239311923, -2.0401139521473715, -3.1392098622934506]],
        'gx': [[2, 4, 5, 6, 7], 62.233582327656805, 117559.883394443, [5.220474721877391, -2.3402467187545226, 4.873921340099814, 2.7487576647991867]],
        'gw': [[6, 4, 3, 2, 3], -57.09195322910546, 13354.583248323797, [0.9684962935325948, 0.5639790386986676, 1.5600367725085995, 6.397403574591505]],
        'gb': [[6], -10.600874111152704, 748.138185732136, [-10.121840871525668, 14.790281194482382, -7.399873516483998, -5.712500323855773]],
    },
    'conv3d_s(1, 2, 3)p1d(2, 1, 1)g2': {
        'y': [[2, 6, 3, 4, 3], -7.603057070876613, 4233.914397272723, [-3.4176354962744093, -4.54690011113277, -0.7410995388745523, -0.30115733165636227]],
        'gx': [[2, 4, 5, 6, 7], 30.536812796430926, 31177.131950290168, [6.178392345799439, 2.0820832933201934, 4.154730817437419, 3.1787408244700828]],
        'gw': [[6, 2, 3, 2, 3], -33.34877698287092, 6731.600574902255, [0.9684962935325947, 0.5639790386986645, 1.5600367725085993, 6.3974035745915065]],
        'gb': [[6], -10.600874111152704, 748.138185732136, [-10.121840871525668, 14.790281194482382, -7.399873516483998, -5.712500323855773]],
    },
    'conv3d_s(1, 2, 3)p(1, 0, 2)d1g1': {
        'y': [[2, 6, 5, 3, 3], -7.4174715058336815, 11463.529156962846, [-2.887409977298674, -2.634278470804937, 3.643112823057542, -0.2293952209982088]],
        'gx': [[2, 4, 5, 6, 7], -14.853580527138954, 27357.579101230353, [0.6044987182491457, -8.053384436425155, -3.086458023418561, 3.108526086410757]],
        'gw': [[6, 4, 3, 2, 3], 17.195712086989047, 1222.9189072294898, [-0.85184704629077, -0.8569815888143538, 1.899588079666401, 0.4787351054190744]],
        'gb': [[6], -25.08572274719306, 272.1327228978119, [-8.199960538895086, 0.24124754723577446, 8.463510201623503, 5.971507994198619]],
    },
    'conv3d_s(1, 2, 3)p(1, 0, 2)d1g2': {
        'y': [[2, 6, 5, 3, 3], -2.1174796499957473, 4105.047565345711, [-2.296000540063286, -1.0794709267725284, 0.6584429231468554, -1.064044802852887]],
        'gx': [[2, 4, 5, 6, 7], -2.3424993837188843, 11077.54793229873, [-0.34111664638489936, -1.717117697326664, -0.5769439031721055, 1.1710192170327396]],
        'gw': [[6, 2, 3, 2, 3], 5.986491398164938, 604.8412215805836, [-0.8518470462907706, -0.8569815888143544, 1.8995880796664004, 0.4787351054190748]],
        'gb': [[6], -25.08572274719306, 272.1327228978119, [-8.199960538895086, 0.24124754723577446, 8.463510201623503, 5.971507994198619]],
    },
    'conv3d_s(1, 2, 3)p(1, 0, 2)d(2, 1, 1)g1': {
        'y': [[2, 6, 3, 3, 3], -27.46395187356761, 6802.646476677603, [1.4181836833283565, 4.722819424469052, -5.680379313137813, -5.348751521093672]],
        'gx': [[2, 4, 5, 6, 7], 33.374546068355926, 70905.86931193218, [-0.8943755500477315, -1.6175470405018149, 3.565789911606144, 6.730862092021937]],
        'gw': [[6, 4, 3, 2, 3], -37.46117818935569, 678.1661965164099, [-0.20459696564648744, -0.45153919342095633, -1.069252340755476, 0.08021205784060628]],
        'gb': [[6], -3.4843387925531886, 63.03741367935607, [-5.650415175736029, 4.334064169826526, -2.6856134111274437, 1.2700656649312891]],
    },
    'conv3d_s(1, 2, 3)p(1, 0, 2)d(2, 1, 1)g2': {
        'y': [[2, 6, 3, 3, 3], -19.57270840072235, 3163.9951652874106, [0.5432455749004523, 0.2809019376045012, -4.916320664011879, -3.649355834462639]],
        'gx': [[2, 4, 5, 6, 7], 11.799289168955909, 22703.551036071327, [-1.0801873417562657, -1.2476980246062586, 1.6072879186036475, 3.865848303837525]],
        'gw': [[6, 2, 3, 2, 3], -22.476945812167706, 341.00637487048834, [-0.2045969656464881, -0.4515391934209556, -1.0692523407554786, 0.08021205784060514]],
        'gb': [[6], -3.4843387925531886, 63.03741367935607, [-5.650415175736029, 4.334064169826526, -2.6856134111274437, 1.2700656649312891]],
    },
    'conv3d_nobias': {
        'y': [[2, 6, 2, 3, 3], -96.74218416577341, 6561.551379803348, [-4.175649535330828, -4.905360734021532, 0.563170771419942, 5.158694098958812]],
        'gx': [[2, 4, 5, 6, 7], 111.74492233869239, 109353.30624406326, [0.6666009691635179, -0.644891091863816, -3.1018645449663875, 3.2584183380209413]],
        'gw': [[6, 4, 3, 2, 3], -147.3509039024831, 5376.147704899924, [1.0754587564706866, -0.7913507401557268, -3.1373307760513596, -5.222662010150622]],
    },
    'conv3d_unbatched': {
        'y': [[6, 5, 7, 7], 10.25404139587792, 44200.983979526274, [-2.5001757112146668, 1.977486240103184, 4.7574735563238635, 3.8578016353653903]],
        'gx': [[4, 5, 6, 7], 19.562191833494992, 28273.192513136266, [-5.398736072538136, -5.738803655614137, -9.673317443687449, -10.14457754775938]],
        'gw': [[6, 4, 3, 2, 3], -36.9931480554279, 139197.285316048, [0.9265093955129944, 12.302499502549876, 28.711979553141383, -26.876999117452414]],
        'gb': [[6], -4.618602106323348, 202.726861713541, [-4.236456083737549, -4.695362551854339, 8.934968460799588, -7.090849403502821]],
    },
    'conv3d_same': {
        'y': [[2, 6, 5, 6, 7], 703.521236601945, 65983.69588268775, [-3.78490305293648, -3.9832170669873235, -2.634278470804937, -0.1920897378481373]],
        'gx': [[2, 4, 5, 6, 7], -376.8210698402491, 44834.750818939865, [0.46833911646716064, -3.8509636248182506, -7.461801350277859, -6.949870290130586]],
        'gw': [[6, 4, 3, 2, 3], 2471.083954129048, 16263058.905316658, [234.263555302427, 125.42136188498341, -70.15882685543158, 135.12086807036624]],
        'gb': [[6], -7.1454149615443185, 113.7702034112597, [-5.525062432763568, 7.408120312746261, 2.3338257616114486, -3.5099986645831684]],
    },
    'conv3d_same_even_dilated': {
        'y': [[2, 6, 5, 6, 7], -1247.26767917526, 147983.35428132216, [-3.8775685027610143, -4.655447998770171, -6.311684827707804, -21.246415943796297]],
        'gx': [[2, 4, 5, 6, 7], 271.24029211643426, 98095.13227124326, [7.570058533268098, 3.5627141883440308, -2.0440417202739627, -0.12016409565244901]],
        'gw': [[6, 4, 2, 4, 3], -802.2640271472037, 8707674.221575884, [35.213789480039516, -182.1171928474463, 69.75206356761414, -7.286487663589548]],
        'gb': [[6], -7.1454149615443185, 113.7702034112597, [-5.525062432763568, 7.408120312746261, 2.3338257616114486, -3.5099986645831684]],
    },
    'conv3d_valid': {
        'y': [[2, 6, 3, 5, 5], 13.568125034231953, 29768.215069233673, [-5.805849526592944, -7.150303212381747, -6.535560725283647, -4.172841003631367]],
        'gx': [[2, 4, 5, 6, 7], 0.5329878851609209, 25016.502181037904, [-0.683111854736965, -1.8925571987205108, -2.3332468592729088, -0.5485560293455349]],
        'gw': [[6, 4, 3, 2, 3], -3.9672074020293877, 20099.662645183973, [-0.7728727920295798, -1.6019532769738707, -4.306797307527919, 2.4961028852599494]],
        'gb': [[6], 13.04141668457287, 1204.0779517940537, [-12.826483366885572, -6.457946437177144, 20.31440572360406, -17.551734069217837]],
    },
    'conv3d_1x1x1': {
        'y': [[2, 5, 5, 6, 7], -139.9035041029066, 5132.985554022118, [-2.2057790503632093, -1.6311707883567799, -1.1682276286101647, -1.0844916047101372]],
        'gx': [[2, 4, 5, 6, 7], 110.34362415574267, 21099.325365099074, [5.771206743480623, 4.995795175091867, 1.7676723664228136, -2.4288728815099203]],
        'gw': [[5, 4, 1, 1, 1], -118.95749511339686, 229276.73258164967, [-142.45094310860642, 147.15578808881295, -91.59527060717633, -1.5229317540487557]],
        'gb': [[5], -14.87428595713914, 528.5005415096173, [-14.486576333121246, 2.084323320420665, 16.018669179322146, -7.044276491995954]],
    },
    'Conv3d_zeros_(1, 0, 2)': {
        'y': [[2, 6, 5, 5, 9], 104.14445403664392, 14167.32539673373, [3.784579237281966, 5.03391745995942, 4.988302792519691, 3.462426734818827]],
        'gx': [[2, 4, 5, 6, 7], 60.475730278898055, 104236.30103135994, [7.373359431773811, 5.065574478332372, 1.862392706679937, -0.43143317777870926]],
        'gw': [[6, 2, 3, 2, 3], -4.276711181868819, 9910.311549457794, [-7.39036326596105, -3.1097792347548596, 1.1093507337498365, -8.835365191881868]],
        'gb': [[6], 3.2522431419261424, 14.284287158469914, [-0.6195997431080933, -1.1878587440632504, -1.6072836943239512, -1.8413970842567555]],
    },
    'Conv3d_zeros_same': {
        'y': [[2, 6, 5, 6, 7], -326.0711082365164, 19569.35550315328, [5.03391745995942, 4.988302792519691, 3.462426734818827, 0.7147188171651745]],
        'gx': [[2, 4, 5, 6, 7], 49.49603158651192, 31130.878836985532, [-1.5387024717842568, -0.1633436625171818, 1.6120552059615076, 1.149832346259243]],
        'gw': [[6, 2, 3, 2, 3], 380.04305680589005, 8141583.2071907, [234.26355530242725, 125.42136188498321, -70.15882685543161, 135.1208680703663]],
        'gb': [[6], -7.1454149615443185, 113.7702034112597, [-5.525062432763568, 7.408120312746261, 2.3338257616114486, -3.5099986645831684]],
    },
    'Conv3d_zeros_valid': {
        'y': [[2, 6, 3, 5, 5], -14.641289777854835, 5626.329387324643, [2.065504790244595, 3.7821629536144368, 5.606698641836185, 6.772202848948574]],
        'gx': [[2, 4, 5, 6, 7], 13.407246959581098, 10273.114875867388, [0.0857171458661866, -0.0017172689768665261, -0.42544659847060623, -1.2306063814546988]],
        'gw': [[6, 2, 3, 2, 3], 22.63732621399237, 10047.803729627693, [-0.7728727920295828, -1.601953276973867, -4.306797307527924, 2.4961028852599525]],
        'gb': [[6], 13.04141668457287, 1204.0779517940537, [-12.826483366885572, -6.457946437177144, 20.31440572360406, -17.551734069217837]],
    },
    'Conv3d_reflect_(1, 0, 2)': {
        'y': [[2, 6, 5, 5, 9], 223.65366772090516, 28896.34566780848, [11.264091156620555, 9.25445796308612, 6.200449528882277, 4.5296064918889005]],
        'gx': [[2, 4, 5, 6, 7], 90.32636204172414, 187017.982902275, [7.373359431773811, 9.118543819899148, 1.8720125566548105, -0.43143317777870926]],
        'gw': [[6, 2, 3, 2, 3], 49.115079967309995, 18471.215727632214, [-9.14750707306465, -9.441032858464677, -3.4348415874956433, 0.14713979601822125]],
        'gb': [[6], 3.2522431419261424, 14.284287158469914, [-0.6195997431080933, -1.1878587440632504, -1.6072836943239512, -1.8413970842567555]],
    },
    'Conv3d_reflect_same': {
        'y': [[2, 6, 5, 6, 7], -318.3133555472159, 43284.9557855215, [9.25445796308612, 6.200449528882277, 4.5296064918889005, 0.7568701320107148]],
        'gx': [[2, 4, 5, 6, 7], 166.181278118649, 31537.206162074697, [-1.5387024717842568, -1.4599541630594186, 1.6120552059615076, 1.149832346259243]],
        'gw': [[6, 2, 3, 2, 3], 477.6585148479071, 6551473.559751952, [168.97227259889033, 57.10381679507914, -70.48938104021363, 155.26254393904992]],
        'gb': [[6], -7.1454149615443185, 113.7702034112597, [-5.525062432763568, 7.408120312746261, 2.3338257616114486, -3.5099986645831684]],
    },
    'Conv3d_reflect_valid': {
        'y': [[2, 6, 3, 5, 5], -14.641289777854835, 5626.329387324643, [2.065504790244595, 3.7821629536144368, 5.606698641836185, 6.772202848948574]],
        'gx': [[2, 4, 5, 6, 7], 13.407246959581098, 10273.114875867388, [0.0857171458661866, -0.0017172689768665261, -0.42544659847060623, -1.2306063814546988]],
        'gw': [[6, 2, 3, 2, 3], 22.63732621399237, 10047.803729627693, [-0.7728727920295828, -1.601953276973867, -4.306797307527924, 2.4961028852599525]],
        'gb': [[6], 13.04141668457287, 1204.0779517940537, [-12.826483366885572, -6.457946437177144, 20.31440572360406, -17.551734069217837]],
    },
    'Conv3d_replicate_(1, 0, 2)': {
        'y': [[2, 6, 5, 5, 9], 218.69620217603335, 20025.902725299602, [10.341254839123545, 8.404815205305423, 5.4514206983392395, 2.603671508310086]],
        'gx': [[2, 4, 5, 6, 7], 160.22150302657596, 386540.9079396638, [6.544770938012917, -6.00371576210241, -9.407781682051992, -5.879510658511243]],
        'gw': [[6, 2, 3, 2, 3], 1.767784321763358, 42540.70710649465, [-6.1827711776095375, -1.5945745268646467, 0.8569175494996282, -27.64834944612278]],
        'gb': [[6], 3.2522431419261424, 14.284287158469914, [-0.6195997431080933, -1.1878587440632504, -1.6072836943239512, -1.8413970842567555]],
    },
    'Conv3d_replicate_same': {
        'y': [[2, 6, 5, 6, 7], -215.32059734463294, 22639.747874984547, [8.404815205305423, 5.4514206983392395, 2.603671508310086, -0.674339469835377]],
        'gx': [[2, 4, 5, 6, 7], -58.22106896253186, 38636.07159835028, [-0.8949954684833883, 2.1756595136207832, 2.323464719652419, 1.0090913339376983]],
        'gw': [[6, 2, 3, 2, 3], 210.11305849477571, 9096160.79881484, [265.45175731788106, 174.18321908230845, 15.207637319253081, 159.74638412193892]],
        'gb': [[6], -7.1454149615443185, 113.7702034112597, [-5.525062432763568, 7.408120312746261, 2.3338257616114486, -3.5099986645831684]],
    },
    'Conv3d_replicate_valid': {
        'y': [[2, 6, 3, 5, 5], -14.641289777854835, 5626.329387324643, [2.065504790244595, 3.7821629536144368, 5.606698641836185, 6.772202848948574]],
        'gx': [[2, 4, 5, 6, 7], 13.407246959581098, 10273.114875867388, [0.0857171458661866, -0.0017172689768665261, -0.42544659847060623, -1.2306063814546988]],
        'gw': [[6, 2, 3, 2, 3], 22.63732621399237, 10047.803729627693, [-0.7728727920295828, -1.601953276973867, -4.306797307527924, 2.4961028852599525]],
        'gb': [[6], 13.04141668457287, 1204.0779517940537, [-12.826483366885572, -6.457946437177144, 20.31440572360406, -17.551734069217837]],
    },
    'Conv3d_circular_(1, 0, 2)': {
        'y': [[2, 6, 5, 5, 9], 31.7856697497959, 17376.3764933256, [-1.4089808485047999, 4.301736579130099, 8.122890566468557, 5.94452956119331]],
        'gx': [[2, 4, 5, 6, 7], -83.06170450799631, 118938.38161235179, [7.2080215823368174, 7.868218090386402, 4.74231230383734, 5.061645348384442]],
        'gw': [[6, 2, 3, 2, 3], -160.95985387894845, 19342.95390329435, [-17.797462672780448, -11.16948791219018, 4.670595484081443, -4.779415860159993]],
        'gb': [[6], 3.2522431419261424, 14.284287158469914, [-0.6195997431080933, -1.1878587440632504, -1.6072836943239512, -1.8413970842567555]],
    },
    'Conv3d_circular_same': {
        'y': [[2, 6, 5, 6, 7], -216.2426926246536, 28885.56467349351, [4.301736579130099, 8.122890566468557, 5.94452956119331, 1.7164750915391807]],
        'gx': [[2, 4, 5, 6, 7], 110.13600274795026, 39656.29800793035, [0.9049689888326478, 0.15933531417292185, -1.199611335167153, -3.217063155817227]],
        'gw': [[6, 2, 3, 2, 3], 280.46787839040553, 6687482.9161593495, [193.57169518084322, 64.68411386057554, -121.63634210731286, 134.28357668608388]],
        'gb': [[6], -7.1454149615443185, 113.7702034112597, [-5.525062432763568, 7.408120312746261, 2.3338257616114486, -3.5099986645831684]],
    },
    'Conv3d_circular_valid': {
        'y': [[2, 6, 3, 5, 5], -14.641289777854835, 5626.329387324643, [2.065504790244595, 3.7821629536144368, 5.606698641836185, 6.772202848948574]],
        'gx': [[2, 4, 5, 6, 7], 13.407246959581098, 10273.114875867388, [0.0857171458661866, -0.0017172689768665261, -0.42544659847060623, -1.2306063814546988]],
        'gw': [[6, 2, 3, 2, 3], 22.63732621399237, 10047.803729627693, [-0.7728727920295828, -1.601953276973867, -4.306797307527924, 2.4961028852599525]],
        'gb': [[6], 13.04141668457287, 1204.0779517940537, [-12.826483366885572, -6.457946437177144, 20.31440572360406, -17.551734069217837]],
    },
    'max_pool3d_k2sNonep0d1c0': {
        'y': [[2, 4, 2, 3, 3], 2.262219648092935, 338.35787871310976, [1.7483257479167602, 1.5811341894863973, 1.898090739778708, 1.0520938470996546]],
        'gx': [[2, 4, 5, 6, 7], -17.33922579676869, 177.5211447677058, [0.7112859983220238, 0.0, 0.0, 0.0]],
        'idx': [[2, 4, 2, 3, 3], 1690.8113282537342, 1330993.0, [0.0, 45.0, 54.0, 63.0]],
    },
    'avg_pool3d_k2sNonep0c0cip1divNone': {
        'y': [[2, 4, 2, 3, 3], 0.41948188161894895, 24.395888835380283, [0.04015779268448329, 0.5829296102599764, 0.16970104102380143, -0.24998722204687485]],
        'gx': [[2, 4, 5, 6, 7], -1.47968599412278, 22.19014309596323, [0.08891074979025297, 0.08891074979025297, -0.043599699303847606, -0.043599699303847606]],
    },
    'avg_pool3d_k2sNonep0c0cip0divNone': {
        'y': [[2, 4, 2, 3, 3], 0.41948188161894895, 24.395888835380283, [0.04015779268448329, 0.5829296102599764, 0.16970104102380143, -0.24998722204687485]],
        'gx': [[2, 4, 5, 6, 7], -1.47968599412278, 22.19014309596323, [0.08891074979025297, 0.08891074979025297, -0.043599699303847606, -0.043599699303847606]],
    },
    'avg_pool3d_k2sNonep0c0cip1div5': {
        'y': [[2, 4, 2, 3, 3], 0.6711710105903173, 62.45347541857353, [0.06425246829517325, 0.9326873764159622, 0.2715216656380823, -0.39997955527499973]],
        'gx': [[2, 4, 5, 6, 7], -2.3674975905964475, 56.80676632566586, [0.14225719966440475, 0.14225719966440475, -0.06975951888615617, -0.06975951888615617]],
    },
    'max_pool3d_k2sNonep0d1c1': {
        'y': [[2, 4, 3, 3, 4], -19.735138745607575, 566.445206209535, [1.7483257479167602, 1.5811341894863973, 1.898090739778708, 1.5368014425978345]],
        'gx': [[2, 4, 5, 6, 7], 15.124880045717191, 356.62786308942333, [0.7112859983220238, 0.0, 0.0, 0.0]],
        'idx': [[2, 4, 3, 3, 4], 3704.6497778648104, 5237395.0, [0.0, 45.0, 54.0, 55.0]],
    },
    'avg_pool3d_k2sNonep0c1cip1divNone': {
        'y': [[2, 4, 3, 3, 4], -5.752760755984189, 91.06579693685846, [0.04015779268448329, 0.5829296102599764, 0.16970104102380143, -0.4246502320246045]],
        'gx': [[2, 4, 5, 6, 7], 7.678196349974927, 73.04406550264653, [0.08891074979025297, 0.08891074979025297, -0.043599699303847606, -0.043599699303847606]],
    },
    'avg_pool3d_k2sNonep0c1cip0divNone': {
        'y': [[2, 4, 3, 3, 4], -5.752760755984189, 91.06579693685846, [0.04015779268448329, 0.5829296102599764, 0.16970104102380143, -0.4246502320246045]],
        'gx': [[2, 4, 5, 6, 7], 7.678196349974927, 73.04406550264653, [0.08891074979025297, 0.08891074979025297, -0.043599699303847606, -0.043599699303847606]],
    },
    'avg_pool3d_k2sNonep0c1cip1div5': {
        'y': [[2, 4, 3, 3, 4], -5.614485658195237, 99.37965677593863, [0.06425246829517325, 0.9326873764159622, 0.2715216656380823, -0.3397201856196836]],
        'gx': [[2, 4, 5, 6, 7], 7.413874782221497, 80.29344176234667, [0.14225719966440475, 0.14225719966440475, -0.06975951888615617, -0.06975951888615617]],
    },
    'max_pool3d_k2sNonep0d(2, 1, 2)c0': {
        'y': [[2, 4, 2, 3, 3], 2.38294289518735, 344.717570074125, [1.7483257479167602, 0.9851436048374693, 1.1023006497476977, 1.6760382874519586]],
        'gx': [[2, 4, 5, 6, 7], -17.178427312491415, 324.38385994579284, [0.7112859983220238, 0.0, 0.0, 0.0]],
        'idx': [[2, 4, 2, 3, 3], 1892.1674025717023, 2141055.0, [0.0, 9.0, 90.0, 107.0]],
    },
    'max_pool3d_k2sNonep0d(2, 1, 2)c1': {
        'y': [[2, 4, 2, 3, 3], 2.38294289518735, 344.717570074125, [1.7483257479167602, 0.9851436048374693, 1.1023006497476977, 1.6760382874519586]],
        'gx': [[2, 4, 5, 6, 7], -17.178427312491415, 324.38385994579284, [0.7112859983220238, 0.0, 0.0, 0.0]],
        'idx': [[2, 4, 2, 3, 3], 1892.1674025717023, 2141055.0, [0.0, 9.0, 90.0, 107.0]],
    },
    'max_pool3d_k2sNonep1d1c0': {
        'y': [[2, 4, 3, 4, 4], 4.385797306033752, 653.9355380282273, [1.7483257479167602, 1.4638165491636963, -0.5796740661281461, -1.3003845780484178]],
        'gx': [[2, 4, 5, 6, 7], -32.931335260997294, 475.91372162495446, [0.7112859983220238, -0.34879759443078084, 0.0, -1.0904068005441265]],
        'idx': [[2, 4, 3, 4, 4], -519.0495356613279, 4703548.0, [0.0, 1.0, 3.0, 6.0]],
    },
    'avg_pool3d_k2sNonep1c0cip1divNone': {
        'y': [[2, 4, 3, 4, 4], 1.269104974398976, 36.60459878516795, [0.21854071848959503, 0.2531946657811598, -0.2563217262690226, -0.3799148957245486]],
        'gx': [[2, 4, 5, 6, 7], -6.281723708225011, 32.78187500638735, [0.08891074979025297, -0.043599699303847606, -0.043599699303847606, -0.13630085006801582]],
    },
    'avg_pool3d_k2sNonep1c0cip0divNone': {
        'y': [[2, 4, 3, 4, 4], 4.592813684768309, 182.85010682933358, [1.7483257479167602, 1.0127786631246392, -1.0252869050760904, -1.5196595828981945]],
        'gx': [[2, 4, 5, 6, 7], -18.818888742941, 147.7874980623904, [0.7112859983220238, -0.17439879721539042, -0.17439879721539042, -0.5452034002720633]],
    },
    'avg_pool3d_k2sNonep1c0cip1div5': {
        'y': [[2, 4, 3, 4, 4], 2.0305679590383607, 93.70777289002994, [0.34966514958335204, 0.40511146524985564, -0.4101147620304362, -0.6078638331592778]],
        'gx': [[2, 4, 5, 6, 7], -10.050757933160018, 83.92160001635162, [0.14225719966440475, -0.06975951888615617, -0.06975951888615617, -0.2180813601088253]],
    },
    'max_pool3d_k2sNonep1d1c1': {
        'y': [[2, 4, 3, 4, 4], 4.385797306033752, 653.9355380282273, [1.7483257479167602, 1.4638165491636963, -0.5796740661281461, -1.3003845780484178]],
        'gx': [[2, 4, 5, 6, 7], -32.931335260997294, 475.91372162495446, [0.7112859983220238, -0.34879759443078084, 0.0, -1.0904068005441265]],
        'idx': [[2, 4, 3, 4, 4], -519.0495356613279, 4703548.0, [0.0, 1.0, 3.0, 6.0]],
    },
    'avg_pool3d_k2sNonep1c1cip1divNone': {
        'y': [[2, 4, 3, 4, 4], 1.269104974398976, 36.60459878516795, [0.21854071848959503, 0.2531946657811598, -0.2563217262690226, -0.3799148957245486]],
        'gx': [[2, 4, 5, 6, 7], -6.281723708225011, 32.78187500638735, [0.08891074979025297, -0.043599699303847606, -0.043599699303847606, -0.13630085006801582]],
    },
    'avg_pool3d_k2sNonep1c1cip0divNone': {
        'y': [[2, 4, 3, 4, 4], 4.592813684768309, 182.85010682933358, [1.7483257479167602, 1.0127786631246392, -1.0252869050760904, -1.5196595828981945]],
        'gx': [[2, 4, 5, 6, 7], -18.818888742941, 147.7874980623904, [0.7112859983220238, -0.17439879721539042, -0.17439879721539042, -0.5452034002720633]],
    },
    'avg_pool3d_k2sNonep1c1cip1div5': {
        'y': [[2, 4, 3, 4, 4], 2.0305679590383607, 93.70777289002994, [0.34966514958335204, 0.40511146524985564, -0.4101147620304362, -0.6078638331592778]],
        'gx': [[2, 4, 5, 6, 7], -10.050757933160018, 83.92160001635162, [0.14225719966440475, -0.06975951888615617, -0.06975951888615617, -0.2180813601088253]],
    },
    'max_pool3d_k2sNonep1d(2, 1, 2)c0': {
        'y': [[2, 4, 3, 4, 4], 20.725975051057237, 603.2713734545274, [-0.01105011329893002, 1.5811341894863973, 1.5811341894863973, 0.6751499383173203]],
        'gx': [[2, 4, 5, 6, 7], 16.52098733225263, 785.1068605711239, [0.0, 0.0, 0.0, 0.0]],
        'idx': [[2, 4, 3, 4, 4], -1021.1039052204053, 4919137.0, [43.0, 45.0, 45.0, 47.0]],
    },
    'max_pool3d_k2sNonep1d(2, 1, 2)c1': {
        'y': [[2, 4, 3, 4, 4], 20.725975051057237, 603.2713734545274, [-0.01105011329893002, 1.5811341894863973, 1.5811341894863973, 0.6751499383173203]],
        'gx': [[2, 4, 5, 6, 7], 16.52098733225263, 785.1068605711239, [0.0, 0.0, 0.0, 0.0]],
        'idx': [[2, 4, 3, 4, 4], -1021.1039052204053, 4919137.0, [43.0, 45.0, 45.0, 47.0]],
    },
    'max_pool3d_k2s1p0d1c0': {
        'y': [[2, 4, 4, 5, 6], 21.450704178911284, 2294.847707743646, [1.7483257479167602, 1.4638165491636963, 1.5811341894863973, 1.5811341894863973]],
        'gx': [[2, 4, 5, 6, 7], 16.89178360981579, 1039.3165376165612, [0.7112859983220238, -0.34879759443078084, 0.0, 0.0]],
        'idx': [[2, 4, 4, 5, 6], -1839.5665771651234, 13177010.0, [0.0, 1.0, 45.0, 45.0]],
    },
    'avg_pool3d_k2s1p0c0cip1divNone': {
        'y': [[2, 4, 4, 5, 6], 25.951929433659263, 160.75074455702304, [0.04015779268448329, 0.4046609876420184, 0.5829296102599764, 0.4904008412181553]],
        'gx': [[2, 4, 5, 6, 7], 35.10769438312773, 91.3064081633752, [0.08891074979025297, 0.045311050486405366, -0.17990054937186342, -0.28439703035373914]],
    },
    'avg_pool3d_k2s1p0c0cip0divNone': {
        'y': [[2, 4, 4, 5, 6], 25.951929433659263, 160.75074455702304, [0.04015779268448329, 0.4046609876420184, 0.5829296102599764, 0.4904008412181553]],
        'gx': [[2, 4, 5, 6, 7], 35.10769438312773, 91.3064081633752, [0.08891074979025297, 0.045311050486405366, -0.17990054937186342, -0.28439703035373914]],
    },
    'avg_pool3d_k2s1p0c0cip1div5': {
        'y': [[2, 4, 4, 5, 6], 41.52308709385481, 411.521906065979, [0.06425246829517325, 0.6474575802272294, 0.9326873764159622, 0.7846413459490484]],
        'gx': [[2, 4, 5, 6, 7], 56.17231101300437, 233.7444048982405, [0.14225719966440475, 0.07249768077824859, -0.28784087899498145, -0.45503524856598265]],
    },
    'max_pool3d_k2s1p0d1c1': {
        'y': [[2, 4, 4, 5, 6], 21.450704178911284, 2294.847707743646, [1.7483257479167602, 1.4638165491636963, 1.5811341894863973, 1.5811341894863973]],
        'gx': [[2, 4, 5, 6, 7], 16.89178360981579, 1039.3165376165612, [0.7112859983220238, -0.34879759443078084, 0.0, 0.0]],
        'idx': [[2, 4, 4, 5, 6], -1839.5665771651234, 13177010.0, [0.0, 1.0, 45.0, 45.0]],
    },
    'avg_pool3d_k2s1p0c1cip1divNone': {
        'y': [[2, 4, 4, 5, 6], 25.951929433659263, 160.75074455702304, [0.04015779268448329, 0.4046609876420184, 0.5829296102599764, 0.4904008412181553]],
        'gx': [[2, 4, 5, 6, 7], 35.10769438312773, 91.3064081633752, [0.08891074979025297, 0.045311050486405366, -0.17990054937186342, -0.28439703035373914]],
    },
    'avg_pool3d_k2s1p0c1cip0divNone': {
        'y': [[2, 4, 4, 5, 6], 25.951929433659263, 160.75074455702304, [0.04015779268448329, 0.4046609876420184, 0.5829296102599764, 0.4904008412181553]],
        'gx': [[2, 4, 5, 6, 7], 35.10769438312773, 91.3064081633752, [0.08891074979025297, 0.045311050486405366, -0.17990054937186342, -0.28439703035373914]],
    },
    'avg_pool3d_k2s1p0c1cip1div5': {
        'y': [[2, 4, 4, 5, 6], 41.52308709385481, 411.521906065979, [0.06425246829517325, 0.6474575802272294, 0.9326873764159622, 0.7846413459490484]],
        'gx': [[2, 4, 5, 6, 7], 56.17231101300437, 233.7444048982405, [0.14225719966440475, 0.07249768077824859, -0.28784087899498145, -0.45503524856598265]],
    },
    'max_pool3d_k2s1p0d(2, 1, 2)c0': {
        'y': [[2, 4, 3, 5, 5], 8.493888575721343, 1510.9433254950136, [1.7483257479167602, 1.4638165491636963, 0.9851436048374693, 0.8250259457687809]],
        'gx': [[2, 4, 5, 6, 7], -1.8271179250684702, 536.9787354803693, [0.7112859983220238, -0.34879759443078084, 0.0, 0.0]],
        'idx': [[2, 4, 3, 5, 5], 1081.8202746316454, 8529036.0, [0.0, 1.0, 9.0, 89.0]],
    },
    'max_pool3d_k2s1p0d(2, 1, 2)c1': {
        'y': [[2, 4, 3, 5, 5], 8.493888575721343, 1510.9433254950136, [1.7483257479167602, 1.4638165491636963, 0.9851436048374693, 0.8250259457687809]],
        'gx': [[2, 4, 5, 6, 7], -1.8271179250684702, 536.9787354803693, [0.7112859983220238, -0.34879759443078084, 0.0, 0.0]],
        'idx': [[2, 4, 3, 5, 5], 1081.8202746316454, 8529036.0, [0.0, 1.0, 9.0, 89.0]],
    },
    'max_pool3d_k2s1p1d1c0': {
        'y': [[2, 4, 6, 7, 8], 1.8423098994381242, 4902.889262465216, [1.7483257479167602, 1.7483257479167602, 1.4638165491636963, 0.561740777085582]],
        'gx': [[2, 4, 5, 6, 7], -74.42804164981342, 8758.266346003285, [-2.814052168450891, -3.8592560964224822, -1.1847694422857866, -0.6092379858634537]],
        'idx': [[2, 4, 6, 7, 8], 1429.4442354785192, 40916108.0, [0.0, 0.0, 1.0, 2.0]],
    },
    'avg_pool3d_k2s1p1c0cip1divNone': {
        'y': [[2, 4, 6, 7, 8], 48.208505458250684, 304.21002091807134, [0.21854071848959503, 0.40151778713505704, 0.2531946657811598, -0.0022416611303205103]],
        'gx': [[2, 4, 5, 6, 7], -41.7292464076679, 971.3585834633869, [-0.35175652105636135, -0.8228700982809504, -0.8641372184822143, -0.479076925232198]],
    },
    'avg_pool3d_k2s1p1c0cip0divNone': {
        'y': [[2, 4, 6, 7, 8], 60.55588468979476, 1111.3947471242905, [1.7483257479167602, 1.6060711485402281, 1.0127786631246392, -0.008966644521282041]],
        'gx': [[2, 4, 5, 6, 7], -64.74472103562202, 2944.517897040845, [-0.04307000932619395, -1.6215863836433906, -1.9987145926135899, -1.3131838628305803]],
    },
    'avg_pool3d_k2s1p1c0cip1div5': {
        'y': [[2, 4, 6, 7, 8], 77.1336087332011, 778.7776535502626, [0.34966514958335204, 0.6424284594160913, 0.40511146524985564, -0.0035866578085128166]],
        'gx': [[2, 4, 5, 6, 7], -66.76679425226862, 2486.6779736662706, [-0.5628104336901781, -1.3165921572495207, -1.382619549571543, -0.7665230803715171]],
    },
    'max_pool3d_k2s1p1d1c1': {
        'y': [[2, 4, 6, 7, 8], 1.8423098994381242, 4902.889262465216, [1.7483257479167602, 1.7483257479167602, 1.4638165491636963, 0.561740777085582]],
        'gx': [[2, 4, 5, 6, 7], -74.42804164981342, 8758.266346003285, [-2.814052168450891, -3.8592560964224822, -1.1847694422857866, -0.6092379858634537]],
        'idx': [[2, 4, 6, 7, 8], 1429.4442354785192, 40916108.0, [0.0, 0.0, 1.0, 2.0]],
    },
    'avg_pool3d_k2s1p1c1cip1divNone': {
        'y': [[2, 4, 6, 7, 8], 48.208505458250684, 304.21002091807134, [0.21854071848959503, 0.40151778713505704, 0.2531946657811598, -0.0022416611303205103]],
        'gx': [[2, 4, 5, 6, 7], -41.7292464076679, 971.3585834633869, [-0.35175652105636135, -0.8228700982809504, -0.8641372184822143, -0.479076925232198]],
    },
    'avg_pool3d_k2s1p1c1cip0divNone': {
        'y': [[2, 4, 6, 7, 8], 60.55588468979476, 1111.3947471242905, [1.7483257479167602, 1.6060711485402281, 1.0127786631246392, -0.008966644521282041]],
        'gx': [[2, 4, 5, 6, 7], -64.74472103562202, 2944.517897040845, [-0.04307000932619395, -1.6215863836433906, -1.9987145926135899, -1.3131838628305803]],
    },
    'avg_pool3d_k2s1p1c1cip1div5': {
        'y': [[2, 4, 6, 7, 8], 77.1336087332011, 778.7776535502626, [0.34966514958335204, 0.6424284594160913, 0.40511146524985564, -0.0035866578085128166]],
        'gx': [[2, 4, 5, 6, 7], -66.76679425226862, 2486.6779736662706, [-0.5628104336901781, -1.3165921572495207, -1.382619549571543, -0.7665230803715171]],
    },
    'max_pool3d_k2s1p1d(2, 1, 2)c0': {
        'y': [[2, 4, 5, 7, 7], 20.814998777875115, 3724.244016366795, [-0.01105011329893002, 1.0334784723693642, 1.5811341894863973, 1.4215545888539998]],
        'gx': [[2, 4, 5, 6, 7], 0.8853886778019557, 4524.544835440049, [-0.23559393427470576, 0.014308576854400401, 1.974573417912677, 0.0]],
        'idx': [[2, 4, 5, 7, 7], -104.21523789508501, 26715614.0, [43.0, 44.0, 45.0, 46.0]],
    },
    'max_pool3d_k2s1p1d(2, 1, 2)c1': {
        'y': [[2, 4, 5, 7, 7], 20.814998777875115, 3724.244016366795, [-0.01105011329893002, 1.0334784723693642, 1.5811341894863973, 1.4215545888539998]],
        'gx': [[2, 4, 5, 6, 7], 0.8853886778019557, 4524.544835440049, [-0.23559393427470576, 0.014308576854400401, 1.974573417912677, 0.0]],
        'idx': [[2, 4, 5, 7, 7], -104.21523789508501, 26715614.0, [43.0, 44.0, 45.0, 46.0]],
    },
    'max_pool3d_k2s(2, 1, 3)p0d1c0': {
        'y': [[2, 4, 2, 5, 2], 8.6264501579657, 370.6781225420125, [1.7483257479167602, 1.5811341894863973, 0.5889872735089299, 1.6599926438980432]],
        'gx': [[2, 4, 5, 6, 7], -9.25312920483373, 208.61126570978087, [0.7112859983220238, 0.0, 0.0, 0.0]],
        'idx': [[2, 4, 2, 5, 2], -279.23329643771626, 1482752.0, [0.0, 45.0, 56.0, 18.0]],
    },
    'avg_pool3d_k2s(2, 1, 3)p0c0cip1divNone': {
        'y': [[2, 4, 2, 5, 2], 1.5346357698111728, 27.041563632515984, [0.04015779268448329, 0.4904008412181553, -0.5671009408894214, 0.3917730355762601]],
        'gx': [[2, 4, 5, 6, 7], -0.5935808766355554, 29.514416068019628, [0.08891074979025297, 0.08891074979025297, 0.0, -0.043599699303847606]],
    },
    'avg_pool3d_k2s(2, 1, 3)p0c0cip0divNone': {
        'y': [[2, 4, 2, 5, 2], 1.5346357698111728, 27.041563632515984, [0.04015779268448329, 0.4904008412181553, -0.5671009408894214, 0.3917730355762601]],
        'gx': [[2, 4, 5, 6, 7], -0.5935808766355554, 29.514416068019628, [0.08891074979025297, 0.08891074979025297, 0.0, -0.043599699303847606]],
    },
    'avg_pool3d_k2s(2, 1, 3)p0c0cip1div5': {
        'y': [[2, 4, 2, 5, 2], 2.4554172316978766, 69.22640289924092, [0.06425246829517325, 0.7846413459490484, -0.9073615054230743, 0.6268368569220162]],
        'gx': [[2, 4, 5, 6, 7], -0.9497294026168881, 75.55690513413025, [0.14225719966440475, 0.14225719966440475, 0.0, -0.06975951888615617]],
    },
    'max_pool3d_k2s(2, 1, 3)p0d1c1': {
        'y': [[2, 4, 3, 5, 3], -16.252537694555425, 689.0844809337162, [1.7483257479167602, 1.5811341894863973, 1.5368014425978345, 0.5889872735089299]],
        'gx': [[2, 4, 5, 6, 7], -1.660841093118825, 362.9856575702589, [0.7112859983220238, 0.0, 0.0, 0.0]],
        'idx': [[2, 4, 3, 5, 3], 3969.591608782026, 6555104.0, [0.0, 45.0, 55.0, 56.0]],
    },
    'avg_pool3d_k2s(2, 1, 3)p0c1cip1divNone': {
        'y': [[2, 4, 3, 5, 3], 0.6166157142429203, 120.58470484014529, [0.04015779268448329, 0.4904008412181553, -0.4246502320246045, -0.5671009408894214]],
        'gx': [[2, 4, 5, 6, 7], -0.14682949609949847, 68.9927707764009, [0.08891074979025297, 0.08891074979025297, 0.0, -0.043599699303847606]],
    },
    'avg_pool3d_k2s(2, 1, 3)p0c1cip0divNone': {
        'y': [[2, 4, 3, 5, 3], 0.6166157142429203, 120.58470484014529, [0.04015779268448329, 0.4904008412181553, -0.4246502320246045, -0.5671009408894214]],
        'gx': [[2, 4, 5, 6, 7], -0.14682949609949847, 68.9927707764009, [0.08891074979025297, 0.08891074979025297, 0.0, -0.043599699303847606]],
    },
    'avg_pool3d_k2s(2, 1, 3)p0c1cip1div5': {
        'y': [[2, 4, 3, 5, 3], -6.282842743220434, 117.90161370304155, [0.06425246829517325, 0.7846413459490484, -0.3397201856196836, -0.9073615054230743]],
        'gx': [[2, 4, 5, 6, 7], 0.034872248868071054, 68.88731268724321, [0.14225719966440475, 0.14225719966440475, 0.0, -0.06975951888615617]],
    },
    'max_pool3d_k2s(2, 1, 3)p0d(2, 1, 2)c0': {
        'y': [[2, 4, 2, 5, 2], 3.4650591275548726, 404.57924189905594, [1.7483257479167602, 0.8250259457687809, 1.152483295394017, 1.54330563810404]],
        'gx': [[2, 4, 5, 6, 7], 0.27101046803169204, 238.67183358708317, [0.7112859983220238, 0.0, 0.0, 0.0]],
        'idx': [[2, 4, 2, 5, 2], -626.1329696408244, 2359133.0, [0.0, 89.0, 100.0, 19.0]],
    },
    'max_pool3d_k2s(2, 1, 3)p0d(2, 1, 2)c1': {
        'y': [[2, 4, 2, 5, 3], 4.465447021647227, 551.6266401974111, [1.7483257479167602, 0.8250259457687809, 1.1023006497476977, 1.152483295394017]],
        'gx': [[2, 4, 5, 6, 7], 8.307475508575031, 216.1729654657583, [0.7112859983220238, 0.0, 0.0, 0.0]],
        'idx': [[2, 4, 2, 5, 3], 158.65598228653198, 3538090.0, [0.0, 89.0, 90.0, 100.0]],
    },
    'max_pool3d_k2s(2, 1, 3)p1d1c0': {
        'y': [[2, 4, 3, 7, 3], 28.79870688702711, 900.2735001750543, [1.7483257479167602, 0.561740777085582, -1.3003845780484178, 1.7483257479167602]],
        'gx': [[2, 4, 5, 6, 7], -10.072297613176403, 483.0880413825014, [-0.47348344396376285, 0.0, -0.34879759443078084, 0.0]],
        'idx': [[2, 4, 3, 7, 3], 3620.311958693922, 6175090.0, [0.0, 2.0, 6.0, 0.0]],
    },
    'avg_pool3d_k2s(2, 1, 3)p1c0cip1divNone': {
        'y': [[2, 4, 3, 7, 3], -0.3208202165146421, 53.77417084546538, [0.21854071848959503, -0.0022416611303205103, -0.3799148957245486, 0.16872636123632778]],
        'gx': [[2, 4, 5, 6, 7], 0.3512795850855779, 30.28336800720115, [-0.059185430495470356, 0.0, -0.11975444753677932, -0.11975444753677932]],
    },
    'avg_pool3d_k2s(2, 1, 3)p1c0cip0divNone': {
        'y': [[2, 4, 3, 7, 3], -0.717414307890484, 222.4880726431582, [1.7483257479167602, -0.008966644521282041, -1.5196595828981945, 0.6749054449453111]],
        'gx': [[2, 4, 5, 6, 7], 0.8628665119212213, 118.87240905083246, [0.11890127717913046, 0.0, -0.32670829368125387, -0.32670829368125387]],
    },
    'avg_pool3d_k2s(2, 1, 3)p1c0cip1div5': {
        'y': [[2, 4, 3, 7, 3], -0.5133123464234326, 137.66187736439136, [0.34966514958335204, -0.0035866578085128166, -0.6078638331592778, 0.26996217797812444]],
        'gx': [[2, 4, 5, 6, 7], 0.5620473361369236, 77.52542209843494, [-0.09469668879275256, 0.0, -0.1916071160588469, -0.1916071160588469]],
    },
    'max_pool3d_k2s(2, 1, 3)p1d1c1': {
        'y': [[2, 4, 3, 7, 3], 28.79870688702711, 900.2735001750543, [1.7483257479167602, 0.561740777085582, -1.3003845780484178, 1.7483257479167602]],
        'gx': [[2, 4, 5, 6, 7], -10.072297613176403, 483.0880413825014, [-0.47348344396376285, 0.0, -0.34879759443078084, 0.0]],
        'idx': [[2, 4, 3, 7, 3], 3620.311958693922, 6175090.0, [0.0, 2.0, 6.0, 0.0]],
    },
    'avg_pool3d_k2s(2, 1, 3)p1c1cip1divNone': {
        'y': [[2, 4, 3, 7, 3], -0.3208202165146421, 53.77417084546538, [0.21854071848959503, -0.0022416611303205103, -0.3799148957245486, 0.16872636123632778]],
        'gx': [[2, 4, 5, 6, 7], 0.3512795850855779, 30.28336800720115, [-0.059185430495470356, 0.0, -0.11975444753677932, -0.11975444753677932]],
    },
    'avg_pool3d_k2s(2, 1, 3)p1c1cip0divNone': {
        'y': [[2, 4, 3, 7, 3], -0.717414307890484, 222.4880726431582, [1.7483257479167602, -0.008966644521282041, -1.5196595828981945, 0.6749054449453111]],
        'gx': [[2, 4, 5, 6, 7], 0.8628665119212213, 118.87240905083246, [0.11890127717913046, 0.0, -0.32670829368125387, -0.32670829368125387]],
    },
    'avg_pool3d_k2s(2, 1, 3)p1c1cip1div5': {
        'y': [[2, 4, 3, 7, 3], -0.5133123464234326, 137.66187736439136, [0.34966514958335204, -0.0035866578085128166, -0.6078638331592778, 0.26996217797812444]],
        'gx': [[2, 4, 5, 6, 7], 0.5620473361369236, 77.52542209843494, [-0.09469668879275256, 0.0, -0.1916071160588469, -0.1916071160588469]],
    },
    'max_pool3d_k2s(2, 1, 3)p1d(2, 1, 2)c0': {
        'y': [[2, 4, 3, 7, 3], -0.2990131713585118, 803.5746795594114, [-0.01105011329893002, 1.4215545888539998, 0.6751499383173203, -0.01105011329893002]],
        'gx': [[2, 4, 5, 6, 7], 8.580483519271551, 331.121413485418, [0.0, 0.0, 0.0, 0.0]],
        'idx': [[2, 4, 3, 7, 3], 2290.7802182259197, 6485876.0, [43.0, 46.0, 47.0, 43.0]],
    },
    'max_pool3d_k2s(2, 1, 3)p1d(2, 1, 2)c1': {
        'y': [[2, 4, 3, 7, 3], -0.2990131713585118, 803.5746795594114, [-0.01105011329893002, 1.4215545888539998, 0.6751499383173203, -0.01105011329893002]],
        'gx': [[2, 4, 5, 6, 7], 8.580483519271551, 331.121413485418, [0.0, 0.0, 0.0, 0.0]],
        'idx': [[2, 4, 3, 7, 3], 2290.7802182259197, 6485876.0, [43.0, 46.0, 47.0, 43.0]],
    },
    'max_pool3d_k(3, 2, 2)sNonep0d1c0': {
        'y': [[2, 4, 1, 3, 3], 8.904188157554296, 202.02937769557866, [1.7483257479167602, 1.5811341894863973, 1.898090739778708, 1.4064293195627084]],
        'gx': [[2, 4, 5, 6, 7], -8.239620998687732, 85.71051384199212, [0.7112859983220238, 0.0, 0.0, 0.0]],
        'idx': [[2, 4, 1, 3, 3], 1000.2675671388879, 390173.0, [0.0, 45.0, 54.0, 99.0]],
    },
    'avg_pool3d_k(3, 2, 2)sNonep0c0cip1divNone': {
        'y': [[2, 4, 1, 3, 3], 0.0022303106151038143, 0.5979716357115168, [-0.08626243109661685, -0.06576245529853071, -0.06343907448251747, 0.07518978751681739]],
        'gx': [[2, 4, 5, 6, 7], 0.33355800450876655, 7.142542820166009, [0.05927383319350198, 0.05927383319350198, -0.02906646620256507, -0.02906646620256507]],
    },
    'avg_pool3d_k(3, 2, 2)sNonep0c0cip0divNone': {
        'y': [[2, 4, 1, 3, 3], 0.0022303106151038143, 0.5979716357115168, [-0.08626243109661685, -0.06576245529853071, -0.06343907448251747, 0.07518978751681739]],
        'gx': [[2, 4, 5, 6, 7], 0.33355800450876655, 7.142542820166009, [0.05927383319350198, 0.05927383319350198, -0.02906646620256507, -0.02906646620256507]],
    },
    'avg_pool3d_k(3, 2, 2)sNonep0c0cip1div5': {
        'y': [[2, 4, 1, 3, 3], 0.005352745476249421, 3.444316621698337, [-0.20702983463188046, -0.1578298927164737, -0.15225377875804194, 0.18045549004036174]],
        'gx': [[2, 4, 5, 6, 7], 0.8005392108210401, 41.14104664415622, [0.14225719966440475, 0.14225719966440475, -0.06975951888615617, -0.06975951888615617]],
    },
    'max_pool3d_k(3, 2, 2)sNonep0d1c1': {
        'y': [[2, 4, 2, 3, 4], -3.969476908749926, 478.1912009302166, [1.7483257479167602, 1.5811341894863973, 1.898090739778708, 1.5368014425978345]],
        'gx': [[2, 4, 5, 6, 7], -0.2082241205676496, 238.68407570458956, [0.7112859983220238, 0.0, 0.0, 0.0]],
        'idx': [[2, 4, 2, 3, 4], -1236.8339082504513, 3252370.0, [0.0, 45.0, 54.0, 55.0]],
    },
    'avg_pool3d_k(3, 2, 2)sNonep0c1cip1divNone': {
        'y': [[2, 4, 2, 3, 4], -8.227108203398622, 16.6724789849966, [-0.08626243109661685, -0.06576245529853071, -0.06343907448251747, -0.1031687812754097]],
        'gx': [[2, 4, 5, 6, 7], 5.262891519658975, 31.229141812352765, [0.05927383319350198, 0.05927383319350198, -0.02906646620256507, -0.02906646620256507]],
    },
    'avg_pool3d_k(3, 2, 2)sNonep0c1cip0divNone': {
        'y': [[2, 4, 2, 3, 4], -8.227108203398622, 16.6724789849966, [-0.08626243109661685, -0.06576245529853071, -0.06343907448251747, -0.1031687812754097]],
        'gx': [[2, 4, 5, 6, 7], 5.262891519658975, 31.229141812352765, [0.05927383319350198, 0.05927383319350198, -0.02906646620256507, -0.02906646620256507]],
    },
    'avg_pool3d_k(3, 2, 2)sNonep0c1cip1div5': {
        'y': [[2, 4, 2, 3, 4], -8.301421487063042, 35.924488881126585, [-0.20702983463188046, -0.1578298927164737, -0.15225377875804194, -0.12380253753049164]],
        'gx': [[2, 4, 5, 6, 7], 5.130082913399852, 83.45648270369381, [0.14225719966440475, 0.14225719966440475, -0.06975951888615617, -0.06975951888615617]],
    },
    'max_pool3d_k(3, 2, 2)sNonep0d(2, 1, 2)c0': {
        'y': [[2, 4, 1, 3, 3], 6.473800483820562, 192.70175358621503, [1.7483257479167602, 1.2029885121034032, 1.1023006497476977, 1.9572525116386443]],
        'gx': [[2, 4, 5, 6, 7], -10.19843626553854, 117.71096694507501, [0.7112859983220238, 0.0, 0.0, 0.0]],
        'idx': [[2, 4, 1, 3, 3], 1067.1286823135097, 1250160.0, [0.0, 170.0, 90.0, 189.0]],
    },
    'max_pool3d_k(3, 2, 2)sNonep0d(2, 1, 2)c1': {
        'y': [[2, 4, 1, 3, 3], 6.473800483820562, 192.70175358621503, [1.7483257479167602, 1.2029885121034032, 1.1023006497476977, 1.9572525116386443]],
        'gx': [[2, 4, 5, 6, 7], -10.19843626553854, 117.71096694507501, [0.7112859983220238, 0.0, 0.0, 0.0]],
        'idx': [[2, 4, 1, 3, 3], 1067.1286823135097, 1250160.0, [0.0, 170.0, 90.0, 189.0]],
    },
    'max_pool3d_k(3, 2, 2)sNonep1d1c0': {
        'y': [[2, 4, 2, 4, 4], 17.852439694717464, 554.9470889571605, [1.7483257479167602, 1.4638165491636963, 1.5811341894863973, 0.6751499383173203]],
        'gx': [[2, 4, 5, 6, 7], 13.333321916698242, 318.6151515564736, [0.7112859983220238, -0.34879759443078084, 0.0, 0.0]],
        'idx': [[2, 4, 2, 4, 4], -545.9804183055543, 3243011.0, [0.0, 1.0, 45.0, 47.0]],
    },
    'avg_pool3d_k(3, 2, 2)sNonep1c0cip1divNone': {
        'y': [[2, 4, 2, 4, 4], 12.313601478283976, 6.259828572395979, [0.053372798357842886, 0.253998807109976, 0.07934291401568468, -0.21916697253534015]],
        'gx': [[2, 4, 5, 6, 7], -5.95517512317715, 14.587480603572832, [0.05927383319350198, -0.02906646620256507, -0.02906646620256507, -0.0908672333786772]],
    },
    'avg_pool3d_k(3, 2, 2)sNonep1c0cip0divNone': {
        'y': [[2, 4, 2, 4, 4], 26.1590055694085, 31.07230308889773, [0.3202367901470573, 0.7619964213299281, 0.23802874204705404, -0.6575009176060205]],
        'gx': [[2, 4, 5, 6, 7], -10.751456285082092, 62.499506510428645, [0.3556429991610119, -0.08719939860769521, -0.08719939860769521, -0.27260170013603163]],
    },
    'avg_pool3d_k(3, 2, 2)sNonep1c0cip1div5': {
        'y': [[2, 4, 2, 4, 4], 29.552643547881544, 36.056612577000834, [0.12809471605882292, 0.6095971370639425, 0.19042299363764323, -0.5260007340848164]],
        'gx': [[2, 4, 5, 6, 7], -14.29242029562516, 84.02388827657951, [0.14225719966440475, -0.06975951888615617, -0.06975951888615617, -0.2180813601088253]],
    },
    'max_pool3d_k(3, 2, 2)sNonep1d1c1': {
        'y': [[2, 4, 2, 4, 4], 17.852439694717464, 554.9470889571605, [1.7483257479167602, 1.4638165491636963, 1.5811341894863973, 0.6751499383173203]],
        'gx': [[2, 4, 5, 6, 7], 13.333321916698242, 318.6151515564736, [0.7112859983220238, -0.34879759443078084, 0.0, 0.0]],
        'idx': [[2, 4, 2, 4, 4], -545.9804183055543, 3243011.0, [0.0, 1.0, 45.0, 47.0]],
    },
    'avg_pool3d_k(3, 2, 2)sNonep1c1cip1divNone': {
        'y': [[2, 4, 2, 4, 4], 12.313601478283976, 6.259828572395979, [0.053372798357842886, 0.253998807109976, 0.07934291401568468, -0.21916697253534015]],
        'gx': [[2, 4, 5, 6, 7], -5.95517512317715, 14.587480603572832, [0.05927383319350198, -0.02906646620256507, -0.02906646620256507, -0.0908672333786772]],
    },
    'avg_pool3d_k(3, 2, 2)sNonep1c1cip0divNone': {
        'y': [[2, 4, 2, 4, 4], 26.1590055694085, 31.07230308889773, [0.3202367901470573, 0.7619964213299281, 0.23802874204705404, -0.6575009176060205]],
        'gx': [[2, 4, 5, 6, 7], -10.751456285082092, 62.499506510428645, [0.3556429991610119, -0.08719939860769521, -0.08719939860769521, -0.27260170013603163]],
    },
    'avg_pool3d_k(3, 2, 2)sNonep1c1cip1div5': {
        'y': [[2, 4, 2, 4, 4], 29.552643547881544, 36.056612577000834, [0.12809471605882292, 0.6095971370639425, 0.19042299363764323, -0.5260007340848164]],
        'gx': [[2, 4, 5, 6, 7], -14.29242029562516, 84.02388827657951, [0.14225719966440475, -0.06975951888615617, -0.06975951888615617, -0.2180813601088253]],
    },
    'max_pool3d_k(3, 2, 2)sNonep1d(2, 1, 2)c0': {
        'y': [[2, 4, 1, 4, 4], 9.76610565007141, 242.41470318214635, [1.0111582348482413, 1.5811341894863973, 1.5811341894863973, 0.6751499383173203]],
        'gx': [[2, 4, 5, 6, 7], -17.39408269879788, 228.56236880595043, [0.0, 0.0, 0.0, 0.0]],
        'idx': [[2, 4, 1, 4, 4], -698.0913534906218, 1629278.0, [127.0, 45.0, 45.0, 47.0]],
    },
    'max_pool3d_k(3, 2, 2)sNonep1d(2, 1, 2)c1': {
        'y': [[2, 4, 2, 4, 4], 26.499722763571093, 480.5802349771927, [1.0111582348482413, 1.5811341894863973, 1.5811341894863973, 0.6751499383173203]],
        'gx': [[2, 4, 5, 6, 7], -1.0762060646909877, 488.4952516994461, [0.0, 0.0, 0.0, 0.0]],
        'idx': [[2, 4, 2, 4, 4], -1246.6748166167863, 4569094.0, [127.0, 45.0, 45.0, 47.0]],
    },
    'max_pool3d_k(3, 2, 2)s1p0d1c0': {
        'y': [[2, 4, 3, 5, 6], 0.6524177606029533, 2093.2090370553797, [1.7483257479167602, 1.4638165491636963, 1.5811341894863973, 1.5811341894863973]],
        'gx': [[2, 4, 5, 6, 7], 1.050245367041283, 489.2720790821099, [0.7112859983220238, -0.34879759443078084, 0.0, 0.0]],
        'idx': [[2, 4, 3, 5, 6], 2189.38744993842, 9752773.0, [0.0, 1.0, 45.0, 45.0]],
    },
    'avg_pool3d_k(3, 2, 2)s1p0c0cip1divNone': {
        'y': [[2, 4, 3, 5, 6], -0.458171734195686, 5.5893359057836465, [-0.08626243109661685, -0.08074889349890245, -0.06576245529853071, -0.056453110800447605]],
        'gx': [[2, 4, 5, 6, 7], 2.3146649676509465, 35.87422513729537, [0.05927383319350198, 0.030207366990936912, -0.11993369958124228, -0.1895980202358261]],
    },
    'avg_pool3d_k(3, 2, 2)s1p0c0cip0divNone': {
        'y': [[2, 4, 3, 5, 6], -0.458171734195686, 5.5893359057836465, [-0.08626243109661685, -0.08074889349890245, -0.06576245529853071, -0.056453110800447605]],
        'gx': [[2, 4, 5, 6, 7], 2.3146649676509465, 35.87422513729537, [0.05927383319350198, 0.030207366990936912, -0.11993369958124228, -0.1895980202358261]],
    },
    'avg_pool3d_k(3, 2, 2)s1p0c0cip1div5': {
        'y': [[2, 4, 3, 5, 6], -1.0996121620696464, 32.19457481731381, [-0.20702983463188046, -0.1937973443973659, -0.1578298927164737, -0.13548746592107425]],
        'gx': [[2, 4, 5, 6, 7], 5.555195922362274, 206.63553679082136, [0.14225719966440475, 0.07249768077824859, -0.28784087899498145, -0.45503524856598265]],
    },
    'max_pool3d_k(3, 2, 2)s1p0d1c1': {
        'y': [[2, 4, 3, 5, 6], 0.6524177606029533, 2093.2090370553797, [1.7483257479167602, 1.4638165491636963, 1.5811341894863973, 1.5811341894863973]],
        'gx': [[2, 4, 5, 6, 7], 1.050245367041283, 489.2720790821099, [0.7112859983220238, -0.34879759443078084, 0.0, 0.0]],
        'idx': [[2, 4, 3, 5, 6], 2189.38744993842, 9752773.0, [0.0, 1.0, 45.0, 45.0]],
    },
    'avg_pool3d_k(3, 2, 2)s1p0c1cip1divNone': {
        'y': [[2, 4, 3, 5, 6], -0.458171734195686, 5.5893359057836465, [-0.08626243109661685, -0.08074889349890245, -0.06576245529853071, -0.056453110800447605]],
        'gx': [[2, 4, 5, 6, 7], 2.3146649676509465, 35.87422513729537, [0.05927383319350198, 0.030207366990936912, -0.11993369958124228, -0.1895980202358261]],
    },
    'avg_pool3d_k(3, 2, 2)s1p0c1cip0divNone': {
        'y': [[2, 4, 3, 5, 6], -0.458171734195686, 5.5893359057836465, [-0.08626243109661685, -0.08074889349890245, -0.06576245529853071, -0.056453110800447605]],
        'gx': [[2, 4, 5, 6, 7], 2.3146649676509465, 35.87422513729537, [0.05927383319350198, 0.030207366990936912, -0.11993369958124228, -0.1895980202358261]],
    },
    'avg_pool3d_k(3, 2, 2)s1p0c1cip1div5': {
        'y': [[2, 4, 3, 5, 6], -1.0996121620696464, 32.19457481731381, [-0.20702983463188046, -0.1937973443973659, -0.1578298927164737, -0.13548746592107425]],
        'gx': [[2, 4, 5, 6, 7], 5.555195922362274, 206.63553679082136, [0.14225719966440475, 0.07249768077824859, -0.28784087899498145, -0.45503524856598265]],
    },
    'max_pool3d_k(3, 2, 2)s1p0d(2, 1, 2)c0': {
        'y': [[2, 4, 1, 5, 5], -1.34072753909114, 550.9483135726213, [1.7483257479167602, 1.4638165491636963, 1.2029885121034032, 1.2998064484432297]],
        'gx': [[2, 4, 5, 6, 7], 1.2218656785406963, 196.2437285764354, [0.7112859983220238, -0.34879759443078084, 0.0, 0.0]],
        'idx': [[2, 4, 1, 5, 5], -3170.551821681781, 3171083.0, [0.0, 1.0, 170.0, 171.0]],
    },
    'max_pool3d_k(3, 2, 2)s1p0d(2, 1, 2)c1': {
        'y': [[2, 4, 1, 5, 5], -1.34072753909114, 550.9483135726213, [1.7483257479167602, 1.4638165491636963, 1.2029885121034032, 1.2998064484432297]],
        'gx': [[2, 4, 5, 6, 7], 1.2218656785406963, 196.2437285764354, [0.7112859983220238, -0.34879759443078084, 0.0, 0.0]],
        'idx': [[2, 4, 1, 5, 5], -3170.551821681781, 3171083.0, [0.0, 1.0, 170.0, 171.0]],
    },
    'max_pool3d_k(3, 2, 2)s1p1d1c0': {
        'y': [[2, 4, 5, 7, 8], -82.04915985437609, 5276.467447917264, [1.7483257479167602, 1.7483257479167602, 1.4638165491636963, 1.5811341894863973]],
        'gx': [[2, 4, 5, 6, 7], -2.8383159522585615, 5654.632944563406, [-2.814052168450891, -3.8592560964224822, 0.0, 0.0]],
        'idx': [[2, 4, 5, 7, 8], 849.0991063527342, 31957299.0, [0.0, 0.0, 1.0, 45.0]],
    },
    'avg_pool3d_k(3, 2, 2)s1p1c0cip1divNone': {
        'y': [[2, 4, 5, 7, 8], -17.82285373537893, 52.71880373274635, [0.053372798357842886, 0.17443666801324, 0.253998807109976, 0.2163899477344331]],
        'gx': [[2, 4, 5, 6, 7], 8.760773212739887, 411.01928163980574, [-0.23450434737090753, -0.5485800655206337, -0.5760914789881428, -0.3193846168214654]],
    },
    'avg_pool3d_k(3, 2, 2)s1p1c0cip0divNone': {
        'y': [[2, 4, 5, 7, 8], -35.426498103636746, 195.90887653475556, [0.3202367901470573, 0.5233100040397201, 0.7619964213299281, 0.6491698432032993]],
        'gx': [[2, 4, 5, 6, 7], 17.13361676947533, 1072.742055295863, [-0.2241658425633683, -0.9354428957616338, -1.0417024330807578, -0.590655671091671]],
    },
    'avg_pool3d_k(3, 2, 2)s1p1c0cip1div5': {
        'y': [[2, 4, 5, 7, 8], -42.77484896490944, 303.66030950061895, [0.12809471605882292, 0.41864800323177603, 0.6095971370639425, 0.5193358745626394]],
        'gx': [[2, 4, 5, 6, 7], 21.02585571057574, 2367.471062245281, [-0.5628104336901781, -1.3165921572495207, -1.382619549571543, -0.7665230803715171]],
    },
    'max_pool3d_k(3, 2, 2)s1p1d1c1': {
        'y': [[2, 4, 5, 7, 8], -82.04915985437609, 5276.467447917264, [1.7483257479167602, 1.7483257479167602, 1.4638165491636963, 1.5811341894863973]],
        'gx': [[2, 4, 5, 6, 7], -2.8383159522585615, 5654.632944563406, [-2.814052168450891, -3.8592560964224822, 0.0, 0.0]],
        'idx': [[2, 4, 5, 7, 8], 849.0991063527342, 31957299.0, [0.0, 0.0, 1.0, 45.0]],
    },
    'avg_pool3d_k(3, 2, 2)s1p1c1cip1divNone': {
        'y': [[2, 4, 5, 7, 8], -17.82285373537893, 52.71880373274635, [0.053372798357842886, 0.17443666801324, 0.253998807109976, 0.2163899477344331]],
        'gx': [[2, 4, 5, 6, 7], 8.760773212739887, 411.01928163980574, [-0.23450434737090753, -0.5485800655206337, -0.5760914789881428, -0.3193846168214654]],
    },
    'avg_pool3d_k(3, 2, 2)s1p1c1cip0divNone': {
        'y': [[2, 4, 5, 7, 8], -35.426498103636746, 195.90887653475556, [0.3202367901470573, 0.5233100040397201, 0.7619964213299281, 0.6491698432032993]],
        'gx': [[2, 4, 5, 6, 7], 17.13361676947533, 1072.742055295863, [-0.2241658425633683, -0.9354428957616338, -1.0417024330807578, -0.590655671091671]],
    },
    'avg_pool3d_k(3, 2, 2)s1p1c1cip1div5': {
        'y': [[2, 4, 5, 7, 8], -42.77484896490944, 303.66030950061895, [0.12809471605882292, 0.41864800323177603, 0.6095971370639425, 0.5193358745626394]],
        'gx': [[2, 4, 5, 6, 7], 21.02585571057574, 2367.471062245281, [-0.5628104336901781, -1.3165921572495207, -1.382619549571543, -0.7665230803715171]],
    },
    'max_pool3d_k(3, 2, 2)s1p1d(2, 1, 2)c0': {
        'y': [[2, 4, 3, 7, 7], 28.879746544966423, 2689.127692759571, [1.0111582348482413, 1.3164681279339678, 1.5811341894863973, 1.4215545888539998]],
        'gx': [[2, 4, 5, 6, 7], 7.878641592852542, 3162.736752158219, [-0.23559393427470576, 0.014308576854400401, 0.0, 0.0]],
        'idx': [[2, 4, 3, 7, 7], 37615.26813017765, 16564096.0, [127.0, 126.0, 45.0, 46.0]],
    },
    'max_pool3d_k(3, 2, 2)s1p1d(2, 1, 2)c1': {
        'y': [[2, 4, 3, 7, 7], 28.879746544966423, 2689.127692759571, [1.0111582348482413, 1.3164681279339678, 1.5811341894863973, 1.4215545888539998]],
        'gx': [[2, 4, 5, 6, 7], 7.878641592852542, 3162.736752158219, [-0.23559393427470576, 0.014308576854400401, 0.0, 0.0]],
        'idx': [[2, 4, 3, 7, 7], 37615.26813017765, 16564096.0, [127.0, 126.0, 45.0, 46.0]],
    },
    'max_pool3d_k(3, 2, 2)s(2, 1, 3)p0d1c0': {
        'y': [[2, 4, 2, 5, 2], 7.113689051437781, 459.71366137985746, [1.7483257479167602, 1.5811341894863973, 1.4064293195627084, 1.6599926438980432]],
        'gx': [[2, 4, 5, 6, 7], -10.014032422958053, 249.54797581729824, [0.7112859983220238, 0.0, 0.0, 0.0]],
        'idx': [[2, 4, 2, 5, 2], -618.9615902087362, 2219582.0, [0.0, 45.0, 99.0, 18.0]],
    },
    'avg_pool3d_k(3, 2, 2)s(2, 1, 3)p0c0cip1divNone': {
        'y': [[2, 4, 2, 5, 2], 0.1516984392087377, 1.2955077408793865, [-0.08626243109661685, -0.056453110800447605, -0.14229793031167662, -0.065621840112332]],
        'gx': [[2, 4, 5, 6, 7], 1.827455619206932, 24.21718779653788, [0.05927383319350198, 0.05927383319350198, 0.0, -0.02906646620256507]],
    },
    'avg_pool3d_k(3, 2, 2)s(2, 1, 3)p0c0cip0divNone': {
        'y': [[2, 4, 2, 5, 2], 0.1516984392087377, 1.2955077408793865, [-0.08626243109661685, -0.056453110800447605, -0.14229793031167662, -0.065621840112332]],
        'gx': [[2, 4, 5, 6, 7], 1.827455619206932, 24.21718779653788, [0.05927383319350198, 0.05927383319350198, 0.0, -0.02906646620256507]],
    },
    'avg_pool3d_k(3, 2, 2)s(2, 1, 3)p0c0cip1div5': {
        'y': [[2, 4, 2, 5, 2], 0.3640762541009699, 7.462124587465267, [-0.20702983463188046, -0.13548746592107425, -0.3415150327480239, -0.1574924162695968]],
        'gx': [[2, 4, 5, 6, 7], 4.385893486096639, 139.49100170805818, [0.14225719966440475, 0.14225719966440475, 0.0, -0.06975951888615617]],
    },
    'max_pool3d_k(3, 2, 2)s(2, 1, 3)p0d1c1': {
        'y': [[2, 4, 2, 5, 3], 1.2506580280980586, 640.8620141901057, [1.7483257479167602, 1.5811341894863973, 1.5368014425978345, 1.4064293195627084]],
        'gx': [[2, 4, 5, 6, 7], 14.237340438556117, 204.6304218708035, [0.7112859983220238, 0.0, 0.0, 0.0]],
        'idx': [[2, 4, 2, 5, 3], 267.83929269319503, 3352794.0, [0.0, 45.0, 55.0, 99.0]],
    },
    'avg_pool3d_k(3, 2, 2)s(2, 1, 3)p0c1cip1divNone': {
        'y': [[2, 4, 2, 5, 3], -0.6281831719714619, 1.9841526968711087, [-0.08626243109661685, -0.056453110800447605, -0.1031687812754097, -0.14229793031167662]],
        'gx': [[2, 4, 5, 6, 7], 1.2106694674833292, 20.962793371893298, [0.05927383319350198, 0.05927383319350198, 0.0, -0.02906646620256507]],
    },
    'avg_pool3d_k(3, 2, 2)s(2, 1, 3)p0c1cip0divNone': {
        'y': [[2, 4, 2, 5, 3], -0.6281831719714619, 1.9841526968711087, [-0.08626243109661685, -0.056453110800447605, -0.1031687812754097, -0.14229793031167662]],
        'gx': [[2, 4, 5, 6, 7], 1.2106694674833292, 20.962793371893298, [0.05927383319350198, 0.05927383319350198, 0.0, -0.02906646620256507]],
    },
    'avg_pool3d_k(3, 2, 2)s(2, 1, 3)p0c1cip1div5': {
        'y': [[2, 4, 2, 5, 3], -1.4062471472610005, 8.453773324093346, [-0.20702983463188046, -0.13548746592107425, -0.12380253753049164, -0.3415150327480239]],
        'gx': [[2, 4, 5, 6, 7], 2.1687250591007183, 75.66282052379114, [0.14225719966440475, 0.14225719966440475, 0.0, -0.06975951888615617]],
    },
    'max_pool3d_k(3, 2, 2)s(2, 1, 3)p0d(2, 1, 2)c0': {
        'y': [[2, 4, 1, 5, 2], 4.092205573337617, 225.24754684409476, [1.7483257479167602, 1.2998064484432297, 1.152483295394017, 1.54330563810404]],
        'gx': [[2, 4, 5, 6, 7], -2.994576322501268, 110.85174706451467, [0.7112859983220238, 0.0, 0.0, 0.0]],
        'idx': [[2, 4, 1, 5, 2], -186.9177947369751, 1342788.0, [0.0, 171.0, 100.0, 19.0]],
    },
    'max_pool3d_k(3, 2, 2)s(2, 1, 3)p0d(2, 1, 2)c1': {
        'y': [[2, 4, 1, 5, 3], 4.085353442475684, 317.3748075983188, [1.7483257479167602, 1.2998064484432297, 1.1023006497476977, 1.152483295394017]],
        'gx': [[2, 4, 5, 6, 7], -0.7288641697891798, 119.59422386219978, [0.7112859983220238, 0.0, 0.0, 0.0]],
        'idx': [[2, 4, 1, 5, 3], 704.2833097910367, 1898628.0, [0.0, 171.0, 90.0, 100.0]],
    },
    'max_pool3d_k(3, 2, 2)s(2, 1, 3)p1d1c0': {
        'y': [[2, 4, 3, 7, 3], -0.06918852663691055, 1089.703990031522, [1.7483257479167602, 1.5811341894863973, 0.6751499383173203, 1.7483257479167602]],
        'gx': [[2, 4, 5, 6, 7], 1.9780491321048066, 351.4498829863633, [-0.47348344396376285, 0.0, 0.0, 0.0]],
        'idx': [[2, 4, 3, 7, 3], 3143.4286652789024, 7199110.0, [0.0, 45.0, 47.0, 0.0]],
    },
    'avg_pool3d_k(3, 2, 2)s(2, 1, 3)p1c0cip1divNone': {
        'y': [[2, 4, 3, 7, 3], -0.45769349189320585, 16.667845509966433, [0.053372798357842886, 0.2163899477344331, -0.21916697253534015, -0.05682782762788526]],
        'gx': [[2, 4, 5, 6, 7], 0.07622428232913794, 12.516162100165062, [-0.0394569536636469, 0.0, -0.07983629835785287, -0.07983629835785287]],
    },
    'avg_pool3d_k(3, 2, 2)s(2, 1, 3)p1c0cip0divNone': {
        'y': [[2, 4, 3, 7, 3], -0.43545695182200794, 71.0601107180837, [0.3202367901470573, 0.6491698432032993, -0.6575009176060205, -0.17048348288365578]],
        'gx': [[2, 4, 5, 6, 7], 0.3391651947123846, 60.38349615953769, [0.05945063858956523, 0.0, -0.16335414684062693, -0.16335414684062693]],
    },
    'avg_pool3d_k(3, 2, 2)s(2, 1, 3)p1c0cip1div5': {
        'y': [[2, 4, 3, 7, 3], -1.0984643805436949, 96.00679013740665, [0.12809471605882292, 0.5193358745626394, -0.5260007340848164, -0.13638678630692463]],
        'gx': [[2, 4, 5, 6, 7], 0.18293827758993442, 72.09309369695076, [-0.09469668879275256, 0.0, -0.1916071160588469, -0.1916071160588469]],
    },
    'max_pool3d_k(3, 2, 2)s(2, 1, 3)p1d1c1': {
        'y': [[2, 4, 3, 7, 3], -0.06918852663691055, 1089.703990031522, [1.7483257479167602, 1.5811341894863973, 0.6751499383173203, 1.7483257479167602]],
        'gx': [[2, 4, 5, 6, 7], 1.9780491321048066, 351.4498829863633, [-0.47348344396376285, 0.0, 0.0, 0.0]],
        'idx': [[2, 4, 3, 7, 3], 3143.4286652789024, 7199110.0, [0.0, 45.0, 47.0, 0.0]],
    },
    'avg_pool3d_k(3, 2, 2)s(2, 1, 3)p1c1cip1divNone': {
        'y': [[2, 4, 3, 7, 3], -0.45769349189320585, 16.667845509966433, [0.053372798357842886, 0.2163899477344331, -0.21916697253534015, -0.05682782762788526]],
        'gx': [[2, 4, 5, 6, 7], 0.07622428232913794, 12.516162100165062, [-0.0394569536636469, 0.0, -0.07983629835785287, -0.07983629835785287]],
    },
    'avg_pool3d_k(3, 2, 2)s(2, 1, 3)p1c1cip0divNone': {
        'y': [[2, 4, 3, 7, 3], -0.43545695182200794, 71.0601107180837, [0.3202367901470573, 0.6491698432032993, -0.6575009176060205, -0.17048348288365578]],
        'gx': [[2, 4, 5, 6, 7], 0.3391651947123846, 60.38349615953769, [0.05945063858956523, 0.0, -0.16335414684062693, -0.16335414684062693]],
    },
    'avg_pool3d_k(3, 2, 2)s(2, 1, 3)p1c1cip1div5': {
        'y': [[2, 4, 3, 7, 3], -1.0984643805436949, 96.00679013740665, [0.12809471605882292, 0.5193358745626394, -0.5260007340848164, -0.13638678630692463]],
        'gx': [[2, 4, 5, 6, 7], 0.18293827758993442, 72.09309369695076, [-0.09469668879275256, 0.0, -0.1916071160588469, -0.1916071160588469]],
    },
    'max_pool3d_k(3, 2, 2)s(2, 1, 3)p1d(2, 1, 2)c0': {
        'y': [[2, 4, 2, 7, 3], -8.010766669242042, 668.5099558322638, [1.0111582348482413, 1.4215545888539998, 0.6751499383173203, 1.717712749352373]],
        'gx': [[2, 4, 5, 6, 7], 1.4656441850063944, 141.86651090278048, [0.0, 0.0, 0.0, 0.0]],
        'idx': [[2, 4, 2, 7, 3], -464.10628229214393, 4336448.0, [127.0, 46.0, 47.0, 134.0]],
    },
    'max_pool3d_k(3, 2, 2)s(2, 1, 3)p1d(2, 1, 2)c1': {
        'y': [[2, 4, 2, 7, 3], -8.010766669242042, 668.5099558322638, [1.0111582348482413, 1.4215545888539998, 0.6751499383173203, 1.717712749352373]],
        'gx': [[2, 4, 5, 6, 7], 1.4656441850063944, 141.86651090278048, [0.0, 0.0, 0.0, 0.0]],
        'idx': [[2, 4, 2, 7, 3], -464.10628229214393, 4336448.0, [127.0, 46.0, 47.0, 134.0]],
    },
    'max_pool3d_unbatched': {
        'y': [[4, 4, 5, 6], 1.950867216657854, 1154.746077176133, [1.7483257479167602, 1.4638165491636963, 1.5811341894863973, 1.5811341894863973]],
        'gx': [[4, 5, 6, 7], 11.25407428403018, 468.99377308004955, [0.7112859983220238, -0.34879759443078084, 0.0, 0.0]],
        'idx': [[4, 4, 5, 6], -1181.6386342969668, 6595511.0, [0.0, 1.0, 45.0, 45.0]],
    },
    'avg_pool3d_unbatched': {
        'y': [[4, 2, 2, 3], 0.40646340688563387, 0.44033915340381613, [0.0118986052398469, 0.2280480873285518, -0.06795755835922576, 0.03927127431989511]],
        'gx': [[4, 5, 6, 7], 1.307447456473672, 1.165195989862755, [0.026343925863778657, 0.026343925863778657, -0.012918429423362254, -0.012918429423362254]],
    },
    'adaptive_avg_pool3d_1': {
        'y': [[2, 4, 1, 1, 1], -0.000481012009866901, 0.0017277912078610697, [-0.00331474128348514, 0.0008038737518133776, -0.0041424848026440815, 0.011973631367137923]],
        'gx': [[2, 4, 5, 6, 7], 0.02861496621914393, 0.0356490146204142, [0.0033870761824858274, 0.0033870761824858274, 0.0033870761824858274, 0.0033870761824858274]],
    },
    'adaptive_max_pool3d_1': {
        'y': [[2, 4, 1, 1, 1], 3.2705166401686787, 31.326616729902316, [1.992819514773019, 1.990868601412073, 1.9962850277244701, 1.959737159034212]],
        'gx': [[2, 4, 5, 6, 7], -0.9108321224973189, 7.486293070286981, [0.0, 0.0, 0.0, 0.0]],
        'idx': [[2, 4, 1, 1, 1], 149.65972885497888, 136007.0, [135.0, 203.0, 20.0, 88.0]],
    },
    'adaptive_avg_pool3d_2': {
        'y': [[2, 4, 2, 2, 2], -0.021949464225329993, 0.10259781886211218, [-0.07029732913185179, -0.02446788272113744, 0.027401553517800912, -0.030983579432489958]],
        'gx': [[2, 4, 5, 6, 7], 0.04800970709801061, 1.9895718337075152, [0.019757944397833994, 0.019757944397833994, 0.019757944397833994, 0.010069122330312303]],
    },
    'adaptive_max_pool3d_2': {
        'y': [[2, 4, 2, 2, 2], 4.172409798655717, 227.87611921939452, [1.7483257479167602, 1.898090739778708, 1.9804576862995384, 1.9804576862995384]],
        'gx': [[2, 4, 5, 6, 7], -3.5109833338895395, 71.48377662459761, [0.7112859983220238, 0.0, 0.0, 0.0]],
        'idx': [[2, 4, 2, 2, 2], -9.858955527453304, 866277.0, [0.0, 54.0, 108.0, 108.0]],
    },
    'adaptive_avg_pool3d_(3, 4, 2)': {
        'y': [[2, 4, 3, 4, 2], -2.3406863531434166, 13.118322902707185, [0.31154370147222976, 0.1305220408778841, -0.26842172534362563, 0.4295813288411382]],
        'gx': [[2, 4, 5, 6, 7], 0.7113783475890565, 24.440534143580177, [0.044455374895126486, 0.044455374895126486, 0.044455374895126486, 0.022655525243202683]],
    },
    'adaptive_max_pool3d_(3, 4, 2)': {
        'y': [[2, 4, 3, 4, 2], -3.5256911428486184, 603.9917277361263, [1.7483257479167602, 1.898090739778708, 1.0689788606425845, 1.898090739778708]],
        'gx': [[2, 4, 5, 6, 7], -3.680559670525615, 351.23457851291903, [0.7112859983220238, 0.0, 0.0, 0.0]],
        'idx': [[2, 4, 3, 4, 2], -741.5741587368655, 2797175.0, [0.0, 54.0, 17.0, 54.0]],
    },
    'adaptive_avg_pool3d_(None, 3, None)': {
        'y': [[2, 4, 5, 3, 7], -10.309646593414067, 620.4078726727723, [0.6749054449453111, 0.988430207038378, 0.7734421909615257, 0.10286263882761415]],
        'gx': [[2, 4, 5, 6, 7], 3.901945719005999, 523.5644344742116, [0.3556429991610119, -0.17439879721539042, -0.5452034002720633, -0.5923847211428933]],
    },
    'adaptive_max_pool3d_(None, 3, None)': {
        'y': [[2, 4, 5, 3, 7], -12.91994444598593, 1051.025926906314, [1.7483257479167602, 1.4638165491636963, 0.9851436048374693, 0.7853993437833744]],
        'gx': [[2, 4, 5, 6, 7], 9.747725840383215, 1047.1288689484231, [0.7112859983220238, -0.34879759443078084, 0.0, 0.0]],
        'idx': [[2, 4, 5, 3, 7], -7.950075548393102, 12260829.0, [0.0, 1.0, 9.0, 10.0]],
    },
    'adaptive_avg_pool3d_(5, 6, 7)': {
        'y': [[2, 4, 5, 6, 7], -485.67791517449916, 2101.895826121781, [1.7483257479167602, 1.4638165491636963, 0.561740777085582, -0.5796740661281461]],
        'gx': [[2, 4, 5, 6, 7], 1842.9239961766432, 2095.467765150267, [0.7112859983220238, -0.34879759443078084, -1.0904068005441265, -1.1847694422857866]],
    },
    'adaptive_max_pool3d_(5, 6, 7)': {
        'y': [[2, 4, 5, 6, 7], -485.67791517449916, 2101.895826121781, [1.7483257479167602, 1.4638165491636963, 0.561740777085582, -0.5796740661281461]],
        'gx': [[2, 4, 5, 6, 7], 1842.9239961766432, 2095.467765150267, [0.7112859983220238, -0.34879759443078084, -1.0904068005441265, -1.1847694422857866]],
        'idx': [[2, 4, 5, 6, 7], 495.6929580007519, 24519880.0, [0.0, 1.0, 2.0, 3.0]],
    },
    'adaptive_avg_pool3d_(9, 8, 10)': {
        'y': [[2, 4, 9, 8, 10], -62.59054825042553, 3575.610302461656, [1.7483257479167602, 1.6060711485402281, 1.0127786631246392, 0.561740777085582]],
        'gx': [[2, 4, 5, 6, 7], 1.945097698741776, 16546.2651049376, [-0.18364903025033674, -2.2302040167735933, -5.2206002590330085, -0.5945892596862449]],
    },
    'adaptive_max_pool3d_(9, 8, 10)': {
        'y': [[2, 4, 9, 8, 10], -78.17041468794395, 8923.933785894826, [1.7483257479167602, 1.7483257479167602, 1.4638165491636963, 0.561740777085582]],
        'gx': [[2, 4, 5, 6, 7], 5.172698034368814, 29809.899849175596, [-2.698837746246545, -5.460843688111332, -1.7940074281492402, 0.3423361791251083]],
        'idx': [[2, 4, 9, 8, 10], -32.200803687652666, 81851822.0, [0.0, 0.0, 1.0, 2.0]],
    },
    'adaptive_avg_pool3d_unbatched': {
        'y': [[4, 3, 3, 3], 2.3988216137226, 9.651077448267088, [0.21294616413346024, 0.5131081964892416, -0.028416049992333936, -0.37415994843217854]],
        'gx': [[4, 5, 6, 7], -0.30593183275653746, 19.84118849573364, [0.05927383319350198, 0.05927383319350198, 0.030207366990936912, -0.02906646620256507]],
    },
    'adaptive_max_pool1d_1': {
        'y': [[2, 3, 1], -3.7697766337520195, 13.427746446174366, [1.7483257479167602, 0.9851436048374693, 1.6599926438980432, 1.830693288874679]],
        'gx': [[2, 3, 7], 1.2561007871156402, 3.708618138293646, [0.7112859983220238, 0.0, 0.0, 0.0]],
        'idx': [[2, 3, 1], -11.461011600049506, 57.0, [0.0, 2.0, 4.0, 6.0]],
    },
    'adaptive_max_pool1d_3': {
        'y': [[2, 3, 3], 3.1260310559955062, 21.58127130858332, [1.7483257479167602, 0.561740777085582, -1.3003845780484178, 0.9851436048374693]],
        'gx': [[2, 3, 7], -2.2099109531327805, 23.30698165169219, [0.7112859983220238, 0.0, -0.34879759443078084, 0.0]],
        'idx': [[2, 3, 3], 8.575650227100835, 213.0, [0.0, 2.0, 6.0, 2.0]],
    },
    'adaptive_max_pool1d_7': {
        'y': [[2, 3, 7], -12.408975951941185, 55.62878753851742, [1.7483257479167602, 1.4638165491636963, 0.561740777085582, -0.5796740661281461]],
        'gx': [[2, 3, 7], 45.098197667600175, 47.38706079499468, [0.7112859983220238, -0.34879759443078084, -1.0904068005441265, -1.1847694422857866]],
        'idx': [[2, 3, 7], 6.855845134066408, 546.0, [0.0, 1.0, 2.0, 3.0]],
    },
    'adaptive_max_pool1d_10': {
        'y': [[2, 3, 10], -0.24228726036767068, 76.3497114036045, [1.7483257479167602, 1.7483257479167602, 1.4638165491636963, 0.561740777085582]],
        'gx': [[2, 3, 7], -0.29335501656107676, 106.78747203183357, [0.3624884038912429, -1.0904068005441265, -1.7940074281492402, 0.3423361791251083]],
        'idx': [[2, 3, 10], -14.758069479429853, 750.0, [0.0, 0.0, 1.0, 2.0]],
    },
    'adaptive_max_pool1d_unbatched': {
        'y': [[3, 4], -2.733259940634008, 17.477642741493057, [1.7483257479167602, 1.4638165491636963, -0.5796740661281461, -1.3003845780484178]],
        'gx': [[3, 7], 0.29972858830628546, 12.098828047021296, [0.7112859983220238, -0.34879759443078084, 0.0, -1.0904068005441265]],
        'idx': [[3, 4], 1.051428807252253, 136.0, [0.0, 1.0, 3.0, 6.0]],
    },
    'modules': {
        'MaxPool3d': [[2, 4, 6, 7, 8], 1.8423098994381242, 4902.889262465216, [1.7483257479167602, 1.7483257479167602, 1.4638165491636963, 0.561740777085582]],
        'AvgPool3d': [[2, 4, 3, 3, 4], 1.5974075274299042, 57.457205242041475, [0.6749054449453111, 0.8809361989999519, -0.3142911958110385, -1.4197654383619862]],
        'AdaptiveAvgPool3d': [[2, 4, 2, 6, 3], -2.2432537057550275, 4.249909613578327, [0.04960947375315946, 0.03001578638713119, -0.08070917797855537, -0.213742441768443]],
        'AdaptiveMaxPool3d': [[2, 4, 3, 3, 3], 5.640772216077181, 635.5975877343081, [1.7483257479167602, 1.5811341894863973, 1.898090739778708, 1.0520938470996546]],
        'AdaptiveMaxPool1d': [[5, 6, 4], 0.6086552615768914, 153.65821846998557, [1.7483257479167602, 1.4638165491636963, -0.5796740661281461, -1.3003845780484178]],
        'gx': [[2, 4, 5, 6, 7], -1134.105366731606, 46246.38888888889, [18.333333333333336, 9.833333333333332, 2.1666666666666665, 6.833333333333333]],
    },
}


def test_lp_pool3d_and_max_unpool3d_match_torch():
    import numpy as np
    F = torch.nn.functional
    x = torch.arange(2 * 1 * 4 * 4 * 4, dtype=torch.float64).reshape(2, 1, 4, 4, 4).sin()
    np.testing.assert_allclose(F.lp_pool3d(x, 2, 2).numpy().ravel()[:6],
                               [2.17738, 1.63066, 1.72178, 2.30992, 2.30905, 1.81929], atol=1e-5)
    assert F.lp_pool3d(x, 3, (2, 2, 2), stride=(1, 2, 2)).shape == (2, 1, 3, 2, 2)
    np.testing.assert_allclose(torch.nn.LPPool3d(1.5, 2, ceil_mode=True)(x.abs()).numpy().ravel()[:4],
                               [2.96443, 2.12075, 2.30767, 3.21019], atol=1e-5)
    v, i = F.max_pool3d(x, 2, return_indices=True)
    u = F.max_unpool3d(v, i, 2)
    assert u.shape == x.shape
    np.testing.assert_allclose(u.numpy().ravel()[:10],
                               [0.0, 0.0, 0.9093, 0.0, 0.0, 0.0, 0.0, 0.0, 0.9894, 0.0], atol=1e-4)
    assert torch.equal(F.max_pool3d(u, 2), v)
    assert torch.nn.MaxUnpool3d(2)(v, i, output_size=(5, 5, 5)).shape == (2, 1, 5, 5, 5)
    vv = v.clone().requires_grad_()
    assert torch.autograd.gradcheck(lambda t: F.max_unpool3d(t, i, 2), (vv,))
    with pytest.raises(RuntimeError, match="should be a 4d or 5d Tensor"):
        F.max_unpool3d(v[0, 0], i[0, 0], 2)
    assert F.max_pool1d_with_indices(torch.tensor([[[1.0, 3.0, 2.0, 4.0]]]), 2)[1].tolist() == [[[1, 3]]]
    assert F.adaptive_max_pool2d_with_indices(torch.arange(16.0).reshape(1, 1, 4, 4), 2)[1].tolist() \
        == [[[[5, 7], [13, 15]]]]
