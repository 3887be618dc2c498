"""minitorch.accelerator: torch.accelerator's device functions, over minitorch.cuda.  A build
without CUDA support has no accelerator (current_accelerator() is None, device_count() 0, the
calls that need a device raise torch's error); a build with it names CUDA, as torch's CUDA
builds do, and is available when a device is visible."""
from .. import _C

__all__ = ["current_accelerator", "current_device_index", "current_device_idx", "device_count",
           "device_index", "is_available", "set_device_index", "set_device_idx", "synchronize"]

_NO_DRIVER = ("Found no NVIDIA driver on your system. Please check that you have an NVIDIA GPU "
              "and installed a driver from http://www.nvidia.com/Download/index.aspx")


def _cuda():
    """minitorch.cuda when the build has CUDA and a device is visible, else RuntimeError with
    torch's message (no accelerator built in / no driver)."""
    if not _C._has_cuda:
        raise RuntimeError("Cannot access accelerator device when none is available.")
    from .. import cuda
    if cuda.device_count() == 0:
        raise RuntimeError(_NO_DRIVER)
    return cuda


def current_accelerator(check_available=False):
    """The accelerator the build supports (device('cuda') with CUDA support, else None); with
    check_available=True also None when no device is visible."""
    if not _C._has_cuda:
        return None
    if check_available and not is_available():
        return None
    return _C.device("cuda")


def is_available():
    if not _C._has_cuda:
        return False
    from .. import cuda
    return cuda.is_available()


def device_count():
    if not _C._has_cuda:
        return 0
    from .. import cuda
    return cuda.device_count()


def current_device_index():
    return _cuda().current_device()


def current_device_idx():
    import warnings
    warnings.warn("Use `current_device_index` instead.", FutureWarning, stacklevel=2)
    return current_device_index()


def _device_index(device, optional=False):
    if isinstance(device, int) and not isinstance(device, bool):
        return device
    if isinstance(device, str):
        device = _C.device(device)
    if isinstance(device, _C.device):
        acc = current_accelerator()
        if acc is None:
            raise RuntimeError("Accelerator expected")
        if acc.type != device.type:
            raise ValueError(f"{device.type} doesn't match the current accelerator {acc}.")
        if device.index is not None:
            return device.index
    if not optional:
        raise ValueError("Expected a torch.device with a specified index or an integer, but "
                         f"got:{device}")
    return current_device_index()


def set_device_index(device, /):
    _cuda().set_device(_device_index(device))


def set_device_idx(device, /):
    import warnings
    warnings.warn("Use `set_device_index` instead.", FutureWarning, stacklevel=2)
    set_device_index(device)


def synchronize(device=None, /):
    """Waits for the accelerator's work: raises without one, as torch."""
    if device is not None:
        _device_index(device, optional=True)
    _cuda().synchronize()


class device_index:
    """Context manager that makes `device` the current accelerator index (None: no change)."""

    def __init__(self, device, /):
        self.idx = device
        self.prev_idx = -1

    def __enter__(self):
        if self.idx is not None:
            cuda = _cuda()
            self.prev_idx = cuda.current_device()
            cuda.set_device(self.idx)

    def __exit__(self, *exc_info):
        if self.idx is not None and self.prev_idx >= 0:
            from .. import cuda
            cuda.set_device(self.prev_idx)
        return False
