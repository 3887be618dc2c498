"""nn losses: values against NumPy references written here (torch's definitions), a few values
computed with torch and written down, reductions, options, errors and gradients."""
import math
import warnings

import numpy as np
import pytest

import minitorch as torch
import minitorch.nn as nn
import minitorch.nn.functional as F

REDUCTIONS = ["mean", "sum", "none"]


def t64(a):
    return torch.from_numpy(np.ascontiguousarray(a, dtype=np.float64))


def np_log_softmax(x, axis):
    m = x.max(axis=axis, keepdims=True)
    s = x - m
    return s - np.log(np.exp(s).sum(axis=axis, keepdims=True))


def np_reduce(loss, reduction, denom=None):
    if reduction == "none":
        return loss
    if reduction == "sum":
        return loss.sum()
    return loss.sum() / (loss.size if denom is None else denom)


def np_cross_entropy(x, target, weight=None, ignore_index=-100, reduction="mean", label_smoothing=0.0):
    """torch's cross_entropy for class-index targets, x of shape (N, C, d...) or (C,)."""
    x = np.asarray(x, dtype=np.float64)
    if x.ndim == 1:
        x, target = x[None], np.asarray(target)[None]
        squeeze = True
    else:
        squeeze = False
    c = x.shape[1]
    logp = np.moveaxis(np_log_softmax(x, 1), 1, -1)          # (N, d..., C)
    target = np.asarray(target)
    keep = target != ignore_index
    safe = np.where(keep, target, 0)
    w = np.ones(c) if weight is None else np.asarray(weight, dtype=np.float64)
    wt = w[safe] * keep
    picked = np.take_along_axis(logp, safe[..., None], -1)[..., 0]
    nll = -picked * wt
    smooth = -(logp * w).sum(-1) * keep
    if reduction == "mean":
        denom = wt.sum()
        nll_r, smooth_r = nll.sum() / denom, smooth.sum() / denom
    elif reduction == "sum":
        nll_r, smooth_r = nll.sum(), smooth.sum()
    else:
        nll_r, smooth_r = nll, smooth
        if squeeze:
            nll_r, smooth_r = nll_r[0], smooth_r[0]
    return (1 - label_smoothing) * nll_r + label_smoothing / c * smooth_r


