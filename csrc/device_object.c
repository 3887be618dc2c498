/* csrc/device_object.c - the minitorch.device type. */
#include "csrc/common.h"

PyTypeObject *mt__device_Type;

_Thread_local mt_device mt__default_device = {.type = MT_CPU, .index = -1};

/* the defaults a `with device:` block replaced, innermost last (this thread) */
#define MT__DEVICE_CONTEXT_DEPTH 64
static _Thread_local mt_device mt__device_context[MT__DEVICE_CONTEXT_DEPTH];
static _Thread_local int mt__device_context_n = 0;

typedef struct {
    PyObject_HEAD
    mt_device dev;
} MTDeviceObject;

PyObject *
mt__device_object(mt_device d)
{
    MTDeviceObject *o = PyObject_New(MTDeviceObject, mt__device_Type);
    if (o != NULL) {
        o->dev = d;
    }
    return (PyObject *)o;
}

/* Device indices are small non-negative ints (the same bound as the string
 * parser in c10_lite/device.c, so 'cuda:N' and device('cuda', N) agree).
 * 0, or -1 with RuntimeError set. */
static int
mt__check_device_index(long v)
{
    if (v < 0) {
        PyErr_Format(PyExc_RuntimeError, "Device index must not be negative, got %ld", v);
        return -1;
    }
    if (v > (1L << 20)) {
        PyErr_Format(PyExc_RuntimeError, "Device index %ld is out of range", v);
        return -1;
    }
    return 0;
}

int
mt__device_from_py(PyObject *o, mt_device *out)
{
    if (Py_IS_TYPE(o, mt__device_Type)) {
        *out = ((MTDeviceObject *)o)->dev;
        return 0;
    }
    if (PyUnicode_Check(o)) {
        const char *s = PyUnicode_AsUTF8(o);
        if (s == NULL) {
            return -1;
        }
        if (mt_device_parse(s, out) < 0) {
            return mt__raise_int(MT_ERUNTIME);
        }
        return 0;
    }
    if (PyLong_Check(o) && !PyBool_Check(o)) {
        long v = PyLong_AsLong(o);
        if (v == -1 && PyErr_Occurred()) {
            return -1;
        }
        if (mt__check_device_index(v) < 0) {
            return -1;
        }
        out->type = MT_CUDA;
        out->index = (int)v;
        return 0;
    }
    PyErr_Format(PyExc_TypeError, "expected a minitorch.device, a string or an int, not %s",
                 Py_TYPE(o)->tp_name);
    return -1;
}

int
mt__check_device_usable(mt_device d)
{
    if (d.type == MT_CPU) {
        return 0;
    }
    if (mt_cuda_device_count() == 0) {
        PyErr_SetString(PyExc_RuntimeError, mt_cuda_unavailable_message());
        return -1;
    }
    /* an index out of range is refused when memory is asked for (mt_device_resolve) */
    return 0;
}

static PyObject *
device_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"type", "index", NULL};
    PyObject *what, *index = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "O|O:device", kwlist, &what, &index)) {
        return NULL;
    }
    mt_device d;
    if (PyUnicode_Check(what) || Py_IS_TYPE(what, mt__device_Type) ||
        (PyLong_Check(what) && index == Py_None)) {
        if (mt__device_from_py(what, &d) < 0) {
            return NULL;
        }
    }
    else {
        PyErr_Format(PyExc_TypeError, "device(): argument 'type' must be str, not %s",
                     Py_TYPE(what)->tp_name);
        return NULL;
    }
    if (index != Py_None) {
        if (!PyUnicode_Check(what)) {
            PyErr_SetString(PyExc_TypeError, "device(): index may only be given with a type string");
            return NULL;
        }
        if (d.index >= 0) {
            PyErr_Format(PyExc_RuntimeError,
                         "type (string) must not include an index because index was passed "
                         "explicitly: %U",
                         what);
            return NULL;
        }
        if (!PyLong_Check(index) || PyBool_Check(index)) {
            PyErr_Format(PyExc_TypeError, "device(): argument 'index' must be int, not %s",
                         Py_TYPE(index)->tp_name);
            return NULL;
        }
        long v = PyLong_AsLong(index);
        if (v == -1 && PyErr_Occurred()) {
            return NULL;
        }
        if (mt__check_device_index(v) < 0) {
            return NULL;
        }
        d.index = (int)v;
    }
    MTDeviceObject *o = (MTDeviceObject *)type->tp_alloc(type, 0);
    if (o != NULL) {
        o->dev = d;
    }
    return (PyObject *)o;
}

static PyObject *
device_str(MTDeviceObject *self)
{
    char buf[32];
    return PyUnicode_FromString(mt_device_str(self->dev, buf, sizeof(buf)));
}

static PyObject *
device_repr(MTDeviceObject *self)
{
    if (self->dev.index >= 0) {
        return PyUnicode_FromFormat("device(type='%s', index=%d)",
                                    mt_device_type_name(self->dev.type), self->dev.index);
    }
    return PyUnicode_FromFormat("device(type='%s')", mt_device_type_name(self->dev.type));
}

