/* aten_lite/cuda/index.c - the CUDA entries of the index kernel family (kernel_stubs.h): advanced
 * get/put, index_select, nonzero, gather/scatter, over the launchers of aten_lite/cuda/index.cu. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "aten_lite/cuda/index.h"
#include "aten_lite/cuda/ix_host.h"
#include "aten_lite/kernel_stubs.h"
#include "aten_lite/ops.h"
#include "c10_lite/allocator.h"
#include "c10_lite/cuda_state.h"
#include "c10_lite/error.h"

/* Note [CUDA index kernels]
 * Index values live in device memory, so the host never sees them; each op runs in two steps:
 *  1. a check kernel reads every index value and records the first bad position in a one-element
 *     device slot (atomicMin, starting from INT64_MAX); advanced indexing's check also computes
 *     each position's element offset into a device table, one index tensor per launch;
 *  2. the slot comes back to the host (mt_bytes_copy, which waits for the stream).  If it holds
 *     a position, the index value there is copied back too and reported with torch's message,
 *     before the writing kernel was queued: nothing is written.  Otherwise the gather / put /
 *     scatter kernel runs.
 * Puts with accumulate and reducing scatters combine through atomics (compare-and-swap loops for
 * the dtypes and modes without a native atomic), so repeated indices add up in no fixed order, as
 * torch's CUDA kernels do: float sums may differ from the cpu's in the last bits.  A plain put or
 * scatter with repeated indices stores one of the values.  Index tensors of advanced indexing on
 * the cpu are copied to the device first (torch's rule).  nonzero counts per chunk, brings the
 * counts to the host, and writes each chunk's coordinates from its start in order. */

/* The first bad position of a check, or -1: reads the slot back (waits for the stream). */
static int
mt__first_bad(mt_tensor *slot, int64_t *pos)
{
    int64_t v = INT64_MAX;
    int rc = mt_bytes_copy(&v, MT_DEVICE_CPU, mt_tensor_data(slot), mt_tensor_device(slot),
                           sizeof(v), false);
    *pos = v == INT64_MAX ? -1 : v;
    return rc;
}

/* The integer at row-major position p of w in t (any device), as int64. */
static int
mt__index_value_at(const mt_tensor *t, const mt_cuda_walk *w, int64_t p, int64_t *v)
{
    int64_t off = 0;
    for (int d = w->ndim - 1; d >= 0; d--) {
        off += (p % w->sizes[d]) * w->strides[d];
        p /= w->sizes[d];
    }
    const size_t isz = mt_tensor_itemsize(t);
    unsigned char b[8] = {0};
    int rc = mt_bytes_copy(b, MT_DEVICE_CPU, mt_tensor_data(t) + off * (int64_t)isz,
                           mt_tensor_device(t), isz, false);
    if (rc < 0) {
        return rc;
    }
    mt_scalar s = mt_scalar_load(b, t->dtype);
    *v = mt_scalar_to_int64(s);
    return MT_OK;
}

/* ---- advanced indexing ---- */

/* The element offsets (a device int64 tensor of npos entries, new reference) into v of the
 * positions of the k index tensors broadcast to bshape, every value checked (torch's IndexError
 * for the first bad one). */
