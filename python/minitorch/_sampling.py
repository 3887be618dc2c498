"""Samplers of the distributions torch has as ops (``_standard_gamma``, ``_sample_dirichlet``,
``binomial``) and the implicit reparameterisation gradients of the gamma family
(``_standard_gamma_grad``, ``_dirichlet_grad``), written over minitorch's tensor ops.

Note [Implicit reparameterisation]
A gamma draw x ~ Gamma(alpha, 1) is not a differentiable function of uniform noise, but for a
fixed x the map alpha -> x that keeps the CDF F(x; alpha) constant is: dx/dalpha =
-(dF/dalpha) / p(x; alpha).  ``_standard_gamma_grad(alpha, x)`` evaluates that derivative with
the approximations of Jankowiak and Obermeyer, "Pathwise derivatives beyond the
reparameterization trick" (ICML 2018), which torch uses too (a Taylor series of the CDF for
small x, Rice's saddle-point expansion for large alpha, a fitted bivariate rational function in
between), so the gradients equal torch's for the same draw.  ``_dirichlet_grad(x, alpha,
total)`` is the same derivative for a Beta(alpha, total - alpha) marginal of a Dirichlet draw,
divided by (1 - x).  Each branch is computed for every element and the right one chosen with
``where`` (no Python loop over elements); the work is done in float64.

The rejection samplers (Marsaglia and Tsang's for the gamma, Hormann's BTRS for large binomial
means) run vectorised: each round draws for every element still pending and keeps the accepted
ones, so a round costs a few tensor ops and the number of rounds grows with the log of the
element count."""
import math

from . import _C
from ._finfo import finfo
from ._C import TensorBase as Tensor

__all__ = ["_standard_gamma", "_standard_gamma_grad", "_sample_dirichlet", "_dirichlet_grad",
           "binomial"]

_F64 = _C.float64
_PSI_10 = 2.25175258906672110764


def _dtype_name(dtype):
    return {"float64": "Double", "float32": "Float", "float16": "Half", "bfloat16": "BFloat16",
            "int64": "Long", "int32": "Int", "int16": "Short", "int8": "Char", "uint8": "Byte",
            "bool": "Bool"}.get(str(dtype).split(".")[-1], str(dtype).split(".")[-1])


def _check_float(t, kernel, fname):
    if not isinstance(t, Tensor):
        raise TypeError(f"{fname}(): argument must be Tensor, not {type(t).__name__}")
    if not t.dtype.is_floating_point:
        raise NotImplementedError(f"\"{kernel}\" not implemented for '{_dtype_name(t.dtype)}'")


def _digamma(x):
    """psi(x) = d lgamma(x) / dx for float tensors, made of differentiable ops (so its own
    derivative, trigamma, follows by autograd): psi(x) = psi(x + 10) - sum_{k<10} 1 / (x + k),
    then the asymptotic series at x + 10 >= 10; x < 0 by reflection, psi(1 - x) - pi / tan(pi x).
    psi(0) = -inf, negative integers give nan, as torch's.
    (minitorch.special.digamma should replace this helper once it exists.)"""
    neg = x < 0
    y = (1 - x).where(neg, x)
    acc = 1 / y
    for k in range(1, 10):
        acc = acc + 1 / (y + k)
    z = y + 10
    z2 = 1 / (z * z)
    series = z2 * (8.33333333333333333333e-2 + z2 * (-8.33333333333333333333e-3 + z2 * (
        3.96825396825396825397e-3 + z2 * (-4.16666666666666666667e-3 + z2 * (
            7.57575757575757575758e-3 + z2 * (-2.10927960927960927961e-2
                                              + z2 * 8.33333333333333333333e-2))))))
    psi = z.log() - 0.5 / z - series - acc
    psi = (psi - math.pi / (math.pi * x).tan()).where(neg, psi)
    psi = psi.masked_fill(x == 0, -math.inf)
    return psi.masked_fill(neg & (x == x.floor()), math.nan)


