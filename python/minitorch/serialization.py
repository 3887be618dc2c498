"""minitorch.save / minitorch.load, in torch's checkpoint format, and the allow-list that keeps
load from running code.

Note [Checkpoint pickle]
save() writes what torch.save writes, so that each can load the other's files: a zip archive
(Note [Checkpoint archive layout] in _zip_archive.py) whose data.pkl is a pickle of the object in
which every tensor is
    torch._utils._rebuild_tensor_v2(storage, storage_offset, size, stride, requires_grad,
                                    backward_hooks)
with size and stride tuples, the tensor's requires_grad and backward_hooks an empty
OrderedDict, and storage a persistent id
    ("storage", torch.<Kind>Storage, key, location, numel)
that names record data/<key> of the archive, numel elements of the dtype <Kind> stands for
(FloatStorage float32, LongStorage int64, BFloat16Storage bfloat16, ...).  Dtypes torch has no
such class for (uint16/32/64, float8, complex32, bcomplex32) use
    torch._utils._rebuild_tensor_v3(..., backward_hooks, dtype)
with storage ("storage", torch.storage.UntypedStorage, key, location, nbytes), as torch does.
A storage is written once however many tensors view it (tensors on one storage share a key),
and its whole extent is written, so views load as views of one storage again.  Like torch,
save refuses two tensors that view one storage as different dtypes.  Dtypes, devices, Size,
layouts and the tensor classes are pickled under torch's names (torch.float16, torch.device,
torch.Size, torch.serialization._get_layout, torch.FloatTensor, ...); the rest of minitorch
(generators, memory formats) keeps its own names, which torch does not load.

Those names cannot come from pickle's C Pickler, which writes a global only after importing it,
so _Pickler is pickle's pure-Python Pickler with save_global writing torch's names for
minitorch's objects.  It is slower per object than the C one; the bytes of the storages do not
go through it.  load() maps the same names back onto minitorch: _rebuild_tensor_v2/_v3 build a
minitorch tensor on a minitorch storage (set_), the storage classes stand for their dtypes.
_use_new_zipfile_serialization=False writes torch's older format (one stream: magic number,
version, system info, the pickle with 6-element storage ids, the list of keys, then each storage
as an int64 element count and its bytes), which load() reads too, as it reads the pickles of
tensors by value that minitorch.save wrote before it wrote torch's format.

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
  numbers pickle names, collections.OrderedDict / Counter, plus add_safe_globals entries; and
  torch's names for the same things that checkpoints use (Note [Checkpoint pickle]): the
  tensor and parameter reconstructors, torch.<Kind>Storage and torch.storage.UntypedStorage
  (markers for a dtype, nothing else), dtypes, torch.device, torch.Size,
  torch.serialization._get_layout, the tensor classes.  Modules sys, os, posix and nt are
  refused even when added (as torch);
- REDUCE calls only the allowed callables, each through a check that accepts the arguments
  pickle writes for it and nothing lazy (no iterator or range where a list is written), so
  every object built is bounded by the size of the file; a tensor's byte count must match
  its shape and dtype before anything is allocated, and a tensor rebuilt on a storage must lie
  within it (offset, sizes and strides are checked before set_);
- persistent ids are honoured only in checkpoints, and only in the form save writes,
  ("storage", <storage class marker>, str key, str location, int numel): the storage is the
  archive's record data/<key>, read once however many ids name it, and never larger than the
  record (Note [Checkpoint archive layout] bounds the records by the size of the file);
- NEWOBJ / NEWOBJ_EX instantiate only add_safe_globals classes; BUILD sets state only on an
  OrderedDict / Counter (a dict of attributes) or an instance of an add_safe_globals class,
  never on a class, a function or a tensor;
- APPEND(S) only to lists, SETITEM(S) only to dicts, ADDITEMS only to sets (or instances of
  add_safe_globals classes);
- INST, OBJ, EXT1/2/4 and out-of-band buffers are refused: save writes none of them;
- no read asks the file for more than it has left (_BoundedReader), and BYTEARRAY8 reads its
  bytes before it allocates, so a length field in the pickle is never an allocation by itself.
pickle._Unpickler is CPython's reference implementation (private, but stable since 3.4;
tests/test_serialization.py loads every protocol through it).  It costs about 10 us more per
tensor than the C unpickler; a storage's bytes are read in one piece either way.
A refusal is a pickle.UnpicklingError naming the global, the callable or the type, raised
before the refused thing runs.  weights_only=False is plain pickle (torch's names still map
onto minitorch): only for files one trusts.
"""
import builtins
import collections
import copyreg
import functools
import io
import math
import os
import pickle
import struct
import sys
import threading
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


def _rebuild_tensor_checked(data, dtype, shape, requires_grad=False):
    """_rebuild_tensor, once the record is well formed: the byte count of shape and dtype
    equals the bytes given, so a small file cannot ask for a large tensor."""
    from ._tensor import _rebuild_tensor
    if (type(data) not in (bytes, bytearray) or type(dtype) is not _C.dtype
            or type(shape) is not tuple or type(requires_grad) is not bool
            or not all(type(s) is int and s >= 0 for s in shape)):
        raise _Refused(f"malformed tensor record: _rebuild_tensor({type(data).__name__}, "
                       f"{_short(dtype)}, {_short(shape)})")
    nbytes = math.prod(shape) * dtype.itemsize
    if nbytes != len(data):
        raise pickle.UnpicklingError(f"corrupted tensor record: shape {list(shape)} of {dtype} "
                                     f"needs {nbytes} bytes, the file holds {len(data)}")
    return _rebuild_tensor(data, dtype, shape, requires_grad)


def _generator_from_state_checked(state):
    from ._random import _generator_from_state
    if type(state) is not bytes:
        _refuse_args("_generator_from_state", (state,))
    return _generator_from_state(state)


