"""Private helpers torch code reaches as torch._utils."""
import sys
import traceback


def _element_size(dtype):
    """The size in bytes of one element of dtype (torch._utils._element_size)."""
    from . import _C
    if not isinstance(dtype, _C.dtype):
        raise RuntimeError(f"expected a dtype, but got {type(dtype).__name__}")
    return dtype.itemsize


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
