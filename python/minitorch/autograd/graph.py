"""The autograd graph as Python sees it: Node (grad_fn objects), AccumulateGrad, hook handles,
and the hooks of saved tensors (saved_tensors_hooks, save_on_cpu, disable_saved_tensors_hooks)."""
import abc
import contextlib
from typing import NamedTuple, Optional

from .. import _C
from . import _saved_tensors

__all__ = ["Node", "AccumulateGrad", "RemovableHandle", "saved_tensors_hooks", "save_on_cpu",
           "disable_saved_tensors_hooks", "GradientEdge", "get_gradient_edge",
           "increment_version", "register_multi_grad_hook"]


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


class Node(abc.ABC):
    """A node of the autograd graph (a tensor's grad_fn, a leaf's AccumulateGrad).  As torch's,
    an abstract class that the graph's node types are virtual subclasses of: isinstance(node,
    Node) holds, Node is not in their mro (they derive from _NodeBase)."""

    @classmethod
    def __subclasshook__(cls, C):
        if cls is Node:
            from .function import FunctionCtx  # (a custom Function's ctx is its node, as torch)
            if issubclass(C, (_C._Node, FunctionCtx)):
                return True
        return NotImplemented


class _NodeBase(_C._Node):
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

    def __call__(self, *grads, **kwargs):
        """node(*grad_outputs): the gradients of the op's inputs, one per entry of
        next_functions (a tensor for a node of one input, else a tuple; None where no gradient
        flows), computed by the node's formula in the current grad mode, without hooks and
        without freeing what the node saved.  An AccumulateGrad node adds its gradient to the
        leaf's .grad and returns ()."""
        if kwargs:
            raise TypeError("keyword arguments are not supported")
        if len(grads) != self._n_inputs:
            raise TypeError(f"expected {self._n_inputs} arguments, got {len(grads)} instead")
        for i, g in enumerate(grads):
            if g is not None and not isinstance(g, _C.TensorBase):
                raise TypeError(f"argument {i} is not a Variable")
        fn = self._fn
        if fn is None:                   # AccumulateGrad
            g = grads[0] if grads else None
            if g is not None:
                v = self.variable
                v.grad = g.detach() if v.grad is None else v.grad + g.detach()
            return ()
        if _is_function_node(self):
            raise TypeError(f"'{type(self).__name__}' object is not callable")
        if self._released:
            raise RuntimeError(_SECOND_TIME)
        n = len(self.next_functions)
        if all(g is None for g in grads):
            out = [None] * n
        else:
            out = list(fn(self, grads))
        return out[0] if n == 1 else tuple(out)

    def __repr__(self):
        return f"<{type(self).__name__} object at {hex(id(self))}>"

    def __getattr__(self, name):
        # what the node saved, as torch names it (Note [Saved variables] in _saved_variables.py)
        from . import _saved_variables
        if name in ("saved_tensors", "_raw_saved_tensors", "saved_variables") and \
                _is_function_node(self):
            return _saved_variables.function_saved(self, name == "_raw_saved_tensors")
        if name.startswith(("_saved_", "_raw_saved_")):
            return _saved_variables.saved_attr(self, name)
        raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")


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
        if t is not None and grad is not None:     # (None: no gradient reached the tensor)
            t.grad = grad.detach().clone() if t.grad is None else t.grad + grad


_SECOND_TIME = (
    "Trying to backward through the graph a second time (or directly access saved tensors after "
    "they have already been freed). Saved intermediate values of the graph are freed when you "
    "call .backward() or autograd.grad(). Specify retain_graph=True if you need to backward "
    "through the graph a second time or if you need to access saved tensors after calling "
    "backward.")


def _is_function_node(node):
    """Whether node is the backward of a user autograd.Function (torch's are not callable)."""
    from .function import FunctionCtx
    return getattr(type(node), "_function_node", False) or isinstance(node._ctx, FunctionCtx)


class AccumulateGrad(_NodeBase):
    """Adds the gradient that reaches a leaf into its .grad."""


_C._set_accumulate_grad_class(AccumulateGrad)

_node_classes = {}


def node_class(name):
    """The Node subclass for op `name` (made once)."""
    cls = _node_classes.get(name)
    if cls is None:
        cls = _node_classes[name] = type(name, (_NodeBase,),
                                         {"__module__": "minitorch.autograd.graph"})
    return cls


# ---- node hooks: functions called with each node made (Note [Anomaly mode and node hooks] in
# csrc/autograd/autograd.h); anomaly mode and checkpoint's debug log use them -----------------

_node_hooks = []


def _dispatch_node(node):
    for hook in tuple(_node_hooks):
        hook(node)


def _add_node_hook(fn):
    _node_hooks.append(fn)
    _C._set_node_hook(_dispatch_node)


def _remove_node_hook(fn):
    try:
        _node_hooks.remove(fn)
    except ValueError:
        pass
    if not _node_hooks:
        _C._set_node_hook(None)


@contextlib.contextmanager
def _node_hook(fn):
    """Within the block, fn(node) is called with each node made."""
    _add_node_hook(fn)
    try:
        yield
    finally:
        _remove_node_hook(fn)


# ---- saved-tensor hooks (Note [Saved-tensor hooks] in _saved_tensors.py) ----------------------

class saved_tensors_hooks:
    """saved_tensors_hooks(pack_hook, unpack_hook): within the block, each tensor an op saves
    for its backward is stored as pack_hook(tensor) (called when the op runs, with grad mode
    off) and given back to the backward as unpack_hook(packed).  Nested blocks: the innermost
    pair applies.  Per thread."""

    def __init__(self, pack_hook, unpack_hook):
        self.pack_hook = pack_hook
        self.unpack_hook = unpack_hook

    def __enter__(self):
        _saved_tensors.push(self.pack_hook, self.unpack_hook)

    def __exit__(self, *exc):
        _saved_tensors.pop()


