/* c10_lite/tensor_impl.c - tensor impl construction and shape helpers. */
#include "c10_lite/tensor_impl.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "c10_lite/checked.h"
#include "c10_lite/error.h"

int
mt_contiguous_strides(int ndim, const int64_t *sizes, int64_t *strides)
{
    /* The product can overflow only for a shape with no elements (any other
     * shape passed mt_numel's check); as torch, that is an error.  The strides
     * that do not fit saturate at INT64_MAX instead of wrapping. */
    int64_t s = 1;
    bool overflow = false;
    for (int i = ndim - 1; i >= 0; i--) {
        strides[i] = overflow ? INT64_MAX : s;
        if (!overflow && mt_ckd_mul(&s, s, sizes[i] > 1 ? sizes[i] : 1)) {
            overflow = i > 0; /* only a stride that is used overflows */
            s = INT64_MAX;
        }
    }
    return overflow ? mt_error_set(MT_ERUNTIME, "Stride calculation overflowed") : MT_OK;
}

bool
mt_is_contiguous(int ndim, const int64_t *sizes, const int64_t *strides)
{
    for (int i = 0; i < ndim; i++) {
        if (sizes[i] == 0) {
            return true; /* (and the product below cannot overflow) */
        }
    }
    int64_t expected = 1;
    for (int i = ndim - 1; i >= 0; i--) {
        if (sizes[i] != 1) {
            if (strides[i] != expected) {
                return false;
            }
            expected *= sizes[i];
        }
    }
    return true;
}

int64_t
mt_numel(int ndim, const int64_t *sizes)
{
    int64_t n = 1;
    for (int i = 0; i < ndim; i++) {
        if (__builtin_mul_overflow(n, sizes[i], &n)) {
            mt_error_set(MT_EINVAL, "number of elements overflows int64");
            return -1;
        }
    }
    return n;
}

char *
mt_format_sizes(char *buf, size_t cap, int ndim, const int64_t *sizes)
{
    size_t n = 0;
    buf[0] = '\0';
    n += (size_t)snprintf(buf + n, cap - n, "[");
    for (int i = 0; i < ndim && n < cap; i++) {
        n += (size_t)snprintf(buf + n, cap - n, i ? ", %lld" : "%lld", (long long)sizes[i]);
    }
    if (n < cap) {
        snprintf(buf + n, cap - n, "]");
    }
    return buf;
}

int
mt_wrap_dim(int64_t dim, int ndim)
{
    int64_t n = ndim > 0 ? ndim : 1;
    if (dim < -n || dim >= n) {
        return mt_error_set(MT_EINDEX,
                            "Dimension out of range (expected to be in range of [%lld, %lld], "
                            "but got %lld)",
                            (long long)-n, (long long)(n - 1), (long long)dim);
    }
    return (int)(dim < 0 ? dim + n : dim);
}

/* numel of a shape a new tensor may have: at most MT_MAX_DIMS dims, none
 * negative, no overflow.  -1 with the error set otherwise. */
static int64_t
mt__checked_numel(int ndim, const int64_t *sizes)
{
    if (ndim < 0 || ndim > MT_MAX_DIMS) {
        mt_error_set(MT_ERUNTIME, "tensors have at most %d dimensions, got %d", MT_MAX_DIMS, ndim);
        return -1;
    }
    for (int i = 0; i < ndim; i++) {
        if (sizes[i] < 0) {
            char buf[256];
            mt_format_sizes(buf, sizeof(buf), ndim, sizes);
            mt_error_set(MT_ERUNTIME, "Trying to create tensor with negative dimension %lld: %s",
                         (long long)sizes[i], buf);
            return -1;
        }
    }
    return mt_numel(ndim, sizes);
}

