/* aten_lite/softmax.c - softmax and log_softmax along the last dimension (Note [Fused softmax]). */
#include "aten_lite/softmax.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

#include "aten_lite/cpu/expf.h"
#include "aten_lite/cpu/reduce_kernels.h"
#include "aten_lite/cpu/loops.h"
#include "aten_lite/kernel_stubs.h"
#include "aten_lite/ops.h"
#include "aten_lite/parallel.h"
#include "c10_lite/error.h"

typedef struct {
    const char *x;
    char *out;
    int64_t len; /* elements per row */
    bool log;
} mt__softmax_job;

MT_WIDE_CLONES void
mt_exp_shift_f32(float *e, const float *x, float m, int64_t n)
{
    int tiny = 0;
    for (int64_t i = 0; i < n; i++) {
        float t = x[i] - m;
        tiny |= t < MT__EXPF_SUBNORMAL;
        e[i] = mt__expf_core(t);
    }
    for (int64_t i = 0; tiny && i < n; i++) {
        if (x[i] - m < MT__EXPF_SUBNORMAL) {
            e[i] = expf(x[i] - m);
        }
    }
}

static void
mt__exp_shift_f64(double *restrict e, const double *restrict x, double m, int64_t n)
{
    for (int64_t i = 0; i < n; i++) {
        e[i] = exp(x[i] - m);
    }
}

#define MT__SOFTMAX_BLOCK 256

/* Note [Row max and sum in 8 lanes]
 * A row's max (NaN if any element is NaN; for float32 the reduction's mt_cpu_max_f32, Note
 * [Vectorised float max]) and the sum of its exps are 8-lane reductions: lane k
 * takes the elements at k mod 8, and the lanes are combined as ((0+1)+(2+3))+((4+5)+(6+7)).
 * The compiler does not vectorise them written with arrays (a select chain with a NaN flag), so
 * for float32 they are written with vector types (GCC/Clang vector extensions, lowered to
 * whatever width the clone has); float64 keeps the plain form.  Both give the same results. */
typedef float mt__v8sf __attribute__((vector_size(32)));

/* adds e[0..w) into the lanes s (element q into lane q mod 8) */
MT_SIMD_CLONES static void
mt__lanesum_f32(float *s, const float *e, int64_t w)
{
    mt__v8sf acc;
    memcpy(&acc, s, sizeof(acc));
    int64_t q = 0;
    for (; q + 8 <= w; q += 8) {
        mt__v8sf v;
        memcpy(&v, e + q, sizeof(v));
        acc += v;
    }
    memcpy(s, &acc, sizeof(acc));
    for (; q < w; q++) {
        s[q & 7] += e[q];
    }
}

static double
mt__rowmax_f64(const double *x, int64_t n)
{
    double m8[8];
    int nan8[8] = {0};
    for (int k = 0; k < 8; k++) {
        m8[k] = -INFINITY;
    }
    int64_t i = 0;
    for (; i + 8 <= n; i += 8) {
        for (int k = 0; k < 8; k++) {
            double v = x[i + k];
            m8[k] = v > m8[k] ? v : m8[k];
            nan8[k] |= v != v;
        }
    }
    double m = m8[0];
    int nan = nan8[0];
    for (int k = 1; k < 8; k++) {
        m = m8[k] > m ? m8[k] : m;
        nan |= nan8[k];
    }
    for (; i < n; i++) {
        m = x[i] > m ? x[i] : m;
        nan |= x[i] != x[i];
    }
    return nan ? NAN : m;
}

static void
mt__lanesum_f64(double *s, const double *e, int64_t w)
{
    int64_t q = 0;
    for (; q + 8 <= w; q += 8) {
        for (int k = 0; k < 8; k++) {
            s[k] += e[q + k];
        }
    }
    for (; q < w; q++) {
        s[q & 7] += e[q];
    }
}

/* The rows [begin, end) of one element type T (EXPS its exp_shift, LOG its log, ROWMAX and
 * LANESUM: Note [Row max and sum in 8 lanes]). */
