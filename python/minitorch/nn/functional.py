"""nn.functional: layers and losses as functions of tensors.

Everything here is written with ordinary tensor ops, so gradients flow through them; values
that are only bookkeeping (the max subtracted for a stable softmax, masks, running
statistics) are computed outside the graph.  The convolution and pooling functions live in
nn/_conv.py and are imported on first use, so ``import minitorch.nn`` does not need them."""
import math
import numbers
import warnings

import minitorch as _mt

from .. import _C
from . import _functions as _fn
from ..autograd.grad_mode import no_grad

__all__ = [
    "linear", "bilinear", "identity", "relu", "relu_", "relu6", "leaky_relu", "leaky_relu_",
    "elu", "elu_", "selu", "celu", "gelu", "silu", "mish", "hardtanh", "hardtanh_", "hardswish",
    "hardsigmoid", "hardshrink", "softshrink", "tanhshrink", "softsign", "softplus", "logsigmoid",
    "threshold", "threshold_", "glu", "prelu", "tanh", "sigmoid", "softmax", "softmin",
    "log_softmax", "dropout", "dropout1d", "dropout2d", "dropout3d", "alpha_dropout",
    "feature_alpha_dropout", "embedding", "one_hot", "layer_norm", "group_norm", "batch_norm",
    "instance_norm", "rms_norm", "normalize", "pad", "cosine_similarity", "pairwise_distance",
    "scaled_dot_product_attention", "mse_loss", "l1_loss", "smooth_l1_loss", "huber_loss",
    "nll_loss", "cross_entropy", "binary_cross_entropy", "binary_cross_entropy_with_logits",
    "kl_div", "soft_margin_loss", "conv1d", "conv2d", "max_pool1d", "max_pool2d",
    "max_pool2d_with_indices", "avg_pool1d", "avg_pool2d", "adaptive_avg_pool1d",
    "adaptive_avg_pool2d", "adaptive_max_pool2d",
]


# ---- helpers ---------------------------------------------------------------------------

def _reduction(size_average, reduce, reduction):
    """The reduction string, from torch's old size_average/reduce flags when either is given."""
    if size_average is None and reduce is None:
        if reduction not in ("mean", "sum", "none"):
            raise ValueError(f"{reduction} is not a valid value for reduction")
        return reduction
    size_average = True if size_average is None else size_average
    reduce = True if reduce is None else reduce
    ret = "mean" if (size_average and reduce) else ("sum" if reduce else "none")
    warnings.warn(f"size_average and reduce args will be deprecated, please use reduction='{ret}' instead.",
                  stacklevel=3)
    return ret


def _reduce(loss, reduction):
    if reduction == "mean":
        return loss.mean()
    if reduction == "sum":
        return loss.sum()
    return loss


def _get_softmax_dim(name, ndim, stacklevel):
    warnings.warn(f"Implicit dimension choice for {name} has been deprecated. Change the call to "
                  "include dim=X as an argument.", stacklevel=stacklevel)
    return 0 if ndim in (0, 1, 3) else 1


def _check_p(p, what="dropout"):
    if p < 0.0 or p > 1.0:
        raise ValueError(f"{what} probability has to be between 0 and 1, but got {p}")


# ---- linear --------------------------------------------------------------------------

def linear(input, weight, bias=None):
    """input @ weight.T + bias, as one matrix product (addmm when there is a bias)."""
    nd = input.dim()
    if nd >= 2 and weight.dim() == 2 and input.is_contiguous() and \
            input.shape[-1] == weight.shape[1] and weight.dtype == input.dtype and \
            (bias is None or (bias.dim() == 1 and bias.dtype == input.dtype)) and \
            (input.requires_grad or weight.requires_grad or
             (bias is not None and bias.requires_grad)) and _mt.is_grad_enabled():
        return _fn.Linear.apply(input, weight, bias)
    wt = weight.t() if weight.dim() == 2 else weight
    if nd == 2:
        if bias is not None:
            return _mt.addmm(bias, input, wt)
        return input.mm(wt)
    if nd > 2 and weight.dim() == 2 and input.is_contiguous():
        lead = input.shape[:-1]
        flat = input.reshape(-1, input.shape[-1])
        out = _mt.addmm(bias, flat, wt) if bias is not None else flat.mm(wt)
        return out.view(*lead, weight.shape[0])
    out = input.matmul(wt)
    if bias is not None:
        out = out + bias
    return out


def bilinear(input1, input2, weight, bias=None):
    """out[..., k] = input1 @ weight[k] @ input2 + bias[k]."""
    if input1.shape[:-1] != input2.shape[:-1]:
        raise RuntimeError("bilinear(): input batch dimensions do not match: got "
                           f"{list(input1.shape[:-1])} and {list(input2.shape[:-1])}")
    lead = input1.shape[:-1]
    x1 = input1.reshape(-1, input1.shape[-1])
    x2 = input2.reshape(-1, input2.shape[-1])
    # (B, I) @ (O, I, J) -> (O, B, J), times x2 and summed over J
    t = _mt.matmul(x1.unsqueeze(0), weight)                 # (O, B, J)
    out = (t * x2.unsqueeze(0)).sum(-1).t()                  # (B, O)
    if bias is not None:
        out = out + bias
    return out.reshape(*lead, weight.shape[0])


def identity(input):
    return input


# ---- activations -----------------------------------------------------------------------

def relu(input, inplace=False):
    return input.relu_() if inplace else _mt.relu(input)


def relu_(input):
    return input.relu_()


def _pointwise(input, f, df, inplace=False):
    """f(input) with derivative df as one graph node; inplace writes the result into input."""
    out = _fn.Pointwise.apply(input, f, df)
    return input.copy_(out) if inplace else out


def threshold(input, threshold, value, inplace=False):
    """input where input > threshold, else value."""
    if inplace:
        return input.masked_fill_(input <= threshold, value)
    return input.masked_fill(input <= threshold, value)


def threshold_(input, threshold, value):
    return input.masked_fill_(input <= threshold, value)


def hardtanh(input, min_val=-1.0, max_val=1.0, inplace=False):
    """input clamped to [min_val, max_val] (gradient 1 strictly inside, 0 outside)."""
    if min_val > max_val:
        raise ValueError("min_val cannot be greater than max_val")
    return _pointwise(input, lambda x: x.clamp(min_val, max_val),
                      lambda x: ((x > min_val).logical_and_(x < max_val)).to(x.dtype), inplace)


