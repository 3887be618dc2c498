/* csrc/numpy_interop.c - zero-copy from_numpy()/numpy(); the only user of the NumPy C API. */
#include "csrc/common.h"

#define PY_ARRAY_UNIQUE_SYMBOL MT_NUMPY_API
#define NPY_NO_DEPRECATED_API NPY_1_7_API_VERSION
#include <numpy/arrayobject.h>

/* Note [NumPy is optional]
 * minitorch imports without NumPy.  The C API table is loaded the first time
 * an operation needs it: explicitly (from_numpy, numpy()) or when NumPy is
 * already imported by someone (is this object an ndarray?).  Without NumPy,
 * "is it an ndarray" is simply false and the explicit calls raise. */
static int mt__numpy_state; /* 0 unknown, 1 loaded, -1 unavailable */

static int
mt__numpy_load(int quiet_if_absent)
{
    if (mt__numpy_state == 1) {
        return 0;
    }
    if (quiet_if_absent) {
        PyObject *mods = PyImport_GetModuleDict();
        if (PyDict_GetItemString(mods, "numpy") == NULL) {
            return -1;
        }
    }
    if (_import_array() < 0) {
        PyErr_Clear();
        mt__numpy_state = -1;
        if (!quiet_if_absent) {
            PyErr_SetString(PyExc_RuntimeError, "Numpy is not available");
        }
        return -1;
    }
    mt__numpy_state = 1;
    return 0;
}

int
mt__is_ndarray(PyObject *o)
{
    if (mt__numpy_load(1) < 0) {
        return 0;
    }
    return PyArray_Check(o);
}

int
mt__ndarray_ndim(PyObject *o)
{
    return mt__is_ndarray(o) ? PyArray_NDIM((PyArrayObject *)o) : -1;
}

int
mt__is_numpy_scalar(PyObject *o)
{
    if (PyLong_CheckExact(o) || PyFloat_CheckExact(o) || mt__numpy_load(1) < 0) {
        return 0;
    }
    return PyArray_IsScalar(o, Generic);
}

static int
mt__dtype_of_descr(PyArray_Descr *d)
{
    int size = (int)PyDataType_ELSIZE(d);
    switch (d->kind) {
    case 'b':
        return MT_BOOL;
    case 'u':
        return size == 1 ? MT_UINT8 : size == 2 ? MT_UINT16 : size == 4 ? MT_UINT32 : size == 8 ? MT_UINT64 : -1;
    case 'i':
        return size == 1 ? MT_INT8 : size == 2 ? MT_INT16 : size == 4 ? MT_INT32 : size == 8 ? MT_INT64 : -1;
    case 'f':
        return size == 2 ? MT_FLOAT16 : size == 4 ? MT_FLOAT32 : size == 8 ? MT_FLOAT64 : -1;
    case 'c':
        return size == 8 ? MT_COMPLEX64 : size == 16 ? MT_COMPLEX128 : -1;
    default:
        return -1;
    }
}

int
mt__numpy_dtype_of(PyObject *o)
{
    if (mt__numpy_load(1) < 0) {
        return -1;
    }
    if (PyArray_Check(o)) {
        return mt__dtype_of_descr(PyArray_DESCR((PyArrayObject *)o));
    }
    PyArray_Descr *d = PyArray_DescrFromScalar(o);
    if (d == NULL) {
        PyErr_Clear();
        return -1;
    }
    int r = mt__dtype_of_descr(d);
    Py_DECREF(d);
    return r;
}

static const int mt__npy_types[MT_NUM_DTYPES] = {
    [MT_BOOL] = NPY_BOOL,       [MT_UINT8] = NPY_UINT8,     [MT_INT8] = NPY_INT8,
    [MT_INT16] = NPY_INT16,     [MT_INT32] = NPY_INT32,     [MT_INT64] = NPY_INT64,
    [MT_FLOAT16] = NPY_FLOAT16, [MT_BFLOAT16] = -1,         [MT_FLOAT32] = NPY_FLOAT32,
    [MT_FLOAT64] = NPY_FLOAT64, [MT_COMPLEX64] = NPY_COMPLEX64, [MT_COMPLEX128] = NPY_COMPLEX128,
    [MT_UINT16] = NPY_UINT16,   [MT_UINT32] = NPY_UINT32,   [MT_UINT64] = NPY_UINT64,
};

