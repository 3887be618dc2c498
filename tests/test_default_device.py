"""The default device of the factories (Note [Default device] in csrc/common.h):
set_default_device, get_default_device, `with minitorch.device(...)`; on a CUDA device:
test_cuda_default_device.py."""
import pytest

import minitorch as torch

@pytest.fixture(autouse=True)
def _restore():
    yield
    torch.set_default_device(None)


def test_cpu_default_and_block():
    assert torch.get_default_device() == torch.device("cpu")
    with torch.device("cpu") as d:
        assert d == torch.device("cpu") and torch.ones(2).device.type == "cpu"
    torch.set_default_device("cpu")
    assert torch.get_default_device() == torch.device("cpu")
    torch.set_default_device(None)
    assert torch.get_default_device() == torch.device("cpu")
    with pytest.raises(TypeError, match="expected a device"):
        torch.set_default_device(1.5)


@pytest.mark.skipif(torch.cuda.device_count() > 0, reason="without a CUDA device")
def test_cuda_default_without_a_device_fails_at_the_factory_as_torch():
    with torch.device("cuda"):
        with pytest.raises(RuntimeError, match="Found no NVIDIA driver|not compiled with CUDA"):
            torch.ones(2)
    assert torch.ones(2).device.type == "cpu"          # the block's exit restored it
