"""nn.functional.interpolate and its deprecated aliases (upsample, upsample_nearest,
upsample_bilinear): torch's argument rules, errors and warnings, over the recorded resampling ops
minitorch._upsample (nearest, nearest-exact, linear, bilinear, trilinear, bicubic, lanczos,
antialiased or not) and minitorch._adaptive_avg_pool3d ('area', as torch an adaptive average
pooling), so that gradients of every order are recorded ops."""
import math
import numbers
import warnings

import minitorch as _mt

from .. import _C
from .._formats import _channels_last_of, _in_format

__all__ = ["interpolate", "upsample", "upsample_nearest", "upsample_bilinear"]

_MODES = "nearest | linear | bilinear | bicubic | trilinear | lanczos | area | nearest-exact"
_INT64_MAX = 2 ** 63 - 1


def _is_integer(x):
    if isinstance(x, bool):
        return True
    if isinstance(x, numbers.Integral):
        return True
    return isinstance(x, _C.TensorBase) and not x.dtype.is_floating_point and \
        not x.dtype.is_complex


def _op_name(dim, mode, antialias):
    names = {"nearest": f"upsample_nearest{dim}d", "nearest-exact": f"_upsample_nearest_exact{dim}d",
             "linear": "upsample_linear1d", "bilinear": "upsample_bilinear2d",
             "trilinear": "upsample_trilinear3d", "bicubic": "upsample_bicubic2d",
             "lanczos": "_upsample_lanczos2d_aa"}
    name = names.get(mode, f"upsample_{mode}")
    return f"_{name}_aa" if antialias and mode in ("bilinear", "bicubic") else name


def _output_size(input, scale_factors):
    """torch's output size for scale factors (floor of size * scale, as int64)."""
    out = []
    for i, s in enumerate(scale_factors):
        v = float(input.size(i + 2)) * float(s)
        if not math.isfinite(v) or v >= 2.0 ** 63 or v < -2.0 ** 63:
            raise RuntimeError("value cannot be converted to type int64_t without overflow")
        out.append(int(math.floor(v)))
    return out


def _area(input, output_size):
    """'area': torch's adaptive average pooling (1-D and 2-D through adaptive_avg_pool2d's
    checks), computed as a 3-D one of depth 1 (a recorded op)."""
    dim = input.dim() - 2
    if dim == 3:
        return _mt._adaptive_avg_pool3d(input, list(output_size))
    x4 = input.unsqueeze(-2) if dim == 1 else input
    osize = [1] + list(output_size) if dim == 1 else list(output_size)
    if not x4.dtype.is_floating_point:
        from .._reductions import _scalar_type_name
        raise NotImplementedError(f"\"adaptive_avg_pool2d\" not implemented for "
                                  f"'{_scalar_type_name(x4.dtype)}'")
    for d in (x4.dim() - 2, x4.dim() - 1):
        if x4.shape[d] == 0:
            raise RuntimeError("adaptive_avg_pool2d(): Expected input to have non-zero size for "
                               "non-batch dimensions, but input has sizes "
                               f"{list(x4.shape)} with dimension {d} being empty")
    if any(int(s) < 0 for s in osize):
        raise RuntimeError("adaptive_avg_pool2d: elements of output_size must be greater than "
                           f"or equal to 0 but received {{{int(osize[0])}, {int(osize[1])}}}")
    y = _mt._adaptive_avg_pool3d(x4.unsqueeze(-3), [1] + [int(s) for s in osize]).squeeze(-3)
    y = _in_format(y, _channels_last_of(x4))  # as torch's adaptive_avg_pool2d
    return y.squeeze(-2) if dim == 1 else y


