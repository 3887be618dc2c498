/* aten_lite/upsample_map.h - the per-axis maps of a resampling (Note [Separable resampling] in
 * upsample.c), for the devices' resampling kernels. */
#ifndef ATEN_LITE_UPSAMPLE_MAP_H
#define ATEN_LITE_UPSAMPLE_MAP_H

#include <stdbool.h>
#include <stdint.h>

#include "aten_lite/upsample.h"

/* One axis: for each result position o, its sources src[off[o] .. off[o + 1]) and their
 * weights (host memory). */
typedef struct mt__map {
    int64_t n, m;  /* source and result extents */
    int64_t *off;  /* m + 1 row starts */
    int64_t *src;  /* off[m] source positions */
    double *w;     /* off[m] weights */
    float *wf;     /* the weights as float32 (exact: computed in float for float32) */
    bool identity; /* skip the axis */
} mt__map;

void mt__map_free(mt__map *mp);
/* The axes' maps, sources `from` and results `to` (nsp sizes each), in the order the passes
 * run: the axes that shrink most first.  maps[i] is axis order[i]'s; transposed: the
 * backward's maps; single: float32 weights computed as torch computes them in float.  0 or an
 * error (nothing to free then). */
int mt__build_maps(const mt_upsample_params *p, const int64_t *from, const int64_t *to,
                   bool transposed, bool single, mt__map *maps, int *order);

#endif /* ATEN_LITE_UPSAMPLE_MAP_H */
