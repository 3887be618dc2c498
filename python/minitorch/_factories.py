"""Factories written in Python on top of the C ones: the *_like functions and range."""
import builtins
import warnings

from . import _C
from ._C import empty, zeros, ones, full, tensor, get_default_dtype
from ._C import TensorBase as Tensor
from ._checks import _check_count_fits
from ._formats import contiguous_format, preserve_format


def _needs_layout(input, memory_format):
    """Whether a *_like result must be laid out otherwise than row-major: preserve_format (the
    default) of a tensor that is not contiguous, or a channels-last format (Note [Memory formats]
    in aten_lite/memory_format.c)."""
    if memory_format is None or memory_format is preserve_format:
        return not input.is_contiguous()
    return memory_format is not contiguous_format


def _like(fn, input, *args, dtype=None, device=None, requires_grad=False, memory_format=None,
          layout=None):
    _C._check_tensor_options(fn.__name__ + "_like", layout, memory_format)
    if not isinstance(input, Tensor):
        raise TypeError(f"{fn.__name__}_like(): argument 'input' must be Tensor, not {type(input).__name__}")
    dtype = input.dtype if dtype is None else dtype
    if _needs_layout(input, memory_format) and (device is None or
                                                _C.device(device) == input.device):
        r = _C._empty_like(input, dtype, memory_format)
        if fn is not empty:
            r.fill_(args[0] if args else (0 if fn is zeros else 1))
        return r.requires_grad_() if requires_grad else r
    return fn(input.shape, *args, dtype=dtype,
              device=input.device if device is None else device, requires_grad=requires_grad)


def empty_like(input, **kw):
    """An uninitialised tensor with input's shape, dtype and device."""
    return _like(empty, input, **kw)


def zeros_like(input, **kw):
    return _like(zeros, input, **kw)


def ones_like(input, **kw):
    return _like(ones, input, **kw)


def full_like(input, fill_value, **kw):
    return _like(full, input, fill_value, **kw)


def range(start=0, end=None, step=1, *, dtype=None, device=None, requires_grad=False):
    """Deprecated torch.range: like arange but includes `end`; float by default."""
    warnings.warn("minitorch.range is deprecated and will be removed in a future release "
                   "because its behavior is inconsistent with Python's range builtin. "
                   "Instead, use minitorch.arange, which produces values in [start, end).",
                   UserWarning, stacklevel=2)
    if end is None:
        start, end = 0, start
    for name, v in (("start", start), ("end", end), ("step", step)):
        # numbers only: anything else would meet NumPy's or the object's own arithmetic
        if not isinstance(v, (builtins.int, builtins.float)) and not (
                isinstance(v, Tensor) and v.numel() == 1):
            raise TypeError(f"range(): argument '{name}' must be Number, not {type(v).__name__}")
    start, end, step = (v.item() if isinstance(v, Tensor) else v for v in (start, end, step))
    if step == 0:
        raise RuntimeError("step must be nonzero")
    n = builtins.int((end - start) // step) + 1
    if n < 0:
        raise RuntimeError("upper bound and larger bound inconsistent with step sign")
    _check_count_fits(n, 48, "range")  # a Python number and a list slot per value
    dt = get_default_dtype() if dtype is None else dtype
    return tensor([start + i * step for i in builtins.range(n)], dtype=dt, device=device,
                  requires_grad=requires_grad)


# ---- elementwise ops (C) ------------------------------------------------------
