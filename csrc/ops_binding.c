/* csrc/ops_binding.c - elementwise ops as Tensor methods, module functions and Python operators. */
#include <math.h>

#include "csrc/common.h"
#include "csrc/autograd/autograd.h"
#include "csrc/autocast.h"
#include "aten_lite/iter.h"

#include <string.h>

#define IMPL(self) (((MTTensorObject *)(self))->impl)
#define FASTKW(name) (PyCFunction)(void (*)(void))name, METH_FASTCALL | METH_KEYWORDS

/* Kernels on fewer elements than this run without releasing the GIL. */
#define MT__GIL_THRESHOLD 32768

/* Converts a tensor or a Python/NumPy number into an operand.  Returns 1 on
 * success, 0 when o is neither (no exception set), -1 on error.  A tensor
 * operand holds a new reference to its impl (Note [Impls across Python code
 * and the GIL]): release it with mt__arg_release. */
/* An empty operand (no tensor, scalar 0), written field by field: building the struct
 * in a temporary and copying it makes the compiler read back wider than it wrote (a
 * store-forwarding stall on every op call). */
static inline void
mt__arg_init(mt_arg *a)
{
    a->t = NULL;
    a->s.kind = MT_SCALAR_INT;
    a->s.v.i = 0;
}

static int
mt__arg_from_py(PyObject *o, mt_arg *out)
{
    mt__arg_init(out);
    if (mt__tensor_check(o)) {
        out->t = mt__tensor_impl_ref(o);
        return 1;
    }
    if (mt__is_number(o) || mt__is_numpy_scalar(o)) {
        return mt__scalar_from_py(o, &out->s, "op") < 0 ? -1 : 1;
    }
    return 0;
}

static void
mt__arg_release(mt_arg *a)
{
    mt_tensor_decref(a->t);
    a->t = NULL;
}

static int
mt__arg_required(PyObject *o, mt_arg *out, const char *fname, const char *what)
{
    int r = mt__arg_from_py(o, out);
    if (r == 0) {
        PyErr_Format(PyExc_TypeError, "%s(): argument '%s' must be Tensor or Number, not %s", fname,
                     what, Py_TYPE(o)->tp_name);
    }
    return r == 1 ? 0 : -1;
}

static int64_t
mt__numel_of(mt_arg x)
{
    return x.t ? x.t->numel : 1;
}

/* Resizes an out= tensor to the broadcast shape of the tensor arguments when
 * it differs (mt__resize_output: torch resizes outputs, warning when they had
 * elements).  Arguments that do not broadcast leave it alone: the op reports
 * that.  0 or -1. */
static int
mt__fit_out(PyObject *out_obj, int n, const mt_arg *args)
{
    if (out_obj == NULL || out_obj == Py_None) {
        return 0;
    }
    int nd = 0;
    int64_t shape[MT_MAX_DIMS] = {0};
    for (int i = 0; i < n; i++) {
        const mt_tensor *t = args[i].t;
        int64_t b[MT_MAX_DIMS];
        int nb;
        if (t == NULL) {
            continue;
        }
        if (mt_broadcast_shapes(nd, shape, t->ndim, t->sizes, &nb, b) < 0) {
            return 0;
        }
        memcpy(shape, b, sizeof(int64_t) * (size_t)nb);
        nd = nb;
    }
    return mt__resize_output(out_obj, nd, shape);
}

/* Runs a binary op; `result_obj` (out= or self for in-place) is returned
 * instead of a new tensor when given. */
static PyObject *
mt__do_binary(mt_op op, mt_arg a, mt_arg b, PyObject *result_obj, mt_scalar alpha)
{
    mt_tensor *out = result_obj ? mt__tensor_impl_ref(result_obj) : NULL;
    mt_tensor *r;
    int64_t n = mt__numel_of(a) > mt__numel_of(b) ? mt__numel_of(a) : mt__numel_of(b);
    if (n >= MT__GIL_THRESHOLD) {
        Py_BEGIN_ALLOW_THREADS
        r = mt_binary(op, a, b, out, alpha);
        Py_END_ALLOW_THREADS
    }
    else {
        r = mt_binary(op, a, b, out, alpha);
    }
    mt_tensor_decref(out);
    if (r == NULL) {
        return mt__raise(0);
    }
    if (result_obj != NULL) {
        mt_tensor_decref(r);
        return Py_NewRef(result_obj);
    }
    return mt__tensor_wrap(r);
}

static PyObject *
mt__do_unary(mt_op op, PyObject *self, PyObject *result_obj)
{
    mt_tensor *out = result_obj ? mt__tensor_impl_ref(result_obj) : NULL;
    mt_tensor *in = mt__tensor_impl_ref(self);
    mt_tensor *r;
    if (in->numel >= MT__GIL_THRESHOLD) {
        Py_BEGIN_ALLOW_THREADS
        r = mt_unary(op, in, out);
        Py_END_ALLOW_THREADS
    }
    else {
        r = mt_unary(op, in, out);
    }
    mt_tensor_decref(in);
    mt_tensor_decref(out);
    if (r == NULL) {
        return mt__raise(0);
    }
    if (result_obj != NULL) {
        mt_tensor_decref(r);
        return Py_NewRef(result_obj);
    }
    return mt__tensor_wrap(r);
}

