/* aten_lite/cpu/expf.h - a branch-free float32 exp the compiler vectorises (exp, sigmoid, softmax). */
#ifndef ATEN_LITE_CPU_EXPF_H
#define ATEN_LITE_CPU_EXPF_H

#include <math.h>
#include <stdint.h>
#include <string.h>

/* Note [Vectorisable expf]
 * libm's expf is a call the compiler cannot vectorise, which leaves float32
 * exp several times slower than NumPy's SIMD version.  mt__expf_core is
 * branch-free (Cephes' range reduction and degree-6 polynomial, < 2 ulp) for
 * x in [-87, 88]: n = round(x / ln2) (nearest, ties to even), r = x - n ln2 (in two parts), e^r by
 * the polynomial, and 2^n is added to the exponent bits.  The float32 exp
 * loop then redoes the rare lanes outside that range with libm (results near
 * overflow and subnormal results stay exact); NaN and inf pass through. */
static inline float
mt__expf_core(float x)
{
    float xc = x < -87.0f ? -87.0f : x;
    xc = xc > 88.0f ? 88.0f : xc;
    /* n = round(x / ln2) by the 1.5 * 2^23 trick (to nearest, ties to even): branch-free and
     * inlined, where roundf is a library call that keeps the loop from vectorising */
    float fn = (xc * 1.44269504088896341f + 12582912.0f) - 12582912.0f;
    float r = xc - fn * 0.693359375f + fn * 2.12194440e-4f;
    float z = r * r;
    float y = 1.9875691500e-4f;
    y = y * r + 1.3981999507e-3f;
    y = y * r + 8.3334519073e-3f;
    y = y * r + 4.1665795894e-2f;
    y = y * r + 1.6666665459e-1f;
    y = y * r + 5.0000001201e-1f;
    y = y * z + r + 1.0f;
    int32_t bits;
    memcpy(&bits, &y, sizeof(bits));
    bits += (int32_t)fn << 23;
    memcpy(&y, &bits, sizeof(y));
    y = x > 88.72283935546875f ? (float)INFINITY : y;
    return x != x ? x : y;
}

/* outside [-87, 88] the core clamps: those (rare) lanes are redone with libm */
#define MT__EXPF_SUBNORMAL (-87.0f)
#define MT__EXPF_LARGE 88.0f

#endif /* ATEN_LITE_CPU_EXPF_H */
