/* csrc/tensor_object.c - the TensorBase type: lifecycle, attributes, conversions, protocols. */
#include "csrc/common.h"
#include "csrc/autograd/autograd.h"

#include <string.h>

PyTypeObject *mt__TensorBase_Type;
PyTypeObject *mt__tensor_class;

PyObject *
mt__tensor_wrap(mt_tensor *t)
{
    if (t == NULL) {
        return PyErr_Occurred() ? NULL : mt__raise(0);
    }
    PyTypeObject *cls = mt__tensor_class ? mt__tensor_class : mt__TensorBase_Type;
    MTTensorObject *o = (MTTensorObject *)cls->tp_alloc(cls, 0);
    if (o == NULL) {
        mt_tensor_decref(t);
        return NULL;
    }
    o->impl = t;
    return (PyObject *)o;
}

PyObject *
mt__values_indices(int rc, mt_tensor *v, mt_tensor *ix)
{
    if (rc < 0) {
        return mt__raise(rc);
    }
    PyObject *pv = mt__tensor_wrap(v);
    PyObject *pi = pv ? mt__tensor_wrap(ix) : (mt_tensor_decref(ix), NULL);
    if (pi == NULL) {
        Py_XDECREF(pv);
        return NULL;
    }
    return Py_BuildValue("(NN)", pv, pi);
}

PyObject *
mt__tensor_wrap_view(PyObject *src, mt_tensor *t)
{
    mt_storage *st = t != NULL ? t->storage : NULL;
    PyObject *r = mt__tensor_wrap(t);
    /* (views of inference tensors are not views: Note [Inference storages]) */
    if (r != NULL && st == ((MTTensorObject *)src)->impl->storage && !st->inference) {
        MTTensorObject *o = (MTTensorObject *)r;
        PyObject *base = ((MTTensorObject *)src)->base;
        o->base = Py_NewRef(base != NULL ? base : src);
        o->view_meta = mt__view_meta_for(src, MT_VIEW_DEFAULT);
        o->view_version = atomic_load_explicit(mt_storage_version(st), memory_order_relaxed);
    }
    return r;
}

void
mt__tensor_set_impl(PyObject *self, mt_tensor *t)
{
    MTTensorObject *o = (MTTensorObject *)self;
    mt_tensor *old = o->impl;
    o->impl = t;
    mt_tensor_decref(old);
}

int
mt__tensor_resize(PyObject *self, int ndim, const int64_t *sizes)
{
    mt_tensor *r = mt_tensor_resized(mt__tensor_impl(self), ndim, sizes);
    if (r == NULL) {
        return mt__raise_int(0);
    }
    mt__tensor_set_impl(self, r);
    return 0;
}

int
mt__resize_output(PyObject *out, int ndim, const int64_t *sizes)
{
    mt_tensor *o = mt__tensor_impl(out);
    if (o->ndim == ndim && memcmp(o->sizes, sizes, sizeof(int64_t) * (size_t)ndim) == 0) {
        return 0;
    }
    if (o->numel != 0) {
        char a[256], b[256];
        mt_format_sizes(a, sizeof(a), o->ndim, o->sizes);
        mt_format_sizes(b, sizeof(b), ndim, sizes);
        if (PyErr_WarnFormat(PyExc_UserWarning, 1,
                             "An output with one or more elements was resized since it had shape "
                             "%s, which does not match the required output shape %s. This "
                             "behavior is deprecated, and in a future release outputs will not "
                             "be resized unless they have zero elements. You can explicitly "
                             "reuse an out tensor t by resizing it, inplace, to zero elements "
                             "with t.resize_(0).", a, b) < 0) {
            return -1;
        }
    }
    return mt__tensor_resize(out, ndim, sizes);
}

int
mt__out_arg(PyObject *o, mt_tensor **impl, const char *fname)
{
    *impl = NULL;
    if (o == NULL || o == Py_None) {
        return 0;
    }
    if (!mt__tensor_check(o)) {
        PyErr_Format(PyExc_TypeError, "%s(): argument 'out' must be Tensor, not %s", fname,
                     Py_TYPE(o)->tp_name);
        return -1;
    }
    *impl = mt__tensor_impl(o);
    return 0;
}

PyObject *
mt__store_out(mt_tensor *r, PyObject *out, const char *fname)
{
    mt_tensor *o;
    if (mt__out_arg(out, &o, fname) < 0) {
        mt_tensor_decref(r);
        return NULL;
    }
    if (!mt_can_cast(r->dtype, mt__tensor_impl(out)->dtype)) {
        PyErr_Format(PyExc_RuntimeError, "%s(): result type %s can't be cast to the desired "
                     "output type %s", fname, mt_dtype_scalar_name(r->dtype),
                     mt_dtype_scalar_name(mt__tensor_impl(out)->dtype));
        mt_tensor_decref(r);
        return NULL;
    }
    if (mt__resize_output(out, r->ndim, r->sizes) < 0) {
        mt_tensor_decref(r);
        return NULL;
    }
    int rc = mt_copy_(mt__tensor_impl(out), r);
    mt_tensor_decref(r);
    return rc < 0 ? mt__raise(rc) : Py_NewRef(out);
}

PyObject *
mt__result_or_out(mt_tensor *r, PyObject *out, const char *fname)
{
    if (r == NULL) {
        return mt__raise(0);
    }
    if (out == NULL || out == Py_None) {
        return mt__tensor_wrap(r);
    }
    return mt__store_out(r, out, fname);
}

static int tensor_clear(MTTensorObject *self);

static void
tensor_dealloc(MTTensorObject *self)
{
    PyTypeObject *tp = Py_TYPE(self);
    if (self->tracked) {
        mt__ag_live--;
        self->tracked = 0;
    }
    mt_tensor_decref(self->impl);
    self->impl = NULL;
    tensor_clear(self);
    tp->tp_free((PyObject *)self);
    Py_DECREF(tp);
}

/* The view base and the autograd state are the object references a tensor holds; Python
 * subclasses (minitorch.Tensor, with a __dict__) are GC-tracked and reach them through
 * these, so `t.attr = t[1:]` or a graph that saved its own output is a collectable cycle. */