/* Picks the op variant for alpha / rounding_mode keywords. */
static int
mt__resolve_op(mt_op *op, PyObject *alpha_obj, mt_scalar *alpha, PyObject *mode, const char *fname)
{
    *alpha = mt_scalar_int(1);
    if (alpha_obj != NULL && alpha_obj != Py_None) {
        if (*op != MT_OP_ADD && *op != MT_OP_SUB) {
            PyErr_Format(PyExc_TypeError, "%s() got an unexpected keyword argument 'alpha'", fname);
            return -1;
        }
        if (mt__scalar_from_py(alpha_obj, alpha, fname) < 0) {
            return -1;
        }
        bool one = alpha->kind == MT_SCALAR_FLOAT ? alpha->v.f == 1.0 : mt_scalar_to_int64(*alpha) == 1;
        if (!one || alpha->kind == MT_SCALAR_FLOAT) {
            *op = *op == MT_OP_ADD ? MT_OP_ADD_ALPHA : MT_OP_SUB_ALPHA;
        }
    }
    if (mode != NULL && mode != Py_None) {
        if (*op != MT_OP_DIV) {
            PyErr_Format(PyExc_TypeError, "%s() got an unexpected keyword argument 'rounding_mode'", fname);
            return -1;
        }
        const char *m = PyUnicode_Check(mode) ? PyUnicode_AsUTF8(mode) : NULL;
        if (m != NULL && strcmp(m, "trunc") == 0) {
            *op = MT_OP_DIV_TRUNC;
        }
        else if (m != NULL && strcmp(m, "floor") == 0) {
            *op = MT_OP_DIV_FLOOR;
        }
        else {
            PyErr_Format(PyExc_ValueError,
                         "div expected rounding_mode to be one of None, 'trunc', or 'floor' but "
                         "found '%S'", mode);
            return -1;
        }
    }
    return 0;
}

/* self.op(other, *, alpha, rounding_mode, out), self.op_(other, ...), minitorch.op(input, other, ...) */
static PyObject *
mt__binary_entry(mt_op op, const char *fname, PyObject *self, PyObject *const *args,
                 Py_ssize_t nargs, PyObject *kwnames, int inplace)
{
    static const char *const fnames[] = {"input", "other", "alpha", "rounding_mode", "out", NULL};
    static const char *const mnames[] = {"other", "alpha", "rounding_mode", "out", NULL};
    /* torch names pow's second argument `exponent` */
    static const char *const pow_fnames[] = {"input", "exponent", "alpha", "rounding_mode", "out", NULL};
    static const char *const pow_mnames[] = {"exponent", "alpha", "rounding_mode", "out", NULL};
    bool pow = op == MT_OP_POW;
    const char *other_name = pow ? "exponent" : "other";
    Py_ssize_t npos = self == NULL ? 3 : 2;
    if ((op == MT_OP_ADD || op == MT_OP_SUB) && nargs == npos && kwnames == NULL &&
        (mt__is_number(args[npos - 2]) ||
         (mt__tensor_check(args[npos - 2]) && mt__tensor_impl(args[npos - 2])->ndim == 0))) {
        /* torch's deprecated overload op(input, alpha, other): three positional arguments,
         * the second a number (or a 0-d tensor, which torch reads as one) */
        if (PyErr_WarnFormat(PyExc_UserWarning, 1,
                             "This overload of %s is deprecated:\n\t%s(Tensor input, Number alpha, Tensor other)\n"
                             "Consider using one of the following signatures instead:\n\t%s(Tensor input, "
                             "Tensor other, *, Number alpha = 1)", fname, fname, fname) < 0) {
            return NULL;
        }
        PyObject *kw = Py_BuildValue("(s)", "alpha");
        if (kw == NULL) {
            return NULL;
        }
        PyObject *re[3];
        Py_ssize_t k = 0;
        if (self == NULL) {
            re[k++] = args[0];
        }
        re[k++] = args[npos - 1];
        PyObject *alpha = mt__tensor_check(args[npos - 2]) ? PyObject_CallMethod(args[npos - 2], "item", NULL)
                                                           : Py_NewRef(args[npos - 2]);
        if (alpha == NULL) {
            Py_DECREF(kw);
            return NULL;
        }
        re[k++] = alpha;
        PyObject *r = mt__binary_entry(op, fname, self, re, k - 1, kw, inplace);
        Py_DECREF(alpha);
        Py_DECREF(kw);
        return r;
    }
    PyObject *a[5];
    PyObject *input, *other, *alpha_obj, *mode, *out_obj;
    if (self == NULL) {
        if (mt__parse_args(fname, args, nargs, kwnames, pow ? pow_fnames : fnames, 2, 2, a) < 0) {
            return NULL;
        }
        input = a[0], other = a[1], alpha_obj = a[2], mode = a[3], out_obj = a[4];
    }
    else {
        if (mt__parse_args(fname, args, nargs, kwnames, pow ? pow_mnames : mnames, 1, 1, a) < 0) {
            return NULL;
        }
        input = self, other = a[0], alpha_obj = a[1], mode = a[2], out_obj = a[3];
    }
    if (inplace && out_obj != NULL) {
        PyErr_Format(PyExc_TypeError, "%s() got an unexpected keyword argument 'out'", fname);
        return NULL;
    }
    mt_arg x, y;
    mt__arg_init(&x);
    mt__arg_init(&y);
    mt_tensor *out;
    mt_scalar alpha;
    PyObject *r = NULL;
    if (mt__arg_required(input, &x, fname, "input") < 0 || mt__arg_required(other, &y, fname, other_name) < 0 ||
        mt__out_arg(out_obj, &out, fname) < 0 || mt__resolve_op(&op, alpha_obj, &alpha, mode, fname) < 0) {
        goto done;
    }
    if (x.t == NULL && y.t == NULL) {
        /* two numbers: as torch, the first becomes a 0-d tensor (of the dtype a lone number
         * gets, so the result type is that of the two numbers) */
        x.t = mt_tensor_empty(mt_scalar_dtype(x.s), 0, NULL, MT_DEVICE_CPU);
        if (x.t == NULL || mt_fill_(x.t, x.s) < 0) {
            mt__raise(0);
            goto done;
        }
    }
    if (inplace && x.t == NULL) {
        PyErr_Format(PyExc_TypeError, "%s(): in-place operations need a Tensor input", fname);
        goto done;
    }
    /* out= is checked before it is resized (a failing call leaves it as it
     * was); it may be an input: resizing it leaves x and y on the impls they hold */
    mt_dtype cdt, rdt;
    if (!inplace && out != NULL && mt_binary_dtypes(op, x, y, alpha, out, &cdt, &rdt) < 0) {
        mt__raise(0);
        goto done;
    }
    if (!inplace && mt__fit_out(out_obj, 2, (const mt_arg[]){x, y}) < 0) {
        goto done;
    }
    r = mt__do_binary(op, x, y, inplace ? input : (out ? out_obj : NULL), alpha);
done:
    mt__arg_release(&x);
    mt__arg_release(&y);
    return r;
}

