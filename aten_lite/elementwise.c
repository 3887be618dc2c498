/* aten_lite/elementwise.c - binary/unary/ternary elementwise ops: promotion, output, dispatch. */
#include <string.h>

#include "aten_lite/kernel_stubs.h"
#include "aten_lite/ops.h"
#include "c10_lite/error.h"

/* Note [Scalar operands]
 * A Python number in `t + 1` never becomes a heap tensor: it is written into
 * an 8-byte buffer on the stack, converted to the compute dtype, and wrapped
 * in a stack 0-d tensor the iterator broadcasts with stride 0.  This is safe
 * because the iterator borrows its inputs for the duration of the call only.
 * See Note [TensorIterator]. */
typedef struct {
    mt_storage storage;
    uint64_t value[2]; /* 16 bytes: complex128 */
    mt_tensor tensor; /* 0-d: no dims */
} mt__stack_scalar;

static mt_tensor *
mt__stack_scalar_init(mt__stack_scalar *h, mt_scalar s, mt_dtype dt)
{
    h->value[0] = h->value[1] = 0;
    mt_scalar_store(s, dt, h->value);
    atomic_init(&h->storage.refcount, 1);
    h->storage.data = h->value;
    h->storage.nbytes = sizeof(h->value);
    h->storage.device = MT_DEVICE_CPU;
    h->storage.deleter = NULL;
    h->storage.deleter_ctx = NULL;
    atomic_init(&h->storage.resizable, false);
    atomic_init(&h->tensor.refcount, 1);
    h->tensor.storage = &h->storage;
    h->tensor.offset = 0;
    h->tensor.numel = 1;
    h->tensor.dtype = dt;
    h->tensor.ndim = 0;
    h->tensor.contiguous = true;
    h->tensor.sizes = h->tensor.dims_;
    h->tensor.strides = h->tensor.dims_;
    return &h->tensor;
}

static void
mt__update_state(mt_result_state *st, mt_arg x)
{
    if (x.t != NULL) {
        mt_result_state_update(st, x.t->dtype, x.t->ndim > 0 ? MT_OPERAND_DIM : MT_OPERAND_ZERO_DIM);
    }
    else {
        mt_result_state_update(st, mt_scalar_dtype(x.s), MT_OPERAND_WRAPPED);
    }
}

mt_dtype
mt_result_type2(mt_arg a, mt_arg b)
{
    mt_result_state st = MT_RESULT_STATE_INIT;
    mt__update_state(&st, a);
    mt__update_state(&st, b);
    return mt_result_state_get(&st);
}

static bool
mt__op_outputs_bool(mt_op op)
{
    return (op >= MT_OP_EQ && op <= MT_OP_LOGICAL_XOR) || op == MT_OP_ISNAN || op == MT_OP_ISINF ||
           op == MT_OP_ISFINITE || op == MT_OP_LOGICAL_NOT || op == MT_OP_SIGNBIT;
}

/* Unary ops that only exist for floating types: integer inputs are promoted. */
static bool
mt__op_is_float_only(mt_op op)
{
    switch (op) {
    case MT_OP_DIV:
    case MT_OP_ATAN2:
    case MT_OP_EXP:
    case MT_OP_EXPM1:
    case MT_OP_LOG:
    case MT_OP_LOG1P:
    case MT_OP_LOG2:
    case MT_OP_LOG10:
    case MT_OP_SQRT:
    case MT_OP_RSQRT:
    case MT_OP_SIN:
    case MT_OP_COS:
    case MT_OP_TAN:
    case MT_OP_TANH:
    case MT_OP_SIGMOID:
    case MT_OP_ERF:
    case MT_OP_RECIPROCAL:
    case MT_OP_ANGLE:
    case MT_OP_ASIN:
    case MT_OP_ACOS:
    case MT_OP_ATAN:
    case MT_OP_SINH:
    case MT_OP_COSH:
    case MT_OP_ASINH:
    case MT_OP_ACOSH:
    case MT_OP_ATANH:
    case MT_OP_EXP2:
    case MT_OP_ERFC:
    case MT_OP_ERFINV:
    case MT_OP_LGAMMA:
    case MT_OP_DEG2RAD:
    case MT_OP_RAD2DEG:
    case MT_OP_SINC:
    case MT_OP_COPYSIGN:
    case MT_OP_XLOGY:
    case MT_OP_GELU:
    case MT_OP_GELU_TANH:
    case MT_OP_GELU_BACKWARD:
    case MT_OP_GELU_TANH_BACKWARD:
        return true;
    /* the special functions (see Note [Special functions] in aten_lite/special_math.h) that take
     * integer inputs as the default dtype; igamma, nextafter, heaviside, gcd and lcm do not */
    case MT_OP_POLYGAMMA:
    case MT_OP_ZETA:
    case MT_OP_XLOG1PY:
        return true;
    default:
        return (op >= MT_OP_CHEBYSHEV_T && op <= MT_OP_LEGENDRE_P) ||
               (op >= MT_OP_DIGAMMA && op <= MT_OP_SPHERICAL_BESSEL_J0);
    }
}

