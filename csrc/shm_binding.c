/* csrc/shm_binding.c - shared-memory storages for minitorch.multiprocessing (see c10_lite/shm.h). */
#include "csrc/common.h"

#include "c10_lite/shm.h"

/* The mt_storage of a storage object (borrowed), or NULL with TypeError. */
static mt_storage *
mt__storage_arg(PyObject *o, const char *fname)
{
    mt_storage *s;
    mt_dtype dt;
    int typed;
    if (mt__storage_parts(o, &s, &dt, &typed) < 0) {
        PyErr_Format(PyExc_TypeError, "%s(): expected a Storage, got %s", fname,
                     Py_TYPE(o)->tp_name);
        return NULL;
    }
    return s;
}

static int
mt__kind_arg(PyObject *o, mt_shm_kind *kind)
{
    const char *k = PyUnicode_Check(o) ? PyUnicode_AsUTF8(o) : NULL;
    if (k != NULL && strcmp(k, "file_descriptor") == 0) {
        *kind = MT_SHM_FD;
        return 0;
    }
    if (k != NULL && strcmp(k, "file_system") == 0) {
        *kind = MT_SHM_NAMED;
        return 0;
    }
    if (!PyErr_Occurred()) {
        PyErr_Format(PyExc_ValueError,
                     "sharing strategy must be 'file_descriptor' or 'file_system', not %R", o);
    }
    return -1;
}

/* _share_storage_(storage, strategy): moves the storage into shared memory in
 * place (nothing when it is shared already).  Returns None. */
static PyObject *
mt_py_share_storage(PyObject *m, PyObject *args)
{
    PyObject *so, *ko;
    mt_shm_kind kind;
    if (!PyArg_ParseTuple(args, "OO:_share_storage_", &so, &ko) || mt__kind_arg(ko, &kind) < 0) {
        return NULL;
    }
    mt_storage *s = mt__storage_arg(so, "_share_storage_");
    if (s == NULL) {
        return NULL;
    }
    if (mt_storage_share_(s, kind) < 0) {
        return mt__raise(0);
    }
    Py_RETURN_NONE;
}

/* _shm_info(storage) -> None when not shared, else
 * (strategy, fd or -1, inode, nbytes, name or ""); fd stays the storage's. */
static PyObject *
mt_py_shm_info(PyObject *m, PyObject *so)
{
    mt_storage *s = mt__storage_arg(so, "_shm_info");
    if (s == NULL) {
        return NULL;
    }
    const mt_shm *sh = mt_storage_shm(s);
    if (sh == NULL) {
        Py_RETURN_NONE;
    }
    return Py_BuildValue("(siKns)", sh->kind == MT_SHM_FD ? "file_descriptor" : "file_system",
                         sh->fd, (unsigned long long)sh->inode, (Py_ssize_t)sh->nbytes, sh->name);
}

static PyObject *
mt__wrap_untyped(mt_storage *s)
{
    if (s == NULL) {
        return mt__raise(0);
    }
    PyObject *r = mt__storage_wrap(s, MT_UINT8, 0);
    mt_storage_decref(s); /* the object took its own reference */
    return r;
}

/* _shm_new(nbytes, strategy) -> UntypedStorage of zeros in a new segment. */
static PyObject *
mt_py_shm_new(PyObject *m, PyObject *args)
{
    Py_ssize_t n;
    PyObject *ko;
    mt_shm_kind kind;
    if (!PyArg_ParseTuple(args, "nO:_shm_new", &n, &ko) || mt__kind_arg(ko, &kind) < 0) {
        return NULL;
    }
    if (n < 0) {
        PyErr_Format(PyExc_ValueError, "_shm_new: negative size %zd", n);
        return NULL;
    }
    mt_storage *s;
    Py_BEGIN_ALLOW_THREADS
    s = mt_shm_storage_new((size_t)n, kind);
    Py_END_ALLOW_THREADS
    return mt__wrap_untyped(s);
}

/* _shm_from_fd(fd, nbytes) -> UntypedStorage mapping that descriptor segment
 * (the descriptor is duplicated; the caller still owns fd). */
static PyObject *
mt_py_shm_from_fd(PyObject *m, PyObject *args)
{
    int fd;
    Py_ssize_t n;
    if (!PyArg_ParseTuple(args, "in:_shm_from_fd", &fd, &n)) {
        return NULL;
    }
    if (n < 0) {
        PyErr_Format(PyExc_ValueError, "_shm_from_fd: negative size %zd", n);
        return NULL;
    }
    return mt__wrap_untyped(mt_shm_storage_from_fd(fd, (size_t)n));
}

