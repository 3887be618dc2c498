/* tests/c/test_c10d_collectives.c - every collective of the TCP process group on 1..4 forked ranks, against local references. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "c10_lite/error.h"
#include "c10_lite/tensor_impl.h"
#include "csrc/distributed/backend/process_group.h"
#include "tests/c/test_c10d_util.h"

#define TIMEOUT_MS 5000

static const mt_dtype ALL_DTYPES[] = {MT_BOOL,    MT_UINT8,    MT_INT8,    MT_INT16,
                                      MT_INT32,   MT_INT64,    MT_FLOAT16, MT_BFLOAT16,
                                      MT_FLOAT32, MT_FLOAT64};
#define NDTYPES ((int)(sizeof(ALL_DTYPES) / sizeof(ALL_DTYPES[0])))

/* A zero-filled 1-d tensor (zeroed so that no test sends uninitialised bytes). */
static mt_tensor *
mk(mt_dtype dt, int64_t n)
{
    mt_tensor *t = mt_tensor_empty(dt, 1, &n, MT_DEVICE_CPU);
    if (t != NULL) {
        memset(mt_tensor_data(t), 0, (size_t)n * mt_tensor_itemsize(t));
    }
    return t;
}

/* Element i of t set from an integer (floats hold small integers exactly). */
static void
put_int(mt_tensor *t, int64_t i, int64_t v)
{
    char *p = mt_tensor_data(t);
    switch (t->dtype) {
#define PUT(ENUM, name, ctype, acctype)                        \
    case ENUM:                                                 \
        ((ctype *)p)[i] = MT_STORE_##name((acctype)v);         \
        break;
        MT_FORALL_DTYPES(PUT)
    default:
        break;
    }
}

static void
put_double(mt_tensor *t, int64_t i, double v)
{
    char *p = mt_tensor_data(t);
    switch (t->dtype) {
#define PUTD(ENUM, name, ctype, acctype)                       \
    case ENUM:                                                 \
        ((ctype *)p)[i] = MT_STORE_##name((acctype)v);         \
        break;
        MT_FORALL_DTYPES(PUTD)
    default:
        break;
    }
}

static double
get_double(const mt_tensor *t, int64_t i)
{
    const char *p = mt_tensor_data(t);
    switch (t->dtype) {
#define GETD(ENUM, name, ctype, acctype) \
    case ENUM:                           \
        return (double)MT_LOAD_##name(((const ctype *)p)[i]);
        MT_FORALL_DTYPES(GETD)
    default:
        return 0;
    }
}

/* The input element i of `rank` for op: small values so every float result is exact. */
static int64_t
input_value(mt_dtype dt, mt_dist_op op, int rank, int64_t i)
{
    if (dt == MT_BOOL) {
        return (rank + i) % 3 == 0;
    }
    if (op == MT_DIST_PRODUCT) {
        return 1 + (rank + i) % 2 + (dt == MT_INT8 && i % 5 == 0 ? 60 : 0); /* int8 wraps */
    }
    if (op == MT_DIST_BAND || op == MT_DIST_BOR || op == MT_DIST_BXOR) {
        return (int64_t)((rank * 37 + i * 11) % 127);
    }
    int64_t v = (rank * 7 + i * 3) % 11;
    return dt == MT_UINT8 ? v * 20 : v - 5; /* uint8 sums wrap around 256 */
}

/* The expected value of element i after reducing all ranks' inputs, stored into ref. */
static void
reference(mt_tensor *ref, mt_dist_op op, int world, int64_t i)
{
    mt_dtype dt = ref->dtype;
    int64_t acc = input_value(dt, op, 0, i);
    for (int r = 1; r < world; r++) {
        int64_t v = input_value(dt, op, r, i);
        switch (op) {
        case MT_DIST_SUM:
        case MT_DIST_AVG:
            acc = dt == MT_BOOL ? (acc || v) : acc + v;
            break;
        case MT_DIST_PRODUCT:
            acc = dt == MT_BOOL ? (acc && v) : (int64_t)((uint64_t)acc * (uint64_t)v);
            break;
        case MT_DIST_MIN:
            acc = v < acc ? v : acc;
            break;
        case MT_DIST_MAX:
            acc = v > acc ? v : acc;
            break;
        case MT_DIST_BAND:
            acc &= v;
            break;
        case MT_DIST_BOR:
            acc |= v;
            break;
        case MT_DIST_BXOR:
            acc = dt == MT_BOOL ? (acc != v) : (acc ^ v);
            break;
        default:
            break;
        }
    }
    if (op == MT_DIST_AVG) {
        /* Matches the kernel: the sum rounded to the dtype, divided in the accumulation type. */
        put_int(ref, i, acc);
        double s = get_double(ref, i);
        if (dt == MT_FLOAT64) {
            put_double(ref, i, s / world);
        }
        else {
            put_double(ref, i, (double)((float)s / (float)world));
        }
        return;
    }
    if (mt_dtype_is_integral(dt, false)) {
        /* Wrap to the dtype's width the way the kernels do (two's complement). */
        char *p = mt_tensor_data(ref);
        switch (dt) {
        case MT_UINT8: ((uint8_t *)p)[i] = (uint8_t)(uint64_t)acc; break;
        case MT_INT8: ((int8_t *)p)[i] = (int8_t)(uint8_t)(uint64_t)acc; break;
        case MT_INT16: ((int16_t *)p)[i] = (int16_t)(uint16_t)(uint64_t)acc; break;
        case MT_INT32: ((int32_t *)p)[i] = (int32_t)(uint32_t)(uint64_t)acc; break;
        default: ((int64_t *)p)[i] = acc; break;
        }
        return;
    }
    put_int(ref, i, acc);
}

