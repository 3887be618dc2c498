/* aten_lite/cuda/elementwise_binary.cu - the CUDA kernels of the arithmetic binary ops (Note
 * [CUDA elementwise launcher] in elementwise.h): one functor per op, its math from op_math.h
 * where the cpu loop (cpu/binary.c) has more than an operator. */
#include "aten_lite/cuda/elementwise.cuh"

namespace mt_ew {
namespace {

MT_EW_LIB2(fmod)
MT_EW_LIB2(pow)
MT_EW_LIB2(atan2)
MT_EW_LIB2(hypot)
MT_EW_LIB2(fmax)
MT_EW_LIB2(fmin)
MT_EW_LIB2(copysign)
MT_EW_LIB1(trunc)
MT_EW_MATH1(gelu_grad)
MT_EW_MATH1(gelu_tanh_grad)
__device__ __forceinline__ float math_fdiv_floor(float a, float b) { return mt_math_fdiv_floor_f(a, b); }
__device__ __forceinline__ double math_fdiv_floor(double a, double b) { return mt_math_fdiv_floor_(a, b); }
__device__ __forceinline__ float math_fremainder(float a, float b) { return mt_math_fremainder_f(a, b); }
__device__ __forceinline__ double math_fremainder(double a, double b) { return mt_math_fremainder_(a, b); }
__device__ __forceinline__ float math_fmax_nan(float a, float b) { return mt_math_fmax_nan_f(a, b); }
__device__ __forceinline__ double math_fmax_nan(double a, double b) { return mt_math_fmax_nan_(a, b); }
__device__ __forceinline__ float math_fmin_nan(float a, float b) { return mt_math_fmin_nan_f(a, b); }
__device__ __forceinline__ double math_fmin_nan(double a, double b) { return mt_math_fmin_nan_(a, b); }
__device__ __forceinline__ float math_logaddexp(float a, float b) { return mt_math_logaddexpf(a, b); }
__device__ __forceinline__ double math_logaddexp(double a, double b) { return mt_math_logaddexp(a, b); }
__device__ __forceinline__ float math_logaddexp2(float a, float b) { return mt_math_logaddexp2f(a, b); }
__device__ __forceinline__ double math_logaddexp2(double a, double b) { return mt_math_logaddexp2(a, b); }
__device__ __forceinline__ float math_xlogy(float a, float b) { return mt_math_xlogyf(a, b); }
__device__ __forceinline__ double math_xlogy(double a, double b) { return mt_math_xlogy(a, b); }

template <typename T> constexpr bool is_bool = std::is_same<T, bool>::value;
template <typename T> constexpr bool is_float = std::is_floating_point<T>::value;

/* add/sub's alpha in T */
template <typename T>
__device__ __forceinline__ T
alpha(const params &p)
{
    if constexpr (is_cplx<T>::value) {
        using R = typename real_of<T>::type;
        return T{(R)p.alpha_re, (R)p.alpha_im};
    }
    else if constexpr (is_float<T>) {
        return (T)p.alpha_f;
    }
    else {
        return (T)p.alpha_i;
    }
}

#define MT__BIN(name, ...)                                                                         \
    template <typename T> struct name : fn<T> {                                                    \
        __device__ __forceinline__ T operator()(const params &p, T a, T b) const                   \
        {                                                                                          \
            (void)p;                                                                               \
            __VA_ARGS__                                                                            \
        }                                                                                          \
    };

MT__BIN(add_f, if constexpr (is_bool<T>) { return a || b; } else { return wrap_add(a, b); })
MT__BIN(add_alpha_f, if constexpr (is_bool<T>) { return a || (p.alpha_i != 0 && b); } else {
    return wrap_add(a, wrap_mul(alpha<T>(p), b));
})
MT__BIN(sub_f, return wrap_sub(a, b);)
MT__BIN(sub_alpha_f, return wrap_sub(a, wrap_mul(alpha<T>(p), b));)
MT__BIN(mul_f, if constexpr (is_bool<T>) { return a && b; } else { return wrap_mul(a, b); })
MT__BIN(div_f, return a / b;)
MT__BIN(div_trunc_f, if constexpr (is_float<T>) { return lib_trunc(a / b); } else {
    return (T)mt_math_idiv_trunc(a, b, p.flag);
})
MT__BIN(div_floor_f, if constexpr (is_float<T>) { return math_fdiv_floor(a, b); } else {
    return (T)mt_math_idiv_floor(a, b, p.flag);
})
MT__BIN(remainder_f, if constexpr (is_float<T>) { return math_fremainder(a, b); } else {
    return (T)mt_math_iremainder(a, b, p.flag);
})
MT__BIN(fmod_f, if constexpr (is_float<T>) { return lib_fmod(a, b); } else {
    return (T)mt_math_ifmod(a, b, p.flag);
})
/* bool: x ** True = x, x ** False = True */
MT__BIN(pow_f, if constexpr (is_bool<T>) { return a || !b; } else if constexpr (is_float<T>) {
    return lib_pow(a, b);
} else { return (T)mt_math_ipow(a, b); })
MT__BIN(maximum_f, if constexpr (is_float<T>) { return math_fmax_nan(a, b); } else {
    return a > b ? a : b;
})
MT__BIN(minimum_f, if constexpr (is_float<T>) { return math_fmin_nan(a, b); } else {
    return a < b ? a : b;
})
MT__BIN(fmax_f, if constexpr (is_float<T>) { return lib_fmax(a, b); } else { return a > b ? a : b; })
MT__BIN(fmin_f, if constexpr (is_float<T>) { return lib_fmin(a, b); } else { return a < b ? a : b; })
MT__BIN(atan2_f, return lib_atan2(a, b);)
MT__BIN(hypot_f, return lib_hypot(a, b);)
MT__BIN(logaddexp_f, return math_logaddexp(a, b);)
MT__BIN(logaddexp2_f, return math_logaddexp2(a, b);)
MT__BIN(copysign_f, return lib_copysign(a, b);)
MT__BIN(xlogy_f, return math_xlogy(a, b);)
/* relu's gradient: a where relu's result b is not <= 0 */
MT__BIN(relu_backward_f, return b <= 0 ? (T)0 : a;)
/* a where b > 0, else alpha a */
MT__BIN(leaky_scale_f, return b > 0 ? a : a * (T)p.alpha_f;)
MT__BIN(gelu_backward_f, return a * math_gelu_grad(b);)
MT__BIN(gelu_tanh_backward_f, return a * math_gelu_tanh_grad(b);)
#undef MT__BIN

} // namespace
} // namespace mt_ew

