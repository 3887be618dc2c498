/* csrc/distributed/backend/backend.h - the backend vtable under the process group: what runs a queued operation (the CPU backend in cpu_backend.c; private to backend/). */
#ifndef CSRC_DISTRIBUTED_BACKEND_BACKEND_H
#define CSRC_DISTRIBUTED_BACKEND_BACKEND_H

#include <stdint.h>

#include "c10_lite/device.h"
#include "csrc/distributed/backend/process_group.h"
#include "csrc/distributed/rendezvous/store.h"

/* Note [Backend vtable]
 * A process group (process_group.c) is the machinery every backend shares:
 * argument checks, the queue, the worker thread, inline runs (Note [Issuing
 * an operation]), sequence tags, timeouts, the broken state, works and their
 * waiters.  What an operation does on the wire is its backend's: a table of
 * function pointers, one per collective, that the group calls on the thread
 * that runs the item (the worker, or a caller running it inline), one item
 * at a time.  minitorch's CPU backend ("gloo": the transports and
 * algorithms of csrc/distributed) is the first table; an NCCL or MPI backend
 * is another table and a constructor, with no change to the group.
 *
 * Contract of every run function:
 *   - w is the work being run (borrowed); its tensors (w->tensors, laid out
 *     as ops.c documents per operation) are contiguous tensors of the
 *     backend's device, referenced by w until it completes: the function
 *     may read and write their bytes, never keep them;
 *   - it returns 0, or a negative MT_E* code with the thread-local message
 *     set; the group then completes w with that status and, on failure,
 *     marks itself broken;
 *   - it finishes by `deadline` (mt__now_ms() clock) or fails with
 *     MT_ETIMEOUT; abort() may be called from another thread meanwhile and
 *     must make it return soon (MT_ECLOSED or the transport's error).
 * A NULL entry is an operation the backend does not have: issuing it fails
 * with MT_ENOTIMPL on the caller's thread, before anything is queued. */

typedef struct mt_pg_backend mt_pg_backend;

/* Runs one collective (see the contract above). */
typedef int (*mt_pg_run_fn)(mt_pg_backend *b, mt_work *w, int64_t deadline);

typedef struct mt_pg_backend_ops {
    const char *name;        /* "gloo", "nccl", ... (static) */
    mt_device_type device;   /* the device of the tensors it takes */
    const char *device_name; /* "CPU", "CUDA": for error messages (static) */
    mt_pg_run_fn allreduce;
    mt_pg_run_fn broadcast;
    mt_pg_run_fn reduce;
    mt_pg_run_fn allgather;
    mt_pg_run_fn gather;
    mt_pg_run_fn scatter;
    mt_pg_run_fn reduce_scatter;
    mt_pg_run_fn alltoall;
    mt_pg_run_fn barrier;
    /* Runs the sends and receives works[0..n) together (a send never waits
     * for its receiver; Note [Lone receives]); sets each receive's
     * src_rank. Same contract as a run function, for every work. */
    int (*p2p)(mt_pg_backend *b, mt_work *const *works, int n, int64_t deadline);
    /* The name of the link between the ranks ("tcp", "shm"; static or owned by b). */
    const char *(*transport_name)(const mt_pg_backend *b);
    /* Optional: the peers this rank has a TCP connection with now and, in
     * *sockets, the sockets (mt_transport_connections); -1 without TCP. */
    int (*transport_connections)(const mt_pg_backend *b, int *sockets);
    /* Interrupts the running operation and makes later ones fail at once;
     * thread-safe, idempotent. */
    void (*abort)(mt_pg_backend *b);
    /* Closes the connections and frees b; called once, after the group's
     * worker has stopped (no run function is running or will run). */
    void (*destroy)(mt_pg_backend *b);
} mt_pg_backend_ops;

/* The part every backend starts with (a backend struct embeds it first). */
struct mt_pg_backend {
    const mt_pg_backend_ops *ops; /* static */
    int rank, size;
};

/* The CPU backend over `store` (borrowed): builds the mesh (blocking,
 * bounded by timeout_ms).  Caller owns the result (ops->destroy); NULL +
 * message on failure.  (cpu_backend.c) */
mt_pg_backend *mt__cpu_backend_new(mt_store *store, int rank, int size, int64_t timeout_ms);

#endif /* CSRC_DISTRIBUTED_BACKEND_BACKEND_H */
