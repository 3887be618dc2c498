/* aten_lite/sort.c - stable sort, topk selection and searchsorted along a dim (NaN largest). */
#include <stdlib.h>
#include <string.h>

#include "aten_lite/cpu/loops.h"
#include "aten_lite/kernel_stubs.h"
#include "aten_lite/ops.h"
#include "aten_lite/parallel.h"
#include "c10_lite/error.h"

/* Note [Sort]
 * Each line along `dim` is loaded into (key, index) pairs in the acc type,
 * merge-sorted (stable: equal keys keep their order, with descending order
 * too) and written back as values and int64 indices.  NaN compares greater
 * than everything, so it goes last ascending and first descending (torch).
 * Lines are independent and run in parallel. */

/* Note [Topk]
 * topk (k < n / 4) selects instead of sorting: quickselect under the total
 * order "key in the requested direction (NaN largest), then index", which
 * puts into a[0..k) exactly the k first pairs of the stable sort; those are
 * put back in index order and stable-sorted, so topk equals sort's first k. */

/* Note [Parallel sort]
 * A line of at least MT__PSORT_MIN entries, when the lines themselves are not
 * already spread over the pool, is cut into MT__PSORT_CHUNKS runs sorted at
 * once, then merged pairwise in rounds (ping-pong between the pair array and
 * its scratch half).  A stable sort has exactly one result, so the chunking
 * (and the thread count) changes nothing but the speed. */
#define MT__PSORT_MIN (1 << 16)
#define MT__PSORT_CHUNKS 8 /* a power of two */
#define MT__CHUNK(n, c) ((n) * (c) / MT__PSORT_CHUNKS)

