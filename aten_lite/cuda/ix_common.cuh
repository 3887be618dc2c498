/* aten_lite/cuda/ix_common.cuh - device helpers shared by the index and sort kernels
 * (aten_lite/cuda/index.cu, aten_lite/cuda/sort.cu): launching on a device, strided walks,
 * element types with their arithmetic types, and atomic read-modify-write of any element size.
 * C++ only; included by .cu sources. */
#ifndef ATEN_LITE_CUDA_IX_COMMON_CUH
#define ATEN_LITE_CUDA_IX_COMMON_CUH

#include <stdint.h>
#include <string.h>

#include <type_traits>

#include "aten_lite/cuda/cuda_compat.h"
#include "aten_lite/cuda/launch.cuh"
#include "aten_lite/cuda/index.h"

extern "C" {
#include "c10_lite/error.h"
}

namespace mt_ix {

using mt_cuda::blocks_for;
using mt_cuda::kMaxBlocks;
using mt_cuda::kThreads;
using mt_cuda::on_device;



#define MT_IX_LOOP(i, n)                                                                           \
    for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < (n);                      \
         i += (int64_t)blockDim.x * gridDim.x)

/* element offset of row-major position i of a walk */
__device__ __forceinline__ int64_t
walk_offset(const mt_cuda_walk &w, int64_t i)
{
    int64_t off = 0;
    for (int d = w.ndim - 1; d >= 0; d--) {
        const int64_t s = w.sizes[d];
        off += (i % s) * w.strides[d];
        i /= s;
    }
    return off;
}

__device__ __forceinline__ int
index_itemsize(int idt)
{
    switch (idt) {
    case MT_CUDA_DT_I64:
        return 8;
    case MT_CUDA_DT_I32:
        return 4;
    case MT_CUDA_DT_I16:
        return 2;
    default:
        return 1;
    }
}

/* an integer index of element type idt at p */
__device__ __forceinline__ int64_t
read_index(const char *p, int idt)
{
    switch (idt) {
    case MT_CUDA_DT_I64:
        return *reinterpret_cast<const int64_t *>(p);
    case MT_CUDA_DT_I32:
        return *reinterpret_cast<const int32_t *>(p);
    case MT_CUDA_DT_I16:
        return *reinterpret_cast<const int16_t *>(p);
    case MT_CUDA_DT_I8:
        return *reinterpret_cast<const int8_t *>(p);
    default:
        return *reinterpret_cast<const uint8_t *>(p);
    }
}

template <int N> struct alignas(N < 8 ? N : 8) raw {
    unsigned char b[N];
};

/* ---- element types: storage S, arithmetic type A (as the cpu's MT_LOAD/MT_STORE) ---- */
struct f16 {
    uint16_t bits;
};
struct bf16 {
    uint16_t bits;
};
struct c64 {
    float re, im;
};
struct c128 {
    double re, im;
};

template <typename To, typename From>
__device__ __forceinline__ To
bit_cast(From f)
{
    static_assert(sizeof(To) == sizeof(From), "bit_cast sizes");
    To t;
    memcpy(&t, &f, sizeof(To));
    return t;
}

/* IEEE binary16 -> binary32, exact */
__device__ __forceinline__ float
half_to_float(uint16_t h)
{
    const uint32_t sign = (uint32_t)(h & 0x8000u) << 16;
    uint32_t exp = (h >> 10) & 0x1fu, man = h & 0x3ffu;
    if (exp == 0x1fu) {
        return bit_cast<float>(sign | 0x7f800000u | (man << 13));
    }
    if (exp == 0) {
        /* zero or subnormal: man * 2^-24 */
        const float v = (float)man * 5.9604644775390625e-08f;
        return sign ? -v : v;
    }
    return bit_cast<float>(sign | ((exp + 112u) << 23) | (man << 13));
}

