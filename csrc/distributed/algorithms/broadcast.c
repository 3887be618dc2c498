/* csrc/distributed/algorithms/broadcast.c - broadcast: binomial tree for small buffers, pipelined chain for large. */
#include "c10_lite/error.h"
#include "csrc/distributed/algorithms/algorithms.h"

/* Note [Broadcast]
 * Small: a binomial tree rooted at `root` (ceil(log2 n) steps).  Large: a
 * chain root -> root+1 -> ... cut in pieces; a middle rank forwards piece k-1
 * while receiving piece k, so after the pipeline fills every link carries
 * data at once and the time approaches one buffer transfer, independent of
 * the group size. */

static int
mt__bcast_tree(const mt_algo_ctx *c, void *buf, size_t len, int root)
{
    int n = c->size, vr = (c->rank - root + n) % n;
    int mask = 1, rc = 0;
    while (mask < n) {
        if (vr & mask) {
            rc = mt_transport_recv(c->tp, (vr - mask + root) % n, c->tag, buf, len, c->deadline,
                                   NULL);
            if (rc < 0) {
                return rc;
            }
            break;
        }
        mask <<= 1;
    }
    /* Send to children, farthest first. */
    mt_xfer sends[32];
    int ns = 0;
    for (mask >>= 1; mask > 0; mask >>= 1) {
        if (vr + mask < n) {
            sends[ns++] = (mt_xfer){.peer = (vr + mask + root) % n, .tag = c->tag, .buf = buf,
                                    .len = len};
        }
    }
    return ns ? mt_transport_exchange(c->tp, sends, ns, NULL, 0, c->deadline) : 0;
}

static int
mt__bcast_chain(const mt_algo_ctx *c, char *buf, size_t len, int root)
{
    int n = c->size, vr = (c->rank - root + n) % n;
    int prev = (c->rank - 1 + n) % n, next = (c->rank + 1) % n;
    size_t piece = MT_ALGO_PIECE_BYTES;
    size_t np = (len + piece - 1) / piece;
    bool has_next = vr < n - 1, has_prev = vr > 0;
    for (size_t k = 0; k <= np; k++) {
        /* The root sends piece k; a middle rank receives piece k and
         * forwards piece k-1; the last rank only receives. */
        size_t sk = has_prev ? k - 1 : k;
        bool send = has_next && (has_prev ? k >= 1 : k < np);
        bool recv = has_prev && k < np;
        mt_xfer s = {0}, r = {0};
        if (send) {
            size_t b = sk * piece;
            s = (mt_xfer){.peer = next, .tag = c->tag, .buf = buf + b,
                          .len = len - b < piece ? len - b : piece};
        }
        if (recv) {
            size_t b = k * piece;
            r = (mt_xfer){.peer = prev, .tag = c->tag, .buf = buf + b,
                          .len = len - b < piece ? len - b : piece};
        }
        if (send || recv) {
            int rc = mt_transport_exchange(c->tp, &s, send, &r, recv, c->deadline);
            if (rc < 0) {
                return rc;
            }
        }
    }
    return 0;
}

int
mt_algo_broadcast(const mt_algo_ctx *c, void *buf, size_t len, int root)
{
    if (root < 0 || root >= c->size) {
        return mt_error_set(MT_EINVAL, "broadcast: invalid root rank %d (group size %d)", root,
                            c->size);
    }
    if (c->size == 1) {
        return 0;
    }
    if (mt_algo_use_slots(c, len)) {
        return mt_algo_broadcast_slots(c, buf, len, root);
    }
    if (len >= MT_ALGO_CHAIN_THRESHOLD && c->size > 2) {
        return mt__bcast_chain(c, buf, len, root);
    }
    return mt__bcast_tree(c, buf, len, root);
}
