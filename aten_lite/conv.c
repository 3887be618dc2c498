/* aten_lite/conv.c - 2-D convolution, forward and backward: checks, im2col + GEMM over the batch, dispatch to Winograd. */
#include "aten_lite/conv.h"

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aten_lite/cpu/loops.h"
#include "aten_lite/linalg.h"
#include "aten_lite/ops.h"
#include "aten_lite/parallel.h"
#include "aten_lite/winograd.h"
#include "c10_lite/error.h"

/* Note [Convolution as GEMM]
 * For one image and one group, with K = (C_in / groups) * kH * kW and
 * P = OH * OW, the columns matrix col (K x P) holds in row (c, i, j) and
 * column (oh, ow) the input value x[c, oh*sH - pH + i*dH, ow*sW - pW + j*dW]
 * (0 in the padding).  Then, per group (W_g its C_out/groups x K rows):
 *     y        = W_g @ col                 (+ bias, row by row)
 *     grad_W_g += grad_y @ col^T           (summed over the batch)
 *     grad_col = W_g^T @ grad_y,  grad_x  += col2im(grad_col)
 *     grad_b   += the row sums of grad_y
 * im2col copies each input value up to kH * kW times; a 1x1 kernel with
 * stride 1 and no padding needs no copy (the image is its own col).
 *
 * Work is split over the batch: each pool thread takes whole images, builds
 * their columns in its own K x P buffer (which stays in cache between the
 * copy and the product) and calls a single-threaded GEMM (see Note [Run-time
 * BLAS]).  That beats one large threaded GEMM over the whole batch, which
 * needs a buffer of N * K * P values and a transposing copy of its result,
 * and threads small products poorly.  With fewer images than threads the
 * images run one after another on the caller, each product threaded.
 *
 * 3x3 stride-1 convolutions with enough channels go to Winograd's F(2x2,
 * 3x3) instead (winograd.c): the output, grad_input (Note [grad_input as a
 * convolution]) and grad_weight, each with 2.25 times fewer multiplications.
 *
 * grad_weight is a sum over images: the batch is cut into a number of chunks
 * that depends only on the shapes (at most MT__CONV_CHUNKS, fewer when the
 * chunks' partial sums would take more than MT__CONV_PART_BYTES); each chunk
 * sums its images into its own slot and the slots are added in order, so the
 * result does not depend on the thread count. */

#define MT__CONV_CHUNKS 16
#define MT__SUM_LANES 16
#define MT__CONV_PART_BYTES ((int64_t)32 << 20)

/* Everything the kernels need, derived once from the (checked) arguments. */
typedef struct mt__conv_geom {
    int64_t n, c, h, w;   /* input */
    int64_t cout, kh, kw; /* weight */
    int64_t oh, ow;       /* output */
    int64_t sh, sw, ph, pw, dh, dw, groups;
    int64_t cg, coutg;    /* channels per group */
    int64_t k, p;         /* rows and columns of col (Note [Convolution as GEMM]) */
    bool direct;          /* the image is its own col: no im2col */
} mt__conv_geom;

/* caffe2's names, as torch's "Input type (float) and bias type (double)". */
static const char *
mt__meta_name(mt_dtype dt)
{
    switch (dt) {
    case MT_FLOAT32:
        return "float";
    case MT_FLOAT64:
        return "double";
    case MT_FLOAT16:
        return "c10::Half";
    case MT_BFLOAT16:
        return "c10::BFloat16";
    default:
        return mt_dtype_scalar_name(dt);
    }
}

static int
mt__conv_check_params(const mt_conv2d_params *p)
{
    for (int i = 0; i < 2; i++) {
        if (p->padding[i] < 0) {
            return mt_error_set(MT_ERUNTIME, "negative padding is not supported");
        }
    }
    for (int i = 0; i < 2; i++) {
        if (p->stride[i] <= 0) {
            return mt_error_set(MT_ERUNTIME, "non-positive stride is not supported");
        }
    }
    for (int i = 0; i < 2; i++) {
        if (p->dilation[i] <= 0) {
            return mt_error_set(MT_ERUNTIME, "non-positive dilation is not supported");
        }
    }
    if (p->groups <= 0) {
        return mt_error_set(MT_ERUNTIME, "non-positive groups is not supported");
    }
    return 0;
}

/* torch's checks of conv2d's arguments, in its order, and the geometry.
 * input is 3-D or 4-D (3-D read as a batch of one). */
