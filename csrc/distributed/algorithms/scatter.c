/* csrc/distributed/algorithms/scatter.c - scatter from a root: the root sends to every rank at once. */
#include <stdlib.h>
#include <string.h>

#include "c10_lite/error.h"
#include "csrc/distributed/algorithms/algorithms.h"

int
mt_algo_scatter(const mt_algo_ctx *c, void *out, size_t len, const void *const *ins, int root)
{
    int n = c->size;
    if (root < 0 || root >= n) {
        return mt_error_set(MT_EINVAL, "scatter: invalid root rank %d (group size %d)", root, n);
    }
    if (c->rank != root) {
        return mt_transport_recv(c->tp, root, c->tag, out, len, c->deadline, NULL);
    }
    if (ins[root] != out && len) {
        memmove(out, ins[root], len);
    }
    if (n == 1) {
        return 0;
    }
    mt_xfer *s = calloc((size_t)n, sizeof(*s));
    if (s == NULL) {
        return mt_error_set(MT_ENOMEM, "out of memory in scatter");
    }
    int ns = 0;
    for (int p = 0; p < n; p++) {
        if (p != root) {
            s[ns++] = (mt_xfer){.peer = p, .tag = c->tag, .buf = (void *)ins[p], .len = len};
        }
    }
    int rc = mt_transport_exchange(c->tp, s, ns, NULL, 0, c->deadline);
    free(s);
    return rc;
}
