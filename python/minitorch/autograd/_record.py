"""The recorder: runs an op whose tensor arguments require grad and adds its node to the graph
(see Note [Recording an op] in csrc/autograd/autograd.h).

Note [Formulas]
Each op's derivative is a function formulas.<name>(ctx, grad) named by the op table's `grad`
slot (see _op_table.py).  ctx.args are the op's positional arguments with the input first (for
methods too), ctx.kwargs its keywords, ctx.out its result (detached; a tuple for ops with
several), and grad the gradient of the result (a tuple likewise, zeros where none arrived).
A formula returns the gradients of the positional arguments in order (a list for an argument
that is a list of tensors), or a dict from position or keyword name to gradient; None or a
missing entry means no gradient.  The recorder then sums each gradient down to its input's
shape (broadcasting) and casts it to the input's dtype, so formulas are written for same-shape
operands.

Note [Saved tensors]
A node keeps the tensors its formula reads (ctx.args, ctx.out) with their storages' versions
at the time of the op; an in-place write bumps a storage's version, so a formula that would
read changed values raises torch's error instead of computing a wrong gradient.  The outputs
are kept detached (no reference from a node to its own output, so graphs are not cycles), and
everything is dropped when the node has run unless retain_graph=True."""
import operator
import weakref

from .. import _C, _python_dispatch
from . import _declared, graph
from ._dsl import node_name
from . import _saved_tensors as _saved
from . import _watch

def _is_float(t):
    return t.dtype.is_floating_point or t.dtype.is_complex


def _grad_off():
    """Grad mode off while the recorder runs an op (the previous raw mode, for
    _C._set_grad_mode): views made meanwhile are not views made in no_grad mode (Note
    [Creation meta of views] in csrc/autograd/autograd.h)."""
    return _C._grad_off_recording()


_INFERENCE_SAVED = (
    "Inference tensors cannot be saved for backward. Please do not use Tensors created in "
    "inference mode in computation tracked by autograd. To work around this, you can make a "
    "clone to get a normal tensor and use it in autograd, or use `torch.no_grad()` instead of "
    "`torch.inference_mode()`.")


class _Call:
    """The parts of a Ctx that say which tensors a formula reads, for a call not made yet."""
    __slots__ = ("formula", "_args", "kwargs", "slots")


def _check_inference_saved(formula, args, kwargs, slots, skip=None):
    """torch's error when the formula would save (read) an inference tensor (Note [Inference
    storages] in c10_lite/storage.h); `skip`: a tensor the recorder saves a copy of."""
    if not _C._inference_live() or formula is None or formula == "nondiff":
        return
    call = _Call()
    call.formula, call._args, call.kwargs = formula, args, kwargs
    call.slots = [(p, s, t.shape, t.dtype, t.requires_grad) for p, s, t in slots]
    ids, _ = _saved._read_by_formula(call, None)
    for _, _, t in slots:
        if t is not skip and id(t) in ids and _C.is_inference(t):
            raise RuntimeError(_INFERENCE_SAVED)


