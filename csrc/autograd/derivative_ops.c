/* csrc/autograd/derivative_ops.c - the vocabulary of the generated derivative formulas (see
 * Note [Declared nodes] in derivatives.h): plain C over impls, callable without the GIL. */
#include "csrc/autograd/derivatives.h"

#include "aten_lite/layer_norm.h"
#include "aten_lite/rnn.h"
#include "aten_lite/softmax.h"

#include <complex.h>
#include <math.h>
#include <string.h>

int
mt_d_err(void)
{
    int code = mt_error_code();
    return code < 0 ? code : mt_error_set(MT_ERUNTIME, "autograd: a derivative formula failed");
}

/* ---- numbers and tensors-or-numbers ----------------------------------------------------------- */

static bool
mt__is_complex_scalar(mt_scalar s)
{
    return s.kind == MT_SCALAR_COMPLEX;
}

int
mt_d_conj_arg(mt_arg a, mt_arg *out)
{
    if (a.t == NULL) {
        *out = mt_arg_scalar(mt__is_complex_scalar(a.s) ? mt_scalar_complex(conj(a.s.v.z)) : a.s);
        return 0;
    }
    if (!mt_dtype_is_complex(a.t->dtype)) {
        *out = mt_arg_tensor(mt_d_tensor_ref(a.t));
        return 0;
    }
    mt_tensor *c = mt_unary(MT_OP_CONJ_PHYSICAL, a.t, NULL);
    if (c == NULL) {
        return mt_d_err();
    }
    *out = mt_arg_tensor(c);
    return 0;
}

mt_scalar
mt_d_scalar_neg(mt_scalar a)
{
    switch (a.kind) {
    case MT_SCALAR_COMPLEX: return mt_scalar_complex(-a.v.z);
    case MT_SCALAR_FLOAT: return mt_scalar_float(-a.v.f);
    case MT_SCALAR_INT: return mt_scalar_int(-a.v.i);
    default: return mt_scalar_int(-(int64_t)a.v.b);
    }
}

mt_scalar
mt_d_scalar_log(mt_scalar a)
{
    double x = mt_scalar_to_double(a);
    return mt_scalar_float(x > 0 ? log(x) : x == 0 ? -INFINITY : NAN);
}

int
mt_d_neg_arg(mt_arg a, mt_arg *out)
{
    if (a.t == NULL) {
        *out = mt_arg_scalar(mt_d_scalar_neg(a.s));
        return 0;
    }
    mt_tensor *r = mt_unary(MT_OP_NEG, a.t, NULL);
    if (r == NULL) {
        return mt_d_err();
    }
    *out = mt_arg_tensor(r);
    return 0;
}

/* Python's arithmetic on two numbers: ints stay ints under + - * (and ** with a non-negative
 * int exponent), / and the rest give floats, complex when either is complex. */
mt_scalar
mt_d_scalar_op(mt_op op, mt_scalar a, mt_scalar b)
{
    if (a.kind == MT_SCALAR_COMPLEX || b.kind == MT_SCALAR_COMPLEX) {
        mt_complex128 x = mt_scalar_to_complex(a), y = mt_scalar_to_complex(b);
        switch (op) {
        case MT_OP_ADD: return mt_scalar_complex(x + y);
        case MT_OP_SUB: return mt_scalar_complex(x - y);
        case MT_OP_MUL: return mt_scalar_complex(x * y);
        case MT_OP_DIV: return mt_scalar_complex(x / y);
        case MT_OP_POW: return mt_scalar_complex(cpow(x, y));
        default: return mt_scalar_float(NAN);
        }
    }
    bool ints = a.kind <= MT_SCALAR_INT && b.kind <= MT_SCALAR_INT;
    if (ints) {
        int64_t x = mt_scalar_to_int64(a), y = mt_scalar_to_int64(b);
        switch (op) {
        case MT_OP_ADD: return mt_scalar_int(x + y);
        case MT_OP_SUB: return mt_scalar_int(x - y);
        case MT_OP_MUL: return mt_scalar_int(x * y);
        case MT_OP_POW:
            if (y >= 0) {
                int64_t r = 1;
                for (int64_t k = 0; k < y && k < 64; k++) {
                    r *= x;
                }
                return mt_scalar_int(r);
            }
            break;
        default: break;
        }
    }
    double x = mt_scalar_to_double(a), y = mt_scalar_to_double(b);
    switch (op) {
    case MT_OP_ADD: return mt_scalar_float(x + y);
    case MT_OP_SUB: return mt_scalar_float(x - y);
    case MT_OP_MUL: return mt_scalar_float(x * y);
    case MT_OP_DIV: return mt_scalar_float(x / y);
    case MT_OP_POW: return mt_scalar_float(pow(x, y));
    default: return mt_scalar_float(NAN);
    }
}

