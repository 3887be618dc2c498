/* csrc/autograd/cnodes.c - derivatives in C for the nodes of the common ops (see Note [C backward
 * formulas] in autograd.h).  attach() runs with the GIL; backward() and free() are plain C. */
#include "csrc/autograd/autograd.h"
#include "csrc/autograd/derivatives.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "aten_lite/conv.h"
#include "aten_lite/linalg.h"
#include "aten_lite/ops.h"
#include "aten_lite/pool.h"

/* ---- saved tensors and shapes ---------------------------------------------------------------- */

/* A tensor a formula reads, with its storage's version when the op ran. */
typedef struct {
    mt_tensor *t; /* owned; NULL: none */
    uint64_t version;
} mt__saved;

typedef struct {
    int ndim;
    mt_dtype dtype;
    int64_t sizes[MT_MAX_DIMS];
} mt__meta;

static int
mt__save(PyObject *o, mt__saved *s, bool optional)
{
    s->t = NULL;
    if (optional && o == Py_None) {
        return 0;
    }
    if (!mt__tensor_check(o)) {
        PyErr_SetString(PyExc_TypeError, "_set_cbackward(): expected a Tensor");
        return -1;
    }
    s->t = mt__tensor_impl_ref(o);
    s->version = atomic_load_explicit(&s->t->storage->version, memory_order_relaxed);
    return 0;
}

/* Whether o is a tensor that requires grad: the formulas save an operand only when the
 * gradient of another one needs it (as torch), so that nothing else is kept alive or checked
 * against in-place writes. */
static bool
mt__wants_grad(PyObject *o)
{
    return mt__tensor_check(o) && mt__tensor_requires_grad(o);
}

static void
mt__unsave(mt__saved *s)
{
    mt_tensor_decref(s->t);
    s->t = NULL;
}

/* A new zeroed state of `size` bytes, or NULL with MemoryError. */
static void *
mt__state_new(size_t size)
{
    void *s = calloc(1, size);
    if (s == NULL) {
        PyErr_NoMemory();
    }
    return s;
}

/* An attach that failed: drops the partial state (with free_fn, when there is one) and raises
 * TypeError("_set_cbackward(): <what>") unless an exception is set already.  Returns -1. */
static int
mt__attach_failed(void *state, void (*free_fn)(void *), const char *what)
{
    if (state != NULL) {
        free_fn(state);
    }
    if (!PyErr_Occurred()) {
        PyErr_Format(PyExc_TypeError, "_set_cbackward(): %s", what);
    }
    return -1;
}

/* torch's error when a saved tensor was written in place since the op (as Ctx._check). */
static int
mt__check_saved(const mt__saved *s, const char *node_name)
{
    if (s->t == NULL) {
        return 0;
    }
    uint64_t now = atomic_load_explicit(&s->t->storage->version, memory_order_relaxed);
    if (now == s->version) {
        return 0;
    }
    char sizes[256];
    return mt_error_set(
        MT_ERUNTIME,
        "one of the variables needed for gradient computation has been modified by an inplace "
        "operation: [minitorch.%s %s], which is output 0 of %s, is at version %llu; expected "
        "version %llu instead. Hint: the backtrace further above shows the operation that failed "
        "to compute its gradient. The variable in question was changed in there or anywhere "
        "later. Good luck!",
        mt__legacy_type_name(s->t->dtype), mt_format_sizes(sizes, sizeof(sizes), s->t->ndim,
                                                            s->t->sizes),
        node_name, (unsigned long long)now, (unsigned long long)s->version);
}

/* Note [C backward formulas] (the states): every state begins with the list of its saved
 * tensors, so that one function checks them before the formula runs and one drops them. */
typedef struct {
    mt__saved *v[4]; /* fields of the same state */
    int n;
} mt__saved_list;

/* Lists the saved fields (a NULL-terminated array, at most four) in the state's list. */
static void
mt__track(mt__saved_list *l, mt__saved *const *fields)
{
    for (l->n = 0; fields[l->n] != NULL && l->n < 4; l->n++) {
        l->v[l->n] = fields[l->n];
    }
}

/* Drops a state and its saved tensors (every kind's free). */
static void
mt__state_free(void *state)
{
    mt__saved_list *l = state;
    for (int i = 0; i < l->n; i++) {
        mt__unsave(l->v[i]);
    }
    free(state);
}

/* A tensor's shape and dtype, or a shape (a sequence of ints) with `dtype`. */
static int
mt__meta_of(PyObject *o, mt__meta *m, mt_dtype dtype)
{
    if (mt__tensor_check(o)) {
        mt_tensor *t = mt__tensor_impl(o);
        m->ndim = t->ndim;
        m->dtype = t->dtype;
        memcpy(m->sizes, t->sizes, (size_t)t->ndim * sizeof(int64_t));
        return 0;
    }
    int n = mt__sizes_from_seq(o, m->sizes, "_set_cbackward", "shape");
    if (n < 0) {
        return -1;
    }
    m->ndim = n;
    m->dtype = dtype;
    return 0;
}

static bool
mt__same_shape(const mt_tensor *t, const mt__meta *m)
{
    return t->ndim == m->ndim && memcmp(t->sizes, m->sizes, (size_t)m->ndim * sizeof(int64_t)) == 0;
}

/* g (stolen) summed over the dimensions broadcasting added, to m's shape, in m's dtype (as
 * _fit in _record.py, for real dtypes).  New reference or NULL. */
static mt_tensor *
mt__fit(mt_tensor *g, const mt__meta *m)
{
    if (g == NULL) {
        return NULL;
    }
    if (!mt__same_shape(g, m)) {
        bool mask[MT_MAX_DIMS] = {false};
        int lead = g->ndim - m->ndim;
        if (lead < 0) {
            mt_tensor_decref(g);
            mt_error_set(MT_ERUNTIME, "autograd: a gradient has fewer dimensions than its input");
            return NULL;
        }
        bool any = false;
        for (int d = 0; d < g->ndim; d++) {
            mask[d] = d < lead || (m->sizes[d - lead] == 1 && g->sizes[d] != 1);
            any |= mask[d];
        }
        mt_tensor *r = g;
        if (any) {
            r = mt_reduce(MT_REDUCE_SUM, g, mask, true);
            mt_tensor_decref(g);
            if (r == NULL) {
                return NULL;
            }
        }
        g = mt_reshape(r, m->ndim, m->sizes);
        mt_tensor_decref(r);
        if (g == NULL) {
            return NULL;
        }
    }
    if (g->dtype != m->dtype) {
        mt_tensor *r = mt_to_dtype(g, m->dtype, false);
        mt_tensor_decref(g);
        g = r;
    }
    return g;
}

