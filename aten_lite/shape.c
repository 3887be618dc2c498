/* aten_lite/shape.c - view operations: new metadata over the same storage. */
#include <string.h>

#include "aten_lite/ops.h"
#include "c10_lite/error.h"

int
mt_infer_size(int ndim, int64_t *sizes, int64_t numel)
{
    int infer = -1;
    int64_t prod = 1;
    for (int i = 0; i < ndim; i++) {
        if (sizes[i] == -1) {
            if (infer >= 0) {
                return mt_error_set(MT_ERUNTIME, "only one dimension can be inferred");
            }
            infer = i;
        }
        else if (sizes[i] < 0) {
            return mt_error_set(MT_ERUNTIME, "invalid shape dimension %lld", (long long)sizes[i]);
        }
        else if (__builtin_mul_overflow(prod, sizes[i], &prod)) {
            char big[256];
            mt_format_sizes(big, sizeof(big), ndim, sizes);
            return mt_error_set(MT_ERUNTIME, "shape '%s' is invalid for input of size %lld", big,
                                (long long)numel);
        }
    }
    char buf[256];
    /* torch's infer_size: -1 is ambiguous only when the known sizes multiply to
     * 0 and so does numel; otherwise a mismatch is an invalid shape. */
    if (numel == prod || (infer >= 0 && prod > 0 && numel % prod == 0)) {
        if (infer < 0) {
            return MT_OK;
        }
        if (prod == 0) {
            mt_format_sizes(buf, sizeof(buf), ndim, sizes);
            return mt_error_set(MT_ERUNTIME,
                                "cannot reshape tensor of 0 elements into shape %s because the "
                                "unspecified dimension size -1 can be any value and is ambiguous",
                                buf);
        }
        sizes[infer] = numel / prod;
        return MT_OK;
    }
    mt_format_sizes(buf, sizeof(buf), ndim, sizes);
    return mt_error_set(MT_ERUNTIME, "shape '%s' is invalid for input of size %lld", buf,
                        (long long)numel);
}

/* torch's computeStride: strides for viewing (osz, ost) as nsz, or false. */
static bool
mt__compute_view_strides(int on, const int64_t *osz, const int64_t *ost, int nn,
                         const int64_t *nsz, int64_t numel, int64_t *nst)
{
    if (on == 0) {
        for (int i = 0; i < nn; i++) {
            nst[i] = 1;
        }
        return true;
    }
    if (numel == 0) {
        if (on == nn && memcmp(osz, nsz, (size_t)nn * sizeof(int64_t)) == 0) {
            memcpy(nst, ost, (size_t)nn * sizeof(int64_t));
            return true;
        }
        (void)mt_contiguous_strides(nn, nsz, nst); /* overflow checked by the callers */
        return true;
    }
    int view_d = nn - 1;
    int64_t chunk_base = ost[on - 1];
    int64_t tensor_numel = 1, view_numel = 1;
    for (int td = on - 1; td >= 0; td--) {
        tensor_numel *= osz[td];
        if (td == 0 || (osz[td - 1] != 1 && ost[td - 1] != tensor_numel * chunk_base)) {
            while (view_d >= 0 && (view_numel < tensor_numel || nsz[view_d] == 1)) {
                nst[view_d] = view_numel * chunk_base;
                view_numel *= nsz[view_d];
                view_d--;
            }
            if (view_numel != tensor_numel) {
                return false;
            }
            if (td > 0) {
                chunk_base = ost[td - 1];
                tensor_numel = 1;
                view_numel = 1;
            }
        }
    }
    return view_d == -1;
}

static int
mt__copy_sizes(int ndim, const int64_t *sizes, int64_t *out)
{
    if (ndim > MT_MAX_DIMS) {
        return mt_error_set(MT_ERUNTIME, "tensors have at most %d dimensions, got %d", MT_MAX_DIMS,
                            ndim);
    }
    memcpy(out, sizes, (size_t)ndim * sizeof(int64_t));
    return MT_OK;
}

