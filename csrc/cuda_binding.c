/* csrc/cuda_binding.c - minitorch.cuda's view of the CUDA runtime: the per-thread current device
 * and streams (Note [Current device and stream] in c10_lite/cuda_state.h), pooled streams and
 * events (Note [CUDA streams] in c10_lite/cuda_hooks.h), the caching allocator's statistics and
 * cache (Note [Caching allocator] in c10_lite/cuda_alloc.h). */
#include "csrc/common.h"

#include "c10_lite/cuda_host_alloc.h"

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

/* ---- current device and streams ------------------------------------------------------------- */

/* a device argument of the functions below: an int, where a negative one (or None) means the
 * calling thread's current device; 0, or -1 with the exception set (no device: torch's words) */
static int
mt__cuda_device_or_current(PyObject *o, int *device)
{
    long v = -1;
    if (o != Py_None) {
        v = PyLong_AsLong(o);
        if (v == -1 && PyErr_Occurred()) {
            return -1;
        }
    }
    if (v < 0) {
        return mt_cuda_current_device(device) < 0 ? mt__raise_int(0) : 0;
    }
    int n = mt_cuda_device_count();
    if (n == 0) {
        PyErr_SetString(PyExc_RuntimeError, mt_cuda_unavailable_message());
        return -1;
    }
    if (v >= n) {
        PyErr_Format(PyExc_RuntimeError, "CUDA error: invalid device ordinal (device %ld; %d %s)",
                     v, n, n == 1 ? "device is visible" : "devices are visible");
        return -1;
    }
    *device = (int)v;
    return 0;
}

/* 1 when a fastcall function got n arguments, else 0 with TypeError set */
static int
mt__nargs(const char *name, Py_ssize_t nargs, Py_ssize_t n)
{
    if (nargs != n) {
        PyErr_Format(PyExc_TypeError, "%s expected %zd arguments, got %zd", name, n, nargs);
        return 0;
    }
    return 1;
}

/* a stream handle: an int (0: the default stream) */
static int
mt__cuda_stream_arg(PyObject *o, void **stream)
{
    void *p = PyLong_AsVoidPtr(o);
    if (p == NULL && PyErr_Occurred()) {
        return -1;
    }
    *stream = p;
    return 0;
}

/* _cuda_getDevice() -> the calling thread's current device */
static PyObject *
mt_py_cuda_get_device(PyObject *m, PyObject *unused)
{
    int device;
    if (mt_cuda_current_device(&device) < 0) {
        return mt__raise(0);
    }
    return PyLong_FromLong(device);
}

/* *out = the device index `arg` (an int; one beyond int's range becomes INT_MAX, out of range
 * either way).  0, or -1 with the Python error set. */
static int
mt__device_index_arg(PyObject *arg, int *out)
{
    int overflow;
    long v = PyLong_AsLongAndOverflow(arg, &overflow);
    if (v == -1 && PyErr_Occurred()) {
        return -1;
    }
    *out = overflow || v < INT_MIN || v > INT_MAX ? INT_MAX : (int)v;
    return 0;
}

/* _cuda_setDevice(index) */
static PyObject *
mt_py_cuda_set_device(PyObject *m, PyObject *arg)
{
    int v;
    if (mt__device_index_arg(arg, &v) < 0) {
        return NULL;
    }
    if (mt_cuda_set_device(v) < 0) {
        return mt__raise(0);
    }
    Py_RETURN_NONE;
}

/* _cuda_getCurrentStream(device) -> (stream handle, device) */
static PyObject *
mt_py_cuda_get_current_stream(PyObject *m, PyObject *arg)
{
    int device;
    if (mt__cuda_device_or_current(arg, &device) < 0) {
        return NULL;
    }
    return Py_BuildValue("(Ni)", PyLong_FromVoidPtr(mt_cuda_current_stream(device)), device);
}

/* _cuda_getDefaultStream(device) -> (0, device) */
static PyObject *
mt_py_cuda_get_default_stream(PyObject *m, PyObject *arg)
{
    int device;
    if (mt__cuda_device_or_current(arg, &device) < 0) {
        return NULL;
    }
    return Py_BuildValue("(ii)", 0, device);
}

