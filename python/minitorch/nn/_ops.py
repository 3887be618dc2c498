"""The ops behind nn.functional that are rows of the op table (forms 'n' and 'k', see
_op_table.py): their implementations, which run with grad mode off when the op is recorded
(their derivatives are the rows' declarations), so each is one node of the graph.  nn.functional
calls them through their recorded forms (_op_forms.nn_ops())."""
from .. import _C

def linear(input, weight, bias=None):
    """input @ weight.T + bias as one matrix product (addmm for 2-D inputs with a bias)."""
    if weight.dim() == 2 and input.dim() >= 2 and input.is_contiguous():
        flat = input.reshape(-1, input.shape[-1])
        out = _C.addmm(bias, flat, weight.t()) if bias is not None else flat.mm(weight.t())
        return out.view(*input.shape[:-1], weight.shape[0]) if input.dim() != 2 else out
    out = input.matmul(weight.t() if weight.dim() == 2 else weight)
    return out + bias if bias is not None else out


def gelu(input, *, approximate="none"):
    """x * Phi(x) in one pass (csrc/activation_binding.c; Note [Vectorisable erf])."""
    return _C._gelu(input, approximate == "tanh")


def silu(input):
    return input * input.sigmoid()


def softplus(input, beta=1.0, threshold=20.0):
    x = input
    scaled = x * beta if beta != 1 else x
    soft = scaled.clamp_max(threshold).exp_().log1p_()
    if beta != 1:
        soft.div_(beta)
    return x.where(scaled > threshold, soft)


def mish(input):
    return input * softplus(input).tanh_()


def elu(input, alpha=1.0, scale=1.0, input_scale=1.0):
    """scale * (x where x > 0, else alpha * (exp(x * input_scale) - 1))."""
    x = input
    neg = (x.clamp_max(0) * input_scale).expm1_().mul_(alpha)
    out = x.where(x > 0, neg)
    return out.mul_(scale) if scale != 1.0 else out


def leaky_relu(input, negative_slope=0.01):
    if input.dtype.is_floating_point:
        return _C._leaky_relu(input, negative_slope)   # one pass
    return input.where(input > 0, input * negative_slope)


def hardtanh(input, min_val=-1.0, max_val=1.0):
    return input.clamp(min_val, max_val)


def threshold(input, threshold, value):
    return input.masked_fill(input <= threshold, value)


def hardswish(input):
    return input * (input + 3.0).clamp_(0.0, 6.0).div_(6.0)


def hardsigmoid(input):
    return (input + 3.0).clamp_(0.0, 6.0).div_(6.0)


def hardshrink(input, lambd=0.5):
    return input.masked_fill(input.abs() <= lambd, 0)


def softshrink(input, lambd=0.5):
    return input - input.clamp(-lambd, lambd)


def logsigmoid(input):
    """min(x, 0) - log(1 + exp(-|x|)), without overflow."""
    return input.clamp_max(0) - (-input.abs()).exp_().log1p_()


def prelu(input, weight):
    """input where input >= 0, else weight * input (weight broadcasts)."""
    return input.where(input >= 0, input * weight)


def smooth_l1(input, beta):
    """Elementwise 0.5 * d**2 / beta where |d| < beta, else |d| - 0.5 * beta (d: input)."""
    d = input
    return (d * d).mul_(0.5 / beta).where(d.abs() < beta, d.abs().sub_(0.5 * beta))


def huber(input, delta):
    """Elementwise 0.5 * d**2 where |d| < delta, else delta * (|d| - 0.5 * delta)."""
    d = input
    return (d * d).mul_(0.5).where(d.abs() < delta, d.abs().sub_(0.5 * delta).mul_(delta))


def nll(input, target, coef, reduction, cls_dim):
    """-coef[i] * input[i, target[i]] (input: log-probabilities with the classes in cls_dim;
    coef: each target's weight, 0 for ignored targets, or None for all ones), reduced: 'mean'
    divides by the sum of coef (by the number of targets without coef)."""
    idx = target.unsqueeze(cls_dim)
    picked = input.gather(cls_dim, idx).squeeze(cls_dim)
    loss = picked.neg_() if coef is None else picked.mul_(coef).neg_()
    if reduction == "none":
        return loss
    if reduction == "sum":
        return loss.sum()
    denom = coef.sum() if coef is not None else float(target.numel())
    return loss.sum() / denom


_FUSED_LN = (_C.float32, _C.float64)


