"""minitorch.autograd: reverse-mode automatic differentiation.

Ops on tensors that require grad are recorded as a graph of nodes (one per op, its derivative
formula from the op table; see _record.py); backward() and grad() run that graph backwards in
the C engine (csrc/autograd/engine.c)."""
import itertools
import threading
import warnings

from .. import _C
from .grad_mode import (no_grad, enable_grad, set_grad_enabled, inference_mode,  # noqa: F401
                        is_grad_enabled, is_inference_mode_enabled, is_view_replay_enabled,
                        _force_original_view_tracking)
from . import _record  # noqa: F401  (installs the recorder)
from . import graph  # noqa: F401
from .function import Function, FunctionCtx, once_differentiable  # noqa: F401
from .gradcheck import gradcheck, gradgradcheck, GradcheckError  # noqa: F401
from . import anomaly_mode  # noqa: F401
from .anomaly_mode import detect_anomaly, set_detect_anomaly  # noqa: F401

__all__ = ["backward", "grad", "Function", "FunctionCtx", "no_grad", "enable_grad",
           "set_grad_enabled", "inference_mode", "gradcheck", "gradgradcheck", "Variable",
           "graph", "once_differentiable", "detect_anomaly", "set_detect_anomaly", "functional",
           "forward_ad"]


def _as_tuple(x):
    if x is None:
        return ()
    if isinstance(x, _C.TensorBase):
        return (x,)
    return tuple(x)


def _make_grads(outputs, grads, is_grads_batched=False):
    out = []
    for i, (o, g) in enumerate(zip(outputs, grads)):
        if g is None:
            if o.requires_grad:
                if o.numel() != 1:
                    raise RuntimeError("grad can be implicitly created only for scalar outputs")
                if not o.dtype.is_floating_point:
                    raise RuntimeError("grad can be implicitly created only for real scalar "
                                       f"outputs but got {o.dtype}")
                g = _C.ones(o.shape, dtype=o.dtype)
            out.append(g)
            continue
        if not isinstance(g, _C.TensorBase):
            g = _C.full(o.shape, g, dtype=o.dtype)
        if g.shape != o.shape:
            raise RuntimeError(f"Mismatch in shape: grad_output[{i}] has a shape of "
                               f"{g.shape} and output[{i}] has a shape of {o.shape}.")
        if g.dtype.is_complex != o.dtype.is_complex:
            raise RuntimeError("For complex Tensors, both grad_output and output are required "
                               "to have the same dtype. Mismatch in dtype: grad_output"
                               f"[{i}] has a dtype of {g.dtype} and output[{i}] has a dtype "
                               f"of {o.dtype}.")
        out.append(g)
    return out


def backward(tensors, grad_tensors=None, retain_graph=None, create_graph=False,
             grad_variables=None, inputs=None):
    """Accumulates the gradients of `tensors` (with respect to the leaves of their graph, or
    to `inputs`) into .grad."""
    tensors = _as_tuple(tensors)
    if grad_tensors is None:
        grad_tensors = grad_variables
    grads = _as_tuple(grad_tensors) if grad_tensors is not None else (None,) * len(tensors)
    if len(grads) != len(tensors):
        raise RuntimeError(f"got {len(grads)} tensors and {len(tensors)} gradients")
    if retain_graph is None:
        retain_graph = create_graph
    inputs = _as_tuple(inputs) if inputs is not None else None
    if inputs is not None and len(inputs) == 0:
        raise RuntimeError("'inputs' argument to backward() cannot be empty.")
    grads = _make_grads(tensors, grads)
    got = _run(tensors, grads, bool(retain_graph), bool(create_graph),
               inputs if inputs is not None else None, True)
    for t, g in zip(inputs or (), got or ()):
        # leaves accumulated in the engine; the gradients of other inputs go to their .grad
        if g is not None and not t.is_leaf:
            g = g if create_graph else g.detach()
            with warnings.catch_warnings():  # (reading the .grad of a non-leaf warns)
                warnings.simplefilter("ignore")
                old = t.grad
            t.grad = g if old is None else old + g


