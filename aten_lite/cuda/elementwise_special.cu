/* aten_lite/cuda/elementwise_special.cu - the CUDA kernels of the special functions (Note
 * [CUDA elementwise launcher] in elementwise.h): one functor per op of
 * MT_FORALL_SPECIAL_*_OPS, their math the cpu's (aten_lite/special_math.h, Note [Special
 * functions]): float16, bfloat16 and float32 compute through the double function and round
 * once, as the cpu loops (cpu/special.c) do.  The dtypes are the cpu's (Note [CUDA kernel
 * table]): the functors are instantiated for every floating dtype and the table refuses those
 * the cpu has no loop for. */
#include "aten_lite/cuda/elementwise.cuh"

extern "C" {
#include "aten_lite/special_math.h"
}

namespace mt_ew {
namespace {

template <typename T> constexpr bool is_f32 = std::is_same<T, float>::value;

#define MT__SFU(name, f)                                                                           \
    template <typename T> struct name : fn<T> {                                                  \
        __device__ __forceinline__ T operator()(const params &p, T a) const                        \
        {                                                                                          \
            (void)p;                                                                               \
            return (T)f((double)a);                                                                \
        }                                                                                          \
    };
#define MT__SFB(name, f)                                                                           \
    template <typename T> struct name : fn<T> {                                                  \
        __device__ __forceinline__ T operator()(const params &p, T a, T b) const                   \
        {                                                                                          \
            (void)p;                                                                               \
            return (T)f((double)a, (double)b);                                                     \
        }                                                                                          \
    };
MT__SFU(digamma_f, mt_sf_digamma)
MT__SFU(i0_f, mt_sf_i0)
MT__SFU(i0e_f, mt_sf_i0e)
MT__SFU(i1_f, mt_sf_i1)
MT__SFU(i1e_f, mt_sf_i1e)
MT__SFU(erfcx_f, mt_sf_erfcx)
MT__SFU(ndtr_f, mt_sf_ndtr)
MT__SFU(log_ndtr_f, mt_sf_log_ndtr)
MT__SFU(entr_f, mt_sf_entr)
MT__SFU(airy_ai_f, mt_sf_airy_ai)
MT__SFU(bessel_j0_f, mt_sf_bessel_j0)
MT__SFU(bessel_j1_f, mt_sf_bessel_j1)
MT__SFU(bessel_y0_f, mt_sf_bessel_y0)
MT__SFU(bessel_y1_f, mt_sf_bessel_y1)
/* K_nu: Note [K_nu from a Chebyshev table] */
MT__SFU(k0_f, mt_sf_k0)
MT__SFU(k1_f, mt_sf_k1)
MT__SFU(k0e_f, mt_sf_k0e)
MT__SFU(k1e_f, mt_sf_k1e)
MT__SFU(spherical_bessel_j0_f, mt_sf_spherical_bessel_j0)
MT__SFB(zeta_f, mt_sf_zeta)
MT__SFB(xlog1py_f, mt_sf_xlog1py)
MT__SFB(igamma_f, mt_sf_igamma)
MT__SFB(igammac_f, mt_sf_igammac)
#undef MT__SFU
#undef MT__SFB

/* float32 rounds a double ndtri with one Newton step fewer (mt_sf_ndtrif) */
template <typename T> struct ndtri_f : fn<T> {
    __device__ __forceinline__ T operator()(const params &p, T a) const
    {
        (void)p;
        if constexpr (is_f32<T>) {
            return mt_sf_ndtrif(a);
        }
        else {
            return mt_sf_ndtri(a);
        }
    }
};

template <typename T> struct frexp_mantissa_f : fn<T> {
    __device__ __forceinline__ T operator()(const params &p, T a) const
    {
        (void)p;
        if constexpr (is_f32<T>) {
            return mt_sf_frexp_mantissaf(a);
        }
        else {
            return mt_sf_frexp_mantissa(a);
        }
    }
};

template <typename T> struct frexp_exponent_f : fn<T, int32_t> {
    __device__ __forceinline__ int32_t operator()(const params &p, T a) const
    {
        (void)p;
        if constexpr (is_f32<T>) {
            return mt_sf_frexp_exponentf(a);
        }
        else {
            return mt_sf_frexp_exponent(a);
        }
    }
};

/* psi^(n)(b): the order n travels as alpha_i, a is that number (for the promotion) */
template <typename T> struct polygamma_f : fn<T> {
    __device__ __forceinline__ T operator()(const params &p, T a, T b) const
    {
        (void)a;
        return (T)mt_sf_polygamma(p.alpha_i, (double)b);
    }
};

/* the value b where a is 0, else whether a > 0 (NaN counts as not) */
template <typename T> struct heaviside_f : fn<T> {
    __device__ __forceinline__ T operator()(const params &p, T a, T b) const
    {
        (void)p;
        return a == 0 ? b : (T)(a > 0);
    }
};

/* gcd and lcm in the element's width (gcd of an unsigned type: as int64, as the cpu's) */
template <typename T> struct gcd_f : fn<T> {
    __device__ __forceinline__ T operator()(const params &p, T a, T b) const
    {
        (void)p;
        return (T)mt_sf_gcd(a, b, std::is_signed<T>::value ? (int)sizeof(T) * 8 : 64);
    }
};
template <typename T> struct lcm_f : fn<T> {
    __device__ __forceinline__ T operator()(const params &p, T a, T b) const
    {
        (void)p;
        return (T)mt_sf_lcm(a, b, (int)sizeof(T) * 8);
    }
};

template <typename T> struct nextafter_f : fn<T> {
    __device__ __forceinline__ T operator()(const params &p, T a, T b) const
    {
        (void)p;
        if constexpr (is_f32<T>) {
            return nextafterf(a, b);
        }
        else {
            return nextafter(a, b);
        }
    }
};

/* nextafter of float16 (BF false) or bfloat16: a step of the 16-bit pattern, computed from
 * the float values (each exactly a float16 / bfloat16 value) */
template <bool BF> struct nextafter16_f : fn<float> {
    __device__ __forceinline__ float operator()(const params &p, float a, float b) const
    {
        (void)p;
        if constexpr (BF) {
            mt_bfloat16 r = {mt_sf_nextafter16(mt_float_to_bfloat16(a).bits,
                                               mt_float_to_bfloat16(b).bits, a, b)};
            return mt_bfloat16_to_float(r);
        }
        else {
            mt_half r = {mt_sf_nextafter16(mt_float_to_half(a).bits, mt_float_to_half(b).bits, a,
                                           b)};
            return mt_half_to_float(r);
        }
    }
};

/* the orthogonal polynomials in the element's precision (MT__SF_POLYNOMIALS), the degree b
 * truncated (mt_sf_poly_degree) */
template <typename T>
__device__ __forceinline__ T
chebyshev(int kind, T x, T n, int64_t trig)
{
    if constexpr (is_f32<T>) {
        return mt_sf_chebyshevf(kind, x, mt_sf_poly_degree((double)n), trig);
    }
    else {
        return mt_sf_chebyshev(kind, x, mt_sf_poly_degree(n), trig);
    }
}

/* kind 0..3: T, U, V, W; TRIG: the degree above which |x| < 1 goes through the trigonometric
 * form; SHIFTED: of 2x - 1 */
template <int KIND, int TRIG, bool SHIFTED> struct cheb {
    template <typename T> struct f : fn<T> {
        __device__ __forceinline__ T operator()(const params &p, T a, T b) const
        {
            (void)p;
            return SHIFTED ? chebyshev<T>(KIND, a + a - 1, b, 6) : chebyshev<T>(KIND, a, b, TRIG);
        }
    };
};

template <int PROB> struct hermite {
    template <typename T> struct f : fn<T> {
        __device__ __forceinline__ T operator()(const params &p, T a, T b) const
        {
            (void)p;
            if constexpr (is_f32<T>) {
                return mt_sf_hermitef(PROB, a, mt_sf_poly_degree((double)b));
            }
            else {
                return mt_sf_hermite(PROB, a, mt_sf_poly_degree(b));
            }
        }
    };
};

template <typename T> struct laguerre_f : fn<T> {
    __device__ __forceinline__ T operator()(const params &p, T a, T b) const
    {
        (void)p;
        if constexpr (is_f32<T>) {
            return mt_sf_laguerref(a, mt_sf_poly_degree((double)b));
        }
        else {
            return mt_sf_laguerre(a, mt_sf_poly_degree(b));
        }
    }
};

template <typename T> struct legendre_f : fn<T> {
    __device__ __forceinline__ T operator()(const params &p, T a, T b) const
    {
        (void)p;
        if constexpr (is_f32<T>) {
            return mt_sf_legendref(a, mt_sf_poly_degree((double)b));
        }
        else {
            return mt_sf_legendre(a, mt_sf_poly_degree(b));
        }
    }
};

} // namespace
} // namespace mt_ew

