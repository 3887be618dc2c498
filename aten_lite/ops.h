/* aten_lite/ops.h - the operator API on tensor impls (plain C; csrc binds it). */
#ifndef ATEN_LITE_OPS_H
#define ATEN_LITE_OPS_H

#include <stdbool.h>
#include <stdint.h>

#include "aten_lite/scalar.h"
#include "c10_lite/tensor_impl.h"

/* Conventions for this header (see Note [Error convention]):
 *  - functions returning mt_tensor * return a new reference the caller owns,
 *    or NULL with the thread-local message set;
 *  - functions returning int return 0 or a negative MT_E* code, and on error
 *    the tensors are unmodified (data included, except where noted);
 *  - tensor arguments are borrowed. */

/* Registers every kernel; called once at module import. */
void mt_aten_init(void);

/* ---- copy, fill, conversion (aten_lite/copy.c) ---- */
/* Copies src into dst: broadcasting src to dst's shape, converting dtype.
 * Overlapping src/dst memory is handled (src is cloned first). */
int mt_copy_(mt_tensor *dst, const mt_tensor *src);
/* mt_copy_ that may return before a transfer between a device and pinned host memory is done
 * (copy_(non_blocking=True), .to(non_blocking=True)): the caller orders later work by the
 * device's stream, as torch's. */
int mt_copy_nb_(mt_tensor *dst, const mt_tensor *src, bool non_blocking);
int mt_fill_(mt_tensor *t, mt_scalar value);
/* t itself (new reference) when already contiguous, else a contiguous copy. */
mt_tensor *mt_contiguous(mt_tensor *t);
/* New memory with t's values; keeps t's strides when t is dense and
 * non-overlapping (torch.preserve_format), else contiguous. */
mt_tensor *mt_clone(const mt_tensor *t);
/* The value of the one-element tensor t, on any device (another device's element comes to
 * the host through the copy kernels).  0, or MT_ERUNTIME for other sizes (torch's message). */
int mt_item(const mt_tensor *t, mt_scalar *out);
/* Uninitialised tensor like t (layout preserved as mt_clone) with dtype dt. */
mt_tensor *mt_empty_like(const mt_tensor *t, mt_dtype dt);
/* t (new reference) when t->dtype == dt and !copy, else a converted copy. */
mt_tensor *mt_to_dtype(mt_tensor *t, mt_dtype dt, bool copy);
/* The operand of a float kernel: t contiguous, float16/bfloat16 widened to float32 (new
 * reference, t itself when it already is).  NULL on error, or when t is NULL. */
mt_tensor *mt_float_operand(mt_tensor *t);
/* A float kernel's result r (stolen) in dtype dt: r itself or a converted copy.  NULL on
 * error, or when r is NULL. */
mt_tensor *mt_float_result(mt_tensor *r, mt_dtype dt);
/* MT_ERUNTIME when several elements of t share memory (an expanded tensor
 * written in place), torch's message. */
int mt_check_no_internal_overlap(const mt_tensor *t);
/* Whether the memory ranges of a and b intersect. */
bool mt_tensors_overlap(const mt_tensor *a, const mt_tensor *b);

/* ---- views: share storage, never copy (aten_lite/shape.c) ---- */
/* sizes may contain one -1.  Fails (torch's message, suggesting .reshape())
 * when the strides do not allow a view. */
mt_tensor *mt_view(const mt_tensor *t, int ndim, const int64_t *sizes);
/* A view when possible, else a contiguous copy. */
mt_tensor *mt_reshape(mt_tensor *t, int ndim, const int64_t *sizes);
/* Resolves a -1 in sizes against numel (torch's infer_size); 0 or error. */
int mt_infer_size(int ndim, int64_t *sizes, int64_t numel);
mt_tensor *mt_permute(const mt_tensor *t, int ndim, const int64_t *dims);
mt_tensor *mt_transpose(const mt_tensor *t, int64_t d0, int64_t d1);
/* dim == NULL: every size-1 dim; else the listed dims (those of size != 1 are kept). */
mt_tensor *mt_squeeze(const mt_tensor *t, int ndims, const int64_t *dims);
mt_tensor *mt_unsqueeze(const mt_tensor *t, int64_t dim);
/* sizes may hold -1 (keep) and may add leading dims. */
mt_tensor *mt_expand(const mt_tensor *t, int ndim, const int64_t *sizes);
mt_tensor *mt_narrow(const mt_tensor *t, int64_t dim, int64_t start, int64_t length);
/* start/end are clamped as Python slices; step >= 1. */
mt_tensor *mt_slice(const mt_tensor *t, int64_t dim, int64_t start, int64_t end, int64_t step);
mt_tensor *mt_select(const mt_tensor *t, int64_t dim, int64_t index);
mt_tensor *mt_unfold(const mt_tensor *t, int64_t dim, int64_t size, int64_t step);
mt_tensor *mt_as_strided(const mt_tensor *t, int ndim, const int64_t *sizes,
                         const int64_t *strides, int64_t offset);
