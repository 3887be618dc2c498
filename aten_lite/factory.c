/* aten_lite/factory.c - tensors filled by formula: arange, linspace, logspace, eye. */
#include <math.h>

#include "aten_lite/cpu/kernels.h"
#include "aten_lite/kernel_stubs.h"
#include "aten_lite/ops.h"
#include "c10_lite/error.h"

#define MT__SEQ_BLOCK 1024

/* Writes f(i) for i in [0, n) (computed in double by `gen`) into the
 * contiguous 1-d tensor t, converting through a double scratch block. */
typedef double (*mt__seq_fn)(const void *ctx, int64_t i);

static void
mt__fill_seq(mt_tensor *t, mt__seq_fn gen, const void *ctx)
{
    double buf[MT__SEQ_BLOCK];
    mt_loop_fn cast = mt_cpu_cast_loop(t->dtype, MT_FLOAT64);
    int64_t isz = (int64_t)mt_tensor_itemsize(t);
    for (int64_t b = 0; b < t->numel; b += MT__SEQ_BLOCK) {
        int64_t n = t->numel - b < MT__SEQ_BLOCK ? t->numel - b : MT__SEQ_BLOCK;
        for (int64_t i = 0; i < n; i++) {
            buf[i] = gen(ctx, b + i);
        }
        char *data[2] = {mt_tensor_data(t) + b * isz, (char *)buf};
        int64_t st[2] = {isz, sizeof(double)};
        cast(data, &n, st, NULL);
    }
}


static double
mt__arange_at(const void *p, int64_t i)
{
    const mt_sequence *c = p;
    return c->start + (double)i * c->step;
}

static double
mt__linspace_at(const void *p, int64_t i)
{
    const mt_sequence *c = p;
    /* symmetric, as torch: exact at both ends (one step gives start) */
    if (i < c->steps / 2 || c->steps == 1) {
        return c->start + (double)i * c->step;
    }
    return c->end - (double)(c->steps - 1 - i) * c->step;
}

static double
mt__logspace_at(const void *p, int64_t i)
{
    const mt_sequence *c = p;
    return pow(c->base, mt__linspace_at(p, i));
}

/* t (stolen) after the device's kernel wrote seq into it, or NULL. */
static mt_tensor *
mt__run_sequence(int (*kernel)(mt_tensor *, const mt_sequence *), mt_tensor *t,
                 const mt_sequence *seq)
{
    if (t->numel > 0 && kernel(t, seq) < 0) {
        mt_tensor_decref(t);
        return NULL;
    }
    return t;
}

/* The cpu sequence kernel: int64 aranges exactly, the rest computed in double. */
int
mt__cpu_sequence(mt_tensor *t, const mt_sequence *seq)
{
    if (seq->kind == MT_SEQ_ARANGE_INT64) {
        int64_t *p = (int64_t *)mt_tensor_data(t);
        for (int64_t i = 0; i < t->numel; i++) {
            p[i] = seq->start_i + i * seq->step_i;
        }
        return MT_OK;
    }
    mt__fill_seq(t, seq->kind == MT_SEQ_ARANGE     ? mt__arange_at
                    : seq->kind == MT_SEQ_LINSPACE ? mt__linspace_at
                                                   : mt__logspace_at,
                 seq);
    return MT_OK;
}

