/* csrc/storage_object.c - Storage objects: a storage reference seen as bytes or as elements. */
#include "csrc/common.h"

PyTypeObject *mt__StorageBase_Type;
/* Python classes minitorch.UntypedStorage / TypedStorage (set at import). */
static PyTypeObject *mt__untyped_class;
static PyTypeObject *mt__typed_class;

/* Owns one reference to `storage`.  An untyped storage uses dtype uint8 and
 * counts bytes; a typed storage counts elements of `dtype`. */
typedef struct {
    PyObject_HEAD
    mt_storage *storage;
    mt_dtype dtype;
    int typed;
} MTStorageObject;

PyObject *
mt__storage_wrap(mt_storage *s, mt_dtype dt, int typed)
{
    PyTypeObject *cls = typed ? mt__typed_class : mt__untyped_class;
    if (cls == NULL) {
        cls = mt__StorageBase_Type;
    }
    MTStorageObject *o = (MTStorageObject *)cls->tp_alloc(cls, 0);
    if (o == NULL) {
        return NULL;
    }
    mt_storage_incref(s);
    o->storage = s;
    o->dtype = typed ? dt : MT_UINT8;
    o->typed = typed;
    return (PyObject *)o;
}

int
mt__storage_parts(PyObject *o, mt_storage **s, mt_dtype *dt, int *typed)
{
    if (!PyObject_TypeCheck(o, mt__StorageBase_Type)) {
        return -1;
    }
    MTStorageObject *so = (MTStorageObject *)o;
    *s = so->storage;
    *dt = so->dtype;
    *typed = so->typed;
    return 0;
}

static PyObject *
storage_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"size", "dtype", "device", NULL};
    Py_ssize_t size = 0;
    PyObject *dtype_obj = Py_None, *device_obj = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "|n$OO:Storage", kwlist, &size, &dtype_obj,
                                     &device_obj)) {
        return NULL;
    }
    if (size < 0) {
        PyErr_Format(PyExc_RuntimeError, "Storage size must be non-negative, got %zd", size);
        return NULL;
    }
    int typed = dtype_obj != Py_None;
    mt_dtype dt = MT_UINT8;
    if (typed && mt__dtype_from_py(dtype_obj, &dt, "dtype") < 0) {
        return NULL;
    }
    mt_device dev = MT_DEVICE_CPU;
    if (device_obj != Py_None &&
        (mt__device_from_py(device_obj, &dev) < 0 || mt__check_device_usable(dev) < 0)) {
        return NULL;
    }
    mt_storage *s = mt_storage_new_zeroed((size_t)size * mt_dtype_itemsize(dt), dev);
    if (s == NULL) {
        return mt__raise(0);
    }
    MTStorageObject *o = (MTStorageObject *)type->tp_alloc(type, 0);
    if (o == NULL) {
        mt_storage_decref(s);
        return NULL;
    }
    o->storage = s;
    o->dtype = dt;
    o->typed = typed;
    return (PyObject *)o;
}

static void
storage_dealloc(MTStorageObject *self)
{
    PyTypeObject *tp = Py_TYPE(self);
    mt_storage_decref(self->storage);
    tp->tp_free((PyObject *)self);
    Py_DECREF(tp);
}

static Py_ssize_t
storage_len(MTStorageObject *self)
{
    return (Py_ssize_t)(self->storage->nbytes / mt_dtype_itemsize(self->dtype));
}

static PyObject *
storage_item(MTStorageObject *self, Py_ssize_t i)
{
    Py_ssize_t n = storage_len(self);
    if (i < -n || i >= n) {
        PyErr_Format(PyExc_IndexError, "index %zd out of range for storage of size %zd", i, n);
        return NULL;
    }
    if (i < 0) {
        i += n;
    }
    if (self->storage->device.type != MT_CPU) {
        PyErr_SetString(PyExc_NotImplementedError, "reading a non-cpu storage is not supported");
        return NULL;
    }
    const char *p = (const char *)self->storage->data + (size_t)i * mt_dtype_itemsize(self->dtype);
    return mt__element_to_py(p, self->dtype);
}

/* sq_item: CPython has already added len() to a negative index, so it must
 * not wrap again (s[-n-1] through the sequence protocol is out of range). */
static PyObject *
storage_sq_item(MTStorageObject *self, Py_ssize_t i)
{
    if (i < 0) {
        PyErr_Format(PyExc_IndexError, "index %zd out of range for storage of size %zd",
                     i - storage_len(self), storage_len(self));
        return NULL;
    }
    return storage_item(self, i);
}

static PyObject *
storage_subscript(MTStorageObject *self, PyObject *key)
{
    if (PySlice_Check(key)) {
        Py_ssize_t start, stop, step, len;
        if (PySlice_GetIndicesEx(key, storage_len(self), &start, &stop, &step, &len) < 0) {
            return NULL;
        }
        PyObject *list = PyList_New(len);
        for (Py_ssize_t k = 0; list != NULL && k < len; k++) {
            PyObject *v = storage_item(self, start + k * step);
            if (v == NULL) {
                Py_CLEAR(list);
                break;
            }
            PyList_SET_ITEM(list, k, v);
        }
        return list;
    }
    Py_ssize_t i = PyNumber_AsSsize_t(key, PyExc_IndexError);
    if (i == -1 && PyErr_Occurred()) {
        return NULL;
    }
    return storage_item(self, i);
}

