/* aten_lite/dispatch.h - kernel stubs per family and device, and the elementwise loop table. */
#ifndef ATEN_LITE_DISPATCH_H
#define ATEN_LITE_DISPATCH_H

#include "aten_lite/iter.h"
#include "aten_lite/op_list.h"
#include "c10_lite/device.h"

/* Note [Kernel stubs]
 * Every op is split in two, as torch's DispatchStub splits ATen:
 *  - device-neutral op code (elementwise.c, reduce.c, copy.c, index_ops.c, ...): argument
 *    and shape checks, type promotion, out= handling, allocation of results on the inputs'
 *    device, and the one device check (mt_check_same_device: torch's "Expected all tensors
 *    to be on the same device, but found at least two devices, cuda:0 and cpu!").  It
 *    never reads or writes tensor memory (a value it needs goes through mt_item);
 *  - kernels, one table per kernel FAMILY and device type: a struct of function pointers
 *    (mt_elementwise_kernels, mt_reduce_kernels, ...: aten_lite/kernel_stubs.h, which
 *    states each member's contract), and the family's stub
 *    mt_<family>_stub[MT_NUM_DEVICE_TYPES] of pointers to such structs.  Kernels are the
 *    only code that touches tensor memory: host memory for the cpu entry, device memory
 *    for the cuda one.
 * The verbs:
 *    MT_DECLARE_STUB(family, kernels_type);   in a header: the stub exists
 *    MT_DEFINE_STUB(family, kernels_type);    in dispatch.c: its storage (all NULL)
 *    MT_REGISTER_STUB(family, MT_CPU, &tbl);  from a device's init: that device's table
 *    fn = MT_STUB(family, member, dev, "op"); in op code: the kernel, or NULL with the error
 *    fn = MT_STUB_TRY(family, member, dev);   a fast path with a composite fallback: NULL
 * A device may register a table with members still NULL (kernels not written yet): a NULL
 * table or member is the one missing-kernel error, mt_kernel_missing(), which names the op
 * and the device as torch's dispatcher does ("Could not run 'aten::sum' with arguments
 * from the 'CUDA' backend.") and raises NotImplementedError.  CPU tables register from
 * mt_aten_init() (each file its mt__cpu_<family>_register()); CUDA kernels (aten_lite/cuda/)
 * register the cuda entries the same way from their own init.  Copies take two device
 * types (mt_copy_stub[dst][src], MT_STUB2: host<->device transfers are a device's kernels).
 * The elementwise family's cpu entry looks its inner loops up in the table of Note
 * [Dispatch table].  A lookup is two loads and a branch; the op name is evaluated only
 * on a miss.
 * Two device rules follow torch: a 0-d cpu tensor is a scalar operand of an elementwise
 * op on any device, and the index tensors of advanced indexing may be cpu tensors. */

/* Note [Dispatch table]
 * The cpu elementwise kernel (see Note [Kernel stubs]) looks its inner loop up once per
 * call in mt_dispatch[device][op][dtype], where dtype is the dtype the op computes in (its
 * inputs after promotion).  A NULL entry means "not implemented for that dtype" and turns
 * into torch's message ("\"bitwise_and_cpu\" not implemented for 'Float'").  CPU loops
 * register themselves from mt_aten_init(). */

/* The op list (mt_op): aten_lite/op_list.h. */


extern mt_loop_fn mt_dispatch[MT_NUM_DEVICE_TYPES][MT_NUM_OPS][MT_NUM_DTYPES];

/* GCC's `pure`: the op-name functions only read their argument, so an MT_STUB whose op name
 * is a call costs nothing when the kernel is there (the call is never made). */
#if defined(__GNUC__)
#define MT_PURE __attribute__((pure))
#else
#define MT_PURE
#endif

