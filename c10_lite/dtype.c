/* c10_lite/dtype.c - dtype sizes, names and promotion. */
#include "c10_lite/dtype.h"

#include <stdatomic.h>

#include "c10_lite/error.h"

static const struct {
    const char *name;
    const char *scalar_name; /* torch's ScalarType name */
} mt__dtype_info[MT_NUM_DTYPES] = {
    [MT_BOOL] = {"bool", "Bool"},          [MT_UINT8] = {"uint8", "Byte"},
    [MT_INT8] = {"int8", "Char"},          [MT_INT16] = {"int16", "Short"},
    [MT_INT32] = {"int32", "Int"},         [MT_INT64] = {"int64", "Long"},
    [MT_FLOAT16] = {"float16", "Half"},    [MT_BFLOAT16] = {"bfloat16", "BFloat16"},
    [MT_FLOAT32] = {"float32", "Float"},   [MT_FLOAT64] = {"float64", "Double"},
    [MT_COMPLEX64] = {"complex64", "ComplexFloat"},
    [MT_COMPLEX128] = {"complex128", "ComplexDouble"},
    [MT_UINT16] = {"uint16", "UInt16"},    [MT_UINT32] = {"uint32", "UInt32"},
    [MT_UINT64] = {"uint64", "UInt64"},
};

static const struct {
    const char *alias;
    mt_dtype dtype;
} mt__dtype_aliases[] = {
    {"float", MT_FLOAT32}, {"double", MT_FLOAT64}, {"half", MT_FLOAT16},
    {"long", MT_INT64},    {"int", MT_INT32},      {"short", MT_INT16},
    {"cfloat", MT_COMPLEX64}, {"cdouble", MT_COMPLEX128},
};

const char *
mt_dtype_name(mt_dtype dt)
{
    return mt_dtype_valid(dt) ? mt__dtype_info[dt].name : "invalid";
}

const char *
mt_dtype_scalar_name(mt_dtype dt)
{
    return mt_dtype_valid(dt) ? mt__dtype_info[dt].scalar_name : "invalid";
}

int
mt_dtype_from_name(const char *name, mt_dtype *out)
{
    for (int i = 0; i < MT_NUM_DTYPES; i++) {
        if (strcmp(name, mt__dtype_info[i].name) == 0) {
            *out = (mt_dtype)i;
            return MT_OK;
        }
    }
    for (size_t i = 0; i < sizeof(mt__dtype_aliases) / sizeof(mt__dtype_aliases[0]); i++) {
        if (strcmp(name, mt__dtype_aliases[i].alias) == 0) {
            *out = mt__dtype_aliases[i].dtype;
            return MT_OK;
        }
    }
    return mt_error_set(MT_ETYPE, "invalid dtype name '%s'", name);
}

bool
mt_dtype_is_floating(mt_dtype dt)
{
    return dt >= MT_FLOAT16 && dt <= MT_FLOAT64;
}

bool
mt_dtype_is_integral(mt_dtype dt, bool include_bool)
{
    return (dt >= MT_UINT8 && dt <= MT_INT64) || mt_dtype_is_barebones_unsigned(dt) ||
           (include_bool && dt == MT_BOOL);
}

bool
mt_dtype_is_signed(mt_dtype dt)
{
    return dt != MT_BOOL && dt != MT_UINT8 && !mt_dtype_is_barebones_unsigned(dt);
}

bool
mt_dtype_is_complex(mt_dtype dt)
{
    return dt == MT_COMPLEX64 || dt == MT_COMPLEX128;
}

mt_dtype
mt_dtype_to_real(mt_dtype dt)
{
    return dt == MT_COMPLEX64 ? MT_FLOAT32 : dt == MT_COMPLEX128 ? MT_FLOAT64 : dt;
}

mt_dtype
mt_dtype_to_complex(mt_dtype dt)
{
    if (dt == MT_FLOAT64 || dt == MT_COMPLEX128) {
        return MT_COMPLEX128;
    }
    return mt_dtype_is_floating(dt) ? MT_COMPLEX64 : dt;
}

