"""The nn operators torch also has in its top-level namespace, under their ATen signatures
(torch.layer_norm, torch.batch_norm, torch.embedding, torch.max_pool2d, torch.kl_div, ...),
each calling nn.functional: the argument orders differ from F's where ATen's do (batch_norm's
weight first, embedding's weight first, padding_idx -1 meaning none, reductions as ints)."""

_REDUCTIONS = {0: "none", 1: "mean", 2: "sum"}


def _F():
    from .nn import functional
    return functional


def _reduction(reduction):
    """ATen's int reduction: 1 mean, 2 sum, anything else none (as ATen reads it)."""
    return _REDUCTIONS.get(reduction, "none")


def _stride(stride):
    return None if stride is None or (isinstance(stride, (list, tuple)) and not stride) else stride


def layer_norm(input, normalized_shape, weight=None, bias=None, eps=1e-05, cudnn_enable=True):
    return _F().layer_norm(input, normalized_shape, weight, bias, eps)


def group_norm(input, num_groups, weight=None, bias=None, eps=1e-05, cudnn_enabled=True):
    return _F().group_norm(input, num_groups, weight, bias, eps)


def batch_norm(input, weight, bias, running_mean, running_var, training, momentum, eps,
               cudnn_enabled):
    return _F().batch_norm(input, running_mean, running_var, weight, bias, training, momentum,
                           eps)


def instance_norm(input, weight, bias, running_mean, running_var, use_input_stats, momentum,
                  eps, cudnn_enabled):
    return _F().instance_norm(input, running_mean, running_var, weight, bias, use_input_stats,
                              momentum, eps)


def rms_norm(input, normalized_shape, weight=None, eps=None):
    return _F().rms_norm(input, normalized_shape, weight, eps)


def embedding(weight, indices, padding_idx=-1, scale_grad_by_freq=False, sparse=False):
    """ATen's embedding: weight first; padding_idx -1 is none."""
    return _F().embedding(indices, weight, None if padding_idx == -1 else padding_idx,
                          scale_grad_by_freq=scale_grad_by_freq, sparse=sparse)


def prelu(input, weight):
    return _F().prelu(input, weight)


def bilinear(input1, input2, weight, bias=None):
    return _F().bilinear(input1, input2, weight, bias)


def hardshrink(input, lambd=0.5):
    return _F().hardshrink(input, lambd)


def threshold(input, threshold, value):
    return _F().threshold(input, threshold, value)


def max_pool1d(input, kernel_size, stride=(), padding=0, dilation=1, ceil_mode=False):
    return _F().max_pool1d(input, kernel_size, _stride(stride), padding, dilation,
                           ceil_mode=ceil_mode)


def max_pool1d_with_indices(input, kernel_size, stride=(), padding=0, dilation=1,
                            ceil_mode=False):
    return _F().max_pool1d(input, kernel_size, _stride(stride), padding, dilation,
                           ceil_mode=ceil_mode, return_indices=True)


def max_pool2d(input, kernel_size, stride=(), padding=0, dilation=1, ceil_mode=False):
    return _F().max_pool2d(input, kernel_size, _stride(stride), padding, dilation,
                           ceil_mode=ceil_mode)


def avg_pool1d(input, kernel_size, stride=(), padding=0, ceil_mode=False,
               count_include_pad=True):
    return _F().avg_pool1d(input, kernel_size, _stride(stride), padding, ceil_mode,
                           count_include_pad)


def adaptive_avg_pool1d(input, output_size):
    return _F().adaptive_avg_pool1d(input, output_size)


# the int reductions default to 0 (none) when not given: what torch's top-level functions do
# (their declared default, Mean, is not what a call without the argument gets)
def kl_div(input, target, reduction=0, log_target=False):
    """ATen's kl_div: reduction an int; 1 (mean) is the mean over every element."""
    r = _reduction(reduction)
    loss = _F().kl_div(input, target, reduction="none", log_target=log_target)
    return loss if r == "none" else (loss.mean() if r == "mean" else loss.sum())


def binary_cross_entropy_with_logits(input, target, weight=None, pos_weight=None, reduction=0):
    return _F().binary_cross_entropy_with_logits(input, target, weight,
                                                 reduction=_reduction(reduction),
                                                 pos_weight=pos_weight)


__all__ = ["layer_norm", "group_norm", "batch_norm", "instance_norm", "rms_norm", "embedding",
           "prelu", "bilinear", "hardshrink", "threshold", "max_pool1d",
           "max_pool1d_with_indices", "max_pool2d", "avg_pool1d", "adaptive_avg_pool1d",
           "kl_div", "binary_cross_entropy_with_logits"]
