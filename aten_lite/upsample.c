/* aten_lite/upsample.c - resampling as one sparse linear map per spatial axis, applied axis by axis; the backward applies the transposed maps. */
#include "aten_lite/upsample.h"
#include "aten_lite/upsample_map.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aten_lite/cpu/loops.h"
#include "aten_lite/kernel_stubs.h"
#include "aten_lite/ops.h"
#include "aten_lite/parallel.h"
#include "c10_lite/error.h"

/* Note [Separable resampling]
 * Every mode of torch's interpolate but 'area' (an adaptive average
 * pooling) is separable: output (o_d, o_h, o_w) is a weighted sum over a
 * product of per-axis source positions, with weights that are products of
 * per-axis weights - nearest: one source of weight 1; linear: two; cubic:
 * four, clamped at the border; antialiased: a filter whose support grows
 * with the downscaling factor, normalised to sum 1.  So each axis gets a
 * map: for each output position its sources and weights, as compressed
 * rows (off[o] .. off[o + 1]), computed as torch computes its indices and
 * weights (for float32 in float arithmetic where torch uses it, so nearest
 * indices and linear weights are torch's to the bit).  The resampling is
 * one gather pass per axis over (outer, n, inner) blocks, spread over the
 * pool by output rows; passes run with the axes that shrink most first, so
 * the intermediates stay small.  An axis that torch maps as the identity
 * (nearest and linear with equal sizes) is skipped.
 *
 * The backward applies the transposed maps, also as gathers: the
 * transposed map lists for each input position the (output, weight) pairs
 * that read it, in the order of the outputs, so each input gradient is a
 * sum in a fixed order (the same for any thread count), and the backward of
 * the backward is the forward again (what makes the derivatives of every
 * order of a resampling recorded ops, see autograd/formulas.py). */

void
mt__map_free(mt__map *mp)
{
    free(mp->off);
    free(mp->src);
    free(mp->w);
    free(mp->wf);
    *mp = (mt__map){0};
}

/* Room for m rows of at most per_row entries.  0 or an error. */
static int
mt__map_alloc(mt__map *mp, int64_t n, int64_t m, int64_t per_row)
{
    int64_t nnz;
    *mp = (mt__map){.n = n, .m = m};
    if (mt_ckd_mul(&nnz, m, per_row)) {
        return mt_error_set(MT_ERUNTIME, "upsample: an output size of %lld is too large",
                            (long long)m);
    }
    mp->off = mt_malloc_array(m + 1, sizeof(int64_t));
    mp->src = mp->off ? mt_malloc_array(nnz, sizeof(int64_t)) : NULL;
    mp->w = mp->src ? mt_malloc_array(nnz, sizeof(double)) : NULL;
    mp->wf = mp->w ? mt_malloc_array(nnz, sizeof(float)) : NULL;
    if (mp->wf == NULL) {
        mt__map_free(mp);
        return mt_error_code();
    }
    mp->off[0] = 0;
    return 0;
}

/* v rounded to float32 when single (torch's float arithmetic for float32). */
static inline double
mt__r(double v, bool single)
{
    return single ? (double)(float)v : v;
}

/* torch's area_pixel_compute_scale: source units per output unit. */
static double
mt__up_scale(int64_t n, int64_t m, bool align, double user, bool single)
{
    if (align) {
        return m > 1 ? mt__r((double)(n - 1) / (double)(m - 1), single) : 0.0;
    }
    return user > 0 ? mt__r(1.0 / user, single) : mt__r((double)n / (double)m, single);
}

/* torch's area_pixel_compute_source_index. */
static double
mt__up_source(double scale, int64_t o, bool align, bool cubic, bool single)
{
    if (align) {
        return mt__r(scale * (double)o, single);
    }
    double s = mt__r(mt__r(scale * ((double)o + 0.5), single) - 0.5, single);
    return (!cubic && s < 0) ? 0.0 : s;
}

static inline int64_t
mt__clamp_i(int64_t v, int64_t lo, int64_t hi)
{
    return v < lo ? lo : (v > hi ? hi : v);
}

