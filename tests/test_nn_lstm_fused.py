"""The fused LSTM layer op (nn/_rnn_ops.py's lstm_layer, Note [Fused LSTM] in aten_lite/rnn.h)
against the same layer computed step by step with recorded ops (lstm_composite): outputs,
final states and the gradients of every operand, at the sizes where the kernel takes its
different paths (blocks of 8 and 4 rows and single rows, 16 columns and fewer, more than 32
rows through the BLAS), packed and reversed, with and without biases and a projection; its
double backward by gradgradcheck in float64; NaN and saturated gates in float32."""
import itertools

import numpy as np
import pytest

import minitorch as torch
from minitorch.nn._rnn_ops import lstm_composite
from minitorch._op_forms import nn_ops


def _fused():
    return nn_ops()["lstm_layer"]


def _operands(batch_sizes, K, H, P, bias_ih, bias_hh, proj, dtype, seed=0, scale=1.0):
    """x, h0, c0, w_ih, w_hh, b_ih, b_hh, w_hr as leaves that require grad (None where absent)."""
    g = np.random.default_rng(seed)
    N, B = sum(batch_sizes), batch_sizes[0]
    P = P if proj else H

    def t(*shape, s=1.0):
        return torch.tensor(g.standard_normal(shape) * s, dtype=dtype).requires_grad_()
    return [t(N, K, s=scale), t(B, P), t(B, H), t(4 * H, K, s=0.5), t(4 * H, P, s=0.5),
            t(4 * H) if bias_ih else None, t(4 * H) if bias_hh else None,
            t(P, H, s=0.5) if proj else None]


def _grads(run, ops, seed=1):
    """run's (out, h_n, c_n), and the gradients of every operand for random output gradients."""
    res = run(*ops)[:3]
    g = np.random.default_rng(seed)
    gos = [torch.tensor(g.standard_normal(tuple(r.shape)), dtype=r.dtype) for r in res]
    wanted = [o for o in ops if o is not None]
    grads = torch.autograd.grad(res, wanted, gos)
    return [r.detach() for r in res], list(grads)


def _close(a, b, dtype, scaled=False):
    """scaled: the absolute tolerance relative to b's largest magnitude (float32 gradients
    through saturated gates, where a last-bit difference of a gate near 1 is multiplied by the
    large inputs)."""
    tol = dict(rtol=1e-10, atol=1e-10) if dtype == torch.float64 else dict(rtol=2e-4, atol=2e-5)
    if scaled:
        tol["atol"] *= 1 + float(b.abs().max())
    np.testing.assert_allclose(a.numpy(), b.numpy(), **tol)


def _compare(batch_sizes, K, H, P=None, bias_ih=True, bias_hh=True, proj=False, reverse=False,
             dtype=torch.float64, scale=1.0):
    ops = _operands(batch_sizes, K, H, P, bias_ih, bias_hh, proj, dtype, scale=scale)
    x, h0, c0, w_ih, w_hh, b_ih, b_hh, w_hr = ops

    def fused(*o):
        return _fused()(o[0], batch_sizes, o[1], o[2], o[3], o[4], o[5], o[6], o[7], reverse)

    def composite(*o):
        return lstm_composite(o[0], batch_sizes, o[1], o[2], o[3], o[4], o[5], o[6], o[7],
                              reverse)
    r1, g1 = _grads(fused, ops)
    r2, g2 = _grads(composite, ops)
    for k, (a, b) in enumerate(zip(r1 + g1, r2 + g2)):
        assert tuple(a.shape) == tuple(b.shape) and a.dtype == b.dtype
        _close(a, b, dtype, scaled=scale > 1 and k >= 3)


# rows per step: blocks of 8 (and the rest), of 4, single rows, more than 32 (the BLAS)
BATCHES = {"8": [8] * 5, "11": [11] * 4, "4": [4] * 3, "3": [3] * 3, "40": [40] * 3,
           "packed": [11, 9, 8, 4, 3, 1], "packed_wide": [40, 33, 12, 8, 1]}


@pytest.mark.parametrize("dtype", [torch.float64, torch.float32], ids=["f64", "f32"])
@pytest.mark.parametrize("batch", list(BATCHES))
@pytest.mark.parametrize("reverse", [False, True], ids=["fwd", "rev"])
def test_matches_composite_batches(batch, reverse, dtype):
    _compare(BATCHES[batch], K=5, H=16, reverse=reverse, dtype=dtype)


