/* aten_lite/rnn.h - one layer and direction of an LSTM over all its time steps, forward and
 * backward, as single kernels. */
#ifndef ATEN_LITE_RNN_H
#define ATEN_LITE_RNN_H

#include <stdbool.h>
#include <stdint.h>

#include "c10_lite/tensor_impl.h"

/* Note [Fused LSTM]
 * An LSTM layer recorded op by op made ten or more graph nodes per time step, whose recording
 * and backward cost more than their arithmetic for the small hidden sizes recurrent models
 * use.  mt_lstm_forward runs one layer in one direction over every step, one graph node: the
 * input's share of the gates, x W_ih^T (one product for all steps, written into the buffer
 * that then holds the gates), plus h W_hh^T (one small product per step) plus b_ih + b_hh; the
 * gates i, f, g, o (sigmoid, sigmoid, tanh, sigmoid), c' = f c + i g, h' = o tanh(c') (times
 * W_hr^T with a projection).  Rows are packed by time step as a PackedSequence's data: step t
 * holds batch_sizes[t] rows (non-increasing), the rows of the sequences still running; the
 * others keep their state, so each sequence ends (forward) or starts (reverse) with its own
 * state.  It keeps what mt_lstm_backward needs: the activated gates, the cells and their tanh
 * of every step (and h before the projection).  The backward runs the steps the other way,
 * keeping each step's gate gradients, so that the gradients of x, the weights and the biases
 * are one product (or sum) each at the end.  float32 and float64, contiguous operands;
 * results are new tensors the caller owns.  0, or a negative code (nothing returned). */
typedef struct {
    const mt_tensor *x;           /* (N, I): N = sum of batch_sizes */
    const int64_t *batch_sizes;   /* steps entries */
    int64_t steps;
    const mt_tensor *h0, *c0;     /* (B, P), (B, H); B = batch_sizes[0] */
    const mt_tensor *w_ih;        /* (4H, I) */
    const mt_tensor *w_hh;        /* (4H, P) */
    const mt_tensor *b_ih, *b_hh; /* (4H) or NULL */
    const mt_tensor *w_hr;        /* (P, H) or NULL: then P = H */
    bool reverse;
} mt_lstm_args;

/* out (N, P), h_n (B, P), c_n (B, H), and for the backward gates (N, 4H), cells (N, 2H: each
 * row c' then tanh(c')), hpre (N, H; NULL without a projection). */
int mt_lstm_forward(const mt_lstm_args *a, mt_tensor **out, mt_tensor **h_n, mt_tensor **c_n,
                    mt_tensor **gates, mt_tensor **cells, mt_tensor **hpre);

/* The gradients of x, h0, c0, w_ih, w_hh, b_ih, b_hh, w_hr (grads[0..7]; NULL where needs[i]
 * is false or the parameter is absent) from those of out, h_n and c_n (each may be NULL:
 * zero). */
enum { MT_LSTM_GRADS = 8 };
int mt_lstm_backward(const mt_lstm_args *a, const mt_tensor *out, const mt_tensor *gates,
                     const mt_tensor *cells, const mt_tensor *hpre, const mt_tensor *g_out,
                     const mt_tensor *g_hn, const mt_tensor *g_cn, const bool *needs,
                     mt_tensor **grads);

#endif /* ATEN_LITE_RNN_H */
