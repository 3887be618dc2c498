"""minitorch.xpu answers as torch 2.15's torch.xpu on a build without XPU support (values and
errors captured from torch, written below): no device, seeding ignored, device calls refused."""
import pytest

import minitorch as torch


def test_no_device():
    assert torch.xpu.is_available() is False
    assert torch.xpu.device_count() == 0
    assert torch.xpu.is_initialized() is False
    assert torch.xpu._is_compiled() is False


@pytest.mark.parametrize("call", [
    lambda: torch.xpu.current_device(), lambda: torch.xpu.synchronize(),
    lambda: torch.xpu.init(), lambda: torch.xpu.get_device_name(),
    lambda: torch.xpu.current_stream(), lambda: torch.xpu.set_device(0)])
def test_device_calls_refused(call):
    with pytest.raises(AssertionError, match="^Torch not compiled with XPU enabled$"):
        call()


def test_seeding_is_ignored():
    assert torch.xpu.manual_seed(0) is None
    assert torch.xpu.manual_seed_all(0) is None
    assert torch.xpu.seed() is None and torch.xpu.seed_all() is None
