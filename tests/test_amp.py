"""Automatic mixed precision (minitorch.amp, torch.autocast, torch.cpu/cuda.amp): the dtype each
class of op runs in under CPU autocast (torch's lower-precision list, its float32 list, the
others), casts recorded for autograd, nesting, enabled=False inside, the decorator, the cast
cache, thread-locality, the state functions, custom_fwd/custom_bwd; GradScaler's full logic
(scale, unscale_, inf/NaN skip, growth and backoff, state_dict, pickling, errors) against the
trajectory PyTorch 2.15 gives for the same steps, and its no-op and CUDA-less forms."""
import pickle
import threading
import warnings

import numpy as np
import pytest

import minitorch as torch
import minitorch.nn as nn
import minitorch.nn.functional as F

bf16, f32, f64 = torch.bfloat16, torch.float32, torch.float64


@pytest.fixture
def ab():
    torch.manual_seed(0)
    return torch.randn(4, 4, requires_grad=True), torch.randn(4, 4)


# ---- which ops are cast -------------------------------------------------------------------

LOWER = {
    "mm": lambda a, b: torch.mm(a, b),
    "mm_method": lambda a, b: a.mm(b),
    "matmul": lambda a, b: torch.matmul(a, b),
    "matmul_operator": lambda a, b: a @ b,
    "bmm": lambda a, b: torch.bmm(a[None], b[None]),
    "baddbmm": lambda a, b: torch.baddbmm(a[None], a[None], b[None]),
    "addmm": lambda a, b: torch.addmm(a, a, b),
    "addbmm": lambda a, b: torch.addbmm(a, a[None], b[None]),
    "einsum": lambda a, b: torch.einsum("ij,jk->ik", a, b),
    "linear": lambda a, b: F.linear(a, b, b[0]),
    "linear_module": lambda a, b: nn.Linear(4, 3)(a),
    "conv1d": lambda a, b: F.conv1d(a[None], b[:, :, None]),
    "conv2d": lambda a, b: F.conv2d(a[None, None], b[None, None, :2, :2]),
    "prelu": lambda a, b: F.prelu(a, torch.tensor([0.25])),
    "sdpa": lambda a, b: F.scaled_dot_product_attention(a[None], b[None], b[None]),
}

FP32 = {
    "prod": lambda x, t: x.prod(),
    "prod_dim": lambda x, t: torch.prod(x, 1),
    "trace": lambda x, t: torch.trace(x),
    "quantile": lambda x, t: x.quantile(0.5),
    "mse_loss": lambda x, t: F.mse_loss(x, t),
    "l1_loss": lambda x, t: F.l1_loss(x, t),
    "smooth_l1_loss": lambda x, t: F.smooth_l1_loss(x, t),
    "huber_loss": lambda x, t: F.huber_loss(x, t),
    "cross_entropy": lambda x, t: F.cross_entropy(x, torch.tensor([0, 1, 2, 3])),
    "nll_loss": lambda x, t: F.nll_loss(x, torch.tensor([0, 1, 2, 3])),
    "bce_with_logits": lambda x, t: F.binary_cross_entropy_with_logits(x, t.sigmoid()),
    "binary_cross_entropy": lambda x, t: F.binary_cross_entropy(x.sigmoid(), t.sigmoid()),
    "kl_div": lambda x, t: F.kl_div(x, t, reduction="batchmean"),
    "soft_margin_loss": lambda x, t: F.soft_margin_loss(x, t),
    "reflect_pad": lambda x, t: F.pad(x[None], (1, 1), mode="reflect"),
    "replicate_pad": lambda x, t: F.pad(x[None], (1, 1), mode="replicate"),
}

SAME = {
    "add": lambda x: x + x,
    "softmax": lambda x: F.softmax(x, -1),
    "layer_norm": lambda x: F.layer_norm(x, (4,)),
    "gelu": lambda x: F.gelu(x),
    "sum": lambda x: x.sum(),
    "relu": lambda x: torch.relu(x),
    "constant_pad": lambda x: F.pad(x, (1, 1)),
}


@pytest.mark.parametrize("name", list(LOWER))
def test_lower_precision_ops_run_in_bfloat16(name, ab):
    a, b = ab
    with torch.autocast("cpu"):
        r = LOWER[name](a, b)
    assert r.dtype == bf16
    with torch.autocast("cpu", dtype=torch.float16):
        assert LOWER[name](a, b).dtype == torch.float16
    assert LOWER[name](a, b).dtype == f32          # off again outside


