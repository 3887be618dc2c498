"""Lazy modules (UninitializedParameter / UninitializedBuffer placeholders materialized by the
first forward or by load_state_dict) and SyncBatchNorm on one process, as torch's."""
import copy
import warnings

import numpy as np
import pytest

import minitorch as torch
import minitorch.nn as nn
from minitorch.nn.parameter import UninitializedBuffer, UninitializedParameter, is_lazy
from nnref import inp, t64


@pytest.mark.parametrize("make,shape,cls,params", [
    (lambda: nn.LazyLinear(3), (2, 5), nn.Linear, [(3, 5), (3,)]),
    (lambda: nn.LazyLinear(3, bias=False), (4, 2, 5), nn.Linear, [(3, 5)]),
    (lambda: nn.LazyConv2d(4, 3, padding=1), (2, 3, 5, 5), nn.Conv2d, [(4, 3, 3, 3), (4,)]),
    (lambda: nn.LazyConv2d(4, (3, 2), groups=2, bias=False), (6, 5, 5), nn.Conv2d, [(4, 3, 3, 2)]),
    (lambda: nn.LazyConv1d(4, 3), (2, 3, 7), nn.Conv1d, [(4, 3, 3), (4,)]),
    (lambda: nn.LazyBatchNorm1d(), (4, 3), nn.BatchNorm1d, [(3,), (3,)]),
    (lambda: nn.LazyBatchNorm2d(affine=False), (2, 3, 4, 4), nn.BatchNorm2d, []),
    (lambda: nn.LazyBatchNorm3d(track_running_stats=False), (2, 3, 2, 2, 2), nn.BatchNorm3d, [(3,), (3,)]),
    (lambda: nn.LazyInstanceNorm1d(), (2, 3, 4), nn.InstanceNorm1d, [(3,), (3,)]),
    (lambda: nn.LazyInstanceNorm2d(affine=False, track_running_stats=False), (2, 3, 4, 4),
     nn.InstanceNorm2d, []),
    (lambda: nn.LazyInstanceNorm3d(), (2, 3, 2, 2, 2), nn.InstanceNorm3d, [(3,), (3,)]),
])
def test_first_forward_materializes(make, shape, cls, params):
    m = make()
    lazy = [t for t in list(m.parameters()) + list(m.buffers()) if is_lazy(t)]
    assert m.has_uninitialized_params() == bool(lazy)
    assert all(is_lazy(p) for p in m.parameters())
    m = m.double()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")   # an instance norm with nothing to learn keeps 0 features
        y = m(torch.from_numpy(inp(shape)))
    assert type(m) is cls and not hasattr(m, "_initialize_hook")
    assert [tuple(p.shape) for p in m.parameters()] == params
    assert all(type(p) is nn.Parameter and p.dtype == torch.float64 for p in m.parameters())
    assert not any(is_lazy(b) for b in m.buffers())
    if params:
        y.sum().backward()
        assert all(p.grad is not None for p in m.parameters())


def test_reprs_and_initialisation_match_the_eager_class():
    assert repr(nn.LazyLinear(3)) == "LazyLinear(in_features=0, out_features=3, bias=True)"
    assert repr(nn.LazyConv2d(4, 3)) == "LazyConv2d(0, 4, kernel_size=(3, 3), stride=(1, 1))"
    assert repr(nn.LazyBatchNorm2d()) == ("LazyBatchNorm2d(0, eps=1e-05, momentum=0.1, affine=True, "
                                          "bias=True, track_running_stats=True)")
    m = nn.LazyLinear(3)
    m(torch.ones(2, 5))
    assert repr(m) == "Linear(in_features=5, out_features=3, bias=True)"
    bound = 1 / np.sqrt(5)
    assert m.weight.abs().max().item() <= bound and m.bias.abs().max().item() <= bound
    b = nn.LazyBatchNorm2d()
    b(torch.ones(2, 3, 4, 4))
    assert torch.equal(b.weight, torch.ones(3)) and b.num_batches_tracked.item() == 1


def test_placeholders_refuse_use():
    m = nn.LazyLinear(3)
    assert repr(m.weight) == "<UninitializedParameter>"
    with pytest.raises(RuntimeError, match="Can't access the shape of an uninitialized parameter"):
        m.weight.shape
    with pytest.raises(ValueError, match="Attempted to use an uninitialized parameter in"):
        m.weight + 1
    with pytest.raises(ValueError, match="Attempted to use an uninitialized parameter in"):
        m.weight.sum()
    sd = m.state_dict()
    assert is_lazy(sd["weight"]) and is_lazy(sd["bias"])
    assert isinstance(copy.deepcopy(m).weight, UninitializedParameter)
    buf = UninitializedBuffer()
    assert repr(buf) == "<UninitializedBuffer>" and not buf.requires_grad
    buf.materialize((2, 3), dtype=torch.float64)
    assert type(buf) is torch.Tensor and buf.shape == (2, 3) and buf.dtype == torch.float64


