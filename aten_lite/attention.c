/* aten_lite/attention.c - fused scaled dot-product attention (Note [Fused attention]). */
#include "aten_lite/attention.h"

#include <math.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "aten_lite/cpu/expf.h"
#include "aten_lite/cpu/reduce_kernels.h"
#include "aten_lite/cpu/tri_gemm.h"
#include "aten_lite/cpu/loops.h"
#include "aten_lite/linalg.h"
#include "aten_lite/parallel.h"
#include "aten_lite/softmax.h"
#include "c10_lite/checked.h"
#include "c10_lite/error.h"

/* query rows per task: a 64 x S block of scores stays in L2 for the usual S */
#define MT__SDPA_BLOCK 64
/* with is_causal, smaller blocks: block b's products stop at its last row's keys, so halving
 * the block skips a quarter of the products (the masked upper triangle) for a few more
 * (smaller) GEMM calls, a net gain measured at nanoGPT's sizes (L = 64, head size 32) */
#define MT__SDPA_CAUSAL_BLOCK 32

enum { MT__Q, MT__K, MT__V, MT__M, MT__G, MT__NOPS };

typedef struct {
    mt_dtype dt;
    int64_t nbatch, L, S, E, Ev, nblk, blk; /* blk: query rows per block */
    int64_t *off;                   /* MT__NOPS offsets (elements) per batch entry */
    const char *base[MT__NOPS];     /* each operand's first element (NULL: absent) */
    int64_t rs[MT__NOPS];           /* row strides; the mask's column stride in m_cs */
    int64_t m_cs;
    size_t msz;                     /* the mask's item size */
    bool mask_bool, causal;
    bool rows;                      /* the float32 row path (Note [Fused attention], last part) */
    int64_t s8;                     /* S rounded up to 8 (the row path's key columns) */
    int64_t hl;                     /* the last batch dim's size (1: none): the row path's
                                     * gradients keep it inside the rows (Note [Fused attention]) */
    double scale;
    char *out, *lse;                /* forward results / the backward's saved ones */
    char *dq, *dk, *dv;             /* backward results */
    _Atomic int err;                /* first failure of a task (MT_ENOMEM) */
} mt__sdpa_job;

static void
mt__sdpa_exp_f64(double *e, const double *x, double m, int64_t n)
{
    for (int64_t i = 0; i < n; i++) {
        e[i] = exp(x[i] - m);
    }
}

/* The keys row i of a block may see: all `send` of them, or j <= i when causal. */
static inline int64_t
mt__sdpa_limit(const mt__sdpa_job *j, int64_t i, int64_t send)
{
    return j->causal ? (i + 1 < send ? i + 1 : send) : send;
}

/* Applies the mask to a row of scores: -inf where a bool mask is False, else + the float
 * mask.  MROW points to the mask's row (NULL: none). */
#define MT__SDPA_MASK(T, j, row, lim, mrow)                                                       \
    if ((mrow) != NULL) {                                                                         \
        if ((j)->mask_bool) {                                                                     \
            for (int64_t c = 0; c < (lim); c++) {                                                 \
                if (!((const bool *)(mrow))[c * (j)->m_cs]) {                                     \
                    (row)[c] = (T)-INFINITY;                                                      \
                }                                                                                 \
            }                                                                                     \
        }                                                                                         \
        else {                                                                                    \
            for (int64_t c = 0; c < (lim); c++) {                                                 \
                (row)[c] += ((const T *)(mrow))[c * (j)->m_cs];                                   \
            }                                                                                     \
        }                                                                                         \
    }

/* The first element of operand `op` for batch entry n (NULL when the operand is absent);
 * isz is the item size of q, k, v and the gradient (the mask has its own). */
static inline const char *
mt__sdpa_at(const mt__sdpa_job *j, int op, int64_t n, size_t isz)
{
    if (j->base[op] == NULL) {
        return NULL;
    }
    return j->base[op] + j->off[n * MT__NOPS + op] * (int64_t)(op == MT__M ? j->msz : isz);
}

/* The mask's row for query i of batch entry n (NULL: no mask). */
static inline const char *
mt__sdpa_mask_row(const mt__sdpa_job *j, int64_t n, int64_t i)
{
    const char *m = mt__sdpa_at(j, MT__M, n, 0);
    return m == NULL ? NULL : m + i * j->rs[MT__M] * (int64_t)j->msz;
}

/* Elements of one task's block of scores (at least one), or -1 when that overflows. */
static int64_t
mt__sdpa_cells(const mt__sdpa_job *j)
{
    int64_t cells;
    return mt_ckd_mul(&cells, j->blk, j->S > 0 ? j->S : 1) ? -1 : cells;
}

/* The scores of rows [i0, i0 + rows) of batch entry n against keys [0, send), scaled and
 * masked, into buf (rows x send).  0 or an error code. */
static int
mt__sdpa_scores(const mt__sdpa_job *j, int64_t n, int64_t i0, int64_t rows, int64_t send,
                void *buf)
{
    size_t isz = mt_dtype_itemsize(j->dt);
    const char *q = mt__sdpa_at(j, MT__Q, n, isz) + i0 * j->rs[MT__Q] * (int64_t)isz;
    const char *k = mt__sdpa_at(j, MT__K, n, isz);
    return mt_gemm_raw(j->dt, false, true, rows, send, j->E, j->scale, q, j->rs[MT__Q], k,
                       j->rs[MT__K], 0.0, buf);
}

/* ---- forward --------------------------------------------------------------------------- */

/* The max of row[0..n) in 8 lanes the compiler vectorises (-inf for an empty row); *nan set
 * when an element is NaN. */
