/* aten_lite/rnn.c - one LSTM layer and direction over all its time steps (Note [Fused LSTM]). */
#include "aten_lite/rnn.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "aten_lite/cpu/expf.h"
#include "aten_lite/cpu/loops.h"
#include "aten_lite/linalg.h"
#include "aten_lite/ops.h"
#include "c10_lite/error.h"

/* the per-step products and the gates' loops are compute-bound: also compiled for x86-64-v4
 * and v3, the products' multiply-adds fused (Note [Wide clones] in cpu/activation.c) */
#undef MT_SIMD_CLONES
#define MT_SIMD_CLONES MT_WIDE_CLONES
#define MT__FMA(T, a, b, c) _Generic((T)0, float: fmaf, default: fma)(a, b, c)

/* ---- the gates' functions: branch-free float32 forms the compiler vectorises ----------------- */

/* e^x for x in [-87, 88] (callers clamp, NaN to a bound, and select NaN themselves):
 * mt__expf_core (Note [Vectorisable expf]) with its multiply-adds fused (the clones that run
 * have FMA; fmaf is exact elsewhere too) and without its range checks, which
 * the gates' functions make redundant */
static inline float
mt__expf_in_range(float x)
{
    float fn = (x * 1.44269504088896341f + 12582912.0f) - 12582912.0f;
    float r = fmaf(fn, 2.12194440e-4f, fmaf(fn, -0.693359375f, x));
    float z = r * r;
    float y = fmaf(1.9875691500e-4f, r, 1.3981999507e-3f);
    y = fmaf(y, r, 8.3334519073e-3f);
    y = fmaf(y, r, 4.1665795894e-2f);
    y = fmaf(y, r, 1.6666665459e-1f);
    y = fmaf(y, r, 5.0000001201e-1f);
    y = fmaf(y, z, r + 1.0f);
    int32_t bits, n = (int32_t)fn;
    memcpy(&bits, &y, sizeof(bits));
    bits += n * (1 << 23);
    memcpy(&y, &bits, sizeof(y));
    return y;
}

/* 1 / (1 + e^-x), e^-x clamped at e^88 (below x = -88 the result is e^-88 rather than
 * smaller: both are 0 to float32 tolerance next to the other gates); NaN propagates */
static inline float
mt__sigmoidf_v(float x)
{
    float m = -x;
    m = m >= -87.0f ? m : -87.0f; /* NaN: -87 (the select below returns it) */
    m = m <= 88.0f ? m : 88.0f;
    float y = 1.0f / (1.0f + mt__expf_in_range(m));
    return x != x ? x : y;
}

/* tanh: an odd polynomial below |x| = 0.3 (no cancellation near 0), 1 - 2 / (e^2|x| + 1)
 * above (|x| clamped at 9, where tanh is 1 in float32); NaN propagates */
static inline float
mt__tanhf_v(float x)
{
    float ax = x < 0 ? -x : x;
    float x2 = x * x;
    float q = fmaf(x2, fmaf(x2, fmaf(x2, 0.02186949f, -0.05396825f), 0.13333333f), -0.33333333f);
    float p = fmaf(x * x2, q, x);
    float a9 = ax <= 9.0f ? ax : 9.0f; /* NaN: 9 (the select below returns it) */
    float r = 1.0f - 2.0f / (mt__expf_in_range(2.0f * a9) + 1.0f);
    r = x < 0 ? -r : r;
    r = ax < 0.3f ? p : r;
    return x != x ? x : r;
}

static inline double
mt__sigmoid_d(double x)
{
    return 1.0 / (1.0 + exp(-x));
}

#define MT__SIG(T, x) _Generic((T)0, float: mt__sigmoidf_v, default: mt__sigmoid_d)(x)
#define MT__TANH(T, x) _Generic((T)0, float: mt__tanhf_v, default: tanh)(x)

/* ---- the per-step products ------------------------------------------------------------------ */

/* C (r x n) = X + A (r x k, row-major) @ B (k x n, row-major) (X (r x n) NULL: zeros; X may be
 * C), for the few rows of one step: the BLAS would pack B (the same weight every step) anew on
 * each call, which costs more than the product.  Blocks of 8 rows x 16 columns of C are
 * accumulated in registers over all of k: each row of B is loaded once per block for 128
 * multiply-adds in 8 independent chains (which cover their latency), the 8 rows' values of A
 * for one q side by side in pk (8 k values, packed once per 8 rows); the loops over the 16
 * columns vectorise.  The last rows (fewer than 8) go by blocks of 4 rows, then one by one. */