static int
mt__conv_check(const mt_tensor *input, const mt_tensor *weight, const mt_tensor *bias,
               const mt_conv2d_params *p, mt__conv_geom *g)
{
    char a[256], b[256];
    if (input->ndim != 3 && input->ndim != 4) {
        return mt_error_set(MT_ERUNTIME,
                            "Expected 3D (unbatched) or 4D (batched) input to conv2d, but got "
                            "input of size: %s",
                            mt_format_sizes(a, sizeof(a), input->ndim, input->sizes));
    }
    if (weight->ndim != 4) {
        return mt_error_set(MT_ERUNTIME,
                            "Expected 4-dimensional weight for 4-dimensional input, but got "
                            "%d-dimensional weight of size %s instead",
                            weight->ndim, mt_format_sizes(a, sizeof(a), weight->ndim, weight->sizes));
    }
    int rc = mt__conv_check_params(p);
    if (rc < 0) {
        return rc;
    }
    if (input->dtype != weight->dtype) {
        return mt_error_set(MT_ERUNTIME,
                            "Input type (torch.%sTensor) and weight type (torch.%sTensor) should be "
                            "the same or input should be a MKLDNN tensor and weight is a dense tensor",
                            mt_dtype_scalar_name(input->dtype), mt_dtype_scalar_name(weight->dtype));
    }
    if (bias != NULL && bias->dtype != input->dtype) {
        return mt_error_set(MT_ERUNTIME, "Input type (%s) and bias type (%s) should be the same",
                            mt__meta_name(input->dtype), mt__meta_name(bias->dtype));
    }
    if (mt_tensor_device(input).type != MT_CPU ||
        mt_tensor_device(weight).type != MT_CPU ||
        (bias != NULL && mt_tensor_device(bias).type != MT_CPU)) {
        return mt_error_set(MT_ENOTIMPL, "conv2d is implemented for CPU tensors only");
    }
    int64_t in4[4] = {1, 0, 0, 0};
    memcpy(in4 + 4 - input->ndim, input->sizes, sizeof(int64_t) * (size_t)input->ndim);
    *g = (mt__conv_geom){
        .n = in4[0], .c = in4[1], .h = in4[2], .w = in4[3],
        .cout = weight->sizes[0], .kh = weight->sizes[2], .kw = weight->sizes[3],
        .sh = p->stride[0], .sw = p->stride[1], .ph = p->padding[0], .pw = p->padding[1],
        .dh = p->dilation[0], .dw = p->dilation[1], .groups = p->groups,
    };
    mt_format_sizes(b, sizeof(b), 4, weight->sizes);
    if (g->cout < g->groups) {
        return mt_error_set(MT_ERUNTIME,
                            "Given groups=%lld, expected weight to be at least %lld at dimension 0, "
                            "but got weight of size %s instead",
                            (long long)g->groups, (long long)g->groups, b);
    }
    if (g->cout % g->groups != 0) {
        return mt_error_set(MT_ERUNTIME,
                            "Given groups=%lld, expected weight to be divisible by %lld at "
                            "dimension 0, but got weight of size [%s] instead",
                            (long long)g->groups, (long long)g->groups, b);
    }
    int64_t cin;
    bool cin_overflow = mt_ckd_mul(&cin, weight->sizes[1], g->groups);
    if (cin_overflow || cin != g->c) {
        char want[32];
        if (cin_overflow) {
            snprintf(want, sizeof(want), "%lld*%lld", (long long)weight->sizes[1],
                     (long long)g->groups);
        }
        else {
            snprintf(want, sizeof(want), "%lld", (long long)cin);
        }
        return mt_error_set(MT_ERUNTIME,
                            "Given groups=%lld, weight of size %s, expected input%s to have %s "
                            "channels, but got %lld channels instead",
                            (long long)g->groups, b, mt_format_sizes(a, sizeof(a), 4, in4), want,
                            (long long)g->c);
    }
    /* padded input and dilated kernel extents: (k - 1) * d + 1 <= size + 2 * pad */
    int64_t ext[2], pad[2];
    const int64_t insz[2] = {g->h, g->w}, ksz[2] = {g->kh, g->kw};
    bool overflow = false;
    for (int i = 0; i < 2; i++) {
        overflow |= mt_ckd_mul(&ext[i], ksz[i] - 1, p->dilation[i]) || mt_ckd_add(&ext[i], ext[i], 1);
        overflow |= mt_ckd_mul(&pad[i], p->padding[i], 2) || mt_ckd_add(&pad[i], pad[i], insz[i]);
    }
    if (overflow) {
        return mt_error_set(MT_ERUNTIME,
                            "conv2d: padding %lld x %lld or dilated kernel size is too large",
                            (long long)p->padding[0], (long long)p->padding[1]);
    }
    if (ext[0] > pad[0] || ext[1] > pad[1]) {
        return mt_error_set(MT_ERUNTIME,
                            "Calculated padded input size per channel: (%lld x %lld). Kernel size: "
                            "(%lld x %lld). Kernel size can't be greater than actual input size",
                            (long long)pad[0], (long long)pad[1], (long long)ext[0],
                            (long long)ext[1]);
    }
    if (bias != NULL && (bias->ndim != 1 || bias->sizes[0] != g->cout)) {
        return mt_error_set(MT_ERUNTIME,
                            "Given weight of size %s, expected bias to be 1-dimensional with %lld "
                            "elements, but got bias of size %s instead",
                            b, (long long)g->cout,
                            mt_format_sizes(a, sizeof(a), bias->ndim, bias->sizes));
    }
    mt_dtype dt = input->dtype;
    if (dt != MT_FLOAT32 && dt != MT_FLOAT64 && dt != MT_FLOAT16 && dt != MT_BFLOAT16) {
        return mt_error_set(MT_ENOTIMPL, "\"slow_conv2d_cpu\" not implemented for '%s'",
                            mt_dtype_scalar_name(dt));
    }
    g->oh = (pad[0] - ext[0]) / g->sh + 1;
    g->ow = (pad[1] - ext[1]) / g->sw + 1;
    g->cg = weight->sizes[1];
    g->coutg = g->cout / g->groups;
    int64_t kp;
    if (mt_ckd_mul(&g->k, g->cg, g->kh) || mt_ckd_mul(&g->k, g->k, g->kw) ||
        mt_ckd_mul(&g->p, g->oh, g->ow) || mt_ckd_mul(&kp, g->k, g->p) ||
        mt_ckd_mul(&kp, kp, 8)) {
        return mt_error_set(MT_ERUNTIME, "conv2d: the output of %lld x %lld positions with a "
                            "kernel of %lld x %lld x %lld is too large",
                            (long long)g->oh, (long long)g->ow, (long long)g->cg,
                            (long long)g->kh, (long long)g->kw);
    }
    g->direct = g->kh == 1 && g->kw == 1 && g->sh == 1 && g->sw == 1 && g->ph == 0 && g->pw == 0;
    return 0;
}

