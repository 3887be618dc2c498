/* csrc/autograd/state.c - grad mode, the count of tensors that require grad, and the hand-off
 * of recorded calls to minitorch.autograd._record (see Note [Recording an op]). */
#include "csrc/autograd/autograd.h"

#include <limits.h>
#include <stddef.h>
#include <string.h>

#include <structmember.h>

Py_ssize_t mt__ag_live;
_Thread_local int mt__grad_off;

/* Note [Anomaly mode and node hooks] (autograd.h) */
int mt__anomaly_enabled;
int mt__anomaly_check_nan = 1;
PyObject *mt__node_hook;
PyObject *mt__anomaly_report;
PyObject *mt__anomaly_check;
_Thread_local int mt__ag_python_only;
int mt__ag_watchers;
_Thread_local int mt__ag_unwatched;

int
mt__node_created(PyObject *node)
{
    if (mt__node_hook == NULL) {
        return 0;
    }
    PyObject *r = PyObject_CallOneArg(mt__node_hook, node);
    if (r == NULL) {
        return -1;
    }
    Py_DECREF(r);
    return 0;
}

/* minitorch.autograd._record(key, self, args, kwargs), set at import; owned */
static PyObject *mt__recorder;
/* autograd._record.regenerate_view(view): Note [Lazy view history]; set at import; owned */
static PyObject *mt__view_regenerator;

int
mt__inference_inplace_error(void)
{
    PyErr_SetString(PyExc_RuntimeError,
                    "Inplace update to inference tensor outside InferenceMode is not allowed.You "
                    "can make a clone to get a normal tensor before doing inplace update.See "
                    "https://github.com/pytorch/rfcs/pull/17 for more details.");
    return -1;
}

/* The name torch's view errors give a node: its class name without "Backward<n>"
 * (MulBackward0: Mul).  New reference or NULL. */
static PyObject *
mt__node_short_name(PyObject *node)
{
    PyObject *name = PyType_GetName(Py_TYPE(node));
    if (name == NULL) {
        return NULL;
    }
    Py_ssize_t n = PyUnicode_GET_LENGTH(name);
    while (n > 0 && Py_UNICODE_ISDIGIT(PyUnicode_READ_CHAR(name, n - 1))) {
        n--;
    }
    if (n >= 8) {
        PyObject *tail = PyUnicode_Substring(name, n - 8, n);
        if (tail == NULL) {
            Py_DECREF(name);
            return NULL;
        }
        if (PyUnicode_CompareWithASCIIString(tail, "Backward") == 0) {
            n -= 8;
        }
        else {
            n = PyUnicode_GET_LENGTH(name);
        }
        Py_DECREF(tail);
    }
    else {
        n = PyUnicode_GET_LENGTH(name);
    }
    Py_SETREF(name, PyUnicode_Substring(name, 0, n));
    return name;
}

int
mt__view_rebase_error(PyObject *t, int indirect)
{
    MTTensorObject *o = (MTTensorObject *)t;
    int meta = o->view_meta;
    PyObject *fn = o->grad_fn, *name = NULL;
    const char *modified = indirect ? "its base or another view of its base has been" : "is being";
    const char *tail = "";
    switch (meta) {
    case MT_VIEW_MULTI_OUTPUT:
        tail = " This view is the output of a function that returns multiple views. Such "
               "functions do not allow the output views to be modified inplace. You should "
               "replace the inplace operation by an out-of-place one.";
        break;
    case MT_VIEW_NO_GRAD:
        tail = " Given that this use case is ambiguous and error-prone, it is forbidden. You can "
               "clarify your code by moving both the view and the inplace either both inside the "
               "no_grad block (if you don't want the inplace to be tracked) or both outside (if "
               "you want the inplace to be tracked).";
        break;
    case MT_VIEW_INFERENCE:
        tail = " Given that this use case is ambiguous and error-prone, it is forbidden. You can "
               "clarify your code by moving both the view and the inplace either both inside the "
               "inference_mode block (if you don't want the inplace to be tracked) or both "
               "outside (if you want the inplace to be tracked).";
        break;
    case MT_VIEW_IN_CUSTOM_FUNCTION:
        tail = " This view was created inside a custom Function (or because an input was "
               "returned as-is) and the autograd logic to handle view+inplace would override the "
               "custom backward associated with the custom Function, leading to incorrect "
               "gradients. This behavior is forbidden. You can fix this by cloning the output of "
               "the custom Function.";
        break;
    default:
        break;
    }
    if (fn != NULL && (name = mt__node_short_name(fn)) == NULL) {
        return -1;
    }
    if (meta == MT_VIEW_INFERENCE || meta == MT_VIEW_NO_GRAD || fn == NULL) {
        const char *mode = meta == MT_VIEW_INFERENCE ? "inference mode" : "no_grad mode";
        const char *how = meta == MT_VIEW_INFERENCE ? "in normal mode." : "with grad mode enabled.";
        if (fn != NULL) {
            PyErr_Format(PyExc_RuntimeError,
                         "Output %d of %U is a view of a view which was created in %s and %s "
                         "modified inplace %s%s",
                         o->output_nr, name, mode, modified, how, tail);
        }
        else {
            PyErr_Format(PyExc_RuntimeError, "A view was created in %s and %s modified inplace %s%s",
                         mode, modified, how, tail);
        }
    }
    else {
        PyErr_Format(PyExc_RuntimeError, "Output %d of %U is a view and %s modified inplace.%s",
                     o->output_nr, name, modified, tail);
    }
    Py_XDECREF(name);
    return -1;
}