#define MT__MM_ROWS(T, NAME)                                                                       \
    MT_SIMD_CLONES static void NAME(int64_t r, int64_t n, int64_t k, const T *restrict A,         \
                                    const T *restrict B, T *C, const T *X, T *restrict pk)        \
    {                                                                                              \
        enum { NB = 16 };                                                                          \
        for (int64_t i = 0; i < r;) {                                                              \
            int64_t ri = r - i >= 8 ? 8 : r - i < 4 ? r - i : 4;                                   \
            const T *a = A + i * k;                                                                \
            if (ri == 8) {                                                                         \
                for (int64_t q = 0; q < k; q++) {                                                  \
                    for (int ii = 0; ii < 8; ii++) {                                               \
                        pk[q * 8 + ii] = a[ii * k + q];                                            \
                    }                                                                              \
                }                                                                                  \
            }                                                                                      \
            for (int64_t j0 = 0; j0 < n; j0 += NB) {                                               \
                int64_t w = n - j0 < NB ? n - j0 : NB;                                             \
                T c[8][NB];                                                                        \
                if (w == NB && ri == 8) {                                                          \
                    T c0[NB] = {0}, c1[NB] = {0}, c2[NB] = {0}, c3[NB] = {0};                      \
                    T c4[NB] = {0}, c5[NB] = {0}, c6[NB] = {0}, c7[NB] = {0};                      \
                    for (int64_t q = 0; q < k; q++) {                                              \
                        const T *b = B + q * n + j0, *aq = pk + q * 8;                             \
                        for (int jj = 0; jj < NB; jj++) {                                          \
                            c0[jj] = MT__FMA(T, aq[0], b[jj], c0[jj]);                             \
                            c1[jj] = MT__FMA(T, aq[1], b[jj], c1[jj]);                             \
                            c2[jj] = MT__FMA(T, aq[2], b[jj], c2[jj]);                             \
                            c3[jj] = MT__FMA(T, aq[3], b[jj], c3[jj]);                             \
                            c4[jj] = MT__FMA(T, aq[4], b[jj], c4[jj]);                             \
                            c5[jj] = MT__FMA(T, aq[5], b[jj], c5[jj]);                             \
                            c6[jj] = MT__FMA(T, aq[6], b[jj], c6[jj]);                             \
                            c7[jj] = MT__FMA(T, aq[7], b[jj], c7[jj]);                             \
                        }                                                                          \
                    }                                                                              \
                    for (int jj = 0; jj < NB; jj++) {                                              \
                        c[0][jj] = c0[jj];                                                         \
                        c[1][jj] = c1[jj];                                                         \
                        c[2][jj] = c2[jj];                                                         \
                        c[3][jj] = c3[jj];                                                         \
                        c[4][jj] = c4[jj];                                                         \
                        c[5][jj] = c5[jj];                                                         \
                        c[6][jj] = c6[jj];                                                         \
                        c[7][jj] = c7[jj];                                                         \
                    }                                                                              \
                }                                                                                  \
                else if (w == NB && ri == 4) {                                                     \
                    T c0[NB] = {0}, c1[NB] = {0}, c2[NB] = {0}, c3[NB] = {0};                      \
                    for (int64_t q = 0; q < k; q++) {                                              \
                        const T *b = B + q * n + j0;                                               \
                        T a0 = a[q], a1 = a[k + q], a2 = a[2 * k + q], a3 = a[3 * k + q];          \
                        for (int jj = 0; jj < NB; jj++) {                                          \
                            c0[jj] = MT__FMA(T, a0, b[jj], c0[jj]);                                \
                            c1[jj] = MT__FMA(T, a1, b[jj], c1[jj]);                                \
                            c2[jj] = MT__FMA(T, a2, b[jj], c2[jj]);                                \
                            c3[jj] = MT__FMA(T, a3, b[jj], c3[jj]);                                \
                        }                                                                          \
                    }                                                                              \
                    for (int jj = 0; jj < NB; jj++) {                                              \
                        c[0][jj] = c0[jj];                                                         \
                        c[1][jj] = c1[jj];                                                         \
                        c[2][jj] = c2[jj];                                                         \
                        c[3][jj] = c3[jj];                                                         \
                    }                                                                              \
                }                                                                                  \
                else {                                                                             \
                    for (int64_t ii = 0; ii < ri; ii++) {                                          \
                        for (int64_t jj = 0; jj < w; jj++) {                                       \
                            c[ii][jj] = 0;                                                         \
                        }                                                                          \
                    }                                                                              \
                    for (int64_t q = 0; q < k; q++) {                                              \
                        const T *b = B + q * n + j0;                                               \
                        for (int64_t ii = 0; ii < ri; ii++) {                                      \
                            T av = a[ii * k + q];                                                  \
                            for (int64_t jj = 0; jj < w; jj++) {                                   \
                                c[ii][jj] = MT__FMA(T, av, b[jj], c[ii][jj]);                      \
                            }                                                                      \
                        }                                                                          \
                    }                                                                              \
                }                                                                                  \
                for (int64_t ii = 0; ii < ri; ii++) {                                              \
                    T *cr = C + (i + ii) * n + j0;                                                 \
                    if (X != NULL) {                                                               \
                        const T *xr = X + (i + ii) * n + j0;                                       \
                        for (int64_t jj = 0; jj < w; jj++) {                                       \
                            cr[jj] = xr[jj] + c[ii][jj];                                           \
                        }                                                                          \
                    }                                                                              \
                    else {                                                                         \
                        for (int64_t jj = 0; jj < w; jj++) {                                       \
                            cr[jj] = c[ii][jj];                                                    \
                        }                                                                          \
                    }                                                                              \
                }                                                                                  \
            }                                                                                      \
            i += ri;                                                                               \
        }                                                                                          \
    }
MT__MM_ROWS(float, mt__mm_rows_f32)
MT__MM_ROWS(double, mt__mm_rows_f64)
#define MT__MM_ROWS_T(T) _Generic((T)0, float: mt__mm_rows_f32, default: mt__mm_rows_f64)

/* rows at or below MT__SMALL_ROWS use mt__mm_rows while the weight (n x k elements) stays
 * within MT__SMALL_WEIGHT; more go to the BLAS.  mt__mm_rows reads the whole weight once per
 * block of rows, which is cheap while it sits in cache; a larger one (hidden sizes of 512 and up)
 * made the step bound by memory, where the BLAS packs it once and runs on every thread. */
