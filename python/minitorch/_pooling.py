"""Pooling as op-table rows: max, average, adaptive average and adaptive max pooling in 2-D and
3-D (torch.max_pool3d and adaptive_max_pool1d, a 3-D pooling of depth and height 1, too).

Each kernel (aten_lite/pool.c) and its backward are rows with derivatives (autograd/formulas.py):
the backward of a max pooling scatters by the indices and its own derivative gathers by them;
the average poolings are linear, the derivative of each backward being the forward again.  So
gradients of every order are recorded ops.  nn.functional checks torch's argument forms and
calls these rows."""
import sys

from . import _C
from ._checks import scalar_type_name
from ._formats import _channels_last_of, _in_format

__all__ = ["max_pool3d", "adaptive_max_pool1d"]


def _mt():
    return sys.modules["minitorch"]


def _named(fn, name, doc):
    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = doc
    return fn


def _pooling_rows(nsp, averages_keep_format):
    """The kernel rows of the nsp-d poolings (2 or 3): each calls its _C kernel, and gives a
    channels-last input's result (and gradient) torch's layout: max pooling keeps channels-last,
    the averages keep it in 2-D only (averages_keep_format)."""
    d = f"{nsp}d"
    k = {n: getattr(_C, n.format(d)) for n in (
        "_max_pool{}_with_indices", "_max_pool{}_backward", "_avg_pool{}", "_avg_pool{}_backward",
        "_adaptive_avg_pool{}", "_adaptive_avg_pool{}_backward", "_adaptive_max_pool{}",
        "_adaptive_max_pool{}_backward")}

    def avg_format(input):
        return _channels_last_of(input) if averages_keep_format else None

    def max_pool_with_indices(input, kernel_size, stride=None, padding=0, dilation=1,
                              ceil_mode=False):
        values, indices = k["_max_pool{}_with_indices"](input, kernel_size, stride, padding,
                                                         dilation, ceil_mode)
        fmt = _channels_last_of(input)
        return _in_format(values, fmt), _in_format(indices, fmt)

    def max_pool_backward(grad_output, input, indices, kernel_size, stride=None, padding=0,
                          dilation=1, ceil_mode=False):
        gx = k["_max_pool{}_backward"](grad_output, input, indices, kernel_size, stride,
                                       padding, dilation, ceil_mode)
        return _in_format(gx, _channels_last_of(input))  # laid out as the input

    def avg_pool(input, kernel_size, stride=None, padding=0, ceil_mode=False,
                 count_include_pad=True, divisor_override=None):
        return _in_format(k["_avg_pool{}"](input, kernel_size, stride, padding, ceil_mode,
                                           count_include_pad, divisor_override),
                          avg_format(input))

    def avg_pool_backward(grad_output, input, kernel_size, stride=None, padding=0,
                          ceil_mode=False, count_include_pad=True, divisor_override=None):
        gx = k["_avg_pool{}_backward"](grad_output, input, kernel_size, stride, padding,
                                       ceil_mode, count_include_pad, divisor_override)
        return _in_format(gx, _channels_last_of(input))

    def adaptive_avg_pool(input, output_size):
        return _in_format(k["_adaptive_avg_pool{}"](input, output_size), avg_format(input))

    def adaptive_avg_pool_backward(grad_output, input):
        return _in_format(k["_adaptive_avg_pool{}_backward"](grad_output, input),
                          _channels_last_of(input))

    def adaptive_max_pool(input, output_size):
        values, indices = k["_adaptive_max_pool{}"](input, output_size)
        fmt = avg_format(input)
        return _in_format(values, fmt), _in_format(indices, fmt)

    def adaptive_max_pool_backward(grad_output, input, indices):
        return _in_format(k["_adaptive_max_pool{}_backward"](grad_output, input, indices),
                          _channels_last_of(input))

    plane = "h * W + w" if nsp == 2 else "(d * H + h) * W + w"
    return {f"_max_pool{d}_with_indices": _named(
                max_pool_with_indices, f"_max_pool{d}_with_indices",
                f"(values, indices) of a {nsp}-D max pooling; indices {plane} within each plane."),
            f"_max_pool{d}_backward": _named(max_pool_backward, f"_max_pool{d}_backward",
                                             "The gradient of the max pooling: scattered by "
                                             "the indices."),
            f"_avg_pool{d}": _named(avg_pool, f"_avg_pool{d}", f"{nsp}-D average pooling."),
            f"_avg_pool{d}_backward": _named(avg_pool_backward, f"_avg_pool{d}_backward",
                                             "The gradient of the average pooling."),
            f"_adaptive_avg_pool{d}": _named(adaptive_avg_pool, f"_adaptive_avg_pool{d}",
                                             f"{nsp}-D adaptive average pooling to output_size."),
            f"_adaptive_avg_pool{d}_backward": _named(
                adaptive_avg_pool_backward, f"_adaptive_avg_pool{d}_backward",
                "The gradient of the adaptive average pooling."),
            f"_adaptive_max_pool{d}": _named(adaptive_max_pool, f"_adaptive_max_pool{d}",
                                             f"(values, indices) of a {nsp}-D adaptive max "
                                             "pooling."),
            f"_adaptive_max_pool{d}_backward": _named(
                adaptive_max_pool_backward, f"_adaptive_max_pool{d}_backward",
                "The gradient of the adaptive max pooling: scattered by the indices.")}


