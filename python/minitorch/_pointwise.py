"""Pointwise ops composed from the C kernels: clamp_min/clamp_max, addcmul/addcdiv, positive,
isposinf/isneginf, logit, nan_to_num, nansum/nanmean, aminmax, inner, kron, scalar_tensor."""
import math

from . import _C
from ._checks import _check
from ._ops import clamp
from ._reductions import _return_type, _scalar_type_name

aminmax_ret = _return_type("aminmax", ["min", "max"])


def _out(out, r, fname):
    return _C._store_out(out, r, fname) if out is not None else r


def clamp_min(input, min, *, out=None):
    _check(input, "clamp_min")
    return clamp(input, min=min, out=out)


def clamp_max(input, max, *, out=None):
    _check(input, "clamp_max")
    return clamp(input, max=max, out=out)


def _result_dtype(*tensors):
    dt = tensors[0].dtype
    for t in tensors[1:]:
        dt = _C.promote_types(dt, t.dtype)
    return dt


def addcmul(input, tensor1, tensor2, *, value=1, out=None):
    """input + value * tensor1 * tensor2."""
    for x, what in ((input, "input"), (tensor1, "tensor1"), (tensor2, "tensor2")):
        _check(x, "addcmul", what)
    dt = _result_dtype(input, tensor1, tensor2)
    if not (dt.is_floating_point or dt.is_complex) and isinstance(value, float):
        value = int(value)          # the value takes the result's integer type, as torch
    r = _C.add(input, _C.mul(_C.mul(tensor1, tensor2), value))
    return _out(out, r if r.dtype == dt else r.to(dt), "addcmul")


def addcdiv(input, tensor1, tensor2, *, value=1, out=None):
    """input + value * tensor1 / tensor2 (floating dtypes)."""
    for x, what in ((input, "input"), (tensor1, "tensor1"), (tensor2, "tensor2")):
        _check(x, "addcdiv", what)
    if not (tensor1.dtype.is_floating_point or tensor1.dtype.is_complex) and \
            not (tensor2.dtype.is_floating_point or tensor2.dtype.is_complex):
        raise RuntimeError(
            "Integer division with addcdiv is no longer supported, and in a future  release "
            "addcdiv will perform a true division of tensor1 and tensor2. The historic addcdiv "
            "behavior can be implemented as (input + value * torch.trunc(tensor1 / tensor2))."
            "to(input.dtype) for integer inputs and as (input + value * tensor1 / tensor2) for "
            "float inputs. The future addcdiv behavior is just the latter implementation: "
            "(input + value * tensor1 / tensor2), for all dtypes.")
    dt = _result_dtype(input, tensor1, tensor2)
    r = _C.add(input, _C.mul(_C.div(tensor1, tensor2), value))
    return _out(out, r if r.dtype == dt else r.to(dt), "addcdiv")


def positive(input):
    """input itself (unary +); bool tensors refuse it, as torch."""
    _check(input, "positive")
    if input.dtype == _C.bool:
        raise NotImplementedError("The `+` operator, on a bool tensor is not supported.")
    return input


def _isinf_signed(input, sign, fname, out):
    _check(input, fname)
    if input.dtype.is_complex:
        raise NotImplementedError(f"{fname} does not support complex inputs.")
    if input.dtype.is_floating_point:
        r = _C.eq(input, sign * math.inf)
    else:
        r = _C.zeros(input.shape, dtype=_C.bool)
    return _out(out, r, fname)


def isposinf(input, *, out=None):
    return _isinf_signed(input, 1, "isposinf", out)


def isneginf(input, *, out=None):
    return _isinf_signed(input, -1, "isneginf", out)


def logit(input, eps=None, *, out=None):
    """log(p / (1 - p)), p clamped to [eps, 1 - eps] when eps is given."""
    _check(input, "logit")
    x = input if input.dtype.is_floating_point else input.to(_C.get_default_dtype())
    if eps is not None:
        x = clamp(x, eps, 1 - eps)
    return _out(out, _C.log(_C.div(x, _C.sub(1, x))), "logit")


