"""Activation checkpointing (as torch.utils.checkpoint): run a function without keeping what its
backward needs, and run it again in the backward pass to get those tensors back.

Two implementations, as torch's:
- use_reentrant=True: the region is one autograd.Function (CheckpointFunction) whose forward runs
  the function without grad and whose backward runs it again with grad and calls backward on
  the result (a backward pass inside the backward pass).  It cannot serve autograd.grad or
  backward(inputs=...), and takes no keyword arguments.
- use_reentrant=False: the function runs with grad under saved-tensor hooks (Note [Saved-tensor
  hooks] in autograd/_saved_tensors.py) that keep a placeholder instead of each tensor the
  region's nodes save.  The first time the backward pass needs one of them, the function runs
  again under hooks that catch the tensors saved in the same order and hand them to the
  placeholders (once per backward pass; the rerun stops once every placeholder is filled unless
  early stopping is off).  It works with autograd.grad, inputs that do not require grad,
  keyword arguments and nested checkpoints; determinism_check="default" compares the shapes,
  dtypes and devices of the tensors saved by the two runs.
Both restore the random generator's state before the rerun (preserve_rng_state=True), so that
dropout and other random ops draw the same numbers, and the autocast state of the forward."""
import contextlib
import enum
import functools
import re
import traceback
import uuid
import warnings
import weakref
from collections import defaultdict

import minitorch as torch
from minitorch.autograd import graph as _graph

__all__ = ["checkpoint", "checkpoint_sequential", "CheckpointError", "CheckpointFunction",
           "check_backward_validity", "detach_variable", "get_device_states",
           "set_device_states", "noop_context_fn", "set_checkpoint_early_stop",
           "DefaultDeviceType", "set_checkpoint_debug_enabled", "CheckpointPolicy",
           "SelectiveCheckpointContext", "create_selective_checkpoint_contexts",
           "SAC_IGNORED_OPS", "GraphExecGroup"]

_DEFAULT_DETERMINISM_MODE = "default"

_checkpoint_debug_enabled = None


@contextlib.contextmanager
def set_checkpoint_debug_enabled(enabled):
    """Within the block, debug=... of non-reentrant checkpoints is overridden by `enabled`
    (None: each call's own)."""
    global _checkpoint_debug_enabled
    prev = _checkpoint_debug_enabled
    _checkpoint_debug_enabled = enabled
    try:
        yield
    finally:
        _checkpoint_debug_enabled = prev


_enable_checkpoint_early_stop = None


@contextlib.contextmanager
def set_checkpoint_early_stop(enable):
    """Within the block, whether non-reentrant checkpoints stop their rerun as soon as every
    saved tensor is recomputed (overrides each call's early_stop)."""
    global _enable_checkpoint_early_stop
    prev = _enable_checkpoint_early_stop
    _enable_checkpoint_early_stop = enable
    try:
        yield
    finally:
        _enable_checkpoint_early_stop = prev


class CheckpointError(RuntimeError):
    """The rerun of a checkpointed region did not reproduce what its forward saved."""


def detach_variable(inputs):
    """The tensors of the tuple `inputs` detached, keeping their requires_grad (other values
    as they are)."""
    if not isinstance(inputs, tuple):
        raise RuntimeError("Only tuple of tensors is supported. Got Unsupported input type: "
                           f"{type(inputs).__name__}")
    out = []
    for inp in inputs:
        if not isinstance(inp, torch.Tensor):
            out.append(inp)
            continue
        x = inp.detach()
        x.requires_grad = inp.requires_grad
        out.append(x)
    return tuple(out)


def check_backward_validity(inputs):
    if not any(inp.requires_grad for inp in inputs if isinstance(inp, torch.Tensor)):
        warnings.warn("None of the inputs have requires_grad=True. Gradients will be None",
                      stacklevel=2)


class DefaultDeviceType:
    """The device type whose random state checkpoints save when no argument names one."""
    _default_device_type = None

    @staticmethod
    def set_device_type(device="cuda"):
        DefaultDeviceType._default_device_type = device

    @staticmethod
    def get_device_type():
        if not DefaultDeviceType._default_device_type:
            DefaultDeviceType._default_device_type = \
                "cuda" if torch.cuda.is_available() else "cpu"
        return DefaultDeviceType._default_device_type


