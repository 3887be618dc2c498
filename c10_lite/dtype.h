/* c10_lite/dtype.h - scalar types: enum, sizes, names, half/bfloat16 conversion, promotion. */
#ifndef C10_LITE_DTYPE_H
#define C10_LITE_DTYPE_H

#include <complex.h>
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

/* IEEE binary16 <-> binary32, round to nearest even, NaN/Inf preserved. */
static inline float
mt_half_to_float(mt_half h)
{
    uint32_t sign = (uint32_t)(h.bits & 0x8000u) << 16;
    uint32_t exp = (h.bits >> 10) & 0x1fu;
    uint32_t man = h.bits & 0x3ffu;
    uint32_t bits;
    if (exp == 0x1f) {
        bits = sign | 0x7f800000u | (man << 13);
    }
    else if (exp != 0) {
        bits = sign | ((exp + 112u) << 23) | (man << 13);
    }
    else if (man == 0) {
        bits = sign;
    }
    else { /* subnormal: normalise */
        exp = 113;
        while ((man & 0x400u) == 0) {
            man <<= 1;
            exp--;
        }
        bits = sign | (exp << 23) | ((man & 0x3ffu) << 13);
    }
    float f;
    memcpy(&f, &bits, sizeof(f));
    return f;
}

static inline mt_half
mt_float_to_half(float f)
{
    uint32_t x;
    memcpy(&x, &f, sizeof(x));
    uint32_t sign = (x >> 16) & 0x8000u;
    uint32_t absx = x & 0x7fffffffu;
    mt_half h;
    if (absx >= 0x7f800000u) { /* Inf or NaN */
        h.bits = (uint16_t)(sign | 0x7c00u | (absx > 0x7f800000u ? 0x200u : 0u));
        return h;
    }
    if (absx >= 0x477ff000u) { /* rounds to >= 65520 -> Inf */
        h.bits = (uint16_t)(sign | 0x7c00u);
        return h;
    }
    if (absx < 0x38800000u) { /* result is subnormal or zero */
        if (absx < 0x33000000u) { /* < 2^-25: rounds to zero */
            h.bits = (uint16_t)sign;
            return h;
        }
        uint32_t e = absx >> 23;
        uint32_t m = (absx & 0x7fffffu) | 0x800000u;
        uint32_t shift = 126u - e; /* 14..24 */
        uint32_t q = m >> shift;
        uint32_t rem = m & ((1u << shift) - 1u);
        uint32_t half = 1u << (shift - 1u);
        if (rem > half || (rem == half && (q & 1u))) {
            q++;
        }
        h.bits = (uint16_t)(sign | q);
        return h;
    }
    uint32_t r = absx - 0x38000000u; /* rebias exponent 127 -> 15 */
    uint32_t q = r >> 13;
    uint32_t rem = r & 0x1fffu;
    if (rem > 0x1000u || (rem == 0x1000u && (q & 1u))) {
        q++;
    }
    h.bits = (uint16_t)(sign | q);
    return h;
}

static inline float
mt_bfloat16_to_float(mt_bfloat16 b)
{
    uint32_t bits = (uint32_t)b.bits << 16;
    float f;
    memcpy(&f, &bits, sizeof(f));
    return f;
}

static inline mt_bfloat16
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
