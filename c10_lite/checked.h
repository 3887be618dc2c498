/* c10_lite/checked.h - overflow-checked arithmetic for sizes, strides, offsets and byte counts. */
#ifndef C10_LITE_CHECKED_H
#define C10_LITE_CHECKED_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Note [Checked arithmetic]
 * Sizes, strides, offsets and counts reach the C core from user code, so any
 * product or sum of them may overflow int64 (as_strided with a stride of
 * 2**62, narrow with a length of 2**63-1, an index tensor expanded to 2**60
 * elements).  Signed overflow is undefined behaviour, and a wrapped result
 * turns a bounds check into a wild read or a short buffer into a heap overrun.
 * So every such computation goes through these helpers, which say whether
 * the true result fits, as C23's ckd_add/ckd_mul do.  A TensorImpl that passed
 * mt_tensor_new's bounds check (mt_view_extent) reaches only bytes inside its
 * storage, so offsets computed from a valid non-empty impl cannot overflow;
 * what needs checking is everything computed before an impl exists: spans of
 * proposed views, element counts times item sizes, scratch buffer sizes. */

/* *r = a + b; true when the true sum does not fit (then *r is wrapped). */
static inline bool
mt_ckd_add(int64_t *r, int64_t a, int64_t b)
{
    return __builtin_add_overflow(a, b, r);
}

/* *r = a * b; true when the true product does not fit (then *r is wrapped). */
static inline bool
mt_ckd_mul(int64_t *r, int64_t a, int64_t b)
{
    return __builtin_mul_overflow(a, b, r);
}

/* Bytes of n elements of elem bytes, into *out.  0, or MT_ERUNTIME ("... too
 * large") when n is negative or the product does not fit; *out unchanged then. */
int mt_ckd_nbytes(int64_t n, size_t elem, size_t *out);

/* malloc of an array of n (>= 0) elements of elem bytes (at least one byte is
 * asked for, so n == 0 gives a valid pointer).  NULL with MT_ENOMEM when the
 * size overflows or malloc fails.  Caller owns; release with free(). */
void *mt_malloc_array(int64_t n, size_t elem);

#endif /* C10_LITE_CHECKED_H */
