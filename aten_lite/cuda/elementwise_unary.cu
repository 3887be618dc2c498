/* aten_lite/cuda/elementwise_unary.cu - the CUDA kernels of the unary ops and activations (Note
 * [CUDA elementwise launcher] in elementwise.h): one functor per op, its math from op_math.h
 * where the cpu loop (cpu/unary.c, cpu/activation.c) has more than an operator or a libm call. */
#include "aten_lite/cuda/elementwise.cuh"

namespace mt_ew {
namespace {

MT_EW_LIB1(fabs)
MT_EW_LIB1(exp)
MT_EW_LIB1(expm1)
MT_EW_LIB1(log)
MT_EW_LIB1(log1p)
MT_EW_LIB1(log2)
MT_EW_LIB1(log10)
MT_EW_LIB1(sqrt)
MT_EW_LIB1(sin)
MT_EW_LIB1(cos)
MT_EW_LIB1(tan)
MT_EW_LIB1(tanh)
MT_EW_LIB1(erf)
MT_EW_LIB1(erfc)
MT_EW_LIB1(floor)
MT_EW_LIB1(ceil)
MT_EW_LIB1(rint)
MT_EW_LIB1(trunc)
MT_EW_LIB1(asin)
MT_EW_LIB1(acos)
MT_EW_LIB1(atan)
MT_EW_LIB1(sinh)
MT_EW_LIB1(cosh)
MT_EW_LIB1(asinh)
MT_EW_LIB1(acosh)
MT_EW_LIB1(atanh)
MT_EW_LIB1(exp2)
MT_EW_LIB2(copysign)
MT_EW_LIB2(hypot)
MT_EW_LIB2(atan2)
MT_EW_MATH1(sigmoid)
MT_EW_MATH1(sinc)
MT_EW_MATH1(frac)
MT_EW_MATH1(angle)
MT_EW_MATH1(erfinv)
MT_EW_MATH1(gelu)
MT_EW_MATH1(gelu_tanh)

#if defined(MT_CUDA_EMULATED)
/* the host's lgamma writes the global signgam, which the emulated threads would race on */
__device__ __forceinline__ float lib_lgamma(float x) { int s; return lgammaf_r(x, &s); }
__device__ __forceinline__ double lib_lgamma(double x) { int s; return lgamma_r(x, &s); }
#else
MT_EW_LIB1(lgamma)
#endif

template <typename T> constexpr bool is_bool = std::is_same<T, bool>::value;
template <typename T> constexpr bool is_float = std::is_floating_point<T>::value;

template <typename T>
__device__ __forceinline__ bool
nan_of(T a)
{
    if constexpr (is_float<T>) {
        return a != a;
    }
    else {
        (void)a;
        return false;
    }
}

#define MT__UN(name, R, ...)                                                                       \
    template <typename T> struct name : fn<T, R> {                                                 \
        __device__ __forceinline__ R operator()(const params &p, T a) const                        \
        {                                                                                          \
            (void)p;                                                                               \
            __VA_ARGS__                                                                            \
        }                                                                                          \
    };
#define MT__F1(name, expr) MT__UN(name, T, return expr;)

MT__UN(neg_f, T, if constexpr (is_float<T> || is_cplx<T>::value) { return -a; } else {
    return wrap_sub((T)0, a);
})
/* complex: |z|, a real result */
MT__UN(abs_f, typename real_of<T>::type, if constexpr (is_cplx<T>::value) {
    return lib_hypot(a.re, a.im);
} else if constexpr (is_float<T>) { return lib_fabs(a); } else {
    return is_neg(a) ? wrap_sub((T)0, a) : a;
})
MT__UN(sign_f, T, if constexpr (is_bool<T>) { return a; } else {
    return (T)((a > 0) - is_neg(a));
})
/* sgn: sign for reals, z / |z| for complex */
MT__UN(sgn_f, T, if constexpr (is_cplx<T>::value) {
    using R = typename real_of<T>::type;
    if (a.re == 0 && a.im == 0) {
        return T{(R)0, (R)0};
    }
    const R m = lib_hypot(a.re, a.im);
    return T{a.re / m, a.im / m};
} else if constexpr (is_bool<T>) { return a; } else { return (T)((a > 0) - is_neg(a)); })
MT__F1(exp_f, lib_exp(a))
MT__F1(expm1_f, lib_expm1(a))
MT__F1(log_f, lib_log(a))
MT__F1(log1p_f, lib_log1p(a))
MT__F1(log2_f, lib_log2(a))
MT__F1(log10_f, lib_log10(a))
MT__F1(sqrt_f, lib_sqrt(a))
MT__F1(rsqrt_f, (T)1 / lib_sqrt(a))
MT__F1(sin_f, lib_sin(a))
MT__F1(cos_f, lib_cos(a))
MT__F1(tan_f, lib_tan(a))
MT__F1(tanh_f, lib_tanh(a))
MT__F1(sigmoid_f, math_sigmoid(a))
/* NaN stays NaN */
MT__F1(relu_f, (nan_of(a) || a > 0) ? a : (T)0)
MT__F1(erf_f, lib_erf(a))
MT__F1(erfc_f, lib_erfc(a))
MT__F1(floor_f, lib_floor(a))
MT__F1(ceil_f, lib_ceil(a))
MT__F1(round_f, lib_rint(a))
MT__F1(trunc_f, lib_trunc(a))
MT__UN(reciprocal_f, T, if constexpr (is_cplx<T>::value) { return T{1, 0} / a; } else {
    return (T)1 / a;
})
MT__UN(square_f, T, return wrap_mul(a, a);)
MT__UN(isnan_f, bool, if constexpr (is_cplx<T>::value) { return a.re != a.re || a.im != a.im; } else {
    return a != a;
})
MT__UN(isinf_f, bool, if constexpr (is_cplx<T>::value) {
    return isinf(a.re) || isinf(a.im);
} else { return lib_fabs(a) == (T)INFINITY; })
MT__UN(isfinite_f, bool, if constexpr (is_cplx<T>::value) {
    return isfinite(a.re) && isfinite(a.im);
} else { return a - a == 0; })
MT__UN(bitwise_not_f, T, if constexpr (is_bool<T>) { return !a; } else { return (T)~a; })
MT__UN(logical_not_f, bool, if constexpr (is_cplx<T>::value) { return a.re == 0 && a.im == 0; } else {
    return a == 0;
})
/* complex: arg z, a real result */
MT__UN(angle_f, typename real_of<T>::type, if constexpr (is_cplx<T>::value) {
    return lib_atan2(a.im, a.re);
} else { return math_angle(a); })
MT__UN(conj_physical_f, T, if constexpr (is_cplx<T>::value) { return T{a.re, -a.im}; } else {
    return a;
})
MT__F1(asin_f, lib_asin(a))
MT__F1(acos_f, lib_acos(a))
MT__F1(atan_f, lib_atan(a))
MT__F1(sinh_f, lib_sinh(a))
MT__F1(cosh_f, lib_cosh(a))
MT__F1(asinh_f, lib_asinh(a))
MT__F1(acosh_f, lib_acosh(a))
MT__F1(atanh_f, lib_atanh(a))
MT__F1(exp2_f, lib_exp2(a))
MT__F1(erfinv_f, math_erfinv(a))
MT__F1(lgamma_f, lib_lgamma(a))
MT__F1(deg2rad_f, a * (T)(M_PI / 180))
MT__F1(rad2deg_f, a * (T)(180 / M_PI))
MT__F1(sinc_f, math_sinc(a))
MT__F1(frac_f, math_frac(a))
/* the sign bit (-0.0 and -NaN count) */
MT__UN(signbit_f, bool, if constexpr (is_float<T>) { return lib_copysign((T)1, a) < 0; } else {
    return is_neg(a);
})
MT__F1(gelu_f, math_gelu(a))
MT__F1(gelu_tanh_f, math_gelu_tanh(a))
#undef MT__F1
#undef MT__UN

} // namespace
} // namespace mt_ew

