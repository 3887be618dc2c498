/* aten_lite/complex_math.h - the complex elementary functions on (re, im) pairs, for every device. */
#ifndef ATEN_LITE_COMPLEX_MATH_H
#define ATEN_LITE_COMPLEX_MATH_H

#include <math.h>

#include "c10_lite/dtype.h" /* MT_HOST_DEVICE */

/* Note [Complex math]
 * The complex elementary functions (exp, log, sqrt, pow, the trigonometric and hyperbolic
 * functions and their inverses) written once on plain (re, im) structs of float (mt_cmf, suffix
 * f) or double (mt_cmd, no suffix) with the real math library only, so that code without C99's
 * <complex.h> (the CUDA kernels, cuda/elementwise_complex.cu) has them; MT_HOST_DEVICE marks
 * them for both sides (Note [Op math]).  The cpu loops keep the C library's cexp, clog, ... (the
 * functions torch's cpu kernels call too).  The methods:
 *   exp: e^x (cos y, sin y), e^x taken as (e^(x/2))^2 where it alone would overflow;
 *   log: (log |z|, arg z), log |z| as log1p(|z|^2 - 1) / 2 near the unit circle;
 *   sqrt: Kahan's: sqrt((|x| + |z|) / 2) and y / (2 that), scaled against overflow;
 *   tanh: Kahan's formula through tan y and sinh x (no overflow of cosh); tan z = -i tanh(iz);
 *   asin, acos, acosh: Kahan's formulas in real functions of sqrt(1 +- z) (or sqrt(z +- 1)),
 *   accurate near the branch points too ("Branch cuts for complex elementary functions", 1987);
 *   asinh z = -i asin(iz);
 *   atanh (odd: taken for Re z >= 0): Re = log1p(4x / ((1 - x)^2 + y^2)) / 4,
 *   Im = atan2(2y, (1 - x)(1 + x) - y^2) / 2, 1/z far out; atan z = -i atanh(iz).
 * Branch cuts, signed zeros, infinities and NaNs follow C99's Annex G (as the C library's, which
 * the tests compare against), except the signs of some zeros that come out of a complex
 * division (Smith's algorithm here, the C library's scaled formula there). */

typedef struct mt_cmf {
    float re, im;
} mt_cmf;
typedef struct mt_cmd {
    double re, im;
} mt_cmd;

/* the largest x with e^x finite, and |z| above which z^2 overflows (far-out formulas) */
#define MT__CM_EXP_MAXf 88.72f
#define MT__CM_EXP_MAX 709.78
#define MT__CM_BIGf 1e18f
#define MT__CM_BIG 1e150

