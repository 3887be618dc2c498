/* aten_lite/conv.c - convolution over 1 to 3 spatial dims, plain and transposed, forward and backward: checks, im2col + GEMM over the batch, dispatch to Winograd. */
#include "aten_lite/conv.h"
#include "aten_lite/conv_geom.h"

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aten_lite/cpu/loops.h"
#include "aten_lite/kernel_stubs.h"
#include "aten_lite/linalg.h"
#include "aten_lite/ops.h"
#include "aten_lite/parallel.h"
#include "aten_lite/winograd.h"
#include "c10_lite/error.h"

/* Note [Convolution as GEMM]
 * Every convolution here has three spatial axes (depth, height, width): a
 * 1-D or 2-D one gets leading axes of size 1 (kernel 1, stride 1, no
 * padding), so one im2col serves all ranks.  For one image
 * and one group, with K = (C_in / groups) * kD * kH * kW and P = OD * OH *
 * OW, the columns matrix col (K x P) holds in row (c, a, i, j) and column
 * (od, oh, ow) the input value x[c, od*sD - pD + a*dD, oh*sH - pH + i*dH,
 * ow*sW - pW + j*dW] (0 in the padding).  Then, per group (W_g its
 * C_out/groups x K rows):
 *     y        = W_g @ col                 (+ bias, row by row)
 *     grad_W_g += grad_y @ col^T           (summed over the batch)
 *     grad_x   = W_g^T @ grad_y, added back where col came from (done
 *                by phases instead, Note [grad_input by phases])
 *     grad_b   += the row sums of grad_y
 * im2col copies each input value up to kD * kH * kW times; a 1x1 kernel
 * with stride 1 and no padding needs no copy (the image is its own col).
 *
 * Work is split over the batch: each pool thread takes whole images, builds
 * their columns in its own K x P buffer (which stays in cache between the
 * copy and the product) and calls a single-threaded GEMM (see Note [Run-time
 * BLAS]).  That beats one large threaded GEMM over the whole batch, which
 * needs a buffer of N * K * P values and a transposing copy of its result,
 * and threads small products poorly.  With fewer images than threads the
 * images run one after another on the caller, each product threaded.
 *
 * 3x3 stride-1 2-D convolutions with enough channels go to Winograd's
 * F(2x2, 3x3) instead (winograd.c): the output, grad_input (Note
 * [grad_input as a convolution]) and grad_weight, each with 2.25 times
 * fewer multiplications.
 *
 * grad_weight is a sum over images: the batch is cut into a number of chunks
 * that depends only on the shapes (at most MT__CONV_CHUNKS, fewer when the
 * chunks' partial sums would take more than MT__CONV_PART_BYTES); each chunk
 * sums its images into its own slot and the slots are added in order, so the
 * result does not depend on the thread count. */

/* Note [Transposed convolution]
 * A transposed convolution is the input gradient of the plain convolution
 * whose input has the transposed one's output shape and whose output has
 * its input shape (same weight, stride, padding, dilation and groups):
 * each input element spreads its value, weighted by the kernel, over the
 * output elements that the plain convolution would have gathered it from.
 * So everything here is said of that plain convolution (the geometry's
 * "input" and "output"), and mt_convolution of a transposed one runs the
 * grad_input kernel (Note [grad_input by phases]), plus the bias.  Its gradients swap the roles
 * in turn: grad_input is the plain convolution's forward of grad_output,
 * grad_weight its weight gradient with grad_output as the input and the
 * input as the output gradient.  output_padding only lengthens the
 * transposed output: when it is not below the stride (a larger dilation
 * allows that), the plain convolution of that output would have more
 * positions than the transposed input, so the geometry keeps the output
 * extent it is given rather than computing it. */

#define MT__CONV_CHUNKS 16
#define MT__SUM_LANES 16
#define MT__CONV_PART_BYTES ((int64_t)32 << 20)

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

/* "a x b x c" of n values into buf. */
static char *
mt__format_x(char *buf, size_t cap, int n, const int64_t *v)
{
    size_t at = 0;
    buf[0] = '\0';
    for (int i = 0; i < n && at < cap; i++) {
        int w = snprintf(buf + at, cap - at, i ? " x %lld" : "%lld", (long long)v[i]);
        if (w < 0) {
            break;
        }
        at += (size_t)w;
    }
    return buf;
}

static int
mt__conv_check_params(const mt_conv_params *p)
{
    for (int i = 0; i < p->nsp; i++) {
        if (p->padding[i] < 0) {
            return mt_error_set(MT_ERUNTIME, "negative padding is not supported");
        }
    }
    for (int i = 0; p->transposed && i < p->nsp; i++) {
        if (p->output_padding[i] < 0) {
            return mt_error_set(MT_ERUNTIME, "negative output_padding is not supported");
        }
    }
    for (int i = 0; i < p->nsp; i++) {
        if (p->stride[i] <= 0) {
            return mt_error_set(MT_ERUNTIME, "non-positive stride is not supported");
        }
    }
    for (int i = 0; i < p->nsp; i++) {
        if (p->dilation[i] <= 0) {
            return mt_error_set(MT_ERUNTIME, "non-positive dilation is not supported");
        }
    }
    if (p->groups <= 0) {
        return mt_error_set(MT_ERUNTIME, "non-positive groups is not supported");
    }
    return 0;
}

/* torch's message for an output_padding that is neither below the stride
 * nor below the dilation (1-D convolutions are reported as 2-D ones of
 * height 1, as torch does). */
static int
mt__output_padding_error(const mt_conv_params *p)
{
    static const char *const axes[3] = {"depth", "height", "width"};
    char buf[512];
    size_t at = 0;
    int n = p->nsp < 2 ? 2 : p->nsp, first = 3 - n;
    const char *what[3] = {"output_padding", "stride", "dilation"};
    const int64_t *vals[3] = {p->output_padding, p->stride, p->dilation};
    for (int w = 0; w < 3; w++) {
        for (int i = 0; i < n; i++) {
            int src = i - (n - p->nsp);
            int64_t v = src >= 0 ? vals[w][src] : (w == 0 ? 0 : 1);
            int len = snprintf(buf + at, sizeof(buf) - at, " %s_%s: %lld", what[w],
                               axes[first + i], (long long)v);
            if (len > 0 && (size_t)len < sizeof(buf) - at) {
                at += (size_t)len;
            }
        }
    }
    return mt_error_set(MT_ERUNTIME,
                        "output padding must be smaller than either stride or dilation, but got%s",
                        buf);
}

