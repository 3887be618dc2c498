/* aten_lite/scan.c - cumulative ops along one dim: cumsum, cumprod, cummax, cummin, logcumsumexp. */
#include <complex.h>
#include <math.h>
#include <string.h>

#include "aten_lite/cpu/loops.h"
#include "aten_lite/kernel_stubs.h"
#include "aten_lite/ops.h"
#include "aten_lite/parallel.h"
#include "c10_lite/error.h"

/* Note [Scans]
 * Each line along `dim` is scanned sequentially (deterministic), lines in
 * parallel.  Sums and products of bool/integers accumulate in int64 (the
 * output is int64, as torch); floats accumulate in double and complex in
 * complex double, rounded to the dtype at each output.  cummax/cummin copy
 * the running extreme element itself (exact for every dtype) and its index:
 * a tie moves the index to the later element, and a NaN wins and stays, with
 * the index of the latest NaN (torch's rule).  logcumsumexp accumulates
 * log(exp(a) + exp(v)) in double (complex double), stably: max + log1p(exp(min - max)). */
typedef struct {
    mt_scan_op op;
    int64_t n, sin, sout, sidx; /* line length, byte strides along the line */
    int nd;                     /* other dims */
    int64_t sz[MT_MAX_DIMS], stin[MT_MAX_DIMS], stout[MT_MAX_DIMS], stidx[MT_MAX_DIMS];
    const char *in;
    char *out, *idx;
    mt_dtype dt;
} mt__scan;

typedef void (*mt__scan_fn)(const mt__scan *, const char *, char *, char *);

/* ---- cumsum / cumprod ---- */
#define MT__SUM_LINE(E, tn, ct, acc, ...)                                                   \
    static void mt__sum_##tn(const mt__scan *s, const char *in, char *out, char *idx)      \
    {                                                                                      \
        (void)idx;                                                                         \
        const bool prod = s->op == MT_SCAN_PROD;                                           \
        __VA_ARGS__ a = prod ? 1 : 0;                                                      \
        for (int64_t i = 0; i < s->n; i++) {                                               \
            __VA_ARGS__ v = (__VA_ARGS__)MT_LOAD_##tn(*(const ct *)(in + i * s->sin));     \
            a = prod ? a * v : a + v;                                                      \
            MT__SCAN_STORE_##tn(out + i * s->sout, a);                                     \
        }                                                                                  \
    }
#define MT__SCAN_INT(p, v) (*(int64_t *)(p) = (v))
#define MT__SCAN_STORE_boolean MT__SCAN_INT
#define MT__SCAN_STORE_uint8 MT__SCAN_INT
#define MT__SCAN_STORE_int8 MT__SCAN_INT
#define MT__SCAN_STORE_int16 MT__SCAN_INT
#define MT__SCAN_STORE_int32 MT__SCAN_INT
#define MT__SCAN_STORE_int64 MT__SCAN_INT
#define MT__SCAN_STORE_uint16 MT__SCAN_INT
#define MT__SCAN_STORE_uint32 MT__SCAN_INT
#define MT__SCAN_STORE_uint64 MT__SCAN_INT
#define MT__SCAN_STORE_float16(p, v) (*(mt_half *)(p) = MT_STORE_float16(v))
#define MT__SCAN_STORE_bfloat16(p, v) (*(mt_bfloat16 *)(p) = MT_STORE_bfloat16(v))
#define MT__SCAN_STORE_float32(p, v) (*(float *)(p) = (float)(v))
#define MT__SCAN_STORE_float64(p, v) (*(double *)(p) = (v))
#define MT__SCAN_STORE_complex64(p, v) (*(mt_complex64 *)(p) = (mt_complex64)(v))
#define MT__SCAN_STORE_complex128(p, v) (*(mt_complex128 *)(p) = (v))
MT_L_INTBOOL(MT__SUM_LINE, int64_t)
MT_L_BAREBONES(MT__SUM_LINE, int64_t)
MT_L_FLOAT(MT__SUM_LINE, double)
MT_L_COMPLEX(MT__SUM_LINE, mt_complex128)

/* ---- cummax / cummin: v != v is the NaN test (never true for integers) ---- */
#define MT__EXTREME_LINE(E, tn, ct, acc, ...)                                              \
    static void mt__extreme_##tn(const mt__scan *s, const char *in, char *out, char *idx)  \
    {                                                                                      \
        const bool max = s->op == MT_SCAN_MAX;                                             \
        acc best = 0;                                                                      \
        int64_t at = 0;                                                                    \
        for (int64_t i = 0; i < s->n; i++) {                                               \
            acc v = MT_LOAD_##tn(*(const ct *)(in + i * s->sin));                          \
            if (i == 0 || v != v || (best == best && (max ? v >= best : v <= best))) {     \
                best = v;                                                                  \
                at = i;                                                                    \
            }                                                                              \
            *(ct *)(out + i * s->sout) = *(const ct *)(in + at * s->sin);                  \
            *(int64_t *)(idx + i * s->sidx) = at;                                          \
        }                                                                                  \
    }