def hardtanh_(input, min_val=-1.0, max_val=1.0):
    return hardtanh(input, min_val, max_val, inplace=True)


def relu6(input, inplace=False):
    return hardtanh(input, 0.0, 6.0, inplace)


def leaky_relu(input, negative_slope=0.01, inplace=False):
    """input where input > 0, else negative_slope * input."""
    return _pointwise(input, lambda x: x.where(x > 0, x * negative_slope),
                      lambda x: (x > 0).to(x.dtype).mul_(1 - negative_slope).add_(negative_slope),
                      inplace)


def leaky_relu_(input, negative_slope=0.01):
    return leaky_relu(input, negative_slope, True)


def _elu(x, alpha, scale=1.0, input_scale=1.0):
    neg = (x.clamp_max(0) * input_scale).expm1_().mul_(alpha)
    out = x.where(x > 0, neg)
    return out.mul_(scale) if scale != 1.0 else out


def _elu_grad(x, alpha, scale=1.0, input_scale=1.0):
    neg = (x.clamp_max(0) * input_scale).exp_().mul_(alpha * input_scale)
    return neg.masked_fill_(x > 0, 1.0).mul_(scale)


def elu(input, alpha=1.0, inplace=False):
    """input where input > 0, else alpha * (exp(input) - 1)."""
    return _pointwise(input, lambda x: _elu(x, alpha), lambda x: _elu_grad(x, alpha), inplace)


def elu_(input, alpha=1.0):
    return elu(input, alpha, True)


_SELU_ALPHA = 1.6732632423543772848170429916717
_SELU_SCALE = 1.0507009873554804934193349852946


def selu(input, inplace=False):
    """scale * elu(input, alpha) with SELU's constants."""
    return _pointwise(input, lambda x: _elu(x, _SELU_ALPHA, _SELU_SCALE),
                      lambda x: _elu_grad(x, _SELU_ALPHA, _SELU_SCALE), inplace)


def celu(input, alpha=1.0, inplace=False):
    """input where input > 0, else alpha * (exp(input / alpha) - 1)."""
    if alpha == 0:
        raise RuntimeError("ZeroDivisionError")
    return _pointwise(input, lambda x: _elu(x, alpha, 1.0, 1.0 / alpha),
                      lambda x: _elu_grad(x, alpha, 1.0, 1.0 / alpha), inplace)


_SQRT1_2 = 1.0 / math.sqrt(2.0)
_SQRT2_PI = math.sqrt(2.0 / math.pi)
_INV_SQRT_2PI = 1.0 / math.sqrt(2.0 * math.pi)


def _gelu(x):
    return x * (x * _SQRT1_2).erf_().add_(1.0).mul_(0.5)


def _gelu_grad(x):
    cdf = (x * _SQRT1_2).erf_().add_(1.0).mul_(0.5)
    pdf = (x * x).mul_(-0.5).exp_().mul_(_INV_SQRT_2PI)
    return cdf.add_(pdf.mul_(x))


_gelu_grad.cnode = "gelu"  # its C form (Note [C backward formulas])


def _gelu_tanh(x):
    inner = (x * x).mul_(0.044715).add_(1.0).mul_(x).mul_(_SQRT2_PI)
    return x * inner.tanh_().add_(1.0).mul_(0.5)


def _gelu_tanh_grad(x):
    x2 = x * x
    t = (x2 * 0.044715).add_(1.0).mul_(x).mul_(_SQRT2_PI).tanh_()
    dinner = x2.mul_(3 * 0.044715).add_(1.0).mul_(_SQRT2_PI)
    # 0.5 * (1 + t) + 0.5 * x * (1 - t^2) * dinner
    return (1 - t * t).mul_(dinner).mul_(x).add_(t).add_(1.0).mul_(0.5)


def gelu(input, approximate="none"):
    """x * Phi(x) (Phi: the normal CDF); approximate='tanh' uses torch's tanh formula."""
    if approximate == "none":
        return _pointwise(input, _gelu, _gelu_grad)
    if approximate == "tanh":
        return _pointwise(input, _gelu_tanh, _gelu_tanh_grad)
    raise RuntimeError("approximate argument must be either none or tanh.")


def _silu(x):
    return x * x.sigmoid()


def _silu_grad(x):
    s = x.sigmoid()
    return (1 - s).mul_(x).add_(1.0).mul_(s)


def silu(input, inplace=False):
    """input * sigmoid(input)."""
    return _pointwise(input, _silu, _silu_grad, inplace)


def _softplus(x, beta, threshold):
    scaled = x * beta if beta != 1 else x
    soft = scaled.clamp_max(threshold).exp_().log1p_()
    if beta != 1:
        soft.div_(beta)
    return x.where(scaled > threshold, soft)


def _softplus_grad(x, beta, threshold):
    scaled = x * beta
    return scaled.sigmoid().masked_fill_(scaled > threshold, 1.0)


def softplus(input, beta=1.0, threshold=20.0):
    """log(1 + exp(beta * x)) / beta, and x itself where beta * x > threshold."""
    return _pointwise(input, lambda x: _softplus(x, beta, threshold),
                      lambda x: _softplus_grad(x, beta, threshold))


def _mish_grad(x):
    sp = _softplus(x, 1.0, 20.0)
    t = sp.tanh()
    sig = x.sigmoid()
    return (1 - t * t).mul_(sig).mul_(x).add_(t)


def mish(input, inplace=False):
    """x * tanh(softplus(x))."""
    return _pointwise(input, lambda x: x * _softplus(x, 1.0, 20.0).tanh_(), _mish_grad, inplace)


def hardswish(input, inplace=False):
    """x * relu6(x + 3) / 6."""
    def grad(x):
        g = (x * (1.0 / 3.0)).add_(0.5)
        g.masked_fill_(x <= -3, 0.0)
        return g.masked_fill_(x >= 3, 1.0)
    return _pointwise(input, lambda x: x * (x + 3.0).clamp_(0.0, 6.0).div_(6.0), grad, inplace)


def hardsigmoid(input, inplace=False):
    """relu6(x + 3) / 6."""
    return _pointwise(input, lambda x: (x + 3.0).clamp_(0.0, 6.0).div_(6.0),
                      lambda x: ((x > -3).logical_and_(x < 3)).to(x.dtype).div_(6.0), inplace)


def hardshrink(input, lambd=0.5):
    """x where |x| > lambd, else 0."""
    return _pointwise(input, lambda x: x.masked_fill(x.abs() <= lambd, 0),
                      lambda x: (x.abs() > lambd).to(x.dtype))