#define MT__SDPA_ROW_MAX(T, NAME)                                                                 \
    MT_SIMD_CLONES static T NAME(const T *row, int64_t n, int *nan)                               \
    {                                                                                             \
        T m8[8];                                                                                  \
        int nan8[8] = {0};                                                                        \
        for (int k = 0; k < 8; k++) {                                                             \
            m8[k] = (T)-INFINITY;                                                                 \
        }                                                                                         \
        int64_t c = 0;                                                                            \
        for (; c + 8 <= n; c += 8) {                                                              \
            for (int k = 0; k < 8; k++) {                                                         \
                T v = row[c + k];                                                                 \
                m8[k] = v > m8[k] ? v : m8[k];                                                    \
                nan8[k] |= v != v;                                                                \
            }                                                                                     \
        }                                                                                         \
        T m = m8[0];                                                                              \
        int any = nan8[0];                                                                        \
        for (int k = 1; k < 8; k++) {                                                             \
            m = m8[k] > m ? m8[k] : m;                                                            \
            any |= nan8[k];                                                                       \
        }                                                                                         \
        for (; c < n; c++) {                                                                      \
            m = row[c] > m ? row[c] : m;                                                          \
            any |= row[c] != row[c];                                                              \
        }                                                                                         \
        *nan = any;                                                                               \
        return m;                                                                                 \
    }

/* The sum of row[0..n) in 8 lanes (vectorised; a fixed order, so results do not depend on
 * threads). */
#define MT__SDPA_ROW_SUM(T, NAME)                                                                 \
    MT_SIMD_CLONES static T NAME(const T *row, int64_t n)                                         \
    {                                                                                             \
        T s8[8] = {0};                                                                            \
        int64_t c = 0;                                                                            \
        for (; c + 8 <= n; c += 8) {                                                              \
            for (int k = 0; k < 8; k++) {                                                         \
                s8[k] += row[c + k];                                                              \
            }                                                                                     \
        }                                                                                         \
        for (; c < n; c++) {                                                                      \
            s8[c & 7] += row[c];                                                                  \
        }                                                                                         \
        return ((s8[0] + s8[1]) + (s8[2] + s8[3])) + ((s8[4] + s8[5]) + (s8[6] + s8[7]));       \
    }

MT__SDPA_ROW_MAX(double, mt__sdpa_max_f64)

/* float32: the reduction's vectorised max (Note [Vectorised float max]: NaN when an element
 * is), which the array form above does not become; causal rows are short and many. */
static inline float
mt__sdpa_max_f32(const float *row, int64_t n, int *nan)
{
    float m = mt_cpu_max_f32(row, n);
    *nan = m != m;
    return m;
}
MT__SDPA_ROW_SUM(float, mt__sdpa_sum_f32)
MT__SDPA_ROW_SUM(double, mt__sdpa_sum_f64)

/* Turns row r (query i) of a block's scores into probabilities in place (zeros past the
 * keys it may see) and returns its log-sum-exp (-inf: it sees no key, the row is zeros). */
#define MT__SDPA_ROW_PROBS(T, EXPS, MAX, SUM, LOG, NAME)                                          \
    static T NAME(const mt__sdpa_job *j, T *row, int64_t lim, int64_t send, const char *mrow)     \
    {                                                                                             \
        MT__SDPA_MASK(T, j, row, lim, mrow)                                                       \
        int nan;                                                                                  \
        T m = MAX(row, lim, &nan);                                                                \
        if (m == (T)-INFINITY && !nan) {                                                          \
            memset(row, 0, (size_t)send * sizeof(T));                                             \
            return (T)-INFINITY;                                                                  \
        }                                                                                         \
        if (nan) {                                                                                \
            m = (T)NAN;                                                                           \
        }                                                                                         \
        EXPS(row, row, m, lim);                                                                   \
        T s = SUM(row, lim);                                                                      \
        T inv = (T)1 / s;                                                                         \
        for (int64_t c = 0; c < lim; c++) {                                                       \
            row[c] *= inv;                                                                        \
        }                                                                                         \
        if (send > lim) {                                                                         \
            memset(row + lim, 0, (size_t)(send - lim) * sizeof(T));                               \
        }                                                                                         \
        return m + LOG(s);                                                                        \
    }

MT__SDPA_ROW_PROBS(float, mt_exp_shift_f32, mt__sdpa_max_f32, mt__sdpa_sum_f32, logf,
                   mt__sdpa_probs_f32)
MT__SDPA_ROW_PROBS(double, mt__sdpa_exp_f64, mt__sdpa_max_f64, mt__sdpa_sum_f64, log,
                   mt__sdpa_probs_f64)

static void
mt__sdpa_forward_tasks(void *ctx, int64_t begin, int64_t end)
{
    mt__sdpa_job *j = ctx;
    size_t isz = mt_dtype_itemsize(j->dt);
    bool dbl = j->dt == MT_FLOAT64;
    int64_t cells = mt__sdpa_cells(j);
    char *buf = cells < 0 ? NULL : mt_malloc_array(cells, isz);
    if (buf == NULL) {
        int zero = 0;
        atomic_compare_exchange_strong(&j->err, &zero, MT_ENOMEM);
        return;
    }
    for (int64_t t = begin; t < end; t++) {
        int64_t n = t / j->nblk, i0 = (t % j->nblk) * j->blk;
        int64_t rows = j->L - i0 < j->blk ? j->L - i0 : j->blk;
        int64_t send = j->causal ? (i0 + rows < j->S ? i0 + rows : j->S) : j->S;
        char *out = j->out + (n * j->L + i0) * j->Ev * (int64_t)isz;
        char *lse = j->lse + (n * j->L + i0) * (int64_t)isz;
        int rc = send > 0 ? mt__sdpa_scores(j, n, i0, rows, send, buf) : 0;
        if (rc < 0) {
            int zero = 0;
            atomic_compare_exchange_strong(&j->err, &zero, rc);
            break;
        }
        for (int64_t r = 0; r < rows; r++) {
            int64_t lim = mt__sdpa_limit(j, i0 + r, send);
            const char *mrow = mt__sdpa_mask_row(j, n, i0 + r);
            char *row = buf + r * send * (int64_t)isz;
            if (dbl) {
                ((double *)lse)[r] = mt__sdpa_probs_f64(j, (double *)row, lim, send, mrow);
            }
            else {
                ((float *)lse)[r] = mt__sdpa_probs_f32(j, (float *)row, lim, send, mrow);
            }
        }
        const char *v = mt__sdpa_at(j, MT__V, n, isz);
        rc = mt_gemm_raw(j->dt, false, false, rows, j->Ev, send, 1.0, buf, send, v, j->rs[MT__V],
                         0.0, out);
        if (rc < 0) {
            int zero = 0;
            atomic_compare_exchange_strong(&j->err, &zero, rc);
            break;
        }
    }
    free(buf);
}