class Ctx:
    """What a recorded op keeps for its formula (see Note [Saved tensors]).  Reading args or
    out checks that their tensors were not written in place since the op ran."""
    __slots__ = ("name", "_args", "kwargs", "_out", "_out_refs", "slots", "shapes",
                 "_arg_versions", "_out_versions", "multi", "formula", "packed", "_nonleaf",
                 "__weakref__")

    @property
    def args(self):
        self._check(self._arg_versions)
        return self._args

    @property
    def out(self):
        """The result, detached; with create_graph (grad mode on in the backward pass) the
        result itself while it lives, so that a formula reading it is differentiated through
        it too (exp, sigmoid, ...)."""
        self._check(self._out_versions)
        return self._result()

    def out_reading(self, which):
        """`out`, checking the versions of only the outputs in `which` (the indices of those a
        formula reads: an output it does not read may have been written in place since)."""
        outs = self._out if self.multi else (self._out,)
        read = [outs[i] for i in which if i < len(outs)]
        self._check([(t, v) for t, v in self._out_versions if any(t is r for r in read)])
        return self._result()

    def _result(self):
        if _C.is_grad_enabled():
            outs = tuple(r() if r is not None else d for r, d in
                         zip(self._out_refs, self._out if self.multi else (self._out,)))
            if all(o is not None for o in outs):
                return outs if self.multi else outs[0]
        return self._out

    def _check(self, versions):
        nonleaf = getattr(self, "_nonleaf", None)
        for t, v in versions:
            if nonleaf and t.grad_fn is None and any(t is n for n in nonleaf):
                # an argument that had a history when saved lost it by detach_()
                raise RuntimeError(
                    "Trying to use a saved tensor that has been detached in-place, i.e. with "
                    ".detach_().This is not supported, please use out-of-place `.detach()` "
                    "instead")
            if t._version != v:
                raise RuntimeError(
                    "one of the variables needed for gradient computation has been modified by "
                    f"an inplace operation: [{t.type()} {list(t.shape)}], which is output 0 of "
                    f"{self.name}, is at version {t._version}; expected version {v} instead. "
                    "Hint: the backtrace further above shows the operation that failed to compute "
                    "its gradient. The variable in question was changed in there or anywhere "
                    "later. Good luck!")

    def saved(self, i, name=None, default=None):
        """Argument i (or keyword `name`), checked against in-place modification when it is a
        tensor (only that tensor: a formula that reads the index of a gather need not fail
        because the gathered input was written since)."""
        a = self._args[i] if len(self._args) > i else self.kwargs.get(name, default)
        if isinstance(a, _C.TensorBase):
            self._check([(t, v) for t, v in self._arg_versions if t is a])
        return a

    def needs(self, i):
        """Whether positional argument i (or keyword i) needs a gradient."""
        return any(pos == i and req for pos, _, _, _, req in self.slots)


_FORMULA_NAMES = {
    "add": "add", "subtract": "sub", "multiply": "mul", "true_divide": "div", "power": "pow",
    "negative": "neg", "absolute": "abs", "floor_divide": "floor_divide",
    "remainder": "remainder", "getitem": "__getitem__", "setitem": "__setitem__", "T": "T",
    "mT": "mT", "matmul": "matmul",
}

_OPERATORS = {
    "add": operator.add, "subtract": operator.sub, "multiply": operator.mul,
    "true_divide": operator.truediv, "floor_divide": operator.floordiv,
    "remainder": operator.mod, "power": operator.pow, "and": operator.and_,
    "or": operator.or_, "xor": operator.xor, "lshift": operator.lshift,
    "rshift": operator.rshift, "negative": operator.neg, "absolute": operator.abs,
    "getitem": operator.getitem, "T": operator.attrgetter("T"),
    "mT": operator.attrgetter("mT"),
    "inplace_add": operator.iadd, "inplace_subtract": operator.isub,
    "inplace_multiply": operator.imul, "inplace_true_divide": operator.itruediv,
    "inplace_floor_divide": operator.ifloordiv, "inplace_remainder": operator.imod,
    "inplace_power": operator.ipow, "inplace_and": operator.iand, "inplace_or": operator.ior,
    "inplace_xor": operator.ixor, "inplace_lshift": operator.ilshift,
    "inplace_rshift": operator.irshift, "setitem": operator.setitem,
}

# the in-place forms of view ops: on a view they give it another place in its base
_INPLACE_VIEW_OPS = frozenset({"as_strided_", "transpose_", "t_", "squeeze_", "unsqueeze_",
                               "swapdims_", "swapaxes_"})

# methods that change or read autograd state rather than compute: never recorded
_UNRECORDED = frozenset({"requires_grad_", "detach", "detach_"})


_formulas = None
_grad_specs = None
_canonical = None   # alias -> the row's name
_declared_formulas = {}


