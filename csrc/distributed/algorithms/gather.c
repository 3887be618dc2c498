/* csrc/distributed/algorithms/gather.c - gather to a root: the root receives from every rank at once. */
#include <stdlib.h>
#include <string.h>

#include "c10_lite/error.h"
#include "csrc/distributed/algorithms/algorithms.h"

int
mt_algo_gather(const mt_algo_ctx *c, const void *in, size_t len, void *const *outs, int root)
{
    int n = c->size;
    if (root < 0 || root >= n) {
        return mt_error_set(MT_EINVAL, "gather: invalid root rank %d (group size %d)", root, n);
    }
    if (c->rank != root) {
        return mt_transport_send(c->tp, root, c->tag, in, len, c->deadline);
    }
    if (outs[root] != in && len) {
        memmove(outs[root], in, len);
    }
    if (n == 1) {
        return 0;
    }
    mt_xfer *r = calloc((size_t)n, sizeof(*r));
    if (r == NULL) {
        return mt_error_set(MT_ENOMEM, "out of memory in gather");
    }
    int nr = 0;
    for (int p = 0; p < n; p++) {
        if (p != root) {
            r[nr++] = (mt_xfer){.peer = p, .tag = c->tag, .buf = outs[p], .len = len};
        }
    }
    int rc = mt_transport_exchange(c->tp, NULL, 0, r, nr, c->deadline);
    free(r);
    return rc;
}
