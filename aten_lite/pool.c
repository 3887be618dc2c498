/* aten_lite/pool.c - 2-D max and average pooling over per-axis window tables, forward and backward. */
#include "aten_lite/pool.h"

#include <math.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "aten_lite/cpu/loops.h"
#include "aten_lite/ops.h"
#include "aten_lite/parallel.h"
#include "c10_lite/error.h"

/* Note [Pooling windows]
 * A 2-D pooling window is the product of a row window and a column window,
 * so each axis gets a table, built once per call: for output position o,
 * the input range [lo, hi) it reads (stepping by the dilation for max
 * pooling; lo is the first element inside the input, so padding is never
 * read) and, for averages, the count it divides by.  The kernels then run
 * over planes (N * C of them, spread over the thread pool) reading only the
 * tables: fixed windows (max_pool2d, avg_pool2d with its padding and
 * ceil_mode rules) and adaptive ones (adaptive_avg_pool2d) share one average
 * kernel and its backward.
 *
 * Output sizes follow torch: with ceil_mode the division rounds up, but a
 * window that would start past the input and its left padding is dropped.
 * torch's checks make every window hold an input element except in one
 * corner (a dilated kernel whose taps all skip the input); such a window
 * gets -inf (the lowest value for integers) and the index -1, which the
 * backward skips. */

typedef struct mt__axis {
    int64_t *lo, *hi, *cnt; /* per output position; cnt only for averages */
} mt__axis;

typedef struct mt__pool_geom {
    int64_t planes, h, w, oh, ow;
    int64_t dh, dw;         /* steps inside a window (dilation; 1 for averages) */
    int64_t kw, sw, pw;     /* max pooling: the column window's size, stride and padding */
    int64_t full_lo, full_hi; /* max pooling: the output columns whose windows lie inside */
    mt__axis rows, cols;
    int64_t divisor;        /* averages: a fixed divisor, or 0 for rows.cnt * cols.cnt */
} mt__pool_geom;

static void
mt__pool_geom_free(mt__pool_geom *g)
{
    free(g->rows.lo);
    free(g->cols.lo);
    g->rows.lo = g->cols.lo = NULL;
}

/* Allocates both tables (one block per axis).  0 or MT_ENOMEM. */
static int
mt__pool_tables(mt__pool_geom *g)
{
    g->rows.lo = mt_malloc_array(3 * g->oh, sizeof(int64_t));
    g->cols.lo = g->rows.lo ? mt_malloc_array(3 * g->ow, sizeof(int64_t)) : NULL;
    if (g->cols.lo == NULL) {
        mt__pool_geom_free(g);
        return mt_error_code();
    }
    g->rows.hi = g->rows.lo + g->oh;
    g->rows.cnt = g->rows.hi + g->oh;
    g->cols.hi = g->cols.lo + g->ow;
    g->cols.cnt = g->cols.hi + g->ow;
    return 0;
}

/* floor(a / b) for b > 0 */
static int64_t
mt__div_floor(int64_t a, int64_t b)
{
    int64_t q = a / b;
    return (a % b != 0 && a < 0) ? q - 1 : q;
}

/* torch's pooling output size for one axis, after its checks of stride and
 * padding (messages and order as torch).  All arguments fit in 32 bits or
 * are tensor sizes, so nothing here overflows int64. */
static int
mt__pool_out_size(int64_t size, int64_t k, int64_t pad, int64_t s, int64_t d, bool ceil_mode,
                  int64_t *out)
{
    if (s == 0) {
        return mt_error_set(MT_ERUNTIME, "stride should not be zero");
    }
    if (pad < 0) {
        return mt_error_set(MT_ERUNTIME, "pad must be non-negative, but got pad: %lld",
                            (long long)pad);
    }
    if (pad > ((k - 1) * d + 1) / 2) {
        return mt_error_set(MT_ERUNTIME,
                            "pad should be at most half of effective kernel size, but got pad=%lld, "
                            "kernel_size=%lld and dilation=%lld",
                            (long long)pad, (long long)k, (long long)d);
    }
    if (s < 0) { /* rejected by mt__pool_check */
        *out = 0;
        return 0;
    }
    int64_t num, ext;
    if (mt_ckd_add(&num, size, 2 * pad) || mt_ckd_mul(&ext, d, k - 1) ||
        mt_ckd_add(&ext, ext, 1 - (ceil_mode ? s - 1 : 0)) || mt_ckd_add(&num, num, -ext)) {
        return mt_error_set(MT_ERUNTIME, "pooling: input size %lld with kernel size %lld and "
                            "dilation %lld is too large", (long long)size, (long long)k,
                            (long long)d);
    }
    int64_t o = mt__div_floor(num, s) + 1;
    if (ceil_mode && (o - 1) * s >= size + pad) {
        o--;
    }
    *out = o;
    return 0;
}

/* Sizes of a 3-D or 4-D input as (N, C, H, W) with N = 1 for 3-D. */
static void
mt__pool_sizes4(const mt_tensor *t, int64_t s[4])
{
    s[0] = 1;
    memcpy(s + 4 - t->ndim, t->sizes, sizeof(int64_t) * (size_t)t->ndim);
}

/* torch's checks for max_pool2d / avg_pool2d and the geometry (tables not
 * built yet).  avg: dilation must be (1, 1). */
