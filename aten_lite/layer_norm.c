/* aten_lite/layer_norm.c - layer normalisation over the last dims (Note [Fused layer norm]). */
#include "aten_lite/layer_norm.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "aten_lite/cpu/loops.h"
#include "aten_lite/kernel_stubs.h"
#include "aten_lite/ops.h"
#include "aten_lite/parallel.h"
#include "c10_lite/error.h"

typedef struct {
    const char *x, *w, *b;
    char *out, *mean, *rstd;
    int64_t len;
    double eps;
} mt__ln_job;

/* the sum of n values in 8 lanes, the lanes added pairwise */
#define MT__LANE_SUM(T, n, EXPR, RESULT)                                                          \
    do {                                                                                          \
        T s8_[8] = {0};                                                                           \
        int64_t i_ = 0;                                                                           \
        for (; i_ + 8 <= (n); i_ += 8) {                                                          \
            for (int k_ = 0; k_ < 8; k_++) {                                                      \
                int64_t i = i_ + k_;                                                              \
                s8_[k_] += (EXPR);                                                                \
            }                                                                                     \
        }                                                                                         \
        for (; i_ < (n); i_++) {                                                                  \
            int64_t i = i_;                                                                       \
            s8_[i_ & 7] += (EXPR);                                                                \
        }                                                                                         \
        (RESULT) = ((s8_[0] + s8_[1]) + (s8_[2] + s8_[3])) + ((s8_[4] + s8_[5]) + (s8_[6] + s8_[7])); \
    } while (0)

#define MT__LN_ROWS(T, SQRT, NAME)                                                                \
    MT_SIMD_CLONES static void NAME(void *ctx, int64_t begin, int64_t end)                        \
    {                                                                                             \
        const mt__ln_job *j = ctx;                                                                \
        int64_t n = j->len;                                                                       \
        const T *restrict w = (const T *)j->w, *restrict b = (const T *)j->b;                     \
        for (int64_t r = begin; r < end; r++) {                                                   \
            const T *restrict x = (const T *)j->x + r * n;                                        \
            T *restrict y = (T *)j->out + r * n;                                                  \
            T s, v;                                                                               \
            MT__LANE_SUM(T, n, x[i], s);                                                          \
            T m = s / (T)n;                                                                       \
            MT__LANE_SUM(T, n, (x[i] - m) * (x[i] - m), v);                                       \
            T rs = (T)1 / SQRT(v / (T)n + (T)j->eps);                                             \
            ((T *)j->mean)[r] = m;                                                                \
            ((T *)j->rstd)[r] = rs;                                                               \
            if (w != NULL && b != NULL) {                                                         \
                for (int64_t i = 0; i < n; i++) {                                                 \
                    y[i] = (x[i] - m) * rs * w[i] + b[i];                                         \
                }                                                                                 \
            }                                                                                     \
            else if (w != NULL) {                                                                 \
                for (int64_t i = 0; i < n; i++) {                                                 \
                    y[i] = (x[i] - m) * rs * w[i];                                                \
                }                                                                                 \
            }                                                                                     \
            else if (b != NULL) {                                                                 \
                for (int64_t i = 0; i < n; i++) {                                                 \
                    y[i] = (x[i] - m) * rs + b[i];                                                \
                }                                                                                 \
            }                                                                                     \
            else {                                                                                \
                for (int64_t i = 0; i < n; i++) {                                                 \
                    y[i] = (x[i] - m) * rs;                                                       \
                }                                                                                 \
            }                                                                                     \
        }                                                                                         \
    }

MT__LN_ROWS(float, sqrtf, mt__ln_rows_f32)
MT__LN_ROWS(double, sqrt, mt__ln_rows_f64)

/* a float32/float64 CPU tensor of x's dtype, contiguous, with len elements (NULL passes) */
static bool
mt__ln_operand(const mt_tensor *t, const mt_tensor *x, int64_t numel)
{
    return t == NULL || (t->dtype == x->dtype && t->contiguous && t->numel == numel &&
                         mt_device_eq(mt_tensor_device(t), mt_tensor_device(x)));
}

/* x's sizes with the last nd set to 1 */
static mt_tensor *
mt__ln_stat(const mt_tensor *x, int nd)
{
    int64_t sizes[MT_MAX_DIMS];
    for (int d = 0; d < x->ndim; d++) {
        sizes[d] = d >= x->ndim - nd ? 1 : x->sizes[d];
    }
    return mt_tensor_empty(x->dtype, x->ndim, sizes, mt_tensor_device(x));
}

static int64_t
mt__ln_len(const mt_tensor *x, int nd)
{
    int64_t len = 1;
    for (int d = x->ndim - nd; d < x->ndim; d++) {
        len *= x->sizes[d];
    }
    return len;
}

