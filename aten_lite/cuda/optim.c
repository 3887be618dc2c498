/* aten_lite/cuda/optim.c - the CUDA entry of the optim stub (kernel_stubs.h): the fused Adam
 * step over the iterator mt_adam_step_ built (aten_lite/cuda/optim.cu). */
#include "aten_lite/cuda/optim.h"
#include "aten_lite/iter.h"
#include "aten_lite/kernel_stubs.h"
#include "c10_lite/cuda_state.h"
#include "c10_lite/error.h"

static int
mt__cuda_adam_step(mt_iter *it, const mt_adam_hyper *h)
{
    if (it->ndim > MT_CUDA_ADAM_DIMS || it->noperands > 5) {
        return mt_error_set(MT_EINVAL, "fused Adam step: more than %d dims after coalescing",
                            MT_CUDA_ADAM_DIMS);
    }
    mt_cuda_adam_geom g = {.ndim = it->ndim, .nop = it->noperands, .numel = it->numel};
    for (int d = 0; d < it->ndim; d++) {
        g.shape[d] = it->shape[d];
        for (int k = 0; k < it->noperands; k++) {
            g.strides[d][k] = it->strides[d][k];
        }
    }
    if (it->numel == 0) {
        return MT_OK;
    }
    const int device = mt_tensor_device(it->tensors[0]).index;
    return mt_cuda_adam_step(device, mt_cuda_current_stream(device),
                             it->tensors[0]->dtype == MT_FLOAT64, &g, it->data, h);
}

static const mt_optim_kernels mt__cuda_optim_kernels = {.adam_step = mt__cuda_adam_step};

void mt__cuda_optim_register(void);

void
mt__cuda_optim_register(void)
{
    MT_REGISTER_STUB(optim, MT_CUDA, &mt__cuda_optim_kernels);
}
