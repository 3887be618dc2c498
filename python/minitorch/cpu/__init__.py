"""minitorch.cpu: torch.cpu's device functions (the CPU is always there, as one device) and
the deprecated torch.cpu.amp.  Loaded on first use."""
import importlib

__all__ = ["is_available", "device_count", "current_device", "synchronize", "set_device",
           "amp"]


def is_available():
    return True


def device_count():
    return 1


def current_device():
    return "cpu"


def set_device(device):
    """Accepted and ignored, as torch's (there is one CPU device)."""


def synchronize(device=None):
    """CPU work is synchronous: nothing to wait for."""


def __getattr__(name):
    if name == "amp":
        return importlib.import_module(".amp", __name__)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
