/* aten_lite/random_math.h - the random numbers' math, once, for the cpu fills (random.c) and the
 * CUDA kernels (aten_lite/cuda/random.cu): Philox4x32-10 and the transforms of its words. */
#ifndef ATEN_LITE_RANDOM_MATH_H
#define ATEN_LITE_RANDOM_MATH_H

#include <math.h>
#if !defined(__cplusplus)
#include <stdbool.h>
#endif
#include <stdint.h>
#include <string.h>

#ifndef MT_HOST_DEVICE
#if defined(__CUDACC__)
#define MT_HOST_DEVICE __host__ __device__
#else
#define MT_HOST_DEVICE
#endif
#endif

/* Note [One random stream on every device]
 * A draw is a pure function of the generator's (key, counter) (Note [Counter-based random
 * numbers] in random.h), so a device computing the same functions gives the same numbers as
 * the cpu for one seed, bit for bit.  What makes the functions the same:
 *  - Philox is integer arithmetic;
 *  - the transforms use only operations IEEE 754 rounds exactly on every device (+, -, *, /,
 *    sqrt, floor, ceil, conversions), never the C library's or CUDA's log/exp/sin/cos/tan,
 *    whose last bits differ: the logarithm, exponential and sin/cos(pi x) below are ours
 *    (polynomials after an exact argument reduction; a lower degree for the float draws,
 *    which round the double result once);
 *  - no product is fused with an addition into a multiply-add: the cpu build does not fuse
 *    (x86-64 baseline, -ffp-contract=off for random.c), and device code multiplies through
 *    MT_RNG_DMUL / MT_RNG_FMUL (__dmul_rn, __fmul_rn: never contracted).
 * Constants that are not exact in binary are the doubles nearest their values. */
#if defined(__CUDA_ARCH__)
#define MT_RNG_DMUL(x, y) __dmul_rn((x), (y))
#define MT_RNG_FMUL(x, y) __fmul_rn((x), (y))
#else
#define MT_RNG_DMUL(x, y) ((x) * (y))
#define MT_RNG_FMUL(x, y) ((x) * (y))
#endif

/* ---- Philox4x32-10 (Salmon et al., "Parallel random numbers: as easy as 1, 2, 3") ---- */
MT_HOST_DEVICE static inline void
mt_philox_block(uint64_t key, uint64_t counter, uint64_t counter_hi, uint32_t out[4])
{
    uint32_t c0 = (uint32_t)counter, c1 = (uint32_t)(counter >> 32);
    uint32_t c2 = (uint32_t)counter_hi, c3 = (uint32_t)(counter_hi >> 32);
    uint32_t k0 = (uint32_t)key, k1 = (uint32_t)(key >> 32);
    for (int r = 0; r < 10; r++) {
        uint64_t p0 = (uint64_t)UINT32_C(0xD2511F53) * c0;
        uint64_t p1 = (uint64_t)UINT32_C(0xCD9E8D57) * c2;
        uint32_t n0 = (uint32_t)(p1 >> 32) ^ c1 ^ k0;
        uint32_t n2 = (uint32_t)(p0 >> 32) ^ c3 ^ k1;
        c1 = (uint32_t)p1;
        c3 = (uint32_t)p0;
        c0 = n0;
        c2 = n2;
        k0 += UINT32_C(0x9E3779B9);
        k1 += UINT32_C(0xBB67AE85);
    }
    out[0] = c0;
    out[1] = c1;
    out[2] = c2;
    out[3] = c3;
}

/* ---- uniforms from the words ---- */

/* The 53 high bits k of the 64-bit word (hi, lo) as a double, exactly: k = a 2^26 + b with
 * a = hi >> 5 and b = the next 26 bits, both converted from 32-bit integers (which vectorises,
 * where a 64-bit conversion does not). */
MT_HOST_DEVICE static inline double
mt_rng_k53(uint32_t hi, uint32_t lo)
{
    const int32_t a = (int32_t)(hi >> 5);
    const int32_t b = (int32_t)(((hi & 31u) << 21) | (lo >> 11));
    return MT_RNG_DMUL((double)a, 67108864.0) + (double)b;
}

