/* aten_lite/cuda/sequence.cu - arange and linspace on the device, element by element with the
 * cpu's formulas (aten_lite/factory.c). */
#include <stdint.h>

#include "aten_lite/cuda/dev_scalars.cuh"
#include "aten_lite/cuda/sequence.h"

namespace {

using namespace mt_dev;

/* x * y rounded once: never contracted with a following addition into a multiply-add, which
 * the cpu does not do either (so both compute the same doubles) */
__device__ __forceinline__ double
mul_rn(double x, double y)
{
#if defined(__CUDA_ARCH__)
    return __dmul_rn(x, y);
#else
    return x * y;
#endif
}

/* a double as the cpu's cast stores it: integers truncate (through int64, as x86's
 * conversion wraps), any non-zero value is true, 16-bit floats round through float */
template <typename T>
__device__ __forceinline__ T
from_double(double v)
{
    return (T)(int64_t)v;
}
template <> __device__ __forceinline__ bool from_double<bool>(double v) { return v != 0.0; }
template <> __device__ __forceinline__ float from_double<float>(double v) { return (float)v; }
template <> __device__ __forceinline__ double from_double<double>(double v) { return v; }
template <> __device__ __forceinline__ half_t from_double<half_t>(double v) { return store_as<half_t>(v); }
template <> __device__ __forceinline__ bf16_t from_double<bf16_t>(double v) { return store_as<bf16_t>(v); }
template <> __device__ __forceinline__ c64_t from_double<c64_t>(double v) { return c64_t{(float)v, 0.0f}; }
template <> __device__ __forceinline__ c128_t from_double<c128_t>(double v) { return c128_t{v, 0.0}; }
template <> __device__ __forceinline__ uint64_t from_double<uint64_t>(double v) { return (uint64_t)v; }

/* an int64 arange's element (only int64 results have one; the others convert as doubles) */
template <typename T>
__device__ __forceinline__ T
from_int64(int64_t v)
{
    return (T)v;
}
template <> __device__ __forceinline__ half_t from_int64<half_t>(int64_t v) { return from_double<half_t>((double)v); }
template <> __device__ __forceinline__ bf16_t from_int64<bf16_t>(int64_t v) { return from_double<bf16_t>((double)v); }
template <> __device__ __forceinline__ c64_t from_int64<c64_t>(int64_t v) { return from_double<c64_t>((double)v); }
template <> __device__ __forceinline__ c128_t from_int64<c128_t>(int64_t v) { return from_double<c128_t>((double)v); }

template <typename T>
__global__ void
sequence_kernel(mt_cuda_sequence s, T *dst, int64_t n)
{
    for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n;
         i += (int64_t)blockDim.x * gridDim.x) {
        if (s.kind == 0) {
            dst[i] = from_int64<T>((int64_t)((uint64_t)s.start_i + (uint64_t)i * (uint64_t)s.step_i));
            continue;
        }
        double v;
        if (s.kind == 1 || i < s.steps / 2 || s.steps == 1) {
            v = s.start + mul_rn((double)i, s.step);
        }
        else {
            v = s.end - mul_rn((double)(s.steps - 1 - i), s.step);
        }
        dst[i] = from_double<T>(v);
    }
}

template <typename T>
int
fill_as(int device, void *stream, const mt_cuda_sequence *s, char *dst, int64_t n)
{
    int64_t blocks = (n + kThreads - 1) / kThreads;
    blocks = blocks > 65535 ? 65535 : blocks < 1 ? 1 : blocks;
    return on_device(device, [&] {
        MT_CUDA_LAUNCH(sequence_kernel<T>, (unsigned)blocks, kThreads, 0, (cudaStream_t)stream,
                       *s, reinterpret_cast<T *>(dst), n);
    });
}

} // namespace

extern "C" int
mt_cuda_sequence_fill(int device, void *stream, mt_cuda_dtype dt, const mt_cuda_sequence *s,
                      char *dst, int64_t n)
{
    MT_DEV_DISPATCH_REAL(dt, fill_as, device, stream, s, dst, n)
    MT_DEV_DISPATCH_EXTRA(dt, fill_as, device, stream, s, dst, n)
    return mt_error_set(MT_ENOTIMPL, "arange: unknown dtype %d", (int)dt);
}