def _load():
    global _formulas, _grad_specs, _canonical
    from . import formulas
    from .._op_table import OPS
    _formulas = formulas
    _grad_specs = {r["name"]: r["grad"] for r in OPS}
    _canonical = {r["name"]: r["name"] for r in OPS}
    for r in OPS:
        for a in r["aliases"]:
            _grad_specs.setdefault(a, r["grad"])
            _canonical.setdefault(a, r["name"])


def _lookup(name):
    """The formula of op `name`: a function, "nondiff", or None (not implemented)."""
    if _formulas is None:
        _load()
    spec = _grad_specs.get(name, getattr(_formulas, "EXTRA", {}).get(name))
    if spec is None or spec == "nondiff":
        return spec
    if isinstance(spec, dict):
        op = _canonical.get(name, name)
        f = _declared_formulas.get(op)
        if f is None:
            f = _declared_formulas[op] = _declared.recorder_formula(op, spec)
        return f
    return getattr(_formulas, spec)


def _slots(args, kwargs):
    """(position or keyword, index in a list or None, tensor) of every tensor argument."""
    out = []
    for i, a in enumerate(args):
        if isinstance(a, _C.TensorBase):
            out.append((i, None, a))
        elif type(a) in (list, tuple):
            for j, t in enumerate(a):
                if isinstance(t, _C.TensorBase):
                    out.append((i, j, t))
    for k, a in kwargs.items():
        if k != "out" and isinstance(a, _C.TensorBase):
            out.append((k, None, a))
    return out


def record(key, self, args, kwargs):
    """Called by the C wrappers (Note [Recording an op]) and the Python forms of the op table
    (Note [Recording Python ops] in _op_forms.py): key is "<kind>.<name>", kind m (Tensor
    method), f (minitorch._C function), o (operator) or p (Python form; self is None).  While
    op watchers are active (forward AD, the profiler) every call comes here and goes through
    them first (Note [Op watchers])."""
    kwargs = kwargs or {}
    if _watch.active():
        return _watch.dispatch(key, self, args, kwargs, _record_watched)
    return _record(key, self, args, kwargs)


def _requires_grad(self, args, kwargs):
    if isinstance(self, _C.TensorBase) and self.requires_grad:
        return True
    return any(t.requires_grad for _, _, t in _slots(args, kwargs))


def _record_watched(key, self, args, kwargs):
    """A watched call: recorded when grad mode is on and an argument requires grad, else the
    op alone; unwatched while it runs (the entry points it calls come back here otherwise),
    but for the watchers that see inside ops a Python form's calls (Note [Watching inside ops]
    in _watch.py).  A composite ("c.") is its Python function: the ops it calls record."""
    kind, name = key[0], key[2:]
    if kind == "c":
        from .._op_forms import PY_IMPLS
        return PY_IMPLS[name](*args, **kwargs)
    with _watch.unwatched():
        if _C.is_grad_enabled() and _requires_grad(self, args, kwargs):
            return _record(key, self, args, kwargs)
        fn = _entry(kind, name)
        return fn(self, *args, **kwargs) if kind == "m" else fn(*args, **kwargs)


def _entry(kind, name):
    if kind == "m":
        return getattr(_C.TensorBase, name)
    if kind == "f":
        return getattr(_C, name)
    if kind == "p":                      # a Python form (Note [Recording Python ops])
        from .._op_forms import PY_IMPLS
        fn = PY_IMPLS[name]
        return _watch.seen_inside(fn) if _watch.sees_inside() else fn
    return _OPERATORS[name]