int
mt_view_extent(int ndim, const int64_t *sizes, const int64_t *strides, int64_t offset,
               size_t itemsize, int64_t *lo, int64_t *hi)
{
    int64_t l = offset, h = offset, span, b;
    bool empty = false;
    for (int i = 0; i < ndim; i++) {
        empty |= sizes[i] == 0;
    }
    for (int i = 0; i < ndim && !empty; i++) {
        if (mt_ckd_mul(&span, sizes[i] - 1, strides[i]) ||
            (span < 0 ? mt_ckd_add(&l, l, span) : mt_ckd_add(&h, h, span))) {
            goto overflow;
        }
    }
    /* the byte just past the highest element must be addressable too */
    if (mt_ckd_add(&b, h, 1) || mt_ckd_mul(&b, b, (int64_t)itemsize) ||
        mt_ckd_mul(&b, l, (int64_t)itemsize)) {
        goto overflow;
    }
    *lo = l;
    *hi = h;
    return MT_OK;
overflow:;
    char buf[256];
    mt_format_sizes(buf, sizeof(buf), ndim, strides);
    return mt_error_set(MT_ERUNTIME,
                        "the view's extent overflows: storage offset %lld with strides %s "
                        "reaches past any addressable storage",
                        (long long)offset, buf);
}

/* Checks the extent of the view against the storage.  0 or MT_ERUNTIME. */
static int
mt__check_bounds(const mt_storage *storage, mt_dtype dtype, int ndim, const int64_t *sizes,
                 const int64_t *strides, int64_t offset, int64_t numel)
{
    if (offset < 0) {
        return mt_error_set(MT_ERUNTIME, "Tensor: invalid storage offset %lld", (long long)offset);
    }
    int64_t lo, hi, isz = (int64_t)mt_dtype_itemsize(dtype), end;
    if (mt_view_extent(ndim, sizes, strides, offset, (size_t)isz, &lo, &hi) < 0) {
        return MT_ERUNTIME;
    }
    if (numel == 0) {
        return MT_OK;
    }
    end = (hi + 1) * isz; /* cannot overflow: checked by mt_view_extent */
    if (lo < 0 || (uint64_t)end > (uint64_t)storage->nbytes) {
        return mt_error_set(MT_ERUNTIME,
                            "setStorage: sizes and strides need elements [%lld, %lld] of "
                            "%s, but the storage only holds %lld bytes",
                            (long long)lo, (long long)hi, mt_dtype_name(dtype),
                            (long long)storage->nbytes);
    }
    return MT_OK;
}

mt_tensor *
mt_tensor_new(mt_storage *storage, mt_dtype dtype, int ndim, const int64_t *sizes,
              const int64_t *strides, int64_t offset)
{
    if (!mt_dtype_valid(dtype)) {
        mt_error_set(MT_ETYPE, "invalid dtype %d", (int)dtype);
        return NULL;
    }
    int64_t numel = mt__checked_numel(ndim, sizes);
    if (numel < 0) {
        return NULL;
    }
    mt_tensor *t = malloc(sizeof(*t) + 2 * (size_t)ndim * sizeof(int64_t));
    if (t == NULL) {
        mt_error_set(MT_ENOMEM, "out of memory allocating a tensor");
        return NULL;
    }
    t->sizes = t->dims_;
    t->strides = t->dims_ + ndim;
    if (ndim > 0) { /* a 0-d shape may come as NULL, which memcpy may not be given */
        memcpy(t->sizes, sizes, (size_t)ndim * sizeof(int64_t));
    }
    if (strides != NULL && ndim > 0) {
        memcpy(t->strides, strides, (size_t)ndim * sizeof(int64_t));
    }
    else if (mt_contiguous_strides(ndim, sizes, t->strides) < 0) {
        free(t);
        return NULL;
    }
    if (mt__check_bounds(storage, dtype, ndim, t->sizes, t->strides, offset, numel) < 0) {
        free(t);
        return NULL;
    }
    atomic_init(&t->refcount, 1);
    mt_storage_incref(storage);
    t->storage = storage;
    t->offset = offset;
    t->numel = numel;
    t->dtype = dtype;
    t->ndim = ndim;
    t->contiguous = mt_is_contiguous(ndim, t->sizes, t->strides);
    return t;
}