/* Floating or complex: the dtypes the float-only ops compute in. */
static bool
mt__is_inexact(mt_dtype dt)
{
    return mt_dtype_is_floating(dt) || mt_dtype_is_complex(dt);
}

/* torch's own messages for the ops it rejects on complex inputs (the rest
 * of the missing kernels give the dispatch table's "not implemented"). */
static int
mt__check_complex_op(mt_op op, mt_dtype dt)
{
    if (!mt_dtype_is_complex(dt)) {
        return MT_OK;
    }
    switch (op) {
    case MT_OP_SIGN:
        return mt_error_set(MT_ERUNTIME, "Unlike NumPy, torch.sign is not intended to support "
                                         "complex numbers. Please use torch.sgn instead.");
    case MT_OP_MAXIMUM:
    case MT_OP_MINIMUM:
        return mt_error_set(MT_ERUNTIME, "%s not implemented for complex tensors.", mt_op_name(op));
    case MT_OP_FLOOR:
    case MT_OP_CEIL:
    case MT_OP_ROUND:
    case MT_OP_TRUNC:
        return mt_error_set(MT_ERUNTIME, "%s is not supported for complex inputs", mt_op_name(op));
    default:
        return MT_OK;
    }
}

/* Checks that the result of dtype `res` may be written to `out`. */
static int
mt__check_out_cast(mt_dtype res, const mt_tensor *out)
{
    if (!mt_can_cast(res, out->dtype)) {
        return mt_error_set(MT_ERUNTIME, "result type %s can't be cast to the desired output type %s",
                            mt_dtype_scalar_name(res), mt_dtype_scalar_name(out->dtype));
    }
    return MT_OK;
}

/* Whether t's elements tile a block of memory exactly (a permutation of a
 * contiguous layout), torch's is_non_overlapping_and_dense. */
static bool
mt__dense(const mt_tensor *t)
{
    int64_t st[MT_MAX_DIMS], sz[MT_MAX_DIMS];
    int n = 0;
    for (int d = 0; d < t->ndim; d++) {
        if (t->sizes[d] != 1) {
            int j = n++;
            for (; j > 0 && st[j - 1] > t->strides[d]; j--) {
                st[j] = st[j - 1];
                sz[j] = sz[j - 1];
            }
            st[j] = t->strides[d];
            sz[j] = t->sizes[d];
        }
    }
    int64_t expect = 1;
    for (int i = 0; i < n; i++) {
        if (st[i] != expect) {
            return false;
        }
        expect *= sz[i];
    }
    return true;
}

/* Note [Overlapping operands]
 * An input that shares memory with the written-to tensor is fine when it is
 * the same view (x.add_(x)).  When both are dense and overlap otherwise
 * (x[1:].add_(x[:-1]), x.add_(x.t())), the result would depend on the loop
 * order, and torch raises; we raise the same error.  When either is not
 * dense, torch cannot tell and lets the kernel race; we clone the input
 * first, so the result is always as if the inputs were read before any
 * write. */

/* The device an elementwise op runs on: its tensors' (out's and the inputs'), where an input
 * that is a 0-d cpu tensor is a scalar operand and may go with tensors of any device (as in
 * torch: `cuda_tensor * torch.tensor(2.)`).  MT_ERUNTIME when the others disagree. */
