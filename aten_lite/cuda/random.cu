/* aten_lite/cuda/random.cu - random fills on the device: the cpu's draws (aten_lite/random_math.h)
 * at the same counters, so one seed gives the same numbers on both. */
#include <stdint.h>

#include "aten_lite/cuda/dev_scalars.cuh"
#include "aten_lite/cuda/random.h"
#include "aten_lite/random_math.h"

/* Note [CUDA random fills]
 * A thread computes one Philox block at a time (grid-stride over the fill's blocks): block b
 * of the fill (counter base + b) holds elements 4b..4b+3 of a 32-bit fill, 2b, 2b+1 of a
 * 64-bit one, exactly as the cpu's batches lay them out (Note [Random fill kernels] in
 * random.c), and the values come from the same functions (Note [One random stream on every
 * device]).  The conversions to the dtype are the cpu's. */

namespace {

using namespace mt_dev;

enum { kUniform, kNormal, kBernoulli, kExponential, kGeometric, kCauchy, kLogNormal };

template <typename T> struct put {
    __device__ static T from_int(int64_t v) { return (T)v; }
    __device__ static T from_double(double v) { return (T)v; }
    __device__ static T from_float(float v) { return (T)v; }
};
template <> struct put<bool> {
    __device__ static bool from_int(int64_t v) { return v != 0; }
    __device__ static bool from_double(double v) { return v != 0.0; }
    __device__ static bool from_float(float v) { return v != 0.0f; }
};
template <> struct put<half_t> {
    __device__ static half_t from_int(int64_t v) { return float_to_half((float)v); }
    __device__ static half_t from_double(double v) { return float_to_half((float)v); }
    __device__ static half_t from_float(float v) { return float_to_half(v); }
};
template <> struct put<bf16_t> {
    __device__ static bf16_t from_int(int64_t v) { return float_to_bf16((float)v); }
    __device__ static bf16_t from_double(double v) { return float_to_bf16((float)v); }
    __device__ static bf16_t from_float(float v) { return float_to_bf16(v); }
};
template <typename R> struct put<cplx<R>> {
    __device__ static cplx<R> from_int(int64_t v) { return cplx<R>{(R)v, (R)0}; }
    __device__ static cplx<R> from_double(double v) { return cplx<R>{(R)v, (R)0}; }
    __device__ static cplx<R> from_float(float v) { return cplx<R>{(R)v, (R)0}; }
};

template <typename T>
__global__ void
random_kernel(mt_cuda_random_job j, T *dst, int64_t n)
{
    const int per = j.wide ? 2 : 4;
    const int64_t nblocks = (n + per - 1) / per;
    const int shift = 32 - j.mbits;
    const float scale = 1.0f / (float)(1u << j.mbits);
    const float fa = (float)j.a, fb = (float)j.b;
    for (int64_t b = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; b < nblocks;
         b += (int64_t)blockDim.x * gridDim.x) {
        uint32_t w[4];
        mt_philox_block(j.key, j.base + (uint64_t)b, 0, w);
        const int64_t i0 = b * per;
        if (j.ints) {
            for (int k = 0; k < 2 && i0 + k < n; k++) {
                dst[i0 + k] = put<T>::from_int(mt_rng_int(w[2 * k], w[2 * k + 1], j.from, j.range));
            }
            continue;
        }
        if (j.wide) {
            double v[2];
            switch (j.dist) {
            case kUniform:
                for (int k = 0; k < 2; k++) {
                    v[k] = mt_rng_uniform_d(w[2 * k], w[2 * k + 1], j.a, j.b);
                }
                break;
            case kExponential:
                for (int k = 0; k < 2; k++) {
                    v[k] = mt_rng_exponential_d(w[2 * k], w[2 * k + 1], j.a);
                }
                break;
            case kCauchy:
                for (int k = 0; k < 2; k++) {
                    v[k] = mt_rng_cauchy_d(w[2 * k], w[2 * k + 1], j.a, j.b);
                }
                break;
            case kNormal:
            case kLogNormal:
                mt_rng_normal2_d(w, j.a, j.b, &v[0], &v[1]);
                if (j.dist == kLogNormal) {
                    v[0] = mt_rng_exp_d(v[0]);
                    v[1] = mt_rng_exp_d(v[1]);
                }
                break;
            case kBernoulli:
                for (int k = 0; k < 2; k++) {
                    const double p = j.p != nullptr ? (i0 + k < n ? j.p[i0 + k] : 0.0) : j.a;
                    v[k] = mt_rng_bernoulli_d(w[2 * k], w[2 * k + 1], p);
                }
                break;
            default: /* geometric */
                for (int k = 0; k < 2; k++) {
                    v[k] = mt_rng_geometric_d(w[2 * k], w[2 * k + 1], j.log_q);
                }
                break;
            }
            for (int k = 0; k < 2 && i0 + k < n; k++) {
                /* integer results convert through int64, as the cpu's */
                dst[i0 + k] = j.integral ? put<T>::from_int((int64_t)v[k]) : put<T>::from_double(v[k]);
            }
            continue;
        }
        float v[4];
        switch (j.dist) {
        case kUniform:
            for (int k = 0; k < 4; k++) {
                v[k] = mt_rng_uniform_f(w[k], shift, scale, fa, fb);
            }
            break;
        case kExponential:
            for (int k = 0; k < 4; k++) {
                v[k] = mt_rng_exponential_f(w[k], fa);
            }
            break;
        case kCauchy:
            for (int k = 0; k < 4; k++) {
                v[k] = mt_rng_cauchy_f(w[k], fa, fb);
            }
            break;
        default: /* normal, log-normal */
            mt_rng_normal2_f(w[0], w[1], fa, fb, &v[0], &v[1]);
            mt_rng_normal2_f(w[2], w[3], fa, fb, &v[2], &v[3]);
            if (j.dist == kLogNormal) {
                for (int k = 0; k < 4; k++) {
                    v[k] = mt_rng_exp_f(v[k]);
                }
            }
            break;
        }
        for (int k = 0; k < 4 && i0 + k < n; k++) {
            dst[i0 + k] = put<T>::from_float(v[k]);
        }
    }
}

__global__ void
check_probabilities_kernel(const double *p, int64_t n, int *flag)
{
    for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n;
         i += (int64_t)blockDim.x * gridDim.x) {
        if (!(p[i] >= 0.0 && p[i] <= 1.0)) {
            atomicExch(flag, 1);
        }
    }
}

