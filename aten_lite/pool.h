/* aten_lite/pool.h - 2-D max and average pooling (fixed and adaptive windows), forward and backward. */
#ifndef ATEN_LITE_POOL_H
#define ATEN_LITE_POOL_H

#include <stdbool.h>
#include <stdint.h>

#include "c10_lite/tensor_impl.h"

/* Conventions as aten_lite/ops.h: tensor arguments are borrowed; results are
 * new contiguous tensors the caller owns, or NULL / a negative MT_E* code
 * with the thread-local message set (torch's messages for bad arguments).
 * Inputs are (N, C, H, W) or unbatched (C, H, W); results keep that rank.
 * Planes (N * C of them) are spread over the thread pool.  float16/bfloat16
 * are computed in float32.  Nothing here touches Python. */

/* kernel, stride, padding and dilation as (height, width); each must fit in
 * 32 bits, as torch's.  Average pooling uses no dilation (1, 1). */
typedef struct mt_pool2d_params {
    int64_t kernel[2];
    int64_t stride[2];
    int64_t padding[2];
    int64_t dilation[2];
    bool ceil_mode;
} mt_pool2d_params;

/* torch.nn.functional.max_pool2d(..., return_indices=True): *values holds
 * each window's maximum (NaN when it holds one) and *indices (int64) its
 * position h * W + w in its plane; the first maximum wins, a later NaN
 * replaces it.  Padding is never chosen (implicit -inf).  Every real dtype
 * but bool and the barebones unsigned ones.  0, or an error with nothing set. */
int mt_max_pool2d(mt_tensor *input, const mt_pool2d_params *p, mt_tensor **values,
                  mt_tensor **indices);

/* The gradient of mt_max_pool2d's values with respect to its input:
 * grad_output (shaped like the values) added at each index.  Floating
 * dtypes; indices must come from the forward call (an index outside its
 * plane is an error, -1 marks a window that held no input element). */
mt_tensor *mt_max_pool2d_backward(mt_tensor *grad_output, mt_tensor *input,
                                  const mt_tensor *indices, const mt_pool2d_params *p);

/* torch.nn.functional.avg_pool2d: divisor_override 0 means none.  Floating
 * dtypes. */
mt_tensor *mt_avg_pool2d(mt_tensor *input, const mt_pool2d_params *p, bool count_include_pad,
                         int64_t divisor_override);
mt_tensor *mt_avg_pool2d_backward(mt_tensor *grad_output, mt_tensor *input,
                                  const mt_pool2d_params *p, bool count_include_pad,
                                  int64_t divisor_override);

/* torch.nn.functional.adaptive_avg_pool2d to an (oh, ow) output: output row
 * i averages input rows [floor(i * H / oh), ceil((i + 1) * H / oh)), and so
 * for columns.  Floating dtypes. */
mt_tensor *mt_adaptive_avg_pool2d(mt_tensor *input, int64_t oh, int64_t ow);
mt_tensor *mt_adaptive_avg_pool2d_backward(mt_tensor *grad_output, mt_tensor *input);

/* torch.nn.functional.adaptive_max_pool2d(..., return_indices=True): the
 * maximum of each adaptive window (as adaptive_avg_pool2d's) and its plane
 * index, ties and NaN as mt_max_pool2d.  Floating dtypes.  0 or an error
 * with nothing set. */
int mt_adaptive_max_pool2d(mt_tensor *input, int64_t oh, int64_t ow, mt_tensor **values,
                           mt_tensor **indices);
/* grad_output (shaped like the values) added at each index. */
mt_tensor *mt_adaptive_max_pool2d_backward(mt_tensor *grad_output, mt_tensor *input,
                                           const mt_tensor *indices);

#endif /* ATEN_LITE_POOL_H */