def softshrink(input, lambd=0.5):
    """x - lambd where x > lambd, x + lambd where x < -lambd, else 0."""
    if lambd < 0:
        raise RuntimeError(f"lambda must be greater or equal to 0, but found to be {lambd}.")
    return _pointwise(input, lambda x: (x - x.clamp(-lambd, lambd)),
                      lambda x: (x.abs() > lambd).to(x.dtype))


def tanhshrink(input):
    return input - input.tanh()


def softsign(input):
    return input / (input.abs() + 1)


def logsigmoid(input):
    """log(sigmoid(x)) = min(x, 0) - log(1 + exp(-|x|)), without overflow."""
    return _pointwise(input, lambda x: x.clamp_max(0) - (-x.abs()).exp_().log1p_(),
                      lambda x: (-x).sigmoid_())


def glu(input, dim=-1):
    if input.dim() == 0:
        raise RuntimeError("glu does not support scalars because halving size must be even")
    if input.size(dim) % 2:
        raise RuntimeError(f"Halving dimension must be even, but dimension {dim % input.dim()} "
                           f"is size {input.size(dim)}")
    a, b = input.chunk(2, dim)
    return a * b.sigmoid()


def prelu(input, weight):
    """input where input >= 0, else weight * input (weight: one value, or one per channel)."""
    if weight.numel() != 1 and input.dim() >= 2:
        shape = [1] * input.dim()
        shape[1] = weight.numel()
        weight = weight.reshape(shape)
    return _fn.PReLU.apply(input, weight)


def tanh(input):
    return _mt.tanh(input)


def sigmoid(input):
    return _mt.sigmoid(input)


def softmax(input, dim=None, _stacklevel=3, dtype=None):
    """exp(x) / sum(exp(x)) along dim (the max along dim is subtracted first)."""
    if dim is None:
        dim = _get_softmax_dim("softmax", input.dim(), _stacklevel)
    if dtype is not None:
        input = input.to(dtype)
    return _mt.softmax(input, dim)


def softmin(input, dim=None, _stacklevel=3, dtype=None):
    if dim is None:
        dim = _get_softmax_dim("softmin", input.dim(), _stacklevel)
    if dtype is not None:
        input = input.to(dtype)
    return softmax(-input, dim)


def log_softmax(input, dim=None, _stacklevel=3, dtype=None):
    """x - log(sum(exp(x))) along dim, computed as (x - max) - log(sum(exp(x - max)))."""
    if dim is None:
        dim = _get_softmax_dim("log_softmax", input.dim(), _stacklevel)
    if dtype is not None:
        input = input.to(dtype)
    return _mt.log_softmax(input, dim)


# ---- dropout ---------------------------------------------------------------------------

def _keep_mask(shape, like, p):
    """A mask of the given shape, 1 / (1 - p) with probability 1 - p, else 0."""
    mask = _C.empty(shape, dtype=like.dtype, device=like.device).bernoulli_(1.0 - p)
    return mask.div_(1.0 - p)


def dropout(input, p=0.5, training=True, inplace=False):
    """In training, zeroes each element with probability p and scales the rest by 1 / (1 - p);
    otherwise returns input as it is."""
    _check_p(p)
    if not training or p == 0.0:
        return input
    if p == 1.0:
        return input.mul_(0) if inplace else input * 0
    mask = _keep_mask(input.shape, input, p)
    return input.mul_(mask) if inplace else input * mask


def _feature_dropout(input, p, training, inplace, batched_dim, name):
    _check_p(p)
    nd = input.dim()
    if nd not in (batched_dim - 1, batched_dim):
        raise RuntimeError(f"{name}: Expected {batched_dim - 1}D or {batched_dim}D input, but "
                           f"received a {nd}D input. Note that {name} exists to provide channel-wise "
                           "dropout on inputs with 1 spatial dimension, a channel dimension, and an "
                           "optional batch dimension (i.e. 2D or 3D inputs)."
                           if batched_dim == 3 else
                           f"{name}: Expected {batched_dim - 1}D or {batched_dim}D input, but "
                           f"received a {nd}D input.")
    if not training or p == 0.0:
        return input
    if p == 1.0:
        return input.mul_(0) if inplace else input * 0
    lead = 2 if nd == batched_dim else 1
    shape = tuple(input.shape[:lead]) + (1,) * (nd - lead)
    mask = _keep_mask(shape, input, p)
    return input.mul_(mask) if inplace else input * mask


def dropout1d(input, p=0.5, training=True, inplace=False):
    return _feature_dropout(input, p, training, inplace, 3, "dropout1d")


def dropout2d(input, p=0.5, training=True, inplace=False):
    nd = input.dim()
    if nd not in (3, 4):
        warnings.warn(f"dropout2d: Received a {nd}-D input to dropout2d, which is deprecated and "
                      "will result in an error in a future release.")
    if nd == 3:
        warnings.warn("dropout2d: Received a 3D input to dropout2d and assuming that channel-wise "
                      "1D dropout behavior is desired - input is interpreted as shape (N, C, L), where "
                      "C is the channel dim.")
    _check_p(p)
    if not training or p == 0.0:
        return input
    shape = tuple(input.shape[:2]) + (1,) * (nd - 2) if nd >= 2 else tuple(input.shape)
    mask = _keep_mask(shape, input, p) if p < 1 else _C.zeros(shape, dtype=input.dtype)
    return input.mul_(mask) if inplace else input * mask


def dropout3d(input, p=0.5, training=True, inplace=False):
    return _feature_dropout(input, p, training, inplace, 5, "dropout3d")


def alpha_dropout(input, p=0.5, training=False, inplace=False):
    """Dropout that keeps the mean and variance of SELU activations."""
    _check_p(p)
    if not training or p == 0.0:
        return input
    if p == 1.0:
        return input.mul_(0) if inplace else input * 0
    alpha = -_SELU_ALPHA * _SELU_SCALE
    keep = _C.empty(input.shape, dtype=input.dtype).bernoulli_(1.0 - p)
    a = 1.0 / math.sqrt((alpha * alpha * p + 1) * (1 - p))
    b = (keep - 1).mul_(alpha * a).add_(alpha * a * p)   # where dropped: alpha * a * ... + b
    keep = keep.mul_(a)
    out = input * keep + b
    return input.copy_(out) if inplace else out


def feature_alpha_dropout(input, p=0.5, training=False, inplace=False):
    return alpha_dropout(input, p, training, inplace)


# ---- embedding -------------------------------------------------------------------------

