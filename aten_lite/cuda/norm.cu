/* aten_lite/cuda/norm.cu - the fused softmax and layer norm kernels: a block per row, the
 * row's statistics by block-wide reductions (the formulas of the cpu kernels, softmax.c and
 * layer_norm.c; sums in a tree order, so values agree with the cpu's to rounding). */
#include <math.h>
#include <stdint.h>

#include "aten_lite/cuda/launch.cuh"
#include "aten_lite/cuda/norm.h"

using mt_cuda::block_allreduce;
using mt_cuda::kThreads;
using mt_cuda::max_op;
using mt_cuda::on_device;
using mt_cuda::sum_op;

namespace {

/* a grid of one block per row, striding when there are more rows than blocks */
unsigned int
row_blocks(int64_t rows)
{
    return (unsigned int)(rows < mt_cuda::kMaxBlocks ? rows : mt_cuda::kMaxBlocks);
}

template <typename T>
__global__ void
softmax_kernel(const T *x, T *out, int64_t rows, int64_t len, bool log)
{
    __shared__ T scratch[32];
    for (int64_t r = blockIdx.x; r < rows; r += gridDim.x) {
        const T *xr = x + r * len;
        T *o = out + r * len;
        T m = -INFINITY;
        for (int64_t i = threadIdx.x; i < len; i += blockDim.x) {
            m = max_op()(m, xr[i]);
        }
        m = block_allreduce(m, max_op(), scratch);
        T s = 0;
        for (int64_t i = threadIdx.x; i < len; i += blockDim.x) {
            s += exp(xr[i] - m);
        }
        s = block_allreduce(s, sum_op(), scratch);
        if (log) {
            const T ls = ::log(s);
            for (int64_t i = threadIdx.x; i < len; i += blockDim.x) {
                o[i] = xr[i] - m - ls;
            }
        }
        else {
            for (int64_t i = threadIdx.x; i < len; i += blockDim.x) {
                o[i] = exp(xr[i] - m) / s;
            }
        }
    }
}

/* softmax: out = y * (g - sum(g * y)); log_softmax: out = g - exp(y) * sum(g) */
template <typename T>
__global__ void
softmax_backward_kernel(const T *g, const T *y, T *out, int64_t rows, int64_t len, bool log)
{
    __shared__ T scratch[32];
    for (int64_t r = blockIdx.x; r < rows; r += gridDim.x) {
        const T *gr = g + r * len, *yr = y + r * len;
        T *o = out + r * len;
        T s = 0;
        for (int64_t i = threadIdx.x; i < len; i += blockDim.x) {
            s += log ? gr[i] : gr[i] * yr[i];
        }
        s = block_allreduce(s, sum_op(), scratch);
        for (int64_t i = threadIdx.x; i < len; i += blockDim.x) {
            o[i] = log ? gr[i] - exp(yr[i]) * s : yr[i] * (gr[i] - s);
        }
    }
}

template <typename T>
__global__ void
layer_norm_kernel(const T *x, const T *w, const T *b, T eps, T *out, T *mean, T *rstd,
                  int64_t rows, int64_t len)
{
    __shared__ T scratch[32];
    for (int64_t r = blockIdx.x; r < rows; r += gridDim.x) {
        const T *xr = x + r * len;
        T *o = out + r * len;
        T s = 0;
        for (int64_t i = threadIdx.x; i < len; i += blockDim.x) {
            s += xr[i];
        }
        const T m = block_allreduce(s, sum_op(), scratch) / (T)len;
        T q = 0;
        for (int64_t i = threadIdx.x; i < len; i += blockDim.x) {
            const T d = xr[i] - m;
            q += d * d;
        }
        const T var = block_allreduce(q, sum_op(), scratch) / (T)len;
        const T rs = T(1) / sqrt(var + eps);
        for (int64_t i = threadIdx.x; i < len; i += blockDim.x) {
            T v = (xr[i] - m) * rs;
            if (w != nullptr) {
                v = v * w[i];
            }
            if (b != nullptr) {
                v = v + b[i];
            }
            o[i] = v;
        }
        if (threadIdx.x == 0) {
            mean[r] = m;
            rstd[r] = rs;
        }
    }
}

/* dx of each row: rstd * (gh - mean(gh) - xhat * mean(gh * xhat)) + (gm - gr * rstd^2 * xhat)
 * / len, gh = g * w (the cpu's formula) */
template <typename T>
__global__ void
layer_norm_dx_kernel(const T *g, const T *gm, const T *gr, const T *x, const T *mean,
                     const T *rstd, const T *w, T *dx, int64_t rows, int64_t len)
{
    __shared__ T scratch[32];
    for (int64_t r = blockIdx.x; r < rows; r += gridDim.x) {
        const T *gp = g + r * len, *xp = x + r * len;
        const T m = mean[r], rs = rstd[r];
        T s1 = 0, s2 = 0;
        for (int64_t i = threadIdx.x; i < len; i += blockDim.x) {
            const T gh = w != nullptr ? gp[i] * w[i] : gp[i];
            s1 += gh;
            s2 += gh * ((xp[i] - m) * rs);
        }
        const T a1 = block_allreduce(s1, sum_op(), scratch) / (T)len;
        const T a2 = block_allreduce(s2, sum_op(), scratch) / (T)len;
        const T cm = gm != nullptr ? gm[r] / (T)len : T(0);
        const T cr = gr != nullptr ? gr[r] * rs * rs / (T)len : T(0);
        T *o = dx + r * len;
        for (int64_t i = threadIdx.x; i < len; i += blockDim.x) {
            const T xh = (xp[i] - m) * rs;
            const T gh = w != nullptr ? gp[i] * w[i] : gp[i];
            o[i] = rs * (gh - a1 - xh * a2) + (cm - cr * xh);
        }
    }
}

/* dw[i] = sum over rows of g * xhat, db[i] = sum of g: a thread per column, rows in order */
template <typename T>
__global__ void
layer_norm_dwdb_kernel(const T *g, const T *x, const T *mean, const T *rstd, T *dw, T *db,
                       int64_t rows, int64_t len)
{
    for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < len;
         i += (int64_t)blockDim.x * gridDim.x) {
        T sw = 0, sb = 0;
        for (int64_t r = 0; r < rows; r++) {
            const T gv = g[r * len + i];
            sw += gv * ((x[r * len + i] - mean[r]) * rstd[r]);
            sb += gv;
        }
        if (dw != nullptr) {
            dw[i] = sw;
        }
        if (db != nullptr) {
            db[i] = sb;
        }
    }
}

