/* aten_lite/dispatch.h - kernel stubs per family and device, and the elementwise loop table. */
#ifndef ATEN_LITE_DISPATCH_H
#define ATEN_LITE_DISPATCH_H

#include "aten_lite/iter.h"
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

/* X(ENUM, name): binary ops (operands: out, a, b) */
#define MT_FORALL_BINARY_OPS(X)          \
    X(MT_OP_ADD, add)                    \
    X(MT_OP_ADD_ALPHA, add)              \
    X(MT_OP_SUB, sub)                    \
    X(MT_OP_SUB_ALPHA, sub)              \
    X(MT_OP_MUL, mul)                    \
    X(MT_OP_DIV, div)                    \
    X(MT_OP_DIV_TRUNC, div_trunc)        \
    X(MT_OP_DIV_FLOOR, div_floor)        \
    X(MT_OP_REMAINDER, remainder)        \
    X(MT_OP_FMOD, fmod)                  \
    X(MT_OP_POW, pow)                    \
    X(MT_OP_MAXIMUM, maximum)            \
    X(MT_OP_MINIMUM, minimum)            \
    X(MT_OP_ATAN2, atan2)                \
    X(MT_OP_EQ, eq)                      \
    X(MT_OP_NE, ne)                      \
    X(MT_OP_LT, lt)                      \
    X(MT_OP_LE, le)                      \
    X(MT_OP_GT, gt)                      \
    X(MT_OP_GE, ge)                      \
    X(MT_OP_LOGICAL_AND, logical_and)    \
    X(MT_OP_LOGICAL_OR, logical_or)      \
    X(MT_OP_LOGICAL_XOR, logical_xor)    \
    X(MT_OP_BITWISE_AND, bitwise_and)    \
    X(MT_OP_BITWISE_OR, bitwise_or)      \
    X(MT_OP_BITWISE_XOR, bitwise_xor)    \
    X(MT_OP_LSHIFT, bitwise_left_shift)  \
    X(MT_OP_RSHIFT, bitwise_right_shift) \
    X(MT_OP_HYPOT, hypot)                \
    X(MT_OP_LOGADDEXP, logaddexp)        \
    X(MT_OP_LOGADDEXP2, logaddexp2)      \
    X(MT_OP_FMAX, fmax)                  \
    X(MT_OP_FMIN, fmin)                  \
    X(MT_OP_COPYSIGN, copysign)          \
    X(MT_OP_XLOGY, xlogy)                \
    X(MT_OP_RELU_BACKWARD, relu_backward) \
    X(MT_OP_LEAKY_SCALE, leaky_scale)

/* X(ENUM, name): unary ops (operands: out, a) */
#define MT_FORALL_UNARY_OPS(X)           \
    X(MT_OP_NEG, neg)                    \
    X(MT_OP_ABS, abs)                    \
    X(MT_OP_SIGN, sign)                  \
    X(MT_OP_EXP, exp)                    \
    X(MT_OP_EXPM1, expm1)                \
    X(MT_OP_LOG, log)                    \
    X(MT_OP_LOG1P, log1p)                \
    X(MT_OP_LOG2, log2)                  \
    X(MT_OP_LOG10, log10)                \
    X(MT_OP_SQRT, sqrt)                  \
    X(MT_OP_RSQRT, rsqrt)                \
    X(MT_OP_SIN, sin)                    \
    X(MT_OP_COS, cos)                    \
    X(MT_OP_TAN, tan)                    \
    X(MT_OP_TANH, tanh)                  \
    X(MT_OP_SIGMOID, sigmoid)            \
    X(MT_OP_RELU, relu)                  \
    X(MT_OP_ERF, erf)                    \
    X(MT_OP_FLOOR, floor)                \
    X(MT_OP_CEIL, ceil)                  \
    X(MT_OP_ROUND, round)                \
    X(MT_OP_TRUNC, trunc)                \
    X(MT_OP_RECIPROCAL, reciprocal)      \
    X(MT_OP_SQUARE, square)              \
    X(MT_OP_ISNAN, isnan)                \
    X(MT_OP_ISINF, isinf)                \
    X(MT_OP_ISFINITE, isfinite)          \
    X(MT_OP_BITWISE_NOT, bitwise_not)    \
    X(MT_OP_LOGICAL_NOT, logical_not)    \
    X(MT_OP_SGN, sgn)                    \
    X(MT_OP_ANGLE, angle)                \
    X(MT_OP_CONJ_PHYSICAL, conj_physical) \
    X(MT_OP_ASIN, asin)                  \
    X(MT_OP_ACOS, acos)                  \
    X(MT_OP_ATAN, atan)                  \
    X(MT_OP_SINH, sinh)                  \
    X(MT_OP_COSH, cosh)                  \
    X(MT_OP_ASINH, asinh)                \
    X(MT_OP_ACOSH, acosh)                \
    X(MT_OP_ATANH, atanh)                \
    X(MT_OP_EXP2, exp2)                  \
    X(MT_OP_ERFC, erfc)                  \
    X(MT_OP_ERFINV, erfinv)              \
    X(MT_OP_LGAMMA, lgamma)              \
    X(MT_OP_DEG2RAD, deg2rad)            \
    X(MT_OP_RAD2DEG, rad2deg)            \
    X(MT_OP_SINC, sinc)                  \
    X(MT_OP_FRAC, frac)                  \
    X(MT_OP_SIGNBIT, signbit)

/* X(ENUM, name): kernels without a public entry point of their own (the fused activations and
 * their derivatives, which nn.functional and the derivative formulas call); binary ones take
 * (out, a, b), unary ones (out, a) */
