/* aten_lite/indexing.c - t[key] and t[key] = v: the plan of a key and its execution. See Note [Indexing plans]. */
#include "aten_lite/indexing.h"

#include <string.h>

#include "aten_lite/ops.h"
#include "c10_lite/error.h"

/* Replaces *cur by r (a new view of it); r NULL keeps *cur and fails. */
static int
mt__advance(mt_tensor **cur, mt_tensor *r)
{
    if (r == NULL) {
        return mt_error_code();
    }
    mt_tensor_decref(*cur);
    *cur = r;
    return MT_OK;
}

static int
mt__bad_index_dtype(void)
{
    return mt_error_set(MT_EINDEX, "tensors used as indices must be long, int, byte or bool tensors");
}

/* How many dims of self an item consumes. */
static int
mt__consumed(const mt_index_item *it)
{
    switch (it->kind) {
    case MT_INDEX_INT:
    case MT_INDEX_SLICE:
        return 1;
    case MT_INDEX_TENSOR:
        if (it->tensor->dtype == MT_BOOL || it->tensor->dtype == MT_UINT8) {
            return it->tensor->ndim; /* a mask covers as many dims as it has */
        }
        return 1;
    default:
        return 0;
    }
}

/* Binds index (a new reference, consumed) to dim of the plan's view. */
static int
mt__bind(mt_index_plan *p, int64_t dim, mt_tensor *index)
{
    if (index == NULL) {
        return mt_error_code();
    }
    if (p->nadv >= MT_MAX_DIMS) {
        mt_tensor_decref(index);
        return mt_error_set(MT_EINDEX, "too many indices (at most %d dims)", MT_MAX_DIMS);
    }
    p->dims[p->nadv] = dim;
    p->index[p->nadv++] = index;
    return MT_OK;
}

/* A k-dim mask at dim: its shape must match the view's next k dims; binds the
 * coordinates of its non-zero elements. */
static int
mt__bind_mask(mt_index_plan *p, int64_t dim, const mt_tensor *mask)
{
    const mt_tensor *v = p->view;
    for (int j = 0; j < mask->ndim; j++) {
        if (dim + j >= v->ndim || mask->sizes[j] != v->sizes[dim + j]) {
            char ms[256], vs[256];
            mt_format_sizes(ms, sizeof(ms), mask->ndim, mask->sizes);
            mt_format_sizes(vs, sizeof(vs), v->ndim, v->sizes);
            return mt_error_set(MT_EINDEX, "The shape of the mask %s at index %d does not match "
                                           "the shape of the indexed tensor %s at index %lld",
                                ms, j, vs, (long long)(dim + j));
        }
    }
    mt_tensor *b = NULL;
    if (mask->dtype == MT_UINT8) { /* a byte mask: its non-zero bytes */
        b = mt_binary(MT_OP_NE, mt_arg_tensor((mt_tensor *)mask), mt_arg_scalar(mt_scalar_int(0)),
                      NULL, mt_scalar_int(1));
        if (b == NULL) {
            return mt_error_code();
        }
        mask = b;
    }
    const int k = mask->ndim;
    mt_tensor *nz = mt_nonzero(mask);
    mt_tensor_decref(b); /* mask may be b: not read after this */
    if (nz == NULL) {
        return mt_error_code();
    }
    int rc = MT_OK;
    for (int j = 0; j < k && rc == MT_OK; j++) {
        rc = mt__bind(p, dim + j, mt_select(nz, 1, j));
    }
    mt_tensor_decref(nz);
    return rc;
}

/* Applies one item at *dim. */
static int
mt__apply(mt_index_plan *p, int64_t *dim, const mt_index_item *it, int skip)
{
    switch (it->kind) {
    case MT_INDEX_ELLIPSIS:
        *dim += skip;
        return MT_OK;
    case MT_INDEX_NONE:
        return mt__advance(&p->view, mt_unsqueeze(p->view, (*dim)++));
    case MT_INDEX_BOOL: {
        int rc = mt__advance(&p->view, mt_unsqueeze(p->view, *dim));
        if (rc < 0) {
            return rc;
        }
        /* True indexes the new unit dim with [0], False with [] (an empty result) */
        const int64_t n = it->value ? 1 : 0;
        mt_tensor *ix = mt_tensor_empty(MT_INT64, 1, &n, MT_DEVICE_CPU);
        if (ix != NULL && n) {
            ((int64_t *)mt_tensor_data(ix))[0] = 0;
        }
        return mt__bind(p, (*dim)++, ix);
    }
    case MT_INDEX_SLICE:
        if (*dim >= p->view->ndim) {
            return mt_error_set(MT_EINDEX, "too many indices for tensor of dimension %d", p->view->ndim);
        }
        return mt__advance(&p->view, mt_slice(p->view, (*dim)++, it->start, it->stop, it->step));
    case MT_INDEX_INT:
        return mt__advance(&p->view, mt_select(p->view, *dim, it->index));
    case MT_INDEX_TENSOR: {
        const mt_tensor *t = it->tensor;
        if (t->dtype == MT_BOOL || t->dtype == MT_UINT8) {
            if (t->ndim == 0) { /* a 0-d mask is True or False */
                mt_scalar v;
                int rc = mt_item(t, &v);
                if (rc < 0) {
                    return rc;
                }
                const mt_index_item b = {.kind = MT_INDEX_BOOL, .value = mt_scalar_to_double(v) != 0};
                return mt__apply(p, dim, &b, skip);
            }
            int rc = mt__bind_mask(p, *dim, t);
            *dim += t->ndim;
            return rc;
        }
        if (t->ndim == 0) { /* a 0-d integer tensor (any integer dtype) selects, as an int */
            mt_scalar v;
            int rc = mt_item(t, &v);
            if (rc < 0) {
                return rc;
            }
            return mt__advance(&p->view, mt_select(p->view, *dim, mt_scalar_to_int64(v)));
        }
        if (t->dtype != MT_INT64 && t->dtype != MT_INT32) {
            return mt__bad_index_dtype();
        }
        return mt__bind(p, (*dim)++, mt_alias(t));
    }
    }
    return mt_error_set(MT_EINVAL, "invalid index item");
}

