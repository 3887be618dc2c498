/* csrc/distributed/algorithms/barrier.c - dissemination barrier (any group size). */
#include "csrc/distributed/algorithms/algorithms.h"

/* Note [Barrier]
 * In round k (distance 2^k) every rank signals rank + 2^k and waits for
 * rank - 2^k.  After ceil(log2 n) rounds each rank has heard, directly or
 * transitively, from every other one, so none can leave before all arrived. */
int
mt_algo_barrier(const mt_algo_ctx *c)
{
    int n = c->size;
    if (mt_algo_use_slots(c, 0)) {
        return mt_algo_barrier_slots(c);
    }
    unsigned char out = 1, in = 0;
    for (int d = 1; d < n; d <<= 1) {
        int rc = mt_transport_sendrecv(c->tp, (c->rank + d) % n, &out, 1,
                                       (c->rank - d + n) % n, &in, 1, c->tag, c->deadline);
        if (rc < 0) {
            return rc;
        }
    }
    return 0;
}
