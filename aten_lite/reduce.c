/* aten_lite/reduce.c - reductions over any set of dims: output shape, layout, the kernel call. */
#include <string.h>

#include "aten_lite/kernel_stubs.h"
#include "aten_lite/ops.h"
#include "c10_lite/error.h"

/* The input of a reduction is seen as (kept dims..., one reduced range), see
 * mt_reduce_geometry: the reduced dims are ordered by stride and merged; when they cannot
 * merge (e.g. a transposed, sliced input) the input is copied contiguous first.  How the
 * range is then cut up is the kernel's (Note [Reduction layout] for the cpu one). */

static const char *const mt__reduce_names[MT_NUM_REDUCE_OPS] = {
    [MT_REDUCE_SUM] = "sum",       [MT_REDUCE_PROD] = "prod",     [MT_REDUCE_MAX] = "max",
    [MT_REDUCE_MIN] = "min",       [MT_REDUCE_ALL] = "all",       [MT_REDUCE_ANY] = "any",
    [MT_REDUCE_ARGMAX] = "argmax", [MT_REDUCE_ARGMIN] = "argmin",
};

const char *
mt_reduce_op_name(mt_reduce_op op)
{
    return (op >= 0 && op < MT_NUM_REDUCE_OPS) ? mt__reduce_names[op] : "?";
}

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
    mt_device_type dev = mt_tensor_device(t).type;
    int (*check)(mt_reduce_op, mt_dtype) = MT_STUB(reduce, check, dev, mt__reduce_names[op]);
    int (*reduce)(mt_reduce_op, mt_tensor *, const mt_tensor *, const mt_reduce_geometry *) =
        check != NULL ? MT_STUB(reduce, reduce, dev, mt__reduce_names[op]) : NULL;
    if (reduce == NULL || check(op, t->dtype) < 0) {
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
    mt_tensor *res = mt_tensor_empty(odt, ond, osz, mt_tensor_device(t));
    if (res == NULL || res->numel == 0) {
        return res;
    }
    mt_reduce_geometry g; /* no aggregate initialiser: its arrays are MT_MAX_DIMS long */
    g.R = R;
    g.sr = 1;
    g.nk = nk;
    if (R == 0) {
        if (reduce(op, res, t, &g) < 0) {
            mt_tensor_decref(res);
            return NULL;
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
    g.sr = sr;
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
                g.kout[ki++] = ostr[oi];
            }
            if (!mask[i] || keepdim) {
                oi++;
            }
        }
    }
    for (int i = 0; i < nk; i++) {
        g.ksz[i] = src->sizes[copy ? i : kept[i]];
        g.kin[i] = src->strides[copy ? i : kept[i]];
    }
    int rc = reduce(op, res, src, &g);
    mt_tensor_decref(copy);
    if (rc < 0) {
        mt_tensor_decref(res);
        return NULL;
    }
    return res;
}
