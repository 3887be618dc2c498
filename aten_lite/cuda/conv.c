/* aten_lite/cuda/conv.c - the CUDA entry of the convolution and pooling family
 * (kernel_stubs.h): im2col / its adjoint + the CUDA GEMM, and the pooling kernels
 * (aten_lite/cuda/conv.cu). */
#include "aten_lite/cuda/conv.h"
#include "aten_lite/cuda/gemm.h"
#include "aten_lite/kernel_stubs.h"
#include "aten_lite/ops.h"
#include "aten_lite/upsample_map.h"
#include "c10_lite/allocator.h"
#include "c10_lite/cuda_state.h"
#include "c10_lite/error.h"

/* Note [CUDA convolution]
 * The three products of Note [Convolution as GEMM] (conv.c) on the device, over chunks of
 * images whose columns (Note [CUDA columns]) take at most MT__CUDA_COL_BYTES (at least one
 * image per chunk):
 *   forward      im2col, then per group one product batched over the chunk's images:
 *                y[i, g] (Cout_g x P) = W_g (Cout_g x K) @ col_g[i] (K x P); then the bias;
 *   grad_input   per group, batched over images: col_g[i] = W_g^T @ gy[i, g]; then the
 *                adjoint of im2col gathers each input element's entries (and adds the bias);
 *   grad_weight  im2col, gy's chunk copied to (groups, Cout_g, images, P), then one product
 *                batched over groups: gW_g (+)= gy_g (Cout_g x imgs*P) @ col_g^T, summed over
 *                the chunks in order (beta 1 after the first); the bias gradient is the
 *                channel sums of gy.
 * Every sum runs in a fixed order, so results do not vary between runs.  The products use
 * full float32 precision (no TF32). */

#define MT__CUDA_COL_BYTES ((int64_t)64 << 20)

static int
mt__dev(const mt_tensor *t)
{
    return mt_tensor_device(t).index;
}

/* images per chunk: the columns (and per image `extra` more elements) within the limit */
static int64_t
mt__chunk(const mt__conv_geom *g, int64_t extra, size_t isz)
{
    int64_t per = (g->c * g->k[0] * g->k[1] * g->k[2] * g->p + extra) * (int64_t)isz;
    int64_t c = per > 0 ? MT__CUDA_COL_BYTES / per : g->n;
    c = c < 1 ? 1 : c;
    return c < g->n ? c : g->n;
}

static void
mt__col_geom(const mt__conv_geom *g, int64_t imgs, mt_cuda_conv_geom *cg)
{
    *cg = (mt_cuda_conv_geom){.c = g->c, .imgs = imgs, .s_img = g->p, .s_row = imgs * g->p};
    for (int i = 0; i < 3; i++) {
        cg->in[i] = g->in[i];
        cg->k[i] = g->k[i];
        cg->out[i] = g->out[i];
        cg->s[i] = g->s[i];
        cg->pad[i] = g->pad[i];
        cg->dil[i] = g->dil[i];
    }
}

static mt_tensor *
mt__scratch(const mt_tensor *like, int64_t n)
{
    return mt_tensor_empty(like->dtype, 1, &n, mt_tensor_device(like));
}

static char *
mt__at(const mt_tensor *t, int64_t elems)
{
    return (char *)mt_tensor_data(t) + elems * (int64_t)mt_tensor_itemsize(t);
}