/* _shm_open(name, nbytes) -> UntypedStorage mapping a named segment, taking
 * over the reference its handle holds. */
static PyObject *
mt_py_shm_open(PyObject *m, PyObject *args)
{
    const char *name;
    Py_ssize_t n;
    if (!PyArg_ParseTuple(args, "sn:_shm_open", &name, &n)) {
        return NULL;
    }
    if (n < 0) {
        PyErr_Format(PyExc_ValueError, "_shm_open: negative size %zd", n);
        return NULL;
    }
    return mt__wrap_untyped(mt_shm_storage_open(name, (size_t)n));
}

/* _shm_lookup(inode) -> the UntypedStorage of this process mapping that
 * segment, or None. */
static PyObject *
mt_py_shm_lookup(PyObject *m, PyObject *arg)
{
    unsigned long long inode = PyLong_AsUnsignedLongLong(arg);
    if (inode == (unsigned long long)-1 && PyErr_Occurred()) {
        return NULL;
    }
    mt_storage *s = mt_shm_storage_lookup((uint64_t)inode);
    if (s == NULL) {
        Py_RETURN_NONE;
    }
    return mt__wrap_untyped(s);
}

/* _shm_ref_for_handle(storage): one more reference on a named segment, for a
 * handle about to leave this process. */
static PyObject *
mt_py_shm_ref_for_handle(PyObject *m, PyObject *so)
{
    mt_storage *s = mt__storage_arg(so, "_shm_ref_for_handle");
    if (s == NULL) {
        return NULL;
    }
    if (mt_shm_ref_for_handle(s) < 0) {
        return mt__raise(0);
    }
    Py_RETURN_NONE;
}

/* _shm_unref_name(name): gives back the reference of a handle never opened. */
static PyObject *
mt_py_shm_unref_name(PyObject *m, PyObject *args)
{
    const char *name;
    if (!PyArg_ParseTuple(args, "s:_shm_unref_name", &name)) {
        return NULL;
    }
    mt_shm_unref_name(name);
    Py_RETURN_NONE;
}

/* _shm_region(segment, offset, nbytes, flag_offset) -> UntypedStorage over
 * those bytes of the shared storage `segment` that clears the flag word when
 * it dies (Note [Shared regions]). */
static PyObject *
mt_py_shm_region(PyObject *m, PyObject *args)
{
    PyObject *so;
    Py_ssize_t off, n, flag;
    if (!PyArg_ParseTuple(args, "Onnn:_shm_region", &so, &off, &n, &flag)) {
        return NULL;
    }
    mt_storage *seg = mt__storage_arg(so, "_shm_region");
    if (seg == NULL) {
        return NULL;
    }
    if (off < 0 || n < 0 || flag < 0) {
        PyErr_SetString(PyExc_ValueError, "_shm_region: negative offset or size");
        return NULL;
    }
    return mt__wrap_untyped(mt_shm_region(seg, (size_t)off, (size_t)n, (size_t)flag));
}

/* _shm_detach_named(): see mt_shm_detach_named (run at exit). */
static PyObject *
mt_py_shm_detach_named(PyObject *m, PyObject *unused)
{
    mt_shm_detach_named();
    Py_RETURN_NONE;
}

static PyMethodDef mt_shm_functions[] = {
    {"_shm_detach_named", mt_py_shm_detach_named, METH_NOARGS, NULL},
    {"_shm_region", mt_py_shm_region, METH_VARARGS, NULL},
    {"_share_storage_", mt_py_share_storage, METH_VARARGS, NULL},
    {"_shm_info", mt_py_shm_info, METH_O, NULL},
    {"_shm_new", mt_py_shm_new, METH_VARARGS, NULL},
    {"_shm_from_fd", mt_py_shm_from_fd, METH_VARARGS, NULL},
    {"_shm_open", mt_py_shm_open, METH_VARARGS, NULL},
    {"_shm_lookup", mt_py_shm_lookup, METH_O, NULL},
    {"_shm_ref_for_handle", mt_py_shm_ref_for_handle, METH_O, NULL},
    {"_shm_unref_name", mt_py_shm_unref_name, METH_VARARGS, NULL},
    {NULL},
};

int
mt__shm_binding_init(PyObject *module)
{
    return PyModule_AddFunctions(module, mt_shm_functions);
}
