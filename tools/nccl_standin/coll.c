/* tools/nccl_standin/coll.c - the collectives, as they run on the stream: in chunks that fit a
 * rank's slot, each chunk written to the slots, a barrier, read by those that need it, a
 * barrier (so the slots can be written again). */
#include <string.h>

#include "standin.h"

static char *
si_slot(struct ncclComm *c, int r)
{
    return c->slots + (size_t)r * c->slot_bytes;
}

/* the two barriers around reading the slots */
static ncclResult_t
si_step(struct ncclComm *c)
{
    return si_barrier(c, c->hdr->coll, ++c->coll_seq);
}

/* This rank's k elements from src into its slot: scaled first for a PreMulSum. */
static void
si_contribute(const si_op *op, char *slot, const char *src, size_t k, const void *scalar)
{
    if (scalar != NULL) {
        si_scale(slot, src, k, op->dtype, scalar);
    }
    else {
        memcpy(slot, src, k * si_dtype_size(op->dtype));
    }
}

ncclResult_t
si_run_collective(const si_op *op)
{
    struct ncclComm *c = op->comm;
    int n = c->nranks, me = c->rank;
    size_t es = si_dtype_size(op->dtype);
    const char *send = op->send;
    char *recv = op->recv;
    const void *srcs[SI_MAX_RANKS];
    ncclResult_t rc = ncclSuccess;
    size_t per = c->slot_bytes / es; /* elements of a chunk */
    if (op->kind == SI_REDUCESCATTER) {
        per = c->slot_bytes / (es * (size_t)n);
    }
    size_t total = op->count;
    size_t off = 0;
    /* a PreMulSum's scalar: read here, when the operation runs (Note [Stand-in PreMulSum]) */
    const void *scalar = op->premul ? (op->scalar_ptr ? op->scalar_ptr : op->scalar) : NULL;
    do {
        size_t k = total - off < per ? total - off : per;
        size_t bytes = k * es;
        switch (op->kind) {
        case SI_ALLREDUCE:
        case SI_REDUCE:
            si_contribute(op, si_slot(c, me), send + off * es, k, scalar);
            if ((rc = si_step(c)) != ncclSuccess) {
                return rc;
            }
            if (op->kind == SI_ALLREDUCE || me == op->root) {
                for (int r = 0; r < n; r++) {
                    srcs[r] = si_slot(c, r);
                }
                si_reduce(recv + off * es, srcs, n, k, op->dtype, op->op);
            }
            break;
        case SI_BROADCAST:
            if (me == op->root) {
                memcpy(si_slot(c, me), send + off * es, bytes);
            }
            if ((rc = si_step(c)) != ncclSuccess) {
                return rc;
            }
            if (recv + off * es != si_slot(c, op->root)) {
                memmove(recv + off * es, si_slot(c, op->root), bytes);
            }
            break;
        case SI_ALLGATHER:
            memcpy(si_slot(c, me), send + off * es, bytes);
            if ((rc = si_step(c)) != ncclSuccess) {
                return rc;
            }
            for (int r = 0; r < n; r++) {
                memcpy(recv + ((size_t)r * total + off) * es, si_slot(c, r), bytes);
            }
            break;
        case SI_REDUCESCATTER:
            for (int r = 0; r < n; r++) { /* block r of my input, for rank r */
                si_contribute(op, si_slot(c, me) + (size_t)r * bytes,
                              send + ((size_t)r * total + off) * es, k, scalar);
            }
            if ((rc = si_step(c)) != ncclSuccess) {
                return rc;
            }
            for (int r = 0; r < n; r++) {
                srcs[r] = si_slot(c, r) + (size_t)me * bytes;
            }
            si_reduce(recv + off * es, srcs, n, k, op->dtype, op->op);
            break;
        default:
            return ncclInternalError;
        }
        if ((rc = si_step(c)) != ncclSuccess) {
            return rc;
        }
        off += k;
    } while (off < total);
    return ncclSuccess;
}
