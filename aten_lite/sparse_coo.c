/* aten_lite/sparse_coo.c - products of sparse COO matrices with dense matrices. */
#include "aten_lite/sparse_coo.h"

#include <stdlib.h>

#include "aten_lite/ops.h"
#include "aten_lite/parallel.h"
#include "c10_lite/error.h"

/* Note [COO sparse-dense product]
 * The nonzeros are bucketed by row with a stable counting sort (row pointers and an order of
 * the entries, O(nnz + m)), so the product is computed a row of the result at a time: each
 * row is the sum, in the entries' own order, of value * the dense row of the entry's column.
 * Rows are split over the pool; the result is deterministic whatever the thread count, and
 * no entry's contribution is ever written by two threads.  Indices in any order are taken (the
 * backward pass multiplies by the transpose, whose rows are the columns). */

typedef struct {
    const int64_t *ptr, *order, *cols;
    const char *values, *dense;
    char *out;
    int64_t n, vstride; /* columns of dense; values' stride in elements */
} mt__spmm_job;

typedef struct {
    const int64_t *rows, *cols;
    const char *a, *b;
    char *out;
    int64_t n;
} mt__sdot_job;

#define MT__COO_KERNELS(T)                                                                       \
    static void mt__spmm_rows_##T(void *vctx, int64_t begin, int64_t end)                        \
    {                                                                                            \
        const mt__spmm_job *j = (const mt__spmm_job *)vctx;                                      \
        const T *values = (const T *)j->values, *dense = (const T *)j->dense;                    \
        const int64_t n = j->n;                                                                  \
        for (int64_t r = begin; r < end; r++) {                                                  \
            T *o = (T *)j->out + r * n;                                                          \
            for (int64_t k = 0; k < n; k++) {                                                    \
                o[k] = 0;                                                                        \
            }                                                                                    \
            for (int64_t p = j->ptr[r]; p < j->ptr[r + 1]; p++) {                                \
                const int64_t e = j->order[p];                                                   \
                const T v = values[e * j->vstride];                                              \
                const T *d = dense + j->cols[e] * n;                                             \
                for (int64_t k = 0; k < n; k++) {                                                \
                    o[k] += v * d[k];                                                            \
                }                                                                                \
            }                                                                                    \
        }                                                                                        \
    }                                                                                            \
    static void mt__sdot_range_##T(void *vctx, int64_t begin, int64_t end)                       \
    {                                                                                            \
        const mt__sdot_job *j = (const mt__sdot_job *)vctx;                                      \
        const int64_t n = j->n;                                                                  \
        for (int64_t e = begin; e < end; e++) {                                                  \
            const T *a = (const T *)j->a + j->rows[e] * n, *b = (const T *)j->b + j->cols[e] * n; \
            T acc = 0;                                                                           \
            for (int64_t k = 0; k < n; k++) {                                                    \
                acc += a[k] * b[k];                                                              \
            }                                                                                    \
            ((T *)j->out)[e] = acc;                                                              \
        }                                                                                        \
    }
MT__COO_KERNELS(float)
MT__COO_KERNELS(double)

/* Checks the common arguments: int64 index vectors of one length nnz, each in [0, bound). */
static int
mt__coo_check_index(const mt_tensor *idx, int64_t nnz, int64_t bound, const char *what)
{
    if (idx->dtype != MT_INT64 || idx->ndim != 1 || idx->sizes[0] != nnz) {
        return mt_error_set(MT_ERUNTIME, "sparse mm: expected %s as an int64 vector of %lld "
                            "indices", what, (long long)nnz);
    }
    const int64_t *p = (const int64_t *)mt_tensor_data(idx);
    for (int64_t e = 0; e < nnz; e++) {
        if (p[e] < 0 || p[e] >= bound) {
            return mt_error_set(MT_EINDEX, "sparse mm: %s index %lld is out of bounds for size "
                                "%lld", what, (long long)p[e], (long long)bound);
        }
    }
    return MT_OK;
}

static int
mt__coo_check_float(const mt_tensor *a, const mt_tensor *b)
{
    if (a->dtype != b->dtype || (a->dtype != MT_FLOAT32 && a->dtype != MT_FLOAT64)) {
        return mt_error_set(MT_ERUNTIME, "sparse mm: expected float32 or float64 operands of "
                            "one dtype");
    }
    if (mt_tensor_device(a).type != MT_CPU || mt_tensor_device(b).type != MT_CPU) {
        return mt_error_set(MT_ENOTIMPL, "sparse mm: only cpu tensors");
    }
    return MT_OK;
}

