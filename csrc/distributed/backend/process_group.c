/* csrc/distributed/backend/process_group.c - the process group: its queue, worker thread and life cycle (the operations' checks are in ops.c; its backend runs them, Note [Backend vtable]). */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "c10_lite/error.h"
#include "csrc/distributed/backend/pg_private.h"
#include "csrc/distributed/common/net.h"

/* See Note [Process group execution]. */

/* Note [Lone receives]
 * torch lets a rank post irecv before the isend that its peer waits for
 * (rank 0: irecv(1), isend(1); rank 1 the same).  Run strictly in issue
 * order, both workers would sit in their receive and neither send would
 * leave.  Two rules keep such programs going:
 *   - sends overtake receives: when the head of the queue is a run of
 *     point-to-point items, all the sends of that run leave first, together
 *     in one exchange.  A send never waits for its receiver (messages that
 *     arrive early are buffered, Note [Transport model]) and message order
 *     per peer and tag is kept among the sends and among the receives, which
 *     is all torch promises;
 *   - a queue made only of receives is not started until somebody waits for
 *     one of them (mt_work_wait, mt_work_is_completed, mt_pg_take) or
 *     another item arrives behind them: the isend that follows an irecv
 *     then leaves first.
 * Receives then run one at a time, in order.  Receives that nobody waits for
 * before destroy still run, as destroy drains the queue. */

#define MT__MAX_BATCH 64

/* The time w may take: its own, or the group's. */
int64_t
mt__pg_timeout_of(mt_pg *pg, const mt_work *w)
{
    return w->timeout_ms > 0 ? w->timeout_ms : atomic_load(&pg->timeout_ms);
}

static bool
mt__is_p2p(const mt_work *w)
{
    return w->kind == MT__OP_SEND || w->kind == MT__OP_RECV;
}

/* Runs works[0..n) through the backend (Note [Backend vtable]): one collective, or
 * point-to-point items together, within the longest of their time limits. */
static int
mt__run(mt_pg *pg, mt_work **works, int n)
{
    int64_t tmo = 0;
    for (int i = 0; i < n; i++) {
        int64_t t = mt__pg_timeout_of(pg, works[i]);
        tmo = t > tmo ? t : tmo;
    }
    int64_t deadline = mt__deadline_after(tmo);
    if (mt__is_p2p(works[0])) {
        return pg->backend->ops->p2p(pg->backend, works, n, deadline);
    }
    return works[0]->run(pg->backend, works[0], deadline);
}

/* Runs works[0..n) (one item, or a batch of sends), which the
 * caller has dequeued after setting pg->running (mu not held; `broken` is
 * pg->broken as the caller read it then); clears running, wakes waiters,
 * completes the items and drops the queue's references.  Used by the worker
 * and by mt__pg_issue. */
static void
mt__execute(mt_pg *pg, mt_work **works, int n, bool broken)
{
    int rc;
    char msg[1024];
    if (broken) {
        rc = MT_ECONN;
        snprintf(msg, sizeof(msg), "%s failed: the process group is unusable after an "
                 "earlier error: %.900s", mt_work_op_name(works[0]), pg->broken_msg);
    }
    else {
        mt_error_clear();
        rc = mt__run(pg, works, n);
        if (rc == MT_ETIMEOUT) {
            /* "rank R: " + torch's words, then what timed out (its own "rank R: " dropped) */
            char who[32];
            int wl = snprintf(who, sizeof(who), "rank %d: ", pg->rank);
            const char *why = mt_error_message();
            if (wl > 0 && strncmp(why, who, (size_t)wl) == 0) {
                why += wl;
            }
            snprintf(msg, sizeof(msg), "%sTimed out waiting %lldms for %s to complete: %.900s",
                     who, (long long)mt__pg_timeout_of(pg, works[0]), mt_work_op_name(works[0]), why);
        }
        else if (rc < 0) {
            snprintf(msg, sizeof(msg), "%s", mt_error_message());
        }
    }
    pthread_mutex_lock(&pg->mu);
    if (rc < 0 && !pg->broken) {
        /* Whatever failed mid-collective leaves the peers out of step. */
        pg->broken = true;
        snprintf(pg->broken_msg, sizeof(pg->broken_msg), "%s", msg);
    }
    pg->running = false;
    if (pg->head != NULL || pg->stop) {
        /* Only the worker (when more is queued) and a shutdown wait on cv;
         * waking an idle worker for nothing costs two futex calls and a
         * thread switch per operation. */
        pthread_cond_broadcast(&pg->cv);
    }
    pthread_mutex_unlock(&pg->mu);
    for (int i = 0; i < n; i++) {
        mt__work_complete(works[i], rc, rc < 0 ? msg : NULL);
        mt_work_decref(works[i]); /* the queue's reference */
    }
}