void
mt_index_plan_release(mt_index_plan *plan)
{
    for (int i = 0; i < plan->nadv; i++) {
        mt_tensor_decref(plan->index[i]);
    }
    plan->nadv = 0;
    mt_tensor_decref(plan->view);
    plan->view = NULL;
}

int
mt_index_plan_make(const mt_tensor *self, int n, const mt_index_item *items, mt_index_plan *plan)
{
    plan->nadv = 0;
    plan->view = NULL;
    int consumed = 0, ellipses = 0, masks = 0, others = 0;
    for (int i = 0; i < n; i++) {
        if (items[i].kind == MT_INDEX_TENSOR && items[i].tensor->ndim > 0) {
            const mt_dtype dt = items[i].tensor->dtype;
            masks += dt == MT_BOOL || dt == MT_UINT8;
            others += dt != MT_BOOL && dt != MT_UINT8;
        }
        others += items[i].kind == MT_INDEX_BOOL;
        if (items[i].kind == MT_INDEX_TENSOR && items[i].tensor->dtype != MT_BOOL &&
            items[i].tensor->dtype != MT_UINT8 && !mt_dtype_is_integral(items[i].tensor->dtype, false)) {
            return mt__bad_index_dtype();
        }
        consumed += mt__consumed(&items[i]);
        ellipses += items[i].kind == MT_INDEX_ELLIPSIS;
    }
    if (ellipses > 1) {
        return mt_error_set(MT_EINDEX, "an index can only have a single ellipsis ('...')");
    }
    if (consumed > self->ndim) {
        return mt_error_set(MT_EINDEX, "too many indices for tensor of dimension %d", self->ndim);
    }
    plan->one_mask = masks == 1 && others == 0;
    plan->view = mt_alias(self);
    if (plan->view == NULL) {
        return mt_error_code();
    }
    int64_t dim = 0;
    for (int i = 0; i < n; i++) {
        int rc = mt__apply(plan, &dim, &items[i], self->ndim - consumed);
        if (rc < 0) {
            mt_index_plan_release(plan);
            return rc;
        }
    }
    return MT_OK;
}

/* Whether the indexed dims are adjacent and not first: then the index dims
 * replace them in place (NumPy's rule), else they go first. */
static bool
mt__in_place(const mt_index_plan *p)
{
    for (int i = 1; i < p->nadv; i++) {
        if (p->dims[i] != p->dims[i - 1] + 1) {
            return false;
        }
    }
    return p->dims[0] > 0;
}

/* The view with the indexed dims moved first (in order), the others after. */
static mt_tensor *
mt__indexed_first(const mt_index_plan *p)
{
    int64_t order[MT_MAX_DIMS];
    bool taken[MT_MAX_DIMS] = {false};
    int k = 0;
    for (int i = 0; i < p->nadv; i++) {
        order[k++] = p->dims[i];
        taken[p->dims[i]] = true;
    }
    for (int d = 0; d < p->view->ndim; d++) {
        if (!taken[d]) {
            order[k++] = d;
        }
    }
    return mt_permute(p->view, p->view->ndim, order);
}

/* The permutation taking B + rest[:at] + rest[at:] (nb index dims first) to
 * rest[:at] + B + rest[at:], or its inverse. */
static void
mt__placement(int ndim, int nb, int64_t at, bool inverse, int64_t *order)
{
    int k = 0;
    if (!inverse) {
        for (int64_t d = nb; d < nb + at; d++) {
            order[k++] = d;
        }
        for (int d = 0; d < nb; d++) {
            order[k++] = d;
        }
    }
    else {
        for (int64_t d = at; d < at + nb; d++) {
            order[k++] = d;
        }
        for (int64_t d = 0; d < at; d++) {
            order[k++] = d;
        }
    }
    for (int64_t d = nb + at; d < ndim; d++) {
        order[k++] = d;
    }
}

