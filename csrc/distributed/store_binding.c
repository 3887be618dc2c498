/* csrc/distributed/store_binding.c - the Store type of minitorch._C._c10d (TCPStore, FileStore, HashStore, PrefixStore). */
#include "csrc/distributed/binding.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define FASTKW(name) (PyCFunction)(void (*)(void))name, METH_FASTCALL | METH_KEYWORDS

PyTypeObject *mt__Store_Type;
PyObject *mt__DistError;
PyObject *mt__DistBackendError;
PyObject *mt__DistStoreError;
PyObject *mt__DistNetworkError;

PyObject *
mt__dist_raise(int code, PyObject *dist_type)
{
    if (code == 0) {
        code = mt_error_code();
    }
    switch (code) {
    case MT_ETIMEOUT:
    case MT_ECONN:
    case MT_ECLOSED:
    case MT_ERUNTIME:
        PyErr_SetString(dist_type, mt_error_message());
        return NULL;
    default:
        return mt__raise(code);
    }
}

int
mt__timeout_ms_from_py(PyObject *o, int64_t dflt, int64_t *out, const char *fname)
{
    if (o == NULL || o == Py_None) {
        *out = dflt;
        return 0;
    }
    if (mt__is_number(o) || !PyObject_HasAttrString(o, "total_seconds")) {
        PyErr_Format(PyExc_TypeError, "%s(): timeout must be a datetime.timedelta, not %s", fname,
                     Py_TYPE(o)->tp_name);
        return -1;
    }
    PyObject *s = PyObject_CallMethod(o, "total_seconds", NULL);
    if (s == NULL) {
        return -1;
    }
    double sec = PyFloat_AsDouble(s);
    Py_DECREF(s);
    if (sec == -1.0 && PyErr_Occurred()) {
        return -1;
    }
    if (!(sec >= 0.0) || !isfinite(sec) || sec > 9.0e15) {
        PyErr_Format(PyExc_ValueError, "%s(): timeout must be a non-negative finite duration",
                     fname);
        return -1;
    }
    int64_t ms = (int64_t)ceil(sec * 1000.0);
    *out = ms < 1 ? 1 : ms;
    return 0;
}

/* Key or value bytes of a str (UTF-8) or bytes-like object; *tmp keeps a
 * created bytes object alive (caller releases). */
static int
mt__bytes_arg(PyObject *o, const char **p, Py_ssize_t *n, PyObject **tmp, const char *fname,
              const char *what)
{
    *tmp = NULL;
    if (PyUnicode_Check(o)) {
        *p = PyUnicode_AsUTF8AndSize(o, n);
        return *p == NULL ? -1 : 0;
    }
    if (PyBytes_Check(o)) {
        *p = PyBytes_AS_STRING(o);
        *n = PyBytes_GET_SIZE(o);
        return 0;
    }
    if (PyByteArray_Check(o) || PyMemoryView_Check(o)) {
        *tmp = PyBytes_FromObject(o);
        if (*tmp == NULL) {
            return -1;
        }
        *p = PyBytes_AS_STRING(*tmp);
        *n = PyBytes_GET_SIZE(*tmp);
        return 0;
    }
    PyErr_Format(PyExc_TypeError, "%s(): %s must be str or bytes, not %s", fname, what,
                 Py_TYPE(o)->tp_name);
    return -1;
}

static int
mt__key_arg(PyObject *o, const char **p, Py_ssize_t *n, const char *fname)
{
    if (!PyUnicode_Check(o)) {
        PyErr_Format(PyExc_TypeError, "%s(): key must be str, not %s", fname,
                     Py_TYPE(o)->tp_name);
        return -1;
    }
    *p = PyUnicode_AsUTF8AndSize(o, n);
    return *p == NULL ? -1 : 0;
}

mt_store *
mt__store_from_py(PyObject *o, const char *fname)
{
    if (!PyObject_TypeCheck(o, mt__Store_Type)) {
        PyErr_Format(PyExc_TypeError, "%s(): expected a Store, got %s", fname,
                     Py_TYPE(o)->tp_name);
        return NULL;
    }
    MTStoreObject *so = (MTStoreObject *)o;
    if (so->store == NULL) {
        /* a Store subclass written in Python that does not implement the method
         * (torch's words) */
        PyErr_Format(PyExc_RuntimeError, "%s(): Not implemented.", fname);
        return NULL;
    }
    return so->store;
}

