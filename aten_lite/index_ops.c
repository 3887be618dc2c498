/* aten_lite/index_ops.c - tensor-indexed get/put, index_select, gather/scatter, nonzero, cat. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aten_lite/cpu/loops.h"
#include "aten_lite/indexing.h"
#include "aten_lite/kernel_stubs.h"
#include "aten_lite/ops.h"
#include "aten_lite/parallel.h"
#include "c10_lite/error.h"

/* Note [Index kernels]
 * Advanced indexing is split into positions (the broadcast shape of the index
 * tensors) and the non-indexed trailing "rest" dims.  The byte offset of every
 * position is computed first, in parallel, range-checking each index (a failed
 * check rescans serially to report the first bad index, so nothing has been
 * written on error).  A gather then copies each position's rest block -- one
 * memcpy when the rest is contiguous, else through a table of its offsets --
 * in parallel; a put writes serially, in index order (with accumulate,
 * repeated indices add up deterministically).  index_select is the same gather
 * with offsets made on the fly from (outer offset, selected index). */

static void
mt__copy_elem(char *dst, const char *src, size_t isz)
{
    switch (isz) {
    case 1:
        *(uint8_t *)dst = *(const uint8_t *)src;
        break;
    case 2:
        memcpy(dst, src, 2);
        break;
    case 4:
        memcpy(dst, src, 4);
        break;
    case 8:
        memcpy(dst, src, 8);
        break;
    default:
        memcpy(dst, src, isz);
        break;
    }
}

/* mt__add_elem / mt__mul_elem: *dst = *dst op *src for one element of dtype
 * dt (bool: || and &&; complex dtypes too), computed in the dtype's
 * accumulation type. */
#define MT__ACC_ELEM_CASE(E, tn, ct, acc, op)                                      \
    case E: {                                                                      \
        acc v = (acc)MT_LOAD_##tn(*(ct *)dst) op (acc)MT_LOAD_##tn(*(const ct *)src); \
        *(ct *)dst = MT_STORE_##tn(v);                                             \
        break;                                                                     \
    }
#define MT__DEFINE_ACC_ELEM(name, op, boolop)                                      \
    static void name(char *dst, const char *src, mt_dtype dt)                      \
    {                                                                              \
        switch (dt) {                                                              \
            MT_L_NUMERIC(MT__ACC_ELEM_CASE, op)                                    \
            MT_L_COMPLEX(MT__ACC_ELEM_CASE, op)                                    \
        case MT_BOOL:                                                              \
            *(bool *)dst = *(bool *)dst boolop *(const bool *)src;                 \
            break;                                                                 \
        default:                                                                   \
            break;                                                                 \
        }                                                                          \
    }
MT__DEFINE_ACC_ELEM(mt__add_elem, +, ||)
MT__DEFINE_ACC_ELEM(mt__mul_elem, *, &&)
#undef MT__DEFINE_ACC_ELEM
#undef MT__ACC_ELEM_CASE

static int
mt__check_index_dtype(const mt_tensor *idx, const char *what)
{
    if (!mt_dtype_is_integral(idx->dtype, false)) {
        return mt_error_set(MT_EINDEX, "%s: tensors used as indices must be long, int, byte or bool "
                                       "tensors, got %s", what, mt_dtype_name(idx->dtype));
    }
    return MT_OK;
}

/* Byte offsets of every element of the sub-shape (n dims) in row-major order. */
static int64_t *
mt__offset_table(int n, const int64_t *sizes, const int64_t *strides, int64_t isz, int64_t *count)
{
    int64_t total = mt_numel(n, sizes);
    int64_t *tab = total < 0 ? NULL : mt_malloc_array(total, sizeof(int64_t));
    if (tab == NULL) {
        return NULL;
    }
    int64_t idx[MT_MAX_DIMS] = {0};
    for (int64_t k = 0; k < total; k++) {
        int64_t off = 0;
        for (int i = 0; i < n; i++) {
            off += idx[i] * strides[i] * isz;
        }
        tab[k] = off;
        for (int i = n - 1; i >= 0; i--) {
            if (++idx[i] < sizes[i]) {
                break;
            }
            idx[i] = 0;
        }
    }
    *count = total;
    return tab;
}

/* Whether n dims of (sizes, strides) are row-major contiguous (size-1 dims
 * ignored); *count gets their element count either way. */
static bool
mt__rest_contiguous(int n, const int64_t *sizes, const int64_t *strides, int64_t *count)
{
    int64_t expect = 1;
    bool ok = true;
    for (int i = n - 1; i >= 0; i--) {
        if (sizes[i] != 1 && strides[i] != expect) {
            ok = false;
        }
        expect *= sizes[i];
    }
    *count = expect;
    return ok;
}

/* Shared setup of get/put: v's first k dims are indexed by idx[0..k) (all of
 * shape bshape), the other dims form "rest".  Computes per-position source
 * offsets (bytes, relative to v's data) in parallel; any out-of-range index
 * makes a serial rescan report the first one.  See Note [Index kernels]. */
typedef struct {
    int k, bnd;
    const int64_t *bshape;
    const char *idata[MT_MAX_DIMS];
    mt_dtype idt[MT_MAX_DIMS];
    int64_t istr[MT_MAX_DIMS][MT_MAX_DIMS]; /* bytes, 0 where broadcast */
    int64_t vsize[MT_MAX_DIMS], vstr[MT_MAX_DIMS]; /* vstr in bytes */
    int64_t *offs;
    int bad; /* set when an index is out of range */
} mt__offs_job;

static inline int64_t
mt__read_index(const char *p, mt_dtype dt)
{
    switch (dt) {
    case MT_INT64:
        return *(const int64_t *)p;
    case MT_INT32:
        return *(const int32_t *)p;
    case MT_INT16:
        return *(const int16_t *)p;
    case MT_INT8:
        return *(const int8_t *)p;
    default:
        return *(const uint8_t *)p;
    }
}