static int
mt__cuda_conv_forward(const mt__conv_geom *g, mt_tensor *x, mt_tensor *w, mt_tensor *b,
                      mt_tensor *y)
{
    if (y->numel == 0) {
        return MT_OK;
    }
    const int dev = mt__dev(y), dbl = y->dtype == MT_FLOAT64;
    void *stream = mt_cuda_current_stream(dev);
    int rc = MT_OK;
    if (g->kk == 0) { /* no input channels: the bias alone */
        if (mt_fill_(y, mt_scalar_int(0)) < 0) {
            return mt_error_code();
        }
        return b == NULL ? MT_OK
                         : mt_cuda_channel_bias(dev, stream, dbl, mt_tensor_data(y),
                                                mt_tensor_data(b), g->n, g->cout, g->p);
    }
    const int64_t chunk = mt__chunk(g, 0, mt_tensor_itemsize(y));
    mt_tensor *col = mt__scratch(y, chunk * g->c * g->k[0] * g->k[1] * g->k[2] * g->p);
    if (col == NULL) {
        return mt_error_code();
    }
    for (int64_t i0 = 0; rc == MT_OK && i0 < g->n; i0 += chunk) {
        const int64_t im = g->n - i0 < chunk ? g->n - i0 : chunk;
        mt_cuda_conv_geom cg;
        mt__col_geom(g, im, &cg);
        rc = mt_cuda_im2col(dev, stream, dbl, &cg, mt__at(x, i0 * g->c * g->inplane),
                            mt_tensor_data(col));
        for (int64_t gr = 0; rc == MT_OK && gr < g->groups; gr++) {
            mt_cuda_rm_gemm r = {
                .type = dbl ? MT_CUDA_GEMM_FLOAT64 : MT_CUDA_GEMM_FLOAT32,
                .batch = im, .m = g->coutg, .n = g->p, .k = g->kk,
                .a = mt__at(w, gr * g->coutg * g->kk), .a0 = g->kk, .a1 = 1, .sa = 0,
                .b = mt__at(col, gr * g->kk * cg.s_row), .b0 = cg.s_row, .b1 = 1, .sb = g->p,
                .c = mt__at(y, (i0 * g->cout + gr * g->coutg) * g->p), .c0 = g->p, .c1 = 1,
                .sc = g->cout * g->p, .alpha = 1, .beta = 0,
            };
            rc = mt__cuda_gemm_rowmajor(&r, dev);
        }
    }
    mt_tensor_decref(col);
    if (rc == MT_OK && b != NULL) {
        rc = mt_cuda_channel_bias(dev, stream, dbl, mt_tensor_data(y), mt_tensor_data(b), g->n,
                                  g->cout, g->p);
    }
    return rc;
}

static int
mt__cuda_conv_grad_input(const mt__conv_geom *g, mt_tensor *gy, mt_tensor *w, mt_tensor *b,
                         mt_tensor *gx)
{
    if (gx->numel == 0) {
        return MT_OK;
    }
    const int dev = mt__dev(gx), dbl = gx->dtype == MT_FLOAT64;
    void *stream = mt_cuda_current_stream(dev);
    if (g->p == 0) {
        if (mt_fill_(gx, mt_scalar_int(0)) < 0) {
            return mt_error_code();
        }
        return b == NULL ? MT_OK
                         : mt_cuda_channel_bias(dev, stream, dbl, mt_tensor_data(gx),
                                                mt_tensor_data(b), g->n, g->c, g->inplane);
    }
    const int64_t chunk = mt__chunk(g, 0, mt_tensor_itemsize(gx));
    mt_tensor *col = mt__scratch(gx, chunk * g->c * g->k[0] * g->k[1] * g->k[2] * g->p);
    if (col == NULL) {
        return mt_error_code();
    }
    int rc = MT_OK;
    for (int64_t i0 = 0; rc == MT_OK && i0 < g->n; i0 += chunk) {
        const int64_t im = g->n - i0 < chunk ? g->n - i0 : chunk;
        mt_cuda_conv_geom cg;
        mt__col_geom(g, im, &cg);
        for (int64_t gr = 0; rc == MT_OK && gr < g->groups; gr++) {
            mt_cuda_rm_gemm r = {
                .type = dbl ? MT_CUDA_GEMM_FLOAT64 : MT_CUDA_GEMM_FLOAT32,
                .batch = im, .m = g->kk, .n = g->p, .k = g->coutg,
                .a = mt__at(w, gr * g->coutg * g->kk), .a0 = 1, .a1 = g->kk, .sa = 0,
                .b = mt__at(gy, (i0 * g->cout + gr * g->coutg) * g->p), .b0 = g->p, .b1 = 1,
                .sb = g->cout * g->p,
                .c = mt__at(col, gr * g->kk * cg.s_row), .c0 = cg.s_row, .c1 = 1, .sc = g->p,
                .alpha = 1, .beta = 0,
            };
            rc = mt__cuda_gemm_rowmajor(&r, dev);
        }
        if (rc == MT_OK) {
            rc = mt_cuda_col2im(dev, stream, dbl, &cg, mt_tensor_data(col),
                                b != NULL ? mt_tensor_data(b) : NULL,
                                mt__at(gx, i0 * g->c * g->inplane));
        }
    }
    mt_tensor_decref(col);
    return rc;
}