/* Gives self the new store `s` (steals it); None, or NULL with an exception
 * when self already has one. */
static PyObject *
mt__store_attach(PyObject *self, mt_store *s)
{
    MTStoreObject *so = (MTStoreObject *)self;
    if (so->store != NULL) {
        mt_store_decref(s);
        PyErr_SetString(PyExc_RuntimeError, "the store is already initialised");
        return NULL;
    }
    so->store = s;
    Py_RETURN_NONE;
}

/* _init_tcp(host, port, world_size, is_master, timeout_ms, wait_for_workers, listen_fd=-1,
 * token=None): listen_fd >= 0 makes a master serving on that bound socket (it is then the
 * store's); token (bytes) authenticates every connection (Note [Job token]) */
static PyObject *
mt_py_store_init_tcp(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kw)
{
    static const char *const names[] = {"host", "port", "world_size", "is_master", "timeout_ms",
                                        "wait_for_workers", "listen_fd", "token", NULL};
    PyObject *a[8] = {NULL};
    if (mt__parse_args("TCPStore", args, nargs, kw, names, 8, 6, a) < 0) {
        return NULL;
    }
    const char *tok = NULL;
    Py_ssize_t toklen = 0;
    if (a[7] != NULL && a[7] != Py_None) {
        if (!PyBytes_Check(a[7])) {
            PyErr_Format(PyExc_TypeError, "TCPStore(): token must be str or bytes, not %s",
                         Py_TYPE(a[7])->tp_name);
            return NULL;
        }
        tok = PyBytes_AS_STRING(a[7]);
        toklen = PyBytes_GET_SIZE(a[7]);
    }
    int64_t lfd = -1;
    if (a[6] != NULL && a[6] != Py_None && mt__int64_from_py(a[6], &lfd, "TCPStore", "master_listen_fd") < 0) {
        return NULL;
    }
    if (lfd > INT32_MAX) {
        PyErr_Format(PyExc_ValueError, "TCPStore(): invalid master_listen_fd %lld", (long long)lfd);
        return NULL;
    }
    const char *host = PyUnicode_Check(a[0]) ? PyUnicode_AsUTF8(a[0]) : NULL;
    if (host == NULL) {
        if (!PyErr_Occurred()) {
            PyErr_Format(PyExc_TypeError, "TCPStore(): host_name must be str, not %s",
                         Py_TYPE(a[0])->tp_name);
        }
        return NULL;
    }
    int64_t port, ws, tmo;
    if (mt__int64_from_py(a[1], &port, "TCPStore", "port") < 0 ||
        mt__int64_from_py(a[2], &ws, "TCPStore", "world_size") < 0 ||
        mt__int64_from_py(a[4], &tmo, "TCPStore", "timeout") < 0) {
        return NULL;
    }
    int master = PyObject_IsTrue(a[3]);
    int wait = PyObject_IsTrue(a[5]);
    if (master < 0 || wait < 0) {
        return NULL;
    }
    if (port < 0 || port > 65535) {
        PyErr_Format(PyExc_ValueError, "TCPStore(): port must be in [0, 65535], got %lld",
                     (long long)port);
        return NULL;
    }
    if (ws > INT32_MAX || ws < -1) {
        PyErr_Format(PyExc_ValueError, "TCPStore(): invalid world_size %lld", (long long)ws);
        return NULL;
    }
    mt_store *s;
    Py_BEGIN_ALLOW_THREADS
    s = mt_tcp_store_new_auth(host, lfd >= 0 ? 0 : (int)port, (int)lfd, (int)ws,
                              lfd >= 0 || master != 0, tmo, wait != 0, tok, (size_t)toklen);
    Py_END_ALLOW_THREADS
    if (s == NULL) {
        int code = mt_error_code();
        return mt__dist_raise(code, code == MT_ETIMEOUT ? mt__DistStoreError
                                                        : mt__DistNetworkError);
    }
    return mt__store_attach(self, s);
}

