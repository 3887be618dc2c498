/* csrc/distributed/backend/mpi_backend.c - the MPI backend ("mpi"): the process group's operations run by the MPI library opened at run time (Note [Backend vtable], Note [Loading MPI]). */
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "c10_lite/error.h"
#include "csrc/distributed/backend/backend.h"
#include "csrc/distributed/backend/pg_private.h"
#include "csrc/distributed/common/net.h"
#include "csrc/distributed/mpi/mpi_lib.h"
#include "csrc/distributed/transport/transport.h"

/* Note [MPI operations]
 * The thread that runs an item (the group's worker, or the caller inline: Note [Issuing an
 * operation]) describes it as a job (the MPI calls and their arguments) and runs it one of
 * two ways (chosen per job, Note [MPI thread hand-over]):
 *   - thread: the job is handed to the group's MPI thread, which makes MPI's blocking calls
 *     (MPI_Allreduce, MPI_Bcast, ..., MPI_Isend/MPI_Irecv and MPI_Waitall), while the
 *     handing thread waits for it until the operation's deadline or an abort;
 *   - poll: the handing thread posts MPI-3's non-blocking calls (MPI_Iallreduce, ...) itself
 *     and polls MPI_Testall until they complete, the deadline passes or the group is aborted.
 * Either way every wait is bounded, which MPI's blocking calls alone cannot be (they cannot
 * be interrupted).  The blocking calls are the fast ones: Open MPI runs its non-blocking
 * collectives through another component (libnbc), several times slower than its blocking
 * ones from a few KiB up; but a hand-over between threads costs wake-ups.  The GIL is not
 * held (the binding releases it around inline runs; the worker never has it).
 *
 * An operation that times out or is aborted leaves its job running in MPI, which may still
 * write into its buffers later: they are stranded - the tensors keep an extra reference and
 * scratch buffers are never freed (a leak, bounded by the one operation that broke the
 * group) - and the MPI thread, stuck, is detached rather than joined when the group goes
 * (its communicators are not freed either).
 *
 * Data: reductions use the MPI datatype of the tensor's dtype (bool as uint8 with SUM/AVG as
 * BOR and PRODUCT as BAND, which is what the CPU backend computes on 0/1 bytes); float16
 * and bfloat16, which MPI has no type for, are widened to float32 (Note [16-bit float
 * reductions]); AVG is a SUM divided by the group's size afterwards.  Operations that do not
 * reduce move bytes.  MPI counts are ints: a count that does not fit is an error, not a
 * silent truncation.  Lists of tensors (allgather's outputs, ...) that lie back to back in
 * one buffer (the views all_gather_into_tensor makes) are used in place; others go through
 * one packed scratch buffer. */

typedef enum mt__jkind {
    MT__J_ALLREDUCE,
    MT__J_BCAST,
    MT__J_REDUCE,
    MT__J_ALLGATHER,
    MT__J_GATHER,
    MT__J_SCATTER,
    MT__J_REDSCAT,
    MT__J_ALLTOALLV,
    MT__J_BARRIER,
    MT__J_P2P,
} mt__jkind;

/* One MPI call of a job (allreduce and broadcast: one per tensor; p2p: one per send or
 * receive). */
typedef struct mt__part {
    const void *s;
    void *r;
    int count;
    mt_mpi_handle type, op;
    bool send;        /* p2p */
    int peer, tag;    /* p2p */
    mt_mpi_status st; /* p2p: the receive's status */
} mt__part;

/* Job states (Note [MPI operations]): who frees it. */
enum { MT__JOB_RUNNING, MT__JOB_DONE, MT__JOB_ABANDONED };

typedef struct mt__job {
    mt__jkind kind;
    int root;
    const int *sc, *sd, *rcnt, *rd; /* alltoallv */
    int mpi_rc;                       /* MPI's code (set by the MPI thread) */
    const char *fn;                   /* the MPI function that failed */
    atomic_int state;
    int n;
    mt__part part[];
} mt__job;

typedef struct mt__mpi_backend {
    mt_pg_backend base;
    const mt_mpi_api *api;
    mt_mpi_handle comm; /* the operations' communicator (owned) */
    mt_mpi_handle mgmt; /* a duplicate that groups are split from (owned; Note [MPI threads]) */
    atomic_bool aborted;
    atomic_bool stuck; /* a job was abandoned: the MPI thread may never return */
    pthread_t thread;  /* the MPI thread */
    /* the hand-over (Note [MPI thread hand-over]) */
    pthread_mutex_t mu;
    pthread_cond_t cv;           /* a job arrived / stop */
    pthread_cond_t done_cv;      /* a job finished / abort (CLOCK_MONOTONIC) */
    _Atomic(mt__job *) job;      /* the job handed over, not yet taken */
    atomic_bool thread_sleeps;   /* the MPI thread waits on cv */
    atomic_bool waiter_sleeps;   /* the job's waiter waits on done_cv */
    atomic_bool stop;
    /* sends in flight (Note [MPI sends]) */
    pthread_mutex_t send_mu;
    struct mt__pending *sends; /* owned array; guarded by send_mu */
    int nsends_, cap_sends;
    atomic_int nsends;          /* nsends_, read without the lock */
    int send_rc;                /* the first failed send's MT_E* code (guarded by send_mu) */
    char send_err[512];
    int progress;     /* 0: by size, 1: always "thread", -1: always "poll" (no MPI thread) */
    bool caller;      /* blocking operations on the caller's thread (Note [MPI on the caller's thread]) */
    bool crowded;      /* fewer CPUs than threads: spin yielding (Note [MPI thread hand-over]) */
} mt__mpi_backend;

/* Note [MPI thread hand-over]
 * A job crosses threads twice (to the MPI thread, and back as done); sleeping on a condition
 * variable both ways costs two futex wake-ups and thread switches, tens of microseconds on a
 * busy host, which would be most of a small operation.  So each side spins a while before
 * it sleeps: the MPI thread for MT__THREAD_SPIN_US after each job (a program's next
 * operation usually comes sooner), the waiter for MT__WAITER_SPIN_US (most operations end
 * sooner), both yielding the CPU while they spin so that on a full host they cost little.
 * Only a side that sleeps is signalled: each announces it (thread_sleeps, waiter_sleeps)
 * under the mutex, then looks again at what it waits for, while the other side publishes
 * its news before it reads the flag (sequentially consistent atomics): one of the two
 * always sees the other, so no wake-up is lost.
 * Even so a hand-over costs microseconds, and more where the host has fewer CPUs than its
 * ranks have threads: so an operation moving less than MT__THREAD_MIN_BYTES runs the "poll"
 * way (Note [MPI operations]) on the thread that issued it (Open MPI's non-blocking calls
 * are about as fast as its blocking ones there), a larger one the "thread" way.  On a
 * crowded host (fewer CPUs than twice Open MPI's OMPI_COMM_WORLD_LOCAL_SIZE, or that count
 * unknown) both sides still spin, but give the CPU away at every turn: a sleeping MPI
 * thread would wait for the scheduler (up to a tick on a loaded host) at every operation,
 * a spinning one that keeps its CPU would starve the other threads.
 * MINITORCH_MPI_PROGRESS=thread or =poll runs every operation one way.
 *
 * Note [MPI on the caller's thread]
 * With MINITORCH_MPI_PROGRESS=caller, a blocking operation (async_op=False) that runs inline
 * (nothing else queued for the group, Note [Issuing an operation]) makes MPI's blocking call
 * on the caller's own thread, the GIL released, whatever its size: no hand-over at all, so
 * its cost is MPI's, as through mpi4py (a hand-over measured 15-20% of a 64 KiB all_reduce
 * on 2 busy cores, and a non-blocking call polled costs most of a microsecond more than the
 * blocking one at 4 bytes).  Order is kept as for every inline run: a queued (async)
 * operation runs first, on the worker, the ways above.  The price: like MPI's blocking calls
 * everywhere (mpi4py, torch's MPI backend) such an operation waits as long as MPI does - its
 * timeout and abort() cannot interrupt it.  That is why it is a choice and not the default:
 * by default every wait is bounded by the operation's timeout (the ways above). */
