/* aten_lite/cpu/unary.c - CPU loops of the unary elementwise ops. */
#include <complex.h>
#include <math.h>
#include <string.h>

#include "aten_lite/cpu/expf.h"
#include "aten_lite/cpu/loops.h"
#include "aten_lite/op_math.h"

/* the float or double function of op_math.h for the acc type of a */
#define MT__MATH(fn, a) _Generic((a), float: fn##f, default: fn)(a)

/* mt__expf_core: Note [Vectorisable expf] (aten_lite/cpu/expf.h) */


/* e^x - 1 for float32, branch-free: below 0.5 in magnitude its Taylor polynomial to x^9 (no
 * cancellation near 0; truncation < 3e-10), above mt__expf_core(x) - 1; within a few ulp of
 * expm1f; the loop redoes the lanes outside [-87, 88] with libm as exp's does. */
static inline float
mt__expm1f_core(float x)
{
    float p = 1.0f / 362880.0f;
    p = p * x + 1.0f / 40320.0f;
    p = p * x + 1.0f / 5040.0f;
    p = p * x + 1.0f / 720.0f;
    p = p * x + 1.0f / 120.0f;
    p = p * x + 1.0f / 24.0f;
    p = p * x + 1.0f / 6.0f;
    p = p * x + 0.5f;
    p = (p * x) * x + x;
    float e = mt__expf_core(x) - 1.0f;
    float y = fabsf(x) < 0.5f ? p : e;
    return x != x ? x : y;
}

/* A float32 loop over CORE (vectorised) whose rare lanes (RARE(x), branch-free: for exp, those
 * outside [-87, 88]) are redone with LIBFN (Note [Vectorisable expf]). */
#define MT__EXPLIKE_LOOP(name, CORE, LIBFN, RARE)                                           \
    MT_WIDE_CLONES static void name(char **data, const int64_t *np, const int64_t *st,      \
                                    void *ctx)                                              \
    {                                                                                       \
        (void)ctx;                                                                          \
        const int64_t n = np[0];                                                            \
        if (st[0] != (int64_t)sizeof(float) || st[1] != (int64_t)sizeof(float)) {          \
            for (int64_t i = 0; i < n; i++) {                                               \
                *(float *)(data[0] + i * st[0]) = LIBFN(*(const float *)(data[1] + i * st[1])); \
            }                                                                               \
            return;                                                                         \
        }                                                                                   \
        float *out = (float *)data[0];                                                      \
        const float *in = (const float *)data[1];                                           \
        float saved[256]; /* inputs of the block, when computing in place */                \
        for (int64_t b = 0; b < n; b += 256) {                                              \
            int64_t m = n - b < 256 ? n - b : 256;                                          \
            float *o = out + b;                                                             \
            const float *x = in + b;                                                        \
            if ((const float *)o == x) {                                                    \
                memcpy(saved, x, (size_t)m * sizeof(float));                                \
                x = saved;                                                                  \
            }                                                                               \
            int tiny = 0;                                                                   \
            for (int64_t i = 0; i < m; i++) {                                               \
                tiny |= RARE(x[i]);                                                         \
                o[i] = CORE(x[i]);                                                          \
            }                                                                               \
            for (int64_t i = 0; tiny && i < m; i++) {                                       \
                if (RARE(x[i])) {                                                           \
                    o[i] = LIBFN(x[i]);                                                     \
                }                                                                           \
            }                                                                               \
        }                                                                                   \
    }
/* Note [Vectorisable logf]
 * libm's logf and log1pf are calls the loops cannot vectorise.  mt__logf_core is branch-free
 * for positive normal finite x (Cephes' logf: x = m 2^e with m in [sqrt(1/2), sqrt(2)) from
 * the bits, a degree-9 polynomial in m - 1, e ln2 added in two parts; < 2 ulp); the loops redo
 * every other lane (zero, negative, subnormal, inf, NaN) with libm.  log1p(x) is
 * log(u) * x / (u - 1) with u = 1 + x rounded (u - 1 is exact, and the quotient corrects the
 * rounding of u: Goldberg's identity), x itself where u rounds to 1; lanes below -0.5 or above
 * 1e30 go to libm. */