/* A new reference to t (kinds that pass a gradient through unchanged); NULL for NULL (an
 * earlier step failed). */
static mt_tensor *
mt__ref(mt_tensor *t)
{
    if (t != NULL) {
        mt_tensor_incref(t);
    }
    return t;
}

/* a <op> b (borrowed); NULL when either is NULL (an earlier step failed) */
static mt_tensor *
mt__tt(mt_op op, mt_tensor *a, mt_tensor *b)
{
    return a && b ? mt_binary(op, mt_arg_tensor(a), mt_arg_tensor(b), NULL, mt_scalar_int(1))
                  : NULL;
}

static mt_tensor *
mt__ts(mt_op op, mt_tensor *a, double s)
{
    return a ? mt_binary(op, mt_arg_tensor(a), mt_arg_scalar(mt_scalar_float(s)), NULL,
                         mt_scalar_int(1))
             : NULL;
}

static mt_tensor *
mt__st(mt_op op, double s, mt_tensor *b)
{
    return b ? mt_binary(op, mt_arg_scalar(mt_scalar_float(s)), mt_arg_tensor(b), NULL,
                         mt_scalar_int(1))
             : NULL;
}

/* The code of the C error after a NULL result (MT_ERUNTIME when none was set). */
static int
mt__err(void)
{
    int code = mt_error_code();
    return code < 0 ? code : mt_error_set(MT_ERUNTIME, "autograd: a C formula failed");
}

/* Every out[i] set, or the error after dropping them.  0 or a negative code. */
static int
mt__outs_done(mt_tensor **out, const bool *needs, int n)
{
    for (int i = 0; i < n; i++) {
        if (needs[i] && out[i] == NULL) {
            int code = mt__err();
            mt__impls_release(out, n);
            memset(out, 0, (size_t)n * sizeof(*out));
            return code;
        }
    }
    return 0;
}

/* ---- pass-through kinds: add/sub (with alpha), the reshapes, sum ----------------------------- */

/* out[e] = fit(coef[e] * g) for each edge (add: 1, alpha; sub: 1, -alpha); reshape and sum:
 * one edge, coef 1 (the gradient reshaped, or expanded, to the input's shape). */
typedef enum { MT__MAP_SCALE, MT__MAP_RESHAPE, MT__MAP_EXPAND } mt__map_mode;

typedef struct {
    mt__saved_list saved; /* first member (Note [C backward formulas]) */
    int n;
    mt__map_mode mode; /* add/sub: coef * g; reshapes: g reshaped; sum: g expanded */
    double coef[2];
    mt__meta meta[2]; /* each edge's input */
    bool reduced[MT_MAX_DIMS]; /* sum: the dims it reduced */
    bool keepdim;
} mt__linear_map;

/* ("add", coef0, input0, coef1, input1, ...), ("reshape", input-or-shape[, dtype]) or
 * ("sum", input, dims or None (all), keepdim) */
static int
mt__map_attach(PyObject *const *args, Py_ssize_t nargs, int mode, void **state)
{
    mt__linear_map *s = mt__state_new(sizeof(*s));
    if (s == NULL) {
        return -1;
    }
    s->mode = mode;
    if (mode == MT__MAP_SCALE) {
        if (nargs < 2 || nargs > 4 || nargs % 2) {
            goto bad;
        }
        for (Py_ssize_t i = 0; i < nargs; i += 2) {
            s->coef[i / 2] = PyFloat_AsDouble(args[i]);
            if ((s->coef[i / 2] == -1.0 && PyErr_Occurred()) || !mt__tensor_check(args[i + 1])) {
                goto bad;
            }
            mt__meta_of(args[i + 1], &s->meta[i / 2], MT_FLOAT32);
        }
        s->n = (int)nargs / 2;
    }
    else if (mode == MT__MAP_EXPAND) {
        int keep = nargs == 3 ? PyObject_IsTrue(args[2]) : -1;
        if (keep < 0 || !mt__tensor_check(args[0])) {
            goto bad;
        }
        s->keepdim = keep;
        mt__meta_of(args[0], &s->meta[0], MT_FLOAT32);
        int64_t dims[MT_MAX_DIMS];
        int nd = args[1] == Py_None ? -1 : mt__sizes_from_seq(args[1], dims, "_set_cbackward", "dim");
        if (args[1] != Py_None && nd < 0) {
            goto bad;
        }
        for (int d = 0; d < s->meta[0].ndim; d++) {
            s->reduced[d] = nd < 0;
        }
        for (int i = 0; i < nd; i++) {
            if (dims[i] < 0 || dims[i] >= s->meta[0].ndim) {
                goto bad;
            }
            s->reduced[dims[i]] = true;
        }
        s->n = 1;
    }
    else {
        mt_dtype dt = MT_FLOAT32;
        if (nargs < 1 || nargs > 2 ||
            (nargs == 2 && mt__dtype_from_py(args[1], &dt, "dtype") < 0) ||
            mt__meta_of(args[0], &s->meta[0], dt) < 0) {
            goto bad;
        }
        s->n = 1;
        s->coef[0] = 1.0;
    }
    *state = s;
    return 0;
bad:
    return mt__attach_failed(s, free, "bad arguments");
}

static int
mt__map_backward(void *state, mt_tensor *const *grads, const bool *needs,
                 mt_tensor **out)
{
    mt__linear_map *s = state;
    mt_tensor *g = grads[0];
    for (int e = 0; e < s->n; e++) {
        if (!needs[e]) {
            continue;
        }
        const mt__meta *m = &s->meta[e];
        mt_tensor *r;
        if (s->mode == MT__MAP_EXPAND) {
            /* the reduced dims back as ones, then expanded */
            int64_t ones[MT_MAX_DIMS];
            for (int d = 0; d < m->ndim; d++) {
                ones[d] = s->reduced[d] ? 1 : m->sizes[d];
            }
            mt_tensor *k = s->keepdim ? mt__ref(g) : mt_reshape(g, m->ndim, ones);
            r = k ? mt_expand(k, m->ndim, m->sizes) : NULL;
            mt_tensor_decref(k);
        }
        else if (s->mode == MT__MAP_RESHAPE) {
            r = mt_reshape(g, m->ndim, m->sizes);
        }
        else if (s->coef[e] == 1.0) {
            r = mt__ref(g);
        }
        else if (s->coef[e] == -1.0) {
            r = mt_unary(MT_OP_NEG, g, NULL);
        }
        else {
            r = mt_binary(MT_OP_MUL, mt_arg_tensor(g), mt_arg_scalar(mt_scalar_float(s->coef[e])),
                          NULL, mt_scalar_int(1));
        }
        out[e] = mt__fit(r, m);
    }
    return mt__outs_done(out, needs, s->n);
}