def _tensors_in(args):
    """The tensors among args, also inside lists, tuples and dicts."""
    for a in args:
        if isinstance(a, torch.Tensor):
            yield a
        elif isinstance(a, (list, tuple)):
            yield from _tensors_in(a)
        elif isinstance(a, dict):
            yield from _tensors_in(tuple(a.values()))


def _infer_device_type(*args):
    types = [t.device.type for t in _tensors_in(args) if t.device.type != "cpu"]
    kinds = set(types)
    if len(kinds) > 1:
        warnings.warn("Tensor arguments, excluding CPU tensors, are detected on at least two "
                      "types of devices. Device state will only be saved for devices of a "
                      "single device type, and the remaining devices will be ignored. "
                      "Consequently, if any checkpointed functions involve randomness, this may "
                      "result in incorrect gradients. (Note that if CUDA devices are among the "
                      "devices detected, it will be prioritized; otherwise, the first device "
                      f"encountered will be selected.)\nDevice types: {sorted(kinds)} first "
                      f"device type: {types[0]}", stacklevel=2)
    if not types:
        return DefaultDeviceType.get_device_type()
    return "cuda" if "cuda" in kinds else types[0]


def get_device_states(*args):
    """(device ids, random states) of the accelerator devices the tensors among args live on
    (none: minitorch's tensors are on the CPU, whose state checkpoints save separately)."""
    ids = []
    for t in _tensors_in(args):
        if t.device.type not in ("cpu", "meta"):
            ids.append(t.get_device())
    states = []
    for i in ids:
        with torch.cuda.device(i):
            states.append(torch.cuda.get_rng_state())
    return ids, states


def set_device_states(devices, states, *, device_type=None):
    if device_type is None:
        device_type = DefaultDeviceType.get_device_type()
    if device_type == "meta":
        return
    module = getattr(torch, device_type)
    for device, state in zip(devices, states):
        with module.device(device):
            module.set_rng_state(state)


def _autocast_kwargs(device_type):
    """The autocast settings of the device type and of the CPU, to run the rerun under."""
    def kwargs(dev):
        return {"enabled": torch.is_autocast_enabled(dev), "dtype": torch.get_autocast_dtype(dev),
                "cache_enabled": torch.is_autocast_cache_enabled()}
    device = kwargs(device_type) if torch.amp.is_autocast_available(device_type) else None
    return device, kwargs("cpu")


def _autocast_ctx(device_type, device_kwargs, cpu_kwargs):
    stack = contextlib.ExitStack()
    if device_kwargs is not None and device_type != "cpu":
        stack.enter_context(torch.amp.autocast(device_type=device_type, **device_kwargs))
    stack.enter_context(torch.amp.autocast("cpu", **cpu_kwargs))
    return stack


class _RngState:
    """The random state at the start of a checkpointed forward, set again for its rerun."""

    def __init__(self, args, device_type, preserve):
        self.preserve = preserve
        self.device_type = device_type
        self.had_device = False
        if preserve:
            self.cpu_state = torch.get_rng_state()
            module = getattr(torch, device_type, None)
            if getattr(module, "_initialized", False):
                self.had_device = True
                self.devices, self.device_states = get_device_states(*args)

    @contextlib.contextmanager
    def restored(self):
        devices = self.devices if self.preserve and self.had_device else []
        with torch.random.fork_rng(devices=devices, enabled=self.preserve,
                                   device_type=self.device_type):
            if self.preserve:
                torch.set_rng_state(self.cpu_state)
                if self.had_device:
                    set_device_states(self.devices, self.device_states,
                                      device_type=self.device_type)
            yield


# ---- use_reentrant=True ------------------------------------------------------------------------

