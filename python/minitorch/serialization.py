"""minitorch.save / minitorch.load, and the allow-list that keeps load from running code.

Note [Weights-only loading]
A pickle can name any global and call it: loading an untrusted file with plain pickle runs
whatever the file says (os.system, eval, subprocess.Popen, ...).  So load() reads with
weights_only=True by default, as torch >= 2.6: an Unpickler whose find_class resolves only
the globals of the allow-list (minitorch's tensor and generator reconstructors, dtypes,
devices, Size, layouts and memory formats, the legacy tensor classes, and the plain
containers and numbers pickle itself needs) plus what the caller added with
add_safe_globals.  Every other global - whatever opcode names it (GLOBAL, STACK_GLOBAL, INST,
EXT*) - is an UnpicklingError naming it, raised before anything is called; REDUCE, BUILD and
NEWOBJ can then only reach allowed callables and classes.  Persistent ids are refused.
weights_only=False is plain pickle: only for files one trusts."""
import builtins
import collections
import contextlib
import os
import pickle

from . import _C

__all__ = ["save", "load", "add_safe_globals", "get_safe_globals", "clear_safe_globals",
           "safe_globals"]

_user_globals = {}       # "module.name" -> object, from add_safe_globals


def _latin1_encode(s, encoding="latin1", errors="strict"):
    """What protocol-2 pickles of bytes call as _codecs.encode: latin-1 only."""
    if encoding not in ("latin1", "latin-1") or not isinstance(s, str):
        raise pickle.UnpicklingError(f"_codecs.encode with encoding {encoding!r} is not allowed "
                                     "in a weights-only load")
    return s.encode("latin1", errors)


def _default_globals():
    import minitorch
    from . import _legacy, _random, _tensor
    allowed = {
        "collections.OrderedDict": collections.OrderedDict,
        "_codecs.encode": _latin1_encode,
        "minitorch._tensor._rebuild_tensor": _tensor._rebuild_tensor,
        "minitorch._random._generator_from_state": _random._generator_from_state,
        "minitorch.Size": minitorch.Size,
        "minitorch.device": minitorch.device,
    }
    for mod in ("builtins", "__builtin__"):
        for name in ("set", "frozenset", "complex", "bytes", "bytearray", "slice", "range"):
            allowed[f"{mod}.{name}"] = getattr(builtins, name)
    for name in dir(minitorch):
        obj = getattr(minitorch, name)
        if isinstance(obj, (_C.dtype, minitorch.layout, minitorch.memory_format)) or (
                isinstance(obj, type) and name in getattr(_legacy, "__all__", ())):
            allowed[f"minitorch.{name}"] = obj
    return allowed


def get_safe_globals():
    """The globals added with add_safe_globals, as a list (entries as they were given)."""
    return list(_user_globals.values())


def add_safe_globals(safe_globals):
    """Allows these globals in weights-only loads: each a class or function, or a
    (object, "module.name") pair for an object pickled under another name."""
    for g in safe_globals:
        if isinstance(g, tuple):
            obj, name = g
        else:
            obj, name = g, f"{g.__module__}.{g.__qualname__}"
        _user_globals[name] = g if isinstance(g, tuple) else obj


def clear_safe_globals():
    _user_globals.clear()


@contextlib.contextmanager
def safe_globals(safe_globals):
    """Within the block, these globals are allowed too (as add_safe_globals)."""
    saved = dict(_user_globals)
    add_safe_globals(safe_globals)
    try:
        yield
    finally:
        _user_globals.clear()
        _user_globals.update(saved)


def _unsafe_message(what):
    return ("Weights only load failed. The file can still be loaded, in one of two ways; do "
            "either only if you trust where the file came from:\n"
            "  (1) minitorch.load(..., weights_only=False), which runs whatever code the file "
            "names;\n"
            "  (2) allow the global with minitorch.serialization.add_safe_globals([...]) or the "
            "minitorch.serialization.safe_globals([...]) context manager.\n"
            f"WeightsUnpickler error: {what}")


class _WeightsUnpickler(pickle.Unpickler):
    """See Note [Weights-only loading]."""

    def __init__(self, f, allowed):
        super().__init__(f)
        self._allowed = allowed

    def find_class(self, module, name):
        key = f"{module}.{name}"
        obj = self._allowed.get(key)
        if obj is None:
            raise pickle.UnpicklingError(_unsafe_message(
                f"Unsupported global: GLOBAL {key} was not an allowed global by default. "
                f"Check the code of {key} and, if it is safe, pass it to add_safe_globals."))
        return obj[0] if isinstance(obj, tuple) else obj

    def persistent_load(self, pid):
        raise pickle.UnpicklingError(_unsafe_message(f"persistent id {pid!r} is not supported"))


def _env_flag(name):
    return os.environ.get(name, "0").strip().lower() not in ("", "0", "false", "no", "off")


def save(obj, f, pickle_module=pickle, pickle_protocol=2, **kwargs):
    """Pickles obj (tensors by value) into a path or a binary file object."""
    if isinstance(f, (str, bytes)) or hasattr(f, "__fspath__"):
        with open(f, "wb") as fh:
            pickle_module.dump(obj, fh, protocol=pickle_protocol)
    else:
        pickle_module.dump(obj, f, protocol=pickle_protocol)


def load(f, map_location=None, pickle_module=None, *, weights_only=None, mmap=None,
         **pickle_load_args):
    """Loads what save() wrote; every tensor is loaded on the CPU (map_location is accepted
    for compatibility).

    weights_only=True (the default, unless an explicit pickle_module is given or
    TORCH_FORCE_NO_WEIGHTS_ONLY_LOAD is set) loads only tensors, dtypes, devices, sizes,
    containers, numbers and strings, and the globals allowed with add_safe_globals; anything
    else is a pickle.UnpicklingError naming it.  weights_only=False is plain pickle and runs
    any code the file names: use it only for files you trust."""
    if mmap:
        raise NotImplementedError("minitorch.load(mmap=True) is not supported: checkpoints are "
                                  "read into memory")
    if _env_flag("TORCH_FORCE_WEIGHTS_ONLY_LOAD"):
        weights_only = True
    elif _env_flag("TORCH_FORCE_NO_WEIGHTS_ONLY_LOAD"):
        weights_only = False
    elif weights_only is None:
        weights_only = pickle_module is None
    if weights_only and pickle_module is not None:
        raise RuntimeError("Can not safely load weights when explicit pickle_module is "
                           "specified")
    if isinstance(f, (str, bytes)) or hasattr(f, "__fspath__"):
        with open(f, "rb") as fh:
            return _load(fh, weights_only, pickle_module, pickle_load_args)
    return _load(f, weights_only, pickle_module, pickle_load_args)


def _load(fh, weights_only, pickle_module, pickle_load_args):
    if not weights_only:
        return (pickle_module or pickle).load(fh, **pickle_load_args)
    allowed = _default_globals()
    allowed.update(_user_globals)
    return _WeightsUnpickler(fh, allowed).load()
