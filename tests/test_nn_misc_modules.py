"""Instance norm, pixel / channel shuffles, distances, local response norm, adaptive max / Lp
pooling and max unpooling in 1-d and 2-d, rrelu, selu_ / celu_, gumbel_softmax and the small
layers programs reach for: values and gradients as PyTorch's (REF, at the end), gradcheck /
gradgradcheck, torch's errors, reprs."""
import math
import warnings

import numpy as np
import pytest

import minitorch as torch
import minitorch.nn as nn
import minitorch.nn.functional as F
from minitorch.autograd import gradcheck, gradgradcheck
from nnref import grads, inp, run_case, t64

INF, NAN = math.inf, math.nan


def _instance_norm(T, F, N, shape, running, affine, use_input_stats):
    x = t64(T, inp(shape)).requires_grad_()
    c = shape[1]
    rm = t64(T, inp((c,), 3)) if running else None
    rv = t64(T, inp((c,), 4, 0.5, 2.0)) if running else None
    w = t64(T, inp((c,), 5)).requires_grad_() if affine else None
    b = t64(T, inp((c,), 6)).requires_grad_() if affine else None
    y = F.instance_norm(x, rm, rv, w, b, use_input_stats, 0.2, 1e-5)
    gs = T.autograd.grad(y, [x] + ([w, b] if affine else []), t64(T, inp(tuple(y.shape), 9)))
    return (y,) + tuple(gs) + ((rm, rv) if running else ())


def _instance_module(T, F, N, cls, shape, train, **kw):
    m = getattr(N, cls)(shape[1] if len(shape) == int(cls[-2]) + 2 else shape[0], **kw).double()
    if not train:
        m.eval()
    m(t64(T, inp(shape, 1)))                    # a first batch moves the running statistics
    x = t64(T, inp(shape)).requires_grad_()
    y = m(x)
    gs = T.autograd.grad(y, [x] + list(m.parameters()), t64(T, inp(tuple(y.shape), 9)))
    return (y,) + tuple(gs) + tuple(m.buffers())


CASES = {}
for _shape in [(2, 3, 3), (1, 2, 2, 3), (1, 2, 2, 1, 2)]:
    for _running, _affine, _uis in [(False, False, True), (True, True, True), (True, False, False),
                                    (False, True, True)]:
        CASES[f"instance_norm_{_shape}_{_running}_{_affine}_{_uis}"] = (
            lambda T, F, N, s=_shape, r=_running, a=_affine, u=_uis: _instance_norm(T, F, N, s, r, a, u))
for _cls, _shapes in [("InstanceNorm1d", [(2, 2, 3), (2, 3)]), ("InstanceNorm2d", [(1, 2, 2, 2)]),
                      ("InstanceNorm3d", [(2, 2, 1, 2)])]:
    for _s in _shapes:
        for _kw in [{}, {"affine": True, "track_running_stats": True}]:
            for _train in (True, False):
                CASES[f"{_cls}_{_s}_{len(_kw)}_{_train}"] = (
                    lambda T, F, N, c=_cls, s=_s, k=_kw, t=_train: _instance_module(T, F, N, c, s, t, **k))
CASES["pixel_shuffle"] = lambda T, F, N: grads(T, lambda x: F.pixel_shuffle(x, 2), inp((1, 8, 1, 2)))
CASES["pixel_unshuffle"] = lambda T, F, N: grads(T, lambda x: F.pixel_unshuffle(x, 2), inp((2, 1, 2, 4)))
CASES["channel_shuffle"] = lambda T, F, N: grads(T, lambda x: F.channel_shuffle(x, 3), inp((1, 6, 2, 1)))
CASES["pixel_shuffle_module_5d"] = lambda T, F, N: grads(T, lambda x: N.PixelShuffle(2)(x), inp((2, 1, 4, 1, 2)))
for _s1, _s2, _dim in [((3, 5), (3, 5), 1), ((3, 4), (1, 4), 1), ((2, 3, 4), (3, 4), -1)]:
    CASES[f"cosine_similarity_{_s1}_{_s2}"] = lambda T, F, N, a=_s1, b=_s2, d=_dim: grads(
        T, lambda x, y: F.cosine_similarity(x, y, d), inp(a), inp(b, 2))
    CASES[f"CosineSimilarity_{_s1}_{_s2}"] = lambda T, F, N, a=_s1, b=_s2, d=_dim: grads(
        T, lambda x, y: N.CosineSimilarity(d, 1e-6)(x, y), inp(a), inp(b, 2))
for _p in (2.0, 1.0, 3.0, math.inf):
    CASES[f"pairwise_distance_{_p}"] = lambda T, F, N, p=_p: grads(
        T, lambda x, y: F.pairwise_distance(x, y, p, 1e-6, True), inp((3, 4)), inp((3, 4), 2))
CASES["PairwiseDistance_broadcast"] = lambda T, F, N: grads(
    T, lambda x, y: N.PairwiseDistance(3, 0.1)(x, y), inp((4,)), inp((3, 4), 2))
for _size in (1, 2, 3, 5):
    CASES[f"local_response_norm_{_size}"] = lambda T, F, N, s=_size: grads(
        T, lambda x: F.local_response_norm(x, s, 0.1, 0.6, 2.0), inp((1, 5, 3)))
CASES["LocalResponseNorm_4d"] = lambda T, F, N: grads(T, lambda x: N.LocalResponseNorm(3)(x), inp((1, 4, 2, 3)))
for _o in (1, 3, 5, 8):
    CASES[f"adaptive_max_pool1d_{_o}"] = lambda T, F, N, o=_o: grads(
        T, lambda x: F.adaptive_max_pool1d(x, o, True), inp((2, 2, 7)))
CASES["AdaptiveMaxPool1d_unbatched"] = lambda T, F, N: grads(T, lambda x: N.AdaptiveMaxPool1d(3)(x), inp((2, 8)))
for _p in (1, 2, 3.5, math.inf):
    CASES[f"lp_pool1d_{_p}"] = lambda T, F, N, p=_p: grads(
        T, lambda x: F.lp_pool1d(x, p, 3, 2, True), inp((2, 2, 8), 0, 0.1, 2.0))
    CASES[f"lp_pool2d_{_p}"] = lambda T, F, N, p=_p: grads(
        T, lambda x: N.LPPool2d(p, (2, 3), 1)(x), inp((1, 2, 3, 4), 0, 0.1, 2.0))


def _unpool2d(T, F, N, k, s, p, shape):
    x = t64(T, inp(shape))
    y, i = F.max_pool2d(x, k, s, p, return_indices=True)
    return grads(T, lambda v: F.max_unpool2d(v, i, k, s, p, output_size=shape[-2:]), y.numpy())


def _unpool1d(T, F, N, k, s, p, shape):
    x = t64(T, inp(shape))
    y, i = F.max_pool1d(x, k, s, p, return_indices=True)
    return grads(T, lambda v: N.MaxUnpool1d(k, s, p)(v, i, shape[-1:]), y.numpy())


for _k, _s, _p in [(2, None, 0), (3, 2, 1)]:
    CASES[f"max_unpool2d_{_k}_{_s}_{_p}"] = lambda T, F, N, k=_k, s=_s, p=_p: _unpool2d(T, F, N, k, s, p, (1, 2, 5, 4))
    CASES[f"max_unpool1d_{_k}_{_s}_{_p}"] = lambda T, F, N, k=_k, s=_s, p=_p: _unpool1d(T, F, N, k, s, p, (2, 7))
CASES["rrelu_eval"] = lambda T, F, N: grads(T, lambda x: F.rrelu(x, 0.1, 0.3), np.array([-1.0, 0.0, 1.0, -3.0]))
CASES["RReLU_eval"] = lambda T, F, N: grads(T, lambda x: N.RReLU(0.2, 0.4).eval()(x), np.array([-1.0, 0.0, 2.0]))
CASES["selu_"] = lambda T, F, N: (lambda x: (F.selu_(x), x))(t64(T, [-1.0, 0.0, 1.0]))
CASES["celu_"] = lambda T, F, N: (lambda x: (T.celu_(x, 0.5), x))(t64(T, [-1.0, 0.0, 1.0]))
CASES["Bilinear"] = lambda T, F, N: grads(
    T, lambda a, b, w, c: F.bilinear(a, b, w, c), inp((4, 3)), inp((4, 2), 1), inp((2, 3, 2), 2), inp((2,), 3))
for _name, _make in [("Softmax2d", lambda N: N.Softmax2d()), ("Softmin", lambda N: N.Softmin(1)),
                     ("LogSigmoid", lambda N: N.LogSigmoid()), ("GLU", lambda N: N.GLU(1)),
                     ("Hardshrink", lambda N: N.Hardshrink(0.3)), ("Threshold", lambda N: N.Threshold(0.1, 20.0)),
                     ("Unflatten", lambda N: N.Unflatten(1, (2, 2))), ("Identity", lambda N: N.Identity(3))]:
    CASES[_name] = lambda T, F, N, mk=_make: grads(T, lambda x: mk(N)(x), inp((1, 4, 2, 2)))


@pytest.mark.parametrize("name", list(CASES))
def test_values_and_gradients_match_torch(name):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        run_case(CASES, REF, name)


# ---- instance norm ---------------------------------------------------------------------------

def test_instance_norm_gradcheck():
    x = t64(torch, inp((2, 3, 4))).requires_grad_()
    w = t64(torch, inp((3,), 1)).requires_grad_()
    b = t64(torch, inp((3,), 2)).requires_grad_()
    f = lambda a, c, d: F.instance_norm(a, weight=c, bias=d)  # noqa: E731
    assert gradcheck(f, (x, w, b))
    assert gradgradcheck(f, (x, w, b))


@pytest.mark.parametrize("call,exc,msg", [
    (lambda: F.instance_norm(torch.zeros(2, 3, 1)), ValueError,
     "Expected more than 1 spatial element when training, got input size minitorch.Size([2, 3, 1])"),
    (lambda: F.instance_norm(torch.zeros(2, 3, 4), use_input_stats=False), RuntimeError,
     "Expected running_mean and running_var to be defined when use_input_stats is false"),
    (lambda: F.instance_norm(torch.zeros(2, 3, 4), weight=torch.ones(4)), RuntimeError,
     "weight should contain 6 elements not 8"),
    (lambda: F.instance_norm(torch.zeros(2, 3, 4), torch.zeros(4), torch.ones(4)), RuntimeError,
     "running_mean should contain 6 elements not 8"),
    (lambda: nn.InstanceNorm2d(3)(torch.zeros(2, 3, 4, 5, 6)), ValueError,
     "expected 3D or 4D input (got 5D input)"),
    (lambda: nn.InstanceNorm2d(4, affine=True)(torch.zeros(2, 3, 4, 5)), ValueError,
     "expected input's size at dim=1 to match num_features (4), but got: 3."),
])
def test_instance_norm_errors(call, exc, msg):
    with pytest.raises(exc) as info:
        call()
    assert str(info.value) == msg