mt_tensor *mt_flatten(mt_tensor *t, int64_t start_dim, int64_t end_dim);
mt_tensor *mt_unflatten(const mt_tensor *t, int64_t dim, int n, const int64_t *sizes);
/* Reinterprets the bytes as another dtype (t.view(dtype)); for another itemsize
 * the last dimension is rescaled: see Note [Viewing as a dtype of another size]. */
mt_tensor *mt_view_dtype(const mt_tensor *t, mt_dtype dt);
/* A new impl with the same storage and metadata (detach(), x[...]). */
mt_tensor *mt_alias(const mt_tensor *t);

/* ---- elementwise (aten_lite/elementwise.c) ---- */
#include "aten_lite/dispatch.h"

/* An operand that is a tensor (t != NULL, borrowed) or a Python number (s). */
typedef struct mt_arg {
    mt_tensor *t;
    mt_scalar s;
} mt_arg;

static inline mt_arg
mt_arg_tensor(mt_tensor *t)
{
    return (mt_arg){.t = t};
}
static inline mt_arg
mt_arg_scalar(mt_scalar s)
{
    return (mt_arg){.t = NULL, .s = s};
}

/* torch.result_type of two operands, see Note [Type promotion]. */
mt_dtype mt_result_type2(mt_arg a, mt_arg b);
/* out = a <op> b with broadcasting and torch's promotion.  `out` NULL: a new
 * tensor; else the result is written into out (in-place ops pass a.t as
 * out), which must have the broadcast shape and a dtype the result can be
 * cast to.  `alpha` is used by the *_ALPHA ops.  Returns a new reference
 * (out itself when given) or NULL. */
mt_tensor *mt_binary(mt_op op, mt_arg a, mt_arg b, mt_tensor *out, mt_scalar alpha);
/* The dtypes mt_binary / mt_unary / mt_where compute in and return, after
 * every check that does not depend on out's shape (operands torch rejects,
 * a result out's dtype cannot hold).  A binding calls them before it resizes
 * an out= argument, so a failing call leaves out untouched.  0, or an error
 * with nothing set. */
int mt_binary_dtypes(mt_op op, mt_arg a, mt_arg b, mt_scalar alpha, const mt_tensor *out,
                     mt_dtype *compute_dtype, mt_dtype *result_dtype);
int mt_unary_dtypes(mt_op op, const mt_tensor *a, const mt_tensor *out, mt_dtype *compute_dtype,
                    mt_dtype *result_dtype);
int mt_where_dtype(mt_arg x, mt_arg y, const mt_tensor *out, mt_dtype *result_dtype);
/* out = op(a); integer inputs of float-only ops (exp, sqrt, ...) are
 * promoted to the default dtype. Same out/return conventions. */
mt_tensor *mt_unary(mt_op op, mt_tensor *a, mt_tensor *out);
/* cond ? x : y, elementwise with broadcasting; cond must be bool. */
mt_tensor *mt_where(const mt_tensor *cond, mt_arg x, mt_arg y, mt_tensor *out);

/* ---- reductions (aten_lite/reduce.c) ---- */
#include "aten_lite/cpu/reduce_kernels.h"
/* mask[d] = whether dim d is reduced; dims == NULL reduces every dim.
 * Wraps negative dims; repeated dims are an error. */
int mt_reduce_dims_mask(const mt_tensor *t, int ndims, const int64_t *dims, bool *mask);
/* torch's name of a reduction ("sum", "argmax"). */
const char *mt_reduce_op_name(mt_reduce_op op) MT_PURE;
/* Reduces t over the dims set in mask (length max(ndim, 1)).  Output dtype:
 * sum/prod of bool/integers -> int64, all/any -> bool (uint8 for uint8 input, as torch), argmax/argmin ->
 * int64 (flat row-major index when several dims), else t's dtype.
 * max/min/argmax/argmin of an empty range fail with torch's IndexError. */
mt_tensor *mt_reduce(mt_reduce_op op, mt_tensor *t, const bool *mask, bool keepdim);

/* Cumulative ops along dim (Note [Scans] in scan.c). */
typedef enum { MT_SCAN_SUM, MT_SCAN_PROD, MT_SCAN_MAX, MT_SCAN_MIN, MT_SCAN_LOGSUMEXP } mt_scan_op;
/* A new tensor of t's shape: SUM/PROD of bool/integers give int64, everything
 * else keeps t's dtype.  MAX/MIN also set *indices (caller owns; int64, same
 * shape) to the index of each running extreme; other ops take indices NULL.
 * NULL with the error set (dtype the op does not take: MT_ENOTIMPL). */
mt_tensor *mt_cumulative(const mt_tensor *t, int64_t dim, mt_scan_op op, mt_tensor **indices);

/* ---- integer-tensor indexing (aten_lite/index_ops.c) ---- */
/* v[idx[0], ..., idx[k-1]] over v's first k dims (NumPy advanced indexing with
 * the indexed dims first): result shape = broadcast(idx shapes) + v.shape[k:].
 * Index tensors: any integer dtype; negative values wrap; out of range ->
 * MT_EINDEX. Returns a new contiguous tensor. */
