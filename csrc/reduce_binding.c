/* csrc/reduce_binding.c - reductions and scans as Tensor methods and module functions. */
#include "csrc/common.h"
#include "csrc/autograd/autograd.h"
#include "csrc/autocast.h"

#include <string.h>

#define IMPL(self) (((MTTensorObject *)(self))->impl)
#define FASTKW(name) (PyCFunction)(void (*)(void))name, METH_FASTCALL | METH_KEYWORDS

/* Parses dim=None | int | sequence of ints into mask. */
static int
mt__dims_arg(PyObject *dim, mt_tensor *t, bool *mask, const char *fname)
{
    int64_t dims[MT_MAX_DIMS];
    int n;
    if (dim == NULL || dim == Py_None) {
        n = -1;
    }
    else if (PyTuple_Check(dim) || PyList_Check(dim)) {
        n = mt__sizes_from_seq(dim, dims, fname, "dim");
        if (n < 0) {
            return -1;
        }
        if (n == 0) {
            n = -1; /* an empty list reduces everything, as torch */
        }
    }
    else {
        if (mt__int64_from_py(dim, &dims[0], fname, "dim") < 0) {
            return -1;
        }
        n = 1;
    }
    if (mt_reduce_dims_mask(t, n < 0 ? 0 : n, n < 0 ? NULL : dims, mask) < 0) {
        mt__raise(0);
        return -1;
    }
    return 0;
}

/* mt__reduce_entry's work on t, held by the caller (the arguments' __bool__
 * and __index__ may swap input's impl: Note [Impls across Python code and the
 * GIL]). */
static PyObject *
mt__reduce_held(mt_reduce_op op, const char *fname, mt_tensor *t, PyObject *const *a)
{
    int keepdim = 0;
    if (a[2] != NULL && (keepdim = PyObject_IsTrue(a[2])) < 0) {
        return NULL;
    }
    bool arg_op = op == MT_REDUCE_ARGMAX || op == MT_REDUCE_ARGMIN;
    if (arg_op && t->dtype == MT_BOOL) {
        /* as torch (max/min with dim do support bool) */
        PyErr_Format(PyExc_NotImplementedError, "\"%s_%s\" not implemented for 'Bool'", fname,
                     mt_device_type_name(mt_tensor_device(t).type));
        return NULL;
    }
    if (arg_op && a[1] != NULL && a[1] != Py_None && !PyIndex_Check(a[1])) {
        PyErr_Format(PyExc_TypeError, "%s(): argument 'dim' must be int, not %s", fname,
                     Py_TYPE(a[1])->tp_name);
        return NULL;
    }
    bool mask[MT_MAX_DIMS];
    if (mt__dims_arg(a[1], t, mask, fname) < 0) {
        return NULL;
    }
    if (t->numel == 0 && (arg_op || op == MT_REDUCE_MAX || op == MT_REDUCE_MIN)) {
        /* torch: no dim given is a RuntimeError, an empty reduced dim an IndexError */
        bool all = a[1] == NULL || a[1] == Py_None ||
                   ((PyTuple_Check(a[1]) || PyList_Check(a[1])) && PyObject_Length(a[1]) == 0);
        if (all) {
            /* torch: argmax/argmin raise IndexError here, max/min RuntimeError */
            PyErr_Format(arg_op ? PyExc_IndexError : PyExc_RuntimeError,
                         "%s(): Expected reduction dim to be specified for input.numel() == 0.%s",
                         fname, arg_op ? "" : " Specify the reduction dim with the 'dim' argument.");
            return NULL;
        }
        for (int d = 0; d < t->ndim; d++) {
            if (mask[d] && t->sizes[d] == 0) {
                PyErr_Format(PyExc_IndexError, "%s(): Expected reduction dim %d to have non-zero size.",
                             fname, d);
                return NULL;
            }
        }
    }
    mt_tensor *src = t, *tmp = NULL;
    mt_dtype dt = MT_NUM_DTYPES; /* dtype=: the input is converted and the result has it */
    if (a[3] != NULL && a[3] != Py_None) {
        if (op != MT_REDUCE_SUM && op != MT_REDUCE_PROD) {
            PyErr_Format(PyExc_TypeError, "%s() got an unexpected keyword argument 'dtype'", fname);
            return NULL;
        }
        if (mt__dtype_from_py(a[3], &dt, "dtype") < 0) {
            return NULL;
        }
        tmp = mt_to_dtype(t, dt, false);
        if (tmp == NULL) {
            return mt__raise(0);
        }
        src = tmp;
    }
    mt_tensor *r;
    if (src->numel >= 32768) {
        Py_BEGIN_ALLOW_THREADS
        r = mt_reduce(op, src, mask, keepdim);
        Py_END_ALLOW_THREADS
    }
    else {
        r = mt_reduce(op, src, mask, keepdim);
    }
    mt_tensor_decref(tmp);
    if (r != NULL && dt != MT_NUM_DTYPES && r->dtype != dt) {
        mt_tensor *c = mt_to_dtype(r, dt, false);
        mt_tensor_decref(r);
        r = c;
    }
    return mt__result_or_out(r, a[4], fname);
}

