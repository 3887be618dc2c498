/* aten_lite/cuda/sequence.c - the CUDA sequence kernel of the fill stub (arange, linspace,
 * logspace) over the launcher of aten_lite/cuda/sequence.cu. */
#include "aten_lite/cuda/sequence.h"
#include "aten_lite/kernel_stubs.h"
#include "aten_lite/ops.h"
#include "c10_lite/allocator.h"
#include "c10_lite/cuda_state.h"
#include "c10_lite/error.h"

/* Note [CUDA sequences]
 * arange and linspace are computed on the device with the cpu's formulas and roundings
 * (element i from start, step and i alone; the products never fused into a multiply-add), so
 * both devices give the same values.  logspace's pow is the C library's on the cpu and has
 * another rounding on the device, so its values are computed by the cpu kernel and copied
 * over: the same values as the cpu's by construction. */
int
mt__cuda_sequence(mt_tensor *t, const mt_sequence *seq)
{
    const mt_device dev = mt_tensor_device(t);
    if (seq->kind == MT_SEQ_LOGSPACE) {
        mt_tensor *host = mt_tensor_empty(t->dtype, 1, &t->numel, MT_DEVICE_CPU);
        if (host == NULL) {
            return mt_error_code();
        }
        int rc = mt__cpu_sequence(host, seq);
        if (rc == MT_OK) {
            rc = mt_bytes_copy(mt_tensor_data(t), dev, mt_tensor_data(host), MT_DEVICE_CPU,
                               (size_t)t->numel * mt_tensor_itemsize(t), false);
        }
        mt_tensor_decref(host);
        return rc;
    }
    mt_cuda_sequence s = {
        .kind = seq->kind == MT_SEQ_ARANGE_INT64 ? 0 : seq->kind == MT_SEQ_ARANGE ? 1 : 2,
        .start = seq->start,
        .step = seq->step,
        .end = seq->end,
        .steps = seq->steps,
        .start_i = seq->start_i,
        .step_i = seq->step_i,
    };
    return mt_cuda_sequence_fill(dev.index, mt_cuda_current_stream(dev.index),
                                 (mt_cuda_dtype)t->dtype, &s, mt_tensor_data(t), t->numel);
}
