/* csrc/indexing.c - Tensor.__getitem__/__setitem__: parses the Python key; aten_lite/indexing.c plans and runs it. */
#include "csrc/common.h"
#include "csrc/autograd/autograd.h"

#include "aten_lite/indexing.h"

/* Note [Parsing an indexing key]
 * The key (an item, or a tuple of items) is turned into mt_index_items before
 * anything looks at the indexed tensor: converting a list or an array into an
 * index tensor, a slice's or an object's __index__ may run Python code that
 * changes the tensor (see Note [Impls across Python code and the GIL]).  Only
 * then is the tensor's impl taken (with its own reference) and the plan made,
 * in C (Note [Indexing plans]).  Items: ints and objects with __index__
 * select, slices narrow (positive steps), None adds a dim, ... stands for the
 * remaining dims, True/False add a dim of size 1/0, tensors (and lists and
 * arrays, converted as torch.tensor does) are index tensors or masks.  As
 * torch, a list key is read as a tuple when it holds a slice, None, ...,
 * tensor or sequence (with torch's deprecation warning). */
#define MT__KEY_INLINE 8
typedef struct {
    int n;
    mt_index_item *items; /* `inline_items`, or owned (PyMem) for long keys */
    mt_tensor **held;     /* owned references to the items' tensors (same storage rule) */
    int nheld;
    mt_index_item inline_items[MT__KEY_INLINE];
    mt_tensor *inline_held[MT__KEY_INLINE];
} mt__key;

static void
mt__key_release(mt__key *k)
{
    for (int i = 0; i < k->nheld; i++) {
        mt_tensor_decref(k->held[i]);
    }
    if (k->items != k->inline_items) {
        PyMem_Free(k->items);
        PyMem_Free(k->held);
    }
    k->items = NULL;
    k->held = NULL;
    k->n = k->nheld = 0;
}

/* Whether a list key is read as a tuple (torch's rule for NumPy's legacy). */
static int
mt__list_is_tuple(PyObject *key)
{
    Py_ssize_t n = PyList_GET_SIZE(key);
    if (n >= 32) {
        return 0;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *it = PyList_GET_ITEM(key, i);
        if (mt__tensor_check(it) || PySlice_Check(it) || it == Py_Ellipsis || it == Py_None ||
            (PySequence_Check(it) && !PyUnicode_Check(it) && !PyBytes_Check(it))) {
            return 1;
        }
    }
    return 0;
}

/* A list or array item as an index tensor (held by k). */
static int
mt__parse_data(mt__key *k, mt_index_item *out, PyObject *item)
{
    PyObject *t;
    if (PyList_Check(item) && PyList_GET_SIZE(item) == 0) {
        t = mt__tensor_from_data(item, 1, MT_INT64, MT_DEVICE_CPU, 1); /* [] indexes nothing */
    }
    else {
        t = mt__tensor_from_data(item, 0, MT_INT64, MT_DEVICE_CPU, 1);
    }
    if (t == NULL) {
        return -1;
    }
    mt_tensor *impl = mt__tensor_impl_ref(t);
    Py_DECREF(t);
    k->held[k->nheld++] = impl;
    if (impl->ndim == 0 && mt_dtype_is_integral(impl->dtype, false)) {
        /* a 0-d integer array indexes like an int (a uint8 one too) */
        out->kind = MT_INDEX_INT;
        mt_scalar v; /* through mt_item: a device tensor's element is copied to the host */
        if (mt_item(impl, &v) < 0) {
            mt__raise(0);
            return -1;
        }
        out->index = mt_scalar_to_int64(v);
        return 0;
    }
    out->kind = MT_INDEX_TENSOR;
    out->tensor = impl;
    return 0;
}

/* A range item: the index tensor of its ints, as torch reads a range (a sequence of ints),
 * made by arange instead of a list of Python ints (held by k). */
static int
mt__parse_range(mt__key *k, mt_index_item *out, PyObject *item)
{
    Py_ssize_t n = PyObject_Size(item);
    if (n < 0) {
        return -1;
    }
    if (n == 0) {
        PyObject *empty = PyList_New(0);
        int rc = empty == NULL ? -1 : mt__parse_data(k, out, empty);
        Py_XDECREF(empty);
        return rc;
    }
    int64_t v[2];
    const char *names[2] = {"start", "step"};
    for (int i = 0; i < 2; i++) {
        PyObject *o = PyObject_GetAttrString(item, names[i]);
        if (o == NULL) {
            return -1;
        }
        v[i] = PyLong_AsLongLong(o);
        Py_DECREF(o);
        if (v[i] == -1 && PyErr_Occurred()) {
            return -1;
        }
    }
    /* arange(start, last + 1 or last - 1, step) has exactly n values */
    int64_t last, end;
    if (mt_ckd_mul(&last, v[1], (int64_t)(n - 1)) || mt_ckd_add(&last, last, v[0]) ||
        mt_ckd_add(&end, last, v[1] > 0 ? 1 : -1)) {
        PyErr_SetString(PyExc_OverflowError, "range index: values do not fit int64");
        return -1;
    }
    mt_tensor *impl = mt_arange(mt_scalar_int(v[0]), mt_scalar_int(end), mt_scalar_int(v[1]),
                                MT_INT64, MT_DEVICE_CPU);
    if (impl == NULL) {
        mt__raise(0);
        return -1;
    }
    k->held[k->nheld++] = impl;
    out->kind = MT_INDEX_TENSOR;
    out->tensor = impl;
    return 0;
}

