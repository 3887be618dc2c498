"""minitorch.ops: torch.ops, the namespaces of registered operators (torch.ops.<ns>.<op>,
with overloads as attributes: torch.ops.<ns>.<op>.<overload>).  minitorch registers the
profiler's ops (torch.ops.profiler._record_function_enter / _record_function_enter_new /
_record_function_exit / _call_end_callbacks_on_jit_fut, which record_function is made of);
its tensor ops are minitorch's functions and methods; torch.ops.aten.<op>[.<overload>] gives
them as the op objects __torch_dispatch__ handlers see (_dispatch_ops.py); custom operator
libraries cannot be loaded."""
import types

__all__ = ["ops"]


class _OpOverloadPacket:
    """An op: callable, with its overloads as attributes (each the same function here)."""

    def __init__(self, qualified_name, fn, overloads=("default",)):
        self._qualified_op_name = qualified_name
        self._fn = fn
        self._overload_names = list(overloads)
        self.__name__ = qualified_name.rpartition("::")[2]

    def __call__(self, *args, **kwargs):
        return self._fn(*args, **kwargs)

    def __getattr__(self, name):
        if name in self._overload_names:
            return self._fn
        raise AttributeError(f"The underlying op of '{self._qualified_op_name}' has no overload "
                             f"name '{name}'")

    def overloads(self):
        return list(self._overload_names)

    def __repr__(self):
        return f"<OpOverloadPacket(op='{self._qualified_op_name}')>"


class _OpNamespace(types.ModuleType):
    """torch.ops.<name>: its ops as attributes."""

    def __init__(self, name, ops=None):
        super().__init__("torch.ops." + name)
        self.name = name
        for op_name, packet in (ops or {}).items():
            setattr(self, op_name, packet)

    def __getattr__(self, op_name):
        if op_name.startswith("__"):
            raise AttributeError(op_name)
        raise AttributeError(f"'_OpNamespace' '{self.__name__}' object has no attribute "
                             f"'{op_name}' (minitorch registers only the profiler's ops in "
                             "torch.ops)")


def _profiler_namespace():
    from .autograd import _profiler_collection as c

    def enter(name, args=None):
        return c.record_function_enter(name, args)

    def call_end_callbacks_on_jit_fut(handle, fut):
        def end(f):
            c.record_function_exit(handle)
            return f.wait()
        return fut.then(end)

    return _OpNamespace("profiler", {
        "_record_function_enter": _OpOverloadPacket("profiler::_record_function_enter", enter),
        "_record_function_enter_new": _OpOverloadPacket("profiler::_record_function_enter_new",
                                                        enter),
        "_record_function_exit": _OpOverloadPacket("profiler::_record_function_exit",
                                                   c.record_function_exit,
                                                   ("default", "_RecordFunction")),
        "_call_end_callbacks_on_jit_fut": _OpOverloadPacket(
            "profiler::_call_end_callbacks_on_jit_fut", call_end_callbacks_on_jit_fut,
            ("default", "_RecordFunction")),
    })


class _AtenNamespace(types.ModuleType):
    """torch.ops.aten: minitorch's functions and Tensor methods as aten ops, the objects a
    __torch_dispatch__ handler compares its `func` with (equal by name: _dispatch_ops.py)."""

    def __init__(self):
        super().__init__("torch.ops.aten")
        self.name = "aten"

    def __getattr__(self, op_name):
        from ._dispatch_ops import aten_packet
        p = None if op_name.startswith("__") else aten_packet(op_name)
        if p is None:
            raise AttributeError(f"'_OpNamespace' 'aten' object has no attribute '{op_name}'")
        return p


class _Ops(types.ModuleType):
    """torch.ops: a namespace per attribute, made on first use."""

    def __init__(self):
        super().__init__("torch.ops")
        self._namespaces = {}

    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        ns = self._namespaces.get(name)
        if ns is None:
            if name == "profiler":
                ns = _profiler_namespace()
            elif name == "aten":
                ns = _AtenNamespace()
            else:
                ns = _OpNamespace(name)
            self._namespaces[name] = ns
        return ns

    def __iter__(self):
        return iter(self._namespaces.values())

    def load_library(self, path):
        raise NotImplementedError("minitorch cannot load custom operator libraries "
                                  "(torch.ops.load_library)")

    def import_module(self, module):
        raise NotImplementedError("minitorch cannot load custom operator modules "
                                  "(torch.ops.import_module)")


ops = _Ops()