def _check_indices(input, name="embedding"):
    if input.dtype not in (_C.int64, _C.int32):
        raise RuntimeError("Expected tensor for argument #1 'indices' to have one of the following "
                           f"scalar types: Long, Int; but got {input.type()} instead (while checking "
                           f"arguments for {name})")


def _embedding_renorm_(weight, input, max_norm, norm_type):
    with no_grad():
        rows = _mt.unique(input.reshape(-1))
        norms = weight.index_select(0, rows).norm(norm_type, 1)
        scale = (max_norm / (norms + 1e-7)).clamp_max(1.0)
        weight.index_copy_(0, rows, weight.index_select(0, rows) * scale.unsqueeze(1))


def embedding(input, weight, padding_idx=None, max_norm=None, norm_type=2.0,
              scale_grad_by_freq=False, sparse=False):
    """Rows of weight at the indices in input (output shape: input.shape + (dim,)).  The row
    padding_idx gets no gradient."""
    _check_indices(input)
    num = weight.size(0)
    if padding_idx is not None:
        if padding_idx > 0:
            assert padding_idx < num, "Padding_idx must be within num_embeddings"
        elif padding_idx < 0:
            assert padding_idx >= -num, "Padding_idx must be within num_embeddings"
            padding_idx = num + padding_idx
    if sparse:
        raise NotImplementedError("sparse gradients (Embedding(sparse=True)) are not implemented in minitorch")
    if max_norm is not None:
        input = input.contiguous()
        _embedding_renorm_(weight, input, max_norm, norm_type)
    flat = input.reshape(-1)
    if flat.numel():
        lo, hi = flat.aminmax()
        if lo.item() < 0 or hi.item() >= num:
            raise IndexError("index out of range in self")
    out = _fn.Embedding.apply(weight, flat, padding_idx, scale_grad_by_freq)
    return out.view(*input.shape, weight.size(1))


def one_hot(tensor, num_classes=-1):
    return _mt.one_hot(tensor, num_classes)


# ---- normalisation ---------------------------------------------------------------------

def layer_norm(input, normalized_shape, weight=None, bias=None, eps=1e-5):
    """Normalises over the last len(normalized_shape) dims (biased variance), then
    * weight + bias."""
    if isinstance(normalized_shape, numbers.Integral):
        normalized_shape = (normalized_shape,)
    normalized_shape = tuple(normalized_shape)
    n = len(normalized_shape)
    if n == 0 or input.dim() < n or tuple(input.shape[-n:]) != normalized_shape:
        expected = ", ".join(str(s) for s in normalized_shape)
        raise RuntimeError(f"Given normalized_shape={list(normalized_shape)}, expected input with "
                           f"shape [*, {expected}], but got input of size{list(input.shape)}")
    return _fn.LayerNorm.apply(input, weight, bias, n, eps)


def rms_norm(input, normalized_shape, weight=None, eps=None):
    if isinstance(normalized_shape, numbers.Integral):
        normalized_shape = (normalized_shape,)
    n = len(normalized_shape)
    if tuple(input.shape[-n:]) != tuple(normalized_shape):
        expected = ", ".join(str(s) for s in normalized_shape)
        raise RuntimeError(f"Given normalized_shape={list(normalized_shape)}, expected input with "
                           f"shape [*, {expected}], but got input of size{list(input.shape)}")
    if eps is None:
        eps = _mt.finfo(input.dtype).eps
    dims = tuple(range(-n, 0))
    out = input * ((input * input).mean(dims, keepdim=True) + eps).rsqrt()
    return out * weight if weight is not None else out


def group_norm(input, num_groups, weight=None, bias=None, eps=1e-5):
    if input.dim() < 2:
        raise RuntimeError(f"Expected at least 2 dimensions for input tensor but received {input.dim()}")
    n, c = input.shape[0], input.shape[1]
    if c % num_groups:
        raise RuntimeError(f"Expected number of channels in input to be divisible by num_groups, "
                           f"but got input of shape {input.shape} and num_groups={num_groups}")
    grouped = input.reshape(n, num_groups, -1)
    out = _fn.Normalize.apply(grouped, (2,), eps).view(input.shape)
    shape = (1, c) + (1,) * (input.dim() - 2)
    if weight is not None:
        out = out * weight.view(shape)
    if bias is not None:
        out = out + bias.view(shape)
    return out


def _verify_batch_size(size):
    values = size[0]
    for s in size[2:]:
        values *= s
    if values == 1:
        raise ValueError(f"Expected more than 1 value per channel when training, got input size {size}")


def batch_norm(input, running_mean, running_var, weight=None, bias=None, training=False,
               momentum=0.1, eps=1e-5):
    """Normalises each channel (dim 1) by the batch's statistics (training) or by the running
    ones, then * weight + bias.  In training, the running statistics (when given) are updated
    in place: new = (1 - momentum) * old + momentum * batch (unbiased variance)."""
    if training:
        _verify_batch_size(input.size())
    nd = input.dim()
    if nd < 2:
        raise ValueError(f"expected 2D or 3D input (got {nd}D input)")
    c = input.size(1)
    shape = (1, c) + (1,) * (nd - 2)
    if training or running_mean is None or running_var is None:
        dims = (0,) + tuple(range(2, nd))
        with no_grad():
            mean = input.mean(dims, keepdim=True)
            centred = input - mean
            var = (centred * centred).mean(dims, keepdim=True)
            del centred
            if training:
                count = input.numel() // c
                if running_mean is not None:
                    running_mean.mul_(1 - momentum).add_(mean.view(c), alpha=momentum)
                if running_var is not None:
                    unbiased = var.view(c) * (count / max(count - 1, 1))
                    running_var.mul_(1 - momentum).add_(unbiased, alpha=momentum)
            rstd = (var + eps).rsqrt_()
        return _fn.BatchNormTrain.apply(input, weight, bias, mean, rstd, dims)
    scale = (running_var.view(shape) + eps).rsqrt()
    if weight is not None:
        scale = scale * weight.view(shape)
    shift = -running_mean.view(shape) * scale
    if bias is not None:
        shift = shift + bias.view(shape)
    return input * scale + shift