/* ---- float32 row path ------------------------------------------------------------------ */

#define MT__SDPA_PACK_E 64

/* Keys transposed, (E x s8) with zero columns past S: the right operand of q k^T as
 * mt_tri_gemm_f32 reads it.  k is (S x E) with row stride rs. */
static void
mt__sdpa_pack_t_f32(float *kt, const float *k, int64_t S, int64_t E, int64_t rs, int64_t s8)
{
    /* by blocks of 8 keys: 8 rows read whole, then written as 32-byte pieces of kt's rows */
    for (int64_t c0 = 0; c0 < s8; c0 += 8) {
        int64_t w = S - c0 < 8 ? S - c0 : 8;
        float blk[8][MT__SDPA_PACK_E];
        for (int64_t e0 = 0; e0 < E; e0 += MT__SDPA_PACK_E) {
            int64_t we = E - e0 < MT__SDPA_PACK_E ? E - e0 : MT__SDPA_PACK_E;
            for (int64_t c = 0; c < 8; c++) {
                if (c < w) {
                    memcpy(blk[c], k + (c0 + c) * rs + e0, (size_t)we * sizeof(float));
                }
                else {
                    memset(blk[c], 0, (size_t)we * sizeof(float));
                }
            }
            for (int64_t e = 0; e < we; e++) {
                float piece[8];
                for (int c = 0; c < 8; c++) {
                    piece[c] = blk[c][e];
                }
                memcpy(kt + (e0 + e) * s8 + c0, piece, sizeof(piece));
            }
        }
    }
}

/* row[c] = exp(row[c] - m) for c < lim and zero for lim <= c < width (width a multiple of 8,
 * row[lim, lim rounded up to 8) finite scratch the vector loop may read). */
MT_WIDE_CLONES static void
mt__sdpa_exp_row_f32(float *row, int64_t lim, int64_t width, float m)
{
    int64_t n8 = (lim + 7) / 8 * 8;
    int tiny = 0;
    for (int64_t c = 0; c < lim; c++) {
        tiny |= row[c] - m < MT__EXPF_SUBNORMAL;
    }
    if (tiny) {
        /* results below float's normal range: libm's exp for those (Note [Vectorisable expf]) */
        for (int64_t c = 0; c < lim; c++) {
            float t = row[c] - m;
            row[c] = t < MT__EXPF_SUBNORMAL ? expf(t) : mt__expf_core(t);
        }
    }
    else {
        for (int64_t c = 0; c < n8; c++) {
            row[c] = mt__expf_core(row[c] - m);
        }
    }
    for (int64_t c = lim; c < width; c++) {
        row[c] = 0.0f;
    }
}

/* A row of scores (lim of them seen, width a multiple of 8) into probabilities in place, as
 * mt__sdpa_probs_f32; returns the log-sum-exp. */
static float
mt__sdpa_probs_rows_f32(float *row, int64_t lim, int64_t width)
{
    float m = mt_cpu_max_f32(row, lim);
    if (m == -INFINITY) {
        memset(row, 0, (size_t)width * sizeof(float));
        return -INFINITY;
    }
    mt__sdpa_exp_row_f32(row, lim, width, m);
    int64_t n8 = (lim + 7) / 8 * 8;
    float s = mt__sdpa_sum_f32(row, n8);
    float inv = 1.0f / s;
    for (int64_t c = 0; c < lim; c++) {
        row[c] *= inv;
    }
    return m + logf(s);
}

/* The row path's forward: each task is a block of query rows of one batch entry; the keys
 * are packed transposed once per entry (per task range). */
