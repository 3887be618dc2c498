/* csrc/distributed/backend/process_group.h - the process group: a worker thread running queued operations through a backend (the CPU backend, "gloo", today). */
#ifndef CSRC_DISTRIBUTED_BACKEND_PROCESS_GROUP_H
#define CSRC_DISTRIBUTED_BACKEND_PROCESS_GROUP_H

#include <stdbool.h>
#include <stdint.h>

#include "c10_lite/tensor_impl.h"
#include "csrc/distributed/algorithms/algorithms.h"
#include "csrc/distributed/rendezvous/store.h"

/* Note [Process group execution]
 * mt_pg_new builds the mesh of its CPU backend (blocking, bounded by the
 * timeout) and starts one worker thread; the backend runs each operation
 * (Note [Backend vtable] in backend.h), the group does the rest.  Every operation (mt_pg_allreduce, ...) validates its
 * arguments on the calling thread (errors: NULL + message, nothing queued),
 * takes a reference to every tensor it touches, and appends a work item to
 * the group's queue (or runs it at once, Note [Issuing an operation]); items
 * run one at a time in issue order, so all ranks run their collectives in the
 * same order.  Each collective gets a
 * sequence number, and its messages carry it as their tag, so bytes of two
 * different collectives can never be mixed up.
 *
 * Each operation must finish within the group's timeout.  When one fails
 * (timeout, a peer died, mismatched sizes) the group is broken: the error is
 * kept and every later operation fails at once with it instead of hanging.
 * The worker copies its thread-local error message into the work item;
 * mt_work_wait re-raises it on the waiting thread.
 *
 * Tensors must be contiguous and on the backend's device here (the binding
 * copies others).  The
 * work item keeps its tensors alive until it completes; the caller must not
 * free the bytes, but may drop its own references. */

typedef struct mt_pg mt_pg;
typedef struct mt_work mt_work;

/* Joins the group over the CPU backend (Note [Backend vtable] in backend.h):
 * builds the mesh through `store` (borrowed; the group takes a reference:
 * give each group its own PrefixStore), starts the worker.
 * Caller owns the result (mt_pg_destroy).  NULL + message on failure
 * (MT_EINVAL bad rank/size/timeout, MT_ETIMEOUT/MT_ECONN from the mesh). */
mt_pg *mt_pg_new(mt_store *store, int rank, int size, int64_t timeout_ms);
/* Note [MPI process groups]: the MPI backend (backend/mpi_backend.c, Note [Loading MPI] in
 * mpi/mpi_lib.h) needs no store: MPI is its rendezvous.
 * mt_pg_new_mpi: the group of every process of the MPI job (a duplicate of
 * MPI_COMM_WORLD), initialising MPI first (Note [MPI threads]); rank and size are MPI's.
 * mt_pg_mpi_split: MPI_Comm_split of `parent` (an MPI group): every member of the parent
 * calls it; color < 0 is not a member (returns NULL with *member false, no error); key
 * orders the new ranks.  mt_pg_mpi_create_group: the group of parent ranks[0..n) (in that
 * order), which only they call (MPI_Comm_create_group with `tag`).
 * Construction blocks in MPI (its communicator calls cannot be bounded); the operations
 * are bounded by timeout_ms.  Caller owns the result; NULL + message on failure. */
mt_pg *mt_pg_new_mpi(int64_t timeout_ms);
mt_pg *mt_pg_mpi_split(mt_pg *parent, int color, int key, int64_t timeout_ms, bool *member);
mt_pg *mt_pg_mpi_create_group(mt_pg *parent, const int *ranks, int n, int tag,
                              int64_t timeout_ms);
int mt_pg_rank(const mt_pg *pg);
/* The name of the group's transport: "tcp" or "shm" (Note [Choosing a transport]). */
const char *mt_pg_transport_name(const mt_pg *pg);
/* The peers this rank has a TCP connection with now, and in *sockets how many sockets those
 * are (Note [Lazy connections]); -1 for a group without TCP connections. */
int mt_pg_transport_connections(const mt_pg *pg, int *sockets);
int mt_pg_size(const mt_pg *pg);
int64_t mt_pg_timeout_ms(const mt_pg *pg);
/* Changes the time each later operation may take (milliseconds > 0; MT_EINVAL otherwise). */
int mt_pg_set_timeout(mt_pg *pg, int64_t timeout_ms);
/* Whether an earlier failure broke the group (then *msg, if given, is the
 * first error; borrowed, valid until destroy). */
bool mt_pg_is_broken(mt_pg *pg, const char **msg);
/* Waits for every queued operation to finish (each is bounded by the
 * timeout), stops the worker, closes every socket, frees the group. NULL ok. */
void mt_pg_destroy(mt_pg *pg);
/* Like destroy, but interrupts the running operation and fails the queued
 * ones with MT_ECLOSED instead of waiting for them. NULL ok. */
void mt_pg_abort(mt_pg *pg);