static int
mt__pool_check(const mt_tensor *input, const mt_pool2d_params *p, mt__pool_geom *g)
{
    const int64_t *vals[4] = {p->kernel, p->stride, p->padding, p->dilation};
    for (int i = 0; i < 4; i++) {
        for (int j = 0; j < 2; j++) {
            if (vals[i][j] < INT32_MIN || vals[i][j] > INT32_MAX) {
                return mt_error_set(MT_ERUNTIME,
                                    "value cannot be converted to type int without overflow");
            }
        }
    }
    if (input->ndim != 3 && input->ndim != 4) {
        return mt_error_set(MT_ERUNTIME, "non-empty 3D or 4D (batch mode) tensor expected for input");
    }
    if (mt_tensor_device(input).type != MT_CPU) {
        return mt_error_set(MT_ENOTIMPL, "pooling is implemented for CPU tensors only");
    }
    int64_t s4[4];
    mt__pool_sizes4(input, s4);
    int64_t oh, ow;
    if (mt__pool_out_size(s4[2], p->kernel[0], p->padding[0], p->stride[0], p->dilation[0],
                          p->ceil_mode, &oh) < 0 ||
        mt__pool_out_size(s4[3], p->kernel[1], p->padding[1], p->stride[1], p->dilation[1],
                          p->ceil_mode, &ow) < 0) {
        return mt_error_code();
    }
    if (p->kernel[0] <= 0 || p->kernel[1] <= 0) {
        return mt_error_set(MT_ERUNTIME,
                            "kernel size should be greater than zero, but got kH: %lld kW: %lld",
                            (long long)p->kernel[0], (long long)p->kernel[1]);
    }
    if (p->stride[0] <= 0 || p->stride[1] <= 0) {
        return mt_error_set(MT_ERUNTIME,
                            "stride should be greater than zero, but got dH: %lld dW: %lld",
                            (long long)p->stride[0], (long long)p->stride[1]);
    }
    if (p->dilation[0] <= 0 || p->dilation[1] <= 0) {
        return mt_error_set(MT_ERUNTIME,
                            "dilation should be greater than zero, but got dilationH: %lld "
                            "dilationW: %lld",
                            (long long)p->dilation[0], (long long)p->dilation[1]);
    }
    if (s4[1] == 0 || s4[2] == 0 || s4[3] == 0) {
        char a[256];
        return mt_error_set(MT_ERUNTIME,
                            "Expected 3D or 4D (batch mode) tensor with optional 0 dim batch size "
                            "for input, but got:%s",
                            mt_format_sizes(a, sizeof(a), input->ndim, input->sizes));
    }
    if (p->kernel[1] / 2 < p->padding[1] || p->kernel[0] / 2 < p->padding[0]) {
        return mt_error_set(MT_ERUNTIME,
                            "pad should be smaller than or equal to half of kernel size, but got "
                            "padW = %lld, padH = %lld, kW = %lld, kH = %lld",
                            (long long)p->padding[1], (long long)p->padding[0],
                            (long long)p->kernel[1], (long long)p->kernel[0]);
    }
    if (oh < 1 || ow < 1) {
        return mt_error_set(MT_ERUNTIME,
                            "Given input size: (%lldx%lldx%lld). Calculated output size: "
                            "(%lldx%lldx%lld). Output size is too small",
                            (long long)s4[1], (long long)s4[2], (long long)s4[3],
                            (long long)s4[1], (long long)oh, (long long)ow);
    }
    *g = (mt__pool_geom){
        .planes = s4[0] * s4[1], .h = s4[2], .w = s4[3], .oh = oh, .ow = ow,
        .dh = p->dilation[0], .dw = p->dilation[1],
    };
    return 0;
}

/* One axis of fixed windows (Note [Pooling windows]).  cnt: the count an
 * average divides by (padding included or not). */
static void
mt__fixed_axis(mt__axis *a, int64_t nout, int64_t size, int64_t k, int64_t s, int64_t pad,
               int64_t d, bool count_include_pad)
{
    for (int64_t o = 0; o < nout; o++) {
        int64_t start = o * s - pad, end = start + (k - 1) * d + 1;
        int64_t lo = start < 0 ? start + (-start + d - 1) / d * d : start;
        int64_t hi = end < size ? end : size;
        a->lo[o] = lo;
        a->hi[o] = hi > lo ? hi : lo;
        int64_t padded_end = end < size + pad ? end : size + pad;
        a->cnt[o] = count_include_pad ? padded_end - start : a->hi[o] - a->lo[o];
    }
}

/* One axis of adaptive windows; nout * size fits int64 (checked). */
static void
mt__adaptive_axis(mt__axis *a, int64_t nout, int64_t size)
{
    for (int64_t o = 0; o < nout; o++) {
        a->lo[o] = o * size / nout;
        a->hi[o] = ((o + 1) * size + nout - 1) / nout;
        a->cnt[o] = a->hi[o] - a->lo[o];
    }
}

/* Planes of the job, shared by every kernel below. */
typedef struct mt__pool_job {
    const mt__pool_geom *g;
    const char *x, *gy;
    const int64_t *idx_in;
    char *y, *gx;
    int64_t *idx_out;
    atomic_int bad_index; /* backward: an index outside its plane was met */
} mt__pool_job;

#define MT__NOT_NAN(v) 0
#define MT__IS_NAN(v) ((v) != (v))

/* One max-pooling window [h0, h1) x [w0, w1) (stepping by the dilation)
 * of plane x, in torch's order: rows, then columns; the first maximum wins,
 * a later NaN replaces it. */