static int
mt__elementwise_device(const mt_tensor *out, int ninputs, mt_tensor *const *inputs,
                       mt_device_type *dev)
{
    bool cpu = out == NULL || mt_tensor_device(out).type == MT_CPU;
    for (int i = 0; cpu && i < ninputs; i++) {
        cpu = inputs[i] == NULL || mt_tensor_device(inputs[i]).type == MT_CPU;
    }
    if (cpu) { /* the common case, without the general check's loops */
        if (dev != NULL) {
            *dev = MT_CPU;
        }
        return MT_OK;
    }
    const mt_tensor *ts[1 + MT_ITER_MAX_OPERANDS];
    int n = 0;
    ts[n++] = out;
    for (int i = 0; i < ninputs; i++) {
        const mt_tensor *t = inputs[i];
        if (t != NULL && !(t->ndim == 0 && mt_tensor_device(t).type == MT_CPU)) {
            ts[n++] = t;
        }
    }
    return mt_check_same_device(n, ts, dev);
}

/* MT_OK when device type dev has elementwise kernel op for dtype dt, else its error. */
static int
mt__check_kernel(mt_device_type dev, mt_op op, mt_dtype dt)
{
    int (*check)(mt_op, mt_dtype) = MT_STUB(elementwise, check, dev, mt_op_name(op));
    return check == NULL ? MT_ENOTIMPL : check(op, dt);
}

/* Runs call's kernel on the device `dev` over (out, inputs...); input i is seen by the
 * kernel in dtype call->compute[i] (see mt_elementwise_call).  `out` may be NULL (allocated
 * with out_dtype on the inputs' device) or a tensor of any dtype (a temporary of out_dtype
 * is used and copied in when the dtypes differ).  Returns the result (new reference) or
 * NULL. */
static mt_tensor *
mt__run_elementwise(mt_device_type dev, const mt_elementwise_call *call, int ninputs,
                    mt_tensor **inputs, mt_tensor *out, mt_dtype out_dtype)
{
    int (*run)(const mt_iter *, const mt_elementwise_call *) =
        MT_STUB(elementwise, run, dev, mt_op_name(call->op));
    if (run == NULL) {
        return NULL;
    }
    mt_tensor *target = out;
    if (out != NULL) {
        if (mt_check_no_internal_overlap(out) < 0) {
            return NULL;
        }
        if (out->dtype != out_dtype) {
            target = NULL;
        }
    }
    mt_tensor *clones[MT_ITER_MAX_OPERANDS] = {NULL};
    mt_tensor *ops[MT_ITER_MAX_OPERANDS];
    ops[0] = target;
    for (int i = 0; i < ninputs; i++) {
        ops[1 + i] = inputs[i];
        if (target != NULL && inputs[i] != target && mt_tensors_overlap(target, inputs[i])) {
            bool same = inputs[i]->offset == target->offset && inputs[i]->ndim == target->ndim &&
                        memcmp(inputs[i]->sizes, target->sizes, sizeof(int64_t) * (size_t)target->ndim) == 0 &&
                        memcmp(inputs[i]->strides, target->strides, sizeof(int64_t) * (size_t)target->ndim) == 0;
            if (!same && mt__dense(inputs[i]) && mt__dense(target)) {
                mt_error_set(MT_ERUNTIME, "unsupported operation: some elements of the input tensor "
                                          "and the written-to tensor refer to a single memory "
                                          "location. Please clone() the tensor before performing "
                                          "the operation.");
                goto error;
            }
            if (!same) {
                clones[i] = mt_clone(inputs[i]);
                if (clones[i] == NULL) {
                    goto error;
                }
                ops[1 + i] = clones[i];
            }
        }
    }
    mt_iter it;
    if (mt_iter_build(&it, 1, ninputs, ops, out_dtype) < 0) {
        goto error;
    }
    if (out != NULL && target == NULL) {
        /* the broadcast shape must be out's shape */
        bool same = out->ndim == it.out_ndim &&
                    memcmp(out->sizes, it.out_shape, sizeof(int64_t) * (size_t)out->ndim) == 0;
        if (!same) {
            char a[256], b[256];
            mt_format_sizes(a, sizeof(a), out->ndim, out->sizes);
            mt_format_sizes(b, sizeof(b), it.out_ndim, it.out_shape);
            mt_iter_release(&it);
            mt_error_set(MT_ERUNTIME, "output with shape %s doesn't match the broadcast shape %s", a, b);
            goto error;
        }
    }
    if (run(&it, call) < 0) {
        mt_iter_release(&it);
        goto error;
    }
    mt_tensor *res = mt_iter_output(&it, 0);
    mt_iter_release(&it);
    for (int i = 0; i < ninputs; i++) {
        mt_tensor_decref(clones[i]);
    }
    if (out != NULL && res != out) {
        int rc = mt_copy_(out, res);
        mt_tensor_decref(res);
        if (rc < 0) {
            return NULL;
        }
        mt_tensor_incref(out);
        return out;
    }
    return res;
error:
    for (int i = 0; i < ninputs; i++) {
        mt_tensor_decref(clones[i]);
    }
    return NULL;
}

