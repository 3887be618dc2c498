/* c10_lite/dtype.h - scalar types: enum, sizes, names, half/bfloat16 conversion, promotion. */
#ifndef C10_LITE_DTYPE_H
#define C10_LITE_DTYPE_H

#include <complex.h>

/* glibc's complex.h defines CMPLX/CMPLXF for GCC only; clang has the same builtin. */
#ifndef CMPLX
#define CMPLX(x, y) __builtin_complex((double)(x), (double)(y))
#endif
#ifndef CMPLXF
#define CMPLXF(x, y) __builtin_complex((float)(x), (float)(y))
#endif
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* The order is the promotion order inside each category (see mt_promote_types). */
typedef enum mt_dtype {
    MT_BOOL = 0,
    MT_UINT8,
    MT_INT8,
    MT_INT16,
    MT_INT32,
    MT_INT64,
    MT_FLOAT16,
    MT_BFLOAT16,
    MT_FLOAT32,
    MT_FLOAT64,
    MT_COMPLEX64,  /* C float _Complex: (real, imag) float32 pair */
    MT_COMPLEX128, /* C double _Complex */
    MT_UINT16,     /* the barebones unsigned types, see Note [Barebones unsigned dtypes] */
    MT_UINT32,
    MT_UINT64,
    MT_NUM_DTYPES
} mt_dtype;

/* What mt_promote_types returns for dtypes that do not promote (with the error message set). */
#define MT_DTYPE_UNDEFINED MT_NUM_DTYPES

/* Note [Barebones unsigned dtypes]
 * uint16/uint32/uint64 are torch's "barebones" unsigned types: tensors of them can be made,
 * filled, copied, cast, viewed, indexed and shared with NumPy, but no arithmetic kernel is
 * instantiated for them, so math on them raises "... not implemented for 'UInt16'" as torch's
 * does.  They promote only with themselves and with floating dtypes (to the floating one);
 * any other promotion is torch's error.  They sit after the complex dtypes in the enum so the
 * promotion order of the other categories is unchanged. */

/* 16-bit floats are stored as bits; kernels compute in float.  They are
 * distinct struct types so the X-macros below can tell them apart. */
typedef struct { uint16_t bits; } mt_half;
typedef struct { uint16_t bits; } mt_bfloat16;

/* Note [Dtype X-macros]
 * MT_FORALL_DTYPES(X) expands X(ENUM, name, ctype, acctype) for every real
 * dtype (MT_FORALL_COMPLEX_DTYPES adds the two complex ones, see
 * Note [Complex dtypes]):
 *   name     the lower-case suffix used for generated functions (float32, ...)
 *   ctype    the storage type
 *   acctype  the type arithmetic is done in (float for the 16-bit floats)
 * Load/store between ctype and acctype go through MT_LOAD_<name>/MT_STORE_<name>
 * so every kernel is written once against acctype. */
#define MT_FORALL_DTYPES(X)                      \
    X(MT_BOOL, boolean, bool, bool)              \
    X(MT_UINT8, uint8, uint8_t, uint8_t)         \
    X(MT_INT8, int8, int8_t, int8_t)             \
    X(MT_INT16, int16, int16_t, int16_t)         \
    X(MT_INT32, int32, int32_t, int32_t)         \
    X(MT_INT64, int64, int64_t, int64_t)         \
    X(MT_FLOAT16, float16, mt_half, float)       \
    X(MT_BFLOAT16, bfloat16, mt_bfloat16, float) \
    X(MT_FLOAT32, float32, float, float)         \
    X(MT_FLOAT64, float64, double, double)

#define MT_FORALL_INT_DTYPES(X)          \
    X(MT_UINT8, uint8, uint8_t, uint8_t) \
    X(MT_INT8, int8, int8_t, int8_t)     \
    X(MT_INT16, int16, int16_t, int16_t) \
    X(MT_INT32, int32, int32_t, int32_t) \
    X(MT_INT64, int64, int64_t, int64_t)

