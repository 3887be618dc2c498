/* aten_lite/cpu/activation.c - CPU loops of the fused activations (GELU) and their
 * derivatives: one pass each instead of the several ops they are made of. */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "aten_lite/cpu/expf.h"
#include "aten_lite/cpu/loops.h"
#include "aten_lite/op_math.h"

/* Note [Wide clones]
 * GELU's loops are compute-bound (a division, two polynomials and an exp per element), not
 * memory-bound as most elementwise loops: they are also compiled for x86-64-v4 (AVX-512, twice
 * the lanes) and their AVX2 clone for x86-64-v3 (AVX2 with FMA).  The polynomial of
 * Note [Vectorisable erf] is written with fmaf, so every clone rounds alike (the baseline
 * clone calls libm's fmaf, exact as the instruction). */
#undef MT_SIMD_CLONES
#define MT_SIMD_CLONES MT_WIDE_CLONES

/* Note [Vectorisable erf]
 * libm's erff is a call the compiler cannot vectorise (GELU over a transformer's activations
 * spent most of its time there).  GELU's float32 loops use Abramowitz and Stegun's 7.1.26,
 * erf(x) = 1 - t (a1 + t (a2 + ... + t a5)) e^(-x^2), t = 1 / (1 + p |x|), absolute error below
 * 1.5e-7 (the same approximation PyTorch's vectorised float GELU uses), with the branch-free
 * exp of Note [Vectorisable expf]; float64 keeps libm's erf.  torch.erf itself stays libm's. */
/* e^y for y <= 0 only (the Gaussian factors of GELU and its derivative): Note [Vectorisable
 * expf]'s core without its overflow and NaN lanes, which cannot occur here (a NaN stays NaN
 * through the polynomial); below -87 the argument is clamped, where e^y is under 1.7e-38 and
 * only ever multiplies a term added to a number of order 1. */
static inline float
mt__expf_nonpos(float y)
{
    float yc = y < -87.0f ? -87.0f : y;
    float fn = fmaf(yc, 1.44269504088896341f, 12582912.0f) - 12582912.0f;
    float r = fmaf(fn, 2.12194440e-4f, fmaf(fn, -0.693359375f, yc));
    float z = r * r;
    float p = 1.9875691500e-4f;
    p = fmaf(p, r, 1.3981999507e-3f);
    p = fmaf(p, r, 8.3334519073e-3f);
    p = fmaf(p, r, 4.1665795894e-2f);
    p = fmaf(p, r, 1.6666665459e-1f);
    p = fmaf(p, r, 5.0000001201e-1f);
    p = fmaf(p, z, r + 1.0f);
    int32_t bits;
    memcpy(&bits, &p, sizeof(bits));
    bits += (int32_t)((uint32_t)(int32_t)fn << 23);
    memcpy(&p, &bits, sizeof(p));
    return p;
}

/* Note [GELU's shared Gaussian]
 * With z = |x| / sqrt 2 and g = e^(-z^2) = e^(-x^2 / 2), Abramowitz and Stegun's form gives
 * erfc(z) ~= t P(t) g, so the normal cdf is cdf(x) = 1 - t P(t) g / 2 for x >= 0 and
 * t P(t) g / 2 below, and the pdf is g / sqrt(2 pi): GELU's derivative cdf(x) + x pdf(x)
 * needs the one exponential g, not one inside erf and a second for the pdf.  Every
 * multiply-add is an explicit fmaf (Note [Wide clones]).  mt__gelu_cdf returns cdf(x) and
 * sets *g. */
static inline float
mt__gelu_cdf(float x, float *g)
{
    float ax = x < 0 ? -x : x;
    float t = 1.0f / fmaf(0.3275911f * (float)0.70710678118654752440, ax, 1.0f);
    float p = 1.061405429f;
    p = fmaf(p, t, -1.453152027f);
    p = fmaf(p, t, 1.421413741f);
    p = fmaf(p, t, -0.284496736f);
    p = fmaf(p, t, 0.254829592f);
    float h = 0.5f * p * t;
    *g = mt__expf_nonpos(-0.5f * x * x);
    return x < 0 ? h * *g : fmaf(-h, *g, 1.0f); /* the tail t P(t) g / 2, or 1 - it */
}

static inline float
mt__gelu_f(float x)
{
    float g;
    return x * mt__gelu_cdf(x, &g);
}
/* d gelu / dx = cdf(x) + x pdf(x) */
static inline float
mt__gelu_grad_f(float x)
{
    float g;
    float cdf = mt__gelu_cdf(x, &g);
    return fmaf(x * (float)0.39894228040143267794, g, cdf);
}

#define MT__SQRT_2_PI 0.79788456080286535588 /* sqrt(2 / pi) */
#define MT__GELU_C 0.044715

/* tanh(u) by exp, branch-free: u clamped to [-10, 10] (tanh(10) is 1 in float32) */
static inline float
mt__tanhf_fast(float u)
{
    u = u < -10.0f ? -10.0f : (u > 10.0f ? 10.0f : u);
    return 1.0f - 2.0f / (mt__expf_core(2.0f * u) + 1.0f);
}
/* the tanh form: 0.5 x (1 + tanh(k (x + c x^3))), k = sqrt(2 / pi) */
static inline float
mt__gelu_tanh_f(float x)
{
    float t = mt__tanhf_fast((float)MT__SQRT_2_PI * (x + (float)MT__GELU_C * x * x * x));
    return 0.5f * x * (1.0f + t);
}
/* d/dx: 0.5 (1 + t) + 0.5 x (1 - t^2) k (1 + 3 c x^2) */
static inline float
mt__gelu_tanh_grad_f(float x)
{
    float x2 = x * x;
    float t = mt__tanhf_fast((float)MT__SQRT_2_PI * (x + (float)MT__GELU_C * x2 * x));
    return 0.5f * (1.0f + t) +
           0.5f * x * (1.0f - t * t) * (float)MT__SQRT_2_PI * (1.0f + 3.0f * (float)MT__GELU_C * x2);
}

#define MT__F(name, a) _Generic((a), float: mt__##name##_f, default: mt_math_##name)(a)

MT_L_FLOAT(MT_GEN_UNARY_SAME, gelu, MT__F(gelu, a))
MT_L_FLOAT(MT_GEN_UNARY_SAME, gelu_tanh, MT__F(gelu_tanh, a))
/* (grad, x) -> grad * gelu'(x) */
MT_L_FLOAT(MT_GEN_BINARY_SAME, gelu_backward, a * MT__F(gelu_grad, b))
MT_L_FLOAT(MT_GEN_BINARY_SAME, gelu_tanh_backward, a * MT__F(gelu_tanh_grad, b))

void
mt__cpu_activation_register(void)
{
    MT_L_FLOAT(MT_GEN_REGISTER, gelu, MT_OP_GELU)
    MT_L_FLOAT(MT_GEN_REGISTER, gelu_tanh, MT_OP_GELU_TANH)
    MT_L_FLOAT(MT_GEN_REGISTER, gelu_backward, MT_OP_GELU_BACKWARD)
    MT_L_FLOAT(MT_GEN_REGISTER, gelu_tanh_backward, MT_OP_GELU_TANH_BACKWARD)
}
