/* aten_lite/cuda/index.h - the launchers of the CUDA index kernels (aten_lite/cuda/index.cu): advanced
 * indexing, index_select, gather/scatter, nonzero, and the device-side index checks.  Plain C
 * structs; the stub entries that call them are in aten_lite/cuda/index.c. */
#ifndef ATEN_LITE_CUDA_INDEX_H
#define ATEN_LITE_CUDA_INDEX_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define MT_CUDA_IX_DIMS 64 /* MT_MAX_DIMS */

/* The element types of the CUDA index and sort kernels (the c10_lite dtypes, renumbered so
 * the .cu sources need no C-only header). */
typedef enum {
    MT_CUDA_DT_BOOL,
    MT_CUDA_DT_U8,
    MT_CUDA_DT_I8,
    MT_CUDA_DT_I16,
    MT_CUDA_DT_I32,
    MT_CUDA_DT_I64,
    MT_CUDA_DT_F16,
    MT_CUDA_DT_BF16,
    MT_CUDA_DT_F32,
    MT_CUDA_DT_F64,
    MT_CUDA_DT_C64,
    MT_CUDA_DT_C128,
    MT_CUDA_DT_U16,
    MT_CUDA_DT_U32,
    MT_CUDA_DT_U64,
} mt_cuda_dt;

/* A strided walk: ndim dims (row-major: the last varies fastest), element strides. */
typedef struct mt_cuda_walk {
    int ndim;
    int64_t numel;
    int64_t sizes[MT_CUDA_IX_DIMS];
    int64_t strides[MT_CUDA_IX_DIMS];
} mt_cuda_walk;

/* The scatter modes (mt_scatter_reduce's values; -1 is gather). */
#define MT_CUDA_GATHER (-1)
#define MT_CUDA_SCATTER_NONE 0
#define MT_CUDA_SCATTER_ADD 1
#define MT_CUDA_SCATTER_MUL 2
#define MT_CUDA_SCATTER_AMAX 3
#define MT_CUDA_SCATTER_AMIN 4

/* Note [Gather and scatter geometry]: a walk over index's shape (nd dims, sizes); at
 * position pos, self's element is pos with pos[dim] replaced by the index value, other's is
 * pos.  Element strides per operand. */
typedef struct mt_cuda_gs_geom {
    int nd, dim;
    int64_t numel;
    int64_t sizes[MT_CUDA_IX_DIMS];
    int64_t istr[MT_CUDA_IX_DIMS], sstr[MT_CUDA_IX_DIMS], ostr[MT_CUDA_IX_DIMS];
} mt_cuda_gs_geom;

/* Every launcher runs on `device` (the current device restored after), queued on `stream`,
 * and returns 0 or MT_ERUNTIME with "CUDA error: ..." (the launch failed). */

/* *bad <- min(*bad, p) for every position p of w (index tensor `idx` of element type idt, an
 * integer type) whose value lies outside [lo, hi).  *bad is device memory. */
int mt_cuda_index_check(int device, void *stream, const mt_cuda_walk *w, const char *idx,
                        mt_cuda_dt idt, int64_t lo, int64_t hi, int64_t *bad);

/* Advanced indexing's offsets, one index tensor at a time: for every position p of w (the
 * broadcast shape, with idx's strides: 0 where broadcast), offs[p] (device, element offset
 * into the indexed tensor) <- (first ? 0 : offs[p]) + wrap(idx value) * vstride, values in
 * [-size, size); a value outside makes *bad <- min(*bad, p) and leaves offs[p] alone. */
int mt_cuda_index_offsets(int device, void *stream, const mt_cuda_walk *w, const char *idx,
                          mt_cuda_dt idt, int64_t size, int64_t vstride, int first, int64_t *offs,
                          int64_t *bad);

/* out[p * rest.numel + r] <- src[offs[p] + offset of r in rest] for npos positions (out
 * contiguous; rest: the non-indexed dims, element strides of src). */
int mt_cuda_index_gather(int device, void *stream, int64_t npos, const int64_t *offs,
                         const mt_cuda_walk *rest, const char *src, char *out, int itemsize);

/* dst[offs[p] + offset of r] <- (or += when accumulate) vals[p * rest.numel + r]. */
int mt_cuda_index_put(int device, void *stream, int64_t npos, const int64_t *offs,
                      const mt_cuda_walk *rest, char *dst, const char *vals, mt_cuda_dt dt,
                      int itemsize, int accumulate);

/* index_select: out (contiguous, self's sizes with n at dim d) <- self gathered at the n
 * values of idx (element stride istride, int32 or int64, checked; negative wrap) along d.
 * w: self's sizes and strides. */
int mt_cuda_index_select(int device, void *stream, const mt_cuda_walk *w, int d, const char *idx,
                         int idx_is64, int64_t istride, int64_t n, const char *self, char *out,
                         int itemsize);

/* gather (mode MT_CUDA_GATHER: other <- self) or scatter (self <- other, combined by mode),
 * index values checked beforehand.  MT_ENOTIMPL for a mode the dtype has no kernel for. */
int mt_cuda_gather_scatter(int device, void *stream, const mt_cuda_gs_geom *g, char *self,
                           const int64_t *index, char *other, mt_cuda_dt dt, int itemsize,
                           int mode);

/* nonzero, in nchunks chunks of `chunk` elements of the bool array m (numel elements):
 * counts[c] <- the true elements of chunk c. */
int mt_cuda_nonzero_count(int device, void *stream, const unsigned char *m, int64_t numel,
                          int64_t chunk, int64_t nchunks, int64_t *counts);
/* the coordinates (shape->ndim per row, row-major over shape->sizes) of chunk c's true
 * elements, in order, from row starts[c] (device memory) of out. */
int mt_cuda_nonzero_write(int device, void *stream, const unsigned char *m, int64_t numel,
                          int64_t chunk, int64_t nchunks, const int64_t *starts,
                          const mt_cuda_walk *shape, int64_t *out);

#ifdef __cplusplus
}
#endif

#endif /* ATEN_LITE_CUDA_INDEX_H */
