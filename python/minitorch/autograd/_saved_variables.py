"""The tensors a node saved, as torch shows them: grad_fn._saved_<name> (the value a formula
reads: a tensor, unpacked through its hooks when it has some, or a number, a tuple, ...),
grad_fn._raw_saved_<name> and _raw_saved_tensors (SavedTensor handles, on which a pair of
hooks can be registered), and a custom Function node's saved_tensors.

Note [Saved variables]
A node keeps what its formula reads in one of three places: a node recorded in C keeps its
parameters' values in its C state (read with _C._dvalues, named by the declaration's
parameters; its results as `result`, `result1`, ...), a node of the Python recorder in its Ctx
(_record.py: the call's arguments, bound to the declaration's names when the op declares its
derivative, and the result), an autograd.Function node in its FunctionCtx (save_for_backward).
A SavedTensor names one such place.  Registering hooks on it packs the tensor at once and keeps
only the packed form (Note [Saved-tensor hooks] in _saved_tensors.py): a Ctx or FunctionCtx
keeps it in place of the tensor; a C node forgets the tensor (_C._dnode_hook_saved) and keeps
the packed form in its ctx dict, then runs its Python form (_declared.node_apply), which
unpacks it.  Once the node has run (without retain_graph) its saved values are gone, and
reading them raises torch's error."""
from .. import _C
from . import _saved_tensors as _saved

__all__ = ["SavedTensor"]

_FREED = (
    "Trying to backward through the graph a second time (or directly access saved tensors after "
    "they have already been freed). Saved intermediate values of the graph are freed when you "
    "call .backward() or autograd.grad(). Specify retain_graph=True if you need to backward "
    "through the graph a second time or if you need to access saved tensors after calling "
    "backward.")


class SavedTensor:
    """A tensor saved for a backward formula (torch._C._autograd.SavedTensor): unpack() gives
    it back, register_hooks(pack_hook, unpack_hook) makes it saved through a pair of hooks."""
    __slots__ = ("_slot",)

    def __new__(cls, *args, **kwargs):
        raise RuntimeError("Trying to create a SavedTensor object from Python is forbidden.")

    def register_hooks(self, *args, **kwargs):
        if kwargs or len(args) != 2 or not all(callable(a) for a in args):
            raise TypeError(
                "register_hooks(): incompatible function arguments. The following argument types "
                "are supported:\n    1. (self: torch._C._autograd.SavedTensor, arg0: "
                "collections.abc.Callable, arg1: collections.abc.Callable) -> None\n\nInvoked "
                f"with: {self!r}" + "".join(f", {a!r}" for a in args))
        slot = self._slot
        if slot.freed():
            raise RuntimeError(
                "Calling register_hooks on a saved tensor after it has been freed. Saved "
                "intermediate values of the graph are freed when you call .backward() or "
                "autograd.grad(). Specify retain_graph=True if you need to backward through the "
                "graph a second time or if you need to access saved variables after calling "
                "backward.")
        raw = slot.raw()
        if raw is None:
            raise RuntimeError("Calling register_hooks on a saved tensor with value None is "
                               "forbidden")
        if type(raw) is _saved.Packed:
            raise RuntimeError("Calling register_hooks on a saved tensor whose hooks have already "
                               "been set. Hint: only one pair of hooks is allowed at a time.")
        packed = _saved.pack(slot.tensor(), args, slot.output_nr)
        _saved.ever = True                # (nodes may hold packed tensors from now on)
        slot.store(packed)

    def unpack(self):
        slot = self._slot
        if slot.freed():
            raise RuntimeError(_FREED)
        raw = slot.raw()
        if type(raw) is _saved.Packed:
            return raw.unpacked(slot.node())
        return slot.tensor() if raw is not None else None

    @property
    def data(self):
        """What the node keeps: the packed object when hooks were registered, else the tensor
        (an output's without its history); None once freed."""
        slot = self._slot
        if slot.freed():
            return None
        raw = slot.raw()
        if type(raw) is _saved.Packed:
            return raw.value
        if raw is not None and slot.output_nr is not None:
            return raw.detach()
        return raw

    @property
    def unpack_hook(self):
        raw = None if self._slot.freed() else self._slot.raw()
        return raw.unpack if type(raw) is _saved.Packed else None


def _handle(slot):
    h = object.__new__(SavedTensor)
    h._slot = slot
    return h