def nan_to_num(input, nan=0.0, posinf=None, neginf=None, *, out=None):
    """NaN -> nan, +inf -> posinf (default: the dtype's max), -inf -> neginf (its min)."""
    _check(input, "nan_to_num")
    if not (input.dtype.is_floating_point or input.dtype.is_complex):
        return _out(out, input.clone(), "nan_to_num")
    if input.dtype.is_complex:
        re = nan_to_num(input.real, nan, posinf, neginf).to(input.dtype)
        im = nan_to_num(input.imag, nan, posinf, neginf).to(input.dtype)
        r = _C.add(re, _C.mul(im, 1j))
        return _out(out, r, "nan_to_num")
    from ._finfo import finfo
    info = finfo(input.dtype)
    hi = info.max if posinf is None else posinf
    lo = info.min if neginf is None else neginf
    # (the replacements as 0-d tensors, broadcast by where: no full-size buffers)
    r = _C._where(_C.isnan(input), _C.full((), nan, dtype=input.dtype), input)
    r = _C._where(_C.eq(r, math.inf), _C.full((), hi, dtype=input.dtype), r)
    r = _C._where(_C.eq(r, -math.inf), _C.full((), lo, dtype=input.dtype), r)
    return _out(out, r, "nan_to_num")


def _without_nan(input, fname):
    _check(input, fname)
    if input.dtype.is_floating_point or input.dtype.is_complex:
        return input.masked_fill(_C.isnan(input), 0)     # recorded: NaNs get no gradient
    return input


def nansum(input, dim=None, keepdim=False, *, dtype=None, out=None):
    """sum treating NaN as zero."""
    _check(input, "nansum")
    if input.dtype.is_complex:
        raise NotImplementedError("nansum on CPU does not support complex inputs")
    x = _without_nan(input, "nansum")
    kw = {"keepdim": keepdim, "dtype": dtype}
    r = x.sum(**kw) if dim is None else x.sum(dim, **kw)
    return _out(out, r, "nansum")


def nanmean(input, dim=None, keepdim=False, *, dtype=None, out=None):
    """mean of the elements that are not NaN."""
    _check(input, "nanmean")
    if not (input.dtype.is_floating_point or input.dtype.is_complex):
        raise NotImplementedError("nanmean(): expected input to have floating point or complex "
                                  f"dtype but got {_scalar_type_name(input.dtype)}")
    count = _C.logical_not(_C.isnan(input))
    total = nansum(input, dim, keepdim, dtype=dtype)
    n = count.sum() if dim is None else count.sum(dim, keepdim=keepdim)
    return _out(out, _C.div(total, n), "nanmean")


def aminmax(input, *, dim=None, keepdim=False, out=None):
    """(amin, amax) over dim (or everything)."""
    _check(input, "aminmax")
    if dim is None:
        lo, hi = input.amin(), input.amax()
        if keepdim:
            shape = (1,) * input.dim()
            lo, hi = lo.reshape(shape), hi.reshape(shape)
    else:
        lo, hi = input.amin(dim, keepdim), input.amax(dim, keepdim)
    if out is not None:
        if not isinstance(out, (tuple, list)) or len(out) != 2:
            raise TypeError("aminmax(): argument 'out' must be a tuple of two Tensors")
        _C._store_out(out[0], lo, "aminmax")
        _C._store_out(out[1], hi, "aminmax")
        return aminmax_ret(*out)
    return aminmax_ret(lo, hi)


def inner(input, other, *, out=None):
    """Sum of products over the last dims (a plain product when either is 0-d)."""
    _check(input, "inner")
    _check(other, "inner", "other")
    if input.dim() == 0 or other.dim() == 0:
        return _out(out, _C.mul(input, other), "inner")
    if input.shape[-1] != other.shape[-1]:
        raise RuntimeError(f"inner() the last dimension must match on both input tensors but got "
                           f"shapes {list(input.shape)} and {list(other.shape)}")
    from ._linalg import tensordot
    return _out(out, tensordot(input, other, dims=([-1], [-1])), "inner")


def kron(input, other, *, out=None):
    """The Kronecker product: block (i, j) is input[i, j] * other (any number of dims)."""
    _check(input, "kron")
    _check(other, "kron", "other")
    nd = max(input.dim(), other.dim())
    a = input.reshape((1,) * (nd - input.dim()) + tuple(input.shape))
    b = other.reshape((1,) * (nd - other.dim()) + tuple(other.shape))
    # a[..., i, None] * b[None, ..., j] interleaved: shape (a0, b0, a1, b1, ...)
    ia = []
    ib = []
    for k in range(nd):
        ia += [a.shape[k], 1]
        ib += [1, b.shape[k]]
    r = _C.mul(a.reshape(ia), b.reshape(ib))
    return _out(out, r.reshape([a.shape[k] * b.shape[k] for k in range(nd)]), "kron")


def scalar_tensor(s, *, dtype=None, layout=None, device=None, pin_memory=None, requires_grad=False):
    """A 0-d tensor holding s (the default float dtype unless dtype is given), as torch."""
    if isinstance(s, _C.TensorBase):
        raise TypeError("scalar_tensor(): argument 's' (position 1) must be Number, not Tensor")
    return _C.tensor(s, dtype=dtype if dtype is not None else _C.get_default_dtype(), device=device)
