/* aten_lite/distance.h - p-norm distances between the rows of two batches of matrices. */
#ifndef ATEN_LITE_DISTANCE_H
#define ATEN_LITE_DISTANCE_H

#include "c10_lite/tensor_impl.h"

/* out[b, i, j] = ||x1[b, i, :] - x2[b, j, :]||_p for x1 (B, P, M) and x2 (B, R, M) of one
 * floating dtype (float32 or float64), p >= 0 (inf: the largest difference; 0: the number of
 * differing coordinates).  Returns a new contiguous (B, P, R) tensor the caller owns, or NULL
 * with the message set; x1 and x2 are borrowed (any strides). */
mt_tensor *mt_cdist(mt_tensor *x1, mt_tensor *x2, double p);

#endif /* ATEN_LITE_DISTANCE_H */