#define MT_FORALL_KERNEL_BINARY_OPS(X)                  \
    X(MT_OP_GELU_BACKWARD, gelu_backward)               \
    X(MT_OP_GELU_TANH_BACKWARD, gelu_backward)
#define MT_FORALL_KERNEL_UNARY_OPS(X) \
    X(MT_OP_GELU, gelu)               \
    X(MT_OP_GELU_TANH, gelu)
/* X(ENUM, name): the special functions (aten_lite/cpu/special.c, Note [Special functions] in
 * cpu/special_math.h); binary ones (operands: out, a, b), then unary ones.  The names are
 * torch's kernel names (its "not implemented" messages).  polygamma's order n travels in
 * mt_binary_ctx.alpha_i (the operand b is that number, for the promotion). */
#define MT_FORALL_SPECIAL_BINARY_OPS(X)                                    \
    X(MT_OP_POLYGAMMA, polygamma)                                          \
    X(MT_OP_ZETA, zeta)                                                    \
    X(MT_OP_XLOG1PY, xlog1py)                                              \
    X(MT_OP_IGAMMA, igamma)                                                \
    X(MT_OP_IGAMMAC, igammac)                                              \
    X(MT_OP_HEAVISIDE, heaviside)                                          \
    X(MT_OP_NEXTAFTER, nextafter)                                          \
    X(MT_OP_GCD, gcd)                                                      \
    X(MT_OP_LCM, lcm)                                                      \
    X(MT_OP_CHEBYSHEV_T, chebyshev_polynomial_t)                           \
    X(MT_OP_CHEBYSHEV_U, chebyshev_polynomial_u)                           \
    X(MT_OP_CHEBYSHEV_V, chebyshev_polynomial_v)                           \
    X(MT_OP_CHEBYSHEV_W, chebyshev_polynomial_w)                           \
    X(MT_OP_SHIFTED_CHEBYSHEV_T, shifted_chebyshev_polynomial_t)           \
    X(MT_OP_SHIFTED_CHEBYSHEV_U, shifted_chebyshev_polynomial_u)           \
    X(MT_OP_SHIFTED_CHEBYSHEV_V, shifted_chebyshev_polynomial_v)           \
    X(MT_OP_SHIFTED_CHEBYSHEV_W, shifted_chebyshev_polynomial_w)           \
    X(MT_OP_HERMITE_H, hermite_polynomial_h)                               \
    X(MT_OP_HERMITE_HE, hermite_polynomial_he)                             \
    X(MT_OP_LAGUERRE_L, laguerre_polynomial_l)                             \
    X(MT_OP_LEGENDRE_P, legendre_polynomial_p)
#define MT_FORALL_SPECIAL_UNARY_OPS(X)                                     \
    X(MT_OP_DIGAMMA, digamma)                                              \
    X(MT_OP_I0, i0)                                                        \
    X(MT_OP_I0E, i0e)                                                      \
    X(MT_OP_I1, i1)                                                        \
    X(MT_OP_I1E, i1e)                                                      \
    X(MT_OP_ERFCX, erfcx)                                                  \
    X(MT_OP_NDTR, ndtr)                                                    \
    X(MT_OP_NDTRI, ndtri)                                                  \
    X(MT_OP_LOG_NDTR, log_ndtr)                                            \
    X(MT_OP_ENTR, entr)                                                    \
    X(MT_OP_AIRY_AI, airy_ai)                                              \
    X(MT_OP_BESSEL_J0, bessel_j0)                                          \
    X(MT_OP_BESSEL_J1, bessel_j1)                                          \
    X(MT_OP_BESSEL_Y0, bessel_y0)                                          \
    X(MT_OP_BESSEL_Y1, bessel_y1)                                          \
    X(MT_OP_MODIFIED_BESSEL_I0, modified_bessel_i0)                        \
    X(MT_OP_MODIFIED_BESSEL_I1, modified_bessel_i1)                        \
    X(MT_OP_MODIFIED_BESSEL_K0, modified_bessel_k0)                        \
    X(MT_OP_MODIFIED_BESSEL_K1, modified_bessel_k1)                        \
    X(MT_OP_SCALED_MODIFIED_BESSEL_K0, scaled_modified_bessel_k0)          \
    X(MT_OP_SCALED_MODIFIED_BESSEL_K1, scaled_modified_bessel_k1)          \
    X(MT_OP_SPHERICAL_BESSEL_J0, spherical_bessel_j0)                      \
    X(MT_OP_FREXP_MANTISSA, frexp)                                         \
    X(MT_OP_FREXP_EXPONENT, frexp_exponent)

/* X(ENUM, name): ternary kernels (operands: out, a, b, c): where's (out, cond, x, y) */
#define MT_FORALL_KERNEL_TERNARY_OPS(X) \
    X(MT_OP_WHERE, where)

typedef enum mt_op {
#define MT__OP_ENUM(e, n) e,
    MT_FORALL_BINARY_OPS(MT__OP_ENUM) MT_FORALL_UNARY_OPS(MT__OP_ENUM)
    MT_FORALL_KERNEL_BINARY_OPS(MT__OP_ENUM) MT_FORALL_KERNEL_UNARY_OPS(MT__OP_ENUM)
    MT_FORALL_SPECIAL_BINARY_OPS(MT__OP_ENUM) MT_FORALL_SPECIAL_UNARY_OPS(MT__OP_ENUM)
    MT_FORALL_KERNEL_TERNARY_OPS(MT__OP_ENUM)
#undef MT__OP_ENUM
    MT_NUM_OPS
} mt_op;

#define MT_FIRST_UNARY_OP MT_OP_NEG

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