static PyObject *
storage_data_ptr(MTStorageObject *self, PyObject *unused)
{
    return PyLong_FromVoidPtr(self->storage->data);
}

static PyObject *
storage_nbytes(MTStorageObject *self, PyObject *unused)
{
    return PyLong_FromSize_t(self->storage->nbytes);
}

static PyObject *
storage_size(MTStorageObject *self, PyObject *unused)
{
    return PyLong_FromSsize_t(storage_len(self));
}

static PyObject *
storage_element_size(MTStorageObject *self, PyObject *unused)
{
    return PyLong_FromSize_t(mt_dtype_itemsize(self->dtype));
}

static PyObject *
storage_tolist(MTStorageObject *self, PyObject *unused)
{
    PyObject *all = PySlice_New(NULL, NULL, NULL);
    if (all == NULL) {
        return NULL;
    }
    PyObject *r = storage_subscript(self, all);
    Py_DECREF(all);
    return r;
}

static PyObject *
storage_untyped(MTStorageObject *self, PyObject *unused)
{
    return mt__storage_wrap(self->storage, MT_UINT8, 0);
}

static PyObject *
storage_get_device(MTStorageObject *self, void *closure)
{
    return mt__device_object(self->storage->device);
}

static PyObject *
storage_get_dtype(MTStorageObject *self, void *closure)
{
    return Py_NewRef(mt__dtype_object(self->dtype));
}

static PyObject *
storage_refcount(MTStorageObject *self, PyObject *unused)
{
    return PyLong_FromLongLong(mt_storage_refcount(self->storage));
}

/* _cdata: the address of the C storage, the same for every Python object over it
 * (torch's identity of a storage). */
static PyObject *
storage_get_cdata(MTStorageObject *self, void *unused)
{
    return PyLong_FromVoidPtr(self->storage);
}

static PyObject *
storage_set_classes(PyObject *unused, PyObject *args)
{
    PyObject *u, *t;
    if (!PyArg_ParseTuple(args, "O!O!", &PyType_Type, &u, &PyType_Type, &t)) {
        return NULL;
    }
    if (!PyType_IsSubtype((PyTypeObject *)u, mt__StorageBase_Type) ||
        !PyType_IsSubtype((PyTypeObject *)t, mt__StorageBase_Type)) {
        PyErr_SetString(PyExc_TypeError, "storage classes must subclass _C.StorageBase");
        return NULL;
    }
    Py_XSETREF(mt__untyped_class, (PyTypeObject *)Py_NewRef(u));
    Py_XSETREF(mt__typed_class, (PyTypeObject *)Py_NewRef(t));
    Py_RETURN_NONE;
}

static PyMethodDef storage_methods[] = {
    {"data_ptr", (PyCFunction)storage_data_ptr, METH_NOARGS, "Address of the first byte."},
    {"nbytes", (PyCFunction)storage_nbytes, METH_NOARGS, "Size in bytes."},
    {"size", (PyCFunction)storage_size, METH_NOARGS, "Number of elements (bytes when untyped)."},
    {"element_size", (PyCFunction)storage_element_size, METH_NOARGS, NULL},
    {"tolist", (PyCFunction)storage_tolist, METH_NOARGS, NULL},
    {"untyped", (PyCFunction)storage_untyped, METH_NOARGS, "The same memory as bytes."},
    {"_refcount", (PyCFunction)storage_refcount, METH_NOARGS, "C-level reference count."},
    {NULL},
};

static PyGetSetDef storage_getset[] = {
    {"device", (getter)storage_get_device, NULL, NULL, NULL},
    {"dtype", (getter)storage_get_dtype, NULL, NULL, NULL},
    {"_cdata", (getter)storage_get_cdata, NULL, "Address of the C storage.", NULL},
    {NULL},
};

static PyType_Slot storage_slots[] = {
    {Py_tp_new, storage_new},
    {Py_tp_dealloc, storage_dealloc},
    {Py_tp_methods, storage_methods},
    {Py_tp_getset, storage_getset},
    {Py_sq_length, storage_len},
    {Py_sq_item, storage_sq_item},
    {Py_mp_length, storage_len},
    {Py_mp_subscript, storage_subscript},
    {Py_tp_doc, "Base of UntypedStorage / TypedStorage: a refcounted buffer."},
    {0, NULL},
};

static PyType_Spec storage_spec = {
    .name = "minitorch._C.StorageBase",
    .basicsize = sizeof(MTStorageObject),
    .flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
    .slots = storage_slots,
};

static PyMethodDef storage_module_methods[] = {
    {"_set_storage_classes", storage_set_classes, METH_VARARGS, NULL},
    {NULL},
};

int
mt__storage_types_init(PyObject *module)
{
    mt__StorageBase_Type = (PyTypeObject *)PyType_FromModuleAndSpec(module, &storage_spec, NULL);
    if (mt__StorageBase_Type == NULL ||
        PyModule_AddObjectRef(module, "StorageBase", (PyObject *)mt__StorageBase_Type) < 0) {
        return -1;
    }
    return PyModule_AddFunctions(module, storage_module_methods);
}
