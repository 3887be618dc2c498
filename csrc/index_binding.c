/* csrc/index_binding.c - cat, sort/topk, searchsorted, gather/scatter, indexing primitives. */
#include "csrc/common.h"
#include "csrc/autograd/autograd.h"
#include "csrc/autocast.h"

#define IMPL(self) (((MTTensorObject *)(self))->impl)
#define FASTKW(name) (PyCFunction)(void (*)(void))name, METH_FASTCALL | METH_KEYWORDS

/* A list/tuple of tensors -> new references to their impls (at most `cap`;
 * release with mt__impls_release).  Returns count, or -1 with nothing held. */
static int
mt__tensor_list(PyObject *seq, mt_tensor **out, int cap, const char *fname, const char *what)
{
    if (mt__tensor_check(seq) || (!PyList_Check(seq) && !PyTuple_Check(seq))) {
        PyErr_Format(PyExc_TypeError, "%s(): argument '%s' must be tuple of Tensors, not %s", fname,
                     what, Py_TYPE(seq)->tp_name);
        return -1;
    }
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    if (n > cap) {
        PyErr_Format(PyExc_ValueError, "%s(): too many tensors (%zd > %d)", fname, n, cap);
        return -1;
    }
    PyObject **items = PySequence_Fast_ITEMS(seq);
    for (Py_ssize_t i = 0; i < n; i++) {
        if (!mt__tensor_check(items[i])) {
            PyErr_Format(PyExc_TypeError, "%s(): expected Tensor as element %zd in argument '%s', "
                         "but got %s", fname, i, what, Py_TYPE(items[i])->tp_name);
            return -1;
        }
        out[i] = IMPL(items[i]);
    }
    /* no Python code ran in the loop, so the list still holds every item */
    for (Py_ssize_t i = 0; i < n; i++) {
        mt_tensor_incref(out[i]);
    }
    return (int)n;
}

static PyObject *
mt_f_cat(PyObject *m, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    static const char *const names[] = {"tensors", "dim", "out", NULL};
    PyObject *a[3];
    if (mt__parse_args("cat", args, nargs, kwnames, names, 2, 1, a) < 0) {
        return NULL;
    }
    int64_t dim = 0;
    if (a[1] != NULL && mt__int64_from_py(a[1], &dim, "cat", "dim") < 0) {
        return NULL;
    }
    if (!PyList_Check(a[0]) && !PyTuple_Check(a[0])) {
        PyErr_Format(PyExc_TypeError, "cat(): argument 'tensors' must be tuple of Tensors, not %s",
                     Py_TYPE(a[0])->tp_name);
        return NULL;
    }
    Py_ssize_t n = PySequence_Fast_GET_SIZE(a[0]);
    mt_tensor **ts = PyMem_Malloc(sizeof(mt_tensor *) * (size_t)(n ? n : 1));
    if (ts == NULL) {
        return PyErr_NoMemory();
    }
    if (mt__tensor_list(a[0], ts, (int)(n < 1 << 30 ? n : 1 << 30), "cat", "tensors") < 0) {
        PyMem_Free(ts);
        return NULL;
    }
    mt_tensor *r = mt_cat(ts, (int)n, dim);
    mt__impls_release(ts, (int)n);
    PyMem_Free(ts);
    return mt__result_or_out(r, a[2], "cat");
}

static PyObject *
mt_py_sort(PyObject *m, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    static const char *const names[] = {"input", "dim", "descending", "stable", NULL};
    PyObject *a[4];
    if (mt__parse_args("sort", args, nargs, kwnames, names, 3, 1, a) < 0) {
        return NULL;
    }
    if (!mt__tensor_check(a[0])) {
        PyErr_Format(PyExc_TypeError, "sort(): argument 'input' must be Tensor, not %s",
                     Py_TYPE(a[0])->tp_name);
        return NULL;
    }
    int64_t dim = -1;
    int desc = 0;
    if ((a[1] != NULL && a[1] != Py_None && mt__int64_from_py(a[1], &dim, "sort", "dim") < 0) ||
        (a[2] != NULL && (desc = PyObject_IsTrue(a[2])) < 0)) {
        return NULL;
    }
    mt_tensor *v, *ix, *t = mt__tensor_impl_ref(a[0]);
    int rc;
    Py_BEGIN_ALLOW_THREADS
    rc = mt_sort(t, dim, desc, &v, &ix);
    Py_END_ALLOW_THREADS
    mt_tensor_decref(t);
    return mt__values_indices(rc, v, ix);
}

