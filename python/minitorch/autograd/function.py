"""minitorch.autograd.Function: ops whose forward and backward the user writes."""
import warnings
import weakref

from .. import _C
from . import graph
from . import _forward
from . import _saved_tensors as _saved
from . import _profiler_collection as _profiling
from . import _record
from ._record import _fit, _rehistory

__all__ = ["Function", "FunctionCtx", "once_differentiable", "InplaceFunction"]


class FunctionCtx:
    """The ctx of a Function: what forward saves for backward."""

    def __init__(self):
        self._saved = None
        self._versions = ()
        self._dirty = ()
        self._non_differentiable = ()
        self.materialize_grads = True
        self.needs_input_grad = ()
        self._released = False
        self._packed = None  # per saved tensor, its packed form when it went through hooks
                             # (Note [Saved-tensor hooks]), or None
        self._node = None    # weak reference to the node, for unpacking outputs
        self._saved_output_nrs = ()  # per saved tensor, which output it is (or None)
        self._clear_on_access = False  # the Function's clear_saved_tensors_on_access
        self._cleared = False
        self._materialize_non_diff_grads = True
        self._saved_fw = ()  # save_for_forward's tensors: saved_tensors while jvp runs
        self._in_jvp = False

    def save_for_backward(self, *tensors):
        for t in tensors:
            if t is not None and not isinstance(t, _C.TensorBase):
                raise TypeError("save_for_backward can only save variables, but argument "
                                f"{tensors.index(t)} is of type {type(t).__name__}")
        self._saved = tensors
        # (inference tensors have no version: apply refuses them when it records)
        self._versions = tuple(t._version if t is not None and not _C.is_inference(t) else None
                               for t in tensors)

    def save_for_forward(self, *tensors):
        """Tensors that jvp reads through ctx.saved_tensors (forward-mode AD)."""
        for t in tensors:
            if t is not None and not isinstance(t, _C.TensorBase):
                raise ValueError("save_for_forward expects all arguments to be tensors; you "
                                 "should save non-tensors as attributes on ctx.")
        self._saved_fw = tensors

    @property
    def saved_tensors(self):
        if self._in_jvp:
            return tuple(self._saved_fw)
        if self._cleared:
            raise RuntimeError(
                "saved_tensors can only be accessed once when clear_saved_tensors_on_access=True "
                "is set on the autograd.Function. Either access saved_tensors only once, or set "
                "clear_saved_tensors_on_access=False.")
        if self._clear_on_access and self._saved is not None:
            out = self._saved_tensors()
            self._saved, self._packed, self._versions = (), None, ()
            self._cleared = True
            return out
        return self._saved_tensors()

    def _saved_tensors(self):
        if self._released:
            raise RuntimeError(
                "Trying to backward through the graph a second time (or directly access saved "
                "tensors after they have already been freed). Saved intermediate values of the "
                "graph are freed when you call .backward() or autograd.grad(). Specify "
                "retain_graph=True if you need to backward through the graph a second time or "
                "if you need to access saved tensors after calling backward.")
        if self._saved is None:
            return ()
        node = self._node() if self._node is not None else None
        packed = self._packed or (None,) * len(self._saved)
        out = []
        for t, v, p in zip(self._saved, self._versions or (None,) * len(self._saved), packed):
            if p is not None:
                out.append(p.unpacked(node))
                continue
            if v is not None and t._version != v:
                raise RuntimeError(
                    "one of the variables needed for gradient computation has been modified by "
                    f"an inplace operation: [{t.type()} {list(t.shape)}], is at version "
                    f"{t._version}; expected version {v} instead.")
            out.append(t)
        nrs = self._saved_output_nrs
        if node is not None and any(nr is not None for nr in nrs) and self._packed is None:
            for i, nr in enumerate(nrs):     # outputs, with the node as their history again
                if nr is not None and out[i] is not None:
                    out[i] = out[i].detach()
                    _C._set_history(out[i], node, nr)
        return tuple(out)

    @property
    def saved_variables(self):
        """The deprecated name of saved_tensors."""
        warnings.warn("'saved_variables' is deprecated; use 'saved_tensors'", DeprecationWarning,
                      stacklevel=2)
        return self.saved_tensors

    def _release(self):
        """The engine's release after the node ran without retain_graph: the saved tensors go
        (later reads raise torch's error); whether there were any."""
        had = self._saved is not None and len(self._saved) > 0
        if had:
            self._saved, self._packed, self._versions = (), None, ()
            self._released = True
        return had

    def mark_dirty(self, *tensors):
        self._dirty = tensors

    def mark_non_differentiable(self, *tensors):
        self._non_differentiable = tensors

    def set_materialize_grads(self, value):
        self.materialize_grads = bool(value)