/* Storage deleter for memory borrowed from an ndarray: drops the array.
 * Runs on whatever thread drops the last reference, so it takes the GIL;
 * during interpreter shutdown the reference is deliberately leaked. */
static void
mt__release_ndarray(void *ctx, void *data)
{
    (void)data;
    if (_Py_IsFinalizing()) {
        return;
    }
    PyGILState_STATE st = PyGILState_Ensure();
    Py_DECREF((PyObject *)ctx);
    PyGILState_Release(st);
}

PyObject *
mt__from_numpy(PyObject *obj, int warn_readonly)
{
    if (mt__numpy_load(0) < 0) {
        return NULL;
    }
    if (!PyArray_Check(obj)) {
        PyErr_Format(PyExc_TypeError, "expected np.ndarray (got %s)", Py_TYPE(obj)->tp_name);
        return NULL;
    }
    PyArrayObject *arr = (PyArrayObject *)obj;
    PyArray_Descr *descr = PyArray_DESCR(arr);
    int dt = mt__dtype_of_descr(descr);
    if (dt < 0) {
        PyObject *name = PyObject_Str((PyObject *)descr);
        PyErr_Format(PyExc_TypeError,
                     "can't convert np.ndarray of type numpy.%S. The only supported types are: "
                     "float64, float32, float16, complex64, complex128, int64, int32, int16, int8, "
                     "uint64, uint32, uint16, uint8, and bool.",
                     name ? name : Py_None);
        Py_XDECREF(name);
        return NULL;
    }
    if (PyArray_ISBYTESWAPPED(arr)) {
        PyErr_SetString(PyExc_ValueError,
                        "given numpy array has byte order different from the native byte order. "
                        "Conversion between byte orders is currently not supported.");
        return NULL;
    }
    int nd = PyArray_NDIM(arr);
    if (nd > MT_MAX_DIMS) {
        PyErr_Format(PyExc_ValueError, "arrays with more than %d dimensions are not supported",
                     MT_MAX_DIMS);
        return NULL;
    }
    npy_intp *shape = PyArray_SHAPE(arr), *bstrides = PyArray_STRIDES(arr);
    int64_t itemsize = (int64_t)mt_dtype_itemsize((mt_dtype)dt);
    int64_t sizes[MT_MAX_DIMS], strides[MT_MAX_DIMS];
    int empty = 0;
    for (int i = 0; i < nd; i++) {
        sizes[i] = shape[i];
        empty |= shape[i] == 0;
    }
    for (int i = 0; i < nd; i++) {
        if (bstrides[i] < 0 && !empty && shape[i] > 1) {
            PyErr_SetString(PyExc_ValueError,
                            "At least one stride in the given numpy array is negative, and "
                            "tensors with negative strides are not currently supported. (You can "
                            "probably work around this by making a copy of your array  with "
                            "array.copy().) ");
            return NULL;
        }
        if (bstrides[i] % itemsize != 0) {
            PyErr_SetString(PyExc_ValueError,
                            "given numpy array strides not a multiple of the element byte size. "
                            "Copy the numpy array to reallocate the memory.");
            return NULL;
        }
        strides[i] = shape[i] > 1 ? bstrides[i] / itemsize : (bstrides[i] >= 0 ? bstrides[i] / itemsize : 0);
    }
    int64_t lo, hi; /* elements spanned, counting from the first */
    if (mt_view_extent(nd, sizes, strides, 0, (size_t)itemsize, &lo, &hi) < 0) {
        return mt__raise(0);
    }
    int64_t extent = empty ? 0 : hi + 1;
    if (warn_readonly && !PyArray_ISWRITEABLE(arr)) {
        static int warned;
        if (!warned) {
            warned = 1;
            if (PyErr_WarnEx(PyExc_UserWarning,
                             "The given NumPy array is not writable, and minitorch does not "
                             "support non-writable tensors. This means writing to this tensor "
                             "will result in undefined behavior. You may want to copy the array "
                             "to protect its data or make it writable before converting it to a "
                             "tensor. This type of warning will be suppressed for the rest of "
                             "this program.",
                             1) < 0) {
                return NULL;
            }
        }
    }
    Py_INCREF(obj);
    mt_storage *s = mt_storage_from_blob(PyArray_DATA(arr), (size_t)(extent * itemsize),
                                         MT_DEVICE_CPU, mt__release_ndarray, obj);
    if (s == NULL) {
        Py_DECREF(obj);
        return mt__raise(0);
    }
    mt_tensor *t = mt_tensor_new(s, (mt_dtype)dt, nd, sizes, strides, 0);
    mt_storage_decref(s); /* the tensor holds the storage now (or it died with the array ref) */
    return mt__tensor_wrap(t);
}