/* Offsets of positions [b, e); returns the first bad position or -1. */
static int64_t
mt__offs_range_impl(mt__offs_job *j, int64_t b, int64_t e)
{
    int64_t pos[MT_MAX_DIMS], rem = b;
    for (int d = j->bnd - 1; d >= 0; d--) {
        pos[d] = j->bshape[d] ? rem % j->bshape[d] : 0;
        rem = j->bshape[d] ? rem / j->bshape[d] : 0;
    }
    for (int64_t p = b; p < e; p++) {
        int64_t off = 0;
        for (int q = 0; q < j->k; q++) {
            int64_t ioff = 0;
            for (int d = 0; d < j->bnd; d++) {
                ioff += pos[d] * j->istr[q][d];
            }
            int64_t iv = mt__read_index(j->idata[q] + ioff, j->idt[q]);
            int64_t size = j->vsize[q];
            if (iv < -size || iv >= size) {
                return p;
            }
            off += (iv < 0 ? iv + size : iv) * j->vstr[q];
        }
        j->offs[p] = off;
        for (int d = j->bnd - 1; d >= 0; d--) {
            if (++pos[d] < j->bshape[d]) {
                break;
            }
            pos[d] = 0;
        }
    }
    return -1;
}

static void
mt__offs_range(void *ctx, int64_t b, int64_t e)
{
    mt__offs_job *j = ctx;
    if (!__atomic_load_n(&j->bad, __ATOMIC_RELAXED) && mt__offs_range_impl(j, b, e) >= 0) {
        __atomic_store_n(&j->bad, 1, __ATOMIC_RELAXED);
    }
}

static int64_t *
mt__advanced_offsets(const mt_tensor *v, int k, mt_tensor *const *idx, int bnd,
                     const int64_t *bshape, int64_t *npos)
{
    int64_t n = mt_numel(bnd, bshape);
    if (n < 0) {
        return NULL;
    }
    mt__offs_job j = {.k = k, .bnd = bnd, .bshape = bshape};
    int64_t isz = (int64_t)mt_tensor_itemsize(v);
    for (int q = 0; q < k; q++) {
        const mt_tensor *t = idx[q];
        j.idata[q] = mt_tensor_data(t);
        j.idt[q] = t->dtype;
        for (int d = 0; d < bnd; d++) {
            int td = t->ndim - bnd + d;
            j.istr[q][d] = td >= 0 && t->sizes[td] != 1
                               ? t->strides[td] * (int64_t)mt_tensor_itemsize(t) : 0;
        }
        j.vsize[q] = v->sizes[q];
        j.vstr[q] = v->strides[q] * isz;
    }
    j.offs = mt_malloc_array(n, sizeof(int64_t));
    if (j.offs == NULL) {
        return NULL;
    }
    mt_parallel_for(0, n, MT_GRAIN_SIZE / 4, mt__offs_range, &j);
    if (j.bad) {
        int64_t p = mt__offs_range_impl(&j, 0, n); /* the first bad position, serially */
        int64_t rem = p, pos[MT_MAX_DIMS];
        for (int d = bnd - 1; d >= 0; d--) {
            pos[d] = rem % bshape[d];
            rem /= bshape[d];
        }
        for (int q = 0; q < k; q++) {
            int64_t ioff = 0;
            for (int d = 0; d < bnd; d++) {
                ioff += pos[d] * j.istr[q][d];
            }
            int64_t iv = mt__read_index(j.idata[q] + ioff, j.idt[q]);
            if (iv < -j.vsize[q] || iv >= j.vsize[q]) {
                mt_error_set(MT_EINDEX, "index %lld is out of bounds for dimension %d with size %lld",
                             (long long)iv, q, (long long)j.vsize[q]);
                break;
            }
        }
        free(j.offs);
        return NULL;
    }
    *npos = n;
    return j.offs;
}

/* Gathers positions [b, e): each copies its "rest" block (see Note [Index kernels]). */
typedef struct {
    const int64_t *offs, *rtab;
    int64_t nrest, isz;
    bool rest_contig;
    const char *src;
    char *out;
    /* offs == NULL: position p = o * nsel + s reads otab[o] + sel[s] * selstride */
    const int64_t *otab, *sel;
    int64_t nsel, selstride;
} mt__get_job;

static void mt__get_range(void *ctx, int64_t b, int64_t e);

/* index_select positions [b, e): offsets computed on the fly, one run of the
 * same outer index at a time, into a small buffer for mt__get_range. */
static void
mt__select_range(void *ctx, int64_t b, int64_t e)
{
    const mt__get_job *j = ctx;
    int64_t buf[512];
    while (b < e) {
        int64_t o = b / j->nsel, s0 = b % j->nsel;
        int64_t stop = b + 512 < e ? b + 512 : e;
        if (stop > (o + 1) * j->nsel) {
            stop = (o + 1) * j->nsel;
        }
        for (int64_t p = b; p < stop; p++) {
            buf[p - b] = j->otab[o] + j->sel[s0 + p - b] * j->selstride;
        }
        mt__get_job sub = *j;
        sub.offs = buf;
        sub.out = j->out + b * j->nrest * j->isz;
        mt__get_range(&sub, 0, stop - b);
        b = stop;
    }
}

static void
mt__get_range(void *ctx, int64_t b, int64_t e)
{
    const mt__get_job *j = ctx;
    const char *src = j->src;
    if (j->nrest == 1) {
        switch (j->isz) {
        case 1:
            for (int64_t p = b; p < e; p++) {
                ((uint8_t *)j->out)[p] = *(const uint8_t *)(src + j->offs[p]);
            }
            return;
        case 2:
            for (int64_t p = b; p < e; p++) {
                memcpy(j->out + p * 2, src + j->offs[p], 2);
            }
            return;
        case 4:
            for (int64_t p = b; p < e; p++) {
                memcpy(j->out + p * 4, src + j->offs[p], 4);
            }
            return;
        case 8:
            for (int64_t p = b; p < e; p++) {
                memcpy(j->out + p * 8, src + j->offs[p], 8);
            }
            return;
        default:
            for (int64_t p = b; p < e; p++) {
                memcpy(j->out + p * j->isz, src + j->offs[p], (size_t)j->isz);
            }
            return;
        }
    }
    int64_t block = j->nrest * j->isz;
    for (int64_t p = b; p < e; p++) {
        char *o = j->out + p * block;
        if (j->rest_contig) {
            memcpy(o, src + j->offs[p], (size_t)block);
            continue;
        }
        for (int64_t r = 0; r < j->nrest; r++) {
            mt__copy_elem(o + r * j->isz, src + j->offs[p] + j->rtab[r], (size_t)j->isz);
        }
    }
}

