"""torch's symbolic-shape names.  minitorch has no symbolic shapes (no tracing compiler):
sizes are always plain ints, so SymInt / SymFloat / SymBool exist for isinstance checks
(never true) and the sym_* helpers compute on plain numbers, as torch's do for them."""
import builtins
import math


class _Symbolic:
    def __init__(self, node):
        raise NotImplementedError(f"minitorch has no symbolic shapes: {type(self).__name__} "
                                  "values are never made (sizes are plain ints)")


class SymInt(_Symbolic):
    """A symbolic int (torch.SymInt); never made by minitorch."""


class SymFloat(_Symbolic):
    """A symbolic float (torch.SymFloat); never made by minitorch."""


class SymBool(_Symbolic):
    """A symbolic bool (torch.SymBool); never made by minitorch."""


def sym_int(a):
    """int(a), truncating toward zero as torch.sym_int."""
    return builtins.int(math.trunc(a)) if isinstance(a, builtins.float) else builtins.int(a)


def sym_float(a):
    return builtins.float(a)


def sym_max(a, b):
    return builtins.max(a, b)


def sym_min(a, b):
    return builtins.min(a, b)


def sym_not(a):
    return not a


def sym_ite(b, t, f):
    """t if b else f."""
    return t if b else f


def sym_sqrt(a):
    return math.sqrt(a)


def sym_sum(args):
    return builtins.sum(args)


__all__ = ["SymInt", "SymFloat", "SymBool", "sym_int", "sym_float", "sym_max", "sym_min",
           "sym_not", "sym_ite", "sym_sqrt", "sym_sum"]