mt_tensor *
mt_view(const mt_tensor *t, int ndim, const int64_t *sizes)
{
    int64_t nsz[MT_MAX_DIMS], nst[MT_MAX_DIMS];
    if (mt__copy_sizes(ndim, sizes, nsz) < 0 || mt_infer_size(ndim, nsz, t->numel) < 0 ||
        (t->numel == 0 && mt_contiguous_strides(ndim, nsz, nst) < 0)) {
        return NULL;
    }
    if (!mt__compute_view_strides(t->ndim, t->sizes, t->strides, ndim, nsz, t->numel, nst)) {
        mt_error_set(MT_ERUNTIME,
                     "view size is not compatible with input tensor's size and stride (at least "
                     "one dimension spans across two contiguous subspaces). Use .reshape(...) "
                     "instead.");
        return NULL;
    }
    return mt_tensor_view_of(t, ndim, nsz, nst, t->offset);
}

mt_tensor *
mt_reshape(mt_tensor *t, int ndim, const int64_t *sizes)
{
    int64_t nsz[MT_MAX_DIMS], nst[MT_MAX_DIMS];
    if (mt__copy_sizes(ndim, sizes, nsz) < 0 || mt_infer_size(ndim, nsz, t->numel) < 0 ||
        (t->numel == 0 && mt_contiguous_strides(ndim, nsz, nst) < 0)) {
        return NULL;
    }
    if (mt__compute_view_strides(t->ndim, t->sizes, t->strides, ndim, nsz, t->numel, nst)) {
        return mt_tensor_view_of(t, ndim, nsz, nst, t->offset);
    }
    mt_tensor *c = mt_contiguous(t);
    if (c == NULL) {
        return NULL;
    }
    mt_tensor *r = mt_tensor_view_of(c, ndim, nsz, NULL, c->offset);
    mt_tensor_decref(c);
    return r;
}

mt_tensor *
mt_permute(const mt_tensor *t, int ndim, const int64_t *dims)
{
    if (ndim != t->ndim) {
        mt_error_set(MT_ERUNTIME,
                     "permute(sparse_coo): number of dimensions in the tensor input does not "
                     "match the length of the desired ordering of dimensions i.e. input.dim() = "
                     "%d is not equal to len(dims) = %d",
                     t->ndim, ndim);
        return NULL;
    }
    int64_t nsz[MT_MAX_DIMS], nst[MT_MAX_DIMS];
    bool seen[MT_MAX_DIMS] = {false};
    for (int i = 0; i < ndim; i++) {
        int d = mt_wrap_dim(dims[i], ndim);
        if (d < 0) {
            return NULL;
        }
        if (seen[d]) {
            mt_error_set(MT_ERUNTIME, "permute(): duplicate dims are not allowed.");
            return NULL;
        }
        seen[d] = true;
        nsz[i] = t->sizes[d];
        nst[i] = t->strides[d];
    }
    return mt_tensor_view_of(t, ndim, nsz, nst, t->offset);
}

mt_tensor *
mt_transpose(const mt_tensor *t, int64_t d0, int64_t d1)
{
    int a = mt_wrap_dim(d0, t->ndim), b;
    if (a < 0 || (b = mt_wrap_dim(d1, t->ndim)) < 0) {
        return NULL;
    }
    if (t->ndim == 0) {
        return mt_alias(t);
    }
    int64_t nsz[MT_MAX_DIMS], nst[MT_MAX_DIMS];
    memcpy(nsz, t->sizes, (size_t)t->ndim * sizeof(int64_t));
    memcpy(nst, t->strides, (size_t)t->ndim * sizeof(int64_t));
    nsz[a] = t->sizes[b];
    nst[a] = t->strides[b];
    nsz[b] = t->sizes[a];
    nst[b] = t->strides[a];
    return mt_tensor_view_of(t, t->ndim, nsz, nst, t->offset);
}

mt_tensor *
mt_squeeze(const mt_tensor *t, int ndims, const int64_t *dims)
{
    bool drop[MT_MAX_DIMS] = {false};
    if (dims == NULL) {
        for (int d = 0; d < t->ndim; d++) {
            drop[d] = t->sizes[d] == 1;
        }
    }
    else {
        for (int i = 0; i < ndims; i++) {
            int d = mt_wrap_dim(dims[i], t->ndim);
            if (d < 0) {
                return NULL;
            }
            if (t->ndim > 0) {
                drop[d] = t->sizes[d] == 1;
            }
        }
    }
    int64_t nsz[MT_MAX_DIMS], nst[MT_MAX_DIMS];
    int n = 0;
    for (int d = 0; d < t->ndim; d++) {
        if (!drop[d]) {
            nsz[n] = t->sizes[d];
            nst[n] = t->strides[d];
            n++;
        }
    }
    return mt_tensor_view_of(t, n, nsz, nst, t->offset);
}