#define MT__SMALL_ROWS 32
#define MT__SMALL_WEIGHT ((int64_t)1 << 18)

/* dst (cols x rows) = src (rows x cols) transposed */
#define MT__TRANSPOSE(T, NAME)                                                                     \
    static void NAME(const T *src, int64_t rows, int64_t cols, T *dst)                             \
    {                                                                                              \
        for (int64_t i = 0; i < rows; i++) {                                                       \
            for (int64_t j = 0; j < cols; j++) {                                                   \
                dst[j * rows + i] = src[i * cols + j];                                             \
            }                                                                                      \
        }                                                                                          \
    }
MT__TRANSPOSE(float, mt__transpose_f32)
MT__TRANSPOSE(double, mt__transpose_f64)
#define MT__TRANSPOSE_T(T) _Generic((T)0, float: mt__transpose_f32, default: mt__transpose_f64)

/* C (r x n) = X + A (r x k) @ B (X NULL: zeros; X may be C): B given both as is (k x n) and,
 * for the BLAS, its transpose bt (n x k); pk: scratch of 8 k values */
#define MT__STEP_MM(T, NAME)                                                                       \
    static int NAME(mt_dtype dt, int64_t r, int64_t n, int64_t k, const T *A, const T *b,          \
                    const T *bt, T *C, const T *X, T *pk)                                          \
    {                                                                                              \
        if (r <= MT__SMALL_ROWS && n * k <= MT__SMALL_WEIGHT) {                                    \
            MT__MM_ROWS_T(T)(r, n, k, A, b, C, X, pk);                                             \
            return 0;                                                                              \
        }                                                                                          \
        if (X != NULL && X != C) {                                                                 \
            memcpy(C, X, (size_t)(r * n) * sizeof(T));                                             \
        }                                                                                          \
        return mt_gemm_raw(dt, false, true, r, n, k, 1.0, A, k, bt, k, X ? 1.0 : 0.0, C);          \
    }
MT__STEP_MM(float, mt__step_mm_f32)
MT__STEP_MM(double, mt__step_mm_f64)
#define MT__STEP_MM_T(T) _Generic((T)0, float: mt__step_mm_f32, default: mt__step_mm_f64)

/* ---- forward ------------------------------------------------------------------------------ */

/* the rows of every step start at offsets[t] (steps + 1 entries, caller frees) */
static int64_t *
mt__lstm_offsets(const mt_lstm_args *a)
{
    int64_t *off = malloc((size_t)(a->steps + 1) * sizeof(int64_t));
    if (off == NULL) {
        mt_error_set(MT_ENOMEM, "lstm: out of memory");
        return NULL;
    }
    off[0] = 0;
    for (int64_t t = 0; t < a->steps; t++) {
        off[t + 1] = off[t] + a->batch_sizes[t];
    }
    return off;
}

/* One forward step's pointwise part over rows [0, r), one pass: gates (r, 4H) holds the gates
 * before their functions (b: b_hh, or zeros) and gets them activated; c (r, H) the state's
 * cells, updated to c'; cells (r, 2H) gets c' and tanh(c') (which the backward reads); h' goes
 * to hv (r rows of H). */
#define MT__LSTM_STEP_FWD(T, NAME)                                                                 \
    MT_SIMD_CLONES static void NAME(int64_t r, int64_t H, T *restrict gates, const T *restrict b,  \
                                    T *restrict c, T *restrict cells, T *restrict hv)              \
    {                                                                                              \
        int64_t G = 4 * H;                                                                         \
        for (int64_t i = 0; i < r; i++) {                                                          \
            T *p = gates + i * G, *ci = c + i * H, *cs = cells + 2 * i * H, *hi = hv + i * H;      \
            for (int64_t j = 0; j < H; j++) {                                                      \
                T gi = MT__SIG(T, p[j] + b[j]);                                                    \
                T gf = MT__SIG(T, p[H + j] + b[H + j]);                                            \
                T gg = MT__TANH(T, p[2 * H + j] + b[2 * H + j]);                                   \
                T go = MT__SIG(T, p[3 * H + j] + b[3 * H + j]);                                    \
                T cn = gf * ci[j] + gi * gg;                                                       \
                p[j] = gi;                                                                         \
                p[H + j] = gf;                                                                     \
                p[2 * H + j] = gg;                                                                 \
                p[3 * H + j] = go;                                                                 \
                T tc = MT__TANH(T, cn);                                                            \
                ci[j] = cn;                                                                        \
                cs[j] = cn;                                                                        \
                cs[H + j] = tc;                                                                    \
                hi[j] = go * tc;                                                                   \
            }                                                                                      \
        }                                                                                          \
    }
MT__LSTM_STEP_FWD(float, mt__lstm_step_fwd_f32)
MT__LSTM_STEP_FWD(double, mt__lstm_step_fwd_f64)

