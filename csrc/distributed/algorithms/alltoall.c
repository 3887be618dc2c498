/* csrc/distributed/algorithms/alltoall.c - all-to-all with per-rank sizes: every send and receive posted at once. */
#include <stdlib.h>
#include <string.h>

#include "c10_lite/error.h"
#include "csrc/distributed/algorithms/algorithms.h"

int
mt_algo_alltoall(const mt_algo_ctx *c, const void *const *sends, const size_t *slens,
                 void *const *recvs, const size_t *rlens)
{
    int n = c->size, rank = c->rank;
    if (slens[rank] != rlens[rank]) {
        return mt_error_set(MT_EINVAL, "all_to_all: rank %d sends %zu bytes to itself but "
                            "expects %zu", rank, slens[rank], rlens[rank]);
    }
    if (slens[rank]) {
        memmove(recvs[rank], sends[rank], slens[rank]);
    }
    if (n == 1) {
        return 0;
    }
    mt_xfer *x = calloc(2 * (size_t)n, sizeof(*x));
    if (x == NULL) {
        return mt_error_set(MT_ENOMEM, "out of memory in all_to_all");
    }
    mt_xfer *s = x, *r = x + n;
    int k = 0;
    /* Start with the next rank so that not every rank writes to rank 0 first. */
    for (int i = 1; i < n; i++) {
        int p = (rank + i) % n, q = (rank - i + n) % n;
        s[k] = (mt_xfer){.peer = p, .tag = c->tag, .buf = (void *)sends[p], .len = slens[p]};
        r[k] = (mt_xfer){.peer = q, .tag = c->tag, .buf = recvs[q], .len = rlens[q]};
        k++;
    }
    int rc = mt_transport_exchange(c->tp, s, k, r, k, c->deadline);
    free(x);
    return rc;
}