static int
mt__broadcast_indices(int k, mt_tensor *const *idx, int *bnd, int64_t *bshape, const char *what)
{
    *bnd = 0;
    for (int j = 0; j < k; j++) {
        if (mt__check_index_dtype(idx[j], what) < 0) {
            return MT_EINDEX;
        }
    }
    for (int j = 0; j < k; j++) {
        if (mt_broadcast_shapes(*bnd, bshape, idx[j]->ndim, idx[j]->sizes, bnd, bshape) < 0) {
            char msg[512] = "";
            size_t len = 0;
            for (int i = 0; i < k && len + 2 < sizeof(msg); i++) {
                if (i > 0) {
                    msg[len++] = ',';
                    msg[len++] = ' ';
                }
                mt_format_sizes(msg + len, sizeof(msg) - len, idx[i]->ndim, idx[i]->sizes);
                len += strlen(msg + len);
            }
            return mt_error_set(MT_EINDEX, "shape mismatch: indexing tensors could not be "
                                           "broadcast together with shapes %s", msg);
        }
    }
    return MT_OK;
}

/* The device rule of advanced indexing (as torch): index tensors on the cpu or on v's device. */
static int
mt__check_indices(const mt_tensor *v, int k, mt_tensor *const *idx)
{
    mt_device dv = mt_tensor_device(v);
    for (int q = 0; q < k; q++) {
        mt_device d = mt_tensor_device(idx[q]);
        if (d.type != MT_CPU && !mt_device_eq(d, dv)) {
            char s[32];
            return mt_error_set(MT_ERUNTIME, "indices should be either on cpu or on the same device "
                                "as the indexed tensor (%s)", mt_device_str(dv, s, sizeof(s)));
        }
    }
    return MT_OK;
}

int
mt_index_broadcast_shape(int k, mt_tensor *const *idx, int *nb, int64_t *bshape)
{
    return mt__broadcast_indices(k, idx, nb, bshape, "index");
}

mt_tensor *
mt_index_get(const mt_tensor *v, int k, mt_tensor *const *idx)
{
    int bnd;
    int64_t bshape[MT_MAX_DIMS];
    if (k > v->ndim) {
        mt_error_set(MT_EINDEX, "too many indices for tensor of dimension %d", v->ndim);
        return NULL;
    }
    if (mt__broadcast_indices(k, idx, &bnd, bshape, "index") < 0) {
        return NULL;
    }
    int rest = v->ndim - k;
    if (bnd + rest > MT_MAX_DIMS) {
        mt_error_set(MT_EINDEX, "too many dimensions in the indexing result");
        return NULL;
    }
    int (*kernel)(const mt_tensor *, int, mt_tensor *const *, int, const int64_t *, mt_tensor *) =
        mt__check_indices(v, k, idx) == MT_OK
            ? MT_STUB(index, index_get, mt_tensor_device(v).type, "index")
            : NULL;
    if (kernel == NULL) {
        return NULL;
    }
    int64_t osz[MT_MAX_DIMS];
    memcpy(osz, bshape, sizeof(int64_t) * (size_t)bnd);
    memcpy(osz + bnd, v->sizes + k, sizeof(int64_t) * (size_t)rest);
    mt_tensor *out = mt_tensor_empty(v->dtype, bnd + rest, osz, mt_tensor_device(v));
    if (out != NULL && kernel(v, k, idx, bnd, bshape, out) < 0) {
        mt_tensor_decref(out);
        return NULL;
    }
    return out;
}

static int
mt__cpu_index_get(const mt_tensor *v, int k, mt_tensor *const *idx, int bnd,
                  const int64_t *bshape, mt_tensor *out)
{
    int rest = v->ndim - k;
    int64_t npos, nrest;
    int64_t *offs = mt__advanced_offsets(v, k, idx, bnd, bshape, &npos);
    if (offs == NULL) {
        return mt_error_code();
    }
    int64_t isz = (int64_t)mt_tensor_itemsize(v);
    bool contig = mt__rest_contiguous(rest, v->sizes + k, v->strides + k, &nrest);
    int64_t *rtab = contig ? NULL : mt__offset_table(rest, v->sizes + k, v->strides + k, isz, &nrest);
    if (!contig && rtab == NULL) {
        free(offs);
        return mt_error_code();
    }
    if (nrest > 0) {
        mt__get_job job = {.offs = offs, .rtab = rtab, .nrest = nrest, .isz = isz,
                           .rest_contig = contig, .src = mt_tensor_data(v),
                           .out = mt_tensor_data(out)};
        int64_t grain = MT_GRAIN_SIZE / nrest + 1;
        mt_parallel_for(0, npos, grain, mt__get_range, &job);
    }
    free(offs);
    free(rtab);
    return MT_OK;
}

/* Reads (and range-checks) index_select's indices as int64, wrapped. */
typedef struct {
    const char *ip;
    int64_t istep, size;
    bool i64, wrap;
    int64_t *iv;
    int bad;
} mt__sel_job;

static void
mt__sel_read(void *ctx, int64_t b, int64_t e)
{
    mt__sel_job *j = ctx;
    int64_t lo = j->wrap ? -j->size : 0;
    for (int64_t i = b; i < e; i++) {
        const char *p = j->ip + i * j->istep;
        int64_t v = j->i64 ? *(const int64_t *)p : *(const int32_t *)p;
        if (v < lo || v >= j->size) {
            __atomic_store_n(&j->bad, 1, __ATOMIC_RELAXED);
            return;
        }
        j->iv[i] = v < 0 ? v + j->size : v;
    }
}

mt_tensor *
mt_index_select(const mt_tensor *self, int64_t dim, const mt_tensor *index, bool wrap)
{
    int d = mt_wrap_dim(dim, self->ndim);
    if (d < 0) {
        return NULL;
    }
    if (index->ndim > 1 || (index->dtype != MT_INT64 && index->dtype != MT_INT32)) {
        mt_error_set(MT_EINDEX, "index_select(): Index is supposed to be a vector of int32/int64");
        return NULL;
    }
    if (self->ndim == 0) {
        mt_error_set(MT_EINVAL, "index_select: a 0-d input is handled by the caller");
        return NULL;
    }
    mt_device_type dev;
    int (*kernel)(const mt_tensor *, int, const mt_tensor *, bool, mt_tensor *) =
        mt_check_same_device2(self, index, &dev) == MT_OK
            ? MT_STUB(index, index_select, dev, "index_select")
            : NULL;
    if (kernel == NULL) {
        return NULL;
    }
    int64_t osz[MT_MAX_DIMS];
    memcpy(osz, self->sizes, sizeof(int64_t) * (size_t)self->ndim);
    osz[d] = index->numel;
    mt_tensor *out = mt_tensor_empty(self->dtype, self->ndim, osz, mt_tensor_device(self));
    if (out != NULL && kernel(self, d, index, wrap, out) < 0) {
        mt_tensor_decref(out);
        return NULL;
    }
    return out;
}