static int
tensor_traverse(MTTensorObject *self, visitproc visit, void *arg)
{
    Py_VISIT(self->base);
    Py_VISIT(self->grad);
    Py_VISIT(self->grad_fn);
    Py_VISIT(self->grad_acc);
    Py_VISIT(self->hooks);
    Py_VISIT(self->post_acc_hooks);
    return 0;
}

static int
tensor_clear(MTTensorObject *self)
{
    Py_CLEAR(self->base);
    Py_CLEAR(self->grad);
    Py_CLEAR(self->grad_fn);
    Py_CLEAR(self->grad_acc);
    Py_CLEAR(self->hooks);
    Py_CLEAR(self->post_acc_hooks);
    if (self->tracked) {
        mt__ag_live--;
        self->tracked = 0;
    }
    return 0;
}

#define IMPL(self) (((MTTensorObject *)(self))->impl)

/* ------------------------------------------------------------------ */
/* attributes                                                          */

static PyObject *
tensor_get_shape(PyObject *self, void *closure)
{
    return mt__size_new(IMPL(self)->ndim, IMPL(self)->sizes);
}

static PyObject *
tensor_get_dtype(PyObject *self, void *closure)
{
    return Py_NewRef(mt__dtype_object(IMPL(self)->dtype));
}

static PyObject *
tensor_get_device(PyObject *self, void *closure)
{
    return mt__device_object(mt_tensor_device(IMPL(self)));
}

static PyObject *
tensor_get_ndim(PyObject *self, void *closure)
{
    return PyLong_FromLong(IMPL(self)->ndim);
}

static PyObject *
tensor_get_is_cuda(PyObject *self, void *closure)
{
    return PyBool_FromLong(mt_tensor_device(IMPL(self)).type == MT_CUDA);
}

static PyObject *
tensor_get_is_cpu(PyObject *self, void *closure)
{
    return PyBool_FromLong(mt_tensor_device(IMPL(self)).type == MT_CPU);
}

static PyObject *
tensor_get_false(PyObject *self, void *closure)
{
    Py_RETURN_FALSE;
}


/* ---- autograd state (see Note [Autograd state of a tensor]) ---- */

static PyObject *
tensor_get_requires_grad(PyObject *self, void *closure)
{
    return PyBool_FromLong(mt__tensor_requires_grad(self));
}

/* requires_grad = flag, with torch's checks.  0 or -1. */
int
mt__tensor_set_requires_grad(PyObject *self, int flag)
{
    MTTensorObject *o = (MTTensorObject *)self;
    if (o->grad_fn != NULL) {
        if (!flag) {
            PyErr_SetString(PyExc_RuntimeError,
                            "you can only change requires_grad flags of leaf variables. If you want "
                            "to use a computed variable in a subgraph that doesn't require "
                            "differentiation use var_no_grad = var.detach().");
            return -1;
        }
        return 0;
    }
    if (flag && !mt_dtype_is_floating(o->impl->dtype) && !mt_dtype_is_complex(o->impl->dtype)) {
        PyErr_SetString(PyExc_RuntimeError,
                        "only Tensors of floating point and complex dtype can require gradients");
        return -1;
    }
    if (flag && o->impl->storage->inference && !mt_inference_mode) {
        PyErr_SetString(PyExc_RuntimeError, "Setting requires_grad=True on inference tensor "
                                            "outside InferenceMode is not allowed.");
        return -1;
    }
    o->requires_grad = (char)flag;
    mt__ag_retrack(self);
    return 0;
}

static int
tensor_set_requires_grad(PyObject *self, PyObject *value, void *closure)
{
    if (value == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "can't delete requires_grad");
        return -1;
    }
    if (!PyBool_Check(value)) {
        PyErr_Format(PyExc_TypeError, "requires_grad must be a bool, not %s",
                     Py_TYPE(value)->tp_name);
        return -1;
    }
    return mt__tensor_set_requires_grad(self, value == Py_True);
}

static PyObject *
tensor_get_is_leaf(PyObject *self, void *closure)
{
    if (mt__view_refresh(self) < 0) { /* Note [Lazy view history] */
        return NULL;
    }
    return PyBool_FromLong(((MTTensorObject *)self)->grad_fn == NULL);
}

static PyObject *
tensor_get_grad_fn(PyObject *self, void *closure)
{
    if (closure == NULL && mt__view_refresh(self) < 0) { /* Note [Lazy view history] */
        return NULL;
    }
    PyObject *fn = ((MTTensorObject *)self)->grad_fn;
    return Py_NewRef(fn != NULL ? fn : Py_None);
}

/* del of the autograd attributes torch refuses to delete */
static int
tensor_set_undeletable(PyObject *self, PyObject *value, void *closure)
{
    PyErr_Format(PyExc_RuntimeError, value == NULL ? "can't delete %s" : "attribute '%s' is "
                 "read-only", (const char *)closure);
    return -1;
}

/* _creation_meta: how a view was made (Note [Creation meta of views]) */
static PyObject *
tensor_get_creation_meta(PyObject *self, void *closure)
{
    MTTensorObject *o = (MTTensorObject *)self;
    return PyLong_FromLong(o->base != NULL ? o->view_meta : MT_VIEW_DEFAULT);
}

static PyObject *
tensor_get_grad(PyObject *self, void *closure)
{
    MTTensorObject *o = (MTTensorObject *)self;
    if (o->grad == NULL && o->grad_fn != NULL && !o->retains_grad &&
        PyErr_WarnEx(PyExc_UserWarning,
                     "The .grad attribute of a Tensor that is not a leaf Tensor is being accessed. "
                     "Its .grad attribute won't be populated during autograd.backward(). If you "
                     "indeed want the .grad field to be populated for a non-leaf Tensor, use "
                     ".retain_grad() on the non-leaf Tensor. If you access the non-leaf Tensor by "
                     "mistake, make sure you access the leaf Tensor instead.",
                     1) < 0) {
        return NULL;
    }
    return Py_NewRef(o->grad != NULL ? o->grad : Py_None);
}

static PyObject *
tensor_get_retains_grad(PyObject *self, void *closure)
{
    MTTensorObject *o = (MTTensorObject *)self;
    return PyBool_FromLong(o->retains_grad && o->grad_fn != NULL);
}