mt_tensor *
mt_coo_spmm(mt_tensor *rows, mt_tensor *cols, mt_tensor *values, mt_tensor *dense, int64_t m)
{
    if (values->ndim != 1 || dense->ndim != 2 || m < 0) {
        mt_error_set(MT_ERUNTIME, "sparse mm: expected a vector of values and a matrix");
        return NULL;
    }
    const int64_t nnz = values->sizes[0], k = dense->sizes[0], n = dense->sizes[1];
    if (mt__coo_check_float(values, dense) < 0) {
        return NULL;
    }
    mt_tensor *ri = mt_contiguous(rows);
    mt_tensor *ci = ri != NULL ? mt_contiguous(cols) : NULL;
    mt_tensor *d = ci != NULL ? mt_contiguous(dense) : NULL;
    const int64_t sizes[2] = {m, n};
    mt_tensor *out = d != NULL ? mt_tensor_empty(dense->dtype, 2, sizes, MT_DEVICE_CPU) : NULL;
    int64_t *ptr = NULL, *order = NULL;
    if (out == NULL || mt__coo_check_index(ri, nnz, m, "row") < 0 ||
        mt__coo_check_index(ci, nnz, k, "column") < 0) {
        goto error;
    }
    ptr = calloc((size_t)m + 1, sizeof(int64_t));
    order = malloc(((size_t)nnz + 1) * sizeof(int64_t));
    if (ptr == NULL || order == NULL) {
        mt_error_set(MT_ENOMEM, "sparse mm: out of memory");
        goto error;
    }
    const int64_t *r = (const int64_t *)mt_tensor_data(ri);
    for (int64_t e = 0; e < nnz; e++) {
        ptr[r[e] + 1]++;
    }
    for (int64_t i = 0; i < m; i++) {
        ptr[i + 1] += ptr[i];
    }
    for (int64_t e = 0; e < nnz; e++) {     /* stable: ptr[i] walks row i's slots */
        order[ptr[r[e]]++] = e;
    }
    for (int64_t i = m; i > 0; i--) {       /* ptr[i] is now row i's end: shift back */
        ptr[i] = ptr[i - 1];
    }
    ptr[0] = 0;
    mt__spmm_job job = {
        .ptr = ptr,
        .order = order,
        .cols = (const int64_t *)mt_tensor_data(ci),
        .values = mt_tensor_data(values),
        .dense = mt_tensor_data(d),
        .out = mt_tensor_data(out),
        .n = n,
        .vstride = values->strides[0],
    };
    const int64_t per_row = (nnz / (m > 0 ? m : 1) + 1) * (n > 0 ? n : 1);
    mt_parallel_for(0, m, MT_GRAIN_SIZE / per_row + 1,
                    dense->dtype == MT_FLOAT32 ? mt__spmm_rows_float : mt__spmm_rows_double, &job);
    free(ptr);
    free(order);
    mt_tensor_decref(ri);
    mt_tensor_decref(ci);
    mt_tensor_decref(d);
    return out;
error:
    free(ptr);
    free(order);
    mt_tensor_decref(ri);
    mt_tensor_decref(ci);
    mt_tensor_decref(d);
    mt_tensor_decref(out);
    return NULL;
}

mt_tensor *
mt_coo_sampled_dot(mt_tensor *rows, mt_tensor *cols, mt_tensor *a, mt_tensor *b)
{
    if (a->ndim != 2 || b->ndim != 2 || a->sizes[1] != b->sizes[1] || rows->ndim != 1) {
        mt_error_set(MT_ERUNTIME, "sparse mm: expected two matrices of one width and index "
                     "vectors");
        return NULL;
    }
    if (mt__coo_check_float(a, b) < 0) {
        return NULL;
    }
    const int64_t nnz = rows->sizes[0];
    mt_tensor *ri = mt_contiguous(rows);
    mt_tensor *ci = ri != NULL ? mt_contiguous(cols) : NULL;
    mt_tensor *ac = ci != NULL ? mt_contiguous(a) : NULL;
    mt_tensor *bc = ac != NULL ? mt_contiguous(b) : NULL;
    mt_tensor *out = bc != NULL ? mt_tensor_empty(a->dtype, 1, &nnz, MT_DEVICE_CPU) : NULL;
    if (out == NULL || mt__coo_check_index(ri, nnz, a->sizes[0], "row") < 0 ||
        mt__coo_check_index(ci, nnz, b->sizes[0], "column") < 0) {
        mt_tensor_decref(out);
        out = NULL;
    } else {
        mt__sdot_job job = {
            .rows = (const int64_t *)mt_tensor_data(ri),
            .cols = (const int64_t *)mt_tensor_data(ci),
            .a = mt_tensor_data(ac),
            .b = mt_tensor_data(bc),
            .out = mt_tensor_data(out),
            .n = a->sizes[1],
        };
        mt_parallel_for(0, nnz, MT_GRAIN_SIZE / (job.n > 0 ? job.n : 1) + 1,
                        a->dtype == MT_FLOAT32 ? mt__sdot_range_float : mt__sdot_range_double,
                        &job);
    }
    mt_tensor_decref(ri);
    mt_tensor_decref(ci);
    mt_tensor_decref(ac);
    mt_tensor_decref(bc);
    return out;
}