int
mt__view_refresh(PyObject *t)
{
    MTTensorObject *o = (MTTensorObject *)t;
    if (o->base == NULL ||
        atomic_load_explicit(mt_storage_version(o->impl->storage), memory_order_relaxed) ==
            o->view_version ||
        !mt__view_requires_grad(o)) {
        return 0;
    }
    if (o->view_meta != MT_VIEW_DEFAULT) {
        return mt__view_rebase_error(t, 1);
    }
    if (mt__view_regenerator == NULL) {
        return 0;
    }
    PyObject *r = PyObject_CallOneArg(mt__view_regenerator, t);
    if (r == NULL) {
        return -1;
    }
    Py_DECREF(r);
    return 0;
}

void
mt__ag_retrack(PyObject *tensor)
{
    MTTensorObject *o = (MTTensorObject *)tensor;
    char now = (char)(o->requires_grad || o->grad_fn != NULL);
    if (now != o->tracked) {
        mt__ag_live += now ? 1 : -1;
        o->tracked = now;
    }
}

static int
mt__arg_requires_grad(PyObject *o)
{
    if (mt__tensor_check(o)) {
        return mt__tensor_requires_grad(o);
    }
    if (PyList_CheckExact(o) || PyTuple_CheckExact(o)) {
        Py_ssize_t n = PySequence_Fast_GET_SIZE(o);
        PyObject **items = PySequence_Fast_ITEMS(o);
        for (Py_ssize_t i = 0; i < n; i++) {
            if (mt__tensor_check(items[i]) && mt__tensor_requires_grad(items[i])) {
                return 1;
            }
        }
    }
    return 0;
}

static PyObject *
mt__record(const char *key, PyObject *self, PyObject *args, PyObject *kwargs)
{
    if (mt__recorder == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "minitorch.autograd is not initialised");
        return NULL;
    }
    PyObject *k = PyUnicode_FromString(key);
    if (k == NULL) {
        return NULL;
    }
    PyObject *r = PyObject_CallFunctionObjArgs(mt__recorder, k, self ? self : Py_None, args,
                                               kwargs ? kwargs : Py_None, NULL);
    Py_DECREF(k);
    return r;
}

int
mt__ag_intercept(const char *key, PyObject *self, PyObject *const *args, Py_ssize_t nargs,
                 PyObject *kwnames, PyObject **result)
{
    Py_ssize_t nkw = kwnames ? PyTuple_GET_SIZE(kwnames) : 0;
    int found = mt__ag_watching() ||
                (self != NULL && mt__tensor_check(self) && mt__tensor_requires_grad(self));
    for (Py_ssize_t i = 0; !found && i < nargs + nkw; i++) {
        found = mt__arg_requires_grad(args[i]);
    }
    if (!found) {
        return 0;
    }
    *result = NULL;
    PyObject *tuple, *kw;
    if (mt__fastcall_pack(args, nargs, kwnames, &tuple, &kw) < 0) {
        return 1;
    }
    *result = mt__record(key, self, tuple, kw);
    Py_DECREF(tuple);
    Py_XDECREF(kw);
    return 1;
}

