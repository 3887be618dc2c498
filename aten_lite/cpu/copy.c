/* aten_lite/cpu/copy.c - dtype-converting copy loops (every src x dst pair), fill, scalar casts. */
#include <math.h>
#include <string.h>

#include "c10_lite/error.h"

#include "aten_lite/cpu/kernels.h"
#include "aten_lite/cpu/loops.h"
#include "aten_lite/kernel_stubs.h"
#include "aten_lite/scalar.h"

/* Note [Cast loops]
 * One loop per (dst, src) dtype pair, generated from the two lists below.
 * Every conversion goes src -> acctype(src) -> dst with C's conversion
 * rules, which are torch's: floats truncate toward zero into integers, and
 * any non-zero value (NaN included) becomes true.  16-bit floats round to
 * nearest even.  Complex sources give their real part to real destinations
 * (see Note [Complex dtypes]). */

#define MT__CAST_LOOP(dn, dct, sn, sct)                                                   \
    MT_SIMD_CLONES static void mt__cast_##sn##_to_##dn(char **data, const int64_t *n,    \
                                                        const int64_t *st,               \
                                                        void *ctx)                       \
    {                                                                                     \
        (void)ctx;                                                                        \
        char *d = data[0];                                                                \
        const char *s = data[1];                                                          \
        int64_t sd = st[0], ss = st[1], len = n[0];                                       \
        if (sd == (int64_t)sizeof(dct) && ss == (int64_t)sizeof(sct)) {                   \
            dct *restrict dp = (dct *)d;                                                  \
            const sct *restrict sp = (const sct *)s;                                      \
            for (int64_t i = 0; i < len; i++) {                                           \
                dp[i] = MT_STORE_##dn(MT_LOAD_##sn(sp[i]));                               \
            }                                                                             \
        }                                                                                 \
        else {                                                                            \
            for (int64_t i = 0; i < len; i++) {                                           \
                *(dct *)(d + i * sd) = MT_STORE_##dn(MT_LOAD_##sn(*(const sct *)(s + i * ss))); \
            }                                                                             \
        }                                                                                 \
    }

#define MT__FOR_DST(X, sn, sct)                                                          \
    X(boolean, bool, sn, sct) X(uint8, uint8_t, sn, sct) X(int8, int8_t, sn, sct)           \
    X(int16, int16_t, sn, sct) X(int32, int32_t, sn, sct) X(int64, int64_t, sn, sct)     \
    X(float16, mt_half, sn, sct) X(bfloat16, mt_bfloat16, sn, sct)                       \
    X(float32, float, sn, sct) X(float64, double, sn, sct)                               \
    X(complex64, mt_complex64, sn, sct) X(complex128, mt_complex128, sn, sct)            \
    X(uint16, uint16_t, sn, sct) X(uint32, uint32_t, sn, sct) X(uint64, uint64_t, sn, sct)

#define MT__FOR_SRC(X)                                                                   \
    MT__FOR_DST(X, boolean, bool) MT__FOR_DST(X, uint8, uint8_t) MT__FOR_DST(X, int8, int8_t) \
    MT__FOR_DST(X, int16, int16_t) MT__FOR_DST(X, int32, int32_t)                        \
    MT__FOR_DST(X, int64, int64_t) MT__FOR_DST(X, float16, mt_half)                      \
    MT__FOR_DST(X, bfloat16, mt_bfloat16) MT__FOR_DST(X, float32, float)                 \
    MT__FOR_DST(X, float64, double) MT__FOR_DST(X, complex64, mt_complex64)               \
    MT__FOR_DST(X, complex128, mt_complex128) MT__FOR_DST(X, uint16, uint16_t)             \
    MT__FOR_DST(X, uint32, uint32_t) MT__FOR_DST(X, uint64, uint64_t)

MT__FOR_SRC(MT__CAST_LOOP)

#define MT__CAST_ENTRY(dn, dct, sn, sct) mt__cast_##sn##_to_##dn,
/* indexed [src][dst] */
static const mt_loop_fn mt__cast_loops[MT_NUM_DTYPES][MT_NUM_DTYPES] = {
#define MT__ROW(sn, sct) {MT__FOR_DST(MT__CAST_ENTRY, sn, sct)},
    MT__ROW(boolean, bool) MT__ROW(uint8, uint8_t) MT__ROW(int8, int8_t) MT__ROW(int16, int16_t)
    MT__ROW(int32, int32_t) MT__ROW(int64, int64_t) MT__ROW(float16, mt_half)
    MT__ROW(bfloat16, mt_bfloat16) MT__ROW(float32, float) MT__ROW(float64, double)
    MT__ROW(complex64, mt_complex64) MT__ROW(complex128, mt_complex128)
    MT__ROW(uint16, uint16_t) MT__ROW(uint32, uint32_t) MT__ROW(uint64, uint64_t)
#undef MT__ROW
};