/* ---- mul, and the operands of mul and div ------------------------------------------------- */

/* a * b and a / b: each operand a tensor (an edge) or a number (real dtypes). */
typedef enum { MT__BIN_MUL, MT__BIN_DIV } mt__binary_op;

typedef struct {
    mt__saved_list saved; /* first member (Note [C backward formulas]) */
    int n;               /* edges */
    int edge_of[2];      /* operand -> edge, -1 for a number */
    mt__saved t[2];      /* the operands another gradient reads (NULL: not needed) */
    mt__saved out;       /* div: the quotient, for b's gradient */
    double s[2];         /* the operands that are numbers */
    mt__meta meta[2];    /* per edge */
} mt__binary_state;

/* ("mul", a, b) or ("div", a, b, out): the edges are the operands that are tensors, in
 * order.  mul reads a for b's gradient and b for a's; div reads b for both and out for b's. */
static int
mt__binary_attach(PyObject *const *args, Py_ssize_t nargs, int op, void **state)
{
    if (nargs != (op == MT__BIN_DIV ? 3 : 2)) {
        return mt__attach_failed(NULL, NULL, op == MT__BIN_DIV ? "div takes (a, b, out)"
                                                               : "mul takes two operands");
    }
    mt__binary_state *s = mt__state_new(sizeof(*s));
    if (s == NULL) {
        return -1;
    }
    mt__track(&s->saved, (mt__saved *[]){&s->t[0], &s->t[1], &s->out, NULL});
    bool want[2] = {mt__wants_grad(args[0]), mt__wants_grad(args[1])};
    for (int i = 0; i < 2; i++) {
        s->edge_of[i] = -1;
        if (mt__tensor_check(args[i])) {
            s->edge_of[i] = s->n;
            mt__meta_of(args[i], &s->meta[s->n++], MT_FLOAT32);
            bool keep = op == MT__BIN_MUL ? want[1 - i] : i == 1 && (want[0] || want[1]);
            if (keep && mt__save(args[i], &s->t[i], false) < 0) {
                goto fail;
            }
        }
        else if ((s->s[i] = PyFloat_AsDouble(args[i])) == -1.0 && PyErr_Occurred()) {
            goto fail;
        }
    }
    if (op == MT__BIN_DIV && want[1] && mt__save(args[2], &s->out, false) < 0) {
        goto fail;
    }
    *state = s;
    return 0;
fail:
    mt__state_free(s);
    return -1;
}

static int
mt__mul_backward(void *state, mt_tensor *const *grads, const bool *needs,
                 mt_tensor **out)
{
    mt__binary_state *s = state;
    for (int i = 0; i < 2; i++) {
        int e = s->edge_of[i];
        if (e < 0 || !needs[e]) {
            continue;
        }
        int o = 1 - i; /* d(a*b)/da = b */
        mt_arg other = s->t[o].t ? mt_arg_tensor(s->t[o].t) : mt_arg_scalar(mt_scalar_float(s->s[o]));
        out[e] = mt__fit(mt_binary(MT_OP_MUL, mt_arg_tensor(grads[0]), other, NULL,
                                   mt_scalar_int(1)),
                         &s->meta[e]);
    }
    return mt__outs_done(out, needs, s->n);
}

/* ---- relu, log_softmax: formulas of the op's result ------------------------------------------ */

typedef struct {
    mt__saved_list saved; /* first member (Note [C backward formulas]) */
    mt__saved out;
    int64_t dim;
    mt__meta meta;
} mt__result_state;

/* ("relu", input, out) or ("log_softmax", input, out, dim) */
static int
mt__result_attach(PyObject *const *args, Py_ssize_t nargs, int mode, void **state)
{
    (void)mode;
    if (nargs < 2 || nargs > 3 || !mt__tensor_check(args[0])) {
        return mt__attach_failed(NULL, NULL, "bad arguments");
    }
    mt__result_state *s = mt__state_new(sizeof(*s));
    if (s == NULL) {
        return -1;
    }
    mt__track(&s->saved, (mt__saved *[]){&s->out, NULL});
    mt__meta_of(args[0], &s->meta, MT_FLOAT32);
    if (mt__save(args[1], &s->out, false) < 0 ||
        (nargs == 3 && mt__int64_from_py(args[2], &s->dim, "_set_cbackward", "dim") < 0)) {
        mt__state_free(s);
        return -1;
    }
    if (nargs == 3) {
        int d = mt_wrap_dim(s->dim, s->out.t->ndim);
        if (d < 0) {
            mt__state_free(s);
            mt__raise(d);
            return -1;
        }
        s->dim = d;
    }
    *state = s;
    return 0;
}

static int
mt__relu_backward(void *state, mt_tensor *const *grads, const bool *needs,
                  mt_tensor **out)
{
    mt__result_state *s = state;
    if (!needs[0]) {
        return 0;
    }
    out[0] = mt__fit(mt__tt(MT_OP_RELU_BACKWARD, grads[0], s->out.t), &s->meta);
    return mt__outs_done(out, needs, 1);
}

/* g - exp(y) * sum(g, dim, keepdim=True) */
static int
mt__log_softmax_backward(void *state, mt_tensor *const *grads,
                         const bool *needs, mt_tensor **out)
{
    mt__result_state *s = state;
    if (!needs[0]) {
        return 0;
    }
    mt_tensor *g = grads[0];
    bool mask[MT_MAX_DIMS] = {false};
    mask[s->dim] = true;
    mt_tensor *sum = g->ndim ? mt_reduce(MT_REDUCE_SUM, g, mask, true) : mt__ref(g);
    mt_tensor *e = mt_unary(MT_OP_EXP, s->out.t, NULL), *prod = NULL;
    if (sum != NULL && e != NULL) {
        prod = mt_binary(MT_OP_MUL, mt_arg_tensor(e), mt_arg_tensor(sum), e, mt_scalar_int(1));
    }
    if (prod != NULL) {
        out[0] = mt__fit(mt_binary(MT_OP_SUB, mt_arg_tensor(g), mt_arg_tensor(prod), NULL,
                                   mt_scalar_int(1)),
                         &s->meta);
    }
    mt_tensor_decref(prod);
    mt_tensor_decref(e);
    mt_tensor_decref(sum);
    return mt__outs_done(out, needs, 1);
}

