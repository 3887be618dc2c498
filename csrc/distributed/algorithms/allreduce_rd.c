/* csrc/distributed/algorithms/allreduce_rd.c - recursive doubling all-reduce for small buffers, any group size. */
#include <stdlib.h>
#include <string.h>

#include "c10_lite/error.h"
#include "csrc/distributed/algorithms/algorithms.h"

/* Note [Recursive doubling]
 * With p the largest power of two <= size and rem = size - p, the first
 * 2*rem ranks pair up (2i, 2i+1): the even one hands its data to the odd one
 * and sits out.  The p remaining ranks run log2(p) rounds; in round k a rank
 * exchanges its whole buffer with the rank whose (renumbered) id differs in
 * bit k and combines.  The combine is always computed as (lower id) op
 * (higher id), so both partners compute the same bytes, and at the end every
 * participant holds the same result, which the odd ranks hand back to their
 * even partners.  log2(p) + 2 latency steps: the choice for small buffers.
 * The pairing and the rounds are exactly the levels of Note [Fixed reduction
 * order]'s tree T, so every rank's result is T whatever the op. */

static int
mt__rd_real(int newrank, int rem)
{
    return newrank < rem ? newrank * 2 + 1 : newrank + rem;
}

int
mt_algo_allreduce_rd(const mt_algo_ctx *c, void *buf, size_t count, mt_dtype dt,
                     mt_dist_op op)
{
    int n = c->size, rank = c->rank;
    if (n == 1) {
        return 0;
    }
    size_t len = count * mt_dtype_itemsize(dt);
    char *scratch = malloc(len ? len : 1);
    if (scratch == NULL) {
        return mt_error_set(MT_ENOMEM, "out of memory in all-reduce (%zu bytes)", len);
    }
    int p = 1;
    while (p * 2 <= n) {
        p *= 2;
    }
    int rem = n - p;
    int newrank, rc = 0;
    if (rank < 2 * rem) {
        if (rank % 2 == 0) {
            rc = mt_transport_send(c->tp, rank + 1, c->tag, buf, len, c->deadline);
            newrank = -1;
        }
        else {
            rc = mt_transport_recv(c->tp, rank - 1, c->tag, scratch, len, c->deadline, NULL);
            if (rc == 0) {
                mt_dist_reduce_into(buf, scratch, count, dt, op);
            }
            newrank = rank / 2;
        }
    }
    else {
        newrank = rank - rem;
    }
    for (int mask = 1; newrank >= 0 && mask < p && rc == 0; mask <<= 1) {
        int newpeer = newrank ^ mask;
        int peer = mt__rd_real(newpeer, rem);
        rc = mt_transport_sendrecv(c->tp, peer, buf, len, peer, scratch, len, c->tag,
                                   c->deadline);
        if (rc < 0) {
            break;
        }
        if (newrank < newpeer) {
            mt_dist_reduce_into(buf, scratch, count, dt, op);
        }
        else {
            mt_dist_reduce_into(scratch, buf, count, dt, op);
            memcpy(buf, scratch, len);
        }
    }
    if (rc == 0 && rank < 2 * rem) {
        if (rank % 2 == 0) {
            rc = mt_transport_recv(c->tp, rank + 1, c->tag, buf, len, c->deadline, NULL);
        }
        else {
            rc = mt_transport_send(c->tp, rank - 1, c->tag, buf, len, c->deadline);
        }
    }
    free(scratch);
    if (rc == 0 && op == MT_DIST_AVG) {
        mt_dist_avg_finish(buf, count, dt, n);
    }
    return rc;
}