# torch's name for the class of a custom Function's ctx (which is its node there)
BackwardCFunction = FunctionCtx


class _FunctionMeta(type):
    def __init__(cls, name, bases, attrs):
        super().__init__(name, bases, attrs)
        cls._backward_cls = graph.node_class(name + "Backward")
        cls._backward_cls._function_node = True


class Function(metaclass=_FunctionMeta):
    """Subclass with static forward(ctx, *args) and backward(ctx, *grad_outputs); call
    Cls.apply(*args)."""

    def __init__(self, *args, **kwargs):
        pass

    def __call__(self, *args, **kwargs):
        raise RuntimeError("Legacy autograd function with non-static forward method is "
                           "deprecated. Please use new-style autograd function with static "
                           "forward method. (Example: https://pytorch.org/docs/stable/"
                           "autograd.html#torch.autograd.Function)")

    @staticmethod
    def forward(ctx, *args, **kwargs):
        raise NotImplementedError("You must implement the forward function for custom "
                                  "autograd.Function.")

    @staticmethod
    def backward(ctx, *grad_outputs):
        raise NotImplementedError("You must implement either the backward or vjp method for "
                                  "your custom autograd.Function to use it with backward mode AD.")

    vjp = backward

    @staticmethod
    def jvp(ctx, *grad_inputs):
        raise NotImplementedError("You must implement the jvp function for custom "
                                  "autograd.Function to use it with forward mode AD.")

    @staticmethod
    def setup_context(ctx, inputs, output):
        raise NotImplementedError

    clear_saved_tensors_on_access = False

    # torch's vmap rule hooks (minitorch's vmap runs the function once per sample, Note [vmap
    # by iteration], so a Function needs no rule there)
    generate_vmap_rule = False

    @staticmethod
    def vmap(info, in_dims, *args):
        raise NotImplementedError("To use autograd.Function with vmap, you must either override "
                                  "the vmap staticmethod or set generate_vmap_rule=True.")

    @classmethod
    def apply(cls, *args, **kwargs):
        if _profiling.active() is None:
            return cls._run_apply(args, kwargs)
        rng = _profiling.function_range(cls.__name__)   # the profiler's range of the call
        try:
            return cls._run_apply(args, kwargs)
        finally:
            if rng is not None:
                _profiling.close_function_range(rng)

    @classmethod
    def _run_apply(cls, args, kwargs):
        ctx = FunctionCtx()
        ctx._clear_on_access = bool(cls.clear_saved_tensors_on_access)
        tensors = [a if isinstance(a, _C.TensorBase) else None for a in args]
        ctx.needs_input_grad = tuple(t is not None and t.requires_grad for t in tensors)
        grad_on = _C.is_grad_enabled()
        record = grad_on and any(ctx.needs_input_grad)
        # forward-mode AD: the arguments' tangents when one is dual (forward and jvp then run
        # with forward grad mode off; Note [Forward AD] in _forward.py)
        fw = _forward.function_tangents(args)
        prev = _C._set_grad_enabled(False)
        fw_prev = _forward.set_enabled(False) if fw is not None else None
        try:
            if cls.setup_context is not Function.setup_context:
                out = cls.forward(*args, **kwargs)
                cls.setup_context(ctx, _with_defaults(cls.forward, args, kwargs), out)
            else:
                out = cls.forward(ctx, *args, **kwargs)
        finally:
            _C._set_grad_enabled(prev)
            if fw is not None:
                _forward.set_enabled(fw_prev)
        multi = isinstance(out, tuple)
        outs = list(out) if multi else [out]
        _check_dirty(ctx, tensors, outs)
        viewed = [None] * len(outs)     # the argument each output is (or is a view of)
        for k, o in enumerate(outs):
            if isinstance(o, _C.TensorBase) and any(o is t for t in tensors if t is not None):
                viewed[k] = next(i for i, t in enumerate(tensors) if o is t)
                if not any(o is d for d in ctx._dirty):
                    # an input returned as is: a new tensor (a view of it with grad mode on, so
                    # that it can have its own history), as torch's
                    outs[k] = _view_of(o) if grad_on else o.detach()
            elif fw is not None and isinstance(o, _C.TensorBase) and o._base is not None:
                viewed[k] = next((i for i, t in enumerate(tensors) if t is not None and
                                  (t is o._base or t._base is o._base)), None)
        # the views among the outputs cannot be written in place where autograd records it
        # (Note [Creation meta of views] in csrc/autograd/autograd.h)
        _C._mark_views([o for o in outs if not any(o is d for d in ctx._dirty)],
                       _IN_CUSTOM_FUNCTION)
        if fw is not None:
            _forward.function_jvp(cls, ctx, args, fw, outs, viewed)
        if not record:
            return tuple(outs) if multi else outs[0]
        if ctx._saved and _C._inference_live() and any(
                t is not None and _C.is_inference(t) for t in ctx._saved):
            raise RuntimeError(_record._INFERENCE_SAVED)
        ctx._inputs_meta = [(t.shape, t.dtype) if t is not None else None for t in tensors]
        ctx._out_meta = [(o.shape, o.dtype) if isinstance(o, _C.TensorBase) else None
                         for o in outs]
        ctx._nondiff_outputs = frozenset(k for k, o in enumerate(outs)
                                         if any(o is n for n in ctx._non_differentiable))
        ctx._fn = cls
        # (edges for the tensor arguments only, as torch's: next_functions has no entries for
        # the others)
        node = cls._backward_cls(_apply_tensor_edges, ctx, [t for t in tensors if t is not None],
                                 len(outs))
        if ctx._saved:
            ctx._saved_output_nrs = tuple(
                next((k for k, o in enumerate(outs) if o is t), None) if t is not None else None
                for t in ctx._saved)
        hooks = _saved.top() if _saved.active else None
        ctx._node = weakref.ref(node)
        for k, o in enumerate(outs):
            if isinstance(o, _C.TensorBase) and (o.dtype.is_floating_point or o.dtype.is_complex) \
                    and not any(o is n for n in ctx._non_differentiable):
                dirty = next((i for i, t in enumerate(tensors)
                              if t is o and any(o is d for d in ctx._dirty)), None)
                if dirty is not None and o._base is not None:
                    # an input view written in place: its base's history changes too
                    _record.rebase_function_view(o, node, dirty, tensors, _apply_function)
                else:
                    _rehistory(o, node, k)  # a dirty input keeps its retain_grad hook
        # (the ctx is kept by the graph: it must not keep the outputs it marked)
        ctx._dirty = ctx._non_differentiable = ()
        if hooks is not None and ctx._saved:
            try:
                _pack_saved(ctx, hooks, outs, node)
            except BaseException:
                # a pack hook raised: the ctx must not keep the outputs it saved (a cycle
                # through the node the outputs' history names)
                ctx._saved, ctx._versions = (), ()
                raise
        elif ctx._saved:
            # an output is kept without its history (no cycle through this node) and gets it
            # back when read (saved_tensors), as torch's saved outputs
            ctx._saved = tuple(t.detach() if nr is not None else t
                               for t, nr in zip(ctx._saved, ctx._saved_output_nrs))
        return tuple(outs) if multi else outs[0]


