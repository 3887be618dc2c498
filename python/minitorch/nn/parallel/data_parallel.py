"""DataParallel: one process running a module over several GPUs.  Without a GPU, as in torch,
it is the module itself behind a ``module`` attribute (device_ids are ignored)."""
from ... import cuda as _cuda
from ..modules.module import Module

__all__ = ["DataParallel", "data_parallel"]


def _no_gpus(what):
    """True when no GPU is usable (then torch runs the module as it is); with GPUs, the
    scatter/replicate/gather path is not implemented."""
    if not _cuda.is_available():
        return True
    raise NotImplementedError(f"{what} over GPUs (scatter, replicate, gather) is not implemented: "
                              "use DistributedDataParallel with one process per device")


class DataParallel(Module):
    """``DataParallel(module, device_ids=None, output_device=None, dim=0)``: on a machine without
    GPUs, torch's DataParallel calls the module directly (device_ids becomes []), and so does
    this; its parameters appear under ``module.`` in ``state_dict`` as torch's do."""

    def __init__(self, module, device_ids=None, output_device=None, dim=0):
        super().__init__()
        _no_gpus("DataParallel")
        self.module = module
        self.device_ids = []

    def forward(self, *inputs, **kwargs):
        return self.module(*inputs, **kwargs)


def data_parallel(module, inputs, device_ids=None, output_device=None, dim=0, module_kwargs=None):
    """The functional form, which needs a GPU: without one torch raises, and so does this."""
    _no_gpus("data_parallel")
    raise RuntimeError("device type could not be determined")