static inline float
mt__logf_core(float x)
{
    uint32_t bits;
    memcpy(&bits, &x, sizeof(bits));
    float e = (float)((int32_t)(bits >> 23) - 126);
    bits = (bits & 0x007fffffu) | 0x3f000000u; /* m in [0.5, 1) */
    float m;
    memcpy(&m, &bits, sizeof(m));
    int small = m < 0.707106781186547524f;
    e = small ? e - 1.0f : e;
    m = small ? m + m - 1.0f : m - 1.0f;
    float z = m * m;
    float y = 7.0376836292e-2f;
    y = y * m - 1.1514610310e-1f;
    y = y * m + 1.1676998740e-1f;
    y = y * m - 1.2420140846e-1f;
    y = y * m + 1.4249322787e-1f;
    y = y * m - 1.6668057665e-1f;
    y = y * m + 2.0000714765e-1f;
    y = y * m - 2.4999993993e-1f;
    y = y * m + 3.3333331174e-1f;
    y = y * m * z;
    y += -2.12194440e-4f * e;
    y += -0.5f * z;
    return (m + y) + 0.693359375f * e;
}

static inline float
mt__log1pf_core(float x)
{
    float u = 1.0f + x;
    float d = u - 1.0f;
    float r = mt__logf_core(u) * (x / (d == 0.0f ? 1.0f : d));
    return d == 0.0f ? x : r;
}

#define MT__EXP_RARE(x) (((x) < MT__EXPF_SUBNORMAL) | ((x) > MT__EXPF_LARGE))
#define MT__LOG_RARE(x) (((x) < 1.17549435e-38f) | ((x) > 3.40282347e38f) | ((x) != (x)))
#define MT__LOG1P_RARE(x) (((x) < -0.5f) | ((x) > 1e30f) | ((x) != (x)))
MT__EXPLIKE_LOOP(mt__exp_float32_fast, mt__expf_core, expf, MT__EXP_RARE)
MT__EXPLIKE_LOOP(mt__expm1_float32_fast, mt__expm1f_core, expm1f, MT__EXP_RARE)
MT__EXPLIKE_LOOP(mt__log_float32_fast, mt__logf_core, logf, MT__LOG_RARE)
MT__EXPLIKE_LOOP(mt__log1p_float32_fast, mt__log1pf_core, log1pf, MT__LOG1P_RARE)

static inline float
mt__sigmoidf(float a)
{
    return 1.0f / (1.0f + mt__expf_core(-a));
}

/* Note [Vectorisable tanhf]
 * libm's tanhf is a call per element (ten times torch's SIMD tanh).  Branch-free instead, as
 * Cephes' tanhf: below 0.625 in magnitude the odd polynomial x + x z P(z), z = x^2 (no
 * cancellation near 0); above, 1 - 2 / (e^{2|x|} + 1) with mt__expf_core, its argument clamped
 * to 88 (where the quotient has long rounded to 0, so tanh is exactly +-1), the sign put back.
 * Both are computed and one is selected, so the loop vectorises; within 2 ulp of tanh.  NaN
 * passes through. */
static inline float
mt__tanhf(float x)
{
    float ax = fabsf(x);
    float z = x * x;
    float p = ((((-5.70498872745e-3f * z + 2.06390887954e-2f) * z - 5.37397155531e-2f) * z +
                1.33314422036e-1f) * z - 3.33332819422e-1f) * z * x + x;
    float t = ax + ax;
    float e = mt__expf_core(t > 88.0f ? 88.0f : t); /* (fminf is a call: no vectorising) */
    float q = 1.0f - 2.0f / (e + 1.0f);
    float y = copysignf(ax < 0.625f ? fabsf(p) : q, x); /* odd: -0 stays -0 */
    return x != x ? x : y;
}

#define MT__EXP(a) _Generic((a), float: expf, default: exp)(a)
#define MT__LIB(fn, a) _Generic((a), float: fn##f, default: fn)(a)


