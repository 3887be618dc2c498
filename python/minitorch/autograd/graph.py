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
        """fn(grad_outputs) -> new grad_outputs or None, before the node runs (a plain entry
        of the pre-hook list: the engine calls it with all the node's gradients)."""
        hooks = self._pre_hooks
        hooks.append(fn)
        return RemovableHandle(hooks, fn)

    def _register_tensor_hook(self, output_nr, fn):
        """A hook of the tensor that is output output_nr: it runs before the retain_grad
        hooks and the node's own pre-hooks (Note [Hook order])."""
        hooks = self._pre_hooks
        entry = (output_nr, fn)
        hooks.insert(_first(hooks, retain=True), entry)
        return RemovableHandle(hooks, entry)

    def _register_retain_grad(self, output_nr, tensor):
        """tensor.retain_grad(): after the tensor's hooks, before the node's pre-hooks."""
        hooks = self._pre_hooks
        hooks.insert(_first(hooks, retain=False), (output_nr, _RetainGrad(tensor)))

    def _take_retain_grad(self, tensor):
        """Removes tensor's retain_grad hook (it moves to the tensor's new history after an
        in-place op); whether there was one."""
        hooks = self._pre_hooks
        for i, entry in enumerate(hooks):
            if type(entry) is tuple and isinstance(entry[1], _RetainGrad) and \
                    entry[1].ref() is tensor:
                del hooks[i]
                return True
        return False

    def __repr__(self):
        return f"<{type(self).__name__} object at {hex(id(self))}>"


# Note [Hook order]
# The gradient of a non-leaf goes through, in this order: the hooks registered on the tensor
# (register_hook, in registration order), its retain_grad hook (so .grad sees what the hooks
# made of it, whenever retain_grad was called), then the pre-hooks of its grad_fn
# (register_prehook).  A leaf's hooks likewise run before its AccumulateGrad's pre-hooks.  An
# in-place op moves the retain_grad hook to the tensor's new grad_fn, so .grad is the
# gradient of the tensor as it is at the end, as torch's.

def _first(hooks, retain):
    """The index of the first node pre-hook (a plain entry) or, with `retain`, retain_grad
    hook in a node's pre-hook list (the end when none)."""
    for i, entry in enumerate(hooks):
        if type(entry) is not tuple or (retain and isinstance(entry[1], _RetainGrad)):
            return i
    return len(hooks)


class _RetainGrad:
    """The hook retain_grad() registers: the gradient, detached, into the tensor's .grad."""

    def __init__(self, tensor):
        import weakref
        self.ref = weakref.ref(tensor)

    def __call__(self, grad):
        t = self.ref()
        if t is not None:
            t.grad = grad.detach().clone() if t.grad is None else t.grad + grad


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