/* gates (N, 4H) holds x W_ih^T; each step adds h W_hh^T to its rows in place */
#define MT__LSTM_FORWARD(T, STEP, NAME)                                                            \
    static int NAME(const mt_lstm_args *a, const int64_t *off, T *out, T *h, T *c, T *gates,       \
                    T *cells, T *hpre)                                                             \
    {                                                                                              \
        mt_dtype dt = a->x->dtype;                                                                 \
        int64_t H = a->c0->sizes[1], P = a->h0->sizes[1], G = 4 * H;                               \
        const T *whh = (const T *)mt_tensor_data(a->w_hh);                                         \
        const T *whr = a->w_hr ? (const T *)mt_tensor_data(a->w_hr) : NULL;                        \
        /* b_ih + b_hh, the weights transposed, the products' scratch */                          \
        T *b = malloc((size_t)(G + P * G + (whr ? H * P : 0) + 8 * G) * sizeof(T));                \
        if (b == NULL) {                                                                           \
            return mt_error_set(MT_ENOMEM, "lstm: out of memory");                                 \
        }                                                                                          \
        T *whhT = b + G, *whrT = whhT + P * G; /* the weights transposed: (P, G), (H, P) */        \
        T *pk = whrT + (whr ? H * P : 0);      /* the products' scratch (k <= G) */                \
        MT__TRANSPOSE_T(T)(whh, G, P, whhT);                                                       \
        if (whr) {                                                                                 \
            MT__TRANSPOSE_T(T)(whr, P, H, whrT);                                                   \
        }                                                                                          \
        const T *bih = a->b_ih ? (const T *)mt_tensor_data(a->b_ih) : NULL;                        \
        const T *bhh = a->b_hh ? (const T *)mt_tensor_data(a->b_hh) : NULL;                        \
        for (int64_t j = 0; j < G; j++) {                                                          \
            b[j] = (bih ? bih[j] : 0) + (bhh ? bhh[j] : 0);                                        \
        }                                                                                          \
        int rc = 0;                                                                                \
        for (int64_t s = 0; s < a->steps && rc == 0; s++) {                                        \
            int64_t t = a->reverse ? a->steps - 1 - s : s, r = a->batch_sizes[t], o = off[t];      \
            rc = MT__STEP_MM_T(T)(dt, r, G, P, h, whhT, whh, gates + o * G, gates + o * G, pk);    \
            T *hdst = whr ? hpre + o * H : out + o * P;                                            \
            if (rc == 0) {                                                                         \
                STEP(r, H, gates + o * G, b, c, cells + 2 * o * H, hdst);                          \
            }                                                                                      \
            if (rc == 0 && whr) {                                                                  \
                rc = MT__STEP_MM_T(T)(dt, r, P, H, hdst, whrT, whr, out + o * P, NULL, pk);        \
            }                                                                                      \
            if (rc == 0) {                                                                         \
                memcpy(h, out + o * P, (size_t)(r * P) * sizeof(T));                               \
            }                                                                                      \
        }                                                                                          \
        free(b);                                                                                   \
        return rc;                                                                                 \
    }
MT__LSTM_FORWARD(float, mt__lstm_step_fwd_f32, mt__lstm_forward_f32)
MT__LSTM_FORWARD(double, mt__lstm_step_fwd_f64, mt__lstm_forward_f64)

/* the operands' shapes, dtypes and layouts */
static int
mt__lstm_check(const mt_lstm_args *a)
{
    mt_dtype dt = a->x->dtype;
    if (dt != MT_FLOAT32 && dt != MT_FLOAT64) {
        return mt_error_set(MT_ETYPE, "lstm: float32 or float64 operands, not %s",
                            mt_dtype_name(dt));
    }
    if (a->steps <= 0 || a->h0->ndim != 2 || a->c0->ndim != 2 || a->x->ndim != 2 ||
        a->w_ih->ndim != 2 || a->w_hh->ndim != 2) {
        return mt_error_set(MT_ERUNTIME, "lstm: bad operand shapes");
    }
    int64_t B = a->batch_sizes[0], H = a->c0->sizes[1], P = a->h0->sizes[1], n = 0;
    for (int64_t t = 0; t < a->steps; t++) {
        if (a->batch_sizes[t] <= 0 || a->batch_sizes[t] > B ||
            (t > 0 && a->batch_sizes[t] > a->batch_sizes[t - 1])) {
            return mt_error_set(MT_ERUNTIME, "lstm: batch sizes must be positive and not grow");
        }
        n += a->batch_sizes[t];
    }
    const mt_tensor *ts[] = {a->x, a->h0, a->c0, a->w_ih, a->w_hh, a->b_ih, a->b_hh, a->w_hr};
    for (int i = 0; i < 8; i++) {
        if (ts[i] != NULL && (ts[i]->dtype != dt || !ts[i]->contiguous ||
                              mt_tensor_device(ts[i]).type != MT_CPU)) {
            return mt_error_set(MT_ERUNTIME, "lstm: contiguous CPU operands of one dtype");
        }
    }
    const mt_tensor *bs[] = {a->b_ih, a->b_hh};
    for (int i = 0; i < 2; i++) {
        if (bs[i] != NULL && (bs[i]->ndim != 1 || bs[i]->sizes[0] != 4 * H)) {
            return mt_error_set(MT_ERUNTIME, "lstm: operand shapes do not agree");
        }
    }
    if (a->x->sizes[0] != n || a->w_ih->sizes[0] != 4 * H ||
        a->w_ih->sizes[1] != a->x->sizes[1] || a->h0->sizes[0] != B ||
        a->c0->sizes[0] != B || a->w_hh->sizes[0] != 4 * H || a->w_hh->sizes[1] != P ||
        (a->w_hr != NULL && (a->w_hr->ndim != 2 || a->w_hr->sizes[0] != P ||
                             a->w_hr->sizes[1] != H)) ||
        (a->w_hr == NULL && P != H)) {
        return mt_error_set(MT_ERUNTIME, "lstm: operand shapes do not agree");
    }
    return 0;
}

