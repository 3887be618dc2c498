/* c10_lite/checked.c - checked byte counts and array allocation. See Note [Checked arithmetic]. */
#include "c10_lite/checked.h"

#include <stdlib.h>

#include "c10_lite/error.h"

int
mt_ckd_nbytes(int64_t n, size_t elem, size_t *out)
{
    size_t r;
    if (n < 0 || __builtin_mul_overflow((size_t)n, elem, &r) || r > (size_t)INT64_MAX) {
        return mt_error_set(MT_ERUNTIME,
                            "the requested size (%lld elements of %zu bytes) is too large",
                            (long long)n, elem);
    }
    *out = r;
    return MT_OK;
}

void *
mt_malloc_array(int64_t n, size_t elem)
{
    size_t nbytes;
    if (mt_ckd_nbytes(n, elem, &nbytes) < 0) {
        mt_error_set(MT_ENOMEM, "cannot allocate %lld elements of %zu bytes: the size overflows",
                     (long long)n, elem);
        return NULL;
    }
    void *p = malloc(nbytes ? nbytes : 1);
    if (p == NULL) {
        mt_error_set(MT_ENOMEM, "out of memory: tried to allocate %zu bytes", nbytes);
    }
    return p;
}