def _standard_gamma(input, generator=None):
    """Draws of Gamma(input, 1) (Marsaglia-Tsang; shape below 1 boosted by U ** (1 / alpha)),
    at least the dtype's smallest normal number, as torch's."""
    _check_float(input, "gamma_cpu", "_standard_gamma")
    out_dtype = input.dtype
    alpha = input.detach().to(_F64).reshape(-1)
    n = alpha.numel()
    if n == 0:
        return _C.empty(tuple(input.shape), dtype=out_dtype)
    small = alpha < 1
    a = (alpha + 1).where(small, alpha)
    d = a - 1.0 / 3.0
    c = 1 / (9 * d).sqrt()
    result = _C.zeros(n, dtype=_F64)
    pending = ((alpha > 0) & alpha.isfinite()).nonzero().reshape(-1)
    while pending.numel():
        m = pending.numel()
        dp, cp = d[pending], c[pending]
        x = _C.empty(m, dtype=_F64)
        _C._random_fill_(x, 1, 0.0, 1.0, generator)
        u = _C.empty(m, dtype=_F64)
        _C._random_fill_(u, 0, 0.0, 1.0, generator)
        v = (1 + cp * x) ** 3
        ok = (v > 0) & (u.log() < 0.5 * x * x + dp - dp * v + dp * v.clamp(min=1e-300).log())
        idx = ok.nonzero().reshape(-1)
        result[pending[idx]] = (dp * v)[idx]
        pending = pending[(~ok).nonzero().reshape(-1)]
    if bool(small.any()):
        u = _C.empty(n, dtype=_F64)
        _C._random_fill_(u, 0, 0.0, 1.0, generator)
        boost = u.clamp(min=1e-300).pow(1 / alpha.clamp(min=1e-300))
        result = (result * boost).where(small, result)
    result = result.masked_fill(alpha == math.inf, math.inf)
    result = result.to(out_dtype)
    return result.clamp(min=finfo(out_dtype).tiny).reshape(tuple(input.shape))


def _series_small_x(alpha, x):
    """The derivative for x < 0.8: the CDF as x ** alpha times a 6-term series, differentiated
    in alpha."""
    numer = x.new_ones(x.shape)
    denom = alpha.clone()
    s1 = numer / denom
    s2 = numer / (denom * denom)
    for i in range(1, 6):
        numer = numer * (-x / i)
        denom = denom + 1
        s1 = s1 + numer / denom
        s2 = s2 + numer / (denom * denom)
    pxa = x.pow(alpha)
    pdf = x.pow(alpha - 1) * (-x).exp()
    cdf = pxa * s1
    cdf_alpha = (x.log() - _digamma(alpha)) * cdf - pxa * s2
    r = -cdf_alpha / pdf
    return r.masked_fill(r.isnan(), 0.0)


def _rice_large_alpha(alpha, x):
    """The derivative for alpha > 8: Rice's saddle-point expansion (a polynomial near the mode,
    0.9 alpha <= x <= 1.1 alpha)."""
    near = (0.9 * alpha <= x) & (x <= 1.1 * alpha)
    numer_1 = 1 + 24 * alpha * (1 + 12 * alpha)
    numer_2 = (1440 * (alpha * alpha) + 6 * x * (53 - 120 * x) - 65 * x * x / alpha
               + alpha * (107 + 3600 * x))
    poly = numer_1 * numer_2 / (1244160 * (alpha * alpha) * (alpha * alpha))
    denom = (8 * alpha).sqrt()
    term2 = denom / (alpha - x)
    term3 = (x - alpha - alpha * (x / alpha).log()).pow(-1.5)
    term23 = (term2 - term3).where(x < alpha, term2 + term3)
    term1 = (x / alpha).log() * term23 - (2 / alpha).sqrt() * (alpha + x) / ((alpha - x) * (alpha - x))
    stirling = 1 + 1 / (12 * alpha) * (1 + 1 / (24 * alpha))
    far = -stirling * (x * term1) / denom
    return poly.where(near, far)


# fitted coefficients of the rational approximation (rows: powers of u; columns: powers of v,
# numerator then denominator), from Jankowiak and Obermeyer
_GAMMA_UV = (
    (0.16009398, -0.094634809, 0.025146376, -0.0030648343,
     1, 0.32668115, 0.10406089, 0.0014179084),
    (0.53487893, 0.1298071, 0.065735949, -0.0015649758,
     0.16639465, 0.020070113, -0.0035938915, -0.00058392623),
    (0.040121004, -0.0065914022, -0.0026286047, -0.0013441777,
     0.017050642, -0.0021309326, 0.00085092367, -1.5247877e-07),
)


