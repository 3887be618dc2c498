/* aten_lite/cuda/cuda_compat.h - what CUDA sources include, in the real build (nvcc + cudart)
 * and in the emulated one (MINITORCH_CUDA=EMULATE: the host emulator of aten_lite/cuda/emu):
 * the runtime, half/bfloat16, and the macros that differ between the two. */
#ifndef ATEN_LITE_CUDA_CUDA_COMPAT_H
#define ATEN_LITE_CUDA_CUDA_COMPAT_H

/* The emulated build puts aten_lite/cuda/emu/include first on the include path, so these are
 * the emulator's headers there and the toolkit's otherwise. */
#include <cuda_runtime.h>

/* Note [One kernel source]
 * Every kernel call site is written
 *     MT_CUDA_LAUNCH(kernel, grid, block, shared_bytes, stream, args...);
 * (a template kernel whose arguments hold a comma goes in parentheses: (k<float, 4>)), which
 * is kernel<<<grid, block, shared_bytes, stream>>>(args...) under nvcc and the emulator's
 * launch otherwise; as with <<<>>>, launch errors are read with cudaGetLastError().  Dynamic
 * shared memory is declared inside the kernel as MT_DYNAMIC_SHARED(T, name), a `T *name`.
 * MT_CUDA_KERNEL_ASSERT(cond) fails the kernel with cudaErrorAssert when cond is false.
 * Kernels must not need what the emulator gives and a GPU does not: no host calls, no
 * reliance on the order of blocks, no spinning on other blocks, every thread of a block at
 * every __syncthreads(). */
#if defined(MT_CUDA_EMULATED)
#ifdef __cplusplus
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#endif
#define MT_CUDA_LAUNCH(kernel, grid, block, shmem, stream, ...)                                    \
    ::mt_emu::launch(kernel, dim3(grid), dim3(block), (size_t)(shmem), (stream), ##__VA_ARGS__)
#define MT_DYNAMIC_SHARED(T, name) T *name = ::mt_emu::dynamic_shared<T>()
#define MT_CUDA_KERNEL_ASSERT(cond)                                                                \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            ::mt_emu::device_assert_fail(#cond, __FILE__, __LINE__);                               \
        }                                                                                          \
    } while (0)
#else
#include <assert.h>
#ifdef __cplusplus
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#endif
#define MT_CUDA_LAUNCH(kernel, grid, block, shmem, stream, ...)                                    \
    kernel<<<(grid), (block), (shmem), (stream)>>>(__VA_ARGS__)
#define MT_DYNAMIC_SHARED(T, name)                                                                 \
    extern __shared__ __align__(16) unsigned char mt__dynamic_shared[];                            \
    T *name = reinterpret_cast<T *>(mt__dynamic_shared)
/* not assert(): it must hold in release builds (NDEBUG) too */
#define MT_CUDA_KERNEL_ASSERT(cond)                                                                \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            __assert_fail(#cond, __FILE__, (unsigned int)__LINE__, __func__);                     \
        }                                                                                          \
    } while (0)
#endif

#endif /* ATEN_LITE_CUDA_CUDA_COMPAT_H */
