/* csrc/distributed/backend/mpi_backend.c - the MPI backend ("mpi"): the process group's operations run by the MPI library opened at run time (Note [Backend vtable], Note [Loading MPI]). */
#include <limits.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "c10_lite/error.h"
#include "csrc/distributed/backend/backend.h"
#include "csrc/distributed/backend/pg_private.h"
#include "csrc/distributed/common/net.h"
#include "csrc/distributed/mpi/mpi_lib.h"
#include "csrc/distributed/transport/transport.h"

/* Note [MPI operations]
 * Each operation is one of MPI-3's non-blocking calls (MPI_Iallreduce, MPI_Ibcast, ...,
 * MPI_Isend/MPI_Irecv) on the group's communicator, completed by polling MPI_Testall on the
 * thread that runs it (the group's worker, or the caller inline: Note [Issuing an
 * operation]).  Polling is what gives every operation its time limit and makes abort()
 * work: MPI's blocking calls cannot be interrupted.  The GIL is not held (the binding
 * releases it around inline runs; the worker never has it).
 *
 * An operation that times out or is aborted leaves its MPI requests pending, and MPI cannot
 * cancel a collective: the library may still write into its buffers later.  So its buffers
 * are stranded: the tensors keep an extra reference and scratch buffers are never freed (a
 * leak, bounded by the one operation that broke the group), and the communicators of a
 * group so left are not freed either.
 *
 * Data: reductions use the MPI datatype of the tensor's dtype (bool as uint8 with SUM/AVG as
 * BOR and PRODUCT as BAND, which is what the CPU backend computes on 0/1 bytes); float16
 * and bfloat16, which MPI has no type for, are widened to float32 (Note [16-bit float
 * reductions]); AVG is a SUM divided by the group's size afterwards.  Operations that do not
 * reduce move bytes.  MPI counts are ints: a count that does not fit is an error, not a
 * silent truncation.  Lists of tensors (allgather's outputs, ...) that lie back to back in
 * one buffer (the views all_gather_into_tensor makes) are used in place; others go through
 * one packed scratch buffer. */

typedef struct mt__mpi_backend {
    mt_pg_backend base;
    const mt_mpi_api *api;
    mt_mpi_handle comm; /* the operations' communicator (owned) */
    mt_mpi_handle mgmt; /* a duplicate that groups are split from (owned; Note [MPI threads]) */
    atomic_bool aborted;
    atomic_bool stranded; /* Note [MPI operations] */
} mt__mpi_backend;

static const mt_pg_backend_ops mt__mpi_ops;

static mt__mpi_backend *
mt__mb(mt_pg_backend *b)
{
    return (mt__mpi_backend *)b;
}

/* Keeps the buffers of works[0..n) alive for good (Note [MPI operations]). */
static void
mt__strand(mt__mpi_backend *b, mt_work *const *works, int n)
{
    atomic_store(&b->stranded, true);
    for (int i = 0; i < n; i++) {
        for (int j = 0; j < works[i]->ntensors; j++) {
            if (works[i]->tensors[j] != NULL) {
                mt_tensor_incref(works[i]->tensors[j]);
            }
        }
    }
}

/* Polls reqs[0..n) until all complete (statuses into st when not NULL), the deadline passes
 * (MT_ETIMEOUT) or the group is aborted (MT_ECLOSED).  On failure the works' buffers are
 * stranded and *stranded is set: the caller must not free its scratch buffers. */