@pytest.mark.parametrize("name", list(FP32))
def test_float32_ops_run_in_float32(name):
    torch.manual_seed(0)
    x, t = torch.randn(4, 4).bfloat16(), torch.randn(4, 4).bfloat16()
    with torch.autocast("cpu"):
        assert FP32[name](x, t).dtype == f32


@pytest.mark.parametrize("name", list(SAME))
def test_other_ops_keep_their_input_dtype(name):
    x = torch.randn(4, 4)
    with torch.autocast("cpu"):
        assert SAME[name](x).dtype == f32
        assert SAME[name](x.bfloat16()).dtype == bf16


def test_float64_and_integer_operands_are_not_cast():
    a = torch.randn(3, 3, dtype=f64)
    i = torch.arange(9).reshape(3, 3)
    with torch.autocast("cpu"):
        assert (a @ a).dtype == f64 and (i @ i).dtype == torch.int64
        assert (a.float() @ a.float()).dtype == bf16


def test_out_forms_are_not_cast(ab):
    a, b = ab
    out = torch.empty(4, 4)
    with torch.autocast("cpu"):
        torch.mm(a.detach(), b, out=out)
    assert out.dtype == f32 and torch.allclose(out, a.detach() @ b)


def test_values_are_the_bfloat16_products(ab):
    a, b = ab
    with torch.autocast("cpu"):
        r = a @ b
    assert torch.equal(r, a.detach().bfloat16() @ b.bfloat16())


def test_gradients_flow_back_to_float32_leaves():
    torch.manual_seed(0)
    w = torch.randn(3, 4, requires_grad=True)
    x = torch.randn(5, 4)
    with torch.autocast("cpu"):
        loss = F.cross_entropy(F.linear(x, w), torch.tensor([0, 1, 2, 0, 1]))
    assert loss.dtype == f32
    loss.backward()
    assert w.grad.dtype == f32 and w.grad.shape == (3, 4)
    # the same gradient as computing with bfloat16 copies explicitly
    w2 = w.detach().clone().requires_grad_()
    ref = F.cross_entropy(F.linear(x.bfloat16(), w2.bfloat16()).float(), torch.tensor([0, 1, 2, 0, 1]))
    ref.backward()
    assert torch.allclose(w.grad, w2.grad, atol=1e-2)


def test_nesting_disabled_inside_and_state_functions(ab):
    # a leaf that requires grad would be cached as float16 by the inner region and come back
    # from the cache in the bfloat16 one: torch raises there too (mixed dtypes)
    a, b = ab[0].detach(), ab[1]
    assert not torch.is_autocast_enabled("cpu") and torch.get_autocast_dtype("cpu") == bf16
    assert torch.get_autocast_dtype("cuda") == torch.float16
    with torch.autocast("cpu"):
        assert torch.is_autocast_enabled("cpu") and not torch.is_autocast_enabled()
        with torch.autocast("cpu", enabled=False):
            assert not torch.is_autocast_enabled("cpu")
            assert (a @ b).dtype == f32
            with torch.autocast("cpu", dtype=torch.float16):
                assert (a @ b).dtype == torch.float16
                assert torch.get_autocast_dtype("cpu") == torch.float16
            assert (a @ b).dtype == f32
        assert (a @ b).dtype == bf16 and torch.get_autocast_dtype("cpu") == bf16
    assert not torch.is_autocast_enabled("cpu")
    torch.set_autocast_enabled("cpu", True)
    try:
        assert (a @ b).dtype == bf16
    finally:
        torch.set_autocast_enabled("cpu", False)
    with pytest.warns(DeprecationWarning, match="get_autocast_gpu_dtype\\(\\) is deprecated"):
        assert torch.get_autocast_gpu_dtype() == torch.float16
    with pytest.warns(DeprecationWarning, match="is_autocast_cpu_enabled\\(\\) is deprecated"):
        assert torch.is_autocast_cpu_enabled() is False
    assert torch.is_autocast_cache_enabled()


def test_autocast_as_decorator(ab):
    a, b = ab

    @torch.autocast("cpu")
    def f(x, y):
        return x @ y

    @torch.amp.autocast(device_type="cpu", dtype=torch.float16)
    def g(x, y):
        return x @ y
    assert f(a, b).dtype == bf16 and g(a, b).dtype == torch.float16
    assert f.__name__ == "f" and (a @ b).dtype == f32


def test_autocast_is_per_thread(ab):
    a, b = ab
    seen = []
    with torch.autocast("cpu"):
        t = threading.Thread(target=lambda: seen.append(((a @ b).dtype, torch.is_autocast_enabled("cpu"))))
        t.start()
        t.join()
        assert (a @ b).dtype == bf16
    assert seen == [(f32, False)]