static mt_tensor *
mt__lstm_new(mt_dtype dt, int64_t rows, int64_t cols)
{
    int64_t s[2] = {rows, cols};
    return mt_tensor_empty(dt, 2, s, MT_DEVICE_CPU);
}

int
mt_lstm_forward(const mt_lstm_args *a, mt_tensor **out, mt_tensor **h_n, mt_tensor **c_n,
                mt_tensor **gates, mt_tensor **cells, mt_tensor **hpre)
{
    int rc = mt__lstm_check(a);
    if (rc < 0) {
        return rc;
    }
    mt_dtype dt = a->x->dtype;
    int64_t B = a->batch_sizes[0], H = a->c0->sizes[1], P = a->h0->sizes[1];
    int64_t N = a->x->sizes[0], K = a->x->sizes[1]; /* K: the input's size */
    int64_t *off = mt__lstm_offsets(a);
    mt_tensor *o = mt__lstm_new(dt, N, P), *h = mt__lstm_new(dt, B, P), *c = mt__lstm_new(dt, B, H);
    mt_tensor *g = mt__lstm_new(dt, N, 4 * H), *cs = mt__lstm_new(dt, N, 2 * H);
    mt_tensor *hp = a->w_hr ? mt__lstm_new(dt, N, H) : NULL;
    if (off == NULL || !o || !h || !c || !g || !cs || (a->w_hr && !hp)) {
        rc = off == NULL ? MT_ENOMEM : mt_error_set(MT_ENOMEM, "lstm: out of memory");
        goto fail;
    }
    memcpy(mt_tensor_data(h), mt_tensor_data(a->h0), (size_t)(B * P) * mt_tensor_itemsize(h));
    memcpy(mt_tensor_data(c), mt_tensor_data(a->c0), (size_t)(B * H) * mt_tensor_itemsize(c));
    /* the input's share of every step's gates, one product */
    rc = mt_gemm_raw(dt, false, true, N, 4 * H, K, 1.0, mt_tensor_data(a->x), K,
                     mt_tensor_data(a->w_ih), K, 0.0, mt_tensor_data(g));
    if (rc < 0) {
        goto fail;
    }
    if (dt == MT_FLOAT32) {
        rc = mt__lstm_forward_f32(a, off, (float *)mt_tensor_data(o), (float *)mt_tensor_data(h),
                                  (float *)mt_tensor_data(c), (float *)mt_tensor_data(g),
                                  (float *)mt_tensor_data(cs),
                                  hp ? (float *)mt_tensor_data(hp) : NULL);
    }
    else {
        rc = mt__lstm_forward_f64(a, off, (double *)mt_tensor_data(o),
                                  (double *)mt_tensor_data(h), (double *)mt_tensor_data(c),
                                  (double *)mt_tensor_data(g), (double *)mt_tensor_data(cs),
                                  hp ? (double *)mt_tensor_data(hp) : NULL);
    }
    if (rc < 0) {
        goto fail;
    }
    free(off);
    *out = o;
    *h_n = h;
    *c_n = c;
    *gates = g;
    *cells = cs;
    *hpre = hp;
    return 0;
fail:
    free(off);
    mt_tensor *all[] = {o, h, c, g, cs, hp};
    for (int i = 0; i < 6; i++) {
        mt_tensor_decref(all[i]);
    }
    return rc;
}

/* ---- backward ----------------------------------------------------------------------------- */

/* One backward step over rows [0, r): dh (r, H) the gradient of h' before the projection, dc
 * (r, H) that of c' (updated in place to that of c), cells (r, 2H) c' and tanh(c') as the
 * forward kept them, cprev the previous cells (r rows ldp apart); writes
 * the gradient of the gates before their functions into dg (r, 4H). */
#define MT__LSTM_STEP_BWD(T, NAME)                                                                 \
    MT_SIMD_CLONES static void NAME(int64_t r, int64_t H, const T *restrict gates,               \
                                    const T *restrict cells, const T *restrict cprev, int64_t ldp, \
                                    const T *restrict dh, T *restrict dc, T *restrict dg)          \
    {                                                                                              \
        int64_t G = 4 * H;                                                                         \
        for (int64_t i = 0; i < r; i++) {                                                          \
            const T *g = gates + i * G;                                                            \
            T *d = dg + i * G;                                                                     \
            for (int64_t j = 0; j < H; j++) {                                                      \
                T gi = g[j], gf = g[H + j], gg = g[2 * H + j], go = g[3 * H + j];                  \
                T tc = cells[(2 * i + 1) * H + j];                                                 \
                T dhv = dh[i * H + j];                                                             \
                T dct = dc[i * H + j] + dhv * go * (1 - tc * tc);                                  \
                d[j] = dct * gg * gi * (1 - gi);                                                   \
                d[H + j] = dct * cprev[i * ldp + j] * gf * (1 - gf);                               \
                d[2 * H + j] = dct * gi * (1 - gg * gg);                                           \
                d[3 * H + j] = dhv * tc * go * (1 - go);                                           \
                dc[i * H + j] = dct * gf;                                                          \
            }                                                                                      \
        }                                                                                          \
    }
MT__LSTM_STEP_BWD(float, mt__lstm_step_bwd_f32)
MT__LSTM_STEP_BWD(double, mt__lstm_step_bwd_f64)

