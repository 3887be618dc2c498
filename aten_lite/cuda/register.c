/* aten_lite/cuda/register.c - the CUDA entries of the kernel stubs (Note [Kernel stubs]):
 * copies between the host and the devices, fills, and the first elementwise kernels, over
 * the launchers of aten_lite/cuda/ *.cu.  Built only with CUDA (real or emulated). */
#include <string.h>

#include "aten_lite/cuda/kernels.h"
#include "aten_lite/iter.h"
#include "aten_lite/kernel_stubs.h"
#include "aten_lite/ops.h"
#include "aten_lite/scalar.h"
#include "c10_lite/allocator.h"
#include "c10_lite/cuda_hooks.h"
#include "c10_lite/cuda_host_alloc.h"
#include "c10_lite/cuda_state.h"
#include "c10_lite/error.h"

_Static_assert(MT_CUDA_GEOM_DIMS >= MT_MAX_DIMS, "the launch geometry holds every dim");
_Static_assert(MT_CUDA_MAX_OPERANDS <= MT_ITER_MAX_OPERANDS, "operands");

/* The launch geometry of the first n operands of it (Note [Launch geometry]). */
static void
mt__geom(const mt_iter *it, int n, mt_cuda_geom *g)
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

static int
mt__index(const mt_tensor *t)
{
    return mt_tensor_device(t).index;
}

/* Note [CUDA copies]
 * The copy kernels of the pairs (cuda, cpu), (cpu, cuda), (cuda, cuda), over the iterator
 * of mt_copy_ (dst, src broadcast to dst's shape):
 *  - one dtype, both dense in the same order: one runtime copy of the bytes
 *    (cudaMemcpyAsync on the current stream of the device through the allocator registry,
 *    synchronised with the host for transfers, as torch's non_blocking=False);
 *  - one dtype, one device: the strided copy kernel;
 *  - otherwise, in this first version, staged: the strided or converting part is done on the
 *    side where a kernel exists (the cpu's cast loops; the device's strided copy) on a
 *    contiguous temporary, and the bytes move between them contiguously.  A cast between
 *    two dtypes on one device goes through the host (two transfers).
 * Device memory is never read by the host. */

/* Both operands dense, same order, same dtype: one contiguous byte range each. */
static bool
mt__plain_bytes(const mt_iter *it, mt_dtype ddt, mt_dtype sdt)
{
    if (ddt != sdt) {
        return false;
    }
    const int64_t isz = (int64_t)mt_dtype_itemsize(ddt);
    int64_t expect = isz;
    for (int d = 0; d < it->ndim; d++) {
        if (it->strides[d][0] != expect || it->strides[d][1] != expect) {
            return false;
        }
        expect *= it->shape[d];
    }
    return true;
}

/* A contiguous tensor with t's sizes, dtype dt, on `device`, holding t's values (new
 * reference), or NULL. */
static mt_tensor *
mt__contiguous_on(const mt_tensor *t, mt_dtype dt, mt_device device)
{
    mt_tensor *r = mt_tensor_empty(dt, t->ndim, t->sizes, device);
    if (r != NULL && mt_copy_(r, t) < 0) {
        mt_tensor_decref(r);
        return NULL;
    }
    return r;
}

/* Between two devices the transfer runs on the source's current stream: it must first wait for
 * the work queued on the destination's current stream (the destination may still be being
 * written there, e.g. by the fill of torch.zeros), as torch orders its peer copies. */
static int
mt__wait_for_destination(mt_device dd, mt_device sd)
{
    void *ev = NULL;
    int rc = mt_cuda_event_create(dd.index, 0, &ev);
    if (rc == MT_OK) {
        rc = mt_cuda_event_record(ev, mt_cuda_current_stream(dd.index), dd.index);
    }
    if (rc == MT_OK) {
        rc = mt_cuda_stream_wait_event(mt_cuda_current_stream(sd.index), sd.index, ev);
    }
    mt_cuda_event_destroy(ev, dd.index);
    return rc;
}

/* A transfer between a device and the host returns before it is done only from or to pinned
 * memory (the runtime would stage pageable memory anyway; Note [Pinned host memory]); the
 * pinned block then remembers the stream, so it is not handed out again before the copy ran. */
static int
mt__transfer(const mt_iter *it, mt_device dd, mt_device sd, size_t nbytes, bool non_blocking)
{
    const bool same = dd.type == MT_CUDA && mt_device_eq(dd, sd);
    if (same || (dd.type == MT_CUDA && sd.type == MT_CUDA)) {
        return mt_bytes_copy(it->data[0], dd, it->data[1], sd, nbytes, same || non_blocking);
    }
    const void *host = dd.type == MT_CPU ? (const void *)it->data[0] : (const void *)it->data[1];
    const int device = dd.type == MT_CUDA ? dd.index : sd.index;
    const bool async = non_blocking && mt_cuda_host_is_pinned_ptr(host);
    int rc = mt_bytes_copy(it->data[0], dd, it->data[1], sd, nbytes, async);
    if (rc == MT_OK && async &&
        mt_cuda_host_record_use(host, mt_cuda_current_stream(device), device) < 0) {
        rc = mt_cuda_stream_synchronize(mt_cuda_current_stream(device), device);
    }
    return rc;
}

