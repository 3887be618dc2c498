/* csrc/special_binding.c - the special functions (minitorch.special, digamma, igamma, gcd, ...). */
#include "csrc/common.h"
#include "csrc/autograd/autograd.h"
#include "aten_lite/iter.h"

#include <string.h>

#define IMPL(self) (((MTTensorObject *)(self))->impl)

/* Kernels on fewer elements than this run without releasing the GIL (the special functions
 * cost tens to hundreds of nanoseconds an element). */
#define MT__SF_GIL_THRESHOLD 4096

/* One special function's entry points: its op, torch's name for it in messages, the name of
 * its second parameter (NULL: unary) and whether its operands may be Python numbers. */
typedef struct {
    mt_op op;
    const char *fname;
    const char *other;
    bool numbers;
} mt__sf_spec;

/* A tensor (a new reference to its impl) or, when `numbers` (binary ops only), a Python number.
 * 0 or -1. */
static int
mt__sf_operand(PyObject *o, mt_arg *a, const mt__sf_spec *sp, const char *what, int pos)
{
    a->t = NULL;
    a->s = mt_scalar_int(0);
    if (mt__tensor_check(o)) {
        a->t = mt__tensor_impl_ref(o);
        return 0;
    }
    if (sp->numbers && sp->other != NULL && (mt__is_number(o) || mt__is_numpy_scalar(o))) {
        return mt__scalar_from_py(o, &a->s, sp->fname);
    }
    PyErr_Format(PyExc_TypeError, "%s(): argument '%s' (position %d) must be Tensor, not %s",
                 sp->fname, what, pos, Py_TYPE(o)->tp_name);
    return -1;
}

/* Resizes out= to the broadcast shape of the tensor operands (torch resizes outputs, with its
 * warning when they had elements); operands that do not broadcast leave it for the op to
 * report.  0 or -1. */