def _rational_mid(alpha, x):
    u = (x / alpha).log()
    v = alpha.log()
    cv = [_GAMMA_UV[0][i] + u * (_GAMMA_UV[1][i] + u * _GAMMA_UV[2][i]) for i in range(8)]
    p = cv[0] + v * (cv[1] + v * (cv[2] + v * cv[3]))
    q = cv[4] + v * (cv[5] + v * (cv[6] + v * cv[7]))
    return (p / q).exp()


def _standard_gamma_grad(self, output):
    """d output / d self for output ~ Gamma(self, 1) held at its CDF value (see Note [Implicit
    reparameterisation])."""
    _check_float(self, "_standard_gamma_grad_cpu", "_standard_gamma_grad")
    from ._broadcasting import broadcast_tensors
    a, x = broadcast_tensors(self.detach(), output.detach())
    dtype = _C.promote_types(self.dtype, output.dtype)
    a, x = a.to(_F64), x.to(_F64)
    r = _rational_mid(a, x)
    r = _rice_large_alpha(a, x).where(a > 8, r)
    r = _series_small_x(a, x).where(x < 0.8, r)
    return r.to(dtype)


def _beta_grad_alpha_small(x, alpha, beta):
    """For x near 0: a Taylor series of the Beta CDF in x, differentiated in alpha."""
    factor = _digamma(alpha) - _digamma(alpha + beta) - x.log()
    numer = x.new_ones(x.shape)
    series = numer / alpha * (factor + 1 / alpha)
    for i in range(1, 11):
        numer = numer * ((i - beta) * x / i)
        denom = alpha + i
        series = series + numer / denom * (factor + 1 / denom)
    r = x * (1 - x).pow(-beta) * series
    return r.masked_fill(r.isnan(), 0.0)


def _beta_grad_beta_small(x, alpha, beta):
    """For x near 0: the Taylor series of the Beta CDF differentiated in beta."""
    factor = _digamma(alpha + beta) - _digamma(beta)
    numer = x.new_ones(x.shape)
    betas = x.new_ones(x.shape)
    dbetas = x.new_zeros(x.shape)
    series = factor / alpha
    for i in range(1, 9):
        numer = numer * (-x / i)
        dbetas = dbetas * (beta - i) + betas
        betas = betas * (beta - i)
        series = series + numer / (alpha + i) * (dbetas + factor * betas)
    r = -(1 - x).pow(1 - beta) * series
    return r.masked_fill(r.isnan(), 0.0)


def _beta_grad_alpha_mid(x, alpha, beta):
    """For alpha and beta both large: Rice's saddle-point expansion (a polynomial within a
    tenth of a standard deviation of the mean)."""
    total = alpha + beta
    mean = alpha / total
    std = (alpha * beta / (total + 1)).sqrt() / total
    near = (mean - 0.1 * std <= x) & (x <= mean + 0.1 * std)
    b2 = beta * beta
    poly = 47 * x * b2 * b2 + alpha * (
        (43 + 20 * (16 + 27 * beta) * x) * b2 * beta + alpha * (
            3 * (59 + 180 * beta - 90 * x) * b2 + alpha * (
                (453 + 1620 * beta * (1 - x) - 455 * x) * beta + alpha * (
                    8 * (1 - x) * (135 * beta - 11)))))
    pre_num = (1 + 12 * alpha) * (1 + 12 * beta) / (total * total)
    pre_den = 12960 * alpha * alpha * alpha * beta * beta * (1 + 12 * total)
    near_value = pre_num / (1 - x) * poly / pre_den
    prefactor = -x / (2 * alpha * beta / total).sqrt()
    stirling = ((1 + 1 / (12 * alpha) + 1 / (288 * alpha * alpha))
                * (1 + 1 / (12 * beta) + 1 / (288 * beta * beta))
                / (1 + 1 / (12 * total) + 1 / (288 * total * total)))
    term1_num = 2 * (alpha * alpha) * (x - 1) + alpha * beta * (x - 1) - x * b2
    axbx = alpha * (x - 1) + beta * x
    term1_den = (2 * alpha / beta).sqrt() * total.pow(1.5) * axbx * axbx
    term1 = term1_num / term1_den
    term2 = 0.5 * (alpha / (total * x)).log()
    term3 = (8 * alpha * beta / total).sqrt() / (beta * x + alpha * (x - 1))
    term4 = (beta * (beta / (total * (1 - x))).log() + alpha * (alpha / (total * x)).log()).pow(-1.5)
    term1234 = term1 + term2 * (term3 + term4.where(x < mean, -term4))
    return near_value.where(near, stirling * prefactor * term1234)