bool
mt_d_scalar_cmp(mt_op op, mt_scalar a, mt_scalar b)
{
    if (a.kind == MT_SCALAR_COMPLEX || b.kind == MT_SCALAR_COMPLEX) {
        bool eq = mt_scalar_to_complex(a) == mt_scalar_to_complex(b);
        return op == MT_OP_EQ ? eq : op == MT_OP_NE ? !eq : false;
    }
    double x = mt_scalar_to_double(a), y = mt_scalar_to_double(b);
    switch (op) {
    case MT_OP_EQ: return x == y;
    case MT_OP_NE: return x != y;
    case MT_OP_LT: return x < y;
    case MT_OP_LE: return x <= y;
    case MT_OP_GT: return x > y;
    default: return x >= y;
    }
}

int
mt_d_binary_arg(mt_op op, mt_arg a, mt_arg b, mt_arg *out)
{
    if (a.t == NULL && b.t == NULL) {
        if (op >= MT_OP_EQ && op <= MT_OP_GE) {
            *out = mt_arg_scalar(mt_scalar_bool(mt_d_scalar_cmp(op, a.s, b.s)));
        }
        else {
            *out = mt_arg_scalar(mt_d_scalar_op(op, a.s, b.s));
        }
        return 0;
    }
    mt_tensor *r = mt_binary(op, a, b, NULL, mt_scalar_int(1));
    if (r == NULL) {
        return mt_d_err();
    }
    *out = mt_arg_tensor(r);
    return 0;
}

mt_tensor *
mt_d_arg_as_tensor(mt_arg a)
{
    if (a.t != NULL) {
        return mt_d_tensor_ref(a.t);
    }
    mt_dtype dt = mt_scalar_dtype(a.s);
    mt_tensor *t = mt_tensor_empty(dt, 0, NULL, MT_DEVICE_CPU);
    if (t != NULL && mt_fill_(t, a.s) < 0) {
        mt_tensor_decref(t);
        return NULL;
    }
    return t;
}

/* ---- shapes ----------------------------------------------------------------------------- */

/* The reduce mask of `dim` (None or empty: every dim) over t. */
static int
mt__dmask(const mt_tensor *t, mt_dlist dim, bool *mask)
{
    if (!dim.present || dim.n == 0) {
        return mt_reduce_dims_mask(t, 0, NULL, mask);
    }
    return mt_reduce_dims_mask(t, dim.n, dim.v, mask);
}

mt_tensor *
mt_d_sum(mt_tensor *t, mt_dlist dim, bool keepdim)
{
    bool mask[MT_MAX_DIMS + 1];
    if (mt__dmask(t, dim, mask) < 0) {
        return NULL;
    }
    return mt_reduce(MT_REDUCE_SUM, t, mask, keepdim);
}

mt_tensor *
mt_d_mean(mt_tensor *t, mt_dlist dim, bool keepdim)
{
    bool mask[MT_MAX_DIMS + 1];
    if (mt__dmask(t, dim, mask) < 0) {
        return NULL;
    }
    double count = 1;
    for (int d = 0; d < t->ndim; d++) {
        count *= mask[d] ? (double)t->sizes[d] : 1.0;
    }
    mt_tensor *s = mt_reduce(MT_REDUCE_SUM, t, mask, keepdim);
    if (s == NULL) {
        return NULL;
    }
    mt_tensor *r = mt_binary(MT_OP_DIV, mt_arg_tensor(s), mt_arg_scalar(mt_scalar_float(count)),
                             s, mt_scalar_int(1));
    mt_tensor_decref(s);
    return r;
}