static int
mt__wait(mt__mpi_backend *b, mt_mpi_handle *reqs, int n, mt_mpi_status *st, int64_t deadline,
         mt_work *const *works, int nworks, bool *stranded)
{
    const mt_mpi_api *api = b->api;
    const char *what = mt_work_op_name(works[0]);
    *stranded = false;
    for (unsigned spins = 1;; spins++) {
        int flag = 0;
        int e = api->Testall(n, reqs, &flag, st);
        if (e != MT_MPI_SUCCESS) {
            mt__strand(b, works, nworks);
            *stranded = true;
            return mt_mpi_error(api, e, what);
        }
        if (flag) {
            return 0;
        }
        if (atomic_load_explicit(&b->aborted, memory_order_relaxed)) {
            mt__strand(b, works, nworks);
            *stranded = true;
            return mt_error_set(MT_ECLOSED, "%s: the process group was aborted", what);
        }
        if ((spins & 255) == 0 && mt__now_ms() >= deadline) {
            mt__strand(b, works, nworks);
            *stranded = true;
            return mt_error_set(MT_ETIMEOUT, "MPI has not completed it (a peer has not "
                                "joined the operation, or is gone)");
        }
    }
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
    void *data;    /* what MPI reduces */
    float *wide;   /* owned float32 copy (NULL: data is the tensor's) */
    mt_dtype dt;   /* the tensor's dtype */
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

/* The requests of one operation (a few on the stack, more on the heap). */
typedef struct mt__reqs {
    mt_mpi_handle small[4];
    mt_mpi_handle *r;
    int n;
} mt__reqs;

static int
mt__reqs_init(mt__reqs *q, const mt_mpi_api *api, int n)
{
    q->r = n <= 4 ? q->small : malloc((size_t)n * sizeof(*q->r));
    if (q->r == NULL) {
        return mt_error_set(MT_ENOMEM, "out of memory for MPI requests");
    }
    for (int i = 0; i < n; i++) {
        q->r[i] = api->request_null;
    }
    q->n = n;
    return 0;
}

static void
mt__reqs_free(mt__reqs *q, bool stranded)
{
    if (q->r != q->small && !stranded) {
        free(q->r);
    }
}

/* Waits for the requests issued so far (the first `issued`): after an issue error, those
 * must still complete before anything is freed. */
static int
mt__finish(mt__mpi_backend *b, mt__reqs *q, int issued, int rc, int64_t deadline, mt_work *w,
           bool *stranded)
{
    *stranded = false;
    if (issued > 0) {
        char keep[1024] = "";
        int keep_code = rc;
        if (rc < 0) {
            snprintf(keep, sizeof(keep), "%s", mt_error_message());
        }
        int wrc = mt__wait(b, q->r, issued, NULL, deadline, &w, 1, stranded);
        if (rc < 0) {
            mt_error_set(keep_code, "%s", keep);
            return rc;
        }
        return wrc;
    }
    return rc;
}

/* tensors[0..ntensors): each all-reduced separately. */
static int
mt__mpi_allreduce(mt_pg_backend *pb, mt_work *w, int64_t deadline)
{
    mt__mpi_backend *b = mt__mb(pb);
    const mt_mpi_api *api = b->api;
    int n = w->ntensors, issued = 0, rc = 0;
    mt__reqs q;
    mt__red small[4];
    mt__red *reds = n <= 4 ? small : calloc((size_t)n, sizeof(*reds));
    if (reds == NULL || mt__reqs_init(&q, api, n) < 0) {
        if (reds != small) {
            free(reds);
        }
        return mt_error_set(MT_ENOMEM, "out of memory in allreduce");
    }
    for (int i = 0; i < n; i++) {
        memset(&reds[i], 0, sizeof(reds[i]));
    }
    for (int i = 0; i < n && rc == 0; i++) {
        mt_tensor *t = w->tensors[i];
        rc = mt__red_prepare(api, t, &reds[i], true, "allreduce");
        if (rc == 0) {
            int e = api->Iallreduce((const void *)1 /* MPI_IN_PLACE */, reds[i].data,
                                    reds[i].count, reds[i].type, mt__op(api, w->op, t->dtype),
                                    b->comm, &q.r[i]);
            rc = mt_mpi_error(api, e, "MPI_Iallreduce");
            issued += rc == 0;
        }
    }
    bool stranded;
    rc = mt__finish(b, &q, issued, rc, deadline, w, &stranded);
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
    mt__reqs_free(&q, stranded);
    return rc;
}

/* tensors[0..ntensors): each broadcast from w->root. */
static int
mt__mpi_broadcast(mt_pg_backend *pb, mt_work *w, int64_t deadline)
{
    mt__mpi_backend *b = mt__mb(pb);
    const mt_mpi_api *api = b->api;
    int n = w->ntensors, issued = 0, rc = 0;
    mt__reqs q;
    if (mt__reqs_init(&q, api, n) < 0) {
        return MT_ENOMEM;
    }
    for (int i = 0; i < n && rc == 0; i++) {
        mt_mpi_handle type;
        int count;
        rc = mt__bytes(api, mt__pg_nbytes(w->tensors[i]), &type, &count, "broadcast");
        if (rc == 0) {
            rc = mt_mpi_error(api, api->Ibcast(mt_tensor_data(w->tensors[i]), count, type,
                                               w->root, b->comm, &q.r[i]),
                              "MPI_Ibcast");
            issued += rc == 0;
        }
    }
    bool stranded;
    rc = mt__finish(b, &q, issued, rc, deadline, w, &stranded);
    mt__reqs_free(&q, stranded);
    return rc;
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
    if (rc < 0) {
        return rc;
    }
    mt__reqs q;
    mt__reqs_init(&q, api, 1);
    int e = api->Ireduce(root ? (const void *)1 /* MPI_IN_PLACE */ : r.data, root ? r.data : NULL,
                         r.count, r.type, mt__op(api, w->op, t->dtype), w->root, b->comm, &q.r[0]);
    rc = mt_mpi_error(api, e, "MPI_Ireduce");
    bool stranded;
    rc = mt__finish(b, &q, rc == 0, rc, deadline, w, &stranded);
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
    mt__mpi_backend *b = mt__mb(pb);
    mt__reqs q;
    mt__reqs_init(&q, b->api, 1);
    int rc = mt_mpi_error(b->api, b->api->Ibarrier(b->comm, &q.r[0]), "MPI_Ibarrier");
    bool stranded;
    return mt__finish(b, &q, rc == 0, rc, deadline, w, &stranded);
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

static void
mt__list_unpack(mt_work *w, int first, int size, size_t len, const char *scratch)
{
    for (int r = 0; r < size; r++) {
        memcpy(mt_tensor_data(w->tensors[first + r]), scratch + (size_t)r * len, len);
    }
}

/* Runs one request made by `issue` (its rc), waits, then unpacks/frees the scratch. */
static int
mt__one(mt__mpi_backend *b, mt_work *w, mt__reqs *q, int e, const char *fn, int64_t deadline,
        char *scratch, int unpack_first, size_t len)
{
    int rc = mt_mpi_error(b->api, e, fn);
    bool stranded;
    rc = mt__finish(b, q, rc == 0, rc, deadline, w, &stranded);
    if (rc == 0 && scratch != NULL && unpack_first >= 0) {
        mt__list_unpack(w, unpack_first, b->base.size, len, scratch);
    }
    if (!stranded) {
        free(scratch);
    }
    return rc;
}

/* (input, outputs[size]) */
static int
mt__mpi_allgather(mt_pg_backend *pb, mt_work *w, int64_t deadline)
{
    mt__mpi_backend *b = mt__mb(pb);
    const mt_mpi_api *api = b->api;
    size_t len = mt__pg_nbytes(w->tensors[0]);
    mt_mpi_handle type;
    int count;
    if (mt__bytes(api, len, &type, &count, "allgather") < 0) {
        return MT_EINVAL;
    }
    char *scratch;
    char *out = mt__list_buffer(w, 1, pb->size, len, false, &scratch);
    if (out == NULL) {
        return MT_ENOMEM;
    }
    mt__reqs q;
    mt__reqs_init(&q, api, 1);
    int e = api->Iallgather(mt_tensor_data(w->tensors[0]), count, type, out, count, type,
                            b->comm, &q.r[0]);
    return mt__one(b, w, &q, e, "MPI_Iallgather", deadline, scratch, 1, len);
}

/* (input, outputs[size] on the root, NULLs elsewhere) */
static int
mt__mpi_gather(mt_pg_backend *pb, mt_work *w, int64_t deadline)
{
    mt__mpi_backend *b = mt__mb(pb);
    const mt_mpi_api *api = b->api;
    bool root = pb->rank == w->root;
    size_t len = mt__pg_nbytes(w->tensors[0]);
    mt_mpi_handle type;
    int count;
    if (mt__bytes(api, len, &type, &count, "gather") < 0) {
        return MT_EINVAL;
    }
    char *scratch = NULL, *out = NULL;
    if (root && (out = mt__list_buffer(w, 1, pb->size, len, false, &scratch)) == NULL) {
        return MT_ENOMEM;
    }
    mt__reqs q;
    mt__reqs_init(&q, api, 1);
    int e = api->Igather(mt_tensor_data(w->tensors[0]), count, type, out, count, type, w->root,
                         b->comm, &q.r[0]);
    return mt__one(b, w, &q, e, "MPI_Igather", deadline, scratch, 1, len);
}

/* (output, inputs[size] on the root, NULLs elsewhere) */
static int
mt__mpi_scatter(mt_pg_backend *pb, mt_work *w, int64_t deadline)
{
    mt__mpi_backend *b = mt__mb(pb);
    const mt_mpi_api *api = b->api;
    bool root = pb->rank == w->root;
    size_t len = mt__pg_nbytes(w->tensors[0]);
    mt_mpi_handle type;
    int count;
    if (mt__bytes(api, len, &type, &count, "scatter") < 0) {
        return MT_EINVAL;
    }
    char *scratch = NULL, *in = NULL;
    if (root && (in = mt__list_buffer(w, 1, pb->size, len, true, &scratch)) == NULL) {
        return MT_ENOMEM;
    }
    mt__reqs q;
    mt__reqs_init(&q, api, 1);
    int e = api->Iscatter(in, count, type, mt_tensor_data(w->tensors[0]), count, type, w->root,
                          b->comm, &q.r[0]);
    return mt__one(b, w, &q, e, "MPI_Iscatter", deadline, scratch, -1, len);
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
    mt__reqs q;
    mt__reqs_init(&q, api, 1);
    int e = api->Ireduce_scatter_block(in, r.data, count, r.type, mt__op(api, w->op, dt), b->comm,
                                       &q.r[0]);
    int rc = mt_mpi_error(api, e, "MPI_Ireduce_scatter_block");
    bool stranded;
    rc = mt__finish(b, &q, rc == 0, rc, deadline, w, &stranded);
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
    if (iv == NULL) {
        return mt_error_set(MT_ENOMEM, "out of memory in alltoall");
    }
    int *sc = iv, *sd = iv + n, *rcnt = iv + 2 * n, *rd = iv + 3 * n;
    size_t so = 0, ro = 0;
    for (int r = 0; r < n && rc == 0; r++) {
        if (w->lens[r] > (size_t)INT_MAX || w->lens[n + r] > (size_t)INT_MAX ||
            so > (size_t)INT_MAX || ro > (size_t)INT_MAX) {
            rc = mt_error_set(MT_EINVAL, "alltoall: too many bytes for one MPI call (MPI "
                              "counts are ints)");
            break;
        }
        sc[r] = (int)w->lens[r];
        sd[r] = (int)so;
        rcnt[r] = (int)w->lens[n + r];
        rd[r] = (int)ro;
        so += w->lens[r];
        ro += w->lens[n + r];
    }
    if (rc < 0) {
        free(iv);
        return rc;
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
            return mt_error_set(MT_ENOMEM, "out of memory in alltoall");
        }
        sbuf = scratch;
        rbuf = scratch + so;
        for (int r = 0; r < n; r++) {
            memcpy(sbuf + sd[r], mt_tensor_data(w->tensors[n + r]), (size_t)sc[r]);
        }
    }
    mt__reqs q;
    mt__reqs_init(&q, api, 1);
    mt_mpi_handle byte = api->types[MT_MPI_BYTE];
    int e = api->Ialltoallv(sbuf, sc, sd, byte, rbuf, rcnt, rd, byte, b->comm, &q.r[0]);
    rc = mt_mpi_error(api, e, "MPI_Ialltoallv");
    bool stranded;
    rc = mt__finish(b, &q, rc == 0, rc, deadline, w, &stranded);
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
    mt__reqs q;
    mt_mpi_status *st = calloc((size_t)n, sizeof(*st));
    int *counts = calloc((size_t)n, sizeof(*counts));
    mt_mpi_handle *types = calloc((size_t)n, sizeof(*types));
    if (st == NULL || counts == NULL || types == NULL || mt__reqs_init(&q, api, n) < 0) {
        free(st);
        free(counts);
        free(types);
        return mt_error_set(MT_ENOMEM, "out of memory running point-to-point operations");
    }
    int rc = 0, issued = 0;
    for (int i = 0; i < n && rc == 0; i++) {
        mt_work *w = works[i];
        const char *what = w->kind == MT__OP_SEND ? "send" : "recv";
        rc = mt__bytes(api, mt__pg_nbytes(w->tensors[0]), &types[i], &counts[i], what);
        if (rc < 0) {
            break;
        }
        int e;
        if (w->kind == MT__OP_SEND) {
            e = api->Isend(mt_tensor_data(w->tensors[0]), counts[i], types[i], w->root,
                           (int)w->tag, b->comm, &q.r[i]);
        }
        else {
            e = api->Irecv(mt_tensor_data(w->tensors[0]), counts[i], types[i],
                           w->root == MT_ANY_SOURCE ? MT_MPI_ANY_SOURCE : w->root, (int)w->tag,
                           b->comm, &q.r[i]);
        }
        rc = mt_mpi_error(api, e, w->kind == MT__OP_SEND ? "MPI_Isend" : "MPI_Irecv");
        issued += rc == 0;
    }
    bool stranded = false;
    if (issued > 0) {
        char keep[1024] = "";
        if (rc < 0) {
            snprintf(keep, sizeof(keep), "%s", mt_error_message());
        }
        int wrc = mt__wait(b, q.r, issued, st, deadline, works, n, &stranded);
        if (rc < 0) {
            mt_error_set(rc, "%s", keep);
        }
        else {
            rc = wrc;
        }
    }
    for (int i = 0; i < n && rc == 0; i++) {
        if (works[i]->kind != MT__OP_RECV) {
            continue;
        }
        int got = -1;
        api->Get_count(&st[i], types[i], &got);
        if (got != counts[i]) {
            rc = mt_error_set(MT_EINVAL, "recv: the message from rank %d has a different size "
                              "than the receiving tensor (%d units of MPI data, expected %d)",
                              st[i].source, got, counts[i]);
            break;
        }
        works[i]->src_rank = st[i].source;
    }
    if (!stranded) {
        free(st);
        free(counts);
        free(types);
    }
    mt__reqs_free(&q, stranded);
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
    atomic_store(&mt__mb(pb)->aborted, true);
}

static void
mt__mpi_destroy(mt_pg_backend *pb)
{
    mt__mpi_backend *b = mt__mb(pb);
    /* after MPI_Finalize (the exit hook ran first) nothing may be called */
    if (!atomic_load(&b->stranded) && mt_mpi_active()) {
        b->api->Comm_free(&b->comm);
        b->api->Comm_free(&b->mgmt);
    }
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