/* torch-style op name ("add", "bitwise_and"). */
const char *mt_op_name(mt_op op) MT_PURE;
/* The loop, or NULL with "\"<op>_cpu\" not implemented for '<Dtype>'" set. */
mt_loop_fn mt_dispatch_lookup(mt_device_type dev, mt_op op, mt_dtype dt);
/* MT_ENOTIMPL with torch's '"<kernel>" not implemented for <dtype>' when dt is a barebones
 * unsigned dtype (see Note [Barebones unsigned dtypes]), which no compute kernel handles;
 * MT_OK otherwise. */
int mt_reject_barebones(mt_dtype dt, const char *kernel);

/* Context passed to binary loops (alpha for add/sub, error flag for integer
 * division by zero). */
typedef struct mt_binary_ctx {
    double alpha_f;
    int64_t alpha_i;
    int zero_division; /* set by integer division loops, read after the op */
    mt_complex128 alpha_z; /* alpha for complex add/sub */
} mt_binary_ctx;

/* ---- kernel stubs (see Note [Kernel stubs]) ---- */
#define MT_DECLARE_STUB(family, kernels_type)                                              \
    extern const kernels_type *mt_##family##_stub[MT_NUM_DEVICE_TYPES];                    \
    extern const kernels_type mt__##family##_none /* every member NULL: MT_STUB's miss */
#define MT_DEFINE_STUB(family, kernels_type)                                               \
    const kernels_type *mt_##family##_stub[MT_NUM_DEVICE_TYPES];                           \
    const kernels_type mt__##family##_none
#define MT_REGISTER_STUB(family, dev, kernels) ((void)(mt_##family##_stub[(dev)] = (kernels)))
/* Kernel `member` of `family` for device type dev (an expression of the member's
 * function-pointer type), or NULL after mt_kernel_missing(op, dev); `op` is evaluated only
 * then, so it may be a call (mt_op_name(op)) at no cost to the hit. */
#define MT_STUB(family, member, dev, op)                                                   \
    (mt_##family##_stub[(dev)] != NULL && mt_##family##_stub[(dev)]->member != NULL        \
         ? mt_##family##_stub[(dev)]->member                                               \
         : ((void)mt_kernel_missing((op), (dev)), mt__##family##_none.member))
/* The same without an error: NULL when missing.  Only for fast paths that have a composite
 * fallback (the fused softmax and layer norm), whose callers then compute the op otherwise. */
#define MT_STUB_TRY(family, member, dev)                                                   \
    (mt_##family##_stub[(dev)] != NULL ? mt_##family##_stub[(dev)]->member : NULL)
/* Copy kernels are per (destination, source) device pair: mt_copy_stub[dst][src]. */
#define MT_STUB2(family, member, dst, src, op)                                             \
    (mt_##family##_stub[(dst)][(src)] != NULL && mt_##family##_stub[(dst)][(src)]->member != NULL \
         ? mt_##family##_stub[(dst)][(src)]->member                                        \
         : ((void)mt_kernel_missing((op), (dst) != MT_CPU ? (dst) : (src)),                \
            mt__##family##_none.member))

/* The one error for an op without a kernel on a device: MT_ENOTIMPL (NotImplementedError)
 * with "Could not run 'aten::<op>' with arguments from the '<Device>' backend. ...".
 * Returns MT_ENOTIMPL. */
int mt_kernel_missing(const char *op, mt_device_type dev);
/* The device check of device-neutral op code: MT_OK when the n tensors (NULL entries
 * skipped) are on one device, else MT_ERUNTIME with torch's "Expected all tensors to be on
 * the same device, but found at least two devices, cuda:0 and cpu!", the first non-cpu
 * device first, as torch).
 * *dev (may be NULL) receives their device type (MT_CPU when every entry is NULL). */
int mt_check_same_device(int n, const mt_tensor *const *ts, mt_device_type *dev);
/* The same for two tensors, the common case (a, b may be NULL). */
int mt_check_same_device2(const mt_tensor *a, const mt_tensor *b, mt_device_type *dev);

/* Registration functions of the CPU kernel files. */
void mt__cpu_binary_register(void);
void mt__cpu_unary_register(void);
void mt__cpu_activation_register(void);
void mt__cpu_special_register(void);

#endif /* ATEN_LITE_DISPATCH_H */