/* The sizes of a list, copied (the ops may rewrite a -1). */
static int
mt__dsizes(mt_dlist l, int64_t *out)
{
    if (l.n > MT_MAX_DIMS) {
        return mt_error_set(MT_ERUNTIME, "autograd: a shape of more than %d dims", MT_MAX_DIMS);
    }
    if (l.n > 0) {
        memcpy(out, l.v, (size_t)l.n * sizeof(int64_t));
    }
    return 0;
}

mt_tensor *
mt_d_reshape(mt_tensor *t, mt_dlist shape)
{
    int64_t s[MT_MAX_DIMS];
    return mt__dsizes(shape, s) < 0 ? NULL : mt_reshape(t, shape.n, s);
}

mt_tensor *
mt_d_view(mt_tensor *t, mt_dlist shape)
{
    int64_t s[MT_MAX_DIMS];
    return mt__dsizes(shape, s) < 0 ? NULL : mt_view(t, shape.n, s);
}

mt_tensor *
mt_d_expand(mt_tensor *t, mt_dlist shape)
{
    int64_t s[MT_MAX_DIMS];
    return mt__dsizes(shape, s) < 0 ? NULL : mt_expand(t, shape.n, s);
}

mt_tensor *
mt_d_unsqueeze(mt_tensor *t, int64_t dim)
{
    int d = mt_wrap_dim(dim, t->ndim + 1);
    return d < 0 ? NULL : mt_unsqueeze(t, d);
}

mt_tensor *
mt_d_squeeze(mt_tensor *t, mt_dlist dim)
{
    if (!dim.present) {
        return mt_squeeze(t, 0, NULL);
    }
    int64_t dims[MT_MAX_DIMS];
    if (dim.n > MT_MAX_DIMS) {
        return NULL;
    }
    for (int i = 0; i < dim.n; i++) {
        int d = mt_wrap_dim(dim.v[i], t->ndim);
        if (d < 0) {
            return NULL;
        }
        dims[i] = d;
    }
    return mt_squeeze(t, dim.n, dims);
}

/* t permuted by dims, or by their inverse (t was permuted by dims: back to its order) */
static mt_tensor *
mt__d_permute(mt_tensor *t, mt_dlist dims, bool inverse)
{
    int64_t d[MT_MAX_DIMS];
    if (dims.n != t->ndim) {
        mt_error_set(MT_ERUNTIME, "permute(): the number of dims does not match");
        return NULL;
    }
    for (int i = 0; i < dims.n; i++) {
        int w = mt_wrap_dim(dims.v[i], t->ndim);
        if (w < 0) {
            return NULL;
        }
        if (inverse) {
            d[w] = i;
        }
        else {
            d[i] = w;
        }
    }
    return mt_permute(t, dims.n, d);
}

mt_tensor *
mt_d_permute(mt_tensor *t, mt_dlist dims)
{
    return mt__d_permute(t, dims, false);
}

mt_tensor *
mt_d_narrow(mt_tensor *t, int64_t dim, int64_t start, int64_t length)
{
    int d = mt_wrap_dim(dim, t->ndim);
    if (d < 0) {
        return NULL;
    }
    if (start < 0) {
        start += t->sizes[d];
    }
    return mt_narrow(t, d, start, length);
}

mt_tensor *
mt_d_select(mt_tensor *t, int64_t dim, int64_t index)
{
    int d = mt_wrap_dim(dim, t->ndim);
    if (d < 0) {
        return NULL;
    }
    if (index < 0) {
        index += t->sizes[d];
    }
    return mt_select(t, d, index);
}

mt_tensor *
mt_d_flip(mt_tensor *t, mt_dlist dims)
{
    int64_t d[MT_MAX_DIMS];
    if (dims.n > MT_MAX_DIMS) {
        return NULL;
    }
    if (t->ndim == 0) {
        return mt_clone(t); /* a 0-d tensor flips to itself (after the dims' checks) */
    }
    for (int i = 0; i < dims.n; i++) {
        int w = mt_wrap_dim(dims.v[i], t->ndim);
        if (w < 0) {
            return NULL;
        }
        d[i] = w;
    }
    return mt_flip(t, dims.n, d);
}