static void
mt__sdpa_forward_rows(void *ctx, int64_t begin, int64_t end)
{
    mt__sdpa_job *j = ctx;
    int64_t s8 = j->s8, nbuf, nkt, cells;
    float *buf = NULL;
    if (!mt_ckd_mul(&nbuf, j->blk, s8) && !mt_ckd_mul(&nkt, j->E, s8) &&
        !mt_ckd_add(&cells, nbuf, nkt)) {
        buf = mt_malloc_array(cells, sizeof(float));
    }
    if (buf == NULL) {
        int zero = 0;
        atomic_compare_exchange_strong(&j->err, &zero, MT_ENOMEM);
        return;
    }
    float *kt = buf + nbuf;
    int64_t packed = -1;
    for (int64_t t = begin; t < end; t++) {
        int64_t n = t / j->nblk, i0 = (t % j->nblk) * j->blk;
        int64_t rows = j->L - i0 < j->blk ? j->L - i0 : j->blk;
        int64_t send = j->causal ? (i0 + rows < j->S ? i0 + rows : j->S) : j->S;
        int64_t send8 = (send + 7) / 8 * 8;
        if (packed != n) {
            mt__sdpa_pack_t_f32(kt, (const float *)mt__sdpa_at(j, MT__K, n, sizeof(float)), j->S,
                                j->E, j->rs[MT__K], s8);
            packed = n;
        }
        const float *q = (const float *)mt__sdpa_at(j, MT__Q, n, sizeof(float)) + i0 * j->rs[MT__Q];
        float *out = (float *)j->out + (n * j->L + i0) * j->Ev;
        float *lse = (float *)j->lse + n * j->L + i0;
        mt_tri_gemm g = {.m = rows, .n = send8, .k = j->E, .a = q, .a_rs = j->rs[MT__Q],
                         .a_cs = 1, .b = kt, .ldb = s8, .c = buf, .ldc = send8,
                         .alpha = (float)j->scale, .accumulate = false,
                         .tri = j->causal ? MT_TRI_N : MT_TRI_NONE, .diag = i0};
        mt_tri_gemm_f32(&g);
        for (int64_t r = 0; r < rows; r++) {
            lse[r] = mt__sdpa_probs_rows_f32(buf + r * send8, mt__sdpa_limit(j, i0 + r, send), send8);
        }
        mt_tri_gemm pv = {.m = rows, .n = j->Ev, .k = send, .a = buf, .a_rs = send8, .a_cs = 1,
                          .b = (const float *)mt__sdpa_at(j, MT__V, n, sizeof(float)),
                          .ldb = j->rs[MT__V], .c = out, .ldc = j->Ev, .alpha = 1.0f,
                          .accumulate = false, .tri = j->causal ? MT_TRI_KHI : MT_TRI_NONE,
                          .diag = i0};
        mt_tri_gemm_f32(&pv);
    }
    free(buf);
}

/* ---- backward -------------------------------------------------------------------------- */

/* Row r of a block: P = exp(s - lse) over the keys the row sees (scores already masked),
 * zeros elsewhere and for a row that saw no key. */
#define MT__SDPA_ROW_RECOMPUTE(T, EXPS, NAME)                                                     \
    static void NAME(const mt__sdpa_job *j, T *row, int64_t lim, int64_t send, const char *mrow,  \
                     T lse)                                                                       \
    {                                                                                             \
        if (lse == (T)-INFINITY) {                                                                \
            memset(row, 0, (size_t)send * sizeof(T));                                             \
            return;                                                                               \
        }                                                                                         \
        MT__SDPA_MASK(T, j, row, lim, mrow)                                                       \
        EXPS(row, row, lse, lim);                                                                 \
        if (send > lim) {                                                                         \
            memset(row + lim, 0, (size_t)(send - lim) * sizeof(T));                               \
        }                                                                                         \
    }

MT__SDPA_ROW_RECOMPUTE(float, mt_exp_shift_f32, mt__sdpa_recompute_f32)
MT__SDPA_ROW_RECOMPUTE(double, mt__sdpa_exp_f64, mt__sdpa_recompute_f64)

/* dS = P * (dP - rowsum(do * out)) * scale, in place into dp (rows x send). */
#define MT__SDPA_ROW_DS(T, NAME)                                                                  \
    MT_SIMD_CLONES static void NAME(const T *p, T *dp, const T *go, const T *o, int64_t ev,       \
                                    int64_t send, T scale)                                        \
    {                                                                                             \
        T d8[8] = {0};                                                                            \
        int64_t c0 = 0;                                                                           \
        for (; c0 + 8 <= ev; c0 += 8) {                                                           \
            for (int k = 0; k < 8; k++) {                                                         \
                d8[k] += go[c0 + k] * o[c0 + k];                                                  \
            }                                                                                     \
        }                                                                                         \
        for (; c0 < ev; c0++) {                                                                   \
            d8[c0 & 7] += go[c0] * o[c0];                                                         \
        }                                                                                         \
        T d = ((d8[0] + d8[1]) + (d8[2] + d8[3])) + ((d8[4] + d8[5]) + (d8[6] + d8[7]));         \
        for (int64_t c = 0; c < send; c++) {                                                      \
            dp[c] = p[c] * (dp[c] - d) * scale;                                                   \
        }                                                                                         \
    }

MT__SDPA_ROW_DS(float, mt__sdpa_ds_f32)
MT__SDPA_ROW_DS(double, mt__sdpa_ds_f64)

