"""3-D pooling (and adaptive_max_pool1d, a 3-D pooling of depth and height 1) as op-table rows:
max_pool3d, avg_pool3d, adaptive_avg_pool3d, adaptive_max_pool3d.

Each kernel (aten_lite/pool.c) and its backward are rows with derivatives (autograd/formulas.py):
the backward of a max pooling scatters by the indices and its own derivative gathers by them;
the average poolings are linear, the derivative of each backward being the forward again.  So
gradients of every order are recorded ops.  The 2-D poolings keep their path in nn/_conv.py."""
import sys

from . import _C
from ._formats import _channels_last_of, _in_format

__all__ = ["max_pool3d", "adaptive_max_pool1d"]


def _mt():
    return sys.modules["minitorch"]


def _max_pool3d_with_indices(input, kernel_size, stride=None, padding=0, dilation=1,
                             ceil_mode=False):
    """(values, indices) of a 3-D max pooling; indices (d * H + h) * W + w within each plane."""
    values, indices = _C._max_pool3d_with_indices(input, kernel_size, stride, padding, dilation,
                                                  ceil_mode)
    fmt = _channels_last_of(input)  # torch keeps channels_last_3d here (not in the averages)
    return _in_format(values, fmt), _in_format(indices, fmt)


def _max_pool3d_backward(grad_output, input, indices, kernel_size, stride=None, padding=0,
                         dilation=1, ceil_mode=False):
    gx = _C._max_pool3d_backward(grad_output, input, indices, kernel_size, stride, padding,
                                 dilation, ceil_mode)
    return _in_format(gx, _channels_last_of(input))  # laid out as the input


def _avg_pool3d(input, kernel_size, stride=None, padding=0, ceil_mode=False,
                count_include_pad=True, divisor_override=None):
    return _C._avg_pool3d(input, kernel_size, stride, padding, ceil_mode, count_include_pad,
                          divisor_override)


def _avg_pool3d_backward(grad_output, input, kernel_size, stride=None, padding=0,
                         ceil_mode=False, count_include_pad=True, divisor_override=None):
    gx = _C._avg_pool3d_backward(grad_output, input, kernel_size, stride, padding, ceil_mode,
                                 count_include_pad, divisor_override)
    return _in_format(gx, _channels_last_of(input))


def _adaptive_avg_pool3d(input, output_size):
    """torch._adaptive_avg_pool3d: output_size an int or three ints."""
    return _C._adaptive_avg_pool3d(input, output_size)


def _adaptive_avg_pool3d_backward(grad_output, input):
    return _in_format(_C._adaptive_avg_pool3d_backward(grad_output, input),
                      _channels_last_of(input))


def _adaptive_max_pool3d(input, output_size):
    return _C._adaptive_max_pool3d(input, output_size)


def _adaptive_max_pool3d_backward(grad_output, input, indices):
    return _in_format(_C._adaptive_max_pool3d_backward(grad_output, input, indices),
                      _channels_last_of(input))


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
                                  f"'{_scalar_name(input.dtype)}'")
    x = input.unsqueeze(-2)
    values, indices = _mt()._adaptive_max_pool3d(x.unsqueeze(-2), (1, 1, output_size))
    fmt = _channels_last_of(x)  # laid out as torch's, a 2-D pooling of height 1
    values, indices = _in_format(values.squeeze(-2), fmt), _in_format(indices.squeeze(-2), fmt)
    return values.squeeze(-2), indices.squeeze(-2)


def _scalar_name(dt):
    from ._reductions import _scalar_type_name
    return _scalar_type_name(dt)