/* round(x, decimals=d) as torch computes it, in x's dtype: nearbyint(x * 10^d) / 10^d, or
 * for d < 0 nearbyint(x / 10^-d) * 10^-d.  Written into result_obj when given. */
static PyObject *
mt__round_decimals(PyObject *input, long long d, PyObject *result_obj)
{
    mt_tensor *x = mt__tensor_impl_ref(input);
    if (!mt_dtype_is_floating(x->dtype)) {
        PyErr_Format(PyExc_NotImplementedError, "\"round_cpu\" not implemented for '%s'",
                     mt_dtype_scalar_name(x->dtype));
        mt_tensor_decref(x);
        return NULL;
    }
    const mt_scalar p = mt_scalar_float(pow(10.0, (double)(d < 0 ? -d : d)));
    const mt_scalar one = mt_scalar_int(1);
    mt_tensor *out = result_obj ? mt__tensor_impl_ref(result_obj) : NULL;
    mt_tensor *scaled, *rounded = NULL, *r = NULL;
    Py_BEGIN_ALLOW_THREADS
    scaled = mt_binary(d > 0 ? MT_OP_MUL : MT_OP_DIV, mt_arg_tensor(x), mt_arg_scalar(p), NULL, one);
    if (scaled != NULL) {
        rounded = mt_unary(MT_OP_ROUND, scaled, NULL);
    }
    if (rounded != NULL) {
        r = mt_binary(d > 0 ? MT_OP_DIV : MT_OP_MUL, mt_arg_tensor(rounded), mt_arg_scalar(p), out,
                      one);
    }
    Py_END_ALLOW_THREADS
    mt_tensor_decref(scaled);
    mt_tensor_decref(rounded);
    mt_tensor_decref(x);
    mt_tensor_decref(out);
    if (r == NULL) {
        return mt__raise(0);
    }
    if (result_obj != NULL) {
        mt_tensor_decref(r);
        return Py_NewRef(result_obj);
    }
    return mt__tensor_wrap(r);
}

