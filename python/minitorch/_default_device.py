"""minitorch.set_default_device / get_default_device (Note [Default device] in csrc/common.h):
the device the factories use when not given one, per thread; `with minitorch.device(...)`
sets it for a block."""
from . import _C


def set_default_device(device):
    """Makes the factories (empty, zeros, ones, full, arange, eye, linspace, logspace, rand,
    randn, randint, randperm, tensor, as_tensor, ...) create their tensors on `device` when
    not given one, on this thread; None (or 'cpu') restores the default.  An int is a CUDA
    device index, as torch's current accelerator."""
    if device is not None and not isinstance(device, (_C.device, str, int)):
        raise TypeError(f"set_default_device(): expected a device, a string, an int or None, "
                        f"not {type(device).__name__}")
    _C._set_default_device(device)


def get_default_device():
    """The device the factories use when not given one: cpu, or the default set (a CUDA
    device without an index as the current device, as torch)."""
    d = _C._get_default_device()
    if d.type == "cuda" and d.index is None:
        from . import cuda
        return _C.device("cuda", cuda.current_device())
    return d