@pytest.mark.parametrize("H,K", [(1, 1), (5, 3), (20, 7), (64, 64)])
def test_matches_composite_sizes(H, K):
    # columns: 4H = 4 (fewer than 16), 20, 80 and 256 (blocks of 16 and a rest)
    _compare([9, 9, 6], K=K, H=H)
    _compare([9, 9, 6], K=K, H=H, dtype=torch.float32)


@pytest.mark.parametrize("bias_ih,bias_hh", [(False, False), (True, False), (False, True)])
@pytest.mark.parametrize("proj", [False, True], ids=["noproj", "proj"])
def test_matches_composite_biases_projection(bias_ih, bias_hh, proj):
    for reverse in (False, True):
        _compare([10, 8, 8, 3], K=4, H=6, P=3, bias_ih=bias_ih, bias_hh=bias_hh, proj=proj,
                 reverse=reverse)
    _compare([10, 8, 8, 3], K=4, H=6, P=3, proj=proj, dtype=torch.float32)


def test_only_some_operands_require_grad():
    """Gradients for a subset (h0 not wanted: its product is skipped; the weights one at a
    time: each gets its own product)."""
    batch_sizes = [9, 8, 8, 2]
    for wanted in [(0,), (1,), (2,), (3,), (4,), (5,), (6,), (7,), (3, 4), (0, 5, 6), (2, 7)]:
        ops = _operands(batch_sizes, 3, 5, 2, True, True, True, torch.float64, seed=3)
        ops = [o if o is None or i in wanted else o.detach() for i, o in enumerate(ops)]
        res = _fused()(ops[0], batch_sizes, *ops[1:], True)[:3]
        ref = lstm_composite(ops[0], batch_sizes, *ops[1:], True)
        loss1 = sum((r * (k + 1)).sum() for k, r in enumerate(res))
        loss2 = sum((r * (k + 1)).sum() for k, r in enumerate(ref))
        g1 = torch.autograd.grad(loss1, [ops[i] for i in wanted])
        g2 = torch.autograd.grad(loss2, [ops[i] for i in wanted])
        for a, b in zip(g1, g2):
            _close(a, b, torch.float64)


def test_gradient_of_one_output_only():
    """Only out's (or only h_n's / c_n's) gradient arrives: the others count as zeros."""
    batch_sizes = [8, 8, 5]
    ops = _operands(batch_sizes, 4, 8, None, True, True, False, torch.float64)
    for k in range(3):
        res = _fused()(ops[0], batch_sizes, *ops[1:], False)
        ref = lstm_composite(ops[0], batch_sizes, *ops[1:], False)
        g1 = torch.autograd.grad(res[k].sum(), [o for o in ops if o is not None])
        g2 = torch.autograd.grad(ref[k].sum(), [o for o in ops if o is not None],
                                 allow_unused=True)
        for a, b in zip(g1, g2):
            if b is None:
                assert float(a.abs().max()) == 0.0
            else:
                _close(a, b, torch.float64)


@pytest.mark.parametrize("reverse", [False, True], ids=["fwd", "rev"])
def test_gradgradcheck_float64(reverse):
    batch_sizes = [3, 2, 2, 1]
    ops = _operands(batch_sizes, 2, 2, 1, True, True, True, torch.float64, seed=5, scale=0.5)

    def f(*o):
        return _fused()(o[0], batch_sizes, *o[1:], reverse)[:3]
    inputs = tuple(ops)
    assert torch.autograd.gradcheck(f, inputs)
    assert torch.autograd.gradgradcheck(f, inputs)


def test_saturated_gates_float32():
    """Pre-activations far outside the exp's range: gates 0 or 1 exactly as the composite's."""
    _compare([8, 8, 8], K=6, H=16, dtype=torch.float32, scale=200.0)
    _compare([8, 8, 8], K=6, H=16, dtype=torch.float64, scale=200.0)


def test_nan_propagates_float32():
    batch_sizes = [8, 8]
    ops = [o.detach() if o is not None else None
           for o in _operands(batch_sizes, 3, 16, None, True, True, False, torch.float32)]
    ops[0][3, 1] = float("nan")
    out, h_n, c_n = _fused()(ops[0], batch_sizes, *ops[1:], False)[:3]
    o = out.numpy()
    assert np.isnan(o[3]).all() and np.isnan(o[11]).all()  # the row, then its next step
    assert not np.isnan(np.delete(o, [3, 11], 0)).any()
    assert np.isnan(h_n.numpy()[3]).all() and np.isnan(c_n.numpy()[3]).all()