def _normalize(x, dims, eps):
    mean = x.mean(dims, keepdim=True)
    xc = x - mean
    rstd = (xc * xc).mean(dims, keepdim=True).add_(eps).rsqrt_()
    return xc.mul_(rstd), mean, rstd


def layer_norm(input, n, weight=None, bias=None, eps=1e-5):
    """(out, mean, rstd): input normalised over its last n dims (biased variance), * weight +
    bias; mean and rstd keep the normalised dims as ones.  Contiguous float32/float64 operands
    in one pass per row (Note [Fused layer norm]), others op by op."""
    if input.dtype in _FUSED_LN and (weight is None or weight.dtype == input.dtype) and \
            (bias is None or bias.dtype == input.dtype):
        r = _C._layer_norm(input.contiguous(), n,
                           None if weight is None else weight.contiguous(),
                           None if bias is None else bias.contiguous(), float(eps))
        if r is not NotImplemented:
            return r
    out, mean, rstd = _normalize(input, tuple(range(-n, 0)), eps)
    if weight is not None:
        out.mul_(weight)
    if bias is not None:
        out.add_(bias)
    return out, mean, rstd


def batch_norm(input, weight, bias, running_mean, running_var, momentum, eps):
    """(out, mean, rstd): input normalised per channel (dim 1) by the batch's statistics, *
    weight + bias; the running statistics (when given) move toward the batch's: new = (1 -
    momentum) * old + momentum * batch (unbiased variance)."""
    c = input.size(1)
    dims = (0,) + tuple(range(2, input.dim()))
    shape = (1, c) + (1,) * (input.dim() - 2)
    mean = input.mean(dims, keepdim=True)
    xc = input - mean
    var = (xc * xc).mean(dims, keepdim=True)
    count = input.numel() // c
    if running_mean is not None:
        running_mean.mul_(1 - momentum).add_(mean.view(c), alpha=momentum)
    if running_var is not None:
        running_var.mul_(1 - momentum).add_(var.view(c) * (count / max(count - 1, 1)),
                                            alpha=momentum)
    rstd = var.add_(eps).rsqrt_()
    out = xc.mul_(rstd)
    if weight is not None:
        out.mul_(weight.view(shape))
    if bias is not None:
        out.add_(bias.view(shape))
    return out, mean, rstd


def embedding(weight, indices, padding_idx=-1, scale_grad_by_freq=False):
    """The rows of weight at the indices, in the indices' shape (+ the rows' dimension): one
    node, as torch's EmbeddingBackward0."""
    return weight.index_select(0, indices.reshape(-1)).view(*indices.shape, weight.shape[1])


def bce_logits(input, target, pos_weight=None):
    """Elementwise (1 - y) * x + lw * softplus(-x), lw = 1 + (pos_weight - 1) * y."""
    x, y = input, target
    sp = (-x.abs()).exp_().log1p_().add_((-x).clamp_min_(0))       # softplus(-x)
    if pos_weight is None:
        return (1 - y).mul_(x).add_(sp)
    lw = (pos_weight - 1) * y + 1
    return (1 - y).mul_(x).add_(lw * sp)


def bce(input, target):
    """Elementwise -(y * log(x) + (1 - y) * log(1 - x)), each log clamped at -100."""
    return -(target * input.log().clamp_min(-100) + (1 - target) * (1 - input).log().clamp_min(-100))


# ---- losses recorded as one node with their reduction (torch's MseLossBackward0,
# BinaryCrossEntropyWithLogitsBackward0) -----------------------------------------------------
def _reduced(loss, reduction):
    if reduction == "mean":
        return loss.mean()
    if reduction == "sum":
        return loss.sum()
    return loss


def mse_loss(input, target, reduction):
    """(input - target)**2 reduced ('mean', 'sum' or 'none'); input and target of one shape."""
    d = input - target
    return _reduced(d.mul_(d), reduction)


def bce_logits_loss(input, target, pos_weight, reduction):
    """bce_logits(input, target, pos_weight) reduced ('mean', 'sum' or 'none')."""
    return _reduced(bce_logits(input, target, pos_weight), reduction)


def _threshold_backward(grad_output, input, threshold):
    """The gradient of threshold(input, threshold, value) for grad_output: zero where input <=
    threshold (torch's threshold_backward, the node ThresholdBackwardBackward0 when recorded)."""
    return grad_output.masked_fill(input <= threshold, 0)