/* The antialiasing filters (PIL's): x in units of the filter's support. */
static double
mt__aa_filter(mt_upsample_mode mode, double x)
{
    if (x < 0) {
        x = -x;
    }
    switch (mode) {
    case MT_UPSAMPLE_LINEAR:
        return x < 1.0 ? 1.0 - x : 0.0;
    case MT_UPSAMPLE_CUBIC: { /* a = -0.5 */
        const double a = -0.5;
        if (x < 1.0) {
            return ((a + 2) * x - (a + 3)) * x * x + 1;
        }
        if (x < 2.0) {
            return ((a * x - 5 * a) * x + 8 * a) * x - 4 * a;
        }
        return 0.0;
    }
    default: { /* lanczos, a = 3 */
        if (x >= 3.0) {
            return 0.0;
        }
        if (x == 0.0) {
            return 1.0;
        }
        const double pi = 3.14159265358979323846;
        return sin(pi * x) / (pi * x) * sin(pi * x / 3.0) / (pi * x / 3.0);
    }
    }
}

/* The map of one axis (n sources, m results) of a resampling (Note
 * [Separable resampling]).  single: float32 arithmetic.  0 or an error. */
static int
mt__map_build(mt__map *mp, int64_t n, int64_t m, const mt_upsample_params *p, double user,
              bool single)
{
    const mt_upsample_mode mode = p->mode;
    const bool align = p->align_corners;
    if (p->antialias) {
        const double interp = mode == MT_UPSAMPLE_LINEAR ? 2.0 : (mode == MT_UPSAMPLE_CUBIC ? 4.0 : 6.0);
        double scale = mt__up_scale(n, m, align, user, single);
        double support = scale >= 1.0 ? interp * 0.5 * scale : interp * 0.5;
        double cap = ceil(support) * 2 + 1;
        int64_t per_row = cap < (double)n ? (int64_t)cap : n;
        if (mt__map_alloc(mp, n, m, per_row > 0 ? per_row : 1) < 0) {
            return mt_error_code();
        }
        double invscale = scale >= 1.0 ? 1.0 / scale : 1.0;
        int64_t at = 0;
        for (int64_t o = 0; o < m; o++) {
            double center = scale * ((double)o + 0.5);
            int64_t lo = (int64_t)(center - support + 0.5);
            lo = lo > 0 ? lo : 0;
            int64_t hi = (int64_t)(center + support + 0.5);
            hi = hi < n ? hi : n;
            int64_t size = mt__clamp_i(hi - lo, 0, per_row);
            double total = 0;
            for (int64_t j = 0; j < size; j++) {
                double w = mt__aa_filter(mode, ((double)(j + lo) - center + 0.5) * invscale);
                mp->src[at + j] = lo + j;
                mp->w[at + j] = w;
                total += w;
            }
            for (int64_t j = 0; total != 0.0 && j < size; j++) {
                mp->w[at + j] /= total;
            }
            at += size;
            mp->off[o + 1] = at;
        }
    }
    else if (mode == MT_UPSAMPLE_NEAREST || mode == MT_UPSAMPLE_NEAREST_EXACT) {
        if (mt__map_alloc(mp, n, m, 1) < 0) {
            return mt_error_code();
        }
        /* torch computes the scale in float for every dtype (its contiguous kernel: no
         * shortcut for equal or doubled sizes, which matters with a user's scale) */
        float scale = user > 0 ? (float)(1.0 / user) : (float)n / (float)m;
        mp->identity = n == m;
        for (int64_t o = 0; o < m; o++) {
            int64_t s;
            if (mode == MT_UPSAMPLE_NEAREST_EXACT) {
                s = (int64_t)floorf((float)(((double)o + 0.5) * (double)scale));
            }
            else {
                s = (int64_t)floorf((float)o * scale);
            }
            mp->src[o] = s < n - 1 ? s : n - 1;
            mp->w[o] = 1.0;
            mp->off[o + 1] = o + 1;
            mp->identity &= mp->src[o] == o;
        }
    }
    else if (mode == MT_UPSAMPLE_LINEAR) {
        if (mt__map_alloc(mp, n, m, 2) < 0) {
            return mt_error_code();
        }
        double scale = mt__up_scale(n, m, align, user, single);
        for (int64_t o = 0; o < m; o++) {
            int64_t i0 = o, i1 = o;
            double l0 = 1.0, l1 = 0.0;
            if (n != m) {
                double real = mt__up_source(scale, o, align, false, single);
                i0 = (int64_t)floorf((float)real);
                i0 = i0 < n - 1 ? i0 : n - 1;
                l1 = mt__r(real - (double)i0, single);
                l1 = l1 < 0 ? 0 : (l1 > 1 ? 1 : l1);
                i1 = i0 + (i0 < n - 1 ? 1 : 0);
                l0 = mt__r(1.0 - l1, single);
            }
            mp->src[2 * o] = i0;
            mp->src[2 * o + 1] = i1;
            mp->w[2 * o] = l0;
            mp->w[2 * o + 1] = l1;
            mp->off[o + 1] = 2 * o + 2;
        }
        mp->identity = n == m;
    }
    else { /* cubic, A = -0.75 */
        if (mt__map_alloc(mp, n, m, 4) < 0) {
            return mt_error_code();
        }
        const double A = -0.75;
        double scale = mt__up_scale(n, m, align, user, single);
        for (int64_t o = 0; o < m; o++) {
            double real = mt__up_source(scale, o, align, true, single);
            int64_t i0 = (int64_t)floorf((float)real);
            i0 = i0 < n - 1 ? i0 : n - 1;
            double t = mt__r(real - (double)i0, single);
            t = t < 0 ? 0 : (t > 1 ? 1 : t);
            double x1 = mt__r(t + 1.0, single), x2 = mt__r(1.0 - t, single);
            double x3 = mt__r(x2 + 1.0, single);
            double c[4] = {
                ((A * x1 - 5 * A) * x1 + 8 * A) * x1 - 4 * A,
                ((A + 2) * t - (A + 3)) * t * t + 1,
                ((A + 2) * x2 - (A + 3)) * x2 * x2 + 1,
                ((A * x3 - 5 * A) * x3 + 8 * A) * x3 - 4 * A,
            };
            for (int j = 0; j < 4; j++) {
                mp->src[4 * o + j] = mt__clamp_i(i0 - 1 + j, 0, n - 1);
                mp->w[4 * o + j] = mt__r(c[j], single);
            }
            mp->off[o + 1] = 4 * o + 4;
        }
    }
    for (int64_t k = 0; k < mp->off[m]; k++) {
        mp->wf[k] = (float)mp->w[k];
    }
    return 0;
}

