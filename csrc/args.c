/* csrc/args.c - argument parsing helpers shared by every binding function. */
#include "csrc/common.h"

#include <string.h>

PyTypeObject *mt__size_class;

int
mt__parse_args(const char *fname, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames,
               const char *const *names, int maxpos, int nrequired, PyObject **out)
{
    int n = 0;
    while (names[n] != NULL) {
        out[n] = NULL;
        n++;
    }
    if (nargs > maxpos) {
        PyErr_Format(PyExc_TypeError, "%s() takes at most %d positional arguments (%zd given)",
                     fname, maxpos, nargs);
        return -1;
    }
    for (Py_ssize_t i = 0; i < nargs; i++) {
        out[i] = args[i];
    }
    Py_ssize_t nkw = kwnames ? PyTuple_GET_SIZE(kwnames) : 0;
    for (Py_ssize_t k = 0; k < nkw; k++) {
        const char *key = PyUnicode_AsUTF8(PyTuple_GET_ITEM(kwnames, k));
        if (key == NULL) {
            return -1;
        }
        int found = -1;
        for (int j = 0; j < n; j++) {
            if (strcmp(key, names[j]) == 0) {
                found = j;
                break;
            }
        }
        if (found < 0) {
            PyErr_Format(PyExc_TypeError, "%s() got an unexpected keyword argument '%s'", fname,
                         key);
            return -1;
        }
        if (out[found] != NULL) {
            PyErr_Format(PyExc_TypeError, "%s() got multiple values for argument '%s'", fname,
                         key);
            return -1;
        }
        out[found] = args[nargs + k];
    }
    for (int j = 0; j < nrequired; j++) {
        if (out[j] == NULL) {
            PyErr_Format(PyExc_TypeError, "%s() missing required argument '%s' (pos %d)", fname,
                         names[j], j + 1);
            return -1;
        }
    }
    return 0;
}

int
mt__int64_from_py(PyObject *o, int64_t *out, const char *fname, const char *what)
{
    if (PyLong_CheckExact(o)) {
        int overflow = 0;
        long long v = PyLong_AsLongLongAndOverflow(o, &overflow);
        if (overflow) {
            PyErr_Format(PyExc_RuntimeError, "%s(): %s %R does not fit in int64", fname, what, o);
            return -1;
        }
        *out = v;
        return 0;
    }
    if (PyFloat_Check(o) || PyBool_Check(o) || PyUnicode_Check(o) || o == Py_None) {
        PyErr_Format(PyExc_TypeError, "%s(): argument '%s' must be int, not %s", fname, what,
                     Py_TYPE(o)->tp_name);
        return -1;
    }
    if (mt__tensor_check(o)) {
        mt_tensor *t = mt__tensor_impl(o);
        if (t->numel != 1 || !mt_dtype_is_integral(t->dtype, false)) {
            PyErr_Format(PyExc_TypeError,
                         "%s(): argument '%s' must be int, not a tensor of %lld elements of %s",
                         fname, what, (long long)t->numel, mt_dtype_name(t->dtype));
            return -1;
        }
        mt_scalar v; /* through mt_item: a device tensor's element is copied to the host */
        if (mt_item(t, &v) < 0) {
            mt__raise(0);
            return -1;
        }
        *out = mt_scalar_to_int64(v);
        return 0;
    }
    PyObject *idx = PyNumber_Index(o);
    if (idx == NULL) {
        PyErr_Clear();
        PyErr_Format(PyExc_TypeError, "%s(): argument '%s' must be int, not %s", fname, what,
                     Py_TYPE(o)->tp_name);
        return -1;
    }
    int overflow = 0;
    long long v = PyLong_AsLongLongAndOverflow(idx, &overflow);
    Py_DECREF(idx);
    if (overflow) {
        PyErr_Format(PyExc_RuntimeError, "%s(): %s does not fit in int64", fname, what);
        return -1;
    }
    *out = v;
    return 0;
}