#define MT__THREAD_MIN_BYTES (64 << 10)
#define MT__THREAD_SPIN_US 200
#define MT__WAITER_SPIN_US 5000

static int64_t
mt__now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

/* One turn of a spin: a pause, and every 16th turn (every turn on a crowded host) the CPU
 * left to another thread. */
static void
mt__relax(unsigned k, bool crowded)
{
    if (crowded || (k & 15) == 15) {
        sched_yield();
    }
    else {
#if defined(__x86_64__) || defined(__i386__)
        __builtin_ia32_pause();
#endif
    }
}

static const mt_pg_backend_ops mt__mpi_ops;

/* Note [MPI sends]
 * The process group runs a rank's sends before its receives and completes a send without
 * waiting for its receiver (Note [Lone receives]): two ranks that each isend then irecv must
 * not wait on each other.  MPI completes a large send only once the receiver has posted its
 * receive, so a send here copies its bytes, posts MPI_Isend from the copy and completes at
 * once, as the CPU backend's transports buffer early messages.  The sends in flight are
 * kept here and finished (their copies freed) by whoever calls MPI next for the group: each
 * operation first, the MPI thread every millisecond while any is left, destroy last
 * (bounded by MT__SEND_DRAIN_MS).  A send MPI fails fails the group's next operation. */
#define MT__SEND_DRAIN_MS 30000

typedef struct mt__pending {
    mt_mpi_handle req;
    void *copy; /* owned */
} mt__pending;

/* Finishes the sends in flight that MPI has completed; how many are left. */
static int
mt__reap_sends(struct mt__mpi_backend *b);

static mt__mpi_backend *
mt__mb(mt_pg_backend *b)
{
    return (mt__mpi_backend *)b;
}

/* A new job of n parts (NULL + MT_ENOMEM message). */
static mt__job *
mt__job_new(mt__jkind kind, int n)
{
    mt__job *j = calloc(1, sizeof(*j) + (size_t)(n > 0 ? n : 1) * sizeof(mt__part));
    if (j == NULL) {
        mt_error_set(MT_ENOMEM, "out of memory for an MPI operation");
        return NULL;
    }
    j->kind = kind;
    j->n = n;
    atomic_init(&j->state, MT__JOB_RUNNING);
    return j;
}

/* Runs j with MPI's blocking calls (the MPI thread); MPI's code, j->fn naming the call. */
static int
mt__job_exec(const mt_mpi_api *api, mt_mpi_handle comm, mt__job *j)
{
    int rc = MT_MPI_SUCCESS;
    const void *in_place = (const void *)1; /* Open MPI's MPI_IN_PLACE */
    mt__part *p = j->part;
    switch (j->kind) {
    case MT__J_ALLREDUCE:
        j->fn = "MPI_Allreduce";
        for (int i = 0; i < j->n && rc == MT_MPI_SUCCESS; i++) {
            rc = api->Allreduce(in_place, p[i].r, p[i].count, p[i].type, p[i].op, comm);
        }
        return rc;
    case MT__J_BCAST:
        j->fn = "MPI_Bcast";
        for (int i = 0; i < j->n && rc == MT_MPI_SUCCESS; i++) {
            rc = api->Bcast(p[i].r, p[i].count, p[i].type, j->root, comm);
        }
        return rc;
    case MT__J_REDUCE:
        j->fn = "MPI_Reduce";
        return api->Reduce(p->s, p->r, p->count, p->type, p->op, j->root, comm);
    case MT__J_ALLGATHER:
        j->fn = "MPI_Allgather";
        return api->Allgather(p->s, p->count, p->type, p->r, p->count, p->type, comm);
    case MT__J_GATHER:
        j->fn = "MPI_Gather";
        return api->Gather(p->s, p->count, p->type, p->r, p->count, p->type, j->root, comm);
    case MT__J_SCATTER:
        j->fn = "MPI_Scatter";
        return api->Scatter(p->s, p->count, p->type, p->r, p->count, p->type, j->root, comm);
    case MT__J_REDSCAT:
        j->fn = "MPI_Reduce_scatter_block";
        return api->Reduce_scatter_block(p->s, p->r, p->count, p->type, p->op, comm);
    case MT__J_ALLTOALLV:
        j->fn = "MPI_Alltoallv";
        return api->Alltoallv(p->s, j->sc, j->sd, p->type, p->r, j->rcnt, j->rd, p->type, comm);
    case MT__J_BARRIER:
        j->fn = "MPI_Barrier";
        return api->Barrier(comm);
    case MT__J_P2P: {
        mt_mpi_handle *reqs = malloc((size_t)j->n * sizeof(*reqs));
        mt_mpi_status *st = malloc((size_t)j->n * sizeof(*st));
        if (reqs == NULL || st == NULL) {
            free(reqs);
            free(st);
            j->fn = "(out of memory)";
            return -1;
        }
        int posted = 0;
        for (int i = 0; i < j->n && rc == MT_MPI_SUCCESS; i++, posted++) {
            if (p[i].send) {
                j->fn = "MPI_Isend";
                rc = api->Isend(p[i].s, p[i].count, p[i].type, p[i].peer, p[i].tag, comm, &reqs[i]);
            }
            else {
                j->fn = "MPI_Irecv";
                rc = api->Irecv(p[i].r, p[i].count, p[i].type, p[i].peer, p[i].tag, comm, &reqs[i]);
            }
        }
        if (rc != MT_MPI_SUCCESS) {
            posted--; /* the failed one posted nothing */
        }
        /* what was posted completes before the buffers may go */
        int wrc = posted > 0 ? api->Waitall(posted, reqs, st) : MT_MPI_SUCCESS;
        if (rc == MT_MPI_SUCCESS) {
            j->fn = "MPI_Waitall";
            rc = wrc;
        }
        for (int i = 0; i < posted; i++) {
            p[i].st = st[i];
        }
        free(reqs);
        free(st);
        return rc;
    }
    }
    return rc;
}

/* The next job (NULL: stop), spinning first (Note [MPI thread hand-over]). */
static mt__job *
mt__next_job(mt__mpi_backend *b)
{
    int64_t until = mt__now_us() + MT__THREAD_SPIN_US;
    for (unsigned k = 0;; k++) {
        mt__job *j = atomic_exchange(&b->job, NULL);
        if (j != NULL) {
            return j;
        }
        if (atomic_load(&b->stop)) {
            return NULL;
        }
        if ((k & 63) == 63 && mt__now_us() >= until) {
            break;
        }
        mt__relax(k, b->crowded);
    }
    pthread_mutex_lock(&b->mu);
    atomic_store(&b->thread_sleeps, true);
    mt__job *j;
    while ((j = atomic_exchange(&b->job, NULL)) == NULL && !atomic_load(&b->stop)) {
        if (atomic_load(&b->nsends) == 0) {
            pthread_cond_wait(&b->cv, &b->mu);
            continue;
        }
        /* sends in flight: finish them every millisecond (Note [MPI sends]) */
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        ts.tv_nsec += 1000000;
        if (ts.tv_nsec >= 1000000000) {
            ts.tv_sec++;
            ts.tv_nsec -= 1000000000;
        }
        pthread_cond_timedwait(&b->cv, &b->mu, &ts);
        pthread_mutex_unlock(&b->mu);
        mt__reap_sends(b);
        pthread_mutex_lock(&b->mu);
    }
    atomic_store(&b->thread_sleeps, false);
    pthread_mutex_unlock(&b->mu);
    return j;
}

