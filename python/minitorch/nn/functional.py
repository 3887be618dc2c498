"""nn.functional: layers and losses as functions of tensors.

Everything here is written with ordinary tensor ops, so gradients flow through them; values
that are only bookkeeping (the max subtracted for a stable softmax, masks, running
statistics) are computed outside the graph.  Convolution and pooling are op-table rows
(_convolution.py, _pooling.py) whose arguments are checked here as torch checks them."""
import math
import numbers
import warnings

import minitorch as _mt

from .. import _C
from .. import _attention
from .._op_forms import nn_ops as _nn_ops
from ..autograd.grad_mode import no_grad

_OPS = _nn_ops()   # the op-table ops of nn.functional (nn/_ops.py), recorded as one node each
# autocast (see Note [Autocast] in csrc/autocast.h): one thread-local read per call while off
_autocast_on = _C._autocast_on

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
    """input @ weight.T + bias, one node of the graph (the op table's `linear`)."""
    if _autocast_on():
        input, weight, bias = _C._autocast_lower(input, weight, bias)
    return _OPS["linear"](input, weight, bias)


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


def _act(name, input, inplace, *args):
    """The activation op `name` (one node; see nn/_ops.py), in place when asked."""
    return _OPS[name + "_" if inplace else name](input, *args)


def threshold(input, threshold, value, inplace=False):
    """input where input > threshold, else value."""
    return _act("threshold", input, inplace, threshold, value)


def threshold_(input, threshold, value):
    return _act("threshold", input, True, threshold, value)


def hardtanh(input, min_val=-1.0, max_val=1.0, inplace=False):
    """input clamped to [min_val, max_val] (gradient 1 strictly inside, 0 outside)."""
    if min_val > max_val:
        raise ValueError("min_val cannot be greater than max_val")
    return _act("hardtanh", input, inplace, min_val, max_val)


def hardtanh_(input, min_val=-1.0, max_val=1.0):
    return hardtanh(input, min_val, max_val, inplace=True)


def relu6(input, inplace=False):
    return hardtanh(input, 0.0, 6.0, inplace)


def leaky_relu(input, negative_slope=0.01, inplace=False):
    """input where input > 0, else negative_slope * input."""
    return _act("leaky_relu", input, inplace, negative_slope)


def leaky_relu_(input, negative_slope=0.01):
    return leaky_relu(input, negative_slope, True)


def elu(input, alpha=1.0, inplace=False):
    """input where input > 0, else alpha * (exp(input) - 1)."""
    return _act("elu", input, inplace, alpha)


def elu_(input, alpha=1.0):
    return elu(input, alpha, True)


_SELU_ALPHA = 1.6732632423543772848170429916717
_SELU_SCALE = 1.0507009873554804934193349852946


def selu(input, inplace=False):
    """scale * elu(input, alpha) with SELU's constants."""
    return _act("elu", input, inplace, _SELU_ALPHA, _SELU_SCALE)


def celu(input, alpha=1.0, inplace=False):
    """input where input > 0, else alpha * (exp(input / alpha) - 1)."""
    if alpha == 0:
        raise RuntimeError("ZeroDivisionError: alpha cannot be 0 for CELU")
    return _act("elu", input, inplace, alpha, 1.0, 1.0 / alpha)


def gelu(input, approximate="none"):
    """x * Phi(x) (Phi: the normal CDF); approximate='tanh' uses torch's tanh formula."""
    if approximate not in ("none", "tanh"):
        raise RuntimeError("approximate argument must be either none or tanh.")
    return _OPS["gelu"](input, approximate=approximate)


def silu(input, inplace=False):
    """input * sigmoid(input)."""
    return _act("silu", input, inplace)


def softplus(input, beta=1.0, threshold=20.0):
    """log(1 + exp(beta * x)) / beta, and x itself where beta * x > threshold."""
    return _OPS["softplus"](input, beta, threshold)


def mish(input, inplace=False):
    """x * tanh(softplus(x))."""
    return _act("mish", input, inplace)


def hardswish(input, inplace=False):
    """x * relu6(x + 3) / 6."""
    return _act("hardswish", input, inplace)


def hardsigmoid(input, inplace=False):
    """relu6(x + 3) / 6."""
    return _act("hardsigmoid", input, inplace)


def hardshrink(input, lambd=0.5):
    """x where |x| > lambd, else 0."""
    return _OPS["hardshrink"](input, lambd)


def softshrink(input, lambd=0.5):
    """x - lambd where x > lambd, x + lambd where x < -lambd, else 0."""
    if lambd < 0:
        raise RuntimeError(f"lambda must be greater or equal to 0, but found to be {lambd}.")
    return _OPS["softshrink"](input, lambd)


def tanhshrink(input):
    return input - input.tanh()


def softsign(input):
    return input / (input.abs() + 1)


def logsigmoid(input):
    """log(sigmoid(x)) = min(x, 0) - log(1 + exp(-|x|)), without overflow."""
    return _OPS["logsigmoid"](input)


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
    if _autocast_on():
        input, weight = _C._autocast_lower(input, weight)
    if weight.numel() != 1 and input.dim() >= 2:
        shape = [1] * input.dim()
        shape[1] = weight.numel()
        weight = weight.reshape(shape)
    return _OPS["prelu"](input, weight)


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
    if flat.numel() and flat.device.type == "cpu":
        lo, hi = flat.aminmax()
        if lo.item() < 0 or hi.item() >= num:
            raise IndexError("index out of range in self")
    # (on a device, index_select's kernel checks the values, with the same message)
    return _OPS["embedding"](weight, input, -1 if padding_idx is None else padding_idx,
                             scale_grad_by_freq)


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
    return _OPS["layer_norm"](input, n, weight, bias, eps)[0]


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
    out = _OPS["layer_norm"](grouped, 1, None, None, eps)[0].view(input.shape)
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
        stats = (running_mean, running_var) if training else (None, None)
        return _OPS["batch_norm"](input, weight, bias, *stats, momentum, eps)[0]
    scale = (running_var.view(shape) + eps).rsqrt()
    if weight is not None:
        scale = scale * weight.view(shape)
    shift = -running_mean.view(shape) * scale
    if bias is not None:
        shift = shift + bias.view(shape)
    return input * scale + shift


def _verify_spatial_size(size):
    prod = 1
    for s in size[2:]:
        prod *= s
    if prod == 1:
        raise ValueError(f"Expected more than 1 spatial element when training, got input size {size}")


