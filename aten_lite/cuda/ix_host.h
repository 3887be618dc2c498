/* aten_lite/cuda/ix_host.h - host-side helpers of the CUDA index and sort entries
 * (aten_lite/cuda/index.c, aten_lite/cuda/sort.c). */
#ifndef ATEN_LITE_CUDA_IX_HOST_H
#define ATEN_LITE_CUDA_IX_HOST_H

#include "aten_lite/cuda/index.h"
#include "c10_lite/tensor_impl.h"

/* The kernels' element type of dt. */
mt_cuda_dt mt__ix_dt(mt_dtype dt);
/* A one-element int64 tensor on device d holding INT64_MAX: the "first bad position" of a
 * device-side check (Note [CUDA index kernels]).  New reference, or NULL. */
mt_tensor *mt__ix_bad_slot(mt_device d);
/* t on device d: t itself (a new reference) when it is there, else a contiguous copy (new
 * reference), or NULL. */
mt_tensor *mt__ix_on_device(mt_tensor *t, mt_device d);

#endif /* ATEN_LITE_CUDA_IX_HOST_H */