#define MT_FORALL_FLOAT_DTYPES(X)                \
    X(MT_FLOAT16, float16, mt_half, float)       \
    X(MT_BFLOAT16, bfloat16, mt_bfloat16, float) \
    X(MT_FLOAT32, float32, float, float)         \
    X(MT_FLOAT64, float64, double, double)

/* Note [Complex dtypes]
 * complex64/complex128 are stored as C11 `float _Complex`/`double _Complex`
 * (two floats, real then imaginary: the layout of NumPy's and torch's
 * complex types, so from_numpy and view_as_real need no copy).  They are
 * in a category of their own above floating (mt_dtype_category 3), kept out
 * of MT_FORALL_DTYPES so the real kernels (ordering, bit ops, ...) are not
 * instantiated for them; casts use C's conversions, which are torch's:
 * complex -> real keeps the real part, complex -> bool is "either part is
 * non-zero", real -> complex has a zero imaginary part. */
typedef float _Complex mt_complex64;
typedef double _Complex mt_complex128;

#define MT_FORALL_COMPLEX_DTYPES(X)                             \
    X(MT_COMPLEX64, complex64, mt_complex64, mt_complex64)      \
    X(MT_COMPLEX128, complex128, mt_complex128, mt_complex128)

/* Functions for both the host and CUDA kernels (Note [Op math] in aten_lite/op_math.h). */
#if defined(__CUDACC__)
#define MT_HOST_DEVICE __host__ __device__
#else
#define MT_HOST_DEVICE
#endif

/* IEEE binary16 <-> binary32, round to nearest even, NaN/Inf preserved.
 * Note [Branch-free half conversions]
 * Both directions compute every case (normal, subnormal, Inf/NaN) and select, so that the cast
 * loops vectorise: a subnormal is converted by one float addition or subtraction of a "magic"
 * power of two that aligns its bits (exact in round-to-nearest, the mode kernels run in). */
MT_HOST_DEVICE static inline float
mt_half_to_float(mt_half h)
{
    const uint32_t shifted_exp = 0x7c00u << 13;   /* the half exponent field, in float place */
    uint32_t o = (uint32_t)(h.bits & 0x7fffu) << 13;
    uint32_t exp = o & shifted_exp;
    o += (uint32_t)(127 - 15) << 23;               /* rebias */
    uint32_t inf_nan = o + ((uint32_t)(128 - 16) << 23);
    /* subnormal: 2^-14 * (m / 2^10) = (as float: exponent 113, mantissa m) - 2^-14 */
    uint32_t sub_bits = o + (1u << 23);
    float sub, magic = 6.103515625e-05f;           /* 2^-14 */
    memcpy(&sub, &sub_bits, sizeof(sub));
    sub -= magic;
    uint32_t sub_out;
    memcpy(&sub_out, &sub, sizeof(sub_out));
    o = exp == shifted_exp ? inf_nan : exp == 0 ? sub_out : o;
    o |= (uint32_t)(h.bits & 0x8000u) << 16;
    float f;
    memcpy(&f, &o, sizeof(f));
    return f;
}

MT_HOST_DEVICE static inline mt_half
mt_float_to_half(float f)
{
    uint32_t x;
    memcpy(&x, &f, sizeof(x));
    uint32_t sign = (x >> 16) & 0x8000u;
    uint32_t absx = x & 0x7fffffffu;
    /* >= 65536 (as float bits 0x47800000): Inf, or a quiet NaN */
    uint32_t big = absx > 0x7f800000u ? 0x7e00u : 0x7c00u;
    /* below 2^-14 (a half subnormal or zero): adding 0.5 aligns the value's bits to the half
     * mantissa's last place, the addition rounding to nearest even */
    float fa, denorm_magic = 0.5f;
    memcpy(&fa, &absx, sizeof(fa));
    fa += denorm_magic;
    uint32_t fa_bits;
    memcpy(&fa_bits, &fa, sizeof(fa_bits));
    uint32_t sub = fa_bits - 0x3f000000u;
    /* normal: rebias 127 -> 15 and round the 13 dropped bits to nearest even (a carry into the
     * exponent, up to Inf, is the right result) */
    uint32_t norm = (absx + ((uint32_t)(15 - 127) << 23) + 0xfffu + ((absx >> 13) & 1u)) >> 13;
    uint32_t bits = absx >= 0x47800000u ? big : absx < 0x38800000u ? sub : norm;
    mt_half h;
    h.bits = (uint16_t)(bits | sign);
    return h;
}

