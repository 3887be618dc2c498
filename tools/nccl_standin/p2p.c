/* tools/nccl_standin/p2p.c - send and receive through the ring of each ordered pair of ranks:
 * the sends and receives of one task progress together, each moving what the ring allows,
 * until all are done (NCCL's matching: in order per pair of ranks). */
#include <stdlib.h>
#include <string.h>

#include "standin.h"

static si_ring *
si_ring_of(struct ncclComm *c, int from, int to)
{
    size_t stride = sizeof(si_ring) + c->ring_bytes;
    return (si_ring *)(c->rings + ((size_t)from * (size_t)c->nranks + (size_t)to) * stride);
}

/* moves what it can of one op; returns the bytes moved */
static size_t
si_move(si_op *op, size_t *done)
{
    struct ncclComm *c = op->comm;
    size_t total = op->count * si_dtype_size(op->dtype);
    int sending = op->kind == SI_SEND;
    si_ring *ring = sending ? si_ring_of(c, c->rank, op->root) : si_ring_of(c, op->root, c->rank);
    char *data = (char *)(ring + 1);
    size_t cap = c->ring_bytes;
    uint64_t w = atomic_load(&ring->written), t = atomic_load(&ring->taken);
    size_t room = sending ? cap - (size_t)(w - t) : (size_t)(w - t);
    size_t k = total - *done < room ? total - *done : room;
    size_t pos = (size_t)((sending ? w : t) % cap), moved = 0;
    while (moved < k) {
        size_t run = cap - pos < k - moved ? cap - pos : k - moved;
        if (sending) {
            memcpy(data + pos, (const char *)op->send + *done + moved, run);
        }
        else {
            memcpy((char *)op->recv + *done + moved, data + pos, run);
        }
        moved += run;
        pos = 0;
    }
    if (k > 0) {
        atomic_fetch_add(sending ? &ring->written : &ring->taken, k);
        *done += k;
    }
    return k;
}

ncclResult_t
si_run_p2p(si_op *const *ops, int n)
{
    size_t *done = calloc((size_t)n, sizeof(size_t));
    if (done == NULL) {
        return ncclSystemError;
    }
    ncclResult_t rc = ncclSuccess;
    double deadline = si_now() + si_timeout_s();
    unsigned spins = 0;
    for (;;) {
        int left = 0;
        size_t moved = 0;
        for (int i = 0; i < n; i++) {
            size_t total = ops[i]->count * si_dtype_size(ops[i]->dtype);
            /* an op waits for the earlier ones of its pair and direction (in order) */
            int blocked = 0;
            for (int j = 0; j < i && !blocked; j++) {
                blocked = ops[j]->kind == ops[i]->kind && ops[j]->root == ops[i]->root &&
                          ops[j]->comm == ops[i]->comm &&
                          done[j] < ops[j]->count * si_dtype_size(ops[j]->dtype);
            }
            if (done[i] < total && !blocked) {
                moved += si_move(ops[i], &done[i]);
            }
            left += done[i] < total;
        }
        if (!left) {
            break;
        }
        if (moved == 0) {
            if ((rc = si_check(ops[0]->comm, deadline)) != ncclSuccess) {
                break;
            }
            si_pause(&spins);
        }
        else {
            spins = 0;
        }
    }
    free(done);
    return rc;
}