static bool
same_bytes(const mt_tensor *a, const mt_tensor *b)
{
    return a->numel == b->numel && a->dtype == b->dtype &&
           memcmp(mt_tensor_data(a), mt_tensor_data(b),
                  (size_t)a->numel * mt_tensor_itemsize(a)) == 0;
}

/* Runs a work to completion; returns its status. */
static int
run(mt_work *w)
{
    if (w == NULL) {
        return mt_error_code() ? mt_error_code() : MT_ERUNTIME;
    }
    int rc = mt_work_wait(w, TIMEOUT_MS * 2);
    mt_work_decref(w);
    return rc;
}

static mt_pg *
join_group(int rank, int world, mt_store **store_out, int64_t timeout_ms)
{
    mt_store *s;
    if (rank == 0) {
        s = mt_tcp_store_new("127.0.0.1", 0, world, true, TIMEOUT_MS, false);
        if (s != NULL) {
            atomic_store(&mt_t->port, mt_tcp_store_port(s));
        }
    }
    else {
        int port = mt_test_wait_port();
        s = port > 0 ? mt_tcp_store_new("127.0.0.1", port, world, false, TIMEOUT_MS, false)
                     : NULL;
    }
    if (s == NULL) {
        return NULL;
    }
    mt_store *ps = mt_prefix_store_new("default_pg", s);
    mt_pg *pg = mt_pg_new(ps, rank, world, timeout_ms);
    mt_store_decref(ps);
    *store_out = s;
    return pg;
}

/* Keeps the master's store alive until every rank is done with it. */
static void
leave_group(mt_pg *pg, mt_store *s, int world)
{
    mt_pg_destroy(pg);
    int64_t n = 0;
    mt_store_add(s, "left", 4, 1, &n);
    const char *k = "all-left";
    size_t kl = 8;
    if (n == world) {
        mt_store_set_str(s, k, "1");
    }
    else {
        mt_store_wait(s, 1, &k, &kl, TIMEOUT_MS);
    }
    mt_store_decref(s);
}

static void
test_allreduce(mt_pg *pg, int rank, int world)
{
    const int64_t counts[] = {1, 7, 1000, 140000};
    for (int d = 0; d < NDTYPES; d++) {
        mt_dtype dt = ALL_DTYPES[d];
        for (int op = 0; op < MT_DIST_NUM_OPS; op++) {
            bool valid = mt_dist_op_check(dt, (mt_dist_op)op) == 0;
            for (int c = 0; c < 4; c++) {
                int64_t n = counts[c];
                /* The big (ring) size for a few dtypes only, to keep the test quick. */
                if (c == 3 && !(dt == MT_FLOAT32 || dt == MT_INT64 || dt == MT_FLOAT16 ||
                                dt == MT_BOOL || dt == MT_INT8)) {
                    continue;
                }
                mt_tensor *t = mk(dt, n), *ref = mk(dt, n);
                for (int64_t i = 0; i < n; i++) {
                    put_int(t, i, input_value(dt, (mt_dist_op)op, rank, i));
                    reference(ref, (mt_dist_op)op, world, i);
                }
                mt_work *w = mt_pg_allreduce(pg, NULL, &t, 1, (mt_dist_op)op);
                if (!valid) {
                    CHECK(w == NULL && mt_error_code() == MT_ETYPE,
                          "allreduce %s on %s must be rejected", mt_dist_op_name(op),
                          mt_dtype_name(dt));
                    mt_work_decref(w);
                    mt_tensor_decref(t);
                    mt_tensor_decref(ref);
                    break;
                }
                int rc = run(w);
                CHECK(rc == 0, "allreduce %s %s n=%lld rc %d", mt_dist_op_name(op),
                      mt_dtype_name(dt), (long long)n, rc);
                bool ok = same_bytes(t, ref);
                if (!ok) {
                    for (int64_t i = 0; i < n; i++) {
                        if (get_double(t, i) != get_double(ref, i)) {
                            fprintf(stderr, "  [%lld] got %g want %g\n", (long long)i,
                                    get_double(t, i), get_double(ref, i));
                            break;
                        }
                    }
                }
                CHECK(ok, "allreduce %s %s n=%lld world %d matches the reference",
                      mt_dist_op_name(op), mt_dtype_name(dt), (long long)n, world);
                mt_tensor_decref(t);
                mt_tensor_decref(ref);
            }
        }
    }
}

