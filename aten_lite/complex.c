/* aten_lite/complex.c - views between complex tensors and their real parts. */
#include "aten_lite/ops.h"
#include "c10_lite/error.h"

/* Note [Complex views]
 * A complex element is two reals (see Note [Complex dtypes]), so a complex
 * view with strides s and offset o is also a real view with strides 2s and
 * offset 2o, plus a last dimension of size 2 and stride 1 (view_as_real).
 * real and imag are that view without the last dimension, at offset 2o and
 * 2o + 1.  view_as_complex is the inverse and needs the real view to have
 * exactly that shape: even strides and offset, a last dimension of size 2
 * with stride 1. */

mt_tensor *
mt_view_as_real(const mt_tensor *t)
{
    if (!mt_dtype_is_complex(t->dtype)) {
        mt_error_set(MT_ERUNTIME, "view_as_real is only supported for complex tensors");
        return NULL;
    }
    if (t->ndim >= MT_MAX_DIMS) {
        mt_error_set(MT_ERUNTIME, "view_as_real: at most %d dimensions are supported", MT_MAX_DIMS);
        return NULL;
    }
    int64_t sz[MT_MAX_DIMS], st[MT_MAX_DIMS];
    for (int d = 0; d < t->ndim; d++) {
        sz[d] = t->sizes[d];
        st[d] = t->strides[d] * 2;
    }
    sz[t->ndim] = 2;
    st[t->ndim] = 1;
    return mt_tensor_new(t->storage, mt_dtype_to_real(t->dtype), t->ndim + 1, sz, st, t->offset * 2);
}

mt_tensor *
mt_complex_part(const mt_tensor *t, bool imag)
{
    if (!mt_dtype_is_complex(t->dtype)) {
        if (imag) {
            mt_error_set(MT_ERUNTIME, "imag is not implemented for tensors with non-complex dtypes.");
            return NULL;
        }
        return mt_alias(t);
    }
    int64_t st[MT_MAX_DIMS];
    for (int d = 0; d < t->ndim; d++) {
        st[d] = t->strides[d] * 2;
    }
    return mt_tensor_new(t->storage, mt_dtype_to_real(t->dtype), t->ndim, t->sizes, st,
                         t->offset * 2 + (imag ? 1 : 0));
}

mt_tensor *
mt_view_as_complex(const mt_tensor *t)
{
    if (t->dtype != MT_FLOAT32 && t->dtype != MT_FLOAT64) {
        mt_error_set(MT_ERUNTIME,
                     "view_as_complex is only supported for float and double tensors, but got a "
                     "tensor of scalar type: %s",
                     mt_dtype_scalar_name(t->dtype));
        return NULL;
    }
    if (t->ndim == 0) {
        mt_error_set(MT_ERUNTIME, "Input tensor must have one or more dimensions");
        return NULL;
    }
    int last = t->ndim - 1;
    if (t->sizes[last] != 2) {
        mt_error_set(MT_ERUNTIME, "Tensor must have a last dimension of size 2");
        return NULL;
    }
    if (t->strides[last] != 1) {
        mt_error_set(MT_ERUNTIME, "Tensor must have a last dimension with stride 1");
        return NULL;
    }
    int64_t st[MT_MAX_DIMS];
    for (int d = 0; d < last; d++) {
        if (t->sizes[d] != 1 && t->strides[d] % 2 != 0) {
            mt_error_set(MT_ERUNTIME, "Tensor must have a stride divisible by 2 for all but last dimension");
            return NULL;
        }
        st[d] = t->strides[d] / 2;
    }
    if (t->offset % 2 != 0) {
        mt_error_set(MT_ERUNTIME, "Tensor must have a storage_offset divisible by 2");
        return NULL;
    }
    return mt_tensor_new(t->storage, mt_dtype_to_complex(t->dtype), last, t->sizes, st, t->offset / 2);
}
