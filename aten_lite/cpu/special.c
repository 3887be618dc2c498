/* aten_lite/cpu/special.c - CPU loops of the special functions (math in aten_lite/special_math.h). */
#include <math.h>
#include <string.h>

#include "aten_lite/cpu/loops.h"
#include "aten_lite/special_math.h"

/* The double function fn at the acc-type value a (float or double), rounded back to a's type:
 * float32, float16 and bfloat16 compute through the double math (Note [Special functions]). */
#define MT__SF1(fn, a) ((__typeof__(a))fn((double)(a)))
#define MT__SF2(fn, a, b) ((__typeof__(a))fn((double)(a), (double)(b)))

/* float32 and float64 only: the ops torch has no reduced-precision kernels for */
#define MT__L_F32_F64(X, ...)                                 \
    X(MT_FLOAT32, float32, float, float, __VA_ARGS__)         \
    X(MT_FLOAT64, float64, double, double, __VA_ARGS__)

/* ---- unary ---- */
MT_L_FLOAT(MT_GEN_UNARY_SAME, digamma, MT__SF1(mt_sf_digamma, a))
MT_L_FLOAT(MT_GEN_UNARY_SAME, i0, MT__SF1(mt_sf_i0, a))
MT_L_FLOAT(MT_GEN_UNARY_SAME, i0e, MT__SF1(mt_sf_i0e, a))
MT_L_FLOAT(MT_GEN_UNARY_SAME, i1, MT__SF1(mt_sf_i1, a))
MT_L_FLOAT(MT_GEN_UNARY_SAME, i1e, MT__SF1(mt_sf_i1e, a))
MT__L_F32_F64(MT_GEN_UNARY_SAME, erfcx, MT__SF1(mt_sf_erfcx, a))
MT_L_FLOAT(MT_GEN_UNARY_SAME, ndtr, MT__SF1(mt_sf_ndtr, a))
MT__L_F32_F64(MT_GEN_UNARY_SAME, ndtri, _Generic((a), float: mt_sf_ndtrif, default: mt_sf_ndtri)(a))
MT__L_F32_F64(MT_GEN_UNARY_SAME, log_ndtr, MT__SF1(mt_sf_log_ndtr, a))
MT_L_FLOAT(MT_GEN_UNARY_SAME, entr, MT__SF1(mt_sf_entr, a))
MT__L_F32_F64(MT_GEN_UNARY_SAME, airy_ai, MT__SF1(mt_sf_airy_ai, a))
MT__L_F32_F64(MT_GEN_UNARY_SAME, bessel_j0, MT__SF1(mt_sf_bessel_j0, a))
MT__L_F32_F64(MT_GEN_UNARY_SAME, bessel_j1, MT__SF1(mt_sf_bessel_j1, a))
MT__L_F32_F64(MT_GEN_UNARY_SAME, bessel_y0, MT__SF1(mt_sf_bessel_y0, a))
MT__L_F32_F64(MT_GEN_UNARY_SAME, bessel_y1, MT__SF1(mt_sf_bessel_y1, a))
MT__L_F32_F64(MT_GEN_UNARY_SAME, k0, MT__SF1(mt_sf_k0, a))
MT__L_F32_F64(MT_GEN_UNARY_SAME, k1, MT__SF1(mt_sf_k1, a))
MT__L_F32_F64(MT_GEN_UNARY_SAME, k0e, MT__SF1(mt_sf_k0e, a))
MT__L_F32_F64(MT_GEN_UNARY_SAME, k1e, MT__SF1(mt_sf_k1e, a))
MT__L_F32_F64(MT_GEN_UNARY_SAME, spherical_bessel_j0, MT__SF1(mt_sf_spherical_bessel_j0, a))

