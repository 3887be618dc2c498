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


def asarray(obj, *, dtype=None, device=None, copy=None, requires_grad=False):
    """A tensor of obj (a tensor, a NumPy array, an object with the buffer protocol, a scalar
    or a nested sequence), sharing its memory when it can (same dtype and device) unless
    copy=True; copy=False raises where a copy is needed (torch.asarray)."""
    import numpy as np
    from ._C import TensorBase as T
    if isinstance(obj, T):
        t = obj
        if copy:
            t = t.detach().clone() if (dtype is None or dtype == t.dtype) else t.detach().to(dtype)
        needs = (dtype is not None and dtype != t.dtype) or (
            device is not None and _C.device(device) != t.device)
        if needs:
            if copy is False:
                raise ValueError("can't alias tensor from variable of type "
                                 f"{t.dtype} on {t.device} to dtype {dtype} on {device}")
            t = t.to(dtype=dtype if dtype is not None else t.dtype,
                     device=device if device is not None else t.device)
        if requires_grad:
            t = t.detach().requires_grad_() if t is obj else t.requires_grad_()
        return t
    arr = None
    if isinstance(obj, np.ndarray):
        arr = obj
    elif not isinstance(obj, (list, tuple, builtins.bool, builtins.int, builtins.float,
                              builtins.complex)):
        try:
            arr = np.asarray(memoryview(obj))       # the buffer protocol: shared
        except TypeError:
            arr = None
    if arr is not None:
        if copy:
            arr = arr.copy()
        t = _C.as_tensor(arr)
        if (dtype is not None and dtype != t.dtype) or (device is not None and
                                                        _C.device(device).type != "cpu"):
            if copy is False:
                raise ValueError(f"can't alias NumPy array of dtype {arr.dtype} to dtype "
                                 f"{dtype} on {device}")
            t = t.to(dtype=dtype if dtype is not None else t.dtype,
                     device=device if device is not None else "cpu")
    else:
        if copy is False:
            raise ValueError("can't alias arbitrary sequence into a tensor")
        t = _C.tensor(obj, dtype=dtype, device=device)
    return t.requires_grad_() if requires_grad else t


def frombuffer(buffer, *, dtype, count=-1, offset=0, requires_grad=False):
    """A 1-D tensor over the memory of an object with the buffer protocol (no copy), `count`
    elements of dtype (-1: to the end) from byte `offset` (torch.frombuffer); the tensor keeps
    the buffer alive."""
    import numpy as np
    if not isinstance(dtype, _C.dtype):
        raise TypeError(f"frombuffer(): argument 'dtype' must be torch.dtype, not "
                        f"{type(dtype).__name__}")
    try:
        mv = memoryview(buffer)
    except TypeError:
        raise ValueError("object does not implement Python buffer protocol.") from None
    nbytes = mv.nbytes
    item = dtype.itemsize
    if offset < 0 or offset > nbytes or (nbytes and offset == nbytes):
        raise ValueError(f"both buffer length ({nbytes}) and offset ({offset}) must be greater "
                         f"than 0 and buffer length must be greater than offset"
                         if offset >= nbytes else f"offset ({offset}) must be non-negative")
    if count == 0 or count < -1:
        raise ValueError(f"both buffer length ({nbytes}) and count ({count}) must not be 0"
                         if count == 0 else f"count must be -1 or positive, not {count}")
    if count == -1:
        if (nbytes - offset) % item:
            raise ValueError(f"buffer length ({nbytes - offset} bytes) after offset ({offset} "
                             f"bytes) must be a multiple of element size ({item})")
        count = (nbytes - offset) // item
    if offset + count * item > nbytes:
        raise ValueError(f"requested buffer length ({count} * {item} bytes) after offset "
                         f"({offset} bytes) must not be greater than actual buffer length "
                         f"({nbytes} bytes)")
    if mv.readonly:
        warnings.warn("The given buffer is not writable, and PyTorch does not support "
                      "non-writable tensors. This means you can write to the underlying "
                      "(supposedly non-writable) buffer using the tensor. You may want to copy "
                      "the buffer to protect its data or make it writable before converting it "
                      "to a tensor. This type of warning will be suppressed for the rest of "
                      "this program.", UserWarning, stacklevel=2)
    raw = np.frombuffer(mv.cast("B") if mv.ndim != 1 or mv.format != "B" else mv, dtype=np.uint8,
                        count=count * item, offset=offset)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")          # the read-only warning was given above
        t = _C.from_numpy(raw).view(dtype)
    return t.requires_grad_() if requires_grad else t


def empty_permuted(size, physical_layout, *, dtype=None, layout=None, device=None,
                   requires_grad=False, pin_memory=False):
    """An uninitialised tensor of logical `size` whose dimensions lie in memory in the order
    physical_layout (outermost first): empty(size permuted) permuted back (torch.empty_permuted)."""
    size, order = tuple(size), tuple(physical_layout)
    if len(order) != len(size):
        raise RuntimeError(f"Number of dimensions in size does not match the length of the "
                           f"physical_layout; i.e. len(size) = {len(size)} is not equal to "
                           f"len(physical_layout) = {len(order)}")
    for i, d in enumerate(order):
        if not 0 <= d < len(size):
            raise RuntimeError(f"Dimension out of range (expected to be between 0 and "
                               f"{len(size) - 1}, but got {d} at index {i}).  NB: negative dims "
                               "not currently supported; file an issue if you want it.")
        if d in order[:i]:
            raise RuntimeError("Duplicate dim not allowed")
    t = empty(tuple(size[d] for d in order), dtype=dtype, device=device,
              pin_memory=pin_memory)
    inverse = [0] * len(order)
    for i, d in enumerate(order):
        inverse[d] = i
    t = t.permute(inverse)
    return t.requires_grad_() if requires_grad else t