/* The transposed map of fwd (its results become the sources): for each
 * source position of fwd, the (result, weight) pairs that read it, in the
 * order of the results.  0 or an error. */
static int
mt__map_transpose(const mt__map *fwd, mt__map *t)
{
    int64_t nnz = fwd->off[fwd->m];
    *t = (mt__map){.n = fwd->m, .m = fwd->n, .identity = fwd->identity};
    t->off = mt_malloc_array(fwd->n + 1, sizeof(int64_t));
    t->src = t->off ? mt_malloc_array(nnz, sizeof(int64_t)) : NULL;
    t->w = t->src ? mt_malloc_array(nnz, sizeof(double)) : NULL;
    t->wf = t->w ? mt_malloc_array(nnz, sizeof(float)) : NULL;
    if (t->wf == NULL) {
        mt__map_free(t);
        return mt_error_code();
    }
    memset(t->off, 0, sizeof(int64_t) * (size_t)(fwd->n + 1));
    for (int64_t k = 0; k < nnz; k++) {
        t->off[fwd->src[k] + 1]++;
    }
    for (int64_t i = 0; i < fwd->n; i++) {
        t->off[i + 1] += t->off[i];
    }
    int64_t *fill = mt_malloc_array(fwd->n, sizeof(int64_t));
    if (fill == NULL) {
        mt__map_free(t);
        return mt_error_code();
    }
    memcpy(fill, t->off, sizeof(int64_t) * (size_t)fwd->n);
    for (int64_t o = 0; o < fwd->m; o++) {
        for (int64_t k = fwd->off[o]; k < fwd->off[o + 1]; k++) {
            int64_t at = fill[fwd->src[k]]++;
            t->src[at] = o;
            t->w[at] = fwd->w[k];
            t->wf[at] = fwd->wf[k];
        }
    }
    free(fill);
    return 0;
}

