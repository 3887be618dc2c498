/* aten_lite/cuda/sequence.h - the launcher of the CUDA arange / linspace kernel
 * (aten_lite/cuda/sequence.cu), as the C side (aten_lite/cuda/sequence.c) calls it. */
#ifndef ATEN_LITE_CUDA_SEQUENCE_H
#define ATEN_LITE_CUDA_SEQUENCE_H

#include <stdint.h>

#include "aten_lite/cuda/dev_dtype.h"

#ifdef __cplusplus
extern "C" {
#endif

/* mt_sequence (kernel_stubs.h) for the kinds computed on the device; kind: 0 an int64 arange,
 * 1 a double arange, 2 a linspace. */
typedef struct mt_cuda_sequence {
    int kind;
    double start, step, end;
    int64_t steps, start_i, step_i;
} mt_cuda_sequence;

/* dst[0, n) (contiguous, dtype dt) <- the sequence's elements, queued on stream of device. */
int mt_cuda_sequence_fill(int device, void *stream, mt_cuda_dtype dt, const mt_cuda_sequence *s,
                          char *dst, int64_t n);

#ifdef __cplusplus
}
#endif

#endif /* ATEN_LITE_CUDA_SEQUENCE_H */