static int
mt__parse_item(mt__key *k, mt_index_item *out, PyObject *item)
{
    memset(out, 0, sizeof(*out));
    if (item == Py_Ellipsis) {
        out->kind = MT_INDEX_ELLIPSIS;
    }
    else if (item == Py_None) {
        out->kind = MT_INDEX_NONE;
    }
    else if (PyBool_Check(item)) {
        out->kind = MT_INDEX_BOOL;
        out->value = item == Py_True;
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
        out->kind = MT_INDEX_SLICE;
        out->start = start;
        out->stop = stop;
        out->step = step;
    }
    else if (mt__tensor_check(item)) {
        out->kind = MT_INDEX_TENSOR;
        out->tensor = k->held[k->nheld++] = mt__tensor_impl_ref(item);
    }
    else if (PyList_Check(item) || PyTuple_Check(item) || mt__is_ndarray(item)) {
        return mt__parse_data(k, out, item);
    }
    else if (PyRange_Check(item)) {
        return mt__parse_range(k, out, item);
    }
    else if (PyIndex_Check(item) && !PyFloat_Check(item)) {
        Py_ssize_t i = PyNumber_AsSsize_t(item, PyExc_IndexError);
        if (i == -1 && PyErr_Occurred()) {
            return -1;
        }
        out->kind = MT_INDEX_INT;
        out->index = i;
    }
    else {
        PyErr_Format(PyExc_IndexError,
                     "only integers, slices (`:`), ellipsis (`...`), None and long or byte "
                     "Variables are valid indices (got %s)",
                     Py_TYPE(item)->tp_name);
        return -1;
    }
    return 0;
}

/* key -> k (everything held by k; release with mt__key_release).  0 or -1. */
static int
mt__parse_key(PyObject *key, mt__key *k)
{
    k->n = k->nheld = 0;
    k->items = k->inline_items;
    k->held = k->inline_held;
    PyObject *tuple = NULL;
    if (PyList_Check(key) && mt__list_is_tuple(key)) {
        if (PyErr_WarnEx(PyExc_UserWarning,
                         "Using a non-tuple sequence for multidimensional indexing is deprecated; "
                         "use x[tuple(seq)] instead of x[seq]", 1) < 0) {
            return -1;
        }
        tuple = PyList_AsTuple(key);
        if (tuple == NULL) {
            return -1;
        }
    }
    else if (PyTuple_Check(key)) {
        tuple = Py_NewRef(key);
    }
    if (tuple == NULL) { /* one item */
        if (mt__parse_item(k, &k->items[0], key) < 0) {
            mt__key_release(k);
            return -1;
        }
        k->n = 1;
        return 0;
    }
    Py_ssize_t n = PyTuple_GET_SIZE(tuple);
    if (n > INT_MAX / 2) {
        Py_DECREF(tuple);
        PyErr_SetString(PyExc_IndexError, "too many indices");
        return -1;
    }
    if (n > MT__KEY_INLINE) {
        k->items = PyMem_Calloc((size_t)n, sizeof(mt_index_item));
        k->held = PyMem_Calloc((size_t)n, sizeof(mt_tensor *));
        if (k->items == NULL || k->held == NULL) {
            Py_DECREF(tuple);
            mt__key_release(k);
            PyErr_NoMemory();
            return -1;
        }
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        if (mt__parse_item(k, &k->items[i], PyTuple_GET_ITEM(tuple, i)) < 0) {
            Py_DECREF(tuple);
            mt__key_release(k);
            return -1;
        }
        k->n++;
    }
    Py_DECREF(tuple);
    return 0;
}

/* The plan of key on self's current impl.  0, or -1 with the error raised
 * (nothing held then). */
static int
mt__plan(PyObject *self, const mt__key *k, mt_index_plan *plan)
{
    mt_tensor *t = mt__tensor_impl_ref(self);
    int rc = mt_index_plan_make(t, k->n, k->items, plan);
    mt_tensor_decref(t);
    return rc < 0 ? mt__raise_int(rc) : 0;
}

