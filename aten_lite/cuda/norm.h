/* aten_lite/cuda/norm.h - the launchers of the fused softmax and layer norm kernels
 * (aten_lite/cuda/norm.cu), as aten_lite/cuda/norm.c calls them.  Pointers are device memory of
 * contiguous tensors of one dtype (is_double: float64, else float32); rows of len > 0
 * elements; `stream` of `device` (NULL: the default stream).  0 or MT_ERUNTIME. */
#ifndef ATEN_LITE_CUDA_NORM_H
#define ATEN_LITE_CUDA_NORM_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* out <- softmax (log_softmax when log) of each row of x */
int mt_cuda_softmax_rows(int device, void *stream, int is_double, const void *x, void *out,
                         int64_t rows, int64_t len, int log);
/* out <- the gradient of softmax (log_softmax) per row, from its output y and grad g */
int mt_cuda_softmax_backward_rows(int device, void *stream, int is_double, const void *g,
                                  const void *y, void *out, int64_t rows, int64_t len, int log);
/* per row: out = (x - mean) * rstd [* w] [+ b], mean and rstd (one value per row); w, b NULL
 * or len values */
int mt_cuda_layer_norm_rows(int device, void *stream, int is_double, const void *x,
                            const void *w, const void *b, double eps, void *out, void *mean,
                            void *rstd, int64_t rows, int64_t len);
/* dx (NULL: not wanted) per row from g, gm, gr (one value per row or NULL), x, mean, rstd, w;
 * dw, db (NULL: not wanted): the sums over the rows of g * xhat and of g */
int mt_cuda_layer_norm_backward_rows(int device, void *stream, int is_double, const void *g,
                                     const void *gm, const void *gr, const void *x,
                                     const void *mean, const void *rstd, const void *w, void *dx,
                                     void *dw, void *db, int64_t rows, int64_t len);

#ifdef __cplusplus
}
#endif

#endif /* ATEN_LITE_CUDA_NORM_H */