/* [0, 1), (0, 1] and (0, 1) (the midpoints) on the 2^-53 grid, from the 64-bit word (hi, lo) */
MT_HOST_DEVICE static inline double
mt_rng_u53(uint32_t hi, uint32_t lo)
{
    return MT_RNG_DMUL(mt_rng_k53(hi, lo), 0x1.0p-53);
}
MT_HOST_DEVICE static inline double
mt_rng_u53_open0(uint32_t hi, uint32_t lo)
{
    return MT_RNG_DMUL(mt_rng_k53(hi, lo) + 1.0, 0x1.0p-53);
}
MT_HOST_DEVICE static inline double
mt_rng_u53_mid(uint32_t hi, uint32_t lo)
{
    return MT_RNG_DMUL(mt_rng_k53(hi, lo) + 0.5, 0x1.0p-53);
}

/* ---- elementary functions on exactly reduced arguments ---- */

MT_HOST_DEVICE static inline uint64_t
mt_rng_bits(double x)
{
    uint64_t u;
    memcpy(&u, &x, sizeof(u));
    return u;
}
MT_HOST_DEVICE static inline double
mt_rng_from_bits(uint64_t u)
{
    double x;
    memcpy(&x, &u, sizeof(x));
    return x;
}

#define MT_RNG_LN2_HI 6.93147180369123816490e-01 /* ln 2's leading 21 bits: k * it is exact */
#define MT_RNG_LN2_LO 1.90821492927058770002e-10 /* ln 2 - MT_RNG_LN2_HI */

/* log(x) for a positive normal finite x: x = m 2^e with m in [sqrt(1/2), sqrt(2)), log m =
 * 2 atanh(s), s = (m - 1) / (m + 1), |s| < 0.172, as the odd series in s (terms to s^(2n+1),
 * n = 10 for doubles, 5 for the float draws: below their last bit). */
MT_HOST_DEVICE static inline double
mt_rng_log_n(double x, int n)
{
    const uint64_t b = mt_rng_bits(x);
    /* the biased exponent as a double through its bits (2^52 + it, minus 2^52: exact) */
    const double eb = mt_rng_from_bits(UINT64_C(0x4330000000000000) | ((b >> 52) & 0x7ff)) -
                      4503599627370496.0;
    double m = mt_rng_from_bits((b & UINT64_C(0x000fffffffffffff)) | UINT64_C(0x3ff0000000000000));
    const bool big = m > 1.4142135623730951;
    m = big ? MT_RNG_DMUL(m, 0.5) : m;
    const double de = (eb - 1023.0) + (big ? 1.0 : 0.0);
    const double s = (m - 1.0) / (m + 1.0);
    const double z = MT_RNG_DMUL(s, s);
    /* 1 + z/3 + z^2/5 + ... + z^n/(2n+1) */
    double p;
    if (n > 5) {
        p = 0.047619047619047616;
        p = MT_RNG_DMUL(p, z) + 0.05263157894736842;
        p = MT_RNG_DMUL(p, z) + 0.058823529411764705;
        p = MT_RNG_DMUL(p, z) + 0.06666666666666667;
        p = MT_RNG_DMUL(p, z) + 0.07692307692307693;
        p = MT_RNG_DMUL(p, z) + 0.09090909090909091;
    }
    else {
        p = 0.09090909090909091;
    }
    p = MT_RNG_DMUL(p, z) + 0.1111111111111111;
    p = MT_RNG_DMUL(p, z) + 0.14285714285714285;
    p = MT_RNG_DMUL(p, z) + 0.2;
    p = MT_RNG_DMUL(p, z) + 0.3333333333333333;
    p = MT_RNG_DMUL(p, z) + 1.0;
    const double lm = MT_RNG_DMUL(s + s, p);
    return MT_RNG_DMUL(de, MT_RNG_LN2_HI) + (MT_RNG_DMUL(de, MT_RNG_LN2_LO) + lm);
}

/* exp(x) for any x: x = k ln 2 + r, |r| <= 0.35 (k ln 2 subtracted in two exact parts), exp r
 * as its Taylor series to r^n (n = 13 for doubles, 8 for the float draws), times 2^k. */