# ---- torch's names (Note [Checkpoint pickle]) -----------------------------------------------

# torch's typed storage classes, by the dtype they hold
_STORAGE_CLASSES = {
    "float32": "FloatStorage", "float64": "DoubleStorage", "float16": "HalfStorage",
    "bfloat16": "BFloat16Storage", "int64": "LongStorage", "int32": "IntStorage",
    "int16": "ShortStorage", "int8": "CharStorage", "uint8": "ByteStorage", "bool": "BoolStorage",
    "complex64": "ComplexFloatStorage", "complex128": "ComplexDoubleStorage",
}


class _StorageType:
    """What a storage class named in a checkpoint's persistent ids stands for: the dtype of
    the elements that numel counts (uint8 for torch.storage.UntypedStorage, whose numel
    counts bytes)."""

    def __init__(self, name, dtype, untyped=False):
        self.name, self.dtype, self.untyped = name, dtype, untyped

    def __repr__(self):
        return self.name


class _TorchGlobal:
    """A name of torch's that save writes where minitorch has no object of that name."""

    def __init__(self, module, name):
        self.module, self.name = module, name

    def __repr__(self):
        return f"{self.module}.{self.name}"

    def __call__(self, *args):    # pickle's save_reduce wants a callable; this is never called
        raise TypeError(f"{self!r} stands for torch's name in a pickle")


_REBUILD_V2 = _TorchGlobal("torch._utils", "_rebuild_tensor_v2")
_REBUILD_V3 = _TorchGlobal("torch._utils", "_rebuild_tensor_v3")
_REBUILD_FROM_TYPE = _TorchGlobal("torch._tensor", "_rebuild_from_type_v2")
_GET_LAYOUT = _TorchGlobal("torch.serialization", "_get_layout")
_UNTYPED_STORAGE = _TorchGlobal("torch.storage", "UntypedStorage")
_TYPED_STORAGES = {dt: _TorchGlobal("torch", cls) for dt, cls in _STORAGE_CLASSES.items()}


def _checked_view(storage, offset, size, stride, dtype, what):
    """minitorch tensor of dtype on storage (a TypedStorage or UntypedStorage), once offset,
    size and stride are well formed and lie within the storage."""
    from ._storage import TypedStorage, UntypedStorage
    if isinstance(storage, TypedStorage):
        storage = storage.untyped()
    if (not isinstance(storage, UntypedStorage) or type(dtype) is not _C.dtype
            or type(offset) is not int or not 0 <= offset < 2**62
            or not isinstance(size, tuple) or not isinstance(stride, tuple)
            or len(size) != len(stride)
            or not all(type(v) is int and 0 <= v < 2**62 for v in size + stride)):
        raise _Refused(f"malformed tensor record: {what}({_short(storage)}, {_short(offset)}, "
                       f"{_short(size)}, {_short(stride)})")
    numel = math.prod(size)
    extent = offset + sum((n - 1) * st for n, st in zip(size, stride)) + 1 if numel else 0
    if numel >= 2**62 or extent * dtype.itemsize > storage.nbytes():
        raise pickle.UnpicklingError(
            f"corrupted tensor record: a tensor of size {list(size)}, stride {list(stride)} and "
            f"offset {offset} needs {extent} elements of {dtype}, its storage holds "
            f"{storage.nbytes() // dtype.itemsize}")
    from . import empty
    return empty((0,), dtype=dtype).set_(storage, offset, size, stride)


# pending: while the pickle of torch's pre-zip format loads (its storages are read after it),
# the tensors whose values wait for them
_loading = threading.local()


def _conj_neg(t, conj, neg):
    if conj:
        t = t.conj()
    return t.neg() if neg else t


def _finish_tensor(t, requires_grad, backward_hooks, metadata, what):
    if type(requires_grad) is not bool:
        raise _Refused(f"malformed tensor record: {what} with requires_grad "
                       f"{_short(requires_grad)}")
    if not isinstance(backward_hooks, dict) or backward_hooks:
        raise _Refused(f"{what} with backward hooks {_short(backward_hooks)}: hooks are not "
                       "loaded")
    if metadata is not None:
        if (type(metadata) is not dict or not set(metadata) <= {"conj", "neg"}
                or not all(type(v) is bool for v in metadata.values())):
            raise _Refused(f"{what} with tensor metadata {_short(metadata)}")
        # torch's lazily conjugated / negated views; minitorch has no such bits: the values
        # are computed (a copy, no longer sharing the storage)
        conj, neg = metadata.get("conj", False), metadata.get("neg", False)
        pending = getattr(_loading, "pending", None)
        if pending is not None and (conj or neg):   # the storage is not read yet: compute later
            from . import empty
            out = empty(tuple(t.shape), dtype=t.dtype)
            pending.append((out, t, conj, neg))
            t = out
        else:
            t = _conj_neg(t, conj, neg)
    if requires_grad:
        t.requires_grad_(True)
    return t


def _rebuild_tensor_v2(storage, storage_offset, size, stride, requires_grad, backward_hooks,
                       metadata=None):
    """torch._utils._rebuild_tensor_v2 of a checkpoint: a tensor on a loaded storage."""
    from ._storage import TypedStorage
    dtype = storage.dtype if isinstance(storage, TypedStorage) else _C.uint8
    t = _checked_view(storage, storage_offset, size, stride, dtype, "_rebuild_tensor_v2")
    return _finish_tensor(t, requires_grad, backward_hooks, metadata, "_rebuild_tensor_v2")