static PyObject *
mt__unary_entry(mt_op op, const char *fname, PyObject *self, PyObject *const *args,
                Py_ssize_t nargs, PyObject *kwnames, int inplace)
{
    /* round also takes decimals= (keyword only), as torch */
    static const char *const fnames[] = {"input", "out", NULL};
    static const char *const mnames[] = {"out", NULL};
    static const char *const rfnames[] = {"input", "out", "decimals", NULL};
    static const char *const rmnames[] = {"out", "decimals", NULL};
    const bool round = op == MT_OP_ROUND;
    PyObject *a[3] = {NULL, NULL, NULL};
    PyObject *input, *out_obj, *decimals;
    if (self == NULL) {
        if (mt__parse_args(fname, args, nargs, kwnames, round ? rfnames : fnames, 1, 1, a) < 0) {
            return NULL;
        }
        input = a[0], out_obj = a[1], decimals = a[2];
    }
    else {
        if (mt__parse_args(fname, args, nargs, kwnames, round ? rmnames : mnames, 0, 0, a) < 0) {
            return NULL;
        }
        input = self, out_obj = a[0], decimals = a[1];
    }
    if (!mt__tensor_check(input)) {
        PyErr_Format(PyExc_TypeError, "%s(): argument 'input' must be Tensor, not %s", fname,
                     Py_TYPE(input)->tp_name);
        return NULL;
    }
    mt_tensor *out;
    if ((inplace && out_obj != NULL && out_obj != Py_None) || mt__out_arg(out_obj, &out, fname) < 0) {
        if (!PyErr_Occurred()) {
            PyErr_Format(PyExc_TypeError, "%s() got an unexpected keyword argument 'out'", fname);
        }
        return NULL;
    }
    mt_dtype cdt, rdt;
    if (!inplace && out != NULL && mt_unary_dtypes(op, IMPL(input), out, &cdt, &rdt) < 0) {
        return mt__raise(0);
    }
    if (!inplace && mt__fit_out(out_obj, 1, (const mt_arg[]){mt_arg_tensor(IMPL(input))}) < 0) {
        return NULL;
    }
    if (decimals != NULL && decimals != Py_None) {
        long long d = PyLong_AsLongLong(decimals);
        if (d == -1 && PyErr_Occurred()) {
            return NULL;
        }
        if (d != 0) {
            return mt__round_decimals(input, d, inplace ? input : (out ? out_obj : NULL));
        }
    }
    return mt__do_unary(op, input, inplace ? input : (out ? out_obj : NULL));
}

