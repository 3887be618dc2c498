/* aten_lite/cast_loop.h - runs an inner loop on operands of other dtypes, casting in blocks. */
#ifndef ATEN_LITE_CAST_LOOP_H
#define ATEN_LITE_CAST_LOOP_H

#include "aten_lite/iter.h"

/* Note [Casting in blocks]
 * An op computes in one dtype (the promoted one), but its operands may have others:
 * int32 + float64, exp(int64), a float32 input of a float64 where.  Instead of
 * converting a whole operand into a temporary tensor first (a full extra pass over
 * memory and an allocation as big as the operand), the iterator runs over the operands
 * as they are and mt_cast_loop wraps the op's inner loop: each call is cut into blocks
 * of MT_CAST_BLOCK elements; an input of another dtype is converted block by block into
 * a buffer on the stack, which the op's loop then reads with a unit stride (as NumPy's
 * buffered iterator does).  Inputs already in the compute dtype are passed through
 * untouched, so the op's contiguous fast paths still apply to them.  Outputs must
 * already have the result dtype (mt__run_elementwise arranges that). */
#define MT_CAST_BLOCK 512
/* Operands an op wrapped this way may have (elementwise ops have at most 4). */
#define MT_CAST_MAX_OPERANDS 4

typedef struct mt_cast_ctx {
    mt_loop_fn inner;     /* the op's loop, over compute-dtype operands */
    void *inner_ctx;
    int noperands;        /* outputs first, as in the iterator */
    /* per operand: the loop converting its elements to the compute dtype, or NULL */
    mt_loop_fn to_compute[MT_CAST_MAX_OPERANDS];
    int64_t compute_itemsize[MT_CAST_MAX_OPERANDS];
} mt_cast_ctx;

/* Fills ctx for inner over operands whose dtypes are `dtypes` (outputs first, noutputs
 * of them, never cast) and must be seen as `compute` by the inputs.  Returns whether
 * any input needs a cast (when false, run inner directly).  noperands <= MT_CAST_MAX_OPERANDS. */
bool mt_cast_ctx_init(mt_cast_ctx *ctx, mt_loop_fn inner, void *inner_ctx, int noutputs,
                      int noperands, const mt_dtype *dtypes, const mt_dtype *compute);

/* The wrapping loop; its ctx is an mt_cast_ctx (read only, so threads may share it). */
void mt_cast_loop(char **data, const int64_t *n, const int64_t *strides, void *ctx);

#endif /* ATEN_LITE_CAST_LOOP_H */
