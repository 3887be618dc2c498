/* aten_lite/cuda/random.h - the launchers of the CUDA random kernels (aten_lite/cuda/random.cu),
 * as the C side (aten_lite/cuda/random.c) calls them. */
#ifndef ATEN_LITE_CUDA_RANDOM_H
#define ATEN_LITE_CUDA_RANDOM_H

#include <stdint.h>

#include "aten_lite/cuda/dev_dtype.h"

#ifdef __cplusplus
extern "C" {
#endif

/* mt_random_job (aten_lite/random.h) without its C-only parts; dist: mt_rand_dist's value. */
typedef struct mt_cuda_random_job {
    int dist;
    int integral, wide, ints, mbits;
    uint64_t key, base;
    double a, b, log_q;
    int64_t from;
    uint64_t range;
    const double *p; /* device memory: one probability per element, or NULL */
} mt_cuda_random_job;

/* dst[0, n) (contiguous, dtype dt) <- draws 0..n-1 of the job, queued on stream of device. */
int mt_cuda_random_fill(int device, void *stream, mt_cuda_dtype dt, const mt_cuda_random_job *j,
                        char *dst, int64_t n);
/* *flag (device memory, zeroed by the caller) <- 1 when some p[i], i < n, is outside [0, 1]. */
int mt_cuda_check_probabilities(int device, void *stream, const double *p, int64_t n, int *flag);

#ifdef __cplusplus
}
#endif

#endif /* ATEN_LITE_CUDA_RANDOM_H */
