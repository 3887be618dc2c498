/* aten_lite/special_math.h - scalar math of the special functions (digamma, zeta, Bessel, ...). */
#ifndef ATEN_LITE_SPECIAL_MATH_H
#define ATEN_LITE_SPECIAL_MATH_H

#include <math.h>
#include <stdint.h>

#include "aten_lite/op_math.h"

/* Note [Special functions]
 * Each function here is the scalar math of one elementwise op, written once in double precision
 * as a small inline function, so that the CPU loops (aten_lite/cpu/special.c) and the CUDA
 * kernels (aten_lite/cuda/elementwise_special.cu) share it: MT_SF_FN marks them __host__
 * __device__ under nvcc (MT_HOST_DEVICE, Note [Op math]), and they touch no memory but their
 * arguments and constant tables; float32, float16 and bfloat16 compute through the double
 * version and round once.  The methods are textbook ones, chosen for
 * accuracy over the whole range: power series where they converge without cancellation,
 * asymptotic expansions where their smallest term is below the rounding, Temme's continued
 * fraction for K_nu, Euler-Maclaurin summation for the Hurwitz zeta function, Temme's uniform
 * expansion for incomplete gamma functions of large order, Taylor series of Airy's equation
 * about tabulated points, Newton steps for the inverses.  The constants are exact values
 * (Bernoulli numbers, zeta(k), Airy values on a grid) printed by tools/gen_special_constants.py
 * (mpmath).  The values at poles, NaNs and infinities, and the domains, are torch's; where torch
 * differs (a pole evaluated through sin(pi * n) != 0) the mathematically right value is taken
 * and README.md says so. */

#define MT_SF_FN MT_HOST_DEVICE static inline

#define MT_SF_PI 3.14159265358979323846
#define MT_SF_EULER 0.57721566490153286061
#define MT_SF_EPS 1.1102230246251565e-16 /* 2^-53 */
#define MT_SF_SQRT2PI 2.5066282746310005024
#define MT_SF_SQRT_PI_2 1.2533141373155002512 /* sqrt(pi / 2) */
#define MT_SF_INV_SQRTPI 0.56418958354775628695
#define MT_SF_SQRT1_2 0.70710678118654752440

/* sin(pi x), exactly 0 at the integers and accurate near them. */
MT_SF_FN double
mt_sf_sinpi(double x)
{
    double r = remainder(x, 2.0); /* exact, in [-1, 1] */
    if (r > 0.5) {
        r = 1.0 - r;
    }
    else if (r < -0.5) {
        r = -1.0 - r;
    }
    return sin(MT_SF_PI * r);
}

/* ---- gamma family ------------------------------------------------------------------------ */

/* psi(x) = d/dx lgamma(x): reflection below 0, the recurrence psi(x) = psi(x + 1) - 1/x up to
 * 10 (its terms and their sum carried with their rounding errors, as the result can be much
 * smaller than the sum: psi(1) = -0.577 = 2.25 - 2.83), then the asymptotic series in Bernoulli
 * numbers.  Poles: +-inf at +-0 (torch), NaN at the negative integers. */
MT_SF_FN double
mt_sf_digamma(double x)
{
    if (x == 0) {
        return copysign(INFINITY, -x);
    }
    double acc = 0, err = 0;
    if (x < 0) {
        if (x == trunc(x)) {
            return NAN;
        }
        /* psi(x) = psi(1 - x) - pi / tan(pi x), tan taken of x's distance to an integer */
        acc = -MT_SF_PI / tan(MT_SF_PI * (x - nearbyint(x)));
        if (isinf(acc)) {
            return acc;
        }
        x = 1 - x;
    }
    if (x < 1e-17) {
        return acc - 1 / x - MT_SF_EULER; /* psi(x) = -1/x - gamma + O(x) */
    }
    while (x < 10) {
        const double q = 1 / x, r = fma(-q, x, 1.0) / x; /* 1/x = q + r */
        const double s = acc - q;                          /* TwoSum(acc, -q) */
        const double bb = s - acc;
        err += (acc - (s - bb)) + (-q - bb) - r;
        acc = s;
        x += 1;
    }
    double rest, rest_lo = 0;
    if (x == 10) {
        /* psi(10) in two parts (the positive integers land here) */
        rest = 2.251752589066721;
        rest_lo = 1.744722087539228e-16;
    }
    else {
        const double z = 1 / (x * x);
        const double tail =
            z * (1 / 12.0 -
                 z * (1 / 120.0 - z * (1 / 252.0 - z * (1 / 240.0 - z * (1 / 132.0 - z * (691 / 32760.0 - z / 12.0))))));
        rest = log(x) - 0.5 / x - tail;
        if (!isfinite(rest)) {
            return acc + rest;
        }
    }
    const double s = acc + rest, bb = s - acc; /* TwoSum(acc, rest) */
    return s + (((acc - (s - bb)) + (rest - bb)) + err + rest_lo);
}

/* psi'(x) for x > 0: the recurrence up to 12, then 1/x + 1/(2x^2) + sum B_2k / x^(2k+1). */
MT_SF_FN double
mt__sf_trigamma_pos(double x)
{
    double acc = 0;
    while (x < 12) {
        acc += 1 / (x * x);
        x += 1;
    }
    const double z = 1 / (x * x);
    const double s =
        z * (1 / 6.0 -
             z * (1 / 30.0 -
                  z * (1 / 42.0 -
                       z * (1 / 30.0 - z * (5 / 66.0 - z * (691 / 2730.0 - z * (7 / 6.0 - z * (3617 / 510.0))))))));
    return acc + (1 + 0.5 / x + s) / x;
}

/* psi'(x): psi'(x) = pi^2 / sin^2(pi x) - psi'(1 - x) below 1/2; +inf at the poles. */
MT_SF_FN double
mt_sf_trigamma(double x)
{
    if (x < 0.5) {
        if (x == -INFINITY) {
            return NAN;
        }
        if (x == floor(x)) {
            return INFINITY;
        }
        const double s = mt_sf_sinpi(x);
        return MT_SF_PI * MT_SF_PI / (s * s) - mt__sf_trigamma_pos(1 - x);
    }
    return mt__sf_trigamma_pos(x);
}

/* B_2k / (2k)!, k = 1..12 */
#define MT__SF_BERNOULLI_OVER_FACT                                                              \
    {8.3333333333333333e-2, -1.3888888888888889e-3, 3.3068783068783069e-5, -8.2671957671957672e-7, \
     2.0876756987868099e-8, -5.2841901386874932e-10, 1.3382536530684679e-11,                     \
     -3.3896802963225829e-13, 8.5860620562778446e-15, -2.1748686985580619e-16,                    \
     5.5090028283602295e-18, -1.3954464685812523e-19}