/* The operand for `x` computed in dtype dt: a tensor as it is (the loop converts it
 * block by block, see Note [Casting in blocks]), a number in the stack holder. */
static mt_tensor *
mt__as_compute(mt_arg x, mt_dtype dt, mt__stack_scalar *holder)
{
    if (x.t == NULL) {
        return mt__stack_scalar_init(holder, x.s, dt);
    }
    return x.t;
}

/* Note [Reduced-precision scalars]
 * torch multiplies or divides a float16/bfloat16 tensor by a scalar (a Python
 * number, or a 0-d tensor as the right operand) in float32 with the scalar's
 * own value, rounding once at the end: x * 0.1 is round(float(x) * 0.1f), not
 * x times 0.1-rounded-to-half (which differs in the last bit for many x, and
 * overflows for scalars beyond float16's range, as in x * 70000).  We do the
 * same by running the float32 kernel and rounding its result: mul with the
 * scalar on either side (`0.1 * x` is x.__rmul__), div / div_trunc /
 * div_floor with a scalar divisor. */
static bool
mt__scalar_value(mt_arg x, double *v)
{
    if (x.t == NULL) {
        *v = mt_scalar_to_double(x.s);
        return true;
    }
    if (x.t->ndim == 0 && mt_tensor_device(x.t).type == MT_CPU) {
        *v = mt_scalar_to_double(mt_scalar_load(mt_tensor_data(x.t), x.t->dtype));
        return true;
    }
    return false;
}

/* t <op> s (or s <op> t when scalar_first) for the reduced-precision dtype dt,
 * see Note [Reduced-precision scalars].  Same out/return conventions as
 * mt_binary. */
static mt_tensor *
mt__reduced_scalar_binary(mt_device_type dev, mt_op op, mt_tensor *t, double s,
                          bool scalar_first, mt_dtype dt, mt_tensor *out)
{
    mt_tensor *tc = mt_to_dtype(t, dt, false); /* the tensor operand rounds to dt first */
    mt_tensor *tf = tc ? mt_to_dtype(tc, MT_FLOAT32, true) : NULL;
    mt_tensor_decref(tc);
    if (tf == NULL) {
        return NULL;
    }
    mt__stack_scalar hs;
    mt_tensor *st = mt__stack_scalar_init(&hs, mt_scalar_float(s), MT_FLOAT32);
    mt_tensor *inputs[2] = {scalar_first ? st : tf, scalar_first ? tf : st};
    mt_binary_ctx ctx = {.alpha_f = 1.0, .alpha_i = 1, .zero_division = 0};
    const mt_elementwise_call call = {.op = op, .dtype = MT_FLOAT32, .ctx = &ctx};
    mt_tensor *rf = mt__check_kernel(dev, op, MT_FLOAT32) < 0
                        ? NULL
                        : mt__run_elementwise(dev, &call, 2, inputs, NULL, MT_FLOAT32);
    mt_tensor_decref(tf);
    mt_tensor *r = rf ? mt_to_dtype(rf, dt, false) : NULL;
    mt_tensor_decref(rf);
    if (r == NULL || out == NULL) {
        return r;
    }
    if (out->ndim != r->ndim || memcmp(out->sizes, r->sizes, sizeof(int64_t) * (size_t)r->ndim) != 0) {
        char x[256], y[256];
        mt_format_sizes(x, sizeof(x), out->ndim, out->sizes);
        mt_format_sizes(y, sizeof(y), r->ndim, r->sizes);
        mt_tensor_decref(r);
        mt_error_set(MT_ERUNTIME, "output with shape %s doesn't match the broadcast shape %s", x, y);
        return NULL;
    }
    int rc = mt_check_no_internal_overlap(out);
    if (rc == MT_OK) {
        rc = mt_copy_(out, r);
    }
    mt_tensor_decref(r);
    if (rc < 0) {
        return NULL;
    }
    mt_tensor_incref(out);
    return out;
}

