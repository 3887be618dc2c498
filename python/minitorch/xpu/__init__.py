"""minitorch.xpu: torch.xpu's device functions for a build without Intel XPU support, as torch's
answer on such a build: no device is available, seeding is silently ignored, and anything that
needs a device raises torch's AssertionError.  Loaded on first use."""

__all__ = ["is_available", "device_count", "is_initialized", "init", "current_device",
           "set_device", "synchronize", "get_device_name", "current_stream", "manual_seed",
           "manual_seed_all", "seed", "seed_all"]

_NOT_COMPILED = "Torch not compiled with XPU enabled"


def is_available():
    return False


def device_count():
    return 0


def is_initialized():
    return False


def _is_compiled():
    return False


def _no_device(*args, **kwargs):
    raise AssertionError(_NOT_COMPILED)


def init():
    _no_device()


def current_device():
    _no_device()


def set_device(device):
    _no_device()


def synchronize(device=None):
    _no_device()


def get_device_name(device=None):
    _no_device()


def current_stream(device=None):
    _no_device()


def manual_seed(seed):
    """Ignored without a device, as torch's."""


def manual_seed_all(seed):
    """Ignored without a device, as torch's."""


def seed():
    """Ignored without a device, as torch's."""


def seed_all():
    """Ignored without a device, as torch's."""