/* ---- unary ops, div -------------------------------------------------------------------------- */

/* y = f(x) with f' from x or from y (as the Python formulas, in their order of operations) */
typedef enum { MT__EXP, MT__TANH, MT__SIGMOID, MT__SQRT, MT__LOG, MT__SQUARE, MT__POW, MT__GELU } mt__unary;

typedef struct {
    mt__saved_list saved; /* first member (Note [C backward formulas]) */
    mt__unary op;
    double exponent;   /* pow */
    mt__saved s;       /* y for exp/tanh/sigmoid/sqrt, x for log/square/pow/gelu */
    mt__meta meta;
} mt__unary_state;

/* ("unary", op name, input, saved[, exponent]) */
static int
mt__unary_attach(PyObject *const *args, Py_ssize_t nargs, int mode, void **state)
{
    (void)mode;
    static const char *const names[] = {"exp",    "tanh", "sigmoid", "sqrt",
                                        "log",    "square", "pow",   "gelu"};
    const char *name = nargs >= 3 && PyUnicode_Check(args[0]) ? PyUnicode_AsUTF8(args[0]) : NULL;
    int op = -1;
    for (int i = 0; name != NULL && i < (int)(sizeof(names) / sizeof(names[0])); i++) {
        op = strcmp(name, names[i]) == 0 ? i : op;
    }
    if (op < 0 || nargs != (op == MT__POW ? 4 : 3) || !mt__tensor_check(args[1])) {
        return mt__attach_failed(NULL, NULL, "bad arguments");
    }
    mt__unary_state *s = mt__state_new(sizeof(*s));
    if (s == NULL) {
        return -1;
    }
    mt__track(&s->saved, (mt__saved *[]){&s->s, NULL});
    s->op = (mt__unary)op;
    mt__meta_of(args[1], &s->meta, MT_FLOAT32);
    if (mt__save(args[2], &s->s, false) < 0 ||
        (op == MT__POW && (s->exponent = PyFloat_AsDouble(args[3])) == -1.0 && PyErr_Occurred())) {
        mt__state_free(s);
        return -1;
    }
    *state = s;
    return 0;
}

static int
mt__unary_backward(void *state, mt_tensor *const *grads,
                   const bool *needs, mt_tensor **out)
{
    mt__unary_state *s = state;
    if (!needs[0]) {
        return 0;
    }
    mt_tensor *g = grads[0], *y = s->s.t, *d = NULL, *t = NULL, *r = NULL;
    switch (s->op) {
    case MT__EXP: /* g * y */
        r = mt__tt(MT_OP_MUL, g, y);
        break;
    case MT__TANH: /* g * (1 - y * y) */
        t = mt__tt(MT_OP_MUL, y, y);
        d = mt__st(MT_OP_SUB, 1.0, t);
        r = mt__tt(MT_OP_MUL, g, d);
        break;
    case MT__SIGMOID: /* g * (y * (1 - y)) */
        t = mt__st(MT_OP_SUB, 1.0, y);
        d = mt__tt(MT_OP_MUL, y, t);
        r = mt__tt(MT_OP_MUL, g, d);
        break;
    case MT__SQRT: /* g / (2 * y) */
        d = mt__st(MT_OP_MUL, 2.0, y);
        r = mt__tt(MT_OP_DIV, g, d);
        break;
    case MT__LOG: /* g / x */
        r = mt__tt(MT_OP_DIV, g, y);
        break;
    case MT__SQUARE: /* g * 2 * x */
        t = mt__ts(MT_OP_MUL, g, 2.0);
        r = mt__tt(MT_OP_MUL, t, y);
        break;
    case MT__POW: /* g * e * x^(e - 1) */
        t = mt__ts(MT_OP_MUL, g, s->exponent);
        d = mt__ts(MT_OP_POW, y, s->exponent - 1.0);
        r = mt__tt(MT_OP_MUL, t, d);
        break;
    case MT__GELU: { /* g * (cdf + pdf * x): cdf = (erf(x / sqrt 2) + 1) / 2, pdf = e^(-x^2/2) / sqrt(2 pi) */
        mt_tensor *u = mt__ts(MT_OP_MUL, y, 1.0 / sqrt(2.0));
        mt_tensor *e = u ? mt_unary(MT_OP_ERF, u, u) : NULL; /* in place: u's own reference */
        mt_tensor *c1 = mt__ts(MT_OP_ADD, e, 1.0), *cdf = mt__ts(MT_OP_MUL, c1, 0.5);
        mt_tensor *sq = mt__tt(MT_OP_MUL, y, y), *h = mt__ts(MT_OP_MUL, sq, -0.5);
        mt_tensor *ex = h ? mt_unary(MT_OP_EXP, h, NULL) : NULL;
        mt_tensor *pdf = mt__ts(MT_OP_MUL, ex, 1.0 / sqrt(2.0 * M_PI));
        t = mt__tt(MT_OP_MUL, pdf, y);
        d = mt__tt(MT_OP_ADD, cdf, t);
        r = mt__tt(MT_OP_MUL, g, d);
        mt_tensor *tmp[] = {u, e, c1, cdf, sq, h, ex, pdf};
        mt__impls_release(tmp, 8);
        break;
    }
    }
    mt_tensor_decref(t);
    mt_tensor_decref(d);
    out[0] = mt__fit(r, &s->meta);
    return mt__outs_done(out, needs, 1);
}

