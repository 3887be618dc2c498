"""minitorch.backends.cuda."""
from ... import _C


def is_built():
    """Whether minitorch was compiled with CUDA support (whether or not a GPU is present)."""
    return bool(_C._has_cuda)