/* The Hurwitz zeta function sum_k (q + k)^-x (x > 1): the first terms summed directly (at least
 * nine, and up to q + k > 9), the rest by the Euler-Maclaurin formula:
 *   sum_{k>=N} f(k) = w^(1-x)/(x-1) + f(N)/2 + sum_j B_2j/(2j)! x(x+1)...(x+2j-2) w^(-x-2j+1),
 * w = q + N.  Domain as torch: 1 -> inf, x < 1 -> NaN; q a non-positive integer -> inf; other
 * negative q only for integer x (q^-x is not real otherwise). */
MT_SF_FN double
mt_sf_zeta(double x, double q)
{
    static const double bf[12] = MT__SF_BERNOULLI_OVER_FACT;
    if (x == 1) {
        return INFINITY;
    }
    if (x < 1) {
        return NAN;
    }
    if (q <= 0) {
        if (q == floor(q)) {
            return INFINITY;
        }
        if (x != floor(x)) {
            return NAN;
        }
    }
    double s = pow(q, -x), a = q, b = 0;
    int i = 0;
    while (i < 9 || a <= 9) {
        i++;
        a += 1;
        b = pow(a, -x);
        s += b;
        if (fabs(b / s) < MT_SF_EPS) {
            return s;
        }
    }
    const double w = a;
    s += b * w / (x - 1) - 0.5 * b;
    double rising = 1, k = 0;
    for (int j = 0; j < 12; j++) {
        rising *= x + k;
        b /= w;
        const double t = rising * b * bf[j];
        s += t;
        if (fabs(t / s) < MT_SF_EPS) {
            break;
        }
        k += 1;
        rising *= x + k;
        b /= w;
        k += 1;
    }
    return s;
}

/* psi^(n)(x) = (-1)^(n+1) n! zeta(n + 1, x) for n >= 2 (n >= 0 is the caller's check). */
MT_SF_FN double
mt_sf_polygamma(int64_t n, double x)
{
    if (n == 0) {
        return mt_sf_digamma(x);
    }
    if (n == 1) {
        return mt_sf_trigamma(x);
    }
    const double nd = (double)n;
    return ((n & 1) ? 1.0 : -1.0) * tgamma(nd + 1) * mt_sf_zeta(nd + 1, x);
}

/* lgamma(1 + a) for |a| < 0.2 without the rounding of 1 + a:
 * -gamma a + sum_k (-1)^k zeta(k) a^k / k. */
MT_SF_FN double
mt__sf_lgamma1p_small(double a)
{
    static const double c[25] = {
        8.2246703342411322e-1,  -4.0068563438653143e-1, 2.7058080842778455e-1,  -2.0738555102867399e-1,
        1.6955717699740819e-1,  -1.4404989676884612e-1, 1.2550966952474304e-1,  -1.1133426586956469e-1,
        1.0009945751278181e-1,  -9.0954017145829042e-2, 8.3353840546109004e-2,  -7.6932516411352191e-2,
        7.1432946295361336e-2,  -6.6668705882420468e-2, 6.2500955141213041e-2,  -5.8823978658684582e-2,
        5.5555767627403611e-2,  -5.2631679379616661e-2, 5.0000047698101694e-2,  -4.7619070330142228e-2,
        4.5454556293204669e-2,  -4.3478266053040259e-2, 4.166666915034121e-2,   -4.0000001192140141e-2,
        3.8461539034675186e-2};
    double s = 0;
    for (int k = 24; k >= 0; k--) {
        s = s * a + c[k];
    }
    return a * (a * s - MT_SF_EULER);
}

MT_SF_FN double
mt__sf_lgamma(double a)
{
#if defined(__CUDA_ARCH__)
    return lgamma(a); /* the device's has no global sign to race on */
#else
    int sign; /* (not lgamma: the global signgam is a data race between threads) */
    return lgamma_r(a, &sign);
#endif
}

/* log(1 + d) - d, accurate for small d too. */
MT_SF_FN double
mt__sf_log1pmx(double d)
{
    if (fabs(d) < 0.2) {
        double s = 0, p = d * d, sign = -1;
        for (int k = 2; k < 60; k++) {
            const double t = sign * p / k;
            s += t;
            if (fabs(t) <= 1e-17 * fabs(s)) {
                break;
            }
            p *= d;
            sign = -sign;
        }
        return s;
    }
    return log1p(d) - d;
}

/* lgamma(a) - ((a - 1/2) log a - a + log(2 pi) / 2) for a >= 10: Stirling's series. */
MT_SF_FN double
mt__sf_stirling_tail(double a)
{
    const double z = 1 / (a * a);
    return (8.3333333333333333e-2 +
            z * (-2.7777777777777778e-3 +
                 z * (7.9365079365079365e-4 +
                      z * (-5.9523809523809524e-4 +
                           z * (8.4175084175084175e-4 +
                                z * (-1.9175269175269175e-3 +
                                     z * (6.4102564102564103e-3 +
                                          z * (-2.9550653594771242e-2 +
                                               z * (1.7964437236883057e-1 + z * -1.3924322169059011))))))))) /
           a;
}

/* x^a e^-x / Gamma(a); near the peak (x ~ a) of large a through log(1 + d) - d, d = (x - a) / a,
 * so that a log x, x and lgamma(a) do not cancel. */
MT_SF_FN double
mt__sf_igam_prefactor(double a, double x)
{
    if (a >= 10 && fabs(x - a) <= 0.4 * a) {
        const double d = (x - a) / a;
        return exp(a * mt__sf_log1pmx(d) + 0.5 * log(a / (2 * MT_SF_PI)) - mt__sf_stirling_tail(a));
    }
    return exp(a * log(x) - x - mt__sf_lgamma(a));
}

/* Taylor coefficients at eta = 0 of Temme's c0(eta) and c1(eta) (see mt__sf_igam_temme). */
#define MT__SF_TEMME_C0                                                                           \
    {-0.33333333333333333, 0.083333333333333333, -0.014814814814814815, 0.0011574074074074074,   \
     0.0003527336860670194, -0.00017875514403292181, 3.9192631785224378e-5, -2.1854485106799922e-6, \
     -1.85406221071516e-6, 8.296711340953086e-7, -1.7665952736826079e-7, 6.7078535434014986e-9,   \
     1.0261809784240308e-8, -4.3820360184533532e-9}
#define MT__SF_TEMME_C1                                                                           \
    {-0.0018518518518518519, -0.0034722222222222222, 0.0026455026455026455, -0.00099022633744855967, \
     0.00020576131687242798, -4.0187757201646091e-7, -1.8098550334489978e-5, 7.6491609160811101e-6, \
     -1.6120900894563446e-6, 4.6471278028074343e-9, 1.378633446915721e-7, -5.752545603517705e-8}