static int
mt__ln_check(const mt_tensor *x, int nd)
{
    if ((x->dtype != MT_FLOAT32 && x->dtype != MT_FLOAT64) || !x->contiguous || nd < 1 ||
        nd > x->ndim || mt_norm_stub[mt_tensor_device(x).type] == NULL) {
        return mt_error_set(MT_EINVAL, "fused layer norm: a contiguous float32/float64 "
                            "tensor on a device with the kernels");
    }
    return 0;
}

int
mt_layer_norm(const mt_tensor *x, int nd, const mt_tensor *w, const mt_tensor *b, double eps,
              mt_tensor **out, mt_tensor **mean, mt_tensor **rstd)
{
    *out = *mean = *rstd = NULL;
    int rc = mt__ln_check(x, nd);
    if (rc < 0) {
        return rc;
    }
    int (*kernel)(const mt_tensor *, const mt_tensor *, const mt_tensor *, double, int64_t,
                  mt_tensor *, mt_tensor *, mt_tensor *) =
        MT_STUB_TRY(norm, layer_norm, mt_tensor_device(x).type);
    int64_t len = mt__ln_len(x, nd);
    if (len == 0 || !mt__ln_operand(w, x, len) || !mt__ln_operand(b, x, len) || kernel == NULL) {
        return mt_error_set(MT_EINVAL, "fused layer norm: rows of at least one element, weight "
                            "and bias contiguous of the row's length and the input's dtype");
    }
    mt_tensor *o = mt_empty_like(x, x->dtype), *m = mt__ln_stat(x, nd),
              *r = mt__ln_stat(x, nd);
    if (o == NULL || m == NULL || r == NULL) {
        mt_tensor_decref(o);
        mt_tensor_decref(m);
        mt_tensor_decref(r);
        return mt_error_code();
    }
    if (x->numel > 0 && (rc = kernel(x, w, b, eps, len, o, m, r)) < 0) {
        mt_tensor_decref(o);
        mt_tensor_decref(m);
        mt_tensor_decref(r);
        return rc;
    }
    *out = o;
    *mean = m;
    *rstd = r;
    return 0;
}

static int
mt__cpu_layer_norm(const mt_tensor *x, const mt_tensor *w, const mt_tensor *b, double eps,
                   int64_t len, mt_tensor *o, mt_tensor *m, mt_tensor *r)
{
    mt__ln_job j = {.x = mt_tensor_data(x), .w = w ? mt_tensor_data(w) : NULL,
                    .b = b ? mt_tensor_data(b) : NULL, .out = mt_tensor_data(o),
                    .mean = mt_tensor_data(m), .rstd = mt_tensor_data(r), .len = len,
                    .eps = eps};
    mt_parallel_for(0, x->numel / len, MT_GRAIN_SIZE / len + 1,
                    x->dtype == MT_FLOAT32 ? mt__ln_rows_f32 : mt__ln_rows_f64, &j);
    return MT_OK;
}

/* ---- the backward ---------------------------------------------------------------------------- */

typedef struct {
    const char *g, *gm, *gr, *x, *mean, *rstd, *w;
    char *dx;
    char *pw, *pb;   /* per block: partial sums of g xhat and of g (len each), or NULL */
    int64_t len, rows, block;
} mt__ln_bw_job;