static void *
mt__mpi_thread_main(void *arg)
{
    mt__mpi_backend *b = arg;
    mt__job *j;
    while ((j = mt__next_job(b)) != NULL) {
        j->mpi_rc = mt__job_exec(b->api, b->comm, j);
        int expect = MT__JOB_RUNNING;
        if (!atomic_compare_exchange_strong(&j->state, &expect, MT__JOB_DONE)) {
            free(j); /* abandoned: its waiter has gone; its buffers stay stranded */
            continue;
        }
        if (atomic_load(&b->waiter_sleeps)) {
            pthread_mutex_lock(&b->mu);
            pthread_cond_broadcast(&b->done_cv);
            pthread_mutex_unlock(&b->mu);
        }
    }
    return NULL;
}

/* Keeps the buffers of works[0..n) alive for good (Note [MPI operations]). */
static void
mt__strand(mt__mpi_backend *b, mt_work *const *works, int n)
{
    atomic_store(&b->stuck, true);
    for (int i = 0; i < n; i++) {
        for (int k = 0; k < works[i]->ntensors; k++) {
            if (works[i]->tensors[k] != NULL) {
                mt_tensor_incref(works[i]->tensors[k]);
            }
        }
    }
}

static int
mt__reap_sends(mt__mpi_backend *b)
{
    if (atomic_load(&b->nsends) == 0) {
        return 0;
    }
    pthread_mutex_lock(&b->send_mu);
    for (int i = 0; i < b->nsends_;) {
        int flag = 0;
        mt_mpi_status st;
        int e = b->api->Testall(1, &b->sends[i].req, &flag, &st);
        if (e != MT_MPI_SUCCESS || flag) {
            if (e != MT_MPI_SUCCESS && b->send_rc == 0) {
                b->send_rc = mt_mpi_error(b->api, e, "MPI_Isend");
                snprintf(b->send_err, sizeof(b->send_err), "%s", mt_error_message());
            }
            if (e == MT_MPI_SUCCESS) {
                free(b->sends[i].copy); /* (after an error MPI may still hold it: kept) */
            }
            b->sends[i] = b->sends[--b->nsends_];
            continue;
        }
        i++;
    }
    int left = b->nsends_;
    atomic_store(&b->nsends, left);
    pthread_mutex_unlock(&b->send_mu);
    return left;
}

/* Posts a send of a copy of (buf, count, type) bytes (len of them) to peer: Note [MPI
 * sends]. */
static int
mt__post_send(mt__mpi_backend *b, const void *buf, size_t len, int count, mt_mpi_handle type,
              int peer, int tag)
{
    void *copy = malloc(len ? len : 1);
    if (copy == NULL) {
        return mt_error_set(MT_ENOMEM, "out of memory copying a send");
    }
    memcpy(copy, buf, len);
    pthread_mutex_lock(&b->send_mu);
    if (b->nsends_ == b->cap_sends) {
        int cap = b->cap_sends ? 2 * b->cap_sends : 16;
        mt__pending *a = realloc(b->sends, (size_t)cap * sizeof(*a));
        if (a == NULL) {
            pthread_mutex_unlock(&b->send_mu);
            free(copy);
            return mt_error_set(MT_ENOMEM, "out of memory for a send");
        }
        b->sends = a;
        b->cap_sends = cap;
    }
    mt_mpi_handle req;
    int e = b->api->Isend(copy, count, type, peer, tag, b->comm, &req);
    if (e == MT_MPI_SUCCESS) {
        b->sends[b->nsends_++] = (mt__pending){req, copy};
        atomic_store(&b->nsends, b->nsends_);
    }
    pthread_mutex_unlock(&b->send_mu);
    if (e != MT_MPI_SUCCESS) {
        free(copy);
        return mt_mpi_error(b->api, e, "MPI_Isend");
    }
    return 0;
}

/* Posts j's calls non-blocking into reqs (one per part for allreduce, broadcast and p2p, else
 * one); returns how many were posted, MPI's code of a failure in *mpi_rc (j->fn naming the
 * call). */
static int
mt__job_post(const mt_mpi_api *api, mt_mpi_handle comm, mt__job *j, mt_mpi_handle *reqs,
             int *mpi_rc)
{
    const void *in_place = (const void *)1; /* Open MPI's MPI_IN_PLACE */
    mt__part *p = j->part;
    int rc = MT_MPI_SUCCESS, n = 0;
    switch (j->kind) {
    case MT__J_ALLREDUCE:
        j->fn = "MPI_Iallreduce";
        for (; n < j->n && rc == MT_MPI_SUCCESS; n++) {
            rc = api->Iallreduce(in_place, p[n].r, p[n].count, p[n].type, p[n].op, comm, &reqs[n]);
        }
        break;
    case MT__J_BCAST:
        j->fn = "MPI_Ibcast";
        for (; n < j->n && rc == MT_MPI_SUCCESS; n++) {
            rc = api->Ibcast(p[n].r, p[n].count, p[n].type, j->root, comm, &reqs[n]);
        }
        break;
    case MT__J_P2P:
        for (; n < j->n && rc == MT_MPI_SUCCESS; n++) {
            j->fn = p[n].send ? "MPI_Isend" : "MPI_Irecv";
            rc = p[n].send ? api->Isend(p[n].s, p[n].count, p[n].type, p[n].peer, p[n].tag, comm,
                                        &reqs[n])
                           : api->Irecv(p[n].r, p[n].count, p[n].type, p[n].peer, p[n].tag, comm,
                                        &reqs[n]);
        }
        break;
    case MT__J_REDUCE:
        j->fn = "MPI_Ireduce";
        rc = api->Ireduce(p->s, p->r, p->count, p->type, p->op, j->root, comm, reqs);
        n = 1;
        break;
    case MT__J_ALLGATHER:
        j->fn = "MPI_Iallgather";
        rc = api->Iallgather(p->s, p->count, p->type, p->r, p->count, p->type, comm, reqs);
        n = 1;
        break;
    case MT__J_GATHER:
        j->fn = "MPI_Igather";
        rc = api->Igather(p->s, p->count, p->type, p->r, p->count, p->type, j->root, comm, reqs);
        n = 1;
        break;
    case MT__J_SCATTER:
        j->fn = "MPI_Iscatter";
        rc = api->Iscatter(p->s, p->count, p->type, p->r, p->count, p->type, j->root, comm, reqs);
        n = 1;
        break;
    case MT__J_REDSCAT:
        j->fn = "MPI_Ireduce_scatter_block";
        rc = api->Ireduce_scatter_block(p->s, p->r, p->count, p->type, p->op, comm, reqs);
        n = 1;
        break;
    case MT__J_ALLTOALLV:
        j->fn = "MPI_Ialltoallv";
        rc = api->Ialltoallv(p->s, j->sc, j->sd, p->type, p->r, j->rcnt, j->rd, p->type, comm,
                             reqs);
        n = 1;
        break;
    case MT__J_BARRIER:
        j->fn = "MPI_Ibarrier";
        rc = api->Ibarrier(comm, reqs);
        n = 1;
        break;
    }
    *mpi_rc = rc;
    return rc == MT_MPI_SUCCESS ? n : n - 1; /* the failed call posted nothing */
}

static void mt__strand(mt__mpi_backend *b, mt_work *const *works, int n);

/* The "poll" way of mt__run_job (Note [MPI operations]); on a timeout or abort j is left
 * (leaked) with the stranded buffers. */
