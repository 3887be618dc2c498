/* aten_lite/cuda/reduce.h - the launcher of the CUDA reduction kernel (aten_lite/cuda/reduce.cu),
 * as the C side (aten_lite/cuda/reduce.c) calls it. */
#ifndef ATEN_LITE_CUDA_REDUCE_H
#define ATEN_LITE_CUDA_REDUCE_H

#include <stdint.h>

#include "aten_lite/cuda/dev_dtype.h"

#ifdef __cplusplus
extern "C" {
#endif

#define MT_CUDA_REDUCE_DIMS 64 /* MT_MAX_DIMS */

/* The ops, with mt_reduce_op's values (asserted by the C side). */
typedef enum {
    MT_CUDA_RED_SUM,
    MT_CUDA_RED_PROD,
    MT_CUDA_RED_MAX,
    MT_CUDA_RED_MIN,
    MT_CUDA_RED_ALL,
    MT_CUDA_RED_ANY,
    MT_CUDA_RED_ARGMAX,
    MT_CUDA_RED_ARGMIN,
} mt_cuda_reduce_op;

/* mt_reduce_geometry (kernel_stubs.h) in elements, plus the number of outputs M. */
typedef struct mt_cuda_reduce_geom {
    int64_t R, sr, M;
    int nk;
    int64_t ksz[MT_CUDA_REDUCE_DIMS], kin[MT_CUDA_REDUCE_DIMS], kout[MT_CUDA_REDUCE_DIMS];
} mt_cuda_reduce_geom;

/* Bytes of device workspace mt_cuda_reduce needs for g (0: none). */
int64_t mt_cuda_reduce_workspace(mt_cuda_reduce_op op, mt_cuda_dtype in,
                                 const mt_cuda_reduce_geom *g);
/* dst (out dtype: sum/prod int64 for integers, all/any bool or uint8, arg ops int64, else in)
 * <- the reduction of src over g, queued on stream of device; workspace: the bytes asked for
 * (device memory, or NULL when 0).  0, or MT_ERUNTIME / MT_ENOTIMPL with the message set. */
int mt_cuda_reduce(int device, void *stream, mt_cuda_reduce_op op, mt_cuda_dtype in,
                   const mt_cuda_reduce_geom *g, const char *src, char *dst, char *workspace);

#ifdef __cplusplus
}
#endif

#endif /* ATEN_LITE_CUDA_REDUCE_H */
