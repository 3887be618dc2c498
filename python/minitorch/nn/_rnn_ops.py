"""The recurrent layers' ops of the op table (form n): one LSTM layer and direction over every
time step (Note [Fused LSTM] in aten_lite/rnn.h), and the same computation step by step with
recorded ops, which the derivative's Python form differentiates (create_graph=True)."""
from .. import _C


def lstm_layer(x, batch_sizes, h0, c0, w_ih, w_hh, b_ih=None, b_hh=None, w_hr=None,
               reverse=False):
    """(out, h_n, c_n, gates, cells, hpre) of one LSTM layer and direction: x (N, I) the input
    rows of every step (packed by step, batch_sizes[t] rows at step t), h0 (B, P) and c0 (B, H)
    the initial state; gates, cells and hpre are what the backward reads."""
    return _C._lstm_forward(x, list(batch_sizes), h0, c0, w_ih, w_hh, b_ih, b_hh, w_hr,
                            bool(reverse))


def lstm_composite(x, batch_sizes, h0, c0, w_ih, w_hh, b_ih=None, b_hh=None, w_hr=None,
                   reverse=False):
    """(out, h_n, c_n) as lstm_layer computes them, step by step with recorded ops."""
    import minitorch as mt
    H = c0.shape[1]
    gx = x.matmul(w_ih.t())
    if b_ih is not None:
        gx = gx + b_ih
    offsets = [0]
    for n in batch_sizes:
        offsets.append(offsets[-1] + n)
    h, c = h0, c0
    outs = [None] * len(batch_sizes)
    steps = range(len(batch_sizes) - 1, -1, -1) if reverse else range(len(batch_sizes))
    for t in steps:
        r, o = batch_sizes[t], offsets[t]
        pre = gx[o:o + r] + h[:r].matmul(w_hh.t())
        if b_hh is not None:
            pre = pre + b_hh
        i, f, g, og = pre[:, :H].sigmoid(), pre[:, H:2 * H].sigmoid(), pre[:, 2 * H:3 * H].tanh(), \
            pre[:, 3 * H:].sigmoid()
        cn = f * c[:r] + i * g
        hn = og * cn.tanh()
        if w_hr is not None:
            hn = hn.matmul(w_hr.t())
        outs[t] = hn
        h = hn if r == h.shape[0] else mt.cat([hn, h[r:]], 0)
        c = cn if r == c.shape[0] else mt.cat([cn, c[r:]], 0)
    return mt.cat(outs, 0), h, c


def lstm_backward(g_out, g_hn, g_cn, x, batch_sizes, h0, c0, w_ih, w_hh, b_ih, b_hh, w_hr,
                  reverse, out, gates, cells, hpre):
    """The Python form of the layer's derivative (Note [Derivative declarations]): the layer
    computed again step by step from the saved arguments (tensors with their history) and
    differentiated with create_graph, so that the gradients have a history too.  Every
    operand's gradient is computed, an operand without history as a new leaf: forward AD's
    double-vjp asks for the gradients of the operands that carry a tangent, which need not
    require grad."""
    import minitorch as mt
    inputs = [None if t is None else t if t.requires_grad else t.detach().requires_grad_()
              for t in (x, h0, c0, w_ih, w_hh, b_ih, b_hh, w_hr)]
    wanted = [t for t in inputs if t is not None]
    with mt.enable_grad():
        res = lstm_composite(inputs[0], batch_sizes, *inputs[1:], reverse)
        grads = mt.autograd.grad(res, wanted, (g_out, g_hn, g_cn), create_graph=True,
                                 allow_unused=True)
    found = dict(zip(map(id, wanted), grads))
    return tuple(found.get(id(t)) if t is not None else None for t in inputs)
