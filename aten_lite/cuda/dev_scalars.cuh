/* aten_lite/cuda/dev_scalars.cuh - the storage types of every dtype in device code (the C
 * headers' mt_half / complex types are C only), their conversions to and from the type kernels
 * compute in, and the launch helper of the reduce, scan, sequence and random kernels. */
#ifndef ATEN_LITE_CUDA_DEV_SCALARS_CUH
#define ATEN_LITE_CUDA_DEV_SCALARS_CUH

#include <stdint.h>
#include <string.h>

#include "aten_lite/cuda/cuda_compat.h"
#include "aten_lite/cuda/launch.cuh"
#include "aten_lite/cuda/dev_dtype.h"

extern "C" {
#include "c10_lite/error.h"
}

namespace mt_dev {

/* 16-bit floats as their bits; the conversions are the cpu's (c10_lite/dtype.h): round to
 * nearest even, NaN kept quiet, so both devices store the same bits. */
struct half_t {
    uint16_t bits;
};
struct bf16_t {
    uint16_t bits;
};
template <typename R> struct cplx {
    R re, im;
};
typedef cplx<float> c64_t;
typedef cplx<double> c128_t;

__host__ __device__ __forceinline__ float
bits_float(uint32_t u)
{
    float f;
    memcpy(&f, &u, sizeof(f));
    return f;
}
__host__ __device__ __forceinline__ uint32_t
float_bits(float f)
{
    uint32_t u;
    memcpy(&u, &f, sizeof(u));
    return u;
}

__host__ __device__ __forceinline__ float
half_to_float(half_t h)
{
    const uint32_t shifted_exp = 0x7c00u << 13;
    uint32_t o = (uint32_t)(h.bits & 0x7fffu) << 13;
    uint32_t exp = o & shifted_exp;
    o += (uint32_t)(127 - 15) << 23;
    uint32_t inf_nan = o + ((uint32_t)(128 - 16) << 23);
    float sub = bits_float(o + (1u << 23)) - 6.103515625e-05f;
    o = exp == shifted_exp ? inf_nan : exp == 0 ? float_bits(sub) : o;
    o |= (uint32_t)(h.bits & 0x8000u) << 16;
    return bits_float(o);
}

__host__ __device__ __forceinline__ half_t
float_to_half(float f)
{
    uint32_t x = float_bits(f);
    uint32_t sign = (x >> 16) & 0x8000u;
    uint32_t absx = x & 0x7fffffffu;
    uint32_t big = absx > 0x7f800000u ? 0x7e00u : 0x7c00u;
    uint32_t sub = float_bits(bits_float(absx) + 0.5f) - 0x3f000000u;
    uint32_t norm = (absx + ((uint32_t)(15 - 127) << 23) + 0xfffu + ((absx >> 13) & 1u)) >> 13;
    uint32_t bits = absx >= 0x47800000u ? big : absx < 0x38800000u ? sub : norm;
    half_t h;
    h.bits = (uint16_t)(bits | sign);
    return h;
}

__host__ __device__ __forceinline__ float
bf16_to_float(bf16_t b)
{
    return bits_float((uint32_t)b.bits << 16);
}

__host__ __device__ __forceinline__ bf16_t
float_to_bf16(float f)
{
    uint32_t x = float_bits(f);
    bf16_t b;
    if ((x & 0x7fffffffu) > 0x7f800000u) {
        b.bits = (uint16_t)((x >> 16) | 0x40u);
        return b;
    }
    x += 0x7fffu + ((x >> 16) & 1u);
    b.bits = (uint16_t)(x >> 16);
    return b;
}

/* load<T>: a stored element in its compute type (16-bit floats widen to float); store<T>: a
 * value of the compute type (or a double / int64) into storage, as the cpu's casts do. */
template <typename T> struct scalar {
    typedef T compute;
    __host__ __device__ static __forceinline__ T load(T v) { return v; }
};
template <> struct scalar<half_t> {
    typedef float compute;
    __host__ __device__ static __forceinline__ float load(half_t v) { return half_to_float(v); }
};
template <> struct scalar<bf16_t> {
    typedef float compute;
    __host__ __device__ static __forceinline__ float load(bf16_t v) { return bf16_to_float(v); }
};

template <typename T, typename V> __host__ __device__ __forceinline__ T
store_as(V v)
{
    return (T)v;
}
template <> __host__ __device__ __forceinline__ half_t
store_as<half_t, float>(float v)
{
    return float_to_half(v);
}
template <> __host__ __device__ __forceinline__ half_t
store_as<half_t, double>(double v)
{
    return float_to_half((float)v);
}
template <> __host__ __device__ __forceinline__ bf16_t
store_as<bf16_t, float>(float v)
{
    return float_to_bf16(v);
}
template <> __host__ __device__ __forceinline__ bf16_t
store_as<bf16_t, double>(double v)
{
    return float_to_bf16((float)v);
}

using mt_cuda::blocks_for;
using mt_cuda::kMaxBlocks;
using mt_cuda::kThreads;
using mt_cuda::on_device;


} // namespace mt_dev

/* Calls F<T>(args...) with T the storage type of mt_cuda_dtype dt (a functor template). */
#define MT_DEV_DISPATCH_REAL(dt, F, ...)                                                           \
    switch (dt) {                                                                                  \
    case MT_CUDA_DT_BOOL: return F<bool>(__VA_ARGS__);                                             \
    case MT_CUDA_DT_UINT8: return F<uint8_t>(__VA_ARGS__);                                         \
    case MT_CUDA_DT_INT8: return F<int8_t>(__VA_ARGS__);                                           \
    case MT_CUDA_DT_INT16: return F<int16_t>(__VA_ARGS__);                                         \
    case MT_CUDA_DT_INT32: return F<int32_t>(__VA_ARGS__);                                         \
    case MT_CUDA_DT_INT64: return F<int64_t>(__VA_ARGS__);                                         \
    case MT_CUDA_DT_FLOAT16: return F<mt_dev::half_t>(__VA_ARGS__);                                \
    case MT_CUDA_DT_BFLOAT16: return F<mt_dev::bf16_t>(__VA_ARGS__);                               \
    case MT_CUDA_DT_FLOAT32: return F<float>(__VA_ARGS__);                                         \
    case MT_CUDA_DT_FLOAT64: return F<double>(__VA_ARGS__);                                        \
    default: break;                                                                                \
    }
#define MT_DEV_DISPATCH_EXTRA(dt, F, ...)                                                          \
    switch (dt) {                                                                                  \
    case MT_CUDA_DT_COMPLEX64: return F<mt_dev::c64_t>(__VA_ARGS__);                               \
    case MT_CUDA_DT_COMPLEX128: return F<mt_dev::c128_t>(__VA_ARGS__);                             \
    case MT_CUDA_DT_UINT16: return F<uint16_t>(__VA_ARGS__);                                       \
    case MT_CUDA_DT_UINT32: return F<uint32_t>(__VA_ARGS__);                                       \
    case MT_CUDA_DT_UINT64: return F<uint64_t>(__VA_ARGS__);                                       \
    default: break;                                                                                \
    }

#endif /* ATEN_LITE_CUDA_DEV_SCALARS_CUH */
