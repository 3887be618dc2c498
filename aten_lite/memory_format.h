/* aten_lite/memory_format.h - memory formats: channels-last strides, torch's suggest_memory_format, tensors laid out in a format. */
#ifndef ATEN_LITE_MEMORY_FORMAT_H
#define ATEN_LITE_MEMORY_FORMAT_H

#include <stdbool.h>
#include <stdint.h>

#include "c10_lite/tensor_impl.h"

/* torch.memory_format: preserve (keep the input's layout), contiguous
 * (row-major), channels_last (4-D, dims ordered N, H, W, C in memory) and
 * channels_last_3d (5-D: N, D, H, W, C).  See Note [Memory formats]. */
typedef enum mt_memory_format {
    MT_MF_PRESERVE,
    MT_MF_CONTIGUOUS,
    MT_MF_CHANNELS_LAST,
    MT_MF_CHANNELS_LAST_3D,
} mt_memory_format;

/* 0, or MT_ERUNTIME with torch's message when a tensor of ndim dims cannot
 * take format f ("required rank 4 tensor to use channels_last format"). */
int mt_memory_format_check(mt_memory_format f, int ndim);

/* The strides of a dense tensor of these sizes in format f (contiguous,
 * channels_last or channels_last_3d; f checked against ndim). */
void mt_memory_format_strides(mt_memory_format f, int ndim, const int64_t *sizes,
                              int64_t *strides);

/* torch's is_contiguous(memory_format=f) (f not preserve): size-1 dims may
 * have any stride. */
bool mt_is_contiguous_format(const mt_tensor *t, mt_memory_format f);

/* Whether t's elements exactly tile a block of memory (some permutation of
 * a contiguous layout), torch's is_non_overlapping_and_dense. */
bool mt_is_non_overlapping_and_dense(const mt_tensor *t);

/* torch's suggest_memory_format: channels_last(_3d) when t's strides are
 * ordered as that format's (C smallest, then the spatial dims from the
 * last, then N; ambiguous cases contiguous), else contiguous. */
mt_memory_format mt_suggest_memory_format(const mt_tensor *t);

/* A new uninitialised tensor of these sizes in dtype dt laid out in format f
 * (not preserve).  Caller owns; NULL on error. */
mt_tensor *mt_empty_in_format(mt_dtype dt, int ndim, const int64_t *sizes, mt_device dev,
                              mt_memory_format f);

/* A new uninitialised tensor of t's sizes and device in dtype dt laid out
 * in format f; preserve keeps t's strides when t is dense and
 * non-overlapping, else takes mt_suggest_memory_format(t) (torch's
 * empty_like).  Caller owns; NULL on error. */
mt_tensor *mt_empty_format(const mt_tensor *t, mt_dtype dt, mt_memory_format f);

/* t converted to dtype dt and laid out in f: t itself (a new reference)
 * when nothing changes and !copy (preserve: any layout; a format: when t is
 * contiguous in it), else a copy.  Caller owns; NULL on error. */
mt_tensor *mt_to_format(mt_tensor *t, mt_dtype dt, mt_memory_format f, bool copy);

#endif /* ATEN_LITE_MEMORY_FORMAT_H */
