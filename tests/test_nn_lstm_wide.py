"""nn.LSTM layers wide enough that a step's weight (4 * hidden x hidden, or hidden x proj) does
not fit the small-batch per-step kernel's bound, so the fused layer's steps go to the BLAS:
outputs, final states and every gradient agree with the same layer computed step by step
through nn.LSTMCell (recorded ops), for few and many rows, packed inputs, both directions and a
projection."""
import numpy as np
import pytest

import minitorch as torch
import minitorch.nn as nn
from minitorch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence


def _stepwise(lstm, x, lengths=None):
    """The layer (one layer, batch_first=False) computed with LSTMCell-style recorded ops: for
    each direction, out (T, B, P) and the final (h, c); padded steps keep the state."""
    T, B, _ = x.shape
    H, P = lstm.hidden_size, lstm.proj_size or lstm.hidden_size
    lengths = lengths or [T] * B
    outs, hs, cs = [], [], []
    for sfx in ([""] + (["_reverse"] if lstm.bidirectional else [])):
        w_ih, w_hh = getattr(lstm, "weight_ih_l0" + sfx), getattr(lstm, "weight_hh_l0" + sfx)
        b_ih, b_hh = getattr(lstm, "bias_ih_l0" + sfx), getattr(lstm, "bias_hh_l0" + sfx)
        w_hr = getattr(lstm, "weight_hr_l0" + sfx, None)
        h, c = x.new_zeros(B, P), x.new_zeros(B, H)
        out = [None] * T
        steps = range(T - 1, -1, -1) if sfx else range(T)
        for t in steps:
            gates = x[t] @ w_ih.t() + b_ih + h @ w_hh.t() + b_hh
            i, f, g, o = gates.chunk(4, 1)
            c_new = torch.sigmoid(f) * c + torch.sigmoid(i) * torch.tanh(g)
            h_new = torch.sigmoid(o) * torch.tanh(c_new)
            if w_hr is not None:
                h_new = h_new @ w_hr.t()
            live = torch.tensor([[1.0 if t < n else 0.0] for n in lengths], dtype=x.dtype)
            c = live * c_new + (1 - live) * c
            h = live * h_new + (1 - live) * h
            out[t] = live * h_new
        outs.append(torch.stack(out, 0))
        hs.append(h)
        cs.append(c)
    return torch.cat(outs, 2), torch.stack(hs, 0), torch.stack(cs, 0)


@pytest.mark.parametrize("hidden,proj,batch,bidir", [
    (300, 0, 3, False),     # 4H x H = 360,000 elements: past the bound, few rows
    (300, 0, 40, True),     # more rows than the small kernel takes, both directions
    (96, 0, 5, False),      # within the bound: the small kernel, for comparison
    (300, 272, 4, True),    # projection: H x P and 4H x P both past the bound
])
def test_wide_lstm_matches_stepwise_float64(hidden, proj, batch, bidir):
    torch.manual_seed(0)
    lstm = nn.LSTM(7, hidden, proj_size=proj, bidirectional=bidir).double()
    x = torch.randn(5, batch, 7, dtype=torch.float64, requires_grad=True)
    out, (h, c) = lstm(x)
    params = list(lstm.parameters())
    w = torch.randn(out.shape, dtype=torch.float64)
    loss = (out * w).sum() + h.sum() * 0.5 + (c * c).sum()
    grads = torch.autograd.grad(loss, [x] + params)

    ref_out, ref_h, ref_c = _stepwise(lstm, x)
    ref_loss = (ref_out * w).sum() + ref_h.sum() * 0.5 + (ref_c * ref_c).sum()
    ref_grads = torch.autograd.grad(ref_loss, [x] + params)
    np.testing.assert_allclose(out.detach().numpy(), ref_out.detach().numpy(), rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(h.detach().numpy(), ref_h.detach().numpy(), rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(c.detach().numpy(), ref_c.detach().numpy(), rtol=1e-10, atol=1e-12)
    for g, r in zip(grads, ref_grads):
        np.testing.assert_allclose(g.numpy(), r.numpy(), rtol=1e-9, atol=1e-10)


def test_wide_lstm_packed_matches_stepwise_float32():
    torch.manual_seed(1)
    lstm = nn.LSTM(6, 288, bidirectional=True)
    x = torch.randn(6, 4, 6, requires_grad=True)
    lengths = [6, 4, 3, 1]
    out, (h, c) = lstm(pack_padded_sequence(x, lengths))
    out, _ = pad_packed_sequence(out, total_length=6)
    loss = out.square().sum() + h.sum() + c.sum()
    grads = torch.autograd.grad(loss, [x] + list(lstm.parameters()))
    ref_out, ref_h, ref_c = _stepwise(lstm, x, lengths)
    ref_loss = ref_out.square().sum() + ref_h.sum() + ref_c.sum()
    ref_grads = torch.autograd.grad(ref_loss, [x] + list(lstm.parameters()))
    np.testing.assert_allclose(out.detach().numpy(), ref_out.detach().numpy(), rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(h.detach().numpy(), ref_h.detach().numpy(), rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(c.detach().numpy(), ref_c.detach().numpy(), rtol=1e-4, atol=1e-5)
    for g, r in zip(grads, ref_grads):
        np.testing.assert_allclose(g.numpy(), r.numpy(), rtol=1e-3, atol=1e-4)
