"""Tensor subclasses keep their class through tensor methods and operators.

torch's default ``__torch_function__`` turns the tensors an op returns into the subclass of
its input (``class My(torch.Tensor)``: ``(m + 1)``, ``m.sum()``, ``m[0]``, ``m.t()`` are all
``My``), and a subclass that defines its own ``__torch_function__`` is handed the calls (Note
[Torch function] in csrc/torch_function.h, overrides.py).  When a subclass is created it is
registered with the C entry points (the module functions then reach the protocol), and each
inherited Tensor method, operator and tensor-valued property is given to it wrapped: the
wrapper hands the call to the protocol (``Tensor.<name>`` as func; a property as its
``__get__``), or, for a class that keeps Tensor's default ``__torch_function__`` and no other
argument or mode takes part, runs it with dispatch off and gives plain Tensor results the
class (``as_subclass``: the same tensor, no copy).  Plain tensors pay nothing: only
subclasses carry the wrappers.  What the subclass defines itself is left alone."""
import functools

from . import _C

# members that must keep their own meaning: object protocol, pickling, NumPy conversion,
# the subclass machinery itself
_KEEP = frozenset({
    "__new__", "__init__", "__init_subclass__", "__getattribute__", "__getattr__", "__setattr__",
    "__delattr__", "__class__", "__dict__", "__weakref__", "__doc__", "__module__", "__reduce__",
    "__reduce_ex__", "__getstate__", "__setstate__", "__sizeof__", "__subclasshook__", "__dir__",
    "__hash__", "__repr__", "__str__", "__format__", "__array__", "__array_wrap__",
    "__array_ufunc__", "__array_priority__", "__class_getitem__", "__len__", "__bool__",
    "__index__", "__int__", "__float__", "__complex__", "__contains__", "__iter__",
    "as_subclass", "item", "tolist", "numpy", "storage", "untyped_storage", "data_ptr",
})


def _convert(r, base, cls):
    """r with every plain `base` tensor in it (also inside tuples, named tuples and lists)
    as an instance of cls."""
    if type(r) is base:
        return r.as_subclass(cls)
    if isinstance(r, (tuple, list)):
        items = [_convert(x, base, cls) for x in r]
        if all(a is b for a, b in zip(items, r)):
            return r                        # nothing converted (a Size, a list of ints)
        if isinstance(r, list):
            return items
        return type(r)(*items) if hasattr(r, "_fields") else tuple(items)
    return r


def _default_tf(cls, base):
    """Whether cls keeps base's (Tensor's) own __torch_function__."""
    tf = getattr(cls, "__torch_function__", None)
    return getattr(tf, "__func__", None) is base.__dict__["__torch_function__"].__func__


def _custom(obj, base):
    """Whether obj's class takes part in the protocol with a __torch_function__ of its own."""
    from .overrides import _has_tf
    return _has_tf(obj) and not _default_tf(type(obj), base)


def _call(public, fn, self, args, kwargs, base):
    """A wrapped member's call (see the module's docstring)."""
    if _C._tf_disabled():
        return fn(self, *args, **kwargs)
    from . import overrides
    cls = type(self)
    if _default_tf(cls, base) and not overrides._is_torch_function_mode_enabled() and not any(
            _custom(a, base) for a in args) and not any(_custom(a, base) for a in kwargs.values()):
        prev = _C._tf_set_disabled(1)
        try:
            r = fn(self, *args, **kwargs)
        finally:
            _C._tf_set_disabled(prev)
        return r if public in overrides._nowrap() else _convert(r, base, cls)
    return overrides._dispatch_method(public, self, args, kwargs)


def _method(fn, base):
    """fn (a member of base) as a subclass's: its calls go through _call, fn as func."""
    @functools.wraps(fn)
    def method(self, *args, **kwargs):
        return _call(fn, fn, self, args, kwargs, base)
    return method


def _disabled_torch_function_impl(func, types, args=(), kwargs=None):
    """Set as a subclass's ``__torch_function__`` (as torch.nn.Parameter does), it says that
    ops on instances of the subclass give plain Tensors: the subclass gets no wrappers."""
    return func(*args, **(kwargs or {}))


def preserve_subclass(cls, base):
    """Gives the Tensor subclass cls wrappers of base's (minitorch.Tensor's) members that
    return tensors, unless cls or a class between it and base defines them, or cls opts out
    with ``__torch_function__ = _disabled_torch_function_impl``."""
    if getattr(cls, "__torch_function__", None) is _disabled_torch_function_impl:
        return
    if callable(getattr(cls, "__torch_dispatch__", None)):
        # its ops give what its __torch_dispatch__ makes (_python_dispatch.py)
        from . import _python_dispatch
        _python_dispatch.install_members(cls)
        return
    _C._tf_register(cls)
    own = set()
    for klass in cls.__mro__:
        if klass is base:
            break
        own.update(vars(klass))
    for name in dir(base):
        if name in _KEEP or name in own:
            continue
        member = None
        for klass in base.__mro__:
            if name in vars(klass):
                member = vars(klass)[name]
                break
        if member is None or isinstance(member, (staticmethod, classmethod, type)):
            continue
        if hasattr(member, "__get__") and hasattr(member, "__set__"):      # property / getset
            getter = (lambda m: lambda self: _call(m.__get__, lambda s: m.__get__(s, type(s)),
                                                   self, (), {}, base))(member)
            setter = (lambda m: lambda self, v: m.__set__(self, v))(member)
            setattr(cls, name, property(getter, setter, None, getattr(member, "__doc__", None)))
        elif callable(member):
            setattr(cls, name, _method(getattr(base, name), base))


def as_subclass(self, cls):
    """The same tensor (same memory, no copy) as an instance of the Tensor subclass cls; it
    stays in the autograd graph (the op table records it as an identity)."""
    return _C.TensorBase.as_subclass(self, cls)