static int
mt__cuda_channel_sums(mt_tensor *t, int64_t n, int64_t nch, int64_t plane, mt_tensor *res)
{
    const int dev = mt__dev(res);
    return mt_cuda_channel_sums(dev, mt_cuda_current_stream(dev), res->dtype == MT_FLOAT64,
                                mt_tensor_data(t), mt_tensor_data(res), n, nch, plane);
}

static int
mt__cuda_conv_grad_weight(const mt__conv_geom *g, mt_tensor *x, mt_tensor *gy, mt_tensor *gw,
                          mt_tensor *gb)
{
    const bool need_gw = gw != NULL && gw->numel > 0, need_gb = gb != NULL && gb->numel > 0;
    if (g->n == 0 || g->p == 0) {
        if ((need_gw && mt_fill_(gw, mt_scalar_int(0)) < 0) ||
            (need_gb && mt_fill_(gb, mt_scalar_int(0)) < 0)) {
            return mt_error_code();
        }
        return MT_OK;
    }
    int rc = MT_OK;
    if (need_gb) {
        rc = mt__cuda_channel_sums(gy, g->n, g->cout, g->p, gb);
    }
    if (!need_gw || rc < 0) {
        return rc;
    }
    const int dev = mt__dev(gw), dbl = gw->dtype == MT_FLOAT64;
    void *stream = mt_cuda_current_stream(dev);
    const int64_t chunk = mt__chunk(g, g->cout * g->p, mt_tensor_itemsize(gw));
    const int64_t colsz = chunk * g->c * g->k[0] * g->k[1] * g->k[2] * g->p;
    mt_tensor *col = mt__scratch(gw, colsz + chunk * g->cout * g->p);
    if (col == NULL) {
        return mt_error_code();
    }
    for (int64_t i0 = 0; rc == MT_OK && i0 < g->n; i0 += chunk) {
        const int64_t im = g->n - i0 < chunk ? g->n - i0 : chunk;
        mt_cuda_conv_geom cg;
        mt__col_geom(g, im, &cg);
        rc = mt_cuda_im2col(dev, stream, dbl, &cg, mt__at(x, i0 * g->c * g->inplane),
                            mt_tensor_data(col));
        if (rc < 0) {
            break;
        }
        /* gy's chunk as (groups, Cout_g, images, P), contiguous after col */
        const int64_t sz[4] = {g->groups, g->coutg, im, g->p};
        const int64_t src_st[4] = {g->coutg * g->p, g->p, g->cout * g->p, 1};
        const int64_t dst_st[4] = {g->coutg * im * g->p, im * g->p, g->p, 1};
        mt_tensor *src = mt_as_strided(gy, 4, sz, src_st, gy->offset + i0 * g->cout * g->p);
        mt_tensor *dst = src ? mt_as_strided(col, 4, sz, dst_st, col->offset + colsz) : NULL;
        rc = dst == NULL ? mt_error_code() : mt_copy_(dst, src);
        mt_tensor_decref(src);
        mt_tensor_decref(dst);
        if (rc < 0) {
            break;
        }
        mt_cuda_rm_gemm r = {
            .type = dbl ? MT_CUDA_GEMM_FLOAT64 : MT_CUDA_GEMM_FLOAT32,
            .batch = g->groups, .m = g->coutg, .n = g->kk, .k = im * g->p,
            .a = mt__at(col, colsz), .a0 = im * g->p, .a1 = 1, .sa = g->coutg * im * g->p,
            .b = mt_tensor_data(col), .b0 = 1, .b1 = cg.s_row, .sb = g->kk * cg.s_row,
            .c = mt_tensor_data(gw), .c0 = g->kk, .c1 = 1, .sc = g->coutg * g->kk,
            .alpha = 1, .beta = i0 == 0 ? 0 : 1,
        };
        rc = mt__cuda_gemm_rowmajor(&r, dev);
    }
    mt_tensor_decref(col);
    return rc;
}

/* ---- pooling ---- */