/* _cuda_setStream(stream, device) */
static PyObject *
mt_py_cuda_set_stream(PyObject *m, PyObject *const *args, Py_ssize_t nargs)
{
    void *stream;
    int device;
    if (!mt__nargs("_cuda_setStream", nargs, 2) ||
        mt__cuda_stream_arg(args[0], &stream) < 0 ||
        mt__cuda_device_or_current(args[1], &device) < 0) {
        return NULL;
    }
    if (mt_cuda_set_stream(device, stream) < 0) {
        return mt__raise(0);
    }
    Py_RETURN_NONE;
}

/* _cuda_streamAcquire(device, priority) -> a stream handle from the device's pool */
static PyObject *
mt_py_cuda_stream_acquire(PyObject *m, PyObject *const *args, Py_ssize_t nargs)
{
    int device;
    if (!mt__nargs("_cuda_streamAcquire", nargs, 2) ||
        mt__cuda_device_or_current(args[0], &device) < 0) {
        return NULL;
    }
    long priority = PyLong_AsLong(args[1]);
    if (priority == -1 && PyErr_Occurred()) {
        return NULL;
    }
    void *stream;
    if (mt_cuda_stream_acquire(device, priority < 0 ? -1 : 0, &stream) < 0) {
        return mt__raise(0);
    }
    return PyLong_FromVoidPtr(stream);
}

/* _cuda_streamPriorityRange() -> (least, greatest) */
static PyObject *
mt_py_cuda_stream_priority_range(PyObject *m, PyObject *unused)
{
    int least, greatest;
    if (mt_cuda_stream_priority_range(&least, &greatest) < 0) {
        return mt__raise(0);
    }
    return Py_BuildValue("(ii)", least, greatest);
}

/* the (stream, device) arguments of the stream calls */
static int
mt__cuda_stream_args(const char *name, PyObject *const *args, Py_ssize_t nargs, void **stream,
                     int *device)
{
    if (!mt__nargs(name, nargs, 2) || mt__cuda_stream_arg(args[0], stream) < 0 ||
        mt__cuda_device_or_current(args[1], device) < 0) {
        return -1;
    }
    return 0;
}

/* _cuda_streamPriority(stream, device) -> int */
static PyObject *
mt_py_cuda_stream_priority(PyObject *m, PyObject *const *args, Py_ssize_t nargs)
{
    void *stream;
    int device, priority;
    if (mt__cuda_stream_args("_cuda_streamPriority", args, nargs, &stream, &device) < 0) {
        return NULL;
    }
    if (mt_cuda_stream_priority(stream, device, &priority) < 0) {
        return mt__raise(0);
    }
    return PyLong_FromLong(priority);
}

/* _cuda_streamQuery(stream, device) -> bool */
static PyObject *
mt_py_cuda_stream_query(PyObject *m, PyObject *const *args, Py_ssize_t nargs)
{
    void *stream;
    int device;
    if (mt__cuda_stream_args("_cuda_streamQuery", args, nargs, &stream, &device) < 0) {
        return NULL;
    }
    int rc = mt_cuda_stream_query(stream, device);
    return rc < 0 ? mt__raise(0) : PyBool_FromLong(rc);
}

/* _cuda_streamSynchronize(stream, device) */
static PyObject *
mt_py_cuda_stream_synchronize(PyObject *m, PyObject *const *args, Py_ssize_t nargs)
{
    void *stream;
    int device, rc;
    if (mt__cuda_stream_args("_cuda_streamSynchronize", args, nargs, &stream, &device) < 0) {
        return NULL;
    }
    Py_BEGIN_ALLOW_THREADS
    rc = mt_cuda_stream_synchronize(stream, device);
    Py_END_ALLOW_THREADS
    return rc < 0 ? mt__raise(0) : Py_NewRef(Py_None);
}

/* _cuda_synchronize(device): waits for all the device's work */
static PyObject *
mt_py_cuda_synchronize(PyObject *m, PyObject *arg)
{
    int device, rc;
    if (mt__cuda_device_or_current(arg, &device) < 0) {
        return NULL;
    }
    Py_BEGIN_ALLOW_THREADS
    rc = mt_cuda_device_synchronize(device);
    Py_END_ALLOW_THREADS
    return rc < 0 ? mt__raise(0) : Py_NewRef(Py_None);
}

