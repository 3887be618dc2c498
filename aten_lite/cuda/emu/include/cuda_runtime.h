/* aten_lite/cuda/emu/include/cuda_runtime.h - the emulator's <cuda_runtime.h>: the runtime API
 * (C and C++) and, for C++ (kernel sources), the execution model of ../kernel.h. */
#ifndef ATEN_LITE_CUDA_EMU_INCLUDE_CUDA_RUNTIME_H
#define ATEN_LITE_CUDA_EMU_INCLUDE_CUDA_RUNTIME_H

#include <cuda_runtime_api.h>

#ifdef __cplusplus
/* the C++ conveniences of the real header: typed pointers */
template <class T>
static inline cudaError_t
cudaMalloc(T **devPtr, size_t size)
{
    return cudaMalloc(reinterpret_cast<void **>(devPtr), size);
}
template <class T>
static inline cudaError_t
cudaMallocHost(T **ptr, size_t size)
{
    return cudaMallocHost(reinterpret_cast<void **>(ptr), size);
}
template <class T>
static inline cudaError_t
cudaHostAlloc(T **ptr, size_t size, unsigned int flags)
{
    return cudaHostAlloc(reinterpret_cast<void **>(ptr), size, flags);
}
template <class T>
static inline cudaError_t
cudaFuncSetAttribute(T *entry, enum cudaFuncAttribute attr, int value)
{
    return cudaFuncSetAttribute(reinterpret_cast<const void *>(entry), attr, value);
}
template <class T>
static inline cudaError_t
cudaOccupancyMaxActiveBlocksPerMultiprocessor(int *numBlocks, T *func, int blockSize,
                                              size_t dynamicSMemSize)
{
    return cudaOccupancyMaxActiveBlocksPerMultiprocessor(
        numBlocks, reinterpret_cast<const void *>(func), blockSize, dynamicSMemSize);
}

/* __constant__ and __device__ variables are host globals: the symbol is the variable */
template <class T>
static inline cudaError_t
cudaMemcpyToSymbol(const T &symbol, const void *src, size_t count, size_t offset = 0,
                   enum cudaMemcpyKind kind = cudaMemcpyHostToDevice)
{
    if (kind != cudaMemcpyHostToDevice && kind != cudaMemcpyDeviceToDevice &&
        kind != cudaMemcpyDefault) {
        return cudaErrorInvalidMemcpyDirection;
    }
    if (offset > sizeof(T) || count > sizeof(T) - offset) {
        return cudaErrorInvalidValue;
    }
    return mtEmuMemcpySymbol((char *)&symbol + offset, src, count);
}
template <class T>
static inline cudaError_t
cudaMemcpyFromSymbol(void *dst, const T &symbol, size_t count, size_t offset = 0,
                     enum cudaMemcpyKind kind = cudaMemcpyDeviceToHost)
{
    if (kind != cudaMemcpyDeviceToHost && kind != cudaMemcpyDeviceToDevice &&
        kind != cudaMemcpyDefault) {
        return cudaErrorInvalidMemcpyDirection;
    }
    if (offset > sizeof(T) || count > sizeof(T) - offset) {
        return cudaErrorInvalidValue;
    }
    return mtEmuMemcpySymbol(dst, (const char *)&symbol + offset, count);
}

#include "../kernel.h"
#endif

#endif /* ATEN_LITE_CUDA_EMU_INCLUDE_CUDA_RUNTIME_H */
