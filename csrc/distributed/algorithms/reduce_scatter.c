/* csrc/distributed/algorithms/reduce_scatter.c - reduce-scatter: recursive halving or the ring's first half, on a copy of the input. */
#include <stdlib.h>
#include <string.h>

#include "c10_lite/error.h"
#include "csrc/distributed/algorithms/algorithms.h"

/* Recursive halving (Note [Recursive halving]) when the order matters, else the ring (Note
 * [Ring all-reduce]: with shift -1 the chunk that ends complete on rank r is chunk r). */
int
mt_algo_reduce_scatter(const mt_algo_ctx *c, const void *in, const size_t *counts, void *out,
                       mt_dtype dt, mt_dist_op op)
{
    int n = c->size;
    size_t isz = mt_dtype_itemsize(dt), total = 0, mine = 0;
    for (int i = 0; i < n; i++) {
        if (i == c->rank) {
            mine = total;
        }
        total += counts[i];
    }
    char *work = malloc(total > 0 ? total * isz : 1);
    if (work == NULL) {
        return mt_error_set(MT_ENOMEM, "out of memory in reduce_scatter (%zu bytes)",
                            total * isz);
    }
    memcpy(work, in, total * isz);
    int rc = 0;
    if (n > 1) { /* Note [Fixed reduction order] */
        rc = mt_algo_fixed_order(c, dt, op) ? mt__rh_reduce_scatter(c, work, counts, dt, op)
                                           : mt__ring_reduce_scatter(c, work, counts, dt, op, -1);
    }
    if (rc == 0) {
        memcpy(out, work + mine * isz, counts[c->rank] * isz);
        if (op == MT_DIST_AVG) {
            mt_dist_avg_finish(out, counts[c->rank], dt, n);
        }
    }
    free(work);
    return rc;
}
