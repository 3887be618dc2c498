"""torch.convolution and the functions made of it: conv1d/conv2d/conv3d and
conv_transpose1d/2d/3d.

convolution is one op-table row with a derivative (autograd/formulas.py): its gradients come
from _convolution_backward, itself a recorded op whose derivative is written with convolution
and _convolution_backward again, so that derivatives of any order are recorded ops.  The
kernels are C (aten_lite/conv.c: one im2col + GEMM for 1 to 3 spatial dims, the transposed
convolution being the input-gradient kernel, see Note [Transposed convolution]).  The functions
here resolve torch's argument forms: unbatched inputs, padding='same'/'valid'."""
import sys
import warnings

from . import _C
from ._formats import _channels_last_of, _in_format

__all__ = ["convolution", "conv1d", "conv2d", "conv3d", "conv_transpose1d",
           "conv_transpose2d", "conv_transpose3d"]


def _check_tensor(t, fname, name, pos):
    if not isinstance(t, _C.TensorBase):
        raise TypeError(f"{fname}(): argument '{name}' (position {pos}) must be Tensor, not "
                        f"{type(t).__name__}")


def convolution(input, weight, bias, stride, padding, dilation, transposed, output_padding,
                groups):
    """torch.convolution: input (N, C_in, *spatial) and weight (C_out, C_in / groups,
    *kernel), or when transposed (C_in, C_out / groups, *kernel); 1 to 3 spatial dims."""
    _check_tensor(input, "convolution", "input", 1)
    _check_tensor(weight, "convolution", "weight", 2)
    if bias is not None:
        _check_tensor(bias, "convolution", "bias", 3)
    if input.dim() != weight.dim():
        raise RuntimeError(f"Expected {weight.dim()}-dimensional input for {weight.dim()}-"
                           f"dimensional weight {list(weight.shape)}, but got {input.dim()}-"
                           f"dimensional input of size {list(input.shape)} instead")
    out = _C._convolution(input, weight, bias, stride, padding, dilation, bool(transposed),
                          output_padding, groups)
    # channels-last when the input's or the weight's strides are, as torch (whose float64 3-D
    # convolutions, slow kernels without a channels-last variant, give row-major results)
    fmt = _channels_last_of(input, weight)
    if fmt is not None and out.dim() == 5 and out.dtype == _C.float64:
        fmt = None
    return _in_format(out, fmt)


def _convolution_backward(grad_output, input, weight, stride, padding, dilation, transposed,
                          output_padding, groups, output_mask):
    """The gradients (input, weight, bias) of convolution for grad_output, None where
    output_mask says False: the derivative of convolution (a recorded op itself)."""
    gx, gw, gb = _C._convolution_backward(grad_output, input, weight, stride, padding, dilation,
                                          bool(transposed), output_padding, groups,
                                          tuple(bool(m) for m in output_mask))
    # each gradient laid out as its variable
    return (_in_format(gx, _channels_last_of(input)), _in_format(gw, _channels_last_of(weight)),
            gb)


def _recorded(name):
    """The op-table form of `name` (recorded by autograd), not this module's function."""
    return getattr(sys.modules["minitorch"], name)


def _ntuple(v, n):
    if isinstance(v, (list, tuple)):
        return tuple(v) if len(v) != 1 else tuple(v) * n
    return (v,) * n


def _batched(fname, input, weight, nsp):
    """input as a batch (unbatched inputs get a batch dim of 1) and whether it had one."""
    _check_tensor(input, fname, "input", 1)
    _check_tensor(weight, fname, "weight", 2)
    if input.dim() not in (nsp + 1, nsp + 2):
        raise RuntimeError(f"Expected {nsp + 1}D (unbatched) or {nsp + 2}D (batched) input to "
                           f"{fname}, but got input of size: {list(input.shape)}")
    return (input, True) if input.dim() == nsp + 2 else (input.unsqueeze(0), False)


