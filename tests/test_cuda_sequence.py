"""arange / linspace / logspace on a CUDA device (Note [CUDA sequences]): the same values as the
CPU's, bit for bit, over dtypes, lengths and directions.  Runs on a GPU or on the emulated device
(.ci/cuda_emulated); skipped without one."""
import pytest

import minitorch as torch

pytestmark = pytest.mark.skipif(torch.cuda.device_count() == 0,
                                reason="needs a CUDA device (a GPU, or the emulated build)")

DTYPES = [torch.float32, torch.float64, torch.float16, torch.bfloat16, torch.int64, torch.int32,
          torch.int16, torch.int8, torch.uint8, torch.complex64]


def _same(got, want):
    assert got.device.type == "cuda"
    got = got.cpu()
    assert got.dtype == want.dtype and got.shape == want.shape
    assert torch.equal(got, want), (got, want)


@pytest.mark.parametrize("args", [(10,), (3, 50), (-7, 20, 3), (0, 1, 0.1), (2.5, -3, -0.25),
                                  (0, 100000), (1e-3, 1.0, 1e-5)])
def test_arange(args):
    _same(torch.arange(*args, device="cuda"), torch.arange(*args))
    for dtype in (torch.float32, torch.float64, torch.int64, torch.float16):
        if dtype == torch.float16 and abs(args[-1 if len(args) > 1 else 0]) > 1000:
            continue
        _same(torch.arange(*args, dtype=dtype, device="cuda"), torch.arange(*args, dtype=dtype))


@pytest.mark.parametrize("dtype", DTYPES)
def test_arange_dtypes(dtype):
    _same(torch.arange(0, 100, 3, dtype=dtype, device="cuda"), torch.arange(0, 100, 3, dtype=dtype))
    _same(torch.arange(0, 9, 1.5, dtype=dtype, device="cuda"), torch.arange(0, 9, 1.5, dtype=dtype))


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("start,end,steps", [(0, 1, 5), (-3.5, 7.25, 101), (10, -10, 64),
                                             (1, 1, 3), (2, 3, 1), (0, 1, 0), (0, 1e4, 70001)])
def test_linspace(dtype, start, end, steps):
    if dtype in (torch.int8, torch.uint8, torch.int16) and max(abs(start), abs(end)) > 100:
        return
    _same(torch.linspace(start, end, steps, dtype=dtype, device="cuda"),
          torch.linspace(start, end, steps, dtype=dtype))


@pytest.mark.parametrize("base", [10.0, 2.0, 0.5])
def test_logspace(base):
    for dtype in (torch.float32, torch.float64, torch.float16):
        _same(torch.logspace(-2, 3, 37, base=base, dtype=dtype, device="cuda"),
              torch.logspace(-2, 3, 37, base=base, dtype=dtype))


def test_out_and_second_device():
    if torch.cuda.device_count() > 1:
        r = torch.arange(7, device="cuda:1")
        assert r.device == torch.device("cuda:1")
        assert r.cpu().tolist() == list(range(7))
    out = torch.empty(5, device="cuda")
    torch.linspace(0, 1, 5, out=out)
    _same(out, torch.linspace(0, 1, 5))