def _record(key, self, args, kwargs, fn=None):
    """Runs and records the call; fn: what computes it (the entry point of key unless given:
    a __torch_dispatch__ handler, Note [Python dispatch] in _python_dispatch.py)."""
    kind, name = key[0], key[2:]
    if name == "numpy" and kind == "m" and not (args[0] if args else kwargs.get("force")):
        raise RuntimeError("Can't call numpy() on Tensor that requires grad. Use "
                           "tensor.detach().numpy() instead.")
    if name in _UNRECORDED:
        prev = _grad_off()
        try:
            if fn is not None:
                return fn(self, *args, **kwargs) if kind == "m" else fn(*args, **kwargs)
            fn = getattr(_C.TensorBase, name) if kind == "m" else getattr(_C, name)
            return fn(self, *args, **kwargs) if kind == "m" else fn(*args, **kwargs)
        finally:
            _C._set_grad_mode(prev)
    if fn is None:
        fn = _entry(kind, name)
    if kind == "m":
        args = (self,) + args
    inplace = (kind in "mp" and name.endswith("_") and not name.endswith("__")) or \
        name.startswith("inplace_") or name == "setitem"
    if "out" in kwargs and kwargs["out"] is not None:
        prev = _grad_off()
        try:
            # an input or the out= tensor requires grad (else the call is not recorded): an
            # error, unless the op has no derivative (comparisons, ...), as torch
            if _lookup(_FORMULA_NAMES.get(name, name) if kind == "o" else name) != "nondiff":
                raise RuntimeError(
                    f"{name}(): functions with out=... arguments don't support automatic "
                    "differentiation, but one of the arguments requires grad.")
            return fn(*args, **kwargs)
        finally:
            _C._set_grad_mode(prev)
    if name in ("requires_grad_", "detach", "detach_"):
        prev = _grad_off()               # not ops: they set or drop the history themselves
        try:
            return fn(*args, **kwargs)
        finally:
            _C._set_grad_mode(prev)
    if inplace:
        return _record_inplace(kind, name, fn, args, kwargs)
    opname = _FORMULA_NAMES.get(name, name) if kind == "o" else name
    prev = _grad_off()
    try:
        out = fn(*args, **kwargs)
    finally:
        _C._set_grad_mode(prev)
    return _attach(opname, args, kwargs, out)


def _attach(opname, args, kwargs, out):
    multi = isinstance(out, tuple)
    outs = out if multi else (out,)
    # (views of inference tensors get no history: Note [Inference storages])
    diff = [isinstance(o, _C.TensorBase) and _is_float(o) and not _C.is_inference(o)
            for o in outs]
    if not any(diff):
        return out
    if not multi and len(args) and out is args[0]:
        return out                       # the op returned its input (x.float() of a float)
    formula = _lookup(opname)
    if formula == "nondiff":
        return out
    if formula is None:
        raise NotImplementedError(f"the derivative for '{opname}' is not implemented")
    slots = _slots(args, kwargs)
    _check_inference_saved(formula, args, kwargs, slots)
    ctx = Ctx()
    # x[key] is named after the op torch's indexing applies last (SelectBackward0, ...)
    ctx.name = node_name(opname) if opname != "__getitem__" else \
        _formulas.getitem_node_name(args[0], args[1])
    ctx._args, ctx.kwargs, ctx.multi, ctx.formula = args, kwargs, multi, formula
    ctx.slots = [(p, s, t.shape, t.dtype, t.requires_grad) for p, s, t in slots]
    detached = tuple(_detach(o) if isinstance(o, _C.TensorBase) else o for o in outs)
    ctx._out = detached if multi else detached[0]
    ctx._out_refs = [weakref.ref(o) if d else None for o, d in zip(outs, diff)]
    ctx.shapes = [(o.shape, o.dtype) if d else None for o, d in zip(outs, diff)]
    ctx._arg_versions = [(t, t._version) for _, _, t in slots]
    ctx._nonleaf = [t for _, _, t in slots if t.grad_fn is not None]
    ctx._out_versions = [(t, t._version) for t in detached if isinstance(t, _C.TensorBase)]
    node = graph.node_class(ctx.name)(_apply, ctx, [t for _, _, t in slots], len(outs))
    if getattr(formula, "saves_nothing", False):
        # reads only shapes and non-tensor arguments: keeps no tensor, and may run again
        ctx._args = tuple(None if isinstance(a, _C.TensorBase) else a for a in args)
        ctx._arg_versions, ctx._nonleaf = [], []
        node._saves_nothing = True
    hooks = _saved.top() if _saved.active else None  # Note [Saved-tensor hooks]
    for k, (o, d) in enumerate(zip(outs, diff)):
        if d:
            _C._set_history(o, node, k)
            base = o._base
            if base is not None and base.grad_fn is not None:
                _register_view(base, o)
    if hooks is not None:
        _saved.pack_ctx(ctx, hooks, outs)
    return out


