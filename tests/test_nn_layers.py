"""nn layers and nn.functional: forward values against NumPy, torch's default initialisation
(bounds and statistics), nn.init, gradients (gradcheck and hand-computed values)."""
import math
import warnings

import numpy as np
import pytest

import minitorch as torch
import minitorch.nn as nn
import minitorch.nn.functional as F
from minitorch.nn import init


def t64(a):
    return torch.from_numpy(np.ascontiguousarray(a, dtype=np.float64))


def np_erf(x):
    return np.vectorize(math.erf)(x)


def np_softmax(x, axis):
    e = np.exp(x - x.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


@pytest.fixture
def rng():
    return np.random.default_rng(99)


def gradcheck(fn, *inputs):
    assert torch.autograd.gradcheck(fn, inputs, eps=1e-6, atol=1e-5, rtol=1e-4)


# ---- Linear, Bilinear, Identity, Flatten ---------------------------------------------------

def test_linear_forward_and_shapes(rng):
    lin = nn.Linear(4, 3).double()
    w, b = lin.weight.detach().numpy(), lin.bias.detach().numpy()
    for shape in [(4,), (5, 4), (2, 5, 4)]:
        x = rng.standard_normal(shape)
        out = lin(t64(x))
        np.testing.assert_allclose(out.detach().numpy(), x @ w.T + b, rtol=1e-12)
        assert tuple(out.shape) == shape[:-1] + (3,)
    nob = nn.Linear(4, 3, bias=False)
    assert nob.bias is None and [n for n, _ in nob.named_parameters()] == ["weight"]
    assert repr(lin) == "Linear(in_features=4, out_features=3, bias=True)"
    assert repr(nob) == "Linear(in_features=4, out_features=3, bias=False)"


def test_linear_default_init_bounds_and_spread():
    torch.manual_seed(0)
    lin = nn.Linear(400, 300)
    bound = 1 / math.sqrt(400)
    w = lin.weight.detach().numpy()
    b = lin.bias.detach().numpy()
    assert np.abs(w).max() <= bound and np.abs(b).max() <= bound
    # U(-bound, bound): std bound / sqrt(3)
    assert abs(w.std() - bound / math.sqrt(3)) < 0.02 * bound
    assert abs(w.mean()) < 0.01 * bound
    assert lin.weight.dtype == torch.float32 and lin.weight.requires_grad
    assert nn.Linear(3, 2, dtype=torch.float64).weight.dtype == torch.float64


def test_linear_gradients(rng):
    lin = nn.Linear(3, 2).double()
    x = t64(rng.standard_normal((4, 3))).requires_grad_()
    gradcheck(lambda a, w, b: F.linear(a, w, b), x, lin.weight, lin.bias)
    out = lin(x)
    out.sum().backward()
    np.testing.assert_allclose(lin.bias.grad.numpy(), [4.0, 4.0])
    np.testing.assert_allclose(lin.weight.grad.numpy(), np.tile(x.detach().numpy().sum(0), (2, 1)), rtol=1e-12)


def test_bilinear(rng):
    m = nn.Bilinear(3, 4, 2).double()
    a, b = rng.standard_normal((5, 3)), rng.standard_normal((5, 4))
    w, bias = m.weight.detach().numpy(), m.bias.detach().numpy()
    want = np.einsum("ni,kij,nj->nk", a, w, b) + bias
    np.testing.assert_allclose(m(t64(a), t64(b)).detach().numpy(), want, rtol=1e-12)
    assert np.abs(w).max() <= 1 / math.sqrt(3)
    gradcheck(lambda x, y: m(x, y), t64(a).requires_grad_(), t64(b).requires_grad_())
    assert repr(m) == "Bilinear(in1_features=3, in2_features=4, out_features=2, bias=True)"


def test_identity_flatten_unflatten():
    x = torch.arange(24.0).reshape(2, 3, 4)
    assert nn.Identity(54, unused="x")(x) is x
    assert tuple(nn.Flatten()(x).shape) == (2, 12)
    assert tuple(nn.Flatten(0, 1)(x).shape) == (6, 4)
    assert tuple(nn.Unflatten(2, (2, 2))(x).shape) == (2, 3, 2, 2)
    assert repr(nn.Flatten()) == "Flatten(start_dim=1, end_dim=-1)"
    assert repr(nn.Unflatten(1, (2, 5))) == "Unflatten(dim=1, unflattened_size=(2, 5))"
    with pytest.raises(TypeError, match="unflattened_size must be tuple of ints, but found element of type float at pos 1"):
        nn.Unflatten(1, (2, 2.0))


# ---- activations -----------------------------------------------------------------------

SELU_A, SELU_S = 1.6732632423543772848170429916717, 1.0507009873554804934193349852946


def _sig(x):
    return 1 / (1 + np.exp(-x))


ACTIVATIONS = [
    (nn.ReLU(), lambda x: np.maximum(x, 0)),
    (nn.LeakyReLU(0.2), lambda x: np.where(x > 0, x, 0.2 * x)),
    (nn.GELU(), lambda x: 0.5 * x * (1 + np_erf(x / math.sqrt(2)))),
    (nn.GELU("tanh"), lambda x: 0.5 * x * (1 + np.tanh(math.sqrt(2 / math.pi) * (x + 0.044715 * x ** 3)))),
    (nn.SiLU(), lambda x: x * _sig(x)),
    (nn.Tanh(), np.tanh),
    (nn.Sigmoid(), _sig),
    (nn.ELU(0.7), lambda x: np.where(x > 0, x, 0.7 * np.expm1(x))),
    (nn.SELU(), lambda x: SELU_S * np.where(x > 0, x, SELU_A * np.expm1(x))),
    (nn.CELU(0.5), lambda x: np.where(x > 0, x, 0.5 * np.expm1(x / 0.5))),
    (nn.Softplus(2.0, 3.0), lambda x: np.where(2 * x > 3, x, np.log1p(np.exp(2 * x)) / 2)),
    (nn.Mish(), lambda x: x * np.tanh(np.log1p(np.exp(x)))),
    (nn.Hardswish(), lambda x: x * np.clip(x + 3, 0, 6) / 6),
    (nn.Hardsigmoid(), lambda x: np.clip(x + 3, 0, 6) / 6),
    (nn.Hardtanh(-0.5, 0.8), lambda x: np.clip(x, -0.5, 0.8)),
    (nn.ReLU6(), lambda x: np.clip(x, 0, 6)),
    (nn.LogSigmoid(), lambda x: -np.logaddexp(0, -x)),
    (nn.Softsign(), lambda x: x / (1 + np.abs(x))),
    (nn.Tanhshrink(), lambda x: x - np.tanh(x)),
    (nn.Hardshrink(0.6), lambda x: np.where(np.abs(x) > 0.6, x, 0)),
    (nn.Softshrink(0.6), lambda x: np.where(x > 0.6, x - 0.6, np.where(x < -0.6, x + 0.6, 0))),
    (nn.Threshold(0.3, -2.0), lambda x: np.where(x > 0.3, x, -2.0)),
]


@pytest.mark.parametrize("module, ref", ACTIVATIONS, ids=lambda v: repr(v) if isinstance(v, nn.Module) else "")
def test_activation_values_and_gradients(rng, module, ref):
    x = rng.standard_normal((3, 5)) * 3
    np.testing.assert_allclose(module(t64(x)).numpy(), ref(x), rtol=1e-10, atol=1e-12)
    xt = t64(x).requires_grad_()
    gradcheck(module, xt)


def test_activation_reprs():
    assert repr(nn.ReLU()) == "ReLU()" and repr(nn.ReLU(inplace=True)) == "ReLU(inplace=True)"
    assert repr(nn.LeakyReLU()) == "LeakyReLU(negative_slope=0.01)"
    assert repr(nn.LeakyReLU(0.2, True)) == "LeakyReLU(negative_slope=0.2, inplace=True)"
    assert repr(nn.GELU()) == "GELU(approximate='none')"
    assert repr(nn.GELU(approximate="tanh")) == "GELU(approximate='tanh')"
    assert repr(nn.SiLU()) == "SiLU()" and repr(nn.Tanh()) == "Tanh()" and repr(nn.Sigmoid()) == "Sigmoid()"
    assert repr(nn.Softmax(dim=1)) == "Softmax(dim=1)" and repr(nn.LogSoftmax(-1)) == "LogSoftmax(dim=-1)"
    assert repr(nn.Hardtanh()) == "Hardtanh(min_val=-1.0, max_val=1.0)"
    assert repr(nn.ELU()) == "ELU(alpha=1.0)" and repr(nn.Softplus()) == "Softplus(beta=1.0, threshold=20.0)"
    assert repr(nn.PReLU()) == "PReLU(num_parameters=1)"


def test_inplace_activations_write_their_input():
    x = torch.tensor([-1.0, 2.0])
    assert nn.ReLU(inplace=True)(x) is x and x.tolist() == [0.0, 2.0]
    y = torch.tensor([-1.0, 2.0])
    nn.LeakyReLU(0.5, inplace=True)(y)
    assert y.tolist() == [-0.5, 2.0]
    z = torch.tensor([-1.0, 2.0])
    F.relu_(z)
    assert z.tolist() == [0.0, 2.0]


def test_inplace_activation_on_intermediate_has_gradient():
    a = torch.tensor([-1.0, 2.0, 3.0], requires_grad=True)
    h = a * 2
    nn.ReLU(inplace=True)(h)
    h.sum().backward()
    assert a.grad.tolist() == [0.0, 2.0, 2.0]


def test_gelu_rejects_unknown_approximation():
    with pytest.raises(RuntimeError, match="approximate argument must be either none or tanh."):
        F.gelu(torch.zeros(2), approximate="erf")


def test_prelu(rng):
    m = nn.PReLU(3).double()
    assert m.weight.tolist() == [0.25] * 3
    with torch.no_grad():
        m.weight.copy_(t64([0.1, -0.5, 2.0]))
    x = rng.standard_normal((2, 3, 4))
    want = np.where(x >= 0, x, x * np.array([0.1, -0.5, 2.0])[None, :, None])
    np.testing.assert_allclose(m(t64(x)).detach().numpy(), want, rtol=1e-12)
    gradcheck(lambda a, w: F.prelu(a, w), t64(x).requires_grad_(), m.weight)


@pytest.mark.parametrize("dim", [0, 1, 2, -1])
def test_softmax_family(rng, dim):
    x = rng.standard_normal((2, 3, 4)) * 5
    s = np_softmax(x, dim)
    np.testing.assert_allclose(F.softmax(t64(x), dim).numpy(), s, rtol=1e-12)
    np.testing.assert_allclose(F.log_softmax(t64(x), dim).numpy(), np.log(s), rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(F.softmin(t64(x), dim).numpy(), np_softmax(-x, dim), rtol=1e-12)
    np.testing.assert_allclose(nn.Softmax(dim)(t64(x)).numpy(), s, rtol=1e-12)
    xt = t64(x).requires_grad_()
    gradcheck(lambda a: F.softmax(a, dim), xt)
    gradcheck(lambda a: F.log_softmax(a, dim), xt)


def test_softmax_implicit_dim_and_dtype():
    x = torch.zeros(2, 3)
    with pytest.warns(UserWarning, match="Implicit dimension choice for softmax has been deprecated"):
        out = F.softmax(x)
    np.testing.assert_allclose(out.numpy(), np.full((2, 3), 1 / 3), rtol=1e-6)
    assert F.log_softmax(x, 1, dtype=torch.float64).dtype == torch.float64
    big = torch.tensor([1e4, 0.0, -1e4])
    assert F.softmax(big, 0).tolist() == [1.0, 0.0, 0.0]


def test_glu_and_normalize(rng):
    x = rng.standard_normal((3, 4))
    np.testing.assert_allclose(F.glu(t64(x), 1).numpy(), x[:, :2] * _sig(x[:, 2:]), rtol=1e-12)
    n = F.normalize(t64(x), dim=1).numpy()
    np.testing.assert_allclose(n, x / np.linalg.norm(x, axis=1, keepdims=True), rtol=1e-12)
    np.testing.assert_allclose(F.normalize(torch.zeros(2, 3)).numpy(), np.zeros((2, 3)))
    gradcheck(lambda a: F.normalize(a, p=2.0, dim=0), t64(x).requires_grad_())
    c = F.cosine_similarity(t64(x), t64(x[::-1].copy()))
    want = (x * x[::-1]).sum(1) / (np.linalg.norm(x, axis=1) * np.linalg.norm(x[::-1], axis=1))
    np.testing.assert_allclose(c.numpy(), want, rtol=1e-12)


# ---- dropout -----------------------------------------------------------------------------

def test_dropout_train_and_eval():
    torch.manual_seed(0)
    x = torch.ones(200, 100)
    d = nn.Dropout(0.3)
    out = d(x).numpy()
    kept = out != 0
    assert abs(kept.mean() - 0.7) < 0.01
    np.testing.assert_allclose(out[kept], 1 / 0.7, rtol=1e-6)
    d.eval()
    assert d(x) is x
    assert F.dropout(x, 0.5, training=False) is x
    assert F.dropout(x, 0.0) is x
    assert (F.dropout(x, 1.0) == 0).all()
    assert repr(d) == "Dropout(p=0.3, inplace=False)"


def test_dropout_inplace_and_gradient():
    torch.manual_seed(1)
    x = torch.ones(50, 40)
    y = x.clone()
    out = F.dropout(y, 0.5, inplace=True)
    assert out is y and set(np.unique(y.numpy())) <= {0.0, 2.0}
    a = torch.ones(30, 30, requires_grad=True)
    o = F.dropout(a, 0.4)
    o.sum().backward()
    np.testing.assert_allclose(a.grad.numpy(), o.detach().numpy(), rtol=1e-6)


def test_dropout_p_validation():
    for bad in (-0.1, 1.5):
        with pytest.raises(ValueError, match=f"dropout probability has to be between 0 and 1, but got {bad}"):
            nn.Dropout(bad)
        with pytest.raises(ValueError, match="dropout probability has to be between 0 and 1"):
            F.dropout(torch.ones(2), bad)


def test_dropout2d_zeroes_whole_channels():
    torch.manual_seed(2)
    out = nn.Dropout2d(0.5)(torch.ones(4, 8, 3, 3)).numpy()
    per_channel = out.reshape(4, 8, 9)
    assert ((per_channel == 0).all(-1) | (per_channel == 2).all(-1)).all()


# ---- embedding ---------------------------------------------------------------------------

def test_embedding_forward_and_init():
    torch.manual_seed(0)
    e = nn.Embedding(1000, 64, padding_idx=3)
    w = e.weight.detach().numpy()
    assert (w[3] == 0).all()
    assert abs(w.std() - 1) < 0.02 and abs(w.mean()) < 0.02     # N(0, 1)
    idx = torch.tensor([[1, 3], [999, 0]])
    out = e(idx)
    assert tuple(out.shape) == (2, 2, 64)
    np.testing.assert_array_equal(out.detach().numpy(), w[idx.numpy()])
    assert repr(e) == "Embedding(1000, 64, padding_idx=3)"
    assert nn.Embedding(5, 2, padding_idx=-1).padding_idx == 4
    with pytest.raises(AssertionError, match="Padding_idx must be within num_embeddings"):
        nn.Embedding(3, 2, padding_idx=3)
    with pytest.raises(IndexError, match="index out of range in self"):
        e(torch.tensor([1000]))
    with pytest.raises(RuntimeError, match="'indices' to have one of the following scalar types: Long, Int"):
        e(torch.tensor([1.0]))


def test_embedding_padding_row_gets_no_gradient():
    e = nn.Embedding(5, 3, padding_idx=2)
    with torch.no_grad():
        e.weight[2] = 7.0                          # a non-zero padding row is still looked up
    idx = torch.tensor([[2, 1, 2], [4, 1, 0]])
    out = e(idx)
    assert out[0, 0].tolist() == [7.0, 7.0, 7.0]
    (out * torch.arange(1.0, 4.0)).sum().backward()
    g = e.weight.grad.numpy()
    np.testing.assert_array_equal(g[2], 0)
    np.testing.assert_array_equal(g[1], [2, 4, 6])
    np.testing.assert_array_equal(g[0], [1, 2, 3])
    np.testing.assert_array_equal(g[3], 0)


def test_embedding_scale_grad_by_freq_and_max_norm():
    e = nn.Embedding(4, 2, scale_grad_by_freq=True)
    e(torch.tensor([1, 1, 1, 3])).sum().backward()
    np.testing.assert_allclose(e.weight.grad.numpy(), [[0, 0], [1, 1], [0, 0], [1, 1]])
    w = torch.tensor([[3.0, 4.0], [0.3, 0.4], [6.0, 8.0]])
    m = nn.Embedding.from_pretrained(w.clone(), max_norm=1.0)
    out = m(torch.tensor([0, 1]))
    np.testing.assert_allclose(out.numpy(), [[0.6, 0.8], [0.3, 0.4]], rtol=1e-5)
    np.testing.assert_allclose(m.weight.numpy()[0], [0.6, 0.8], rtol=1e-5)   # renormed in place
    np.testing.assert_allclose(m.weight.numpy()[2], [6.0, 8.0])               # not looked up
    assert not m.weight.requires_grad
    assert nn.Embedding.from_pretrained(w, freeze=False).weight.requires_grad


# ---- normalisation -----------------------------------------------------------------------

def np_norm(x, axes, eps):
    m = x.mean(axis=axes, keepdims=True)
    v = x.var(axis=axes, keepdims=True)
    return (x - m) / np.sqrt(v + eps)


def test_layer_norm(rng):
    ln = nn.LayerNorm([3, 4], eps=1e-3).double()
    assert (ln.weight.detach().numpy() == 1).all() and (ln.bias.detach().numpy() == 0).all()
    with torch.no_grad():
        ln.weight.copy_(t64(rng.standard_normal((3, 4))))
        ln.bias.copy_(t64(rng.standard_normal((3, 4))))
    x = rng.standard_normal((2, 5, 3, 4))
    want = np_norm(x, (-2, -1), 1e-3) * ln.weight.detach().numpy() + ln.bias.detach().numpy()
    np.testing.assert_allclose(ln(t64(x)).detach().numpy(), want, rtol=1e-10)
    gradcheck(lambda a, w, b: F.layer_norm(a, (3, 4), w, b, 1e-3), t64(x[:1, :2]).requires_grad_(), ln.weight, ln.bias)
    assert repr(ln) == "LayerNorm((3, 4), eps=0.001, elementwise_affine=True, bias=True)"
    plain = nn.LayerNorm(4, elementwise_affine=False)
    assert plain.weight is None and list(plain.parameters()) == []
    assert nn.LayerNorm(4, bias=False).bias is None
    with pytest.raises(RuntimeError, match=r"Given normalized_shape=\[4\], expected input with shape "
                                           r"\[\*, 4\], but got input of size\[2, 3\]"):
        F.layer_norm(torch.zeros(2, 3), (4,))


@pytest.mark.parametrize("affine", ["both", "weight", "bias", "none"])
@pytest.mark.parametrize("dtype", ["float32", "float64", "bfloat16"])
def test_layer_norm_fused_kernel(rng, affine, dtype):
    """The one-pass kernel (Note [Fused layer norm]) against NumPy: values, the gradients of
    input, weight and bias against the gradients of the same normalisation written op by op,
    non-contiguous inputs, and gradients of the weight the same for any thread count."""
    dt = getattr(torch, dtype)
    x = torch.tensor(rng.standard_normal((6, 3, 8)), dtype=dt).transpose(0, 1)  # strided
    w = torch.tensor(rng.standard_normal((8,)), dtype=dt) if affine in ("both", "weight") else None
    b = torch.tensor(rng.standard_normal((8,)), dtype=dt) if affine in ("both", "bias") else None
    xs = [t.requires_grad_() for t in (x, w, b) if t is not None]
    y = F.layer_norm(x, (8,), w, b, 1e-4)
    assert y.dtype == dt and y.shape == (3, 6, 8)
    xf = x.detach().double().numpy()
    want = np_norm(xf, (-1,), 1e-4)
    if w is not None:
        want = want * w.detach().double().numpy()
    if b is not None:
        want = want + b.detach().double().numpy()
    tol = {"float32": 1e-5, "float64": 1e-12, "bfloat16": 3e-2}[dtype]
    np.testing.assert_allclose(y.detach().double().numpy(), want, rtol=tol, atol=tol)
    g = torch.tensor(rng.standard_normal((3, 6, 8)), dtype=dt)
    fused = torch.autograd.grad(y, xs, g)
    # the same normalisation op by op, in float64
    xd = [t.detach().double().requires_grad_() for t in xs]
    it = iter(xd)
    x64 = next(it)
    w64 = next(it) if w is not None else None
    b64 = next(it) if b is not None else None
    m = x64.mean(-1, keepdim=True)
    ref = (x64 - m) * ((x64 - m).pow(2).mean(-1, keepdim=True) + 1e-4).rsqrt()
    ref = ref * w64 if w64 is not None else ref
    ref = ref + b64 if b64 is not None else ref
    want_g = torch.autograd.grad(ref, xd, g.double())
    for got, exp in zip(fused, want_g):
        assert got.dtype == dt
        np.testing.assert_allclose(got.double().numpy(), exp.numpy(), rtol=tol * 10, atol=tol * 10)
    if w is not None and dtype != "bfloat16":
        big = torch.tensor(rng.standard_normal((300, 8)), dtype=dt, requires_grad=True)
        gw = []
        for threads in (1, 2):
            old = torch.get_num_threads()
            torch.set_num_threads(threads)
            try:
                gw.append(torch.autograd.grad(F.layer_norm(big, (8,), w).sum(), w)[0])
            finally:
                torch.set_num_threads(old)
        assert torch.equal(gw[0], gw[1])


def test_group_norm_and_rms_norm(rng):
    gn = nn.GroupNorm(2, 4).double()
    x = rng.standard_normal((3, 4, 5))
    want = np_norm(x.reshape(3, 2, 10), (2,), 1e-5).reshape(3, 4, 5)
    np.testing.assert_allclose(gn(t64(x)).detach().numpy(), want, rtol=1e-10)
    gradcheck(lambda a, w, b: F.group_norm(a, 2, w, b), t64(x).requires_grad_(), gn.weight, gn.bias)
    assert repr(gn) == "GroupNorm(2, 4, eps=1e-05, affine=True, bias=True)"
    with pytest.raises(ValueError, match=r"num_channels \(4\) must be divisible by num_groups \(3\)"):
        nn.GroupNorm(3, 4)
    rms = nn.RMSNorm(5, eps=1e-6).double()
    want = x / np.sqrt((x ** 2).mean(-1, keepdims=True) + 1e-6)
    np.testing.assert_allclose(rms(t64(x)).detach().numpy(), want, rtol=1e-10)


def np_batch_norm_train(x, eps):
    axes = (0,) + tuple(range(2, x.ndim))
    return np_norm(x, axes, eps), x.mean(axis=axes), x.var(axis=axes, ddof=1)


@pytest.mark.parametrize("shape, cls", [((8, 3), nn.BatchNorm1d), ((4, 3, 5), nn.BatchNorm1d),
                                        ((4, 3, 2, 5), nn.BatchNorm2d)])
def test_batch_norm_training_and_running_stats(rng, shape, cls):
    bn = cls(3, momentum=0.3).double()
    x = rng.standard_normal(shape) * 2 + 1
    out = bn(t64(x))
    y, mean, var = np_batch_norm_train(x, 1e-5)
    np.testing.assert_allclose(out.detach().numpy(), y, rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(bn.running_mean.numpy(), 0.3 * mean, rtol=1e-12)
    np.testing.assert_allclose(bn.running_var.numpy(), 0.7 + 0.3 * var, rtol=1e-12)   # unbiased
    assert bn.num_batches_tracked.dtype == torch.int64 and bn.num_batches_tracked.item() == 1
    bn.eval()
    rm, rv = bn.running_mean.numpy().copy(), bn.running_var.numpy().copy()
    bshape = (1, 3) + (1,) * (len(shape) - 2)
    np.testing.assert_allclose(bn(t64(x)).detach().numpy(),
                               (x - rm.reshape(bshape)) / np.sqrt(rv.reshape(bshape) + 1e-5), rtol=1e-10)
    np.testing.assert_array_equal(bn.running_mean.numpy(), rm)        # eval: no update
    assert bn.num_batches_tracked.item() == 1


def test_batch_norm_cumulative_average_and_no_tracking(rng):
    bn = nn.BatchNorm1d(2, momentum=None).double()
    xs = [rng.standard_normal((6, 2)) for _ in range(3)]
    for x in xs:
        bn(t64(x))
    np.testing.assert_allclose(bn.running_mean.numpy(), np.mean([x.mean(0) for x in xs], 0), rtol=1e-12)
    np.testing.assert_allclose(bn.running_var.numpy(), np.mean([x.var(0, ddof=1) for x in xs], 0), rtol=1e-12)
    assert bn.num_batches_tracked.item() == 3
    free = nn.BatchNorm1d(2, track_running_stats=False, affine=False).double()
    assert free.running_mean is None and list(free.buffers()) == [] and list(free.parameters()) == []
    free.eval()                                                    # still batch statistics
    np.testing.assert_allclose(free(t64(xs[0])).numpy(), np_batch_norm_train(xs[0], 1e-5)[0], rtol=1e-10)
    assert repr(free) == "BatchNorm1d(2, eps=1e-05, momentum=0.1, affine=False, bias=False, track_running_stats=False)"
    assert repr(nn.BatchNorm2d(4)) == ("BatchNorm2d(4, eps=1e-05, momentum=0.1, affine=True, bias=True, "
                                       "track_running_stats=True)")


def test_batch_norm_gradients(rng):
    bn = nn.BatchNorm2d(3).double()
    with torch.no_grad():
        bn.weight.copy_(t64([0.5, 2.0, -1.0]))
        bn.bias.copy_(t64([0.1, 0.2, 0.3]))
    x = t64(rng.standard_normal((3, 3, 2, 2))).requires_grad_()
    gradcheck(lambda a, w, b: F.batch_norm(a, None, None, w, b, True), x, bn.weight, bn.bias)
    bn.eval()
    gradcheck(lambda a, w, b: F.batch_norm(a, bn.running_mean, bn.running_var, w, b, False), x, bn.weight, bn.bias)


def test_batch_norm_errors():
    with pytest.raises(ValueError, match=r"Expected more than 1 value per channel when training, "
                                         r"got input size .*\[1, 5\]"):
        nn.BatchNorm1d(5)(torch.zeros(1, 5))
    with pytest.raises(ValueError, match=r"expected 4D input \(got 2D input\)"):
        nn.BatchNorm2d(5)(torch.zeros(4, 5))
    with pytest.raises(ValueError, match=r"expected 2D or 3D input \(got 4D input\)"):
        nn.BatchNorm1d(5)(torch.zeros(4, 5, 2, 2))
    bn = nn.BatchNorm1d(5).eval()
    assert tuple(bn(torch.zeros(1, 5)).shape) == (1, 5)               # eval: one sample is fine


# ---- padding and attention ---------------------------------------------------------------

@pytest.mark.parametrize("mode, np_mode", [("constant", "constant"), ("reflect", "reflect"),
                                           ("replicate", "edge"), ("circular", "wrap")])
def test_pad_modes(rng, mode, np_mode):
    x = rng.standard_normal((2, 3, 4, 5))
    got = F.pad(t64(x), (2, 1, 3, 0), mode=mode)
    np.testing.assert_array_equal(got.numpy(), np.pad(x, ((0, 0), (0, 0), (3, 0), (2, 1)), mode=np_mode))
    gradcheck(lambda a: F.pad(a, (2, 1, 3, 0), mode=mode), t64(x[:1, :1]).requires_grad_())


def test_pad_constant_value_and_cropping():
    x = torch.arange(12.0).reshape(3, 4)
    got = F.pad(x, (-1, 2, 1, -1), value=9.0)
    want = np.pad(np.arange(12.0).reshape(3, 4)[:2, 1:], ((1, 0), (0, 2)), constant_values=9.0)
    np.testing.assert_array_equal(got.numpy(), want)
    with pytest.raises(RuntimeError, match="Padding length must be divisible by 2"):
        F.pad(x, (1,))
    with pytest.raises(RuntimeError, match="Padding length should be less than or equal to two times the input dimension"):
        F.pad(x, (1, 1, 1, 1, 1, 1))
    with pytest.raises(RuntimeError, match="Padding size should be less than the corresponding input dimension"):
        F.pad(torch.zeros(1, 1, 3), (3, 3), mode="reflect")


def test_scaled_dot_product_attention(rng):
    q, k, v = (rng.standard_normal((2, 4, 3)) for _ in range(3))
    scores = q @ k.transpose(0, 2, 1) / math.sqrt(3)
    causal = np.tril(np.ones((4, 4), bool))
    want = np_softmax(np.where(causal, scores, -np.inf), -1) @ v
    got = F.scaled_dot_product_attention(t64(q), t64(k), t64(v), is_causal=True)
    np.testing.assert_allclose(got.numpy(), want, rtol=1e-10)
    gradcheck(lambda a, b, c: F.scaled_dot_product_attention(a, b, c, is_causal=True),
              *(t64(z).requires_grad_() for z in (q, k, v)))


def test_one_hot():
    assert F.one_hot(torch.tensor([0, 2]), 3).tolist() == [[1, 0, 0], [0, 0, 1]]


# ---- nn.init -----------------------------------------------------------------------------

def test_calculate_gain():
    assert init.calculate_gain("linear") == 1 and init.calculate_gain("conv2d") == 1
    assert init.calculate_gain("sigmoid") == 1
    assert init.calculate_gain("tanh") == pytest.approx(5 / 3)
    assert init.calculate_gain("relu") == pytest.approx(math.sqrt(2))
    assert init.calculate_gain("leaky_relu") == pytest.approx(math.sqrt(2 / (1 + 0.01 ** 2)))
    assert init.calculate_gain("leaky_relu", 0.2) == pytest.approx(math.sqrt(2 / 1.04))
    assert init.calculate_gain("selu") == 0.75
    with pytest.raises(ValueError, match="Unsupported nonlinearity foo"):
        init.calculate_gain("foo")
    with pytest.raises(ValueError, match="negative_slope x not a valid number"):
        init.calculate_gain("leaky_relu", "x")


def test_fan_computation_and_errors():
    assert init._calculate_fan_in_and_fan_out(torch.empty(5, 3)) == (3, 5)
    assert init._calculate_fan_in_and_fan_out(torch.empty(8, 4, 3, 3)) == (36, 72)
    with pytest.raises(ValueError, match="Fan in and fan out can not be computed for tensor with fewer than 2 dimensions"):
        init.xavier_uniform_(torch.empty(3))
    with pytest.raises(ValueError, match=r"Mode fan not supported, please use one of \['fan_in', 'fan_out'\]"):
        init.kaiming_uniform_(torch.empty(3, 3), mode="fan")


def _stats(t):
    a = t.numpy()
    return a.min(), a.max(), a.mean(), a.std()


def test_random_inits_have_torchs_bounds_and_spreads():
    torch.manual_seed(0)
    t = torch.empty(256, 128, 3)                        # fan_in 384, fan_out 768
    lo, hi, mean, std = _stats(init.kaiming_uniform_(t, a=0, mode="fan_in", nonlinearity="relu"))
    bound = math.sqrt(2) * math.sqrt(3 / 384)
    assert -bound <= lo and hi <= bound and abs(std - bound / math.sqrt(3)) < 0.02 * bound
    _, _, mean, std = _stats(init.kaiming_normal_(t, mode="fan_out"))
    assert abs(std - math.sqrt(2 / (1 + 0)) / math.sqrt(768)) < 0.01 * std and abs(mean) < 0.01 * std
    lo, hi, _, std = _stats(init.xavier_uniform_(t, gain=2.0))
    a = 2.0 * math.sqrt(6 / (384 + 768))
    assert -a <= lo and hi <= a and abs(std - a / math.sqrt(3)) < 0.02 * a
    _, _, _, std = _stats(init.xavier_normal_(t))
    assert abs(std - math.sqrt(2 / (384 + 768))) < 0.02 * std
    lo, hi, mean, _ = _stats(init.uniform_(t, -0.5, 2.0))
    assert -0.5 <= lo and hi <= 2.0 and abs(mean - 0.75) < 0.01
    _, _, mean, std = _stats(init.normal_(t, 3.0, 0.5))
    assert abs(mean - 3) < 0.01 and abs(std - 0.5) < 0.01
    lo, hi, mean, std = _stats(init.trunc_normal_(t, 1.0, 2.0, a=-1.0, b=2.0))
    assert -1.0 <= lo and hi <= 2.0


def test_inits_take_a_generator_and_run_under_no_grad():
    w = nn.Parameter(torch.empty(4, 5))
    g1, g2 = torch.Generator().manual_seed(7), torch.Generator().manual_seed(7)
    a = init.kaiming_uniform_(w, generator=g1).clone()
    b = init.kaiming_uniform_(w, generator=g2).clone()
    assert torch.equal(a, b) and w.is_leaf and w.grad_fn is None
    init.normal_(w, generator=g1)
    init.trunc_normal_(w, generator=g1)
    init.xavier_normal_(w, generator=g1)


def test_deterministic_inits():
    t = torch.empty(3, 4)
    assert (init.constant_(t, 0.5).numpy() == 0.5).all()
    assert (init.ones_(t).numpy() == 1).all() and (init.zeros_(t).numpy() == 0).all()
    np.testing.assert_array_equal(init.eye_(t).numpy(), np.eye(3, 4))
    with pytest.raises(ValueError, match="Only tensors with 2 dimensions are supported"):
        init.eye_(torch.empty(2, 2, 2))
    d = init.dirac_(torch.empty(4, 2, 3, 3)).numpy()
    assert d.sum() == 2 and d[0, 0, 1, 1] == 1 and d[1, 1, 1, 1] == 1
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(UserWarning, match="Initializing zero-element tensors is a no-op"):
            init.kaiming_uniform_(torch.empty(0, 3))


def test_orthogonal():
    torch.manual_seed(3)
    for shape in [(4, 6), (6, 4), (3, 2, 2)]:
        q = init.orthogonal_(torch.empty(*shape), gain=2.0).numpy().reshape(shape[0], -1)
        if q.shape[0] <= q.shape[1]:
            np.testing.assert_allclose(q @ q.T, 4 * np.eye(q.shape[0]), atol=1e-5)
        else:
            np.testing.assert_allclose(q.T @ q, 4 * np.eye(q.shape[1]), atol=1e-5)


def test_conv_module_init_and_repr():
    # construction needs no convolution kernel; forward lives in test_nn_conv_modules.py
    torch.manual_seed(0)
    c = nn.Conv2d(3, 16, 5)
    assert tuple(c.weight.shape) == (16, 3, 5, 5) and tuple(c.bias.shape) == (16,)
    bound = 1 / math.sqrt(3 * 25)
    assert np.abs(c.weight.detach().numpy()).max() <= bound and np.abs(c.bias.detach().numpy()).max() <= bound
    assert repr(c) == "Conv2d(3, 16, kernel_size=(5, 5), stride=(1, 1))"
    g = nn.Conv2d(4, 8, (3, 1), stride=2, padding=1, dilation=2, groups=2, bias=False)
    assert tuple(g.weight.shape) == (8, 2, 3, 1)
    assert repr(g) == ("Conv2d(4, 8, kernel_size=(3, 1), stride=(2, 2), padding=(1, 1), "
                       "dilation=(2, 2), groups=2, bias=False)")
    s = nn.Conv2d(1, 1, 3, padding="same", padding_mode="reflect")
    assert repr(s) == "Conv2d(1, 1, kernel_size=(3, 3), stride=(1, 1), padding=same, padding_mode=reflect)"
    assert repr(nn.Conv1d(3, 4, 5, stride=2)) == "Conv1d(3, 4, kernel_size=(5,), stride=(2,))"
    for kwargs, match in [({"groups": 2}, "in_channels must be divisible by groups"),
                          ({"groups": 0}, "groups must be a positive integer"),
                          ({"padding": "full"}, "Invalid padding string 'full'"),
                          ({"padding": "same", "stride": 2}, "padding='same' is not supported for strided convolutions"),
                          ({"padding_mode": "mirror"}, "padding_mode must be one of")]:
        with pytest.raises(ValueError, match=match):
            nn.Conv2d(3, 4, 3, **kwargs)
    assert repr(nn.MaxPool2d(2)) == "MaxPool2d(kernel_size=2, stride=2, padding=0, dilation=1, ceil_mode=False)"
    assert repr(nn.AvgPool2d(3, 1)) == "AvgPool2d(kernel_size=3, stride=1, padding=0)"
    assert repr(nn.AdaptiveAvgPool2d((1, 1))) == "AdaptiveAvgPool2d(output_size=(1, 1))"


@pytest.mark.parametrize("shape", [(4, 3), (2, 5, 3), (3,)])
@pytest.mark.parametrize("bias", [True, False])
def test_linear_gradients(shape, bias):
    import minitorch.nn.functional as F
    x = torch.randn(*shape, dtype=torch.float64, requires_grad=True)
    w = torch.randn(2, 3, dtype=torch.float64, requires_grad=True)
    b = torch.randn(2, dtype=torch.float64, requires_grad=True) if bias else None
    args = (x, w, b) if bias else (x, w)
    assert torch.autograd.gradcheck(lambda *a: F.linear(*a), args)