mt_tensor *
mt_index_plan_get(const mt_index_plan *plan)
{
    const mt_tensor *v = plan->view;
    if (plan->nadv == 0) {
        return mt_alias(v);
    }
    if (plan->nadv == 1 && plan->index[0]->ndim == 1 && v->ndim > 0 &&
        mt_device_eq(mt_tensor_device(plan->index[0]), mt_tensor_device(v))) {
        /* one vector index (on v's device): gathered in place along its dim */
        return mt_index_select(v, plan->dims[0], plan->index[0], true);
    }
    mt_tensor *front = mt__indexed_first(plan);
    if (front == NULL) {
        return NULL;
    }
    mt_tensor *r = mt_index_get(front, plan->nadv, plan->index);
    mt_tensor_decref(front);
    if (r == NULL || !mt__in_place(plan)) {
        return r;
    }
    int64_t order[MT_MAX_DIMS];
    const int nb = r->ndim - (v->ndim - plan->nadv);
    mt__placement(r->ndim, nb, plan->dims[0], false, order);
    mt_tensor *moved = mt_permute(r, r->ndim, order);
    mt_tensor_decref(r);
    if (moved == NULL) {
        return NULL;
    }
    mt_tensor *c = mt_contiguous(moved);
    mt_tensor_decref(moved);
    return c;
}

/* values without leading size-1 dims beyond ndim (torch's setitem rule). */
static mt_tensor *
mt__strip_leading_ones(const mt_tensor *values, int ndim)
{
    int64_t lead[MT_MAX_DIMS];
    int n = 0;
    while (values->ndim - n > ndim && values->sizes[n] == 1) {
        lead[n] = n;
        n++;
    }
    return mt_squeeze(values, n, lead);
}

static int mt__plan_put(const mt_index_plan *plan, const mt_tensor *values);

int
mt_index_plan_put(const mt_index_plan *plan, const mt_tensor *values)
{
    mt_tensor *v = plan->view;
    if (plan->nadv == 0) {
        mt_tensor *s = mt__strip_leading_ones(values, v->ndim);
        if (s == NULL) {
            return mt_error_code();
        }
        mt_tensor *e = mt_expand(s, v->ndim, v->sizes);
        mt_tensor_decref(s);
        if (e == NULL) {
            return mt_error_code();
        }
        int rc = mt_copy_(v, e);
        mt_tensor_decref(e);
        return rc;
    }
    if (mt_tensor_device(v).type == MT_CPU) {
        return mt__plan_put(plan, values);
    }
    mt_tensor *moved = mt_index_put_values_on(values, mt_tensor_device(v));
    if (moved == NULL) {
        return mt_error_code();
    }
    int rc = mt__plan_put(plan, moved);
    mt_tensor_decref(moved);
    return rc;
}

/* mt_index_plan_put with advanced indices, values on v's device or a cpu tensor with v there */
static int
mt__plan_put(const mt_index_plan *plan, const mt_tensor *values)
{
    mt_tensor *v = plan->view;
    if (values->dtype != v->dtype && !(plan->one_mask && values->numel == 1)) {
        return mt_error_set(MT_ERUNTIME, "Index put requires the source and destination dtypes match, "
                                         "got %s for the destination and %s for the source.",
                            mt_dtype_scalar_name(v->dtype), mt_dtype_scalar_name(values->dtype));
    }
    int nb;
    int64_t bshape[MT_MAX_DIMS];
    int rc = mt_index_broadcast_shape(plan->nadv, plan->index, &nb, bshape);
    if (rc < 0) {
        return rc;
    }
    const int nrest = v->ndim - plan->nadv;
    if (nb + nrest > MT_MAX_DIMS) {
        return mt_error_set(MT_EINDEX, "too many dimensions in the indexing result");
    }
    mt_tensor *front = mt__indexed_first(plan);
    if (front == NULL) {
        return mt_error_code();
    }
    mt_tensor *val = mt__strip_leading_ones(values, nb + nrest);
    if (val != NULL && mt__in_place(plan)) {
        /* values are laid out like the result, rest[:p] + B + rest[p:]: bring B first */
        const int64_t at = plan->dims[0];
        int64_t target[MT_MAX_DIMS], order[MT_MAX_DIMS];
        int k = 0;
        for (int d = 0; d < v->ndim; d++) {
            if (d == at) {
                memcpy(target + k, bshape, sizeof(int64_t) * (size_t)nb);
                k += nb;
            }
            if (d < at || d >= at + plan->nadv) {
                target[k++] = v->sizes[d];
            }
        }
        mt_tensor *e = mt_expand(val, k, target);
        mt_tensor_decref(val);
        val = NULL;
        if (e != NULL) {
            mt__placement(k, nb, at, true, order);
            val = mt_permute(e, k, order);
            mt_tensor_decref(e);
        }
    }
    rc = val == NULL ? mt_error_code() : mt_index_put_(front, plan->nadv, plan->index, val, false);
    mt_tensor_decref(val);
    mt_tensor_decref(front);
    return rc;
}
