/* csrc/dtype_object.c - the minitorch.dtype type and its singletons. */
#include "csrc/common.h"

#include <structmember.h>

PyTypeObject *mt__dtype_Type;

typedef struct {
    PyObject_HEAD
    mt_dtype dt;
    int named; /* 0, or 1 + index into mt__named_info for a dtype without tensors */
} MTDtypeObject;

/* Note [Named dtypes]
 * torch defines some dtypes minitorch has no tensors of (complex32, bcomplex32,
 * float8).  They exist as minitorch.dtype objects, so code that names
 * them imports and dtype-level questions (itemsize, is_complex, promote_types) get
 * torch's answers; making a tensor of one raises NotImplementedError. */
static const struct {
    const char *name;
    const char *scalar_name; /* torch's ScalarType name */
    unsigned char itemsize;
    bool is_floating, is_complex, is_signed;
    mt_dtype part; /* the real dtype of a complex one's parts; MT_NUM_DTYPES if none */
} mt__named_info[] = {
    {"complex32", "ComplexHalf", 4, false, true, true, MT_FLOAT16},
    {"bcomplex32", "BComplex32", 4, false, true, true, MT_BFLOAT16},
    {"float8_e5m2", "Float8_e5m2", 1, true, false, true, MT_NUM_DTYPES},
    {"float8_e4m3fn", "Float8_e4m3fn", 1, true, false, true, MT_NUM_DTYPES},
};
#define MT__NUM_NAMED ((int)(sizeof(mt__named_info) / sizeof(mt__named_info[0])))

/* Singletons, one per dtype; owned by this file for the process lifetime. */
static PyObject *mt__dtype_objects[MT_NUM_DTYPES];
static PyObject *mt__named_objects[MT__NUM_NAMED];

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
        int named = ((MTDtypeObject *)o)->named;
        if (named) {
            PyErr_Format(PyExc_NotImplementedError, "minitorch has no tensors of dtype %s (torch.%s)",
                         mt__named_info[named - 1].scalar_name, mt__named_info[named - 1].name);
            return -1;
        }
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

#define MT__NAMED(self) (&mt__named_info[(self)->named - 1])

static const char *
dtype_name(MTDtypeObject *self)
{
    return self->named ? MT__NAMED(self)->name : mt_dtype_name(self->dt);
}

static const char *
dtype_scalar_name(MTDtypeObject *self)
{
    return self->named ? MT__NAMED(self)->scalar_name : mt_dtype_scalar_name(self->dt);
}

static PyObject *
dtype_repr(MTDtypeObject *self)
{
    return PyUnicode_FromFormat("minitorch.%s", dtype_name(self));
}

static PyObject *
dtype_get_itemsize(MTDtypeObject *self, void *closure)
{
    return PyLong_FromSize_t(self->named ? MT__NAMED(self)->itemsize : mt_dtype_itemsize(self->dt));
}

static PyObject *
dtype_get_is_floating_point(MTDtypeObject *self, void *closure)
{
    return PyBool_FromLong(self->named ? MT__NAMED(self)->is_floating : mt_dtype_is_floating(self->dt));
}

static PyObject *
dtype_get_is_signed(MTDtypeObject *self, void *closure)
{
    return PyBool_FromLong(self->named ? MT__NAMED(self)->is_signed : mt_dtype_is_signed(self->dt));
}

static PyObject *
dtype_get_is_complex(MTDtypeObject *self, void *closure)
{
    return PyBool_FromLong(self->named ? MT__NAMED(self)->is_complex : mt_dtype_is_complex(self->dt));
}

static PyObject *
dtype_reduce(MTDtypeObject *self, PyObject *unused)
{
    /* Pickled by name: minitorch.float32 etc. are module globals. */
    return PyUnicode_FromString(dtype_name(self));
}

/* torch.promote_types with a named dtype on either side (see Note [Named dtypes]):
 * a dtype with itself is itself; float8 promotes with nothing else, nor does a barebones
 * unsigned dtype with these; complex32/bcomplex32 promote as the complex type of their
 * promoted parts.  Returns a new reference, or NULL with
 * RuntimeError as torch's. */
PyObject *
mt__dtype_promote_named(PyObject *a, PyObject *b)
{
    MTDtypeObject *x = (MTDtypeObject *)a, *y = (MTDtypeObject *)b;
    if (x->named == y->named && (x->named || x->dt == y->dt)) {
        return Py_NewRef(a);
    }
    for (int pass = 0; pass < 2; pass++) {
        MTDtypeObject *n = pass ? y : x;
        if (n->named && MT__NAMED(n)->is_floating) {
            return PyErr_Format(PyExc_RuntimeError,
                                "Promotion for Float8 Types is not supported, attempted to promote %s and %s",
                                dtype_scalar_name(x), dtype_scalar_name(y));
        }
    }
    if ((!x->named && mt_dtype_is_barebones_unsigned(x->dt)) ||
        (!y->named && mt_dtype_is_barebones_unsigned(y->dt))) {
        return PyErr_Format(PyExc_RuntimeError,
                            "Promotion for uint16, uint32, uint64 types is not supported, "
                            "attempted to promote %s and %s",
                            dtype_scalar_name(x), dtype_scalar_name(y));
    }
    /* Both remaining named dtypes (if two) are complex with 16-bit parts. */
    mt_dtype px = x->named ? MT__NAMED(x)->part : mt_dtype_to_real(x->dt);
    mt_dtype py = y->named ? MT__NAMED(y)->part : mt_dtype_to_real(y->dt);
    mt_dtype r = mt_promote_types(px, py);
    for (int i = 0; i < MT__NUM_NAMED; i++) {
        if (mt__named_info[i].is_complex && mt__named_info[i].part == r) {
            return Py_NewRef(mt__named_objects[i]);
        }
    }
    return Py_NewRef(mt__dtype_object(mt_dtype_to_complex(mt_dtype_is_floating(r) ? r : MT_FLOAT32)));
}

int
mt__dtype_is_named(PyObject *o)
{
    return Py_IS_TYPE(o, mt__dtype_Type) && ((MTDtypeObject *)o)->named != 0;
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
        o->named = 0;
        mt__dtype_objects[i] = (PyObject *)o;
        if (PyModule_AddObjectRef(module, mt_dtype_name((mt_dtype)i), (PyObject *)o) < 0) {
            return -1;
        }
    }
    for (int i = 0; i < MT__NUM_NAMED; i++) {
        MTDtypeObject *o = PyObject_New(MTDtypeObject, mt__dtype_Type);
        if (o == NULL) {
            return -1;
        }
        o->dt = MT_NUM_DTYPES;
        o->named = i + 1;
        mt__named_objects[i] = (PyObject *)o;
        if (PyModule_AddObjectRef(module, mt__named_info[i].name, (PyObject *)o) < 0) {
            return -1;
        }
    }
    return 0;
}