def _rebuild_tensor_v3(storage, storage_offset, size, stride, requires_grad, backward_hooks,
                       dtype, metadata=None):
    """torch._utils._rebuild_tensor_v3 of a checkpoint: as v2, the dtype given apart."""
    t = _checked_view(storage, storage_offset, size, stride, dtype, "_rebuild_tensor_v3")
    return _finish_tensor(t, requires_grad, backward_hooks, metadata, "_rebuild_tensor_v3")


def _rebuild_from_type_checked(func, new_type, args, state):
    """torch._tensor._rebuild_from_type_v2 under weights_only: func one of the tensor
    reconstructors (called through its own check), new_type a tensor class (an allowed global:
    a user's class only through add_safe_globals), state None, a dict of attributes or a
    (dict, slots) pair of them."""
    from . import _tensor
    checked = {id(_rebuild_tensor_v2): _rebuild_tensor_v2, id(_rebuild_tensor_v3): _rebuild_tensor_v3,
               id(_tensor._rebuild_tensor): _rebuild_tensor_checked}.get(id(func))

    def attrs(d):
        return d is None or (type(d) is dict and all(type(k) is str for k in d))
    if checked is None or not isinstance(new_type, type) or \
            not issubclass(new_type, _C.TensorBase) or type(args) is not tuple or not (
                attrs(state) or (type(state) is tuple and len(state) == 2 and
                                 attrs(state[0]) and attrs(state[1]))):
        _refuse_args("torch._tensor._rebuild_from_type_v2", (func, new_type, args, state))
    return _tensor._rebuild_from_type_v2(checked, new_type, args, state)


def _rebuild_parameter(data, requires_grad, backward_hooks):
    """torch._utils._rebuild_parameter: an nn.Parameter of the tensor."""
    if not isinstance(data, _C.TensorBase):
        _refuse_args("_rebuild_parameter", (data,))
    t = _finish_tensor(data.detach(), False, backward_hooks, None, "_rebuild_parameter")
    from .nn.parameter import Parameter
    return Parameter(t, requires_grad)


def _rebuild_parameter_with_state(data, requires_grad, backward_hooks, state):
    if state:
        raise _Refused(f"_rebuild_parameter_with_state with state {_short(state)}: parameter "
                       "attributes are not loaded")
    return _rebuild_parameter(data, requires_grad, backward_hooks)


def _get_layout(name):
    """torch.serialization._get_layout: "torch.strided" -> minitorch.strided."""
    import minitorch
    layouts = {f"torch.{n}": obj for n in dir(minitorch)
               if isinstance(obj := getattr(minitorch, n), minitorch.layout)}
    if type(name) is not str or name not in layouts:
        _refuse_args("torch.serialization._get_layout", (name,))
    return layouts[name]


def _rebuild_sparse_tensor(layout, data):
    """torch._utils._rebuild_sparse_tensor of a sparse COO tensor: data is (indices, values,
    size[, is_coalesced]); the indices are checked against the size as sparse_coo_tensor
    checks them."""
    import minitorch
    if layout is not minitorch.sparse_coo or type(data) is not tuple or \
            len(data) not in (3, 4) or not isinstance(data[0], minitorch.Tensor) or \
            not isinstance(data[1], minitorch.Tensor):
        _refuse_args("torch._utils._rebuild_sparse_tensor", (layout, data))
    coalesced = data[3] if len(data) == 4 else None
    return minitorch.sparse_coo_tensor(data[0], data[1], tuple(data[2]),
                                       is_coalesced=coalesced)


@functools.cache
def _torch_values():
    """torch's names that checkpoints use -> the minitorch objects load() gives for them."""
    import minitorch
    from . import _legacy
    values = {
        "torch._utils._rebuild_tensor_v2": _rebuild_tensor_v2,
        "torch._utils._rebuild_tensor_v3": _rebuild_tensor_v3,
        "torch._utils._rebuild_parameter": _rebuild_parameter,
        "torch._utils._rebuild_parameter_with_state": _rebuild_parameter_with_state,
        "torch._utils._rebuild_sparse_tensor": _rebuild_sparse_tensor,
        "torch.serialization._get_layout": _get_layout,
        "torch.Size": minitorch.Size, "torch.device": minitorch.device,
        "torch.Tensor": minitorch.Tensor,
        "torch.storage.UntypedStorage": _StorageType("torch.storage.UntypedStorage",
                                                     _C.uint8, untyped=True),
    }
    for dt, cls in _STORAGE_CLASSES.items():
        for module in ("torch", "torch.cuda"):      # torch < 1.13 named CUDA storages so
            values[f"{module}.{cls}"] = _StorageType(f"{module}.{cls}", getattr(minitorch, dt))
    for name in dir(minitorch):
        obj = getattr(minitorch, name)
        if isinstance(obj, _C.dtype) or (isinstance(obj, type) and name in _legacy.__all__):
            values[f"torch.{name}"] = obj
    return values


