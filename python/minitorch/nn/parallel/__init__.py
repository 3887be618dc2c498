"""minitorch.nn.parallel: DistributedDataParallel."""
from .distributed import DistributedDataParallel  # noqa: F401

__all__ = ["DistributedDataParallel", "DataParallel"]


def DataParallel(*args, **kwargs):
    raise NotImplementedError("nn.DataParallel (one process driving several GPUs) is not "
                              "implemented: use DistributedDataParallel with one process per "
                              "device")