/* Whether the worker may start the head of the queue (Note [Lone
 * receives]); mu held, head not NULL. */
static bool
mt__startable_locked(const mt_pg *pg)
{
    if (pg->stop) {
        return true;
    }
    for (const mt_work *w = pg->head; w != NULL; w = w->next) {
        if (w->kind != MT__OP_RECV || w->wanted) {
            return true;
        }
    }
    return false;
}

/* Unlinks the sends of the point-to-point run at the head of the queue (at
 * most max, in order) into out and marks them running; mu held.  Returns how
 * many (0: the head is not a send-carrying run). */
static int
mt__pop_sends_locked(mt_pg *pg, mt_work **out, int max)
{
    int n = 0;
    mt_work *prev = NULL, *w = pg->head;
    while (w != NULL && mt__is_p2p(w) && n < max) {
        mt_work *next = w->next;
        if (w->kind == MT__OP_SEND) {
            if (prev != NULL) {
                prev->next = next;
            }
            else {
                pg->head = next;
            }
            if (pg->tail == w) {
                pg->tail = prev;
            }
            w->next = NULL;
            out[n++] = w;
        }
        else {
            prev = w;
        }
        w = next;
    }
    if (n > 0) {
        pg->running = true;
    }
    return n;
}

void
mt__pg_want(mt_pg *pg, mt_work *w)
{
    pthread_mutex_lock(&pg->mu);
    if (!w->wanted) {
        w->wanted = true;
        pthread_cond_broadcast(&pg->cv);
    }
    pthread_mutex_unlock(&pg->mu);
}

/* Pops the head of the queue and marks it running; mu held. */
static mt_work *
mt__pop_locked(mt_pg *pg)
{
    mt_work *w = pg->head;
    pg->head = w->next;
    if (pg->head == NULL) {
        pg->tail = NULL;
    }
    pg->running = true;
    return w;
}

static void *
mt__worker_main(void *arg)
{
    mt_pg *pg = arg;
    pthread_mutex_lock(&pg->mu);
    for (;;) {
        /* running here means a caller executes an item inline (Note [Issuing
         * an operation]): wait for it, one item at a time. */
        while (pg->running ||
               (pg->head == NULL ? !pg->stop : !mt__startable_locked(pg))) {
            pthread_cond_wait(&pg->cv, &pg->mu);
        }
        if (pg->head == NULL) {
            break; /* stop requested and nothing left */
        }
        mt_work *batch[MT__MAX_BATCH];
        int n = mt__pop_sends_locked(pg, batch, MT__MAX_BATCH);
        if (n == 0) {
            batch[n++] = mt__pop_locked(pg);
        }
        bool broken = pg->broken;
        pthread_mutex_unlock(&pg->mu);
        mt__execute(pg, batch, n, broken);
        pthread_mutex_lock(&pg->mu);
    }
    pthread_mutex_unlock(&pg->mu);
    return NULL;
}

int
mt_pg_set_timeout(mt_pg *pg, int64_t timeout_ms)
{
    if (timeout_ms <= 0) {
        return mt_error_set(MT_EINVAL, "timeout must be positive, got %lld ms",
                            (long long)timeout_ms);
    }
    atomic_store(&pg->timeout_ms, timeout_ms);
    return 0;
}

/* ---- construction / destruction -------------------------------------------- */

mt_pg *
mt_pg_new(mt_store *store, int rank, int size, int64_t timeout_ms)
{
    if (store == NULL) {
        mt_error_set(MT_EINVAL, "a process group needs a store");
        return NULL;
    }
    if (size < 1) {
        mt_error_set(MT_EINVAL, "world_size must be positive, got %d", size);
        return NULL;
    }
    if (rank < 0 || rank >= size) {
        mt_error_set(MT_EINVAL, "rank %d is out of range for world_size %d (expected 0 <= rank "
                     "< %d)", rank, size, size);
        return NULL;
    }
    if (timeout_ms <= 0) {
        mt_error_set(MT_EINVAL, "timeout must be positive, got %lld ms", (long long)timeout_ms);
        return NULL;
    }
    mt_pg_backend *b = mt__cpu_backend_new(store, rank, size, timeout_ms);
    return b == NULL ? NULL : mt__pg_new_with_backend(b, store, timeout_ms);
}

