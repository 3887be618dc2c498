"""torch.utils._python_dispatch: dispatch modes, which see every op run while they are entered,
below autograd (Note [Python dispatch] in minitorch/_python_dispatch.py)."""
from .. import _python_dispatch as _pd

__all__ = ["TorchDispatchMode", "is_traceable_wrapper_subclass", "_get_current_dispatch_mode",
           "_push_mode", "_pop_mode", "_len_torch_dispatch_stack"]


class TorchDispatchMode:
    """Entered as a context manager, its __torch_dispatch__(func, types, args, kwargs) is given
    every op call made inside (the innermost mode first; while it runs, the mode is off, so
    the ops it runs itself reach the next mode or the tensors' own dispatch)."""

    def __init__(self, _dispatch_key=None):
        if _dispatch_key is not None:
            raise NotImplementedError("minitorch's dispatch modes take no dispatch key")

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        raise NotImplementedError()

    def __enter__(self):
        _pd.push_mode(self)
        return self

    def __exit__(self, exc_type, exc_val, exc_tb):
        _pd.pop_mode()
        return None

    @classmethod
    def push(cls, *args, **kwargs):
        return cls(*args, **kwargs)

    @classmethod
    def is_infra_mode(cls):
        return False


def _get_current_dispatch_mode():
    stack = _pd.mode_stack()
    return stack[-1] if stack else None


def _len_torch_dispatch_stack():
    return len(_pd.mode_stack())


def _push_mode(mode):
    _pd.push_mode(mode)


def _pop_mode(k=None):
    return _pd.pop_mode()


def is_traceable_wrapper_subclass(t):
    """Whether t is a tensor subclass with __tensor_flatten__/__tensor_unflatten__ (torch's
    protocol for subclasses that compilers may see through)."""
    return (_pd.is_dispatch_tensor(t) and hasattr(t, "__tensor_flatten__") and
            hasattr(type(t), "__tensor_unflatten__"))