/* Note [Issuing an operation]
 * Every operation is issued one of two ways, which `call` says (NULL: the
 * defaults):
 *   - queued (now = false): the worker runs it; the caller waits on the
 *     returned work when it likes (torch's async_op=True);
 *   - now (now = true), for a caller that would wait at once: when nothing is
 *     queued or running the caller runs it itself, on its own thread, before
 *     the call returns (no thread switch: two of them per operation would
 *     dominate small messages, and hurt most when ranks outnumber cores);
 *     otherwise it is queued behind the others and the worker runs it, and
 *     the caller waits on the work as usual.  Order is kept either way: the
 *     worker never starts an item while an inline one runs, and the group
 *     cannot be destroyed until an inline run returns.
 * timeout_ms > 0 is this operation's time limit instead of the group's. */
typedef struct mt_pg_call {
    bool now;
    int64_t timeout_ms;
} mt_pg_call;

/* ---- operations: each returns a work (caller owns one reference; after a
 * `now` call that ran inline it is already complete) or NULL + message when
 * the arguments are invalid.  Tensor arrays are borrowed for the call; the
 * work takes its own references. ---- */

/* Each tensor is all-reduced separately (one tensor is the common case). */
mt_work *mt_pg_allreduce(mt_pg *pg, const mt_pg_call *call, mt_tensor *const *tensors,
                         int ntensors, mt_dist_op op);
mt_work *mt_pg_broadcast(mt_pg *pg, const mt_pg_call *call, mt_tensor *const *tensors,
                         int ntensors, int root);
/* Root's tensor receives the reduction; others are left unchanged. */
mt_work *mt_pg_reduce(mt_pg *pg, const mt_pg_call *call, mt_tensor *tensor, int root,
                      mt_dist_op op);
/* outputs[size]: outputs[r] receives rank r's input (same dtype and numel). */
mt_work *mt_pg_allgather(mt_pg *pg, const mt_pg_call *call, mt_tensor *const *outputs,
                         mt_tensor *input);
/* outputs[size] on root, NULL elsewhere. */
mt_work *mt_pg_gather(mt_pg *pg, const mt_pg_call *call, mt_tensor *const *outputs,
                      mt_tensor *input, int root);
/* inputs[size] on root, NULL elsewhere. */
mt_work *mt_pg_scatter(mt_pg *pg, const mt_pg_call *call, mt_tensor *output,
                       mt_tensor *const *inputs, int root);
/* output = reduction over ranks of their inputs[rank]; inputs[size] each of output's numel. */
mt_work *mt_pg_reduce_scatter(mt_pg *pg, const mt_pg_call *call, mt_tensor *output,
                              mt_tensor *const *inputs, mt_dist_op op);
/* outputs[r] receives inputs[rank] of rank r; sizes may differ per pair
 * (each pair must agree). */
mt_work *mt_pg_alltoall(mt_pg *pg, const mt_pg_call *call, mt_tensor *const *outputs,
                        mt_tensor *const *inputs);
/* all_to_all_single: input and output split along dim 0; split sizes in rows
 * (NULL: equal splits, dim 0 divisible by the group size). */
mt_work *mt_pg_alltoall_single(mt_pg *pg, const mt_pg_call *call, mt_tensor *output,
                               mt_tensor *input, const int64_t *output_splits,
                               const int64_t *input_splits);
mt_work *mt_pg_barrier(mt_pg *pg, const mt_pg_call *call);
/* Point to point; tag in [0, 2^31). */
mt_work *mt_pg_send(mt_pg *pg, const mt_pg_call *call, mt_tensor *tensor, int dst, int tag);
/* src may be MT_ANY_SOURCE; mt_work_source_rank tells the sender. */
mt_work *mt_pg_recv(mt_pg *pg, const mt_pg_call *call, mt_tensor *tensor, int src, int tag);

/* ---- work ---- */

/* Waits up to timeout_ms (< 0: until the operation ends, which its own
 * deadline bounds).  Returns 0, the operation's error (code and message
 * re-set on this thread), or MT_ETIMEOUT when the wait itself timed out. */
int mt_work_wait(mt_work *w, int64_t timeout_ms);
bool mt_work_is_completed(mt_work *w);
/* Without waiting (and without marking w waited for): what mt_work_wait
 * would return once w is done, or MT_ETIMEOUT while it runs (and when it
 * failed by timing out: a wait tells the two apart). */
int mt_work_result(mt_work *w);
/* Completed without error. */
bool mt_work_is_success(mt_work *w);
/* The error code (0 while running or on success). */
int mt_work_error(mt_work *w);
/* The error message, or NULL while running / on success (borrowed, valid while w lives). */
const char *mt_work_exception_message(mt_work *w);
/* For a receive: the rank the message came from (-1 before completion). */
int mt_work_source_rank(mt_work *w);
/* "allreduce", "send", ... (static). */
const char *mt_work_op_name(const mt_work *w);
void mt_work_incref(mt_work *w);
/* NULL ok. */
void mt_work_decref(mt_work *w);

#endif /* CSRC_DISTRIBUTED_BACKEND_PROCESS_GROUP_H */
