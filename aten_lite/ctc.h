/* aten_lite/ctc.h - connectionist temporal classification loss: the alpha recursion and its gradient. */
#ifndef ATEN_LITE_CTC_H
#define ATEN_LITE_CTC_H

#include <stdbool.h>
#include <stdint.h>

#include "c10_lite/tensor_impl.h"

/* Conventions as aten_lite/ops.h: tensor arguments are borrowed; results are
 * new contiguous tensors the caller owns, or NULL / a negative MT_E* code
 * with the thread-local message set.  Nothing here touches Python.
 *
 * Arguments shared by both functions:
 *   log_probs       (T, N, C) float32 or float64, any strides
 *   targets         int64: (N, S) padded rows, or 1-d, the N targets one after
 *                   the other (target_lengths summing to its size)
 *   input_lengths,
 *   target_lengths  int64 (N,): 0 <= input_lengths[b] <= T, target_lengths[b] >= 0
 *                   (and <= S for padded targets)
 *   blank           the blank label, 0 <= blank < C; target labels lie in [0, C)
 * Every argument is checked (an error, never a read out of bounds). */

/* The negative log likelihood (N,) of each target under log_probs, and the
 * log alphas (N, T, 2 * max(target_lengths) + 1) of the recursion (-inf
 * where a state is unreachable or past an item's input or target length).
 * An item of input length 0 has likelihood 1 for an empty target, else 0.
 * 0, or an error with nothing set. */
int mt_ctc_loss(const mt_tensor *log_probs, const mt_tensor *targets,
                const mt_tensor *input_lengths, const mt_tensor *target_lengths, int64_t blank,
                mt_tensor **neg_log_likelihood, mt_tensor **log_alpha);

/* The gradient (T, N, C) of grad (N,) . neg_log_likelihood with respect to
 * log_probs, in torch's form (Note [CTC gradient] in ctc.c): for t below
 * the item's input length exp(lp) - exp(log(sum of alpha * beta over the
 * states of label c) + nll - lp), times grad[b]; zero from the input length
 * on, and for items of infinite loss when zero_infinity.  nll and
 * log_alpha are mt_ctc_loss's results for the same arguments. */
mt_tensor *mt_ctc_loss_backward(const mt_tensor *grad, const mt_tensor *log_probs,
                                const mt_tensor *targets, const mt_tensor *input_lengths,
                                const mt_tensor *target_lengths,
                                const mt_tensor *neg_log_likelihood,
                                const mt_tensor *log_alpha, int64_t blank, bool zero_infinity);

#endif /* ATEN_LITE_CTC_H */