/* The geometry with its tables copied to the device (*tables: the device block; caller
 * releases it). */
static int
mt__pool_to_device(const mt__pool_geom *g, const mt_tensor *like, mt_cuda_pool_geom *dg,
                   mt_tensor **tables)
{
    const int64_t n = 3 * (g->out[0] + g->out[1] + g->out[2]);
    *tables = mt_tensor_empty(MT_INT64, 1, &n, mt_tensor_device(like));
    if (*tables == NULL) {
        return mt_error_code();
    }
    int rc = mt_bytes_copy(mt_tensor_data(*tables), mt_tensor_device(like), g->tables,
                           MT_DEVICE_CPU, (size_t)n * sizeof(int64_t), false);
    if (rc < 0) {
        mt_tensor_decref(*tables);
        *tables = NULL;
        return rc;
    }
    const int64_t *base = (const int64_t *)mt_tensor_data(*tables);
    *dg = (mt_cuda_pool_geom){.planes = g->planes, .divisor = g->divisor};
    for (int i = 0; i < 3; i++) {
        dg->in[i] = g->in[i];
        dg->out[i] = g->out[i];
        dg->dil[i] = g->dil[i];
        dg->lo[i] = base + (g->ax[i].lo - g->tables);
        dg->hi[i] = base + (g->ax[i].hi - g->tables);
        dg->cnt[i] = base + (g->ax[i].cnt - g->tables);
    }
    return MT_OK;
}

static int
mt__cuda_max_pool(const mt__pool_geom *g, const mt_tensor *x, mt_tensor *y, mt_tensor *ix,
                  bool adaptive)
{
    mt_cuda_pool_type t;
    switch (x->dtype) {
    case MT_FLOAT32: t = MT_CUDA_POOL_FLOAT32; break;
    case MT_FLOAT64: t = MT_CUDA_POOL_FLOAT64; break;
    case MT_UINT8: t = MT_CUDA_POOL_UINT8; break;
    case MT_INT8: t = MT_CUDA_POOL_INT8; break;
    case MT_INT16: t = MT_CUDA_POOL_INT16; break;
    case MT_INT32: t = MT_CUDA_POOL_INT32; break;
    case MT_INT64: t = MT_CUDA_POOL_INT64; break;
    default:
        return mt_error_set(MT_ENOTIMPL, "\"max_pool_cuda\" not implemented for '%s'",
                            mt_dtype_scalar_name(x->dtype));
    }
    (void)adaptive; /* adaptive windows come as tables too (dilation 1) */
    if (y->numel == 0) {
        return MT_OK;
    }
    mt_cuda_pool_geom dg;
    mt_tensor *tables;
    int rc = mt__pool_to_device(g, y, &dg, &tables);
    if (rc == MT_OK) {
        const int dev = mt__dev(y);
        rc = mt_cuda_max_pool(dev, mt_cuda_current_stream(dev), t, &dg, mt_tensor_data(x),
                              mt_tensor_data(y), (int64_t *)mt_tensor_data(ix));
        mt_tensor_decref(tables);
    }
    return rc;
}

static int
mt__cuda_max_pool_backward(const mt__pool_geom *g, const mt_tensor *gy, const mt_tensor *ix,
                           mt_tensor *gx)
{
    if (gx->numel == 0) {
        return MT_OK;
    }
    const int dev = mt__dev(gx);
    if (gy->numel == 0) {
        return mt_fill_(gx, mt_scalar_int(0)) < 0 ? mt_error_code() : MT_OK;
    }
    /* the backward's geometry has no tables: sizes and planes only */
    mt_cuda_pool_geom dg = {.planes = g->planes};
    for (int i = 0; i < 3; i++) {
        dg.in[i] = g->in[i];
        dg.out[i] = g->out[i];
        dg.dil[i] = g->dil[i];
    }
    const int64_t one = 1;
    mt_tensor *flag = mt_tensor_empty(MT_INT32, 1, &one, mt_tensor_device(gx));
    int bad = 0;
    int rc = flag == NULL ? mt_error_code() : mt_fill_(flag, mt_scalar_int(0));
    if (rc == MT_OK && mt_fill_(gx, mt_scalar_int(0)) < 0) {
        rc = mt_error_code();
    }
    if (rc == MT_OK) {
        rc = mt_cuda_max_pool_backward(dev, mt_cuda_current_stream(dev), gx->dtype == MT_FLOAT64,
                                       &dg, mt_tensor_data(gy),
                                       (const int64_t *)mt_tensor_data(ix), mt_tensor_data(gx),
                                       (int *)mt_tensor_data(flag));
    }
    if (rc == MT_OK) {
        rc = mt_bytes_copy(&bad, MT_DEVICE_CPU, mt_tensor_data(flag), mt_tensor_device(flag),
                           sizeof(int), false);
    }
    mt_tensor_decref(flag);
    if (rc == MT_OK && bad) {
        return mt_error_set(MT_EINDEX,
                            "an index is outside its plane of %lld elements (indices must come "
                            "from the forward call)", (long long)(g->in[0] * g->in[1] * g->in[2]));
    }
    return rc;
}

