/* aten_lite/cuda/elementwise.c - the CUDA entry of the elementwise stub (Note [Kernel stubs]):
 * operands of an iterator into a launch of Note [CUDA elementwise launcher], the kernel table
 * from the op list, and torch's integer division by zero error. */
#include <complex.h>
#include <string.h>

#include "aten_lite/cuda/elementwise.h"
#include "aten_lite/iter.h"
#include "aten_lite/kernel_stubs.h"
#include "aten_lite/ops.h"
#include "aten_lite/scalar.h"
#include "c10_lite/allocator.h"
#include "c10_lite/cuda_state.h"
#include "c10_lite/error.h"

_Static_assert(MT_CUDA_GEOM_DIMS >= MT_MAX_DIMS, "the launch geometry holds every dim");
_Static_assert(MT_CUDA_MAX_OPERANDS <= MT_ITER_MAX_OPERANDS, "operands");

void
mt__cuda_geom(const mt_iter *it, int n, mt_cuda_geom *g)
{
    g->ndim = it->ndim;
    g->noperands = n;
    g->numel = it->numel;
    g->contiguous = it->ndim <= 1;
    for (int d = 0; d < it->ndim; d++) {
        g->shape[d] = it->shape[d];
        for (int k = 0; k < n; k++) {
            g->strides[d][k] = it->strides[d][k];
        }
    }
    if (it->ndim == 0) {
        for (int k = 0; k < n; k++) {
            g->strides[0][k] = 0;
        }
    }
    for (int k = 0; k < n && g->contiguous && it->ndim == 1; k++) {
        const int64_t s = it->strides[0][k];
        g->contiguous = s == 0 || s == (int64_t)mt_tensor_itemsize(it->tensors[k]);
    }
}

/* Over the groups of kernels (one .cu file each): the first that has (op, dtype). */
static int
mt__cuda_ew_dispatch(const mt_cuda_ew_launch *l)
{
    int (*const groups[])(const mt_cuda_ew_launch *) = {mt__cuda_ew_binary, mt__cuda_ew_compare,
                                                        mt__cuda_ew_unary, mt__cuda_ew_special,
                                                        mt__cuda_ew_complex};
    for (size_t i = 0; i < sizeof(groups) / sizeof(groups[0]); i++) {
        const int rc = groups[i](l);
        if (l->query ? rc == 1 : rc != MT_CUDA_EW_NO_KERNEL) {
            return rc;
        }
    }
    return l->query ? 0 : MT_CUDA_EW_NO_KERNEL;
}

/* Note [CUDA kernel table]
 * The CUDA kernels of an op are its functor's dtype classes (elementwise_*.cu) restricted to
 * the dtypes the cpu has a loop for (mt_dispatch[MT_CPU], registered by the cpu files from the
 * op list): the dtype sets are kept in one place, the cpu's, and a dtype the cpu refuses is
 * refused on CUDA with the same message (naming "<op>_cuda"); a dtype the cpu has and CUDA
 * not is the missing-kernel error. */
static int
mt__cuda_ew_check(mt_op op, mt_dtype dt)
{
    mt_cuda_ew_launch q;
    memset(&q, 0, sizeof(q));
    q.op = (int)op;
    q.dtype = (int)dt;
    q.query = 1;
    if (mt_dispatch[MT_CPU][op][dt] == NULL) { /* torch has no kernel either */
        return mt_error_set(MT_ENOTIMPL, "\"%s_cuda\" not implemented for '%s'", mt_op_name(op),
                            mt_dtype_scalar_name(dt));
    }
    if (mt__cuda_ew_dispatch(&q) == 1) {
        return MT_OK;
    }
    /* a kernel the cpu has and CUDA not yet: the one missing-kernel error */
    return mt_kernel_missing(mt_op_name(op), MT_CUDA);
}

/* The value of the 0-d cpu tensor t (host memory at p) in the compute type of `want`
 * (Note [CUDA elementwise launcher]): want's own bytes, float16/bfloat16 widened to float. */
static void
mt__scalar_operand(const void *p, mt_dtype have, mt_dtype want, uint64_t out[2])
{
    out[0] = out[1] = 0;
    mt_scalar_store(mt_scalar_load(p, have), want, out);
    if (want == MT_FLOAT16 || want == MT_BFLOAT16) {
        uint16_t bits;
        memcpy(&bits, out, sizeof(bits));
        float f;
        if (want == MT_FLOAT16) {
            f = mt_half_to_float((mt_half){bits});
        }
        else {
            f = mt_bfloat16_to_float((mt_bfloat16){bits});
        }
        out[0] = 0;
        memcpy(out, &f, sizeof(f));
    }
}