extern "C" int
mt__cuda_ew_binary(const mt_cuda_ew_launch *l)
{
    using namespace mt_ew;
    switch (l->op) {
    case MT_OP_ADD:
        return dispatch<K_REAL | K_COMPLEX, add_f, 2>(l);
    case MT_OP_ADD_ALPHA:
        return dispatch<K_REAL | K_COMPLEX, add_alpha_f, 2>(l);
    case MT_OP_SUB:
        return dispatch<K_NUM | K_COMPLEX, sub_f, 2>(l);
    case MT_OP_SUB_ALPHA:
        return dispatch<K_NUM | K_COMPLEX, sub_alpha_f, 2>(l);
    case MT_OP_MUL:
        return dispatch<K_REAL | K_COMPLEX, mul_f, 2>(l);
    case MT_OP_DIV:
        return dispatch<K_FLOAT | K_COMPLEX, div_f, 2>(l);
    case MT_OP_DIV_TRUNC:
        return dispatch<K_NUM, div_trunc_f, 2>(l);
    case MT_OP_DIV_FLOOR:
        return dispatch<K_NUM, div_floor_f, 2>(l);
    case MT_OP_REMAINDER:
        return dispatch<K_NUM, remainder_f, 2>(l);
    case MT_OP_FMOD:
        return dispatch<K_NUM, fmod_f, 2>(l);
    case MT_OP_POW:
        return dispatch<K_REAL, pow_f, 2>(l);
    case MT_OP_MAXIMUM:
        return dispatch<K_REAL, maximum_f, 2>(l);
    case MT_OP_MINIMUM:
        return dispatch<K_REAL, minimum_f, 2>(l);
    case MT_OP_FMAX:
        return dispatch<K_REAL, fmax_f, 2>(l);
    case MT_OP_FMIN:
        return dispatch<K_REAL, fmin_f, 2>(l);
    case MT_OP_ATAN2:
        return dispatch<K_FLOAT, atan2_f, 2>(l);
    case MT_OP_HYPOT:
        return dispatch<K_FLOAT, hypot_f, 2>(l);
    case MT_OP_LOGADDEXP:
        return dispatch<K_FLOAT, logaddexp_f, 2>(l);
    case MT_OP_LOGADDEXP2:
        return dispatch<K_FLOAT, logaddexp2_f, 2>(l);
    case MT_OP_COPYSIGN:
        return dispatch<K_FLOAT, copysign_f, 2>(l);
    case MT_OP_XLOGY:
        return dispatch<K_FLOAT, xlogy_f, 2>(l);
    case MT_OP_RELU_BACKWARD:
        return dispatch<K_FLOAT, relu_backward_f, 2>(l);
    case MT_OP_LEAKY_SCALE:
        return dispatch<K_FLOAT, leaky_scale_f, 2>(l);
    case MT_OP_GELU_BACKWARD:
        return dispatch<K_FLOAT, gelu_backward_f, 2>(l);
    case MT_OP_GELU_TANH_BACKWARD:
        return dispatch<K_FLOAT, gelu_tanh_backward_f, 2>(l);
    default:
        return l->query ? 0 : MT_CUDA_EW_NO_KERNEL;
    }
}
