/* aten_lite/cuda/conv.cu - convolution's column kernels (im2col, its adjoint, channel bias and
 * sums) and the pooling kernels, float32/float64 (max pooling: integers too). */
#include <float.h>
#include <math.h>
#include <stdint.h>

#include "aten_lite/cuda/conv.h"
#include "aten_lite/cuda/cuda_compat.h"
#include "aten_lite/cuda/launch.cuh"

extern "C" {
#include "c10_lite/error.h"
}

namespace {

using mt_cuda::blocks_for;
using mt_cuda::kMaxBlocks;
using mt_cuda::kThreads;
using mt_cuda::on_device;



#define MT__GRID_LOOP(i, n)                                                                    \
    for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < (n);                  \
         i += (int64_t)blockDim.x * gridDim.x)

/* ---- convolution ---- */

template <typename T>
__global__ void
im2col_kernel(mt_cuda_conv_geom g, const T *x, T *col)
{
    const int64_t P = g.out[0] * g.out[1] * g.out[2];
    const int64_t taps = g.k[0] * g.k[1] * g.k[2];
    const int64_t total = g.imgs * g.c * taps * P;
    MT__GRID_LOOP(e, total)
    {
        const int64_t q = e % P;
        const int64_t row = (e / P) % (g.c * taps);
        const int64_t img = e / (P * g.c * taps);
        const int64_t ch = row / taps, tap = row % taps;
        const int64_t kw = tap % g.k[2], kh = (tap / g.k[2]) % g.k[1], kd = tap / (g.k[2] * g.k[1]);
        const int64_t ow = q % g.out[2], oh = (q / g.out[2]) % g.out[1],
                      od = q / (g.out[2] * g.out[1]);
        const int64_t id = od * g.s[0] - g.pad[0] + kd * g.dil[0];
        const int64_t ih = oh * g.s[1] - g.pad[1] + kh * g.dil[1];
        const int64_t iw = ow * g.s[2] - g.pad[2] + kw * g.dil[2];
        T v = T(0);
        if (id >= 0 && id < g.in[0] && ih >= 0 && ih < g.in[1] && iw >= 0 && iw < g.in[2]) {
            v = x[((img * g.c + ch) * g.in[0] + id) * g.in[1] * g.in[2] + ih * g.in[2] + iw];
        }
        col[img * g.s_img + row * g.s_row + q] = v;
    }
}

/* the output positions o along one axis whose tap t reads input position i: o * s - pad +
 * t * dil == i; -1 when none */
__device__ __forceinline__ int64_t
tap_source(int64_t i, int64_t t, int64_t s, int64_t pad, int64_t dil, int64_t nout)
{
    const int64_t u = i + pad - t * dil;
    if (u < 0 || u % s != 0) {
        return -1;
    }
    const int64_t o = u / s;
    return o < nout ? o : -1;
}

template <typename T>
__global__ void
col2im_kernel(mt_cuda_conv_geom g, const T *col, const T *bias, T *gx)
{
    const int64_t plane = g.in[0] * g.in[1] * g.in[2];
    const int64_t taps = g.k[0] * g.k[1] * g.k[2];
    const int64_t total = g.imgs * g.c * plane;
    MT__GRID_LOOP(e, total)
    {
        const int64_t iw = e % g.in[2], ih = (e / g.in[2]) % g.in[1],
                      id = (e / (g.in[2] * g.in[1])) % g.in[0];
        const int64_t ch = (e / plane) % g.c, img = e / (plane * g.c);
        const T *base = col + img * g.s_img + ch * taps * g.s_row;
        T s = T(0);
        for (int64_t kd = 0; kd < g.k[0]; kd++) {
            const int64_t od = tap_source(id, kd, g.s[0], g.pad[0], g.dil[0], g.out[0]);
            if (od < 0) {
                continue;
            }
            for (int64_t kh = 0; kh < g.k[1]; kh++) {
                const int64_t oh = tap_source(ih, kh, g.s[1], g.pad[1], g.dil[1], g.out[1]);
                if (oh < 0) {
                    continue;
                }
                for (int64_t kw = 0; kw < g.k[2]; kw++) {
                    const int64_t ow = tap_source(iw, kw, g.s[2], g.pad[2], g.dil[2], g.out[2]);
                    if (ow < 0) {
                        continue;
                    }
                    const int64_t tap = (kd * g.k[1] + kh) * g.k[2] + kw;
                    s += base[tap * g.s_row + (od * g.out[1] + oh) * g.out[2] + ow];
                }
            }
        }
        gx[e] = bias != nullptr ? s + bias[ch] : s;
    }
}

