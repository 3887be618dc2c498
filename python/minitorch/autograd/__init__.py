"""minitorch.autograd: reverse-mode automatic differentiation.

Ops on tensors that require grad are recorded as a graph of nodes (one per op, its derivative
formula from the op table; see _record.py); backward() and grad() run that graph backwards in
the C engine (csrc/autograd/engine.c)."""
import itertools
import threading
import warnings

from .. import _C, _python_dispatch
from .grad_mode import (no_grad, enable_grad, set_grad_enabled, inference_mode,  # noqa: F401
                        is_grad_enabled, is_inference_mode_enabled, is_view_replay_enabled,
                        _force_original_view_tracking, set_multithreading_enabled)
from . import _record  # noqa: F401  (installs the recorder)
from . import _saved_tensors
from . import graph  # noqa: F401
from .function import Function, FunctionCtx, once_differentiable  # noqa: F401
from .gradcheck import gradcheck, gradgradcheck, GradcheckError  # noqa: F401
from . import anomaly_mode  # noqa: F401
from .anomaly_mode import detect_anomaly, set_detect_anomaly  # noqa: F401
from ._saved_variables import SavedTensor  # noqa: F401
from . import _c_modules  # noqa: F401  (_C._autograd, _C._functions)

__all__ = ["backward", "grad", "Function", "FunctionCtx", "no_grad", "enable_grad",
           "set_grad_enabled", "inference_mode", "gradcheck", "gradgradcheck", "Variable",
           "graph", "once_differentiable", "detect_anomaly", "set_detect_anomaly", "functional",
           "forward_ad"]


def _as_tuple(x):
    if x is None:
        return ()
    if isinstance(x, (_C.TensorBase, graph.GradientEdge)):
        return (x,)
    return tuple(x)


class _EdgeOutput:
    """The shape and dtype of a GradientEdge taken as an output (its node's input metadata)."""
    __slots__ = ("shape", "dtype")
    requires_grad = True

    def __init__(self, edge):
        meta = graph._edge_metas(edge.node)[edge.output_nr]
        if meta is None:
            raise RuntimeError("the node of this GradientEdge no longer knows the shape of its "
                               "output (its graph was freed)")
        self.shape, self.dtype = _size(meta[0]), meta[1]

    def numel(self):
        n = 1
        for s in self.shape:
            n *= s
        return n


def _make_grads(outputs, grads, is_grads_batched=False):
    out = []
    for i, (o, g) in enumerate(zip(outputs, grads)):
        if isinstance(o, graph.GradientEdge):
            if is_grads_batched:
                raise RuntimeError("Batched grads are not supported with GradientEdge")
            o = _EdgeOutput(o)
        if g is None:
            if o.requires_grad:
                if o.numel() != 1:
                    raise RuntimeError("grad can be implicitly created only for scalar outputs")
                if not o.dtype.is_floating_point:
                    raise RuntimeError("grad can be implicitly created only for real scalar "
                                       f"outputs but got {o.dtype}")
                if _python_dispatch.is_dispatch_tensor(o) or _python_dispatch.modes_active():
                    from .._op_forms import FORMS
                    g = FORMS["ones_like"](o)  # through its __torch_dispatch__, as torch
                else:
                    g = _C.ones(o.shape, dtype=o.dtype, device=getattr(o, "device", None))
            out.append(g)
            continue
        if not isinstance(g, _C.TensorBase):
            g = _C.full(o.shape, g, dtype=o.dtype, device=getattr(o, "device", None))
        if tuple(g.shape) != tuple(o.shape):
            raise RuntimeError(f"Mismatch in shape: grad_output[{i}] has a shape of "
                               f"{g.shape} and output[{i}] has a shape of {_size(o.shape)}.")
        if g.dtype.is_complex != o.dtype.is_complex:
            raise RuntimeError("For complex Tensors, both grad_output and output are required "
                               "to have the same dtype. Mismatch in dtype: grad_output"
                               f"[{i}] has a dtype of {g.dtype} and output[{i}] has a dtype "
                               f"of {o.dtype}.")
        device = getattr(o, "device", None)
        if device is not None and g.device != device:
            raise RuntimeError(f"invalid gradient at index {i} - expected device {device} but "
                               f"got {g.device}")
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
    if create_graph:
        _warn_create_graph()
    got = _run(tensors, grads, bool(retain_graph), bool(create_graph),
               inputs if inputs is not None else None, True)
    for t, g in zip(inputs or (), got or ()):
        # leaves accumulated in the engine; the gradients of other inputs go to their .grad
        # (a GradientEdge input has no .grad: the engine only ran the graph to it)
        if g is not None and isinstance(t, _C.TensorBase) and not t.is_leaf:
            g = g if create_graph else g.detach()
            with warnings.catch_warnings():  # (reading the .grad of a non-leaf warns)
                warnings.simplefilter("ignore")
                old = t.grad
            t.grad = g if old is None else old + g