/* mt_binary_dtypes, also giving the device the op runs on. */
static int
mt__binary_dtypes(mt_op op, mt_arg a, mt_arg b, mt_scalar alpha, const mt_tensor *out,
                  mt_dtype *compute_dtype, mt_dtype *result_dtype, mt_device_type *dev)
{
    mt_tensor *ins[2] = {a.t, b.t};
    if (mt__elementwise_device(out, 2, ins, dev) < 0) {
        return MT_ERUNTIME;
    }
    mt_dtype common = mt_result_type2(a, b);
    if (common == MT_DTYPE_UNDEFINED) {
        return MT_ERUNTIME;
    }
    mt_dtype compute = common;
    if (op == MT_OP_POW && a.t != NULL && b.t == NULL && !mt_dtype_is_floating(a.t->dtype) &&
        !mt_dtype_is_complex(a.t->dtype) && b.s.kind != MT_SCALAR_FLOAT &&
        b.s.kind != MT_SCALAR_COMPLEX && mt_scalar_to_int64(b.s) < 0) {
        /* torch rejects a negative Python-int exponent of an integer tensor
         * (a tensor exponent computes 1, +-1 or 0 instead) */
        return mt_error_set(MT_ERUNTIME, "Integers to negative integer powers are not allowed.");
    }
    if (op == MT_OP_POW && common == MT_BOOL && b.t != NULL) {
        /* bool ** bool exists only for a Python-bool exponent (torch: a fill or a copy) */
        return mt_error_set(MT_ENOTIMPL, "\"pow\" not implemented for 'Bool'");
    }
    if (mt__op_is_float_only(op) && !mt__is_inexact(common)) {
        compute = mt_get_default_dtype();
    }
    if (mt__check_complex_op(op, compute) < 0) {
        return MT_ERUNTIME;
    }
    if (op == MT_OP_HEAVISIDE && mt_dtype_is_complex(common)) {
        return mt_error_set(MT_ENOTIMPL, "heaviside is not yet implemented for complex tensors.");
    }
    if (op == MT_OP_HEAVISIDE && a.t != NULL && b.t != NULL && a.t->dtype != b.t->dtype) {
        return mt_error_set(MT_ERUNTIME, "heaviside is not yet implemented for tensors with "
                                         "different dtypes.");
    }
    if (op == MT_OP_SUB || op == MT_OP_SUB_ALPHA) {
        /* as torch, a bool operand (tensor or Python bool) is refused, whatever the other */
        const bool ab = a.t != NULL ? a.t->dtype == MT_BOOL : a.s.kind == MT_SCALAR_BOOL;
        const bool bb = b.t != NULL ? b.t->dtype == MT_BOOL : b.s.kind == MT_SCALAR_BOOL;
        if (ab && bb) {
            return mt_error_set(MT_ENOTIMPL,
                                "Subtraction, the `-` operator, with two bool tensors is not "
                                "supported. Use the `^` or `logical_xor()` operator instead.");
        }
        if (ab || bb) {
            return mt_error_set(MT_ENOTIMPL,
                                "Subtraction, the `-` operator, with a bool tensor is not "
                                "supported. If you are trying to invert a mask, use the `~` or "
                                "`logical_not()` operator instead.");
        }
    }
    bool has_alpha = op == MT_OP_ADD || op == MT_OP_SUB || op == MT_OP_ADD_ALPHA || op == MT_OP_SUB_ALPHA;
    if (has_alpha && alpha.kind == MT_SCALAR_BOOL && common != MT_BOOL) {
        return mt_error_set(MT_ERUNTIME, "Boolean alpha only supported for Boolean results.");
    }
    if (has_alpha && alpha.kind == MT_SCALAR_COMPLEX && !mt_dtype_is_complex(compute)) {
        return mt_error_set(MT_ERUNTIME, "For non-complex input tensors, argument alpha must not be "
                                         "a complex number.");
    }
    if ((op == MT_OP_ADD_ALPHA || op == MT_OP_SUB_ALPHA) && alpha.kind == MT_SCALAR_FLOAT &&
        !mt__is_inexact(compute)) {
        return mt_error_set(MT_ERUNTIME, "For integral input tensors, argument alpha must not be a "
                                         "floating point number.");
    }
    mt_dtype out_dtype = mt__op_outputs_bool(op) ? MT_BOOL : compute;
    if (out != NULL && mt__check_out_cast(out_dtype, out) < 0) {
        return MT_ERUNTIME;
    }
    *compute_dtype = compute;
    *result_dtype = out_dtype;
    return MT_OK;
}