int
mt__ag_intercept_tuple(const char *key, PyObject *self, PyObject *args, PyObject *kwargs,
                       PyObject **result)
{
    int found = mt__ag_watching() ||
                (self != NULL && mt__tensor_check(self) && mt__tensor_requires_grad(self));
    Py_ssize_t n = args ? PyTuple_GET_SIZE(args) : 0;
    for (Py_ssize_t i = 0; !found && i < n; i++) {
        found = mt__arg_requires_grad(PyTuple_GET_ITEM(args, i));
    }
    if (!found && kwargs != NULL) {
        PyObject *k, *v;
        Py_ssize_t pos = 0;
        while (!found && PyDict_Next(kwargs, &pos, &k, &v)) {
            found = mt__arg_requires_grad(v);
        }
    }
    if (!found) {
        return 0;
    }
    if (args != NULL) {
        *result = mt__record(key, self, args, kwargs);
    }
    else {
        PyObject *empty = PyTuple_New(0);
        *result = empty ? mt__record(key, self, empty, kwargs) : NULL;
        Py_XDECREF(empty);
    }
    return 1;
}

int
mt__ag_after_call(const char *key, PyObject *self, PyObject *const *args, Py_ssize_t nargs,
                  PyObject *kwnames, PyObject *result)
{
    size_t n = strlen(key);
    /* requires_grad_ and detach_ change autograd state, not values: no new version (as torch);
     * resize_ and resize_as_ bump it themselves, when the shape changes; set_ writes nothing
     * (the counter it would bump is now the source storage's, which torch leaves alone) */
    if (key[0] == 'm' && key[n - 1] == '_' && strcmp(key, "m.requires_grad_") != 0 &&
        strcmp(key, "m.detach_") != 0 && strncmp(key, "m.resize_", 9) != 0 &&
        strcmp(key, "m.set_") != 0 && mt__bump_version(self) < 0) {
        return -1;
    }
    if (kwnames != NULL) {
        Py_ssize_t nkw = PyTuple_GET_SIZE(kwnames);
        for (Py_ssize_t i = 0; i < nkw; i++) {
            PyObject *name = PyTuple_GET_ITEM(kwnames, i);
            if (PyUnicode_CompareWithASCIIString(name, "requires_grad") == 0 &&
                mt__tensor_check(result)) {
                int truth = PyObject_IsTrue(args[nargs + i]);
                if (truth < 0 || (truth && mt__tensor_set_requires_grad(result, 1) < 0)) {
                    return -1;
                }
            }
            if (PyUnicode_CompareWithASCIIString(name, "out") == 0) {
                PyObject *out = args[nargs + i];
                if (PyTuple_Check(out)) {
                    for (Py_ssize_t j = 0; j < PyTuple_GET_SIZE(out); j++) {
                        if (mt__bump_version(PyTuple_GET_ITEM(out, j)) < 0) {
                            return -1;
                        }
                    }
                }
                else if (mt__bump_version(out) < 0) {
                    return -1;
                }
            }
        }
    }
    return 0;
}

/* ---- Python forms of the op table (Note [Recording Python ops] in minitorch/_op_forms.py) ----
 * _C._PyOp(fn, key, mode) is fn, called through vectorcall with one compare while no
 * tensor requires grad (mt__ag_maybe()).  Otherwise a recorded op (mode MT__PYOP_RECORDED)
 * hands a call whose arguments require grad to the recorder under `key` ("p.<name>"); a
 * nondiff op runs fn with grad mode off; a composite (a row without a derivative, whose
 * recorded calls make its graph) is fn itself, except that while op watchers are active its
 * calls go to them too, under "c.<name>" (Note [Op watchers]).  It binds as a method (a method
 * descriptor: Tensor.clamp is one), and has a __dict__ for the attributes
 * functools.update_wrapper copies from fn. */
enum { MT__PYOP_RECORDED = 0, MT__PYOP_NONDIFF = 1, MT__PYOP_COMPOSITE = 2 };
typedef struct {
    PyObject_HEAD
    PyObject *fn;
    PyObject *key;              /* str; ckey is its UTF-8 */
    const char *ckey;
    int mode;                   /* MT__PYOP_* */
    PyObject *dict;
    vectorcallfunc vectorcall;
    const struct mt_derivative *decl; /* its declaration (Note [Declared nodes]) */
} MTPyOpObject;