/* One pass: y (outer x m x inner) = the map applied to x (outer x n x inner). */
typedef struct mt__pass {
    const mt__map *mp;
    const char *x;
    char *y;
    int64_t inner;
    size_t esize; /* copy passes: the element size */
} mt__pass;

#define MT__DEFINE_PASS(name, T, W)                                                               \
    MT_SIMD_CLONES static void mt__pass_##name(void *ctx, int64_t begin, int64_t end)             \
    {                                                                                             \
        const mt__pass *a = ctx;                                                                  \
        const mt__map *mp = a->mp;                                                                \
        const T *w = (const T *)mp->W;                                                            \
        const int64_t n = mp->n, m = mp->m, inner = a->inner;                                     \
        for (int64_t task = begin; task < end; task++) {                                          \
            const int64_t r = task / m, o = task % m;                                             \
            const T *xr = (const T *)a->x + r * n * inner;                                        \
            T *restrict dst = (T *)a->y + task * inner;                                           \
            const int64_t k0 = mp->off[o], k1 = mp->off[o + 1];                                   \
            if (k0 == k1) {                                                                       \
                memset(dst, 0, sizeof(T) * (size_t)inner);                                        \
                continue;                                                                         \
            }                                                                                     \
            if (inner == 1) {                                                                     \
                T s = w[k0] * xr[mp->src[k0]];                                                    \
                for (int64_t k = k0 + 1; k < k1; k++) {                                           \
                    s += w[k] * xr[mp->src[k]];                                                   \
                }                                                                                 \
                *dst = s;                                                                         \
                continue;                                                                         \
            }                                                                                     \
            const T w0 = w[k0], *s0 = xr + mp->src[k0] * inner;                                   \
            for (int64_t i = 0; i < inner; i++) {                                                 \
                dst[i] = w0 * s0[i];                                                              \
            }                                                                                     \
            for (int64_t k = k0 + 1; k < k1; k++) {                                               \
                const T wk = w[k], *sk = xr + mp->src[k] * inner;                                 \
                for (int64_t i = 0; i < inner; i++) {                                             \
                    dst[i] += wk * sk[i];                                                         \
                }                                                                                 \
            }                                                                                     \
        }                                                                                         \
    }
MT__DEFINE_PASS(float32, float, wf)
MT__DEFINE_PASS(float64, double, w)

/* A nearest pass: each result row a copy of its one source row (any dtype). */
#define MT__DEFINE_COPY_PASS(name, T)                                                             \
    static void mt__copy_pass_##name(void *ctx, int64_t begin, int64_t end)                       \
    {                                                                                             \
        const mt__pass *a = ctx;                                                                  \
        const mt__map *mp = a->mp;                                                                \
        const int64_t n = mp->n, m = mp->m, inner = a->inner;                                     \
        for (int64_t task = begin; task < end; task++) {                                          \
            const int64_t r = task / m, o = task % m;                                             \
            const T *s = (const T *)a->x + (r * n + mp->src[o]) * inner;                          \
            T *dst = (T *)a->y + task * inner;                                                    \
            for (int64_t i = 0; i < inner; i++) {                                                 \
                dst[i] = s[i];                                                                    \
            }                                                                                     \
        }                                                                                         \
    }
MT__DEFINE_COPY_PASS(b1, uint8_t)
MT__DEFINE_COPY_PASS(b2, uint16_t)
MT__DEFINE_COPY_PASS(b4, uint32_t)
MT__DEFINE_COPY_PASS(b8, uint64_t)

/* Runs the map mp over x (outer x n x inner) into y. */
static void
mt__run_pass(const mt__map *mp, const char *x, char *y, int64_t outer, int64_t inner,
             mt_dtype dt, bool copy)
{
    mt__pass a = {.mp = mp, .x = x, .y = y, .inner = inner, .esize = mt_dtype_itemsize(dt)};
    int64_t tasks = outer * mp->m;
    int64_t taps = mp->m > 0 ? mp->off[mp->m] / mp->m + 1 : 1;
    int64_t grain = MT_GRAIN_SIZE / (taps * inner) + 1;
    mt_parallel_fn fn;
    if (copy) {
        fn = a.esize == 1 ? mt__copy_pass_b1 : a.esize == 2 ? mt__copy_pass_b2
           : a.esize == 4 ? mt__copy_pass_b4 : mt__copy_pass_b8;
    }
    else {
        fn = dt == MT_FLOAT64 ? mt__pass_float64 : mt__pass_float32;
    }
    mt_parallel_for(0, tasks, grain, fn, &a);
}