class CheckpointFunction(torch.autograd.Function):
    """The reentrant checkpoint: forward without grad, backward reruns the function with grad
    and back-propagates through the rerun."""

    @staticmethod
    def forward(ctx, run_function, preserve_rng_state, *args):
        check_backward_validity(args)
        ctx.run_function = run_function
        ctx.device_type = _infer_device_type(*args)
        ctx.autocast = _autocast_kwargs(ctx.device_type)
        ctx.rng = _RngState(args, ctx.device_type, preserve_rng_state)
        ctx.inputs = [None if isinstance(a, torch.Tensor) else a for a in args]
        ctx.tensor_indices = [i for i, a in enumerate(args) if isinstance(a, torch.Tensor)]
        ctx.save_for_backward(*(args[i] for i in ctx.tensor_indices))
        with torch.no_grad():
            return run_function(*args)

    @staticmethod
    def backward(ctx, *grads):
        if not torch.autograd._is_checkpoint_valid():
            raise RuntimeError("When use_reentrant=True, torch.utils.checkpoint is incompatible "
                               "with .grad() or passing an `inputs` parameter to .backward(). To "
                               "resolve this error, you can either set use_reentrant=False, or "
                               "call .backward() without passing the `inputs` argument.")
        inputs = list(ctx.inputs)
        for i, t in zip(ctx.tensor_indices, ctx.saved_tensors):
            inputs[i] = t
        with ctx.rng.restored():
            detached = detach_variable(tuple(inputs))
            with torch.enable_grad(), _autocast_ctx(ctx.device_type, *ctx.autocast):
                outputs = ctx.run_function(*detached)
        if isinstance(outputs, torch.Tensor):
            outputs = (outputs,)
        with_grad = [(o, g) for o, g in zip(outputs, grads)
                     if isinstance(o, torch.Tensor) and o.requires_grad]
        if not with_grad:
            raise RuntimeError("none of output has requires_grad=True, this checkpoint() is not "
                               "necessary")
        torch.autograd.backward([o for o, _ in with_grad], [g for _, g in with_grad])
        return (None, None) + tuple(a.grad if isinstance(a, torch.Tensor) else None
                                    for a in detached)


def noop_context_fn():
    return contextlib.nullcontext(), contextlib.nullcontext()


class _CheckpointedFunction:
    """checkpoint(...) used as a decorator: each call of the function is checkpointed."""

    def __init__(self, function, **checkpoint_kwargs):
        self.function = function
        self.checkpoint_kwargs = dict(checkpoint_kwargs)
        functools.update_wrapper(self, function, updated=())

    def __call__(self, *args, **kwargs):
        return _checkpoint_impl(self.function, args, kwargs, **self.checkpoint_kwargs)

    def __get__(self, instance, owner=None):
        if instance is None:
            return self
        get = getattr(self.function, "__get__", None)
        if get is None:
            return self
        return type(self)(get(instance, owner), **self.checkpoint_kwargs)


def checkpoint(function=None, *args, use_reentrant=None, preserve_rng_state=True,
               context_fn=noop_context_fn, determinism_check=_DEFAULT_DETERMINISM_MODE,
               debug=False, early_stop=True, respect_saved_tensors_hooks=None, **kwargs):
    """checkpoint(function, *args, use_reentrant=..., **kwargs): function(*args, **kwargs),
    without keeping the region's activations for backward (see the module's docstring).
    checkpoint(use_reentrant=..., ...) without a function returns a decorator."""
    if function is None and not args:
        if kwargs:
            raise ValueError("Unexpected keyword arguments: " + ",".join(kwargs))
        return functools.partial(
            _CheckpointedFunction, use_reentrant=use_reentrant,
            preserve_rng_state=preserve_rng_state, context_fn=context_fn,
            determinism_check=determinism_check, debug=debug, early_stop=early_stop,
            respect_saved_tensors_hooks=respect_saved_tensors_hooks)
    return _checkpoint_impl(function, args, kwargs, use_reentrant=use_reentrant,
                            preserve_rng_state=preserve_rng_state, context_fn=context_fn,
                            determinism_check=determinism_check, debug=debug,
                            early_stop=early_stop,
                            respect_saved_tensors_hooks=respect_saved_tensors_hooks)