def _detach(t):
    """t without history, as a node keeps it: t.detach(), or a __torch_dispatch__ wrapper's
    shallow copy, its handler not asked (Note [Python dispatch] in _python_dispatch.py)."""
    if type(t) is not _C.TensorBase and _python_dispatch.is_dispatch_type(type(t)):
        return _python_dispatch.shallow_detach(t)
    if _python_dispatch.modes_active():
        with _watch.unwatched():         # not an op of the program: modes do not see it
            return t.detach()
    return t.detach()


def _rehistory(t, node, nr):
    """An in-place op gives t the history (node, nr); its retain_grad hook follows it (Note
    [Hook order] in graph.py)."""
    old = t._grad_fn                     # (as it is: a stale view's is not made again)
    moved = t._retains_grad and old is not None and old._take_retain_grad(t)
    _C._set_history(t, node, nr)
    if moved:
        node._register_retain_grad(nr, t)


def _record_inplace(kind, name, fn, args, kwargs):
    """An in-place op on a tensor: it becomes the op's output, its old history the op's input."""
    self = args[0]
    base = self._base
    if base is not None:
        # a view made in no_grad or inference mode, one of several views of one op, a custom
        # Function's: torch's error (Note [Creation meta of views] in csrc/autograd/autograd.h)
        _C._check_view_inplace(self)
        if self.requires_grad and base.is_leaf:
            raise RuntimeError("a view of a leaf Variable that requires grad is being used in an "
                               "in-place operation.")
    if self.requires_grad and self.is_leaf:
        raise RuntimeError("a leaf Variable that requires grad is being used in an in-place "
                           "operation.")
    slots = _slots(args, kwargs)
    on_view = base is not None and (base.requires_grad or any(t.requires_grad for _, _, t in slots))
    if on_view and name in _INPLACE_VIEW_OPS:
        # the view takes another place in its base: its history is that place of the base's
        # (as torch's as_strided history of a view), its values are unchanged
        prev = _grad_off()
        try:
            out = fn(*args, **kwargs)
        finally:
            _C._set_grad_mode(prev)
        if base.requires_grad and _is_float(self):
            _rehistory(self, _view_node(_Layout(base), _geometry(self, base), base), 0)
        return out
    if on_view:
        if name in ("resize_", "resize_as_", "set_"):
            raise RuntimeError(f"{name}(): cannot change the layout of a view of a tensor that "
                               "requires grad")
    if name in ("resize_", "resize_as_") and self.requires_grad:
        raise RuntimeError("cannot resize variables that require grad")
    if name == "set_":
        raise NotImplementedError("the derivative for 'set_' is not implemented")
    if name == "as_strided_" and (self.storage_offset() or not self.is_contiguous()):
        # its formula reads the layout of self's copy (contiguous, offset 0)
        raise NotImplementedError("the derivative of as_strided_ on a tensor that is not "
                                  "contiguous from offset 0 is not implemented")
    opname = {"setitem": "__setitem__"}.get(name)
    if opname is None:
        if name.startswith("inplace_"):
            opname = _FORMULA_NAMES.get(name[8:], name[8:])
        else:                            # add_ -> add; copy_, uniform_ are rows themselves
            opname = name if _lookup(name) is not None else name[:-1]
    formula = _lookup(opname)
    if formula is None:
        raise NotImplementedError(f"the derivative for '{opname}' is not implemented")
    _check_inference_saved(formula, args, kwargs, slots, skip=self)
    shape, dtype = self.shape, self.dtype
    prev = _grad_off()
    try:
        old = self.clone() if formula != "nondiff" else None  # self's values, for the formula
        out = fn(*args, **kwargs)
    finally:
        _C._set_grad_mode(prev)
    if not _is_float(self):
        return out
    if formula == "nondiff":
        # the values written (random, 0/1 of a comparison) do not depend on self's: as torch,
        # self keeps requiring grad, with zero gradient to its history
        if not self.requires_grad:
            return out
        formula = _formulas.zeros
    if on_view:
        return _rebase_view(self, base, opname, formula, old, args, kwargs, slots, out)
    if old is not None and self.grad_fn is not None:
        # the old values carry self's history as it was, so that with create_graph the
        # formula's use of them is differentiated too
        _C._set_history(old, self.grad_fn, self.output_nr)
    # the node's inputs: self as it was (its current history; its values in `old`) and the
    # other arguments
    ctx = Ctx()
    ctx.name = node_name(opname)
    ctx._args = (old,) + tuple(args[1:])
    ctx.kwargs, ctx.multi, ctx.formula = kwargs, False, formula
    ctx.slots = [(p, s, shape if t is self else t.shape, dtype if t is self else t.dtype,
                  t.requires_grad) for p, s, t in slots]
    ctx._out = _detach(self)
    ctx._out_refs = [weakref.ref(self)]
    ctx.shapes = [(self.shape, self.dtype)]
    ctx._arg_versions = [(t, t._version) for _, _, t in slots if t is not self]
    ctx._out_versions = [(ctx._out, ctx._out._version)]
    node = graph.node_class(ctx.name)(_apply, ctx, [t for _, _, t in slots], 1)
    _rehistory(self, node, 0)
    hooks = _saved.top() if _saved.active else None
    if hooks is not None:
        _saved.pack_ctx(ctx, hooks, (self,))  # Note [Saved-tensor hooks]
    return out


