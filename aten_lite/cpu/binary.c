/* aten_lite/cpu/binary.c - CPU loops of the binary elementwise ops, every op's math in one line. */
#include <complex.h>
#include <math.h>
#include <stdatomic.h>

#include "aten_lite/cpu/loops.h"

/* ---- integer helpers: Python/torch semantics, no traps, no UB ---- */

static inline void
mt__flag_zero_division(mt_binary_ctx *c)
{
    __atomic_store_n(&c->zero_division, 1, __ATOMIC_RELAXED);
}

static inline int64_t
mt__idiv_trunc(int64_t a, int64_t b, mt_binary_ctx *c)
{
    if (b == 0) {
        mt__flag_zero_division(c);
        return 0;
    }
    return b == -1 ? (int64_t)(0 - (uint64_t)a) : a / b;
}

static inline int64_t
mt__idiv_floor(int64_t a, int64_t b, mt_binary_ctx *c)
{
    if (b == 0) {
        mt__flag_zero_division(c);
        return 0;
    }
    if (b == -1) {
        return (int64_t)(0 - (uint64_t)a);
    }
    int64_t q = a / b;
    return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}

static inline int64_t
mt__iremainder(int64_t a, int64_t b, mt_binary_ctx *c)
{
    if (b == 0) {
        mt__flag_zero_division(c);
        return 0;
    }
    if (b == -1) {
        return 0;
    }
    int64_t r = a % b;
    return (r != 0 && ((r < 0) != (b < 0))) ? r + b : r;
}

static inline int64_t
mt__ifmod(int64_t a, int64_t b, mt_binary_ctx *c)
{
    if (b == 0) {
        mt__flag_zero_division(c);
        return 0;
    }
    return b == -1 ? 0 : a % b;
}

static inline int64_t
mt__ipow(int64_t a, int64_t b)
{
    if (b < 0) {
        return a == 1 ? 1 : a == -1 ? ((b & 1) ? -1 : 1) : 0;
    }
    uint64_t r = 1, base = (uint64_t)a;
    while (b) {
        if (b & 1) {
            r *= base;
        }
        base *= base;
        b >>= 1;
    }
    return (int64_t)r;
}

static inline int64_t
mt__ishl(int64_t a, int64_t b, int bits)
{
    return (b < 0 || b >= bits) ? 0 : (int64_t)((uint64_t)a << b);
}

static inline int64_t
mt__ishr(int64_t a, int64_t b, int bits)
{
    if (b < 0 || b >= bits) {
        return a < 0 ? -1 : 0;
    }
    return a >> b;
}

/* ---- floating helpers (NumPy/torch's divmod algorithm) ---- */
#define MT__FLOAT_HELPERS(T, SFX)                                                      \
    static inline T mt__fdiv_floor_##SFX(T a, T b)                                      \
    {                                                                                   \
        if (b == 0) {                                                                   \
            return a / b;                                                               \
        }                                                                               \
        T mod = fmod##SFX(a, b);                                                        \
        T div = (a - mod) / b;                                                          \
        if (mod != 0 && ((b < 0) != (mod < 0))) {                                       \
            div -= 1;                                                                   \
        }                                                                               \
        T fl;                                                                           \
        if (div != 0) {                                                                 \
            fl = floor##SFX(div);                                                       \
            if (div - fl > (T)0.5) {                                                    \
                fl += 1;                                                                \
            }                                                                           \
        }                                                                               \
        else {                                                                          \
            fl = copysign##SFX((T)0, a / b);                                            \
        }                                                                               \
        return fl;                                                                      \
    }                                                                                   \
    static inline T mt__fremainder_##SFX(T a, T b)                                      \
    {                                                                                   \
        T mod = fmod##SFX(a, b);                                                        \
        if (mod != 0 && ((b < 0) != (mod < 0))) {                                       \
            mod += b;                                                                   \
        }                                                                               \
        return mod;                                                                     \
    }                                                                                   \
    static inline T mt__fmax_nan_##SFX(T a, T b)                                        \
    {                                                                                   \
        return (a != a || b != b) ? (T)NAN : (a > b ? a : b);                           \
    }                                                                                   \
    static inline T mt__fmin_nan_##SFX(T a, T b)                                        \
    {                                                                                   \
        return (a != a || b != b) ? (T)NAN : (a < b ? a : b);                           \
    }