int
mt_binary_dtypes(mt_op op, mt_arg a, mt_arg b, mt_scalar alpha, const mt_tensor *out,
                 mt_dtype *compute_dtype, mt_dtype *result_dtype)
{
    mt_device_type dev;
    return mt__binary_dtypes(op, a, b, alpha, out, compute_dtype, result_dtype, &dev);
}

/* Note [Powers by a scalar]
 * x ** e for the exponents whose power is a cheaper op, as torch computes them: 2 -> x * x,
 * 3 -> (x * x) * x, 0.5 -> sqrt(x), -0.5 -> rsqrt(x), -1 -> 1 / x, -2 -> 1 / (x * x).  The
 * squares and cubes are what pow rounds to anyway (or within torch's own rounding), and sqrt
 * keeps sqrt's -0 and -inf cases as torch's pow does; the general kernel calls libm's pow per
 * element, a hundred times slower. */
static bool
mt__pow_is_cheap(double e)
{
    return e == 2.0 || e == 3.0 || e == 0.5 || e == -0.5 || e == -1.0 || e == -2.0;
}

/* x ** e for an e that mt__pow_is_cheap; same out/return conventions as mt_binary. */
static mt_tensor *
mt__pow_by_scalar(mt_tensor *a, double e, mt_tensor *out)
{
    if (e == 2.0) {
        return mt_unary(MT_OP_SQUARE, a, out);
    }
    if (e == 0.5) {
        return mt_unary(MT_OP_SQRT, a, out);
    }
    if (e == -0.5) {
        return mt_unary(MT_OP_RSQRT, a, out);
    }
    if (e == -1.0) {
        return mt_unary(MT_OP_RECIPROCAL, a, out);
    }
    if (e == 3.0 || e == -2.0) {
        mt_tensor *sq = mt_unary(MT_OP_SQUARE, a, NULL); /* owned */
        if (sq == NULL) {
            return NULL;
        }
        mt_tensor *res = e == 3.0 ? mt_binary(MT_OP_MUL, mt_arg_tensor(sq), mt_arg_tensor(a), out,
                                              mt_scalar_int(1))
                                  : mt_unary(MT_OP_RECIPROCAL, sq, out);
        mt_tensor_decref(sq);
        return res;
    }
    mt_error_set(MT_ERUNTIME, "pow: no cheaper form for exponent %g", e);
    return NULL;
}

