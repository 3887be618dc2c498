/* csrc/distributed/algorithms/allreduce.c - all-reduce: choose slots, recursive doubling, recursive halving or the ring by size. */
#include "csrc/distributed/algorithms/algorithms.h"

int
mt_algo_allreduce(const mt_algo_ctx *c, void *buf, size_t count, mt_dtype dt, mt_dist_op op)
{
    size_t len = count * mt_dtype_itemsize(dt);
    if (mt_algo_use_slots(c, len)) {
        return mt_algo_allreduce_slots(c, buf, count, dt, op);
    }
    /* The ring needs at least one element per rank to be worth its 2(n-1) steps. */
    if (len >= MT_ALGO_RING_THRESHOLD && count >= (size_t)c->size) {
        /* Note [Fixed reduction order]: the ring combines each chunk in another order */
        return mt_algo_fixed_order(c, dt, op) ? mt_algo_allreduce_rh(c, buf, count, dt, op)
                                             : mt_algo_allreduce_ring(c, buf, count, dt, op);
    }
    return mt_algo_allreduce_rd(c, buf, count, dt, op);
}