@functools.cache
def _torch_names():
    """id(minitorch object) -> (object, torch module, torch name) for what save() pickles under
    torch's name."""
    import minitorch
    from . import _legacy
    names = {}
    for obj, name in [(minitorch.Size, "Size"), (minitorch.device, "device"),
                      (minitorch.Tensor, "Tensor")] + [
            (getattr(minitorch, n), n) for n in _legacy.__all__]:
        names[id(obj)] = (obj, "torch", name)
    for name in dir(minitorch):
        obj = getattr(minitorch, name)
        if isinstance(obj, _C.dtype):
            names[id(obj)] = (obj, "torch", obj.__reduce__())     # the canonical name
    # nn.Parameter pickles as _rebuild_parameter(tensor, requires_grad, hooks)
    names[id(_rebuild_parameter)] = (_rebuild_parameter, "torch._utils", "_rebuild_parameter")
    # a sparse COO tensor as _rebuild_sparse_tensor(layout, (indices, values, size, coalesced))
    names[id(_rebuild_sparse_tensor)] = (_rebuild_sparse_tensor, "torch._utils",
                                         "_rebuild_sparse_tensor")
    return names


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
        "minitorch._tensor._rebuild_from_type_v2": _tensor._rebuild_from_type_v2,
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
    values.update(_torch_values())
    reducers = {
        _rebuild_tensor_v2: _rebuild_tensor_v2,
        _rebuild_tensor_v3: _rebuild_tensor_v3,
        _rebuild_parameter: _rebuild_parameter,
        _rebuild_parameter_with_state: _rebuild_parameter_with_state,
        _get_layout: _get_layout,
        _rebuild_sparse_tensor: _rebuild_sparse_tensor,
        _tensor._rebuild_tensor: _rebuild_tensor_checked,
        _tensor._rebuild_from_type_v2: _rebuild_from_type_checked,
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


class _BoundedReader:
    """read / readline of a seekable binary file that never ask it for more bytes than it has
    left: pickle reads the length fields of BINBYTES8, BINUNICODE8, LONG4, FRAME, ... as the
    size of a read, and a file's read(n) allocates n bytes before it reads, so without the bound
    a few bytes of pickle could ask for terabytes."""

    def __init__(self, f):
        self._f = f
        pos = f.tell()
        self._left = f.seek(0, os.SEEK_END) - pos
        f.seek(pos)

    def read(self, n=-1):
        data = self._f.read(self._left if n is None or n < 0 or n > self._left else n)
        self._left -= len(data)
        return data

    def readline(self, n=-1):
        data = self._f.readline(self._left if n is None or n < 0 or n > self._left else n)
        self._left -= len(data)
        return data


class _WeightsUnpickler(_P):
    """See Note [Weights-only loading]."""

    def __init__(self, f, *, encoding="ASCII", errors="strict", storages=None):
        seekable = getattr(f, "seekable", None)
        if seekable is not None and seekable() and type(f) is not io.BytesIO:
            f = _BoundedReader(f)     # (BytesIO.read(n) allocates no more than it holds)
        super().__init__(f, encoding=encoding, errors=errors)
        self._storages = storages      # persistent id -> storage, in a checkpoint
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
        except (IndexError, KeyError, struct.error, UnicodeDecodeError, EOFError) as e:
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
        if obj is None and _is_torch_module(module):      # Note [torch's names of classes]
            obj = self._values.get("mini" + key)
        if obj is None:
            raise _Refused(f"Unsupported global: GLOBAL {key} was not an allowed global by "
                           f"default. Please use `minitorch.serialization.add_safe_globals"
                           f"([{name}])` or the `minitorch.serialization.safe_globals([{name}])`"
                           " context manager to allowlist this global if you trust this "
                           "class/function.")
        return obj

    def persistent_load(self, pid):
        if self._storages is None:
            raise _Refused(f"Unsupported persistent id {_short(pid)}: only the pickle of a "
                           "checkpoint names storages")
        return self._storages(pid)

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

    def load_bytearray8(self):
        # pickle's own allocates the length the file claims before reading it
        n, = struct.unpack("<Q", self.read(8))
        data = self.read(n)
        if len(data) != n:
            raise pickle.UnpicklingError(f"the pickle data is truncated: BYTEARRAY8 of {n} "
                                         f"bytes, {len(data)} left")
        self.append(bytearray(data))

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
          "EMPTY_TUPLE TUPLE TUPLE1 TUPLE2 TUPLE3 EMPTY_LIST LIST EMPTY_DICT DICT "
          "EMPTY_SET FROZENSET GET BINGET LONG_BINGET PUT BINPUT LONG_BINPUT MEMOIZE GLOBAL "
          "STACK_GLOBAL PERSID BINPERSID").split()
_CHECKED = {"REDUCE": _WeightsUnpickler.load_reduce, "NEWOBJ": _WeightsUnpickler.load_newobj,
            "NEWOBJ_EX": _WeightsUnpickler.load_newobj_ex, "BUILD": _WeightsUnpickler.load_build,
            "APPEND": _WeightsUnpickler.load_append, "APPENDS": _WeightsUnpickler.load_appends,
            "SETITEM": _WeightsUnpickler.load_setitem,
            "SETITEMS": _WeightsUnpickler.load_setitems,
            "ADDITEMS": _WeightsUnpickler.load_additems, "INST": _WeightsUnpickler.load_inst,
            "BYTEARRAY8": _WeightsUnpickler.load_bytearray8}
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



# ---- writing (Note [Checkpoint pickle]) ----------------------------------------------------

class _StorageRef:
    """Stands for a storage in the arguments of a tensor's reconstructor; pickled as its
    persistent id."""
    __slots__ = ("pid",)

    def __init__(self, pid):
        self.pid = pid


def _new_storage(nbytes):
    """An UntypedStorage of nbytes left unfilled (the caller fills all of it): its pages are
    touched once, by the read that fills them."""
    from . import empty
    return empty((nbytes,), dtype=_C.uint8).untyped_storage()


def _bytes_of(storage):
    """The bytes of an UntypedStorage as a writable 1-d memoryview (no copy)."""
    from . import empty
    n = storage.nbytes()
    if not n:
        return memoryview(bytearray())
    if storage.device.type != "cpu":
        # device memory is never read by the host: a host copy of its bytes (for saving)
        view = empty((0,), dtype=_C.uint8, device=storage.device).set_(storage, 0, (n,), (1,))
        return memoryview(view.cpu())
    return memoryview(empty((0,), dtype=_C.uint8).set_(storage, 0, (n,), (1,)))