static mt_tensor *
mt__cuda_advanced_offsets(const mt_tensor *v, int k, mt_tensor *const *idx, int bnd,
                          const int64_t *bshape, int64_t npos)
{
    const mt_device dv = mt_tensor_device(v);
    mt_tensor *moved[MT_MAX_DIMS] = {NULL};
    mt_cuda_walk w[MT_MAX_DIMS];
    mt_tensor *offs = mt_tensor_empty(MT_INT64, 1, &npos, dv);
    mt_tensor *slot = offs ? mt__ix_bad_slot(dv) : NULL;
    int rc = slot ? MT_OK : mt_error_code();
    if (rc == MT_OK && k == 0) { /* no index tensor: the one position is v's first element */
        const int64_t zero = 0;
        rc = mt_bytes_fill(dv, mt_tensor_data(offs), sizeof(zero), &zero, sizeof(zero));
    }
    for (int q = 0; q < k && rc == MT_OK; q++) {
        moved[q] = mt__ix_on_device(idx[q], dv);
        if (moved[q] == NULL) {
            rc = mt_error_code();
            break;
        }
        const mt_tensor *t = moved[q];
        w[q].ndim = bnd;
        w[q].numel = npos;
        for (int d = 0; d < bnd; d++) {
            const int td = t->ndim - bnd + d;
            w[q].sizes[d] = bshape[d];
            w[q].strides[d] = td >= 0 && t->sizes[td] != 1 ? t->strides[td] : 0;
        }
        rc = mt_cuda_index_offsets(dv.index, mt_cuda_current_stream(dv.index), &w[q],
                                   mt_tensor_data(t), mt__ix_dt(t->dtype), v->sizes[q],
                                   v->strides[q], q == 0, (int64_t *)mt_tensor_data(offs),
                                   (int64_t *)mt_tensor_data(slot));
    }
    int64_t bad = -1;
    if (rc == MT_OK) {
        rc = mt__first_bad(slot, &bad);
    }
    for (int q = 0; rc == MT_OK && bad >= 0 && q < k; q++) {
        int64_t iv;
        rc = mt__index_value_at(moved[q], &w[q], bad, &iv);
        if (rc == MT_OK && (iv < -v->sizes[q] || iv >= v->sizes[q])) {
            rc = mt_error_set(MT_EINDEX, "index %lld is out of bounds for dimension %d with size "
                              "%lld", (long long)iv, q, (long long)v->sizes[q]);
        }
    }
    for (int q = 0; q < k; q++) {
        mt_tensor_decref(moved[q]);
    }
    mt_tensor_decref(slot);
    if (rc < 0) {
        mt_tensor_decref(offs);
        return NULL;
    }
    return offs;
}

/* v's dims from k on, as a walk */
static void
mt__rest_walk(const mt_tensor *v, int k, mt_cuda_walk *w)
{
    w->ndim = v->ndim - k;
    w->numel = 1;
    for (int d = k; d < v->ndim; d++) {
        w->sizes[d - k] = v->sizes[d];
        w->strides[d - k] = v->strides[d];
        w->numel *= v->sizes[d];
    }
}

static int
mt__cuda_index_get(const mt_tensor *v, int k, mt_tensor *const *idx, int bnd,
                   const int64_t *bshape, mt_tensor *out)
{
    const int64_t npos = mt_numel(bnd, bshape);
    if (npos <= 0) {
        return npos < 0 ? mt_error_code() : MT_OK;
    }
    mt_tensor *offs = mt__cuda_advanced_offsets(v, k, idx, bnd, bshape, npos);
    if (offs == NULL) {
        return mt_error_code();
    }
    mt_cuda_walk rest;
    mt__rest_walk(v, k, &rest);
    int rc = MT_OK;
    if (rest.numel > 0) {
        const int dev = mt_tensor_device(v).index;
        rc = mt_cuda_index_gather(dev, mt_cuda_current_stream(dev), npos,
                                  (const int64_t *)mt_tensor_data(offs), &rest, mt_tensor_data(v),
                                  mt_tensor_data(out), (int)mt_tensor_itemsize(v));
    }
    mt_tensor_decref(offs);
    return rc;
}

static int
mt__cuda_index_put(mt_tensor *v, int k, mt_tensor *const *idx, int bnd, const int64_t *bshape,
                   const mt_tensor *values, bool accumulate)
{
    const int64_t npos = mt_numel(bnd, bshape);
    if (npos <= 0) {
        return npos < 0 ? mt_error_code() : MT_OK;
    }
    mt_tensor *offs = mt__cuda_advanced_offsets(v, k, idx, bnd, bshape, npos);
    if (offs == NULL) {
        return mt_error_code();
    }
    mt_cuda_walk rest;
    mt__rest_walk(v, k, &rest);
    int rc = MT_OK;
    if (rest.numel > 0) {
        const int dev = mt_tensor_device(v).index;
        rc = mt_cuda_index_put(dev, mt_cuda_current_stream(dev), npos,
                               (const int64_t *)mt_tensor_data(offs), &rest, mt_tensor_data(v),
                               mt_tensor_data(values), mt__ix_dt(v->dtype),
                               (int)mt_tensor_itemsize(v), accumulate);
    }
    mt_tensor_decref(offs);
    return rc;
}

