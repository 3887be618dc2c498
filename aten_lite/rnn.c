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

static inline float
mt__sigmoidf_v(float x)
{
    return 1.0f / (1.0f + mt__expf_core(-x));
}

/* tanh: an odd polynomial below |x| = 0.3 (no cancellation near 0), 1 - 2 / (e^2|x| + 1)
 * above (|x| clamped at 9, where tanh is 1 in float32); NaN propagates through both */
static inline float
mt__tanhf_v(float x)
{
    float ax = x < 0 ? -x : x;
    float x2 = x * x;
    float p = x + x * x2 * (-0.33333333f + x2 * (0.13333333f + x2 * (-0.05396825f +
                                                                    x2 * 0.02186949f)));
    float a9 = ax > 9.0f ? 9.0f : ax;
    float r = 1.0f - 2.0f / (mt__expf_core(2.0f * a9) + 1.0f);
    r = x < 0 ? -r : r;
    return ax < 0.3f ? p : r;
}

static inline double
mt__sigmoid_d(double x)
{
    return 1.0 / (1.0 + exp(-x));
}

#define MT__SIG(T, x) _Generic((T)0, float: mt__sigmoidf_v, default: mt__sigmoid_d)(x)
#define MT__TANH(T, x) _Generic((T)0, float: mt__tanhf_v, default: tanh)(x)

/* ---- the per-step products ------------------------------------------------------------------ */

/* C (r x n) (+)= A (r x k, row-major) @ B (k x n, row-major), for the few rows of one step:
 * the BLAS would pack B (the same weight every step) anew on each call, which costs more
 * than the product.  Blocks of 4 rows x 16 columns of C are accumulated in registers over all
 * of k (each row of B loaded once per block, 64 multiply-adds per 4 loads); the loops over
 * the 16 columns vectorise. */
#define MT__MM_ROWS(T, NAME)                                                                       \
    MT_SIMD_CLONES static void NAME(int64_t r, int64_t n, int64_t k, const T *restrict A,         \
                                    const T *restrict B, T *restrict C, bool acc)                  \
    {                                                                                              \
        enum { NB = 16 };                                                                          \
        for (int64_t i = 0; i < r; i += 4) {                                                       \
            int64_t ri = r - i < 4 ? r - i : 4;                                                    \
            for (int64_t j0 = 0; j0 < n; j0 += NB) {                                               \
                int64_t w = n - j0 < NB ? n - j0 : NB;                                             \
                T c[4][NB] = {{0}};                                                                \
                if (w == NB && ri == 4) {                                                          \
                    for (int64_t q = 0; q < k; q++) {                                              \
                        const T *b = B + q * n + j0;                                               \
                        T a0 = A[i * k + q], a1 = A[(i + 1) * k + q];                              \
                        T a2 = A[(i + 2) * k + q], a3 = A[(i + 3) * k + q];                        \
                        for (int jj = 0; jj < NB; jj++) {                                          \
                            c[0][jj] = MT__FMA(T, a0, b[jj], c[0][jj]);                            \
                            c[1][jj] = MT__FMA(T, a1, b[jj], c[1][jj]);                            \
                            c[2][jj] = MT__FMA(T, a2, b[jj], c[2][jj]);                            \
                            c[3][jj] = MT__FMA(T, a3, b[jj], c[3][jj]);                            \
                        }                                                                          \
                    }                                                                              \
                }                                                                                  \
                else {                                                                             \
                    for (int64_t q = 0; q < k; q++) {                                              \
                        const T *b = B + q * n + j0;                                               \
                        for (int64_t ii = 0; ii < ri; ii++) {                                      \
                            T a = A[(i + ii) * k + q];                                             \
                            for (int64_t jj = 0; jj < w; jj++) {                                   \
                                c[ii][jj] = MT__FMA(T, a, b[jj], c[ii][jj]);                       \
                            }                                                                      \
                        }                                                                          \
                    }                                                                              \
                }                                                                                  \
                for (int64_t ii = 0; ii < ri; ii++) {                                              \
                    T *cr = C + (i + ii) * n + j0;                                                 \
                    for (int64_t jj = 0; jj < w; jj++) {                                           \
                        cr[jj] = acc ? cr[jj] + c[ii][jj] : c[ii][jj];                             \
                    }                                                                              \
                }                                                                                  \
            }                                                                                      \
        }                                                                                          \
    }