#define MT__LN_BW_BLOCKS(T, NAME)                                                                 \
    MT_SIMD_CLONES static void NAME(void *ctx, int64_t begin, int64_t end)                        \
    {                                                                                             \
        const mt__ln_bw_job *j = ctx;                                                             \
        int64_t n = j->len;                                                                       \
        const T *restrict w = (const T *)j->w;                                                    \
        for (int64_t blk = begin; blk < end; blk++) {                                             \
            T *restrict pw = j->pw ? (T *)j->pw + blk * n : NULL;                                 \
            T *restrict pb = j->pb ? (T *)j->pb + blk * n : NULL;                                 \
            if (pw != NULL) {                                                                     \
                memset(pw, 0, (size_t)n * sizeof(T));                                             \
            }                                                                                     \
            if (pb != NULL) {                                                                     \
                memset(pb, 0, (size_t)n * sizeof(T));                                             \
            }                                                                                     \
            int64_t r1 = (blk + 1) * j->block < j->rows ? (blk + 1) * j->block : j->rows;         \
            for (int64_t r = blk * j->block; r < r1; r++) {                                       \
                const T *restrict g = (const T *)j->g + r * n;                                    \
                const T *restrict x = (const T *)j->x + r * n;                                    \
                T m = ((const T *)j->mean)[r], rs = ((const T *)j->rstd)[r];                      \
                if (pw != NULL) {                                                                 \
                    for (int64_t i = 0; i < n; i++) {                                             \
                        pw[i] += g[i] * ((x[i] - m) * rs);                                        \
                    }                                                                             \
                }                                                                                 \
                if (pb != NULL) {                                                                 \
                    for (int64_t i = 0; i < n; i++) {                                             \
                        pb[i] += g[i];                                                            \
                    }                                                                             \
                }                                                                                 \
                if (j->dx == NULL) {                                                              \
                    continue;                                                                     \
                }                                                                                 \
                T s1, s2;                                                                         \
                if (w != NULL) {                                                                  \
                    MT__LANE_SUM(T, n, g[i] * w[i], s1);                                          \
                    MT__LANE_SUM(T, n, g[i] * w[i] * ((x[i] - m) * rs), s2);                      \
                }                                                                                 \
                else {                                                                            \
                    MT__LANE_SUM(T, n, g[i], s1);                                                 \
                    MT__LANE_SUM(T, n, g[i] * ((x[i] - m) * rs), s2);                             \
                }                                                                                 \
                T a1 = s1 / (T)n, a2 = s2 / (T)n;                                                 \
                T gm = j->gm ? ((const T *)j->gm)[r] / (T)n : (T)0;                               \
                T gr = j->gr ? ((const T *)j->gr)[r] * rs * rs / (T)n : (T)0;                     \
                T *restrict dx = (T *)j->dx + r * n;                                              \
                for (int64_t i = 0; i < n; i++) {                                                 \
                    T xh = (x[i] - m) * rs;                                                       \
                    T gh = w != NULL ? g[i] * w[i] : g[i];                                        \
                    dx[i] = rs * (gh - a1 - xh * a2) + (gm - gr * xh);                            \
                }                                                                                 \
            }                                                                                     \
        }                                                                                         \
    }

MT__LN_BW_BLOCKS(float, mt__ln_bw_blocks_f32)
MT__LN_BW_BLOCKS(double, mt__ln_bw_blocks_f64)

/* the partial sums of the blocks, in block order, into out (len values) */
#define MT__LN_REDUCE(T, NAME)                                                                    \
    static void NAME(const char *parts, int64_t nblocks, int64_t n, char *out)                    \
    {                                                                                             \
        const T *p = (const T *)parts;                                                            \
        T *o = (T *)out;                                                                          \
        memcpy(o, p, (size_t)n * sizeof(T));                                                      \
        for (int64_t blk = 1; blk < nblocks; blk++) {                                             \
            for (int64_t i = 0; i < n; i++) {                                                     \
                o[i] += p[blk * n + i];                                                           \
            }                                                                                     \
        }                                                                                         \
    }

MT__LN_REDUCE(float, mt__ln_reduce_f32)
MT__LN_REDUCE(double, mt__ln_reduce_f64)

/* the rows' statistics tensors: x's dtype, contiguous, one value per row */
static bool
mt__ln_stat_ok(const mt_tensor *s, const mt_tensor *x, int64_t rows)
{
    return s == NULL || (s->dtype == x->dtype && s->contiguous && s->numel == rows &&
                         mt_device_eq(mt_tensor_device(s), mt_tensor_device(x)));
}

/* The cpu backward: blocks of rows in parallel, the weight and bias gradients from the
 * blocks' partial sums added in block order. */
static int
mt__cpu_layer_norm_backward(const mt_tensor *g, const mt_tensor *gm, const mt_tensor *gr,
                            const mt_tensor *x, const mt_tensor *mean, const mt_tensor *rstd,
                            const mt_tensor *w, int64_t len, mt_tensor *ox, mt_tensor *ow,
                            mt_tensor *ob)
{
    int64_t rows = x->numel / len;
    size_t es = x->dtype == MT_FLOAT32 ? sizeof(float) : sizeof(double);
    /* blocks of rows: their number depends on the shape only (results independent of the
     * thread count), at most 256 */
    int64_t block = rows / 256 + 1 > 64 ? rows / 256 + 1 : 64;
    int64_t nblocks = rows ? (rows + block - 1) / block : 0;
    char *pw = ow != NULL && nblocks ? malloc((size_t)(nblocks * len) * es) : NULL;
    char *pb = ob != NULL && nblocks ? malloc((size_t)(nblocks * len) * es) : NULL;
    if ((ow != NULL && nblocks && pw == NULL) || (ob != NULL && nblocks && pb == NULL)) {
        free(pw);
        free(pb);
        return mt_error_set(MT_ENOMEM, "layer norm backward: out of memory");
    }
    if (nblocks > 0) {
        mt__ln_bw_job j = {.g = mt_tensor_data(g), .gm = gm ? mt_tensor_data(gm) : NULL,
                           .gr = gr ? mt_tensor_data(gr) : NULL, .x = mt_tensor_data(x),
                           .mean = mt_tensor_data(mean), .rstd = mt_tensor_data(rstd),
                           .w = w ? mt_tensor_data(w) : NULL,
                           .dx = ox ? mt_tensor_data(ox) : NULL, .pw = pw, .pb = pb, .len = len,
                           .rows = rows, .block = block};
        mt_parallel_for(0, nblocks, 1,
                        x->dtype == MT_FLOAT32 ? mt__ln_bw_blocks_f32 : mt__ln_bw_blocks_f64, &j);
    }
    void (*reduce)(const char *, int64_t, int64_t, char *) =
        x->dtype == MT_FLOAT32 ? mt__ln_reduce_f32 : mt__ln_reduce_f64;
    if (ow != NULL) {
        if (nblocks) {
            reduce(pw, nblocks, len, mt_tensor_data(ow));
        }
        else {
            memset(mt_tensor_data(ow), 0, (size_t)len * es);
        }
    }
    if (ob != NULL) {
        if (nblocks) {
            reduce(pb, nblocks, len, mt_tensor_data(ob));
        }
        else {
            memset(mt_tensor_data(ob), 0, (size_t)len * es);
        }
    }
    free(pw);
    free(pb);
    return MT_OK;
}