extern "C" int
mt__cuda_ew_special(const mt_cuda_ew_launch *l)
{
    using namespace mt_ew;
    switch (l->op) {
    case MT_OP_DIGAMMA:
        return dispatch<K_FLOAT, digamma_f, 1>(l);
    case MT_OP_I0:
    case MT_OP_MODIFIED_BESSEL_I0:
        return dispatch<K_FLOAT, i0_f, 1>(l);
    case MT_OP_I0E:
        return dispatch<K_FLOAT, i0e_f, 1>(l);
    case MT_OP_I1:
    case MT_OP_MODIFIED_BESSEL_I1:
        return dispatch<K_FLOAT, i1_f, 1>(l);
    case MT_OP_I1E:
        return dispatch<K_FLOAT, i1e_f, 1>(l);
    case MT_OP_ERFCX:
        return dispatch<K_FLOAT, erfcx_f, 1>(l);
    case MT_OP_NDTR:
        return dispatch<K_FLOAT, ndtr_f, 1>(l);
    case MT_OP_NDTRI:
        return dispatch<K_FLOAT, ndtri_f, 1>(l);
    case MT_OP_LOG_NDTR:
        return dispatch<K_FLOAT, log_ndtr_f, 1>(l);
    case MT_OP_ENTR:
        return dispatch<K_FLOAT, entr_f, 1>(l);
    case MT_OP_AIRY_AI:
        return dispatch<K_FLOAT, airy_ai_f, 1>(l);
    case MT_OP_BESSEL_J0:
        return dispatch<K_FLOAT, bessel_j0_f, 1>(l);
    case MT_OP_BESSEL_J1:
        return dispatch<K_FLOAT, bessel_j1_f, 1>(l);
    case MT_OP_BESSEL_Y0:
        return dispatch<K_FLOAT, bessel_y0_f, 1>(l);
    case MT_OP_BESSEL_Y1:
        return dispatch<K_FLOAT, bessel_y1_f, 1>(l);
    case MT_OP_MODIFIED_BESSEL_K0:
        return dispatch<K_FLOAT, k0_f, 1>(l);
    case MT_OP_MODIFIED_BESSEL_K1:
        return dispatch<K_FLOAT, k1_f, 1>(l);
    case MT_OP_SCALED_MODIFIED_BESSEL_K0:
        return dispatch<K_FLOAT, k0e_f, 1>(l);
    case MT_OP_SCALED_MODIFIED_BESSEL_K1:
        return dispatch<K_FLOAT, k1e_f, 1>(l);
    case MT_OP_SPHERICAL_BESSEL_J0:
        return dispatch<K_FLOAT, spherical_bessel_j0_f, 1>(l);
    case MT_OP_FREXP_MANTISSA:
        return dispatch<K_FLOAT, frexp_mantissa_f, 1>(l);
    case MT_OP_FREXP_EXPONENT:
        return dispatch<K_FLOAT, frexp_exponent_f, 1>(l);
    case MT_OP_POLYGAMMA:
        return dispatch<K_FLOAT, polygamma_f, 2>(l);
    case MT_OP_ZETA:
        return dispatch<K_FLOAT, zeta_f, 2>(l);
    case MT_OP_XLOG1PY:
        return dispatch<K_FLOAT, xlog1py_f, 2>(l);
    case MT_OP_IGAMMA:
        return dispatch<K_FLOAT, igamma_f, 2>(l);
    case MT_OP_IGAMMAC:
        return dispatch<K_FLOAT, igammac_f, 2>(l);
    case MT_OP_HEAVISIDE:
        return dispatch<K_REAL, heaviside_f, 2>(l);
    case MT_OP_GCD:
        return dispatch<K_INT, gcd_f, 2>(l);
    case MT_OP_LCM:
        return dispatch<K_INT, lcm_f, 2>(l);
    case MT_OP_NEXTAFTER:
        if (l->dtype == MT_FLOAT16) {
            return launch<2, nextafter16_f<false>>(l);
        }
        if (l->dtype == MT_BFLOAT16) {
            return launch<2, nextafter16_f<true>>(l);
        }
        return dispatch<K_FLOAT, nextafter_f, 2>(l);
    case MT_OP_CHEBYSHEV_T:
        return dispatch<K_FLOAT, cheb<0, 6, false>::f, 2>(l);
    case MT_OP_CHEBYSHEV_U:
        return dispatch<K_FLOAT, cheb<1, 8, false>::f, 2>(l);
    case MT_OP_CHEBYSHEV_V:
        return dispatch<K_FLOAT, cheb<2, 8, false>::f, 2>(l);
    case MT_OP_CHEBYSHEV_W:
        return dispatch<K_FLOAT, cheb<3, 8, false>::f, 2>(l);
    case MT_OP_SHIFTED_CHEBYSHEV_T:
        return dispatch<K_FLOAT, cheb<0, 6, true>::f, 2>(l);
    case MT_OP_SHIFTED_CHEBYSHEV_U:
        return dispatch<K_FLOAT, cheb<1, 6, true>::f, 2>(l);
    case MT_OP_SHIFTED_CHEBYSHEV_V:
        return dispatch<K_FLOAT, cheb<2, 6, true>::f, 2>(l);
    case MT_OP_SHIFTED_CHEBYSHEV_W:
        return dispatch<K_FLOAT, cheb<3, 6, true>::f, 2>(l);
    case MT_OP_HERMITE_H:
        return dispatch<K_FLOAT, hermite<0>::f, 2>(l);
    case MT_OP_HERMITE_HE:
        return dispatch<K_FLOAT, hermite<1>::f, 2>(l);
    case MT_OP_LAGUERRE_L:
        return dispatch<K_FLOAT, laguerre_f, 2>(l);
    case MT_OP_LEGENDRE_P:
        return dispatch<K_FLOAT, legendre_f, 2>(l);
    default:
        return l->query ? 0 : MT_CUDA_EW_NO_KERNEL;
    }
}
