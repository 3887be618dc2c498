"""unfold (im2col) and fold (col2im): sliding blocks of a batch of images as columns, and
columns summed back into images.

Note [Folding by index]
Both are one gather or one scatter-add over a precomputed index: the flat position, in a
padded (H + 2 ph) x (W + 2 pw) plane, of each tap (ki, kj) of each block (bi, bj):
    (bi * sh + ki * dh) * Wp + bj * sw + kj * dw,
laid out (kh, kw, blocks) as a column of unfold's output.  unfold pads the input (zeros) and
index_selects the planes' positions; fold index_adds the columns into zero planes (blocks that
overlap add up) and crops the padding.  Both are composites of differentiable ops (index_select
and index_add are each other's gradient), so first and second derivatives come from the op
table, and fold is unfold's adjoint exactly."""
from .. import _C
from .._checks import _legacy_name

_FLOATING = (_C.float16, _C.bfloat16, _C.float32, _C.float64, _C.complex64, _C.complex128,
             _C.bool)


def _pair_arg(x, fname, what, position):
    """A size argument as torch.nn.functional passes it (_pair), checked as torch's binding."""
    if hasattr(x, "__iter__") and not isinstance(x, str):
        vals = tuple(x)
    else:
        vals = (x, x)
    out = []
    for i, v in enumerate(vals):
        if isinstance(v, bool) or not hasattr(v, "__index__") or \
                (isinstance(v, _C.TensorBase) and (v.dtype.is_floating_point or v.numel() != 1)):
            raise TypeError(f"{fname}(): argument '{what}' (position {position}) must be tuple of "
                            f"ints, but found element of type {type(v).__name__} at pos {i}")
        out.append(int(v))
    return tuple(out)


def _check_lengths(**named):
    for what, v in named.items():
        if len(v) != 2:
            raise RuntimeError(f"It is expected {what} equals to 2, but got size {len(v)}")


def _check_positive(kernel, dilation, padding, stride, order):
    checks = {
        "kernel": (kernel[0] > 0 and kernel[1] > 0,
                   f"kernel size should be greater than zero, but got kernel_height: {kernel[0]} "
                   f"kernel_width: {kernel[1]}"),
        "dilation": (dilation[0] > 0 and dilation[1] > 0,
                     f"dilation should be greater than zero, but got dilation_height: "
                     f"{dilation[0]} dilation_width: {dilation[1]}"),
        "padding": (padding[0] >= 0 and padding[1] >= 0,
                    f"padding should be non-negative, but got pad_height: {padding[0]} "
                    f"pad_width: {padding[1]}"),
        "stride": (stride[0] > 0 and stride[1] > 0,
                   f"stride should be greater than zero, but got stride_height: {stride[0]} "
                   f"stride_width: {stride[1]}"),
    }
    for name in order:
        ok, msg = checks[name]
        if not ok:
            raise RuntimeError(msg)


def _blocks(size, kernel, dilation, padding, stride):
    """The number of sliding blocks along one dim (rounded towards minus infinity, as torch)."""
    return (size + 2 * padding - dilation * (kernel - 1) - 1) // stride + 1


def _size_at(input, d):
    """input.size(d) with the error torch's shape checks raise when input has too few dims."""
    nd = input.dim()
    if nd == 0:
        raise IndexError(f"Dimension specified as {d} but tensor has no dimensions")
    if d >= nd:
        raise IndexError(f"Dimension out of range (expected to be in range of [{-nd}, {nd - 1}], "
                         f"but got {d})")
    return input.size(d)


def _plane_index(oh, ow, kernel, dilation, stride, wp):
    """Note [Folding by index]: positions in a padded plane of width wp, (kh * kw * oh * ow,)."""
    kh, kw = kernel
    rows = (_C.arange(kh).mul_(dilation[0]).view(kh, 1, 1, 1) +
            _C.arange(oh).mul_(stride[0]).view(1, 1, oh, 1)).mul_(wp)
    cols = (_C.arange(kw).mul_(dilation[1]).view(1, kw, 1, 1) +
            _C.arange(ow).mul_(stride[1]).view(1, 1, 1, ow))
    return (rows + cols).reshape(-1)


def _check_dtype(input, kernel_name):
    if input.dtype not in _FLOATING:
        raise NotImplementedError(f'"{kernel_name}" not implemented for \'{_legacy_name(input.dtype)}\'')