def test_cast_cache_within_a_region():
    w = torch.randn(4, 4, requires_grad=True)
    x = torch.randn(4, 4)

    def cast_node(y):
        return y.grad_fn.next_functions[1][0]
    with torch.autocast("cpu"):
        n1, n2 = cast_node(x @ w), cast_node(x @ w)
    assert n1 is n2                              # one cast of the weight, reused
    with torch.autocast("cpu", cache_enabled=False):
        assert not torch.is_autocast_cache_enabled()
        assert cast_node(x @ w) is not cast_node(x @ w)
    assert torch.is_autocast_cache_enabled()
    with torch.autocast("cpu"):
        n3 = cast_node(x @ w)
    assert n3 is not n1                          # the cache is dropped with the outermost region


def test_several_backward_passes_in_one_region_reuse_no_spent_cast():
    torch.manual_seed(0)
    m = nn.Linear(4, 4)
    x = torch.randn(2, 4)
    with torch.autocast("cpu"):
        m(x).float().sum().backward()
    once = m.weight.grad.clone()
    m.weight.grad = None
    with torch.autocast("cpu"):
        for _ in range(3):                   # gradient accumulation inside the region
            m(x).float().sum().backward()
    assert torch.allclose(m.weight.grad, 3 * once)


def test_autocast_arguments():
    with pytest.raises(ValueError, match="Expected `device_type` of type `str`"):
        torch.autocast(torch.device("cpu"))
    with pytest.raises(RuntimeError, match="Expected one of cpu, cuda"):
        torch.autocast("foo")
    with pytest.warns(UserWarning, match="In CPU autocast, but the target dtype is not supported. "
                                         "Disabling autocast."):
        ac = torch.autocast("cpu", dtype=f32)
    assert ac._enabled is False and ac.fast_dtype == f32
    with pytest.warns(UserWarning, match="CUDA is not available or torch_xla is imported. "
                                         "Disabling autocast."):
        ac = torch.autocast("cuda")
    with ac:
        assert not torch.is_autocast_enabled("cuda")
    assert torch.amp.is_autocast_available("cpu") and torch.amp.is_autocast_available("cuda")
    assert torch.autocast is torch.amp.autocast


def test_deprecated_cpu_and_cuda_forms(ab):
    a, b = ab
    with pytest.warns(FutureWarning, match="`torch.cpu.amp.autocast\\(args...\\)` is deprecated"):
        ac = torch.cpu.amp.autocast()
    with ac:
        assert (a @ b).dtype == bf16
    with pytest.warns(FutureWarning, match="`torch.cuda.amp.autocast\\(args...\\)` is deprecated"):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UserWarning)
            ac = torch.cuda.amp.autocast()
    with ac:
        assert (a @ b).dtype == f32
    with pytest.warns(FutureWarning, match="torch.cpu.amp.GradScaler"):
        s = torch.cpu.amp.GradScaler()
    assert s.is_enabled()
    with pytest.warns(FutureWarning, match="torch.cuda.amp.GradScaler"):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UserWarning)
            s = torch.cuda.amp.GradScaler()
    assert not s.is_enabled()


def test_custom_fwd_and_custom_bwd():
    class Mul(torch.autograd.Function):
        @staticmethod
        @torch.amp.custom_fwd(device_type="cpu", cast_inputs=f32)
        def forward(ctx, a, b):
            ctx.save_for_backward(a, b)
            ctx.inner = torch.is_autocast_enabled("cpu")
            return a @ b

        @staticmethod
        @torch.amp.custom_bwd(device_type="cpu")
        def backward(ctx, g):
            a, b = ctx.saved_tensors
            return g @ b.t(), a.t() @ g
    a = torch.randn(3, 3, requires_grad=True)
    b = torch.randn(3, 3).bfloat16()
    with torch.autocast("cpu"):
        y = Mul.apply(a, b)
    assert y.dtype == f32                       # inputs cast to float32, autocast off inside
    y.sum().backward()
    assert a.grad.dtype == f32
    with pytest.raises(ValueError, match="Expected `device_type` of type `str`"):
        torch.amp.custom_fwd(device_type=None)


def test_transformer_training_step_under_autocast():
    torch.manual_seed(0)
    layer = nn.TransformerEncoderLayer(8, 2, 16, dropout=0.0, batch_first=True)
    x = torch.randn(2, 5, 8)
    with torch.autocast("cpu"):
        y = layer(x)
        loss = F.mse_loss(y, torch.zeros(2, 5, 8))
    assert loss.dtype == f32
    loss.backward()
    assert all(p.grad is not None and p.grad.dtype == f32 for p in layer.parameters())