mt_tensor *
mt_binary(mt_op op, mt_arg a, mt_arg b, mt_tensor *out, mt_scalar alpha)
{
    mt_dtype compute, out_dtype;
    mt_device_type dev;
    if (mt__binary_dtypes(op, a, b, alpha, out, &compute, &out_dtype, &dev) < 0) {
        return NULL;
    }
    double sv;
    if ((compute == MT_FLOAT16 || compute == MT_BFLOAT16) &&
        (op == MT_OP_MUL || op == MT_OP_DIV || op == MT_OP_DIV_TRUNC || op == MT_OP_DIV_FLOOR)) {
        if (a.t != NULL && mt__scalar_value(b, &sv)) {
            return mt__reduced_scalar_binary(dev, op, a.t, sv, false, compute, out);
        }
        if (op == MT_OP_MUL && a.t == NULL && mt__scalar_value(a, &sv)) {
            return mt__reduced_scalar_binary(dev, op, b.t, sv, true, compute, out);
        }
    }
    if (op == MT_OP_POW && a.t != NULL && b.t == NULL && a.t->dtype == compute &&
        (compute == MT_FLOAT32 || compute == MT_FLOAT64) && b.s.kind != MT_SCALAR_COMPLEX &&
        mt__pow_is_cheap(mt_scalar_to_double(b.s))) {
        return mt__pow_by_scalar(a.t, mt_scalar_to_double(b.s), out);
    }
    if (mt__check_kernel(dev, op, compute) < 0) {
        return NULL;
    }
    mt__stack_scalar ha, hb;
    mt_tensor *inputs[2] = {mt__as_compute(a, compute, &ha), mt__as_compute(b, compute, &hb)};
    const mt_dtype dts[2] = {compute, compute};
    mt_binary_ctx ctx = {
        .alpha_f = mt_scalar_to_double(alpha),
        .alpha_i = mt_scalar_to_int64(alpha),
        .zero_division = 0,
        .alpha_z = mt_scalar_to_complex(alpha),
    };
    const mt_elementwise_call call = {.op = op, .dtype = compute, .ctx = &ctx, .compute = dts};
    mt_tensor *res = mt__run_elementwise(dev, &call, 2, inputs, out, out_dtype);
    if (res != NULL && ctx.zero_division) {
        mt_tensor_decref(res);
        res = NULL;
        mt_error_set(MT_ERUNTIME, "ZeroDivisionError");
    }
    return res;
}

/* Unary ops whose out= tensor must have the result's dtype exactly (torch builds them as
 * "unary ops" with check_all_same_dtype), unlike the floating ones, which cast into out. */
static bool
mt__op_out_same_dtype(mt_op op)
{
    switch (op) {
    case MT_OP_NEG:
    case MT_OP_ABS:
    case MT_OP_SIGN:
    case MT_OP_SGN:
    case MT_OP_FLOOR:
    case MT_OP_CEIL:
    case MT_OP_ROUND:
    case MT_OP_TRUNC:
    case MT_OP_BITWISE_NOT:
    case MT_OP_CONJ_PHYSICAL:
        return true;
    default:
        return false;
    }
}

int
mt_unary_dtypes(mt_op op, const mt_tensor *a, const mt_tensor *out, mt_dtype *compute_dtype,
                mt_dtype *result_dtype)
{
    if (mt__elementwise_device(out, 1, (mt_tensor *const *)&a, NULL) < 0) {
        return MT_ERUNTIME;
    }
    mt_dtype compute = a->dtype;
    if (op == MT_OP_NEG && compute == MT_BOOL) {
        return mt_error_set(MT_ENOTIMPL,
                            "Negation, the `-` operator, on a bool tensor is not supported. "
                            "If you are trying to invert a mask, use the `~` or "
                            "`logical_not()` operator instead.");
    }
    if (op == MT_OP_RELU && compute == MT_BOOL) {
        return mt_error_set(MT_ERUNTIME, "Boolean inputs not supported for relu");
    }
    if (op == MT_OP_SQUARE && compute == MT_BOOL) {
        return mt_binary_dtypes(MT_OP_POW, mt_arg_tensor((mt_tensor *)a),
                                mt_arg_scalar(mt_scalar_int(2)), mt_scalar_int(1), out,
                                compute_dtype, result_dtype);
    }
    if (mt__op_is_float_only(op) && !mt__is_inexact(compute)) {
        compute = mt_get_default_dtype();
    }
    if (mt__check_complex_op(op, compute) < 0) {
        return MT_ERUNTIME;
    }
    mt_dtype out_dtype = mt__op_outputs_bool(op) ? MT_BOOL : compute;
    if (op == MT_OP_FREXP_EXPONENT) {
        out_dtype = MT_INT32;
    }
    if ((op == MT_OP_ABS || op == MT_OP_ANGLE) && mt_dtype_is_complex(compute)) {
        out_dtype = mt_dtype_to_real(compute); /* |z| and arg z are real */
    }
    if (out != NULL && op == MT_OP_SIGNBIT && out->dtype != MT_BOOL) {
        return mt_error_set(MT_ERUNTIME, "signbit does not support non-boolean outputs.");
    }
    if (out != NULL && mt__op_out_same_dtype(op) && out->dtype != out_dtype) {
        return mt_error_set(MT_ERUNTIME, "Found dtype %s but expected %s", mt_dtype_scalar_name(out->dtype),
                            mt_dtype_scalar_name(out_dtype));
    }
    if (out != NULL && mt__check_out_cast(out_dtype, out) < 0) {
        return MT_ERUNTIME;
    }
    *compute_dtype = compute;
    *result_dtype = out_dtype;
    return MT_OK;
}

