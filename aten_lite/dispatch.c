/* aten_lite/dispatch.c - the kernel table and its lookup. See Note [Dispatch table]. */
#include "aten_lite/dispatch.h"

#include "aten_lite/kernel_stubs.h"
#include "aten_lite/ops.h"
#include "c10_lite/error.h"

mt_loop_fn mt_dispatch[MT_NUM_DEVICE_TYPES][MT_NUM_OPS][MT_NUM_DTYPES];

MT_DEFINE_STUB(elementwise, mt_elementwise_kernels);
MT_DEFINE_STUB(fill, mt_fill_kernels);
MT_DEFINE_STUB(reduce, mt_reduce_kernels);
MT_DEFINE_STUB(random, mt_random_kernels);
MT_DEFINE_STUB(scan, mt_scan_kernels);
MT_DEFINE_STUB(norm, mt_norm_kernels);
MT_DEFINE_STUB(index, mt_index_kernels);
MT_DEFINE_STUB(sort, mt_sort_kernels);
MT_DEFINE_STUB(gemm, mt_gemm_kernels);
MT_DEFINE_STUB(conv, mt_conv_kernels);
MT_DEFINE_STUB(optim, mt_optim_kernels);
MT_DEFINE_STUB(loss, mt_loss_kernels);
const mt_copy_kernels *mt_copy_stub[MT_NUM_DEVICE_TYPES][MT_NUM_DEVICE_TYPES];
const mt_copy_kernels mt__copy_none;

static const char *const mt__op_names[MT_NUM_OPS] = {
#define MT__OP_NAME(e, n) [e] = #n,
    MT_FORALL_BINARY_OPS(MT__OP_NAME) MT_FORALL_UNARY_OPS(MT__OP_NAME)
    MT_FORALL_KERNEL_BINARY_OPS(MT__OP_NAME) MT_FORALL_KERNEL_UNARY_OPS(MT__OP_NAME)
    MT_FORALL_SPECIAL_BINARY_OPS(MT__OP_NAME) MT_FORALL_SPECIAL_UNARY_OPS(MT__OP_NAME)
    MT_FORALL_KERNEL_TERNARY_OPS(MT__OP_NAME)
#undef MT__OP_NAME
};

const char *
mt_op_name(mt_op op)
{
    return (op >= 0 && op < MT_NUM_OPS) ? mt__op_names[op] : "?";
}

mt_loop_fn
mt_dispatch_lookup(mt_device_type dev, mt_op op, mt_dtype dt)
{
    mt_loop_fn fn = mt_dispatch[dev][op][dt];
    if (fn == NULL) {
        mt_error_set(MT_ENOTIMPL, "\"%s_%s\" not implemented for '%s'",
                     mt_op_name(op), mt_device_type_name(dev), mt_dtype_scalar_name(dt));
    }
    return fn;
}

/* The dispatcher's name of a device type's backend ("CPU", "CUDA"). */
static const char *
mt__backend_name(mt_device_type dev)
{
    switch (dev) {
    case MT_CPU:
        return "CPU";
    case MT_CUDA:
        return "CUDA";
    default:
        return "?";
    }
}

int
mt_kernel_missing(const char *op, mt_device_type dev)
{
    return mt_error_set(MT_ENOTIMPL,
                        "Could not run 'aten::%s' with arguments from the '%s' backend. This "
                        "operator has no %s kernel in minitorch yet.",
                        op, mt__backend_name(dev), mt__backend_name(dev));
}

int
mt_check_same_device(int n, const mt_tensor *const *ts, mt_device_type *dev)
{
    /* as torch's TensorIterator: the common device is the first that is not the cpu, and
     * the message names it first */
    mt_device common = MT_DEVICE_CPU;
    for (int i = 0; i < n; i++) {
        if (ts[i] != NULL && mt_tensor_device(ts[i]).type != MT_CPU) {
            common = mt_tensor_device(ts[i]);
            break;
        }
    }
    for (int i = 0; i < n; i++) {
        if (ts[i] == NULL) {
            continue;
        }
        mt_device d = mt_tensor_device(ts[i]);
        if (d.type != common.type || (d.type != MT_CPU && d.index != common.index)) {
            char sa[32], sb[32];
            return mt_error_set(MT_ERUNTIME, "Expected all tensors to be on the same device, but "
                                             "found at least two devices, %s and %s!",
                                mt_device_str(common, sa, sizeof(sa)), mt_device_str(d, sb, sizeof(sb)));
        }
    }
    if (dev != NULL) {
        *dev = common.type;
    }
    return MT_OK;
}

int
mt_check_same_device2(const mt_tensor *a, const mt_tensor *b, mt_device_type *dev)
{
    const mt_tensor *ts[2] = {a, b};
    return mt_check_same_device(2, ts, dev);
}

int
mt_reject_barebones(mt_dtype dt, const char *kernel)
{
    if (mt_dtype_is_barebones_unsigned(dt)) {
        return mt_error_set(MT_ENOTIMPL, "\"%s\" not implemented for '%s'", kernel, mt_dtype_scalar_name(dt));
    }
    return MT_OK;
}

void
mt_aten_init(void)
{
    static int done;
    if (done) {
        return;
    }
    done = 1;
    mt_cpu_allocator_init();
    mt__cpu_binary_register();
    mt__cpu_unary_register();
    mt__cpu_activation_register();
    mt__cpu_special_register();
    mt__cpu_elementwise_register();
    mt__cpu_copy_register();
    mt__cpu_reduce_register();
    mt__cpu_random_register();
    mt__cpu_scan_register();
    mt__cpu_norm_register();
    mt__cpu_index_register();
    mt__cpu_sort_register();
    mt__cpu_gemm_register();
    mt__cpu_conv_register();
    mt__cpu_optim_register();
    mt__cpu_loss_register();
#ifdef MT_WITH_CUDA
    mt_cuda_kernels_register();
#endif
}