static PyObject *
pyop_vectorcall(PyObject *self, PyObject *const *args, size_t nargsf, PyObject *kwnames)
{
    MTPyOpObject *op = (MTPyOpObject *)self;
    MT__TF_CHECK(op->ckey, NULL, args, PyVectorcall_NARGS(nargsf), kwnames)
    if (mt__ag_maybe()) {
        if (op->mode == MT__PYOP_COMPOSITE) {
            PyObject *r;
            if (mt__ag_watching() &&
                mt__ag_intercept(op->ckey, NULL, args, PyVectorcall_NARGS(nargsf), kwnames, &r)) {
                return r;
            }
            return PyObject_Vectorcall(op->fn, args, nargsf, kwnames);
        }
        if (op->mode == MT__PYOP_NONDIFF && !mt__ag_watching()) {
            int prev = mt__grad_off;
            mt__grad_off = MT__GRAD_OFF_RECORDING;
            PyObject *r = PyObject_Vectorcall(op->fn, args, nargsf, kwnames);
            mt__grad_off = prev;
            return r;
        }
        PyObject *r;
        mt_drecord rec;
        Py_ssize_t nargs = PyVectorcall_NARGS(nargsf);
        int h = mt__ag_begin(op->ckey, &op->decl, NULL, args, nargs, kwnames, &rec);
        if (h == 1) {
            return mt__drecord_end(&rec, PyObject_Vectorcall(op->fn, args, nargsf, kwnames));
        }
        if (h < 0 && mt__ag_intercept(op->ckey, NULL, args, nargs, kwnames, &r)) {
            return r;
        }
    }
    PyObject *r = PyObject_Vectorcall(op->fn, args, nargsf, kwnames);
    MT__TF_RETRY(op->ckey, NULL, args, PyVectorcall_NARGS(nargsf), kwnames, NULL, NULL, r)
    return r;
}

static PyObject *
pyop_new(PyTypeObject *type, PyObject *args, PyObject *kwargs)
{
    PyObject *fn, *key;
    int mode = MT__PYOP_RECORDED;
    if (!PyArg_ParseTuple(args, "OU|i:_PyOp", &fn, &key, &mode)) {
        return NULL;
    }
    if (mode < MT__PYOP_RECORDED || mode > MT__PYOP_COMPOSITE) {
        PyErr_SetString(PyExc_ValueError, "_PyOp(): mode is 0 (recorded), 1 (nondiff) or 2 "
                        "(composite)");
        return NULL;
    }
    const char *ckey = PyUnicode_AsUTF8(key);
    if (ckey == NULL) {
        return NULL;
    }
    MTPyOpObject *op = (MTPyOpObject *)type->tp_alloc(type, 0);
    if (op == NULL) {
        return NULL;
    }
    op->fn = Py_NewRef(fn);
    op->key = Py_NewRef(key);
    op->ckey = ckey;
    op->mode = mode;
    op->vectorcall = pyop_vectorcall;
    op->decl = MT__DUNSET;
    return (PyObject *)op;
}

static PyObject *
pyop_descr_get(PyObject *self, PyObject *obj, PyObject *type)
{
    if (obj == NULL || obj == Py_None) {
        return Py_NewRef(self);
    }
    return PyMethod_New(self, obj);
}

static int
pyop_traverse(PyObject *self, visitproc visit, void *arg)
{
    MTPyOpObject *op = (MTPyOpObject *)self;
    Py_VISIT(Py_TYPE(self));
    Py_VISIT(op->fn);
    Py_VISIT(op->dict);
    return 0;
}

static int
pyop_clear(PyObject *self)
{
    MTPyOpObject *op = (MTPyOpObject *)self;
    Py_CLEAR(op->fn);
    Py_CLEAR(op->dict);
    return 0;
}

static void
pyop_dealloc(PyObject *self)
{
    PyTypeObject *type = Py_TYPE(self);
    PyObject_GC_UnTrack(self);
    pyop_clear(self);
    Py_CLEAR(((MTPyOpObject *)self)->key);
    type->tp_free(self);
    Py_DECREF(type);
}

static PyObject *
pyop_repr(PyObject *self)
{
    return PyUnicode_FromFormat("<minitorch op %U>", ((MTPyOpObject *)self)->key);
}

