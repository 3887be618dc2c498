"""Helpers shared by the distributions, as ``torch.distributions.utils``: broadcasting of
parameters, conversions between probabilities and logits, ``lazy_property``."""
import numbers

import minitorch
from minitorch import Tensor

__all__ = ["broadcast_all", "logits_to_probs", "clamp_probs", "probs_to_logits", "lazy_property",
           "tril_matrix_to_vec", "vec_to_tril_matrix"]

euler_constant = 0.57721566490153286060

# what counts as a number parameter (a distribution made only of numbers has batch_shape ())
_Number = (bool, int, float)


def broadcast_all(*values):
    """The values broadcast to one shape; numbers become tensors of the first tensor's dtype
    (the default dtype when there is none)."""
    tensor_seen = None
    for v in values:
        if isinstance(v, Tensor):
            if tensor_seen is None:
                tensor_seen = v
        elif not isinstance(v, numbers.Number):
            raise ValueError("Input arguments must all be instances of Number, torch.Tensor or "
                             "objects implementing __torch_function__.")
    if tensor_seen is None:
        dtype = minitorch.get_default_dtype()
        values = [minitorch.tensor(v, dtype=dtype) for v in values]
    elif len(values) != sum(isinstance(v, Tensor) for v in values):
        values = [v if isinstance(v, Tensor) else minitorch.tensor(v, dtype=tensor_seen.dtype)
                  for v in values]
    if len(values) == 1:
        return (values[0],)
    return minitorch.broadcast_tensors(*values)


def _standard_normal(shape, dtype, device):
    return minitorch.empty(shape, dtype=dtype, device=device).normal_()


def _sum_rightmost(value, dim):
    """value summed over its `dim` rightmost dimensions."""
    if dim == 0:
        return value
    return value.reshape(value.shape[:value.dim() - dim] + (-1,)).sum(-1)


def logits_to_probs(logits, is_binary=False):
    """Probabilities from log-odds (is_binary) or from unnormalised log probabilities over the
    last dimension."""
    if is_binary:
        return minitorch.sigmoid(logits)
    return logits.softmax(-1)


def clamp_probs(probs):
    """probs clamped into [eps, 1 - eps] of their dtype."""
    eps = minitorch.finfo(probs.dtype).eps
    return probs.clamp(min=eps, max=1 - eps)


def probs_to_logits(probs, is_binary=False):
    """Log-odds (is_binary) or log probabilities of probs (clamped first)."""
    ps_clamped = clamp_probs(probs)
    if is_binary:
        return ps_clamped.log() - (-ps_clamped).log1p()
    return ps_clamped.log()


class lazy_property:
    """A property computed (with grad mode on) on first access and then stored on the instance."""

    def __init__(self, wrapped):
        self.wrapped = wrapped
        self.__doc__ = getattr(wrapped, "__doc__", None)
        self.__name__ = getattr(wrapped, "__name__", None)

    def __get__(self, instance, obj_type=None):
        if instance is None:
            return self
        with minitorch.enable_grad():
            value = self.wrapped(instance)
        setattr(instance, self.wrapped.__name__, value)
        return value


def _tril_mask(n, diag, device):
    arange = minitorch.arange(n, device=device)
    return arange < arange.view(-1, 1) + (diag + 1)


def tril_matrix_to_vec(mat, diag=0):
    """The lower-triangular entries (below diagonal `diag`) of D x D matrices, in row order."""
    n = mat.shape[-1]
    if diag < -n or diag >= n:
        raise ValueError(f"diag ({diag}) provided is outside [{-n}, {n - 1}].")
    return mat[..., _tril_mask(n, diag, mat.device)]


def vec_to_tril_matrix(vec, diag=0):
    """The inverse of tril_matrix_to_vec: D x D lower-triangular matrices from row-order vectors."""
    k = 1 + 2 * diag
    n = (-k + (k ** 2 + 8 * vec.shape[-1] + 4 * abs(diag) * (diag + 1)) ** 0.5) / 2
    eps = minitorch.finfo(vec.dtype).eps
    if round(n) - n > eps:
        raise ValueError(f"The size of last dimension is {vec.shape[-1]} which cannot be "
                         "expressed as the lower triangular part of a square D x D matrix.")
    n = round(n)
    mat = vec.new_zeros(tuple(vec.shape[:-1]) + (n, n))
    mat[..., _tril_mask(n, diag, vec.device)] = vec
    return mat