class _Pickler(pickle._Pickler):
    """pickle's Python Pickler writing tensors and storages by persistent id, and minitorch's
    dtypes, devices, Size, layouts and tensor classes under torch's names.  storages: key ->
    (UntypedStorage, dtype, numel of the id) in the order the keys were given."""

    dispatch = dict(pickle._Pickler.dispatch)
    dispatch[_TorchGlobal] = lambda self, obj: self.save_global(obj)
    # functions too go through save_global, so that those with a torch name get it
    dispatch[type(_rebuild_parameter)] = lambda self, obj: self.save_global(obj)

    def __init__(self, file, protocol, legacy):
        super().__init__(file, protocol)
        self._legacy = legacy          # torch's pre-zip format: 6-element ids
        self.storages = {}
        self._keys = {}                # (data_ptr, nbytes) -> key
        self._names = _torch_names()
        import minitorch
        self._layout, self._tensor_reduce = minitorch.layout, minitorch.Tensor.__reduce_ex__
        self._tensor_class = minitorch.Tensor
        self._typed_storage, self._untyped_storage = (minitorch.TypedStorage,
                                                      minitorch.UntypedStorage)

    def _ref(self, storage, dtype, cls):
        """The persistent id of storage (an UntypedStorage) viewed as dtype, named by cls."""
        nbytes = storage.nbytes()
        ident = (storage.data_ptr(), nbytes)
        numel = nbytes if cls is _UNTYPED_STORAGE else nbytes // dtype.itemsize
        key = self._keys.get(ident) if nbytes else None
        if key is None:
            key = str(len(self.storages))
            self.storages[key] = (storage, dtype, numel)
            if nbytes:
                self._keys[ident] = key
        elif self.storages[key][1] is not dtype:
            raise RuntimeError("Cannot save multiple tensors or storages that view the same "
                               "data as different types")
        # one "cpu" string object: pickled once, then fetched from the memo, as torch writes it
        pid = ("storage", cls, key, sys.intern(str(storage.device)), numel)
        return pid + (None,) if self._legacy else pid

    def persistent_id(self, obj):
        if type(obj) is _StorageRef:
            return obj.pid
        if isinstance(obj, self._untyped_storage):       # storages saved for themselves
            return self._ref(obj, _C.uint8, _UNTYPED_STORAGE)
        if isinstance(obj, self._typed_storage):
            cls = _TYPED_STORAGES.get(obj.dtype.__reduce__(), _UNTYPED_STORAGE)
            return self._ref(obj.untyped(), obj.dtype, cls)
        return None

    def reducer_override(self, obj):
        if isinstance(obj, _C.TensorBase) and type(obj).__reduce_ex__ is self._tensor_reduce:
            dtype = obj.dtype
            cls = _TYPED_STORAGES.get(dtype.__reduce__())
            ref = _StorageRef(self._ref(obj.untyped_storage(), dtype, cls or _UNTYPED_STORAGE))
            args = (ref, obj.storage_offset(), tuple(obj.shape), tuple(obj.stride()),
                    bool(obj.requires_grad), collections.OrderedDict())
            rebuild = (_REBUILD_V2, args) if cls else (_REBUILD_V3, args + (dtype,))
            state = obj.__getstate__()
            if type(obj) is self._tensor_class and not state:
                return rebuild
            # a subclass keeps its class, and any tensor its attributes, as torch writes them
            return (_REBUILD_FROM_TYPE, (rebuild[0], type(obj), rebuild[1], state))
        if type(obj) is self._layout:
            return (_GET_LAYOUT, (f"torch.{obj.__reduce__()}",))
        return NotImplemented

    def save_global(self, obj, name=None):
        if type(obj) is _TorchGlobal:
            module, name = obj.module, obj.name
        else:
            entry = self._names.get(id(obj))
            if entry is None or entry[0] is not obj:
                return super().save_global(obj, name)
            _, module, name = entry
        if self.proto >= 4:
            self.save(module)
            self.save(name)
            self.write(pickle.STACK_GLOBAL)
        else:
            self.write(pickle.GLOBAL + f"{module}\n{name}\n".encode("ascii"))
        self.memoize(obj)


_LEGACY_MAGIC = 0x1950A86A20F9469CFC6C      # torch's pre-zip format: the first pickle
_LEGACY_VERSION = 1001


def _save_zip(obj, f, folder, protocol, byteorder_record):
    from ._zip_archive import ZipWriter
    buf = io.BytesIO()
    pickler = _Pickler(buf, protocol, legacy=False)
    pickler.dump(obj)
    w = ZipWriter(f.write, folder)
    w.add("data.pkl", buf.getbuffer())
    w.add(".format_version", b"1")
    w.add(".storage_alignment", b"64")
    if byteorder_record:
        w.add("byteorder", sys.byteorder.encode())
    for key, (storage, _, _) in pickler.storages.items():
        w.add(f"data/{key}", _bytes_of(storage))
    w.add("version", b"3\n")
    w.add(".data/serialization_id", w.serialization_id().encode())
    w.finish()


def _save_legacy(obj, f, protocol):
    from ._zip_archive import write_all
    info = {"protocol_version": _LEGACY_VERSION, "little_endian": sys.byteorder == "little",
            "type_sizes": {"short": 2, "int": 4, "long": 4}}
    for header in (_LEGACY_MAGIC, _LEGACY_VERSION, info):
        pickle.dump(header, f, protocol=protocol)
    pickler = _Pickler(f, protocol, legacy=True)
    pickler.dump(obj)
    pickle.dump(list(pickler.storages), f, protocol=protocol)
    for storage, _, numel in pickler.storages.values():
        write_all(f.write, struct.pack("<q", numel))
        write_all(f.write, _bytes_of(storage))


def _archive_folder(path):
    """The folder torch names the records after: the file name without directories and
    extension ("archive" where that leaves nothing)."""
    base = os.path.basename(os.fsdecode(path).replace("\\", "/"))
    stem = base.rpartition(".")[0] if "." in base else base
    return stem or "archive"