MT__FLOAT_HELPERS(float, f)
MT__FLOAT_HELPERS(double, )

/* Picks the float or double helper from the acc type of `a`. */
#define MT__F(fn, a, b) _Generic((a), float: fn##_f, default: fn##_)(a, b)
#define MT__FLIB(fn, a, b) _Generic((a), float: fn##f, default: fn)(a, b)

/* alpha of add/sub in the acc type of `a` */
#define MT__ALPHA(a) ((__typeof__(a))_Generic((a), float: alpha_f, double: alpha_f, default: c->alpha_i))

/* ---- complex helpers ---- */
#define MT__CLIB(fn, a, b) _Generic((a), mt_complex64: fn##f, default: fn)(a, b)
/* x ** y with torch's special cases: anything to the 0 is 1, 0 to a
 * positive real power is 0; squares multiply out exactly */
#define MT__CPOW(T, SFX)                                                  \
    static inline T mt__cpow_##SFX(T a, T b)                              \
    {                                                                     \
        if (b == 0) {                                                     \
            return 1;                                                     \
        }                                                                 \
        if (b == 2) {                                                     \
            return a * a;                                                 \
        }                                                                 \
        if (a == 0 && cimag(b) == 0 && creal(b) > 0) {                    \
            return 0;                                                     \
        }                                                                 \
        return cpow##SFX(a, b);                                           \
    }
MT__CPOW(mt_complex64, f)
MT__CPOW(mt_complex128, )
#define MT__CALPHA(a) ((__typeof__(a))c->alpha_z)

/* ---- the ops ---- */
MT_L_NUMERIC(MT_GEN_BINARY_SAME, add, a + b)
MT_L_BOOL(MT_GEN_BINARY_SAME, add, a || b)
MT_L_NUMERIC(MT_GEN_BINARY_SAME, add_alpha, a + MT__ALPHA(a) * b)
MT_L_BOOL(MT_GEN_BINARY_SAME, add_alpha, a || (c->alpha_i != 0 && b))
MT_L_NUMERIC(MT_GEN_BINARY_SAME, sub, a - b)
MT_L_NUMERIC(MT_GEN_BINARY_SAME, sub_alpha, a - MT__ALPHA(a) * b)
MT_L_NUMERIC(MT_GEN_BINARY_SAME, mul, a * b)
MT_L_BOOL(MT_GEN_BINARY_SAME, mul, a && b)
MT_L_FLOAT(MT_GEN_BINARY_SAME, div, a / b)
MT_L_INT(MT_GEN_BINARY_SAME, div_trunc, mt__idiv_trunc(a, b, c))
MT_L_FLOAT(MT_GEN_BINARY_SAME, div_trunc, _Generic((a), float: truncf, default: trunc)(a / b))
MT_L_INT(MT_GEN_BINARY_SAME, div_floor, mt__idiv_floor(a, b, c))
MT_L_FLOAT(MT_GEN_BINARY_SAME, div_floor, MT__F(mt__fdiv_floor, a, b))
MT_L_INT(MT_GEN_BINARY_SAME, remainder, mt__iremainder(a, b, c))
MT_L_FLOAT(MT_GEN_BINARY_SAME, remainder, MT__F(mt__fremainder, a, b))
MT_L_INT(MT_GEN_BINARY_SAME, fmod, mt__ifmod(a, b, c))
MT_L_FLOAT(MT_GEN_BINARY_SAME, fmod, MT__FLIB(fmod, a, b))
MT_L_INT(MT_GEN_BINARY_SAME, pow, mt__ipow(a, b))
MT_L_FLOAT(MT_GEN_BINARY_SAME, pow, MT__FLIB(pow, a, b))
MT_L_BOOL(MT_GEN_BINARY_SAME, pow, a || !b) /* x ** True = x, x ** False = True */
MT_L_INTBOOL(MT_GEN_BINARY_SAME, maximum, a > b ? a : b)
MT_L_FLOAT(MT_GEN_BINARY_SAME, maximum, MT__F(mt__fmax_nan, a, b))
MT_L_INTBOOL(MT_GEN_BINARY_SAME, minimum, a < b ? a : b)
MT_L_FLOAT(MT_GEN_BINARY_SAME, minimum, MT__F(mt__fmin_nan, a, b))
MT_L_FLOAT(MT_GEN_BINARY_SAME, atan2, MT__FLIB(atan2, a, b))

