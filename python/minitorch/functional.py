"""minitorch.functional (torch.functional): the module torch keeps some of its top-level
functions in (einsum, meshgrid, norm, split, stft, unique, ...); programs import it as
`import torch.functional as F`. The functions are minitorch's own, the same objects as
minitorch.<name>; unravel_index is defined here."""
import builtins

import minitorch as _mt


_NAMES = ["atleast_1d", "atleast_2d", "atleast_3d", "broadcast_shapes", "broadcast_tensors",
          "cartesian_prod", "block_diag", "cdist", "chain_matmul", "einsum", "istft", "lu",
          "norm", "meshgrid", "split", "stft", "tensordot", "unique", "unique_consecutive"]
for _name in _NAMES:
    globals()[_name] = getattr(_mt, _name)
del _name


def unravel_index(indices, shape):
    """The coordinates, in a tensor of `shape`, of the flat `indices` (row-major): a tuple of
    one integer tensor per dimension, each of the indices' shape. Indices are taken modulo
    the number of elements (as torch: floor division then remainder per dimension)."""
    # the checks in torch's order (a non-tensor fails at its first method, as torch's)
    if indices.is_complex() or indices.is_floating_point() or indices.dtype == _mt.bool:
        raise TypeError(f"expected 'indices' to be integer dtype, but got {indices.dtype}")
    if isinstance(shape, int):
        shape = (shape,)
    shape = tuple(shape)
    for n in shape:
        if isinstance(n, bool) or not isinstance(n, int):
            raise TypeError(f"expected 'shape' sequence to only contain ints, but got {type(n)}")
    if builtins.any(n < 0 for n in shape):
        raise ValueError(f"'shape' cannot have negative values, but got {shape}")
    if indices.numel() and builtins.any(n == 0 for n in shape):
        raise ValueError(f"'shape' cannot have zero dimensions when 'indices' is non-empty, "
                         f"but got {shape}")
    idx = indices.to(_mt.int64)
    out, stride = [], 1
    for n in reversed(shape):
        out.append(idx.div(stride, rounding_mode="floor").remainder(n) if n else idx.new_zeros(idx.shape))
        stride = stride * n if stride * n < 2**63 else 2**63 - 1
    return tuple(reversed(out))


__all__ = _NAMES + ["unravel_index"]