_IN_CUSTOM_FUNCTION = 1  # (the creation meta of a custom Function's view outputs)


def _with_defaults(forward, args, kwargs):
    """The inputs setup_context sees: forward's arguments, with the defaults of those not
    given, in order (as torch binds them)."""
    import inspect
    try:
        sig = inspect.signature(forward)
        bound = sig.bind(*args, **kwargs)
    except (TypeError, ValueError):
        return args
    bound.apply_defaults()
    out = []
    for name, p in sig.parameters.items():
        if p.kind in (p.VAR_POSITIONAL,):
            out.extend(bound.arguments.get(name, ()))
        elif p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD):
            out.append(bound.arguments[name])
    return tuple(out)


def _view_of(t):
    """A view of t made without history (the recorder's grad mode)."""
    prev = _C._grad_off_recording()
    try:
        return t.view_as(t)
    finally:
        _C._set_grad_mode(prev)


def _check_dirty(ctx, tensors, outs):
    """torch's checks of the tensors forward gave mark_dirty: inputs it returns, modified in
    place as autograd allows (not leaves that require grad, not views it forbids)."""
    if not ctx._dirty:
        return
    for d in ctx._dirty:
        if not any(d is t for t in tensors if t is not None):
            msg = ("ctx.mark_dirty() received a tensor that was not an input. Only input Tensors "
                   "that have been mutated should be passed to ctx.mark_dirty().")
            if d._base is not None:
                raise RuntimeError(msg)
            warnings.warn(msg, stacklevel=3)
            continue
        if not any(d is o for o in outs):
            raise RuntimeError("Some elements marked as dirty during the forward method were not "
                               "returned as output. The inputs that are modified inplace must "
                               "all be outputs of the Function.")
        if not _C.is_grad_enabled():
            continue
        if d._base is not None and (d.requires_grad or any(
                t is not None and t.requires_grad for t in tensors)):
            _C._check_view_inplace(d)
            if d.requires_grad and d._base.is_leaf:
                raise RuntimeError("a view of a leaf Variable that requires grad is being used in "
                                   "an in-place operation.")
            if sum(isinstance(o, _C.TensorBase) for o in outs) > 1:
                raise RuntimeError(
                    "If your Function modifies inplace an input that is a view of another Tensor, "
                    "your Function cannot return more than one Tensor. This is not supported by "
                    "the current autograd engine. You should either make sure the input is not a "
                    "view (using .clone() for example) or make your Function only return one "
                    "Tensor (potentially splitting it into two Functions: one doing the inplace "
                    "that returns a single Tensor and a second one that does the other "
                    "operations). You can ask on the forum https://discuss.pytorch.org/ if you "
                    "need help to do this change.")
        if d.requires_grad and d._grad_fn is None and d._base is None:
            raise RuntimeError("a leaf Variable that requires grad has been used in an in-place "
                               "operation.")


