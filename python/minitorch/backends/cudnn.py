"""minitorch.backends.cudnn: torch.backends.cudnn's switches.  minitorch has no cuDNN
(is_available() is False, version() None); benchmark, deterministic, enabled, allow_tf32 and
benchmark_limit are kept with torch's defaults and type checks, so scripts that set them run
(they change nothing: minitorch's convolutions are deterministic and chosen without
benchmarking)."""
import contextlib
import sys
import types

__all__ = ["is_available", "version", "is_acceptable", "flags", "set_flags"]

_FLAGS = {"enabled": True, "benchmark": False, "deterministic": False, "allow_tf32": True,
          "benchmark_limit": 10}
_SETTER = {"enabled": "set_enabled_cudnn", "benchmark": "set_benchmark_cudnn",
           "deterministic": "set_deterministic_cudnn", "allow_tf32": "set_allow_tf32_cublas"}


def is_available():
    """Whether cuDNN can be used: False (no CUDA kernels, no cuDNN)."""
    return False


def version():
    return None


def is_acceptable(tensor):
    """Whether cuDNN would take this tensor: never."""
    return False


def _set(name, value):
    if name == "benchmark_limit":
        if not isinstance(value, int) or isinstance(value, bool):
            raise RuntimeError(f"set_cudnn_benchmark_limit expects an int, but got "
                               f"{type(value).__name__}")
    elif not isinstance(value, bool):
        raise RuntimeError(f"{_SETTER[name]} expects a bool, but got {type(value).__name__}")
    _FLAGS[name] = value


def set_flags(_enabled=None, _benchmark=None, _benchmark_limit=None, _deterministic=None,
              _allow_tf32=None, *args):
    """Sets the given switches; returns the previous values (enabled, benchmark,
    benchmark_limit, deterministic, allow_tf32)."""
    orig = (_FLAGS["enabled"], _FLAGS["benchmark"], _FLAGS["benchmark_limit"],
            _FLAGS["deterministic"], _FLAGS["allow_tf32"])
    for name, value in (("enabled", _enabled), ("benchmark", _benchmark),
                        ("benchmark_limit", _benchmark_limit),
                        ("deterministic", _deterministic), ("allow_tf32", _allow_tf32)):
        if value is not None:
            _set(name, value)
    return orig


@contextlib.contextmanager
def flags(enabled=False, benchmark=False, benchmark_limit=10, deterministic=False,
          allow_tf32=True, *args, **kwargs):
    """Sets the switches for the block and restores them after."""
    orig = set_flags(enabled, benchmark, benchmark_limit, deterministic, allow_tf32)
    try:
        yield
    finally:
        set_flags(*orig)


class _CudnnModule(types.ModuleType):
    """The module's class: its switches are properties, checked when set, as torch's."""

    enabled = property(lambda self: _FLAGS["enabled"], lambda self, v: _set("enabled", v))
    benchmark = property(lambda self: _FLAGS["benchmark"], lambda self, v: _set("benchmark", v))
    deterministic = property(lambda self: _FLAGS["deterministic"],
                             lambda self, v: _set("deterministic", v))
    allow_tf32 = property(lambda self: _FLAGS["allow_tf32"], lambda self, v: _set("allow_tf32", v))
    benchmark_limit = property(lambda self: _FLAGS["benchmark_limit"],
                               lambda self, v: _set("benchmark_limit", v))


sys.modules[__name__].__class__ = _CudnnModule
