"""minitorch.compiler: torch.compiler's functions that model code calls (nothing is ever
being compiled: see minitorch/_compile.py)."""

__all__ = ["compile", "reset", "disable", "is_compiling", "is_dynamo_compiling",
           "is_exporting", "allow_in_graph", "assume_constant_result", "list_backends"]


def compile(*args, **kwargs):
    from .._compile import compile as _compile
    return _compile(*args, **kwargs)


def reset():
    """Drops compiled code: there is none."""


def disable(fn=None, recursive=True, *, reason=None):
    if fn is None:
        return lambda f: f
    return fn


def is_compiling():
    return False


def is_dynamo_compiling():
    return False


def is_exporting():
    return False


def allow_in_graph(fn):
    return fn


def assume_constant_result(fn):
    return fn


def list_backends(exclude_tags=("debug", "experimental")):
    from .._dynamo import list_backends as _list
    return _list(exclude_tags)
