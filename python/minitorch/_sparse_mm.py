"""The kernels of sparse COO products with dense matrices (aten_lite/sparse_coo.c), as recorded
ops: _coo_spmm (S @ dense for S given by rows, cols, values) and _coo_sampled_dot (the values'
gradient), each the other's derivative (autograd/formulas.py), so derivatives of every order
are recorded ops.  Used by _sparse_coo.py (Note [Sparse COO tensors])."""
from . import _C


def _coo_spmm(rows, cols, values, dense, m):
    """(m x N): row r the sum of values[e] * dense[cols[e]] over the entries e of row r."""
    return _C._coo_spmm(rows, cols, values, dense, m)


def _coo_sampled_dot(rows, cols, a, b):
    """(nnz): entry e the dot product of a[rows[e]] and b[cols[e]]."""
    return _C._coo_sampled_dot(rows, cols, a, b)