/* ---- index_select ---- */

static int
mt__cuda_index_select(const mt_tensor *self, int d, const mt_tensor *index, bool wrap,
                      mt_tensor *out)
{
    const int64_t n = index->numel, size = self->sizes[d];
    if (n == 0) {
        return MT_OK;
    }
    const mt_device dv = mt_tensor_device(self);
    void *stream = mt_cuda_current_stream(dv.index);
    mt_cuda_walk iw = {.ndim = 1, .numel = n, .sizes = {n},
                       .strides = {index->ndim ? index->strides[0] : 0}};
    mt_tensor *slot = mt__ix_bad_slot(dv);
    int rc = slot ? MT_OK : mt_error_code();
    if (rc == MT_OK) {
        rc = mt_cuda_index_check(dv.index, stream, &iw, mt_tensor_data(index),
                                 mt__ix_dt(index->dtype), wrap ? -size : 0, size,
                                 (int64_t *)mt_tensor_data(slot));
    }
    int64_t bad = -1, iv = 0;
    if (rc == MT_OK) {
        rc = mt__first_bad(slot, &bad);
    }
    mt_tensor_decref(slot);
    if (rc == MT_OK && bad >= 0) {
        rc = mt__index_value_at(index, &iw, bad, &iv);
        if (rc == MT_OK) {
            return wrap ? mt_error_set(MT_EINDEX, "index %lld is out of bounds for dimension 0 "
                                       "with size %lld", (long long)iv, (long long)size)
                        : mt_error_set(MT_EINDEX, "index out of range in self");
        }
    }
    if (rc < 0 || out->numel == 0) {
        return rc;
    }
    mt_cuda_walk w;
    w.ndim = self->ndim;
    w.numel = self->numel;
    for (int k = 0; k < self->ndim; k++) {
        w.sizes[k] = self->sizes[k];
        w.strides[k] = self->strides[k];
    }
    return mt_cuda_index_select(dv.index, stream, &w, d, mt_tensor_data(index),
                                index->dtype == MT_INT64, iw.strides[0], n, mt_tensor_data(self),
                                mt_tensor_data(out), (int)mt_tensor_itemsize(self));
}

/* ---- nonzero ---- */

static mt_tensor *
mt__cuda_nonzero(const mt_tensor *b, int ndim, const int64_t *sizes)
{
    const mt_device dv = mt_tensor_device(b);
    void *stream = mt_cuda_current_stream(dv.index);
    const int64_t numel = b->numel;
    if (numel == 0) {
        int64_t osz[2] = {0, ndim};
        return mt_tensor_empty(MT_INT64, 2, osz, dv);
    }
    /* chunks of a multiple of the block size, at most 4096 of them */
    int64_t chunk = 4096;
    if (numel > chunk * 4096) {
        chunk = ((numel + 4095) / 4096 + 255) / 256 * 256;
    }
    int64_t nchunks = (numel + chunk - 1) / chunk;
    mt_tensor *counts = mt_tensor_empty(MT_INT64, 1, &nchunks, dv);
    int64_t *host = counts ? mt_malloc_array(nchunks, sizeof(int64_t)) : NULL;
    int rc = host ? MT_OK : mt_error_code();
    if (rc == MT_OK) {
        rc = mt_cuda_nonzero_count(dv.index, stream, (const unsigned char *)mt_tensor_data(b),
                                   numel, chunk, nchunks, (int64_t *)mt_tensor_data(counts));
    }
    if (rc == MT_OK) {
        rc = mt_bytes_copy(host, MT_DEVICE_CPU, mt_tensor_data(counts), dv,
                           sizeof(int64_t) * (size_t)nchunks, false);
    }
    int64_t total = 0;
    for (int64_t c = 0; rc == MT_OK && c < nchunks; c++) {
        const int64_t n = host[c];
        host[c] = total; /* each chunk's first row */
        total += n;
    }
    if (rc == MT_OK) {
        rc = mt_bytes_copy(mt_tensor_data(counts), dv, host, MT_DEVICE_CPU,
                           sizeof(int64_t) * (size_t)nchunks, false);
    }
    free(host);
    mt_tensor *out = NULL;
    if (rc == MT_OK) {
        int64_t osz[2] = {total, ndim};
        out = mt_tensor_empty(MT_INT64, 2, osz, dv);
        rc = out ? MT_OK : mt_error_code();
    }
    if (rc == MT_OK && total > 0 && ndim > 0) {
        mt_cuda_walk shape = {.ndim = ndim, .numel = numel};
        for (int d = 0; d < ndim; d++) {
            shape.sizes[d] = sizes[d];
        }
        rc = mt_cuda_nonzero_write(dv.index, stream, (const unsigned char *)mt_tensor_data(b),
                                   numel, chunk, nchunks, (const int64_t *)mt_tensor_data(counts),
                                   &shape, (int64_t *)mt_tensor_data(out));
    }
    mt_tensor_decref(counts);
    if (rc < 0) {
        mt_tensor_decref(out);
        return NULL;
    }
    return out;
}