/* One batch entry: every query block in turn (dk and dv accumulate over them). */
static int
mt__sdpa_backward_entry(mt__sdpa_job *j, int64_t n, char *p, char *dp)
{
    size_t isz = mt_dtype_itemsize(j->dt);
    bool dbl = j->dt == MT_FLOAT64;
    const char *q = mt__sdpa_at(j, MT__Q, n, isz), *k = mt__sdpa_at(j, MT__K, n, isz);
    const char *v = mt__sdpa_at(j, MT__V, n, isz);
    const char *go = mt__sdpa_at(j, MT__G, n, isz);
    char *dq = j->dq + n * j->L * j->E * (int64_t)isz;
    char *dk = j->dk + n * j->S * j->E * (int64_t)isz;
    char *dv = j->dv + n * j->S * j->Ev * (int64_t)isz;
    for (int64_t b = 0; b < j->nblk; b++) {
        int64_t i0 = b * j->blk;
        int64_t rows = j->L - i0 < j->blk ? j->L - i0 : j->blk;
        int64_t send = j->causal ? (i0 + rows < j->S ? i0 + rows : j->S) : j->S;
        const char *qb = q + i0 * j->rs[MT__Q] * (int64_t)isz;
        const char *gb = go + i0 * j->rs[MT__G] * (int64_t)isz;
        char *dqb = dq + i0 * j->E * (int64_t)isz;
        if (send == 0) {
            memset(dqb, 0, (size_t)(rows * j->E) * isz);
            continue;
        }
        int rc = mt__sdpa_scores(j, n, i0, rows, send, p);
        if (rc < 0) {
            return rc;
        }
        const char *lse = j->lse + (n * j->L + i0) * (int64_t)isz;
        for (int64_t r = 0; r < rows; r++) {
            int64_t lim = mt__sdpa_limit(j, i0 + r, send);
            const char *mrow = mt__sdpa_mask_row(j, n, i0 + r);
            char *row = p + r * send * (int64_t)isz;
            if (dbl) {
                mt__sdpa_recompute_f64(j, (double *)row, lim, send, mrow, ((const double *)lse)[r]);
            }
            else {
                mt__sdpa_recompute_f32(j, (float *)row, lim, send, mrow, ((const float *)lse)[r]);
            }
        }
        /* dv[0:send] += P^T do;  dP = do v[0:send]^T */
        if ((rc = mt_gemm_raw(j->dt, true, false, send, j->Ev, rows, 1.0, p, send, gb,
                              j->rs[MT__G], 1.0, dv)) < 0 ||
            (rc = mt_gemm_raw(j->dt, false, true, rows, send, j->Ev, 1.0, gb, j->rs[MT__G], v,
                              j->rs[MT__V], 0.0, dp)) < 0) {
            return rc;
        }
        const char *ob = j->out + (n * j->L + i0) * j->Ev * (int64_t)isz;
        for (int64_t r = 0; r < rows; r++) {
            const char *gr = gb + r * j->rs[MT__G] * (int64_t)isz;
            const char *orow = ob + r * j->Ev * (int64_t)isz;
            int64_t at = r * send * (int64_t)isz;
            if (dbl) {
                mt__sdpa_ds_f64((const double *)(p + at), (double *)(dp + at), (const double *)gr,
                                (const double *)orow, j->Ev, send, j->scale);
            }
            else {
                mt__sdpa_ds_f32((const float *)(p + at), (float *)(dp + at), (const float *)gr,
                                (const float *)orow, j->Ev, send, (float)j->scale);
            }
        }
        /* dq[block] = dS k[0:send];  dk[0:send] += dS^T q[block] */
        if ((rc = mt_gemm_raw(j->dt, false, false, rows, j->E, send, 1.0, dp, send, k,
                              j->rs[MT__K], 0.0, dqb)) < 0 ||
            (rc = mt_gemm_raw(j->dt, true, false, send, j->E, rows, 1.0, dp, send, qb,
                              j->rs[MT__Q], 1.0, dk)) < 0) {
            return rc;
        }
    }
    return 0;
}

/* The row path's gradient layout: batch entry n's first row of a (batch..., rows, cols)
 * gradient laid out as (batch[:-1]..., rows, batch[-1], cols), whose row stride is hl * cols. */
static inline int64_t
mt__sdpa_grad_off(const mt__sdpa_job *j, int64_t n, int64_t rows, int64_t cols)
{
    return ((n / j->hl) * rows * j->hl + n % j->hl) * cols;
}

