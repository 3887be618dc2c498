/* csrc/distributed/backend/cpu_backend.c - the CPU backend ("gloo"): the process group's operations run over a transport with the algorithms of csrc/distributed/algorithms (Note [Backend vtable]). */
#include <stdlib.h>
#include <string.h>

#include "c10_lite/error.h"
#include "csrc/distributed/algorithms/algorithms.h"
#include "csrc/distributed/backend/backend.h"
#include "csrc/distributed/backend/pg_private.h"
#include "csrc/distributed/transport/transport.h"

typedef struct mt__cpu_backend {
    mt_pg_backend base;
    mt_transport *tp; /* owned */
    bool any_order;   /* MINITORCH_REDUCTION_ORDER=any when the group was made */
} mt__cpu_backend;

static mt_transport *
mt__tp(mt_pg_backend *b)
{
    return ((mt__cpu_backend *)b)->tp;
}

/* The algorithms' context of w on b. */
static mt_algo_ctx
mt__ctx(mt_pg_backend *b, const mt_work *w, int64_t deadline)
{
    mt_algo_ctx c = {
        .tp = mt__tp(b),
        .rank = b->rank,
        .size = b->size,
        .tag = w->tag,
        .deadline = deadline,
        .any_order = ((mt__cpu_backend *)b)->any_order,
    };
    return c;
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

/* ---- the collectives (tensor layouts: see ops.c) ---- */

/* tensors[0..ntensors): each all-reduced separately. */
static int
mt__cpu_allreduce(mt_pg_backend *b, mt_work *w, int64_t deadline)
{
    mt_algo_ctx c = mt__ctx(b, w, deadline);
    mt_tensor **ts = w->tensors;
    int rc = 0;
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
}

/* tensors[0..ntensors): each broadcast from w->root. */
static int
mt__cpu_broadcast(mt_pg_backend *b, mt_work *w, int64_t deadline)
{
    mt_algo_ctx c = mt__ctx(b, w, deadline);
    int rc = 0;
    for (int i = 0; i < w->ntensors && rc == 0; i++) {
        rc = mt_algo_broadcast(&c, mt_tensor_data(w->tensors[i]), mt__pg_nbytes(w->tensors[i]),
                               w->root);
    }
    return rc;
}

/* tensors[0]: reduced into w->root's. */
static int
mt__cpu_reduce(mt_pg_backend *b, mt_work *w, int64_t deadline)
{
    mt_algo_ctx c = mt__ctx(b, w, deadline);
    mt_tensor *t = w->tensors[0];
    size_t cnt = (size_t)t->numel;
    if (mt__widens(w, t->dtype)) { /* Note [16-bit float reductions] */
        float *f = mt__widen(mt_tensor_data(t), cnt, t->dtype);
        int rc = f == NULL ? MT_ENOMEM : mt_algo_reduce(&c, f, cnt, MT_FLOAT32, w->op, w->root);
        if (rc == 0 && b->rank == w->root) {
            mt__narrow(f, mt_tensor_data(t), cnt, t->dtype);
        }
        free(f);
        return rc;
    }
    return mt_algo_reduce(&c, mt_tensor_data(t), cnt, t->dtype, w->op, w->root);
}

static int
mt__cpu_barrier(mt_pg_backend *b, mt_work *w, int64_t deadline)
{
    mt_algo_ctx c = mt__ctx(b, w, deadline);
    return mt_algo_barrier(&c);
}

/* The data pointers of the list tensors[1..size] (NULL entries stay NULL) into a new array
 * (NULL + MT_ENOMEM message). */
static void **
mt__list_bufs(mt_pg_backend *b, mt_work *w)
{
    void **bufs = calloc((size_t)b->size, sizeof(*bufs));
    if (bufs == NULL) {
        mt_error_set(MT_ENOMEM, "out of memory running %s", mt_work_op_name(w));
        return NULL;
    }
    for (int r = 0; r < b->size; r++) {
        bufs[r] = w->tensors[1 + r] ? mt_tensor_data(w->tensors[1 + r]) : NULL;
    }
    return bufs;
}

/* (input, outputs[size]) */
static int
mt__cpu_allgather(mt_pg_backend *b, mt_work *w, int64_t deadline)
{
    mt_algo_ctx c = mt__ctx(b, w, deadline);
    void **bufs = mt__list_bufs(b, w);
    if (bufs == NULL) {
        return MT_ENOMEM;
    }
    mt_tensor *in = w->tensors[0];
    int rc = mt_algo_allgather(&c, mt_tensor_data(in), mt__pg_nbytes(in), bufs);
    free(bufs);
    return rc;
}

/* (input, outputs[size] on the root, NULLs elsewhere) */
static int
mt__cpu_gather(mt_pg_backend *b, mt_work *w, int64_t deadline)
{
    mt_algo_ctx c = mt__ctx(b, w, deadline);
    void **bufs = mt__list_bufs(b, w);
    if (bufs == NULL) {
        return MT_ENOMEM;
    }
    mt_tensor *in = w->tensors[0];
    int rc = mt_algo_gather(&c, mt_tensor_data(in), mt__pg_nbytes(in),
                            b->rank == w->root ? bufs : NULL, w->root);
    free(bufs);
    return rc;
}

/* (output, inputs[size] on the root, NULLs elsewhere) */
static int
mt__cpu_scatter(mt_pg_backend *b, mt_work *w, int64_t deadline)
{
    mt_algo_ctx c = mt__ctx(b, w, deadline);
    void **bufs = mt__list_bufs(b, w);
    if (bufs == NULL) {
        return MT_ENOMEM;
    }
    mt_tensor *out = w->tensors[0];
    int rc = mt_algo_scatter(&c, mt_tensor_data(out), mt__pg_nbytes(out),
                             b->rank == w->root ? (const void *const *)bufs : NULL, w->root);
    free(bufs);
    return rc;
}

/* (output, inputs[size]): the inputs packed in rank order (the algorithm works on one
 * buffer). */
static int
mt__cpu_reduce_scatter(mt_pg_backend *b, mt_work *w, int64_t deadline)
{
    mt_algo_ctx c = mt__ctx(b, w, deadline);
    void **bufs = mt__list_bufs(b, w);
    if (bufs == NULL) {
        return MT_ENOMEM;
    }
    int n = b->size, rc = 0;
    mt_tensor *o = w->tensors[0];
    size_t len = mt__pg_nbytes(o);
    size_t count = (size_t)o->numel;
    mt_dtype dt = o->dtype;
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
                                        wide ? (void *)out : mt_tensor_data(o),
                                        wide ? MT_FLOAT32 : dt, w->op);
        }
        if (rc == 0 && wide) {
            mt__narrow(out, mt_tensor_data(o), count, dt);
        }
    }
    free(out);
    free(packed);
    free(counts);
    free(bufs);
    return rc;
}