/* log(e^a + e^b) without overflow: max + log1p(e^-|a - b|) (base 2: log2 and 2^);
 * equal infinities stay as they are, NaN propagates */
#define MT__LOGADDEXP_FNS(T, SFX)                                                  \
    static inline T mt__logaddexp##SFX(T a, T b)                                   \
    {                                                                              \
        if (a == b && isinf(a)) {                                                  \
            return a;                                                              \
        }                                                                          \
        return (a > b ? a : b) + log1p##SFX(exp##SFX(-fabs##SFX(a - b)));          \
    }                                                                              \
    static inline T mt__logaddexp2##SFX(T a, T b)                                  \
    {                                                                              \
        if (a == b && isinf(a)) {                                                  \
            return a;                                                              \
        }                                                                          \
        return (a > b ? a : b) + log1p##SFX(exp2##SFX(-fabs##SFX(a - b))) / (T)M_LN2; \
    }                                                                              \
    /* x * log(y), 0 where x is 0 (unless y is NaN) */                             \
    static inline T mt__xlogy##SFX(T x, T y)                                       \
    {                                                                              \
        return y != y ? y : x == 0 ? (T)0 : x * log##SFX(y);                       \
    }
MT__LOGADDEXP_FNS(double, )
MT__LOGADDEXP_FNS(float, f)
#define MT__FCALL(fn, a, b) _Generic((a), float: fn##f, default: fn)(a, b)
MT_L_FLOAT(MT_GEN_BINARY_SAME, hypot, MT__FLIB(hypot, a, b))
MT_L_FLOAT(MT_GEN_BINARY_SAME, logaddexp, MT__FCALL(mt__logaddexp, a, b))
MT_L_FLOAT(MT_GEN_BINARY_SAME, logaddexp2, MT__FCALL(mt__logaddexp2, a, b))
MT_L_FLOAT(MT_GEN_BINARY_SAME, fmax, MT__FLIB(fmax, a, b))
MT_L_FLOAT(MT_GEN_BINARY_SAME, fmin, MT__FLIB(fmin, a, b))
MT_L_INT(MT_GEN_BINARY_SAME, fmax, a > b ? a : b)
MT_L_INT(MT_GEN_BINARY_SAME, fmin, a < b ? a : b)
MT_L_BOOL(MT_GEN_BINARY_SAME, fmax, a || b)
MT_L_BOOL(MT_GEN_BINARY_SAME, fmin, a && b)
MT_L_FLOAT(MT_GEN_BINARY_SAME, copysign, MT__FLIB(copysign, a, b))
MT_L_FLOAT(MT_GEN_BINARY_SAME, xlogy, MT__FCALL(mt__xlogy, a, b))
/* relu's gradient: the gradient a where relu's result b is not <= 0, else 0 (a NaN result
 * passes the gradient, as torch's threshold_backward); autograd's C formula, not a public op */
MT_L_FLOAT(MT_GEN_BINARY_SAME, relu_backward, b <= 0 ? 0 : a)
/* a where b > 0, else alpha a: leaky_relu(x) with a = b = x (alpha: the slope), and its
 * gradient with a = grad, b = x; not a public op */
