/* csrc/distributed/backend/work.c - completion state of one queued operation. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "c10_lite/error.h"
#include "csrc/distributed/backend/work.h"
#include "csrc/distributed/common/net.h"

static const char *const mt__op_names[] = {
    [MT__OP_ALLREDUCE] = "allreduce",
    [MT__OP_BROADCAST] = "broadcast",
    [MT__OP_REDUCE] = "reduce",
    [MT__OP_ALLGATHER] = "allgather",
    [MT__OP_GATHER] = "gather",
    [MT__OP_SCATTER] = "scatter",
    [MT__OP_REDUCE_SCATTER] = "reduce_scatter",
    [MT__OP_ALLTOALL] = "alltoall",
    [MT__OP_BARRIER] = "barrier",
    [MT__OP_SEND] = "send",
    [MT__OP_RECV] = "recv",
};

mt_work *
mt__work_new(mt__op_kind kind, mt_tensor *const *tensors, int ntensors)
{
    mt_work *w = calloc(1, sizeof(*w));
    mt_tensor **ts = calloc((size_t)ntensors + 1, sizeof(*ts));
    if (w == NULL || ts == NULL) {
        free(w);
        free(ts);
        mt_error_set(MT_ENOMEM, "out of memory creating a work item");
        return NULL;
    }
    atomic_init(&w->refcount, 1);
    pthread_mutex_init(&w->mu, NULL);
    pthread_condattr_t ca;
    pthread_condattr_init(&ca);
    pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
    pthread_cond_init(&w->cv, &ca);
    pthread_condattr_destroy(&ca);
    w->kind = kind;
    w->src_rank = -1;
    w->tensors = ts;
    w->ntensors = ntensors;
    for (int i = 0; i < ntensors; i++) {
        ts[i] = tensors[i];
        if (ts[i] != NULL) {
            mt_tensor_incref(ts[i]);
        }
    }
    return w;
}

static void
mt__work_release_tensors(mt_work *w)
{
    for (int i = 0; i < w->ntensors; i++) {
        mt_tensor_decref(w->tensors[i]);
        w->tensors[i] = NULL;
    }
}

void
mt__work_complete(mt_work *w, int code, const char *msg)
{
    mt__work_release_tensors(w);
    pthread_mutex_lock(&w->mu);
    w->code = code;
    if (code < 0) {
        w->msg = strdup(msg ? msg : "unknown error"); /* NULL (out of memory): see readers */
    }
    w->done = true;
    pthread_cond_broadcast(&w->cv);
    pthread_mutex_unlock(&w->mu);
}

int
mt_work_wait(mt_work *w, int64_t timeout_ms)
{
    int64_t deadline = timeout_ms < 0 ? INT64_MAX : mt__deadline_after(timeout_ms);
    pthread_mutex_lock(&w->mu);
    if (!w->done && w->pg != NULL) {
        mt__pg_want(w->pg, w);
    }
    while (!w->done) {
        if (deadline == INT64_MAX) {
            pthread_cond_wait(&w->cv, &w->mu);
            continue;
        }
        int64_t left = deadline - mt__now_ms();
        if (left <= 0) {
            pthread_mutex_unlock(&w->mu);
            return mt_error_set(MT_ETIMEOUT, "Work.wait: %s did not complete within %lld ms",
                                mt_work_op_name(w), (long long)timeout_ms);
        }
        struct timespec ts;
        clock_gettime(CLOCK_MONOTONIC, &ts);
        ts.tv_sec += left / 1000;
        ts.tv_nsec += (left % 1000) * 1000000;
        if (ts.tv_nsec >= 1000000000) {
            ts.tv_sec++;
            ts.tv_nsec -= 1000000000;
        }
        pthread_cond_timedwait(&w->cv, &w->mu, &ts);
    }
    int code = w->code;
    if (code < 0) {
        mt_error_set(code, "%s", w->msg ? w->msg : "out of memory recording an error");
    }
    pthread_mutex_unlock(&w->mu);
    return code;
}

int
mt_work_result(mt_work *w)
{
    pthread_mutex_lock(&w->mu);
    int code = w->done ? w->code : MT_ETIMEOUT;
    if (w->done && code < 0) {
        mt_error_set(code, "%s", w->msg ? w->msg : "out of memory recording an error");
    }
    pthread_mutex_unlock(&w->mu);
    return code;
}

bool
mt_work_is_completed(mt_work *w)
{
    pthread_mutex_lock(&w->mu);
    bool d = w->done;
    if (!d && w->pg != NULL) {
        mt__pg_want(w->pg, w); /* a poller is a waiter too */
    }
    pthread_mutex_unlock(&w->mu);
    return d;
}

bool
mt_work_is_success(mt_work *w)
{
    pthread_mutex_lock(&w->mu);
    bool ok = w->done && w->code == 0;
    pthread_mutex_unlock(&w->mu);
    return ok;
}

int
mt_work_error(mt_work *w)
{
    pthread_mutex_lock(&w->mu);
    int c = w->done ? w->code : 0;
    pthread_mutex_unlock(&w->mu);
    return c;
}

const char *
mt_work_exception_message(mt_work *w)
{
    pthread_mutex_lock(&w->mu);
    /* msg is written once, before done is set, and never again. */
    const char *m = w->done && w->code < 0 ? (w->msg ? w->msg : "out of memory recording an error")
                                            : NULL;
    pthread_mutex_unlock(&w->mu);
    return m;
}

int
mt_work_source_rank(mt_work *w)
{
    pthread_mutex_lock(&w->mu);
    int r = w->done ? w->src_rank : -1;
    pthread_mutex_unlock(&w->mu);
    return r;
}

const char *
mt_work_op_name(const mt_work *w)
{
    return mt__op_names[w->kind];
}

void
mt_work_incref(mt_work *w)
{
    atomic_fetch_add_explicit(&w->refcount, 1, memory_order_relaxed);
}

void
mt_work_decref(mt_work *w)
{
    if (w == NULL) {
        return;
    }
    if (atomic_fetch_sub_explicit(&w->refcount, 1, memory_order_acq_rel) == 1) {
        mt__work_release_tensors(w);
        free(w->tensors);
        free(w->lens);
        free(w->msg);
        pthread_cond_destroy(&w->cv);
        pthread_mutex_destroy(&w->mu);
        free(w);
    }
}