int
mt__sizes_from_seq(PyObject *seq, int64_t *out, const char *fname, const char *what)
{
    if (mt__tensor_check(seq)) {
        mt_tensor *t = mt__tensor_impl(seq);
        if (t->ndim != 1 || !mt_dtype_is_integral(t->dtype, false)) {
            PyErr_Format(PyExc_TypeError, "%s(): argument '%s' must be a 1-d integer tensor",
                         fname, what);
            return -1;
        }
        if (t->numel > MT_MAX_DIMS) {
            PyErr_Format(PyExc_RuntimeError, "%s(): at most %d dimensions are supported", fname,
                         MT_MAX_DIMS);
            return -1;
        }
        /* a device tensor's values are read from a host copy */
        mt_tensor *h = t;
        if (mt_tensor_device(t).type != MT_CPU) {
            h = mt_tensor_empty(t->dtype, t->ndim, t->sizes, MT_DEVICE_CPU);
            if (h == NULL || mt_copy_(h, t) < 0) {
                mt_tensor_decref(h);
                mt__raise(0);
                return -1;
            }
        }
        int64_t isz = (int64_t)mt_tensor_itemsize(h);
        for (int64_t i = 0; i < h->numel; i++) {
            out[i] = mt_scalar_to_int64(
                mt_scalar_load(mt_tensor_data(h) + i * h->strides[0] * isz, h->dtype));
        }
        if (h != t) {
            mt_tensor_decref(h);
        }
        return (int)t->numel;
    }
    if (!PyTuple_Check(seq) && !PyList_Check(seq)) {
        PyErr_Format(PyExc_TypeError,
                     "%s(): argument '%s' must be tuple of ints, not %s", fname, what,
                     Py_TYPE(seq)->tp_name);
        return -1;
    }
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    if (n > MT_MAX_DIMS) {
        PyErr_Format(PyExc_RuntimeError, "%s(): at most %d dimensions are supported, got %zd",
                     fname, MT_MAX_DIMS, n);
        return -1;
    }
    return mt__int64s_from_seq(seq, out, n, fname, what) < 0 ? -1 : (int)n;
}

int
mt__int64s_from_seq(PyObject *seq, int64_t *out, Py_ssize_t n, const char *fname,
                    const char *what)
{
    /* An item's __index__ may change a list while it is read: hold each item
     * and stop when the list no longer has it. */
    for (Py_ssize_t i = 0; i < n; i++) {
        if (PySequence_Fast_GET_SIZE(seq) != n) {
            PyErr_Format(PyExc_RuntimeError, "%s(): argument '%s' changed size while it was read",
                         fname, what);
            return -1;
        }
        PyObject *item = Py_NewRef(PySequence_Fast_GET_ITEM(seq, i));
        int rc = mt__int64_from_py(item, &out[i], fname, what);
        Py_DECREF(item);
        if (rc < 0) {
            return -1;
        }
    }
    return 0;
}

int
mt__sizes_from_args(PyObject *const *args, Py_ssize_t nargs, int64_t *out, const char *fname,
                    const char *what)
{
    if (nargs == 1 && (PyTuple_Check(args[0]) || PyList_Check(args[0]) ||
                       (mt__tensor_check(args[0]) && mt__tensor_impl(args[0])->ndim == 1))) {
        return mt__sizes_from_seq(args[0], out, fname, what);
    }
    if (nargs > MT_MAX_DIMS) {
        PyErr_Format(PyExc_RuntimeError, "%s(): at most %d dimensions are supported", fname,
                     MT_MAX_DIMS);
        return -1;
    }
    for (Py_ssize_t i = 0; i < nargs; i++) {
        if (mt__int64_from_py(args[i], &out[i], fname, what) < 0) {
            return -1;
        }
    }
    return (int)nargs;
}

PyObject *
mt__size_new(int ndim, const int64_t *sizes)
{
    PyTypeObject *cls = mt__size_class ? mt__size_class : &PyTuple_Type;
    PyObject *t = cls == &PyTuple_Type ? PyTuple_New(ndim) : cls->tp_alloc(cls, ndim);
    if (t == NULL) {
        return NULL;
    }
    for (int i = 0; i < ndim; i++) {
        PyObject *v = PyLong_FromLongLong(sizes[i]);
        if (v == NULL) {
            Py_DECREF(t);
            return NULL;
        }
        PyTuple_SET_ITEM(t, i, v);
    }
    return t;
}

