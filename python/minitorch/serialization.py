"""minitorch.save / minitorch.load, and the allow-list that keeps load from running code.

Note [Weights-only loading]
A pickle can name any global and call it: loading an untrusted file with plain pickle runs
whatever the file says (os.system, eval, subprocess.Popen, ...).  So load() reads with
weights_only=True by default, as torch >= 2.6.  Restricting find_class alone is not enough:
the opcodes that call code or change an existing object would still act on whatever the
allowed globals are (BUILD with a slot state is setattr, so `GLOBAL minitorch.Size` + BUILD
rewrites a method of the Size class for the rest of the process; APPEND, SETITEM and
ADDITEMS call .append/.extend/__setitem__/.add of any object; REDUCE calls an allowed callable
with any arguments, and Size(range(10**12)) from a 74-byte file never returns).  The C
pickle.Unpickler offers no hook for those opcodes, so _WeightsUnpickler is pickle's
pure-Python Unpickler with its own opcode table:
- opcodes that only build numbers, strings, bytes, tuples, lists, dicts, sets or move values
  between the stack and the memo are pickle's own;
- GLOBAL / STACK_GLOBAL resolve through the allow-list only (a dict lookup, nothing is
  imported): minitorch's tensor and generator reconstructors, dtypes, devices, Size, layouts,
  memory formats, the tensor, storage and legacy tensor classes, the builtin containers and
  numbers pickle names, collections.OrderedDict / Counter, plus add_safe_globals entries.
  Modules sys, os, posix and nt are refused even when added (as torch);
- REDUCE calls only the allowed callables, each through a check that accepts the arguments
  pickle writes for it and nothing lazy (no iterator or range where a list is written), so
  every object built is bounded by the size of the file; a tensor's byte count must match
  its shape and dtype before anything is allocated;
- NEWOBJ / NEWOBJ_EX instantiate only add_safe_globals classes; BUILD sets state only on an
  OrderedDict / Counter (a dict of attributes) or an instance of an add_safe_globals class,
  never on a class, a function or a tensor;
- APPEND(S) only to lists, SETITEM(S) only to dicts, ADDITEMS only to sets (or instances of
  add_safe_globals classes);
- INST, OBJ, EXT1/2/4, out-of-band buffers and persistent ids are refused: minitorch.save
  writes none of them.
pickle._Unpickler is CPython's reference implementation (private, but stable since 3.4;
tests/test_serialization.py loads every protocol through it).  It costs about 10 us more per
tensor than the C unpickler; a tensor's bytes are read in one piece either way.
A refusal is a pickle.UnpicklingError naming the global, the callable or the type, raised
before the refused thing runs.  weights_only=False is plain pickle: only for files one trusts.
"""
import builtins
import collections
import copyreg
import math
import os
import pickle
import struct
import warnings

import _compat_pickle

from . import _C

__all__ = ["save", "load", "add_safe_globals", "get_safe_globals", "clear_safe_globals",
           "safe_globals", "DEFAULT_PROTOCOL"]

DEFAULT_PROTOCOL = 2

# modules never allowed, even through add_safe_globals (as torch)
_BLOCKED_MODULES = ("sys", "os", "posix", "nt")

_user_globals = {}       # "module.name" -> the entry as given to add_safe_globals


class _Refused(pickle.UnpicklingError):
    """A weights-only load met something outside the allow-list."""


# ---- the allow-list -------------------------------------------------------------------------

def _refuse_args(name, args):
    raise _Refused(f"{name} called with arguments {_short(args)} that minitorch.save does not "
                   "write")


def _short(obj):
    r = repr(obj)
    return r if len(r) <= 120 else r[:117] + "..."


def _sized_arg(fn, name):
    """fn() or fn(x) with x a list, tuple, dict, set or frozenset: what pickle writes for
    sets, OrderedDict, Counter and Size.  A lazy iterable (range, an iterator) is refused:
    it could stand for more items than the file holds."""
    def call(*args):
        if len(args) > 1 or (args and type(args[0]) not in (list, tuple, dict, set, frozenset)):
            _refuse_args(name, args)
        return fn(*args)
    return call