/* _searchsorted(boundaries, values, sorter or None, right, out_int32): arguments
 * already checked and promoted by _searching.searchsorted. */
static PyObject *
mt_py_searchsorted(PyObject *m, PyObject *args)
{
    PyObject *bd, *vals, *sorter;
    int right, out_int32;
    if (!PyArg_ParseTuple(args, "O!O!Opp", mt__TensorBase_Type, &bd, mt__TensorBase_Type, &vals,
                          &sorter, &right, &out_int32)) {
        return NULL;
    }
    if (sorter != Py_None && !mt__tensor_check(sorter)) {
        PyErr_SetString(PyExc_TypeError, "searchsorted(): argument 'sorter' must be Tensor");
        return NULL;
    }
    mt_tensor *r, *s = sorter == Py_None ? NULL : mt__tensor_impl_ref(sorter);
    mt_tensor *b = mt__tensor_impl_ref(bd), *v = mt__tensor_impl_ref(vals);
    Py_BEGIN_ALLOW_THREADS
    r = mt_searchsorted(b, v, s, right, out_int32);
    Py_END_ALLOW_THREADS
    mt_tensor_decref(b);
    mt_tensor_decref(v);
    mt_tensor_decref(s);
    return r ? mt__tensor_wrap(r) : mt__raise(0);
}

static PyObject *
mt_py_index_select_raw(PyObject *m, PyObject *args)
{
    PyObject *self, *index;
    long long dim;
    int wrap = 0;
    if (!PyArg_ParseTuple(args, "O!LO!|p", mt__TensorBase_Type, &self, &dim, mt__TensorBase_Type,
                          &index, &wrap)) {
        return NULL;
    }
    mt_tensor *r, *t = mt__tensor_impl_ref(self), *ix = mt__tensor_impl_ref(index);
    Py_BEGIN_ALLOW_THREADS
    r = mt_index_select(t, dim, ix, wrap);
    Py_END_ALLOW_THREADS
    mt_tensor_decref(t);
    mt_tensor_decref(ix);
    return r ? mt__tensor_wrap(r) : mt__raise(0);
}

/* _flip(input, dims): dims wrapped and distinct (checked by _rearranging.flip) */
static PyObject *
mt_py_flip_raw(PyObject *m, PyObject *args)
{
    PyObject *self, *dims;
    if (!PyArg_ParseTuple(args, "O!O", mt__TensorBase_Type, &self, &dims)) {
        return NULL;
    }
    int64_t d[MT_MAX_DIMS];
    int n = mt__sizes_from_seq(dims, d, "flip", "dims");
    if (n < 0) {
        return NULL;
    }
    for (int i = 0; i < n; i++) {
        if (d[i] < 0 || d[i] >= IMPL(self)->ndim) {
            PyErr_Format(PyExc_IndexError, "flip(): dim %lld out of range", (long long)d[i]);
            return NULL;
        }
    }
    mt_tensor *r, *t = mt__tensor_impl_ref(self);
    Py_BEGIN_ALLOW_THREADS
    r = mt_flip(t, n, d);
    Py_END_ALLOW_THREADS
    mt_tensor_decref(t);
    return r ? mt__tensor_wrap(r) : mt__raise(0);
}

/* _topk(input, k, dim, largest) -> (values, indices); arguments checked by _sorting.topk */
static PyObject *
mt_py_topk_raw(PyObject *m, PyObject *args)
{
    PyObject *self;
    long long k, dim;
    int largest;
    if (!PyArg_ParseTuple(args, "O!LLp", mt__TensorBase_Type, &self, &k, &dim, &largest)) {
        return NULL;
    }
    mt_tensor *v, *ix, *t = mt__tensor_impl_ref(self);
    int rc;
    Py_BEGIN_ALLOW_THREADS
    rc = mt_topk(t, k, dim, largest, &v, &ix);
    Py_END_ALLOW_THREADS
    mt_tensor_decref(t);
    return mt__values_indices(rc, v, ix);
}

