/* aten_lite/cuda/norm.c - the CUDA entries of the norm stub (kernel_stubs.h): fused softmax,
 * log_softmax and layer norm, forward and backward, over aten_lite/cuda/norm.cu.  The op code
 * has checked dtypes (float32/float64, one dtype), devices and contiguity. */
#include "aten_lite/cuda/norm.h"
#include "aten_lite/kernel_stubs.h"
#include "c10_lite/cuda_state.h"

static int
mt__dev(const mt_tensor *t)
{
    return mt_tensor_device(t).index;
}

static const void *
mt__data_or_null(const mt_tensor *t)
{
    return t != NULL ? mt_tensor_data(t) : NULL;
}

static int64_t
mt__last(const mt_tensor *t)
{
    return t->ndim ? t->sizes[t->ndim - 1] : 1;
}

static int
mt__cuda_softmax(const mt_tensor *x, mt_tensor *out, bool log)
{
    const int d = mt__dev(x);
    const int64_t len = mt__last(x);
    return mt_cuda_softmax_rows(d, mt_cuda_current_stream(d), x->dtype == MT_FLOAT64,
                                mt_tensor_data(x), mt_tensor_data(out), x->numel / len, len, log);
}

static int
mt__cuda_softmax_backward(const mt_tensor *grad, const mt_tensor *y, mt_tensor *out, bool log)
{
    const int d = mt__dev(y);
    const int64_t len = mt__last(y);
    return mt_cuda_softmax_backward_rows(d, mt_cuda_current_stream(d), y->dtype == MT_FLOAT64,
                                         mt_tensor_data(grad), mt_tensor_data(y),
                                         mt_tensor_data(out), y->numel / len, len, log);
}

static int
mt__cuda_layer_norm(const mt_tensor *x, const mt_tensor *w, const mt_tensor *b, double eps,
                    int64_t len, mt_tensor *out, mt_tensor *mean, mt_tensor *rstd)
{
    const int d = mt__dev(x);
    return mt_cuda_layer_norm_rows(d, mt_cuda_current_stream(d), x->dtype == MT_FLOAT64,
                                   mt_tensor_data(x), mt__data_or_null(w), mt__data_or_null(b),
                                   eps, mt_tensor_data(out), mt_tensor_data(mean),
                                   mt_tensor_data(rstd), x->numel / len, len);
}

static int
mt__cuda_layer_norm_backward(const mt_tensor *g, const mt_tensor *gm, const mt_tensor *gr,
                             const mt_tensor *x, const mt_tensor *mean, const mt_tensor *rstd,
                             const mt_tensor *w, int64_t len, mt_tensor *dx, mt_tensor *dw,
                             mt_tensor *db)
{
    const int d = mt__dev(x);
    const int64_t rows = x->numel / len;
    return mt_cuda_layer_norm_backward_rows(
        d, mt_cuda_current_stream(d), x->dtype == MT_FLOAT64, mt_tensor_data(g),
        mt__data_or_null(gm), mt__data_or_null(gr), mt_tensor_data(x), mt_tensor_data(mean),
        mt_tensor_data(rstd), mt__data_or_null(w), rows > 0 && dx != NULL ? mt_tensor_data(dx) : NULL,
        dw != NULL ? mt_tensor_data(dw) : NULL, db != NULL ? mt_tensor_data(db) : NULL, rows, len);
}

static const mt_norm_kernels mt__cuda_norm_kernels = {
    .softmax_lastdim = mt__cuda_softmax,
    .softmax_backward_lastdim = mt__cuda_softmax_backward,
    .layer_norm = mt__cuda_layer_norm,
    .layer_norm_backward = mt__cuda_layer_norm_backward,
};

void mt__cuda_norm_register(void);

void
mt__cuda_norm_register(void)
{
    MT_REGISTER_STUB(norm, MT_CUDA, &mt__cuda_norm_kernels);
}
