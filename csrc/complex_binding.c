/* csrc/complex_binding.c - complex views (view_as_real, view_as_complex, real, imag). */
#include "csrc/common.h"

/* The public names and the Tensor properties are in python/minitorch/_complex.py. */

static mt_tensor *
mt__tensor_arg(PyObject *o, const char *fname)
{
    if (!mt__tensor_check(o)) {
        PyErr_Format(PyExc_TypeError, "%s(): argument 'input' (position 1) must be Tensor, not %s",
                     fname, Py_TYPE(o)->tp_name);
        return NULL;
    }
    return mt__tensor_impl(o);
}

static PyObject *
mt_py_view_as_real(PyObject *m, PyObject *o)
{
    mt_tensor *t = mt__tensor_arg(o, "view_as_real");
    return t ? mt__tensor_wrap_view(o, mt_view_as_real(t)) : NULL;
}

static PyObject *
mt_py_view_as_complex(PyObject *m, PyObject *o)
{
    mt_tensor *t = mt__tensor_arg(o, "view_as_complex");
    return t ? mt__tensor_wrap_view(o, mt_view_as_complex(t)) : NULL;
}

static PyObject *
mt_py_real(PyObject *m, PyObject *o)
{
    mt_tensor *t = mt__tensor_arg(o, "real");
    if (t != NULL && !mt_dtype_is_complex(t->dtype)) {
        return Py_NewRef(o); /* a real tensor is its own real part, as torch */
    }
    return t ? mt__tensor_wrap_view(o, mt_complex_part(t, false)) : NULL;
}

static PyObject *
mt_py_imag(PyObject *m, PyObject *o)
{
    mt_tensor *t = mt__tensor_arg(o, "imag");
    return t ? mt__tensor_wrap_view(o, mt_complex_part(t, true)) : NULL;
}

static PyMethodDef mt_complex_functions[] = {
    {"_view_as_real", mt_py_view_as_real, METH_O, "view_as_real(input): a real view, last dim 2"},
    {"_view_as_complex", mt_py_view_as_complex, METH_O,
     "view_as_complex(input): a complex view of a (..., 2) float tensor"},
    {"_real", mt_py_real, METH_O, "input.real as a view"},
    {"_imag", mt_py_imag, METH_O, "input.imag as a view (complex tensors only)"},
    {NULL},
};

int
mt__complex_binding_init(PyObject *module)
{
    return PyModule_AddFunctions(module, mt_complex_functions);
}
