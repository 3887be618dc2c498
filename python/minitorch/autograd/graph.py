"""The autograd graph as Python sees it: Node (grad_fn objects), AccumulateGrad, hook handles."""
from .. import _C

__all__ = ["Node", "AccumulateGrad", "RemovableHandle"]


class RemovableHandle:
    """Returned by register_hook and friends: remove() takes the hook out again."""

    def __init__(self, hooks, entry):
        self._hooks = hooks
        self._entry = entry

    def remove(self):
        try:
            self._hooks.remove(self._entry)
        except ValueError:
            pass

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.remove()


class Node(_C._Node):
    """A recorded op (a tensor's grad_fn).  Per op name there is one subclass, named like
    torch's (AddBackward0, MulBackward0, ...)."""

    def name(self):
        return type(self).__name__

    def register_hook(self, fn):
        """fn(grad_inputs, grad_outputs) runs after the node computed its gradients."""
        hooks = self._hooks
        hooks.append(fn)
        return RemovableHandle(hooks, fn)

    def register_prehook(self, fn):
        """fn(grad_outputs) -> new grad_outputs or None, before the node runs."""
        hooks = self._pre_hooks
        entry = (0, _AllOutputs(fn, self))
        hooks.append(entry)
        return RemovableHandle(hooks, entry)

    def _register_tensor_hook(self, output_nr, fn):
        hooks = self._pre_hooks
        entry = (output_nr, fn)
        hooks.append(entry)
        return RemovableHandle(hooks, entry)

    def __repr__(self):
        return f"<{type(self).__name__} object at {hex(id(self))}>"


class _AllOutputs:
    """A node pre-hook over all of its gradients, run through the per-gradient hook slot of
    output 0 (the engine hands each hook one gradient)."""

    def __init__(self, fn, node):
        self.fn = fn

    def __call__(self, grad):
        r = self.fn((grad,))
        return None if r is None else r[0]


class AccumulateGrad(Node):
    """Adds the gradient that reaches a leaf into its .grad."""


_C._set_accumulate_grad_class(AccumulateGrad)

_node_classes = {}


def node_class(name):
    """The Node subclass for op `name` (made once)."""
    cls = _node_classes.get(name)
    if cls is None:
        cls = _node_classes[name] = type(name, (Node,), {"__module__": "minitorch.autograd.graph"})
    return cls
