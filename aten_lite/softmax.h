/* aten_lite/softmax.h - softmax and log_softmax along the last dimension, one row at a time. */
#ifndef ATEN_LITE_SOFTMAX_H
#define ATEN_LITE_SOFTMAX_H

#include <stdbool.h>
#include <stdint.h>

#include "c10_lite/tensor_impl.h"

/* Note [Fused softmax]
 * softmax (log=false) or log_softmax (log=true) of a contiguous float32/float64 tensor along
 * its last dimension, each row in two passes over its values (its max; then exp(x - max),
 * summed, written; then scaled), rows spread over the pool: the op-by-op form read and wrote
 * the whole tensor five times.  The max propagates NaN (a row with a NaN gives NaN
 * throughout, as torch).  Returns a new tensor (caller owns), or NULL with MT_EINVAL for
 * other dtypes or layouts (the caller then takes the op-by-op path). */
mt_tensor *mt_softmax_lastdim(const mt_tensor *x, bool log);

/* Note [Fused softmax backward]
 * The derivative of mt_softmax_lastdim from its result y and the gradient g of the result,
 * along the last dimension, one row at a time (a sum over the row, then one pass): softmax
 * y (g - sum(g y)), log_softmax g - exp(y) sum(g).  Both contiguous float32/float64 of one
 * shape and dtype, else NULL with MT_EINVAL (the caller takes the op-by-op path). */
mt_tensor *mt_softmax_backward_lastdim(const mt_tensor *grad, const mt_tensor *y, bool log);

/* e[i] = exp(x[i] - m) for i < n (e may be x): float32 through the vectorisable core (Note
 * [Vectorisable expf]), the rare lanes below its range redone with libm, as the exp kernel
 * does.  Shared by the softmax and attention kernels. */
void mt_exp_shift_f32(float *e, const float *x, float m, int64_t n);

#endif /* ATEN_LITE_SOFTMAX_H */