/* Whether (op, dt) may divide an integer by zero (the kernel raises a flag). */
static bool
mt__may_divide_by_zero(mt_op op, mt_dtype dt)
{
    return (op == MT_OP_DIV_TRUNC || op == MT_OP_DIV_FLOOR || op == MT_OP_REMAINDER ||
            op == MT_OP_FMOD) &&
           !mt_dtype_is_floating(dt) && !mt_dtype_is_complex(dt);
}

static int
mt__cuda_ew_run(const mt_iter *it, const mt_elementwise_call *call)
{
    if (it->noperands > MT_CUDA_MAX_OPERANDS || it->noutputs != 1) {
        return mt_error_set(MT_ENOTIMPL, "\"%s_cuda\": %d operands are not implemented",
                            mt_op_name(call->op), it->noperands);
    }
    if (it->numel == 0) {
        return MT_OK;
    }
    const mt_device dev = mt_tensor_device(it->tensors[0]);
    mt_cuda_ew_launch l;
    memset(&l, 0, sizeof(l));
    mt_cuda_geom g;
    mt__cuda_geom(it, it->noperands, &g);
    l.device = dev.index;
    l.stream = mt_cuda_current_stream(dev.index);
    l.g = &g;
    l.op = (int)call->op;
    l.dtype = (int)call->dtype;
    l.ninputs = it->noperands - 1;
    l.data[0] = it->data[0];
    l.dtypes[0] = (int)it->tensors[0]->dtype;
    for (int i = 1; i < it->noperands; i++) {
        const mt_tensor *t = it->tensors[i];
        const mt_dtype want = call->compute != NULL ? call->compute[i - 1] : call->dtype;
        l.want[i] = (int)want;
        l.dtypes[i] = (int)t->dtype;
        if (mt_tensor_device(t).type == MT_CPU) {
            /* a 0-d cpu operand: its value, read on the host, travels with the launch */
            mt__scalar_operand(it->data[i], t->dtype, want, l.scalar[i]);
        }
        else {
            l.data[i] = it->data[i];
        }
    }
    const mt_binary_ctx *ctx = (const mt_binary_ctx *)call->ctx;
    if (ctx != NULL) {
        l.alpha_f = ctx->alpha_f;
        l.alpha_i = ctx->alpha_i;
        l.alpha_re = creal(ctx->alpha_z);
        l.alpha_im = cimag(ctx->alpha_z);
    }
    /* Note [Integer division by zero on CUDA]: the kernel raises a device flag, read back
     * after the launch (a synchronisation, only for integer division ops), which the op code
     * turns into torch's ZeroDivisionError as on the cpu */
    mt_tensor *flag = NULL;
    if (mt__may_divide_by_zero(call->op, call->dtype)) {
        flag = mt_tensor_empty(MT_INT32, 0, NULL, dev);
        if (flag == NULL || mt_fill_(flag, mt_scalar_int(0)) < 0) {
            mt_tensor_decref(flag);
            return mt_error_code();
        }
        l.flag = (int *)mt_tensor_data(flag);
    }
    int rc = mt__cuda_ew_dispatch(&l);
    if (rc == MT_CUDA_EW_NO_KERNEL) {
        rc = mt__cuda_ew_check(call->op, call->dtype);
        if (rc == MT_OK) { /* checked, yet no launch: cannot happen */
            rc = mt_error_set(MT_ERUNTIME, "\"%s_cuda\": no kernel ran", mt_op_name(call->op));
        }
    }
    if (flag != NULL) {
        int32_t raised = 0;
        if (rc == MT_OK) {
            rc = mt_bytes_copy(&raised, MT_DEVICE_CPU, mt_tensor_data(flag), dev, sizeof(raised),
                               false);
        }
        mt_tensor_decref(flag);
        if (rc == MT_OK && raised != 0 && call->ctx != NULL) {
            ((mt_binary_ctx *)call->ctx)->zero_division = 1;
        }
    }
    return rc;
}

static const mt_elementwise_kernels mt__cuda_elementwise_kernels = {
    .check = mt__cuda_ew_check,
    .run = mt__cuda_ew_run,
};

void
mt__cuda_elementwise_register(void)
{
    MT_REGISTER_STUB(elementwise, MT_CUDA, &mt__cuda_elementwise_kernels);
}
