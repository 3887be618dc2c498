/* csrc/distributed/backend/work.h - the work item shared by the queue and its waiters (private to backend/). */
#ifndef CSRC_DISTRIBUTED_BACKEND_WORK_H
#define CSRC_DISTRIBUTED_BACKEND_WORK_H

#include <pthread.h>
#include <stdatomic.h>

#include "csrc/distributed/backend/backend.h"
#include "csrc/distributed/backend/process_group.h"

typedef enum mt__op_kind {
    MT__OP_ALLREDUCE,
    MT__OP_BROADCAST,
    MT__OP_REDUCE,
    MT__OP_ALLGATHER,
    MT__OP_GATHER,
    MT__OP_SCATTER,
    MT__OP_REDUCE_SCATTER,
    MT__OP_ALLTOALL,
    MT__OP_BARRIER,
    MT__OP_SEND,
    MT__OP_RECV,
} mt__op_kind;

struct mt_work {
    _Atomic int64_t refcount;
    pthread_mutex_t mu;
    pthread_cond_t cv; /* CLOCK_MONOTONIC */
    bool done;
    int code;
    char *msg;    /* the error, owned (NULL unless code < 0): a work stays small */
    int src_rank;
    /* the operation */
    mt__op_kind kind;
    mt_pg_run_fn run;    /* the backend's entry that runs it (NULL: send/recv, run by p2p) */
    mt_dist_op op;
    int root;     /* root, peer of send/recv */
    int64_t timeout_ms; /* its own time limit (0: the group's), see mt_pg_call */
    uint32_t tag;
    int ntensors;
    mt_tensor **tensors; /* owned references; layout depends on kind */
    size_t *lens;        /* alltoall: send bytes [size] then receive bytes [size] */
    bool single;         /* alltoall_single: tensors are (output, input) */
    struct mt_work *next; /* queue link */
    mt_pg *pg;           /* the group while queued (borrowed; see mt__pg_want) */
    bool wanted;         /* somebody waits for it (guarded by pg's mutex) */
};

/* Marks a queued w as waited for and wakes the worker (Note [Lone
 * receives]).  Called with w->mu held and w not done: the group cannot be
 * freed before w completes, and completing takes w->mu. */
void mt__pg_want(mt_pg *pg, mt_work *w);

/* New work (refcount 1) holding references to `tensors` (NULL entries
 * allowed); NULL + MT_ENOMEM. */
mt_work *mt__work_new(mt__op_kind kind, mt_tensor *const *tensors, int ntensors);
/* Marks the work finished with (code, msg) and wakes waiters; drops the
 * tensor references. */
void mt__work_complete(mt_work *w, int code, const char *msg);

#endif /* CSRC_DISTRIBUTED_BACKEND_WORK_H */