def instance_norm(input, running_mean=None, running_var=None, weight=None, bias=None,
                  use_input_stats=True, momentum=0.1, eps=1e-5):
    n, c = input.shape[0], input.shape[1]
    if not use_input_stats and running_mean is not None:
        shape = (1, c) + (1,) * (input.dim() - 2)
        out = (input - running_mean.view(shape)) * (running_var.view(shape) + eps).rsqrt()
    else:
        dims = tuple(range(2, input.dim()))
        out = _fn.Normalize.apply(input, dims, eps)
        if running_mean is not None:
            with no_grad():
                mean = input.mean(dims, keepdim=True)
                var = ((input - mean) ** 2).mean(dims, keepdim=True)
            count = input.numel() // (n * c)
            with no_grad():
                running_mean.mul_(1 - momentum).add_(mean.detach().reshape(n, c).mean(0), alpha=momentum)
                running_var.mul_(1 - momentum).add_(
                    var.detach().reshape(n, c).mean(0) * (count / max(count - 1, 1)), alpha=momentum)
    shape = (1, c) + (1,) * (input.dim() - 2)
    if weight is not None:
        out = out * weight.view(shape)
    if bias is not None:
        out = out + bias.view(shape)
    return out


def normalize(input, p=2.0, dim=1, eps=1e-12, out=None):
    """input / max(||input||_p along dim, eps)."""
    denom = input.norm(p, dim, keepdim=True).clamp_min(eps).expand_as(input)
    if out is None:
        return input / denom
    return _mt.div(input, denom, out=out)


def cosine_similarity(x1, x2, dim=1, eps=1e-8):
    """sum(x1 * x2) / (max(||x1||, eps) * max(||x2||, eps)) along dim."""
    x1, x2 = _mt.broadcast_tensors(x1, x2)
    n1 = x1.norm(2, dim, keepdim=True).clamp_min(eps)
    n2 = x2.norm(2, dim, keepdim=True).clamp_min(eps)
    return ((x1 / n1) * (x2 / n2)).sum(dim)


def pairwise_distance(x1, x2, p=2.0, eps=1e-6, keepdim=False):
    return (x1 - x2 + eps).norm(p, -1, keepdim=keepdim)


# ---- padding ---------------------------------------------------------------------------

def _pad_indices(n, left, right, mode):
    """Source positions (along a dim of size n) of the padded dim's entries."""
    idx = _C.arange(-left, n + right)
    if mode == "replicate":
        return idx.clamp(0, n - 1)
    if mode == "circular":
        return idx.remainder(n)
    # reflect: mirror around the first and last entries (not repeating them)
    period = 2 * (n - 1)
    if period == 0:
        return idx.clamp(0, 0)
    r = idx.remainder(period)
    return _mt.where(r >= n, period - r, r)