mt_tensor *
mt_unsqueeze(const mt_tensor *t, int64_t dim)
{
    int d = mt_wrap_dim(dim, t->ndim + 1);
    if (d < 0) {
        return NULL;
    }
    if (t->ndim + 1 > MT_MAX_DIMS) {
        mt_error_set(MT_ERUNTIME, "tensors have at most %d dimensions", MT_MAX_DIMS);
        return NULL;
    }
    int64_t nsz[MT_MAX_DIMS], nst[MT_MAX_DIMS];
    for (int i = 0, j = 0; i < t->ndim + 1; i++) {
        if (i == d) {
            nsz[i] = 1;
            nst[i] = j < t->ndim ? t->sizes[j] * t->strides[j] : 1;
        }
        else {
            nsz[i] = t->sizes[j];
            nst[i] = t->strides[j];
            j++;
        }
    }
    return mt_tensor_view_of(t, t->ndim + 1, nsz, nst, t->offset);
}

/* The legacy type name torch prints in expand's message, e.g. FloatTensor. */
static const char *
mt__legacy_type_name(mt_dtype dt)
{
    static const char *const names[MT_NUM_DTYPES] = {
        [MT_BOOL] = "BoolTensor",    [MT_UINT8] = "ByteTensor",        [MT_INT8] = "CharTensor",
        [MT_INT16] = "ShortTensor",  [MT_INT32] = "IntTensor",         [MT_INT64] = "LongTensor",
        [MT_FLOAT16] = "HalfTensor", [MT_BFLOAT16] = "BFloat16Tensor", [MT_FLOAT32] = "FloatTensor",
        [MT_FLOAT64] = "DoubleTensor",
        [MT_COMPLEX64] = "ComplexFloatTensor", [MT_COMPLEX128] = "ComplexDoubleTensor",
        [MT_UINT16] = "UInt16Tensor", [MT_UINT32] = "UInt32Tensor", [MT_UINT64] = "UInt64Tensor",
    };
    return names[dt];
}

mt_tensor *
mt_expand(const mt_tensor *t, int ndim, const int64_t *sizes)
{
    char a[256], b[256];
    if (ndim < t->ndim) {
        mt_format_sizes(a, sizeof(a), ndim, sizes);
        mt_format_sizes(b, sizeof(b), t->ndim, t->sizes);
        mt_error_set(MT_ERUNTIME,
                     "expand(minitorch.%s{%s}, size=%s): the number of sizes provided (%d) "
                     "must be greater or equal to the number of dimensions in the tensor (%d)",
                     mt__legacy_type_name(t->dtype), b, a, ndim, t->ndim);
        return NULL;
    }
    if (ndim > MT_MAX_DIMS) {
        mt_error_set(MT_ERUNTIME, "tensors have at most %d dimensions", MT_MAX_DIMS);
        return NULL;
    }
    int64_t nsz[MT_MAX_DIMS], nst[MT_MAX_DIMS];
    for (int i = ndim - 1; i >= 0; i--) {
        int td = t->ndim - ndim + i;
        int64_t want = sizes[i];
        if (td < 0) {
            if (want < 0) {
                mt_error_set(MT_ERUNTIME,
                             "The expanded size of the tensor (%lld) isn't allowed in a leading, "
                             "non-existing dimension %d",
                             (long long)want, i);
                return NULL;
            }
            nsz[i] = want;
            /* a new dimension of size 1 gets the stride a contiguous tensor would
             * have there, as torch (it never steps, so any stride is valid) */
            nst[i] = want != 1 ? 0 : (i + 1 < ndim ? nsz[i + 1] * nst[i + 1] : 1);
            continue;
        }
        int64_t have = t->sizes[td];
        if (want == -1) {
            want = have;
        }
        if (want < 0) {
            mt_error_set(MT_ERUNTIME, "Trying to create tensor with negative dimension %lld",
                         (long long)want);
            return NULL;
        }
        if (have == want) {
            nsz[i] = have;
            nst[i] = t->strides[td];
        }
        else if (have == 1) {
            nsz[i] = want;
            nst[i] = 0;
        }
        else {
            mt_format_sizes(a, sizeof(a), ndim, sizes);
            mt_format_sizes(b, sizeof(b), t->ndim, t->sizes);
            mt_error_set(MT_ERUNTIME,
                         "The expanded size of the tensor (%lld) must match the existing size "
                         "(%lld) at non-singleton dimension %d.  Target sizes: %s.  Tensor "
                         "sizes: %s",
                         (long long)want, (long long)have, i, a, b);
            return NULL;
        }
    }
    return mt_tensor_view_of(t, ndim, nsz, nst, t->offset);
}

