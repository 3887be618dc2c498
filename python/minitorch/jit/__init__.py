"""minitorch.jit: TorchScript's Python API, run eagerly.

minitorch has no TorchScript compiler (as it has no graph compiler for minitorch.compile):
script, trace and their relatives return the module, function or class they are given, which
then runs as ordinary Python; is_scripting()/is_tracing() are False, so code guarded by them
takes its eager branch.  The decorators (ignore, unused, export, interface, script_method) and
type helpers (annotate, Attribute, Final, isinstance) are pass-throughs or plain checks, and
fork/wait run the call at once.  What needs a TorchScript archive (save, load, flatbuffers,
CompilationUnit, graphs) raises NotImplementedError.  As in torch 2.15, the entry points warn
that TorchScript is deprecated."""
import builtins
import collections.abc
import contextlib
import os
import typing
import warnings

import minitorch
from minitorch import futures

__all__ = ["Attribute", "CompilationUnit", "Error", "Final", "Future", "RecursiveScriptClass",
           "RecursiveScriptModule", "ScriptFunction", "ScriptModule", "ScriptWarning",
           "TopLevelTracedModule", "TracedModule", "TracerWarning", "TracingCheckError",
           "annotate", "enable_onednn_fusion", "export", "export_opnames", "fork", "freeze",
           "fuser", "ignore", "interface", "is_scripting", "is_tracing", "isinstance",
           "jit_module_from_flatbuffer", "last_executed_optimized_graph", "load",
           "onednn_fusion_enabled", "optimize_for_inference", "optimized_execution",
           "save", "save_jit_module_to_flatbuffer", "script", "script_if_tracing",
           "script_method", "set_fusion_strategy", "strict_fusion", "trace", "trace_module",
           "unused", "wait"]

Final = typing.Final
_builtin_isinstance = builtins.isinstance   # isinstance below is torch.jit.isinstance
Future = futures.Future


def _deprecated(name, instead="Please switch to `torch.compile` or `torch.export`."):
    warnings.warn(f"`torch.jit.{name}` is deprecated. {instead}", FutureWarning, stacklevel=3)


_NO_ARCHIVES = ("TorchScript archives are not supported: minitorch.jit.script and trace return "
                "the Python module unchanged. Save its state_dict with minitorch.save and load it "
                "into the module's class instead.")


class Error(Exception):
    """Raised by TorchScript code (never by this eager implementation)."""


class ScriptWarning(Warning):
    pass


class TracerWarning(Warning):
    pass


class TracingCheckError(Exception):
    def __init__(self, graph_diff_error, tensor_compare_error, extra_msg=None):
        self.message = "Tracing failed sanity checks!\n"
        if extra_msg is not None:
            self.message += extra_msg + "\n"
        for part in (graph_diff_error, tensor_compare_error):
            if part is not None:
                self.message += part + "\n"
        super().__init__(self.message)


def _module_base():
    return minitorch.nn.Module


def __getattr__(name):
    if name in ("ScriptModule", "RecursiveScriptModule", "TracedModule", "TopLevelTracedModule"):
        cls = _module_classes()[name]
        globals()[name] = cls
        return cls
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _module_classes():
    base = _module_base()

    class ScriptModule(base):
        """Subclassing it (the old TorchScript API) gives an ordinary module here: methods
        decorated with script_method run as Python.  Nothing script() returns is one."""

    class RecursiveScriptModule(ScriptModule):
        pass

    class TracedModule(ScriptModule):
        pass

    class TopLevelTracedModule(TracedModule):
        pass

    for c in (ScriptModule, RecursiveScriptModule, TracedModule, TopLevelTracedModule):
        c.__module__ = __name__
    return {"ScriptModule": ScriptModule, "RecursiveScriptModule": RecursiveScriptModule,
            "TracedModule": TracedModule, "TopLevelTracedModule": TopLevelTracedModule}


class ScriptFunction:
    """The type of a compiled TorchScript function; script() returns the Python function itself
    here, so nothing is an instance of it."""

    def __init__(self, *args, **kwargs):
        raise NotImplementedError("minitorch.jit.ScriptFunction: there is no TorchScript "
                                  "compiler; script() returns the Python function itself")


class RecursiveScriptClass:
    def __init__(self, *args, **kwargs):
        raise NotImplementedError("minitorch.jit.RecursiveScriptClass: there is no TorchScript "
                                  "compiler; script() returns the Python class itself")