/* The range [lo, hi) of output columns ow whose input column ow * s + off
 * lies in [0, size). */
static void
mt__valid_range(int64_t size, int64_t s, int64_t off, int64_t nout, int64_t *lo, int64_t *hi)
{
    int64_t l = off >= 0 ? 0 : (-off + s - 1) / s;
    int64_t h = size - 1 - off < 0 ? 0 : (size - 1 - off) / s + 1;
    *lo = l < nout ? l : nout;
    *hi = h < nout ? h : nout;
    if (*hi < *lo) {
        *hi = *lo;
    }
}

/* im2col of one group of one image (x: cg planes of h x w) into col (k x p),
 * and col2im, which adds col's values back where they came from. */
#define MT__DEFINE_IM2COL(name, T)                                                                \
    MT_SIMD_CLONES static void mt__im2col_##name(const mt__conv_geom *g, const T *x, T *col)      \
    {                                                                                             \
        const int64_t OW = g->ow, sw = g->sw;                                                     \
        for (int64_t c = 0; c < g->cg; c++) {                                                     \
            for (int64_t ki = 0; ki < g->kh; ki++) {                                              \
                for (int64_t kj = 0; kj < g->kw; kj++) {                                          \
                    T *row = col + ((c * g->kh + ki) * g->kw + kj) * g->p;                        \
                    int64_t woff = kj * g->dw - g->pw, lo, hi;                                    \
                    mt__valid_range(g->w, sw, woff, OW, &lo, &hi);                                \
                    for (int64_t oh = 0; oh < g->oh; oh++) {                                      \
                        T *dst = row + oh * OW;                                                   \
                        int64_t ih = oh * g->sh - g->ph + ki * g->dh;                             \
                        if (ih < 0 || ih >= g->h) {                                               \
                            memset(dst, 0, sizeof(T) * (size_t)OW);                               \
                            continue;                                                             \
                        }                                                                         \
                        for (int64_t ow = 0; ow < lo; ow++) {                                     \
                            dst[ow] = 0;                                                          \
                        }                                                                         \
                        /* src: the input element of output column lo (when lo < hi) */           \
                        const T *src = x + (c * g->h + ih) * g->w + (lo < hi ? lo * sw + woff : 0); \
                        if (sw == 1) { /* rows are short: a loop beats a memcpy call */           \
                            for (int64_t i = 0; i < hi - lo; i++) {                               \
                                dst[lo + i] = src[i];                                             \
                            }                                                                     \
                        }                                                                         \
                        else {                                                                    \
                            for (int64_t i = 0; i < hi - lo; i++) {                               \
                                dst[lo + i] = src[i * sw];                                        \
                            }                                                                     \
                        }                                                                         \
                        for (int64_t ow = hi; ow < OW; ow++) {                                    \
                            dst[ow] = 0;                                                          \
                        }                                                                         \
                    }                                                                             \
                }                                                                                 \
            }                                                                                     \
        }                                                                                         \
    }                                                                                             \
    MT_SIMD_CLONES static void mt__col2im_##name(const mt__conv_geom *g, const T *col, T *x)      \
    {                                                                                             \
        const int64_t OW = g->ow, sw = g->sw;                                                     \
        for (int64_t c = 0; c < g->cg; c++) {                                                     \
            for (int64_t ki = 0; ki < g->kh; ki++) {                                              \
                for (int64_t kj = 0; kj < g->kw; kj++) {                                          \
                    const T *row = col + ((c * g->kh + ki) * g->kw + kj) * g->p;                  \
                    int64_t woff = kj * g->dw - g->pw, lo, hi;                                    \
                    mt__valid_range(g->w, sw, woff, OW, &lo, &hi);                                \
                    for (int64_t oh = 0; oh < g->oh; oh++) {                                      \
                        int64_t ih = oh * g->sh - g->ph + ki * g->dh;                             \
                        if (ih < 0 || ih >= g->h) {                                               \
                            continue;                                                             \
                        }                                                                         \
                        if (lo == hi) {                                                           \
                            continue;                                                             \
                        }                                                                         \
                        const T *src = row + oh * OW + lo;                                        \
                        T *restrict dst = x + (c * g->h + ih) * g->w + (lo * sw + woff);          \
                        if (sw == 1) {                                                            \
                            for (int64_t i = 0; i < hi - lo; i++) {                               \
                                dst[i] += src[i];                                                 \
                            }                                                                     \
                        }                                                                         \
                        else {                                                                    \
                            for (int64_t i = 0; i < hi - lo; i++) {                               \
                                dst[i * sw] += src[i];                                            \
                            }                                                                     \
                        }                                                                         \
                    }                                                                             \
                }                                                                                 \
            }                                                                                     \
        }                                                                                         \
    }                                                                                             \
    /* dst[r, :] = v[r] for each of the rows r of p values */                                     \
    static void mt__fill_rows_##name(T *dst, const T *v, int64_t rows, int64_t p)                 \
    {                                                                                             \
        for (int64_t r = 0; r < rows; r++) {                                                      \
            for (int64_t i = 0; i < p; i++) {                                                     \
                dst[r * p + i] = v[r];                                                            \
            }                                                                                     \
        }                                                                                         \
    }                                                                                             \
    /* acc[r] += the sum of row r (p values), in MT__SUM_LANES interleaved partial                \
     * sums (one chain of dependent adds per row would be latency-bound) */                       \
    MT_SIMD_CLONES static void mt__add_row_sums_##name(T *acc, const T *src, int64_t rows,        \
                                                       int64_t p)                                 \
    {                                                                                             \
        for (int64_t r = 0; r < rows; r++) {                                                      \
            const T *row = src + r * p;                                                           \
            T lane[MT__SUM_LANES] = {0};                                                          \
            int64_t i = 0;                                                                        \
            for (; i + MT__SUM_LANES <= p; i += MT__SUM_LANES) {                                  \
                for (int l = 0; l < MT__SUM_LANES; l++) {                                         \
                    lane[l] += row[i + l];                                                        \
                }                                                                                 \
            }                                                                                     \
            T s = 0;                                                                              \
            for (int l = 0; l < MT__SUM_LANES; l++) {                                             \
                s += lane[l];                                                                     \
            }                                                                                     \
            for (; i < p; i++) {                                                                  \
                s += row[i];                                                                      \
            }                                                                                     \
            acc[r] += s;                                                                          \
        }                                                                                         \
    }