template <typename T>
__global__ void
channel_bias_kernel(T *t, const T *bias, int64_t n, int64_t nch, int64_t plane)
{
    MT__GRID_LOOP(e, n * nch * plane)
    {
        t[e] += bias[(e / plane) % nch];
    }
}

/* one block per channel: each thread sums a fixed strided subset, then a tree in shared memory */
template <typename T>
__global__ void
channel_sums_kernel(const T *t, T *res, int64_t n, int64_t nch, int64_t plane)
{
    __shared__ T part[kThreads];
    const int64_t ch = blockIdx.x;
    T s = T(0);
    for (int64_t e = threadIdx.x; e < n * plane; e += blockDim.x) {
        const int64_t img = e / plane, q = e % plane;
        s += t[(img * nch + ch) * plane + q];
    }
    part[threadIdx.x] = s;
    __syncthreads();
    for (int w = kThreads / 2; w > 0; w /= 2) {
        if ((int)threadIdx.x < w) {
            part[threadIdx.x] += part[threadIdx.x + w];
        }
        __syncthreads();
    }
    if (threadIdx.x == 0) {
        res[ch] = part[0];
    }
}

/* ---- pooling ---- */

template <typename T> struct lowest {
    __device__ static T value() { return T(0); }
};
template <> struct lowest<float> {
    __device__ static float value() { return -INFINITY; }
};
template <> struct lowest<double> {
    __device__ static double value() { return -(double)INFINITY; }
};
template <> struct lowest<uint8_t> {
    __device__ static uint8_t value() { return 0; }
};
template <> struct lowest<int8_t> {
    __device__ static int8_t value() { return INT8_MIN; }
};
template <> struct lowest<int16_t> {
    __device__ static int16_t value() { return INT16_MIN; }
};
template <> struct lowest<int32_t> {
    __device__ static int32_t value() { return INT32_MIN; }
};
template <> struct lowest<int64_t> {
    __device__ static int64_t value() { return INT64_MIN; }
};

template <typename T>
__device__ __forceinline__ bool
is_nan(T v)
{
    return v != v;
}

/* one thread per output: depth, rows, then columns; the first maximum wins, a NaN replaces it */
template <typename T>
__global__ void
max_pool_kernel(mt_cuda_pool_geom g, const T *x, T *y, int64_t *ix)
{
    const int64_t oplane = g.out[0] * g.out[1] * g.out[2];
    const int64_t plane = g.in[0] * g.in[1] * g.in[2];
    MT__GRID_LOOP(e, g.planes * oplane)
    {
        const int64_t ow = e % g.out[2], oh = (e / g.out[2]) % g.out[1],
                      od = (e / (g.out[2] * g.out[1])) % g.out[0];
        const T *xp = x + (e / oplane) * plane;
        const int64_t d0 = g.lo[0][od], d1 = g.hi[0][od], h0 = g.lo[1][oh], h1 = g.hi[1][oh],
                      w0 = g.lo[2][ow], w1 = g.hi[2][ow];
        if (d0 >= d1 || h0 >= h1 || w0 >= w1) {
            y[e] = lowest<T>::value();
            ix[e] = -1;
            continue;
        }
        int64_t best = (d0 * g.in[1] + h0) * g.in[2] + w0;
        T m = xp[best];
        for (int64_t id = d0; id < d1; id += g.dil[0]) {
            for (int64_t ih = h0; ih < h1; ih += g.dil[1]) {
                const int64_t row = (id * g.in[1] + ih) * g.in[2];
                for (int64_t iw = w0; iw < w1; iw += g.dil[2]) {
                    const T v = xp[row + iw];
                    if (v > m || is_nan(v)) {
                        m = v;
                        best = row + iw;
                    }
                }
            }
        }
        y[e] = m;
        ix[e] = best;
    }
}