/* Random floats: every rank must end with the same bytes (ring and small paths). */
static void
test_allreduce_identical(mt_pg *pg, int rank, int world)
{
    const int64_t counts[] = {33, 300001};
    for (int c = 0; c < 2; c++) {
        for (int d = 0; d < 2; d++) {
            mt_dtype dt = d == 0 ? MT_FLOAT32 : MT_BFLOAT16;
            int64_t n = counts[c];
            mt_tensor *t = mk(dt, n);
            unsigned s = 12345u + (unsigned)rank * 7919u;
            for (int64_t i = 0; i < n; i++) {
                s = s * 1103515245u + 12345u;
                put_double(t, i, ((double)(s >> 8) / (1 << 24) - 0.5) * 1e3);
            }
            CHECK(run(mt_pg_allreduce(pg, NULL, &t, 1, MT_DIST_SUM)) == 0, "random allreduce");
            uint64_t h = 1469598103934665603ull;
            const unsigned char *p = (const unsigned char *)mt_tensor_data(t);
            for (size_t i = 0; i < (size_t)n * mt_tensor_itemsize(t); i++) {
                h = (h ^ p[i]) * 1099511628211ull;
            }
            int64_t one = 1, wn = world;
            mt_tensor *mine = mt_tensor_empty(MT_INT64, 1, &one, MT_DEVICE_CPU);
            *(int64_t *)mt_tensor_data(mine) = (int64_t)h;
            mt_tensor *all = mt_tensor_empty(MT_INT64, 1, &wn, MT_DEVICE_CPU);
            mt_tensor *views[8];
            for (int r = 0; r < world; r++) {
                views[r] = mt_tensor_view_of(all, 1, &one, NULL, r);
            }
            CHECK(run(mt_pg_allgather(pg, NULL, views, mine)) == 0, "allgather of hashes");
            bool same = true;
            for (int r = 0; r < world; r++) {
                same = same && ((int64_t *)mt_tensor_data(all))[r] == (int64_t)h;
                mt_tensor_decref(views[r]);
            }
            CHECK(same, "allreduce of %lld random %s is bit-identical on every rank",
                  (long long)n, mt_dtype_name(dt));
            mt_tensor_decref(mine);
            mt_tensor_decref(all);
            mt_tensor_decref(t);
        }
    }
}

static void
test_broadcast_reduce(mt_pg *pg, int rank, int world)
{
    const int64_t counts[] = {5, 1 << 20};
    const mt_dtype dts[] = {MT_FLOAT32, MT_INT8, MT_FLOAT64};
    for (int root = 0; root < world; root++) {
        for (int c = 0; c < 2; c++) {
            for (int d = 0; d < 3; d++) {
                int64_t n = counts[c];
                mt_tensor *t = mk(dts[d], n);
                for (int64_t i = 0; i < n; i++) {
                    put_int(t, i, rank == root ? (i * 13 + root) % 100 : -1);
                }
                CHECK(run(mt_pg_broadcast(pg, NULL, &t, 1, root)) == 0, "broadcast");
                bool ok = true;
                for (int64_t i = 0; i < n && ok; i++) {
                    ok = get_double(t, i) == (double)((i * 13 + root) % 100);
                }
                CHECK(ok, "broadcast root %d %s n=%lld", root, mt_dtype_name(dts[d]),
                      (long long)n);
                mt_tensor_decref(t);
            }
        }
        /* reduce SUM and MAX to root; other ranks keep their input. */
        for (int op = 0; op < 2; op++) {
            mt_dist_op rop = op ? MT_DIST_MAX : MT_DIST_SUM;
            int64_t n = 1000;
            mt_tensor *t = mk(MT_INT32, n), *ref = mk(MT_INT32, n), *orig = mk(MT_INT32, n);
            for (int64_t i = 0; i < n; i++) {
                put_int(t, i, input_value(MT_INT32, rop, rank, i));
                put_int(orig, i, input_value(MT_INT32, rop, rank, i));
                reference(ref, rop, world, i);
            }
            CHECK(run(mt_pg_reduce(pg, NULL, t, root, rop)) == 0, "reduce");
            CHECK(same_bytes(t, rank == root ? ref : orig), "reduce %s root %d on rank %d",
                  mt_dist_op_name(rop), root, rank);
            mt_tensor_decref(t);
            mt_tensor_decref(ref);
            mt_tensor_decref(orig);
        }
        mt_tensor *f = mk(MT_FLOAT32, 4);
        for (int i = 0; i < 4; i++) {
            put_int(f, i, rank + i);
        }
        CHECK(run(mt_pg_reduce(pg, NULL, f, root, MT_DIST_AVG)) == 0, "reduce AVG");
        if (rank == root) {
            CHECK(fabs(get_double(f, 2) - ((world - 1) / 2.0 + 2)) < 1e-6, "reduce AVG value %g",
                  get_double(f, 2));
        }
        mt_tensor_decref(f);
    }
}