MT_L_ALL(MT__EXTREME_LINE, )

/* ---- logcumsumexp ---- */
static double
mt__log_add_exp(double a, double v)
{
    if (isnan(a) || isnan(v)) {
        return a + v;
    }
    double lo = fmin(a, v), hi = fmax(a, v);
    if (lo != hi || isfinite(lo)) {
        return hi + log1p(exp(lo - hi));
    }
    return a; /* both the same infinity */
}

#define MT__LSE_LINE(E, tn, ct, acc, ...)                                                   \
    static void mt__lse_##tn(const mt__scan *s, const char *in, char *out, char *idx)      \
    {                                                                                      \
        (void)idx;                                                                         \
        double a = -INFINITY;                                                              \
        for (int64_t i = 0; i < s->n; i++) {                                               \
            a = mt__log_add_exp(a, (double)MT_LOAD_##tn(*(const ct *)(in + i * s->sin)));  \
            MT__SCAN_STORE_##tn(out + i * s->sout, a);                                     \
        }                                                                                  \
    }
MT_L_FLOAT(MT__LSE_LINE, )

/* The complex form orders the operands by real part (torch's rule): a NaN
 * anywhere gives NaN, two equal infinite real parts are combined directly. */
static mt_complex128
mt__log_add_exp_complex(mt_complex128 a, mt_complex128 v)
{
    if (isnan(creal(a)) || isnan(cimag(a)) || isnan(creal(v)) || isnan(cimag(v))) {
        return CMPLX(NAN, NAN);
    }
    mt_complex128 lo = creal(v) < creal(a) ? v : a, hi = creal(v) < creal(a) ? a : v;
    if (!isfinite(creal(lo)) && creal(lo) == creal(hi)) {
        return creal(lo) < 0 ? lo : clog(cexp(lo) + cexp(hi));
    }
    return hi + clog(1.0 + cexp(lo - hi));
}

#define MT__LSE_COMPLEX_LINE(E, tn, ct, acc, ...)                                           \
    static void mt__lse_##tn(const mt__scan *s, const char *in, char *out, char *idx)      \
    {                                                                                      \
        (void)idx;                                                                         \
        mt_complex128 a = CMPLX(-INFINITY, 0.0);                                           \
        for (int64_t i = 0; i < s->n; i++) {                                               \
            a = mt__log_add_exp_complex(a, (mt_complex128)(*(const ct *)(in + i * s->sin)));  \
            MT__SCAN_STORE_##tn(out + i * s->sout, a);                                     \
        }                                                                                  \
    }
MT_L_COMPLEX(MT__LSE_COMPLEX_LINE, )

#define MT__FN(E, tn, ct, acc, prefix) [E] = prefix##tn,
static const mt__scan_fn mt__scan_fns[MT_SCAN_LOGSUMEXP + 1][MT_NUM_DTYPES] = {
    [MT_SCAN_SUM] = {MT_L_ALL(MT__FN, mt__sum_) MT_L_BAREBONES(MT__FN, mt__sum_)
                         MT_L_COMPLEX(MT__FN, mt__sum_)},
    [MT_SCAN_PROD] = {MT_L_ALL(MT__FN, mt__sum_) MT_L_BAREBONES(MT__FN, mt__sum_)
                          MT_L_COMPLEX(MT__FN, mt__sum_)},
    [MT_SCAN_MAX] = {MT_L_ALL(MT__FN, mt__extreme_)},
    [MT_SCAN_MIN] = {MT_L_ALL(MT__FN, mt__extreme_)},
    [MT_SCAN_LOGSUMEXP] = {MT_L_FLOAT(MT__FN, mt__lse_) MT_L_COMPLEX(MT__FN, mt__lse_)},
};

static void
mt__scan_lines(void *p, int64_t b, int64_t e)
{
    const mt__scan *s = p;
    mt__scan_fn fn = mt__scan_fns[s->op][s->dt];
    for (int64_t line = b; line < e; line++) {
        const char *in = s->in;
        char *out = s->out, *idx = s->idx;
        int64_t rem = line;
        for (int d = s->nd - 1; d >= 0; d--) {
            int64_t i = rem % s->sz[d];
            rem /= s->sz[d];
            in += i * s->stin[d];
            out += i * s->stout[d];
            idx += i * s->stidx[d];
        }
        fn(s, in, out, idx);
    }
}

static const char *const mt__scan_names[] = {
    [MT_SCAN_SUM] = "cumsum",        [MT_SCAN_PROD] = "cumprod", [MT_SCAN_MAX] = "cummax",
    [MT_SCAN_MIN] = "cummin",        [MT_SCAN_LOGSUMEXP] = "logcumsumexp_out",
};

static int
mt__cpu_scan_check(mt_scan_op op, mt_dtype dt)
{
    if (mt__scan_fns[op][dt] == NULL) {
        return mt_error_set(MT_ENOTIMPL, "\"%s_cpu\" not implemented for '%s'", mt__scan_names[op],
                            mt_dtype_scalar_name(dt));
    }
    return MT_OK;
}

static int
mt__cpu_scan(mt_scan_op op, mt_tensor *res, mt_tensor *ix, const mt_tensor *t, int d)
{
    mt__scan_fn fn = mt__scan_fns[op][t->dtype];
    if (fn == NULL) { /* a 0-d cummax/cummin: the element itself at index 0 */
        memcpy(mt_tensor_data(res), mt_tensor_data(t), mt_tensor_itemsize(t));
        *(int64_t *)mt_tensor_data(ix) = 0;
        return MT_OK;
    }
    mt_dtype odt = res->dtype;
    int64_t isz = (int64_t)mt_tensor_itemsize(t), osz = (int64_t)mt_dtype_itemsize(odt);
    mt__scan s = {.op = op, .in = mt_tensor_data(t), .out = mt_tensor_data(res), .dt = t->dtype};
    s.idx = ix != NULL ? mt_tensor_data(ix) : NULL;
    s.n = t->ndim ? t->sizes[d] : 1;
    s.sin = t->ndim ? t->strides[d] * isz : 0;
    s.sout = t->ndim ? res->strides[d] * osz : 0;
    s.sidx = t->ndim ? res->strides[d] * 8 : 0; /* ix is contiguous like res */
    int64_t lines = 1;
    for (int i = 0; i < t->ndim; i++) {
        if (i == d) {
            continue;
        }
        s.sz[s.nd] = t->sizes[i];
        s.stin[s.nd] = t->strides[i] * isz;
        s.stout[s.nd] = res->strides[i] * osz;
        s.stidx[s.nd] = res->strides[i] * 8;
        lines *= t->sizes[i];
        s.nd++;
    }
    int64_t grain = s.n >= MT_GRAIN_SIZE ? 1 : MT_GRAIN_SIZE / s.n;
    mt_parallel_for(0, lines, grain, mt__scan_lines, &s);
    return MT_OK;
}

static const mt_scan_kernels mt__cpu_scan_kernels = {
    .check = mt__cpu_scan_check,
    .scan = mt__cpu_scan,
};

void
mt__cpu_scan_register(void)
{
    MT_REGISTER_STUB(scan, MT_CPU, &mt__cpu_scan_kernels);
}

mt_tensor *
mt_cumulative(const mt_tensor *t, int64_t dim, mt_scan_op op, mt_tensor **indices)
{
    int d = mt_wrap_dim(dim, t->ndim);
    if (d < 0) {
        return NULL;
    }
    mt_device dev = mt_tensor_device(t);
    int (*check)(mt_scan_op, mt_dtype) = MT_STUB(scan, check, dev.type, mt__scan_names[op]);
    int (*scan)(mt_scan_op, mt_tensor *, mt_tensor *, const mt_tensor *, int) =
        check != NULL ? MT_STUB(scan, scan, dev.type, mt__scan_names[op]) : NULL;
    if (scan == NULL) {
        return NULL;
    }
    /* as torch, cummax/cummin of a 0-d or empty tensor never reach a loop: any dtype */
    bool trivial = (op == MT_SCAN_MAX || op == MT_SCAN_MIN) && (t->ndim == 0 || t->numel == 0);
    if (!trivial && check(op, t->dtype) < 0) {
        return NULL;
    }
    bool to_long = op <= MT_SCAN_PROD && !mt_dtype_is_floating(t->dtype) &&
                   !mt_dtype_is_complex(t->dtype);
    mt_dtype odt = to_long ? MT_INT64 : t->dtype;
    mt_tensor *res = mt_tensor_empty(odt, t->ndim, t->sizes, dev), *ix = NULL;
    if (res == NULL) {
        return NULL;
    }
    if (indices != NULL) {
        ix = mt_tensor_empty(MT_INT64, t->ndim, t->sizes, dev);
        if (ix == NULL) {
            mt_tensor_decref(res);
            return NULL;
        }
    }
    if (res->numel != 0 && scan(op, res, ix, t, d) < 0) {
        mt_tensor_decref(res);
        mt_tensor_decref(ix);
        return NULL;
    }
    if (indices != NULL) {
        *indices = ix;
    }
    return res;
}