static int
mt__sf_fit_out(PyObject *out_obj, const mt_arg *x, const mt_arg *y)
{
    int nd = 0;
    int64_t shape[MT_MAX_DIMS] = {0};
    const mt_arg *args[2] = {x, y};
    for (int i = 0; i < 2; i++) {
        const mt_tensor *t = args[i] != NULL ? args[i]->t : NULL;
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

/* Runs the op (binary when y is given) into `result_obj` (out= or self) or a new tensor. */
static PyObject *
mt__sf_run(mt_op op, mt_arg x, const mt_arg *y, mt_scalar alpha, PyObject *result_obj)
{
    mt_tensor *out = result_obj != NULL ? mt__tensor_impl_ref(result_obj) : NULL;
    int64_t n = x.t != NULL ? x.t->numel : 1;
    if (y != NULL && y->t != NULL && y->t->numel > n) {
        n = y->t->numel;
    }
    mt_tensor *r;
    if (n >= MT__SF_GIL_THRESHOLD) {
        Py_BEGIN_ALLOW_THREADS
        r = y != NULL ? mt_binary(op, x, *y, out, alpha) : mt_unary(op, x.t, out);
        Py_END_ALLOW_THREADS
    }
    else {
        r = y != NULL ? mt_binary(op, x, *y, out, alpha) : mt_unary(op, x.t, out);
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

/* f(input[, other], *, out=None), self.f([other]) and self.f_([other]). */
static PyObject *
mt__sf_entry(const mt__sf_spec *sp, PyObject *self, PyObject *const *args, Py_ssize_t nargs,
             PyObject *kwnames, int inplace)
{
    const char *fnames[] = {"input", sp->other != NULL ? sp->other : "out", "out", NULL};
    const char *mnames[] = {sp->other, NULL};
    const int binary = sp->other != NULL;
    PyObject *a[3] = {NULL, NULL, NULL};
    PyObject *input, *other = NULL, *out_obj = NULL;
    if (self == NULL) {
        if (binary) {
            if (mt__parse_args(sp->fname, args, nargs, kwnames, fnames, 2, 2, a) < 0) {
                return NULL;
            }
            input = a[0], other = a[1], out_obj = a[2];
        }
        else {
            const char *unames[] = {"input", "out", NULL};
            if (mt__parse_args(sp->fname, args, nargs, kwnames, unames, 1, 1, a) < 0) {
                return NULL;
            }
            input = a[0], out_obj = a[1];
        }
    }
    else {
        if (binary && mt__parse_args(sp->fname, args, nargs, kwnames, mnames, 1, 1, a) < 0) {
            return NULL;
        }
        if (!binary && mt__parse_args(sp->fname, args, nargs, kwnames, mnames, 0, 0, a) < 0) {
            return NULL;
        }
        input = self, other = a[0];
    }
    if (out_obj == Py_None) {
        out_obj = NULL;
    }
    mt_arg x = {.t = NULL}, y = {.t = NULL};
    mt_tensor *out = NULL;
    PyObject *r = NULL;
    if (mt__sf_operand(input, &x, sp, "input", 1) < 0 ||
        (binary && mt__sf_operand(other, &y, sp, sp->other, 2) < 0)) {
        goto done;
    }
    if (binary && x.t == NULL && y.t == NULL) {
        PyErr_Format(PyExc_TypeError, "%s() received an invalid combination of arguments: two "
                                      "numbers (one of input and %s must be a Tensor)",
                     sp->fname, sp->other);
        goto done;
    }
    if (mt__out_arg(out_obj, &out, sp->fname) < 0) {
        goto done;
    }
    if (out != NULL) {
        /* out= is checked before it is resized: a failing call leaves it as it was */
        mt_dtype cdt, rdt;
        int rc = binary ? mt_binary_dtypes(sp->op, x, y, mt_scalar_int(1), out, &cdt, &rdt)
                        : mt_unary_dtypes(sp->op, x.t, out, &cdt, &rdt);
        if (rc < 0 || mt__sf_fit_out(out_obj, &x, binary ? &y : NULL) < 0) {
            if (rc < 0) {
                mt__raise(0);
            }
            goto done;
        }
    }
    r = mt__sf_run(sp->op, x, binary ? &y : NULL, mt_scalar_int(1),
                   inplace ? input : (out != NULL ? out_obj : NULL));
done:
    mt_tensor_decref(x.t);
    mt_tensor_decref(y.t);
    return r;
}

/* polygamma(n, input, *, out=None), self.polygamma(n), self.polygamma_(n): psi^(n), n >= 0.
 * The order goes to the kernel as alpha (see MT_FORALL_SPECIAL_BINARY_OPS). */
static PyObject *
mt__polygamma(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames,
              int inplace)
{
    static const char *const fnames[] = {"n", "input", "out", NULL};
    static const char *const mnames[] = {"n", NULL};
    const char *fname = inplace ? "polygamma_" : "polygamma";
    PyObject *a[3] = {NULL, NULL, NULL};
    PyObject *input, *n_obj, *out_obj = NULL;
    if (self == NULL) {
        if (mt__parse_args(fname, args, nargs, kwnames, fnames, 2, 2, a) < 0) {
            return NULL;
        }
        n_obj = a[0], input = a[1], out_obj = a[2] == Py_None ? NULL : a[2];
    }
    else {
        if (mt__parse_args(fname, args, nargs, kwnames, mnames, 1, 1, a) < 0) {
            return NULL;
        }
        n_obj = a[0], input = self;
    }
    if (!mt__tensor_check(input)) {
        return PyErr_Format(PyExc_TypeError, "%s(): argument 'input' (position 2) must be Tensor, "
                                             "not %s", fname, Py_TYPE(input)->tp_name);
    }
    if (!PyLong_Check(n_obj) && !PyIndex_Check(n_obj)) {
        return PyErr_Format(PyExc_TypeError, "%s(): argument 'n' (position 1) must be int, not %s",
                            fname, Py_TYPE(n_obj)->tp_name);
    }
    int64_t n;
    if (mt__int64_from_py(n_obj, &n, fname, "n") < 0) {
        return NULL;
    }
    if (n < 0) {
        PyErr_SetString(PyExc_RuntimeError, "polygamma(n, x) does not support negative n.");
        return NULL;
    }
    mt_tensor *out = NULL;
    if (mt__out_arg(out_obj, &out, fname) < 0) {
        return NULL;
    }
    mt_arg nx = mt_arg_scalar(mt_scalar_int(n));
    mt_arg x = mt_arg_tensor(mt__tensor_impl_ref(input));
    PyObject *r = NULL;
    if (out != NULL) {
        mt_dtype cdt, rdt;
        if (mt_binary_dtypes(MT_OP_POLYGAMMA, nx, x, mt_scalar_int(n), out, &cdt, &rdt) < 0) {
            mt__raise(0);
            goto done;
        }
        if (mt__sf_fit_out(out_obj, &x, NULL) < 0) {
            goto done;
        }
    }
    r = mt__sf_run(MT_OP_POLYGAMMA, nx, &x, mt_scalar_int(n),
                   inplace ? input : (out != NULL ? out_obj : NULL));
done:
    mt_tensor_decref(x.t);
    return r;
}

static PyObject *
mt_m_polygamma(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kw)
{
    return mt__polygamma(self, args, nargs, kw, 0);
}

static PyObject *
mt_m_polygamma_(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kw)
{
    return mt__polygamma(self, args, nargs, kw, 1);
}

static PyObject *
mt_f_polygamma(PyObject *m, PyObject *const *args, Py_ssize_t nargs, PyObject *kw)
{
    (void)m;
    return mt__polygamma(NULL, args, nargs, kw, 0);
}

/* Entry points of the ops with Tensor methods (rows 'fmio'): X(ENUM, name, other, numbers) */
#define MT__SF_PUBLIC(X)                                  \
    X(MT_OP_DIGAMMA, digamma, NULL, false)                \
    X(MT_OP_I0, i0, NULL, false)                          \
    X(MT_OP_IGAMMA, igamma, "other", false)               \
    X(MT_OP_IGAMMAC, igammac, "other", false)             \
    X(MT_OP_HEAVISIDE, heaviside, "values", false)        \
    X(MT_OP_NEXTAFTER, nextafter, "other", false)         \
    X(MT_OP_GCD, gcd, "other", false)                     \
    X(MT_OP_LCM, lcm, "other", false)

#define MT__SF_PUBLIC_ENTRIES(E, name, other, numbers)                                            \
    static const mt__sf_spec mt__sf_##name = {E, #name, other, numbers};                          \
    static const mt__sf_spec mt__sf_##name##_ = {E, #name "_", other, numbers};                   \
    static PyObject *mt_m_##name(PyObject *self, PyObject *const *args, Py_ssize_t nargs,        \
                                 PyObject *kw)                                                   \
    {                                                                                            \
        return mt__sf_entry(&mt__sf_##name, self, args, nargs, kw, 0);                           \
    }                                                                                            \
    static PyObject *mt_m_##name##_(PyObject *self, PyObject *const *args, Py_ssize_t nargs,     \
                                    PyObject *kw)                                                \
    {                                                                                            \
        return mt__sf_entry(&mt__sf_##name##_, self, args, nargs, kw, 1);                        \
    }                                                                                            \
    static PyObject *mt_f_##name(PyObject *m, PyObject *const *args, Py_ssize_t nargs,           \
                                 PyObject *kw)                                                   \
    {                                                                                            \
        (void)m;                                                                                 \
        return mt__sf_entry(&mt__sf_##name, NULL, args, nargs, kw, 0);                           \
    }
MT__SF_PUBLIC(MT__SF_PUBLIC_ENTRIES)

/* Functions of minitorch.special only (rows '_special_<name>', 'fo'): X(ENUM, name, other) */
#define MT__SF_SPECIAL(X)                                                          \
    X(MT_OP_I0E, i0e, NULL)                                                        \
    X(MT_OP_I1, i1, NULL)                                                          \
    X(MT_OP_I1E, i1e, NULL)                                                        \
    X(MT_OP_ERFCX, erfcx, NULL)                                                    \
    X(MT_OP_NDTR, ndtr, NULL)                                                      \
    X(MT_OP_NDTRI, ndtri, NULL)                                                    \
    X(MT_OP_LOG_NDTR, log_ndtr, NULL)                                              \
    X(MT_OP_ENTR, entr, NULL)                                                      \
    X(MT_OP_AIRY_AI, airy_ai, NULL)                                                \
    X(MT_OP_BESSEL_J0, bessel_j0, NULL)                                            \
    X(MT_OP_BESSEL_J1, bessel_j1, NULL)                                            \
    X(MT_OP_BESSEL_Y0, bessel_y0, NULL)                                            \
    X(MT_OP_BESSEL_Y1, bessel_y1, NULL)                                            \
    X(MT_OP_MODIFIED_BESSEL_I0, modified_bessel_i0, NULL)                          \
    X(MT_OP_MODIFIED_BESSEL_I1, modified_bessel_i1, NULL)                          \
    X(MT_OP_MODIFIED_BESSEL_K0, modified_bessel_k0, NULL)                          \
    X(MT_OP_MODIFIED_BESSEL_K1, modified_bessel_k1, NULL)                          \
    X(MT_OP_SCALED_MODIFIED_BESSEL_K0, scaled_modified_bessel_k0, NULL)            \
    X(MT_OP_SCALED_MODIFIED_BESSEL_K1, scaled_modified_bessel_k1, NULL)            \
    X(MT_OP_SPHERICAL_BESSEL_J0, spherical_bessel_j0, NULL)                        \
    X(MT_OP_ZETA, zeta, "other")                                                   \
    X(MT_OP_XLOG1PY, xlog1py, "other")                                             \
    X(MT_OP_CHEBYSHEV_T, chebyshev_polynomial_t, "n")                              \
    X(MT_OP_CHEBYSHEV_U, chebyshev_polynomial_u, "n")                              \
    X(MT_OP_CHEBYSHEV_V, chebyshev_polynomial_v, "n")                              \
    X(MT_OP_CHEBYSHEV_W, chebyshev_polynomial_w, "n")                              \
    X(MT_OP_SHIFTED_CHEBYSHEV_T, shifted_chebyshev_polynomial_t, "n")              \
    X(MT_OP_SHIFTED_CHEBYSHEV_U, shifted_chebyshev_polynomial_u, "n")              \
    X(MT_OP_SHIFTED_CHEBYSHEV_V, shifted_chebyshev_polynomial_v, "n")              \
    X(MT_OP_SHIFTED_CHEBYSHEV_W, shifted_chebyshev_polynomial_w, "n")              \
    X(MT_OP_HERMITE_H, hermite_polynomial_h, "n")                                  \
    X(MT_OP_HERMITE_HE, hermite_polynomial_he, "n")                                \
    X(MT_OP_LAGUERRE_L, laguerre_polynomial_l, "n")                                \
    X(MT_OP_LEGENDRE_P, legendre_polynomial_p, "n")

#define MT__SF_SPECIAL_ENTRY(E, name, other)                                                      \
    static const mt__sf_spec mt__sf_special_##name = {E, "special_" #name, other, true};         \
    static PyObject *mt_f__special_##name(PyObject *m, PyObject *const *args, Py_ssize_t nargs,  \
                                          PyObject *kw)                                          \
    {                                                                                            \
        (void)m;                                                                                 \
        return mt__sf_entry(&mt__sf_special_##name, NULL, args, nargs, kw, 0);                   \
    }
MT__SF_SPECIAL(MT__SF_SPECIAL_ENTRY)

/* _frexp_parts(input) -> (mantissa, exponent): the kernels of minitorch.frexp (_special_ops.py,
 * which checks the arguments and handles out=). */
static PyObject *
mt_py_frexp_parts(PyObject *m, PyObject *input)
{
    (void)m;
    if (!mt__tensor_check(input)) {
        return PyErr_Format(PyExc_TypeError, "frexp(): argument 'input' (position 1) must be "
                                             "Tensor, not %s", Py_TYPE(input)->tp_name);
    }
    mt_arg x = mt_arg_tensor(mt__tensor_impl_ref(input));
    PyObject *mant = mt__sf_run(MT_OP_FREXP_MANTISSA, x, NULL, mt_scalar_int(1), NULL);
    PyObject *expo = mant != NULL ? mt__sf_run(MT_OP_FREXP_EXPONENT, x, NULL, mt_scalar_int(1), NULL)
                                  : NULL;
    mt_tensor_decref(x.t);
    if (expo == NULL) {
        Py_XDECREF(mant);
        return NULL;
    }
    PyObject *r = PyTuple_Pack(2, mant, expo);
    Py_DECREF(mant);
    Py_DECREF(expo);
    return r;
}

MT_OPTABLE_SPECIAL_METHOD_WRAPPERS(MT_AG_WRAPPER)

static PyMethodDef mt_special_methods[] = {
    MT_OPTABLE_SPECIAL_METHODS(MT_OPTABLE_DEF)
    {NULL},
};

MT_OPTABLE_SPECIAL_FUNCTION_WRAPPERS(MT_AG_WRAPPER)

static PyMethodDef mt_special_functions[] = {
    MT_OPTABLE_SPECIAL_FUNCTIONS(MT_OPTABLE_DEF)
    {"_frexp_parts", mt_py_frexp_parts, METH_O, NULL},
    {NULL},
};

int
mt__special_binding_init(PyObject *module)
{
    if (mt__add_tensor_methods(mt_special_methods) < 0) {
        return -1;
    }
    return PyModule_AddFunctions(module, mt_special_functions);
}
