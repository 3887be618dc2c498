/* csrc/sparse_coo_binding.c - the private kernel entries of sparse COO products. */
#include "csrc/common.h"
#include "aten_lite/sparse_coo.h"

/* _coo_spmm(rows, cols, values, dense, m): mt_coo_spmm, the GIL released while it runs. */
static PyObject *
mt_py_coo_spmm(PyObject *mod, PyObject *args)
{
    (void)mod;
    PyObject *o[4];
    long long m;
    if (!PyArg_ParseTuple(args, "OOOOL:_coo_spmm", &o[0], &o[1], &o[2], &o[3], &m)) {
        return NULL;
    }
    for (int i = 0; i < 4; i++) {
        if (!mt__tensor_check(o[i])) {
            PyErr_SetString(PyExc_TypeError, "_coo_spmm(): expected four tensors and an int");
            return NULL;
        }
    }
    mt_tensor *t[4], *r;
    for (int i = 0; i < 4; i++) {
        t[i] = mt__tensor_impl_ref(o[i]);
    }
    Py_BEGIN_ALLOW_THREADS
    r = mt_coo_spmm(t[0], t[1], t[2], t[3], (int64_t)m);
    Py_END_ALLOW_THREADS
    mt__impls_release(t, 4);
    return r != NULL ? mt__tensor_wrap(r) : mt__raise(0);
}

/* _coo_sampled_dot(rows, cols, a, b): mt_coo_sampled_dot, the GIL released while it runs. */
static PyObject *
mt_py_coo_sampled_dot(PyObject *mod, PyObject *args)
{
    (void)mod;
    PyObject *o[4];
    if (!PyArg_ParseTuple(args, "OOOO:_coo_sampled_dot", &o[0], &o[1], &o[2], &o[3])) {
        return NULL;
    }
    for (int i = 0; i < 4; i++) {
        if (!mt__tensor_check(o[i])) {
            PyErr_SetString(PyExc_TypeError, "_coo_sampled_dot(): expected four tensors");
            return NULL;
        }
    }
    mt_tensor *t[4], *r;
    for (int i = 0; i < 4; i++) {
        t[i] = mt__tensor_impl_ref(o[i]);
    }
    Py_BEGIN_ALLOW_THREADS
    r = mt_coo_sampled_dot(t[0], t[1], t[2], t[3]);
    Py_END_ALLOW_THREADS
    mt__impls_release(t, 4);
    return r != NULL ? mt__tensor_wrap(r) : mt__raise(0);
}

static PyMethodDef mt_sparse_coo_functions[] = {
    {"_coo_spmm", mt_py_coo_spmm, METH_VARARGS, NULL},
    {"_coo_sampled_dot", mt_py_coo_sampled_dot, METH_VARARGS, NULL},
    {NULL},
};

int
mt__sparse_coo_binding_init(PyObject *module)
{
    return PyModule_AddFunctions(module, mt_sparse_coo_functions);
}