def grad(outputs, inputs, grad_outputs=None, retain_graph=None, create_graph=False,
         only_inputs=True, allow_unused=None, is_grads_batched=False, materialize_grads=False):
    """The gradients of `outputs` with respect to `inputs` (a tuple, or a dict of them keyed
    as inputs was), without touching .grad.  Outputs and inputs may be GradientEdges."""
    outputs = _as_tuple(outputs)
    keys = tuple(inputs) if type(inputs) is dict else None
    if keys is not None:
        inputs = tuple(inputs.values())
    elif isinstance(inputs, dict):
        raise TypeError(f"`inputs` argument to `grad()` must be a dict, not "
                        f"{type(inputs).__name__}. Other Mapping types are not supported.")
    inputs = _as_tuple(inputs)
    if len(inputs) == 0:
        raise RuntimeError("`inputs` argument to `grad()` cannot be empty.")
    if allow_unused is None:
        allow_unused = materialize_grads
    if not allow_unused and materialize_grads:
        raise ValueError("Expected allow_unused to be True or not passed when materialize_grads"
                         "=True, but got: allow_unused=False.")
    if not only_inputs:
        warnings.warn("only_inputs argument is deprecated and is ignored now (defaults to True). "
                      "To accumulate gradient for other parts of the graph, please use "
                      "torch.autograd.backward.", FutureWarning, stacklevel=2)
    grads = _as_tuple(grad_outputs) if grad_outputs is not None else (None,) * len(outputs)
    if len(grads) != len(outputs):
        raise RuntimeError(f"grad_outputs has {len(grads)} items but outputs has {len(outputs)}")
    if retain_graph is None:
        retain_graph = create_graph
    for t in inputs:
        if isinstance(t, _C.TensorBase) and not t.requires_grad:
            raise RuntimeError("One of the differentiated Tensors does not require grad")
    if is_grads_batched:
        r = _grad_batched(outputs, inputs, grads, retain_graph, create_graph)
    else:
        grads = _make_grads(outputs, grads)
        r = _run(outputs, grads, bool(retain_graph), bool(create_graph), inputs, False)
    for i, g in enumerate(r):
        if g is None:
            if materialize_grads:
                if not isinstance(inputs[i], _C.TensorBase):
                    raise RuntimeError("materialize_grads cannot be used when the given input is "
                                       "a GradientEdge")
                r[i] = _C.zeros(inputs[i].shape, dtype=inputs[i].dtype)
                if create_graph:
                    r[i].requires_grad_()
            elif not allow_unused:
                raise RuntimeError(f"The differentiated Tensor at index {i} appears to not have "
                                   "been used in the graph. Set allow_unused=True if this is the "
                                   "desired behavior.")
    if keys is not None:
        return dict(zip(keys, r))
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


# Note [Deep reentrant backward]
# A backward pass started from inside another (a Function's backward that calls backward: a
# reentrant pass) nests Python and C frames on its thread.  As torch does, nesting is bounded:
# from _REENTRANT_DEPTH passes deep on one thread, the next pass runs on a fresh thread (with
# the caller's inference mode and saved-tensor hooks) while the caller waits, so thousands of
# nested passes (a reentrant checkpoint per layer) fit in the interpreter's recursion limit.
_REENTRANT_DEPTH = 64


def _run_on_thread(tensors, grads, keep_graph, create_graph, inputs, accumulate):
    result, hooks = [], _saved_tensors.snapshot()
    inference = _C._is_inference_mode_enabled()

    def work():
        _C._set_inference_mode(inference)
        _saved_tensors.restore(hooks)
        try:
            result.append((True, _run(tensors, grads, keep_graph, create_graph, inputs,
                                      accumulate)))
        except BaseException as e:  # noqa: B902 - handed to the waiting caller
            result.append((False, e))
        finally:
            _saved_tensors.restore([])
    t = threading.Thread(target=work, name="minitorch-reentrant-backward")
    t.start()
    t.join()
    ok, value = result[0]
    if not ok:
        raise value
    return value


def _run(tensors, grads, keep_graph, create_graph, inputs, accumulate):
    stack = getattr(_passes, "stack", None)
    if stack is None:
        stack = _passes.stack = []
    if len(stack) >= _REENTRANT_DEPTH:   # Note [Deep reentrant backward]
        return _run_on_thread(tensors, grads, keep_graph, create_graph, inputs, accumulate)
    stack.append((next(_pass_ids), inputs is not None))
    hooks = _saved_tensors.snapshot()
    try:
        return _C._run_backward(tensors, grads, keep_graph, create_graph, inputs, accumulate)
    finally:
        stack.pop()
        _saved_tensors.restore(hooks)


