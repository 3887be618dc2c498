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
/* MT_HOST_DEVICE: c10_lite/dtype.h */

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

/* ---- unary math (Note [Op math]): the ops whose loop is more than an operator ---- */
/* sin(pi x) / (pi x), 1 at 0 (torch.sinc) */
#define MT__MATH_UNARY_FNS(T, SFX)                                                          \
    MT_HOST_DEVICE static inline T mt_math_sinc##SFX(T a)                                   \
    {                                                                                       \
        return a == 0 ? (T)1 : sin##SFX((T)M_PI * a) / ((T)M_PI * a);                        \
    }                                                                                       \
    /* the fractional part, with the sign of a */                                           \
    MT_HOST_DEVICE static inline T mt_math_frac##SFX(T a)                                   \
    {                                                                                       \
        return a - trunc##SFX(a);                                                           \
    }                                                                                       \
    /* torch.angle of a real number: 0, or pi for negatives; NaN stays NaN */               \
    MT_HOST_DEVICE static inline T mt_math_angle##SFX(T a)                                  \
    {                                                                                       \
        return a != a ? a : (a < 0 ? (T)M_PI : (T)0);                                       \
    }                                                                                       \
    MT_HOST_DEVICE static inline T mt_math_sigmoid##SFX(T a)                                \
    {                                                                                       \
        return (T)1 / ((T)1 + exp##SFX(-a));                                                \
    }                                                                                       \
    /* GELU, exact form: 0.5 x (1 + erf(x / sqrt 2)) */                                     \
    MT_HOST_DEVICE static inline T mt_math_gelu##SFX(T x)                                   \
    {                                                                                       \
        return (T)0.5 * x * ((T)1 + erf##SFX(x * (T)MT_MATH_SQRT1_2));                      \
    }                                                                                       \
    /* d gelu / dx = cdf(x) + x pdf(x) */                                                   \
    MT_HOST_DEVICE static inline T mt_math_gelu_grad##SFX(T x)                              \
    {                                                                                       \
        return (T)0.5 * ((T)1 + erf##SFX(x * (T)MT_MATH_SQRT1_2)) +                         \
               x * (T)MT_MATH_INV_SQRT_2PI * exp##SFX((T)-0.5 * x * x);                     \
    }                                                                                       \
    /* the tanh form: 0.5 x (1 + tanh(k (x + c x^3))), k = sqrt(2 / pi) */                  \
    MT_HOST_DEVICE static inline T mt_math_gelu_tanh##SFX(T x)                              \
    {                                                                                       \
        return (T)0.5 * x *                                                                 \
               ((T)1 + tanh##SFX((T)MT_MATH_SQRT_2_PI * (x + (T)MT_MATH_GELU_C * x * x * x))); \
    }                                                                                       \
    /* d/dx: 0.5 (1 + t) + 0.5 x (1 - t^2) k (1 + 3 c x^2) */                                \
    MT_HOST_DEVICE static inline T mt_math_gelu_tanh_grad##SFX(T x)                         \
    {                                                                                       \
        T x2 = x * x;                                                                       \
        T t = tanh##SFX((T)MT_MATH_SQRT_2_PI * (x + (T)MT_MATH_GELU_C * x2 * x));            \
        return (T)0.5 * ((T)1 + t) + (T)0.5 * x * ((T)1 - t * t) * (T)MT_MATH_SQRT_2_PI *     \
                                         ((T)1 + (T)3 * (T)MT_MATH_GELU_C * x2);            \
    }
#define MT_MATH_SQRT1_2 0.70710678118654752440
#define MT_MATH_INV_SQRT_2PI 0.39894228040143267794
#define MT_MATH_SQRT_2_PI 0.79788456080286535588 /* sqrt(2 / pi) */
#define MT_MATH_GELU_C 0.044715
MT__MATH_UNARY_FNS(double, )
MT__MATH_UNARY_FNS(float, f)
#undef MT__MATH_UNARY_FNS

/* erfinv: Giles' approximation ("Approximating the erfinv function", GPU Gems
 * 2012) as a start, then two Newton steps on erf(x) - y, which bring it to a
 * few ulp in double; +-1 give +-inf, |y| > 1 and NaN give NaN.  float32 goes through it. */
/* Giles' single-precision approximation of erfinv(y) ("Approximating the erfinv function", GPU
 * Gems 2012) given w = -log((1 - y)(1 + y)) <= 16: about 1e-7 relative; the start of erfinv's
 * Newton steps (here and in special_math.h). */
MT_HOST_DEVICE static inline double
mt_math_erfinv_guess(double y, double w)
{
    double p;
    if (w < 5.0) {
        w -= 2.5;
        p = 2.81022636e-08;
        p = 3.43273939e-07 + p * w;
        p = -3.5233877e-06 + p * w;
        p = -4.39150654e-06 + p * w;
        p = 0.00021858087 + p * w;
        p = -0.00125372503 + p * w;
        p = -0.00417768164 + p * w;
        p = 0.246640727 + p * w;
        p = 1.50140941 + p * w;
    }
    else {
        w = sqrt(w) - 3.0;
        p = -0.000200214257;
        p = 0.000100950558 + p * w;
        p = 0.00134934322 + p * w;
        p = -0.00367342844 + p * w;
        p = 0.00573950773 + p * w;
        p = -0.0076224613 + p * w;
        p = 0.00943887047 + p * w;
        p = 1.00167406 + p * w;
        p = 2.83297682 + p * w;
    }
    return p * y;
}

MT_HOST_DEVICE static inline double
mt_math_erfinv(double y)
{
    if (!(y >= -1.0 && y <= 1.0)) {
        return NAN;
    }
    if (y == 1.0 || y == -1.0) {
        return y * INFINITY;
    }
    double x = mt_math_erfinv_guess(y, -log((1.0 - y) * (1.0 + y)));
    for (int i = 0; i < 2; i++) {
        x -= (erf(x) - y) / (1.1283791670955126 * exp(-x * x));
    }
    return x;
}

MT_HOST_DEVICE static inline float
mt_math_erfinvf(float y)
{
    return (float)mt_math_erfinv(y);
}

#endif /* ATEN_LITE_OP_MATH_H */
