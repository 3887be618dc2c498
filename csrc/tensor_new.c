/* csrc/tensor_new.c - building a tensor from Python data (nested sequences, numbers, arrays). */
#include "csrc/common.h"

#include <string.h>

/* Note [Tensor from data]
 * Two passes over the nested data: the first finds the shape (following
 * first elements) and the dtype (promoting every leaf: bool < int64 <
 * default float, numpy scalars and 0-d tensors by their own dtype); the
 * second checks every sequence's length and writes each leaf converted to
 * the result dtype.  Tensors and ndarrays nested inside lists are read
 * through their elements. */

/* Lists, tuples, tensors and arrays of >= 1 dim, and any other sequence (a
 * range, a storage...) except strings, as torch's PySequence_Check. */
static int
mt__is_seq(PyObject *o)
{
    if (PyList_Check(o) || PyTuple_Check(o)) {
        return 1;
    }
    if (mt__tensor_check(o)) {
        return mt__tensor_impl(o)->ndim > 0;
    }
    if (mt__is_ndarray(o)) {
        return mt__ndarray_ndim(o) > 0;
    }
    return PySequence_Check(o) && !PyUnicode_Check(o) && !PyBytes_Check(o) &&
           !PyByteArray_Check(o) && !mt__is_numpy_scalar(o);
}

static int
mt__leaf_dtype(PyObject *o, mt_dtype *dt)
{
    /* numpy scalars first: np.float64 subclasses float, but keeps its dtype
     * (as torch >= 1.5) */
    if (mt__is_numpy_scalar(o)) {
        int nd = mt__numpy_dtype_of(o);
        if (nd >= 0) {
            *dt = (mt_dtype)nd;
            return 0;
        }
    }
    if (PyBool_Check(o)) {
        *dt = MT_BOOL;
    }
    else if (PyLong_Check(o)) {
        *dt = MT_INT64;
    }
    else if (PyFloat_Check(o)) {
        *dt = mt_get_default_dtype();
    }
    else if (PyComplex_Check(o)) {
        *dt = mt_dtype_to_complex(mt_get_default_dtype());
    }
    else if (mt__tensor_check(o)) {
        *dt = mt__tensor_impl(o)->dtype;
    }
    else {
        int nd = mt__is_numpy_scalar(o) || mt__is_ndarray(o) ? mt__numpy_dtype_of(o) : -1;
        if (nd < 0) {
            PyErr_Format(PyExc_TypeError, "new(): invalid data type '%s'", Py_TYPE(o)->tp_name);
            return -1;
        }
        *dt = (mt_dtype)nd;
    }
    return 0;
}

/* Pass 1 along the first elements: shape. Returns ndim or -1. */
static int
mt__infer_shape(PyObject *o, int64_t *sizes)
{
    int nd = 0;
    Py_INCREF(o);
    while (mt__is_seq(o)) {
        if (nd >= MT_MAX_DIMS) {
            Py_DECREF(o);
            PyErr_Format(PyExc_ValueError, "too many dimensions (more than %d)", MT_MAX_DIMS);
            return -1;
        }
        if (mt__tensor_check(o)) { /* the rest of the shape is the tensor's */
            mt_tensor *t = mt__tensor_impl(o);
            if (nd + t->ndim > MT_MAX_DIMS) {
                Py_DECREF(o);
                PyErr_Format(PyExc_ValueError, "too many dimensions (more than %d)", MT_MAX_DIMS);
                return -1;
            }
            for (int i = 0; i < t->ndim; i++) {
                sizes[nd++] = t->sizes[i];
            }
            break;
        }
        Py_ssize_t n = PyObject_Length(o);
        if (n < 0) {
            Py_DECREF(o);
            return -1;
        }
        sizes[nd++] = n;
        if (n == 0) {
            break;
        }
        PyObject *first = PySequence_GetItem(o, 0);
        Py_DECREF(o);
        if (first == NULL) {
            return -1;
        }
        o = first;
    }
    Py_DECREF(o);
    return nd;
}

typedef struct {
    int ndim;
    const int64_t *sizes;
    mt_dtype dtype;      /* result dtype (pass 2) */
    int infer;           /* pass 1: promote leaf dtypes into `dtype` */
    int seen_leaf;
    int saw_ndarray;     /* pass 1 met an ndarray inside the data (torch warns) */
    char *out;
    int64_t itemsize;
} mt__fill_state;