mt_pg *
mt__pg_new_with_backend(mt_pg_backend *backend, mt_store *store, int64_t timeout_ms)
{
    mt_pg *pg = calloc(1, sizeof(*pg));
    if (pg == NULL) {
        backend->ops->destroy(backend);
        mt_error_set(MT_ENOMEM, "out of memory creating a process group");
        return NULL;
    }
    pg->rank = backend->rank;
    pg->size = backend->size;
    pg->timeout_ms = timeout_ms;
    pg->backend = backend;
    if (store != NULL) { /* an MPI group has none */
        mt_store_incref(store);
    }
    pg->store = store;
    pthread_mutex_init(&pg->mu, NULL);
    pthread_cond_init(&pg->cv, NULL);
    int rc = pthread_create(&pg->worker, NULL, mt__worker_main, pg);
    if (rc != 0) {
        mt_error_set(MT_ERUNTIME, "cannot start the process group's worker thread: %s",
                     strerror(rc));
        backend->ops->destroy(backend);
        mt_store_decref(pg->store);
        pthread_cond_destroy(&pg->cv);
        pthread_mutex_destroy(&pg->mu);
        free(pg);
        return NULL;
    }
    return pg;
}

const char *
mt_pg_transport_name(const mt_pg *pg)
{
    return pg->backend->ops->transport_name(pg->backend);
}

int
mt_pg_transport_connections(const mt_pg *pg, int *sockets)
{
    const mt_pg_backend_ops *ops = pg->backend->ops;
    return ops->transport_connections != NULL
               ? ops->transport_connections(pg->backend, sockets) : -1;
}

int
mt_pg_rank(const mt_pg *pg)
{
    return pg->rank;
}

int
mt_pg_size(const mt_pg *pg)
{
    return pg->size;
}

int64_t
mt_pg_timeout_ms(const mt_pg *pg)
{
    return atomic_load(&pg->timeout_ms);
}

bool
mt_pg_is_broken(mt_pg *pg, const char **msg)
{
    pthread_mutex_lock(&pg->mu);
    bool b = pg->broken;
    pthread_mutex_unlock(&pg->mu);
    if (b && msg != NULL) {
        *msg = pg->broken_msg;
    }
    return b;
}

static void
mt__pg_shutdown(mt_pg *pg, bool abort)
{
    if (pg == NULL) {
        return;
    }
    pthread_mutex_lock(&pg->mu);
    if (abort) {
        /* Fail what has not started; interrupt what has. */
        mt_work *w = pg->head;
        pg->head = pg->tail = NULL;
        pthread_mutex_unlock(&pg->mu);
        while (w != NULL) {
            mt_work *next = w->next;
            mt__work_complete(w, MT_ECLOSED, "the process group was aborted before this "
                              "operation ran");
            mt_work_decref(w);
            w = next;
        }
        pg->backend->ops->abort(pg->backend);
        pthread_mutex_lock(&pg->mu);
    }
    pg->stop = true;
    pthread_cond_broadcast(&pg->cv);
    while (pg->running) { /* an inline execution (Note [Issuing an operation]) */
        pthread_cond_wait(&pg->cv, &pg->mu);
    }
    pthread_mutex_unlock(&pg->mu);
    pthread_join(pg->worker, NULL);
    pg->backend->ops->destroy(pg->backend);
    mt_store_decref(pg->store);
    pthread_cond_destroy(&pg->cv);
    pthread_mutex_destroy(&pg->mu);
    free(pg);
}

void
mt_pg_destroy(mt_pg *pg)
{
    mt__pg_shutdown(pg, false);
}

void
mt_pg_abort(mt_pg *pg)
{
    mt__pg_shutdown(pg, true);
}

/* ---- issuing (caller thread) -------------------------------------------- */

/* Whether this thread is running an operation inline (Note [Issuing an operation]). */
static _Thread_local bool mt__inline_run;

bool
mt__pg_inline(void)
{
    return mt__inline_run;
}

/* See Note [Issuing an operation]. */
mt_work *
mt__pg_issue(mt_pg *pg, const mt_pg_call *call, mt_work *w, bool collective)
{
    static const mt_pg_call queued = {false, 0};
    call = call != NULL ? call : &queued;
    mt_work_incref(w); /* the queue's reference (dropped by mt__execute) */
    pthread_mutex_lock(&pg->mu);
    if (collective) {
        w->tag = MT__COLL_TAG_BIT | (pg->seq++ & ~MT__COLL_TAG_BIT);
    }
    w->next = NULL;
    w->pg = pg;
    w->timeout_ms = call->timeout_ms > 0 ? call->timeout_ms : 0;
    if (call->now && pg->head == NULL && !pg->running) {
        pg->running = true; /* the worker waits until mt__execute clears it */
        bool broken = pg->broken;
        pthread_mutex_unlock(&pg->mu);
        mt__inline_run = true;
        mt__execute(pg, &w, 1, broken);
        mt__inline_run = false;
        return w;
    }
    if (pg->tail) {
        pg->tail->next = w;
    }
    else {
        pg->head = w;
    }
    pg->tail = w;
    pthread_cond_broadcast(&pg->cv);
    pthread_mutex_unlock(&pg->mu);
    return w;
}
