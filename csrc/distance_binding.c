/* csrc/distance_binding.c - the private kernel entry of minitorch.cdist (_distance.py). */
#include "csrc/common.h"
#include "aten_lite/distance.h"

/* _cdist_direct(x1, x2, p): mt_cdist on (B, P, M) and (B, R, M) tensors (the caller checks and
 * shapes the arguments); the GIL is released while it runs. */
static PyObject *
mt_py_cdist_direct(PyObject *m, PyObject *args)
{
    (void)m;
    PyObject *a, *b;
    double p;
    if (!PyArg_ParseTuple(args, "OOd:_cdist_direct", &a, &b, &p)) {
        return NULL;
    }
    if (!mt__tensor_check(a) || !mt__tensor_check(b)) {
        PyErr_SetString(PyExc_TypeError, "_cdist_direct(): expected two tensors");
        return NULL;
    }
    mt_tensor *x1 = mt__tensor_impl_ref(a), *x2 = mt__tensor_impl_ref(b), *r;
    Py_BEGIN_ALLOW_THREADS
    r = mt_cdist(x1, x2, p);
    Py_END_ALLOW_THREADS
    mt_tensor_decref(x1);
    mt_tensor_decref(x2);
    return r != NULL ? mt__tensor_wrap(r) : mt__raise(0);
}

static PyMethodDef mt_distance_functions[] = {
    {"_cdist_direct", mt_py_cdist_direct, METH_VARARGS, NULL},
    {NULL},
};

int
mt__distance_binding_init(PyObject *module)
{
    return PyModule_AddFunctions(module, mt_distance_functions);
}