MT_HOST_DEVICE static inline double
mt_rng_exp_n(double x, int n)
{
    /* selects, no branch: the cpu loops vectorise */
    const bool nan = x != x, over = x > 709.782712893384, under = x < -745.1332191019412;
    const double xc = nan || over || under ? 0.0 : x;
    const double y = MT_RNG_DMUL(xc, 1.4426950408889634);
    const int32_t k = (int32_t)(y + (y >= 0.0 ? 0.5 : -0.5));
    const double kd = (double)k;
    const double r = (xc - MT_RNG_DMUL(kd, MT_RNG_LN2_HI)) - MT_RNG_DMUL(kd, MT_RNG_LN2_LO);
    double p;
    if (n > 8) {
        p = 1.6059043836821613e-10;
        p = MT_RNG_DMUL(p, r) + 2.08767569878681e-09;
        p = MT_RNG_DMUL(p, r) + 2.505210838544172e-08;
        p = MT_RNG_DMUL(p, r) + 2.755731922398589e-07;
        p = MT_RNG_DMUL(p, r) + 2.7557319223985893e-06;
        p = MT_RNG_DMUL(p, r) + 2.48015873015873e-05;
    }
    else {
        p = 2.48015873015873e-05;
    }
    p = MT_RNG_DMUL(p, r) + 0.0001984126984126984;
    p = MT_RNG_DMUL(p, r) + 0.001388888888888889;
    p = MT_RNG_DMUL(p, r) + 0.008333333333333333;
    p = MT_RNG_DMUL(p, r) + 0.041666666666666664;
    p = MT_RNG_DMUL(p, r) + 0.16666666666666666;
    p = MT_RNG_DMUL(p, r) + 0.5;
    p = MT_RNG_DMUL(p, r) + 1.0;
    p = MT_RNG_DMUL(p, r) + 1.0;
    /* times 2^k in two steps, so that neither factor leaves the normal range */
    const int32_t k1 = k / 2, k2 = k - k1;
    p = MT_RNG_DMUL(p, mt_rng_from_bits((uint64_t)(k1 + 1023) << 52));
    p = MT_RNG_DMUL(p, mt_rng_from_bits((uint64_t)(k2 + 1023) << 52));
    return nan ? x : over ? INFINITY : under ? 0.0 : p;
}

/* sin(pi x) and cos(pi x) for |x| <= 2: 2x = q + f with q an integer and |f| <= 1/2 (exact),
 * theta = f pi / 2 in [-pi/4, pi/4], Taylor series of sin and cos theta to theta^(2n+1) and
 * theta^(2n) (n = 9 for doubles, 6 for the float draws), rotated by q quarter turns. */
MT_HOST_DEVICE static inline void
mt_rng_sincospi_n(double x, int n, double *sin_out, double *cos_out)
{
    const double t = x + x;
    /* q: the nearest integer to t, or its neighbour when t + 8.5 rounds (then |f| exceeds 1/2
     * by an ulp, which the series covers); a truncating conversion, which vectorises */
    const double q = (double)(int32_t)(t + 8.5) - 8.0;
    const double f = t - q;
    const double th = MT_RNG_DMUL(f, 1.5707963267948966);
    const double z = MT_RNG_DMUL(th, th);
    double ps, pc;
    if (n > 6) {
        ps = -8.22063524662433e-18;
        ps = MT_RNG_DMUL(ps, z) + 2.8114572543455206e-15;
        ps = MT_RNG_DMUL(ps, z) + -7.647163731819816e-13;
        pc = -1.5619206968586225e-16;
        pc = MT_RNG_DMUL(pc, z) + 4.779477332387385e-14;
        pc = MT_RNG_DMUL(pc, z) + -1.1470745597729725e-11;
    }
    else {
        ps = -7.647163731819816e-13;
        pc = -1.1470745597729725e-11;
    }
    ps = MT_RNG_DMUL(ps, z) + 1.6059043836821613e-10;
    ps = MT_RNG_DMUL(ps, z) + -2.505210838544172e-08;
    ps = MT_RNG_DMUL(ps, z) + 2.7557319223985893e-06;
    ps = MT_RNG_DMUL(ps, z) + -0.0001984126984126984;
    ps = MT_RNG_DMUL(ps, z) + 0.008333333333333333;
    ps = MT_RNG_DMUL(ps, z) + -0.16666666666666666;
    ps = MT_RNG_DMUL(ps, z) + 1.0;
    pc = MT_RNG_DMUL(pc, z) + 2.08767569878681e-09;
    pc = MT_RNG_DMUL(pc, z) + -2.755731922398589e-07;
    pc = MT_RNG_DMUL(pc, z) + 2.48015873015873e-05;
    pc = MT_RNG_DMUL(pc, z) + -0.001388888888888889;
    pc = MT_RNG_DMUL(pc, z) + 0.041666666666666664;
    pc = MT_RNG_DMUL(pc, z) + -0.5;
    pc = MT_RNG_DMUL(pc, z) + 1.0;
    const double s = MT_RNG_DMUL(th, ps), c = pc;
    /* q quarter turns (selects, no branch: the cpu loops vectorise) */
    const int n4 = (int)q & 3;
    const double s1 = (n4 & 1) ? c : s, c1 = (n4 & 1) ? s : c;
    *sin_out = (n4 & 2) ? -s1 : s1;
    *cos_out = ((n4 + 1) & 2) ? -c1 : c1;
}

