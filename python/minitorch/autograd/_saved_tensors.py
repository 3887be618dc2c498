"""Saved-tensor hooks: the per-thread stack of (pack, unpack) pairs that
autograd.graph.saved_tensors_hooks pushes, and the packing of what nodes save.

Note [Saved-tensor hooks]
While a pair of hooks is pushed on a thread, every tensor a node recorded on that thread saves
for its backward goes through pack_hook when the node is made, and the node keeps only what
pack_hook returned; its backward gets the tensor back from unpack_hook(packed).  The nodes of
the Python recorder (_record.py) pack the tensors their formula reads: for a declared
derivative the tensor arguments (and the result) that a formula of an argument that requires
grad reads, for a Python formula every tensor argument and the result.  The C recorder saves
impls that Python cannot see, so while hooks are pushed the C recorder hands every call to the
Python recorder (Note [Anomaly mode and node hooks] in csrc/autograd/autograd.h), and C
backward formulas are not attached.  autograd.Function nodes pack what save_for_backward was
given, once forward has returned; ctx.saved_tensors unpacks on each access.  As torch does, the
pack hook runs with grad mode off and must not write its input in place, saved tensors that
went through hooks are not checked against in-place writes, and an unpacked tensor carries the
history of the tensor that was saved (an output of the node: the node itself; a leaf: its
accumulator), so that it requires grad as the saved tensor did and a backward pass that
creates a graph differentiates through it."""
import threading

from .. import _C

_tls = threading.local()
_lock = threading.Lock()
active = 0  # threads with hooks pushed: the recorder looks no further while it is 0
ever = False  # hooks were pushed once (nodes may hold packed tensors)


def _stack():
    s = getattr(_tls, "stack", None)
    if s is None:
        s = _tls.stack = []
    return s


def push(pack_hook, unpack_hook):
    global active, ever
    msg = getattr(_tls, "disabled", None)
    if msg is not None:
        raise RuntimeError(msg)
    s = _stack()
    s.append((pack_hook, unpack_hook))
    ever = True
    if len(s) == 1:
        with _lock:
            active += 1
    _C._set_python_recording(True)


def pop():
    global active
    s = _stack()
    if s:
        s.pop()
        if not s:
            with _lock:
                active -= 1
    _C._set_python_recording(bool(s))


def snapshot():
    """This thread's stack of hooks (a copy), for restore()."""
    return list(getattr(_tls, "stack", None) or ())


def restore(saved):
    """Sets this thread's stack back to a snapshot(): a backward pass runs with the hooks of
    its caller, and hooks its nodes push or pop last only as long as the pass (torch restores
    its thread-local state likewise)."""
    global active
    s = _stack()
    if s == saved:
        return
    was = bool(s)
    s[:] = saved
    if was != bool(s):
        with _lock:
            active += 1 if s else -1
    _C._set_python_recording(bool(s))


def top():
    """The innermost (pack, unpack) pair of this thread, or None."""
    if not active:
        return None
    s = getattr(_tls, "stack", None)
    return s[-1] if s else None


def disabled_message():
    return getattr(_tls, "disabled", None)


def disable(message):
    """Pushing hooks raises RuntimeError(message) from now on (an error at once when hooks are
    pushed already)."""
    _tls.disabled = message
    if getattr(_tls, "stack", None):
        raise RuntimeError(message)


def enable():
    _tls.disabled = None


class Packed:
    """What a node keeps of a saved tensor: pack_hook's result, the unpack hook, and where the
    tensor's gradient went (its grad_fn and output_nr, a leaf's accumulator, or which output of
    the node it was), for backward passes that create a graph."""
    __slots__ = ("value", "unpack", "edge", "output_nr")

    def unpacked(self, node=None):
        t = self.unpack(self.value)
        if not isinstance(t, _C.TensorBase):
            raise TypeError("Output of saved tensor unpack_hook expected to be a Tensor but got "
                            f"result of type {type(t).__name__}")
        if self.output_nr is not None and node is not None:
            t = t.detach()
            _C._set_history(t, node, self.output_nr)
        elif self.edge is not None:
            t = t.detach()
            _C._set_history(t, *self.edge)
        return t