mt_tensor *
mt_arange(mt_scalar start, mt_scalar end, mt_scalar step, mt_dtype dt, mt_device dev)
{
    double s = mt_scalar_to_double(start), e = mt_scalar_to_double(end), st = mt_scalar_to_double(step);
    if (st == 0) {
        mt_error_set(MT_ERUNTIME, "step must be nonzero");
        return NULL;
    }
    if (!isfinite(s) || !isfinite(e)) {
        mt_error_set(MT_ERUNTIME, "unsupported range: %g -> %g", s, e);
        return NULL;
    }
    if ((st > 0 && e < s) || (st < 0 && e > s)) {
        mt_error_set(MT_ERUNTIME, "upper bound and larger bound inconsistent with step sign");
        return NULL;
    }
    bool ints = start.kind != MT_SCALAR_FLOAT && end.kind != MT_SCALAR_FLOAT &&
                step.kind != MT_SCALAR_FLOAT;
    int64_t n;
    if (ints) {
        int64_t a = mt_scalar_to_int64(start), b = mt_scalar_to_int64(end), c = mt_scalar_to_int64(step);
        n = c > 0 ? (b - a + c - 1) / c : (a - b - c - 1) / -c;
    }
    else {
        double len = ceil((e - s) / st);
        if (len > 9.2e18) {
            mt_error_set(MT_ERUNTIME, "arange: too many elements (%g)", len);
            return NULL;
        }
        n = (int64_t)len;
    }
    if (n < 0) {
        n = 0;
    }
    int (*kernel)(mt_tensor *, const mt_sequence *) = MT_STUB(fill, sequence, dev.type, "arange");
    mt_tensor *t = kernel ? mt_tensor_empty(dt, 1, &n, dev) : NULL;
    if (t == NULL) {
        return NULL;
    }
    if (ints && dt == MT_INT64) {
        mt_sequence seq = {.kind = MT_SEQ_ARANGE_INT64, .start_i = mt_scalar_to_int64(start),
                           .step_i = mt_scalar_to_int64(step)};
        return mt__run_sequence(kernel, t, &seq);
    }
    if (mt_dtype_is_integral(dt, false)) {
        /* as torch: the length comes from the values as given, the elements from start and
         * step converted to the result's integer type (arange(0, 5, 1.5) in int64 is
         * 0, 1, 2, 3) */
        s = trunc(s);
        st = trunc(st);
    }
    mt_sequence seq = {.kind = MT_SEQ_ARANGE, .start = s, .step = st};
    return mt__run_sequence(kernel, t, &seq);
}

mt_tensor *
mt_linspace(double start, double end, int64_t steps, double base, bool log, mt_dtype dt,
            mt_device dev)
{
    if (steps < 0) {
        mt_error_set(MT_ERUNTIME, "number of steps must be non-negative");
        return NULL;
    }
    int (*kernel)(mt_tensor *, const mt_sequence *) =
        MT_STUB(fill, sequence, dev.type, log ? "logspace" : "linspace");
    mt_tensor *t = kernel ? mt_tensor_empty(dt, 1, &steps, dev) : NULL;
    if (t == NULL) {
        return NULL;
    }
    mt_sequence seq = {
        .kind = log ? MT_SEQ_LOGSPACE : MT_SEQ_LINSPACE,
        .start = start,
        .end = end,
        .steps = steps,
        .step = steps > 1 ? (end - start) / (double)(steps - 1) : 0.0,
        .base = base,
    };
    return mt__run_sequence(kernel, t, &seq);
}

mt_tensor *
mt_eye(int64_t n, int64_t m, mt_dtype dt, mt_device dev)
{
    if (n < 0 || m < 0) {
        mt_error_set(MT_ERUNTIME, "%s must be greater or equal to 0, got %lld", n < 0 ? "n" : "m",
                     (long long)(n < 0 ? n : m));
        return NULL;
    }
    int64_t sizes[2] = {n, m};
    mt_tensor *t = mt_tensor_empty(dt, 2, sizes, dev);
    if (t == NULL || mt_fill_(t, mt_scalar_int(0)) < 0) {
        mt_tensor_decref(t);
        return NULL;
    }
    int64_t k = n < m ? n : m;
    int64_t diag_stride = m + 1;
    mt_tensor *d = mt_tensor_view_of(t, 1, &k, &diag_stride, 0);
    if (d == NULL || mt_fill_(d, mt_scalar_int(1)) < 0) {
        mt_tensor_decref(d);
        mt_tensor_decref(t);
        return NULL;
    }
    mt_tensor_decref(d);
    return t;
}
