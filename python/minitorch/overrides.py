"""torch.overrides: the __torch_function__ protocol (Note [Torch function] in
csrc/torch_function.h).

A class that defines ``__torch_function__(cls, func, types, args=(), kwargs=None)`` (a Tensor
subclass, or any class whose instances are passed to minitorch functions) is handed the calls
its instances take part in: ``func`` is the public function or method called
(``minitorch.add``, ``Tensor.sum``, ``Tensor.__add__``, ``Tensor.T.__get__``, the op's Python
form for functions written in Python), ``types`` the classes that implement the protocol
among the arguments, subclasses first.  What it returns is the call's result;
``NotImplemented`` passes the call to the next class, and when all decline, ``TypeError``.
Tensor's own ``__torch_function__`` runs ``func`` with subclass dispatch disabled and gives
tensor results the subclass (so ``minitorch.add(m, 1)`` of a subclass instance ``m`` is of
``m``'s class, as torch).  A ``TorchFunctionMode`` sees every call made on its thread while
it is entered (popped while its handler runs).  ``DisableTorchFunctionSubclass`` turns the
classes off on this thread, ``DisableTorchFunction`` the modes too."""
import contextlib
import functools
import threading
import warnings

from . import _C
from ._subclass import _disabled_torch_function_impl

__all__ = [
    "get_ignored_functions", "get_overridable_functions", "get_testing_overrides",
    "handle_torch_function", "has_torch_function", "has_torch_function_unary",
    "has_torch_function_variadic", "is_tensor_like", "is_tensor_method_or_property",
    "resolve_name", "TorchFunctionMode", "BaseTorchFunctionMode", "enable_reentrant_dispatch",
    "get_default_nowrap_functions", "wrap_torch_function",
]

_tls = threading.local()        # .modes: this thread's mode stack (innermost last)

_SUBCLASS_OFF, _ALL_OFF = 1, 2


def _modes():
    s = getattr(_tls, "modes", None)
    if s is None:
        s = _tls.modes = []
    return s


# ---- enabling and disabling ------------------------------------------------------------------

class _Disable:
    _level = _SUBCLASS_OFF

    def __enter__(self):
        self._prev = _C._tf_set_disabled(max(self._level, _C._tf_disabled()))
        return self

    def __exit__(self, *exc):
        _C._tf_set_disabled(self._prev)
        return False


class DisableTorchFunctionSubclass(_Disable):
    """Inside, the ``__torch_function__`` of classes is not called on this thread (modes
    still are): ops on subclass instances run as on plain tensors and return plain tensors."""


class DisableTorchFunction(_Disable):
    """Inside, neither classes' ``__torch_function__`` nor modes are called on this thread."""
    _level = _ALL_OFF


def _is_torch_function_enabled():
    return _C._tf_disabled() < _ALL_OFF


def _is_torch_function_mode_enabled():
    return _C._tf_disabled() < _ALL_OFF and bool(getattr(_tls, "modes", None))


# ---- which objects take part ------------------------------------------------------------------

def _has_tf(obj):
    """Whether obj's class implements the protocol: a Tensor subclass (unless it opts out
    with _disabled_torch_function_impl), or any other class with __torch_function__."""
    from ._tensor import Tensor
    cls = type(obj)
    if cls is Tensor or cls is _C.TensorBase:
        return False
    tf = getattr(cls, "__torch_function__", None)
    return tf is not None and tf is not _disabled_torch_function_impl


def _get_overloaded_args(relevant_args, get_type_fn=type):
    """The arguments whose classes implement the protocol, one per class: a subclass before
    its base classes, otherwise in the order met."""
    out, types = [], []
    for arg in relevant_args:
        t = get_type_fn(arg)
        if t in types or not _has_tf(arg):
            continue
        at = len(out)
        for i, prev in enumerate(types):
            if issubclass(t, prev):
                at = i
                break
        out.insert(at, arg)
        types.insert(at, t)
    return out