globals().update(_pooling_rows(2, True))
globals().update(_pooling_rows(3, False))


def _empty_stride(stride):
    return stride is None or (isinstance(stride, (list, tuple)) and len(stride) == 0)


def max_pool3d(input, kernel_size, stride=(), padding=0, dilation=1, ceil_mode=False):
    """torch.max_pool3d: the values of nn.functional.max_pool3d."""
    stride = None if _empty_stride(stride) else stride
    return _mt()._max_pool3d_with_indices(input, kernel_size, stride, padding, dilation,
                                          bool(ceil_mode))[0]


def adaptive_max_pool1d(input, output_size):
    """torch.adaptive_max_pool1d: (values, indices) over the last dim of an (N, C, L) or (C, L)
    input."""
    if not isinstance(input, _C.TensorBase):
        raise TypeError("adaptive_max_pool1d(): argument 'input' (position 1) must be Tensor, "
                        f"not {type(input).__name__}")
    if input.dim() not in (2, 3):
        raise RuntimeError(f"Expected 2 to 3 dimensions, but got {input.dim()}-dimensional "
                           "tensor for argument #1 'self' (while checking arguments for "
                           "adaptive_max_pool1d)")
    if isinstance(output_size, (list, tuple)):
        if len(output_size) != 1:
            raise RuntimeError("adaptive_max_pool1d() argument 'output_size' should contain one "
                               f"int (got {len(output_size)})")
        output_size = output_size[0]
    for d in range(1, input.dim()):
        if input.shape[d] == 0:
            raise RuntimeError("adaptive_max_pool1d(): Expected input to have non-zero size for "
                               "non-batch dimensions, but input has sizes "
                               f"{list(input.shape)} with dimension {d} being empty")
    if isinstance(output_size, int) and not isinstance(output_size, bool) and output_size < 0:
        shape = list(input.shape[:-1]) + [1, output_size]
        raise RuntimeError(f"Trying to create tensor with negative dimension {output_size}: "
                           f"{shape}")
    if not (input.dtype.is_floating_point):
        raise NotImplementedError("\"adaptive_max_pool2d\" not implemented for "
                                  f"'{scalar_type_name(input.dtype)}'")
    x = input.unsqueeze(-2)
    values, indices = _mt()._adaptive_max_pool3d(x.unsqueeze(-2), (1, 1, output_size))
    fmt = _channels_last_of(x)  # laid out as torch's, a 2-D pooling of height 1
    values, indices = _in_format(values.squeeze(-2), fmt), _in_format(indices.squeeze(-2), fmt)
    return values.squeeze(-2), indices.squeeze(-2)