mt_tensor *mt_index_get(const mt_tensor *v, int k, mt_tensor *const *idx);
/* torch.index_select for a >= 1-d self: index 1-d (or 0-d) int32/int64, values
 * in [0, size) (else MT_EINDEX "index out of range in self"); with wrap, values
 * in [-size, size) as in indexing (and indexing's message).  Caller owns. */
mt_tensor *mt_index_select(const mt_tensor *self, int64_t dim, const mt_tensor *index, bool wrap);
/* v[idx...] = values (broadcast, converted to v's dtype), or += when
 * accumulate (repeated indices then add up).  Nothing is written on error. */
int mt_index_put_(mt_tensor *v, int k, mt_tensor *const *idx, const mt_tensor *values,
                  bool accumulate);
/* The broadcast shape of k index tensors (their dtypes checked), or MT_EINDEX
 * with torch's "shape mismatch: indexing tensors could not be broadcast" message. */
int mt_index_broadcast_shape(int k, mt_tensor *const *idx, int *nb, int64_t *bshape);
/* Coordinates of the non-zero elements, int64 (count, ndim), row-major order. */
mt_tensor *mt_nonzero(const mt_tensor *t);
/* torch.gather / scatter_ / scatter_add_ (index: int64, same ndim, values in
 * [0, size); src: self's dtype).  See Note [Gather and scatter].  gather returns
 * a new tensor the caller owns; the scatters modify self (nothing on error). */
typedef enum {
    MT_SCATTER_NONE,
    MT_SCATTER_ADD,
    MT_SCATTER_MULTIPLY,
    MT_SCATTER_AMAX, /* NaN wins, as torch's scatter_reduce */
    MT_SCATTER_AMIN,
} mt_scatter_reduce;
mt_tensor *mt_gather(mt_tensor *self, int64_t dim, const mt_tensor *index);
int mt_scatter_(mt_tensor *self, int64_t dim, const mt_tensor *index, const mt_tensor *src,
                mt_scatter_reduce reduce);
/* scatter_ with a scalar: self[..index..] = value (or combined with it by reduce). */
int mt_scatter_value_(mt_tensor *self, int64_t dim, const mt_tensor *index, mt_scalar value,
                      mt_scatter_reduce reduce);
/* torch.cat: dtypes promoted, 1-d empty tensors skipped. */
mt_tensor *mt_cat(mt_tensor *const *ts, int n, int64_t dim);
/* A contiguous copy of t with the entries of each of dims[0, n) in reverse
 * order (torch.flip); dims already wrapped and distinct. */
mt_tensor *mt_flip(const mt_tensor *t, int n, const int64_t *dims);

/* ---- sorting (aten_lite/sort.c) ---- */
/* Sorts along dim (stable; NaN sorts as the largest value); values and
 * int64 indices are new tensors the caller owns. */
int mt_sort(mt_tensor *t, int64_t dim, bool descending, mt_tensor **values, mt_tensor **indices);
/* The first k entries of mt_sort(t, dim, descending = largest) along dim (by
 * selection when k is small; see Note [Topk]); k in [0, size]. */
int mt_topk(mt_tensor *t, int64_t k, int64_t dim, bool largest, mt_tensor **values,
            mt_tensor **indices);
/* torch.searchsorted (see Note [Searchsorted]): positions of values in the sorted
 * last-dim lines of boundaries (1-d: one line for all values; else leading dims
 * equal to values').  boundaries and values share a dtype; sorter (int64, in
 * range, boundaries' shape) or NULL.  Returns int64 (int32 with out_int32) of
 * values' shape; caller owns. */
mt_tensor *mt_searchsorted(const mt_tensor *boundaries, const mt_tensor *values,
                           const mt_tensor *sorter, bool right, bool out_int32);

/* ---- factories (aten_lite/factory.c) ---- */
/* torch.arange: integer arithmetic when all three are ints. */
mt_tensor *mt_arange(mt_scalar start, mt_scalar end, mt_scalar step, mt_dtype dt, mt_device dev);
/* torch.linspace, or torch.logspace (base ** linspace) when `log`. */
mt_tensor *mt_linspace(double start, double end, int64_t steps, double base, bool log,
                       mt_dtype dt, mt_device dev);
mt_tensor *mt_eye(int64_t n, int64_t m, mt_dtype dt, mt_device dev);

/* ---- complex views (aten_lite/complex.c), see Note [Complex views] ---- */
/* torch.view_as_real: a real view with a trailing dimension of size 2.
 * MT_ERUNTIME for real tensors.  Caller owns. */
mt_tensor *mt_view_as_real(const mt_tensor *t);
/* torch.view_as_complex (float32/float64, last dim of size 2 and stride 1,
 * even strides and offset; MT_ERUNTIME with torch's message otherwise).
 * Caller owns. */
mt_tensor *mt_view_as_complex(const mt_tensor *t);
/* t.real / t.imag as views; the real part of a real tensor is an alias, its
 * imag is MT_ERUNTIME.  Caller owns. */
mt_tensor *mt_complex_part(const mt_tensor *t, bool imag);

#endif /* ATEN_LITE_OPS_H */
