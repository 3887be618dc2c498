/* aten_lite/pool_geom.h - a pooling's geometry: what pool.c hands to a device's pooling kernels. */
#ifndef ATEN_LITE_POOL_GEOM_H
#define ATEN_LITE_POOL_GEOM_H

#include <stdint.h>

/* Derived once from the (checked) arguments by pool.c; see Note [Pooling] there.  The
 * tables live in host memory (a device kernel takes them as its parameters). */
typedef struct mt__axis {
    int64_t *lo, *hi, *cnt; /* per output position; cnt only for averages */
} mt__axis;

typedef struct mt__pool_geom {
    int nsp;                  /* the op's spatial dims (2 or 3), for messages */
    int64_t planes;
    int64_t in[3], out[3];    /* depth, height, width (depth 1 for 2-D) */
    int64_t dil[3];           /* steps inside a window (dilation; 1 for averages) */
    int64_t kw, sw, pw;       /* max pooling: the column window's size, stride and padding */
    int64_t full_lo, full_hi; /* max pooling: the output columns whose windows lie inside */
    mt__axis ax[3];
    int64_t *tables;          /* the block the axes point into */
    int64_t divisor;          /* averages: a fixed divisor, or 0 for the counts' product */
} mt__pool_geom;

#endif /* ATEN_LITE_POOL_GEOM_H */