/* ga = g / b, gb = -g * out / b (as the Python formula) */
static int
mt__div_backward(void *state, mt_tensor *const *grads, const bool *needs,
                 mt_tensor **out)
{
    mt__binary_state *s = state;
    mt_tensor *g = grads[0], *b = s->t[1].t;
    int ea = s->edge_of[0], eb = s->edge_of[1];
    if (ea >= 0 && needs[ea]) {
        out[ea] = mt__fit(b ? mt__tt(MT_OP_DIV, g, b) : mt__ts(MT_OP_DIV, g, s->s[1]),
                          &s->meta[ea]);
    }
    if (eb >= 0 && needs[eb]) {
        mt_tensor *ng = mt_unary(MT_OP_NEG, g, NULL);
        mt_tensor *p = mt__tt(MT_OP_MUL, ng, s->out.t);
        out[eb] = mt__fit(mt__tt(MT_OP_DIV, p, b), &s->meta[eb]);
        mt_tensor_decref(p);
        mt_tensor_decref(ng);
    }
    return mt__outs_done(out, needs, s->n);
}

/* ---- mm, transpose ----------------------------------------------------------------------------- */

typedef struct {
    mt__saved_list saved; /* first member (Note [C backward formulas]) */
    mt__saved a, b;
} mt__mm_state;

/* ("mm", a, b): both 2-D */
static int
mt__mm_attach(PyObject *const *args, Py_ssize_t nargs, int mode, void **state)
{
    (void)mode;
    mt__mm_state *s = mt__state_new(sizeof(*s));
    if (s == NULL) {
        return -1;
    }
    mt__track(&s->saved, (mt__saved *[]){&s->a, &s->b, NULL});
    if (nargs != 2 || !mt__tensor_check(args[0]) || !mt__tensor_check(args[1]) ||
        mt__tensor_impl(args[0])->ndim != 2 || mt__tensor_impl(args[1])->ndim != 2 ||
        (mt__wants_grad(args[1]) && mt__save(args[0], &s->a, false) < 0) ||
        (mt__wants_grad(args[0]) && mt__save(args[1], &s->b, false) < 0)) {
        return mt__attach_failed(s, mt__state_free, "mm takes two matrices");
    }
    *state = s;
    return 0;
}

/* ga = g @ b^T, gb = a^T @ g */
static int
mt__mm_backward(void *state, mt_tensor *const *grads, const bool *needs,
                mt_tensor **out)
{
    mt__mm_state *s = state;
    if (needs[0] && s->b.t != NULL) {
        mt_tensor *bt = mt_transpose(s->b.t, 0, 1);
        out[0] = bt ? mt_mm(grads[0], bt) : NULL;
        mt_tensor_decref(bt);
    }
    if (needs[1] && s->a.t != NULL) {
        mt_tensor *at = mt_transpose(s->a.t, 0, 1);
        out[1] = at ? mt_mm(at, grads[0]) : NULL;
        mt_tensor_decref(at);
    }
    return mt__outs_done(out, needs, 2);
}

typedef struct {
    mt__saved_list saved; /* first member (Note [C backward formulas]) */
    int64_t d0, d1;
} mt__transpose_state;

/* ("transpose", d0, d1) */
static int
mt__transpose_attach(PyObject *const *args, Py_ssize_t nargs, int mode, void **state)
{
    (void)mode;
    mt__transpose_state *s = mt__state_new(sizeof(*s));
    if (s == NULL) {
        return -1;
    }
    if (nargs != 2 || mt__int64_from_py(args[0], &s->d0, "_set_cbackward", "dim0") < 0 ||
        mt__int64_from_py(args[1], &s->d1, "_set_cbackward", "dim1") < 0) {
        return mt__attach_failed(s, free, "transpose takes two dims");
    }
    *state = s;
    return 0;
}

static int
mt__transpose_backward(void *state, mt_tensor *const *grads,
                       const bool *needs, mt_tensor **out)
{
    mt__transpose_state *s = state;
    if (needs[0]) {
        out[0] = mt_transpose(grads[0], s->d0, s->d1);
    }
    return mt__outs_done(out, needs, 1);
}

/* ---- Linear --------------------------------------------------------------------------------- */

/* nn.functional.linear's Function: x (lead..., in) flattened to flat (rows, in), w (out, in). */
typedef struct {
    mt__saved_list saved; /* first member (Note [C backward formulas]) */
    mt__saved flat, w; /* flat for w's gradient, w for x's */
    mt__meta x;
    int64_t rows, out_features;
} mt__linear_state;

/* ("linear", x, flat, w) */
static int
mt__linear_attach(PyObject *const *args, Py_ssize_t nargs, int mode, void **state)
{
    (void)mode;
    if (nargs != 3 || !mt__tensor_check(args[0])) {
        return mt__attach_failed(NULL, NULL, "linear takes (x, flat, w)");
    }
    mt__linear_state *s = mt__state_new(sizeof(*s));
    if (s == NULL) {
        return -1;
    }
    mt__track(&s->saved, (mt__saved *[]){&s->flat, &s->w, NULL});
    mt__meta_of(args[0], &s->x, MT_FLOAT32);
    if (!mt__tensor_check(args[1]) || !mt__tensor_check(args[2]) ||
        mt__tensor_impl(args[1])->ndim != 2 || mt__tensor_impl(args[2])->ndim != 2 ||
        (mt__wants_grad(args[2]) && mt__save(args[1], &s->flat, false) < 0) ||
        (mt__wants_grad(args[0]) && mt__save(args[2], &s->w, false) < 0)) {
        return mt__attach_failed(s, mt__state_free, "linear takes two matrices");
    }
    s->rows = mt__tensor_impl(args[1])->sizes[0];
    s->out_features = mt__tensor_impl(args[2])->sizes[0];
    *state = s;
    return 0;
}

/* grad_x = g @ w, grad_w = g^T @ flat, grad_b = g summed over the rows (edges: x, w, b) */
static int
mt__linear_backward(void *state, mt_tensor *const *grads,
                    const bool *needs, mt_tensor **out)
{
    mt__linear_state *s = state;
    int64_t shape[2] = {s->rows, s->out_features};
    mt_tensor *g2 = mt_reshape(grads[0], 2, shape);
    if (g2 == NULL) {
        return mt__err();
    }
    if (needs[0] && s->w.t != NULL) {
        mt_tensor *gx = mt_mm(g2, s->w.t);
        out[0] = gx ? mt_reshape(gx, s->x.ndim, s->x.sizes) : NULL;
        mt_tensor_decref(gx);
    }
    if (needs[1] && s->flat.t != NULL) {
        mt_tensor *gt = mt_transpose(g2, 0, 1);
        out[1] = gt ? mt_mm(gt, s->flat.t) : NULL;
        mt_tensor_decref(gt);
    }
    if (needs[2]) {
        bool mask[2] = {true, false};
        out[2] = mt_reduce(MT_REDUCE_SUM, g2, mask, false);
    }
    mt_tensor_decref(g2);
    return mt__outs_done(out, needs, 3);
}

