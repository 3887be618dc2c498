/* csrc/distributed/mpi_binding.c - MPI as Python sees it: whether the library loads (Note [Loading MPI]), the MPI process groups (Note [MPI process groups]), finalisation at exit. */
#include "csrc/distributed/binding.h"
#include "csrc/distributed/mpi/mpi_lib.h"

#include <limits.h>

#define FAST(name) (PyCFunction)(void (*)(void))name, METH_FASTCALL

/* _mpi_unavailable_reason() -> None when MPI loads, else why not (a str) */
static PyObject *
mt_py_mpi_unavailable_reason(PyObject *m, PyObject *unused)
{
    const mt_mpi_api *api;
    Py_BEGIN_ALLOW_THREADS
    api = mt_mpi_load();
    Py_END_ALLOW_THREADS
    if (api != NULL) {
        Py_RETURN_NONE;
    }
    return PyUnicode_FromString(mt_error_message());
}

static const mt_mpi_api *
mt__mpi(void)
{
    const mt_mpi_api *api;
    Py_BEGIN_ALLOW_THREADS
    api = mt_mpi_load();
    Py_END_ALLOW_THREADS
    if (api == NULL) {
        mt__raise(MT_ERUNTIME);
    }
    return api;
}

/* _mpi_library() -> the path of the loaded library (RuntimeError when it cannot load) */
static PyObject *
mt_py_mpi_library(PyObject *m, PyObject *unused)
{
    const mt_mpi_api *api = mt__mpi();
    return api ? PyUnicode_DecodeFSDefault(api->path) : NULL;
}

/* _mpi_version() -> MPI_Get_library_version's text */
static PyObject *
mt_py_mpi_version(PyObject *m, PyObject *unused)
{
    const mt_mpi_api *api = mt__mpi();
    if (api == NULL) {
        return NULL;
    }
    static char buf[MT_MPI_LIBVER_MAX];
    int len = 0;
    if (api->Get_library_version(buf, &len) != MT_MPI_SUCCESS || len < 0) {
        len = 0;
    }
    while (len > 0 && (buf[len - 1] == '\n' || buf[len - 1] == '\0')) {
        len--;
    }
    return PyUnicode_DecodeUTF8(buf, len, "replace");
}

static PyObject *
mt__mpi_group_result(mt_pg *pg)
{
    if (pg == NULL) {
        return mt__dist_raise(mt_error_code(), mt__DistBackendError);
    }
    return mt__pg_wrap(pg);
}

/* An int argument (OverflowError beyond int). */
static int
mt__int_of(PyObject *o, int *out)
{
    long v = PyLong_AsLong(o);
    if (v == -1 && PyErr_Occurred()) {
        return -1;
    }
    if (v < INT_MIN || v > INT_MAX) {
        PyErr_SetString(PyExc_OverflowError, "value does not fit an int");
        return -1;
    }
    *out = (int)v;
    return 0;
}

static int
mt__ms_arg(PyObject *o, int64_t *out, const char *fname)
{
    long long v = PyLong_AsLongLong(o);
    if (v == -1 && PyErr_Occurred()) {
        return -1;
    }
    *out = (int64_t)v;
    (void)fname;
    return 0;
}

/* _mpi_world(timeout_ms) -> C ProcessGroup of the whole MPI job (initialises MPI) */
static PyObject *
mt_py_mpi_world(PyObject *m, PyObject *arg)
{
    int64_t ms;
    if (mt__ms_arg(arg, &ms, "_mpi_world") < 0) {
        return NULL;
    }
    if (mt__mpi() == NULL) {
        return NULL;
    }
    mt_pg *pg;
    Py_BEGIN_ALLOW_THREADS
    pg = mt_pg_new_mpi(ms);
    Py_END_ALLOW_THREADS
    return mt__mpi_group_result(pg);
}

