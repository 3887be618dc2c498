"""__torch_dispatch__: tensor subclasses and dispatch modes that see the ops below autograd.

Note [Python dispatch]
A class with a ``__torch_dispatch__(cls, func, types, args, kwargs)`` classmethod (usually a
wrapper subclass made by Tensor._make_wrapper_subclass: a tensor with the metadata of the data
it wraps and no values of its own) and an active TorchDispatchMode (utils/_python_dispatch.py)
are given the ops their tensors take part in.  Both are built on the op watchers (Note [Op
watchers] in csrc/autograd/autograd.h): one watcher, `_watcher`, is active while some wrapper
tensor lives or some mode is entered.  A call it sees with a dispatch tensor among its
arguments, or made while a mode is on the stack, is recorded by the recorder as usual when an
argument requires grad (autograd runs above dispatch, on the wrapper tensors: their
requires_grad, grad_fn and .grad are the wrappers' own), but the recorder's computation is
handed to the innermost mode (popped from the stack while its handler runs, as torch), else to
the dispatch classes of the arguments in order; `func` is an OpOverload (aten.<op>.<overload>)
that runs the op on whatever it is given.  What the handler returns is the op's result.  The
recorder's own tensor work on the results (the detached copies a node keeps, the copy an
in-place op saves) goes through the watcher too, so it reaches the handler as aten.detach /
aten.clone; so do the backward formulas run on wrapper gradients.  Handlers run with grad mode
off: the ops they run on the wrapped tensors are not recorded.

The wrapper's placeholder is a C tensor of the given sizes, strides, offset and dtype over an
uninitialised buffer that is never read (torch's has no buffer at all): its metadata is what the
C side (the engine, shape checks) reads.  numpy() and tolist() raise torch's errors, data_ptr()
is 0 as torch's, item() and the number conversions go through the handler
(aten._local_scalar_dense)."""
import threading
import weakref

from . import _C
from .autograd import _watch

_tls = threading.local()        # .modes: this thread's mode stack (innermost last)
_reasons = 0                    # live wrappers + entered modes (the watcher is on while > 0)
_refs = set()                   # weak references to the live wrappers
_types = {}                     # type -> whether it has a __torch_dispatch__ of its own


def _retain():
    global _reasons
    _reasons += 1
    if _reasons == 1:
        _watch.add(_watcher)


def _release(_ref=None):
    global _reasons
    if _ref is not None:
        _refs.discard(_ref)
    try:
        _reasons -= 1
        if _reasons == 0:
            _watch.remove(_watcher)
    except Exception:           # interpreter shutdown
        pass


def mode_stack():
    s = getattr(_tls, "modes", None)
    if s is None:
        s = _tls.modes = []
    return s


def active():
    """Whether some wrapper tensor lives or some mode is entered (the watcher is on)."""
    return _reasons > 0


def modes_active():
    return bool(getattr(_tls, "modes", None))


def push_mode(mode):
    mode_stack().append(mode)
    _retain()


def pop_mode():
    s = mode_stack()
    if not s:
        raise RuntimeError("Trying to pop from an empty mode stack")
    m = s.pop()
    _release()
    return m


def is_dispatch_type(cls):
    r = _types.get(cls)
    if r is None:
        r = _types[cls] = callable(getattr(cls, "__torch_dispatch__", None))
    return r


def is_dispatch_tensor(t):
    return isinstance(t, _C.TensorBase) and is_dispatch_type(type(t))


def _dispatch_types(self, args, kwargs):
    """The dispatch classes of the tensor arguments, in order, a subclass before its bases."""
    found = []

    def see(a):
        if isinstance(a, _C.TensorBase):
            c = type(a)
            if c not in found and is_dispatch_type(c):
                found.append(c)
        elif type(a) in (list, tuple):
            for x in a:
                see(x)
    if self is not None:
        see(self)
    for a in args:
        see(a)
    for a in kwargs.values():
        see(a)
    ordered = []
    for c in found:                     # a subclass goes before a base class of it
        at = next((i for i, o in enumerate(ordered) if issubclass(c, o)), len(ordered))
        ordered.insert(at, c)
    return ordered