def save(obj, f, pickle_module=pickle, pickle_protocol=DEFAULT_PROTOCOL,
         _use_new_zipfile_serialization=True, _disable_byteorder_record=False):
    """Saves obj to f (a path, or a binary file object that has write()) in torch's
    checkpoint format: torch.load reads what this writes, and load() reads what torch.save
    writes (Note [Checkpoint pickle]).  Tensors that share a storage are written with it once
    and load as views of one storage again.

    pickle_protocol: 2 by default, as torch (torch's weights-only load reads protocols 2 and
    3); protocol 0 cannot write the storages' persistent ids.
    _use_new_zipfile_serialization=False writes torch's older single-stream format."""
    if pickle_module is not pickle:
        raise ValueError("minitorch.save writes its pickles with the standard pickle module "
                         f"(it writes torch's names for minitorch's objects); got "
                         f"pickle_module={_short(pickle_module)}")
    if not 1 <= pickle_protocol <= pickle.HIGHEST_PROTOCOL:
        raise ValueError(f"pickle_protocol must be 1 to {pickle.HIGHEST_PROTOCOL}, got "
                         f"{pickle_protocol}: protocol 0 cannot write the persistent ids that "
                         "name storages")
    path = isinstance(f, (str, bytes)) or hasattr(f, "__fspath__")
    fh = open(f, "wb") if path else f
    try:
        if _use_new_zipfile_serialization:
            _save_zip(obj, fh, _archive_folder(f) if path else "archive", pickle_protocol,
                      not _disable_byteorder_record)
        else:
            _save_legacy(obj, fh, pickle_protocol)
    finally:
        if path:
            fh.close()


# ---- reading ---------------------------------------------------------------------------------

def _cuda_unavailable():
    return RuntimeError("Attempting to deserialize object on a CUDA device but "
                        "minitorch.cuda.is_available() is False. If you are running on a "
                        "CPU-only machine, please use minitorch.load with "
                        "map_location=minitorch.device('cpu') to map your storages to the CPU.")


def _default_restore(storage, location):
    """The storage, placed on location (a device string, as checkpoints tag storages)."""
    import minitorch
    if isinstance(location, minitorch.device):
        location = str(location)
    try:
        device = minitorch.device(location) if isinstance(location, str) else None
    except (RuntimeError, ValueError, TypeError):
        device = None
    if device is not None and device.type == "cpu":
        return storage
    if device is not None and device.type == "cuda":
        if minitorch.cuda.device_count() == 0:
            raise _cuda_unavailable()
        if device.index is not None and device.index >= minitorch.cuda.device_count():
            raise RuntimeError(f"Attempting to deserialize object on CUDA device {device.index} "
                               f"but minitorch.cuda.device_count() is "
                               f"{minitorch.cuda.device_count()}. Please use minitorch.load "
                               "with map_location to map your storages to an existing device.")
        # the host bytes read from the checkpoint, copied to the device
        n = storage.nbytes()
        host = minitorch.empty((0,), dtype=minitorch.uint8).set_(storage, 0, (n,), (1,))
        return host.to(device).untyped_storage()
    raise RuntimeError("don't know how to restore data location of minitorch.UntypedStorage "
                       f"(tagged with {location!r})")


def _restore_location(map_location):
    """map_location, as a function (storage, saved location) -> storage."""
    import minitorch
    if map_location is None:
        return _default_restore
    if isinstance(map_location, dict):
        return lambda s, loc: _default_restore(s, map_location.get(loc, loc))
    if isinstance(map_location, (str, bytes, minitorch.device)):
        target = (map_location.decode() if isinstance(map_location, bytes)
                  else str(map_location))
        return lambda s, loc: _default_restore(s, target)
    if callable(map_location):
        def restore(s, loc):
            result = map_location(s, loc)
            return _default_restore(s, loc) if result is None else result
        return restore
    raise TypeError("map_location must be None, a string, a minitorch.device, a dict or a "
                    f"callable, got {type(map_location).__name__}")


def _restored(restore, storage, location, nbytes):
    """restore(storage, location), checked to be a storage of at least nbytes bytes."""
    import minitorch
    result = restore(storage, location)
    if isinstance(result, minitorch.TypedStorage):
        result = result.untyped()
    if not isinstance(result, minitorch.UntypedStorage):
        raise TypeError(f"map_location returned {type(result).__name__}, not a storage")
    if result.nbytes() < nbytes:
        raise RuntimeError(f"map_location returned a storage of {result.nbytes()} bytes for "
                           f"one of {nbytes}")
    return result


def _storage_id(pid, length):
    """(storage type, key, location, numel) of a well-formed persistent id."""
    if (type(pid) is not tuple or len(pid) != length or pid[0] != "storage"
            or type(pid[1]) is not _StorageType or type(pid[2]) is not str
            or type(pid[3]) is not str or type(pid[4]) is not int or not 0 <= pid[4] < 2**62
            or (length == 6 and pid[5] is not None)):
        raise _Refused(f"Unsupported persistent id {_short(pid)}: a checkpoint names a storage "
                       f"as ('storage', <storage class>, key, location, numel"
                       f"{', None' if length == 6 else ''})")
    return pid[1], pid[2], pid[3], pid[4]


def _as_loaded(untyped, stype, numel):
    """What a persistent id stands for: a TypedStorage of its dtype on the loaded bytes, or
    the UntypedStorage itself."""
    if stype.untyped:
        return untyped
    from . import empty
    return empty((0,), dtype=stype.dtype).set_(untyped, 0, (numel,), (1,)).storage()