def has_torch_function(relevant_args):
    """Whether a call with these arguments goes to __torch_function__ (a class among them
    implements it, or a mode is entered)."""
    if not _is_torch_function_enabled():
        return False
    if _is_torch_function_mode_enabled():
        return True
    return _C._tf_disabled() == 0 and any(_has_tf(a) for a in relevant_args)


def has_torch_function_unary(obj):
    return has_torch_function((obj,))


def has_torch_function_variadic(*args):
    return has_torch_function(args)


def is_tensor_like(inp):
    """A Tensor, or an object whose class implements __torch_function__."""
    from ._tensor import Tensor
    return type(inp) is Tensor or hasattr(inp, "__torch_function__")


# ---- calling the handlers ------------------------------------------------------------------

@contextlib.contextmanager
def _pop_mode_temporarily():
    mode = _pop_mode()
    try:
        yield mode
    finally:
        _push_mode(mode)


def handle_torch_function(public_api, relevant_args, *args, **kwargs):
    """Calls the innermost mode's, then each implementing class's __torch_function__(public_api,
    types, args, kwargs) until one returns something other than NotImplemented."""
    overloaded = _get_overloaded_args(relevant_args) if _C._tf_disabled() == 0 else []
    return _call_handlers(public_api, overloaded, args, kwargs, False)


def _call_handlers(public_api, overloaded, args, kwargs, from_c):
    types = tuple(type(a) for a in overloaded)
    if _is_torch_function_mode_enabled():
        with _pop_mode_temporarily() as mode:
            result = mode.__torch_function__(public_api, types, args, kwargs)
        if result is not NotImplemented:
            return result
    for arg in overloaded:
        method = arg.__torch_function__
        if getattr(method, "__self__", None) is arg and method is not _disabled_torch_function_impl:
            warnings.warn("Defining your `__torch_function__` as a plain method is deprecated "
                          "and will be an error in future, please define it as a classmethod.",
                          DeprecationWarning)
        result = method(public_api, types, args, kwargs)
        if result is not NotImplemented:
            return result
    name = resolve_name(public_api) or public_api
    if from_c:      # torch's message for its built-in functions
        lines = [f"  - mode object {_get_current_function_mode()!r}"] \
            if _is_torch_function_mode_enabled() else []
        lines += [f"  - tensor subclass {type(a)!r}" for a in overloaded]
        raise TypeError(f"Multiple dispatch failed for '{name}'; all __torch_function__ "
                        "handlers returned NotImplemented:\n\n" + "\n".join(lines) +
                        "\n\nFor more information, try re-running with "
                        "TORCH_LOGS=not_implemented")
    msg = (f"no implementation found for '{name}' on types that implement "
           f"__torch_function__: {[type(a) for a in overloaded]}")
    if _is_torch_function_mode_enabled():
        msg += f" nor in mode {_get_current_function_mode()}"
    raise TypeError(msg)


def _flat(args):
    for a in args:
        if isinstance(a, (tuple, list)):
            yield from a
        else:
            yield a


def _handle_op(key, self, args, kwargs):
    """The C entry points' handler (Note [Torch function]): (result,) when __torch_function__
    answered the call `key`, None when the call runs as usual."""
    kwargs = kwargs or {}
    full = args if self is None else (self,) + args
    modes = _is_torch_function_mode_enabled()
    overloaded = _get_overloaded_args(_flat(full + tuple(kwargs.values()))) \
        if _C._tf_disabled() == 0 else []
    if not overloaded and not modes:
        return None
    func = _public(key)
    if func is None:
        return None
    return (_call_handlers(func, overloaded, full, kwargs, True),)


def _dispatch_method(public_api, self, args, kwargs):
    """A method, operator or property getter called on an instance of a class that takes part
    (the wrappers _subclass.py gives the class)."""
    return handle_torch_function(public_api, tuple(_flat((self,) + args + tuple(kwargs.values()))),
                                 self, *args, **kwargs)


