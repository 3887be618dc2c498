/* csrc/distributed/algorithms/reduce.c - reduce to a root over a binomial tree. */
#include <stdlib.h>
#include <string.h>

#include "c10_lite/error.h"
#include "csrc/distributed/algorithms/algorithms.h"

/* Note [Reduce]
 * A binomial tree rooted at `root`: in round k the ranks whose relative id
 * has bit k set send their partial result to (id - 2^k) and leave; the others
 * combine what they receive.  Non-root ranks accumulate in a scratch copy so
 * their own buffer is left as it was.  That tree's shape depends on root;
 * reductions whose order matters (Note [Fixed reduction order]) use the one
 * below. */

/* With the order fixed (Note [Fixed reduction order]) the tree is rooted at
 * virtual rank 0 instead: the first 2*rem ranks fold pairwise (the even rank
 * sends to the odd one, which combines), then the binomial tree over the p
 * virtual ranks (relative id v) computes T's levels, and the rank holding
 * virtual rank 0 sends the result on to root when it is not root itself:
 * one more message than the binomial tree rooted at root. */
static int
mt__reduce_fixed(const mt_algo_ctx *c, void *buf, size_t count, mt_dtype dt, mt_dist_op op,
                 int root)
{
    int n = c->size, rank = c->rank;
    size_t len = count * mt_dtype_itemsize(dt);
    int p = 1;
    while (p * 2 <= n) {
        p *= 2;
    }
    int rem = n - p, holder = rem > 0 ? 1 : 0, rc = 0;
    if (rank < 2 * rem && rank % 2 == 0) {
        rc = mt_transport_send(c->tp, rank + 1, c->tag, buf, len, c->deadline);
        if (rc == 0 && rank == root) {
            rc = mt_transport_recv(c->tp, holder, c->tag, buf, len, c->deadline, NULL);
        }
        return rc;
    }
    char *acc = buf, *tmp = malloc(len ? len : 1);
    if (tmp != NULL && rank != root) {
        acc = malloc(len ? len : 1);
        if (acc != NULL) {
            memcpy(acc, buf, len);
        }
    }
    if (tmp == NULL || acc == NULL) {
        free(tmp);
        return mt_error_set(MT_ENOMEM, "out of memory in reduce (%zu bytes)", len);
    }
    int v = rank - rem;
    if (rank < 2 * rem) {
        v = rank / 2;
        rc = mt_transport_recv(c->tp, rank - 1, c->tag, tmp, len, c->deadline, NULL);
        if (rc == 0) {
            mt_dist_reduce_into(acc, tmp, count, dt, op);
        }
    }
    for (int mask = 1; mask < p && rc == 0; mask <<= 1) {
        if (v & mask) {
            int dst = v & ~mask;
            rc = mt_transport_send(c->tp, dst < rem ? 2 * dst + 1 : dst + rem, c->tag, acc, len,
                                   c->deadline);
            break;
        }
        int src = v | mask;
        rc = mt_transport_recv(c->tp, src < rem ? 2 * src + 1 : src + rem, c->tag, tmp, len,
                               c->deadline, NULL);
        if (rc == 0) {
            mt_dist_reduce_into(acc, tmp, count, dt, op);
        }
    }
    if (rc == 0 && rank == holder && root != holder) {
        rc = mt_transport_send(c->tp, root, c->tag, acc, len, c->deadline);
    }
    else if (rc == 0 && rank == root && root != holder) {
        rc = mt_transport_recv(c->tp, holder, c->tag, buf, len, c->deadline, NULL);
    }
    free(tmp);
    if (acc != buf) {
        free(acc);
    }
    return rc;
}

int
mt_algo_reduce(const mt_algo_ctx *c, void *buf, size_t count, mt_dtype dt, mt_dist_op op,
               int root)
{
    int n = c->size;
    if (root < 0 || root >= n) {
        return mt_error_set(MT_EINVAL, "reduce: invalid root rank %d (group size %d)", root, n);
    }
    if (mt_algo_fixed_order(c, dt, op)) {
        int rc = n > 1 ? mt__reduce_fixed(c, buf, count, dt, op, root) : 0;
        if (rc == 0 && c->rank == root && op == MT_DIST_AVG) {
            mt_dist_avg_finish(buf, count, dt, n);
        }
        return rc;
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
