"""softmax and log_softmax along a dimension (the max along it is subtracted first, so large
inputs do not overflow)."""
from . import _C


def _prepare(input, dim, dtype, name):
    if not isinstance(input, _C.TensorBase):
        raise TypeError(f"{name}(): argument 'input' must be Tensor, not {type(input).__name__}")
    if dim is None:
        raise TypeError(f"{name}() missing required argument 'dim'")
    if dtype is not None:
        input = input.to(dtype)
    elif not input.dtype.is_floating_point:
        from ._reductions import _scalar_type_name
        raise RuntimeError(f'"{name}_lastdim_kernel_impl" not implemented for '
                           f"'{_scalar_type_name(input.dtype)}'")
    return input


def _last(x, dim):
    """Whether dim (an int) names x's last dimension."""
    nd = x.dim()
    return isinstance(dim, int) and nd > 0 and dim in (nd - 1, -1)


def softmax(input, dim=None, dtype=None, *, _stacklevel=3):
    """exp(x) / sum(exp(x)) along dim."""
    x = _prepare(input, dim, dtype, "softmax")
    if x.numel() == 0:
        return x.clone()
    if _last(x, dim):
        r = _C._softmax_lastdim(x, False)  # Note [Fused softmax] (aten_lite/softmax.h)
        if r is not NotImplemented:
            return r
    e = (x - x.amax(dim, keepdim=True)).exp_()
    return e.div_(e.sum(dim, keepdim=True))


def log_softmax(input, dim=None, dtype=None, *, _stacklevel=3):
    """x - log(sum(exp(x))) along dim."""
    x = _prepare(input, dim, dtype, "log_softmax")
    if x.numel() == 0:
        return x.clone()
    if _last(x, dim):
        r = _C._softmax_lastdim(x, True)
        if r is not NotImplemented:
            return r
    shifted = x - x.amax(dim, keepdim=True)
    return shifted.sub_(shifted.exp().sum(dim, keepdim=True).log_())
