/* csrc/distributed/algorithms/reduce_ops.c - elementwise combine kernels for every (dtype, ReduceOp). See Note [Reduction semantics]. */
#include <stdbool.h>
#include <stdint.h>

#include "c10_lite/error.h"
#include "csrc/distributed/algorithms/algorithms.h"

typedef void (*mt__combine_fn)(void *dst, const void *src, size_t n);

/* The operations in the accumulation type.  Integers go through uint64_t so
 * that overflow wraps (as torch) instead of being undefined. */
#define MT__IADD(ct, x, y) ((ct)((uint64_t)(x) + (uint64_t)(y)))
#define MT__IMUL(ct, x, y) ((ct)((uint64_t)(x) * (uint64_t)(y)))
#define MT__FADD(ct, x, y) ((x) + (y))
#define MT__FMUL(ct, x, y) ((x) * (y))
#define MT__MIN(ct, x, y) ((x) != (x) ? (x) : (y) != (y) ? (y) : (y) < (x) ? (y) : (x))
#define MT__MAX(ct, x, y) ((x) != (x) ? (x) : (y) != (y) ? (y) : (y) > (x) ? (y) : (x))
#define MT__BAND(ct, x, y) ((ct)((x) & (y)))
#define MT__BOR(ct, x, y) ((ct)((x) | (y)))
#define MT__BXOR(ct, x, y) ((ct)((x) ^ (y)))
#define MT__LAND(ct, x, y) ((x) && (y))
#define MT__LOR(ct, x, y) ((x) || (y))
#define MT__LXOR(ct, x, y) ((x) != (y))

/* One loop per (dtype, operation); OPNAME is the function suffix. */
#define MT__DEF_COMBINE(name, ctype, acctype, OPNAME, OP)                    \
    static void mt__combine_##name##_##OPNAME(void *d, const void *s, size_t n) \
    {                                                                        \
        ctype *a = d;                                                        \
        const ctype *b = s;                                                  \
        for (size_t i = 0; i < n; i++) {                                     \
            acctype x = MT_LOAD_##name(a[i]);                                \
            acctype y = MT_LOAD_##name(b[i]);                                \
            a[i] = MT_STORE_##name(OP(acctype, x, y));                       \
        }                                                                    \
    }

#define MT__DEF_INT(ENUM, name, ctype, acctype)                   \
    MT__DEF_COMBINE(name, ctype, acctype, sum, MT__IADD)          \
    MT__DEF_COMBINE(name, ctype, acctype, prod, MT__IMUL)         \
    MT__DEF_COMBINE(name, ctype, acctype, min, MT__MIN)           \
    MT__DEF_COMBINE(name, ctype, acctype, max, MT__MAX)           \
    MT__DEF_COMBINE(name, ctype, acctype, band, MT__BAND)         \
    MT__DEF_COMBINE(name, ctype, acctype, bor, MT__BOR)           \
    MT__DEF_COMBINE(name, ctype, acctype, bxor, MT__BXOR)

#define MT__DEF_FLOAT(ENUM, name, ctype, acctype)                 \
    MT__DEF_COMBINE(name, ctype, acctype, sum, MT__FADD)          \
    MT__DEF_COMBINE(name, ctype, acctype, prod, MT__FMUL)         \
    MT__DEF_COMBINE(name, ctype, acctype, min, MT__MIN)           \
    MT__DEF_COMBINE(name, ctype, acctype, max, MT__MAX)           \
    static void mt__avg_##name(void *d, size_t n, int k)          \
    {                                                             \
        ctype *a = d;                                             \
        for (size_t i = 0; i < n; i++) {                          \
            a[i] = MT_STORE_##name(MT_LOAD_##name(a[i]) / (acctype)k); \
        }                                                         \
    }

MT_FORALL_INT_DTYPES(MT__DEF_INT)
MT_FORALL_FLOAT_DTYPES(MT__DEF_FLOAT)
MT__DEF_COMBINE(boolean, bool, bool, sum, MT__LOR)
MT__DEF_COMBINE(boolean, bool, bool, prod, MT__LAND)
MT__DEF_COMBINE(boolean, bool, bool, bxor, MT__LXOR)

/* [dtype][op]; NULL = not defined for that dtype. */
static const mt__combine_fn mt__combine[MT_NUM_DTYPES][MT_DIST_NUM_OPS] = {
    [MT_BOOL] =
        {
            [MT_DIST_SUM] = mt__combine_boolean_sum,
            [MT_DIST_PRODUCT] = mt__combine_boolean_prod,
            [MT_DIST_MIN] = mt__combine_boolean_prod,
            [MT_DIST_MAX] = mt__combine_boolean_sum,
            [MT_DIST_BAND] = mt__combine_boolean_prod,
            [MT_DIST_BOR] = mt__combine_boolean_sum,
            [MT_DIST_BXOR] = mt__combine_boolean_bxor,
        },
#define MT__INT_ROW(ENUM, name, ctype, acctype)            \
    [ENUM] = {                                             \
        [MT_DIST_SUM] = mt__combine_##name##_sum,        \
        [MT_DIST_PRODUCT] = mt__combine_##name##_prod,   \
        [MT_DIST_MIN] = mt__combine_##name##_min,        \
        [MT_DIST_MAX] = mt__combine_##name##_max,        \
        [MT_DIST_BAND] = mt__combine_##name##_band,      \
        [MT_DIST_BOR] = mt__combine_##name##_bor,        \
        [MT_DIST_BXOR] = mt__combine_##name##_bxor,      \
    },
    MT_FORALL_INT_DTYPES(MT__INT_ROW)
#define MT__FLOAT_ROW(ENUM, name, ctype, acctype)          \
    [ENUM] = {                                             \
        [MT_DIST_SUM] = mt__combine_##name##_sum,        \
        [MT_DIST_AVG] = mt__combine_##name##_sum,        \
        [MT_DIST_PRODUCT] = mt__combine_##name##_prod,   \
        [MT_DIST_MIN] = mt__combine_##name##_min,        \
        [MT_DIST_MAX] = mt__combine_##name##_max,        \
    },
    MT_FORALL_FLOAT_DTYPES(MT__FLOAT_ROW)
};

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
    if (mt__combine[dt][op] != NULL) {
        return 0;
    }
    if (op == MT_DIST_AVG) {
        return mt_error_set(MT_ETYPE,
                            "ReduceOp.AVG is only supported for floating point tensors, got %s "
                            "(use ReduceOp.SUM and divide)",
                            mt_dtype_name(dt));
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
void
mt_dist_reduce_into(void *dst, const void *src, size_t count, mt_dtype dt, mt_dist_op op)
{
    if (mt_dtype_is_complex(dt)) {
        mt__combine[mt_dtype_to_real(dt)][op](dst, src, count * 2);
        return;
    }
    mt__combine[dt][op](dst, src, count);
}

void
mt_dist_avg_finish(void *buf, size_t count, mt_dtype dt, int n)
{
    if (mt_dtype_is_complex(dt)) {
        dt = mt_dtype_to_real(dt);
        count *= 2;
    }
    switch (dt) {
#define MT__AVG_CASE(ENUM, name, ctype, acctype) \
    case ENUM:                                   \
        mt__avg_##name(buf, count, n);           \
        break;
        MT_FORALL_FLOAT_DTYPES(MT__AVG_CASE)
    default:
        break;
    }
}
