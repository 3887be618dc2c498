/* aten_lite/reduce.c - reductions over any set of dims: layout, chunking, threads. */
#include <stdlib.h>
#include <string.h>

#include "aten_lite/cpu/reduce_kernels.h"
#include "aten_lite/ops.h"
#include "aten_lite/parallel.h"
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

static const char *const mt__reduce_names[MT_NUM_REDUCE_OPS] = {
    [MT_REDUCE_SUM] = "sum",       [MT_REDUCE_PROD] = "prod",     [MT_REDUCE_MAX] = "max",
    [MT_REDUCE_MIN] = "min",       [MT_REDUCE_ALL] = "all",       [MT_REDUCE_ANY] = "any",
    [MT_REDUCE_ARGMAX] = "argmax", [MT_REDUCE_ARGMIN] = "argmin",
};

int
mt_reduce_dims_mask(const mt_tensor *t, int ndims, const int64_t *dims, bool *mask)
{
    int n = t->ndim > 0 ? t->ndim : 1;
    memset(mask, 0, sizeof(bool) * (size_t)n);
    if (dims == NULL) {
        for (int d = 0; d < n; d++) {
            mask[d] = true;
        }
        return MT_OK;
    }
    for (int i = 0; i < ndims; i++) {
        int d = mt_wrap_dim(dims[i], t->ndim);
        if (d < 0) {
            return d;
        }
        if (mask[d]) {
            return mt_error_set(MT_ERUNTIME, "dim %d appears multiple times in the list of dims", d);
        }
        mask[d] = true;
    }
    return MT_OK;
}

