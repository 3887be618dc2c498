/* csrc/distributed/backend/ops.c - the process group's operations: each one's argument checks and enqueueing (caller thread), and what running it does. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "c10_lite/error.h"
#include "csrc/distributed/algorithms/algorithms.h"
#include "csrc/distributed/backend/pg_private.h"
#include "csrc/distributed/common/net.h"

/* ---- running an operation (the worker, or a caller running it inline) ------- */

size_t
mt__pg_nbytes(const mt_tensor *t)
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
int64_t
mt__pg_timeout_of(mt_pg *pg, const mt_work *w)
{
    return w->timeout_ms > 0 ? w->timeout_ms : atomic_load(&pg->timeout_ms);
}

int
mt__pg_run_op(mt_pg *pg, mt_work *w)
{
    mt_algo_ctx c = {
        .tp = pg->tp,
        .rank = pg->rank,
        .size = pg->size,
        .tag = w->tag,
        .deadline = mt__deadline_after(mt__pg_timeout_of(pg, w)),
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
            rc = mt_algo_broadcast(&c, mt_tensor_data(ts[i]), mt__pg_nbytes(ts[i]), w->root);
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
                                 mt__pg_nbytes(ts[0]), c.deadline);
    case MT__OP_RECV:
        return mt_transport_recv(pg->tp, w->root, w->tag, mt_tensor_data(ts[0]),
                                 mt__pg_nbytes(ts[0]), c.deadline, &w->src_rank);
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
        rc = mt_algo_allgather(&c, mt_tensor_data(ts[0]), mt__pg_nbytes(ts[0]), bufs);
        break;
    case MT__OP_GATHER:
        rc = mt_algo_gather(&c, mt_tensor_data(ts[0]), mt__pg_nbytes(ts[0]),
                            pg->rank == w->root ? bufs : NULL, w->root);
        break;
    case MT__OP_SCATTER:
        rc = mt_algo_scatter(&c, mt_tensor_data(ts[0]), mt__pg_nbytes(ts[0]),
                             pg->rank == w->root ? (const void *const *)bufs : NULL, w->root);
        break;
    case MT__OP_REDUCE_SCATTER: {
        /* Pack the inputs in rank order (the algorithm works on one buffer). */
        size_t len = mt__pg_nbytes(ts[0]);
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

/* ---- checks and enqueueing (caller thread) ---------------------------------- */

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
mt_pg_allreduce(mt_pg *pg, const mt_pg_call *call,
                mt_tensor *const *tensors, int ntensors, mt_dist_op op)
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
    return mt__pg_issue(pg, call, w, true);
}

mt_work *
mt_pg_broadcast(mt_pg *pg, const mt_pg_call *call,
                mt_tensor *const *tensors, int ntensors, int root)
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
    return mt__pg_issue(pg, call, w, true);
}

mt_work *
mt_pg_reduce(mt_pg *pg, const mt_pg_call *call, mt_tensor *tensor, int root, mt_dist_op op)
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
    return mt__pg_issue(pg, call, w, true);
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
mt_pg_allgather(mt_pg *pg, const mt_pg_call *call, mt_tensor *const *outputs, mt_tensor *input)
{
    if (mt__check_tensor(input, "allgather", "input") < 0 ||
        mt__check_list(pg, outputs, input, "allgather", "output_tensor_list") < 0) {
        return NULL;
    }
    mt_work *w = mt__work_with_list(MT__OP_ALLGATHER, pg, input, outputs);
    return w ? mt__pg_issue(pg, call, w, true) : NULL;
}

mt_work *
mt_pg_gather(mt_pg *pg, const mt_pg_call *call,
             mt_tensor *const *outputs, mt_tensor *input, int root)
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
    return mt__pg_issue(pg, call, w, true);
}

mt_work *
mt_pg_scatter(mt_pg *pg, const mt_pg_call *call,
              mt_tensor *output, mt_tensor *const *inputs, int root)
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
    return mt__pg_issue(pg, call, w, true);
}

mt_work *
mt_pg_reduce_scatter(mt_pg *pg, const mt_pg_call *call, mt_tensor *output,
                     mt_tensor *const *inputs, mt_dist_op op)
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
    return mt__pg_issue(pg, call, w, true);
}

mt_work *
mt_pg_alltoall(mt_pg *pg, const mt_pg_call *call,
               mt_tensor *const *outputs, mt_tensor *const *inputs)
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
    return mt__pg_issue(pg, call, w, true);
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
    return mt__pg_issue(pg, call, w, true);
}

mt_work *
mt_pg_barrier(mt_pg *pg, const mt_pg_call *call)
{
    mt_work *w = mt__work_new(MT__OP_BARRIER, NULL, 0);
    return w ? mt__pg_issue(pg, call, w, true) : NULL;
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