static int
mt__cuda_copy(const mt_iter *it, mt_dtype ddt, mt_dtype sdt, bool non_blocking)
{
    mt_tensor *dst = it->tensors[0], *src = it->tensors[1];
    const mt_device dd = mt_tensor_device(dst), sd = mt_tensor_device(src);
    if (dd.type == MT_CUDA && sd.type == MT_CUDA && dd.index != sd.index) {
        int rc = mt__wait_for_destination(dd, sd);
        if (rc < 0) {
            return rc;
        }
    }
    const size_t nbytes = (size_t)it->numel * mt_dtype_itemsize(ddt);
    if (mt__plain_bytes(it, ddt, sdt)) {
        return mt__transfer(it, dd, sd, nbytes, non_blocking);
    }
    if (dd.type == MT_CUDA && mt_device_eq(dd, sd) && ddt == sdt) {
        mt_cuda_geom g;
        mt__geom(it, 2, &g);
        return mt_cuda_strided_copy(dd.index, mt_cuda_current_stream(dd.index), &g, it->data[0],
                                    it->data[1], (int)mt_dtype_itemsize(ddt));
    }
    /* staged: make the source a dense tensor of dst's dtype where that is cheap, move it */
    mt_tensor *stage = NULL;
    int rc;
    if (sd.type == MT_CPU) {
        /* host -> device: cast and gather on the host, then one transfer (and a strided
         * copy on the device when dst is not dense) */
        stage = mt__contiguous_on(src, ddt, MT_DEVICE_CPU);
    }
    else if (sdt == ddt && dd.type == MT_CUDA) {
        /* device -> another device: dense on the source device, then one transfer */
        stage = src->contiguous ? (mt_tensor_incref(src), src)
                                : mt__contiguous_on(src, sdt, sd);
    }
    else {
        /* device -> host, or a cast: dense on the source device, to the host in src's
         * dtype, the rest by the cpu copy (cast, strides) */
        mt_tensor *dense = src->contiguous ? (mt_tensor_incref(src), src)
                                           : mt__contiguous_on(src, sdt, sd);
        stage = dense == NULL ? NULL : mt_tensor_empty(sdt, src->ndim, src->sizes, MT_DEVICE_CPU);
        if (stage != NULL &&
            mt_bytes_copy(mt_tensor_data(stage), MT_DEVICE_CPU, mt_tensor_data(dense), sd,
                          (size_t)src->numel * mt_dtype_itemsize(sdt), false) < 0) {
            mt_tensor_decref(stage);
            stage = NULL;
        }
        mt_tensor_decref(dense);
    }
    if (stage == NULL) {
        return mt_error_code();
    }
    if (dd.type == MT_CPU || stage->dtype != ddt) {
        rc = mt_copy_(dst, stage); /* the cpu's cast loops, or (device cast) host -> device */
    }
    else if (dst->contiguous) {
        rc = mt_bytes_copy(mt_tensor_data(dst), dd, mt_tensor_data(stage), mt_tensor_device(stage),
                           nbytes, false);
    }
    else {
        mt_tensor *dense = mt_tensor_empty(ddt, dst->ndim, dst->sizes, dd);
        rc = dense == NULL ? mt_error_code()
                           : mt_bytes_copy(mt_tensor_data(dense), dd, mt_tensor_data(stage),
                                           mt_tensor_device(stage), nbytes, false);
        if (rc == MT_OK) {
            rc = mt_copy_(dst, dense); /* the strided copy kernel */
        }
        mt_tensor_decref(dense);
    }
    mt_tensor_decref(stage);
    return rc;
}

static const mt_copy_kernels mt__cuda_copy_kernels = {.copy = mt__cuda_copy};

/* ---- fill ---- */

static int
mt__cuda_fill(const mt_iter *it, mt_dtype dt, const void *elem)
{
    mt_tensor *t = it->tensors[0];
    const int isz = (int)mt_dtype_itemsize(dt);
    mt_cuda_geom g;
    mt__geom(it, 1, &g);
    if (g.contiguous) {
        return mt_bytes_fill(mt_tensor_device(t), it->data[0], (size_t)it->numel * (size_t)isz,
                             elem, (size_t)isz);
    }
    return mt_cuda_strided_fill(mt__index(t), mt_cuda_current_stream(mt__index(t)), &g,
                                it->data[0], elem, isz);
}