/* db (n, double) += the sum of r rows of n values (rows n apart); dst (n) += src (n) */
#define MT__LSTM_SUMS(T, COLSUM, ADD)                                                              \
    MT_SIMD_CLONES static void COLSUM(const T *restrict rows, int64_t r, int64_t n,                \
                                      double *restrict db)                                         \
    {                                                                                              \
        for (int64_t i = 0; i < r; i++) {                                                          \
            for (int64_t j = 0; j < n; j++) {                                                      \
                db[j] += rows[i * n + j];                                                          \
            }                                                                                      \
        }                                                                                          \
    }                                                                                              \
    MT_SIMD_CLONES static void ADD(T *restrict dst, const T *restrict src, int64_t n)              \
    {                                                                                              \
        for (int64_t j = 0; j < n; j++) {                                                          \
            dst[j] += src[j];                                                                      \
        }                                                                                          \
    }
MT__LSTM_SUMS(float, mt__lstm_colsum_f32, mt__lstm_add_f32)
MT__LSTM_SUMS(double, mt__lstm_colsum_f64, mt__lstm_add_f64)
#define MT__LSTM_COLSUM_T(T)                                                                       \
    _Generic((T)0, float: mt__lstm_colsum_f32, default: mt__lstm_colsum_f64)
#define MT__LSTM_ADD_T(T) _Generic((T)0, float: mt__lstm_add_f32, default: mt__lstm_add_f64)

/* The previous state's rows [0, r) of step t (in processing order), w values each, into dst
 * (rows ldd apart): the state the previous processed step wrote for the rows it had (rows ld
 * apart in all), the initial state (rows w apart) for the rest. */
#define MT__LSTM_PREV(T, NAME)                                                                     \
    static void NAME(const mt_lstm_args *a, const int64_t *off, int64_t t, int64_t r, int64_t w,   \
                     int64_t ld, const T *all, const T *init, T *dst, int64_t ldd)                 \
    {                                                                                              \
        int64_t prev = a->reverse ? t + 1 : t - 1, have = 0;                                       \
        if (prev >= 0 && prev < a->steps) {                                                        \
            have = a->batch_sizes[prev] < r ? a->batch_sizes[prev] : r;                            \
            for (int64_t i = 0; i < have; i++) {                                                   \
                memcpy(dst + i * ldd, all + (off[prev] + i) * ld, (size_t)w * sizeof(T));          \
            }                                                                                      \
        }                                                                                          \
        for (int64_t i = have; i < r; i++) {                                                       \
            memcpy(dst + i * ldd, init + i * w, (size_t)w * sizeof(T));                            \
        }                                                                                          \
    }
MT__LSTM_PREV(float, mt__lstm_prev_f32)
MT__LSTM_PREV(double, mt__lstm_prev_f64)

/* dgx (N, 4H) the gates' gradients, hprev (N rows ldh apart, P values each) the state each
 * step read, db (4H; NULL: not wanted) the gates' gradients summed over the rows (in double, the
 * biases' gradient), want_h0: whether h0's gradient is wanted (else the first step's product
 * for it is skipped), dhr (N, P) the
 * gradient of each step's projected h (with a projection) */
#define MT__LSTM_BACKWARD(T, STEP, PREV, NAME)                                                     \
    static int NAME(const mt_lstm_args *a, const int64_t *off, const T *out, const T *gates,       \
                    const T *cells, const T *hpre, const T *gout, T *dh, T *dc, T *dgx,            \
                    T *hprev, int64_t ldh, double *db, bool want_h0, T *dhr)                       \
    {                                                                                              \
        mt_dtype dt = a->x->dtype;                                                                 \
        int64_t B = a->batch_sizes[0], H = a->c0->sizes[1], P = a->h0->sizes[1], G = 4 * H;       \
        const T *whh = (const T *)mt_tensor_data(a->w_hh);                                         \
        const T *whr = a->w_hr ? (const T *)mt_tensor_data(a->w_hr) : NULL;                        \
        const T *h0 = (const T *)mt_tensor_data(a->h0), *c0 = (const T *)mt_tensor_data(a->c0);    \
        T *cp = malloc((size_t)(2 * B * H + G * P + (whr ? H * P : 0) + 8 * G) * sizeof(T));       \
        if (cp == NULL) {                                                                          \
            return mt_error_set(MT_ENOMEM, "lstm: out of memory");                                 \
        }                                                                                          \
        T *dhp = cp + B * H;                                                                       \
        T *whhT = dhp + B * H, *whrT = whhT + G * P; /* (P, G), (H, P) */                          \
        T *pk = whrT + (whr ? H * P : 0); /* the products' scratch (k <= G) */                     \
        MT__TRANSPOSE_T(T)(whh, G, P, whhT);                                                       \
        if (whr) {                                                                                 \
            MT__TRANSPOSE_T(T)(whr, P, H, whrT);                                                   \
        }                                                                                          \
        int rc = 0;                                                                                \
        for (int64_t s = a->steps - 1; s >= 0 && rc == 0; s--) {                                   \
            int64_t t = a->reverse ? a->steps - 1 - s : s, r = a->batch_sizes[t], o = off[t];      \
            if (gout) {                                                                            \
                MT__LSTM_ADD_T(T)(dh, gout + o * P, r * P);                                        \
            }                                                                                      \
            const T *dhv = dh;                                                                     \
            if (whr) {                                                                             \
                memcpy(dhr + o * P, dh, (size_t)(r * P) * sizeof(T));                              \
                rc = MT__STEP_MM_T(T)(dt, r, H, P, dh, whr, whrT, dhp, NULL, pk);                 \
                dhv = dhp;                                                                         \
            }                                                                                      \
            /* the previous cells: read in place where that step had all r rows */                 \
            int64_t prev = a->reverse ? t + 1 : t - 1, ldp = H;                                    \
            const T *cpv = cp;                                                                     \
            if (prev < 0 || prev >= a->steps) {                                                    \
                cpv = c0;                                                                          \
            }                                                                                      \
            else if (a->batch_sizes[prev] >= r) {                                                  \
                cpv = cells + 2 * off[prev] * H;                                                   \
                ldp = 2 * H;                                                                       \
            }                                                                                      \
            else {                                                                                 \
                PREV(a, off, t, r, H, 2 * H, cells, c0, cp, H);                                    \
            }                                                                                      \
            PREV(a, off, t, r, P, P, out, h0, hprev + o * ldh, ldh);                               \
            if (rc == 0) {                                                                         \
                T *dg = dgx + o * G;                                                               \
                STEP(r, H, gates + o * G, cells + 2 * o * H, cpv, ldp, dhv, dc, dg);               \
                if (db != NULL) {                                                                  \
                    MT__LSTM_COLSUM_T(T)(dg, r, G, db);                                            \
                }                                                                                  \
                if (s > 0 || want_h0) {                                                            \
                    rc = MT__STEP_MM_T(T)(dt, r, P, G, dg, whh, whhT, dh, NULL, pk);               \
                }                                                                                  \
            }                                                                                      \
        }                                                                                          \
        (void)hpre;                                                                                \
        free(cp);                                                                                  \
        return rc;                                                                                 \
    }