class CompilationUnit:
    def __init__(self, *args, **kwargs):
        raise NotImplementedError("minitorch.jit.CompilationUnit: TorchScript source cannot be "
                                  "compiled (there is no TorchScript compiler)")


def is_scripting():
    """False: no code runs as TorchScript here."""
    return False


def is_tracing():
    """False: tracing does not record a graph here."""
    return False


def script(obj, optimize=None, _frames_up=0, _rcb=None, example_inputs=None):
    """Returns obj itself (a module, function or class), which runs eagerly."""
    _deprecated("script")
    if optimize is not None:
        warnings.warn("`optimize` is deprecated and has no effect. Use `with "
                      "torch.jit.optimized_execution()` instead", FutureWarning, stacklevel=2)
    if _builtin_isinstance(obj, type) and obj.__module__ == "builtins":
        raise TypeError(f"{obj} is a built-in class")
    if not callable(obj):
        if type(obj).__module__ == "builtins":
            raise TypeError(f"{type(obj)} is a built-in class")
        raise RuntimeError(f"Cannot script an object of type {type(obj).__name__}: only modules, "
                           "functions and classes")
    return obj


def trace(func, example_inputs=None, optimize=None, check_trace=True, check_inputs=None,
          check_tolerance=1e-5, strict=True, _force_outplace=False, _module_class=None,
          _compilation_unit=None, example_kwarg_inputs=None, _store_inputs=True):
    """Returns func itself (no graph is recorded; it runs eagerly for every input)."""
    _deprecated("trace")
    if not callable(func):
        raise RuntimeError(f"Cannot trace an object of type {type(func).__name__}: it is not "
                           "callable")
    if example_inputs is None and example_kwarg_inputs is None:
        raise RuntimeError("example_kwarg_inputs or example_inputs should be provided")
    return func


def trace_module(mod, inputs, optimize=None, check_trace=True, check_inputs=None,
                 check_tolerance=1e-5, strict=True, _force_outplace=False, _module_class=None,
                 _compilation_unit=None, example_inputs_is_kwarg=False, _store_inputs=True):
    """Returns mod itself, after checking that inputs names methods it has."""
    _deprecated("trace_method")
    if not _builtin_isinstance(mod, _module_base()):
        raise AttributeError("expected torch.nn.Module as the first argument")
    if not _builtin_isinstance(inputs, dict):
        raise AttributeError("expected a dictionary of (method_name, input) pairs")
    for name in inputs:
        if not callable(getattr(mod, name, None)):
            raise AttributeError(f"'{type(mod).__name__}' object has no attribute '{name}'")
    return mod


def script_if_tracing(fn):
    return fn


def script_method(fn):
    return fn


def ignore(drop=False, **kwargs):
    """@ignore, @ignore(drop=True): the function is left as it is."""
    if callable(drop):
        return drop
    if not _builtin_isinstance(drop, bool):
        raise RuntimeError("Argument to @torch.jit.ignore must be a bool or a function but got "
                           f"{drop}")
    return lambda fn: fn


def unused(fn):
    return fn


def export(fn):
    return fn


def interface(obj):
    _deprecated("interface", "Please use `torch.compile` instead.")
    if not _builtin_isinstance(obj, type):
        raise RuntimeError("interface must be applied to a class")
    return obj


def annotate(the_type, the_value):
    return the_value


def Attribute(value, type):  # noqa: N802 (torch's name)
    """An attribute's declared type, for TorchScript; here the value itself."""
    return value


def isinstance(obj, target_type):
    """isinstance that also understands typing's containers (List[int], Dict[str, Tensor],
    Tuple[...], Optional[...], Union[...]), checking the elements as TorchScript refines them."""
    return _matches(obj, target_type)