def _checkpoint_impl(function, args, kwargs, *, use_reentrant=None, preserve_rng_state=True,
                     context_fn=noop_context_fn, determinism_check=_DEFAULT_DETERMINISM_MODE,
                     debug=False, early_stop=True, respect_saved_tensors_hooks=None):
    if use_reentrant is None:
        warnings.warn("torch.utils.checkpoint: the use_reentrant parameter should be passed "
                      "explicitly. In a future release, calling checkpoint without use_reentrant "
                      "will raise an exception. use_reentrant=False is recommended, but if you "
                      "need to preserve the current default behavior, you can pass "
                      "use_reentrant=True. Refer to docs for more details on the differences "
                      "between the two variants.", stacklevel=3)
        use_reentrant = True
    if kwargs and use_reentrant:
        raise ValueError("Unexpected keyword arguments: " + ",".join(kwargs))
    if use_reentrant:
        if context_fn is not noop_context_fn or debug is not False or \
                respect_saved_tensors_hooks is not None:
            raise ValueError("Passing `context_fn`, `debug`, or `respect_saved_tensors_hooks` "
                             "is only supported when use_reentrant=False.")
        return CheckpointFunction.apply(function, preserve_rng_state, *args)
    return _checkpoint_without_reentrant(function, args, kwargs,
                                         preserve_rng_state=preserve_rng_state,
                                         context_fn=context_fn,
                                         determinism_check=determinism_check, debug=debug,
                                         early_stop=early_stop)


def checkpoint_sequential(functions, segments, input, use_reentrant=None, **kwargs):
    """Runs a sequence of functions (an nn.Sequential or a list) in `segments` chunks, each but
    the last checkpointed."""
    if use_reentrant is None:
        warnings.warn("torch.utils.checkpoint.checkpoint_sequential: the use_reentrant parameter "
                      "should be passed explicitly. In a future release, we will raise an "
                      "exception if use_reentrant is not passed. use_reentrant=False is "
                      "recommended, but if you need to preserve the current default behavior, "
                      "you can pass use_reentrant=True. Refer to docs for more details on the "
                      "differences between the two variants.", stacklevel=2)
        use_reentrant = True
    preserve = kwargs.pop("preserve_rng_state", True)
    if kwargs:
        raise ValueError("Unexpected keyword arguments: " + ",".join(kwargs))

    def run(start, end):
        def forward(x):
            for j in range(start, end + 1):
                x = functions[j](x)
            return x
        return forward

    if isinstance(functions, torch.nn.Sequential):
        functions = list(functions.children())
    size = len(functions) // segments
    end = -1
    for start in range(0, size * (segments - 1), size):
        end = start + size - 1
        input = checkpoint(run(start, end), input, use_reentrant=use_reentrant,
                           preserve_rng_state=preserve)
    return run(end + 1, len(functions) - 1)(input)


# ---- use_reentrant=False -----------------------------------------------------------------------

_DEBUG_TIP = ("\nTip: To see a more detailed error message, either pass `debug=True` to\n"
              "`torch.utils.checkpoint.checkpoint(...)` or wrap the code block\n"
              "with `with torch.utils.checkpoint.set_checkpoint_debug_enabled(True):` to\n"
              "enable checkpoint\u2011debug mode globally.\n")


def _internal_assert(cond):
    if not cond:
        raise AssertionError("Something went unexpectedly wrong in activation checkpoint. Please "
                             "report this bug by filing an issue to PyTorch.")


def _default_meta(x):
    return {"shape": x.shape, "dtype": x.dtype, "device": x.device}


_DETERMINISM_CHECKS = {_DEFAULT_DETERMINISM_MODE: _default_meta, "none": lambda _: None}


class GraphExecGroup:
    """Context manager: the backward calls made under one instance share the recomputation of
    each checkpointed region (it reruns at most once for all of them), and so must not need
    the same saved tensor twice, even with retain_graph=True (only for use_reentrant=False)."""

    _current = None     # the group entered, process-wide (groups do not nest)

    def __enter__(self):
        if GraphExecGroup._current is not None:
            raise RuntimeError("GraphExecGroup contexts cannot be nested. Already inside group "
                               f"{GraphExecGroup._current}")
        GraphExecGroup._current = self
        return self

    def __exit__(self, *exc):
        GraphExecGroup._current = None

    @classmethod
    def _get_current_group(cls):
        return cls._current


class _StopRecomputation(Exception):
    """Raised by the rerun's pack hook once every placeholder is filled (early stop)."""


class _Handle:
    pass