static int
tensor_set_retains_grad(PyObject *self, PyObject *value, void *closure)
{
    int truth = value ? PyObject_IsTrue(value) : 0;
    if (truth < 0) {
        return -1;
    }
    ((MTTensorObject *)self)->retains_grad = (char)truth;
    return 0;
}

static int tensor_is_placeholder_layout(PyObject *o);

/* Whether o.shape (a placeholder-layout tensor's, read through Python) equals t's sizes: 1, 0,
 * or -1 with an error set. */
static int
tensor_same_shape(PyObject *o, const mt_tensor *t)
{
    PyObject *shape = PyObject_GetAttrString(o, "shape");
    if (shape == NULL) {
        return -1;
    }
    PyObject *seq = PySequence_Tuple(shape);
    Py_DECREF(shape);
    if (seq == NULL) {
        return -1;
    }
    int same = PyTuple_GET_SIZE(seq) == t->ndim;
    for (Py_ssize_t i = 0; same && i < t->ndim; i++) {
        long long n = PyLong_AsLongLong(PyTuple_GET_ITEM(seq, i));
        if (n == -1 && PyErr_Occurred()) {
            Py_DECREF(seq);
            return -1;
        }
        same = n == t->sizes[i];
    }
    Py_DECREF(seq);
    return same;
}

/* torch's error for a .grad of another size than t's (value: the gradient).  Always -1. */
static int
tensor_grad_size_error(PyObject *value, const mt_tensor *t)
{
    PyObject *shape = PyObject_GetAttrString(value, "shape");
    PyObject *got = shape != NULL ? PySequence_List(shape) : NULL;
    Py_XDECREF(shape);
    PyObject *want = PyList_New(t->ndim);
    for (int i = 0; want != NULL && i < t->ndim; i++) {
        PyObject *n = PyLong_FromLongLong(t->sizes[i]);
        if (n == NULL) {
            Py_CLEAR(want);
            break;
        }
        PyList_SET_ITEM(want, i, n);
    }
    if (got != NULL && want != NULL) {
        PyErr_Format(PyExc_RuntimeError, "attempting to assign a gradient of size '%R' to a "
                                         "tensor of size '%R'. Please ensure that the gradient "
                                         "and the tensor are the same size", got, want);
    }
    Py_XDECREF(got);
    Py_XDECREF(want);
    return -1;
}

static int
tensor_set_grad(PyObject *self, PyObject *value, void *closure)
{
    MTTensorObject *o = (MTTensorObject *)self;
    if (value == NULL || value == Py_None) {
        Py_CLEAR(o->grad);
        return 0;
    }
    if (!mt__tensor_check(value)) {
        PyErr_Format(PyExc_TypeError, "assigned grad expected to be a Tensor or None but got grad "
                                      "of type %s", Py_TYPE(value)->tp_name);
        return -1;
    }
    if (value == self) {
        PyErr_SetString(PyExc_RuntimeError, "can't assign Variable as its own grad");
        return -1;
    }
    mt_tensor *t = o->impl, *g = IMPL(value);
    if (g->dtype != t->dtype) {
        PyErr_SetString(PyExc_RuntimeError, "assigned grad has data of a different type");
        return -1;
    }
    int placeholder = Py_TYPE(value) == Py_TYPE(self) ? 0 : tensor_is_placeholder_layout(value);
    if (placeholder < 0) {
        return -1;
    }
    if (placeholder) {
        /* a sparse gradient of a dense tensor (as torch allows): its size is the subclass's */
        int same = tensor_same_shape(value, t);
        if (same <= 0) {
            return same < 0 ? -1 : tensor_grad_size_error(value, t);
        }
    }
    else if (g->ndim != t->ndim ||
        (t->ndim > 0 && memcmp(g->sizes, t->sizes, (size_t)t->ndim * sizeof(int64_t)) != 0)) {
        return tensor_grad_size_error(value, t);
    }
    if (mt_tensor_device(g).type != mt_tensor_device(t).type ||
        mt_tensor_device(g).index != mt_tensor_device(t).index) {
        PyErr_SetString(PyExc_RuntimeError, "assigned grad has data located on a different device");
        return -1;
    }
    Py_XSETREF(o->grad, Py_NewRef(value));
    return 0;
}

static PyObject *
tensor_get_output_nr(PyObject *self, void *closure)
{
    return PyLong_FromLong(((MTTensorObject *)self)->output_nr);
}

static PyObject *
tensor_get_version(PyObject *self, void *closure)
{
    mt_storage *s = IMPL(self)->storage;
    if (s->inference) {
        PyErr_SetString(PyExc_RuntimeError, "Inference tensors do not track version counter.");
        return NULL;
    }
    return PyLong_FromUnsignedLongLong(atomic_load(mt_storage_version(s)));
}

/* _backward_hooks / _post_accumulate_grad_hooks: the leaf's hook lists, made on first use */
static PyObject *
tensor_get_hook_list(PyObject *self, void *closure)
{
    MTTensorObject *o = (MTTensorObject *)self;
    PyObject **slot = closure ? &o->post_acc_hooks : &o->hooks;
    if (*slot == NULL && (*slot = PyList_New(0)) == NULL) {
        return NULL;
    }
    return Py_NewRef(*slot);
}

static PyObject *
tensor_get_T(PyObject *self, void *closure)
{
    PyObject *res;
    MT__TF_CHECK("o.T", NULL, &self, 1, NULL)
    if (mt__ag_maybe() && mt__ag_intercept("o.T", NULL, &self, 1, NULL, &res)) {
        return res;
    }
    mt_tensor *t = IMPL(self);
    int64_t dims[MT_MAX_DIMS];
    for (int i = 0; i < t->ndim; i++) {
        dims[i] = t->ndim - 1 - i;
    }
    return mt__tensor_wrap_view(self, mt_permute(t, t->ndim, dims));
}

