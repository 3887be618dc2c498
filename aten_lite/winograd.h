/* aten_lite/winograd.h - 3x3 stride-1 convolution by Winograd's F(2x2, 3x3) (private to conv.c). */
#ifndef ATEN_LITE_WINOGRAD_H
#define ATEN_LITE_WINOGRAD_H

#include <stdbool.h>
#include <stdint.h>

/* One convolution: x (n, c, h, w) and y (n, cout, oh, ow) contiguous, with
 * oh = h + 2 * ph - 2 and ow = w + 2 * pw - 2 (both >= 1); weight (cout,
 * c / groups, 3, 3) contiguous; bias (cout) or NULL.  float64 when dbl,
 * else float32.  All sizes are those of tensors that exist (the caller
 * checked them). */
typedef struct mt_winograd_conv {
    bool dbl;
    int64_t n, c, h, w, cout, groups, ph, pw;
    const void *x, *weight, *bias;
    void *y;
    const void *grad_output; /* weight gradient: (n, cout, oh, ow) */
    void *grad_weight;       /* weight gradient: (cout, c / groups, 3, 3), written */
} mt_winograd_conv;

/* Whether F(2x2, 3x3) beats im2col + GEMM for a 3x3, stride-1, undilated
 * convolution with these channel counts per group. */
bool mt__winograd_pays(int64_t cin_per_group, int64_t cout_per_group);

/* Computes the convolution (see Note [Winograd convolution] in winograd.c).
 * 0, or MT_ENOMEM with y unspecified. */
int mt__winograd_conv2d(const mt_winograd_conv *a);

/* grad_weight from x and grad_output (weight, bias and y unused; see Note
 * [Winograd weight gradient]).  0, or MT_ENOMEM with grad_weight unspecified. */
int mt__winograd_conv2d_weight_grad(const mt_winograd_conv *a);

#endif /* ATEN_LITE_WINOGRAD_H */