static PyObject *
mt_py_index_put(PyObject *m, PyObject *args)
{
    PyObject *self, *list, *values;
    int accumulate = 0;
    if (!PyArg_ParseTuple(args, "O!OO!|p", mt__TensorBase_Type, &self, &list, mt__TensorBase_Type,
                          &values, &accumulate)) {
        return NULL;
    }
    mt_tensor *idx[MT_MAX_DIMS];
    int k = mt__tensor_list(list, idx, MT_MAX_DIMS, "index_put_", "indices");
    if (k < 0) {
        return NULL;
    }
    if (IMPL(self)->numel > 0 && mt_check_no_internal_overlap(IMPL(self)) < 0) {
        mt__impls_release(idx, k);
        return mt__raise(0);
    }
    int rc;
    mt_tensor *t = mt__tensor_impl_ref(self), *v = mt__tensor_impl_ref(values);
    Py_BEGIN_ALLOW_THREADS
    rc = mt_index_put_(t, k, idx, v, accumulate);
    Py_END_ALLOW_THREADS
    mt_tensor_decref(t);
    mt_tensor_decref(v);
    mt__impls_release(idx, k);
    return rc < 0 ? mt__raise(rc) : Py_NewRef(self);
}

static PyObject *
mt_py_nonzero_raw(PyObject *m, PyObject *self)
{
    if (!mt__tensor_check(self)) {
        PyErr_Format(PyExc_TypeError, "nonzero(): argument 'input' must be Tensor, not %s",
                     Py_TYPE(self)->tp_name);
        return NULL;
    }
    return mt__tensor_wrap(mt_nonzero(IMPL(self)));
}

static PyObject *
mt_py_gather(PyObject *m, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    static const char *const names[] = {"input", "dim", "index", "sparse_grad", "out", NULL};
    PyObject *a[5];
    int64_t dim;
    if (mt__parse_args("gather", args, nargs, kwnames, names, 3, 3, a) < 0 ||
        mt__int64_from_py(a[1], &dim, "gather", "dim") < 0) {
        return NULL;
    }
    if (!mt__tensor_check(a[0]) || !mt__tensor_check(a[2])) {
        PyErr_SetString(PyExc_TypeError, "gather(): input and index must be Tensors");
        return NULL;
    }
    return mt__result_or_out(mt_gather(IMPL(a[0]), dim, IMPL(a[2])), a[4], "gather");
}

/* self.scatter_(dim, index, src|value, *, reduce=None) / scatter_add_(dim, index, src) */
static PyObject *
mt__scatter_impl(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames, int add)
{
    static const char *const names[] = {"dim", "index", "src", "value", "reduce", NULL};
    PyObject *a[5];
    const char *fname = add ? "scatter_add_" : "scatter_";
    int64_t dim;
    if (mt__parse_args(fname, args, nargs, kwnames, names, 3, 2, a) < 0 ||
        mt__int64_from_py(a[0], &dim, fname, "dim") < 0) {
        return NULL;
    }
    PyObject *src = a[2] ? a[2] : a[3];
    if (src == NULL || (a[2] != NULL && a[3] != NULL)) {
        PyErr_Format(PyExc_TypeError, "%s(): expected exactly one of 'src' (Tensor) and 'value' "
                     "(Number)", fname);
        return NULL;
    }
    if (!mt__tensor_check(a[1])) {
        PyErr_Format(PyExc_TypeError, "%s(): argument 'index' must be Tensor, not %s", fname,
                     Py_TYPE(a[1])->tp_name);
        return NULL;
    }
    if (add && !mt__tensor_check(src)) {
        PyErr_Format(PyExc_TypeError, "%s(): argument 'src' must be Tensor, not %s", fname,
                     Py_TYPE(src)->tp_name);
        return NULL;
    }
    mt_scatter_reduce reduce = add ? MT_SCATTER_ADD : MT_SCATTER_NONE;
    if (a[4] != NULL && a[4] != Py_None) {
        const char *r = PyUnicode_Check(a[4]) ? PyUnicode_AsUTF8(a[4]) : NULL;
        if (add || r == NULL || (strcmp(r, "add") != 0 && strcmp(r, "multiply") != 0)) {
            PyErr_SetString(PyExc_RuntimeError, "reduce argument must be either add or multiply.");
            return NULL;
        }
        reduce = strcmp(r, "add") == 0 ? MT_SCATTER_ADD : MT_SCATTER_MULTIPLY;
    }
    int rc;
    if (mt__tensor_check(src)) {
        rc = mt_scatter_(IMPL(self), dim, IMPL(a[1]), IMPL(src), reduce);
    }
    else {
        mt_scalar v;
        if (mt__scalar_from_py(src, &v, fname) < 0) {
            return NULL;
        }
        rc = mt_scatter_value_(IMPL(self), dim, IMPL(a[1]), v, reduce);
    }
    return rc < 0 ? mt__raise(rc) : Py_NewRef(self);
}

