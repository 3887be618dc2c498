/* aten_lite/cuda/register.c - the CUDA entries of the kernel stubs (Note [Kernel stubs]):
 * copies and casts between the host and the devices, and fills, over the launchers of
 * aten_lite/cuda/ *.cu (the elementwise kernels register from elementwise.c).  Built only with
 * CUDA (real or emulated). */
#include <string.h>

#include "aten_lite/cuda/elementwise.h"
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
 *  - one device: the strided copy kernel, or the converting one (Note [CUDA casts]) when the
 *    dtypes differ, over the iterator's strides;
 *  - a cast between devices: the cast runs on the side where the transfer is no larger (the
 *    source casts when the destination's dtype is no wider, else the destination after the
 *    transfer), on a contiguous temporary, and the bytes move in one dtype;
 *  - one dtype between devices, not dense: staged, the strided part done on the side that
 *    has it (the cpu's loops, the device's strided copy) on a contiguous temporary.
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
    if (dd.type == MT_CUDA && mt_device_eq(dd, sd)) {
        mt_cuda_geom g;
        mt__cuda_geom(it, 2, &g);
        void *stream = mt_cuda_current_stream(dd.index);
        if (ddt == sdt) {
            return mt_cuda_strided_copy(dd.index, stream, &g, it->data[0], it->data[1],
                                        (int)mt_dtype_itemsize(ddt));
        }
        return mt_cuda_cast(dd.index, stream, &g, it->data[0], (int)ddt, it->data[1], (int)sdt);
    }
    if (ddt != sdt) {
        /* a cast between devices: on the side where the transfer is no larger */
        const bool at_source = sd.type == MT_CPU || dd.type == MT_CUDA
                                   ? mt_dtype_itemsize(ddt) <= mt_dtype_itemsize(sdt)
                                   : mt_dtype_itemsize(ddt) < mt_dtype_itemsize(sdt);
        mt_tensor *tmp = at_source ? mt__contiguous_on(src, ddt, sd) : mt__contiguous_on(src, sdt, dd);
        if (tmp == NULL) {
            return mt_error_code();
        }
        int rc = mt_copy_(dst, tmp);
        mt_tensor_decref(tmp);
        return rc;
    }
    /* staged: make the source a dense tensor of dst's dtype where that is cheap, move it */
    mt_tensor *stage = NULL;
    int rc;
    if (sd.type == MT_CPU) {
        /* host -> device: gather on the host, then one transfer (and a strided copy on the
         * device when dst is not dense) */
        stage = mt__contiguous_on(src, ddt, MT_DEVICE_CPU);
    }
    else if (dd.type == MT_CUDA) {
        /* device -> another device: dense on the source device, then one transfer */
        stage = src->contiguous ? (mt_tensor_incref(src), src)
                                : mt__contiguous_on(src, sdt, sd);
    }
    else {
        /* device -> host: dense on the source device, to the host, the rest by the cpu
         * copy (strides) */
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
    if (dd.type == MT_CPU) {
        rc = mt_copy_(dst, stage); /* the cpu's strided copy */
    }
    else if (dst->contiguous && stage->numel == it->numel) {
        rc = mt_bytes_copy(mt_tensor_data(dst), dd, mt_tensor_data(stage), mt_tensor_device(stage),
                           nbytes, false);
    }
    else {
        /* dst not dense, or src broadcast to it: the stage's elements to the device, then the
         * strided copy kernel */
        mt_tensor *dense = mt_tensor_empty(ddt, stage->ndim, stage->sizes, dd);
        rc = dense == NULL ? mt_error_code()
                           : mt_bytes_copy(mt_tensor_data(dense), dd, mt_tensor_data(stage),
                                           mt_tensor_device(stage),
                                           (size_t)stage->numel * mt_dtype_itemsize(ddt), false);
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
    mt__cuda_geom(it, 1, &g);
    if (g.contiguous) {
        return mt_bytes_fill(mt_tensor_device(t), it->data[0], (size_t)it->numel * (size_t)isz,
                             elem, (size_t)isz);
    }
    return mt_cuda_strided_fill(mt__index(t), mt_cuda_current_stream(mt__index(t)), &g,
                                it->data[0], elem, isz);
}

static const mt_fill_kernels mt__cuda_fill_kernels = {.fill = mt__cuda_fill, .sequence = mt__cuda_sequence};

/* each kernel family's registration (aten_lite/cuda/<family>.c) */
void mt__cuda_elementwise_register(void);
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
    mt__cuda_elementwise_register();
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
