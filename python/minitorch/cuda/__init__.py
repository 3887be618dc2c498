"""minitorch.cuda: device queries.  CUDA tensors are not implemented yet (see README)."""
from .. import _C


def device_count():
    """Number of CUDA devices visible (0 without a GPU, a driver, or CUDA support)."""
    return _C._cuda_device_count()


def is_available():
    """Whether CUDA tensors can be used.  False until CUDA tensors are implemented, so
    scripts written as ``device = 'cuda' if is_available() else 'cpu'`` run on the CPU."""
    return False


def is_compiled():
    return bool(_C._has_cuda)


_current = 0


def current_device():
    if device_count() == 0:
        raise RuntimeError("No CUDA GPUs are available")
    return _current


def set_device(device):
    global _current
    from .. import device as _device
    d = _device(device) if not isinstance(device, int) else _device("cuda", device)
    if d.type != "cuda":
        raise ValueError(f"Expected a cuda device, but got: {d}")
    idx = d.index or 0
    n = device_count()
    if n == 0:
        raise RuntimeError("No CUDA GPUs are available")
    if idx >= n:
        raise RuntimeError(f"CUDA error: invalid device ordinal {idx} (have {n} devices)")
    _current = idx


def synchronize(device=None):
    """No CUDA work can be queued yet, so there is nothing to wait for."""
    return None
