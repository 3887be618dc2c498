"""autograd.Functions behind nn.functional: one graph node per layer (instead of one per
tensor op) with a hand-written backward, for speed (the ops' own derivatives are the op
table's formulas).

Each forward runs with grad mode off (Function.apply turns it off); each backward is written
with ordinary tensor ops."""
from .. import _C
from ..autograd.function import Function


# the dtypes the C formulas of the normalisations cover (Note [C backward formulas]): the
# Python ones reduce float16/bfloat16 in float32
_C_FLOATS = (_C.float32, _C.float64)


def _mean_keep(x, dims):
    return x.mean(dims, keepdim=True)


class NLL(Function):
    """-coef[i] * logp[i, target[i]] (coef: the target's class weight times 0 for ignored
    targets, or None for all ones), reduced: 'mean' divides by the sum of coef."""

    @staticmethod
    def forward(ctx, logp, target, coef, reduction, cls_dim):
        idx = target.unsqueeze(cls_dim)
        picked = logp.gather(cls_dim, idx).squeeze(cls_dim)
        loss = picked.neg_() if coef is None else picked.mul_(coef).neg_()
        ctx.cls_dim, ctx.reduction, ctx.shape, ctx.dtype = cls_dim, reduction, logp.shape, logp.dtype
        ctx.save_for_backward(idx, coef)
        if reduction != "mean":
            ctx._cnode = ("nll", logp, idx, coef, reduction, cls_dim, None)
            return loss if reduction == "none" else loss.sum()
        denom = coef.sum() if coef is not None else _C.tensor(float(target.numel()), dtype=logp.dtype)
        ctx.denom = denom
        ctx._cnode = ("nll", logp, idx, coef, reduction, cls_dim, denom)
        return loss.sum() / denom

    @staticmethod
    def backward(ctx, g):
        idx, coef = ctx.saved_tensors
        if ctx.reduction == "mean":
            g = g / ctx.denom
        gp = (-g).expand(idx.shape) if ctx.reduction != "none" else -g.unsqueeze(ctx.cls_dim)
        if coef is not None:
            gp = gp * coef.unsqueeze(ctx.cls_dim)
        grad = _C.zeros(ctx.shape, dtype=ctx.dtype)
        grad.scatter_(ctx.cls_dim, idx, gp.contiguous() if gp.dim() else gp)
        return grad, None, None, None, None


class LayerNorm(Function):
    """(x - mean) / sqrt(var + eps) over the last n dims, * weight + bias."""

    @staticmethod
    def forward(ctx, x, weight, bias, n, eps):
        dims = tuple(range(x.dim() - n, x.dim()))
        xc = x - x.mean(dims, keepdim=True)
        rstd = (xc * xc).mean(dims, keepdim=True).add_(eps).rsqrt_()
        xhat = xc.mul_(rstd)
        ctx.save_for_backward(xhat, rstd, weight)
        ctx.dims, ctx.n = dims, n
        if x.dtype in _C_FLOATS:
            ctx._cnode = ("layer_norm", xhat, rstd, weight, n)
        ctx.has_bias = bias is not None
        out = xhat * weight if weight is not None else xhat.clone()
        if bias is not None:
            out.add_(bias)
        return out

    @staticmethod
    def backward(ctx, g):
        xhat, rstd, weight = ctx.saved_tensors
        dims, n = ctx.dims, ctx.n
        lead = tuple(range(g.dim() - n))
        gw = gb = None
        if ctx.needs_input_grad[1]:
            gw = (g * xhat).sum(lead) if lead else g * xhat
        if ctx.needs_input_grad[2]:
            gb = g.sum(lead) if lead else g.clone()
        gx = None
        if ctx.needs_input_grad[0]:
            gh = g * weight if weight is not None else g
            gx = gh - gh.mean(dims, keepdim=True) - xhat * (gh * xhat).mean(dims, keepdim=True)
            gx = gx.mul_(rstd)
        return gx, gw, gb, None, None


class BatchNormTrain(Function):
    """Batch normalisation with the batch's statistics (mean, rstd given, computed over dims):
    x * scale + shift, scale = weight * rstd, shift = bias - mean * scale."""

    @staticmethod
    def forward(ctx, x, weight, bias, mean, rstd, dims):
        shape = mean.shape
        scale = rstd if weight is None else rstd * weight.view(shape)
        shift = -mean * scale
        if bias is not None:
            shift = shift + bias.view(shape)
        ctx.save_for_backward(x, weight, mean, rstd)
        ctx.dims = dims
        if x.dtype in _C_FLOATS:
            ctx._cnode = ("batch_norm", x, weight, mean, rstd, dims)
        return (x * scale).add_(shift)

    @staticmethod
    def backward(ctx, g):
        x, weight, mean, rstd = ctx.saved_tensors
        dims = ctx.dims
        shape = mean.shape
        count = x.numel() // mean.numel()
        xhat = (x - mean).mul_(rstd)
        gsum = g.sum(dims, keepdim=True)
        gdot = (g * xhat).sum(dims, keepdim=True)
        gx = None
        if ctx.needs_input_grad[0]:
            scale = rstd if weight is None else rstd * weight.view(shape)
            gx = (g - gsum / count).sub_(xhat.mul_(gdot / count)).mul_(scale)
        gw = gdot.view(-1) if ctx.needs_input_grad[1] else None
        gb = gsum.view(-1) if ctx.needs_input_grad[2] else None
        return gx, gw, gb, None, None, None