/* Capsule destructor: the storage reference held by an ndarray's base. */
static void
mt__storage_capsule_free(PyObject *cap)
{
    mt_storage_decref(PyCapsule_GetPointer(cap, "minitorch.storage"));
}

PyObject *
mt__tensor_to_numpy(PyObject *self)
{
    if (mt__numpy_load(0) < 0) {
        return NULL;
    }
    mt_tensor *t = mt__tensor_impl(self);
    if (mt_tensor_device(t).type != MT_CPU) {
        char name[32];
        mt_device_str(mt_tensor_device(t), name, sizeof(name));
        PyErr_Format(PyExc_TypeError,
                     "can't convert %s device type tensor to numpy. Use Tensor.cpu() to copy the "
                     "tensor to host memory first.", name);
        return NULL;
    }
    int npy = mt__npy_types[t->dtype];
    if (npy < 0) {
        PyErr_Format(PyExc_TypeError, "Got unsupported ScalarType %s", mt_dtype_name(t->dtype));
        return NULL;
    }
    npy_intp dims[MT_MAX_DIMS], strides[MT_MAX_DIMS];
    npy_intp isz = (npy_intp)mt_tensor_itemsize(t);
    for (int i = 0; i < t->ndim; i++) {
        dims[i] = (npy_intp)t->sizes[i];
        strides[i] = (npy_intp)t->strides[i] * isz;
    }
    PyArray_Descr *descr = PyArray_DescrFromType(npy);
    if (descr == NULL) {
        return NULL;
    }
    /* The array's base owns one storage reference (not the Tensor object:
     * in-place metadata ops may later give the tensor another impl). */
    mt_storage_incref(t->storage);
    /* as torch: the array keeps pointing at these bytes, so the storage may not move */
    mt_storage_fix(t->storage);
    PyObject *base = PyCapsule_New(t->storage, "minitorch.storage", mt__storage_capsule_free);
    if (base == NULL) {
        mt_storage_decref(t->storage);
        Py_DECREF(descr);
        return NULL;
    }
    PyObject *arr = PyArray_NewFromDescr(&PyArray_Type, descr, t->ndim, dims, strides,
                                         mt_tensor_data(t), NPY_ARRAY_WRITEABLE, NULL);
    if (arr == NULL) {
        Py_DECREF(base);
        return NULL;
    }
    if (PyArray_SetBaseObject((PyArrayObject *)arr, base) < 0) { /* steals base */
        Py_DECREF(arr);
        return NULL;
    }
    return arr;
}

/* A C-contiguous native-byte-order copy of an ndarray, as a new tensor. */
PyObject *
mt__from_numpy_copy(PyObject *obj)
{
    if (mt__numpy_load(0) < 0) {
        return NULL;
    }
    PyArrayObject *arr = (PyArrayObject *)obj;
    PyArray_Descr *d = PyArray_DESCR(arr);
    Py_INCREF(d);
    if (PyArray_ISBYTESWAPPED(arr)) {
        Py_SETREF(d, PyArray_DescrNewByteorder(d, NPY_NATIVE));
        if (d == NULL) {
            return NULL;
        }
    }
    PyObject *c = PyArray_FromArray(arr, d, NPY_ARRAY_C_CONTIGUOUS | NPY_ARRAY_ENSURECOPY | NPY_ARRAY_ALIGNED);
    if (c == NULL) {
        return NULL;
    }
    PyObject *t = mt__from_numpy(c, 0);
    Py_DECREF(c);
    return t;
}