static const mt_norm_kernels mt__cpu_norm_kernels = {
    .softmax_lastdim = mt__cpu_softmax_lastdim,
    .softmax_backward_lastdim = mt__cpu_softmax_backward_lastdim,
    .layer_norm = mt__cpu_layer_norm,
    .layer_norm_backward = mt__cpu_layer_norm_backward,
};

void
mt__cpu_norm_register(void)
{
    MT_REGISTER_STUB(norm, MT_CPU, &mt__cpu_norm_kernels);
}

int
mt_layer_norm_backward(const mt_tensor *g, const mt_tensor *gm, const mt_tensor *gr,
                       const mt_tensor *x, const mt_tensor *mean, const mt_tensor *rstd,
                       const mt_tensor *w, int nd, const bool want[3], mt_tensor **dx,
                       mt_tensor **dw, mt_tensor **db)
{
    *dx = *dw = *db = NULL;
    int rc = mt__ln_check(x, nd);
    if (rc < 0) {
        return rc;
    }
    int (*kernel)(const mt_tensor *, const mt_tensor *, const mt_tensor *, const mt_tensor *,
                  const mt_tensor *, const mt_tensor *, const mt_tensor *, int64_t, mt_tensor *,
                  mt_tensor *, mt_tensor *) =
        MT_STUB_TRY(norm, layer_norm_backward, mt_tensor_device(x).type);
    int64_t len = mt__ln_len(x, nd);
    int64_t rows = len ? x->numel / len : 0;
    if (len == 0 || !mt__ln_operand(g, x, x->numel) || !mt__ln_operand(w, x, len) ||
        !mt__ln_stat_ok(mean, x, rows) || !mt__ln_stat_ok(rstd, x, rows) || mean == NULL ||
        rstd == NULL || !mt__ln_stat_ok(gm, x, rows) || !mt__ln_stat_ok(gr, x, rows) ||
        g->ndim != x->ndim || (want[1] && w == NULL) || kernel == NULL) {
        return mt_error_set(MT_EINVAL, "fused layer norm backward: operands of the forward's "
                            "shapes and dtype, contiguous");
    }
    for (int d = 0; d < x->ndim; d++) {
        if (g->sizes[d] != x->sizes[d]) {
            return mt_error_set(MT_EINVAL, "fused layer norm backward: the gradient's shape "
                                "differs");
        }
    }
    int64_t wsizes[MT_MAX_DIMS];
    for (int d = 0; d < nd; d++) {
        wsizes[d] = x->sizes[x->ndim - nd + d];
    }
    mt_tensor *ox = want[0] ? mt_empty_like(x, x->dtype) : NULL;
    mt_tensor *ow = want[1] ? mt_tensor_empty(x->dtype, nd, wsizes, mt_tensor_device(x)) : NULL;
    mt_tensor *ob = want[2] ? mt_tensor_empty(x->dtype, nd, wsizes, mt_tensor_device(x)) : NULL;
    if ((want[0] && ox == NULL) || (want[1] && ow == NULL) || (want[2] && ob == NULL) ||
        (rc = kernel(g, gm, gr, x, mean, rstd, w, len, ox, ow, ob)) < 0) {
        rc = mt_error_code();
        mt_tensor_decref(ox);
        mt_tensor_decref(ow);
        mt_tensor_decref(ob);
        return rc;
    }
    *dx = ox;
    *dw = ow;
    *db = ob;
    return 0;
}