/* torch's checks of a convolution's arguments, in its order, and the
 * geometry (Note [Transposed convolution] for transposed ones).  input has
 * nsp + 1 (unbatched) or nsp + 2 dims. */
static int
mt__conv_check(const mt_tensor *input, const mt_tensor *weight, const mt_tensor *bias,
               const mt_conv_params *p, mt__conv_geom *g)
{
    char a[256], b[256], c[256], name[32];
    const int nsp = p->nsp;
    const bool tr = p->transposed;
    if (nsp < 1 || nsp > MT_CONV_MAX_SPATIAL) {
        return mt_error_set(MT_EINVAL, "convolution: %d spatial dimensions (1 to 3 expected)", nsp);
    }
    snprintf(name, sizeof(name), "%s%dd", tr ? "conv_transpose" : "conv", nsp);
    if (input->ndim != nsp + 1 && input->ndim != nsp + 2) {
        return mt_error_set(MT_ERUNTIME,
                            "Expected %dD (unbatched) or %dD (batched) input to %s, but got input "
                            "of size: %s", nsp + 1, nsp + 2, name,
                            mt_format_sizes(a, sizeof(a), input->ndim, input->sizes));
    }
    if (weight->ndim != nsp + 2) {
        return mt_error_set(MT_ERUNTIME,
                            "Expected %d-dimensional weight for %d-dimensional input, but got "
                            "%d-dimensional weight of size %s instead", nsp + 2, nsp + 2,
                            weight->ndim, mt_format_sizes(a, sizeof(a), weight->ndim, weight->sizes));
    }
    int rc = mt__conv_check_params(p);
    if (rc < 0) {
        return rc;
    }
    if (input->dtype != weight->dtype) {
        if (nsp == 2 && !tr) {
            return mt_error_set(MT_ERUNTIME,
                                "Input type (torch.%sTensor) and weight type (torch.%sTensor) should "
                                "be the same or input should be a MKLDNN tensor and weight is a "
                                "dense tensor", mt_dtype_scalar_name(input->dtype),
                                mt_dtype_scalar_name(weight->dtype));
        }
        return mt_error_set(MT_ERUNTIME, "expected scalar type %s but found %s",
                            mt_dtype_scalar_name(input->dtype), mt_dtype_scalar_name(weight->dtype));
    }
    if (bias != NULL && bias->dtype != input->dtype) {
        return mt_error_set(MT_ERUNTIME, "Input type (%s) and bias type (%s) should be the same",
                            mt__meta_name(input->dtype), mt__meta_name(bias->dtype));
    }
    const mt_tensor *ts[3] = {input, weight, bias};
    if (mt_check_same_device(3, ts, NULL) < 0) {
        return MT_ERUNTIME;
    }
    int64_t xb[5]; /* the input's sizes as a batch (N, C, *spatial), what torch prints */
    bool batched = input->ndim == nsp + 2;
    xb[0] = batched ? input->sizes[0] : 1;
    xb[1] = input->sizes[batched ? 1 : 0];
    memcpy(xb + 2, input->sizes + input->ndim - nsp, sizeof(int64_t) * (size_t)nsp);
    const int64_t *insp = xb + 2, *ksp = weight->sizes + 2;
    const int64_t w0 = weight->sizes[0], w1 = weight->sizes[1], groups = p->groups;
    mt_format_sizes(b, sizeof(b), weight->ndim, weight->sizes);
    if (w0 < groups) {
        return mt_error_set(MT_ERUNTIME,
                            "Given groups=%lld, expected weight to be at least %lld at dimension 0, "
                            "but got weight of size %s instead",
                            (long long)groups, (long long)groups, b);
    }
    if (w0 % groups != 0) {
        return mt_error_set(MT_ERUNTIME,
                            "Given groups=%lld, expected weight to be divisible by %lld at "
                            "dimension 0, but got weight of size [%s] instead",
                            (long long)groups, (long long)groups, b);
    }
    int64_t outc; /* channels of the result */
    bool outc_overflow = mt_ckd_mul(&outc, w1, groups);
    if (!tr && (outc_overflow || outc != xb[1])) {
        char want[48];
        if (outc_overflow) {
            snprintf(want, sizeof(want), "%lld*%lld", (long long)w1, (long long)groups);
        }
        else {
            snprintf(want, sizeof(want), "%lld", (long long)outc);
        }
        return mt_error_set(MT_ERUNTIME,
                            "Given groups=%lld, weight of size %s, expected input%s to have %s "
                            "channels, but got %lld channels instead",
                            (long long)groups, b, mt_format_sizes(a, sizeof(a), nsp + 2, xb), want,
                            (long long)xb[1]);
    }
    if (tr && w0 != xb[1]) {
        return mt_error_set(MT_ERUNTIME,
                            "Given transposed=1, weight of size %s, expected input%s to have %lld "
                            "channels, but got %lld channels instead",
                            b, mt_format_sizes(a, sizeof(a), nsp + 2, xb), (long long)w0,
                            (long long)xb[1]);
    }
    if (tr && outc_overflow) {
        return mt_error_set(MT_ERUNTIME, "%s: %lld x %lld output channels are too many", name,
                            (long long)w1, (long long)groups);
    }
    int64_t bias_n = tr ? outc : w0;
    int64_t out[3];
    bool overflow = false;
    if (!tr) {
        int64_t ext[3], padded[3];
        for (int i = 0; i < nsp; i++) {
            overflow |= mt_ckd_mul(&ext[i], ksp[i] - 1, p->dilation[i]) ||
                        mt_ckd_add(&ext[i], ext[i], 1);
            overflow |= mt_ckd_mul(&padded[i], p->padding[i], 2) ||
                        mt_ckd_add(&padded[i], padded[i], insp[i]);
        }
        if (overflow) {
            return mt_error_set(MT_ERUNTIME, "%s: padding (%s) or dilated kernel size is too large",
                                name, mt__format_x(a, sizeof(a), nsp, p->padding));
        }
        for (int i = 0; i < nsp; i++) {
            if (ext[i] > padded[i]) {
                return mt_error_set(MT_ERUNTIME,
                                    "Calculated padded input size per channel: (%s). Kernel size: "
                                    "(%s). Kernel size can't be greater than actual input size",
                                    mt__format_x(a, sizeof(a), nsp, padded),
                                    mt__format_x(c, sizeof(c), nsp, ext));
            }
        }
        for (int i = 0; i < nsp; i++) {
            out[i] = (padded[i] - ext[i]) / p->stride[i] + 1;
        }
    }
    else {
        for (int i = 0; i < nsp; i++) {
            if (insp[i] == 0) {
                return mt_error_set(MT_ERUNTIME,
                                    "Only zero batch or zero channel inputs are supported, but got "
                                    "input shape: %s",
                                    mt_format_sizes(a, sizeof(a), input->ndim, input->sizes));
            }
        }
        for (int i = 0; i < nsp; i++) {
            if (p->output_padding[i] >= p->stride[i] && p->output_padding[i] >= p->dilation[i]) {
                return mt__output_padding_error(p);
            }
        }
        for (int i = 0; i < nsp; i++) {
            /* (in - 1) s - 2p + d (k - 1) + output_padding + 1 */
            int64_t t, u;
            overflow |= mt_ckd_mul(&t, insp[i] - 1, p->stride[i]) ||
                        mt_ckd_mul(&u, p->dilation[i], ksp[i] - 1) || mt_ckd_add(&t, t, u) ||
                        mt_ckd_add(&t, t, p->output_padding[i] + 1) ||
                        mt_ckd_mul(&u, p->padding[i], 2) || mt_ckd_add(&t, t, -u);
            out[i] = t;
        }
        if (overflow) {
            return mt_error_set(MT_ERUNTIME, "%s: the output size is too large", name);
        }
        for (int i = 0; i < nsp; i++) {
            if (out[i] < 1) {
                return mt_error_set(MT_ERUNTIME,
                                    "Given input size per channel: (%s). Calculated output size per "
                                    "channel: (%s). Output size is too small",
                                    mt__format_x(a, sizeof(a), nsp, insp),
                                    mt__format_x(c, sizeof(c), nsp, out));
            }
        }
    }
    if (bias != NULL && (bias->ndim != 1 || bias->sizes[0] != bias_n)) {
        return mt_error_set(MT_ERUNTIME,
                            "Given %sweight of size %s, expected bias to be 1-dimensional with %lld "
                            "elements, but got bias of size %s instead", tr ? "transposed=1, " : "",
                            b, (long long)bias_n,
                            mt_format_sizes(a, sizeof(a), bias->ndim, bias->sizes));
    }
    mt_dtype dt = input->dtype;
    if (dt != MT_FLOAT32 && dt != MT_FLOAT64 && dt != MT_FLOAT16 && dt != MT_BFLOAT16) {
        return mt_error_set(MT_ENOTIMPL, "\"slow_%s%dd_cpu\" not implemented for '%s'",
                            tr ? "conv_transpose" : "conv", nsp < 2 ? 2 : nsp,
                            mt_dtype_scalar_name(dt));
    }
    /* the plain convolution's geometry (Note [Transposed convolution]) */
    *g = (mt__conv_geom){.n = xb[0], .groups = groups, .cg = w1, .coutg = w0 / groups};
    g->c = tr ? outc : xb[1];
    g->cout = w0;
    for (int i = 0; i < 3; i++) {
        int src = i - (3 - nsp);
        bool real = src >= 0;
        g->k[i] = real ? ksp[src] : 1;
        g->s[i] = real ? p->stride[src] : 1;
        g->pad[i] = real ? p->padding[src] : 0;
        g->dil[i] = real ? p->dilation[src] : 1;
        g->in[i] = real ? (tr ? out[src] : insp[src]) : 1;
        g->out[i] = real ? (tr ? insp[src] : out[src]) : 1;
    }
    int64_t kp;
    if (mt_ckd_mul(&g->kk, g->cg, g->k[0]) || mt_ckd_mul(&g->kk, g->kk, g->k[1]) ||
        mt_ckd_mul(&g->kk, g->kk, g->k[2]) || mt_ckd_mul(&g->p, g->out[0], g->out[1]) ||
        mt_ckd_mul(&g->p, g->p, g->out[2]) || mt_ckd_mul(&kp, g->kk, g->p) ||
        mt_ckd_mul(&kp, kp, 8) || mt_ckd_mul(&g->inplane, g->in[0], g->in[1]) ||
        mt_ckd_mul(&g->inplane, g->inplane, g->in[2]) || mt_ckd_mul(&kp, g->inplane, g->c) ||
        mt_ckd_mul(&kp, kp, g->n) || mt_ckd_mul(&kp, kp, 8)) {
        return mt_error_set(MT_ERUNTIME, "%s: the output of (%s) positions with a kernel of %lld x "
                            "(%s) is too large", name,
                            mt__format_x(a, sizeof(a), nsp, tr ? insp : out), (long long)g->cg,
                            mt__format_x(c, sizeof(c), nsp, ksp));
    }
    g->direct = true;
    for (int i = 0; i < 3; i++) {
        g->direct &= g->k[i] == 1 && g->s[i] == 1 && g->pad[i] == 0 && g->in[i] == g->out[i];
    }
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

/* Whether input row (id, ih) of output row (od, oh) and kernel tap (a, i)
 * lies inside the input; its offset in a plane when it does. */
static inline bool
mt__conv_row(const mt__conv_geom *g, int64_t od, int64_t oh, int64_t a, int64_t i, int64_t *at)
{
    int64_t id = od * g->s[0] - g->pad[0] + a * g->dil[0];
    int64_t ih = oh * g->s[1] - g->pad[1] + i * g->dil[1];
    if (id < 0 || id >= g->in[0] || ih < 0 || ih >= g->in[1]) {
        return false;
    }
    *at = (id * g->in[1] + ih) * g->in[2];
    return true;
}

/* im2col of one group of one image (x: cg planes of in[0] x in[1] x in[2])
 * into col, for the output rows (od, oh pairs) [r0, r1): col is kk x ((r1 -
 * r0) * out[2]) (Note [Column tiles]). */
#define MT__DEFINE_IM2COL(name, T)                                                                \
    MT_SIMD_CLONES static void mt__im2col_##name(const mt__conv_geom *g, const T *x, T *col,      \
                                                 int64_t r0, int64_t r1)                          \
    {                                                                                             \
        const int64_t OW = g->out[2], sw = g->s[2], pt = (r1 - r0) * OW;                          \
        int64_t r = 0;                                                                            \
        for (int64_t c = 0; c < g->cg; c++) {                                                     \
            const T *xc = x + c * g->inplane;                                                     \
            for (int64_t ka = 0; ka < g->k[0]; ka++) {                                            \
                for (int64_t ki = 0; ki < g->k[1]; ki++) {                                        \
                    for (int64_t kj = 0; kj < g->k[2]; kj++, r++) {                               \
                        T *row = col + r * pt;                                                    \
                        int64_t woff = kj * g->dil[2] - g->pad[2], lo, hi, at;                    \
                        mt__valid_range(g->in[2], sw, woff, OW, &lo, &hi);                        \
                        int64_t od = r0 / g->out[1], oh = r0 % g->out[1];                         \
                        for (int64_t orow = r0; orow < r1; orow++) {                              \
                            T *dst = row + (orow - r0) * OW;                                      \
                            bool inside = mt__conv_row(g, od, oh, ka, ki, &at);                   \
                            if (++oh == g->out[1]) { /* the next output row, no division */       \
                                oh = 0;                                                           \
                                od++;                                                             \
                            }                                                                     \
                            if (!inside) {                                                        \
                                memset(dst, 0, sizeof(T) * (size_t)OW);                           \
                                continue;                                                         \
                            }                                                                     \
                            for (int64_t ow = 0; ow < lo; ow++) {                                 \
                                dst[ow] = 0;                                                      \
                            }                                                                     \
                            /* src: the input element of output column lo (when lo < hi) */       \
                            const T *src = xc + at + (lo < hi ? lo * sw + woff : 0);              \
                            if (sw == 1) { /* rows are short: a loop beats a memcpy call */       \
                                for (int64_t i = 0; i < hi - lo; i++) {                           \
                                    dst[lo + i] = src[i];                                         \
                                }                                                                 \
                            }                                                                     \
                            else {                                                                \
                                for (int64_t i = 0; i < hi - lo; i++) {                           \
                                    dst[lo + i] = src[i * sw];                                    \
                                }                                                                 \
                            }                                                                     \
                            for (int64_t ow = hi; ow < OW; ow++) {                                \
                                dst[ow] = 0;                                                      \
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
    /* dst[r, :] += v[r] for each of the rows r of p values */                                    \
    static void mt__add_rows_##name(T *dst, const T *v, int64_t rows, int64_t p)                  \
    {                                                                                             \
        for (int64_t r = 0; r < rows; r++) {                                                      \
            for (int64_t i = 0; i < p; i++) {                                                     \
                dst[r * p + i] += v[r];                                                           \
            }                                                                                     \
        }                                                                                         \
    }                                                                                             \
    /* The sum of p values, in MT__SUM_LANES interleaved partial sums (one chain                  \
     * of dependent adds per row would be latency-bound) */                                       \
    MT_SIMD_CLONES static T mt__row_sum_##name(const T *row, int64_t p)                           \
    {                                                                                             \
        T lane[MT__SUM_LANES] = {0};                                                              \
        int64_t i = 0;                                                                            \
        for (; i + MT__SUM_LANES <= p; i += MT__SUM_LANES) {                                      \
            for (int l = 0; l < MT__SUM_LANES; l++) {                                             \
                lane[l] += row[i + l];                                                            \
            }                                                                                     \
        }                                                                                         \
        T s = 0;                                                                                  \
        for (int l = 0; l < MT__SUM_LANES; l++) {                                                 \
            s += lane[l];                                                                         \
        }                                                                                         \
        for (; i < p; i++) {                                                                      \
            s += row[i];                                                                          \
        }                                                                                         \
        return s;                                                                                 \
    }                                                                                             \
    /* acc[r] += the sum of row r (p values) */                                                   \
    static void mt__add_row_sums_##name(T *acc, const T *src, int64_t rows, int64_t p)            \
    {                                                                                             \
        for (int64_t r = 0; r < rows; r++) {                                                      \
            acc[r] += mt__row_sum_##name(src + r * p, p);                                         \
        }                                                                                         \
    }
MT__DEFINE_IM2COL(float32, float)
MT__DEFINE_IM2COL(float64, double)

/* Note [Column tiles]
 * A whole image's columns matrix holds kk * p values (a 3-D layer easily
 * makes that tens of megabytes), so building it and multiplying it would
 * stream it through memory twice.  Instead each image is done a tile of
 * output rows at a time: the columns of those rows (about MT__CONV_TILE_BYTES,
 * at least MT__CONV_TILE_MIN positions so that the products stay efficient)
 * are built, used by the product while they are in cache, and overwritten
 * by the next tile's.  The forward's product writes a tile of the output
 * into a small buffer first (the product's result is contiguous) unless one
 * tile covers the image; grad_weight sums the tiles' products (and
 * grad_input tiles its phases' columns alike, conv_grad_input.c). */

/* One call's shared state.  Pool threads report a failure (only MT_ENOMEM:
 * a column buffer) in `err`; the caller sets the message. */
typedef struct mt__conv_job {
    const mt__conv_geom *g;
    bool dbl;
    const char *x, *w, *bias, *gy;
    char *y;
    char *parts;          /* weight gradient: per chunk, grad_weight (cout * kk) then grad_bias */
    int64_t nchunks;
    int64_t tile_rows;    /* output rows per column tile (Note [Column tiles]) */
    bool need_gw, need_gb;
    atomic_int err;
} mt__conv_job;

/* Output rows per column tile of g (Note [Column tiles]). */
static int64_t
mt__conv_tile_rows(const mt__conv_geom *g, size_t isz)
{
    int64_t rows = g->out[0] * g->out[1], ow = g->out[2] > 0 ? g->out[2] : 1;
    int64_t per = g->kk * (int64_t)isz;
    int64_t want = per > 0 ? MT__CONV_TILE_BYTES / per : rows * ow;
    want = want < MT__CONV_TILE_MIN ? MT__CONV_TILE_MIN : want;
    int64_t r = want / ow;
    r = r < 1 ? 1 : r;
    return r < rows ? r : (rows > 0 ? rows : 1);
}

static void
mt__chunk_images(const mt__conv_job *j, int64_t chunk, int64_t *n0, int64_t *n1)
{
    *n0 = j->g->n * chunk / j->nchunks;
    *n1 = j->g->n * (chunk + 1) / j->nchunks;
}

/* A column tile buffer (kk x tile_rows * out[2]) and, when ybuf is given and
 * an image takes several tiles, the forward's output tile (coutg x the same
 * positions); NULL when the image is its own col.  A failure is recorded in
 * j->err and reported through *ok.  One allocation: free(col). */
static void *
mt__col_buffer(mt__conv_job *j, bool *ok, void **ybuf)
{
    *ok = true;
    if (ybuf != NULL) {
        *ybuf = NULL;
    }
    if (j->g->direct) {
        return NULL;
    }
    size_t isz = j->dbl ? sizeof(double) : sizeof(float);
    /* the tile has at most p positions and kk * p * 8 fits (mt__conv_check) */
    int64_t pt = j->tile_rows * j->g->out[2];
    int64_t ncol = j->g->kk * pt;
    bool tiled = j->tile_rows < j->g->out[0] * j->g->out[1];
    int64_t ny = ybuf != NULL && tiled ? j->g->coutg * pt : 0;
    char *col = malloc((size_t)(ncol + ny) * isz + 1);
    if (col == NULL) {
        atomic_store(&j->err, MT_ENOMEM);
        *ok = false;
        return NULL;
    }
    if (ny > 0) {
        *ybuf = col + (size_t)ncol * isz;
    }
    return col;
}

#define MT__DEFINE_CONV_CHUNKS(name, T, DT)                                                       \
    static void mt__conv_forward_##name(void *ctx, int64_t begin, int64_t end)                    \
    {                                                                                             \
        mt__conv_job *j = ctx;                                                                    \
        const mt__conv_geom *g = j->g;                                                            \
        bool ok = true;                                                                           \
        void *yb = NULL;                                                                          \
        T *col = mt__col_buffer(j, &ok, &yb);                                                     \
        T *ybuf = yb;                                                                             \
        if (!ok) {                                                                                \
            return;                                                                               \
        }                                                                                         \
        const int64_t rows = g->out[0] * g->out[1], OW = g->out[2];                               \
        const int64_t tr = col != NULL ? j->tile_rows : rows;                                     \
        for (int64_t ci = begin; ci < end; ci++) {                                                \
            int64_t n0, n1;                                                                       \
            mt__chunk_images(j, ci, &n0, &n1);                                                    \
            for (int64_t n = n0; n < n1; n++) {                                                   \
                for (int64_t gr = 0; gr < g->groups; gr++) {                                      \
                    const T *xg = (const T *)j->x + (n * g->c + gr * g->cg) * g->inplane;         \
                    const T *wg = (const T *)j->w + gr * g->coutg * g->kk;                        \
                    const T *bg = j->bias != NULL ? (const T *)j->bias + gr * g->coutg : NULL;    \
                    T *yg = (T *)j->y + (n * g->cout + gr * g->coutg) * g->p;                     \
                    for (int64_t r0 = 0; r0 < rows; r0 += tr) {                                   \
                        int64_t r1 = r0 + tr < rows ? r0 + tr : rows, pt = (r1 - r0) * OW;        \
                        T *dst = ybuf != NULL ? ybuf : yg;                                        \
                        if (col != NULL) {                                                        \
                            mt__im2col_##name(g, xg, col, r0, r1);                                \
                        }                                                                         \
                        if (bg != NULL) {                                                         \
                            mt__fill_rows_##name(dst, bg, g->coutg, pt);                          \
                        }                                                                         \
                        if (mt_gemm_raw(DT, false, false, g->coutg, pt, g->kk, 1.0, wg, g->kk,    \
                                        col != NULL ? col : xg, pt, bg != NULL ? 1.0 : 0.0,       \
                                        dst) < 0) {                                               \
                            atomic_store(&j->err, MT_ENOMEM);                                     \
                        }                                                                         \
                        for (int64_t co = 0; ybuf != NULL && co < g->coutg; co++) {               \
                            memcpy(yg + co * g->p + r0 * OW, ybuf + co * pt,                      \
                                   sizeof(T) * (size_t)pt);                                       \
                        }                                                                         \
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
        T *col = j->need_gw ? mt__col_buffer(j, &ok, NULL) : NULL;                                \
        if (j->need_gw && !ok) {                                                                  \
            return;                                                                               \
        }                                                                                         \
        const int64_t plane = g->inplane, rows = g->out[0] * g->out[1], OW = g->out[2];           \
        const int64_t tr = col != NULL ? j->tile_rows : rows;                                     \
        for (int64_t ci = begin; ci < end; ci++) {                                                \
            int64_t n0, n1;                                                                       \
            mt__chunk_images(j, ci, &n0, &n1);                                                    \
            T *gw = (T *)j->parts + ci * (g->cout * g->kk + g->cout);                             \
            T *gb = gw + g->cout * g->kk;                                                         \
            memset(gw, 0, sizeof(T) * (size_t)(g->cout * g->kk + g->cout));                       \
            for (int64_t n = n0; n < n1; n++) {                                                   \
                for (int64_t gr = 0; gr < g->groups && j->need_gw; gr++) {                        \
                    const T *xg = (const T *)j->x + (n * g->c + gr * g->cg) * plane;              \
                    const T *gyg = (const T *)j->gy + (n * g->cout + gr * g->coutg) * g->p;       \
                    for (int64_t r0 = 0; r0 < rows; r0 += tr) {                                   \
                        int64_t r1 = r0 + tr < rows ? r0 + tr : rows, pt = (r1 - r0) * OW;        \
                        if (col != NULL) {                                                        \
                            mt__im2col_##name(g, xg, col, r0, r1);                                \
                        }                                                                         \
                        if (mt_gemm_raw(DT, false, true, g->coutg, g->kk, pt, 1.0,                \
                                        gyg + r0 * OW, g->p, col != NULL ? col : xg, pt, 1.0,     \
                                        gw + gr * g->coutg * g->kk) < 0) {                        \
                            atomic_store(&j->err, MT_ENOMEM);                                     \
                        }                                                                         \
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
            .stride = j->g->cout * j->g->kk + j->g->cout, .nchunks = j->nchunks,                  \
        };                                                                                        \
        mt_parallel_for(0, len, MT_GRAIN_SIZE / (j->nchunks > 0 ? j->nchunks : 1) + 1,            \
                        mt__sum_parts_##name, &a);                                                \
    }                                                                                             \
    /* out[ch] = the sum of t's channel ch over every image (t: n x nch x plane), one             \
     * channel per task, in a fixed order */                                                      \
    typedef struct {                                                                              \
        const T *t;                                                                               \
        T *out;                                                                                   \
        int64_t n, nch, plane;                                                                    \
    } mt__channel_sums_##name##_args;                                                             \
    static void mt__channel_sums_##name(void *ctx, int64_t begin, int64_t end)                    \
    {                                                                                             \
        const mt__channel_sums_##name##_args *a = ctx;                                            \
        for (int64_t ch = begin; ch < end; ch++) {                                                \
            T s = 0;                                                                              \
            for (int64_t n = 0; n < a->n; n++) {                                                  \
                s += mt__row_sum_##name(a->t + (n * a->nch + ch) * a->plane, a->plane);           \
            }                                                                                     \
            a->out[ch] = s;                                                                       \
        }                                                                                         \
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
        return mt_error_set(err, "convolution: out of memory for the column buffers (%lld x %lld "
                            "values per thread)", (long long)j->g->kk,
                            (long long)(j->tile_rows * j->g->out[2]));
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
 * instead of im2col: a 2-D (depth 1) 3x3 stride-1 undilated one.  Its
 * transforms mix the values of a tile, so an infinity would turn the
 * tile's other outputs into NaN (inf - inf) where a direct sum keeps them
 * finite: operands with inf or NaN take im2col. */
static bool
mt__conv_winograd(const mt__conv_geom *g, int64_t cin, int64_t cout, const mt_tensor *a,
                  const mt_tensor *b)
{
    return g->in[0] == 1 && g->k[0] == 1 && g->out[0] == 1 && g->k[1] == 3 && g->k[2] == 3 &&
           g->s[1] == 1 && g->s[2] == 1 && g->dil[1] == 1 && g->dil[2] == 1 &&
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

/* grad_input (res, every element written) by Note [grad_input as a
 * convolution].  0 or an error. */
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
        .dbl = dbl, .n = g->n, .c = g->cout, .h = g->out[1], .w = g->out[2], .cout = g->c,
        .groups = g->groups, .ph = 2 - g->pad[1], .pw = 2 - g->pad[2],
        .x = mt_tensor_data(gy), .weight = wf, .bias = NULL, .y = mt_tensor_data(res),
    };
    int rc = mt__winograd_conv2d(&wc);
    free(wf);
    return rc;
}

/* t (n x nch x plane, contiguous) += bias[ch] on channel ch of every image. */
static void
mt__add_channel_bias(mt_tensor *t, const mt_tensor *bias, int64_t n, int64_t nch, int64_t plane)
{
    for (int64_t i = 0; i < n; i++) {
        if (t->dtype == MT_FLOAT64) {
            mt__add_rows_float64((double *)mt_tensor_data(t) + i * nch * plane,
                                 (const double *)mt_tensor_data(bias), nch, plane);
        }
        else {
            mt__add_rows_float32((float *)mt_tensor_data(t) + i * nch * plane,
                                 (const float *)mt_tensor_data(bias), nch, plane);
        }
    }
}

/* y = the geometry's convolution of x (+ bias), every element of y written.
 * Operands and y are contiguous float32/float64 of one dtype.  0 or an error. */
static int
mt__conv_forward_run(const mt__conv_geom *g, mt_tensor *x, mt_tensor *w, mt_tensor *b,
                     mt_tensor *y)
{
    if (y->numel == 0) {
        return 0;
    }
    if (g->kk == 0) { /* no input channels: the bias alone */
        if (mt_fill_(y, mt_scalar_int(0)) < 0) {
            return mt_error_code();
        }
        if (b != NULL) {
            mt__add_channel_bias(y, b, g->n, g->cout, g->p);
        }
        return 0;
    }
    if (mt__conv_winograd(g, g->cg, g->coutg, x, w)) {
        mt_winograd_conv wc = {
            .dbl = x->dtype == MT_FLOAT64, .n = g->n, .c = g->c, .h = g->in[1], .w = g->in[2],
            .cout = g->cout, .groups = g->groups, .ph = g->pad[1], .pw = g->pad[2],
            .x = mt_tensor_data(x), .weight = mt_tensor_data(w),
            .bias = b ? mt_tensor_data(b) : NULL, .y = mt_tensor_data(y),
        };
        return mt__winograd_conv2d(&wc);
    }
    mt__conv_job j = {
        .g = g, .dbl = x->dtype == MT_FLOAT64,
        .x = mt_tensor_data(x), .w = mt_tensor_data(w), .bias = b ? mt_tensor_data(b) : NULL,
        .y = mt_tensor_data(y),
        .nchunks = g->n < 4 * MT__CONV_CHUNKS ? g->n : 4 * MT__CONV_CHUNKS,
        .tile_rows = mt__conv_tile_rows(g, x->dtype == MT_FLOAT64 ? 8 : 4),
    };
    return mt__conv_run(&j, j.dbl ? mt__conv_forward_float64 : mt__conv_forward_float32);
}

/* gx = the geometry's input gradient for gy (+ bias on each channel of gx),
 * every element of gx written.  As mt__conv_forward_run. */
static int
mt__conv_grad_input_run(const mt__conv_geom *g, mt_tensor *gy, mt_tensor *w, mt_tensor *b,
                        mt_tensor *gx)
{
    if (gx->numel == 0) {
        return 0;
    }
    if (g->p == 0) {
        if (mt_fill_(gx, mt_scalar_int(0)) < 0) {
            return mt_error_code();
        }
        if (b != NULL) {
            mt__add_channel_bias(gx, b, g->n, g->c, g->inplane);
        }
        return 0;
    }
    if (g->pad[1] <= 2 && g->pad[2] <= 2 && mt__conv_winograd(g, g->coutg, g->cg, gy, w)) {
        int rc = mt__conv_grad_input_winograd(g, gy, w, gx);
        if (rc == 0 && b != NULL) {
            mt__add_channel_bias(gx, b, g->n, g->c, g->inplane);
        }
        return rc;
    }
    return mt__conv_grad_input_phases(g, gy, w, b, gx);
}

/* res[ch] = the sum of channel ch of t (n x nch x plane) over images and
 * positions (the same for any thread count). */
static int
mt__conv_channel_sums(mt_tensor *t, int64_t n, int64_t nch, int64_t plane, mt_tensor *res)
{
    int64_t work = n * plane > 0 ? n * plane : 1;
    if (t->dtype == MT_FLOAT64) {
        mt__channel_sums_float64_args a = {.t = (const double *)mt_tensor_data(t),
                                           .out = (double *)mt_tensor_data(res),
                                           .n = n, .nch = nch, .plane = plane};
        mt_parallel_for(0, nch, MT_GRAIN_SIZE / work + 1, mt__channel_sums_float64, &a);
    }
    else {
        mt__channel_sums_float32_args a = {.t = (const float *)mt_tensor_data(t),
                                           .out = (float *)mt_tensor_data(res),
                                           .n = n, .nch = nch, .plane = plane};
        mt_parallel_for(0, nch, MT_GRAIN_SIZE / work + 1, mt__channel_sums_float32, &a);
    }
    return MT_OK;
}

/* gw (the weight's shape) and/or gb (cout) from x and gy: the weight and
 * bias gradients of the geometry's convolution, every element written;
 * either may be NULL.  As mt__conv_forward_run. */
static int
mt__conv_grad_weight_run(const mt__conv_geom *g, mt_tensor *x, mt_tensor *gy, mt_tensor *gw,
                         mt_tensor *gb)
{
    int rc = 0;
    char *parts = NULL;
    bool need_gw = gw != NULL && gw->numel > 0, need_gb = gb != NULL && gb->numel > 0;
    if (g->n == 0 || g->p == 0) {
        if ((need_gw && mt_fill_(gw, mt_scalar_int(0)) < 0) ||
            (need_gb && mt_fill_(gb, mt_scalar_int(0)) < 0)) {
            return mt_error_code();
        }
        return 0;
    }
    if (need_gw && mt__conv_winograd(g, g->cg, g->coutg, x, gy)) {
        mt_winograd_conv wc = {
            .dbl = x->dtype == MT_FLOAT64, .n = g->n, .c = g->c, .h = g->in[1], .w = g->in[2],
            .cout = g->cout, .groups = g->groups, .ph = g->pad[1], .pw = g->pad[2],
            .x = mt_tensor_data(x), .grad_output = mt_tensor_data(gy),
            .grad_weight = mt_tensor_data(gw),
        };
        rc = mt__winograd_conv2d_weight_grad(&wc);
        need_gw = false;
    }
    if (rc < 0 || (!need_gw && !need_gb)) {
        return rc;
    }
    bool dbl = gy->dtype == MT_FLOAT64;
    size_t isz = dbl ? sizeof(double) : sizeof(float);
    int64_t slot = g->cout * g->kk + g->cout; /* fits: the weight's numel plus cout */
    int64_t nchunks = g->n < MT__CONV_CHUNKS ? g->n : MT__CONV_CHUNKS;
    int64_t cap = MT__CONV_PART_BYTES / (slot * (int64_t)isz);
    if (nchunks > cap) {
        nchunks = cap > 1 ? cap : 1;
    }
    parts = mt_malloc_array(nchunks * slot, isz);
    if (parts == NULL) {
        return mt_error_code();
    }
    mt__conv_job j = {
        .g = g, .dbl = dbl, .x = mt_tensor_data(x), .gy = mt_tensor_data(gy),
        .need_gw = need_gw, .need_gb = need_gb, .parts = parts, .nchunks = nchunks,
        .tile_rows = mt__conv_tile_rows(g, isz),
    };
    rc = mt__conv_run(&j, dbl ? mt__conv_backward_float64 : mt__conv_backward_float32);
    for (int i = 0; rc == 0 && i < 2; i++) {
        mt_tensor *res = i == 0 ? gw : gb;
        if (!(i == 0 ? need_gw : need_gb)) {
            continue;
        }
        int64_t at = i == 0 ? 0 : g->cout * g->kk, len = i == 0 ? g->cout * g->kk : g->cout;
        if (dbl) {
            mt__sum_parts_into_float64(&j, (double *)mt_tensor_data(res), at, len);
        }
        else {
            mt__sum_parts_into_float32(&j, (float *)mt_tensor_data(res), at, len);
        }
    }
    free(parts);
    return rc;
}

/* The sizes of a convolution's result: input's rank, channels then the
 * spatial extents (Note [Transposed convolution] for which). */
static void
mt__conv_result_sizes(const mt__conv_geom *g, const mt_conv_params *p, int ndim, int64_t *sz)
{
    int at = 0;
    if (ndim == p->nsp + 2) {
        sz[at++] = g->n;
    }
    sz[at++] = p->transposed ? g->c : g->cout;
    for (int i = 3 - p->nsp; i < 3; i++) {
        sz[at++] = p->transposed ? g->in[i] : g->out[i];
    }
}

static const mt_conv_kernels mt__cpu_conv_kernels = {
    .forward = mt__conv_forward_run,
    .grad_input = mt__conv_grad_input_run,
    .grad_weight = mt__conv_grad_weight_run,
    .channel_sums = mt__conv_channel_sums,
    .max_pool = mt__cpu_max_pool,
    .max_pool_backward = mt__cpu_max_pool_backward,
    .avg_pool = mt__cpu_avg_pool,
    .avg_pool_backward = mt__cpu_avg_pool_backward,
    .resample = mt__cpu_resample,
};

void
mt__cpu_conv_register(void)
{
    MT_REGISTER_STUB(conv, MT_CPU, &mt__cpu_conv_kernels);
}

mt_tensor *
mt_convolution(mt_tensor *input, mt_tensor *weight, mt_tensor *bias, const mt_conv_params *p)
{
    mt__conv_geom g;
    if (mt__conv_check(input, weight, bias, p, &g) < 0) {
        return NULL;
    }
    mt_device_type dev = mt_tensor_device(input).type;
    /* Note [Transposed convolution]: its forward is the plain convolution's grad_input */
    int (*run)(const mt__conv_geom *, mt_tensor *, mt_tensor *, mt_tensor *, mt_tensor *) =
        p->transposed ? MT_STUB(conv, grad_input, dev, "convolution")
                      : MT_STUB(conv, forward, dev, "convolution");
    if (run == NULL) {
        return NULL;
    }
    mt_tensor *x = mt_float_operand(input), *w = x ? mt_float_operand(weight) : NULL;
    mt_tensor *b = w && bias ? mt_float_operand(bias) : NULL, *y = NULL;
    if (x == NULL || w == NULL || (bias != NULL && b == NULL)) {
        goto done;
    }
    int64_t ysz[5];
    mt__conv_result_sizes(&g, p, input->ndim, ysz);
    y = mt_tensor_empty(x->dtype, input->ndim, ysz, mt_tensor_device(x));
    if (y == NULL) {
        goto done;
    }
    int rc = run(&g, x, w, b, y);
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

int
mt_convolution_backward(mt_tensor *grad_output, mt_tensor *input, mt_tensor *weight,
                        const mt_conv_params *p, const bool mask[3], mt_tensor *grads[3])
{
    char a[256], b[256];
    mt__conv_geom g;
    grads[0] = grads[1] = grads[2] = NULL;
    if (mt__conv_check(input, weight, NULL, p, &g) < 0) {
        return mt_error_code();
    }
    int64_t ysz[5];
    int nd = input->ndim;
    mt__conv_result_sizes(&g, p, nd, ysz);
    if (grad_output->ndim != nd ||
        memcmp(grad_output->sizes, ysz, sizeof(int64_t) * (size_t)nd) != 0) {
        return mt_error_set(MT_ERUNTIME, "convolution backward: expected grad_output of size %s, "
                            "but got %s", mt_format_sizes(a, sizeof(a), nd, ysz),
                            mt_format_sizes(b, sizeof(b), grad_output->ndim, grad_output->sizes));
    }
    mt_device_type dev = mt_tensor_device(input).type;
    if (mt_check_same_device2(grad_output, input, NULL) < 0 ||
        MT_STUB(conv, forward, dev, "convolution_backward") == NULL ||
        MT_STUB(conv, grad_input, dev, "convolution_backward") == NULL ||
        MT_STUB(conv, grad_weight, dev, "convolution_backward") == NULL ||
        MT_STUB(conv, channel_sums, dev, "convolution_backward") == NULL) {
        return mt_error_code();
    }
    const mt_conv_kernels *k = mt_conv_stub[dev];
    if (grad_output->dtype != input->dtype) {
        return mt_error_set(MT_ERUNTIME, "convolution backward: expected grad_output of dtype %s, "
                            "but got %s", mt_dtype_name(input->dtype),
                            mt_dtype_name(grad_output->dtype));
    }
    int rc = 0;
    mt_tensor *x = mt_float_operand(input), *w = x ? mt_float_operand(weight) : NULL;
    mt_tensor *gy = w ? mt_float_operand(grad_output) : NULL;
    mt_tensor *res[3] = {NULL, NULL, NULL};
    if (gy == NULL) {
        rc = mt_error_code();
        goto done;
    }
    int64_t nbias = p->transposed ? g.c : g.cout;
    const mt_tensor *like[3] = {x, w, NULL};
    for (int i = 0; i < 3; i++) {
        if (!mask[i]) {
            continue;
        }
        res[i] = i < 2 ? mt_tensor_empty(x->dtype, like[i]->ndim, like[i]->sizes,
                                         mt_tensor_device(x))
                       : mt_tensor_empty(x->dtype, 1, &nbias, mt_tensor_device(x));
        if (res[i] == NULL) {
            rc = mt_error_code();
            goto done;
        }
    }
    if (!p->transposed) {
        rc = res[0] ? k->grad_input(&g, gy, w, NULL, res[0]) : 0;
        if (rc == 0) {
            rc = k->grad_weight(&g, x, gy, res[1], res[2]);
        }
    }
    else { /* Note [Transposed convolution]: the plain convolution's input is grad_output */
        rc = res[0] ? k->forward(&g, gy, w, NULL, res[0]) : 0;
        if (rc == 0) {
            rc = k->grad_weight(&g, gy, x, res[1], NULL);
        }
        if (rc == 0 && res[2] != NULL) {
            rc = k->channel_sums(gy, g.n, g.c, g.inplane, res[2]);
        }
    }
done:
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
