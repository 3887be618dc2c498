/* csrc/distributed/module_binding.c - creates minitorch._C._c10d (Note [c10d binding]). */
#include "csrc/distributed/binding.h"

static PyObject *
mt_py_reduce_op_name(PyObject *m, PyObject *arg)
{
    long v = PyLong_AsLong(arg);
    if (v == -1 && PyErr_Occurred()) {
        return NULL;
    }
    return PyUnicode_FromString(mt_dist_op_name((mt_dist_op)v));
}

static PyMethodDef mt_c10d_functions[] = {
    {"_reduce_op_name", mt_py_reduce_op_name, METH_O, NULL},
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