/* Generated entry points: method, in-place method and function per op. */
#define MT__BINARY_ENTRIES(E, name)                                                            \
    static PyObject *mt_m_##name(PyObject *self, PyObject *const *args, Py_ssize_t nargs,      \
                                 PyObject *kw)                                                 \
    {                                                                                          \
        return mt__binary_entry(E, #name, self, args, nargs, kw, 0);                           \
    }                                                                                          \
    static PyObject *mt_m_##name##_(PyObject *self, PyObject *const *args, Py_ssize_t nargs,     \
                                  PyObject *kw)                                                \
    {                                                                                          \
        return mt__binary_entry(E, #name "_", self, args, nargs, kw, 1);                       \
    }                                                                                          \
    static PyObject *mt_f_##name(PyObject *m, PyObject *const *args, Py_ssize_t nargs,         \
                                 PyObject *kw)                                                 \
    {                                                                                          \
        return mt__binary_entry(E, #name, NULL, args, nargs, kw, 0);                           \
    }
#define MT__UNARY_ENTRIES(E, name)                                                             \
    static PyObject *mt_m_##name(PyObject *self, PyObject *const *args, Py_ssize_t nargs,      \
                                 PyObject *kw)                                                 \
    {                                                                                          \
        return mt__unary_entry(E, #name, self, args, nargs, kw, 0);                            \
    }                                                                                          \
    static PyObject *mt_m_##name##_(PyObject *self, PyObject *const *args, Py_ssize_t nargs,     \
                                  PyObject *kw)                                                \
    {                                                                                          \
        return mt__unary_entry(E, #name "_", self, args, nargs, kw, 1);                        \
    }                                                                                          \
    static PyObject *mt_f_##name(PyObject *m, PyObject *const *args, Py_ssize_t nargs,         \
                                 PyObject *kw)                                                 \
    {                                                                                          \
        return mt__unary_entry(E, #name, NULL, args, nargs, kw, 0);                            \
    }

/* The public op list (the *_ALPHA / DIV_* variants are reached through keywords). */
#define MT__PUBLIC_BINARY(X)                                                                   \
    X(MT_OP_ADD, add) X(MT_OP_SUB, sub) X(MT_OP_MUL, mul) X(MT_OP_DIV, div)                    \
    X(MT_OP_DIV_FLOOR, floor_divide) X(MT_OP_REMAINDER, remainder) X(MT_OP_FMOD, fmod)         \
    X(MT_OP_POW, pow) X(MT_OP_MAXIMUM, maximum) X(MT_OP_MINIMUM, minimum)                      \
    X(MT_OP_ATAN2, atan2) X(MT_OP_EQ, eq) X(MT_OP_NE, ne) X(MT_OP_LT, lt) X(MT_OP_LE, le)      \
    X(MT_OP_GT, gt) X(MT_OP_GE, ge) X(MT_OP_LOGICAL_AND, logical_and)                          \
    X(MT_OP_LOGICAL_OR, logical_or) X(MT_OP_LOGICAL_XOR, logical_xor)                          \
    X(MT_OP_BITWISE_AND, bitwise_and) X(MT_OP_BITWISE_OR, bitwise_or)                          \
    X(MT_OP_BITWISE_XOR, bitwise_xor) X(MT_OP_LSHIFT, bitwise_left_shift)                      \
    X(MT_OP_RSHIFT, bitwise_right_shift) X(MT_OP_HYPOT, hypot) X(MT_OP_LOGADDEXP, logaddexp)    \
    X(MT_OP_LOGADDEXP2, logaddexp2) X(MT_OP_FMAX, fmax) X(MT_OP_FMIN, fmin)                    \
    X(MT_OP_COPYSIGN, copysign) X(MT_OP_XLOGY, xlogy)

MT__PUBLIC_BINARY(MT__BINARY_ENTRIES)
MT_FORALL_UNARY_OPS(MT__UNARY_ENTRIES)

/* ------------------------------------------------------------------ */
/* where / masked_fill                                                  */

static PyObject *
mt__where_impl(PyObject *cond, PyObject *x, PyObject *y, PyObject *out_obj, const char *fname)
{
    if (!mt__tensor_check(cond)) {
        PyErr_Format(PyExc_TypeError, "%s(): argument 'condition' must be Tensor, not %s", fname,
                     Py_TYPE(cond)->tp_name);
        return NULL;
    }
    mt_arg a, b;
    mt__arg_init(&a);
    mt__arg_init(&b);
    mt_tensor *out, *c = mt__tensor_impl_ref(cond), *r = NULL;
    PyObject *res = NULL;
    if (mt__arg_required(x, &a, fname, "input") < 0 || mt__arg_required(y, &b, fname, "other") < 0 ||
        mt__out_arg(out_obj, &out, fname) < 0) {
        goto done;
    }
    mt_dtype rdt;
    if (out != NULL && mt_where_dtype(a, b, out, &rdt) < 0) {
        mt__raise(0);
        goto done;
    }
    if (mt__fit_out(out_obj, 3, (const mt_arg[]){mt_arg_tensor(c), a, b}) < 0) {
        goto done;
    }
    out = out ? IMPL(out_obj) : NULL;
    r = mt_where(c, a, b, out);
    if (r == NULL) {
        res = mt__raise(0);
    }
    else if (out != NULL) {
        mt_tensor_decref(r);
        res = Py_NewRef(out_obj);
    }
    else {
        res = mt__tensor_wrap(r);
    }
done:
    mt_tensor_decref(c);
    mt__arg_release(&a);
    mt__arg_release(&b);
    return res;
}

static PyObject *
mt_py_where_raw(PyObject *m, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    static const char *const names[] = {"condition", "input", "other", "out", NULL};
    PyObject *a[4];
    if (mt__parse_args("where", args, nargs, kwnames, names, 3, 1, a) < 0) {
        return NULL;
    }
    if (a[1] == NULL || a[2] == NULL) {
        PyErr_SetString(PyExc_NotImplementedError,
                        "where(condition) with one argument (nonzero) is not implemented yet");
        return NULL;
    }
    return mt__where_impl(a[0], a[1], a[2], a[3], "where");
}

static PyObject *
mt_m_where(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    static const char *const names[] = {"condition", "other", NULL};
    PyObject *a[2];
    if (mt__parse_args("where", args, nargs, kwnames, names, 2, 2, a) < 0) {
        return NULL;
    }
    return mt__where_impl(a[0], self, a[1], NULL, "where");
}

static PyObject *
mt__masked_fill(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames,
                int inplace)
{
    static const char *const names[] = {"mask", "value", NULL};
    PyObject *a[2];
    const char *fname = inplace ? "masked_fill_" : "masked_fill";
    if (mt__parse_args(fname, args, nargs, kwnames, names, 2, 2, a) < 0) {
        return NULL;
    }
    if (!mt__tensor_check(a[0]) || IMPL(a[0])->dtype != MT_BOOL) {
        PyErr_Format(PyExc_RuntimeError, "%s only supports boolean masks, but got mask with dtype %s",
                     fname, mt__tensor_check(a[0]) ? mt_dtype_name(IMPL(a[0])->dtype) : Py_TYPE(a[0])->tp_name);
        return NULL;
    }
    mt_arg v;
    if (mt__tensor_check(a[1]) && IMPL(a[1])->ndim != 0) {
        PyErr_Format(PyExc_RuntimeError,
                     "%s only supports a 0-dimensional value tensor, but got tensor with %d "
                     "dimension(s).", fname, IMPL(a[1])->ndim);
        return NULL;
    }
    if (mt__arg_required(a[1], &v, fname, "value") < 0) {
        return NULL;
    }
    mt_tensor *t = IMPL(self);
    /* the value takes self's dtype, as torch */
    mt_scalar sv;
    if (v.t != NULL) {
        int rc = mt_item(v.t, &sv); /* a device tensor's element is copied to the host */
        mt__arg_release(&v);
        if (rc < 0) {
            return mt__raise(0);
        }
    }
    else {
        sv = v.s;
    }
    /* converted as fill_ converts it: 2.5 -> 2 for integers, out of range raises */
    if (mt_scalar_check_range(sv, t->dtype) < 0) {
        return mt__raise(0);
    }
    /* in place, the mask broadcasts to self and self's shape may not grow */
    mt_tensor *target = inplace ? t : NULL;
    uint64_t buf[2] = {0, 0}; /* room for the widest element (complex128) */
    mt_scalar_store(sv, t->dtype, buf);
    mt_scalar cast = mt_scalar_load(buf, t->dtype);
    mt_tensor *r = mt_where(IMPL(a[0]), mt_arg_scalar(cast), mt_arg_tensor(t), target);
    if (r == NULL) {
        return mt__raise(0);
    }
    if (r->dtype != t->dtype) {
        mt_tensor *c = mt_to_dtype(r, t->dtype, false);
        mt_tensor_decref(r);
        r = c;
        if (r == NULL) {
            return mt__raise(0);
        }
    }
    if (inplace) {
        mt_tensor_decref(r);
        return Py_NewRef(self);
    }
    return mt__tensor_wrap(r);
}

static PyObject *
mt_m_masked_fill(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    return mt__masked_fill(self, args, nargs, kwnames, 0);
}

static PyObject *
mt_m_masked_fill_(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    return mt__masked_fill(self, args, nargs, kwnames, 1);
}

static PyObject *
mt_f_result_type(PyObject *m, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    static const char *const names[] = {"tensor1", "tensor2", NULL};
    PyObject *a[2];
    mt_arg x, y;
    mt__arg_init(&x);
    mt__arg_init(&y);
    PyObject *r = NULL;
    if (mt__parse_args("result_type", args, nargs, kwnames, names, 2, 2, a) == 0 &&
        mt__arg_required(a[0], &x, "result_type", "tensor1") >= 0 &&
        mt__arg_required(a[1], &y, "result_type", "tensor2") >= 0) {
        mt_dtype dt = mt_result_type2(x, y);
        r = dt == MT_DTYPE_UNDEFINED ? mt__raise(MT_ERUNTIME) : Py_NewRef(mt__dtype_object(dt));
    }
    mt__arg_release(&x);
    mt__arg_release(&y);
    return r;
}

static PyObject *
mt_f_promote_types(PyObject *m, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    static const char *const names[] = {"type1", "type2", NULL};
    PyObject *a[2];
    mt_dtype x, y;
    if (mt__parse_args("promote_types", args, nargs, kwnames, names, 2, 2, a) < 0) {
        return NULL;
    }
    if (mt__dtype_is_named(a[0]) || mt__dtype_is_named(a[1])) {
        if (!mt__dtype_check(a[0]) || !mt__dtype_check(a[1])) {
            return PyErr_Format(PyExc_TypeError, "promote_types(): arguments must be minitorch.dtype");
        }
        return mt__dtype_promote_named(a[0], a[1]);
    }
    if (mt__dtype_from_py(a[0], &x, "type1") < 0 || mt__dtype_from_py(a[1], &y, "type2") < 0) {
        return NULL;
    }
    mt_dtype r = mt_promote_types(x, y);
    return r == MT_DTYPE_UNDEFINED ? mt__raise(MT_ERUNTIME) : Py_NewRef(mt__dtype_object(r));
}

static PyObject *
mt_f_can_cast(PyObject *m, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    static const char *const names[] = {"from_", "to", NULL};
    PyObject *a[2];
    mt_dtype x, y;
    if (mt__parse_args("can_cast", args, nargs, kwnames, names, 2, 2, a) < 0 ||
        mt__dtype_from_py(a[0], &x, "from_") < 0 || mt__dtype_from_py(a[1], &y, "to") < 0) {
        return NULL;
    }
    return PyBool_FromLong(mt_can_cast(x, y));
}

MT_OPTABLE_OPS_METHOD_WRAPPERS(MT_AG_WRAPPER)
MT_OPTABLE_OPS_METHOD_AUTOCAST(MT_AC_WRAPPER)

static PyMethodDef mt_op_methods[] = {
    MT_OPTABLE_OPS_METHODS(MT_OPTABLE_DEF)
    {NULL},
};

MT_OPTABLE_OPS_FUNCTION_WRAPPERS(MT_AG_WRAPPER)
MT_OPTABLE_OPS_FUNCTION_AUTOCAST(MT_AC_WRAPPER)

static PyMethodDef mt_op_functions[] = {
    MT_OPTABLE_OPS_FUNCTIONS(MT_OPTABLE_DEF)
    /* where(condition, input, other); minitorch.where (its one-argument form too) is Python's */
    {"_where", FASTKW(mt_py_where_raw), NULL},
    {NULL},
};

/* ------------------------------------------------------------------ */
/* number protocol                                                      */

/* tensor <op> ndarray: the array is copied into a tensor first.  out is the
 * in-place target or NULL.  Returns a new reference or NULL. */
static PyObject *
mt__operator_ndarray(mt_op op, PyObject *tensor, PyObject *arr, PyObject *out)
{
    PyObject *other = mt__from_numpy_copy(arr);
    if (other == NULL) {
        return NULL;
    }
    /* no Python code runs between here and the kernel, so borrowed impls do */
    PyObject *r = mt__do_binary(op, mt_arg_tensor(IMPL(tensor)), mt_arg_tensor(IMPL(other)), out,
                                mt_scalar_int(1));
    Py_DECREF(other);
    return r;
}

/* a <op> b for operators: NotImplemented when an operand is not ours. */
static PyObject *
mt__operator(mt_op op, PyObject *a, PyObject *b)
{
    mt_arg x, y;
    mt__arg_init(&y);
    PyObject *r = NULL;
    int ra = mt__arg_from_py(a, &x);
    int rb = ra > 0 ? mt__arg_from_py(b, &y) : 0;
    if (ra < 0 || rb < 0) {
        goto done;
    }
    if (ra && x.t != NULL && !rb && mt__is_ndarray(b)) {
        /* tensor <op> ndarray takes the array as a tensor, as torch; the
         * reflected ndarray <op> tensor stays a TypeError (NumPy defers to us
         * through __array_priority__ and we decline), as torch */
        r = mt__operator_ndarray(op, a, b, NULL);
    }
    else if (!ra || !rb) {
        r = Py_NewRef(Py_NotImplemented);
    }
    else if (op == MT_OP_DIV && x.t == NULL && y.t != NULL) {
        /* number / tensor is tensor.reciprocal() * number in torch (its
         * __rtruediv__), which can differ from a true division in the last bit */
        PyObject *rec = mt__do_unary(MT_OP_RECIPROCAL, b, NULL);
        if (rec != NULL) {
            r = mt__do_binary(MT_OP_MUL, mt_arg_tensor(IMPL(rec)), x, NULL, mt_scalar_int(1));
            Py_DECREF(rec);
        }
    }
    else {
        r = mt__do_binary(op, x, y, NULL, mt_scalar_int(1));
    }
done:
    mt__arg_release(&x);
    mt__arg_release(&y);
    return r;
}

static PyObject *
mt__inplace_operator(mt_op op, PyObject *self, PyObject *other)
{
    mt_arg y;
    int r = mt__arg_from_py(other, &y);
    if (r > 0) {
        mt_tensor *s = mt__tensor_impl_ref(self);
        PyObject *res = mt__do_binary(op, mt_arg_tensor(s), y, self, mt_scalar_int(1));
        mt_tensor_decref(s);
        mt__arg_release(&y);
        return res;
    }
    if (r < 0) {
        return NULL;
    }
    if (mt__is_ndarray(other)) {
        return mt__operator_ndarray(op, self, other, self);
    }
    if (op == MT_OP_ADD) {
        /* A Python subclass inherits nb_inplace_add as its sq_inplace_concat too
         * (CPython matches the slot wrappers), so NotImplemented here would be
         * handed back as the value of `t += obj`: finish with the plain `+`
         * protocol instead (obj.__radd__, or the TypeError). */
        return PyNumber_Add(self, other);
    }
    Py_RETURN_NOTIMPLEMENTED;
}

/* Operators are recorded as "o.<slot>" / "o.inplace_<slot>" (see Note [Recording an op]). */
static int
mt__ag_operator(const char *key, PyObject *a, PyObject *b, PyObject **r)
{
    PyObject *argv[2] = {a, b};
    if (mt__tf_on && mt__tf_dispatch(key, NULL, argv, b != NULL ? 2 : 1, NULL, r)) {
        return 1;
    }
    return mt__ag_maybe() && mt__ag_intercept(key, NULL, argv, b != NULL ? 2 : 1, NULL, r);
}

/* The recording prologue of an operator (Note [Declared nodes]): `call` runs it. */
#define MT__AG_OPERATOR(key, a, b, call)                                                  \
    if (mt__tf_on) {                                                                      \
        PyObject *tfv_[2] = {a, b};                                                       \
        MT__TF_CHECK(key, NULL, tfv_, b != NULL ? 2 : 1, NULL)                            \
    }                                                                                     \
    if (mt__ag_maybe()) {                                                                 \
        static const struct mt_derivative *decl_ = MT__DUNSET;                            \
        PyObject *argv_[2] = {a, b};                                                      \
        mt_drecord rec_;                                                                  \
        int h_ = mt__ag_begin(key, &decl_, NULL, argv_, b != NULL ? 2 : 1, NULL, &rec_);  \
        if (h_ == 1) {                                                                    \
            return mt__drecord_end(&rec_, call);                                          \
        }                                                                                 \
        PyObject *r_;                                                                     \
        if (h_ < 0 && mt__ag_operator(key, a, b, &r_)) {                                  \
            return r_;                                                                    \
        }                                                                                 \
    }

#define MT__NB_INPLACE(slot, OP)                                      \
    PyObject *mt__nb_inplace_##slot(PyObject *a, PyObject *b)         \
    {                                                                 \
        PyObject *r;                                                  \
        if (mt__ag_operator("o.inplace_" #slot, a, b, &r)) {          \
            return r;                                                 \
        }                                                             \
        r = mt__inplace_operator(OP, a, b);                           \
        if (r == a && mt__bump_version(a) < 0) {                      \
            Py_CLEAR(r);                                              \
        }                                                             \
        return r;                                                     \
    }
#define MT__NB(slot, OP)                                              \
    PyObject *mt__nb_##slot(PyObject *a, PyObject *b)                 \
    {                                                                 \
        MT__AG_OPERATOR("o." #slot, a, b, mt__operator(OP, a, b))     \
        return mt__operator(OP, a, b);                                \
    }                                                                 \
    MT__NB_INPLACE(slot, OP)

/* Note [Reflected operators]
 * torch's reflected operators are methods of the tensor: `2 * t` is t.__rmul__(2), which
 * computes mul(t, 2), and `2 / t` is t.__rtruediv__(2), which computes t.reciprocal() * 2.
 * The values of the direct forms are the same, but the recorded graph shows the difference
 * (grad_fn.next_functions lists t's history first and None for the number; 2 / t is a
 * MulBackward0 over a ReciprocalBackward0), so number + tensor and number * tensor are
 * run, and recorded, as tensor + number and tensor * number (both commutative, so the
 * values do not change), and number / tensor as those two recorded ops. */
static int
mt__number_then_tensor(PyObject *a, PyObject *b)
{
    return (PyLong_Check(a) || PyFloat_Check(a) || PyComplex_Check(a)) && mt__tensor_check(b);
}

#define MT__NB_COMMUTATIVE(slot, OP)                                  \
    PyObject *mt__nb_##slot(PyObject *a, PyObject *b)                 \
    {                                                                 \
        if (mt__number_then_tensor(a, b)) {                           \
            PyObject *t_ = a;                                         \
            a = b;                                                    \
            b = t_;                                                   \
        }                                                             \
        MT__AG_OPERATOR("o." #slot, a, b, mt__operator(OP, a, b))     \
        return mt__operator(OP, a, b);                                \
    }                                                                 \
    MT__NB_INPLACE(slot, OP)
MT__NB_COMMUTATIVE(add, MT_OP_ADD)
MT__NB(subtract, MT_OP_SUB)
MT__NB_COMMUTATIVE(multiply, MT_OP_MUL)
PyObject *
mt__nb_true_divide(PyObject *a, PyObject *b)
{
    if (mt__number_then_tensor(a, b)) {
        /* number / tensor: tensor.reciprocal() * number (Note [Reflected operators]) */
        PyObject *rec = PyObject_CallMethod(b, "reciprocal", NULL);
        if (rec == NULL) {
            return NULL;
        }
        PyObject *r = mt__nb_multiply(rec, a);
        Py_DECREF(rec);
        return r;
    }
    MT__AG_OPERATOR("o.true_divide", a, b, mt__operator(MT_OP_DIV, a, b))
    return mt__operator(MT_OP_DIV, a, b);
}
MT__NB_INPLACE(true_divide, MT_OP_DIV)
MT__NB(floor_divide, MT_OP_DIV_FLOOR)
MT__NB(remainder, MT_OP_REMAINDER)
MT__NB(and, MT_OP_BITWISE_AND)
MT__NB(or, MT_OP_BITWISE_OR)
MT__NB(xor, MT_OP_BITWISE_XOR)
MT__NB(lshift, MT_OP_LSHIFT)
MT__NB(rshift, MT_OP_RSHIFT)

PyObject *
mt__nb_power(PyObject *a, PyObject *b, PyObject *mod)
{
    if (mod != Py_None) {
        Py_RETURN_NOTIMPLEMENTED;
    }
    MT__AG_OPERATOR("o.power", a, b, mt__operator(MT_OP_POW, a, b))
    return mt__operator(MT_OP_POW, a, b);
}

PyObject *
mt__nb_inplace_power(PyObject *a, PyObject *b, PyObject *mod)
{
    if (mod != Py_None) {
        Py_RETURN_NOTIMPLEMENTED;
    }
    PyObject *r;
    if (mt__ag_operator("o.inplace_power", a, b, &r)) {
        return r;
    }
    r = mt__inplace_operator(MT_OP_POW, a, b);
    if (r == a && mt__bump_version(a) < 0) {
        Py_CLEAR(r);
    }
    return r;
}

PyObject *
mt__nb_negative(PyObject *a)
{
    MT__AG_OPERATOR("o.negative", a, NULL, mt__do_unary(MT_OP_NEG, a, NULL))
    return mt__do_unary(MT_OP_NEG, a, NULL);
}

PyObject *
mt__nb_positive(PyObject *a)
{
    return Py_NewRef(a);
}

PyObject *
mt__nb_absolute(PyObject *a)
{
    MT__AG_OPERATOR("o.absolute", a, NULL, mt__do_unary(MT_OP_ABS, a, NULL))
    return mt__do_unary(MT_OP_ABS, a, NULL);
}

PyObject *
mt__nb_invert(PyObject *a)
{
    if (IMPL(a)->dtype != MT_BOOL && mt_dtype_is_floating(IMPL(a)->dtype)) {
        PyErr_SetString(PyExc_TypeError, "~ (operator.invert) is only implemented on integer and "
                                         "Boolean-type tensors");
        return NULL;
    }
    return mt__do_unary(MT_OP_BITWISE_NOT, a, NULL);
}

PyObject *
mt__tensor_richcompare(PyObject *a, PyObject *b, int cmp)
{
    static const mt_op ops[] = {[Py_LT] = MT_OP_LT, [Py_LE] = MT_OP_LE, [Py_EQ] = MT_OP_EQ,
                                [Py_NE] = MT_OP_NE, [Py_GT] = MT_OP_GT, [Py_GE] = MT_OP_GE};
    return mt__operator(ops[cmp], a, b);
}

int
mt__ops_binding_init(PyObject *module)
{
    if (mt__add_tensor_methods(mt_op_methods) < 0) {
        return -1;
    }
    return PyModule_AddFunctions(module, mt_op_functions);
}
