"""nn.DataParallel without a GPU: torch's behaviour there (the module itself, device_ids
ignored, parameters under ``module.``); the functional form raises as torch's."""
import pytest

import minitorch as torch
import minitorch.nn as nn


def test_data_parallel_runs_the_module_and_trains():
    torch.manual_seed(0)
    m = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 2))
    dp = nn.DataParallel(m, device_ids=[0, 1], output_device=0)
    assert dp.module is m and dp.device_ids == []
    assert list(dp.state_dict()) == ["module.0.weight", "module.0.bias", "module.2.weight",
                                     "module.2.bias"]
    assert repr(dp).startswith("DataParallel(\n  (module): Sequential(")
    x = torch.randn(5, 3)
    assert torch.equal(dp(x), m(x))
    dp(x).sum().backward()
    assert m[0].weight.grad is not None and m[0].weight.grad.shape == (4, 3)
    fresh = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 2))
    nn.DataParallel(fresh).load_state_dict(dp.state_dict())
    assert torch.equal(fresh(x), m(x))
    assert nn.parallel.DataParallel is nn.DataParallel


def test_functional_data_parallel_needs_a_gpu():
    with pytest.raises(RuntimeError, match="device type could not be determined"):
        nn.parallel.data_parallel(nn.Linear(2, 2), torch.ones(1, 2))