def pad(input, pad, mode="constant", value=None):
    """Pads (or, with negative sizes, crops) input: pad = (last dim's left, right, the dim
    before's left, right, ...).  mode: constant (value, default 0), reflect, replicate,
    circular."""
    pad = [int(p) for p in pad]
    if len(pad) % 2:
        raise RuntimeError("Padding length must be divisible by 2")
    if len(pad) // 2 > input.dim():
        raise RuntimeError("Padding length should be less than or equal to two times the input "
                           f"dimension but got padding length {len(pad)} and input of dimension {input.dim()}")
    if mode not in ("constant", "reflect", "replicate", "circular"):
        raise NotImplementedError(f"Unrecognised padding mode {mode}")
    if mode != "constant" and value is not None and value != 0:
        raise RuntimeError(f"Padding mode \"{mode}\" doesn't take in value argument")
    out = input
    for i in range(len(pad) // 2):
        dim = input.dim() - 1 - i
        left, right = pad[2 * i], pad[2 * i + 1]
        if left == 0 and right == 0:
            continue
        n = out.size(dim)
        if mode == "constant":
            if left < 0:
                out = out.narrow(dim, -left, out.size(dim) + left)
                left = 0
            if right < 0:
                out = out.narrow(dim, 0, out.size(dim) + right)
                right = 0
            parts = []
            fill = 0 if value is None else value
            for size in (left, None, right):
                if size is None:
                    parts.append(out)
                elif size > 0:
                    shape = list(out.shape)
                    shape[dim] = size
                    parts.append(_C.full(shape, fill, dtype=out.dtype, device=out.device))
            out = _mt.cat(parts, dim) if len(parts) > 1 else out
            continue
        if mode == "reflect" and (left >= n or right >= n):
            raise RuntimeError(f"Argument #4: Padding size should be less than the corresponding "
                               f"input dimension, but got: padding ({left}, {right}) at dimension "
                               f"{dim} of input {list(input.shape)}")
        if mode == "circular" and (left > n or right > n):
            raise RuntimeError("Padding value causes wrapping around more than once.")
        if n == 0:
            raise RuntimeError(f"padding of a dimension of size 0 (dimension {dim}) is not possible in mode {mode}")
        out = out.index_select(dim, _pad_indices(n, left, right, mode))
    return out


# ---- attention -------------------------------------------------------------------------

def scaled_dot_product_attention(query, key, value, attn_mask=None, dropout_p=0.0,
                                 is_causal=False, scale=None, enable_gqa=False):
    """softmax(query @ key^T * scale + mask) @ value, scale = 1 / sqrt(E) by default;
    is_causal masks out keys after each query; a bool mask keeps where True."""
    L, S = query.size(-2), key.size(-2)
    scale = 1.0 / math.sqrt(query.size(-1)) if scale is None else scale
    if enable_gqa and query.dim() >= 3 and key.size(-3) != query.size(-3):
        rep = query.size(-3) // key.size(-3)
        key = key.repeat_interleave(rep, -3)
        value = value.repeat_interleave(rep, -3)
    scores = query.matmul(key.transpose(-2, -1)) * scale
    if is_causal:
        if attn_mask is not None:
            raise RuntimeError("_scaled_dot_product_attention: Explicit attn_mask should not be set "
                               "when is_causal=True")
        causal = _C.ones(L, S, dtype=_C.bool).tril()
        scores = scores.masked_fill(causal.logical_not(), float("-inf"))
    if attn_mask is not None:
        if attn_mask.dtype == _C.bool:
            scores = scores.masked_fill(attn_mask.logical_not(), float("-inf"))
        else:
            scores = scores + attn_mask
    weights = softmax(scores, -1)
    if dropout_p > 0.0:
        weights = dropout(weights, dropout_p, True)
    return weights.matmul(value)


# ---- losses ----------------------------------------------------------------------------

def _size_warning(input, target):
    if target.size() != input.size():
        warnings.warn(f"Using a target size ({target.size()}) that is different to the input size "
                      f"({input.size()}). This will likely lead to incorrect results due to "
                      "broadcasting. Please ensure they have the same size.", stacklevel=3)


def mse_loss(input, target, size_average=None, reduce=None, reduction="mean", weight=None):
    """Mean (or sum, or none) of (input - target)**2."""
    reduction = _reduction(size_average, reduce, reduction)
    _size_warning(input, target)
    loss = (input - target).square()
    if weight is not None:
        loss = loss * weight
    return _reduce(loss, reduction)


def l1_loss(input, target, size_average=None, reduce=None, reduction="mean", weight=None):
    """Mean (or sum, or none) of |input - target|."""
    reduction = _reduction(size_average, reduce, reduction)
    _size_warning(input, target)
    loss = (input - target).abs()
    if weight is not None:
        loss = loss * weight
    return _reduce(loss, reduction)


def smooth_l1_loss(input, target, size_average=None, reduce=None, reduction="mean", beta=1.0):
    """0.5 * d**2 / beta where d = |input - target| < beta, else d - 0.5 * beta."""
    reduction = _reduction(size_average, reduce, reduction)
    _size_warning(input, target)
    if beta < 0:
        raise RuntimeError("smooth_l1_loss does not support negative values for beta.")
    if beta == 0:
        return _reduce((input - target).abs(), reduction)
    loss = _pointwise(input - target,
                      lambda d: (d * d).mul_(0.5 / beta).where(d.abs() < beta, d.abs().sub_(0.5 * beta)),
                      lambda d: (d / beta).clamp_(-1.0, 1.0))
    return _reduce(loss, reduction)


def huber_loss(input, target, reduction="mean", delta=1.0, weight=None):
    """0.5 * d**2 where d = |input - target| < delta, else delta * (d - 0.5 * delta)."""
    reduction = _reduction(None, None, reduction)
    _size_warning(input, target)
    loss = _pointwise(input - target,
                      lambda d: (d * d).mul_(0.5).where(d.abs() < delta, d.abs().sub_(0.5 * delta).mul_(delta)),
                      lambda d: d.clamp(-delta, delta))
    if weight is not None:
        loss = loss * weight
    return _reduce(loss, reduction)


def soft_margin_loss(input, target, size_average=None, reduce=None, reduction="mean"):
    reduction = _reduction(size_average, reduce, reduction)
    return _reduce((-target * input).exp().log1p(), reduction)


def _class_target(input, target, weight, n_classes):
    """target checked against input (and weight) as torch checks class-index targets, as an
    int64 tensor of the input's shape without the class dim."""
    if target.dtype not in (_C.int64, _C.uint8):
        raise RuntimeError(f"expected target dtype to be Long or Byte, but got {_scalar_name(target.dtype)}")
    if input.dim() < 1:
        raise ValueError(f"Expected 1 or more dimensions (got {input.dim()})")
    if input.dim() == 1:
        if target.dim() == 1:
            if target.size(0) != 1:
                raise RuntimeError("For 1D input, 1D target must have size 1, but got target size: "
                                   f"{target.size(0)}")
            target = target.reshape(())
        elif target.dim() != 0:
            raise RuntimeError("0D or 1D target tensor expected, multi-target not supported")
    else:
        if input.dim() == 2 and target.dim() != 1:
            raise RuntimeError("0D or 1D target tensor expected, multi-target not supported")
        if target.dim() == 0 or input.size(0) != target.size(0):
            raise ValueError(f"Expected input batch_size ({input.size(0)}) to match target "
                             f"batch_size ({target.size(0) if target.dim() else 0}).")
        if input.dim() > 2 and tuple(target.shape[1:]) != tuple(input.shape[2:]):
            raise RuntimeError(f"Expected target size {_expected_target_size(input)}, got {list(target.shape)}")
    if weight is not None and (weight.dim() != 1 or weight.numel() != n_classes):
        raise RuntimeError(f"weight tensor should be defined either for all {n_classes} classes or "
                           f"no classes but got weight tensor of shape: {list(weight.shape)}")
    return target if target.dtype == _C.int64 else target.long()


def _expected_target_size(input):
    return "[" + ", ".join(str(s) for i, s in enumerate(input.shape) if i != 1) + "]"


def _scalar_name(dtype):
    return {_C.float32: "Float", _C.float64: "Double", _C.float16: "Half", _C.bfloat16: "BFloat16",
            _C.int32: "Int", _C.int16: "Short", _C.int8: "Char", _C.uint8: "Byte",
            _C.bool: "Bool", _C.int64: "Long"}.get(dtype, str(dtype))


def _nll(log_probs, target, weight, ignore_index, reduction):
    """nll_loss without the argument checks; log_probs has the classes in dim 1 (dim 0 when
    it is 1-D).  Returns (loss, the per-target weights or None, the mask of kept targets or
    None) so that cross_entropy's label smoothing can reuse them."""
    cls_dim = 1 if log_probs.dim() >= 2 else 0
    n_classes = log_probs.size(cls_dim)
    ignored = target == ignore_index
    any_ignored = target.numel() > 0 and bool(ignored.any())
    keep = ignored.logical_not() if any_ignored else None
    safe = target.masked_fill(ignored, 0) if any_ignored else target
    if target.numel():
        lo, hi = safe.aminmax()
        if lo.item() < 0 or hi.item() >= n_classes:
            bad = safe[(safe < 0).logical_or(safe >= n_classes)][0].item()
            raise IndexError(f"Target {bad} is out of bounds.")
    w = None
    if weight is not None:
        w = weight.index_select(0, safe.reshape(-1)).view(safe.shape).to(log_probs.dtype)
        if keep is not None:
            w = w.masked_fill(ignored, 0)
    elif keep is not None:
        w = keep.to(log_probs.dtype)
    loss = _fn.NLL.apply(log_probs, safe, w, reduction, cls_dim)
    return loss, w, keep


def nll_loss(input, target, weight=None, size_average=None, ignore_index=-100, reduce=None,
             reduction="mean"):
    """-input[i, target[i]] (times weight[target[i]]), over targets other than ignore_index;
    'mean' divides by the sum of the weights of the kept targets."""
    reduction = _reduction(size_average, reduce, reduction)
    n_classes = input.size(1) if input.dim() >= 2 else input.size(0) if input.dim() == 1 else 0
    target = _class_target(input, target, weight, n_classes)
    return _nll(input, target, weight, ignore_index, reduction)[0]


def cross_entropy(input, target, weight=None, size_average=None, ignore_index=-100, reduce=None,
                  reduction="mean", label_smoothing=0.0):
    """nll_loss(log_softmax(input, class dim), target) for class-index targets (int64, the
    input's shape without the class dim); for probability targets (floating, the input's
    shape) -sum(target * log_softmax(input)) over classes.  label_smoothing mixes the target
    with the uniform distribution, as torch."""
    reduction = _reduction(size_average, reduce, reduction)
    if not 0.0 <= label_smoothing <= 1.0:
        raise RuntimeError(f"label_smoothing must be between 0.0 and 1.0. Got: {label_smoothing}")
    if input.dim() == 0:
        raise RuntimeError("cross_entropy: input must have at least one dimension")
    cls_dim = 1 if input.dim() >= 2 else 0
    n_classes = input.size(cls_dim)
    if tuple(input.shape) == tuple(target.shape):
        if not target.dtype.is_floating_point:
            raise RuntimeError(f"Expected floating point type for target with class probabilities, "
                               f"got {_scalar_name(target.dtype)}")
        return _cross_entropy_probs(input, target, weight, reduction, label_smoothing, cls_dim, n_classes)
    target = _class_target(input, target, weight, n_classes)
    log_probs = log_softmax(input, cls_dim)
    loss, w, keep = _nll(log_probs, target, weight, ignore_index, reduction)
    if label_smoothing <= 0.0:
        return loss
    # the smoothing term: -sum over classes of log_probs (weighted), for the kept targets
    if weight is not None:
        wshape = [1] * input.dim()
        wshape[cls_dim] = n_classes
        smooth = -(log_probs * weight.view(wshape)).sum(cls_dim)
    else:
        smooth = -log_probs.sum(cls_dim)
    if keep is not None:
        smooth = smooth.masked_fill(keep.logical_not(), 0)
    if reduction == "mean":
        if w is not None:
            smooth = smooth.sum() / w.sum()
        elif keep is not None:
            smooth = smooth.sum() / keep.sum()
        else:
            smooth = smooth.mean()
    elif reduction == "sum":
        smooth = smooth.sum()
    return loss * (1.0 - label_smoothing) + smooth * (label_smoothing / n_classes)


def _cross_entropy_probs(input, target, weight, reduction, label_smoothing, cls_dim, n_classes):
    log_probs = log_softmax(input, cls_dim)
    if label_smoothing > 0.0:
        target = target * (1.0 - label_smoothing) + label_smoothing / n_classes
    terms = log_probs * target
    if weight is not None:
        if weight.dim() != 1 or weight.numel() != n_classes:
            raise RuntimeError(f"weight tensor should be defined either for all {n_classes} classes "
                               f"or no classes but got weight tensor of shape: {list(weight.shape)}")
        wshape = [1] * input.dim()
        wshape[cls_dim] = n_classes
        terms = terms * weight.view(wshape)
    loss = -terms.sum(cls_dim)
    if reduction == "mean":
        return loss.sum() / (input.numel() // n_classes) if input.numel() else loss.sum() / 0.0
    if reduction == "sum":
        return loss.sum()
    return loss


def binary_cross_entropy_with_logits(input, target, weight=None, size_average=None, reduce=None,
                                     reduction="mean", pos_weight=None):
    """-[pos_weight * y * log(sigmoid(x)) + (1 - y) * log(1 - sigmoid(x))] (times weight),
    computed as (1 - y) * x + (1 + (pos_weight - 1) * y) * log(1 + exp(-x)) with
    log(1 + exp(-x)) = log1p(exp(-|x|)) + max(-x, 0), which does not overflow."""
    reduction = _reduction(size_average, reduce, reduction)
    if target.size() != input.size():
        raise ValueError(f"Target size ({target.size()}) must be the same as input size ({input.size()})")
    loss = _fn.BCEWithLogits.apply(input, target, pos_weight)
    if weight is not None:
        loss = loss * weight
    return _reduce(loss, reduction)


def binary_cross_entropy(input, target, weight=None, size_average=None, reduce=None,
                         reduction="mean"):
    """-[y * log(x) + (1 - y) * log(1 - x)] (times weight), each log clamped at -100."""
    reduction = _reduction(size_average, reduce, reduction)
    if target.size() != input.size():
        raise ValueError(f"Using a target size ({target.size()}) that is different to the input "
                         f"size ({input.size()}) is deprecated. Please ensure they have the same size.")
    if input.numel():
        with no_grad():
            lo, hi = input.aminmax()
        if lo.item() < 0 or hi.item() > 1:
            raise RuntimeError("all elements of input should be between 0 and 1")
    loss = -(target * input.log().clamp_min(-100) + (1 - target) * (1 - input).log().clamp_min(-100))
    if weight is not None:
        loss = loss * weight
    return _reduce(loss, reduction)


def kl_div(input, target, size_average=None, reduce=None, reduction="mean", log_target=False):
    """target * (log(target) - input) pointwise (input holds log-probabilities; log_target:
    target does too); 'batchmean' divides the sum by the batch size."""
    if size_average is not None or reduce is not None:
        reduction = _reduction(size_average, reduce, "mean")
    elif reduction == "mean":
        warnings.warn("reduction: 'mean' divides the total loss by both the batch size and the "
                      "support size.'batchmean' divides only by the batch size, and aligns with the "
                      "KL div math definition.'mean' will be changed to behave the same as "
                      "'batchmean' in the next major release.")
    elif reduction not in ("batchmean", "sum", "none"):
        raise ValueError(f"{reduction} is not a valid value for reduction")
    if log_target:
        loss = target.exp() * (target - input)
    else:
        loss = _mt.xlogy(target, target) - target * input
    if reduction == "batchmean":
        return loss.sum() / input.size(0) if input.dim() else loss.sum()
    return _reduce(loss, reduction)


# ---- convolution and pooling (nn/_conv.py, loaded on first use) ------------------------

_conv_functions = {}


def _conv_fn(name):
    fn = _conv_functions.get(name)
    if fn is None:
        from . import _conv
        fn = getattr(_conv, name)
        _conv_functions[name] = fn
    return fn


def conv2d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    return _conv_fn("conv2d")(input, weight, bias, stride, padding, dilation, groups)


def _single(x):
    return x[0] if isinstance(x, (tuple, list)) else x


def conv1d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    """nn._conv's conv1d, or conv2d over a height-1 image where it has none."""
    from . import _conv
    if hasattr(_conv, "conv1d"):
        return _conv.conv1d(input, weight, bias, stride, padding, dilation, groups)
    batched = input.dim() == 3
    x = input if batched else input.unsqueeze(0)
    pad_ = padding if isinstance(padding, str) else (0, _single(padding))
    out = conv2d(x.unsqueeze(2), weight.unsqueeze(2), bias, (1, _single(stride)), pad_,
                 (1, _single(dilation)), groups).squeeze(2)
    return out if batched else out.squeeze(0)


def max_pool2d(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False,
               return_indices=False):
    return _conv_fn("max_pool2d")(input, kernel_size, stride, padding, dilation,
                                  ceil_mode=ceil_mode, return_indices=return_indices)


def max_pool2d_with_indices(input, kernel_size, stride=None, padding=0, dilation=1,
                            ceil_mode=False, return_indices=True):
    return max_pool2d(input, kernel_size, stride, padding, dilation, ceil_mode, True)


def max_pool1d(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False,
               return_indices=False):
    stride = kernel_size if stride is None or stride == [] else stride
    batched = input.dim() == 3
    x = (input if batched else input.unsqueeze(0)).unsqueeze(2)
    out = max_pool2d(x, (1, _single(kernel_size)), (1, _single(stride)), (0, _single(padding)),
                     (1, _single(dilation)), ceil_mode, return_indices)
    if return_indices:
        out, idx = out
        out, idx = out.squeeze(2).contiguous(), idx.squeeze(2)  # (torch's values: row-major)
        return (out, idx) if batched else (out.squeeze(0), idx.squeeze(0))
    out = out.squeeze(2).contiguous()
    return out if batched else out.squeeze(0)


def avg_pool2d(input, kernel_size, stride=None, padding=0, ceil_mode=False,
               count_include_pad=True, divisor_override=None):
    return _conv_fn("avg_pool2d")(input, kernel_size, stride, padding, ceil_mode,
                                  count_include_pad, divisor_override)


def avg_pool1d(input, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True):
    stride = kernel_size if stride is None or stride == [] else stride
    batched = input.dim() == 3
    x = (input if batched else input.unsqueeze(0)).unsqueeze(2)
    out = avg_pool2d(x, (1, _single(kernel_size)), (1, _single(stride)), (0, _single(padding)),
                     ceil_mode, count_include_pad).squeeze(2)
    return out if batched else out.squeeze(0)


def adaptive_avg_pool2d(input, output_size):
    return _conv_fn("adaptive_avg_pool2d")(input, output_size)


def adaptive_avg_pool1d(input, output_size):
    return adaptive_avg_pool2d(input.unsqueeze(-2), (1, _single(output_size))).squeeze(-2)


def adaptive_max_pool2d(input, output_size, return_indices=False):
    return _conv_fn("adaptive_max_pool2d")(input, output_size, return_indices)


# ---- spatial: 3-D and transposed convolutions (minitorch._convolution) ----------------------

def conv3d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    return _mt.conv3d(input, weight, bias, stride, padding, dilation, groups)


def conv_transpose1d(input, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1,
                     dilation=1):
    return _mt.conv_transpose1d(input, weight, bias, stride, padding, output_padding, groups,
                                dilation)


def conv_transpose2d(input, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1,
                     dilation=1):
    return _mt.conv_transpose2d(input, weight, bias, stride, padding, output_padding, groups,
                                dilation)


def conv_transpose3d(input, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1,
                     dilation=1):
    return _mt.conv_transpose3d(input, weight, bias, stride, padding, output_padding, groups,
                                dilation)


__all__ += ["conv3d", "conv_transpose1d", "conv_transpose2d", "conv_transpose3d"]


# ---- spatial: 3-D pooling and adaptive_max_pool1d (minitorch._pooling) ----------------------

def _no_stride(stride):
    return stride is None or (isinstance(stride, (list, tuple)) and len(stride) == 0)


def max_pool3d(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False,
               return_indices=False):
    """Max pooling over (N, C, D, H, W) or (C, D, H, W); indices (d * H + h) * W + w within
    each plane."""
    values, indices = _mt._max_pool3d_with_indices(input, kernel_size,
                                                   None if _no_stride(stride) else stride,
                                                   padding, dilation, bool(ceil_mode))
    return (values, indices) if return_indices else values


def max_pool3d_with_indices(input, kernel_size, stride=None, padding=0, dilation=1,
                            ceil_mode=False, return_indices=True):
    return max_pool3d(input, kernel_size, stride, padding, dilation, ceil_mode, True)


def avg_pool3d(input, kernel_size, stride=None, padding=0, ceil_mode=False,
               count_include_pad=True, divisor_override=None):
    return _mt._avg_pool3d(input, kernel_size, None if _no_stride(stride) else stride, padding,
                           bool(ceil_mode), bool(count_include_pad), divisor_override)


def _with_input_sizes(input, output_size):
    """output_size with its None entries replaced by the input's sizes (as torch)."""
    if not isinstance(output_size, (list, tuple)) or all(v is not None for v in output_size):
        return output_size
    if not isinstance(input, _C.TensorBase) or input.dim() <= len(output_size):
        raise ValueError(f"Input dimension should be at least {len(output_size) + 1}")
    sizes = input.shape[-len(output_size):]
    return tuple(d if v is None else v for v, d in zip(output_size, sizes))


def adaptive_avg_pool3d(input, output_size):
    return _mt._adaptive_avg_pool3d(input, _with_input_sizes(input, output_size))


def adaptive_max_pool3d(input, output_size, return_indices=False):
    values, indices = _mt._adaptive_max_pool3d(input, _with_input_sizes(input, output_size))
    return (values, indices) if return_indices else values


def adaptive_max_pool3d_with_indices(input, output_size, return_indices=False):
    return adaptive_max_pool3d(input, output_size, True)


def adaptive_max_pool1d(input, output_size, return_indices=False):
    values, indices = _mt.adaptive_max_pool1d(input, output_size)
    return (values, indices) if return_indices else values


def adaptive_max_pool1d_with_indices(input, output_size, return_indices=False):
    return adaptive_max_pool1d(input, output_size, True)


__all__ += ["max_pool3d", "max_pool3d_with_indices", "avg_pool3d", "adaptive_avg_pool3d",
            "adaptive_max_pool3d", "adaptive_max_pool3d_with_indices", "adaptive_max_pool1d",
            "adaptive_max_pool1d_with_indices"]


# ---- spatial: resampling (nn/_interpolate.py) ----------------------------------------------

from ._interpolate import interpolate, upsample, upsample_bilinear, upsample_nearest  # noqa: E402

__all__ += ["interpolate", "upsample", "upsample_nearest", "upsample_bilinear"]