def _current_graph_task_id():
    """The id of the backward pass running on this thread (innermost), or -1."""
    stack = getattr(_passes, "stack", None)
    return stack[-1][0] if stack else -1


def _is_checkpoint_valid():
    """False while the innermost backward pass targets given inputs (autograd.grad, or
    backward(inputs=)), where a reentrant checkpoint cannot run its own backward."""
    stack = getattr(_passes, "stack", None)
    return not (stack and stack[-1][1])


def _size(shape):
    from .._size import Size
    return Size(shape)


_warned_create_graph = [False]


def _warn_create_graph():
    """torch's warning for backward(create_graph=True) (once, unless warnings are always on)."""
    from .. import _switches
    if _warned_create_graph[0] and not _switches.is_warn_always_enabled():
        return
    _warned_create_graph[0] = True
    warnings.warn("Using backward() with create_graph=True will create a reference cycle between "
                  "the parameter and its gradient which can cause a memory leak. We recommend "
                  "using autograd.grad when creating the graph to avoid this. If you have to use "
                  "this function, make sure to reset the .grad fields of your parameters to None "
                  "after use to break the cycle and avoid the leak.", stacklevel=3)


class _ExecutionEngine:
    """Variable._execution_engine: the engine's entry points as torch exposes them."""

    @staticmethod
    def queue_callback(callback):
        """callback() runs when the backward pass running on this thread ends."""
        _C._queue_callback(callback)

    @staticmethod
    def run_backward(tensors, grad_tensors, keep_graph, create_graph, inputs=(),
                     allow_unreachable=False, accumulate_grad=True):
        got = _run(tuple(tensors), list(grad_tensors), bool(keep_graph), bool(create_graph),
                   tuple(inputs) if inputs else None, bool(accumulate_grad))
        return tuple(got) if got is not None else ()

    @staticmethod
    def is_checkpoint_valid():
        return _is_checkpoint_valid()


class _VariableMeta(type):
    def __instancecheck__(cls, other):
        return isinstance(other, _C.TensorBase)


class Variable(metaclass=_VariableMeta):
    """The pre-0.4 Variable wrapper: Variable(data, requires_grad) is a new leaf sharing data's
    storage, and every tensor is a Variable (as torch's)."""
    _execution_engine = _ExecutionEngine()

    def __new__(cls, data, requires_grad=False, volatile=False):
        if volatile:
            warnings.warn("volatile was removed (Variable.volatile is always False)",
                          stacklevel=2)
        return data.detach().requires_grad_(requires_grad)


class _unsafe_preserve_version_counter:
    """Within the block (or a decorated call), in-place writes to the given tensors leave their
    version counters as they were on entry (torch's escape hatch: autograd then cannot see
    those writes)."""

    def __init__(self, tensors):
        self.tensors = (tensors,) if isinstance(tensors, _C.TensorBase) else tensors
        if not isinstance(self.tensors, tuple):
            raise AssertionError("Expected tensors to be a tuple")
        self.prev_versions = tuple(t._version for t in self.tensors)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        _c_modules._unsafe_set_version_counter(self.tensors, self.prev_versions)
        return False

    def __call__(self, fn):
        import functools

        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            with self:
                return fn(*args, **kwargs)
        return wrapper


from . import functional  # noqa: E402,F401  (uses grad above)

# ---- the profiler (torch.autograd.profiler; Note [Profiler collection]) ----
from . import profiler_util, profiler  # noqa: E402,F401
from ._profiler_kinds import (DeviceType, ProfilerActivity, ProfilerState,  # noqa: E402,F401
                              ProfilerConfig, _ExperimentalConfig)
from .profiler import (kineto_available, _profiler_enabled, _supported_activities,  # noqa: E402,F401
                       _enable_profiler, _disable_profiler, _prepare_profiler,
                       _add_metadata_json, _kineto_step, _is_kineto_stopped,
                       _toggle_collection_dynamic)
from ._profiler_collection import ProfilerResult as _ProfilerResult  # noqa: E402,F401

def _calculate_shape(output, grad, is_grads_batched):
    """(the output's shape, the gradient's shape) as backward compares them (an output may be a
    GradientEdge; a batched gradient's first dimension is the batch)."""
    if isinstance(output, graph.GradientEdge):
        if is_grads_batched:
            raise RuntimeError("Batched grads are not supported with GradientEdge")
        return _EdgeOutput(output).shape, grad.shape
    return output.shape, (grad.shape if not is_grads_batched else grad.shape[1:])
from . import forward_ad  # noqa: E402,F401
from . import _weak_tensor_ref  # noqa: E402,F401


def __getattr__(name):
    # torch.autograd.torch: the torch module, which torch's autograd package imports
    if name == "torch":
        import minitorch
        return minitorch
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
# ---- torch.autograd._functions: the legacy Resize and Type Functions -------------------------
from . import _functions  # noqa: E402,F401