class _Slot:
    """One saved place of a node (Note [Saved variables])."""
    output_nr = None                      # which output of the node it is, for outputs

    def node(self):
        return self._node

    def tensor(self):
        """The saved tensor as its formula reads it (hooks not applied)."""
        return self.raw()


# ---- nodes recorded in C ----------------------------------------------------------------------

class _CSlot(_Slot):
    def __init__(self, node, which, name):
        self._node, self.which, self.name = node, which, name
        if which < 0:
            self.output_nr = -which - 1

    def freed(self):
        return self._node._released or self._node._cformula is None

    def raw(self):
        hooked = self._node._ctx
        if hooked is not None and self.name in hooked:
            return hooked[self.name]
        _, values, results, _, _, _ = _C._dvalues(self._node)
        v = results[self.output_nr] if self.which < 0 else values[self.which]
        return v if isinstance(v, _C.TensorBase) else None

    def store(self, packed):
        _C._dnode_hook_saved(self._node, self.which)[self.name] = packed


def _c_attr(node, name, raw):
    """_saved_<name> / _raw_saved_<name> of a node recorded in C; AttributeError when the node
    keeps no such value."""
    from . import _declared
    op = node._cformula
    if op is None:
        if node._released:
            raise RuntimeError(_FREED)
        raise AttributeError(name)
    params = _declared.compiled(op).decl.params
    names = [p.name for p in params]
    hooked = node._ctx
    _, values, results, _, _, _ = _C._dvalues(node)
    if name in names:
        k = names.index(name)
        v = values[k]
        if params[k].is_tensor and type(v) is tuple and not (hooked and name in hooked):
            raise AttributeError(name)    # not saved: the formulas do not read it
        tensor = isinstance(v, _C.TensorBase) or (hooked is not None and name in hooked)
        slot = _CSlot(node, k, name) if tensor else None
    else:
        i = _result_index(name)
        if i is None or i >= len(results) or (results[i] is None and
                                               not (hooked and name in hooked)):
            raise AttributeError(name)
        slot = _CSlot(node, -i - 1, name)
        v = results[i]
    if slot is None:
        if raw:
            raise AttributeError(name)
        return v
    if raw:
        return _handle(slot)
    return _handle(slot).unpack()


def _result_index(name):
    if name == "result":
        return 0
    if name.startswith("result") and name[6:].isdigit():
        return int(name[6:])
    return None


def node_apply_values(node, env, c, results):
    """The Python form of a C node (_declared.node_apply): the values of its saved tensors that
    went through hooks, unpacked."""
    hooked = node._ctx
    if not hooked:
        return results
    results = list(results)
    for name, packed in hooked.items():
        t = packed.unpacked(node)
        i = _result_index(name)
        if i is None:
            env[name] = t
        else:
            results[i] = t
    return tuple(results)


# ---- nodes of the Python recorder (Ctx, _record.py) ---------------------------------------------

class _PySlot(_Slot):
    def __init__(self, node, where, name):
        self._node, self.where, self.name = node, where, name
        if where[0] == "out":
            self.output_nr = where[1]

    def _ctx(self):
        return self._node._ctx

    def freed(self):
        return self._node._released or self._ctx() is None

    def raw(self):
        ctx, (kind, key) = self._ctx(), self.where
        if kind == "arg":
            return ctx._args[key]
        if kind == "kw":
            return ctx.kwargs[key]
        return ctx._out[key] if ctx.multi else ctx._out

    def tensor(self):
        t = self.raw()
        if self.output_nr is not None and type(t) is not _saved.Packed:
            t = t.detach()
            _C._set_history(t, self._node, self.output_nr)
        return t

    def store(self, packed):
        ctx, (kind, key) = self._ctx(), self.where
        old = self.raw()
        if kind == "arg":
            args = list(ctx._args)
            args[key] = packed
            ctx._args = tuple(args)
        elif kind == "kw":
            ctx.kwargs = dict(ctx.kwargs, **{key: packed})
        elif ctx.multi:
            out = list(ctx._out)
            out[key] = packed
            ctx._out = tuple(out)
            ctx._out_refs[key] = None
        else:
            ctx._out = packed
            ctx._out_refs = [None]
        # (a tensor saved through hooks is not checked against in-place writes, as torch)
        ctx._arg_versions = [(t, v) for t, v in ctx._arg_versions if t is not old]
        if kind == "out":
            ctx._out_versions = []
        ctx.packed = True


