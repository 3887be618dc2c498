/* aten_lite/pool.h - max and average pooling over 1 to 3 spatial dims (fixed and adaptive windows), forward and backward. */
#ifndef ATEN_LITE_POOL_H
#define ATEN_LITE_POOL_H

#include <stdbool.h>
#include <stdint.h>

#include "c10_lite/tensor_impl.h"

/* Conventions as aten_lite/ops.h: tensor arguments are borrowed; results are
 * new contiguous tensors the caller owns, or NULL / a negative MT_E* code
 * with the thread-local message set (torch's messages for bad arguments,
 * those of its 2-D or 3-D ops by the number of spatial dims).  Inputs are
 * (N, C, *spatial) or unbatched (C, *spatial); results keep that rank.
 * Planes (N * C of them) are spread over the thread pool.  float16/bfloat16
 * are computed in float32.  Nothing here touches Python. */

#define MT_POOL_MAX_SPATIAL 3

/* nsp spatial dims (2 or 3; 1-D pooling is 2-D of height 1), each array
 * holding nsp values; kernel, stride and padding must fit in 32 bits, as
 * torch's.  Average pooling uses no dilation (all 1). */
typedef struct mt_pool_params {
    int nsp;
    int64_t kernel[MT_POOL_MAX_SPATIAL];
    int64_t stride[MT_POOL_MAX_SPATIAL];
    int64_t padding[MT_POOL_MAX_SPATIAL];
    int64_t dilation[MT_POOL_MAX_SPATIAL];
    bool ceil_mode;
} mt_pool_params;

/* torch's max_pool2d/3d(..., return_indices=True): *values holds each
 * window's maximum (NaN when it holds one) and *indices (int64) its flat
 * position within its plane (d * H * W + h * W + w); the first maximum wins,
 * a later NaN replaces it.  Padding is never chosen (implicit -inf).  Every
 * real dtype but bool and the barebones unsigned ones.  0, or an error with
 * nothing set. */
int mt_max_pool(mt_tensor *input, const mt_pool_params *p, mt_tensor **values,
                mt_tensor **indices);

/* The gradient of mt_max_pool's values with respect to its input:
 * grad_output (shaped like the values) added at each index.  Floating
 * dtypes; indices must come from the forward call (an index outside its
 * plane is an error, -1 marks a window that held no input element). */
mt_tensor *mt_max_pool_backward(mt_tensor *grad_output, mt_tensor *input,
                                const mt_tensor *indices, const mt_pool_params *p);

/* torch's avg_pool2d/3d: divisor_override 0 means none.  Floating dtypes. */
mt_tensor *mt_avg_pool(mt_tensor *input, const mt_pool_params *p, bool count_include_pad,
                       int64_t divisor_override);
mt_tensor *mt_avg_pool_backward(mt_tensor *grad_output, mt_tensor *input,
                                const mt_pool_params *p, bool count_include_pad,
                                int64_t divisor_override);

/* torch's adaptive_avg_pool2d/3d to an output of osize (nsp values): output
 * position i of an axis averages input positions [floor(i * n / o),
 * ceil((i + 1) * n / o)).  Floating dtypes. */
mt_tensor *mt_adaptive_avg_pool(mt_tensor *input, int nsp, const int64_t *osize);
/* grad_output's spatial sizes are the forward's output size. */
mt_tensor *mt_adaptive_avg_pool_backward(mt_tensor *grad_output, mt_tensor *input, int nsp);

/* torch's adaptive_max_pool2d/3d(..., return_indices=True): the maximum of
 * each adaptive window (as mt_adaptive_avg_pool's) and its plane index,
 * ties and NaN as mt_max_pool.  Floating dtypes.  0 or an error with
 * nothing set. */
int mt_adaptive_max_pool(mt_tensor *input, int nsp, const int64_t *osize, mt_tensor **values,
                         mt_tensor **indices);
/* grad_output (shaped like the values) added at each index. */
mt_tensor *mt_adaptive_max_pool_backward(mt_tensor *grad_output, mt_tensor *input,
                                         const mt_tensor *indices, int nsp);

#endif /* ATEN_LITE_POOL_H */