MT__DEFINE_IM2COL(float32, float)
MT__DEFINE_IM2COL(float64, double)

/* One call's shared state.  Pool threads report a failure (only MT_ENOMEM:
 * a column buffer) in `err`; the caller sets the message. */
typedef struct mt__conv_job {
    const mt__conv_geom *g;
    bool dbl;
    const char *x, *w, *bias, *gy;
    char *y, *gx;
    char *parts;          /* backward: per chunk, grad_weight (cout * k) then grad_bias (cout) */
    int64_t nchunks;
    bool need_gx, need_gw, need_gb;
    atomic_int err;
} mt__conv_job;

static void
mt__chunk_images(const mt__conv_job *j, int64_t chunk, int64_t *n0, int64_t *n1)
{
    *n0 = j->g->n * chunk / j->nchunks;
    *n1 = j->g->n * (chunk + 1) / j->nchunks;
}

/* A K x P column buffer (NULL when the image is its own col, or on failure,
 * which is recorded in j->err and reported through *ok). */
static void *
mt__col_buffer(mt__conv_job *j, bool *ok)
{
    *ok = true;
    if (j->g->direct) {
        return NULL;
    }
    /* k * p * 8 fits (mt__conv_check); at least one byte, so NULL means failure */
    void *col = malloc((size_t)(j->g->k * j->g->p) * (j->dbl ? sizeof(double) : sizeof(float)) + 1);
    if (col == NULL) {
        atomic_store(&j->err, MT_ENOMEM);
        *ok = false;
    }
    return col;
}

