"""minitorch.sparse (torch.sparse): products, sums and softmaxes of sparse COO tensors (see
Note [Sparse COO tensors] in _sparse_coo.py)."""
from .. import _sparse_coo as _s
from ..autograd import _watch

__all__ = ["mm", "addmm", "sum", "softmax", "log_softmax", "spdiags", "as_sparse_gradcheck",
           "check_sparse_tensor_invariants"]


def mm(mat1, mat2, reduce="sum"):
    """mat1 @ mat2 with a sparse mat1 (or both sparse): dense for sparse @ dense, sparse for
    sparse @ sparse.  The gradient of a sparse operand has its pattern."""
    if reduce != "sum":
        raise NotImplementedError(f"minitorch.sparse.mm: reduce='{reduce}' is not supported "
                                  "(only 'sum')")
    if not _s._is_sparse(mat1) and not _s._is_sparse(mat2):
        with _watch.unwatched():
            return mat1.mm(mat2)
    with _watch.unwatched():
        return _s.mm(mat1, mat2)


def addmm(mat, mat1, mat2, *, beta=1.0, alpha=1.0):
    """beta * mat + alpha * (mat1 @ mat2), mat1 sparse, mat and mat2 dense."""
    with _watch.unwatched():
        return _s.addmm(mat, mat1, mat2, beta=beta, alpha=alpha)


def sum(input, dim=None, dtype=None):
    """The sum of a sparse tensor over dim (all dimensions: a dense 0-d tensor)."""
    if not _s._is_sparse(input):
        if dim is None:
            raise RuntimeError("coalesce expected sparse coordinate tensor layout but got "
                               "Strided")
        raise _s._dense_backend("_indices")
    with _watch.unwatched():
        return _s.sum(input, dim, dtype=dtype)


def softmax(input, dim, *, dtype=None):
    """Softmax over the specified entries along dim (unspecified entries count as -inf)."""
    with _watch.unwatched():
        return _s.softmax(input, dim, dtype)


def log_softmax(input, dim, *, dtype=None):
    with _watch.unwatched():
        return _s.log_softmax(input, dim, dtype)


def spdiags(diagonals, offsets, shape, layout=None):
    """The sparse (shape) matrix with the rows of `diagonals` on the diagonals `offsets`, as
    torch.sparse.spdiags (row k of diagonals at columns j of diagonal offsets[k])."""
    import minitorch
    _s._check_layout(layout)
    m, n = shape
    rows, cols, vals = [], [], []
    with _watch.unwatched():
        for k, off in enumerate(offsets.tolist()):
            j = minitorch.arange(max(0, off), min(n, m + off))
            if j.numel() == 0:
                continue
            rows.append(j - off)
            cols.append(j)
            vals.append(diagonals[k][j])
        if not rows:
            return minitorch.sparse_coo_tensor(minitorch.zeros(2, 0, dtype=minitorch.long),
                                               diagonals.new_zeros(0), (m, n))
        s = minitorch.sparse_coo_tensor(minitorch.stack([minitorch.cat(rows),
                                                         minitorch.cat(cols)]),
                                        minitorch.cat(vals), (m, n))
    return s.coalesce()


class check_sparse_tensor_invariants:
    """minitorch always checks the invariants of the sparse tensors it makes (index bounds):
    the switch is accepted and changes nothing."""

    def __init__(self, enable=True):
        self._enable = enable

    @staticmethod
    def is_enabled():
        return True

    @staticmethod
    def enable():
        pass

    @staticmethod
    def disable():
        pass

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    def __call__(self, fn):
        return fn


def as_sparse_gradcheck(gradcheck):
    """gradcheck usable with sparse inputs: minitorch's sparse gradients already come through
    the values, so gradcheck is returned as it is when the inputs are the values."""
    return gradcheck