int
mt__scalar_from_py(PyObject *o, mt_scalar *out, const char *fname)
{
    if (PyBool_Check(o)) {
        *out = mt_scalar_bool(o == Py_True);
        return 0;
    }
    if (PyLong_Check(o)) {
        int overflow = 0;
        long long v = PyLong_AsLongLongAndOverflow(o, &overflow);
        if (overflow) {
            PyErr_Format(PyExc_RuntimeError, "Overflow when unpacking long");
            return -1;
        }
        *out = mt_scalar_int(v);
        return 0;
    }
    if (PyFloat_Check(o)) {
        *out = mt_scalar_float(PyFloat_AS_DOUBLE(o));
        return 0;
    }
    if (PyComplex_Check(o)) {
        Py_complex c = PyComplex_AsCComplex(o);
        *out = mt_scalar_complex(CMPLX(c.real, c.imag));
        return 0;
    }
    if (mt__tensor_check(o)) {
        mt_tensor *t = mt__tensor_impl(o);
        if (t->numel != 1) {
            PyErr_Format(PyExc_RuntimeError,
                         "%s(): a Tensor with %lld elements cannot be converted to Scalar", fname,
                         (long long)t->numel);
            return -1;
        }
        if (mt_item(t, out) < 0) { /* a device tensor's element: copied to the host */
            mt__raise(0);
            return -1;
        }
        return 0;
    }
    int nd = mt__is_numpy_scalar(o) ? mt__numpy_dtype_of(o) : -1;
    if (nd >= 0) {
        if (nd == MT_BOOL) {
            int truth = PyObject_IsTrue(o);
            if (truth < 0) {
                return -1;
            }
            *out = mt_scalar_bool(truth);
            return 0;
        }
        if (mt_dtype_is_complex((mt_dtype)nd)) {
            Py_complex c = PyComplex_AsCComplex(o);
            if (c.real == -1.0 && PyErr_Occurred()) {
                return -1;
            }
            *out = mt_scalar_complex(CMPLX(c.real, c.imag));
            return 0;
        }
        if (mt_dtype_is_floating((mt_dtype)nd)) {
            double d = PyFloat_AsDouble(o);
            if (d == -1.0 && PyErr_Occurred()) {
                return -1;
            }
            *out = mt_scalar_float(d);
            return 0;
        }
        long long v = PyLong_AsLongLong(o);
        if (v == -1 && PyErr_Occurred()) {
            return -1;
        }
        *out = mt_scalar_int(v);
        return 0;
    }
    PyErr_Format(PyExc_TypeError, "%s(): expected a number, got %s", fname, Py_TYPE(o)->tp_name);
    return -1;
}

PyObject *
mt__element_to_py(const void *p, mt_dtype dt)
{
    if (dt == MT_UINT64) { /* above INT64_MAX it does not fit an mt_scalar */
        uint64_t v;
        memcpy(&v, p, sizeof(v));
        return PyLong_FromUnsignedLongLong(v);
    }
    return mt__scalar_to_py(mt_scalar_load(p, dt));
}

PyObject *
mt__scalar_to_py(mt_scalar s)
{
    switch (s.kind) {
    case MT_SCALAR_BOOL:
        return PyBool_FromLong(s.v.b);
    case MT_SCALAR_INT:
        return PyLong_FromLongLong(s.v.i);
    case MT_SCALAR_COMPLEX:
        return PyComplex_FromDoubles(creal(s.v.z), cimag(s.v.z));
    default:
        return PyFloat_FromDouble(s.v.f);
    }
}

int
mt__fastcall_pack(PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames, PyObject **tuple,
                  PyObject **kwargs)
{
    Py_ssize_t nkw = kwnames ? PyTuple_GET_SIZE(kwnames) : 0;
    PyObject *t = PyTuple_New(nargs);
    PyObject *kw = nkw ? PyDict_New() : NULL;
    if (t == NULL || (nkw && kw == NULL)) {
        goto fail;
    }
    for (Py_ssize_t i = 0; i < nargs; i++) {
        PyTuple_SET_ITEM(t, i, Py_NewRef(args[i]));
    }
    for (Py_ssize_t i = 0; i < nkw; i++) {
        if (PyDict_SetItem(kw, PyTuple_GET_ITEM(kwnames, i), args[nargs + i]) < 0) {
            goto fail;
        }
    }
    *tuple = t;
    *kwargs = kw;
    return 0;
fail:
    Py_XDECREF(t);
    Py_XDECREF(kw);
    return -1;
}
