"""minitorch.version (torch.version): the package's version and the CUDA toolkit it was built
with (None without CUDA; "emulated" for the emulated-device build)."""
from . import _C

__version__ = "0.1.0"
cuda = getattr(_C, "_cuda_version", None)
hip = None
xpu = None
debug = False
git_version = "unknown"

__all__ = ["__version__", "cuda", "hip", "xpu", "debug", "git_version"]
