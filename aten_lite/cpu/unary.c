/* aten_lite/cpu/unary.c - CPU loops of the unary elementwise ops. */
#include <math.h>
#include <string.h>

#include "aten_lite/cpu/loops.h"

/* Note [Vectorisable expf]
 * libm's expf is a function call the compiler cannot vectorise, which
 * leaves float32 exp ~5x slower than NumPy's SIMD version.  This one is
 * branch-free (Cephes' range reduction and degree-6 polynomial, < 2 ulp):
 * n = round(x / ln2), r = x - n ln2 (in two parts), e^r by polynomial, then
 * scaled by 2^n as two halves so that overflow gives inf and results in the
 * subnormal range stay accurate.  NaN passes through. */
static inline float
mt__pow2i(int n)
{
    int32_t bits = (n + 127) << 23;
    float f;
    memcpy(&f, &bits, sizeof(f));
    return f;
}

static inline float
mt__expf(float x)
{
    float xc = x < -104.0f ? -104.0f : (x > 89.0f ? 89.0f : x);
    float fx = xc * 1.44269504088896341f + 0.5f;
    int n = (int)fx;
    n -= (float)n > fx; /* floor */
    float fn = (float)n;
    float r = xc - fn * 0.693359375f + fn * 2.12194440e-4f;
    float z = r * r;
    float y = 1.9875691500e-4f;
    y = y * r + 1.3981999507e-3f;
    y = y * r + 8.3334519073e-3f;
    y = y * r + 4.1665795894e-2f;
    y = y * r + 1.6666665459e-1f;
    y = y * r + 5.0000001201e-1f;
    y = y * z + r + 1.0f;
    int h = n / 2;
    float res = y * mt__pow2i(h) * mt__pow2i(n - h);
    return x != x ? x : res;
}

#define MT__EXP(a) _Generic((a), float: mt__expf, default: exp)(a)
#define MT__LIB(fn, a) _Generic((a), float: fn##f, default: fn)(a)

static inline float
mt__sigmoidf(float a)
{
    return 1.0f / (1.0f + mt__expf(-a));
}

static inline double
mt__sigmoid(double a)
{
    return 1.0 / (1.0 + exp(-a));
}

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
MT_L_FLOAT(MT_GEN_UNARY_SAME, tanh, MT__LIB(tanh, a))
MT_L_FLOAT(MT_GEN_UNARY_SAME, sigmoid, _Generic((a), float: mt__sigmoidf, default: mt__sigmoid)(a))
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

void
mt__cpu_unary_register(void)
{
    MT_L_NUMERIC(MT_GEN_REGISTER, neg, MT_OP_NEG)
    MT_L_NUMERIC(MT_GEN_REGISTER, abs, MT_OP_ABS)
    MT_L_ALL(MT_GEN_REGISTER, sign, MT_OP_SIGN)
    MT_L_FLOAT(MT_GEN_REGISTER, exp, MT_OP_EXP)
    MT_L_FLOAT(MT_GEN_REGISTER, expm1, MT_OP_EXPM1)
    MT_L_FLOAT(MT_GEN_REGISTER, log, MT_OP_LOG)
    MT_L_FLOAT(MT_GEN_REGISTER, log1p, MT_OP_LOG1P)
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
}
