/* aten_lite/copy.c - copy_, fill_, clone, contiguous, dtype conversion. */
#include <string.h>

#include "aten_lite/kernel_stubs.h"
#include "aten_lite/memory_format.h"
#include "aten_lite/ops.h"
#include "c10_lite/error.h"

int
mt_check_no_internal_overlap(const mt_tensor *t)
{
    if (t->numel == 0) {
        return MT_OK; /* nothing is written */
    }
    for (int d = 0; d < t->ndim; d++) {
        if (t->sizes[d] > 1 && t->strides[d] == 0) {
            return mt_error_set(MT_ERUNTIME,
                                "unsupported operation: more than one element of the written-to "
                                "tensor refers to a single memory location. Please clone() the "
                                "tensor before performing the operation.");
        }
    }
    return MT_OK;
}

/* [lo, hi) byte range touched by t. */
static void
mt__byte_range(const mt_tensor *t, uintptr_t *lo, uintptr_t *hi)
{
    int64_t isz = (int64_t)mt_tensor_itemsize(t);
    int64_t a = 0, b = 0;
    for (int d = 0; d < t->ndim; d++) {
        int64_t span = (t->sizes[d] - 1) * t->strides[d];
        if (span < 0) {
            a += span;
        }
        else {
            b += span;
        }
    }
    uintptr_t base = (uintptr_t)mt_tensor_data(t);
    *lo = base + (uintptr_t)(a * isz);
    *hi = base + (uintptr_t)((b + 1) * isz);
}

bool
mt_tensors_overlap(const mt_tensor *a, const mt_tensor *b)
{
    if (a->storage != b->storage || a->numel == 0 || b->numel == 0) {
        return false;
    }
    uintptr_t alo, ahi, blo, bhi;
    mt__byte_range(a, &alo, &ahi);
    mt__byte_range(b, &blo, &bhi);
    return alo < bhi && blo < ahi;
}

int
mt_copy_(mt_tensor *dst, const mt_tensor *src)
{
    return mt_copy_nb_(dst, src, false);
}

int
mt_copy_nb_(mt_tensor *dst, const mt_tensor *src, bool non_blocking)
{
    /* across devices too: the kernel of the (dst, src) pair moves the bytes */
    int (*copy)(const mt_iter *, mt_dtype, mt_dtype, bool) =
        MT_STUB2(copy, copy, mt_tensor_device(dst).type, mt_tensor_device(src).type, "copy_");
    if (copy == NULL) {
        return MT_ENOTIMPL;
    }
    if (dst == src || dst->numel == 0) {
        return MT_OK;
    }
    if (mt_check_no_internal_overlap(dst) < 0) {
        return MT_ERUNTIME;
    }
    mt_tensor *tmp = NULL;
    if (mt_tensors_overlap(dst, src)) {
        bool same_view = dst->offset == src->offset && dst->dtype == src->dtype &&
                         dst->ndim == src->ndim &&
                         memcmp(dst->sizes, src->sizes, sizeof(int64_t) * (size_t)dst->ndim) == 0 &&
                         memcmp(dst->strides, src->strides, sizeof(int64_t) * (size_t)dst->ndim) == 0;
        if (same_view) {
            return MT_OK;
        }
        tmp = mt_clone(src);
        if (tmp == NULL) {
            return mt_error_code();
        }
        src = tmp;
    }
    /* src broadcasts to dst's shape (never the other way) */
    mt_tensor *expanded = mt_expand(src, dst->ndim, dst->sizes);
    if (expanded == NULL) {
        char a[256], b[256];
        mt_format_sizes(a, sizeof(a), src->ndim, src->sizes);
        mt_format_sizes(b, sizeof(b), dst->ndim, dst->sizes);
        mt_tensor_decref(tmp);
        return mt_error_set(MT_ERUNTIME, "copy_: the source of shape %s can't be broadcast to the "
                            "destination of shape %s", a, b);
    }
    mt_iter it;
    mt_tensor *ops[2] = {dst, expanded};
    int rc = mt_iter_build(&it, 1, 1, ops, dst->dtype);
    if (rc < 0) {
        mt_tensor_decref(expanded);
        mt_tensor_decref(tmp);
        return rc;
    }
    rc = copy(&it, dst->dtype, src->dtype, non_blocking);
    mt_iter_release(&it);
    mt_tensor_decref(expanded);
    mt_tensor_decref(tmp);
    return rc;
}

