/* csrc/distributed/backend/ops.c - the process group's operations: each one's argument checks, its work's tensor layout and its issue (caller thread); its backend runs it (Note [Backend vtable]). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "c10_lite/error.h"
#include "csrc/distributed/algorithms/algorithms.h"
#include "csrc/distributed/backend/backend.h"
#include "csrc/distributed/backend/pg_private.h"

size_t
mt__pg_nbytes(const mt_tensor *t)
{
    return (size_t)t->numel * mt_tensor_itemsize(t);
}

/* ---- checks and enqueueing (caller thread) ---------------------------------- */

/* The backend's entry for an operation, or NULL + MT_ENOTIMPL when it has none. */
static mt_pg_run_fn
mt__entry(mt_pg *pg, mt_pg_run_fn fn, const char *op)
{
    if (fn == NULL) {
        mt_error_set(MT_ENOTIMPL, "%s: the %s backend does not implement it", op,
                     pg->backend->ops->name);
    }
    return fn;
}

/* Issues w (a new work, stolen) to be run by `run`; NULL when run is NULL. */
static mt_work *
mt__issue_collective(mt_pg *pg, const mt_pg_call *call, mt_work *w, mt_pg_run_fn run)
{
    if (w == NULL) {
        return NULL;
    }
    w->run = run;
    return mt__pg_issue(pg, call, w, true);
}

