"""Grad mode for nn's own bookkeeping (initialisation, running statistics, load_state_dict).

A stand-in until minitorch.no_grad exists: it switches this thread's grad mode off for the
block and restores the previous mode afterwards."""
from .. import _C


class no_grad:
    __slots__ = ("prev",)

    def __enter__(self):
        self.prev = _C.is_grad_enabled()
        _C._set_grad_enabled(False)
        return self

    def __exit__(self, *exc):
        _C._set_grad_enabled(self.prev)
        return False
