"""max_unpool1d / max_unpool2d: the values of a max pooling put back at the positions its
indices name, zeros elsewhere (one scatter per plane: its gradient is a gather, to any order)."""
from .. import _C
from .._checks import _legacy_name


def unpool_output_size(input, kernel_size, stride, padding, output_size):
    """The spatial output size: from the pooling's arguments, or output_size (checked to be
    within a stride of that, as torch's)."""
    k = len(kernel_size)
    default = [(input.size(-k + d) - 1) * stride[d] + kernel_size[d] - 2 * padding[d]
               for d in range(k)]
    if output_size is None:
        ret = default
    else:
        if len(output_size) == k + 2:
            output_size = output_size[2:]
        if len(output_size) != k:
            raise ValueError(f"output_size should be a sequence containing {k} or {k + 2} elements, "
                             f"but it has a length of '{len(output_size)}'")
        for d in range(k):
            lo, hi = default[d] - stride[d], default[d] + stride[d]
            if not lo < output_size[d] < hi:
                raise ValueError(f'invalid output_size "{output_size}" (dim {d} must be between {lo} '
                                 f'and {hi})')
        ret = output_size
    for d in range(k):
        if ret[d] < 0:
            raise ValueError("max_unpooling: output_size must contain non-negative spatial "
                             f"dimensions, but got output_size[{d}]={ret[d]}")
    return ret


def check_same_shape(input, indices):
    if tuple(input.shape) != tuple(indices.shape):
        raise RuntimeError(f"Expected shape of indices to be same as that of the input tensor "
                           f"({list(input.shape)}) but got indices tensor with shape: "
                           f"{list(indices.shape)}")


def max_unpool2d(input, indices, output_size):
    """torch's max_unpool2d kernel: input (N, C, H, W) or (C, H, W), indices into each plane of
    the (oh, ow) output."""
    if indices.dtype != _C.int64:
        raise RuntimeError(f"elements in indices should be type int64 but got: "
                           f"{_legacy_name(indices.dtype)}")
    if len(output_size) != 2:
        raise RuntimeError("There should be exactly two elements (height, width) in output_size, but "
                           f"got {len(output_size)} elements.")
    nd = input.dim()
    if nd not in (3, 4):
        raise RuntimeError(f"Input to max_unpooling2d should be a 3d or 4d Tensor, but got a tensor "
                           f"with {nd} dimensions.")
    check_same_shape(input, indices)
    for d in range(nd - 3, nd):
        if input.size(d) == 0:
            raise RuntimeError("max_unpooling2d_forward_out_cpu(): Expected input to have non-zero "
                               f"size for non-batch dimensions, but input has sizes "
                               f"{list(input.shape)} with dimension {d} being empty")
    if not (input.dtype.is_floating_point or input.dtype.is_complex):
        raise NotImplementedError(f"\"max_unpool2d\" not implemented for '{_legacy_name(input.dtype)}'")
    oh, ow = int(output_size[0]), int(output_size[1])
    lead = tuple(input.shape[:-2])
    planes = 1
    for s in lead:
        planes *= s
    out = _C.zeros((planes, oh * ow), dtype=input.dtype, device=input.device)
    if out.numel() == 0:
        return out.view(lead + (oh, ow)) + input.sum() * 0
    flat = indices.reshape(planes, -1)
    bad = (flat < 0) | (flat >= oh * ow)
    if bool(bad.any()):
        first = int(flat.reshape(-1)[bad.reshape(-1).nonzero()[0, 0]])
        raise RuntimeError(f"Found an invalid max index: {first} (output volumes are of size "
                           f"{oh}x{ow})")
    return out.scatter(1, flat, input.reshape(planes, -1)).view(lead + (oh, ow))
