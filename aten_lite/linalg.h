/* aten_lite/linalg.h - matrix products: dot, mv, mm, bmm, matmul, addmm, addmv, baddbmm. */
#ifndef ATEN_LITE_LINALG_H
#define ATEN_LITE_LINALG_H

#include "aten_lite/scalar.h"
#include "c10_lite/tensor_impl.h"

/* Conventions as aten_lite/ops.h: tensor arguments are borrowed; results are
 * new tensors the caller owns, or NULL with the thread-local message set
 * (torch's messages: shape mismatches, dimension counts, dtype mismatches,
 * Bool has no kernel).  Both operands must have the same dtype; float32 and
 * float64 go through the BLAS when one is loaded (see Note [Run-time BLAS]),
 * everything else through the exact fallback of Note [Fallback GEMM].
 * Nothing here touches Python: bindings call these without the GIL. */

/* 1-D x 1-D -> 0-d (torch.dot; vdot is the same for real dtypes). */
mt_tensor *mt_dot(const mt_tensor *a, const mt_tensor *b, const char *fname);
/* (n, m) x (m,) -> (n,) */
mt_tensor *mt_mv(const mt_tensor *mat, const mt_tensor *vec);
/* (n, m) x (m, p) -> (n, p) */
mt_tensor *mt_mm(const mt_tensor *a, const mt_tensor *b);
/* (b, n, m) x (b, m, p) -> (b, n, p) */
mt_tensor *mt_bmm(const mt_tensor *a, const mt_tensor *b);
/* torch.matmul: dot, mv, mm, or a batched product broadcasting the leading dims. */
mt_tensor *mt_matmul(mt_tensor *a, mt_tensor *b);
/* beta * input + alpha * (mat1 @ mat2), input broadcast to the result's
 * shape; beta == 0 ignores input's values (NaN included), as torch. */
mt_tensor *mt_addmm(mt_tensor *input, const mt_tensor *mat1, const mt_tensor *mat2, mt_scalar beta,
                    mt_scalar alpha);
/* beta * input + alpha * bmm(batch1, batch2), input broadcast to the result. */
mt_tensor *mt_baddbmm(mt_tensor *input, const mt_tensor *batch1, const mt_tensor *batch2,
                      mt_scalar beta, mt_scalar alpha);
/* beta * input + alpha * (mat @ vec). */
mt_tensor *mt_addmv(mt_tensor *input, const mt_tensor *mat, const mt_tensor *vec, mt_scalar beta,
                    mt_scalar alpha);

/* C = alpha * op(A) @ op(B) + beta * C on raw row-major float32 (dt MT_FLOAT32)
 * or float64 matrices, for kernels that lay their operands out themselves
 * (convolution): op(A) is m x k (A itself, leading dimension lda, or when ta
 * the transpose of a k x m A), op(B) k x n likewise; C is m x n with rows n
 * apart.  beta == 0: C is only written (NaN in it does not matter).  Through the BLAS when one is loaded
 * (single-threaded when called from a parallel region, see Note [Run-time
 * BLAS]), else the portable GEMM of Note [Fallback GEMM].  0, or MT_ENOMEM
 * (the fallback's scratch copy of a transposed B) with C unspecified. */
int mt_gemm_raw(mt_dtype dt, bool ta, bool tb, int64_t m, int64_t n, int64_t k, double alpha,
                const void *a, int64_t lda, const void *b, int64_t ldb, double beta, void *c);

/* ---- TF32 for float32 products on CUDA (torch.backends.cuda.matmul.allow_tf32, i.e.
 * set_float32_matmul_precision other than "highest"): set from Python, read by the CUDA GEMM. */
void mt_set_matmul_allow_tf32(bool allow);
bool mt_matmul_allow_tf32(void);

#endif /* ATEN_LITE_LINALG_H */
