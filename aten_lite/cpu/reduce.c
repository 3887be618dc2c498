/* aten_lite/cpu/reduce.c - the cpu reduction kernel: layout, chunking, threads. */
#include <stdlib.h>
#include <string.h>

#include "aten_lite/cpu/reduce_kernels.h"
#include "aten_lite/kernel_stubs.h"
#include "aten_lite/parallel.h"
#include "c10_lite/checked.h"
#include "c10_lite/error.h"

/* Note [Reduction layout]
 * The input is viewed as (kept dims..., one reduced dim of R elements with
 * byte stride sr): reduced dims are ordered by stride and merged; when they
 * cannot merge (e.g. a transposed, sliced input) the input is copied
 * contiguous first.  Two kernels then cover the layouts:
 *   INNER  each output reduces a vector (contiguous when sr == itemsize);
 *   COLS   the innermost kept dim is contiguous while the reduced stride is
 *          large (x.sum(0) of a row-major matrix): tiles of 64 outputs reduce
 *          rows together, reading memory in order.
 * The reduced range is cut into fixed chunks (MT__CHUNK elements, or rows),
 * chunk partials are combined in chunk order: the arithmetic depends only on
 * the shape, never on how many threads ran it. */
#define MT__CHUNK 32768

enum { MT__INNER, MT__COLS };

typedef struct {
    const mt_reduce_kernel *k;
    int mode;
    int64_t R, sr, chunk, nch;
    int nk;                    /* kept dims (COLS: the column dim is kc) */
    int kc;
    int64_t W;                 /* tile width (COLS) or 1 */
    int64_t ksz[MT_MAX_DIMS];  /* kept sizes (COLS: kc counts tiles) */
    int64_t kin[MT_MAX_DIMS];  /* input byte strides of kept dims */
    int64_t kout[MT_MAX_DIMS]; /* output byte strides of kept dims */
    int64_t colsz;             /* COLS: size of the column dim */
    const char *in;
    char *out;
    char *partials;            /* [group][chunk][W] accs, or NULL when nch == 1 */
    int64_t ngroups;
} mt__red;

/* Input/output pointers and width of group g. */
static void
mt__group_ptrs(const mt__red *r, int64_t g, const char **in, char **out, int64_t *w)
{
    const char *pi = r->in;
    char *po = r->out;
    *w = 1;
    for (int d = r->nk - 1; d >= 0; d--) {
        int64_t idx = g % r->ksz[d];
        g /= r->ksz[d];
        if (r->mode == MT__COLS && d == r->kc) {
            int64_t col = idx * r->W;
            *w = r->colsz - col < r->W ? r->colsz - col : r->W;
            idx = col;
        }
        pi += idx * r->kin[d];
        po += idx * r->kout[d];
    }
    *in = pi;
    *out = po;
}

static void
mt__reduce_units(void *p, int64_t b, int64_t e)
{
    mt__red *r = p;
    _Alignas(16) char accs[MT_REDUCE_ACC_SIZE * MT_REDUCE_COLS_MAX];
    for (int64_t u = b; u < e; u++) {
        int64_t g = u / r->nch, c = u % r->nch;
        const char *in;
        char *out;
        int64_t w;
        mt__group_ptrs(r, g, &in, &out, &w);
        int64_t start = c * r->chunk;
        int64_t n = r->R - start < r->chunk ? r->R - start : r->chunk;
        char *dst = r->partials ? r->partials + (u * r->W) * MT_REDUCE_ACC_SIZE : accs;
        if (r->mode == MT__INNER) {
            r->k->vec(dst, in + start * r->sr, n, r->sr, start);
        }
        else {
            r->k->cols(dst, in + start * r->sr, n, r->sr, w, r->kin[r->kc], start);
        }
        if (r->partials == NULL) {
            int64_t ostride = r->mode == MT__COLS ? r->kout[r->kc] : 0;
            for (int64_t j = 0; j < w; j++) {
                r->k->store(out + j * ostride, dst + j * MT_REDUCE_ACC_SIZE);
            }
        }
    }
}

static void
mt__reduce_finish(void *p, int64_t b, int64_t e)
{
    mt__red *r = p;
    for (int64_t g = b; g < e; g++) {
        const char *in;
        char *out;
        int64_t w;
        mt__group_ptrs(r, g, &in, &out, &w);
        int64_t ostride = r->mode == MT__COLS ? r->kout[r->kc] : 0;
        for (int64_t j = 0; j < w; j++) {
            char *acc = r->partials + ((g * r->nch) * r->W + j) * MT_REDUCE_ACC_SIZE;
            for (int64_t c = 1; c < r->nch; c++) {
                r->k->combine(acc, r->partials + ((g * r->nch + c) * r->W + j) * MT_REDUCE_ACC_SIZE);
            }
            r->k->store(out + j * ostride, acc);
        }
    }
}