MT__LSTM_BACKWARD(float, mt__lstm_step_bwd_f32, mt__lstm_prev_f32, mt__lstm_backward_f32)
MT__LSTM_BACKWARD(double, mt__lstm_step_bwd_f64, mt__lstm_prev_f64, mt__lstm_backward_f64)

/* a zeroed (rows, cols) tensor, or a contiguous copy of src into one */
static mt_tensor *
mt__lstm_init(mt_dtype dt, int64_t rows, int64_t cols, const mt_tensor *src)
{
    mt_tensor *t = mt__lstm_new(dt, rows, cols);
    if (t == NULL) {
        return NULL;
    }
    if (src == NULL) {
        memset(mt_tensor_data(t), 0, (size_t)(rows * cols) * mt_tensor_itemsize(t));
    }
    else if (mt_copy_(t, src) < 0) {
        mt_tensor_decref(t);
        return NULL;
    }
    return t;
}

/* rows rows of w values (of size bytes each) from src (rows ls values apart) to dst (ld apart) */
static void
mt__lstm_copy_rows(void *dst, int64_t ld, const void *src, int64_t ls, int64_t rows, int64_t w,
                   size_t size)
{
    for (int64_t i = 0; i < rows; i++) {
        memcpy((char *)dst + (size_t)(i * ld) * size, (const char *)src + (size_t)(i * ls) * size,
               (size_t)w * size);
    }
}