#define MT__INT32_STORE(v) ((int32_t)(v))
#define MT__GEN_UNARY_INT32(E, tn, ct, acc, op, ...) \
    MT_UNARY_LOOP(mt__##op##_##tn, tn, ct, acc, int32_t, MT__INT32_STORE, __VA_ARGS__)
MT_L_FLOAT(MT_GEN_UNARY_SAME, frexp_mantissa,
           _Generic((a), float: mt_sf_frexp_mantissaf, default: mt_sf_frexp_mantissa)(a))
MT_L_FLOAT(MT__GEN_UNARY_INT32, frexp_exponent,
           _Generic((a), float: mt_sf_frexp_exponentf, default: mt_sf_frexp_exponent)(a))

/* ---- binary ---- */

/* polygamma: the order n is c->alpha_i (see MT_FORALL_SPECIAL_BINARY_OPS), x is b */
MT_L_FLOAT(MT_GEN_BINARY_SAME, polygamma, ((void)a, (__typeof__(b))mt_sf_polygamma(c->alpha_i, (double)b)))
MT__L_F32_F64(MT_GEN_BINARY_SAME, zeta, MT__SF2(mt_sf_zeta, a, b))
MT_L_FLOAT(MT_GEN_BINARY_SAME, xlog1py, MT__SF2(mt_sf_xlog1py, a, b))
MT_L_FLOAT(MT_GEN_BINARY_SAME, igamma, MT__SF2(mt_sf_igamma, a, b))
MT_L_FLOAT(MT_GEN_BINARY_SAME, igammac, MT__SF2(mt_sf_igammac, a, b))
/* heaviside: the value b where a is 0, else whether a > 0 (NaN counts as not) */
MT_L_ALL(MT_GEN_BINARY_SAME, heaviside, a == 0 ? b : (__typeof__(a))(a > 0))
MT_L_INT(MT_GEN_BINARY_SAME, gcd, mt_sf_gcd(a, b, (__typeof__(a))-1 < 0 ? (int)sizeof(a) * 8 : 64))
MT_L_INT(MT_GEN_BINARY_SAME, lcm, mt_sf_lcm(a, b, (int)sizeof(a) * 8))
MT__L_F32_F64(MT_GEN_BINARY_SAME, nextafter32, _Generic((a), float: nextafterf, default: nextafter)(a, b))
/* the polynomials in the element's precision (see MT__SF_POLYNOMIALS) */
#define MT__PFN(fn, a) _Generic((a), float: fn##f, default: fn)
#define MT__DEG(b) mt_sf_poly_degree((double)(b))
#define MT__CHEB(kind, trig, a, b) MT__PFN(mt_sf_chebyshev, a)(kind, a, MT__DEG(b), trig)
#define MT__SHIFTED(kind, a, b) MT__PFN(mt_sf_chebyshev, a)(kind, a + a - 1, MT__DEG(b), 6)
MT__L_F32_F64(MT_GEN_BINARY_SAME, chebyshev_t, MT__CHEB(0, 6, a, b))
MT__L_F32_F64(MT_GEN_BINARY_SAME, chebyshev_u, MT__CHEB(1, 8, a, b))
MT__L_F32_F64(MT_GEN_BINARY_SAME, chebyshev_v, MT__CHEB(2, 8, a, b))
MT__L_F32_F64(MT_GEN_BINARY_SAME, chebyshev_w, MT__CHEB(3, 8, a, b))
MT__L_F32_F64(MT_GEN_BINARY_SAME, shifted_chebyshev_t, MT__SHIFTED(0, a, b))
MT__L_F32_F64(MT_GEN_BINARY_SAME, shifted_chebyshev_u, MT__SHIFTED(1, a, b))
MT__L_F32_F64(MT_GEN_BINARY_SAME, shifted_chebyshev_v, MT__SHIFTED(2, a, b))
MT__L_F32_F64(MT_GEN_BINARY_SAME, shifted_chebyshev_w, MT__SHIFTED(3, a, b))
MT__L_F32_F64(MT_GEN_BINARY_SAME, hermite_h, MT__PFN(mt_sf_hermite, a)(0, a, MT__DEG(b)))
MT__L_F32_F64(MT_GEN_BINARY_SAME, hermite_he, MT__PFN(mt_sf_hermite, a)(1, a, MT__DEG(b)))
MT__L_F32_F64(MT_GEN_BINARY_SAME, laguerre_l, MT__PFN(mt_sf_laguerre, a)(a, MT__DEG(b)))
MT__L_F32_F64(MT_GEN_BINARY_SAME, legendre_p, MT__PFN(mt_sf_legendre, a)(a, MT__DEG(b)))

#define MT__NEXTAFTER16_LOOP(tn, ct)                                                             \
    static void mt__nextafter_##tn(char **data, const int64_t *np, const int64_t *st, void *ctx)  \
    {                                                                                            \
        (void)ctx;                                                                               \
        for (int64_t i = 0; i < np[0]; i++) {                                                    \
            const ct x = *(const ct *)(data[1] + i * st[1]), y = *(const ct *)(data[2] + i * st[2]); \
            ct *o = (ct *)(data[0] + i * st[0]);                                                 \
            o->bits = mt_sf_nextafter16(x.bits, y.bits, MT_LOAD_##tn(x), MT_LOAD_##tn(y));         \
        }                                                                                        \
    }
MT__NEXTAFTER16_LOOP(float16, mt_half)
MT__NEXTAFTER16_LOOP(bfloat16, mt_bfloat16)

#define MT__REGISTER_F32_F64(op, OPENUM)                                  \
    mt_dispatch[MT_CPU][OPENUM][MT_FLOAT32] = mt__##op##_float32;         \
    mt_dispatch[MT_CPU][OPENUM][MT_FLOAT64] = mt__##op##_float64;

void
mt__cpu_special_register(void)
{
    MT_L_FLOAT(MT_GEN_REGISTER, digamma, MT_OP_DIGAMMA)
    MT_L_FLOAT(MT_GEN_REGISTER, i0, MT_OP_I0)
    MT_L_FLOAT(MT_GEN_REGISTER, i0e, MT_OP_I0E)
    MT_L_FLOAT(MT_GEN_REGISTER, i1, MT_OP_I1)
    MT_L_FLOAT(MT_GEN_REGISTER, i1e, MT_OP_I1E)
    MT_L_FLOAT(MT_GEN_REGISTER, ndtr, MT_OP_NDTR)
    MT_L_FLOAT(MT_GEN_REGISTER, entr, MT_OP_ENTR)
    MT_L_FLOAT(MT_GEN_REGISTER, frexp_mantissa, MT_OP_FREXP_MANTISSA)
    MT_L_FLOAT(MT_GEN_REGISTER, frexp_exponent, MT_OP_FREXP_EXPONENT)
    MT__REGISTER_F32_F64(erfcx, MT_OP_ERFCX)
    MT__REGISTER_F32_F64(ndtri, MT_OP_NDTRI)
    MT__REGISTER_F32_F64(log_ndtr, MT_OP_LOG_NDTR)
    MT__REGISTER_F32_F64(airy_ai, MT_OP_AIRY_AI)
    MT__REGISTER_F32_F64(bessel_j0, MT_OP_BESSEL_J0)
    MT__REGISTER_F32_F64(bessel_j1, MT_OP_BESSEL_J1)
    MT__REGISTER_F32_F64(bessel_y0, MT_OP_BESSEL_Y0)
    MT__REGISTER_F32_F64(bessel_y1, MT_OP_BESSEL_Y1)
    MT__REGISTER_F32_F64(i0, MT_OP_MODIFIED_BESSEL_I0)
    MT__REGISTER_F32_F64(i1, MT_OP_MODIFIED_BESSEL_I1)
    MT__REGISTER_F32_F64(k0, MT_OP_MODIFIED_BESSEL_K0)
    MT__REGISTER_F32_F64(k1, MT_OP_MODIFIED_BESSEL_K1)
    MT__REGISTER_F32_F64(k0e, MT_OP_SCALED_MODIFIED_BESSEL_K0)
    MT__REGISTER_F32_F64(k1e, MT_OP_SCALED_MODIFIED_BESSEL_K1)
    MT__REGISTER_F32_F64(spherical_bessel_j0, MT_OP_SPHERICAL_BESSEL_J0)

    MT_L_FLOAT(MT_GEN_REGISTER, polygamma, MT_OP_POLYGAMMA)
    MT__REGISTER_F32_F64(zeta, MT_OP_ZETA)
    MT_L_FLOAT(MT_GEN_REGISTER, xlog1py, MT_OP_XLOG1PY)
    MT_L_FLOAT(MT_GEN_REGISTER, igamma, MT_OP_IGAMMA)
    MT_L_FLOAT(MT_GEN_REGISTER, igammac, MT_OP_IGAMMAC)
    MT_L_ALL(MT_GEN_REGISTER, heaviside, MT_OP_HEAVISIDE)
    MT_L_INT(MT_GEN_REGISTER, gcd, MT_OP_GCD)
    MT_L_INT(MT_GEN_REGISTER, lcm, MT_OP_LCM)
    MT__REGISTER_F32_F64(nextafter32, MT_OP_NEXTAFTER)
    mt_dispatch[MT_CPU][MT_OP_NEXTAFTER][MT_FLOAT16] = mt__nextafter_float16;
    mt_dispatch[MT_CPU][MT_OP_NEXTAFTER][MT_BFLOAT16] = mt__nextafter_bfloat16;
    MT__REGISTER_F32_F64(chebyshev_t, MT_OP_CHEBYSHEV_T)
    MT__REGISTER_F32_F64(chebyshev_u, MT_OP_CHEBYSHEV_U)
    MT__REGISTER_F32_F64(chebyshev_v, MT_OP_CHEBYSHEV_V)
    MT__REGISTER_F32_F64(chebyshev_w, MT_OP_CHEBYSHEV_W)
    MT__REGISTER_F32_F64(shifted_chebyshev_t, MT_OP_SHIFTED_CHEBYSHEV_T)
    MT__REGISTER_F32_F64(shifted_chebyshev_u, MT_OP_SHIFTED_CHEBYSHEV_U)
    MT__REGISTER_F32_F64(shifted_chebyshev_v, MT_OP_SHIFTED_CHEBYSHEV_V)
    MT__REGISTER_F32_F64(shifted_chebyshev_w, MT_OP_SHIFTED_CHEBYSHEV_W)
    MT__REGISTER_F32_F64(hermite_h, MT_OP_HERMITE_H)
    MT__REGISTER_F32_F64(hermite_he, MT_OP_HERMITE_HE)
    MT__REGISTER_F32_F64(laguerre_l, MT_OP_LAGUERRE_L)
    MT__REGISTER_F32_F64(legendre_p, MT_OP_LEGENDRE_P)
}