#define MT__DEFINE_CONV_CHUNKS(name, T, DT)                                                       \
    static void mt__conv_forward_##name(void *ctx, int64_t begin, int64_t end)                    \
    {                                                                                             \
        mt__conv_job *j = ctx;                                                                    \
        const mt__conv_geom *g = j->g;                                                            \
        bool ok = true;                                                                           \
        T *col = mt__col_buffer(j, &ok);                                                          \
        if (!ok) {                                                                                \
            return;                                                                               \
        }                                                                                         \
        for (int64_t ci = begin; ci < end; ci++) {                                                \
            int64_t n0, n1;                                                                       \
            mt__chunk_images(j, ci, &n0, &n1);                                                    \
            for (int64_t n = n0; n < n1; n++) {                                                   \
                for (int64_t gr = 0; gr < g->groups; gr++) {                                      \
                    const T *xg = (const T *)j->x + (n * g->c + gr * g->cg) * g->h * g->w;        \
                    const T *wg = (const T *)j->w + gr * g->coutg * g->k;                         \
                    T *yg = (T *)j->y + (n * g->cout + gr * g->coutg) * g->p;                     \
                    if (col != NULL) {                                                            \
                        mt__im2col_##name(g, xg, col);                                            \
                    }                                                                             \
                    if (j->bias != NULL) {                                                        \
                        mt__fill_rows_##name(yg, (const T *)j->bias + gr * g->coutg, g->coutg,    \
                                             g->p);                                               \
                    }                                                                             \
                    if (mt_gemm_raw(DT, false, false, g->coutg, g->p, g->k, 1.0, wg, g->k,        \
                                    col != NULL ? col : xg, g->p, j->bias != NULL ? 1.0 : 0.0,    \
                                    yg) < 0) {                                                    \
                        atomic_store(&j->err, MT_ENOMEM);                                         \
                    }                                                                             \
                }                                                                                 \
            }                                                                                     \
        }                                                                                         \
        free(col);                                                                                \
    }                                                                                             \
    static void mt__conv_backward_##name(void *ctx, int64_t begin, int64_t end)                   \
    {                                                                                             \
        mt__conv_job *j = ctx;                                                                    \
        const mt__conv_geom *g = j->g;                                                            \
        bool ok = true;                                                                           \
        T *col = j->need_gx || j->need_gw ? mt__col_buffer(j, &ok) : NULL;                        \
        if ((j->need_gx || j->need_gw) && !ok) {                                                  \
            return;                                                                               \
        }                                                                                         \
        const int64_t plane = g->h * g->w;                                                        \
        for (int64_t ci = begin; ci < end; ci++) {                                                \
            int64_t n0, n1;                                                                       \
            mt__chunk_images(j, ci, &n0, &n1);                                                    \
            T *gw = (T *)j->parts + ci * (g->cout * g->k + g->cout);                              \
            T *gb = gw + g->cout * g->k;                                                          \
            memset(gw, 0, sizeof(T) * (size_t)(g->cout * g->k + g->cout));                        \
            for (int64_t n = n0; n < n1; n++) {                                                   \
                if (j->need_gx && !g->direct) {                                                   \
                    memset((T *)j->gx + n * g->c * plane, 0, sizeof(T) * (size_t)(g->c * plane)); \
                }                                                                                 \
                for (int64_t gr = 0; gr < g->groups; gr++) {                                      \
                    const T *xg = (const T *)j->x + (n * g->c + gr * g->cg) * plane;              \
                    const T *wg = (const T *)j->w + gr * g->coutg * g->k;                         \
                    const T *gyg = (const T *)j->gy + (n * g->cout + gr * g->coutg) * g->p;       \
                    T *gxg = j->need_gx ? (T *)j->gx + (n * g->c + gr * g->cg) * plane : NULL;    \
                    int rc = 0;                                                                   \
                    if (j->need_gw) {                                                             \
                        if (col != NULL) {                                                        \
                            mt__im2col_##name(g, xg, col);                                        \
                        }                                                                         \
                        rc |= mt_gemm_raw(DT, false, true, g->coutg, g->k, g->p, 1.0, gyg, g->p,  \
                                          col != NULL ? col : xg, g->p, 1.0,                      \
                                          gw + gr * g->coutg * g->k);                             \
                    }                                                                             \
                    if (j->need_gx) {                                                             \
                        rc |= mt_gemm_raw(DT, true, false, g->k, g->p, g->coutg, 1.0, wg, g->k,   \
                                          gyg, g->p, 0.0, col != NULL ? col : gxg);               \
                        if (col != NULL) {                                                        \
                            mt__col2im_##name(g, col, gxg);                                       \
                        }                                                                         \
                    }                                                                             \
                    if (rc < 0) {                                                                 \
                        atomic_store(&j->err, MT_ENOMEM);                                         \
                    }                                                                             \
                }                                                                                 \
                if (j->need_gb) {                                                                 \
                    mt__add_row_sums_##name(gb, (const T *)j->gy + n * g->cout * g->p, g->cout,   \
                                            g->p);                                                \
                }                                                                                 \
            }                                                                                     \
        }                                                                                         \
        free(col);                                                                                \
    }                                                                                             \
    /* out[i] = sum over chunks of the chunk's slot value at `at + i` */                          \
    typedef struct {                                                                              \
        const T *parts;                                                                           \
        T *out;                                                                                   \
        int64_t at, stride, nchunks;                                                              \
    } mt__sum_parts_##name##_args;                                                                \
    static void mt__sum_parts_##name(void *ctx, int64_t begin, int64_t end)                       \
    {                                                                                             \
        const mt__sum_parts_##name##_args *a = ctx;                                               \
        for (int64_t i = begin; i < end; i++) {                                                   \
            T s = a->parts[a->at + i];                                                            \
            for (int64_t c = 1; c < a->nchunks; c++) {                                            \
                s += a->parts[c * a->stride + a->at + i];                                         \
            }                                                                                     \
            a->out[i] = s;                                                                        \
        }                                                                                         \
    }                                                                                             \
    static void mt__sum_parts_into_##name(const mt__conv_job *j, T *out, int64_t at, int64_t len) \
    {                                                                                             \
        mt__sum_parts_##name##_args a = {                                                         \
            .parts = (const T *)j->parts, .out = out, .at = at,                                   \
            .stride = j->g->cout * j->g->k + j->g->cout, .nchunks = j->nchunks,                   \
        };                                                                                        \
        mt_parallel_for(0, len, MT_GRAIN_SIZE / (j->nchunks > 0 ? j->nchunks : 1) + 1,            \
                        mt__sum_parts_##name, &a);                                                \
    }
