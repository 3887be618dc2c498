/* aten_lite/pool.c - max and average pooling over 1 to 3 spatial dims from per-axis window tables, forward and backward. */
#include "aten_lite/pool.h"
#include "aten_lite/pool_geom.h"

#include <math.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aten_lite/cpu/loops.h"
#include "aten_lite/kernel_stubs.h"
#include "aten_lite/ops.h"
#include "aten_lite/parallel.h"
#include "c10_lite/error.h"

/* Note [Pooling windows]
 * A pooling window is the product of one window per spatial axis (depth,
 * rows, columns; 2-D pooling has a depth axis of one position), so each
 * axis gets a table, built once per call: for output position o, the input
 * range [lo, hi) it reads (stepping by the dilation for max pooling; lo is
 * the first element inside the input, so padding is never read) and, for
 * averages, the count it divides by.  The kernels then run over planes
 * (N * C of them, spread over the thread pool) reading only the tables:
 * fixed windows (max_pool, avg_pool with its padding and ceil_mode rules)
 * and adaptive ones (adaptive_avg_pool) share one average kernel and its
 * backward.
 *
 * Output sizes follow torch: with ceil_mode the division rounds up, but a
 * window that would start past the input and its left padding is dropped.
 * torch's checks make every window hold an input element except in one
 * corner (a dilated kernel whose taps all skip the input); such a window
 * gets -inf (the lowest value for integers) and the index -1, which the
 * backward skips. */


static void
mt__pool_geom_free(mt__pool_geom *g)
{
    free(g->tables);
    g->tables = NULL;
}