static int
mt__cpu_index_select(const mt_tensor *self, int d, const mt_tensor *index, bool wrap,
                     mt_tensor *out)
{
    int64_t n = index->numel, size = self->sizes[d];
    int64_t isz = (int64_t)mt_tensor_itemsize(self);
    mt__sel_job sj = {.ip = mt_tensor_data(index),
                      .istep = (index->ndim ? index->strides[0] : 0) *
                               (int64_t)mt_tensor_itemsize(index),
                      .i64 = index->dtype == MT_INT64, .size = size, .wrap = wrap};
    sj.iv = mt_malloc_array(n, sizeof(int64_t));
    if (sj.iv == NULL) {
        return mt_error_code();
    }
    mt_parallel_for(0, n, MT_GRAIN_SIZE, mt__sel_read, &sj);
    if (sj.bad) {
        for (int64_t j = 0; j < n; j++) { /* the first bad one, serially */
            const char *e = sj.ip + j * sj.istep;
            int64_t v = sj.i64 ? *(const int64_t *)e : *(const int32_t *)e;
            if (v < (wrap ? -size : 0) || v >= size) {
                if (wrap) {
                    mt_error_set(MT_EINDEX, "index %lld is out of bounds for dimension 0 with "
                                 "size %lld", (long long)v, (long long)size);
                }
                else {
                    mt_error_set(MT_EINDEX, "index out of range in self");
                }
                break;
            }
        }
        free(sj.iv);
        return MT_EINDEX;
    }
    int64_t *iv = sj.iv;
    int64_t nouter, ninner;
    int64_t *otab = mt__offset_table(d, self->sizes, self->strides, isz, &nouter);
    bool contig = mt__rest_contiguous(self->ndim - d - 1, self->sizes + d + 1,
                                      self->strides + d + 1, &ninner);
    int64_t *rtab = otab && !contig ? mt__offset_table(self->ndim - d - 1, self->sizes + d + 1,
                                                       self->strides + d + 1, isz, &ninner)
                                    : NULL;
    if (otab == NULL || (!contig && rtab == NULL)) {
        free(iv);
        free(otab);
        free(rtab);
        return mt_error_code();
    }
    if (ninner > 0) {
        mt__get_job job = {.rtab = rtab, .nrest = ninner, .isz = isz, .rest_contig = contig,
                           .src = mt_tensor_data(self), .out = mt_tensor_data(out),
                           .otab = otab, .sel = iv, .nsel = n,
                           .selstride = self->strides[d] * isz};
        mt_parallel_for(0, nouter * n, MT_GRAIN_SIZE / ninner + 1, mt__select_range, &job);
    }
    free(iv);
    free(otab);
    free(rtab);
    return MT_OK;
}

static int mt__index_put_checked(mt_tensor *v, int k, mt_tensor *const *idx, int bnd,
                                 const int64_t *bshape, const mt_tensor *values, bool accumulate);

int
mt_index_put_(mt_tensor *v, int k, mt_tensor *const *idx, const mt_tensor *values, bool accumulate)
{
    int bnd;
    int64_t bshape[MT_MAX_DIMS];
    if (k > v->ndim) {
        return mt_error_set(MT_EINDEX, "too many indices for tensor of dimension %d", v->ndim);
    }
    if (accumulate && mt_reject_barebones(v->dtype, "index_put_with_sort_kernel") < 0) {
        return MT_ENOTIMPL;
    }
    if (mt__broadcast_indices(k, idx, &bnd, bshape, "index_put_") < 0) {
        return MT_EINDEX;
    }
    if (mt_tensor_device(v).type == MT_CPU) {
        return mt__index_put_checked(v, k, idx, bnd, bshape, values, accumulate);
    }
    mt_tensor *vals = mt_index_put_values_on(values, mt_tensor_device(v));
    if (vals == NULL) {
        return mt_error_code();
    }
    int rc = mt__index_put_checked(v, k, idx, bnd, bshape, vals, accumulate);
    mt_tensor_decref(vals);
    return rc;
}

mt_tensor *
mt_index_put_values_on(const mt_tensor *values, mt_device d)
{
    if (values->ndim != 0 || mt_tensor_device(values).type != MT_CPU || d.type == MT_CPU) {
        mt_tensor_incref((mt_tensor *)values);
        return (mt_tensor *)values;
    }
    mt_tensor *moved = mt_tensor_empty(values->dtype, 0, NULL, d);
    if (moved != NULL && mt_copy_(moved, values) < 0) {
        mt_tensor_decref(moved);
        return NULL;
    }
    return moved;
}

/* mt_index_put_ once the index tensors' dtypes and shapes are checked */
static int
mt__index_put_checked(mt_tensor *v, int k, mt_tensor *const *idx, int bnd, const int64_t *bshape,
                      const mt_tensor *values, bool accumulate)
{
    int (*kernel)(mt_tensor *, int, mt_tensor *const *, int, const int64_t *, const mt_tensor *,
                  bool) = NULL;
    if (mt__check_indices(v, k, idx) < 0 || mt_check_same_device2(v, values, NULL) < 0 ||
        (kernel = MT_STUB(index, index_put, mt_tensor_device(v).type, "index_put_")) == NULL) {
        return mt_error_code();
    }
    int rest = v->ndim - k;
    int64_t tshape[MT_MAX_DIMS];
    memcpy(tshape, bshape, sizeof(int64_t) * (size_t)bnd);
    memcpy(tshape + bnd, v->sizes + k, sizeof(int64_t) * (size_t)rest);
    /* values: converted to v's dtype, broadcast to the indexed shape, contiguous */
    mt_tensor *vv = mt_to_dtype((mt_tensor *)values, v->dtype, false);
    mt_tensor *ve = vv ? mt_expand(vv, bnd + rest, tshape) : NULL;
    mt_tensor_decref(vv);
    if (ve == NULL) {
        char a[256], b[256];
        mt_format_sizes(a, sizeof(a), values->ndim, values->sizes);
        mt_format_sizes(b, sizeof(b), bnd + rest, tshape);
        return mt_error_set(MT_ERUNTIME, "shape mismatch: value tensor of shape %s cannot be "
                                         "broadcast to indexing result of shape %s", a, b);
    }
    /* a private contiguous copy when the values live in v's own storage */
    mt_tensor *vc = ve->storage == v->storage ? mt_clone(ve) : mt_contiguous(ve);
    if (vc != NULL && vc->storage == v->storage) {
        mt_tensor_decref(vc);
        vc = mt_clone(ve);
    }
    mt_tensor_decref(ve);
    if (vc == NULL) {
        return mt_error_code();
    }
    int rc = kernel(v, k, idx, bnd, bshape, vc, accumulate);
    mt_tensor_decref(vc);
    return rc;
}