/* the first output along an axis whose window may hold i, and the bound to stop at: windows
 * start at or after lo - dil + 1 and their starts increase (Note [CUDA pooling windows]) */
#define MT__AXIS_LOOP(o, a, i)                                                                  \
    for (int64_t o = 0; o < g.out[a] && g.lo[a][o] < (i) + g.dil[a]; o++)                      \
        if ((i) >= g.lo[a][o] && (i) < g.hi[a][o] && ((i) - g.lo[a][o]) % g.dil[a] == 0)

/* one thread per plane: gx (zeroed by the caller) += gy at the indices, in output order as the
 * cpu adds them (a parallel scatter would add coinciding indices in a varying order) */
template <typename T>
__global__ void
max_pool_backward_kernel(int64_t planes, int64_t plane, int64_t oplane, const T *gy,
                         const int64_t *ix, T *gx)
{
    MT__GRID_LOOP(pl, planes)
    {
        const T *g = gy + pl * oplane;
        const int64_t *i = ix + pl * oplane;
        T *x = gx + pl * plane;
        for (int64_t o = 0; o < oplane; o++) {
            if (i[o] >= 0 && i[o] < plane) {
                x[i[o]] += g[o];
            }
        }
    }
}

__global__ void
check_indices_kernel(int64_t n, int64_t plane, const int64_t *ix, int *bad)
{
    MT__GRID_LOOP(e, n)
    {
        if (ix[e] < -1 || ix[e] >= plane) {
            *bad = 1;
        }
    }
}

template <typename T>
__device__ __forceinline__ int64_t
divisor_of(const mt_cuda_pool_geom &g, int64_t od, int64_t oh, int64_t ow)
{
    return g.divisor ? g.divisor : g.cnt[0][od] * g.cnt[1][oh] * g.cnt[2][ow];
}

template <typename T>
__global__ void
avg_pool_kernel(mt_cuda_pool_geom g, const T *x, T *y)
{
    const int64_t oplane = g.out[0] * g.out[1] * g.out[2];
    const int64_t plane = g.in[0] * g.in[1] * g.in[2];
    MT__GRID_LOOP(e, g.planes * oplane)
    {
        const int64_t ow = e % g.out[2], oh = (e / g.out[2]) % g.out[1],
                      od = (e / (g.out[2] * g.out[1])) % g.out[0];
        const T *xp = x + (e / oplane) * plane;
        const int64_t d0 = g.lo[0][od], d1 = g.hi[0][od], h0 = g.lo[1][oh], h1 = g.hi[1][oh],
                      w0 = g.lo[2][ow], w1 = g.hi[2][ow];
        T s = T(0);
        for (int64_t id = d0; id < d1; id++) {
            for (int64_t ih = h0; ih < h1; ih++) {
                const T *row = xp + (id * g.in[1] + ih) * g.in[2];
                for (int64_t iw = w0; iw < w1; iw++) {
                    s += row[iw];
                }
            }
        }
        const bool some = d0 < d1 && h0 < h1 && w0 < w1;
        y[e] = some ? s / (T)divisor_of<T>(g, od, oh, ow) : T(0);
    }
}