#define MT_RNG_DEG_LOG 10
#define MT_RNG_DEG_EXP 13
#define MT_RNG_DEG_SINCOS 9

/* ---- the same in float, for the 32-bit draws: float arithmetic (4 or 8 lanes in the cpu's
 * vector loops), errors of a few float ulps ---- */

MT_HOST_DEVICE static inline uint32_t
mt_rng_fbits(float x)
{
    uint32_t u;
    memcpy(&u, &x, sizeof(u));
    return u;
}
MT_HOST_DEVICE static inline float
mt_rng_from_fbits(uint32_t u)
{
    float x;
    memcpy(&x, &u, sizeof(x));
    return x;
}

/* log(x) for a positive normal float x: as mt_rng_log_n, the series to s^9 */
MT_HOST_DEVICE static inline float
mt_rng_logf(float x)
{
    const uint32_t b = mt_rng_fbits(x);
    int32_t e = (int32_t)(b >> 23) - 127;
    float m = mt_rng_from_fbits((b & 0x007fffffu) | 0x3f800000u);
    const bool big = m > 1.41421356f;
    m = big ? MT_RNG_FMUL(m, 0.5f) : m;
    e += big ? 1 : 0;
    const float s = (m - 1.0f) / (m + 1.0f);
    const float z = MT_RNG_FMUL(s, s);
    float p = 0.111111111f;
    p = MT_RNG_FMUL(p, z) + 0.142857143f;
    p = MT_RNG_FMUL(p, z) + 0.2f;
    p = MT_RNG_FMUL(p, z) + 0.333333333f;
    p = MT_RNG_FMUL(p, z) + 1.0f;
    const float lm = MT_RNG_FMUL(s + s, p);
    const float fe = (float)e;
    /* ln 2 = 0x1.62e4p-1 (exact times any e here) + the rest */
    return MT_RNG_FMUL(fe, 0.693145751953125f) + (MT_RNG_FMUL(fe, 1.42860682030941723212e-06f) + lm);
}

/* exp(x) for a float x: x = k ln 2 + r as mt_rng_exp_n, exp r to r^7, times 2^k (selects, no
 * branch: the cpu loops vectorise) */
MT_HOST_DEVICE static inline float
mt_rng_expf(float x)
{
    const bool nan = x != x, over = x > 88.7228394f, under = x < -103.972084f;
    const float xc = nan || over || under ? 0.0f : x;
    const float y = MT_RNG_FMUL(xc, 1.44269504f);
    const int32_t k = (int32_t)(y + (y >= 0.0f ? 0.5f : -0.5f));
    const float kf = (float)k;
    const float r = (xc - MT_RNG_FMUL(kf, 0.693145751953125f)) - MT_RNG_FMUL(kf, 1.42860682030941723212e-06f);
    float p = 1.98412698e-04f;
    p = MT_RNG_FMUL(p, r) + 1.38888889e-03f;
    p = MT_RNG_FMUL(p, r) + 8.33333333e-03f;
    p = MT_RNG_FMUL(p, r) + 4.16666667e-02f;
    p = MT_RNG_FMUL(p, r) + 0.166666667f;
    p = MT_RNG_FMUL(p, r) + 0.5f;
    p = MT_RNG_FMUL(p, r) + 1.0f;
    p = MT_RNG_FMUL(p, r) + 1.0f;
    const int32_t k1 = k / 2, k2 = k - k1;
    p = MT_RNG_FMUL(p, mt_rng_from_fbits((uint32_t)(k1 + 127) << 23));
    p = MT_RNG_FMUL(p, mt_rng_from_fbits((uint32_t)(k2 + 127) << 23));
    return nan ? x : over ? INFINITY : under ? 0.0f : p;
}