MT__DEFINE_CONV_CHUNKS(float32, float, MT_FLOAT32)
MT__DEFINE_CONV_CHUNKS(float64, double, MT_FLOAT64)

/* Runs fn over j->nchunks chunks of images: spread over the pool when there
 * are at least as many images as threads, else on the caller one after
 * another (its GEMMs then use the BLAS's threads).  See Note [Convolution as
 * GEMM].  0 or the error a chunk reported. */
static int
mt__conv_run(mt__conv_job *j, mt_parallel_fn fn)
{
    int nthreads = mt_get_num_threads();
    if (nthreads > 1 && j->g->n >= nthreads && j->nchunks > 1) {
        mt_parallel_chunks(j->nchunks, fn, j);
    }
    else {
        fn(j, 0, j->nchunks);
    }
    int err = atomic_load(&j->err);
    if (err < 0) {
        return mt_error_set(err, "conv2d: out of memory for the column buffers (%lld x %lld "
                            "values per thread)", (long long)j->g->k, (long long)j->g->p);
    }
    return 0;
}

/* Whether every value of a contiguous float32/float64 tensor is finite: an
 * OR over the exponent bits, which vectorises. */
MT_SIMD_CLONES static bool
mt__all_finite(const mt_tensor *t)
{
    const char *p = mt_tensor_data(t);
    if (t->dtype == MT_FLOAT64) {
        uint64_t bad = 0;
        for (int64_t i = 0; i < t->numel; i++) {
            uint64_t b;
            memcpy(&b, p + i * 8, 8);
            bad |= (uint64_t)((b & 0x7ff0000000000000u) == 0x7ff0000000000000u);
        }
        return bad == 0;
    }
    uint32_t bad = 0;
    for (int64_t i = 0; i < t->numel; i++) {
        uint32_t b;
        memcpy(&b, p + i * 4, 4);
        bad |= (uint32_t)((b & 0x7f800000u) == 0x7f800000u);
    }
    return bad == 0;
}

/* Whether a convolution of this geometry with cin/cout channels per group
 * and operands a and b goes through Winograd's F(2x2, 3x3) (winograd.c)
 * instead of im2col.  Its transforms mix the values of a tile, so an
 * infinity would turn the tile's other outputs into NaN (inf - inf) where
 * a direct sum keeps them finite: operands with inf or NaN take im2col. */
static bool
mt__conv_winograd(const mt__conv_geom *g, int64_t cin, int64_t cout, const mt_tensor *a,
                  const mt_tensor *b)
{
    return g->kh == 3 && g->kw == 3 && g->sh == 1 && g->sw == 1 && g->dh == 1 && g->dw == 1 &&
           mt__winograd_pays(cin, cout) && mt__all_finite(a) && mt__all_finite(b);
}

/* Note [grad_input as a convolution]
 * With stride 1 and no dilation, grad_input is the convolution of
 * grad_output with the kernel turned by 180 degrees and its channel axes
 * swapped (per group), padded by k - 1 - p: each input element gathers
 * the outputs its taps reached.  For a 3x3 kernel and p <= 2 that is again
 * a 3x3 stride-1 convolution, which Winograd's algorithm computes. */
#define MT__DEFINE_FLIP(name, T)                                                                  \
    static void mt__flip_weight_##name(const mt__conv_geom *g, const T *w, T *wf)                 \
    {                                                                                             \
        for (int64_t gr = 0; gr < g->groups; gr++) {                                              \
            for (int64_t co = 0; co < g->coutg; co++) {                                           \
                for (int64_t ci = 0; ci < g->cg; ci++) {                                          \
                    const T *src = w + ((gr * g->coutg + co) * g->cg + ci) * 9;                   \
                    T *dst = wf + ((gr * g->cg + ci) * g->coutg + co) * 9;                        \
                    for (int t = 0; t < 9; t++) {                                                 \
                        dst[t] = src[8 - t];                                                      \
                    }                                                                             \
                }                                                                                 \
            }                                                                                     \
        }                                                                                         \
    }
MT__DEFINE_FLIP(float32, float)
MT__DEFINE_FLIP(float64, double)