static int
mt__cuda_avg_pool(const mt__pool_geom *g, const mt_tensor *x, mt_tensor *y)
{
    mt_cuda_pool_geom dg;
    mt_tensor *tables;
    int rc = mt__pool_to_device(g, y, &dg, &tables);
    if (rc == MT_OK) {
        const int dev = mt__dev(y);
        rc = mt_cuda_avg_pool(dev, mt_cuda_current_stream(dev), y->dtype == MT_FLOAT64, &dg,
                              mt_tensor_data(x), mt_tensor_data(y));
        mt_tensor_decref(tables);
    }
    return rc;
}

static int
mt__cuda_avg_pool_backward(const mt__pool_geom *g, const mt_tensor *gy, mt_tensor *gx)
{
    mt_cuda_pool_geom dg;
    mt_tensor *tables;
    int rc = mt__pool_to_device(g, gx, &dg, &tables);
    if (rc == MT_OK) {
        const int dev = mt__dev(gx);
        rc = mt_cuda_avg_pool_backward(dev, mt_cuda_current_stream(dev), gx->dtype == MT_FLOAT64,
                                       &dg, mt_tensor_data(gy), mt_tensor_data(gx));
        mt_tensor_decref(tables);
    }
    return rc;
}

/* ---- resampling ---- */

/* One pass of map mp from x to y on the device: the map's rows and weights uploaded first. */
static int
mt__cuda_resample_pass(const mt__map *mp, const mt_tensor *like, int kind, int64_t outer,
                       int64_t inner, const void *x, void *y)
{
    const int64_t nnz = mp->off[mp->m], nidx = mp->m + 1 + nnz;
    const bool dbl = kind == MT_CUDA_RESAMPLE_FLOAT64;
    const mt_device dev = mt_tensor_device(like);
    mt_tensor *idx = mt_tensor_empty(MT_INT64, 1, &nidx, dev);
    mt_tensor *w = idx ? mt_tensor_empty(dbl ? MT_FLOAT64 : MT_FLOAT32, 1, &nnz, dev) : NULL;
    int rc = w == NULL ? mt_error_code() : MT_OK;
    int64_t *didx = rc == MT_OK ? (int64_t *)mt_tensor_data(idx) : NULL;
    if (rc == MT_OK) {
        rc = mt_bytes_copy(didx, dev, mp->off, MT_DEVICE_CPU,
                           (size_t)(mp->m + 1) * sizeof(int64_t), false);
    }
    if (rc == MT_OK && nnz > 0) {
        rc = mt_bytes_copy(didx + mp->m + 1, dev, mp->src, MT_DEVICE_CPU,
                           (size_t)nnz * sizeof(int64_t), false);
    }
    if (rc == MT_OK && nnz > 0) {
        rc = mt_bytes_copy(mt_tensor_data(w), dev, dbl ? (const void *)mp->w : (const void *)mp->wf,
                           MT_DEVICE_CPU, (size_t)nnz * (dbl ? sizeof(double) : sizeof(float)),
                           false);
    }
    if (rc == MT_OK) {
        rc = mt_cuda_resample_pass(dev.index, mt_cuda_current_stream(dev.index), kind, outer, mp->n,
                                   mp->m, inner, didx, didx + mp->m + 1, mt_tensor_data(w), x, y);
    }
    mt_tensor_decref(idx);
    mt_tensor_decref(w);
    return rc;
}