def _bytes(*args):
    if args and (len(args) > 1 or type(args[0]) not in (bytes, bytearray)):
        _refuse_args("bytes", args)  # bytes(n) would allocate n zero bytes
    return bytes(*args)


def _bytearray(*args):
    if args and not ((len(args) == 1 and type(args[0]) in (bytes, bytearray))
                     or (len(args) == 2 and type(args[0]) is str
                         and args[1] in ("latin-1", "latin1"))):
        _refuse_args("bytearray", args)
    return bytearray(*args)


def _scalars_only(fn, name, types):
    def call(*args):
        if len(args) > 3 or any(type(a) not in types for a in args):
            _refuse_args(name, args)
        return fn(*args)
    return call


def _latin1_encode(s, encoding="latin1", errors="strict"):
    """What protocol-2 pickles of bytes call as _codecs.encode: latin-1 only."""
    if encoding not in ("latin1", "latin-1") or errors != "strict" or type(s) is not str:
        raise _Refused(f"_codecs.encode with encoding {encoding!r} is not allowed in a "
                       "weights-only load")
    return s.encode("latin1")


def _rebuild_tensor_checked(data, dtype, shape):
    """_rebuild_tensor, once the record is well formed: the byte count of shape and dtype
    equals the bytes given, so a small file cannot ask for a large tensor."""
    from ._tensor import _rebuild_tensor
    if (type(data) not in (bytes, bytearray) or type(dtype) is not _C.dtype
            or type(shape) is not tuple
            or not all(type(s) is int and s >= 0 for s in shape)):
        raise _Refused(f"malformed tensor record: _rebuild_tensor({type(data).__name__}, "
                       f"{_short(dtype)}, {_short(shape)})")
    nbytes = math.prod(shape) * dtype.itemsize
    if nbytes != len(data):
        raise pickle.UnpicklingError(f"corrupted tensor record: shape {list(shape)} of {dtype} "
                                     f"needs {nbytes} bytes, the file holds {len(data)}")
    return _rebuild_tensor(data, dtype, shape)


def _generator_from_state_checked(state):
    from ._random import _generator_from_state
    if type(state) is not bytes:
        _refuse_args("_generator_from_state", (state,))
    return _generator_from_state(state)


_DEFAULTS = None


def _default_globals():
    """(values, reducers): what GLOBAL may name ("module.name" -> object), and which of those
    REDUCE may call (id(object) -> the checked function called in its place)."""
    global _DEFAULTS
    if _DEFAULTS is not None:
        return _DEFAULTS
    import minitorch
    from . import _legacy, _random, _tensor
    values = {
        "collections.OrderedDict": collections.OrderedDict,
        "collections.Counter": collections.Counter,
        "_codecs.encode": _latin1_encode,
        "minitorch._tensor._rebuild_tensor": _tensor._rebuild_tensor,
        "minitorch._random._generator_from_state": _random._generator_from_state,
        "copyreg._reconstructor": copyreg._reconstructor,
    }
    for cls in (minitorch.Tensor, minitorch.Size, minitorch.device, minitorch.dtype,
                minitorch.layout, minitorch.memory_format, minitorch.TypedStorage,
                minitorch.UntypedStorage, minitorch.Generator):
        values[f"{cls.__module__}.{cls.__qualname__}"] = cls
    for name in ("bool", "int", "float", "complex", "str", "bytes", "bytearray", "tuple",
                 "list", "dict", "set", "frozenset", "range", "slice", "object"):
        values[f"builtins.{name}"] = getattr(builtins, name)
    for name in dir(minitorch):
        obj = getattr(minitorch, name)
        if isinstance(obj, (_C.dtype, minitorch.layout, minitorch.memory_format)) or (
                isinstance(obj, type) and name in _legacy.__all__):
            values[f"minitorch.{name}"] = obj
    reducers = {
        _tensor._rebuild_tensor: _rebuild_tensor_checked,
        _random._generator_from_state: _generator_from_state_checked,
        _latin1_encode: _latin1_encode,
        minitorch.Size: _sized_arg(minitorch.Size, "minitorch.Size"),
        minitorch.device: _scalars_only(minitorch.device, "minitorch.device", (str, int)),
        collections.OrderedDict: _sized_arg(collections.OrderedDict, "OrderedDict"),
        collections.Counter: _sized_arg(collections.Counter, "Counter"),
        set: _sized_arg(set, "set"),
        frozenset: _sized_arg(frozenset, "frozenset"),
        bytes: _bytes,
        bytearray: _bytearray,
        complex: _scalars_only(complex, "complex", (int, float, str)),
        range: _scalars_only(range, "range", (int,)),
        slice: _scalars_only(slice, "slice", (int, type(None))),
    }
    _DEFAULTS = values, {id(k): v for k, v in reducers.items()}
    return _DEFAULTS