/* grad_input (res, zero-free: every element is written) by Note [grad_input
 * as a convolution].  0 or an error. */
static int
mt__conv_grad_input_winograd(const mt__conv_geom *g, mt_tensor *gy, mt_tensor *w, mt_tensor *res)
{
    bool dbl = w->dtype == MT_FLOAT64;
    void *wf = mt_malloc_array(w->numel, dbl ? sizeof(double) : sizeof(float));
    if (wf == NULL) {
        return mt_error_code();
    }
    if (dbl) {
        mt__flip_weight_float64(g, (const double *)mt_tensor_data(w), wf);
    }
    else {
        mt__flip_weight_float32(g, (const float *)mt_tensor_data(w), wf);
    }
    mt_winograd_conv wc = {
        .dbl = dbl, .n = g->n, .c = g->cout, .h = g->oh, .w = g->ow, .cout = g->c,
        .groups = g->groups, .ph = 2 - g->ph, .pw = 2 - g->pw,
        .x = mt_tensor_data(gy), .weight = wf, .bias = NULL, .y = mt_tensor_data(res),
    };
    int rc = mt__winograd_conv2d(&wc);
    free(wf);
    return rc;
}

mt_tensor *
mt_conv2d(mt_tensor *input, mt_tensor *weight, mt_tensor *bias, const mt_conv2d_params *p)
{
    mt__conv_geom g;
    if (mt__conv_check(input, weight, bias, p, &g) < 0) {
        return NULL;
    }
    mt_tensor *x = mt_float_operand(input), *w = x ? mt_float_operand(weight) : NULL;
    mt_tensor *b = w && bias ? mt_float_operand(bias) : NULL, *y = NULL;
    if (x == NULL || w == NULL || (bias != NULL && b == NULL)) {
        goto done;
    }
    int64_t ysz[4] = {g.n, g.cout, g.oh, g.ow};
    int nd = input->ndim;
    y = mt_tensor_empty(x->dtype, nd, ysz + 4 - nd, mt_tensor_device(x));
    if (y == NULL || y->numel == 0) {
        goto done;
    }
    int rc;
    if (mt__conv_winograd(&g, g.cg, g.coutg, x, w)) {
        mt_winograd_conv wc = {
            .dbl = x->dtype == MT_FLOAT64, .n = g.n, .c = g.c, .h = g.h, .w = g.w,
            .cout = g.cout, .groups = g.groups, .ph = g.ph, .pw = g.pw,
            .x = mt_tensor_data(x), .weight = mt_tensor_data(w),
            .bias = b ? mt_tensor_data(b) : NULL, .y = mt_tensor_data(y),
        };
        rc = mt__winograd_conv2d(&wc);
    }
    else {
        mt__conv_job j = {
            .g = &g, .dbl = x->dtype == MT_FLOAT64,
            .x = mt_tensor_data(x), .w = mt_tensor_data(w), .bias = b ? mt_tensor_data(b) : NULL,
            .y = mt_tensor_data(y),
            .nchunks = g.n < 4 * MT__CONV_CHUNKS ? g.n : 4 * MT__CONV_CHUNKS,
        };
        rc = mt__conv_run(&j, j.dbl ? mt__conv_forward_float64 : mt__conv_forward_float32);
    }
    if (rc < 0) {
        mt_tensor_decref(y);
        y = NULL;
    }
done:
    mt_tensor_decref(x);
    mt_tensor_decref(w);
    mt_tensor_decref(b);
    return mt_float_result(y, input->dtype);
}

/* grads[i] = zeros of its shape (the gradients when the output is empty). */
static int
mt__conv_zero_grads(mt_tensor *grads[3])
{
    for (int i = 0; i < 3; i++) {
        if (grads[i] != NULL && mt_fill_(grads[i], mt_scalar_int(0)) < 0) {
            return mt_error_code();
        }
    }
    return 0;
}

