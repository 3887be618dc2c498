"""Convolution and pooling for minitorch.nn.functional: conv1d, conv2d, max_pool2d, avg_pool2d,
adaptive_avg_pool2d, adaptive_max_pool2d.

The kernels are C (aten_lite/conv.c, winograd.c, pool.c, bound as private _C functions, see Note
[Private nn kernels] in csrc/nn_binding.c); this module resolves torch's argument forms (padding
'same'/'valid', conv1d as a conv2d of height 1, output sizes with None) and makes each op an
autograd.Function whose backward calls the matching backward kernel.  The backward kernels are not
themselves recorded, so these ops have first derivatives only (once_differentiable).  Channels-last
operands of conv2d take minitorch.convolution instead (the same kernel, a recorded op with
derivatives of every order), whose result and gradients have torch's channels-last layout; the
poolings give channels-last inputs channels-last results and gradients."""
import minitorch as _mt

from .. import _C
from .._formats import _channels_last_of, _in_format
from ..autograd.function import Function, once_differentiable

__all__ = ["conv1d", "conv2d", "max_pool2d", "max_pool2d_with_indices", "avg_pool2d",
           "adaptive_avg_pool2d", "adaptive_max_pool2d"]


def _pair(v):
    if isinstance(v, (list, tuple)):
        return tuple(v) if len(v) != 1 else (v[0], v[0])
    return (v, v)


class Convolution(Function):
    """conv2d through _C._conv2d; backward: _C._conv2d_backward for the inputs that need it."""

    @staticmethod
    def forward(ctx, input, weight, bias, stride, padding, dilation, groups):
        ctx.conv = (stride, padding, dilation, groups)
        ctx.save_for_backward(input, weight)
        ctx._cnode = ("conv2d", input, weight, stride, padding, dilation, groups)
        return _C._conv2d(input, weight, bias, stride, padding, dilation, groups)

    @staticmethod
    @once_differentiable
    def backward(ctx, grad):
        input, weight = ctx.saved_tensors
        need = ctx.needs_input_grad
        gi, gw, gb = _C._conv2d_backward(grad, input, weight, *ctx.conv,
                                          output_mask=(need[0], need[1], need[2]))
        return gi, gw, gb, None, None, None, None


