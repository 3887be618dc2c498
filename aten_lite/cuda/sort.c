/* aten_lite/cuda/sort.c - the CUDA entries of the sort kernel family (kernel_stubs.h): sort (and
 * topk through it) and searchsorted, over the launchers of aten_lite/cuda/sort.cu. */
#include <stdint.h>

#include "aten_lite/cuda/ix_host.h"
#include "aten_lite/cuda/sort.h"
#include "aten_lite/kernel_stubs.h"
#include "aten_lite/ops.h"
#include "c10_lite/cuda_state.h"
#include "c10_lite/error.h"

/* Note [CUDA sort]
 * Every line is sorted by (key, position) pairs, where the key is an unsigned 64-bit integer
 * with the order of the values (floats through double: NaN above +inf, -0.0 made 0.0; signed
 * integers with the sign bit flipped) and complemented for a descending sort.  Pairs are
 * distinct, so sorting them by any method gives exactly the stable sort of the cpu:
 *  1. a kernel writes the pairs of all lines, contiguous, line after line;
 *  2. each block sorts tiles of MT_CUDA_SORT_TILE pairs in shared memory (Note [Tile sort] in
 *     sort.cu): whole lines when they fit, several short lines per block;
 *  3. longer lines are merged in passes of doubling run width, each entry of a pass finding its
 *     place by a binary search in the partner run (one launch per pass, no block waits for
 *     another);
 *  4. the first k entries of each line gather the values from the input and write the
 *     positions (topk is sort's first k, as on the cpu).
 * Line lengths of any size and any dim (the dims are walked with the sorted dim last). */

/* the input's dims with d last, and the outputs' strides in the same order */
static void
mt__lines_geom(const mt_tensor *t, int d, const mt_tensor *v, const mt_tensor *ix,
               mt_cuda_lines *g, int64_t *n)
{
    if (t->ndim == 0) {
        g->ndim = 1;
        g->sizes[0] = 1;
        g->sstr[0] = g->vstr[0] = g->istr[0] = 0;
        *n = 1;
        return;
    }
    int j = 0;
    for (int k = 0; k <= t->ndim; k++) {
        const int s = k == t->ndim ? d : k;
        if (k == d) {
            continue;
        }
        g->sizes[j] = t->sizes[s];
        g->sstr[j] = t->strides[s];
        g->vstr[j] = v->strides[s];
        g->istr[j] = ix->strides[s];
        j++;
    }
    g->ndim = j;
    *n = t->sizes[d];
}

static int
mt__cuda_sort(const mt_tensor *t, int d, bool descending, int64_t k, mt_tensor *v, mt_tensor *ix)
{
    const mt_device dv = mt_tensor_device(t);
    void *stream = mt_cuda_current_stream(dv.index);
    mt_cuda_lines g;
    int64_t n;
    mt__lines_geom(t, d, v, ix, &g, &n);
    const int64_t total = t->numel, lines = total / n;
    int64_t tile = 1;
    while (tile < n && tile < MT_CUDA_SORT_TILE) {
        tile <<= 1;
    }
    mt_tensor *bufs[4] = {NULL};
    const int nbufs = n > tile ? 4 : 2;
    int rc = MT_OK;
    for (int b = 0; b < nbufs && rc == MT_OK; b++) {
        bufs[b] = mt_tensor_empty(b % 2 ? MT_INT64 : MT_UINT64, 1, &total, dv);
        rc = bufs[b] ? MT_OK : mt_error_code();
    }
    uint64_t *keys = rc == MT_OK ? (uint64_t *)mt_tensor_data(bufs[0]) : NULL;
    int64_t *idx = rc == MT_OK ? (int64_t *)mt_tensor_data(bufs[1]) : NULL;
    if (rc == MT_OK) {
        rc = mt_cuda_sort_keys(dv.index, stream, &g, lines, mt_tensor_data(t),
                               mt__ix_dt(t->dtype), descending, keys, idx);
    }
    if (rc == MT_OK) {
        rc = mt_cuda_sort_tiles(dv.index, stream, keys, idx, lines, n, tile);
    }
    int cur = 0;
    for (int64_t width = tile; rc == MT_OK && width < n; width *= 2) {
        const int nxt = 2 - cur;
        rc = mt_cuda_sort_merge(dv.index, stream, (const uint64_t *)mt_tensor_data(bufs[cur]),
                                (const int64_t *)mt_tensor_data(bufs[cur + 1]),
                                (uint64_t *)mt_tensor_data(bufs[nxt]),
                                (int64_t *)mt_tensor_data(bufs[nxt + 1]), lines, n, width);
        cur = nxt;
    }
    if (rc == MT_OK) {
        rc = mt_cuda_sort_write(dv.index, stream, &g, lines, k, mt_tensor_data(t),
                                (const int64_t *)mt_tensor_data(bufs[cur + 1]),
                                mt_tensor_data(v), (int64_t *)mt_tensor_data(ix),
                                (int)mt_tensor_itemsize(t));
    }
    for (int b = 0; b < 4; b++) {
        mt_tensor_decref(bufs[b]);
    }
    return rc;
}

static int
mt__cuda_searchsorted(const mt_tensor *bc, const mt_tensor *vc, const mt_tensor *sc, bool right,
                      mt_tensor *o)
{
    const mt_device dv = mt_tensor_device(vc);
    return mt_cuda_searchsorted(dv.index, mt_cuda_current_stream(dv.index), mt_tensor_data(bc),
                                mt_tensor_data(vc),
                                sc ? (const int64_t *)mt_tensor_data(sc) : NULL,
                                bc->sizes[bc->ndim - 1], vc->ndim ? vc->sizes[vc->ndim - 1] : 1,
                                bc->ndim > 1, vc->numel, mt__ix_dt(vc->dtype), right,
                                (int64_t *)mt_tensor_data(o));
}

static const mt_sort_kernels mt__cuda_sort_kernels = {
    .sort = mt__cuda_sort,
    .searchsorted = mt__cuda_searchsorted,
};

void
mt__cuda_sort_register(void)
{
    MT_REGISTER_STUB(sort, MT_CUDA, &mt__cuda_sort_kernels);
}
