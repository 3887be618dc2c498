"""The few dense linear-algebra routines that distributions and parametrizations need,
written in Python over minitorch's tensor ops: Cholesky factors, triangular and positive-definite
solves, the matrix exponential, Householder QR (LAPACK's geqrf layout) and products of
Householder reflections.  The differentiable ones are made of recorded ops, so gradients (and
double backward) flow through them.

They work a column (or row) at a time over batches of small matrices, which is what their users
need.  They belong in ``minitorch.linalg`` (``linalg.cholesky(_ex)``, ``linalg.solve_triangular``,
``cholesky_inverse``, ``linalg.matrix_exp``, ``geqrf``, ``linalg.householder_product``): once
those exist, these helpers should be replaced by calls to them."""
import math

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


def spd_solve(a, b):
    """X with a @ X = b for symmetric positive-definite a (two triangular solves)."""
    lower = cholesky(a)
    return solve_triangular(lower.mT, solve_triangular(lower, b, upper=False), upper=True)


def matrix_exp(a):
    """exp(a) of square matrices (..., n, n): scaling and squaring around a Taylor polynomial
    of degree 18 evaluated by Horner's rule (the scaled matrix has 1-norm <= 1, where the
    truncation error is below 1 / 19!)."""
    n = a.shape[-1]
    eye = minitorch.eye(n, dtype=a.dtype, device=a.device)
    if a.numel() == 0:
        return a.clone()
    with minitorch.no_grad():
        norm = float(a.detach().abs().sum(-2).amax())
    squarings = 0
    if norm > 1:
        squarings = int(math.ceil(math.log2(norm)))
    x = a / (2.0 ** squarings) if squarings else a
    result = eye + x / 18
    for k in range(17, 0, -1):
        result = eye + (x @ result) / k
    for _ in range(squarings):
        result = result @ result
    return result


def geqrf(a):
    """(a_factored, tau) as LAPACK's geqrf: R in the upper triangle, the Householder vectors
    (unit first entry implied) below the diagonal, tau their scales, so that
    a = H_1 ... H_k R with H_i = I - tau_i v_i v_i^T.  Real matrices, no gradient."""
    with minitorch.no_grad():
        a = a.detach().clone()
        m, n = a.shape[-2], a.shape[-1]
        k = min(m, n)
        taus = []
        for j in range(k):
            alpha = a[..., j, j].clone()
            x = a[..., j + 1:, j]
            xnorm = x.norm(dim=-1) if m > j + 1 else minitorch.zeros_like(alpha)
            trivial = xnorm == 0
            beta = -minitorch.copysign(minitorch.hypot(alpha, xnorm), alpha)
            beta = minitorch.where(trivial, alpha, beta)
            tau = minitorch.where(trivial, minitorch.zeros_like(alpha), (beta - alpha) / beta)
            scale = minitorch.where(trivial, minitorch.ones_like(alpha), 1 / (alpha - beta))
            if m > j + 1:
                a[..., j + 1:, j] = x * scale.unsqueeze(-1)
            a[..., j, j] = beta
            if j + 1 < n:
                v = a[..., j:, j].clone()
                v[..., 0] = 1
                block = a[..., j:, j + 1:]
                w = (v.unsqueeze(-2) @ block)                 # (..., 1, n - j - 1)
                a[..., j:, j + 1:] = block - (tau.unsqueeze(-1).unsqueeze(-1) * v.unsqueeze(-1)) @ w
            taus.append(tau)
        tau = minitorch.stack(taus, -1) if taus else a.new_zeros(a.shape[:-2] + (0,))
        return a, tau


def householder_product(a, tau):
    """The first n columns of H_1 ... H_k (H_i = I - tau_i v_i v_i^T, v_i the unit-diagonal
    columns below a's diagonal), for a (..., m, n) and tau (..., k): differentiable."""
    m, n = a.shape[-2], a.shape[-1]
    k = tau.shape[-1]
    rows = minitorch.arange(m, device=a.device)
    q = minitorch.eye(m, n, dtype=a.dtype, device=a.device).expand(a.shape[:-2] + (m, n))
    for i in range(k - 1, -1, -1):
        col = a[..., :, i]
        v = minitorch.where(rows > i, col, minitorch.where(rows == i, 1.0, 0.0).to(a.dtype))
        w = v.unsqueeze(-2) @ q                                   # (..., 1, n)
        q = q - (tau[..., i].unsqueeze(-1).unsqueeze(-1) * v.unsqueeze(-1)) @ w
    return q


def orthonormal_q(a):
    """Q of the QR decomposition of a (..., m, n), m >= n, normalised so that R has a
    nonnegative diagonal (the unique Q of a full-rank a); no gradient."""
    with minitorch.no_grad():
        x, tau = geqrf(a)
        q = householder_product(x, tau)
        return q * x.diagonal(dim1=-2, dim2=-1).sgn().unsqueeze(-2)