static PyObject *
tensor_get_mT(PyObject *self, void *closure)
{
    PyObject *res;
    MT__TF_CHECK("o.mT", NULL, &self, 1, NULL)
    if (mt__ag_maybe() && mt__ag_intercept("o.mT", NULL, &self, 1, NULL, &res)) {
        return res;
    }
    mt_tensor *t = IMPL(self);
    if (t->ndim == 1) {
        PyErr_Format(PyExc_RuntimeError,
                     "tensor.mT is only supported on matrices or batches of matrices. Got %d-D "
                     "tensor.",
                     t->ndim);
        return NULL;
    }
    /* a 0-d tensor is its own transpose (torch allows it) */
    return mt__tensor_wrap_view(self, t->ndim == 0 ? mt_alias(t) : mt_transpose(t, -2, -1));
}

static PyObject *
tensor_get_data(PyObject *self, void *closure)
{
    return mt__tensor_wrap(mt_alias(IMPL(self)));
}

/* Whether o is a tensor of a layout whose C object is a placeholder (a Python subclass that
 * declares _mt_placeholder_layout, such as sparse COO tensors): 1, 0, or -1 with an error set. */
static int
tensor_is_placeholder_layout(PyObject *o)
{
    PyObject *v = PyObject_GetAttrString((PyObject *)Py_TYPE(o), "_mt_placeholder_layout");
    if (v == NULL) {
        if (!PyErr_ExceptionMatches(PyExc_AttributeError))
            return -1;
        PyErr_Clear();
        return 0;
    }
    int r = PyObject_IsTrue(v);
    Py_DECREF(v);
    return r;
}

static int
tensor_set_data(PyObject *self, PyObject *value, void *closure)
{
    if (value == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "Deleting tensor data is not allowed. Delete tensor "
                                            "instead!");
        return -1;
    }
    if (!mt__tensor_check(value)) {
        PyErr_SetString(PyExc_TypeError, "Tensor.data must be set to a Tensor");
        return -1;
    }
    if (Py_TYPE(value) != Py_TYPE(self)) {
        /* a dense tensor's data cannot become a sparse one's (nor the reverse) */
        int a = tensor_is_placeholder_layout(self), b = tensor_is_placeholder_layout(value);
        if (a < 0 || b < 0)
            return -1;
        if (a != b) {
            PyErr_SetString(PyExc_RuntimeError, "Attempted to call `variable.set_data(tensor)`, "
                                                "but `variable` and `tensor` have incompatible "
                                                "tensor type.");
            return -1;
        }
    }
    mt_dtype dt = IMPL(value)->dtype;
    if (((MTTensorObject *)self)->requires_grad && !mt_dtype_is_floating(dt) &&
        !mt_dtype_is_complex(dt)) {
        PyErr_SetString(PyExc_RuntimeError, "data set to a tensor that requires gradients must be "
                                            "floating point or complex dtype");
        return -1;
    }
    mt_tensor *t = IMPL(value), *old = IMPL(self);
    mt_storage *now = t->storage, *was = old->storage;
    if (now == was || (mt_storage_refcount(was) == 1 && was->shared == NULL &&
                       atomic_load(&was->version) == atomic_load(mt_storage_version(now)))) {
        /* nothing else counts the old storage's writes, and the new one's count agrees */
        mt_tensor_incref(t);
        mt__tensor_set_impl(self, t);
        return 0;
    }
    /* x keeps its version counter, shared with its views (Note [Version counters]) */
    mt_storage *alias = mt_storage_alias(now, was);
    if (alias == NULL) {
        mt__raise(0);
        return -1;
    }
    mt_tensor *r = mt_tensor_new(alias, t->dtype, t->ndim, t->sizes, t->strides, t->offset);
    mt_storage_decref(alias);
    if (r == NULL) {
        mt__raise(0);
        return -1;
    }
    mt__tensor_set_impl(self, r);
    return 0;
}

static PyObject *
tensor_get_itemsize(PyObject *self, void *closure)
{
    return PyLong_FromSize_t(mt_tensor_itemsize(IMPL(self)));
}

static PyObject *
tensor_get_nbytes(PyObject *self, void *closure)
{
    return PyLong_FromSize_t(mt_tensor_itemsize(IMPL(self)) * (size_t)IMPL(self)->numel);
}

static PyObject *
tensor_get_base(PyObject *self, void *closure)
{
    PyObject *base = ((MTTensorObject *)self)->base;
    return Py_NewRef(base != NULL ? base : Py_None);
}

static PyGetSetDef tensor_getset[] = {
    {"shape", tensor_get_shape, NULL, "The size, as a minitorch.Size.", NULL},
    {"dtype", tensor_get_dtype, NULL, NULL, NULL},
    {"device", tensor_get_device, NULL, NULL, NULL},
    {"ndim", tensor_get_ndim, NULL, NULL, NULL},
    {"is_cuda", tensor_get_is_cuda, NULL, NULL, NULL},
    {"is_cpu", tensor_get_is_cpu, NULL, NULL, NULL},
    {"is_sparse", tensor_get_false, NULL, NULL, NULL},
    {"is_quantized", tensor_get_false, NULL, NULL, NULL},
    {"is_leaf", tensor_get_is_leaf, NULL, "Whether no recorded op made this tensor.", NULL},
    {"requires_grad", tensor_get_requires_grad, tensor_set_requires_grad, NULL, NULL},
    {"grad", tensor_get_grad, tensor_set_grad,
     "The gradient accumulated by backward() (a leaf's, or a tensor's that retains it).", NULL},
    {"grad_fn", tensor_get_grad_fn, NULL, "The graph node that made this tensor, or None.", NULL},
    {"_grad_fn", tensor_get_grad_fn, tensor_set_undeletable,
     "grad_fn as it is set (a stale view's is not made again: Note [Lazy view history]).",
     "_grad_fn"},
    {"_creation_meta", tensor_get_creation_meta, NULL, NULL, NULL},
    {"output_nr", tensor_get_output_nr, NULL, NULL, NULL},
    {"_retains_grad", tensor_get_retains_grad, tensor_set_retains_grad, NULL, NULL},
    {"_version", tensor_get_version, NULL, "In-place writes to this tensor's storage.", NULL},
    {"_backward_hooks_list", tensor_get_hook_list, NULL, NULL, NULL},
    {"_post_accumulate_grad_hooks_list", tensor_get_hook_list, NULL, NULL, (void *)1},
    {"T", tensor_get_T, NULL, "All dimensions reversed (a view).", NULL},
    {"mT", tensor_get_mT, NULL, "The last two dimensions swapped (a view).", NULL},
    {"data", tensor_get_data, tensor_set_data, "An alias of this tensor.", NULL},
    {"itemsize", tensor_get_itemsize, NULL, NULL, NULL},
    {"nbytes", tensor_get_nbytes, NULL, NULL, NULL},
    {"_base", tensor_get_base, NULL,
     "The tensor this one is a view of, or None (see Note [View bases]).", NULL},
    {NULL},
};

