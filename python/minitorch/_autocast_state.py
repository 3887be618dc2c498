"""torch's autocast state functions (torch.is_autocast_enabled, get_autocast_dtype, ...): the
per-thread state lives in C (see Note [Autocast] in csrc/autocast.h)."""
import warnings

from . import _C

__all__ = ["is_autocast_enabled", "set_autocast_enabled", "get_autocast_dtype",
           "set_autocast_dtype", "is_autocast_cpu_enabled", "set_autocast_cpu_enabled",
           "get_autocast_cpu_dtype", "set_autocast_cpu_dtype", "get_autocast_gpu_dtype",
           "set_autocast_gpu_dtype", "autocast_increment_nesting", "autocast_decrement_nesting",
           "clear_autocast_cache", "is_autocast_cache_enabled", "set_autocast_cache_enabled"]


def _deprecated(old, new):
    warnings.warn(f"torch.{old}() is deprecated. Please use torch.{new} instead.",
                  DeprecationWarning, stacklevel=3)


def is_autocast_enabled(device_type=None):
    """Whether autocast is on for device_type on this thread (no argument: "cuda", as
    torch's deprecated form)."""
    return _C._is_autocast_enabled("cuda" if device_type is None else device_type)


def set_autocast_enabled(*args):
    """set_autocast_enabled(device_type, enabled), or the deprecated (enabled) for "cuda"."""
    if len(args) == 1:
        return _C._set_autocast_enabled("cuda", args[0])
    if len(args) != 2:
        raise TypeError(f"set_autocast_enabled() takes 1 or 2 arguments ({len(args)} given)")
    return _C._set_autocast_enabled(args[0], args[1])


def get_autocast_dtype(device_type):
    """The dtype autocast runs lower-precision ops in for device_type."""
    return _C._get_autocast_dtype(device_type)


def set_autocast_dtype(device_type, dtype):
    return _C._set_autocast_dtype(device_type, dtype)


def is_autocast_cpu_enabled():
    _deprecated("is_autocast_cpu_enabled", "is_autocast_enabled('cpu')")
    return _C._is_autocast_enabled("cpu")


def set_autocast_cpu_enabled(enabled):
    _deprecated("set_autocast_cpu_enabled", "set_autocast_enabled('cpu', enabled)")
    return _C._set_autocast_enabled("cpu", enabled)


def get_autocast_cpu_dtype():
    _deprecated("get_autocast_cpu_dtype", "get_autocast_dtype('cpu')")
    return _C._get_autocast_dtype("cpu")


def set_autocast_cpu_dtype(dtype):
    _deprecated("set_autocast_cpu_dtype", "set_autocast_dtype('cpu', dtype)")
    return _C._set_autocast_dtype("cpu", dtype)


def get_autocast_gpu_dtype():
    _deprecated("get_autocast_gpu_dtype", "get_autocast_dtype('cuda')")
    return _C._get_autocast_dtype("cuda")


def set_autocast_gpu_dtype(dtype):
    _deprecated("set_autocast_gpu_dtype", "set_autocast_dtype('cuda', dtype)")
    return _C._set_autocast_dtype("cuda", dtype)


def autocast_increment_nesting():
    return _C._autocast_increment_nesting()


def autocast_decrement_nesting():
    return _C._autocast_decrement_nesting()


def clear_autocast_cache():
    return _C._clear_autocast_cache()


def is_autocast_cache_enabled():
    return _C._is_autocast_cache_enabled()


def set_autocast_cache_enabled(enabled):
    return _C._set_autocast_cache_enabled(enabled)
