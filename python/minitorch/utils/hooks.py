"""``minitorch.utils.hooks``: the handle the ``register_*_hook`` methods of modules and
optimizers return, and the mark of a hook that is not pickled, as ``torch.utils.hooks``."""
import itertools
import weakref
from collections import OrderedDict

__all__ = ["RemovableHandle", "unserializable_hook"]


class RemovableHandle:
    """Returned by the register_*_hook methods: ``remove()`` unregisters the hook (also as a
    context manager, on exit)."""

    _next_id = itertools.count()

    def __init__(self, hooks_dict, *, extra_dict=None):
        self.id = next(RemovableHandle._next_id)
        self.hooks_dict_ref = weakref.ref(hooks_dict)
        if extra_dict is None:
            extra_dict = ()
        elif isinstance(extra_dict, dict):
            extra_dict = (extra_dict,)
        self.extra_dict_ref = tuple(weakref.ref(d) for d in extra_dict)

    def remove(self):
        hooks = self.hooks_dict_ref()
        if hooks is not None:
            hooks.pop(self.id, None)
        for ref in self.extra_dict_ref:
            d = ref()
            if d is not None:
                d.pop(self.id, None)

    def __getstate__(self):
        return (self.hooks_dict_ref(), self.id, tuple(r() for r in self.extra_dict_ref))

    def __setstate__(self, state):
        hooks, self.id, extras = state
        self.hooks_dict_ref = weakref.ref(OrderedDict() if hooks is None else hooks)
        self.extra_dict_ref = tuple(weakref.ref(d) for d in extras if d is not None)
        RemovableHandle._next_id = itertools.count(max(self.id + 1, next(RemovableHandle._next_id)))

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.remove()


def unserializable_hook(f):
    """Marks hook `f` as not to be pickled with the tensor it is registered on (pickling such a
    tensor then says nothing about it).  Returns `f`."""
    f.__torch_unserializable__ = True
    return f