static void
test_gather_family(mt_pg *pg, int rank, int world)
{
    const int64_t counts[] = {3, 200000};
    for (int c = 0; c < 2; c++) {
        int64_t n = counts[c];
        mt_tensor *in = mk(MT_FLOAT32, n);
        for (int64_t i = 0; i < n; i++) {
            put_int(in, i, rank * 1000 + i % 1000);
        }
        mt_tensor *outs[8];
        for (int r = 0; r < world; r++) {
            outs[r] = mk(MT_FLOAT32, n);
        }
        CHECK(run(mt_pg_allgather(pg, NULL, outs, in)) == 0, "allgather");
        bool ok = true;
        for (int r = 0; r < world; r++) {
            for (int64_t i = 0; i < n && ok; i++) {
                ok = get_double(outs[r], i) == r * 1000 + i % 1000;
            }
        }
        CHECK(ok, "allgather n=%lld", (long long)n);
        for (int root = 0; root < world; root++) {
            for (int r = 0; r < world; r++) {
                memset(mt_tensor_data(outs[r]), 0, (size_t)n * 4);
            }
            CHECK(run(mt_pg_gather(pg, NULL, rank == root ? outs : NULL, in, root)) == 0,
                  "gather");
            if (rank == root) {
                ok = true;
                for (int r = 0; r < world; r++) {
                    for (int64_t i = 0; i < n && ok; i++) {
                        ok = get_double(outs[r], i) == r * 1000 + i % 1000;
                    }
                }
                CHECK(ok, "gather root %d n=%lld", root, (long long)n);
            }
            /* scatter: root sends outs[r] = r-specific data. */
            if (rank == root) {
                for (int r = 0; r < world; r++) {
                    for (int64_t i = 0; i < n; i++) {
                        put_int(outs[r], i, root * 100 + r * 10 + i % 10);
                    }
                }
            }
            mt_tensor *got = mk(MT_FLOAT32, n);
            CHECK(run(mt_pg_scatter(pg, NULL, got, rank == root ? outs : NULL, root)) == 0,
                  "scatter");
            ok = true;
            for (int64_t i = 0; i < n && ok; i++) {
                ok = get_double(got, i) == root * 100 + rank * 10 + i % 10;
            }
            CHECK(ok, "scatter root %d n=%lld", root, (long long)n);
            mt_tensor_decref(got);
        }
        for (int r = 0; r < world; r++) {
            mt_tensor_decref(outs[r]);
        }
        mt_tensor_decref(in);
    }
}

static void
test_reduce_scatter(mt_pg *pg, int rank, int world)
{
    const int64_t counts[] = {2, 100000};
    const mt_dtype dts[] = {MT_FLOAT32, MT_INT64, MT_FLOAT16};
    const mt_dist_op ops[] = {MT_DIST_SUM, MT_DIST_MIN, MT_DIST_AVG};
    for (int c = 0; c < 2; c++) {
        for (int d = 0; d < 3; d++) {
            for (int o = 0; o < 3; o++) {
                if (ops[o] == MT_DIST_AVG && dts[d] == MT_INT64) {
                    continue;
                }
                int64_t n = counts[c];
                mt_tensor *ins[8], *out = mk(dts[d], n), *ref = mk(dts[d], world * n);
                for (int r = 0; r < world; r++) {
                    ins[r] = mk(dts[d], n);
                    for (int64_t i = 0; i < n; i++) {
                        put_int(ins[r], i, input_value(dts[d], ops[o], rank, r * n + i));
                    }
                }
                for (int64_t i = 0; i < world * n; i++) {
                    reference(ref, ops[o], world, i);
                }
                CHECK(run(mt_pg_reduce_scatter(pg, NULL, out, ins, ops[o])) == 0,
                      "reduce_scatter");
                size_t isz = mt_tensor_itemsize(out);
                CHECK(memcmp(mt_tensor_data(out), mt_tensor_data(ref) + (size_t)(rank * n) * isz,
                             (size_t)n * isz) == 0,
                      "reduce_scatter %s %s n=%lld", mt_dist_op_name(ops[o]),
                      mt_dtype_name(dts[d]), (long long)n);
                for (int r = 0; r < world; r++) {
                    mt_tensor_decref(ins[r]);
                }
                mt_tensor_decref(out);
                mt_tensor_decref(ref);
            }
        }
    }
}

