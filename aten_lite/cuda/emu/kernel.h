/* aten_lite/cuda/emu/kernel.h - the CUDA execution model on the host, for kernel sources compiled
 * as C++ in the emulated build: qualifiers, built-in variables, shared memory, barriers, warp
 * operations, atomics, math intrinsics and the launch.  Included by <cuda_runtime.h> of the
 * emulator (C++ only).  See Note [CUDA emulator] in runtime.cpp. */
#ifndef ATEN_LITE_CUDA_EMU_KERNEL_H
#define ATEN_LITE_CUDA_EMU_KERNEL_H

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <tuple>
#include <type_traits>
#include <utility>

#include <cuda_runtime_api.h>

/* Note [Emulated kernels]
 * A kernel is an ordinary C++ function; each emulated thread runs it on its own fiber, so the
 * built-in variables below read the current fiber's record:
 *  - threadIdx/blockIdx/blockDim/gridDim are macros reading the records of the running fiber
 *    and block (thread-local pointers the block scheduler sets before it resumes a fiber);
 *    warpSize is 32.
 *  - __shared__ is `static thread_local`: a block runs from start to end on one OS thread
 *    (its fibers never migrate) and an OS thread runs one block at a time, so a thread-local
 *    static is exactly one copy per running block.  It is not cleared between blocks (nor is
 *    shared memory on a GPU).  The price: every OS thread that touches the extension's
 *    thread-locals holds a copy of all kernels' static shared arrays (a test build's cost).  Dynamic shared memory (`extern __shared__ T x[]` on a GPU) is
 *    written MT_DYNAMIC_SHARED(T, x) (aten_lite/cuda/cuda_compat.h), since `extern` cannot be
 *    rewritten by a macro.
 *  - __syncthreads() and the warp operations switch to the next fiber until every thread
 *    concerned has arrived; see Note [Block scheduler] in exec.cpp for the rules the emulator
 *    checks (a barrier that not every thread reaches is an error, not a hang).
 *  - Atomics are host atomics (blocks run in parallel on the emulator's thread pool).
 * __CUDA_ARCH__ is not defined: code under it is device-only code a host compiler would not
 * see; test MT_CUDA_EMULATED instead where the emulator needs another path. */

#define __global__
#define __device__
#define __host__
#define __constant__
#define __managed__
#define __grid_constant__
#define __forceinline__ inline __attribute__((always_inline))
#define __noinline__ __attribute__((noinline))
#define __align__(n) __attribute__((aligned(n)))
#define __launch_bounds__(...)
#define __shared__ static thread_local

namespace mt_emu {

/* the record of one emulated thread (the fiber's public part) */
struct ThreadCtx {
    uint3 idx;
    unsigned int linear, lane, warp;
};
/* the record of the running block */
struct BlockCtx {
    uint3 block_idx;
    dim3 block_dim, grid_dim;
    void *dyn_shared;
    size_t dyn_shared_bytes;
};
/* The running thread's and block's records.  Functions, not extern thread_local variables:
 * GCC 12 with -fsanitize=undefined miscompiles the null check of a thread-local's address
 * reached through its TLS wrapper in another file. */
ThreadCtx *current_thread();
BlockCtx *current_block();

enum BarrierKind { BAR_SYNC = 0, BAR_COUNT, BAR_AND, BAR_OR };
enum WarpOpKind {
    WARP_SYNC = 0,
    WARP_SHFL,
    WARP_SHFL_UP,
    WARP_SHFL_DOWN,
    WARP_SHFL_XOR,
    WARP_BALLOT,
    WARP_ALL,
    WARP_ANY,
    WARP_REDUCE_ADD,
    WARP_REDUCE_MIN_U,
    WARP_REDUCE_MAX_U,
    WARP_REDUCE_MIN_S,
    WARP_REDUCE_MAX_S,
    WARP_REDUCE_AND,
    WARP_REDUCE_OR,
    WARP_REDUCE_XOR,
    WARP_MATCH_ANY,
};

/* __syncthreads and its reducing forms: waits for every thread of the block; returns the
 * count/and/or of the predicates (0 for BAR_SYNC). */
int block_barrier(int kind, int pred);
/* A warp operation: waits for the lanes of `mask` (those the warp has), returns this lane's
 * result (value bits of up to 8 bytes). */
uint64_t warp_op(int kind, unsigned int mask, uint64_t value, int param, int width);
/* the mask of the live lanes of the calling thread's warp */
unsigned int active_mask();
/* A failed device-side assertion: the kernel fails with cudaErrorAssert; never returns. */
[[noreturn]] void device_assert_fail(const char *expr, const char *file, int line);
/* __trap(): the kernel fails with cudaErrorLaunchFailure; never returns. */
[[noreturn]] void trap();

/* ---- launch ---- */
struct KernelBase {
    virtual ~KernelBase() {}
    /* runs the kernel body as the current emulated thread */
    virtual void run() = 0;
    /* the raw pointer arguments (checked to be device or pinned memory before the launch runs) */
    virtual void pointer_args(const void **out, int max, int *n) const = 0;
};

template <class F, class Tuple>
struct Kernel final : KernelBase {
    F f;
    Tuple args;
    Kernel(F fn, Tuple &&a) : f(fn), args(std::move(a)) {}
    void run() override
    {
        Tuple copy = args; /* kernel parameters are per thread */
        std::apply(f, copy);
    }
    void pointer_args(const void **out, int max, int *n) const override
    {
        *n = 0;
        std::apply([&](const auto &...a) { (collect(a, out, max, n), ...); }, args);
    }