def _entry_name(g):
    """The "module.name" under which pickle writes an add_safe_globals entry."""
    if isinstance(g, tuple):
        if len(g) != 2:
            raise ValueError("Expected tuple of length 2 (global, str of callable full path), "
                             f"but got tuple of length: {len(g)}")
        if type(g[1]) is not str:
            raise TypeError("Expected second item in tuple to be str of callable full path, "
                            f"but got: {type(g[1])}")
        return g[1]
    module, qualname = getattr(g, "__module__", None), getattr(g, "__qualname__", None)
    if not isinstance(module, str) or not isinstance(qualname, str):
        raise TypeError(f"add_safe_globals: {_short(g)} has no __module__/__qualname__; pass "
                        "it as a tuple (object, 'module.name')")
    return f"{module}.{qualname}"


def get_safe_globals():
    """The globals added with add_safe_globals, as a list (entries as they were given)."""
    return list(_user_globals.values())


def add_safe_globals(safe_globals):
    """Allows these globals in weights-only loads: each a class or function, or a
    (object, "module.name") pair for an object pickled under another name.  An allowed class
    may be instantiated (NEWOBJ) and have its state set (BUILD) by the file: add only classes
    whose construction and __setstate__ are safe for any data."""
    if not isinstance(safe_globals, (list, tuple, set, frozenset)):
        raise TypeError("add_safe_globals expects a list of globals, got "
                        f"{type(safe_globals).__name__}")
    names = [(_entry_name(g), g) for g in safe_globals]   # validate all before adding any
    for name, g in names:
        _user_globals[name] = g


def clear_safe_globals():
    """Forgets every add_safe_globals entry."""
    _user_globals.clear()


class safe_globals:
    """Context manager: within the block, these globals are allowed too (as add_safe_globals);
    on exit the allow-list is what it was on entry."""

    def __init__(self, safe_globals):
        self.safe_globals = safe_globals

    def __enter__(self):
        self._saved = dict(_user_globals)
        add_safe_globals(self.safe_globals)

    def __exit__(self, *exc):
        _user_globals.clear()
        _user_globals.update(self._saved)


# ---- the restricted unpickler -----------------------------------------------------------

def _type_name(obj):
    t = obj if isinstance(obj, type) else type(obj)
    return f"{t.__module__}.{t.__qualname__}"


_P = pickle._Unpickler