/* P(a, x) and Q(a, x) for a > 1e6 by Temme's uniform expansion:
 *   Q = erfc(eta sqrt(a/2)) / 2 + e^(-a eta^2 / 2) / sqrt(2 pi a) (c0(eta) + c1(eta) / a),
 * eta = sign(x - a) sqrt(2 (x/a - 1 - log(x/a))); the next term is O(a^-2) of the second one.
 * The second term vanishes unless |eta| < 0.04 there, where the Taylor series of c0, c1 hold. */
MT_SF_FN void
mt__sf_igam_temme(double a, double x, double *p, double *q)
{
    static const double c0[14] = MT__SF_TEMME_C0;
    static const double c1[12] = MT__SF_TEMME_C1;
    const double d = (x - a) / a;
    const double eta = copysign(sqrt(-2 * mt__sf_log1pmx(d)), d);
    const double u = eta * sqrt(a / 2);
    double r = 0;
    if (a * eta * eta < 1500) {
        double s0 = 0, s1 = 0;
        for (int k = 13; k >= 0; k--) {
            s0 = s0 * eta + c0[k];
        }
        for (int k = 11; k >= 0; k--) {
            s1 = s1 * eta + c1[k];
        }
        r = exp(-0.5 * a * eta * eta) / sqrt(2 * MT_SF_PI * a) * (s0 + s1 / a);
    }
    *q = 0.5 * erfc(u) + r;
    *p = 0.5 * erfc(-u) - r;
}

/* The regularized incomplete gamma functions P(a, x) (lower) and Q(a, x) = 1 - P (upper),
 * each computed without cancellation: the power series of P for x below max(a, 1), the
 * continued fraction of Q above, and for a < 1/2, x <= 1 both from
 *   P = x^a / Gamma(a + 1) (1 + a S), S = sum_{n>=1} (-x)^n / (n! (a + n)),
 *   Q = -expm1(a log x - lgamma(1 + a)) - x^a / Gamma(a + 1) a S.
 * Domain and limits as torch (NaN for negative arguments; a = 0: P = 1 for x > 0; x = 0: P = 0;
 * a = inf: P = 0; x = inf: P = 1). */
MT_SF_FN void
mt_sf_igam(double a, double x, double *p, double *q)
{
    if (x < 0 || a < 0) {
        *p = *q = NAN;
        return;
    }
    if (a == 0) {
        *p = x > 0 ? 1.0 : NAN;
        *q = x > 0 ? 0.0 : NAN;
        return;
    }
    if (x == 0) {
        *p = 0;
        *q = 1;
        return;
    }
    if (isinf(a)) {
        *p = isinf(x) ? NAN : 0.0;
        *q = isinf(x) ? NAN : 1.0;
        return;
    }
    if (isinf(x)) {
        *p = 1;
        *q = 0;
        return;
    }
    if (isnan(a) || isnan(x)) {
        *p = *q = NAN;
        return;
    }
    if (a > 1e6) {
        mt__sf_igam_temme(a, x, p, q);
        return;
    }
    if (x <= 1 && a < 0.5) {
        double s = 0, t = 1;
        for (int n = 1; n < 200; n++) {
            t *= -x / n;
            const double term = t / (a + n);
            s += term;
            if (fabs(term) <= 1e-17 * fabs(s)) {
                break;
            }
        }
        const double lg1p = a < 0.2 ? mt__sf_lgamma1p_small(a) : mt__sf_lgamma(1 + a);
        const double u = a * log(x) - lg1p;
        const double xa = exp(u); /* x^a / Gamma(a + 1) */
        *p = xa * (1 + a * s);
        *q = -expm1(u) - xa * a * s;
        return;
    }
    if (x > 1 && x > a) {
        /* Q = x^a e^-x / Gamma(a) / (x + 1 - a - 1 (1 - a) / (x + 3 - a - 2 (2 - a) / ...)),
         * by Lentz's method */
        const double tiny = 1e-300;
        double b = x + 1 - a, c = 1 / tiny, d = 1 / b, h = d;
        for (int i = 1; i < 100000000; i++) {
            const double an = -i * (i - a);
            b += 2;
            d = an * d + b;
            if (fabs(d) < tiny) {
                d = tiny;
            }
            c = b + an / c;
            if (fabs(c) < tiny) {
                c = tiny;
            }
            d = 1 / d;
            const double del = d * c;
            h *= del;
            if (fabs(del - 1) <= MT_SF_EPS) {
                break;
            }
        }
        *q = mt__sf_igam_prefactor(a, x) * h;
        *p = 1 - *q;
        return;
    }
    /* P = x^a e^-x / Gamma(a + 1) sum_k x^k / ((a + 1) ... (a + k)) */
    double t = 1, s = 1;
    for (int k = 1; k < 100000000; k++) {
        t *= x / (a + k);
        s += t;
        if (t <= s * MT_SF_EPS) {
            break;
        }
    }
    *p = mt__sf_igam_prefactor(a, x) / a * s;
    *q = 1 - *p;
}

MT_SF_FN double
mt_sf_igamma(double a, double x)
{
    double p, q;
    mt_sf_igam(a, x, &p, &q);
    return p;
}

MT_SF_FN double
mt_sf_igammac(double a, double x)
{
    double p, q;
    mt_sf_igam(a, x, &p, &q);
    return q;
}

/* ---- error function family --------------------------------------------------------------- */

/* exp(x^2) with the rounding error of x^2 compensated (x^2 = h + l exactly). */
MT_SF_FN double
mt__sf_exp_x2(double x)
{
    const double h = x * x, l = fma(x, x, -h);
    return exp(h) * (1 + l);
}

/* erfcx(x) = exp(x^2) erfc(x): the product below 12, the asymptotic series
 * 1 / (x sqrt(pi)) sum_k (-1)^k (2k-1)!! / (2x^2)^k above; 2 exp(x^2) - erfcx(-x) for x < 0. */
MT_SF_FN double
mt_sf_erfcx(double x)
{
    if (isnan(x)) {
        return x;
    }
    if (x < 0) {
        if (x < -26.7) {
            return INFINITY;
        }
        return 2 * mt__sf_exp_x2(x) - mt_sf_erfcx(-x);
    }
    if (x < 12) {
        return mt__sf_exp_x2(x) * erfc(x);
    }
    const double z = 0.5 / x / x;
    double t = 1, s = 1;
    for (int k = 1; k < 40; k++) {
        t *= -(2 * k - 1) * z;
        s += t;
        if (fabs(t) < 1e-17) {
            break;
        }
    }
    return s * MT_SF_INV_SQRTPI / x;
}