/* Same-dtype copies: by item size, so 2/4/8-byte dtypes share loops. */
#define MT__MOVE_LOOP(bits)                                                                \
    static void mt__move_##bits(char **data, const int64_t *n, const int64_t *st, void *ctx) \
    {                                                                                      \
        (void)ctx;                                                                         \
        int64_t sd = st[0], ss = st[1], len = n[0];                                        \
        if (sd == bits / 8 && ss == bits / 8) {                                            \
            memmove(data[0], data[1], (size_t)len * (bits / 8));                           \
            return;                                                                        \
        }                                                                                  \
        char *d = data[0];                                                                 \
        const char *s = data[1];                                                           \
        for (int64_t i = 0; i < len; i++) {                                                \
            *(uint##bits##_t *)(d + i * sd) = *(const uint##bits##_t *)(s + i * ss);       \
        }                                                                                  \
    }
MT__MOVE_LOOP(8)
MT__MOVE_LOOP(16)
MT__MOVE_LOOP(32)
MT__MOVE_LOOP(64)

/* 16-byte elements (complex128) move as two 8-byte words */
typedef struct {
    uint64_t w[2];
} mt__u128;
static void
mt__move_128(char **data, const int64_t *n, const int64_t *st, void *ctx)
{
    (void)ctx;
    int64_t sd = st[0], ss = st[1], len = n[0];
    if (sd == 16 && ss == 16) {
        memmove(data[0], data[1], (size_t)len * 16);
        return;
    }
    for (int64_t i = 0; i < len; i++) {
        mt__u128 v;
        memcpy(&v, data[1] + i * ss, 16);
        memcpy(data[0] + i * sd, &v, 16);
    }
}

mt_loop_fn
mt_cpu_cast_loop(mt_dtype dst, mt_dtype src)
{
    if (dst == src) {
        switch (mt_dtype_itemsize(dst)) {
        case 1:
            return mt__move_8;
        case 2:
            return mt__move_16;
        case 4:
            return mt__move_32;
        case 16:
            return mt__move_128;
        default:
            return mt__move_64;
        }
    }
    return mt__cast_loops[src][dst];
}

/* ---- fill: the value is pre-converted into ctx, written by item size ---- */
#define MT__FILL_LOOP(bits)                                                                \
    static void mt__fill_##bits(char **data, const int64_t *n, const int64_t *st, void *ctx) \
    {                                                                                      \
        uint##bits##_t v;                                                                  \
        memcpy(&v, ctx, sizeof(v));                                                        \
        char *d = data[0];                                                                 \
        int64_t sd = st[0], len = n[0];                                                    \
        if (sd == bits / 8) {                                                              \
            uint##bits##_t *dp = (uint##bits##_t *)d;                                      \
            for (int64_t i = 0; i < len; i++) {                                            \
                dp[i] = v;                                                                 \
            }                                                                              \
            return;                                                                        \
        }                                                                                  \
        for (int64_t i = 0; i < len; i++) {                                                \
            *(uint##bits##_t *)(d + i * sd) = v;                                           \
        }                                                                                  \
    }
MT__FILL_LOOP(8)
MT__FILL_LOOP(16)
MT__FILL_LOOP(32)
MT__FILL_LOOP(64)

static void
mt__fill_128(char **data, const int64_t *n, const int64_t *st, void *ctx)
{
    mt__u128 v;
    memcpy(&v, ctx, sizeof(v));
    for (int64_t i = 0; i < n[0]; i++) {
        memcpy(data[0] + i * st[0], &v, sizeof(v));
    }
}

mt_loop_fn
mt_cpu_fill_loop(mt_dtype dt)
{
    switch (mt_dtype_itemsize(dt)) {
    case 1:
        return mt__fill_8;
    case 2:
        return mt__fill_16;
    case 4:
        return mt__fill_32;
    case 16:
        return mt__fill_128;
    default:
        return mt__fill_64;
    }
}

/* ---- scalar <-> element ---- */
void
mt_scalar_store(mt_scalar s, mt_dtype dt, void *dst)
{
    switch (s.kind) {
    case MT_SCALAR_BOOL: {
        bool v = s.v.b;
        char *data[2] = {dst, (char *)&v};
        int64_t n = 1, st[2] = {0, 0};
        mt__cast_loops[MT_BOOL][dt](data, &n, st, NULL);
        break;
    }
    case MT_SCALAR_INT: {
        int64_t v = s.v.i;
        char *data[2] = {dst, (char *)&v};
        int64_t n = 1, st[2] = {0, 0};
        mt__cast_loops[MT_INT64][dt](data, &n, st, NULL);
        break;
    }
    case MT_SCALAR_COMPLEX: {
        mt_complex128 v = s.v.z;
        char *data[2] = {dst, (char *)&v};
        int64_t n = 1, st[2] = {0, 0};
        mt__cast_loops[MT_COMPLEX128][dt](data, &n, st, NULL);
        break;
    }
    default: {
        double v = s.v.f;
        char *data[2] = {dst, (char *)&v};
        int64_t n = 1, st[2] = {0, 0};
        mt__cast_loops[MT_FLOAT64][dt](data, &n, st, NULL);
        break;
    }
    }
}

int
mt_scalar_check_range(mt_scalar s, mt_dtype dt)
{
    static const struct {
        double lo, hi;
        const char *name;
    } lim[MT_NUM_DTYPES] = {
        [MT_UINT8] = {0, 255, "uint8_t"},
        [MT_UINT16] = {0, 65535, "uint16_t"},
        [MT_UINT32] = {0, 4294967295.0, "uint32_t"},
        [MT_UINT64] = {0, 18446744073709551615.0, "uint64_t"},
        [MT_INT8] = {-128, 127, "int8_t"},
        [MT_INT16] = {-32768, 32767, "int16_t"},
        [MT_INT32] = {-2147483648.0, 2147483647.0, "int32_t"},
        [MT_INT64] = {-9223372036854775808.0, 9223372036854775807.0, "int64_t"},
        [MT_FLOAT16] = {-65504.0, 65504.0, "at::Half"},
        [MT_BFLOAT16] = {-3.3895313892515355e38, 3.3895313892515355e38, "at::BFloat16"},
        [MT_BOOL] = {0, 1, "bool"},
        [MT_FLOAT32] = {0, 0, "float"},
        [MT_FLOAT64] = {0, 0, "double"},
    };
    if (mt_dtype_is_complex(dt)) {
        return MT_OK;
    }
    if (s.kind == MT_SCALAR_COMPLEX) {
        /* as torch: a complex value only converts to a real type when its
         * imaginary part is zero */
        if (cimag(s.v.z) != 0) {
            return mt_error_set(MT_ERUNTIME, "value cannot be converted to type %s without overflow",
                                lim[dt].name);
        }
        s = mt_scalar_float(creal(s.v.z));
    }
    if (dt == MT_BOOL || dt == MT_FLOAT32 || dt == MT_FLOAT64 || s.kind == MT_SCALAR_BOOL) {
        return MT_OK;
    }
    bool ok;
    if (s.kind == MT_SCALAR_INT && mt_dtype_is_floating(dt)) {
        s = mt_scalar_float((double)s.v.i);
    }
    if (s.kind == MT_SCALAR_INT) {
        /* as torch (c10's overflow check), a negative integer may wrap into an unsigned
         * type down to -max: -1 is 255 in uint8 */
        const bool uns = dt == MT_UINT8 || dt == MT_UINT16 || dt == MT_UINT32;
        const int64_t lo = uns ? -(int64_t)lim[dt].hi : (int64_t)lim[dt].lo;
        /* every int64 converts to uint64 (negative ones wrap, down to -max) */
        ok = dt == MT_INT64 || dt == MT_UINT64 || (s.v.i >= lo && s.v.i <= (int64_t)lim[dt].hi);
    }
    else if (mt_dtype_is_floating(dt)) {
        double v = s.v.f;
        /* finite values that round to inf overflow (half an ulp above the
         * largest finite value); inf and nan are kept */
        double edge = dt == MT_FLOAT16 ? 65520.0 : 3.3961775292304063e38;
        ok = !isfinite(v) || fabs(v) < edge;
    }
    else {
        double v = s.v.f;
        ok = v == v && v > lim[dt].lo - 1.0 && v < lim[dt].hi + 1.0;
    }
    if (!ok) {
        return mt_error_set(MT_ERUNTIME, "value cannot be converted to type %s without overflow",
                            lim[dt].name);
    }
    return MT_OK;
}

mt_scalar
mt_scalar_load(const void *src, mt_dtype dt)
{
    if (dt == MT_BOOL) {
        /* read as a byte: memory that was never written (empty) or a uint8
         * tensor viewed as bool may hold values other than 0 and 1 */
        return mt_scalar_bool(*(const uint8_t *)src != 0);
    }
    char *data[2] = {NULL, (char *)src};
    int64_t n = 1, st[2] = {0, 0};
    if (mt_dtype_is_complex(dt)) {
        mt_complex128 z;
        data[0] = (char *)&z;
        mt__cast_loops[dt][MT_COMPLEX128](data, &n, st, NULL);
        return mt_scalar_complex(z);
    }
    if (mt_dtype_is_floating(dt)) {
        double v;
        data[0] = (char *)&v;
        mt__cast_loops[dt][MT_FLOAT64](data, &n, st, NULL);
        return mt_scalar_float(v);
    }
    int64_t v;
    data[0] = (char *)&v;
    mt__cast_loops[dt][MT_INT64](data, &n, st, NULL);
    return mt_scalar_int(v);
}

/* ---- where: by item size ---- */
/* where's loops: the contiguous case (and a value broadcast into either branch, as masked_fill
 * gives) as branch-free selects the compiler vectorises, any strides otherwise */
#define MT__WHERE_SELECT(A, B)                                                              \
    for (int64_t i = 0; i < n[0]; i++) {                                                    \
        W m = (W)0 - (W)(cv[i] != 0);                                                       \
        ov[i] = (W)(((A) & m) | ((B) & (W)~m));                                             \
    }
#define MT__WHERE_LOOP(bits)                                                                \
    MT_SIMD_CLONES static void mt__where_##bits(char **data, const int64_t *n,              \
                                                const int64_t *st, void *ctx)               \
    {                                                                                       \
        (void)ctx;                                                                          \
        typedef uint##bits##_t W;                                                           \
        char *o = data[0];                                                                  \
        const char *c = data[1], *x = data[2], *y = data[3];                                \
        const int64_t w = (int64_t)sizeof(W);                                               \
        if (st[0] == w && st[1] == 1 && (st[2] == w || st[2] == 0) &&                       \
            (st[3] == w || st[3] == 0)) {                                                   \
            W *restrict ov = (W *)o;                                                        \
            const uint8_t *restrict cv = (const uint8_t *)c;                                \
            const W *restrict xv = (const W *)x, *restrict yv = (const W *)y;               \
            /* one loop per stride pair, selects by masks: no branch the data decides */    \
            if (st[2] == w && st[3] == w) {                                                 \
                MT__WHERE_SELECT(xv[i], yv[i]);                                             \
            }                                                                               \
            else if (st[2] == w) {                                                          \
                const W b = yv[0];                                                          \
                MT__WHERE_SELECT(xv[i], b);                                                 \
            }                                                                               \
            else if (st[3] == w) {                                                          \
                const W a = xv[0];                                                          \
                MT__WHERE_SELECT(a, yv[i]);                                                 \
            }                                                                               \
            else {                                                                          \
                const W a = xv[0], b = yv[0];                                               \
                MT__WHERE_SELECT(a, b);                                                     \
            }                                                                               \
            return;                                                                         \
        }                                                                                   \
        for (int64_t i = 0; i < n[0]; i++) {                                                \
            const char *src = *(const bool *)(c + i * st[1]) ? x + i * st[2] : y + i * st[3]; \
            *(W *)(o + i * st[0]) = *(const W *)src;                                        \
        }                                                                                   \
    }
MT__WHERE_LOOP(8)
MT__WHERE_LOOP(16)
MT__WHERE_LOOP(32)
MT__WHERE_LOOP(64)

static void
mt__where_128(char **data, const int64_t *n, const int64_t *st, void *ctx)
{
    (void)ctx;
    for (int64_t i = 0; i < n[0]; i++) {
        const char *src = *(const bool *)(data[1] + i * st[1]) ? data[2] + i * st[2] : data[3] + i * st[3];
        memmove(data[0] + i * st[0], src, 16);
    }
}

mt_loop_fn
mt_cpu_where_loop(mt_dtype dt)
{
    switch (mt_dtype_itemsize(dt)) {
    case 1:
        return mt__where_8;
    case 2:
        return mt__where_16;
    case 4:
        return mt__where_32;
    case 16:
        return mt__where_128;
    default:
        return mt__where_64;
    }
}

/* ---- the cpu copy and fill kernels (see Note [Kernel stubs]) ---- */

static int
mt__cpu_copy(const mt_iter *it, mt_dtype dst_dtype, mt_dtype src_dtype, bool non_blocking)
{
    (void)non_blocking;
    mt_iter_for_each(it, mt_cpu_cast_loop(dst_dtype, src_dtype), NULL);
    return MT_OK;
}

static int
mt__cpu_fill(const mt_iter *it, mt_dtype dt, const void *elem)
{
    mt_iter_for_each(it, mt_cpu_fill_loop(dt), (void *)elem);
    return MT_OK;
}

static const mt_copy_kernels mt__cpu_copy_kernels = {.copy = mt__cpu_copy};
static const mt_fill_kernels mt__cpu_fill_kernels = {.fill = mt__cpu_fill,
                                                     .sequence = mt__cpu_sequence};

void
mt__cpu_copy_register(void)
{
    mt_copy_stub[MT_CPU][MT_CPU] = &mt__cpu_copy_kernels;
    MT_REGISTER_STUB(fill, MT_CPU, &mt__cpu_fill_kernels);
}
