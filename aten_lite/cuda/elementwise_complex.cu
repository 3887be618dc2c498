/* aten_lite/cuda/elementwise_complex.cu - the CUDA kernels of the complex elementary functions
 * (Note [CUDA elementwise launcher] in elementwise.h): exp, log, sqrt, pow, the trigonometric
 * and hyperbolic functions and their inverses, sigmoid, sinc, ... of complex64 (computed in
 * float, as the cpu's cexpf, ...) and complex128, their math aten_lite/complex_math.h (Note
 * [Complex math]).  The complex ops that are arithmetic (neg, abs, reciprocal, add, mul, ...)
 * are with the real ones in elementwise_unary.cu / elementwise_binary.cu; this group answers
 * only for complex dtypes. */
#include "aten_lite/cuda/elementwise.cuh"

extern "C" {
#include "aten_lite/complex_math.h"
}

namespace mt_ew {
namespace {

/* cplx<float> <-> mt_cmf, cplx<double> <-> mt_cmd (the same layout) */
template <typename T> struct cm_of;
template <> struct cm_of<float> {
    using type = mt_cmf;
};
template <> struct cm_of<double> {
    using type = mt_cmd;
};
template <typename T>
__device__ __forceinline__ typename cm_of<T>::type
to_cm(cplx<T> z)
{
    typename cm_of<T>::type r;
    r.re = z.re;
    r.im = z.im;
    return r;
}
template <typename C>
__device__ __forceinline__ auto
from_cm(C z) -> cplx<decltype(z.re)>
{
    return {z.re, z.im};
}

/* the functor of complex_math.h's mt_cm_<fname> (float: mt_cm_<fname>f) */
#define MT__CU(name, fname)                                                                            \
    template <typename T> struct name : fn<T> {                                                    \
        __device__ __forceinline__ T operator()(const params &p, T a) const                        \
        {                                                                                          \
            (void)p;                                                                               \
            if constexpr (std::is_same<typename real_of<T>::type, float>::value) {                 \
                return from_cm(mt_cm_##fname##f(to_cm(a)));                                            \
            }                                                                                      \
            else {                                                                                 \
                return from_cm(mt_cm_##fname(to_cm(a)));                                               \
            }                                                                                      \
        }                                                                                          \
    };
MT__CU(exp_c, exp)
MT__CU(expm1_c, expm1)
MT__CU(log_c, log)
MT__CU(log1p_c, log1p)
MT__CU(sqrt_c, sqrt)
MT__CU(sin_c, sin)
MT__CU(cos_c, cos)
MT__CU(tan_c, tan)
MT__CU(sinh_c, sinh)
MT__CU(cosh_c, cosh)
MT__CU(tanh_c, tanh)
MT__CU(asin_c, asin)
MT__CU(acos_c, acos)
MT__CU(atan_c, atan)
MT__CU(asinh_c, asinh)
MT__CU(acosh_c, acosh)
MT__CU(atanh_c, atanh)
#undef MT__CU

/* log z / log b, componentwise (a real divisor, as the cpu's) */
template <int BASE10> struct log_base {
    template <typename T> struct f : fn<T> {
        __device__ __forceinline__ T operator()(const params &p, T a) const
        {
            using R = typename real_of<T>::type;
            const T l = log_c<T>{}(p, a);
            const R d = BASE10 ? (R)M_LN10 : (R)M_LN2;
            return T{l.re / d, l.im / d};
        }
    };
};

/* 1 / d, with the C library's value (a signed 0) where d is infinite */
template <typename T>
__device__ __forceinline__ T
recip(T d)
{
    using R = typename real_of<T>::type;
    if (isinf(d.re) || isinf(d.im)) {
        return T{copysign((R)0, d.re), copysign((R)0, -d.im)};
    }
    return T{1, 0} / d;
}

template <typename T> struct rsqrt_c : fn<T> {
    __device__ __forceinline__ T operator()(const params &p, T a) const
    {
        return recip(sqrt_c<T>{}(p, a));
    }
};

/* 2^z = e^(z log 2) */
template <typename T> struct exp2_c : fn<T> {
    __device__ __forceinline__ T operator()(const params &p, T a) const
    {
        using R = typename real_of<T>::type;
        return exp_c<T>{}(p, a * T{(R)M_LN2, 0}); /* a complex product, as the cpu's */
    }
};

/* sin(pi z) / (pi z), 1 at 0 */
template <typename T> struct sinc_c : fn<T> {
    __device__ __forceinline__ T operator()(const params &p, T a) const
    {
        using R = typename real_of<T>::type;
        if (a.re == 0 && a.im == 0) {
            return T{1, 0};
        }
        const T w = a * T{(R)M_PI, 0};
        return sin_c<T>{}(p, w) / w;
    }
};

/* 1 / (1 + e^-z) */
template <typename T> struct sigmoid_c : fn<T> {
    __device__ __forceinline__ T operator()(const params &p, T a) const
    {
        return recip(T{1, 0} + exp_c<T>{}(p, -a));
    }
};

template <typename T> struct pow_c : fn<T> {
    __device__ __forceinline__ T operator()(const params &p, T a, T b) const
    {
        (void)p;
        if constexpr (std::is_same<typename real_of<T>::type, float>::value) {
            return from_cm(mt_cm_powf(to_cm(a), to_cm(b)));
        }
        else {
            return from_cm(mt_cm_pow(to_cm(a), to_cm(b)));
        }
    }
};

} // namespace
} // namespace mt_ew

extern "C" int
mt__cuda_ew_complex(const mt_cuda_ew_launch *l)
{
    using namespace mt_ew;
    if (l->dtype != MT_COMPLEX64 && l->dtype != MT_COMPLEX128) {
        return l->query ? 0 : MT_CUDA_EW_NO_KERNEL;
    }
    switch (l->op) {
    case MT_OP_EXP:
        return dispatch<K_COMPLEX, exp_c, 1>(l);
    case MT_OP_EXPM1:
        return dispatch<K_COMPLEX, expm1_c, 1>(l);
    case MT_OP_LOG:
        return dispatch<K_COMPLEX, log_c, 1>(l);
    case MT_OP_LOG1P:
        return dispatch<K_COMPLEX, log1p_c, 1>(l);
    case MT_OP_LOG2:
        return dispatch<K_COMPLEX, log_base<0>::f, 1>(l);
    case MT_OP_LOG10:
        return dispatch<K_COMPLEX, log_base<1>::f, 1>(l);
    case MT_OP_SQRT:
        return dispatch<K_COMPLEX, sqrt_c, 1>(l);
    case MT_OP_RSQRT:
        return dispatch<K_COMPLEX, rsqrt_c, 1>(l);
    case MT_OP_SIN:
        return dispatch<K_COMPLEX, sin_c, 1>(l);
    case MT_OP_COS:
        return dispatch<K_COMPLEX, cos_c, 1>(l);
    case MT_OP_TAN:
        return dispatch<K_COMPLEX, tan_c, 1>(l);
    case MT_OP_SINH:
        return dispatch<K_COMPLEX, sinh_c, 1>(l);
    case MT_OP_COSH:
        return dispatch<K_COMPLEX, cosh_c, 1>(l);
    case MT_OP_TANH:
        return dispatch<K_COMPLEX, tanh_c, 1>(l);
    case MT_OP_ASIN:
        return dispatch<K_COMPLEX, asin_c, 1>(l);
    case MT_OP_ACOS:
        return dispatch<K_COMPLEX, acos_c, 1>(l);
    case MT_OP_ATAN:
        return dispatch<K_COMPLEX, atan_c, 1>(l);
    case MT_OP_ASINH:
        return dispatch<K_COMPLEX, asinh_c, 1>(l);
    case MT_OP_ACOSH:
        return dispatch<K_COMPLEX, acosh_c, 1>(l);
    case MT_OP_ATANH:
        return dispatch<K_COMPLEX, atanh_c, 1>(l);
    case MT_OP_EXP2:
        return dispatch<K_COMPLEX, exp2_c, 1>(l);
    case MT_OP_SINC:
        return dispatch<K_COMPLEX, sinc_c, 1>(l);
    case MT_OP_SIGMOID:
        return dispatch<K_COMPLEX, sigmoid_c, 1>(l);
    case MT_OP_POW:
        return dispatch<K_COMPLEX, pow_c, 2>(l);
    default:
        return l->query ? 0 : MT_CUDA_EW_NO_KERNEL;
    }
}