  private:
    template <class T>
    static void collect(const T &v, const void **out, int max, int *n)
    {
        if constexpr (std::is_pointer_v<T>) {
            if (*n < max) {
                out[(*n)++] = (const void *)v;
            }
        } else {
            (void)v;
            (void)out;
            (void)max;
            (void)n;
        }
    }
};

/* Queues k (owned: deleted by the runtime) on stream; launch errors go to cudaGetLastError. */
void launch_kernel(const void *func, dim3 grid, dim3 block, size_t shmem, cudaStream_t stream,
                   KernelBase *k);

template <class... P, class... A>
inline void
launch(void (*func)(P...), dim3 grid, dim3 block, size_t shmem, cudaStream_t stream, A &&...args)
{
    static_assert(sizeof...(P) == sizeof...(A),
                  "kernel launched with the wrong number of arguments");
    using Tuple = std::tuple<std::decay_t<P>...>;
    KernelBase *k = new Kernel<void (*)(P...), Tuple>(func, Tuple(std::forward<A>(args)...));
    launch_kernel(reinterpret_cast<const void *>(func), grid, block, shmem, stream, k);
}

template <class T>
inline T *
dynamic_shared()
{
    return static_cast<T *>(current_block()->dyn_shared);
}

template <class T>
inline uint64_t
to_bits(T v)
{
    static_assert(sizeof(T) <= 8 && std::is_trivially_copyable_v<T>,
                  "warp operations take values of at most 8 bytes");
    uint64_t b = 0;
    std::memcpy(&b, &v, sizeof(T));
    return b;
}

template <class T>
inline T
from_bits(uint64_t b)
{
    T v;
    std::memcpy(&v, &b, sizeof(T));
    return v;
}

/* atomics on the bit pattern, for types without a native fetch-op */
template <class T, class Op>
inline T
atomic_cas_loop(T *addr, Op op)
{
    using U = std::conditional_t<sizeof(T) == 8, unsigned long long,
                                 std::conditional_t<sizeof(T) == 4, unsigned int, unsigned short>>;
    static_assert(sizeof(T) == sizeof(U), "atomic on an unsupported size");
    U *p = reinterpret_cast<U *>(addr);
    U old = __atomic_load_n(p, __ATOMIC_RELAXED);
    for (;;) {
        T o;
        std::memcpy(&o, &old, sizeof(T));
        T n = op(o);
        U nb;
        std::memcpy(&nb, &n, sizeof(T));
        if (__atomic_compare_exchange_n(p, &old, nb, true, __ATOMIC_SEQ_CST, __ATOMIC_RELAXED)) {
            return o;
        }
    }
}

} /* namespace mt_emu */

#define threadIdx (::mt_emu::current_thread()->idx)
#define blockIdx (::mt_emu::current_block()->block_idx)
#define blockDim (::mt_emu::current_block()->block_dim)
#define gridDim (::mt_emu::current_block()->grid_dim)
inline constexpr int warpSize = 32;