#define MT__DEFINE_MAX_WINDOW(name, T, ISNAN, EMPTY)                                              \
    static void mt__max_window_##name(const mt__pool_geom *g, const T *x, int64_t h0, int64_t h1, \
                                      int64_t w0, int64_t w1, T *y, int64_t *ix)                  \
    {                                                                                             \
        if (h0 >= h1 || w0 >= w1) {                                                               \
            *y = EMPTY;                                                                           \
            *ix = -1;                                                                             \
            return;                                                                               \
        }                                                                                         \
        int64_t best = h0 * g->w + w0;                                                            \
        T m = x[best];                                                                            \
        for (int64_t ih = h0; ih < h1; ih += g->dh) {                                             \
            for (int64_t iw = w0; iw < w1; iw += g->dw) {                                         \
                T v = x[ih * g->w + iw];                                                          \
                if (v > m || ISNAN(v)) {                                                          \
                    m = v;                                                                        \
                    best = ih * g->w + iw;                                                        \
                }                                                                                 \
            }                                                                                     \
        }                                                                                         \
        *y = m;                                                                                   \
        *ix = best;                                                                               \
    }

/* Every window on its own, from the tables: the integer dtypes' kernel, and the float
 * dtypes' for adaptive windows. */
#define MT__DEFINE_MAX_WINDOWS(name, T)                                                           \
    static void mt__max_windows_##name(void *ctx, int64_t begin, int64_t end)                     \
    {                                                                                             \
        mt__pool_job *j = ctx;                                                                    \
        const mt__pool_geom *g = j->g;                                                            \
        const int64_t plane = g->h * g->w, oplane = g->oh * g->ow;                                \
        for (int64_t pl = begin; pl < end; pl++) {                                                \
            const T *x = (const T *)j->x + pl * plane;                                            \
            for (int64_t oh = 0; oh < g->oh; oh++) {                                              \
                for (int64_t ow = 0; ow < g->ow; ow++) {                                          \
                    int64_t o = pl * oplane + oh * g->ow + ow;                                    \
                    mt__max_window_##name(g, x, g->rows.lo[oh], g->rows.hi[oh], g->cols.lo[ow],   \
                                          g->cols.hi[ow], (T *)j->y + o, j->idx_out + o);         \
                }                                                                                 \
            }                                                                                     \
        }                                                                                         \
    }

/* Integer dtypes: every window on its own. */
#define MT__DEFINE_MAX_POOL(name, T, EMPTY)                                                       \
    MT__DEFINE_MAX_WINDOW(name, T, MT__NOT_NAN, EMPTY)                                            \
    MT__DEFINE_MAX_WINDOWS(name, T)                                                               \
    static void mt__max_pool_##name(void *ctx, int64_t begin, int64_t end)                        \
    {                                                                                             \
        mt__max_windows_##name(ctx, begin, end);                                                  \
    }

/* Note [Branch-free max pooling]
 * Whether a value beats the running maximum is a coin flip on real data, so
 * the per-window loop above spends its time in mispredicted branches.  For
 * float32/float64 the windows whose columns lie inside the plane (output
 * columns full_lo..full_hi-1) are done instead a block of outputs at a time,
 * tap by tap (the same order within each window): the test becomes a mask
 * and both the value and the index are selected through it with bit
 * operations, which the compiler vectorises across the block.  Indices are
 * kept in 32 bits there (planes of fewer than 2^31 elements; larger ones
 * take the per-window loop). */