MT_L_NUMERIC(MT_GEN_UNARY_SAME, neg, -a)
MT_L_INT(MT_GEN_UNARY_SAME, abs, a < 0 ? -a : a)
MT_L_FLOAT(MT_GEN_UNARY_SAME, abs, MT__LIB(fabs, a))
MT_L_NUMERIC(MT_GEN_UNARY_SAME, sign, (a > 0) - (a < 0))
MT_L_BOOL(MT_GEN_UNARY_SAME, sign, a)
MT_L_FLOAT(MT_GEN_UNARY_SAME, exp, MT__EXP(a))
MT_L_FLOAT(MT_GEN_UNARY_SAME, expm1, MT__LIB(expm1, a))
MT_L_FLOAT(MT_GEN_UNARY_SAME, log, MT__LIB(log, a))
MT_L_FLOAT(MT_GEN_UNARY_SAME, log1p, MT__LIB(log1p, a))
MT_L_FLOAT(MT_GEN_UNARY_SAME, log2, MT__LIB(log2, a))
MT_L_FLOAT(MT_GEN_UNARY_SAME, log10, MT__LIB(log10, a))
MT_L_FLOAT(MT_GEN_UNARY_SAME, sqrt, MT__LIB(sqrt, a))
MT_L_FLOAT(MT_GEN_UNARY_SAME, rsqrt, 1 / MT__LIB(sqrt, a))
MT_L_FLOAT(MT_GEN_UNARY_SAME, sin, MT__LIB(sin, a))
MT_L_FLOAT(MT_GEN_UNARY_SAME, cos, MT__LIB(cos, a))
MT_L_FLOAT(MT_GEN_UNARY_SAME, tan, MT__LIB(tan, a))
/* (compute-bound: the wide clones too) */
#undef MT_SIMD_CLONES
#define MT_SIMD_CLONES MT_WIDE_CLONES
MT_L_FLOAT(MT_GEN_UNARY_SAME, tanh, _Generic((a), float: mt__tanhf, default: tanh)(a))
MT_L_FLOAT(MT_GEN_UNARY_SAME, sigmoid, _Generic((a), float: mt__sigmoidf, default: mt_math_sigmoid)(a))
#undef MT_SIMD_CLONES
#define MT_SIMD_CLONES MT_AVX2_CLONES
MT_L_NUMERIC(MT_GEN_UNARY_SAME, relu, (a != a || a > 0) ? a : 0)
MT_L_FLOAT(MT_GEN_UNARY_SAME, erf, MT__LIB(erf, a))
MT_L_FLOAT(MT_GEN_UNARY_SAME, floor, MT__LIB(floor, a))
MT_L_FLOAT(MT_GEN_UNARY_SAME, ceil, MT__LIB(ceil, a))
MT_L_FLOAT(MT_GEN_UNARY_SAME, round, MT__LIB(nearbyint, a))
MT_L_FLOAT(MT_GEN_UNARY_SAME, trunc, MT__LIB(trunc, a))
MT_L_FLOAT(MT_GEN_UNARY_SAME, reciprocal, 1 / a)
MT_L_NUMERIC(MT_GEN_UNARY_SAME, square, a * a)
MT_L_FLOAT(MT_GEN_UNARY_BOOL, isnan, a != a)
MT_L_FLOAT(MT_GEN_UNARY_BOOL, isinf, MT__LIB(fabs, a) == (__typeof__(a))INFINITY)
MT_L_FLOAT(MT_GEN_UNARY_BOOL, isfinite, a - a == 0)
MT_L_INT(MT_GEN_UNARY_SAME, bitwise_not, ~a)
MT_L_BOOL(MT_GEN_UNARY_SAME, bitwise_not, !a)
MT_L_ALL(MT_GEN_UNARY_BOOL, logical_not, a == 0)

MT_L_FLOAT(MT_GEN_UNARY_SAME, angle, MT__MATH(mt_math_angle, a))
MT_L_ALL(MT_GEN_UNARY_SAME, identity, a)

/* ---- inverse and hyperbolic trigonometry, special functions ---- */

/* lgamma_r: lgamma writes the global signgam, which threads would race on */
static inline double
mt__lgamma(double a)
{
    int sign;
    return lgamma_r(a, &sign);
}

static inline float
mt__lgammaf(float a)
{
    int sign;
    return lgammaf_r(a, &sign);
}