static int
mt__cpu_reduce_check(mt_reduce_op op, mt_dtype dt)
{
    if (mt_cpu_reduce_kernel(op, dt) != NULL) {
        return MT_OK;
    }
    int rc = mt_reject_barebones(dt, mt_reduce_op_name(op));
    if (rc < 0) {
        return rc;
    }
    /* max/min/argmax/argmin of complex tensors */
    return mt_error_set(MT_ERUNTIME, "%s(): does not support complex input", mt_reduce_op_name(op));
}

static int
mt__cpu_reduce(mt_reduce_op op, mt_tensor *res, const mt_tensor *src, const mt_reduce_geometry *g)
{
    const mt_reduce_kernel *k = mt_cpu_reduce_kernel(op, src->dtype);
    if (k == NULL) {
        return mt__cpu_reduce_check(op, src->dtype);
    }
    int64_t osize = (int64_t)mt_tensor_itemsize(res);
    if (g->R == 0) {
        _Alignas(16) char acc[MT_REDUCE_ACC_SIZE];
        k->init(acc);
        char *o = mt_tensor_data(res);
        for (int64_t i = 0; i < res->numel; i++) {
            k->store(o + i * osize, acc);
        }
        return MT_OK;
    }
    bool arg = op == MT_REDUCE_ARGMAX || op == MT_REDUCE_ARGMIN;
    int64_t isz = (int64_t)mt_tensor_itemsize(src);
    int nk = g->nk;
    mt__red r; /* no aggregate initialiser: its arrays are MT_MAX_DIMS long */
    r.k = k;
    r.mode = MT__INNER;
    r.R = g->R;
    r.sr = g->sr * isz;
    r.nk = nk;
    r.kc = -1;
    r.W = 1;
    r.colsz = 0;
    r.in = mt_tensor_data(src);
    r.out = mt_tensor_data(res);
    r.partials = NULL;
    int64_t ngroups = 1;
    for (int i = 0; i < nk; i++) {
        r.ksz[i] = g->ksz[i];
        r.kin[i] = g->kin[i] * isz;
        r.kout[i] = g->kout[i] * osize;
        ngroups *= r.ksz[i];
    }
    /* COLS when the reduced stride is large and some kept dim is contiguous */
    if (!arg && r.sr != isz && nk > 0) {
        for (int i = nk - 1; i >= 0; i--) {
            if (r.kin[i] == isz && r.ksz[i] > 1) {
                r.mode = MT__COLS;
                r.kc = i;
                r.W = MT_REDUCE_COLS_MAX;
                r.colsz = r.ksz[i];
                ngroups = ngroups / r.colsz * ((r.colsz + r.W - 1) / r.W);
                r.ksz[i] = (r.colsz + r.W - 1) / r.W;
                break;
            }
        }
    }
    r.ngroups = ngroups;
    int64_t R = g->R;
    r.chunk = r.mode == MT__COLS ? (MT__CHUNK / r.W > 16 ? MT__CHUNK / r.W : 16) : MT__CHUNK;
    r.nch = (R + r.chunk - 1) / r.chunk;
    if (r.nch > 1) {
        int64_t np;
        r.partials = mt_ckd_mul(&np, ngroups, r.nch) || mt_ckd_mul(&np, np, r.W)
                         ? NULL : mt_malloc_array(np, MT_REDUCE_ACC_SIZE);
        if (r.partials == NULL) {
            return mt_error_set(MT_ENOMEM, "out of memory in reduction");
        }
    }
    int64_t units = ngroups * r.nch;
    int64_t per_unit = (R < r.chunk ? R : r.chunk) * r.W;
    int64_t grain = per_unit >= MT_GRAIN_SIZE ? 1 : MT_GRAIN_SIZE / (per_unit > 0 ? per_unit : 1);
    mt_parallel_for(0, units, grain, mt__reduce_units, &r);
    if (r.partials != NULL) {
        mt_parallel_for(0, ngroups, grain, mt__reduce_finish, &r);
        free(r.partials);
    }
    return MT_OK;
}

static const mt_reduce_kernels mt__cpu_reduce_kernels = {
    .check = mt__cpu_reduce_check,
    .reduce = mt__cpu_reduce,
};

void
mt__cpu_reduce_register(void)
{
    MT_REGISTER_STUB(reduce, MT_CPU, &mt__cpu_reduce_kernels);
}
