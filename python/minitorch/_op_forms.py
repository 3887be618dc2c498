"""Builds the Python forms of the op table's rows (see _op_table.py): the Tensor methods written
in Python and every minitorch.<name> function.

Note [Recording Python ops]
The C entry points of the table are recorded by their C wrappers (Note [Recording an op] in
csrc/autograd/autograd.h).  A form written in Python whose row names a derivative formula
(grad other than None and 'nondiff') is wrapped here the same way: when some tensor requires
grad, grad mode is on and an argument requires grad, the call goes to autograd._record.record
under the key "p.<name>" (the wrapper is a _C._PyOp, csrc/autograd/state.c: while no tensor
requires grad it costs one compare), which runs the Python implementation
(PY_IMPLS[name]) with grad mode off and records it as one op.  In-place forms ("p.<name>_")
are recorded as in-place ops (also those of 'nondiff' rows, which give self a zero gradient).
The Python forms of 'nondiff' rows run with grad mode off.  Python rows without a formula are
composites: differentiable through the recorded ops they call."""
import functools
import importlib

from . import _C
from ._checks import scalar_type_name as _scalar_type_name
from ._op_table import OPS


def _resolve(spec, name):
    """'py:module[.attr]' -> the Python function (module may be dotted: 'py:nn._ops');
    'C:family' -> the minitorch._C one."""
    if spec.startswith("C:"):
        return getattr(_C, name)
    path = spec[3:]
    try:
        return getattr(importlib.import_module("minitorch." + path), name)
    except ModuleNotFoundError:
        module, _, attr = path.rpartition(".")
        return getattr(importlib.import_module("minitorch." + module), attr)


# "<name>" / "<name>_" -> the Python implementation the key "p.<name>" of the recorder runs
PY_IMPLS = {}


def _differentiable(row):
    return row["grad"] not in (None, "nondiff")


def _records_inplace(row):
    """In-place Python forms are recorded unless the row has no formula: those of 'nondiff'
    rows too (random fills), which give self a zero gradient, as torch."""
    return row["grad"] is not None


def _recorded(fn, name):
    """fn, recorded as the op `name` when an argument requires grad (Note [Recording Python
    ops]): a _C._PyOp, which calls fn itself after one compare while no tensor requires
    grad."""
    PY_IMPLS[name] = fn
    return functools.update_wrapper(_C._PyOp(fn, "p." + name), fn)


def _without_grad(fn, name):
    """fn run with grad mode off when some tensor requires grad: the outputs of a 'nondiff'
    row never require grad, whatever recorded ops its Python implementation uses.  While op
    watchers are active the call goes to the recorder too, which runs PY_IMPLS[name]."""
    PY_IMPLS[name] = fn
    return functools.update_wrapper(_C._PyOp(fn, "p." + name, True), fn)


_forms_cache = {}
FORMS = {}      # name -> its Python form (wrapped when recorded), for the properties that use it


def _python_form(row, spec, name):
    """The Python function of `spec` for the row, wrapped for autograd when the row has a
    formula (one object per name, shared by the method and the function)."""
    fn = _forms_cache.get((spec, name))
    if fn is None:
        fn = _resolve(spec, name)
        if _differentiable(row):
            fn = _recorded(fn, name)
        elif row["grad"] == "nondiff":
            fn = _without_grad(fn, name)
        if row.get("autocast"):
            fn = _autocast_form(fn, row["autocast"])
        _forms_cache[spec, name] = fn
        FORMS[name] = fn
    return fn


def _inplace(fn, name):
    """The generic in-place form of fn: self = fn(self, ...), when the result has self's shape
    and a dtype self can hold (torch's checks and messages)."""
    def method(self, *args, **kwargs):
        src = self
        if self.requires_grad and _C.is_grad_enabled():
            src = self.clone()        # fn's graph may save its input, which copy_ overwrites
        r = fn(src, *args, **kwargs)
        if r.shape != self.shape:
            raise RuntimeError(f"output with shape {list(self.shape)} doesn't match the broadcast "
                               f"shape {list(r.shape)}")
        if not _C.can_cast(r.dtype, self.dtype):
            raise RuntimeError(f"result type {_scalar_type_name(r.dtype)} can't be cast to the "
                               f"desired output type {_scalar_type_name(self.dtype)}")
        return self.copy_(r)
    method.__name__ = method.__qualname__ = name
    method.__doc__ = f"In-place {name[:-1]}: self = {name[:-1]}(self, ...)."
    return method


