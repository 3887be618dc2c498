/* aten_lite/cast_loop.c - block-wise casting of an inner loop's inputs, see Note [Casting in blocks]. */
#include "aten_lite/cast_loop.h"

#include "aten_lite/cpu/kernels.h"

bool
mt_cast_ctx_init(mt_cast_ctx *ctx, mt_loop_fn inner, void *inner_ctx, int noutputs,
                 int noperands, const mt_dtype *dtypes, const mt_dtype *compute)
{
    bool any = false;
    ctx->inner = inner;
    ctx->inner_ctx = inner_ctx;
    ctx->noperands = noperands;
    for (int i = 0; i < noperands; i++) {
        ctx->to_compute[i] = NULL;
        ctx->compute_itemsize[i] = (int64_t)mt_dtype_itemsize(compute[i]);
        if (i >= noutputs && dtypes[i] != compute[i]) {
            ctx->to_compute[i] = mt_cpu_cast_loop(compute[i], dtypes[i]);
            any = true;
        }
    }
    return any;
}

void
mt_cast_loop(char **data, const int64_t *n, const int64_t *strides, void *vctx)
{
    const mt_cast_ctx *c = (const mt_cast_ctx *)vctx;
    /* 16 bytes per element covers every dtype */
    _Alignas(64) char buf[MT_CAST_MAX_OPERANDS][MT_CAST_BLOCK * 16];
    char *ptr[MT_CAST_MAX_OPERANDS];
    int64_t st[MT_CAST_MAX_OPERANDS];
    for (int i = 0; i < c->noperands; i++) {
        st[i] = c->to_compute[i] ? c->compute_itemsize[i] : strides[i];
    }
    for (int64_t done = 0; done < n[0]; done += MT_CAST_BLOCK) {
        int64_t m = n[0] - done < MT_CAST_BLOCK ? n[0] - done : MT_CAST_BLOCK;
        for (int i = 0; i < c->noperands; i++) {
            char *src = data[i] + done * strides[i];
            if (c->to_compute[i] == NULL) {
                ptr[i] = src;
                continue;
            }
            char *cast_ptrs[2] = {buf[i], src};
            int64_t cast_strides[2] = {c->compute_itemsize[i], strides[i]};
            if (strides[i] == 0) {
                /* a broadcast input: convert its one element, read it with stride 0 */
                int64_t one = 1;
                c->to_compute[i](cast_ptrs, &one, cast_strides, NULL);
                ptr[i] = buf[i];
                continue;
            }
            c->to_compute[i](cast_ptrs, &m, cast_strides, NULL);
            ptr[i] = buf[i];
        }
        int64_t inner_strides[MT_CAST_MAX_OPERANDS];
        for (int i = 0; i < c->noperands; i++) {
            inner_strides[i] = (c->to_compute[i] && strides[i] == 0) ? 0 : st[i];
        }
        c->inner(ptr, &m, inner_strides, c->inner_ctx);
    }
}