/* The kernel torch names when it refuses a dtype. */
static const char *
mt__refusing_kernel(const mt_upsample_params *p)
{
    bool nearest = p->mode == MT_UPSAMPLE_NEAREST || p->mode == MT_UPSAMPLE_NEAREST_EXACT;
    if (p->antialias) {
        return "compute_index_ranges_weights";
    }
    if (p->mode == MT_UPSAMPLE_CUBIC) {
        return "compute_indices_weights_cubic";
    }
    if (p->nsp == 2) {
        return nearest ? "upsample_nearest2d_channels_last" : "upsample_bilinear2d_channels_last";
    }
    return nearest ? "compute_indices_weights_nearest" : "compute_indices_weights_linear";
}

/* "D: a, H: b, W: c" of the last nsp of v. */
static char *
mt__dhw(char *buf, size_t cap, int nsp, const int64_t *v)
{
    static const char *const axes[3] = {"D", "H", "W"};
    size_t at = 0;
    buf[0] = '\0';
    for (int i = 0; i < nsp && at < cap; i++) {
        int w = snprintf(buf + at, cap - at, "%s%s: %lld", i ? ", " : "", axes[3 - nsp + i],
                         (long long)v[i]);
        if (w < 0) {
            break;
        }
        at += (size_t)w;
    }
    return buf;
}

/* torch's checks of a resampling of an input of sizes `in` (ndim of them). */
static int
mt__upsample_check(int ndim, const int64_t *in, mt_dtype dt, const mt_upsample_params *p,
                   bool backward)
{
    char a[256], b[256];
    const int nsp = p->nsp;
    if (nsp < 1 || nsp > MT_UPSAMPLE_MAX_SPATIAL || ndim != nsp + 2) {
        return mt_error_set(MT_EINVAL, "upsample: an input of %d dims with %d spatial ones", ndim,
                            nsp);
    }
    bool aa_mode = p->mode == MT_UPSAMPLE_LINEAR || p->mode == MT_UPSAMPLE_CUBIC ||
                   p->mode == MT_UPSAMPLE_LANCZOS;
    if ((p->antialias && (!aa_mode || nsp != 2)) ||
        (p->mode == MT_UPSAMPLE_LANCZOS && !p->antialias) ||
        (p->mode == MT_UPSAMPLE_CUBIC && nsp != 2) || (p->align_corners && !aa_mode)) {
        return mt_error_set(MT_EINVAL, "upsample: this mode, antialias and align_corners do not "
                            "go together for %d spatial dims", nsp);
    }
    bool positive = true;
    for (int i = 0; i < nsp; i++) {
        positive &= in[2 + i] > 0 && p->out[i] > 0;
    }
    if (!positive) {
        mt__dhw(a, sizeof(a), nsp, in + 2);
        mt__dhw(b, sizeof(b), nsp, p->out);
        return mt_error_set(MT_ERUNTIME,
                            "Input and output sizes should be greater than 0, but got input (%s)%s "
                            "output (%s)", a, nsp == 1 ? " and" : "", b);
    }
    if (in[1] == 0) {
        return mt_error_set(MT_ERUNTIME, "Non-empty %dD data tensor expected but got a tensor "
                            "with sizes %s", ndim, mt_format_sizes(a, sizeof(a), ndim, in));
    }
    bool flt = dt == MT_FLOAT32 || dt == MT_FLOAT64 || dt == MT_FLOAT16 || dt == MT_BFLOAT16;
    bool nearest = p->mode == MT_UPSAMPLE_NEAREST || p->mode == MT_UPSAMPLE_NEAREST_EXACT;
    if (!flt && !(nearest && !backward && dt == MT_UINT8)) {
        return mt_error_set(MT_ENOTIMPL, "\"%s\" not implemented for '%s'",
                            mt__refusing_kernel(p), mt_dtype_scalar_name(dt));
    }
    int64_t numel = in[0] * in[1], sz[MT_UPSAMPLE_MAX_SPATIAL + 2] = {in[0], in[1]};
    bool overflow = false;
    for (int i = 0; i < nsp; i++) {
        sz[2 + i] = p->out[i];
        overflow |= mt_ckd_mul(&numel, numel, p->out[i]);
    }
    if (overflow || mt_ckd_mul(&numel, numel, 8)) {
        return mt_error_set(MT_ERUNTIME, "Storage size calculation overflowed with sizes=%s",
                            mt_format_sizes(a, sizeof(a), ndim, sz));
    }
    return 0;
}