static int
mt__check_tensor(mt_pg *pg, const mt_tensor *t, const char *op, const char *what)
{
    if (t == NULL) {
        return mt_error_set(MT_EINVAL, "%s: %s is missing", op, what);
    }
    const mt_pg_backend_ops *ops = pg->backend->ops;
    if (mt_tensor_device(t).type != ops->device) {
        return mt_error_set(MT_EINVAL, "%s: %s must be a %s tensor for the %s backend", op,
                            what, ops->device_name, ops->name);
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
mt__check_like(mt_pg *pg, const mt_tensor *t, const mt_tensor *ref, const char *op, const char *what, int i)
{
    int rc = mt__check_tensor(pg, t, op, what);
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
mt_pg_allreduce(mt_pg *pg, const mt_pg_call *call,
                mt_tensor *const *tensors, int ntensors, mt_dist_op op)
{
    mt_pg_run_fn run = mt__entry(pg, pg->backend->ops->allreduce, "allreduce");
    if (run == NULL) {
        return NULL;
    }
    if (ntensors < 1) {
        mt_error_set(MT_EINVAL, "allreduce: needs at least one tensor");
        return NULL;
    }
    for (int i = 0; i < ntensors; i++) {
        if (mt__check_tensor(pg, tensors[i], "allreduce", "tensor") < 0 ||
            mt_dist_op_check(tensors[i]->dtype, op) < 0) {
            return NULL;
        }
    }
    mt_work *w = mt__work_new(MT__OP_ALLREDUCE, tensors, ntensors);
    if (w == NULL) {
        return NULL;
    }
    w->op = op;
    return mt__issue_collective(pg, call, w, run);
}

mt_work *
mt_pg_broadcast(mt_pg *pg, const mt_pg_call *call,
                mt_tensor *const *tensors, int ntensors, int root)
{
    mt_pg_run_fn run = mt__entry(pg, pg->backend->ops->broadcast, "broadcast");
    if (run == NULL) {
        return NULL;
    }
    if (ntensors < 1) {
        mt_error_set(MT_EINVAL, "broadcast: needs at least one tensor");
        return NULL;
    }
    if (mt__check_root(pg, root, "broadcast") < 0) {
        return NULL;
    }
    for (int i = 0; i < ntensors; i++) {
        if (mt__check_tensor(pg, tensors[i], "broadcast", "tensor") < 0) {
            return NULL;
        }
    }
    mt_work *w = mt__work_new(MT__OP_BROADCAST, tensors, ntensors);
    if (w == NULL) {
        return NULL;
    }
    w->root = root;
    return mt__issue_collective(pg, call, w, run);
}

mt_work *
mt_pg_reduce(mt_pg *pg, const mt_pg_call *call, mt_tensor *tensor, int root, mt_dist_op op)
{
    mt_pg_run_fn run = mt__entry(pg, pg->backend->ops->reduce, "reduce");
    if (run == NULL) {
        return NULL;
    }
    if (mt__check_root(pg, root, "reduce") < 0 || mt__check_tensor(pg, tensor, "reduce", "tensor") < 0 ||
        mt_dist_op_check(tensor->dtype, op) < 0) {
        return NULL;
    }
    mt_work *w = mt__work_new(MT__OP_REDUCE, &tensor, 1);
    if (w == NULL) {
        return NULL;
    }
    w->root = root;
    w->op = op;
    return mt__issue_collective(pg, call, w, run);
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
        int rc = mt__check_like(pg, list[r], ref, op, what, r);
        if (rc < 0) {
            return rc;
        }
    }
    return 0;
}

mt_work *
mt_pg_allgather(mt_pg *pg, const mt_pg_call *call, mt_tensor *const *outputs, mt_tensor *input)
{
    mt_pg_run_fn run = mt__entry(pg, pg->backend->ops->allgather, "allgather");
    if (run == NULL) {
        return NULL;
    }
    if (mt__check_tensor(pg, input, "allgather", "input") < 0 ||
        mt__check_list(pg, outputs, input, "allgather", "output_tensor_list") < 0) {
        return NULL;
    }
    mt_work *w = mt__work_with_list(MT__OP_ALLGATHER, pg, input, outputs);
    return mt__issue_collective(pg, call, w, run);
}

mt_work *
mt_pg_gather(mt_pg *pg, const mt_pg_call *call,
             mt_tensor *const *outputs, mt_tensor *input, int root)
{
    mt_pg_run_fn run = mt__entry(pg, pg->backend->ops->gather, "gather");
    if (run == NULL) {
        return NULL;
    }
    if (mt__check_root(pg, root, "gather") < 0 || mt__check_tensor(pg, input, "gather", "input") < 0) {
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
    return mt__issue_collective(pg, call, w, run);
}

mt_work *
mt_pg_scatter(mt_pg *pg, const mt_pg_call *call,
              mt_tensor *output, mt_tensor *const *inputs, int root)
{
    mt_pg_run_fn run = mt__entry(pg, pg->backend->ops->scatter, "scatter");
    if (run == NULL) {
        return NULL;
    }
    if (mt__check_root(pg, root, "scatter") < 0 ||
        mt__check_tensor(pg, output, "scatter", "output") < 0) {
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
    return mt__issue_collective(pg, call, w, run);
}

mt_work *
mt_pg_reduce_scatter(mt_pg *pg, const mt_pg_call *call, mt_tensor *output,
                     mt_tensor *const *inputs, mt_dist_op op)
{
    mt_pg_run_fn run = mt__entry(pg, pg->backend->ops->reduce_scatter, "reduce_scatter");
    if (run == NULL) {
        return NULL;
    }
    if (mt__check_tensor(pg, output, "reduce_scatter", "output") < 0 ||
        mt_dist_op_check(output->dtype, op) < 0 ||
        mt__check_list(pg, inputs, output, "reduce_scatter", "input_list") < 0) {
        return NULL;
    }
    mt_work *w = mt__work_with_list(MT__OP_REDUCE_SCATTER, pg, output, inputs);
    if (w == NULL) {
        return NULL;
    }
    w->op = op;
    return mt__issue_collective(pg, call, w, run);
}

mt_work *
mt_pg_alltoall(mt_pg *pg, const mt_pg_call *call,
               mt_tensor *const *outputs, mt_tensor *const *inputs)
{
    mt_pg_run_fn run = mt__entry(pg, pg->backend->ops->alltoall, "all_to_all");
    if (run == NULL) {
        return NULL;
    }
    int n = pg->size;
    if (outputs == NULL || inputs == NULL) {
        mt_error_set(MT_EINVAL, "all_to_all: needs %d output and %d input tensors", n, n);
        return NULL;
    }
    for (int r = 0; r < n; r++) {
        if (mt__check_tensor(pg, outputs[r], "all_to_all", "output") < 0 ||
            mt__check_tensor(pg, inputs[r], "all_to_all", "input") < 0) {
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
        lens[r] = mt__pg_nbytes(inputs[r]);
        lens[n + r] = mt__pg_nbytes(outputs[r]);
    }
    mt_work *w = mt__work_new(MT__OP_ALLTOALL, ts, 2 * n);
    free(ts);
    if (w == NULL) {
        free(lens);
        return NULL;
    }
    w->lens = lens;
    return mt__issue_collective(pg, call, w, run);
}

/* Byte lengths of the dim-0 splits of t into lens[0..n-1]. */
static int
mt__split_lens(mt_pg *pg, const mt_tensor *t, const int64_t *splits, size_t *lens,
               const char *what)
{
    int n = pg->size;
    int64_t rows = t->ndim > 0 ? t->sizes[0] : 1;
    size_t row_bytes = rows > 0 ? mt__pg_nbytes(t) / (size_t)rows : 0;
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
mt_pg_alltoall_single(mt_pg *pg, const mt_pg_call *call, mt_tensor *output, mt_tensor *input,
                              const int64_t *output_splits, const int64_t *input_splits)
{
    mt_pg_run_fn run = mt__entry(pg, pg->backend->ops->alltoall, "all_to_all_single");
    if (run == NULL) {
        return NULL;
    }
    int n = pg->size;
    if (mt__check_tensor(pg, output, "all_to_all_single", "output") < 0 ||
        mt__check_tensor(pg, input, "all_to_all_single", "input") < 0) {
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
    return mt__issue_collective(pg, call, w, run);
}

mt_work *
mt_pg_barrier(mt_pg *pg, const mt_pg_call *call)
{
    mt_pg_run_fn run = mt__entry(pg, pg->backend->ops->barrier, "barrier");
    if (run == NULL) {
        return NULL;
    }
    mt_work *w = mt__work_new(MT__OP_BARRIER, NULL, 0);
    return mt__issue_collective(pg, call, w, run);
}

static int
mt__check_p2p(mt_pg *pg, mt_tensor *t, int peer, int tag, const char *op, bool any_ok)
{
    if (pg->backend->ops->p2p == NULL) {
        return mt_error_set(MT_ENOTIMPL, "%s: the %s backend does not implement it", op,
                            pg->backend->ops->name);
    }
    int rc = mt__check_tensor(pg, t, op, "tensor");
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
mt_pg_send(mt_pg *pg, const mt_pg_call *call, mt_tensor *tensor, int dst, int tag)
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
    return mt__pg_issue(pg, call, w, false);
}

mt_work *
mt_pg_recv(mt_pg *pg, const mt_pg_call *call, mt_tensor *tensor, int src, int tag)
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
    return mt__pg_issue(pg, call, w, false);
}