def _matches(obj, tp):
    if tp is typing.Any:
        return True
    origin = typing.get_origin(tp)
    args = typing.get_args(tp)
    if origin is None:
        if tp is None or tp is type(None):
            return obj is None
        return _builtin_isinstance(obj, tp)
    if origin is typing.Union or (hasattr(__import__("types"), "UnionType")
                                  and origin is __import__("types").UnionType):
        return any(_matches(obj, a) for a in args)
    if origin in (list, collections.abc.Sequence) or origin is typing.List:
        return _builtin_isinstance(obj, list) and all(_matches(x, args[0]) for x in obj) \
            if args else _builtin_isinstance(obj, list)
    if origin is dict or origin is typing.Dict:
        if not _builtin_isinstance(obj, dict):
            return False
        return not args or all(_matches(k, args[0]) and _matches(v, args[1])
                               for k, v in obj.items())
    if origin is tuple or origin is typing.Tuple:
        if not _builtin_isinstance(obj, tuple):
            return False
        if not args:
            return True
        if len(args) == 2 and args[1] is Ellipsis:
            return all(_matches(x, args[0]) for x in obj)
        return len(obj) == len(args) and all(_matches(x, a) for x, a in zip(obj, args))
    return _builtin_isinstance(obj, origin)


def fork(func, *args, **kwargs):
    """Runs func(*args, **kwargs) now and returns a completed Future of its result."""
    _deprecated("fork", "Please use `torch.compile` instead.")
    fut = futures.Future()
    try:
        fut.set_result(func(*args, **kwargs))
    except Exception as e:        # as torch: the error comes out of wait()
        fut.set_exception(e)
    return fut


def wait(future):
    _deprecated("wait", "Please use `torch.compile` instead.")
    return future.wait()


def freeze(mod, preserved_attrs=None, optimize_numerics=True):
    """Returns mod (in eval mode, as torch requires) itself."""
    _deprecated("freeze", "Please use `torch.compile` instead.")
    if mod.training:
        raise RuntimeError("Freezing is currently only implemented for modules in eval mode. "
                           "Please call .eval() on your module before freezing.")
    return mod


def optimize_for_inference(mod, other_methods=None):
    _deprecated("optimize_for_inference", "Please use `torch.compile` instead.")
    return mod


def run_frozen_optimizations(mod, optimize_numerics=True, preserved_methods=None):
    return None


def save(m, f, _extra_files=None):
    _deprecated("save", "Please switch to `torch.export`.")
    raise NotImplementedError(f"minitorch.jit.save: {_NO_ARCHIVES}")


def load(f, map_location=None, _extra_files=None, _restore_shapes=False):
    _deprecated("load", "Please switch to `torch.export`.")
    if _builtin_isinstance(f, (str, os.PathLike)):
        if not os.path.exists(f):
            raise ValueError(f"The provided filename {f} does not exist")
        if os.path.isdir(f):
            raise ValueError(f"The provided filename {f} is a directory")
    raise NotImplementedError(f"minitorch.jit.load: {_NO_ARCHIVES}")


def save_jit_module_to_flatbuffer(m, f, _extra_files=None):
    raise NotImplementedError(f"minitorch.jit.save_jit_module_to_flatbuffer: {_NO_ARCHIVES}")


def jit_module_from_flatbuffer(f):
    raise NotImplementedError(f"minitorch.jit.jit_module_from_flatbuffer: {_NO_ARCHIVES}")


def export_opnames(m):
    raise NotImplementedError("minitorch.jit.export_opnames: there are no TorchScript graphs")


def last_executed_optimized_graph():
    raise NotImplementedError("minitorch.jit.last_executed_optimized_graph: there are no "
                              "TorchScript graphs")


_onednn = [False]
_fusion_strategy = [[("STATIC", 2), ("DYNAMIC", 10)]]


def enable_onednn_fusion(enabled):
    _onednn[0] = bool(enabled)


def onednn_fusion_enabled():
    return _onednn[0]


def set_fusion_strategy(strategy):
    """Records the strategy (a list of ("STATIC" | "DYNAMIC", depth)); returns the previous."""
    for kind, depth in strategy:
        if kind not in ("STATIC", "DYNAMIC"):
            raise RuntimeError(f"FusionBehavior {kind} is not STATIC or DYNAMIC")
        int(depth)
    old, _fusion_strategy[0] = _fusion_strategy[0], list(strategy)
    return old


@contextlib.contextmanager
def optimized_execution(should_optimize):
    yield


@contextlib.contextmanager
def fuser(name):
    if name not in ("fuser0", "fuser1", "fuser2", "fuser3", "none"):
        raise Exception(f"unrecognized fuser option (name: {name})")  # noqa: TRY002 (torch's type)
    yield


class strict_fusion:  # noqa: N801 (torch's name)
    """A region TorchScript would require fully fused; a no-op here."""

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


# the private names torch's own code uses (the same functions)
_fork = fork
_wait = wait
