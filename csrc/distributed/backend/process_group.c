/* csrc/distributed/backend/process_group.c - the TCP process group: argument checks, the queue, the worker thread. */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "c10_lite/error.h"
#include "csrc/distributed/backend/work.h"
#include "csrc/distributed/common/net.h"
#include "csrc/distributed/transport/transport.h"

/* See Note [Process group execution]. */

#define MT__COLL_TAG_BIT 0x80000000u

struct mt_pg {
    int rank, size;
    _Atomic int64_t timeout_ms; /* each operation's, unless it has its own (mt_pg_set_timeout) */
    mt_store *store;     /* owned reference */
    mt_transport *tp;    /* owned */
    pthread_t worker;
    pthread_mutex_t mu;  /* guards everything below */
    pthread_cond_t cv;   /* work queued / queue drained / stop */
    mt_work *head, *tail;
    bool running;        /* the worker is executing an item */
    bool stop;
    uint32_t seq;        /* collectives issued so far */
    bool broken;
    char broken_msg[1024];
};

/* ---- execution (worker thread) -------------------------------------------- */

static size_t
mt__nbytes(const mt_tensor *t)
{
    return (size_t)t->numel * mt_tensor_itemsize(t);
}

/* Note [16-bit float reductions]
 * A sum (AVG, PRODUCT) of float16/bfloat16 tensors is computed in float32: the operands are
 * widened before the collective, partial results travel as float32 and the result is rounded
 * once at the end - the value minitorch's own sum gives (it accumulates in float), where
 * rounding at every step of the algorithm would lose precision with the number of ranks. */
static bool
mt__widens(const mt_work *w, mt_dtype dt)
{
    return (dt == MT_FLOAT16 || dt == MT_BFLOAT16) &&
           (w->op == MT_DIST_SUM || w->op == MT_DIST_AVG || w->op == MT_DIST_PRODUCT);
}

/* A malloc'd float32 copy of n 16-bit floats at p (NULL + MT_ENOMEM message). */
static float *
mt__widen(const void *p, size_t n, mt_dtype dt)
{
    float *f = malloc((n ? n : 1) * sizeof(float));
    if (f == NULL) {
        mt_error_set(MT_ENOMEM, "out of memory widening a 16-bit float tensor");
        return NULL;
    }
    for (size_t i = 0; i < n; i++) {
        f[i] = dt == MT_FLOAT16 ? mt_half_to_float(((const mt_half *)p)[i])
                                : mt_bfloat16_to_float(((const mt_bfloat16 *)p)[i]);
    }
    return f;
}

static void
mt__narrow(const float *f, void *p, size_t n, mt_dtype dt)
{
    for (size_t i = 0; i < n; i++) {
        if (dt == MT_FLOAT16) {
            ((mt_half *)p)[i] = mt_float_to_half(f[i]);
        }
        else {
            ((mt_bfloat16 *)p)[i] = mt_float_to_bfloat16(f[i]);
        }
    }
}

/* The time w may take: its own, or the group's. */
static int64_t
mt__timeout_of(mt_pg *pg, const mt_work *w)
{
    return w->timeout_ms > 0 ? w->timeout_ms : atomic_load(&pg->timeout_ms);
}