/* ---- barriers and warp operations ---- */
inline void __syncthreads() { (void)::mt_emu::block_barrier(::mt_emu::BAR_SYNC, 0); }
inline int __syncthreads_count(int p) { return ::mt_emu::block_barrier(::mt_emu::BAR_COUNT, p); }
inline int __syncthreads_and(int p) { return ::mt_emu::block_barrier(::mt_emu::BAR_AND, p); }
inline int __syncthreads_or(int p) { return ::mt_emu::block_barrier(::mt_emu::BAR_OR, p); }
inline void __syncwarp(unsigned int mask = 0xffffffffu)
{
    (void)::mt_emu::warp_op(::mt_emu::WARP_SYNC, mask, 0, 0, 32);
}
inline unsigned int __activemask() { return ::mt_emu::active_mask(); }

template <class T>
inline T __shfl_sync(unsigned int mask, T var, int src_lane, int width = warpSize)
{
    return ::mt_emu::from_bits<T>(
        ::mt_emu::warp_op(::mt_emu::WARP_SHFL, mask, ::mt_emu::to_bits(var), src_lane, width));
}
template <class T>
inline T __shfl_up_sync(unsigned int mask, T var, unsigned int delta, int width = warpSize)
{
    return ::mt_emu::from_bits<T>(::mt_emu::warp_op(::mt_emu::WARP_SHFL_UP, mask,
                                                    ::mt_emu::to_bits(var), (int)delta, width));
}
template <class T>
inline T __shfl_down_sync(unsigned int mask, T var, unsigned int delta, int width = warpSize)
{
    return ::mt_emu::from_bits<T>(::mt_emu::warp_op(::mt_emu::WARP_SHFL_DOWN, mask,
                                                    ::mt_emu::to_bits(var), (int)delta, width));
}
template <class T>
inline T __shfl_xor_sync(unsigned int mask, T var, int lane_mask, int width = warpSize)
{
    return ::mt_emu::from_bits<T>(::mt_emu::warp_op(::mt_emu::WARP_SHFL_XOR, mask,
                                                    ::mt_emu::to_bits(var), lane_mask, width));
}
inline unsigned int __ballot_sync(unsigned int mask, int pred)
{
    return (unsigned int)::mt_emu::warp_op(::mt_emu::WARP_BALLOT, mask, pred != 0, 0, 32);
}
inline int __all_sync(unsigned int mask, int pred)
{
    return (int)::mt_emu::warp_op(::mt_emu::WARP_ALL, mask, pred != 0, 0, 32);
}
inline int __any_sync(unsigned int mask, int pred)
{
    return (int)::mt_emu::warp_op(::mt_emu::WARP_ANY, mask, pred != 0, 0, 32);
}
inline unsigned int __reduce_add_sync(unsigned int mask, unsigned int v)
{
    return (unsigned int)::mt_emu::warp_op(::mt_emu::WARP_REDUCE_ADD, mask, v, 0, 32);
}
inline int __reduce_add_sync(unsigned int mask, int v)
{
    return (int)::mt_emu::warp_op(::mt_emu::WARP_REDUCE_ADD, mask, (unsigned int)v, 0, 32);
}
inline unsigned int __reduce_min_sync(unsigned int mask, unsigned int v)
{
    return (unsigned int)::mt_emu::warp_op(::mt_emu::WARP_REDUCE_MIN_U, mask, v, 0, 32);
}
inline int __reduce_min_sync(unsigned int mask, int v)
{
    return (int)::mt_emu::warp_op(::mt_emu::WARP_REDUCE_MIN_S, mask, (unsigned int)v, 0, 32);
}
inline unsigned int __reduce_max_sync(unsigned int mask, unsigned int v)
{
    return (unsigned int)::mt_emu::warp_op(::mt_emu::WARP_REDUCE_MAX_U, mask, v, 0, 32);
}
inline int __reduce_max_sync(unsigned int mask, int v)
{
    return (int)::mt_emu::warp_op(::mt_emu::WARP_REDUCE_MAX_S, mask, (unsigned int)v, 0, 32);
}
inline unsigned int __reduce_and_sync(unsigned int mask, unsigned int v)
{
    return (unsigned int)::mt_emu::warp_op(::mt_emu::WARP_REDUCE_AND, mask, v, 0, 32);
}
inline unsigned int __reduce_or_sync(unsigned int mask, unsigned int v)
{
    return (unsigned int)::mt_emu::warp_op(::mt_emu::WARP_REDUCE_OR, mask, v, 0, 32);
}
inline unsigned int __reduce_xor_sync(unsigned int mask, unsigned int v)
{
    return (unsigned int)::mt_emu::warp_op(::mt_emu::WARP_REDUCE_XOR, mask, v, 0, 32);
}
template <class T>
inline unsigned int __match_any_sync(unsigned int mask, T v)
{
    return (unsigned int)::mt_emu::warp_op(::mt_emu::WARP_MATCH_ANY, mask, ::mt_emu::to_bits(v), 0,
                                           32);
}