/* ---- LayerNorm, BatchNorm (training) ------------------------------------------------------- */

/* The sum of t over the dims in mask, kept as ones, divided by `count` when count > 0 (a mean,
 * as the Python formula's x.mean(dims, keepdim=True)).  NULL when t is NULL. */
static mt_tensor *
mt__sum_keep(mt_tensor *t, const bool *mask, double count)
{
    mt_tensor *r = t ? mt_reduce(MT_REDUCE_SUM, t, mask, true) : NULL;
    if (r == NULL || count <= 0) {
        return r;
    }
    mt_tensor *m = mt__ts(MT_OP_DIV, r, count);
    mt_tensor_decref(r);
    return m;
}

/* LayerNorm: xhat = (x - mean) * rstd over the last n dims; weight/bias shaped like those
 * dims.  BatchNorm (training): xhat from x, mean, rstd (shaped with ones in the reduced dims),
 * weight/bias (C,).  Both: every dim in `mask` is reduced for the statistics. */
typedef struct {
    mt__saved_list saved; /* first member (Note [C backward formulas]) */
    bool batch;
    mt__saved x, w, mean, rstd; /* LayerNorm: x holds xhat; w NULL without weight */
    bool mask[MT_MAX_DIMS];     /* the statistics' dims */
} mt__norm_state;

/* ("layer_norm", xhat, rstd, weight|None, n) or ("batch_norm", x, weight|None, mean, rstd, dims) */
static int
mt__norm_attach(PyObject *const *args, Py_ssize_t nargs, int batch, void **state)
{
    mt__norm_state *s = mt__state_new(sizeof(*s));
    if (s == NULL) {
        return -1;
    }
    mt__track(&s->saved, (mt__saved *[]){&s->x, &s->w, &s->mean, &s->rstd, NULL});
    s->batch = batch;
    int64_t dims[MT_MAX_DIMS];
    int nd = -1;
    if (nargs != (batch ? 5 : 4) || mt__save(args[0], &s->x, false) < 0) {
        goto fail;
    }
    if (batch) {
        if (mt__save(args[1], &s->w, true) < 0 || mt__save(args[2], &s->mean, false) < 0 ||
            mt__save(args[3], &s->rstd, false) < 0 ||
            (nd = mt__sizes_from_seq(args[4], dims, "_set_cbackward", "dims")) < 0) {
            goto fail;
        }
    }
    else {
        int64_t n;
        if (mt__save(args[1], &s->rstd, false) < 0 || mt__save(args[2], &s->w, true) < 0 ||
            mt__int64_from_py(args[3], &n, "_set_cbackward", "n") < 0 || n < 0 ||
            n > s->x.t->ndim) {
            goto fail;
        }
        nd = (int)n;
        for (int i = 0; i < nd; i++) {
            dims[i] = s->x.t->ndim - nd + i;
        }
    }
    for (int i = 0; i < nd; i++) {
        if (dims[i] < 0 || dims[i] >= s->x.t->ndim) {
            goto fail;
        }
        s->mask[dims[i]] = true;
    }
    *state = s;
    return 0;
fail:
    return mt__attach_failed(s, mt__state_free, "bad arguments");
}

/* The product of the sizes of the dims in (or, `in` false, not in) mask. */
static double
mt__count(const mt_tensor *t, const bool *mask, bool in)
{
    double c = 1;
    for (int d = 0; d < t->ndim; d++) {
        c *= mask[d] == in ? (double)t->sizes[d] : 1.0;
    }
    return c;
}

/* As LayerNorm.backward: gw = sum_lead(g * xhat), gb = sum_lead(g),
 * gx = (gh - mean(gh) - xhat * mean(gh * xhat)) * rstd with gh = g * weight. */
static int
mt__layer_norm_backward(void *state, mt_tensor *const *grads,
                        const bool *needs, mt_tensor **out)
{
    mt__norm_state *s = state;
    mt_tensor *g = grads[0], *xhat = s->x.t;
    bool lead[MT_MAX_DIMS] = {false}, any_lead = false;
    for (int d = 0; d < xhat->ndim; d++) {
        lead[d] = !s->mask[d];
        any_lead |= lead[d];
    }
    if (needs[1]) {
        mt_tensor *p = mt__tt(MT_OP_MUL, g, xhat);
        out[1] = any_lead && p ? mt_reduce(MT_REDUCE_SUM, p, lead, false) : mt__ref(p);
        mt_tensor_decref(p);
    }
    if (needs[2]) {
        out[2] = any_lead ? mt_reduce(MT_REDUCE_SUM, g, lead, false) : mt_clone(g);
    }
    if (needs[0]) {
        double count = mt__count(xhat, s->mask, true);
        mt_tensor *gh = s->w.t ? mt__tt(MT_OP_MUL, g, s->w.t) : mt__ref(g);
        mt_tensor *m1 = mt__sum_keep(gh, s->mask, count);
        mt_tensor *ghx = mt__tt(MT_OP_MUL, gh, xhat);
        mt_tensor *m2 = mt__sum_keep(ghx, s->mask, count);
        mt_tensor *a = mt__tt(MT_OP_SUB, gh, m1), *b = mt__tt(MT_OP_MUL, xhat, m2);
        mt_tensor *c = mt__tt(MT_OP_SUB, a, b);
        out[0] = mt__tt(MT_OP_MUL, c, s->rstd.t);
        mt_tensor *tmp[] = {gh, m1, ghx, m2, a, b, c};
        mt__impls_release(tmp, 7);
    }
    return mt__outs_done(out, needs, 3);
}

/* As BatchNormTrain.backward: xhat = (x - mean) * rstd, gsum = sum(g), gdot = sum(g * xhat),
 * gx = ((g - gsum / count) - xhat * (gdot / count)) * rstd * weight, gw = gdot, gb = gsum. */