static void
test_alltoall(mt_pg *pg, int rank, int world)
{
    /* List form with per-pair sizes: rank r sends r + p + 1 elements to p. */
    mt_tensor *ins[8], *outs[8];
    for (int p = 0; p < world; p++) {
        ins[p] = mk(MT_INT16, rank + p + 1);
        for (int64_t i = 0; i < rank + p + 1; i++) {
            put_int(ins[p], i, rank * 100 + p * 10 + i);
        }
        outs[p] = mk(MT_INT16, p + rank + 1);
    }
    CHECK(run(mt_pg_alltoall(pg, NULL, outs, ins)) == 0, "all_to_all");
    bool ok = true;
    for (int p = 0; p < world; p++) {
        for (int64_t i = 0; i < p + rank + 1 && ok; i++) {
            ok = get_double(outs[p], i) == p * 100 + rank * 10 + i;
        }
        mt_tensor_decref(ins[p]);
        mt_tensor_decref(outs[p]);
    }
    CHECK(ok, "all_to_all with uneven sizes");

    /* Single form, 2-d rows of 3: rank r sends (p + 1) rows to p. */
    int64_t in_splits[8], out_splits[8], in_rows = 0, out_rows = 0;
    for (int p = 0; p < world; p++) {
        in_splits[p] = p + 1;
        out_splits[p] = rank + 1;
        in_rows += in_splits[p];
        out_rows += out_splits[p];
    }
    int64_t isz[2] = {in_rows, 3}, osz[2] = {out_rows, 3};
    mt_tensor *in = mt_tensor_empty(MT_FLOAT64, 2, isz, MT_DEVICE_CPU);
    mt_tensor *out = mt_tensor_empty(MT_FLOAT64, 2, osz, MT_DEVICE_CPU);
    for (int64_t i = 0; i < in_rows * 3; i++) {
        put_int(in, i, rank * 1000 + i);
    }
    CHECK(run(mt_pg_alltoall_single(pg, NULL, out, in, out_splits, in_splits)) == 0,
          "all_to_all_single with splits");
    ok = true;
    for (int p = 0; p < world && ok; p++) {
        /* From p: its rows destined to us start at row sum_{q<rank}(q+1). */
        int64_t start = (int64_t)rank * (rank + 1) / 2;
        for (int64_t j = 0; j < (rank + 1) * 3 && ok; j++) {
            ok = get_double(out, p * (rank + 1) * 3 + j) == p * 1000 + start * 3 + j;
        }
    }
    CHECK(ok, "all_to_all_single values");
    mt_tensor_decref(in);
    mt_tensor_decref(out);
    /* Equal splits. */
    in = mk(MT_INT32, world * 2);
    out = mk(MT_INT32, world * 2);
    for (int64_t i = 0; i < world * 2; i++) {
        put_int(in, i, rank * 100 + i);
    }
    CHECK(run(mt_pg_alltoall_single(pg, NULL, out, in, NULL, NULL)) == 0, "all_to_all_single");
    ok = true;
    for (int p = 0; p < world; p++) {
        ok = ok && get_double(out, p * 2) == p * 100 + rank * 2 &&
             get_double(out, p * 2 + 1) == p * 100 + rank * 2 + 1;
    }
    CHECK(ok, "all_to_all_single equal splits");
    mt_tensor_decref(in);
    mt_tensor_decref(out);
}