# "o.<slot>" keys of the operators -> Tensor's member
_OPERATOR_NAMES = {
    "add": "__add__", "subtract": "__sub__", "multiply": "__mul__", "true_divide": "__truediv__",
    "floor_divide": "__floordiv__", "remainder": "__mod__", "power": "__pow__",
    "matrix_multiply": "__matmul__", "and": "__and__", "or": "__or__", "xor": "__xor__",
    "lshift": "__lshift__", "rshift": "__rshift__", "negative": "__neg__",
    "positive": "__pos__", "absolute": "__abs__", "invert": "__invert__",
    "getitem": "__getitem__", "setitem": "__setitem__",
}


@functools.lru_cache(maxsize=None)
def _public(key):
    """The public function or method an entry point's key stands for (None: unknown)."""
    import minitorch
    from . import _op_forms
    from ._tensor import Tensor
    kind, name = key[0], key[2:]
    if kind == "m":
        return getattr(Tensor, name, None)
    if kind == "f":
        return getattr(minitorch, name, None) or getattr(_C, name, None)
    if kind in "pc":
        return _op_forms.FORMS.get(name)
    if kind == "o":
        if name in ("T", "mT"):
            return getattr(Tensor, name).__get__
        if name.startswith("inplace_"):
            base = _OPERATOR_NAMES.get(name[len("inplace_"):])
            return getattr(Tensor, "__i" + base[2:], None) if base else None
        member = _OPERATOR_NAMES.get(name)
        return getattr(Tensor, member, None) if member else None
    return None


def _convert(ret, cls):
    """Tensor results (also in tuples and lists) as instances of cls (Tensor.__torch_function__)."""
    from ._subclass import _convert as convert
    from ._tensor import Tensor
    return convert(ret, Tensor, cls)


# ---- modes ----------------------------------------------------------------------------------

def _push_mode(mode):
    _modes().append(mode)
    _C._tf_modes(1)


def _pop_mode():
    s = _modes()
    if not s:
        raise RuntimeError("Trying to pop from an empty mode stack")
    mode = s.pop()
    _C._tf_modes(-1)
    return mode


def _get_current_function_mode():
    s = getattr(_tls, "modes", None)
    return s[-1] if s else None


def _get_current_function_mode_stack():
    return list(getattr(_tls, "modes", None) or [])


def _len_torch_function_stack():
    return len(getattr(_tls, "modes", None) or [])


class TorchFunctionMode:
    """A context manager whose __torch_function__(func, types, args=(), kwargs=None) sees every
    call made on this thread while it is entered; it is popped while its handler runs, so the
    calls the handler makes go to the modes outside it (or run)."""

    def __init__(self):
        pass

    def __torch_function__(self, func, types, args=(), kwargs=None):
        raise NotImplementedError()

    def __enter__(self):
        _push_mode(self)
        return self

    def __exit__(self, exc_type, exc_val, exc_tb):
        _pop_mode()

    @classmethod
    def push(cls, *args, **kwargs):
        warnings.warn("`Mode.push()` is no longer necessary and can be replaced with just "
                      "`with Mode()`")
        return cls(*args, **kwargs)


class BaseTorchFunctionMode(TorchFunctionMode):
    """A mode that runs every call as it is."""

    def __torch_function__(self, func, types, args=(), kwargs=None):
        return func(*args, **(kwargs or {}))


@contextlib.contextmanager
def enable_reentrant_dispatch():
    """torch's guard for re-entering the dispatcher from a handler; minitorch's dispatch is
    re-entrant already, so it only marks the block."""
    yield


# ---- introspection -----------------------------------------------------------------------------

@functools.lru_cache(maxsize=1)
def _nowrap():
    from ._tensor import Tensor
    return frozenset(getattr(Tensor, n).__get__ for n in ("_base", "grad", "_grad")
                     if hasattr(Tensor, n))


