/* aten_lite/cpu/reduce_kernels.c - per (op, dtype) reduction kernels: vector, columns, combine, store. */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "aten_lite/cpu/reduce_kernels.h"

/* Note [Pairwise summation]
 * Floating sums are pairwise: a vector is split in halves down to blocks of
 * 128 elements, each summed with 8 independent accumulators (which the
 * compiler vectorises), and the halves are added going back up.  The error
 * grows with log(n), not n, and the order depends only on n, so results do
 * not depend on the thread count.  Column sums (reducing a strided outer
 * dimension, e.g. x.sum(0) of a row-major matrix) use the same recursion
 * over rows with a tile of W accumulators, one per column.  The vector recursion is compiled
 * for AVX2 as well (Note [SIMD clones]): its eight accumulators are one register there. */
#define MT__PW_BLOCK 128

/* ---- generic building blocks, instantiated per (op, dtype) below ---- */

/* MT__DEF_PAIRWISE(name, ct, tn, acc, INIT, COMBINE) defines
 *   static acc name(const char *p, int64_t n, int64_t s)  // s: byte stride */
#define MT__DEF_PAIRWISE(name, ct, tn, acc, INIT, COMBINE)                              \
    MT_SIMD_CLONES static acc name(const char *p, int64_t n, int64_t s)                 \
    {                                                                                   \
        if (n <= MT__PW_BLOCK) {                                                        \
            acc r[8] = {INIT, INIT, INIT, INIT, INIT, INIT, INIT, INIT};                \
            int64_t i = 0;                                                              \
            if (s == (int64_t)sizeof(ct)) {                                             \
                const ct *x = (const ct *)p;                                            \
                for (; i + 8 <= n; i += 8) {                                            \
                    for (int k = 0; k < 8; k++) {                                       \
                        r[k] = COMBINE(r[k], (acc)MT_LOAD_##tn(x[i + k]));              \
                    }                                                                   \
                }                                                                       \
            }                                                                           \
            acc res = COMBINE(COMBINE(COMBINE(r[0], r[1]), COMBINE(r[2], r[3])),        \
                              COMBINE(COMBINE(r[4], r[5]), COMBINE(r[6], r[7])));       \
            for (; i < n; i++) {                                                        \
                res = COMBINE(res, (acc)MT_LOAD_##tn(*(const ct *)(p + i * s)));        \
            }                                                                           \
            return res;                                                                 \
        }                                                                               \
        int64_t half = (n / 2 + 7) & ~(int64_t)7;                                       \
        /* the halves into locals: COMBINE may read its arguments more than once */     \
        acc lo_ = name(p, half, s), hi_ = name(p + half * s, n - half, s);              \
        return COMBINE(lo_, hi_);                                                       \
    }

/* Columns: out[j] (j < W) = reduction over rows of p[r * rs + j * cs]. */
#define MT__COLS_W 64
#define MT__DEF_PAIRWISE_COLS(name, ct, tn, acc, INIT, COMBINE)                         \
    MT_SIMD_CLONES static void name(acc *out, const char *p, int64_t nrows, int64_t rs, int64_t W,     \
                     int64_t cs)                                                        \
    {                                                                                   \
        if (nrows <= 16) {                                                              \
            for (int64_t j = 0; j < W; j++) {                                           \
                out[j] = INIT;                                                          \
            }                                                                           \
            for (int64_t r = 0; r < nrows; r++) {                                       \
                const char *row = p + r * rs;                                           \
                if (cs == (int64_t)sizeof(ct)) {                                        \
                    const ct *x = (const ct *)row;                                      \
                    for (int64_t j = 0; j < W; j++) {                                   \
                        out[j] = COMBINE(out[j], (acc)MT_LOAD_##tn(x[j]));              \
                    }                                                                   \
                }                                                                       \
                else {                                                                  \
                    for (int64_t j = 0; j < W; j++) {                                   \
                        out[j] = COMBINE(out[j], (acc)MT_LOAD_##tn(*(const ct *)(row + j * cs))); \
                    }                                                                   \
                }                                                                       \
            }                                                                           \
            return;                                                                     \
        }                                                                               \
        acc tmp[MT__COLS_W];                                                            \
        int64_t half = nrows / 2;                                                       \
        name(out, p, half, rs, W, cs);                                                  \
        name(tmp, p + half * rs, nrows - half, rs, W, cs);                              \
        for (int64_t j = 0; j < W; j++) {                                               \
            out[j] = COMBINE(out[j], tmp[j]);                                           \
        }                                                                               \
    }

#define MT__ADD(x, y) ((x) + (y))
#define MT__MUL(x, y) ((x) * (y))
#define MT__AND(x, y) ((x) && (y))
#define MT__OR(x, y) ((x) || (y))
/* NaN-propagating max/min for floats; plain for integers */
#define MT__FMAX(x, y) (((x) != (x) || (x) > (y)) ? (x) : (y))
#define MT__FMIN(x, y) (((x) != (x) || (x) < (y)) ? (x) : (y))
#define MT__IMAX(x, y) ((x) > (y) ? (x) : (y))
#define MT__IMIN(x, y) ((x) < (y) ? (x) : (y))

/* One kernel: vec/cols reduce into acc (stored in a 16-byte slot), combine,
 * store converts to the output dtype. */
#define MT__DEF_KERNEL(kname, ct, tn, acc, INIT, COMBINE, OUTCT, OUTSTORE)                 \
    MT__DEF_PAIRWISE(kname##_pw, ct, tn, acc, INIT, COMBINE)                               \
    MT__DEF_PAIRWISE_COLS(kname##_pwc, ct, tn, acc, INIT, COMBINE)                         \
    static void kname##_init(void *a)                                                      \
    {                                                                                      \
        *(acc *)a = INIT;                                                                  \
    }                                                                                      \
    static void kname##_vec(void *a, const char *p, int64_t n, int64_t s, int64_t base)    \
    {                                                                                      \
        (void)base;                                                                        \
        *(acc *)a = kname##_pw(p, n, s);                                                   \
    }                                                                                      \
    static void kname##_cols(void *a, const char *p, int64_t nrows, int64_t rs, int64_t W, \
                             int64_t cs, int64_t base)                                     \
    {                                                                                      \
        (void)base;                                                                        \
        acc tmp[MT__COLS_W];                                                               \
        kname##_pwc(tmp, p, nrows, rs, W, cs);                                             \
        for (int64_t j = 0; j < W; j++) {                                                  \
            memcpy((char *)a + j * MT_REDUCE_ACC_SIZE, &tmp[j], sizeof(acc));              \
        }                                                                                  \
    }                                                                                      \
    static void kname##_combine(void *a, const void *b)                                    \
    {                                                                                      \
        acc x = *(acc *)a, y = *(const acc *)b;                                            \
        *(acc *)a = COMBINE(x, y);                                                         \
    }                                                                                      \
    static void kname##_store(char *out, const void *a)                                    \
    {                                                                                      \
        *(OUTCT *)out = OUTSTORE(*(const acc *)a);                                         \
    }                                                                                      \
    static const mt_reduce_kernel kname = {                                                \
        .init = kname##_init,                                                              \
        .vec = kname##_vec,                                                                \
        .cols = kname##_cols,                                                              \
        .combine = kname##_combine,                                                        \
        .store = kname##_store,                                                            \
    };

/* ---- sum / prod: integers accumulate in int64, floats in their acc type ---- */
#define MT__INT64_STORE(v) ((int64_t)(v))
#define MT__GEN_SUMPROD(E, tn, ct, acc, ...)                                                       \
    MT__DEF_KERNEL(mt__sum_##tn, ct, tn, __VA_ARGS__, 0, MT__ADD, MT__OUTCT_##tn, MT__OUTST_##tn) \
    MT__DEF_KERNEL(mt__prod_##tn, ct, tn, __VA_ARGS__, 1, MT__MUL, MT__OUTCT_##tn, MT__OUTST_##tn)
/* output of sum/prod: int64 for bool/ints, same dtype for floats */
#define MT__OUTCT_boolean int64_t
#define MT__OUTCT_uint8 int64_t
#define MT__OUTCT_int8 int64_t
#define MT__OUTCT_int16 int64_t
#define MT__OUTCT_int32 int64_t
#define MT__OUTCT_int64 int64_t
#define MT__OUTCT_uint16 int64_t
#define MT__OUTCT_uint32 int64_t
#define MT__OUTCT_uint64 int64_t
#define MT__OUTCT_float16 mt_half
#define MT__OUTCT_bfloat16 mt_bfloat16
#define MT__OUTCT_float32 float
#define MT__OUTCT_float64 double
#define MT__OUTST_boolean MT__INT64_STORE
#define MT__OUTST_uint8 MT__INT64_STORE
#define MT__OUTST_int8 MT__INT64_STORE
#define MT__OUTST_uint16 MT__INT64_STORE
#define MT__OUTST_uint32 MT__INT64_STORE
#define MT__OUTST_uint64 MT__INT64_STORE
#define MT__OUTST_int16 MT__INT64_STORE
#define MT__OUTST_int32 MT__INT64_STORE
#define MT__OUTST_int64 MT__INT64_STORE
#define MT__OUTST_float16 MT_STORE_float16
#define MT__OUTST_bfloat16 MT_STORE_bfloat16
#define MT__OUTST_float32 MT_STORE_float32
#define MT__OUTST_float64 MT_STORE_float64
#define MT__OUTCT_complex64 mt_complex64
#define MT__OUTCT_complex128 mt_complex128
#define MT__OUTST_complex64 MT_STORE_complex64
#define MT__OUTST_complex128 MT_STORE_complex128

MT__GEN_SUMPROD(MT_BOOL, boolean, bool, bool, int64_t)
MT__GEN_SUMPROD(MT_UINT8, uint8, uint8_t, uint8_t, int64_t)
MT__GEN_SUMPROD(MT_INT8, int8, int8_t, int8_t, int64_t)
MT__GEN_SUMPROD(MT_INT16, int16, int16_t, int16_t, int64_t)
MT__GEN_SUMPROD(MT_INT32, int32, int32_t, int32_t, int64_t)
MT__GEN_SUMPROD(MT_INT64, int64, int64_t, int64_t, int64_t)
/* the barebones unsigned types have the kernels torch has for them: sum, prod, all, any (an
 * int64 result, as for every integer type; uint64 values above INT64_MAX wrap, as torch's) */
MT__GEN_SUMPROD(MT_UINT16, uint16, uint16_t, uint16_t, int64_t)
MT__GEN_SUMPROD(MT_UINT32, uint32, uint32_t, uint32_t, int64_t)
MT__GEN_SUMPROD(MT_UINT64, uint64, uint64_t, int64_t, int64_t)
MT__GEN_SUMPROD(MT_FLOAT16, float16, mt_half, float, float)
MT__GEN_SUMPROD(MT_BFLOAT16, bfloat16, mt_bfloat16, float, float)
MT__GEN_SUMPROD(MT_FLOAT32, float32, float, float, float)
MT__GEN_SUMPROD(MT_FLOAT64, float64, double, double, double)
/* complex sums are pairwise too, in the input's precision (as torch) */
MT__GEN_SUMPROD(MT_COMPLEX64, complex64, mt_complex64, mt_complex64, mt_complex64)
MT__GEN_SUMPROD(MT_COMPLEX128, complex128, mt_complex128, mt_complex128, mt_complex128)

/* ---- max / min: same dtype out; identity is the first element (callers
 * never reduce an empty range) so INIT is the type's extreme ---- */
#define MT__GEN_MAXMIN(E, tn, ct, acc, FMAX, FMIN, LO, HI)                                  \
    MT__DEF_KERNEL(mt__max_##tn, ct, tn, acc, LO, FMAX, ct, MT_STORE_##tn)                  \
    MT__DEF_KERNEL(mt__min_##tn, ct, tn, acc, HI, FMIN, ct, MT_STORE_##tn)
MT__GEN_MAXMIN(MT_BOOL, boolean, bool, bool, MT__IMAX, MT__IMIN, false, true)
MT__GEN_MAXMIN(MT_UINT8, uint8, uint8_t, uint8_t, MT__IMAX, MT__IMIN, 0, UINT8_MAX)
MT__GEN_MAXMIN(MT_INT8, int8, int8_t, int8_t, MT__IMAX, MT__IMIN, INT8_MIN, INT8_MAX)
MT__GEN_MAXMIN(MT_INT16, int16, int16_t, int16_t, MT__IMAX, MT__IMIN, INT16_MIN, INT16_MAX)
MT__GEN_MAXMIN(MT_INT32, int32, int32_t, int32_t, MT__IMAX, MT__IMIN, INT32_MIN, INT32_MAX)
MT__GEN_MAXMIN(MT_INT64, int64, int64_t, int64_t, MT__IMAX, MT__IMIN, INT64_MIN, INT64_MAX)
MT__GEN_MAXMIN(MT_FLOAT16, float16, mt_half, float, MT__FMAX, MT__FMIN, -INFINITY, INFINITY)
MT__GEN_MAXMIN(MT_BFLOAT16, bfloat16, mt_bfloat16, float, MT__FMAX, MT__FMIN, -INFINITY, INFINITY)
MT__DEF_KERNEL(mt__max_float32_g, float, float32, float, -INFINITY, MT__FMAX, float, MT_STORE_float32)
MT__DEF_KERNEL(mt__min_float32_g, float, float32, float, INFINITY, MT__FMIN, float, MT_STORE_float32)

/* Note [Vectorised float max]
 * The compiler does not vectorise the NaN-propagating select of MT__FMAX (nor its 8-lane form):
 * a contiguous float32 max/min therefore runs in vector types (GCC/Clang vector extensions),
 * keeping per lane the extreme and whether a NaN was seen; NaN if any lane saw one (softmax's
 * row max is mt_cpu_max_f32 too).  Max and
 * min are exact, so only the sign of a zero extreme may differ from the pairwise order. */
typedef float mt__rv8sf __attribute__((vector_size(32)));
typedef int32_t mt__rv8si __attribute__((vector_size(32)));
#define MT__DEF_VEC_EXTREME(LINKAGE, name, OP, INIT_V)                                         \
    MT_SIMD_CLONES LINKAGE float name(const float *x, int64_t n)                               \
    {                                                                                          \
        const float init = INIT_V;                                                             \
        mt__rv8sf m = {init, init, init, init, init, init, init, init};                        \
        mt__rv8si bad = {0, 0, 0, 0, 0, 0, 0, 0};                                              \
        int64_t i = 0;                                                                         \
        for (; i + 8 <= n; i += 8) {                                                           \
            mt__rv8sf v;                                                                       \
            memcpy(&v, x + i, sizeof(v));                                                      \
            mt__rv8si keep = m OP v;                                                           \
            m = (mt__rv8sf)(((mt__rv8si)m & keep) | ((mt__rv8si)v & ~keep));                  \
            bad |= v != v;                                                                     \
        }                                                                                      \
        float r = init;                                                                        \
        int nan = 0;                                                                           \
        for (int k = 0; k < 8; k++) {                                                          \
            r = r OP m[k] ? r : m[k];                                                          \
            nan |= bad[k] != 0;                                                                \
        }                                                                                      \
        for (; i < n; i++) {                                                                   \
            r = r OP x[i] ? r : x[i];                                                          \
            nan |= x[i] != x[i];                                                               \
        }                                                                                      \
        return nan ? NAN : r;                                                                  \
    }
MT__DEF_VEC_EXTREME(, mt_cpu_max_f32, >, -INFINITY)
MT__DEF_VEC_EXTREME(static, mt__vmin_f32, <, INFINITY)

#define MT__DEF_FLOAT_EXTREME_KERNEL(kname, gname, VEC)                                        \
    static void kname##_vec(void *a, const char *p, int64_t n, int64_t s, int64_t base)        \
    {                                                                                          \
        if (s != (int64_t)sizeof(float)) {                                                     \
            gname.vec(a, p, n, s, base); /* the pairwise kernel, any stride */                \
            return;                                                                            \
        }                                                                                      \
        *(float *)a = VEC((const float *)p, n);                                                \
    }                                                                                          \
    static const mt_reduce_kernel kname = {                                                    \
        .init = gname##_init,                                                                  \
        .vec = kname##_vec,                                                                    \
        .cols = gname##_cols,                                                                  \
        .combine = gname##_combine,                                                            \
        .store = gname##_store,                                                                \
    };
MT__DEF_FLOAT_EXTREME_KERNEL(mt__max_float32, mt__max_float32_g, mt_cpu_max_f32)
MT__DEF_FLOAT_EXTREME_KERNEL(mt__min_float32, mt__min_float32_g, mt__vmin_f32)
MT__GEN_MAXMIN(MT_FLOAT64, float64, double, double, MT__FMAX, MT__FMIN, -INFINITY, INFINITY)

/* ---- all / any: bool out ---- */
#define MT__TRUTH(x) ((x) != 0)
#define MT__GEN_ALLANY(E, tn, ct, acc, ...)                                                  \
    MT__DEF_KERNEL(mt__all_##tn, ct, tn, bool, true, MT__ALLC, bool, MT__TRUTH)             \
    MT__DEF_KERNEL(mt__any_##tn, ct, tn, bool, false, MT__ANYC, bool, MT__TRUTH)
#define MT__ALLC(x, y) ((x) && ((y) != 0))
#define MT__ANYC(x, y) ((x) || ((y) != 0))
MT_L_ALL(MT__GEN_ALLANY)
MT_L_BAREBONES(MT__GEN_ALLANY)
MT_L_COMPLEX(MT__GEN_ALLANY)

/* ---- argmax / argmin: acc = (value as double, index) ---- */
typedef struct {
    double v;
    int64_t i;
} mt__argacc;

/* better(a, b): a wins over b (NaN wins, earlier index wins ties) */
#define MT__ARGMAX_BETTER(av, ai, bv, bi) \
    ((av) != (av) ? ((bv) == (bv) || (ai) < (bi)) : ((bv) == (bv) && ((av) > (bv) || ((av) == (bv) && (ai) < (bi)))))
#define MT__ARGMIN_BETTER(av, ai, bv, bi) \
    ((av) != (av) ? ((bv) == (bv) || (ai) < (bi)) : ((bv) == (bv) && ((av) < (bv) || ((av) == (bv) && (ai) < (bi)))))

#define MT__DEF_ARG(kname, ct, tn, BETTER)                                                 \
    static void kname##_init(void *a)                                                      \
    {                                                                                      \
        ((mt__argacc *)a)->v = NAN;                                                        \
        ((mt__argacc *)a)->i = -1;                                                         \
    }                                                                                      \
    static void kname##_vec(void *a, const char *p, int64_t n, int64_t s, int64_t base)    \
    {                                                                                      \
        mt__argacc r = {.v = 0, .i = -1};                                                  \
        for (int64_t k = 0; k < n; k++) {                                                  \
            double v = (double)MT_LOAD_##tn(*(const ct *)(p + k * s));                     \
            if (r.i < 0 || BETTER(v, base + k, r.v, r.i)) {                                \
                r.v = v;                                                                   \
                r.i = base + k;                                                            \
            }                                                                              \
        }                                                                                  \
        *(mt__argacc *)a = r;                                                              \
    }                                                                                      \
    static void kname##_cols(void *a, const char *p, int64_t nrows, int64_t rs, int64_t W, \
                             int64_t cs, int64_t base)                                     \
    {                                                                                      \
        for (int64_t j = 0; j < W; j++) {                                                  \
            kname##_vec((char *)a + j * MT_REDUCE_ACC_SIZE, p + j * cs, nrows, rs, base);  \
        }                                                                                  \
    }                                                                                      \
    static void kname##_combine(void *a, const void *b)                                    \
    {                                                                                      \
        mt__argacc *x = a;                                                                 \
        const mt__argacc *y = b;                                                           \
        if (x->i < 0 || (y->i >= 0 && BETTER(y->v, y->i, x->v, x->i))) {                   \
            *x = *y;                                                                       \
        }                                                                                  \
    }                                                                                      \
    static void kname##_store(char *out, const void *a)                                    \
    {                                                                                      \
        *(int64_t *)out = ((const mt__argacc *)a)->i;                                      \
    }                                                                                      \
    static const mt_reduce_kernel kname = {                                                \
        .init = kname##_init,                                                              \
        .vec = kname##_vec,                                                                \
        .cols = kname##_cols,                                                              \
        .combine = kname##_combine,                                                        \
        .store = kname##_store,                                                            \
    };
#define MT__GEN_ARG(E, tn, ct, acc, ...)                       \
    MT__DEF_ARG(mt__argmax_##tn, ct, tn, MT__ARGMAX_BETTER)    \
    MT__DEF_ARG(mt__argmin_##tn, ct, tn, MT__ARGMIN_BETTER)
MT_L_ALL(MT__GEN_ARG)

/* ---- the table ---- */
#define MT__ROW(op) {&mt__##op##_boolean, &mt__##op##_uint8, &mt__##op##_int8, &mt__##op##_int16, \
                     &mt__##op##_int32, &mt__##op##_int64, &mt__##op##_float16, &mt__##op##_bfloat16, \
                     &mt__##op##_float32, &mt__##op##_float64}
/* the same with the complex kernels (ordering ops have none: NULL, see mt_reduce) */
#define MT__ROWC(op) {&mt__##op##_boolean, &mt__##op##_uint8, &mt__##op##_int8, &mt__##op##_int16, \
                      &mt__##op##_int32, &mt__##op##_int64, &mt__##op##_float16, &mt__##op##_bfloat16, \
                      &mt__##op##_float32, &mt__##op##_float64, &mt__##op##_complex64, \
                      &mt__##op##_complex128, &mt__##op##_uint16, &mt__##op##_uint32,     \
                      &mt__##op##_uint64}
static const mt_reduce_kernel *const mt__reduce_table[MT_NUM_REDUCE_OPS][MT_NUM_DTYPES] = {
    [MT_REDUCE_SUM] = MT__ROWC(sum),      [MT_REDUCE_PROD] = MT__ROWC(prod),
    [MT_REDUCE_MAX] = MT__ROW(max),       [MT_REDUCE_MIN] = MT__ROW(min),
    [MT_REDUCE_ALL] = MT__ROWC(all),      [MT_REDUCE_ANY] = MT__ROWC(any),
    [MT_REDUCE_ARGMAX] = MT__ROW(argmax), [MT_REDUCE_ARGMIN] = MT__ROW(argmin),
};

const mt_reduce_kernel *
mt_cpu_reduce_kernel(mt_reduce_op op, mt_dtype dt)
{
    return mt__reduce_table[op][dt];
}

mt_dtype
mt_reduce_out_dtype(mt_reduce_op op, mt_dtype in)
{
    switch (op) {
    case MT_REDUCE_SUM:
    case MT_REDUCE_PROD:
        return mt_dtype_is_floating(in) || mt_dtype_is_complex(in) ? in : MT_INT64;
    case MT_REDUCE_ALL:
    case MT_REDUCE_ANY:
        /* torch keeps uint8 for uint8 inputs (the stored bytes are the same 0/1) */
        return in == MT_UINT8 ? MT_UINT8 : MT_BOOL;
    case MT_REDUCE_ARGMAX:
    case MT_REDUCE_ARGMIN:
        return MT_INT64;
    default:
        return in;
    }
}