#define MT__SOFTMAX_ROWS(T, EXPS, LOG, ROWMAX, LANESUM, NAME)                                     \
    MT_SIMD_CLONES static void NAME(void *ctx, int64_t begin, int64_t end)                        \
    {                                                                                             \
        const mt__softmax_job *j = ctx;                                                           \
        int64_t n = j->len;                                                                       \
        T tmp[MT__SOFTMAX_BLOCK];                                                                 \
        for (int64_t r = begin; r < end; r++) {                                                   \
            const T *restrict x = (const T *)j->x + r * n;                                        \
            T *restrict y = (T *)j->out + r * n;                                                  \
            T m = ROWMAX(x, n);                                                                   \
            /* exp(x - max) block by block (into y for softmax), summed in 8 lanes */            \
            _Alignas(32) T s8[8] = {0};                                                           \
            for (int64_t b = 0; b < n; b += MT__SOFTMAX_BLOCK) {                                  \
                int64_t w = n - b < MT__SOFTMAX_BLOCK ? n - b : MT__SOFTMAX_BLOCK;                \
                T *e = j->log ? tmp : y + b;                                                      \
                EXPS(e, x + b, m, w);                                                             \
                LANESUM(s8, e, w);                                                                \
            }                                                                                     \
            T s = ((s8[0] + s8[1]) + (s8[2] + s8[3])) + ((s8[4] + s8[5]) + (s8[6] + s8[7]));     \
            if (j->log) {                                                                         \
                T ls = LOG(s);                                                                    \
                for (int64_t i = 0; i < n; i++) {                                                 \
                    y[i] = (x[i] - m) - ls;                                                       \
                }                                                                                 \
            }                                                                                     \
            else {                                                                                \
                for (int64_t i = 0; i < n; i++) {                                                 \
                    y[i] = y[i] / s;                                                              \
                }                                                                                 \
            }                                                                                     \
        }                                                                                         \
    }

MT__SOFTMAX_ROWS(float, mt_exp_shift_f32, logf, mt_cpu_max_f32, mt__lanesum_f32,
                 mt__softmax_rows_f32)
MT__SOFTMAX_ROWS(double, mt__exp_shift_f64, log, mt__rowmax_f64, mt__lanesum_f64,
                 mt__softmax_rows_f64)

int
mt__cpu_softmax_lastdim(const mt_tensor *x, mt_tensor *out, bool log)
{
    int64_t len = x->sizes[x->ndim - 1], rows = x->numel / len;
    mt__softmax_job j = {.x = mt_tensor_data(x), .out = mt_tensor_data(out), .len = len,
                         .log = log};
    mt_parallel_for(0, rows, MT_GRAIN_SIZE / len + 1,
                    x->dtype == MT_FLOAT32 ? mt__softmax_rows_f32 : mt__softmax_rows_f64, &j);
    return MT_OK;
}

mt_tensor *
mt_softmax_lastdim(const mt_tensor *x, bool log)
{
    int (*kernel)(const mt_tensor *, mt_tensor *, bool) =
        MT_STUB_TRY(norm, softmax_lastdim, mt_tensor_device(x).type);
    if ((x->dtype != MT_FLOAT32 && x->dtype != MT_FLOAT64) || !x->contiguous || x->ndim < 1 ||
        x->sizes[x->ndim - 1] == 0 || kernel == NULL) {
        mt_error_set(MT_EINVAL, "fused softmax: a contiguous float32/float64 tensor with a "
                     "non-empty last dimension, on a device with the kernel");
        return NULL;
    }
    mt_tensor *out = mt_empty_like(x, x->dtype);
    if (out != NULL && kernel(x, out, log) < 0) {
        mt_tensor_decref(out);
        return NULL;
    }
    return out;
}

/* ---- the derivatives (Note [Fused softmax backward]) ------------------------------------------ */

typedef struct {
    const char *g, *y;
    char *out;
    int64_t len;
    bool log;
} mt__softmax_bw_job;

