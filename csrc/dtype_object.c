/* csrc/dtype_object.c - the minitorch.dtype type and its singletons. */
#include "csrc/common.h"

#include <structmember.h>

PyTypeObject *mt__dtype_Type;

typedef struct {
    PyObject_HEAD
    mt_dtype dt;
} MTDtypeObject;

/* Singletons, one per dtype; owned by this file for the process lifetime. */
static PyObject *mt__dtype_objects[MT_NUM_DTYPES];

PyObject *
mt__dtype_object(mt_dtype dt)
{
    return mt__dtype_objects[dt];
}

int
mt__dtype_check(PyObject *o)
{
    return Py_IS_TYPE(o, mt__dtype_Type);
}

int
mt__dtype_from_py(PyObject *o, mt_dtype *out, const char *what)
{
    if (Py_IS_TYPE(o, mt__dtype_Type)) {
        *out = ((MTDtypeObject *)o)->dt;
        return 0;
    }
    if (o == (PyObject *)&PyFloat_Type) {
        *out = MT_FLOAT64;
        return 0;
    }
    if (o == (PyObject *)&PyLong_Type) {
        *out = MT_INT64;
        return 0;
    }
    if (o == (PyObject *)&PyBool_Type) {
        *out = MT_BOOL;
        return 0;
    }
    if (o == (PyObject *)&PyComplex_Type) {
        *out = MT_COMPLEX128;
        return 0;
    }
    PyErr_Format(PyExc_TypeError, "%s must be minitorch.dtype, not %s", what,
                 PyType_Check(o) ? ((PyTypeObject *)o)->tp_name : Py_TYPE(o)->tp_name);
    return -1;
}

static PyObject *
dtype_repr(MTDtypeObject *self)
{
    return PyUnicode_FromFormat("minitorch.%s", mt_dtype_name(self->dt));
}

static PyObject *
dtype_get_itemsize(MTDtypeObject *self, void *closure)
{
    return PyLong_FromSize_t(mt_dtype_itemsize(self->dt));
}

static PyObject *
dtype_get_is_floating_point(MTDtypeObject *self, void *closure)
{
    return PyBool_FromLong(mt_dtype_is_floating(self->dt));
}

static PyObject *
dtype_get_is_signed(MTDtypeObject *self, void *closure)
{
    return PyBool_FromLong(mt_dtype_is_signed(self->dt));
}

static PyObject *
dtype_get_is_complex(MTDtypeObject *self, void *closure)
{
    return PyBool_FromLong(mt_dtype_is_complex(self->dt));
}

static PyObject *
dtype_reduce(MTDtypeObject *self, PyObject *unused)
{
    /* Pickled by name: minitorch.float32 etc. are module globals. */
    return PyUnicode_FromString(mt_dtype_name(self->dt));
}

static PyGetSetDef dtype_getset[] = {
    {"itemsize", (getter)dtype_get_itemsize, NULL, "size of one element in bytes", NULL},
    {"is_floating_point", (getter)dtype_get_is_floating_point, NULL, NULL, NULL},
    {"is_signed", (getter)dtype_get_is_signed, NULL, NULL, NULL},
    {"is_complex", (getter)dtype_get_is_complex, NULL, NULL, NULL},
    {NULL},
};

static PyMethodDef dtype_methods[] = {
    {"__reduce__", (PyCFunction)dtype_reduce, METH_NOARGS, NULL},
    {NULL},
};

static PyType_Slot dtype_slots[] = {
    {Py_tp_repr, dtype_repr},
    {Py_tp_getset, dtype_getset},
    {Py_tp_methods, dtype_methods},
    {Py_tp_doc, "A tensor element type, e.g. minitorch.float32."},
    {0, NULL},
};

static PyType_Spec dtype_spec = {
    .name = "minitorch.dtype",
    .basicsize = sizeof(MTDtypeObject),
    .flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_IMMUTABLETYPE | Py_TPFLAGS_DISALLOW_INSTANTIATION,
    .slots = dtype_slots,
};

int
mt__dtype_types_init(PyObject *module)
{
    mt__dtype_Type = (PyTypeObject *)PyType_FromModuleAndSpec(module, &dtype_spec, NULL);
    if (mt__dtype_Type == NULL || PyModule_AddObjectRef(module, "dtype", (PyObject *)mt__dtype_Type) < 0) {
        return -1;
    }
    for (int i = 0; i < MT_NUM_DTYPES; i++) {
        MTDtypeObject *o = PyObject_New(MTDtypeObject, mt__dtype_Type);
        if (o == NULL) {
            return -1;
        }
        o->dt = (mt_dtype)i;
        mt__dtype_objects[i] = (PyObject *)o;
        if (PyModule_AddObjectRef(module, mt_dtype_name((mt_dtype)i), (PyObject *)o) < 0) {
            return -1;
        }
    }
    return 0;
}