class _Holder:
    """The placeholder a node keeps for a saved tensor: per backward pass, the handle of its
    recomputed value (None once unpacked)."""

    def __init__(self):
        self.handles = {}


class _Frame:
    """One checkpointed region: its rerun, its inputs, the placeholders its forward saved (in
    order) and, per backward pass, the values the rerun produced for them."""

    def __init__(self, recompute_fn, early_stop, unpack_error_cb, metadata_fn):
        self.recompute_fn = recompute_fn
        self.early_stop = early_stop
        self.unpack_error_cb = unpack_error_cb
        self.metadata_fn = metadata_fn
        self.saved_args = []
        self.weak_holders = []
        self.x_metadatas = []
        self.recomputed = defaultdict(weakref.WeakKeyDictionary)
        self.recomp_counter = defaultdict(int)
        self.is_recomputed = defaultdict(bool)
        self.forward_completed = False
        self.ignore_saved_mismatch = False

    def save_inputs(self, *args):
        self.saved_args = [(a, a._version) if isinstance(a, torch.Tensor) else (a, None)
                           for a in args]

    def get_inputs(self):
        out = []
        for a, version in self.saved_args:
            if version is not None and a._version != version:
                made_by = ""
                if a.grad_fn is not None:
                    op = re.sub(r"Backward\d*$", "", a.grad_fn.name())
                    made_by = f", which is output {a.output_nr} of {op},"
                raise RuntimeError(
                    "one of the variables needed for gradient computation has been modified by "
                    f"an inplace operation: [{a.type()} {list(a.shape)}]{made_by} is at version "
                    f"{a._version}; expected version {version} instead. Hint: enable anomaly "
                    "detection to find the operation that failed to compute its gradient, with "
                    "torch.autograd.set_detect_anomaly(True, check_nan=False).")
            out.append(a)
        return out

    def check_recomputed_tensors_match(self, gid):
        if self.ignore_saved_mismatch:
            return
        if len(self.weak_holders) != self.recomp_counter[gid]:
            raise CheckpointError(
                "torch.utils.checkpoint: A different number of tensors was saved during the "
                "original forward and recomputation.\n"
                f"Number of tensors saved during forward: {len(self.weak_holders)}\n"
                f"Number of tensors saved during recomputation: {self.recomp_counter[gid]}.\n"
                f"{_DEBUG_TIP}")
        different = []
        for idx, ref in enumerate(self.weak_holders):
            holder = ref()
            if holder is None:
                continue
            _internal_assert(holder.handles.get(gid) is not None)
            handle = holder.handles[gid]
            _internal_assert(handle in self.recomputed[gid])
            meta = self.metadata_fn(self.recomputed[gid][handle])
            if self.x_metadatas[idx] != meta:
                different.append((idx, self.x_metadatas[idx], meta))
        if different:
            text = "".join(f"tensor at position {i}:\nsaved metadata: {a}\n"
                           f"recomputed metadata: {b}\n" for i, a, b in different)
            raise CheckpointError("torch.utils.checkpoint: Recomputed values for the following "
                                  f"tensors have different metadata than during the forward "
                                  f"pass.\n{text}.\n{_DEBUG_TIP}")


class _recomputation_hook(_graph.saved_tensors_hooks):
    """The rerun's hooks: each saved tensor goes to the forward's placeholder at its place."""

    def __init__(self, frame_ref, gid):
        def pack_hook(x):
            x = x.detach() if x.requires_grad else x
            frame = frame_ref()
            _internal_assert(frame is not None)
            idx = frame.recomp_counter[gid]
            frame.recomp_counter[gid] += 1
            if idx >= len(frame.weak_holders):
                _internal_assert(not frame.early_stop)
                if not frame.forward_completed:
                    # the backward runs within the region's own forward: nothing to check
                    frame.ignore_saved_mismatch = True
                    return x
                raise CheckpointError("torch.utils.checkpoint: trying to save more tensors "
                                      "during recomputation than during the original forward "
                                      f"pass.\n{_DEBUG_TIP}")
            holder = frame.weak_holders[idx]()
            if holder is not None:
                _internal_assert(holder.handles.get(gid) is None)
                holder.handles[gid] = _Handle()
                frame.recomputed[gid][holder.handles[gid]] = x
            if frame.early_stop and frame.recomp_counter[gid] == len(frame.weak_holders):
                raise _StopRecomputation
            return x

        super().__init__(pack_hook, lambda x: x)