static void
test_barrier_p2p_async(mt_pg *pg, int rank, int world)
{
    if (rank == 0) {
        usleep(200000);
    }
    double t0 = mt_test_now();
    CHECK(run(mt_pg_barrier(pg, NULL)) == 0, "barrier");
    double dt = mt_test_now() - t0;
    if (rank != 0) {
        CHECK(dt > 0.1, "barrier waited for the late rank 0 (%.3f s)", dt);
    }
    if (world >= 2) {
        /* Tags: sent 1 then 2, received 2 then 1. */
        mt_tensor *a = mk(MT_INT64, 4), *b = mk(MT_INT64, 8);
        if (rank == 0) {
            for (int i = 0; i < 4; i++) put_int(a, i, 10 + i);
            for (int i = 0; i < 8; i++) put_int(b, i, 20 + i);
            mt_work *w1 = mt_pg_send(pg, NULL, a, 1, 1);
            mt_work *w2 = mt_pg_send(pg, NULL, b, 1, 2);
            CHECK(run(w1) == 0 && run(w2) == 0, "send with tags");
        }
        else if (rank == 1) {
            CHECK(run(mt_pg_recv(pg, NULL, b, 0, 2)) == 0, "recv tag 2 first");
            CHECK(run(mt_pg_recv(pg, NULL, a, 0, 1)) == 0, "recv tag 1 second");
            CHECK(get_double(a, 3) == 13 && get_double(b, 7) == 27, "tag matching");
        }
        mt_tensor_decref(a);
        mt_tensor_decref(b);
        /* Receive from any source. */
        mt_tensor *t = mk(MT_FLOAT32, 2);
        if (rank == 0) {
            int seen = 0;
            for (int k = 1; k < world; k++) {
                mt_work *w = mt_pg_recv(pg, NULL, t, MT_ANY_SOURCE, 7);
                int rc = mt_work_wait(w, TIMEOUT_MS);
                int src = mt_work_source_rank(w);
                CHECK(rc == 0 && src >= 1 && src < world && get_double(t, 1) == src,
                      "recv any source got rank %d", src);
                if (src >= 1 && src < world) {
                    seen |= 1 << src;
                }
                mt_work_decref(w);
            }
            CHECK(seen == ((1 << world) - 2), "every sender seen once");
        }
        else {
            put_int(t, 0, rank);
            put_int(t, 1, rank);
            CHECK(run(mt_pg_send(pg, NULL, t, 0, 7)) == 0, "send to rank 0");
        }
        mt_tensor_decref(t);
    }
    /* Async: many operations in flight, completed in order. */
    mt_work *ws[10];
    mt_tensor *ts[10];
    for (int k = 0; k < 10; k++) {
        ts[k] = mk(MT_INT32, 100 + k * 1000);
        for (int64_t i = 0; i < ts[k]->numel; i++) {
            put_int(ts[k], i, k + rank);
        }
        ws[k] = mt_pg_allreduce(pg, NULL, &ts[k], 1, MT_DIST_SUM);
    }
    for (int k = 9; k >= 0; k--) {
        CHECK(mt_work_wait(ws[k], TIMEOUT_MS) == 0 && mt_work_is_completed(ws[k]) &&
                  mt_work_is_success(ws[k]) && mt_work_exception_message(ws[k]) == NULL,
              "async work %d", k);
        CHECK(get_double(ts[k], ts[k]->numel - 1) == k * world + world * (world - 1) / 2,
              "async allreduce %d value", k);
        mt_work_decref(ws[k]);
        mt_tensor_decref(ts[k]);
    }
}

static void
test_bad_arguments(mt_pg *pg, int rank, int world)
{
    mt_tensor *f = mk(MT_FLOAT32, 8), *i32 = mk(MT_INT32, 8);
    CHECK(mt_pg_allreduce(pg, NULL, &f, 1, MT_DIST_BXOR) == NULL &&
              mt_error_code() == MT_ETYPE && strstr(mt_error_message(), "float32"),
          "bitwise op on float: %s", mt_error_message());
    CHECK(mt_pg_allreduce(pg, NULL, &i32, 1, MT_DIST_AVG) == NULL &&
              strstr(mt_error_message(), "AVG"),
          "AVG on int32: %s", mt_error_message());
    CHECK(mt_pg_broadcast(pg, NULL, &f, 1, world) == NULL &&
              strstr(mt_error_message(), "root"),
          "bad root: %s", mt_error_message());
    int64_t four = 4, two = 2;
    mt_tensor *nc = mt_tensor_view_of(f, 1, &four, &two, 0);
    CHECK(mt_pg_allreduce(pg, NULL, &nc, 1, MT_DIST_SUM) == NULL &&
              strstr(mt_error_message(), "contiguous"),
          "non-contiguous: %s", mt_error_message());
    mt_tensor *outs[8];
    for (int r = 0; r < world; r++) {
        outs[r] = r == world - 1 ? i32 : f;
    }
    CHECK(mt_pg_allgather(pg, NULL, outs, f) == NULL || world == 1,
          "allgather with a mismatched output dtype: %s", mt_error_message());
    CHECK(mt_pg_send(pg, NULL, f, rank, 0) == NULL, "send to self rejected");
    CHECK(mt_pg_send(pg, NULL, f, (rank + 1) % world, -1) == NULL || world == 1,
          "negative tag rejected");
    mt_tensor_decref(nc);
    mt_tensor_decref(f);
    mt_tensor_decref(i32);
}

/* Ranks disagree on sizes: an error on every rank, not a hang; then the group is broken. */
static void
test_mismatch(mt_pg *pg, int rank, int world)
{
    if (world < 2) {
        return;
    }
    mt_tensor *t = mk(MT_FLOAT32, 4 + rank);
    double t0 = mt_test_now();
    int rc = run(mt_pg_allreduce(pg, NULL, &t, 1, MT_DIST_SUM));
    CHECK(rc < 0 && mt_test_now() - t0 < 3.0, "mismatched allreduce fails (rc %d)", rc);
    t0 = mt_test_now();
    rc = run(mt_pg_barrier(pg, NULL));
    CHECK(rc < 0 && mt_test_now() - t0 < 0.5, "later ops fail fast on a broken group (rc %d)",
          rc);
    const char *msg = NULL;
    CHECK(mt_pg_is_broken(pg, &msg) && msg != NULL, "group reports broken");
    mt_tensor_decref(t);
}