mt_tensor *
mt_d_t(mt_tensor *t)
{
    return t->ndim < 2 ? mt_alias(t) : mt_transpose(t, 0, 1);
}

mt_tensor *
mt_d_masked_fill(mt_tensor *t, mt_tensor *mask, mt_arg value)
{
    mt_scalar v = value.t != NULL ? mt_scalar_load(mt_tensor_data(value.t), value.t->dtype)
                                  : value.s;
    uint64_t buf[2] = {0, 0};
    mt_scalar_store(v, t->dtype, buf);
    mt_tensor *r = mt_where(mask, mt_arg_scalar(mt_scalar_load(buf, t->dtype)), mt_arg_tensor(t),
                            NULL);
    if (r != NULL && r->dtype != t->dtype) {
        mt_tensor *c = mt_to_dtype(r, t->dtype, false);
        mt_tensor_decref(r);
        r = c;
    }
    return r;
}

mt_tensor *
mt_d_matmul(mt_tensor *a, mt_tensor *b)
{
    return mt_matmul(a, b);
}

mt_tensor *
mt_d_new_zeros(mt_tensor *like, mt_dlist shape)
{
    int64_t s[MT_MAX_DIMS];
    if (mt__dsizes(shape, s) < 0) {
        return NULL;
    }
    mt_tensor *r = mt_tensor_empty(like->dtype, shape.n, s, mt_tensor_device(like));
    if (r != NULL && mt_fill_(r, mt_scalar_int(0)) < 0) {
        mt_tensor_decref(r);
        return NULL;
    }
    return r;
}

mt_tensor *
mt_d_sum_to(mt_tensor *g, mt_dlist shape)
{
    bool same = g->ndim == shape.n &&
                (shape.n == 0 || memcmp(g->sizes, shape.v, (size_t)shape.n * sizeof(int64_t)) == 0);
    if (same) {
        return mt_d_tensor_ref(g);
    }
    int lead = g->ndim - shape.n;
    if (lead < 0) {
        mt_error_set(MT_ERUNTIME, "autograd: a gradient has fewer dimensions than its input");
        return NULL;
    }
    bool mask[MT_MAX_DIMS + 1] = {false}, any = false;
    for (int d = 0; d < g->ndim; d++) {
        mask[d] = d < lead || (shape.v[d - lead] == 1 && g->sizes[d] != 1);
        any |= mask[d];
    }
    mt_tensor *r = any ? mt_reduce(MT_REDUCE_SUM, g, mask, true) : mt_d_tensor_ref(g);
    if (r == NULL) {
        return NULL;
    }
    int64_t s[MT_MAX_DIMS];
    memcpy(s, shape.v, (size_t)shape.n * sizeof(int64_t));
    mt_tensor *out = mt_reshape(r, shape.n, s);
    mt_tensor_decref(r);
    return out;
}

mt_tensor *
mt_d_reduce_backward(mt_tensor *g, mt_dlist shape, mt_dlist dim, bool keepdim)
{
    int64_t s[MT_MAX_DIMS];
    if (mt__dsizes(shape, s) < 0) {
        return NULL;
    }
    if (keepdim || shape.n == 0) {
        return mt_expand(g, shape.n, s);
    }
    /* the reduced dims back as ones */
    bool reduced[MT_MAX_DIMS] = {false};
    if (!dim.present || dim.n == 0) {
        for (int d = 0; d < shape.n; d++) {
            reduced[d] = true;
        }
    }
    else {
        for (int i = 0; i < dim.n; i++) {
            int d = mt_wrap_dim(dim.v[i], shape.n);
            if (d < 0) {
                return NULL;
            }
            reduced[d] = true;
        }
    }
    int64_t ones[MT_MAX_DIMS];
    for (int d = 0; d < shape.n; d++) {
        ones[d] = reduced[d] ? 1 : s[d];
    }
    mt_tensor *k = mt_reshape(g, shape.n, ones);
    if (k == NULL) {
        return NULL;
    }
    mt_tensor *r = mt_expand(k, shape.n, s);
    mt_tensor_decref(k);
    return r;
}