int
mt_lstm_backward(const mt_lstm_args *a, const mt_tensor *out, const mt_tensor *gates,
                 const mt_tensor *cells, const mt_tensor *hpre, const mt_tensor *g_out,
                 const mt_tensor *g_hn, const mt_tensor *g_cn, const bool *needs,
                 mt_tensor **grads)
{
    for (int i = 0; i < MT_LSTM_GRADS; i++) {
        grads[i] = NULL;
    }
    int rc = mt__lstm_check(a);
    if (rc < 0) {
        return rc;
    }
    mt_dtype dt = a->x->dtype;
    int64_t B = a->batch_sizes[0], H = a->c0->sizes[1], P = a->h0->sizes[1], G = 4 * H;
    int64_t N = a->x->sizes[0], K = a->x->sizes[1]; /* K: the input's size */
    int64_t *off = mt__lstm_offsets(a);
    mt_tensor *gout = g_out ? mt_contiguous((mt_tensor *)g_out) : NULL;
    mt_tensor *dh = mt__lstm_init(dt, B, P, g_hn), *dc = mt__lstm_init(dt, B, H, g_cn);
    /* both weights' gradients wanted: x and the states each step read side by side, (N, K + P),
     * so that they are one product (the BLAS packs dgx once) */
    bool both = needs[3] && needs[4];
    int64_t ldh = both ? K + P : P;
    mt_tensor *dgx = mt__lstm_new(dt, N, G), *hprev = mt__lstm_new(dt, N, ldh);
    mt_tensor *dhr = a->w_hr ? mt__lstm_new(dt, N, P) : NULL;
    bool need_ih = needs[5] && a->b_ih != NULL, need_hh = needs[6] && a->b_hh != NULL;
    double *db = need_ih || need_hh ? calloc((size_t)G, sizeof(double)) : NULL;
    if (off == NULL || (g_out && !gout) || !dh || !dc || !dgx || !hprev || (a->w_hr && !dhr) ||
        ((need_ih || need_hh) && db == NULL)) {
        rc = mt_error_code() < 0 ? mt_error_code() : mt_error_set(MT_ENOMEM, "lstm: out of memory");
        goto done;
    }
    if (gout && (gout->dtype != dt || gout->ndim != 2 || gout->sizes[0] != N ||
                 gout->sizes[1] != P)) {
        rc = mt_error_set(MT_ERUNTIME, "lstm: the output's gradient has another shape");
        goto done;
    }
    size_t size = mt_tensor_itemsize(dgx);
    char *hp = (char *)mt_tensor_data(hprev) + (both ? (size_t)K * size : 0);
    if (both) {
        mt__lstm_copy_rows(mt_tensor_data(hprev), ldh, mt_tensor_data(a->x), K, N, K, size);
    }
    if (dt == MT_FLOAT32) {
        rc = mt__lstm_backward_f32(
            a, off, (const float *)mt_tensor_data(out), (const float *)mt_tensor_data(gates),
            (const float *)mt_tensor_data(cells), hpre ? (const float *)mt_tensor_data(hpre) : NULL,
            gout ? (const float *)mt_tensor_data(gout) : NULL, (float *)mt_tensor_data(dh),
            (float *)mt_tensor_data(dc), (float *)mt_tensor_data(dgx),
            (float *)hp, ldh, db, needs[1], dhr ? (float *)mt_tensor_data(dhr) : NULL);
    }
    else {
        rc = mt__lstm_backward_f64(
            a, off, (const double *)mt_tensor_data(out), (const double *)mt_tensor_data(gates),
            (const double *)mt_tensor_data(cells),
            hpre ? (const double *)mt_tensor_data(hpre) : NULL,
            gout ? (const double *)mt_tensor_data(gout) : NULL, (double *)mt_tensor_data(dh),
            (double *)mt_tensor_data(dc), (double *)mt_tensor_data(dgx),
            (double *)hp, ldh, db, needs[1], dhr ? (double *)mt_tensor_data(dhr) : NULL);
    }
    if (rc < 0) {
        goto done;
    }
    /* from the gates' gradients dgx (N, 4H): x's (dgx W_ih), each weight's (one product over
     * every step's rows) and the biases' (dgx summed over the rows, the same for both) */
    if (needs[0]) {
        grads[0] = mt__lstm_new(dt, N, K);
        rc = grads[0] ? mt_gemm_raw(dt, false, false, N, K, G, 1.0, mt_tensor_data(dgx), G,
                                    mt_tensor_data(a->w_ih), K, 0.0, mt_tensor_data(grads[0]))
                      : MT_ENOMEM;
    }
    if (rc == 0 && both) {
        mt_tensor *dw = mt__lstm_new(dt, G, K + P);
        grads[3] = mt__lstm_new(dt, G, K);
        grads[4] = mt__lstm_new(dt, G, P);
        rc = dw && grads[3] && grads[4]
                 ? mt_gemm_raw(dt, true, false, G, K + P, N, 1.0, mt_tensor_data(dgx), G,
                               mt_tensor_data(hprev), K + P, 0.0, mt_tensor_data(dw))
                 : MT_ENOMEM;
        if (rc == 0) {
            char *d = mt_tensor_data(dw);
            mt__lstm_copy_rows(mt_tensor_data(grads[3]), K, d, K + P, G, K, size);
            mt__lstm_copy_rows(mt_tensor_data(grads[4]), P, d + (size_t)K * size, K + P, G, P,
                               size);
        }
        mt_tensor_decref(dw);
    }
    if (rc == 0 && needs[3] && !both) {
        grads[3] = mt__lstm_new(dt, G, K);
        rc = grads[3] ? mt_gemm_raw(dt, true, false, G, K, N, 1.0, mt_tensor_data(dgx), G,
                                    mt_tensor_data(a->x), K, 0.0, mt_tensor_data(grads[3]))
                      : MT_ENOMEM;
    }
    if (rc == 0 && needs[4] && !both) {
        grads[4] = mt__lstm_new(dt, G, P);
        rc = grads[4] ? mt_gemm_raw(dt, true, false, G, P, N, 1.0, mt_tensor_data(dgx), G,
                                    mt_tensor_data(hprev), P, 0.0, mt_tensor_data(grads[4]))
                      : MT_ENOMEM;
    }
    for (int i = 5; rc == 0 && i < 7; i++) {
        if (i == 5 ? need_ih : need_hh) {
            int64_t n = G;
            grads[i] = mt_tensor_empty(dt, 1, &n, MT_DEVICE_CPU);
            if (grads[i] == NULL) {
                rc = MT_ENOMEM;
                break;
            }
            for (int64_t j = 0; j < G; j++) {
                if (dt == MT_FLOAT32) {
                    ((float *)mt_tensor_data(grads[i]))[j] = (float)db[j];
                }
                else {
                    ((double *)mt_tensor_data(grads[i]))[j] = db[j];
                }
            }
        }
    }
    if (rc == 0 && needs[7] && a->w_hr != NULL) {
        grads[7] = mt__lstm_new(dt, P, H);
        rc = grads[7] ? mt_gemm_raw(dt, true, false, P, H, N, 1.0, mt_tensor_data(dhr), P,
                                    mt_tensor_data(hpre), H, 0.0, mt_tensor_data(grads[7]))
                      : MT_ENOMEM;
    }
    if (rc == 0) {
        if (needs[1]) {
            grads[1] = dh;
            dh = NULL;
        }
        if (needs[2]) {
            grads[2] = dc;
            dc = NULL;
        }
    }
done:
    if (rc < 0) {
        for (int i = 0; i < MT_LSTM_GRADS; i++) {
            mt_tensor_decref(grads[i]);
            grads[i] = NULL;
        }
    }
    free(off);
    free(db);
    mt_tensor *tmp[] = {gout, dh, dc, dgx, hprev, dhr};
    for (int i = 0; i < 6; i++) {
        mt_tensor_decref(tmp[i]);
    }
    return rc;
}