static int
mt__run_polled(mt__mpi_backend *b, mt__job *j, int64_t deadline, mt_work *const *works,
               int nworks, bool *stranded)
{
    const mt_mpi_api *api = b->api;
    int nreq = j->n > 1 ? j->n : 1;
    mt_mpi_handle small[4];
    mt_mpi_status small_st[4];
    mt_mpi_handle *reqs = nreq <= 4 ? small : malloc((size_t)nreq * sizeof(*reqs));
    mt_mpi_status *st = nreq <= 4 ? small_st : malloc((size_t)nreq * sizeof(*st));
    if (reqs == NULL || st == NULL) {
        if (reqs != small) {
            free(reqs);
            free(st);
        }
        return mt_error_set(MT_ENOMEM, "out of memory for MPI requests");
    }
    int mpi_rc = MT_MPI_SUCCESS, rc = 0;
    int posted = mt__job_post(api, b->comm, j, reqs, &mpi_rc);
    for (unsigned spins = 1; posted > 0; spins++) {
        int flag = 0;
        int e = api->Testall(posted, reqs, &flag, st);
        if (e != MT_MPI_SUCCESS) {
            mt__strand(b, works, nworks);
            *stranded = true;
            rc = mt_mpi_error(api, e, "MPI_Testall");
            break;
        }
        if (flag) {
            for (int i = 0; j->kind == MT__J_P2P && i < posted; i++) {
                j->part[i].st = st[i];
            }
            break;
        }
        if (atomic_load_explicit(&b->aborted, memory_order_relaxed)) {
            mt__strand(b, works, nworks);
            *stranded = true;
            rc = mt_error_set(MT_ECLOSED, "%s: the process group was aborted",
                              mt_work_op_name(works[0]));
            break;
        }
        if ((spins & 255) == 0 && mt__now_ms() >= deadline) {
            mt__strand(b, works, nworks);
            *stranded = true;
            rc = mt_error_set(MT_ETIMEOUT, "MPI has not completed it (a peer has not joined "
                              "the operation, or is gone)");
            break;
        }
    }
    if (rc == 0 && mpi_rc != MT_MPI_SUCCESS) {
        rc = mt_mpi_error(api, mpi_rc, j->fn);
    }
    if (reqs != small) {
        free(reqs);
        free(st);
    }
    return rc;
}

/* Hands j (owned) to the MPI thread and waits for it until `deadline` (MT_ETIMEOUT) or an
 * abort (MT_ECLOSED).  On success or MPI's error, j is freed and 0 / MT_ERUNTIME returned;
 * on a timeout or abort the job is abandoned to the MPI thread, the works' buffers are
 * stranded and *stranded set: the caller must not free its scratch buffers. */
static int
mt__run_job(mt__mpi_backend *b, mt__job *j, int64_t deadline, mt_work *const *works,
            int nworks, bool *stranded)
{
    *stranded = false;
    if (mt__reap_sends(b) >= 0 && b->send_rc != 0) {
        pthread_mutex_lock(&b->send_mu);
        int code = mt_error_set(b->send_rc, "an earlier send failed: %s", b->send_err);
        pthread_mutex_unlock(&b->send_mu);
        free(j);
        return code;
    }
    if (b->caller && mt__pg_inline()) {
        /* Note [MPI on the caller's thread] */
        int e = mt__job_exec(b->api, b->comm, j);
        if (e != MT_MPI_SUCCESS) {
            return e == -1 ? mt_error_set(MT_ENOMEM, "out of memory in an MPI operation")
                           : mt_mpi_error(b->api, e, j->fn);
        }
        return 0;
    }
    bool threaded = b->progress > 0;
    if (b->progress == 0) { /* by the bytes it moves */
        size_t bytes = 0;
        for (int i = 0; i < nworks; i++) {
            for (int k = 0; k < works[i]->ntensors; k++) {
                bytes += works[i]->tensors[k] ? mt__pg_nbytes(works[i]->tensors[k]) : 0;
            }
        }
        threaded = bytes >= MT__THREAD_MIN_BYTES;
    }
    if (!threaded) {
        return mt__run_polled(b, j, deadline, works, nworks, stranded);
    }
    atomic_store(&b->job, j);
    if (atomic_load(&b->thread_sleeps)) {
        pthread_mutex_lock(&b->mu);
        pthread_cond_signal(&b->cv);
        pthread_mutex_unlock(&b->mu);
    }
    /* spin first (Note [MPI thread hand-over]) */
    int64_t until = mt__now_us() + MT__WAITER_SPIN_US;
    for (unsigned k = 0; atomic_load(&j->state) == MT__JOB_RUNNING; k++) {
        if ((k & 63) == 63 && (mt__now_us() >= until || atomic_load(&b->aborted) ||
                               mt__now_ms() >= deadline)) {
            break;
        }
        mt__relax(k, b->crowded);
    }
    int rc = 0;
    if (atomic_load(&j->state) == MT__JOB_RUNNING) {
        struct timespec ts;
        clock_gettime(CLOCK_MONOTONIC, &ts);
        int64_t left = deadline - mt__now_ms();
        left = left > 0 ? left : 0;
        ts.tv_sec += left / 1000;
        ts.tv_nsec += (left % 1000) * 1000000;
        if (ts.tv_nsec >= 1000000000) {
            ts.tv_sec++;
            ts.tv_nsec -= 1000000000;
        }
        pthread_mutex_lock(&b->mu);
        atomic_store(&b->waiter_sleeps, true);
        while (atomic_load(&j->state) == MT__JOB_RUNNING && rc == 0) {
            if (atomic_load(&b->aborted)) {
                rc = MT_ECLOSED;
            }
            else if (pthread_cond_timedwait(&b->done_cv, &b->mu, &ts) == ETIMEDOUT &&
                     atomic_load(&j->state) == MT__JOB_RUNNING) {
                rc = MT_ETIMEOUT;
            }
        }
        atomic_store(&b->waiter_sleeps, false);
        pthread_mutex_unlock(&b->mu);
    }
    if (rc < 0) {
        int expect = MT__JOB_RUNNING;
        if (atomic_compare_exchange_strong(&j->state, &expect, MT__JOB_ABANDONED)) {
            mt__strand(b, works, nworks);
            *stranded = true;
            if (rc == MT_ETIMEOUT) {
                return mt_error_set(MT_ETIMEOUT, "MPI has not completed it (a peer has not "
                                    "joined the operation, or is gone)");
            }
            return mt_error_set(MT_ECLOSED, "%s: the process group was aborted",
                                mt_work_op_name(works[0]));
        }
        rc = 0; /* it finished just now */
    }
    if (j->mpi_rc != MT_MPI_SUCCESS) {
        rc = j->mpi_rc == -1 ? mt_error_set(MT_ENOMEM, "out of memory in an MPI operation")
                             : mt_mpi_error(b->api, j->mpi_rc, j->fn);
    }
    return rc;
}

/* mt__run_job for one work; frees j unless stranded. */
static int
mt__run1(mt__mpi_backend *b, mt__job *j, int64_t deadline, mt_work *w, bool *stranded)
{
    int rc = mt__run_job(b, j, deadline, &w, 1, stranded);
    if (!*stranded) {
        free(j);
    }
    return rc;
}

/* The MPI type and count that move `len` bytes (a wider unsigned type when the byte count
 * does not fit an int); MT_EINVAL when none does. */
static int
mt__bytes(const mt_mpi_api *api, size_t len, mt_mpi_handle *type, int *count, const char *what)
{
    static const struct {
        size_t w;
        int k;
    } units[] = {{1, MT_MPI_BYTE}, {2, MT_MPI_UINT16}, {4, MT_MPI_UINT32}, {8, MT_MPI_UINT64}};
    *type = api->types[MT_MPI_BYTE];
    *count = 0;
    for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
        if (len % units[i].w == 0 && len / units[i].w <= (size_t)INT_MAX) {
            *type = api->types[units[i].k];
            *count = (int)(len / units[i].w);
            return 0;
        }
    }
    return mt_error_set(MT_EINVAL, "%s: %zu bytes are too many for one MPI call (MPI counts "
                        "are ints)", what, len);
}