mt_tensor *
mt_d_embed(mt_tensor *t, mt_dlist shape, int64_t dim, int64_t start)
{
    mt_tensor *z = mt_d_new_zeros(t, shape);
    if (z == NULL) {
        return NULL;
    }
    int d = mt_wrap_dim(dim, shape.n);
    if (d < 0 || t->ndim != shape.n) {
        mt_tensor_decref(z);
        if (d >= 0) {
            mt_error_set(MT_ERUNTIME, "autograd: a slice's gradient of another rank");
        }
        return NULL;
    }
    if (start < 0) {
        start += shape.v[d];
    }
    mt_tensor *part = mt_narrow(z, d, start, t->sizes[d]);
    if (part == NULL || mt_copy_(part, t) < 0) {
        mt_tensor_decref(part);
        mt_tensor_decref(z);
        return NULL;
    }
    mt_tensor_decref(part);
    return z;
}

mt_tensor *
mt_d_permute_back(mt_tensor *t, mt_dlist dims)
{
    return mt__d_permute(t, dims, true);
}

mt_tensor *
mt_d_scatter_add(mt_tensor *t, int64_t dim, mt_tensor *index, mt_tensor *src)
{
    int d = mt_wrap_dim(dim, t->ndim);
    if (d < 0) {
        return NULL;
    }
    mt_tensor *r = mt_clone(t);
    if (r != NULL && mt_scatter_(r, d, index, src, MT_SCATTER_ADD) < 0) {
        mt_tensor_decref(r);
        return NULL;
    }
    return r;
}

mt_tensor *
mt_d_scatter(mt_tensor *t, int64_t dim, mt_tensor *index, mt_tensor *src)
{
    int d = mt_wrap_dim(dim, t->ndim);
    if (d < 0) {
        return NULL;
    }
    mt_tensor *r = mt_clone(t);
    if (r != NULL && mt_scatter_(r, d, index, src, MT_SCATTER_NONE) < 0) {
        mt_tensor_decref(r);
        return NULL;
    }
    return r;
}

/* -MT_MAX_DIMS .. -1; 0 .. MT_MAX_DIMS - 1; 0, 2, 3, ..., MT_MAX_DIMS (set by mt_d_init) */
static int64_t mt__neg_dims[MT_MAX_DIMS], mt__pos_dims[MT_MAX_DIMS], mt__but1_dims[MT_MAX_DIMS];

void
mt_d_init(void)
{
    for (int i = 0; i < MT_MAX_DIMS; i++) {
        mt__neg_dims[i] = i - MT_MAX_DIMS;
        mt__pos_dims[i] = i;
        mt__but1_dims[i] = i == 0 ? 0 : i + 1;
    }
}

mt_dlist
mt_d_last_dims(int64_t n)
{
    n = n < 0 ? 0 : n > MT_MAX_DIMS ? MT_MAX_DIMS : n;
    return mt_dlist_n((int)n, mt__neg_dims + MT_MAX_DIMS - n);
}

/* d == 0 (1 .. ndim - 1) and d == 1 (0, 2 .. ndim - 1), the only ones formulas use */
mt_dlist
mt_d_all_dims_but(int64_t ndim, int64_t d)
{
    ndim = ndim < 0 ? 0 : ndim > MT_MAX_DIMS ? MT_MAX_DIMS : ndim;
    if (ndim == 0) {
        return MT_DLIST_EMPTY;
    }
    if (d < 0) {
        d += ndim;
    }
    if (d == 0) {
        return mt_dlist_n((int)ndim - 1, mt__pos_dims + 1);
    }
    if (d == 1) {
        return mt_dlist_n((int)ndim - 1, mt__but1_dims);
    }
    return mt_dlist_n((int)ndim, mt__pos_dims); /* (formulas use d 0 or 1 only) */
}

