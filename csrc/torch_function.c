/* csrc/torch_function.c - see Note [Torch function] in torch_function.h. */
#include "csrc/torch_function.h"

#include "csrc/common.h"

int mt__tf_on = 0;
int mt__tf_npending = 0;
_Thread_local int mt__tf_disabled = 0;

static int mt__tf_modes = 0;            /* modes entered, all threads */
static _Thread_local int mt__tf_duck_search = 0; /* mt__tf_retry: the handler is called */
static PyObject *mt__tf_handler = NULL; /* owned: overrides._handle_op */
/* owned references: the counted classes, then the listed ones not counted yet (the last
 * mt__tf_npending of the mt__tf_ntypes) */
static PyTypeObject **mt__tf_types = NULL;
static Py_ssize_t mt__tf_ntypes = 0, mt__tf_cap = 0;

static int
mt__tf_registered(PyTypeObject *t)
{
    if (t == mt__tensor_class) {
        return 0;
    }
    for (Py_ssize_t i = 0; i < mt__tf_ntypes - mt__tf_npending; i++) {
        if (mt__tf_types[i] == t) {
            return 1;
        }
    }
    return 0;
}

void
mt__tf_count(PyTypeObject *t)
{
    Py_ssize_t first = mt__tf_ntypes - mt__tf_npending;
    for (Py_ssize_t i = first; i < mt__tf_ntypes; i++) {
        if (mt__tf_types[i] == t) {
            mt__tf_types[i] = mt__tf_types[first];  /* into the counted part */
            mt__tf_types[first] = t;
            mt__tf_npending--;
            mt__tf_on++;
            return;
        }
    }
}

/* Whether o is an instance of a registered class, or a tuple or list holding one. */
static int
mt__tf_overloaded(PyObject *o)
{
    if (PyTuple_Check(o) || PyList_Check(o)) {
        Py_ssize_t n = PySequence_Fast_GET_SIZE(o);
        PyObject **items = PySequence_Fast_ITEMS(o);
        for (Py_ssize_t i = 0; i < n; i++) {
            if (mt__tf_registered(Py_TYPE(items[i]))) {
                return 1;
            }
        }
        return 0;
    }
    return mt__tf_registered(Py_TYPE(o));
}

/* Hands the call to the handler: 1 answered (*result set), 0 run it. Borrows args/kwargs. */
static int
mt__tf_call(const char *key, PyObject *self, PyObject *args, PyObject *kwargs, PyObject **result)
{
    PyObject *k = PyUnicode_FromString(key);
    if (k == NULL) {
        *result = NULL;
        return 1;
    }
    PyObject *r = PyObject_CallFunctionObjArgs(mt__tf_handler, k, self ? self : Py_None, args,
                                               kwargs ? kwargs : Py_None, NULL);
    Py_DECREF(k);
    if (r == Py_None) {
        Py_DECREF(r);
        return 0;
    }
    if (r != NULL && (!PyTuple_Check(r) || PyTuple_GET_SIZE(r) != 1)) {
        PyErr_SetString(PyExc_SystemError, "__torch_function__ handler: expected a 1-tuple");
        Py_CLEAR(r);
    }
    *result = r ? Py_NewRef(PyTuple_GET_ITEM(r, 0)) : NULL;
    Py_XDECREF(r);
    return 1;
}

static int
mt__tf_wanted(void)
{
    return mt__tf_disabled < 2 && mt__tf_handler != NULL;
}