MT_L_FLOAT(MT_GEN_BINARY_SAME, leaky_scale, b > 0 ? a : a * (__typeof__(a))alpha_f)
MT_L_ALL(MT_GEN_BINARY_BOOL, eq, a == b)
MT_L_BAREBONES(MT_GEN_BINARY_BOOL, eq, a == b)
MT_L_ALL(MT_GEN_BINARY_BOOL, ne, a != b)
MT_L_BAREBONES(MT_GEN_BINARY_BOOL, ne, a != b)
MT_L_ALL(MT_GEN_BINARY_BOOL, lt, a < b)
MT_L_BAREBONES(MT_GEN_BINARY_BOOL, lt, a < b)
MT_L_ALL(MT_GEN_BINARY_BOOL, le, a <= b)
MT_L_BAREBONES(MT_GEN_BINARY_BOOL, le, a <= b)
MT_L_ALL(MT_GEN_BINARY_BOOL, gt, a > b)
MT_L_BAREBONES(MT_GEN_BINARY_BOOL, gt, a > b)
MT_L_ALL(MT_GEN_BINARY_BOOL, ge, a >= b)
MT_L_BAREBONES(MT_GEN_BINARY_BOOL, ge, a >= b)
MT_L_ALL(MT_GEN_BINARY_BOOL, logical_and, (a != 0) && (b != 0))
MT_L_ALL(MT_GEN_BINARY_BOOL, logical_or, (a != 0) || (b != 0))
MT_L_ALL(MT_GEN_BINARY_BOOL, logical_xor, (a != 0) != (b != 0))
MT_L_INTBOOL(MT_GEN_BINARY_SAME, bitwise_and, a & b)
MT_L_INTBOOL(MT_GEN_BINARY_SAME, bitwise_or, a | b)
MT_L_INTBOOL(MT_GEN_BINARY_SAME, bitwise_xor, a ^ b)
MT_L_INT(MT_GEN_BINARY_SAME, lshift, mt__ishl(a, b, (int)sizeof(a) * 8))
MT_L_INT(MT_GEN_BINARY_SAME, rshift, mt__ishr(a, b, (int)sizeof(a) * 8))
MT_L_COMPLEX(MT_GEN_BINARY_SAME, add, a + b)
MT_L_COMPLEX(MT_GEN_BINARY_SAME, add_alpha, a + MT__CALPHA(a) * b)
MT_L_COMPLEX(MT_GEN_BINARY_SAME, sub, a - b)
MT_L_COMPLEX(MT_GEN_BINARY_SAME, sub_alpha, a - MT__CALPHA(a) * b)
MT_L_COMPLEX(MT_GEN_BINARY_SAME, mul, a * b)
MT_L_COMPLEX(MT_GEN_BINARY_SAME, div, a / b)
MT_L_COMPLEX(MT_GEN_BINARY_SAME, pow, _Generic((a), mt_complex64: mt__cpow_f, default: mt__cpow_)(a, b))
MT_L_COMPLEX(MT_GEN_BINARY_BOOL, eq, a == b)
MT_L_COMPLEX(MT_GEN_BINARY_BOOL, ne, a != b)
MT_L_COMPLEX(MT_GEN_BINARY_BOOL, logical_and, (a != 0) && (b != 0))
MT_L_COMPLEX(MT_GEN_BINARY_BOOL, logical_or, (a != 0) || (b != 0))
MT_L_COMPLEX(MT_GEN_BINARY_BOOL, logical_xor, (a != 0) != (b != 0))

