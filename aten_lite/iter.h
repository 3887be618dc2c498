/* aten_lite/iter.h - strided N-d iteration with broadcasting and dimension coalescing. */
#ifndef ATEN_LITE_ITER_H
#define ATEN_LITE_ITER_H

#include <stdbool.h>
#include <stdint.h>

#include "c10_lite/tensor_impl.h"

#define MT_ITER_MAX_OPERANDS 8

/* Note [Inner loops]
 * Every kernel has one signature, as NumPy's ufunc loops:
 *   data[i]    pointer to operand i's first element (outputs first)
 *   n[0]       number of elements
 *   strides[i] byte stride of operand i
 *   ctx        kernel-specific (a scalar, an alpha, ...)
 * The iterator calls it once per contiguous run of its innermost dimension,
 * so a loop checks its strides once and takes a vectorisable path when they
 * equal the itemsize (or 0 for a broadcast scalar). */
typedef void (*mt_loop_fn)(char **data, const int64_t *n, const int64_t *strides, void *ctx);

/* Note [TensorIterator]
 * Built once per op call from operands (outputs first):
 *  1. the broadcast shape of the inputs is computed; an output given by the
 *     caller must have exactly that shape, a NULL output is allocated with
 *     that shape, laid out like the inputs (so x.t() + 1 is column-major too);
 *  2. dimensions are sorted so the innermost has the smallest strides;
 *  3. adjacent dimensions that are contiguous for every operand are merged,
 *     so most calls end up 1-d and run one long inner loop;
 *  4. mt_iter_for_each splits the flattened index range across the pool.
 * Inputs are borrowed (the caller keeps them alive during the call); outputs
 * the iterator allocated are owned by it until taken with mt_iter_take_output. */
typedef struct mt_iter {
    int noperands;
    int noutputs;
    int ndim; /* iteration dims, innermost first */
    int64_t numel;
    int64_t shape[MT_MAX_DIMS];
    int64_t strides[MT_MAX_DIMS][MT_ITER_MAX_OPERANDS]; /* bytes */
    char *data[MT_ITER_MAX_OPERANDS];
    mt_tensor *tensors[MT_ITER_MAX_OPERANDS];
    bool owned[MT_ITER_MAX_OPERANDS];
    /* broadcast shape in the tensors' natural order, for allocation/messages */
    int out_ndim;
    int64_t out_shape[MT_MAX_DIMS];
} mt_iter;

/* Builds the iterator.  `operands[0..noutputs)` are outputs (NULL: allocate
 * one of dtype out_dtype on the inputs' device), the rest inputs.  Errors
 * (shapes that do not broadcast, an output of the wrong shape, too many
 * operands) return a negative code with a torch-style message; the iterator
 * then holds nothing (no mt_iter_release needed). */
int mt_iter_build(mt_iter *it, int noutputs, int ninputs, mt_tensor **operands,
                  mt_dtype out_dtype);
/* Runs loop over every element, in parallel when large. */
void mt_iter_for_each(const mt_iter *it, mt_loop_fn loop, void *ctx);
/* Same, always on the calling thread. */
void mt_iter_serial_for_each(const mt_iter *it, mt_loop_fn loop, void *ctx, int64_t begin,
                             int64_t end);
/* Returns output i with a new reference for the caller. */
mt_tensor *mt_iter_output(const mt_iter *it, int i);
/* Drops what the iterator owns. */
void mt_iter_release(mt_iter *it);

/* Broadcasts two shapes (torch.broadcast_shapes).  0 or MT_ERUNTIME with
 * "The size of tensor a (3) must match the size of tensor b (4) at
 * non-singleton dimension 1". */
int mt_broadcast_shapes(int na, const int64_t *a, int nb, const int64_t *b, int *nout,
                        int64_t *out);

#endif /* ATEN_LITE_ITER_H */
