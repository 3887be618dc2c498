"""Builds the Python forms of the op table's rows (see _op_table.py): the Tensor methods written
in Python and every minitorch.<name> function."""
import importlib

from . import _C
from ._op_table import OPS


def _scalar_type_name(dt):
    from ._reductions import _scalar_type_name
    return _scalar_type_name(dt)


def _resolve(spec, name):
    """'py:module[.attr]' -> the Python function; 'C:family' -> the minitorch._C one."""
    if spec.startswith("C:"):
        return getattr(_C, name)
    module, _, attr = spec[3:].partition(".")
    return getattr(importlib.import_module("minitorch." + module), attr or name)


def _inplace(fn, name):
    """The generic in-place form of fn: self = fn(self, ...), when the result has self's shape
    and a dtype self can hold (torch's checks and messages)."""
    def method(self, *args, **kwargs):
        r = fn(self, *args, **kwargs)
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
            fn = _resolve(impl, name)
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
            fn = _resolve(row["function"] or impl, name)
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
