/* aten_lite/cuda/scan.c - the CUDA entries of the scan stub (Note [Kernel stubs]) over the
 * launcher of aten_lite/cuda/scan.cu (Note [CUDA scans]). */
#include "aten_lite/cuda/scan.h"
#include "aten_lite/kernel_stubs.h"
#include "aten_lite/ops.h"
#include "c10_lite/cuda_state.h"
#include "c10_lite/error.h"

_Static_assert((int)MT_CUDA_SCAN_SUM == (int)MT_SCAN_SUM && (int)MT_CUDA_SCAN_PROD == (int)MT_SCAN_PROD &&
               (int)MT_CUDA_SCAN_MAX == (int)MT_SCAN_MAX && (int)MT_CUDA_SCAN_MIN == (int)MT_SCAN_MIN &&
               (int)MT_CUDA_SCAN_LOGSUMEXP == (int)MT_SCAN_LOGSUMEXP,
               "scan op values");
_Static_assert(MT_CUDA_SCAN_DIMS >= MT_MAX_DIMS, "the geometry holds every dim");

static const char *const mt__cuda_scan_names[] = {
    [MT_SCAN_SUM] = "cumsum",        [MT_SCAN_PROD] = "cumprod", [MT_SCAN_MAX] = "cummax",
    [MT_SCAN_MIN] = "cummin",        [MT_SCAN_LOGSUMEXP] = "logcumsumexp_out",
};

static int
mt__cuda_scan_check(mt_scan_op op, mt_dtype dt)
{
    if (!mt_cuda_scan_supported((mt_cuda_scan_op)op, (mt_cuda_dtype)dt)) {
        return mt_error_set(MT_ENOTIMPL, "\"%s_cuda\" not implemented for '%s'",
                            mt__cuda_scan_names[op], mt_dtype_scalar_name(dt));
    }
    return MT_OK;
}

static int
mt__cuda_scan(mt_scan_op op, mt_tensor *res, mt_tensor *ix, const mt_tensor *t, int d)
{
    const bool extreme = op == MT_SCAN_MAX || op == MT_SCAN_MIN;
    const int device = mt_tensor_device(res).index;
    void *stream = mt_cuda_current_stream(device);
    if (extreme && t->ndim == 0) {
        /* a 0-d cummax/cummin: the element itself at index 0 (any dtype) */
        const int64_t zero = 0;
        int rc = mt_bytes_copy(mt_tensor_data(res), mt_tensor_device(res), mt_tensor_data(t),
                               mt_tensor_device(t), mt_tensor_itemsize(t), true);
        return rc < 0 ? rc
                      : mt_bytes_copy(mt_tensor_data(ix), mt_tensor_device(ix), (const char *)&zero,
                                      MT_DEVICE_CPU, sizeof(zero), false);
    }
    int rc = mt__cuda_scan_check(op, t->dtype);
    if (rc < 0) {
        return rc;
    }
    mt_cuda_scan_geom g;
    g.n = t->ndim ? t->sizes[d] : 1;
    g.sin = t->ndim ? t->strides[d] : 0;
    g.sout = t->ndim ? res->strides[d] : 0;
    g.nd = 0;
    g.lines = 1;
    for (int i = 0; i < t->ndim; i++) {
        if (i == d) {
            continue;
        }
        g.sz[g.nd] = t->sizes[i];
        g.stin[g.nd] = t->strides[i];
        g.stout[g.nd] = res->strides[i];
        g.lines *= t->sizes[i];
        g.nd++;
    }
    return mt_cuda_scan(device, stream, (mt_cuda_scan_op)op, (mt_cuda_dtype)t->dtype, &g,
                        mt_tensor_data(t), mt_tensor_data(res),
                        ix != NULL ? (int64_t *)mt_tensor_data(ix) : NULL);
}

static const mt_scan_kernels mt__cuda_scan_kernels = {
    .check = mt__cuda_scan_check,
    .scan = mt__cuda_scan,
};

void
mt__cuda_scan_register(void)
{
    MT_REGISTER_STUB(scan, MT_CUDA, &mt__cuda_scan_kernels);
}