static int
mt__batch_norm_backward(void *state, mt_tensor *const *grads,
                        const bool *needs, mt_tensor **out)
{
    mt__norm_state *s = state;
    mt_tensor *g = grads[0], *x = s->x.t, *rstd = s->rstd.t;
    double count = mt__count(x, s->mask, true);
    int64_t flat = rstd->numel;
    mt_tensor *xc = mt__tt(MT_OP_SUB, x, s->mean.t);
    mt_tensor *xhat = mt__tt(MT_OP_MUL, xc, rstd);
    mt_tensor *gsum = mt__sum_keep(g, s->mask, 0), *gx_ = mt__tt(MT_OP_MUL, g, xhat);
    mt_tensor *gdot = mt__sum_keep(gx_, s->mask, 0);
    if (needs[0]) {
        mt_tensor *wv = s->w.t ? mt_reshape(s->w.t, rstd->ndim, rstd->sizes) : NULL;
        mt_tensor *scale = s->w.t ? mt__tt(MT_OP_MUL, rstd, wv) : mt__ref(rstd);
        mt_tensor *a = mt__ts(MT_OP_DIV, gsum, count), *b = mt__tt(MT_OP_SUB, g, a);
        mt_tensor *c = mt__ts(MT_OP_DIV, gdot, count), *d = mt__tt(MT_OP_MUL, xhat, c);
        mt_tensor *e = mt__tt(MT_OP_SUB, b, d);
        out[0] = mt__tt(MT_OP_MUL, e, scale);
        mt_tensor *tmp[] = {wv, scale, a, b, c, d, e};
        mt__impls_release(tmp, 7);
    }
    if (needs[1] && gdot != NULL) {
        out[1] = mt_reshape(gdot, 1, &flat);
    }
    if (needs[2] && gsum != NULL) {
        out[2] = mt_reshape(gsum, 1, &flat);
    }
    mt_tensor *tmp[] = {xc, xhat, gsum, gx_, gdot};
    mt__impls_release(tmp, 5);
    return mt__outs_done(out, needs, 3);
}

/* ---- conv2d, max_pool2d ---------------------------------------------------------------------- */

typedef struct {
    mt__saved_list saved; /* first member (Note [C backward formulas]) */
    mt__saved input, other; /* conv2d: weight; max_pool2d: indices */
    mt_conv2d_params conv;
    mt_pool2d_params pool;
} mt__window_state;

/* ("conv2d", input, weight, stride, padding, dilation, groups) or
 * ("max_pool2d", input, indices, kernel_size, stride, padding, dilation, ceil_mode) */
static int
mt__window_attach(PyObject *const *args, Py_ssize_t nargs, int conv, void **state)
{
    if (nargs != (conv ? 6 : 7)) {
        return mt__attach_failed(NULL, NULL, "bad arguments");
    }
    mt__window_state *s = mt__state_new(sizeof(*s));
    if (s == NULL) {
        return -1;
    }
    mt__track(&s->saved, (mt__saved *[]){&s->input, &s->other, NULL});
    PyObject *params[5];
    memcpy(params, args + 2, (size_t)(nargs - 2) * sizeof(PyObject *));
    if (mt__save(args[0], &s->input, false) < 0 || mt__save(args[1], &s->other, false) < 0 ||
        (conv ? mt__nn_conv_params(params, &s->conv)
              : mt__nn_pool_params(params, "max_pool2d", true, &s->pool)) < 0) {
        mt__state_free(s);
        return -1;
    }
    *state = s;
    return 0;
}

/* edges: input, weight, bias, then the four parameters */
static int
mt__conv_backward(void *state, mt_tensor *const *grads, const bool *needs,
                  mt_tensor **out)
{
    mt__window_state *s = state;
    int rc;
    bool mask[3] = {needs[0], needs[1], needs[2]};
    mt_tensor *g = mt_contiguous(grads[0]);
    if (g == NULL) {
        return mt__err();
    }
    rc = mt_conv2d_backward(g, s->input.t, s->other.t, &s->conv, mask, out);
    mt_tensor_decref(g);
    return rc;
}

/* edges: input, then the five parameters; the indices' gradient (grads[1]) is not used */
static int
mt__pool_backward(void *state, mt_tensor *const *grads, const bool *needs,
                  mt_tensor **out)
{
    mt__window_state *s = state;
    if (needs[0] && grads[0] != NULL) {
        out[0] = mt_max_pool2d_backward(grads[0], s->input.t, s->other.t, &s->pool);
        return mt__outs_done(out, needs, 1);
    }
    return 0;
}

/* ---- nll_loss ------------------------------------------------------------------------------- */

typedef enum { MT__RED_NONE, MT__RED_MEAN, MT__RED_SUM } mt__reduction;

/* the NLL Function: -coef[i] * logp[i, target[i]], reduced */
typedef struct {
    mt__saved_list saved; /* first member (Note [C backward formulas]) */
    mt__saved idx, coef, denom; /* target unsqueezed at cls_dim; class weights or NULL;
                                   mean's divisor or NULL */
    mt__reduction reduction;
    int64_t cls_dim;
    mt__meta logp;
} mt__nll_state;

/* ("nll", logp, idx, coef|None, reduction, cls_dim, denom|None) */
static int
mt__nll_attach(PyObject *const *args, Py_ssize_t nargs, int mode, void **state)
{
    (void)mode;
    if (nargs != 6 || !mt__tensor_check(args[0]) || !PyUnicode_Check(args[3])) {
        return mt__attach_failed(NULL, NULL, "bad arguments");
    }
    mt__nll_state *s = mt__state_new(sizeof(*s));
    if (s == NULL) {
        return -1;
    }
    mt__track(&s->saved, (mt__saved *[]){&s->idx, &s->coef, &s->denom, NULL});
    mt__meta_of(args[0], &s->logp, MT_FLOAT32);
    const char *red = PyUnicode_AsUTF8(args[3]);
    s->reduction = red == NULL              ? MT__RED_NONE
                   : strcmp(red, "mean") == 0 ? MT__RED_MEAN
                   : strcmp(red, "sum") == 0  ? MT__RED_SUM
                                              : MT__RED_NONE;
    if (red == NULL || mt__save(args[1], &s->idx, false) < 0 ||
        mt__save(args[2], &s->coef, true) < 0 ||
        mt__int64_from_py(args[4], &s->cls_dim, "_set_cbackward", "cls_dim") < 0 ||
        mt__save(args[5], &s->denom, true) < 0) {
        mt__state_free(s);
        return -1;
    }
    *state = s;
    return 0;
}

