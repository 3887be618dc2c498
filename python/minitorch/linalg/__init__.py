"""minitorch.linalg: torch.linalg's functions (decompositions, solves, inverses, determinants,
norms) over a LAPACK opened at run time (Note [Run-time LAPACK] in aten_lite/lapack.h).

Each function is a row of the op table (form 'l'); see python/minitorch/_linalg_*.py."""
from .. import _op_forms
from .._lapack import LinAlgError

_functions = _op_forms.linalg_functions()
globals().update(_functions)

__all__ = sorted(_functions) + ["LinAlgError"]
del _functions
