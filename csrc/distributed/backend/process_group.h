/* csrc/distributed/backend/process_group.h - the TCP ("gloo") process group: a worker thread running queued collectives. */
#ifndef CSRC_DISTRIBUTED_BACKEND_PROCESS_GROUP_H
#define CSRC_DISTRIBUTED_BACKEND_PROCESS_GROUP_H

#include <stdbool.h>
#include <stdint.h>

#include "c10_lite/tensor_impl.h"
#include "csrc/distributed/algorithms/algorithms.h"
#include "csrc/distributed/rendezvous/store.h"

/* Note [Process group execution]
 * mt_pg_new builds the TCP mesh (blocking, bounded by the timeout) and starts
 * one worker thread.  Every mt_pg_enqueue_* call validates its arguments on
 * the calling thread (errors: NULL + message, nothing queued), takes a
 * reference to every tensor it touches, and appends a work item to the
 * group's queue; the worker runs the items one at a time in issue order, so
 * all ranks run their collectives in the same order.  Each collective gets a
 * sequence number, and its messages carry it as their tag, so bytes of two
 * different collectives can never be mixed up.
 *
 * Each operation must finish within the group's timeout.  When one fails
 * (timeout, a peer died, mismatched sizes) the group is broken: the error is
 * kept and every later operation fails at once with it instead of hanging.
 * The worker copies its thread-local error message into the work item;
 * mt_work_wait re-raises it on the waiting thread.
 *
 * Tensors must be CPU and contiguous here (the binding copies others).  The
 * work item keeps its tensors alive until it completes; the caller must not
 * free the bytes, but may drop its own references. */

typedef struct mt_pg mt_pg;
typedef struct mt_work mt_work;

/* Joins the group: builds the mesh through `store` (borrowed; the group takes
 * a reference: give each group its own PrefixStore), starts the worker.
 * Caller owns the result (mt_pg_destroy).  NULL + message on failure
 * (MT_EINVAL bad rank/size/timeout, MT_ETIMEOUT/MT_ECONN from the mesh). */
mt_pg *mt_pg_new(mt_store *store, int rank, int size, int64_t timeout_ms);
int mt_pg_rank(const mt_pg *pg);
/* The name of the group's transport: "tcp" or "shm" (Note [Choosing a transport]). */
const char *mt_pg_transport_name(const mt_pg *pg);
int mt_pg_size(const mt_pg *pg);
int64_t mt_pg_timeout_ms(const mt_pg *pg);
/* Changes the time each later operation may take (milliseconds > 0; MT_EINVAL otherwise). */
int mt_pg_set_timeout(mt_pg *pg, int64_t timeout_ms);
/* The time limit of the next operation this thread enqueues on any group (> 0), instead of
 * the group's; 0 clears it.  Consumed by that enqueue (or cleared by mt_pg_set_op_timeout(0)
 * when the enqueue failed). */
void mt_pg_set_op_timeout(int64_t timeout_ms);
/* Whether an earlier failure broke the group (then *msg, if given, is the
 * first error; borrowed, valid until destroy). */
bool mt_pg_is_broken(mt_pg *pg, const char **msg);
/* Waits for every queued operation to finish (each is bounded by the
 * timeout), stops the worker, closes every socket, frees the group. NULL ok. */
void mt_pg_destroy(mt_pg *pg);
/* Like destroy, but interrupts the running operation and fails the queued
 * ones with MT_ECLOSED instead of waiting for them. NULL ok. */
void mt_pg_abort(mt_pg *pg);

/* ---- operations: each returns a new work (caller owns one reference) or
 * NULL + message when the arguments are invalid.  Tensor arrays are
 * borrowed for the call; the work takes its own references. ---- */

/* Each tensor is all-reduced separately (one tensor is the common case). */
mt_work *mt_pg_enqueue_allreduce(mt_pg *pg, mt_tensor *const *tensors, int ntensors,
                                 mt_dist_op op);