def _pack_saved(ctx, hooks, outs, node):
    """save_for_backward's tensors through the pack hook (Note [Saved-tensor hooks]): the ctx
    keeps only what the hook returned."""
    import weakref
    packed = []
    for t in ctx._saved:
        if t is None:
            packed.append(None)
            continue
        nr = next((k for k, o in enumerate(outs) if o is t and o.grad_fn is node), None)
        packed.append(_saved.pack(t, hooks, nr))
    ctx._packed = tuple(packed)
    ctx._node = weakref.ref(node)
    ctx._saved = (None,) * len(packed)  # (only the packed forms are kept)
    ctx._versions = ()


class InplaceFunction(Function):
    """A Function whose instances carry an `inplace` flag (kept for older code, as torch
    keeps it); otherwise a Function."""

    def __init__(self, inplace=False):
        super().__init__()
        self.inplace = inplace


def _apply_tensor_edges(node, grads):
    """The node's function: the Function's gradients of its tensor arguments."""
    return [g for g, meta in zip(_apply_function(node, grads), node._ctx._inputs_meta)
            if meta is not None]


def _apply_function(node, grads):
    ctx = node._ctx
    if ctx.materialize_grads:
        # (the outputs marked non-differentiable keep None with _materialize_non_diff_grads off)
        nondiff = ctx._nondiff_outputs if not ctx._materialize_non_diff_grads else ()
        grads = tuple(g if g is not None or k in nondiff else
                      (_C.zeros(m[0], dtype=m[1]) if m is not None else None)
                      for k, (g, m) in enumerate(zip(grads, ctx._out_meta)))
    cls = ctx._fn
    if cls.backward is not Function.backward and cls.vjp is not Function.vjp:
        raise RuntimeError("Implementing both 'backward' and 'vjp' for a custom Function is not "
                           "allowed. You should only implement one of them.")
    r = (cls.vjp if cls.backward is Function.backward else cls.backward)(ctx, *grads)
    if not isinstance(r, tuple):
        r = (r,)
    n = len(ctx._inputs_meta)
    if len(r) != n:
        if len(r) > n and all(x is None for x in r[n:]):
            r = r[:n]
        else:
            raise RuntimeError(f"function {ctx._fn.__name__}Backward returned an incorrect number "
                               f"of gradients (expected {n}, got {len(r)})")
    out = []
    for i, (g, meta) in enumerate(zip(r, ctx._inputs_meta)):
        if meta is None or not ctx.needs_input_grad[i] or g is None:
            out.append(None)
            continue
        if not isinstance(g, _C.TensorBase):
            raise TypeError(f"function {ctx._fn.__name__}Backward returned a gradient different "
                            f"than None at position {i + 1}, but the corresponding forward input "
                            "was not a Variable")
        if g.shape != meta[0]:
            try:
                g = _fit(g, meta[0], meta[1])
            except RuntimeError:
                raise RuntimeError(f"Function {ctx._fn.__name__}Backward returned an invalid "
                                   f"gradient at index {i} - got {list(g.shape)} but expected "
                                   f"shape compatible with {list(meta[0])}") from None
        out.append(g if g.dtype == meta[1] else g.to(meta[1]))
    return out