/* ---- events: capsules that destroy their event ------------------------------------------------- */

#define MT__EVENT_CAPSULE "minitorch._C.cuda_event"

static void
mt__event_capsule_free(PyObject *cap)
{
    void *ev = PyCapsule_GetPointer(cap, MT__EVENT_CAPSULE);
    int device = (int)(intptr_t)PyCapsule_GetContext(cap) - 1;
    mt_cuda_event_destroy(ev, device);
}

/* *event and *device of an event capsule */
static int
mt__event_arg(PyObject *cap, void **event, int *device)
{
    void *ev = PyCapsule_GetPointer(cap, MT__EVENT_CAPSULE);
    if (ev == NULL) {
        return -1;
    }
    *event = ev;
    *device = (int)(intptr_t)PyCapsule_GetContext(cap) - 1;
    return 0;
}

/* _cuda_eventNew(device, flags) -> an event capsule on the device */
static PyObject *
mt_py_cuda_event_new(PyObject *m, PyObject *const *args, Py_ssize_t nargs)
{
    int device;
    if (!mt__nargs("_cuda_eventNew", nargs, 2) ||
        mt__cuda_device_or_current(args[0], &device) < 0) {
        return NULL;
    }
    long flags = PyLong_AsLong(args[1]);
    if (flags == -1 && PyErr_Occurred()) {
        return NULL;
    }
    void *ev;
    if (mt_cuda_event_create(device, (unsigned)flags, &ev) < 0) {
        return mt__raise(0);
    }
    PyObject *cap = PyCapsule_New(ev, MT__EVENT_CAPSULE, mt__event_capsule_free);
    if (cap == NULL || PyCapsule_SetContext(cap, (void *)(intptr_t)(device + 1)) < 0) {
        if (cap == NULL) {
            mt_cuda_event_destroy(ev, device);
        }
        Py_XDECREF(cap);
        return NULL;
    }
    return cap;
}

/* _cuda_eventRecord(event, stream): the stream of the event's device */
static PyObject *
mt_py_cuda_event_record(PyObject *m, PyObject *const *args, Py_ssize_t nargs)
{
    void *ev, *stream;
    int device;
    if (!mt__nargs("_cuda_eventRecord", nargs, 2) ||
        mt__event_arg(args[0], &ev, &device) < 0 || mt__cuda_stream_arg(args[1], &stream) < 0) {
        return NULL;
    }
    if (mt_cuda_event_record(ev, stream, device) < 0) {
        return mt__raise(0);
    }
    Py_RETURN_NONE;
}

/* _cuda_eventWait(event, stream, stream_device) */
static PyObject *
mt_py_cuda_event_wait(PyObject *m, PyObject *const *args, Py_ssize_t nargs)
{
    void *ev, *stream;
    int event_device, device;
    if (!mt__nargs("_cuda_eventWait", nargs, 3) ||
        mt__event_arg(args[0], &ev, &event_device) < 0 ||
        mt__cuda_stream_arg(args[1], &stream) < 0 ||
        mt__cuda_device_or_current(args[2], &device) < 0) {
        return NULL;
    }
    if (mt_cuda_stream_wait_event(stream, device, ev) < 0) {
        return mt__raise(0);
    }
    Py_RETURN_NONE;
}

/* _cuda_eventQuery(event) -> bool */
static PyObject *
mt_py_cuda_event_query(PyObject *m, PyObject *arg)
{
    void *ev;
    int device;
    if (mt__event_arg(arg, &ev, &device) < 0) {
        return NULL;
    }
    int rc = mt_cuda_event_query(ev, device);
    return rc < 0 ? mt__raise(0) : PyBool_FromLong(rc);
}

/* _cuda_eventSynchronize(event) */
static PyObject *
mt_py_cuda_event_synchronize(PyObject *m, PyObject *arg)
{
    void *ev;
    int device, rc;
    if (mt__event_arg(arg, &ev, &device) < 0) {
        return NULL;
    }
    Py_BEGIN_ALLOW_THREADS
    rc = mt_cuda_event_synchronize(ev, device);
    Py_END_ALLOW_THREADS
    return rc < 0 ? mt__raise(0) : Py_NewRef(Py_None);
}