def test_load_state_dict_materializes():
    src = nn.Linear(4, 3)
    m = nn.LazyLinear(3)
    m.load_state_dict(src.state_dict())
    assert not m.has_uninitialized_params()
    assert torch.equal(m.weight, src.weight) and torch.equal(m.bias, src.bias)
    assert type(m.weight) is nn.Parameter


def test_input_checks():
    with pytest.raises(RuntimeError, match="Expected 3D \\(unbatched\\) or 4D \\(batched\\) input to "
                                           "LazyConv2d, but got input of size"):
        nn.LazyConv2d(4, 3)(torch.zeros(3, 5))
    with pytest.raises(ValueError, match="in_channels must be divisible by groups"):
        nn.LazyConv2d(4, 3, groups=2)(torch.zeros(1, 3, 5, 5))


def test_in_a_sequential():
    torch.manual_seed(0)
    net = nn.Sequential(nn.LazyConv2d(4, 3), nn.ReLU(), nn.Flatten(), nn.LazyLinear(2))
    y = net(torch.ones(2, 3, 6, 6))
    assert y.shape == (2, 2)
    assert [type(m).__name__ for m in net] == ["Conv2d", "ReLU", "Flatten", "Linear"]
    assert net[3].in_features == 4 * 4 * 4


# ---- SyncBatchNorm ------------------------------------------------------------------------------

@pytest.mark.parametrize("shape", [(4, 3), (4, 3, 5), (2, 3, 2, 2), (2, 3, 2, 2, 2, 2)])
def test_sync_batch_norm_is_batch_norm_on_one_process(shape):
    x = t64(torch, inp(shape)).requires_grad_()
    s = nn.SyncBatchNorm(3).double()
    ref = nn.BatchNorm1d(3).double()     # batch norm of (N, C, *) whatever the rank
    flat = x.reshape(shape[0], 3, -1) if len(shape) > 2 else x
    y, z = s(x), ref(flat).reshape(shape)
    assert torch.allclose(y, z)
    assert torch.allclose(s.running_mean, ref.running_mean) and torch.allclose(s.running_var, ref.running_var)
    gs = torch.autograd.grad(y.sum() * 2 + (y * y).sum(), [x, s.weight])
    gz = torch.autograd.grad(z.sum() * 2 + (z * z).sum(), [x, ref.weight])
    assert all(torch.allclose(a, b) for a, b in zip(gs, gz))
    s.eval()
    ref.eval()
    assert torch.allclose(s(x), ref(flat).reshape(shape))


def test_sync_batch_norm_errors_and_repr():
    with pytest.raises(ValueError, match="expected at least 2D input \\(got 1D input\\)"):
        nn.SyncBatchNorm(3)(torch.zeros(3))
    with pytest.raises(ValueError, match="SyncBatchNorm number of input channels should be non-zero"):
        nn.SyncBatchNorm(3)(torch.zeros(2, 0, 3))
    assert repr(nn.SyncBatchNorm(3)) == ("SyncBatchNorm(3, eps=1e-05, momentum=0.1, affine=True, "
                                         "bias=True, track_running_stats=True)")


def test_convert_sync_batchnorm():
    net = nn.Sequential(nn.Linear(3, 3), nn.BatchNorm1d(3),
                        nn.Sequential(nn.BatchNorm2d(3, affine=False), nn.ReLU()),
                        nn.BatchNorm3d(3, momentum=0.3).eval())
    out = nn.SyncBatchNorm.convert_sync_batchnorm(net)
    assert [type(m).__name__ for m in out.modules()] == [
        "Sequential", "Linear", "SyncBatchNorm", "Sequential", "SyncBatchNorm", "ReLU", "SyncBatchNorm"]
    assert out[1].weight is net[1].weight and out[1].running_mean is net[1].running_mean
    assert not out[3].training and out[3].momentum == 0.3 and out[2][0].weight is None


def test_lazy_3d_and_transposed_convolutions():
    x1, x2, x3 = torch.ones(2, 4, 5), torch.ones(2, 4, 5, 5), torch.ones(2, 4, 5, 5, 5)
    for m, x, cls, out, weight in [
            (torch.nn.LazyConv3d(3, 2), x3, torch.nn.Conv3d, (2, 3, 4, 4, 4), (3, 4, 2, 2, 2)),
            (torch.nn.LazyConvTranspose1d(3, 2, stride=2), x1, torch.nn.ConvTranspose1d,
             (2, 3, 10), (4, 3, 2)),
            (torch.nn.LazyConvTranspose2d(4, 3, padding=1, groups=2), x2,
             torch.nn.ConvTranspose2d, (2, 4, 5, 5), (4, 2, 3, 3)),
            (torch.nn.LazyConvTranspose3d(2, 2), x3, torch.nn.ConvTranspose3d, (2, 2, 6, 6, 6),
             (4, 2, 2, 2, 2))]:
        assert m.has_uninitialized_params()
        y = m(x)
        assert type(m) is cls and tuple(y.shape) == out and tuple(m.weight.shape) == weight
        assert m.in_channels == 4 and m.bias.shape == (m.out_channels,)
