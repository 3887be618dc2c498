"""Tensor predicates of torch's namespace that read no values or one: is_nonzero,
is_same_size."""
from . import _C
from ._checks import _check


def is_nonzero(input):
    """Whether a one-element tensor's value is not zero (torch's errors for other sizes)."""
    _check(input, "is_nonzero")
    n = input.numel()
    if n == 0:
        raise RuntimeError("Boolean value of Tensor with no values is ambiguous")
    if n > 1:
        raise RuntimeError("Boolean value of Tensor with more than one value is ambiguous")
    return bool(input.item())


def is_same_size(input, other):
    """Whether the two tensors have the same shape."""
    _check(input, "is_same_size")
    _check(other, "is_same_size", "other")
    return input.shape == other.shape