/* _init_file(path, world_size, timeout_ms) */
static PyObject *
mt_py_store_init_file(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kw)
{
    static const char *const names[] = {"path", "world_size", "timeout_ms", NULL};
    PyObject *a[3];
    if (mt__parse_args("FileStore", args, nargs, kw, names, 3, 3, a) < 0) {
        return NULL;
    }
    PyObject *path = NULL;
    if (!PyUnicode_FSConverter(a[0], &path)) {
        return NULL;
    }
    int64_t ws, tmo;
    if (mt__int64_from_py(a[1], &ws, "FileStore", "world_size") < 0 ||
        mt__int64_from_py(a[2], &tmo, "FileStore", "timeout") < 0) {
        Py_DECREF(path);
        return NULL;
    }
    if (ws > INT32_MAX || ws < -1) {
        Py_DECREF(path);
        PyErr_Format(PyExc_ValueError, "FileStore(): invalid world_size %lld", (long long)ws);
        return NULL;
    }
    mt_store *s;
    Py_BEGIN_ALLOW_THREADS
    s = mt_file_store_new(PyBytes_AS_STRING(path), (int)ws, tmo);
    Py_END_ALLOW_THREADS
    Py_DECREF(path);
    if (s == NULL) {
        return mt__dist_raise(0, mt__DistStoreError);
    }
    return mt__store_attach(self, s);
}

static PyObject *
mt_py_store_init_hash(PyObject *self, PyObject *arg)
{
    int64_t tmo;
    if (mt__int64_from_py(arg, &tmo, "HashStore", "timeout") < 0) {
        return NULL;
    }
    mt_store *s = mt_hash_store_new(tmo);
    if (s == NULL) {
        return mt__raise(0);
    }
    return mt__store_attach(self, s);
}

/* _init_prefix(prefix, store) */
static PyObject *
mt_py_store_init_prefix(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kw)
{
    static const char *const names[] = {"prefix", "store", NULL};
    PyObject *a[2];
    if (mt__parse_args("PrefixStore", args, nargs, kw, names, 2, 2, a) < 0) {
        return NULL;
    }
    if (!PyUnicode_Check(a[0])) {
        PyErr_Format(PyExc_TypeError, "PrefixStore(): prefix must be str, not %s",
                     Py_TYPE(a[0])->tp_name);
        return NULL;
    }
    const char *prefix = PyUnicode_AsUTF8(a[0]);
    if (prefix == NULL) {
        return NULL;
    }
    mt_store *inner = mt__store_from_py(a[1], "PrefixStore");
    if (inner == NULL) {
        return NULL;
    }
    mt_store *s = mt_prefix_store_new(prefix, inner);
    if (s == NULL) {
        return mt__raise(0);
    }
    return mt__store_attach(self, s);
}

/* The value a store call returned in malloc'd `out` as bytes (frees it), or
 * the store's error when rc < 0. */
static PyObject *
mt__bytes_result(int rc, char *out, size_t outlen)
{
    if (rc < 0) {
        free(out);
        return mt__dist_raise(rc, mt__DistStoreError);
    }
    PyObject *r = PyBytes_FromStringAndSize(out, (Py_ssize_t)outlen);
    free(out);
    return r;
}

static PyObject *
mt_py_store_set(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kw)
{
    static const char *const names[] = {"key", "value", NULL};
    PyObject *a[2];
    if (mt__parse_args("set", args, nargs, kw, names, 2, 2, a) < 0) {
        return NULL;
    }
    mt_store *s = mt__store_from_py(self, "set");
    const char *k, *v;
    Py_ssize_t kn, vn;
    PyObject *tmp;
    if (s == NULL || mt__key_arg(a[0], &k, &kn, "set") < 0 ||
        mt__bytes_arg(a[1], &v, &vn, &tmp, "set", "value") < 0) {
        return NULL;
    }
    int rc;
    Py_BEGIN_ALLOW_THREADS
    rc = mt_store_set(s, k, (size_t)kn, v, (size_t)vn);
    Py_END_ALLOW_THREADS
    Py_XDECREF(tmp);
    if (rc < 0) {
        return mt__dist_raise(rc, mt__DistStoreError);
    }
    Py_RETURN_NONE;
}

