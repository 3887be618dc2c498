"""Reductions composed from the C kernels: mean, var/std, logsumexp, max/min overloads (the
norms are in _linalg_norms.py)."""
import warnings
from collections import namedtuple

from . import _C
from ._checks import scalar_type_name as _scalar_type_name


def _return_type(name, fields):
    cls = namedtuple(name, fields)
    cls.__module__ = "minitorch.return_types"

    def __repr__(self):
        body = ",\n".join(f"{f}={getattr(self, f)!r}" for f in fields)
        return f"minitorch.return_types.{name}(\n{body})"
    cls.__repr__ = __repr__
    return cls


max_ret = _return_type("max", ["values", "indices"])
min_ret = _return_type("min", ["values", "indices"])
var_mean_ret = _return_type("var_mean", ["var", "mean"])  # kept as plain tuples by var_mean


def _check(input, fname):
    if not isinstance(input, _C.TensorBase):
        raise TypeError(f"{fname}(): argument 'input' must be Tensor, not {type(input).__name__}")


def _numel_reduced(input, dim):
    if dim is None or (isinstance(dim, (list, tuple)) and len(dim) == 0):
        return input.numel()
    dims = dim if isinstance(dim, (list, tuple)) else (dim,)
    if input.dim() == 0:
        for d in dims:                 # a 0-d tensor has dims 0 and -1 of size 1, as torch
            if d not in (0, -1):
                raise IndexError(f"Dimension out of range (expected to be in range of [-1, 0], "
                                 f"but got {d})")
        return 1
    n = 1
    for d in dims:
        n *= input.size(d)
    return n


def _float_input(input, dtype, fname):
    if dtype is not None:
        return input.to(dtype)
    if not (input.dtype.is_floating_point or input.dtype.is_complex):
        raise NotImplementedError(f"{fname}(): could not infer output dtype. Input dtype must be either "
                                  f"a floating point or complex dtype. Got: {_scalar_type_name(input.dtype)}")
    return input


def _opmath(x):
    """float16/bfloat16 inputs are reduced in float32 (as torch), so that sums of many
    elements neither overflow nor lose the low bits; the result is rounded back once."""
    return x.to(_C.float32) if x.dtype in (_C.float16, _C.bfloat16) else x


def mean(input, dim=None, keepdim=False, *, dtype=None, out=None):
    """Mean over dim (all dims when None); floating inputs only, as torch."""
    _check(input, "mean")
    x = _float_input(input, dtype, "mean")
    n = _numel_reduced(x, dim)
    s = _C.sum(_opmath(x), dim, keepdim)
    r = _C.div(s, n) if n else _C.div(s, float("nan"))
    if r.dtype != x.dtype:
        r = r.to(x.dtype)
    if out is not None:
        return _C._store_out(out, r, "mean")
    return r


def _correction(unbiased, correction):
    if correction is not None:
        if unbiased is not None:
            raise RuntimeError("var/std: pass either unbiased or correction, not both")
        return correction
    return 1 if unbiased is None or unbiased else 0


def var(input, dim=None, unbiased=None, keepdim=False, *, correction=None, out=None):
    """Variance with Bessel's correction by default (correction=1), two-pass for accuracy."""
    return _var(input, dim, unbiased, keepdim, correction, out, "var")


def _var(input, dim, unbiased, keepdim, correction, out, fname):
    _check(input, fname)
    if isinstance(dim, bool):  # var(input, unbiased) legacy positional form
        dim, unbiased = None, dim
    cplx = input.dtype.is_complex
    if not (input.dtype.is_floating_point or cplx):
        raise NotImplementedError("std and var only support floating point and complex dtypes")
    x0 = input
    x = _opmath(x0)
    c = _correction(unbiased, correction)
    n = _numel_reduced(x, dim)
    m = _C.div(_C.sum(x, dim, True), n) if n else _C.sum(x, dim, True)
    d = _C.sub(x, m)
    # complex: the mean of |x - mean|^2, a real result
    ss = _C.sum(_C.square(_C.abs(d)) if cplx else _C.mul(d, d), dim, keepdim)
    if n - c <= 0:  # no degrees of freedom: nan (inf for a non-zero sum), with torch's warning
        warnings.warn(f"{fname}(): degrees of freedom is <= 0. Correction should be strictly less "
                      "than the reduction factor (input numel divided by output numel).",
                      UserWarning, stacklevel=3)
    r = _C.div(ss, float(n - c) if n - c > 0 else 0.0)
    rdt = x0.real.dtype if cplx else x0.dtype
    if r.dtype != rdt:
        r = r.to(rdt)
    if out is not None:
        return _C._store_out(out, r, "var")
    return r


