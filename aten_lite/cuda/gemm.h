/* aten_lite/cuda/gemm.h - the CUDA GEMM launcher (aten_lite/cuda/gemm.cu) as the C side
 * (aten_lite/cuda/gemm.c, aten_lite/cuda/conv.c) calls it: one batched product in cuBLAS's
 * column-major terms. */
#ifndef ATEN_LITE_CUDA_GEMM_H
#define ATEN_LITE_CUDA_GEMM_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The element types of the CUDA GEMM. */
typedef enum {
    MT_CUDA_GEMM_FLOAT32,
    MT_CUDA_GEMM_FLOAT64,
    MT_CUDA_GEMM_FLOAT16,  /* computed in float32 */
    MT_CUDA_GEMM_BFLOAT16, /* computed in float32 */
    MT_CUDA_GEMM_COMPLEX64,  /* (re, im) pairs of float: cuBLAS's cgemm */
    MT_CUDA_GEMM_COMPLEX128, /* of double: zgemm */
    MT_CUDA_GEMM_INT8,     /* integers of 1, 2, 4 or 8 bytes, signed or not: products and sums */
    MT_CUDA_GEMM_INT16,    /* wrap around modulo 2^bits, as the cpu's (exact in that type) */
    MT_CUDA_GEMM_INT32,
    MT_CUDA_GEMM_INT64,
} mt_cuda_gemm_type;

/* Note [CUDA GEMM descriptor]
 * C[b] = alpha op(A[b]) op(B[b]) + beta C[b] for b < batch, column-major as cuBLAS says it:
 * op(A) is m x k (A itself, lda >= max(1, m), when ta == 0; A^T, lda >= max(1, k), when 1),
 * op(B) k x n likewise, C m x n with ldc >= max(1, m); element strides between batch entries
 * (0: one matrix shared by all).  beta == 0: C is not read.  m, n > 0, k >= 0, batch > 0, all
 * within int.  Floats and complex go to cuBLAS (TF32 for float32 when tf32), integers and
 * k == 0 to a plain kernel of ours.  The integer types come last in mt_cuda_gemm_type. */
typedef struct mt_cuda_gemm_desc {
    mt_cuda_gemm_type type;
    int ta, tb;
    int64_t m, n, k, batch;
    const void *a, *b;
    void *c;
    int64_t lda, ldb, ldc;
    int64_t sa, sb, sc;
    double alpha, beta;       /* floats; the real parts for complex */
    double alpha_im, beta_im; /* complex: the imaginary parts */
    int64_t alpha_i, beta_i;  /* integers */
    int tf32;                 /* float32 products may use TF32 tensor cores */
} mt_cuda_gemm_desc;

/* Runs d on `device`, queued on `stream` (NULL: the default stream) through the calling
 * thread's cuBLAS handle of that device (created on first use).  0, or MT_ERUNTIME with
 * "CUDA error: ..." (a launch or cuBLAS failure, or cuBLAS could not be loaded). */
int mt_cuda_gemm(int device, void *stream, const mt_cuda_gemm_desc *d);

/* cdist's kernel (Note [cdist kernel] in distance.c): out (batch, n1, n2) <- the p-norm
 * distances between the rows of x1 (batch, n1, m) and x2 (batch, n2, m), contiguous float32
 * (dbl 0) or float64; kind picks the norm's form. */
enum { MT_CUDA_CDIST_ZERO, MT_CUDA_CDIST_ONE, MT_CUDA_CDIST_TWO, MT_CUDA_CDIST_INF, MT_CUDA_CDIST_P };
int mt_cuda_cdist(int device, void *stream, int dbl, const void *x1, const void *x2, void *out,
                  int64_t batch, int64_t n1, int64_t n2, int64_t m, double p, int kind);

/* A batched product in row-major terms, for kernels that lay their operands out themselves
 * (convolution): C[b] (m x n) = alpha A[b] (m x k) @ B[b] (k x n) + beta C[b], element
 * strides (row, column) per matrix and between batch entries, pointers on the device. */
typedef struct mt_cuda_rm_gemm {
    mt_cuda_gemm_type type;
    int64_t batch, m, n, k;
    const void *a, *b;
    void *c;
    int64_t a0, a1, sa, b0, b1, sb, c0, c1, sc;
    double alpha, beta;
    int tf32; /* float32 may use TF32 */
} mt_cuda_rm_gemm;

/* The C side (aten_lite/cuda/gemm.c), on the device's current stream, by Note [Row-major
 * products on cuBLAS]: MT_ENOTIMPL when an operand's strides cannot be said to cuBLAS. */
int mt__cuda_gemm_rowmajor(const mt_cuda_rm_gemm *r, int device);

#ifdef __cplusplus
}
#endif

#endif /* ATEN_LITE_CUDA_GEMM_H */