/* as NLL.backward: zeros of logp's shape with -g (/denom, * coef) scattered at the targets */
static int
mt__nll_backward(void *state, mt_tensor *const *grads, const bool *needs,
                 mt_tensor **out)
{
    mt__nll_state *s = state;
    if (!needs[0]) {
        return 0;
    }
    if (s->reduction == MT__RED_MEAN && s->denom.t == NULL) {
        return mt_error_set(MT_ERUNTIME, "nll_loss: a mean without its divisor");
    }
    mt_tensor *g = s->reduction == MT__RED_MEAN
                       ? mt_binary(MT_OP_DIV, mt_arg_tensor(grads[0]), mt_arg_tensor(s->denom.t),
                                   NULL, mt_scalar_int(1))
                       : mt__ref(grads[0]);
    mt_tensor *neg = g ? mt_unary(MT_OP_NEG, g, NULL) : NULL, *gp = NULL;
    if (neg != NULL) {
        gp = s->reduction != MT__RED_NONE ? mt_expand(neg, s->idx.t->ndim, s->idx.t->sizes)
                                          : mt_unsqueeze(neg, s->cls_dim);
    }
    if (gp != NULL && s->coef.t != NULL) {
        mt_tensor *c = mt_unsqueeze(s->coef.t, s->cls_dim);
        mt_tensor *w = c ? mt_binary(MT_OP_MUL, mt_arg_tensor(gp), mt_arg_tensor(c), NULL,
                                     mt_scalar_int(1))
                         : NULL;
        mt_tensor_decref(c);
        mt_tensor_decref(gp);
        gp = w;
    }
    mt_tensor *src = gp ? mt_contiguous(gp) : NULL;
    mt_tensor *grad = src ? mt_tensor_empty(s->logp.dtype, s->logp.ndim, s->logp.sizes,
                                            mt_tensor_device(src))
                          : NULL;
    if (grad != NULL && (mt_fill_(grad, mt_scalar_int(0)) < 0 ||
                         mt_scatter_(grad, s->cls_dim, s->idx.t, src, MT_SCATTER_NONE) < 0)) {
        mt_tensor_decref(grad);
        grad = NULL;
    }
    out[0] = grad;
    mt_tensor_decref(src);
    mt_tensor_decref(gp);
    mt_tensor_decref(neg);
    mt_tensor_decref(g);
    return mt__outs_done(out, needs, 1);
}

/* ---- the kinds -------------------------------------------------------------------------------- */

static const mt_cnode_kind mt__kinds[] = {
    {"add", MT__MAP_SCALE, mt__map_attach, mt__map_backward},
    {"reshape", MT__MAP_RESHAPE, mt__map_attach, mt__map_backward},
    {"sum", MT__MAP_EXPAND, mt__map_attach, mt__map_backward},
    {"mul", MT__BIN_MUL, mt__binary_attach, mt__mul_backward},
    {"relu", 0, mt__result_attach, mt__relu_backward},
    {"log_softmax", 0, mt__result_attach, mt__log_softmax_backward},
    {"linear", 0, mt__linear_attach, mt__linear_backward},
    {"conv2d", 1, mt__window_attach, mt__conv_backward},
    {"max_pool2d", 0, mt__window_attach, mt__pool_backward},
    {"nll", 0, mt__nll_attach, mt__nll_backward},
    {"unary", 0, mt__unary_attach, mt__unary_backward},
    {"div", MT__BIN_DIV, mt__binary_attach, mt__div_backward},
    {"mm", 0, mt__mm_attach, mt__mm_backward},
    {"transpose", 0, mt__transpose_attach, mt__transpose_backward},
    {"layer_norm", 0, mt__norm_attach, mt__layer_norm_backward},
    {"batch_norm", 1, mt__norm_attach, mt__batch_norm_backward},
};

int
mt__cnode_run(MTNodeObject *node, mt_tensor *const *grads, const bool *needs, mt_tensor **out)
{
    if (node->dstate != NULL) {
        return mt__dnode_run(node, grads, needs, out);
    }
    mt__saved_list *l = node->cstate;
    for (int i = 0; i < l->n; i++) {
        int rc = mt__check_saved(l->v[i], Py_TYPE(node)->tp_name);
        if (rc < 0) {
            return rc;
        }
    }
    return node->ckind->backward(node->cstate, grads, needs, out);
}

bool
mt__cnode_saves(const MTNodeObject *node)
{
    if (node->dstate != NULL) {
        return mt__dstate_saves(node->dstate);
    }
    const mt__saved_list *l = node->cstate;
    for (int i = 0; l != NULL && i < l->n; i++) {
        if (l->v[i]->t != NULL) {
            return true;
        }
    }
    return false;
}

void
mt__cnode_release(MTNodeObject *node)
{
    mt__dstate_release_impls(node->dstate);
    if (node->cstate != NULL) {
        mt__state_free(node->cstate);
        node->cstate = NULL;
    }
}

/* _set_cbackward(node, kind, *args): gives the node the C formula `kind` (Note [C backward
 * formulas]); args as each kind's attach says. */
static PyObject *
mt_py_set_cbackward(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs < 2 || !mt__node_check(args[0]) || !PyUnicode_Check(args[1])) {
        PyErr_SetString(PyExc_TypeError, "_set_cbackward(node, kind, *args)");
        return NULL;
    }
    const char *name = PyUnicode_AsUTF8(args[1]);
    if (name == NULL) {
        return NULL;
    }
    MTNodeObject *node = (MTNodeObject *)args[0];
    if (node->dstate != NULL) {
        PyErr_SetString(PyExc_TypeError, "_set_cbackward(): the node has a declared formula");
        return NULL;
    }
    for (size_t i = 0; i < sizeof(mt__kinds) / sizeof(mt__kinds[0]); i++) {
        if (strcmp(mt__kinds[i].name, name) == 0) {
            void *state = NULL;
            if (mt__kinds[i].attach(args + 2, nargs - 2, mt__kinds[i].mode, &state) < 0) {
                return NULL;
            }
            mt__cnode_release(node);
            node->ckind = &mt__kinds[i];
            node->cstate = state;
            Py_RETURN_NONE;
        }
    }
    PyErr_Format(PyExc_ValueError, "_set_cbackward(): no C formula named '%s'", name);
    return NULL;
}

static PyMethodDef mt_cnode_functions[] = {
    {"_set_cbackward", (PyCFunction)(void (*)(void))mt_py_set_cbackward, METH_FASTCALL, NULL},
    {NULL},
};

int
mt__cnodes_init(PyObject *module)
{
    return PyModule_AddFunctions(module, mt_cnode_functions);
}