def np_cross_entropy_probs(x, p, weight=None, reduction="mean", label_smoothing=0.0):
    x = np.asarray(x, dtype=np.float64)
    c = x.shape[1]
    p = p * (1 - label_smoothing) + label_smoothing / c
    logp = np_log_softmax(x, 1)
    wshape = [1] * x.ndim
    wshape[1] = c
    w = np.ones(c) if weight is None else np.asarray(weight)
    loss = -(logp * p * w.reshape(wshape)).sum(1)
    return np_reduce(loss, reduction, x.size // c)


@pytest.fixture
def rng():
    return np.random.default_rng(1234)


# ---- cross entropy ---------------------------------------------------------------------

@pytest.mark.parametrize("reduction", REDUCTIONS)
@pytest.mark.parametrize("label_smoothing", [0.0, 0.25])
@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("ignored", [False, True])
def test_cross_entropy_class_indices(rng, reduction, label_smoothing, weighted, ignored):
    x = rng.standard_normal((6, 5))
    target = rng.integers(0, 5, 6)
    if ignored:
        target[[1, 4]] = -100
    weight = rng.random(5) + 0.1 if weighted else None
    got = F.cross_entropy(t64(x), torch.from_numpy(target), weight=None if weight is None else t64(weight),
                          reduction=reduction, label_smoothing=label_smoothing)
    want = np_cross_entropy(x, target, weight, -100, reduction, label_smoothing)
    np.testing.assert_allclose(got.numpy(), want, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("reduction", REDUCTIONS)
@pytest.mark.parametrize("label_smoothing", [0.0, 0.1])
def test_cross_entropy_spatial_targets(rng, reduction, label_smoothing):
    x = rng.standard_normal((2, 4, 3, 5))
    target = rng.integers(0, 4, (2, 3, 5))
    target[0, 1, 2] = 9                      # ignore_index below
    weight = rng.random(4) + 0.5
    loss = nn.CrossEntropyLoss(weight=t64(weight), ignore_index=9, reduction=reduction,
                               label_smoothing=label_smoothing)
    got = loss(t64(x), torch.from_numpy(target))
    want = np_cross_entropy(x, target, weight, 9, reduction, label_smoothing)
    np.testing.assert_allclose(got.numpy(), want, rtol=1e-12, atol=1e-12)
    assert tuple(got.shape) == (() if reduction != "none" else (2, 3, 5))


def test_cross_entropy_unbatched(rng):
    x = rng.standard_normal(5)
    for red in REDUCTIONS:
        got = F.cross_entropy(t64(x), torch.tensor(3), reduction=red, label_smoothing=0.2)
        np.testing.assert_allclose(got.numpy(), np_cross_entropy(x, 3, reduction=red, label_smoothing=0.2),
                                   rtol=1e-12)
        assert got.shape == ()
    got = F.cross_entropy(t64(x), torch.tensor([3]))      # a 1-element 1-d target also works
    np.testing.assert_allclose(got.numpy(), np_cross_entropy(x, 3), rtol=1e-12)


@pytest.mark.parametrize("reduction", REDUCTIONS)
@pytest.mark.parametrize("label_smoothing", [0.0, 0.3])
@pytest.mark.parametrize("weighted", [False, True])
def test_cross_entropy_probability_targets(rng, reduction, label_smoothing, weighted):
    x = rng.standard_normal((4, 6, 2))
    p = rng.dirichlet(np.ones(6), (4, 2)).transpose(0, 2, 1)
    weight = rng.random(6) + 0.2 if weighted else None
    got = F.cross_entropy(t64(x), t64(p), weight=None if weight is None else t64(weight),
                          reduction=reduction, label_smoothing=label_smoothing)
    want = np_cross_entropy_probs(x, p, weight, reduction, label_smoothing)
    np.testing.assert_allclose(got.numpy(), want, rtol=1e-12, atol=1e-12)


def test_cross_entropy_matches_values_computed_with_torch():
    # torch 2.x: F.cross_entropy(x, t, weight=w, ignore_index=-100, label_smoothing=0.2)
    x = torch.tensor([[0.5, -1.0, 2.0, 0.0], [1.5, 0.25, -0.75, 3.0], [-2.0, 1.0, 0.5, 0.5]],
                     dtype=torch.float64, requires_grad=True)
    t = torch.tensor([2, -100, 3])
    w = torch.tensor([1.0, 2.0, 0.5, 3.0], dtype=torch.float64)
    expected = {"mean": 1.3102871002371836, "sum": 4.586004850830143,
                "none": [0.923203447232621, 0.0, 3.6628014035975216]}
    for red, want in expected.items():
        got = F.cross_entropy(x, t, weight=w, reduction=red, label_smoothing=0.2)
        np.testing.assert_allclose(got.detach().numpy(), want, rtol=1e-12)
    F.cross_entropy(x, t, weight=w, label_smoothing=0.2).backward()
    np.testing.assert_allclose(x.grad.numpy(), [
        [0.018534975542388667, -0.02124814279390202, 0.025663555454993263, -0.02295038820347986],
        [0.0, 0.0, 0.0, 0.0],
        [0.002844372357587112, 0.31549555920000555, 0.2015443199354894, -0.519884251493082]],
        rtol=1e-10, atol=1e-14)
    x.grad = None
    p = torch.tensor([[0.1, 0.2, 0.3, 0.4], [0.25, 0.25, 0.25, 0.25], [1.0, 0, 0, 0]], dtype=torch.float64)
    loss = F.cross_entropy(x, p, weight=w, label_smoothing=0.1)
    loss.backward()
    assert loss.item() == pytest.approx(3.5609384697475797, rel=1e-12)
    np.testing.assert_allclose(x.grad.numpy()[0], [0.05818590221287517, -0.11513031418183714,
                                                    0.38340253635816124, -0.3264581243891992], rtol=1e-10)


def test_cross_entropy_is_stable_for_large_logits():
    x = torch.tensor([[1000.0, 0.0, -1000.0], [0.0, 800.0, 800.0]])
    loss = F.cross_entropy(x, torch.tensor([0, 1]), reduction="none")
    np.testing.assert_allclose(loss.numpy(), [0.0, math.log(2)], atol=1e-6)
    assert np.isfinite(F.log_softmax(x, 1).numpy()).all()


def test_cross_entropy_all_targets_ignored_is_nan():
    x = torch.zeros(3, 4)
    assert math.isnan(F.cross_entropy(x, torch.full((3,), -100, dtype=torch.int64)).item())
    assert F.cross_entropy(x, torch.full((3,), -100, dtype=torch.int64), reduction="sum").item() == 0


def test_cross_entropy_accepts_uint8_targets():
    x = torch.tensor([[0.0, 1.0, 2.0], [2.0, 1.0, 0.0]])
    a = F.cross_entropy(x, torch.tensor([2, 0], dtype=torch.uint8))
    b = F.cross_entropy(x, torch.tensor([2, 0]))
    assert a.item() == pytest.approx(b.item())


@pytest.mark.parametrize("target, exc, match", [
    ([1, 5, 0, 0], IndexError, "Target 5 is out of bounds."),
    ([1, -3, 0, 0], IndexError, "Target -3 is out of bounds."),
    ([1, 2, 0], ValueError, r"Expected input batch_size \(4\) to match target batch_size \(3\)\."),
])
def test_cross_entropy_bad_targets(target, exc, match):
    with pytest.raises(exc, match=match):
        F.cross_entropy(torch.zeros(4, 5), torch.tensor(target))


def test_cross_entropy_argument_errors():
    x = torch.zeros(4, 5)
    t = torch.tensor([1, 2, 0, 0])
    with pytest.raises(RuntimeError, match="expected target dtype to be Long or Byte, but got Float"):
        F.cross_entropy(x, torch.tensor([1.0, 2, 0, 0]))
    with pytest.raises(RuntimeError, match="but got Int"):
        F.cross_entropy(x, t.int())
    with pytest.raises(RuntimeError, match="Expected floating point type for target with class probabilities, got Long"):
        F.cross_entropy(x, torch.zeros(4, 5, dtype=torch.int64))
    with pytest.raises(RuntimeError, match=r"label_smoothing must be between 0.0 and 1.0. Got: 1.5"):
        F.cross_entropy(x, t, label_smoothing=1.5)
    with pytest.raises(RuntimeError, match=r"weight tensor should be defined either for all 5 classes or "
                                           r"no classes but got weight tensor of shape: \[3\]"):
        F.cross_entropy(x, t, weight=torch.ones(3))
    with pytest.raises(RuntimeError, match=r"Expected target size \[2, 3\], got \[2, 4\]"):
        F.cross_entropy(torch.zeros(2, 5, 3), torch.zeros(2, 4, dtype=torch.int64))
    with pytest.raises(RuntimeError, match="0D or 1D target tensor expected, multi-target not supported"):
        F.cross_entropy(x, torch.zeros(4, 2, dtype=torch.int64))
    with pytest.raises(ValueError, match="avg is not a valid value for reduction"):
        F.cross_entropy(x, t, reduction="avg")


def test_nll_loss(rng):
    x = rng.standard_normal((5, 4))
    target = np.array([0, 3, -1, 2, 3])
    weight = np.array([0.2, 1.0, 2.0, 0.5])
    for red in REDUCTIONS:
        got = nn.NLLLoss(weight=t64(weight), ignore_index=-1, reduction=red)(t64(x), torch.from_numpy(target))
        keep = target != -1
        safe = np.where(keep, target, 0)
        per = -x[np.arange(5), safe] * weight[safe] * keep
        want = np_reduce(per, red, (weight[safe] * keep).sum())
        np.testing.assert_allclose(got.numpy(), want, rtol=1e-12)
    with pytest.raises(RuntimeError, match="For 1D input, 1D target must have size 1, but got target size: 2"):
        F.nll_loss(torch.zeros(5), torch.tensor([1, 2]))


def test_legacy_size_average_and_reduce():
    x, y = torch.tensor([1.0, 2.0, 3.0]), torch.tensor([0.0, 0.0, 1.0])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert F.mse_loss(x, y, size_average=False).item() == 9.0
        assert F.mse_loss(x, y, reduce=False).tolist() == [1.0, 4.0, 4.0]
        assert nn.L1Loss(size_average=False).reduction == "sum"


# ---- regression and binary losses ------------------------------------------------------

@pytest.mark.parametrize("reduction", REDUCTIONS)
def test_regression_losses(rng, reduction):
    a, b = rng.standard_normal((3, 4)), rng.standard_normal((3, 4))
    d = a - b
    cases = [
        (nn.MSELoss(reduction=reduction), d ** 2),
        (nn.L1Loss(reduction=reduction), np.abs(d)),
        (nn.SmoothL1Loss(reduction=reduction, beta=0.5),
         np.where(np.abs(d) < 0.5, 0.5 * d ** 2 / 0.5, np.abs(d) - 0.25)),
        (nn.HuberLoss(reduction=reduction, delta=0.7),
         np.where(np.abs(d) < 0.7, 0.5 * d ** 2, 0.7 * (np.abs(d) - 0.35))),
    ]
    for module, per in cases:
        np.testing.assert_allclose(module(t64(a), t64(b)).numpy(), np_reduce(per, reduction), rtol=1e-12)


def test_mse_warns_on_broadcasting_targets():
    with pytest.warns(UserWarning, match="Using a target size"):
        F.mse_loss(torch.zeros(3, 1), torch.zeros(3))


@pytest.mark.parametrize("reduction", REDUCTIONS)
def test_bce_with_logits(rng, reduction):
    x = rng.standard_normal((4, 3)) * 30            # large logits: the stable form matters
    y = (rng.random((4, 3)) > 0.5).astype(np.float64)
    w = rng.random(3)
    pw = rng.random(3) * 3
    got = nn.BCEWithLogitsLoss(weight=t64(w), pos_weight=t64(pw), reduction=reduction)(t64(x), t64(y))
    log_sig = -np.logaddexp(0, -x)
    log_one_minus = -np.logaddexp(0, x)
    want = -w * (pw * y * log_sig + (1 - y) * log_one_minus)
    np.testing.assert_allclose(got.numpy(), np_reduce(want, reduction), rtol=1e-10, atol=1e-12)
    plain = F.binary_cross_entropy_with_logits(t64(x), t64(y), reduction=reduction)
    np.testing.assert_allclose(plain.numpy(), np_reduce(-(y * log_sig + (1 - y) * log_one_minus), reduction),
                               rtol=1e-10, atol=1e-12)
    assert np.isfinite(plain.numpy()).all()


def test_bce_with_logits_matches_torch_values():
    x = torch.tensor([[0.5, -1.0, 2.0, 0.0], [1.5, 0.25, -0.75, 3.0], [-2.0, 1.0, 0.5, 0.5]],
                     dtype=torch.float64, requires_grad=True)
    w = torch.tensor([1.0, 2.0, 0.5, 3.0], dtype=torch.float64)
    y = (x > 0.4).double()
    loss = F.binary_cross_entropy_with_logits(x * 10, y, pos_weight=w)
    loss.backward()
    assert loss.item() == pytest.approx(0.2752454516850686, rel=1e-12)
    np.testing.assert_allclose(x.grad.numpy()[0], [-0.0055773757702372775, 3.7831557252028664e-05,
                                                    -8.58814038403229e-10, 0.41666666666666663], rtol=1e-8, atol=1e-15)
    with pytest.raises(ValueError, match=r"Target size \(.*\[4\]\)\) must be the same as input size"):
        F.binary_cross_entropy_with_logits(torch.zeros(4, 5), torch.zeros(4))


@pytest.mark.parametrize("reduction", REDUCTIONS)
def test_bce(rng, reduction):
    p = rng.random((3, 4))
    p[0, 0], p[1, 1] = 0.0, 1.0                      # log clamps at -100
    y = rng.random((3, 4))
    w = rng.random(4)
    got = nn.BCELoss(weight=t64(w), reduction=reduction)(t64(p), t64(y))
    with np.errstate(divide="ignore"):
        want = -w * (y * np.maximum(np.log(p), -100) + (1 - y) * np.maximum(np.log(1 - p), -100))
    np.testing.assert_allclose(got.numpy(), np_reduce(want, reduction), rtol=1e-12)
    with pytest.raises(RuntimeError, match="all elements of input should be between 0 and 1"):
        F.binary_cross_entropy(t64(p) + 1, t64(y))


def test_kl_div(rng):
    x = np_log_softmax(rng.standard_normal((3, 5)), 1)
    p = rng.dirichlet(np.ones(5), 3)
    per = p * (np.log(p) - x)
    np.testing.assert_allclose(F.kl_div(t64(x), t64(p), reduction="batchmean").numpy(), per.sum() / 3, rtol=1e-12)
    np.testing.assert_allclose(F.kl_div(t64(x), t64(np.log(p)), reduction="sum", log_target=True).numpy(),
                               per.sum(), rtol=1e-12)
    with pytest.warns(UserWarning, match="batchmean"):
        np.testing.assert_allclose(nn.KLDivLoss()(t64(x), t64(p)).numpy(), per.mean(), rtol=1e-12)


# ---- gradients ---------------------------------------------------------------------------

def _gradcheck(fn, *inputs):
    assert torch.autograd.gradcheck(fn, inputs, eps=1e-6, atol=1e-5, rtol=1e-4)


@pytest.mark.parametrize("reduction", REDUCTIONS)
def test_cross_entropy_gradcheck(rng, reduction):
    x = t64(rng.standard_normal((4, 3, 2))).requires_grad_()
    target = torch.from_numpy(np.array([[0, 2], [1, -100], [2, 2], [0, 1]]))
    w = t64([0.5, 2.0, 1.0])
    _gradcheck(lambda a: F.cross_entropy(a, target, weight=w, reduction=reduction, label_smoothing=0.2), x)
    p = t64(rng.dirichlet(np.ones(3), (4, 2)).transpose(0, 2, 1))
    _gradcheck(lambda a: F.cross_entropy(a, p, weight=w, reduction=reduction, label_smoothing=0.1), x)


@pytest.mark.parametrize("name", ["mse", "l1", "smooth_l1", "huber", "bce_logits", "bce", "kl", "nll"])
def test_loss_gradchecks(rng, name):
    a = t64(rng.standard_normal((3, 4))).requires_grad_()
    b = t64(rng.random((3, 4))).requires_grad_()
    fns = {
        "mse": lambda x, y: F.mse_loss(x, y),
        "l1": lambda x, y: F.l1_loss(x, y, reduction="sum"),
        "smooth_l1": lambda x, y: F.smooth_l1_loss(x, y, beta=0.3),
        "huber": lambda x, y: F.huber_loss(x, y, reduction="none", delta=0.4),
        "bce_logits": lambda x, y: F.binary_cross_entropy_with_logits(x, y, pos_weight=t64([1.0, 2.0, 0.5, 3.0])),
        "bce": lambda x, y: F.binary_cross_entropy(x.sigmoid(), y, reduction="sum"),
        "kl": lambda x, y: F.kl_div(F.log_softmax(x, 1), y, reduction="batchmean"),
        "nll": lambda x, y: F.nll_loss(F.log_softmax(x, 1), torch.tensor([0, 3, 1])) + (y * 0).sum(),
    }
    _gradcheck(fns[name], a, b)


def test_loss_modules_repr():
    assert repr(nn.CrossEntropyLoss()) == "CrossEntropyLoss()"
    assert repr(nn.MSELoss(reduction="sum")) == "MSELoss()"
    m = nn.BCEWithLogitsLoss(pos_weight=torch.ones(3))
    assert [n for n, _ in m.named_buffers()] == ["pos_weight"]
    assert list(m.state_dict()) == ["pos_weight"]


# ---- mse_loss and binary_cross_entropy_with_logits as one node (MseLossBackward0,
# BinaryCrossEntropyWithLogitsBackward0, as torch's); values captured from torch 2.15 ---------
_LX = [[0.3, -1.2, 2.5], [0.0, 4.0, -0.7]]
_LY = [[1.0, 0.0, 1.0], [0.5, 1.0, 0.0]]
_PW = [2.0, 0.5, 1.5]
# (loss, reduction) -> (value, d/dx of the loss's sum, d/dx of the sum of both first derivatives)
_LOSS_REF = {
    ("mse", "mean"): (2.32, [[-0.2333333333, -0.4, 0.5], [-0.1666666667, 1.0, -0.2333333333]],
                      [[0.0] * 3, [0.0] * 3]),
    ("bcel", "sum"): (2.0110106035, [[-0.4255574832, 0.2314752165, -0.07585818], [0.0, -0.01798621, 0.3318122278]],
                      [[-0.7555416883, -0.8221055594, -0.9298962835], [-0.75, -0.9823372938, -0.7782871267]]),
    ("bcel_pw", "mean"): (0.4903848902, [[-0.1418524944, 0.0385792028, -0.018964545], [-0.0416666667, -0.0014988508, 0.055302038]],
                          [[-0.15610681, -0.0729738613, -0.1554622525], [-0.1875, -0.1636959237, -0.1853968355]]),
    ("bcel_pw", "none"): ([[1.1087104889, 0.2632824673, 0.1183346014], [1.0397207708, 0.009074964, 0.4031860489]],
                          [[-0.8511149664, 0.2314752165, -0.11378727], [-0.25, -0.008993105, 0.3318122278]],
                          [[-0.9366408598, -0.4378431676, -0.9327735152], [-1.125, -0.9821755419, -1.1123810128]]),
}


@pytest.mark.parametrize("key", sorted(_LOSS_REF))
def test_fused_losses_values_gradients_and_node(key):
    name, red = key
    x = torch.tensor(_LX, dtype=torch.float64, requires_grad=True)
    y = torch.tensor(_LY, dtype=torch.float64, requires_grad=True)
    pw = torch.tensor(_PW, dtype=torch.float64)
    out = (F.mse_loss(x, y, reduction=red) if name == "mse" else
           F.binary_cross_entropy_with_logits(x, y, pos_weight=pw if name == "bcel_pw" else None,
                                              reduction=red))
    assert type(out.grad_fn).__name__ == ("MseLossBackward0" if name == "mse" else
                                          "BinaryCrossEntropyWithLogitsBackward0")
    value, gx_ref, ggx_ref = _LOSS_REF[key]
    np.testing.assert_allclose(out.detach().numpy(), value, atol=1e-9)
    gx, gy = torch.autograd.grad(out.sum(), [x, y], create_graph=True)
    np.testing.assert_allclose(gx.detach().numpy(), gx_ref, atol=1e-9)
    ggx, = torch.autograd.grad(gx.sum() + gy.sum(), [x])
    np.testing.assert_allclose(ggx.numpy(), ggx_ref, atol=1e-9)


def test_fused_losses_gradcheck_and_fallbacks():
    x = torch.tensor(_LX, dtype=torch.float64).add(0.1).requires_grad_()
    y = torch.tensor(_LY, dtype=torch.float64, requires_grad=True)
    pw = torch.tensor(_PW, dtype=torch.float64)
    assert torch.autograd.gradcheck(lambda a, b: F.mse_loss(a, b), (x, y))
    assert torch.autograd.gradgradcheck(lambda a, b: F.mse_loss(a, b, reduction="sum"), (x, y))
    assert torch.autograd.gradgradcheck(
        lambda a, b: F.binary_cross_entropy_with_logits(a, b, pos_weight=pw), (x, y))
    # broadcast targets and weights keep the elementwise path (and its nodes)
    with pytest.warns(UserWarning):
        r = F.mse_loss(torch.ones(3, 1, requires_grad=True), torch.zeros(3))
    assert r.item() == 1.0
    w = F.binary_cross_entropy_with_logits(x, y.detach(), weight=torch.ones(3, dtype=torch.float64))
    assert w.item() == pytest.approx(F.binary_cross_entropy_with_logits(x, y.detach()).item())
    assert math.isnan(F.mse_loss(torch.empty(0), torch.empty(0)).item())
    assert nn.MSELoss()(x, y).grad_fn.name() == "MseLossBackward0"


def test_bce_with_logits_weighted_mixed_second_derivative_at_zero():
    # d/dx of the target gradient at x = 0: softplus's derivative -1/2 there, not one side's
    # (values from torch)
    x = torch.tensor([0.0, 0.5, -1.0], dtype=torch.float64, requires_grad=True)
    y = torch.tensor([0.3, 1.0, 0.0], dtype=torch.float64, requires_grad=True)
    pw = torch.tensor([2.0, 0.5, 3.0], dtype=torch.float64)
    w = torch.tensor([1.0, 2.0, 0.5], dtype=torch.float64)
    loss = F.binary_cross_entropy_with_logits(x, y, weight=w, pos_weight=pw)
    gy, = torch.autograd.grad(loss, y, create_graph=True)
    gxy, = torch.autograd.grad(gy.sum(), x)
    assert gxy.tolist() == pytest.approx([-0.5, -0.5408197770672848, -0.41035285954333495])
    assert torch.autograd.gradgradcheck(
        lambda a, b: F.binary_cross_entropy_with_logits(a, b, weight=w, pos_weight=pw), (x, y))
