/* tools/nccl_standin/queue.c - issuing operations: each queued on its stream as one task (a host
 * function of the emulated runtime), or kept until ncclGroupEnd while a group is open. */
#include <stdlib.h>
#include <string.h>

#include "standin.h"

typedef struct si_task {
    int n;
    si_op ops[]; /* in issue order, all of one stream */
} si_task;

/* the calling thread's open group (ncclGroupStart nests) */
static _Thread_local int si_depth;
static _Thread_local si_op *si_pending;
static _Thread_local int si_npending, si_cap;

void
si_comm_release(struct ncclComm *comm)
{
    if (atomic_fetch_sub(&comm->refs, 1) == 1) {
        si_segment_close(comm);
        free(comm);
    }
}

/* an operation that failed on the stream: the communicator's asynchronous error, and (unless a
 * peer's failure caused it, or this rank aborted) the peers learn through the abort flag */
static void
si_fail(struct ncclComm *c, ncclResult_t rc)
{
    int none = ncclSuccess;
    atomic_compare_exchange_strong(&c->async_error, &none, (int)rc);
    if (rc != ncclRemoteError && !atomic_load(&c->local_abort)) {
        int alive = 0;
        atomic_compare_exchange_strong(&c->hdr->aborted, &alive, c->rank + 1);
    }
}

static ncclResult_t
si_stall(struct ncclComm *c)
{
    double deadline = si_now() + si_timeout_s();
    unsigned spins = 0;
    ncclResult_t rc;
    while ((rc = si_check(c, deadline)) == ncclSuccess) {
        si_pause(&spins);
    }
    return rc;
}

static void
si_task_run(void *arg)
{
    si_task *t = arg;
    ncclResult_t rc = ncclSuccess;
    for (int i = 0; i < t->n;) {
        si_op *op = &t->ops[i];
        struct ncclComm *c = op->comm;
        if (rc == ncclSuccess) {
            rc = si_check(c, si_now() + 1e9);
        }
        if (rc == ncclSuccess && op->fault == SI_FAULT_STALL) {
            rc = si_stall(c);
        }
        else if (rc == ncclSuccess && op->fault == SI_FAULT_ASYNC) {
            rc = ncclSystemError;
        }
        if (rc == ncclSuccess && (op->kind == SI_SEND || op->kind == SI_RECV)) {
            int j = i;
            si_op **run = malloc(sizeof(si_op *) * (size_t)t->n);
            int m = 0;
            while (j < t->n && (t->ops[j].kind == SI_SEND || t->ops[j].kind == SI_RECV) &&
                   t->ops[j].fault == SI_FAULT_NONE) {
                if (run != NULL) {
                    run[m++] = &t->ops[j];
                }
                j++;
            }
            rc = run == NULL ? ncclSystemError : si_run_p2p(run, m);
            free(run);
            i = j > i ? j : i + 1;
            continue;
        }
        if (rc == ncclSuccess) {
            rc = si_run_collective(op);
        }
        i++;
    }
    for (int i = 0; i < t->n; i++) {
        struct ncclComm *c = t->ops[i].comm;
        if (rc != ncclSuccess) {
            si_fail(c, rc);
        }
        atomic_fetch_sub(&c->inflight, 1);
        si_comm_release(c);
    }
    free(t);
}

static ncclResult_t
si_launch(const si_op *ops, int n)
{
    si_task *t = malloc(sizeof(si_task) + sizeof(si_op) * (size_t)n);
    if (t == NULL) {
        return ncclSystemError;
    }
    t->n = n;
    memcpy(t->ops, ops, sizeof(si_op) * (size_t)n);
    for (int i = 0; i < n; i++) {
        atomic_fetch_add(&ops[i].comm->refs, 1);
        atomic_fetch_add(&ops[i].comm->inflight, 1);
    }
    if (si_rt->launch_host_func(ops[0].stream, si_task_run, t) != cudaSuccess) {
        for (int i = 0; i < n; i++) {
            atomic_fetch_sub(&ops[i].comm->inflight, 1);
            si_comm_release(ops[i].comm);
        }
        free(t);
        return ncclUnhandledCudaError;
    }
    return ncclSuccess;
}

ncclResult_t
si_issue(const si_op *op)
{
    struct ncclComm *c = op->comm;
    if (c == NULL || atomic_load(&c->local_abort)) {
        return ncclInvalidArgument;
    }
    si_op o = *op;
    o.fault = si_fault_next(c);
    if (o.fault == SI_FAULT_CALL) {
        return ncclInternalError;
    }
    if (si_depth == 0) {
        return si_launch(&o, 1);
    }
    if (si_npending == si_cap) {
        int cap = si_cap ? 2 * si_cap : 16;
        si_op *p = realloc(si_pending, sizeof(si_op) * (size_t)cap);
        if (p == NULL) {
            return ncclSystemError;
        }
        si_pending = p;
        si_cap = cap;
    }
    si_pending[si_npending++] = o;
    return ncclSuccess;
}

ncclResult_t
ncclGroupStart(void)
{
    si_depth++;
    return ncclSuccess;
}

ncclResult_t
ncclGroupEnd(void)
{
    if (si_depth == 0) {
        return ncclInvalidUsage;
    }
    if (--si_depth > 0) {
        return ncclSuccess;
    }
    /* one task per stream, in issue order */
    ncclResult_t rc = ncclSuccess;
    int n = si_npending;
    si_npending = 0;
    char *taken = calloc((size_t)n + 1, 1);
    si_op *ops = malloc(sizeof(si_op) * ((size_t)n + 1));
    if (taken == NULL || ops == NULL) {
        rc = ncclSystemError;
    }
    for (int i = 0; rc == ncclSuccess && i < n; i++) {
        if (taken[i]) {
            continue;
        }
        int m = 0;
        for (int j = i; j < n; j++) {
            if (!taken[j] && si_pending[j].stream == si_pending[i].stream) {
                ops[m++] = si_pending[j];
                taken[j] = 1;
            }
        }
        rc = si_launch(ops, m);
    }
    free(taken);
    free(ops);
    return rc;
}