mt_tensor *
mt_slice(const mt_tensor *t, int64_t dim, int64_t start, int64_t end, int64_t step)
{
    if (t->ndim == 0) {
        mt_error_set(MT_EINDEX, "slice() cannot be applied to a 0-dim tensor.");
        return NULL;
    }
    int d = mt_wrap_dim(dim, t->ndim);
    if (d < 0) {
        return NULL;
    }
    if (step <= 0) {
        mt_error_set(MT_EINVAL, "step must be greater than zero");
        return NULL;
    }
    int64_t n = t->sizes[d];
    if (start < 0) {
        start += n;
    }
    if (end < 0) {
        end += n;
    }
    start = start < 0 ? 0 : (start > n ? n : start);
    end = end < start ? start : (end > n ? n : end);
    int64_t nsz[MT_MAX_DIMS], nst[MT_MAX_DIMS];
    memcpy(nsz, t->sizes, (size_t)t->ndim * sizeof(int64_t));
    memcpy(nst, t->strides, (size_t)t->ndim * sizeof(int64_t));
    nsz[d] = (end - start + step - 1) / step;
    nst[d] = t->strides[d] * step;
    int64_t off = t->offset + (nsz[d] > 0 ? start * t->strides[d] : 0);
    return mt_tensor_view_of(t, t->ndim, nsz, nst, off);
}

mt_tensor *
mt_narrow(const mt_tensor *t, int64_t dim, int64_t start, int64_t length)
{
    if (t->ndim == 0) {
        mt_error_set(MT_ERUNTIME, "narrow() cannot be applied to a 0-dim tensor.");
        return NULL;
    }
    int d = mt_wrap_dim(dim, t->ndim);
    if (d < 0) {
        return NULL;
    }
    int64_t n = t->sizes[d];
    if (start < -n || start > n) {
        mt_error_set(MT_EINDEX,
                     "start out of range (expected to be in range of [%lld, %lld], but got %lld)",
                     (long long)-n, (long long)n, (long long)start);
        return NULL;
    }
    if (start < 0) {
        start += n;
    }
    if (length < 0 || length > n - start) {
        mt_error_set(MT_ERUNTIME, "start (%lld) + length (%lld) exceeds dimension size (%lld).",
                     (long long)start, (long long)length, (long long)n);
        return NULL;
    }
    return mt_slice(t, d, start, start + length, 1);
}

mt_tensor *
mt_select(const mt_tensor *t, int64_t dim, int64_t index)
{
    if (t->ndim == 0) {
        mt_error_set(MT_EINDEX, "select() cannot be applied to a 0-dim tensor.");
        return NULL;
    }
    int d = mt_wrap_dim(dim, t->ndim);
    if (d < 0) {
        return NULL;
    }
    int64_t n = t->sizes[d];
    if (index < -n || index >= n) {
        mt_error_set(MT_EINDEX, "index %lld is out of bounds for dimension %d with size %lld",
                     (long long)index, d, (long long)n);
        return NULL;
    }
    if (index < 0) {
        index += n;
    }
    int64_t nsz[MT_MAX_DIMS], nst[MT_MAX_DIMS];
    for (int i = 0, j = 0; i < t->ndim; i++) {
        if (i != d) {
            nsz[j] = t->sizes[i];
            nst[j] = t->strides[i];
            j++;
        }
    }
    return mt_tensor_view_of(t, t->ndim - 1, nsz, nst, t->offset + index * t->strides[d]);
}