#define MT__MAXB 256
#define MT__DEFINE_MAX_POOL_FLOAT(name, T, U, EMPTY)                                              \
    MT__DEFINE_MAX_WINDOW(name, T, MT__IS_NAN, EMPTY)                                             \
    /* One tap of the window over a block of outputs: m/im updated from                           \
     * x[off + i * sw]; sw is a constant where the caller passes one, so the                      \
     * strided loads vectorise (sw 2: even/odd shuffles). */                                      \
    static inline __attribute__((always_inline)) void                                             \
    mt__max_tap_##name(const T *restrict x, int32_t off, int32_t sw, int32_t n, T *restrict m,    \
                       int32_t *restrict im)                                                      \
    {                                                                                             \
        const T *xr = x + off;                                                                    \
        for (int32_t i = 0; i < n; i++) {                                                         \
            T v = xr[i * sw], cur = m[i];                                                         \
            U vb, cb;                                                                             \
            memcpy(&vb, &v, sizeof(T));                                                           \
            memcpy(&cb, &cur, sizeof(T));                                                         \
            int32_t c = -(int32_t)((v > cur) | (v != v));                                         \
            U cu = (U)(int64_t)c;                                                                 \
            cb = (vb & cu) | (cb & ~cu);                                                          \
            memcpy(&m[i], &cb, sizeof(T));                                                        \
            im[i] = ((off + i * sw) & c) | (im[i] & ~c);                                          \
        }                                                                                         \
    }                                                                                             \
    /* out[0..n) and idx[0..n): the maxima of the interior windows of one output                  \
     * row, starting at output column ow0; [h0, h1) are the window's rows. */                     \
    MT_SIMD_CLONES static void mt__max_row_##name(const mt__pool_geom *g, const T *x, int64_t h0, \
                                                  int64_t h1, int64_t ow0, int64_t n, T *out,     \
                                                  int64_t *idx)                                   \
    {                                                                                             \
        T m[MT__MAXB];                                                                            \
        int32_t im[MT__MAXB];                                                                     \
        const int32_t sw = (int32_t)g->sw, base = (int32_t)(ow0 * g->sw - g->pw);                 \
        for (int32_t i = 0; i < (int32_t)n; i++) {                                                \
            im[i] = (int32_t)(h0 * g->w) + base + i * sw;                                         \
            m[i] = x[im[i]];                                                                      \
        }                                                                                         \
        for (int64_t ih = h0; ih < h1; ih += g->dh) {                                             \
            for (int64_t kj = 0; kj < g->kw; kj++) {                                              \
                const int32_t off = (int32_t)(ih * g->w + kj * g->dw) + base;                     \
                if (sw == 2) {                                                                    \
                    mt__max_tap_##name(x, off, 2, (int32_t)n, m, im);                             \
                }                                                                                 \
                else if (sw == 1) {                                                               \
                    mt__max_tap_##name(x, off, 1, (int32_t)n, m, im);                             \
                }                                                                                 \
                else {                                                                            \
                    mt__max_tap_##name(x, off, sw, (int32_t)n, m, im);                            \
                }                                                                                 \
            }                                                                                     \
        }                                                                                         \
        for (int64_t i = 0; i < n; i++) {                                                         \
            out[i] = m[i];                                                                        \
            idx[i] = im[i];                                                                       \
        }                                                                                         \
    }                                                                                             \
    MT__DEFINE_MAX_WINDOWS(name, T)                                                               \
    static void mt__max_pool_##name(void *ctx, int64_t begin, int64_t end)                        \
    {                                                                                             \
        mt__pool_job *j = ctx;                                                                    \
        const mt__pool_geom *g = j->g;                                                            \
        const int64_t plane = g->h * g->w, oplane = g->oh * g->ow;                                \
        const int64_t a = plane < INT32_MAX ? g->full_lo : 0;                                     \
        const int64_t b = plane < INT32_MAX ? g->full_hi : 0;                                     \
        for (int64_t pl = begin; pl < end; pl++) {                                                \
            const T *x = (const T *)j->x + pl * plane;                                            \
            for (int64_t oh = 0; oh < g->oh; oh++) {                                              \
                const int64_t h0 = g->rows.lo[oh], h1 = g->rows.hi[oh];                           \
                T *yr = (T *)j->y + pl * oplane + oh * g->ow;                                     \
                int64_t *ir = j->idx_out + pl * oplane + oh * g->ow;                              \
                bool fast = h0 < h1 && a < b;                                                     \
                for (int64_t ow = 0; ow < g->ow; ow++) {                                          \
                    if (fast && ow == a) {                                                        \
                        ow = b - 1;                                                               \
                        continue;                                                                 \
                    }                                                                             \
                    mt__max_window_##name(g, x, h0, h1, g->cols.lo[ow], g->cols.hi[ow], yr + ow,  \
                                          ir + ow);                                               \
                }                                                                                 \
                for (int64_t ow = a; fast && ow < b; ow += MT__MAXB) {                            \
                    int64_t n = b - ow < MT__MAXB ? b - ow : MT__MAXB;                            \
                    mt__max_row_##name(g, x, h0, h1, ow, n, yr + ow, ir + ow);                    \
                }                                                                                 \
            }                                                                                     \
        }                                                                                         \
    }
MT__DEFINE_MAX_POOL(uint8, uint8_t, 0)
MT__DEFINE_MAX_POOL(int8, int8_t, INT8_MIN)
MT__DEFINE_MAX_POOL(int16, int16_t, INT16_MIN)
MT__DEFINE_MAX_POOL(int32, int32_t, INT32_MIN)
MT__DEFINE_MAX_POOL(int64, int64_t, INT64_MIN)
MT__DEFINE_MAX_POOL_FLOAT(float32, float, uint32_t, -INFINITY)
MT__DEFINE_MAX_POOL_FLOAT(float64, double, uint64_t, -INFINITY)

/* Backward of max pooling (scatter-add by index) and both directions of
 * average pooling, float32 and float64. */