static PyMemberDef pyop_members[] = {
    {"__vectorcalloffset__", T_PYSSIZET, offsetof(MTPyOpObject, vectorcall), READONLY, NULL},
    {"__dictoffset__", T_PYSSIZET, offsetof(MTPyOpObject, dict), READONLY, NULL},
    {"_fn", T_OBJECT, offsetof(MTPyOpObject, fn), READONLY, "The Python implementation."},
    {"_key", T_OBJECT, offsetof(MTPyOpObject, key), READONLY, NULL},
    {NULL, 0, 0, 0, NULL},
};

static PyGetSetDef pyop_getset[] = {
    {"__dict__", PyObject_GenericGetDict, PyObject_GenericSetDict, NULL, NULL},
    {NULL},
};

static PyType_Slot pyop_slots[] = {
    {Py_tp_getset, pyop_getset},
    {Py_tp_new, pyop_new},
    {Py_tp_dealloc, pyop_dealloc},
    {Py_tp_traverse, pyop_traverse},
    {Py_tp_clear, pyop_clear},
    {Py_tp_call, PyVectorcall_Call},
    {Py_tp_descr_get, pyop_descr_get},
    {Py_tp_members, pyop_members},
    {Py_tp_repr, pyop_repr},
    {Py_tp_doc, "_PyOp(fn, key, mode=0): the Python form of an op-table row, recorded for "
                "autograd (0), run without grad (1: nondiff) or a composite seen by op watchers "
                "(2) (see minitorch/_op_forms.py)."},
    {0, NULL},
};

static PyType_Spec pyop_spec = {
    .name = "minitorch._C._PyOp",
    .basicsize = sizeof(MTPyOpObject),
    .flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC | Py_TPFLAGS_HAVE_VECTORCALL |
             Py_TPFLAGS_METHOD_DESCRIPTOR,
    .slots = pyop_slots,
};

/* ---- minitorch._C functions ---- */

/* _set_inference_mode(flag) -> the previous flag of this thread (Note [Inference storages]);
 * grad mode is the caller's (inference_mode sets both) */
static PyObject *
mt_py_set_inference_mode(PyObject *module, PyObject *arg)
{
    int truth = PyObject_IsTrue(arg);
    if (truth < 0) {
        return NULL;
    }
    int was = mt_inference_mode;
    mt_inference_mode = truth;
    return PyBool_FromLong(was);
}

static PyObject *
mt_py_is_inference_mode_enabled(PyObject *module, PyObject *unused)
{
    return PyBool_FromLong(mt_inference_mode);
}

/* is_inference(input): whether input is an inference tensor (its storage was made in
 * inference mode) */
static PyObject *
mt_py_is_inference(PyObject *module, PyObject *arg)
{
    if (!mt__tensor_check(arg)) {
        PyErr_Format(PyExc_TypeError,
                     "is_inference(): argument 'input' (position 1) must be Tensor, not %s",
                     Py_TYPE(arg)->tp_name);
        return NULL;
    }
    return PyBool_FromLong(mt__tensor_impl(arg)->storage->inference);
}

/* _grad_off_recording() -> the previous raw grad mode: grad mode off while a recorder runs an
 * op (MT__GRAD_OFF_RECORDING); _set_grad_mode(raw) restores it */
static PyObject *
mt_py_grad_off_recording(PyObject *module, PyObject *unused)
{
    int was = mt__grad_off;
    mt__grad_off = MT__GRAD_OFF_RECORDING;
    return PyLong_FromLong(was);
}

static PyObject *
mt_py_set_grad_mode(PyObject *module, PyObject *arg)
{
    long v = PyLong_AsLong(arg);
    if (v == -1 && PyErr_Occurred()) {
        return NULL;
    }
    if (v < 0 || v > MT__GRAD_OFF_RECORDING) {
        PyErr_SetString(PyExc_ValueError, "_set_grad_mode(): a value of _grad_off_recording()");
        return NULL;
    }
    mt__grad_off = (int)v;
    Py_RETURN_NONE;
}

/* _check_view_inplace(t): torch's error for an in-place op recorded on the view t when its
 * creation meta forbids it (Note [Creation meta of views]); None otherwise */
static PyObject *
mt_py_check_view_inplace(PyObject *module, PyObject *t)
{
    if (!mt__tensor_check(t)) {
        PyErr_SetString(PyExc_TypeError, "_check_view_inplace() expects a Tensor");
        return NULL;
    }
    MTTensorObject *o = (MTTensorObject *)t;
    if (o->base != NULL && o->view_meta != MT_VIEW_DEFAULT) {
        mt__view_rebase_error(t, 0);
        return NULL;
    }
    Py_RETURN_NONE;
}