class Normalize(Function):
    """(x - mean) / sqrt(var + eps) over dims (biased variance), no affine."""

    @staticmethod
    def forward(ctx, x, dims, eps):
        xc = x - x.mean(dims, keepdim=True)
        rstd = (xc * xc).mean(dims, keepdim=True).add_(eps).rsqrt_()
        xhat = xc.mul_(rstd)
        ctx.save_for_backward(xhat, rstd)
        ctx.dims = dims
        return xhat

    @staticmethod
    def backward(ctx, g):
        xhat, rstd = ctx.saved_tensors
        dims = ctx.dims
        gx = g - g.mean(dims, keepdim=True) - xhat * (g * xhat).mean(dims, keepdim=True)
        return gx.mul_(rstd), None, None


class Embedding(Function):
    """weight.index_select(0, index); the row padding_idx gets no gradient, and with
    scale_grad_by_freq each row's gradient is divided by its index's count in the batch."""

    @staticmethod
    def forward(ctx, weight, index, padding_idx, scale_grad_by_freq):
        ctx.save_for_backward(index)
        ctx.shape, ctx.dtype = weight.shape, weight.dtype
        ctx.padding_idx, ctx.scale = padding_idx, scale_grad_by_freq
        return weight.index_select(0, index)

    @staticmethod
    def backward(ctx, g):
        index, = ctx.saved_tensors
        g = g.reshape(-1, ctx.shape[1])
        if ctx.scale:
            counts = _C.zeros(ctx.shape[0], dtype=ctx.dtype)
            counts.index_add_(0, index, _C.ones(index.shape, dtype=ctx.dtype))
            g = g / counts.index_select(0, index).unsqueeze(1)
        grad = _C.zeros(ctx.shape, dtype=ctx.dtype)
        grad.index_add_(0, index, g.contiguous())
        if ctx.padding_idx is not None:
            grad[ctx.padding_idx] = 0
        return grad, None, None, None


class Linear(Function):
    """x @ w.T + b for a 2-D weight and a contiguous input of 2 or more dims, as one addmm;
    backward: grad_x = g @ w, grad_w = g^T @ x (in w's own layout, no transposed copy),
    grad_b = g summed over the leading dims."""

    @staticmethod
    def forward(ctx, x, w, b):
        flat = x.reshape(-1, x.shape[-1])
        ctx.save_for_backward(flat, w)
        ctx.lead = tuple(x.shape[:-1])
        ctx._cnode = ("linear", x, flat, w)
        out = _C.addmm(b, flat, w.t()) if b is not None else flat.mm(w.t())
        return out.view(*ctx.lead, w.shape[0]) if len(ctx.lead) != 1 else out

    @staticmethod
    def backward(ctx, g):
        flat, w = ctx.saved_tensors
        g2 = g.reshape(-1, w.shape[0])
        gx = (g2 @ w).view(*ctx.lead, w.shape[1]) if ctx.needs_input_grad[0] else None
        gw = g2.t() @ flat if ctx.needs_input_grad[1] else None
        gb = g2.sum(0) if ctx.needs_input_grad[2] else None
        return gx, gw, gb


class Pointwise(Function):
    """f(x) elementwise, with derivative df(x): one node for activations written with
    several tensor ops (or with where / clamp)."""

    @staticmethod
    def forward(ctx, x, f, df):
        ctx.save_for_backward(x)
        ctx.df = df
        if getattr(df, "cnode", None) is not None:
            ctx._cnode = ("unary", df.cnode, x, x)
        return f(x)

    @staticmethod
    def backward(ctx, g):
        x, = ctx.saved_tensors
        return g * ctx.df(x), None, None


class PReLU(Function):
    """x where x >= 0, else weight * x (weight broadcast over the channel dim)."""

    @staticmethod
    def forward(ctx, x, weight_b):
        neg = x < 0
        ctx.save_for_backward(x, weight_b, neg)
        return x.where(neg.logical_not(), x * weight_b)

    @staticmethod
    def backward(ctx, g):
        x, w, neg = ctx.saved_tensors
        gx = gw = None
        if ctx.needs_input_grad[0]:
            gx = g * w.expand(g.shape).where(neg, _C.ones((), dtype=g.dtype))
        if ctx.needs_input_grad[1]:
            gw = (g * x).masked_fill(neg.logical_not(), 0)
        return gx, gw


class BCEWithLogits(Function):
    """Elementwise (1 - y) * x + lw * softplus(-x), lw = 1 + (pos_weight - 1) * y."""

    @staticmethod
    def forward(ctx, x, y, pos_weight):
        sp = (-x.abs()).exp_().log1p_().add_((-x).clamp_min_(0))       # softplus(-x)
        if pos_weight is None:
            loss = (1 - y).mul_(x).add_(sp)
        else:
            lw = (pos_weight - 1) * y + 1
            loss = (1 - y).mul_(x).add_(lw * sp)
        ctx.save_for_backward(x, y, pos_weight)
        return loss

    @staticmethod
    def backward(ctx, g):
        x, y, pw = ctx.saved_tensors
        s = (-x).sigmoid_()                          # sigmoid(-x)
        gx = gy = None
        if ctx.needs_input_grad[0]:
            if pw is None:
                gx = g * ((1 - y) - s)
            else:
                gx = g * ((1 - y) - ((pw - 1) * y + 1) * s)
        if ctx.needs_input_grad[1]:
            if pw is None:
                gy = g * (-x)
            else:
                sp = (-x.abs()).exp_().log1p_().add_((-x).clamp_min_(0))
                gy = g * ((pw - 1) * sp - x)
        return gx, gy, None