#define MT__DEFINE_POOL_FLOAT(name, T)                                                            \
    static void mt__max_pool_backward_##name(void *ctx, int64_t begin, int64_t end)               \
    {                                                                                             \
        mt__pool_job *j = ctx;                                                                    \
        const mt__pool_geom *g = j->g;                                                            \
        const int64_t plane = g->h * g->w, oplane = g->oh * g->ow;                                \
        for (int64_t pl = begin; pl < end; pl++) {                                                \
            T *gx = (T *)j->gx + pl * plane;                                                      \
            const T *gy = (const T *)j->gy + pl * oplane;                                         \
            const int64_t *ix = j->idx_in + pl * oplane;                                          \
            memset(gx, 0, sizeof(T) * (size_t)plane);                                             \
            for (int64_t o = 0; o < oplane; o++) {                                                \
                int64_t i = ix[o];                                                                \
                if (i >= 0 && i < plane) {                                                        \
                    gx[i] += gy[o];                                                               \
                }                                                                                 \
                else if (i != -1) {                                                               \
                    atomic_store(&j->bad_index, 1);                                               \
                }                                                                                 \
            }                                                                                     \
        }                                                                                         \
    }                                                                                             \
    static void mt__avg_pool_##name(void *ctx, int64_t begin, int64_t end)                        \
    {                                                                                             \
        mt__pool_job *j = ctx;                                                                    \
        const mt__pool_geom *g = j->g;                                                            \
        const int64_t W = g->w, plane = g->h * g->w, oplane = g->oh * g->ow;                      \
        for (int64_t pl = begin; pl < end; pl++) {                                                \
            const T *x = (const T *)j->x + pl * plane;                                            \
            T *y = (T *)j->y + pl * oplane;                                                       \
            for (int64_t oh = 0; oh < g->oh; oh++) {                                              \
                const int64_t h0 = g->rows.lo[oh], h1 = g->rows.hi[oh];                           \
                for (int64_t ow = 0; ow < g->ow; ow++) {                                          \
                    const int64_t w0 = g->cols.lo[ow], w1 = g->cols.hi[ow];                       \
                    T s = 0;                                                                      \
                    for (int64_t ih = h0; ih < h1; ih++) {                                        \
                        for (int64_t iw = w0; iw < w1; iw++) {                                    \
                            s += x[ih * W + iw];                                                  \
                        }                                                                         \
                    }                                                                             \
                    int64_t div = g->divisor ? g->divisor : g->rows.cnt[oh] * g->cols.cnt[ow];    \
                    y[oh * g->ow + ow] = h0 < h1 && w0 < w1 ? s / (T)div : 0;                     \
                }                                                                                 \
            }                                                                                     \
        }                                                                                         \
    }                                                                                             \
    static void mt__avg_pool_backward_##name(void *ctx, int64_t begin, int64_t end)               \
    {                                                                                             \
        mt__pool_job *j = ctx;                                                                    \
        const mt__pool_geom *g = j->g;                                                            \
        const int64_t W = g->w, plane = g->h * g->w, oplane = g->oh * g->ow;                      \
        for (int64_t pl = begin; pl < end; pl++) {                                                \
            T *gx = (T *)j->gx + pl * plane;                                                      \
            const T *gy = (const T *)j->gy + pl * oplane;                                         \
            memset(gx, 0, sizeof(T) * (size_t)plane);                                             \
            for (int64_t oh = 0; oh < g->oh; oh++) {                                              \
                const int64_t h0 = g->rows.lo[oh], h1 = g->rows.hi[oh];                           \
                for (int64_t ow = 0; ow < g->ow; ow++) {                                          \
                    const int64_t w0 = g->cols.lo[ow], w1 = g->cols.hi[ow];                       \
                    if (h0 >= h1 || w0 >= w1) {                                                   \
                        continue;                                                                 \
                    }                                                                             \
                    int64_t div = g->divisor ? g->divisor : g->rows.cnt[oh] * g->cols.cnt[ow];    \
                    T v = gy[oh * g->ow + ow] / (T)div;                                           \
                    for (int64_t ih = h0; ih < h1; ih++) {                                        \
                        for (int64_t iw = w0; iw < w1; iw++) {                                    \
                            gx[ih * W + iw] += v;                                                 \
                        }                                                                         \
                    }                                                                             \
                }                                                                                 \
            }                                                                                     \
        }                                                                                         \
    }
MT__DEFINE_POOL_FLOAT(float32, float)
MT__DEFINE_POOL_FLOAT(float64, double)

/* Runs a per-plane kernel over the pool: about MT_GRAIN_SIZE elements of
 * work per chunk. */
static void
mt__pool_run(mt__pool_job *j, mt_parallel_fn fn, int64_t work_per_plane)
{
    int64_t w = work_per_plane > 0 ? work_per_plane : 1;
    mt_parallel_for(0, j->g->planes, MT_GRAIN_SIZE / w + 1, fn, j);
}

/* New contiguous tensor shaped like input with the last two sizes (oh, ow). */
static mt_tensor *
mt__pool_output(const mt_tensor *input, mt_dtype dt, int64_t oh, int64_t ow)
{
    int64_t sz[4];
    memcpy(sz, input->sizes, sizeof(int64_t) * (size_t)input->ndim);
    sz[input->ndim - 2] = oh;
    sz[input->ndim - 1] = ow;
    return mt_tensor_empty(dt, input->ndim, sz, mt_tensor_device(input));
}

static int
mt__pool_not_implemented(const char *fname, mt_dtype dt)
{
    return mt_error_set(MT_ENOTIMPL, "\"%s\" not implemented for '%s'", fname,
                        mt_dtype_scalar_name(dt));
}

static bool
mt__pool_float(mt_dtype dt)
{
    return dt == MT_FLOAT32 || dt == MT_FLOAT64 || dt == MT_FLOAT16 || dt == MT_BFLOAT16;
}

/* grad_output must have the forward result's shape and input's dtype. */
static int
mt__pool_check_grad(const char *fname, const mt_tensor *grad_output, const mt_tensor *input,
                    int64_t oh, int64_t ow)
{
    char a[256], b[256];
    int64_t want[4];
    memcpy(want, input->sizes, sizeof(int64_t) * (size_t)input->ndim);
    want[input->ndim - 2] = oh;
    want[input->ndim - 1] = ow;
    if (grad_output->ndim != input->ndim ||
        memcmp(grad_output->sizes, want, sizeof(int64_t) * (size_t)input->ndim) != 0) {
        return mt_error_set(MT_ERUNTIME, "%s: expected grad_output of size %s, but got %s", fname,
                            mt_format_sizes(a, sizeof(a), input->ndim, want),
                            mt_format_sizes(b, sizeof(b), grad_output->ndim, grad_output->sizes));
    }
    if (grad_output->dtype != input->dtype) {
        return mt_error_set(MT_ERUNTIME, "%s: expected grad_output of dtype %s, but got %s", fname,
                            mt_dtype_name(input->dtype), mt_dtype_name(grad_output->dtype));
    }
    if (!mt__pool_float(input->dtype)) {
        return mt__pool_not_implemented(fname, input->dtype);
    }
    if (mt_tensor_device(grad_output).type != MT_CPU) {
        return mt_error_set(MT_ENOTIMPL, "%s is implemented for CPU tensors only", fname);
    }
    return 0;
}