int
mt__tf_dispatch(const char *key, PyObject *self, PyObject *const *args, Py_ssize_t nargs,
                PyObject *kwnames, PyObject **result)
{
    if (!mt__tf_wanted()) {
        return 0;
    }
    Py_ssize_t nkw = kwnames ? PyTuple_GET_SIZE(kwnames) : 0;
    int found = mt__tf_modes > 0 || mt__tf_duck_search;
    if (!found && mt__tf_disabled == 0) {
        found = self != NULL && mt__tf_overloaded(self);
        for (Py_ssize_t i = 0; !found && i < nargs + nkw; i++) {
            found = mt__tf_overloaded(args[i]);
        }
    }
    if (!found) {
        return 0;
    }
    PyObject *tuple, *kw;
    *result = NULL;
    if (mt__fastcall_pack(args, nargs, kwnames, &tuple, &kw) < 0) {
        return 1;
    }
    int handled = mt__tf_call(key, self, tuple, kw, result);
    Py_DECREF(tuple);
    Py_XDECREF(kw);
    return handled;
}

int
mt__tf_dispatch_tuple(const char *key, PyObject *self, PyObject *args, PyObject *kwargs,
                      PyObject **result)
{
    if (!mt__tf_wanted()) {
        return 0;
    }
    int found = mt__tf_modes > 0 || mt__tf_duck_search;
    if (!found && mt__tf_disabled == 0) {
        found = (self != NULL && mt__tf_overloaded(self)) || (args != NULL && mt__tf_overloaded(args));
        PyObject *k, *v;
        Py_ssize_t pos = 0;
        while (!found && kwargs != NULL && PyDict_Next(kwargs, &pos, &k, &v)) {
            found = mt__tf_overloaded(v);
        }
    }
    if (!found) {
        return 0;
    }
    if (args != NULL) {
        return mt__tf_call(key, self, args, kwargs, result);
    }
    PyObject *empty = PyTuple_New(0);
    if (empty == NULL) {
        *result = NULL;
        return 1;
    }
    int handled = mt__tf_call(key, self, empty, kwargs, result);
    Py_DECREF(empty);
    return handled;
}

/* Whether o (or an item of a tuple or list o) is no tensor and has a __torch_function__. */
static int
mt__tf_duck(PyObject *o)
{
    if (PyTuple_Check(o) || PyList_Check(o)) {
        Py_ssize_t n = PySequence_Fast_GET_SIZE(o);
        PyObject **items = PySequence_Fast_ITEMS(o);
        for (Py_ssize_t i = 0; i < n; i++) {
            if (!PyTuple_Check(items[i]) && !PyList_Check(items[i]) && mt__tf_duck(items[i])) {
                return 1;
            }
        }
        return 0;
    }
    if (mt__tensor_check(o) || PyLong_Check(o) || PyFloat_Check(o) || PyUnicode_Check(o) ||
        o == Py_None) {
        return 0;
    }
    PyObject *tf = PyObject_GetAttrString((PyObject *)Py_TYPE(o), "__torch_function__");
    if (tf == NULL) {
        PyErr_Clear();
        return 0;
    }
    Py_DECREF(tf);
    return 1;
}

void
mt__tf_retry(const char *key, PyObject *self, PyObject *const *args, Py_ssize_t nargs,
             PyObject *kwnames, PyObject *tuple, PyObject *kwargs, PyObject **result)
{
    if (!mt__tf_wanted()) {
        return;
    }
    PyObject *et, *ev, *tb;
    PyErr_Fetch(&et, &ev, &tb);
    int found = 0;
    if (tuple != NULL) {
        found = mt__tf_duck(tuple);
        PyObject *k, *v;
        Py_ssize_t pos = 0;
        while (!found && kwargs != NULL && PyDict_Next(kwargs, &pos, &k, &v)) {
            found = mt__tf_duck(v);
        }
    }
    else {
        Py_ssize_t nkw = kwnames ? PyTuple_GET_SIZE(kwnames) : 0;
        for (Py_ssize_t i = 0; !found && i < nargs + nkw; i++) {
            found = mt__tf_duck(args[i]);
        }
    }
    if (!found) {
        PyErr_Restore(et, ev, tb);
        return;
    }
    int prev = mt__tf_duck_search;
    mt__tf_duck_search = 1;
    int handled = tuple != NULL ? mt__tf_dispatch_tuple(key, self, tuple, kwargs, result)
                                : mt__tf_dispatch(key, self, args, nargs, kwnames, result);
    mt__tf_duck_search = prev;
    if (handled) {
        Py_XDECREF(et);
        Py_XDECREF(ev);
        Py_XDECREF(tb);
        return;
    }
    PyErr_Restore(et, ev, tb);
}

