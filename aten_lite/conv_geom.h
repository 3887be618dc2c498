/* aten_lite/conv_geom.h - a convolution's geometry: what conv.c hands to a device's convolution kernels. */
#ifndef ATEN_LITE_CONV_GEOM_H
#define ATEN_LITE_CONV_GEOM_H

#include <stdbool.h>
#include <stdint.h>

#include "c10_lite/tensor_impl.h"

/* Everything the kernels need, derived once from the (checked) arguments;
 * see Note [Convolution as GEMM] in conv.c for the three axes. */
typedef struct mt__conv_geom {
    int64_t n, c, cout;          /* images; input and output channels */
    int64_t in[3], k[3], out[3]; /* input, kernel and output extents */
    int64_t s[3], pad[3], dil[3];
    int64_t groups, cg, coutg;   /* groups; channels per group */
    int64_t inplane;             /* in[0] * in[1] * in[2] */
    int64_t kk, p;               /* rows and columns of col */
    bool direct;                 /* the image is its own col: no im2col */
} mt__conv_geom;

/* Column tiles of about this many bytes, of at least MT__CONV_TILE_MIN
 * positions (Note [Column tiles] in conv.c). */
#define MT__CONV_TILE_BYTES ((int64_t)384 << 10)
#define MT__CONV_TILE_MIN 256

/* gx (n x c x in, contiguous, every element written) = the geometry's
 * input gradient for gy (n x cout x out), plus bias (c values, or NULL) on
 * each channel; gy, w, bias and gx contiguous float32/float64 of one dtype.
 * See Note [grad_input by phases].  0 or an error (MT_ENOMEM). */
int mt__conv_grad_input_phases(const mt__conv_geom *g, const mt_tensor *gy, const mt_tensor *w,
                               const mt_tensor *bias, mt_tensor *gx);

#endif /* ATEN_LITE_CONV_GEOM_H */
