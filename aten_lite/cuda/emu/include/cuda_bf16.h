/* aten_lite/cuda/emu/include/cuda_bf16.h - __nv_bfloat16 for the emulator: the upper half of a
 * float, converted with round to nearest even; arithmetic goes through float. */
#ifndef ATEN_LITE_CUDA_EMU_INCLUDE_CUDA_BF16_H
#define ATEN_LITE_CUDA_EMU_INCLUDE_CUDA_BF16_H

#include <stdint.h>
#include <string.h>

#ifdef __cplusplus
struct __nv_bfloat16 {
    uint16_t x;
    __nv_bfloat16() = default;
    __nv_bfloat16(float f) : x(from_float(f)) {}
    __nv_bfloat16(double f) : x(from_float((float)f)) {}
    __nv_bfloat16(int i) : x(from_float((float)i)) {}
    operator float() const
    {
        uint32_t b = (uint32_t)x << 16;
        float f;
        memcpy(&f, &b, 4);
        return f;
    }
    static uint16_t from_float(float f)
    {
        uint32_t b;
        memcpy(&b, &f, 4);
        if ((b & 0x7FFFFFFFu) > 0x7F800000u) {
            return (uint16_t)((b >> 16) | 0x40u); /* quiet nan */
        }
        b += 0x7FFFu + ((b >> 16) & 1u);
        return (uint16_t)(b >> 16);
    }
};
typedef __nv_bfloat16 nv_bfloat16;
inline __nv_bfloat16 __float2bfloat16(float f) { return __nv_bfloat16(f); }
inline __nv_bfloat16 __float2bfloat16_rn(float f) { return __nv_bfloat16(f); }
inline float __bfloat162float(__nv_bfloat16 h) { return (float)h; }
#endif

#endif /* ATEN_LITE_CUDA_EMU_INCLUDE_CUDA_BF16_H */
