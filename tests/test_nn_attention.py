"""F.scaled_dot_product_attention, nn.MultiheadAttention and F.multi_head_attention_forward:
outputs and gradients against the values PyTorch 2.15 computes in float64 for the same inputs
and parameters (REF, at the end of this file) for every argument listed in the cases, the
fused kernel against the op-by-op form, gradcheck / gradgradcheck, torch's parameter names
and initialisation, state dicts, the kernel switches (sdpa_kernel, sdp_kernel), and torch's
errors."""
import math

import numpy as np
import pytest

import minitorch as torch
import minitorch.nn as nn
import minitorch.nn.functional as F
from minitorch.autograd import gradcheck, gradgradcheck
from minitorch.nn.attention import SDPBackend, sdpa_kernel


# ---- cases (this block is also run against PyTorch to make REF) ----------------------------

def values(shape, freq, phase, scale=1.0):
    n = int(np.prod(shape)) if len(shape) else 1
    return (scale * np.sin(freq * np.arange(n) + phase)).reshape(shape)


def bool_mask(shape, empty_row=None):
    m = values(shape, 1.3, 0.5) > -0.3
    if empty_row is not None:
        m[..., empty_row, :] = False
    return m


def float_mask(shape, inf_row=None):
    m = values(shape, 0.9, 0.4, 0.8)
    if inf_row is not None:
        m[..., inf_row, :] = -np.inf
    return m


# name: (query, key, value shapes, mask (None, ("bool" | "float", shape, row)), kwargs)
SDPA_CASES = {
    "plain": ((1, 2, 3, 4), (1, 2, 5, 4), (1, 2, 5, 3), None, {}),
    "causal": ((1, 2, 3, 4), (1, 2, 5, 4), (1, 2, 5, 3), None, {"is_causal": True}),
    "causal_L_gt_S": ((2, 1, 5, 3), (2, 1, 3, 3), (2, 1, 3, 2), None, {"is_causal": True}),
    "bool_mask_empty_row": ((1, 2, 3, 4), (1, 2, 5, 4), (1, 2, 5, 3), ("bool", (3, 5), 1), {}),
    "float_mask_inf_row": ((1, 2, 3, 4), (1, 2, 5, 4), (1, 2, 5, 3), ("float", (2, 3, 5), 2), {}),
    "bool_mask_4d": ((2, 2, 3, 4), (2, 2, 5, 4), (2, 2, 5, 3), ("bool", (2, 1, 3, 5), None), {}),
    "scale": ((1, 2, 3, 4), (1, 2, 5, 4), (1, 2, 5, 3), None, {"scale": 0.3}),
    "broadcast_batch": ((2, 3, 3, 4), (1, 3, 5, 4), (3, 5, 3), None, {}),
    "gqa": ((1, 4, 3, 4), (1, 2, 5, 4), (1, 2, 5, 3), None, {"enable_gqa": True}),
    "gqa_kv_heads_differ": ((1, 6, 2, 4), (1, 3, 5, 4), (1, 2, 5, 3), None, {"enable_gqa": True}),
    "gqa_mask_per_head": ((1, 4, 3, 4), (1, 2, 5, 4), (1, 2, 5, 3), ("float", (1, 4, 3, 5), None),
                          {"enable_gqa": True}),
    "gqa_causal": ((2, 4, 3, 4), (2, 1, 3, 4), (2, 1, 3, 3), None,
                   {"enable_gqa": True, "is_causal": True}),
    "two_dims": ((3, 4), (5, 4), (5, 3), ("bool", (3, 5), None), {}),
}

# several blocks of query rows in the fused kernel: checked against the op-by-op form
LONG_CASES = {
    "long_causal": ((1, 2, 130, 3), (1, 2, 130, 3), (1, 2, 130, 2), None, {"is_causal": True}),
    "long_causal_L_gt_S": ((1, 1, 150, 3), (1, 1, 70, 3), (1, 1, 70, 2), None, {"is_causal": True}),
    "long_masked": ((1, 1, 66, 3), (1, 1, 40, 3), (1, 1, 40, 2), ("float", (66, 40), 65), {}),
    "long_bool_mask": ((2, 1, 70, 3), (2, 1, 90, 3), (2, 1, 90, 4), ("bool", (2, 1, 70, 90), 3), {}),
}


def sdpa_inputs(torch, name, dtype):
    qs, ks, vs, mask, kwargs = SDPA_CASES[name] if name in SDPA_CASES else LONG_CASES[name]
    q = torch.tensor(values(qs, 0.7, 0.1), dtype=dtype, requires_grad=True)
    k = torch.tensor(values(ks, 0.45, 0.9), dtype=dtype, requires_grad=True)
    v = torch.tensor(values(vs, 0.31, 1.7), dtype=dtype, requires_grad=True)
    m = None
    if mask is not None:
        kind, shape, row = mask
        m = torch.tensor(bool_mask(shape, row)) if kind == "bool" else \
            torch.tensor(float_mask(shape, row), dtype=dtype)
    return q, k, v, m, kwargs


def run_sdpa(torch, name, dtype):
    """[output, grad q, grad k, grad v] (flat lists) of sum(sdpa(...) * weights)."""
    q, k, v, m, kwargs = sdpa_inputs(torch, name, dtype)
    y = torch.nn.functional.scaled_dot_product_attention(q, k, v, attn_mask=m, **kwargs)
    w = torch.tensor(values(tuple(y.shape), 0.93, 0.2), dtype=dtype)
    (y * w).sum().backward()
    return [t.detach().reshape(-1).tolist() for t in (y, q.grad, k.grad, v.grad)]


# name: (constructor kwargs, L, S, batch (None: unbatched), self-attention, forward kwargs)
MHA_CASES = {
    "basic": ({"embed_dim": 4, "num_heads": 2}, 3, 4, 2, False, {}),
    "no_weights": ({"embed_dim": 4, "num_heads": 2}, 3, 4, 2, False, {"need_weights": False}),
    "per_head_weights": ({"embed_dim": 4, "num_heads": 2}, 3, 4, 2, False,
                         {"average_attn_weights": False}),
    "self_batch_first": ({"embed_dim": 4, "num_heads": 4, "batch_first": True}, 4, 4, 2, True,
                         {"need_weights": False}),
    "kdim_vdim": ({"embed_dim": 4, "num_heads": 2, "kdim": 3, "vdim": 5}, 3, 4, 2, False, {}),
    "bias_kv_zero_attn": ({"embed_dim": 4, "num_heads": 2, "add_bias_kv": True,
                           "add_zero_attn": True}, 3, 4, 2, False, {"kpm": "bool"}),
    "bias_kv_zero_attn_sdpa": ({"embed_dim": 4, "num_heads": 2, "add_bias_kv": True,
                                "add_zero_attn": True}, 3, 4, 2, False,
                               {"need_weights": False, "attn": "float2d"}),
    "no_bias": ({"embed_dim": 4, "num_heads": 2, "bias": False}, 3, 4, 2, False, {}),
    "kpm_bool_sdpa": ({"embed_dim": 4, "num_heads": 2}, 3, 4, 2, False,
                      {"need_weights": False, "kpm": "bool"}),
    "attn_bool": ({"embed_dim": 4, "num_heads": 2}, 3, 4, 2, False, {"attn": "bool2d"}),
    "attn_3d_kpm_sdpa": ({"embed_dim": 4, "num_heads": 2}, 3, 4, 2, False,
                         {"need_weights": False, "attn": "float3d", "kpm": "float"}),
    "causal_sdpa": ({"embed_dim": 4, "num_heads": 2, "batch_first": True}, 4, 4, 2, True,
                    {"need_weights": False, "attn": "causal", "is_causal": True}),
    "causal_weights": ({"embed_dim": 4, "num_heads": 2}, 4, 4, 2, True,
                       {"attn": "causal", "is_causal": True}),
    "unbatched": ({"embed_dim": 4, "num_heads": 2}, 3, 4, None, False, {"kpm": "bool"}),
    "unbatched_3d_mask_sdpa": ({"embed_dim": 4, "num_heads": 2}, 3, 4, None, False,
                               {"need_weights": False, "attn": "float3d"}),
}


def fill_parameters(module, torch):
    """Parameter i (registration order) is 0.5 * sin(0.37 (i + 1) k + i), k its elements."""
    with torch.no_grad():
        for i, p in enumerate(module.parameters()):
            p.copy_(torch.tensor(values(tuple(p.shape), 0.37 * (i + 1), float(i), 0.5),
                                 dtype=p.dtype))


def mha_setup(torch, name, dtype):
    ctor, L, S, N, self_attn, fwd = MHA_CASES[name]
    m = torch.nn.MultiheadAttention(**ctor, dtype=dtype)
    fill_parameters(m, torch)
    E = ctor["embed_dim"]
    bf = ctor.get("batch_first", False)

    def shape(n, e):
        if N is None:
            return (n, e)
        return (N, n, e) if bf else (n, N, e)
    q = torch.tensor(values(shape(L, E), 0.61, 0.3), dtype=dtype, requires_grad=True)
    if self_attn:
        k = v = q
        inputs = [q]
    else:
        k = torch.tensor(values(shape(S, ctor.get("kdim", E)), 0.43, 1.1), dtype=dtype,
                         requires_grad=True)
        v = torch.tensor(values(shape(S, ctor.get("vdim", E)), 0.29, 2.3), dtype=dtype,
                         requires_grad=True)
        inputs = [q, k, v]
    kw = {key: val for key, val in fwd.items() if key not in ("kpm", "attn")}
    S_all = L if self_attn else S
    nb = 1 if N is None else N
    if fwd.get("kpm") == "bool":
        kpm = np.zeros((nb, S_all), bool)
        kpm[-1, -1] = True
        kw["key_padding_mask"] = torch.tensor(kpm[0] if N is None else kpm)
    elif fwd.get("kpm") == "float":
        kw["key_padding_mask"] = torch.tensor(float_mask((nb, S_all)), dtype=dtype)
    heads = ctor["num_heads"]
    attn = fwd.get("attn")
    if attn == "bool2d":
        kw["attn_mask"] = torch.tensor(np.triu(np.ones((L, S_all), bool), 2))
    elif attn == "float2d":
        kw["attn_mask"] = torch.tensor(float_mask((L, S_all)), dtype=dtype)
    elif attn == "float3d":
        kw["attn_mask"] = torch.tensor(float_mask((nb * heads, L, S_all)), dtype=dtype)
    elif attn == "causal":
        kw["attn_mask"] = torch.nn.Transformer.generate_square_subsequent_mask(L, dtype=dtype)
    return m, q, k, v, inputs, kw


def run_mha(torch, name, dtype):
    """[output, weights (or []), input grads..., parameter grads...] as flat lists."""
    m, q, k, v, inputs, kw = mha_setup(torch, name, dtype)
    out, weights = m(q, k, v, **kw)
    loss = (out * torch.tensor(values(tuple(out.shape), 0.87, 0.6), dtype=dtype)).sum()
    if weights is not None:
        loss = loss + (weights * torch.tensor(values(tuple(weights.shape), 0.53, 0.2),
                                              dtype=dtype)).sum()
    loss.backward()
    res = [out.detach().reshape(-1).tolist(),
           [] if weights is None else weights.detach().reshape(-1).tolist()]
    res += [t.grad.reshape(-1).tolist() for t in inputs]
    res += [p.grad.reshape(-1).tolist() for p in m.parameters()]
    return res

# ---- end of cases ---------------------------------------------------------------------------


def check(got, want, tol):
    assert len(got) == len(want)
    for g, w in zip(got, want):
        np.testing.assert_allclose(np.array(g, dtype=np.float64), np.array(w, dtype=np.float64),
                                   rtol=tol, atol=tol)


# ---- scaled_dot_product_attention against PyTorch -------------------------------------------

@pytest.mark.parametrize("name", list(SDPA_CASES))
def test_sdpa_matches_torch_float64(name):
    check(run_sdpa(torch, name, torch.float64), REF["sdpa"][name], 1e-11)


@pytest.mark.parametrize("name", list(SDPA_CASES))
def test_sdpa_math_kernel_matches_torch(name):
    with sdpa_kernel(SDPBackend.MATH):
        check(run_sdpa(torch, name, torch.float64), REF["sdpa"][name], 1e-11)


@pytest.mark.parametrize("name", ["plain", "causal", "bool_mask_empty_row", "gqa"])
def test_sdpa_float32(name):
    check(run_sdpa(torch, name, torch.float32), REF["sdpa"][name], 2e-5)


@pytest.mark.parametrize("dtype,tol", [(torch.float64, 1e-12), (torch.float32, 2e-5)])
@pytest.mark.parametrize("name", list(LONG_CASES))
def test_sdpa_fused_blocks_match_the_math_kernel(name, dtype, tol):
    got = run_sdpa(torch, name, dtype)
    with sdpa_kernel(SDPBackend.MATH):
        want = run_sdpa(torch, name, dtype)
    check(got, want, tol)


def test_sdpa_fully_masked_rows_give_zeros_and_zero_gradients():
    q, k, v, m, _ = sdpa_inputs(torch, "bool_mask_empty_row", torch.float64)
    y = F.scaled_dot_product_attention(q, k, v, attn_mask=m)
    assert (y[:, :, 1] == 0).all()
    y.sum().backward()
    assert (q.grad[:, :, 1] == 0).all()
    assert not q.grad.isnan().any() and not k.grad.isnan().any()


def test_sdpa_empty_sequences():
    q = torch.randn(2, 3, 0, 4, requires_grad=True)
    k = torch.randn(2, 3, 5, 4)
    v = torch.randn(2, 3, 5, 6)
    assert F.scaled_dot_product_attention(q, k, v).shape == (2, 3, 0, 6)
    q = torch.randn(2, 3, 4, 4, requires_grad=True)
    out = F.scaled_dot_product_attention(q, k[:, :, :0], v[:, :, :0])
    assert out.shape == (2, 3, 4, 6) and (out == 0).all()
    out.sum().backward()
    assert (q.grad == 0).all()
    # no features: every score is 0 (whatever the scale), so the weights are uniform
    w = torch.randn(1, 2, 4, 5)
    out = F.scaled_dot_product_attention(torch.randn(1, 2, 3, 0), torch.randn(1, 2, 4, 0), w)
    assert torch.allclose(out, w.mean(-2, keepdim=True).expand(1, 2, 3, 5))
    assert F.scaled_dot_product_attention(q, k, v[..., :0]).shape == (2, 3, 4, 0)


def test_sdpa_uses_the_fused_kernel_and_keeps_the_strides_it_is_given():
    x = torch.randn(2, 6, 3 * 16, requires_grad=True)

    def attend():
        q, k, v = x.split(16, dim=2)
        q, k, v = (t.view(2, 6, 4, 4).transpose(1, 2) for t in (q, k, v))   # nanoGPT's layout
        return F.scaled_dot_product_attention(q, k, v, is_causal=True)
    y = attend()
    assert type(y.grad_fn).__name__ == "ScaledDotProductFlashAttentionForCpuBackward0"
    assert y.is_contiguous()
    with sdpa_kernel(SDPBackend.MATH):
        ref = attend()
    np.testing.assert_allclose(y.detach().numpy(), ref.detach().numpy(), rtol=1e-5, atol=1e-6)
    g = torch.randn(y.shape)
    gx, = torch.autograd.grad(y, x, g)
    gref, = torch.autograd.grad(ref, x, g)
    np.testing.assert_allclose(gx.numpy(), gref.numpy(), rtol=1e-4, atol=1e-5)


def test_flash_op_returns_output_and_logsumexp():
    q, k, v, m, _ = sdpa_inputs(torch, "float_mask_inf_row", torch.float64)
    out, lse = torch._scaled_dot_product_flash_attention_for_cpu(q, k, v, attn_mask=m)
    assert out.shape == (1, 2, 3, 3) and lse.shape == (1, 2, 3)
    scores = q @ k.transpose(-2, -1) / math.sqrt(4) + m
    np.testing.assert_allclose(lse[:, :, :2].detach().numpy(),
                               scores.logsumexp(-1)[:, :, :2].detach().numpy(), rtol=1e-12)
    assert bool((lse[:, :, 2] == float("-inf")).all())
    with pytest.raises(RuntimeError, match="do not support dropout > 0"):
        torch._scaled_dot_product_flash_attention_for_cpu(q, k, v, 0.5)


@pytest.mark.parametrize("kwargs,mask", [
    ({}, None), ({"is_causal": True}, None), ({}, "bool"), ({}, "float"), ({"scale": 0.7}, None),
    ({"enable_gqa": True}, None),
])
@pytest.mark.parametrize("backend", [SDPBackend.FLASH_ATTENTION, SDPBackend.MATH])
def test_sdpa_gradcheck_and_gradgradcheck(kwargs, mask, backend):
    torch.manual_seed(0)
    hq = 4 if kwargs.get("enable_gqa") else 2
    q = torch.randn(2, hq, 3, 4, dtype=torch.float64, requires_grad=True)
    k = torch.randn(2, 2, 5, 4, dtype=torch.float64, requires_grad=True)
    v = torch.randn(2, 2, 5, 3, dtype=torch.float64, requires_grad=True)
    m = None
    if mask == "bool":
        m = torch.tensor(bool_mask((3, 5), 1))
    elif mask == "float":
        m = torch.tensor(float_mask((3, 5)))

    def f(q, k, v):
        return F.scaled_dot_product_attention(q, k, v, attn_mask=m, **kwargs)
    with sdpa_kernel(backend):
        assert gradcheck(f, (q, k, v))
        assert gradgradcheck(f, (q, k, v))