MT_HOST_DEVICE static inline float
mt_bfloat16_to_float(mt_bfloat16 b)
{
    uint32_t bits = (uint32_t)b.bits << 16;
    float f;
    memcpy(&f, &bits, sizeof(f));
    return f;
}

MT_HOST_DEVICE static inline mt_bfloat16
mt_float_to_bfloat16(float f)
{
    uint32_t x;
    memcpy(&x, &f, sizeof(x));
    mt_bfloat16 b;
    if ((x & 0x7fffffffu) > 0x7f800000u) { /* NaN stays a quiet NaN */
        b.bits = (uint16_t)((x >> 16) | 0x40u);
        return b;
    }
    x += 0x7fffu + ((x >> 16) & 1u); /* round to nearest even */
    b.bits = (uint16_t)(x >> 16);
    return b;
}

/* Load/store between storage and arithmetic type, see Note [Dtype X-macros]. */
#define MT_LOAD_boolean(v) (v)
#define MT_LOAD_uint8(v) (v)
#define MT_LOAD_int8(v) (v)
#define MT_LOAD_int16(v) (v)
#define MT_LOAD_int32(v) (v)
#define MT_LOAD_int64(v) (v)
#define MT_LOAD_float16(v) mt_half_to_float(v)
#define MT_LOAD_bfloat16(v) mt_bfloat16_to_float(v)
#define MT_LOAD_float32(v) (v)
#define MT_LOAD_float64(v) (v)
#define MT_STORE_boolean(v) ((bool)(v))
#define MT_STORE_uint8(v) ((uint8_t)(v))
#define MT_LOAD_uint16(v) (v)
#define MT_LOAD_uint32(v) (v)
#define MT_LOAD_uint64(v) (v)
#define MT_STORE_uint16(v) ((uint16_t)(v))
#define MT_STORE_uint32(v) ((uint32_t)(v))
#define MT_STORE_uint64(v) ((uint64_t)(v))
#define MT_STORE_int8(v) ((int8_t)(v))
#define MT_STORE_int16(v) ((int16_t)(v))
#define MT_STORE_int32(v) ((int32_t)(v))
#define MT_STORE_int64(v) ((int64_t)(v))
#define MT_STORE_float16(v) mt_float_to_half((float)(v))
#define MT_STORE_bfloat16(v) mt_float_to_bfloat16((float)(v))
#define MT_STORE_float32(v) ((float)(v))
#define MT_STORE_float64(v) ((double)(v))
#define MT_LOAD_complex64(v) (v)
#define MT_LOAD_complex128(v) (v)
#define MT_STORE_complex64(v) ((mt_complex64)(v))
#define MT_STORE_complex128(v) ((mt_complex128)(v))


/* "float32", "int64", ...; "invalid" for out-of-range values (borrowed, static). */
const char *mt_dtype_name(mt_dtype dt);
/* torch's ScalarType name ("Float", "Long", ...), as in its messages "not
 * implemented for 'Bool'"; "invalid" for out-of-range values. */
const char *mt_dtype_scalar_name(mt_dtype dt);
/* Parses a canonical name ("float32") or a torch alias ("float", "double",
 * "half", "long", "int", "short").  Returns 0 and sets *out, or MT_ETYPE with a
 * message naming the bad string (*out untouched). */
int mt_dtype_from_name(const char *name, mt_dtype *out);
bool mt_dtype_is_floating(mt_dtype dt);
bool mt_dtype_is_integral(mt_dtype dt, bool include_bool);
bool mt_dtype_is_signed(mt_dtype dt);
bool mt_dtype_is_complex(mt_dtype dt);
/* complex64 <-> float32, complex128 <-> float64 (torch's toRealValueType /
 * toComplexType; float16 and bfloat16 map to complex64, there being no
 * complex32 here).  Other dtypes map to themselves. */