MT_L_FLOAT(MT_GEN_UNARY_SAME, asin, MT__LIB(asin, a))
MT_L_FLOAT(MT_GEN_UNARY_SAME, acos, MT__LIB(acos, a))
MT_L_FLOAT(MT_GEN_UNARY_SAME, atan, MT__LIB(atan, a))
MT_L_FLOAT(MT_GEN_UNARY_SAME, sinh, MT__LIB(sinh, a))
MT_L_FLOAT(MT_GEN_UNARY_SAME, cosh, MT__LIB(cosh, a))
MT_L_FLOAT(MT_GEN_UNARY_SAME, asinh, MT__LIB(asinh, a))
MT_L_FLOAT(MT_GEN_UNARY_SAME, acosh, MT__LIB(acosh, a))
MT_L_FLOAT(MT_GEN_UNARY_SAME, atanh, MT__LIB(atanh, a))
MT_L_FLOAT(MT_GEN_UNARY_SAME, exp2, MT__LIB(exp2, a))
MT_L_FLOAT(MT_GEN_UNARY_SAME, erfc, MT__LIB(erfc, a))
MT_L_FLOAT(MT_GEN_UNARY_SAME, erfinv, _Generic((a), float: mt_math_erfinvf, default: mt_math_erfinv)(a))
MT_L_FLOAT(MT_GEN_UNARY_SAME, lgamma, _Generic((a), float: mt__lgammaf, default: mt__lgamma)(a))
MT_L_FLOAT(MT_GEN_UNARY_SAME, deg2rad, a * (__typeof__(a))(M_PI / 180))
MT_L_FLOAT(MT_GEN_UNARY_SAME, rad2deg, a * (__typeof__(a))(180 / M_PI))
MT_L_FLOAT(MT_GEN_UNARY_SAME, sinc, MT__MATH(mt_math_sinc, a))
MT_L_FLOAT(MT_GEN_UNARY_SAME, frac, MT__MATH(mt_math_frac, a))
/* the sign bit (so -0.0 and -NaN count), through copysign, which vectorises */
MT_L_FLOAT(MT_GEN_UNARY_BOOL, signbit, _Generic((a), float: copysignf, default: copysign)(1, a) < 0)
MT_L_INT(MT_GEN_UNARY_BOOL, signbit, a < 0)
MT_L_BOOL(MT_GEN_UNARY_BOOL, signbit, (int)a < 0)

/* ---- complex (see Note [Complex dtypes]) ---- */
#define MT__CLIB(fn, a) _Generic((a), mt_complex64: fn##f, default: fn)(a)
#define MT__CREAL(a) _Generic((a), mt_complex64: crealf, default: creal)(a)
#define MT__CIMAG(a) _Generic((a), mt_complex64: cimagf, default: cimag)(a)
/* exp(z) - 1 and log(1 + z) without the cancellation of the plain formulas
 * near z = 0: Re(e^z - 1) = expm1(x) cos(y) - 2 sin^2(y / 2) */