#define MT__DEF_SORT(E, tn, ct, acc, ...)                                                      \
    typedef struct {                                                                           \
        acc k;                                                                                 \
        int64_t i;                                                                             \
    } mt__pair_##tn;                                                                           \
    static inline int mt__less_##tn(acc a, acc b)                                              \
    {                                                                                          \
        return a < b || (b != b && a == a);                                                    \
    }                                                                                          \
    static void mt__msort_##tn(mt__pair_##tn *a, mt__pair_##tn *tmp, int64_t n, int desc)       \
    {                                                                                          \
        if (n < 2) {                                                                           \
            return;                                                                            \
        }                                                                                      \
        if (n <= 16) { /* insertion sort: stable */                                            \
            for (int64_t i = 1; i < n; i++) {                                                  \
                mt__pair_##tn x = a[i];                                                        \
                int64_t j = i;                                                                 \
                while (j > 0 && (desc ? mt__less_##tn(a[j - 1].k, x.k) : mt__less_##tn(x.k, a[j - 1].k))) { \
                    a[j] = a[j - 1];                                                           \
                    j--;                                                                       \
                }                                                                              \
                a[j] = x;                                                                      \
            }                                                                                  \
            return;                                                                            \
        }                                                                                      \
        int64_t h = n / 2;                                                                     \
        mt__msort_##tn(a, tmp, h, desc);                                                       \
        mt__msort_##tn(a + h, tmp, n - h, desc);                                               \
        memcpy(tmp, a, sizeof(*a) * (size_t)n);                                                \
        int64_t i = 0, j = h, o = 0;                                                           \
        while (i < h && j < n) {                                                               \
            int take_right = desc ? mt__less_##tn(tmp[i].k, tmp[j].k)                          \
                                  : mt__less_##tn(tmp[j].k, tmp[i].k);                         \
            a[o++] = take_right ? tmp[j++] : tmp[i++];                                         \
        }                                                                                      \
        while (i < h) {                                                                        \
            a[o++] = tmp[i++];                                                                 \
        }                                                                                      \
        while (j < n) {                                                                        \
            a[o++] = tmp[j++];                                                                 \
        }                                                                                      \
    }                                                                                          \
    /* stable merge of src[0, n1) and src[n1, n1 + n2) into dst */                             \
    static void mt__merge_##tn(const mt__pair_##tn *src, int64_t n1, int64_t n2,              \
                               mt__pair_##tn *dst, int desc)                                   \
    {                                                                                          \
        int64_t i = 0, j = n1, o = 0, n = n1 + n2;                                             \
        while (i < n1 && j < n) {                                                              \
            int take_right = desc ? mt__less_##tn(src[i].k, src[j].k)                          \
                                  : mt__less_##tn(src[j].k, src[i].k);                         \
            dst[o++] = take_right ? src[j++] : src[i++];                                       \
        }                                                                                      \
        memcpy(dst + o, src + i, sizeof(*src) * (size_t)(n1 - i));                              \
        o += n1 - i;                                                                           \
        memcpy(dst + o, src + j, sizeof(*src) * (size_t)(n - j));                               \
    }                                                                                          \
    typedef struct {                                                                           \
        mt__pair_##tn *src, *dst;                                                              \
        int64_t n, width;                                                                      \
        int desc;                                                                              \
    } mt__psort_job_##tn;                                                                      \
    static void mt__psort_leaf_##tn(void *p, int64_t c, int64_t ce)                            \
    {                                                                                          \
        (void)ce;                                                                              \
        mt__psort_job_##tn *j = p;                                                             \
        int64_t b = MT__CHUNK(j->n, c), e = MT__CHUNK(j->n, c + 1);                            \
        mt__msort_##tn(j->src + b, j->dst + b, e - b, j->desc);                                \
    }                                                                                          \
    static void mt__psort_merge_##tn(void *p, int64_t g, int64_t ge)                           \
    {                                                                                          \
        (void)ge;                                                                              \
        mt__psort_job_##tn *j = p;                                                             \
        int64_t c0 = g * 2 * j->width;                                                         \
        int64_t b = MT__CHUNK(j->n, c0), m = MT__CHUNK(j->n, c0 + j->width);                   \
        int64_t e = MT__CHUNK(j->n, c0 + 2 * j->width);                                        \
        mt__merge_##tn(j->src + b, m - b, e - m, j->dst + b, j->desc);                         \
    }                                                                                          \
    /* See Note [Parallel sort]. */                                                           \
    static void mt__psort_##tn(mt__pair_##tn *a, mt__pair_##tn *tmp, int64_t n, int desc)      \
    {                                                                                          \
        mt__psort_job_##tn j = {.src = a, .dst = tmp, .n = n, .width = 1, .desc = desc};       \
        mt_parallel_chunks(MT__PSORT_CHUNKS, mt__psort_leaf_##tn, &j);                         \
        for (; j.width < MT__PSORT_CHUNKS; j.width *= 2) {                                     \
            mt_parallel_chunks(MT__PSORT_CHUNKS / (2 * j.width), mt__psort_merge_##tn, &j);    \
            mt__pair_##tn *t = j.src;                                                          \
            j.src = j.dst;                                                                     \
            j.dst = t;                                                                         \
        }                                                                                      \
        if (j.src != a) {                                                                      \
            memcpy(a, j.src, sizeof(*a) * (size_t)n);                                          \
        }                                                                                      \
    }                                                                                          \
    static int mt__by_index_##tn(const void *x, const void *y)                                 \
    {                                                                                          \
        int64_t a = ((const mt__pair_##tn *)x)->i, b = ((const mt__pair_##tn *)y)->i;          \
        return (a > b) - (a < b);                                                              \
    }                                                                                          \
    /* total order of Note [Topk]: x goes before y */                                         \
    static inline int mt__before_##tn(const mt__pair_##tn *x, const mt__pair_##tn *y, int desc) \
    {                                                                                          \
        if (desc ? mt__less_##tn(y->k, x->k) : mt__less_##tn(x->k, y->k)) {                    \
            return 1;                                                                          \
        }                                                                                      \
        if (desc ? mt__less_##tn(x->k, y->k) : mt__less_##tn(y->k, x->k)) {                    \
            return 0;                                                                          \
        }                                                                                      \
        return x->i < y->i;                                                                    \
    }                                                                                          \
    /* Moves the first k pairs (in that order) to a[0..k), in any order. */                     \
    static void mt__select_##tn(mt__pair_##tn *a, int64_t n, int64_t k, int desc)              \
    {                                                                                          \
        int64_t lo = 0, hi = n - 1;                                                            \
        while (hi > lo) {                                                                      \
            int64_t mid = lo + (hi - lo) / 2;                                                  \
            /* median of three to a[hi] as the pivot */                                        \
            if (mt__before_##tn(&a[mid], &a[lo], desc)) {                                      \
                mt__pair_##tn t = a[mid]; a[mid] = a[lo]; a[lo] = t;                           \
            }                                                                                  \
            if (mt__before_##tn(&a[hi], &a[lo], desc)) {                                       \
                mt__pair_##tn t = a[hi]; a[hi] = a[lo]; a[lo] = t;                             \
            }                                                                                  \
            if (mt__before_##tn(&a[mid], &a[hi], desc)) {                                      \
                mt__pair_##tn t = a[mid]; a[mid] = a[hi]; a[hi] = t;                           \
            }                                                                                  \
            mt__pair_##tn pv = a[hi];                                                          \
            int64_t st = lo;                                                                   \
            for (int64_t i = lo; i < hi; i++) {                                                \
                if (mt__before_##tn(&a[i], &pv, desc)) {                                       \
                    mt__pair_##tn t = a[i]; a[i] = a[st]; a[st] = t;                           \
                    st++;                                                                      \
                }                                                                              \
            }                                                                                  \
            a[hi] = a[st];                                                                     \
            a[st] = pv;                                                                        \
            if (st == k || st == k - 1) {                                                      \
                return;                                                                        \
            }                                                                                  \
            if (st < k) {                                                                      \
                lo = st + 1;                                                                   \
            }                                                                                  \
            else {                                                                             \
                hi = st - 1;                                                                   \
            }                                                                                  \
        }                                                                                      \
    }                                                                                          \
    static int mt__sort_line_##tn(const char *src, int64_t n, int64_t ss, char *vals,          \
                                  int64_t vs, int64_t *idx, int64_t is, int desc, int64_t k)   \
    {                                                                                          \
        mt__pair_##tn *a = mt_malloc_array(2 * n + 1, sizeof(*a));                             \
        if (a == NULL) {                                                                       \
            return -1;                                                                         \
        }                                                                                      \
        for (int64_t i = 0; i < n; i++) {                                                      \
            a[i].k = (acc)MT_LOAD_##tn(*(const ct *)(src + i * ss));                           \
            a[i].i = i;                                                                        \
        }                                                                                      \
        if (k < n / 4) {                                                                       \
            mt__select_##tn(a, n, k, desc);                                                    \
            qsort(a, (size_t)k, sizeof(*a), mt__by_index_##tn); /* then stable by key */       \
            mt__msort_##tn(a, a + n, k, desc);                                                 \
        }                                                                                      \
        else if (n >= MT__PSORT_MIN && mt_get_num_threads() > 1 && !mt_in_parallel_region()) { \
            mt__psort_##tn(a, a + n, n, desc);                                                 \
        }                                                                                      \
        else {                                                                                 \
            mt__msort_##tn(a, a + n, n, desc);                                                 \
        }                                                                                      \
        for (int64_t i = 0; i < k; i++) {                                                      \
            *(ct *)(vals + i * vs) = *(const ct *)(src + a[i].i * ss);                         \
            idx[i * is] = a[i].i;                                                              \
        }                                                                                      \
        free(a);                                                                               \
        return 0;                                                                              \
    }
MT_L_ALL(MT__DEF_SORT, 0)
MT_L_BAREBONES(MT__DEF_SORT, 0)

typedef int (*mt__sort_fn)(const char *, int64_t, int64_t, char *, int64_t, int64_t *, int64_t, int,
                           int64_t);
static const mt__sort_fn mt__sort_fns[MT_NUM_DTYPES] = {
    mt__sort_line_boolean, mt__sort_line_uint8,   mt__sort_line_int8,     mt__sort_line_int16,
    mt__sort_line_int32,   mt__sort_line_int64,   mt__sort_line_float16,  mt__sort_line_bfloat16,
    mt__sort_line_float32, mt__sort_line_float64,
    [MT_UINT16] = mt__sort_line_uint16, [MT_UINT32] = mt__sort_line_uint32,
    [MT_UINT64] = mt__sort_line_uint64,
};

typedef struct {
    const mt_tensor *in;
    mt_tensor *vals, *idx;
    int dim, desc;
    int64_t k; /* entries kept per line: the line's size for sort, k for topk */
    int failed;
} mt__sort_job;

static void
mt__sort_lines(void *p, int64_t b, int64_t e)
{
    mt__sort_job *j = p;
    const mt_tensor *t = j->in;
    int64_t isz = (int64_t)mt_tensor_itemsize(t);
    for (int64_t line = b; line < e; line++) {
        int64_t rem = line, si = 0, vi = 0, ii = 0;
        for (int d = t->ndim - 1; d >= 0; d--) {
            if (d == j->dim) {
                continue;
            }
            int64_t c = rem % t->sizes[d];
            rem /= t->sizes[d];
            si += c * t->strides[d];
            vi += c * j->vals->strides[d];
            ii += c * j->idx->strides[d];
        }
        int64_t n = t->ndim ? t->sizes[j->dim] : 1;
        int64_t step = t->ndim ? t->strides[j->dim] : 0;
        int64_t vstep = t->ndim ? j->vals->strides[j->dim] : 0;
        int64_t istep = t->ndim ? j->idx->strides[j->dim] : 0;
        if (mt__sort_fns[t->dtype](mt_tensor_data(t) + si * isz, n, step * isz,
                                   mt_tensor_data(j->vals) + vi * isz, vstep * isz,
                                   (int64_t *)mt_tensor_data(j->idx) + ii, istep, j->desc,
                                   j->k) < 0) {
            __atomic_store_n(&j->failed, 1, __ATOMIC_RELAXED);
        }
    }
}

/* Sorts every line along dim and keeps its first k entries (k = size: sort). */
static int
mt__sort_keep(mt_tensor *t, int64_t dim, bool descending, int64_t k, mt_tensor **values,
              mt_tensor **indices)
{
    int (*kernel)(const mt_tensor *, int, bool, int64_t, mt_tensor *, mt_tensor *) =
        MT_STUB(sort, sort, mt_tensor_device(t).type, k < 0 ? "sort" : "topk");
    if (kernel == NULL) {
        return MT_ENOTIMPL;
    }
    if (mt_dtype_is_complex(t->dtype)) { /* complex numbers have no order */
        return mt_error_set(MT_ENOTIMPL, "\"%s_cpu\" not implemented for '%s'", k < 0 ? "sort" : "topk",
                            mt_dtype_scalar_name(t->dtype));
    }
    int d = mt_wrap_dim(dim, t->ndim);
    if (d < 0) {
        return d;
    }
    int64_t n = t->ndim ? t->sizes[d] : 1;
    if (k < 0) {
        k = n;
    }
    if (k > n) {
        return mt_error_set(MT_ERUNTIME, "selected index k out of range");
    }
    int64_t osz[MT_MAX_DIMS];
    memcpy(osz, t->sizes, sizeof(int64_t) * (size_t)t->ndim);
    if (t->ndim) {
        osz[d] = k;
    }
    mt_tensor *v = mt_tensor_empty(t->dtype, t->ndim, osz, mt_tensor_device(t));
    mt_tensor *ix = v ? mt_tensor_empty(MT_INT64, t->ndim, osz, mt_tensor_device(t)) : NULL;
    if (ix == NULL) {
        mt_tensor_decref(v);
        return mt_error_code();
    }
    if (t->ndim == 0) {
        k = 1; /* a 0-d input gives itself (and index 0) for k = 0 too, as torch */
    }
    if (t->numel > 0 && k > 0) {
        int rc = kernel(t, d, descending, k, v, ix);
        if (rc < 0) {
            mt_tensor_decref(v);
            mt_tensor_decref(ix);
            return rc;
        }
    }
    *values = v;
    *indices = ix;
    return MT_OK;
}

/* The cpu sort: lines in parallel, each sorted (or selected: Note [Topk]) into its first k
 * entries of v and ix. */
static int
mt__cpu_sort(const mt_tensor *t, int d, bool descending, int64_t k, mt_tensor *v, mt_tensor *ix)
{
    int64_t n = t->ndim ? t->sizes[d] : 1;
    mt__sort_job job = {.in = t, .vals = v, .idx = ix, .dim = d, .desc = descending, .k = k};
    int64_t lines = t->numel / n;
    mt_parallel_for(0, lines, n >= 4096 ? 1 : 4096 / n + 1, mt__sort_lines, &job);
    if (job.failed) {
        return mt_error_set(MT_ENOMEM, "out of memory in sort");
    }
    return MT_OK;
}

int
mt_sort(mt_tensor *t, int64_t dim, bool descending, mt_tensor **values, mt_tensor **indices)
{
    return mt__sort_keep(t, dim, descending, -1, values, indices);
}

int
mt_topk(mt_tensor *t, int64_t k, int64_t dim, bool largest, mt_tensor **values,
        mt_tensor **indices)
{
    if (k < 0) {
        return mt_error_set(MT_ERUNTIME, "selected index k out of range");
    }
    return mt__sort_keep(t, dim, largest, k, values, indices);
}

/* Note [Searchsorted]
 * Binary search in the acc type.  Left: the first position whose boundary is
 * not below the value (!(b >= v) moves right); right: the first whose boundary
 * is above it (!(b > v) moves right).  Written with negations so that a NaN
 * value lands after every boundary and NaN boundaries (sorted last) behave as
 * the largest value.  With a sorter, boundary i of a line is line[sorter[i]]. */
#define MT__DEF_SEARCH(E, tn, ct, acc, ...)                                                    \
    static void mt__search_##tn(const char *bd, const int64_t *sorter, int64_t n,              \
                                const char *vals, int64_t count, int64_t *out, bool right)     \
    {                                                                                          \
        const ct *b = (const ct *)bd;                                                          \
        for (int64_t e = 0; e < count; e++) {                                                  \
            acc v = (acc)MT_LOAD_##tn(((const ct *)vals)[e]);                                  \
            int64_t lo = 0, hi = n;                                                            \
            while (lo < hi) {                                                                  \
                int64_t mid = lo + ((hi - lo) >> 1);                                           \
                acc m = (acc)MT_LOAD_##tn(b[sorter ? sorter[mid] : mid]);                      \
                if (right ? !(m > v) : !(m >= v)) {                                            \
                    lo = mid + 1;                                                              \
                }                                                                              \
                else {                                                                         \
                    hi = mid;                                                                  \
                }                                                                              \
            }                                                                                  \
            out[e] = lo;                                                                       \
        }                                                                                      \
    }
MT_L_ALL(MT__DEF_SEARCH, 0)

typedef void (*mt__search_fn)(const char *, const int64_t *, int64_t, const char *, int64_t,
                              int64_t *, bool);
static const mt__search_fn mt__search_fns[MT_NUM_DTYPES] = {
    mt__search_boolean, mt__search_uint8,   mt__search_int8,     mt__search_int16,
    mt__search_int32,   mt__search_int64,   mt__search_float16,  mt__search_bfloat16,
    mt__search_float32, mt__search_float64,
};

typedef struct {
    mt__search_fn fn;
    const char *bd, *vals;
    const int64_t *sorter;
    int64_t n, vlast, isz;
    bool per_line, right;
    int64_t *out;
} mt__search_job;

static void
mt__search_range(void *p, int64_t b, int64_t e)
{
    const mt__search_job *j = p;
    while (b < e) {
        /* a run of values that share one boundary line */
        int64_t line = j->per_line ? b / j->vlast : 0;
        int64_t stop = j->per_line && (line + 1) * j->vlast < e ? (line + 1) * j->vlast : e;
        j->fn(j->bd + line * j->n * j->isz, j->sorter ? j->sorter + line * j->n : NULL, j->n,
              j->vals + b * j->isz, stop - b, j->out + b, j->right);
        b = stop;
    }
}

mt_tensor *
mt_searchsorted(const mt_tensor *boundaries, const mt_tensor *values, const mt_tensor *sorter,
                bool right, bool out_int32)
{
    const mt_tensor *ts[3] = {boundaries, values, sorter};
    mt_device_type dev;
    int (*kernel)(const mt_tensor *, const mt_tensor *, const mt_tensor *, bool, mt_tensor *) =
        mt_check_same_device(3, ts, &dev) == MT_OK ? MT_STUB(sort, searchsorted, dev, "searchsorted")
                                                    : NULL;
    if (kernel == NULL) {
        return NULL;
    }
    if (mt_dtype_is_complex(values->dtype) || mt_dtype_is_barebones_unsigned(values->dtype)) {
        mt_error_set(MT_ENOTIMPL, "\"searchsorted_cpu\" not implemented for '%s'",
                     mt_dtype_scalar_name(values->dtype));
        return NULL;
    }
    if (boundaries->ndim == 0 || boundaries->dtype != values->dtype ||
        (sorter != NULL && sorter->dtype != MT_INT64)) {
        mt_error_set(MT_EINVAL, "searchsorted: boundaries must be >= 1-d and of the values' dtype, "
                                "sorter int64");
        return NULL;
    }
    bool per_line = boundaries->ndim > 1;
    if (per_line) {
        bool ok = values->ndim == boundaries->ndim;
        for (int d = 0; ok && d + 1 < boundaries->ndim; d++) {
            ok = values->sizes[d] == boundaries->sizes[d];
        }
        if (!ok) {
            mt_error_set(MT_EINVAL, "searchsorted: leading dims of boundaries and values differ");
            return NULL;
        }
    }
    mt_tensor *bc = mt_contiguous((mt_tensor *)boundaries);
    mt_tensor *vc = bc ? mt_contiguous((mt_tensor *)values) : NULL;
    mt_tensor *sc = vc && sorter ? mt_contiguous((mt_tensor *)sorter) : NULL;
    mt_tensor *o = vc && (sorter == NULL || sc != NULL)
                       ? mt_tensor_empty(MT_INT64, values->ndim, values->sizes,
                                         mt_tensor_device(values))
                       : NULL;
    if (o != NULL && values->numel > 0 && kernel(bc, vc, sc, right, o) < 0) {
        mt_tensor_decref(o);
        o = NULL;
    }
    mt_tensor_decref(bc);
    mt_tensor_decref(vc);
    mt_tensor_decref(sc);
    if (o != NULL && out_int32) {
        mt_tensor *o32 = mt_to_dtype(o, MT_INT32, false);
        mt_tensor_decref(o);
        o = o32;
    }
    return o;
}

/* The cpu searchsorted (Note [Searchsorted]): bc, vc, sc contiguous, checked; o int64. */
static int
mt__cpu_searchsorted(const mt_tensor *bc, const mt_tensor *vc, const mt_tensor *sc, bool right,
                     mt_tensor *o)
{
    mt__search_job job = {
        .fn = mt__search_fns[vc->dtype],
        .bd = mt_tensor_data(bc),
        .vals = mt_tensor_data(vc),
        .sorter = sc ? (const int64_t *)mt_tensor_data(sc) : NULL,
        .n = bc->sizes[bc->ndim - 1],
        .vlast = vc->ndim ? vc->sizes[vc->ndim - 1] : 1,
        .isz = (int64_t)mt_tensor_itemsize(vc),
        .per_line = bc->ndim > 1,
        .right = right,
        .out = (int64_t *)mt_tensor_data(o),
    };
    mt_parallel_for(0, vc->numel, 2048, mt__search_range, &job);
    return MT_OK;
}

static const mt_sort_kernels mt__cpu_sort_kernels = {
    .sort = mt__cpu_sort,
    .searchsorted = mt__cpu_searchsorted,
};

void
mt__cpu_sort_register(void)
{
    MT_REGISTER_STUB(sort, MT_CPU, &mt__cpu_sort_kernels);
}