/* Parses the arguments of a method (self given: `names` after "input") or of
 * a function (`names`, "input" first; maxpos/nrequired count it) into a, and
 * checks that the input is a Tensor.  Returns it (borrowed; also a[0]) or NULL. */
static PyObject *
mt__input_args(const char *fname, PyObject *self, PyObject *const *args, Py_ssize_t nargs,
               PyObject *kwnames, const char *const *names, int maxpos, int nrequired,
               PyObject **a)
{
    if (mt__parse_args(fname, args, nargs, kwnames, self ? names + 1 : names,
                       self ? maxpos - 1 : maxpos, self ? nrequired - 1 : nrequired,
                       self ? a + 1 : a) < 0) {
        return NULL;
    }
    PyObject *input = self ? self : a[0];
    if (!mt__tensor_check(input)) {
        PyErr_Format(PyExc_TypeError, "%s(): argument 'input' must be Tensor, not %s", fname,
                     Py_TYPE(input)->tp_name);
        return NULL;
    }
    a[0] = input;
    return input;
}

/* The shared entry: (input,) dim=None, keepdim=False, *, dtype=None, out=None */
static PyObject *
mt__reduce_entry(mt_reduce_op op, const char *fname, PyObject *self, PyObject *const *args,
                 Py_ssize_t nargs, PyObject *kwnames)
{
    static const char *const fnames[] = {"input", "dim", "keepdim", "dtype", "out", NULL};
    PyObject *a[5] = {NULL};
    PyObject *input = mt__input_args(fname, self, args, nargs, kwnames, fnames, 3, 1, a);
    if (input == NULL) {
        return NULL;
    }
    mt_tensor *t = mt__tensor_impl_ref(input);
    PyObject *r = mt__reduce_held(op, fname, t, a);
    mt_tensor_decref(t);
    return r;
}