class save_on_cpu(saved_tensors_hooks):
    """save_on_cpu(pin_memory=False, device_type='cuda'): saved tensors are kept as CPU copies
    and moved back to their device for the backward pass (tensors on the CPU are kept as they
    are)."""

    def __init__(self, pin_memory=False, device_type="cuda"):
        def pack_to_cpu(tensor):
            if not pin_memory:
                return tensor.device, tensor.cpu()
            packed = _C.empty(tuple(tensor.shape), dtype=tensor.dtype)
            packed.copy_(tensor)
            return tensor.device, packed

        def unpack_from_cpu(packed):
            device, tensor = packed
            return tensor.to(device)

        super().__init__(pack_to_cpu, unpack_from_cpu)


@contextlib.contextmanager
def disable_saved_tensors_hooks(error_message):
    """Within the block, pushing saved-tensor hooks raises RuntimeError(error_message) (so does
    entering the block while hooks are pushed)."""
    prev = _saved_tensors.disabled_message()
    try:
        _saved_tensors.disable(error_message)
        yield
    finally:
        if prev is None:
            _saved_tensors.enable()
        else:
            _saved_tensors.disable(prev)


# ---- gradient edges, grouped hooks, version counters (torch.autograd.graph's helpers) ---------

class GradientEdge(NamedTuple):
    """Where a gradient enters the graph: output output_nr of node.  autograd.grad and
    backward take them as outputs and as inputs, as they take tensors (the engine reads the
    pair); ownership_token keeps what the edge needs alive."""
    node: Node
    output_nr: int
    ownership_token: Optional[object] = None


def get_gradient_edge(tensor):
    """The GradientEdge of a tensor's gradient: its grad_fn's output, or a leaf's
    AccumulateGrad."""
    if not tensor.requires_grad:
        raise RuntimeError("It is not possible to get the gradient edge for a Tensor that does "
                           "not require gradients")
    grad_fn = tensor.grad_fn
    if grad_fn is None:
        return GradientEdge(_C._grad_accumulator(tensor), 0)
    return GradientEdge(grad_fn, tensor.output_nr, tensor if _is_function_node(grad_fn) else None)


class _InputMetadata:
    """The shape, dtype and device of one of a node's inputs (its op's outputs)."""
    __slots__ = ("shape", "dtype", "device")
    is_nested_tensor = False
    is_cpp_nested_tensor = False

    def __init__(self, shape, dtype):
        from .._size import Size
        self.shape, self.dtype, self.device = Size(shape), dtype, _C.device("cpu")

    def __repr__(self):
        return f"_InputMetadata(shape={list(self.shape)}, dtype={self.dtype})"


def _edge_metas(node):
    """(shape, dtype) or None per input of node (its op's outputs), from what the node keeps."""
    variable = getattr(node, "variable", None) if node._fn is None else None
    if variable is not None:
        return [(variable.shape, variable.dtype)]
    if node._cformula is not None:
        return list(_C._dnode_out_meta(node))
    ctx = node._ctx
    metas = getattr(ctx, "_out_meta", None) if ctx is not None else None
    if metas is None and ctx is not None:
        metas = getattr(ctx, "shapes", None)
    if metas is None:
        return [None] * node._n_inputs
    return list(metas)


def _input_metadata(node):
    return [_InputMetadata(*m) if m is not None else None for m in _edge_metas(node)]


_NodeBase._input_metadata = property(_input_metadata)


def increment_version(tensor):
    """Bumps the version counter of tensor (or of each tensor of an iterable), as an in-place
    write would; inference tensors, which have none, are left as they are."""
    if isinstance(tensor, _C.TensorBase):
        tensor = (tensor,)
    for t in tensor:
        _C._bump_version(t)


class _MultiHandle(RemovableHandle):
    """The handle of register_multi_grad_hook: remove() takes out every tensor hook."""

    def __init__(self, handles):
        self._handles = tuple(handles)

    def remove(self):
        for h in self._handles:
            h.remove()


def register_multi_grad_hook(tensors, fn, *, mode="all"):
    """fn runs once per backward pass over tensors' gradients: mode "all", after the gradients
    of all those tensors the pass computes (fn(grads), None for the others); mode "any", at the
    first of them (fn(grad))."""
    if mode not in ("all", "any"):
        raise ValueError(f"Expects mode to be one of ('all', 'any') but got {mode}")
    import threading
    from . import _current_graph_task_id
    lock = threading.Lock()
    tensors = tuple(tensors)
    if mode == "any":
        seen = set()

        def wrapped(grad):
            task = _current_graph_task_id()
            with lock:
                if task in seen:
                    return None
                seen.add(task)
            return fn(grad)
        return _MultiHandle(t.register_hook(wrapped) for t in tensors if t.requires_grad)

    nodes = [(t.grad_fn or _C._grad_accumulator(t)) if t.requires_grad else None
             for t in tensors]
    state = {}                           # pass id -> [count expected, count seen, grads]

    def inner(i):
        def hook(grad):
            task = _current_graph_task_id()
            with lock:
                entry = state.get(task)
                if entry is None:
                    expected = sum(1 for n in nodes
                                   if n is not None and _C._will_engine_execute_node(n))
                    entry = state[task] = [expected, 0, [None] * len(tensors)]
                entry[1] += 1
                entry[2][i] = grad
                done = entry[1] == entry[0]
                if done:
                    del state[task]
            if done:
                fn(entry[2])
            return None
        return hook
    return _MultiHandle(t.register_hook(inner(i)) for i, t in enumerate(tensors)
                        if t.requires_grad)
