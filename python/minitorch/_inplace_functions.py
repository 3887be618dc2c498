"""The module forms of in-place ops: minitorch.sin_(x) is x.sin_() (torch.sin_, torch.relu_,
torch.zero_, ...), returning its input. threshold_ and embedding_renorm_, which are no Tensor
methods, are nn.functional's."""
from . import _C

# the in-place Tensor methods torch also offers as functions of the module
_METHODS = (
    "abs_", "acos_", "acosh_", "addmv_", "arccos_", "arccosh_", "arcsin_", "arcsinh_",
    "arctan_", "arctanh_", "as_strided_", "asin_", "asinh_", "atan_", "atanh_", "ceil_",
    "conj_physical_", "cos_", "cosh_", "deg2rad_", "detach_", "erf_", "erfc_", "exp2_", "exp_",
    "expm1_", "fill_", "fix_", "floor_", "frac_", "log10_", "log1p_", "log2_", "log_", "logit_",
    "nan_to_num_", "neg_", "negative_", "rad2deg_", "reciprocal_", "relu_", "resize_as_",
    "round_", "rsqrt_", "sigmoid_", "sin_", "sinc_", "sinh_", "sqrt_", "square_", "tan_",
    "tanh_", "trunc_", "xlogy_", "zero_",
)


def _input(name, args, kwargs):
    """The tensor the op writes (positional or input=) and the other arguments."""
    if args:
        x, args = args[0], args[1:]
    elif "input" in kwargs:
        kwargs = dict(kwargs)
        x = kwargs.pop("input")
    else:
        raise TypeError(f'{name}() missing 1 required positional arguments: "input"')
    if not isinstance(x, _C.TensorBase):
        raise TypeError(f"{name}(): argument 'input' (position 1) must be Tensor, not "
                        f"{type(x).__name__}")
    return x, args, kwargs


def _method_form(name):
    def fn(*args, **kwargs):
        x, args, kwargs = _input(name, args, kwargs)
        return getattr(x, name)(*args, **kwargs)
    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = f"In place: input.{name}(...), which returns input."
    return fn


for _name in _METHODS:
    globals()[_name] = _method_form(_name)
del _name


def threshold_(*args, **kwargs):
    """In place: elements of input not above threshold replaced by value."""
    x, args, kwargs = _input("threshold_", args, kwargs)
    from .nn import functional as F
    return F.threshold_(x, *args, **kwargs)


def embedding_renorm_(weight, indices, max_norm, norm_type):
    """In place: the rows of weight at indices rescaled to a norm of at most max_norm."""
    weight, _, _ = _input("embedding_renorm_", (weight,), {})
    from .nn import functional as F
    F._embedding_renorm_(weight, indices, max_norm, norm_type)
    return weight


__all__ = list(_METHODS) + ["threshold_", "embedding_renorm_"]