/* sin and cos of (pi / 2) * k / 2^bits for an integer |k| < 2^(bits + 2), bits <= 23: the
 * quarter turns q = round(k / 2^bits) and the rest f = k - q 2^bits are integers (exact),
 * theta = (pi / 2) f / 2^bits in [-pi/4, pi/4], Taylor series to theta^9 and theta^10. */
MT_HOST_DEVICE static inline void
mt_rng_sincos_quarter_f(int32_t k, int bits, float *sin_out, float *cos_out)
{
    /* + 8 quarter turns keeps the sum non-negative, q mod 4 unchanged */
    const int32_t q = (int32_t)(((uint32_t)(k + (8 << bits)) + (1u << (bits - 1))) >> bits);
    const int32_t f = k + (8 << bits) - (q << bits);
    const float th = MT_RNG_FMUL((float)f, MT_RNG_FMUL(1.57079633f, mt_rng_from_fbits((uint32_t)(127 - bits) << 23)));
    const float z = MT_RNG_FMUL(th, th);
    float ps = 2.75573192e-06f, pc = -2.75573192e-07f;
    ps = MT_RNG_FMUL(ps, z) + -1.98412698e-04f;
    ps = MT_RNG_FMUL(ps, z) + 8.33333333e-03f;
    ps = MT_RNG_FMUL(ps, z) + -0.166666667f;
    ps = MT_RNG_FMUL(ps, z) + 1.0f;
    pc = MT_RNG_FMUL(pc, z) + 2.48015873e-05f;
    pc = MT_RNG_FMUL(pc, z) + -1.38888889e-03f;
    pc = MT_RNG_FMUL(pc, z) + 4.16666667e-02f;
    pc = MT_RNG_FMUL(pc, z) + -0.5f;
    pc = MT_RNG_FMUL(pc, z) + 1.0f;
    const float s = MT_RNG_FMUL(th, ps), c = pc;
    const int32_t n4 = q & 3;
    const float s1 = (n4 & 1) ? c : s, c1 = (n4 & 1) ? s : c;
    *sin_out = (n4 & 2) ? -s1 : s1;
    *cos_out = ((n4 + 1) & 2) ? -c1 : c1;
}

/* ---- the draws (Note [Random fill kernels] in random.c) ----
 * 32-bit draws (float results; float16/bfloat16 draw `mbits` mantissa bits) read one word,
 * a normal pair two words of a block; 64-bit draws (double results) read the word pair
 * (w[2e], w[2e + 1]), a double normal pair its whole block. */

MT_HOST_DEVICE static inline float
mt_rng_uniform_f(uint32_t w, int shift, float scale, float a, float b)
{
    const float x = a + MT_RNG_FMUL(b - a, MT_RNG_FMUL((float)(int32_t)(w >> shift), scale));
    return x < b ? x : a; /* rounding reached `to` (possible only for wide ranges) */
}

MT_HOST_DEVICE static inline float
mt_rng_exponential_f(uint32_t w, float rate)
{
    /* u in (0, 1): the midpoints of the 2^23 grid (exact floats), so the draw is never 0 */
    const float u = MT_RNG_FMUL((float)(int32_t)(w >> 9) + 0.5f, 0x1.0p-23f);
    return -mt_rng_logf(u) / rate;
}

MT_HOST_DEVICE static inline float
mt_rng_cauchy_f(uint32_t w, float median, float sigma)
{
    /* u = (k + 1/2) 2^-23 in (0, 1); pi (u - 1/2) = (pi / 2) (2k + 1 - 2^23) / 2^23 */
    float s, c;
    mt_rng_sincos_quarter_f((int32_t)(w >> 9) * 2 + 1 - (1 << 23), 23, &s, &c);
    return median + MT_RNG_FMUL(sigma, s / c);
}

/* Box-Muller: u1 = (k1 + 1) 2^-24 in (0, 1] gives the radius, u2 = k2 2^-24 in [0, 1) the
 * angle 2 pi u2 = (pi / 2) k2 / 2^22 */