/* The passes of Note [Separable resampling] on the device, through scratch tensors. */
static int
mt__cuda_resample(const mt_upsample_params *p, const mt_tensor *x, mt_tensor *y, bool transposed)
{
    const int nsp = p->nsp;
    mt__map maps[MT_UPSAMPLE_MAX_SPATIAL];
    int order[MT_UPSAMPLE_MAX_SPATIAL];
    const int64_t *from = x->sizes + 2, *to = y->sizes + 2;
    const bool copy = !transposed && (p->mode == MT_UPSAMPLE_NEAREST ||
                                      p->mode == MT_UPSAMPLE_NEAREST_EXACT);
    const size_t es = mt_tensor_itemsize(x);
    int kind;
    if (copy) {
        kind = es == 1 ? MT_CUDA_RESAMPLE_COPY1 : es == 2 ? MT_CUDA_RESAMPLE_COPY2
             : es == 4 ? MT_CUDA_RESAMPLE_COPY4 : MT_CUDA_RESAMPLE_COPY8;
    }
    else if (x->dtype == MT_FLOAT32 || x->dtype == MT_FLOAT64) {
        kind = x->dtype == MT_FLOAT64 ? MT_CUDA_RESAMPLE_FLOAT64 : MT_CUDA_RESAMPLE_FLOAT32;
    }
    else {
        return mt_error_set(MT_ENOTIMPL, "\"upsample_cuda\" not implemented for '%s'",
                            mt_dtype_scalar_name(x->dtype));
    }
    if (mt__build_maps(p, from, to, transposed, x->dtype != MT_FLOAT64, maps, order) < 0) {
        return mt_error_code();
    }
    int last = -1;
    for (int k = 0; k < nsp; k++) {
        if (!maps[k].identity) {
            last = k;
        }
    }
    int64_t cur[MT_UPSAMPLE_MAX_SPATIAL];
    for (int i = 0; i < nsp; i++) {
        cur[i] = from[i];
    }
    int rc = MT_OK;
    const void *src = mt_tensor_data(x);
    mt_tensor *owned = NULL;
    for (int k = 0; k <= last && rc == MT_OK; k++) {
        const mt__map *mp = &maps[k];
        const int ax = order[k];
        if (mp->identity) {
            continue;
        }
        int64_t outer = x->sizes[0] * x->sizes[1], inner = 1;
        for (int i = 0; i < ax; i++) {
            outer *= cur[i];
        }
        for (int i = ax + 1; i < nsp; i++) {
            inner *= cur[i];
        }
        mt_tensor *scratch = NULL;
        void *dst = mt_tensor_data(y);
        if (k != last) {
            scratch = mt__scratch(x, outer * mp->m * inner);
            if (scratch == NULL) {
                rc = mt_error_code();
                break;
            }
            dst = mt_tensor_data(scratch);
        }
        rc = mt__cuda_resample_pass(mp, x, kind, outer, inner, src, dst);
        mt_tensor_decref(owned);
        owned = scratch;
        src = dst;
        cur[ax] = mp->m;
    }
    mt_tensor_decref(owned);
    if (rc == MT_OK && last < 0) { /* every axis the identity */
        rc = mt_bytes_copy(mt_tensor_data(y), mt_tensor_device(y), mt_tensor_data(x),
                           mt_tensor_device(x), (size_t)x->numel * es, true);
    }
    for (int k = 0; k < nsp; k++) {
        mt__map_free(&maps[k]);
    }
    return rc;
}

static const mt_conv_kernels mt__cuda_conv_kernels = {
    .forward = mt__cuda_conv_forward,
    .grad_input = mt__cuda_conv_grad_input,
    .grad_weight = mt__cuda_conv_grad_weight,
    .channel_sums = mt__cuda_channel_sums,
    .max_pool = mt__cuda_max_pool,
    .max_pool_backward = mt__cuda_max_pool_backward,
    .avg_pool = mt__cuda_avg_pool,
    .avg_pool_backward = mt__cuda_avg_pool_backward,
    .resample = mt__cuda_resample,
};

void
mt__cuda_conv_register(void)
{
    MT_REGISTER_STUB(conv, MT_CUDA, &mt__cuda_conv_kernels);
}
