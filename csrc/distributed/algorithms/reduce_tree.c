/* csrc/distributed/algorithms/reduce_tree.c - the one order in which every reduction combines the ranks' values (Note [Fixed reduction order]). */
#include <stdlib.h>
#include <string.h>

#include "c10_lite/error.h"
#include "csrc/distributed/algorithms/algorithms.h"

/* Note [Fixed reduction order]
 * Floating-point SUM, AVG and PRODUCT are not associative: (a + b) + c and
 * a + (b + c) may differ in the last bit.  So that a result does not depend
 * on which algorithm the message size picks, on the transport or on timing,
 * every all-reduce, reduce-scatter and reduce combines the values x_0 ..
 * x_{n-1} of the n ranks (in rank order) of each element by one rule, T:
 *
 *   p = the largest power of two <= n, rem = n - p;
 *   y_v = x_{2v} op x_{2v+1} for v < rem,  y_v = x_{v+rem} for rem <= v < p;
 *   then pairwise levels over y (y_0 op y_1, y_2 op y_3, ...), then over
 *   those, until one value is left.
 *
 * For a power of two n this is the balanced pairwise tree over rank index:
 * ((x0 + x1) + (x2 + x3)) at 4 ranks.  Others: 3 ranks (x0 + x1) + x2,
 * 5 ranks ((x0 + x1) + x2) + (x3 + x4), 6 ranks ((x0 + x1) + (x2 + x3)) +
 * (x4 + x5).  AVG is T, then one division by n.  16-bit floats are widened
 * first (Note [16-bit float reductions] in cpu_backend.c): T runs in float32
 * and the result is rounded once.  Every op is commutative, so which operand
 * of a pair comes first does not matter (except for the payload bits of a
 * NaN: a NaN result is NaN on every path, its payload may differ).
 *
 * Why a pairwise tree rather than the left fold x0 + x1 + ... + x_{n-1}:
 * the fold is a chain of n - 1 dependent steps, so a bandwidth algorithm
 * could only compute it by passing partial sums along a chain of ranks,
 * while the tree is what recursive doubling (small buffers) and recursive
 * halving (large ones) compute in log2 n rounds; its rounding error grows
 * with log n instead of n; and a power-of-two tree over ranks, with a tree
 * over micro-batches inside each rank, is the tree over all micro-batches,
 * whatever the split (Note [Deterministic DDP] in nn/parallel/_reducer.py).
 * The rem folding for other sizes is how recursive doubling handles them.
 *
 * Who computes T: slots (every rank evaluates it over the slots with
 * mt_dist_reduce_tree), recursive doubling (its rounds are T's levels, Note
 * [Recursive doubling]), recursive halving (Note [Recursive halving]) for
 * large all-reduces and for reduce-scatter, and reduce (Note [Reduce]).
 * Integer, bool, MIN/MAX and bitwise reductions give the same bits in any
 * order and keep the order-agnostic algorithms (ring, left fold).
 *
 * MINITORCH_REDUCTION_ORDER=any, when a group is made (read by the CPU
 * backend, mt_algo_ctx.any_order), lets that group's floating reductions use
 * the order-agnostic algorithms too; it exists to measure what the fixed
 * order costs (bench/allreduce.py --any-order times both groups in the same
 * processes), and results then depend on the message size, as in gloo. */

bool
mt_dist_order_matters(mt_dtype dt, mt_dist_op op)
{
    return (op == MT_DIST_SUM || op == MT_DIST_AVG || op == MT_DIST_PRODUCT) &&
           (mt_dtype_is_floating(dt) || mt_dtype_is_complex(dt));
}

/* The tree is evaluated block by block, so that its scratch (one block per
 * level) is small, on the stack for up to 2^7 ranks, and stays in cache. */
#define MT__TREE_BLOCK_BYTES ((size_t)4096)
#define MT__TREE_STACK_LEVELS 8

typedef struct {
    const void *const *x;
    size_t base; /* byte offset of the block in every buffer */
    int rem;
    size_t count, len;
    mt_dtype dt;
    mt_dist_op op;
    char *scratch; /* MT__TREE_BLOCK_BYTES per level */
} mt__tree;

static const char *
mt__x(const mt__tree *t, int r)
{
    return (const char *)t->x[r] + t->base;
}

/* y_v into dst */
static void
mt__leaf(const mt__tree *t, int v, void *dst)
{
    if (v < t->rem) {
        mt_dist_combine(dst, mt__x(t, 2 * v), mt__x(t, 2 * v + 1), t->count, t->dt, t->op);
    }
    else if (t->len) {
        memcpy(dst, mt__x(t, v + t->rem), t->len);
    }
}

/* T's subtree over y_lo .. y_{hi-1} (hi - lo a power of two) into dst; the
 * right halves go through scratch level `level`. */
static void
mt__eval(const mt__tree *t, int lo, int hi, void *dst, int level)
{
    if (hi - lo == 1) {
        mt__leaf(t, lo, dst);
        return;
    }
    int mid = lo + (hi - lo) / 2;
    if (hi - lo == 2 && lo >= t->rem) {
        mt_dist_combine(dst, mt__x(t, lo + t->rem), mt__x(t, mid + t->rem), t->count, t->dt,
                        t->op);
        return;
    }
    mt__eval(t, lo, mid, dst, level + 1);
    if (hi - mid == 1 && mid >= t->rem) {
        mt_dist_combine(dst, dst, mt__x(t, mid + t->rem), t->count, t->dt, t->op);
        return;
    }
    char *tmp = t->scratch + (size_t)level * MT__TREE_BLOCK_BYTES;
    mt__eval(t, mid, hi, tmp, level + 1);
    mt_dist_combine(dst, dst, tmp, t->count, t->dt, t->op);
}

int
mt_dist_reduce_tree(void *out, const void *const *x, int n, size_t count, mt_dtype dt,
                    mt_dist_op op)
{
    int p = 1, levels = 1;
    while (p * 2 <= n) {
        p *= 2;
        levels++;
    }
    _Alignas(64) char local[MT__TREE_STACK_LEVELS * MT__TREE_BLOCK_BYTES];
    char *scratch = levels <= MT__TREE_STACK_LEVELS ? local
                                                    : malloc((size_t)levels * MT__TREE_BLOCK_BYTES);
    if (scratch == NULL) {
        return mt_error_set(MT_ENOMEM, "out of memory in a reduction");
    }
    size_t isz = mt_dtype_itemsize(dt), block = MT__TREE_BLOCK_BYTES / isz;
    mt__tree t = {.x = x, .rem = n - p, .dt = dt, .op = op, .scratch = scratch};
    for (size_t b = 0; b < count; b += block) {
        t.count = count - b < block ? count - b : block;
        t.len = t.count * isz;
        t.base = b * isz;
        mt__eval(&t, 0, p, (char *)out + t.base, 0);
    }
    if (scratch != local) {
        free(scratch);
    }
    return 0;
}
