/* aten_lite/sparse_coo.h - products of sparse COO matrices with dense matrices. */
#ifndef ATEN_LITE_SPARSE_COO_H
#define ATEN_LITE_SPARSE_COO_H

#include "c10_lite/tensor_impl.h"

/* out = S @ dense for the (m x K) sparse matrix S whose nonzeros are values[e] at
 * (rows[e], cols[e]): rows, cols int64 (nnz), values (nnz) and dense (K x N) of one floating
 * dtype (float32 or float64), any strides; indices in any order, duplicates summed.  Returns a
 * new contiguous (m x N) tensor the caller owns, or NULL with the message set (an index out of
 * range: MT_EINDEX).  All arguments borrowed. */
mt_tensor *mt_coo_spmm(mt_tensor *rows, mt_tensor *cols, mt_tensor *values, mt_tensor *dense,
                       int64_t m);

/* out[e] = dot(a[rows[e], :], b[cols[e], :]) for a (M x N) and b (K x N) of one floating dtype:
 * the gradient of the values of S in S @ b given the gradient a of the product.  Returns a new
 * (nnz) tensor the caller owns, or NULL with the message set.  All arguments borrowed. */
mt_tensor *mt_coo_sampled_dot(mt_tensor *rows, mt_tensor *cols, mt_tensor *a, mt_tensor *b);

#endif /* ATEN_LITE_SPARSE_COO_H */