class _WeightsUnpickler(_P):
    """See Note [Weights-only loading]."""

    def __init__(self, f, *, encoding="ASCII", errors="strict"):
        super().__init__(f, encoding=encoding, errors=errors)
        values, reducers = _default_globals()
        self._values = dict(values)
        self._reducers = dict(reducers)
        self._user_classes = set()
        for name, g in _user_globals.items():
            obj = g[0] if isinstance(g, tuple) else g
            self._values[name] = obj
            self._reducers[id(obj)] = obj
            if isinstance(obj, type):
                self._user_classes.add(id(obj))
        self._reducers[id(copyreg._reconstructor)] = self._reconstructor

    def load(self):
        try:
            return super().load()
        except (IndexError, KeyError, struct.error, UnicodeDecodeError) as e:
            raise pickle.UnpicklingError(f"the pickle data is corrupted or truncated "
                                         f"({type(e).__name__}: {e})") from e

    def find_class(self, module, name):
        if self.proto < 3 and self.fix_imports:   # Python 2 names, as pickle.Unpickler
            if (module, name) in _compat_pickle.NAME_MAPPING:
                module, name = _compat_pickle.NAME_MAPPING[(module, name)]
            elif module in _compat_pickle.IMPORT_MAPPING:
                module = _compat_pickle.IMPORT_MAPPING[module]
        key = f"{module}.{name}"
        if module.split(".")[0] in _BLOCKED_MODULES:
            raise _Refused(f"Trying to load unsupported GLOBAL {key} whose module {module} "
                           "is blocked.")
        obj = self._values.get(key)
        if obj is None:
            raise _Refused(f"Unsupported global: GLOBAL {key} was not an allowed global by "
                           f"default. Please use `minitorch.serialization.add_safe_globals"
                           f"([{name}])` or the `minitorch.serialization.safe_globals([{name}])`"
                           " context manager to allowlist this global if you trust this "
                           "class/function.")
        return obj

    def persistent_load(self, pid):
        raise _Refused(f"Unsupported persistent id {_short(pid)}: minitorch.save writes none")

    def _is_user_instance(self, obj):
        return id(type(obj)) in self._user_classes

    def _reconstructor(self, cls, base, state):
        """copyreg._reconstructor, what protocols 0 and 1 write for an instance of a plain
        class: only for add_safe_globals classes on a builtin base."""
        if id(cls) not in self._user_classes or not (
                base is object or base in (int, float, complex, str, bytes, tuple, list, dict,
                                           set, frozenset)):
            raise _Refused(f"Can only rebuild instances of classes allowlisted via "
                           f"`add_safe_globals`, but got {_short(cls)}")
        return copyreg._reconstructor(cls, base, state)

    # -- opcodes that call code or change an existing object --
    def load_reduce(self):
        args = self.stack.pop()
        func = self.stack[-1]
        call = self._reducers.get(id(func))
        if call is None:
            raise _Refused(f"Trying to call reduce for unrecognized function {_short(func)}")
        if type(args) is not tuple:
            raise pickle.UnpicklingError("REDUCE arguments must be a tuple")
        self.stack[-1] = call(*args)

    def _new(self, cls, args, kwargs):
        if not isinstance(cls, type) or id(cls) not in self._user_classes:
            raise _Refused("Can only create new object for classes allowlisted via "
                           f"`add_safe_globals` but got {_short(cls)}")
        if type(args) is not tuple or type(kwargs) is not dict:
            raise pickle.UnpicklingError("NEWOBJ arguments must be a tuple (and a dict)")
        self.append(cls.__new__(cls, *args, **kwargs))

    def load_newobj(self):
        args = self.stack.pop()
        self._new(self.stack.pop(), args, {})

    def load_newobj_ex(self):
        kwargs = self.stack.pop()
        args = self.stack.pop()
        self._new(self.stack.pop(), args, kwargs)

    def load_build(self):
        inst = self.stack[-2]
        if type(inst) in (collections.OrderedDict, collections.Counter):
            state = self.stack.pop()
            if type(state) is not dict or not all(type(k) is str for k in state):
                raise _Refused("BUILD of an OrderedDict takes a dict of attributes, got "
                               f"{_short(state)}")
            inst.__dict__.update(state)
        elif self._is_user_instance(inst):
            super().load_build()
        else:
            raise _Refused("Can only build collections.OrderedDict or instances of classes "
                           f"allowlisted via `add_safe_globals`, but got {_short(inst)} of "
                           f"type {_type_name(type(inst))}")

    def _target(self, kinds, what):
        obj = self.stack[-1]
        if type(obj) not in kinds and not self._is_user_instance(obj):
            raise _Refused(f"Can only {what}, but got {_type_name(type(obj))}")
        return obj

    def load_append(self):
        value = self.stack.pop()
        self._target((list,), "append to lists").append(value)

    def load_appends(self):
        items = self.pop_mark()
        obj = self._target((list,), "append to lists")
        extend = obj.extend if type(obj) is list else getattr(obj, "extend", None)
        if extend is not None:
            extend(items)
        else:                    # pickle's fallback, for an instance of an allowed class
            for item in items:
                obj.append(item)

    def load_setitem(self):
        value = self.stack.pop()
        key = self.stack.pop()
        self._target((dict, collections.OrderedDict, collections.Counter),
                     "SETITEM on dicts")[key] = value

    def load_setitems(self):
        items = self.pop_mark()
        obj = self._target((dict, collections.OrderedDict, collections.Counter),
                           "SETITEMS on dicts")
        for i in range(0, len(items), 2):
            obj[items[i]] = items[i + 1]

    def load_additems(self):
        items = self.pop_mark()
        obj = self._target((set,), "ADDITEMS to sets")
        if type(obj) is set:
            obj.update(items)
        else:
            for item in items:
                obj.add(item)

    def load_inst(self):
        module = self.readline()[:-1].decode("ascii")
        name = self.readline()[:-1].decode("ascii")
        self.find_class(module, name)    # names a global that is not allowed, if so
        raise _Refused(f"Unsupported operand INST (of {module}.{name}): minitorch.save "
                       "writes no INST")