mt_tensor *
mt_tensor_empty(mt_dtype dtype, int ndim, const int64_t *sizes, mt_device device)
{
    int64_t numel = mt__checked_numel(ndim, sizes);
    if (numel < 0) {
        return NULL;
    }
    size_t nbytes;
    if (__builtin_mul_overflow((size_t)numel, mt_dtype_itemsize(dtype), &nbytes)) {
        mt_error_set(MT_ERUNTIME, "tensor is too large to allocate");
        return NULL;
    }
    mt_storage *s = mt_storage_new(nbytes, device);
    if (s == NULL) {
        return NULL;
    }
    mt_tensor *t = mt_tensor_new(s, dtype, ndim, sizes, NULL, 0);
    mt_storage_decref(s);
    return t;
}

mt_tensor *
mt_tensor_view_of(const mt_tensor *t, int ndim, const int64_t *sizes, const int64_t *strides,
                  int64_t offset)
{
    return mt_tensor_new(t->storage, t->dtype, ndim, sizes, strides, offset);
}

void
mt_tensor_decref(mt_tensor *t)
{
    if (t == NULL) {
        return;
    }
    if (atomic_fetch_sub_explicit(&t->refcount, 1, memory_order_acq_rel) == 1) {
        mt_storage_decref(t->storage);
        free(t);
    }
}

mt_tensor *
mt_tensor_resized(const mt_tensor *t, int ndim, const int64_t *sizes)
{
    if (ndim == t->ndim && memcmp(sizes, t->sizes, (size_t)ndim * sizeof(int64_t)) == 0) {
        mt_tensor_incref((mt_tensor *)t);
        return (mt_tensor *)t;
    }
    int64_t numel = 1;
    for (int i = 0; i < ndim && i < MT_MAX_DIMS; i++) {
        if (sizes[i] >= 0 && __builtin_mul_overflow(numel, sizes[i], &numel)) {
            mt_error_set(MT_ERUNTIME, "numel: integer multiplication overflow"); /* torch's words */
            return NULL;
        }
    }
    numel = mt__checked_numel(ndim, sizes);
    if (numel < 0) {
        return NULL;
    }
    size_t isz = mt_dtype_itemsize(t->dtype), need;
    if (__builtin_add_overflow((size_t)t->offset, (size_t)numel, &need) ||
        __builtin_mul_overflow(need, isz, &need) || need > (size_t)INT64_MAX) {
        char buf[256];
        mt_format_sizes(buf, sizeof(buf), ndim, sizes);
        mt_error_set(MT_ERUNTIME, "Storage size calculation overflowed with sizes=%s", buf);
        return NULL;
    }
    mt_storage *st = t->storage;
    if (numel == 0 || need <= st->nbytes) {
        return mt_tensor_new(st, t->dtype, ndim, sizes, NULL, t->offset);
    }
    if (!mt_storage_resizable(st)) {
        mt_error_set(MT_ERUNTIME, "Trying to resize storage that is not resizable");
        return NULL;
    }
    mt_storage *grown = mt_storage_new(need, st->device);
    if (grown == NULL) {
        return NULL;
    }
    if (mt_storage_copy_bytes(grown, 0, st, 0, st->nbytes) < 0) {
        mt_storage_decref(grown);
        return NULL;
    }
    /* the tensor's writes so far still count (autograd's version counter), and it stays an
     * inference tensor or a normal one (Note [Inference storages]) */
    if (st->shared != NULL) {
        if (mt_storage_share_version(grown, st) < 0) {
            mt_storage_decref(grown);
            return NULL;
        }
    }
    else {
        atomic_store_explicit(&grown->version,
                              atomic_load_explicit(&st->version, memory_order_relaxed),
                              memory_order_relaxed);
    }
    if (grown->inference != st->inference) {
        atomic_fetch_add_explicit(&mt_inference_live, st->inference ? 1 : -1,
                                  memory_order_relaxed);
        grown->inference = st->inference;
    }
    mt_tensor *r = mt_tensor_new(grown, t->dtype, ndim, sizes, NULL, t->offset);
    mt_storage_decref(grown);
    return r;
}
