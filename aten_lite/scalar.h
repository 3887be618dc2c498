/* aten_lite/scalar.h - a Python-number-like scalar (bool, int64, double or complex) and its casts. */
#ifndef ATEN_LITE_SCALAR_H
#define ATEN_LITE_SCALAR_H

#include <stdbool.h>
#include <stdint.h>

#include "c10_lite/dtype.h"

typedef enum mt_scalar_kind {
    MT_SCALAR_BOOL = 0,
    MT_SCALAR_INT = 1,
    MT_SCALAR_FLOAT = 2,
    MT_SCALAR_COMPLEX = 3,
} mt_scalar_kind;

/* Kinds are ordered like dtype categories (mt_dtype_category). */
typedef struct mt_scalar {
    mt_scalar_kind kind;
    union {
        bool b;
        int64_t i;
        double f;
        mt_complex128 z;
    } v;
} mt_scalar;

static inline mt_scalar
mt_scalar_bool(bool b)
{
    return (mt_scalar){.kind = MT_SCALAR_BOOL, .v.b = b};
}
static inline mt_scalar
mt_scalar_int(int64_t i)
{
    return (mt_scalar){.kind = MT_SCALAR_INT, .v.i = i};
}
static inline mt_scalar
mt_scalar_float(double f)
{
    return (mt_scalar){.kind = MT_SCALAR_FLOAT, .v.f = f};
}

static inline mt_scalar
mt_scalar_complex(mt_complex128 z)
{
    return (mt_scalar){.kind = MT_SCALAR_COMPLEX, .v.z = z};
}

/* The real part of a complex scalar. */
static inline double
mt_scalar_to_double(mt_scalar s)
{
    return s.kind == MT_SCALAR_COMPLEX ? creal(s.v.z)
           : s.kind == MT_SCALAR_FLOAT ? s.v.f
           : s.kind == MT_SCALAR_INT   ? (double)s.v.i
                                       : (double)s.v.b;
}

static inline mt_complex128
mt_scalar_to_complex(mt_scalar s)
{
    return s.kind == MT_SCALAR_COMPLEX ? s.v.z : (mt_complex128)mt_scalar_to_double(s);
}

static inline int64_t
mt_scalar_to_int64(mt_scalar s)
{
    return s.kind == MT_SCALAR_COMPLEX ? (int64_t)creal(s.v.z)
           : s.kind == MT_SCALAR_FLOAT ? (int64_t)s.v.f
           : s.kind == MT_SCALAR_INT   ? s.v.i
                                       : (int64_t)s.v.b;
}

/* The dtype torch gives a lone Python number: bool, int64, the default float
 * or its complex type. */
static inline mt_dtype
mt_scalar_dtype(mt_scalar s)
{
    return s.kind == MT_SCALAR_BOOL  ? MT_BOOL
           : s.kind == MT_SCALAR_INT ? MT_INT64
           : s.kind == MT_SCALAR_FLOAT ? mt_get_default_dtype()
                                       : mt_dtype_to_complex(mt_get_default_dtype());
}

/* Writes `s` converted to `dt` into dst (one element, up to 16 bytes, torch's cast rules:
 * floats truncate toward zero into integers, anything non-zero is true). */
void mt_scalar_store(mt_scalar s, mt_dtype dt, void *dst);
/* 0, or MT_ERUNTIME "value cannot be converted to type int8_t without
 * overflow" when s does not fit dt (integers and 16-bit floats are checked;
 * anything fits bool; NaN/inf fit floating types). */
int mt_scalar_check_range(mt_scalar s, mt_dtype dt);
/* Reads one element of dtype `dt` as a scalar of the matching kind. */
mt_scalar mt_scalar_load(const void *src, mt_dtype dt);

#endif /* ATEN_LITE_SCALAR_H */
