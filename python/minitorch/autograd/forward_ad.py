"""minitorch.autograd.forward_ad: forward-mode automatic differentiation, as torch's.

Inside a dual level, make_dual(x, t) gives a tensor equal to x that carries the tangent t; the
ops applied to it carry the Jacobian-vector products along, and unpack_dual(y) gives y's value
and tangent:

    with forward_ad.dual_level():
        y = f(forward_ad.make_dual(x, t))
        value, jvp = forward_ad.unpack_dual(y)

One level exists at a time (torch's rule); tangents disappear when it exits.  How tangents are
computed: Note [Forward AD] in _forward.py."""
from typing import NamedTuple, Optional

from .. import _C
from . import _forward

__all__ = ["UnpackedDualTensor", "enter_dual_level", "exit_dual_level", "make_dual",
           "unpack_dual", "dual_level"]

_current_level = -1


def enter_dual_level():
    """Opens a forward AD level (the default level of make_dual/unpack_dual) and returns it."""
    global _current_level
    new_level = _forward.enter_level()
    if new_level != _current_level + 1:
        raise RuntimeError("Entering a new forward AD level but the current level is not valid. "
                           "Make sure you did not modify it directly.")
    _current_level = new_level
    return new_level


def exit_dual_level(*, level=None):
    """Closes the level (the last one opened): its tangents are removed from every tensor."""
    global _current_level
    if level is None:
        level = _current_level
    if level != _current_level:
        raise RuntimeError("Trying to exit a forward AD level that was not the last one that was "
                           "created. This is not supported.")
    _forward.exit_level(level)
    _current_level = level - 1


def make_dual(tensor, tangent, *, level=None):
    """A new tensor aliasing `tensor` (a view, differentiable in reverse mode) with `tangent`
    as its tangent, used as is when laid out as `tensor`, else copied."""
    if level is None:
        level = _current_level
    if level < 0:
        raise RuntimeError("Trying to create a dual Tensor for forward AD but no level exists, "
                           "make sure to enter_dual_level() first.")
    if not (tensor.is_floating_point() or tensor.is_complex()):
        raise ValueError(f"Expected primal to be floating point or complex, but got: "
                         f"{tensor.dtype}")
    if not (tangent.is_floating_point() or tangent.is_complex()):
        raise ValueError(f"Expected tangent to be floating point or complex, but got: "
                         f"{tangent.dtype}")
    return _forward.make_dual(tensor, tangent, level)


class UnpackedDualTensor(NamedTuple):
    """What unpack_dual returns: the primal (a view without tangent) and the tangent (None
    when the tensor has none)."""
    primal: _C.TensorBase
    tangent: Optional[_C.TensorBase]


def unpack_dual(tensor, *, level=None):
    """(primal, tangent) of `tensor`: a view of its value without tangent, and its tangent as
    is (None for a tensor without one, or when no level is open)."""
    if level is None:
        level = _current_level
    if level < 0:
        return UnpackedDualTensor(tensor, None)
    p, t = _forward.unpack(tensor, level)
    return UnpackedDualTensor(p, t)


class dual_level:
    """Context manager of a forward AD level: enter_dual_level() on entry (returning the
    level), exit_dual_level() on exit.  Also a decorator."""

    def __enter__(self):
        return enter_dual_level()

    def __exit__(self, *exc):
        exit_dual_level()
        return False

    def __call__(self, fn):
        import functools

        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            with self.__class__():
                return fn(*args, **kwargs)
        return wrapper


def _make_dual(primal, tangent, level):
    """torch._make_dual: make_dual at an explicit level, without the dtype checks."""
    return _forward.make_dual(primal, tangent, level)


def _unpack_dual(dual, level):
    """torch._unpack_dual: (a view of dual without tangent, its tangent at level or None)."""
    return UnpackedDualTensor(*_forward.unpack(dual, level))


_is_fwd_grad_enabled = _forward.is_enabled


class _set_fwd_grad_enabled:
    """Sets forward grad mode at once; as a context manager restores it on exit."""

    def __init__(self, mode):
        self.prev = _forward.set_enabled(mode)

    def __enter__(self):
        return None

    def __exit__(self, *exc):
        _forward.set_enabled(self.prev)
        return False


def _set_mode(mode):
    _forward.set_enabled(mode)


def _exit_level(*, level):
    _forward.exit_level(level)


# torch has these primitives in torch._C (the levels themselves, without _current_level)
_C._is_fwd_grad_enabled = _forward.is_enabled
_C._set_fwd_grad_enabled = _set_mode
_C._enter_dual_level = _forward.enter_level
_C._exit_dual_level = _exit_level