/* Note [Issuing an operation]: a `now` call on an idle group runs on the
 * caller and returns completed; one issued behind queued work is left to the
 * worker; order holds. */
static void
test_inline(mt_pg *pg, int rank, int world)
{
    mt_tensor *a = mk(MT_FLOAT64, 3), *b = mk(MT_FLOAT64, 3);
    for (int i = 0; i < 3; i++) {
        ((double *)mt_tensor_data(a))[i] = rank + 1;
        ((double *)mt_tensor_data(b))[i] = rank + 1;
    }
    const mt_pg_call now = {.now = true};
    mt_work *w = mt_pg_allreduce(pg, &now, &a, 1, MT_DIST_SUM);
    REQUIRE(w != NULL, "issued now");
    CHECK(mt_work_is_completed(w) && mt_work_wait(w, 0) == 0,
          "an idle group lets the caller run it: complete on return");
    CHECK(get_double(a, 2) == world * (world + 1) / 2.0, "inline allreduce result");
    mt_work_decref(w);
    /* behind an asynchronous item: the worker runs both, in order */
    mt_work *w1 = mt_pg_allreduce(pg, NULL, &b, 1, MT_DIST_SUM);
    mt_work *w2 = mt_pg_allreduce(pg, &now, &b, 1, MT_DIST_MAX);
    REQUIRE(w1 != NULL && w2 != NULL, "issued behind async work");
    CHECK(mt_work_wait(w2, TIMEOUT_MS * 2) == 0 && mt_work_wait(w1, 0) == 0, "both complete");
    CHECK(get_double(b, 0) == world * (world + 1) / 2.0, "sum, then max of equal sums");
    mt_work_decref(w1);
    mt_work_decref(w2);
    /* an operation with its own time limit */
    const mt_pg_call quick = {.now = true, .timeout_ms = 5000};
    CHECK(run(mt_pg_barrier(pg, &quick)) == 0, "barrier with its own timeout");
    mt_tensor_decref(a);
    mt_tensor_decref(b);
}

static void
coll_rank(int rank, int world, void *arg)
{
    mt_store *s = NULL;
    mt_pg *pg = join_group(rank, world, &s, TIMEOUT_MS);
    REQUIRE(pg != NULL, "rank %d of %d joins", rank, world);
    CHECK(mt_pg_rank(pg) == rank && mt_pg_size(pg) == world, "rank/size");
    test_allreduce(pg, rank, world);
    test_allreduce_identical(pg, rank, world);
    test_broadcast_reduce(pg, rank, world);
    test_gather_family(pg, rank, world);
    test_reduce_scatter(pg, rank, world);
    test_alltoall(pg, rank, world);
    test_barrier_p2p_async(pg, rank, world);
    test_inline(pg, rank, world);
    test_bad_arguments(pg, rank, world);
    test_mismatch(pg, rank, world);
    leave_group(pg, s, world);
}

/* ---- faults ---- */

static void
dead_peer_rank(int rank, int world, void *arg)
{
    mt_store *s = NULL;
    mt_pg *pg = join_group(rank, world, &s, 2000);
    REQUIRE(pg != NULL, "join");
    CHECK(run(mt_pg_barrier(pg, NULL)) == 0, "barrier before the fault");
    if (rank == world - 1) {
        _exit(3); /* dies without a word, mid-job */
    }
    mt_tensor *t = mk(MT_FLOAT32, 100000);
    memset(mt_tensor_data(t), 0, 400000);
    double t0 = mt_test_now();
    int rc = run(mt_pg_allreduce(pg, NULL, &t, 1, MT_DIST_SUM));
    double dt = mt_test_now() - t0;
    CHECK(rc == MT_ECONN || rc == MT_ETIMEOUT, "allreduce with a dead peer fails (rc %d)", rc);
    CHECK(dt < 2.5, "survivor rank %d noticed within the timeout (%.3f s)", rank, dt);
    char want[32];
    snprintf(want, sizeof(want), "rank %d", world - 1);
    /* The survivor next to the dead rank names it; another survivor may
     * instead see the first one give up (a cascade), which names that rank. */
    CHECK(rc == MT_ETIMEOUT || strstr(mt_error_message(), want) != NULL ||
              strstr(mt_error_message(), "connection to rank") != NULL,
          "the error names a peer rank: %s", mt_error_message());
    t0 = mt_test_now();
    rc = run(mt_pg_allreduce(pg, NULL, &t, 1, MT_DIST_SUM));
    CHECK(rc < 0 && mt_test_now() - t0 < 0.5, "next op fails fast");
    mt_tensor_decref(t);
    mt_pg_destroy(pg);
    if (rank == 0) {
        usleep(300000); /* let rank 1 finish with the store */
    }
    mt_store_decref(s);
}