/* _scatter_reduce_(self, dim, index, src, mode): mt_scatter_ with any mt_scatter_reduce
 * (arguments and include_self handled by _gather_scatter.scatter_reduce_). */
static PyObject *
mt_py_scatter_reduce_raw(PyObject *m, PyObject *args)
{
    PyObject *self, *index, *src;
    long long dim;
    int mode;
    if (!PyArg_ParseTuple(args, "O!LO!O!i", mt__TensorBase_Type, &self, &dim, mt__TensorBase_Type,
                          &index, mt__TensorBase_Type, &src, &mode)) {
        return NULL;
    }
    if (mode < MT_SCATTER_NONE || mode > MT_SCATTER_AMIN) {
        PyErr_SetString(PyExc_ValueError, "_scatter_reduce_: unknown mode");
        return NULL;
    }
    int rc = mt_scatter_(IMPL(self), dim, IMPL(index), IMPL(src), (mt_scatter_reduce)mode);
    return rc < 0 ? mt__raise(rc) : Py_NewRef(self);
}

static PyObject *
mt_m_scatter_(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kw)
{
    return mt__scatter_impl(self, args, nargs, kw, 0);
}

static PyObject *
mt_m_scatter_add_(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kw)
{
    return mt__scatter_impl(self, args, nargs, kw, 1);
}

MT_OPTABLE_INDEX_METHOD_WRAPPERS(MT_AG_WRAPPER)
MT_OPTABLE_INDEX_METHOD_AUTOCAST(MT_AC_WRAPPER)

static PyMethodDef mt_index_methods[] = {
    MT_OPTABLE_INDEX_METHODS(MT_OPTABLE_DEF)
    {NULL},
};

MT_OPTABLE_INDEX_FUNCTION_WRAPPERS(MT_AG_WRAPPER)
MT_OPTABLE_INDEX_FUNCTION_AUTOCAST(MT_AC_WRAPPER)

static PyMethodDef mt_index_functions[] = {
    MT_OPTABLE_INDEX_FUNCTIONS(MT_OPTABLE_DEF)
    {"_sort", FASTKW(mt_py_sort), "sort(input, dim=-1, descending=False, stable=False) -> (values, indices)"},
    {"_gather", FASTKW(mt_py_gather), "gather(input, dim, index)"},
    {"_scatter_reduce_", mt_py_scatter_reduce_raw, METH_VARARGS, NULL},
    {"_topk", mt_py_topk_raw, METH_VARARGS, NULL},
    {"_flip", mt_py_flip_raw, METH_VARARGS, NULL},
    {"_index_select", mt_py_index_select_raw, METH_VARARGS, NULL},
    {"_searchsorted", mt_py_searchsorted, METH_VARARGS, NULL},
    {"_index_put_", mt_py_index_put, METH_VARARGS, NULL},
    {"_nonzero", mt_py_nonzero_raw, METH_O, NULL},
    {NULL},
};

int
mt__index_binding_init(PyObject *module)
{
    if (mt__add_tensor_methods(mt_index_methods) < 0) {
        return -1;
    }
    return PyModule_AddFunctions(module, mt_index_functions);
}