def test_module_float32_matches_its_composite():
    """nn.LSTM (bidirectional, 2 layers, projection, packed input) on the fused op against the
    same parameters run through lstm_composite layer by layer."""
    torch.manual_seed(0)
    m = torch.nn.LSTM(6, 12, num_layers=2, bidirectional=True, proj_size=5)
    lengths = [7, 7, 5, 3, 3, 2, 1, 1, 1]
    seqs = [torch.randn(n, 6) for n in lengths]
    packed = torch.nn.utils.rnn.pack_sequence(seqs)
    out, (h_n, c_n) = m(packed)
    sizes = packed.batch_sizes.tolist()
    x, hs, cs = packed.data, [], []
    for layer in range(2):
        outs = []
        for d, sfx in enumerate(("", "_reverse")):
            w = [getattr(m, f"{n}_l{layer}{sfx}") for n in
                 ("weight_ih", "weight_hh", "bias_ih", "bias_hh", "weight_hr")]
            o, h, c = lstm_composite(x, sizes, torch.zeros(9, 5), torch.zeros(9, 12), *w,
                                     reverse=d == 1)
            outs.append(o)
            hs.append(h)
            cs.append(c)
        x = torch.cat(outs, 1)
    _close(out.data.detach(), x.detach(), torch.float32)
    _close(h_n.detach(), torch.stack(hs, 0).detach(), torch.float32)
    _close(c_n.detach(), torch.stack(cs, 0).detach(), torch.float32)
    g1 = torch.autograd.grad(out.data.sum() + h_n.sum(), list(m.parameters()))
    g2 = torch.autograd.grad(x.sum() + torch.stack(hs, 0).sum(), list(m.parameters()))
    for a, b in zip(g1, g2):
        _close(a, b, torch.float32)


def test_errors():
    ops = [o.detach() if o is not None else None
           for o in _operands([2, 1], 3, 2, None, True, True, False, torch.float64)]
    with pytest.raises(RuntimeError):  # x's rows do not add up to the batch sizes
        _fused()(ops[0], [2, 2], *ops[1:], False)
    with pytest.raises(RuntimeError):  # growing batch sizes
        _fused()(ops[0], [1, 2], *ops[1:], False)
    with pytest.raises(RuntimeError):  # w_ih's columns are not x's
        _fused()(ops[0], [2, 1], ops[1], ops[2], ops[3][:, :2].contiguous(), *ops[4:], False)
    with pytest.raises(RuntimeError):  # b_ih of another size
        _fused()(ops[0], [2, 1], *ops[1:5], ops[5][:4].contiguous(), *ops[6:], False)
    with pytest.raises(RuntimeError):  # mixed dtypes
        _fused()(ops[0].float(), [2, 1], *ops[1:], False)


def test_forward_ad_through_module_with_parameters():
    """Forward AD (its double-vjp goes through the derivative's Python form) with tangents on
    operands that do not require grad while the parameters do: the input, then h0."""
    import minitorch.autograd.forward_ad as fwAD
    torch.manual_seed(0)
    m = torch.nn.LSTM(3, 4).double()
    x = torch.randn(5, 2, 3, dtype=torch.float64)
    h0, c0 = torch.randn(1, 2, 4, dtype=torch.float64), torch.randn(1, 2, 4, dtype=torch.float64)
    eps = 1e-6
    for k in range(2):
        v = torch.randn(*(x.shape if k == 0 else h0.shape), dtype=torch.float64)
        with fwAD.dual_level():
            if k == 0:
                out, (h_n, _) = m(fwAD.make_dual(x, v), (h0, c0))
            else:
                out, (h_n, _) = m(x, (fwAD.make_dual(h0, v), c0))
            t_out, t_h = fwAD.unpack_dual(out).tangent, fwAD.unpack_dual(h_n).tangent
        with torch.no_grad():
            if k == 0:
                plus, minus = m(x + eps * v, (h0, c0)), m(x - eps * v, (h0, c0))
            else:
                plus, minus = m(x, (h0 + eps * v, c0)), m(x, (h0 - eps * v, c0))
        np.testing.assert_allclose(t_out.detach().numpy(), ((plus[0] - minus[0]) / (2 * eps)).numpy(),
                                   atol=1e-7)
        np.testing.assert_allclose(t_h.detach().numpy(),
                                   ((plus[1][0] - minus[1][0]) / (2 * eps)).numpy(), atol=1e-7)