/* The axes' maps (upsample_map.h). */
int
mt__build_maps(const mt_upsample_params *p, const int64_t *from, const int64_t *to,
               bool transposed, bool single, mt__map *maps, int *order)
{
    int nsp = p->nsp, k = 0;
    for (int i = 0; i < nsp; i++) {
        order[i] = i;
    }
    for (int i = 1; i < nsp; i++) { /* insertion sort by to/from, stable */
        int v = order[i], j = i;
        while (j > 0 && (double)to[v] * (double)from[order[j - 1]] <
                            (double)to[order[j - 1]] * (double)from[v]) {
            order[j] = order[j - 1];
            j--;
        }
        order[j] = v;
    }
    for (k = 0; k < nsp; k++) {
        int ax = order[k];
        int rc;
        if (!transposed) {
            rc = mt__map_build(&maps[k], from[ax], to[ax], p, p->scales[ax], single);
        }
        else {
            mt__map fwd;
            rc = mt__map_build(&fwd, to[ax], from[ax], p, p->scales[ax], single);
            if (rc == 0) {
                rc = mt__map_transpose(&fwd, &maps[k]);
                mt__map_free(&fwd);
            }
        }
        if (rc < 0) {
            for (int j = 0; j < k; j++) {
                mt__map_free(&maps[j]);
            }
            return rc;
        }
    }
    return 0;
}

/* Runs the passes of `maps` over x (n, c, *from) into y (n, c, *to), through
 * scratch buffers.  0 or an error. */
static int
mt__run_maps(const mt_upsample_params *p, const mt__map *maps, const int *order,
             const int64_t *lead, const int64_t *from, const char *x, char *y, mt_dtype dt,
             bool copy)
{
    int nsp = p->nsp;
    size_t es = mt_dtype_itemsize(dt);
    int64_t cur[MT_UPSAMPLE_MAX_SPATIAL];
    memcpy(cur, from, sizeof(int64_t) * (size_t)nsp);
    int last = -1;
    for (int k = 0; k < nsp; k++) {
        if (!maps[k].identity) {
            last = k;
        }
    }
    const char *src = x;
    char *owned = NULL;
    int rc = 0;
    for (int k = 0; k <= last; k++) {
        const mt__map *mp = &maps[k];
        int ax = order[k];
        if (mp->identity) {
            continue;
        }
        int64_t outer = lead[0] * lead[1], inner = 1;
        for (int i = 0; i < ax; i++) {
            outer *= cur[i];
        }
        for (int i = ax + 1; i < nsp; i++) {
            inner *= cur[i];
        }
        char *dst = y;
        if (k != last) {
            int64_t numel = outer * mp->m * inner; /* at most an intermediate's size */
            dst = mt_malloc_array(numel, es);
            if (dst == NULL) {
                rc = mt_error_code();
                break;
            }
        }
        mt__run_pass(mp, src, dst, outer, inner, dt, copy);
        free(owned);
        owned = k != last ? dst : NULL;
        src = dst;
        cur[ax] = mp->m;
    }
    free(owned);
    if (rc == 0 && last < 0) { /* every axis the identity */
        int64_t numel = lead[0] * lead[1];
        for (int i = 0; i < nsp; i++) {
            numel *= from[i];
        }
        memcpy(y, x, (size_t)numel * es);
    }
    return rc;
}