/* The row path's backward for one batch entry (p, dp: blk x s8; kt: E x s8; vt: Ev x s8). */
static void
mt__sdpa_backward_rows_entry(mt__sdpa_job *j, int64_t n, float *p, float *dp, float *kt,
                             float *vt)
{
    int64_t s8 = j->s8;
    const float *q = (const float *)mt__sdpa_at(j, MT__Q, n, sizeof(float));
    const float *k = (const float *)mt__sdpa_at(j, MT__K, n, sizeof(float));
    const float *v = (const float *)mt__sdpa_at(j, MT__V, n, sizeof(float));
    const float *go = (const float *)mt__sdpa_at(j, MT__G, n, sizeof(float));
    float *dq = (float *)j->dq + mt__sdpa_grad_off(j, n, j->L, j->E);
    float *dk = (float *)j->dk + mt__sdpa_grad_off(j, n, j->S, j->E);
    float *dv = (float *)j->dv + mt__sdpa_grad_off(j, n, j->S, j->Ev);
    int64_t ldq = j->hl * j->E, ldv = j->hl * j->Ev;
    mt_tri_kind tn = j->causal ? MT_TRI_N : MT_TRI_NONE;
    mt_tri_kind khi = j->causal ? MT_TRI_KHI : MT_TRI_NONE;
    mt_tri_kind klo = j->causal ? MT_TRI_KLO : MT_TRI_NONE;
    mt__sdpa_pack_t_f32(kt, k, j->S, j->E, j->rs[MT__K], s8);
    mt__sdpa_pack_t_f32(vt, v, j->S, j->Ev, j->rs[MT__V], s8);
    for (int64_t b = 0; b < j->nblk; b++) {
        int64_t i0 = b * j->blk;
        int64_t rows = j->L - i0 < j->blk ? j->L - i0 : j->blk;
        int64_t send = j->causal ? (i0 + rows < j->S ? i0 + rows : j->S) : j->S;
        int64_t send8 = (send + 7) / 8 * 8;
        const float *qb = q + i0 * j->rs[MT__Q];
        const float *gb = go + i0 * j->rs[MT__G];
        const float *lse = (const float *)j->lse + n * j->L + i0;
        const float *ob = (const float *)j->out + (n * j->L + i0) * j->Ev;
        mt_tri_gemm g = {.m = rows, .n = send8, .k = j->E, .a = qb, .a_rs = j->rs[MT__Q],
                         .a_cs = 1, .b = kt, .ldb = s8, .c = p, .ldc = send8,
                         .alpha = (float)j->scale, .tri = tn, .diag = i0};
        mt_tri_gemm_f32(&g);
        for (int64_t r = 0; r < rows; r++) {
            float *row = p + r * send8;
            if (lse[r] == -INFINITY) {
                memset(row, 0, (size_t)send8 * sizeof(float));
            }
            else {
                mt__sdpa_exp_row_f32(row, mt__sdpa_limit(j, i0 + r, send), send8, lse[r]);
            }
        }
        if (b == 0) {
            /* dk and dv start here: the first block writes their rows [0, send), the rows past
             * it no block of queries sees until a later block adds to them */
            for (int64_t r = send; r < j->S; r++) {
                memset(dk + r * ldq, 0, (size_t)j->E * sizeof(float));
                memset(dv + r * ldv, 0, (size_t)j->Ev * sizeof(float));
            }
        }
        /* dv[0:send] += P^T do;  dP = do v[0:send]^T */
        g = (mt_tri_gemm){.m = send, .n = j->Ev, .k = rows, .a = p, .a_rs = 1, .a_cs = send8,
                          .b = gb, .ldb = j->rs[MT__G], .c = dv, .ldc = ldv, .alpha = 1.0f,
                          .accumulate = b > 0, .tri = klo, .diag = i0};
        mt_tri_gemm_f32(&g);
        g = (mt_tri_gemm){.m = rows, .n = send8, .k = j->Ev, .a = gb, .a_rs = j->rs[MT__G],
                          .a_cs = 1, .b = vt, .ldb = s8, .c = dp, .ldc = send8, .alpha = 1.0f,
                          .tri = tn, .diag = i0};
        mt_tri_gemm_f32(&g);
        for (int64_t r = 0; r < rows; r++) {
            int64_t n8 = (mt__sdpa_limit(j, i0 + r, send) + 7) / 8 * 8;
            float *dpr = dp + r * send8;
            mt__sdpa_ds_f32(p + r * send8, dpr, gb + r * j->rs[MT__G], ob + r * j->Ev, j->Ev, n8,
                            (float)j->scale);
            memset(dpr + n8, 0, (size_t)(send8 - n8) * sizeof(float));
        }
        /* dq[block] = dS k[0:send];  dk[0:send] += dS^T q[block] */
        g = (mt_tri_gemm){.m = rows, .n = j->E, .k = send, .a = dp, .a_rs = send8, .a_cs = 1,
                          .b = k, .ldb = j->rs[MT__K], .c = dq + i0 * ldq, .ldc = ldq,
                          .alpha = 1.0f, .tri = khi, .diag = i0};
        mt_tri_gemm_f32(&g);
        g = (mt_tri_gemm){.m = send, .n = j->E, .k = rows, .a = dp, .a_rs = 1, .a_cs = send8,
                          .b = qb, .ldb = j->rs[MT__Q], .c = dk, .ldc = ldq, .alpha = 1.0f,
                          .accumulate = b > 0, .tri = klo, .diag = i0};
        mt_tri_gemm_f32(&g);
    }
}

static void
mt__sdpa_backward_tasks(void *ctx, int64_t begin, int64_t end)
{
    mt__sdpa_job *j = ctx;
    if (j->rows) {
        int64_t nbuf, nt, cells = -1;
        if (!mt_ckd_mul(&nbuf, j->blk, j->s8) && !mt_ckd_add(&nt, j->E, j->Ev) &&
            !mt_ckd_mul(&nt, nt, j->s8) && !mt_ckd_mul(&cells, nbuf, 2)) {
            cells = mt_ckd_add(&cells, cells, nt) ? -1 : cells;
        }
        float *buf = cells < 0 ? NULL : mt_malloc_array(cells, sizeof(float));
        if (buf == NULL) {
            int zero = 0;
            atomic_compare_exchange_strong(&j->err, &zero, MT_ENOMEM);
            return;
        }
        for (int64_t n = begin; n < end; n++) {
            mt__sdpa_backward_rows_entry(j, n, buf, buf + nbuf, buf + 2 * nbuf,
                                         buf + 2 * nbuf + j->E * j->s8);
        }
        free(buf);
        return;
    }
    size_t isz = mt_dtype_itemsize(j->dt);
    int64_t cells = mt__sdpa_cells(j);
    char *p = cells < 0 || cells > INT64_MAX / 2 ? NULL : mt_malloc_array(2 * cells, isz);
    int rc = p == NULL ? MT_ENOMEM : 0;
    for (int64_t n = begin; n < end && rc == 0; n++) {
        rc = mt__sdpa_backward_entry(j, n, p, p + cells * (int64_t)isz);
    }
    if (rc < 0) {
        int zero = 0;
        atomic_compare_exchange_strong(&j->err, &zero, rc);
    }
    free(p);
}

/* ---- setup ----------------------------------------------------------------------------- */

/* Whether t has the rows a GEMM reads: unit stride along the last dim, a row stride of at
 * least the row's length (any stride where a dim has size 1). */
static bool
mt__sdpa_rows_ok(const mt_tensor *t)
{
    int nd = t->ndim;
    int64_t cols = t->sizes[nd - 1], rows = t->sizes[nd - 2];
    bool unit = cols <= 1 || t->strides[nd - 1] == 1;
    bool rs = rows <= 1 || t->strides[nd - 2] >= (cols > 1 ? cols : 1);
    return unit && rs;
}

/* The row stride a GEMM is given (any valid value when there is at most one row). */
static int64_t
mt__sdpa_row_stride(const mt_tensor *t)
{
    int nd = t->ndim;
    int64_t cols = t->sizes[nd - 1] > 1 ? t->sizes[nd - 1] : 1;
    return t->sizes[nd - 2] <= 1 ? cols : t->strides[nd - 2];
}

static bool
mt__sdpa_same_batch(const mt_tensor *a, const mt_tensor *b)
{
    if (a->ndim != b->ndim) {
        return false;
    }
    for (int d = 0; d < a->ndim - 2; d++) {
        if (a->sizes[d] != b->sizes[d]) {
            return false;
        }
    }
    return true;
}

