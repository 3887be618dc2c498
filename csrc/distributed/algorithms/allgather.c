/* csrc/distributed/algorithms/allgather.c - ring all-gather. */
#include <string.h>

#include "csrc/distributed/algorithms/algorithms.h"

/* Note [Ring all-gather]
 * In step s each rank forwards to its right neighbour the block it received
 * in step s-1 (its own block first) and receives the next one from its left:
 * n-1 steps, each link carrying one block per step. */

int
mt_algo_allgather(const mt_algo_ctx *c, const void *in, size_t len, void *const *outs)
{
    int n = c->size, rank = c->rank;
    if (outs[rank] != in && len) {
        memmove(outs[rank], in, len);
    }
    int right = (rank + 1) % n, left = (rank - 1 + n) % n;
    for (int s = 0; s < n - 1; s++) {
        int si = ((rank - s) % n + n) % n, ri = ((rank - s - 1) % n + n) % n;
        int rc = mt_transport_sendrecv(c->tp, right, outs[si], len, left, outs[ri], len, c->tag,
                                       c->deadline);
        if (rc < 0) {
            return rc;
        }
    }
    return 0;
}