/* The resampling of x (contiguous, n, c, *from) to y (n, c, *to) by the
 * maps of p, forward or transposed.  0 or an error. */
int
mt__cpu_resample(const mt_upsample_params *p, const mt_tensor *x, mt_tensor *y, bool transposed)
{
    int nsp = p->nsp;
    mt__map maps[MT_UPSAMPLE_MAX_SPATIAL];
    int order[MT_UPSAMPLE_MAX_SPATIAL];
    const int64_t *from = x->sizes + 2, *to = y->sizes + 2;
    bool copy = !transposed && (p->mode == MT_UPSAMPLE_NEAREST ||
                                p->mode == MT_UPSAMPLE_NEAREST_EXACT);
    bool single = x->dtype != MT_FLOAT64;
    if (mt__build_maps(p, from, to, transposed, single, maps, order) < 0) {
        return mt_error_code();
    }
    int rc = mt__run_maps(p, maps, order, x->sizes, from, mt_tensor_data(x), mt_tensor_data(y),
                          x->dtype, copy);
    for (int k = 0; k < nsp; k++) {
        mt__map_free(&maps[k]);
    }
    return rc;
}

mt_tensor *
mt_upsample(mt_tensor *input, const mt_upsample_params *p)
{
    if (mt__upsample_check(input->ndim, input->sizes, input->dtype, p, false) < 0) {
        return NULL;
    }
    int (*resample)(const mt_upsample_params *, const mt_tensor *, mt_tensor *, bool) =
        MT_STUB(conv, resample, mt_tensor_device(input).type, "upsample");
    if (resample == NULL) {
        return NULL;
    }
    int64_t sz[MT_UPSAMPLE_MAX_SPATIAL + 2] = {input->sizes[0], input->sizes[1]};
    memcpy(sz + 2, p->out, sizeof(int64_t) * (size_t)p->nsp);
    bool nearest = p->mode == MT_UPSAMPLE_NEAREST || p->mode == MT_UPSAMPLE_NEAREST_EXACT;
    mt_tensor *x = nearest ? mt_contiguous(input) : mt_float_operand(input);
    mt_tensor *y = x ? mt_tensor_empty(x->dtype, input->ndim, sz, mt_tensor_device(x)) : NULL;
    if (y != NULL && y->numel > 0 && resample(p, x, y, false) < 0) {
        mt_tensor_decref(y);
        y = NULL;
    }
    mt_tensor_decref(x);
    return nearest ? y : mt_float_result(y, input->dtype);
}

mt_tensor *
mt_upsample_backward(mt_tensor *grad_output, int ndim, const int64_t *input_sizes,
                     const mt_upsample_params *p)
{
    char a[256], b[256];
    if (mt__upsample_check(ndim, input_sizes, grad_output->dtype, p, true) < 0) {
        return NULL;
    }
    int64_t want[MT_UPSAMPLE_MAX_SPATIAL + 2] = {input_sizes[0], input_sizes[1]};
    memcpy(want + 2, p->out, sizeof(int64_t) * (size_t)p->nsp);
    if (grad_output->ndim != ndim ||
        memcmp(grad_output->sizes, want, sizeof(int64_t) * (size_t)ndim) != 0) {
        mt_error_set(MT_ERUNTIME, "upsample backward: expected grad_output of size %s, but got %s",
                     mt_format_sizes(a, sizeof(a), ndim, want),
                     mt_format_sizes(b, sizeof(b), grad_output->ndim, grad_output->sizes));
        return NULL;
    }
    int (*resample)(const mt_upsample_params *, const mt_tensor *, mt_tensor *, bool) =
        MT_STUB(conv, resample, mt_tensor_device(grad_output).type, "upsample_backward");
    if (resample == NULL) {
        return NULL;
    }
    mt_tensor *gy = mt_float_operand(grad_output);
    mt_tensor *gx = gy ? mt_tensor_empty(gy->dtype, ndim, input_sizes, mt_tensor_device(gy)) : NULL;
    if (gx != NULL && gx->numel > 0 && resample(p, gy, gx, true) < 0) {
        mt_tensor_decref(gx);
        gx = NULL;
    }
    mt_tensor_decref(gy);
    return mt_float_result(gx, grad_output->dtype);
}
