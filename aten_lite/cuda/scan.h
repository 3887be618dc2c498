/* aten_lite/cuda/scan.h - the launcher of the CUDA scans (aten_lite/cuda/scan.cu), as the C side
 * (aten_lite/cuda/scan.c) calls it. */
#ifndef ATEN_LITE_CUDA_SCAN_H
#define ATEN_LITE_CUDA_SCAN_H

#include <stdint.h>

#include "aten_lite/cuda/dev_dtype.h"

#ifdef __cplusplus
extern "C" {
#endif

#define MT_CUDA_SCAN_DIMS 64 /* MT_MAX_DIMS */

/* The ops, with mt_scan_op's values (asserted by the C side). */
typedef enum {
    MT_CUDA_SCAN_SUM,
    MT_CUDA_SCAN_PROD,
    MT_CUDA_SCAN_MAX,
    MT_CUDA_SCAN_MIN,
    MT_CUDA_SCAN_LOGSUMEXP,
} mt_cuda_scan_op;

/* `lines` lines of n elements: element strides along the line (sin in the input, sout in the
 * output and the indices) and of the nd other dims; all in elements. */
typedef struct mt_cuda_scan_geom {
    int64_t n, sin, sout, lines;
    int nd;
    int64_t sz[MT_CUDA_SCAN_DIMS], stin[MT_CUDA_SCAN_DIMS], stout[MT_CUDA_SCAN_DIMS];
} mt_cuda_scan_geom;

/* Whether the kernels scan dtype in with op. */
int mt_cuda_scan_supported(mt_cuda_scan_op op, mt_cuda_dtype in);
/* dst (int64 for sums and products of integers, else in's dtype) and, for max/min, idx
 * (int64, dst's layout) <- the scan of src over g, queued on stream of device.  0, or a
 * negative code with the message set. */
int mt_cuda_scan(int device, void *stream, mt_cuda_scan_op op, mt_cuda_dtype in,
                 const mt_cuda_scan_geom *g, const char *src, char *dst, int64_t *idx);

#ifdef __cplusplus
}
#endif

#endif /* ATEN_LITE_CUDA_SCAN_H */
