/* aten_lite/memory_format.c - memory formats: channels-last strides, torch's suggest_memory_format, tensors laid out in a format. */
#include "aten_lite/memory_format.h"

#include <string.h>

#include "aten_lite/ops.h"
#include "c10_lite/error.h"

/* Note [Memory formats]
 * A tensor's layout is its strides; a memory format names a family of them.
 * channels_last lays out an (N, C, H, W) tensor as N, H, W, C in memory (C
 * the fastest), channels_last_3d an (N, C, D, H, W) one as N, D, H, W, C.
 * Kernels that prefer a layout (convolution, pooling) compute through
 * contiguous buffers and give their results the layout torch gives them;
 * elementwise ops follow their inputs' strides (Note [TensorIterator]).
 * preserve_format keeps a dense non-overlapping tensor's strides as they
 * are and otherwise falls back to the format the strides resemble
 * (suggest_memory_format), as torch does, so that a slice of a
 * channels-last tensor clones to channels-last. */

/* The channels-last dim order from the fastest: C, the spatial dims from
 * the last, N. */
static const int mt__cl_order4[4] = {1, 3, 2, 0};
static const int mt__cl_order5[5] = {1, 4, 3, 2, 0};

int
mt_memory_format_check(mt_memory_format f, int ndim)
{
    if (f == MT_MF_CHANNELS_LAST && ndim != 4) {
        return mt_error_set(MT_ERUNTIME, "required rank 4 tensor to use channels_last format");
    }
    if (f == MT_MF_CHANNELS_LAST_3D && ndim != 5) {
        return mt_error_set(MT_ERUNTIME, "required rank 5 tensor to use channels_last_3d format");
    }
    return 0;
}

void
mt_memory_format_strides(mt_memory_format f, int ndim, const int64_t *sizes, int64_t *strides)
{
    int64_t s = 1;
    if (f == MT_MF_CHANNELS_LAST || f == MT_MF_CHANNELS_LAST_3D) {
        const int *order = ndim == 4 ? mt__cl_order4 : mt__cl_order5;
        for (int i = 0; i < ndim; i++) {
            strides[order[i]] = s;
            s *= sizes[order[i]] > 1 ? sizes[order[i]] : 1;
        }
        return;
    }
    for (int d = ndim - 1; d >= 0; d--) {
        strides[d] = s;
        s *= sizes[d] > 1 ? sizes[d] : 1;
    }
}

bool
mt_is_contiguous_format(const mt_tensor *t, mt_memory_format f)
{
    if (f != MT_MF_CHANNELS_LAST && f != MT_MF_CHANNELS_LAST_3D) {
        return t->contiguous;
    }
    int nd = f == MT_MF_CHANNELS_LAST ? 4 : 5;
    if (t->ndim != nd) {
        return false;
    }
    const int *order = nd == 4 ? mt__cl_order4 : mt__cl_order5;
    int64_t expect = 1;
    for (int i = 0; i < nd; i++) {
        int d = order[i];
        if (t->sizes[d] != 1) {
            if (t->strides[d] != expect || mt_ckd_mul(&expect, expect, t->sizes[d])) {
                return false;
            }
        }
    }
    return true;
}

bool
mt_is_non_overlapping_and_dense(const mt_tensor *t)
{
    if (t->contiguous) {
        return true;
    }
    int perm[MT_MAX_DIMS];
    for (int i = 0; i < t->ndim; i++) {
        perm[i] = i;
    }
    /* insertion sort dims by stride, size-1 dims last-ish */
    for (int i = 1; i < t->ndim; i++) {
        for (int j = i; j > 0; j--) {
            int a = perm[j - 1], b = perm[j];
            bool swap = t->sizes[a] < 2 ? t->sizes[b] >= 2
                                        : (t->sizes[b] >= 2 && t->strides[a] > t->strides[b]);
            if (!swap) {
                break;
            }
            perm[j - 1] = b;
            perm[j] = a;
        }
    }
    int64_t expected = 1;
    for (int i = 0; i < t->ndim; i++) {
        int d = perm[i];
        if (t->sizes[d] == 1) {
            continue;
        }
        if (t->strides[d] != expected) {
            return false;
        }
        expected *= t->sizes[d];
    }
    return true;
}

/* torch's is_channels_last_strides_2d/3d: the strides grow in channels-last
 * order (ties of size-1 dims broken towards contiguous). */
static bool
mt__strides_like_channels_last(const mt_tensor *t, const int *order)
{
    int64_t min = 0;
    if (t->strides[1] == 0) {
        return false;
    }
    for (int i = 0; i < t->ndim; i++) {
        int d = order[i];
        if (t->sizes[d] == 0 || t->strides[d] < min) {
            return false;
        }
        if (d == 0 && min == t->strides[1]) {
            return false;
        }
        min = t->strides[d];
        if (t->sizes[d] > 1) {
            min *= t->sizes[d];
        }
    }
    return true;
}

mt_memory_format
mt_suggest_memory_format(const mt_tensor *t)
{
    if (t->ndim == 4 && mt__strides_like_channels_last(t, mt__cl_order4)) {
        return MT_MF_CHANNELS_LAST;
    }
    if (t->ndim == 5 && mt__strides_like_channels_last(t, mt__cl_order5)) {
        return MT_MF_CHANNELS_LAST_3D;
    }
    return MT_MF_CONTIGUOUS;
}

mt_tensor *
mt_empty_in_format(mt_dtype dt, int ndim, const int64_t *sizes, mt_device dev,
                   mt_memory_format f)
{
    int64_t strides[MT_MAX_DIMS], numel = 1;
    if (mt_memory_format_check(f, ndim) < 0) {
        return NULL;
    }
    if (f != MT_MF_CHANNELS_LAST && f != MT_MF_CHANNELS_LAST_3D) {
        return mt_tensor_empty(dt, ndim, sizes, dev);
    }
    for (int i = 0; i < ndim; i++) {
        if (sizes[i] < 0 || mt_ckd_mul(&numel, numel, sizes[i])) {
            return mt_tensor_empty(dt, ndim, sizes, dev); /* its error */
        }
    }
    size_t nbytes;
    if (mt_ckd_nbytes(numel, mt_dtype_itemsize(dt), &nbytes) < 0) {
        return NULL;
    }
    mt_memory_format_strides(f, ndim, sizes, strides);
    mt_storage *s = mt_storage_new(nbytes, dev);
    if (s == NULL) {
        return NULL;
    }
    mt_tensor *r = mt_tensor_new(s, dt, ndim, sizes, strides, 0);
    mt_storage_decref(s);
    return r;
}

mt_tensor *
mt_empty_format(const mt_tensor *t, mt_dtype dt, mt_memory_format f)
{
    if (f == MT_MF_PRESERVE) {
        if (mt_is_non_overlapping_and_dense(t) && !t->contiguous) {
            return mt_empty_like(t, dt);
        }
        f = mt_suggest_memory_format(t);
    }
    return mt_empty_in_format(dt, t->ndim, t->sizes, mt_tensor_device(t), f);
}

mt_tensor *
mt_to_format(mt_tensor *t, mt_dtype dt, mt_memory_format f, bool copy)
{
    if (mt_memory_format_check(f, t->ndim) < 0) {
        return NULL;
    }
    if (!copy && t->dtype == dt && (f == MT_MF_PRESERVE || mt_is_contiguous_format(t, f))) {
        mt_tensor_incref(t);
        return t;
    }
    mt_tensor *r = mt_empty_format(t, dt, f);
    if (r != NULL && mt_copy_(r, t) < 0) {
        mt_tensor_decref(r);
        return NULL;
    }
    return r;
}
