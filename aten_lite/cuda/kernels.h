/* aten_lite/cuda/kernels.h - the launchers of the CUDA kernels (aten_lite/cuda/ *.cu), as the C
 * side (aten_lite/cuda/register.c) calls them: plain structs, no runtime types. */
#ifndef ATEN_LITE_CUDA_KERNELS_H
#define ATEN_LITE_CUDA_KERNELS_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define MT_CUDA_MAX_OPERANDS 4
#define MT_CUDA_GEOM_DIMS 64 /* MT_MAX_DIMS */

/* Note [Launch geometry]
 * A kernel over the elements of an iterator (aten_lite/iter.h) gets its geometry by value:
 * dims innermost first, byte strides per operand (outputs first; 0 for a broadcast dim).
 * Element i's offsets are found by dividing i by the sizes, innermost first, as the CPU
 * iterator walks them; `contiguous` (one dim, every operand's stride its itemsize or 0) lets
 * the kernels skip the division. */
typedef struct mt_cuda_geom {
    int ndim;
    int noperands;
    int contiguous;
    int64_t numel;
    int64_t shape[MT_CUDA_GEOM_DIMS];
    int64_t strides[MT_CUDA_GEOM_DIMS][MT_CUDA_MAX_OPERANDS];
} mt_cuda_geom;

/* Each launcher runs on `device` (the runtime's current device is restored after), queued on
 * `stream` (NULL: the default stream), and returns 0 or MT_ERUNTIME with "CUDA error: ..."
 * (the launch failed: cudaGetLastError after it). */

/* dst (operand 0) <- src (operand 1), elements of itemsize bytes (1, 2, 4, 8 or 16). */
int mt_cuda_strided_copy(int device, void *stream, const mt_cuda_geom *g, char *dst,
                         const char *src, int itemsize);
/* dst (operand 0) <- pattern (itemsize bytes, host memory read before the call returns). */
int mt_cuda_strided_fill(int device, void *stream, const mt_cuda_geom *g, char *dst,
                         const void *pattern, int itemsize);
#ifdef __cplusplus
}
#endif

#endif /* ATEN_LITE_CUDA_KERNELS_H */