def _refuse(opname):
    def load_refused(self):
        raise _Refused(f"Unsupported operand {opname}: minitorch.save writes no {opname}")
    return load_refused


class _Dispatch(dict):
    def __missing__(self, key):
        raise _Refused(f"Unsupported operand {bytes([key])!r}")


# pickle's own handlers for the opcodes that only build plain values or use the stack/memo;
# the checked ones above; everything else refused.
_PLAIN = ("PROTO FRAME STOP MARK POP POP_MARK DUP NONE NEWTRUE NEWFALSE INT BININT BININT1 "
          "BININT2 LONG LONG1 LONG4 FLOAT BINFLOAT STRING BINSTRING SHORT_BINSTRING UNICODE "
          "BINUNICODE SHORT_BINUNICODE BINUNICODE8 BINBYTES SHORT_BINBYTES BINBYTES8 "
          "BYTEARRAY8 EMPTY_TUPLE TUPLE TUPLE1 TUPLE2 TUPLE3 EMPTY_LIST LIST EMPTY_DICT DICT "
          "EMPTY_SET FROZENSET GET BINGET LONG_BINGET PUT BINPUT LONG_BINPUT MEMOIZE GLOBAL "
          "STACK_GLOBAL PERSID BINPERSID").split()
_CHECKED = {"REDUCE": _WeightsUnpickler.load_reduce, "NEWOBJ": _WeightsUnpickler.load_newobj,
            "NEWOBJ_EX": _WeightsUnpickler.load_newobj_ex, "BUILD": _WeightsUnpickler.load_build,
            "APPEND": _WeightsUnpickler.load_append, "APPENDS": _WeightsUnpickler.load_appends,
            "SETITEM": _WeightsUnpickler.load_setitem,
            "SETITEMS": _WeightsUnpickler.load_setitems,
            "ADDITEMS": _WeightsUnpickler.load_additems, "INST": _WeightsUnpickler.load_inst}
_WeightsUnpickler.dispatch = _Dispatch(
    {getattr(pickle, op)[0]: _P.dispatch[getattr(pickle, op)[0]] for op in _PLAIN})