def make_wrapper_subclass(cls, size, strides=None, storage_offset=None, memory_format=None,
                          dtype=None, layout=None, device=None, pin_memory=False,
                          requires_grad=False, dispatch_sizes_strides_policy=None,
                          dispatch_device=False, dispatch_layout=False,
                          _extra_dispatch_keys=None, storage_size=None):
    """Tensor._make_wrapper_subclass (Note [Python dispatch])."""
    from ._formats import strided
    if not (isinstance(cls, type) and issubclass(cls, _C.TensorBase)):
        raise TypeError("Creating a Tensor subclass from a class that does not inherit from "
                        "Tensor is not possible. Make sure your class inherits from Tensor.")
    if not is_dispatch_type(cls):
        raise TypeError(f"{cls.__name__} must define __torch_dispatch__")
    if layout is not None and layout is not strided:
        raise NotImplementedError(f"minitorch's wrapper subclasses have the strided layout only, "
                                  f"not {layout}")
    if device is not None and str(device) not in ("cpu", "cpu:0"):
        import minitorch
        if minitorch.device(device).type != "cpu":
            raise NotImplementedError("minitorch's wrapper subclasses are CPU tensors")
    size = tuple(int(s) for s in size)
    if strides is None:
        strides, acc = [], 1
        for s in reversed(size):
            strides.append(acc)
            acc *= max(s, 1)
        strides = tuple(reversed(strides))
    else:
        strides = tuple(int(s) for s in strides)
        if len(strides) != len(size):
            raise RuntimeError(f"dimensionality of sizes ({len(size)}) must match "
                               f"dimensionality of strides ({len(strides)})")
    offset = int(storage_offset or 0)
    if dtype is None:
        dtype = _C.get_default_dtype()
    with _watch.unwatched():
        extent = offset + (1 + sum((n - 1) * st for n, st in zip(size, strides))
                           if all(n > 0 for n in size) else 0)
        if storage_size is not None:
            extent = max(extent, int(storage_size))
        storage = _C.empty((extent,), dtype=dtype).untyped_storage()
        t = _C.empty(0, dtype=dtype).set_(storage, offset, size, strides)
        r = _C.TensorBase.as_subclass(t, cls)
        r.__dict__["_mt_wrapper"] = True
        if requires_grad:
            r.requires_grad_(True)
    _retain()
    _refs.add(weakref.ref(r, _release))
    return r


# ---- the watcher ------------------------------------------------------------------------------

def _watcher(key, self, args, kwargs, proceed):
    kind, name = key[0], key[2:]
    if kind == "c" or getattr(_tls, "off", False):  # a composite: the ops it is made of dispatch
        return proceed(args, kwargs)
    modes = getattr(_tls, "modes", None)
    types = _dispatch_types(self, args, kwargs)
    if (not modes and not types) or (kind == "m" and name in _AUTOGRAD_METHODS):
        return proceed(args, kwargs)
    if kind == "m" and name in _DATA_METHODS and types:
        _no_numpy()
    from ._dispatch_ops import op_of
    from .autograd import _record
    func = op_of(key, self, args, kwargs)

    def run(*full, **kw):
        return call(func, full, kw)

    if _C.is_grad_enabled() and _record._requires_grad(self, args, kwargs):
        return _record._record(key, self, args, kwargs, fn=run)
    full = ((self,) + tuple(args)) if kind == "m" else tuple(args)
    return run(*full, **kwargs)


_watcher.innermost = True      # forward AD, the profiler see the call first (autograd/_watch.py)

# methods that change the tensor's autograd state, not its values: the wrapper's own
_AUTOGRAD_METHODS = frozenset({"requires_grad_", "detach_", "retain_grad"})
_DATA_METHODS = frozenset({"numpy", "tolist", "__array__"})


def call(func, args, kwargs):
    """func(*args, **kwargs) through the innermost mode, else the arguments' dispatch classes
    (Note [Python dispatch]), with grad mode off."""
    prev = _C._grad_off_recording()
    try:
        return _call(func, args, kwargs)
    finally:
        _C._set_grad_mode(prev)


def _call(func, args, kwargs):
    modes = getattr(_tls, "modes", None)
    types = _dispatch_types(None, args, kwargs)
    if modes:
        mode = modes.pop()
        try:
            r = mode.__torch_dispatch__(func, tuple(types), args, kwargs)
        finally:
            modes.append(mode)
        if r is not NotImplemented:
            return r
    if not types:
        return func(*args, **kwargs)
    for cls in types:
        r = cls.__torch_dispatch__(func, tuple(types), args, kwargs)
        if r is not NotImplemented:
            return r
    lines = "".join(f"  - tensor subclass {c}\n" for c in types)
    raise TypeError(f"Multiple dispatch failed for 'torch._ops.{func}'; all __torch_dispatch__ "
                    f"handlers returned NotImplemented:\n\n{lines}")