def interpolate(input, size=None, scale_factor=None, mode="nearest", align_corners=None,
                recompute_scale_factor=None, antialias=False):
    """Resamples the spatial dims of an (N, C, *spatial) input to `size` or by `scale_factor`,
    with torch's modes and rules (align_corners, recompute_scale_factor, antialias)."""
    if not isinstance(input, _C.TensorBase):
        raise TypeError(f"interpolate(): argument 'input' must be Tensor, not "
                        f"{type(input).__name__}")
    if mode in ("nearest", "area", "nearest-exact"):
        if align_corners is not None:
            raise ValueError("align_corners option can only be set with the interpolating modes: "
                             "linear | bilinear | bicubic | trilinear")
    elif align_corners is None:
        align_corners = False
    dim = input.dim() - 2
    if size is not None and scale_factor is not None:
        raise ValueError("only one of size or scale_factor should be defined")
    if size is not None:
        scale_factors = None
        if isinstance(size, (list, tuple)):
            if len(size) != dim:
                raise ValueError(
                    "Input and output must have the same number of spatial dimensions, but got "
                    f"input with spatial dimensions of {list(input.shape[2:])} and output size of "
                    f"{size}. Please provide input tensor in (N, C, d1, d2, ...,dK) format and "
                    "output size in (o1, o2, ...,oK) format.")
            if not all(_is_integer(x) for x in size):
                raise TypeError("expected size to be one of int or Tuple[int] or Tuple[int, int] "
                                "or Tuple[int, int, int], but got size with types "
                                f"{[type(x) for x in size]}")
            output_size = [int(x) for x in size]
        else:
            if not _is_integer(size):
                raise TypeError(f"{_op_name(dim, mode, antialias)}() received an invalid "
                                f"combination of arguments - got (Tensor, list, NoneType): "
                                f"output_size must be a tuple of ints, not "
                                f"{type(size).__name__}")
            output_size = [int(size)] * dim
    elif scale_factor is not None:
        output_size = None
        if isinstance(scale_factor, (list, tuple)):
            if len(scale_factor) != dim:
                raise ValueError(
                    "Input and scale_factor must have the same number of spatial dimensions, but "
                    f"got input with spatial dimensions of {list(input.shape[2:])} and "
                    f"scale_factor of shape {scale_factor}. Please provide input tensor in (N, C, "
                    "d1, d2, ...,dK) format and scale_factor in (s1, s2, ...,sK) format.")
            scale_factors = list(scale_factor)
        else:
            scale_factors = [scale_factor] * dim
        if not all(isinstance(s, numbers.Real) for s in scale_factors):
            raise TypeError(f"{_op_name(dim, mode, antialias)}() received an invalid combination "
                            "of arguments - got (Tensor, NoneType, list): scale_factors must be a "
                            "tuple of floats")
    else:
        raise ValueError("either size or scale_factor should be defined")
    if recompute_scale_factor is not None and recompute_scale_factor and size is not None:
        raise ValueError("recompute_scale_factor is not meaningful with an explicit size.")
    if mode == "area" and output_size is None:
        recompute_scale_factor = True
    if recompute_scale_factor is not None and recompute_scale_factor:
        output_size = [int(input.size(i + 2) * scale_factors[i]) for i in range(dim)]
        scale_factors = None
    if antialias and not (mode in ("bilinear", "bicubic", "lanczos") and input.dim() == 4):
        raise ValueError("Anti-alias option is restricted to bilinear, bicubic, and lanczos modes "
                         "and requires a 4-D tensor as input")
    kernel_mode = {(1, "nearest"), (2, "nearest"), (3, "nearest"), (1, "nearest-exact"),
                   (2, "nearest-exact"), (3, "nearest-exact"), (1, "linear"), (2, "bilinear"),
                   (3, "trilinear"), (2, "bicubic"), (2, "lanczos"), (1, "area"), (2, "area"),
                   (3, "area")}
    if (dim, mode) not in kernel_mode:
        wants = {"linear": 3, "bilinear": 4, "trilinear": 5}
        if mode in wants and dim + 2 in (3, 4, 5):
            raise NotImplementedError(f"Got {dim + 2}D input, but {mode} mode needs "
                                      f"{wants[mode]}D input")
        raise NotImplementedError(f"Input Error: Only 3D, 4D and 5D input Tensors supported "
                                  f"(got {dim + 2}D) for the modes: {_MODES} (got {mode})")
    if mode == "lanczos":
        if align_corners:
            raise ValueError("Lanczos mode does not support align_corners=True")
        if not antialias:
            raise ValueError("Lanczos mode requires antialias=True")
    if output_size is None:
        output_size = _output_size(input, scale_factors)
    if mode == "area":
        return _area(input, output_size)
    scales = None if scale_factors is None else [float(s) for s in scale_factors]
    return _mt._upsample(input, output_size, mode, bool(align_corners), scales, bool(antialias))


def upsample(input, size=None, scale_factor=None, mode="nearest", align_corners=None):
    """Deprecated: nn.functional.interpolate."""
    warnings.warn("`nn.functional.upsample` is deprecated. Use `nn.functional.interpolate` "
                  "instead.", stacklevel=2)
    return interpolate(input, size, scale_factor, mode, align_corners)


def upsample_nearest(input, size=None, scale_factor=None):
    """Deprecated: nn.functional.interpolate(..., mode='nearest')."""
    warnings.warn("`nn.functional.upsample_nearest` is deprecated. Use "
                  "`nn.functional.interpolate` instead.", stacklevel=2)
    return interpolate(input, size, scale_factor, mode="nearest")


def upsample_bilinear(input, size=None, scale_factor=None):
    """Deprecated: nn.functional.interpolate(..., mode='bilinear', align_corners=True)."""
    warnings.warn("`nn.functional.upsample_bilinear` is deprecated. Use "
                  "`nn.functional.interpolate` instead.", stacklevel=2)
    return interpolate(input, size, scale_factor, mode="bilinear", align_corners=True)