PyObject *
mt__tensor_getitem(PyObject *self, PyObject *key)
{
    PyObject *argv[2] = {self, key}, *res;
    MT__TF_CHECK("o.getitem", NULL, argv, 2, NULL)
    if (mt__ag_maybe() && mt__ag_intercept("o.getitem", NULL, argv, 2, NULL, &res)) {
        return res;
    }
    if (PyLong_CheckExact(key)) { /* fast path: t[i] */
        Py_ssize_t i = PyLong_AsSsize_t(key);
        if (i == -1 && PyErr_Occurred()) {
            return NULL;
        }
        return mt__tensor_wrap_view(self, mt_select(mt__tensor_impl(self), 0, i));
    }
    mt__key k;
    if (mt__parse_key(key, &k) < 0) {
        return NULL;
    }
    mt_index_plan plan;
    int rc = mt__plan(self, &k, &plan);
    mt__key_release(&k);
    if (rc < 0) {
        return NULL;
    }
    mt_tensor *r;
    if (plan.nadv == 0) { /* a view: nothing to wait for */
        r = plan.view;
        plan.view = NULL;
    }
    else {
        Py_BEGIN_ALLOW_THREADS
        r = mt_index_plan_get(&plan);
        Py_END_ALLOW_THREADS
    }
    mt_index_plan_release(&plan);
    return mt__tensor_wrap_view(self, r); /* a view has self's storage, a copy its own */
}

/* The value of t[key] = value: a tensor (*v, a new reference to its impl) or
 * a number (*s, checked against dt as fill_ checks it).  0, or -1 with the
 * error raised. */
static int
mt__setitem_value(PyObject *value, mt_dtype dt, mt_tensor **v, mt_scalar *s)
{
    *v = NULL;
    if (mt__tensor_check(value)) {
        *v = mt__tensor_impl_ref(value);
        return 0;
    }
    if (!mt__is_number(value) && !mt__is_numpy_scalar(value)) {
        PyErr_Format(PyExc_TypeError, "can't assign a %s to a minitorch.%sTensor",
                     Py_TYPE(value)->tp_name, mt_dtype_scalar_name(dt));
        return -1;
    }
    if (mt__scalar_from_py(value, s, "__setitem__") < 0) {
        return -1;
    }
    return mt_scalar_check_range(*s, dt) < 0 ? mt__raise_int(0) : 0;
}

/* Runs a planned put of v (or of the number s when v is NULL).  0 or a
 * negative MT_E* code. */
static int
mt__put(const mt_index_plan *plan, mt_tensor *v, mt_scalar s)
{
    if (v != NULL) {
        return mt_index_plan_put(plan, v);
    }
    if (plan->nadv == 0) {
        return mt_fill_(plan->view, s);
    }
    v = mt_tensor_empty(plan->view->dtype, 0, NULL, MT_DEVICE_CPU);
    if (v == NULL) {
        return mt_error_code();
    }
    mt_scalar_store(s, plan->view->dtype, mt_tensor_data(v));
    int rc = mt_index_plan_put(plan, v);
    mt_tensor_decref(v);
    return rc;
}

int
mt__tensor_setitem(PyObject *self, PyObject *key, PyObject *value)
{
    if (value == NULL) {
        PyErr_SetString(PyExc_TypeError, "Tensor does not support item deletion");
        return -1;
    }
    PyObject *argv[3] = {self, key, value}, *res;
    if ((mt__tf_on && mt__tf_dispatch("o.setitem", NULL, argv, 3, NULL, &res)) ||
        (mt__ag_maybe() && mt__ag_intercept("o.setitem", NULL, argv, 3, NULL, &res))) {
        Py_XDECREF(res);
        return res != NULL ? 0 : -1;
    }
    if (mt__bump_version(self) < 0) {
        return -1;
    }
    mt__key k;
    if (mt__parse_key(key, &k) < 0) {
        return -1;
    }
    mt_tensor *v;
    mt_scalar sv;
    if (mt__setitem_value(value, mt__tensor_impl(self)->dtype, &v, &sv) < 0) {
        mt__key_release(&k);
        return -1;
    }
    mt_index_plan plan;
    int rc = mt__plan(self, &k, &plan);
    mt__key_release(&k);
    if (rc == 0) {
        Py_BEGIN_ALLOW_THREADS
        rc = mt__put(&plan, v, sv);
        Py_END_ALLOW_THREADS
        mt_index_plan_release(&plan);
        rc = rc < 0 ? mt__raise_int(rc) : 0;
    }
    mt_tensor_decref(v);
    return rc;
}