[[noreturn]] inline void __trap() { ::mt_emu::trap(); }
inline void __threadfence() { __atomic_thread_fence(__ATOMIC_SEQ_CST); }
inline void __threadfence_block() { __atomic_thread_fence(__ATOMIC_SEQ_CST); }
inline void __threadfence_system() { __atomic_thread_fence(__ATOMIC_SEQ_CST); }

/* ---- atomics (return the old value) ---- */
#define MT__EMU_ATOMIC_INT(T)                                                                      \
    inline T atomicAdd(T *a, T v) { return __atomic_fetch_add(a, v, __ATOMIC_SEQ_CST); }           \
    inline T atomicSub(T *a, T v) { return __atomic_fetch_sub(a, v, __ATOMIC_SEQ_CST); }           \
    inline T atomicAnd(T *a, T v) { return __atomic_fetch_and(a, v, __ATOMIC_SEQ_CST); }           \
    inline T atomicOr(T *a, T v) { return __atomic_fetch_or(a, v, __ATOMIC_SEQ_CST); }             \
    inline T atomicXor(T *a, T v) { return __atomic_fetch_xor(a, v, __ATOMIC_SEQ_CST); }           \
    inline T atomicExch(T *a, T v) { return __atomic_exchange_n(a, v, __ATOMIC_SEQ_CST); }         \
    inline T atomicMax(T *a, T v)                                                                  \
    {                                                                                              \
        return ::mt_emu::atomic_cas_loop(a, [v](T o) { return o < v ? v : o; });                   \
    }                                                                                              \
    inline T atomicMin(T *a, T v)                                                                  \
    {                                                                                              \
        return ::mt_emu::atomic_cas_loop(a, [v](T o) { return v < o ? v : o; });                   \
    }                                                                                              \
    inline T atomicCAS(T *a, T cmp, T v)                                                           \
    {                                                                                              \
        __atomic_compare_exchange_n(a, &cmp, v, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);        \
        return cmp;                                                                                \
    }