/* Runs the max-pooling kernel fn over the windows of g: values and int64 plane indices of
 * input's dtype and shape.  0 or a negative status (nothing is returned then). */
static int
mt__max_pool_run(mt__pool_geom *g, mt_tensor *input, mt_parallel_fn fn, mt_tensor **values,
                 mt_tensor **indices)
{
    int rc = 0;
    mt_tensor *x = mt_float_operand(input), *y = NULL, *ix = NULL;
    if (x != NULL) {
        y = mt__pool_output(x, x->dtype, g->oh, g->ow);
        ix = y != NULL ? mt__pool_output(x, MT_INT64, g->oh, g->ow) : NULL;
    }
    if (ix == NULL) {
        rc = mt_error_code();
    }
    else {
        mt__pool_job j = {.g = g, .x = mt_tensor_data(x), .y = mt_tensor_data(y),
                          .idx_out = (int64_t *)mt_tensor_data(ix)};
        mt__pool_run(&j, fn, g->oh * g->ow + g->h * g->w);
        y = mt_float_result(y, input->dtype);
        if (y == NULL) {
            rc = mt_error_code();
        }
    }
    mt_tensor_decref(x);
    if (rc < 0) {
        mt_tensor_decref(y);
        mt_tensor_decref(ix);
        return rc;
    }
    *values = y;
    *indices = ix;
    return 0;
}

int
mt_max_pool2d(mt_tensor *input, const mt_pool2d_params *p, mt_tensor **values,
              mt_tensor **indices)
{
    mt__pool_geom g;
    *values = *indices = NULL;
    if (mt__pool_check(input, p, &g) < 0) {
        return mt_error_code();
    }
    mt_parallel_fn fn;
    switch (input->dtype) {
    case MT_UINT8:
        fn = mt__max_pool_uint8;
        break;
    case MT_INT8:
        fn = mt__max_pool_int8;
        break;
    case MT_INT16:
        fn = mt__max_pool_int16;
        break;
    case MT_INT32:
        fn = mt__max_pool_int32;
        break;
    case MT_INT64:
        fn = mt__max_pool_int64;
        break;
    case MT_FLOAT32:
    case MT_FLOAT16:
    case MT_BFLOAT16:
        fn = mt__max_pool_float32;
        break;
    case MT_FLOAT64:
        fn = mt__max_pool_float64;
        break;
    default:
        return mt__pool_not_implemented("max_pool2d", input->dtype);
    }
    if (mt__pool_tables(&g) < 0) {
        return mt_error_code();
    }
    mt__fixed_axis(&g.rows, g.oh, g.h, p->kernel[0], p->stride[0], p->padding[0], g.dh, false);
    mt__fixed_axis(&g.cols, g.ow, g.w, p->kernel[1], p->stride[1], p->padding[1], g.dw, false);
    g.kw = p->kernel[1];
    g.sw = p->stride[1];
    g.pw = p->padding[1];
    g.full_lo = g.full_hi = 0;
    for (int64_t ow = 0; ow < g.ow; ow++) {
        int64_t start = ow * g.sw - g.pw;
        if (start >= 0 && g.cols.lo[ow] == start && g.cols.hi[ow] == start + (g.kw - 1) * g.dw + 1) {
            if (g.full_hi == g.full_lo) {
                g.full_lo = ow;
            }
            g.full_hi = ow + 1;
        }
    }
    int rc = mt__max_pool_run(&g, input, fn, values, indices);
    mt__pool_geom_free(&g);
    return rc;
}

/* The scatter-add backward of both max poolings over g (geometry only):
 * checks grad_output and the indices, then adds each gradient at its index.
 * fname names the op in messages.  New tensor or NULL. */
static mt_tensor *
mt__max_backward(const char *fname, mt_tensor *grad_output, mt_tensor *input,
                 const mt_tensor *indices, const mt__pool_geom *g)
{
    char a[256], b[256];
    if (mt__pool_check_grad(fname, grad_output, input, g->oh, g->ow) < 0) {
        return NULL;
    }
    if (indices->dtype != MT_INT64 || indices->ndim != grad_output->ndim ||
        memcmp(indices->sizes, grad_output->sizes, sizeof(int64_t) * (size_t)indices->ndim) != 0) {
        mt_error_set(MT_ERUNTIME, "%s: expected int64 indices of size %s, but got %s indices of size %s",
                     fname, mt_format_sizes(a, sizeof(a), grad_output->ndim, grad_output->sizes),
                     mt_dtype_name(indices->dtype),
                     mt_format_sizes(b, sizeof(b), indices->ndim, indices->sizes));
        return NULL;
    }
    if (mt_tensor_device(indices).type != MT_CPU) {
        mt_error_set(MT_ENOTIMPL, "%s is implemented for CPU tensors only", fname);
        return NULL;
    }
    mt_tensor *gy = mt_float_operand(grad_output);
    mt_tensor *ix = gy ? mt_contiguous((mt_tensor *)indices) : NULL;
    mt_tensor *gx = ix ? mt_tensor_empty(gy->dtype, input->ndim, input->sizes,
                                         mt_tensor_device(input))
                       : NULL;
    if (gx != NULL) {
        mt__pool_job j = {.g = g, .gy = mt_tensor_data(gy), .gx = mt_tensor_data(gx),
                          .idx_in = (const int64_t *)mt_tensor_data(ix)};
        mt__pool_run(&j, gy->dtype == MT_FLOAT64 ? mt__max_pool_backward_float64
                                                 : mt__max_pool_backward_float32,
                     g->oh * g->ow + g->h * g->w);
        if (atomic_load(&j.bad_index)) {
            mt_error_set(MT_EINDEX,
                         "%s: an index is outside its plane of %lld x %lld elements (indices must "
                         "come from the forward call)", fname, (long long)g->h, (long long)g->w);
            mt_tensor_decref(gx);
            gx = NULL;
        }
        else {
            gx = mt_float_result(gx, input->dtype);
        }
    }
    mt_tensor_decref(gy);
    mt_tensor_decref(ix);
    return gx;
}

