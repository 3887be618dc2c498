/* aten_lite/cuda/cast.cu - the converting copy between two dtypes on one device (Note [CUDA
 * casts] in elementwise.h), over an iterator's launch geometry. */
#include "aten_lite/cuda/elementwise.cuh"

namespace mt_ew {
namespace {

/* dst (operand 0) <- src (operand 1): the source read in its compute type S (exact: S is
 * the source dtype's own type, float for float16/bfloat16), then converted to the
 * destination's dtype as the cpu's cast loops do */
template <typename S>
__global__ void
cast_kernel(mt_cuda_geom g, char *dst, int ddt, const char *src, int sdt)
{
    const int64_t step = (int64_t)blockDim.x * gridDim.x;
    for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < g.numel; i += step) {
        int64_t off[2];
        offsets<2>(g, i, off);
        store_dyn<S>(dst + off[0], ddt, load_dyn<S>(src + off[1], sdt));
    }
}

/* the contiguous float32 <-> float16/bfloat16 casts, the common ones, with typed loads */
template <typename D, typename S>
__global__ void
cast_contiguous_kernel(int64_t n, D *dst, const S *src)
{
    const int64_t step = (int64_t)blockDim.x * gridDim.x;
    for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n; i += step) {
        if constexpr (std::is_same<S, float>::value && std::is_same<D, mt_half>::value) {
            dst[i] = mt_float_to_half(src[i]);
        }
        else if constexpr (std::is_same<S, float>::value) {
            dst[i] = mt_float_to_bfloat16(src[i]);
        }
        else if constexpr (std::is_same<S, mt_half>::value) {
            dst[i] = mt_half_to_float(src[i]);
        }
        else {
            dst[i] = mt_bfloat16_to_float(src[i]);
        }
    }
}

template <typename S>
int
cast_from(int device, void *stream, const mt_cuda_geom *g, char *dst, int ddt, const char *src,
          int sdt)
{
    return on_device(device, [&] {
        MT_CUDA_LAUNCH(cast_kernel<S>, blocks_for(g->numel), kThreads, 0, (cudaStream_t)stream,
                       *g, dst, ddt, src, sdt);
    });
}

template <typename D, typename S>
int
cast_contiguous(int device, void *stream, int64_t n, char *dst, const char *src)
{
    return on_device(device, [&] {
        MT_CUDA_LAUNCH((cast_contiguous_kernel<D, S>), blocks_for(n), kThreads, 0,
                       (cudaStream_t)stream, n, reinterpret_cast<D *>(dst),
                       reinterpret_cast<const S *>(src));
    });
}

} // namespace
} // namespace mt_ew

extern "C" int
mt_cuda_cast(int device, void *stream, const mt_cuda_geom *g, char *dst, int ddt, const char *src,
             int sdt)
{
    using namespace mt_ew;
    if (g->numel == 0) {
        return MT_OK;
    }
    const bool dense = g->contiguous && g->ndim == 1 && g->strides[0][1] != 0;
    if (dense && sdt == MT_FLOAT32 && ddt == MT_FLOAT16) {
        return cast_contiguous<mt_half, float>(device, stream, g->numel, dst, src);
    }
    if (dense && sdt == MT_FLOAT32 && ddt == MT_BFLOAT16) {
        return cast_contiguous<mt_bfloat16, float>(device, stream, g->numel, dst, src);
    }
    if (dense && sdt == MT_FLOAT16 && ddt == MT_FLOAT32) {
        return cast_contiguous<float, mt_half>(device, stream, g->numel, dst, src);
    }
    if (dense && sdt == MT_BFLOAT16 && ddt == MT_FLOAT32) {
        return cast_contiguous<float, mt_bfloat16>(device, stream, g->numel, dst, src);
    }
    switch (sdt) {
    case MT_BOOL:
        return cast_from<bool>(device, stream, g, dst, ddt, src, sdt);
    case MT_UINT8:
        return cast_from<uint8_t>(device, stream, g, dst, ddt, src, sdt);
    case MT_INT8:
        return cast_from<int8_t>(device, stream, g, dst, ddt, src, sdt);
    case MT_INT16:
        return cast_from<int16_t>(device, stream, g, dst, ddt, src, sdt);
    case MT_INT32:
        return cast_from<int32_t>(device, stream, g, dst, ddt, src, sdt);
    case MT_INT64:
        return cast_from<int64_t>(device, stream, g, dst, ddt, src, sdt);
    case MT_FLOAT16:
    case MT_BFLOAT16:
    case MT_FLOAT32:
        return cast_from<float>(device, stream, g, dst, ddt, src, sdt);
    case MT_FLOAT64:
        return cast_from<double>(device, stream, g, dst, ddt, src, sdt);
    case MT_COMPLEX64:
        return cast_from<cplx<float>>(device, stream, g, dst, ddt, src, sdt);
    case MT_COMPLEX128:
        return cast_from<cplx<double>>(device, stream, g, dst, ddt, src, sdt);
    case MT_UINT16:
        return cast_from<uint16_t>(device, stream, g, dst, ddt, src, sdt);
    case MT_UINT32:
        return cast_from<uint32_t>(device, stream, g, dst, ddt, src, sdt);
    case MT_UINT64:
        return cast_from<uint64_t>(device, stream, g, dst, ddt, src, sdt);
    default:
        return mt_error_set(MT_EINVAL, "mt_cuda_cast: bad dtype %d", sdt);
    }
}
