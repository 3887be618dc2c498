/* aten_lite/distance.c - p-norm distances between rows (cdist's direct kernel). */
#include "aten_lite/distance.h"

#include <math.h>

#include "aten_lite/kernel_stubs.h"
#include "aten_lite/ops.h"
#include "aten_lite/parallel.h"
#include "c10_lite/error.h"

/* Note [cdist kernel]
 * One pass over the pairs of rows, each distance accumulated over the M coordinates in the
 * element type (as torch accumulates float32 in float32), the rows of x1 split over the pool.
 * The norm's kind is chosen once per call: counting (p = 0), |d| (1), d^2 then a square root
 * (2), max |d| (inf), |d|^p then a p-th root (other p).  Euclidean distances of many rows go
 * through a matrix product in Python instead (_distance.py). */
enum { MT__CD_ZERO, MT__CD_ONE, MT__CD_TWO, MT__CD_INF, MT__CD_P };

typedef struct {
    const char *x1, *x2;
    char *out;
    int64_t n1, n2, m;
    double p;
    int kind;
} mt__cdist_job;

#define MT__CDIST_RANGE(T, POW, SQRT, FABS)                                                      \
    static void mt__cdist_range_##T(void *vctx, int64_t begin, int64_t end)                     \
    {                                                                                            \
        const mt__cdist_job *j = (const mt__cdist_job *)vctx;                                    \
        const T *x1 = (const T *)j->x1, *x2 = (const T *)j->x2;                                  \
        T *out = (T *)j->out;                                                                    \
        const int64_t n1 = j->n1, n2 = j->n2, m = j->m;                                          \
        const T p = (T)j->p, inv = (T)(1.0 / j->p);                                              \
        for (int64_t r = begin; r < end; r++) {                                                  \
            const int64_t b = r / n1;                                                            \
            const T *a = x1 + r * m;                                                             \
            const T *rows = x2 + b * n2 * m;                                                     \
            T *o = out + r * n2;                                                                 \
            for (int64_t c = 0; c < n2; c++) {                                                   \
                const T *v = rows + c * m;                                                       \
                T acc = 0;                                                                       \
                switch (j->kind) {                                                               \
                case MT__CD_ZERO:                                                                \
                    for (int64_t k = 0; k < m; k++) {                                            \
                        acc += a[k] != v[k];                                                     \
                    }                                                                            \
                    break;                                                                       \
                case MT__CD_ONE:                                                                 \
                    for (int64_t k = 0; k < m; k++) {                                            \
                        acc += FABS(a[k] - v[k]);                                                \
                    }                                                                            \
                    break;                                                                       \
                case MT__CD_TWO:                                                                 \
                    for (int64_t k = 0; k < m; k++) {                                            \
                        const T d = a[k] - v[k];                                                 \
                        acc += d * d;                                                            \
                    }                                                                            \
                    acc = SQRT(acc);                                                             \
                    break;                                                                       \
                case MT__CD_INF:                                                                 \
                    for (int64_t k = 0; k < m; k++) {                                            \
                        const T d = FABS(a[k] - v[k]);                                           \
                        acc = (d > acc || d != d) ? d : acc;                                     \
                    }                                                                            \
                    break;                                                                       \
                default:                                                                         \
                    for (int64_t k = 0; k < m; k++) {                                            \
                        acc += POW(FABS(a[k] - v[k]), p);                                        \
                    }                                                                            \
                    acc = POW(acc, inv);                                                         \
                    break;                                                                       \
                }                                                                                \
                o[c] = acc;                                                                      \
            }                                                                                    \
        }                                                                                        \
    }
MT__CDIST_RANGE(float, powf, sqrtf, fabsf)
MT__CDIST_RANGE(double, pow, sqrt, fabs)

/* The cpu cdist (Note [cdist kernel]): a, b contiguous (B, P, M) and (B, R, M). */
int
mt__cpu_cdist(const mt_tensor *a, const mt_tensor *b, double p, mt_tensor *out)
{
    mt__cdist_job job = {
        .x1 = mt_tensor_data(a),
        .x2 = mt_tensor_data(b),
        .out = mt_tensor_data(out),
        .n1 = a->sizes[1],
        .n2 = b->sizes[1],
        .m = a->sizes[2],
        .p = p,
        .kind = p == 0 ? MT__CD_ZERO : p == 1 ? MT__CD_ONE : p == 2 ? MT__CD_TWO
              : isinf(p) ? MT__CD_INF : MT__CD_P,
    };
    const int64_t work = job.n2 * (job.m > 0 ? job.m : 1);
    const int64_t grain = MT_GRAIN_SIZE / (work > 0 ? work : 1) + 1;
    mt_parallel_for(0, a->sizes[0] * a->sizes[1], grain,
                    a->dtype == MT_FLOAT32 ? mt__cdist_range_float : mt__cdist_range_double, &job);
    return MT_OK;
}

mt_tensor *
mt_cdist(mt_tensor *x1, mt_tensor *x2, double p)
{
    if (x1->ndim != 3 || x2->ndim != 3 || x1->sizes[0] != x2->sizes[0] ||
        x1->sizes[2] != x2->sizes[2]) {
        mt_error_set(MT_ERUNTIME, "cdist: expected (B, P, M) and (B, R, M) operands");
        return NULL;
    }
    if (x1->dtype != x2->dtype || (x1->dtype != MT_FLOAT32 && x1->dtype != MT_FLOAT64)) {
        mt_error_set(MT_ERUNTIME, "cdist: expected two float32 or two float64 operands");
        return NULL;
    }
    if (!(p >= 0)) {
        mt_error_set(MT_ERUNTIME, "cdist only supports non-negative p values");
        return NULL;
    }
    mt_device_type dev;
    int (*kernel)(const mt_tensor *, const mt_tensor *, double, mt_tensor *) =
        mt_check_same_device2(x1, x2, &dev) == MT_OK ? MT_STUB(gemm, cdist, dev, "_cdist_forward")
                                                      : NULL;
    if (kernel == NULL) {
        return NULL;
    }
    mt_tensor *a = mt_contiguous(x1);
    mt_tensor *b = a != NULL ? mt_contiguous(x2) : NULL;
    const int64_t sizes[3] = {x1->sizes[0], x1->sizes[1], x2->sizes[1]};
    mt_tensor *out = b != NULL ? mt_tensor_empty(x1->dtype, 3, sizes, mt_tensor_device(x1)) : NULL;
    if (out != NULL && out->numel > 0 && kernel(a, b, p, out) < 0) {
        mt_tensor_decref(out);
        out = NULL;
    }
    mt_tensor_decref(a);
    mt_tensor_decref(b);
    return out;
}
