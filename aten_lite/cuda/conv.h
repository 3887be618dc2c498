/* aten_lite/cuda/conv.h - the launchers of the CUDA convolution and pooling kernels
 * (aten_lite/cuda/conv.cu) as the C side (aten_lite/cuda/conv.c) calls them: plain structs. */
#ifndef ATEN_LITE_CUDA_CONV_H
#define ATEN_LITE_CUDA_CONV_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Note [CUDA columns]
 * The columns of a chunk of `imgs` images (Note [Convolution as GEMM] in conv.c): row
 * R = channel * kD*kH*kW + tap (so a group's rows are consecutive), column = output position;
 * the element of image i, row R, position q is at i * s_img + R * s_row + q.  The layout used
 * is (rows, images, positions): s_img = P, s_row = imgs * P, so that one group's rows over all
 * the chunk's images form one (K x imgs*P) matrix (grad_weight's product) and each image's
 * columns one (K x P) matrix of leading dimension imgs * P (forward and grad_input). */
typedef struct mt_cuda_conv_geom {
    int64_t c;                   /* input channels */
    int64_t in[3], k[3], out[3];
    int64_t s[3], pad[3], dil[3];
    int64_t imgs;                /* images of the chunk */
    int64_t s_img, s_row;        /* the columns' strides */
} mt_cuda_conv_geom;

/* col <- the columns of x (imgs images of c planes of in[]), 0 in the padding. */
int mt_cuda_im2col(int device, void *stream, int dbl, const mt_cuda_conv_geom *g, const void *x,
                   void *col);
/* gx (imgs images of c planes, every element written) <- the sum of the columns' entries that
 * each input element was copied to (the adjoint of im2col), plus bias[channel] (NULL: none). */
int mt_cuda_col2im(int device, void *stream, int dbl, const mt_cuda_conv_geom *g,
                   const void *col, const void *bias, void *gx);
/* t (n, nch, plane) += bias[channel] */
int mt_cuda_channel_bias(int device, void *stream, int dbl, void *t, const void *bias, int64_t n,
                         int64_t nch, int64_t plane);
/* res[ch] = the sum of channel ch of t (n, nch, plane); one block per channel, a fixed order. */
int mt_cuda_channel_sums(int device, void *stream, int dbl, const void *t, void *res, int64_t n,
                         int64_t nch, int64_t plane);

/* Note [CUDA pooling windows]
 * The windows of Note [Pooling windows] (pool.c): per axis, for output position o, the input
 * range [lo, hi) (stepping by dil) and the count cnt an average divides by; the tables are
 * copied to the device (lo, hi, cnt point there).  The average's backward gathers: input
 * element i sums over the outputs whose windows hold it, found per axis by a scan from 0 that
 * stops at the first window starting at or past i + dil (window starts increase with o), in
 * output order, as the cpu adds them. */
typedef struct mt_cuda_pool_geom {
    int64_t planes;
    int64_t in[3], out[3], dil[3];
    int64_t divisor;             /* averages: fixed, or 0 for the counts' product */
    const int64_t *lo[3], *hi[3], *cnt[3];
} mt_cuda_pool_geom;

/* The element types of the pooling kernels. */
typedef enum {
    MT_CUDA_POOL_FLOAT32,
    MT_CUDA_POOL_FLOAT64,
    MT_CUDA_POOL_UINT8,
    MT_CUDA_POOL_INT8,
    MT_CUDA_POOL_INT16,
    MT_CUDA_POOL_INT32,
    MT_CUDA_POOL_INT64,
} mt_cuda_pool_type;

/* y, ix (int64 index in the plane; -1 and the lowest value for an empty window). */
int mt_cuda_max_pool(int device, void *stream, mt_cuda_pool_type t, const mt_cuda_pool_geom *g,
                     const void *x, void *y, int64_t *ix);
/* gx (zeroed by the caller) += gy at the indices ix, one thread per plane walking its outputs
 * in order (deterministic sums; g's tables are not used: the backward has none); *bad (device
 * memory, an int set to 0 by the caller) <- 1 when an index is outside its plane (and not -1),
 * such indices being skipped. */
int mt_cuda_max_pool_backward(int device, void *stream, int dbl, const mt_cuda_pool_geom *g,
                              const void *gy, const int64_t *ix, void *gx, int *bad);
int mt_cuda_avg_pool(int device, void *stream, int dbl, const mt_cuda_pool_geom *g, const void *x,
                     void *y);
int mt_cuda_avg_pool_backward(int device, void *stream, int dbl, const mt_cuda_pool_geom *g,
                              const void *gy, void *gx);

/* One pass of a resampling (Note [Separable resampling] in upsample.c): y (outer x m x inner)
 * = the map (off: m + 1 row starts, src and w: its entries; device memory) applied to x
 * (outer x n x inner); the copy kinds (nearest) copy each row's one source, by element size. */
enum {
    MT_CUDA_RESAMPLE_FLOAT32,
    MT_CUDA_RESAMPLE_FLOAT64,
    MT_CUDA_RESAMPLE_COPY1,
    MT_CUDA_RESAMPLE_COPY2,
    MT_CUDA_RESAMPLE_COPY4,
    MT_CUDA_RESAMPLE_COPY8,
};
int mt_cuda_resample_pass(int device, void *stream, int kind, int64_t outer, int64_t n, int64_t m,
                          int64_t inner, const int64_t *off, const int64_t *src, const void *w,
                          const void *x, void *y);

#ifdef __cplusplus
}
#endif

#endif /* ATEN_LITE_CUDA_CONV_H */
