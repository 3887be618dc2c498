/* aten_lite/upsample.h - resampling of 1 to 3 spatial dims (nearest, linear, cubic, antialiased), forward and backward. */
#ifndef ATEN_LITE_UPSAMPLE_H
#define ATEN_LITE_UPSAMPLE_H

#include <stdbool.h>
#include <stdint.h>

#include "c10_lite/tensor_impl.h"

/* Conventions as aten_lite/ops.h: tensor arguments are borrowed; results are
 * new contiguous tensors the caller owns, or NULL with the thread-local
 * message set (torch's messages for bad arguments).  float32 and float64
 * are computed natively, float16/bfloat16 in float32 and rounded once; the
 * nearest modes also copy uint8.  Nothing here touches Python. */

#define MT_UPSAMPLE_MAX_SPATIAL 3

typedef enum mt_upsample_mode {
    MT_UPSAMPLE_NEAREST,       /* torch's 'nearest' (floor(o * scale)) */
    MT_UPSAMPLE_NEAREST_EXACT, /* 'nearest-exact' (floor((o + 0.5) * scale)) */
    MT_UPSAMPLE_LINEAR,        /* 'linear', 'bilinear', 'trilinear' */
    MT_UPSAMPLE_CUBIC,         /* 'bicubic' */
    MT_UPSAMPLE_LANCZOS,       /* 'lanczos' (antialiased only) */
} mt_upsample_mode;

/* One resampling of the last nsp dims of an (N, C, *spatial) tensor to the
 * sizes out: scales[i] > 0 is the user's scale factor of axis i (then the
 * source position of output o is computed from it, as torch does when
 * recompute_scale_factor is off), 0 or less means none (in / out).
 * antialias (linear, cubic, lanczos) filters with a support that grows with
 * the downscaling factor, as PIL does. */
typedef struct mt_upsample_params {
    int nsp;
    mt_upsample_mode mode;
    bool align_corners;
    bool antialias;
    int64_t out[MT_UPSAMPLE_MAX_SPATIAL];
    double scales[MT_UPSAMPLE_MAX_SPATIAL];
} mt_upsample_params;

/* The resampled input (N, C, *out). */
mt_tensor *mt_upsample(mt_tensor *input, const mt_upsample_params *p);

/* The gradient of mt_upsample with respect to an input of input_sizes
 * (ndim = nsp + 2 values), given grad_output (N, C, *out): the transposed
 * resampling, itself linear.  Floating dtypes. */
mt_tensor *mt_upsample_backward(mt_tensor *grad_output, int ndim, const int64_t *input_sizes,
                                const mt_upsample_params *p);

#endif /* ATEN_LITE_UPSAMPLE_H */
