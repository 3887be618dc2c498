/* csrc/distributed/algorithms/reduce.c - reduce to a root over a binomial tree. */
#include <stdlib.h>
#include <string.h>

#include "c10_lite/error.h"
#include "csrc/distributed/algorithms/algorithms.h"

/* Note [Reduce]
 * A binomial tree rooted at `root`: in round k the ranks whose relative id
 * has bit k set send their partial result to (id - 2^k) and leave; the others
 * combine what they receive.  Non-root ranks accumulate in a scratch copy so
 * their own buffer is left as it was. */

int
mt_algo_reduce(const mt_algo_ctx *c, void *buf, size_t count, mt_dtype dt, mt_dist_op op,
               int root)
{
    int n = c->size;
    if (root < 0 || root >= n) {
        return mt_error_set(MT_EINVAL, "reduce: invalid root rank %d (group size %d)", root, n);
    }
    size_t len = count * mt_dtype_itemsize(dt);
    int vr = (c->rank - root + n) % n;
    char *acc = buf, *tmp = NULL, *copy = NULL;
    int rc = 0;
    for (int mask = 1; mask < n; mask <<= 1) {
        if (vr & mask) {
            int dst = ((vr & ~mask) + root) % n;
            rc = mt_transport_send(c->tp, dst, c->tag, acc, len, c->deadline);
            break;
        }
        int src = vr | mask;
        if (src >= n) {
            continue;
        }
        if (tmp == NULL) {
            tmp = malloc(len ? len : 1);
            if (tmp == NULL) {
                rc = mt_error_set(MT_ENOMEM, "out of memory in reduce (%zu bytes)", len);
                break;
            }
        }
        if (vr != 0 && copy == NULL) {
            copy = malloc(len ? len : 1);
            if (copy == NULL) {
                rc = mt_error_set(MT_ENOMEM, "out of memory in reduce (%zu bytes)", len);
                break;
            }
            memcpy(copy, buf, len);
            acc = copy;
        }
        rc = mt_transport_recv(c->tp, (src + root) % n, c->tag, tmp, len, c->deadline, NULL);
        if (rc < 0) {
            break;
        }
        mt_dist_reduce_into(acc, tmp, count, dt, op);
    }
    free(tmp);
    free(copy);
    if (rc == 0 && vr == 0 && op == MT_DIST_AVG) {
        mt_dist_avg_finish(buf, count, dt, n);
    }
    return rc;
}