/* The standard normal distribution function. */
MT_SF_FN double
mt_sf_ndtr(double x)
{
    return 0.5 * erfc(-x * MT_SF_SQRT1_2);
}

/* log(ndtr(x)): through erfcx in the lower tail, log1p in the upper. */
MT_SF_FN double
mt_sf_log_ndtr(double x)
{
    if (x < -1) {
        return log(mt_sf_erfcx(-x * MT_SF_SQRT1_2) / 2) - x * x / 2;
    }
    return log1p(-erfc(x * MT_SF_SQRT1_2) / 2);
}

/* The start of erfinv's Newton steps (op_math.h). */
MT_SF_FN double
mt__sf_erfinv_guess(double y, double w)
{
    return mt_math_erfinv_guess(y, w);
}

/* The inverse of ndtr.  A first guess: sqrt(2) erfinv(2p - 1) by Giles' approximation, with
 * w = -log(4 p (1 - p)) taken from p itself (so the tails keep their precision), or below
 * p = 1e-7 (w > 16) Abramowitz and Stegun 26.2.23 (error < 4.5e-4).  Then Newton steps: on
 * erf(x / sqrt 2) = 2p - 1 for p in [1/4, 3/4] (2p - 1 is exact there), on
 * erfc(-x / sqrt 2) / 2 = q in the tails, q = min(p, 1 - p) (exact for p >= 1/2), and, where
 * q is near the underflow, on log ndtr(x) = log q.  Two steps from Giles' guess, three from
 * the other, as Newton's method doubles the digits (one step fewer when the result is to be
 * rounded to float: `single`). */
MT_SF_FN double
mt__sf_ndtri(double p, int single)
{
    if (!(p > 0 && p < 1)) {
        return p == 0 ? -INFINITY : (p == 1 ? INFINITY : NAN);
    }
    if (p == 0.5) {
        return 0;
    }
    const double q = p < 0.5 ? p : 1 - p; /* the lower tail's probability, x <= 0 */
    const double w = -log(4 * q * (1 - q));
    double x;
    int steps;
    if (w <= 16) {
        x = -fabs(mt__sf_erfinv_guess(2 * q - 1, w)) * 1.4142135623730951;
        steps = single ? 1 : 2;
    }
    else {
        const double t = sqrt(-2 * log(q));
        x = -(t - (2.515517 + t * (0.802853 + t * 0.010328)) /
                      (1 + t * (1.432788 + t * (0.189269 + t * 0.001308))));
        steps = single ? 2 : 3;
    }
    if (q >= 0.25) {
        const double d = 2 * q - 1;
        for (int i = 0; i < steps; i++) {
            x -= (erf(x * MT_SF_SQRT1_2) - d) * MT_SF_SQRT_PI_2 * exp(0.5 * x * x);
        }
    }
    else if (q > 1e-280) {
        for (int i = 0; i < steps; i++) {
            /* (ndtr(x) - q) / phi(x) */
            x -= (0.5 * erfc(-x * MT_SF_SQRT1_2) - q) * MT_SF_SQRT2PI * exp(0.5 * x * x);
        }
    }
    else {
        const double lq = log(q);
        for (int i = 0; i < 8; i++) {
            const double dx = (mt_sf_log_ndtr(x) - lq) * MT_SF_SQRT_PI_2 * mt_sf_erfcx(-x * MT_SF_SQRT1_2);
            x -= dx;
            if (fabs(dx) <= 1e-17 * fabs(x)) {
                break;
            }
        }
    }
    return p < 0.5 ? x : -x;
}

MT_SF_FN double
mt_sf_ndtri(double p)
{
    return mt__sf_ndtri(p, 0);
}

MT_SF_FN float
mt_sf_ndtrif(float p)
{
    return (float)mt__sf_ndtri(p, 1);
}

/* -x log x; 0 at 0, -inf for x < 0. */
MT_SF_FN double
mt_sf_entr(double x)
{
    if (x > 0) {
        return -x * log(x);
    }
    return x == 0 ? 0.0 : (x < 0 ? -INFINITY : x);
}

/* x log1p(y), 0 where x is 0 (unless y is NaN). */
MT_SF_FN double
mt_sf_xlog1py(double x, double y)
{
    if (isnan(y)) {
        return NAN;
    }
    return x == 0 ? 0.0 : x * log1p(y);
}

/* ---- Bessel functions -------------------------------------------------------------------- */

/* sum_k (x^2/4)^k / (k! (k + nu)!): I_nu(x) = (x/2)^nu times it (nu = 0, 1). */
MT_SF_FN double
mt__sf_iseries(double x, int nu)
{
    const double q = 0.25 * x * x;
    double t = 1, s = 1;
    for (int k = 1; k < 200; k++) {
        t *= q / ((double)k * (k + nu));
        s += t;
        if (t <= s * 1e-17) {
            break;
        }
    }
    return s;
}

/* The asymptotic sums of I_nu (sign -1) and K_nu (sign +1), mu = 4 nu^2:
 * sum_k (sign)^k prod_{j<=k} (mu - (2j-1)^2) / (k! (8x)^k), stopped at its smallest term. */
MT_SF_FN double
mt__sf_bessel_asym(double mu, double x, double sign)
{
    double t = 1, s = 1;
    for (int k = 1; k < 100; k++) {
        const double u = sign * t * (mu - (2.0 * k - 1) * (2.0 * k - 1)) / (8.0 * k * x);
        if (fabs(u) >= fabs(t)) {
            break;
        }
        t = u;
        s += t;
        if (fabs(t) <= 1e-17 * fabs(s)) {
            break;
        }
    }
    return s;
}

/* I_0(x) e^(-|x|) when scaled, else I_0(x): the series up to |x| = 20, the asymptotic sum above
 * (overflowing with e^|x| as torch's; NaN at +-inf as torch's). */
MT_SF_FN double
mt__sf_i0(double x, int scaled)
{
    const double a = fabs(x);
    if (isnan(x)) {
        return x;
    }
    if (a <= 20) {
        const double s = mt__sf_iseries(a, 0);
        return scaled ? s * exp(-a) : s;
    }
    if (isinf(a)) {
        return scaled ? 0.0 : NAN; /* torch's I_0(+-inf) */
    }
    const double s = mt__sf_bessel_asym(0, a, -1) / sqrt(2 * MT_SF_PI * a);
    return scaled ? s : exp(a) * s;
}