/* ---- Python functions (used by minitorch/overrides.py) ---- */

/* _tf_register(cls): cls takes part in the protocol (listed once; counted from its first
 * instance). */
static PyObject *
mt_py_tf_register(PyObject *unused, PyObject *cls)
{
    if (!PyType_Check(cls)) {
        PyErr_SetString(PyExc_TypeError, "_tf_register expects a class");
        return NULL;
    }
    for (Py_ssize_t i = 0; i < mt__tf_ntypes; i++) {
        if (mt__tf_types[i] == (PyTypeObject *)cls) {
            Py_RETURN_NONE;
        }
    }
    if (mt__tf_ntypes == mt__tf_cap) {
        Py_ssize_t cap = mt__tf_cap ? 2 * mt__tf_cap : 8;
        PyTypeObject **p = PyMem_Realloc(mt__tf_types, (size_t)cap * sizeof(*p));
        if (p == NULL) {
            return PyErr_NoMemory();
        }
        mt__tf_types = p;
        mt__tf_cap = cap;
    }
    mt__tf_types[mt__tf_ntypes++] = (PyTypeObject *)Py_NewRef(cls);
    mt__tf_npending++;
    Py_RETURN_NONE;
}

/* _tf_modes(delta): a mode was entered (+1) or left (-1) on some thread. */
static PyObject *
mt_py_tf_modes(PyObject *unused, PyObject *arg)
{
    long d = PyLong_AsLong(arg);
    if (d == -1 && PyErr_Occurred()) {
        return NULL;
    }
    if (mt__tf_modes + d < 0) {
        PyErr_SetString(PyExc_RuntimeError, "_tf_modes: more modes left than entered");
        return NULL;
    }
    mt__tf_modes += (int)d;
    mt__tf_on += (int)d;
    Py_RETURN_NONE;
}

static PyObject *
mt_py_tf_set_handler(PyObject *unused, PyObject *fn)
{
    Py_XSETREF(mt__tf_handler, fn == Py_None ? NULL : Py_NewRef(fn));
    Py_RETURN_NONE;
}

/* _tf_set_disabled(level) -> the previous level (0 on, 1 classes off, 2 all off). */
static PyObject *
mt_py_tf_set_disabled(PyObject *unused, PyObject *arg)
{
    long level = PyLong_AsLong(arg);
    if (level == -1 && PyErr_Occurred()) {
        return NULL;
    }
    if (level < 0 || level > 2) {
        PyErr_SetString(PyExc_ValueError, "_tf_set_disabled: level is 0, 1 or 2");
        return NULL;
    }
    int prev = mt__tf_disabled;
    mt__tf_disabled = (int)level;
    return PyLong_FromLong(prev);
}

static PyObject *
mt_py_tf_disabled(PyObject *unused, PyObject *noargs)
{
    return PyLong_FromLong(mt__tf_disabled);
}

static PyMethodDef mt_tf_functions[] = {
    {"_tf_register", mt_py_tf_register, METH_O, NULL},
    {"_tf_modes", mt_py_tf_modes, METH_O, NULL},
    {"_tf_set_handler", mt_py_tf_set_handler, METH_O, NULL},
    {"_tf_set_disabled", mt_py_tf_set_disabled, METH_O, NULL},
    {"_tf_disabled", mt_py_tf_disabled, METH_NOARGS, NULL},
    {NULL},
};

int
mt__torch_function_init(PyObject *module)
{
    return PyModule_AddFunctions(module, mt_tf_functions);
}