# fitted coefficients of the rational correction [numerator/denominator][u power][a power][b power]
_DIRICHLET_C = (
    (((1.003668233, -0.01061107488, -0.0657888334, 0.01201642863),
      (0.6336835991, -0.3557432599, 0.05486251648, -0.001465281033),
      (-0.03276231906, 0.004474107445, 0.002429354597, -0.0001557569013)),
     ((0.221950385, -0.3187676331, 0.01799915743, 0.01074823814),
      (-0.2951249643, 0.06219954479, 0.01535556598, 0.001550077057),
      (0.02155310298, 0.004170831599, 0.001292462449, 6.976601077e-05)),
     ((-0.05980841433, 0.008441916499, 0.01085618172, 0.002319392565),
      (0.02911413504, 0.01400243777, -0.002721828457, 0.000751041181),
      (0.005900514878, -0.001936558688, -9.495446725e-06, 5.385558597e-05))),
    (((1, -0.02924021934, -0.04438342661, 0.007285809825),
      (0.6357567472, -0.3473456711, 0.05454656494, -0.002407477521),
      (-0.03301322327, 0.004845219414, 0.00231480583, -0.0002307248149)),
     ((0.5925320577, -0.1757678135, 0.01505928619, 0.000564515273),
      (0.1014815858, -0.06589186703, 0.01272886114, -0.0007316646956),
      (-0.007258481865, 0.001096195486, 0.0003934994223, -4.12701925e-05)),
     ((0.06469649321, -0.0236701437, 0.002902096474, -5.896963079e-05),
      (0.001925008108, -0.002869809258, 0.0008000589141, -6.063713228e-05),
      (-0.0003477407336, 6.959756487e-05, 1.097287507e-05, -1.650964693e-06))),
)


def _dirichlet_rational(x, alpha, total):
    beta = total - alpha
    u = x.log()
    a = alpha.log() - u
    b = total.log() - a
    pu = (1, u, u * u)
    pa = (1, a, a * a)
    p = q = 0
    for i in range(3):
        for j in range(3):
            ua = pu[i] * pa[j]
            cp, cq = _DIRICHLET_C[0][i][j], _DIRICHLET_C[1][i][j]
            p = p + ua * (cp[0] + b * (cp[1] + b * (cp[2] + b * cp[3])))
            q = q + ua * (cq[0] + b * (cq[1] + b * (cq[2] + b * cq[3])))
    approx = x * (_digamma(total) - _digamma(alpha)) / beta
    return p / q * approx


def _dirichlet_grad(x, alpha, total):
    """-(d/dalpha) CDF / pdf / (1 - x) for x ~ Beta(alpha, total - alpha) (see Note [Implicit
    reparameterisation]): what a Dirichlet draw's gradient is made from."""
    for t, name in ((x, "x"), (alpha, "alpha"), (total, "total")):
        if not isinstance(t, Tensor):
            raise TypeError(f"_dirichlet_grad(): argument '{name}' must be Tensor, "
                            f"not {type(t).__name__}")
    if not (x.shape == alpha.shape == total.shape):
        raise RuntimeError("_dirichlet_grad: expected x, alpha and total to have the same size")
    dtype = x.dtype
    x, alpha, total = (t.detach().to(_F64) for t in (x, alpha, total))
    beta = total - alpha
    boundary = total * x * (1 - x)
    r = _dirichlet_rational(x, alpha, total)
    r = _beta_grad_alpha_mid(x, alpha, beta).where((alpha > 6) & (beta > 6), r)
    r = (-_beta_grad_beta_small(1 - x, beta, alpha)).where((x >= 0.5) & (boundary < 0.75), r)
    r = _beta_grad_alpha_small(x, alpha, beta).where((x <= 0.5) & (boundary < 2.5), r)
    return r.to(dtype)


def _sample_dirichlet(input, generator=None):
    """Draws of Dirichlet(input) over the last dimension: gamma draws normalised to sum 1."""
    _check_float(input, "dirichlet", "_sample_dirichlet")
    g = _standard_gamma(input.detach(), generator).to(_F64)
    return (g / g.sum(-1, keepdim=True)).to(input.dtype)


