/* aten_lite/cpu/reduce_kernels.h - the per (op, dtype) reduction kernel interface. */
#ifndef ATEN_LITE_CPU_REDUCE_KERNELS_H
#define ATEN_LITE_CPU_REDUCE_KERNELS_H

#include <stdint.h>

#include "aten_lite/cpu/loops.h"

typedef enum mt_reduce_op {
    MT_REDUCE_SUM,
    MT_REDUCE_PROD,
    MT_REDUCE_MAX,
    MT_REDUCE_MIN,
    MT_REDUCE_ALL,
    MT_REDUCE_ANY,
    MT_REDUCE_ARGMAX,
    MT_REDUCE_ARGMIN,
    MT_NUM_REDUCE_OPS
} mt_reduce_op;

/* Every accumulator fits in this many bytes (value + index for arg ops). */
#define MT_REDUCE_ACC_SIZE 16
/* Column tiles are at most this wide. */
#define MT_REDUCE_COLS_MAX 64

/* A reduction over one input dtype.  `base` is the index of the first
 * element in the reduced range (used by argmax/argmin).  All byte strides. */
typedef struct mt_reduce_kernel {
    void (*init)(void *acc);
    /* acc = reduce(p[0], p[s], ..., p[(n-1)s]), n >= 1 */
    void (*vec)(void *acc, const char *p, int64_t n, int64_t s, int64_t base);
    /* acc[j] = reduce over rows r < nrows of p[r*rs + j*cs], j < W <= 64;
     * acc[j] lives at acc + j * MT_REDUCE_ACC_SIZE */
    void (*cols)(void *acc, const char *p, int64_t nrows, int64_t rs, int64_t W, int64_t cs,
                 int64_t base);
    void (*combine)(void *acc, const void *other);
    /* writes the result in the op's output dtype (mt_reduce_out_dtype) */
    void (*store)(char *out, const void *acc);
} mt_reduce_kernel;

const mt_reduce_kernel *mt_cpu_reduce_kernel(mt_reduce_op op, mt_dtype dt);
/* The max of x[0..n) (contiguous float32, n >= 0; -inf for n = 0), NaN if any element is NaN
 * (Note [Vectorised float max]). */
float mt_cpu_max_f32(const float *x, int64_t n);
mt_dtype mt_reduce_out_dtype(mt_reduce_op op, mt_dtype in);

#endif /* ATEN_LITE_CPU_REDUCE_KERNELS_H */