def _weight_rank(input, weight, nsp, stride):
    """torch's checks of a weight of the wrong rank, in torch's order: the weight's own rank,
    then the stride's length against it (a single stride is expanded), then the input's."""
    if weight.dim() < 3:
        raise RuntimeError("weight should have at least three dimensions")
    strides = _ntuple(stride, nsp)
    if len(strides) != 1 and len(strides) != weight.dim() - 2:
        raise RuntimeError(f"expected stride to be a single integer value or a list of "
                           f"{weight.dim() - 2} values to match the convolution dimensions, "
                           f"but got stride={list(strides)}")
    if weight.dim() != input.dim():
        raise RuntimeError(f"Expected {weight.dim()}-dimensional input for {weight.dim()}-"
                           f"dimensional weight {list(weight.shape)}, but got {input.dim()}-"
                           f"dimensional input of size {list(input.shape)} instead")


def _conv_nd(fname, nsp, input, weight, bias, stride, padding, dilation, groups):
    x, batched = _batched(fname, input, weight, nsp)
    _weight_rank(x, weight, nsp, stride)
    trim = None
    if isinstance(padding, str):
        if padding == "valid":
            padding = 0
        elif padding == "same":
            if any(s != 1 for s in _ntuple(stride, nsp)):
                raise RuntimeError("padding='same' is not supported for strided convolutions")
            dil = _ntuple(dilation, nsp)
            totals = [d * (k - 1) for d, k in zip(dil, weight.shape[2:])]
            # an odd total needs one more zero after than before: pad both sides by the
            # larger half and drop the first output position
            padding = [(t + 1) // 2 for t in totals]
            trim = [t % 2 == 1 for t in totals]
            if any(trim):
                warnings.warn("Using padding='same' with even kernel lengths and odd dilation "
                              "may require a zero-padded copy of the input be created",
                              UserWarning, stacklevel=3)
        else:
            raise RuntimeError(f"Invalid padding string: '{padding}'")
    out = _recorded("convolution")(x, weight, bias, stride, padding, dilation, False, 0, groups)
    if trim is not None and any(trim):
        out = out[(slice(None), slice(None)) + tuple(slice(1, None) if t else slice(None)
                                                     for t in trim)]
    return out if batched else out.squeeze(0)


def _conv_transpose_nd(fname, nsp, input, weight, bias, stride, padding, output_padding,
                       groups, dilation):
    if isinstance(padding, str):
        raise TypeError(f"{fname}(): argument 'padding' must be tuple of ints, not str")
    x, batched = _batched(fname, input, weight, nsp)
    _weight_rank(x, weight, nsp, stride)
    out = _recorded("convolution")(x, weight, bias, stride, padding, dilation, True,
                                    output_padding, groups)
    return out if batched else out.squeeze(0)


def conv1d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    """torch.conv1d: input (N, C_in, L) or (C_in, L), weight (C_out, C_in / groups, k);
    padding an int, 'valid' or 'same'."""
    return _conv_nd("conv1d", 1, input, weight, bias, stride, padding, dilation, groups)


def conv2d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    """torch.conv2d: input (N, C_in, H, W) or (C_in, H, W), weight (C_out, C_in / groups,
    kH, kW); padding an int, a pair, 'valid' or 'same'."""
    return _conv_nd("conv2d", 2, input, weight, bias, stride, padding, dilation, groups)


def conv3d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    """torch.conv3d: input (N, C_in, D, H, W) or (C_in, D, H, W), weight (C_out, C_in / groups,
    kD, kH, kW); padding an int, a triple, 'valid' or 'same'."""
    return _conv_nd("conv3d", 3, input, weight, bias, stride, padding, dilation, groups)


def conv_transpose1d(input, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1,
                     dilation=1):
    """torch.conv_transpose1d: input (N, C_in, L) or (C_in, L), weight (C_in, C_out / groups,
    k)."""
    return _conv_transpose_nd("conv_transpose1d", 1, input, weight, bias, stride, padding,
                              output_padding, groups, dilation)


def conv_transpose2d(input, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1,
                     dilation=1):
    """torch.conv_transpose2d: input (N, C_in, H, W) or (C_in, H, W), weight (C_in,
    C_out / groups, kH, kW)."""
    return _conv_transpose_nd("conv_transpose2d", 2, input, weight, bias, stride, padding,
                              output_padding, groups, dilation)


def conv_transpose3d(input, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1,
                     dilation=1):
    """torch.conv_transpose3d: input (N, C_in, D, H, W) or (C_in, D, H, W), weight (C_in,
    C_out / groups, kD, kH, kW)."""
    return _conv_transpose_nd("conv_transpose3d", 3, input, weight, bias, stride, padding,
                              output_padding, groups, dilation)