# ---- GradScaler ---------------------------------------------------------------------------

# (scale, growth tracker, parameters) after each step of PyTorch 2.15's run of scaler_run()
TORCH_TRAJECTORY = [
    (8.0, 1, [0.95, -2.1, 2.85]), (16.0, 0, [0.9, -2.2, 2.7]), (4.0, 0, [0.9, -2.2, 2.7]),
    (4.0, 1, [0.85, -2.3, 2.55]), (8.0, 0, [0.8, -2.4, 2.4]), (2.0, 0, [0.8, -2.4, 2.4]),
    (2.0, 1, [0.75, -2.5, 2.25]),
]


def scaler_run(s):
    """SGD on (p * x).sum() with an inf in x at steps 2 and 5; unscale_ called explicitly at
    step 3.  Returns the trajectory and the gradient seen after unscale_."""
    p = nn.Parameter(torch.tensor([1.0, -2.0, 3.0]))
    opt = torch.optim.SGD([p], lr=0.1)
    traj, g = [], None
    for step in range(7):
        opt.zero_grad()
        x = torch.tensor([0.5, 1.0, float("inf") if step in (2, 5) else 1.5])
        s.scale((p * x).sum()).backward()
        if step == 3:
            s.unscale_(opt)
            g = p.grad.clone()
        s.step(opt)
        s.update()
        traj.append((s.get_scale(), s._get_growth_tracker(), [round(float(v), 6) for v in p.detach()]))
    return traj, g, p, opt


def test_grad_scaler_matches_torch():
    s = torch.amp.GradScaler("cpu", init_scale=8.0, growth_factor=2.0, backoff_factor=0.25,
                             growth_interval=2)
    traj, g, _, _ = scaler_run(s)
    assert traj == TORCH_TRAJECTORY
    assert g.tolist() == [0.5, 1.0, 1.5]
    assert s.state_dict() == {"scale": 2.0, "growth_factor": 2.0, "backoff_factor": 0.25,
                              "growth_interval": 2, "_growth_tracker": 1}
    s.update(3.0)
    assert s.get_scale() == 3.0
    s.update(torch.tensor(5.0))
    assert s.get_scale() == 5.0


def test_grad_scaler_nan_skips_and_scale_growth_stays_finite():
    s = torch.amp.GradScaler("cpu", init_scale=2.0 ** 127, growth_interval=1)
    p = nn.Parameter(torch.tensor([1.0]))
    opt = torch.optim.SGD([p], lr=1.0)
    s.scale(p.sum() * 0).backward()
    s.step(opt)
    s.update()
    assert s.get_scale() == 2.0 ** 127              # doubling would overflow: kept
    opt.zero_grad()
    (s.scale(p.sum()) * float("nan")).backward()
    s.step(opt)
    s.update()
    assert p.item() == 1.0 and s.get_scale() == 2.0 ** 126


def test_grad_scaler_disabled_is_a_no_op():
    s = torch.amp.GradScaler("cpu", enabled=False)
    p = nn.Parameter(torch.tensor([1.0, 2.0]))
    opt = torch.optim.SGD([p], lr=0.5)
    loss = p.sum()
    assert s.scale(loss) is loss
    loss.backward()
    assert s.unscale_(opt) is None and s.update() is None
    s.step(opt)
    assert p.tolist() == [0.5, 1.5]
    assert s.get_scale() == 1.0 and s.state_dict() == {} and not s.is_enabled()
    assert s._get_growth_tracker() == 0
    s.load_state_dict({})                            # ignored when disabled
    with pytest.warns(UserWarning, match="torch.cuda.amp.GradScaler is enabled, but CUDA is not "
                                         "available.  Disabling."):
        assert not torch.amp.GradScaler("cuda").is_enabled()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert not torch.amp.GradScaler(enabled=False).is_enabled()


def test_grad_scaler_scale_iterables():
    s = torch.amp.GradScaler("cpu", init_scale=4.0)
    a, b = torch.tensor(1.0), torch.tensor([2.0])
    out = s.scale([a, (b, a)])
    assert isinstance(out, list) and isinstance(out[1], tuple)
    assert out[0].item() == 4.0 and out[1][0].tolist() == [8.0]
    assert [t.item() for t in s.scale(iter([a]))] == [4.0]
    with pytest.raises(ValueError, match="outputs must be a Tensor or an iterable of Tensors"):
        s.scale([1.0])