static const mt_fill_kernels mt__cuda_fill_kernels = {.fill = mt__cuda_fill, .sequence = mt__cuda_sequence};

/* ---- elementwise ---- */

static bool
mt__cuda_op(mt_op op, mt_cuda_op *out)
{
    switch (op) {
    case MT_OP_ADD:
        *out = MT_CUDA_ADD;
        return true;
    case MT_OP_SUB:
        *out = MT_CUDA_SUB;
        return true;
    case MT_OP_MUL:
        *out = MT_CUDA_MUL;
        return true;
    case MT_OP_DIV:
        *out = MT_CUDA_DIV;
        return true;
    case MT_OP_NEG:
        *out = MT_CUDA_NEG;
        return true;
    case MT_OP_EXP:
        *out = MT_CUDA_EXP;
        return true;
    case MT_OP_RELU:
        *out = MT_CUDA_RELU;
        return true;
    case MT_OP_RECIPROCAL:
        *out = MT_CUDA_RECIPROCAL;
        return true;
    default:
        return false;
    }
}

static int
mt__cuda_ew_check(mt_op op, mt_dtype dt)
{
    mt_cuda_op k;
    if (!mt__cuda_op(op, &k) || (dt != MT_FLOAT32 && dt != MT_FLOAT64)) {
        return mt_error_set(MT_ENOTIMPL, "\"%s_cuda\" not implemented for '%s'", mt_op_name(op),
                            mt_dtype_scalar_name(dt));
    }
    return MT_OK;
}

static int
mt__cuda_ew_run(const mt_iter *it, const mt_elementwise_call *call)
{
    mt_cuda_op k;
    if (!mt__cuda_op(call->op, &k) || it->noperands > MT_CUDA_MAX_OPERANDS) {
        return mt__cuda_ew_check(call->op, call->dtype);
    }
    char *data[MT_CUDA_MAX_OPERANDS] = {NULL};
    double scalar[MT_CUDA_MAX_OPERANDS] = {0};
    int is_double[MT_CUDA_MAX_OPERANDS] = {0};
    data[0] = it->data[0];
    int device = mt__index(it->tensors[0]);
    for (int i = 1; i < it->noperands; i++) {
        const mt_tensor *t = it->tensors[i];
        const mt_dtype want = call->compute != NULL ? call->compute[i - 1] : call->dtype;
        if (mt_tensor_device(t).type == MT_CPU) {
            /* a 0-d cpu operand: its value, read on the host, travels with the launch */
            scalar[i] = mt_scalar_to_double(mt_scalar_load(it->data[i], t->dtype));
        }
        else if ((t->dtype != MT_FLOAT32 && t->dtype != MT_FLOAT64) || want != call->dtype) {
            /* float32/float64 operands convert on the fly; other dtypes not yet */
            return mt_error_set(MT_ENOTIMPL, "\"%s_cuda\": inputs of dtype %s computed in %s "
                                "are not implemented yet", mt_op_name(call->op),
                                mt_dtype_name(t->dtype), mt_dtype_name(call->dtype));
        }
        else {
            data[i] = it->data[i];
            is_double[i] = t->dtype == MT_FLOAT64;
        }
    }
    mt_cuda_geom g;
    mt__geom(it, it->noperands, &g);
    return mt_cuda_elementwise(device, mt_cuda_current_stream(device), &g, k,
                               call->dtype == MT_FLOAT64, data, scalar, is_double);
}

static const mt_elementwise_kernels mt__cuda_elementwise_kernels = {
    .check = mt__cuda_ew_check,
    .run = mt__cuda_ew_run,
};

void mt__cuda_norm_register(void);
void mt__cuda_optim_register(void);

void mt__cuda_gemm_register(void);
void mt__cuda_conv_register(void);
void mt__cuda_index_register(void);
void mt__cuda_sort_register(void);
void mt__cuda_reduce_register(void);
void mt__cuda_scan_register(void);
void mt__cuda_random_register(void);

void
mt_cuda_kernels_register(void)
{
    mt_copy_stub[MT_CUDA][MT_CPU] = &mt__cuda_copy_kernels;
    mt_copy_stub[MT_CPU][MT_CUDA] = &mt__cuda_copy_kernels;
    mt_copy_stub[MT_CUDA][MT_CUDA] = &mt__cuda_copy_kernels;
    MT_REGISTER_STUB(fill, MT_CUDA, &mt__cuda_fill_kernels);
    MT_REGISTER_STUB(elementwise, MT_CUDA, &mt__cuda_elementwise_kernels);
    mt__cuda_norm_register();
    mt__cuda_optim_register();
    mt__cuda_gemm_register();
    mt__cuda_conv_register();
    mt__cuda_index_register();
    mt__cuda_sort_register();
    mt__cuda_reduce_register();
    mt__cuda_scan_register();
    mt__cuda_random_register();
}
