/* aten_lite/cuda/ix_host.c - host-side helpers of the CUDA index and sort entries. */
#include "aten_lite/cuda/ix_host.h"

#include <stdint.h>

#include "aten_lite/ops.h"
#include "c10_lite/allocator.h"
#include "c10_lite/error.h"

mt_cuda_dt
mt__ix_dt(mt_dtype dt)
{
    switch (dt) {
    case MT_BOOL:
        return MT_CUDA_DT_BOOL;
    case MT_UINT8:
        return MT_CUDA_DT_U8;
    case MT_INT8:
        return MT_CUDA_DT_I8;
    case MT_INT16:
        return MT_CUDA_DT_I16;
    case MT_INT32:
        return MT_CUDA_DT_I32;
    case MT_INT64:
        return MT_CUDA_DT_I64;
    case MT_FLOAT16:
        return MT_CUDA_DT_F16;
    case MT_BFLOAT16:
        return MT_CUDA_DT_BF16;
    case MT_FLOAT32:
        return MT_CUDA_DT_F32;
    case MT_FLOAT64:
        return MT_CUDA_DT_F64;
    case MT_COMPLEX64:
        return MT_CUDA_DT_C64;
    case MT_COMPLEX128:
        return MT_CUDA_DT_C128;
    case MT_UINT16:
        return MT_CUDA_DT_U16;
    case MT_UINT32:
        return MT_CUDA_DT_U32;
    default:
        return MT_CUDA_DT_U64;
    }
}

mt_tensor *
mt__ix_bad_slot(mt_device d)
{
    const int64_t one = 1, none = INT64_MAX;
    mt_tensor *slot = mt_tensor_empty(MT_INT64, 1, &one, d);
    if (slot != NULL && mt_bytes_fill(d, mt_tensor_data(slot), sizeof(none), &none,
                                      sizeof(none)) < 0) {
        mt_tensor_decref(slot);
        return NULL;
    }
    return slot;
}

mt_tensor *
mt__ix_on_device(mt_tensor *t, mt_device d)
{
    if (mt_device_eq(mt_tensor_device(t), d)) {
        mt_tensor_incref(t);
        return t;
    }
    mt_tensor *r = mt_tensor_empty(t->dtype, t->ndim, t->sizes, d);
    if (r != NULL && mt_copy_(r, t) < 0) {
        mt_tensor_decref(r);
        return NULL;
    }
    return r;
}
