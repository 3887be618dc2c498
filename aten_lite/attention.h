/* aten_lite/attention.h - fused scaled dot-product attention (forward and backward) on the CPU. */
#ifndef ATEN_LITE_ATTENTION_H
#define ATEN_LITE_ATTENTION_H

#include <stdbool.h>

#include "c10_lite/tensor_impl.h"

/* Note [Fused attention]
 * softmax(scale * q @ k^T + mask) @ v for every batch entry, without a (batch, L, S) tensor
 * of scores: each task takes one batch entry and a block of up to 64 query rows, computes
 * their scores into a scratch buffer (one GEMM), masks them, turns each row into
 * probabilities in place (max, exp, sum) and multiplies by v (a second GEMM).  With
 * is_causal, row i sees keys j <= i only (top-left aligned, as torch's tril(ones(L, S))),
 * so a block reads only the keys up to its last row: half the work of the full product.
 * Tasks spread over the pool; each GEMM runs single-threaded inside it.  A row that sees no
 * key (every key masked) gives zeros, as torch's CPU kernels, and a log-sum-exp of -inf.
 *
 * The backward pass recomputes each block's probabilities from q, k and the saved
 * log-sum-exp (P = exp(s - lse)) instead of keeping them, and forms
 *     dv = P^T do,   dP = do v^T,   dS = P * (dP - rowsum(do * out)) * scale,
 *     dq = dS k,     dk = dS^T q,
 * one batch entry per task (its dk and dv accumulate over the query blocks).
 *
 * The row path: float32 operands without a mask, with E and Ev multiples of 8, skip BLAS.  Keys and values are packed transposed once per batch entry,
 * and every product above is mt_tri_gemm_f32 (Note [Triangular small products]), which with
 * is_causal computes only the tiles of 4 query rows that reach a key: the masked half is
 * skipped tile by tile instead of block by block, so query blocks stay 64 rows.  Its gradients
 * are laid out as torch's fused CPU kernel lays out its own: (B..., L, E) tensors whose last
 * batch dim (the heads) lies inside the rows in memory, so that q.transpose(1, 2) of a
 * (B, L, H, E) projection gets back a contiguous gradient; dk and dv are written by the
 * first query block (rows past it zeroed) rather than zeroed first.
 *
 * Operands: q (B..., L, E), k (B..., S, E), v (B..., S, Ev) of one dtype, float32 or
 * float64, with the same batch sizes B... (any strides there, 0 included: broadcast k/v are
 * expanded views), unit stride along their last dimension and a row stride of at least that
 * dimension's size (what a GEMM reads); mask NULL or (B..., L, S) of dtype bool (True: take
 * part) or q's dtype (added to the scores), any strides.  Anything else is MT_EINVAL (the
 * Python layer arranges the operands first).  Results are new tensors the caller owns: out
 * (B..., L, Ev) and lse (B..., L) in q's dtype, contiguous; the gradients have the shapes of
 * q, k and v (contiguous, or on the row path laid out as above).  Nothing here touches Python: bindings call these without the GIL. */
typedef struct {
    const mt_tensor *q, *k, *v;
    const mt_tensor *mask; /* NULL: none */
    bool causal;
    double scale;
} mt_sdpa_args;

/* 0 with *out and *lse set, or a negative MT_E* code with the message set (nothing set). */
int mt_sdpa_forward(const mt_sdpa_args *a, mt_tensor **out, mt_tensor **lse);
/* The gradients of q, k and v given the forward's out and lse and the gradient gout of out
 * (same shape as out, any strides).  0 with all three set, or an error (nothing set). */
int mt_sdpa_backward(const mt_sdpa_args *a, const mt_tensor *out, const mt_tensor *lse,
                     const mt_tensor *gout, mt_tensor **dq, mt_tensor **dk, mt_tensor **dv);

#endif /* ATEN_LITE_ATTENTION_H */