def test_instance_norm_module():
    assert repr(nn.InstanceNorm2d(3)) == \
        "InstanceNorm2d(3, eps=1e-05, momentum=0.1, affine=False, bias=False, track_running_stats=False)"
    m = nn.InstanceNorm1d(3, affine=True, track_running_stats=True)
    assert sorted(m.state_dict()) == ["bias", "num_batches_tracked", "running_mean", "running_var",
                                      "weight"]
    with pytest.warns(UserWarning, match="input's size at dim=1 does not match num_features"):
        nn.InstanceNorm2d(4)(torch.zeros(2, 3, 4, 5))
    # an old checkpoint with running statistics loads into a module that does not track them
    m = nn.InstanceNorm1d(3)
    sd = {"running_mean": torch.zeros(3), "running_var": torch.ones(3)}
    sd = type("SD", (dict,), {})(sd)
    sd._metadata = {"": {}}
    with pytest.raises(RuntimeError, match="Unexpected running stats buffer"):
        m.load_state_dict(sd)


# ---- shuffles ----------------------------------------------------------------------------------

@pytest.mark.parametrize("fn,shape", [(lambda x: F.pixel_shuffle(x, 2), (1, 8, 2, 3)),
                                      (lambda x: F.pixel_unshuffle(x, 2), (1, 2, 2, 4)),
                                      (lambda x: F.channel_shuffle(x, 2), (1, 4, 2, 1))])
def test_shuffles_gradcheck(fn, shape):
    x = t64(torch, inp(shape)).requires_grad_()
    assert gradcheck(fn, (x,))
    assert gradgradcheck(fn, (x,))


def test_shuffles_are_inverse_and_named_as_torch():
    x = torch.arange(2 * 12 * 2 * 3.).view(2, 12, 2, 3).requires_grad_()
    assert torch.equal(F.pixel_unshuffle(F.pixel_shuffle(x, 2), 2), x)
    assert torch.equal(F.channel_shuffle(F.channel_shuffle(x, 3), 4), x)
    assert type(F.pixel_shuffle(x, 2).grad_fn).__name__ == "PixelShuffleBackward0"
    assert type(torch.native_channel_shuffle(x, 2).grad_fn).__name__ == "ChannelShuffleBackward0"
    assert F.pixel_shuffle(x, 1).data_ptr() != x.data_ptr()
    assert F.pixel_shuffle(torch.arange(8).view(1, 8, 1, 1), 2).dtype == torch.int64
    assert repr(nn.PixelShuffle(3)) == "PixelShuffle(upscale_factor=3)"
    assert repr(nn.PixelUnshuffle(2)) == "PixelUnshuffle(downscale_factor=2)"
    assert repr(nn.ChannelShuffle(2)) == "ChannelShuffle(groups=2)"


@pytest.mark.parametrize("call,exc,msg", [
    (lambda: F.pixel_shuffle(torch.zeros(2, 3), 2), RuntimeError,
     "pixel_shuffle expects input to have at least 3 dimensions, but got input with 2 dimension(s)"),
    (lambda: F.pixel_shuffle(torch.zeros(1, 7, 2, 3), 2), RuntimeError,
     "pixel_shuffle expects its input's 'channel' dimension to be divisible by the square of "
     "upscale_factor, but input.size(-3)=7 is not divisible by 4"),
    (lambda: F.pixel_shuffle(torch.zeros(1, 8, 2, 3), 0), RuntimeError,
     "pixel_shuffle expects a positive upscale_factor, but got 0"),
    (lambda: F.pixel_shuffle(torch.zeros(1, 8, 2, 3), 2.0), TypeError,
     "pixel_shuffle(): argument 'upscale_factor' (position 2) must be int, not float"),
    (lambda: F.pixel_unshuffle(torch.zeros(1, 2, 5, 6), 2), RuntimeError,
     "pixel_unshuffle expects height to be divisible by downscale_factor, but input.size(-2)=5 is "
     "not divisible by 2"),
    (lambda: F.pixel_unshuffle(torch.zeros(1, 2, 4, 5), 2), RuntimeError,
     "pixel_unshuffle expects width to be divisible by downscale_factor, but input.size(-1)=5 is "
     "not divisible by 2"),
    (lambda: F.channel_shuffle(torch.zeros(1, 8), 2), RuntimeError,
     "channel_shuffle expects input with > 2 dims, but got input with sizes [1, 8]"),
    (lambda: F.channel_shuffle(torch.zeros(1, 8, 2), 3), RuntimeError,
     "Number of channels must be divisible by groups. Got 8 channels and 3 groups."),
    (lambda: F.channel_shuffle(torch.zeros(1, 8, 2), 0), RuntimeError,
     "Number of groups to divide channels in must be positive. Value of groups:0"),
])
def test_shuffle_errors(call, exc, msg):
    with pytest.raises(exc) as info:
        call()
    assert str(info.value) == msg


# ---- distances ---------------------------------------------------------------------------------

def test_distances():
    a = t64(torch, inp((3, 4))).requires_grad_()
    b = t64(torch, inp((3, 4), 1)).requires_grad_()
    assert gradcheck(lambda x, y: F.pairwise_distance(x, y), (a, b))
    assert gradgradcheck(lambda x, y: F.cosine_similarity(x, y), (a, b))
    assert torch.equal(torch.cosine_similarity(a, b), F.cosine_similarity(a, b))
    assert torch.equal(torch.pairwise_distance(a, b), F.pairwise_distance(a, b))
    assert repr(nn.PairwiseDistance()) == "PairwiseDistance()"
    assert repr(nn.CosineSimilarity()) == "CosineSimilarity()"
    with pytest.raises(RuntimeError, match="expected common dtype to be floating point, yet common "
                                           "dtype is Long"):
        F.cosine_similarity(torch.ones(2, 3, dtype=torch.int64), torch.ones(2, 3, dtype=torch.int64))
    with pytest.raises(RuntimeError, match=r"The size of tensor a \(2\) must match the size of tensor "
                                           r"b \(4\) at non-singleton dimension 0"):
        F.cosine_similarity(torch.zeros(2, 3), torch.zeros(4, 3))
    # zero vectors: the norms are clamped at eps, no NaN
    z = F.cosine_similarity(torch.zeros(2, 3), torch.ones(2, 3))
    assert torch.equal(z, torch.zeros(2))


# ---- local response norm, pooling ----------------------------------------------------------------

def test_local_response_norm():
    x = t64(torch, inp((2, 5, 3))).requires_grad_()
    assert gradcheck(lambda t: F.local_response_norm(t, 3), (x,))
    assert gradgradcheck(lambda t: F.local_response_norm(t, 2, 0.1, 0.5, 1.5), (x,))
    assert repr(nn.LocalResponseNorm(3)) == "LocalResponseNorm(3, alpha=0.0001, beta=0.75, k=1.0)"
    with pytest.raises(ValueError, match="Expected 3D or higher dimensionality"):
        F.local_response_norm(torch.zeros(2, 3), 2)
    e = torch.zeros(0, 3, 2)
    assert F.local_response_norm(e, 2) is e


def test_pooling_extra_reprs_and_errors():
    assert repr(nn.AdaptiveMaxPool1d(3, True)) == "AdaptiveMaxPool1d(output_size=3)"
    assert repr(nn.LPPool1d(2, 3)) == "LPPool1d(norm_type=2, kernel_size=3, stride=None, ceil_mode=False)"
    assert repr(nn.LPPool2d(1.5, (2, 3), 1, True)) == \
        "LPPool2d(norm_type=1.5, kernel_size=(2, 3), stride=1, ceil_mode=True)"
    assert repr(nn.MaxUnpool1d(2)) == "MaxUnpool1d(kernel_size=(2,), stride=(2,), padding=(0,))"
    assert repr(nn.MaxUnpool2d((2, 3), 1, 1)) == \
        "MaxUnpool2d(kernel_size=(2, 3), stride=(1, 1), padding=(1, 1))"
    with pytest.raises(ValueError, match="norm_type must be a non-zero value, but got 0"):
        nn.LPPool1d(0, 2)
    with pytest.raises(RuntimeError, match="Expected 2 to 3 dimensions, but got 1-dimensional tensor "
                                           "for argument #1 'self' \\(while checking arguments for "
                                           "adaptive_max_pool1d\\)"):
        F.adaptive_max_pool1d(torch.zeros(4), 2)
    with pytest.raises(RuntimeError, match="should contain one int \\(got 2\\)"):
        F.adaptive_max_pool1d(torch.zeros(2, 4), (2, 2))
    values, indices = torch.adaptive_max_pool1d(torch.arange(8.).view(1, 1, 8), 3)
    assert values.view(-1).tolist() == [2.0, 5.0, 7.0] and indices.view(-1).tolist() == [2, 5, 7]
    y, i = F.max_pool2d(torch.arange(16.).view(1, 1, 4, 4), 2, return_indices=True)
    with pytest.raises(RuntimeError, match="Found an invalid max index: 17 \\(output volumes are of size 4x4\\)"):
        F.max_unpool2d(y, torch.tensor([5, 17, 6, 7]).view(1, 1, 2, 2), 2)
    with pytest.raises(RuntimeError, match="elements in indices should be type int64 but got: Float"):
        F.max_unpool2d(y, i.float(), 2)
    with pytest.raises(ValueError, match='invalid output_size "\\(7, 4\\)" \\(dim 0 must be between 2 and 6\\)'):
        F.max_unpool2d(y, i, 2, output_size=(7, 4))
    with pytest.raises(ValueError, match="output_size should be a sequence containing 2 or 4 elements, "
                                         "but it has a length of '1'"):
        F.max_unpool2d(y, i, 2, output_size=(4,))


def test_max_unpool_gradcheck():
    x = t64(torch, inp((1, 2, 4, 4)))
    y, i = F.max_pool2d(x, 2, return_indices=True)
    v = y.detach().requires_grad_()
    assert gradcheck(lambda t: F.max_unpool2d(t, i, 2), (v,))
    assert gradgradcheck(lambda t: F.max_unpool2d(t, i, 2), (v,))
    out = F.max_unpool2d(y, i, 2)
    assert torch.equal(F.max_pool2d(out, 2), y)


# ---- activations -------------------------------------------------------------------------------