def _via_method(name):
    """minitorch.<name>(input, ...) is input.<name>(...)."""
    def function(input, *args, **kwargs):
        if not isinstance(input, _C.TensorBase):
            raise TypeError(f"{name}(): argument 'input' must be Tensor, not {type(input).__name__}")
        return getattr(input, name)(*args, **kwargs)
    function.__name__ = function.__qualname__ = name
    function.__doc__ = f"minitorch.{name}(input, ...) is input.{name}(...)."
    return function


def tensor_methods():
    """{name: function} of the Tensor methods the table implements in Python (the C ones are
    in minitorch._C.TensorBase already)."""
    methods = {}
    for row in OPS:
        name, impl, forms = row["name"], row["impl"], row["forms"]
        names = (name,) + row["aliases"]
        if "m" in forms and impl.startswith("py:"):
            if name.endswith("_") and _records_inplace(row):       # cauchy_, uniform_, ...
                fn = _recorded(_resolve(impl, name), name)
            else:
                fn = _python_form(row, impl, name)
            for n in names:
                methods[n] = fn
        if "i" in forms:
            spec = row["inplace"]
            if spec is None and impl.startswith("C:"):
                continue                      # the C family has the in-place entry point
            if spec is not None and spec.startswith("C:"):
                continue
            if spec is None or spec == "generic":
                base = _resolve(impl, name) if impl.startswith("py:") else getattr(_C.TensorBase, name)
                fn = _inplace(base, name + "_")
            else:
                fn = _resolve(spec, name + "_")
            if _records_inplace(row):
                fn = _recorded(fn, name + "_")
            for n in names:
                methods[n + "_"] = fn
    return methods


def module_functions(tensor_class):
    """{name: function} of every minitorch.<name> function the table declares."""
    functions = {}
    for row in OPS:
        name, impl, forms = row["name"], row["impl"], row["forms"]
        names = (name,) + row["aliases"]
        fn = None
        if "f" in forms:
            spec = row["function"] or impl
            fn = _python_form(row, spec, name) if spec.startswith("py:") else _resolve(spec, name)
        elif "g" in forms:
            fn = _via_method(name)
        if fn is not None:
            for n in names:
                functions[n] = fn
        if "j" in forms:
            inplace = getattr(tensor_class, name + "_")
            for n in names:
                functions[n + "_"] = inplace
    return functions


_nn_ops = None


def nn_ops():
    """{name: recorded form} of the ops of nn.functional (rows with form 'n'; 'k' adds the
    in-place form name_), made on first use."""
    global _nn_ops
    if _nn_ops is None:
        ops = {}
        for row in OPS:
            name, forms = row["name"], row["forms"]
            if "n" in forms:
                ops[name] = _python_form(row, row["impl"], name)
            if "k" in forms:
                base = _resolve(row["impl"], name)
                ops[name + "_"] = _recorded(_inplace(base, name + "_"), name + "_")
        _nn_ops = ops
    return _nn_ops
# ---- autocast ------------------------------------------------------------------------------

def _autocast_form(fn, policy):
    """fn under torch's autocast policy for the op (the row's `autocast` key, see Note
    [Autocast] in csrc/autocast.h): while autocast is on its tensor arguments are cast
    first (out= excepted); while it is off, one thread-local read per call."""
    cast = _C._autocast_lower if policy == "lower" else _C._autocast_fp32
    on = _C._autocast_on

    def form(*args, **kwargs):
        if on():
            args = cast(*args)
            if kwargs:
                keys = [k for k in kwargs if k != "out"]
                kwargs.update(zip(keys, cast(*(kwargs[k] for k in keys))))
        return fn(*args, **kwargs)
    return functools.update_wrapper(form, fn)
def linalg_functions():
    """{name: function} of minitorch.linalg: the rows of form 'l', each named by its row's name
    without the "linalg_" prefix (see the linear algebra block of _op_table.py)."""
    functions = {}
    for row in OPS:
        if "l" in row["forms"]:
            name = row["name"]
            fn = _python_form(row, row["impl"], name)
            functions[name[len("linalg_"):] if name.startswith("linalg_") else name] = fn
    return functions
