"""Distances between the rows of two tensors: cosine_similarity and pairwise_distance
(composites of differentiable ops)."""
from . import _C
from ._checks import _check, _legacy_name


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