static int
mt__count(size_t n, int *count, const char *what)
{
    *count = 0;
    if (n > (size_t)INT_MAX) {
        return mt_error_set(MT_EINVAL, "%s: %zu elements are too many for one MPI call (MPI "
                            "counts are ints)", what, n);
    }
    *count = (int)n;
    return 0;
}

/* ---- reductions ---- */

static bool
mt__widens(mt_dtype dt)
{
    return dt == MT_FLOAT16 || dt == MT_BFLOAT16;
}

/* The MPI op of `op` for dtype dt (AVG: SUM; bool: Note [MPI operations]). */
static mt_mpi_handle
mt__op(const mt_mpi_api *api, mt_dist_op op, mt_dtype dt)
{
    static const int map[MT_DIST_NUM_OPS] = {
        [MT_DIST_SUM] = MT_MPI_SUM,   [MT_DIST_AVG] = MT_MPI_SUM, [MT_DIST_PRODUCT] = MT_MPI_PROD,
        [MT_DIST_MIN] = MT_MPI_MIN,   [MT_DIST_MAX] = MT_MPI_MAX, [MT_DIST_BAND] = MT_MPI_BAND,
        [MT_DIST_BOR] = MT_MPI_BOR,   [MT_DIST_BXOR] = MT_MPI_BXOR,
    };
    if (dt == MT_BOOL) {
        if (op == MT_DIST_SUM || op == MT_DIST_AVG) {
            return api->ops[MT_MPI_BOR];
        }
        if (op == MT_DIST_PRODUCT) {
            return api->ops[MT_MPI_BAND];
        }
    }
    return api->ops[map[op]];
}

/* The reduction's view of a tensor's bytes: its own data, or (16-bit floats) a float32
 * copy made by mt__red_prepare. */
typedef struct mt__red {
    void *data;  /* what MPI reduces */
    float *wide; /* owned float32 copy (NULL: data is the tensor's) */
    mt_dtype dt; /* the tensor's dtype */
    mt_mpi_handle type;
    int count;
} mt__red;

static int
mt__red_prepare(const mt_mpi_api *api, mt_tensor *t, mt__red *r, bool copy_in, const char *what)
{
    memset(r, 0, sizeof(*r));
    r->dt = t->dtype;
    size_t n = (size_t)t->numel;
    if (mt__count(n, &r->count, what) < 0) {
        return MT_EINVAL;
    }
    if (!mt__widens(t->dtype)) {
        r->data = mt_tensor_data(t);
        r->type = api->types[mt_mpi_type_of(t->dtype)];
        return 0;
    }
    r->wide = malloc((n ? n : 1) * sizeof(float));
    if (r->wide == NULL) {
        return mt_error_set(MT_ENOMEM, "out of memory widening a 16-bit float tensor");
    }
    if (copy_in) {
        const void *p = mt_tensor_data(t);
        for (size_t i = 0; i < n; i++) {
            r->wide[i] = t->dtype == MT_FLOAT16 ? mt_half_to_float(((const mt_half *)p)[i])
                                                 : mt_bfloat16_to_float(((const mt_bfloat16 *)p)[i]);
        }
    }
    r->data = r->wide;
    r->type = api->types[MT_MPI_FLOAT];
    return 0;
}

/* Divides by `size` for AVG and narrows a widened result back into t. */
static void
mt__red_finish(mt__red *r, mt_tensor *t, mt_dist_op op, int size)
{
    size_t n = (size_t)t->numel;
    if (op == MT_DIST_AVG) {
        if (r->wide != NULL || r->dt == MT_FLOAT32 || r->dt == MT_COMPLEX64) {
            float *f = r->data;
            size_t m = r->dt == MT_COMPLEX64 ? 2 * n : n;
            for (size_t i = 0; i < m; i++) {
                f[i] /= (float)size;
            }
        }
        else if (r->dt == MT_FLOAT64 || r->dt == MT_COMPLEX128) {
            double *d = r->data;
            size_t m = r->dt == MT_COMPLEX128 ? 2 * n : n;
            for (size_t i = 0; i < m; i++) {
                d[i] /= (double)size;
            }
        }
    }
    if (r->wide != NULL) {
        void *p = mt_tensor_data(t);
        for (size_t i = 0; i < n; i++) {
            if (r->dt == MT_FLOAT16) {
                ((mt_half *)p)[i] = mt_float_to_half(r->wide[i]);
            }
            else {
                ((mt_bfloat16 *)p)[i] = mt_float_to_bfloat16(r->wide[i]);
            }
        }
    }
}

/* tensors[0..ntensors): each all-reduced separately. */
static int
mt__mpi_allreduce(mt_pg_backend *pb, mt_work *w, int64_t deadline)
{
    mt__mpi_backend *b = mt__mb(pb);
    const mt_mpi_api *api = b->api;
    int n = w->ntensors, rc = 0;
    mt__job *j = mt__job_new(MT__J_ALLREDUCE, n);
    mt__red small[4];
    mt__red *reds = n <= 4 ? small : calloc((size_t)n, sizeof(*reds));
    if (j == NULL || reds == NULL) {
        free(j);
        return mt_error_set(MT_ENOMEM, "out of memory in allreduce");
    }
    memset(reds, 0, (size_t)n * sizeof(*reds));
    for (int i = 0; i < n && rc == 0; i++) {
        mt_tensor *t = w->tensors[i];
        rc = mt__red_prepare(api, t, &reds[i], true, "allreduce");
        j->part[i] = (mt__part){.r = reds[i].data, .count = reds[i].count, .type = reds[i].type,
                                .op = mt__op(api, w->op, t->dtype)};
    }
    bool stranded = false;
    if (rc == 0) {
        rc = mt__run1(b, j, deadline, w, &stranded);
    }
    else {
        free(j);
    }
    for (int i = 0; i < n; i++) {
        if (rc == 0) {
            mt__red_finish(&reds[i], w->tensors[i], w->op, pb->size);
        }
        if (!stranded) {
            free(reds[i].wide);
        }
    }
    if (reds != small && !stranded) {
        free(reds);
    }
    return rc;
}

/* tensors[0..ntensors): each broadcast from w->root. */
static int
mt__mpi_broadcast(mt_pg_backend *pb, mt_work *w, int64_t deadline)
{
    mt__mpi_backend *b = mt__mb(pb);
    mt__job *j = mt__job_new(MT__J_BCAST, w->ntensors);
    if (j == NULL) {
        return MT_ENOMEM;
    }
    j->root = w->root;
    for (int i = 0; i < w->ntensors; i++) {
        j->part[i].r = mt_tensor_data(w->tensors[i]);
        if (mt__bytes(b->api, mt__pg_nbytes(w->tensors[i]), &j->part[i].type, &j->part[i].count,
                      "broadcast") < 0) {
            free(j);
            return MT_EINVAL;
        }
    }
    bool stranded;
    return mt__run1(b, j, deadline, w, &stranded);
}

/* tensors[0]: reduced into w->root's. */
static int
mt__mpi_reduce(mt_pg_backend *pb, mt_work *w, int64_t deadline)
{
    mt__mpi_backend *b = mt__mb(pb);
    const mt_mpi_api *api = b->api;
    mt_tensor *t = w->tensors[0];
    bool root = pb->rank == w->root;
    mt__red r;
    int rc = mt__red_prepare(api, t, &r, true, "reduce");
    mt__job *j = rc < 0 ? NULL : mt__job_new(MT__J_REDUCE, 1);
    if (j == NULL) {
        free(r.wide);
        return rc < 0 ? rc : MT_ENOMEM;
    }
    j->root = w->root;
    j->part[0] = (mt__part){.s = root ? (const void *)1 /* MPI_IN_PLACE */ : r.data,
                            .r = root ? r.data : NULL, .count = r.count, .type = r.type,
                            .op = mt__op(api, w->op, t->dtype)};
    bool stranded;
    rc = mt__run1(b, j, deadline, w, &stranded);
    if (rc == 0 && root) {
        mt__red_finish(&r, t, w->op, pb->size);
    }
    if (!stranded) {
        free(r.wide);
    }
    return rc;
}