# Note [In-place ops on views]
# An in-place op on a view v of a base b (b._base is the root: the tensor that owns the
# storage) changes b's values too, so b's history must change with them, as torch does with
# its CopySlices node: b gets a new node whose inputs are b as it was and the op's other
# arguments.  Its backward takes b's gradient, runs the op's formula on the part of it that
# lies under v (the view's geometry, relative to b's storage) and puts the formula's gradient
# for v's old values back in that place; outside v the gradient passes through unchanged.
# v itself becomes a view of the new b (an AsStridedBackward0 node: its gradient lands in a
# zero gradient of b's shape, at v's place).  So do the other views of b that have a history
# (the recorder keeps a weak set of them per base): they read b's new values, so their history
# is b's new one.


def _geometry(v, base):
    """v's shape, strides and offset relative to a buffer laid out as base."""
    return tuple(v.shape), v.stride(), v.storage_offset() - base.storage_offset()


def _rebase_view(view, base, opname, formula, old, args, kwargs, slots, out):
    """The history of an in-place op on a view (Note [In-place ops on views])."""
    if base.numel() > 1 and 0 in base.stride():
        raise NotImplementedError("in-place operation on a view of an expanded tensor that "
                                  "requires grad (its elements overlap)")
    layout = _Layout(base)  # the node keeps this, not base (its own output)
    geom = _geometry(view, base)
    if old is not None and base.requires_grad:
        # the view's old values carry the base's history as it was (through a node that keeps
        # no tensor: the view's own node keeps the base, whose new history leads back here)
        _C._set_history(old, _view_node(layout, geom, base), 0)
    ctx = Ctx()
    ctx.name = "CopySlices"
    ctx._args = (old,) + tuple(args[1:])
    ctx.kwargs, ctx.multi, ctx.formula = kwargs, False, formula
    ctx.slots = [(p, s, view.shape if t is view else t.shape,
                  view.dtype if t is view else t.dtype, t.requires_grad) for p, s, t in slots]
    ctx._out = _detach(view)
    ctx._out_refs = [weakref.ref(view)]
    ctx.shapes = [(view.shape, view.dtype)]
    ctx._arg_versions = [(t, t._version) for _, _, t in slots if t is not view]
    ctx._out_versions = [(ctx._out, ctx._out._version)]
    is_view = [t is view for _, _, t in slots]

    def copy_slices(node, grads):
        g = grads[0]
        if g is None:
            return [None] * (1 + is_view.count(False))
        gb = _like(g, layout)
        region = gb.as_strided(*geom)
        per_slot = _apply(node, [region.clone()])
        gv = None                        # the view's old values (once per time it is an argument)
        for gi, v in zip(per_slot, is_view):
            if v and gi is not None:
                gv = gi if gv is None else gv + gi
        if gv is None:
            region.zero_()
        else:
            region.copy_(gv)
        return [gb] + [gi for gi, v in zip(per_slot, is_view) if not v]

    node = graph.node_class("CopySlices")(copy_slices, ctx,
                                          [base] + [t for t, v in zip((t for _, _, t in slots),
                                                                      is_view) if not v], 1)
    _rehistory(base, node, 0)
    hooks = _saved.top() if _saved.active else None
    if hooks is not None:
        _saved.pack_ctx(ctx, hooks, None)  # Note [Saved-tensor hooks]

    _rehistory(view, _view_node(layout, geom, base), 0)
    entry = _views.get(id(base))
    others = [r() for r in entry[1].values()] if entry is not None and entry[0]() is base else []
    for other in others:  # the views taken before: their history too
        if other is not None and other is not view and other.requires_grad:
            _rehistory(other, _view_node(layout, _geometry(other, base), base), 0)
    return out