def _py_where(ctx, name):
    """Where parameter `name` of a Python-recorded node's op sits in its Ctx."""
    i = _result_index(name)
    if i is not None:
        n = len(ctx._out) if ctx.multi else 1
        return ("out", i) if i < n else None
    c = getattr(ctx.formula, "declared", None)
    if c is None:
        return None
    for p in c.decl.params:
        if p.name != name:
            continue
        if not p.kwonly and p.index < len(ctx._args):
            return ("arg", p.index)
        for key in (name, "input") if p.index == 0 else (name,):
            if key in ctx.kwargs:
                return ("kw", key)
        return ("default", p.default)
    return None


def _py_attr(node, name, raw):
    ctx = node._ctx
    if ctx is None:
        if node._released:
            raise RuntimeError(_FREED)
        raise AttributeError(name)
    where = _py_where(ctx, name)
    if where is None:
        raise AttributeError(name)
    if where[0] == "default":
        if raw:
            raise AttributeError(name)
        return where[1]
    slot = _PySlot(node, where, name)
    v = slot.raw()
    if isinstance(v, (_C.TensorBase, _saved.Packed)):
        return _handle(slot) if raw else _handle(slot).unpack()
    if raw:
        raise AttributeError(name)
    if type(v) in (list, tuple) and any(type(x) is _saved.Packed for x in v):
        return type(v)(x.unpacked(node) if type(x) is _saved.Packed else x for x in v)
    return v


# ---- autograd.Function nodes (FunctionCtx) -----------------------------------------------------

class _FnSlot(_Slot):
    def __init__(self, node, i):
        self._node, self.i = node, i
        nrs = node._ctx._saved_output_nrs
        self.output_nr = nrs[i] if i < len(nrs) else None

    def freed(self):
        ctx = self._node._ctx
        return ctx is None or ctx._released

    def raw(self):
        ctx = self._node._ctx
        p = ctx._packed[self.i] if ctx._packed is not None else None
        return p if p is not None else ctx._saved[self.i]

    def tensor(self):
        return self._node._ctx._saved[self.i]

    def store(self, packed):
        import weakref
        ctx = self._node._ctx
        ctx._packed = list(ctx._packed or (None,) * len(ctx._saved))
        ctx._packed[self.i] = packed
        ctx._node = weakref.ref(self._node)


def function_saved(node, raw):
    """A custom Function node's saved_tensors (raw: as SavedTensor handles)."""
    ctx = node._ctx
    if ctx is None or ctx._released:
        raise RuntimeError(_FREED)
    if not raw:
        return ctx.saved_tensors
    return tuple(_handle(_FnSlot(node, i)) for i in range(len(ctx._saved or ())))


def saved_attr(node, name):
    """node._saved_<x> / node._raw_saved_<x> (Note [Saved variables]); AttributeError for
    other names."""
    raw = name.startswith("_raw_saved_")
    if not raw and not name.startswith("_saved_"):
        raise AttributeError(name)
    key = name[len("_raw_saved_"):] if raw else name[len("_saved_"):]
    from .function import FunctionCtx
    ctx = node._ctx
    if isinstance(ctx, FunctionCtx):
        raise AttributeError(name)
    try:
        if node._cformula is not None:
            return _c_attr(node, key, raw)
        if raw and node._released:
            return _handle(_FreedSlot())  # (its register_hooks says it was freed)
        return _py_attr(node, key, raw)
    except AttributeError:
        raise AttributeError(f"'{type(node).__name__}' object has no attribute '{name}'") from None


def make_saved_tensor(tensor, is_output=False):
    """torch._C._autograd._make_saved_tensor: a SavedTensor of `tensor` alone, packed through
    the thread's saved-tensor hooks when some are pushed."""
    hooks = _saved.top() if _saved.active else None
    slot = _FreeSlot(_saved.pack(tensor, hooks) if hooks is not None else tensor)
    return _handle(slot)


class _FreeSlot(_Slot):
    def __init__(self, value):
        self.value, self._node = value, None

    def freed(self):
        return False

    def raw(self):
        return self.value

    def store(self, packed):
        self.value = packed


class _FreedSlot(_Slot):
    """A saved place of a node that has run (its values released)."""
    _node = None

    def freed(self):
        return True