static int
mt__run(mt_pg *pg, mt_work *w)
{
    mt_algo_ctx c = {
        .tp = pg->tp,
        .rank = pg->rank,
        .size = pg->size,
        .tag = w->tag,
        .deadline = mt__deadline_after(mt__timeout_of(pg, w)),
    };
    int n = pg->size, rc = 0;
    mt_tensor **ts = w->tensors;
    void **bufs = NULL;
    switch (w->kind) {
    case MT__OP_ALLREDUCE:
        for (int i = 0; i < w->ntensors && rc == 0; i++) {
            size_t cnt = (size_t)ts[i]->numel;
            if (mt__widens(w, ts[i]->dtype)) { /* Note [16-bit float reductions] */
                float *f = mt__widen(mt_tensor_data(ts[i]), cnt, ts[i]->dtype);
                rc = f == NULL ? MT_ENOMEM : mt_algo_allreduce(&c, f, cnt, MT_FLOAT32, w->op);
                if (rc == 0) {
                    mt__narrow(f, mt_tensor_data(ts[i]), cnt, ts[i]->dtype);
                }
                free(f);
                continue;
            }
            rc = mt_algo_allreduce(&c, mt_tensor_data(ts[i]), cnt, ts[i]->dtype, w->op);
        }
        return rc;
    case MT__OP_BROADCAST:
        for (int i = 0; i < w->ntensors && rc == 0; i++) {
            rc = mt_algo_broadcast(&c, mt_tensor_data(ts[i]), mt__nbytes(ts[i]), w->root);
        }
        return rc;
    case MT__OP_REDUCE:
        if (mt__widens(w, ts[0]->dtype)) { /* Note [16-bit float reductions] */
            size_t cnt = (size_t)ts[0]->numel;
            float *f = mt__widen(mt_tensor_data(ts[0]), cnt, ts[0]->dtype);
            rc = f == NULL ? MT_ENOMEM : mt_algo_reduce(&c, f, cnt, MT_FLOAT32, w->op, w->root);
            if (rc == 0 && pg->rank == w->root) {
                mt__narrow(f, mt_tensor_data(ts[0]), cnt, ts[0]->dtype);
            }
            free(f);
            return rc;
        }
        return mt_algo_reduce(&c, mt_tensor_data(ts[0]), (size_t)ts[0]->numel, ts[0]->dtype,
                              w->op, w->root);
    case MT__OP_BARRIER:
        return mt_algo_barrier(&c);
    case MT__OP_SEND:
        return mt_transport_send(pg->tp, w->root, w->tag, mt_tensor_data(ts[0]),
                                 mt__nbytes(ts[0]), c.deadline);
    case MT__OP_RECV:
        return mt_transport_recv(pg->tp, w->root, w->tag, mt_tensor_data(ts[0]),
                                 mt__nbytes(ts[0]), c.deadline, &w->src_rank);
    default:
        break;
    }
    /* The list-shaped operations. */
    bufs = calloc(2 * (size_t)n, sizeof(*bufs));
    if (bufs == NULL) {
        return mt_error_set(MT_ENOMEM, "out of memory running %s", mt_work_op_name(w));
    }
    for (int r = 0; r < n && w->kind != MT__OP_ALLTOALL; r++) {
        bufs[r] = ts[1 + r] ? mt_tensor_data(ts[1 + r]) : NULL;
    }
    switch (w->kind) {
    case MT__OP_ALLGATHER:
        rc = mt_algo_allgather(&c, mt_tensor_data(ts[0]), mt__nbytes(ts[0]), bufs);
        break;
    case MT__OP_GATHER:
        rc = mt_algo_gather(&c, mt_tensor_data(ts[0]), mt__nbytes(ts[0]),
                            pg->rank == w->root ? bufs : NULL, w->root);
        break;
    case MT__OP_SCATTER:
        rc = mt_algo_scatter(&c, mt_tensor_data(ts[0]), mt__nbytes(ts[0]),
                             pg->rank == w->root ? (const void *const *)bufs : NULL, w->root);
        break;
    case MT__OP_REDUCE_SCATTER: {
        /* Pack the inputs in rank order (the algorithm works on one buffer). */
        size_t len = mt__nbytes(ts[0]);
        size_t count = (size_t)ts[0]->numel;
        mt_dtype dt = ts[0]->dtype;
        bool wide = mt__widens(w, dt); /* Note [16-bit float reductions] */
        size_t esz = wide ? sizeof(float) : len / (count ? count : 1);
        char *packed = malloc((wide ? count * sizeof(float) : len) * (size_t)n + 1);
        size_t *counts = malloc((size_t)n * sizeof(*counts));
        float *out = wide ? malloc((count ? count : 1) * sizeof(float)) : NULL;
        if (packed == NULL || counts == NULL || (wide && out == NULL)) {
            rc = mt_error_set(MT_ENOMEM, "out of memory in reduce_scatter");
        }
        else {
            for (int r = 0; r < n; r++) {
                char *dst = packed + (size_t)r * count * (wide ? sizeof(float) : esz);
                if (wide) {
                    float *f = mt__widen(bufs[r], count, dt);
                    if (f == NULL) {
                        rc = MT_ENOMEM;
                        break;
                    }
                    memcpy(dst, f, count * sizeof(float));
                    free(f);
                }
                else {
                    memcpy(dst, bufs[r], len);
                }
                counts[r] = count;
            }
            if (rc == 0) {
                rc = mt_algo_reduce_scatter(&c, packed, counts,
                                            wide ? (void *)out : mt_tensor_data(ts[0]),
                                            wide ? MT_FLOAT32 : dt, w->op);
            }
            if (rc == 0 && wide) {
                mt__narrow(out, mt_tensor_data(ts[0]), count, dt);
            }
        }
        free(out);
        free(packed);
        free(counts);
        break;
    }
    case MT__OP_ALLTOALL: {
        void **sends = bufs, **recvs = bufs + n;
        if (w->single) {
            char *out = mt_tensor_data(ts[0]), *in = mt_tensor_data(ts[1]);
            size_t so = 0, ro = 0;
            for (int r = 0; r < n; r++) {
                sends[r] = in + so;
                recvs[r] = out + ro;
                so += w->lens[r];
                ro += w->lens[n + r];
            }
        }
        else {
            for (int r = 0; r < n; r++) {
                recvs[r] = mt_tensor_data(ts[r]);
                sends[r] = mt_tensor_data(ts[n + r]);
            }
        }
        rc = mt_algo_alltoall(&c, (const void *const *)sends, w->lens, recvs, w->lens + n);
        break;
    }
    default:
        rc = mt_error_set(MT_ERUNTIME, "internal error: unknown operation %d", (int)w->kind);
    }
    free(bufs);
    return rc;
}

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