def rebase_function_view(view, fn_node, k, inputs, apply):
    """A custom Function marked its input k, the view `view`, dirty: as for an op's in-place
    write to a view (Note [In-place ops on views]), the base's history becomes a CopySlices
    whose backward runs the Function's (apply(fn_node, grads)) on the view's part of the base's
    gradient, and the view's history its place in it.  inputs: the Function's tensor inputs
    (None for the others)."""
    base = view._base
    layout, geom = _Layout(base), _geometry(view, base)
    others = [i for i, t in enumerate(inputs) if t is not None and i != k]

    def copy_slices(node, grads):
        g = grads[0]
        if g is None:
            return [None] * (1 + len(others))
        gb = _like(g, layout)
        region = gb.as_strided(*geom)
        per = apply(fn_node, (region.clone(),))
        if per[k] is None:
            region.zero_()
        else:
            region.copy_(per[k])
        return [gb] + [per[i] for i in others]

    node = graph.node_class("CopySlices")(copy_slices, Ctx(), [base] + [inputs[i] for i in others],
                                          1)
    _rehistory(base, node, 0)
    _rehistory(view, _view_node(layout, geom, base), 0)


def regenerate_view(view):
    """The history of a view whose base (or another view of it) was written in place since the
    view's history was set: its place in the base's current history (Note [Lazy view history]
    in csrc/autograd/autograd.h)."""
    base = view._base
    _C._set_history(view, _view_node(_Layout(base), _geometry(view, base), base), 0)


def _view_node(layout, geom, base):
    """The history of a view (geometry geom) of base, as base's history stands now: its
    gradient lands at its place in a zero gradient of base's shape."""
    def as_strided_backward(node, grads):
        g = grads[0]
        if g is None:
            return [None]
        gb = _like(_C.zeros(layout.shape, dtype=layout.dtype), layout)
        gb.as_strided(*geom).copy_(g)
        return [gb]
    return graph.node_class("AsStridedBackward0")(as_strided_backward, Ctx(), [base], 1)