def instance_norm(input, running_mean=None, running_var=None, weight=None, bias=None,
                  use_input_stats=True, momentum=0.1, eps=1e-5):
    """Each (sample, channel) normalised over its spatial dims (or by the running statistics
    when use_input_stats is False); the running statistics, when given, are updated with the
    mean over the batch of the per-sample statistics.  Arguments are checked as torch's (which
    runs a batch norm over N * C channels, hence the counts in its messages)."""
    if use_input_stats:
        _verify_spatial_size(input.size())
    elif running_mean is None or running_var is None:
        raise RuntimeError("Expected running_mean and running_var to be defined when use_input_stats is false")
    n, c = input.shape[0], input.shape[1]
    for name, t in (("running_mean", running_mean), ("running_var", running_var),
                    ("weight", weight), ("bias", bias)):
        if t is not None and t.numel() != c:
            raise RuntimeError(f"{name} should contain {n * c} elements not {n * t.numel()}")
    if not use_input_stats and running_mean is not None:
        shape = (1, c) + (1,) * (input.dim() - 2)
        out = (input - running_mean.view(shape)) * (running_var.view(shape) + eps).rsqrt()
    else:
        dims = tuple(range(2, input.dim()))
        out = _OPS["layer_norm"](input.reshape(n, c, -1), 1, None, None, eps)[0].view(input.shape)
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


cosine_similarity = _mt.cosine_similarity
pairwise_distance = _mt.pairwise_distance


# ---- padding ---------------------------------------------------------------------------

def _pad_indices(n, left, right, mode):
    """Source positions (along a dim of size n) of the padded dim's entries: reflect mirrors
    around the first and last entries (not repeating them), replicate repeats them."""
    idx = _C.arange(-left, n + right)
    if mode == "replicate":
        return idx.clamp(0, n - 1)
    period = 2 * (n - 1)
    if period == 0:
        return idx.clamp(0, 0)
    r = idx.remainder(period)
    return _mt.where(r >= n, period - r, r)


def _pad_sizes(pad):
    """The padding sizes as ints (torch's argument checks: a sequence of integers)."""
    if not isinstance(pad, (tuple, list, _mt.Size)):
        raise TypeError(f"pad(): argument 'pad' (position 2) must be tuple of ints, not "
                        f"{type(pad).__name__}")
    out = []
    for i, p in enumerate(pad):
        if isinstance(p, bool) or not hasattr(p, "__index__") or \
                (isinstance(p, _C.TensorBase) and (p.dtype.is_floating_point or p.numel() != 1)):
            raise TypeError(f"pad(): argument 'pad' (position 2) must be tuple of ints, but found "
                            f"element of type {type(p).__name__} at pos {i}")
        out.append(int(p))
    return out


_PAD_DIM_NAMES = ("D", "H", "W")


def _pad_check_nonconstant(input, pad, mode):
    """torch's checks of reflect/replicate padding of the last k = len(pad) // 2 dims."""
    k = len(pad) // 2
    nd = input.dim()
    shape = list(input.shape)
    if any(s == 0 for s in shape[1 if nd == k + 2 else 0:]):
        raise RuntimeError(f"Expected {k + 1}D or {k + 2}D (batch mode) tensor with possibly 0 batch "
                           f"size and other non-zero dimensions for input, but got: {shape}")
    if mode == "reflect":
        for i in range(k):           # i = 0: the last dim (argument #4), then #6, #8
            dim = nd - 1 - i
            left, right = pad[2 * i], pad[2 * i + 1]
            if left >= shape[dim] or right >= shape[dim]:
                raise RuntimeError(f"Argument #{4 + 2 * i}: Padding size should be less than the "
                                   f"corresponding input dimension, but got: padding ({left}, "
                                   f"{right}) at dimension {dim} of input {shape}")
    ins = shape[nd - k:]
    outs = [ins[j] + pad[2 * (k - 1 - j)] + pad[2 * (k - 1 - j) + 1] for j in range(k)]
    if any(o < 1 for o in outs):
        names = _PAD_DIM_NAMES[3 - k:]
        if k == 1:
            raise RuntimeError(f"input (W: {ins[0]}) is too small. Calculated output W: {outs[0]}")
        got = " ".join(f"{n}: {o}" for n, o in zip(names, outs))
        was = ", ".join(f"{n}: {s}" for n, s in zip(names, ins))
        raise RuntimeError(f"Calculated output {got} must be >= 1 in every dimension (input {was})")