/* _mpi_split(parent, color, key, timeout_ms) -> C ProcessGroup, or None (color < 0) */
static PyObject *
mt_py_mpi_split(PyObject *m, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 4) {
        PyErr_SetString(PyExc_TypeError, "_mpi_split(parent, color, key, timeout_ms)");
        return NULL;
    }
    mt_pg *parent = mt__pg_from_py(args[0], "_mpi_split");
    if (parent == NULL) {
        return NULL;
    }
    int color, key;
    int64_t ms;
    if (mt__int_of(args[1], &color) < 0 || mt__int_of(args[2], &key) < 0 ||
        mt__ms_arg(args[3], &ms, "_mpi_split") < 0) {
        return NULL;
    }
    mt_pg *pg;
    bool member;
    Py_BEGIN_ALLOW_THREADS
    mt_error_clear();
    pg = mt_pg_mpi_split(parent, color, key, ms, &member);
    Py_END_ALLOW_THREADS
    if (pg == NULL && !member && mt_error_code() == 0) {
        Py_RETURN_NONE;
    }
    return mt__mpi_group_result(pg);
}

/* _mpi_create_group(parent, ranks, tag, timeout_ms) -> C ProcessGroup of parent's `ranks`
 * (only they call it) */
static PyObject *
mt_py_mpi_create_group(PyObject *m, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 4) {
        PyErr_SetString(PyExc_TypeError, "_mpi_create_group(parent, ranks, tag, timeout_ms)");
        return NULL;
    }
    mt_pg *parent = mt__pg_from_py(args[0], "_mpi_create_group");
    if (parent == NULL) {
        return NULL;
    }
    PyObject *seq = PySequence_Fast(args[1], "_mpi_create_group: ranks must be a sequence");
    if (seq == NULL) {
        return NULL;
    }
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    int *ranks = PyMem_Malloc((size_t)(n ? n : 1) * sizeof(int));
    if (ranks == NULL) {
        Py_DECREF(seq);
        return PyErr_NoMemory();
    }
    int bad = 0;
    for (Py_ssize_t i = 0; i < n && !bad; i++) {
        bad = mt__int_of(PySequence_Fast_GET_ITEM(seq, i), &ranks[i]) < 0;
    }
    Py_DECREF(seq);
    int tag;
    int64_t ms;
    if (bad || mt__int_of(args[2], &tag) < 0 ||
        mt__ms_arg(args[3], &ms, "_mpi_create_group") < 0) {
        PyMem_Free(ranks);
        return NULL;
    }
    mt_pg *pg;
    Py_BEGIN_ALLOW_THREADS
    pg = mt_pg_mpi_create_group(parent, ranks, (int)n, tag, ms);
    Py_END_ALLOW_THREADS
    PyMem_Free(ranks);
    return mt__mpi_group_result(pg);
}

/* _mpi_finalize() -> whether MPI_Finalize was called (only when minitorch initialised MPI) */
static PyObject *
mt_py_mpi_finalize(PyObject *m, PyObject *unused)
{
    int done;
    Py_BEGIN_ALLOW_THREADS
    done = mt_mpi_finalize();
    Py_END_ALLOW_THREADS
    return PyBool_FromLong(done);
}

static PyMethodDef mt_mpi_functions[] = {
    {"_mpi_unavailable_reason", mt_py_mpi_unavailable_reason, METH_NOARGS, NULL},
    {"_mpi_library", mt_py_mpi_library, METH_NOARGS, NULL},
    {"_mpi_version", mt_py_mpi_version, METH_NOARGS, NULL},
    {"_mpi_world", mt_py_mpi_world, METH_O, NULL},
    {"_mpi_split", FAST(mt_py_mpi_split), NULL},
    {"_mpi_create_group", FAST(mt_py_mpi_create_group), NULL},
    {"_mpi_finalize", mt_py_mpi_finalize, METH_NOARGS, NULL},
    {NULL},
};

int
mt__mpi_binding_init(PyObject *module)
{
    return PyModule_AddFunctions(module, mt_mpi_functions);
}