def test_grad_scaler_errors():
    p = nn.Parameter(torch.tensor([1.0]))
    opt = torch.optim.SGD([p], lr=1.0)
    with pytest.raises(AssertionError, match="The growth factor must be > 1.0."):
        torch.amp.GradScaler("cpu", growth_factor=1.0)
    with pytest.raises(AssertionError, match="The backoff factor must be < 1.0."):
        torch.amp.GradScaler("cpu", backoff_factor=1.0)
    s = torch.amp.GradScaler("cpu")
    with pytest.raises(AssertionError, match="Attempted step but _scale is None.  This may indicate "
                                             "your script did not use scaler.scale"):
        s.step(opt)
    s.scale(p.sum()).backward()
    with pytest.raises(RuntimeError, match="Closure use is not currently supported"):
        s.step(opt, closure=lambda: 0)
    s.unscale_(opt)
    with pytest.raises(RuntimeError, match="unscale_\\(\\) has already been called on this optimizer "
                                           "since the last update\\(\\)."):
        s.unscale_(opt)
    s.step(opt)
    with pytest.raises(RuntimeError, match="unscale_\\(\\) is being called after step\\(\\)."):
        s.unscale_(opt)
    with pytest.raises(RuntimeError, match="step\\(\\) has already been called since the last "
                                           "update\\(\\)."):
        s.step(opt)
    with pytest.raises(AssertionError, match="A GradScaler instance may only be pickled at the "
                                             "beginning of an iteration"):
        pickle.dumps(s)
    s.update()
    with pytest.raises(AssertionError, match="No inf checks were recorded prior to update."):
        s.update()
    with pytest.raises(AssertionError, match="new_scale should be a float or a 1-element"):
        s.update(torch.tensor([1.0, 2.0]))
    q = nn.Parameter(torch.tensor([1.0]))
    opt2 = torch.optim.SGD([q], lr=1.0)
    with pytest.raises(AssertionError, match="No inf checks were recorded for this optimizer."):
        s.step(opt2)
    h = nn.Parameter(torch.tensor([1.0], dtype=torch.float16))
    h.grad = torch.tensor([1.0], dtype=torch.float16)
    with pytest.raises(ValueError, match="Attempting to unscale FP16 gradients."):
        s.unscale_(torch.optim.SGD([h], lr=1.0))


def test_grad_scaler_state_dict_and_pickle():
    s = torch.amp.GradScaler("cpu", init_scale=8.0, growth_factor=2.0, backoff_factor=0.25,
                             growth_interval=2)
    scaler_run(s)
    t = torch.amp.GradScaler("cpu")
    t.load_state_dict(s.state_dict())
    assert t.state_dict() == s.state_dict()
    u = pickle.loads(pickle.dumps(s))
    assert u.get_scale() == 2.0 and u._get_growth_tracker() == 1 and u.get_growth_interval() == 2
    with pytest.raises(RuntimeError, match="The source state dict is empty"):
        torch.amp.GradScaler("cpu").load_state_dict({})
    v = torch.amp.GradScaler("cpu")
    v.set_growth_factor(3.0)
    v.set_backoff_factor(0.1)
    v.set_growth_interval(7)
    assert (v.get_growth_factor(), v.get_backoff_factor(), v.get_growth_interval()) == (3.0, 0.1, 7)


def test_amp_ops():
    grads = [torch.tensor([2.0, 4.0]), torch.tensor([float("inf")])]
    found = torch.tensor(0.0)
    torch._amp_foreach_non_finite_check_and_unscale_(grads, found, torch.tensor(0.5))
    assert found.item() == 1.0 and grads[0].tolist() == [1.0, 2.0]
    scale, tracker = torch.tensor(4.0), torch.tensor(0, dtype=torch.int32)
    torch._amp_update_scale_(scale, tracker, torch.tensor(0.0), 2.0, 0.5, 1)
    assert scale.item() == 8.0 and tracker.item() == 0
    torch._amp_update_scale_(scale, tracker, torch.tensor(1.0), 2.0, 0.5, 1)
    assert scale.item() == 4.0


def test_full_mixed_precision_loop_learns():
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(4, 16), nn.ReLU(), nn.Linear(16, 3))
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    scaler = torch.amp.GradScaler("cpu")
    x = torch.randn(32, 4)
    y = (x[:, 0] > 0).long() + (x[:, 1] > 0).long()
    losses = []
    for _ in range(30):
        opt.zero_grad()
        with torch.autocast("cpu", dtype=torch.bfloat16):
            loss = F.cross_entropy(model(x), y)
        scaler.scale(loss).backward()
        scaler.step(opt)
        scaler.update()
        losses.append(loss.item())
    assert losses[-1] < 0.8 * losses[0]
    assert np.isfinite(losses).all()
