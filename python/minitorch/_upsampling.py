"""The resampling kernels behind nn.functional.interpolate as op-table rows: _upsample and its
backward _upsample_backward, each the other's derivative (a resampling is linear and its backward
is the transposed resampling), so derivatives of every order are recorded ops.  The kernels are
C (aten_lite/upsample.c, Note [Separable resampling])."""
from . import _C
from ._formats import _channels_last_of, _in_format

__all__ = []


def _upsample(input, output_size, mode, align_corners=False, scales=None, antialias=False):
    """input (N, C, *spatial) resampled to output_size (one size per spatial dim); mode is
    nearest, nearest-exact, linear, bilinear, trilinear, bicubic or lanczos; scales the user's
    scale factors (None: from the sizes)."""
    out = _C._upsample(input, output_size, mode, align_corners, scales, antialias)
    return _in_format(out, _channels_last_of(input))  # channels-last stays so (as torch)


def _upsample_backward(grad_output, input_size, output_size, mode, align_corners=False,
                       scales=None, antialias=False):
    """The gradient of _upsample for an input of input_size."""
    return _C._upsample_backward(grad_output, input_size, output_size, mode, align_corners,
                                 scales, antialias)
