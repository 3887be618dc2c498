/* aten_lite/conv.h - 2-D convolution, forward and backward (im2col + GEMM, or Winograd for 3x3). */
#ifndef ATEN_LITE_CONV_H
#define ATEN_LITE_CONV_H

#include <stdbool.h>
#include <stdint.h>

#include "c10_lite/tensor_impl.h"

/* Conventions as aten_lite/ops.h: tensor arguments are borrowed; results are
 * new tensors the caller owns, or NULL / a negative MT_E* code with the
 * thread-local message set (torch's messages for bad arguments).  float32
 * and float64 are computed natively, float16/bfloat16 in float32 and rounded
 * once; other dtypes are not implemented, as torch's "slow_conv2d_cpu".
 * Nothing here touches Python: bindings call these without the GIL. */

/* stride, padding and dilation as (height, width). */
typedef struct mt_conv2d_params {
    int64_t stride[2];
    int64_t padding[2];
    int64_t dilation[2];
    int64_t groups;
} mt_conv2d_params;

/* torch.nn.functional.conv2d: input (N, C_in, H, W), or unbatched (C_in, H,
 * W); weight (C_out, C_in / groups, kH, kW); bias (C_out,) or NULL.  The
 * result is (N, C_out, OH, OW) (unbatched: (C_out, OH, OW)), contiguous. */
mt_tensor *mt_conv2d(mt_tensor *input, mt_tensor *weight, mt_tensor *bias,
                     const mt_conv2d_params *p);

/* The gradients of mt_conv2d's result with respect to input, weight and
 * bias, given grad_output shaped like that result: grads[i] is set for each
 * i with mask[i] (shaped like input, like weight, and (C_out,)), NULL for the
 * others.  Returns 0; on error a negative code with every grads[i] NULL. */
int mt_conv2d_backward(mt_tensor *grad_output, mt_tensor *input, mt_tensor *weight,
                       const mt_conv2d_params *p, const bool mask[3], mt_tensor *grads[3]);

#endif /* ATEN_LITE_CONV_H */
