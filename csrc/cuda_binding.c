/* csrc/cuda_binding.c - minitorch.cuda's view of the CUDA runtime: the caching allocator's
 * statistics and cache (Note [Caching allocator] in c10_lite/cuda_alloc.h). */
#include "csrc/common.h"

/* the device argument: an int index (the Python side resolves None and devices) */
static int
mt__cuda_index(PyObject *o, int *device)
{
    long v = PyLong_AsLong(o);
    if (v == -1 && PyErr_Occurred()) {
        return -1;
    }
    int n = mt_cuda_device_count();
    if (v < 0 || v >= n) {
        PyErr_Format(PyExc_RuntimeError, "CUDA error: invalid device ordinal %ld (have %d devices)",
                     v, n);
        return -1;
    }
    *device = (int)v;
    return 0;
}

/* _cuda_memory_stats(device) -> dict: {} before CUDA memory was first used, as torch */
static PyObject *
mt_py_cuda_memory_stats(PyObject *m, PyObject *arg)
{
    mt_cuda_alloc *a = mt_cuda_allocator_if_created();
    int device;
    if (a == NULL) {
        return PyDict_New();
    }
    if (mt__cuda_index(arg, &device) < 0) {
        return NULL;
    }
    mt_cuda_alloc_stats s;
    mt_cuda_alloc_get_stats(a, device, &s);
    return Py_BuildValue("{sLsLsLsLsLsLsLsL}", "allocated_bytes.all.current", (long long)s.allocated,
                         "allocated_bytes.all.peak", (long long)s.max_allocated,
                         "reserved_bytes.all.current", (long long)s.reserved,
                         "reserved_bytes.all.peak", (long long)s.max_reserved,
                         "num_device_alloc", (long long)s.driver_mallocs,
                         "num_device_free", (long long)s.driver_frees,
                         "num_cache_hits", (long long)s.cache_hits,
                         "num_ooms", (long long)s.ooms);
}

static PyObject *
mt_py_cuda_empty_cache(PyObject *m, PyObject *unused)
{
    mt_cuda_alloc *a = mt_cuda_allocator_if_created();
    if (a != NULL) {
        Py_BEGIN_ALLOW_THREADS
        mt_cuda_alloc_empty_cache(a);
        Py_END_ALLOW_THREADS
    }
    Py_RETURN_NONE;
}

static PyObject *
mt_py_cuda_reset_peak_memory_stats(PyObject *m, PyObject *arg)
{
    mt_cuda_alloc *a = mt_cuda_allocator_if_created();
    int device;
    if (a != NULL) {
        if (mt__cuda_index(arg, &device) < 0) {
            return NULL;
        }
        mt_cuda_alloc_reset_peak(a, device);
    }
    Py_RETURN_NONE;
}

static PyMethodDef mt_cuda_functions[] = {
    {"_cuda_memory_stats", mt_py_cuda_memory_stats, METH_O, NULL},
    {"_cuda_empty_cache", mt_py_cuda_empty_cache, METH_NOARGS, NULL},
    {"_cuda_reset_peak_memory_stats", mt_py_cuda_reset_peak_memory_stats, METH_O, NULL},
    {NULL},
};

int
mt__cuda_binding_init(PyObject *module)
{
    return PyModule_AddFunctions(module, mt_cuda_functions);
}
