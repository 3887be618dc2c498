"""The few dense linear-algebra routines the distributions need (Cholesky factors and
triangular solves), written with differentiable tensor ops so that gradients flow through them.

They work a column (or row) at a time over batches of small matrices, which is what the
distributions use them for.  They belong in ``minitorch.linalg`` (``linalg.cholesky``,
``linalg.cholesky_ex``, ``linalg.solve_triangular``): once those exist, these helpers should be
replaced by calls to them."""
import minitorch

__all__ = []


def _batch_shape(*tensors):
    return minitorch.broadcast_shapes(*(t.shape[:-2] for t in tensors))


def _symmetric_from_lower(a):
    """The symmetric matrices whose lower triangles are a's: their values come from a's lower
    triangle only, their gradient is split evenly between a[i, j] and a[j, i] (torch's
    Cholesky gradient is the symmetric one)."""
    if not (a.requires_grad and minitorch.is_grad_enabled()):
        return a.tril() + a.tril(-1).mT
    with minitorch.no_grad():
        lower = a.tril() + a.tril(-1).mT
    sym = (a + a.mT) / 2
    return lower + (sym - sym.detach())


def cholesky_ex(a):
    """(L, info): the lower Cholesky factor of the symmetric matrices a (..., n, n), reading
    only their lower triangles, and per matrix 0 or the order (1-based) of the first leading
    minor that is not positive definite (L is then not meaningful past it)."""
    a = _symmetric_from_lower(a)
    n = a.shape[-1]
    rows = minitorch.arange(n, device=a.device)
    info = minitorch.zeros(a.shape[:-2], dtype=minitorch.int32, device=a.device)
    cols = []
    lower = None
    for j in range(n):
        col = a[..., :, j]
        if j:
            col = col - (lower @ lower[..., j, :].unsqueeze(-1)).squeeze(-1)
        d = col[..., j]
        bad = ~(d > 0)
        info = minitorch.where(bad & (info == 0), j + 1, info)
        col = col / d.sqrt().unsqueeze(-1)
        col = minitorch.where(rows >= j, col, minitorch.zeros((), dtype=col.dtype))
        cols.append(col)
        lower = minitorch.stack(cols, -1)
    if lower is None:
        lower = a.clone()
    return lower, info


def cholesky(a):
    """The lower Cholesky factor of a, or torch's error when a matrix is not positive definite."""
    if a.dim() < 2:
        raise RuntimeError("linalg.cholesky: The input tensor A must have at least 2 "
                           "dimensions.")
    if a.shape[-1] != a.shape[-2]:
        raise RuntimeError(f"linalg.cholesky: A must be batches of square matrices, but they "
                           f"are {a.shape[-2]} by {a.shape[-1]} matrices")
    lower, info = cholesky_ex(a)
    if info.numel() and bool((info != 0).any()):
        flat = info.reshape(-1)
        k = int((flat != 0).nonzero()[0, 0])
        batch = f"(Batch element {k}): " if a.dim() > 2 else ""
        raise RuntimeError(f"linalg.cholesky: {batch}The factorization could not be completed "
                           "because the input is not positive-definite (the leading minor of "
                           f"order {int(flat[k])} is not positive-definite).")
    return lower


def solve_triangular(a, b, *, upper, left=True, unitriangular=False):
    """X with a @ X = b (left) or X @ a = b (not left) for triangular a (..., n, n), b
    (..., n, k) (batch dimensions broadcast), by substitution a row at a time."""
    if not left:
        return solve_triangular(a.mT, b.mT, upper=not upper, unitriangular=unitriangular).mT
    batch = _batch_shape(a, b)
    a = a.expand(batch + a.shape[-2:])
    b = b.expand(batch + b.shape[-2:])
    n = a.shape[-1]
    rows = [None] * n
    for i in (range(n - 1, -1, -1) if upper else range(n)):
        r = b[..., i:i + 1, :]
        lo, hi = (i + 1, n) if upper else (0, i)
        if hi > lo:
            r = r - a[..., i:i + 1, lo:hi] @ minitorch.cat(rows[lo:hi], -2)
        if not unitriangular:
            r = r / a[..., i:i + 1, i:i + 1]
        rows[i] = r
    return minitorch.cat(rows, -2)


def spd_inverse(a):
    """The inverse of symmetric positive-definite matrices a (through their Cholesky factor)."""
    lower = cholesky(a)
    eye = minitorch.eye(a.shape[-1], dtype=a.dtype, device=a.device)
    linv = solve_triangular(lower, eye.expand(lower.shape), upper=False)
    return linv.mT @ linv


def cholesky_inverse(lower):
    """(L L^T)^-1 from a Cholesky factor L; differentiated as a function of the whole of L, as
    torch's cholesky_inverse is."""
    return spd_inverse(lower @ lower.mT)
