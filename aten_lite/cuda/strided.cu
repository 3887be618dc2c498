/* aten_lite/cuda/strided.cu - the generic kernels over an iterator's geometry: strided copies,
 * and fills (Note [Launch geometry] in kernels.h). */
#include <math.h>
#include <stdint.h>

#include "aten_lite/cuda/cuda_compat.h"
#include "aten_lite/cuda/launch.cuh"
#include "aten_lite/cuda/kernels.h"

extern "C" {
#include "c10_lite/error.h"
}

namespace {

using mt_cuda::blocks_for;
using mt_cuda::kMaxBlocks;
using mt_cuda::kThreads;
using mt_cuda::on_device;


/* byte offset of element i in operand op */
__device__ __forceinline__ int64_t
offset_of(const mt_cuda_geom &g, int64_t i, int op)
{
    int64_t off = 0;
    for (int d = 0; d < g.ndim; d++) {
        int64_t k = i % g.shape[d];
        i /= g.shape[d];
        off += k * g.strides[d][op];
    }
    return off;
}

template <int N> struct alignas(N < 8 ? N : 8) elem_bytes {
    unsigned char b[N];
};

template <typename E>
__global__ void
copy_kernel(mt_cuda_geom g, char *dst, const char *src)
{
    for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < g.numel;
         i += (int64_t)blockDim.x * gridDim.x) {
        *reinterpret_cast<E *>(dst + offset_of(g, i, 0)) =
            *reinterpret_cast<const E *>(src + offset_of(g, i, 1));
    }
}

template <typename E>
__global__ void
fill_kernel(mt_cuda_geom g, char *dst, E value)
{
    for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < g.numel;
         i += (int64_t)blockDim.x * gridDim.x) {
        *reinterpret_cast<E *>(dst + offset_of(g, i, 0)) = value;
    }
}


template <typename E>
int
copy_as(int device, void *stream, const mt_cuda_geom *g, char *dst, const char *src)
{
    return on_device(device, [&] {
        MT_CUDA_LAUNCH(copy_kernel<E>, blocks_for(g->numel), kThreads, 0, (cudaStream_t)stream,
                       *g, dst, src);
    });
}

template <typename E>
int
fill_as(int device, void *stream, const mt_cuda_geom *g, char *dst, const void *pattern)
{
    E v;
    __builtin_memcpy(&v, pattern, sizeof(E));
    return on_device(device, [&] {
        MT_CUDA_LAUNCH(fill_kernel<E>, blocks_for(g->numel), kThreads, 0, (cudaStream_t)stream,
                       *g, dst, v);
    });
}

} // namespace

extern "C" int
mt_cuda_strided_copy(int device, void *stream, const mt_cuda_geom *g, char *dst, const char *src,
                     int itemsize)
{
    switch (itemsize) {
    case 1:
        return copy_as<elem_bytes<1>>(device, stream, g, dst, src);
    case 2:
        return copy_as<elem_bytes<2>>(device, stream, g, dst, src);
    case 4:
        return copy_as<elem_bytes<4>>(device, stream, g, dst, src);
    case 8:
        return copy_as<elem_bytes<8>>(device, stream, g, dst, src);
    case 16:
        return copy_as<elem_bytes<16>>(device, stream, g, dst, src);
    }
    return mt_error_set(MT_EINVAL, "mt_cuda_strided_copy: bad element size %d", itemsize);
}

extern "C" int
mt_cuda_strided_fill(int device, void *stream, const mt_cuda_geom *g, char *dst,
                     const void *pattern, int itemsize)
{
    switch (itemsize) {
    case 1:
        return fill_as<elem_bytes<1>>(device, stream, g, dst, pattern);
    case 2:
        return fill_as<elem_bytes<2>>(device, stream, g, dst, pattern);
    case 4:
        return fill_as<elem_bytes<4>>(device, stream, g, dst, pattern);
    case 8:
        return fill_as<elem_bytes<8>>(device, stream, g, dst, pattern);
    case 16:
        return fill_as<elem_bytes<16>>(device, stream, g, dst, pattern);
    }
    return mt_error_set(MT_EINVAL, "mt_cuda_strided_fill: bad element size %d", itemsize);
}
