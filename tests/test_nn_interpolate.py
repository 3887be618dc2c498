"""nn.functional.interpolate (nearest, nearest-exact, linear, bilinear, bicubic, trilinear, area,
lanczos; size or scale_factor, align_corners, recompute_scale_factor, antialias), its deprecated
aliases upsample/upsample_nearest/upsample_bilinear and the Upsample, UpsamplingNearest2d and
UpsamplingBilinear2d modules.  Values and input gradients against torch 2.15's for fixed float64
inputs (REF, at the end: run this file with torch importable to print it again); nearest indices
exactly as torch's in float32; gradcheck and gradgradcheck (the backward of a resampling is a
recorded op: the transposed resampling); torch's errors and warnings; hostile sizes."""
import math
import warnings

import numpy as np
import pytest

import minitorch as torch
import minitorch.nn.functional as F
from minitorch.autograd import gradcheck, gradgradcheck

from spatial_ref import assert_matches, backward, capture, det, run, tensor

SHAPES = {1: (2, 3, 7), 2: (2, 3, 7, 5), 3: (2, 2, 5, 4, 6)}


def _interp(dim, kw, shape=None):
    def case(lib):
        x = tensor(lib, shape or SHAPES[dim], 1)
        y = lib.nn.functional.interpolate(x, **kw)
        backward(lib, y)
        return {"y": y, "gx": x.grad}
    return case


def _key(kw):
    return ",".join(f"{k}={v}" for k, v in sorted(kw.items()) if v is not None)


CASES = {}
_MODES = {1: ["nearest", "nearest-exact", "linear", "area"],
          2: ["nearest", "nearest-exact", "bilinear", "bicubic", "area"],
          3: ["nearest", "nearest-exact", "trilinear", "area"]}
_SIZES = {1: [1, 3, 7, 14, 13], 2: [(1, 1), (3, 2), (14, 10), (13, 11), (4, 9)],
          3: [(1, 1, 1), (3, 2, 4), (10, 8, 12), (7, 3, 9)]}
_SCALES = {1: [0.5, 2, 1.7, 0.3], 2: [0.5, 2, (1.7, 0.6), (2.5, 1.25)], 3: [0.5, 2, (1.7, 0.6, 1.1)]}
for _dim in (1, 2, 3):
    for _mode in _MODES[_dim]:
        for _ac in ([None] if _mode in ("nearest", "nearest-exact", "area") else [False, True]):
            for _size in _SIZES[_dim]:
                _kw = {"size": _size, "mode": _mode, "align_corners": _ac}
                CASES[f"{_dim}d:{_key(_kw)}"] = _interp(_dim, _kw)
            for _sf in _SCALES[_dim]:
                for _rsf in (None, True):
                    _kw = {"scale_factor": _sf, "mode": _mode, "align_corners": _ac,
                           "recompute_scale_factor": _rsf}
                    CASES[f"{_dim}d:{_key(_kw)}"] = _interp(_dim, _kw)
for _mode in ("bilinear", "bicubic"):
    for _ac in (False, True):
        for _size in [(3, 2), (14, 10), (4, 9), (2, 5)]:
            _kw = {"size": _size, "mode": _mode, "align_corners": _ac, "antialias": True}
            CASES[f"aa:{_key(_kw)}"] = _interp(2, _kw)
        _kw = {"scale_factor": (0.4, 0.7), "mode": _mode, "align_corners": _ac, "antialias": True}
        CASES[f"aa:{_key(_kw)}"] = _interp(2, _kw)
for _size in [(5, 4), (17, 13), (30, 20), (3, 20)]:
    _kw = {"size": _size, "mode": "lanczos", "antialias": True}
    CASES[f"lanczos:{_key(_kw)}"] = _interp(2, _kw, (2, 3, 17, 13))
    _kw = {"size": _size, "mode": "bilinear", "antialias": True}
    CASES[f"aa_big:{_key(_kw)}"] = _interp(2, _kw, (2, 3, 17, 13))
CASES["aa_huge_downscale"] = _interp(2, {"size": (2, 3), "mode": "bicubic", "antialias": True},
                                    (1, 1, 3, 1000))