mt_work *mt_pg_enqueue_broadcast(mt_pg *pg, mt_tensor *const *tensors, int ntensors, int root);
/* Root's tensor receives the reduction; others are left unchanged. */
mt_work *mt_pg_enqueue_reduce(mt_pg *pg, mt_tensor *tensor, int root, mt_dist_op op);
/* outputs[size]: outputs[r] receives rank r's input (same dtype and numel). */
mt_work *mt_pg_enqueue_allgather(mt_pg *pg, mt_tensor *const *outputs, mt_tensor *input);
/* outputs[size] on root, NULL elsewhere. */
mt_work *mt_pg_enqueue_gather(mt_pg *pg, mt_tensor *const *outputs, mt_tensor *input, int root);
/* inputs[size] on root, NULL elsewhere. */
mt_work *mt_pg_enqueue_scatter(mt_pg *pg, mt_tensor *output, mt_tensor *const *inputs, int root);
/* output = reduction over ranks of their inputs[rank]; inputs[size] each of output's numel. */
mt_work *mt_pg_enqueue_reduce_scatter(mt_pg *pg, mt_tensor *output, mt_tensor *const *inputs,
                                      mt_dist_op op);
/* outputs[r] receives inputs[rank] of rank r; sizes may differ per pair
 * (each pair must agree). */
mt_work *mt_pg_enqueue_alltoall(mt_pg *pg, mt_tensor *const *outputs, mt_tensor *const *inputs);
/* all_to_all_single: input and output split along dim 0; split sizes in rows
 * (NULL: equal splits, dim 0 divisible by the group size). */
mt_work *mt_pg_enqueue_alltoall_single(mt_pg *pg, mt_tensor *output, mt_tensor *input,
                                       const int64_t *output_splits,
                                       const int64_t *input_splits);
mt_work *mt_pg_enqueue_barrier(mt_pg *pg);
/* Point to point; tag in [0, 2^31). */
mt_work *mt_pg_enqueue_send(mt_pg *pg, mt_tensor *tensor, int dst, int tag);
/* src may be MT_ANY_SOURCE; mt_work_source_rank tells the sender. */
mt_work *mt_pg_enqueue_recv(mt_pg *pg, mt_tensor *tensor, int src, int tag);

/* Note [Inline execution]
 * A blocking call would hand its item to the worker and sleep until the
 * worker is done: two thread switches per operation, which dominate small
 * messages (and hurt most when ranks outnumber cores).  Instead the caller
 * may run the item itself: mt_pg_set_defer_wake(true) before an enqueue
 * keeps the enqueue from waking the worker (the flag is thread-local and
 * cleared by the next enqueue; clear it yourself if the enqueue might fail
 * early), then mt_pg_take(pg, w) claims w if it is at the head of the queue
 * and nothing is running.  If it returns true the caller must call
 * mt_pg_run_taken(pg, w) (the group cannot be destroyed until that
 * returns); otherwise the worker runs w as usual (mt_pg_take woke it) and
 * the caller waits with mt_work_wait.  Order is kept either way: the worker
 * never starts an item while an inline one runs. */
void mt_pg_set_defer_wake(bool on);
/* Claims w (borrowed) for mt_pg_run_taken; see Note [Inline execution]. */
bool mt_pg_take(mt_pg *pg, mt_work *w);
/* Runs a claimed w on the calling thread and completes it (its result is then
 * read with mt_work_wait). */
void mt_pg_run_taken(mt_pg *pg, mt_work *w);

/* ---- work ---- */

/* Waits up to timeout_ms (< 0: until the operation ends, which its own
 * deadline bounds).  Returns 0, the operation's error (code and message
 * re-set on this thread), or MT_ETIMEOUT when the wait itself timed out. */
int mt_work_wait(mt_work *w, int64_t timeout_ms);
bool mt_work_is_completed(mt_work *w);
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