extern "C" int
mt__cuda_ew_unary(const mt_cuda_ew_launch *l)
{
    using namespace mt_ew;
    switch (l->op) {
    case MT_OP_NEG:
        return dispatch<K_NUM | K_COMPLEX, neg_f, 1>(l);
    case MT_OP_ABS:
        return dispatch<K_NUM | K_COMPLEX, abs_f, 1>(l);
    case MT_OP_SIGN:
        return dispatch<K_REAL, sign_f, 1>(l);
    case MT_OP_SGN:
        return dispatch<K_REAL | K_COMPLEX, sgn_f, 1>(l);
    case MT_OP_EXP:
        return dispatch<K_FLOAT, exp_f, 1>(l);
    case MT_OP_EXPM1:
        return dispatch<K_FLOAT, expm1_f, 1>(l);
    case MT_OP_LOG:
        return dispatch<K_FLOAT, log_f, 1>(l);
    case MT_OP_LOG1P:
        return dispatch<K_FLOAT, log1p_f, 1>(l);
    case MT_OP_LOG2:
        return dispatch<K_FLOAT, log2_f, 1>(l);
    case MT_OP_LOG10:
        return dispatch<K_FLOAT, log10_f, 1>(l);
    case MT_OP_SQRT:
        return dispatch<K_FLOAT, sqrt_f, 1>(l);
    case MT_OP_RSQRT:
        return dispatch<K_FLOAT, rsqrt_f, 1>(l);
    case MT_OP_SIN:
        return dispatch<K_FLOAT, sin_f, 1>(l);
    case MT_OP_COS:
        return dispatch<K_FLOAT, cos_f, 1>(l);
    case MT_OP_TAN:
        return dispatch<K_FLOAT, tan_f, 1>(l);
    case MT_OP_TANH:
        return dispatch<K_FLOAT, tanh_f, 1>(l);
    case MT_OP_SIGMOID:
        return dispatch<K_FLOAT, sigmoid_f, 1>(l);
    case MT_OP_RELU:
        return dispatch<K_NUM, relu_f, 1>(l);
    case MT_OP_ERF:
        return dispatch<K_FLOAT, erf_f, 1>(l);
    case MT_OP_ERFC:
        return dispatch<K_FLOAT, erfc_f, 1>(l);
    case MT_OP_FLOOR:
        return dispatch<K_FLOAT, floor_f, 1>(l);
    case MT_OP_CEIL:
        return dispatch<K_FLOAT, ceil_f, 1>(l);
    case MT_OP_ROUND:
        return dispatch<K_FLOAT, round_f, 1>(l);
    case MT_OP_TRUNC:
        return dispatch<K_FLOAT, trunc_f, 1>(l);
    case MT_OP_RECIPROCAL:
        return dispatch<K_FLOAT | K_COMPLEX, reciprocal_f, 1>(l);
    case MT_OP_SQUARE:
        return dispatch<K_NUM | K_COMPLEX, square_f, 1>(l);
    case MT_OP_ISNAN:
        return dispatch<K_FLOAT | K_COMPLEX, isnan_f, 1>(l);
    case MT_OP_ISINF:
        return dispatch<K_FLOAT | K_COMPLEX, isinf_f, 1>(l);
    case MT_OP_ISFINITE:
        return dispatch<K_FLOAT | K_COMPLEX, isfinite_f, 1>(l);
    case MT_OP_BITWISE_NOT:
        return dispatch<K_INTBOOL, bitwise_not_f, 1>(l);
    case MT_OP_LOGICAL_NOT:
        return dispatch<K_REAL | K_COMPLEX, logical_not_f, 1>(l);
    case MT_OP_ANGLE:
        return dispatch<K_FLOAT | K_COMPLEX, angle_f, 1>(l);
    case MT_OP_CONJ_PHYSICAL:
        return dispatch<K_REAL | K_COMPLEX, conj_physical_f, 1>(l);
    case MT_OP_ASIN:
        return dispatch<K_FLOAT, asin_f, 1>(l);
    case MT_OP_ACOS:
        return dispatch<K_FLOAT, acos_f, 1>(l);
    case MT_OP_ATAN:
        return dispatch<K_FLOAT, atan_f, 1>(l);
    case MT_OP_SINH:
        return dispatch<K_FLOAT, sinh_f, 1>(l);
    case MT_OP_COSH:
        return dispatch<K_FLOAT, cosh_f, 1>(l);
    case MT_OP_ASINH:
        return dispatch<K_FLOAT, asinh_f, 1>(l);
    case MT_OP_ACOSH:
        return dispatch<K_FLOAT, acosh_f, 1>(l);
    case MT_OP_ATANH:
        return dispatch<K_FLOAT, atanh_f, 1>(l);
    case MT_OP_EXP2:
        return dispatch<K_FLOAT, exp2_f, 1>(l);
    case MT_OP_ERFINV:
        return dispatch<K_FLOAT, erfinv_f, 1>(l);
    case MT_OP_LGAMMA:
        return dispatch<K_FLOAT, lgamma_f, 1>(l);
    case MT_OP_DEG2RAD:
        return dispatch<K_FLOAT, deg2rad_f, 1>(l);
    case MT_OP_RAD2DEG:
        return dispatch<K_FLOAT, rad2deg_f, 1>(l);
    case MT_OP_SINC:
        return dispatch<K_FLOAT, sinc_f, 1>(l);
    case MT_OP_FRAC:
        return dispatch<K_FLOAT, frac_f, 1>(l);
    case MT_OP_SIGNBIT:
        return dispatch<K_REAL, signbit_f, 1>(l);
    case MT_OP_GELU:
        return dispatch<K_FLOAT, gelu_f, 1>(l);
    case MT_OP_GELU_TANH:
        return dispatch<K_FLOAT, gelu_tanh_f, 1>(l);
    default:
        return l->query ? 0 : MT_CUDA_EW_NO_KERNEL;
    }
}