/* I_1(x) (odd), or I_1(x) e^(-|x|). */
MT_SF_FN double
mt__sf_i1(double x, int scaled)
{
    const double a = fabs(x);
    double r;
    if (isnan(x)) {
        return x;
    }
    if (a <= 20) {
        r = 0.5 * a * mt__sf_iseries(a, 1);
        if (scaled) {
            r *= exp(-a);
        }
    }
    else if (isinf(a)) {
        r = scaled ? 0.0 : NAN; /* torch's I_1(+-inf) */
    }
    else {
        r = mt__sf_bessel_asym(4, a, -1) / sqrt(2 * MT_SF_PI * a);
        if (!scaled) {
            r *= exp(a);
        }
    }
    return copysign(r, x);
}

MT_SF_FN double mt_sf_i0(double x) { return mt__sf_i0(x, 0); }
MT_SF_FN double mt_sf_i0e(double x) { return mt__sf_i0(x, 1); }
MT_SF_FN double mt_sf_i1(double x) { return mt__sf_i1(x, 0); }
MT_SF_FN double mt_sf_i1e(double x) { return mt__sf_i1(x, 1); }

/* e^x K_mu(x) and e^x K_(mu+1)(x) for |mu| <= 1/2 and x >= 1 by Temme's continued fraction
 * (Steed's algorithm): about 90 terms at x = 2, fewer above. */
MT_SF_FN void
mt__sf_k_cf2(double mu, double x, double *kmu, double *kmu1)
{
    const double a1 = 0.25 - mu * mu;
    double b = 2 * (1 + x), d = 1 / b, h = d, delh = d;
    double q1 = 0, q2 = 1, q = a1, c = a1, a = -a1, s = 1 + q * delh;
    for (int i = 1; i < 10000; i++) {
        a -= 2 * i;
        c = -a * c / (i + 1.0);
        const double qnew = (q1 - b * q2) / a;
        q1 = q2;
        q2 = qnew;
        q += c * qnew;
        b += 2;
        d = 1 / (b + a * d);
        delh = (b * d - 1) * delh;
        h += delh;
        const double dels = q * delh;
        s += dels;
        if (fabs(dels / s) < 1e-17) {
            break;
        }
    }
    h *= a1;
    *kmu = sqrt(MT_SF_PI / (2 * x)) / s;
    *kmu1 = *kmu * (mu + x + 0.5 - h) / x;
}

/* K_0(x) (times e^x when scaled): the series
 *   K_0 = -(log(x/2) + gamma) I_0(x) + sum_{k>=1} H_k (x^2/4)^k / (k!)^2
 * up to x = 2, the continued fraction above; NaN below 0, inf at 0. */
MT_SF_FN double
mt__sf_k0(double x, int scaled)
{
    if (!(x > 0)) {
        return x == 0 ? INFINITY : NAN;
    }
    if (isinf(x)) {
        return 0;
    }
    if (x <= 2) {
        const double q = 0.25 * x * x;
        double t = 1, hk = 0, s = 0;
        for (int k = 1; k < 100; k++) {
            t *= q / ((double)k * k);
            hk += 1.0 / k;
            s += t * hk;
            if (t * hk <= s * 1e-17) {
                break;
            }
        }
        const double r = -(log(0.5 * x) + MT_SF_EULER) * mt__sf_iseries(x, 0) + s;
        return scaled ? r * exp(x) : r;
    }
    double k0, k1;
    mt__sf_k_cf2(0, x, &k0, &k1);
    return scaled ? k0 : k0 * exp(-x);
}

/* K_1(x) (times e^x when scaled): the series
 *   K_1 = 1/x + log(x/2) I_1(x) - x/4 sum_{k>=0} (psi(k+1) + psi(k+2)) (x^2/4)^k / (k! (k+1)!)
 * up to x = 2, the continued fraction above. */
MT_SF_FN double
mt__sf_k1(double x, int scaled)
{
    if (!(x > 0)) {
        return x == 0 ? INFINITY : NAN;
    }
    if (isinf(x)) {
        return 0;
    }
    if (x <= 2) {
        const double q = 0.25 * x * x;
        double t = 1, psi1 = -MT_SF_EULER, psi2 = 1 - MT_SF_EULER, s = 0;
        for (int k = 0; k < 100; k++) {
            const double term = t * (psi1 + psi2);
            s += term;
            t *= q / ((double)(k + 1) * (k + 2));
            psi1 += 1.0 / (k + 1);
            psi2 += 1.0 / (k + 2);
            if (fabs(term) <= fabs(s) * 1e-17 && k > 0) {
                break;
            }
        }
        const double r = 1 / x + log(0.5 * x) * 0.5 * x * mt__sf_iseries(x, 1) - 0.25 * x * s;
        return scaled ? r * exp(x) : r;
    }
    double k0, k1;
    mt__sf_k_cf2(0, x, &k0, &k1);
    return scaled ? k1 : k1 * exp(-x);
}

/* Note [K_nu from a Chebyshev table]
 * Temme's continued fraction (mt__sf_k_cf2) takes 90 to 25 steps for 2 <= x <= 18, where the
 * modified Bessel functions of the second kind spend most of their time.  There they use
 * instead a Chebyshev expansion of f_nu(t) = e^x sqrt(x) K_nu(x), t = 1/x (smooth: it tends
 * to sqrt(pi / 2)): 20 terms, about 1e-15 relative.  The coefficients are exact values
 * (tools/gen_special_constants.py). */
#define MT__SF_K_LO 2.0
#define MT__SF_K_HI 18.0
#define MT__SF_K_CHEB                                                                             \
    {{2.4326776480215921, -2.7273800335093466e-2, 1.16632403427803e-3, -8.0801610574755241e-5,     \
      7.3515875590057878e-6, -8.0221198622725062e-7, 9.9953226219460489e-8,                       \
      -1.3796859884987753e-8, 2.0676610416090875e-9, -3.3166323181757194e-10,                     \
      5.634519430438324e-11, -1.0056839826032662e-11, 1.8739926910495106e-12,                     \
      -3.6272354648548175e-13, 7.2625310002148325e-14, -1.4990419116098324e-14,                   \
      3.1805104333590721e-15, -6.918500860521122e-16, 1.5358342075534711e-16,                     \
      -3.3108632020535021e-17},                                                                   \
     {2.7448625741323794, 9.115734529200899e-2, -2.1463541553248893e-3, 1.2405213951625396e-4,     \
      -1.0308528050111456e-5, 1.0644812854705e-6, -1.2775458844363078e-7, 1.7160021633013751e-8,  \
      -2.5186496928290581e-9, 3.973914755439517e-10, -6.6610570208998322e-11,                     \
      1.1756902254958276e-11, -2.1701404762312852e-12, 4.1664164504786534e-13,                    \
      -8.2832623929463895e-14, 1.6991249526206409e-14, -3.5851864513852532e-15,                   \
      7.760425030857517e-16, -1.7151636345939391e-16, 3.6839419945970872e-17}}

