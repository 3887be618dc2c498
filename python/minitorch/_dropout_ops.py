"""torch.dropout, feature_dropout, alpha_dropout, feature_alpha_dropout and their in-place
forms: (input, p, train), the mask drawn per element or, for the feature forms, per channel of
an (N, C, ...) input."""
import math

from . import _C

# SELU's alpha * scale: alpha dropout keeps SELU outputs' mean and variance
_ALPHA = 1.7580993408473766


def _keep(input, p, feature):
    """1 with probability 1 - p, of input's shape or, for feature dropout, (N, C, 1, ...)."""
    if feature:
        if input.dim() < 2:
            raise RuntimeError("Feature dropout requires at least 2 dimensions in the input")
        shape = tuple(input.shape[:2]) + (1,) * (input.dim() - 2)
    else:
        shape = tuple(input.shape)
    return _C.empty(shape, dtype=input.dtype).bernoulli_(1.0 - p)


def _dropout(input, p, train, feature, alpha, inplace):
    if not isinstance(input, _C.TensorBase):
        raise TypeError(f"dropout(): argument 'input' (position 1) must be Tensor, not "
                        f"{type(input).__name__}")
    p = float(p)
    if not 0 <= p <= 1:
        raise RuntimeError(f"dropout probability has to be between 0 and 1, but got {p:g}")
    if p == 0 or not train or input.numel() == 0:
        return input
    if feature and input.dim() < 2:
        raise RuntimeError("Feature dropout requires at least 2 dimensions in the input")
    if p == 1:
        zero = _C.zeros((), dtype=input.dtype)
        return input.mul_(zero) if inplace else input * zero
    keep = _keep(input, p, feature)
    if not alpha:
        keep = keep.div_(1.0 - p)
        return input.mul_(keep) if inplace else input * keep
    a = 1.0 / math.sqrt((_ALPHA * _ALPHA * p + 1) * (1 - p))
    b = (keep - 1).mul_(_ALPHA * a).add_(_ALPHA * a * p)
    keep = keep.mul_(a)
    return input.mul_(keep).add_(b) if inplace else input * keep + b


def dropout(input, p, train):
    """Zeroes each element with probability p and scales the rest by 1 / (1 - p) when train."""
    return _dropout(input, p, train, False, False, False)


def dropout_(input, p, train):
    return _dropout(input, p, train, False, False, True)


def feature_dropout(input, p, train):
    """dropout of whole channels (dimension 1) of an (N, C, ...) input."""
    return _dropout(input, p, train, True, False, False)


def feature_dropout_(input, p, train):
    return _dropout(input, p, train, True, False, True)


def alpha_dropout(input, p, train):
    """Dropout that keeps the mean and variance of SELU activations: dropped elements take
    SELU's negative saturation value, then all are scaled and shifted back."""
    return _dropout(input, p, train, False, True, False)


def alpha_dropout_(input, p, train):
    return _dropout(input, p, train, False, True, True)


def feature_alpha_dropout(input, p, train):
    return _dropout(input, p, train, True, True, False)


def feature_alpha_dropout_(input, p, train):
    return _dropout(input, p, train, True, True, True)