/* ------------------------------------------------------------------ */
/* simple queries                                                      */

static PyObject *
tensor_size(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    static const char *const names[] = {"dim", NULL};
    PyObject *a[1];
    if (mt__parse_args("size", args, nargs, kwnames, names, 1, 0, a) < 0) {
        return NULL;
    }
    mt_tensor *t = IMPL(self);
    if (a[0] == NULL || a[0] == Py_None) {
        return mt__size_new(t->ndim, t->sizes);
    }
    int64_t dim;
    if (mt__int64_from_py(a[0], &dim, "size", "dim") < 0) {
        return NULL;
    }
    if (t->ndim == 0) {
        PyErr_Format(PyExc_IndexError, "Dimension specified as %lld but tensor has no dimensions",
                     (long long)dim);
        return NULL;
    }
    int d = mt_wrap_dim(dim, t->ndim);
    if (d < 0) {
        return mt__raise(d);
    }
    return PyLong_FromLongLong(t->ndim ? t->sizes[d] : 1);
}

static PyObject *
tensor_stride(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    static const char *const names[] = {"dim", NULL};
    PyObject *a[1];
    if (mt__parse_args("stride", args, nargs, kwnames, names, 1, 0, a) < 0) {
        return NULL;
    }
    mt_tensor *t = IMPL(self);
    if (a[0] == NULL || a[0] == Py_None) {
        PyObject *r = PyTuple_New(t->ndim);
        for (int i = 0; r != NULL && i < t->ndim; i++) {
            PyTuple_SET_ITEM(r, i, PyLong_FromLongLong(t->strides[i]));
        }
        return r;
    }
    int64_t dim;
    if (mt__int64_from_py(a[0], &dim, "stride", "dim") < 0) {
        return NULL;
    }
    if (t->ndim == 0) {
        PyErr_Format(PyExc_IndexError, "Dimension specified as %lld but tensor has no dimensions",
                     (long long)dim);
        return NULL;
    }
    int d = mt_wrap_dim(dim, t->ndim);
    if (d < 0) {
        return mt__raise(d);
    }
    return PyLong_FromLongLong(t->ndim ? t->strides[d] : 1);
}

static PyObject *
tensor_storage_offset(PyObject *self, PyObject *unused)
{
    return PyLong_FromLongLong(IMPL(self)->offset);
}

static PyObject *
tensor_dim(PyObject *self, PyObject *unused)
{
    return PyLong_FromLong(IMPL(self)->ndim);
}

static PyObject *
tensor_numel(PyObject *self, PyObject *unused)
{
    return PyLong_FromLongLong(IMPL(self)->numel);
}

static PyObject *
tensor_element_size(PyObject *self, PyObject *unused)
{
    return PyLong_FromSize_t(mt_tensor_itemsize(IMPL(self)));
}

static PyObject *
tensor_is_contiguous(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    static const char *const names[] = {"memory_format", NULL};
    PyObject *a[1];
    if (mt__parse_args("is_contiguous", args, nargs, kwnames, names, 1, 0, a) < 0) {
        return NULL;
    }
    int cl = mt__channels_last_ndim(a[0], "is_contiguous");
    if (cl <= 0) {
        return cl < 0 ? NULL : PyBool_FromLong(IMPL(self)->contiguous);
    }
    /* channels-last order: C, then the spatial dims from the last, then N;
     * size-1 dims may have any stride (as torch) */
    const mt_tensor *t = IMPL(self);
    if (t->ndim != cl) {
        Py_RETURN_FALSE;
    }
    int order[5] = {1, 3, 2, 0, 0};
    if (cl == 5) {
        order[1] = 4, order[2] = 3, order[3] = 2, order[4] = 0;
    }
    int64_t expect = 1;
    for (int i = 0; i < cl; i++) {
        int d = order[i];
        if (t->sizes[d] != 1) {
            if (t->strides[d] != expect || mt_ckd_mul(&expect, expect, t->sizes[d])) {
                Py_RETURN_FALSE;
            }
        }
    }
    Py_RETURN_TRUE;
}

static PyObject *
tensor_is_floating_point(PyObject *self, PyObject *unused)
{
    return PyBool_FromLong(mt_dtype_is_floating(IMPL(self)->dtype));
}

static PyObject *
tensor_data_ptr(PyObject *self, PyObject *unused)
{
    return PyLong_FromVoidPtr(mt_tensor_data(IMPL(self)));
}

static PyObject *
tensor_storage(PyObject *self, PyObject *unused)
{
    return mt__storage_wrap(IMPL(self)->storage, IMPL(self)->dtype, 1);
}

static PyObject *
tensor_untyped_storage(PyObject *self, PyObject *unused)
{
    return mt__storage_wrap(IMPL(self)->storage, MT_UINT8, 0);
}

/* Note [Host copies of device tensors]
 * Reading elements from Python (item, tolist, bool, int, float: also printing, which goes
 * through tolist) never dereferences device memory: a tensor on another device is first
 * copied to a contiguous cpu tensor through the copy kernels (synchronously), as torch's
 * item() does.  *host = a new reference to t itself (cpu) or to that copy; 0, or -1 with an
 * exception. */
static int
mt__host_tensor(mt_tensor *t, mt_tensor **host)
{
    if (mt_tensor_device(t).type == MT_CPU) {
        mt_tensor_incref(t);
        *host = t;
        return 0;
    }
    mt_tensor *h = mt_tensor_empty(t->dtype, t->ndim, t->sizes, MT_DEVICE_CPU);
    int rc = h == NULL ? mt_error_code() : MT_OK;
    if (rc == MT_OK) {
        Py_BEGIN_ALLOW_THREADS
        rc = mt_copy_(h, t);
        Py_END_ALLOW_THREADS
    }
    if (rc < 0) {
        mt_tensor_decref(h);
        mt__raise(0);
        return -1;
    }
    *host = h;
    return 0;
}

