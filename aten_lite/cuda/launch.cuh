/* aten_lite/cuda/launch.cuh - what the kernel sources of aten_lite/cuda share: the launch on a
 * device with its error read back, grid sizes, and block-wide reductions (C++, CUDA sources
 * only; compiled by nvcc or against the emulator, Note [One kernel source]). */
#ifndef ATEN_LITE_CUDA_LAUNCH_CUH
#define ATEN_LITE_CUDA_LAUNCH_CUH

#include <stdint.h>

#include <type_traits>

#include "aten_lite/cuda/cuda_compat.h"

extern "C" {
#include "c10_lite/error.h"
}

namespace mt_cuda {

/* threads per block of the one-dimensional kernels (a multiple of the warp size) */
constexpr int kThreads = 256;
constexpr int64_t kMaxBlocks = 65535;

/* a grid of blocks of `threads` for n elements, each thread striding over the rest */
inline unsigned int
blocks_for(int64_t n, int threads = kThreads)
{
    int64_t b = (n + threads - 1) / threads;
    return (unsigned int)(b < 1 ? 1 : (b > kMaxBlocks ? kMaxBlocks : b));
}

/* Runs launch() with `device` current (restored after) and reads the launch's error back:
 * MT_OK, or MT_ERUNTIME with "CUDA error: ...". */
template <typename F>
int
on_device(int device, F launch)
{
    int prev = 0;
    cudaError_t e = cudaGetDevice(&prev);
    if (e == cudaSuccess && prev != device) {
        e = cudaSetDevice(device);
    }
    if (e == cudaSuccess) {
        launch();
        e = cudaGetLastError();
    }
    if (prev != device) {
        cudaSetDevice(prev);
    }
    if (e != cudaSuccess) {
        return mt_error_set(MT_ERUNTIME, "CUDA error: %s", cudaGetErrorString(e));
    }
    return MT_OK;
}

/* a + b and a * b of integers that wrap around, as the cpu's integer sums and products do
 * (signed overflow is undefined in C++: computed in the unsigned type) */
template <typename A>
__host__ __device__ __forceinline__ A
wrap_add(A a, A b)
{
    typedef typename std::make_unsigned<A>::type U;
    return (A)((U)a + (U)b);
}

template <typename A>
__host__ __device__ __forceinline__ A
wrap_mul(A a, A b)
{
    typedef typename std::make_unsigned<A>::type U;
    return (A)((U)a * (U)b);
}

struct sum_op {
    template <typename T> __device__ __forceinline__ T operator()(T a, T b) const { return a + b; }
};
/* the larger, NaN winning (torch's max propagates NaN) */
struct max_op {
    template <typename T> __device__ __forceinline__ T operator()(T a, T b) const
    {
        return (a > b || a != a) ? a : b;
    }
};

/* op over the values of a warp; every lane gets the result */
template <typename T, typename Op>
__device__ __forceinline__ T
warp_allreduce(T v, Op op)
{
    for (int off = 16; off > 0; off >>= 1) {
        v = op(v, __shfl_xor_sync(0xffffffffu, v, off));
    }
    return v;
}

/* op over one value per thread of the block (blockDim.x a multiple of 32, at most 1024);
 * every thread gets the result.  Every thread of the block must call it; `scratch` is 32
 * values of shared memory, free again when the call returns. */
template <typename T, typename Op>
__device__ __forceinline__ T
block_allreduce(T v, Op op, T *scratch)
{
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5, nwarps = blockDim.x >> 5;
    v = warp_allreduce(v, op);
    if (lane == 0) {
        scratch[warp] = v;
    }
    __syncthreads();
    T r = scratch[0];
    for (int w = 1; w < nwarps; w++) {
        r = op(r, scratch[w]);
    }
    __syncthreads(); /* scratch may be reused at once */
    return r;
}

} // namespace mt_cuda

#endif /* ATEN_LITE_CUDA_LAUNCH_CUH */
