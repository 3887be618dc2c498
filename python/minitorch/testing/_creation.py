"""make_tensor: a tensor of the given shape, dtype and device filled with random values from a
small range (torch.testing's defaults), for tests."""
import math
import warnings

import minitorch

# default [low, high) of the values: integers and floats alike stay within [-9, 10)
_DEFAULT_LOW, _DEFAULT_HIGH = -9, 10


def _range(dtype, low, high):
    if any(v is not None and isinstance(v, float) and math.isnan(v) for v in (low, high)):
        d_lo, d_hi = (-9, 9) if dtype.is_floating_point or dtype.is_complex else (-9, 10)
        raise ValueError("`low` and `high` cannot be NaN, but got "
                         f"low={d_lo if low is None else low} and high={d_hi if high is None else high}")
    if dtype.is_floating_point or dtype.is_complex:
        info = minitorch.finfo(dtype)
        lo_default, hi_default = -9, 9
    else:
        info = minitorch.iinfo(dtype)
        lo_default, hi_default = _DEFAULT_LOW, _DEFAULT_HIGH
    lo = lo_default if low is None else low
    hi = hi_default if high is None else high
    if low is None:
        lo = max(lo, info.min)
    if high is None:
        hi = min(hi, info.max + (1 if not (dtype.is_floating_point or dtype.is_complex) else 0))
    if lo > hi or (lo == hi and not (dtype.is_floating_point or dtype.is_complex)):
        raise ValueError(f"`low` must be less than `high`, but got {low if low is not None else lo}"
                         f" >= {high if high is not None else hi}")
    lo, hi = max(lo, info.min), min(hi, info.max + (0 if dtype.is_floating_point
                                                    or dtype.is_complex else 1))
    return lo, hi


def make_tensor(*shape, dtype, device, low=None, high=None, requires_grad=False,
                noncontiguous=False, exclude_zero=False, memory_format=None):
    """A random tensor: bool uniformly True/False; integers uniform in [low, high) (default
    [-9, 10) clipped to the dtype); floating and complex (each part) uniform in [low, high)
    (default [-9, 9)).  noncontiguous gives a view with doubled strides; exclude_zero replaces
    zeros (by 1 for integers, the dtype's tiny for floats)."""
    if len(shape) == 1 and isinstance(shape[0], (list, tuple, minitorch.Size)):
        shape = tuple(shape[0])
    shape = tuple(int(s) for s in shape)
    if requires_grad and not (dtype.is_floating_point or dtype.is_complex):
        raise ValueError("`requires_grad=True` is not supported for boolean and integral dtypes, "
                         f"but got dtype={dtype}")
    if dtype is minitorch.bool:
        t = minitorch.randint(0, 2, shape, device=device).to(minitorch.bool)
    elif dtype.is_floating_point or dtype.is_complex:
        lo, hi = _range(dtype, low, high)
        if lo == hi:
            warnings.warn("Passing `low==high` to `torch.testing.make_tensor` for floating or "
                          "complex types is deprecated since 2.1 and will be removed in 2.3. Use "
                          "`torch.full(...)` instead.", FutureWarning, stacklevel=2)
            t = minitorch.full(shape, lo, dtype=dtype, device=device)
        else:
            real = minitorch.finfo(dtype).dtype if dtype.is_complex else None
            work = minitorch.float64
            parts = [minitorch.rand(shape, dtype=work, device=device) * (hi - lo) + lo
                     for _ in range(2 if dtype.is_complex else 1)]
            if dtype.is_complex:
                t = minitorch.complex(parts[0].to(getattr(minitorch, real)),
                                      parts[1].to(getattr(minitorch, real))).to(dtype)
            else:
                t = parts[0].clamp(lo, math.nextafter(hi, -math.inf)).to(dtype)
    else:
        lo, hi = _range(dtype, low, high)
        lo, hi = math.ceil(lo), math.ceil(hi)
        t = minitorch.randint(int(lo), int(hi), shape, dtype=minitorch.int64,
                              device=device).to(dtype)
    if exclude_zero:
        zero = t == 0
        if bool(zero.any()):
            fill = 1 if not (dtype.is_floating_point or dtype.is_complex) else \
                minitorch.finfo(dtype).tiny
            t = minitorch.where(zero, minitorch.full((), fill, dtype=dtype, device=device), t)
    if noncontiguous and t.numel() > 1:
        t = minitorch.repeat_interleave(t, 2, dim=-1)[..., ::2]
    elif memory_format is not None:
        t = t.clone(memory_format=memory_format)
    if requires_grad:
        t.requires_grad_(True)
    return t