mt_tensor *
mt_unfold(const mt_tensor *t, int64_t dim, int64_t size, int64_t step)
{
    int d = mt_wrap_dim(dim, t->ndim);
    if (d < 0) {
        return NULL;
    }
    int64_t len = t->ndim ? t->sizes[d] : 1;
    if (size > len) {
        mt_error_set(MT_ERUNTIME, "maximum size for tensor at dimension %d is %lld but size is %lld",
                     d, (long long)len, (long long)size);
        return NULL;
    }
    if (size < 0) {
        mt_error_set(MT_ERUNTIME, "size is %lld but must be >= 0", (long long)size);
        return NULL;
    }
    if (step <= 0) {
        mt_error_set(MT_ERUNTIME, "step is %lld but must be > 0", (long long)step);
        return NULL;
    }
    if (t->ndim + 1 > MT_MAX_DIMS) {
        mt_error_set(MT_ERUNTIME, "tensors have at most %d dimensions", MT_MAX_DIMS);
        return NULL;
    }
    int64_t nsz[MT_MAX_DIMS], nst[MT_MAX_DIMS];
    int nd = t->ndim ? t->ndim + 1 : 1;
    memcpy(nsz, t->sizes, (size_t)t->ndim * sizeof(int64_t));
    memcpy(nst, t->strides, (size_t)t->ndim * sizeof(int64_t));
    if (t->ndim) {
        nsz[d] = (len - size) / step + 1;
        nst[d] = step * t->strides[d];
        nsz[t->ndim] = size;
        nst[t->ndim] = t->strides[d];
    }
    else {
        nsz[0] = size;
        nst[0] = 1;
    }
    return mt_tensor_view_of(t, nd, nsz, nst, t->offset);
}

mt_tensor *
mt_as_strided(const mt_tensor *t, int ndim, const int64_t *sizes, const int64_t *strides,
              int64_t offset)
{
    for (int i = 0; i < ndim; i++) {
        if (strides[i] < 0) {
            mt_error_set(MT_ERUNTIME,
                         "as_strided: Negative strides are not supported at the moment, got "
                         "strides: %lld",
                         (long long)strides[i]);
            return NULL;
        }
    }
    return mt_tensor_view_of(t, ndim, sizes, strides, offset);
}

mt_tensor *
mt_flatten(mt_tensor *t, int64_t start_dim, int64_t end_dim)
{
    int s = mt_wrap_dim(start_dim, t->ndim), e;
    if (s < 0 || (e = mt_wrap_dim(end_dim, t->ndim)) < 0) {
        return NULL;
    }
    if (s > e) {
        mt_error_set(MT_ERUNTIME, "flatten() has invalid args: start_dim cannot come after end_dim");
        return NULL;
    }
    if (t->ndim == 0) {
        int64_t one = 1;
        return mt_reshape(t, 1, &one);
    }
    if (s == e) {
        return mt_alias(t);
    }
    int64_t nsz[MT_MAX_DIMS];
    int n = 0;
    for (int i = 0; i < s; i++) {
        nsz[n++] = t->sizes[i];
    }
    int64_t p = 1;
    for (int i = s; i <= e; i++) {
        p *= t->sizes[i];
    }
    nsz[n++] = p;
    for (int i = e + 1; i < t->ndim; i++) {
        nsz[n++] = t->sizes[i];
    }
    return mt_reshape(t, n, nsz);
}

