/* aten_lite/optim.h - optimizer updates fused into one pass over a parameter. */
#ifndef ATEN_LITE_OPTIM_H
#define ATEN_LITE_OPTIM_H

#include <stdbool.h>

#include "aten_lite/optim_math.h" /* mt_adam_hyper */
#include "c10_lite/tensor_impl.h"

/* Note [Fused Adam]
 * One Adam (AdamW: decoupled weight decay) step of one parameter in one pass: param,
 * exp_avg, exp_avg_sq (and max_exp_avg_sq with amsgrad) are updated in place from grad,
 * element by element, with the operations and rounding of the op-by-op update (grad + wd *
 * param or param * (1 - lr * wd), lerp of exp_avg towards grad, exp_avg_sq * beta2 +
 * (1 - beta2) * grad^2, param + (exp_avg / (sqrt(exp_avg_sq) / bc2_sqrt + eps)) * -step_size),
 * scalars taken in the tensors' type.  float32/float64 tensors of one dtype and shape
 * (any strides); the iterator splits large ones over the pool.  0, or MT_EINVAL (nothing
 * changed) for other dtypes or shapes. */
int mt_adam_step_(mt_tensor *param, const mt_tensor *grad, mt_tensor *exp_avg,
                  mt_tensor *exp_avg_sq, mt_tensor *max_exp_avg_sq, const mt_adam_hyper *h);

#endif /* ATEN_LITE_OPTIM_H */