def get_default_nowrap_functions():
    """The members whose results Tensor.__torch_function__ does not convert to the subclass."""
    return set(_nowrap())


def get_ignored_functions():
    """Public functions that take tensors but are not dispatched (factories and the like)."""
    import minitorch
    names = ("tensor", "as_tensor", "from_numpy", "empty", "zeros", "ones", "full", "arange",
             "linspace", "logspace", "eye", "rand", "randn", "randint", "randperm",
             "manual_seed", "seed", "initial_seed", "get_default_dtype", "set_default_dtype",
             "is_grad_enabled", "set_grad_enabled", "is_tensor", "is_storage", "no_grad",
             "enable_grad", "compile")
    return {getattr(minitorch, n) for n in names if hasattr(minitorch, n)}


def get_overridable_functions():
    """{namespace: [functions]}: the public functions and Tensor members __torch_function__
    sees."""
    import minitorch
    import minitorch.nn.functional as F
    from ._tensor import Tensor
    ignored = get_ignored_functions()
    out = {}
    for ns, names in ((minitorch, getattr(minitorch, "__all__", dir(minitorch))),
                      (F, F.__all__), (Tensor, dir(Tensor))):
        fns = []
        for n in names:
            if n.startswith("_") and ns is not Tensor:
                continue
            obj = getattr(ns, n, None)
            if callable(obj) and not isinstance(obj, type) and obj not in ignored:
                fns.append(obj)
        out[ns] = fns
    return out


def get_testing_overrides():
    """{function: a stand-in of the same arity returning -1}, for every overridable function
    (as torch's, for testing __torch_function__ implementations)."""
    out = {}
    for fns in get_overridable_functions().values():
        for f in fns:
            out[f] = lambda *args, **kwargs: -1
    return out


def is_tensor_method_or_property(func):
    """Whether func is a Tensor method or a property getter."""
    from ._tensor import Tensor
    name = getattr(func, "__name__", None)
    return name is not None and (getattr(Tensor, name, None) is func or
                                 getattr(getattr(Tensor, name, None), "__get__", None) is func)


def resolve_name(f):
    """The dotted public name of f ("minitorch.add", "minitorch.Tensor.sum"), or None."""
    import minitorch
    if isinstance(f, (staticmethod, classmethod)):
        f = f.__func__
    module = getattr(f, "__module__", None)
    qualname = getattr(f, "__qualname__", None) or getattr(f, "__name__", None)
    if qualname is None:
        return None
    if module in (None, "minitorch._C") and getattr(minitorch, qualname, None) is f:
        return f"minitorch.{qualname}"      # a built-in function of the top-level namespace
    if module is None and hasattr(f, "__objclass__"):
        module = "minitorch"                # a built-in method: minitorch.Tensor.<name>
        qualname = f"Tensor.{f.__name__}"
    return f"{module}.{qualname}" if module else qualname


def wrap_torch_function(dispatcher):
    """Decorator: the function goes to __torch_function__ when dispatcher(*args, **kwargs)
    (the arguments that take part) has an implementing class or a mode is entered."""
    def inner(func):
        @functools.wraps(func)
        def wrapped(*args, **kwargs):
            relevant = dispatcher(*args, **kwargs)
            if has_torch_function(relevant):
                return handle_torch_function(wrapped, relevant, *args, **kwargs)
            return func(*args, **kwargs)
        return wrapped
    return inner


_C._tf_set_handler(_handle_op)
_C.DisableTorchFunctionSubclass = DisableTorchFunctionSubclass
_C.DisableTorchFunction = DisableTorchFunction
_C._disabled_torch_function_impl = _disabled_torch_function_impl
_C._is_torch_function_enabled = _is_torch_function_enabled
_C._is_torch_function_mode_enabled = _is_torch_function_mode_enabled
_C._len_torch_function_stack = _len_torch_function_stack
