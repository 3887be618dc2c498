/* aten_lite/layer_norm.h - layer normalisation over the last dims, forward and backward fused. */
#ifndef ATEN_LITE_LAYER_NORM_H
#define ATEN_LITE_LAYER_NORM_H

#include <stdbool.h>

#include "c10_lite/tensor_impl.h"

/* Note [Fused layer norm]
 * x's last nd dims are normalised: each row of len = their product elements gets mean m and
 * rstd = 1 / sqrt(var + eps) (biased variance, each in one pass over the row held in cache:
 * the sum, then the sum of squared deviations), then out = (x - m) rstd w + b in one pass; the
 * op-by-op form read and wrote the tensor about nine times.  The backward, from the gradient g
 * of out and, when given, the gradients gm and gr of mean and rstd: with xhat = (x - m) rstd
 * and gh = g w,
 *     dx = rstd (gh - mean(gh) - xhat mean(gh xhat)) + (gm - gr rstd^2 xhat) / len,
 *     dw = the sum over rows of g xhat, db = the sum over rows of g,
 * dx in one pass per row after two sums; dw and db summed over fixed blocks of rows, then the
 * blocks in order, so that results are the same for any number of threads.  float32 rows sum
 * in float lanes (as torch's kernel), float64 in double.
 * Operands: x contiguous float32/float64 (mean and rstd: x's dtype, one value per row), w and b
 * (either NULL) contiguous with len elements of x's dtype; anything else returns MT_EINVAL
 * (callers widen half precision to float32 and make operands contiguous first). */

/* out, mean and rstd (new tensors the caller owns: out of x's shape, mean and rstd of x's
 * shape with the last nd sizes 1).  0, or a negative code with nothing allocated. */
int mt_layer_norm(const mt_tensor *x, int nd, const mt_tensor *w, const mt_tensor *b,
                  double eps, mt_tensor **out, mt_tensor **mean, mt_tensor **rstd);

/* The gradients of x, w and b, each computed when its want[] flag is set (else NULL); g of
 * x's shape, gm and gr (either NULL: no gradient arrived) of mean's shape; results as the
 * variables' shapes.  0, or a negative code with nothing allocated. */
int mt_layer_norm_backward(const mt_tensor *g, const mt_tensor *gm, const mt_tensor *gr,
                           const mt_tensor *x, const mt_tensor *mean, const mt_tensor *rstd,
                           const mt_tensor *w, int nd, const bool want[3], mt_tensor **dx,
                           mt_tensor **dw, mt_tensor **db);

#endif /* ATEN_LITE_LAYER_NORM_H */