static int
mt__mpi_barrier(mt_pg_backend *pb, mt_work *w, int64_t deadline)
{
    mt__job *j = mt__job_new(MT__J_BARRIER, 0);
    if (j == NULL) {
        return MT_ENOMEM;
    }
    bool stranded;
    return mt__run1(mt__mb(pb), j, deadline, w, &stranded);
}

/* ---- lists of tensors: one buffer for MPI ---- */

/* The list tensors[first..first+size): when they lie back to back (each `len` bytes), their
 * start; else NULL. */
static char *
mt__packed(mt_work *w, int first, int size, size_t len)
{
    char *base = mt_tensor_data(w->tensors[first]);
    for (int r = 1; r < size; r++) {
        if ((char *)mt_tensor_data(w->tensors[first + r]) != base + (size_t)r * len) {
            return NULL;
        }
    }
    return base;
}

/* A buffer for the list tensors[first..first+size) of `len` bytes each: the tensors' own
 * when packed (*scratch NULL), else a new one (*scratch, owned by the caller), filled from
 * them when copy_in. */
static char *
mt__list_buffer(mt_work *w, int first, int size, size_t len, bool copy_in, char **scratch)
{
    *scratch = NULL;
    char *p = mt__packed(w, first, size, len);
    if (p != NULL) {
        return p;
    }
    *scratch = malloc(len * (size_t)size + 1);
    if (*scratch == NULL) {
        mt_error_set(MT_ENOMEM, "out of memory running %s", mt_work_op_name(w));
        return NULL;
    }
    if (copy_in) {
        for (int r = 0; r < size; r++) {
            memcpy(*scratch + (size_t)r * len, mt_tensor_data(w->tensors[first + r]), len);
        }
    }
    return *scratch;
}

/* Runs j (one part) for w, then unpacks the scratch list (unpack: the outputs are the list
 * tensors[1..size]) and frees it. */
static int
mt__run_list(mt__mpi_backend *b, mt__job *j, mt_work *w, int64_t deadline, char *scratch,
             bool unpack, size_t len)
{
    bool stranded;
    int rc = mt__run1(b, j, deadline, w, &stranded);
    if (rc == 0 && scratch != NULL && unpack) {
        for (int r = 0; r < b->base.size; r++) {
            memcpy(mt_tensor_data(w->tensors[1 + r]), scratch + (size_t)r * len, len);
        }
    }
    if (!stranded) {
        free(scratch);
    }
    return rc;
}

/* A job of one part moving `len` bytes per rank (allgather, gather, scatter). */
static mt__job *
mt__list_job(mt__mpi_backend *b, mt__jkind kind, size_t len, int root, const char *what)
{
    mt__job *j = mt__job_new(kind, 1);
    if (j == NULL) {
        return NULL;
    }
    j->root = root;
    if (mt__bytes(b->api, len, &j->part[0].type, &j->part[0].count, what) < 0) {
        free(j);
        return NULL;
    }
    return j;
}

/* (input, outputs[size]) */
static int
mt__mpi_allgather(mt_pg_backend *pb, mt_work *w, int64_t deadline)
{
    mt__mpi_backend *b = mt__mb(pb);
    size_t len = mt__pg_nbytes(w->tensors[0]);
    mt__job *j = mt__list_job(b, MT__J_ALLGATHER, len, 0, "allgather");
    if (j == NULL) {
        return mt_error_code();
    }
    char *scratch;
    char *out = mt__list_buffer(w, 1, pb->size, len, false, &scratch);
    if (out == NULL) {
        free(j);
        return MT_ENOMEM;
    }
    j->part[0].s = mt_tensor_data(w->tensors[0]);
    j->part[0].r = out;
    return mt__run_list(b, j, w, deadline, scratch, true, len);
}

/* (input, outputs[size] on the root, NULLs elsewhere) */
static int
mt__mpi_gather(mt_pg_backend *pb, mt_work *w, int64_t deadline)
{
    mt__mpi_backend *b = mt__mb(pb);
    size_t len = mt__pg_nbytes(w->tensors[0]);
    mt__job *j = mt__list_job(b, MT__J_GATHER, len, w->root, "gather");
    if (j == NULL) {
        return mt_error_code();
    }
    char *scratch = NULL, *out = NULL;
    bool root = pb->rank == w->root;
    if (root && (out = mt__list_buffer(w, 1, pb->size, len, false, &scratch)) == NULL) {
        free(j);
        return MT_ENOMEM;
    }
    j->part[0].s = mt_tensor_data(w->tensors[0]);
    j->part[0].r = out;
    return mt__run_list(b, j, w, deadline, scratch, root, len);
}

/* (output, inputs[size] on the root, NULLs elsewhere) */
static int
mt__mpi_scatter(mt_pg_backend *pb, mt_work *w, int64_t deadline)
{
    mt__mpi_backend *b = mt__mb(pb);
    size_t len = mt__pg_nbytes(w->tensors[0]);
    mt__job *j = mt__list_job(b, MT__J_SCATTER, len, w->root, "scatter");
    if (j == NULL) {
        return mt_error_code();
    }
    char *scratch = NULL, *in = NULL;
    if (pb->rank == w->root && (in = mt__list_buffer(w, 1, pb->size, len, true, &scratch)) == NULL) {
        free(j);
        return MT_ENOMEM;
    }
    j->part[0].s = in;
    j->part[0].r = mt_tensor_data(w->tensors[0]);
    return mt__run_list(b, j, w, deadline, scratch, false, len);
}

/* (output, inputs[size]) */
static int
mt__mpi_reduce_scatter(mt_pg_backend *pb, mt_work *w, int64_t deadline)
{
    mt__mpi_backend *b = mt__mb(pb);
    const mt_mpi_api *api = b->api;
    int n = pb->size, count;
    mt_tensor *o = w->tensors[0];
    mt_dtype dt = o->dtype;
    size_t len = mt__pg_nbytes(o), cnt = (size_t)o->numel;
    if (mt__count(cnt, &count, "reduce_scatter") < 0) {
        return MT_EINVAL;
    }
    bool wide = mt__widens(dt);
    char *scratch = NULL, *in;
    float *wout = NULL;
    if (wide) { /* Note [16-bit float reductions] */
        scratch = malloc(cnt * sizeof(float) * (size_t)n + 1);
        wout = malloc((cnt ? cnt : 1) * sizeof(float));
        if (scratch == NULL || wout == NULL) {
            free(scratch);
            free(wout);
            return mt_error_set(MT_ENOMEM, "out of memory in reduce_scatter");
        }
        float *f = (float *)scratch;
        for (int r = 0; r < n; r++) {
            const void *p = mt_tensor_data(w->tensors[1 + r]);
            for (size_t i = 0; i < cnt; i++) {
                f[(size_t)r * cnt + i] = dt == MT_FLOAT16
                                             ? mt_half_to_float(((const mt_half *)p)[i])
                                             : mt_bfloat16_to_float(((const mt_bfloat16 *)p)[i]);
            }
        }
        in = scratch;
    }
    else if ((in = mt__list_buffer(w, 1, n, len, true, &scratch)) == NULL) {
        return MT_ENOMEM;
    }
    mt__red r = {.data = wide ? (void *)wout : mt_tensor_data(o), .wide = wout, .dt = dt,
                 .type = api->types[wide ? MT_MPI_FLOAT : mt_mpi_type_of(dt)], .count = count};
    mt__job *j = mt__job_new(MT__J_REDSCAT, 1);
    if (j == NULL) {
        free(scratch);
        free(wout);
        return MT_ENOMEM;
    }
    j->part[0] = (mt__part){.s = in, .r = r.data, .count = count, .type = r.type,
                            .op = mt__op(api, w->op, dt)};
    bool stranded;
    int rc = mt__run1(b, j, deadline, w, &stranded);
    if (rc == 0) {
        mt__red_finish(&r, o, w->op, n);
    }
    if (!stranded) {
        free(scratch);
        free(wout);
    }
    return rc;
}

