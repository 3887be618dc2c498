"""minitorch.nn.parallel: DistributedDataParallel, and DataParallel (the module itself when
there is no GPU, as in torch)."""
from .data_parallel import DataParallel, data_parallel  # noqa: F401
from .distributed import DistributedDataParallel  # noqa: F401

__all__ = ["DistributedDataParallel", "DataParallel", "data_parallel"]