template <typename T>
int
softmax_as(int device, void *stream, const void *x, void *out, int64_t rows, int64_t len,
           bool log)
{
    return on_device(device, [&] {
        MT_CUDA_LAUNCH(softmax_kernel<T>, row_blocks(rows), kThreads, 0, (cudaStream_t)stream,
                       (const T *)x, (T *)out, rows, len, log);
    });
}

template <typename T>
int
softmax_backward_as(int device, void *stream, const void *g, const void *y, void *out,
                    int64_t rows, int64_t len, bool log)
{
    return on_device(device, [&] {
        MT_CUDA_LAUNCH(softmax_backward_kernel<T>, row_blocks(rows), kThreads, 0,
                       (cudaStream_t)stream, (const T *)g, (const T *)y, (T *)out, rows, len,
                       log);
    });
}

template <typename T>
int
layer_norm_as(int device, void *stream, const void *x, const void *w, const void *b, double eps,
              void *out, void *mean, void *rstd, int64_t rows, int64_t len)
{
    return on_device(device, [&] {
        MT_CUDA_LAUNCH(layer_norm_kernel<T>, row_blocks(rows), kThreads, 0, (cudaStream_t)stream,
                       (const T *)x, (const T *)w, (const T *)b, (T)eps, (T *)out, (T *)mean,
                       (T *)rstd, rows, len);
    });
}

template <typename T>
int
layer_norm_backward_as(int device, void *stream, const void *g, const void *gm, const void *gr,
                       const void *x, const void *mean, const void *rstd, const void *w,
                       void *dx, void *dw, void *db, int64_t rows, int64_t len)
{
    return on_device(device, [&] {
        if (dx != nullptr) {
            MT_CUDA_LAUNCH(layer_norm_dx_kernel<T>, row_blocks(rows), kThreads, 0,
                           (cudaStream_t)stream, (const T *)g, (const T *)gm, (const T *)gr,
                           (const T *)x, (const T *)mean, (const T *)rstd, (const T *)w, (T *)dx,
                           rows, len);
        }
        if (dw != nullptr || db != nullptr) {
            MT_CUDA_LAUNCH(layer_norm_dwdb_kernel<T>, mt_cuda::blocks_for(len), kThreads, 0,
                           (cudaStream_t)stream, (const T *)g, (const T *)x, (const T *)mean,
                           (const T *)rstd, (T *)dw, (T *)db, rows, len);
        }
    });
}

} // namespace

extern "C" int
mt_cuda_softmax_rows(int device, void *stream, int is_double, const void *x, void *out,
                     int64_t rows, int64_t len, int log)
{
    return is_double ? softmax_as<double>(device, stream, x, out, rows, len, log != 0)
                     : softmax_as<float>(device, stream, x, out, rows, len, log != 0);
}

extern "C" int
mt_cuda_softmax_backward_rows(int device, void *stream, int is_double, const void *g,
                              const void *y, void *out, int64_t rows, int64_t len, int log)
{
    return is_double
               ? softmax_backward_as<double>(device, stream, g, y, out, rows, len, log != 0)
               : softmax_backward_as<float>(device, stream, g, y, out, rows, len, log != 0);
}

extern "C" int
mt_cuda_layer_norm_rows(int device, void *stream, int is_double, const void *x, const void *w,
                        const void *b, double eps, void *out, void *mean, void *rstd,
                        int64_t rows, int64_t len)
{
    return is_double
               ? layer_norm_as<double>(device, stream, x, w, b, eps, out, mean, rstd, rows, len)
               : layer_norm_as<float>(device, stream, x, w, b, eps, out, mean, rstd, rows, len);
}

extern "C" int
mt_cuda_layer_norm_backward_rows(int device, void *stream, int is_double, const void *g,
                                 const void *gm, const void *gr, const void *x, const void *mean,
                                 const void *rstd, const void *w, void *dx, void *dw, void *db,
                                 int64_t rows, int64_t len)
{
    return is_double ? layer_norm_backward_as<double>(device, stream, g, gm, gr, x, mean, rstd,
                                                      w, dx, dw, db, rows, len)
                     : layer_norm_backward_as<float>(device, stream, g, gm, gr, x, mean, rstd,
                                                     w, dx, dw, db, rows, len);
}