def std(input, dim=None, unbiased=None, keepdim=False, *, correction=None, out=None):
    r = _C.sqrt(_var(input, dim, unbiased, keepdim, correction, None, "std"))
    if out is not None:
        return _C._store_out(out, r, "std")
    return r


def var_mean(input, dim=None, unbiased=None, keepdim=False, *, correction=None):
    if isinstance(dim, bool):            # var_mean(x, unbiased)
        dim, unbiased = None, dim
    return (_var(input, dim, unbiased, keepdim, correction, None, "var_mean"),
            mean(input, dim, keepdim))


def std_mean(input, dim=None, unbiased=None, keepdim=False, *, correction=None):
    if isinstance(dim, bool):            # std_mean(x, unbiased)
        dim, unbiased = None, dim
    return (_C.sqrt(_var(input, dim, unbiased, keepdim, correction, None, "std_mean")),
            mean(input, dim, keepdim))


def logsumexp(input, dim, keepdim=False, *, out=None):
    """log(sum(exp(x))) computed stably as m + log(sum(exp(x - m)))."""
    _check(input, "logsumexp")
    inexact = input.dtype.is_floating_point or input.dtype.is_complex
    x0 = input if inexact else input.to(_C.get_default_dtype())
    x = _opmath(x0)
    if x.numel() == 0:
        r = _C.log(_C.sum(_C.exp(x), dim, keepdim))
    else:
        # complex: shifted by the largest real part (the modulus of exp is exp of the real part);
        # the shift is a constant to autograd (the result does not depend on it)
        xd = x.detach()
        m = _C.amax(xd.real if xd.dtype.is_complex else xd, dim, True)
        m = _C._where(_C.isinf(m), 0.0, m)
        r = _C.add(_C.log(_C.sum(_C.exp(_C.sub(x, m)), dim, True)), m)
        if not keepdim:
            r = r.squeeze(dim) if not isinstance(dim, (list, tuple)) else _squeeze_dims(r, dim)
    if r.dtype != x0.dtype:
        r = r.to(x0.dtype)
    if out is not None:
        return _C._store_out(out, r, "logsumexp")
    return r


def _squeeze_dims(t, dims):
    nd = t.dim()
    for d in sorted((d % nd for d in dims), reverse=True):
        t = t.squeeze(d)
    return t


def _extent(t):
    """[first, last) byte addresses a non-empty tensor reaches."""
    lo = hi = t.data_ptr()
    for size, stride in zip(t.shape, t.stride()):
        span = (size - 1) * stride * t.element_size()
        lo, hi = (lo + span, hi) if span < 0 else (lo, hi + span)
    return lo, hi + t.element_size()


def _overlap(a, b):
    if a.numel() == 0 or b.numel() == 0:
        return False
    (alo, ahi), (blo, bhi) = _extent(a), _extent(b)
    return alo < bhi and blo < ahi


def _store_pair(out, v, i, fname):
    """(values, indices) written into out=(values, indices), resized as torch does.
    Everything is checked before either output is touched: the dtypes (values
    as the input's, indices int64, as torch's structured kernels) and that
    the two outputs do not share memory."""
    if (not isinstance(out, (tuple, list)) or len(out) != 2
            or not all(isinstance(o, _C.TensorBase) for o in out)):
        raise TypeError(f"{fname}(): argument 'out' must be a tuple of two Tensors")
    for o, r in zip(out, (v, i)):
        if o.dtype != r.dtype:
            raise RuntimeError(f"Expected out tensor to have dtype {r.dtype}, but got "
                               f"{o.dtype} instead")
    if _overlap(out[0], out[1]) or out[0] is out[1]:
        raise RuntimeError("unsupported operation: some elements of the input tensor and the "
                           "written-to tensor refer to a single memory location. Please clone() "
                           "the tensor before performing the operation.")
    return _C._store_out(out[0], v, fname), _C._store_out(out[1], i, fname)