def _swap_bytes(untyped, dtype):
    """Byte-swaps the elements of a storage in place (a checkpoint of the other byte order)."""
    import numpy as np
    k = dtype.itemsize // (2 if dtype.is_complex else 1)
    if k > 1 and untyped.nbytes():
        view = _bytes_of(untyped)
        np.frombuffer(view, dtype=f"u{k}", count=view.nbytes // k).byteswap(inplace=True)


class _ArchiveStorages:
    """persistent_load of a checkpoint archive: each key's record is read (or mapped) once,
    when first named, and shared by every tensor that names it."""

    def __init__(self, reader, restore, mmap, swap):
        self._reader, self._restore, self._mmap, self._swap = reader, restore, mmap, swap
        self._loaded = {}

    def __call__(self, pid):
        import minitorch
        stype, key, location, numel = _storage_id(pid, 5)
        nbytes = numel * stype.dtype.itemsize
        untyped = self._loaded.get(key)
        if untyped is None:
            name = f"data/{key}"
            if nbytes > self._reader.record_size(name):
                raise pickle.UnpicklingError(
                    f"corrupted checkpoint: storage {key} of {numel} {stype.dtype} elements "
                    f"needs {nbytes} bytes, record {name} holds "
                    f"{self._reader.record_size(name)}")
            view = self._reader.map(name, nbytes) if self._mmap and nbytes else None
            if view is not None:
                import numpy as np
                untyped = minitorch.from_numpy(np.frombuffer(view, np.uint8)).untyped_storage()
            else:
                untyped = _new_storage(nbytes)
                self._reader.read_into(name, _bytes_of(untyped))
            if self._swap:
                _swap_bytes(untyped, stype.dtype)
            untyped = _restored(self._restore, untyped, location, nbytes)
            self._loaded[key] = untyped
        elif untyped.nbytes() < nbytes:
            raise pickle.UnpicklingError(f"corrupted checkpoint: storage {key} is named with "
                                         f"{untyped.nbytes()} and with {nbytes} bytes")
        return _as_loaded(untyped, stype, numel)


class _LegacyStorages:
    """persistent_load of torch's pre-zip format: storages are allocated when named (their
    bytes follow the pickle), no more in all than the file holds."""

    def __init__(self, restore, budget):
        self._restore, self._budget = restore, budget
        self.loaded = {}       # key -> (UntypedStorage, dtype)

    def __call__(self, pid):
        import minitorch
        stype, key, location, numel = _storage_id(pid, 6)
        nbytes = numel * stype.dtype.itemsize
        entry = self.loaded.get(key)
        if entry is None:
            if nbytes > self._budget:
                raise pickle.UnpicklingError(f"corrupted checkpoint: storage {key} of {nbytes} "
                                             "bytes is larger than the rest of the file")
            self._budget -= nbytes
            untyped = _new_storage(nbytes)
            restored = _restored(self._restore, untyped, location, nbytes)
            if restored.data_ptr() != untyped.data_ptr():
                raise RuntimeError("in torch's pre-zip format the storages' bytes follow the "
                                   "pickle: map_location must return the storage it is given")
            entry = self.loaded[key] = (untyped, stype.dtype)
        elif entry[0].nbytes() != nbytes:
            raise pickle.UnpicklingError(f"corrupted checkpoint: storage {key} is named with "
                                         f"{entry[0].nbytes()} and with {nbytes} bytes")
        return _as_loaded(entry[0], stype, numel)


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


def load(f, map_location=None, pickle_module=None, *, weights_only=None, mmap=None,
         **pickle_load_args):
    """Loads what save() or torch.save wrote (the zip checkpoint format, and torch's older
    single-stream one) and the pickles of tensors by value that minitorch.save wrote before
    (Note [Checkpoint pickle]).  Tensors that shared a storage share one again.

    map_location says where storages go, from the location they were saved on ("cpu",
    "cuda:0", ...): None keeps it; a string or a minitorch.device puts every storage there; a
    dict maps saved locations to others (locations not in it are kept); a callable
    (storage, location) returns the storage to use (None for the default).  minitorch has
    only the CPU: a storage that would go on a CUDA device raises RuntimeError, so checkpoints
    saved on a GPU load with map_location="cpu".  requires_grad is restored, backward hooks
    are not.

    mmap=True (a path to a zip checkpoint only) maps the file instead of reading it: the
    storages are private copy-on-write maps of its records.

    weights_only=True (the default, unless an explicit pickle_module is given or
    TORCH_FORCE_NO_WEIGHTS_ONLY_LOAD is set and weights_only is not passed) loads only
    tensors, generators, dtypes, devices, Size, layouts, memory formats, the tensor classes,
    containers (dict, list, tuple, set, frozenset, OrderedDict, Counter), numbers, strings,
    bytes, and the globals allowed with add_safe_globals / safe_globals; anything else (NumPy
    arrays included) is a pickle.UnpicklingError naming it, and nothing the file names runs.
    See Note [Weights-only loading].

    weights_only=False is plain pickle, which is unsafe: it runs any code the file names.
    Use it only for files you trust."""
    weights_only = _resolve_weights_only(weights_only, pickle_module)
    restore = _restore_location(map_location)
    pickle_load_args.setdefault("encoding", "utf-8")   # as torch: Python 2 str as text
    if isinstance(f, (str, bytes)) or hasattr(f, "__fspath__"):
        with open(f, "rb") as fh:
            return _load(fh, restore, weights_only, pickle_module, bool(mmap), pickle_load_args)
    if mmap:
        raise ValueError("f must be a file path in order to use the mmap argument")
    return _load(f, restore, weights_only, pickle_module, False, pickle_load_args)


_LEGACY_HEADS = [pickle.dumps(_LEGACY_MAGIC, protocol=p) for p in range(
    pickle.HIGHEST_PROTOCOL + 1)]


def _load(fh, restore, weights_only, pickle_module, mmap, pickle_load_args):
    seekable = getattr(fh, "seekable", None)
    if seekable is None or not seekable():
        fh = io.BytesIO(fh.read())
    start = fh.tell()
    head = fh.read(64)
    fh.seek(start)

    def unpickler(stream, storages=None):
        if weights_only:
            return _WeightsUnpickler(stream, storages=storages, **pickle_load_args)
        return _plain_unpickler(pickle_module, stream, storages, pickle_load_args)

    try:
        if head[:4] in (b"PK\x03\x04", b"PK\x05\x06"):
            return _load_archive(fh, restore, unpickler, mmap)
        if mmap:
            raise RuntimeError("mmap can only be used with files saved with "
                               "`minitorch.save(_use_new_zipfile_serialization=True)`, please "
                               "save your checkpoint with this option in order to use mmap.")
        if any(head.startswith(h) for h in _LEGACY_HEADS):
            return _load_legacy(fh, restore, unpickler)
        if not weights_only:      # a pickle of tensors by value (minitorch before the archive)
            return (pickle_module or pickle).load(fh, **pickle_load_args)
        return unpickler(fh).load()
    except pickle.UnpicklingError as e:
        if not weights_only:
            raise
        raise pickle.UnpicklingError(_weights_only_message(e)) from None


def _load_archive(fh, restore, unpickler, mmap):
    from ._zip_archive import ArchiveError, ZipReader
    reader = ZipReader(fh)
    if not reader.has_record("data.pkl"):
        if reader.has_record("constants.pkl"):
            raise ArchiveError("this is a TorchScript archive (torch.jit.save); minitorch "
                               "cannot load TorchScript")
        raise ArchiveError("the archive has no data.pkl record: not a checkpoint")
    byteorder = reader.read("byteorder") if reader.has_record("byteorder") else b"little"
    if byteorder not in (b"little", b"big"):
        raise ArchiveError(f"Unknown endianness type: {byteorder[:16]!r}")
    storages = _ArchiveStorages(reader, restore, mmap, byteorder.decode() != sys.byteorder)
    return unpickler(io.BytesIO(reader.read("data.pkl")), storages).load()


def _load_legacy(fh, restore, unpickler):
    from ._zip_archive import read_into
    start = fh.tell()
    size = fh.seek(0, os.SEEK_END)
    fh.seek(start)
    if unpickler(fh).load() != _LEGACY_MAGIC:
        raise RuntimeError("Invalid magic number; corrupt file?")
    version = unpickler(fh).load()
    if version != _LEGACY_VERSION:
        raise RuntimeError(f"Invalid protocol version: {_short(version)}")
    info = unpickler(fh).load()
    if type(info) is not dict or info.get("little_endian") is not True:
        raise RuntimeError("this checkpoint in torch's pre-zip format was saved on a "
                           "big-endian machine, which minitorch does not load")
    storages = _LegacyStorages(restore, size - start)
    _loading.pending = pending = []
    try:
        result = unpickler(fh, storages).load()
    finally:
        _loading.pending = None
    keys = unpickler(fh).load()
    if type(keys) is not list or sorted(keys) != sorted(storages.loaded) or len(set(keys)) != \
            len(keys):
        raise pickle.UnpicklingError("corrupted checkpoint: the list of storages does not "
                                     "match the storages the pickle names")
    for key in keys:
        untyped, dtype = storages.loaded[key]
        head = fh.read(8)
        count = struct.unpack("<q", head)[0] if len(head) == 8 else -1
        if count * dtype.itemsize != untyped.nbytes():
            raise RuntimeError(f"corrupted checkpoint: storage {key} has wrong byte size: "
                               f"expected {untyped.nbytes()} got {count * dtype.itemsize}")
        if not read_into(fh, _bytes_of(untyped)):
            raise RuntimeError(f"corrupted checkpoint: storage {key} ends early")
    prev = _C._set_grad_enabled(False)       # the tensors may require grad (leaves)
    try:
        for out, view, conj, neg in pending:
            out.copy_(_conj_neg(view, conj, neg))
    finally:
        _C._set_grad_enabled(prev)
    return result


# Note [torch's names of classes]
# A file torch.save wrote of a whole module (or any object holding torch's classes) names them
# as torch.nn.modules.conv.Conv2d and so on.  Loading it here gives minitorch's class of the same
# path (minitorch.nn.modules.conv.Conv2d), never torch's own even where torch is installed too:
# a program on minitorch cannot use torch's objects.  Weights-only loads look the twin up in the
# allow-list only (the user allows minitorch's class, which torch's name then reaches); plain
# loads import it.  A torch name without a minitorch twin goes on as pickle would resolve it.
def _is_torch_module(module):
    return module == "torch" or module.startswith("torch.")


def _minitorch_twin(module, name):
    """minitorch's object at torch's path module.name, or None."""
    import importlib
    try:
        mod = importlib.import_module("mini" + module)
    except ImportError:
        return None
    obj = mod
    for part in name.split("."):
        obj = getattr(obj, part, None)
        if obj is None:
            return None
    return obj


def _plain_unpickler(pickle_module, stream, storages, pickle_load_args):
    """pickle_module's Unpickler, with torch's names mapped onto minitorch (weights_only=False)."""
    torch_values = _torch_values()

    class Unpickler((pickle_module or pickle).Unpickler):
        def find_class(self, module, name):
            obj = torch_values.get(f"{module}.{name}")
            if obj is None and _is_torch_module(module):  # Note [torch's names of classes]
                obj = _minitorch_twin(module, name)
            return obj if obj is not None else super().find_class(module, name)

        def persistent_load(self, pid):
            if storages is None:
                raise pickle.UnpicklingError(f"Unsupported persistent id {_short(pid)}: only "
                                             "the pickle of a checkpoint names storages")
            return storages(pid)

    return Unpickler(stream, **pickle_load_args)