MT_SIMD_CLONES static void
mt__add_row_f32(float *restrict d, const float *restrict s, int64_t n)
{
    for (int64_t i = 0; i < n; i++) {
        d[i] += s[i];
    }
}

MT_SIMD_CLONES static void
mt__add_row_f64(double *restrict d, const double *restrict s, int64_t n)
{
    for (int64_t i = 0; i < n; i++) {
        d[i] += s[i];
    }
}

/* values vc: contiguous, v's dtype, of the indexed shape (bshape + v's rest dims) */
static int
mt__cpu_index_put(mt_tensor *v, int k, mt_tensor *const *idx, int bnd, const int64_t *bshape,
                  const mt_tensor *vc, bool accumulate)
{
    int rest = v->ndim - k;
    int64_t npos, nrest;
    int64_t *offs = mt__advanced_offsets(v, k, idx, bnd, bshape, &npos);
    int64_t isz = (int64_t)mt_tensor_itemsize(v);
    int64_t *rtab = offs ? mt__offset_table(rest, v->sizes + k, v->strides + k, isz, &nrest) : NULL;
    if (rtab == NULL) {
        free(offs);
        return mt_error_code();
    }
    const char *s = mt_tensor_data(vc);
    char *dst = mt_tensor_data(v);
    /* Note [Row-wise index_put]: when the dims after the indexed ones are contiguous in v
     * (embedding gradients, index_add along dim 0), each position's values are one block:
     * copied with memcpy, or added by a loop the compiler vectorises for float32/float64,
     * instead of one dtype dispatch per element.  The order of the additions is the same. */
    bool rows = nrest > 1 && (!accumulate || v->dtype == MT_FLOAT32 || v->dtype == MT_FLOAT64);
    for (int64_t r = 0; rows && r < nrest; r++) {
        rows = rtab[r] == r * isz;
    }
    if (rows) {
        for (int64_t p = 0; p < npos; p++, s += nrest * isz) {
            char *d = dst + offs[p];
            if (!accumulate) {
                memcpy(d, s, (size_t)(nrest * isz));
            }
            else if (v->dtype == MT_FLOAT32) {
                mt__add_row_f32((float *)d, (const float *)s, nrest);
            }
            else {
                mt__add_row_f64((double *)d, (const double *)s, nrest);
            }
        }
        free(offs);
        free(rtab);
        return MT_OK;
    }
    for (int64_t p = 0; p < npos; p++) {
        for (int64_t r = 0; r < nrest; r++) {
            if (accumulate) {
                mt__add_elem(dst + offs[p] + rtab[r], s, v->dtype);
            }
            else {
                mt__copy_elem(dst + offs[p] + rtab[r], s, (size_t)isz);
            }
            s += isz;
        }
    }
    free(offs);
    free(rtab);
    return MT_OK;
}

/* nonzero in fixed chunks (the same for any thread count): count, prefix sums,
 * then each chunk writes its coordinates from its own start. */
typedef struct {
    const bool *m;
    int64_t numel, nchunks;
    int ndim;
    const int64_t *sizes;
    int64_t *counts; /* per chunk; then the chunk's first output row */
    int64_t *out;
} mt__nz_job;

static void
mt__nz_count(void *ctx, int64_t c, int64_t c_end)
{
    (void)c_end;
    mt__nz_job *j = ctx;
    int64_t b = j->numel * c / j->nchunks, e = j->numel * (c + 1) / j->nchunks, n = 0;
    const uint8_t *m = (const uint8_t *)j->m;
    for (int64_t i = b; i < e; i++) {
        n += m[i] != 0;
    }
    j->counts[c] = n;
}

static void
mt__nz_write(void *ctx, int64_t c, int64_t c_end)
{
    (void)c_end;
    mt__nz_job *j = ctx;
    int64_t b = j->numel * c / j->nchunks, e = j->numel * (c + 1) / j->nchunks;
    const int nd = j->ndim;
    const uint8_t *m = (const uint8_t *)j->m;
    int64_t *o = j->out + j->counts[c] * nd;
    if (nd == 1) {
        int64_t buf[1025], nb = 0; /* branch-free: always store, advance on a hit */
        for (int64_t i = b; i < e; i++) {
            buf[nb] = i;
            nb += m[i] != 0;
            if (nb == 1024) {
                memcpy(o, buf, sizeof(buf[0]) * 1024);
                o += 1024;
                nb = 0;
            }
        }
        memcpy(o, buf, sizeof(buf[0]) * (size_t)nb);
        return;
    }
    int64_t pos[MT_MAX_DIMS], sizes[MT_MAX_DIMS], rem = b;
    for (int d = nd - 1; d >= 0; d--) {
        sizes[d] = j->sizes[d];
        pos[d] = rem % sizes[d];
        rem /= sizes[d];
    }
    /* walk the last dim in runs, the odometer only between runs */
    int64_t i = b;
    while (i < e) {
        int64_t run = sizes[nd - 1] - pos[nd - 1];
        if (run > e - i) {
            run = e - i;
        }
        for (int64_t r = 0; r < run; r++) {
            if (m[i + r]) {
                for (int d = 0; d < nd - 1; d++) {
                    o[d] = pos[d];
                }
                o[nd - 1] = pos[nd - 1] + r;
                o += nd;
            }
        }
        i += run;
        pos[nd - 1] += run;
        for (int d = nd - 1; d > 0 && pos[d] == sizes[d]; d--) {
            pos[d] = 0;
            pos[d - 1]++;
        }
    }
}

mt_tensor *
mt_nonzero(const mt_tensor *t)
{
    mt_tensor *(*kernel)(const mt_tensor *, int, const int64_t *) =
        MT_STUB(index, nonzero, mt_tensor_device(t).type, "nonzero");
    if (kernel == NULL) {
        return NULL;
    }
    mt_tensor *c = mt_contiguous((mt_tensor *)t);
    mt_tensor *b = c ? mt_to_dtype(c, MT_BOOL, false) : NULL;
    mt_tensor_decref(c);
    if (b == NULL) {
        return NULL;
    }
    mt_tensor *out = kernel(b, t->ndim, t->sizes);
    mt_tensor_decref(b);
    return out;
}