/* K_nu(x) (nu = 0, 1), times e^x when scaled: the table on [2, 18], else mt__sf_k0 / k1. */
MT_SF_FN double
mt__sf_k(int nu, int scaled, double x)
{
    static const double cheb[2][20] = MT__SF_K_CHEB;
    if (!(x >= MT__SF_K_LO && x <= MT__SF_K_HI)) {
        return nu ? mt__sf_k1(x, scaled) : mt__sf_k0(x, scaled);
    }
    const double ta = 1 / MT__SF_K_HI, tb = 1 / MT__SF_K_LO;
    const double u = (2 / x - (ta + tb)) / (tb - ta);
    const double *c = cheb[nu];
    double b1 = 0, b2 = 0;
    for (int k = 19; k > 0; k--) {
        const double t = 2 * u * b1 - b2 + c[k];
        b2 = b1;
        b1 = t;
    }
    const double f = (u * b1 - b2 + 0.5 * c[0]) / sqrt(x);
    return scaled ? f : f * exp(-x);
}

MT_SF_FN double mt_sf_k0(double x) { return mt__sf_k(0, 0, x); }
MT_SF_FN double mt_sf_k0e(double x) { return mt__sf_k(0, 1, x); }
MT_SF_FN double mt_sf_k1(double x) { return mt__sf_k(1, 0, x); }
MT_SF_FN double mt_sf_k1e(double x) { return mt__sf_k(1, 1, x); }

/* Bessel functions of the first and second kind of order 0 and 1: the C library's (POSIX j0, j1,
 * y0, y1: accurate near their zeros too), with torch's values off the domain (Y: NaN below 0,
 * -inf at 0) and at the infinities (NaN). */
MT_SF_FN double
mt_sf_bessel_j0(double x)
{
    return isinf(x) ? NAN : j0(x);
}

MT_SF_FN double
mt_sf_bessel_j1(double x)
{
    return isinf(x) ? NAN : j1(x);
}

MT_SF_FN double
mt_sf_bessel_y0(double x)
{
    if (!(x > 0) || isinf(x)) {
        return x == 0 ? -INFINITY : NAN;
    }
    return y0(x);
}

MT_SF_FN double
mt_sf_bessel_y1(double x)
{
    if (!(x > 0) || isinf(x)) {
        return x == 0 ? -INFINITY : NAN;
    }
    return y1(x);
}

/* sin(x) / x, 1 at 0, 0 at +-inf. */
MT_SF_FN double
mt_sf_spherical_bessel_j0(double x)
{
    if (isinf(x)) {
        return 0;
    }
    return x == 0 ? 1.0 : sin(x) / x;
}

/* Ai(x) and Ai'(x) at x = -10, -9.5, ..., 2.5 */
#define MT__SF_AIRY_GRID                                                          \
    {{4.0241238486443191e-2, 9.9626504413279006e-1},                              \
     {3.191032477191282e-1, -1.0809531881187124e-1},                              \
     {-2.2133721547341404e-2, -9.7566398092633159e-1},                            \
     {-3.3029023763020888e-1, -3.2313348284639136e-2},                            \
     {-5.2705050356386203e-2, 9.3556093819830655e-1},                             \
     {3.2177571638064788e-1, 3.188095066985546e-1},                               \
     {1.8428083525050564e-1, -7.7100816841012655e-1},                             \
     {-2.380203019971158e-1, -6.7495249251320217e-1},                             \
     {-3.2914517362982311e-1, 3.4593548728134289e-1},                             \
     {1.7781541276574976e-2, 8.6419721777139839e-1},                              \
     {3.5076100902411432e-1, 3.2719281855444314e-1},                              \
     {2.9215278105595947e-1, -5.233625323157477e-1},                              \
     {-7.0265532949289515e-2, -7.9062857536858138e-1},                            \
     {-3.7553382314043191e-1, -3.4344343345404815e-1},                            \
     {-3.7881429367765807e-1, 3.1458376921659881e-1},                             \
     {-1.1232506769296609e-1, 6.7885273426479436e-1},                             \
     {2.2740742820168558e-1, 6.1825902074169104e-1},                              \
     {4.6425657774886941e-1, 3.0918696720241042e-1},                              \
     {5.3556088329235212e-1, -1.0160567116645209e-2},                             \
     {4.7572809161053959e-1, -2.0408167033954739e-1},                             \
     {3.5502805388781724e-1, -2.588194037928068e-1},                              \
     {2.3169360648083349e-1, -2.2491053266468389e-1},                             \
     {1.3529241631288142e-1, -1.5914744129679321e-1},                             \
     {7.174949700810541e-2, -9.7382012842301319e-2},                              \
     {3.4924130423274379e-2, -5.3090384433653632e-2},                             \
     {1.572592338047049e-2, -2.625088103590323e-2}}

/* The Airy function Ai: above 2.75 through K_(1/3) (Ai(x) = sqrt(x/3) K_(1/3)(zeta) / pi,
 * zeta = 2/3 x^(3/2)); from -10.25 to 2.75 the Taylor series of y'' = x y about the nearest
 * grid point (|h| <= 1/4); below -10.25 the asymptotic expansion (NaN at +-inf, as torch)
 *   Ai(-z) = (cos(zeta - pi/4) sum (-1)^k u_2k zeta^-2k + sin(zeta - pi/4) sum (-1)^k
 *   u_2k+1 zeta^-(2k+1)) / (sqrt(pi) z^(1/4)). */
