"""Argument checks shared by the Python-level ops."""
import os


# Bytes a tensor object and its impl take at least: a bound used to refuse a result list no
# machine can hold before building any of it.
_VIEW_BYTES = 256


def _check_count_fits(count, bytes_each, fname):
    """Fails at once, as one allocation of that size would, when `count` results of at least
    `bytes_each` bytes cannot fit in this machine's memory (instead of building them one by one
    until memory runs out)."""
    try:
        total = os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (AttributeError, OSError, ValueError):
        total = 1 << 48
    if count * bytes_each > total:
        raise RuntimeError(f"{fname}: {count} results would need more memory than this machine "
                           f"has ({total} bytes)")


def _check_short(seq, what):
    """A size or dims argument is at most 64 long: refuses a longer one (a huge tensor, say)
    before iterating it."""
    n = len(seq) if hasattr(seq, "__len__") else 0
    if n > 64:
        raise RuntimeError(f"{what}: at most 64 dimensions are supported, got a sequence of {n}")
