/* aten_lite/cuda/optim.h - the launcher of the fused Adam kernel (aten_lite/cuda/optim.cu). */
#ifndef ATEN_LITE_CUDA_OPTIM_H
#define ATEN_LITE_CUDA_OPTIM_H

#include <stdint.h>

#include "aten_lite/optim_math.h"

#ifdef __cplusplus
extern "C" {
#endif

#define MT_CUDA_ADAM_DIMS 8 /* dims of the iterator the kernel walks (after coalescing) */

/* The iterator of mt_adam_step_ over param, exp_avg, exp_avg_sq[, max_exp_avg_sq], grad:
 * dims innermost first, byte strides per operand (nop of them: 4, or 5 with amsgrad). */
typedef struct mt_cuda_adam_geom {
    int ndim, nop;
    int64_t numel;
    int64_t shape[MT_CUDA_ADAM_DIMS];
    int64_t strides[MT_CUDA_ADAM_DIMS][5];
} mt_cuda_adam_geom;

/* One Adam step (Note [Fused Adam]) over the operands data[0 .. nop-1] on `device`, queued on
 * `stream`; is_double: float64, else float32.  0 or MT_ERUNTIME. */
int mt_cuda_adam_step(int device, void *stream, int is_double, const mt_cuda_adam_geom *g,
                      char *const *data, const mt_adam_hyper *h);

#ifdef __cplusplus
}
#endif

#endif /* ATEN_LITE_CUDA_OPTIM_H */