mt_tensor *
mt_max_pool2d_backward(mt_tensor *grad_output, mt_tensor *input, const mt_tensor *indices,
                       const mt_pool2d_params *p)
{
    mt__pool_geom g;
    if (mt__pool_check(input, p, &g) < 0) {
        return NULL;
    }
    return mt__max_backward("max_pool2d_backward", grad_output, input, indices, &g);
}

/* avg_pool2d's checks and tables (the caller frees them). */
static int
mt__avg_geom(const mt_tensor *input, const mt_pool2d_params *p, bool count_include_pad,
             int64_t divisor_override, mt__pool_geom *g)
{
    mt_pool2d_params q = *p;
    q.dilation[0] = q.dilation[1] = 1;
    if (divisor_override < INT32_MIN || divisor_override > INT32_MAX) {
        return mt_error_set(MT_ERUNTIME, "value cannot be converted to type int without overflow");
    }
    if (mt__pool_check(input, &q, g) < 0) {
        return mt_error_code();
    }
    if (!mt__pool_float(input->dtype)) {
        return mt__pool_not_implemented("avg_pool2d", input->dtype);
    }
    if (mt__pool_tables(g) < 0) {
        return mt_error_code();
    }
    mt__fixed_axis(&g->rows, g->oh, g->h, q.kernel[0], q.stride[0], q.padding[0], 1,
                   count_include_pad);
    mt__fixed_axis(&g->cols, g->ow, g->w, q.kernel[1], q.stride[1], q.padding[1], 1,
                   count_include_pad);
    g->divisor = divisor_override;
    return 0;
}

/* adaptive_avg_pool2d's / adaptive_max_pool2d's checks (torch's messages,
 * which differ a little between the two) and tables; the caller frees them. */
static int
mt__adaptive_geom(const char *fname, const mt_tensor *input, int64_t oh, int64_t ow,
                  mt__pool_geom *g)
{
    char a[256];
    bool max = strcmp(fname, "adaptive_max_pool2d") == 0;
    if (input->ndim != 3 && input->ndim != 4) {
        return mt_error_set(MT_ERUNTIME, "%s(): Expected 3D or 4D tensor, but got%s %s", fname,
                            max ? ":" : "", mt_format_sizes(a, sizeof(a), input->ndim, input->sizes));
    }
    for (int d = 1; d < input->ndim; d++) {
        if (input->sizes[d] == 0) {
            return mt_error_set(MT_ERUNTIME,
                                "%s(): Expected input to have non-zero size for non-batch "
                                "dimensions, but input has sizes %s with dimension %d being empty",
                                fname, mt_format_sizes(a, sizeof(a), input->ndim, input->sizes), d);
        }
    }
    int64_t s4[4], t;
    mt__pool_sizes4(input, s4);
    if (oh < 0 || ow < 0) {
        if (max) {
            int64_t out[4] = {s4[0], s4[1], oh, ow};
            return mt_error_set(MT_ERUNTIME, "Trying to create tensor with negative dimension "
                                "%lld: %s", (long long)(oh < 0 ? oh : ow),
                                mt_format_sizes(a, sizeof(a), 4, out));
        }
        return mt_error_set(MT_ERUNTIME,
                            "%s: elements of output_size must be greater than or equal to 0 but "
                            "received {%lld, %lld}", fname, (long long)oh, (long long)ow);
    }
    if (!mt__pool_float(input->dtype)) {
        return mt__pool_not_implemented(fname, input->dtype);
    }
    if (mt_tensor_device(input).type != MT_CPU) {
        return mt_error_set(MT_ENOTIMPL, "%s is implemented for CPU tensors only", fname);
    }
    if (mt_ckd_mul(&t, oh + 1, s4[2]) || mt_ckd_mul(&t, ow + 1, s4[3])) {
        return mt_error_set(MT_ERUNTIME, "%s: output size (%lld, %lld) is too large", fname,
                            (long long)oh, (long long)ow);
    }
    *g = (mt__pool_geom){.planes = s4[0] * s4[1], .h = s4[2], .w = s4[3], .oh = oh, .ow = ow,
                         .dh = 1, .dw = 1};
    if (mt__pool_tables(g) < 0) {
        return mt_error_code();
    }
    mt__adaptive_axis(&g->rows, oh, g->h);
    mt__adaptive_axis(&g->cols, ow, g->w);
    return 0;
}

