/* csrc/indexing.c - Tensor.__getitem__/__setitem__ with basic (view-producing) indices. */
#include "csrc/common.h"

/* Note [Basic indexing]
 * Ints select (drop a dim), slices narrow with a positive step, None adds a
 * size-1 dim, ... stands for the remaining dims, True/False add a dim of size
 * 1/0.  Every result is a view of the same storage, as in torch.  Assignment
 * computes the same view and copies (tensor value, broadcast as torch's
 * setitem: leading size-1 dims dropped, then expanded) or fills (number)
 * into it.  A key holding a tensor, list or array ("advanced indexing")
 * produces a copy; it is handed to the Python-level handler registered by
 * _shape_ops.py (_C._set_advanced_indexing), which splits the key into a
 * basic part (done here, as a view) and index tensors (gathered in C by
 * mt_index_get / scattered by mt_index_put_). */

/* 0-d tensors of a signed integer dtype index like ints, 0-d bool tensors
 * like True/False (as torch).  Returns the kind: 'i', 'b' or 0. */
static int
mt__scalar_tensor_index(PyObject *o)
{
    if (!mt__tensor_check(o) || mt__tensor_impl(o)->ndim != 0) {
        return 0;
    }
    mt_dtype dt = mt__tensor_impl(o)->dtype;
    if (dt == MT_BOOL) {
        return 'b';
    }
    return mt_dtype_is_integral(dt, false) && dt != MT_UINT8 ? 'i' : 0;
}

static int
mt__is_advanced(PyObject *o)
{
    return (mt__tensor_check(o) && !mt__scalar_tensor_index(o)) || PyList_Check(o) ||
           mt__is_ndarray(o);
}

/* Whether key (an item or a tuple of items) needs advanced indexing. */
static int
mt__key_is_advanced(PyObject *key)
{
    if (!PyTuple_Check(key)) {
        return mt__is_advanced(key);
    }
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(key); i++) {
        if (mt__is_advanced(PyTuple_GET_ITEM(key, i))) {
            return 1;
        }
    }
    return 0;
}

static int
mt__raise_advanced(void)
{
    PyErr_SetString(PyExc_IndexError, "advanced index reached the basic-indexing path");
    return -1;
}

/* Applies one index item to *cur at *dim. 0 or -1. */
static int
mt__apply_index(mt_tensor **cur, int *dim, PyObject *item)
{
    mt_tensor *r = NULL;
    int scalar_kind = mt__scalar_tensor_index(item);
    if (scalar_kind == 'b') {
        int truth = PyObject_IsTrue(item);
        if (truth < 0) {
            return -1;
        }
        item = truth ? Py_True : Py_False; /* borrowed singletons */
    }
    if (PyLong_CheckExact(item) || scalar_kind == 'i' ||
        (!PyBool_Check(item) && PyIndex_Check(item) && !mt__tensor_check(item) &&
         !mt__is_ndarray(item))) {
        Py_ssize_t i = PyNumber_AsSsize_t(item, PyExc_IndexError);
        if (i == -1 && PyErr_Occurred()) {
            return -1;
        }
        r = mt_select(*cur, *dim, i);
    }
    else if (PySlice_Check(item)) {
        Py_ssize_t start, stop, step;
        if (PySlice_Unpack(item, &start, &stop, &step) < 0) {
            return -1;
        }
        if (step <= 0) {
            PyErr_SetString(PyExc_ValueError, "step must be greater than zero");
            return -1;
        }
        if (*dim >= (*cur)->ndim) {
            PyErr_SetString(PyExc_IndexError, "too many indices for tensor");
            return -1;
        }
        r = mt_slice(*cur, *dim, start, stop, step);
        (*dim)++;
    }
    else if (item == Py_None || PyBool_Check(item)) {
        r = mt_unsqueeze(*cur, *dim);
        if (r != NULL && item == Py_False) {
            mt_tensor *e = mt_slice(r, *dim, 0, 0, 1);
            mt_tensor_decref(r);
            r = e;
        }
        (*dim)++;
    }
    else if (mt__is_advanced(item)) {
        return mt__raise_advanced();
    }
    else {
        PyErr_Format(PyExc_IndexError,
                     "only integers, slices (`:`), ellipsis (`...`), None and long or byte "
                     "Variables are valid indices (got %s)",
                     Py_TYPE(item)->tp_name);
        return -1;
    }
    if (r == NULL) {
        mt__raise(0);
        return -1;
    }
    mt_tensor_decref(*cur);
    *cur = r;
    return 0;
}

