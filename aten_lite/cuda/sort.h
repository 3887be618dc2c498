/* aten_lite/cuda/sort.h - the launchers of the CUDA sort kernels (aten_lite/cuda/sort.cu): sort keys,
 * the per-tile bitonic sort, the merge passes, the gather of the results, searchsorted.  The stub
 * entries that drive them are in aten_lite/cuda/sort.c. */
#ifndef ATEN_LITE_CUDA_SORT_H
#define ATEN_LITE_CUDA_SORT_H

#include <stdint.h>

#include "aten_lite/cuda/index.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Elements one block sorts in shared memory (a power of two). */
#define MT_CUDA_SORT_TILE 1024

/* The lines of a sort: ndim dims, the last one the sorted dim; element strides of the input
 * (sstr), the values (vstr) and the indices (istr) outputs.  sizes[ndim - 1] is the line's
 * length n for the input; the outputs keep k entries of each line. */
typedef struct mt_cuda_lines {
    int ndim;
    int64_t sizes[MT_CUDA_IX_DIMS];
    int64_t sstr[MT_CUDA_IX_DIMS], vstr[MT_CUDA_IX_DIMS], istr[MT_CUDA_IX_DIMS];
} mt_cuda_lines;

/* keys[l * n + i], idx[...] <- the order key of element i of line l (NaN largest, -0.0 as
 * 0.0, complemented when descending) and i.  g->sizes[ndim-1] = n; lines * n elements. */
int mt_cuda_sort_keys(int device, void *stream, const mt_cuda_lines *g, int64_t lines,
                      const char *src, mt_cuda_dt dt, int descending, uint64_t *keys,
                      int64_t *idx);
/* Sorts every run of `tile` entries of each line of n (the last one shorter), tile =
 * min(MT_CUDA_SORT_TILE, the power of two >= n), by (key, idx), in place. */
int mt_cuda_sort_tiles(int device, void *stream, uint64_t *keys, int64_t *idx, int64_t lines,
                       int64_t n, int64_t tile);
/* One merge pass: the sorted runs of `width` entries of each line, pairwise, from (kin, iin)
 * into (kout, iout). */
int mt_cuda_sort_merge(int device, void *stream, const uint64_t *kin, const int64_t *iin,
                       uint64_t *kout, int64_t *iout, int64_t lines, int64_t n, int64_t width);
/* v[l, j] <- src[l, idx[l * n + j]] and ix[l, j] <- idx[l * n + j] for j < k. */
int mt_cuda_sort_write(int device, void *stream, const mt_cuda_lines *g, int64_t lines,
                       int64_t k, const char *src, const int64_t *idx, char *v, int64_t *ix,
                       int itemsize);
/* Note [Searchsorted] in aten_lite/sort.c: o[e] <- the position of vals[e] in its boundary line
 * (line e / vlast when per_line, else the only one) of n entries, read through sorter when
 * it is not NULL; all contiguous; dt an arithmetic dtype (not complex, not uint16/32/64). */
int mt_cuda_searchsorted(int device, void *stream, const char *bd, const char *vals,
                         const int64_t *sorter, int64_t n, int64_t vlast, int per_line,
                         int64_t count, mt_cuda_dt dt, int right, int64_t *o);

#ifdef __cplusplus
}
#endif

#endif /* ATEN_LITE_CUDA_SORT_H */
