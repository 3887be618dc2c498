/* aten_lite/cuda/optim.cu - the fused Adam/AdamW step on a device: a thread per element, the
 * element math of aten_lite/optim_math.h (the cpu loops' own), so both devices compute the same
 * values. */
#include <math.h>
#include <stdint.h>

#include "aten_lite/cuda/launch.cuh"
#include "aten_lite/cuda/optim.h"


namespace {

template <typename T> struct adam_constants {
    MT_ADAM_CONSTANTS_FIELDS(T)
};

__device__ __forceinline__ float
adam_sqrt(float v)
{
    return sqrtf(v);
}

__device__ __forceinline__ double
adam_sqrt(double v)
{
    return sqrt(v);
}

template <typename T>
__global__ void
adam_kernel(mt_cuda_adam_geom g, char *p0, char *m0, char *v0, char *x0, const char *g0,
            adam_constants<T> k)
{
    const adam_constants<T> *K = &k;
    const bool ams = x0 != nullptr;
    const int gi = ams ? 4 : 3;
    for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < g.numel;
         i += (int64_t)blockDim.x * gridDim.x) {
        int64_t off[5] = {0, 0, 0, 0, 0}, rest = i;
        for (int d = 0; d < g.ndim; d++) {
            const int64_t c = rest % g.shape[d];
            rest /= g.shape[d];
            for (int o = 0; o < g.nop; o++) {
                off[o] += c * g.strides[d][o];
            }
        }
        T *pp = (T *)(p0 + off[0]), *pm = (T *)(m0 + off[1]), *pv = (T *)(v0 + off[2]);
        T *px = ams ? (T *)(x0 + off[3]) : nullptr;
        T p = *pp, m = *pm, v = *pv, x = ams ? *px : T(0);
        T gr = *(const T *)(g0 + off[gi]);
        MT_ADAM_ELEM(T, adam_sqrt, K, p, m, v, x, gr, K->l2, K->lerp_low, ams);
        *pp = p;
        *pm = m;
        *pv = v;
        if (ams) {
            *px = x;
        }
    }
}

template <typename T>
int
adam_as(int device, void *stream, const mt_cuda_adam_geom *g, char *const *data,
        const mt_adam_hyper *h)
{
    adam_constants<T> k;
    MT_ADAM_CONSTANTS_SET(T, &k, h);
    const bool ams = g->nop == 5;
    return mt_cuda::on_device(device, [&] {
        MT_CUDA_LAUNCH(adam_kernel<T>, mt_cuda::blocks_for(g->numel), mt_cuda::kThreads, 0,
                       (cudaStream_t)stream, *g, data[0], data[1], data[2],
                       ams ? data[3] : nullptr, (const char *)data[g->nop - 1], k);
    });
}

} // namespace

extern "C" int
mt_cuda_adam_step(int device, void *stream, int is_double, const mt_cuda_adam_geom *g,
                  char *const *data, const mt_adam_hyper *h)
{
    return is_double ? adam_as<double>(device, stream, g, data, h)
                     : adam_as<float>(device, stream, g, data, h);
}
