"""The fused attention kernel's float32 row path (Note [Fused attention], Note [Triangular small
products]): float32 operands without a mask whose head sizes are multiples of 8.  Outputs and
the gradients of q, k and v against a float64 NumPy reference, over causal and full attention,
L != S (top-left causal alignment), several query blocks, strided operands (views of a fused
projection), empty operands; the gradients' layout (torch's: (B, H, L, E) laid out as
(B, L, H, E)); the other paths (float64, masks, head sizes not a multiple of 8) agreeing with
it."""
import numpy as np
import pytest

import minitorch as torch
import minitorch.nn.functional as F
from minitorch import _C


def reference(q, k, v, g, causal, scale):
    """float64 forward and backward of softmax(q k^T * scale) v (causal: key j <= query i)."""
    q, k, v, g = (a.astype(np.float64) for a in (q, k, v, g))
    s = q @ np.swapaxes(k, -1, -2) * scale
    L, S = s.shape[-2:]
    if causal:
        keep = np.tril(np.ones((L, S), dtype=bool))
        s = np.where(keep, s, -np.inf)
    s = s - s.max(-1, keepdims=True)
    p = np.exp(s)
    p = p / p.sum(-1, keepdims=True)
    out = p @ v
    gv = np.swapaxes(p, -1, -2) @ g
    gp = g @ np.swapaxes(v, -1, -2)
    gs = p * (gp - (gp * p).sum(-1, keepdims=True)) * scale
    gq = gs @ k
    gk = np.swapaxes(gs, -1, -2) @ q
    return out, gq, gk, gv


def run(q, k, v, g, causal, strided=False):
    ts = []
    for a in (q, k, v):
        t = torch.tensor(a)
        if strided:      # the same values in a (B, L, H, E) buffer: as a projection's split
            t = t.transpose(1, 2).contiguous().transpose(1, 2)
        ts.append(t.requires_grad_())
    out = F.scaled_dot_product_attention(*ts, is_causal=causal)
    out.backward(torch.tensor(g))
    return [out.detach().numpy()] + [t.grad.numpy() for t in ts]


CASES = {
    # name: (B, H, L, S, E, Ev)
    "gpt": (3, 4, 64, 64, 32, 32),
    "blocks": (2, 2, 150, 150, 16, 16),
    "more_keys": (2, 3, 45, 70, 16, 8),
    "more_queries": (2, 2, 70, 45, 16, 24),
    "one": (1, 1, 1, 1, 8, 8),
    "odd_keys": (1, 2, 13, 19, 40, 8),
}


@pytest.mark.parametrize("strided", [False, True])
@pytest.mark.parametrize("causal", [True, False])
@pytest.mark.parametrize("name", sorted(CASES))
def test_against_float64_reference(name, causal, strided):
    B, H, L, S, E, Ev = CASES[name]
    rng = np.random.default_rng(sum(map(ord, name)))
    q = rng.standard_normal((B, H, L, E)).astype(np.float32)
    k = rng.standard_normal((B, H, S, E)).astype(np.float32)
    v = rng.standard_normal((B, H, S, Ev)).astype(np.float32)
    g = rng.standard_normal((B, H, L, Ev)).astype(np.float32)
    got = run(q, k, v, g, causal, strided)
    want = reference(q, k, v, g, causal, 1 / np.sqrt(E))
    for a, b in zip(got, want):
        assert a.dtype == np.float32 and a.shape == b.shape
        np.testing.assert_allclose(a, b, rtol=1e-4, atol=2e-5)


def test_large_scores_underflow_like_libm():
    # scores far below the row's max: exps below float's normal range (libm's values), the
    # row still sums to one
    q = np.zeros((1, 1, 4, 8), np.float32)
    q[..., 0] = 60.0
    k = np.zeros((1, 1, 4, 8), np.float32)
    k[0, 0, :, 0] = [4.0, 0.0, -1.0, 1.0]
    v = np.arange(32, dtype=np.float32).reshape(1, 1, 4, 8)
    g = np.ones((1, 1, 4, 8), np.float32)
    got = run(q, k, v, g, False)
    want = reference(q, k, v, g, False, 1 / np.sqrt(8))
    for a, b in zip(got, want):
        np.testing.assert_allclose(a, b, rtol=1e-4, atol=1e-6)


def test_gradient_layout_as_torch():
    # torch 2.15: _scaled_dot_product_flash_attention_for_cpu_backward's gradients of
    # (2, 3, 5, 8) operands have strides (120, 8, 24, 1)
    q, k, v = (torch.randn(2, 3, 5, 8) for _ in range(3))
    out, lse = _C._sdpa_flash_forward(q, k, v, None, True, 8 ** -0.5)[:2]
    grads = _C._sdpa_flash_backward(q, k, v, None, True, 8 ** -0.5, out, lse,
                                    torch.randn(2, 3, 5, 8))
    for t in grads:
        assert t.shape == (2, 3, 5, 8) and t.stride() == (120, 8, 24, 1)
    # so the gradient of a fused projection's split needs no copy back to (B, L, H * E)
    assert grads[0].transpose(1, 2).is_contiguous()


def test_no_query_gives_zero_key_gradients():
    q = torch.randn(2, 3, 0, 8, requires_grad=True)
    k = torch.randn(2, 3, 4, 8, requires_grad=True)
    v = torch.randn(2, 3, 4, 8, requires_grad=True)
    F.scaled_dot_product_attention(q, k, v).backward(torch.zeros(2, 3, 0, 8))
    assert q.grad.shape == (2, 3, 0, 8)
    assert float(k.grad.abs().sum()) == 0 and float(v.grad.abs().sum()) == 0


@pytest.mark.parametrize("other", ["float64", "mask", "head7"])
def test_other_paths_agree(other):
    rng = np.random.default_rng(3)
    E = 7 if other == "head7" else 16
    q, k, v = (rng.standard_normal((2, 2, 20, E)).astype(np.float32) for _ in range(3))
    g = rng.standard_normal((2, 2, 20, E)).astype(np.float32)
    row = run(q, k, v, g, True)
    ts = [torch.tensor(a).requires_grad_() for a in (q, k, v)]
    if other == "float64":
        ts = [torch.tensor(a.astype(np.float64)).requires_grad_() for a in (q, k, v)]
        out = F.scaled_dot_product_attention(*ts, is_causal=True)
    elif other == "mask":
        mask = torch.ones(20, 20, dtype=torch.bool).tril()
        out = F.scaled_dot_product_attention(*ts, attn_mask=mask)
    else:
        out = F.scaled_dot_product_attention(*ts, is_causal=True)
    out.backward(torch.tensor(g).to(out.dtype))
    got = [out.detach().numpy()] + [t.grad.numpy() for t in ts]
    want = reference(q, k, v, g, True, 1 / np.sqrt(E))
    for a, b, c in zip(got, row, want):
        np.testing.assert_allclose(a, c, rtol=1e-4, atol=2e-5)
        np.testing.assert_allclose(b, c, rtol=1e-4, atol=2e-5)