static PyObject *
device_richcompare(MTDeviceObject *self, PyObject *other, int op)
{
    if (!Py_IS_TYPE(other, mt__device_Type) || (op != Py_EQ && op != Py_NE)) {
        Py_RETURN_NOTIMPLEMENTED;
    }
    int eq = mt_device_eq(self->dev, ((MTDeviceObject *)other)->dev);
    return PyBool_FromLong(op == Py_EQ ? eq : !eq);
}

static Py_hash_t
device_hash(MTDeviceObject *self)
{
    return (Py_hash_t)(self->dev.type * 1000003 + self->dev.index + 2);
}

static PyObject *
device_get_type(MTDeviceObject *self, void *closure)
{
    return PyUnicode_FromString(mt_device_type_name(self->dev.type));
}

static PyObject *
device_get_index(MTDeviceObject *self, void *closure)
{
    if (self->dev.index < 0) {
        Py_RETURN_NONE;
    }
    return PyLong_FromLong(self->dev.index);
}

static PyObject *
device_reduce(MTDeviceObject *self, PyObject *unused)
{
    if (self->dev.index >= 0) {
        return Py_BuildValue("O(si)", Py_TYPE(self), mt_device_type_name(self->dev.type),
                             self->dev.index);
    }
    return Py_BuildValue("O(s)", Py_TYPE(self), mt_device_type_name(self->dev.type));
}

static PyGetSetDef device_getset[] = {
    {"type", (getter)device_get_type, NULL, "'cpu' or 'cuda'", NULL},
    {"index", (getter)device_get_index, NULL, "device index or None", NULL},
    {NULL},
};

/* `with device:` (Note [Default device]) */
static PyObject *
device_enter(MTDeviceObject *self, PyObject *unused)
{
    if (mt__device_context_n == MT__DEVICE_CONTEXT_DEPTH) {
        PyErr_Format(PyExc_RuntimeError, "device context: more than %d nested blocks",
                     MT__DEVICE_CONTEXT_DEPTH);
        return NULL;
    }
    mt__device_context[mt__device_context_n++] = mt__default_device;
    mt__default_device = self->dev;
    return Py_NewRef(self);
}

static PyObject *
device_exit(MTDeviceObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    if (mt__device_context_n == 0) {
        PyErr_SetString(PyExc_RuntimeError, "device context: exit without enter");
        return NULL;
    }
    mt__default_device = mt__device_context[--mt__device_context_n];
    Py_RETURN_NONE;
}

static PyMethodDef device_methods[] = {
    {"__reduce__", (PyCFunction)device_reduce, METH_NOARGS, NULL},
    {"__enter__", (PyCFunction)device_enter, METH_NOARGS, NULL},
    {"__exit__", (PyCFunction)(void (*)(void))device_exit, METH_FASTCALL, NULL},
    {NULL},
};

/* _set_default_device(device or None) (Note [Default device]) */
static PyObject *
mt_py_set_default_device(PyObject *m, PyObject *o)
{
    mt_device d = {.type = MT_CPU, .index = -1};
    if (o != Py_None && mt__device_from_py(o, &d) < 0) {
        return NULL;
    }
    mt__default_device = d;
    Py_RETURN_NONE;
}

static PyObject *
mt_py_get_default_device(PyObject *m, PyObject *unused)
{
    return mt__device_object(mt__default_device);
}

static PyMethodDef mt_device_functions[] = {
    {"_set_default_device", mt_py_set_default_device, METH_O, NULL},
    {"_get_default_device", mt_py_get_default_device, METH_NOARGS, NULL},
    {NULL},
};

static PyType_Slot device_slots[] = {
    {Py_tp_new, device_new},
    {Py_tp_repr, device_repr},
    {Py_tp_str, device_str},
    {Py_tp_hash, device_hash},
    {Py_tp_richcompare, device_richcompare},
    {Py_tp_getset, device_getset},
    {Py_tp_methods, device_methods},
    {Py_tp_doc, "device(type, index=None)\n--\n\nWhere a tensor's memory lives: 'cpu' or 'cuda:N'."},
    {0, NULL},
};

static PyType_Spec device_spec = {
    .name = "minitorch.device",
    .basicsize = sizeof(MTDeviceObject),
    .flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_IMMUTABLETYPE,
    .slots = device_slots,
};

int
mt__device_types_init(PyObject *module)
{
    mt__device_Type = (PyTypeObject *)PyType_FromModuleAndSpec(module, &device_spec, NULL);
    if (mt__device_Type == NULL) {
        return -1;
    }
    if (PyModule_AddFunctions(module, mt_device_functions) < 0) {
        return -1;
    }
    return PyModule_AddObjectRef(module, "device", (PyObject *)mt__device_Type);
}