class _checkpoint_hook(_graph.saved_tensors_hooks):
    """The forward's hooks: a placeholder for each saved tensor, filled by the rerun."""

    def __init__(self, frame):
        def pack_hook(x):
            holder = _Holder()
            frame.weak_holders.append(weakref.ref(holder))
            if frame.metadata_fn is not None:
                with torch.no_grad():
                    frame.x_metadatas.append(frame.metadata_fn(x))
            return holder

        def unpack_hook(holder):
            # the recomputation is shared by the backward calls of one GraphExecGroup, else
            # one per backward call
            gid = GraphExecGroup._current
            if gid is None:
                gid = torch.autograd._current_graph_task_id()
                if gid == -1:
                    gid = int(uuid.uuid4())
            if not frame.is_recomputed[gid]:
                args = frame.get_inputs()
                try:
                    with _recomputation_hook(weakref.ref(frame), gid), torch.enable_grad():
                        frame.recompute_fn(*args)
                except _StopRecomputation:
                    pass
                frame.is_recomputed[gid] = True
                frame.check_recomputed_tensors_match(gid)
            _internal_assert(gid in holder.handles)
            if holder.handles[gid] is None:
                extra = ""
                if GraphExecGroup._current is not None:
                    extra = ("Performing two backward calls that overlap (i.e. require the same "
                             "saved activation in order to compute gradients) is not allowed "
                             "while under the torch.utils.checkpoint.GraphExecGroup context. ")
                raise CheckpointError("torch.utils.checkpoint: Unpack is being triggered for a "
                                      f"tensor that was already unpacked once. {extra}If you are "
                                      "calling ctx.saved_tensors in backward, make sure to do "
                                      "so only once. Otherwise please open an issue with "
                                      "details on your use case.")
            _internal_assert(holder.handles[gid] in frame.recomputed[gid])
            value = frame.recomputed[gid][holder.handles[gid]]
            holder.handles[gid] = None
            return value

        if frame.unpack_error_cb is not None:
            def unpack_with_cb(holder):
                try:
                    return unpack_hook(holder)
                except CheckpointError as e:
                    frame.unpack_error_cb(e)
            super().__init__(pack_hook, unpack_with_cb)
        else:
            super().__init__(pack_hook, unpack_hook)


def _checkpoint_without_reentrant(fn, args, kwargs, *, preserve_rng_state, context_fn,
                                  determinism_check, debug, early_stop):
    unpack_error_cb = None
    if _checkpoint_debug_enabled if _checkpoint_debug_enabled is not None else debug:
        if context_fn is not noop_context_fn:
            raise ValueError("debug=True is incompatible with non-default context_fn")
        context_fn, unpack_error_cb = _debug_context_and_cb()
    if determinism_check not in _DETERMINISM_CHECKS:
        raise ValueError("determinism_check should be one of "
                         f"{list(_DETERMINISM_CHECKS.keys())}, but got {determinism_check}")
    metadata_fn = _DETERMINISM_CHECKS[determinism_check]
    device_type = _infer_device_type(*args)
    forward_context, recompute_context = context_fn()
    autocast = _autocast_kwargs(device_type)
    rng = _RngState(args, device_type, preserve_rng_state)

    def recompute_fn(*inputs):
        with rng.restored(), _autocast_ctx(device_type, *autocast), recompute_context:
            fn(*inputs, **kwargs)

    frame = _Frame(recompute_fn,
                   _enable_checkpoint_early_stop if _enable_checkpoint_early_stop is not None
                   else early_stop, unpack_error_cb, metadata_fn)
    if not torch.is_grad_enabled():
        return fn(*args, **kwargs)
    frame.save_inputs(*args)
    suppressed = True
    with _checkpoint_hook(frame), forward_context:
        ret = fn(*args, **kwargs)
        suppressed = False
    if suppressed:
        raise RuntimeError("torch.utils.checkpoint: the forward context provided by context_fn "
                           "suppressed an exception raised during the checkpointed forward. "
                           "This is not supported because checkpoint cannot return a value for "
                           "a failed forward.")
    frame.forward_completed = True
    return ret


