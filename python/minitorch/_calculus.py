"""Finite differences (diff) and the trapezoidal rule (trapezoid, trapz, cumulative_trapezoid),
composed from narrow, sub, sum and cumsum (differentiable through them)."""
from . import _C


def _mt():
    import minitorch
    return minitorch


def _wrap_dim(dim, ndim):
    n = max(ndim, 1)
    if ndim == 0:
        raise IndexError(f"Dimension specified as {dim} but tensor has no dimensions")
    if not -n <= dim < n:
        raise IndexError(f"Dimension out of range (expected to be in range of [{-n}, {n - 1}], "
                         f"but got {dim})")
    return dim % n


def _copy_out(r, out):
    if out is None:
        return r
    return out.resize_(r.shape).copy_(r)


def diff(input, n=1, dim=-1, prepend=None, append=None, *, out=None):
    """The n-th forward difference along dim (for bool: logical_xor of neighbours), prepend
    and append joined to input along dim first."""
    if not isinstance(input, _C.TensorBase):
        raise TypeError(f"diff(): argument 'input' (position 1) must be Tensor, not "
                        f"{type(input).__name__}")
    if input.dim() == 0:
        raise RuntimeError("diff expects input to be at least one-dimensional")
    if n < 0:
        raise RuntimeError(f"order must be non-negative but got {n}")
    d = _wrap_dim(dim, input.dim())
    parts = []
    for name, t in (("prepend", prepend), (None, input), ("append", append)):
        if t is None:
            continue
        if name is not None:
            if not isinstance(t, _C.TensorBase):
                raise TypeError(f"diff(): argument '{name}' must be Tensor, not "
                                f"{type(t).__name__}")
            if t.dim() != input.dim():
                raise RuntimeError("diff expects prepend or append to be the same dimension as "
                                   "input")
            for k in range(input.dim()):
                if k != d and t.shape[k] != input.shape[k]:
                    raise RuntimeError(
                        "diff expects the shape of tensor to prepend or append to match that of "
                        f"input except along the differencing dimension; input.size({k}) = "
                        f"{input.shape[k]}, but got tensor.size({k}) = {t.shape[k]}")
        parts.append(t)
    if n == 0:
        return _copy_out(input.clone(), out)       # prepend and append are not joined (as torch)
    x = _mt().cat(parts, d) if len(parts) > 1 else input
    for _ in range(n):
        length = x.shape[d]
        if length <= 1:
            x = x.narrow(d, 0, 0)
            break
        right, left = x.narrow(d, 1, length - 1), x.narrow(d, 0, length - 1)
        x = right.logical_xor(left) if x.dtype == _C.bool else right - left
    return _copy_out(x, out)


def _spacing(y, x, dim):
    """x's differences along dim, shaped to broadcast with y's (torch's rules: a 1-D x gives
    one spacing per sample point; a lower-dimensional x gets leading ones)."""
    if x.dim() == 1:
        if x.shape[0] != y.shape[dim]:
            raise RuntimeError("trapezoid: There must be one `x` value for each sample point")
        shape = [1] * y.dim()
        shape[dim] = x.shape[0]
        xv = x.reshape(shape)
    elif x.dim() < y.dim():
        xv = x.reshape([1] * (y.dim() - x.dim()) + list(x.shape))
    else:
        xv = x
    length = xv.shape[dim]
    return xv.narrow(dim, 1, length - 1) - xv.narrow(dim, 0, length - 1)


def _zeros_without(y, dim):
    shape = list(y.shape)
    del shape[dim]
    dt = y.dtype if (y.dtype.is_floating_point or y.dtype.is_complex) else _C.get_default_dtype()
    return _C.zeros(shape, dtype=dt)


def trapezoid(y, x=None, *, dx=None, dim=-1):
    """The trapezoidal rule along dim: sum of (y[i+1] + y[i]) / 2 times the spacing (dx, default
    1, or x's differences)."""
    if not isinstance(y, _C.TensorBase):
        raise TypeError(f"trapezoid(): argument 'y' (position 1) must be Tensor, not "
                        f"{type(y).__name__}")
    if x is not None and dx is not None:
        raise TypeError("trapezoid() received an invalid combination of arguments - got (Tensor, "
                        "Tensor, dx=...), but expected one of:\n * (Tensor y, Tensor x, *, int dim "
                        "= -1)\n * (Tensor y, *, Number dx = 1, int dim = -1)")
    d = _wrap_dim(dim, y.dim())
    if isinstance(x, _C.TensorBase):
        h = _spacing(y, x, d)
        if y.shape[d] == 0:
            return _zeros_without(y, d)
        length = y.shape[d]
        mid = y.narrow(d, 1, length - 1) + y.narrow(d, 0, length - 1)
        return (h * mid).sum(d) / 2.0
    if x is not None:
        raise TypeError(f"trapezoid(): argument 'x' (position 2) must be Tensor, not "
                        f"{type(x).__name__}")
    h = 1 if dx is None else dx
    if y.shape[d] == 0:
        return _zeros_without(y, d)
    ends = y.select(d, 0) + y.select(d, -1)
    return (y.sum(d) - ends * 0.5) * h


def trapz(y, x=None, *, dx=None, dim=-1):
    """trapezoid under its older name."""
    return trapezoid(y, x, dx=dx, dim=dim)


def cumulative_trapezoid(y, x=None, *, dx=None, dim=-1):
    """The running trapezoidal rule along dim (one value fewer than y along dim)."""
    if not isinstance(y, _C.TensorBase):
        raise TypeError(f"cumulative_trapezoid(): argument 'y' (position 1) must be Tensor, not "
                        f"{type(y).__name__}")
    if x is not None and dx is not None:
        raise TypeError("cumulative_trapezoid() received an invalid combination of arguments: "
                        "give x or dx, not both")
    d = _wrap_dim(dim, y.dim())
    length = y.shape[d]
    if isinstance(x, _C.TensorBase):
        h = _spacing(y, x, d)
    elif x is not None:
        raise TypeError(f"cumulative_trapezoid(): argument 'x' (position 2) must be Tensor, not "
                        f"{type(x).__name__}")
    else:
        h = 1 if dx is None else dx
    if length == 0:
        shape = list(y.shape)
        dt = y.dtype if (y.dtype.is_floating_point or y.dtype.is_complex) else _C.get_default_dtype()
        return _C.zeros(shape, dtype=dt)
    mid = y.narrow(d, 1, length - 1) + y.narrow(d, 0, length - 1)
    return (h * mid / 2.0).cumsum(d)