static mt_tensor *
mt__cpu_nonzero(const mt_tensor *b, int ndim, const int64_t *sizes)
{
    int64_t nchunks = b->numel / 65536 + 1;
    nchunks = nchunks > 256 ? 256 : nchunks;
    mt__nz_job j = {.m = (const bool *)mt_tensor_data(b), .numel = b->numel, .nchunks = nchunks,
                    .ndim = ndim, .sizes = sizes};
    j.counts = malloc(sizeof(int64_t) * (size_t)nchunks);
    if (j.counts == NULL) {
        mt_error_set(MT_ENOMEM, "out of memory in nonzero");
        return NULL;
    }
    mt_parallel_chunks(nchunks, mt__nz_count, &j);
    int64_t total = 0;
    for (int64_t k = 0; k < nchunks; k++) {
        int64_t n = j.counts[k];
        j.counts[k] = total;
        total += n;
    }
    int64_t osz[2] = {total, ndim};
    mt_tensor *out = mt_tensor_empty(MT_INT64, 2, osz, MT_DEVICE_CPU);
    if (out != NULL && total > 0 && ndim > 0) {
        j.out = (int64_t *)mt_tensor_data(out);
        mt_parallel_chunks(nchunks, mt__nz_write, &j);
    }
    free(j.counts);
    return out;
}

#define MT__MAX_ELEM(E, tn, ct, acc, ...)                                         \
    case E: {                                                                     \
        acc a = (acc)MT_LOAD_##tn(*(ct *)dst), b = (acc)MT_LOAD_##tn(*(const ct *)src); \
        if (a == a && (b != b || (amax ? b > a : b < a))) {                       \
            *(ct *)dst = *(const ct *)src;                                        \
        }                                                                         \
        break;                                                                    \
    }

/* dst = max(dst, src) (amax) or min; a NaN on either side wins. */
static void
mt__minmax_elem(char *dst, const char *src, mt_dtype dt, bool amax)
{
    switch (dt) {
        MT_L_NUMERIC(MT__MAX_ELEM, 0)
    case MT_BOOL:
        *(bool *)dst = amax ? (*(bool *)dst || *(const bool *)src)
                            : (*(bool *)dst && *(const bool *)src);
        break;
    default:
        break;
    }
}

/* Note [Gather and scatter]
 * One walk over index's shape (0-d tensors count as 1-d of size 1, as torch's
 * ensure_nonempty).  At position pos, gather reads self[pos with pos[dim] =
 * index[pos]] into out[pos]; scatter writes src[pos] (or combines it, for a
 * reduce) into self[pos with pos[dim] = index[pos]].  Index values must lie in
 * [0, size) -- unlike indexing, negative values are errors, as in torch -- and
 * all are checked before anything is written.  Gather and plain scatter run in
 * parallel chunks; reducing scatters run serially so repeated indices combine
 * in index order (deterministic float sums). */

typedef struct {
    int nd, dim;
    int64_t sizes[MT_MAX_DIMS];                                   /* index's sizes */
    int64_t istr[MT_MAX_DIMS], sstr[MT_MAX_DIMS], ostr[MT_MAX_DIMS]; /* elements */
    const char *idata;
    char *sdata, *odata;
    size_t isz;
    mt_dtype dt;
    int mode; /* -1: gather; else an mt_scatter_reduce */
} mt__gs_job;

static void
mt__gs_range(void *ctx, int64_t b, int64_t e)
{
    const mt__gs_job *j = ctx;
    const int nd = j->nd, last = nd - 1;
    const int64_t isz = (int64_t)j->isz;
    const int64_t *idata = (const int64_t *)j->idata;
    int64_t pos[MT_MAX_DIMS], rem = b;
    for (int d = last; d >= 0; d--) {
        pos[d] = rem % j->sizes[d];
        rem /= j->sizes[d];
    }
    /* runs along the last dim: offsets computed once per run, then stepped */
    const int64_t is = j->istr[last], os = j->ostr[last] * isz;
    const int64_t ss = last == j->dim ? 0 : j->sstr[last] * isz, sdim = j->sstr[j->dim] * isz;
    int64_t p = b;
    while (p < e) {
        int64_t run = j->sizes[last] - pos[last];
        if (run > e - p) {
            run = e - p;
        }
        int64_t ioff = 0, soff = 0, ooff = 0;
        for (int d = 0; d < nd; d++) {
            ioff += pos[d] * j->istr[d];
            soff += d == j->dim ? 0 : pos[d] * j->sstr[d];
            ooff += pos[d] * j->ostr[d];
        }
        const int64_t *ip = idata + ioff;
        char *sb = j->sdata + soff * isz, *op = j->odata + ooff * isz;
        if (j->mode == -1 && isz == 4) {
            for (int64_t r = 0; r < run; r++) {
                memcpy(op + r * os, sb + r * ss + ip[r * is] * sdim, 4);
            }
        }
        else if (j->mode == -1 && isz == 8) {
            for (int64_t r = 0; r < run; r++) {
                memcpy(op + r * os, sb + r * ss + ip[r * is] * sdim, 8);
            }
        }
        else {
            for (int64_t r = 0; r < run; r++) {
                char *sp = sb + r * ss + ip[r * is] * sdim, *o = op + r * os;
                switch (j->mode) {
                case -1:
                    mt__copy_elem(o, sp, j->isz);
                    break;
                case MT_SCATTER_ADD:
                    mt__add_elem(sp, o, j->dt);
                    break;
                case MT_SCATTER_MULTIPLY:
                    mt__mul_elem(sp, o, j->dt);
                    break;
                case MT_SCATTER_AMAX:
                case MT_SCATTER_AMIN:
                    mt__minmax_elem(sp, o, j->dt, j->mode == MT_SCATTER_AMAX);
                    break;
                default:
                    mt__copy_elem(sp, o, j->isz);
                    break;
                }
            }
        }
        p += run;
        pos[last] += run;
        for (int d = last; d > 0 && pos[d] == j->sizes[d]; d--) {
            pos[d] = 0;
            pos[d - 1]++;
        }
    }
}

static void
mt__nonempty(const mt_tensor *t, int64_t *sizes, int64_t *strides)
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

