"""Tensor methods written in Python on top of the C ops (attached to minitorch.Tensor)."""
from . import _C, _ops, _reductions
from ._tensor import Tensor


def _inplace(fn):
    def method(self, *args, **kwargs):
        r = fn(self, *args, **kwargs)
        if not _C.can_cast(r.dtype, self.dtype):
            raise RuntimeError(f"result type {_reductions._scalar_type_name(r.dtype)} can't be cast to the "
                               f"desired output type {_reductions._scalar_type_name(self.dtype)}")
        return self.copy_(r)
    method.__name__ = fn.__name__ + "_"
    return method


for _name, _fn in [("mean", _reductions.mean), ("var", _reductions.var), ("std", _reductions.std),
                   ("norm", _reductions.norm), ("logsumexp", _reductions.logsumexp),
                   ("max", _reductions.max), ("min", _reductions.min),
                   ("count_nonzero", _reductions.count_nonzero),
                   ("clamp", _ops.clamp), ("clip", _ops.clamp), ("lerp", _ops.lerp),
                   ("isclose", _ops.isclose), ("allclose", _ops.allclose), ("equal", _ops.equal)]:
    setattr(Tensor, _name, _fn)

for _name, _fn in [("clamp_", _ops.clamp), ("clip_", _ops.clamp), ("lerp_", _ops.lerp)]:
    setattr(Tensor, _name, _inplace(_fn))

# torch's aliases
for _alias, _target in [("subtract", "sub"), ("multiply", "mul"), ("divide", "div"),
                        ("true_divide", "div"), ("negative", "neg"), ("absolute", "abs"),
                        ("arctan2", "atan2"), ("greater", "gt"), ("greater_equal", "ge"),
                        ("less", "lt"), ("less_equal", "le"), ("not_equal", "ne"),
                        ("subtract_", "sub_"), ("multiply_", "mul_"), ("divide_", "div_"),
                        ("true_divide_", "div_"), ("negative_", "neg_"), ("absolute_", "abs_")]:
    setattr(Tensor, _alias, getattr(_C.TensorBase, _target))


def _rsub(self, other, *, alpha=1):
    return _ops.rsub(self, other, alpha=alpha)


Tensor.rsub = _rsub