int
mt_fill_(mt_tensor *t, mt_scalar value)
{
    int (*fill)(const mt_iter *, mt_dtype, const void *) =
        MT_STUB(fill, fill, mt_tensor_device(t).type, "fill_");
    if (fill == NULL || mt_check_no_internal_overlap(t) < 0 ||
        mt_scalar_check_range(value, t->dtype) < 0) {
        return mt_error_code();
    }
    uint64_t elem[2] = {0, 0}; /* complex128 is 16 bytes */
    mt_scalar_store(value, t->dtype, elem);
    mt_iter it;
    int rc = mt_iter_build(&it, 1, 0, &t, t->dtype);
    if (rc < 0) {
        return rc;
    }
    rc = fill(&it, t->dtype, elem);
    mt_iter_release(&it);
    return rc;
}

int
mt_item(const mt_tensor *t, mt_scalar *out)
{
    if (t->numel != 1) {
        return mt_error_set(MT_ERUNTIME, "a Tensor with %lld elements cannot be converted to "
                            "Scalar", (long long)t->numel);
    }
    if (mt_tensor_device(t).type == MT_CPU) {
        *out = mt_scalar_load(mt_tensor_data(t), t->dtype);
        return MT_OK;
    }
    /* another device's memory: one element to the host through the copy kernels */
    const int64_t none = 0;
    mt_tensor *v = mt_tensor_view_of(t, 0, &none, &none, t->offset);
    mt_tensor *h = v ? mt_tensor_empty(t->dtype, 0, NULL, MT_DEVICE_CPU) : NULL;
    int rc = h == NULL ? mt_error_code() : mt_copy_(h, v);
    if (rc == MT_OK) {
        *out = mt_scalar_load(mt_tensor_data(h), h->dtype);
    }
    mt_tensor_decref(h);
    mt_tensor_decref(v);
    return rc;
}

mt_tensor *
mt_empty_like(const mt_tensor *t, mt_dtype dt)
{
    if (t->contiguous) {
        return mt_tensor_empty(dt, t->ndim, t->sizes, mt_tensor_device(t));
    }
    if (!mt_is_non_overlapping_and_dense(t)) { /* Note [Memory formats] */
        return mt_empty_format(t, dt, mt_suggest_memory_format(t));
    }
    mt_storage *s = mt_storage_new((size_t)t->numel * mt_dtype_itemsize(dt), mt_tensor_device(t));
    if (s == NULL) {
        return NULL;
    }
    /* same strides, rebased so the smallest address is offset 0 */
    int64_t lo = 0;
    for (int d = 0; d < t->ndim; d++) {
        if (t->strides[d] < 0 && t->sizes[d] > 0) {
            lo += (t->sizes[d] - 1) * t->strides[d];
        }
    }
    mt_tensor *r = mt_tensor_new(s, dt, t->ndim, t->sizes, t->strides, -lo);
    mt_storage_decref(s);
    return r;
}

static mt_tensor *
mt__copy_to_new(const mt_tensor *t, mt_dtype dt, bool keep_layout)
{
    mt_tensor *r = keep_layout ? mt_empty_like(t, dt)
                               : mt_tensor_empty(dt, t->ndim, t->sizes, mt_tensor_device(t));
    if (r != NULL && mt_copy_(r, t) < 0) {
        mt_tensor_decref(r);
        return NULL;
    }
    return r;
}

mt_tensor *
mt_contiguous(mt_tensor *t)
{
    if (t->contiguous) {
        mt_tensor_incref(t);
        return t;
    }
    return mt__copy_to_new(t, t->dtype, false);
}

mt_tensor *
mt_clone(const mt_tensor *t)
{
    return mt__copy_to_new(t, t->dtype, true);
}

mt_tensor *
mt_to_dtype(mt_tensor *t, mt_dtype dt, bool copy)
{
    if (t->dtype == dt && !copy) {
        mt_tensor_incref(t);
        return t;
    }
    return mt__copy_to_new(t, dt, true);
}

mt_tensor *
mt_float_operand(mt_tensor *t)
{
    if (t == NULL) {
        return NULL;
    }
    if (t->dtype == MT_FLOAT16 || t->dtype == MT_BFLOAT16) {
        return mt__copy_to_new(t, MT_FLOAT32, false);
    }
    return mt_contiguous(t);
}

mt_tensor *
mt_float_result(mt_tensor *r, mt_dtype dt)
{
    if (r == NULL || r->dtype == dt) {
        return r;
    }
    mt_tensor *c = mt_to_dtype(r, dt, false);
    mt_tensor_decref(r);
    return c;
}
