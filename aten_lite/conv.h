/* aten_lite/conv.h - convolution over 1 to 3 spatial dims, plain and transposed, forward and backward (im2col + GEMM, or Winograd for 3x3). */
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

#define MT_CONV_MAX_SPATIAL 3

/* One convolution's arguments: nsp spatial dims (1, 2 or 3), each array
 * holding nsp values (depth, height, width order).  output_padding is read
 * only when transposed. */
typedef struct mt_conv_params {
    int nsp;
    bool transposed;
    int64_t stride[MT_CONV_MAX_SPATIAL];
    int64_t padding[MT_CONV_MAX_SPATIAL];
    int64_t dilation[MT_CONV_MAX_SPATIAL];
    int64_t output_padding[MT_CONV_MAX_SPATIAL];
    int64_t groups;
} mt_conv_params;

/* torch.convolution: input (N, C_in, *spatial), or unbatched (C_in,
 * *spatial); weight (C_out, C_in / groups, *kernel), or when transposed
 * (C_in, C_out / groups, *kernel); bias (C_out,) or NULL.  The result is
 * (N, C_out, *out) (unbatched: (C_out, *out)), contiguous, where out is
 * (in + 2p - d(k - 1) - 1) / s + 1, or when transposed
 * (in - 1) s - 2p + d(k - 1) + output_padding + 1. */
mt_tensor *mt_convolution(mt_tensor *input, mt_tensor *weight, mt_tensor *bias,
                          const mt_conv_params *p);

/* The gradients of mt_convolution's result with respect to input, weight
 * and bias, given grad_output shaped like that result: grads[i] is set for
 * each i with mask[i] (shaped like input, like weight, and (C_out,)), NULL
 * for the others.  Returns 0; on error a negative code with every grads[i]
 * NULL. */
int mt_convolution_backward(mt_tensor *grad_output, mt_tensor *input, mt_tensor *weight,
                            const mt_conv_params *p, const bool mask[3], mt_tensor *grads[3]);

#endif /* ATEN_LITE_CONV_H */
