/* csrc/distributed/py_store_binding.c - stores written in Python, seen by the C core. */
#include "csrc/distributed/binding.h"

#include <stdlib.h>
#include <string.h>

/* Note [Stores written in Python]
 * A subclass of Store written in Python (torch's "PythonStore") has no C store
 * behind it.  Where the C core needs a store (a process group's rendezvous,
 * _test_python_store) it gets an adapter: an mt_store whose operations call the
 * object's Python methods under the GIL, as torch's trampoline does:
 *   set(key: str, value: bytes)            get(key: str) -> bytes
 *   add(key: str, delta: int) -> int       compare_set(key, expected: bytes, desired: bytes)
 *   wait(keys: list[str][, timedelta])     check(keys) -> bool
 *   delete_key(key) -> bool                num_keys() -> int
 * A method the object lacks, or one that raises, fails the operation with
 * MT_ERUNTIME carrying "<ExceptionType>: <message>" (the Python exception
 * itself does not cross the C core).  get() waits as the Python method does:
 * the C timeout is not passed to it (torch's trampoline passes none either).
 * The adapter holds a reference to the object; dropping it at interpreter
 * exit is skipped. */

typedef struct mt__py_store {
    mt_store base;
    PyObject *obj;
} mt__py_store;

#define MT__PS(s) (((mt__py_store *)(s))->obj)

/* Turns the pending Python exception into the thread's C error; returns MT_ERUNTIME. */
static int
mt__py_store_fail(const char *method)
{
    PyObject *type, *exc, *tb;
    PyErr_Fetch(&type, &exc, &tb);
    PyErr_NormalizeException(&type, &exc, &tb);
    Py_XDECREF(type);
    Py_XDECREF(tb);
    PyObject *msg = exc != NULL ? PyObject_Str(exc) : NULL;
    const char *m = msg != NULL ? PyUnicode_AsUTF8(msg) : NULL;
    int rc = mt_error_set(MT_ERUNTIME, "%s: %s%s%s", method,
                          exc != NULL ? Py_TYPE(exc)->tp_name : "error",
                          m != NULL && *m ? ": " : "", m != NULL ? m : "");
    PyErr_Clear();
    Py_XDECREF(msg);
    Py_XDECREF(exc);
    return rc;
}

static PyObject *
mt__py_key(const char *key, size_t klen)
{
    return PyUnicode_DecodeUTF8(key, (Py_ssize_t)klen, "surrogateescape");
}

static PyObject *
mt__py_keys(int nkeys, const char *const *keys, const size_t *klens)
{
    PyObject *l = PyList_New(nkeys);
    for (int i = 0; l != NULL && i < nkeys; i++) {
        PyObject *k = mt__py_key(keys[i], klens[i]);
        if (k == NULL) {
            Py_CLEAR(l);
            break;
        }
        PyList_SET_ITEM(l, i, k);
    }
    return l;
}

/* Copies bytes-like `r` into a malloc'd NUL-terminated buffer (consumes r). */
static int
mt__py_bytes_out(PyObject *r, const char *method, char **out, size_t *outlen)
{
    if (r == NULL) {
        return mt__py_store_fail(method);
    }
    Py_buffer view;
    if (PyObject_GetBuffer(r, &view, PyBUF_SIMPLE) < 0) {
        Py_DECREF(r);
        return mt__py_store_fail(method);
    }
    char *buf = malloc((size_t)view.len + 1);
    if (buf == NULL) {
        PyBuffer_Release(&view);
        Py_DECREF(r);
        return mt_error_set(MT_ENOMEM, "out of memory");
    }
    memcpy(buf, view.buf, (size_t)view.len);
    buf[view.len] = '\0';
    *out = buf;
    *outlen = (size_t)view.len;
    PyBuffer_Release(&view);
    Py_DECREF(r);
    return 0;
}

static int
mt__ps_set(mt_store *s, const char *key, size_t klen, const void *val, size_t vlen)
{
    PyGILState_STATE g = PyGILState_Ensure();
    PyObject *r = PyObject_CallMethod(MT__PS(s), "set", "Ny#", mt__py_key(key, klen),
                                      (const char *)val, (Py_ssize_t)vlen);
    int rc = r == NULL ? mt__py_store_fail("set") : 0;
    Py_XDECREF(r);
    PyGILState_Release(g);
    return rc;
}

static int
mt__ps_get(mt_store *s, const char *key, size_t klen, int64_t timeout_ms, char **out,
           size_t *outlen)
{
    (void)timeout_ms;
    PyGILState_STATE g = PyGILState_Ensure();
    PyObject *r = PyObject_CallMethod(MT__PS(s), "get", "N", mt__py_key(key, klen));
    int rc = mt__py_bytes_out(r, "get", out, outlen);
    PyGILState_Release(g);
    return rc;
}