def once_differentiable(fn):
    """Marks a backward that is not itself differentiable: it runs with grad mode off, and
    when it runs under create_graph with gradients that require grad, its results still
    require grad, as torch's: each result is detached and made a leaf that requires grad, and
    the results go through one Error node (_C._functions.DelayedError) that refuses to be
    differentiated."""
    import functools

    @functools.wraps(fn)
    def wrapper(ctx, *args):
        prev = _C._set_grad_enabled(False)
        try:
            outs = fn(ctx, *args)
        finally:
            _C._set_grad_enabled(prev)
        wanted = any(isinstance(a, _C.TensorBase) and a.requires_grad for a in args)
        if not prev or not wanted:
            return outs
        single = not isinstance(outs, tuple)
        outs = (outs,) if single else outs
        err = _C._functions.DelayedError("trying to differentiate twice a function that was "
                                         "marked with @once_differentiable", len(outs))
        wrapped = err(*[_fake_requires_grad(o) for o in outs])
        return wrapped if single else (wrapped if isinstance(wrapped, tuple) else (wrapped,))
    return wrapper


def _fake_requires_grad(o):
    """A once_differentiable result as an input of its Error node: a detached leaf that
    requires grad (float and complex tensors), so that the node has an edge to it."""
    if isinstance(o, _C.TensorBase) and (o.dtype.is_floating_point or o.dtype.is_complex):
        o = o.detach()
        o.requires_grad = True
    return o


_C._set_function_ctx_class(FunctionCtx)