/* _cuda_eventElapsedTime(start, end) -> milliseconds */
static PyObject *
mt_py_cuda_event_elapsed(PyObject *m, PyObject *const *args, Py_ssize_t nargs)
{
    void *start, *end;
    int device, end_device;
    float ms;
    if (!mt__nargs("_cuda_eventElapsedTime", nargs, 2) ||
        mt__event_arg(args[0], &start, &device) < 0 ||
        mt__event_arg(args[1], &end, &end_device) < 0) {
        return NULL;
    }
    if (mt_cuda_event_elapsed_ms(start, end, device, &ms) < 0) {
        return mt__raise(0);
    }
    return PyFloat_FromDouble(ms);
}

/* _cuda_unavailableMessage() -> why there is no device (None when there are some) */
static PyObject *
mt_py_cuda_unavailable_message(PyObject *m, PyObject *unused)
{
    const char *why = mt_cuda_unavailable_message();
    return why == NULL ? Py_NewRef(Py_None) : PyUnicode_FromString(why);
}

/* ---- the caching allocator ------------------------------------------------------------------- */

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

/* ---- pinned host memory (Note [Pinned host memory]) and stream uses of device memory ---- */

/* _cuda_pinned_empty(t) -> an uninitialised contiguous tensor of the cpu tensor t's shape and
 * dtype in pinned memory (Tensor.pin_memory fills it with a recorded copy_) */
static PyObject *
mt_py_cuda_pinned_empty(PyObject *m, PyObject *arg)
{
    if (!mt__tensor_check(arg)) {
        PyErr_SetString(PyExc_TypeError, "_cuda_pinned_empty() expects a tensor");
        return NULL;
    }
    mt_tensor *t = mt__tensor_impl(arg);
    if (mt_tensor_device(t).type != MT_CPU) {
        PyErr_SetString(PyExc_RuntimeError, "only dense CPU tensors can be pinned");
        return NULL;
    }
    mt_storage *s = mt_storage_new_pinned((size_t)t->numel * mt_dtype_itemsize(t->dtype));
    if (s == NULL) {
        return mt__raise(0);
    }
    mt_tensor *r = mt_tensor_new(s, t->dtype, t->ndim, t->sizes, NULL, 0);
    mt_storage_decref(s);
    return r == NULL ? mt__raise(0) : mt__tensor_wrap(r);
}

/* _cuda_is_pinned(t) -> whether t's bytes are in pinned host memory */
static PyObject *
mt_py_cuda_is_pinned(PyObject *m, PyObject *arg)
{
    if (!mt__tensor_check(arg)) {
        PyErr_SetString(PyExc_TypeError, "_cuda_is_pinned() expects a tensor");
        return NULL;
    }
    mt_tensor *t = mt__tensor_impl(arg);
    return PyBool_FromLong(mt_tensor_device(t).type == MT_CPU && t->storage->nbytes > 0 &&
                           mt_cuda_host_is_pinned_ptr(t->storage->data));
}

/* The CPU mt_storage of storage object o (borrowed), or NULL with TypeError. */
static mt_storage *
mt__host_storage_arg(PyObject *o, const char *fname)
{
    mt_storage *s;
    mt_dtype dt;
    int typed;
    if (mt__storage_parts(o, &s, &dt, &typed) < 0 || s->device.type != MT_CPU) {
        PyErr_Format(PyExc_TypeError, "%s(): expected a CPU Storage, got %s", fname,
                     Py_TYPE(o)->tp_name);
        return NULL;
    }
    return s;
}

/* _cuda_host_register(storage): page-locks the storage's bytes in place (Note [Pinned host
 * memory]); the caller unregisters them before the storage can die. */
static PyObject *
mt_py_cuda_host_register(PyObject *m, PyObject *arg)
{
    mt_storage *s = mt__host_storage_arg(arg, "_cuda_host_register");
    if (s == NULL) {
        return NULL;
    }
    if (s->nbytes == 0) {
        Py_RETURN_NONE;
    }
    int rc;
    Py_BEGIN_ALLOW_THREADS
    rc = mt_cuda_host_register_range(s->data, s->nbytes);
    Py_END_ALLOW_THREADS
    return rc < 0 ? mt__raise(rc) : Py_NewRef(Py_None);
}