static int
mt__ps_add(mt_store *s, const char *key, size_t klen, int64_t delta, int64_t *out)
{
    PyGILState_STATE g = PyGILState_Ensure();
    PyObject *r = PyObject_CallMethod(MT__PS(s), "add", "NL", mt__py_key(key, klen),
                                      (long long)delta);
    int rc = 0;
    long long v = -1;
    if (r == NULL || ((v = PyLong_AsLongLong(r)) == -1 && PyErr_Occurred())) {
        rc = mt__py_store_fail("add");
    } else {
        *out = (int64_t)v;
    }
    Py_XDECREF(r);
    PyGILState_Release(g);
    return rc;
}

static int
mt__ps_compare_set(mt_store *s, const char *key, size_t klen, const void *expected, size_t elen,
                   const void *desired, size_t dlen, char **out, size_t *outlen)
{
    PyGILState_STATE g = PyGILState_Ensure();
    PyObject *r = PyObject_CallMethod(MT__PS(s), "compare_set", "Ny#y#", mt__py_key(key, klen),
                                      (const char *)expected, (Py_ssize_t)elen,
                                      (const char *)desired, (Py_ssize_t)dlen);
    int rc = mt__py_bytes_out(r, "compare_set", out, outlen);
    PyGILState_Release(g);
    return rc;
}

static int
mt__ps_wait(mt_store *s, int nkeys, const char *const *keys, const size_t *klens,
            int64_t timeout_ms)
{
    PyGILState_STATE g = PyGILState_Ensure();
    PyObject *l = mt__py_keys(nkeys, keys, klens);
    PyObject *r = NULL;
    if (l != NULL && timeout_ms < 0) {
        r = PyObject_CallMethod(MT__PS(s), "wait", "N", l);
    } else if (l != NULL) {
        PyObject *dt = PyImport_ImportModule("datetime");
        PyObject *td = dt != NULL ? PyObject_CallMethod(dt, "timedelta", "(iiiL)", 0, 0, 0,
                                                        (long long)timeout_ms)
                                  : NULL;
        Py_XDECREF(dt);
        r = td != NULL ? PyObject_CallMethod(MT__PS(s), "wait", "NN", l, td) : (Py_DECREF(l), NULL);
    }
    int rc = r == NULL ? mt__py_store_fail("wait") : 0;
    Py_XDECREF(r);
    PyGILState_Release(g);
    return rc;
}

/* Calls a method returning a truth value into *out. */
static int
mt__ps_truth(PyObject *r, const char *method, int *out)
{
    int t = r != NULL ? PyObject_IsTrue(r) : -1;
    Py_XDECREF(r);
    if (t < 0) {
        return mt__py_store_fail(method);
    }
    *out = t;
    return 0;
}

static int
mt__ps_check(mt_store *s, int nkeys, const char *const *keys, const size_t *klens, int *out)
{
    PyGILState_STATE g = PyGILState_Ensure();
    PyObject *l = mt__py_keys(nkeys, keys, klens);
    PyObject *r = l != NULL ? PyObject_CallMethod(MT__PS(s), "check", "N", l) : NULL;
    int rc = mt__ps_truth(r, "check", out);
    PyGILState_Release(g);
    return rc;
}

static int
mt__ps_delete_key(mt_store *s, const char *key, size_t klen, int *out)
{
    PyGILState_STATE g = PyGILState_Ensure();
    PyObject *r = PyObject_CallMethod(MT__PS(s), "delete_key", "N", mt__py_key(key, klen));
    int rc = mt__ps_truth(r, "delete_key", out);
    PyGILState_Release(g);
    return rc;
}

static int
mt__ps_compare_delete(mt_store *s, const char *key, size_t klen, const void *expected,
                      size_t elen, int *out)
{
    (void)s, (void)key, (void)klen, (void)expected, (void)elen, (void)out;
    return mt_error_set(MT_ENOTIMPL, "compare_delete: not implemented by a store written in "
                        "Python");
}

static int
mt__ps_num_keys(mt_store *s, int64_t *out)
{
    PyGILState_STATE g = PyGILState_Ensure();
    PyObject *r = PyObject_CallMethod(MT__PS(s), "num_keys", NULL);
    int rc = 0;
    long long v = -1;
    if (r == NULL || ((v = PyLong_AsLongLong(r)) == -1 && PyErr_Occurred())) {
        rc = mt__py_store_fail("num_keys");
    } else {
        *out = (int64_t)v;
    }
    Py_XDECREF(r);
    PyGILState_Release(g);
    return rc;
}

static int
mt__ps_local_addr(mt_store *s, char *buf, size_t cap)
{
    (void)s, (void)buf, (void)cap;
    return MT_ENOTIMPL;
}