int
mt_conv2d_backward(mt_tensor *grad_output, mt_tensor *input, mt_tensor *weight,
                   const mt_conv2d_params *p, const bool mask[3], mt_tensor *grads[3])
{
    char a[256], b[256];
    mt__conv_geom g;
    grads[0] = grads[1] = grads[2] = NULL;
    if (mt__conv_check(input, weight, NULL, p, &g) < 0) {
        return mt_error_code();
    }
    int64_t ysz[4] = {g.n, g.cout, g.oh, g.ow};
    int nd = input->ndim;
    if (grad_output->ndim != nd ||
        memcmp(grad_output->sizes, ysz + 4 - nd, sizeof(int64_t) * (size_t)nd) != 0) {
        return mt_error_set(MT_ERUNTIME, "conv2d backward: expected grad_output of size %s, but "
                            "got %s", mt_format_sizes(a, sizeof(a), nd, ysz + 4 - nd),
                            mt_format_sizes(b, sizeof(b), grad_output->ndim, grad_output->sizes));
    }
    if (mt_tensor_device(grad_output).type != MT_CPU) {
        return mt_error_set(MT_ENOTIMPL, "conv2d is implemented for CPU tensors only");
    }
    if (grad_output->dtype != input->dtype) {
        return mt_error_set(MT_ERUNTIME, "conv2d backward: expected grad_output of dtype %s, but "
                            "got %s", mt_dtype_name(input->dtype), mt_dtype_name(grad_output->dtype));
    }
    int rc = 0;
    mt_tensor *x = mt_float_operand(input), *w = x ? mt_float_operand(weight) : NULL;
    mt_tensor *gy = w ? mt_float_operand(grad_output) : NULL;
    mt_tensor *res[3] = {NULL, NULL, NULL};
    char *parts = NULL;
    if (gy == NULL) {
        rc = mt_error_code();
        goto done;
    }
    const mt_tensor *like[3] = {x, w, NULL};
    for (int i = 0; i < 3; i++) {
        if (!mask[i]) {
            continue;
        }
        res[i] = i < 2 ? mt_tensor_empty(x->dtype, like[i]->ndim, like[i]->sizes,
                                         mt_tensor_device(x))
                       : mt_tensor_empty(x->dtype, 1, &g.cout, mt_tensor_device(x));
        if (res[i] == NULL) {
            rc = mt_error_code();
            goto done;
        }
    }
    if (g.n == 0 || g.p == 0) {
        rc = mt__conv_zero_grads(res);
        goto done;
    }
    if (!mask[0] && !mask[1] && !mask[2]) {
        goto done;
    }
    /* See Note [grad_input as a convolution] and Note [Winograd weight gradient] */
    bool gx_winograd = mask[0] && g.ph <= 2 && g.pw <= 2 &&
                       mt__conv_winograd(&g, g.coutg, g.cg, gy, w);
    bool gw_winograd = mask[1] && mt__conv_winograd(&g, g.cg, g.coutg, x, gy);
    if (gx_winograd) {
        rc = mt__conv_grad_input_winograd(&g, gy, w, res[0]);
    }
    if (rc == 0 && gw_winograd) {
        mt_winograd_conv wc = {
            .dbl = x->dtype == MT_FLOAT64, .n = g.n, .c = g.c, .h = g.h, .w = g.w,
            .cout = g.cout, .groups = g.groups, .ph = g.ph, .pw = g.pw,
            .x = mt_tensor_data(x), .grad_output = mt_tensor_data(gy),
            .grad_weight = mt_tensor_data(res[1]),
        };
        rc = mt__winograd_conv2d_weight_grad(&wc);
    }
    mt__conv_job j = {
        .g = &g, .dbl = x->dtype == MT_FLOAT64,
        .x = mt_tensor_data(x), .w = mt_tensor_data(w), .gy = mt_tensor_data(gy),
        .gx = res[0] ? mt_tensor_data(res[0]) : NULL,
        .need_gx = mask[0] && !gx_winograd, .need_gw = mask[1] && !gw_winograd,
        .need_gb = mask[2],
    };
    if (rc < 0 || (!j.need_gx && !j.need_gw && !j.need_gb)) {
        goto done;
    }
    size_t isz = j.dbl ? sizeof(double) : sizeof(float);
    int64_t slot = g.cout * g.k + g.cout; /* fits: the weight's numel plus cout */
    int64_t nchunks = g.n < MT__CONV_CHUNKS ? g.n : MT__CONV_CHUNKS;
    int64_t cap = MT__CONV_PART_BYTES / (slot * (int64_t)isz);
    if (nchunks > cap) {
        nchunks = cap > 1 ? cap : 1;
    }
    parts = mt_malloc_array(nchunks * slot, isz);
    if (parts == NULL) {
        rc = mt_error_code();
        goto done;
    }
    j.parts = parts;
    j.nchunks = nchunks;
    rc = mt__conv_run(&j, j.dbl ? mt__conv_backward_float64 : mt__conv_backward_float32);
    if (rc < 0) {
        goto done;
    }
    for (int i = 1; i < 3; i++) {
        if (res[i] == NULL || (i == 1 && !j.need_gw)) {
            continue;
        }
        int64_t at = i == 1 ? 0 : g.cout * g.k, len = i == 1 ? g.cout * g.k : g.cout;
        if (j.dbl) {
            mt__sum_parts_into_float64(&j, (double *)mt_tensor_data(res[i]), at, len);
        }
        else {
            mt__sum_parts_into_float32(&j, (float *)mt_tensor_data(res[i]), at, len);
        }
    }
done:
    free(parts);
    mt_tensor_decref(x);
    mt_tensor_decref(w);
    mt_tensor_decref(gy);
    for (int i = 0; i < 3; i++) {
        if (rc == 0 && res[i] != NULL) {
            res[i] = mt_float_result(res[i], input->dtype);
            if (res[i] == NULL) {
                rc = mt_error_code();
            }
        }
    }
    for (int i = 0; i < 3; i++) {
        if (rc < 0) {
            mt_tensor_decref(res[i]);
        }
        else {
            grads[i] = res[i];
        }
    }
    return rc;
}