def wrapper_repr(t, contents):
    """repr of a wrapper subclass given the repr of what it wraps (torch's form)."""
    extra = ""
    if t.dtype not in (_C.get_default_dtype(), _C.int64, _C.bool, _C.complex64):
        extra = f", dtype={t.dtype}"
    if t.grad_fn is not None:
        extra += f", grad_fn=<{type(t.grad_fn).__name__}>"
    elif t.requires_grad:
        extra += ", requires_grad=True"
    return f"{type(t).__name__}({contents}{extra})"


def shallow_detach(t):
    """A wrapper without history, sharing t's placeholder and attributes (what a recorded node
    keeps of its output: its handler is not asked)."""
    with _watch.unwatched():
        d = _C.TensorBase.detach(t)
    if type(d) is not type(t):
        d = _C.TensorBase.as_subclass(d, type(t))
    d.__dict__.update((k, v) for k, v in t.__dict__.items() if not k.startswith("_fw_"))
    _retain()
    _refs.add(weakref.ref(d, _release))
    return d


def _item(self):
    from ._dispatch_ops import scalar_op
    return call(scalar_op(), (self,), {})


def _data_ptr(self):
    # a wrapper's placeholder buffer is not its data: 0, as torch's
    if self.__dict__.get("_mt_wrapper"):
        return 0
    return _C.TensorBase.data_ptr(self)


def _no_numpy(self, *args, **kwargs):
    raise RuntimeError(".numpy() is not supported for tensor subclasses.")


def _no_tolist(self):
    raise RuntimeError(f".tolist() is not supported for tensor subclasses, got "
                       f"{type(self).__name__}")


def _comparison(name):
    # the comparison operators do not reach the op watchers: the methods do
    def compare(self, other):
        if not isinstance(other, (_C.TensorBase, bool, int, float, complex)):
            return NotImplemented
        return getattr(_C.TensorBase, name)(self, other)
    compare.__name__ = f"__{name}__"
    return compare


_VALUE_MEMBERS = {
    "__eq__": _comparison("eq"), "__ne__": _comparison("ne"), "__lt__": _comparison("lt"),
    "__le__": _comparison("le"), "__gt__": _comparison("gt"), "__ge__": _comparison("ge"),
    "item": _item,
    "__bool__": lambda self: bool(_item(self)),
    "__float__": lambda self: float(_item(self)),
    "__int__": lambda self: int(_item(self)),
    "__index__": lambda self: _item(self).__index__(),
    "__complex__": lambda self: complex(_item(self)),
    "numpy": _no_numpy, "__array__": _no_numpy, "tolist": _no_tolist,
    "data_ptr": _data_ptr,
}


def install_members(cls):
    """The members of a dispatch class that read values: a number through its handler
    (aten._local_scalar_dense), numpy/tolist torch's errors (the class's own are kept)."""
    own = set()
    for klass in cls.__mro__:
        if klass.__module__.startswith("minitorch") and klass.__name__ in ("Tensor", "_TensorOps"):
            break
        own.update(vars(klass))
    for name, fn in _VALUE_MEMBERS.items():
        if name not in own:
            setattr(cls, name, fn)


class no_dispatch:
    """Inside, ops run on their arguments as they are: no handler, no mode (a handler of a
    subclass made by _make_subclass, whose instances hold their data, runs func on them)."""

    def __enter__(self):
        self._prev = getattr(_tls, "off", False)
        _tls.off = True
        return self

    def __exit__(self, *exc):
        _tls.off = self._prev
        return False


def make_subclass(cls, data, require_grad=False, dispatch_sizes_strides_policy=None,
                  dispatch_device=False, dispatch_layout=False):
    """Tensor._make_subclass: data's tensor (its storage shared, its history not) as an
    instance of cls, a leaf that requires grad as asked."""
    if not (isinstance(cls, type) and issubclass(cls, _C.TensorBase)):
        raise TypeError("Creating a Tensor subclass from a class that does not inherit from "
                        "Tensor is not possible. Make sure your class inherits from Tensor.")
    if not isinstance(data, _C.TensorBase):
        raise TypeError(f"data must be a Tensor, not {type(data).__name__}")
    with _watch.unwatched():
        r = _C.TensorBase.as_subclass(_C.TensorBase.detach(data), cls)
        if require_grad:
            r.requires_grad_(True)
    if is_dispatch_type(cls):
        _retain()
        _refs.add(weakref.ref(r, _release))
    return r