mt_tensor *
mt_d_embedding_backward(mt_tensor *g, int64_t num_weights, mt_tensor *indices,
                        int64_t padding_idx, bool scale_grad_by_freq)
{
    if (g->ndim == 0 || indices->ndim != 1) {
        mt_error_set(MT_ERUNTIME, "embedding_backward: bad shapes");
        return NULL;
    }
    int64_t dim = g->sizes[g->ndim - 1], rows[2] = {-1, dim};
    mt_tensor *g2 = mt_reshape(g, 2, rows), *r = NULL, *counts = NULL, *ones = NULL;
    int64_t shape[2] = {num_weights, dim};
    if (g2 == NULL) {
        return NULL;
    }
    if (scale_grad_by_freq) {
        counts = mt_d_new_zeros(g2, mt_dlist_n(1, &num_weights));
        ones = mt_d_new_zeros(g2, mt_dlist_of(indices));
        mt_tensor *per = NULL, *col = NULL, *scaled = NULL;
        if (counts == NULL || ones == NULL || mt_fill_(ones, mt_scalar_int(1)) < 0 ||
            mt_index_put_(counts, 1, &indices, ones, true) < 0 ||
            (per = mt_index_select(counts, 0, indices, false)) == NULL ||
            (col = mt_unsqueeze(per, 1)) == NULL ||
            (scaled = mt_binary(MT_OP_DIV, mt_arg_tensor(g2), mt_arg_tensor(col), NULL,
                                mt_scalar_int(1))) == NULL) {
            mt_tensor_decref(per);
            mt_tensor_decref(col);
            goto done;
        }
        mt_tensor_decref(per);
        mt_tensor_decref(col);
        mt_tensor_decref(g2);
        g2 = scaled;
    }
    r = mt_d_new_zeros(g2, mt_dlist_n(2, shape));
    if (r == NULL || mt_index_put_(r, 1, &indices, g2, true) < 0) {
        mt_tensor_decref(r);
        r = NULL;
        goto done;
    }
    if (padding_idx >= 0 && padding_idx < num_weights) {
        mt_tensor *row = mt_select(r, 0, padding_idx);
        if (row == NULL || mt_fill_(row, mt_scalar_int(0)) < 0) {
            mt_tensor_decref(row);
            mt_tensor_decref(r);
            r = NULL;
            goto done;
        }
        mt_tensor_decref(row);
    }
done:
    mt_tensor_decref(counts);
    mt_tensor_decref(ones);
    mt_tensor_decref(g2);
    return r;
}

mt_tensor *
mt_d_gelu_backward(mt_tensor *g, mt_tensor *x, const char *approximate)
{
    mt_op op = strcmp(approximate, "tanh") == 0 ? MT_OP_GELU_TANH_BACKWARD : MT_OP_GELU_BACKWARD;
    return mt_binary(op, mt_arg_tensor(g), mt_arg_tensor(x), NULL, mt_scalar_int(1));
}

mt_tensor *
mt_d_softmax_backward(mt_tensor *g, mt_tensor *y, int64_t dim, bool log)
{
    int d = mt_wrap_dim(dim, y->ndim);
    if (d < 0) {
        return NULL;
    }
    if (y->ndim > 0 && d == y->ndim - 1) {
        mt_tensor *gc = mt_contiguous(g), *yc = gc ? mt_contiguous(y) : NULL, *r = NULL;
        if (yc != NULL) {
            r = mt_softmax_backward_lastdim(gc, yc, log);
        }
        mt_tensor_decref(gc);
        mt_tensor_decref(yc);
        if (r != NULL || mt_error_code() != MT_EINVAL) {
            return r;
        }
    }
    /* op by op: log: g - exp(y) * sum(g); else y * (g - sum(g * y)) */
    mt_dlist dl = mt_dlist_1(dim);
    mt_tensor *p = log ? mt_d_tensor_ref(g)
                       : mt_binary(MT_OP_MUL, mt_arg_tensor(g), mt_arg_tensor(y), NULL,
                                   mt_scalar_int(1));
    mt_tensor *s = p ? mt_d_sum(p, dl, true) : NULL, *r = NULL;
    if (s != NULL && log) {
        mt_tensor *e = mt_unary(MT_OP_EXP, y, NULL);
        mt_tensor *es = e ? mt_binary(MT_OP_MUL, mt_arg_tensor(e), mt_arg_tensor(s), NULL,
                                      mt_scalar_int(1))
                          : NULL;
        r = es ? mt_binary(MT_OP_SUB, mt_arg_tensor(g), mt_arg_tensor(es), NULL, mt_scalar_int(1))
               : NULL;
        mt_tensor_decref(e);
        mt_tensor_decref(es);
    }
    else if (s != NULL) {
        mt_tensor *diff = mt_binary(MT_OP_SUB, mt_arg_tensor(g), mt_arg_tensor(s), NULL,
                                    mt_scalar_int(1));
        r = diff ? mt_binary(MT_OP_MUL, mt_arg_tensor(y), mt_arg_tensor(diff), NULL,
                             mt_scalar_int(1))
                 : NULL;
        mt_tensor_decref(diff);
    }
    mt_tensor_decref(p);
    mt_tensor_decref(s);
    return r;
}

