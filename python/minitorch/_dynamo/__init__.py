"""minitorch._dynamo: the few names of torch._dynamo that training scripts touch.  There is
no graph capture (see minitorch/_compile.py): reset() has nothing to drop, disable() returns
its function, is_compiling() is False."""
from . import config, exc  # noqa: F401

__all__ = ["config", "reset", "disable", "is_compiling", "list_backends", "mark_dynamic",
           "mark_static", "allow_in_graph", "optimize"]


def reset():
    """Drops compiled code: there is none."""


def disable(fn=None, recursive=True, *, reason=None):
    """fn unchanged (nothing is compiled); without fn, a decorator that returns its function."""
    if fn is None:
        return lambda f: f
    return fn


def is_compiling():
    return False


def list_backends(exclude_tags=("debug", "experimental")):
    """The backend names torch.compile accepts (all run the model eagerly here)."""
    from .._compile import _BACKENDS
    shown = ("cudagraphs", "inductor", "openxla", "tvm")
    return sorted(_BACKENDS if not exclude_tags else shown)


def mark_dynamic(t, index, *, min=None, max=None):
    """A hint for the compiler: recorded nowhere (nothing is compiled)."""


def mark_static(t, index=None):
    """A hint for the compiler: recorded nowhere (nothing is compiled)."""


def allow_in_graph(fn):
    return fn


def optimize(backend="inductor", *, nopython=False, guard_export_fn=None, guard_fail_fn=None,
             disable=False, dynamic=None):
    """A decorator that returns its function (the function runs eagerly)."""
    return lambda fn: fn