/* Runs the sends and receives of works[0..n) in one exchange (the worker
 * batches sends only, see Note [Lone receives]). */
static int
mt__run_p2p_batch(mt_pg *pg, mt_work **works, int n)
{
    mt_xfer *x = calloc((size_t)n, sizeof(*x));
    if (x == NULL) {
        return mt_error_set(MT_ENOMEM, "out of memory running point-to-point operations");
    }
    int ns = 0, nr = n;
    for (int i = 0; i < n; i++) { /* sends from the front, receives from the back */
        mt_work *w = works[i];
        mt_xfer *xi = w->kind == MT__OP_SEND ? &x[ns++] : &x[--nr];
        xi->peer = w->root;
        xi->tag = w->tag;
        xi->buf = mt_tensor_data(w->tensors[0]);
        xi->len = mt__nbytes(w->tensors[0]);
    }
    /* the receives were filled back to front: restore issue order, so two
     * receives from one peer with one tag match that peer's messages in order */
    for (int i = ns, j = n - 1; i < j; i++, j--) {
        mt_xfer t = x[i];
        x[i] = x[j];
        x[j] = t;
    }
    int64_t tmo = 0;
    for (int i = 0; i < n; i++) { /* the batch may run as long as its longest member */
        int64_t t = mt__timeout_of(pg, works[i]);
        tmo = t > tmo ? t : tmo;
    }
    int rc = mt_transport_exchange(pg->tp, x, ns, x + ns, n - ns, mt__deadline_after(tmo));
    if (rc == 0) {
        int r = ns;
        for (int i = 0; i < n; i++) {
            if (works[i]->kind == MT__OP_RECV) {
                works[i]->src_rank = x[r++].src;
            }
        }
    }
    free(x);
    return rc;
}

/* Runs works[0..n) (one item, or a batch of sends), which the
 * caller has dequeued after setting pg->running (mu not held); clears
 * running, wakes waiters, completes the items and drops the queue's
 * references.  Used by the worker and by mt_pg_run_taken. */