def unfold(input, kernel_size, dilation=1, padding=0, stride=1):
    """(N, C, H, W) -> (N, C * kh * kw, L): each column holds one sliding block (zero padded),
    L blocks in row-major order; an unbatched (C, H, W) input gives (C * kh * kw, L)."""
    kernel = _pair_arg(kernel_size, "im2col", "kernel_size", 2)
    dilation = _pair_arg(dilation, "im2col", "dilation", 3)
    padding = _pair_arg(padding, "im2col", "padding", 4)
    stride = _pair_arg(stride, "im2col", "stride", 5)
    _check_lengths(kernel_size=kernel, dilation=dilation, padding=padding, stride=stride)
    batched = input.dim() != 3        # torch reads a 3-d input as one (C, H, W) image
    x = input if batched else input.unsqueeze(0)
    _check_positive(kernel, dilation, padding, stride, ("kernel", "dilation", "padding", "stride"))
    nd = x.dim()
    valid = _size_at(x, 1) != 0 and _size_at(x, 2) != 0
    if not (nd == 4 and valid and x.size(3) != 0):
        raise RuntimeError("Expected 3D or 4D (batch mode) tensor with possibly 0 batch size and other "
                           f"non-zero dimensions for input, but got: {list(x.shape)}")
    h, w = x.shape[-2:]
    oh = _blocks(h, kernel[0], dilation[0], padding[0], stride[0])
    ow = _blocks(w, kernel[1], dilation[1], padding[1], stride[1])
    if oh < 1 or ow < 1:
        raise RuntimeError(f"Given input with spatial size ({h}, {w}), kernel_size=({kernel[0]}, "
                           f"{kernel[1]}), dilation=({dilation[0]}, {dilation[1]}), padding=("
                           f"{padding[0]}, {padding[1]}), calculated shape of the array of sliding "
                           f"blocks as ({oh}, {ow}), but its components must be at least one.")
    _check_dtype(x, "im2col_out_cpu")
    n, c = x.shape[:2]
    if padding != (0, 0):
        from .functional import pad
        x = pad(x, (padding[1], padding[1], padding[0], padding[0]))
    hp, wp = x.shape[-2:]
    idx = _plane_index(oh, ow, kernel, dilation, stride, wp)
    out = x.reshape(n * c, hp * wp).index_select(1, idx).view(n, c * kernel[0] * kernel[1], oh * ow)
    return out if batched else out.squeeze(0)


def fold(input, output_size, kernel_size, dilation=1, padding=0, stride=1):
    """(N, C * kh * kw, L) -> (N, C, H, W): the inverse arrangement of unfold, overlapping
    blocks summed; an unbatched (C * kh * kw, L) input gives (C, H, W)."""
    size = _pair_arg(output_size, "col2im", "output_size", 2)
    kernel = _pair_arg(kernel_size, "col2im", "kernel_size", 3)
    dilation = _pair_arg(dilation, "col2im", "dilation", 4)
    padding = _pair_arg(padding, "col2im", "padding", 5)
    stride = _pair_arg(stride, "col2im", "stride", 6)
    _check_lengths(output_size=size, kernel_size=kernel, dilation=dilation, padding=padding,
                   stride=stride)
    _check_positive(kernel, dilation, padding, stride, ("kernel", "stride", "dilation", "padding"))
    nd = input.dim()
    shape = list(input.shape)
    if not ((nd == 2 and shape[0] != 0 and shape[1] != 0) or
            (nd == 3 and shape[1] != 0 and shape[2] != 0)):
        raise RuntimeError("Expected 2D or 3D (batch mode) tensor for input with possibly 0 batch "
                           f"size and non-zero dimensions for input, but got: {shape}")
    batched = nd == 3
    b = 0 if batched else -1
    planes, length = shape[b + 1], shape[b + 2]
    kk = kernel[0] * kernel[1]
    if planes % kk:
        raise RuntimeError(f"Expected size of input's dimension {b + 1} to be divisible by the "
                           f"product of kernel_size, but got input.size({b + 1})={planes} and "
                           f"kernel_size=({kernel[0]}, {kernel[1]}).")
    oh = _blocks(size[0], kernel[0], dilation[0], padding[0], stride[0])
    ow = _blocks(size[1], kernel[1], dilation[1], padding[1], stride[1])
    where = (f"Given output_size=({size[0]}, {size[1]}), kernel_size=({kernel[0]}, {kernel[1]}), "
             f"dilation=({dilation[0]}, {dilation[1]}), padding=({padding[0]}, {padding[1]}), "
             f"stride=({stride[0]}, {stride[1]}), ")
    if length != oh * ow:
        raise RuntimeError(where + f"expected size of input's dimension {b + 2} to match the "
                           f"calculated number of sliding blocks {oh} * {ow} = {oh * ow}, but got "
                           f"input.size({b + 2})={length}.")
    if oh < 1 or ow < 1:
        raise RuntimeError(where + f"calculated shape of the array of sliding blocks as ({oh}, "
                           f"{ow}), which is too small (non-positive)")
    _check_dtype(input, "col2im_out_cpu")
    cols = input if batched else input.unsqueeze(0)
    n, c = cols.size(0), planes // kk
    hp, wp = size[0] + 2 * padding[0], size[1] + 2 * padding[1]
    idx = _plane_index(oh, ow, kernel, dilation, stride, wp)
    out = _C.zeros((n * c, hp * wp), dtype=input.dtype, device=input.device)
    out = out.index_add(1, idx, cols.reshape(n * c, kk * length)).view(n, c, hp, wp)
    if padding != (0, 0):
        out = out[:, :, padding[0]:padding[0] + size[0], padding[1]:padding[1] + size[1]].contiguous()
    return out if batched else out.squeeze(0)
