"""Distances: cdist (one op with its own derivative, autograd/formulas.py), pdist and dist
composed from it and from norm; cosine_similarity and pairwise_distance between the rows of two
tensors (composites of differentiable ops)."""
from . import _C
from ._checks import _check, _legacy_name, scalar_type_name as _scalar_type_name


def _broadcast_pair(a, b):
    """a and b expanded to their broadcast shape, with the message of a binary op."""
    sa, sb = tuple(a.shape), tuple(b.shape)
    if sa == sb:
        return a, b
    nd = max(len(sa), len(sb))
    pa, pb = (1,) * (nd - len(sa)) + sa, (1,) * (nd - len(sb)) + sb
    out = []
    for i, (x, y) in enumerate(zip(pa, pb)):
        if x != y and x != 1 and y != 1:
            raise RuntimeError(f"The size of tensor a ({x}) must match the size of tensor b ({y}) "
                               f"at non-singleton dimension {i}")
        out.append(y if x == 1 else x)
    return a.expand(out), b.expand(out)


def cosine_similarity(x1, x2, dim=1, eps=1e-8):
    """sum(x1 * x2) / (max(||x1||, eps) * max(||x2||, eps)) along dim, after broadcasting;
    each input is divided by its clamped norm first (no overflow for large values)."""
    _check(x1, "cosine_similarity", "x1")
    _check(x2, "cosine_similarity", "x2")
    dt = _C.result_type(x1, x2)
    if not dt.is_floating_point:
        raise RuntimeError(f"expected common dtype to be floating point, yet common dtype is "
                           f"{_legacy_name(dt)}")
    x1, x2 = _broadcast_pair(x1.to(dt), x2.to(dt))
    n1 = x1.norm(2, dim, keepdim=True).clamp_min(eps)
    n2 = x2.norm(2, dim, keepdim=True).clamp_min(eps)
    return ((x1 / n1) * (x2 / n2)).sum(dim)


def pairwise_distance(x1, x2, p=2.0, eps=1e-6, keepdim=False):
    """||x1 - x2 + eps||_p over the last dim (of the broadcast shape)."""
    _check(x1, "pairwise_distance", "x1")
    _check(x2, "pairwise_distance", "x2")
    dim = max(x1.dim(), x2.dim()) - 1
    return (x1 - x2 + eps).norm(p, dim if dim >= 0 else -1, keepdim=keepdim)

_MODES = ("use_mm_for_euclid_dist_if_necessary", "use_mm_for_euclid_dist",
          "donot_use_mm_for_euclid_dist")

def _check_p(p, fname):
    if isinstance(p, _C.TensorBase):
        p = p.item()
    p = float(p)
    if not p >= 0:
        raise RuntimeError(f"{fname} only supports non-negative p values")
    return p


def _euclid_mm(x1, x2):
    """Euclidean distances through one batched product:
    sqrt(max(|x1|^2 + |x2|^2 - 2 x1 . x2, 0))."""
    n1 = x1.square().sum(-1, keepdim=True)
    n2 = x2.square().sum(-1, keepdim=True)
    r = _C.matmul(x1, x2.transpose(-2, -1)).mul_(-2).add_(n1).add_(n2.transpose(-2, -1))
    return r.clamp_min_(0).sqrt_()


def cdist(x1, x2, p=2.0, compute_mode=None):
    """The p-norm distance between each row of x1 (..., P, M) and each row of x2 (..., R, M),
    batch dimensions broadcast: (..., P, R).  For p = 2, 'use_mm_for_euclid_dist' (or, by
    default, more than 25 rows on either side) computes through a matrix product, as torch."""
    for name, x in (("x1", x1), ("x2", x2)):
        if not isinstance(x, _C.TensorBase):
            raise TypeError(f"cdist(): argument '{name}' must be Tensor, not {type(x).__name__}")
    if compute_mode is None:
        compute_mode = _MODES[0]
    if compute_mode not in _MODES:
        raise ValueError(f"{compute_mode} is not a valid value for compute_mode")
    if x1.dim() < 2:
        raise RuntimeError(f"cdist only supports at least 2D tensors, X1 got: {x1.dim()}D")
    if x2.dim() < 2:
        raise RuntimeError(f"cdist only supports at least 2D tensors, X2 got: {x2.dim()}D")
    if x1.shape[-1] != x2.shape[-1]:
        raise RuntimeError(f"X1 and X2 must have the same number of columns. X1: {x1.shape[-1]} "
                           f"X2: {x2.shape[-1]}")
    p = _check_p(p, "cdist")
    if not x1.dtype.is_floating_point:
        raise RuntimeError(f"cdist only supports floating-point dtypes, X1 got: "
                           f"{_scalar_type_name(x1.dtype)}")
    if not x2.dtype.is_floating_point:
        raise RuntimeError(f"cdist only supports floating-point dtypes, X2 got: "
                           f"{_scalar_type_name(x2.dtype)}")
    if x1.dtype != x2.dtype:
        raise RuntimeError(f"expected scalar type {_scalar_type_name(x1.dtype)} but found "
                           f"{_scalar_type_name(x2.dtype)}")
    if x1.dtype not in (_C.float32, _C.float64):
        raise NotImplementedError(f"\"cdist\" not implemented for '{_scalar_type_name(x1.dtype)}'")
    batch = tuple(_mt().broadcast_shapes(tuple(x1.shape[:-2]), tuple(x2.shape[:-2])))
    n1, n2, m = x1.shape[-2], x2.shape[-2], x1.shape[-1]
    nb = 1
    for k in batch:
        nb *= k
    a = x1.expand(batch + (n1, m)).reshape(nb, n1, m)
    b = x2.expand(batch + (n2, m)).reshape(nb, n2, m)
    use_mm = p == 2 and (compute_mode == _MODES[1] or
                         (compute_mode == _MODES[0] and (n1 > 25 or n2 > 25)))
    if a.numel() == 0 or b.numel() == 0 or not use_mm:
        r = _C._cdist_direct(a, b, p)
    else:
        r = _euclid_mm(a, b)
    return r.reshape(batch + (n1, n2))


def pdist(input, p=2):
    """The p-norm distances between the rows of a 2-D input, the upper triangle of
    cdist(input, input) in row order: N (N - 1) / 2 values."""
    if not isinstance(input, _C.TensorBase):
        raise TypeError(f"pdist(): argument 'input' must be Tensor, not {type(input).__name__}")
    if input.dim() != 2:
        raise RuntimeError(f"pdist only supports 2D tensors, got: {input.dim()}D")
    if not input.dtype.is_floating_point:
        raise RuntimeError("pdist only supports floating-point dtypes")
    _check_p(p, "pdist")
    n = input.shape[0]
    if n <= 1:
        return _C.empty((0,), dtype=input.dtype)
    from ._joining import triu_indices
    d = _mt().cdist(input, input, p, "donot_use_mm_for_euclid_dist")
    ij = triu_indices(n, n, 1)
    return d[ij[0], ij[1]]


def _mt():
    import minitorch
    return minitorch


def dist(input, other, p=2):
    """The p-norm of input - other (broadcast)."""
    for name, x in (("input", input), ("other", other)):
        if not isinstance(x, _C.TensorBase):
            raise TypeError(f"dist(): argument '{name}' must be Tensor, not {type(x).__name__}")
    if isinstance(p, _C.TensorBase):
        p = p.item()
    dt = _C.result_type(input, other)
    if not (dt.is_floating_point or dt.is_complex):
        raise NotImplementedError("norm(): input dtype should be either floating point or complex. "
                                  f"Got {_scalar_type_name(dt)} instead.")
    return _mt().norm(input - other, p)