def pack(t, hooks, output_nr=None):
    """t through the pack hook of `hooks` (a Packed)."""
    pack_hook, unpack_hook = hooks
    version = t._version
    prev = _C._set_grad_enabled(False)
    try:
        value = pack_hook(t)
    finally:
        _C._set_grad_enabled(prev)
    if t._version != version:
        raise RuntimeError("A saved tensor pack hook is modifying its input in place. Tensors "
                           "provided as input to pack hook cannot be modified by in-place "
                           "operations as this can lead to unexpected side-effects. Please open "
                           "an issue if you need to perform in-place operations on the input to "
                           "a pack hook.")
    p = Packed()
    p.value, p.unpack, p.output_nr, p.edge = value, unpack_hook, output_nr, None
    if output_nr is None:
        if t.grad_fn is not None:
            p.edge = (t.grad_fn, t.output_nr)
        elif t.requires_grad:
            p.edge = (_C._grad_accumulator(t), 0)
    return p


def _unpack_item(a, node):
    if type(a) is Packed:
        return a.unpacked(node)
    if type(a) in (list, tuple) and any(type(x) is Packed for x in a):
        return type(a)(x.unpacked(node) if type(x) is Packed else x for x in a)
    return a


# ---- the Python recorder's nodes (Ctx of _record.py) ----------------------------------------

def _read_by_formula(ctx, outs):
    """(ids of the tensor arguments the formula reads, whether it reads the result)."""
    from . import _declared
    c = getattr(ctx.formula, "declared", None)
    args = ctx._args
    if c is None:
        # a Python formula: every tensor argument, and the result when the formula names it
        # (a result it reads through a helper is kept as it is, not packed)
        ids = set()
        for a in list(args) + list(ctx.kwargs.values()):
            if isinstance(a, _C.TensorBase):
                ids.add(id(a))
            elif type(a) in (list, tuple):
                ids.update(id(x) for x in a if isinstance(x, _C.TensorBase))
        code = getattr(ctx.formula, "__code__", None)
        return ids, code is None or "out" in code.co_names
    values = c.bind(args, ctx.kwargs)
    if values is None:
        return set(), True
    read = set()
    for p in c.decl.params:
        if p.name in c.decl.formulas and _declared._wants(ctx, p):
            read |= c.reads[p.name]
    ids = {id(values[n]) for n in read
           if n in values and isinstance(values[n], _C.TensorBase)}
    return ids, bool(read & {"result", "results"})


def _pack_one(a, hooks, ids, output_nr=None):
    """An argument (or output output_nr) of a recorded op as its node keeps it: packed when the
    formula reads it (each saved place once, as torch), a list of them likewise."""
    if isinstance(a, _C.TensorBase) and (output_nr is not None or id(a) in ids):
        return pack(a, hooks, output_nr)
    if type(a) in (list, tuple) and output_nr is None and \
            any(isinstance(x, _C.TensorBase) and id(x) in ids for x in a):
        return type(a)(_pack_one(x, hooks, ids) for x in a)
    return a


def pack_ctx(ctx, hooks, outs):
    """Packs the tensors a recorded op's formula reads (Note [Saved-tensor hooks]); `outs` are
    the op's results, with their history (None: the results are kept as they are, for a node
    whose outputs are not the op's: CopySlices).  The ctx keeps the packed forms until its
    formula runs (unpacked_ctx)."""
    if ctx.formula is None:
        return
    ids, reads_out = _read_by_formula(ctx, outs)
    reads_out = reads_out and outs is not None
    args = tuple(_pack_one(a, hooks, ids) for a in ctx._args)
    kwargs = {k: _pack_one(v, hooks, ids) for k, v in ctx.kwargs.items()}
    out = ctx._out
    if reads_out:
        po = tuple(_pack_one(o, hooks, ids, k) if isinstance(o, _C.TensorBase) and o.requires_grad
                   else d
                   for k, (o, d) in enumerate(zip(outs, ctx._out if ctx.multi else (ctx._out,))))
        out = po if ctx.multi else po[0]
        ctx._out_refs = [None] * len(ctx._out_refs)
    ctx._args, ctx.kwargs, ctx._out = args, kwargs, out
    ctx._arg_versions, ctx._out_versions = [], []
    ctx.packed = True


class unpacked_ctx:
    """Within the block the ctx holds the unpacked tensors (once per run of its formula)."""
    __slots__ = ("ctx", "node", "saved")

    def __init__(self, ctx, node):
        self.ctx, self.node = ctx, node

    def __enter__(self):
        ctx, node = self.ctx, self.node
        self.saved = (ctx._args, ctx.kwargs, ctx._out)
        ctx._args = tuple(_unpack_item(a, node) for a in ctx._args)
        ctx.kwargs = {k: _unpack_item(v, node) for k, v in ctx.kwargs.items()}
        out = ctx._out
        ctx._out = tuple(_unpack_item(o, node) for o in out) if ctx.multi else \
            _unpack_item(out, node)
        return ctx

    def __exit__(self, *exc):
        self.ctx._args, self.ctx.kwargs, self.ctx._out = self.saved
