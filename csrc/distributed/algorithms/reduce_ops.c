/* csrc/distributed/algorithms/reduce_ops.c - what each ReduceOp computes, through aten_lite's elementwise loops. See Note [Reduction semantics]. */
#include <stdbool.h>
#include <stdint.h>

#include "aten_lite/dispatch.h"
#include "aten_lite/ops.h"
#include "c10_lite/error.h"
#include "csrc/distributed/algorithms/algorithms.h"

/* Note [ReduceOps are aten loops]
 * A ReduceOp combines two buffers elementwise, which is what the CPU kernels
 * of the matching binary op already do for every dtype (bool add is logical
 * or, bool minimum logical and, integer arithmetic wraps, 16-bit floats are
 * computed in float and rounded once, minimum/maximum propagate NaN): so
 * dst = dst op src is the op's inner loop run over three operands (out = dst,
 * a = dst, b = src), and AVG's last step is the div loop with a broadcast
 * divisor.  An op is defined for a dtype exactly when the kernel table has
 * the loop; complex tensors are restricted to SUM and AVG on top of that
 * (see Note [Complex reductions]). */
static const mt_op mt__aten_op[MT_DIST_NUM_OPS] = {
    [MT_DIST_SUM] = MT_OP_ADD,
    [MT_DIST_AVG] = MT_OP_ADD,
    [MT_DIST_PRODUCT] = MT_OP_MUL,
    [MT_DIST_MIN] = MT_OP_MINIMUM,
    [MT_DIST_MAX] = MT_OP_MAXIMUM,
    [MT_DIST_BAND] = MT_OP_BITWISE_AND,
    [MT_DIST_BOR] = MT_OP_BITWISE_OR,
    [MT_DIST_BXOR] = MT_OP_BITWISE_XOR,
};

/* The CPU loop of op for dt (NULL: not defined).  mt_dist_op_check fills the
 * kernel table (mt_aten_init is idempotent) before any combine can run: the
 * combines, called from the transport's threads, only read it. */
static mt_loop_fn
mt__loop(mt_op op, mt_dtype dt)
{
    return mt_dispatch[MT_CPU][op][dt];
}

const char *
mt_dist_op_name(mt_dist_op op)
{
    static const char *names[MT_DIST_NUM_OPS] = {
        "SUM", "AVG", "PRODUCT", "MIN", "MAX", "BAND", "BOR", "BXOR",
    };
    return (int)op >= 0 && op < MT_DIST_NUM_OPS ? names[op] : "invalid";
}

int
mt_dist_op_check(mt_dtype dt, mt_dist_op op)
{
    if ((int)op < 0 || op >= MT_DIST_NUM_OPS) {
        return mt_error_set(MT_EINVAL, "invalid ReduceOp %d", (int)op);
    }
    if (!mt_dtype_valid((int)dt)) {
        return mt_error_set(MT_ETYPE, "invalid dtype %d", (int)dt);
    }
    if (mt_dtype_is_complex(dt)) {
        /* See Note [Complex reductions] */
        if (op == MT_DIST_SUM || op == MT_DIST_AVG) {
            return 0;
        }
        return mt_error_set(MT_ETYPE, "ReduceOp.%s is not supported for complex tensors",
                            mt_dist_op_name(op));
    }
    if (op == MT_DIST_AVG && !mt_dtype_is_floating(dt)) {
        return mt_error_set(MT_ETYPE,
                            "ReduceOp.AVG is only supported for floating point tensors, got %s "
                            "(use ReduceOp.SUM and divide)",
                            mt_dtype_name(dt));
    }
    mt_aten_init();
    if (mt__loop(mt__aten_op[op], dt) != NULL) {
        return 0;
    }
    return mt_error_set(MT_ETYPE, "ReduceOp.%s is not supported for %s tensors (bitwise "
                        "reductions need an integer or bool dtype)",
                        mt_dist_op_name(op), mt_dtype_name(dt));
}

/* Note [Complex reductions]
 * As torch (which views complex tensors as real before gloo sees them), a
 * complex element is two reals of its precision for SUM and AVG: the
 * combine and the final division run over twice as many reals.  The other
 * operations have no meaning on complex numbers and are refused by
 * mt_dist_op_check. */
static void
mt__as_reals(size_t *count, mt_dtype *dt)
{
    if (mt_dtype_is_complex(*dt)) {
        *dt = mt_dtype_to_real(*dt);
        *count *= 2;
    }
}

void
mt_dist_reduce_into(void *dst, const void *src, size_t count, mt_dtype dt, mt_dist_op op)
{
    mt_dist_combine(dst, dst, src, count, dt, op);
}

void
mt_dist_combine(void *out, const void *a, const void *b, size_t count, mt_dtype dt,
                mt_dist_op op)
{
    mt__as_reals(&count, &dt);
    const int64_t isz = (int64_t)mt_dtype_itemsize(dt);
    char *data[3] = {out, (char *)a, (char *)b};
    const int64_t strides[3] = {isz, isz, isz};
    const int64_t n = (int64_t)count;
    mt_binary_ctx ctx = {.alpha_f = 1.0, .alpha_i = 1};
    mt__loop(mt__aten_op[op], dt)(data, &n, strides, &ctx);
}

void
mt_dist_avg_finish(void *buf, size_t count, mt_dtype dt, int n)
{
    mt__as_reals(&count, &dt);
    if (!mt_dtype_is_floating(dt)) {
        return;
    }
    /* the divisor, broadcast with stride 0; 16 bytes hold any real dtype */
    _Alignas(16) unsigned char divisor[16] = {0};
    mt_scalar_store(mt_scalar_int(n), dt, divisor);
    const int64_t isz = (int64_t)mt_dtype_itemsize(dt);
    char *data[3] = {buf, buf, (char *)divisor};
    const int64_t strides[3] = {isz, isz, 0};
    const int64_t len = (int64_t)count;
    mt_binary_ctx ctx = {.alpha_f = 1.0, .alpha_i = 1};
    mt__loop(MT_OP_DIV, dt)(data, &len, strides, &ctx);
}

void
mt_algo_reduce_into_sink(void *ctx, size_t off, const void *bytes, size_t n)
{
    mt_algo_reduce_sink *k = ctx;
    mt_dist_reduce_into(k->dst + off, bytes, n / k->isz, k->dt, k->op);
}