/* _cuda_host_unregister(storage): waits for the copies still reading or writing it, then
 * undoes _cuda_host_register (nothing when it was not registered). */
static PyObject *
mt_py_cuda_host_unregister(PyObject *m, PyObject *arg)
{
    mt_storage *s = mt__host_storage_arg(arg, "_cuda_host_unregister");
    if (s == NULL) {
        return NULL;
    }
    if (s->nbytes > 0) {
        Py_BEGIN_ALLOW_THREADS
        mt_cuda_host_unregister_range(s->data);
        Py_END_ALLOW_THREADS
    }
    Py_RETURN_NONE;
}

/* _cuda_host_empty_cache() */
static PyObject *
mt_py_cuda_host_empty_cache(PyObject *m, PyObject *unused)
{
    Py_BEGIN_ALLOW_THREADS
    mt_cuda_host_empty_cache();
    Py_END_ALLOW_THREADS
    Py_RETURN_NONE;
}

/* _cuda_host_memory_stats() -> (reserved, allocated) bytes of pinned blocks */
static PyObject *
mt_py_cuda_host_memory_stats(PyObject *m, PyObject *unused)
{
    size_t reserved, allocated;
    mt_cuda_host_stats(&reserved, &allocated);
    return Py_BuildValue("(nn)", (Py_ssize_t)reserved, (Py_ssize_t)allocated);
}

/* _cuda_record_stream(t, stream) -> None: t's block is not reused before the work queued on
 * stream so far has completed (Note [Caching allocator]) */
static PyObject *
mt_py_cuda_record_stream(PyObject *m, PyObject *const *args, Py_ssize_t nargs)
{
    void *stream;
    if (!mt__nargs("_cuda_record_stream", nargs, 2) || mt__cuda_stream_arg(args[1], &stream) < 0) {
        return NULL;
    }
    if (!mt__tensor_check(args[0])) {
        PyErr_SetString(PyExc_TypeError, "record_stream() expects a tensor");
        return NULL;
    }
    mt_tensor *t = mt__tensor_impl(args[0]);
    if (mt_tensor_device(t).type != MT_CUDA) {
        PyErr_SetString(PyExc_RuntimeError, "unknown parameter type");
        return NULL;
    }
    if (t->storage->nbytes == 0) {
        Py_RETURN_NONE;
    }
    mt_cuda_alloc *a = mt_cuda_allocator();
    if (a == NULL || mt_cuda_alloc_record_stream(a, t->storage->data, stream) < 0) {
        return mt__raise(0);
    }
    Py_RETURN_NONE;
}

/* _cuda_getDeviceProperties(index) -> dict of what torch's _CudaDeviceProperties reports */
static PyObject *
mt_py_cuda_get_device_properties(PyObject *m, PyObject *arg)
{
    (void)m;
    int v;
    if (mt__device_index_arg(arg, &v) < 0) {
        return NULL;
    }
    mt_cuda_device_props p;
    if (mt_cuda_device_properties(v, &p) < 0) {
        return mt__raise(0);
    }
    char uuid[37];
    static const int groups[] = {4, 2, 2, 2, 6};
    int k = 0, pos = 0;
    for (int g = 0; g < 5; g++) {
        for (int b = 0; b < groups[g]; b++, k++) {
            pos += snprintf(uuid + pos, sizeof(uuid) - (size_t)pos, "%02x", p.uuid[k]);
        }
        if (g < 4) {
            uuid[pos++] = '-';
        }
    }
    uuid[pos] = '\0';
    return Py_BuildValue(
        "{s:s,s:i,s:i,s:L,s:i,s:i,s:i,s:i,s:L,s:L,s:L,s:L,s:N,s:N,s:i,s:i,s:i,s:s}", "name",
        p.name, "major", p.major, "minor", p.minor, "total_memory", (long long)p.total_memory,
        "multi_processor_count", p.multi_processor_count, "max_threads_per_multi_processor",
        p.max_threads_per_multi_processor, "regs_per_multiprocessor", p.regs_per_multiprocessor,
        "warp_size", p.warp_size, "L2_cache_size", (long long)p.l2_cache_size,
        "shared_memory_per_block", (long long)p.shared_memory_per_block,
        "shared_memory_per_block_optin", (long long)p.shared_memory_per_block_optin,
        "shared_memory_per_multiprocessor", (long long)p.shared_memory_per_multiprocessor,
        "is_integrated", PyBool_FromLong(p.is_integrated), "is_multi_gpu_board",
        PyBool_FromLong(p.is_multi_gpu_board), "pci_bus_id", p.pci_bus_id, "pci_device_id",
        p.pci_device_id, "pci_domain_id", p.pci_domain_id, "uuid", uuid);
}