/* _mark_views(seq, meta): the views in seq made by one op get its creation meta (unbind and
 * split: MT_VIEW_MULTI_OUTPUT; a custom Function's outputs: MT_VIEW_IN_CUSTOM_FUNCTION), as the
 * thread's mode allows (Note [Creation meta of views]) */
static PyObject *
mt_py_mark_views(PyObject *module, PyObject *args)
{
    PyObject *seq;
    int meta;
    if (!PyArg_ParseTuple(args, "Oi:_mark_views", &seq, &meta)) {
        return NULL;
    }
    if (meta < MT_VIEW_DEFAULT || meta > MT_VIEW_INFERENCE) {
        PyErr_SetString(PyExc_ValueError, "_mark_views(): not a creation meta");
        return NULL;
    }
    PyObject *fast = PySequence_Fast(seq, "_mark_views() expects a sequence");
    if (fast == NULL) {
        return NULL;
    }
    for (Py_ssize_t i = 0; i < PySequence_Fast_GET_SIZE(fast); i++) {
        PyObject *t = PySequence_Fast_GET_ITEM(fast, i);
        if (!mt__tensor_check(t) || ((MTTensorObject *)t)->base == NULL) {
            continue;
        }
        MTTensorObject *o = (MTTensorObject *)t;
        if (meta == MT_VIEW_IN_CUSTOM_FUNCTION) {
            o->view_meta = (char)meta; /* (torch sets it whatever the mode) */
        }
        else if (!mt_inference_mode && mt__grad_off != 1 && o->view_meta != MT_VIEW_INFERENCE) {
            o->view_meta = (char)meta;
        }
    }
    Py_DECREF(fast);
    Py_RETURN_NONE;
}

/* _inference_live() -> whether any inference tensor exists (Note [Inference storages]) */
static PyObject *
mt_py_inference_live(PyObject *module, PyObject *unused)
{
    return PyBool_FromLong(atomic_load(&mt_inference_live) > 0);
}

static PyObject *
mt_py_set_view_regenerator(PyObject *module, PyObject *fn)
{
    Py_XSETREF(mt__view_regenerator, Py_NewRef(fn));
    Py_RETURN_NONE;
}

static PyObject *
mt_py_set_grad_enabled(PyObject *module, PyObject *arg)
{
    int truth = PyObject_IsTrue(arg);
    if (truth < 0) {
        return NULL;
    }
    int was = !mt__grad_off;
    mt__grad_off = !truth;
    return PyBool_FromLong(was);
}

static PyObject *
mt_py_is_grad_enabled(PyObject *module, PyObject *unused)
{
    return PyBool_FromLong(!mt__grad_off);
}

static PyObject *
mt_py_set_recorder(PyObject *module, PyObject *fn)
{
    Py_XSETREF(mt__recorder, Py_NewRef(fn));
    Py_RETURN_NONE;
}

static PyObject *
mt_py_ag_live(PyObject *module, PyObject *unused)
{
    return PyLong_FromSsize_t(mt__ag_live);
}

/* _bump_version(t): autograd.graph.increment_version (inference tensors have no counter) */
static PyObject *
mt_py_bump_version(PyObject *module, PyObject *t)
{
    if (!mt__tensor_check(t)) {
        PyErr_SetString(PyExc_TypeError, "_bump_version() expects a Tensor");
        return NULL;
    }
    mt_storage *s = mt__tensor_impl(t)->storage;
    if (!s->inference) {
        atomic_fetch_add_explicit(mt_storage_version(s), 1, memory_order_relaxed);
    }
    Py_RETURN_NONE;
}

/* _set_version(t, version): torch._C._autograd._unsafe_set_version_counter for one tensor */
static PyObject *
mt_py_set_version(PyObject *module, PyObject *args)
{
    PyObject *t;
    long long v;
    if (!PyArg_ParseTuple(args, "O!L:_set_version", mt__TensorBase_Type, &t, &v)) {
        return NULL;
    }
    if (v < 0) {
        PyErr_Format(PyExc_RuntimeError, "Cannot set a version_counter to a value below 0: %lld",
                     v);
        return NULL;
    }
    mt_storage *s = mt__tensor_impl(t)->storage;
    if (s->inference) {
        PyErr_SetString(PyExc_RuntimeError, "Inference tensors do not track version counter.");
        return NULL;
    }
    atomic_store_explicit(mt_storage_version(s), (uint64_t)v, memory_order_relaxed);
    Py_RETURN_NONE;
}