static void
hung_peer_rank(int rank, int world, void *arg)
{
    mt_store *s = NULL;
    mt_pg *pg = join_group(rank, world, &s, 1000);
    REQUIRE(pg != NULL, "join");
    if (rank == 1) {
        usleep(2500000); /* never joins the collective in time */
        mt_pg_abort(pg);
        mt_store_decref(s);
        return;
    }
    mt_tensor *t = mk(MT_INT64, 10);
    double t0 = mt_test_now();
    int rc = run(mt_pg_allreduce(pg, NULL, &t, 1, MT_DIST_SUM));
    double dt = mt_test_now() - t0;
    CHECK(rc == MT_ETIMEOUT, "allreduce with a hung peer times out (rc %d)", rc);
    CHECK(dt >= 0.9 && dt < 2.0, "timed out after the group timeout (%.3f s)", dt);
    CHECK(strstr(mt_error_message(), "rank 1") != NULL, "timeout names rank 1: %s",
          mt_error_message());
    /* Work.wait with a shorter timeout than the operation. */
    mt_tensor_decref(t);
    mt_pg_destroy(pg);
    usleep(1800000); /* keep the store up for rank 1 */
    mt_store_decref(s);
}

static void
abort_rank(int rank, int world, void *arg)
{
    mt_store *s = NULL;
    mt_pg *pg = join_group(rank, world, &s, 5000);
    REQUIRE(pg != NULL, "join");
    if (rank == 0) {
        mt_tensor *t = mk(MT_INT32, 4);
        mt_work *w = mt_pg_recv(pg, NULL, t, 1, 0); /* never sent */
        mt_work *w2 = mt_pg_barrier(pg, NULL);
        CHECK(mt_work_wait(w, 200) == MT_ETIMEOUT && !mt_work_is_completed(w),
              "Work.wait timeout while the operation runs");
        double t0 = mt_test_now();
        mt_pg_abort(pg);
        CHECK(mt_test_now() - t0 < 1.0, "abort interrupts a pending receive");
        CHECK(mt_work_is_completed(w) && mt_work_error(w) == MT_ECLOSED,
              "aborted receive fails with MT_ECLOSED (%d)", mt_work_error(w));
        CHECK(mt_work_is_completed(w2) && !mt_work_is_success(w2) &&
                  mt_work_exception_message(w2) != NULL,
              "queued work fails on abort");
        mt_work_decref(w);
        mt_work_decref(w2);
        mt_tensor_decref(t);
        atomic_store(&mt_t->flag, 1);
    }
    else {
        while (atomic_load(&mt_t->flag) == 0) {
            usleep(1000);
        }
        mt_pg_destroy(pg);
    }
    usleep(100000);
    mt_store_decref(s);
}

static void
bad_group_args(void)
{
    mt_store *h = mt_hash_store_new(1000);
    CHECK(mt_pg_new(h, 2, 2, 1000) == NULL && strstr(mt_error_message(), "rank 2"),
          "rank out of range: %s", mt_error_message());
    CHECK(mt_pg_new(h, 0, 0, 1000) == NULL, "world size 0");
    CHECK(mt_pg_new(h, 0, 1, 0) == NULL, "timeout 0");
    /* A rank whose peers never come: bounded by the timeout. */
    double t0 = mt_test_now();
    CHECK(mt_pg_new(h, 1, 2, 300) == NULL && mt_error_code() == MT_ETIMEOUT,
          "joining alone times out: %s", mt_error_message());
    CHECK(mt_test_now() - t0 < 2.0, "join timeout bounded");
    /* World size 1 works with any store. */
    mt_pg *pg = mt_pg_new(h, 0, 1, 1000);
    mt_tensor *t = mk(MT_FLOAT32, 3);
    for (int i = 0; i < 3; i++) {
        put_int(t, i, i);
    }
    CHECK(pg && run(mt_pg_allreduce(pg, NULL, &t, 1, MT_DIST_AVG)) == 0 &&
              get_double(t, 2) == 2,
          "world size 1");
    mt_tensor_decref(t);
    mt_pg_destroy(pg);
    mt_store_decref(h);
}

int
main(int argc, char **argv)
{
    mt_test_init();
    bad_group_args();
    for (int world = 1; world <= 4; world++) {
        double t0 = mt_test_now();
        mt_test_run_ranks(world, coll_rank, NULL, 60, 0);
        printf("world size %d: %.2f s\n", world, mt_test_now() - t0);
    }
    mt_test_run_ranks(3, dead_peer_rank, NULL, 20, 1u << 2);
    mt_test_run_ranks(2, hung_peer_rank, NULL, 20, 0);
    mt_test_run_ranks(2, abort_rank, NULL, 20, 0);
    return mt_test_report();
}