MT_HOST_DEVICE static inline void
mt_rng_normal2_f(uint32_t w0, uint32_t w1, float mean, float std, float *v0, float *v1)
{
    const float u1 = MT_RNG_FMUL((float)(int32_t)((w0 >> 8) + 1), 0x1.0p-24f);
    const float r = sqrtf(-2.0f * mt_rng_logf(u1));
    float s, c;
    mt_rng_sincos_quarter_f((int32_t)(w1 >> 8), 22, &s, &c);
    const float br = MT_RNG_FMUL(std, r);
    *v0 = mean + MT_RNG_FMUL(br, c);
    *v1 = mean + MT_RNG_FMUL(br, s);
}

MT_HOST_DEVICE static inline float
mt_rng_exp_f(float x)
{
    return mt_rng_expf(x);
}

MT_HOST_DEVICE static inline double
mt_rng_uniform_d(uint32_t hi, uint32_t lo, double a, double b)
{
    const double x = a + MT_RNG_DMUL(b - a, mt_rng_u53(hi, lo));
    return x < b ? x : a;
}

MT_HOST_DEVICE static inline double
mt_rng_exponential_d(uint32_t hi, uint32_t lo, double rate)
{
    return -mt_rng_log_n(mt_rng_u53_mid(hi, lo), MT_RNG_DEG_LOG) / rate; /* never 0 */
}

MT_HOST_DEVICE static inline double
mt_rng_cauchy_d(uint32_t hi, uint32_t lo, double median, double sigma)
{
    double s, c;
    mt_rng_sincospi_n(mt_rng_u53_mid(hi, lo) - 0.5, MT_RNG_DEG_SINCOS, &s, &c);
    return median + MT_RNG_DMUL(sigma, s / c);
}

/* w: the block's four words */
MT_HOST_DEVICE static inline void
mt_rng_normal2_d(const uint32_t *w, double mean, double std, double *v0, double *v1)
{
    const double r = sqrt(-2.0 * mt_rng_log_n(mt_rng_u53_open0(w[0], w[1]), MT_RNG_DEG_LOG));
    double s, c;
    mt_rng_sincospi_n(mt_rng_u53(w[2], w[3]) * 2.0, MT_RNG_DEG_SINCOS, &s, &c);
    const double br = MT_RNG_DMUL(std, r);
    *v0 = mean + MT_RNG_DMUL(br, c);
    *v1 = mean + MT_RNG_DMUL(br, s);
}

MT_HOST_DEVICE static inline double
mt_rng_exp_d(double x)
{
    return mt_rng_exp_n(x, MT_RNG_DEG_EXP);
}

MT_HOST_DEVICE static inline double
mt_rng_bernoulli_d(uint32_t hi, uint32_t lo, double p)
{
    return mt_rng_u53(hi, lo) < p ? 1.0 : 0.0;
}

/* trials to the first success; log_q = log1p(-p), computed once per fill by the caller */
MT_HOST_DEVICE static inline double
mt_rng_geometric_d(uint32_t hi, uint32_t lo, double log_q)
{
    const double y = mt_rng_log_n(mt_rng_u53_open0(hi, lo), MT_RNG_DEG_LOG) / log_q; /* >= 0 */
    /* ceil(y): below 2^52, adding and subtracting 2^52 rounds y to an integer (nearest), one
     * more when that is below y; above, y is an integer (selects: the loop vectorises) */
    const double r = (y + 0x1.0p52) - 0x1.0p52;
    const double x = y < 0x1.0p52 ? (r < y ? r + 1.0 : r) : y;
    return x < 1.0 ? 1.0 : x > 0x1.0p62 ? 0x1.0p62 : x; /* stays an int64 */
}

/* floor(r * range / 2^64): r mod range's job without a division (Lemire); range 0 is 2^64 */
MT_HOST_DEVICE static inline uint64_t
mt_rng_scale64(uint64_t r, uint64_t range)
{
#if defined(__CUDA_ARCH__)
    return range ? __umul64hi(r, range) : r;
#else
    __extension__ typedef unsigned __int128 mt__u128;
    return range ? (uint64_t)(((mt__u128)r * range) >> 64) : r;
#endif
}

/* random_(from, range): from + (r scaled to the range) with r the word pair */
MT_HOST_DEVICE static inline int64_t
mt_rng_int(uint32_t hi, uint32_t lo, int64_t from, uint64_t range)
{
    const uint64_t r = ((uint64_t)hi << 32) | lo;
    return (int64_t)((uint64_t)from + mt_rng_scale64(r, range));
}

#endif /* ATEN_LITE_RANDOM_MATH_H */