static void
mt__execute(mt_pg *pg, mt_work **works, int n)
{
    pthread_mutex_lock(&pg->mu);
    bool broken = pg->broken;
    pthread_mutex_unlock(&pg->mu);

    int rc;
    char msg[1024];
    if (broken) {
        rc = MT_ECONN;
        snprintf(msg, sizeof(msg), "%s failed: the process group is unusable after an "
                 "earlier error: %.900s", mt_work_op_name(works[0]), pg->broken_msg);
    }
    else {
        mt_error_clear();
        rc = n == 1 ? mt__run(pg, works[0]) : mt__run_p2p_batch(pg, works, n);
        if (rc == MT_ETIMEOUT) {
            /* "rank R: " + torch's words, then what timed out (its own "rank R: " dropped) */
            char who[32];
            int wl = snprintf(who, sizeof(who), "rank %d: ", pg->rank);
            const char *why = mt_error_message();
            if (wl > 0 && strncmp(why, who, (size_t)wl) == 0) {
                why += wl;
            }
            snprintf(msg, sizeof(msg), "%sTimed out waiting %lldms for %s to complete: %.900s",
                     who, (long long)mt__timeout_of(pg, works[0]), mt_work_op_name(works[0]), why);
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

static bool
mt__is_p2p(const mt_work *w)
{
    return w->kind == MT__OP_SEND || w->kind == MT__OP_RECV;
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
        /* running here means a caller executes an item inline (Note [Inline
         * execution]): wait for it, one item at a time. */
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
        pthread_mutex_unlock(&pg->mu);
        mt__execute(pg, batch, n);
        pthread_mutex_lock(&pg->mu);
    }
    pthread_mutex_unlock(&pg->mu);
    return NULL;
}

/* See Note [Inline execution]. */
static _Thread_local bool mt__defer_wake;
/* The timeout of the next operation this thread enqueues (0: the group's). */
static _Thread_local int64_t mt__next_timeout_ms;

void
mt_pg_set_op_timeout(int64_t timeout_ms)
{
    mt__next_timeout_ms = timeout_ms > 0 ? timeout_ms : 0;
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

void
mt_pg_set_defer_wake(bool on)
{
    mt__defer_wake = on;
}

bool
mt_pg_take(mt_pg *pg, mt_work *w)
{
    pthread_mutex_lock(&pg->mu);
    bool mine = pg->head == w && !pg->running;
    if (mine) {
        (void)mt__pop_locked(pg);
    }
    else {
        pthread_cond_broadcast(&pg->cv); /* its enqueue may not have woken the worker */
    }
    pthread_mutex_unlock(&pg->mu);
    return mine;
}

void
mt_pg_run_taken(mt_pg *pg, mt_work *w)
{
    mt__execute(pg, &w, 1);
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
    mt_pg *pg = calloc(1, sizeof(*pg));
    if (pg == NULL) {
        mt_error_set(MT_ENOMEM, "out of memory creating a process group");
        return NULL;
    }
    pg->rank = rank;
    pg->size = size;
    pg->timeout_ms = timeout_ms;
    pg->tp = mt_transport_new(store, rank, size, timeout_ms);
    if (pg->tp == NULL) {
        free(pg);
        return NULL;
    }
    mt_store_incref(store);
    pg->store = store;
    pthread_mutex_init(&pg->mu, NULL);
    pthread_cond_init(&pg->cv, NULL);
    int rc = pthread_create(&pg->worker, NULL, mt__worker_main, pg);
    if (rc != 0) {
        mt_error_set(MT_ERUNTIME, "cannot start the process group's worker thread: %s",
                     strerror(rc));
        mt_transport_close(pg->tp);
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
    return mt_transport_name(pg->tp);
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
        mt_transport_abort(pg->tp);
        pthread_mutex_lock(&pg->mu);
    }
    pg->stop = true;
    pthread_cond_broadcast(&pg->cv);
    while (pg->running) { /* an inline execution (Note [Inline execution]) */
        pthread_cond_wait(&pg->cv, &pg->mu);
    }
    pthread_mutex_unlock(&pg->mu);
    pthread_join(pg->worker, NULL);
    mt_transport_close(pg->tp);
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

/* ---- enqueueing (caller thread) -------------------------------------------- */

/* Queues w (the queue takes its own reference) and returns it to the caller. */
static mt_work *
mt__enqueue(mt_pg *pg, mt_work *w, bool collective)
{
    mt_work_incref(w);
    pthread_mutex_lock(&pg->mu);
    if (collective) {
        w->tag = MT__COLL_TAG_BIT | (pg->seq++ & ~MT__COLL_TAG_BIT);
    }
    w->next = NULL;
    w->pg = pg;
    w->timeout_ms = mt__next_timeout_ms;
    mt__next_timeout_ms = 0;
    if (pg->tail) {
        pg->tail->next = w;
    }
    else {
        pg->head = w;
    }
    pg->tail = w;
    if (!mt__defer_wake) {
        pthread_cond_broadcast(&pg->cv);
    }
    mt__defer_wake = false;
    pthread_mutex_unlock(&pg->mu);
    return w;
}

static int
mt__check_tensor(const mt_tensor *t, const char *op, const char *what)
{
    if (t == NULL) {
        return mt_error_set(MT_EINVAL, "%s: %s is missing", op, what);
    }
    if (mt_tensor_device(t).type != MT_CPU) {
        return mt_error_set(MT_EINVAL, "%s: %s must be a CPU tensor for the gloo backend", op,
                            what);
    }
    if (!t->contiguous) {
        return mt_error_set(MT_EINVAL, "%s: %s must be contiguous", op, what);
    }
    return 0;
}

static int
mt__check_root(mt_pg *pg, int root, const char *op)
{
    if (root < 0 || root >= pg->size) {
        return mt_error_set(MT_EINVAL, "%s: invalid root rank %d (group size %d)", op, root,
                            pg->size);
    }
    return 0;
}

/* Same dtype and numel as `ref`. */
static int
mt__check_like(const mt_tensor *t, const mt_tensor *ref, const char *op, const char *what, int i)
{
    int rc = mt__check_tensor(t, op, what);
    if (rc < 0) {
        return rc;
    }
    if (t->dtype != ref->dtype) {
        return mt_error_set(MT_ETYPE, "%s: %s[%d] has dtype %s, expected %s", op, what, i,
                            mt_dtype_name(t->dtype), mt_dtype_name(ref->dtype));
    }
    if (t->numel != ref->numel) {
        return mt_error_set(MT_EINVAL, "%s: %s[%d] has %lld elements, expected %lld", op, what,
                            i, (long long)t->numel, (long long)ref->numel);
    }
    return 0;
}

mt_work *
mt_pg_enqueue_allreduce(mt_pg *pg, mt_tensor *const *tensors, int ntensors, mt_dist_op op)
{
    if (ntensors < 1) {
        mt_error_set(MT_EINVAL, "allreduce: needs at least one tensor");
        return NULL;
    }
    for (int i = 0; i < ntensors; i++) {
        if (mt__check_tensor(tensors[i], "allreduce", "tensor") < 0 ||
            mt_dist_op_check(tensors[i]->dtype, op) < 0) {
            return NULL;
        }
    }
    mt_work *w = mt__work_new(MT__OP_ALLREDUCE, tensors, ntensors);
    if (w == NULL) {
        return NULL;
    }
    w->op = op;
    return mt__enqueue(pg, w, true);
}

mt_work *
mt_pg_enqueue_broadcast(mt_pg *pg, mt_tensor *const *tensors, int ntensors, int root)
{
    if (ntensors < 1) {
        mt_error_set(MT_EINVAL, "broadcast: needs at least one tensor");
        return NULL;
    }
    if (mt__check_root(pg, root, "broadcast") < 0) {
        return NULL;
    }
    for (int i = 0; i < ntensors; i++) {
        if (mt__check_tensor(tensors[i], "broadcast", "tensor") < 0) {
            return NULL;
        }
    }
    mt_work *w = mt__work_new(MT__OP_BROADCAST, tensors, ntensors);
    if (w == NULL) {
        return NULL;
    }
    w->root = root;
    return mt__enqueue(pg, w, true);
}

mt_work *
mt_pg_enqueue_reduce(mt_pg *pg, mt_tensor *tensor, int root, mt_dist_op op)
{
    if (mt__check_root(pg, root, "reduce") < 0 || mt__check_tensor(tensor, "reduce", "tensor") < 0 ||
        mt_dist_op_check(tensor->dtype, op) < 0) {
        return NULL;
    }
    mt_work *w = mt__work_new(MT__OP_REDUCE, &tensor, 1);
    if (w == NULL) {
        return NULL;
    }
    w->root = root;
    w->op = op;
    return mt__enqueue(pg, w, true);
}

/* Builds a work whose tensors are (first, list[0..size-1]). */
static mt_work *
mt__work_with_list(mt__op_kind kind, mt_pg *pg, mt_tensor *first, mt_tensor *const *list)
{
    mt_tensor **ts = calloc((size_t)pg->size + 1, sizeof(*ts));
    if (ts == NULL) {
        mt_error_set(MT_ENOMEM, "out of memory");
        return NULL;
    }
    ts[0] = first;
    for (int r = 0; r < pg->size && list != NULL; r++) {
        ts[1 + r] = list[r];
    }
    mt_work *w = mt__work_new(kind, ts, pg->size + 1);
    free(ts);
    return w;
}

static int
mt__check_list(mt_pg *pg, mt_tensor *const *list, const mt_tensor *ref, const char *op,
               const char *what)
{
    if (list == NULL) {
        return mt_error_set(MT_EINVAL, "%s: %s must be a list of %d tensors", op, what,
                            pg->size);
    }
    for (int r = 0; r < pg->size; r++) {
        int rc = mt__check_like(list[r], ref, op, what, r);
        if (rc < 0) {
            return rc;
        }
    }
    return 0;
}

mt_work *
mt_pg_enqueue_allgather(mt_pg *pg, mt_tensor *const *outputs, mt_tensor *input)
{
    if (mt__check_tensor(input, "allgather", "input") < 0 ||
        mt__check_list(pg, outputs, input, "allgather", "output_tensor_list") < 0) {
        return NULL;
    }
    mt_work *w = mt__work_with_list(MT__OP_ALLGATHER, pg, input, outputs);
    return w ? mt__enqueue(pg, w, true) : NULL;
}

mt_work *
mt_pg_enqueue_gather(mt_pg *pg, mt_tensor *const *outputs, mt_tensor *input, int root)
{
    if (mt__check_root(pg, root, "gather") < 0 || mt__check_tensor(input, "gather", "input") < 0) {
        return NULL;
    }
    if (pg->rank == root) {
        if (mt__check_list(pg, outputs, input, "gather", "gather_list") < 0) {
            return NULL;
        }
    }
    else if (outputs != NULL) {
        mt_error_set(MT_EINVAL, "gather: gather_list must be None on non-destination ranks "
                     "(rank %d, dst %d)", pg->rank, root);
        return NULL;
    }
    mt_work *w = mt__work_with_list(MT__OP_GATHER, pg, input, outputs);
    if (w == NULL) {
        return NULL;
    }
    w->root = root;
    return mt__enqueue(pg, w, true);
}

mt_work *
mt_pg_enqueue_scatter(mt_pg *pg, mt_tensor *output, mt_tensor *const *inputs, int root)
{
    if (mt__check_root(pg, root, "scatter") < 0 ||
        mt__check_tensor(output, "scatter", "output") < 0) {
        return NULL;
    }
    if (pg->rank == root) {
        if (mt__check_list(pg, inputs, output, "scatter", "scatter_list") < 0) {
            return NULL;
        }
    }
    else if (inputs != NULL) {
        mt_error_set(MT_EINVAL, "scatter: scatter_list must be None on non-source ranks "
                     "(rank %d, src %d)", pg->rank, root);
        return NULL;
    }
    mt_work *w = mt__work_with_list(MT__OP_SCATTER, pg, output, inputs);
    if (w == NULL) {
        return NULL;
    }
    w->root = root;
    return mt__enqueue(pg, w, true);
}

mt_work *
mt_pg_enqueue_reduce_scatter(mt_pg *pg, mt_tensor *output, mt_tensor *const *inputs,
                             mt_dist_op op)
{
    if (mt__check_tensor(output, "reduce_scatter", "output") < 0 ||
        mt_dist_op_check(output->dtype, op) < 0 ||
        mt__check_list(pg, inputs, output, "reduce_scatter", "input_list") < 0) {
        return NULL;
    }
    mt_work *w = mt__work_with_list(MT__OP_REDUCE_SCATTER, pg, output, inputs);
    if (w == NULL) {
        return NULL;
    }
    w->op = op;
    return mt__enqueue(pg, w, true);
}

mt_work *
mt_pg_enqueue_alltoall(mt_pg *pg, mt_tensor *const *outputs, mt_tensor *const *inputs)
{
    int n = pg->size;
    if (outputs == NULL || inputs == NULL) {
        mt_error_set(MT_EINVAL, "all_to_all: needs %d output and %d input tensors", n, n);
        return NULL;
    }
    for (int r = 0; r < n; r++) {
        if (mt__check_tensor(outputs[r], "all_to_all", "output") < 0 ||
            mt__check_tensor(inputs[r], "all_to_all", "input") < 0) {
            return NULL;
        }
        if (outputs[r]->dtype != inputs[0]->dtype || inputs[r]->dtype != inputs[0]->dtype) {
            mt_error_set(MT_ETYPE, "all_to_all: every tensor must have dtype %s",
                         mt_dtype_name(inputs[0]->dtype));
            return NULL;
        }
    }
    mt_tensor **ts = calloc(2 * (size_t)n, sizeof(*ts));
    size_t *lens = calloc(2 * (size_t)n, sizeof(*lens));
    if (ts == NULL || lens == NULL) {
        free(ts);
        free(lens);
        mt_error_set(MT_ENOMEM, "out of memory");
        return NULL;
    }
    for (int r = 0; r < n; r++) {
        ts[r] = outputs[r];
        ts[n + r] = inputs[r];
        lens[r] = mt__nbytes(inputs[r]);
        lens[n + r] = mt__nbytes(outputs[r]);
    }
    mt_work *w = mt__work_new(MT__OP_ALLTOALL, ts, 2 * n);
    free(ts);
    if (w == NULL) {
        free(lens);
        return NULL;
    }
    w->lens = lens;
    return mt__enqueue(pg, w, true);
}

/* Byte lengths of the dim-0 splits of t into lens[0..n-1]. */
static int
mt__split_lens(mt_pg *pg, const mt_tensor *t, const int64_t *splits, size_t *lens,
               const char *what)
{
    int n = pg->size;
    int64_t rows = t->ndim > 0 ? t->sizes[0] : 1;
    size_t row_bytes = rows > 0 ? mt__nbytes(t) / (size_t)rows : 0;
    if (splits == NULL) {
        if (rows % n != 0) {
            return mt_error_set(MT_EINVAL, "all_to_all_single: %s dimension 0 (%lld) is not "
                                "divisible by the group size %d; pass split sizes",
                                what, (long long)rows, n);
        }
        for (int r = 0; r < n; r++) {
            lens[r] = (size_t)(rows / n) * row_bytes;
        }
        return 0;
    }
    int64_t total = 0;
    for (int r = 0; r < n; r++) {
        if (splits[r] < 0) {
            return mt_error_set(MT_EINVAL, "all_to_all_single: negative %s split size %lld",
                                what, (long long)splits[r]);
        }
        total += splits[r];
        lens[r] = (size_t)splits[r] * row_bytes;
    }
    if (total != rows) {
        return mt_error_set(MT_EINVAL, "all_to_all_single: %s split sizes sum to %lld but "
                            "dimension 0 is %lld", what, (long long)total, (long long)rows);
    }
    return 0;
}

mt_work *
mt_pg_enqueue_alltoall_single(mt_pg *pg, mt_tensor *output, mt_tensor *input,
                              const int64_t *output_splits, const int64_t *input_splits)
{
    int n = pg->size;
    if (mt__check_tensor(output, "all_to_all_single", "output") < 0 ||
        mt__check_tensor(input, "all_to_all_single", "input") < 0) {
        return NULL;
    }
    if (output->dtype != input->dtype) {
        mt_error_set(MT_ETYPE, "all_to_all_single: output dtype %s differs from input dtype %s",
                     mt_dtype_name(output->dtype), mt_dtype_name(input->dtype));
        return NULL;
    }
    size_t *lens = calloc(2 * (size_t)n, sizeof(*lens));
    if (lens == NULL) {
        mt_error_set(MT_ENOMEM, "out of memory");
        return NULL;
    }
    if (mt__split_lens(pg, input, input_splits, lens, "input") < 0 ||
        mt__split_lens(pg, output, output_splits, lens + n, "output") < 0) {
        free(lens);
        return NULL;
    }
    mt_tensor *ts[2] = {output, input};
    mt_work *w = mt__work_new(MT__OP_ALLTOALL, ts, 2);
    if (w == NULL) {
        free(lens);
        return NULL;
    }
    w->lens = lens;
    w->single = true;
    return mt__enqueue(pg, w, true);
}

mt_work *
mt_pg_enqueue_barrier(mt_pg *pg)
{
    mt_work *w = mt__work_new(MT__OP_BARRIER, NULL, 0);
    return w ? mt__enqueue(pg, w, true) : NULL;
}

static int
mt__check_p2p(mt_pg *pg, mt_tensor *t, int peer, int tag, const char *op, bool any_ok)
{
    int rc = mt__check_tensor(t, op, "tensor");
    if (rc < 0) {
        return rc;
    }
    if (!(any_ok && peer == MT_ANY_SOURCE) && (peer < 0 || peer >= pg->size)) {
        return mt_error_set(MT_EINVAL, "%s: invalid peer rank %d (group size %d)", op, peer,
                            pg->size);
    }
    if (peer == pg->rank) {
        return mt_error_set(MT_EINVAL, "%s: invalid %s rank %d: should not be the same as the "
                            "rank of the current process", op,
                            any_ok ? "source" : "destination", peer);
    }
    if (tag < 0) {
        return mt_error_set(MT_EINVAL, "%s: tag must be non-negative, got %d", op, tag);
    }
    return 0;
}

mt_work *
mt_pg_enqueue_send(mt_pg *pg, mt_tensor *tensor, int dst, int tag)
{
    if (mt__check_p2p(pg, tensor, dst, tag, "send", false) < 0) {
        return NULL;
    }
    mt_work *w = mt__work_new(MT__OP_SEND, &tensor, 1);
    if (w == NULL) {
        return NULL;
    }
    w->root = dst;
    w->tag = (uint32_t)tag;
    return mt__enqueue(pg, w, false);
}

mt_work *
mt_pg_enqueue_recv(mt_pg *pg, mt_tensor *tensor, int src, int tag)
{
    if (mt__check_p2p(pg, tensor, src, tag, "recv", true) < 0) {
        return NULL;
    }
    mt_work *w = mt__work_new(MT__OP_RECV, &tensor, 1);
    if (w == NULL) {
        return NULL;
    }
    w->root = src;
    w->tag = (uint32_t)tag;
    return mt__enqueue(pg, w, false);
}