def test_rrelu_training_draws_slopes_in_bounds():
    torch.manual_seed(0)
    x = torch.tensor([-1.0, -2.0, 1.0, 3.0, -0.5] * 200, dtype=torch.float64, requires_grad=True)
    y = F.rrelu(x, 0.1, 0.3, training=True)
    y.sum().backward()
    neg = x.detach() < 0
    slopes = y.detach()[neg] / x.detach()[neg]
    assert bool(((slopes >= 0.1) & (slopes <= 0.3)).all()) and slopes.std().item() > 0.03
    assert torch.equal(x.grad[neg], slopes)                    # the gradient is the slope drawn
    assert torch.equal(x.grad[~neg], torch.ones(400, dtype=torch.float64))
    assert torch.equal(y[~neg], x[~neg])


def test_rrelu_inplace_and_errors():
    x = torch.tensor([-1.0, 0.0, 1.0], requires_grad=True)
    y = x * 1
    z = F.rrelu(y, 0.2, 0.4, training=False, inplace=True)
    assert z is y
    z.sum().backward()
    assert torch.allclose(x.grad, torch.tensor([0.3, 0.3, 1.0]))
    with pytest.raises(RuntimeError, match="Lower bound should be less than or equal to the upper bound"):
        F.rrelu(torch.zeros(3), 0.3, 0.1)
    with pytest.raises(NotImplementedError, match="\"leaky_relu_cpu\" not implemented for 'Long'"):
        F.rrelu(torch.zeros(3, dtype=torch.int64))
    with pytest.raises(RuntimeError, match="a leaf Variable that requires grad"):
        F.rrelu(torch.zeros(3, requires_grad=True), inplace=True)
    assert repr(nn.RReLU()) == "RReLU(lower=0.125, upper=0.3333333333333333)"
    assert repr(nn.RReLU(0.1, 0.3, True)) == "RReLU(lower=0.1, upper=0.3, inplace=True)"


@pytest.mark.parametrize("inplace,outplace", [
    (lambda t: F.elu(t, inplace=True), F.elu), (F.selu_, F.selu),
    (lambda t: F.celu_(t, 0.7), lambda t: F.celu(t, 0.7)), (torch.selu_, torch.selu),
    (lambda t: F.rrelu_(t, 0.2, 0.4), lambda t: F.rrelu(t, 0.2, 0.4))])
def test_inplace_activations_of_non_leaves_backpropagate(inplace, outplace):
    x = t64(torch, inp((5,))).requires_grad_()
    y = x * 2
    z = inplace(y)
    assert z is y
    g, = torch.autograd.grad(z.sum(), x)
    expected, = torch.autograd.grad(outplace(x * 2).sum(), x)
    assert torch.allclose(g, expected)


def test_gumbel_softmax():
    torch.manual_seed(0)
    x = t64(torch, inp((200, 5))).requires_grad_()
    soft = F.gumbel_softmax(x, tau=0.5)
    assert torch.allclose(soft.sum(-1), torch.ones(200, dtype=torch.float64))
    hard = F.gumbel_softmax(x, tau=0.5, hard=True)
    assert bool(((hard == 0) | (hard == 1)).all()) and torch.equal(hard.sum(-1), torch.ones(200, dtype=torch.float64))
    (hard * torch.arange(5.).double()).sum().backward()         # straight-through: soft's gradient
    assert x.grad.abs().sum().item() > 0
    assert torch.allclose(x.grad.sum(-1), torch.zeros(200, dtype=torch.float64), atol=1e-9)
    with pytest.warns(UserWarning, match="`eps` parameter is deprecated and has no effect."):
        F.gumbel_softmax(torch.zeros(2, 3), eps=1e-5)


def test_small_layers_reprs():
    assert repr(nn.Softmax2d()) == "Softmax2d()"
    assert repr(nn.GLU()) == "GLU(dim=-1)"
    assert repr(nn.Hardshrink(0.3)) == "Hardshrink(0.3)"
    assert repr(nn.Threshold(0.1, 20.0)) == "Threshold(threshold=0.1, value=20.0)"
    assert repr(nn.Unflatten(1, (2, 2))) == "Unflatten(dim=1, unflattened_size=(2, 2))"
    assert repr(nn.Bilinear(3, 2, 4)) == "Bilinear(in1_features=3, in2_features=2, out_features=4, bias=True)"
    d = nn.ModuleDict({"a": nn.Linear(2, 3), "b": nn.ReLU()})
    assert list(d.keys()) == ["a", "b"]
    p = nn.ParameterDict({"x": nn.Parameter(torch.ones(2))})
    assert [n for n, _ in p.named_parameters()] == ["x"]
    assert len(nn.ParameterList([nn.Parameter(torch.ones(1))] * 2)) == 2