static PyObject *
mt_py_store_get(PyObject *self, PyObject *arg)
{
    mt_store *s = mt__store_from_py(self, "get");
    const char *k;
    Py_ssize_t kn;
    if (s == NULL || mt__key_arg(arg, &k, &kn, "get") < 0) {
        return NULL;
    }
    char *out = NULL;
    size_t outlen = 0;
    int rc;
    Py_BEGIN_ALLOW_THREADS
    rc = mt_store_get(s, k, (size_t)kn, -1, &out, &outlen);
    Py_END_ALLOW_THREADS
    return mt__bytes_result(rc, out, outlen);
}

static PyObject *
mt_py_store_add(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kw)
{
    static const char *const names[] = {"key", "value", NULL};
    PyObject *a[2];
    if (mt__parse_args("add", args, nargs, kw, names, 2, 2, a) < 0) {
        return NULL;
    }
    mt_store *s = mt__store_from_py(self, "add");
    const char *k;
    Py_ssize_t kn;
    if (s == NULL || mt__key_arg(a[0], &k, &kn, "add") < 0) {
        return NULL;
    }
    if (!PyLong_Check(a[1])) {
        PyErr_Format(PyExc_TypeError, "add(): value must be int, not %s",
                     Py_TYPE(a[1])->tp_name);
        return NULL;
    }
    int64_t delta;
    if (mt__int64_from_py(a[1], &delta, "add", "value") < 0) {
        return NULL;
    }
    int64_t out = 0;
    int rc;
    Py_BEGIN_ALLOW_THREADS
    rc = mt_store_add(s, k, (size_t)kn, delta, &out);
    Py_END_ALLOW_THREADS
    if (rc < 0) {
        return mt__dist_raise(rc, mt__DistStoreError);
    }
    return PyLong_FromLongLong(out);
}

static PyObject *
mt_py_store_compare_set(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kw)
{
    static const char *const names[] = {"key", "expected_value", "desired_value", NULL};
    PyObject *a[3];
    if (mt__parse_args("compare_set", args, nargs, kw, names, 3, 3, a) < 0) {
        return NULL;
    }
    mt_store *s = mt__store_from_py(self, "compare_set");
    const char *k, *e, *d;
    Py_ssize_t kn, en, dn;
    PyObject *t1 = NULL, *t2 = NULL;
    if (s == NULL || mt__key_arg(a[0], &k, &kn, "compare_set") < 0 ||
        mt__bytes_arg(a[1], &e, &en, &t1, "compare_set", "expected_value") < 0) {
        return NULL;
    }
    if (mt__bytes_arg(a[2], &d, &dn, &t2, "compare_set", "desired_value") < 0) {
        Py_XDECREF(t1);
        return NULL;
    }
    char *out = NULL;
    size_t outlen = 0;
    int rc;
    Py_BEGIN_ALLOW_THREADS
    rc = mt_store_compare_set(s, k, (size_t)kn, e, (size_t)en, d, (size_t)dn, &out, &outlen);
    Py_END_ALLOW_THREADS
    Py_XDECREF(t1);
    Py_XDECREF(t2);
    return mt__bytes_result(rc, out, outlen);
}

/* keys: a list of str. Fills ptrs/lens (PyMem arrays, caller frees). */
static int
mt__keys_arg(PyObject *o, const char ***ptrs, size_t **lens, int *n, const char *fname)
{
    if (!PyList_Check(o) && !PyTuple_Check(o)) {
        PyErr_Format(PyExc_TypeError, "%s(): keys must be a list of str, not %s", fname,
                     Py_TYPE(o)->tp_name);
        return -1;
    }
    Py_ssize_t m = PySequence_Fast_GET_SIZE(o);
    if (m > INT32_MAX) {
        PyErr_Format(PyExc_ValueError, "%s(): too many keys", fname);
        return -1;
    }
    *ptrs = PyMem_Malloc(sizeof(char *) * (size_t)(m + 1));
    *lens = PyMem_Malloc(sizeof(size_t) * (size_t)(m + 1));
    if (*ptrs == NULL || *lens == NULL) {
        PyMem_Free(*ptrs);
        PyMem_Free(*lens);
        PyErr_NoMemory();
        return -1;
    }
    for (Py_ssize_t i = 0; i < m; i++) {
        Py_ssize_t kn;
        if (mt__key_arg(PySequence_Fast_GET_ITEM(o, i), &(*ptrs)[i], &kn, fname) < 0) {
            PyMem_Free(*ptrs);
            PyMem_Free(*lens);
            return -1;
        }
        (*lens)[i] = (size_t)kn;
    }
    *n = (int)m;
    return 0;
}