mt_dtype mt_dtype_to_real(mt_dtype dt);
mt_dtype mt_dtype_to_complex(mt_dtype dt);
static inline bool
mt_dtype_valid(int dt)
{
    return dt >= 0 && dt < MT_NUM_DTYPES;
}

/* Size in bytes of one element (0 for an invalid dtype).  Inline: every op asks. */
static inline size_t
mt_dtype_itemsize(mt_dtype dt)
{
    static const unsigned char sizes[MT_NUM_DTYPES] = {
        [MT_BOOL] = 1,    [MT_UINT8] = 1,    [MT_INT8] = 1,     [MT_INT16] = 2,
        [MT_INT32] = 4,   [MT_INT64] = 8,    [MT_FLOAT16] = 2,  [MT_BFLOAT16] = 2,
        [MT_FLOAT32] = 4, [MT_FLOAT64] = 8,  [MT_COMPLEX64] = 8, [MT_COMPLEX128] = 16,
        [MT_UINT16] = 2,  [MT_UINT32] = 4,   [MT_UINT64] = 8,
    };
    return mt_dtype_valid((int)dt) ? sizes[dt] : 0;
}

/* torch.promote_types: the smallest dtype both a and b convert to safely.
 * uint8 with int8 -> int16; float16 with bfloat16 -> float32; with a complex
 * operand the result is the complex type of the promoted real parts
 * (float64 with complex64 -> complex128).  A barebones unsigned dtype promotes only
 * with itself and with floating dtypes; otherwise (or when a or b is already
 * MT_DTYPE_UNDEFINED) the result is MT_DTYPE_UNDEFINED with torch's message set. */
mt_dtype mt_promote_types(mt_dtype a, mt_dtype b);
/* uint16, uint32, uint64 (see Note [Barebones unsigned dtypes]). */
static inline bool
mt_dtype_is_barebones_unsigned(mt_dtype dt)
{
    return dt == MT_UINT16 || dt == MT_UINT32 || dt == MT_UINT64;
}

/* Categories used by result_type: 0 bool, 1 integer, 2 floating, 3 complex. */
static inline int
mt_dtype_category(mt_dtype dt)
{
    return dt == MT_BOOL ? 0 : (dt <= MT_INT64 || dt >= MT_UINT16) ? 1 : dt <= MT_FLOAT64 ? 2 : 3;
}

/* Note [Type promotion]
 * torch.result_type: operands fall in three priority classes, each promoted
 * within itself: tensors with dimensions, zero-dim tensors, and wrapped
 * Python numbers (a Python float counts as the default dtype, a complex as
 * its complex type, an int as int64).  A lower class only matters when its
 * category (bool < integer < floating < complex) is higher: int32_tensor + 2.5 -> float32, but
 * float16_tensor + 2.5 -> float16 and uint8_tensor + 1000 -> uint8. */
typedef struct mt_result_state {
    int dim, zero, wrapped; /* dtype or -1 (none yet) */
} mt_result_state;
#define MT_RESULT_STATE_INIT ((mt_result_state){-1, -1, -1})
typedef enum { MT_OPERAND_DIM = 0, MT_OPERAND_ZERO_DIM = 1, MT_OPERAND_WRAPPED = 2 } mt_operand_class;
void mt_result_state_update(mt_result_state *st, mt_dtype dt, mt_operand_class cls);
/* The result dtype; the default dtype when nothing was added; MT_DTYPE_UNDEFINED (with
 * the message set) when two operands do not promote. */
mt_dtype mt_result_state_get(const mt_result_state *st);
/* torch.can_cast(from, to): no complex->real, no float->int, no non-bool->bool. */
bool mt_can_cast(mt_dtype from, mt_dtype to);

/* The process-wide default floating dtype (torch.get_default_dtype); float32
 * at start.  mt_set_default_dtype accepts only floating dtypes (MT_ETYPE). */
mt_dtype mt_get_default_dtype(void);
int mt_set_default_dtype(mt_dtype dt);

#endif /* C10_LITE_DTYPE_H */