mt_dtype
mt_promote_types(mt_dtype a, mt_dtype b)
{
    if (!mt_dtype_valid((int)a) || !mt_dtype_valid((int)b)) {
        return MT_DTYPE_UNDEFINED;
    }
    if (a == b) {
        return a;
    }
    if (mt_dtype_is_barebones_unsigned(a) || mt_dtype_is_barebones_unsigned(b)) {
        if (mt_dtype_is_floating(a)) {
            return a;
        }
        if (mt_dtype_is_floating(b)) {
            return b;
        }
        mt_error_set(MT_ERUNTIME,
                     "Promotion for uint16, uint32, uint64 types is not supported, attempted to promote %s and %s",
                     mt_dtype_scalar_name(a), mt_dtype_scalar_name(b));
        return MT_DTYPE_UNDEFINED;
    }
    if (mt_dtype_is_complex(a) || mt_dtype_is_complex(b)) {
        mt_dtype r = mt_promote_types(mt_dtype_to_real(a), mt_dtype_to_real(b));
        return mt_dtype_to_complex(mt_dtype_is_floating(r) ? r : MT_FLOAT32);
    }
    if (a > b) {
        mt_dtype t = a;
        a = b;
        b = t;
    }
    /* Now a < b in enum order. */
    if (a == MT_UINT8 && b == MT_INT8) {
        return MT_INT16;
    }
    if (a == MT_FLOAT16 && b == MT_BFLOAT16) {
        return MT_FLOAT32;
    }
    return b;
}

static _Atomic int mt__default_dtype = MT_FLOAT32;

mt_dtype
mt_get_default_dtype(void)
{
    return (mt_dtype)atomic_load(&mt__default_dtype);
}

int
mt_set_default_dtype(mt_dtype dt)
{
    if (!mt_dtype_is_floating(dt)) {
        return mt_error_set(MT_ETYPE,
                            "only floating-point types are supported as the default type");
    }
    atomic_store(&mt__default_dtype, (int)dt);
    return MT_OK;
}

void
mt_result_state_update(mt_result_state *st, mt_dtype dt, mt_operand_class cls)
{
    int *slot = cls == MT_OPERAND_DIM ? &st->dim : cls == MT_OPERAND_ZERO_DIM ? &st->zero : &st->wrapped;
    *slot = *slot < 0 ? (int)dt : (int)mt_promote_types((mt_dtype)*slot, dt);
}

/* torch's combine_categories: `lower` only matters when its category is higher. */
static int
mt__combine_categories(int higher, int lower)
{
    if (higher < 0) {
        return lower;
    }
    if (higher == MT_DTYPE_UNDEFINED || lower == MT_DTYPE_UNDEFINED) {
        return MT_DTYPE_UNDEFINED;
    }
    if (lower >= 0 && !mt_dtype_is_complex((mt_dtype)higher) && mt_dtype_is_complex((mt_dtype)lower)) {
        /* a complex scalar keeps a floating tensor's precision */
        return (int)(mt_dtype_is_floating((mt_dtype)higher) ? mt_dtype_to_complex((mt_dtype)higher)
                                                             : (mt_dtype)lower);
    }
    if (lower < 0 || mt_dtype_is_floating((mt_dtype)higher) || mt_dtype_is_complex((mt_dtype)higher)) {
        return higher;
    }
    if (higher == MT_BOOL || mt_dtype_is_floating((mt_dtype)lower)) {
        return (int)mt_promote_types((mt_dtype)higher, (mt_dtype)lower);
    }
    return higher;
}

mt_dtype
mt_result_state_get(const mt_result_state *st)
{
    int r = mt__combine_categories(st->dim, mt__combine_categories(st->zero, st->wrapped));
    return r < 0 ? mt_get_default_dtype() : (mt_dtype)r;
}

bool
mt_can_cast(mt_dtype from, mt_dtype to)
{
    if (mt_dtype_is_complex(from) && !mt_dtype_is_complex(to)) {
        return false;
    }
    if (mt_dtype_is_floating(from) && !mt_dtype_is_floating(to) && !mt_dtype_is_complex(to)) {
        return false;
    }
    if (from != MT_BOOL && to == MT_BOOL) {
        return false;
    }
    return true;
}
