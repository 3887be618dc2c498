/* aten_lite/scan.c - cumulative sum / product along one dim. */
#include "aten_lite/cpu/loops.h"
#include "aten_lite/ops.h"
#include "aten_lite/parallel.h"
#include "c10_lite/error.h"

/* Each line along `dim` is scanned sequentially (deterministic), lines in
 * parallel.  Integers accumulate in int64 (the output is int64, as torch),
 * floats in double and are rounded to their dtype at each output. */
typedef struct {
    int prod;
    int64_t n, sin, sout;   /* line length, byte strides along the line */
    int nd;                 /* other dims */
    int64_t sz[MT_MAX_DIMS], stin[MT_MAX_DIMS], stout[MT_MAX_DIMS];
    const char *in;
    char *out;
    mt_dtype dt;
} mt__scan;

#define MT__SCAN_LINE(E, tn, ct, acc, ...)                                                 \
    static void mt__scan_##tn(const mt__scan *s, const char *in, char *out)                \
    {                                                                                      \
        __VA_ARGS__ a = s->prod ? 1 : 0;                                                   \
        for (int64_t i = 0; i < s->n; i++) {                                               \
            __VA_ARGS__ v = (__VA_ARGS__)MT_LOAD_##tn(*(const ct *)(in + i * s->sin));     \
            a = s->prod ? a * v : a + v;                                                   \
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
MT_L_INTBOOL(MT__SCAN_LINE, int64_t)
MT_L_BAREBONES(MT__SCAN_LINE, int64_t)
MT_L_FLOAT(MT__SCAN_LINE, double)

typedef void (*mt__scan_fn)(const mt__scan *, const char *, char *);
static const mt__scan_fn mt__scan_fns[MT_NUM_DTYPES] = {
    mt__scan_boolean, mt__scan_uint8,   mt__scan_int8,     mt__scan_int16,   mt__scan_int32,
    mt__scan_int64,   mt__scan_float16, mt__scan_bfloat16, mt__scan_float32, mt__scan_float64,
    [MT_UINT16] = mt__scan_uint16, [MT_UINT32] = mt__scan_uint32, [MT_UINT64] = mt__scan_uint64,
};

static void
mt__scan_lines(void *p, int64_t b, int64_t e)
{
    const mt__scan *s = p;
    for (int64_t line = b; line < e; line++) {
        const char *in = s->in;
        char *out = s->out;
        int64_t rem = line;
        for (int d = s->nd - 1; d >= 0; d--) {
            int64_t idx = rem % s->sz[d];
            rem /= s->sz[d];
            in += idx * s->stin[d];
            out += idx * s->stout[d];
        }
        mt__scan_fns[s->dt](s, in, out);
    }
}

mt_tensor *
mt_cumulative(mt_tensor *t, int64_t dim, bool prod)
{
    int d = mt_wrap_dim(dim, t->ndim);
    if (d < 0) {
        return NULL;
    }
    if (mt_dtype_is_complex(t->dtype)) {
        mt_error_set(MT_ENOTIMPL, "\"%s_cpu\" not implemented for '%s'", prod ? "cumprod" : "cumsum",
                     mt_dtype_scalar_name(t->dtype));
        return NULL;
    }
    if (mt_tensor_device(t).type != MT_CPU) {
        mt_error_set(MT_ENOTIMPL, "cumsum/cumprod: only cpu tensors are supported so far");
        return NULL;
    }
    mt_dtype odt = mt_dtype_is_floating(t->dtype) ? t->dtype : MT_INT64;
    mt_tensor *res = mt_tensor_empty(odt, t->ndim, t->sizes, MT_DEVICE_CPU);
    if (res == NULL || res->numel == 0) {
        return res;
    }
    int64_t isz = (int64_t)mt_tensor_itemsize(t), osz = (int64_t)mt_dtype_itemsize(odt);
    mt__scan s = {.prod = prod, .in = mt_tensor_data(t), .out = mt_tensor_data(res), .dt = t->dtype};
    s.n = t->ndim ? t->sizes[d] : 1;
    s.sin = t->ndim ? t->strides[d] * isz : 0;
    s.sout = t->ndim ? res->strides[d] * osz : 0;
    int64_t lines = 1;
    for (int i = 0; i < t->ndim; i++) {
        if (i == d) {
            continue;
        }
        s.sz[s.nd] = t->sizes[i];
        s.stin[s.nd] = t->strides[i] * isz;
        s.stout[s.nd] = res->strides[i] * osz;
        lines *= t->sizes[i];
        s.nd++;
    }
    int64_t grain = s.n >= MT_GRAIN_SIZE ? 1 : MT_GRAIN_SIZE / s.n;
    mt_parallel_for(0, lines, grain, mt__scan_lines, &s);
    return res;
}