/* ---- gather / scatter ---- */

static void
mt__nonempty_dims(const mt_tensor *t, int64_t *sizes, int64_t *strides)
{
    if (t->ndim == 0) {
        sizes[0] = 1;
        strides[0] = 0;
        return;
    }
    for (int d = 0; d < t->ndim; d++) {
        sizes[d] = t->sizes[d];
        strides[d] = t->strides[d];
    }
}

static int
mt__cuda_gather_scatter(mt_tensor *self, int dim, const mt_tensor *index, mt_tensor *other,
                        int mode)
{
    const mt_device dv = mt_tensor_device(self);
    void *stream = mt_cuda_current_stream(dv.index);
    mt_cuda_gs_geom g = {.nd = index->ndim ? index->ndim : 1, .dim = dim, .numel = index->numel};
    int64_t ssz[MT_MAX_DIMS], osz[MT_MAX_DIMS];
    mt__nonempty_dims(index, g.sizes, g.istr);
    mt__nonempty_dims(self, ssz, g.sstr);
    mt__nonempty_dims(other, osz, g.ostr);
    const int64_t dimsize = ssz[dim];
    mt_cuda_walk iw = {.ndim = g.nd, .numel = g.numel};
    memcpy(iw.sizes, g.sizes, sizeof(int64_t) * (size_t)g.nd);
    memcpy(iw.strides, g.istr, sizeof(int64_t) * (size_t)g.nd);
    mt_tensor *slot = mt__ix_bad_slot(dv);
    int rc = slot ? MT_OK : mt_error_code();
    if (rc == MT_OK) {
        rc = mt_cuda_index_check(dv.index, stream, &iw, mt_tensor_data(index), MT_CUDA_DT_I64, 0,
                                 dimsize, (int64_t *)mt_tensor_data(slot));
    }
    int64_t bad = -1, iv = 0;
    if (rc == MT_OK) {
        rc = mt__first_bad(slot, &bad);
    }
    mt_tensor_decref(slot);
    if (rc == MT_OK && bad >= 0) {
        rc = mt__index_value_at(index, &iw, bad, &iv);
        if (rc == MT_OK) {
            return mt_error_set(MT_ERUNTIME, "index %lld is out of bounds for dimension %d with "
                                "size %lld", (long long)iv, dim, (long long)dimsize);
        }
    }
    if (rc < 0) {
        return rc;
    }
    return mt_cuda_gather_scatter(dv.index, stream, &g, mt_tensor_data(self),
                                  (const int64_t *)mt_tensor_data(index), mt_tensor_data(other),
                                  mt__ix_dt(self->dtype), (int)mt_tensor_itemsize(self), mode);
}

static const mt_index_kernels mt__cuda_index_kernels = {
    .index_get = mt__cuda_index_get,
    .index_select = mt__cuda_index_select,
    .index_put = mt__cuda_index_put,
    .nonzero = mt__cuda_nonzero,
    .gather_scatter = mt__cuda_gather_scatter,
};

void
mt__cuda_index_register(void)
{
    MT_REGISTER_STUB(index, MT_CUDA, &mt__cuda_index_kernels);
}