/* _set_anomaly_enabled(enabled, check_nan=True) */
static PyObject *
mt_py_set_anomaly_enabled(PyObject *module, PyObject *args)
{
    int enabled, check_nan = 1;
    if (!PyArg_ParseTuple(args, "p|p:_set_anomaly_enabled", &enabled, &check_nan)) {
        return NULL;
    }
    mt__anomaly_enabled = enabled;
    mt__anomaly_check_nan = check_nan;
    Py_RETURN_NONE;
}

static PyObject *
mt_py_is_anomaly_enabled(PyObject *module, PyObject *unused)
{
    return PyBool_FromLong(mt__anomaly_enabled);
}

static PyObject *
mt_py_is_anomaly_check_nan_enabled(PyObject *module, PyObject *unused)
{
    return PyBool_FromLong(mt__anomaly_check_nan);
}

/* _set_anomaly_hooks(report, check): see Note [Anomaly mode and node hooks] */
static PyObject *
mt_py_set_anomaly_hooks(PyObject *module, PyObject *args)
{
    PyObject *report, *check;
    if (!PyArg_ParseTuple(args, "OO:_set_anomaly_hooks", &report, &check)) {
        return NULL;
    }
    Py_XSETREF(mt__anomaly_report, Py_NewRef(report));
    Py_XSETREF(mt__anomaly_check, Py_NewRef(check));
    Py_RETURN_NONE;
}

/* _set_node_hook(fn or None) -> the previous one (None when none) */
static PyObject *
mt_py_set_node_hook(PyObject *module, PyObject *fn)
{
    if (fn != Py_None && !PyCallable_Check(fn)) {
        PyErr_SetString(PyExc_TypeError, "_set_node_hook() expects a callable or None");
        return NULL;
    }
    PyObject *prev = mt__node_hook ? mt__node_hook : Py_NewRef(Py_None);
    mt__node_hook = fn == Py_None ? NULL : Py_NewRef(fn);
    return prev;
}

/* _set_node_event_hook(fn or None) -> the previous one (None when none): Note [Node events] */
static PyObject *
mt_py_set_node_event_hook(PyObject *module, PyObject *fn)
{
    if (fn != Py_None && !PyCallable_Check(fn)) {
        PyErr_SetString(PyExc_TypeError, "_set_node_event_hook() expects a callable or None");
        return NULL;
    }
    PyObject *prev = mt__node_event_hook ? mt__node_event_hook : Py_NewRef(Py_None);
    mt__node_event_hook = fn == Py_None ? NULL : Py_NewRef(fn);
    return prev;
}

/* _peek_sequence_nr() -> the sequence number the next node made will have */
static PyObject *
mt_py_peek_sequence_nr(PyObject *module, PyObject *unused)
{
    return PyLong_FromUnsignedLongLong(mt__node_peek_seq());
}

/* _set_ag_watchers(n): how many op watchers are active (Note [Op watchers]) */
static PyObject *
mt_py_set_ag_watchers(PyObject *module, PyObject *arg)
{
    long n = PyLong_AsLong(arg);
    if (n == -1 && PyErr_Occurred()) {
        return NULL;
    }
    if (n < 0 || n > INT_MAX) {
        PyErr_SetString(PyExc_ValueError, "_set_ag_watchers(): a count of watchers");
        return NULL;
    }
    mt__ag_watchers = (int)n;
    Py_RETURN_NONE;
}

/* _set_ag_unwatched(flag) -> the previous flag of this thread (Note [Op watchers]) */
static PyObject *
mt_py_set_ag_unwatched(PyObject *module, PyObject *arg)
{
    int truth = PyObject_IsTrue(arg);
    if (truth < 0) {
        return NULL;
    }
    int was = mt__ag_unwatched;
    mt__ag_unwatched = truth;
    return PyBool_FromLong(was);
}

/* _ag_unwatched() -> this thread's flag (Note [Op watchers]) */
static PyObject *
mt_py_ag_unwatched(PyObject *module, PyObject *unused)
{
    return PyBool_FromLong(mt__ag_unwatched);
}

/* _set_python_recording(flag) -> the previous flag of this thread */
static PyObject *
mt_py_set_python_recording(PyObject *module, PyObject *arg)
{
    int truth = PyObject_IsTrue(arg);
    if (truth < 0) {
        return NULL;
    }
    int was = mt__ag_python_only;
    mt__ag_python_only = truth;
    return PyBool_FromLong(was);
}