/* "Expected index [..] to be smaller than self [..] apart from dimension d" and the like. */
static int
mt__gs_shape_error(const char *lead, const mt_tensor *index, const mt_tensor *self, int dim,
                   const mt_tensor *src)
{
    char a[256], b[256], c[256];
    mt_format_sizes(a, sizeof(a), index->ndim, index->sizes);
    mt_format_sizes(b, sizeof(b), self->ndim, self->sizes);
    if (src == NULL) {
        return mt_error_set(MT_ERUNTIME, "%s index %s to be smaller than self %s apart from "
                            "dimension %d", lead, a, b, dim);
    }
    mt_format_sizes(c, sizeof(c), src->ndim, src->sizes);
    return mt_error_set(MT_ERUNTIME, "Expected index %s to be smaller than self %s apart from "
                        "dimension %d and to be smaller size than src %s", a, b, dim, c);
}

/* Checks shapes and index values, then runs the walk.  other: gather's out, or
 * scatter's src (NULL-free; a 0-stride tensor for scatter's value form). */
static int
mt__gather_scatter(mt_tensor *self, int dim, const mt_tensor *index, mt_tensor *other, int mode,
                   bool src_is_tensor)
{
    const char *what = mode < 0 ? "gather" : mode == MT_SCATTER_ADD && src_is_tensor ? "scatter_add"
                                                                                  : "scatter";
    if (mode > 0 && mt_reject_barebones(self->dtype, what) < 0) {
        return MT_ENOTIMPL;
    }
    if (index->numel == 0) {
        return MT_OK;
    }
    if (index->dtype != MT_INT64) {
        return mt_error_set(MT_ERUNTIME, "%s(): Expected dtype int64 for index", what);
    }
    int nd = index->ndim ? index->ndim : 1;
    if ((self->ndim ? self->ndim : 1) != nd) {
        return mt_error_set(MT_ERUNTIME, "Index tensor must have the same number of dimensions as "
                                         "%s tensor", mode < 0 ? "input" : "self");
    }
    if (mode >= 0 && src_is_tensor && (other->ndim ? other->ndim : 1) != nd) {
        return mt_error_set(MT_ERUNTIME, "Index tensor must have the same number of dimensions as "
                                         "src tensor");
    }
    const mt_tensor *ts[3] = {self, index, src_is_tensor || mode < 0 ? other : NULL};
    mt_device_type dev;
    int (*kernel)(mt_tensor *, int, const mt_tensor *, mt_tensor *, int) =
        mt_check_same_device(3, ts, &dev) == MT_OK ? MT_STUB(index, gather_scatter, dev, what)
                                                    : NULL;
    if (kernel == NULL) {
        return mt_error_code();
    }
    mt__gs_job j;
    int64_t ssz[MT_MAX_DIMS], osz[MT_MAX_DIMS];
    mt__nonempty(index, j.sizes, j.istr);
    mt__nonempty(self, ssz, j.sstr);
    mt__nonempty(other, osz, j.ostr);
    for (int d = 0; d < nd; d++) {
        if (mode < 0 && d != dim && j.sizes[d] > ssz[d]) {
            char lead[64];
            snprintf(lead, sizeof(lead), "Size does not match at dimension %d expected", d);
            return mt__gs_shape_error(lead, index, self, dim, NULL);
        }
        if (mode >= 0 && ((d != dim && j.sizes[d] > ssz[d]) ||
                          (src_is_tensor && j.sizes[d] > osz[d]))) {
            if (!src_is_tensor) {
                return mt__gs_shape_error("Expected", index, self, dim, NULL);
            }
            return mt__gs_shape_error("Expected", index, self, dim, other);
        }
    }
    return kernel(self, dim, index, other, mode);
}

/* The cpu gather / scatter (shapes checked): every index value first, then the walk. */
static int
mt__cpu_gather_scatter(mt_tensor *self, int dim, const mt_tensor *index, mt_tensor *other, int mode)
{
    int nd = index->ndim ? index->ndim : 1;
    mt__gs_job j = {.nd = nd, .dim = dim, .mode = mode, .dt = self->dtype,
                    .isz = mt_tensor_itemsize(self)};
    int64_t ssz[MT_MAX_DIMS], osz[MT_MAX_DIMS];
    mt__nonempty(index, j.sizes, j.istr);
    mt__nonempty(self, ssz, j.sstr);
    mt__nonempty(other, osz, j.ostr);
    int64_t dimsize = ssz[dim];
    const char *idata = mt_tensor_data(index);
    /* every index value first: nothing is written on error */
    int64_t pos[MT_MAX_DIMS] = {0};
    for (int64_t e = 0; e < index->numel; e++) {
        int64_t ioff = 0;
        for (int d = 0; d < nd; d++) {
            ioff += pos[d] * j.istr[d];
        }
        int64_t iv = ((const int64_t *)idata)[ioff];
        if (iv < 0 || iv >= dimsize) {
            return mt_error_set(MT_ERUNTIME, "index %lld is out of bounds for dimension %d with "
                                "size %lld", (long long)iv, dim, (long long)dimsize);
        }
        for (int d = nd - 1; d >= 0; d--) {
            if (++pos[d] < j.sizes[d]) {
                break;
            }
            pos[d] = 0;
        }
    }
    j.idata = idata;
    j.sdata = mt_tensor_data(self);
    j.odata = mt_tensor_data(other);
    if (mode == -1 || mode == MT_SCATTER_NONE) {
        mt_parallel_for(0, index->numel, MT_GRAIN_SIZE / 4, mt__gs_range, &j);
    }
    else {
        mt__gs_range(&j, 0, index->numel);
    }
    return MT_OK;
}

mt_tensor *
mt_gather(mt_tensor *self, int64_t dim, const mt_tensor *index)
{
    int d = mt_wrap_dim(dim, self->ndim);
    if (d < 0) {
        return NULL;
    }
    if (MT_STUB(index, gather_scatter, mt_tensor_device(self).type, "gather") == NULL) {
        return NULL; /* before allocating on a device without the kernel */
    }
    mt_tensor *out = mt_tensor_empty(self->dtype, index->ndim, index->sizes, mt_tensor_device(self));
    if (out != NULL && mt__gather_scatter(self, d, index, out, -1, false) < 0) {
        mt_tensor_decref(out);
        return NULL;
    }
    return out;
}