/* Allocates the three tables (one block).  0 or MT_ENOMEM. */
static int
mt__pool_tables(mt__pool_geom *g)
{
    int64_t n = g->out[0] + g->out[1] + g->out[2]; /* each fits: checked output sizes */
    g->tables = mt_malloc_array(3 * n, sizeof(int64_t));
    if (g->tables == NULL) {
        return mt_error_code();
    }
    int64_t *t = g->tables;
    for (int i = 0; i < 3; i++) {
        g->ax[i].lo = t;
        g->ax[i].hi = t + g->out[i];
        g->ax[i].cnt = t + 2 * g->out[i];
        t += 3 * g->out[i];
    }
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

/* The sizes of an input of nsp spatial dims as (N, C, D, H, W): N = 1 when
 * unbatched, D = 1 for 2-D. */
static void
mt__pool_sizes5(const mt_tensor *t, int nsp, int64_t s[5])
{
    for (int i = 0; i < 5; i++) {
        s[i] = 1;
    }
    memcpy(s + 5 - nsp, t->sizes + t->ndim - nsp, sizeof(int64_t) * (size_t)nsp);
    s[1] = t->sizes[t->ndim - nsp - 1];
    if (t->ndim == nsp + 2) {
        s[0] = t->sizes[0];
    }
}

/* "kT: a kH: b kW: c" (3-D) or "kH: b kW: c" (2-D) of v (nsp values). */
static char *
mt__pool_axes(char *buf, size_t cap, int nsp, const char *prefix, const int64_t *v)
{
    static const char *const axes[3] = {"T", "H", "W"};
    size_t at = 0;
    buf[0] = '\0';
    for (int i = 0; i < nsp && at < cap; i++) {
        int w = snprintf(buf + at, cap - at, "%s%s%s: %lld", i ? " " : "", prefix,
                         axes[3 - nsp + i], (long long)v[i]);
        if (w < 0) {
            break;
        }
        at += (size_t)w;
    }
    return buf;
}

/* torch's message for an input with an empty non-batch dimension (3-D ops
 * and the adaptive ones); the non-batch dims start at `first`. */
static int
mt__pool_empty_error(const char *fname, const mt_tensor *input, int first)
{
    char a[256];
    int d = first;
    while (d < input->ndim - 1 && input->sizes[d] != 0) {
        d++;
    }
    return mt_error_set(MT_ERUNTIME,
                        "%s(): Expected input to have non-zero size for non-batch dimensions, but "
                        "input has sizes %s with dimension %d being empty", fname,
                        mt_format_sizes(a, sizeof(a), input->ndim, input->sizes), d);
}

/* torch's checks for max_pool / avg_pool (2-D or 3-D messages) and the
 * geometry (tables not built yet).  avg: dilation must be all 1. */
static int
mt__pool_check(const mt_tensor *input, const mt_pool_params *p, bool avg, mt__pool_geom *g)
{
    char a[256], b[256];
    const int nsp = p->nsp;
    if (nsp < 2 || nsp > 3) {
        return mt_error_set(MT_EINVAL, "pooling: %d spatial dimensions (2 or 3 expected)", nsp);
    }
    const int64_t *vals[4] = {p->kernel, p->stride, p->padding, p->dilation};
    for (int i = 0; i < 4; i++) {
        for (int j = 0; j < nsp; j++) {
            if (vals[i][j] < INT32_MIN || vals[i][j] > INT32_MAX) {
                return mt_error_set(MT_ERUNTIME,
                                    "value cannot be converted to type int without overflow");
            }
        }
    }
    if (input->ndim != nsp + 1 && input->ndim != nsp + 2) {
        return mt_error_set(MT_ERUNTIME,
                            "non-empty %dD or %dD (batch mode) tensor expected for input",
                            nsp + 1, nsp + 2);
    }
    int64_t s5[5], out[3];
    mt__pool_sizes5(input, nsp, s5);
    const int64_t *insp = s5 + 5 - nsp;
    for (int i = 0; i < nsp; i++) {
        if (mt__pool_out_size(insp[i], p->kernel[i], p->padding[i], p->stride[i], p->dilation[i],
                              p->ceil_mode, &out[i]) < 0) {
            return mt_error_code();
        }
    }
    for (int i = 0; i < nsp; i++) {
        if (p->kernel[i] <= 0) {
            return mt_error_set(MT_ERUNTIME, "kernel size should be greater than zero, but got %s",
                                mt__pool_axes(a, sizeof(a), nsp, "k", p->kernel));
        }
    }
    for (int i = 0; i < nsp; i++) {
        if (p->stride[i] <= 0) {
            return mt_error_set(MT_ERUNTIME, "stride should be greater than zero, but got %s",
                                mt__pool_axes(a, sizeof(a), nsp, "d", p->stride));
        }
    }
    for (int i = 0; i < nsp; i++) {
        if (p->dilation[i] <= 0) {
            return mt_error_set(MT_ERUNTIME, "dilation should be greater than zero, but got %s",
                                mt__pool_axes(a, sizeof(a), nsp, "dilation", p->dilation));
        }
    }
    bool empty = s5[1] == 0;
    for (int i = 0; i < nsp; i++) {
        empty |= insp[i] == 0;
    }
    if (empty) {
        if (nsp == 2) {
            return mt_error_set(MT_ERUNTIME,
                                "Expected 3D or 4D (batch mode) tensor with optional 0 dim batch "
                                "size for input, but got:%s",
                                mt_format_sizes(a, sizeof(a), input->ndim, input->sizes));
        }
        return mt__pool_empty_error(avg ? "avg_pool3d" : "max_pool3d_with_indices_out_cpu_template",
                                    input, input->ndim == nsp + 2 ? 1 : 0);
    }
    if (avg && nsp == 3 && (insp[0] < p->kernel[0] || insp[1] < p->kernel[1] ||
                            insp[2] < p->kernel[2])) {
        return mt_error_set(MT_ERUNTIME,
                            "input image (T: %lld H: %lld W: %lld) smaller than kernel size (kT: "
                            "%lld kH: %lld kW: %lld)", (long long)insp[0], (long long)insp[1],
                            (long long)insp[2], (long long)p->kernel[0], (long long)p->kernel[1],
                            (long long)p->kernel[2]);
    }
    for (int i = 0; i < nsp; i++) {
        if (p->kernel[i] / 2 < p->padding[i]) {
            if (nsp == 2) {
                return mt_error_set(MT_ERUNTIME,
                                    "pad should be smaller than or equal to half of kernel size, but "
                                    "got padW = %lld, padH = %lld, kW = %lld, kH = %lld",
                                    (long long)p->padding[1], (long long)p->padding[0],
                                    (long long)p->kernel[1], (long long)p->kernel[0]);
            }
            return mt_error_set(MT_ERUNTIME,
                                "pad should be smaller than or equal to half of kernel size, but got "
                                "kT: %lld kW: %lld kH: %lld padT: %lld padW: %lld padH: %lld",
                                (long long)p->kernel[0], (long long)p->kernel[2],
                                (long long)p->kernel[1], (long long)p->padding[0],
                                (long long)p->padding[2], (long long)p->padding[1]);
        }
    }
    for (int i = 0; i < nsp; i++) {
        if (out[i] < 1) {
            int64_t ins[4] = {s5[1]}, outs[4] = {s5[1]};
            memcpy(ins + 1, insp, sizeof(int64_t) * (size_t)nsp);
            memcpy(outs + 1, out, sizeof(int64_t) * (size_t)nsp);
            size_t at = 0, bt = 0;
            for (int j = 0; j <= nsp; j++) {
                at += (size_t)snprintf(a + at, sizeof(a) - at, j ? "x%lld" : "%lld",
                                       (long long)ins[j]);
                bt += (size_t)snprintf(b + bt, sizeof(b) - bt, j ? "x%lld" : "%lld",
                                       (long long)outs[j]);
            }
            return mt_error_set(MT_ERUNTIME, "Given input size: (%s). Calculated output size: (%s). "
                                "Output size is too small", a, b);
        }
    }
    *g = (mt__pool_geom){.nsp = nsp, .planes = s5[0] * s5[1]};
    for (int i = 0; i < 3; i++) {
        int src = i - (3 - nsp);
        g->in[i] = s5[2 + i];
        g->out[i] = src >= 0 ? out[src] : 1;
        g->dil[i] = src >= 0 ? p->dilation[src] : 1;
    }
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

/* The fixed-window tables of all three axes (the leading ones of a 2-D
 * pooling are one position wide). */
static void
mt__fixed_axes(mt__pool_geom *g, const mt_pool_params *p, bool count_include_pad)
{
    for (int i = 0; i < 3; i++) {
        int src = i - (3 - p->nsp);
        if (src < 0) {
            mt__fixed_axis(&g->ax[i], 1, 1, 1, 1, 0, 1, true);
        }
        else {
            mt__fixed_axis(&g->ax[i], g->out[i], g->in[i], p->kernel[src], p->stride[src],
                           p->padding[src], g->dil[i], count_include_pad);
        }
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

/* One max-pooling window (win: [d0, d1) x [h0, h1) x [w0, w1), stepping by
 * the dilation) of plane x, in torch's order: depth, rows, then columns;
 * the first maximum wins, a later NaN replaces it. */
#define MT__DEFINE_MAX_WINDOW(name, T, ISNAN, EMPTY)                                              \
    static void mt__max_window_##name(const mt__pool_geom *g, const T *x, const int64_t *win,     \
                                      T *y, int64_t *ix)                                          \
    {                                                                                             \
        if (win[0] >= win[1] || win[2] >= win[3] || win[4] >= win[5]) {                           \
            *y = EMPTY;                                                                           \
            *ix = -1;                                                                             \
            return;                                                                               \
        }                                                                                         \
        const int64_t H = g->in[1], W = g->in[2];                                                 \
        int64_t best = (win[0] * H + win[2]) * W + win[4];                                        \
        T m = x[best];                                                                            \
        for (int64_t id = win[0]; id < win[1]; id += g->dil[0]) {                                 \
            for (int64_t ih = win[2]; ih < win[3]; ih += g->dil[1]) {                             \
                const int64_t row = (id * H + ih) * W;                                            \
                for (int64_t iw = win[4]; iw < win[5]; iw += g->dil[2]) {                         \
                    T v = x[row + iw];                                                            \
                    if (v > m || ISNAN(v)) {                                                      \
                        m = v;                                                                    \
                        best = row + iw;                                                          \
                    }                                                                             \
                }                                                                                 \
            }                                                                                     \
        }                                                                                         \
        *y = m;                                                                                   \
        *ix = best;                                                                               \
    }

/* The window of output (od, oh, ow) from the tables. */
static inline void
mt__pool_window(const mt__pool_geom *g, int64_t od, int64_t oh, int64_t ow, int64_t win[6])
{
    win[0] = g->ax[0].lo[od];
    win[1] = g->ax[0].hi[od];
    win[2] = g->ax[1].lo[oh];
    win[3] = g->ax[1].hi[oh];
    win[4] = g->ax[2].lo[ow];
    win[5] = g->ax[2].hi[ow];
}

/* Every window on its own, from the tables: the integer dtypes' kernel, and the float
 * dtypes' for adaptive windows. */
#define MT__DEFINE_MAX_WINDOWS(name, T)                                                           \
    static void mt__max_windows_##name(void *ctx, int64_t begin, int64_t end)                     \
    {                                                                                             \
        mt__pool_job *j = ctx;                                                                    \
        const mt__pool_geom *g = j->g;                                                            \
        const int64_t plane = g->in[0] * g->in[1] * g->in[2];                                     \
        const int64_t oplane = g->out[0] * g->out[1] * g->out[2];                                 \
        for (int64_t pl = begin; pl < end; pl++) {                                                \
            const T *x = (const T *)j->x + pl * plane;                                            \
            int64_t o = pl * oplane, win[6];                                                      \
            for (int64_t od = 0; od < g->out[0]; od++) {                                          \
                for (int64_t oh = 0; oh < g->out[1]; oh++) {                                      \
                    for (int64_t ow = 0; ow < g->out[2]; ow++, o++) {                             \
                        mt__pool_window(g, od, oh, ow, win);                                      \
                        mt__max_window_##name(g, x, win, (T *)j->y + o, j->idx_out + o);          \
                    }                                                                             \
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
     * row, starting at output column ow0; win[0..4) are the window's depth and                   \
     * rows. */                                                                                   \
    MT_SIMD_CLONES static void mt__max_row_##name(const mt__pool_geom *g, const T *x,             \
                                                  const int64_t *win, int64_t ow0, int64_t n,     \
                                                  T *out, int64_t *idx)                           \
    {                                                                                             \
        T m[MT__MAXB];                                                                            \
        int32_t im[MT__MAXB];                                                                     \
        const int64_t H = g->in[1], W = g->in[2];                                                 \
        const int32_t sw = (int32_t)g->sw, base = (int32_t)(ow0 * g->sw - g->pw);                 \
        for (int32_t i = 0; i < (int32_t)n; i++) {                                                \
            im[i] = (int32_t)((win[0] * H + win[2]) * W) + base + i * sw;                         \
            m[i] = x[im[i]];                                                                      \
        }                                                                                         \
        for (int64_t id = win[0]; id < win[1]; id += g->dil[0]) {                                 \
            for (int64_t ih = win[2]; ih < win[3]; ih += g->dil[1]) {                             \
                for (int64_t kj = 0; kj < g->kw; kj++) {                                          \
                    const int32_t off = (int32_t)((id * H + ih) * W + kj * g->dil[2]) + base;     \
                    if (sw == 2) {                                                                \
                        mt__max_tap_##name(x, off, 2, (int32_t)n, m, im);                         \
                    }                                                                             \
                    else if (sw == 1) {                                                           \
                        mt__max_tap_##name(x, off, 1, (int32_t)n, m, im);                         \
                    }                                                                             \
                    else {                                                                        \
                        mt__max_tap_##name(x, off, sw, (int32_t)n, m, im);                        \
                    }                                                                             \
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
        const int64_t plane = g->in[0] * g->in[1] * g->in[2];                                     \
        const int64_t oplane = g->out[0] * g->out[1] * g->out[2];                                 \
        const int64_t a = plane < INT32_MAX ? g->full_lo : 0;                                     \
        const int64_t b = plane < INT32_MAX ? g->full_hi : 0;                                     \
        for (int64_t pl = begin; pl < end; pl++) {                                                \
            const T *x = (const T *)j->x + pl * plane;                                            \
            for (int64_t od = 0; od < g->out[0]; od++) {                                          \
                for (int64_t oh = 0; oh < g->out[1]; oh++) {                                      \
                    int64_t win[6];                                                               \
                    mt__pool_window(g, od, oh, 0, win);                                           \
                    const int64_t at = pl * oplane + (od * g->out[1] + oh) * g->out[2];           \
                    T *yr = (T *)j->y + at;                                                       \
                    int64_t *ir = j->idx_out + at;                                                \
                    bool fast = win[0] < win[1] && win[2] < win[3] && a < b;                      \
                    for (int64_t ow = 0; ow < g->out[2]; ow++) {                                  \
                        if (fast && ow == a) {                                                    \
                            ow = b - 1;                                                           \
                            continue;                                                             \
                        }                                                                         \
                        win[4] = g->ax[2].lo[ow];                                                 \
                        win[5] = g->ax[2].hi[ow];                                                 \
                        mt__max_window_##name(g, x, win, yr + ow, ir + ow);                       \
                    }                                                                             \
                    for (int64_t ow = a; fast && ow < b; ow += MT__MAXB) {                        \
                        int64_t n = b - ow < MT__MAXB ? b - ow : MT__MAXB;                        \
                        mt__max_row_##name(g, x, win, ow, n, yr + ow, ir + ow);                   \
                    }                                                                             \
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
        const int64_t plane = g->in[0] * g->in[1] * g->in[2];                                     \
        const int64_t oplane = g->out[0] * g->out[1] * g->out[2];                                 \
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
        const int64_t H = g->in[1], W = g->in[2], plane = g->in[0] * H * W;                       \
        const int64_t oplane = g->out[0] * g->out[1] * g->out[2];                                 \
        for (int64_t pl = begin; pl < end; pl++) {                                                \
            const T *x = (const T *)j->x + pl * plane;                                            \
            T *y = (T *)j->y + pl * oplane;                                                       \
            int64_t o = 0, win[6];                                                                \
            for (int64_t od = 0; od < g->out[0]; od++) {                                          \
                for (int64_t oh = 0; oh < g->out[1]; oh++) {                                      \
                    for (int64_t ow = 0; ow < g->out[2]; ow++, o++) {                             \
                        mt__pool_window(g, od, oh, ow, win);                                      \
                        T s = 0;                                                                  \
                        for (int64_t id = win[0]; id < win[1]; id++) {                            \
                            for (int64_t ih = win[2]; ih < win[3]; ih++) {                        \
                                const T *row = x + (id * H + ih) * W;                             \
                                for (int64_t iw = win[4]; iw < win[5]; iw++) {                    \
                                    s += row[iw];                                                 \
                                }                                                                 \
                            }                                                                     \
                        }                                                                         \
                        int64_t div = g->divisor ? g->divisor                                     \
                                                 : g->ax[0].cnt[od] * g->ax[1].cnt[oh] *          \
                                                       g->ax[2].cnt[ow];                          \
                        bool some = win[0] < win[1] && win[2] < win[3] && win[4] < win[5];        \
                        y[o] = some ? s / (T)div : 0;                                             \
                    }                                                                             \
                }                                                                                 \
            }                                                                                     \
        }                                                                                         \
    }                                                                                             \
    static void mt__avg_pool_backward_##name(void *ctx, int64_t begin, int64_t end)               \
    {                                                                                             \
        mt__pool_job *j = ctx;                                                                    \
        const mt__pool_geom *g = j->g;                                                            \
        const int64_t H = g->in[1], W = g->in[2], plane = g->in[0] * H * W;                       \
        const int64_t oplane = g->out[0] * g->out[1] * g->out[2];                                 \
        for (int64_t pl = begin; pl < end; pl++) {                                                \
            T *gx = (T *)j->gx + pl * plane;                                                      \
            const T *gy = (const T *)j->gy + pl * oplane;                                         \
            memset(gx, 0, sizeof(T) * (size_t)plane);                                             \
            int64_t o = 0, win[6];                                                                \
            for (int64_t od = 0; od < g->out[0]; od++) {                                          \
                for (int64_t oh = 0; oh < g->out[1]; oh++) {                                      \
                    for (int64_t ow = 0; ow < g->out[2]; ow++, o++) {                             \
                        mt__pool_window(g, od, oh, ow, win);                                      \
                        if (win[0] >= win[1] || win[2] >= win[3] || win[4] >= win[5]) {           \
                            continue;                                                             \
                        }                                                                         \
                        int64_t div = g->divisor ? g->divisor                                     \
                                                 : g->ax[0].cnt[od] * g->ax[1].cnt[oh] *          \
                                                       g->ax[2].cnt[ow];                          \
                        T v = gy[o] / (T)div;                                                     \
                        for (int64_t id = win[0]; id < win[1]; id++) {                            \
                            for (int64_t ih = win[2]; ih < win[3]; ih++) {                        \
                                T *row = gx + (id * H + ih) * W;                                  \
                                for (int64_t iw = win[4]; iw < win[5]; iw++) {                    \
                                    row[iw] += v;                                                 \
                                }                                                                 \
                            }                                                                     \
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
mt__pool_run(mt__pool_job *j, mt_parallel_fn fn)
{
    const mt__pool_geom *g = j->g;
    int64_t w = g->out[0] * g->out[1] * g->out[2] + g->in[0] * g->in[1] * g->in[2];
    w = w > 0 ? w : 1;
    mt_parallel_for(0, g->planes, MT_GRAIN_SIZE / w + 1, fn, j);
}

/* New contiguous tensor shaped like input with the spatial sizes g->out. */
static mt_tensor *
mt__pool_output(const mt_tensor *input, const mt__pool_geom *g, mt_dtype dt)
{
    int64_t sz[5];
    memcpy(sz, input->sizes, sizeof(int64_t) * (size_t)input->ndim);
    memcpy(sz + input->ndim - g->nsp, g->out + 3 - g->nsp, sizeof(int64_t) * (size_t)g->nsp);
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
                    const mt__pool_geom *g)
{
    char a[256], b[256];
    int64_t want[5];
    memcpy(want, input->sizes, sizeof(int64_t) * (size_t)input->ndim);
    memcpy(want + input->ndim - g->nsp, g->out + 3 - g->nsp, sizeof(int64_t) * (size_t)g->nsp);
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
    return mt_check_same_device2(grad_output, input, NULL);
}

/* Runs the max-pooling kernel fn over the windows of g: values and int64 plane indices of
 * input's dtype and shape.  0 or a negative status (nothing is returned then). */
static int
mt__max_pool_run(mt__pool_geom *g, mt_tensor *input, bool adaptive, mt_tensor **values,
                 mt_tensor **indices)
{
    int (*kernel)(const mt__pool_geom *, const mt_tensor *, mt_tensor *, mt_tensor *, bool) =
        MT_STUB(conv, max_pool, mt_tensor_device(input).type, adaptive ? "adaptive_max_pool2d"
                                                                       : "max_pool2d");
    if (kernel == NULL) {
        return MT_ENOTIMPL;
    }
    int rc = 0;
    mt_tensor *x = mt_float_operand(input), *y = NULL, *ix = NULL;
    if (x != NULL) {
        y = mt__pool_output(x, g, x->dtype);
        ix = y != NULL ? mt__pool_output(x, g, MT_INT64) : NULL;
    }
    if (ix == NULL) {
        rc = mt_error_code();
    }
    else if ((rc = kernel(g, x, y, ix, adaptive)) == MT_OK) {
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
mt_max_pool(mt_tensor *input, const mt_pool_params *p, mt_tensor **values, mt_tensor **indices)
{
    mt__pool_geom g;
    char fname[32];
    *values = *indices = NULL;
    if (mt__pool_check(input, p, false, &g) < 0) {
        return mt_error_code();
    }
    snprintf(fname, sizeof(fname), "max_pool%dd", p->nsp);
    if (input->dtype == MT_BOOL || mt_dtype_is_complex(input->dtype) ||
        mt_dtype_is_barebones_unsigned(input->dtype)) {
        return mt__pool_not_implemented(fname, input->dtype);
    }
    if (mt__pool_tables(&g) < 0) {
        return mt_error_code();
    }
    mt__fixed_axes(&g, p, false);
    const int last = p->nsp - 1;
    g.kw = p->kernel[last];
    g.sw = p->stride[last];
    g.pw = p->padding[last];
    g.full_lo = g.full_hi = 0;
    for (int64_t ow = 0; ow < g.out[2]; ow++) {
        int64_t start = ow * g.sw - g.pw;
        if (start >= 0 && g.ax[2].lo[ow] == start &&
            g.ax[2].hi[ow] == start + (g.kw - 1) * g.dil[2] + 1) {
            if (g.full_hi == g.full_lo) {
                g.full_lo = ow;
            }
            g.full_hi = ow + 1;
        }
    }
    int rc = mt__max_pool_run(&g, input, false, values, indices);
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
    if (mt__pool_check_grad(fname, grad_output, input, g) < 0) {
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
    int (*kernel)(const mt__pool_geom *, const mt_tensor *, const mt_tensor *, mt_tensor *) =
        mt_check_same_device2(indices, input, NULL) == MT_OK
            ? MT_STUB(conv, max_pool_backward, mt_tensor_device(input).type, fname)
            : NULL;
    if (kernel == NULL) {
        return NULL;
    }
    mt_tensor *gy = mt_float_operand(grad_output);
    mt_tensor *ix = gy ? mt_contiguous((mt_tensor *)indices) : NULL;
    mt_tensor *gx = ix ? mt_tensor_empty(gy->dtype, input->ndim, input->sizes,
                                         mt_tensor_device(input))
                       : NULL;
    if (gx != NULL) {
        if (kernel(g, gy, ix, gx) < 0) {
            mt_error_prefix(mt_error_code(), "%s", fname);
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
mt_max_pool_backward(mt_tensor *grad_output, mt_tensor *input, const mt_tensor *indices,
                     const mt_pool_params *p)
{
    mt__pool_geom g;
    char fname[40];
    if (mt__pool_check(input, p, false, &g) < 0) {
        return NULL;
    }
    snprintf(fname, sizeof(fname), "max_pool%dd_backward", p->nsp);
    return mt__max_backward(fname, grad_output, input, indices, &g);
}

/* avg_pool's checks and tables (the caller frees them). */
static int
mt__avg_geom(const mt_tensor *input, const mt_pool_params *p, bool count_include_pad,
             int64_t divisor_override, mt__pool_geom *g)
{
    mt_pool_params q = *p;
    char fname[32];
    for (int i = 0; i < MT_POOL_MAX_SPATIAL; i++) {
        q.dilation[i] = 1;
    }
    if (p->nsp == 2 && (divisor_override < INT32_MIN || divisor_override > INT32_MAX)) {
        return mt_error_set(MT_ERUNTIME, "value cannot be converted to type int without overflow");
    }
    if (mt__pool_check(input, &q, true, g) < 0) {
        return mt_error_code();
    }
    snprintf(fname, sizeof(fname), "avg_pool%dd", p->nsp);
    if (!mt__pool_float(input->dtype)) {
        return mt__pool_not_implemented(fname, input->dtype);
    }
    if (mt__pool_tables(g) < 0) {
        return mt_error_code();
    }
    mt__fixed_axes(g, &q, count_include_pad);
    g->divisor = divisor_override;
    return 0;
}

/* adaptive_avg_pool's / adaptive_max_pool's checks (torch's messages, which
 * differ a little between the two) and tables; the caller frees them. */
static int
mt__adaptive_geom(bool max, int nsp, const mt_tensor *input, const int64_t *osize,
                  mt__pool_geom *g)
{
    char a[256], fname[32];
    if (nsp < 2 || nsp > 3) {
        return mt_error_set(MT_EINVAL, "pooling: %d spatial dimensions (2 or 3 expected)", nsp);
    }
    snprintf(fname, sizeof(fname), "adaptive_%s_pool%dd", max ? "max" : "avg", nsp);
    if (input->ndim != nsp + 1 && input->ndim != nsp + 2) {
        return mt_error_set(MT_ERUNTIME, "%s(): Expected %dD or %dD tensor, but got%s %s", fname,
                            nsp + 1, nsp + 2, max ? ":" : "",
                            mt_format_sizes(a, sizeof(a), input->ndim, input->sizes));
    }
    /* torch's adaptive_avg_pool2d checks the spatial dims only, the others every non-first */
    int first = !max && nsp == 2 ? input->ndim - 2 : 1;
    for (int d = first; d < input->ndim; d++) {
        if (input->sizes[d] == 0) {
            return mt__pool_empty_error(fname, input, first);
        }
    }
    int64_t s5[5], t;
    mt__pool_sizes5(input, nsp, s5);
    for (int i = 0; i < nsp; i++) {
        if (osize[i] >= 0) {
            continue;
        }
        if (max) {
            int64_t out[5];
            int lead = nsp == 2 ? 2 : input->ndim - nsp;
            memcpy(out, nsp == 2 ? s5 : input->sizes, sizeof(int64_t) * (size_t)lead);
            memcpy(out + lead, osize, sizeof(int64_t) * (size_t)nsp);
            return mt_error_set(MT_ERUNTIME, "Trying to create tensor with negative dimension "
                                "%lld: %s", (long long)osize[i],
                                mt_format_sizes(a, sizeof(a), lead + nsp, out));
        }
        if (nsp == 2) {
            return mt_error_set(MT_ERUNTIME,
                                "%s: elements of output_size must be greater than or equal to 0 "
                                "but received {%lld, %lld}", fname, (long long)osize[0],
                                (long long)osize[1]);
        }
        return mt_error_set(MT_ERUNTIME,
                            "%s: elements of output_size must be greater than or equal to 0 but "
                            "received {%lld, %lld,%lld}", fname, (long long)osize[0],
                            (long long)osize[1], (long long)osize[2]);
    }
    if (!mt__pool_float(input->dtype)) {
        if (nsp == 3) {
            snprintf(fname + strlen(fname), sizeof(fname) - strlen(fname), "_cpu");
        }
        return mt__pool_not_implemented(fname, input->dtype);
    }
    int64_t n = 0;
    for (int i = 0; i < nsp; i++) {
        if (mt_ckd_mul(&t, osize[i] + 1, s5[2 + 3 - nsp + i]) || mt_ckd_add(&n, n, 3 * osize[i])) {
            return mt_error_set(MT_ERUNTIME, "%s: output size (%s) is too large", fname,
                                mt_format_sizes(a, sizeof(a), nsp, osize));
        }
    }
    *g = (mt__pool_geom){.nsp = nsp, .planes = s5[0] * s5[1]};
    for (int i = 0; i < 3; i++) {
        int src = i - (3 - nsp);
        g->in[i] = s5[2 + i];
        g->out[i] = src >= 0 ? osize[src] : 1;
        g->dil[i] = 1;
    }
    if (mt__pool_tables(g) < 0) {
        return mt_error_code();
    }
    for (int i = 0; i < 3; i++) {
        mt__adaptive_axis(&g->ax[i], g->out[i], g->in[i]);
    }
    return 0;
}

/* The forward of both averages over g (tables built; freed here). */
static mt_tensor *
mt__avg_forward(mt_tensor *input, mt__pool_geom *g)
{
    int (*kernel)(const mt__pool_geom *, const mt_tensor *, mt_tensor *) =
        MT_STUB(conv, avg_pool, mt_tensor_device(input).type, "avg_pool2d");
    mt_tensor *x = kernel ? mt_float_operand(input) : NULL;
    mt_tensor *y = x ? mt__pool_output(x, g, x->dtype) : NULL;
    if (y != NULL && y->numel > 0 && kernel(g, x, y) < 0) {
        mt_tensor_decref(y);
        y = NULL;
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
    if (mt__pool_check_grad(fname, grad_output, input, g) < 0) {
        goto done;
    }
    int (*kernel)(const mt__pool_geom *, const mt_tensor *, mt_tensor *) =
        MT_STUB(conv, avg_pool_backward, mt_tensor_device(input).type, fname);
    gy = kernel ? mt_float_operand(grad_output) : NULL;
    gx = gy ? mt_tensor_empty(gy->dtype, input->ndim, input->sizes, mt_tensor_device(input)) : NULL;
    if (gx != NULL && gx->numel > 0 && kernel(g, gy, gx) < 0) {
        mt_tensor_decref(gx);
        gx = NULL;
    }
    gx = mt_float_result(gx, input->dtype);
done:
    mt__pool_geom_free(g);
    mt_tensor_decref(gy);
    return gx;
}

mt_tensor *
mt_avg_pool(mt_tensor *input, const mt_pool_params *p, bool count_include_pad,
            int64_t divisor_override)
{
    mt__pool_geom g;
    if (mt__avg_geom(input, p, count_include_pad, divisor_override, &g) < 0) {
        return NULL;
    }
    return mt__avg_forward(input, &g);
}

mt_tensor *
mt_avg_pool_backward(mt_tensor *grad_output, mt_tensor *input, const mt_pool_params *p,
                     bool count_include_pad, int64_t divisor_override)
{
    mt__pool_geom g;
    char fname[40];
    if (mt__avg_geom(input, p, count_include_pad, divisor_override, &g) < 0) {
        return NULL;
    }
    snprintf(fname, sizeof(fname), "avg_pool%dd_backward", p->nsp);
    return mt__avg_backward(fname, grad_output, input, &g);
}

mt_tensor *
mt_adaptive_avg_pool(mt_tensor *input, int nsp, const int64_t *osize)
{
    mt__pool_geom g;
    if (mt__adaptive_geom(false, nsp, input, osize, &g) < 0) {
        return NULL;
    }
    return mt__avg_forward(input, &g);
}

/* The output size of an adaptive pooling's backward: grad_output's last
 * nsp sizes (checked to be a rank the forward could have made). */
static int
mt__adaptive_grad_size(const char *fname, const mt_tensor *grad_output, const mt_tensor *input,
                       int nsp, int64_t *osize)
{
    if (grad_output->ndim != input->ndim || grad_output->ndim < nsp + 1) {
        char a[256];
        return mt_error_set(MT_ERUNTIME, "%s: expected grad_output of rank %d, but got size %s",
                            fname, input->ndim,
                            mt_format_sizes(a, sizeof(a), grad_output->ndim, grad_output->sizes));
    }
    memcpy(osize, grad_output->sizes + grad_output->ndim - nsp, sizeof(int64_t) * (size_t)nsp);
    return 0;
}

mt_tensor *
mt_adaptive_avg_pool_backward(mt_tensor *grad_output, mt_tensor *input, int nsp)
{
    mt__pool_geom g;
    int64_t osize[MT_POOL_MAX_SPATIAL];
    char fname[48];
    snprintf(fname, sizeof(fname), "adaptive_avg_pool%dd_backward", nsp);
    if (nsp < 2 || nsp > 3 || mt__adaptive_grad_size(fname, grad_output, input, nsp, osize) < 0 ||
        mt__adaptive_geom(false, nsp, input, osize, &g) < 0) {
        if (nsp < 2 || nsp > 3) {
            mt_error_set(MT_EINVAL, "pooling: %d spatial dimensions (2 or 3 expected)", nsp);
        }
        return NULL;
    }
    return mt__avg_backward(fname, grad_output, input, &g);
}

int
mt_adaptive_max_pool(mt_tensor *input, int nsp, const int64_t *osize, mt_tensor **values,
                     mt_tensor **indices)
{
    mt__pool_geom g;
    *values = *indices = NULL;
    if (mt__adaptive_geom(true, nsp, input, osize, &g) < 0) {
        return mt_error_code();
    }
    int rc = mt__max_pool_run(&g, input, true, values, indices);
    mt__pool_geom_free(&g);
    return rc;
}

mt_tensor *
mt_adaptive_max_pool_backward(mt_tensor *grad_output, mt_tensor *input, const mt_tensor *indices,
                              int nsp)
{
    mt__pool_geom g;
    int64_t osize[MT_POOL_MAX_SPATIAL];
    char fname[48];
    snprintf(fname, sizeof(fname), "adaptive_max_pool%dd_backward", nsp);
    if (nsp < 2 || nsp > 3 || mt__adaptive_grad_size(fname, grad_output, input, nsp, osize) < 0 ||
        mt__adaptive_geom(true, nsp, input, osize, &g) < 0) {
        if (nsp < 2 || nsp > 3) {
            mt_error_set(MT_EINVAL, "pooling: %d spatial dimensions (2 or 3 expected)", nsp);
        }
        return NULL;
    }
    mt_tensor *r = mt__max_backward(fname, grad_output, input, indices, &g);
    mt__pool_geom_free(&g);
    return r;
}

/* ---- the cpu pooling kernels (see Note [Kernel stubs]; the conv family's table is in
 * conv.c) ---- */

int
mt__cpu_max_pool(const mt__pool_geom *g, const mt_tensor *x, mt_tensor *y, mt_tensor *ix,
                 bool adaptive)
{
    mt_parallel_fn fn;
    switch (x->dtype) {
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
        fn = mt__max_pool_float32;
        break;
    case MT_FLOAT64:
        fn = mt__max_pool_float64;
        break;
    default:
        return mt__pool_not_implemented("max_pool", x->dtype);
    }
    if (adaptive) {
        fn = x->dtype == MT_FLOAT64 ? mt__max_windows_float64 : mt__max_windows_float32;
    }
    mt__pool_job j = {.g = g, .x = mt_tensor_data(x), .y = mt_tensor_data(y),
                      .idx_out = (int64_t *)mt_tensor_data(ix)};
    mt__pool_run(&j, fn);
    return MT_OK;
}

int
mt__cpu_max_pool_backward(const mt__pool_geom *g, const mt_tensor *gy, const mt_tensor *ix,
                          mt_tensor *gx)
{
    mt__pool_job j = {.g = g, .gy = mt_tensor_data(gy), .gx = mt_tensor_data(gx),
                      .idx_in = (const int64_t *)mt_tensor_data(ix)};
    mt__pool_run(&j, gy->dtype == MT_FLOAT64 ? mt__max_pool_backward_float64
                                             : mt__max_pool_backward_float32);
    if (atomic_load(&j.bad_index)) {
        return mt_error_set(MT_EINDEX,
                            "an index is outside its plane of %lld elements (indices must come "
                            "from the forward call)", (long long)(g->in[0] * g->in[1] * g->in[2]));
    }
    return MT_OK;
}

int
mt__cpu_avg_pool(const mt__pool_geom *g, const mt_tensor *x, mt_tensor *y)
{
    mt__pool_job j = {.g = g, .x = mt_tensor_data(x), .y = mt_tensor_data(y)};
    mt__pool_run(&j, x->dtype == MT_FLOAT64 ? mt__avg_pool_float64 : mt__avg_pool_float32);
    return MT_OK;
}

int
mt__cpu_avg_pool_backward(const mt__pool_geom *g, const mt_tensor *gy, mt_tensor *gx)
{
    mt__pool_job j = {.g = g, .gy = mt_tensor_data(gy), .gx = mt_tensor_data(gx)};
    mt__pool_run(&j, gy->dtype == MT_FLOAT64 ? mt__avg_pool_backward_float64
                                             : mt__avg_pool_backward_float32);
    return MT_OK;
}
