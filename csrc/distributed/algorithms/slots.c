/* csrc/distributed/algorithms/slots.c - small collectives in one round over a transport's shared slots (Note [Slots]). */
#include <string.h>

#include "c10_lite/error.h"
#include "csrc/distributed/algorithms/algorithms.h"

/* Note [Slot collectives]
 * all-reduce: every rank copies its buffer into its slot; once all are
 * published each rank combines the slots in one fixed order, so every rank
 * computes the same bytes: Note [Fixed reduction order]'s tree when the order
 * matters, else in rank order (slot 0 op slot 1 op ...).  broadcast: only the root's
 * slot carries data.  barrier: a step with nothing in it (publishing is
 * arriving).  Each is one step: the latency of a few cache-line transfers
 * instead of log2(n) message exchanges. */

/* What a step is (compared across ranks by the transport): the collective, dtype, op, root. */
enum { MT__SLOT_ALLREDUCE = 1, MT__SLOT_BROADCAST, MT__SLOT_BARRIER };

static uint64_t
mt__what(int kind, int a, int b)
{
    return (uint64_t)kind << 48 | (uint64_t)(uint16_t)a << 16 | (uint64_t)(uint16_t)b;
}

/* One step: the own slot gets len bytes of src (NULL: nothing), then every rank's is shared. */
static int
mt__step(const mt_algo_ctx *c, const void *src, size_t len, uint64_t what, const void **all,
         uint64_t *step)
{
    void *mine;
    int rc = c->tp->vt->slots_enter(c->tp, &mine, step, c->deadline);
    if (rc < 0) {
        return rc;
    }
    if (src != NULL && len) {
        memcpy(mine, src, len);
    }
    return c->tp->vt->slots_share(c->tp, *step, len, what, all, c->deadline);
}

int
mt_algo_allreduce_slots(const mt_algo_ctx *c, void *buf, size_t count, mt_dtype dt,
                        mt_dist_op op)
{
    size_t len = count * mt_dtype_itemsize(dt);
    const void *all[MT_ALGO_MAX_SLOT_RANKS];
    uint64_t step;
    int rc = mt__step(c, buf, len, mt__what(MT__SLOT_ALLREDUCE, (int)dt, (int)op), all, &step);
    if (rc < 0) {
        return rc;
    }
    if (mt_algo_fixed_order(c, dt, op) && len) {
        /* Note [Fixed reduction order] */
        rc = mt_dist_reduce_tree(buf, all, c->size, count, dt, op);
        if (rc < 0) {
            c->tp->vt->slots_leave(c->tp, step);
            return rc;
        }
    }
    else {
        if (len) {
            memcpy(buf, all[0], len);
        }
        for (int r = 1; r < c->size; r++) {
            mt_dist_reduce_into(buf, all[r], count, dt, op);
        }
    }
    c->tp->vt->slots_leave(c->tp, step);
    if (op == MT_DIST_AVG) {
        mt_dist_avg_finish(buf, count, dt, c->size);
    }
    return 0;
}

int
mt_algo_broadcast_slots(const mt_algo_ctx *c, void *buf, size_t len, int root)
{
    const void *all[MT_ALGO_MAX_SLOT_RANKS];
    uint64_t step;
    int rc = mt__step(c, c->rank == root ? buf : NULL, len, mt__what(MT__SLOT_BROADCAST, root, 0),
                      all, &step);
    if (rc < 0) {
        return rc;
    }
    if (c->rank != root && len) {
        memcpy(buf, all[root], len);
    }
    c->tp->vt->slots_leave(c->tp, step);
    return 0;
}

int
mt_algo_barrier_slots(const mt_algo_ctx *c)
{
    const void *all[MT_ALGO_MAX_SLOT_RANKS];
    uint64_t step;
    int rc = mt__step(c, NULL, 0, mt__what(MT__SLOT_BARRIER, 0, 0), all, &step);
    if (rc == 0) {
        c->tp->vt->slots_leave(c->tp, step);
    }
    return rc;
}