int
mt_scatter_(mt_tensor *self, int64_t dim, const mt_tensor *index, const mt_tensor *src,
            mt_scatter_reduce reduce)
{
    int d = mt_wrap_dim(dim, self->ndim);
    if (d < 0) {
        return d;
    }
    if (self->numel > 0 && mt_check_no_internal_overlap(self) < 0) {
        return MT_ERUNTIME;
    }
    if (index->numel != 0 && src->dtype != self->dtype) {
        return mt_error_set(MT_ERUNTIME, "%s(): Expected self.dtype to be equal to src.dtype",
                            reduce == MT_SCATTER_ADD ? "scatter_add" : "scatter");
    }
    if (src->storage != self->storage) {
        return mt__gather_scatter(self, d, index, (mt_tensor *)src, (int)reduce, true);
    }
    mt_tensor *copy = mt_clone(src); /* src overlaps self: read a private copy */
    if (copy == NULL) {
        return mt_error_code();
    }
    int rc = mt__gather_scatter(self, d, index, copy, (int)reduce, true);
    mt_tensor_decref(copy);
    return rc;
}

int
mt_scatter_value_(mt_tensor *self, int64_t dim, const mt_tensor *index, mt_scalar value,
                  mt_scatter_reduce reduce)
{
    int d = mt_wrap_dim(dim, self->ndim);
    if (d < 0) {
        return d;
    }
    if (self->numel > 0 && mt_check_no_internal_overlap(self) < 0) {
        return MT_ERUNTIME;
    }
    mt_tensor *one = mt_tensor_empty(self->dtype, 0, NULL, mt_tensor_device(self));
    if (one == NULL || mt_fill_(one, value) < 0) {
        mt_tensor_decref(one);
        return mt_error_code();
    }
    /* value broadcast over index's shape: every stride 0 */
    mt_tensor *src = mt_expand(one, index->ndim, index->sizes);
    mt_tensor_decref(one);
    if (src == NULL) {
        return mt_error_code();
    }
    int rc = mt__gather_scatter(self, d, index, src, (int)reduce, false);
    mt_tensor_decref(src);
    return rc;
}

mt_tensor *
mt_cat(mt_tensor *const *ts, int n, int64_t dim)
{
    if (n == 0) {
        mt_error_set(MT_ERUNTIME, "torch.cat(): expected a non-empty list of Tensors");
        return NULL;
    }
    if (mt_check_same_device(n, (const mt_tensor *const *)ts, NULL) < 0) {
        return NULL;
    }
    /* legacy rule: 1-d empty tensors are skipped */
    const mt_tensor *ref = NULL;
    mt_dtype dt = ts[0]->dtype;
    for (int i = 0; i < n; i++) {
        dt = i ? mt_promote_types(dt, ts[i]->dtype) : ts[i]->dtype;
        if (dt == MT_DTYPE_UNDEFINED) {
            return NULL;
        }
        if (!(ts[i]->ndim == 1 && ts[i]->sizes[0] == 0) && ref == NULL) {
            ref = ts[i];
        }
    }
    if (ref == NULL) {
        int64_t zero = 0;
        return mt_tensor_empty(dt, 1, &zero, mt_tensor_device(ts[0]));
    }
    for (int i = 0; i < n; i++) {
        if (ts[i]->ndim == 0) {
            mt_error_set(MT_ERUNTIME, "zero-dimensional tensor (at position %d) cannot be "
                         "concatenated", i);
            return NULL;
        }
    }
    int d = mt_wrap_dim(dim, ref->ndim);
    if (d < 0) {
        return NULL;
    }
    int64_t osz[MT_MAX_DIMS];
    memcpy(osz, ref->sizes, sizeof(int64_t) * (size_t)ref->ndim);
    osz[d] = 0;
    for (int i = 0; i < n; i++) {
        const mt_tensor *t = ts[i];
        if (t->ndim == 1 && t->sizes[0] == 0) {
            continue;
        }
        if (t->ndim != ref->ndim) {
            mt_error_set(MT_ERUNTIME, "Tensors must have same number of dimensions: got %d and %d",
                         ref->ndim, t->ndim);
            return NULL;
        }
        for (int j = 0; j < t->ndim; j++) {
            if (j != d && t->sizes[j] != ref->sizes[j]) {
                mt_error_set(MT_ERUNTIME, "Sizes of tensors must match except in dimension %d. "
                             "Expected size %lld but got size %lld for tensor number %d in the list.",
                             d, (long long)ref->sizes[j], (long long)t->sizes[j], i);
                return NULL;
            }
        }
        osz[d] += t->sizes[d];
    }
    mt_tensor *out = mt_tensor_empty(dt, ref->ndim, osz, mt_tensor_device(ref));
    int64_t at = 0;
    for (int i = 0; out != NULL && i < n; i++) {
        const mt_tensor *t = ts[i];
        if (t->ndim == 1 && t->sizes[0] == 0) {
            continue;
        }
        mt_tensor *part = mt_narrow(out, d, at, t->sizes[d]);
        if (part == NULL || mt_copy_(part, t) < 0) {
            mt_tensor_decref(part);
            mt_tensor_decref(out);
            return NULL;
        }
        mt_tensor_decref(part);
        at += t->sizes[d];
    }
    return out;
}

/* Note [Flip]
 * flip is a copy of the view that walks the flipped dims backwards: negated
 * strides from the offset of each dim's last entry.  The copy kernel takes
 * any strides, so no index tensor is built. */
mt_tensor *
mt_flip(const mt_tensor *t, int n, const int64_t *dims)
{
    int64_t strides[MT_MAX_DIMS];
    memcpy(strides, t->strides, sizeof(int64_t) * (size_t)t->ndim);
    int64_t offset = t->offset;
    for (int i = 0; i < n; i++) {
        int64_t d = dims[i];
        if (t->sizes[d] > 1) {
            offset += (t->sizes[d] - 1) * strides[d];
            strides[d] = -strides[d];
        }
    }
    mt_tensor *v = t->numel > 0 ? mt_tensor_view_of(t, t->ndim, t->sizes, strides, offset)
                                : mt_alias(t);
    if (v == NULL) {
        return NULL;
    }
    mt_tensor *r = mt_tensor_empty(t->dtype, t->ndim, t->sizes, mt_tensor_device(t));
    if (r != NULL && mt_copy_(r, v) < 0) {
        mt_tensor_decref(r);
        r = NULL;
    }
    mt_tensor_decref(v);
    return r;
}

/* ---- the cpu index kernels (see Note [Kernel stubs]) ---- */

static const mt_index_kernels mt__cpu_index_kernels = {
    .index_get = mt__cpu_index_get,
    .index_select = mt__cpu_index_select,
    .index_put = mt__cpu_index_put,
    .nonzero = mt__cpu_nonzero,
    .gather_scatter = mt__cpu_gather_scatter,
};

void
mt__cpu_index_register(void)
{
    MT_REGISTER_STUB(index, MT_CPU, &mt__cpu_index_kernels);
}