/* Checks the operands (Note [Fused attention]) and fills the job's geometry and batch
 * offsets (j->off, caller frees).  gout may be NULL (forward). */
static int
mt__sdpa_setup(const mt_sdpa_args *a, const mt_tensor *gout, mt__sdpa_job *j)
{
    const mt_tensor *q = a->q, *k = a->k, *v = a->v, *mask = a->mask;
    memset(j, 0, sizeof(*j));
    if (q->ndim < 2 || (q->dtype != MT_FLOAT32 && q->dtype != MT_FLOAT64) ||
        k->dtype != q->dtype || v->dtype != q->dtype || !mt__sdpa_same_batch(q, k) ||
        !mt__sdpa_same_batch(q, v) || q->sizes[q->ndim - 1] != k->sizes[k->ndim - 1] ||
        k->sizes[k->ndim - 2] != v->sizes[v->ndim - 2] || !mt__sdpa_rows_ok(q) ||
        !mt__sdpa_rows_ok(k) || !mt__sdpa_rows_ok(v) || mt_tensor_device(q).type != MT_CPU ||
        mt_tensor_device(k).type != MT_CPU || mt_tensor_device(v).type != MT_CPU) {
        return mt_error_set(MT_EINVAL, "fused attention: q, k, v of one float dtype with matching "
                            "batch, head and key sizes and unit inner strides");
    }
    int nd = q->ndim;
    j->dt = q->dtype;
    j->L = q->sizes[nd - 2];
    j->E = q->sizes[nd - 1];
    j->S = k->sizes[nd - 2];
    j->Ev = v->sizes[nd - 1];
    j->causal = a->causal;
    j->scale = a->scale;
    if (mask != NULL) {
        bool shape = mask->ndim == nd && mask->sizes[nd - 2] == j->L && mask->sizes[nd - 1] == j->S &&
                     mt__sdpa_same_batch(q, mask);
        if (!shape || (mask->dtype != MT_BOOL && mask->dtype != q->dtype) ||
            mt_tensor_device(mask).type != MT_CPU) {
            return mt_error_set(MT_EINVAL, "fused attention: the mask must be (batch..., L, S) of "
                                "dtype bool or the query's dtype");
        }
        j->mask_bool = mask->dtype == MT_BOOL;
        j->msz = mt_tensor_itemsize(mask);
        j->m_cs = mask->strides[nd - 1];
    }
    if (gout != NULL) {
        if (gout->ndim != nd || gout->dtype != q->dtype || !mt__sdpa_same_batch(q, gout) ||
            gout->sizes[nd - 2] != j->L || gout->sizes[nd - 1] != j->Ev || !mt__sdpa_rows_ok(gout)) {
            return mt_error_set(MT_EINVAL, "fused attention: the output's gradient must have the "
                                "output's shape and dtype and unit inner strides");
        }
    }
    int64_t nb = 1;
    for (int d = 0; d < nd - 2; d++) {
        if (mt_ckd_mul(&nb, nb, q->sizes[d])) {
            return mt_error_set(MT_ERUNTIME, "fused attention: too many batch entries");
        }
    }
    j->nbatch = nb;
    j->rows = j->dt == MT_FLOAT32 && mask == NULL && j->S > 0 && j->E % 8 == 0 &&
              j->Ev % 8 == 0 && j->E > 0 && j->Ev > 0;
    j->s8 = j->rows ? (j->S + 7) / 8 * 8 : 0;
    j->hl = nd > 2 && q->sizes[nd - 3] > 0 ? q->sizes[nd - 3] : 1;
    j->blk = j->causal && !j->rows ? MT__SDPA_CAUSAL_BLOCK : MT__SDPA_BLOCK;
    j->nblk = (j->L + j->blk - 1) / j->blk;
    int64_t tasks;
    if (mt_ckd_mul(&tasks, nb, j->nblk)) {
        return mt_error_set(MT_ERUNTIME, "fused attention: too many batch entries");
    }
    const mt_tensor *ops[MT__NOPS] = {q, k, v, mask, gout};
    for (int o = 0; o < MT__NOPS; o++) {
        j->base[o] = ops[o] == NULL ? NULL : mt_tensor_data(ops[o]);
        j->rs[o] = ops[o] == NULL ? 0 : (o == MT__M ? ops[o]->strides[nd - 2]
                                                    : mt__sdpa_row_stride(ops[o]));
    }
    j->off = mt_malloc_array(nb * MT__NOPS, sizeof(int64_t));
    if (j->off == NULL) {
        return mt_error_code();
    }
    for (int64_t n = 0; n < nb; n++) {
        int64_t rem = n;
        int64_t *off = j->off + n * MT__NOPS;
        memset(off, 0, MT__NOPS * sizeof(int64_t));
        for (int d = nd - 3; d >= 0; d--) {
            int64_t i = rem % q->sizes[d];
            rem /= q->sizes[d];
            for (int o = 0; o < MT__NOPS; o++) {
                if (ops[o] != NULL) {
                    off[o] += i * ops[o]->strides[d];
                }
            }
        }
    }
    return 0;
}

/* A new contiguous tensor of q's batch sizes followed by (d1) or (d1, d2), zeroed when
 * `zero`.  Caller owns; NULL on error. */
static mt_tensor *
mt__sdpa_result(const mt_tensor *like, int tail, int64_t d1, int64_t d2, bool zero)
{
    int64_t sizes[MT_MAX_DIMS];
    int nb = like->ndim - 2;
    memcpy(sizes, like->sizes, (size_t)nb * sizeof(int64_t));
    sizes[nb] = d1;
    sizes[nb + 1] = d2;
    mt_tensor *t = mt_tensor_empty(like->dtype, nb + tail, sizes, mt_tensor_device(like));
    if (t != NULL && zero && t->numel > 0) {
        memset(mt_tensor_data(t), 0, (size_t)t->numel * mt_tensor_itemsize(t));
    }
    return t;
}