# ---- values computed with PyTorch 2.15 (tests/nnref.py: REF[name] = flatten(CASES[name](torch)))
REF = {
    'instance_norm_(2, 3, 3)_False_False_True': [["tensor", "float64", [2, 3, 3], [-1.35863711282,
        0.339503556327, 1.01913355649, 1.20972616584, 0.0294647013232, -1.23919086716,
        -0.90716462048, -0.485900040556, 1.39306466104, -1.41385295835, 0.68474793256,
        0.729105025792, 1.2640687131, -0.0829035493385, -1.18116516377, -1.08214882923,
        -0.247364871544, 1.32951370078]], ["tensor", "float64", [2, 3, 3], [0.139976319667,
        -0.490157219344, 0.350180899677, -0.125453626094, 0.24221212725, -0.116758501156,
        0.600280619906, -0.734794659745, 0.134514039839, 0.0233317929715, -1.15209442649,
        1.12876263352, -0.11476951054, 0.255610504149, -0.140840993609, 0.245134023493,
        -0.374914395966, 0.129780372473]]],
    'instance_norm_(2, 3, 3)_True_True_True': [["tensor", "float64", [2, 3, 3], [0.575669683193,
        1.1047107427, 1.31644359963, 1.76040987909, 0.734332565124, -0.368591437054,
        -0.834699988818, -0.423609044494, 1.40997823139, 0.558467663388, 1.21226864641,
        1.22608771572, 1.80765335574, 0.636643606973, -0.318145955548, -1.00545828906,
        -0.190834554168, 1.3479620413]], ["tensor", "float64", [2, 3, 3], [0.0436084134885,
        -0.15270424845, 0.109095834962, -0.109064917868, 0.210570603558, -0.10150568569,
        0.585783706149, -0.717049201273, 0.131265495125, 0.00726881859554, -0.358925068525,
        0.351656249929, -0.099776528033, 0.222218675611, -0.122442147578, 0.239213980966,
        -0.365860127871, 0.126646146905]], ["tensor", "float64", [3], [3.0176955238, 2.28678626204,
        -0.249719786909]], ["tensor", "float64", [3], [0.711184319022, 3.45051433577,
        -4.83523463465]], ["tensor", "float64", [3], [-0.467320393863, -0.813121481461,
        -0.701016645588]], ["tensor", "float64", [3], [0.530376838684, 0.941033417923,
        1.32529124403]]],
    'instance_norm_(2, 3, 3)_True_False_False': [["tensor", "float64", [2, 3, 3], [1.08286727569,
        1.89551578331, 2.22075403677, 1.68213858369, 1.05773752321, 0.386572780341,
        -0.204095406497, -0.102925273967, 0.348323458869, 1.50731872507, 2.12918360121,
        2.14232765276, 1.41428157684, 0.721137318562, 0.155978143907, -0.208071635979,
        0.0793079650866, 0.62215828087]], ["tensor", "float64", [2, 3, 3], [-0.876680055894,
        -0.0369954891324, 0.821895590235, 0.9602997632, 0.792699745611, 0.213563132239,
        -0.388689841157, -0.749815087549, -0.721667661273, -0.510428137046, 0.399373685467,
        1.10183737286, 0.9435917155, 0.553597218359, -0.123801830052, -0.601193330968,
        -0.789273428641, -0.567595731179]], ["tensor", "float64", [3], [-0.756802495308,
        -0.999694698291, -0.723587172517]], ["tensor", "float64", [3], [0.625799418332,
        1.06729319095, 1.60364070692]]],
    'instance_norm_(2, 3, 3)_False_True_True': [["tensor", "float64", [2, 3, 3], [0.575669683193,
        1.1047107427, 1.31644359963, 1.76040987909, 0.734332565124, -0.368591437054,
        -0.834699988818, -0.423609044494, 1.40997823139, 0.558467663388, 1.21226864641,
        1.22608771572, 1.80765335574, 0.636643606973, -0.318145955548, -1.00545828906,
        -0.190834554168, 1.3479620413]], ["tensor", "float64", [2, 3, 3], [0.0436084134885,
        -0.15270424845, 0.109095834962, -0.109064917868, 0.210570603558, -0.10150568569,
        0.585783706149, -0.717049201273, 0.131265495125, 0.00726881859554, -0.358925068525,
        0.351656249929, -0.099776528033, 0.222218675611, -0.122442147578, 0.239213980966,
        -0.365860127871, 0.126646146905]], ["tensor", "float64", [3], [3.0176955238, 2.28678626204,
        -0.249719786909]], ["tensor", "float64", [3], [0.711184319022, 3.45051433577,
        -4.83523463465]]],
    'instance_norm_(1, 2, 2, 3)_False_False_True': [["tensor", "float64", [1, 2, 2, 3],
        [-0.453840119923, 0.733471197552, 1.20865703201, 0.725020747345, -0.466353899577,
        -1.7469549574, -1.2897197457, -1.12652241963, -0.3986140464, 0.516105752332, 1.14275266614,
        1.15599779326]], ["tensor", "float64", [1, 2, 2, 3], [-1.73985197776, -0.889866720733,
        0.214193152047, 0.999145872709, 1.05747677722, 0.358902896514, 0.590855395802,
        -0.103551907265, -0.557151592223, -0.534453650112, -0.0472419043521, 0.651543658149]]],
    'instance_norm_(1, 2, 2, 3)_True_True_True': [["tensor", "float64", [1, 2, 2, 3],
        [0.857551372062, 1.22744795882, 1.37548800161, 1.22481529404, 0.853652812086,
        0.454692612414, -0.412519445828, -0.270641498432, 0.36217613637, 1.15740097623,
        1.70218550191, 1.71370034407]], ["tensor", "float64", [1, 2, 2, 3], [-0.542035857461,
        -0.277230291522, 0.066730026644, 0.311275267533, 0.329447757058, 0.111813097749,
        0.51366865368, -0.0900243429588, -0.484367766303, -0.464634983208, -0.0410704303934,
        0.566428869184]], ["tensor", "float64", [2], [1.03106871613, 3.22903639455]], ["tensor",
        "float64", [2], [1.95905768577, -1.57184600426]], ["tensor", "float64", [2],
        [-0.536328873081, -0.793667142277]], ["tensor", "float64", [2], [0.570997746268,
        1.00174284927]]],
    'instance_norm_(1, 2, 2, 3)_True_False_False': [["tensor", "float64", [1, 2, 2, 3],
        [1.08286727569, 1.89551578331, 2.22075403677, 1.88973192052, 1.07430229007, 0.197802147954,
        0.0170850541294, 0.141096938019, 0.694226642039, 1.38931232884, 1.86549454449,
        1.87555937341]], ["tensor", "float64", [1, 2, 2, 3], [-0.876680055894, -0.0369954891324,
        0.821895590235, 1.25409281084, 1.0352174292, 0.278900400754, -0.476446538572,
        -0.919105068371, -0.884602638929, -0.390851470401, 0.305813455166, 0.843712809052]],
        ["tensor", "float64", [2], [-0.756802495308, -0.999694698291]], ["tensor", "float64", [2],
        [0.625799418332, 1.06729319095]]],
    'instance_norm_(1, 2, 2, 3)_False_True_True': [["tensor", "float64", [1, 2, 2, 3],
        [0.857551372062, 1.22744795882, 1.37548800161, 1.22481529404, 0.853652812086,
        0.454692612414, -0.412519445828, -0.270641498432, 0.36217613637, 1.15740097623,
        1.70218550191, 1.71370034407]], ["tensor", "float64", [1, 2, 2, 3], [-0.542035857461,
        -0.277230291522, 0.066730026644, 0.311275267533, 0.329447757058, 0.111813097749,
        0.51366865368, -0.0900243429588, -0.484367766303, -0.464634983208, -0.0410704303934,
        0.566428869184]], ["tensor", "float64", [2], [1.03106871613, 3.22903639455]], ["tensor",
        "float64", [2], [1.95905768577, -1.57184600426]]],
    'instance_norm_(1, 2, 2, 1, 2)_False_False_True': [["tensor", "float64", [1, 2, 2, 1, 2],
        [-1.64146676443, 0.293596060336, 1.06804706537, 0.279823638724, 1.6345201151,
        -0.0349489917767, -0.954020428166, -0.645550695153]], ["tensor", "float64", [1, 2, 2, 1,
        2], [-0.183216964282, -1.24438009824, -0.424120427565, 1.85171749009, -0.160622675305,
        0.824073288043, 0.442872040575, -1.10632265331]]],
    'instance_norm_(1, 2, 2, 1, 2)_True_True_True': [["tensor", "float64", [1, 2, 2, 1, 2],
        [0.487556547887, 1.0904086588, 1.33168218088, 1.08611797979, 2.12971062096, 0.678333592705,
        -0.120674406071, 0.147498201954]], ["tensor", "float64", [1, 2, 2, 1, 2],
        [-0.0570796628712, -0.387675872536, -0.132131056297, 0.576886591704, -0.139639637652,
        0.716419989409, 0.385017191094, -0.961797542852]], ["tensor", "float64", [2],
        [2.10184526266, 2.41342161065]], ["tensor", "float64", [2], [0.919483814659,
        -0.402175614336]], ["tensor", "float64", [2], [-0.476408955359, -0.916917664778]],
        ["tensor", "float64", [2], [0.530069301553, 0.899831907627]]],
    'instance_norm_(1, 2, 2, 1, 2)_True_False_False': [["tensor", "float64", [1, 2, 2, 1, 2],
        [1.08286727569, 1.89551578331, 2.22075403677, 1.88973192052, 1.05773752321, 0.386572780341,
        0.0170850541294, 0.141096938019]], ["tensor", "float64", [1, 2, 2, 1, 2], [-0.876680055894,
        -0.0369954891324, 0.821895590235, 1.25409281084, 0.792699745611, 0.213563132239,
        -0.476446538572, -0.919105068371]], ["tensor", "float64", [2], [-0.756802495308,
        -0.999694698291]], ["tensor", "float64", [2], [0.625799418332, 1.06729319095]]],
    'instance_norm_(1, 2, 2, 1, 2)_False_True_True': [["tensor", "float64", [1, 2, 2, 1, 2],
        [0.487556547887, 1.0904086588, 1.33168218088, 1.08611797979, 2.12971062096, 0.678333592705,
        -0.120674406071, 0.147498201954]], ["tensor", "float64", [1, 2, 2, 1, 2],
        [-0.0570796628712, -0.387675872536, -0.132131056297, 0.576886591704, -0.139639637652,
        0.716419989409, 0.385017191094, -0.961797542852]], ["tensor", "float64", [2],
        [2.10184526266, 2.41342161065]], ["tensor", "float64", [2], [0.919483814659,
        -0.402175614336]]],
    'InstanceNorm1d_(2, 2, 3)_0_True': [["tensor", "float64", [2, 2, 3], [-1.35863711282,
        0.339503556327, 1.01913355649, 1.20972616584, 0.0294647013232, -1.23919086716,
        -0.90716462048, -0.485900040556, 1.39306466104, -1.41385295835, 0.68474793256,
        0.729105025792]], ["tensor", "float64", [2, 2, 3], [0.139976319667, -0.490157219344,
        0.350180899677, -0.125453626094, 0.24221212725, -0.116758501156, 0.600280619906,
        -0.734794659745, 0.134514039839, 0.0233317929715, -1.15209442649, 1.12876263352]]],
    'InstanceNorm1d_(2, 2, 3)_0_False': [["tensor", "float64", [2, 2, 3], [-1.35863711282,
        0.339503556327, 1.01913355649, 1.20972616584, 0.0294647013232, -1.23919086716,
        -0.90716462048, -0.485900040556, 1.39306466104, -1.41385295835, 0.68474793256,
        0.729105025792]], ["tensor", "float64", [2, 2, 3], [0.139976319667, -0.490157219344,
        0.350180899677, -0.125453626094, 0.24221212725, -0.116758501156, 0.600280619906,
        -0.734794659745, 0.134514039839, 0.0233317929715, -1.15209442649, 1.12876263352]]],
    'InstanceNorm1d_(2, 2, 3)_2_True': [["tensor", "float64", [2, 2, 3], [-1.35863711282,
        0.339503556327, 1.01913355649, 1.20972616584, 0.0294647013232, -1.23919086716,
        -0.90716462048, -0.485900040556, 1.39306466104, -1.41385295835, 0.68474793256,
        0.729105025792]], ["tensor", "float64", [2, 2, 3], [0.139976319667, -0.490157219344,
        0.350180899677, -0.125453626094, 0.24221212725, -0.116758501156, 0.600280619906,
        -0.734794659745, 0.134514039839, 0.0233317929715, -1.15209442649, 1.12876263352]],
        ["tensor", "float64", [2], [1.22973716825, 2.3736360727]], ["tensor", "float64", [2],
        [-2.42824111142, 2.81545279292]], ["tensor", "float64", [2], [0.0369638091599,
        0.030057354448]], ["tensor", "float64", [2], [0.853146075531, 0.853166625473]], ["tensor",
        "int64", [], [0]]],
    'InstanceNorm1d_(2, 2, 3)_2_False': [["tensor", "float64", [2, 2, 3], [0.0998329174835,
        0.742700635773, 0.999989207576, 0.738125153704, 0.0930573525116, -0.600321938974,
        -0.982039156001, -0.853922664332, -0.282485194844, 0.43560678802, 0.927549922427,
        0.937947882121]], ["tensor", "float64", [2, 2, 3], [-0.693521617178, -0.0292662885153,
        0.650182874652, 0.992084248315, 0.818936920951, 0.220631752328, -0.492216206018,
        -0.949526070734, -0.913881662509, -0.40378806918, 0.315935422896, 0.871638440452]],
        ["tensor", "float64", [2], [2.1115694971, 1.6107528947]], ["tensor", "float64", [2],
        [-2.42824111142, 2.81545279292]], ["tensor", "float64", [2], [0.0, 0.0]], ["tensor",
        "float64", [2], [1.0, 1.0]], ["tensor", "int64", [], [0]]],
    'InstanceNorm1d_(2, 3)_0_True': [["tensor", "float64", [2, 3], [-1.35863711282, 0.339503556327,
        1.01913355649, 1.20972616584, 0.0294647013232, -1.23919086716]], ["tensor", "float64", [2,
        3], [0.139976319667, -0.490157219344, 0.350180899677, -0.125453626094, 0.24221212725,
        -0.116758501156]]],
    'InstanceNorm1d_(2, 3)_0_False': [["tensor", "float64", [2, 3], [-1.35863711282,
        0.339503556327, 1.01913355649, 1.20972616584, 0.0294647013232, -1.23919086716]], ["tensor",
        "float64", [2, 3], [0.139976319667, -0.490157219344, 0.350180899677, -0.125453626094,
        0.24221212725, -0.116758501156]]],
    'InstanceNorm1d_(2, 3)_2_True': [["tensor", "float64", [2, 3], [-1.35863711282, 0.339503556327,
        1.01913355649, 1.20972616584, 0.0294647013232, -1.23919086716]], ["tensor", "float64", [2,
        3], [0.139976319667, -0.490157219344, 0.350180899677, -0.125453626094, 0.24221212725,
        -0.116758501156]], ["tensor", "float64", [2], [1.59493935866, 0.950879907554]], ["tensor",
        "float64", [2], [-0.0726053940654, 2.03166307983]], ["tensor", "float64", [2],
        [0.124224450066, -0.0618538299242]], ["tensor", "float64", [2], [0.844639697931,
        0.861724368936]], ["tensor", "int64", [], [0]]],
    'InstanceNorm1d_(2, 3)_2_False': [["tensor", "float64", [2, 3], [0.0998329174835,
        0.742700635773, 0.999989207576, 0.738125153704, 0.0930573525116, -0.600321938974]],
        ["tensor", "float64", [2, 3], [-0.693521617178, -0.0292662885153, 0.650182874652,
        0.992084248315, 0.818936920951, 0.220631752328]], ["tensor", "float64", [2],
        [0.559206276146, 0.676043738849]], ["tensor", "float64", [2], [-0.0726053940654,
        2.03166307983]], ["tensor", "float64", [2], [0.0, 0.0]], ["tensor", "float64", [2], [1.0,
        1.0]], ["tensor", "int64", [], [0]]],
    'InstanceNorm2d_(1, 2, 2, 2)_0_True': [["tensor", "float64", [1, 2, 2, 2], [-1.64146676443,
        0.293596060336, 1.06804706537, 0.279823638724, 1.6345201151, -0.0349489917767,
        -0.954020428166, -0.645550695153]], ["tensor", "float64", [1, 2, 2, 2], [-0.183216964282,
        -1.24438009824, -0.424120427565, 1.85171749009, -0.160622675305, 0.824073288043,
        0.442872040575, -1.10632265331]]],
    'InstanceNorm2d_(1, 2, 2, 2)_0_False': [["tensor", "float64", [1, 2, 2, 2], [-1.64146676443,
        0.293596060336, 1.06804706537, 0.279823638724, 1.6345201151, -0.0349489917767,
        -0.954020428166, -0.645550695153]], ["tensor", "float64", [1, 2, 2, 2], [-0.183216964282,
        -1.24438009824, -0.424120427565, 1.85171749009, -0.160622675305, 0.824073288043,
        0.442872040575, -1.10632265331]]],
    'InstanceNorm2d_(1, 2, 2, 2)_2_True': [["tensor", "float64", [1, 2, 2, 2], [-1.64146676443,
        0.293596060336, 1.06804706537, 0.279823638724, 1.6345201151, -0.0349489917767,
        -0.954020428166, -0.645550695153]], ["tensor", "float64", [1, 2, 2, 2], [-0.183216964282,
        -1.24438009824, -0.424120427565, 1.85171749009, -0.160622675305, 0.824073288043,
        0.442872040575, -1.10632265331]], ["tensor", "float64", [2], [2.10184526266,
        2.41342161065]], ["tensor", "float64", [2], [0.919483814659, -0.402175614336]], ["tensor",
        "float64", [2], [0.101437488387, -0.104416830386]], ["tensor", "float64", [2],
        [0.863258210823, 0.862248141918]], ["tensor", "int64", [], [0]]],
    'InstanceNorm2d_(1, 2, 2, 2)_2_False': [["tensor", "float64", [1, 2, 2, 2], [0.0998329174835,
        0.742700635773, 0.999989207576, 0.738125153704, 0.0930573525116, -0.600321938974,
        -0.982039156001, -0.853922664332]], ["tensor", "float64", [1, 2, 2, 2], [-0.693521617178,
        -0.0292662885153, 0.650182874652, 0.992084248315, 0.818936920951, 0.220631752328,
        -0.492216206018, -0.949526070734]], ["tensor", "float64", [2], [1.29149227582,
        1.23796162984]], ["tensor", "float64", [2], [0.919483814659, -0.402175614336]], ["tensor",
        "float64", [2], [0.0, 0.0]], ["tensor", "float64", [2], [1.0, 1.0]], ["tensor", "int64",
        [], [0]]],
    'InstanceNorm3d_(2, 2, 1, 2)_0_True': [["tensor", "float64", [2, 2, 1, 2], [-1.64146676443,
        0.293596060336, 1.06804706537, 0.279823638724, 1.6345201151, -0.0349489917767,
        -0.954020428166, -0.645550695153]], ["tensor", "float64", [2, 2, 1, 2], [-0.183216964282,
        -1.24438009824, -0.424120427565, 1.85171749009, -0.160622675305, 0.824073288043,
        0.442872040575, -1.10632265331]]],
    'InstanceNorm3d_(2, 2, 1, 2)_0_False': [["tensor", "float64", [2, 2, 1, 2], [-1.64146676443,
        0.293596060336, 1.06804706537, 0.279823638724, 1.6345201151, -0.0349489917767,
        -0.954020428166, -0.645550695153]], ["tensor", "float64", [2, 2, 1, 2], [-0.183216964282,
        -1.24438009824, -0.424120427565, 1.85171749009, -0.160622675305, 0.824073288043,
        0.442872040575, -1.10632265331]]],
    'InstanceNorm3d_(2, 2, 1, 2)_2_True': [["tensor", "float64", [2, 2, 1, 2], [-1.64146676443,
        0.293596060336, 1.06804706537, 0.279823638724, 1.6345201151, -0.0349489917767,
        -0.954020428166, -0.645550695153]], ["tensor", "float64", [2, 2, 1, 2], [-0.183216964282,
        -1.24438009824, -0.424120427565, 1.85171749009, -0.160622675305, 0.824073288043,
        0.442872040575, -1.10632265331]], ["tensor", "float64", [2], [2.10184526266,
        2.41342161065]], ["tensor", "float64", [2], [0.919483814659, -0.402175614336]], ["tensor",
        "float64", [2], [0.101437488387, -0.104416830386]], ["tensor", "float64", [2],
        [0.863258210823, 0.862248141918]], ["tensor", "int64", [], [0]]],
    'InstanceNorm3d_(2, 2, 1, 2)_2_False': [["tensor", "float64", [2, 2, 1, 2], [0.0998329174835,
        0.742700635773, 0.999989207576, 0.738125153704, 0.0930573525116, -0.600321938974,
        -0.982039156001, -0.853922664332]], ["tensor", "float64", [2, 2, 1, 2], [-0.693521617178,
        -0.0292662885153, 0.650182874652, 0.992084248315, 0.818936920951, 0.220631752328,
        -0.492216206018, -0.949526070734]], ["tensor", "float64", [2], [1.29149227582,
        1.23796162984]], ["tensor", "float64", [2], [0.919483814659, -0.402175614336]], ["tensor",
        "float64", [2], [0.0, 0.0]], ["tensor", "float64", [2], [1.0, 1.0]], ["tensor", "int64",
        [], [0]]],
    'pixel_shuffle': [["tensor", "float64", [1, 2, 2, 4], [0.0998334166468, 0.99999420751,
        0.742704349267, 0.738128844321, 0.0930578177972, -0.982044066184, -0.600324940576,
        -0.853926933935, -0.282486607266, 0.927554560165, 0.435608966049, 0.937952571849,
        0.461404787772, -0.838553105533, -0.254685088615, -0.987079377553]], ["tensor", "float64",
        [1, 8, 1, 2], [0.2228899141, -0.948802216912, -0.490202475954, -0.914823479597,
        -0.405906605086, 0.870505937257, 0.313740023519, 0.975341530578, 0.573820542554,
        -0.75982034331, -0.125604101906, -0.999569601187, -0.720384075499, 0.620863764808,
        -0.0672052292256, 0.98660622647]]],
    'pixel_unshuffle': [["tensor", "float64", [2, 4, 1, 2], [0.0998334166468, 0.99999420751,
        0.742704349267, 0.738128844321, 0.0930578177972, -0.982044066184, -0.600324940576,
        -0.853926933935, -0.282486607266, 0.927554560165, 0.435608966049, 0.937952571849,
        0.461404787772, -0.838553105533, -0.254685088615, -0.987079377553]], ["tensor", "float64",
        [2, 1, 2, 4], [0.2228899141, -0.948802216912, -0.490202475954, -0.914823479597,
        -0.405906605086, 0.870505937257, 0.313740023519, 0.975341530578, 0.573820542554,
        -0.75982034331, -0.125604101906, -0.999569601187, -0.720384075499, 0.620863764808,
        -0.0672052292256, 0.98660622647]]],
    'channel_shuffle': [["tensor", "float64", [1, 6, 2, 1], [0.0998334166468, 0.742704349267,
        0.0930578177972, -0.600324940576, -0.282486607266, 0.435608966049, 0.99999420751,
        0.738128844321, -0.982044066184, -0.853926933935, 0.927554560165, 0.937952571849]],
        ["tensor", "float64", [1, 6, 2, 1], [0.2228899141, -0.490202475954, 0.870505937257,
        0.975341530578, -0.948802216912, -0.914823479597, 0.573820542554, -0.125604101906,
        -0.405906605086, 0.313740023519, -0.75982034331, -0.999569601187]]],
    'pixel_shuffle_module_5d': [["tensor", "float64", [2, 1, 1, 2, 4], [0.0998334166468,
        0.99999420751, 0.742704349267, 0.738128844321, 0.0930578177972, -0.982044066184,
        -0.600324940576, -0.853926933935, -0.282486607266, 0.927554560165, 0.435608966049,
        0.937952571849, 0.461404787772, -0.838553105533, -0.254685088615, -0.987079377553]],
        ["tensor", "float64", [2, 1, 4, 1, 2], [0.2228899141, -0.948802216912, -0.490202475954,
        -0.914823479597, -0.405906605086, 0.870505937257, 0.313740023519, 0.975341530578,
        0.573820542554, -0.75982034331, -0.125604101906, -0.999569601187, -0.720384075499,
        0.620863764808, -0.0672052292256, 0.98660622647]]],
    'cosine_similarity_(3, 5)_(3, 5)': [["tensor", "float64", [3], [-0.818026866796,
        -0.818568860883, -0.862384833061]], ["tensor", "float64", [3, 5], [0.0516339854191,
        0.0347052845455, -0.000240950377529, -0.0350620939294, -0.051680462904, 0.0810882152724,
        0.00502152676371, -0.0736521286848, -0.114088675469, -0.0952951475874, -0.0517739965754,
        0.0885539321776, 0.182908358361, 0.182304405212, 0.0870556199782]], ["tensor", "float64",
        [3, 5], [0.0436776786887, 0.0518601760451, 0.0331190362683, -0.00281612371212,
        -0.0372892698945, 0.113369665383, 0.0759571826003, -0.000889096554692, -0.0772737939172,
        -0.113541165309, -0.137973605066, -0.00806392352193, 0.126032210273, 0.19469768503,
        0.162284254504]]],
    'CosineSimilarity_(3, 5)_(3, 5)': [["tensor", "float64", [3], [-0.818026866796,
        -0.818568860883, -0.862384833061]], ["tensor", "float64", [3, 5], [0.0516339854191,
        0.0347052845455, -0.000240950377529, -0.0350620939294, -0.051680462904, 0.0810882152724,
        0.00502152676371, -0.0736521286848, -0.114088675469, -0.0952951475874, -0.0517739965754,
        0.0885539321776, 0.182908358361, 0.182304405212, 0.0870556199782]], ["tensor", "float64",
        [3, 5], [0.0436776786887, 0.0518601760451, 0.0331190362683, -0.00281612371212,
        -0.0372892698945, 0.113369665383, 0.0759571826003, -0.000889096554692, -0.0772737939172,
        -0.113541165309, -0.137973605066, -0.00806392352193, 0.126032210273, 0.19469768503,
        0.162284254504]]],
    'cosine_similarity_(3, 4)_(1, 4)': [["tensor", "float64", [3], [-0.862893514635, 0.9410649279,
        -0.987889970897]], ["tensor", "float64", [3, 4], [0.0559297776758, 0.035914402364,
        -0.00274623046219, -0.0399811351462, -0.0832323930741, -0.063364560359, -0.0106004947286,
        0.0476669049679, -0.0722671168015, -0.0641459227982, -0.0227228451398, 0.0304969845513]],
        ["tensor", "float64", [1, 4], [0.0614564064448, 0.0615814102972, 0.0297359182619,
        -0.0175472204256]]],
    'CosineSimilarity_(3, 4)_(1, 4)': [["tensor", "float64", [3], [-0.862893514635, 0.9410649279,
        -0.987889970897]], ["tensor", "float64", [3, 4], [0.0559297776758, 0.035914402364,
        -0.00274623046219, -0.0399811351462, -0.0832323930741, -0.063364560359, -0.0106004947286,
        0.0476669049679, -0.0722671168015, -0.0641459227982, -0.0227228451398, 0.0304969845513]],
        ["tensor", "float64", [1, 4], [0.0614564064448, 0.0615814102972, 0.0297359182619,
        -0.0175472204256]]],
    'cosine_similarity_(2, 3, 4)_(3, 4)': [["tensor", "float64", [2, 3], [-0.862893514635,
        -0.855803820844, -0.848462278166, 0.999253073177, 0.999214468625, 0.999184238334]],
        ["tensor", "float64", [2, 3, 4], [0.0559297776758, 0.035914402364, -0.00274623046219,
        -0.0399811351462, 0.127299984067, 0.0969130794655, 0.0162129521958, -0.0729042626171,
        -0.246511756723, -0.218809395136, -0.0775103355587, 0.10402885253, 0.0162891597218,
        0.0168236415446, 0.00862399142361, -0.00405287480876, -0.00659289750942, -0.00801715425568,
        -0.00527923939973, 0.000199436031604, -0.00428512774093, -0.00632727450849,
        -0.00508456465003, -0.0012021612144]], ["tensor", "float64", [3, 4], [0.0361968624804,
        0.0362704877949, 0.0175139909136, -0.0103350384671, 0.113677569248, 0.133639806948,
        0.0842218391962, -0.00892058940674, -0.173204886477, -0.245251002981, -0.189973043203,
        -0.0360690148238]]],
    'CosineSimilarity_(2, 3, 4)_(3, 4)': [["tensor", "float64", [2, 3], [-0.862893514635,
        -0.855803820844, -0.848462278166, 0.999253073177, 0.999214468625, 0.999184238334]],
        ["tensor", "float64", [2, 3, 4], [0.0559297776758, 0.035914402364, -0.00274623046219,
        -0.0399811351462, 0.127299984067, 0.0969130794655, 0.0162129521958, -0.0729042626171,
        -0.246511756723, -0.218809395136, -0.0775103355587, 0.10402885253, 0.0162891597218,
        0.0168236415446, 0.00862399142361, -0.00405287480876, -0.00659289750942, -0.00801715425568,
        -0.00527923939973, 0.000199436031604, -0.00428512774093, -0.00632727450849,
        -0.00508456465003, -0.0012021612144]], ["tensor", "float64", [3, 4], [0.0361968624804,
        0.0362704877949, 0.0175139909136, -0.0103350384671, 0.113677569248, 0.133639806948,
        0.0842218391962, -0.00892058940674, -0.173204886477, -0.245251002981, -0.189973043203,
        -0.0360690148238]]],
    'pairwise_distance_2.0': [["tensor", "float64", [3, 1], [2.75386233821, 2.71683822862,
        2.68058257747]], ["tensor", "float64", [3, 4], [-0.0265106135589, 0.0836834498434,
        0.150432603677, 0.139083475473, -0.123787279914, 0.1267457642, 0.311477608211,
        0.334503195206, 0.360696853534, -0.122063439038, -0.541453676574, -0.679743966241]],
        ["tensor", "float64", [3, 4], [0.0265106135589, -0.0836834498434, -0.150432603677,
        -0.139083475473, 0.123787279914, -0.1267457642, -0.311477608211, -0.334503195206,
        -0.360696853534, 0.122063439038, 0.541453676574, 0.679743966241]]],
    'pairwise_distance_1.0': [["tensor", "float64", [3, 1], [4.93852183585, 4.96872866406,
        4.81406964795]], ["tensor", "float64", [3, 4], [-0.2228899141, 0.2228899141, 0.2228899141,
        0.2228899141, -0.490202475954, 0.490202475954, 0.490202475954, 0.490202475954,
        0.948802216912, -0.948802216912, -0.948802216912, -0.948802216912]], ["tensor", "float64",
        [3, 4], [0.2228899141, -0.2228899141, -0.2228899141, -0.2228899141, 0.490202475954,
        -0.490202475954, -0.490202475954, -0.490202475954, -0.948802216912, 0.948802216912,
        0.948802216912, 0.948802216912]]],
    'pairwise_distance_3.0': [["tensor", "float64", [3, 1], [2.32914883203, 2.30119187401,
        2.27416622566]], ["tensor", "float64", [3, 4], [-0.00440797490413, 0.0439216560178,
        0.141933038315, 0.121325090515, -0.0435710910311, 0.0456786545734, 0.275867193972,
        0.318160995011, 0.190512285557, -0.0218177259789, -0.429300004999, -0.676595339609]],
        ["tensor", "float64", [3, 4], [0.00440797490413, -0.0439216560178, -0.141933038315,
        -0.121325090515, 0.0435710910311, -0.0456786545734, -0.275867193972, -0.318160995011,
        -0.190512285557, 0.0218177259789, 0.429300004999, 0.676595339609]]],
    'pairwise_distance_inf': [["tensor", "float64", [3, 1], [1.85863359218, 1.85390958412,
        1.92043167751]], ["tensor", "float64", [3, 4], [-0.0, 0.0, 0.2228899141, 0.0, -0.0, 0.0,
        0.0, 0.490202475954, 0.0, -0.0, -0.0, -0.948802216912]], ["tensor", "float64", [3, 4],
        [0.0, -0.0, -0.2228899141, -0.0, 0.0, -0.0, -0.0, -0.490202475954, -0.0, 0.0, 0.0,
        0.948802216912]]],
    'PairwiseDistance_broadcast': [["tensor", "float64", [3], [2.4660128752, 0.984353064604,
        2.26019910667]], ["tensor", "float64", [4], [-0.266403841014, -0.335352420634,
        -0.461547915195, -0.481174675147]], ["tensor", "float64", [3, 4], [0.00189775401087,
        -0.0471272301946, -0.140606595032, -0.121194783417, 0.318011408949, 0.277462104017,
        0.0640241337355, -0.0132533266942, -0.0535053219458, 0.105017546811, 0.538130376492,
        0.615622785259]]],
    'local_response_norm_1': [["tensor", "float64", [1, 5, 3], [0.0658458054907, 0.482068173931,
        0.64071671095, 0.479193140348, 0.0613793188515, -0.391845379925, -0.629856161681,
        -0.551405758728, -0.185926909337, 0.285771015849, 0.596686781805, 0.603039332212,
        0.302485800634, -0.167703366129, -0.541886643022]], ["tensor", "float64", [1, 5, 3],
        [0.146920683353, -0.307928511349, -0.573179228555, -0.575003408417, -0.267589892359,
        0.200435290556, 0.527497947979, 0.603221067597, 0.37587584797, -0.0814702886526,
        -0.464593861681, -0.610161447903, -0.46629731515, -0.0440811888043, 0.384859921427]]],
    'local_response_norm_2': [["tensor", "float64", [1, 5, 3], [0.06585564654, 0.485991983155,
        0.650047722952, 0.482975176726, 0.0608850072781, -0.388198346843, -0.633668435388,
        -0.55723686515, -0.185151807421, 0.282531273035, 0.597815178882, 0.610078536867,
        0.30258973164, -0.16573983029, -0.540504780858]], ["tensor", "float64", [1, 5, 3],
        [0.14829177087, -0.314987259125, -0.595185080205, -0.577169824295, -0.264014958153,
        0.198865136806, 0.54502143023, 0.611604241382, 0.370165019025, -0.0781944729865,
        -0.477855622845, -0.624315849979, -0.469441361865, -0.0436515479134, 0.392068440274]]],
    'local_response_norm_3': [["tensor", "float64", [1, 5, 3], [0.065502750843, 0.487277143339,
        0.650934693932, 0.47973176259, 0.0606169578584, -0.390469992342, -0.637142908867,
        -0.554565203711, -0.183954140217, 0.283536107009, 0.602051602447, 0.608751442613,
        0.303194456075, -0.166493774579, -0.544662068667]], ["tensor", "float64", [1, 5, 3],
        [0.147068394897, -0.317741384057, -0.60314093802, -0.580503134585, -0.262937772639,
        0.194138868763, 0.545093398575, 0.616403133788, 0.369065089657, -0.0748626103596,
        -0.475351827585, -0.629517291021, -0.471049306304, -0.0461451409275, 0.387811795286]]],
    'local_response_norm_5': [["tensor", "float64", [1, 5, 3], [0.0652723119343, 0.486249776172,
        0.654114065031, 0.482057267146, 0.0606167025776, -0.390653970787, -0.640549315621,
        -0.556025544098, -0.18307080373, 0.284147532015, 0.605931496486, 0.611425761874,
        0.301943711186, -0.166383317171, -0.547791799228]], ["tensor", "float64", [1, 5, 3],
        [0.146885840334, -0.313895739354, -0.610625738982, -0.588583383494, -0.263014625353,
        0.193842037812, 0.553467952658, 0.622460509457, 0.365884929698, -0.0755004591705,
        -0.485266037536, -0.638588412063, -0.467008831471, -0.0468764972055, 0.395164039882]]],
    'LocalResponseNorm_4d': [["tensor", "float64", [1, 4, 2, 3], [0.0998309848307, 0.742680568744,
        0.999967213839, 0.738115289071, 0.0930557961273, -0.600306328999, -0.982014918367,
        -0.853898207563, -0.282474016374, 0.435590356508, 0.927525404955, 0.937923396073,
        0.461385255934, -0.254673672858, -0.838524529053, -0.987050245034, -0.623130729621,
        0.0642820789263, 0.718338130009, 0.999452886496, 0.761695286025, 0.128503735771,
        -0.571411099489, -0.974668216063]], ["tensor", "float64", [1, 4, 2, 3], [0.222888640675,
        -0.490142334836, -0.948721064594, -0.914779740072, -0.40589433207, 0.313696504107,
        0.870422899778, 0.975258349237, 0.573771923961, -0.125561628022, -0.759737746823,
        -0.99948648707, -0.720318589144, -0.0672245282981, 0.620784328244, 0.98652356803,
        0.840067616149, 0.257507849142, -0.458774287552, -0.93686288338, -0.928567637238,
        -0.438223903068, 0.279653539206, 0.852340317184]]],
    'adaptive_max_pool1d_1': [["tensor", "float64", [2, 2, 1], [0.99999420751, 0.937952571849,
        0.99947946742, 0.913637670693]], ["tensor", "float64", [2, 2, 7], [0.0, 0.0, 0.2228899141,
        0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, -0.490202475954, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0,
        -0.948802216912, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, -0.914823479597]]],
    'adaptive_max_pool1d_3': [["tensor", "float64", [2, 2, 3], [0.99999420751, 0.99999420751,
        0.0930578177972, 0.435608966049, 0.937952571849, 0.937952571849, -0.623155268384,
        0.718351220296, 0.99947946742, 0.128506918923, -0.316517447976, 0.913637670693]],
        ["tensor", "float64", [2, 2, 7], [0.0, 0.0, -0.267312561854, 0.0, -0.948802216912, 0.0,
        0.0, 0.0, 0.0, -0.914823479597, 0.0, -0.0921665815665, 0.0, 0.0, 0.0, 0.0, 0.870505937257,
        0.0, 0.975341530578, 0.573820542554, 0.0, -0.125604101906, 0.0, 0.0, 0.0, -0.75982034331,
        0.0, -0.999569601187]]],
    'adaptive_max_pool1d_5': [["tensor", "float64", [2, 2, 5], [0.742704349267, 0.99999420751,
        0.99999420751, 0.0930578177972, -0.600324940576, -0.282486607266, 0.435608966049,
        0.937952571849, 0.937952571849, 0.461404787772, -0.838553105533, -0.623155268384,
        0.718351220296, 0.99947946742, 0.99947946742, 0.128506918923, -0.571421311215,
        -0.316517447976, 0.403230266913, 0.913637670693]], ["tensor", "float64", [2, 2, 7], [0.0,
        0.2228899141, -1.43900469287, 0.0, -0.914823479597, -0.405906605086, 0.0, 0.0,
        0.313740023519, 0.870505937257, 0.0, 1.54916207313, -0.125604101906, 0.0, -0.75982034331,
        0.0, -0.999569601187, 0.0, -0.720384075499, 0.553658535583, 0.0, 0.98660622647,
        0.840143947222, 0.0, 0.0, 0.257514024521, -0.458806423002, -0.936933740666]]],
    'adaptive_max_pool1d_8': [["tensor", "float64", [2, 2, 8], [0.0998334166468, 0.742704349267,
        0.99999420751, 0.99999420751, 0.738128844321, 0.0930578177972, -0.600324940576,
        -0.982044066184, -0.853926933935, -0.282486607266, 0.435608966049, 0.927554560165,
        0.937952571849, 0.937952571849, 0.461404787772, -0.254685088615, -0.838553105533,
        -0.838553105533, -0.623155268384, 0.0642850260942, 0.718351220296, 0.99947946742,
        0.99947946742, 0.761719724664, 0.128506918923, 0.128506918923, -0.571421311215,
        -0.871942525237, -0.316517447976, 0.403230266913, 0.913637670693, 0.913637670693]],
        ["tensor", "float64", [2, 2, 7], [0.2228899141, -0.490202475954, -1.86362569651,
        -0.405906605086, 0.313740023519, 0.870505937257, 0.975341530578, 0.573820542554,
        -0.125604101906, -0.75982034331, -0.999569601187, -0.787589304724, 0.620863764808,
        0.98660622647, 1.09765797174, 0.0, -0.458806423002, -0.936933740666, -0.928644197162,
        -0.158563317359, 0.852400330773, 1.58525483753, -0.0901435866549, 0.0, -0.736151270203,
        -0.999979964293, -0.744660831434, 0.489766990774]]],
    'AdaptiveMaxPool1d_unbatched': [["tensor", "float64", [2, 3], [0.99999420751, 0.99999420751,
        -0.600324940576, 0.927554560165, 0.937952571849, -0.254685088615]], ["tensor", "float64",
        [2, 8], [0.0, 0.0, -0.267312561854, 0.0, 0.0, -0.948802216912, 0.0, 0.0, 0.0, 0.0,
        -0.914823479597, -0.405906605086, 0.0, 0.313740023519, 0.0, 0.0]]],
    'lp_pool1d_1': [["tensor", "float64", [2, 2, 4], [4.90040537475, 4.88962182615, 1.73515437049,
        0.53374132483, 4.176643073, 5.3605663238, 2.54975826394, 0.548473711603, 3.30150692911,
        5.50557289176, 3.45286506575, 0.946789293025, 2.40403177902, 5.30326097247, 4.31131579394,
        1.66995825196]], ["tensor", "float64", [2, 2, 8], [0.2228899141, 0.2228899141,
        -0.267312561854, -0.490202475954, -1.43900469287, -0.948802216912, -2.32103743631,
        -1.3722352194, -0.405906605086, -0.405906605086, -0.0921665815665, 0.313740023519,
        1.18424596078, 0.870505937257, 2.33351823312, 1.46301229587, 0.573820542554,
        0.573820542554, 0.448216440648, -0.125604101906, -0.885424445216, -0.75982034331,
        -2.25917474509, -1.49935440178, -0.720384075499, -0.720384075499, -0.787589304724,
        -0.0672052292256, 0.553658535583, 0.620863764808, 2.10077310451, 1.47990933971]]],
    'lp_pool2d_1': [["tensor", "float64", [1, 2, 2, 2], [6.63555974524, 6.34230488738,
        5.91179744348, 6.1715791495, 5.85126519305, 6.016708235, 6.75437199486, 6.64628436311]],
        ["tensor", "float64", [1, 2, 3, 4], [0.2228899141, -0.267312561854, -0.267312561854,
        -0.490202475954, -0.725912302812, -2.13093825836, -2.13093825836, -1.40502595555,
        -0.948802216912, -1.86362569651, -1.86362569651, -0.914823479597, -0.405906605086,
        -0.0921665815665, -0.0921665815665, 0.313740023519, 0.464599332171, 1.75368088627,
        1.75368088627, 1.2890815541, 0.870505937257, 1.84584746784, 1.84584746784,
        0.975341530578]]],
    'lp_pool1d_2': [["tensor", "float64", [2, 2, 4], [2.89700942147, 2.89183742071, 1.2408755516,
        0.325684141319, 2.54621197401, 3.11645278766, 1.71239068111, 0.339420637959, 2.10845226075,
        3.18514132224, 2.18557835026, 0.639438307298, 1.63226221224, 3.08925031996, 2.6121101456,
        1.08263036414]], ["tensor", "float64", [2, 2, 8], [0.0880817564804, 0.135069858622,
        -0.185148547005, -0.296854017903, -1.06342462142, -0.366783094734, -0.582717279007,
        -1.006029327, -0.124605460122, -0.233357501312, -0.11344450418, 0.195410187493,
        0.906439263398, 0.410777519522, 1.22093068328, 0.483939658501, 0.124646521567,
        0.30238068306, 0.403168679312, -0.0788492774505, -0.686549202225, -0.407476319967,
        -1.36547586197, -0.290856173886, -0.097825241338, -0.330700455198, -0.663647610925,
        -0.0417242518315, 0.421550566885, 0.360835369836, 1.34945051778, 0.37227677104]]],
    'lp_pool2d_2': [["tensor", "float64", [1, 2, 2, 2], [3.15157670423, 3.23258380497,
        2.83248434261, 3.15289539449, 2.7162203115, 2.99392294019, 3.03682789453, 3.14327689692]],
        ["tensor", "float64", [1, 2, 3, 4], [0.080966989647, -0.142062169694, -0.161841281264,
        -0.265562661094, -0.30082172591, -0.33868415561, -0.082648436184, -0.10548775765,
        -0.261826550403, -0.915076086069, -1.20722729176, -0.563203790517, -0.222413778886,
        -0.0360759555037, -0.0113120950667, 0.0117655108787, 0.0628433083994, 0.613642721905,
        0.956820510738, 0.829968303847, 0.508411656322, 0.699667347055, 0.302740126083,
        0.038489893974]]],
    'lp_pool1d_3.5': [["tensor", "float64", [2, 2, 4], [2.35650650857, 2.35337397991,
        1.15404425078, 0.274237976498, 2.1352639175, 2.48586361291, 1.53729683607, 0.289108648899,
        1.83403323334, 2.52492921855, 1.88914139258, 0.57061437333, 1.47447077741, 2.470204954,
        2.1781867448, 0.949435339742]], ["tensor", "float64", [2, 2, 8], [0.0366675971255,
        0.106773541536, -0.178469732873, -0.234153898345, -0.996762624428, -0.105687629153,
        -0.166456934489, -0.970635789061, -0.0329087201639, -0.157951125342, -0.148865950142,
        0.169032904093, 0.889861453283, 0.17437004106, 1.06156881424, 0.137498820663,
        0.0178824779847, 0.163912622905, 0.44864165581, -0.0700950430736, -0.700892200573,
        -0.230379776659, -1.1449474868, -0.0330353663141, -0.00631197916099, -0.132624945414,
        -0.688102572427, -0.0356999061776, 0.434843848186, 0.251778835375, 1.15024624811,
        0.0652152563375]]],
    'lp_pool2d_3.5': [["tensor", "float64", [1, 2, 2, 2], [2.41029427339, 2.52760841016,
        2.20331726042, 2.48164921603, 2.0745206859, 2.35611322182, 2.26992160002, 2.40045550283]],
        ["tensor", "float64", [1, 2, 3, 4], [0.0346560361293, -0.0961654878595, -0.133212936215,
        -0.195863847615, -0.147893433752, -0.0397646222899, -0.00116975864461, -0.00397129610778,
        -0.0711208398616, -0.585819102186, -1.17109769559, -0.494972294498, -0.176963256545,
        -0.0168239787723, -0.000926278792676, 0.000155518923367, 0.00662283104709, 0.250776217799,
        0.761331098549, 0.825785592246, 0.469790734738, 0.329264618959, 0.0405500150191,
        0.000592044243495]]],
    'lp_pool1d_inf': [["tensor", "float64", [2, 2, 4], [1.99999449713, 1.99999449713,
        1.13840492691, 0.238769412762, 1.93117683216, 1.94105494326, 1.48833454838, 0.253374549744,
        1.73243365928, 1.99950549405, 1.77363373843, 0.507149754346, 1.43306875357, 1.95223643174,
        1.95223643174, 0.840965753604]], ["tensor", "float64", [2, 2, 8], [0.0, 0.0,
        -0.267312561854, 0.0, -0.948802216912, 0.0, 0.0, -0.914823479597, 0.0, 0.0,
        -0.405906605086, 0.313740023519, 0.870505937257, 0.0, 0.975341530578, 0.0, 0.0, 0.0,
        0.573820542554, -0.125604101906, -0.75982034331, 0.0, -0.999569601187, 0.0, 0.0, 0.0,
        -0.720384075499, 0.0, 0.553658535583, 0.0, 0.98660622647, 0.0]]],
    'lp_pool2d_inf': [["tensor", "float64", [1, 2, 2, 2], [1.99999449713, 1.99999449713,
        1.93117683216, 1.94105494326, 1.73243365928, 1.99950549405, 1.77363373843, 1.99950549405]],
        ["tensor", "float64", [1, 2, 3, 4], [0.0, 0.0, -0.267312561854, 0.0, 0.0, 0.0, 0.0, 0.0,
        0.0, 0.0, -0.948802216912, -0.914823479597, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, -0.405906605086,
        1.2890815541, 0.870505937257, 0.0, 0.0, 0.0]]],
    'max_unpool2d_2_None_0': [["tensor", "float64", [1, 2, 5, 4], [0.0, 0.742704349267,
        0.99999420751, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.937952571849, 0.461404787772, 0.0,
        0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.761719724664, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.913637670693,
        0.949722559727, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.693084163368, 0.0, 0.0, 0.0, 0.0]],
        ["tensor", "float64", [1, 2, 2, 2], [-0.490202475954, -0.948802216912, -0.720384075499,
        -0.999569601187, -0.928644197162, -0.736151270203, -0.999979964293, -0.426826649991]]],
    'max_unpool1d_2_None_0': [["tensor", "float64", [2, 7], [0.0, 0.742704349267, 0.99999420751,
        0.0, 0.0930578177972, 0.0, 0.0, 0.0, -0.282486607266, 0.0, 0.927554560165, 0.937952571849,
        0.0, 0.0]], ["tensor", "float64", [2, 3], [-0.490202475954, -0.948802216912,
        -0.405906605086, 0.573820542554, -0.75982034331, -0.999569601187]]],
    'max_unpool2d_3_2_1': [["tensor", "float64", [1, 2, 5, 4], [0.0, 0.742704349267, 0.99999420751,
        0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.937952571849, 0.461404787772, 0.0, 0.0, 0.0, 0.0,
        0.0, 0.0, 0.99947946742, 0.761719724664, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.913637670693,
        0.949722559727, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.997693131762, 0.784341501132, 0.0,
        0.0]], ["tensor", "float64", [1, 2, 3, 2], [-0.490202475954, -0.948802216912,
        -0.720384075499, -0.999569601187, -0.720384075499, -0.936933740666, -0.928644197162,
        -0.736151270203, -0.999979964293, -0.736151270203, -0.923873243144, -0.941283439887]]],
    'max_unpool1d_3_2_1': [["tensor", "float64", [2, 7], [0.0, 0.742704349267, 0.99999420751,
        0.738128844321, 0.0, -0.600324940576, 0.0, 0.0, -0.282486607266, 0.0, 0.927554560165,
        0.937952571849, 0.461404787772, 0.0]], ["tensor", "float64", [2, 4], [-0.490202475954,
        -0.948802216912, -0.914823479597, 0.313740023519, 0.573820542554, -0.75982034331,
        -0.999569601187, -0.720384075499]]],
    'rrelu_eval': [["tensor", "float64", [4], [-0.2, 0.0, 1.0, -0.6]], ["tensor", "float64", [4],
        [0.04457798282, -0.0980404951908, -0.948802216912, -0.182964695919]]],
    'RReLU_eval': [["tensor", "float64", [3], [-0.3, 0.0, 2.0]], ["tensor", "float64", [3],
        [0.0668669742301, -0.147060742786, -0.948802216912]]],
    'selu_': [["tensor", "float64", [3], [-1.11133073781, 0.0, 1.05070098736]], ["tensor",
        "float64", [3], [-1.11133073781, 0.0, 1.05070098736]]],
    'celu_': [["tensor", "float64", [3], [-0.432332358382, 0.0, 1.0]], ["tensor", "float64", [3],
        [-0.432332358382, 0.0, 1.0]]],
    'Bilinear': [["tensor", "float64", [4, 2], [-2.48031137751, -1.66876448176, -0.43416386587,
        -1.34579465407, -2.22525998994, 0.840297773169, -0.495050354297, -1.30609274703]],
        ["tensor", "float64", [4, 3], [-0.734101288863, -0.766337818926, 0.586280584719,
        0.00196319861034, -0.346190600279, -0.0687407176592, -0.45831919487, -0.938683217066,
        0.277254381563, -0.290944833837, -0.195890347107, 0.253159084094]], ["tensor", "float64",
        [4, 2], [-0.274206407495, 0.253639194094, -1.45724360066, -0.873856491252, -0.568524833282,
        -0.689497325989, -0.583739726125, -1.21039147505]], ["tensor", "float64", [2, 3, 2],
        [-0.704160070198, 0.0680999175213, -0.542987544393, 0.0773308958374, -0.0999185668605,
        0.0464149032506, -0.127562745966, 0.667238761738, -0.533019195032, 0.227753526121,
        -0.661754342968, -0.329971826685]], ["tensor", "float64", [2], [-0.26131297064,
        -0.115944401453]]],
    'Softmax2d': [["tensor", "float64", [1, 4, 2, 2], [0.243243459582, 0.422748044213,
        0.44904298648, 0.384197163826, 0.241600910389, 0.110359925202, 0.0618727803879,
        0.0781867417256, 0.165959338433, 0.310965190483, 0.417664706916, 0.469176765336,
        0.349196291595, 0.155926840102, 0.0714195262164, 0.0684393291123]], ["tensor", "float64",
        [1, 4, 2, 2], [0.102907885609, -0.113320598275, -0.136330130306, -0.0914994382354,
        -0.0497048315672, 0.0591402769068, 0.0937809841129, 0.129165084081, 0.128451864796,
        0.030020987802, -0.0478725782897, -0.151498879369, -0.181654918838, 0.0241593335658,
        0.0904217244823, 0.113833233524]]],
    'Softmin': [["tensor", "float64", [1, 4, 2, 2], [0.239862191681, 0.112343197587,
        0.0640202953432, 0.0809952357334, 0.241492920013, 0.430345226982, 0.464628620792,
        0.397997654914, 0.351561472095, 0.152727277889, 0.0688300067978, 0.0663249805856,
        0.16708341621, 0.304584297543, 0.402521077067, 0.454682128767]], ["tensor", "float64", [1,
        4, 2, 2], [-0.0446339547451, 0.0595975331238, 0.0953988126164, 0.130500055388,
        0.106912504133, -0.117676716979, -0.152943777991, -0.11102480778, -0.188792830583,
        0.0253369788646, 0.0895583030772, 0.112484028882, 0.126514281195, 0.0327422049907,
        -0.0320133377022, -0.131959276491]]],
    'LogSigmoid': [["tensor", "float64", [1, 4, 2, 2], [-0.644475794093, -0.389217410215,
        -0.313263245362, -0.390694900792, -0.647700350988, -1.0376977625, -1.30016663095,
        -1.20861776591, -0.844332329201, -0.498876896114, -0.333266925413, -0.330330872054,
        -0.488823818572, -0.828575967404, -1.1978595147, -1.3038323997]], ["tensor", "float64", [1,
        4, 2, 2], [0.105886607407, -0.158047680451, -0.255173297382, -0.295866217153,
        -0.193516915571, 0.202591547432, 0.633304921654, 0.684095046922, 0.327167077856,
        -0.0493357539194, -0.215349120916, -0.281193021738, -0.278538391716, -0.0378586762781,
        0.433462491793, 0.718753152127]]],
    'GLU': [["tensor", "float64", [1, 2, 2, 2], [0.0429128207905, 0.450979171074, 0.716574744732,
        0.53048279354, 0.0570767685383, -0.262144298254, -0.296419792218, -0.231832060636]],
        ["tensor", "float64", [1, 4, 2, 2], [0.0958079494929, -0.297656943146, -0.67989164465,
        -0.657470736697, -0.248961751899, 0.137001068489, 0.262753167533, 0.264794829478,
        0.0054534455729, -0.0868340247797, -0.192694524674, -0.136521201979, -0.00895790505865,
        -0.0463311093405, -0.180149949722, -0.164727505894]]],
    'Hardshrink': [["tensor", "float64", [1, 4, 2, 2], [0.0, 0.742704349267, 0.99999420751,
        0.738128844321, 0.0, -0.600324940576, -0.982044066184, -0.853926933935, 0.0,
        0.435608966049, 0.927554560165, 0.937952571849, 0.461404787772, 0.0, -0.838553105533,
        -0.987079377553]], ["tensor", "float64", [1, 4, 2, 2], [0.0, -0.490202475954,
        -0.948802216912, -0.914823479597, 0.0, 0.313740023519, 0.870505937257, 0.975341530578, 0.0,
        -0.125604101906, -0.75982034331, -0.999569601187, -0.720384075499, 0.0, 0.620863764808,
        0.98660622647]]],
    'Threshold': [["tensor", "float64", [1, 4, 2, 2], [20.0, 0.742704349267, 0.99999420751,
        0.738128844321, 20.0, 20.0, 20.0, 20.0, 20.0, 0.435608966049, 0.927554560165,
        0.937952571849, 0.461404787772, 20.0, 20.0, 20.0]], ["tensor", "float64", [1, 4, 2, 2],
        [0.0, -0.490202475954, -0.948802216912, -0.914823479597, 0.0, 0.0, 0.0, 0.0, 0.0,
        -0.125604101906, -0.75982034331, -0.999569601187, -0.720384075499, 0.0, 0.0, 0.0]]],
    'Unflatten': [["tensor", "float64", [1, 2, 2, 2, 2], [0.0998334166468, 0.742704349267,
        0.99999420751, 0.738128844321, 0.0930578177972, -0.600324940576, -0.982044066184,
        -0.853926933935, -0.282486607266, 0.435608966049, 0.927554560165, 0.937952571849,
        0.461404787772, -0.254685088615, -0.838553105533, -0.987079377553]], ["tensor", "float64",
        [1, 4, 2, 2], [0.2228899141, -0.490202475954, -0.948802216912, -0.914823479597,
        -0.405906605086, 0.313740023519, 0.870505937257, 0.975341530578, 0.573820542554,
        -0.125604101906, -0.75982034331, -0.999569601187, -0.720384075499, -0.0672052292256,
        0.620863764808, 0.98660622647]]],
    'Identity': [["tensor", "float64", [1, 4, 2, 2], [0.0998334166468, 0.742704349267,
        0.99999420751, 0.738128844321, 0.0930578177972, -0.600324940576, -0.982044066184,
        -0.853926933935, -0.282486607266, 0.435608966049, 0.927554560165, 0.937952571849,
        0.461404787772, -0.254685088615, -0.838553105533, -0.987079377553]], ["tensor", "float64",
        [1, 4, 2, 2], [0.2228899141, -0.490202475954, -0.948802216912, -0.914823479597,
        -0.405906605086, 0.313740023519, 0.870505937257, 0.975341530578, 0.573820542554,
        -0.125604101906, -0.75982034331, -0.999569601187, -0.720384075499, -0.0672052292256,
        0.620863764808, 0.98660622647]]],
}