template <typename T>
__global__ void
avg_pool_backward_kernel(mt_cuda_pool_geom g, const T *gy, T *gx)
{
    const int64_t oplane = g.out[0] * g.out[1] * g.out[2];
    const int64_t plane = g.in[0] * g.in[1] * g.in[2];
    MT__GRID_LOOP(e, g.planes * plane)
    {
        const int64_t q = e % plane;
        const int64_t iw = q % g.in[2], ih = (q / g.in[2]) % g.in[1], id = q / (g.in[2] * g.in[1]);
        const int64_t base = (e / plane) * oplane;
        T s = T(0);
        MT__AXIS_LOOP(od, 0, id)
        {
            MT__AXIS_LOOP(oh, 1, ih)
            {
                MT__AXIS_LOOP(ow, 2, iw)
                {
                    const int64_t o = base + (od * g.out[1] + oh) * g.out[2] + ow;
                    s += gy[o] / (T)divisor_of<T>(g, od, oh, ow);
                }
            }
        }
        gx[e] = s;
    }
}

/* ---- resampling: one pass of a per-axis map (Note [Separable resampling]) ---- */

/* y (outer x m x inner) = the map applied to x (outer x n x inner), one thread per element,
 * the terms summed in the map's order */
template <typename T>
__global__ void
resample_pass_kernel(int64_t outer, int64_t n, int64_t m, int64_t inner, const int64_t *off,
                     const int64_t *src, const T *w, const T *x, T *y)
{
    MT__GRID_LOOP(e, outer * m * inner)
    {
        const int64_t i = e % inner, task = e / inner;
        const int64_t r = task / m, o = task % m;
        const T *xr = x + r * n * inner + i;
        const int64_t k0 = off[o], k1 = off[o + 1];
        if (k0 == k1) {
            y[e] = T(0);
            continue;
        }
        T s = w[k0] * xr[src[k0] * inner];
        for (int64_t k = k0 + 1; k < k1; k++) {
            s += w[k] * xr[src[k] * inner];
        }
        y[e] = s;
    }
}

/* a nearest pass: each result row a copy of its one source row (elements of E's size) */
template <typename E>
__global__ void
resample_copy_kernel(int64_t outer, int64_t n, int64_t m, int64_t inner, const int64_t *off,
                     const int64_t *src, const E *x, E *y)
{
    MT__GRID_LOOP(e, outer * m * inner)
    {
        const int64_t i = e % inner, task = e / inner;
        const int64_t r = task / m, o = task % m;
        y[e] = x[(r * n + src[off[o]]) * inner + i];
    }
}

} /* namespace */

