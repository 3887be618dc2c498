"""Special functions the distributions need that minitorch has no op for yet: ``digamma``
(differentiable, from minitorch._sampling) and the regularised lower incomplete gamma function
``gammainc`` (the Gamma CDF).  They belong in ``minitorch.special`` (``special.digamma``,
``special.gammainc``); once those exist, these helpers should be replaced by them."""
import math

import minitorch

from .._sampling import _digamma as digamma

__all__ = ["digamma", "gammainc"]

_MAX_TERMS = 5000


def _gammainc_values(a, x):
    """P(a, x) in float64 without gradient: the power series for x < a + 1, else 1 - Q from the
    continued fraction of Q (modified Lentz), each run until every element has converged."""
    eps = 1e-16
    tiny = 1e-300
    log_prefix = -x + a * x.clamp(min=tiny).log() - a.lgamma()
    use_series = x < a + 1
    # series: sum_n x^n / (a (a+1) ... (a+n))
    term = 1 / a
    total = term.clone()
    ap = a.clone()
    for _ in range(_MAX_TERMS):
        ap = ap + 1
        term = term * x / ap
        total = total + term
        if not bool(((term.abs() > total.abs() * eps) & use_series).any()):
            break
    p_series = total * log_prefix.exp()
    # continued fraction of Q(a, x)
    b = x + 1 - a
    c = minitorch.full_like(x, 1 / tiny)
    d = 1 / b.masked_fill(b.abs() < tiny, tiny)
    h = d.clone()
    for i in range(1, _MAX_TERMS):
        an = -i * (i - a)
        b = b + 2
        d = an * d + b
        d = d.masked_fill(d.abs() < tiny, tiny)
        c = b + an / c
        c = c.masked_fill(c.abs() < tiny, tiny)
        d = 1 / d
        delta = d * c
        h = h * delta
        if not bool((((delta - 1).abs() > eps) & ~use_series).any()):
            break
    p_cf = 1 - log_prefix.exp() * h
    p = p_series.where(use_series, p_cf)
    p = p.masked_fill(x <= 0, 0.0)
    p = p.masked_fill(x == math.inf, 1.0)
    return p.masked_fill(a.isnan() | x.isnan() | (a < 0) | (x < 0), math.nan)


def gammainc(a, x):
    """The regularised lower incomplete gamma function P(a, x) (a > 0, x >= 0), differentiable
    in x (its derivative is the Gamma(a, 1) density); no gradient flows to a (torch does not
    implement one either)."""
    a, x = minitorch.broadcast_tensors(a, x)
    dtype = minitorch.promote_types(a.dtype, x.dtype)
    with minitorch.no_grad():
        p = _gammainc_values(a.detach().double(), x.detach().double()).to(dtype)
    if not (x.requires_grad and minitorch.is_grad_enabled()):
        return p
    # the value p with the derivative d p / d x = x^(a-1) e^-x / Gamma(a) attached
    ad, xd = a.detach(), x.detach()
    density = minitorch.xlogy(ad - 1, xd).sub(xd).sub(ad.lgamma()).exp()
    return p + density * (x - xd)