def _pad_constant(input, pad, value):
    """Constant padding: negative sizes crop first (torch's narrow), then one filled tensor
    takes the cropped input at its place."""
    nd = input.dim()
    region, shape, cropped = [], list(input.shape), input
    for i in range(len(pad) // 2):
        dim = nd - 1 - i
        left, right = pad[2 * i], pad[2 * i + 1]
        n = cropped.size(dim)
        start, length = max(-left, 0), n + min(left, 0) + min(right, 0)
        if n + min(left, 0) < 0 or length < 0:
            raise RuntimeError("narrow(): length must be non-negative.")
        if start or length != n:
            cropped = cropped.narrow(dim, start, length)
        shape[dim] = length + max(left, 0) + max(right, 0)
        region.append((dim, max(left, 0), length))
    fill = 0 if value is None else value
    out = _C.full(shape, fill, dtype=input.dtype, device=input.device)
    key = [slice(None)] * nd
    for dim, start, length in region:
        key[dim] = slice(start, start + length)
    out[tuple(key)] = cropped
    return out


def _pad_circular(input, pad):
    """Circular padding: negative sizes crop first, then each padded end repeats the other
    end of the cropped input (torch's order)."""
    out = input
    nd = input.dim()
    k = len(pad) // 2
    for i in reversed(range(k)):     # the outermost padded dim first, as torch checks
        dim = nd - 1 - i
        left, right = pad[2 * i], pad[2 * i + 1]
        n = input.size(dim)
        if left > n or right > n:
            raise RuntimeError("Padding value causes wrapping around more than once.")
        if n + left + right < 0:
            raise RuntimeError("Negative padding value is resulting in an empty dimension")
    for i in range(k):
        dim = nd - 1 - i
        left, right = pad[2 * i], pad[2 * i + 1]
        n = out.size(dim)
        if left < 0 or right < 0:
            start = min(max(-left, 0), n)
            out = out.narrow(dim, start, max(n + min(left, 0) + min(right, 0), 0))
            n = out.size(dim)
            left, right = max(left, 0), max(right, 0)
        if left == 0 and right == 0:
            continue
        if n == 0:                  # nothing left to repeat (torch leaves the memory unset)
            shape = list(out.shape)
            shape[dim] = max(input.size(dim) + pad[2 * i] + pad[2 * i + 1], 0)
            out = _C.zeros(shape, dtype=out.dtype, device=out.device)
            continue
        out = out.index_select(dim, _C.arange(-left, n + right).remainder(n))
    return out if out is not input else input.clone()


def pad(input, pad, mode="constant", value=None):
    """Pads (or, with negative sizes, crops) input: pad = (last dim's left, right, the dim
    before's left, right, ...).  mode: constant (value, default 0) pads any number of dims;
    reflect, replicate and circular pad the last 1, 2 or 3 dims of a (batched or unbatched)
    input, as torch."""
    if _autocast_on() and mode in ("reflect", "replicate"):
        input, = _C._autocast_fp32(input)
    pad = _pad_sizes(pad)
    if mode not in ("constant", "reflect", "replicate", "circular"):
        raise NotImplementedError(f"Unrecognised padding mode {mode}")
    if value is not None and not isinstance(value, numbers.Real):
        raise TypeError(f"pad(): argument 'value' (position 4) must be float, not {type(value).__name__}")
    if len(pad) % 2:
        raise RuntimeError("Padding length must be divisible by 2")
    nd = input.dim()
    if len(pad) // 2 > nd:
        raise RuntimeError("Padding length should be less than or equal to two times the input "
                           f"dimension but got padding length {len(pad)} and input of dimension {nd}")
    if mode == "constant":
        return _pad_constant(input, pad, value)
    if value is not None and value != 0:
        raise RuntimeError(f"Padding mode \"{mode}\" doesn't take in value argument")
    k = len(pad) // 2
    if k not in (1, 2, 3) or nd not in (k + 1, k + 2):
        raise NotImplementedError(
            f"Padding size {len(pad)} is not supported for {nd}D input tensor.\n"
            "Supported combinations for non-constant padding:\n"
            "  - 2D or 3D input: padding size = 2 (pads last dimension)\n"
            "  - 3D or 4D input: padding size = 4 (pads last 2 dimensions)\n"
            "  - 4D or 5D input: padding size = 6 (pads last 3 dimensions)")
    if mode == "circular":
        return _pad_circular(input, pad)
    _pad_check_nonconstant(input, pad, mode)
    out = input
    for i in range(k):
        dim = nd - 1 - i
        left, right = pad[2 * i], pad[2 * i + 1]
        if left or right:
            out = out.index_select(dim, _pad_indices(input.size(dim), left, right, mode))
    return out if out is not input else input.clone()


# ---- attention -------------------------------------------------------------------------

def scaled_dot_product_attention(query, key, value, attn_mask=None, dropout_p=0.0,
                                 is_causal=False, scale=None, enable_gqa=False):
    """softmax(query @ key^T * scale + attn_mask) @ value: see minitorch/_attention.py."""
    return _attention.scaled_dot_product_attention(query, key, value, attn_mask, dropout_p,
                                                   is_causal, scale, enable_gqa)


# ---- losses ----------------------------------------------------------------------------

def _size_warning(input, target):
    if target.size() != input.size():
        warnings.warn(f"Using a target size ({target.size()}) that is different to the input size "
                      f"({input.size()}). This will likely lead to incorrect results due to "
                      "broadcasting. Please ensure they have the same size.", stacklevel=3)


def mse_loss(input, target, size_average=None, reduce=None, reduction="mean", weight=None):
    """Mean (or sum, or none) of (input - target)**2."""
    if _autocast_on():
        input, target = _C._autocast_fp32(input, target)
    reduction = _reduction(size_average, reduce, reduction)
    _size_warning(input, target)
    if weight is None and input.shape == target.shape:
        return _OPS["mse_loss"](input, target, reduction)   # one node, as torch's
    loss = (input - target).square()
    if weight is not None:
        loss = loss * weight
    return _reduce(loss, reduction)


def l1_loss(input, target, size_average=None, reduce=None, reduction="mean", weight=None):
    """Mean (or sum, or none) of |input - target|."""
    if _autocast_on():
        input, target = _C._autocast_fp32(input, target)
    reduction = _reduction(size_average, reduce, reduction)
    _size_warning(input, target)
    loss = (input - target).abs()
    if weight is not None:
        loss = loss * weight
    return _reduce(loss, reduction)


def smooth_l1_loss(input, target, size_average=None, reduce=None, reduction="mean", beta=1.0):
    """0.5 * d**2 / beta where d = |input - target| < beta, else d - 0.5 * beta."""
    if _autocast_on():
        input, target = _C._autocast_fp32(input, target)
    reduction = _reduction(size_average, reduce, reduction)
    _size_warning(input, target)
    if beta < 0:
        raise RuntimeError("smooth_l1_loss does not support negative values for beta.")
    if beta == 0:
        return _reduce((input - target).abs(), reduction)
    return _reduce(_OPS["smooth_l1"](input - target, beta), reduction)


def huber_loss(input, target, reduction="mean", delta=1.0, weight=None):
    """0.5 * d**2 where d = |input - target| < delta, else delta * (d - 0.5 * delta)."""
    if _autocast_on():
        input, target = _C._autocast_fp32(input, target)
    reduction = _reduction(None, None, reduction)
    _size_warning(input, target)
    loss = _OPS["huber"](input - target, delta)
    if weight is not None:
        loss = loss * weight
    return _reduce(loss, reduction)


def soft_margin_loss(input, target, size_average=None, reduce=None, reduction="mean"):
    if _autocast_on():
        input, target = _C._autocast_fp32(input, target)
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
    loss = _OPS["nll"](log_probs, safe, w, reduction, cls_dim)
    return loss, w, keep


def nll_loss(input, target, weight=None, size_average=None, ignore_index=-100, reduce=None,
             reduction="mean"):
    """-input[i, target[i]] (times weight[target[i]]), over targets other than ignore_index;
    'mean' divides by the sum of the weights of the kept targets."""
    if _autocast_on():
        input, target, weight = _C._autocast_fp32(input, target, weight)
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
    if _autocast_on():
        input, target, weight = _C._autocast_fp32(input, target, weight)
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
    if _autocast_on():
        input, target, weight, pos_weight = _C._autocast_fp32(input, target, weight, pos_weight)
    reduction = _reduction(size_average, reduce, reduction)
    if target.size() != input.size():
        raise ValueError(f"Target size ({target.size()}) must be the same as input size ({input.size()})")
    if weight is None:
        return _OPS["bce_logits_loss"](input, target, pos_weight, reduction)  # one node, as torch's
    loss = _OPS["bce_logits"](input, target, pos_weight)
    if weight is not None:
        loss = loss * weight
    return _reduce(loss, reduction)


def binary_cross_entropy(input, target, weight=None, size_average=None, reduce=None,
                         reduction="mean"):
    """-[y * log(x) + (1 - y) * log(1 - x)] (times weight), each log clamped at -100."""
    if _autocast_on():
        input, target, weight = _C._autocast_fp32(input, target, weight)
    reduction = _reduction(size_average, reduce, reduction)
    if target.size() != input.size():
        raise ValueError(f"Using a target size ({target.size()}) that is different to the input "
                         f"size ({input.size()}) is deprecated. Please ensure they have the same size.")
    if input.numel():
        with no_grad():
            lo, hi = input.aminmax()
        if lo.item() < 0 or hi.item() > 1:
            raise RuntimeError("all elements of input should be between 0 and 1")
    loss = _OPS["bce"](input, target)
    if weight is not None:
        loss = loss * weight
    return _reduce(loss, reduction)


def kl_div(input, target, size_average=None, reduce=None, reduction="mean", log_target=False):
    """target * (log(target) - input) pointwise (input holds log-probabilities; log_target:
    target does too); 'batchmean' divides the sum by the batch size."""
    if _autocast_on():
        input, target = _C._autocast_fp32(input, target)
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


# ---- convolution and pooling (the op rows of _convolution.py and _pooling.py) ------------

def conv1d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    return _mt.conv1d(input, weight, bias, stride, padding, dilation, groups)


def conv2d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    return _mt.conv2d(input, weight, bias, stride, padding, dilation, groups)


def _single(x):
    return x[0] if isinstance(x, (tuple, list)) else x


def _check_pool_arg(v, fname, what, msg, allow_empty=False):
    if isinstance(v, (list, tuple)) and not (len(v) in (1, 2) or (allow_empty and len(v) == 0)):
        raise RuntimeError(f"{fname}: {what} {msg}")


def _pool2d_args(fname, kernel_size, stride, padding, dilation=1):
    """torch's checks of a 2-D pooling's arguments; stride None when omitted (or [])."""
    _check_pool_arg(kernel_size, fname, "kernel_size",
                    "must either be a single int, or a tuple of two ints")
    _check_pool_arg(stride, fname, "stride",
                    "must either be omitted, a single int, or a tuple of two ints", True)
    _check_pool_arg(padding, fname, "padding", "must either be a single int, or a tuple of two ints")
    _check_pool_arg(dilation, fname, "dilation", "must be either a single int, or a tuple of two ints")
    return None if isinstance(stride, (list, tuple)) and len(stride) == 0 else stride


def max_pool2d(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False,
               return_indices=False):
    """Max pooling of (N, C, H, W) or (C, H, W); indices h * W + w within each plane."""
    stride = _pool2d_args("max_pool2d", kernel_size, stride, padding, dilation)
    values, indices = _mt._max_pool2d_with_indices(input, kernel_size, stride, padding, dilation,
                                                   bool(ceil_mode))
    return (values, indices) if return_indices else values


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
    stride = _pool2d_args("avg_pool2d", kernel_size, stride, padding)
    return _mt._avg_pool2d(input, kernel_size, stride, padding, bool(ceil_mode),
                           bool(count_include_pad), divisor_override)


def avg_pool1d(input, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True):
    stride = kernel_size if stride is None or stride == [] else stride
    batched = input.dim() == 3
    x = (input if batched else input.unsqueeze(0)).unsqueeze(2)
    out = avg_pool2d(x, (1, _single(kernel_size)), (1, _single(stride)), (0, _single(padding)),
                     ceil_mode, count_include_pad).squeeze(2)
    return out if batched else out.squeeze(0)


def _adaptive_size(input, output_size, fname, msg):
    """output_size as ints: None entries keep the input's size."""
    if isinstance(output_size, (list, tuple)):
        if len(output_size) != 2:
            raise RuntimeError(msg)
        if any(s is None for s in output_size):
            if not isinstance(input, _C.TensorBase) or input.dim() < 2:
                raise RuntimeError(f"{fname}: output_size with None needs an input of at least "
                                   "2 dimensions")
            output_size = tuple(input.shape[-2 + i] if s is None else s
                                for i, s in enumerate(output_size))
    return output_size


def adaptive_avg_pool2d(input, output_size):
    """output_size an int or a pair whose None entries keep the input's size."""
    return _mt._adaptive_avg_pool2d(input, _adaptive_size(
        input, output_size, "adaptive_avg_pool2d", "adaptive_avg_pool2d: output_size must be 2"))


def adaptive_avg_pool1d(input, output_size):
    return adaptive_avg_pool2d(input.unsqueeze(-2), (1, _single(output_size))).squeeze(-2)


def adaptive_max_pool2d(input, output_size, return_indices=False):
    """Indices h * W + w within each plane."""
    values, indices = _mt._adaptive_max_pool2d(input, _adaptive_size(
        input, output_size, "adaptive_max_pool2d",
        "adaptive_max_pool2d(): internal error: output_size.size() must be 2"))
    return (values, indices) if return_indices else values


# ---- multi-head attention (nn/_multi_head_attention.py) --------------------------------

from ._multi_head_attention import (multi_head_attention_forward, _canonical_mask,  # noqa: E402,F401
                                    _none_or_dtype, _mha_shape_check, _in_projection_packed,
                                    _in_projection)

__all__ += ["multi_head_attention_forward"]
# ---- shuffles, folding, sampling grids, embedding bags, more activations and losses ---------

pixel_shuffle = _mt.pixel_shuffle
pixel_unshuffle = _mt.pixel_unshuffle
channel_shuffle = _mt.channel_shuffle
native_channel_shuffle = _mt.native_channel_shuffle


def unfold(input, kernel_size, dilation=1, padding=0, stride=1):
    """Sliding blocks as columns (im2col): see nn/_fold.py."""
    from ._fold import unfold as _unfold
    return _unfold(input, kernel_size, dilation, padding, stride)


def fold(input, output_size, kernel_size, dilation=1, padding=0, stride=1):
    """Columns summed back into images (col2im): see nn/_fold.py."""
    from ._fold import fold as _fold
    return _fold(input, output_size, kernel_size, dilation, padding, stride)

_ALIGN_CORNERS_WARNING = ("Default grid_sample and affine_grid behavior has changed to align_corners=False "
                         "since 1.3.0. Please specify align_corners=True if the old behavior is "
                         "desired. See the documentation of grid_sample for details.")


def grid_sample(input, grid, mode="bilinear", padding_mode="zeros", align_corners=None):
    """input (N, C, H, W) or (N, C, D, H, W) sampled at the normalised points of grid
    (N, H', W', 2) or (N, D', H', W', 3) -> (N, C, H', W') or (N, C, D', H', W')."""
    if mode not in ("bilinear", "nearest", "bicubic"):
        raise ValueError("nn.functional.grid_sample(): expected mode to be 'bilinear', 'nearest' or "
                         f"'bicubic', but got: '{mode}'")
    if padding_mode not in ("zeros", "border", "reflection"):
        raise ValueError("nn.functional.grid_sample(): expected padding_mode to be 'zeros', 'border', "
                         f"or 'reflection', but got: '{padding_mode}'")
    if align_corners is None:
        warnings.warn(_ALIGN_CORNERS_WARNING, stacklevel=2)
        align_corners = False
    return _mt.grid_sampler(input, grid, ("bilinear", "nearest", "bicubic").index(mode),
                            ("zeros", "border", "reflection").index(padding_mode), align_corners)


def affine_grid(theta, size, align_corners=None):
    """The sampling grid of a batch of affine maps theta (N, 2, 3) or (N, 3, 4) for an output
    of size (N, C, H, W) or (N, C, D, H, W), for grid_sample."""
    if align_corners is None:
        warnings.warn(_ALIGN_CORNERS_WARNING, stacklevel=2)
        align_corners = False
    if not theta.is_floating_point():
        raise ValueError(f"Expected theta to have floating point type, but got {theta.dtype}")
    size = tuple(size) if not isinstance(size, _mt.Size) else size
    if len(size) == 4:
        if theta.dim() != 3 or theta.shape[-2] != 2 or theta.shape[-1] != 3:
            raise ValueError(f"Expected a batch of 2D affine matrices of shape Nx2x3 for size {size}. "
                             f"Got {theta.shape}.")
        spatial = size[-2:]
    elif len(size) == 5:
        if theta.dim() != 3 or theta.shape[-2] != 3 or theta.shape[-1] != 4:
            raise ValueError(f"Expected a batch of 3D affine matrices of shape Nx3x4 for size {size}. "
                             f"Got {theta.shape}.")
        spatial = size[-3:]
    else:
        raise NotImplementedError("affine_grid only supports 4D and 5D sizes, for 2D and 3D affine "
                                  f"transforms, respectively. Got size {size}.")
    if align_corners and min(spatial) == 1:
        warnings.warn("Since version 1.3.0, affine_grid behavior has changed for unit-size grids when "
                      "align_corners=True. This is not an intended use case of affine_grid. See the "
                      "documentation of affine_grid for details.", stacklevel=2)
    elif min(size) <= 0:
        raise ValueError(f"Expected non-zero, positive output size. Got {size}")
    return _mt.affine_grid_generator(theta, size, align_corners)


def embedding_bag(input, weight, offsets=None, max_norm=None, norm_type=2, scale_grad_by_freq=False,
                  mode="mean", sparse=False, per_sample_weights=None, include_last_offset=False,
                  padding_idx=None):
    """Sums, means or maxima of bags of embedding rows: a 2-d input is a batch of equal bags,
    a 1-d input is cut into bags at offsets (see minitorch/_embedding_bag.py)."""
    if weight.dtype == _C.int64 and input.is_floating_point():
        warnings.warn("Argument order of nn.functional.embedding_bag was changed. Usage "
                      "`embedding_bag(weight, input, ...)` is deprecated, and should now be "
                      "`embedding_bag(input, weight, ...)`.", stacklevel=2)
        weight, input = input, weight
    if per_sample_weights is not None and input.size() != per_sample_weights.size():
        raise ValueError(f"embedding_bag: If per_sample_weights ({per_sample_weights.shape}) is not "
                         f"None, then it must have the same shape as the input ({input.shape})")
    if weight.dim() != 2:
        raise ValueError(f"weight has to be a 2D Tensor, but got Tensor of dimension {weight.dim()}")
    if input.dim() == 2:
        if offsets is not None:
            raise ValueError("if input is 2D, then offsets has to be None, as input is treated is a "
                             "mini-batch of fixed length sequences. However, found offsets of type "
                             f"{type(offsets)}")
        offsets = _C.arange(0, input.numel(), max(input.size(1), 1), dtype=input.dtype)
        if input.size(1) == 0:
            offsets = _C.zeros(input.size(0), dtype=input.dtype)
        include_last_offset = False
        input = input.reshape(-1)
        if per_sample_weights is not None:
            per_sample_weights = per_sample_weights.reshape(-1)
    elif input.dim() == 1:
        if offsets is None:
            raise ValueError("offsets has to be a 1D Tensor but got None")
        if offsets.dim() != 1:
            raise ValueError("offsets has to be a 1D Tensor")
    else:
        raise ValueError(f"input has to be 1D or 2D Tensor, but got Tensor of dimension {input.dim()}")
    if mode not in ("sum", "mean", "max"):
        raise ValueError("mode has to be one of sum, mean or max")
    if mode == "max":
        if scale_grad_by_freq:
            raise ValueError("max mode does not support scaling the gradient by the frequency")
        if sparse:
            raise ValueError("max mode does not support sparse weights")
    if max_norm is not None:
        _embedding_renorm_(weight, input, max_norm, norm_type)
    if per_sample_weights is not None and mode != "sum":
        raise NotImplementedError("embedding_bag: per_sample_weights was not None. per_sample_weights "
                                  f"is only supported for mode='sum' (got mode='{mode}'). Please open "
                                  "a feature request on GitHub.")
    return _mt.embedding_bag(weight, input, offsets, scale_grad_by_freq,
                             ("sum", "mean", "max").index(mode), sparse, per_sample_weights,
                             include_last_offset, padding_idx)[0]


def _norm_type_checked(norm_type):
    if isinstance(norm_type, (int, float)) and norm_type == 0:
        raise ValueError(f"norm_type must be a non-zero value, but got {norm_type}")


def _lp_pool(nd, input, norm_type, kernel_size, stride, ceil_mode):
    """(sum over each nd-dim window of x ** p) ** (1 / p), p = norm_type (inf: the max of |x|):
    the window's mean of x ** p times its size."""
    max_pool, avg_pool = {1: (max_pool1d, avg_pool1d), 2: (max_pool2d, avg_pool2d),
                          3: (max_pool3d, avg_pool3d)}[nd]
    _norm_type_checked(norm_type)
    if norm_type == math.inf:
        return max_pool(input.abs(), kernel_size, stride, 0, 1, ceil_mode)
    if norm_type == -math.inf:
        return -max_pool(-input.abs(), kernel_size, stride, 0, 1, ceil_mode)
    if stride is not None:
        out = avg_pool(input.pow(norm_type), kernel_size, stride, 0, ceil_mode)
    else:
        out = avg_pool(input.pow(norm_type), kernel_size, padding=0, ceil_mode=ceil_mode)
    size = math.prod(kernel_size if isinstance(kernel_size, (tuple, list)) else (kernel_size,) * nd)
    return (_mt.sign(out) * relu(out.abs())).mul(size).pow(1.0 / norm_type)


def lp_pool1d(input, norm_type, kernel_size, stride=None, ceil_mode=False):
    """(sum over each window of x ** p) ** (1 / p), p = norm_type (inf: the max of |x|)."""
    return _lp_pool(1, input, norm_type, kernel_size, stride, ceil_mode)


def lp_pool2d(input, norm_type, kernel_size, stride=None, ceil_mode=False):
    """lp_pool1d over 2-d windows."""
    return _lp_pool(2, input, norm_type, kernel_size, stride, ceil_mode)


def lp_pool3d(input, norm_type, kernel_size, stride=None, ceil_mode=False):
    """lp_pool1d over 3-d windows."""
    return _lp_pool(3, input, norm_type, kernel_size, stride, ceil_mode)


def _ntuple_arg(x, n):
    return tuple(x) if isinstance(x, (tuple, list)) else (x,) * n


def max_unpool1d(input, indices, kernel_size, stride=None, padding=0, output_size=None):
    """The inverse of max_pool1d (with its indices): maxima back in place, zeros elsewhere."""
    from ._unpool import max_unpool2d as _unpool, unpool_output_size
    kernel_size = _ntuple_arg(kernel_size, 1)
    stride = _ntuple_arg(stride, 1) if stride is not None else kernel_size
    padding = _ntuple_arg(padding, 1)
    size = list(unpool_output_size(input, kernel_size, stride, padding, output_size)) + [1]
    return _unpool(input.unsqueeze(-1), indices.unsqueeze(-1), size).squeeze(-1)


def max_unpool2d(input, indices, kernel_size, stride=None, padding=0, output_size=None):
    """The inverse of max_pool2d (with its indices): maxima back in place, zeros elsewhere."""
    from ._unpool import max_unpool2d as _unpool, unpool_output_size
    kernel_size = _ntuple_arg(kernel_size, 2)
    stride = _ntuple_arg(stride, 2) if stride is not None else kernel_size
    padding = _ntuple_arg(padding, 2)
    size = unpool_output_size(input, kernel_size, stride, padding, output_size)
    return _unpool(input, indices, size)


def max_unpool3d(input, indices, kernel_size, stride=None, padding=0, output_size=None):
    """The inverse of max_pool3d (with its indices): maxima back in place, zeros elsewhere
    (the indices are flat in each (D, H, W) plane, so the 2-d kernel serves on (D*H, W))."""
    from ._unpool import check_same_shape, max_unpool2d as _unpool, unpool_output_size
    kernel_size = _ntuple_arg(kernel_size, 3)
    stride = _ntuple_arg(stride, 3) if stride is not None else kernel_size
    padding = _ntuple_arg(padding, 3)
    if input.dim() not in (4, 5):
        raise RuntimeError(f"Input to max_unpooling3d should be a 4d or 5d Tensor, but got a "
                           f"tensor with {input.dim()} dimensions.")
    check_same_shape(input, indices)
    d, h, w = unpool_output_size(input, kernel_size, stride, padding, output_size)
    out = _unpool(input.flatten(-3, -2), indices.flatten(-3, -2), [d * h, w])
    return out.unflatten(-2, (d, h))


def rrelu(input, lower=1.0 / 8, upper=1.0 / 3, training=False, inplace=False):
    """Randomized leaky ReLU: negative inputs times a ~ U(lower, upper) per element in
    training, times (lower + upper) / 2 in evaluation."""
    if inplace:
        return _mt.rrelu_(input, lower, upper, training)
    return _mt.rrelu(input, lower, upper, training)


def rrelu_(input, lower=1.0 / 8, upper=1.0 / 3, training=False):
    return _mt.rrelu_(input, lower, upper, training)


def selu_(input):
    return selu(input, True)


def celu_(input, alpha=1.0):
    return celu(input, alpha, True)


def gumbel_softmax(logits, tau=1, hard=False, eps=1e-10, dim=-1):
    """softmax((logits + g) / tau) with g ~ Gumbel(0, 1) drawn per element; hard: the one-hot
    of its argmax in the forward pass with the soft sample's gradient (straight-through)."""
    if eps != 1e-10:
        warnings.warn("`eps` parameter is deprecated and has no effect.", stacklevel=2)
    gumbels = -_C.empty(logits.shape, dtype=logits.dtype, device=logits.device).exponential_().log()
    y_soft = ((logits + gumbels) / tau).softmax(dim)
    if not hard:
        return y_soft
    index = y_soft.max(dim, keepdim=True)[1]
    y_hard = _C.zeros(logits.shape, dtype=logits.dtype, device=logits.device).scatter_(dim, index, 1.0)
    return y_hard - y_soft.detach() + y_soft


def local_response_norm(input, size, alpha=1e-4, beta=0.75, k=1.0):
    """input / (k + alpha * mean of input**2 over `size` neighbouring channels) ** beta, the
    window centred (size // 2 before, (size - 1) // 2 after) and zero padded."""
    nd = input.dim()
    if nd < 3:
        # torch's message, spacing included
        raise ValueError(f"Expected 3D or higher dimensionality{' ' * 26}input (got {nd} dimensions)")
    if input.numel() == 0:
        return input
    sq = input.mul(input)
    shape = input.shape
    flat = sq.reshape(shape[0], shape[1], -1)
    flat = pad(flat, (0, 0, size // 2, (size - 1) // 2))
    div = flat.unfold(1, size, 1).sum(-1).div(size).view(shape)
    return input / div.mul(alpha).add(k).pow(beta)


__all__ += ["rrelu", "rrelu_", "selu_", "celu_", "gumbel_softmax", "local_response_norm"]


def ctc_loss(log_probs, targets, input_lengths, target_lengths, blank=0, reduction="mean",
             zero_infinity=False):
    """The connectionist temporal classification loss (see minitorch/_ctc.py)."""
    return _mt.ctc_loss(log_probs, targets, input_lengths, target_lengths, blank,
                        _reduction_enum(reduction), zero_infinity)


def _reduction_enum(reduction):
    """torch's reduction numbers: none 0, mean 1, sum 2."""
    if reduction == "none":
        return 0
    if reduction == "mean":
        return 1
    if reduction == "sum":
        return 2
    raise ValueError(f"{reduction} is not a valid value for reduction")


__all__ += ["ctc_loss"]


def _reduction_enum_legacy(size_average, reduce, reduction):
    return _reduction_enum(_reduction(size_average, reduce, reduction))


def triplet_margin_loss(anchor, positive, negative, margin=1.0, p=2, eps=1e-6, swap=False,
                        size_average=None, reduce=None, reduction="mean"):
    """max(d(a, p) - d(a, n) + margin, 0) with d the pairwise p-norm distance."""
    red = _reduction_enum_legacy(size_average, reduce, reduction)
    if margin <= 0:
        raise ValueError(f"margin must be greater than 0, got {margin}")
    return _mt.triplet_margin_loss(anchor, positive, negative, margin, p, eps, swap, red)


def triplet_margin_with_distance_loss(anchor, positive, negative, *, distance_function=None,
                                      margin=1.0, swap=False, reduction="mean"):
    """triplet_margin_loss with any distance function (default pairwise_distance)."""
    if reduction not in ("mean", "sum", "none"):
        raise ValueError(f"{reduction} is not a valid value for reduction")
    if margin <= 0:
        raise ValueError(f"margin must be greater than 0, got {margin}")
    a, pd, nd = anchor.ndim, positive.ndim, negative.ndim
    if not (a == pd and pd == nd):
        raise RuntimeError("The anchor, positive, and negative tensors are expected to have the same "
                           f"number of dimensions, but got: anchor {a}D, positive {pd}D, and "
                           f"negative {nd}D inputs")
    if distance_function is None:
        distance_function = _mt.pairwise_distance
    d_pos = distance_function(anchor, positive)
    d_neg = distance_function(anchor, negative)
    if swap:
        d_neg = _mt.minimum(d_neg, distance_function(positive, negative))
    return _reduce(_mt.clamp_min(margin + d_pos - d_neg, 0), reduction)


def margin_ranking_loss(input1, input2, target, margin=0, size_average=None, reduce=None,
                        reduction="mean"):
    """max(0, -target * (input1 - input2) + margin)."""
    red = _reduction_enum_legacy(size_average, reduce, reduction)
    if input1.dim() != input2.dim() or input1.dim() != target.dim():
        raise RuntimeError("margin_ranking_loss : All input tensors should have same dimension but got "
                           f"sizes: input1: {input1.size()}, input2: {input2.size()}, target: "
                           f"{target.size()} ")
    return _mt.margin_ranking_loss(input1, input2, target, margin, red)


def cosine_embedding_loss(input1, input2, target, margin=0, size_average=None, reduce=None,
                          reduction="mean"):
    """1 - cos(x1, x2) for target 1, max(0, cos(x1, x2) - margin) for target -1."""
    red = _reduction_enum_legacy(size_average, reduce, reduction)
    return _mt.cosine_embedding_loss(input1, input2, target, margin, red)


def hinge_embedding_loss(input, target, margin=1.0, size_average=None, reduce=None,
                         reduction="mean"):
    """input for target 1, max(0, margin - input) for target -1."""
    red = _reduction_enum_legacy(size_average, reduce, reduction)
    return _mt.hinge_embedding_loss(input, target, margin, red)


def poisson_nll_loss(input, target, log_input=True, full=False, size_average=None, eps=1e-8,
                     reduce=None, reduction="mean"):
    """The negative log likelihood of target under Poisson(exp(input)) (or Poisson(input))."""
    if size_average is not None or reduce is not None:
        reduction = _reduction(size_average, reduce, reduction)
    if reduction not in ("none", "mean", "sum"):
        raise ValueError(reduction + " is not a valid value for reduction")
    return _mt.poisson_nll_loss(input, target, log_input, full, eps, _reduction_enum(reduction))


def gaussian_nll_loss(input, target, var, full=False, eps=1e-6, reduction="mean"):
    """0.5 * (log(var) + (input - target)**2 / var) (+ 0.5 * log(2 pi) when full), var clamped
    at eps without gradient there; var may have one dim fewer, or size 1 in one dim."""
    if isinstance(var, float):
        if var < 0:
            raise ValueError("var has negative entry/entries")
        var = var * _mt.ones_like(input)
    elif not isinstance(var, _C.TensorBase):
        raise TypeError(f"gaussian_nll_loss(): var must be a Tensor or a float, not {type(var).__name__}")
    elif bool((var < 0).any()):
        raise ValueError("var has negative entry/entries")
    if var.size() != input.size():
        if input.size()[:-1] == var.size():
            var = var.unsqueeze(-1)
        elif input.ndim == var.ndim and sum(y for x, y in zip(input.size(), var.size()) if x != y) == 1:
            pass
        else:
            raise ValueError("var is of incorrect size")
    if reduction not in ("none", "mean", "sum"):
        raise ValueError(reduction + " is not valid")
    var = var.clone()
    with no_grad():
        var.clamp_(min=eps)
    loss = 0.5 * (var.log() + (input - target) ** 2 / var)
    if full:
        loss = loss + 0.5 * math.log(2 * math.pi)
    return _reduce(loss, reduction)


def multilabel_soft_margin_loss(input, target, weight=None, size_average=None, reduce=None,
                                reduction="mean"):
    """The mean over classes of the binary cross entropy of sigmoid(input) against 0/1
    targets (times weight)."""
    if size_average is not None or reduce is not None:
        reduction = _reduction(size_average, reduce, reduction)
    loss = -(target * logsigmoid(input) + (1 - target) * logsigmoid(-input))
    if weight is not None:
        loss = loss * weight
    if input.dim() == 0:
        raise IndexError("Dimension specified as -1 but tensor has no dimensions")
    class_dim = input.dim() - 1
    loss = loss.sum(dim=class_dim) / input.size(class_dim)
    if reduction == "none":
        return loss
    if reduction == "mean":
        return loss.mean()
    if reduction == "sum":
        return loss.sum()
    raise ValueError(reduction + " is not valid")


def _margin_frames(input, fname):
    """(frames, classes) of a multi-class margin loss's (C,) or (N, C) input, checked."""
    nd = input.dim()
    if not ((nd == 2 and input.size(1) != 0) or (nd == 1 and input.size(0) != 0) or nd == 0):
        raise RuntimeError("Expected non-empty vector or matrix with optional 0-dim batch size, but "
                           f"got: {list(input.shape)}")
    if nd <= 1:
        return 1, (1 if nd == 0 else input.size(0))
    return input.size(0), input.size(1)


def _long_target(target):
    if target.dtype != _C.int64:
        raise RuntimeError(f"expected scalar type Long but found {_scalar_name(target.dtype)}")


def multi_margin_loss(input, target, p=1, margin=1.0, weight=None, size_average=None, reduce=None,
                      reduction="mean"):
    """sum over i != y of max(0, margin - x[y] + x[i]) ** p (times weight[y]), divided by the
    number of classes, per sample."""
    reduction = _reduction(size_average, reduce, reduction)
    if p != 1 and p != 2:
        raise ValueError("only p == 1 and p == 2 supported")
    if weight is not None and weight.dim() != 1:
        raise ValueError("weight must be one-dimensional")
    frames, classes = _margin_frames(input, "multi_margin_loss")
    if input.dim() == 2 and (target.dim() != 1 or target.numel() != frames):
        raise RuntimeError("multi_margin_loss: target tensor should be 1-D with size equal to the "
                           "number of input samples (batch size). Expected target size "
                           f"[{frames}], but got {list(target.shape)}. Input has shape "
                           f"{list(input.shape)}.")
    if input.dim() < 2 and (target.dim() > 1 or target.numel() != frames):
        raise RuntimeError(f"inconsistent target size, expected {frames} but got {list(target.shape)}")
    if weight is not None and weight.numel() != classes:
        raise RuntimeError(f"inconsistent weight size, expected {classes} but got {list(weight.shape)}")
    _long_target(target)
    if not input.dtype.is_floating_point:
        raise NotImplementedError("\"multi_margin_loss_cpu_kernel\" not implemented for "
                                  f"'{_scalar_name(input.dtype)}'")
    if weight is not None and weight.dtype != input.dtype:
        raise RuntimeError(f"expected scalar type {_scalar_name(input.dtype)} but found "
                           f"{_scalar_name(weight.dtype)}")
    x = input.reshape(frames, classes)
    y = target.reshape(frames, 1)
    if y.numel() and (bool((y < 0).any()) or bool((y >= classes).any())):
        raise RuntimeError("target out of range")
    z = margin - x.gather(1, y) + x
    z = _mt.where((z > 0).scatter_(1, y, False), z, z.new_zeros(()))
    if p == 2:
        z = z * z
    if weight is not None:
        z = z * weight.index_select(0, y.reshape(-1)).unsqueeze(1)
    loss = z.sum(1) / classes
    if reduction == "none":
        return loss if input.dim() == 2 else loss.reshape(target.shape if target.dim() else ())
    return _reduce(loss, reduction)


def multilabel_margin_loss(input, target, size_average=None, reduce=None, reduction="mean"):
    """For each sample, sum over its target classes j (target's entries before the first -1)
    and its other classes i of max(0, 1 - (x[j] - x[i])), divided by the number of classes."""
    reduction = _reduction(size_average, reduce, reduction)
    frames, classes = _margin_frames(input, "multilabel_margin_loss")
    nd = input.dim()
    if nd <= 1:
        if target.dim() > 1 or target.numel() != classes:
            raise RuntimeError(f"inconsistent target size: {list(target.shape)} for input of size: "
                               f"{list(input.shape)}")
    elif target.dim() != 2 or target.size(0) != frames or target.size(1) != classes:
        raise RuntimeError(f"inconsistent target size: {list(target.shape)} for input of size: "
                           f"{list(input.shape)}")
    _long_target(target)
    if not input.dtype.is_floating_point:
        raise NotImplementedError("\"multilabel_margin_loss_forward_out_frame\" not implemented for "
                                  f"'{_scalar_name(input.dtype)}'")
    x = input.reshape(frames, classes)
    t = target.reshape(frames, classes)
    if t.numel() and (bool((t < -1).any()) or bool((t >= classes).any())):
        raise RuntimeError("argument #2 'target' is out of range")
    # the targets of each sample: its entries before the first -1 (repeats count again)
    valid = (t >= 0).long().cumprod(1).bool()
    count = int(valid.sum(1).max()) if t.numel() else 0
    is_target = _C.zeros((frames, classes), dtype=_C.bool)
    if count:
        tk, vk = t[:, :count], valid[:, :count]
        rows = _C.arange(frames).unsqueeze(1).expand(frames, count)
        is_target.index_put_((rows[vk], tk[vk]), _C.ones((), dtype=_C.bool))
        xt = x.gather(1, tk.clamp_min(0))                                    # (N, K)
        z = 1 - xt.unsqueeze(2) + x.unsqueeze(1)                             # (N, K, C)
        keep = (z > 0) & vk.unsqueeze(2) & is_target.logical_not().unsqueeze(1)
        loss = _mt.where(keep, z, z.new_zeros(())).sum((1, 2)) / classes
    else:
        loss = x.sum(1) * 0
    if reduction == "none":
        return loss if nd == 2 else loss.reshape(())
    return _reduce(loss, reduction)


__all__ += ["triplet_margin_loss", "triplet_margin_with_distance_loss", "margin_ranking_loss",
            "cosine_embedding_loss", "hinge_embedding_loss", "poisson_nll_loss", "gaussian_nll_loss",
            "multilabel_soft_margin_loss", "multi_margin_loss", "multilabel_margin_loss"]


__all__ += ["pixel_shuffle", "pixel_unshuffle", "channel_shuffle", "native_channel_shuffle", "fold",
            "unfold", "grid_sample", "affine_grid", "embedding_bag",
            "lp_pool1d", "lp_pool2d", "max_unpool1d",
            "max_unpool2d"]
# ---- distances: pdist (python/minitorch/_distance.py) ------------------------------------------

def pdist(input, p=2):
    """The p-norm distances between the rows of a 2-D input (upper triangle, row order)."""
    return _mt.pdist(input, p)
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
__all__ += ["lp_pool3d", "max_unpool3d"]


def max_pool1d_with_indices(input, kernel_size, stride=None, padding=0, dilation=1,
                            ceil_mode=False, return_indices=True):
    return max_pool1d(input, kernel_size, stride, padding, dilation, ceil_mode, True)


def adaptive_max_pool2d_with_indices(input, output_size, return_indices=True):
    return adaptive_max_pool2d(input, output_size, True)


__all__ += ["max_pool1d_with_indices", "adaptive_max_pool2d_with_indices"]


def fractional_max_pool2d(input, kernel_size, output_size=None, output_ratio=None,
                          return_indices=False, _random_samples=None):
    """Max pooling over pseudo-randomly spread 2-d windows (Note [Fractional windows])."""
    from ._fractional_pool import fractional_max_pool
    return fractional_max_pool(input, kernel_size, output_size, output_ratio, return_indices,
                               _random_samples, 2)


def fractional_max_pool3d(input, kernel_size, output_size=None, output_ratio=None,
                          return_indices=False, _random_samples=None):
    """Max pooling over pseudo-randomly spread 3-d windows (Note [Fractional windows])."""
    from ._fractional_pool import fractional_max_pool
    return fractional_max_pool(input, kernel_size, output_size, output_ratio, return_indices,
                               _random_samples, 3)


def fractional_max_pool2d_with_indices(input, kernel_size, output_size=None, output_ratio=None,
                                       return_indices=False, _random_samples=None):
    return fractional_max_pool2d(input, kernel_size, output_size, output_ratio, True,
                                 _random_samples)


def fractional_max_pool3d_with_indices(input, kernel_size, output_size=None, output_ratio=None,
                                       return_indices=False, _random_samples=None):
    return fractional_max_pool3d(input, kernel_size, output_size, output_ratio, True,
                                 _random_samples)


__all__ += ["fractional_max_pool2d", "fractional_max_pool3d",
            "fractional_max_pool2d_with_indices", "fractional_max_pool3d_with_indices"]


def linear_cross_entropy(input, linear_weight, target, *, linear_bias=None, weight=None,
                         reduction="mean", ignore_index=None, label_smoothing=0.0, options=None):
    """cross_entropy of a linear projection (nn.LinearCrossEntropyLoss's functional form)."""
    from .modules.linear_cross_entropy import linear_cross_entropy as lce
    return lce(input, linear_weight, target, linear_bias=linear_bias, weight=weight,
               reduction=reduction, ignore_index=ignore_index, label_smoothing=label_smoothing,
               options=options)


__all__ += ["linear_cross_entropy"]