int
mt_d_lstm_backward(mt_tensor *g_out, mt_tensor *g_hn, mt_tensor *g_cn, mt_tensor *x,
                   mt_dlist batch_sizes, mt_tensor *h0, mt_tensor *c0, mt_tensor *w_ih,
                   mt_tensor *w_hh, mt_tensor *b_ih, mt_tensor *b_hh, mt_tensor *w_hr,
                   bool reverse, mt_tensor *out, mt_tensor *gates, mt_tensor *cells,
                   mt_tensor *hpre, const bool *needs, mt_tensor **outs)
{
    if (x == NULL || h0 == NULL || c0 == NULL || w_ih == NULL || w_hh == NULL || out == NULL ||
        gates == NULL || cells == NULL) {
        return mt_error_set(MT_ERUNTIME, "lstm backward: a saved tensor is missing");
    }
    mt_lstm_args a = {.x = x, .batch_sizes = batch_sizes.v, .steps = batch_sizes.n,
                      .h0 = h0, .c0 = c0, .w_ih = w_ih, .w_hh = w_hh, .b_ih = b_ih,
                      .b_hh = b_hh, .w_hr = w_hr, .reverse = reverse};
    return mt_lstm_backward(&a, out, gates, cells, hpre, g_out, g_hn, g_cn, needs, outs);
}

int
mt_d_layer_norm_backward(mt_tensor *g, mt_tensor *gm, mt_tensor *gr, mt_tensor *x,
                         mt_tensor *mean, mt_tensor *rstd, mt_tensor *w, int64_t n,
                         const bool *needs, mt_tensor **outs)
{
    if (g == NULL || x == NULL || mean == NULL || rstd == NULL) {
        return mt_error_set(MT_ERUNTIME, "layer_norm backward: a saved tensor is missing");
    }
    if (!mt_dtype_is_floating(x->dtype) || n < 1 || n > x->ndim) {
        return mt_error_set(MT_ERUNTIME, "layer_norm backward: a real floating input with at "
                            "least n dims");
    }
    /* every operand contiguous, half precision widened to float32 */
    mt_tensor *ops[7] = {g, gm, gr, x, mean, rstd, w}, *c[7] = {NULL};
    int rc = 0;
    for (int i = 0; i < 7; i++) {
        c[i] = mt_float_operand(ops[i]);
        if (ops[i] != NULL && c[i] == NULL) {
            rc = mt_error_code();
            goto done;
        }
    }
    mt_dtype wide = c[3]->dtype;
    for (int i = 0; i < 7; i++) {
        if (c[i] != NULL && c[i]->dtype != wide) { /* (a float64 weight of a float32 input) */
            mt_tensor *t = mt_to_dtype(c[i], wide, false);
            mt_tensor_decref(c[i]);
            c[i] = t;
            if (t == NULL) {
                rc = mt_error_code();
                goto done;
            }
        }
    }
    bool want[3] = {needs[0], needs[1], needs[2]};
    mt_tensor *r[3];
    rc = mt_layer_norm_backward(c[0], c[1], c[2], c[3], c[4], c[5], c[6], (int)n, want, &r[0],
                                &r[1], &r[2]);
    if (rc < 0) {
        goto done;
    }
    for (int i = 0; i < 3; i++) {
        mt_dtype dt = i == 0 || ops[6] == NULL ? x->dtype : ops[6]->dtype;
        outs[i] = mt_float_result(r[i], dt);
        if (r[i] != NULL && outs[i] == NULL) {
            rc = mt_error_code();
        }
    }
done:
    mt__impls_release(c, 7);
    return rc;
}
