"""Private helpers torch code reaches as torch._utils."""


def _element_size(dtype):
    """The size in bytes of one element of dtype (torch._utils._element_size)."""
    from . import _C
    if not isinstance(dtype, _C.dtype):
        raise RuntimeError(f"expected a dtype, but got {type(dtype).__name__}")
    return dtype.itemsize