#define MT__CPLX_HELPERS(C, R, SFX, MK)                                              \
    static inline C mt__cexpm1_##SFX(C z)                                          \
    {                                                                              \
        R x = creal##SFX(z), y = cimag##SFX(z), s = sin##SFX(y / 2);               \
        return MK(expm1##SFX(x) * cos##SFX(y) - 2 * s * s, exp##SFX(x) * sin##SFX(y)); \
    }                                                                              \
    static inline C mt__clog1p_##SFX(C z)                                          \
    {                                                                              \
        R x = creal##SFX(z), y = cimag##SFX(z);                                    \
        if (cabs##SFX(z) >= (R)0.5) {                                              \
            return clog##SFX(1 + z);                                               \
        }                                                                          \
        return MK(log1p##SFX(x * (2 + x) + y * y) / 2, atan2##SFX(y, 1 + x)); \
    }                                                                              \
    static inline C mt__csgn_##SFX(C z)                                            \
    {                                                                              \
        return z == 0 ? (C)0 : z / cabs##SFX(z);                                   \
    }
MT__CPLX_HELPERS(mt_complex64, float, f, CMPLXF)
MT__CPLX_HELPERS(mt_complex128, double, , CMPLX)
#define MT__CHELP(fn, a) _Generic((a), mt_complex64: fn##_f, default: fn##_)(a)

MT_L_COMPLEX(MT_GEN_UNARY_SAME, neg, -a)
MT_L_COMPLEX(MT_GEN_UNARY_REAL, abs, MT__CLIB(cabs, a))
MT_L_COMPLEX(MT_GEN_UNARY_REAL, angle, MT__CLIB(carg, a))
MT_L_COMPLEX(MT_GEN_UNARY_SAME, sgn, MT__CHELP(mt__csgn, a))
MT_L_COMPLEX(MT_GEN_UNARY_SAME, conj_physical, MT__CLIB(conj, a))
MT_L_COMPLEX(MT_GEN_UNARY_SAME, exp, MT__CLIB(cexp, a))
MT_L_COMPLEX(MT_GEN_UNARY_SAME, expm1, MT__CHELP(mt__cexpm1, a))
MT_L_COMPLEX(MT_GEN_UNARY_SAME, log, MT__CLIB(clog, a))
MT_L_COMPLEX(MT_GEN_UNARY_SAME, log1p, MT__CHELP(mt__clog1p, a))
MT_L_COMPLEX(MT_GEN_UNARY_SAME, log2, MT__CLIB(clog, a) / (__typeof__(MT__CREAL(a)))M_LN2)
MT_L_COMPLEX(MT_GEN_UNARY_SAME, log10, MT__CLIB(clog, a) / (__typeof__(MT__CREAL(a)))M_LN10)
MT_L_COMPLEX(MT_GEN_UNARY_SAME, sqrt, MT__CLIB(csqrt, a))
MT_L_COMPLEX(MT_GEN_UNARY_SAME, rsqrt, 1 / MT__CLIB(csqrt, a))
MT_L_COMPLEX(MT_GEN_UNARY_SAME, sin, MT__CLIB(csin, a))
MT_L_COMPLEX(MT_GEN_UNARY_SAME, cos, MT__CLIB(ccos, a))
MT_L_COMPLEX(MT_GEN_UNARY_SAME, tan, MT__CLIB(ctan, a))
MT_L_COMPLEX(MT_GEN_UNARY_SAME, tanh, MT__CLIB(ctanh, a))
MT_L_COMPLEX(MT_GEN_UNARY_SAME, asin, MT__CLIB(casin, a))
MT_L_COMPLEX(MT_GEN_UNARY_SAME, acos, MT__CLIB(cacos, a))
MT_L_COMPLEX(MT_GEN_UNARY_SAME, atan, MT__CLIB(catan, a))
MT_L_COMPLEX(MT_GEN_UNARY_SAME, sinh, MT__CLIB(csinh, a))
MT_L_COMPLEX(MT_GEN_UNARY_SAME, cosh, MT__CLIB(ccosh, a))
MT_L_COMPLEX(MT_GEN_UNARY_SAME, asinh, MT__CLIB(casinh, a))
MT_L_COMPLEX(MT_GEN_UNARY_SAME, acosh, MT__CLIB(cacosh, a))
MT_L_COMPLEX(MT_GEN_UNARY_SAME, atanh, MT__CLIB(catanh, a))
MT_L_COMPLEX(MT_GEN_UNARY_SAME, exp2, MT__CLIB(cexp, a * (__typeof__(a))M_LN2))
MT_L_COMPLEX(MT_GEN_UNARY_SAME, sinc, a == 0 ? (__typeof__(a))1 : MT__CLIB(csin, a * (__typeof__(a))M_PI) / (a * (__typeof__(a))M_PI))
MT_L_COMPLEX(MT_GEN_UNARY_SAME, sigmoid, 1 / (1 + MT__CLIB(cexp, -a)))
MT_L_COMPLEX(MT_GEN_UNARY_SAME, reciprocal, 1 / a)
MT_L_COMPLEX(MT_GEN_UNARY_SAME, square, a * a)
MT_L_COMPLEX(MT_GEN_UNARY_BOOL, isnan, MT__CREAL(a) != MT__CREAL(a) || MT__CIMAG(a) != MT__CIMAG(a))
MT_L_COMPLEX(MT_GEN_UNARY_BOOL, isinf, isinf(MT__CREAL(a)) || isinf(MT__CIMAG(a)))
MT_L_COMPLEX(MT_GEN_UNARY_BOOL, isfinite, isfinite(MT__CREAL(a)) && isfinite(MT__CIMAG(a)))
MT_L_COMPLEX(MT_GEN_UNARY_BOOL, logical_not, a == 0)

void
mt__cpu_unary_register(void)
{
    MT_L_NUMERIC(MT_GEN_REGISTER, neg, MT_OP_NEG)
    MT_L_NUMERIC(MT_GEN_REGISTER, abs, MT_OP_ABS)
    MT_L_ALL(MT_GEN_REGISTER, sign, MT_OP_SIGN)
    MT_L_FLOAT(MT_GEN_REGISTER, exp, MT_OP_EXP)
    mt_dispatch[MT_CPU][MT_OP_EXP][MT_FLOAT32] = mt__exp_float32_fast;
    MT_L_FLOAT(MT_GEN_REGISTER, expm1, MT_OP_EXPM1)
    mt_dispatch[MT_CPU][MT_OP_EXPM1][MT_FLOAT32] = mt__expm1_float32_fast;
    MT_L_FLOAT(MT_GEN_REGISTER, log, MT_OP_LOG)
    mt_dispatch[MT_CPU][MT_OP_LOG][MT_FLOAT32] = mt__log_float32_fast;
    MT_L_FLOAT(MT_GEN_REGISTER, log1p, MT_OP_LOG1P)
    mt_dispatch[MT_CPU][MT_OP_LOG1P][MT_FLOAT32] = mt__log1p_float32_fast;
    MT_L_FLOAT(MT_GEN_REGISTER, log2, MT_OP_LOG2)
    MT_L_FLOAT(MT_GEN_REGISTER, log10, MT_OP_LOG10)
    MT_L_FLOAT(MT_GEN_REGISTER, sqrt, MT_OP_SQRT)
    MT_L_FLOAT(MT_GEN_REGISTER, rsqrt, MT_OP_RSQRT)
    MT_L_FLOAT(MT_GEN_REGISTER, sin, MT_OP_SIN)
    MT_L_FLOAT(MT_GEN_REGISTER, cos, MT_OP_COS)
    MT_L_FLOAT(MT_GEN_REGISTER, tan, MT_OP_TAN)
    MT_L_FLOAT(MT_GEN_REGISTER, tanh, MT_OP_TANH)
    MT_L_FLOAT(MT_GEN_REGISTER, sigmoid, MT_OP_SIGMOID)
    MT_L_NUMERIC(MT_GEN_REGISTER, relu, MT_OP_RELU)
    MT_L_FLOAT(MT_GEN_REGISTER, erf, MT_OP_ERF)
    MT_L_FLOAT(MT_GEN_REGISTER, floor, MT_OP_FLOOR)
    MT_L_FLOAT(MT_GEN_REGISTER, ceil, MT_OP_CEIL)
    MT_L_FLOAT(MT_GEN_REGISTER, round, MT_OP_ROUND)
    MT_L_FLOAT(MT_GEN_REGISTER, trunc, MT_OP_TRUNC)
    MT_L_FLOAT(MT_GEN_REGISTER, reciprocal, MT_OP_RECIPROCAL)
    MT_L_NUMERIC(MT_GEN_REGISTER, square, MT_OP_SQUARE)
    MT_L_FLOAT(MT_GEN_REGISTER, isnan, MT_OP_ISNAN)
    MT_L_FLOAT(MT_GEN_REGISTER, isinf, MT_OP_ISINF)
    MT_L_FLOAT(MT_GEN_REGISTER, isfinite, MT_OP_ISFINITE)
    MT_L_INTBOOL(MT_GEN_REGISTER, bitwise_not, MT_OP_BITWISE_NOT)
    MT_L_ALL(MT_GEN_REGISTER, logical_not, MT_OP_LOGICAL_NOT)
    MT_L_ALL(MT_GEN_REGISTER, sign, MT_OP_SGN)
    MT_L_FLOAT(MT_GEN_REGISTER, angle, MT_OP_ANGLE)
    MT_L_ALL(MT_GEN_REGISTER, identity, MT_OP_CONJ_PHYSICAL)
    MT_L_COMPLEX(MT_GEN_REGISTER, neg, MT_OP_NEG)
    MT_L_COMPLEX(MT_GEN_REGISTER, abs, MT_OP_ABS)
    MT_L_COMPLEX(MT_GEN_REGISTER, angle, MT_OP_ANGLE)
    MT_L_COMPLEX(MT_GEN_REGISTER, sgn, MT_OP_SGN)
    MT_L_COMPLEX(MT_GEN_REGISTER, conj_physical, MT_OP_CONJ_PHYSICAL)
    MT_L_COMPLEX(MT_GEN_REGISTER, exp, MT_OP_EXP)
    MT_L_COMPLEX(MT_GEN_REGISTER, expm1, MT_OP_EXPM1)
    MT_L_COMPLEX(MT_GEN_REGISTER, log, MT_OP_LOG)
    MT_L_COMPLEX(MT_GEN_REGISTER, log1p, MT_OP_LOG1P)
    MT_L_COMPLEX(MT_GEN_REGISTER, log2, MT_OP_LOG2)
    MT_L_COMPLEX(MT_GEN_REGISTER, log10, MT_OP_LOG10)
    MT_L_COMPLEX(MT_GEN_REGISTER, sqrt, MT_OP_SQRT)
    MT_L_COMPLEX(MT_GEN_REGISTER, rsqrt, MT_OP_RSQRT)
    MT_L_COMPLEX(MT_GEN_REGISTER, sin, MT_OP_SIN)
    MT_L_COMPLEX(MT_GEN_REGISTER, cos, MT_OP_COS)
    MT_L_COMPLEX(MT_GEN_REGISTER, tan, MT_OP_TAN)
    MT_L_COMPLEX(MT_GEN_REGISTER, tanh, MT_OP_TANH)
    MT_L_FLOAT(MT_GEN_REGISTER, asin, MT_OP_ASIN)
    MT_L_FLOAT(MT_GEN_REGISTER, acos, MT_OP_ACOS)
    MT_L_FLOAT(MT_GEN_REGISTER, atan, MT_OP_ATAN)
    MT_L_FLOAT(MT_GEN_REGISTER, sinh, MT_OP_SINH)
    MT_L_FLOAT(MT_GEN_REGISTER, cosh, MT_OP_COSH)
    MT_L_FLOAT(MT_GEN_REGISTER, asinh, MT_OP_ASINH)
    MT_L_FLOAT(MT_GEN_REGISTER, acosh, MT_OP_ACOSH)
    MT_L_FLOAT(MT_GEN_REGISTER, atanh, MT_OP_ATANH)
    MT_L_FLOAT(MT_GEN_REGISTER, exp2, MT_OP_EXP2)
    MT_L_FLOAT(MT_GEN_REGISTER, erfc, MT_OP_ERFC)
    MT_L_FLOAT(MT_GEN_REGISTER, erfinv, MT_OP_ERFINV)
    MT_L_FLOAT(MT_GEN_REGISTER, lgamma, MT_OP_LGAMMA)
    MT_L_FLOAT(MT_GEN_REGISTER, deg2rad, MT_OP_DEG2RAD)
    MT_L_FLOAT(MT_GEN_REGISTER, rad2deg, MT_OP_RAD2DEG)
    MT_L_FLOAT(MT_GEN_REGISTER, sinc, MT_OP_SINC)
    MT_L_FLOAT(MT_GEN_REGISTER, frac, MT_OP_FRAC)
    MT_L_ALL(MT_GEN_REGISTER, signbit, MT_OP_SIGNBIT)
    MT_L_COMPLEX(MT_GEN_REGISTER, asin, MT_OP_ASIN)
    MT_L_COMPLEX(MT_GEN_REGISTER, acos, MT_OP_ACOS)
    MT_L_COMPLEX(MT_GEN_REGISTER, atan, MT_OP_ATAN)
    MT_L_COMPLEX(MT_GEN_REGISTER, sinh, MT_OP_SINH)
    MT_L_COMPLEX(MT_GEN_REGISTER, cosh, MT_OP_COSH)
    MT_L_COMPLEX(MT_GEN_REGISTER, asinh, MT_OP_ASINH)
    MT_L_COMPLEX(MT_GEN_REGISTER, acosh, MT_OP_ACOSH)
    MT_L_COMPLEX(MT_GEN_REGISTER, atanh, MT_OP_ATANH)
    MT_L_COMPLEX(MT_GEN_REGISTER, exp2, MT_OP_EXP2)
    MT_L_COMPLEX(MT_GEN_REGISTER, sinc, MT_OP_SINC)
    MT_L_COMPLEX(MT_GEN_REGISTER, sigmoid, MT_OP_SIGMOID)
    MT_L_COMPLEX(MT_GEN_REGISTER, reciprocal, MT_OP_RECIPROCAL)
    MT_L_COMPLEX(MT_GEN_REGISTER, square, MT_OP_SQUARE)
    MT_L_COMPLEX(MT_GEN_REGISTER, isnan, MT_OP_ISNAN)
    MT_L_COMPLEX(MT_GEN_REGISTER, isinf, MT_OP_ISINF)
    MT_L_COMPLEX(MT_GEN_REGISTER, isfinite, MT_OP_ISFINITE)
    MT_L_COMPLEX(MT_GEN_REGISTER, logical_not, MT_OP_LOGICAL_NOT)
}
