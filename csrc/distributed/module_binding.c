/* csrc/distributed/module_binding.c - creates minitorch._C._c10d (Note [c10d binding]). */
#include "csrc/distributed/binding.h"
#include "csrc/distributed/common/auth.h"

static PyObject *
mt_py_reduce_op_name(PyObject *m, PyObject *arg)
{
    long v = PyLong_AsLong(arg);
    if (v == -1 && PyErr_Occurred()) {
        return NULL;
    }
    return PyUnicode_FromString(mt_dist_op_name((mt_dist_op)v));
}

/* _set_job_token(bytes | None): the token of this process's groups' transports (None: back
 * to MINITORCH_DIST_TOKEN).  Note [Job token] in common/auth.h. */
static PyObject *
mt_py_set_job_token(PyObject *m, PyObject *arg)
{
    (void)m;
    if (arg != Py_None && !PyBytes_Check(arg)) {
        PyErr_Format(PyExc_TypeError, "the job token must be str or bytes, not %s",
                     Py_TYPE(arg)->tp_name);
        return NULL;
    }
    int rc = arg == Py_None ? mt_dist_set_token(NULL, 0)
                            : mt_dist_set_token(PyBytes_AS_STRING(arg),
                                                (size_t)PyBytes_GET_SIZE(arg));
    if (rc < 0) {
        PyErr_SetString(PyExc_ValueError, mt_error_message());
        return NULL;
    }
    Py_RETURN_NONE;
}

static PyMethodDef mt_c10d_functions[] = {
    {"_reduce_op_name", mt_py_reduce_op_name, METH_O, NULL},
    {"_set_job_token", mt_py_set_job_token, METH_O, NULL},
    {NULL},
};

static struct PyModuleDef mt_c10d_def = {
    PyModuleDef_HEAD_INIT,
    .m_name = "minitorch._C._c10d",
    .m_doc = "The plain-C distributed layer: stores, the TCP process group, work objects.",
    .m_size = -1,
    .m_methods = mt_c10d_functions,
};

/* Adds the submodule _c10d to minitorch._C (called by module.c with the other binding families). */
int
mt__distributed_init(PyObject *module)
{
    PyObject *sub = PyModule_Create(&mt_c10d_def);
    if (sub == NULL) {
        return -1;
    }
    if (PyModule_AddIntConstant(sub, "ANY_SOURCE", MT_ANY_SOURCE) < 0 ||
        mt__store_binding_init(sub) < 0 || mt__py_store_binding_init(sub) < 0 ||
        mt__pg_binding_init(sub) < 0 || mt__nccl_binding_init(sub) < 0 ||
        mt__nccl_comm_binding_init(sub) < 0 ||
        mt__mpi_binding_init(sub) < 0) {
        Py_DECREF(sub);
        return -1;
    }
    PyObject *modules = PyImport_GetModuleDict();
    if (PyDict_SetItemString(modules, "minitorch._C._c10d", sub) < 0) {
        Py_DECREF(sub);
        return -1;
    }
    return PyModule_AddObject(module, "_c10d", sub) < 0 ? (Py_DECREF(sub), -1) : 0; /* steals sub on success */
}