static PyObject *
tensor_item(PyObject *self, PyObject *unused)
{
    mt_tensor *t = IMPL(self);
    if (t->numel != 1) {
        PyErr_Format(PyExc_RuntimeError,
                     "a Tensor with %lld elements cannot be converted to Scalar",
                     (long long)t->numel);
        return NULL;
    }
    mt_tensor *h;
    if (mt__host_tensor(t, &h) < 0) {
        return NULL;
    }
    PyObject *r = mt__element_to_py(mt_tensor_data(h), h->dtype);
    mt_tensor_decref(h);
    return r;
}

static PyObject *
mt__tolist_rec(mt_tensor *t, int dim, const char *p)
{
    if (dim == t->ndim) {
        return mt__element_to_py(p, t->dtype);
    }
    int64_t n = t->sizes[dim];
    int64_t step = t->strides[dim] * (int64_t)mt_tensor_itemsize(t);
    PyObject *list = PyList_New((Py_ssize_t)n);
    for (int64_t i = 0; list != NULL && i < n; i++) {
        PyObject *v = mt__tolist_rec(t, dim + 1, p + i * step);
        if (v == NULL) {
            Py_CLEAR(list);
            break;
        }
        PyList_SET_ITEM(list, (Py_ssize_t)i, v);
    }
    return list;
}

static PyObject *
tensor_tolist(PyObject *self, PyObject *unused)
{
    mt_tensor *h;
    if (mt__host_tensor(IMPL(self), &h) < 0) {
        return NULL;
    }
    PyObject *r = mt__tolist_rec(h, 0, mt_tensor_data(h));
    mt_tensor_decref(h);
    return r;
}

/* get_device(): the CUDA device index, -1 for a cpu tensor (as torch). */
static PyObject *
tensor_get_device_index(PyObject *self, PyObject *unused)
{
    mt_device d = mt_tensor_device(IMPL(self));
    return PyLong_FromLong(d.type == MT_CPU ? -1 : (long)d.index);
}

/* ------------------------------------------------------------------ */
/* number protocol conversions                                         */

static int
tensor_bool(PyObject *self)
{
    mt_tensor *t = IMPL(self);
    if (t->numel != 1) {
        PyErr_Format(PyExc_RuntimeError, "Boolean value of Tensor with %s is ambiguous",
                     t->numel == 0 ? "no values" : "more than one value");
        return -1;
    }
    mt_tensor *h;
    if (mt__host_tensor(t, &h) < 0) {
        return -1;
    }
    mt_scalar s = mt_scalar_load(mt_tensor_data(h), h->dtype);
    mt_tensor_decref(h);
    if (s.kind == MT_SCALAR_COMPLEX) {
        return s.v.z != 0;
    }
    return s.kind == MT_SCALAR_FLOAT ? s.v.f != 0.0 : mt_scalar_to_int64(s) != 0;
}

static int
mt__one_element(mt_tensor *t, mt_scalar *s)
{
    if (t->numel != 1) {
        PyErr_SetString(PyExc_ValueError, "only one element tensors can be converted to Python scalars");
        return -1;
    }
    mt_tensor *h;
    if (mt__host_tensor(t, &h) < 0) {
        return -1;
    }
    *s = mt_scalar_load(mt_tensor_data(h), h->dtype);
    mt_tensor_decref(h);
    return 0;
}

/* int() and float() of a complex tensor fail as they do on a Python complex. */
static int
mt__not_complex(mt_scalar s, const char *to)
{
    if (s.kind == MT_SCALAR_COMPLEX) {
        PyErr_Format(PyExc_TypeError, "can't convert complex to %s", to);
        return -1;
    }
    return 0;
}

static PyObject *
tensor_int(PyObject *self)
{
    mt_scalar s;
    if (mt__one_element(IMPL(self), &s) < 0 || mt__not_complex(s, "int") < 0) {
        return NULL;
    }
    if (s.kind == MT_SCALAR_FLOAT) {
        return PyLong_FromDouble(s.v.f);
    }
    return PyLong_FromLongLong(mt_scalar_to_int64(s));
}

static PyObject *
tensor_float(PyObject *self)
{
    mt_scalar s;
    if (mt__one_element(IMPL(self), &s) < 0 || mt__not_complex(s, "float") < 0) {
        return NULL;
    }
    return PyFloat_FromDouble(mt_scalar_to_double(s));
}

static PyObject *
tensor_index(PyObject *self)
{
    mt_tensor *t = IMPL(self);
    if (t->numel != 1 || !mt_dtype_is_integral(t->dtype, true)) {
        PyErr_SetString(PyExc_TypeError,
                        "only integer tensors of a single element can be converted to an index");
        return NULL;
    }
    return tensor_int(self);
}

static Py_ssize_t
tensor_len(PyObject *self)
{
    mt_tensor *t = IMPL(self);
    if (t->ndim == 0) {
        PyErr_SetString(PyExc_TypeError, "len() of a 0-d tensor");
        return -1;
    }
    return (Py_ssize_t)t->sizes[0];
}

/* ------------------------------------------------------------------ */
/* buffer protocol                                                     */

typedef struct {
    mt_storage *storage; /* keeps the bytes alive while exported */
    Py_ssize_t dims[2 * MT_MAX_DIMS];
} mt__buffer_info;

static const char *
mt__buffer_format(mt_dtype dt)
{
    switch (dt) {
    case MT_BOOL:
        return "?";
    case MT_UINT8:
        return "B";
    case MT_INT8:
        return "b";
    case MT_INT16:
        return "h";
    case MT_INT32:
        return "i";
    case MT_INT64:
        return "q";
    case MT_FLOAT16:
        return "e";
    case MT_FLOAT32:
        return "f";
    case MT_FLOAT64:
        return "d";
    case MT_COMPLEX64:
        return "Zf";
    case MT_COMPLEX128:
        return "Zd";
    case MT_UINT16:
        return "H";
    case MT_UINT32:
        return "I";
    case MT_UINT64:
        return "Q";
    default:
        return NULL;
    }
}