static int
mt__store_leaf(mt__fill_state *st, PyObject *o)
{
    mt_scalar v;
    if (mt__tensor_check(o) && mt__tensor_impl(o)->numel != 1) {
        PyErr_SetString(PyExc_ValueError, "only one element tensors can be converted to Python scalars");
        return -1;
    }
    if (st->dtype == MT_UINT64 && PyLong_CheckExact(o)) {
        /* the full range 0 .. 2**64-1, which an mt_scalar cannot hold; as torch, a negative
         * int or one above the range is an OverflowError (Python's own messages) */
        uint64_t u = PyLong_AsUnsignedLongLong(o);
        if (u == (uint64_t)-1 && PyErr_Occurred()) {
            return -1;
        }
        memcpy(st->out, &u, sizeof(u));
        st->out += st->itemsize;
        return 0;
    }
    if (mt__scalar_from_py(o, &v, "tensor") < 0) {
        if (PyErr_ExceptionMatches(PyExc_TypeError)) {
            PyErr_Clear();
            PyErr_Format(PyExc_TypeError, "new(): invalid data type '%s'", Py_TYPE(o)->tp_name);
        }
        return -1;
    }
    /* Python numbers are checked as torch checks them (ints may wrap into unsigned types
     * down to -max; floats must fit); tensors and NumPy scalars convert as casts do */
    if (mt_dtype_is_integral(st->dtype, false) && !(mt__tensor_check(o) || mt__is_numpy_scalar(o)) &&
        mt_scalar_check_range(v, st->dtype) < 0) {
        PyErr_Format(PyExc_RuntimeError, "value cannot be converted to type %s without overflow",
                     mt_dtype_name(st->dtype));
        return -1;
    }
    mt_scalar_store(v, st->dtype, st->out);
    st->out += st->itemsize;
    return 0;
}

static int
mt__walk(mt__fill_state *st, PyObject *o, int dim)
{
    if (dim == st->ndim) {
        if (mt__is_seq(o)) {
            PyErr_Format(PyExc_ValueError, "expected a number at dim %d, got a sequence", dim);
            return -1;
        }
        if (st->infer) {
            mt_dtype dt;
            if (mt__leaf_dtype(o, &dt) < 0) {
                return -1;
            }
            st->dtype = st->seen_leaf ? mt_promote_types(st->dtype, dt) : dt;
            st->seen_leaf = 1;
            return st->dtype == MT_DTYPE_UNDEFINED ? mt__raise_int(MT_ERUNTIME) : 0;
        }
        return mt__store_leaf(st, o);
    }
    PyObject *seq = NULL;
    if (st->infer && (mt__tensor_check(o) || mt__is_ndarray(o))) {
        /* a tensor or array inside the data brings its own dtype, as torch (not that of the
         * Python numbers tolist() would give); its shape is checked by pass 2 */
        int nd = mt__tensor_check(o) ? (int)mt__tensor_impl(o)->dtype : mt__numpy_dtype_of(o);
        if (nd >= 0) {
            st->saw_ndarray |= !mt__tensor_check(o);
            st->dtype = st->seen_leaf ? mt_promote_types(st->dtype, (mt_dtype)nd) : (mt_dtype)nd;
            st->seen_leaf = 1;
            return st->dtype == MT_DTYPE_UNDEFINED ? mt__raise_int(MT_ERUNTIME) : 0;
        }
    }
    if (mt__tensor_check(o) || mt__is_ndarray(o)) {
        seq = PyObject_CallMethod(o, "tolist", NULL);
        if (seq == NULL) {
            return -1;
        }
        o = seq;
    }
    else if (!PyList_Check(o) && !PyTuple_Check(o) && mt__is_seq(o)) {
        seq = PySequence_Fast(o, "expected a sequence"); /* new ref: a list or tuple */
        if (seq == NULL) {
            return -1;
        }
        o = seq;
    }
    if (!PyList_Check(o) && !PyTuple_Check(o)) {
        /* a number (or 0-d tensor/array) where the shape wants a sequence: torch's TypeError */
        PyErr_SetString(PyExc_TypeError, "not a sequence");
        Py_XDECREF(seq);
        return -1;
    }
    Py_ssize_t n = PySequence_Fast_GET_SIZE(o);
    if (n != st->sizes[dim]) {
        Py_XDECREF(seq);
        PyErr_Format(PyExc_ValueError, "expected sequence of length %lld at dim %d (got %zd)",
                     (long long)st->sizes[dim], dim, n);
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        /* converting an item may run Python code that changes the list: hold
         * the item, and read the list afresh each time */
        if (PySequence_Fast_GET_SIZE(o) != n) {
            Py_XDECREF(seq);
            PyErr_SetString(PyExc_RuntimeError, "list changed size during tensor construction");
            return -1;
        }
        PyObject *item = Py_NewRef(PySequence_Fast_GET_ITEM(o, i));
        int rc = mt__walk(st, item, dim + 1);
        Py_DECREF(item);
        if (rc < 0) {
            Py_XDECREF(seq);
            return -1;
        }
    }
    Py_XDECREF(seq);
    return 0;
}

