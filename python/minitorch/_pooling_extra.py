"""adaptive_max_pool1d: the torch-level function (values and indices), an adaptive max pooling
of height 1 (nn/_conv.py's adaptive_max_pool2d)."""
from ._checks import _check, _legacy_name


def adaptive_max_pool1d(input, output_size):
    """(N, C, L) or (C, L) -> (values, indices) of L' = output_size windows, window i covering
    [floor(i * L / L'), ceil((i + 1) * L / L'))."""
    _check(input, "adaptive_max_pool1d")
    if isinstance(output_size, (tuple, list)):
        if len(output_size) != 1:
            raise RuntimeError("adaptive_max_pool1d() argument 'output_size' should contain one int "
                               f"(got {len(output_size)})")
        output_size = output_size[0]
    size = int(output_size)
    nd = input.dim()
    if nd not in (2, 3):
        raise RuntimeError(f"Expected 2 to 3 dimensions, but got {nd}-dimensional tensor for argument "
                           "#1 'self' (while checking arguments for adaptive_max_pool1d)")
    for d in range(nd - 2 if nd == 3 else 0, nd):
        if d and input.size(d) == 0 or (nd == 2 and input.size(d) == 0):
            raise RuntimeError("adaptive_max_pool1d(): Expected input to have non-zero size for "
                               f"non-batch dimensions, but input has sizes {list(input.shape)} with "
                               f"dimension {d} being empty")
    if size < 0:
        raise RuntimeError(f"Trying to create tensor with negative dimension {size}: "
                           f"{list(input.shape[:-1]) + [1, size]}")
    if not input.dtype.is_floating_point:
        raise NotImplementedError(f"\"adaptive_max_pool2d\" not implemented for '{_legacy_name(input.dtype)}'")
    from .nn import functional as F
    values, indices = F.adaptive_max_pool2d(input.unsqueeze(-2), (1, size), True)
    return values.squeeze(-2), indices.squeeze(-2)