static int
tensor_getbuffer(PyObject *self, Py_buffer *view, int flags)
{
    mt_tensor *t = IMPL(self);
    const char *fmt = mt__buffer_format(t->dtype);
    if (fmt == NULL) {
        PyErr_Format(PyExc_BufferError, "tensors of %s cannot be exported as a buffer",
                     mt_dtype_name(t->dtype));
        return -1;
    }
    if (mt_tensor_device(t).type != MT_CPU) {
        PyErr_SetString(PyExc_BufferError, "only cpu tensors can be exported as a buffer");
        return -1;
    }
    if (!t->contiguous && (flags & PyBUF_STRIDES) != PyBUF_STRIDES) {
        PyErr_SetString(PyExc_BufferError, "tensor is not contiguous; ask for a strided buffer");
        return -1;
    }
    Py_ssize_t isz = (Py_ssize_t)mt_tensor_itemsize(t);
    int64_t len;
    if (mt_ckd_mul(&len, t->numel, isz) || len > PY_SSIZE_T_MAX) {
        PyErr_Format(PyExc_BufferError,
                     "a tensor of %lld elements is too large to be exported as a buffer",
                     (long long)t->numel);
        return -1;
    }
    mt__buffer_info *info = PyMem_Malloc(sizeof(*info));
    if (info == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    mt_storage_incref(t->storage);
    info->storage = t->storage;
    for (int i = 0; i < t->ndim; i++) {
        info->dims[i] = (Py_ssize_t)t->sizes[i];
        info->dims[MT_MAX_DIMS + i] = (Py_ssize_t)t->strides[i] * isz;
    }
    view->buf = mt_tensor_data(t);
    view->obj = Py_NewRef(self);
    view->len = (Py_ssize_t)len;
    view->readonly = 0;
    view->itemsize = isz;
    view->format = (flags & PyBUF_FORMAT) ? (char *)fmt : NULL;
    view->ndim = t->ndim;
    view->shape = (flags & PyBUF_ND) ? info->dims : NULL;
    view->strides = (flags & PyBUF_STRIDES) == PyBUF_STRIDES ? info->dims + MT_MAX_DIMS : NULL;
    view->suboffsets = NULL;
    view->internal = info;
    return 0;
}

static void
tensor_releasebuffer(PyObject *self, Py_buffer *view)
{
    mt__buffer_info *info = view->internal;
    mt_storage_decref(info->storage);
    PyMem_Free(info);
}

/* Tensors hash by identity (as torch), although == is elementwise. */
static Py_hash_t
tensor_hash(PyObject *self)
{
    return _Py_HashPointer(self);
}

/* ------------------------------------------------------------------ */

static PyObject *
tensor_set_tensor_class(PyObject *unused, PyObject *cls)
{
    if (!PyType_Check(cls) || !PyType_IsSubtype((PyTypeObject *)cls, mt__TensorBase_Type)) {
        PyErr_SetString(PyExc_TypeError, "_set_tensor_class expects a subclass of TensorBase");
        return NULL;
    }
    Py_XSETREF(mt__tensor_class, (PyTypeObject *)Py_NewRef(cls));
    Py_RETURN_NONE;
}

static PyObject *
tensor_set_size_class(PyObject *unused, PyObject *cls)
{
    if (!PyType_Check(cls) || !PyType_IsSubtype((PyTypeObject *)cls, &PyTuple_Type)) {
        PyErr_SetString(PyExc_TypeError, "_set_size_class expects a subclass of tuple");
        return NULL;
    }
    Py_XSETREF(mt__size_class, (PyTypeObject *)Py_NewRef(cls));
    Py_RETURN_NONE;
}

/* _resize_output(out, shape): resizes an out= tensor that Python code fills
 * in place to the result's shape, as the C ops do (mt__resize_output). */
static PyObject *
tensor_resize_output(PyObject *unused, PyObject *args)
{
    PyObject *out, *shape;
    if (!PyArg_ParseTuple(args, "O!O:_resize_output", mt__TensorBase_Type, &out, &shape)) {
        return NULL;
    }
    int64_t sizes[MT_MAX_DIMS];
    int n = mt__sizes_from_seq(shape, sizes, "_resize_output", "shape");
    if (n < 0) {
        return NULL;
    }
    if (mt__resize_output(out, n, sizes) < 0) {
        return NULL;
    }
    Py_RETURN_NONE;
}

/* _store_out(out, result, fname) -> out: result written into an out= tensor
 * by Python-level ops, as the C ops do (mt__store_out). */
static PyObject *
tensor_store_out(PyObject *unused, PyObject *args)
{
    PyObject *out, *r;
    const char *fname;
    if (!PyArg_ParseTuple(args, "OO!s:_store_out", &out, mt__TensorBase_Type, &r, &fname)) {
        return NULL;
    }
    mt_tensor *t = IMPL(r);
    mt_tensor_incref(t);
    return mt__store_out(t, out, fname);
}

static PyMethodDef tensor_module_methods[] = {
    {"_store_out", tensor_store_out, METH_VARARGS, NULL},
    {"_resize_output", tensor_resize_output, METH_VARARGS, NULL},
    {"_set_tensor_class", tensor_set_tensor_class, METH_O, NULL},
    {"_set_size_class", tensor_set_size_class, METH_O, NULL},
    {NULL},
};

static PyObject *
tensor_is_view(PyObject *self, PyObject *unused)
{
    return PyBool_FromLong(((MTTensorObject *)self)->base != NULL);
}

/* as_subclass(cls): the same tensor (same impl, same view base) as an object
 * of the Tensor subclass cls, as torch's Tensor.as_subclass. */
static PyObject *
tensor_as_subclass(PyObject *self, PyObject *cls)
{
    if (!PyType_Check(cls) || !PyType_IsSubtype((PyTypeObject *)cls, mt__TensorBase_Type)) {
        PyErr_Format(PyExc_TypeError,
                     "as_subclass(): argument 'cls' must be a subclass of Tensor, not %s",
                     PyType_Check(cls) ? ((PyTypeObject *)cls)->tp_name : Py_TYPE(cls)->tp_name);
        return NULL;
    }
    PyTypeObject *tp = (PyTypeObject *)cls;
    mt__tf_instance(tp);
    MTTensorObject *o = (MTTensorObject *)tp->tp_alloc(tp, 0);
    if (o == NULL) {
        return NULL;
    }
    o->impl = IMPL(self);
    mt_tensor_incref(o->impl);
    o->base = Py_XNewRef(((MTTensorObject *)self)->base);
    o->view_meta = ((MTTensorObject *)self)->view_meta;
    o->view_version = ((MTTensorObject *)self)->view_version;
    return (PyObject *)o;
}

#define FASTKW(name) (PyCFunction)(void (*)(void))name, METH_FASTCALL | METH_KEYWORDS

static PyMethodDef tensor_base_methods[] = {
    {"as_subclass", tensor_as_subclass, METH_O,
     "as_subclass(cls) -> the same tensor as an instance of the Tensor subclass cls"},
    {"size", FASTKW(tensor_size), "size(dim=None) -> Size or int"},
    {"stride", FASTKW(tensor_stride), "stride(dim=None) -> tuple or int (in elements)"},
    {"storage_offset", tensor_storage_offset, METH_NOARGS, "Offset into the storage, in elements."},
    {"dim", tensor_dim, METH_NOARGS, NULL},
    {"ndimension", tensor_dim, METH_NOARGS, NULL},
    {"numel", tensor_numel, METH_NOARGS, NULL},
    {"nelement", tensor_numel, METH_NOARGS, NULL},
    {"element_size", tensor_element_size, METH_NOARGS, NULL},
    {"is_contiguous", FASTKW(tensor_is_contiguous), NULL},
    {"is_floating_point", tensor_is_floating_point, METH_NOARGS, NULL},
    {"data_ptr", tensor_data_ptr, METH_NOARGS, "Address of the first element."},
    {"storage", tensor_storage, METH_NOARGS, "The storage as a TypedStorage of this dtype."},
    {"untyped_storage", tensor_untyped_storage, METH_NOARGS, "The storage as bytes."},
    {"item", tensor_item, METH_NOARGS, "The value of a one-element tensor as a Python number."},
    {"tolist", tensor_tolist, METH_NOARGS, "Nested lists of Python numbers."},
    {"get_device", tensor_get_device_index, METH_NOARGS,
     "The CUDA device index of the tensor, -1 on the cpu."},
    {"_is_view", tensor_is_view, METH_NOARGS, "Whether this tensor is a view (has a _base)."},
    {NULL},
};

static PyType_Slot tensor_slots[] = {
    {Py_tp_new, mt__tensor_legacy_new},
    {Py_tp_dealloc, tensor_dealloc},
    {Py_tp_traverse, tensor_traverse},
    {Py_tp_clear, tensor_clear},
    {Py_tp_getset, tensor_getset},
    {Py_tp_methods, tensor_base_methods},
    {Py_nb_bool, tensor_bool},
    {Py_nb_add, mt__nb_add},
    {Py_nb_inplace_add, mt__nb_inplace_add},
    {Py_nb_subtract, mt__nb_subtract},
    {Py_nb_inplace_subtract, mt__nb_inplace_subtract},
    {Py_nb_multiply, mt__nb_multiply},
    {Py_nb_inplace_multiply, mt__nb_inplace_multiply},
    {Py_nb_true_divide, mt__nb_true_divide},
    {Py_nb_inplace_true_divide, mt__nb_inplace_true_divide},
    {Py_nb_floor_divide, mt__nb_floor_divide},
    {Py_nb_inplace_floor_divide, mt__nb_inplace_floor_divide},
    {Py_nb_remainder, mt__nb_remainder},
    {Py_nb_inplace_remainder, mt__nb_inplace_remainder},
    {Py_nb_and, mt__nb_and},
    {Py_nb_inplace_and, mt__nb_inplace_and},
    {Py_nb_or, mt__nb_or},
    {Py_nb_inplace_or, mt__nb_inplace_or},
    {Py_nb_xor, mt__nb_xor},
    {Py_nb_inplace_xor, mt__nb_inplace_xor},
    {Py_nb_lshift, mt__nb_lshift},
    {Py_nb_inplace_lshift, mt__nb_inplace_lshift},
    {Py_nb_rshift, mt__nb_rshift},
    {Py_nb_inplace_rshift, mt__nb_inplace_rshift},
    {Py_nb_power, mt__nb_power},
    {Py_nb_inplace_power, mt__nb_inplace_power},
    {Py_nb_negative, mt__nb_negative},
    {Py_nb_positive, mt__nb_positive},
    {Py_nb_absolute, mt__nb_absolute},
    {Py_nb_invert, mt__nb_invert},
    {Py_tp_richcompare, mt__tensor_richcompare},
    {Py_tp_hash, tensor_hash},
    {Py_nb_int, tensor_int},
    {Py_nb_float, tensor_float},
    {Py_nb_index, tensor_index},
    {Py_sq_length, tensor_len},
    {Py_mp_length, tensor_len},
    {Py_mp_subscript, mt__tensor_getitem},
    {Py_mp_ass_subscript, mt__tensor_setitem},
    {Py_bf_getbuffer, tensor_getbuffer},
    {Py_bf_releasebuffer, tensor_releasebuffer},
    {Py_tp_doc, "The C base of minitorch.Tensor."},
    {0, NULL},
};

static PyType_Spec tensor_spec = {
    .name = "minitorch._C.TensorBase",
    .basicsize = sizeof(MTTensorObject),
    .flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
    .slots = tensor_slots,
};

int
mt__tensor_types_init(PyObject *module)
{
    mt__TensorBase_Type = (PyTypeObject *)PyType_FromModuleAndSpec(module, &tensor_spec, NULL);
    if (mt__TensorBase_Type == NULL ||
        PyModule_AddObjectRef(module, "TensorBase", (PyObject *)mt__TensorBase_Type) < 0 ||
        PyModule_AddFunctions(module, tensor_module_methods) < 0) {
        return -1;
    }
    if (mt__tensor_methods_init(module) < 0) {
        return -1;
    }
    if (mt__ops_binding_init(module) < 0) {
        return -1;
    }
    return mt__reduce_binding_init(module);
}
