/* csrc/module.c - the minitorch._C extension module: state, multi-phase init, registration. */
#include "csrc/common.h"
#include "csrc/autograd/autograd.h"

#include "aten_lite/parallel.h"

static PyObject *
mt_py_set_num_threads(PyObject *m, PyObject *arg)
{
    int64_t n;
    if (mt__int64_from_py(arg, &n, "set_num_threads", "int") < 0) {
        return NULL;
    }
    if (n < 1 || n > INT32_MAX) {
        PyErr_Format(PyExc_RuntimeError,
                     "set_num_threads expects a positive integer that fits in an int, got %lld",
                     (long long)n);
        return NULL;
    }
    Py_BEGIN_ALLOW_THREADS
    mt_set_num_threads((int)n);
    Py_END_ALLOW_THREADS
    Py_RETURN_NONE;
}

static PyObject *
mt_py_get_num_threads(PyObject *m, PyObject *unused)
{
    return PyLong_FromLong(mt_get_num_threads());
}

static PyObject *
mt_py_cuda_device_count(PyObject *m, PyObject *unused)
{
    return PyLong_FromLong(mt_cuda_device_count());
}

static PyObject *
mt_py_dtype_from_name(PyObject *m, PyObject *arg)
{
    const char *s = PyUnicode_AsUTF8(arg);
    if (s == NULL) {
        return NULL;
    }
    mt_dtype dt;
    if (mt_dtype_from_name(s, &dt) < 0) {
        return mt__raise(0);
    }
    return Py_NewRef(mt__dtype_object(dt));
}

/* _cpu_net_bytes() -> bytes of CPU storages this thread allocated minus those it freed
 * (Note [CPU memory counter] in c10_lite/storage.c; the profiler's profile_memory) */
static PyObject *
mt_py_cpu_net_bytes(PyObject *m, PyObject *unused)
{
    return PyLong_FromLongLong((long long)mt_storage_cpu_net_bytes());
}

static PyMethodDef mt_module_methods[] = {
    {"set_num_threads", mt_py_set_num_threads, METH_O,
     "set_num_threads(n): threads used by CPU kernels (including the caller)."},
    {"get_num_threads", mt_py_get_num_threads, METH_NOARGS, NULL},
    {"_cuda_device_count", mt_py_cuda_device_count, METH_NOARGS,
     "CUDA devices visible (0 without a driver or without CUDA support)."},
    {"_dtype_from_name", mt_py_dtype_from_name, METH_O, NULL},
    {"_cpu_net_bytes", mt_py_cpu_net_bytes, METH_NOARGS,
     "Bytes of CPU storages this thread allocated minus those it freed."},
    {NULL},
};

/* Each family's binding file registers its methods and functions (its PyMethodDef
 * arrays come from the op table, see Note [The op table]).  Every family is linked in and
 * called here: a missing one fails the link instead of vanishing from the module. */
static int
mt__run_binding_hooks(PyObject *m)
{
    if (mt__random_binding_init(m) < 0 || mt__linalg_binding_init(m) < 0 ||
        mt__lapack_binding_init(m) < 0 ||
        mt__index_binding_init(m) < 0 || mt__distributed_init(m) < 0 ||
        mt__complex_binding_init(m) < 0 || mt__shm_binding_init(m) < 0 ||
        mt__nn_binding_init(m) < 0 || mt__optim_binding_init(m) < 0 ||
        mt__autograd_init(m) < 0 || mt__cuda_binding_init(m) < 0 ||
        mt__activation_binding_init(m) < 0 || mt__attention_binding_init(m) < 0 ||
        mt__rnn_binding_init(m) < 0 || mt__autocast_init(m) < 0 ||
        mt__ctc_binding_init(m) < 0 || mt__special_binding_init(m) < 0 ||
        mt__distance_binding_init(m) < 0 ||
        mt__sparse_coo_binding_init(m) < 0 || mt__torch_function_init(m) < 0 ||
        mt__errors_init(m) < 0) {
        return -1;
    }
    return 0;
}

static int mt__initialised;

static int
mt_module_exec(PyObject *m)
{
    if (mt__initialised) {
        PyErr_SetString(PyExc_ImportError,
                        "minitorch._C can be initialised only once per process");
        return -1;
    }
    mt_aten_init();
    if (mt__dtype_types_init(m) < 0 || mt__device_types_init(m) < 0 ||
        mt__storage_types_init(m) < 0 || mt__tensor_types_init(m) < 0) {
        return -1;
    }
    if (mt__run_binding_hooks(m) < 0) {
        return -1;
    }
#ifdef MT_WITH_CUDA
    if (PyModule_AddIntConstant(m, "_has_cuda", 1) < 0 ||
        PyModule_AddStringConstant(m, "_cuda_version", MT_CUDA_VERSION) < 0) {
        return -1;
    }
#else
    if (PyModule_AddIntConstant(m, "_has_cuda", 0) < 0) {
        return -1;
    }
#endif
    mt__initialised = 1;
    return 0;
}

static PyModuleDef_Slot mt_module_slots[] = {
    {Py_mod_exec, mt_module_exec},
    {0, NULL},
};

PyDoc_STRVAR(mt_module_doc, "minitorch._C: tensors, storages and kernels implemented in C.");

static struct PyModuleDef mt_module_def = {
    PyModuleDef_HEAD_INIT,
    .m_name = "minitorch._C",
    .m_doc = mt_module_doc,
    .m_size = 0,
    .m_methods = mt_module_methods,
    .m_slots = mt_module_slots,
};

PyMODINIT_FUNC
PyInit__C(void)
{
    return PyModuleDef_Init(&mt_module_def);
}
