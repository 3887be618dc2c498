"""CUDA casts: the converting copy between any two dtypes on one device (a kernel on the
device, no trip through the host), and casts between the host and the devices, contiguous and
not, compared bit for bit with the CPU's cast of the same values (C's conversions,
float16/bfloat16 rounded to nearest even).  Runs on a GPU or on the emulated device
(MINITORCH_CUDA=EMULATE, .ci/cuda_emulated); skipped without one."""
import numpy as np
import pytest

import minitorch as torch

pytestmark = pytest.mark.skipif(torch.cuda.device_count() == 0,
                                reason="needs a CUDA device (a GPU, or the emulated build)")

TWO = pytest.mark.skipif(torch.cuda.device_count() < 2, reason="needs two CUDA devices")

ALL = [torch.bool, torch.uint8, torch.int8, torch.int16, torch.int32, torch.int64,
       torch.float16, torch.bfloat16, torch.float32, torch.float64, torch.complex64,
       torch.complex128, torch.uint16, torch.uint32, torch.uint64]
UNSIGNED = (torch.uint8, torch.uint16, torch.uint32, torch.uint64)

# values every dtype holds (for the unsigned ones, the non-negative half), with fractions and
# float16/bfloat16 rounding ties among them
SIGNED_VALUES = [0.0, 1.0, -1.0, 2.5, -3.75, 100.0, -100.0, 127.0, -128.0, 0.1, 1.0009765625,
                 1.00390625, 65.5, -0.0, 33.25, 7.0]
POSITIVE_VALUES = [abs(v) for v in SIGNED_VALUES]


def _view(t):
    return t[:, ::2].t()


def _source(dtype, dst, view=True):
    """A (4, 8) tensor of dtype, whose values every dst can hold, as a non-contiguous view
    (view=False: the (8, 8) tensor it views)."""
    float_src = dtype.is_floating_point or dtype.is_complex
    vals = POSITIVE_VALUES if (dst in UNSIGNED and float_src) or dtype in UNSIGNED else SIGNED_VALUES
    base = torch.tensor(vals * 4, dtype=torch.float64).reshape(8, 8)
    if dtype.is_complex:
        base = base + 1j * base.flip(1)
    base = base.to(dtype)
    return _view(base) if view else base


def _equal(a, b):
    assert a.dtype == b.dtype and a.shape == b.shape
    assert a.reshape(-1).tolist() == b.reshape(-1).tolist() if a.dtype in (torch.float16, torch.bfloat16) \
        else torch.equal(a, b)


@pytest.mark.parametrize("src", ALL, ids=str)
def test_every_pair_on_device(src):
    for dst in ALL:
        s = _source(src, dst)
        expect = s.to(dst)
        c = _view(_source(src, dst, view=False).cuda())
        assert not c.is_contiguous()
        got = c.to(dst)
        assert got.is_cuda and got.dtype == dst
        _equal(got.cpu(), expect)
        # into a strided destination
        out = torch.zeros(8, 8, dtype=dst, device="cuda")[:, 1::2]
        out.copy_(c.t())
        _equal(out.cpu(), s.t().to(dst))


def test_float16_bfloat16_rounding():
    # ties to even, subnormals, overflow to inf, NaN kept
    vals = [1 + 2 ** -11, 1 + 3 * 2 ** -11, 65504.0, 65520.0, 1e5, 2 ** -24, 2 ** -25,
            3 * 2 ** -26, 1e-8, float("inf"), -float("inf"), 1 + 2 ** -8, 1 + 3 * 2 ** -8,
            3.0e38, -2.5e-39]
    f = torch.tensor(vals, dtype=torch.float32)
    d = torch.tensor(vals, dtype=torch.float64)
    for dst in (torch.float16, torch.bfloat16):
        for x in (f, d, f[::2], d[1::3]):
            _equal(x.cuda().to(dst).cpu(), x.to(dst))
    n = torch.tensor([float("nan"), 1.0])
    for dst in (torch.float16, torch.bfloat16):
        r = n.cuda().to(dst).cpu()
        assert r[0].isnan() and r[1] == 1


def test_large_contiguous_casts():
    n = 50001
    x = torch.linspace(-70000, 70000, n)
    for dst in (torch.float16, torch.bfloat16, torch.int32, torch.float64):
        _equal(x.cuda().to(dst).cpu(), x.to(dst))
    h = x.to(torch.float16)
    _equal(h.cuda().float().cpu(), h.float())
    b = x.to(torch.bfloat16)
    _equal(b.cuda().float().cpu(), b.float())


@pytest.mark.parametrize("pair", [(torch.float64, torch.float16), (torch.float16, torch.float64),
                                  (torch.int64, torch.float32), (torch.float32, torch.uint8),
                                  (torch.bool, torch.complex128), (torch.complex64, torch.int16),
                                  (torch.bfloat16, torch.int8)], ids=str)
def test_host_device_casts(pair):
    src, dst = pair
    s = _source(src, dst)
    expect = s.to(dst)
    # host -> device with a cast, both ways of contiguity
    _equal(s.to("cuda", dst).cpu(), expect)
    _equal(s.contiguous().to("cuda", dst).cpu(), expect)
    d = torch.empty(8, 16, dtype=dst, device="cuda")[1::2, ::2]
    d.copy_(s)
    _equal(d.cpu(), expect)
    # device -> host with a cast
    c = s.cuda()
    _equal(c.to("cpu", dst), expect)
    h = torch.empty(4, 8, dtype=dst)
    h.copy_(c)
    _equal(h, expect)
    ht = torch.empty(8, 4, dtype=dst).t()
    ht.copy_(c)
    _equal(ht, expect)
    # a broadcast source
    row = s[0]
    b = torch.zeros(3, 8, dtype=dst, device="cuda")
    b.copy_(row)
    _equal(b.cpu(), row.to(dst).expand(3, 8))
    b.copy_(row.cuda())
    _equal(b.cpu(), row.to(dst).expand(3, 8))


@TWO
def test_between_devices_with_cast():
    s = _source(torch.float32, torch.float16)
    c0 = s.cuda(0)
    r = c0.to("cuda:1", torch.float16)
    assert r.get_device() == 1 and r.dtype == torch.float16
    _equal(r.cpu(), s.to(torch.float16))
    r = c0.to(torch.float16).to("cuda:1", torch.float64)
    _equal(r.cpu(), s.to(torch.float16).double())
    d = torch.empty(4, 8, dtype=torch.int32, device="cuda:1")
    d.copy_(c0)
    _equal(d.cpu(), s.to(torch.int32))