/* The row path's gradient of q's batch sizes followed by (d1, d2), laid out as
 * (batch[:-1]..., d1, batch[-1], d2) (uninitialised), as torch's fused CPU kernel lays out
 * its gradients: (B, H, L, E) ones that are (B, L, H, E) in memory, whose transpose(1, 2)
 * back to the layout of a (B, L, H * E) projection is contiguous.  Caller owns; NULL on
 * error. */
static mt_tensor *
mt__sdpa_grad_result(const mt_tensor *like, int64_t d1, int64_t d2)
{
    int nd = like->ndim;
    if (nd < 3) {
        return mt__sdpa_result(like, 2, d1, d2, false);
    }
    int64_t sizes[MT_MAX_DIMS], strides[MT_MAX_DIMS];
    memcpy(sizes, like->sizes, (size_t)(nd - 3) * sizeof(int64_t));
    sizes[nd - 3] = d1;
    sizes[nd - 2] = like->sizes[nd - 3];
    sizes[nd - 1] = d2;
    mt_tensor *mem = mt_tensor_empty(like->dtype, nd, sizes, mt_tensor_device(like));
    if (mem == NULL) {
        return NULL;
    }
    memcpy(strides, mem->strides, (size_t)nd * sizeof(int64_t));
    sizes[nd - 3] = like->sizes[nd - 3];
    sizes[nd - 2] = d1;
    strides[nd - 3] = mem->strides[nd - 2];
    strides[nd - 2] = mem->strides[nd - 3];
    mt_tensor *t = mt_tensor_view_of(mem, nd, sizes, strides, mem->offset);
    mt_tensor_decref(mem);
    return t;
}

int
mt_sdpa_forward(const mt_sdpa_args *a, mt_tensor **out, mt_tensor **lse)
{
    mt__sdpa_job j;
    int rc = mt__sdpa_setup(a, NULL, &j);
    if (rc < 0) {
        return rc;
    }
    mt_tensor *o = mt__sdpa_result(a->q, 2, j.L, j.Ev, false);
    mt_tensor *l = mt__sdpa_result(a->q, 1, j.L, 0, false);
    if (o == NULL || l == NULL) {
        rc = mt_error_code();
        goto error;
    }
    j.out = mt_tensor_data(o);
    j.lse = mt_tensor_data(l);
    atomic_init(&j.err, 0);
    if (j.nbatch > 0 && j.L > 0) {
        mt_parallel_for(0, j.nbatch * j.nblk, 1, j.rows ? mt__sdpa_forward_rows
                                                        : mt__sdpa_forward_tasks, &j);
    }
    rc = atomic_load(&j.err);
    if (rc < 0) {
        mt_error_set(rc, "fused attention: out of memory");
        goto error;
    }
    free(j.off);
    *out = o;
    *lse = l;
    return 0;
error:
    free(j.off);
    mt_tensor_decref(o);
    mt_tensor_decref(l);
    return rc;
}

int
mt_sdpa_backward(const mt_sdpa_args *a, const mt_tensor *out, const mt_tensor *lse,
                 const mt_tensor *gout, mt_tensor **dq, mt_tensor **dk, mt_tensor **dv)
{
    mt__sdpa_job j;
    int rc = mt__sdpa_setup(a, gout, &j);
    if (rc < 0) {
        return rc;
    }
    mt_tensor *gq = NULL, *gk = NULL, *gv = NULL;
    if (!out->contiguous || !lse->contiguous || out->dtype != j.dt || lse->dtype != j.dt ||
        out->numel != j.nbatch * j.L * j.Ev || lse->numel != j.nbatch * j.L) {
        rc = mt_error_set(MT_EINVAL, "fused attention: out and lse must be the forward's results");
        goto error;
    }
    if (j.rows) {
        gq = mt__sdpa_grad_result(a->q, j.L, j.E);
        gk = mt__sdpa_grad_result(a->q, j.S, j.E);
        gv = mt__sdpa_grad_result(a->q, j.S, j.Ev);
    }
    else {
        gq = mt__sdpa_result(a->q, 2, j.L, j.E, false);
        gk = mt__sdpa_result(a->q, 2, j.S, j.E, true);
        gv = mt__sdpa_result(a->q, 2, j.S, j.Ev, true);
    }
    if (gq == NULL || gk == NULL || gv == NULL) {
        rc = mt_error_code();
        goto error;
    }
    j.out = mt_tensor_data(out);
    j.lse = mt_tensor_data(lse);
    j.dq = mt_tensor_data(gq);
    j.dk = mt_tensor_data(gk);
    j.dv = mt_tensor_data(gv);
    atomic_init(&j.err, 0);
    if (j.nbatch > 0 && j.L > 0) {
        mt_parallel_for(0, j.nbatch, 1, mt__sdpa_backward_tasks, &j);
    }
    else if (j.rows) {
        /* no query: the row path's dk and dv (uninitialised, dense) are zeros */
        memset(j.dk, 0, (size_t)gk->numel * sizeof(float));
        memset(j.dv, 0, (size_t)gv->numel * sizeof(float));
    }
    rc = atomic_load(&j.err);
    if (rc < 0) {
        mt_error_set(rc, "fused attention: out of memory");
        goto error;
    }
    free(j.off);
    *dq = gq;
    *dk = gk;
    *dv = gv;
    return 0;
error:
    free(j.off);
    mt_tensor_decref(gq);
    mt_tensor_decref(gk);
    mt_tensor_decref(gv);
    return rc;
}
