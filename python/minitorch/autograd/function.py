"""minitorch.autograd.Function: ops whose forward and backward the user writes."""
from .. import _C
from . import graph
from . import _forward
from . import _saved_tensors as _saved
from ._record import _fit, _rehistory

__all__ = ["Function", "FunctionCtx", "once_differentiable"]


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
        self._packed = None  # the saved tensors packed by hooks (Note [Saved-tensor hooks])
        self._node = None    # weak reference to the node, for unpacking outputs
        self._saved_fw = ()  # save_for_forward's tensors: saved_tensors while jvp runs
        self._in_jvp = False

    def save_for_backward(self, *tensors):
        for t in tensors:
            if t is not None and not isinstance(t, _C.TensorBase):
                raise TypeError("save_for_backward can only save variables, but argument "
                                f"{tensors.index(t)} is of type {type(t).__name__}")
        self._saved = tensors
        self._versions = tuple(t._version if t is not None else None for t in tensors)

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
        if self._released:
            raise RuntimeError(
                "Trying to backward through the graph a second time (or directly access saved "
                "tensors after they have already been freed). Saved intermediate values of the "
                "graph are freed when you call .backward() or autograd.grad(). Specify "
                "retain_graph=True if you need to backward through the graph a second time or "
                "if you need to access saved tensors after calling backward.")
        if self._saved is None:
            return ()
        if self._packed is not None:
            node = self._node() if self._node is not None else None
            return tuple(p.unpacked(node) if p is not None else None for p in self._packed)
        for t, v in zip(self._saved, self._versions):
            if t is not None and t._version != v:
                raise RuntimeError(
                    "one of the variables needed for gradient computation has been modified by "
                    f"an inplace operation: [{t.type()} {list(t.shape)}], is at version "
                    f"{t._version}; expected version {v} instead.")
        return self._saved

    def mark_dirty(self, *tensors):
        self._dirty = tensors

    def mark_non_differentiable(self, *tensors):
        self._non_differentiable = tensors

    def set_materialize_grads(self, value):
        self.materialize_grads = bool(value)


class _FunctionMeta(type):
    def __init__(cls, name, bases, attrs):
        super().__init__(name, bases, attrs)
        cls._backward_cls = graph.node_class(name + "Backward")


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

    @classmethod
    def apply(cls, *args, **kwargs):
        ctx = FunctionCtx()
        tensors = [a if isinstance(a, _C.TensorBase) else None for a in args]
        ctx.needs_input_grad = tuple(t is not None and t.requires_grad for t in tensors)
        record = _C.is_grad_enabled() and any(ctx.needs_input_grad)
        # forward-mode AD: the arguments' tangents when one is dual (forward and jvp then run
        # with forward grad mode off; Note [Forward AD] in _forward.py)
        fw = _forward.function_tangents(args)
        prev = _C._set_grad_enabled(False)
        fw_prev = _forward.set_enabled(False) if fw is not None else None
        try:
            if cls.setup_context is not Function.setup_context:
                out = cls.forward(*args, **kwargs)
                cls.setup_context(ctx, args, out)
            else:
                out = cls.forward(ctx, *args, **kwargs)
        finally:
            _C._set_grad_enabled(prev)
            if fw is not None:
                _forward.set_enabled(fw_prev)
        if not record and fw is None:
            return out
        multi = isinstance(out, tuple)
        outs = list(out) if multi else [out]
        viewed = [None] * len(outs)     # the argument each output is (or is a view of)
        for k, o in enumerate(outs):
            if isinstance(o, _C.TensorBase) and any(o is t for t in tensors if t is not None):
                viewed[k] = next(i for i, t in enumerate(tensors) if o is t)
                if not any(o is d for d in ctx._dirty):
                    outs[k] = o.detach()  # an input returned as is: a new tensor with history
            elif fw is not None and isinstance(o, _C.TensorBase) and o._base is not None:
                viewed[k] = next((i for i, t in enumerate(tensors) if t is not None and
                                  (t is o._base or t._base is o._base)), None)
        if fw is not None:
            _forward.function_jvp(cls, ctx, args, fw, outs, viewed)
        if not record:
            return tuple(outs) if multi else outs[0]
        ctx._inputs_meta = [(t.shape, t.dtype) if t is not None else None for t in tensors]
        ctx._out_meta = [(o.shape, o.dtype) if isinstance(o, _C.TensorBase) else None
                         for o in outs]
        ctx._fn = cls
        for d in ctx._dirty:
            if d.requires_grad and d.is_leaf:
                raise RuntimeError("a leaf Variable that requires grad is being used in an "
                                   "in-place operation.")
        node = cls._backward_cls(_apply_function, ctx, tensors, len(outs))
        hooks = _saved.top() if _saved.active else None
        for k, o in enumerate(outs):
            if isinstance(o, _C.TensorBase) and (o.dtype.is_floating_point or o.dtype.is_complex) \
                    and not any(o is n for n in ctx._non_differentiable):
                _rehistory(o, node, k)  # a dirty input keeps its retain_grad hook
        if hooks is not None and ctx._saved:
            _pack_saved(ctx, hooks, outs, node)
        return tuple(outs) if multi else outs[0]


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
    ctx._saved = (None,) * len(packed)  # (not None: saved_tensors unpacks)
    ctx._versions = ()


def _apply_function(node, grads):
    ctx = node._ctx
    if ctx.materialize_grads:
        grads = tuple(g if g is not None else
                      (_C.zeros(m[0], dtype=m[1]) if m is not None else None)
                      for g, m in zip(grads, ctx._out_meta))
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
    require grad, through a node that refuses to be differentiated (as torch)."""
    import functools

    @functools.wraps(fn)
    def wrapper(ctx, *args):
        prev = _C._set_grad_enabled(False)
        try:
            outs = fn(ctx, *args)
        finally:
            _C._set_grad_enabled(prev)
        wanted = [a for a in args if isinstance(a, _C.TensorBase) and a.requires_grad]
        if not prev or not wanted:
            return outs
        single = not isinstance(outs, tuple)
        wrapped = tuple(_DelayedError.apply(o, *wanted)
                        if isinstance(o, _C.TensorBase) and o.dtype.is_floating_point else o
                        for o in ((outs,) if single else outs))
        return wrapped[0] if single else wrapped
    return wrapper


class _DelayedError(Function):
    """The history of a once_differentiable backward's result: its gradients' inputs, and an
    error when differentiated."""

    @staticmethod
    def forward(ctx, out, *grads):
        return out.detach()

    @staticmethod
    def backward(ctx, *grads):
        raise RuntimeError("trying to differentiate twice a function that was marked with "
                           "@once_differentiable")
