/* aten_lite/op_math.h - the scalar math of the elementwise ops, once, for every device's loops. */
#ifndef ATEN_LITE_OP_MATH_H
#define ATEN_LITE_OP_MATH_H

#if !defined(__cplusplus)
#include <complex.h>
#endif
#include <math.h>
#include <stdint.h>

#include "c10_lite/dtype.h"

/* Note [Op math]
 * The part of an elementwise op that is more than an operator (Python's integer division
 * and remainder, torch's divmod for floats, NaN-propagating maximum, logaddexp, complex pow,
 * ...) is written here once, as static inline functions of plain scalars, so the cpu loops
 * (cpu/binary.c, which instantiate them per dtype: Note [Loop generation]) and the CUDA
 * kernels (aten_lite/cuda/, compiled by nvcc or by the host emulation) compute the same
 * values.  MT_HOST_DEVICE marks them for both sides: empty in C, __host__ __device__ under
 * nvcc.  Functions here touch no memory but their arguments (an integer division by zero
 * raises a flag through the pointer it is given, see MT_MATH_SET_FLAG). */
#if defined(__CUDACC__)
#define MT_HOST_DEVICE __host__ __device__
#else
#define MT_HOST_DEVICE
#endif

/* *flag = 1 from any number of threads at once. */
#if defined(__CUDA_ARCH__)
#define MT_MATH_SET_FLAG(flag) ((void)(*(volatile int *)(flag) = 1))
#else
#define MT_MATH_SET_FLAG(flag) __atomic_store_n((flag), 1, __ATOMIC_RELAXED)
#endif

/* ---- integer helpers: Python/torch semantics, no traps, no UB ---- */

/* Marks an integer division by zero: *flag = 1 (every writer writes 1: a relaxed store). */
MT_HOST_DEVICE static inline void
mt_math_flag_zero_division(int *flag)
{
    MT_MATH_SET_FLAG(flag);
}

MT_HOST_DEVICE static inline int64_t
mt_math_idiv_trunc(int64_t a, int64_t b, int *zero_division)
{
    if (b == 0) {
        mt_math_flag_zero_division(zero_division);
        return 0;
    }
    return b == -1 ? (int64_t)(0 - (uint64_t)a) : a / b;
}

MT_HOST_DEVICE static inline int64_t
mt_math_idiv_floor(int64_t a, int64_t b, int *zero_division)
{
    if (b == 0) {
        mt_math_flag_zero_division(zero_division);
        return 0;
    }
    if (b == -1) {
        return (int64_t)(0 - (uint64_t)a);
    }
    int64_t q = a / b;
    return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}

MT_HOST_DEVICE static inline int64_t
mt_math_iremainder(int64_t a, int64_t b, int *zero_division)
{
    if (b == 0) {
        mt_math_flag_zero_division(zero_division);
        return 0;
    }
    if (b == -1) {
        return 0;
    }
    int64_t r = a % b;
    return (r != 0 && ((r < 0) != (b < 0))) ? r + b : r;
}

MT_HOST_DEVICE static inline int64_t
mt_math_ifmod(int64_t a, int64_t b, int *zero_division)
{
    if (b == 0) {
        mt_math_flag_zero_division(zero_division);
        return 0;
    }
    return b == -1 ? 0 : a % b;
}

MT_HOST_DEVICE static inline int64_t
mt_math_ipow(int64_t a, int64_t b)
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

MT_HOST_DEVICE static inline int64_t
mt_math_ishl(int64_t a, int64_t b, int bits)
{
    return (b < 0 || b >= bits) ? 0 : (int64_t)((uint64_t)a << b);
}

MT_HOST_DEVICE static inline int64_t
mt_math_ishr(int64_t a, int64_t b, int bits)
{
    if (b < 0 || b >= bits) {
        return a < 0 ? -1 : 0;
    }
    return a >> b;
}

/* ---- floating helpers (NumPy/torch's divmod algorithm) ---- */
#define MT__MATH_FLOAT_HELPERS(T, SFX)                                                      \
    MT_HOST_DEVICE static inline T mt_math_fdiv_floor_##SFX(T a, T b)                                      \
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
    MT_HOST_DEVICE static inline T mt_math_fremainder_##SFX(T a, T b)                                      \
    {                                                                                   \
        T mod = fmod##SFX(a, b);                                                        \
        if (mod != 0 && ((b < 0) != (mod < 0))) {                                       \
            mod += b;                                                                   \
        }                                                                               \
        return mod;                                                                     \
    }                                                                                   \
    MT_HOST_DEVICE static inline T mt_math_fmax_nan_##SFX(T a, T b)                                        \
    {                                                                                   \
        return (a != a || b != b) ? (T)NAN : (a > b ? a : b);                           \
    }                                                                                   \
    MT_HOST_DEVICE static inline T mt_math_fmin_nan_##SFX(T a, T b)                                        \
    {                                                                                   \
        return (a != a || b != b) ? (T)NAN : (a < b ? a : b);                           \
    }
MT__MATH_FLOAT_HELPERS(float, f)
MT__MATH_FLOAT_HELPERS(double, )
#undef MT__MATH_FLOAT_HELPERS

#if !defined(__cplusplus) /* C99 complex; a CUDA kernel uses its own complex type */
/* x ** y with torch's special cases: anything to the 0 is 1, 0 to a
 * positive real power is 0; squares multiply out exactly */
#define MT__MATH_CPOW(T, SFX)                                                  \
    MT_HOST_DEVICE static inline T mt_math_cpow_##SFX(T a, T b)                              \
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
MT__MATH_CPOW(mt_complex64, f)
MT__MATH_CPOW(mt_complex128, )
#undef MT__MATH_CPOW
#endif


/* log(e^a + e^b) without overflow: max + log1p(e^-|a - b|) (base 2: log2 and 2^);
 * equal infinities stay as they are, NaN propagates */
#define MT__MATH_LOGADDEXP_FNS(T, SFX)                                                  \
    MT_HOST_DEVICE static inline T mt_math_logaddexp##SFX(T a, T b)                                   \
    {                                                                              \
        if (a == b && isinf(a)) {                                                  \
            return a;                                                              \
        }                                                                          \
        return (a > b ? a : b) + log1p##SFX(exp##SFX(-fabs##SFX(a - b)));          \
    }                                                                              \
    MT_HOST_DEVICE static inline T mt_math_logaddexp2##SFX(T a, T b)                                  \
    {                                                                              \
        if (a == b && isinf(a)) {                                                  \
            return a;                                                              \
        }                                                                          \
        return (a > b ? a : b) + log1p##SFX(exp2##SFX(-fabs##SFX(a - b))) / (T)M_LN2; \
    }                                                                              \
    /* x * log(y), 0 where x is 0 (unless y is NaN) */                             \
    MT_HOST_DEVICE static inline T mt_math_xlogy##SFX(T x, T y)                                       \
    {                                                                              \
        return y != y ? y : x == 0 ? (T)0 : x * log##SFX(y);                       \
    }
MT__MATH_LOGADDEXP_FNS(double, )
MT__MATH_LOGADDEXP_FNS(float, f)
#undef MT__MATH_LOGADDEXP_FNS

#endif /* ATEN_LITE_OP_MATH_H */
