/* aten_lite/op_list.h - the elementwise kernels (mt_op): one list, for every device's kernels. */
#ifndef ATEN_LITE_OP_LIST_H
#define ATEN_LITE_OP_LIST_H

/* Note [Op list]
 * The X-macro lists below are the one list of elementwise kernels: the mt_op enum, the op
 * names (dispatch.c), the cpu loops' registration (cpu/ *.c, by enum) and the CUDA kernels'
 * table (cuda/elementwise_*.cu, a switch over the enum) all come from them.  The header
 * includes nothing, so C++ and CUDA sources can use it too. */

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
 * aten_lite/special_math.h); binary ones (operands: out, a, b), then unary ones.  The names are
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

#endif /* ATEN_LITE_OP_LIST_H */