/* The forward of both averages over g (tables built; freed here). */
static mt_tensor *
mt__avg_forward(mt_tensor *input, mt__pool_geom *g)
{
    mt_tensor *x = mt_float_operand(input);
    mt_tensor *y = x ? mt__pool_output(x, x->dtype, g->oh, g->ow) : NULL;
    if (y != NULL && y->numel > 0) {
        mt__pool_job j = {.g = g, .x = mt_tensor_data(x), .y = mt_tensor_data(y)};
        mt__pool_run(&j, x->dtype == MT_FLOAT64 ? mt__avg_pool_float64 : mt__avg_pool_float32,
                     g->oh * g->ow + g->h * g->w);
    }
    mt__pool_geom_free(g);
    mt_tensor_decref(x);
    return mt_float_result(y, input->dtype);
}

/* The backward of both averages over g (tables built; freed here). */
static mt_tensor *
mt__avg_backward(const char *fname, mt_tensor *grad_output, mt_tensor *input, mt__pool_geom *g)
{
    mt_tensor *gy = NULL, *gx = NULL;
    if (mt__pool_check_grad(fname, grad_output, input, g->oh, g->ow) < 0) {
        goto done;
    }
    gy = mt_float_operand(grad_output);
    gx = gy ? mt_tensor_empty(gy->dtype, input->ndim, input->sizes, mt_tensor_device(input)) : NULL;
    if (gx != NULL && gx->numel > 0) {
        mt__pool_job j = {.g = g, .gy = mt_tensor_data(gy), .gx = mt_tensor_data(gx)};
        mt__pool_run(&j, gy->dtype == MT_FLOAT64 ? mt__avg_pool_backward_float64
                                                 : mt__avg_pool_backward_float32,
                     g->oh * g->ow + g->h * g->w);
    }
    gx = mt_float_result(gx, input->dtype);
done:
    mt__pool_geom_free(g);
    mt_tensor_decref(gy);
    return gx;
}

mt_tensor *
mt_avg_pool2d(mt_tensor *input, const mt_pool2d_params *p, bool count_include_pad,
              int64_t divisor_override)
{
    mt__pool_geom g;
    if (mt__avg_geom(input, p, count_include_pad, divisor_override, &g) < 0) {
        return NULL;
    }
    return mt__avg_forward(input, &g);
}

mt_tensor *
mt_avg_pool2d_backward(mt_tensor *grad_output, mt_tensor *input, const mt_pool2d_params *p,
                       bool count_include_pad, int64_t divisor_override)
{
    mt__pool_geom g;
    if (mt__avg_geom(input, p, count_include_pad, divisor_override, &g) < 0) {
        return NULL;
    }
    return mt__avg_backward("avg_pool2d_backward", grad_output, input, &g);
}

mt_tensor *
mt_adaptive_avg_pool2d(mt_tensor *input, int64_t oh, int64_t ow)
{
    mt__pool_geom g;
    if (mt__adaptive_geom("adaptive_avg_pool2d", input, oh, ow, &g) < 0) {
        return NULL;
    }
    return mt__avg_forward(input, &g);
}

mt_tensor *
mt_adaptive_avg_pool2d_backward(mt_tensor *grad_output, mt_tensor *input)
{
    mt__pool_geom g;
    if (grad_output->ndim != input->ndim || grad_output->ndim < 3) {
        char a[256];
        mt_error_set(MT_ERUNTIME, "adaptive_avg_pool2d_backward: expected grad_output of rank %d, "
                     "but got size %s", input->ndim,
                     mt_format_sizes(a, sizeof(a), grad_output->ndim, grad_output->sizes));
        return NULL;
    }
    int64_t oh = grad_output->sizes[grad_output->ndim - 2];
    int64_t ow = grad_output->sizes[grad_output->ndim - 1];
    if (mt__adaptive_geom("adaptive_avg_pool2d", input, oh, ow, &g) < 0) {
        return NULL;
    }
    return mt__avg_backward("adaptive_avg_pool2d_backward", grad_output, input, &g);
}

int
mt_adaptive_max_pool2d(mt_tensor *input, int64_t oh, int64_t ow, mt_tensor **values,
                       mt_tensor **indices)
{
    mt__pool_geom g;
    *values = *indices = NULL;
    if (mt__adaptive_geom("adaptive_max_pool2d", input, oh, ow, &g) < 0) {
        return mt_error_code();
    }
    int rc = mt__max_pool_run(&g, input, input->dtype == MT_FLOAT64 ? mt__max_windows_float64
                                                                : mt__max_windows_float32,
                              values, indices);
    mt__pool_geom_free(&g);
    return rc;
}

mt_tensor *
mt_adaptive_max_pool2d_backward(mt_tensor *grad_output, mt_tensor *input,
                                const mt_tensor *indices)
{
    mt__pool_geom g;
    if (grad_output->ndim != input->ndim || grad_output->ndim < 3) {
        char a[256];
        mt_error_set(MT_ERUNTIME, "adaptive_max_pool2d_backward: expected grad_output of rank %d, "
                     "but got size %s", input->ndim,
                     mt_format_sizes(a, sizeof(a), grad_output->ndim, grad_output->sizes));
        return NULL;
    }
    int64_t oh = grad_output->sizes[grad_output->ndim - 2];
    int64_t ow = grad_output->sizes[grad_output->ndim - 1];
    if (mt__adaptive_geom("adaptive_max_pool2d", input, oh, ow, &g) < 0) {
        return NULL;
    }
    mt_tensor *r = mt__max_backward("adaptive_max_pool2d_backward", grad_output, input, indices, &g);
    mt__pool_geom_free(&g);
    return r;
}
