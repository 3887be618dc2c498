/* csrc/distributed/nccl_binding.c - NCCL's library as Python sees it (Note [Loading NCCL]):
 * whether it loads, its version, unique ids, its error strings. */
#include "csrc/distributed/binding.h"
#include "csrc/distributed/nccl/nccl_lib.h"

#ifdef MT_WITH_NCCL
static const mt_nccl_api *
mt__nccl(void)
{
    const mt_nccl_api *api = mt_nccl_load();
    if (api == NULL) {
        mt__raise(MT_ERUNTIME);
    }
    return api;
}

/* _nccl_version() -> int (ncclGetVersion's code); RuntimeError saying why when NCCL cannot
 * be loaded */
static PyObject *
mt_py_nccl_version(PyObject *m, PyObject *unused)
{
    const mt_nccl_api *api = mt__nccl();
    return api ? PyLong_FromLong(api->version) : NULL;
}

/* _nccl_library() -> the path of the loaded library */
static PyObject *
mt_py_nccl_library(PyObject *m, PyObject *unused)
{
    const mt_nccl_api *api = mt__nccl();
    return api ? PyUnicode_DecodeFSDefault(api->path) : NULL;
}

/* _nccl_unique_id() -> bytes: a new ncclUniqueId (rank 0 makes it, the store carries it) */
static PyObject *
mt_py_nccl_unique_id(PyObject *m, PyObject *unused)
{
    const mt_nccl_api *api = mt__nccl();
    if (api == NULL) {
        return NULL;
    }
    ncclUniqueId id;
    ncclResult_t rc;
    Py_BEGIN_ALLOW_THREADS
    rc = api->GetUniqueId(&id);
    Py_END_ALLOW_THREADS
    if (mt_nccl_error(api, rc, "ncclGetUniqueId") < 0) {
        return mt__raise(MT_ERUNTIME);
    }
    return PyBytes_FromStringAndSize(id.internal, sizeof(id.internal));
}

/* _nccl_check(code, what): raises the RuntimeError an NCCL result code turns into (None for
 * ncclSuccess) */
static PyObject *
mt_py_nccl_check(PyObject *m, PyObject *args)
{
    int code;
    const char *what;
    if (!PyArg_ParseTuple(args, "is:_nccl_check", &code, &what)) {
        return NULL;
    }
    const mt_nccl_api *api = mt__nccl();
    if (api == NULL) {
        return NULL;
    }
    if (mt_nccl_error(api, (ncclResult_t)code, what) < 0) {
        return mt__raise(MT_ERUNTIME);
    }
    Py_RETURN_NONE;
}

static PyMethodDef mt_nccl_functions[] = {
    {"_nccl_version", mt_py_nccl_version, METH_NOARGS, NULL},
    {"_nccl_library", mt_py_nccl_library, METH_NOARGS, NULL},
    {"_nccl_unique_id", mt_py_nccl_unique_id, METH_NOARGS, NULL},
    {"_nccl_check", mt_py_nccl_check, METH_VARARGS, NULL},
    {NULL},
};
#endif

int
mt__nccl_binding_init(PyObject *module)
{
#ifdef MT_WITH_NCCL
    if (PyModule_AddIntConstant(module, "_nccl_built", 1) < 0 ||
        PyModule_AddIntConstant(module, "_nccl_unique_id_bytes", NCCL_UNIQUE_ID_BYTES) < 0) {
        return -1;
    }
    return PyModule_AddFunctions(module, mt_nccl_functions);
#else
    return PyModule_AddIntConstant(module, "_nccl_built", 0);
#endif
}
