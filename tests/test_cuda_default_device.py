"""The default device of the factories on a CUDA device (Note [Default device] in
csrc/common.h).  Runs on a GPU or on the emulated device (.ci/cuda_emulated); skipped without
one."""
import threading

import numpy as np
import pytest

import minitorch as torch

pytestmark = pytest.mark.skipif(torch.cuda.device_count() == 0,
                                reason="needs a CUDA device (a GPU, or the emulated build)")


@pytest.fixture(autouse=True)
def _restore():
    yield
    torch.set_default_device(None)


def test_factories_follow_the_default_device():
    torch.set_default_device("cuda")
    assert torch.get_default_device() == torch.device("cuda", torch.cuda.current_device())
    made = [torch.empty(2), torch.zeros(2), torch.ones(2), torch.full((2,), 3.0),
            torch.arange(3), torch.eye(2), torch.linspace(0, 1, 3), torch.logspace(0, 1, 3),
            torch.rand(2), torch.randn(2), torch.randint(0, 5, (2,)), torch.tensor([1.0]),
            torch.as_tensor([1.0]), torch.as_tensor(np.ones(2))]
    assert all(t.device.type == "cuda" for t in made)
    assert torch.ones(2, device="cpu").device.type == "cpu"       # an explicit device wins
    assert torch.from_numpy(np.ones(2)).device.type == "cpu"      # existing memory stays
    assert torch.zeros_like(torch.ones(2, device="cpu")).device.type == "cpu"
    torch.set_default_device(None)
    assert torch.ones(2).device.type == "cpu"


def test_device_block_nests_and_is_per_thread():
    seen = []
    with torch.device("cuda:0"):
        assert torch.ones(1).device == torch.device("cuda", 0)
        with torch.device("cpu"):
            assert torch.ones(1).device.type == "cpu"
        t = threading.Thread(target=lambda: seen.append(torch.ones(1).device.type))
        t.start()
        t.join()
        assert torch.ones(1).device.type == "cuda"
    assert seen == ["cpu"] and torch.ones(1).device.type == "cpu"