#define MT__CM_FNS(C, T, SFX)                                                                      \
    MT_HOST_DEVICE static inline C mt_cm_make##SFX(T re, T im)                                     \
    {                                                                                              \
        C r;                                                                                       \
        r.re = re;                                                                                 \
        r.im = im;                                                                                 \
        return r;                                                                                  \
    }                                                                                              \
    MT_HOST_DEVICE static inline C mt_cm_mul##SFX(C a, C b)                                        \
    {                                                                                              \
        return mt_cm_make##SFX(a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re);              \
    }                                                                                              \
    /* Smith's division, scaled by the larger part of the divisor */                               \
    MT_HOST_DEVICE static inline C mt_cm_div##SFX(C a, C b)                                        \
    {                                                                                              \
        if (fabs##SFX(b.re) >= fabs##SFX(b.im)) {                                                  \
            if (b.re == 0 && b.im == 0) {                                                          \
                return mt_cm_make##SFX(a.re / fabs##SFX(b.re), a.im / fabs##SFX(b.im));            \
            }                                                                                      \
            const T r = b.im / b.re, d = b.re + b.im * r;                                          \
            return mt_cm_make##SFX((a.re + a.im * r) / d, (a.im - a.re * r) / d);                  \
        }                                                                                          \
        const T r = b.re / b.im, d = b.re * r + b.im;                                              \
        return mt_cm_make##SFX((a.re * r + a.im) / d, (a.im * r - a.re) / d);                      \
    }                                                                                              \
    /* multiplication by i and by -i */                                                            \
    MT_HOST_DEVICE static inline C mt_cm_muli##SFX(C z)                                            \
    {                                                                                              \
        return mt_cm_make##SFX(-z.im, z.re);                                                       \
    }                                                                                              \
    MT_HOST_DEVICE static inline C mt_cm_mulmi##SFX(C z)                                           \
    {                                                                                              \
        return mt_cm_make##SFX(z.im, -z.re);                                                       \
    }                                                                                              \
    MT_HOST_DEVICE static inline C mt_cm_exp##SFX(C z)                                             \
    {                                                                                              \
        const T x = z.re, y = z.im;                                                                \
        if (y == 0) {                                                                              \
            return mt_cm_make##SFX(exp##SFX(x), y); /* also for x NaN or infinite */               \
        }                                                                                          \
        if (isinf(x)) {                                                                            \
            if (x < 0) {                                                                           \
                if (!isfinite(y)) {                                                                \
                    return mt_cm_make##SFX(0, copysign##SFX((T)0, y));                                \
                }                                                                                  \
                return mt_cm_make##SFX(0 * cos##SFX(y), 0 * sin##SFX(y));                          \
            }                                                                                      \
            if (!isfinite(y)) {                                                                    \
                return mt_cm_make##SFX(x, y - y); /* inf + i NaN */                                \
            }                                                                                      \
        }                                                                                          \
        const T c = cos##SFX(y), s = sin##SFX(y);                                                  \
        if (x > MT__CM_EXP_MAX##SFX && x < 2 * MT__CM_EXP_MAX##SFX) {                              \
            const T h = exp##SFX(x / 2);                                                           \
            return mt_cm_make##SFX(h * c * h, h * s * h);                                          \
        }                                                                                          \
        const T e = exp##SFX(x);                                                                   \
        return mt_cm_make##SFX(e * c, e * s);                                                      \
    }                                                                                              \
    /* e^z - 1 without the cancellation near 0: Re = expm1(x) cos y - 2 sin^2(y / 2) */            \
    MT_HOST_DEVICE static inline C mt_cm_expm1##SFX(C z)                                           \
    {                                                                                              \
        const T x = z.re, y = z.im, s = sin##SFX(y / 2);                                           \
        return mt_cm_make##SFX(expm1##SFX(x) * cos##SFX(y) - 2 * s * s, exp##SFX(x) * sin##SFX(y)); \
    }                                                                                              \
    MT_HOST_DEVICE static inline C mt_cm_log##SFX(C z)                                             \
    {                                                                                              \
        const T ax = fabs##SFX(z.re), ay = fabs##SFX(z.im);                                        \
        const T h = hypot##SFX(z.re, z.im);                                                        \
        T re;                                                                                      \
        if (h > (T)0.7 && h < (T)1.4) {                                                            \
            const T big = ax > ay ? ax : ay, small = ax > ay ? ay : ax;                            \
            re = log1p##SFX((big - 1) * (big + 1) + small * small) / 2;                            \
        }                                                                                          \
        else {                                                                                     \
            re = log##SFX(h);                                                                      \
        }                                                                                          \
        return mt_cm_make##SFX(re, atan2##SFX(z.im, z.re));                                        \
    }                                                                                              \
    /* log(1 + z): log1p(x(2 + x) + y^2) / 2 near 0 */                                             \
    MT_HOST_DEVICE static inline C mt_cm_log1p##SFX(C z)                                           \
    {                                                                                              \
        const T x = z.re, y = z.im;                                                                \
        if (hypot##SFX(x, y) >= (T)0.5) {                                                          \
            return mt_cm_log##SFX(mt_cm_make##SFX(1 + x, y));                                      \
        }                                                                                          \
        return mt_cm_make##SFX(log1p##SFX(x * (2 + x) + y * y) / 2, atan2##SFX(y, 1 + x));        \
    }                                                                                              \
    MT_HOST_DEVICE static inline C mt_cm_sqrt##SFX(C z)                                            \
    {                                                                                              \
        const T x = z.re, y = z.im;                                                                \
        if (x == 0 && y == 0) {                                                                    \
            return mt_cm_make##SFX(0, y);                                                          \
        }                                                                                          \
        if (isinf(y)) {                                                                            \
            return mt_cm_make##SFX((T)INFINITY, y);                                                \
        }                                                                                          \
        if (isnan(x)) {                                                                            \
            return mt_cm_make##SFX(x, y - y + x);                                                  \
        }                                                                                          \
        if (isinf(x)) {                                                                            \
            if (x > 0) {                                                                           \
                return mt_cm_make##SFX(x, isnan(y) ? y : copysign##SFX((T)0, y));                     \
            }                                                                                      \
            return mt_cm_make##SFX(isnan(y) ? y : 0, copysign##SFX((T)INFINITY, y));               \
        }                                                                                          \
        if (isnan(y)) {                                                                            \
            return mt_cm_make##SFX(y, y);                                                          \
        }                                                                                          \
        /* scaled by 1/4 where |x| + |z| could overflow (sqrt brings back 1/2) */                  \
        const int big = fabs##SFX(x) > MT__CM_BIG##SFX || fabs##SFX(y) > MT__CM_BIG##SFX;          \
        const T sx = big ? x / 4 : x, sy = big ? y / 4 : y;                                        \
        T t = sqrt##SFX((fabs##SFX(sx) + hypot##SFX(sx, sy)) / 2);                                 \
        if (big) {                                                                                 \
            t *= 2;                                                                                \
        }                                                                                          \
        if (x >= 0) {                                                                              \
            return mt_cm_make##SFX(t, y / (2 * t));                                                \
        }                                                                                          \
        return mt_cm_make##SFX(fabs##SFX(y) / (2 * t), copysign##SFX(t, y));                       \
    }                                                                                              \
    MT_HOST_DEVICE static inline C mt_cm_sinh##SFX(C z)                                            \
    {                                                                                              \
        const T x = z.re, y = z.im;                                                                \
        if (y == 0) {                                                                              \
            return mt_cm_make##SFX(sinh##SFX(x), y);                                               \
        }                                                                                          \
        if (!isfinite(y) && (x == 0 || isinf(x))) {                                                \
            return mt_cm_make##SFX(x, y - y); /* +-0 or +-inf, and NaN */                          \
        }                                                                                          \
        return mt_cm_make##SFX(sinh##SFX(x) * cos##SFX(y), cosh##SFX(x) * sin##SFX(y));            \
    }                                                                                              \
    MT_HOST_DEVICE static inline C mt_cm_cosh##SFX(C z)                                            \
    {                                                                                              \
        const T x = z.re, y = z.im;                                                                \
        if (y == 0) {                                                                              \
            return mt_cm_make##SFX(cosh##SFX(x), copysign##SFX((T)0, x) * y);                         \
        }                                                                                          \
        if (!isfinite(y) && (x == 0 || isinf(x))) {                                                \
            /* NaN +- i0, +inf + i NaN */                                                          \
            return mt_cm_make##SFX(x == 0 ? y - y : (T)INFINITY, x == 0 ? x : y - y);              \
        }                                                                                          \
        return mt_cm_make##SFX(cosh##SFX(x) * cos##SFX(y), sinh##SFX(x) * sin##SFX(y));            \
    }                                                                                              \
    /* sin z = -i sinh(iz), cos z = cosh(iz) */                                                    \
    MT_HOST_DEVICE static inline C mt_cm_sin##SFX(C z)                                             \
    {                                                                                              \
        return mt_cm_mulmi##SFX(mt_cm_sinh##SFX(mt_cm_muli##SFX(z)));                              \
    }                                                                                              \
    MT_HOST_DEVICE static inline C mt_cm_cos##SFX(C z)                                             \
    {                                                                                              \
        return mt_cm_cosh##SFX(mt_cm_muli##SFX(z));                                                \
    }                                                                                              \
    MT_HOST_DEVICE static inline C mt_cm_tanh##SFX(C z)                                            \
    {                                                                                              \
        const T x = z.re, y = z.im;                                                                \
        if (isinf(x)) {                                                                            \
            const T im = copysign##SFX((T)0, isfinite(y) ? sin##SFX(y) * cos##SFX(y) : y);            \
            return mt_cm_make##SFX(copysign##SFX((T)1, x), im);                                       \
        }                                                                                          \
        if (y == 0) {                                                                              \
            return mt_cm_make##SFX(tanh##SFX(x), y);                                               \
        }                                                                                          \
        if (!isfinite(y)) {                                                                        \
            return mt_cm_make##SFX(x == 0 ? x : y - y, y - y);                                     \
        }                                                                                          \
        if (fabs##SFX(x) > (T)22) {                                                                \
            /* 1 - 2 / (e^2|x| + 1) is 1; Im = 4 sin y cos y e^-2|x| */                            \
            const T e = exp##SFX(-2 * fabs##SFX(x));                                               \
            return mt_cm_make##SFX(copysign##SFX((T)1, x), 4 * sin##SFX(y) * cos##SFX(y) * e);        \
        }                                                                                          \
        const T t = tan##SFX(y), b = 1 + t * t, s = sinh##SFX(x), r = sqrt##SFX(1 + s * s);        \
        const T d = 1 + b * s * s;                                                                 \
        return mt_cm_make##SFX(b * r * s / d, t / d);                                              \
    }                                                                                              \
    /* tan z = -i tanh(iz) */                                                                      \
    MT_HOST_DEVICE static inline C mt_cm_tan##SFX(C z)                                             \
    {                                                                                              \
        return mt_cm_mulmi##SFX(mt_cm_tanh##SFX(mt_cm_muli##SFX(z)));                              \
    }                                                                                              \
    /* Kahan's asin and acos (finite z): with s1 = sqrt(1 - z), s2 = sqrt(1 + z),              \
     * asin z = (atan2(x, Re(s1 s2)), asinh(Im(conj(s1) s2))),                                   \
     * acos z = (2 atan2(Re s1, Re s2), asinh(Im(conj(s2) s1))) */                               \
    MT_HOST_DEVICE static inline C mt__cm_asin_finite##SFX(C z)                                    \
    {                                                                                              \
        const C s1 = mt_cm_sqrt##SFX(mt_cm_make##SFX(1 - z.re, -z.im));                           \
        const C s2 = mt_cm_sqrt##SFX(mt_cm_make##SFX(1 + z.re, z.im));                             \
        return mt_cm_make##SFX(atan2##SFX(z.re, s1.re * s2.re - s1.im * s2.im),                    \
                               asinh##SFX(s1.re * s2.im - s1.im * s2.re));                         \
    }                                                                                              \
    /* asinh z = -i asin(iz); off the finite plane Annex G's values (odd, conj-symmetric) */      \
    MT_HOST_DEVICE static inline C mt_cm_asinh##SFX(C z)                                           \
    {                                                                                              \
        const T x = z.re, y = z.im;                                                                \
        if (isfinite(x) && isfinite(y)) {                                                          \
            return mt_cm_mulmi##SFX(mt__cm_asin_finite##SFX(mt_cm_muli##SFX(z)));                  \
        }                                                                                          \
        const T ax = fabs##SFX(x), ay = fabs##SFX(y), nan = (T)NAN;                                \
        T re, im;                                                                                  \
        if (isinf(ay)) {                                                                           \
            re = (T)INFINITY;                                                                      \
            im = isnan(ax) ? nan : (isinf(ax) ? (T)0.78539816339744830962 : (T)1.57079632679489661923); \
        }                                                                                          \
        else if (isinf(ax)) {                                                                      \
            re = (T)INFINITY;                                                                      \
            im = isnan(ay) ? nan : 0;                                                              \
        }                                                                                          \
        else {                                                                                     \
            re = nan;                                                                              \
            im = isnan(ax) && ay == 0 ? 0 : nan;                                                   \
        }                                                                                          \
        return mt_cm_make##SFX(isnan(re) ? re : copysign##SFX(re, x), isnan(im) ? im : copysign##SFX(im, y)); \
    }                                                                                              \
    MT_HOST_DEVICE static inline C mt_cm_asin##SFX(C z)                                            \
    {                                                                                              \
        if (isfinite(z.re) && isfinite(z.im)) {                                                    \
            return mt__cm_asin_finite##SFX(z);                                                     \
        }                                                                                          \
        return mt_cm_mulmi##SFX(mt_cm_asinh##SFX(mt_cm_muli##SFX(z)));                             \
    }                                                                                              \
    MT_HOST_DEVICE static inline C mt_cm_acos##SFX(C z)                                            \
    {                                                                                              \
        const T x = z.re, y = z.im, pi = (T)3.14159265358979323846;                                \
        if (isfinite(x) && isfinite(y)) {                                                          \
            const C s1 = mt_cm_sqrt##SFX(mt_cm_make##SFX(1 - x, -y));                              \
            const C s2 = mt_cm_sqrt##SFX(mt_cm_make##SFX(1 + x, y));                               \
            return mt_cm_make##SFX(2 * atan2##SFX(s1.re, s2.re),                                   \
                                   asinh##SFX(s2.re * s1.im - s2.im * s1.re));                     \
        }                                                                                          \
        /* Annex G's values for y >= +0 (the lower half-plane is the conjugate) */                 \
        const T nan = (T)NAN, inf = (T)INFINITY;                                                   \
        T re, im;                                                                                  \
        if (isinf(y)) {                                                                            \
            re = isnan(x) ? nan : (isinf(x) ? (x < 0 ? 3 * pi / 4 : pi / 4) : pi / 2);             \
            im = -inf;                                                                             \
        }                                                                                          \
        else if (isinf(x)) {                                                                       \
            re = isnan(y) ? nan : (x < 0 ? pi : 0);                                                \
            im = -inf;                                                                             \
        }                                                                                          \
        else {                                                                                     \
            re = x == 0 ? pi / 2 : nan;                                                            \
            im = nan;                                                                              \
        }                                                                                          \
        return mt_cm_make##SFX(re, !isnan(y) && signbit(y) ? -im : im);                             \
    }                                                                                              \
    /* Kahan's acosh (finite z): (asinh(Re(conj(sqrt(z - 1)) sqrt(z + 1))),                       \
     * 2 atan2(Im sqrt(z - 1), Re sqrt(z + 1))) */                                                 \
    MT_HOST_DEVICE static inline C mt_cm_acosh##SFX(C z)                                           \
    {                                                                                              \
        const T x = z.re, y = z.im, pi = (T)3.14159265358979323846;                                \
        if (isfinite(x) && isfinite(y)) {                                                          \
            const C a = mt_cm_sqrt##SFX(mt_cm_make##SFX(x - 1, y));                                \
            const C b = mt_cm_sqrt##SFX(mt_cm_make##SFX(x + 1, y));                                \
            return mt_cm_make##SFX(asinh##SFX(a.re * b.re + a.im * b.im), 2 * atan2##SFX(a.im, b.re)); \
        }                                                                                          \
        /* Annex G's values for y >= +0 (the lower half-plane is the conjugate) */                 \
        const T nan = (T)NAN, inf = (T)INFINITY;                                                   \
        T re, im;                                                                                  \
        if (isinf(y)) {                                                                            \
            re = inf;                                                                              \
            im = isnan(x) ? nan : (isinf(x) ? (x < 0 ? 3 * pi / 4 : pi / 4) : pi / 2);             \
        }                                                                                          \
        else if (isinf(x)) {                                                                       \
            re = inf;                                                                              \
            im = isnan(y) ? nan : (x < 0 ? pi : 0);                                                \
        }                                                                                          \
        else {                                                                                     \
            re = nan;                                                                              \
            im = x == 0 ? pi / 2 : nan;                                                            \
        }                                                                                          \
        return mt_cm_make##SFX(re, isnan(im) || isnan(y) ? im : copysign##SFX(im, y));             \
    }                                                                                              \
    /* atanh (finite z, odd: for Re z >= +0) */                                                    \
    MT_HOST_DEVICE static inline C mt__cm_atanh_right##SFX(T x, T y)                               \
    {                                                                                              \
        if (x > MT__CM_BIG##SFX || fabs##SFX(y) > MT__CM_BIG##SFX) {                               \
            /* 1/z + i pi/2 sign(y) */                                                             \
            const T h = hypot##SFX(x, y);                                                          \
            const T re = isinf(h) ? 0 : (x / h) / h;                                               \
            return mt_cm_make##SFX(re, copysign##SFX((T)1.57079632679489661923, y));               \
        }                                                                                          \
        const T ym = 1 - x;                                                                        \
        const T re = log1p##SFX(4 * x / (ym * ym + y * y)) / 4;                                    \
        const T im = atan2##SFX(2 * y, ym * (1 + x) - y * y) / 2;                                  \
        return mt_cm_make##SFX(re, im);                                                            \
    }                                                                                              \
    MT_HOST_DEVICE static inline C mt_cm_atanh##SFX(C z)                                           \
    {                                                                                              \
        const T x = z.re, y = z.im;                                                                \
        if (isfinite(x) && isfinite(y)) {                                                          \
            if (signbit(x)) {                                                                      \
                const C r = mt__cm_atanh_right##SFX(-x, -y);                                       \
                return mt_cm_make##SFX(-r.re, -r.im);                                              \
            }                                                                                      \
            return mt__cm_atanh_right##SFX(x, y);                                                  \
        }                                                                                          \
        /* Annex G's values (odd, conj-symmetric) */                                               \
        const T ax = fabs##SFX(x), ay = fabs##SFX(y), nan = (T)NAN;                                \
        T re, im;                                                                                  \
        if (isinf(ay) || (isinf(ax) && !isnan(ay))) {                                              \
            re = 0;                                                                                \
            im = (T)1.57079632679489661923;                                                        \
        }                                                                                          \
        else if (isinf(ax) || ax == 0) { /* y NaN */                                               \
            re = 0;                                                                                \
            im = nan;                                                                              \
        }                                                                                          \
        else {                                                                                     \
            re = im = nan;                                                                         \
        }                                                                                          \
        return mt_cm_make##SFX(isnan(re) ? re : copysign##SFX(re, x), isnan(im) ? im : copysign##SFX(im, y)); \
    }                                                                                              \
    /* atan z = -i atanh(iz) */                                                                    \
    MT_HOST_DEVICE static inline C mt_cm_atan##SFX(C z)                                            \
    {                                                                                              \
        return mt_cm_mulmi##SFX(mt_cm_atanh##SFX(mt_cm_muli##SFX(z)));                             \
    }                                                                                              \
    /* a ** b with torch's special cases (mt_math_cpow in op_math.h): anything to the 0 is 1, 0 \
     * to a positive real power is 0, squares multiply out; else e^(b log a) */                    \
    MT_HOST_DEVICE static inline C mt_cm_pow##SFX(C a, C b)                                        \
    {                                                                                              \
        if (b.re == 0 && b.im == 0) {                                                              \
            return mt_cm_make##SFX(1, 0);                                                          \
        }                                                                                          \
        if (b.re == 2 && b.im == 0) {                                                              \
            return mt_cm_mul##SFX(a, a);                                                           \
        }                                                                                          \
        if (a.re == 0 && a.im == 0 && b.im == 0 && b.re > 0) {                                     \
            return mt_cm_make##SFX(0, 0);                                                          \
        }                                                                                          \
        return mt_cm_exp##SFX(mt_cm_mul##SFX(b, mt_cm_log##SFX(a)));                               \
    }
MT__CM_FNS(mt_cmf, float, f)
MT__CM_FNS(mt_cmd, double, )
#undef MT__CM_FNS

#endif /* ATEN_LITE_COMPLEX_MATH_H */