/* (outputs[size], inputs[size]), or with w->single (output, input) split by w->lens; w->lens:
 * send bytes [size] then receive bytes [size]. */
static int
mt__cpu_alltoall(mt_pg_backend *b, mt_work *w, int64_t deadline)
{
    mt_algo_ctx c = mt__ctx(b, w, deadline);
    int n = b->size;
    void **bufs = calloc(2 * (size_t)n, sizeof(*bufs));
    if (bufs == NULL) {
        return mt_error_set(MT_ENOMEM, "out of memory running %s", mt_work_op_name(w));
    }
    void **sends = bufs, **recvs = bufs + n;
    mt_tensor **ts = w->tensors;
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
    int rc = mt_algo_alltoall(&c, (const void *const *)sends, w->lens, recvs, w->lens + n);
    free(bufs);
    return rc;
}

/* Sends and receives in one exchange: the sends first, then the receives in issue order (so
 * that two receives from one peer with one tag match that peer's messages in order). */
static int
mt__cpu_p2p(mt_pg_backend *b, mt_work *const *works, int n, int64_t deadline)
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
        xi->len = mt__pg_nbytes(w->tensors[0]);
    }
    /* the receives were filled back to front: restore issue order */
    for (int i = ns, j = n - 1; i < j; i++, j--) {
        mt_xfer t = x[i];
        x[i] = x[j];
        x[j] = t;
    }
    int rc = mt_transport_exchange(mt__tp(b), x, ns, x + ns, n - ns, deadline);
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

static const char *
mt__cpu_transport_name(const mt_pg_backend *b)
{
    return mt_transport_name(((const mt__cpu_backend *)b)->tp);
}

static int
mt__cpu_transport_connections(const mt_pg_backend *b, int *sockets)
{
    return mt_transport_connections(((const mt__cpu_backend *)b)->tp, sockets);
}

static void
mt__cpu_abort(mt_pg_backend *b)
{
    mt_transport_abort(mt__tp(b));
}

static void
mt__cpu_destroy(mt_pg_backend *b)
{
    mt_transport_close(mt__tp(b));
    free(b);
}

static const mt_pg_backend_ops mt__cpu_ops = {
    .name = "gloo",
    .device = MT_CPU,
    .device_name = "CPU",
    .allreduce = mt__cpu_allreduce,
    .broadcast = mt__cpu_broadcast,
    .reduce = mt__cpu_reduce,
    .allgather = mt__cpu_allgather,
    .gather = mt__cpu_gather,
    .scatter = mt__cpu_scatter,
    .reduce_scatter = mt__cpu_reduce_scatter,
    .alltoall = mt__cpu_alltoall,
    .barrier = mt__cpu_barrier,
    .p2p = mt__cpu_p2p,
    .transport_name = mt__cpu_transport_name,
    .transport_connections = mt__cpu_transport_connections,
    .abort = mt__cpu_abort,
    .destroy = mt__cpu_destroy,
};

mt_pg_backend *
mt__cpu_backend_new(mt_store *store, int rank, int size, int64_t timeout_ms)
{
    mt__cpu_backend *cb = calloc(1, sizeof(*cb));
    if (cb == NULL) {
        mt_error_set(MT_ENOMEM, "out of memory creating a process group");
        return NULL;
    }
    cb->tp = mt_transport_new(store, rank, size, timeout_ms);
    if (cb->tp == NULL) {
        free(cb);
        return NULL;
    }
    const char *order = getenv("MINITORCH_REDUCTION_ORDER"); /* Note [Fixed reduction order] */
    cb->any_order = order != NULL && strcmp(order, "any") == 0;
    cb->base.ops = &mt__cpu_ops;
    cb->base.rank = rank;
    cb->base.size = size;
    return &cb->base;
}