# id(base) -> (weak reference to base, {id(view): weak reference to view}) for the views
# with a history of bases that are not leaves (an in-place op on a view of a leaf that
# requires grad is an error, so leaves are never rebased) (Note [In-place ops on views]).
# Tensors compare elementwise, so the keys are ids; entries leave with their tensors.
_views = {}


def _register_view(base, view):
    key = id(base)
    entry = _views.get(key)
    if entry is None or entry[0]() is not base:
        entry = _views[key] = (weakref.ref(base, lambda _, key=key: _views.pop(key, None)), {})
    views, vkey = entry[1], id(view)
    views[vkey] = weakref.ref(view, lambda _, views=views, vkey=vkey: views.pop(vkey, None))


class _Layout:
    """A base tensor's shape, strides, offset and dtype, kept without the tensor."""
    __slots__ = ("shape", "stride", "offset", "dtype")

    def __init__(self, t):
        self.shape, self.stride = tuple(t.shape), t.stride()
        self.offset, self.dtype = t.storage_offset(), t.dtype


def _like(g, layout):
    """A copy of gradient g (the base's shape) laid out with the base's strides, so that a
    view's _geometry addresses it."""
    out = _C.empty_strided(layout.shape, layout.stride, dtype=g.dtype)
    out.copy_(g)
    return out


def _zeros(shape_dtype):
    shape, dtype = shape_dtype
    return _C.zeros(shape, dtype=dtype)


def _sum_to(g, shape):
    """g summed over the dimensions broadcasting added or expanded, to `shape`."""
    if g.shape == shape:
        return g
    lead = g.dim() - len(shape)
    dims = list(range(lead)) + [lead + i for i, n in enumerate(shape)
                                if n == 1 and g.shape[lead + i] != 1]
    if dims:
        g = g.sum(dims, keepdim=True)
    if lead:
        g = g.reshape(shape)
    return g if g.shape == shape else g.reshape(shape)


def _fit(g, shape, dtype):
    """A formula's gradient for an input of this shape and dtype: summed to the shape (see
    Note [Formulas]), in the dtype."""
    if not isinstance(g, _C.TensorBase):
        if g is None:
            return None
        g = _C.full(shape, g, dtype=dtype)
    if g.shape != shape:
        g = _sum_to(g, shape)
    if g.dtype != dtype:
        if g.dtype.is_complex and not dtype.is_complex:
            g = g.real
        g = g.to(dtype)
    return g


def _apply(node, grads):
    """A recorded op's backward (the engine calls it; see Note [Formulas])."""
    ctx = node._ctx
    if _saved.ever and getattr(ctx, "packed", False):
        with _saved.unpacked_ctx(ctx, node):  # Note [Saved-tensor hooks]
            return _apply_formula(ctx, grads)
    return _apply_formula(ctx, grads)


def _apply_formula(ctx, grads):
    if ctx.multi:
        g = tuple(gr if gr is not None else (_zeros(s) if s is not None else None)
                  for gr, s in zip(grads, ctx.shapes))
    else:
        g = grads[0]
    r = ctx.formula(ctx, g)
    if isinstance(r, dict):
        get = r.get
    else:
        r = tuple(r) if isinstance(r, (tuple, list)) else (r,)
        get = (lambda i, d=None: r[i] if isinstance(i, int) and i < len(r) else d)
    out = []
    for pos, sub, shape, dtype, req in ctx.slots:
        if not req:
            out.append(None)
            continue
        gi = get(pos)
        if sub is not None and gi is not None:
            gi = gi[sub]
        out.append(_fit(gi, shape, dtype))
    return out


_C._set_recorder(record)
_C._set_view_regenerator(regenerate_view)
_C._set_declared_hooks(graph.node_class, _declared.node_apply, _register_view)
