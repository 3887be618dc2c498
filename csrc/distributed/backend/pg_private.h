/* csrc/distributed/backend/pg_private.h - the process group's state, shared by its queue (process_group.c) and its operations (ops.c); private to backend/. */
#ifndef CSRC_DISTRIBUTED_BACKEND_PG_PRIVATE_H
#define CSRC_DISTRIBUTED_BACKEND_PG_PRIVATE_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>

#include "csrc/distributed/backend/backend.h"
#include "csrc/distributed/backend/work.h"

#define MT__COLL_TAG_BIT 0x80000000u

struct mt_pg {
    int rank, size;
    _Atomic int64_t timeout_ms; /* each operation's, unless it has its own (mt_pg_set_timeout) */
    mt_store *store;     /* owned reference */
    mt_pg_backend *backend; /* owned: runs the operations (Note [Backend vtable]) */
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

/* Queues w (taking a reference for the queue) or runs it now, as `call`
 * says (Note [Issuing an operation]; NULL: queued), and returns it; a
 * collective gets the group's next tag.  (process_group.c) */
mt_work *mt__pg_issue(mt_pg *pg, const mt_pg_call *call, mt_work *w, bool collective);

/* Whether the calling thread runs an operation inline, on the thread that issued it and
 * waits for it, nothing else queued (Note [Issuing an operation]); false on the worker.
 * (process_group.c) */
bool mt__pg_inline(void);

/* The group of `backend` (stolen, also on failure): keeps a reference to
 * `store` (borrowed; NULL for a backend that needs none, MPI's), starts the worker.  Caller owns the result; NULL +
 * message on failure.  (process_group.c) */
mt_pg *mt__pg_new_with_backend(mt_pg_backend *backend, mt_store *store, int64_t timeout_ms);

/* The time limit of w: its own, else the group's.  (process_group.c) */
int64_t mt__pg_timeout_of(mt_pg *pg, const mt_work *w);

/* Bytes of a contiguous tensor.  (ops.c) */
size_t mt__pg_nbytes(const mt_tensor *t);

#endif /* CSRC_DISTRIBUTED_BACKEND_PG_PRIVATE_H */