def _binomial_inversion(n, p, generator):
    """Draws for small means n p: successes counted by adding geometric waiting times until
    they pass n trials."""
    k = n.new_zeros(n.shape)
    pos = n.new_zeros(n.shape)
    active = (n > 0) & (p > 0)
    log_q = (-p).log1p()
    while bool(active.any()):
        u = _C.empty(n.shape, dtype=_F64)
        _C._random_fill_(u, 0, 0.0, 1.0, generator)
        wait = (u.log() / log_q).ceil().clamp(min=1)
        pos = pos + wait.where(active, wait.new_zeros(wait.shape))
        active = active & (pos <= n)
        k = k + active.to(_F64)
    return k


def _binomial_btrs(n, p, generator):
    """Hormann's BTRS (transformed rejection with squeeze) for n p >= 10, p <= 0.5."""
    q = 1 - p
    spq = (n * p * q).sqrt()
    b = 1.15 + 2.53 * spq
    a = -0.0873 + 0.0248 * b + 0.01 * p
    c = n * p + 0.5
    v_r = 0.92 - 4.2 / b
    alpha = (2.83 + 5.1 / b) * spq
    lpq = (p / q).log()
    m = ((n + 1) * p).floor()
    h = (m + 1).lgamma() + (n - m + 1).lgamma()
    result = n.new_zeros(n.shape)
    pending = _C.arange(n.numel())
    while pending.numel():
        cnt = pending.numel()
        ap, bp, cp, np_ = a[pending], b[pending], c[pending], n[pending]
        u = _C.empty(cnt, dtype=_F64)
        _C._random_fill_(u, 0, -0.5, 0.5, generator)
        v = _C.empty(cnt, dtype=_F64)
        _C._random_fill_(v, 0, 0.0, 1.0, generator)
        us = 0.5 - u.abs()
        k = ((2 * ap / us + bp) * u + cp).floor()
        inside = (k >= 0) & (k <= np_)
        squeeze = inside & (us >= 0.07) & (v <= v_r[pending])
        kc = k.clamp(min=0).minimum(np_)
        lv = (v * alpha[pending] / (ap / (us * us) + bp)).log()
        bound = h[pending] - (kc + 1).lgamma() - (np_ - kc + 1).lgamma() + (kc - m[pending]) * lpq[pending]
        ok = squeeze | (inside & (lv <= bound))
        idx = ok.nonzero().reshape(-1)
        result[pending[idx]] = k[idx]
        pending = pending[(~ok).nonzero().reshape(-1)]
    return result


def binomial(count, prob, generator=None):
    """Draws of Binomial(count, prob) (elementwise, same shape and dtype)."""
    for t in (count, prob):
        if not isinstance(t, Tensor):
            raise TypeError(f"binomial(): argument must be Tensor, not {type(t).__name__}")
    if not count.dtype.is_floating_point:
        raise ValueError("binomial only supports floating-point dtypes for count, got: "
                         f"{_dtype_name(count.dtype)}")
    if prob.dtype != count.dtype:
        raise RuntimeError(f"Found dtype {_dtype_name(prob.dtype)} but expected "
                           f"{_dtype_name(count.dtype)}")
    from ._broadcasting import broadcast_tensors
    n, p = broadcast_tensors(count.detach().to(_F64), prob.detach().to(_F64))
    shape = tuple(n.shape)
    n, p = n.reshape(-1).contiguous(), p.reshape(-1).contiguous()
    nan = p.isnan() | n.isnan() | (n == math.inf)
    valid = (n > 0) & (p > 0) & ~nan
    full = valid & (p >= 1)
    flip = p > 0.5
    pp = (1 - p).where(flip, p).clamp(min=0, max=1)
    nn = n.floor().clamp(min=0)
    small = nn * pp < 10
    k = nn.new_zeros(nn.shape)
    si = (valid & ~full & small).nonzero().reshape(-1)
    if si.numel():
        k[si] = _binomial_inversion(nn[si], pp[si], generator)
    li = (valid & ~full & ~small).nonzero().reshape(-1)
    if li.numel():
        k[li] = _binomial_btrs(nn[li], pp[li], generator)
    k = (nn - k).where(flip & valid & ~full, k)
    k = nn.where(full, k)
    k = k.masked_fill(nan, math.nan)
    return k.to(count.dtype).reshape(shape)