static PyMethodDef mt_cuda_functions[] = {
    {"_cuda_getDeviceProperties", mt_py_cuda_get_device_properties, METH_O, NULL},
    {"_cuda_getDevice", mt_py_cuda_get_device, METH_NOARGS, NULL},
    {"_cuda_setDevice", mt_py_cuda_set_device, METH_O, NULL},
    {"_cuda_getCurrentStream", mt_py_cuda_get_current_stream, METH_O, NULL},
    {"_cuda_getDefaultStream", mt_py_cuda_get_default_stream, METH_O, NULL},
    {"_cuda_setStream", (PyCFunction)(void (*)(void))mt_py_cuda_set_stream, METH_FASTCALL, NULL},
    {"_cuda_streamAcquire", (PyCFunction)(void (*)(void))mt_py_cuda_stream_acquire, METH_FASTCALL,
     NULL},
    {"_cuda_streamPriorityRange", mt_py_cuda_stream_priority_range, METH_NOARGS, NULL},
    {"_cuda_streamPriority", (PyCFunction)(void (*)(void))mt_py_cuda_stream_priority,
     METH_FASTCALL, NULL},
    {"_cuda_streamQuery", (PyCFunction)(void (*)(void))mt_py_cuda_stream_query, METH_FASTCALL,
     NULL},
    {"_cuda_streamSynchronize", (PyCFunction)(void (*)(void))mt_py_cuda_stream_synchronize,
     METH_FASTCALL, NULL},
    {"_cuda_synchronize", mt_py_cuda_synchronize, METH_O, NULL},
    {"_cuda_eventNew", (PyCFunction)(void (*)(void))mt_py_cuda_event_new, METH_FASTCALL, NULL},
    {"_cuda_eventRecord", (PyCFunction)(void (*)(void))mt_py_cuda_event_record, METH_FASTCALL,
     NULL},
    {"_cuda_eventWait", (PyCFunction)(void (*)(void))mt_py_cuda_event_wait, METH_FASTCALL, NULL},
    {"_cuda_eventQuery", mt_py_cuda_event_query, METH_O, NULL},
    {"_cuda_eventSynchronize", mt_py_cuda_event_synchronize, METH_O, NULL},
    {"_cuda_eventElapsedTime", (PyCFunction)(void (*)(void))mt_py_cuda_event_elapsed,
     METH_FASTCALL, NULL},
    {"_cuda_unavailableMessage", mt_py_cuda_unavailable_message, METH_NOARGS, NULL},
    {"_cuda_memory_stats", mt_py_cuda_memory_stats, METH_O, NULL},
    {"_cuda_empty_cache", mt_py_cuda_empty_cache, METH_NOARGS, NULL},
    {"_cuda_pinned_empty", mt_py_cuda_pinned_empty, METH_O, NULL},
    {"_cuda_is_pinned", mt_py_cuda_is_pinned, METH_O, NULL},
    {"_cuda_host_empty_cache", mt_py_cuda_host_empty_cache, METH_NOARGS, NULL},
    {"_cuda_host_register", mt_py_cuda_host_register, METH_O, NULL},
    {"_cuda_host_unregister", mt_py_cuda_host_unregister, METH_O, NULL},
    {"_cuda_host_memory_stats", mt_py_cuda_host_memory_stats, METH_NOARGS, NULL},
    {"_cuda_record_stream", (PyCFunction)(void (*)(void))mt_py_cuda_record_stream, METH_FASTCALL,
     NULL},
    {"_cuda_reset_peak_memory_stats", mt_py_cuda_reset_peak_memory_stats, METH_O, NULL},
    {NULL},
};

int
mt__cuda_binding_init(PyObject *module)
{
    return PyModule_AddFunctions(module, mt_cuda_functions);
}
