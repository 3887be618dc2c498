/* aten_lite/cuda/emu/include/cuda_fp16.h - __half for the emulator: IEEE binary16 storage with
 * conversions to and from float (round to nearest even); arithmetic goes through float. */
#ifndef ATEN_LITE_CUDA_EMU_INCLUDE_CUDA_FP16_H
#define ATEN_LITE_CUDA_EMU_INCLUDE_CUDA_FP16_H

#include <stdint.h>
#include <string.h>

#ifdef __cplusplus
struct __half {
    uint16_t x;
    __half() = default;
    __half(float f) : x(from_float(f)) {}
    __half(double f) : x(from_float((float)f)) {}
    __half(int i) : x(from_float((float)i)) {}
    operator float() const { return to_float(x); }

    static uint16_t from_float(float f)
    {
        uint32_t b;
        memcpy(&b, &f, 4);
        uint32_t sign = (b >> 16) & 0x8000u;
        uint32_t absb = b & 0x7FFFFFFFu;
        if (absb >= 0x7F800000u) { /* inf or nan */
            return (uint16_t)(sign | 0x7C00u | (absb > 0x7F800000u ? 0x200u : 0u));
        }
        if (absb >= 0x477FF000u) { /* rounds to >= 65520: inf */
            return (uint16_t)(sign | 0x7C00u);
        }
        if (absb < 0x38800000u) { /* subnormal half (or zero): scale by 2^24 and round */
            float a;
            memcpy(&a, &absb, 4);
            float s = a * 16777216.0f; /* exact */
            uint32_t r = (uint32_t)s;
            float frac = s - (float)r;
            if (frac > 0.5f || (frac == 0.5f && (r & 1u))) {
                r++;
            }
            return (uint16_t)(sign | r);
        }
        uint32_t exp = (absb >> 23) - 127 + 15;
        uint32_t mant = absb & 0x7FFFFFu;
        uint32_t h = (exp << 10) | (mant >> 13);
        uint32_t rest = mant & 0x1FFFu;
        if (rest > 0x1000u || (rest == 0x1000u && (h & 1u))) {
            h++;
        }
        return (uint16_t)(sign | h);
    }
    static float to_float(uint16_t h)
    {
        uint32_t sign = (uint32_t)(h & 0x8000u) << 16;
        uint32_t exp = (h >> 10) & 0x1Fu;
        uint32_t mant = h & 0x3FFu;
        uint32_t b;
        if (exp == 0x1F) {
            b = sign | 0x7F800000u | (mant << 13);
        } else if (exp != 0) {
            b = sign | ((exp - 15 + 127) << 23) | (mant << 13);
        } else {
            float f = (float)mant * (1.0f / 16777216.0f);
            memcpy(&b, &f, 4);
            b |= sign;
        }
        float f;
        memcpy(&f, &b, 4);
        return f;
    }
};
typedef __half half;
inline __half __float2half(float f) { return __half(f); }
inline __half __float2half_rn(float f) { return __half(f); }
inline float __half2float(__half h) { return (float)h; }
inline __half __ushort_as_half(unsigned short s) { __half h; h.x = s; return h; }
inline unsigned short __half_as_ushort(__half h) { return h.x; }
#endif

#endif /* ATEN_LITE_CUDA_EMU_INCLUDE_CUDA_FP16_H */