/* (outputs[size], inputs[size]), or with w->single (output, input) split by w->lens; w->lens:
 * send bytes [size] then receive bytes [size]. */
static int
mt__mpi_alltoall(mt_pg_backend *pb, mt_work *w, int64_t deadline)
{
    mt__mpi_backend *b = mt__mb(pb);
    const mt_mpi_api *api = b->api;
    int n = pb->size, rc = 0;
    int *iv = malloc(4 * (size_t)n * sizeof(int)); /* send counts, displs, recv counts, displs */
    mt__job *j = mt__job_new(MT__J_ALLTOALLV, 1);
    if (iv == NULL || j == NULL) {
        free(iv);
        free(j);
        return mt_error_set(MT_ENOMEM, "out of memory in alltoall");
    }
    int *sc = iv, *sd = iv + n, *rcnt = iv + 2 * n, *rd = iv + 3 * n;
    size_t so = 0, ro = 0;
    for (int r = 0; r < n; r++) {
        if (w->lens[r] > (size_t)INT_MAX || w->lens[n + r] > (size_t)INT_MAX ||
            so > (size_t)INT_MAX || ro > (size_t)INT_MAX) {
            free(iv);
            free(j);
            return mt_error_set(MT_EINVAL, "alltoall: too many bytes for one MPI call (MPI "
                                "counts are ints)");
        }
        sc[r] = (int)w->lens[r];
        sd[r] = (int)so;
        rcnt[r] = (int)w->lens[n + r];
        rd[r] = (int)ro;
        so += w->lens[r];
        ro += w->lens[n + r];
    }
    char *sbuf, *rbuf, *scratch = NULL;
    if (w->single) {
        rbuf = mt_tensor_data(w->tensors[0]);
        sbuf = mt_tensor_data(w->tensors[1]);
    }
    else { /* separate tensors: packed into one scratch buffer each way */
        scratch = malloc(so + ro + 1);
        if (scratch == NULL) {
            free(iv);
            free(j);
            return mt_error_set(MT_ENOMEM, "out of memory in alltoall");
        }
        sbuf = scratch;
        rbuf = scratch + so;
        for (int r = 0; r < n; r++) {
            memcpy(sbuf + sd[r], mt_tensor_data(w->tensors[n + r]), (size_t)sc[r]);
        }
    }
    j->sc = sc;
    j->sd = sd;
    j->rcnt = rcnt;
    j->rd = rd;
    j->part[0] = (mt__part){.s = sbuf, .r = rbuf, .type = api->types[MT_MPI_BYTE]};
    bool stranded;
    rc = mt__run1(b, j, deadline, w, &stranded);
    if (rc == 0 && !w->single) {
        for (int r = 0; r < n; r++) {
            memcpy(mt_tensor_data(w->tensors[r]), rbuf + rd[r], (size_t)rcnt[r]);
        }
    }
    if (!stranded) {
        free(scratch);
        free(iv);
    }
    return rc;
}

/* Every send and receive posted at once, then completed together (MPI matches each
 * (source, tag) in posting order, which keeps torch's order per peer and tag). */
static int
mt__mpi_p2p(mt_pg_backend *pb, mt_work *const *works, int n, int64_t deadline)
{
    mt__mpi_backend *b = mt__mb(pb);
    const mt_mpi_api *api = b->api;
    int nrecv = 0;
    for (int i = 0; i < n; i++) {
        nrecv += works[i]->kind == MT__OP_RECV;
    }
    mt__job *j = nrecv > 0 ? mt__job_new(MT__J_P2P, nrecv) : NULL;
    mt_work **rworks = nrecv > 0 ? malloc((size_t)nrecv * sizeof(*rworks)) : NULL;
    if (nrecv > 0 && (j == NULL || rworks == NULL)) {
        free(j);
        free(rworks);
        return mt_error_set(MT_ENOMEM, "out of memory running point-to-point operations");
    }
    int rc = 0, k = 0;
    for (int i = 0; i < n && rc == 0; i++) {
        mt_work *w = works[i];
        bool send = w->kind == MT__OP_SEND;
        size_t len = mt__pg_nbytes(w->tensors[0]);
        mt_mpi_handle type;
        int count;
        rc = mt__bytes(api, len, &type, &count, send ? "send" : "recv");
        if (rc < 0) {
            break;
        }
        if (send) { /* Note [MPI sends] */
            rc = mt__post_send(b, mt_tensor_data(w->tensors[0]), len, count, type, w->root,
                               (int)w->tag);
            continue;
        }
        rworks[k] = w;
        j->part[k++] = (mt__part){.r = mt_tensor_data(w->tensors[0]), .count = count,
                                  .type = type, .tag = (int)w->tag,
                                  .peer = w->root == MT_ANY_SOURCE ? MT_MPI_ANY_SOURCE : w->root};
    }
    if (rc < 0 || nrecv == 0) {
        free(j);
        free(rworks);
        return rc;
    }
    bool stranded;
    rc = mt__run_job(b, j, deadline, rworks, nrecv, &stranded);
    if (stranded) {
        free(rworks);
        return rc;
    }
    for (int i = 0; i < nrecv && rc == 0; i++) {
        mt__part *p = &j->part[i];
        int got = -1;
        api->Get_count(&p->st, p->type, &got);
        if (got != p->count) {
            rc = mt_error_set(MT_EINVAL, "recv: the message from rank %d has a different size "
                              "than the receiving tensor (%d units of MPI data, expected %d)",
                              p->st.source, got, p->count);
            break;
        }
        rworks[i]->src_rank = p->st.source;
    }
    free(j);
    free(rworks);
    return rc;
}

static const char *
mt__mpi_transport_name(const mt_pg_backend *b)
{
    (void)b;
    return "mpi";
}

static void
mt__mpi_abort(mt_pg_backend *pb)
{
    mt__mpi_backend *b = mt__mb(pb);
    atomic_store(&b->aborted, true);
    if (b->progress >= 0) {
        pthread_mutex_lock(&b->mu);
        pthread_cond_broadcast(&b->done_cv);
        pthread_mutex_unlock(&b->mu);
    }
}

static void
mt__mpi_destroy(mt_pg_backend *pb)
{
    mt__mpi_backend *b = mt__mb(pb);
    /* the sends in flight complete first (Note [MPI sends]), within a bound */
    int64_t until = mt__now_ms() + MT__SEND_DRAIN_MS;
    while (!atomic_load(&b->stuck) && mt_mpi_active() && mt__reap_sends(b) > 0) {
        if (mt__now_ms() >= until || atomic_load(&b->aborted)) {
            atomic_store(&b->stuck, true); /* MPI may still read the copies: kept */
            break;
        }
        sched_yield();
    }
    if (atomic_load(&b->stuck)) {
        /* its MPI thread may never return from MPI (Note [MPI operations]): let it be */
        if (b->progress >= 0) {
            pthread_detach(b->thread);
        }
        return;
    }
    if (b->progress < 0) {
        if (mt_mpi_active()) {
            b->api->Comm_free(&b->comm);
            b->api->Comm_free(&b->mgmt);
        }
        pthread_mutex_destroy(&b->send_mu);
        free(b->sends);
        free(b);
        return;
    }
    atomic_store(&b->stop, true);
    pthread_mutex_lock(&b->mu);
    pthread_cond_signal(&b->cv);
    pthread_mutex_unlock(&b->mu);
    pthread_join(b->thread, NULL);
    /* after MPI_Finalize (the exit hook ran first) nothing may be called */
    if (mt_mpi_active()) {
        b->api->Comm_free(&b->comm);
        b->api->Comm_free(&b->mgmt);
    }
    pthread_cond_destroy(&b->cv);
    pthread_cond_destroy(&b->done_cv);
    pthread_mutex_destroy(&b->mu);
    pthread_mutex_destroy(&b->send_mu);
    free(b->sends);
    free(b);
}

