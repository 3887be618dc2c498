"""torch.profiler.itt: Intel ITT ranges (for VTune).  minitorch is built without ITT:
is_available() is False and the range functions raise, as torch's in a build without it."""
from contextlib import contextmanager

__all__ = ["is_available", "range_push", "range_pop", "mark", "range"]

_MISSING = "ITT functions not installed. Are you sure you have a ITT build?"


def is_available():
    """Whether ITT is there (never, in minitorch)."""
    return False


def range_push(msg):
    raise RuntimeError(_MISSING)


def range_pop():
    raise RuntimeError(_MISSING)


def mark(msg):
    raise RuntimeError(_MISSING)


@contextmanager
def range(msg, *args, **kwargs):
    """An ITT range around the block (msg.format(*args, **kwargs))."""
    range_push(msg.format(*args, **kwargs))
    try:
        yield
    finally:
        range_pop()