MT_SF_FN double
mt_sf_airy_ai(double x)
{
    static const double grid[26][2] = MT__SF_AIRY_GRID;
    if (!isfinite(x)) {
        return NAN; /* torch's value at +-inf */
    }
    if (x >= 2.75) {
        const double zeta = 2.0 / 3.0 * x * sqrt(x);
        if (zeta > 750) {
            return 0;
        }
        double k, k1;
        mt__sf_k_cf2(1.0 / 3.0, zeta, &k, &k1);
        return sqrt(x / 3) / MT_SF_PI * k * exp(-zeta);
    }
    if (x < -10.25) {
        const double z = -x, zeta = 2.0 / 3.0 * z * sqrt(z);
        if (isinf(zeta)) {
            return NAN; /* the phase is lost (torch's value) */
        }
        /* u_k = u_(k-1) (6k-5)(6k-3)(6k-1) / ((2k-1) 216 k) */
        double u = 1, pw = 1, even = 1, odd = 0, sign_e = 1, sign_o = 1;
        for (int k = 1; k < 60; k++) {
            u *= (6.0 * k - 5) * (6.0 * k - 3) * (6.0 * k - 1) / ((2.0 * k - 1) * 216 * k);
            pw /= zeta;
            const double t = u * pw;
            if (k & 1) {
                odd += sign_o * t;
                sign_o = -sign_o;
            }
            else {
                sign_e = -sign_e;
                even += sign_e * t;
            }
            if (t < 1e-17) {
                break;
            }
        }
        const double s = sin(zeta), c = cos(zeta);
        /* cos(zeta - pi/4) = (c + s) / sqrt 2, sin(zeta - pi/4) = (s - c) / sqrt 2 */
        return ((c + s) * even + (s - c) * odd) * MT_SF_SQRT1_2 * MT_SF_INV_SQRTPI / sqrt(sqrt(z));
    }
    const int j = (int)nearbyint((x + 10) * 2);
    const double x0 = -10 + 0.5 * j, h = x - x0;
    const double scale = fabs(grid[j][0]) + fabs(grid[j][1] * h);
    /* y = sum c_n h^n, c_(n+2) = (x0 c_n + c_(n-1)) / ((n + 2)(n + 1)) */
    double cm1 = 0, c0 = grid[j][0], c1 = grid[j][1], hp = h, sum = c0 + c1 * h;
    int small = 0;
    for (int n = 0; n < 60; n++) {
        const double c2 = (x0 * c0 + cm1) / ((n + 2.0) * (n + 1.0));
        hp *= h;
        const double t = c2 * hp;
        sum += t;
        small = fabs(t) < 1e-18 * scale ? small + 1 : 0;
        if (small == 3) {
            break;
        }
        cm1 = c0;
        c0 = c1;
        c1 = c2;
    }
    return sum;
}

/* ---- orthogonal polynomials (degree n: torch takes the integer part, and NaN, infinite or
 * negative degrees give 0) ------------------------------------------------------------------ */

/* The degree of a polynomial given as a floating value: truncated; INT64_MIN (a degree the
 * polynomials take as 0) for NaN and values outside int64's range. */
MT_SF_FN int64_t
mt_sf_poly_degree(double n)
{
    if (!(n > -9.2233720368547758e18 && n < 9.2233720368547758e18)) {
        return INT64_MIN;
    }
    return (int64_t)n;
}

/* Degrees from which the Chebyshev polynomials of |x| > 1 come from their closed forms instead
 * of the recurrence (whose overflow they reproduce: NaN once the values are infinite). */
#define MT__SF_CHEB_CLOSED (1 << 20)

/* The polynomials compute in the element's precision (T: double for float64, float for float32,
 * as torch's kernels do, so that both overflow alike), with suffix SFX on the names and math
 * functions.
 *
 * mt_sf_chebyshev[f](kind, x, n, trig): kind 0..3 is T, U, V, W.  The recurrence
 * p_(k+1) = 2x p_k - p_(k-1) from each kind's first two, the values at +-1 exactly, and for
 * |x| < 1 and degrees above `trig` (torch: 6 for T and the shifted kinds, 8 for U, V, W) the
 * trigonometric forms T_n(cos t) = cos(nt), U_n = sin((n+1)t) / sin t,
 * V_n = cos((n+1/2)t) / cos(t/2), W_n = sin((n+1/2)t) / sin(t/2).
 * mt_sf_hermite[f]: physicists' H (probabilists == 0) or probabilists' He:
 * H_(k+1) = 2x H_k - 2k H_(k-1), He_(k+1) = x He_k - k He_(k-1).
 * mt_sf_laguerre[f]: L_(k+1) = ((2k + 1 - x) L_k - k L_(k-1)) / (k + 1); 1 at 0.
 * mt_sf_legendre[f]: P_(k+1) = ((2k + 1) x P_k - k P_(k-1)) / (k + 1); +-1 exactly at +-1.
 * Every recurrence stops once its value is NaN (it stays NaN). */
#define MT__SF_POLYNOMIALS(T, SFX)                                                                 \
    MT_SF_FN T mt_sf_chebyshev##SFX(int kind, T x, int64_t n, int64_t trig)                        \
    {                                                                                              \
        if (n < 0) {                                                                               \
            return 0;                                                                              \
        }                                                                                          \
        const T nn = (T)n, odd = (n & 1) ? (T)-1 : (T)1;                                           \
        if (fabs##SFX(x) == 1) {                                                                   \
            switch (kind) {                                                                        \
            case 0:                                                                                \
                return x > 0 ? (T)1 : odd;                                                         \
            case 1:                                                                                \
                return x > 0 ? nn + 1 : odd * (nn + 1);                                            \
            case 2:                                                                                \
                return x > 0 ? (T)1 : odd * (2 * nn + 1);                                          \
            default:                                                                               \
                return x > 0 ? 2 * nn + 1 : odd;                                                   \
            }                                                                                      \
        }                                                                                          \
        if (n > trig && fabs##SFX(x) < 1) {                                                        \
            const T t = acos##SFX(x);                                                              \
            switch (kind) {                                                                        \
            case 0:                                                                                \
                return cos##SFX(nn * t);                                                           \
            case 1: {                                                                              \
                const T st = sin##SFX(t);                                                          \
                return st != 0 ? sin##SFX((nn + 1) * t) / st : (nn + 1) * cos##SFX((nn + 1) * t) / x; \
            }                                                                                      \
            case 2:                                                                                \
                return cos##SFX((nn + (T)0.5) * t) / cos##SFX(t / 2);                              \
            default:                                                                               \
                return sin##SFX((nn + (T)0.5) * t) / sin##SFX(t / 2);                              \
            }                                                                                      \
        }                                                                                          \
        if (n > MT__SF_CHEB_CLOSED && fabs##SFX(x) > 1 && isfinite(x)) {                           \
            /* x = +-cosh(t); V and W swap under x -> -x */                                        \
            const T t = acosh##SFX(fabs##SFX(x));                                                  \
            const int k = x < 0 && kind >= 2 ? 5 - kind : kind;                                    \
            T v;                                                                                   \
            switch (k) {                                                                           \
            case 0:                                                                                \
                v = cosh##SFX(nn * t);                                                             \
                break;                                                                             \
            case 1:                                                                                \
                v = sinh##SFX((nn + 1) * t) / sinh##SFX(t);                                        \
                break;                                                                             \
            case 2:                                                                                \
                v = cosh##SFX((nn + (T)0.5) * t) / cosh##SFX(t / 2);                               \
                break;                                                                             \
            default:                                                                               \
                v = sinh##SFX((nn + (T)0.5) * t) / sinh##SFX(t / 2);                               \
                break;                                                                             \
            }                                                                                      \
            return isinf(v) ? (T)NAN : (x < 0 ? odd * v : v);                                      \
        }                                                                                          \
        if (n == 0) {                                                                              \
            return 1;                                                                              \
        }                                                                                          \
        T q = 1, p = kind == 0 ? x : (kind == 1 ? 2 * x : (kind == 2 ? 2 * x - 1 : 2 * x + 1));    \
        for (int64_t k = 1; k < n && !isnan(p); k++) {                                             \
            const T r = 2 * x * p - q;                                                             \
            q = p;                                                                                 \
            p = r;                                                                                 \
        }                                                                                          \
        return p;                                                                                  \
    }                                                                                              \
    MT_SF_FN T mt_sf_hermite##SFX(int probabilists, T x, int64_t n)                                \
    {                                                                                              \
        if (n < 0) {                                                                               \
            return 0;                                                                              \
        }                                                                                          \
        if (n == 0) {                                                                              \
            return 1;                                                                              \
        }                                                                                          \
        const T m = probabilists ? (T)1 : (T)2;                                                    \
        T q = 1, p = m * x;                                                                        \
        for (int64_t k = 1; k < n && !isnan(p); k++) {                                             \
            const T r = m * x * p - m * (T)k * q;                                                  \
            q = p;                                                                                 \
            p = r;                                                                                 \
        }                                                                                          \
        return p;                                                                                  \
    }                                                                                              \
    MT_SF_FN T mt_sf_laguerre##SFX(T x, int64_t n)                                                 \
    {                                                                                              \
        if (n < 0) {                                                                               \
            return 0;                                                                              \
        }                                                                                          \
        if (x == 0 || n == 0) {                                                                    \
            return 1;                                                                              \
        }                                                                                          \
        T q = 1, p = 1 - x;                                                                        \
        for (int64_t k = 1; k < n && !isnan(p); k++) {                                             \
            const T kk = (T)k;                                                                     \
            const T r = ((2 * kk + 1 - x) * p - kk * q) / (kk + 1);                                \
            q = p;                                                                                 \
            p = r;                                                                                 \
        }                                                                                          \
        return p;                                                                                  \
    }                                                                                              \
    MT_SF_FN T mt_sf_legendre##SFX(T x, int64_t n)                                                 \
    {                                                                                              \
        if (n < 0) {                                                                               \
            return 0;                                                                              \
        }                                                                                          \
        if (fabs##SFX(x) == 1) {                                                                   \
            return (x > 0 || (n & 1) == 0) ? (T)1 : (T)-1;                                         \
        }                                                                                          \
        if (n == 0) {                                                                              \
            return 1;                                                                              \
        }                                                                                          \
        T q = 1, p = x;                                                                            \
        for (int64_t k = 1; k < n && !isnan(p); k++) {                                             \
            const T kk = (T)k;                                                                     \
            const T r = ((2 * kk + 1) * x * p - kk * q) / (kk + 1);                                \
            q = p;                                                                                 \
            p = r;                                                                                 \
        }                                                                                          \
        return p;                                                                                  \
    }
