"""minitorch.backends: what the build contains, and the switches of torch.backends
(cudnn, mps, mha, cuda.matmul, the attention kernels) that scripts set.  The submodules other
than cuda load on first use."""
import importlib

from . import cuda  # noqa: F401

_LAZY = frozenset({"cudnn", "mps", "mha"})


def __getattr__(name):
    if name in _LAZY:
        return importlib.import_module("." + name, __name__)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
