/* aten_lite/cuda/elementwise.cuh - the generic elementwise launcher (Note [CUDA elementwise
 * launcher] in elementwise.h): device types, conversions between dtypes, the kernel templated
 * on the op's functor, and the per-dtype dispatch.  Included by elementwise_*.cu and cast.cu. */
#ifndef ATEN_LITE_CUDA_ELEMENTWISE_CUH
#define ATEN_LITE_CUDA_ELEMENTWISE_CUH

#include <math.h>
#include <stdint.h>
#include <string.h>
#include <type_traits>

#include "aten_lite/cuda/cuda_compat.h"
#include "aten_lite/cuda/launch.cuh"
#include "aten_lite/cuda/elementwise.h"
#include "aten_lite/cuda/kernels.h"

extern "C" {
#include "aten_lite/op_list.h"
#include "aten_lite/op_math.h" /* c10_lite/dtype.h: mt_dtype, the float16/bfloat16 conversions */
#include "c10_lite/error.h"
}

namespace mt_ew {

using mt_cuda::blocks_for;
using mt_cuda::kMaxBlocks;
using mt_cuda::kThreads;
using mt_cuda::on_device;



/* ---- complex: (re, im), the layout of C's _Complex ---- */
template <typename T> struct alignas(2 * sizeof(T)) cplx {
    T re, im;
};
template <typename T>
__device__ __forceinline__ cplx<T>
operator+(cplx<T> a, cplx<T> b)
{
    return {a.re + b.re, a.im + b.im};
}
template <typename T>
__device__ __forceinline__ cplx<T>
operator-(cplx<T> a, cplx<T> b)
{
    return {a.re - b.re, a.im - b.im};
}
template <typename T>
__device__ __forceinline__ cplx<T>
operator-(cplx<T> a)
{
    return {-a.re, -a.im};
}
template <typename T>
__device__ __forceinline__ cplx<T>
operator*(cplx<T> a, cplx<T> b)
{
    return {a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re};
}
/* Smith's division, scaled by the larger part of the divisor (no overflow of |b|^2) */
template <typename T>
__device__ __forceinline__ cplx<T>
operator/(cplx<T> a, cplx<T> b)
{
    if (fabs(b.re) >= fabs(b.im)) {
        if (b.re == 0 && b.im == 0) {
            return {a.re / fabs(b.re), a.im / fabs(b.im)};
        }
        T r = b.im / b.re, d = b.re + b.im * r;
        return {(a.re + a.im * r) / d, (a.im - a.re * r) / d};
    }
    T r = b.re / b.im, d = b.re * r + b.im;
    return {(a.re * r + a.im) / d, (a.im * r - a.re) / d};
}
template <typename T>
__device__ __forceinline__ bool
operator==(cplx<T> a, cplx<T> b)
{
    return a.re == b.re && a.im == b.im;
}
template <typename T>
__device__ __forceinline__ bool
operator!=(cplx<T> a, cplx<T> b)
{
    return !(a == b);
}

template <typename T> struct is_cplx : std::false_type {};
template <typename T> struct is_cplx<cplx<T>> : std::true_type {};

/* ---- the dtype of a compute type ---- */
template <typename T> struct dtype_of;
#define MT__DTYPE_OF(T, E)                                                                         \
    template <> struct dtype_of<T> {                                                               \
        static constexpr int value = E;                                                            \
    };
MT__DTYPE_OF(bool, MT_BOOL)
MT__DTYPE_OF(uint8_t, MT_UINT8)
MT__DTYPE_OF(int8_t, MT_INT8)
MT__DTYPE_OF(int16_t, MT_INT16)
MT__DTYPE_OF(int32_t, MT_INT32)
MT__DTYPE_OF(int64_t, MT_INT64)
MT__DTYPE_OF(float, MT_FLOAT32)
MT__DTYPE_OF(double, MT_FLOAT64)
MT__DTYPE_OF(cplx<float>, MT_COMPLEX64)
MT__DTYPE_OF(cplx<double>, MT_COMPLEX128)
MT__DTYPE_OF(uint16_t, MT_UINT16)
MT__DTYPE_OF(uint32_t, MT_UINT32)
MT__DTYPE_OF(uint64_t, MT_UINT64)
#undef MT__DTYPE_OF

/* ---- conversions, C's rules (Note [CUDA casts]) ---- */
template <typename To, typename From>
__device__ __forceinline__ To
cvt(From v)
{
    if constexpr (is_cplx<From>::value) {
        if constexpr (is_cplx<To>::value) {
            using R = decltype(To{}.re);
            return To{(R)v.re, (R)v.im};
        }
        else if constexpr (std::is_same<To, bool>::value) {
            return v.re != 0 || v.im != 0;
        }
        else {
            return (To)v.re;
        }
    }
    else if constexpr (is_cplx<To>::value) {
        using R = decltype(To{}.re);
        return To{(R)v, (R)0};
    }
    else {
        return (To)v;
    }
}

/* element of dtype dt at p, as T */
template <typename T>
__device__ __forceinline__ T
load_dyn(const char *p, int dt)
{
    switch (dt) {
    case MT_BOOL:
        return cvt<T>(*reinterpret_cast<const bool *>(p));
    case MT_UINT8:
        return cvt<T>(*reinterpret_cast<const uint8_t *>(p));
    case MT_INT8:
        return cvt<T>(*reinterpret_cast<const int8_t *>(p));
    case MT_INT16:
        return cvt<T>(*reinterpret_cast<const int16_t *>(p));
    case MT_INT32:
        return cvt<T>(*reinterpret_cast<const int32_t *>(p));
    case MT_INT64:
        return cvt<T>(*reinterpret_cast<const int64_t *>(p));
    case MT_FLOAT16:
        return cvt<T>(mt_half_to_float(*reinterpret_cast<const mt_half *>(p)));
    case MT_BFLOAT16:
        return cvt<T>(mt_bfloat16_to_float(*reinterpret_cast<const mt_bfloat16 *>(p)));
    case MT_FLOAT32:
        return cvt<T>(*reinterpret_cast<const float *>(p));
    case MT_FLOAT64:
        return cvt<T>(*reinterpret_cast<const double *>(p));
    case MT_COMPLEX64:
        return cvt<T>(*reinterpret_cast<const cplx<float> *>(p));
    case MT_COMPLEX128:
        return cvt<T>(*reinterpret_cast<const cplx<double> *>(p));
    case MT_UINT16:
        return cvt<T>(*reinterpret_cast<const uint16_t *>(p));
    case MT_UINT32:
        return cvt<T>(*reinterpret_cast<const uint32_t *>(p));
    default:
        return cvt<T>(*reinterpret_cast<const uint64_t *>(p));
    }
}

/* v stored at p as dtype dt */
template <typename T>
__device__ __forceinline__ void
store_dyn(char *p, int dt, T v)
{
    switch (dt) {
    case MT_BOOL:
        *reinterpret_cast<bool *>(p) = cvt<bool>(v);
        break;
    case MT_UINT8:
        *reinterpret_cast<uint8_t *>(p) = cvt<uint8_t>(v);
        break;
    case MT_INT8:
        *reinterpret_cast<int8_t *>(p) = cvt<int8_t>(v);
        break;
    case MT_INT16:
        *reinterpret_cast<int16_t *>(p) = cvt<int16_t>(v);
        break;
    case MT_INT32:
        *reinterpret_cast<int32_t *>(p) = cvt<int32_t>(v);
        break;
    case MT_INT64:
        *reinterpret_cast<int64_t *>(p) = cvt<int64_t>(v);
        break;
    case MT_FLOAT16:
        *reinterpret_cast<mt_half *>(p) = mt_float_to_half(cvt<float>(v));
        break;
    case MT_BFLOAT16:
        *reinterpret_cast<mt_bfloat16 *>(p) = mt_float_to_bfloat16(cvt<float>(v));
        break;
    case MT_FLOAT32:
        *reinterpret_cast<float *>(p) = cvt<float>(v);
        break;
    case MT_FLOAT64:
        *reinterpret_cast<double *>(p) = cvt<double>(v);
        break;
    case MT_COMPLEX64:
        *reinterpret_cast<cplx<float> *>(p) = cvt<cplx<float>>(v);
        break;
    case MT_COMPLEX128:
        *reinterpret_cast<cplx<double> *>(p) = cvt<cplx<double>>(v);
        break;
    case MT_UINT16:
        *reinterpret_cast<uint16_t *>(p) = cvt<uint16_t>(v);
        break;
    case MT_UINT32:
        *reinterpret_cast<uint32_t *>(p) = cvt<uint32_t>(v);
        break;
    default:
        *reinterpret_cast<uint64_t *>(p) = cvt<uint64_t>(v);
        break;
    }
}

/* v (a float computing dtype want) rounded to want first when that is float16/bfloat16 */
template <typename T>
__device__ __forceinline__ T
round_to(T v, int want)
{
    if constexpr (std::is_same<T, float>::value) {
        if (want == MT_FLOAT16) {
            return mt_half_to_float(mt_float_to_half(v));
        }
        if (want == MT_BFLOAT16) {
            return mt_bfloat16_to_float(mt_float_to_bfloat16(v));
        }
    }
    return v;
}

/* ---- the op's functor ----
 * A functor F has out_t, in0_t, in1_t, in2_t (the types its inputs are computed in) and
 * `out_t operator()(const params &, in0_t[, in1_t[, in2_t]]) const`. */
struct params {
    double alpha_f;
    int64_t alpha_i;
    double alpha_re, alpha_im;
    int *flag;
};

template <typename T, typename R = T> struct fn {
    using out_t = R;
    using in0_t = T;
    using in1_t = T;
    using in2_t = T;
};

/* the data of one launch, by value */
struct operands {
    char *ptr[MT_CUDA_MAX_OPERANDS];
    int dtype[MT_CUDA_MAX_OPERANDS];
    int want[MT_CUDA_MAX_OPERANDS];
    uint64_t scalar[MT_CUDA_MAX_OPERANDS][2];
};

/* byte offsets of element i in the first N operands */
template <int N>
__device__ __forceinline__ void
offsets(const mt_cuda_geom &g, int64_t i, int64_t *off)
{
    for (int k = 0; k < N; k++) {
        off[k] = 0;
    }
    if (g.contiguous) {
        for (int k = 0; k < N; k++) {
            off[k] = i * g.strides[0][k];
        }
        return;
    }
    for (int d = 0; d < g.ndim; d++) {
        const int64_t q = i / g.shape[d], r = i - q * g.shape[d];
        i = q;
        for (int k = 0; k < N; k++) {
            off[k] += r * g.strides[d][k];
        }
    }
}

template <typename T>
__device__ __forceinline__ T
scalar_of(const operands &o, int k)
{
    T v;
    memcpy(&v, o.scalar[k], sizeof(T));
    return v;
}

/* input k (operand k + 1) at byte offset off */
template <typename T, bool DYN>
__device__ __forceinline__ T
load_in(const operands &o, int k, int64_t off, T scalar)
{
    const char *p = o.ptr[k + 1];
    if (p == nullptr) {
        return scalar;
    }
    if constexpr (DYN) {
        return round_to<T>(load_dyn<T>(p + off, o.dtype[k + 1]), o.want[k + 1]);
    }
    else {
        return *reinterpret_cast<const T *>(p + off);
    }
}

template <int NIN, typename F>
__device__ __forceinline__ typename F::out_t
call(const F &f, const params &p, typename F::in0_t a, typename F::in1_t b, typename F::in2_t c)
{
    if constexpr (NIN == 1) {
        return f(p, a);
    }
    else if constexpr (NIN == 2) {
        return f(p, a, b);
    }
    else {
        return f(p, a, b, c);
    }
}

template <typename T, int V> struct alignas(sizeof(T) * V) vec {
    T v[V];
};

/* Elements [0, numel): DYN converts every operand per element; otherwise operands hold
 * in_k_t / out_t and, when g is contiguous and every strided pointer is aligned, four elements
 * move per load. */
template <int NIN, typename F, bool DYN>
__global__ void
ew_kernel(mt_cuda_geom g, operands o, params p)
{
    using O = typename F::out_t;
    using A = typename F::in0_t;
    using B = typename F::in1_t;
    using C = typename F::in2_t;
    constexpr int N = NIN + 1;
    const F f{};
    const A sa = scalar_of<A>(o, 1);
    const B sb = NIN >= 2 ? scalar_of<B>(o, 2) : B{};
    const C sc = NIN >= 3 ? scalar_of<C>(o, 3) : C{};
    const int64_t step = (int64_t)blockDim.x * gridDim.x;
    int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
    if constexpr (!DYN) {
        constexpr int V = 4;
        bool vec_ok = g.contiguous != 0 && g.numel >= V;
        for (int k = 0; k < N && vec_ok; k++) {
            const int align = k == 0 ? (int)sizeof(vec<O, V>)
                              : k == 1 ? (int)sizeof(vec<A, V>)
                              : k == 2 ? (int)sizeof(vec<B, V>)
                                       : (int)sizeof(vec<C, V>);
            vec_ok = o.ptr[k] == nullptr || g.strides[0][k] == 0 ||
                     ((uintptr_t)o.ptr[k] % (uintptr_t)align) == 0;
        }
        if (vec_ok) {
            const int64_t nv = g.numel / V;
            /* stride-0 (broadcast) inputs are read once */
            const bool b1 = o.ptr[1] != nullptr && g.strides[0][1] == 0;
            const bool b2 = NIN >= 2 && o.ptr[2] != nullptr && g.strides[0][2] == 0;
            const bool b3 = NIN >= 3 && o.ptr[3] != nullptr && g.strides[0][3] == 0;
            const A ca = b1 ? *reinterpret_cast<const A *>(o.ptr[1]) : sa;
            const B cb = b2 ? *reinterpret_cast<const B *>(o.ptr[2]) : sb;
            const C cc = b3 ? *reinterpret_cast<const C *>(o.ptr[3]) : sc;
            const bool v1 = o.ptr[1] != nullptr && !b1;
            const bool v2 = NIN >= 2 && o.ptr[2] != nullptr && !b2;
            const bool v3 = NIN >= 3 && o.ptr[3] != nullptr && !b3;
            for (int64_t j = i; j < nv; j += step) {
                vec<A, V> xa{};
                vec<B, V> xb{};
                vec<C, V> xc{};
                vec<O, V> r;
                if (v1) {
                    xa = reinterpret_cast<const vec<A, V> *>(o.ptr[1])[j];
                }
                if constexpr (NIN >= 2) {
                    if (v2) {
                        xb = reinterpret_cast<const vec<B, V> *>(o.ptr[2])[j];
                    }
                }
                if constexpr (NIN >= 3) {
                    if (v3) {
                        xc = reinterpret_cast<const vec<C, V> *>(o.ptr[3])[j];
                    }
                }
                for (int e = 0; e < V; e++) {
                    r.v[e] = call<NIN>(f, p, v1 ? xa.v[e] : ca, v2 ? xb.v[e] : cb,
                                       v3 ? xc.v[e] : cc);
                }
                reinterpret_cast<vec<O, V> *>(o.ptr[0])[j] = r;
            }
            /* the tail */
            i += nv * V;
            for (; i < g.numel; i += step) {
                const A a = v1 ? reinterpret_cast<const A *>(o.ptr[1])[i] : ca;
                const B b = v2 ? reinterpret_cast<const B *>(o.ptr[2])[i] : cb;
                const C c = v3 ? reinterpret_cast<const C *>(o.ptr[3])[i] : cc;
                reinterpret_cast<O *>(o.ptr[0])[i] = call<NIN>(f, p, a, b, c);
            }
            return;
        }
    }
    for (; i < g.numel; i += step) {
        int64_t off[N];
        offsets<N>(g, i, off);
        const A a = load_in<A, DYN>(o, 0, off[1], sa);
        B b = sb;
        C c = sc;
        if constexpr (NIN >= 2) {
            b = load_in<B, DYN>(o, 1, off[2], sb);
        }
        if constexpr (NIN >= 3) {
            c = load_in<C, DYN>(o, 2, off[3], sc);
        }
        const O r = call<NIN>(f, p, a, b, c);
        if constexpr (DYN) {
            store_dyn<O>(o.ptr[0] + off[0], o.dtype[0], r);
        }
        else {
            *reinterpret_cast<O *>(o.ptr[0] + off[0]) = r;
        }
    }
}

/* Launches F's kernel over l (typed or converting, as the operands' dtypes allow). */
template <int NIN, typename F>
int
launch(const mt_cuda_ew_launch *l)
{
    if (l->query) {
        return 1;
    }
    if (l->g->numel == 0) {
        return MT_OK;
    }
    operands o;
    for (int k = 0; k < MT_CUDA_MAX_OPERANDS; k++) {
        const bool used = k <= NIN;
        o.ptr[k] = used ? l->data[k] : nullptr;
        o.dtype[k] = used ? l->dtypes[k] : 0;
        o.want[k] = used ? l->want[k] : 0;
        o.scalar[k][0] = l->scalar[k][0];
        o.scalar[k][1] = l->scalar[k][1];
    }
    const int in_dt[3] = {dtype_of<typename F::in0_t>::value, dtype_of<typename F::in1_t>::value,
                          dtype_of<typename F::in2_t>::value};
    bool dyn = l->dtypes[0] != dtype_of<typename F::out_t>::value;
    for (int k = 1; k <= NIN; k++) {
        dyn |= l->data[k] != nullptr && l->dtypes[k] != in_dt[k - 1];
    }
    const params p = {l->alpha_f, l->alpha_i, l->alpha_re, l->alpha_im, l->flag};
    const mt_cuda_geom *g = l->g;
    return on_device(l->device, [&] {
        if (dyn) {
            MT_CUDA_LAUNCH((ew_kernel<NIN, F, true>), blocks_for(g->numel), kThreads, 0,
                           (cudaStream_t)l->stream, *g, o, p);
        }
        else {
            MT_CUDA_LAUNCH((ew_kernel<NIN, F, false>), blocks_for(g->numel), kThreads, 0,
                           (cudaStream_t)l->stream, *g, o, p);
        }
    });
}

/* ---- per-dtype dispatch ----
 * The dtype classes a functor template is instantiated for (an op's kernels exist for the
 * dtypes of its classes that the cpu also has: Note [Op list]). */
enum : unsigned {
    K_BOOL = 1,
    K_INT = 2,     /* uint8, int8, int16, int32, int64 */
    K_FLOAT = 4,   /* float16, bfloat16, float32 (computed in float), float64 */
    K_COMPLEX = 8, /* complex64, complex128 */
    K_UNSIGNED = 16, /* uint16, uint32, uint64 (the barebones dtypes) */
    K_REAL = K_BOOL | K_INT | K_FLOAT,
    K_NUM = K_INT | K_FLOAT,
    K_INTBOOL = K_BOOL | K_INT,
};

template <unsigned M, template <typename> class F, int NIN>
int
dispatch(const mt_cuda_ew_launch *l)
{
    switch (l->dtype) {
    case MT_BOOL:
        if constexpr ((M & K_BOOL) != 0) {
            return launch<NIN, F<bool>>(l);
        }
        break;
    case MT_UINT8:
        if constexpr ((M & K_INT) != 0) {
            return launch<NIN, F<uint8_t>>(l);
        }
        break;
    case MT_INT8:
        if constexpr ((M & K_INT) != 0) {
            return launch<NIN, F<int8_t>>(l);
        }
        break;
    case MT_INT16:
        if constexpr ((M & K_INT) != 0) {
            return launch<NIN, F<int16_t>>(l);
        }
        break;
    case MT_INT32:
        if constexpr ((M & K_INT) != 0) {
            return launch<NIN, F<int32_t>>(l);
        }
        break;
    case MT_INT64:
        if constexpr ((M & K_INT) != 0) {
            return launch<NIN, F<int64_t>>(l);
        }
        break;
    case MT_FLOAT16:
    case MT_BFLOAT16:
    case MT_FLOAT32:
        if constexpr ((M & K_FLOAT) != 0) {
            return launch<NIN, F<float>>(l);
        }
        break;
    case MT_FLOAT64:
        if constexpr ((M & K_FLOAT) != 0) {
            return launch<NIN, F<double>>(l);
        }
        break;
    case MT_COMPLEX64:
        if constexpr ((M & K_COMPLEX) != 0) {
            return launch<NIN, F<cplx<float>>>(l);
        }
        break;
    case MT_COMPLEX128:
        if constexpr ((M & K_COMPLEX) != 0) {
            return launch<NIN, F<cplx<double>>>(l);
        }
        break;
    case MT_UINT16:
        if constexpr ((M & K_UNSIGNED) != 0) {
            return launch<NIN, F<uint16_t>>(l);
        }
        break;
    case MT_UINT32:
        if constexpr ((M & K_UNSIGNED) != 0) {
            return launch<NIN, F<uint32_t>>(l);
        }
        break;
    case MT_UINT64:
        if constexpr ((M & K_UNSIGNED) != 0) {
            return launch<NIN, F<uint64_t>>(l);
        }
        break;
    default:
        break;
    }
    return l->query ? 0 : MT_CUDA_EW_NO_KERNEL;
}

/* ---- math helpers for the functors ---- */
template <typename T> struct real_of {
    using type = T;
};
template <typename T> struct real_of<cplx<T>> {
    using type = T;
};

/* the float or double libm function */
#define MT_EW_LIB1(name)                                                                           \
    __device__ __forceinline__ float lib_##name(float x) { return name##f(x); }                    \
    __device__ __forceinline__ double lib_##name(double x) { return name(x); }
#define MT_EW_LIB2(name)                                                                           \
    __device__ __forceinline__ float lib_##name(float x, float y) { return name##f(x, y); }        \
    __device__ __forceinline__ double lib_##name(double x, double y) { return name(x, y); }
/* an op_math.h function of both precisions (mt_math_<name>f, mt_math_<name>) */
#define MT_EW_MATH1(name)                                                                          \
    __device__ __forceinline__ float math_##name(float x) { return mt_math_##name##f(x); }         \
    __device__ __forceinline__ double math_##name(double x) { return mt_math_##name(x); }

/* integer a + b, a - b, a * b wrapping as the cpu's (-fwrapv) */
template <typename T>
__device__ __forceinline__ T
wrap_add(T a, T b)
{
    if constexpr (std::is_integral<T>::value && !std::is_same<T, bool>::value) {
        using U = typename std::make_unsigned<T>::type;
        return (T)(U)((U)a + (U)b);
    }
    else {
        return a + b;
    }
}
template <typename T>
__device__ __forceinline__ T
wrap_sub(T a, T b)
{
    if constexpr (std::is_integral<T>::value && !std::is_same<T, bool>::value) {
        using U = typename std::make_unsigned<T>::type;
        return (T)(U)((U)a - (U)b);
    }
    else {
        return a - b;
    }
}
template <typename T>
__device__ __forceinline__ T
wrap_mul(T a, T b)
{
    if constexpr (std::is_integral<T>::value && !std::is_same<T, bool>::value) {
        /* unsigned int at least, so that narrow types do not promote to a signed int */
        using U = typename std::conditional<(sizeof(T) < sizeof(unsigned)), unsigned,
                                            typename std::make_unsigned<T>::type>::type;
        return (T)(U)((U)a * (U)b);
    }
    else {
        return a * b;
    }
}
/* a < 0 without a type-limits warning for unsigned T */
template <typename T>
__device__ __forceinline__ bool
is_neg(T a)
{
    if constexpr (std::is_unsigned<T>::value || std::is_same<T, bool>::value) {
        (void)a;
        return false;
    }
    else {
        return a < 0;
    }
}

} // namespace mt_ew

#endif /* ATEN_LITE_CUDA_ELEMENTWISE_CUH */