/* The view selected by key. New reference or NULL. */
static mt_tensor *
mt__index_view(PyObject *self, PyObject *key)
{
    /* cur holds its own reference: an item's __index__ may swap self's impl */
    mt_tensor *cur = mt_alias(mt__tensor_impl(self));
    if (cur == NULL) {
        mt__raise(0);
        return NULL;
    }
    const int ndim = cur->ndim;
    int dim = 0;
    if (!PyTuple_Check(key)) {
        if (key == Py_Ellipsis) {
            return cur;
        }
        if (mt__apply_index(&cur, &dim, key) < 0) {
            mt_tensor_decref(cur);
            return NULL;
        }
        return cur;
    }
    Py_ssize_t n = PyTuple_GET_SIZE(key);
    int specified = 0, ellipsis = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *it = PyTuple_GET_ITEM(key, i);
        if (it == Py_Ellipsis) {
            if (ellipsis++) {
                mt_tensor_decref(cur);
                PyErr_SetString(PyExc_IndexError, "an index can only have a single ellipsis ('...')");
                return NULL;
            }
        }
        else if (it != Py_None && !PyBool_Check(it) && mt__scalar_tensor_index(it) != 'b') {
            specified++;
        }
    }
    if (specified > ndim) {
        mt_tensor_decref(cur);
        PyErr_Format(PyExc_IndexError, "too many indices for tensor of dimension %d", ndim);
        return NULL;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *it = PyTuple_GET_ITEM(key, i);
        if (it == Py_Ellipsis) {
            dim += ndim - specified;
            continue;
        }
        if (mt__apply_index(&cur, &dim, it) < 0) {
            mt_tensor_decref(cur);
            return NULL;
        }
    }
    return cur;
}

PyObject *
mt__tensor_getitem(PyObject *self, PyObject *key)
{
    mt_tensor *t = mt__tensor_impl(self);
    if (PyLong_CheckExact(key)) { /* fast path: t[i] */
        Py_ssize_t i = PyLong_AsSsize_t(key);
        if (i == -1 && PyErr_Occurred()) {
            return NULL;
        }
        return mt__tensor_wrap(mt_select(t, 0, i));
    }
    if (mt__key_is_advanced(key)) {
        return mt__advanced_getitem(self, key);
    }
    mt_tensor *v = mt__index_view(self, key);
    return v ? mt__tensor_wrap(v) : NULL;
}

/* Copies src into the indexed view dst the way torch's setitem does: leading
 * size-1 dims of src are dropped, then src is expanded (broadcast) to dst's
 * shape.  Returns 0, or a negative status with the message set; dst is
 * unmodified on error. */
static int
mt__copy_broadcast(mt_tensor *dst, const mt_tensor *src)
{
    int64_t lead[MT_MAX_DIMS];
    int nlead = 0;
    while (nlead < src->ndim && src->sizes[nlead] == 1) {
        lead[nlead] = nlead;
        nlead++;
    }
    mt_tensor *sq = mt_squeeze(src, nlead, lead);
    if (sq == NULL) {
        return mt_error_code();
    }
    mt_tensor *ex = mt_expand(sq, dst->ndim, dst->sizes);
    mt_tensor_decref(sq);
    if (ex == NULL) {
        return mt_error_code();
    }
    int rc;
    Py_BEGIN_ALLOW_THREADS
    rc = mt_copy_(dst, ex);
    Py_END_ALLOW_THREADS
    mt_tensor_decref(ex);
    return rc;
}

int
mt__tensor_setitem(PyObject *self, PyObject *key, PyObject *value)
{
    if (value == NULL) {
        PyErr_SetString(PyExc_TypeError, "Tensor does not support item deletion");
        return -1;
    }
    if (mt__key_is_advanced(key)) {
        return mt__advanced_setitem(self, key, value);
    }
    mt_tensor *v = mt__index_view(self, key);
    if (v == NULL) {
        return -1;
    }
    int rc;
    if (mt__tensor_check(value)) {
        rc = mt__copy_broadcast(v, mt__tensor_impl(value));
    }
    else if (mt__is_number(value) || mt__is_numpy_scalar(value)) {
        mt_scalar s;
        if (mt__scalar_from_py(value, &s, "__setitem__") < 0) {
            mt_tensor_decref(v);
            return -1;
        }
        Py_BEGIN_ALLOW_THREADS
        rc = mt_fill_(v, s);
        Py_END_ALLOW_THREADS
    }
    else {
        PyObject *tmp = mt__tensor_from_data(value, 1, v->dtype, MT_DEVICE_CPU, 1);
        if (tmp == NULL) {
            mt_tensor_decref(v);
            return -1;
        }
        rc = mt__copy_broadcast(v, mt__tensor_impl(tmp));
        Py_DECREF(tmp);
    }
    mt_tensor_decref(v);
    return rc < 0 ? mt__raise_int(rc) : 0;
}