MT__SF_POLYNOMIALS(double, )
MT__SF_POLYNOMIALS(float, f)

/* ---- integer functions ------------------------------------------------------------------- */

/* An integer wrapped to a `bits`-wide signed type (64: as it is). */
MT_SF_FN int64_t
mt__sf_wrap(uint64_t v, int bits)
{
    if (bits >= 64) {
        return (int64_t)v;
    }
    const uint64_t m = (1ull << bits) - 1, sign = 1ull << (bits - 1);
    v &= m;
    return (v & sign) ? (int64_t)(v | ~m) : (int64_t)v;
}

/* gcd(|a|, |b|) by Euclid's algorithm, |.| wrapping in the element type as torch's does (the
 * gcd involving the most negative value of a type is negative). */
MT_SF_FN int64_t
mt_sf_gcd(int64_t a, int64_t b, int bits)
{
    int64_t x = mt__sf_wrap(a < 0 ? 0 - (uint64_t)a : (uint64_t)a, bits);
    int64_t y = mt__sf_wrap(b < 0 ? 0 - (uint64_t)b : (uint64_t)b, bits);
    while (x != 0) {
        const int64_t c = x;
        x = x == -1 ? 0 : y % x;
        y = c;
    }
    return y;
}

/* |a / gcd(a, b) * b| with the wrap-around of a `bits`-wide integer type (narrower types compute
 * in int, as C promotes them); 0 when both are 0. */
MT_SF_FN int64_t
mt_sf_lcm(int64_t a, int64_t b, int bits)
{
    const int64_t g = mt_sf_gcd(a, b, 64);
    if (g == 0) {
        return 0;
    }
    const uint64_t prod = (uint64_t)(a / g) * (uint64_t)b;
    if (bits < 32) {
        const int64_t v = (int64_t)prod;
        return v < 0 ? -v : v;
    }
    if (bits == 32) {
        const int32_t v = (int32_t)(uint32_t)prod;
        return v < 0 ? (int32_t)(0u - (uint32_t)v) : v;
    }
    const int64_t v = (int64_t)prod;
    return v < 0 ? (int64_t)(0 - (uint64_t)v) : v;
}

/* ---- floating-point representation ------------------------------------------------------ */

/* frexp: the mantissa in [0.5, 1) (x itself for 0, inf, NaN) and the exponent as int32; a half
 * or bfloat16 value is exactly a float, whose frexp is the same */
MT_SF_FN float
mt_sf_frexp_mantissaf(float a)
{
    int e;
    return frexpf(a, &e);
}

MT_SF_FN double
mt_sf_frexp_mantissa(double a)
{
    int e;
    return frexp(a, &e);
}

MT_SF_FN int32_t
mt_sf_frexp_exponentf(float a)
{
    int e = 0;
    (void)frexpf(a, &e);
    return isfinite(a) ? e : 0;
}

MT_SF_FN int32_t
mt_sf_frexp_exponent(double a)
{
    int e = 0;
    (void)frexp(a, &e);
    return isfinite(a) ? e : 0;
}

/* nextafter of float16 / bfloat16: one step of the 16-bit pattern towards b (a float's step
 * would round back to a).  Sign-magnitude patterns step away from 0 by +1, towards it by -1;
 * from +-0 to the smallest subnormal of b's sign. */
MT_SF_FN uint16_t
mt_sf_nextafter16(uint16_t ua, uint16_t ub, float a, float b)
{
    if (a != a || b != b) {
        return (uint16_t)(a != a ? ua : ub) | 0x0040; /* a quiet NaN */
    }
    if (a == b) {
        return ub;
    }
    if (a == 0) {
        return (uint16_t)((ub & 0x8000) | 1);
    }
    const bool away = (a < b) == (a > 0);
    return (uint16_t)(away ? ua + 1 : ua - 1);
}

#endif /* ATEN_LITE_SPECIAL_MATH_H */