MT__EMU_ATOMIC_INT(int)
MT__EMU_ATOMIC_INT(unsigned int)
MT__EMU_ATOMIC_INT(long long)
MT__EMU_ATOMIC_INT(unsigned long long)
#undef MT__EMU_ATOMIC_INT
inline unsigned short atomicCAS(unsigned short *a, unsigned short cmp, unsigned short v)
{
    __atomic_compare_exchange_n(a, &cmp, v, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
    return cmp;
}
inline float atomicAdd(float *a, float v)
{
    return ::mt_emu::atomic_cas_loop(a, [v](float o) { return o + v; });
}
inline double atomicAdd(double *a, double v)
{
    return ::mt_emu::atomic_cas_loop(a, [v](double o) { return o + v; });
}
inline float atomicExch(float *a, float v)
{
    return ::mt_emu::atomic_cas_loop(a, [v](float) { return v; });
}
/* sm_80+: ((old >= v) ? 0 : old + 1) and (((old == 0) | (old > v)) ? v : old - 1) */
inline unsigned int atomicInc(unsigned int *a, unsigned int v)
{
    return ::mt_emu::atomic_cas_loop(a, [v](unsigned int o) { return o >= v ? 0u : o + 1; });
}
inline unsigned int atomicDec(unsigned int *a, unsigned int v)
{
    return ::mt_emu::atomic_cas_loop(a,
                                     [v](unsigned int o) { return (o == 0 || o > v) ? v : o - 1; });
}

/* ---- loads, bit tricks, math intrinsics (as the host's) ---- */
template <class T>
inline T __ldg(const T *p) { return *p; }
inline int __popc(unsigned int x) { return __builtin_popcount(x); }
inline int __popcll(unsigned long long x) { return __builtin_popcountll(x); }
inline int __clz(int x) { return x == 0 ? 32 : __builtin_clz((unsigned int)x); }
inline int __clzll(long long x) { return x == 0 ? 64 : __builtin_clzll((unsigned long long)x); }
inline int __ffs(int x) { return __builtin_ffs(x); }
inline int __ffsll(long long x) { return __builtin_ffsll(x); }
inline unsigned int __brev(unsigned int x)
{
    x = ((x >> 1) & 0x55555555u) | ((x & 0x55555555u) << 1);
    x = ((x >> 2) & 0x33333333u) | ((x & 0x33333333u) << 2);
    x = ((x >> 4) & 0x0F0F0F0Fu) | ((x & 0x0F0F0F0Fu) << 4);
    x = ((x >> 8) & 0x00FF00FFu) | ((x & 0x00FF00FFu) << 8);
    return (x >> 16) | (x << 16);
}
inline unsigned int __umulhi(unsigned int a, unsigned int b)
{
    return (unsigned int)(((unsigned long long)a * b) >> 32);
}
inline unsigned long long __umul64hi(unsigned long long a, unsigned long long b)
{
    return (unsigned long long)(((unsigned __int128)a * b) >> 64);
}
inline int __mulhi(int a, int b) { return (int)(((long long)a * b) >> 32); }
inline float __int_as_float(int x) { return ::mt_emu::from_bits<float>((unsigned int)x); }
inline int __float_as_int(float x) { return (int)(unsigned int)::mt_emu::to_bits(x); }
inline float __uint_as_float(unsigned int x) { return ::mt_emu::from_bits<float>(x); }
inline unsigned int __float_as_uint(float x) { return (unsigned int)::mt_emu::to_bits(x); }
inline double __longlong_as_double(long long x)
{
    return ::mt_emu::from_bits<double>((unsigned long long)x);
}
inline long long __double_as_longlong(double x) { return (long long)::mt_emu::to_bits(x); }

inline float __fdividef(float a, float b) { return a / b; }
inline float __frcp_rn(float a) { return 1.0f / a; }
inline float __fsqrt_rn(float a) { return std::sqrt(a); }
inline float __frsqrt_rn(float a) { return 1.0f / std::sqrt(a); }
inline float __fmaf_rn(float a, float b, float c) { return std::fma(a, b, c); }
inline float __fmul_rn(float a, float b) { return a * b; }
inline float __fadd_rn(float a, float b) { return a + b; }
inline float __saturatef(float a)
{
    return a < 0.0f ? 0.0f : (a > 1.0f ? 1.0f : (a == a ? a : 0.0f));
}
inline float rsqrtf(float a) { return 1.0f / std::sqrt(a); }
inline double rsqrt(double a) { return 1.0 / std::sqrt(a); }
inline float rcbrtf(float a) { return 1.0f / std::cbrt(a); }
inline float normcdff(float a) { return 0.5f * std::erfc(-a * 0.70710678118654752f); }
inline double normcdf(double a) { return 0.5 * std::erfc(-a * 0.70710678118654752); }
inline float exp10f_emu(float a) { return std::pow(10.0f, a); }
inline int __float2int_rn(float a) { return (int)std::nearbyint(a); }
inline int __float2int_rz(float a) { return (int)a; }
inline float __int2float_rn(int a) { return (float)a; }
/* glibc's math.h declares __expf and friends itself: these are macros, not functions */
#define __expf(x) (::std::exp((float)(x)))
#define __logf(x) (::std::log((float)(x)))
#define __log2f(x) (::std::log2((float)(x)))
#define __log10f(x) (::std::log10((float)(x)))
#define __sinf(x) (::std::sin((float)(x)))
#define __cosf(x) (::std::cos((float)(x)))
#define __tanf(x) (::std::tan((float)(x)))
#define __powf(x, y) (::std::pow((float)(x), (float)(y)))
#define __exp10f(x) (exp10f_emu((float)(x)))

/* CUDA's min/max: overloads for mixed integer and floating-point arguments */
template <class A, class B>
inline std::common_type_t<A, B> min(A a, B b)
{
    using C = std::common_type_t<A, B>;
    if constexpr (std::is_floating_point_v<C>) {
        return std::fmin((C)a, (C)b);
    } else {
        return (C)b < (C)a ? (C)b : (C)a;
    }
}
template <class A, class B>
inline std::common_type_t<A, B> max(A a, B b)
{
    using C = std::common_type_t<A, B>;
    if constexpr (std::is_floating_point_v<C>) {
        return std::fmax((C)a, (C)b);
    } else {
        return (C)a < (C)b ? (C)b : (C)a;
    }
}

#endif /* ATEN_LITE_CUDA_EMU_KERNEL_H */
