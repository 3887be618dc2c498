"""The losses torch also has as top-level functions (reduction as torch's number: 0 none,
1 mean, 2 sum): triplet_margin_loss, margin_ranking_loss, cosine_embedding_loss,
hinge_embedding_loss, poisson_nll_loss.  Composites of differentiable ops."""
import math

from ._checks import _check


def _mt():
    import minitorch
    return minitorch


def _reduce(loss, reduction):
    reduction = int(reduction)
    if reduction == 1:
        return loss.mean()
    if reduction == 2:
        return loss.sum()
    return loss


def triplet_margin_loss(anchor, positive, negative, margin=1.0, p=2, eps=1e-6, swap=False,
                        reduction=1):
    """max(d(a, p) - d(a, n) + margin, 0), d the pairwise p-norm distance (swap: d(a, n)
    replaced by d(p, n) where that is smaller)."""
    for name, t in (("anchor", anchor), ("positive", positive), ("negative", negative)):
        _check(t, "triplet_margin_loss", name)
    a, pd, nd = anchor.dim(), positive.dim(), negative.dim()
    if not a == pd == nd:
        raise RuntimeError("The anchor, positive, and negative tensors are expected to have the same "
                           f"number of dimensions, but got: anchor {a}D, positive {pd}D, and "
                           f"negative {nd}D inputs")
    mt = _mt()
    d_pos = mt.pairwise_distance(anchor, positive, p, eps)
    d_neg = mt.pairwise_distance(anchor, negative, p, eps)
    if swap:
        d_neg = mt.minimum(d_neg, mt.pairwise_distance(positive, negative, p, eps))
    return _reduce((margin + d_pos - d_neg).clamp_min(0), reduction)


def margin_ranking_loss(input1, input2, target, margin=0.0, reduction=1):
    """max(0, -target * (input1 - input2) + margin)."""
    return _reduce((-target * (input1 - input2) + margin).clamp_min(0), reduction)


def cosine_embedding_loss(input1, input2, target, margin=0.0, reduction=1):
    """1 - cos(x1, x2) where target is 1, max(0, cos(x1, x2) - margin) where it is -1, 0
    elsewhere; cos along the last dim, the squared norms plus 1e-12."""
    td = target.dim()
    if td not in (0, 1):
        raise RuntimeError("0D or 1D target tensor expected, multi-target not supported")
    if td == 1 and (input1.dim() != 2 or input2.dim() != 2):
        raise RuntimeError(f"1D target tensor expects 2D input tensors, but found inputs with sizes "
                           f"{list(input1.shape)} and {list(input2.shape)}.")
    if td == 0 and (input1.dim() != 1 or input2.dim() != 1):
        raise RuntimeError(f"0D target tensor expects 1D input tensors, but found inputs with sizes "
                           f"{list(input1.shape)} and {list(input2.shape)}.")
    mt = _mt()
    prod = (input1 * input2).sum(td)
    mag1 = (input1 * input1).sum(td) + 1e-12
    mag2 = (input2 * input2).sum(td) + 1e-12
    cos = prod / (mag1 * mag2).sqrt()
    zeros = mt.zeros_like(cos)
    pos = mt.where(target == 1, 1 - cos, zeros)
    neg = mt.where(target == -1, (cos - margin).clamp_min(0), zeros)
    return _reduce(pos + neg, reduction)


def hinge_embedding_loss(input, target, margin=1.0, reduction=1):
    """input where target is 1, max(0, margin - input) where it is -1 (both terms elsewhere)."""
    mt = _mt()
    zeros = mt.zeros_like(input)
    below = mt.where(target != 1, (margin - input).clamp_min(0), zeros)
    own = mt.where(target != -1, input, zeros)
    return _reduce(below + own, reduction)


def poisson_nll_loss(input, target, log_input=True, full=False, eps=1e-8, reduction=1):
    """exp(input) - target * input (log_input), else input - target * log(input + eps); full
    adds Stirling's approximation of log(target!) where target > 1."""
    if log_input:
        loss = input.exp() - target * input
    else:
        loss = input - target * (input + eps).log()
    if full:
        stirling = target * target.log() - target + 0.5 * (2 * math.pi * target).log()
        loss = loss + stirling.masked_fill(target <= 1, 0)
    return _reduce(loss, reduction)


__all__ = ["triplet_margin_loss", "margin_ranking_loss", "cosine_embedding_loss",
           "hinge_embedding_loss", "poisson_nll_loss"]