def _modules(lib):
    x = tensor(lib, SHAPES[2], 1)
    outs = {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for name, m in (("Upsample", lib.nn.Upsample(scale_factor=(1.5, 2.5), mode="bicubic")),
                        ("UpsamplingNearest2d", lib.nn.UpsamplingNearest2d(size=(9, 4))),
                        ("UpsamplingBilinear2d", lib.nn.UpsamplingBilinear2d(scale_factor=2))):
            outs[name] = m(x)
        outs["upsample"] = lib.nn.functional.upsample(x, size=(3, 8), mode="bilinear")
        outs["upsample_nearest"] = lib.nn.functional.upsample_nearest(x, scale_factor=3)
        outs["upsample_bilinear"] = lib.nn.functional.upsample_bilinear(x, size=(4, 4))
    y = sum(v.sum() * (i + 1) for i, v in enumerate(outs.values()))
    y.backward()
    outs["gx"] = x.grad
    return outs


CASES["modules"] = _modules


# torch's nearest backward maps an axis whose output size equals the input's (or doubles it)
# by a shortcut its forward does not take with a user's scale_factor, so its gradient there is
# not the derivative of its forward; minitorch's is (gradcheck below): values compared only.
FORWARD_ONLY = {"3d:mode=nearest,scale_factor=(1.7, 0.6, 1.1)"}


@pytest.mark.parametrize("name", sorted(CASES))
def test_values_and_gradients_match_torch(name):
    got, want = run(CASES[name], torch), REF[name]
    if name in FORWARD_ONLY:
        got, want = {"y": got["y"]}, {"y": want["y"]}
    assert_matches(got, want, name=name)


def test_nearest_gradient_with_a_scale_factor_is_the_derivative():
    x = tensor(torch, (1, 1, 3, 2, 4), 1)
    f = lambda x: F.interpolate(x, scale_factor=(1.7, 0.6, 1.1), mode="nearest")  # noqa: E731
    assert f(x).shape == (1, 1, 5, 1, 4)
    assert gradcheck(f, (x,)) and gradgradcheck(f, (x,))


def test_antialiased_output_of_width_one():
    """torch 2.15 copies the first output row into the others when an antialiased resampling
    has an output width of 1; minitorch resamples each axis on its own, as for any width."""
    x = torch.tensor([[[[1.0, 1.0], [2.0, 2.0], [4.0, 4.0]]]], dtype=torch.float64)
    y = F.interpolate(x, size=(2, 1), mode="bilinear", antialias=True)
    assert y.flatten().tolist() == [1.375, 3.25]
    t = F.interpolate(x[..., :1].transpose(2, 3), size=(1, 2), mode="bilinear", antialias=True)
    assert t.flatten().tolist() == y.flatten().tolist()


# (input shape, kwargs) -> torch's nearest indices along each axis, float32 (exact integers)
NEAREST = [
    ((1, 1, 97, 113), {"size": (301, 257), "mode": "nearest"}),
    ((1, 1, 97, 113), {"size": (31, 17), "mode": "nearest-exact"}),
    ((1, 1, 97, 113), {"scale_factor": (3.7, 0.31), "mode": "nearest"}),
    ((1, 1, 97, 113), {"scale_factor": (1 / 3, 1 / 7), "mode": "nearest-exact"}),
    ((1, 1, 97, 113), {"scale_factor": (2.9999, 1.0001), "mode": "nearest"}),
]


@pytest.mark.parametrize("shape,kw", NEAREST, ids=[str(i) for i in range(len(NEAREST))])
def test_nearest_indices_are_torchs(shape, kw):
    """The source of each output position, read off a float32 resampling of positions, equals
    torch's float32 index arithmetic (a floor of a float product)."""
    h, w = shape[2:]
    rows = torch.arange(h, dtype=torch.float32).reshape(1, 1, h, 1).expand(1, 1, h, w)
    got = F.interpolate(rows.contiguous(), **kw)[0, 0, :, 0].numpy().astype(np.int64)
    oh = got.shape[0]
    sf = kw.get("scale_factor")
    scale = np.float32(1 / sf[0]) if sf else np.float32(h) / np.float32(oh)
    o = np.arange(oh)
    if kw["mode"] == "nearest":
        want = np.floor((o.astype(np.float32) * scale).astype(np.float32))
    else:
        want = np.floor(((o + 0.5) * np.float64(scale)).astype(np.float32))
    assert np.array_equal(got, np.minimum(want.astype(np.int64), h - 1))


GRAD_CASES = [
    ((2, 2, 5), {"size": 8, "mode": "linear"}),
    ((2, 2, 5), {"size": 3, "mode": "linear", "align_corners": True}),
    ((2, 2, 5), {"scale_factor": 1.7, "mode": "nearest"}),
    ((2, 2, 5), {"size": 3, "mode": "area"}),
    ((1, 2, 5, 4), {"size": (7, 3), "mode": "bilinear"}),
    ((1, 2, 5, 4), {"size": (7, 3), "mode": "bicubic", "align_corners": True}),
    ((1, 2, 5, 4), {"size": (3, 2), "mode": "bilinear", "antialias": True}),
    ((1, 2, 5, 4), {"size": (3, 7), "mode": "bicubic", "antialias": True}),
    ((1, 2, 5, 4), {"size": (2, 3), "mode": "lanczos", "antialias": True}),
    ((1, 2, 5, 4), {"size": (3, 3), "mode": "area"}),
    ((1, 2, 5, 4), {"size": (9, 6), "mode": "nearest-exact"}),
    ((1, 2, 3, 4, 3), {"size": (5, 3, 2), "mode": "trilinear"}),
    ((1, 2, 3, 4, 3), {"size": (2, 3, 2), "mode": "area"}),
    ((1, 2, 3, 4, 3), {"scale_factor": 2, "mode": "nearest"}),
]


@pytest.mark.parametrize("shape,kw", GRAD_CASES, ids=[str(i) for i in range(len(GRAD_CASES))])
def test_gradcheck_and_gradgradcheck(shape, kw):
    x = tensor(torch, shape, 1)
    f = lambda x: F.interpolate(x, **kw)  # noqa: E731
    assert gradcheck(f, (x,))
    assert gradgradcheck(f, (x,))


def test_float32_half_uint8_and_threads():
    x = tensor(torch, (2, 3, 9, 11), 1, requires_grad=False)
    for mode in ("nearest", "bilinear", "bicubic"):
        ref = F.interpolate(x, size=(13, 7), mode=mode).numpy()
        np.testing.assert_allclose(F.interpolate(x.float(), size=(13, 7), mode=mode).numpy(), ref,
                                   rtol=1e-5, atol=1e-5)
        y = F.interpolate(x.half(), size=(13, 7), mode=mode)
        assert y.dtype == torch.float16
        np.testing.assert_allclose(y.float().numpy(), ref, rtol=0.02, atol=0.02)
    u = torch.arange(24, dtype=torch.uint8).reshape(1, 2, 3, 4)
    y = F.interpolate(u, size=(6, 2))
    assert y.dtype == torch.uint8
    assert y[0, 0].tolist() == [[0, 2], [0, 2], [4, 6], [4, 6], [8, 10], [8, 10]]
    n = torch.get_num_threads()
    big = tensor(torch, (4, 8, 32, 32), 2, requires_grad=False).float()
    try:
        torch.set_num_threads(1)
        one = F.interpolate(big, scale_factor=1.7, mode="bicubic").numpy()
    finally:
        torch.set_num_threads(n)
    assert np.array_equal(one, F.interpolate(big, scale_factor=1.7, mode="bicubic").numpy())


def test_modules_repr_and_warnings():
    assert repr(torch.nn.Upsample(scale_factor=2, mode="bilinear")) == \
        "Upsample(scale_factor=2.0, mode='bilinear')"
    assert repr(torch.nn.Upsample(size=(3, 4))) == "Upsample(size=(3, 4), mode='nearest')"
    assert repr(torch.nn.UpsamplingBilinear2d(scale_factor=(2, 3))) == \
        "UpsamplingBilinear2d(scale_factor=(2.0, 3.0), mode='bilinear')"
    assert torch.nn.UpsamplingBilinear2d(4).align_corners is True
    x = torch.zeros(1, 1, 2, 2)
    for fn, name in ((F.upsample, "upsample"), (F.upsample_nearest, "upsample_nearest"),
                     (F.upsample_bilinear, "upsample_bilinear")):
        with pytest.warns(UserWarning, match=f"`nn.functional.{name}` is deprecated. Use "
                                             "`nn.functional.interpolate` instead."):
            assert fn(x, size=3).shape == (1, 1, 3, 3)


X = torch.zeros(2, 3, 4, 5)
ERRORS = [
    (lambda: F.interpolate(X, size=(0, 3)), RuntimeError,
     "Input and output sizes should be greater than 0, but got input (H: 4, W: 5) output (H: 0, "
     "W: 3)"),
    (lambda: F.interpolate(X[0], size=0, mode="linear"), RuntimeError,
     "Input and output sizes should be greater than 0, but got input (W: 5) and output (W: 0)"),
    (lambda: F.interpolate(X[None], size=(1, 0, 3), mode="trilinear"), RuntimeError,
     "Input and output sizes should be greater than 0, but got input (D: 3, H: 4, W: 5) output "
     "(D: 1, H: 0, W: 3)"),
    (lambda: F.interpolate(X, scale_factor=0.1), RuntimeError,
     "output (H: 0, W: 0)"),
    (lambda: F.interpolate(X[:, :0], size=(3, 3), mode="bilinear"), RuntimeError,
     "Non-empty 4D data tensor expected but got a tensor with sizes [2, 0, 4, 5]"),
    (lambda: F.interpolate(X[:, :, :0], size=(3, 3)), RuntimeError,
     "Input and output sizes should be greater than 0, but got input (H: 0, W: 5) output (H: 3, "
     "W: 3)"),
    (lambda: F.interpolate(X[:, :, :0], size=(3, 3), mode="area"), RuntimeError,
     "adaptive_avg_pool2d(): Expected input to have non-zero size for non-batch dimensions, but "
     "input has sizes [2, 3, 0, 5] with dimension 2 being empty"),
    (lambda: F.interpolate(X, scale_factor=-2.0), RuntimeError,
     "output (H: -8, W: -10)"),
    (lambda: F.interpolate(X, size=(2.5, 3)), TypeError,
     "expected size to be one of int or Tuple[int] or Tuple[int, int] or Tuple[int, int, int], "
     "but got size with types [<class 'float'>, <class 'int'>]"),
    (lambda: F.interpolate(X, size=2.5), TypeError, "upsample_nearest2d() received an invalid"),
    (lambda: F.interpolate(X, size=(2, 3, 4)), ValueError,
     "Input and output must have the same number of spatial dimensions, but got input with "
     "spatial dimensions of [4, 5] and output size of (2, 3, 4). Please provide input tensor in "
     "(N, C, d1, d2, ...,dK) format and output size in (o1, o2, ...,oK) format."),
    (lambda: F.interpolate(X, scale_factor=(2, 3, 4)), ValueError,
     "Input and scale_factor must have the same number of spatial dimensions"),
    (lambda: F.interpolate(X, size=2, scale_factor=2), ValueError,
     "only one of size or scale_factor should be defined"),
    (lambda: F.interpolate(X), ValueError, "either size or scale_factor should be defined"),
    (lambda: F.interpolate(X, size=2, align_corners=True), ValueError,
     "align_corners option can only be set with the interpolating modes: linear | bilinear | "
     "bicubic | trilinear"),
    (lambda: F.interpolate(X, size=2, recompute_scale_factor=True), ValueError,
     "recompute_scale_factor is not meaningful with an explicit size."),
    (lambda: F.interpolate(X, size=2, antialias=True), ValueError,
     "Anti-alias option is restricted to bilinear, bicubic, and lanczos modes and requires a 4-D "
     "tensor as input"),
    (lambda: F.interpolate(X[0], size=2, mode="bilinear"), NotImplementedError,
     "Got 3D input, but bilinear mode needs 4D input"),
    (lambda: F.interpolate(X, size=2, mode="linear"), NotImplementedError,
     "Got 4D input, but linear mode needs 3D input"),
    (lambda: F.interpolate(X[None], size=2, mode="bicubic"), NotImplementedError,
     "Input Error: Only 3D, 4D and 5D input Tensors supported (got 5D) for the modes: nearest | "
     "linear | bilinear | bicubic | trilinear | lanczos | area | nearest-exact (got bicubic)"),
    (lambda: F.interpolate(X, size=2, mode="foo"), NotImplementedError, "(got foo)"),
    (lambda: F.interpolate(X[0, 0], size=2), NotImplementedError, "(got 2D)"),
    (lambda: F.interpolate(X, size=2, mode="lanczos", align_corners=True, antialias=True),
     ValueError, "Lanczos mode does not support align_corners=True"),
    (lambda: F.interpolate(X, size=2, mode="lanczos"), ValueError,
     "Lanczos mode requires antialias=True"),
    (lambda: F.interpolate(X.long(), size=2), NotImplementedError,
     "\"upsample_nearest2d_channels_last\" not implemented for 'Long'"),
    (lambda: F.interpolate(X.long(), size=2, mode="bicubic"), NotImplementedError,
     "\"compute_indices_weights_cubic\" not implemented for 'Long'"),
    (lambda: F.interpolate(X.long()[0], size=2, mode="linear"), NotImplementedError,
     "\"compute_indices_weights_linear\" not implemented for 'Long'"),
    (lambda: F.interpolate(X, size=(2 ** 40, 2 ** 40)), RuntimeError,
     "Storage size calculation overflowed with sizes=[2, 3, 1099511627776, 1099511627776]"),
    (lambda: F.interpolate(X, scale_factor=1e30), RuntimeError,
     "value cannot be converted to type int64_t without overflow"),
    (lambda: F.interpolate(X, scale_factor=math.nan), RuntimeError,
     "value cannot be converted to type int64_t without overflow"),
    (lambda: F.interpolate(X, scale_factor=math.inf, recompute_scale_factor=True), OverflowError,
     "cannot convert float infinity to integer"),
]


@pytest.mark.parametrize("fn,exc,msg", ERRORS, ids=[str(i) for i in range(len(ERRORS))])
def test_errors_as_torch(fn, exc, msg):
    with pytest.raises(exc) as info:
        fn()
    assert msg in str(info.value)


HOSTILE = [
    lambda: F.interpolate(X, size=(2 ** 31, 2 ** 31), mode="bilinear"),
    lambda: F.interpolate(X, size=(2 ** 62, 1), mode="bicubic", antialias=True),
    lambda: F.interpolate(X, size=(1, 2 ** 40), mode="lanczos", antialias=True),
    lambda: F.interpolate(torch.zeros(1, 1, 2 ** 20, 1).expand(2 ** 20, 2 ** 20, 2 ** 20, 1),
                          size=(2, 2)),
    lambda: torch._C._upsample(X, [3, 3, 3], "bilinear"),
    lambda: torch._C._upsample(X, [3, 3], "nearest", True),
    lambda: torch._C._upsample(X, [3, 3], "linear", False, [1.0]),
    lambda: torch._C._upsample(X, [3, 3], "foo"),
    lambda: torch._C._upsample(X, [3, 3], "lanczos"),
    lambda: torch._C._upsample_backward(torch.zeros(2, 3, 3, 3), [2, 3, 4, 5], [3, 4],
                                        "bilinear"),
    lambda: torch._C._upsample_backward(torch.zeros(2, 3, 3, 3), [2, 3, -4, 5], [3, 3],
                                        "bilinear"),
    lambda: torch._C._upsample_backward(torch.zeros(2, 3, 3, 3), [2, 3, 4], [3, 3], "bilinear"),
]


@pytest.mark.parametrize("fn", HOSTILE, ids=[str(i) for i in range(len(HOSTILE))])
def test_hostile_arguments_raise(fn):
    with pytest.raises((RuntimeError, MemoryError, TypeError, ValueError)):
        fn()


def test_empty_batch():
    assert F.interpolate(torch.zeros(0, 3, 4, 5), size=(3, 3), mode="bilinear").shape == \
        (0, 3, 3, 3)
    x = torch.zeros(0, 2, 3, requires_grad=True)
    F.interpolate(x, scale_factor=2, mode="linear").sum().backward()
    assert x.grad.shape == x.shape


if __name__ == "__main__":
    capture(CASES)

# fingerprints of torch 2.15's results (spatial_ref.capture)
REF = {
    '1d:mode=nearest,size=1': {
        'y': [[2, 3, 1], 3.099046614622918, 8.862334136297088, [1.7483257479167602, -0.39851485802613784, -1.7294231524820987, -0.14353091740450769]],
        'gx': [[2, 3, 7], 1.9426478847472088, 3.7086181382936454, [0.7112859983220238, 0.0, 0.0, 0.0]],
    },
    '1d:mode=nearest,size=3': {
        'y': [[2, 3, 3], -0.4325411197529365, 21.024549415754922, [1.7483257479167602, 0.561740777085582, -1.470899744024035, -0.39851485802613784]],
        'gx': [[2, 3, 7], -0.6063239351602496, 18.3207829563473, [0.7112859983220238, 0.0, -0.34879759443078084, 0.0]],
    },
    '1d:mode=nearest,size=7': {
        'y': [[2, 3, 7], -12.408975951941185, 55.62878753851742, [1.7483257479167602, 1.4638165491636963, 0.561740777085582, -0.5796740661281461]],
        'gx': [[2, 3, 7], 45.098197667600175, 47.38706079499468, [0.7112859983220238, -0.34879759443078084, -1.0904068005441265, -1.1847694422857866]],
    },
    '1d:mode=nearest,size=14': {
        'y': [[2, 3, 14], -6.640214024420987, 111.25757507703486, [1.7483257479167602, 1.7483257479167602, 1.4638165491636963, 1.4638165491636963]],
        'gx': [[2, 3, 7], -8.77387117576245, 183.50969708723213, [0.3624884038912429, -2.275176242829913, -0.2669018067383454, 2.728535267424286]],
    },
    '1d:mode=nearest,size=13': {
        'y': [[2, 3, 13], -0.8248936788241661, 99.5056203614036, [1.7483257479167602, 1.7483257479167602, 1.4638165491636963, 1.4638165491636963]],
        'gx': [[2, 3, 7], -4.878876271936447, 162.43559802018703, [0.3624884038912429, -2.275176242829913, -0.2669018067383454, 2.728535267424286]],
    },
    '1d:mode=nearest,scale_factor=0.5': {
        'y': [[2, 3, 3], -0.4325411197529365, 21.024549415754922, [1.7483257479167602, 0.561740777085582, -1.470899744024035, -0.39851485802613784]],
        'gx': [[2, 3, 7], -0.6063239351602496, 18.3207829563473, [0.7112859983220238, 0.0, -0.34879759443078084, 0.0]],
    },
    '1d:mode=nearest,recompute_scale_factor=True,scale_factor=0.5': {
        'y': [[2, 3, 3], -0.4325411197529365, 21.024549415754922, [1.7483257479167602, 0.561740777085582, -1.470899744024035, -0.39851485802613784]],
        'gx': [[2, 3, 7], -0.6063239351602496, 18.3207829563473, [0.7112859983220238, 0.0, -0.34879759443078084, 0.0]],
    },
    '1d:mode=nearest,scale_factor=2': {
        'y': [[2, 3, 14], -6.640214024420987, 111.25757507703486, [1.7483257479167602, 1.7483257479167602, 1.4638165491636963, 1.4638165491636963]],
        'gx': [[2, 3, 7], -8.77387117576245, 183.50969708723213, [0.3624884038912429, -2.275176242829913, -0.2669018067383454, 2.728535267424286]],
    },
    '1d:mode=nearest,recompute_scale_factor=True,scale_factor=2': {
        'y': [[2, 3, 14], -6.640214024420987, 111.25757507703486, [1.7483257479167602, 1.7483257479167602, 1.4638165491636963, 1.4638165491636963]],
        'gx': [[2, 3, 7], -8.77387117576245, 183.50969708723213, [0.3624884038912429, -2.275176242829913, -0.2669018067383454, 2.728535267424286]],
    },
    '1d:mode=nearest,scale_factor=1.7': {
        'y': [[2, 3, 11], -6.725235590938893, 83.468463986552, [1.7483257479167602, 1.7483257479167602, 1.4638165491636963, 1.4638165491636963]],
        'gx': [[2, 3, 7], -0.20538447167871976, 135.58006625617733, [0.3624884038912429, -2.275176242829913, -0.2669018067383454, 1.1981011822180536]],
    },
    '1d:mode=nearest,recompute_scale_factor=True,scale_factor=1.7': {
        'y': [[2, 3, 11], -7.034154813087911, 87.34340508194578, [1.7483257479167602, 1.7483257479167602, 1.4638165491636963, 1.4638165491636963]],
        'gx': [[2, 3, 7], -3.8455491097703702, 123.51303917933375, [0.3624884038912429, -2.275176242829913, -0.6092379858634537, 1.540437361343162]],
    },
    '1d:mode=nearest,scale_factor=0.3': {
        'y': [[2, 3, 2], 1.7173158131114932, 13.147535795517452, [1.7483257479167602, -0.5796740661281461, -0.39851485802613784, 0.7853993437833744]],
        'gx': [[2, 3, 7], -2.36336413587219, 12.098828047021296, [0.7112859983220238, 0.0, 0.0, -0.34879759443078084]],
    },
    '1d:mode=nearest,recompute_scale_factor=True,scale_factor=0.3': {
        'y': [[2, 3, 2], 1.7173158131114932, 13.147535795517452, [1.7483257479167602, -0.5796740661281461, -0.39851485802613784, 0.7853993437833744]],
        'gx': [[2, 3, 7], -2.36336413587219, 12.098828047021296, [0.7112859983220238, 0.0, 0.0, -0.34879759443078084]],
    },
    '1d:mode=nearest-exact,size=1': {
        'y': [[2, 3, 1], -1.5297580477612174, 4.2852016592203634, [-0.5796740661281461, 0.7853993437833744, 1.0689788606425845, -0.41219824219125745]],
        'gx': [[2, 3, 7], -2.600089444238055, 3.708618138293646, [0.0, 0.0, 0.0, 0.7112859983220238]],
    },
    '1d:mode=nearest-exact,size=3': {
        'y': [[2, 3, 3], 1.071518291811746, 22.852283407131264, [1.4638165491636963, -0.5796740661281461, -1.7389345877479714, 0.5130438649130598]],
        'gx': [[2, 3, 7], -3.590204000151816, 18.320782956347298, [0.0, 0.7112859983220238, 0.0, -0.34879759443078084]],
    },
    '1d:mode=nearest-exact,size=7': {
        'y': [[2, 3, 7], -12.408975951941185, 55.62878753851742, [1.7483257479167602, 1.4638165491636963, 0.561740777085582, -0.5796740661281461]],
        'gx': [[2, 3, 7], 45.098197667600175, 47.38706079499468, [0.7112859983220238, -0.34879759443078084, -1.0904068005441265, -1.1847694422857866]],
    },
    '1d:mode=nearest-exact,size=14': {
        'y': [[2, 3, 14], -6.640214024420987, 111.25757507703486, [1.7483257479167602, 1.7483257479167602, 1.4638165491636963, 1.4638165491636963]],
        'gx': [[2, 3, 7], -8.77387117576245, 183.50969708723213, [0.3624884038912429, -2.275176242829913, -0.2669018067383454, 2.728535267424286]],
    },
    '1d:mode=nearest-exact,size=13': {
        'y': [[2, 3, 13], -0.19960721419589755, 106.97237341781448, [1.7483257479167602, 1.7483257479167602, 1.4638165491636963, 1.4638165491636963]],
        'gx': [[2, 3, 7], -5.915347421321568, 169.11344037556916, [0.3624884038912429, -2.275176242829913, -0.2669018067383454, 1.1981011822180536]],
    },
    '1d:mode=nearest-exact,scale_factor=0.5': {
        'y': [[2, 3, 3], 1.071518291811746, 22.852283407131264, [1.4638165491636963, -0.5796740661281461, -1.7389345877479714, 0.5130438649130598]],
        'gx': [[2, 3, 7], -3.590204000151816, 18.320782956347298, [0.0, 0.7112859983220238, 0.0, -0.34879759443078084]],
    },
    '1d:mode=nearest-exact,recompute_scale_factor=True,scale_factor=0.5': {
        'y': [[2, 3, 3], 1.071518291811746, 22.852283407131264, [1.4638165491636963, -0.5796740661281461, -1.7389345877479714, 0.5130438649130598]],
        'gx': [[2, 3, 7], -3.590204000151816, 18.320782956347298, [0.0, 0.7112859983220238, 0.0, -0.34879759443078084]],
    },
    '1d:mode=nearest-exact,scale_factor=2': {
        'y': [[2, 3, 14], -6.640214024420987, 111.25757507703486, [1.7483257479167602, 1.7483257479167602, 1.4638165491636963, 1.4638165491636963]],
        'gx': [[2, 3, 7], -8.77387117576245, 183.50969708723213, [0.3624884038912429, -2.275176242829913, -0.2669018067383454, 2.728535267424286]],
    },
    '1d:mode=nearest-exact,recompute_scale_factor=True,scale_factor=2': {
        'y': [[2, 3, 14], -6.640214024420987, 111.25757507703486, [1.7483257479167602, 1.7483257479167602, 1.4638165491636963, 1.4638165491636963]],
        'gx': [[2, 3, 7], -8.77387117576245, 183.50969708723213, [0.3624884038912429, -2.275176242829913, -0.2669018067383454, 2.728535267424286]],
    },
    '1d:mode=nearest-exact,scale_factor=1.7': {
        'y': [[2, 3, 11], -2.4085762361311733, 84.74844804263654, [1.7483257479167602, 1.7483257479167602, 1.4638165491636963, 0.561740777085582]],
        'gx': [[2, 3, 7], -2.823242322730216, 120.87397709312701, [0.3624884038912429, -1.0904068005441265, -1.7940074281492402, 1.540437361343162]],
    },
    '1d:mode=nearest-exact,recompute_scale_factor=True,scale_factor=1.7': {
        'y': [[2, 3, 11], -5.230333120553445, 88.4052916699036, [1.7483257479167602, 1.7483257479167602, 1.4638165491636963, 0.561740777085582]],
        'gx': [[2, 3, 7], -2.6679476762507908, 126.8280593496496, [0.3624884038912429, -1.0904068005441265, -1.7940074281492402, 0.3423361791251083]],
    },
    '1d:mode=nearest-exact,scale_factor=0.3': {
        'y': [[2, 3, 2], 6.537758536128899, 18.5670817479109, [1.4638165491636963, -1.7389345877479714, 0.5130438649130598, -0.9705592379487341]],
        'gx': [[2, 3, 7], -3.481683068068844, 12.098828047021295, [0.0, 0.7112859983220238, 0.0, 0.0]],
    },
    '1d:mode=nearest-exact,recompute_scale_factor=True,scale_factor=0.3': {
        'y': [[2, 3, 2], 6.537758536128899, 18.5670817479109, [1.4638165491636963, -1.7389345877479714, 0.5130438649130598, -0.9705592379487341]],
        'gx': [[2, 3, 7], -3.481683068068844, 12.098828047021295, [0.0, 0.7112859983220238, 0.0, 0.0]],
    },
    '1d:align_corners=False,mode=linear,size=1': {
        'y': [[2, 3, 1], -1.5297580477612174, 4.2852016592203634, [-0.5796740661281461, 0.7853993437833744, 1.0689788606425845, -0.41219824219125745]],
        'gx': [[2, 3, 7], -2.600089444238055, 3.708618138293646, [0.0, 0.0, 0.0, 0.7112859983220238]],
    },
    '1d:align_corners=False,mode=linear,size=3': {
        'y': [[2, 3, 3], -0.17853299060639694, 22.41500787854029, [1.558652948748051, -0.5796740661281461, -1.5927512511814532, 0.20919095726666062]],
        'gx': [[2, 3, 7], -3.6137612886783126, 12.79601175626426, [0.23709533277400788, 0.4741906655480159, 0.0, -0.34879759443078084]],
    },
    '1d:align_corners=False,mode=linear,size=7': {
        'y': [[2, 3, 7], -12.408975951941185, 55.62878753851742, [1.7483257479167602, 1.4638165491636963, 0.561740777085582, -0.5796740661281461]],
        'gx': [[2, 3, 7], 45.098197667600175, 47.38706079499468, [0.7112859983220238, -0.34879759443078084, -1.0904068005441265, -1.1847694422857866]],
    },
    '1d:align_corners=False,mode=linear,size=14': {
        'y': [[2, 3, 14], -6.207115347154587, 104.1031112598863, [1.7483257479167602, 1.6771984482284943, 1.5349438488519622, 1.2382976061441677]],
        'gx': [[2, 3, 7], -8.59763950224371, 152.59129412107077, [0.1770861023629065, -1.9458910771959934, -0.19684342007069233, 2.4213303315733588]],
    },
    '1d:align_corners=False,mode=linear,size=13': {
        'y': [[2, 3, 13], -0.583951511070594, 97.44781585778439, [1.7483257479167602, 1.6607844559927405, 1.507587195125706, 1.1168643291336524]],
        'gx': [[2, 3, 7], -5.537550166407448, 139.20906582605681, [0.30205584824777126, -1.805927592912174, -0.8337192144549704, 2.062456688832519]],
    },
    '1d:align_corners=False,mode=linear,scale_factor=0.5': {
        'y': [[2, 3, 3], 0.31948858602940444, 19.538445875326836, [1.6060711485402281, -0.008966644521282041, -1.604917165886003, 0.05726450344346096]],
        'gx': [[2, 3, 7], -2.0982639676560333, 9.160391478173649, [0.3556429991610119, 0.3556429991610119, -0.17439879721539042, -0.17439879721539042]],
    },
    '1d:align_corners=False,mode=linear,recompute_scale_factor=True,scale_factor=0.5': {
        'y': [[2, 3, 3], -0.17853299060639694, 22.41500787854029, [1.558652948748051, -0.5796740661281461, -1.5927512511814532, 0.20919095726666062]],
        'gx': [[2, 3, 7], -3.6137612886783126, 12.79601175626426, [0.23709533277400788, 0.4741906655480159, 0.0, -0.34879759443078084]],
    },
    '1d:align_corners=False,mode=linear,scale_factor=2': {
        'y': [[2, 3, 14], -6.207115347154587, 104.1031112598863, [1.7483257479167602, 1.6771984482284943, 1.5349438488519622, 1.2382976061441677]],
        'gx': [[2, 3, 7], -8.59763950224371, 152.59129412107077, [0.1770861023629065, -1.9458910771959934, -0.19684342007069233, 2.4213303315733588]],
    },
    '1d:align_corners=False,mode=linear,recompute_scale_factor=True,scale_factor=2': {
        'y': [[2, 3, 14], -6.207115347154587, 104.1031112598863, [1.7483257479167602, 1.6771984482284943, 1.5349438488519622, 1.2382976061441677]],
        'gx': [[2, 3, 7], -8.59763950224371, 152.59129412107077, [0.1770861023629065, -1.9458910771959934, -0.19684342007069233, 2.4213303315733588]],
    },
    '1d:align_corners=False,mode=linear,scale_factor=1.7': {
        'y': [[2, 3, 11], -6.798502714164883, 78.73436086130785, [1.7483257479167602, 1.6395428189817653, 1.4721844667740807, 0.9597153824141619]],
        'gx': [[2, 3, 7], -2.232894946660215, 105.61293268266179, [0.463781401745832, -1.714392199407151, -1.091102805333651, 1.1076424704542456]],
    },
    '1d:align_corners=False,mode=linear,recompute_scale_factor=True,scale_factor=1.7': {
        'y': [[2, 3, 11], -6.373055067916058, 82.53106737808082, [1.7483257479167602, 1.6190033848471856, 1.3818096607929586, 0.807761442197795]],
        'gx': [[2, 3, 7], -0.9669719311720739, 106.91285352719203, [0.5210327649961434, -1.4729422094956846, -1.348475294534054, 0.5564682505267811]],
    },
    '1d:align_corners=False,mode=linear,scale_factor=0.3': {
        'y': [[2, 3, 2], 4.222496858734867, 15.09733652622804, [1.313470587150677, -1.604917165886003, 0.5917271549004613, -0.4812747774120407]],
        'gx': [[2, 3, 7], -1.6828708754512287, 7.283838256982543, [0.0, 0.5927383319350198, 0.11854766638700401, 0.0]],
    },
    '1d:align_corners=False,mode=linear,recompute_scale_factor=True,scale_factor=0.3': {
        'y': [[2, 3, 2], 4.981835640975427, 15.816645801807574, [1.2382976061441677, -1.6719258768169873, 0.6310687998941622, -0.7259170076803874]],
        'gx': [[2, 3, 7], -2.0344213586616333, 7.561767529388309, [0.0, 0.5334644987415178, 0.17782149958050594, 0.0]],
    },
    '1d:align_corners=True,mode=linear,size=1': {
        'y': [[2, 3, 1], 3.099046614622918, 8.862334136297088, [1.7483257479167602, -0.39851485802613784, -1.7294231524820987, -0.14353091740450769]],
        'gx': [[2, 3, 7], 1.9426478847472088, 3.7086181382936454, [0.7112859983220238, 0.0, 0.0, 0.0]],
    },
    '1d:align_corners=True,mode=linear,size=3': {
        'y': [[2, 3, 3], -2.6786355554426793, 24.899490511148695, [1.7483257479167602, -0.5796740661281461, -1.3003845780484178, -0.39851485802613784]],
        'gx': [[2, 3, 7], -3.660875865731309, 18.320782956347298, [0.7112859983220238, 0.0, 0.0, -0.34879759443078084]],
    },
    '1d:align_corners=True,mode=linear,size=7': {
        'y': [[2, 3, 7], -12.408975951941185, 55.62878753851742, [1.7483257479167602, 1.4638165491636963, 0.561740777085582, -0.5796740661281461]],
        'gx': [[2, 3, 7], 45.098197667600175, 47.38706079499468, [0.7112859983220238, -0.34879759443078084, -1.0904068005441265, -1.1847694422857866]],
    },
    '1d:align_corners=True,mode=linear,size=14': {
        'y': [[2, 3, 14], -5.737413506923153, 101.76788184681304, [1.7483257479167602, 1.6170138100307307, 1.485701872144701, 1.1168643291336524]],
        'gx': [[2, 3, 7], -6.839922740886212, 154.6960830249309, [0.4395944628174398, -1.9903306679328774, -0.4577027613189838, 2.5603242131019357]],
    },
    '1d:align_corners=True,mode=linear,size=13': {
        'y': [[2, 3, 13], -0.6238558863773289, 96.18078810630499, [1.7483257479167602, 1.6060711485402281, 1.4638165491636963, 1.0127786631246392]],
        'gx': [[2, 3, 7], -4.339346013525428, 144.4892602941826, [0.5368872011066333, -1.8571903189024104, -1.0304546174437927, 2.1344863143837243]],
    },
    '1d:align_corners=True,mode=linear,scale_factor=0.5': {
        'y': [[2, 3, 3], -2.6786355554426793, 24.899490511148695, [1.7483257479167602, -0.5796740661281461, -1.3003845780484178, -0.39851485802613784]],
        'gx': [[2, 3, 7], -3.660875865731309, 18.320782956347298, [0.7112859983220238, 0.0, 0.0, -0.34879759443078084]],
    },
    '1d:align_corners=True,mode=linear,recompute_scale_factor=True,scale_factor=0.5': {
        'y': [[2, 3, 3], -2.6786355554426793, 24.899490511148695, [1.7483257479167602, -0.5796740661281461, -1.3003845780484178, -0.39851485802613784]],
        'gx': [[2, 3, 7], -3.660875865731309, 18.320782956347298, [0.7112859983220238, 0.0, 0.0, -0.34879759443078084]],
    },
    '1d:align_corners=True,mode=linear,scale_factor=2': {
        'y': [[2, 3, 14], -5.737413506923153, 101.76788184681304, [1.7483257479167602, 1.6170138100307307, 1.485701872144701, 1.1168643291336524]],
        'gx': [[2, 3, 7], -6.839922740886212, 154.6960830249309, [0.4395944628174398, -1.9903306679328774, -0.4577027613189838, 2.5603242131019357]],
    },
    '1d:align_corners=True,mode=linear,recompute_scale_factor=True,scale_factor=2': {
        'y': [[2, 3, 14], -5.737413506923153, 101.76788184681304, [1.7483257479167602, 1.6170138100307307, 1.485701872144701, 1.1168643291336524]],
        'gx': [[2, 3, 7], -6.839922740886212, 154.6960830249309, [0.4395944628174398, -1.9903306679328774, -0.4577027613189838, 2.5603242131019357]],
    },
    '1d:align_corners=True,mode=linear,scale_factor=1.7': {
        'y': [[2, 3, 11], -6.281968760891935, 80.67105219974214, [1.7483257479167602, 1.577620228664922, 1.2834013947480736, 0.7421559315012051]],
        'gx': [[2, 3, 7], -0.7726666175475323, 104.53804782309258, [0.5717669605497114, -1.3185578855509275, -1.5314397054555267, 0.5778814576669488]],
    },
    '1d:align_corners=True,mode=linear,recompute_scale_factor=True,scale_factor=1.7': {
        'y': [[2, 3, 11], -6.281968760891935, 80.67105219974214, [1.7483257479167602, 1.577620228664922, 1.2834013947480736, 0.7421559315012051]],
        'gx': [[2, 3, 7], -0.7726666175475323, 104.53804782309258, [0.5717669605497114, -1.3185578855509275, -1.5314397054555267, 0.5778814576669488]],
    },
    '1d:align_corners=True,mode=linear,scale_factor=0.3': {
        'y': [[2, 3, 2], 11.38458835537766, 20.614288851928332, [1.7483257479167602, -1.3003845780484178, -0.39851485802613784, -1.6691833497028217]],
        'gx': [[2, 3, 7], -8.522811805530354, 12.098828047021295, [0.7112859983220238, 0.0, 0.0, 0.0]],
    },
    '1d:align_corners=True,mode=linear,recompute_scale_factor=True,scale_factor=0.3': {
        'y': [[2, 3, 2], 11.38458835537766, 20.614288851928332, [1.7483257479167602, -1.3003845780484178, -0.39851485802613784, -1.6691833497028217]],
        'gx': [[2, 3, 7], -8.522811805530354, 12.098828047021295, [0.7112859983220238, 0.0, 0.0, 0.0]],
    },
    '1d:mode=area,size=1': {
        'y': [[2, 3, 1], -0.8036634812929768, 0.48821238135791617, [-0.18800141454036162, -0.1066658498598768, 0.3250775433408619, 0.2049070841006355]],
        'gx': [[2, 3, 7], -0.17231028818898292, 0.5298025911848065, [0.10161228547457482, 0.10161228547457482, 0.10161228547457482, 0.10161228547457482]],
    },
    '1d:mode=area,size=3': {
        'y': [[2, 3, 3], 0.6843862137761192, 16.75673075346382, [1.2579610247220128, -0.4962776776888664, -1.5034063032734746, 0.3665575372414637]],
        'gx': [[2, 3, 7], -3.2788914695119087, 8.087809546399333, [0.23709533277400793, 0.23709533277400793, 0.12082946796374765, -0.11626586481026029]],
    },
    '1d:mode=area,size=7': {
        'y': [[2, 3, 7], -12.408975951941185, 55.62878753851742, [1.7483257479167602, 1.4638165491636963, 0.561740777085582, -0.5796740661281461]],
        'gx': [[2, 3, 7], 45.098197667600175, 47.38706079499468, [0.7112859983220238, -0.34879759443078084, -1.0904068005441265, -1.1847694422857866]],
    },
    '1d:mode=area,size=14': {
        'y': [[2, 3, 14], -6.640214024420987, 111.25757507703486, [1.7483257479167602, 1.7483257479167602, 1.4638165491636963, 1.4638165491636963]],
        'gx': [[2, 3, 7], -8.77387117576245, 183.50969708723213, [0.3624884038912429, -2.275176242829913, -0.2669018067383454, 2.728535267424286]],
    },
    '1d:mode=area,size=13': {
        'y': [[2, 3, 13], -0.6238558863773289, 96.18078810630499, [1.7483257479167602, 1.6060711485402281, 1.4638165491636963, 1.0127786631246392]],
        'gx': [[2, 3, 7], -4.339346013525428, 144.4892602941826, [0.5368872011066333, -1.8571903189024104, -1.0304546174437927, 2.1344863143837243]],
    },
    '1d:mode=area,scale_factor=0.5': {
        'y': [[2, 3, 3], 0.6843862137761192, 16.75673075346382, [1.2579610247220128, -0.4962776776888664, -1.5034063032734746, 0.3665575372414637]],
        'gx': [[2, 3, 7], -3.2788914695119087, 8.087809546399333, [0.23709533277400793, 0.23709533277400793, 0.12082946796374765, -0.11626586481026029]],
    },
    '1d:mode=area,recompute_scale_factor=True,scale_factor=0.5': {
        'y': [[2, 3, 3], 0.6843862137761192, 16.75673075346382, [1.2579610247220128, -0.4962776776888664, -1.5034063032734746, 0.3665575372414637]],
        'gx': [[2, 3, 7], -3.2788914695119087, 8.087809546399333, [0.23709533277400793, 0.23709533277400793, 0.12082946796374765, -0.11626586481026029]],
    },
    '1d:mode=area,scale_factor=2': {
        'y': [[2, 3, 14], -6.640214024420987, 111.25757507703486, [1.7483257479167602, 1.7483257479167602, 1.4638165491636963, 1.4638165491636963]],
        'gx': [[2, 3, 7], -8.77387117576245, 183.50969708723213, [0.3624884038912429, -2.275176242829913, -0.2669018067383454, 2.728535267424286]],
    },
    '1d:mode=area,recompute_scale_factor=True,scale_factor=2': {
        'y': [[2, 3, 14], -6.640214024420987, 111.25757507703486, [1.7483257479167602, 1.7483257479167602, 1.4638165491636963, 1.4638165491636963]],
        'gx': [[2, 3, 7], -8.77387117576245, 183.50969708723213, [0.3624884038912429, -2.275176242829913, -0.2669018067383454, 2.728535267424286]],
    },
    '1d:mode=area,scale_factor=1.7': {
        'y': [[2, 3, 11], -7.05827392537752, 84.01857282684716, [1.7483257479167602, 1.6060711485402281, 1.4638165491636963, 1.0127786631246392]],
        'gx': [[2, 3, 7], -0.3593657006633939, 111.34823513003846, [0.5368872011066333, -1.8571903189024104, -0.8970037140746201, 0.6367677773024083]],
    },
    '1d:mode=area,recompute_scale_factor=True,scale_factor=1.7': {
        'y': [[2, 3, 11], -7.05827392537752, 84.01857282684716, [1.7483257479167602, 1.6060711485402281, 1.4638165491636963, 1.0127786631246392]],
        'gx': [[2, 3, 7], -0.3593657006633939, 111.34823513003846, [0.5368872011066333, -1.8571903189024104, -0.8970037140746201, 0.6367677773024083]],
    },
    '1d:mode=area,scale_factor=0.3': {
        'y': [[2, 3, 2], 3.4675514764258653, 8.55443527007387, [0.798552252009473, -1.2724732439871427, 0.4712679888769414, -0.4615833901858822]],
        'gx': [[2, 3, 7], -0.8945597693249852, 3.5585951563149387, [0.17782149958050594, 0.17782149958050594, 0.17782149958050594, 0.09062210097281073]],
    },
    '1d:mode=area,recompute_scale_factor=True,scale_factor=0.3': {
        'y': [[2, 3, 2], 3.4675514764258653, 8.55443527007387, [0.798552252009473, -1.2724732439871427, 0.4712679888769414, -0.4615833901858822]],
        'gx': [[2, 3, 7], -0.8945597693249852, 3.5585951563149387, [0.17782149958050594, 0.17782149958050594, 0.17782149958050594, 0.09062210097281073]],
    },
    '2d:mode=nearest,size=(1, 1)': {
        'y': [[2, 3, 1, 1], -1.965040122221398, 8.70720628037561, [1.7483257479167602, 0.6060459709269833, -0.02024980727773598, -0.2568038564997384]],
        'gx': [[2, 3, 7, 5], -3.496603179966378, 3.708618138293646, [0.7112859983220238, 0.0, 0.0, 0.0]],
    },
    '2d:mode=nearest,size=(3, 2)': {
        'y': [[2, 3, 3, 2], -0.010393378337788528, 44.445779947012035, [1.7483257479167602, 0.561740777085582, 0.7853993437833744, -0.9705592379487341]],
        'gx': [[2, 3, 7, 5], 3.1807328051127133, 43.21853647839121, [0.7112859983220238, 0.0, -0.34879759443078084, 0.0]],
    },
    '2d:mode=nearest,size=(14, 10)': {
        'y': [[2, 3, 14, 10], -5.420523233638555, 1051.094842401727, [1.7483257479167602, 1.7483257479167602, 1.4638165491636963, 1.4638165491636963]],
        'gx': [[2, 3, 7, 5], -0.6828846490841927, 3209.4482743630415, [-2.0657341983281783, -5.010990557525814, 0.37991707133582203, 4.549160160679287]],
    },
    '2d:mode=nearest,size=(13, 11)': {
        'y': [[2, 3, 13, 11], -84.3397082805967, 1076.8227230388115, [1.7483257479167602, 1.7483257479167602, 1.7483257479167602, 1.4638165491636963]],
        'gx': [[2, 3, 7, 5], -0.28010592812002066, 2378.4498221827475, [-5.047058885418711, -1.147188550075073, 3.3610622545981634, 1.2988916017837624]],
    },
    '2d:mode=nearest,size=(4, 9)': {
        'y': [[2, 3, 4, 9], 55.37852334313047, 273.2171381204329, [1.7483257479167602, 1.7483257479167602, 1.4638165491636963, 1.4638165491636963]],
        'gx': [[2, 3, 7, 5], 13.49903752554475, 463.95699873915385, [0.3624884038912429, -2.275176242829913, -0.2669018067383454, 2.728535267424286]],
    },
    '2d:mode=nearest,scale_factor=0.5': {
        'y': [[2, 3, 3, 2], -0.010393378337788528, 44.445779947012035, [1.7483257479167602, 0.561740777085582, 0.7853993437833744, -0.9705592379487341]],
        'gx': [[2, 3, 7, 5], 3.1807328051127133, 43.21853647839121, [0.7112859983220238, 0.0, -0.34879759443078084, 0.0]],
    },
    '2d:mode=nearest,recompute_scale_factor=True,scale_factor=0.5': {
        'y': [[2, 3, 3, 2], -0.010393378337788528, 44.445779947012035, [1.7483257479167602, 0.561740777085582, 0.7853993437833744, -0.9705592379487341]],
        'gx': [[2, 3, 7, 5], 3.1807328051127133, 43.21853647839121, [0.7112859983220238, 0.0, -0.34879759443078084, 0.0]],
    },
    '2d:mode=nearest,scale_factor=2': {
        'y': [[2, 3, 14, 10], -5.420523233638555, 1051.094842401727, [1.7483257479167602, 1.7483257479167602, 1.4638165491636963, 1.4638165491636963]],
        'gx': [[2, 3, 7, 5], -0.6828846490841927, 3209.4482743630415, [-2.0657341983281783, -5.010990557525814, 0.37991707133582203, 4.549160160679287]],
    },
    '2d:mode=nearest,recompute_scale_factor=True,scale_factor=2': {
        'y': [[2, 3, 14, 10], -5.420523233638555, 1051.094842401727, [1.7483257479167602, 1.7483257479167602, 1.4638165491636963, 1.4638165491636963]],
        'gx': [[2, 3, 7, 5], -0.6828846490841927, 3209.4482743630415, [-2.0657341983281783, -5.010990557525814, 0.37991707133582203, 4.549160160679287]],
    },
    '2d:mode=nearest,scale_factor=(1.7, 0.6)': {
        'y': [[2, 3, 11, 3], -39.329347275123, 247.5868072802708, [1.7483257479167602, 1.4638165491636963, -0.5796740661281461, 1.7483257479167602]],
        'gx': [[2, 3, 7, 5], 18.677544513237837, 152.0665857532076, [-0.47348344396376285, -0.9580355802942345, 0.0, -0.7480706214190183]],
    },
    '2d:mode=nearest,recompute_scale_factor=True,scale_factor=(1.7, 0.6)': {
        'y': [[2, 3, 11, 3], -24.183311481161404, 249.04448328862648, [1.7483257479167602, 1.4638165491636963, -0.5796740661281461, 1.7483257479167602]],
        'gx': [[2, 3, 7, 5], 30.061114157105578, 188.56872383187698, [-0.47348344396376285, -0.9580355802942345, 0.0, -0.7480706214190183]],
    },
    '2d:mode=nearest,scale_factor=(2.5, 1.25)': {
        'y': [[2, 3, 17, 6], 9.942689580344782, 767.2935384794481, [1.7483257479167602, 1.7483257479167602, 1.4638165491636963, 0.561740777085582]],
        'gx': [[2, 3, 7, 5], -18.48053005180417, 406.5768864424526, [0.3552093566196284, -0.040907473005088846, -0.2015179687709221, -0.3623182372259406]],
    },
    '2d:mode=nearest,recompute_scale_factor=True,scale_factor=(2.5, 1.25)': {
        'y': [[2, 3, 17, 6], 9.942689580344782, 767.2935384794481, [1.7483257479167602, 1.7483257479167602, 1.4638165491636963, 0.561740777085582]],
        'gx': [[2, 3, 7, 5], -18.48053005180417, 406.5768864424526, [0.3552093566196284, -0.040907473005088846, -0.2015179687709221, -0.3623182372259406]],
    },
    '2d:mode=nearest-exact,size=(1, 1)': {
        'y': [[2, 3, 1, 1], 2.015035800776988, 7.706593440760103, [1.0689788606425845, 0.6424857868125289, -0.8803483870418527, -1.8559539665869202]],
        'gx': [[2, 3, 7, 5], -3.333960038930008, 3.7086181382936454, [0.0, 0.0, 0.0, 0.0]],
    },
    '2d:mode=nearest-exact,size=(3, 2)': {
        'y': [[2, 3, 3, 2], -4.988158153219564, 44.86954403525025, [-1.3003845780484178, 0.5130438649130598, 0.0023146738263237973, 1.6599926438980432]],
        'gx': [[2, 3, 7, 5], -0.19080734854901316, 43.21853647839121, [0.0, 0.0, 0.0, 0.0]],
    },
    '2d:mode=nearest-exact,size=(14, 10)': {
        'y': [[2, 3, 14, 10], -5.420523233638555, 1051.094842401727, [1.7483257479167602, 1.7483257479167602, 1.4638165491636963, 1.4638165491636963]],
        'gx': [[2, 3, 7, 5], -0.6828846490841927, 3209.4482743630415, [-2.0657341983281783, -5.010990557525814, 0.37991707133582203, 4.549160160679287]],
    },
    '2d:mode=nearest-exact,size=(13, 11)': {
        'y': [[2, 3, 13, 11], 36.7641844940173, 1070.9789514890035, [1.7483257479167602, 1.7483257479167602, 1.4638165491636963, 1.4638165491636963]],
        'gx': [[2, 3, 7, 5], -57.615472407082294, 2278.1070798732117, [-2.8847024388994593, -3.4550059061614684, 3.5065231641653076, 1.2988916017837624]],
    },
    '2d:mode=nearest-exact,size=(4, 9)': {
        'y': [[2, 3, 4, 9], -59.67685264736528, 270.1639117541101, [1.7483257479167602, 1.7483257479167602, 1.4638165491636963, 1.4638165491636963]],
        'gx': [[2, 3, 7, 5], -47.855237618031246, 483.1047583490474, [0.3624884038912429, -2.275176242829913, -0.6092379858634537, 1.540437361343162]],
    },
    '2d:mode=nearest-exact,scale_factor=0.5': {
        'y': [[2, 3, 3, 2], -4.988158153219564, 44.86954403525025, [-1.3003845780484178, 0.5130438649130598, 0.0023146738263237973, 1.6599926438980432]],
        'gx': [[2, 3, 7, 5], -0.19080734854901316, 43.21853647839121, [0.0, 0.0, 0.0, 0.0]],
    },
    '2d:mode=nearest-exact,recompute_scale_factor=True,scale_factor=0.5': {
        'y': [[2, 3, 3, 2], -4.988158153219564, 44.86954403525025, [-1.3003845780484178, 0.5130438649130598, 0.0023146738263237973, 1.6599926438980432]],
        'gx': [[2, 3, 7, 5], -0.19080734854901316, 43.21853647839121, [0.0, 0.0, 0.0, 0.0]],
    },
    '2d:mode=nearest-exact,scale_factor=2': {
        'y': [[2, 3, 14, 10], -5.420523233638555, 1051.094842401727, [1.7483257479167602, 1.7483257479167602, 1.4638165491636963, 1.4638165491636963]],
        'gx': [[2, 3, 7, 5], -0.6828846490841927, 3209.4482743630415, [-2.0657341983281783, -5.010990557525814, 0.37991707133582203, 4.549160160679287]],
    },
    '2d:mode=nearest-exact,recompute_scale_factor=True,scale_factor=2': {
        'y': [[2, 3, 14, 10], -5.420523233638555, 1051.094842401727, [1.7483257479167602, 1.7483257479167602, 1.4638165491636963, 1.4638165491636963]],
        'gx': [[2, 3, 7, 5], -0.6828846490841927, 3209.4482743630415, [-2.0657341983281783, -5.010990557525814, 0.37991707133582203, 4.549160160679287]],
    },
    '2d:mode=nearest-exact,scale_factor=(1.7, 0.6)': {
        'y': [[2, 3, 11, 3], -5.6919209475046735, 250.93136711523022, [1.7483257479167602, 0.561740777085582, -1.470899744024035, 1.7483257479167602]],
        'gx': [[2, 3, 7, 5], 18.351948144275944, 186.0234268184405, [-0.47348344396376285, 0.0, -0.9580355802942345, 0.0]],
    },
    '2d:mode=nearest-exact,recompute_scale_factor=True,scale_factor=(1.7, 0.6)': {
        'y': [[2, 3, 11, 3], 1.6904733108709165, 247.90895543514114, [1.7483257479167602, 0.561740777085582, -1.470899744024035, 1.7483257479167602]],
        'gx': [[2, 3, 7, 5], 4.752520491401722, 184.3757803691217, [-0.47348344396376285, 0.0, -0.9580355802942345, 0.0]],
    },
    '2d:mode=nearest-exact,scale_factor=(2.5, 1.25)': {
        'y': [[2, 3, 17, 6], -33.15113889643217, 764.837971961798, [1.7483257479167602, 1.4638165491636963, 0.561740777085582, 0.561740777085582]],
        'gx': [[2, 3, 7, 5], -11.739166646134327, 398.3942491406985, [1.9093871805400773, 1.181636490775452, -0.8892443198501784, -1.4541344140129486]],
    },
    '2d:mode=nearest-exact,recompute_scale_factor=True,scale_factor=(2.5, 1.25)': {
        'y': [[2, 3, 17, 6], -33.15113889643217, 764.837971961798, [1.7483257479167602, 1.4638165491636963, 0.561740777085582, 0.561740777085582]],
        'gx': [[2, 3, 7, 5], -11.739166646134327, 398.3942491406985, [1.9093871805400773, 1.181636490775452, -0.8892443198501784, -1.4541344140129486]],
    },
    '2d:align_corners=False,mode=bilinear,size=(1, 1)': {
        'y': [[2, 3, 1, 1], 2.015035800776988, 7.706593440760103, [1.0689788606425845, 0.6424857868125289, -0.8803483870418527, -1.8559539665869202]],
        'gx': [[2, 3, 7, 5], -3.333960038930008, 3.7086181382936454, [0.0, 0.0, 0.0, 0.0]],
    },
    '2d:align_corners=False,mode=bilinear,size=(3, 2)': {
        'y': [[2, 3, 3, 2], -2.0340271112630814, 19.623889269302826, [-0.4283667706982168, 0.15321903806206874, -0.26966958241943434, 1.6308208924495424]],
        'gx': [[2, 3, 7, 5], -0.905089653016502, 18.735146367028243, [0.05927383319350197, 0.17782149958050592, 0.0, -0.0871993986076952]],
    },
    '2d:align_corners=False,mode=bilinear,size=(14, 10)': {
        'y': [[2, 3, 14, 10], -3.8666397792301934, 417.2911276775096, [1.7483257479167602, 1.6771984482284943, 1.5349438488519622, 1.2382976061441677]],
        'gx': [[2, 3, 7, 5], 1.62610548229231, 2105.739737758806, [-2.57095516936215, -4.1619483325053155, 0.5197078897969284, 3.655424123016313]],
    },
    '2d:align_corners=False,mode=bilinear,size=(13, 11)': {
        'y': [[2, 3, 13, 11], -3.1809675503164794, 511.5067693707763, [1.7483257479167602, 1.6965968026889304, 1.5672744396193559, 1.3818096607929586]],
        'gx': [[2, 3, 7, 5], 7.043106948530582, 1170.4564973906868, [-2.4664566580958205, -2.3697606735456636, 1.9268190447001565, 1.544452896728379]],
    },
    '2d:align_corners=False,mode=bilinear,size=(4, 9)': {
        'y': [[2, 3, 4, 9], -26.79367546812317, 96.75013579899286, [0.44060312204248586, 0.4361491235147083, 0.42872579263507926, 0.326976143107835]],
        'gx': [[2, 3, 7, 5], -19.068133098800583, 271.56835725804063, [0.22349872345620858, -1.0898259999357143, -0.6147829809315138, 1.1033189311797684]],
    },
    '2d:align_corners=False,mode=bilinear,scale_factor=0.5': {
        'y': [[2, 3, 3, 2], -0.8233249154668838, 4.204383983859199, [0.04320578282101678, 0.024148929461089458, -0.07247466260558946, 0.022307229222267966]],
        'gx': [[2, 3, 7, 5], 1.5224174789002096, 10.804634119597802, [0.17782149958050594, 0.17782149958050594, -0.08719939860769521, -0.08719939860769521]],
    },
    '2d:align_corners=False,mode=bilinear,recompute_scale_factor=True,scale_factor=0.5': {
        'y': [[2, 3, 3, 2], -2.0340271112630814, 19.623889269302826, [-0.4283667706982168, 0.15321903806206874, -0.26966958241943434, 1.6308208924495424]],
        'gx': [[2, 3, 7, 5], -0.905089653016502, 18.735146367028243, [0.05927383319350197, 0.17782149958050592, 0.0, -0.0871993986076952]],
    },
    '2d:align_corners=False,mode=bilinear,scale_factor=2': {
        'y': [[2, 3, 14, 10], -3.8666397792301934, 417.2911276775096, [1.7483257479167602, 1.6771984482284943, 1.5349438488519622, 1.2382976061441677]],
        'gx': [[2, 3, 7, 5], 1.62610548229231, 2105.739737758806, [-2.57095516936215, -4.1619483325053155, 0.5197078897969284, 3.655424123016313]],
    },
    '2d:align_corners=False,mode=bilinear,recompute_scale_factor=True,scale_factor=2': {
        'y': [[2, 3, 14, 10], -3.8666397792301934, 417.2911276775096, [1.7483257479167602, 1.6771984482284943, 1.5349438488519622, 1.2382976061441677]],
        'gx': [[2, 3, 7, 5], 1.62610548229231, 2105.739737758806, [-2.57095516936215, -4.1619483325053155, 0.5197078897969284, 3.655424123016313]],
    },
    '2d:align_corners=False,mode=bilinear,scale_factor=(1.7, 0.6)': {
        'y': [[2, 3, 11, 3], -11.348696076430477, 105.48120556748788, [1.6534893483324056, 0.561740777085582, -1.173824518058739, 0.4122797073418123]],
        'gx': [[2, 3, 7, 5], 14.730255444312842, 59.00291289372254, [0.009836604650300741, 0.004918302325150396, -0.6800788773109661, -0.2816410991370347]],
    },
    '2d:align_corners=False,mode=bilinear,recompute_scale_factor=True,scale_factor=(1.7, 0.6)': {
        'y': [[2, 3, 11, 3], 0.4741133338525776, 117.28915437926928, [1.6534893483324056, 0.561740777085582, -1.173824518058739, 0.1779254394624696]],
        'gx': [[2, 3, 7, 5], 5.942206037331282, 70.44649798004788, [0.04336541380772982, 0.021682706903864934, -0.6811092230835737, -0.301225991855598]],
    },
    '2d:align_corners=False,mode=bilinear,scale_factor=(2.5, 1.25)': {
        'y': [[2, 3, 17, 6], -9.939889670588652, 333.47132653873933, [1.7483257479167602, 1.5491693087896155, 1.0127786631246392, 0.2193163241214633]],
        'gx': [[2, 3, 7, 5], -11.631757924449275, 177.6668157550455, [1.051349696555597, 0.11386629475267504, -0.7013709344050704, -1.1670469240658612]],
    },
    '2d:align_corners=False,mode=bilinear,recompute_scale_factor=True,scale_factor=(2.5, 1.25)': {
        'y': [[2, 3, 17, 6], -15.228119092457078, 354.0709001456347, [1.7483257479167602, 1.5349438488519622, 0.9376056821181294, 0.08615125907986164]],
        'gx': [[2, 3, 7, 5], -8.875199521779248, 178.86628740704992, [1.0814750459581772, 0.22294753805421508, -0.567032277734656, -0.9949019719999445]],
    },
    '2d:align_corners=True,mode=bilinear,size=(1, 1)': {
        'y': [[2, 3, 1, 1], -1.965040122221398, 8.70720628037561, [1.7483257479167602, 0.6060459709269833, -0.02024980727773598, -0.2568038564997384]],
        'gx': [[2, 3, 7, 5], -3.496603179966378, 3.708618138293646, [0.7112859983220238, 0.0, 0.0, 0.0]],
    },
    '2d:align_corners=True,mode=bilinear,size=(3, 2)': {
        'y': [[2, 3, 3, 2], 2.4729796148273273, 45.053107136807554, [1.7483257479167602, -1.470899744024035, -1.0856223511567087, 1.54330563810404]],
        'gx': [[2, 3, 7, 5], 0.17399614019074683, 43.218536478391215, [0.7112859983220238, 0.0, 0.0, 0.0]],
    },
    '2d:align_corners=True,mode=bilinear,size=(14, 10)': {
        'y': [[2, 3, 14, 10], 1.543689115240566, 440.9813722763786, [1.7483257479167602, 1.6218772151376206, 1.4954286823584813, 1.1631246251376584]],
        'gx': [[2, 3, 7, 5], -6.820804966353048, 2092.408763074418, [-0.8702227628984445, -3.7752680675583674, 0.18535985018350334, 3.544384452904425]],
    },
    '2d:align_corners=True,mode=bilinear,size=(13, 11)': {
        'y': [[2, 3, 13, 11], -20.69834664651119, 589.4438394383018, [1.7483257479167602, 1.6345220684155346, 1.5207183889143092, 1.2834013947480734]],
        'gx': [[2, 3, 7, 5], 34.09746711468181, 1261.5921562802364, [-1.1140913706939786, -2.8571202463722827, 1.7272267467023539, 1.9318968054612176]],
    },
    '2d:align_corners=True,mode=bilinear,size=(4, 9)': {
        'y': [[2, 3, 4, 9], -50.58159674501465, 257.29352957001413, [1.7483257479167602, 1.6060711485402281, 1.4638165491636963, 1.0127786631246392]],
        'gx': [[2, 3, 7, 5], -40.86694782764611, 431.9390380662659, [0.5368872011066333, -1.8571903189024104, -1.0304546174437927, 2.1344863143837243]],
    },
    '2d:align_corners=True,mode=bilinear,scale_factor=0.5': {
        'y': [[2, 3, 3, 2], 2.4729796148273273, 45.053107136807554, [1.7483257479167602, -1.470899744024035, -1.0856223511567087, 1.54330563810404]],
        'gx': [[2, 3, 7, 5], 0.17399614019074683, 43.218536478391215, [0.7112859983220238, 0.0, 0.0, 0.0]],
    },
    '2d:align_corners=True,mode=bilinear,recompute_scale_factor=True,scale_factor=0.5': {
        'y': [[2, 3, 3, 2], 2.4729796148273273, 45.053107136807554, [1.7483257479167602, -1.470899744024035, -1.0856223511567087, 1.54330563810404]],
        'gx': [[2, 3, 7, 5], 0.17399614019074683, 43.218536478391215, [0.7112859983220238, 0.0, 0.0, 0.0]],
    },
    '2d:align_corners=True,mode=bilinear,scale_factor=2': {
        'y': [[2, 3, 14, 10], 1.543689115240566, 440.9813722763786, [1.7483257479167602, 1.6218772151376206, 1.4954286823584813, 1.1631246251376584]],
        'gx': [[2, 3, 7, 5], -6.820804966353048, 2092.408763074418, [-0.8702227628984445, -3.7752680675583674, 0.18535985018350334, 3.544384452904425]],
    },
    '2d:align_corners=True,mode=bilinear,recompute_scale_factor=True,scale_factor=2': {
        'y': [[2, 3, 14, 10], 1.543689115240566, 440.9813722763786, [1.7483257479167602, 1.6218772151376206, 1.4954286823584813, 1.1631246251376584]],
        'gx': [[2, 3, 7, 5], -6.820804966353048, 2092.408763074418, [-0.8702227628984445, -3.7752680675583674, 0.18535985018350334, 3.544384452904425]],
    },
    '2d:align_corners=True,mode=bilinear,scale_factor=(1.7, 0.6)': {
        'y': [[2, 3, 11, 3], -0.6416361184913706, 118.28174545103508, [1.7483257479167602, 0.561740777085582, -1.470899744024035, -0.3440304534820787]],
        'gx': [[2, 3, 7, 5], 4.428794388937005, 94.6333772116789, [0.2373782214077091, 0.0, -0.5924927887761623, 0.0]],
    },
    '2d:align_corners=True,mode=bilinear,recompute_scale_factor=True,scale_factor=(1.7, 0.6)': {
        'y': [[2, 3, 11, 3], -0.6416361184913706, 118.28174545103508, [1.7483257479167602, 0.561740777085582, -1.470899744024035, -0.3440304534820787]],
        'gx': [[2, 3, 7, 5], 4.428794388937005, 94.6333772116789, [0.2373782214077091, 0.0, -0.5924927887761623, 0.0]],
    },
    '2d:align_corners=True,mode=bilinear,scale_factor=(2.5, 1.25)': {
        'y': [[2, 3, 17, 6], -14.09494775772581, 322.2205281556386, [1.7483257479167602, 1.5207183889143092, 0.9225710859168277, 0.10517483980009038]],
        'gx': [[2, 3, 7, 5], -5.537829408102587, 180.41720450023797, [1.11208032949398, 0.1141831521340401, -0.748358442869422, -1.032775110258297]],
    },
    '2d:align_corners=True,mode=bilinear,recompute_scale_factor=True,scale_factor=(2.5, 1.25)': {
        'y': [[2, 3, 17, 6], -14.09494775772581, 322.2205281556386, [1.7483257479167602, 1.5207183889143092, 0.9225710859168277, 0.10517483980009038]],
        'gx': [[2, 3, 7, 5], -5.537829408102587, 180.41720450023797, [1.11208032949398, 0.1141831521340401, -0.748358442869422, -1.032775110258297]],
    },
    '2d:align_corners=False,mode=bicubic,size=(1, 1)': {
        'y': [[2, 3, 1, 1], 2.015035800776988, 7.706593440760103, [1.0689788606425845, 0.6424857868125289, -0.8803483870418527, -1.8559539665869202]],
        'gx': [[2, 3, 7, 5], -3.333960038930008, 3.7086181382936454, [0.0, 0.0, 0.0, 0.0]],
    },
    '2d:align_corners=False,mode=bicubic,size=(3, 2)': {
        'y': [[2, 3, 3, 2], -2.982437702491943, 28.0993678435763, [-0.7112053004471458, 0.4814764184788479, -0.356670796849672, 1.6958892291005634]],
        'gx': [[2, 3, 7, 5], -0.8409045056693074, 30.06163725241029, [0.05073263847985501, 0.19680764927529965, -0.01203574778545143, -0.09650975106320438]],
    },
    '2d:align_corners=False,mode=bicubic,size=(14, 10)': {
        'y': [[2, 3, 14, 10], -3.712433061313252, 707.3864883108822, [2.1541726287892238, 2.07278835579702, 1.9522974679740837, 1.517561256155907]],
        'gx': [[2, 3, 7, 5], -0.29857865136046735, 3796.2975355793274, [-1.9954430867739228, -5.48592928146286, 0.2886807036844258, 4.900557444881973]],
    },
    '2d:align_corners=False,mode=bicubic,size=(13, 11)': {
        'y': [[2, 3, 13, 11], 1.2666975684829875, 732.270414782537, [2.144256683574932, 2.0708043058532346, 1.9916651927826343, 1.653887348799036]],
        'gx': [[2, 3, 7, 5], 1.743793306008108, 2213.7819178369186, [-2.805768296302124, -3.1924804718285777, 2.7696293038608397, 2.435423535819313]],
    },
    '2d:align_corners=False,mode=bicubic,size=(4, 9)': {
        'y': [[2, 3, 4, 9], -28.698216680753916, 136.76351450938446, [0.3196209589203834, 0.35009402614350016, 0.38475299585111644, 0.35554689449844845]],
        'gx': [[2, 3, 7, 5], -21.117292539022927, 326.6232544848018, [0.3618383881353666, -1.3300098965836409, -0.7163731766038469, 1.2423752738567893]],
    },
    '2d:align_corners=False,mode=bicubic,scale_factor=0.5': {
        'y': [[2, 3, 3, 2], -1.70969780507594, 7.89525079435316, [-0.1529709852658904, 0.18474080733933723, 0.021649095959323877, 0.12855481439193076]],
        'gx': [[2, 3, 7, 5], 2.1810014472626538, 16.428193364004272, [0.17782149958050592, 0.22751291799079362, -0.13689081701798292, -0.10354928584663806]],
    },
    '2d:align_corners=False,mode=bicubic,recompute_scale_factor=True,scale_factor=0.5': {
        'y': [[2, 3, 3, 2], -2.982437702491943, 28.0993678435763, [-0.7112053004471458, 0.4814764184788479, -0.356670796849672, 1.6958892291005634]],
        'gx': [[2, 3, 7, 5], -0.8409045056693074, 30.06163725241029, [0.05073263847985501, 0.19680764927529965, -0.01203574778545143, -0.09650975106320438]],
    },
    '2d:align_corners=False,mode=bicubic,scale_factor=2': {
        'y': [[2, 3, 14, 10], -3.712433061313252, 707.3864883108822, [2.1541726287892238, 2.07278835579702, 1.9522974679740837, 1.517561256155907]],
        'gx': [[2, 3, 7, 5], -0.29857865136046735, 3796.2975355793274, [-1.9954430867739228, -5.48592928146286, 0.2886807036844258, 4.900557444881973]],
    },
    '2d:align_corners=False,mode=bicubic,recompute_scale_factor=True,scale_factor=2': {
        'y': [[2, 3, 14, 10], -3.712433061313252, 707.3864883108822, [2.1541726287892238, 2.07278835579702, 1.9522974679740837, 1.517561256155907]],
        'gx': [[2, 3, 7, 5], -0.29857865136046735, 3796.2975355793274, [-1.9954430867739228, -5.48592928146286, 0.2886807036844258, 4.900557444881973]],
    },
    '2d:align_corners=False,mode=bicubic,scale_factor=(1.7, 0.6)': {
        'y': [[2, 3, 11, 3], -11.549761375732473, 149.41811881745056, [2.0360406962099966, 0.6552462314790615, -1.4622122567317628, 0.31879465279681374]],
        'gx': [[2, 3, 7, 5], 14.671623454312588, 62.24030613824354, [0.02800111607776075, 0.01513573842041124, -0.6203026150430894, -0.30554064572135614]],
    },
    '2d:align_corners=False,mode=bicubic,recompute_scale_factor=True,scale_factor=(1.7, 0.6)': {
        'y': [[2, 3, 11, 3], 2.0225014212891548, 164.86928062566, [2.015576399290417, 0.6493974710495739, -1.449172369471864, 0.010762146988814328]],
        'gx': [[2, 3, 7, 5], 6.309174854838137, 81.30446859479122, [0.03187325951301975, 0.017228788925956688, -0.7152445066995933, -0.371209652411014]],
    },
    '2d:align_corners=False,mode=bicubic,scale_factor=(2.5, 1.25)': {
        'y': [[2, 3, 17, 6], -11.210184685257772, 504.1533895263591, [2.15492295837026, 1.9915698344528223, 1.312170157997471, 0.21383674329506147]],
        'gx': [[2, 3, 7, 5], -12.063708374406524, 252.3462142063521, [1.2424119084597487, 0.03672029075557274, -0.997286247807471, -1.2432504890551974]],
    },
    '2d:align_corners=False,mode=bicubic,recompute_scale_factor=True,scale_factor=(2.5, 1.25)': {
        'y': [[2, 3, 17, 6], -16.29416363872248, 524.3176162385959, [2.150734566287952, 1.966154249344321, 1.2323439949146302, 0.07358683594797141]],
        'gx': [[2, 3, 7, 5], -9.834122694647307, 248.91341294457607, [1.2304787314464922, 0.1588081992118373, -0.8155137227818643, -1.1436439560738374]],
    },
    '2d:align_corners=True,mode=bicubic,size=(1, 1)': {
        'y': [[2, 3, 1, 1], -1.965040122221398, 8.70720628037561, [1.7483257479167602, 0.6060459709269833, -0.02024980727773598, -0.2568038564997384]],
        'gx': [[2, 3, 7, 5], -3.496603179966378, 3.708618138293646, [0.7112859983220238, 0.0, 0.0, 0.0]],
    },
    '2d:align_corners=True,mode=bicubic,size=(3, 2)': {
        'y': [[2, 3, 3, 2], 2.4729796148273273, 45.053107136807554, [1.7483257479167602, -1.470899744024035, -1.0856223511567087, 1.54330563810404]],
        'gx': [[2, 3, 7, 5], 0.17399614019074683, 43.218536478391215, [0.7112859983220238, 0.0, 0.0, 0.0]],
    },
    '2d:align_corners=True,mode=bicubic,size=(14, 10)': {
        'y': [[2, 3, 14, 10], 2.4909100578993124, 637.4261973071077, [1.7483257479167602, 1.698073500896814, 1.5493607924781074, 1.2116295345673045]],
        'gx': [[2, 3, 7, 5], -10.844373044076171, 3730.593129765528, [-0.32154445622159866, -4.572845006655538, -0.13626195625478932, 4.334040478090314]],
    },
    '2d:align_corners=True,mode=bicubic,size=(13, 11)': {
        'y': [[2, 3, 13, 11], -24.950289283626716, 668.2930474136526, [1.7483257479167602, 1.7028856343901952, 1.6004894422637337, 1.3051322864347819]],
        'gx': [[2, 3, 7, 5], 36.983242688864195, 1908.8348213201778, [-1.1522258788675341, -3.6536847854269974, 2.4120379240865484, 2.2452443705606595]],
    },
    '2d:align_corners=True,mode=bicubic,size=(4, 9)': {
        'y': [[2, 3, 4, 9], -52.33312720053442, 270.6672368243481, [1.7483257479167602, 1.6906407521725515, 1.4638165491636963, 1.0931135672928265]],
        'gx': [[2, 3, 7, 5], -41.75511939824466, 502.97124584714413, [0.647959336320926, -2.0330562453875674, -1.220211156875305, 2.42113066187908]],
    },
    '2d:align_corners=True,mode=bicubic,scale_factor=0.5': {
        'y': [[2, 3, 3, 2], 2.4729796148273273, 45.053107136807554, [1.7483257479167602, -1.470899744024035, -1.0856223511567087, 1.54330563810404]],
        'gx': [[2, 3, 7, 5], 0.17399614019074683, 43.218536478391215, [0.7112859983220238, 0.0, 0.0, 0.0]],
    },
    '2d:align_corners=True,mode=bicubic,recompute_scale_factor=True,scale_factor=0.5': {
        'y': [[2, 3, 3, 2], 2.4729796148273273, 45.053107136807554, [1.7483257479167602, -1.470899744024035, -1.0856223511567087, 1.54330563810404]],
        'gx': [[2, 3, 7, 5], 0.17399614019074683, 43.218536478391215, [0.7112859983220238, 0.0, 0.0, 0.0]],
    },
    '2d:align_corners=True,mode=bicubic,scale_factor=2': {
        'y': [[2, 3, 14, 10], 2.4909100578993124, 637.4261973071077, [1.7483257479167602, 1.698073500896814, 1.5493607924781074, 1.2116295345673045]],
        'gx': [[2, 3, 7, 5], -10.844373044076171, 3730.593129765528, [-0.32154445622159866, -4.572845006655538, -0.13626195625478932, 4.334040478090314]],
    },
    '2d:align_corners=True,mode=bicubic,recompute_scale_factor=True,scale_factor=2': {
        'y': [[2, 3, 14, 10], 2.4909100578993124, 637.4261973071077, [1.7483257479167602, 1.698073500896814, 1.5493607924781074, 1.2116295345673045]],
        'gx': [[2, 3, 7, 5], -10.844373044076171, 3730.593129765528, [-0.32154445622159866, -4.572845006655538, -0.13626195625478932, 4.334040478090314]],
    },
    '2d:align_corners=True,mode=bicubic,scale_factor=(1.7, 0.6)': {
        'y': [[2, 3, 11, 3], 0.10527556206441169, 156.05813868909314, [1.7483257479167602, 0.561740777085582, -1.470899744024035, -0.6585056421154416]],
        'gx': [[2, 3, 7, 5], 4.916330979418138, 108.00436272772922, [0.1310924793481831, 0.0, -0.7118260908500122, 0.0]],
    },
    '2d:align_corners=True,mode=bicubic,recompute_scale_factor=True,scale_factor=(1.7, 0.6)': {
        'y': [[2, 3, 11, 3], 0.10527556206441169, 156.05813868909314, [1.7483257479167602, 0.561740777085582, -1.470899744024035, -0.6585056421154416]],
        'gx': [[2, 3, 7, 5], 4.916330979418138, 108.00436272772922, [0.1310924793481831, 0.0, -0.7118260908500122, 0.0]],
    },
    '2d:align_corners=True,mode=bicubic,scale_factor=(2.5, 1.25)': {
        'y': [[2, 3, 17, 6], -13.65734984597816, 461.5288234135331, [1.7483257479167602, 1.6004894422637337, 1.0145343174087516, 0.08561588334272317]],
        'gx': [[2, 3, 7, 5], -4.078635412609645, 243.69034667701922, [1.158606861071259, 0.2934471192568233, -0.7120376695006401, -0.9648906242171088]],
    },
    '2d:align_corners=True,mode=bicubic,recompute_scale_factor=True,scale_factor=(2.5, 1.25)': {
        'y': [[2, 3, 17, 6], -13.65734984597816, 461.5288234135331, [1.7483257479167602, 1.6004894422637337, 1.0145343174087516, 0.08561588334272317]],
        'gx': [[2, 3, 7, 5], -4.078635412609645, 243.69034667701922, [1.158606861071259, 0.2934471192568233, -0.7120376695006401, -0.9648906242171088]],
    },
    '2d:mode=area,size=(1, 1)': {
        'y': [[2, 3, 1, 1], -0.15306831154891837, 0.030924282193691886, [-0.03793481512807149, -0.09439316402505696, 0.041749764696089806, 0.12373102827707544]],
        'gx': [[2, 3, 7, 5], 0.20221404344307845, 0.10596051823696132, [0.020322457094914963, 0.020322457094914963, 0.020322457094914963, 0.020322457094914963]],
    },
    '2d:mode=area,size=(3, 2)': {
        'y': [[2, 3, 3, 2], 0.8093374149593013, 4.0918111966630075, [0.017655426589200447, -0.5287029068306514, -0.04159759428424228, -0.25885597547100847]],
        'gx': [[2, 3, 7, 5], 1.7432942774939355, 6.559753498954301, [0.07903177759133598, 0.07903177759133598, 0.04027648932124921, -0.038755288270086764]],
    },
    '2d:mode=area,size=(14, 10)': {
        'y': [[2, 3, 14, 10], -5.420523233638555, 1051.094842401727, [1.7483257479167602, 1.7483257479167602, 1.4638165491636963, 1.4638165491636963]],
        'gx': [[2, 3, 7, 5], -0.6828846490841927, 3209.4482743630415, [-2.0657341983281783, -5.010990557525814, 0.37991707133582203, 4.549160160679287]],
    },
    '2d:mode=area,size=(13, 11)': {
        'y': [[2, 3, 13, 11], -29.34736083032405, 604.1711359487513, [1.7483257479167602, 1.7483257479167602, 1.6060711485402281, 1.4638165491636963]],
        'gx': [[2, 3, 7, 5], 46.505312291020005, 1432.7453703893032, [-2.0742978292699528, -2.1678445318039237, 1.5535527686705601, 2.4988144481829058]],
    },
    '2d:mode=area,size=(4, 9)': {
        'y': [[2, 3, 4, 9], 7.906110079689659, 27.859149394561378, [0.004695580084394413, 0.04320578282101678, 0.08171598555763926, 0.08166447254368067]],
        'gx': [[2, 3, 7, 5], 12.902801530563991, 270.56467814565787, [0.2684436005533167, -0.9285951594512052, -0.5152273087218964, 1.0672431571918621]],
    },
    '2d:mode=area,scale_factor=0.5': {
        'y': [[2, 3, 3, 2], 0.8093374149593013, 4.0918111966630075, [0.017655426589200447, -0.5287029068306514, -0.04159759428424228, -0.25885597547100847]],
        'gx': [[2, 3, 7, 5], 1.7432942774939355, 6.559753498954301, [0.07903177759133598, 0.07903177759133598, 0.04027648932124921, -0.038755288270086764]],
    },
    '2d:mode=area,recompute_scale_factor=True,scale_factor=0.5': {
        'y': [[2, 3, 3, 2], 0.8093374149593013, 4.0918111966630075, [0.017655426589200447, -0.5287029068306514, -0.04159759428424228, -0.25885597547100847]],
        'gx': [[2, 3, 7, 5], 1.7432942774939355, 6.559753498954301, [0.07903177759133598, 0.07903177759133598, 0.04027648932124921, -0.038755288270086764]],
    },
    '2d:mode=area,scale_factor=2': {
        'y': [[2, 3, 14, 10], -5.420523233638555, 1051.094842401727, [1.7483257479167602, 1.7483257479167602, 1.4638165491636963, 1.4638165491636963]],
        'gx': [[2, 3, 7, 5], -0.6828846490841927, 3209.4482743630415, [-2.0657341983281783, -5.010990557525814, 0.37991707133582203, 4.549160160679287]],
    },
    '2d:mode=area,recompute_scale_factor=True,scale_factor=2': {
        'y': [[2, 3, 14, 10], -5.420523233638555, 1051.094842401727, [1.7483257479167602, 1.7483257479167602, 1.4638165491636963, 1.4638165491636963]],
        'gx': [[2, 3, 7, 5], -0.6828846490841927, 3209.4482743630415, [-2.0657341983281783, -5.010990557525814, 0.37991707133582203, 4.549160160679287]],
    },
    '2d:mode=area,scale_factor=(1.7, 0.6)': {
        'y': [[2, 3, 11, 3], -1.220593957610224, 107.53905261632106, [1.6060711485402281, 0.4819610867070441, -1.0252869050760904, 0.04320578282101678]],
        'gx': [[2, 3, 7, 5], 6.201514548133897, 57.26399347052287, [0.05945063858956523, -0.15835489053127066, -0.2178055291208359, -0.677424884611622]],
    },
    '2d:mode=area,recompute_scale_factor=True,scale_factor=(1.7, 0.6)': {
        'y': [[2, 3, 11, 3], -1.220593957610224, 107.53905261632106, [1.6060711485402281, 0.4819610867070441, -1.0252869050760904, 0.04320578282101678]],
        'gx': [[2, 3, 7, 5], 6.201514548133897, 57.26399347052287, [0.05945063858956523, -0.15835489053127066, -0.2178055291208359, -0.677424884611622]],
    },
    '2d:mode=area,scale_factor=(2.5, 1.25)': {
        'y': [[2, 3, 17, 6], -17.68566045015909, 486.34872138942137, [1.7483257479167602, 1.6060711485402281, 1.0127786631246392, -0.008966644521282041]],
        'gx': [[2, 3, 7, 5], -3.5421088587519476, 232.88314228527713, [1.4002856800736343, 0.3293471017305079, -0.2829174404065473, -0.7435468710528328]],
    },
    '2d:mode=area,recompute_scale_factor=True,scale_factor=(2.5, 1.25)': {
        'y': [[2, 3, 17, 6], -17.68566045015909, 486.34872138942137, [1.7483257479167602, 1.6060711485402281, 1.0127786631246392, -0.008966644521282041]],
        'gx': [[2, 3, 7, 5], -3.5421088587519476, 232.88314228527713, [1.4002856800736343, 0.3293471017305079, -0.2829174404065473, -0.7435468710528328]],
    },
    '3d:mode=nearest,size=(1, 1, 1)': {
        'y': [[2, 2, 1, 1, 1], -0.22414464660299815, 7.739082451468846, [1.7483257479167602, -1.3123231327537517, -0.2357258084818017, 1.7043124329462385]],
        'gx': [[2, 2, 5, 4, 6], 0.3005250106255831, 3.2202531553367097, [0.7112859983220238, 0.0, 0.0, 0.0]],
    },
    '3d:mode=nearest,size=(3, 2, 4)': {
        'y': [[2, 2, 3, 2, 4], -0.1487825576266788, 127.93711280284651, [1.7483257479167602, 1.4638165491636963, -0.5796740661281461, -1.470899744024035]],
        'gx': [[2, 2, 5, 4, 6], 12.50629327849332, 115.2865780610812, [0.7112859983220238, -0.34879759443078084, 0.0, -1.0904068005441265]],
    },
    '3d:mode=nearest,size=(10, 8, 12)': {
        'y': [[2, 2, 10, 8, 12], -27.214884041014614, 4797.734925956495, [1.7483257479167602, 1.7483257479167602, 1.4638165491636963, 1.4638165491636963]],
        'gx': [[2, 2, 5, 4, 6], 30.686268544457945, 3407.936232717555, [0.9723290974387091, -1.7873670376666244, 0.6544995372670224, 3.6528614873181224]],
    },
    '3d:mode=nearest,size=(7, 3, 9)': {
        'y': [[2, 2, 7, 3, 9], 0.5653300830962991, 942.3806066526711, [1.7483257479167602, 1.7483257479167602, 1.4638165491636963, 0.561740777085582]],
        'gx': [[2, 2, 5, 4, 6], 22.404592694628207, 2075.099558101136, [-0.9046375183078394, -2.8311099847617234, -4.46162155099918, 0.4316272267310978]],
    },
    '3d:mode=nearest,scale_factor=0.5': {
        'y': [[2, 2, 2, 2, 3], 3.3855830254327177, 62.16089671597099, [1.7483257479167602, 0.561740777085582, -1.470899744024035, -0.9705592379487341]],
        'gx': [[2, 2, 5, 4, 6], 9.157436388889533, 56.993311978332756, [0.7112859983220238, 0.0, -0.34879759443078084, 0.0]],
    },
    '3d:mode=nearest,recompute_scale_factor=True,scale_factor=0.5': {
        'y': [[2, 2, 2, 2, 3], 3.3855830254327177, 62.16089671597099, [1.7483257479167602, 0.561740777085582, -1.470899744024035, -0.9705592379487341]],
        'gx': [[2, 2, 5, 4, 6], 9.157436388889533, 56.993311978332756, [0.7112859983220238, 0.0, -0.34879759443078084, 0.0]],
    },
    '3d:mode=nearest,scale_factor=2': {
        'y': [[2, 2, 10, 8, 12], -27.214884041014614, 4797.734925956495, [1.7483257479167602, 1.7483257479167602, 1.4638165491636963, 1.4638165491636963]],
        'gx': [[2, 2, 5, 4, 6], 30.686268544457945, 3407.936232717555, [0.9723290974387091, -1.7873670376666244, 0.6544995372670224, 3.6528614873181224]],
    },
    '3d:mode=nearest,recompute_scale_factor=True,scale_factor=2': {
        'y': [[2, 2, 10, 8, 12], -27.214884041014614, 4797.734925956495, [1.7483257479167602, 1.7483257479167602, 1.4638165491636963, 1.4638165491636963]],
        'gx': [[2, 2, 5, 4, 6], 30.686268544457945, 3407.936232717555, [0.9723290974387091, -1.7873670376666244, 0.6544995372670224, 3.6528614873181224]],
    },
    '3d:mode=nearest,scale_factor=(1.7, 0.6, 1.1)': {
        'y': [[2, 2, 8, 2, 6], -39.599611940450224, 484.24898191511994, [1.7483257479167602, 1.7483257479167602, 1.4638165491636963, 0.561740777085582]],
        'gx': [[2, 2, 5, 4, 6], 54.28537421901618, 322.8034314007636, [-0.9525786703987521, -1.4207472404059058, -1.198286817900557, -0.43007054685518875]],
    },
    '3d:mode=nearest,recompute_scale_factor=True,scale_factor=(1.7, 0.6, 1.1)': {
        'y': [[2, 2, 8, 2, 6], 12.891775740814056, 488.2255043997802, [1.7483257479167602, 1.4638165491636963, 0.561740777085582, -0.5796740661281461]],
        'gx': [[2, 2, 5, 4, 6], -3.810129327034077, 318.7123121242131, [-0.9525786703987521, -1.4207472404059058, -1.198286817900557, -0.43007054685518875]],
    },
    '3d:mode=nearest-exact,size=(1, 1, 1)': {
        'y': [[2, 2, 1, 1, 1], -0.33809066698298995, 2.9135081372102434, [1.0520938470996546, -0.9869715301032473, 0.2755015969607276, 0.869823397560123]],
        'gx': [[2, 2, 5, 4, 6], 0.01144333371736972, 3.2202531553367097, [0.0, 0.0, 0.0, 0.0]],
    },
    '3d:mode=nearest-exact,size=(3, 2, 4)': {
        'y': [[2, 2, 3, 2, 4], 2.8921203943640377, 114.22154757397445, [-1.3003845780484178, 0.5130438649130598, 0.9851436048374693, 0.008009683124652667]],
        'gx': [[2, 2, 5, 4, 6], -9.012332656990854, 115.28657806108122, [0.0, 0.0, 0.0, 0.0]],
    },
    '3d:mode=nearest-exact,size=(10, 8, 12)': {
        'y': [[2, 2, 10, 8, 12], -27.214884041014614, 4797.734925956495, [1.7483257479167602, 1.7483257479167602, 1.4638165491636963, 1.4638165491636963]],
        'gx': [[2, 2, 5, 4, 6], 30.686268544457945, 3407.936232717555, [0.9723290974387091, -1.7873670376666244, 0.6544995372670224, 3.6528614873181224]],
    },
    '3d:mode=nearest-exact,size=(7, 3, 9)': {
        'y': [[2, 2, 7, 3, 9], -20.749117128726844, 943.6771849049353, [1.7483257479167602, 1.4638165491636963, 1.4638165491636963, 0.561740777085582]],
        'gx': [[2, 2, 5, 4, 6], 15.465995046678835, 2076.0192914390327, [0.7112859983220238, -1.4392043949749074, -1.1847694422857866, -0.2669018067383454]],
    },
    '3d:mode=nearest-exact,scale_factor=0.5': {
        'y': [[2, 2, 2, 2, 3], 32.69438255350994, 65.89472750237258, [-1.4184978160689075, -1.17101349797489, 0.6060459709269833, -0.01105011329893002]],
        'gx': [[2, 2, 5, 4, 6], -32.24845731787687, 56.993311978332756, [0.0, 0.0, 0.0, 0.0]],
    },
    '3d:mode=nearest-exact,recompute_scale_factor=True,scale_factor=0.5': {
        'y': [[2, 2, 2, 2, 3], 32.69438255350994, 65.89472750237258, [-1.4184978160689075, -1.17101349797489, 0.6060459709269833, -0.01105011329893002]],
        'gx': [[2, 2, 5, 4, 6], -32.24845731787687, 56.993311978332756, [0.0, 0.0, 0.0, 0.0]],
    },
    '3d:mode=nearest-exact,scale_factor=2': {
        'y': [[2, 2, 10, 8, 12], -27.214884041014614, 4797.734925956495, [1.7483257479167602, 1.7483257479167602, 1.4638165491636963, 1.4638165491636963]],
        'gx': [[2, 2, 5, 4, 6], 30.686268544457945, 3407.936232717555, [0.9723290974387091, -1.7873670376666244, 0.6544995372670224, 3.6528614873181224]],
    },
    '3d:mode=nearest-exact,recompute_scale_factor=True,scale_factor=2': {
        'y': [[2, 2, 10, 8, 12], -27.214884041014614, 4797.734925956495, [1.7483257479167602, 1.7483257479167602, 1.4638165491636963, 1.4638165491636963]],
        'gx': [[2, 2, 5, 4, 6], 30.686268544457945, 3407.936232717555, [0.9723290974387091, -1.7873670376666244, 0.6544995372670224, 3.6528614873181224]],
    },
    '3d:mode=nearest-exact,scale_factor=(1.7, 0.6, 1.1)': {
        'y': [[2, 2, 8, 2, 6], -1.031068366564039, 461.0092373162982, [1.7483257479167602, 1.4638165491636963, 0.561740777085582, -0.5796740661281461]],
        'gx': [[2, 2, 5, 4, 6], 24.010624961041714, 320.6605387648631, [-0.9525786703987521, -1.4207472404059058, -1.198286817900557, -0.43007054685518875]],
    },
    '3d:mode=nearest-exact,recompute_scale_factor=True,scale_factor=(1.7, 0.6, 1.1)': {
        'y': [[2, 2, 8, 2, 6], 5.6481094034623975, 475.3785457484835, [-1.3003845780484178, -0.39851485802613784, 0.5130438649130598, 0.9851436048374693]],
        'gx': [[2, 2, 5, 4, 6], 4.716558790474562, 323.15201188154225, [0.0, 0.0, 0.0, 0.0]],
    },
    '3d:align_corners=False,mode=trilinear,size=(1, 1, 1)': {
        'y': [[2, 2, 1, 1, 1], -0.25751415200565697, 1.7533535077860694, [0.4532390907506214, -0.9885693933264222, 0.7318682909132174, 0.18715553354259917]],
        'gx': [[2, 2, 5, 4, 6], 0.24494123922707245, 0.8050632888341774, [0.0, 0.0, 0.0, 0.0]],
    },
    '3d:align_corners=False,mode=trilinear,size=(3, 2, 4)': {
        'y': [[2, 2, 3, 2, 4], -0.5744177551939078, 18.433170821155258, [0.04280832498476447, 0.2953902446813224, 0.17827960772486065, -0.2902319421761288]],
        'gx': [[2, 2, 5, 4, 6], -4.852338585485785, 26.949514409022374, [0.17782149958050594, 0.03020736699093691, -0.08719939860769521, -0.27260170013603163]],
    },
    '3d:align_corners=False,mode=trilinear,size=(10, 8, 12)': {
        'y': [[2, 2, 10, 8, 12], -6.1624064457774415, 1626.7188759177664, [1.7483257479167602, 1.6771984482284943, 1.5349438488519622, 1.2382976061441677]],
        'gx': [[2, 2, 5, 4, 6], 10.150303914285447, 277.42950781887083, [0.7134042433706463, -0.5520941411908107, 0.1042403865001762, 1.3402025240669533]],
    },
    '3d:align_corners=False,mode=trilinear,size=(7, 3, 9)': {
        'y': [[2, 2, 7, 3, 9], -4.767549650137259, 296.12328470662516, [1.2402073602558974, 1.1968176707773106, 1.053460755258408, 0.6535918510971442]],
        'gx': [[2, 2, 5, 4, 6], 3.5145370147094512, 1183.4823366027726, [0.19525038654858015, -1.8862303438613641, -2.0093520062193337, 0.06370122106031494]],
    },
    '3d:align_corners=False,mode=trilinear,scale_factor=0.5': {
        'y': [[2, 2, 2, 2, 3], 6.0229748644978836, 4.82545575507711, [-0.04180729655991583, 0.24191596259210257, 0.0007257193019810648, 0.14991263341381444]],
        'gx': [[2, 2, 5, 4, 6], -8.772805736193947, 7.124163997291594, [0.08891074979025297, 0.08891074979025297, -0.043599699303847606, -0.043599699303847606]],
    },
    '3d:align_corners=False,mode=trilinear,recompute_scale_factor=True,scale_factor=0.5': {
        'y': [[2, 2, 2, 2, 3], 10.7948190313126, 7.532625798807288, [-0.25186630246561137, 0.17784217129965824, 0.303141742060969, 0.15442448832690575]],
        'gx': [[2, 2, 5, 4, 6], -14.657883792691646, 8.905204996614492, [0.044455374895126486, 0.044455374895126486, -0.021799849651923803, -0.021799849651923803]],
    },
    '3d:align_corners=False,mode=trilinear,scale_factor=2': {
        'y': [[2, 2, 10, 8, 12], -6.1624064457774415, 1626.7188759177664, [1.7483257479167602, 1.6771984482284943, 1.5349438488519622, 1.2382976061441677]],
        'gx': [[2, 2, 5, 4, 6], 10.150303914285447, 277.42950781887083, [0.7134042433706463, -0.5520941411908107, 0.1042403865001762, 1.3402025240669533]],
    },
    '3d:align_corners=False,mode=trilinear,recompute_scale_factor=True,scale_factor=2': {
        'y': [[2, 2, 10, 8, 12], -6.1624064457774415, 1626.7188759177664, [1.7483257479167602, 1.6771984482284943, 1.5349438488519622, 1.2382976061441677]],
        'gx': [[2, 2, 5, 4, 6], 10.150303914285447, 277.42950781887083, [0.7134042433706463, -0.5520941411908107, 0.1042403865001762, 1.3402025240669533]],
    },
    '3d:align_corners=False,mode=trilinear,scale_factor=(1.7, 0.6, 1.1)': {
        'y': [[2, 2, 8, 2, 6], -10.678875846848944, 203.95730211826265, [0.7320889725950341, 0.8430394134337515, 0.5455084730280746, -0.05806817580627425]],
        'gx': [[2, 2, 5, 4, 6], -5.053953358039644, 117.47958331043615, [-0.19790419009879584, -0.6535403414590879, -0.7573376584507819, -0.4819299951366146]],
    },
    '3d:align_corners=False,mode=trilinear,recompute_scale_factor=True,scale_factor=(1.7, 0.6, 1.1)': {
        'y': [[2, 2, 8, 2, 6], 4.374494927357768, 93.37438762800042, [0.2239705849341712, 0.5326508455687793, 0.5373923209993209, 0.20273476935466161]],
        'gx': [[2, 2, 5, 4, 6], -1.207785525055436, 85.18092858248747, [-0.11231893891670633, -0.4758846351458943, -0.5755446551535593, -0.38012565680303767]],
    },
    '3d:align_corners=True,mode=trilinear,size=(1, 1, 1)': {
        'y': [[2, 2, 1, 1, 1], -0.22414464660299815, 7.739082451468846, [1.7483257479167602, -1.3123231327537517, -0.2357258084818017, 1.7043124329462385]],
        'gx': [[2, 2, 5, 4, 6], 0.3005250106255831, 3.2202531553367097, [0.7112859983220238, 0.0, 0.0, 0.0]],
    },
    '3d:align_corners=True,mode=trilinear,size=(3, 2, 4)': {
        'y': [[2, 2, 3, 2, 4], -0.531081374859081, 111.9827419560592, [1.7483257479167602, 0.8624327011116201, -0.8767492920934425, -1.7389345877479714]],
        'gx': [[2, 2, 5, 4, 6], -10.341073117608293, 91.64650862705088, [0.7112859983220238, -0.11626586481026026, -0.2325317296205206, -0.7269378670294175]],
    },
    '3d:align_corners=True,mode=trilinear,size=(10, 8, 12)': {
        'y': [[2, 2, 10, 8, 12], -2.838403125321091, 1633.237854233848, [1.7483257479167602, 1.6190033848471856, 1.4896810217776113, 1.1357889956807456]],
        'gx': [[2, 2, 5, 4, 6], 14.478275696164307, 292.36098564203405, [0.6211421886789356, -0.9314925484739257, -0.08765770347851241, 1.703209201795716]],
    },
    '3d:align_corners=True,mode=trilinear,size=(7, 3, 9)': {
        'y': [[2, 2, 7, 3, 9], -5.479914431778527, 451.9226652875243, [1.7483257479167602, 1.5705074986960952, 1.2382976061441677, 0.6745002485953463]],
        'gx': [[2, 2, 5, 4, 6], 2.6494642677143503, 1307.541921401611, [0.3918991771578544, -1.9233279398326357, -2.4149492548152827, 0.2434402654651998]],
    },
    '3d:align_corners=True,mode=trilinear,scale_factor=0.5': {
        'y': [[2, 2, 2, 2, 3], 8.459690446743513, 53.26691104721213, [1.7483257479167602, -0.008966644521282041, -1.7389345877479714, 1.6599926438980432]],
        'gx': [[2, 2, 5, 4, 6], 6.7127935589303585, 47.69740009943587, [0.7112859983220238, 0.0, -0.17439879721539042, -0.17439879721539042]],
    },
    '3d:align_corners=True,mode=trilinear,recompute_scale_factor=True,scale_factor=0.5': {
        'y': [[2, 2, 2, 2, 3], 8.459690446743513, 53.26691104721213, [1.7483257479167602, -0.008966644521282041, -1.7389345877479714, 1.6599926438980432]],
        'gx': [[2, 2, 5, 4, 6], 6.7127935589303585, 47.69740009943587, [0.7112859983220238, 0.0, -0.17439879721539042, -0.17439879721539042]],
    },
    '3d:align_corners=True,mode=trilinear,scale_factor=2': {
        'y': [[2, 2, 10, 8, 12], -2.838403125321091, 1633.237854233848, [1.7483257479167602, 1.6190033848471856, 1.4896810217776113, 1.1357889956807456]],
        'gx': [[2, 2, 5, 4, 6], 14.478275696164307, 292.36098564203405, [0.6211421886789356, -0.9314925484739257, -0.08765770347851241, 1.703209201795716]],
    },
    '3d:align_corners=True,mode=trilinear,recompute_scale_factor=True,scale_factor=2': {
        'y': [[2, 2, 10, 8, 12], -2.838403125321091, 1633.237854233848, [1.7483257479167602, 1.6190033848471856, 1.4896810217776113, 1.1357889956807456]],
        'gx': [[2, 2, 5, 4, 6], 14.478275696164307, 292.36098564203405, [0.6211421886789356, -0.9314925484739257, -0.08765770347851241, 1.703209201795716]],
    },
    '3d:align_corners=True,mode=trilinear,scale_factor=(1.7, 0.6, 1.1)': {
        'y': [[2, 2, 8, 2, 6], 17.942420794951513, 295.6365463950457, [1.7483257479167602, 1.4638165491636963, 0.561740777085582, -0.5796740661281461]],
        'gx': [[2, 2, 5, 4, 6], 3.734308950800534, 151.7819870875523, [-0.0017988597011659418, -0.8082045855629773, -1.1366410936968825, -0.8613270585298161]],
    },
    '3d:align_corners=True,mode=trilinear,recompute_scale_factor=True,scale_factor=(1.7, 0.6, 1.1)': {
        'y': [[2, 2, 8, 2, 6], 17.942420794951513, 295.6365463950457, [1.7483257479167602, 1.4638165491636963, 0.561740777085582, -0.5796740661281461]],
        'gx': [[2, 2, 5, 4, 6], 3.734308950800534, 151.7819870875523, [-0.0017988597011659418, -0.8082045855629773, -1.1366410936968825, -0.8613270585298161]],
    },
    '3d:mode=area,size=(1, 1, 1)': {
        'y': [[2, 2, 1, 1, 1], -0.01885927013687711, 0.005634850718453174, [0.017387121911392165, -0.05599523625856803, 0.04601280213968249, 0.008938359228244179]],
        'gx': [[2, 2, 5, 4, 6], 0.022883514333191385, 0.026835442961139253, [0.005927383319350198, 0.005927383319350198, 0.005927383319350198, 0.005927383319350198]],
    },
    '3d:mode=area,size=(3, 2, 4)': {
        'y': [[2, 2, 3, 2, 4], -2.600937755172186, 10.217508758878838, [-0.04180729655991583, 0.1324191891203547, 0.2021879637863903, 0.0007257193019810648]],
        'gx': [[2, 2, 5, 4, 6], 1.4087458814501894, 24.272222043341834, [0.08891074979025297, 0.045311050486405366, -0.043599699303847606, -0.13630085006801582]],
    },
    '3d:mode=area,size=(10, 8, 12)': {
        'y': [[2, 2, 10, 8, 12], -27.214884041014614, 4797.734925956495, [1.7483257479167602, 1.7483257479167602, 1.4638165491636963, 1.4638165491636963]],
        'gx': [[2, 2, 5, 4, 6], 30.686268544457945, 3407.936232717555, [0.9723290974387091, -1.7873670376666244, 0.6544995372670224, 3.6528614873181224]],
    },
    '3d:mode=area,size=(7, 3, 9)': {
        'y': [[2, 2, 7, 3, 9], 0.8994291739241236, 169.84298927594483, [0.2239705849341712, 0.3783107152514752, 0.5326508455687793, 0.5373923209993209]],
        'gx': [[2, 2, 5, 4, 6], 4.388998248622313, 1425.8865434549843, [0.09193467049178666, -1.2078511454223984, -1.2895403302193373, -0.0808760631037163]],
    },
    '3d:mode=area,scale_factor=0.5': {
        'y': [[2, 2, 2, 2, 3], 7.871468629932353, 2.035367624933234, [0.15922555942913358, 0.05638817483409798, -0.059375219421109425, -0.24764919783177683]],
        'gx': [[2, 2, 5, 4, 6], -9.398728991586987, 4.07086852184497, [0.05927383319350198, 0.05927383319350198, -0.02906646620256507, -0.02906646620256507]],
    },
    '3d:mode=area,recompute_scale_factor=True,scale_factor=0.5': {
        'y': [[2, 2, 2, 2, 3], 7.871468629932353, 2.035367624933234, [0.15922555942913358, 0.05638817483409798, -0.059375219421109425, -0.24764919783177683]],
        'gx': [[2, 2, 5, 4, 6], -9.398728991586987, 4.07086852184497, [0.05927383319350198, 0.05927383319350198, -0.02906646620256507, -0.02906646620256507]],
    },
    '3d:mode=area,scale_factor=2': {
        'y': [[2, 2, 10, 8, 12], -27.214884041014614, 4797.734925956495, [1.7483257479167602, 1.7483257479167602, 1.4638165491636963, 1.4638165491636963]],
        'gx': [[2, 2, 5, 4, 6], 30.686268544457945, 3407.936232717555, [0.9723290974387091, -1.7873670376666244, 0.6544995372670224, 3.6528614873181224]],
    },
    '3d:mode=area,recompute_scale_factor=True,scale_factor=2': {
        'y': [[2, 2, 10, 8, 12], -27.214884041014614, 4797.734925956495, [1.7483257479167602, 1.7483257479167602, 1.4638165491636963, 1.4638165491636963]],
        'gx': [[2, 2, 5, 4, 6], 30.686268544457945, 3407.936232717555, [0.9723290974387091, -1.7873670376666244, 0.6544995372670224, 3.6528614873181224]],
    },
    '3d:mode=area,scale_factor=(1.7, 0.6, 1.1)': {
        'y': [[2, 2, 8, 2, 6], 3.6189735007103736, 95.87308208066771, [0.2239705849341712, 0.5326508455687793, 0.5373923209993209, 0.20273476935466161]],
        'gx': [[2, 2, 5, 4, 6], -2.7855239408236345, 78.62151921984545, [-0.06032316801918208, -0.44238620870917167, -0.5721734046111708, -0.4037099972852438]],
    },
    '3d:mode=area,recompute_scale_factor=True,scale_factor=(1.7, 0.6, 1.1)': {
        'y': [[2, 2, 8, 2, 6], 3.6189735007103736, 95.87308208066771, [0.2239705849341712, 0.5326508455687793, 0.5373923209993209, 0.20273476935466161]],
        'gx': [[2, 2, 5, 4, 6], -2.7855239408236345, 78.62151921984545, [-0.06032316801918208, -0.44238620870917167, -0.5721734046111708, -0.4037099972852438]],
    },
    'aa:align_corners=False,antialias=True,mode=bilinear,size=(3, 2)': {
        'y': [[2, 3, 3, 2], -0.5433844345298031, 2.0894182184821037, [-0.05448441045424174, -0.3337719841175413, -0.02425706177361267, 0.1662575312538198]],
        'gx': [[2, 3, 7, 5], 1.0442385179802347, 6.000656302770666, [0.08082795435477541, 0.09825935698810766, 0.02942276005610737, -0.03941383687589291]],
    },
    'aa:align_corners=False,antialias=True,mode=bilinear,size=(14, 10)': {
        'y': [[2, 3, 14, 10], -3.8666397792301943, 417.2911276775096, [1.7483257479167602, 1.6771984482284943, 1.5349438488519622, 1.2382976061441677]],
        'gx': [[2, 3, 7, 5], 1.6261054822923082, 2105.739737758806, [-2.57095516936215, -4.1619483325053155, 0.5197078897969284, 3.655424123016313]],
    },
    'aa:align_corners=False,antialias=True,mode=bilinear,size=(4, 9)': {
        'y': [[2, 3, 4, 9], -5.417480322191429, 20.555072811716798, [0.20793196576838074, 0.20856623942478636, 0.2096233621854625, 0.15090198390728812]],
        'gx': [[2, 3, 7, 5], 0.9747928522325653, 230.96781451262297, [0.18731321584901278, -0.9133779808985034, -0.5152466887806973, 0.9246863423220916]],
    },
    'aa:align_corners=False,antialias=True,mode=bilinear,size=(2, 5)': {
        'y': [[2, 3, 2, 5], -1.1129242105291752, 1.1891729987827913, [-0.07867888637886228, -0.09434730449335439, -0.1368469868708042, -0.19033304249924937]],
        'gx': [[2, 3, 7, 5], 0.9677288355677631, 13.444440410354062, [0.14887381360228405, -0.07300414767155879, -0.2282246791836544, -0.2479749995481879]],
    },
    'aa:align_corners=False,antialias=True,mode=bilinear,scale_factor=(0.4, 0.7)': {
        'y': [[2, 3, 2, 3], -0.6792141760778938, 1.51135652166929, [-0.039217314844379514, -0.12333070187979406, -0.28347030375933147, 0.022276014423689552]],
        'gx': [[2, 3, 7, 5], 1.6352154803374435, 6.98117670920767, [0.14797733181874267, 0.03312643739286059, -0.11761543371273978, -0.21675572383759298]],
    },
    'aa:align_corners=True,antialias=True,mode=bilinear,size=(3, 2)': {
        'y': [[2, 3, 3, 2], -0.665334666425145, 2.588483558035789, [-0.14661706137797842, -0.19929890439188028, 0.10518513055612508, 0.09202602970237975]],
        'gx': [[2, 3, 7, 5], 0.4631952118853855, 7.396684199329331, [0.03292990732972332, 0.04610187026161265, 0.03641304819409096, 0.0038634411271582505]],
    },
    'aa:align_corners=True,antialias=True,mode=bilinear,size=(14, 10)': {
        'y': [[2, 3, 14, 10], 0.7032670859697148, 437.8986796559859, [1.7483257479167602, 1.7009075481245828, 1.5744590153454434, 1.41370122849269]],
        'gx': [[2, 3, 7, 5], -1.8585847748624809, 2161.7905861195095, [-3.6524665654177966, -4.312413259855137, 2.6542296353519346, 2.705406369726044]],
    },
    'aa:align_corners=True,antialias=True,mode=bilinear,size=(4, 9)': {
        'y': [[2, 3, 4, 9], -19.167441005356963, 29.532274527844127, [0.1162246891842487, 0.10496514533356109, 0.08244605763218595, 0.03621554673718074]],
        'gx': [[2, 3, 7, 5], 4.076388469693754, 233.2456323838092, [0.07589404386981706, -0.8339533187982828, -0.0843614657445824, 1.0377129992457252]],
    },
    'aa:align_corners=True,antialias=True,mode=bilinear,size=(2, 5)': {
        'y': [[2, 3, 2, 5], -1.1619689294730549, 3.346677180476041, [0.027611880287647328, 0.00569446028323678, -0.028244923256547455, -0.06002805860144689]],
        'gx': [[2, 3, 7, 5], 0.4528098380251714, 9.606633445782855, [0.08438986420769774, -0.0413827654409401, -0.12937029836964214, -0.1405658660339069]],
    },
    'aa:align_corners=True,antialias=True,mode=bilinear,scale_factor=(0.4, 0.7)': {
        'y': [[2, 3, 2, 3], -0.9886251132919511, 1.6808612648258805, [0.01023915692230068, -0.041881173629534085, -0.07195069245950636, -0.11493185273833756]],
        'gx': [[2, 3, 7, 5], 0.7112984654729186, 4.868566164987923, [0.036167084660441884, 0.03099423898032437, -0.0034628421535385745, -0.04786111163276307]],
    },
    'aa:align_corners=False,antialias=True,mode=bicubic,size=(3, 2)': {
        'y': [[2, 3, 3, 2], -0.09649523565859403, 2.6126303311270336, [-0.018229571139765595, -0.3431115539045682, -0.041298457905344775, 0.12132925791714072]],
        'gx': [[2, 3, 7, 5], 1.1126258239139495, 6.803792209991211, [0.10917387515868839, 0.12423614358434455, 0.04987115406764005, -0.03158662180535106]],
    },
    'aa:align_corners=False,antialias=True,mode=bicubic,size=(14, 10)': {
        'y': [[2, 3, 14, 10], -4.544188507158296, 673.1455903453209, [2.0867582958291204, 2.0131618334002432, 1.8577332484548665, 1.4986578094130267]],
        'gx': [[2, 3, 7, 5], 1.0196929044545486, 3339.581376014554, [-2.315215959830473, -5.15179815655938, 0.39389193565028685, 4.627172953695068]],
    },
    'aa:align_corners=False,antialias=True,mode=bicubic,size=(4, 9)': {
        'y': [[2, 3, 4, 9], -5.918026958034468, 24.678472838929142, [0.2304491893156938, 0.22896025429079422, 0.21821404161111643, 0.15755760922710918]],
        'gx': [[2, 3, 7, 5], 1.467169513613789, 259.8900811209311, [0.2967854378045236, -0.9926963801466844, -0.5156418085289232, 0.96585154696039]],
    },
    'aa:align_corners=False,antialias=True,mode=bicubic,size=(2, 5)': {
        'y': [[2, 3, 2, 5], -1.545602342939723, 1.7185324934964252, [-0.04157750020569041, -0.04420625166241833, -0.10294040606842624, -0.19329964582764225]],
        'gx': [[2, 3, 7, 5], 1.0500514090489959, 15.692353905204277, [0.1548520952688123, -0.10667530614503039, -0.28363999417383534, -0.29681032120931844]],
    },
    'aa:align_corners=False,antialias=True,mode=bicubic,scale_factor=(0.4, 0.7)': {
        'y': [[2, 3, 2, 3], -0.5026733622133757, 2.097712685017516, [-0.0019821981467844285, -0.11830473429952185, -0.3548284147572414, 0.010907636512206876]],
        'gx': [[2, 3, 7, 5], 1.9656418238267328, 8.692557903470489, [0.20041324844039451, 0.07348656386068074, -0.13745252939296398, -0.26164678211845344]],
    },
    'aa:align_corners=True,antialias=True,mode=bicubic,size=(3, 2)': {
        'y': [[2, 3, 3, 2], -0.4009096259289252, 4.467357735419802, [-0.15975262305293791, -0.34944113539598365, 0.15132660784323518, 0.2124902720941022]],
        'gx': [[2, 3, 7, 5], -0.19398871978545462, 10.411565308908784, [0.0480596801788221, 0.060513230291246896, 0.051609664639018116, 0.018339327227016165]],
    },
    'aa:align_corners=True,antialias=True,mode=bicubic,size=(14, 10)': {
        'y': [[2, 3, 14, 10], -0.031127724464692363, 624.6169152765076, [2.1045166419774484, 2.0430146020198467, 1.9313433508139157, 1.6785993152018397]],
        'gx': [[2, 3, 7, 5], -2.5116887563493737, 3396.1375432752366, [-3.773126826212378, -5.353721739245857, 3.1202163235982265, 3.5833580458511234]],
    },
    'aa:align_corners=True,antialias=True,mode=bicubic,size=(4, 9)': {
        'y': [[2, 3, 4, 9], -23.79273297727296, 42.96642169804462, [0.13486225108293387, 0.12377223088443846, 0.10034700430069685, 0.04944998491068621]],
        'gx': [[2, 3, 7, 5], 4.716071334065247, 288.10288978647657, [0.18384218059914303, -0.9455773980835246, -0.08690729529098154, 1.204029818552086]],
    },
    'aa:align_corners=True,antialias=True,mode=bicubic,size=(2, 5)': {
        'y': [[2, 3, 2, 5], -1.5582111070686846, 5.523145669903584, [0.03625846934033111, 0.014704624921204418, -0.02020328960692183, -0.05455146593258481]],
        'gx': [[2, 3, 7, 5], 0.40116332082043626, 13.776005617629673, [0.06748226984358408, -0.11204044471000942, -0.22223670207946308, -0.2122528033085907]],
    },
    'aa:align_corners=True,antialias=True,mode=bicubic,scale_factor=(0.4, 0.7)': {
        'y': [[2, 3, 2, 3], -0.9952895643857562, 3.0258054739941143, [0.02420366081566093, -0.03819362427451353, -0.0756586940139514, -0.18646461836946154]],
        'gx': [[2, 3, 7, 5], 0.8105732778800587, 7.517718603162852, [0.07258473258977492, 0.07512079714111765, 0.02658992094602402, -0.043763385986563166]],
    },
    'lanczos:antialias=True,mode=lanczos,size=(5, 4)': {
        'y': [[2, 3, 5, 4], -0.17071874497180717, 0.46141725907222675, [0.07877261878810964, -0.1519418420080404, 0.031230256248286802, 0.0007635231719482713]],
        'gx': [[2, 3, 17, 13], -0.08525855019648265, 9.479293289457866, [0.057280022619560785, 0.07022253546945234, 0.0587952121780892, 0.02510250253650858]],
    },
    'aa_big:antialias=True,mode=bilinear,size=(5, 4)': {
        'y': [[2, 3, 5, 4], -0.24257776017917493, 0.17447131806366492, [0.024354807950519947, -0.06452147300298078, 0.0110048407960536, -0.011486503469610318]],
        'gx': [[2, 3, 17, 13], 0.02322295368130181, 6.454974309272028, [0.03477398214018783, 0.05113820902968799, 0.03259580105416647, 0.009066730955070452]],
    },
    'lanczos:antialias=True,mode=lanczos,size=(17, 13)': {
        'y': [[2, 3, 17, 13], -382.0254167258535, 1658.467093295928, [1.7483257479167602, 1.4638165491636963, 0.561740777085582, -0.5796740661281461]],
        'gx': [[2, 3, 17, 13], 1455.1784465782653, 1652.2880792020906, [0.7112859983220238, -0.3487975944307809, -1.0904068005441265, -1.1847694422857866]],
    },
    'aa_big:antialias=True,mode=bilinear,size=(17, 13)': {
        'y': [[2, 3, 17, 13], -382.0254167258535, 1658.467093295928, [1.7483257479167602, 1.4638165491636963, 0.561740777085582, -0.5796740661281461]],
        'gx': [[2, 3, 17, 13], 1455.1784465782653, 1652.2880792020906, [0.7112859983220238, -0.34879759443078084, -1.0904068005441265, -1.1847694422857866]],
    },
    'lanczos:antialias=True,mode=lanczos,size=(30, 20)': {
        'y': [[2, 3, 30, 20], -41.89223666864112, 2784.4524095573165, [2.2469819663801225, 2.2055691929632846, 1.867639432698369, 1.134128926162289]],
        'gx': [[2, 3, 17, 13], 28.23734081107981, 7491.246327785626, [-1.726563237024214, -3.39525667735247, -1.5041248237324871, 1.9903089602009585]],
    },
    'aa_big:antialias=True,mode=bilinear,size=(30, 20)': {
        'y': [[2, 3, 30, 20], -25.288093345154707, 1654.358747220229, [1.7483257479167602, 1.6131838785090549, 1.3510570776539321, 0.7647078258031579]],
        'gx': [[2, 3, 17, 13], 16.717129622980384, 3259.7719376421355, [-1.3704145239118204, -2.5606131109702686, -1.170654016053713, 1.4206383995414527]],
    },
    'lanczos:antialias=True,mode=lanczos,size=(3, 20)': {
        'y': [[2, 3, 3, 20], 0.661354682489621, 1.164182773861012, [0.10423915104802232, 0.0949943685104642, 0.06615513537590918, 0.025216228261716975]],
        'gx': [[2, 3, 17, 13], -0.9015057620770315, 119.16053016947065, [0.17379627667163658, -0.14542297333062165, -0.21493092357051957, 0.014697090338214447]],
    },
    'aa_big:antialias=True,mode=bilinear,size=(3, 20)': {
        'y': [[2, 3, 3, 20], 0.843632090840394, 1.2211169270017743, [0.10809108241321212, 0.09355720267361707, 0.06927948192588002, 0.026566895488372985]],
        'gx': [[2, 3, 17, 13], -1.0762163658816077, 80.14169505113512, [0.06287705491022189, -0.16504261099345635, -0.1672391678227364, 0.0460967436677049]],
    },
    'aa_huge_downscale': {
        'y': [[1, 1, 2, 3], -0.0010723525504391022, 2.3841192486661763e-05, [-0.003346606754767498, 3.670551420721884e-05, 0.002945224975128414, -0.0011267911029175502]],
        'gx': [[1, 1, 3, 1000], 0.001526543209965466, 0.005634763147766293, [0.0009765960029590574, 0.0009836720462940702, 0.0009907372607761192, 0.0009977911941052475]],
    },
    'modules': {
        'Upsample': [[2, 3, 10, 12], 8.17454725080571, 576.6758442522238, [2.0893263604644097, 2.0297087995808223, 1.9766520908290472, 1.7965551905518515]],
        'UpsamplingNearest2d': [[2, 3, 9, 4], 42.47137340707616, 271.61876821384385, [1.7483257479167602, 1.4638165491636963, 0.561740777085582, -0.5796740661281461]],
        'UpsamplingBilinear2d': [[2, 3, 14, 10], 1.543689115240566, 440.9813722763786, [1.7483257479167602, 1.6218772151376206, 1.4954286823584813, 1.1631246251376584]],
        'upsample': [[2, 3, 3, 8], -6.619988092752914, 80.30103548594141, [-0.5765144758597277, -0.49009498118217976, -0.36019954256174574, -0.17235294506873608]],
        'upsample_nearest': [[2, 3, 21, 15], 21.257147018905467, 2364.9633954038854, [1.7483257479167602, 1.7483257479167602, 1.7483257479167602, 1.4638165491636963]],
        'upsample_bilinear': [[2, 3, 4, 4], 5.053904271869261, 114.35316822822158, [1.7483257479167602, 1.1631246251376584, -0.19920245172356987, -1.470899744024035]],
        'gx': [[2, 3, 7, 5], 143.43523508065235, 971960.764507589, [68.79679894497863, 69.79588267895299, 69.47582799145299, 69.87483319978632]],
    },
}