static PyMethodDef mt_autograd_functions[] = {
    {"_set_anomaly_enabled", mt_py_set_anomaly_enabled, METH_VARARGS, NULL},
    {"_is_anomaly_enabled", mt_py_is_anomaly_enabled, METH_NOARGS, NULL},
    {"_is_anomaly_check_nan_enabled", mt_py_is_anomaly_check_nan_enabled, METH_NOARGS, NULL},
    {"_set_anomaly_hooks", mt_py_set_anomaly_hooks, METH_VARARGS, NULL},
    {"_set_node_hook", mt_py_set_node_hook, METH_O, NULL},
    {"_set_node_event_hook", mt_py_set_node_event_hook, METH_O,
     "_set_node_event_hook(fn or None) -> the previous hook: fn(node, phase, grads) sees each "
     "node the engine runs (Note [Node events])."},
    {"_peek_sequence_nr", mt_py_peek_sequence_nr, METH_NOARGS,
     "_peek_sequence_nr() -> int: the sequence number of the next node made."},
    {"_set_ag_watchers", mt_py_set_ag_watchers, METH_O,
     "_set_ag_watchers(n): while n > 0, every op call goes to the Python recorder "
     "(Note [Op watchers])."},
    {"_ag_unwatched", mt_py_ag_unwatched, METH_NOARGS,
     "_ag_unwatched() -> bool: whether this thread's calls are not watched"},
    {"_set_ag_unwatched", mt_py_set_ag_unwatched, METH_O,
     "_set_ag_unwatched(flag) -> bool: while set, this thread's calls are not watched; returns "
     "the previous flag."},
    {"_set_python_recording", mt_py_set_python_recording, METH_O,
     "_set_python_recording(flag) -> bool: while set, this thread's recorded calls all go to the "
     "Python recorder (saved-tensor hooks); returns the previous flag."},
    {"_set_grad_enabled", mt_py_set_grad_enabled, METH_O,
     "_set_grad_enabled(mode) -> bool: sets this thread's grad mode, returns the previous one."},
    {"is_grad_enabled", mt_py_is_grad_enabled, METH_NOARGS,
     "Whether this thread records ops for autograd."},
    {"_set_recorder", mt_py_set_recorder, METH_O, NULL},
    {"_ag_live", mt_py_ag_live, METH_NOARGS,
     "How many tensors require grad or have a grad_fn (0: autograd costs nothing)."},
    {"_bump_version", mt_py_bump_version, METH_O, NULL},
    {"_set_version", mt_py_set_version, METH_VARARGS, NULL},
    {"_set_inference_mode", mt_py_set_inference_mode, METH_O,
     "_set_inference_mode(flag) -> bool: sets this thread's inference mode (tensors made while "
     "it is on are inference tensors), returns the previous one."},
    {"_is_inference_mode_enabled", mt_py_is_inference_mode_enabled, METH_NOARGS, NULL},
    {"is_inference", mt_py_is_inference, METH_O,
     "is_inference(input) -> bool: whether input is an inference tensor (made in inference "
     "mode, or a view of one)."},
    {"_grad_off_recording", mt_py_grad_off_recording, METH_NOARGS, NULL},
    {"_set_grad_mode", mt_py_set_grad_mode, METH_O, NULL},
    {"_check_view_inplace", mt_py_check_view_inplace, METH_O, NULL},
    {"_mark_views", mt_py_mark_views, METH_VARARGS, NULL},
    {"_set_view_regenerator", mt_py_set_view_regenerator, METH_O, NULL},
    {"_inference_live", mt_py_inference_live, METH_NOARGS, NULL},
    {NULL},
};

int
mt__autograd_init(PyObject *module)
{
    if (PyModule_AddFunctions(module, mt_autograd_functions) < 0 ||
        mt__node_types_init(module) < 0 || mt__engine_init(module) < 0 ||
        mt__record_init(module) < 0) {
        return -1;
    }
    PyObject *pyop = PyType_FromModuleAndSpec(module, &pyop_spec, NULL);
    if (pyop == NULL) {
        return -1;
    }
    int rc = PyModule_AddObjectRef(module, "_PyOp", pyop);
    Py_DECREF(pyop);
    return rc;
}
