/* aten_lite/cpu/tri_gemm.h - small float32 products for fused attention, optionally triangular. */
#ifndef ATEN_LITE_CPU_TRI_GEMM_H
#define ATEN_LITE_CPU_TRI_GEMM_H

#include <stdbool.h>
#include <stdint.h>

/* Note [Triangular small products]
 * Fused attention's products are small (a head of 16 to 64 columns, blocks of 64 rows) and
 * many: a BLAS call per product spends much of its time on the call, on packing and on
 * the masked half of a causal block.  mt_tri_gemm_f32 computes
 *     C[m x n] (+)= alpha * A[m x k] B[k x n]
 * with A read element by element through two strides (so A may be a transposed view) and B
 * and C row-major with unit column stride, n a multiple of 8.  It runs over tiles of 4 rows
 * by up to 32 columns held in registers (GCC vector types), with no packing; as in a BLAS, the
 * clones with FMA round each multiply-add once (the baseline clone twice).  `tri` skips work that a causal mask makes zero or unused, for a tile
 * of rows [r0, r1) (row r is query `diag + r`, or key r for MT_TRI_KLO):
 *   MT_TRI_N    only columns below diag + r1 (rounded up to 8) are written (the keys the
 *               tile's rows see; the others keep whatever they held),
 *   MT_TRI_KHI  the sum stops at k = diag + r1 (A is zero past it: probabilities by keys),
 *   MT_TRI_KLO  the sum starts at k = r0 - diag (A^T is zero before it: keys by queries).
 * The rows skipped under KHI and KLO must be zero in A for the result to be the full
 * product; the caller (Note [Fused attention]) zeroes them. */
typedef enum { MT_TRI_NONE, MT_TRI_N, MT_TRI_KHI, MT_TRI_KLO } mt_tri_kind;

typedef struct {
    int64_t m, n, k;
    const float *a;
    int64_t a_rs, a_cs; /* A(i, p) = a[i * a_rs + p * a_cs] */
    const float *b;
    int64_t ldb;
    float *c;
    int64_t ldc;
    float alpha;
    bool accumulate; /* C += instead of C = */
    mt_tri_kind tri;
    int64_t diag;
} mt_tri_gemm;

void mt_tri_gemm_f32(const mt_tri_gemm *g);

#endif /* ATEN_LITE_CPU_TRI_GEMM_H */