mt_tensor *
mt_unflatten(const mt_tensor *t, int64_t dim, int n, const int64_t *sizes)
{
    int d = mt_wrap_dim(dim, t->ndim);
    if (d < 0) {
        return NULL;
    }
    if (n == 0) {
        mt_error_set(MT_ERUNTIME, "unflatten: sizes must be non-empty");
        return NULL;
    }
    if (t->ndim - 1 + n > MT_MAX_DIMS) {
        mt_error_set(MT_ERUNTIME, "tensors have at most %d dimensions", MT_MAX_DIMS);
        return NULL;
    }
    int64_t part[MT_MAX_DIMS];
    memcpy(part, sizes, (size_t)n * sizeof(int64_t));
    int64_t len = t->ndim ? t->sizes[d] : 1;
    if (mt_infer_size(n, part, len) < 0) {
        char buf[256];
        mt_format_sizes(buf, sizeof(buf), n, sizes);
        mt_error_set(MT_ERUNTIME,
                     "unflatten: Provided sizes %s don't multiply up to the size of dim %d (%lld) "
                     "in the input tensor",
                     buf, d, (long long)len);
        return NULL;
    }
    int64_t nsz[MT_MAX_DIMS];
    int k = 0;
    for (int i = 0; i < d; i++) {
        nsz[k++] = t->sizes[i];
    }
    for (int i = 0; i < n; i++) {
        nsz[k++] = part[i];
    }
    for (int i = d + 1; i < t->ndim; i++) {
        nsz[k++] = t->sizes[i];
    }
    return mt_view(t, k, nsz);
}

/* Note [Viewing as a dtype of another size]
 * t.view(dtype) with a different element size reinterprets the bytes of the
 * last dimension, which must then be dense (stride 1): viewing 4-byte floats
 * as 1-byte ints makes the last dimension 4 times longer and every other
 * stride (and the offset) 4 times larger; viewing the other way divides them,
 * so the last size, the offset and the other strides must divide evenly.  The
 * checks and their messages are torch's, in torch's order. */
mt_tensor *
mt_view_dtype(const mt_tensor *t, mt_dtype dt)
{
    size_t from = mt_tensor_itemsize(t), to = mt_dtype_itemsize(dt);
    if (from == to) {
        return mt_tensor_new(t->storage, dt, t->ndim, t->sizes, t->strides, t->offset);
    }
    const char *a = mt_dtype_scalar_name(t->dtype), *b = mt_dtype_scalar_name(dt);
    if (t->ndim == 0) {
        mt_error_set(MT_ERUNTIME,
                     "self.dim() cannot be 0 to view %s as %s (different element sizes)", a, b);
        return NULL;
    }
    int last = t->ndim - 1;
    if (t->strides[last] != 1) {
        mt_error_set(MT_ERUNTIME,
                     "self.stride(-1) must be 1 to view %s as %s (different element sizes), "
                     "but got %lld",
                     a, b, (long long)t->strides[last]);
        return NULL;
    }
    int64_t sizes[MT_MAX_DIMS], strides[MT_MAX_DIMS], offset;
    if (from > to) {
        int64_t ratio = (int64_t)(from / to);
        for (int i = 0; i < last; i++) {
            sizes[i] = t->sizes[i];
            strides[i] = t->strides[i] * ratio;
        }
        sizes[last] = t->sizes[last] * ratio;
        strides[last] = 1;
        offset = t->offset * ratio;
    } else {
        int64_t ratio = (int64_t)(to / from);
        if (t->sizes[last] % ratio != 0) {
            mt_error_set(MT_ERUNTIME,
                         "self.size(-1) must be divisible by %lld to view %s as %s (different "
                         "element sizes), but got %lld",
                         (long long)ratio, a, b, (long long)t->sizes[last]);
            return NULL;
        }
        if (t->offset % ratio != 0) {
            mt_error_set(MT_ERUNTIME,
                         "self.storage_offset() must be divisible by %lld to view %s as %s "
                         "(different element sizes), but got %lld",
                         (long long)ratio, a, b, (long long)t->offset);
            return NULL;
        }
        for (int i = 0; i < last; i++) {
            if (t->strides[i] % ratio != 0) {
                mt_error_set(MT_ERUNTIME,
                             "self.stride(%d) must be divisible by %lld to view %s as %s "
                             "(different element sizes), but got %lld",
                             i, (long long)ratio, a, b, (long long)t->strides[i]);
                return NULL;
            }
            sizes[i] = t->sizes[i];
            strides[i] = t->strides[i] / ratio;
        }
        sizes[last] = t->sizes[last] / ratio;
        strides[last] = 1;
        offset = t->offset / ratio;
    }
    return mt_tensor_new(t->storage, dt, t->ndim, sizes, strides, offset);
}

mt_tensor *
mt_alias(const mt_tensor *t)
{
    return mt_tensor_view_of(t, t->ndim, t->sizes, t->strides, t->offset);
}