def _same_padding(weight, dilation, stride, ndims):
    """torch's padding='same': (padding, trim) where padding is symmetric and trim says, per
    spatial dim, whether the first output row/column must be dropped (an odd total padding is
    one more on the right in torch; here it is one more on both sides, then trimmed)."""
    if any(s != 1 for s in _pair(stride)):
        raise RuntimeError("padding='same' is not supported for strided convolutions")
    if not isinstance(weight, _C.TensorBase) or weight.dim() != ndims + 2:
        return (0,) * ndims, (False,) * ndims
    dil = dilation if isinstance(dilation, (list, tuple)) else (dilation,) * ndims
    if len(dil) == 1:
        dil = tuple(dil) * ndims
    pads, trim = [], []
    for d, k in zip(dil, weight.shape[2:]):
        total = d * (k - 1)
        pads.append((total + 1) // 2)
        trim.append(total % 2 == 1)
    return tuple(pads), tuple(trim)


def _resolve_padding(padding, weight, dilation, stride, ndims):
    if isinstance(padding, str):
        if padding == "valid":
            return (0,) * ndims, (False,) * ndims
        if padding == "same":
            return _same_padding(weight, dilation, stride, ndims)
        raise RuntimeError(f"Invalid padding string: '{padding}'")
    return padding, (False,) * ndims


def conv2d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    """torch.nn.functional.conv2d: input (N, C_in, H, W) or (C_in, H, W), weight
    (C_out, C_in/groups, kH, kW), padding an int, a pair, 'valid' or 'same'."""
    return _conv2d(input, weight, bias, stride, padding, dilation, groups, True)


def _conv2d(input, weight, bias, stride, padding, dilation, groups, layouts):
    """conv2d; layouts: channels-last operands give a channels-last result (not for conv1d,
    whose height-1 images may look channels-last)."""
    padding, trim = _resolve_padding(padding, weight, dilation, stride, 2)
    if layouts and isinstance(input, _C.TensorBase) and isinstance(weight, _C.TensorBase) and \
            input.dim() == 4 and weight.dim() == 4 and _channels_last_of(input, weight):
        # channels-last operands: minitorch.convolution (the same kernel), whose result and
        # gradients are laid out as torch lays them out
        out = _mt.convolution(input, weight, bias, stride, padding, dilation, False, 0, groups)
    else:
        out = Convolution.apply(input, weight, bias, stride, padding, dilation, groups)
    if trim[0]:
        out = out[..., 1:, :]
    if trim[1]:
        out = out[..., :, 1:]
    return out


def _conv1d_arg(v, name, dflt):
    if isinstance(v, (list, tuple)):
        if len(v) != 1:
            raise RuntimeError(f"expected {name} to be a single integer value or a list of 1 "
                               f"values to match the convolution dimensions, but got "
                               f"{name}={list(v)}")
        v = v[0]
    return (dflt, v)


def conv1d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    """torch.nn.functional.conv1d: input (N, C_in, L) or (C_in, L), weight (C_out, C_in/groups,
    k); computed as a conv2d of height 1."""
    if not isinstance(input, _C.TensorBase) or input.dim() not in (2, 3):
        shape = list(input.shape) if isinstance(input, _C.TensorBase) else input
        raise RuntimeError("Expected 2D (unbatched) or 3D (batched) input to conv1d, but got "
                           f"input of size: {shape}")
    if isinstance(weight, _C.TensorBase) and weight.dim() != 3:
        raise RuntimeError(f"Expected 3-dimensional weight for 3-dimensional input, but got "
                           f"{weight.dim()}-dimensional weight of size {list(weight.shape)} "
                           "instead")
    if isinstance(padding, str):
        if padding not in ("valid", "same"):
            raise RuntimeError(f"Invalid padding string: '{padding}'")
        pad2 = padding
    else:
        pad2 = _conv1d_arg(padding, "padding", 0)
    w2 = weight.unsqueeze(2) if isinstance(weight, _C.TensorBase) else weight
    out = _conv2d(input.unsqueeze(-2), w2, bias, _conv1d_arg(stride, "stride", 1), pad2,
                  _conv1d_arg(dilation, "dilation", 1), groups, False)
    return out.squeeze(-2)


class MaxPool2DWithIndices(Function):
    """max_pool2d through _C._max_pool2d_with_indices; backward scatters by the indices."""

    @staticmethod
    def forward(ctx, input, kernel_size, stride, padding, dilation, ceil_mode):
        values, indices = _C._max_pool2d_with_indices(input, kernel_size, stride, padding,
                                                      dilation, ceil_mode)
        ctx.pool = (kernel_size, stride, padding, dilation, ceil_mode)
        ctx.save_for_backward(input, indices)
        ctx.mark_non_differentiable(indices)
        ctx.set_materialize_grads(False)
        if _channels_last_of(input) is None:  # (else the Python backward keeps the layout)
            ctx._cnode = ("max_pool2d", input, indices, kernel_size, stride, padding, dilation,
                          ceil_mode)  # the indices never get a gradient: no zeros for them
        return values, indices

    @staticmethod
    @once_differentiable
    def backward(ctx, grad, _grad_indices):
        if grad is None:
            return None, None, None, None, None, None
        input, indices = ctx.saved_tensors
        gx = _C._max_pool2d_backward(grad, input, indices, *ctx.pool)
        return _in_format(gx, _channels_last_of(input)), None, None, None, None, None


def _check_pool_arg(v, fname, what, msg, allow_empty=False):
    if isinstance(v, (list, tuple)) and not (len(v) in (1, 2) or (allow_empty and len(v) == 0)):
        raise RuntimeError(f"{fname}: {what} {msg}")


def max_pool2d(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False,
               return_indices=False):
    """torch.nn.functional.max_pool2d (and max_pool2d_with_indices with return_indices=True):
    indices are h * W + w within each plane."""
    _check_pool_arg(kernel_size, "max_pool2d", "kernel_size",
                    "must either be a single int, or a tuple of two ints")
    _check_pool_arg(stride, "max_pool2d", "stride",
                    "must either be omitted, a single int, or a tuple of two ints", True)
    _check_pool_arg(padding, "max_pool2d", "padding",
                    "must either be a single int, or a tuple of two ints")
    _check_pool_arg(dilation, "max_pool2d", "dilation",
                    "must be either a single int, or a tuple of two ints")
    if stride is not None and isinstance(stride, (list, tuple)) and len(stride) == 0:
        stride = None
    values, indices = MaxPool2DWithIndices.apply(input, kernel_size, stride, padding, dilation,
                                                 bool(ceil_mode))
    fmt = _channels_last_of(input)  # channels-last stays so (as torch)
    values, indices = _in_format(values, fmt), _in_format(indices, fmt)
    return (values, indices) if return_indices else values


def max_pool2d_with_indices(input, kernel_size, stride=None, padding=0, dilation=1,
                            ceil_mode=False, return_indices=False):
    return max_pool2d(input, kernel_size, stride, padding, dilation, ceil_mode, True)


class AvgPool2D(Function):
    @staticmethod
    def forward(ctx, input, kernel_size, stride, padding, ceil_mode, count_include_pad,
                divisor_override):
        ctx.pool = (kernel_size, stride, padding, ceil_mode, count_include_pad, divisor_override)
        ctx.save_for_backward(input)
        return _C._avg_pool2d(input, *ctx.pool)

    @staticmethod
    @once_differentiable
    def backward(ctx, grad):
        (input,) = ctx.saved_tensors
        gx = _C._avg_pool2d_backward(grad, input, *ctx.pool)
        return _in_format(gx, _channels_last_of(input)), None, None, None, None, None, None


def avg_pool2d(input, kernel_size, stride=None, padding=0, ceil_mode=False,
               count_include_pad=True, divisor_override=None):
    """torch.nn.functional.avg_pool2d."""
    _check_pool_arg(kernel_size, "avg_pool2d", "kernel_size",
                    "must either be a single int, or a tuple of two ints")
    _check_pool_arg(stride, "avg_pool2d", "stride",
                    "must either be omitted, a single int, or a tuple of two ints", True)
    _check_pool_arg(padding, "avg_pool2d", "padding",
                    "must either be a single int, or a tuple of two ints")
    if stride is not None and isinstance(stride, (list, tuple)) and len(stride) == 0:
        stride = None
    return _in_format(AvgPool2D.apply(input, kernel_size, stride, padding, bool(ceil_mode),
                                      bool(count_include_pad), divisor_override),
                      _channels_last_of(input))


class AdaptiveAvgPool2D(Function):
    @staticmethod
    def forward(ctx, input, output_size):
        ctx.save_for_backward(input)
        return _C._adaptive_avg_pool2d(input, output_size)

    @staticmethod
    @once_differentiable
    def backward(ctx, grad):
        (input,) = ctx.saved_tensors
        gx = _C._adaptive_avg_pool2d_backward(grad, input)
        return _in_format(gx, _channels_last_of(input)), None


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
    """torch.nn.functional.adaptive_avg_pool2d: output_size an int or a pair whose None entries
    keep the input's size."""
    output_size = _adaptive_size(input, output_size, "adaptive_avg_pool2d",
                                 "adaptive_avg_pool2d: output_size must be 2")
    return _in_format(AdaptiveAvgPool2D.apply(input, output_size), _channels_last_of(input))


class AdaptiveMaxPool2D(Function):
    @staticmethod
    def forward(ctx, input, output_size):
        values, indices = _C._adaptive_max_pool2d(input, output_size)
        ctx.save_for_backward(input, indices)
        ctx.mark_non_differentiable(indices)
        ctx.set_materialize_grads(False)
        return values, indices

    @staticmethod
    @once_differentiable
    def backward(ctx, grad, _grad_indices):
        if grad is None:
            return None, None
        input, indices = ctx.saved_tensors
        gx = _C._adaptive_max_pool2d_backward(grad, input, indices)
        return _in_format(gx, _channels_last_of(input)), None


def adaptive_max_pool2d(input, output_size, return_indices=False):
    """torch.nn.functional.adaptive_max_pool2d (indices h * W + w within each plane)."""
    output_size = _adaptive_size(input, output_size, "adaptive_max_pool2d",
                                 "adaptive_max_pool2d(): internal error: output_size.size() must "
                                 "be 2")
    values, indices = AdaptiveMaxPool2D.apply(input, output_size)
    fmt = _channels_last_of(input)
    values, indices = _in_format(values, fmt), _in_format(indices, fmt)
    return (values, indices) if return_indices else values
