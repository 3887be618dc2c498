/* aten_lite/dispatch.c - the kernel table and its lookup. See Note [Dispatch table]. */
#include "aten_lite/dispatch.h"

#include "aten_lite/ops.h"
#include "c10_lite/error.h"

mt_loop_fn mt_dispatch[MT_NUM_DEVICE_TYPES][MT_NUM_OPS][MT_NUM_DTYPES];

static const char *const mt__op_names[MT_NUM_OPS] = {
#define MT__OP_NAME(e, n) [e] = #n,
    MT_FORALL_BINARY_OPS(MT__OP_NAME) MT_FORALL_UNARY_OPS(MT__OP_NAME)
    MT_FORALL_KERNEL_BINARY_OPS(MT__OP_NAME) MT_FORALL_KERNEL_UNARY_OPS(MT__OP_NAME)
    MT_FORALL_SPECIAL_BINARY_OPS(MT__OP_NAME) MT_FORALL_SPECIAL_UNARY_OPS(MT__OP_NAME)
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
}