unsigned int
grid_for(int64_t n)
{
    int64_t b = (n + kThreads - 1) / kThreads;
    return (unsigned int)(b < 1 ? 1 : b > 4096 ? 4096 : b);
}

template <typename T>
int
fill_as(int device, void *stream, const mt_cuda_random_job *j, char *dst, int64_t n)
{
    const int64_t nblocks = (n + (j->wide ? 1 : 3)) / (j->wide ? 2 : 4);
    return on_device(device, [&] {
        MT_CUDA_LAUNCH(random_kernel<T>, grid_for(nblocks), kThreads, 0, (cudaStream_t)stream, *j,
                       reinterpret_cast<T *>(dst), n);
    });
}

} // namespace

extern "C" int
mt_cuda_random_fill(int device, void *stream, mt_cuda_dtype dt, const mt_cuda_random_job *j,
                    char *dst, int64_t n)
{
    MT_DEV_DISPATCH_REAL(dt, fill_as, device, stream, j, dst, n)
    MT_DEV_DISPATCH_EXTRA(dt, fill_as, device, stream, j, dst, n)
    return mt_error_set(MT_ENOTIMPL, "random fill: unknown dtype %d", (int)dt);
}

extern "C" int
mt_cuda_check_probabilities(int device, void *stream, const double *p, int64_t n, int *flag)
{
    return on_device(device, [&] {
        MT_CUDA_LAUNCH(check_probabilities_kernel, grid_for(n), kThreads, 0, (cudaStream_t)stream,
                       p, n, flag);
    });
}