extern "C" {

int
mt_cuda_resample_pass(int device, void *stream, int kind, int64_t outer, int64_t n, int64_t m,
                      int64_t inner, const int64_t *off, const int64_t *src, const void *w,
                      const void *x, void *y)
{
    const int64_t total = outer * m * inner;
    cudaStream_t s = (cudaStream_t)stream;
    return on_device(device, [&] {
        switch (kind) {
        case MT_CUDA_RESAMPLE_FLOAT32:
            MT_CUDA_LAUNCH(resample_pass_kernel<float>, blocks_for(total), kThreads, 0, s, outer,
                           n, m, inner, off, src, (const float *)w, (const float *)x, (float *)y);
            break;
        case MT_CUDA_RESAMPLE_FLOAT64:
            MT_CUDA_LAUNCH(resample_pass_kernel<double>, blocks_for(total), kThreads, 0, s,
                           outer, n, m, inner, off, src, (const double *)w, (const double *)x,
                           (double *)y);
            break;
        case MT_CUDA_RESAMPLE_COPY1:
            MT_CUDA_LAUNCH(resample_copy_kernel<uint8_t>, blocks_for(total), kThreads, 0, s,
                           outer, n, m, inner, off, src, (const uint8_t *)x, (uint8_t *)y);
            break;
        case MT_CUDA_RESAMPLE_COPY2:
            MT_CUDA_LAUNCH(resample_copy_kernel<uint16_t>, blocks_for(total), kThreads, 0, s,
                           outer, n, m, inner, off, src, (const uint16_t *)x, (uint16_t *)y);
            break;
        case MT_CUDA_RESAMPLE_COPY4:
            MT_CUDA_LAUNCH(resample_copy_kernel<uint32_t>, blocks_for(total), kThreads, 0, s,
                           outer, n, m, inner, off, src, (const uint32_t *)x, (uint32_t *)y);
            break;
        default:
            MT_CUDA_LAUNCH(resample_copy_kernel<uint64_t>, blocks_for(total), kThreads, 0, s,
                           outer, n, m, inner, off, src, (const uint64_t *)x, (uint64_t *)y);
            break;
        }
    });
}

int
mt_cuda_im2col(int device, void *stream, int dbl, const mt_cuda_conv_geom *g, const void *x,
               void *col)
{
    const int64_t n = g->imgs * g->c * g->k[0] * g->k[1] * g->k[2] * g->out[0] * g->out[1] *
                      g->out[2];
    return on_device(device, [&] {
        if (dbl) {
            MT_CUDA_LAUNCH(im2col_kernel<double>, blocks_for(n), kThreads, 0, (cudaStream_t)stream,
                           *g, (const double *)x, (double *)col);
        } else {
            MT_CUDA_LAUNCH(im2col_kernel<float>, blocks_for(n), kThreads, 0, (cudaStream_t)stream,
                           *g, (const float *)x, (float *)col);
        }
    });
}

int
mt_cuda_col2im(int device, void *stream, int dbl, const mt_cuda_conv_geom *g, const void *col,
               const void *bias, void *gx)
{
    const int64_t n = g->imgs * g->c * g->in[0] * g->in[1] * g->in[2];
    return on_device(device, [&] {
        if (dbl) {
            MT_CUDA_LAUNCH(col2im_kernel<double>, blocks_for(n), kThreads, 0, (cudaStream_t)stream,
                           *g, (const double *)col, (const double *)bias, (double *)gx);
        } else {
            MT_CUDA_LAUNCH(col2im_kernel<float>, blocks_for(n), kThreads, 0, (cudaStream_t)stream,
                           *g, (const float *)col, (const float *)bias, (float *)gx);
        }
    });
}

int
mt_cuda_channel_bias(int device, void *stream, int dbl, void *t, const void *bias, int64_t n,
                     int64_t nch, int64_t plane)
{
    return on_device(device, [&] {
        if (dbl) {
            MT_CUDA_LAUNCH(channel_bias_kernel<double>, blocks_for(n * nch * plane), kThreads, 0,
                           (cudaStream_t)stream, (double *)t, (const double *)bias, n, nch, plane);
        } else {
            MT_CUDA_LAUNCH(channel_bias_kernel<float>, blocks_for(n * nch * plane), kThreads, 0,
                           (cudaStream_t)stream, (float *)t, (const float *)bias, n, nch, plane);
        }
    });
}

int
mt_cuda_channel_sums(int device, void *stream, int dbl, const void *t, void *res, int64_t n,
                     int64_t nch, int64_t plane)
{
    if (nch == 0) {
        return MT_OK;
    }
    /* a grid dimension holds 2^31 - 1 blocks */
    if (nch > 0x7fffffff) {
        return mt_error_set(MT_ENOTIMPL, "channel sums over more than 2^31 - 1 channels");
    }
    return on_device(device, [&] {
        if (dbl) {
            MT_CUDA_LAUNCH(channel_sums_kernel<double>, (unsigned int)nch, kThreads, 0,
                           (cudaStream_t)stream, (const double *)t, (double *)res, n, nch, plane);
        } else {
            MT_CUDA_LAUNCH(channel_sums_kernel<float>, (unsigned int)nch, kThreads, 0,
                           (cudaStream_t)stream, (const float *)t, (float *)res, n, nch, plane);
        }
    });
}

int
mt_cuda_max_pool(int device, void *stream, mt_cuda_pool_type t, const mt_cuda_pool_geom *g,
                 const void *x, void *y, int64_t *ix)
{
    const int64_t n = g->planes * g->out[0] * g->out[1] * g->out[2];
    cudaStream_t s = (cudaStream_t)stream;
    return on_device(device, [&] {
        switch (t) {
#define MT__CASE(tag, T)                                                                        \
    case tag:                                                                                   \
        MT_CUDA_LAUNCH(max_pool_kernel<T>, blocks_for(n), kThreads, 0, s, *g, (const T *)x,      \
                       (T *)y, ix);                                                             \
        break;
            MT__CASE(MT_CUDA_POOL_FLOAT32, float)
            MT__CASE(MT_CUDA_POOL_FLOAT64, double)
            MT__CASE(MT_CUDA_POOL_UINT8, uint8_t)
            MT__CASE(MT_CUDA_POOL_INT8, int8_t)
            MT__CASE(MT_CUDA_POOL_INT16, int16_t)
            MT__CASE(MT_CUDA_POOL_INT32, int32_t)
            MT__CASE(MT_CUDA_POOL_INT64, int64_t)
#undef MT__CASE
        }
    });
}

int
mt_cuda_max_pool_backward(int device, void *stream, int dbl, const mt_cuda_pool_geom *g,
                          const void *gy, const int64_t *ix, void *gx, int *bad)
{
    const int64_t plane = g->in[0] * g->in[1] * g->in[2];
    const int64_t no = g->planes * g->out[0] * g->out[1] * g->out[2];
    cudaStream_t s = (cudaStream_t)stream;
    return on_device(device, [&] {
        MT_CUDA_LAUNCH(check_indices_kernel, blocks_for(no), kThreads, 0, s, no, plane, ix, bad);
        const int64_t oplane = no / g->planes;
        if (dbl) {
            MT_CUDA_LAUNCH(max_pool_backward_kernel<double>, blocks_for(g->planes), kThreads, 0,
                           s, g->planes, plane, oplane, (const double *)gy, ix, (double *)gx);
        } else {
            MT_CUDA_LAUNCH(max_pool_backward_kernel<float>, blocks_for(g->planes), kThreads, 0,
                           s, g->planes, plane, oplane, (const float *)gy, ix, (float *)gx);
        }
    });
}

int
mt_cuda_avg_pool(int device, void *stream, int dbl, const mt_cuda_pool_geom *g, const void *x,
                 void *y)
{
    const int64_t n = g->planes * g->out[0] * g->out[1] * g->out[2];
    cudaStream_t s = (cudaStream_t)stream;
    return on_device(device, [&] {
        if (dbl) {
            MT_CUDA_LAUNCH(avg_pool_kernel<double>, blocks_for(n), kThreads, 0, s, *g,
                           (const double *)x, (double *)y);
        } else {
            MT_CUDA_LAUNCH(avg_pool_kernel<float>, blocks_for(n), kThreads, 0, s, *g,
                           (const float *)x, (float *)y);
        }
    });
}

int
mt_cuda_avg_pool_backward(int device, void *stream, int dbl, const mt_cuda_pool_geom *g,
                          const void *gy, void *gx)
{
    const int64_t n = g->planes * g->in[0] * g->in[1] * g->in[2];
    cudaStream_t s = (cudaStream_t)stream;
    return on_device(device, [&] {
        if (dbl) {
            MT_CUDA_LAUNCH(avg_pool_backward_kernel<double>, blocks_for(n), kThreads, 0, s, *g,
                           (const double *)gy, (double *)gx);
        } else {
            MT_CUDA_LAUNCH(avg_pool_backward_kernel<float>, blocks_for(n), kThreads, 0, s, *g,
                           (const float *)gy, (float *)gx);
        }
    });
}

} /* extern "C" */