def test_sdpa_gradient_of_a_float_mask():
    torch.manual_seed(0)
    q = torch.randn(1, 2, 3, 4, dtype=torch.float64, requires_grad=True)
    k = torch.randn(1, 2, 5, 4, dtype=torch.float64, requires_grad=True)
    v = torch.randn(1, 2, 5, 3, dtype=torch.float64, requires_grad=True)
    m = torch.randn(3, 5, dtype=torch.float64, requires_grad=True)
    assert gradcheck(lambda q, k, v, m: F.scaled_dot_product_attention(q, k, v, attn_mask=m),
                     (q, k, v, m))


def test_sdpa_dropout():
    torch.manual_seed(0)
    q = torch.randn(2, 2, 8, 4)
    k = torch.randn(2, 2, 8, 4)
    v = torch.ones(2, 2, 8, 3)
    assert (F.scaled_dot_product_attention(q, k, v, dropout_p=1.0) == 0).all()
    out = F.scaled_dot_product_attention(q, k, v.expand(2, 2, 8, 3), dropout_p=0.5)
    # each output row is a sum of kept weights / (1 - p): ones times weights that average to 1
    vals = F.scaled_dot_product_attention(q[:1].expand(50, 2, 8, 4), k[:1], v[:1], dropout_p=0.25)
    assert abs(float(vals.mean()) - 1.0) < 0.05
    assert out.shape == (2, 2, 8, 3)
    assert torch.allclose(F.scaled_dot_product_attention(q, k, v, dropout_p=-0.1),
                          F.scaled_dot_product_attention(q, k, v))
    with pytest.raises(RuntimeError, match="dropout probability has to be between 0 and 1, but "
                                           "got 1.5"):
        F.scaled_dot_product_attention(q, k, v, dropout_p=1.5)


def test_sdpa_under_autocast_runs_in_bfloat16():
    q = torch.randn(1, 2, 3, 4)
    with torch.autocast("cpu"):
        out = F.scaled_dot_product_attention(q, q, q)
    assert out.dtype == torch.bfloat16
    ref = F.scaled_dot_product_attention(q.bfloat16().float(), q.bfloat16().float(),
                                         q.bfloat16().float())
    assert torch.allclose(out.float(), ref, atol=3e-2)


@pytest.mark.parametrize("call,exc,match", [
    (lambda q: F.scaled_dot_product_attention(q, q.double(), q), RuntimeError,
     "Expected query, key, and value to have the same dtype, but got query.dtype: float key.dtype: "
     "double and value.dtype: float instead."),
    (lambda q: F.scaled_dot_product_attention(q[0, 0, 0], q[0, 0], q[0, 0]), RuntimeError,
     "Expected query, key, and value to all be  at least 2 dimensional, but got query.dim: 1 "
     "key.dim: 2 and value.dim: 2 instead."),
    (lambda q: F.scaled_dot_product_attention(q, q, q, attn_mask=torch.ones(3, 3, dtype=torch.bool),
                                              is_causal=True), RuntimeError,
     "Explicit attn_mask should not be set when is_causal=True"),
    (lambda q: F.scaled_dot_product_attention(q, q, q, attn_mask=torch.zeros(3, 3, dtype=torch.long)),
     RuntimeError, "Expected attn_mask dtype to be bool or float or to match query dtype, but got "
     "attn_mask.dtype: long int and  query.dtype: float instead."),
    (lambda q: F.scaled_dot_product_attention(q, q, q, attn_mask=torch.zeros(3, 3).bfloat16()),
     RuntimeError, "attn_mask.dtype: c10::BFloat16"),
    (lambda q: F.scaled_dot_product_attention(q, q[:, :1], q[:, :1, :2]), RuntimeError,
     "Expected size for first two dimensions of batch2 tensor to be: \\[4, 3\\] but got: \\[4, 2\\]."),
    (lambda q: F.scaled_dot_product_attention(q, q[..., :3], q), RuntimeError,
     "Expected size for first two dimensions of batch2 tensor to be: \\[4, 4\\] but got: \\[4, 3\\]."),
    (lambda q: F.scaled_dot_product_attention(q, q, q, attn_mask=torch.zeros(2, 1, 1, 3, 3)),
     RuntimeError, "output with shape \\[2, 2, 3, 3\\] doesn't match the broadcast shape "
     "\\[2, 2, 2, 3, 3\\]"),
    (lambda q: F.scaled_dot_product_attention(q, q, q, attn_mask=torch.zeros(3)), IndexError,
     "Dimension out of range"),
    (lambda q: F.scaled_dot_product_attention(q, q, q, attn_mask=torch.zeros(4, 3)), RuntimeError,
     "must match the size"),
    (lambda q: F.scaled_dot_product_attention(torch.randn(1, 3, 3, 4), q[:, :2], q[:, :2],
                                              enable_gqa=True), RuntimeError,
     "Number of heads in key and value must divide the number of heads in query"),
    (lambda q: F.scaled_dot_product_attention(q, q, q, is_causal=1), TypeError,
     "argument 'is_causal' must be bool, not int"),
    (lambda q: F.scaled_dot_product_attention(q, q, q, attn_mask=3), TypeError,
     "argument 'attn_mask' must be Tensor, not int"),
    (lambda q: F.scaled_dot_product_attention(1, q, q), TypeError,
     "argument 'query' \\(position 1\\) must be Tensor, not int"),
    (lambda q: F.scaled_dot_product_attention(q, q, q, scale="x"), TypeError,
     "argument 'scale' must be float, not str"),
    (lambda q: F.scaled_dot_product_attention(q.long(), q.long(), q.long()), RuntimeError,
     "expected scalar type Float but found Long"),
])
def test_sdpa_errors(call, exc, match):
    q = torch.randn(2, 2, 3, 4)
    with pytest.raises(exc, match=match):
        call(q)


def test_sdpa_kernel_and_sdp_kernel_choose_the_kernels():
    q = torch.randn(1, 1, 2, 4, requires_grad=True)

    def node():
        return type(F.scaled_dot_product_attention(q, q, q).grad_fn).__name__
    assert node() == "ScaledDotProductFlashAttentionForCpuBackward0"
    with sdpa_kernel(SDPBackend.MATH):
        assert node() != "ScaledDotProductFlashAttentionForCpuBackward0"
        assert not torch.backends.cuda.flash_sdp_enabled() and torch.backends.cuda.math_sdp_enabled()
    with sdpa_kernel([SDPBackend.MATH, SDPBackend.FLASH_ATTENTION], set_priority=True):
        assert node() != "ScaledDotProductFlashAttentionForCpuBackward0"
    with sdpa_kernel([SDPBackend.FLASH_ATTENTION, SDPBackend.MATH]):
        assert node() == "ScaledDotProductFlashAttentionForCpuBackward0"
    assert torch.backends.cuda.flash_sdp_enabled() and torch.backends.cuda.math_sdp_enabled()
    with sdpa_kernel([SDPBackend.EFFICIENT_ATTENTION]):
        with pytest.raises(RuntimeError, match="No viable backend for scaled_dot_product_attention"):
            F.scaled_dot_product_attention(q, q, q)
    with sdpa_kernel(SDPBackend.FLASH_ATTENTION):
        with pytest.warns(UserWarning, match="do not support non-zero dropout"):
            with pytest.raises(RuntimeError, match="No available kernel.  Aborting execution."):
                F.scaled_dot_product_attention(q, q, q, dropout_p=0.5)
    with pytest.raises(AssertionError, match="Backend must be an instance of SDPBackend"):
        with sdpa_kernel("math"):
            pass
    with pytest.warns(FutureWarning, match="sdp_kernel\\(\\)` is deprecated"):
        with torch.backends.cuda.sdp_kernel(enable_flash=False):
            assert node() != "ScaledDotProductFlashAttentionForCpuBackward0"
    assert torch.backends.cuda.flash_sdp_enabled()
    torch.backends.cuda.enable_flash_sdp(False)
    try:
        assert node() != "ScaledDotProductFlashAttentionForCpuBackward0"
    finally:
        torch.backends.cuda.enable_flash_sdp(True)
    with pytest.raises(RuntimeError, match="expects a bool, but got int"):
        torch.backends.cuda.enable_math_sdp(1)
    assert int(SDPBackend.FLASH_ATTENTION) == 1 and SDPBackend.ERROR.value == -1


# ---- MultiheadAttention against PyTorch -----------------------------------------------------

@pytest.mark.parametrize("name", list(MHA_CASES))
def test_mha_matches_torch_float64(name):
    check(run_mha(torch, name, torch.float64), REF["mha"][name], 1e-11)


def test_mha_parameters_as_torch():
    m = nn.MultiheadAttention(8, 2)
    assert [(n, tuple(p.shape)) for n, p in m.named_parameters()] == [
        ("in_proj_weight", (24, 8)), ("in_proj_bias", (24,)), ("out_proj.weight", (8, 8)),
        ("out_proj.bias", (8,))]
    assert m.q_proj_weight is None and m.bias_k is None and m._qkv_same_embed_dim
    assert type(m.out_proj).__name__ == "NonDynamicallyQuantizableLinear"
    m = nn.MultiheadAttention(8, 2, kdim=3, vdim=5, add_bias_kv=True, bias=False)
    assert [(n, tuple(p.shape)) for n, p in m.named_parameters()] == [
        ("q_proj_weight", (8, 8)), ("k_proj_weight", (8, 3)), ("v_proj_weight", (8, 5)),
        ("bias_k", (1, 1, 8)), ("bias_v", (1, 1, 8)), ("out_proj.weight", (8, 8))]
    assert list(m.state_dict()) == ["q_proj_weight", "k_proj_weight", "v_proj_weight", "bias_k",
                                    "bias_v", "out_proj.weight"]
    assert m.in_proj_weight is None and m.in_proj_bias is None and m.head_dim == 4
    assert repr(nn.MultiheadAttention(8, 2)) == (
        "MultiheadAttention(\n  (out_proj): NonDynamicallyQuantizableLinear(in_features=8, "
        "out_features=8, bias=True)\n)")


def test_mha_initialisation():
    torch.manual_seed(0)
    m = nn.MultiheadAttention(64, 4, add_bias_kv=True)
    bound = math.sqrt(6.0 / (64 + 3 * 64))                 # xavier_uniform_ of (3E, E)
    w = m.in_proj_weight.detach()
    assert float(w.abs().max()) <= bound and float(w.abs().max()) > 0.9 * bound
    assert (m.in_proj_bias == 0).all() and (m.out_proj.bias == 0).all()
    assert float(m.out_proj.weight.abs().max()) <= 1 / math.sqrt(64)
    # xavier_normal_ of (1, 1, E): std sqrt(2 / (E + E))
    assert abs(float(m.bias_k.std()) - math.sqrt(2 / 128)) < 0.05


def test_mha_state_dict_round_trip_and_eval():
    torch.manual_seed(0)
    a = nn.MultiheadAttention(8, 2, dropout=0.5)
    b = nn.MultiheadAttention(8, 2, dropout=0.5)
    b.load_state_dict(a.state_dict())
    a.eval()
    b.eval()
    x = torch.randn(3, 2, 8)
    assert torch.equal(a(x, x, x)[0], b(x, x, x)[0])


@pytest.mark.parametrize("call,exc,match", [
    (lambda: nn.MultiheadAttention(0, 2), ValueError,
     "embed_dim and num_heads must be greater than 0, got embed_dim=0 and num_heads=2 instead"),
    (lambda: nn.MultiheadAttention(7, 2), AssertionError, "embed_dim must be divisible by num_heads"),
    (lambda: nn.MultiheadAttention(8, 2)(torch.randn(2, 2, 2, 8), torch.randn(2, 2, 8),
                                         torch.randn(2, 2, 8)), AssertionError,
     "query should be unbatched 2D or batched 3D tensor but received 4-D query tensor"),
    (lambda: nn.MultiheadAttention(8, 2)(torch.randn(3, 2, 8), torch.randn(4, 8), torch.randn(4, 8)),
     AssertionError, "For batched \\(3-D\\) `query`, expected `key` and `value` to be 3-D but found "
     "2-D and 2-D tensors respectively"),
    (lambda: nn.MultiheadAttention(8, 2)(torch.randn(3, 2, 8), torch.randn(4, 2, 8),
                                         torch.randn(4, 2, 8), attn_mask=torch.zeros(3, 5)),
     RuntimeError, "The shape of the 2D attn_mask is .*\\[3, 5\\].*, but should be \\(3, 4\\)."),
    (lambda: nn.MultiheadAttention(8, 2)(torch.randn(3, 2, 8), torch.randn(4, 2, 8),
                                         torch.randn(4, 2, 8), attn_mask=torch.zeros(2, 3, 4)),
     RuntimeError, "The shape of the 3D attn_mask is .*, but should be \\(4, 3, 4\\)."),
    (lambda: nn.MultiheadAttention(8, 2)(torch.randn(3, 2, 8), torch.randn(4, 2, 8),
                                         torch.randn(4, 2, 8),
                                         key_padding_mask=torch.zeros(2, 5, dtype=torch.bool)),
     AssertionError, "Expected key_padded_mask.shape\\[1\\] to be 4, but got 5"),
    (lambda: nn.MultiheadAttention(8, 2)(torch.randn(3, 2, 8), torch.randn(4, 2, 8),
                                         torch.randn(5, 2, 8)), AssertionError,
     "key shape .* does not match value shape"),
    (lambda: nn.MultiheadAttention(8, 2)(torch.randn(3, 2, 8), torch.randn(3, 2, 8),
                                         torch.randn(3, 2, 8), is_causal=True), RuntimeError,
     "Need attn_mask if specifying the is_causal hint"),
    (lambda: nn.MultiheadAttention(8, 2)(torch.randn(3, 2, 8), torch.randn(3, 2, 8),
                                         torch.randn(3, 2, 8),
                                         attn_mask=torch.zeros(3, 3, dtype=torch.long)),
     AssertionError, "only bool and floating types of attn_mask are supported"),
    (lambda: nn.MultiheadAttention(8, 2)(torch.randn(3, 2, 6), torch.randn(3, 2, 6),
                                         torch.randn(3, 2, 6)), AssertionError,
     "was expecting embedding dimension of 8, but got 6"),
])
def test_mha_errors(call, exc, match):
    with pytest.raises(exc, match=match):
        call()


def test_mha_mismatched_mask_types_warn():
    m = nn.MultiheadAttention(8, 2)
    x = torch.randn(3, 2, 8)
    with pytest.warns(UserWarning, match="Support for mismatched key_padding_mask and attn_mask is "
                                         "deprecated"):
        m(x, x, x, key_padding_mask=torch.zeros(2, 3, dtype=torch.bool), attn_mask=torch.zeros(3, 3))


def test_multi_head_attention_forward_directly():
    torch.manual_seed(0)
    m = nn.MultiheadAttention(8, 2, dtype=torch.float64)
    x = torch.randn(3, 2, 8, dtype=torch.float64)
    want = m(x, x, x)
    got = F.multi_head_attention_forward(x, x, x, 8, 2, m.in_proj_weight, m.in_proj_bias, None,
                                         None, False, 0.0, m.out_proj.weight, m.out_proj.bias)
    assert torch.allclose(got[0], want[0]) and torch.allclose(got[1], want[1])
    # static keys and values replace the projected ones
    sk = torch.randn(4, 5, 4, dtype=torch.float64)
    sv = torch.randn(4, 5, 4, dtype=torch.float64)
    out, w = F.multi_head_attention_forward(x, x, x, 8, 2, m.in_proj_weight, m.in_proj_bias, None,
                                            None, False, 0.0, m.out_proj.weight, m.out_proj.bias,
                                            static_k=sk, static_v=sv)
    assert out.shape == (3, 2, 8) and w.shape == (2, 3, 5)
    with pytest.raises(AssertionError, match="expecting static_k.size\\(0\\) of 4, but got 3"):
        F.multi_head_attention_forward(x, x, x, 8, 2, m.in_proj_weight, m.in_proj_bias, None, None,
                                       False, 0.0, m.out_proj.weight, m.out_proj.bias,
                                       static_k=sk[:3], static_v=sv)


def test_mha_gradcheck():
    torch.manual_seed(0)
    m = nn.MultiheadAttention(4, 2, dtype=torch.float64, add_bias_kv=True)
    q = torch.randn(3, 2, 4, dtype=torch.float64, requires_grad=True)
    kv = torch.randn(5, 2, 4, dtype=torch.float64, requires_grad=True)
    kpm = torch.tensor([[False] * 5, [False, False, False, True, True]])
    assert gradcheck(lambda q, kv: m(q, kv, kv, key_padding_mask=kpm)[0], (q, kv))
    assert gradcheck(lambda q, kv: m(q, kv, kv, key_padding_mask=kpm, need_weights=False)[0], (q, kv))


def test_mha_dropout_only_in_training():
    torch.manual_seed(0)
    m = nn.MultiheadAttention(8, 2, dropout=0.9)
    x = torch.randn(3, 2, 8)
    m.eval()
    a, _ = m(x, x, x)
    b, _ = m(x, x, x)
    assert torch.equal(a, b)
    m.train()
    c, _ = m(x, x, x, need_weights=False)
    assert not torch.allclose(a, c)