def _max_min(input, dim, keepdim, other, is_max, out):
    fname = "max" if is_max else "min"
    _check(input, fname)
    if isinstance(dim, _C.TensorBase) and other is None:
        dim, other = None, dim
    if other is not None:
        return (_C.maximum if is_max else _C.minimum)(input, other, out=out)
    if dim is not None and (isinstance(dim, bool) or not hasattr(dim, "__index__")):
        raise TypeError(f"{fname}(): argument 'dim' must be int, not {type(dim).__name__}")
    if input.numel() == 0:
        if dim is None:
            raise RuntimeError(f"{fname}(): Expected reduction dim to be specified for input.numel() == 0. "
                               "Specify the reduction dim with the 'dim' argument.")
        if input.dim() and input.size(dim) == 0:
            raise IndexError(f"{fname}(): Expected reduction dim {dim % input.dim()} to have non-zero size.")
    if dim is None:
        if keepdim:
            raise TypeError(f"{fname}() received an invalid combination of arguments: keepdim needs dim")
        r = (_C.amax if is_max else _C.amin)(input)
        if out is not None:
            return _C._store_out(out, r, fname)
        return r
    values = (_C.amax if is_max else _C.amin)(input, dim, keepdim)
    # argmax/argmin reject bool (as torch) but max/min with dim accept it
    src = input.to(_C.uint8) if input.dtype == _C.bool else input
    indices = (_C.argmax if is_max else _C.argmin)(src, dim, keepdim)
    if out is not None:
        values, indices = _store_pair(out, values, indices, fname)
    return (max_ret if is_max else min_ret)(values, indices)


def max(input, dim=None, keepdim=False, *, other=None, out=None):
    """max(input) -> tensor; max(input, dim, keepdim) -> (values, indices); max(input, other)."""
    return _max_min(input, dim, keepdim, other, True, out)


def min(input, dim=None, keepdim=False, *, other=None, out=None):
    return _max_min(input, dim, keepdim, other, False, out)


cummax_ret = _return_type("cummax", ["values", "indices"])
cummin_ret = _return_type("cummin", ["values", "indices"])


def _cummax_cummin(input, dim, out, is_max):
    fname = "cummax" if is_max else "cummin"
    _check(input, fname)
    v, i = _C._cummax_cummin(input, dim, is_max)
    if out is not None:
        v, i = _store_pair(out, v, i, fname)
    return (cummax_ret if is_max else cummin_ret)(v, i)


def cummax(input, dim, *, out=None):
    """The running maximum along dim and the index where it was found (the later index on
    ties; a NaN stays once seen): named tuple (values, indices)."""
    return _cummax_cummin(input, dim, out, True)


def cummin(input, dim, *, out=None):
    """The running minimum along dim and its index, as cummax."""
    return _cummax_cummin(input, dim, out, False)


def count_nonzero(input, dim=None):
    _check(input, "count_nonzero")
    return _C.sum(_C.ne(input, 0), dim)


__all__ = ["mean", "var", "std", "var_mean", "std_mean", "logsumexp", "max", "min",
           "count_nonzero", "cummax", "cummin"]


def sum_to_size(input, *size):
    """input summed down to `size`, to which it must be expandable: the leading dimensions it
    has beyond size are summed away, and those where size is 1 summed with keepdim."""
    if len(size) == 1 and isinstance(size[0], (tuple, list)):
        size = tuple(size[0])
    size = tuple(size)
    shape = tuple(input.shape)
    lead = len(shape) - len(size)
    ok = lead >= 0 and all(s == t or s == 1 for s, t in zip(size, shape[lead:]))
    if not ok:
        raise RuntimeError(f"size {{{list(size)}}} is not expandable to size {{{list(shape)}}}.")
    r = input
    if lead:
        r = r.sum(tuple(range(lead)))
    dims = tuple(i for i, (s, t) in enumerate(zip(size, shape[lead:])) if s == 1 and t != 1)
    if dims:
        r = r.sum(dims, keepdim=True)
    return r