_WeightsUnpickler.dispatch.update({getattr(pickle, op)[0]: fn for op, fn in _CHECKED.items()})
_WeightsUnpickler.dispatch.update({getattr(pickle, op)[0]: _refuse(op) for op in
                                   ("OBJ", "EXT1", "EXT2", "EXT4", "NEXT_BUFFER",
                                    "READONLY_BUFFER")})


def _weights_only_message(e):
    if not isinstance(e, _Refused):
        return f"Weights only load failed. {e}"
    return ("Weights only load failed. The file can still be loaded, in one of two ways; do "
            "either only if you trust where the file came from:\n"
            "  (1) minitorch.load(..., weights_only=False), which runs whatever code the file "
            "names;\n"
            "  (2) allow the global with minitorch.serialization.add_safe_globals([...]) or the "
            "minitorch.serialization.safe_globals([...]) context manager.\n"
            f"WeightsUnpickler error: {e}")


# ---- save / load --------------------------------------------------------------------------

def _env_true(name):
    return os.environ.get(name, "0") in ("1", "y", "yes", "true")


def _resolve_weights_only(weights_only, pickle_module):
    """torch's rules: TORCH_FORCE_WEIGHTS_ONLY_LOAD wins; TORCH_FORCE_NO_WEIGHTS_ONLY_LOAD
    only where the call did not pass weights_only; else True unless a pickle_module is given."""
    force, force_no = (_env_true("TORCH_FORCE_WEIGHTS_ONLY_LOAD"),
                       _env_true("TORCH_FORCE_NO_WEIGHTS_ONLY_LOAD"))
    if force and force_no:
        raise RuntimeError("Only one of `TORCH_FORCE_WEIGHTS_ONLY_LOAD` or "
                           "`TORCH_FORCE_NO_WEIGHTS_ONLY_LOAD` should be set, but both were set.")
    if force:
        weights_only = True
    elif force_no and weights_only is None:
        warnings.warn("Environment variable TORCH_FORCE_NO_WEIGHTS_ONLY_LOAD detected, since the "
                      "`weights_only` argument was not explicitly passed to `minitorch.load`, "
                      "forcing weights_only=False.", UserWarning, stacklevel=3)
        weights_only = False
    if weights_only is None:
        weights_only = pickle_module is None
    if weights_only and pickle_module is not None:
        raise RuntimeError("Can not safely load weights when explicit pickle_module is "
                           "specified")
    return weights_only


def save(obj, f, pickle_module=pickle, pickle_protocol=DEFAULT_PROTOCOL, **kwargs):
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
    TORCH_FORCE_NO_WEIGHTS_ONLY_LOAD is set and weights_only is not passed) loads only
    tensors, generators, dtypes, devices, Size, layouts, memory formats, the tensor classes,
    containers (dict, list, tuple, set, frozenset, OrderedDict, Counter), numbers, strings,
    bytes, and the globals allowed with add_safe_globals / safe_globals; anything else (NumPy
    arrays included) is a pickle.UnpicklingError naming it, and nothing the file names runs.
    See Note [Weights-only loading].

    weights_only=False is plain pickle, which is unsafe: it runs any code the file names.
    Use it only for files you trust."""
    if mmap:
        raise NotImplementedError("minitorch.load(mmap=True) is not supported: checkpoints are "
                                  "read into memory")
    weights_only = _resolve_weights_only(weights_only, pickle_module)
    pickle_load_args.setdefault("encoding", "utf-8")   # as torch: Python 2 str as text
    if isinstance(f, (str, bytes)) or hasattr(f, "__fspath__"):
        with open(f, "rb") as fh:
            return _load(fh, weights_only, pickle_module, pickle_load_args)
    return _load(f, weights_only, pickle_module, pickle_load_args)


def _load(fh, weights_only, pickle_module, pickle_load_args):
    if not weights_only:
        return (pickle_module or pickle).load(fh, **pickle_load_args)
    try:
        return _WeightsUnpickler(fh, **pickle_load_args).load()
    except pickle.UnpicklingError as e:
        raise pickle.UnpicklingError(_weights_only_message(e)) from None