MT__MM_ROWS(float, mt__mm_rows_f32)
MT__MM_ROWS(double, mt__mm_rows_f64)
#define MT__MM_ROWS_T(T) _Generic((T)0, float: mt__mm_rows_f32, default: mt__mm_rows_f64)

/* rows at or below MT__SMALL_ROWS use mt__mm_rows while the weight (n x k elements) stays
 * within MT__SMALL_WEIGHT; more go to the BLAS.  mt__mm_rows reads the whole weight once per
 * four rows, which is cheap while it sits in cache; a larger one (hidden sizes of 512 and up)
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

/* C (r x n) (+)= A (r x k) @ op(B): B given both as is (k x n) and, for the BLAS, its
 * transpose bt (n x k) */
#define MT__STEP_MM(T, NAME)                                                                       \
    static int NAME(mt_dtype dt, int64_t r, int64_t n, int64_t k, const T *A, const T *b,          \
                    const T *bt, T *C, bool acc)                                                   \
    {                                                                                              \
        if (r <= MT__SMALL_ROWS && n * k <= MT__SMALL_WEIGHT) {                                    \
            MT__MM_ROWS_T(T)(r, n, k, A, b, C, acc);                                               \
            return 0;                                                                              \
        }                                                                                          \
        return mt_gemm_raw(dt, false, true, r, n, k, 1.0, A, k, bt, k, acc ? 1.0 : 0.0, C);        \
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

/* In place over n values: the gates' functions, loops simple enough to vectorise. */
#define MT__LSTM_ACT(T, SIGN, TANHN)                                                               \
    MT_SIMD_CLONES static void SIGN(T *restrict x, const T *restrict b, int64_t n)                 \
    {                                                                                              \
        for (int64_t j = 0; j < n; j++) {                                                          \
            x[j] = MT__SIG(T, x[j] + b[j]);                                                        \
        }                                                                                          \
    }                                                                                              \
    MT_SIMD_CLONES static void TANHN(T *restrict x, const T *restrict b, int64_t n)                \
    {                                                                                              \
        for (int64_t j = 0; j < n; j++) {                                                          \
            x[j] = MT__TANH(T, x[j] + b[j]);                                                       \
        }                                                                                          \
    }
MT__LSTM_ACT(float, mt__lstm_sig_f32, mt__lstm_tanh_f32)
MT__LSTM_ACT(double, mt__lstm_sig_f64, mt__lstm_tanh_f64)

/* The pointwise part of one forward step over rows [0, r): pre (r, 4H) holds the gates before
 * their functions (b: b_hh, or zeros); writes the activated gates (in place, and to gates),
 * the new cells (into c and cells) and h' (into hv, r rows of H). */
#define MT__LSTM_STEP_FWD(T, SIG, TANH, NAME)                                                      \
    MT_SIMD_CLONES static void NAME(int64_t r, int64_t H, T *restrict pre, const T *restrict b,    \
                                    T *restrict gates, T *restrict c, T *restrict cells,           \
                                    T *restrict hv)                                                \
    {                                                                                              \
        int64_t G = 4 * H;                                                                         \
        for (int64_t i = 0; i < r; i++) {                                                          \
            T *p = pre + i * G;                                                                    \
            SIG(p, b, 2 * H);                                                                      \
            TANH(p + 2 * H, b + 2 * H, H);                                                         \
            SIG(p + 3 * H, b + 3 * H, H);                                                          \
            T *ci = c + i * H, *hi = hv + i * H;                                                   \
            for (int64_t j = 0; j < H; j++) {                                                      \
                ci[j] = p[H + j] * ci[j] + p[j] * p[2 * H + j];                                    \
            }                                                                                      \
            for (int64_t j = 0; j < H; j++) {                                                      \
                hi[j] = p[3 * H + j] * MT__TANH(T, ci[j]);                                         \
            }                                                                                      \
            memcpy(cells + i * H, ci, (size_t)H * sizeof(T));                                      \
            memcpy(gates + i * G, p, (size_t)G * sizeof(T));                                       \
        }                                                                                          \
    }
MT__LSTM_STEP_FWD(float, mt__lstm_sig_f32, mt__lstm_tanh_f32, mt__lstm_step_fwd_f32)
MT__LSTM_STEP_FWD(double, mt__lstm_sig_f64, mt__lstm_tanh_f64, mt__lstm_step_fwd_f64)

#define MT__LSTM_FORWARD(T, STEP, NAME)                                                            \
    static int NAME(const mt_lstm_args *a, const int64_t *off, T *out, T *h, T *c, T *gates,       \
                    T *cells, T *hpre)                                                             \
    {                                                                                              \
        mt_dtype dt = a->gx->dtype;                                                                \
        int64_t B = a->batch_sizes[0], H = a->c0->sizes[1], P = a->h0->sizes[1], G = 4 * H;       \
        const T *gx = (const T *)mt_tensor_data(a->gx);                                            \
        const T *whh = (const T *)mt_tensor_data(a->w_hh);                                         \
        const T *whr = a->w_hr ? (const T *)mt_tensor_data(a->w_hr) : NULL;                        \
        T *pre = malloc((size_t)(B * G + G + P * G + (whr ? H * P : 0)) * sizeof(T));              \
        if (pre == NULL) {                                                                         \
            return mt_error_set(MT_ENOMEM, "lstm: out of memory");                                 \
        }                                                                                          \
        T *b = pre + B * G; /* b_hh, or zeros */                                                   \
        T *whhT = b + G, *whrT = whhT + P * G; /* the weights transposed: (P, G), (H, P) */        \
        MT__TRANSPOSE_T(T)(whh, G, P, whhT);                                                       \
        if (whr) {                                                                                 \
            MT__TRANSPOSE_T(T)(whr, P, H, whrT);                                                   \
        }                                                                                          \
        if (a->b_hh != NULL) {                                                                     \
            memcpy(b, mt_tensor_data(a->b_hh), (size_t)G * sizeof(T));                             \
        }                                                                                          \
        else {                                                                                     \
            memset(b, 0, (size_t)G * sizeof(T));                                                   \
        }                                                                                          \
        int rc = 0;                                                                                \
        for (int64_t s = 0; s < a->steps && rc == 0; s++) {                                        \
            int64_t t = a->reverse ? a->steps - 1 - s : s, r = a->batch_sizes[t], o = off[t];      \
            memcpy(pre, gx + o * G, (size_t)(r * G) * sizeof(T));                                  \
            rc = MT__STEP_MM_T(T)(dt, r, G, P, h, whhT, whh, pre, true);                           \
            T *hdst = whr ? hpre + o * H : out + o * P;                                            \
            if (rc == 0) {                                                                         \
                STEP(r, H, pre, b, gates + o * G, c, cells + o * H, hdst);                         \
            }                                                                                      \
            if (rc == 0 && whr) {                                                                  \
                rc = MT__STEP_MM_T(T)(dt, r, P, H, hdst, whrT, whr, out + o * P, false);           \
            }                                                                                      \
            if (rc == 0) {                                                                         \
                memcpy(h, out + o * P, (size_t)(r * P) * sizeof(T));                               \
            }                                                                                      \
        }                                                                                          \
        free(pre);                                                                                 \
        return rc;                                                                                 \
    }
MT__LSTM_FORWARD(float, mt__lstm_step_fwd_f32, mt__lstm_forward_f32)
MT__LSTM_FORWARD(double, mt__lstm_step_fwd_f64, mt__lstm_forward_f64)

/* the operands' shapes, dtypes and layouts */
static int
mt__lstm_check(const mt_lstm_args *a)
{
    mt_dtype dt = a->gx->dtype;
    if (dt != MT_FLOAT32 && dt != MT_FLOAT64) {
        return mt_error_set(MT_ETYPE, "lstm: float32 or float64 operands, not %s",
                            mt_dtype_name(dt));
    }
    if (a->steps <= 0 || a->h0->ndim != 2 || a->c0->ndim != 2 || a->gx->ndim != 2 ||
        a->w_hh->ndim != 2) {
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
    const mt_tensor *ts[] = {a->gx, a->h0, a->c0, a->w_hh, a->b_hh, a->w_hr};
    for (int i = 0; i < 6; i++) {
        if (ts[i] != NULL && (ts[i]->dtype != dt || !ts[i]->contiguous ||
                              mt_tensor_device(ts[i]).type != MT_CPU)) {
            return mt_error_set(MT_ERUNTIME, "lstm: contiguous CPU operands of one dtype");
        }
    }
    if (a->gx->sizes[0] != n || a->gx->sizes[1] != 4 * H || a->h0->sizes[0] != B ||
        a->c0->sizes[0] != B || a->w_hh->sizes[0] != 4 * H || a->w_hh->sizes[1] != P ||
        (a->b_hh != NULL && (a->b_hh->ndim != 1 || a->b_hh->sizes[0] != 4 * H)) ||
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
    mt_dtype dt = a->gx->dtype;
    int64_t B = a->batch_sizes[0], H = a->c0->sizes[1], P = a->h0->sizes[1];
    int64_t N = a->gx->sizes[0];
    int64_t *off = mt__lstm_offsets(a);
    mt_tensor *o = mt__lstm_new(dt, N, P), *h = mt__lstm_new(dt, B, P), *c = mt__lstm_new(dt, B, H);
    mt_tensor *g = mt__lstm_new(dt, N, 4 * H), *cs = mt__lstm_new(dt, N, H);
    mt_tensor *hp = a->w_hr ? mt__lstm_new(dt, N, H) : NULL;
    if (off == NULL || !o || !h || !c || !g || !cs || (a->w_hr && !hp)) {
        rc = off == NULL ? MT_ENOMEM : mt_error_set(MT_ENOMEM, "lstm: out of memory");
        goto fail;
    }
    memcpy(mt_tensor_data(h), mt_tensor_data(a->h0), (size_t)(B * P) * mt_tensor_itemsize(h));
    memcpy(mt_tensor_data(c), mt_tensor_data(a->c0), (size_t)(B * H) * mt_tensor_itemsize(c));
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
 * (r, H) that of c' (updated in place to that of c), cprev the previous cells (r, H); writes
 * the gradient of the gates before their functions into dg (r, 4H). */
#define MT__LSTM_STEP_BWD(T, NAME)                                                                 \
    MT_SIMD_CLONES static void NAME(int64_t r, int64_t H, const T *restrict gates,               \
                                    const T *restrict cells, const T *restrict cprev,              \
                                    const T *restrict dh, T *restrict dc, T *restrict dg)          \
    {                                                                                              \
        int64_t G = 4 * H;                                                                         \
        for (int64_t i = 0; i < r; i++) {                                                          \
            const T *g = gates + i * G;                                                            \
            T *d = dg + i * G;                                                                     \
            for (int64_t j = 0; j < H; j++) {                                                      \
                T gi = g[j], gf = g[H + j], gg = g[2 * H + j], go = g[3 * H + j];                  \
                T tc = MT__TANH(T, cells[i * H + j]);                                              \
                T dhv = dh[i * H + j];                                                             \
                T dct = dc[i * H + j] + dhv * go * (1 - tc * tc);                                  \
                d[j] = dct * gg * gi * (1 - gi);                                                   \
                d[H + j] = dct * cprev[i * H + j] * gf * (1 - gf);                                 \
                d[2 * H + j] = dct * gi * (1 - gg * gg);                                           \
                d[3 * H + j] = dhv * tc * go * (1 - go);                                           \
                dc[i * H + j] = dct * gf;                                                          \
            }                                                                                      \
        }                                                                                          \
    }
MT__LSTM_STEP_BWD(float, mt__lstm_step_bwd_f32)
MT__LSTM_STEP_BWD(double, mt__lstm_step_bwd_f64)

/* The previous state's rows [0, r) of step t (in processing order): the state the previous
 * processed step wrote for the rows it had, the initial state for the rest. */
#define MT__LSTM_PREV(T, NAME)                                                                     \
    static void NAME(const mt_lstm_args *a, const int64_t *off, int64_t t, int64_t r, int64_t w,   \
                     const T *all, const T *init, T *dst)                                          \
    {                                                                                              \
        int64_t prev = a->reverse ? t + 1 : t - 1, have = 0;                                       \
        if (prev >= 0 && prev < a->steps) {                                                        \
            have = a->batch_sizes[prev] < r ? a->batch_sizes[prev] : r;                            \
            memcpy(dst, all + off[prev] * w, (size_t)(have * w) * sizeof(T));                      \
        }                                                                                          \
        memcpy(dst + have * w, init + have * w, (size_t)((r - have) * w) * sizeof(T));             \
    }
MT__LSTM_PREV(float, mt__lstm_prev_f32)
MT__LSTM_PREV(double, mt__lstm_prev_f64)

/* dgx (N, 4H) the gates' gradients, hprev (N, P) the state each step read, dhr (N, P) the
 * gradient of each step's projected h (with a projection) */
#define MT__LSTM_BACKWARD(T, STEP, PREV, NAME)                                                     \
    static int NAME(const mt_lstm_args *a, const int64_t *off, const T *out, const T *gates,       \
                    const T *cells, const T *hpre, const T *gout, T *dh, T *dc, T *dgx,            \
                    T *hprev, T *dhr)                                                              \
    {                                                                                              \
        mt_dtype dt = a->gx->dtype;                                                                \
        int64_t B = a->batch_sizes[0], H = a->c0->sizes[1], P = a->h0->sizes[1], G = 4 * H;       \
        const T *whh = (const T *)mt_tensor_data(a->w_hh);                                         \
        const T *whr = a->w_hr ? (const T *)mt_tensor_data(a->w_hr) : NULL;                        \
        const T *h0 = (const T *)mt_tensor_data(a->h0), *c0 = (const T *)mt_tensor_data(a->c0);    \
        T *cp = malloc((size_t)(2 * B * H + G * P + (whr ? H * P : 0)) * sizeof(T));               \
        if (cp == NULL) {                                                                          \
            return mt_error_set(MT_ENOMEM, "lstm: out of memory");                                 \
        }                                                                                          \
        T *dhp = cp + B * H;                                                                       \
        T *whhT = dhp + B * H, *whrT = whhT + G * P; /* (P, G), (H, P) */                          \
        MT__TRANSPOSE_T(T)(whh, G, P, whhT);                                                       \
        if (whr) {                                                                                 \
            MT__TRANSPOSE_T(T)(whr, P, H, whrT);                                                   \
        }                                                                                          \
        int rc = 0;                                                                                \
        for (int64_t s = a->steps - 1; s >= 0 && rc == 0; s--) {                                   \
            int64_t t = a->reverse ? a->steps - 1 - s : s, r = a->batch_sizes[t], o = off[t];      \
            if (gout) {                                                                            \
                for (int64_t k = 0; k < r * P; k++) {                                              \
                    dh[k] += gout[o * P + k];                                                      \
                }                                                                                  \
            }                                                                                      \
            const T *dhv = dh;                                                                     \
            if (whr) {                                                                             \
                memcpy(dhr + o * P, dh, (size_t)(r * P) * sizeof(T));                              \
                rc = MT__STEP_MM_T(T)(dt, r, H, P, dh, whr, whrT, dhp, false);                     \
                dhv = dhp;                                                                         \
            }                                                                                      \
            PREV(a, off, t, r, H, cells, c0, cp);                                                  \
            PREV(a, off, t, r, P, out, h0, hprev + o * P);                                         \
            if (rc == 0) {                                                                         \
                STEP(r, H, gates + o * G, cells + o * H, cp, dhv, dc, dgx + o * G);                \
                rc = MT__STEP_MM_T(T)(dt, r, P, G, dgx + o * G, whh, whhT, dh, false);             \
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

int
mt_lstm_backward(const mt_lstm_args *a, const mt_tensor *out, const mt_tensor *gates,
                 const mt_tensor *cells, const mt_tensor *hpre, const mt_tensor *g_out,
                 const mt_tensor *g_hn, const mt_tensor *g_cn, const bool *needs,
                 mt_tensor **grads)
{
    int rc = mt__lstm_check(a);
    if (rc < 0) {
        return rc;
    }
    mt_dtype dt = a->gx->dtype;
    int64_t B = a->batch_sizes[0], H = a->c0->sizes[1], P = a->h0->sizes[1], G = 4 * H;
    int64_t N = a->gx->sizes[0];
    for (int i = 0; i < 6; i++) {
        grads[i] = NULL;
    }
    int64_t *off = mt__lstm_offsets(a);
    mt_tensor *gout = g_out ? mt_contiguous((mt_tensor *)g_out) : NULL;
    mt_tensor *dh = mt__lstm_init(dt, B, P, g_hn), *dc = mt__lstm_init(dt, B, H, g_cn);
    mt_tensor *dgx = mt__lstm_new(dt, N, G), *hprev = mt__lstm_new(dt, N, P);
    mt_tensor *dhr = a->w_hr ? mt__lstm_new(dt, N, P) : NULL;
    if (off == NULL || (g_out && !gout) || !dh || !dc || !dgx || !hprev || (a->w_hr && !dhr)) {
        rc = mt_error_code() < 0 ? mt_error_code() : mt_error_set(MT_ENOMEM, "lstm: out of memory");
        goto done;
    }
    if (gout && (gout->dtype != dt || gout->ndim != 2 || gout->sizes[0] != N ||
                 gout->sizes[1] != P)) {
        rc = mt_error_set(MT_ERUNTIME, "lstm: the output's gradient has another shape");
        goto done;
    }
    if (dt == MT_FLOAT32) {
        rc = mt__lstm_backward_f32(
            a, off, (const float *)mt_tensor_data(out), (const float *)mt_tensor_data(gates),
            (const float *)mt_tensor_data(cells), hpre ? (const float *)mt_tensor_data(hpre) : NULL,
            gout ? (const float *)mt_tensor_data(gout) : NULL, (float *)mt_tensor_data(dh),
            (float *)mt_tensor_data(dc), (float *)mt_tensor_data(dgx),
            (float *)mt_tensor_data(hprev), dhr ? (float *)mt_tensor_data(dhr) : NULL);
    }
    else {
        rc = mt__lstm_backward_f64(
            a, off, (const double *)mt_tensor_data(out), (const double *)mt_tensor_data(gates),
            (const double *)mt_tensor_data(cells),
            hpre ? (const double *)mt_tensor_data(hpre) : NULL,
            gout ? (const double *)mt_tensor_data(gout) : NULL, (double *)mt_tensor_data(dh),
            (double *)mt_tensor_data(dc), (double *)mt_tensor_data(dgx),
            (double *)mt_tensor_data(hprev), dhr ? (double *)mt_tensor_data(dhr) : NULL);
    }
    if (rc < 0) {
        goto done;
    }
    /* the weights' gradients: one product each over every step's rows */
    if (needs[3]) {
        grads[3] = mt__lstm_new(dt, G, P);
        rc = grads[3] ? mt_gemm_raw(dt, true, false, G, P, N, 1.0, mt_tensor_data(dgx), G,
                                    mt_tensor_data(hprev), P, 0.0, mt_tensor_data(grads[3]))
                      : MT_ENOMEM;
    }
    if (rc == 0 && needs[4] && a->b_hh != NULL) {
        bool mask[2] = {true, false};
        grads[4] = mt_reduce(MT_REDUCE_SUM, dgx, mask, false);
        rc = grads[4] ? 0 : mt_error_code();
    }
    if (rc == 0 && needs[5] && a->w_hr != NULL) {
        grads[5] = mt__lstm_new(dt, P, H);
        rc = grads[5] ? mt_gemm_raw(dt, true, false, P, H, N, 1.0, mt_tensor_data(dhr), P,
                                    mt_tensor_data(hpre), H, 0.0, mt_tensor_data(grads[5]))
                      : MT_ENOMEM;
    }
    if (rc == 0) {
        if (needs[0]) {
            grads[0] = dgx;
            dgx = NULL;
        }
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
        for (int i = 0; i < 6; i++) {
            mt_tensor_decref(grads[i]);
            grads[i] = NULL;
        }
    }
    free(off);
    mt_tensor *tmp[] = {gout, dh, dc, dgx, hprev, dhr};
    for (int i = 0; i < 6; i++) {
        mt_tensor_decref(tmp[i]);
    }
    return rc;
}