mt_tensor *
mt_reduce(mt_reduce_op op, mt_tensor *t, const bool *mask, bool keepdim)
{
    if (mt_tensor_device(t).type != MT_CPU) {
        mt_error_set(MT_ENOTIMPL, "%s: only cpu tensors are supported so far", mt__reduce_names[op]);
        return NULL;
    }
    const mt_reduce_kernel *k = mt_cpu_reduce_kernel(op, t->dtype);
    if (k == NULL && mt_reject_barebones(t->dtype, mt__reduce_names[op]) < 0) {
        return NULL;
    }
    if (k == NULL) { /* max/min/argmax/argmin of complex tensors */
        mt_error_set(MT_ERUNTIME, "%s(): does not support complex input", mt__reduce_names[op]);
        return NULL;
    }
    mt_dtype odt = mt_reduce_out_dtype(op, t->dtype);
    bool needs_elems = op == MT_REDUCE_MAX || op == MT_REDUCE_MIN || op == MT_REDUCE_ARGMAX ||
                       op == MT_REDUCE_ARGMIN;
    /* output shape; kept dims in order */
    int64_t osz[MT_MAX_DIMS];
    int ond = 0, nk = 0;
    int kept[MT_MAX_DIMS], red[MT_MAX_DIMS], nr = 0;
    int64_t R = 1;
    for (int d = 0; d < t->ndim; d++) {
        if (mask[d]) {
            red[nr++] = d;
            R *= t->sizes[d];
            if (keepdim) {
                osz[ond++] = 1;
            }
        }
        else {
            kept[nk++] = d;
            osz[ond++] = t->sizes[d];
        }
    }
    if (needs_elems && R == 0) {
        bool all = nk == 0;
        if (all) {
            mt_error_set(MT_EINDEX, "%s(): Expected reduction dim to be specified for input.numel() == 0.",
                         mt__reduce_names[op]);
        }
        else {
            mt_error_set(MT_EINDEX, "%s(): Expected reduction dim %d to have non-zero size.",
                         mt__reduce_names[op], red[0]);
        }
        return NULL;
    }
    mt_tensor *res = mt_tensor_empty(odt, ond, osz, MT_DEVICE_CPU);
    if (res == NULL || res->numel == 0) {
        return res;
    }
    if (R == 0) {
        _Alignas(16) char acc[MT_REDUCE_ACC_SIZE];
        k->init(acc);
        char *o = mt_tensor_data(res);
        for (int64_t i = 0; i < res->numel; i++) {
            k->store(o + i * (int64_t)mt_dtype_itemsize(odt), acc);
        }
        return res;
    }
    /* order the reduced dims (by decreasing stride, except for arg ops whose
     * flat index needs row-major order) and try to merge them into one */
    mt_tensor *src = t;
    mt_tensor *copy = NULL;
    bool arg = op == MT_REDUCE_ARGMAX || op == MT_REDUCE_ARGMIN;
    if (!arg) {
        for (int i = 1; i < nr; i++) {
            for (int j = i; j > 0 && t->strides[red[j - 1]] < t->strides[red[j]]; j--) {
                int tmp = red[j];
                red[j] = red[j - 1];
                red[j - 1] = tmp;
            }
        }
    }
    bool mergeable = true;
    int64_t sr = 1;
    {
        int64_t expect = -1;
        for (int i = nr - 1; i >= 0; i--) {
            int d = red[i];
            if (t->sizes[d] == 1) {
                continue;
            }
            if (expect >= 0 && t->strides[d] != expect) {
                mergeable = false;
            }
            if (expect < 0) {
                sr = t->strides[d];
            }
            expect = t->strides[d] * t->sizes[d];
        }
    }
    if (!mergeable) {
        int64_t perm[MT_MAX_DIMS];
        for (int i = 0; i < nk; i++) {
            perm[i] = kept[i];
        }
        for (int i = 0; i < nr; i++) {
            perm[nk + i] = red[i];
        }
        mt_tensor *pv = mt_permute(t, t->ndim, perm);
        copy = pv ? mt_contiguous(pv) : NULL;
        mt_tensor_decref(pv);
        if (copy == NULL) {
            mt_tensor_decref(res);
            return NULL;
        }
        src = copy;
        for (int i = 0; i < nk; i++) {
            kept[i] = i;
        }
        sr = 1;
    }
    int64_t isz = (int64_t)mt_tensor_itemsize(src);
    int64_t osize = (int64_t)mt_dtype_itemsize(odt);
    mt__red r = {.k = k, .mode = MT__INNER, .R = R, .sr = sr * isz, .nk = nk, .kc = -1, .W = 1,
                 .in = mt_tensor_data(src), .out = mt_tensor_data(res)};
    /* output strides of kept dims (res is contiguous with keepdim 1s interleaved) */
    {
        int64_t s = 1;
        int64_t ostr[MT_MAX_DIMS];
        for (int i = ond - 1; i >= 0; i--) {
            ostr[i] = s;
            s *= osz[i];
        }
        for (int i = 0, oi = 0, ki = 0; i < t->ndim; i++) {
            if (!mask[i]) {
                r.kout[ki++] = ostr[oi] * osize;
            }
            if (!mask[i] || keepdim) {
                oi++;
            }
        }
    }
    int64_t ngroups = 1;
    for (int i = 0; i < nk; i++) {
        r.ksz[i] = src->sizes[copy ? i : kept[i]];
        r.kin[i] = src->strides[copy ? i : kept[i]] * isz;
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
    r.chunk = r.mode == MT__COLS ? (MT__CHUNK / r.W > 16 ? MT__CHUNK / r.W : 16) : MT__CHUNK;
    r.nch = (R + r.chunk - 1) / r.chunk;
    if (r.nch > 1) {
        int64_t np;
        r.partials = mt_ckd_mul(&np, ngroups, r.nch) || mt_ckd_mul(&np, np, r.W)
                         ? NULL : mt_malloc_array(np, MT_REDUCE_ACC_SIZE);
        if (r.partials == NULL) {
            mt_tensor_decref(copy);
            mt_tensor_decref(res);
            mt_error_set(MT_ENOMEM, "out of memory in reduction");
            return NULL;
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
    mt_tensor_decref(copy);
    return res;
}