/* binary32 -> binary16, round to nearest even, NaN quiet, overflow to Inf (the cpu's rule) */
__device__ __forceinline__ uint16_t
float_to_half(float f)
{
    const uint32_t x = bit_cast<uint32_t>(f);
    const uint32_t sign = (x >> 16) & 0x8000u;
    const uint32_t absx = x & 0x7fffffffu;
    if (absx >= 0x47800000u) { /* >= 65536: Inf, or NaN */
        return (uint16_t)(sign | (absx > 0x7f800000u ? 0x7e00u : 0x7c00u));
    }
    if (absx < 0x38800000u) { /* below 2^-14: subnormal or zero, rounded by the addition */
        const float fa = bit_cast<float>(absx) + 0.5f;
        return (uint16_t)(sign | (bit_cast<uint32_t>(fa) - 0x3f000000u));
    }
    const uint32_t norm = (absx + ((uint32_t)(15 - 127) << 23) + 0xfffu + ((absx >> 13) & 1u)) >> 13;
    return (uint16_t)(sign | norm);
}

__device__ __forceinline__ float
bf16_to_float(uint16_t b)
{
    return bit_cast<float>((uint32_t)b << 16);
}

__device__ __forceinline__ uint16_t
float_to_bf16(float f)
{
    uint32_t x = bit_cast<uint32_t>(f);
    if ((x & 0x7fffffffu) > 0x7f800000u) {
        return (uint16_t)((x >> 16) | 0x40u);
    }
    x += 0x7fffu + ((x >> 16) & 1u);
    return (uint16_t)(x >> 16);
}

template <typename S> struct elem {
    using A = S;
    static __device__ __forceinline__ A ld(S v) { return v; }
    static __device__ __forceinline__ S st(A a) { return a; }
};
template <> struct elem<f16> {
    using A = float;
    static __device__ __forceinline__ A ld(f16 v) { return half_to_float(v.bits); }
    static __device__ __forceinline__ f16 st(A a) { return f16{float_to_half(a)}; }
};
template <> struct elem<bf16> {
    using A = float;
    static __device__ __forceinline__ A ld(bf16 v) { return bf16_to_float(v.bits); }
    static __device__ __forceinline__ bf16 st(A a) { return bf16{float_to_bf16(a)}; }
};

/* ---- atomics: *addr <- f(*addr), for elements of 1, 2, 4 or 8 bytes ----
 * 4- and 8-byte elements compare-and-swap their own word; 1- and 2-byte ones the aligned
 * 32-bit word that holds them (device allocations are at least 4-byte aligned and sized). */
template <typename T, typename F>
__device__ __forceinline__ void
atomic_update(T *addr, F f)
{
    if constexpr (sizeof(T) == 4) {
        unsigned int *p = reinterpret_cast<unsigned int *>(addr);
        unsigned int old = *reinterpret_cast<volatile unsigned int *>(p), assumed;
        do {
            assumed = old;
            const unsigned int nv = bit_cast<unsigned int>(f(bit_cast<T>(assumed)));
            old = atomicCAS(p, assumed, nv);
        } while (old != assumed);
    }
    else if constexpr (sizeof(T) == 8) {
        unsigned long long *p = reinterpret_cast<unsigned long long *>(addr);
        unsigned long long old = *reinterpret_cast<volatile unsigned long long *>(p), assumed;
        do {
            assumed = old;
            const unsigned long long nv = bit_cast<unsigned long long>(f(bit_cast<T>(assumed)));
            old = atomicCAS(p, assumed, nv);
        } while (old != assumed);
    }
    else {
        static_assert(sizeof(T) == 1 || sizeof(T) == 2, "atomic_update: element size");
        using U = typename std::conditional<sizeof(T) == 1, uint8_t, uint16_t>::type;
        const uintptr_t a = reinterpret_cast<uintptr_t>(addr);
        unsigned int *p = reinterpret_cast<unsigned int *>(a & ~(uintptr_t)3);
        const unsigned int shift = (unsigned int)(a & 3u) * 8u;
        const unsigned int mask = (unsigned int)((1u << (8 * sizeof(T))) - 1u) << shift;
        unsigned int old = *reinterpret_cast<volatile unsigned int *>(p), assumed;
        do {
            assumed = old;
            const T cur = bit_cast<T>((U)((assumed & mask) >> shift));
            const unsigned int nb = (unsigned int)bit_cast<U>(f(cur));
            old = atomicCAS(p, assumed, (assumed & ~mask) | ((nb << shift) & mask));
        } while (old != assumed);
    }
}

} // namespace mt_ix

#endif /* ATEN_LITE_CUDA_IX_COMMON_CUH */
