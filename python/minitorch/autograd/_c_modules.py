"""torch._C's autograd namespaces as minitorch has them: _C._autograd (saved tensors, version
counters, the running backward pass) and _C._functions (the engine's special nodes), attached to
minitorch._C at import, where torch's own code and tests reach for them."""
import types

from .. import _C
from . import _saved_tensors, _saved_variables, graph


def _saved_tensors_hooks_is_enabled():
    """Whether saved-tensor hooks may be pushed on this thread (disable_saved_tensors_hooks)."""
    return _saved_tensors.disabled_message() is None


def _unsafe_set_version_counter(tensors, versions):
    """Sets each tensor's version counter to the given version (torch's escape hatch for code
    that writes through a tensor without meaning a new version)."""
    tensors, versions = tuple(tensors), tuple(versions)
    if len(tensors) != len(versions):
        raise RuntimeError(f"Expected {len(tensors)} versions but got {len(versions)}")
    for t, v in zip(tensors, versions):
        _C._set_version(t, v)


def _get_current_graph_task_keep_graph():
    """Whether the backward pass running on this thread keeps its graph (retain_graph)."""
    return _C._current_graph_task_keep_graph()


_autograd = types.ModuleType("minitorch._C._autograd", "torch._C._autograd as minitorch has it.")
_autograd.SavedTensor = _saved_variables.SavedTensor
_autograd._make_saved_tensor = _saved_variables.make_saved_tensor
_autograd._saved_tensors_hooks_is_enabled = _saved_tensors_hooks_is_enabled
_autograd._unsafe_set_version_counter = _unsafe_set_version_counter
_autograd._get_current_graph_task_keep_graph = _get_current_graph_task_keep_graph
_C._autograd = _autograd


# ---- _C._functions: the engine's own node types ------------------------------------------------

class DelayedError(graph._NodeBase):
    """DelayedError(msg, num_inputs)(*tensors): the tensors again (sharing their data), whose
    history is an Error node: differentiating through them raises RuntimeError(msg)."""

    def __new__(cls, msg, num_inputs):
        self = super().__new__(cls, None, None, (), int(num_inputs))
        self._msg = msg
        return self

    def __init__(self, msg, num_inputs):
        pass

    def __call__(self, *tensors):
        msg = self._msg

        def error(node, grads):
            raise RuntimeError(msg)
        return _wrap(graph.node_class("Error"), error, tensors)


class UndefinedGrad(graph._NodeBase):
    """UndefinedGrad()(*tensors): the tensors again, whose history gives their inputs no
    gradient (an undefined one, as torch's UndefinedGradBackward)."""

    def __new__(cls):
        return super().__new__(cls, None, None, (), 1)

    def __init__(self):
        pass

    def __call__(self, *tensors):
        return _wrap(graph.node_class("UndefinedGradBackward"),
                     lambda node, grads: [None] * len(tensors), tensors)


def _wrap(cls, fn, tensors):
    """The tensors again (None and non-tensors as they are), those that require grad with the
    history `node`, whose edges go to them."""
    def grad_input(t):
        return isinstance(t, _C.TensorBase) and t.requires_grad

    node = cls(fn, None, [t if grad_input(t) else None for t in tensors], len(tensors))
    outs = []
    for k, t in enumerate(tensors):
        o = t.detach() if isinstance(t, _C.TensorBase) else t
        if grad_input(t):
            _C._set_history(o, node, k)
        outs.append(o)
    return outs[0] if len(outs) == 1 else tuple(outs)


_functions = types.ModuleType("minitorch._C._functions",
                              "torch._C._functions as minitorch has it: the engine's nodes.")
_functions.AccumulateGrad = graph.AccumulateGrad
_functions.DelayedError = DelayedError
_functions.UndefinedGrad = UndefinedGrad
_C._functions = _functions


# ---- other _C entry points of autograd ---------------------------------------------------------

class _WeakTensorRef:
    """A weak reference to a tensor: expired() once the tensor is gone."""
    __slots__ = ("_ref",)

    def __init__(self, tensor):
        import weakref
        self._ref = weakref.ref(tensor)

    def expired(self):
        return self._ref() is None


def _current_graph_task_id():
    from . import _current_graph_task_id as current
    return current()


def _is_multithreading_enabled():
    from .grad_mode import _is_multithreading_enabled as enabled
    return enabled()


_C._WeakTensorRef = _WeakTensorRef
_C._current_graph_task_id = _current_graph_task_id
_C._is_multithreading_enabled = _is_multithreading_enabled
