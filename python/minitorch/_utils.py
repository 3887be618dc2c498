"""Private helpers torch code reaches as torch._utils."""
import sys
import traceback


def _element_size(dtype):
    """The size in bytes of one element of dtype (torch._utils._element_size)."""
    from . import _C
    if not isinstance(dtype, _C.dtype):
        raise RuntimeError(f"expected a dtype, but got {type(dtype).__name__}")
    return dtype.itemsize


def _get_obj_state(obj):
    """The Python state of a tensor object (torch._utils._get_obj_state): what its
    __getstate__ gives, the instance dict (None when empty) and any slots."""
    return obj.__getstate__()


def _set_obj_state(obj, state):
    """Sets state (a dict, or a (dict, slots dict) pair, or None) on obj as attributes
    (torch._utils._set_obj_state); returns obj."""
    if isinstance(state, tuple):
        if len(state) != 2:
            raise RuntimeError(f"Invalid serialized state: {state}")
        dict_state, slots_state = state
    else:
        dict_state, slots_state = state, None
    for part in (dict_state, slots_state):
        if part:
            for k, v in part.items():
                setattr(obj, k, v)
    return obj


class ExceptionWrapper:
    """An exception raised in another thread or process (a DataLoader worker), pickled to the
    main process and raised there again as the same type, its message holding the original
    traceback (torch._utils.ExceptionWrapper)."""

    def __init__(self, exc_info=None, where="in background"):
        exc_type, exc, tb = exc_info if exc_info is not None else sys.exc_info()
        self.exc_type = exc_type
        self.exc_msg = "".join(traceback.format_exception(exc_type, exc, tb))
        self.where = where

    def reraise(self):
        msg = f"Caught {self.exc_type.__name__} {self.where}.\nOriginal {self.exc_msg}"
        if self.exc_type is KeyError:
            msg = _KeyErrorMessage(msg)         # KeyError would print the message's repr
        try:
            exc = self.exc_type(msg)
        except Exception:                       # noqa: BLE001 - a type that takes no message
            raise RuntimeError(msg) from None
        raise exc


class _KeyErrorMessage(str):
    def __repr__(self):
        return self