REF = {
    "sdpa": {
        "plain": [
            [-0.04889251732973, -0.07420173207271, -0.09243708346328, -0.08531902793188,
             -0.2523596064598, -0.3953420218977, -0.1848375370592, -0.2380215687079,
             -0.2685143234155, 0.246910645933, 0.1809189812223, 0.09767979256201, 0.2525331089224,
             0.2326120739102, 0.1905154645684, 0.5022350446888, 0.3913353028488, 0.2431284472798],
            [0.2382668633805, 0.1986031149518, 0.1193963353727, 0.01641705348398,
             -0.2153735227428, -0.172307958149, -0.0949348805123, 0.001340282009979,
             0.15064984647, 0.1276312465745, 0.07920052582534, 0.01500052139395, 0.05795906824269,
             0.0507331266305, 0.03340592549276, 0.009427410992236, -0.07266371628394,
             -0.09820437992395, -0.1041919823978, -0.08943435735297, 0.1366910599673,
             0.1950512390363, 0.2145755860337, 0.1913766903231],
            [-0.05073301994477, 0.2943294438968, 0.5009641712493, 0.4719876210821,
             -0.02068458217771, 0.04848266258417, 0.09484775357022, 0.09660446401516,
             0.04896242586583, -0.0809952012494, -0.1728595196321, -0.1834253049273,
             0.03781205107228, -0.2174738673826, -0.3704784278845, -0.3492411948672,
             -0.01535687481564, -0.04434303784903, -0.05247397730294, -0.03592558530277,
             -0.1331281731409, -0.065358056975, 0.03315097463405, 0.1160685848744,
             0.04787217069517, 0.03642512079168, 0.007846767421645, -0.02442204327591,
             0.1544687488961, 0.1116285055462, 0.01628763179437, -0.08671356969158,
             0.02570694047861, -0.009846787058838, -0.04076941678223, -0.05251755275322,
             -0.09491968692895, -0.07284878230399, -0.01651595706783, 0.04758458084627],
            [-0.05209290489284, 0.4166839428284, 0.5503085466854, 0.02702157325474,
             -0.1488171592324, -0.204957483128, 0.004059070882911, -0.1592561789635,
             -0.1944765822301, -0.101479163422, 0.3719376507644, 0.5461930972602,
             -0.01004500468633, 0.1356910026263, 0.1722863896076, 0.171411142244,
             0.01121826797591, -0.1579978186072, -0.1196986143378, -0.03355459700375,
             0.07957845763618, 0.4046280123383, 0.1924773122325, -0.1744890561944,
             0.4318641887124, 0.1091655353322, -0.30133845528, -0.06819047889882,
             -0.03982563268726, 0.02057224572575],
        ],
        "causal": [
            [0.9916648104525, 0.9050905633252, 0.7322314440303, 0.5756711642109, 0.3211061553593,
             0.03592917828027, 0.5623980544447, 0.3993167120883, 0.1981673654315,
             0.06676499152156, 0.3679605105724, 0.6340773016992, 0.5724273144046, 0.7587616868387,
             0.8727611374346, 0.7429216444973, 0.7296766618376, 0.646869515963],
            [0, 0, 0, 0, -0.03164807462789, -0.08750133099809, -0.1259325652706, -0.1392898959814,
             0.2299703299145, 0.2714168541972, 0.2588227098686, 0.1946954640513, 0, 0, 0, 0,
             0.02284476542708, -0.02958778255593, -0.07612923156214, -0.107512909373,
             0.09776734631903, 0.1468324019185, 0.166662275359, 0.1533087239185],
            [-0.105883360104, 0.05725294595311, 0.1934622969266, 0.2386833067237,
             0.03717842584557, -0.04271196959234, -0.102514258338, -0.1141024895579,
             0.06870493425847, -0.01454097636077, -0.09094803858852, -0.1245808171658, 0, 0, 0, 0,
             0, 0, 0, 0, -0.1622305098127, -0.1117623912694, -0.00873067377648, 0.09840721601402,
             0.08220831989821, 0.04864114238862, -0.007802724425152, -0.06057684802084,
             0.08002218991452, 0.06312124888074, 0.01653339820163, -0.03783036799318, 0, 0, 0, 0,
             0, 0, 0, 0],
            [-0.05808474301653, 1.026650950429, 1.285618395245, 0.04475946906114,
             -0.5127516999455, -0.6578402504671, -0.1192111549081, 0.1023400075392,
             0.241575823417, 0, 0, 0, 0, 0, 0, 0.6363236837739, -0.04905968606227,
             -0.6949827787507, -0.4483879487396, -0.08283474609367, 0.3493450964817,
             0.6320785150237, 0.3713753180056, -0.1880369444507, 0, 0, 0, 0, 0, 0],
        ],
        "causal_L_gt_S": [
            [0.9916648104525, 0.9050905633252, 0.8507709727638, 0.6794265876769, 0.3448418842454,
             0.06437334156185, 0.8475922618231, 0.6970529729739, 0.6836436985981, 0.4768257048155,
             -0.4063057021444, -0.6656819850461, -0.7640007053089, -0.9089879022682,
             -0.8248600810112, -0.8801842291677, -0.5220229237078, -0.733887558327,
             -0.8840023654834, -0.9161184287346],
            [0, 0, 0, 0.0002195961723721, 0.02291981590806, 0.04105656746937, -0.1477500669321,
             -0.1799842530397, -0.1763825313052, 0.001365031926989, 0.004637161136903,
             0.006986004690745, 0.1654157505343, 0.2308190734416, 0.2502649811621, 0, 0, 0,
             0.04901849931106, 0.06062426604081, 0.06015939006634, -0.09922350552645,
             -0.0953445928843, -0.07248201924888, -0.02985678471349, -0.03067883446158,
             -0.02539255047548, 0.0702214163809, 0.06482669644735, 0.04652460556132],
            [0.1869208667704, 0.09941641704384, -0.03484512704276, 0.03166173294287,
             0.04729574108169, 0.04068582317345, -0.2185825997132, -0.1467121581255,
             -0.005840696130684, 0.01569243295817, -0.07358863759666, -0.1282598220356,
             0.002907604543167, 0.04849304702168, 0.07127145176114, -0.01860003750134,
             0.02509559057498, 0.05698837027446],
            [0.5719290134459, 1.407393126351, 0.6344088146806, 0.356406412291, -0.3321327536453,
             -0.5305226244862, 0.2145734941011, -0.9924478562183, -0.8239657155234,
             -0.2885167164531, -0.1476855867925, 0.03602017259626],
        ],
        "bool_mask_empty_row": [
            [0.7952801437161, 0.6648381402178, 0.4710152152234, 0, 0, 0, 0.412903808637,
             0.3857688011958, 0.3218573505498, 0.4748200543411, 0.6076657839068, 0.6825809962296,
             0, 0, 0, 0.1422537748292, 0.2499744405929, 0.3338643279508],
            [0.2331345900473, 0.2986519460777, 0.3047059688681, 0.2500912673959, 0, 0, 0, 0,
             0.005429967107208, 0.05231942099658, 0.08879177495908, 0.1075851719527,
             0.08281204444957, 0.1154654021385, 0.1251289291057, 0.1098785611289, 0, 0, 0, 0,
             0.02296909152816, 0.08054286931368, 0.1220800950492, 0.1393104663703],
            [-0.0329206826652, 0.1454464935125, 0.2554079111272, 0.24524699728, 0.01637369127968,
             -0.05448312943128, -0.09971568304832, -0.09805039282721, -0.0118236082496,
             -0.08495890132923, -0.1181366955943, -0.09575295598455, 0, 0, 0, 0, 0.02837059963512,
             -0.006004462752023, -0.03755553248458, -0.05144364846825, -0.07020754993248,
             -0.02957119244875, 0.02497295890626, 0.06777193747441, 0.1483118746623,
             0.1177212332494, 0.03176445639434, -0.06913164063633, 0.05207742016937,
             0.01453690551119, -0.02984054295431, -0.06018351779706, 0, 0, 0, 0, -0.1301817448992,
             -0.1026869463119, -0.02689687234629, 0.06154322095898],
            [-0.1154111802276, 0.9271046290347, 1.223920484973, -0.04865127961264,
             0.1914590870874, 0.2775727765697, 0.01797235558951, 0.08181644042367,
             0.0798529412006, 0, 0, 0, -0.1374590366991, 0.1180053902083, 0.2785543014183,
             0.7946768400282, 0.2027146268322, -0.5522974547743, 0.4714177746195, 0.1769062024182,
             -0.2598966956535, 0.2243182805373, -0.02234518454215, -0.2510357018569, 0, 0, 0,
             0.2639299535274, 0.1550710364182, -0.07851648304871],
        ],
        "float_mask_inf_row": [
            [0.1447089262336, 0.06639570709857, -0.01824720470108, -0.3456103148533,
             -0.4604243071506, -0.5313447333284, 0, 0, 0, 0.2997936320309, 0.3883523276725,
             0.4398882851406, 0.398589189674, 0.3480465698013, 0.2643236749367, 0, 0, 0],
            [0.2887103950577, 0.247611618615, 0.1572119339238, 0.03551044209889, -0.179803892467,
             -0.1253504634062, -0.04593903063835, 0.04261912935982, 0, 0, 0, 0, 0.06637583244988,
             0.07374253428809, 0.06642667018982, 0.04588487109464, -0.08857633212308,
             -0.1073719120277, -0.1047891219957, -0.08134221049054, 0, 0, 0, 0],
            [0.02863073894464, 0.2651488456963, 0.376963307252, 0.311486035193, -0.01742186691919,
             0.0385337523242, 0.07636634574303, 0.07828265350184, 0.0171016189659,
             -0.08146325722726, -0.1417146906479, -0.1353154907038, -0.01573737813145,
             -0.2081720533338, -0.3027001590751, -0.254863650183, -0.01257311285991,
             -0.01404728745951, -0.008914803271979, 0.0004104521920044, -0.0894493950996,
             -0.03147016769443, 0.04130997131237, 0.09466138532485, 0.01507960473123,
             0.0104485686673, 0.0009034074957518, -0.009066640337181, 0.06198193827121,
             0.02961040599721, -0.01668736289264, -0.05513680426684, 0.05101240260987,
             0.0171151854226, -0.02483157090106, -0.05509965142596, -0.03862455051271,
             -0.02570399239268, -0.0006944450144184, 0.02464171070513],
            [0.09230541890559, 0.3821687117955, 0.364641466851, 0.05545421601357,
             -0.02564958110987, -0.08612259845139, 0.07626763675441, -0.2213725686607,
             -0.3409557253376, 0.07264453860142, 0.1476882783665, 0.1039416045846,
             0.05301023260642, -0.08056893974343, -0.1493439327974, 0.286636945648,
             -0.061805604547, -0.360535927036, -0.2006088375759, -0.1061710845597,
             0.0736634730038, -0.09190002200025, -0.06610044094979, 0.01286584231233,
             -0.01749874615663, -0.05051821443983, -0.04290426447658, -0.1565327472875,
             -0.06342157124233, 0.08070160629003],
        ],
        "bool_mask_4d": [
            [0.7952801437161, 0.6648381402178, 0.4710152152234, 0.1259587616925, -0.1308096489768,
             -0.3751076016636, 0.412903808637, 0.3857688011958, 0.3218573505498, 0.4748200543411,
             0.6076657839068, 0.6825809962296, 0.6461574112517, 0.7643240680754, 0.8096255253478,
             0.1422537748292, 0.2499744405929, 0.3338643279508, -0.4357000439973,
             -0.3861429539941, -0.2997737517294, -0.06131095541221, -0.05724988234701,
             -0.04773101424993, -0.405748101891, -0.3254528982334, -0.2141313389176,
             -0.0940084904108, -0.2262613047775, -0.3369439818006, 0.01258189397484,
             -0.01761385983416, -0.04613043400551, -0.1874592634498, -0.2841133352187,
             -0.353682070112],
            [0.2331345900473, 0.2986519460777, 0.3047059688681, 0.2500912673959, -0.2779998382634,
             -0.2488991890463, -0.1702412688459, -0.05768732541998, 0.005429967107208,
             0.05231942099658, 0.08879177495908, 0.1075851719527, 0.08281204444957,
             0.1154654021385, 0.1251289291057, 0.1098785611289, -0.04516507016963,
             -0.08973085325284, -0.1164307034367, -0.119948525816, 0.02296909152816,
             0.08054286931368, 0.1220800950492, 0.1393104663703, -0.1858471110078,
             -0.1260708816662, -0.04119320916686, 0.05188627000436, 0.1683066420458,
             0.1442080642409, 0.09139682511731, 0.02038794844138, -0.1859728690116,
             -0.119289812872, -0.02885546366991, 0.06732417557474, 0.06406192749379,
             -0.005111910050797, -0.07326793667925, -0.1268358925056, -0.013874258546,
             0.04743090508803, 0.09929230064296, 0.1313840237117, 0.02426174229766,
             -0.01677642439214, -0.05447430776114, -0.08132604076024],
            [-0.05175142751001, 0.180276223584, 0.3275171498327, 0.3207216429185,
             -0.007366637628839, -0.01057253245248, -0.008806000063349, -0.002897868246875,
             0.03074746550372, -0.1636992283795, -0.2811556172848, -0.2663801262034, 0, 0, 0, 0,
             0.02837059963512, -0.006004462752023, -0.03755553248458, -0.05144364846825,
             -0.141648951607, -0.06975226989188, 0.03494999426271, 0.1232147300068,
             0.1783432362467, 0.1346118938085, 0.02757047434322, -0.09243777000618,
             0.09348746025951, 0.0378273223953, -0.03562359625964, -0.09232018095962, 0, 0, 0, 0,
             -0.1301817448992, -0.1026869463119, -0.02689687234629, 0.06154322095898,
             -0.5188561263205, -0.6892098107182, -0.5354173519347, -0.1298097464095,
             -0.08168785670223, -0.1027567356534, -0.07549751620842, -0.01273063520944, 0, 0, 0,
             0, 0, 0, 0, 0, 0.6005439830228, 0.7919665463716, 0.6109148681432, 0.1425403816189,
             0.03041446153549, -0.08372466530035, -0.1584867738115, -0.1587100761749,
             0.06452274506657, -0.2833572781518, -0.4979699458758, -0.4783795670594, 0, 0, 0, 0,
             0, 0, 0, 0, -0.09493720660207, 0.3670819434522, 0.6564567196873, 0.6370896432343],
            [-0.1013740867038, 0.86183798369, 1.131846154456, 0.01916559204868, -0.1238611537881,
             -0.1672624056884, 0.08713110249078, -0.239742962087, -0.3737840819904, 0, 0, 0,
             -0.1374590366991, 0.1180053902083, 0.2785543014183, 0.5368537618104, 0.1274187412305,
             -0.3845032548346, -0.01628314122753, 0.03447569301125, 0.05750462291759,
             0.03551367594786, -0.07748458481035, -0.128159511754, 0, 0, 0, 0.2639299535274,
             0.1550710364182, -0.07851648304871, -0.4347056711964, -0.5072324065636,
             -0.1717758679258, -0.2348986948258, -0.34039345698, -0.172098857036, 0, 0, 0, 0, 0,
             0, -0.007083494510946, -0.004943128581213, 0.001173154021616, -0.0179413605041,
             0.3249308491737, 0.4064507675631, -0.1168175500161, 0.2557238168375, 0.4225783255874,
             0, 0, 0, 0, 0, 0, -0.01747151377568, 0.021215115844, 0.04283774815509],
        ],
        "scale": [
            [-0.09473265628118, -0.1335706835188, -0.1596750354539, -0.1092695177158,
             -0.2432901060581, -0.3541171527246, -0.1648809237332, -0.2278384850271,
             -0.2690755518732, 0.2660104038955, 0.2069356071807, 0.1281330471503, 0.2699122313269,
             0.240456511841, 0.1880773853208, 0.4245669979975, 0.3388037297131, 0.220741332819],
            [0.1438617004333, 0.121422116951, 0.07480668630676, 0.01329681089207,
             -0.1300308648968, -0.1085373019773, -0.06543333322858, -0.009301208628569,
             0.0921082311614, 0.08131011823993, 0.05432268956081, 0.01651929857413,
             0.03115066715705, 0.02663759714729, 0.01682082717278, 0.003654933026517,
             -0.05101303864563, -0.06535316261924, -0.06668109317453, -0.05473243164218,
             0.08836211808585, 0.1213758009227, 0.1302228583874, 0.1131417900672],
            [-0.03374777160081, 0.1659607396644, 0.2876153218574, 0.2739999240675,
             -0.008654833921188, 0.02955546192432, 0.05386536220999, 0.0528415409788,
             0.0294995657877, -0.05520296894321, -0.1139426848099, -0.119093375607,
             0.0220482297195, -0.1164329197388, -0.2001538477294, -0.1897392936427,
             -0.009145189985197, -0.02388031290675, -0.02738415152807, -0.01800879579658,
             -0.07914876722609, -0.03998921461666, 0.0179778904757, 0.06748971276505,
             0.03023137595263, 0.02557364404197, 0.008888227739163, -0.01197746095176,
             0.09259553821204, 0.06551780525149, 0.007626024737223, -0.05385239437088,
             0.02263558651094, 0.001598407743041, -0.02019052716222, -0.0324835416574,
             -0.06631373344952, -0.05270064241985, -0.01430161578986, 0.030823684215],
            [-0.04455063326013, 0.3114290459847, 0.4169163667821, 0.008487249784059,
             -0.05488203150766, -0.07410793668854, -0.01173389687354, -0.06721194114856,
             -0.06862926799467, -0.06984720174787, 0.2880962885239, 0.4143147046488,
             -0.01489194676605, 0.1388078961708, 0.1808601014474, 0.1708080814102,
             0.02669844215933, -0.1388856094162, -0.01095513807786, -0.00117163741913,
             0.009554248749705, 0.3067484605768, 0.1323240169248, -0.148532872596,
             0.3353055511637, 0.09073445272184, -0.2268172727609, 0.01810729498528,
             -0.009104388537164, -0.02899312069621],
        ],
        "broadcast_batch": [
            [-0.04889251732973, -0.07420173207271, -0.09243708346328, -0.08531902793188,
             -0.2523596064598, -0.3953420218977, -0.1848375370592, -0.2380215687079,
             -0.2685143234155, 0.246910645933, 0.1809189812223, 0.09767979256201, 0.2525331089224,
             0.2326120739102, 0.1905154645684, 0.5022350446888, 0.3913353028488, 0.2431284472798,
             0.3039204468335, 0.4511742424763, 0.5554163071224, 0.02885453508829,
             0.04776926102572, 0.06213000667857, 0.286545525771, 0.4780284655811, 0.6239395844966,
             -0.03857578504006, -0.0621432406583, -0.07978640340071, -0.09420647290022,
             -0.2666889786337, -0.4137472612425, -0.1711851063138, -0.2202957441758,
             -0.2484049586493, 0.2258842251892, 0.1657110963459, 0.08974025471638, 0.27859518428,
             0.2572365177775, 0.21135475828, 0.4766371824127, 0.3684356022239, 0.225110002265,
             0.2999298890705, 0.4411011404473, 0.5402209584551, 0.02682345249035,
             0.04926813209944, 0.06701593975738, 0.2915329834361, 0.480422697857, 0.6235123423725],
            [0.2382668633805, 0.1986031149518, 0.1193963353727, 0.01641705348398,
             -0.2153735227428, -0.172307958149, -0.0949348805123, 0.001340282009979,
             0.15064984647, 0.1276312465745, 0.07920052582534, 0.01500052139395, 0.05795906824269,
             0.0507331266305, 0.03340592549276, 0.009427410992236, -0.07266371628394,
             -0.09820437992395, -0.1041919823978, -0.08943435735297, 0.1366910599673,
             0.1950512390363, 0.2145755860337, 0.1913766903231, 0.1821155255256, 0.1765434576698,
             0.1358205642706, 0.06805500940494, 0.01976711468434, 0.008939747215966,
             -0.003667575731578, -0.01554466309628, 0.1813225147843, 0.1911173727243,
             0.1628596541733, 0.1021756346568, 0.2300549891536, 0.1936458763721, 0.1186807473699,
             0.02008559377655, -0.2149930426179, -0.1719508545768, -0.09467225488363,
             0.001456139410514, 0.1419602167394, 0.1198827757569, 0.07393597936517,
             0.01326810100105, 0.05987732707435, 0.05473687563295, 0.03869799503671,
             0.01495411936238, -0.07968354364203, -0.1075327669528, -0.1139715931792,
             -0.0977180147047, 0.1396951765011, 0.1991917993538, 0.21902818058, 0.1952547817199,
             0.1903886561362, 0.1874081056714, 0.1471135152822, 0.07752777143418,
             0.01395291620828, 0.005099431182052, -0.004769380145227, -0.01368858024563,
             0.181515365766, 0.1917311869363, 0.1637722176487, 0.1032052507191],
            [-0.06399192414431, 0.6098514811477, 0.9968722056636, 0.9150483552981,
             -0.03384783390829, 0.1012544241502, 0.1887351443869, 0.1874507771504,
             0.08379233133395, -0.1717310681916, -0.3464866629748, -0.3582841661574,
             0.04915701116471, -0.448398235376, -0.7350647854037, -0.6760188811519,
             -0.03510958444606, -0.09097660173024, -0.1040559016721, -0.06819608513921,
             -0.2625125575372, -0.1217387860815, 0.07629063868931, 0.2384393840105,
             0.1037044286924, 0.07500407359521, 0.01102813071517, -0.0581345143595,
             0.3147238440749, 0.2191096507465, 0.02044476498934, -0.1878356132006,
             0.04625170453076, -0.02391095985459, -0.08282792620127, -0.1027896246334,
             -0.2021674197608, -0.1484639784056, -0.02493560819255, 0.1103203681831,
             -0.7746103856226, -0.9744462335312, -0.7159847916677, -0.1207845147119,
             -0.3633621708294, -0.4756086073344, -0.3641688842205, -0.08145484456195,
             0.1316384562721, 0.1914312522323, 0.1611909390719, 0.05514000858797, 0.5679875478729,
             0.700720297761, 0.5038933425554, 0.07007747479538, 0.438346552307, 0.5579032908723,
             0.4150693942609, 0.07702187589047],
            [-0.1229507344999, 0.8370331172155, 1.123764418043, 0.05890378803947,
             -0.2896697745927, -0.4052526578255, 0.02264129920293, -0.3388621645794,
             -0.4278079337969, -0.2166698532117, 0.7274914405458, 1.086508063175,
             -0.0266913526901, 0.2821164212892, 0.364008919906, 0.3747207226565, 0.0357188881202,
             -0.3320127924009, -0.247041459668, -0.07192963823945, 0.1610374955217,
             0.755511685134, 0.3725391882113, -0.3100785122411, 0.8772063637846, 0.236311261015,
             -0.5946565593208, -0.1134678645145, -0.0745400439447, 0.02434272189187,
             0.01359306017578, 0.05773191096664, 0.0554351363007, 0.1987115638324,
             0.2496296553173, 0.09976261803822, -1.268837013791, -1.746281666941,
             -0.8191360324942, -0.707177953494, -0.8247949357666, -0.2790029285454,
             0.4232184748243, 0.5540604661241, 0.2392538749576],
        ],
        "gqa": [
            [-0.04889251732973, -0.07420173207271, -0.09243708346328, -0.08531902793188,
             -0.2523596064598, -0.3953420218977, -0.1848375370592, -0.2380215687079,
             -0.2685143234155, -0.04588577513828, -0.1365761670426, -0.2142463623037,
             -0.2747289225285, -0.3931955539618, -0.4741777286068, -0.03610475867533,
             -0.06049707265949, -0.07912202767156, 0.05478239670422, 0.04399989879232,
             0.02902276467879, 0.6861282190613, 0.5675960964708, 0.3949534145492,
             0.005956791677021, 0.006231522527212, 0.005912184511304, 0.7014087685706,
             0.6021631911765, 0.4455116744432, 0.07081866839, 0.06036197136182, 0.04415079495468,
             0.5485850076666, 0.493780212805, 0.3919019379324],
            [0.2382668633805, 0.1986031149518, 0.1193963353727, 0.01641705348398,
             -0.2153735227428, -0.172307958149, -0.0949348805123, 0.001340282009979,
             0.15064984647, 0.1276312465745, 0.07920052582534, 0.01500052139395,
             -0.07057940247904, -0.08078571657691, -0.07490712632729, -0.05411409311703,
             -0.02514432075727, 0.005646618147265, 0.03531328265486, 0.057948867935,
             0.0416438172481, 0.04030335740029, 0.03093826552426, 0.01541318568599,
             -0.1272954071046, -0.1707972910745, -0.1802924445708, -0.1538903275052,
             0.1323185418225, 0.2177660635361, 0.2598550999811, 0.2502054800831, -0.1358564522241,
             -0.1385557348476, -0.1136677676917, -0.06614788925021, 0.08372141834942,
             0.1565940760725, 0.1982879457408, 0.200501536275, -0.05225978818957,
             -0.05283738410375, -0.04289475063466, -0.02441152372649, 0.005615720143331,
             0.05019357576061, 0.08477759955739, 0.1024819119711],
            [0.1908602031152, 0.474394396359, 0.5348134923782, 0.3437014462406, 0.1235063960894,
             0.1340364288321, 0.08152703471816, -0.009325797718827, 0.06016213176112,
             -0.08353384145822, -0.1879425437875, -0.2039589310902, -0.1241418702159,
             -0.3283250154291, -0.3780917756661, -0.2500360659603, -0.2503868607498,
             -0.1965719683038, -0.05030620764281, 0.1196193485288, 0.05978453524972,
             0.2290263583449, 0.2905535064749, 0.215428800486, 0.210419392523, 0.4425133825039,
             0.4664864142309, 0.2710635962938, 0.1538870672421, 0.2802246848327, 0.274768254515,
             0.1400840207265, -0.04875879691315, -0.18006868721, -0.2266894602612,
             -0.166694638031, -0.3753321981016, -0.7716957384715, -0.8051187149597,
             -0.4598817794754],
            [0.1953081140906, 0.5266067574409, 0.43433871571, 0.3627178748153, -0.09094164775765,
             -0.4714538896848, -0.1412156981528, -0.2301020400569, -0.1339099397265,
             -0.1371769189963, 0.3747911071901, 0.585302639271, 0.4078444494377, 0.2753659670564,
             -0.07859818409431, -0.3510998394195, -0.677712484255, -0.4592192671964,
             -0.2839277161463, -0.00157163733442, 0.2820485597336, 0.3415121246986, 1.18353553677,
             1.073603401553, -0.05133573614954, -0.1214179340947, -0.09383979797228,
             -0.4840671178122, -0.633532691356, -0.2734276257529],
        ],
        "gqa_kv_heads_differ": [
            [-0.04889251732973, -0.07420173207271, -0.09243708346328, -0.08531902793188,
             -0.2523596064598, -0.3953420218977, -0.1848375370592, -0.2380215687079,
             -0.2685143234155, -0.04588577513828, -0.1365761670426, -0.2142463623037,
             -0.04153795810625, -0.1159539808641, -0.1793157789714, -0.3158189264463,
             -0.4482561956973, -0.5379599196972, 0.05478239670422, 0.04399989879232,
             0.02902276467879, 0.6861282190613, 0.5675960964708, 0.3949534145492, 0.6532919263961,
             0.5221184423476, 0.3411699138119, 0.01827105027091, 0.0110862169345,
             0.002844502828606, 0.6502256529224, 0.5448545940324, 0.3875409882847,
             0.09479999705943, 0.07807598375933, 0.0539087636123],
            [0.2382668633805, 0.1986031149518, 0.1193963353727, 0.01641705348398,
             -0.2153735227428, -0.172307958149, -0.0949348805123, 0.001340282009979,
             0.15064984647, 0.1276312465745, 0.07920052582534, 0.01500052139395,
             -0.07057940247904, -0.08078571657691, -0.07490712632729, -0.05411409311703,
             0.004540372933745, -0.01798756805027, -0.03693407999221, -0.04852680256383,
             -0.1370082116145, -0.1084729670706, -0.05834012615002, 0.003408571985213,
             -0.1272954071046, -0.1707972910745, -0.1802924445708, -0.1538903275052,
             0.1323185418225, 0.2177660635361, 0.2598550999811, 0.2502054800831,
             0.002782188174565, 0.1266969987777, 0.2253857026777, 0.279198806998,
             -0.08083308778863, -0.1285048017124, -0.1505904648921, -0.1426926937956,
             -0.01944958025092, 0.05806820726909, 0.1240242781994, 0.1652863965831,
             -0.008160471803243, -0.01742870205076, -0.0232267767155, -0.02440026553017],
            [-0.05642170546472, 0.2927415026429, 0.5042238078454, 0.4785617775038,
             0.01780731387571, 0.05922730112532, 0.07279176320358, 0.05212112164453,
             0.06848225213847, -0.0755464315293, -0.1840444480033, -0.2059834848075,
             0.03626181404031, -0.2179066009777, -0.3695901366713, -0.3474496560832,
             -0.06612967458977, -0.05851577126122, -0.02338098637437, 0.02275024174233,
             0.1936480329457, 0.1417378457217, 0.02316613493977, -0.1063009710851,
             0.3264067986779, 0.2926494204726, 0.1212544470457, -0.1071683874797, 0.1091054318102,
             0.1527102062635, 0.1244929845484, 0.03772476694358, -0.2122233418182,
             -0.1955398520792, -0.08689091451286, 0.06262417785685, -0.4169369216156,
             -0.3915576203786, -0.182022652021, 0.1131204137645, -0.03969073082076,
             0.1160932774753, 0.2172768033672, 0.2162716535918, 0.008992875817107,
             0.2170006057091, 0.322949560008, 0.2770102900092, 0.06360138163957, 0.2111519784856,
             0.2593945005091, 0.1856397357924, -0.02384547446496, -0.1794900849694,
             -0.2507177039028, -0.2040288691185, -0.009058052170957, -0.3647557767005,
             -0.5489031599815, -0.4748928102748],
            [0.03470312320054, 0.4363310394144, 0.4870039225768, 0.08382391068029,
             -0.1999536774669, -0.3229021172263, 0.4103567574674, 0.03305481076035,
             -0.3708341791661, 0.1544094632297, 0.4986327712903, 0.4417897674891,
             0.004184566616672, 0.08765519987474, 0.1006219478019, -0.3392387337377,
             0.1079291286026, 0.4682861352522, -0.1662376034561, -0.0296755874301, 0.130755454236,
             0.2076774873438, -0.3504096645292, -0.6266510976987, -0.1537524166921,
             -0.06959434648088, 0.07054068608944, -0.3773670182869, 0.09105125956801,
             0.4862340924866],
        ],
        "gqa_mask_per_head": [
            [0.1447089262336, 0.06639570709857, -0.01824720470108, -0.3456103148533,
             -0.4604243071506, -0.5313447333284, -0.1289343467132, -0.1400328261774,
             -0.1377815757962, 0.3312678691638, 0.1573180184247, -0.03162940897636,
             -0.4185711398855, -0.5642235573746, -0.6560869293309, -0.4717189769489,
             -0.3790453125668, -0.2502361743816, 0.08659782594422, 0.182203503054,
             0.2604391990739, 0.7878034350312, 0.6889370546653, 0.5243923343608, -0.1102128552118,
             -0.2527999319418, -0.3712868680943, 0.505721910011, 0.4042005261704, 0.264145550064,
             0.1680592248435, 0.3226816191811, 0.4465418518191, 0.6828727573932, 0.6021690639464,
             0.4640588712925],
            [0.2887103950577, 0.247611618615, 0.1572119339238, 0.03551044209889, -0.179803892467,
             -0.1253504634062, -0.04593903063835, 0.04261912935982, 0.1278677499172,
             0.1075018993933, 0.06573179769502, 0.01087411414054, -0.04066637911784,
             -0.0605185585905, -0.06832114232491, -0.06252059068128, 0.004200613585475,
             0.0431362738955, 0.07348325208551, 0.0891992889282, 0.004063763259317,
             0.003598303724015, 0.002416401064031, 0.0007533789484429, -0.07633963223126,
             -0.1138263520791, -0.1286495855708, -0.1178579410131, 0.04373470006799,
             0.1065446123819, 0.1481408749132, 0.1602414307293, -0.2219977906034,
             -0.2024927055838, -0.1426701493776, -0.05444113961472, 0.2240415020128,
             0.3053296860805, 0.3258249601741, 0.2814465964454, 0.006111708976356,
             -0.01179177357796, -0.02734744567611, -0.03745808285364, -0.02188523554696,
             0.02342578351401, 0.06407259331803, 0.09196217847287],
            [0.08442796327459, 0.384200500954, 0.5032775397363, 0.3856552876521, 0.1037067261078,
             0.1061135203658, 0.05861346792635, -0.01645341433961, 0.06645528025462,
             -0.06724926048563, -0.1693254232208, -0.1917651936325, -0.08855681371191,
             -0.3061097203196, -0.3796944423646, -0.2747029352763, -0.1660331559251,
             -0.1169550405146, -0.0128711420772, 0.09726625559627, 0.04604951024726,
             0.1429006390242, 0.172543364384, 0.1210362494096, 0.1781504781547, 0.3878252309,
             0.4150997176167, 0.2471463210262, 0.1100866631391, 0.2509516226139, 0.2737901127461,
             0.1678608347653, 0.0003455914160331, -0.08870695103236, -0.1360392283259,
             -0.1193901308662, -0.3346322429572, -0.6929705415059, -0.7253939664209,
             -0.4166532743349],
            [0.1805369010456, 0.5611532596313, 0.4904160747121, 0.3772550918848,
             -0.02440034687899, -0.4064298049726, -0.254168488652, -0.3071121610816,
             -0.1130356838846, -0.1520287988087, 0.2839951669514, 0.4915927220265,
             0.5358831157248, 0.3420842252508, -0.1268639664062, -0.3643039407131,
             -0.8115057091624, -0.6059874388018, -0.1976370068271, 0.04186490388414,
             0.2476935312414, 0.3230793522167, 1.202564025172, 1.114787928031, -0.1252612386138,
             -0.1255101665975, -0.02480724681533, -0.4647954508917, -0.5581122635655,
             -0.2025215032898],
        ],
        "gqa_causal": [
            [0.9916648104525, 0.9050905633252, 0.7322314440303, 0.5756711642109, 0.3211061553593,
             0.03592917828027, 0.5623980544447, 0.3993167120883, 0.1981673654315, 0.9916648104525,
             0.9050905633252, 0.7322314440303, 0.7706559276333, 0.5948316380882, 0.3623003471296,
             0.6512063357286, 0.4705903132614, 0.2451115702352, 0.9916648104525, 0.9050905633252,
             0.7322314440303, 0.8862604984892, 0.7571208160105, 0.5558026406028,
             -0.07549430371044, -0.3336078661851, -0.5599176365815, 0.9916648104525,
             0.9050905633252, 0.7322314440303, 0.5727264063176, 0.3169722155493, 0.0310001568597,
             0.5993808935354, 0.4414883230798, 0.2415074080275, -0.9753733187047,
             -0.9961646088358, -0.9219886775482, -0.9153600609218, -0.8650377933821,
             -0.7322489987935, -0.6631124913463, -0.4797326497795, -0.2506185225642,
             -0.9753733187047, -0.9961646088358, -0.9219886775482, -0.8497716661495,
             -0.7217295035986, -0.5248828031582, -0.1348551513931, 0.1242873841263,
             0.3715812478266, -0.9753733187047, -0.9961646088358, -0.9219886775482,
             -0.836071736128, -0.6917956479469, -0.4815687019534, -0.8039865858729,
             -0.720473715712, -0.5682760255128, -0.9753733187047, -0.9961646088358,
             -0.9219886775482, -0.915808254219, -0.8660170796588, -0.733666019888,
             -0.6452119391361, -0.4577832857501, -0.2267128423687],
            [0, 0, 0, 0, -0.03164807462789, -0.08750133099809, -0.1259325652706, -0.1392898959814,
             0.2299703299145, 0.2714168541972, 0.2588227098686, 0.1946954640513, 0, 0, 0, 0,
             -0.006596753785652, -0.01823885791784, -0.02624949973903, -0.0290337140386,
             0.1504422993265, 0.1898782262659, 0.1915082979555, 0.1550079576752, 0, 0, 0, 0,
             0.0413260262949, 0.1142591563052, 0.1644426261296, 0.1818846160982, -0.3535850566937,
             -0.2975952116946, -0.1823524353951, -0.03080223242236, 0, 0, 0, 0, -0.03028033187712,
             -0.08371976410778, -0.1204901061239, -0.133270169735, 0.207257006062,
             0.2474262391998, 0.238331474205, 0.1817835314948, 0, 0, 0, 0, 0.005754205342661,
             0.00191604656374, -0.002303608190077, -0.00606460120316, -0.07764164097407,
             -0.1248838428459, -0.1472609478684, -0.1403175447498, 0, 0, 0, 0, 0.1046024360896,
             0.03483072401717, -0.04187598706142, -0.1102449464324, 0.167585473426,
             0.2795345304746, 0.3358266425207, 0.3252537238267, 0, 0, 0, 0, -0.1035737203324,
             -0.03448818022973, 0.04146415642581, 0.10916073924, 0.0189057777288,
             -0.05939446211205, -0.125868920338, -0.1672821470771, 0, 0, 0, 0, 0.003402341424966,
             0.001132918310656, -0.001362075404901, -0.003585872013714, -0.08902908109919,
             -0.139879228095, -0.1628786101358, -0.153447916969],
            [0.06746967671684, 0.4139977664839, 0.5658162377801, 0.4515224913257,
             -0.0004051040331852, -0.1003149684225, -0.1530451356982, -0.1337957842587,
             -0.06706457268366, -0.3136827980614, -0.4127711020819, -0.3177267070669,
             -0.2026586739726, -0.400099624418, -0.4093674697706, -0.2261033975469,
             -0.07426831556684, 0.05062575991598, 0.151709749461, 0.1814422733043,
             0.2769269895394, 0.3494738645021, 0.2576577203096, 0.04466112424262],
            [0.2268259485441, 2.00843864861, 2.174599802413, 0.08577447120737, -1.00027066119,
             -1.281766056696, -0.4540408833859, -0.4031470538167, -0.02798913387529,
             -0.1023538820224, 0.1094707883791, 0.233244596744, 0.9816635581038, 0.658787385396,
             -0.19397258592, -0.05465566907362, -0.5019130182523, -0.5454656478535],
        ],
        "two_dims": [
            [0.7952801437161, 0.6648381402178, 0.4710152152234, 0.1259587616925, -0.1308096489768,
             -0.3751076016636, 0.412903808637, 0.3857688011958, 0.3218573505498],
            [0.2331345900473, 0.2986519460777, 0.3047059688681, 0.2500912673959, -0.2779998382634,
             -0.2488991890463, -0.1702412688459, -0.05768732541998, 0.005429967107208,
             0.05231942099658, 0.08879177495908, 0.1075851719527],
            [-0.05175142751001, 0.180276223584, 0.3275171498327, 0.3207216429185,
             -0.007366637628839, -0.01057253245248, -0.008806000063349, -0.002897868246875,
             0.03074746550372, -0.1636992283795, -0.2811556172848, -0.2663801262034, 0, 0, 0, 0,
             0.02837059963512, -0.006004462752023, -0.03755553248458, -0.05144364846825],
            [-0.1013740867038, 0.86183798369, 1.131846154456, 0.01916559204868, -0.1238611537881,
             -0.1672624056884, 0.08713110249078, -0.239742962087, -0.3737840819904, 0, 0, 0,
             -0.1374590366991, 0.1180053902083, 0.2785543014183],
        ],
    },
    "mha": {
        "basic": [
            [-0.02056323287288, 0.51749582813, -0.607919282877, -0.3046331145374,
             -0.09474307450103, -0.2774538205972, -0.1060038996105, 0.2202528280647,
             -0.1777346576042, -0.1478385744557, -0.09275390026889, 0.08350820504482,
             -0.1351056256031, -0.8901051715548, 0.264005639646, 0.6338145499639,
             -0.2340466114245, -0.7173421719072, 0.2699886936692, 0.4578322711363,
             -0.1169183156408, -0.8421298891117, 0.2200044514664, 0.6095148199143],
            [0.5960683314427, 0.02387166857486, 0.3284673831709, 0.0515926168116, 0.224012107476,
             0.2851759407087, 0.2151343185461, 0.2756776332692, 0.05767056361584, 0.5531275672637,
             0.08509675569516, 0.3041051134253, 0.3048754199351, 0.1773445198578, 0.3435280981403,
             0.1742519620668, 0.06693056125947, 0.3218924316971, 0.03187904567207,
             0.5792979613713, 0.07057010776639, 0.3485250291537, 0.03932462799741,
             0.5415802350825],
            [-0.01190603462854, -0.01843298913926, -0.02246512504304, -0.02345671166091,
             0.2306805609394, 0.2458333177055, 0.2277136881764, 0.1787740792059, 0.5433216018955,
             0.5315761302662, 0.4478843231417, 0.3035734740004, 0.06091958384743,
             0.05716194352298, 0.0456677023015, 0.02799255181038, 0.3375239384794, 0.33967614039,
             0.2958547701916, 0.2119908447653, 0.1912389226311, 0.1913273325932, 0.1655204856459,
             0.1173112174581],
            [-0.1122245664994, -0.1454538210775, -0.1589965833275, -0.1510199039108,
             0.03526625400589, 0.03369716035441, 0.02756731412949, 0.01770636126126,
             0.1360932398769, 0.188352483003, 0.2151191011561, 0.2127703581371, -0.207296955968,
             -0.3109534066762, -0.3725237725391, -0.3836747933769, 0.0005342951151178,
             0.02825342868837, 0.05214859323147, 0.0689856903208, -0.06171605925841,
             -0.05362413778561, -0.03827444082574, -0.01774447785362, -0.02440296849256,
             -0.07115209061383, -0.1082711110601, -0.1307361445471, 0.2337467612205,
             0.3308803841074, 0.3832308992354, 0.3837129099693],
            [0.2204880017988, 0.2680895123969, 0.2794063651568, 0.2529068771473, -0.1271130297347,
             -0.1696183348686, -0.1891665940935, -0.1831120422286, 0.2295718160572,
             0.3810628481992, 0.4809788114841, 0.5157965490082, -0.1874789150735,
             -0.3462467586922, -0.4581517278389, -0.5080480099095, 0.1605263251906,
             0.2090676833592, 0.229312711366, 0.218521339644, -0.1241921846948, -0.1532744975237,
             -0.1616118261559, -0.1480757522732, 0.1643784824209, 0.2678152946582,
             0.3350045631419, 0.3568525355817, -0.2737098083139, -0.5335774014245,
             -0.7212277963771, -0.8112633925225],
            [-0.02555604751002, -0.08357910340188, -0.1114548453633, -0.09912838276071,
             -0.626602947114, -0.592292952493, -0.3443405418755, 0.02781686726879,
             -0.06055643829439, -0.01481427062416, 0.03627146318854, 0.07427393643786,
             0.4870788167529, 0.3785627100193, 0.1334975330422, -0.1597207333287, 0.4201238454522,
             0.3169480494335, 0.1560659972704, -0.03323075701822, 0.1222289517795,
             0.03961314316462, -0.05021497103233, -0.1309005207432, 0.1529743205702,
             0.2034396722487, 0.2168650678281, 0.1908061656647, 0.1781584552125, 0.2240720466974,
             0.2291891766024, 0.1925781767582, 0.5412901574087, 0.4802730763871, 0.3791473106345,
             0.2463581002781, 0.9801725518628, 0.8765381799908, 0.6997021333957, 0.4644323880283,
             0.1574105059957, 0.1475645000141, 0.1253950507675, 0.09275357882107,
             -0.3048477447028, -0.2578174263767, -0.1892561949491, -0.1048897530489],
            [0.09736167197753, 1.471523043171, 0.09315985381911, -1.268022004749,
             -1.110223024625e-16, -4.163336342344e-17, 6.938893903907e-17, 1.110223024625e-16,
             -0.3312953803802, -0.1312916672577, 0.2145346765835, 0.3220822966244],
            [-0.637010812838, 1.989706146878, 0.3970944434612, -0.8367711721653, -0.3141075385846,
             1.971055053153, 0.6253633826649, -0.6756775646142, 0.2319210537029, 0.5522711018116,
             0.409407378167, -0.03461848991002, 0.6132052431676, -1.25881691771,
             -0.09736989050883, 0.6310317219755],
            [-0.1072680659358, 0.5844889168326, 0.8610560062182, 0.5259746261073],
        ],
        "no_weights": [
            [-0.02056323287288, 0.51749582813, -0.607919282877, -0.3046331145374,
             -0.09474307450103, -0.2774538205972, -0.1060038996105, 0.2202528280647,
             -0.1777346576042, -0.1478385744557, -0.09275390026889, 0.08350820504482,
             -0.1351056256031, -0.8901051715548, 0.264005639646, 0.6338145499639,
             -0.2340466114245, -0.7173421719072, 0.2699886936692, 0.4578322711363,
             -0.1169183156408, -0.8421298891117, 0.2200044514664, 0.6095148199143],
            [],
            [0.03378946244272, 0.03123581632881, 0.02445454900864, 0.01436347320162,
             0.2256149419699, 0.236569036583, 0.2155046218902, 0.1652726676024, 0.4626399136423,
             0.4536548540888, 0.3832697382256, 0.2610108612931, 0.1424760500303, 0.1418712639473,
             0.1220648678371, 0.08573756449739, 0.3185471320444, 0.3168562963925, 0.2722804474641,
             0.1908527172967, 0.1342602631299, 0.1333875983746, 0.1144615479288, 0.08004366393423],
            [-0.04277585687355, -0.05560432723154, -0.06090701275043, -0.05796621982127,
             0.02150460176257, 0.006017513313238, -0.01028401733361, -0.02519365447885,
             0.1134960732685, 0.1467818268175, 0.1602013486914, 0.1519383695584, -0.2416808053226,
             -0.3399138655355, -0.3921411786561, -0.3912940228631, -0.05327552566986,
             -0.04782650050645, -0.03590438286375, -0.01912277543552, -0.06360599598038,
             -0.04531175829228, -0.0208847866864, 0.006368842822529, -0.01744469072507,
             -0.04335099907948, -0.0633899530772, -0.07484937430164, 0.2837821995404,
             0.3792081105145, 0.4233099826761, 0.4101188345194],
            [0.2204880017988, 0.2680895123969, 0.2794063651568, 0.2529068771473, -0.1271130297347,
             -0.1696183348686, -0.1891665940935, -0.1831120422286, 0.2295718160572,
             0.3810628481992, 0.4809788114841, 0.5157965490082, -0.1874789150735,
             -0.3462467586922, -0.4581517278389, -0.5080480099095, 0.1605263251906,
             0.2090676833592, 0.229312711366, 0.218521339644, -0.1241921846948, -0.1532744975237,
             -0.1616118261559, -0.1480757522732, 0.1643784824209, 0.2678152946582,
             0.3350045631419, 0.3568525355817, -0.2737098083139, -0.5335774014245,
             -0.7212277963771, -0.8112633925225],
            [-0.006518075406654, -0.04853812002882, -0.07305027233649, -0.07121290181852,
             -0.4461026319061, -0.4537918231296, -0.2977965047792, -0.03438480659759,
             -0.05641538850726, -0.02807087305194, 0.01039891759482, 0.04511777744061,
             0.3050372556731, 0.229215540981, 0.07071487197581, -0.1132929316867, 0.3590695454166,
             0.2872434925763, 0.163119447721, 0.009296489592285, 0.146965138009, 0.0993444794091,
             0.03363632039527, -0.03819595304031, 0.1882218650165, 0.2204694017576,
             0.2125764050815, 0.1659799410586, 0.134783705581, 0.1352232607794, 0.1110429196346,
             0.06664516060419, 0.5412901574087, 0.4802730763871, 0.3791473106345, 0.2463581002781,
             0.9801725518628, 0.8765381799908, 0.6997021333957, 0.4644323880283, 0.1574105059957,
             0.1475645000141, 0.1253950507675, 0.09275357882107, -0.3048477447028,
             -0.2578174263767, -0.1892561949491, -0.1048897530489],
            [0.08476553949958, 1.388623593545, 0.08514060191691, -1.283704816484,
             4.163336342344e-17, 1.110223024625e-16, 6.938893903907e-17, 1.665334536938e-16,
             -0.3312953803802, -0.1312916672577, 0.2145346765835, 0.3220822966244],
            [-0.637010812838, 1.989706146878, 0.3970944434612, -0.8367711721653, -0.3141075385846,
             1.971055053153, 0.6253633826649, -0.6756775646142, 0.2319210537029, 0.5522711018116,
             0.409407378167, -0.03461848991002, 0.6132052431676, -1.25881691771,
             -0.09736989050883, 0.6310317219755],
            [-0.1072680659358, 0.5844889168326, 0.8610560062182, 0.5259746261073],
        ],
        "per_head_weights": [
            [-0.02056323287288, 0.51749582813, -0.607919282877, -0.3046331145374,
             -0.09474307450103, -0.2774538205972, -0.1060038996105, 0.2202528280647,
             -0.1777346576042, -0.1478385744557, -0.09275390026889, 0.08350820504482,
             -0.1351056256031, -0.8901051715548, 0.264005639646, 0.6338145499639,
             -0.2340466114245, -0.7173421719072, 0.2699886936692, 0.4578322711363,
             -0.1169183156408, -0.8421298891117, 0.2200044514664, 0.6095148199143],
            [0.6412738566274, 0.01293612902206, 0.3103971437848, 0.0353928705657, 0.2832741210196,
             0.2174978241866, 0.2465320402425, 0.2526960145513, 0.07843602227289, 0.4959670796419,
             0.106349041792, 0.3192478562931, 0.5508628062579, 0.03480720812765, 0.3465376225569,
             0.0677923630575, 0.1647500939323, 0.3528540572308, 0.1837365968497, 0.2986592519872,
             0.03690510495879, 0.6102880548854, 0.0638444695983, 0.2889623705575, 0.2688669771953,
             0.2299238827876, 0.2649152808114, 0.2362938592056, 0.03891253580466, 0.3214500004572,
             0.01530817274948, 0.6243292909886, 0.04205289457558, 0.3509412629673,
             0.01945093115069, 0.5875549113064, 0.3408838626748, 0.1247651569279, 0.4221409154693,
             0.112210064928, 0.09494858671429, 0.3223348629371, 0.04844991859465, 0.534266631754,
             0.09908732095721, 0.3461087953401, 0.05919832484414, 0.4956055588586],
            [-0.05260839647053, -0.06290420403931, -0.06468622268832, -0.05771326455326,
             0.2275334230967, 0.2453987857924, 0.2300505740489, 0.1835660963239, 0.6249939290765,
             0.6106355715836, 0.5136305540978, 0.3471080506647, -0.01553689802831,
             -0.02254516989458, -0.02650205877979, -0.02687201833593, 0.3577372870193,
             0.3639879527647, 0.320974556648, 0.2345187600488, 0.2619483900889, 0.263816736203,
             0.2299787246923, 0.1650141716735],
            [-0.1770029837908, -0.2286464098652, -0.2493436169932, -0.2362933352849,
             0.04678541358577, 0.05292403596852, 0.05189963836081, 0.04385086817317,
             0.1613547397167, 0.2344164507687, 0.2757509949065, 0.2797639354901, -0.1847891087012,
             -0.2995030074341, -0.373680579143, -0.3972822374796, 0.0512454795713,
             0.09992350937099, 0.1350773609397, 0.1519491253817, -0.06065838866544,
             -0.06003028497982, -0.05127736383698, -0.03558429205179, -0.03559723549717,
             -0.1056935502745, -0.161484738853, -0.1954197255869, 0.1986620837809,
             0.3066092564454, 0.3730583046191, 0.3890156613583],
            [0.2204880017988, 0.2680895123969, 0.2794063651568, 0.2529068771473, -0.1271130297347,
             -0.1696183348686, -0.1891665940935, -0.1831120422286, 0.2295718160572,
             0.3810628481992, 0.4809788114841, 0.5157965490082, -0.1874789150735,
             -0.3462467586922, -0.4581517278389, -0.5080480099095, 0.1605263251906,
             0.2090676833592, 0.229312711366, 0.218521339644, -0.1241921846948, -0.1532744975237,
             -0.1616118261559, -0.1480757522732, 0.1643784824209, 0.2678152946582,
             0.3350045631419, 0.3568525355817, -0.2737098083139, -0.5335774014245,
             -0.7212277963771, -0.8112633925225],
            [-0.04649090716238, -0.1171006012182, -0.1454716441917, -0.1213704884107,
             -0.8092507867483, -0.7218039337441, -0.3739995403844, 0.1087079698416,
             -0.06092001387386, -0.001511697070051, 0.05844189485976, 0.09731526363192,
             0.6661593454995, 0.5043078773777, 0.1605505586536, -0.241117983049, 0.4888250272063,
             0.3559407872883, 0.1582509419084, -0.06825141519123, 0.1069279096504,
             -0.01061527973867, -0.1262257610617, -0.2188545073249, 0.1176975911, 0.180627303571,
             0.2106704737044, 0.2023571865592, 0.2032517733354, 0.2885387262708, 0.3212918659346,
             0.2955478772965, 0.5412901574087, 0.4802730763871, 0.3791473106345, 0.2463581002781,
             0.9801725518628, 0.8765381799908, 0.6997021333957, 0.4644323880283, 0.1574105059957,
             0.1475645000141, 0.1253950507675, 0.09275357882107, -0.3048477447028,
             -0.2578174263767, -0.1892561949491, -0.1048897530489],
            [0.1066963864257, 1.553902948244, 0.1021428872428, -1.289738108785,
             -1.110223024625e-16, -1.249000902703e-16, 2.081668171172e-17, 5.551115123126e-17,
             -0.3312953803802, -0.1312916672577, 0.2145346765835, 0.3220822966244],
            [-0.637010812838, 1.989706146878, 0.3970944434612, -0.8367711721653, -0.3141075385846,
             1.971055053153, 0.6253633826649, -0.6756775646142, 0.2319210537029, 0.5522711018116,
             0.409407378167, -0.03461848991002, 0.6132052431676, -1.25881691771,
             -0.09736989050883, 0.6310317219755],
            [-0.1072680659358, 0.5844889168326, 0.8610560062182, 0.5259746261073],
        ],
        "self_batch_first": [
            [0.3546696373862, 0.6401296146464, -1.049137249403, -0.1898624236825,
             -0.1985588189133, 0.1457155796851, -0.2298813090028, -0.1362623245077,
             -0.0679946355092, 0.1434367650192, -0.3592193392449, -0.06439108658753,
             0.3002158053912, 0.6519297351833, -1.001032663499, -0.2275459962595,
             -0.3634001577126, -0.6945197164593, 0.3870622479375, 0.3720164924928,
             0.3881708102114, 0.2854884773687, -0.8918180109185, 0.08013054777612,
             -0.06488094548262, -0.1103119649795, -0.2257994127841, 0.1175688897443,
             -0.2281829301015, -0.5629390410759, 0.181045905509, 0.3512862489023],
            [],
            [-0.1118504876292, -0.1959481870484, -0.2535252185851, -0.2767888011269,
             -0.1949640268852, -0.1874033046936, -0.1544784243604, -0.100645613981,
             0.4806669782546, 0.4485513252558, 0.3557263546331, 0.2147554906986, -0.1765243128349,
             -0.2100058619258, -0.2150641027871, -0.1910144262475, 0.5010385668139,
             0.5968809182603, 0.6119382375151, 0.5441725870543, -0.5961234527858, -0.714023682507,
             -0.7352841564375, -0.6570273691681, 0.4026840909065, 0.4713493006434,
             0.4762195937378, 0.4166357988669, -0.002260506056613, -0.01297279428916,
             -0.0219292756728, -0.02791773246901],
            [-0.03513315091865, -0.07587708959362, -0.08925186125194, -0.07043313273472,
             -0.438913244986, -0.4729996013877, -0.3364731264522, -0.07857946092196,
             -0.07063752574916, -0.01391256421633, 0.04783071438303, 0.0923212646887,
             0.04976774813515, 0.393754151367, 0.5957118712376, 0.5827939575668, 0.2195014357374,
             0.1486814800969, 0.0242315251662, -0.1089588369532, -0.04134845438188,
             -0.252448281937, -0.3724890134144, -0.3581714810916, -0.1206482637841,
             -0.1017195307633, -0.04610015974854, 0.0261477216428, 0.0852796367805,
             0.3668134212421, 0.5160361504998, 0.4791225945455, 0.03691147992572,
             -0.1898512578089, -0.3481338942227, -0.3808432548801, -0.4095861767515,
             -0.7174693656435, -0.7665585100775, -0.5391469610518, -0.1107428518743,
             -0.04168151744183, 0.04241450557033, 0.1112114482791, 0.4349714995089,
             0.807862402968, 0.8893541350603, 0.6500523049618],
            [0.01026914305887, 0.2750174059438, 0.03928997386443, 0.005227683394563, 0,
             1.665334536938e-16, -8.673617379884e-19, -8.326672684689e-17, -0.2339783971303,
             0.06820142638235, 0.2946314965285, 0.1938211498702],
            [0.1205526290936, -1.480873085578, -0.01466868357181, 1.664246459333, 0.4751282578778,
             0.1320685629286, 0.17777171994, 0.3074663098589, 0.4921979989534, 1.651195716443,
             0.2439325323035, -1.267721581375, 0.1596364145693, 1.997401102374, 0.1368166251895,
             -1.942387370219],
            [0.2100278480493, 0.8754085255626, 0.9189454658767, 0.3097123381637],
        ],
        "kdim_vdim": [
            [-0.920925058421, -0.06173424011515, 0.02637865139228, 0.1007483040931,
             -0.7193596587555, -0.03302718221401, -0.150007941223, -0.0826664914308,
             -0.812199485398, -0.03153844996896, -0.05586235548552, -0.001580633619623,
             -0.8648370027485, -0.135263589449, -0.09420160357749, 0.06851735627648,
             -0.7163499774744, -0.04153398035666, -0.1604788896875, -0.08334370622068,
             -0.9650783721906, -0.1309788128653, 0.00979792050467, 0.1554500064033],
            [0.2368836935271, 0.2897010016146, 0.2129031424372, 0.2605121624211, 0.4062513957834,
             0.1102794670542, 0.2547460963929, 0.2287230407695, 0.4431488480172, 0.08875263814626,
             0.2779238733835, 0.1901746404531, 0.2571442093955, 0.2053602834708, 0.3581451761806,
             0.179350330953, 0.226221795325, 0.2827989894988, 0.1853452297831, 0.305633985393,
             0.2682898660443, 0.2086420492589, 0.2901932678623, 0.2328748168344],
            [-0.006795081233149, 0.0003006559107602, 0.007355700687588, 0.0134151858835,
             0.007224300294016, 0.03507865632163, 0.05818528077752, 0.07341680043967,
             -0.09110035229442, -0.09142642397342, -0.07937835806837, -0.05658680377947,
             -0.07042592268762, 0.008679434865499, 0.08661007162664, 0.1528184414993,
             0.008207144396056, -0.02410960870109, -0.05316323936384, -0.07502147497872,
             -0.01805586102709, 0.04933364807854, 0.1100460793513, 0.1558642900334],
            [0.1996179126166, 0.1399419678015, 0.00706757391975, 0.01064423146195,
             -0.01105364578012, -0.02696977119785, -0.07051975913388, -0.03474985164376,
             0.01919641341501, -0.04115994427604, -0.0355631517791, -0.01136459460034,
             0.04868996464285, 0.04294235361787, 0.01473319132644, 0.05608560230609,
             0.07037739644506, 0.04785738673376, -0.1777881181256, -0.1481344697756,
             -0.0409971786612, -0.02556988949199, -0.02376059888585, -0.009523020935581],
            [-0.1319506968327, 0.3491033864193, 0.4424163794424, 0.04434769020916,
             -0.4029769570576, 0.1986494863152, -0.1615139373694, -0.3422875510464,
             -0.1428902658508, 0.2152119463647, 0.002341714435132, 0.03569958124018,
             0.02940674544747, -0.00954748517396, -0.03789754392451, 0.09076826888952,
             -0.2644377222632, -0.3259388262201, -0.02542718340086, 0.3033258463451,
             -0.1865167014738, 0.1346927932968, 0.3063021049968, 0.1377087238814,
             -0.1838345649375, 0.2427032838392, -0.1050591550019, -0.3361348102607,
             -0.1938732741185, 0.1637188420102, -0.0234616655892, 0.1660485617881,
             0.1711324762642, -0.01385650886934, -0.1834553887653, 0.08266043923297,
             -0.2889040504047, -0.3395894657245, -0.01310068339245, 0.3279387262292],
            [0.5146197591187, 0.6774597966328, 0.5959373998415, 0.2994580204474, -0.3502298963569,
             -0.4859753807409, -0.4464276187349, -0.2458516448743, 0.001719535733617,
             -0.00870315402661, -0.01598658162745, -0.01750358585951, -0.3824931873382,
             -0.4078829359099, -0.2861476925249, -0.06119784206823],
            [0.3993352144673, 0.4509947891588, 0.4205424187872, 0.3505021361721, 0.4096209660061,
             0.3941607207245, 0.1193020464553, 0.1461145981187, 0.1463242839796, 0.24908571976,
             0.4978594421304, 0.6559886423375],
            [-1.001278930525, -0.8026644297184, -0.5370176172144, -0.2265232557578,
             0.1028885722322, -0.2251517853627, -0.2819520369871, -0.3152058398997,
             -0.3221360942323, -0.3021640388598, 0.7035472518993, 0.4026473327464,
             0.06812142929231, -0.2720934479254, -0.5895851893756, -0.04953571258934,
             -0.04744765311815, -0.04139713342649, -0.03188944602128, -0.01971859926029],
            [0.8780908561954, -0.5957728218446, 0.1308494221406, -0.2365164188388,
             8.326672684689e-17, 1.110223024625e-16, 0, 5.551115123126e-17, -0.01905916592211,
             0.684827009136, -0.3584041230377, -0.4872816476743],
            [0.05431284556304, 0.5492877034366, 0.6240043866927, 0.2682507335605, 0.4390110260644,
             0.3493222701506, -0.1686086024908, 0.1790058219014, 0.5118590827118,
             -0.09878315676612, -0.8414509926509, -0.0373953214154, 0.2211096238925,
             -0.4767182739565, -0.9165712740347, -0.2272328138838],
            [-0.1072680659358, 0.5844889168326, 0.8610560062182, 0.5259746261073],
        ],
        "bias_kv_zero_attn": [
            [-0.3344896561994, 0.9823990297073, 0.355746959395, -0.6544977832047, -0.418376638174,
             0.4591329308721, -0.01931995713926, -0.4602008721849, -0.4927303325274,
             0.3004483919687, -0.08414762371281, -0.3583763331389, -0.5465881771451,
             0.2005893753737, -0.117875588819, -0.2880999344676, -0.5704287989358,
             -0.1932263560701, -0.4394486401912, -0.1763342076222, -0.5288592195394,
             0.206196231283, -0.1306868030745, -0.3049434379263],
            [0.4275781241408, 0.01781211332279, 0.2379405534631, 0.03809496614811,
             0.1701828735413, 0.1083913693839, 0.1417785792062, 0.1857195749298, 0.1370921904064,
             0.1779828794532, 0.185592657337, 0.1718341186675, 0.04470864306939, 0.4239833576085,
             0.06579387514738, 0.2339791489259, 0.09271350357504, 0.1388214716738,
             0.2366613673882, 0.1411108560328, 0.2648828541448, 0, 0.1549535907851,
             0.202391331649, 0.08300050641743, 0.3992386125539, 0.03953171913292, 0,
             0.2720784478118, 0.206150714084, 0.08001005492454, 0.3860856861895, 0.04483685901063,
             0, 0.2945791249787, 0.1944882748967],
            [0.1865355512718, 0.1645001420776, 0.1202004103583, 0.05963211698257, 0.2615260887007,
             0.2722667909474, 0.2461574603007, 0.1867318721791, 0.398279632657, 0.3951640038156,
             0.338564780856, 0.2361424030867, 0.07333463674432, 0.07592700272088,
             0.06824300506884, 0.05132263682314, 0.03468378464446, 0.04363369328143,
             0.04667798622767, 0.04340463271433, 0.0409326149577, 0.03178606452607,
             0.01833741937599, 0.002406890538104],
            [-0.01413718516521, -0.007492944994894, 0.0001654301294871, 0.00780141506191,
             0.01402743532165, -0.03669263600328, -0.08244653117811, -0.1170416751321,
             0.05829117870194, 0.08191876530544, 0.09445903132315, 0.09421471057862,
             0.1133225054091, 0.1653650116075, 0.1950261392471, 0.1982913938486, 0.1243162662758,
             0.1811359761424, 0.2134397813854, 0.2168555135092, -0.06337776936141,
             0.005465064156493, 0.07356822687859, 0.1317142752168, -0.05215398443874,
             -0.08919939447866, -0.1141720849292, -0.12369211929, 0, 0, 0, 0],
            [0.4903862317552, 0.4362270894746, 0.3230266570675, 0.1661060820129, -0.3441669017715,
             -0.2698818359893, -0.1590695297789, -0.0267279089418, 0.4883849874978,
             0.3154546631661, 0.09982903003952, -0.1293079939837, -0.6220659488067,
             -0.3551878295347, -0.04023670379655, 0.2801602710415, 0.3503345313505,
             0.2969528148735, 0.203379927972, 0.08228052191785, -0.3133759295909,
             -0.2619290577061, -0.1750313166255, -0.06444390794869, 0.3479588351067,
             0.234100582488, 0.08855791424511, -0.06897065224693, 0, 0, 0, 0],
            [-0.04488581684372, -0.1336385478679, -0.1741873248916, -0.1519060432945,
             0.07072036258181, 0.1744203380894, 0.2152062061921, 0.1783663425773,
             -0.07383494630563, -0.01299025448643, 0.05254007362341, 0.0991189888922,
             0.3710344934418, 0.2586466479265, 0.05296393114889, -0.1718230855596,
             0.2753463269424, 0.3434735113073, 0.3490649884553, 0.2911027265258, 0.3248302841989,
             0.448107871952, 0.4897991313293, 0.4423133972457, 0.1494551924984, 0.2186304994879,
             0.2480000792392, 0.2322166564023, 0.03956587242066, 0.1074931698542, 0.1558493470222,
             0.1758302672505, -0.4721180597972, -0.1906669455624, 0.1067071941015,
             0.3951699760042, 0.1896119285384, 0.2698417881749, 0.3275365532136, 0.357878004072,
             -0.04885690376944, -0.2902323413369, -0.5073698233541, -0.6821357103612,
             -0.1911756148629, -0.135255022437, -0.06803897890228, 0.004859152778539],
            [-0.03138655661141, 0.4638696854512, 0.1272713263502, -1.563277545665,
             0.3874395718811, 0.5860569647387, -0.1084118353017, -0.03442655482711,
             -0.4619510444346, 0.2114384310583, 0.110329439509, -0.4737255922183],
            [-0.3036520670711, -0.3991574786764, 0.0724592108829, -0.02308333164613],
            [0.2483016657932, 0.308553874261, -0.3264950171528, -0.03372226895771],
            [-0.1415862372725, 0.2385543894611, 0.1254094685418, 0.4133094757639,
             -0.07386449595193, 0.6635794175085, 0.3944083411236, -0.0273308681061,
             0.04632666149584, 0.617232859762, 0.3832404690769, -0.4485568143917, 0.133609818307,
             0.1324368500982, 0.09983891575144, -0.5511518156243],
            [-0.1072680659358, 0.5844889168326, 0.8610560062182, 0.5259746261073],
        ],
        "bias_kv_zero_attn_sdpa": [
            [-0.3451329606447, 1.109117979598, 0.4775347774957, -0.6743972887772,
             -0.4077707499029, 0.4604388363761, -0.02878044267273, -0.4698045189853,
             -0.4507802980074, 0.3116032478722, -0.1163137937409, -0.3977439648506,
             -0.5687468537435, -0.5335309226825, -0.7396099018819, -0.09929947932146,
             -0.6297164100504, -0.4135260402784, -0.5733847046267, -0.07350912966192,
             -0.5756620493379, -0.05869329966473, -0.3162171650751, -0.2027815958572],
            [],
            [0.22054687149, 0.1995356890716, 0.1515182872016, 0.08299359596332, 0.3691953228098,
             0.3926237641903, 0.362912420969, 0.2840825840686, 0.2190986171069, 0.2174725107919,
             0.186412520351, 0.1301224697812, 0.1280825504981, 0.1347221466487, 0.1231277322605,
             0.09486855692922, 0.08211186004888, 0.08585885992788, 0.07798526589776,
             0.0595567319738, 0.02517386494271, 0.02626843478551, 0.02380769521089,
             0.01812469577642],
            [0.004714292545714, 0.009929019104071, 0.01379989950583, 0.01580302824772,
             -0.004760523928031, -0.04960469548414, -0.08773510421261, -0.1139909781699,
             0.02518673361798, 0.04312658372115, 0.05522945303362, 0.05985727497106,
             0.04834726321349, 0.08714091564061, 0.1141404539323, 0.1256916172413,
             0.1119932636778, 0.1652641916559, 0.1961673865828, 0.2005202459985,
             -0.04533542863971, 0.0271572679664, 0.09597435575376, 0.1518017647259,
             -0.03118587376741, -0.05017501131333, -0.0623731964596, -0.06612946207097,
             0.07916603738048, 0.0596944921971, 0.03214357753435, 0.0002421804446756],
            [0.4526288533233, 0.3996287424383, 0.2925407560075, 0.1458587506218, -0.2647624434245,
             -0.2046254074013, -0.1167932824275, -0.01315373457922, 0.530636517512,
             0.314881266646, 0.0565083135142, -0.2095127747592, -0.4226220943799,
             -0.2259545832746, 0.001294820676085, 0.2283689767225, 0.3861782882838,
             0.3435343746009, 0.2543946949084, 0.1308238866795, -0.3235518372579,
             -0.2805553610195, -0.1995870328117, -0.09160553601804, 0.3567440518017,
             0.2667829570951, 0.1407140406812, -0.004399861019508, -0.6260584846655,
             -0.3821537759777, -0.08652634647572, 0.2208120181083],
            [-0.01697772406657, -0.1078128368585, -0.1597594319922, -0.1540801666705,
             0.1783047041542, 0.1577547660014, 0.08030205836322, -0.02611592006871,
             -0.07884330319903, -0.03078382286593, 0.0283795044115, 0.07730623194258,
             -0.01338667332969, 0.05691732592126, 0.1066910200745, 0.1179808403308,
             0.1925870743752, 0.2264764556672, 0.2191316082433, 0.1718897974614, 0.2921860954737,
             0.3645977055957, 0.3706275581193, 0.3091778068366, 0.2332517786051, 0.3307434309961,
             0.3680171228058, 0.3382864888527, -0.03490329483589, -0.006097005547986,
             0.0238193563985, 0.04939896383905, -0.9291942940993, -0.819948571344,
             -0.6422270993522, -0.4108717979411, 0.1230432536334, 0.1537799055235,
             0.1716740516563, 0.1752313116446, 0.3994477337827, 0.3330903256759, 0.2389157953602,
             0.1247888696585, -0.3451860566578, -0.3429568339355, -0.3120865147101,
             -0.2551531487665],
            [0.01882150355009, 0.4397396308365, 0.05901964006812, -1.702604620073,
             0.2806318866169, 0.4045262546389, -0.1011820428651, -0.2048279388837,
             0.05096216400452, 0.3919582089497, -0.3172827496293, -0.3585851835607],
            [-0.2139322749349, -0.2856661244512, 0.0573291584285, 0.08834477054831],
            [-0.03627987406284, 0.1921880707526, -0.08306105739511, -0.07962113026468],
            [-0.3706409129981, 1.002000388743, 0.2138578010286, -0.5111975324811,
             -0.2113452748658, 1.200595596394, 0.4660586273021, -0.5653795950452,
             0.09807882526368, 0.5463514373655, 0.3871961498806, -0.2179460118248,
             0.3378329353701, -0.4959917745217, 0.03329008556226, 0.2843048464658],
            [-0.1072680659358, 0.5844889168326, 0.8610560062182, 0.5259746261073],
        ],
        "no_bias": [
            [0.4113122947525, -0.3933579205514, 0.3624678240438, -0.3196578376042,
             -0.03741564492839, 0.02113626170457, -0.004161804611081, -0.01294951498328,
             -0.2360014589487, 0.2100968493593, -0.1772831263168, 0.1386393813735,
             -0.5352836018306, 0.4994917017472, -0.4472738302759, 0.380347191646,
             -0.5813641988555, 0.5341726656337, -0.4694146645584, 0.3892197867098,
             -0.4929864590464, 0.4610554485329, -0.413962457191, 0.3532561556506],
            [0.5511788996888, 0.03788961156007, 0.3354567625851, 0.07547472616595,
             0.1500171591733, 0.3701531024607, 0.1630077923183, 0.3168219460476, 0.03152940019268,
             0.6198591290731, 0.05324969736231, 0.2953617733719, 0.3280576403299, 0.1319975360329,
             0.4275798800743, 0.1123649435628, 0.08782503408886, 0.3344310009248,
             0.04644139565958, 0.5313025693267, 0.09236845112815, 0.3586446036948,
             0.05729933934421, 0.4916876058328],
            [-0.0332796833545, -0.03810342053328, -0.03777003849411, -0.03232465893202,
             0.07870693143029, 0.08602327956882, 0.08169678037116, 0.06631300520718,
             0.2377781111988, 0.2315898979387, 0.1940570784299, 0.1302595437185,
             -0.01812044686303, -0.02151164838552, -0.02199134921474, -0.01949462409382,
             0.1341323476723, 0.1392471684047, 0.1255155381315, 0.09479596859225, 0.1360140784717,
             0.139452566765, 0.1240168043483, 0.09179594925207],
            [-0.08517782163244, -0.1133920417065, -0.1262591808816, -0.1220377322331,
             0.02589842225492, 0.03293299971779, 0.03551025016454, 0.03328135483763,
             0.1053871488421, 0.1481916562466, 0.1709391181766, 0.1705507723731,
             -0.03636550288895, -0.07213583742267, -0.09814292476574, -0.110866827651,
             0.006967906000657, 0.02586497174784, 0.04126133490702, 0.05107316995221,
             -0.02259063030257, -0.02877108915938, -0.03105751606974, -0.02914045387746,
             -0.02717723321028, -0.06066458628796, -0.085941272202, -0.09958621009224,
             0.0330577109366, 0.06797392686426, 0.09369019067094, 0.1067259266909],
            [0.06778574226647, 0.07834718508255, 0.07830470394097, 0.06766404846495,
             -0.07372437840427, -0.08681553841909, -0.08815662257899, -0.07756612143424,
             0.184314326666, 0.221228496951, 0.2282004280034, 0.2042865016622, -0.143175350652,
             -0.171267197164, -0.1761788319906, -0.1572454883995, 0.0599731000257,
             0.06962697674467, 0.06985716879617, 0.06063252076589, -0.07186775424183,
             -0.08450223133423, -0.08569972783344, -0.07529816820598, 0.1153397623156,
             0.1371501603717, 0.1403979276219, 0.1246434940049, -0.2012180504949,
             -0.2422505449021, -0.2504955645055, -0.2248371845808],
            [-0.03230487600981, -0.05606769312152, -0.05960667105463, -0.04164528643908,
             -0.3977883290508, -0.2920016790513, -0.08088886583304, 0.1594008819596,
             -0.01428752126093, 0.004019867536619, 0.02087727417772, 0.03020416525894,
             0.2039020656112, 0.1737720344323, 0.08096174154761, -0.04105177247064,
             0.07307427912534, 0.02021959394501, -0.03631644238864, -0.08624039850764,
             -0.1370980769207, -0.1890873486627, -0.2066497703417, -0.186587778175,
             -0.03190231283706, -0.01075953688755, 0.01234221181076, 0.03319683250998,
             0.07977223745765, 0.1157452642507, 0.1306447243243, 0.1217578953223, 0.1911284187651,
             0.1551672425297, 0.1062477009035, 0.04845517482643, 0.2896482544267, 0.2356347686336,
             0.1619428933753, 0.07472680288571, 0.2399434107596, 0.1958541004515, 0.1354085737439,
             0.06365477251244, 0.06068294857736, 0.04991990670917, 0.0349879411631,
             0.01713405396351],
            [-0.265218196934, 0.7371674730302, 0.4039475137889, -0.6748614016374,
             -0.2133573859601, 0.6944275657372, 0.3418696618894, -0.6379948048388,
             -0.009938816099698, 0.158403186015, 0.0369457535756, -0.1479305726852,
             0.2005397610217, -0.4901424067175, -0.2942224564627, 0.4472156840072],
        ],
        "kpm_bool_sdpa": [
            [-0.02056323287288, 0.51749582813, -0.607919282877, -0.3046331145374,
             -0.08027592605358, -0.033788217534, -0.2515792746881, 0.0549164147907,
             -0.1777346576042, -0.1478385744557, -0.09275390026889, 0.08350820504482,
             0.09299827149741, -0.22378106147, -0.3226247434906, 0.2831364245955,
             -0.2340466114245, -0.7173421719072, 0.2699886936692, 0.4578322711363,
             0.09610457942796, -0.2110739355298, -0.332568326468, 0.2757796046243],
            [],
            [0.03378946244272, 0.03123581632881, 0.02445454900864, 0.01436347320162,
             0.109492900165, 0.1088010085288, 0.09338341079686, 0.06532680649494, 0.4626399136423,
             0.4536548540888, 0.3832697382256, 0.2610108612931, -0.01367409953951,
             -0.0230285449281, -0.02926618479247, -0.03154278383905, 0.3185471320444,
             0.3168562963925, 0.2722804474641, 0.1908527172967, -0.01744972702232,
             -0.02718095248123, -0.03323336353342, -0.03478779473611],
            [-0.04277585687355, -0.05560432723154, -0.06090701275043, -0.05796621982127,
             0.1363757605428, 0.1513082996699, 0.145761970256, 0.1204874419683, 0.1134960732685,
             0.1467818268175, 0.1602013486914, 0.1519383695584, -0.05795101366033,
             -0.08574374215388, -0.101931457389, -0.1043232280486, -0.05327552566986,
             -0.04782650050645, -0.03590438286375, -0.01912277543552, -0.07842474688249,
             -0.06556455751606, -0.04383051286707, -0.01616421391976, -0.01744469072507,
             -0.04335099907948, -0.0633899530772, -0.07484937430164, 0, 0, 0, 0],
            [0.2204880017988, 0.2680895123969, 0.2794063651568, 0.2529068771473, -0.1848632139654,
             -0.2650901925136, -0.3094384570993, -0.3119056781581, 0.2295718160572,
             0.3810628481992, 0.4809788114841, 0.5157965490082, -0.3632745447828,
             -0.7229432703477, -0.9847650157513, -1.113303436014, 0.1605263251906,
             0.2090676833592, 0.229312711366, 0.218521339644, -0.1643561790687, -0.2146835296477,
             -0.2359544716148, -0.2252900827613, 0.1643784824209, 0.2678152946582,
             0.3350045631419, 0.3568525355817, 0, 0, 0, 0],
            [-0.06089233217449, -0.08473612567156, -0.0780152627187, -0.0431539852266,
             -0.6581592064399, -0.6470938992025, -0.4026192572425, -0.01291825308805,
             -0.03720019547789, -0.008481400185222, 0.02329666977714, 0.0466715385957,
             0.4781547514087, 0.4476738953431, 0.2557152905096, -0.02848083334519,
             0.2308628275171, 0.1331319925806, 0.01116201536635, -0.1128402132499,
             -0.06229501093296, -0.1722251350169, -0.2507984869941, -0.2837093344789,
             0.1864208308417, 0.2039855386123, 0.1844109052135, 0.1312608547989, 0.2496109402538,
             0.3105495926873, 0.3149469464027, 0.2620023818022, 0.2501338977331,
             -0.002913891171694, -0.2557183344715, -0.4871671645555, 0.5570205214207,
             0.2124072513007, -0.1499446260739, -0.4997742905035, 0.09704586672861,
             0.07558871954007, 0.04781898838562, 0.01605578596741, 0.0418073898388,
             0.2291700815042, 0.3973942642656, 0.5324311582885],
            [-0.03773592807291, 0.9251457227367, 0.1315881200122, -0.8738084404694,
             -2.775557561563e-17, -6.938893903907e-17, 1.110223024625e-16, 1.249000902703e-16,
             -0.3312953803802, -0.1312916672577, 0.2145346765835, 0.3220822966244],
            [-0.5274219143584, 0.003298363564034, -0.02537572827774, 0.6452492988214,
             -0.2268101045538, 1.009855474711, 0.423484101015, -0.03205135380727, 0.2349155611613,
             1.299064874375, 0.5715233096149, -0.6865844264412, 0.5297696849469, 0.6654875604566,
             0.3135827037972, -0.8534043763744],
            [-0.1072680659358, 0.5844889168326, 0.8610560062182, 0.5259746261073],
        ],
        "attn_bool": [
            [-0.1771336486414, 0.3412225539209, -0.3565021751942, -0.2636388896417,
             -0.2154317711971, -0.6438303472487, 0.2118196248344, 0.4156192566659,
             -0.1064432994767, -0.05371080816376, -0.2146922285064, 0.05499133242229,
             0.09299827149741, -0.22378106147, -0.3226247434906, 0.2831364245955,
             -0.2340466114245, -0.7173421719072, 0.2699886936692, 0.4578322711363,
             -0.1169183156408, -0.8421298891117, 0.2200044514664, 0.6095148199143],
            [0.9603974511353, 0.03960254886468, 0, 0, 0.3069843905674, 0.397078446044,
             0.2959371633886, 0, 0.05767056361584, 0.5531275672637, 0.08509675569516,
             0.3041051134253, 0.6355496524583, 0.3644503475417, 0, 0, 0.1537252403214,
             0.7738856510835, 0.07238910859508, 0, 0.07057010776639, 0.3485250291537,
             0.03932462799741, 0.5415802350825],
            [0.01997912071923, 0.02015453214655, 0.01760212219702, 0.01266734758341,
             -0.04838647455325, -0.05796293563484, -0.05969438529468, -0.0533464799439,
             0.5813174269138, 0.5779799754985, 0.4964156458262, 0.3476637872824,
             -0.01497238992288, -0.02709468926333, -0.03554984951891, -0.039193504414,
             0.3375239384794, 0.33967614039, 0.2958547701916, 0.2119908447653, 0.1912389226311,
             0.1913273325932, 0.1655204856459, 0.1173112174581],
            [-0.03433171185477, -0.0306327491836, -0.02278778761515, -0.01185860589534,
             0.1076052526319, 0.1263860440435, 0.1280610772975, 0.112403644501, 0.1609811137289,
             0.2047517653705, 0.2208102261032, 0.2069830586004, -0.1725811433997, -0.2610874359,
             -0.3142567687677, -0.3248929222279, -0.07700125994579, -0.09277336999193,
             -0.09598903962922, -0.08621304305764, -0.07744391807087, -0.09958786792359,
             -0.1082530670407, -0.1022667213719, -0.04964814192834, -0.08134564619499,
             -0.1020333988588, -0.1089114096474, 0.1424198088386, 0.2342892597801,
             0.2944487585109, 0.3147559990988],
            [0.3357314289951, 0.3904491289918, 0.3923213710592, 0.3410947560164, -0.2542945437253,
             -0.328575046738, -0.3583844585898, -0.3396882152291, 0.2711465042765,
             0.4336921474383, 0.5375395929862, 0.5686335763357, -0.3556168558616,
             -0.6246460121082, -0.809132260963, -0.8841062541074, 0.1024764767757,
             0.1669315914539, 0.2087932983403, 0.22239581179, -0.03215683970251,
             -0.05116693350966, -0.06325182290122, -0.06677587479081, 0.06561021542009,
             0.1349624707294, 0.186048188763, 0.2119531572391, -0.07042569852747,
             -0.1983290001531, -0.2993894020113, -0.3599288528065],
            [-0.1233751414018, -0.07788116868711, -0.004295149681919, 0.07084014684084,
             -0.8237534141787, -0.5627287173973, -0.09872554142013, 0.4008883287258,
             -0.03161403721875, -0.008439123132009, 0.01777981612374, 0.03758550521896,
             0.7193327674981, 0.4220918975245, -0.02739919318882, -0.4670072863001,
             0.3556311831333, 0.3192837059229, 0.2248047230931, 0.08939588139064,
             0.04584951438147, -0.0399771185056, -0.118525177366, -0.1754935348941,
             0.09430312169727, 0.09289072063007, 0.07456584533344, 0.04266487837723,
             0.1636813504647, 0.2032356420977, 0.2057871250954, 0.1708712547738, 0.4599826566606,
             0.3295815414529, 0.171656330498, -0.0006042866676002, 0.9464791726818,
             0.6895029136754, 0.3749447156735, 0.02907404122446, 0.2516095167979, 0.2015288701237,
             0.1346180942722, 0.05646505861531, -0.2306701297203, -0.1465261331591,
             -0.05014540968421, 0.05042306972915],
            [-0.01557910873116, 0.9926241819551, 0.1161341419349, -1.166915371125,
             5.551115123126e-17, 4.163336342344e-17, 9.71445146547e-17, 1.387778780781e-16,
             -0.3312953803802, -0.1312916672577, 0.2145346765835, 0.3220822966244],
            [-0.7099694212252, 1.282481174871, 0.4115803116637, -0.5915011195887,
             -0.4451495514608, 1.552617230592, 0.7847772047755, -0.7211479955645, 0.1358809246774,
             0.7198564411048, 0.6005100389524, -0.3385296244692, 0.6203888064518, -0.62425214374,
             -0.01032757477425, 0.2845622177947],
            [-0.1072680659358, 0.5844889168326, 0.8610560062182, 0.5259746261073],
        ],
        "attn_3d_kpm_sdpa": [
            [0.09692416094683, 0.6164317102216, -0.7786407314342, -0.3117095544809,
             -0.1328882661713, -0.5764188736028, 0.09300428392729, 0.4121383027444,
             -0.1945516378551, -0.1938783150787, -0.05116449144492, 0.1071700902423,
             -0.28538748528, -1.066607816295, 0.5092576077687, 0.6783553986448, -0.1654668258604,
             -0.8869651451745, 0.2926772978214, 0.6152472732427, -0.177030880132, -1.13325503289,
             0.4367616176099, 0.7840102576316],
            [],
            [0.03928275759464, 0.03614882523013, 0.02812231895253, 0.01628958873247,
             0.2078345594108, 0.2184359986776, 0.1994731502531, 0.1535125467126, 0.5070260714312,
             0.4982979618062, 0.4221275606722, 0.2888241744911, 0.1112101417263, 0.1126944282214,
             0.09892605253027, 0.07176849971223, 0.3348726464296, 0.332301328271, 0.284754584227,
             0.1986676430519, 0.08031173468517, 0.08032738150168, 0.06947109406473,
             0.04921221994975],
            [-0.05323498399641, -0.07003390965903, -0.07735407419322, -0.07420472766973,
             0.00871371593198, -0.009075736593107, -0.02563683074652, -0.03872810012621,
             0.1161044508032, 0.1516009911166, 0.1665790484748, 0.1590114130795, -0.1489600484111,
             -0.2055689940489, -0.2343551407099, -0.2314224184855, -0.04959097331074,
             -0.04323114946615, -0.03102019234781, -0.01461079771749, -0.04809557511098,
             -0.02954479559621, -0.006995266598408, 0.01650103891722, -0.01327849349609,
             -0.03833593199145, -0.05820478193375, -0.07019588769229, 0.1883419075901,
             0.2441895262382, 0.2669872380548, 0.2536494796945],
            [0.1701020582643, 0.2172420743584, 0.2349793948168, 0.2209133565248, -0.1422427528745,
             -0.1797555068495, -0.1929391962437, -0.180009470545, 0.2841086089428,
             0.4828037198258, 0.616153612165, 0.6661100036049, -0.1012707697776, -0.1792897677657,
             -0.233042736773, -0.255254464611, 0.2136248243093, 0.2578593619323, 0.2671938445907,
             0.2403648938468, -0.08702109725286, -0.1044359933302, -0.1077159676417,
             -0.09641709105131, 0.1071291339511, 0.168130182497, 0.2063755995763, 0.2166890474047,
             -0.381959317912, -0.7392357245635, -0.996460043807, -1.118818170727],
            [0.008173585667697, -0.04354171684753, -0.07955134948303, -0.08686649499387,
             -0.4339525541684, -0.478471308177, -0.3504035645181, -0.09594386602946,
             -0.06940566286296, -0.04860355922164, -0.01026995908955, 0.03176805599944,
             0.4843435909863, 0.3772933955156, 0.1341519765747, -0.1573785921365, 0.3023750568447,
             0.2361561118538, 0.1269405776583, -0.005386837183128, 0.07205773491175,
             0.04345345596106, 0.006937671435473, -0.03084124452637, 0.2097608167187,
             0.2248398707842, 0.1989826666895, 0.1368969868154, 0.2745205464763, 0.2598601308975,
             0.1978873709074, 0.09988555399851, 0.4955424191845, 0.5467115947757, 0.5522236555467,
             0.511618276906, 0.9673376824925, 1.032049477372, 1.010572499344, 0.9047003391435,
             0.1602022429771, 0.2103167932921, 0.2428673152022, 0.2551354414173, -0.3391266246072,
             -0.4082476943242, -0.4432750809494, -0.4412835686502],
            [0.1003378567926, 1.330786146175, 0.0965286229845, -1.264977215115, 1.52655665886e-16,
             3.053113317719e-16, 6.938893903907e-18, 1.387778780781e-16, -0.3312953803802,
             -0.1312916672577, 0.2145346765835, 0.3220822966244],
            [-0.5482134828643, 2.669444053733, 0.4716936108197, -1.625878712263, -0.2949105751481,
             2.550614521573, 0.6707917254657, -1.298582382239, 0.1678811470297, 0.6199638568389,
             0.3933950136787, -0.04884207542935, 0.5114190159198, -1.751076215135,
             -0.163448628722, 1.235593048521],
            [-0.1072680659358, 0.5844889168326, 0.8610560062182, 0.5259746261073],
        ],
        "causal_sdpa": [
            [0.3489119640657, 0.8688496941135, -1.166446121531, -0.3554625633659,
             -0.3275437665355, -0.01836460701754, -0.01261035780317, -0.08908829424205,
             0.02648231280306, 0.01682126266867, -0.3855687645569, 0.07640215107707,
             0.0974811161504, 0.645558058794, -0.7948695905156, -0.3321037024159,
             -0.2656851998483, -1.152513526989, 0.5357782821841, 0.7499912306695, 0.3661613942004,
             0.5326766592945, -1.002812202182, -0.1073354107422, -0.1772828449541,
             -0.08701174214895, -0.1259345758155, 0.0405347729498, -0.1146798986063,
             -0.5274814645622, 0.04846435033691, 0.3871663267968],
            [],
            [-0.03360377033634, -0.1099558764095, -0.171425970437, -0.2096943635614,
             -0.2837721561353, -0.3555438084929, -0.3791942743024, -0.3515225739659,
             0.387429547701, 0.4541562742369, 0.4594150795983, 0.4024942091496, -0.2256614218244,
             -0.2958573137816, -0.3260103062479, -0.3120393331471, 0.228376890466,
             0.4656051473604, 0.639815931812, 0.727430631405, -0.256463732602, -0.4729811917468,
             -0.6254828654438, -0.6933283675757, 0.2737854460238, 0.3551373801758,
             0.3884231359457, 0.3691376424407, -0.05727944724609, -0.1175607776539,
             -0.1619308083087, -0.1843842637108],
            [-0.08007162015654, -0.02224186850703, 0.0436106132866, 0.09373257398181,
             -0.2780552858298, -0.1303445617769, 0.06438196243505, 0.2358856575667,
             -0.01460365449546, 0.006010410240548, 0.02445649617566, 0.03408102698711,
             0.065939502747, 0.2440562952723, 0.3341410145782, 0.3036997452876,
             -0.0002965901298313, 0.03789913604827, 0.06242449360987, 0.06443308885641,
             -0.05817800088435, -0.09616925308567, -0.09947187445435, -0.0668945963701,
             0.04418502689416, 0.09789563366499, 0.1162948972843, 0.09274613042428,
             0.1477982373522, 0.2606149393158, 0.2794267995099, 0.1974483053867, -0.3741886377311,
             -0.8792121133501, -1.067100294215, -0.8700811686415, -0.6721431815443,
             -1.022348093777, -1.003787995681, -0.6231575882167, -0.2281749968427, 0.008356199091,
             0.241873280886, 0.3881457114049, 0.4294809689985, 0.9526170366527, 1.132140362718,
             0.9032961717965],
            [-0.04541591006336, -0.07025056493492, 0.01903560469838, 0.2047928302104,
             -9.71445146547e-17, -1.387778780781e-16, -5.551115123126e-17, 4.163336342344e-17,
             -0.2339783971303, 0.06820142638235, 0.2946314965285, 0.1938211498702],
            [0.5154241870387, -1.982614554227, -0.6870334228132, 1.765868424552, 0.7474676517778,
             0.4238973130622, -0.08499959170258, -0.2342807610428, 0.4485497831002,
             2.529295035759, 0.5774134363444, -2.068009333008, -0.1689940359743, 2.838015856658,
             0.8296626166785, -2.432733874684],
            [0.2100278480493, 0.8754085255626, 0.9189454658767, 0.3097123381637],
        ],
        "causal_weights": [
            [0.3489119640657, 0.8688496941135, -1.166446121531, -0.3554625633659,
             -0.5704545162568, -0.5986415003988, 0.5425277785055, 0.1924875281994,
             0.3581360919958, 0.2292700127355, -0.8315340367174, 0.1039122431141,
             -0.2432824782386, 0.5695073973462, -0.4131857052397, -0.4614242410994,
             -0.1086678244611, -0.7739149381025, 0.1750498003887, 0.5654884474631,
             0.1167025341178, 0.6173651205935, -0.7989213411829, -0.3017306541052,
             -0.08563370499388, -0.05059022787203, -0.2371809017881, 0.06397114724648,
             -0.08617832023298, -0.161757654867, -0.1768208508489, 0.1426608706245],
            [1, 0, 0, 0, 0.4571448556239, 0.5428551443761, 0, 0, 0.07595865521286,
             0.2270945320278, 0.6969468127593, 0, 0.3049474412408, 0.2037605462007,
             0.2059252312674, 0.2853667812911, 1, 0, 0, 0, 0.129515069784, 0.870484930216, 0, 0,
             0.07551093126677, 0.3920051408221, 0.5324839279111, 0, 0.329813896022,
             0.1590752738055, 0.1704983830397, 0.3406124471327],
            [0.3491794640703, 0.4812386742562, 0.5481644874742, 0.5408988088685, -0.2969525630897,
             -0.4335776725602, -0.5115200780544, -0.5202306406332, 0.497917838737,
             0.6142079494134, 0.6473678955164, 0.5929096339013, -0.5034788446972,
             -0.8076814449834, -1.002568150696, -1.061761960472, 0.4851024241009, 0.7552418737455,
             0.9231628787785, 0.9661381189216, -0.1269803775014, -0.3173026724097,
             -0.4646795391415, -0.5491642101607, 0.1682119980558, 0.2486692322338,
             0.2954702523891, 0.3022807599971, -0.008042993158385, -0.106385097291,
             -0.1903284775804, -0.2485117913005],
            [0.07108154503607, -0.06010961699602, -0.1696190018846, -0.2179461403712,
             -0.4144981968868, -0.509905946201, -0.4213885992957, -0.1808747141098,
             -0.1551770847965, -0.0589459929755, 0.05854715219186, 0.1549221074646,
             0.2266671371725, 0.381291600139, 0.3983826713776, 0.2717755337382, 0.2141975010166,
             0.0306711841075, -0.1639183504993, -0.299381886258, -0.09115322504204,
             -0.2354025490839, -0.2947412404627, -0.2477655979613, 0.06306613127949,
             0.1733643535929, 0.2211293662955, 0.1891321399501, 0.2791526544254, 0.3848888551015,
             0.351794119924, 0.1918058510694, -1.021524533056, -0.9224775625827, -0.4906892783001,
             0.1180925739093, -1.415211953177, -0.796139755466, 0.1101032081855, 0.9766315081614,
             -0.2529680832449, 0.1905632304629, 0.5653576314912, 0.7362252935883, 1.302095160575,
             1.125688872776, 0.5432421459888, -0.2351541764365],
            [-0.009803927576978, 0.5455957291014, 0.147595633012, -0.2393463606704,
             3.469446951954e-17, 2.428612866368e-16, 1.110223024625e-16, 5.551115123126e-17,
             -0.2339783971303, 0.06820142638235, 0.2946314965285, 0.1938211498702],
            [1.272406446977, -0.104202745681, -1.290648953518, 0.3260139556133, 1.031443132831,
             2.275932592469, -0.1257744718644, -1.647199429368, 0.05779738105831, 3.039366256386,
             1.128443516671, -2.450329796924, -0.9569045614962, 1.643795505338, 1.581075145085,
             -1.512875975731],
            [0.2100278480493, 0.8754085255626, 0.9189454658767, 0.3097123381637],
        ],
        "unbatched": [
            [-0.2098619494049, 0.2531006294023, -0.2763584448188, -0.2186395980797,
             -0.317931997608, -0.7326039166993, 0.3620859089735, 0.4235396166848,
             -0.3098591183694, -0.636136710516, 0.3021072860778, 0.3593448805782],
            [0.887984085495, 0.07604859162588, 0.03596732287908, 0, 0.2384897328405,
             0.3878858552258, 0.3736244119337, 0, 0.3074399922523, 0.3145798857231,
             0.3779801220246, 0],
            [0.02056900349623, 0.02172133117157, 0.0199337785722, 0.01544828255667,
             -0.1299690231888, -0.1378288074484, -0.127034109204, -0.09904594022278,
             0.3513289061734, 0.3633002261664, 0.3261005648661, 0.2447647219181],
            [-0.03014164579222, 0.003563979901546, 0.03678723763503, 0.06503151533134,
             0.01202280832739, -0.009247550879313, -0.02926629745672, -0.04532398796777,
             0.01811883746483, 0.005683570977768, -0.007520940178303, -0.01970752736357, 0, 0, 0,
             0],
            [0.2396613754667, 0.2620223599087, 0.2489198471394, 0.2021272007957,
             0.002583759798893, 0.01626402058516, 0.02774302248319, 0.03546713643653,
             0.01741621451215, 0.04099458249005, 0.05902452604221, 0.06906577689112, 0, 0, 0, 0],
            [-0.09323961544217, -0.02393738601879, 0.05399915343677, 0.1124579841784,
             -0.4546397406984, -0.1381905304584, 0.2281045519479, 0.5121214181897,
             0.0001440593031499, -0.003308718116987, -0.005568027795545, -0.005818927774868,
             0.2740370788106, 0.1123242378063, -0.08990440106269, -0.2597041660596,
             0.1810637153581, 0.2324209563036, 0.2414616622152, 0.2065398053228, 0.02745976565697,
             0.03760137941678, 0.0408969664038, 0.03674650403653, -0.02522505535234,
             -0.04012102639109, -0.04771222231026, -0.04661652545071, 0.03617063108563,
             0.03517831499936, 0.02778113584575, 0.01532588694235, -0.02515802761243,
             -0.04328473105847, -0.05779662926755, -0.06748180098335, 0.241762175436,
             0.1552561346881, 0.05578430496528, -0.04834619752268, 0.2036128646231,
             0.146733053214, 0.07759923453205, 0.001984929255621, 0.0397357076038,
             0.06755861061436, 0.08973954211491, 0.1044261226315],
            [0.04507443116327, 0.26988743161, 0.009635080255615, -0.2215088139448,
             2.775557561563e-17, 1.561251128379e-17, -2.25514051877e-17, -4.163336342344e-17,
             0.1293200332132, 0.4303575338704, 0.2534068342909, -0.2049969992934],
            [0.005460649888607, 0.6642498928217, 0.4683464740844, 0.03849218733932,
             -0.08574266095013, 1.134263604108, 0.752110614073, -0.3238085587544,
             -0.1160389379119, 0.798556674172, 0.5016153067461, -0.4560928971561,
             -0.06390731440812, -0.1044025181443, -0.1052008814893, -0.2643930574333],
            [0.7151224505322, 0.8616593248675, 0.3961191641708, -0.3508030190119],
        ],
        "unbatched_3d_mask_sdpa": [
            [-0.03920240366211, -0.01543190670964, -0.3025297076053, 0.06397481011212,
             -0.1858066487664, -0.4756129217735, 0.09168239045574, 0.3120436171204,
             -0.2658120037786, -0.5465486241973, 0.2098558497577, 0.31939417462],
            [],
            [0.05765612703246, 0.05705421521131, 0.04873028301474, 0.03381093561622,
             -0.2645430142834, -0.2775824240847, -0.2530523549841, -0.1942728367587,
             0.3281198791416, 0.3440027695539, 0.3133264988971, 0.2402429564955],
            [0.01089976630262, 0.0699782563039, 0.1195855175973, 0.1530074400849,
             0.006333053881818, -0.0221574964094, -0.04764913350712, -0.06669168391684,
             0.02109095078332, -0.004345941174674, -0.0291946303824, -0.05009196332608,
             -0.03832377096775, -0.04347481871982, -0.04274175370776, -0.03622379284198],
            [0.09801686460118, 0.1494730052325, 0.1806986758152, 0.1874676283221,
             -0.005326830391419, 0.02146616200641, 0.04535381007899, 0.06310303272173,
             0.05191950760165, 0.06452502271291, 0.06839737870054, 0.06301247034767,
             0.1150518079664, 0.08381677303203, 0.04123753107008, -0.006923017268199],
            [-0.1128521337415, -0.02378471404068, 0.07386194630455, 0.1448663098061,
             -0.4595189388031, -0.07482628510213, 0.3368565062697, 0.6270338204268,
             0.01060865217237, 0.00907522001145, 0.004268320015419, -0.002078179931114,
             0.3144071444948, 0.03872651077412, -0.2509229289067, -0.4500634733948,
             0.2090781620414, 0.2711701431615, 0.283890582895, 0.2449234898521, 0.07780676108697,
             0.08209594236669, 0.07143803851024, 0.04777351809284, -0.1267714279117,
             -0.1536028159402, -0.1524679695749, -0.1235735085918, -0.06672835746958,
             -0.06393174231704, -0.04949517069687, -0.02604708755851, 0.04909103202291,
             0.005397989707205, -0.03874585086889, -0.07965393830049, 0.2895423490742,
             0.1648404573012, 0.02637236821693, -0.1142981366479, -0.1508654942898,
             -0.07336095017196, 0.01027013188162, 0.0930435321245, 0.2058654031655,
             0.1719218250204, 0.12362066862, 0.06499567216345],
            [0.03262203304794, 0.1935216829715, 0.006083878847721, -0.05050478532984,
             1.734723475977e-17, -1.387778780781e-17, -4.336808689942e-18, -2.081668171172e-17,
             0.1293200332132, 0.4303575338704, 0.2534068342909, -0.2049969992934],
            [-0.03454820222922, 0.5994603025096, -0.0237840883134, 0.4449287642381,
             -0.06973388275361, 0.9126292489332, 0.05606275284527, 0.2456726798445,
             -0.05538431545408, 0.5775148324901, 0.09608559100537, -0.1280962324474,
             -0.0016926710574, -0.1678354581043, 0.06785432692974, -0.4108723824115],
            [0.7151224505322, 0.8616593248675, 0.3961191641708, -0.3508030190119],
        ],
    },
}