static const mt_pg_backend_ops mt__mpi_ops = {
    .name = "mpi",
    .device = MT_CPU,
    .device_name = "CPU",
    .allreduce = mt__mpi_allreduce,
    .broadcast = mt__mpi_broadcast,
    .reduce = mt__mpi_reduce,
    .allgather = mt__mpi_allgather,
    .gather = mt__mpi_gather,
    .scatter = mt__mpi_scatter,
    .reduce_scatter = mt__mpi_reduce_scatter,
    .alltoall = mt__mpi_alltoall,
    .barrier = mt__mpi_barrier,
    .p2p = mt__mpi_p2p,
    .transport_name = mt__mpi_transport_name,
    .abort = mt__mpi_abort,
    .destroy = mt__mpi_destroy,
};

/* ---- construction ---- */

/* MINITORCH_MPI_PROGRESS: 1 "thread", -1 "poll", 0 by size (Note [MPI thread hand-over]);
 * "caller" is by size too, blocking operations aside (Note [MPI on the caller's thread]). */
static int
mt__progress_wanted(void)
{
    const char *e = getenv("MINITORCH_MPI_PROGRESS");
    return e == NULL ? 0 : strcmp(e, "thread") == 0 ? 1 : strcmp(e, "poll") == 0 ? -1 : 0;
}

static bool
mt__caller_wanted(void)
{
    const char *e = getenv("MINITORCH_MPI_PROGRESS");
    return e != NULL && strcmp(e, "caller") == 0;
}

/* Whether the host has fewer CPUs than this job's ranks on it have threads (Note [MPI
 * thread hand-over]). */
static bool
mt__crowded(void)
{
    const char *l = getenv("OMPI_COMM_WORLD_LOCAL_SIZE");
    long local = l != NULL ? strtol(l, NULL, 10) : 0;
    if (local <= 0) {
        return true; /* unknown: the safe choice */
    }
    cpu_set_t set;
    long cpus = sched_getaffinity(0, sizeof(set), &set) == 0 ? CPU_COUNT(&set) : 1;
    return cpus < 2 * local;
}

/* The group over `comm` (owned, stolen also on failure): its duplicate for splits, the
 * error handler that returns codes, the worker. */
static mt_pg *
mt__mpi_group(const mt_mpi_api *api, mt_mpi_handle comm, int64_t timeout_ms)
{
    if (timeout_ms <= 0) {
        api->Comm_free(&comm);
        mt_error_set(MT_EINVAL, "timeout must be positive, got %lld ms", (long long)timeout_ms);
        return NULL;
    }
    mt__mpi_backend *b = calloc(1, sizeof(*b));
    if (b == NULL) {
        api->Comm_free(&comm);
        mt_error_set(MT_ENOMEM, "out of memory creating a process group");
        return NULL;
    }
    b->api = api;
    b->comm = comm;
    b->progress = mt__progress_wanted();
    b->caller = mt__caller_wanted();
    pthread_mutex_init(&b->send_mu, NULL);
    b->crowded = mt__crowded();
    int e = api->Comm_set_errhandler(comm, api->errors_return);
    int rc = mt_mpi_error(api, e, "MPI_Comm_set_errhandler");
    if (rc == 0) {
        rc = mt_mpi_error(api, api->Comm_dup(comm, &b->mgmt), "MPI_Comm_dup");
    }
    if (rc == 0) {
        rc = mt_mpi_error(api, api->Comm_rank(comm, &b->base.rank), "MPI_Comm_rank");
    }
    if (rc == 0) {
        rc = mt_mpi_error(api, api->Comm_size(comm, &b->base.size), "MPI_Comm_size");
    }
    if (rc == 0 && b->progress >= 0) {
        pthread_mutex_init(&b->mu, NULL);
        pthread_cond_init(&b->cv, NULL);
        pthread_condattr_t ca;
        pthread_condattr_init(&ca);
        pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
        pthread_cond_init(&b->done_cv, &ca);
        pthread_condattr_destroy(&ca);
        int e2 = pthread_create(&b->thread, NULL, mt__mpi_thread_main, b);
        if (e2 != 0) {
            rc = mt_error_set(MT_ERUNTIME, "cannot start the MPI thread: %s", strerror(e2));
            pthread_cond_destroy(&b->cv);
            pthread_cond_destroy(&b->done_cv);
            pthread_mutex_destroy(&b->mu);
            api->Comm_free(&b->mgmt);
        }
    }
    if (rc < 0) {
        api->Comm_free(&b->comm);
        free(b);
        return NULL;
    }
    b->base.ops = &mt__mpi_ops;
    return mt__pg_new_with_backend(&b->base, NULL, timeout_ms);
}

mt_pg *
mt_pg_new_mpi(int64_t timeout_ms)
{
    const mt_mpi_api *api = mt_mpi_load();
    if (api == NULL || mt_mpi_ensure_init(api) < 0) {
        return NULL;
    }
    mt_mpi_handle comm;
    if (mt_mpi_error(api, api->Comm_dup(api->comm_world, &comm), "MPI_Comm_dup") < 0) {
        return NULL;
    }
    return mt__mpi_group(api, comm, timeout_ms);
}

static mt__mpi_backend *
mt__mpi_parent(mt_pg *parent)
{
    if (parent == NULL || parent->backend->ops != &mt__mpi_ops) {
        mt_error_set(MT_EINVAL, "not a process group of the MPI backend");
        return NULL;
    }
    return mt__mb(parent->backend);
}

mt_pg *
mt_pg_mpi_split(mt_pg *parent, int color, int key, int64_t timeout_ms, bool *member)
{
    *member = false;
    mt__mpi_backend *p = mt__mpi_parent(parent);
    if (p == NULL) {
        return NULL;
    }
    mt_mpi_handle comm;
    int e = p->api->Comm_split(p->mgmt, color < 0 ? MT_MPI_UNDEFINED : color, key, &comm);
    if (mt_mpi_error(p->api, e, "MPI_Comm_split") < 0) {
        return NULL;
    }
    if (color < 0) {
        return NULL; /* MPI_COMM_NULL: not a member */
    }
    *member = true;
    return mt__mpi_group(p->api, comm, timeout_ms);
}

mt_pg *
mt_pg_mpi_create_group(mt_pg *parent, const int *ranks, int n, int tag, int64_t timeout_ms)
{
    mt__mpi_backend *p = mt__mpi_parent(parent);
    if (p == NULL) {
        return NULL;
    }
    const mt_mpi_api *api = p->api;
    mt_mpi_handle all, sub, comm;
    if (mt_mpi_error(api, api->Comm_group(p->mgmt, &all), "MPI_Comm_group") < 0) {
        return NULL;
    }
    int rc = mt_mpi_error(api, api->Group_incl(all, n, ranks, &sub), "MPI_Group_incl");
    api->Group_free(&all);
    if (rc < 0) {
        return NULL;
    }
    rc = mt_mpi_error(api, api->Comm_create_group(p->mgmt, sub, tag, &comm),
                      "MPI_Comm_create_group");
    api->Group_free(&sub);
    return rc < 0 ? NULL : mt__mpi_group(api, comm, timeout_ms);
}