#define MT__RED(op, name)                                                                          \
    static PyObject *mt_m_##name(PyObject *self, PyObject *const *args, Py_ssize_t nargs,        \
                                  PyObject *kw)                                                   \
    {                                                                                             \
        return mt__reduce_entry(op, #name, self, args, nargs, kw);                                \
    }                                                                                             \
    static PyObject *mt_f_##name(PyObject *m, PyObject *const *args, Py_ssize_t nargs,           \
                                  PyObject *kw)                                                   \
    {                                                                                             \
        return mt__reduce_entry(op, #name, NULL, args, nargs, kw);                                \
    }
#define MT__REDUCTIONS(X)                                                                         \
    X(MT_REDUCE_SUM, sum) X(MT_REDUCE_PROD, prod) X(MT_REDUCE_MAX, amax) X(MT_REDUCE_MIN, amin)  \
    X(MT_REDUCE_ALL, all) X(MT_REDUCE_ANY, any) X(MT_REDUCE_ARGMAX, argmax)                       \
    X(MT_REDUCE_ARGMIN, argmin)
MT__REDUCTIONS(MT__RED)

/* Runs a scan with the GIL released (the impl is held for the call). */
static mt_tensor *
mt__scan_run(PyObject *input, mt_tensor *src, int64_t dim, mt_scan_op op, mt_tensor **indices)
{
    mt_tensor *t = src != NULL ? src : mt__tensor_impl_ref(input), *r;
    Py_BEGIN_ALLOW_THREADS
    r = mt_cumulative(t, dim, op, indices);
    Py_END_ALLOW_THREADS
    if (src == NULL) {
        mt_tensor_decref(t);
    }
    return r;
}

/* cumsum/cumprod: (input,) dim, *, dtype=None, out=None */
static PyObject *
mt__scan_entry(mt_scan_op op, const char *fname, PyObject *self, PyObject *const *args,
               Py_ssize_t nargs, PyObject *kwnames)
{
    static const char *const fnames[] = {"input", "dim", "dtype", "out", NULL};
    PyObject *a[4] = {NULL};
    PyObject *input = mt__input_args(fname, self, args, nargs, kwnames, fnames, 2, 2, a);
    if (input == NULL) {
        return NULL;
    }
    int64_t dim;
    mt_dtype dt = MT_NUM_DTYPES;
    if (mt__int64_from_py(a[1], &dim, fname, "dim") < 0 ||
        (a[2] != NULL && a[2] != Py_None && mt__dtype_from_py(a[2], &dt, "dtype") < 0)) {
        return NULL;
    }
    mt_tensor *tmp = NULL;
    if (dt != MT_NUM_DTYPES) {
        tmp = mt_to_dtype(IMPL(input), dt, false);
        if (tmp == NULL) {
            return mt__raise(0);
        }
    }
    mt_tensor *r = mt__scan_run(input, tmp, dim, op, NULL);
    mt_tensor_decref(tmp);
    return mt__result_or_out(r, a[3], fname);
}

static PyObject *
mt_m_cumsum(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kw)
{
    return mt__scan_entry(MT_SCAN_SUM, "cumsum", self, args, nargs, kw);
}
static PyObject *
mt_f_cumsum(PyObject *m, PyObject *const *args, Py_ssize_t nargs, PyObject *kw)
{
    return mt__scan_entry(MT_SCAN_SUM, "cumsum", NULL, args, nargs, kw);
}
static PyObject *
mt_m_cumprod(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kw)
{
    return mt__scan_entry(MT_SCAN_PROD, "cumprod", self, args, nargs, kw);
}
static PyObject *
mt_f_cumprod(PyObject *m, PyObject *const *args, Py_ssize_t nargs, PyObject *kw)
{
    return mt__scan_entry(MT_SCAN_PROD, "cumprod", NULL, args, nargs, kw);
}

/* logcumsumexp: (input,) dim, *, out=None */
static PyObject *
mt__logcumsumexp(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    static const char *const fnames[] = {"input", "dim", "out", NULL};
    PyObject *a[3] = {NULL};
    PyObject *input = mt__input_args("logcumsumexp", self, args, nargs, kwnames, fnames, 2, 2, a);
    int64_t dim;
    if (input == NULL || mt__int64_from_py(a[1], &dim, "logcumsumexp", "dim") < 0) {
        return NULL;
    }
    mt_tensor *r = mt__scan_run(input, NULL, dim, MT_SCAN_LOGSUMEXP, NULL);
    return mt__result_or_out(r, a[2], "logcumsumexp");
}
static PyObject *
mt_m_logcumsumexp(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kw)
{
    return mt__logcumsumexp(self, args, nargs, kw);
}
static PyObject *
mt_f_logcumsumexp(PyObject *m, PyObject *const *args, Py_ssize_t nargs, PyObject *kw)
{
    return mt__logcumsumexp(NULL, args, nargs, kw);
}

/* _cummax_cummin(input, dim, is_max) -> (values, indices): the kernel of
 * minitorch.cummax/cummin (out= and the named tuple are _reductions.py's). */
static PyObject *
mt_py_cummax_cummin(PyObject *m, PyObject *args)
{
    PyObject *input, *dimobj;
    int64_t dim;
    int is_max;
    if (!PyArg_ParseTuple(args, "O!Op:_cummax_cummin", mt__TensorBase_Type, &input, &dimobj,
                          &is_max) ||
        mt__int64_from_py(dimobj, &dim, is_max ? "cummax" : "cummin", "dim") < 0) {
        return NULL;
    }
    mt_tensor *ix = NULL;
    mt_tensor *v = mt__scan_run(input, NULL, dim, is_max ? MT_SCAN_MAX : MT_SCAN_MIN, &ix);
    return mt__values_indices(v != NULL ? 0 : mt_error_code(), v, ix);
}

MT_OPTABLE_REDUCE_METHOD_WRAPPERS(MT_AG_WRAPPER)
MT_OPTABLE_REDUCE_METHOD_AUTOCAST(MT_AC_WRAPPER)

static PyMethodDef mt_reduce_methods[] = {
    MT_OPTABLE_REDUCE_METHODS(MT_OPTABLE_DEF)
    {NULL},
};
MT_OPTABLE_REDUCE_FUNCTION_WRAPPERS(MT_AG_WRAPPER)
MT_OPTABLE_REDUCE_FUNCTION_AUTOCAST(MT_AC_WRAPPER)

static PyMethodDef mt_reduce_functions[] = {
    MT_OPTABLE_REDUCE_FUNCTIONS(MT_OPTABLE_DEF)
    {"_cummax_cummin", mt_py_cummax_cummin, METH_VARARGS,
     "_cummax_cummin(input, dim, is_max) -> (values, indices)"},
    {NULL},
};

int
mt__reduce_binding_init(PyObject *module)
{
    if (mt__add_tensor_methods(mt_reduce_methods) < 0) {
        return -1;
    }
    return PyModule_AddFunctions(module, mt_reduce_functions);
}