void
mt__cpu_binary_register(void)
{
    MT_L_ALL(MT_GEN_REGISTER, add, MT_OP_ADD)
    MT_L_ALL(MT_GEN_REGISTER, add_alpha, MT_OP_ADD_ALPHA)
    MT_L_NUMERIC(MT_GEN_REGISTER, sub, MT_OP_SUB)
    MT_L_NUMERIC(MT_GEN_REGISTER, sub_alpha, MT_OP_SUB_ALPHA)
    MT_L_ALL(MT_GEN_REGISTER, mul, MT_OP_MUL)
    MT_L_FLOAT(MT_GEN_REGISTER, div, MT_OP_DIV)
    MT_L_NUMERIC(MT_GEN_REGISTER, div_trunc, MT_OP_DIV_TRUNC)
    MT_L_NUMERIC(MT_GEN_REGISTER, div_floor, MT_OP_DIV_FLOOR)
    MT_L_NUMERIC(MT_GEN_REGISTER, remainder, MT_OP_REMAINDER)
    MT_L_NUMERIC(MT_GEN_REGISTER, fmod, MT_OP_FMOD)
    MT_L_ALL(MT_GEN_REGISTER, pow, MT_OP_POW)
    MT_L_ALL(MT_GEN_REGISTER, maximum, MT_OP_MAXIMUM)
    MT_L_ALL(MT_GEN_REGISTER, minimum, MT_OP_MINIMUM)
    MT_L_FLOAT(MT_GEN_REGISTER, atan2, MT_OP_ATAN2)
    MT_L_FLOAT(MT_GEN_REGISTER, hypot, MT_OP_HYPOT)
    MT_L_FLOAT(MT_GEN_REGISTER, logaddexp, MT_OP_LOGADDEXP)
    MT_L_FLOAT(MT_GEN_REGISTER, logaddexp2, MT_OP_LOGADDEXP2)
    MT_L_ALL(MT_GEN_REGISTER, fmax, MT_OP_FMAX)
    MT_L_ALL(MT_GEN_REGISTER, fmin, MT_OP_FMIN)
    MT_L_FLOAT(MT_GEN_REGISTER, copysign, MT_OP_COPYSIGN)
    MT_L_FLOAT(MT_GEN_REGISTER, xlogy, MT_OP_XLOGY)
    MT_L_FLOAT(MT_GEN_REGISTER, relu_backward, MT_OP_RELU_BACKWARD)
    MT_L_FLOAT(MT_GEN_REGISTER, leaky_scale, MT_OP_LEAKY_SCALE)
    MT_L_ALL(MT_GEN_REGISTER, eq, MT_OP_EQ)
    MT_L_BAREBONES(MT_GEN_REGISTER, eq, MT_OP_EQ)
    MT_L_ALL(MT_GEN_REGISTER, ne, MT_OP_NE)
    MT_L_BAREBONES(MT_GEN_REGISTER, ne, MT_OP_NE)
    MT_L_ALL(MT_GEN_REGISTER, lt, MT_OP_LT)
    MT_L_BAREBONES(MT_GEN_REGISTER, lt, MT_OP_LT)
    MT_L_ALL(MT_GEN_REGISTER, le, MT_OP_LE)
    MT_L_BAREBONES(MT_GEN_REGISTER, le, MT_OP_LE)
    MT_L_ALL(MT_GEN_REGISTER, gt, MT_OP_GT)
    MT_L_BAREBONES(MT_GEN_REGISTER, gt, MT_OP_GT)
    MT_L_ALL(MT_GEN_REGISTER, ge, MT_OP_GE)
    MT_L_BAREBONES(MT_GEN_REGISTER, ge, MT_OP_GE)
    MT_L_ALL(MT_GEN_REGISTER, logical_and, MT_OP_LOGICAL_AND)
    MT_L_ALL(MT_GEN_REGISTER, logical_or, MT_OP_LOGICAL_OR)
    MT_L_ALL(MT_GEN_REGISTER, logical_xor, MT_OP_LOGICAL_XOR)
    MT_L_INTBOOL(MT_GEN_REGISTER, bitwise_and, MT_OP_BITWISE_AND)
    MT_L_INTBOOL(MT_GEN_REGISTER, bitwise_or, MT_OP_BITWISE_OR)
    MT_L_INTBOOL(MT_GEN_REGISTER, bitwise_xor, MT_OP_BITWISE_XOR)
    MT_L_INT(MT_GEN_REGISTER, lshift, MT_OP_LSHIFT)
    MT_L_INT(MT_GEN_REGISTER, rshift, MT_OP_RSHIFT)
    MT_L_COMPLEX(MT_GEN_REGISTER, add, MT_OP_ADD)
    MT_L_COMPLEX(MT_GEN_REGISTER, add_alpha, MT_OP_ADD_ALPHA)
    MT_L_COMPLEX(MT_GEN_REGISTER, sub, MT_OP_SUB)
    MT_L_COMPLEX(MT_GEN_REGISTER, sub_alpha, MT_OP_SUB_ALPHA)
    MT_L_COMPLEX(MT_GEN_REGISTER, mul, MT_OP_MUL)
    MT_L_COMPLEX(MT_GEN_REGISTER, div, MT_OP_DIV)
    MT_L_COMPLEX(MT_GEN_REGISTER, pow, MT_OP_POW)
    MT_L_COMPLEX(MT_GEN_REGISTER, eq, MT_OP_EQ)
    MT_L_COMPLEX(MT_GEN_REGISTER, ne, MT_OP_NE)
    MT_L_COMPLEX(MT_GEN_REGISTER, logical_and, MT_OP_LOGICAL_AND)
    MT_L_COMPLEX(MT_GEN_REGISTER, logical_or, MT_OP_LOGICAL_OR)
    MT_L_COMPLEX(MT_GEN_REGISTER, logical_xor, MT_OP_LOGICAL_XOR)
}