def grad(outputs, inputs, grad_outputs=None, retain_graph=None, create_graph=False,
         only_inputs=True, allow_unused=None, is_grads_batched=False, materialize_grads=False):
    """The gradients of `outputs` with respect to `inputs` (a tuple), without touching .grad."""
    outputs = _as_tuple(outputs)
    inputs = _as_tuple(inputs)
    if allow_unused is None:
        allow_unused = materialize_grads
    if not allow_unused and materialize_grads:
        raise ValueError("Expected allow_unused to be True or not passed when materialize_grads"
                         "=True, but got: allow_unused=False.")
    grads = _as_tuple(grad_outputs) if grad_outputs is not None else (None,) * len(outputs)
    if len(grads) != len(outputs):
        raise RuntimeError(f"grad_outputs has {len(grads)} items but outputs has {len(outputs)}")
    if retain_graph is None:
        retain_graph = create_graph
    for t in inputs:
        if not t.requires_grad:
            raise RuntimeError("One of the differentiated Tensors does not require grad")
    if is_grads_batched:
        r = _grad_batched(outputs, inputs, grads, retain_graph, create_graph)
    else:
        grads = _make_grads(outputs, grads)
        r = _run(outputs, grads, bool(retain_graph), bool(create_graph), inputs, False)
    for i, g in enumerate(r):
        if g is None:
            if materialize_grads:
                r[i] = _C.zeros(inputs[i].shape, dtype=inputs[i].dtype).requires_grad_()
            elif not allow_unused:
                raise RuntimeError("One of the differentiated Tensors appears to not have been "
                                   "used in the graph. Set allow_unused=True if this is the "
                                   "desired behavior.")
    return tuple(r)


def _grad_batched(outputs, inputs, grads, retain_graph, create_graph):
    """autograd.grad(is_grads_batched=True): the first dimension of each grad_output is a batch
    of vectors; the results are the gradients for each, stacked (one backward pass per vector,
    the graph kept until the last)."""
    from .._joining import stack
    n = None
    for i, (o, g) in enumerate(zip(outputs, grads)):
        if not isinstance(g, _C.TensorBase):
            if g is None and o.requires_grad:
                raise RuntimeError("grad can be implicitly created only for scalar outputs")
            continue
        if g.dim() == 0 or tuple(g.shape[1:]) != tuple(o.shape):
            raise RuntimeError(
                "If `is_grads_batched=True`, we interpret the first dimension of each "
                "grad_output as the batch dimension. The sizes of the remaining dimensions are "
                "expected to match the shape of corresponding output, but a mismatch was "
                f"detected: grad_output[{i}] has a shape of {g.shape[1:]} and output[{i}] has a "
                f"shape of {o.shape}. If you only want some tensors in `grad_output` to be "
                "considered batched, consider using vmap.")
        if n is None:
            n = g.shape[0]
    n = 0 if n is None else n
    per = []
    for b in range(n):
        gb = [g[b] if isinstance(g, _C.TensorBase) else g for g in grads]
        gb = _make_grads(outputs, gb)
        keep = bool(retain_graph) or b < n - 1
        per.append(_run(outputs, gb, keep, bool(create_graph), inputs, False))
    out = []
    for i, x in enumerate(inputs):
        col = [p[i] for p in per]
        if n == 0 or all(c is None for c in col):
            out.append(None if n else _C.zeros((0,) + tuple(x.shape), dtype=x.dtype))
            continue
        col = [c if c is not None else _C.zeros(x.shape, dtype=x.dtype) for c in col]
        out.append(stack(col, 0))
    return out


# Every backward pass runs through _run, which keeps a per-thread stack of the passes running:
# a pass's id (checkpoint recomputes once per pass) and whether it targets given inputs (a
# reentrant checkpoint cannot run then).
_passes = threading.local()
_pass_ids = itertools.count(1)


def _run(tensors, grads, keep_graph, create_graph, inputs, accumulate):
    stack = getattr(_passes, "stack", None)
    if stack is None:
        stack = _passes.stack = []
    stack.append((next(_pass_ids), inputs is not None))
    try:
        return _C._run_backward(tensors, grads, keep_graph, create_graph, inputs, accumulate)
    finally:
        stack.pop()


def _current_graph_task_id():
    """The id of the backward pass running on this thread (innermost), or -1."""
    stack = getattr(_passes, "stack", None)
    return stack[-1][0] if stack else -1


def _is_checkpoint_valid():
    """False while the innermost backward pass targets given inputs (autograd.grad, or
    backward(inputs=)), where a reentrant checkpoint cannot run its own backward."""
    stack = getattr(_passes, "stack", None)
    return not (stack and stack[-1][1])


def Variable(data, requires_grad=False):
    """The pre-0.4 Variable wrapper: a new leaf sharing data's storage (as torch's)."""
    return data.detach().requires_grad_(requires_grad)


from . import functional  # noqa: E402,F401  (uses grad above)
from . import forward_ad  # noqa: E402,F401
from . import _weak_tensor_ref  # noqa: E402,F401