static PyObject *
mt_py_store_wait(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kw)
{
    static const char *const names[] = {"keys", "timeout", NULL};
    PyObject *a[2] = {NULL, NULL};
    if (mt__parse_args("wait", args, nargs, kw, names, 2, 1, a) < 0) {
        return NULL;
    }
    mt_store *s = mt__store_from_py(self, "wait");
    int64_t tmo;
    if (s == NULL || mt__timeout_ms_from_py(a[1], -1, &tmo, "wait") < 0) {
        return NULL;
    }
    const char **ptrs;
    size_t *lens;
    int n;
    if (mt__keys_arg(a[0], &ptrs, &lens, &n, "wait") < 0) {
        return NULL;
    }
    int rc;
    Py_BEGIN_ALLOW_THREADS
    rc = mt_store_wait(s, n, ptrs, lens, tmo);
    Py_END_ALLOW_THREADS
    PyMem_Free(ptrs);
    PyMem_Free(lens);
    if (rc < 0) {
        return mt__dist_raise(rc, mt__DistStoreError);
    }
    Py_RETURN_NONE;
}

/* _multi_get(keys) -> [bytes]: every key's value, waited for (one request on a TCPStore) */
static PyObject *
mt_py_store_multi_get(PyObject *self, PyObject *arg)
{
    mt_store *s = mt__store_from_py(self, "multi_get");
    const char **ptrs;
    size_t *lens;
    int n;
    if (s == NULL || mt__keys_arg(arg, &ptrs, &lens, &n, "multi_get") < 0) {
        return NULL;
    }
    char **vals = PyMem_Calloc((size_t)n + 1, sizeof(*vals));
    size_t *vlens = PyMem_Calloc((size_t)n + 1, sizeof(*vlens));
    PyObject *res = NULL;
    if (vals == NULL || vlens == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    int rc;
    Py_BEGIN_ALLOW_THREADS
    rc = mt_store_multi_get(s, n, ptrs, lens, -1, vals, vlens);
    Py_END_ALLOW_THREADS
    if (rc < 0) {
        mt__dist_raise(rc, mt__DistStoreError);
        goto done;
    }
    res = PyList_New(n);
    for (int i = 0; i < n; i++) {
        PyObject *b = res != NULL ? PyBytes_FromStringAndSize(vals[i], (Py_ssize_t)vlens[i]) : NULL;
        free(vals[i]);
        if (res != NULL && b == NULL) {
            Py_CLEAR(res);
        }
        if (res != NULL) {
            PyList_SET_ITEM(res, i, b);
        }
    }
done:
    PyMem_Free(vals);
    PyMem_Free(vlens);
    PyMem_Free(ptrs);
    PyMem_Free(lens);
    return res;
}

static PyObject *
mt_py_store_check(PyObject *self, PyObject *arg)
{
    mt_store *s = mt__store_from_py(self, "check");
    const char **ptrs;
    size_t *lens;
    int n;
    if (s == NULL || mt__keys_arg(arg, &ptrs, &lens, &n, "check") < 0) {
        return NULL;
    }
    int rc, out = 0;
    Py_BEGIN_ALLOW_THREADS
    rc = mt_store_check(s, n, ptrs, lens, &out);
    Py_END_ALLOW_THREADS
    PyMem_Free(ptrs);
    PyMem_Free(lens);
    if (rc < 0) {
        return mt__dist_raise(rc, mt__DistStoreError);
    }
    return PyBool_FromLong(out);
}

static PyObject *
mt_py_store_delete_key(PyObject *self, PyObject *arg)
{
    mt_store *s = mt__store_from_py(self, "delete_key");
    const char *k;
    Py_ssize_t kn;
    if (s == NULL || mt__key_arg(arg, &k, &kn, "delete_key") < 0) {
        return NULL;
    }
    int rc, out = 0;
    Py_BEGIN_ALLOW_THREADS
    rc = mt_store_delete_key(s, k, (size_t)kn, &out);
    Py_END_ALLOW_THREADS
    if (rc < 0) {
        return mt__dist_raise(rc, mt__DistStoreError);
    }
    return PyBool_FromLong(out);
}

/* _compare_delete(key, expected) -> bool: removes key if it holds expected */
static PyObject *
mt_py_store_compare_delete(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kw)
{
    static const char *const names[] = {"key", "expected_value", NULL};
    PyObject *a[2];
    if (mt__parse_args("compare_delete", args, nargs, kw, names, 2, 2, a) < 0) {
        return NULL;
    }
    mt_store *s = mt__store_from_py(self, "compare_delete");
    const char *k, *e;
    Py_ssize_t kn, en;
    PyObject *tmp;
    if (s == NULL || mt__key_arg(a[0], &k, &kn, "compare_delete") < 0 ||
        mt__bytes_arg(a[1], &e, &en, &tmp, "compare_delete", "expected_value") < 0) {
        return NULL;
    }
    int rc, out = 0;
    Py_BEGIN_ALLOW_THREADS
    rc = mt_store_compare_delete(s, k, (size_t)kn, e, (size_t)en, &out);
    Py_END_ALLOW_THREADS
    Py_XDECREF(tmp);
    if (rc < 0) {
        return mt__dist_raise(rc, mt__DistStoreError);
    }
    return PyBool_FromLong(out);
}

static PyObject *
mt_py_store_num_keys(PyObject *self, PyObject *unused)
{
    mt_store *s = mt__store_from_py(self, "num_keys");
    if (s == NULL) {
        return NULL;
    }
    int64_t out = 0;
    int rc;
    Py_BEGIN_ALLOW_THREADS
    rc = mt_store_num_keys(s, &out);
    Py_END_ALLOW_THREADS
    if (rc < 0) {
        return mt__dist_raise(rc, mt__DistStoreError);
    }
    return PyLong_FromLongLong(out);
}

static PyObject *
mt_py_store_set_timeout_ms(PyObject *self, PyObject *arg)
{
    mt_store *s = mt__store_from_py(self, "set_timeout");
    int64_t ms;
    if (s == NULL || mt__int64_from_py(arg, &ms, "set_timeout", "timeout") < 0) {
        return NULL;
    }
    if (mt_store_set_timeout(s, ms) < 0) {
        return mt__raise(0);
    }
    Py_RETURN_NONE;
}

static PyObject *
mt_py_store_timeout_ms(PyObject *self, PyObject *unused)
{
    mt_store *s = mt__store_from_py(self, "timeout");
    return s == NULL ? NULL : PyLong_FromLongLong(mt_store_timeout_ms(s));
}

static PyObject *
mt_py_store_tcp_port(PyObject *self, PyObject *unused)
{
    mt_store *s = mt__store_from_py(self, "port");
    return s == NULL ? NULL : PyLong_FromLong(mt_tcp_store_port(s));
}

static PyObject *
mt_py_store_tcp_host(PyObject *self, PyObject *unused)
{
    mt_store *s = mt__store_from_py(self, "host");
    if (s == NULL) {
        return NULL;
    }
    const char *h = mt_tcp_store_host(s);
    if (h == NULL) {
        Py_RETURN_NONE;
    }
    return PyUnicode_FromString(h);
}

static PyObject *
mt_py_store_is_initialised(PyObject *self, PyObject *unused)
{
    return PyBool_FromLong(((MTStoreObject *)self)->store != NULL);
}

static void
mt_store_obj_dealloc(PyObject *self)
{
    MTStoreObject *so = (MTStoreObject *)self;
    PyTypeObject *tp = Py_TYPE(self);
    PyObject_GC_UnTrack(self);
    if (so->store != NULL) {
        mt_store *s = so->store;
        so->store = NULL;
        /* closing a TCPStore master joins its server thread */
        Py_BEGIN_ALLOW_THREADS
        mt_store_decref(s);
        Py_END_ALLOW_THREADS
    }
    tp->tp_free(self);
    Py_DECREF(tp);
}

static int
mt_store_obj_traverse(PyObject *self, visitproc visit, void *arg)
{
    Py_VISIT(Py_TYPE(self));
    return 0;
}

static PyMethodDef mt_store_methods[] = {
    {"_init_tcp", FASTKW(mt_py_store_init_tcp), NULL},
    {"_init_file", FASTKW(mt_py_store_init_file), NULL},
    {"_init_hash", mt_py_store_init_hash, METH_O, NULL},
    {"_init_prefix", FASTKW(mt_py_store_init_prefix), NULL},
    {"_is_initialised", mt_py_store_is_initialised, METH_NOARGS, NULL},
    {"set", FASTKW(mt_py_store_set), "set(key, value): store value (str or bytes) under key."},
    {"get", mt_py_store_get, METH_O,
     "get(key) -> bytes: the value of key, waiting up to the store's timeout for it."},
    {"add", FASTKW(mt_py_store_add),
     "add(key, value) -> int: adds value to the integer stored under key (0 if missing)."},
    {"compare_set", FASTKW(mt_py_store_compare_set),
     "compare_set(key, expected_value, desired_value) -> bytes"},
    {"wait", FASTKW(mt_py_store_wait),
     "wait(keys, timeout=None): waits until every key exists."},
    {"check", mt_py_store_check, METH_O, "check(keys) -> bool: whether every key exists."},
    {"delete_key", mt_py_store_delete_key, METH_O, "delete_key(key) -> bool"},
    {"num_keys", mt_py_store_num_keys, METH_NOARGS, "num_keys() -> int"},
    {"_multi_get", mt_py_store_multi_get, METH_O, NULL},
    {"_compare_delete", FASTKW(mt_py_store_compare_delete), NULL},
    {"_set_timeout_ms", mt_py_store_set_timeout_ms, METH_O, NULL},
    {"_timeout_ms", mt_py_store_timeout_ms, METH_NOARGS, NULL},
    {"_tcp_port", mt_py_store_tcp_port, METH_NOARGS, NULL},
    {"_tcp_host", mt_py_store_tcp_host, METH_NOARGS, NULL},
    {NULL},
};

static PyType_Slot mt_store_slots[] = {
    {Py_tp_dealloc, mt_store_obj_dealloc},
    {Py_tp_traverse, mt_store_obj_traverse},
    {Py_tp_methods, mt_store_methods},
    {Py_tp_new, PyType_GenericNew},
    {Py_tp_doc, "Base class of the key/value stores used to rendezvous ranks."},
    {0, NULL},
};

static PyType_Spec mt_store_spec = {
    .name = "minitorch._C._c10d.Store",
    .basicsize = sizeof(MTStoreObject),
    .flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE | Py_TPFLAGS_HAVE_GC,
    .slots = mt_store_slots,
};

static PyObject *
mt__new_exception(PyObject *module, const char *name, PyObject *base, const char *doc)
{
    char full[128];
    snprintf(full, sizeof(full), "minitorch.distributed.%s", name);
    PyObject *e = PyErr_NewExceptionWithDoc(full, doc, base, NULL);
    if (e == NULL) {
        return NULL;
    }
    if (PyModule_AddObjectRef(module, name, e) < 0) {
        Py_DECREF(e);
        return NULL;
    }
    return e; /* the creation reference: kept by the mt__Dist* globals for the process */
}

int
mt__store_binding_init(PyObject *module)
{
    mt__Store_Type = (PyTypeObject *)PyType_FromModuleAndSpec(module, &mt_store_spec, NULL);
    if (mt__Store_Type == NULL || PyModule_AddObjectRef(module, "Store",
                                                        (PyObject *)mt__Store_Type) < 0) {
        return -1;
    }
    mt__DistError = mt__new_exception(module, "DistError", PyExc_RuntimeError,
                                      "Raised when an error occurs in the distributed library.");
    if (mt__DistError == NULL) {
        return -1;
    }
    mt__DistBackendError = mt__new_exception(module, "DistBackendError", mt__DistError,
                                             "Raised when a backend error occurs.");
    mt__DistStoreError = mt__new_exception(module, "DistStoreError", mt__DistError,
                                           "Raised when an error occurs in a store.");
    mt__DistNetworkError = mt__new_exception(module, "DistNetworkError", mt__DistError,
                                             "Raised when a network error occurs.");
    if (mt__DistBackendError == NULL || mt__DistStoreError == NULL ||
        mt__DistNetworkError == NULL) {
        return -1;
    }
    return 0;
}