/* softmax: y (g - sum(g y)); log_softmax: g - exp(y) sum(g), per row; sums in 8 lanes */
#define MT__SOFTMAX_BW_ROWS(T, CORE, EXP, LOW, NAME)                                                         \
    MT_SIMD_CLONES static void NAME(void *ctx, int64_t begin, int64_t end)                        \
    {                                                                                             \
        const mt__softmax_bw_job *j = ctx;                                                        \
        int64_t n = j->len;                                                                       \
        for (int64_t r = begin; r < end; r++) {                                                   \
            const T *restrict g = (const T *)j->g + r * n;                                        \
            const T *restrict y = (const T *)j->y + r * n;                                        \
            T *restrict o = (T *)j->out + r * n;                                                  \
            T s8[8] = {0};                                                                        \
            int64_t i = 0;                                                                        \
            if (j->log) {                                                                         \
                for (; i + 8 <= n; i += 8) {                                                      \
                    for (int k = 0; k < 8; k++) {                                                 \
                        s8[k] += g[i + k];                                                        \
                    }                                                                             \
                }                                                                                 \
                for (; i < n; i++) {                                                              \
                    s8[i & 7] += g[i];                                                            \
                }                                                                                 \
            }                                                                                     \
            else {                                                                                \
                for (; i + 8 <= n; i += 8) {                                                      \
                    for (int k = 0; k < 8; k++) {                                                 \
                        s8[k] += g[i + k] * y[i + k];                                             \
                    }                                                                             \
                }                                                                                 \
                for (; i < n; i++) {                                                              \
                    s8[i & 7] += g[i] * y[i];                                                     \
                }                                                                                 \
            }                                                                                     \
            T s = ((s8[0] + s8[1]) + (s8[2] + s8[3])) + ((s8[4] + s8[5]) + (s8[6] + s8[7]));     \
            if (j->log) {                                                                         \
                /* the branch-free exp, then the (rare) lanes below LOW redone exactly */         \
                int tiny = 0;                                                                     \
                for (i = 0; i < n; i++) {                                                         \
                    tiny |= y[i] < (LOW);                                                         \
                    o[i] = g[i] - CORE(y[i]) * s;                                                 \
                }                                                                                 \
                for (i = 0; tiny && i < n; i++) {                                                 \
                    if (y[i] < (LOW)) {                                                           \
                        o[i] = g[i] - EXP(y[i]) * s;                                              \
                    }                                                                             \
                }                                                                                 \
            }                                                                                     \
            else {                                                                                \
                for (i = 0; i < n; i++) {                                                         \
                    o[i] = y[i] * (g[i] - s);                                                     \
                }                                                                                 \
            }                                                                                     \
        }                                                                                         \
    }

MT__SOFTMAX_BW_ROWS(float, mt__expf_core, expf, MT__EXPF_SUBNORMAL, mt__softmax_bw_rows_f32)
MT__SOFTMAX_BW_ROWS(double, exp, exp, -INFINITY, mt__softmax_bw_rows_f64)

int
mt__cpu_softmax_backward_lastdim(const mt_tensor *grad, const mt_tensor *y, mt_tensor *out,
                                 bool log)
{
    int64_t len = y->ndim ? y->sizes[y->ndim - 1] : 1;
    int64_t rows = y->numel / len;
    mt__softmax_bw_job j = {.g = mt_tensor_data(grad), .y = mt_tensor_data(y),
                            .out = mt_tensor_data(out), .len = len, .log = log};
    mt_parallel_for(0, rows, MT_GRAIN_SIZE / len + 1,
                    y->dtype == MT_FLOAT32 ? mt__softmax_bw_rows_f32 : mt__softmax_bw_rows_f64, &j);
    return MT_OK;
}

mt_tensor *
mt_softmax_backward_lastdim(const mt_tensor *grad, const mt_tensor *y, bool log)
{
    mt_device_type dev = MT_CPU;
    int (*kernel)(const mt_tensor *, const mt_tensor *, mt_tensor *, bool) =
        mt_check_same_device2(grad, y, &dev) == MT_OK
            ? MT_STUB_TRY(norm, softmax_backward_lastdim, dev)
            : NULL;
    if ((y->dtype != MT_FLOAT32 && y->dtype != MT_FLOAT64) || grad->dtype != y->dtype ||
        !y->contiguous || !grad->contiguous || y->ndim < 1 || grad->ndim != y->ndim ||
        kernel == NULL) {
        mt_error_set(MT_EINVAL, "fused softmax backward: contiguous float32/float64 tensors "
                     "of one dtype and device, a device with the kernel");
        return NULL;
    }
    for (int d = 0; d < y->ndim; d++) {
        if (grad->sizes[d] != y->sizes[d]) {
            mt_error_set(MT_EINVAL, "fused softmax backward: the gradient's shape differs");
            return NULL;
        }
    }
    mt_tensor *out = mt_empty_like(y, y->dtype);
    if (out == NULL || y->numel == 0) {
        return out;
    }
    if (kernel(grad, y, out, log) < 0) {
        mt_tensor_decref(out);
        return NULL;
    }
    return out;
}
