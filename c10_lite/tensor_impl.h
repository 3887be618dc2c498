/* c10_lite/tensor_impl.h - a strided view of a storage: offset, sizes, strides, dtype. */
#ifndef C10_LITE_TENSOR_IMPL_H
#define C10_LITE_TENSOR_IMPL_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "c10_lite/checked.h"
#include "c10_lite/dtype.h"
#include "c10_lite/storage.h"

#define MT_MAX_DIMS 64

/* Note [TensorImpl is immutable]
 * A tensor impl is (storage reference, offset in elements, sizes, strides in
 * elements, dtype).  Its metadata never changes after mt_tensor_new returns:
 * operations that "change the shape in place" (t.unsqueeze_(), t.t_()) build a
 * new impl and the owner swaps its pointer.  So an impl can be shared freely
 * between threads (a distributed worker holds one while Python goes on);
 * only the bytes it points to are mutable.  Refcount is atomic.
 *
 * `sizes` and `strides` point into the flexible array `dims_` that is
 * allocated together with the struct (one malloc per tensor). */
typedef struct mt_tensor {
    _Atomic int64_t refcount;
    mt_storage *storage; /* owned reference, never NULL */
    int64_t offset;      /* in elements */
    int64_t numel;       /* product of sizes, cached */
    mt_dtype dtype;
    int ndim;
    bool contiguous;     /* row-major contiguous, cached */
    int64_t *sizes;
    int64_t *strides;    /* in elements */
    int64_t dims_[];     /* sizes[ndim] then strides[ndim] */
} mt_tensor;

/* New impl viewing `storage` (borrowed: the impl takes its own reference).
 * `strides` may be NULL for contiguous strides.  Checks that every element
 * lies inside the storage (MT_ERUNTIME naming the sizes otherwise), that
 * ndim <= MT_MAX_DIMS and that sizes are non-negative.  Caller owns the result. */
mt_tensor *mt_tensor_new(mt_storage *storage, mt_dtype dtype, int ndim, const int64_t *sizes,
                         const int64_t *strides, int64_t offset);
/* New contiguous tensor with fresh uninitialised memory on `device`. Caller owns. */
mt_tensor *mt_tensor_empty(mt_dtype dtype, int ndim, const int64_t *sizes, mt_device device);
/* New impl sharing t's storage with other metadata (a view); same checks as
 * mt_tensor_new. Caller owns. */
mt_tensor *mt_tensor_view_of(const mt_tensor *t, int ndim, const int64_t *sizes,
                             const int64_t *strides, int64_t offset);

/* Note [Resizing]
 * resize_() and out= arguments of the wrong shape change a tensor's shape.
 * Impls are immutable, so this returns the impl the owner swaps in: t itself
 * (a new reference) when the sizes are already t's; else contiguous strides
 * from t's offset on t's storage when it has room, or on a new storage
 * holding a copy of the old bytes when it has not.  (torch grows the storage
 * in place, so other views of it see the new bytes too; here they keep the
 * old storage.)  A storage borrowed from another owner (NumPy, shared
 * memory) cannot grow: MT_ERUNTIME, as torch.  Caller owns the result. */
mt_tensor *mt_tensor_resized(const mt_tensor *t, int ndim, const int64_t *sizes);

static inline void
mt_tensor_incref(mt_tensor *t)
{
    atomic_fetch_add_explicit(&t->refcount, 1, memory_order_relaxed);
}

/* Drops one reference (NULL ok); frees the impl and drops its storage at zero. */
void mt_tensor_decref(mt_tensor *t);

/* Pointer to the first element (storage data + offset * itemsize). */
static inline char *
mt_tensor_data(const mt_tensor *t)
{
    return (char *)t->storage->data + t->offset * (int64_t)mt_dtype_itemsize(t->dtype);
}

static inline size_t
mt_tensor_itemsize(const mt_tensor *t)
{
    return mt_dtype_itemsize(t->dtype);
}

static inline mt_device
mt_tensor_device(const mt_tensor *t)
{
    return t->storage->device;
}

/* The lowest and highest element index (from the storage's start) that a
 * view with these sizes, strides and offset reaches; both are `offset` when it
 * has no elements.  MT_ERUNTIME when a span, or the byte count of either end
 * (index * itemsize), overflows int64: see Note [Checked arithmetic]. */
int mt_view_extent(int ndim, const int64_t *sizes, const int64_t *strides, int64_t offset,
                   size_t itemsize, int64_t *lo, int64_t *hi);
/* Fills `strides` with row-major contiguous strides for `sizes`.  Returns 0, or
 * MT_ERUNTIME "Stride calculation overflowed" when a stride does not fit int64
 * (possible only for a shape with no elements; `strides` is still filled, the
 * overflowing ones saturated at INT64_MAX). */
int mt_contiguous_strides(int ndim, const int64_t *sizes, int64_t *strides);
/* Whether sizes/strides describe a row-major contiguous layout (size-1 and
 * size-0 dimensions may have any stride, as in torch). */
bool mt_is_contiguous(int ndim, const int64_t *sizes, const int64_t *strides);
/* Product of sizes; MT_EINVAL message and -1 on overflow. */
int64_t mt_numel(int ndim, const int64_t *sizes);
/* "[2, 3, 4]" into buf (truncated to cap, always NUL terminated); returns buf. */
char *mt_format_sizes(char *buf, size_t cap, int ndim, const int64_t *sizes);
/* Normalises a possibly negative dim against ndim (wrap_dim: for ndim 0 the
 * valid range is [-1, 0]).  Returns the dim or MT_EINDEX with torch's message
 * "Dimension out of range (expected to be in range of [-2, 1], but got 5)". */
int mt_wrap_dim(int64_t dim, int ndim);

#endif /* C10_LITE_TENSOR_IMPL_H */