static PyObject *mt__tensor_from_data_host(PyObject *data, int has_dtype, mt_dtype dtype,
                                           mt_device device, int copy_numpy);

/* Note [Tensors from data on a device]
 * torch.tensor(data, device='cuda') builds the values in host memory (the Python walk writes
 * elements one by one) and copies them to the device in one transfer: the host never writes
 * device memory. */
PyObject *
mt__tensor_from_data(PyObject *data, int has_dtype, mt_dtype dtype, mt_device device,
                     int copy_numpy)
{
    if (device.type == MT_CPU) {
        return mt__tensor_from_data_host(data, has_dtype, dtype, device, copy_numpy);
    }
    if (mt__check_device_usable(device) < 0) {
        return NULL;
    }
    PyObject *h = mt__tensor_from_data_host(data, has_dtype, dtype, MT_DEVICE_CPU, copy_numpy);
    if (h == NULL) {
        return NULL;
    }
    mt_tensor *t = mt__tensor_impl(h);
    if (mt_device_resolve(&device) < 0) {
        Py_DECREF(h);
        return mt__raise(0);
    }
    if (mt_device_eq(mt_tensor_device(t), device)) {
        return h; /* a tensor already there */
    }
    mt_tensor *r = mt_tensor_empty(t->dtype, t->ndim, t->sizes, device);
    if (r != NULL && mt_copy_(r, t) < 0) {
        mt_tensor_decref(r);
        r = NULL;
    }
    Py_DECREF(h);
    return mt__tensor_wrap(r);
}

static PyObject *
mt__tensor_from_data_host(PyObject *data, int has_dtype, mt_dtype dtype, mt_device device,
                          int copy_numpy)
{
    PyObject *src = NULL;
    if (mt__tensor_check(data)) {
        mt_tensor *t = mt__tensor_impl(data);
        return mt__tensor_wrap(mt_to_dtype(t, has_dtype ? dtype : t->dtype, true));
    }
    if (mt__is_ndarray(data)) {
        src = mt__from_numpy_copy(data);
        if (src == NULL) {
            return NULL;
        }
        mt_tensor *t = mt__tensor_impl(src);
        if (!has_dtype || t->dtype == dtype) {
            return src;
        }
        PyObject *r = mt__tensor_wrap(mt_to_dtype(t, dtype, true));
        Py_DECREF(src);
        return r;
    }
    int64_t sizes[MT_MAX_DIMS];
    int nd = mt__infer_shape(data, sizes);
    if (nd < 0) {
        return NULL;
    }
    mt__fill_state st = {.ndim = nd, .sizes = sizes, .dtype = mt_get_default_dtype(), .infer = 1};
    if (!has_dtype) {
        if (mt__walk(&st, data, 0) < 0) {
            return NULL;
        }
        dtype = st.dtype;
        if (st.saw_ndarray &&
            PyErr_WarnEx(PyExc_UserWarning,
                         "Creating a tensor from a list of numpy.ndarrays is extremely slow. Please "
                         "consider converting the list to a single numpy.ndarray with numpy.array() "
                         "before converting to a tensor.", 1) < 0) {
            return NULL;
        }
    }
    mt_tensor *t = mt_tensor_empty(dtype, nd, sizes, device);
    if (t == NULL) {
        return mt__raise(0);
    }
    st.infer = 0;
    st.dtype = dtype;
    st.out = mt_tensor_data(t);
    st.itemsize = (int64_t)mt_dtype_itemsize(dtype);
    if (mt__walk(&st, data, 0) < 0) {
        mt_tensor_decref(t);
        return NULL;
    }
    return mt__tensor_wrap(t);
}
