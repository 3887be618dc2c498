"""torch._C._WeakTensorRef: a weak reference to a tensor that says whether it is gone (the
autograd tests check with it that graphs and dual levels free what they should)."""
import weakref

from .. import _C


class _WeakTensorRef:
    def __init__(self, tensor):
        self._ref = weakref.ref(tensor)

    def expired(self):
        return self._ref() is None


if not hasattr(_C, "_WeakTensorRef"):
    _C._WeakTensorRef = _WeakTensorRef
