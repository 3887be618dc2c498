"""minitorch.cuda: device queries.  CUDA tensors are not implemented yet (see README)."""
from .. import _C
from . import nccl  # noqa: F401  (the library loads on first use)


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


# ---- memory: the caching allocator's statistics (Note [Caching allocator]) -----------------

def _device_index(device):
    """The index of a CUDA device argument: None means the current device."""
    if device is None:
        return _current
    if isinstance(device, int) and not isinstance(device, bool):
        return device
    from .. import device as _device
    d = _device(device)
    if d.type != "cuda":
        raise ValueError(f"Expected a cuda device, but got: {d}")
    return _current if d.index is None else d.index


def memory_stats(device=None):
    """The caching allocator's counters for the device: an empty dict before any CUDA memory
    was allocated (as torch before CUDA is initialised)."""
    return _C._cuda_memory_stats(_device_index(device))


def memory_allocated(device=None):
    """Bytes in blocks that tensors hold on the device (rounded block sizes)."""
    return memory_stats(device).get("allocated_bytes.all.current", 0)


def max_memory_allocated(device=None):
    return memory_stats(device).get("allocated_bytes.all.peak", 0)


def memory_reserved(device=None):
    """Bytes the caching allocator holds from the driver (in use or cached)."""
    return memory_stats(device).get("reserved_bytes.all.current", 0)


def max_memory_reserved(device=None):
    return memory_stats(device).get("reserved_bytes.all.peak", 0)


def reset_peak_memory_stats(device=None):
    _C._cuda_reset_peak_memory_stats(_device_index(device))


def empty_cache():
    """Gives the cached blocks no tensor uses back to the driver."""
    _C._cuda_empty_cache()


# ---- random seeds, bfloat16 support, amp (what training scripts call unconditionally) -------
# torch queues the seeding of CUDA generators until CUDA initialises, so without CUDA these
# return silently; there are no CUDA generators yet (see README) to seed.

def manual_seed(seed):
    """Seeds the current CUDA device's generator: a no-op without CUDA (as torch's lazy
    seeding); the argument must convert to int."""
    int(seed)


def manual_seed_all(seed):
    """Seeds every CUDA device's generator: a no-op without CUDA."""
    int(seed)


def seed():
    """Seeds the current CUDA device's generator randomly: a no-op without CUDA."""


def seed_all():
    """Seeds every CUDA device's generator randomly: a no-op without CUDA."""


def is_bf16_supported(including_emulation=True):
    """Whether CUDA bfloat16 tensors can be used: False without CUDA."""
    return False


def __getattr__(name):
    if name == "amp":
        import importlib
        return importlib.import_module(".amp", __name__)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