# ---- float32 row max of the fused kernel (short causal rows, NaN) ----------------------------

def _np_causal_sdpa(q, k, v):
    s = q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1])
    L, S = s.shape[-2:]
    s = np.where(np.tril(np.ones((L, S), bool)), s, -np.inf)
    p = np.exp(s - s.max(-1, keepdims=True))
    return (p / p.sum(-1, keepdims=True)) @ v


@pytest.mark.parametrize("L", [1, 3, 9, 17, 70])
def test_sdpa_float32_causal_rows_of_every_length(L):
    rs = np.random.RandomState(L)
    q, k, v = (rs.randn(2, 3, L, 5).astype(np.float32) * 3 for _ in range(3))
    out = F.scaled_dot_product_attention(torch.tensor(q), torch.tensor(k), torch.tensor(v),
                                         is_causal=True)
    ref = _np_causal_sdpa(q.astype(np.float64), k.astype(np.float64), v.astype(np.float64))
    np.testing.assert_allclose(out.numpy(), ref, rtol=1e-5, atol=1e-5)


def test_sdpa_float32_nan_score_gives_nan_row_only():
    rs = np.random.RandomState(1)
    q, k, v = (rs.randn(1, 1, 11, 4).astype(np.float32) for _ in range(3))
    k[0, 0, 2, 1] = np.nan  # key 2: rows 2.. see it when causal
    out = F.scaled_dot_product_attention(torch.tensor(q), torch.tensor(k), torch.tensor(v),
                                         is_causal=True).numpy()
    assert not np.isnan(out[0, 0, :2]).any()
    assert np.isnan(out[0, 0, 2:]).all()


def test_sdpa_causal_gradients_across_several_query_blocks():
    # L = 70 spans several causal blocks (and a partial last one): gradients of every block
    rs = np.random.RandomState(3)
    q, k, v = (torch.tensor(rs.randn(1, 2, 70, 3), requires_grad=True) for _ in range(3))
    assert gradcheck(lambda q, k, v: F.scaled_dot_product_attention(q, k, v, is_causal=True),
                     (q, k, v))
    # float32 gradients against the float64 ones
    q32, k32, v32 = (t.detach().float().requires_grad_() for t in (q, k, v))
    g = torch.tensor(rs.randn(1, 2, 70, 3))
    F.scaled_dot_product_attention(q, k, v, is_causal=True).backward(g)
    F.scaled_dot_product_attention(q32, k32, v32, is_causal=True).backward(g.float())
    for a, b in ((q32, q), (k32, k), (v32, v)):
        np.testing.assert_allclose(a.grad.numpy(), b.grad.numpy(), rtol=1e-4, atol=1e-4)