mt_tensor *
mt_unary(mt_op op, mt_tensor *a, mt_tensor *out)
{
    mt_dtype compute, out_dtype;
    if (mt_unary_dtypes(op, a, out, &compute, &out_dtype) < 0) {
        return NULL;
    }
    bool integral = !mt__is_inexact(a->dtype);
    if (op == MT_OP_SQUARE && a->dtype == MT_BOOL) {
        /* torch's square is pow(self, 2): a bool tensor squares to int64 */
        return mt_binary(MT_OP_POW, mt_arg_tensor(a), mt_arg_scalar(mt_scalar_int(2)), out,
                         mt_scalar_int(1));
    }
    /* ops that are the identity or a constant on integers */
    if (integral && compute != MT_BOOL &&
        (op == MT_OP_FLOOR || op == MT_OP_CEIL || op == MT_OP_ROUND || op == MT_OP_TRUNC)) {
        /* (bool has no kernel for these, as torch) */
        if (out == NULL) {
            return mt_clone(a);
        }
        if (mt_copy_(out, a) < 0) {
            return NULL;
        }
        mt_tensor_incref(out);
        return out;
    }
    if (integral && (op == MT_OP_ISNAN || op == MT_OP_ISINF || op == MT_OP_ISFINITE)) {
        mt_tensor *r = out;
        if (r == NULL) {
            r = mt_tensor_empty(MT_BOOL, a->ndim, a->sizes, mt_tensor_device(a));
        }
        else {
            mt_tensor_incref(r);
        }
        if (r == NULL || mt_fill_(r, mt_scalar_bool(op == MT_OP_ISFINITE)) < 0) {
            mt_tensor_decref(r);
            return NULL;
        }
        return r;
    }
    mt_device_type dev = mt_tensor_device(a).type;
    if (mt__check_kernel(dev, op, compute) < 0) {
        return NULL;
    }
    const mt_elementwise_call call = {.op = op, .dtype = compute, .compute = &compute};
    return mt__run_elementwise(dev, &call, 1, &a, out, out_dtype);
}

int
mt_where_dtype(mt_arg x, mt_arg y, const mt_tensor *out, mt_dtype *result_dtype)
{
    mt_dtype dt = mt_result_type2(x, y);
    if (dt == MT_DTYPE_UNDEFINED) {
        return MT_ERUNTIME;
    }
    if (out != NULL && mt__check_out_cast(dt, out) < 0) {
        return MT_ERUNTIME;
    }
    *result_dtype = dt;
    return MT_OK;
}

mt_tensor *
mt_where(const mt_tensor *cond, mt_arg x, mt_arg y, mt_tensor *out)
{
    if (cond->dtype != MT_BOOL) {
        mt_error_set(MT_ERUNTIME, "where expected condition to be a boolean tensor, but got a "
                                  "tensor with dtype %s", mt_dtype_scalar_name(cond->dtype));
        return NULL;
    }
    mt_dtype dt;
    if (mt_where_dtype(x, y, out, &dt) < 0) {
        return NULL;
    }
    mt__stack_scalar hx, hy;
    mt_tensor *inputs[3] = {(mt_tensor *)cond, mt__as_compute(x, dt, &hx), mt__as_compute(y, dt, &hy)};
    mt_device_type dev;
    if (mt__elementwise_device(out, 3, inputs, &dev) < 0 || mt__check_kernel(dev, MT_OP_WHERE, dt) < 0) {
        return NULL;
    }
    const mt_dtype dts[3] = {MT_BOOL, dt, dt};
    const mt_elementwise_call call = {.op = MT_OP_WHERE, .dtype = dt, .compute = dts};
    return mt__run_elementwise(dev, &call, 3, inputs, out, dt);
}
