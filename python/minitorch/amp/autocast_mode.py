"""autocast, custom_fwd, custom_bwd (torch.amp.autocast_mode)."""
import functools
import warnings

from .. import _C
from .. import _autocast_state as _state

__all__ = ["autocast", "custom_fwd", "custom_bwd", "is_autocast_available"]

# the dtypes autocast may run ops in (torch's CPU and CUDA lists)
_SUPPORTED = (_C.bfloat16, _C.float16)


def is_autocast_available(device_type):
    """Whether autocast can be used for device_type: "cpu" and "cuda" (a RuntimeError
    names the device types minitorch knows for anything else)."""
    _C._is_autocast_enabled(device_type)      # raises for unknown device types
    return True


class autocast:
    """Runs the block (or the decorated function) with autocast on for device_type: ops of
    torch's lower-precision list in `dtype` (default: bfloat16 for "cpu", float16 for
    "cuda"), ops of its float32 list in float32, the others in their inputs' dtype.
    enabled=False turns it off inside an enabled region.  "cuda" without CUDA warns and
    stays off, as torch."""

    def __init__(self, device_type, dtype=None, enabled=True, cache_enabled=None):
        if not isinstance(device_type, str):
            raise ValueError(f"Expected `device_type` of type `str`, got: `{type(device_type)}`")
        self.fast_dtype = _state.get_autocast_dtype(device_type) if dtype is None else dtype
        self.device = device_type
        if not is_autocast_available(self.device):
            raise RuntimeError(f"User specified an unsupported autocast device_type '{self.device}'")
        self._cache_enabled = _state.is_autocast_cache_enabled() if cache_enabled is None \
            else cache_enabled
        name = self.device.upper()
        if enabled:
            if self.device == "cuda":
                from .. import cuda
                if not cuda.is_available():
                    warnings.warn("CUDA is not available or torch_xla is imported. Disabling "
                                  "autocast.", stacklevel=2)
                    enabled = False
                elif self.fast_dtype == _C.bfloat16 and not cuda.is_bf16_supported():
                    raise RuntimeError("Current CUDA Device does not support bfloat16. Please "
                                       "switch dtype to float16.")
            elif self.fast_dtype not in _SUPPORTED:
                warnings.warn(f"In {name} autocast, but the target dtype is not supported. "
                              f"Disabling autocast.\n{name} Autocast only supports dtypes of "
                              + ", ".join(map(str, _SUPPORTED)) + " currently.", stacklevel=2)
                enabled = False
        self._enabled = enabled

    def __enter__(self):
        self.prev_cache_enabled = _state.is_autocast_cache_enabled()
        self.prev = _state.is_autocast_enabled(self.device)
        self.prev_fastdtype = _state.get_autocast_dtype(self.device)
        _state.set_autocast_enabled(self.device, self._enabled)
        _state.set_autocast_dtype(self.device, self.fast_dtype)
        _state.autocast_increment_nesting()
        _state.set_autocast_cache_enabled(bool(self._cache_enabled))
        return self

    def __exit__(self, exc_type, exc_val, exc_tb):
        # leaving the outermost region drops the cached casts
        if _state.autocast_decrement_nesting() == 0:
            _state.clear_autocast_cache()
        _state.set_autocast_enabled(self.device, self.prev)
        _state.set_autocast_dtype(self.device, self.prev_fastdtype)
        _state.set_autocast_cache_enabled(self.prev_cache_enabled)
        return False

    def __call__(self, func):
        @functools.wraps(func)
        def decorate_autocast(*args, **kwargs):
            with self:
                return func(*args, **kwargs)
        return decorate_autocast


def _cast(value, device_type, dtype):
    """value with its floating tensors (not float64) cast to dtype, through lists, tuples
    and dicts."""
    if isinstance(value, _C.TensorBase):
        if value.dtype.is_floating_point and value.dtype != _C.float64 and \
                value.device.type == device_type:
            return value.to(dtype)
        return value
    if isinstance(value, (str, bytes)):
        return value
    if isinstance(value, dict):
        return {_cast(k, device_type, dtype): _cast(v, device_type, dtype)
                for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        items = (_cast(v, device_type, dtype) for v in value)
        return type(value)(items) if isinstance(value, list) else tuple(items)
    return value


def custom_fwd(fwd=None, *, device_type, cast_inputs=None):
    """Decorator for the forward of an autograd.Function: records whether autocast was on
    (for custom_bwd); with cast_inputs, runs forward with autocast off on inputs cast to
    cast_inputs when autocast is on."""
    if not isinstance(device_type, str):
        raise ValueError(f"Expected `device_type` of type `str`, got: `{type(device_type)}`")
    if fwd is None:
        return functools.partial(custom_fwd, device_type=device_type, cast_inputs=cast_inputs)

    @functools.wraps(fwd)
    def decorate_fwd(*args, **kwargs):
        args[0]._dtype = _state.get_autocast_dtype(device_type)
        if cast_inputs is None:
            args[0]._fwd_used_autocast = _state.is_autocast_enabled(device_type)
            return fwd(*args, **kwargs)
        on = _state.is_autocast_enabled(device_type)
        args[0]._fwd_used_autocast = False
        if on:
            with autocast(device_type=device_type, enabled=False):
                return fwd(*_cast(args, device_type, cast_inputs),
                           **_cast(kwargs, device_type, cast_inputs))
        return fwd(*args, **kwargs)
    return decorate_fwd


def custom_bwd(bwd=None, *, device_type):
    """Decorator for the backward of an autograd.Function: runs it with the autocast state
    its forward (decorated with custom_fwd) ran with."""
    if not isinstance(device_type, str):
        raise ValueError(f"Expected `device_type` of type `str`, got: `{type(device_type)}`")
    if bwd is None:
        return functools.partial(custom_bwd, device_type=device_type)

    @functools.wraps(bwd)
    def decorate_bwd(*args, **kwargs):
        with autocast(device_type=device_type, enabled=args[0]._fwd_used_autocast,
                      dtype=args[0]._dtype):
            return bwd(*args, **kwargs)
    return decorate_bwd