static void
mt__ps_close(mt_store *s)
{
    (void)s;
}

static void
mt__ps_free(mt_store *s)
{
    PyObject *obj = MT__PS(s);
    free(s);
#if PY_VERSION_HEX >= 0x030D0000
    int finalizing = Py_IsFinalizing();
#else
    int finalizing = _Py_IsFinalizing();
#endif
    if (!finalizing) {
        PyGILState_STATE g = PyGILState_Ensure();
        Py_DECREF(obj);
        PyGILState_Release(g);
    }
}

static const mt_store_vtable mt__py_store_vt = {
    .name = "PythonStore",
    .set = mt__ps_set,
    .get = mt__ps_get,
    .add = mt__ps_add,
    .compare_set = mt__ps_compare_set,
    .wait = mt__ps_wait,
    .check = mt__ps_check,
    .delete_key = mt__ps_delete_key,
    .compare_delete = mt__ps_compare_delete,
    .num_keys = mt__ps_num_keys,
    .local_addr = mt__ps_local_addr,
    .close = mt__ps_close,
    .free = mt__ps_free,
};

mt_store *
mt__store_ref_from_py(PyObject *o, const char *fname)
{
    if (!PyObject_TypeCheck(o, mt__Store_Type)) {
        PyErr_Format(PyExc_TypeError, "%s(): expected a Store, got %s", fname,
                     Py_TYPE(o)->tp_name);
        return NULL;
    }
    MTStoreObject *so = (MTStoreObject *)o;
    if (so->store != NULL) {
        mt_store_incref(so->store);
        return so->store;
    }
    mt__py_store *ps = calloc(1, sizeof(*ps));
    if (ps == NULL) {
        PyErr_NoMemory();
        return NULL;
    }
    /* the default timeout of torch's Store (300 s); get/wait leave it to the Python methods */
    mt__store_init(&ps->base, &mt__py_store_vt, 300000);
    Py_INCREF(o);
    ps->obj = o;
    return &ps->base;
}

/* Raises the C error of a failed adapter call as RuntimeError. */
static PyObject *
mt__py_store_raise(void)
{
    PyErr_SetString(PyExc_RuntimeError, mt_error_message());
    return NULL;
}

/* _test_python_store(store): torch's check that a store written in Python works
 * when driven from C (its set/get/add called through the adapter, the GIL
 * released in between). */
static PyObject *
mt_py_test_python_store(PyObject *m, PyObject *arg)
{
    (void)m;
    mt_store *s = mt__store_ref_from_py(arg, "_test_python_store");
    if (s == NULL) {
        return NULL;
    }
    static const struct {
        const char *key;
        int64_t delta;   /* add when value is NULL */
        const char *value;
    } steps[] = {
        {"key", 1, NULL},  {"key", 2, NULL},  {"key", 3, NULL},  {"key0", 0, "value0"},
        {"key3", 1, NULL}, {"key1", 0, "value1"}, {"key3", 2, NULL}, {"key2", 0, "value2"},
        {"key3", 3, NULL}, {"key3", 4, NULL}, {"key3", 3, NULL}, {"key3", 2, NULL},
    };
    static const char *const want[][2] = {
        {"key", "6"}, {"key0", "value0"}, {"key1", "value1"}, {"key2", "value2"}, {"key3", "15"},
    };
    int rc = 0;
    bool mismatch = false;
    Py_BEGIN_ALLOW_THREADS
    for (size_t i = 0; rc == 0 && i < sizeof(steps) / sizeof(steps[0]); i++) {
        int64_t sum;
        rc = steps[i].value != NULL ? mt_store_set_str(s, steps[i].key, steps[i].value)
                                    : mt_store_add(s, steps[i].key, strlen(steps[i].key),
                                                   steps[i].delta, &sum);
    }
    for (size_t i = 0; rc == 0 && !mismatch && i < sizeof(want) / sizeof(want[0]); i++) {
        char *v = NULL;
        rc = mt_store_get_str(s, want[i][0], -1, &v);
        mismatch = rc == 0 && strcmp(v, want[i][1]) != 0;
        free(v);
    }
    mt_store_decref(s);
    Py_END_ALLOW_THREADS
    if (rc < 0) {
        return mt__py_store_raise();
    }
    if (mismatch) {
        PyErr_SetString(PyExc_RuntimeError, "assertion failed");
        return NULL;
    }
    Py_RETURN_NONE;
}

static PyMethodDef mt_py_store_functions[] = {
    {"_test_python_store", mt_py_test_python_store, METH_O,
     "_test_python_store(store): drives a store written in Python from C (torch's check)."},
    {NULL},
};

int
mt__py_store_binding_init(PyObject *module)
{
    return PyModule_AddFunctions(module, mt_py_store_functions);
}