# ---- debug=True: the nodes recorded by the forward and by the rerun ---------------------------

_DEBUG_TEMPLATE = """ An error happened while unpacking tensors; dumping logs of latest computation
because you passed `debug=True` to `torch.utils.checkpoint.checkpoint()`.
Scroll all the way down for guidance on how to navigate these logs.

+~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~+
|        1. Stack traces of the operators that ran in the original forward     |
+------------------------------------------------------------------------------+

{forward_traces}
+~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~+
|        2. Stack traces of the operators that ran during recomputation        |
+------------------------------------------------------------------------------+

{recompute_traces}
+~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~+
|       3. Log of operators in the original forward and recomputation          |
+------------------------------------------------------------------------------+
(Scroll up to correlate stack traces with each operation listed below. This
 helps identify their source in the code.)

Operations executed during the original forward:

{forward_ops}

Operations executed during recomputation:

{recompute_ops}

+------------------------------------------------------------------------------+
 ERROR: Detected non-determinism while running activation checkpointing

 You are seeing this error because you passed `debug=True` to checkpoint and
 tensors to be saved during the original forward and differ between those saved
 during recomputation. This can happen if different operators were ran in the
 original forward and in the recomputation.

 To identify where the mismatch may be coming from, you can do the following:

 1) Compare the operators ran during original forward and recomputation to
    see where they differ. These operators are printed above in the order they
    were executed.

 2) Review the stack trace for each operator to locate its invocation source.
    Each operator's stack trace is printed in their execution order.

 Note that the logs can be quite long. Here's how they are structured:
 (Tip: you can Ctrl-f for these headers)

 1. Stack traces of the operators that ran in the original forward
 2. Stack traces of the operators that ran during recomputation
 3. Log of operators in the original forward and recomputation
 4. Error message                                             <--- You are here
--------------------------------------------------------------------------------
"""


class _OpLog:
    """The nodes recorded within a block (minitorch logs each recorded op's node, with the
    stack of the call that made it)."""

    def __init__(self):
        self.logs, self.tbs = [], []

    @contextlib.contextmanager
    def capture(self):
        self.logs, self.tbs = [], []

        def on_node(node):
            self.logs.append(f"{node.name()}")
            self.tbs.append(traceback.extract_stack()[:-2])
        with _graph._node_hook(on_node):
            yield


def _debug_context_and_cb():
    fwd, rec = _OpLog(), _OpLog()

    def traces(label, log):
        out = ""
        for i, (name, tb) in enumerate(zip(log.logs, log.tbs)):
            out += f"{name}   ({i + 1} of {len(log.logs)} in {label})\n\n"
            for frame in tb:
                out += f"{frame.filename}:{frame.lineno}:{frame.name}\n"
            out += "\n\n"
        return out

    def unpack_error_cb(e):
        raise CheckpointError(_DEBUG_TEMPLATE.format(
            forward_traces=traces("original", fwd), recompute_traces=traces("recompute", rec),
            forward_ops="\n".join(fwd.logs), recompute_ops="\n".join(rec.logs))) from e

    def context_fn():
        return fwd.capture(), rec.capture()

    return context_fn, unpack_error_cb


# ---- selective activation checkpointing --------------------------------------------------------

class CheckpointPolicy(enum.Enum):
    MUST_SAVE = 0
    PREFER_SAVE = 1
    MUST_RECOMPUTE = 2
    PREFER_RECOMPUTE = 3
    MUST_CPU_OFFLOAD = 4
    PREFER_CPU_OFFLOAD = 5


class SelectiveCheckpointContext:
    def __init__(self, *, is_recompute, op_output=None):
        self.is_recompute = is_recompute
        self.op_output = op_output


SAC_IGNORED_OPS = frozenset()


def create_selective_checkpoint_contexts(policy_fn_or_list, allow_cache_entry_mutation=False):
    """Selective checkpointing decides per op whether to keep its output; it needs an op
    dispatch mode (torch's TorchDispatchMode), which minitorch does not have."""
    raise NotImplementedError("selective activation checkpointing "
                              "(create_selective_checkpoint_contexts) needs an op dispatch mode, "
                              "which minitorch does not implement")
