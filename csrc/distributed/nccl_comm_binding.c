/* csrc/distributed/nccl_comm_binding.c - NCCL communicators and their operations as the NCCL
 * backend (minitorch/distributed/_process_group_nccl.py) calls them: thin, one NCCL call each,
 * the GIL released around it. */
#include "csrc/distributed/binding.h"
#include "csrc/distributed/nccl/nccl_lib.h"

#ifdef MT_WITH_NCCL
#include "c10_lite/cuda_state.h"

#define MT__COMM_CAPSULE "minitorch.ncclComm_t"

/* a communicator: owned by its capsule; comm NULL once destroyed or aborted */
typedef struct mt__nccl_comm {
    ncclComm_t comm;
    int device;
} mt__nccl_comm;

static const mt_nccl_api *
mt__api(void)
{
    const mt_nccl_api *api = mt_nccl_load();
    if (api == NULL) {
        mt__raise(MT_ERUNTIME);
    }
    return api;
}

/* An NCCL error as torch's DistBackendError, naming the call and the NCCL version. */
static PyObject *
mt__nccl_raise(const mt_nccl_api *api, ncclResult_t rc, const char *what)
{
    PyErr_Format(mt__DistBackendError, "NCCL error in %s: %s (ncclResult_t %d), NCCL version %d",
                 what, api->GetErrorString(rc), (int)rc, api->version);
    return NULL;
}

static void
mt__comm_capsule_free(PyObject *cap)
{
    mt__nccl_comm *c = PyCapsule_GetPointer(cap, MT__COMM_CAPSULE);
    if (c == NULL) {
        PyErr_Clear();
        return;
    }
    if (c->comm != NULL) {
        const mt_nccl_api *api = mt_nccl_load();
        if (api != NULL) {
            Py_BEGIN_ALLOW_THREADS
            api->CommDestroy(c->comm);
            Py_END_ALLOW_THREADS
        }
    }
    PyMem_Free(c);
}

/* the live communicator of a capsule, or NULL with ValueError */
static mt__nccl_comm *
mt__comm_arg(PyObject *cap)
{
    mt__nccl_comm *c = PyCapsule_GetPointer(cap, MT__COMM_CAPSULE);
    if (c != NULL && c->comm == NULL) {
        PyErr_SetString(PyExc_ValueError, "the NCCL communicator was destroyed or aborted");
        return NULL;
    }
    return c;
}

/* The loaded library (into *api) and the live communicator of a capsule; NULL with the error
 * set when either is missing. */
static mt__nccl_comm *
mt__api_comm(PyObject *cap, const mt_nccl_api **api)
{
    *api = mt__api();
    return *api != NULL ? mt__comm_arg(cap) : NULL;
}

/* Runs with `device` as the calling thread's device (restored after). */
static int
mt__device_enter(int device, int *prev)
{
    if (mt_cuda_current_device(prev) < 0) {
        return -1;
    }
    return *prev == device ? 0 : mt_cuda_set_device(device);
}

static void
mt__device_leave(int device, int prev)
{
    if (prev != device) {
        mt_cuda_set_device(prev);
    }
}

static PyObject *
mt__comm_new(ncclComm_t comm, int device)
{
    mt__nccl_comm *c = PyMem_Malloc(sizeof(*c));
    if (c == NULL) {
        return PyErr_NoMemory();
    }
    c->comm = comm;
    c->device = device;
    PyObject *cap = PyCapsule_New(c, MT__COMM_CAPSULE, mt__comm_capsule_free);
    if (cap == NULL) {
        PyMem_Free(c); /* the communicator leaks: an out-of-memory corner */
    }
    return cap;
}

/* _nccl_comm_init(unique_id: bytes, nranks, rank, device) -> communicator (ncclCommInitRank
 * on `device`; blocks until every rank has called it) */
static PyObject *
mt_py_nccl_comm_init(PyObject *m, PyObject *args)
{
    const char *id_bytes;
    Py_ssize_t n;
    int nranks, rank, device;
    if (!PyArg_ParseTuple(args, "y#iii:_nccl_comm_init", &id_bytes, &n, &nranks, &rank, &device)) {
        return NULL;
    }
    const mt_nccl_api *api = mt__api();
    if (api == NULL) {
        return NULL;
    }
    if (n != NCCL_UNIQUE_ID_BYTES) {
        PyErr_Format(PyExc_ValueError, "an ncclUniqueId has %d bytes, not %zd",
                     NCCL_UNIQUE_ID_BYTES, n);
        return NULL;
    }
    ncclUniqueId id;
    memcpy(id.internal, id_bytes, sizeof(id.internal));
    int prev;
    if (mt__device_enter(device, &prev) < 0) {
        return mt__raise(0);
    }
    ncclComm_t comm = NULL;
    ncclResult_t rc;
    Py_BEGIN_ALLOW_THREADS
    rc = api->CommInitRank(&comm, nranks, id, rank);
    Py_END_ALLOW_THREADS
    mt__device_leave(device, prev);
    if (rc != ncclSuccess) {
        return mt__nccl_raise(api, rc, "ncclCommInitRank");
    }
    return mt__comm_new(comm, device);
}

/* _nccl_comm_split(comm, color, key) -> communicator, or None for color -1 (every rank of comm
 * calls it) */
static PyObject *
mt_py_nccl_comm_split(PyObject *m, PyObject *args)
{
    PyObject *cap;
    int color, key;
    if (!PyArg_ParseTuple(args, "Oii:_nccl_comm_split", &cap, &color, &key)) {
        return NULL;
    }
    const mt_nccl_api *api;
    mt__nccl_comm *c = mt__api_comm(cap, &api);
    if (c == NULL) {
        return NULL;
    }
    if (api->CommSplit == NULL) {
        PyErr_Format(PyExc_NotImplementedError, "NCCL %d has no ncclCommSplit", api->version);
        return NULL;
    }
    int prev;
    if (mt__device_enter(c->device, &prev) < 0) {
        return mt__raise(0);
    }
    ncclComm_t out = NULL;
    ncclResult_t rc;
    Py_BEGIN_ALLOW_THREADS
    rc = api->CommSplit(c->comm, color, key, &out, NULL);
    Py_END_ALLOW_THREADS
    mt__device_leave(c->device, prev);
    if (rc != ncclSuccess) {
        return mt__nccl_raise(api, rc, "ncclCommSplit");
    }
    if (out == NULL) {
        Py_RETURN_NONE;
    }
    return mt__comm_new(out, c->device);
}

/* _nccl_comm_finish(comm, abort: bool): ncclCommAbort (at once) or ncclCommDestroy (after its
 * queued operations); the communicator is unusable after */
static PyObject *
mt_py_nccl_comm_finish(PyObject *m, PyObject *args)
{
    PyObject *cap;
    int abort;
    if (!PyArg_ParseTuple(args, "Op:_nccl_comm_finish", &cap, &abort)) {
        return NULL;
    }
    mt__nccl_comm *c = PyCapsule_GetPointer(cap, MT__COMM_CAPSULE);
    const mt_nccl_api *api = c != NULL ? mt__api() : NULL;
    if (api == NULL) {
        return NULL;
    }
    ncclComm_t comm = c->comm;
    c->comm = NULL;
    if (comm == NULL) {
        Py_RETURN_NONE;
    }
    ncclResult_t rc;
    Py_BEGIN_ALLOW_THREADS
    rc = abort ? api->CommAbort(comm) : api->CommDestroy(comm);
    Py_END_ALLOW_THREADS
    if (rc != ncclSuccess) {
        return mt__nccl_raise(api, rc, abort ? "ncclCommAbort" : "ncclCommDestroy");
    }
    Py_RETURN_NONE;
}

/* _nccl_comm_async_error(comm) -> the ncclResult_t of ncclCommGetAsyncError (0: none) */
static PyObject *
mt_py_nccl_comm_async_error(PyObject *m, PyObject *cap)
{
    const mt_nccl_api *api;
    mt__nccl_comm *c = mt__api_comm(cap, &api);
    if (c == NULL) {
        return NULL;
    }
    ncclResult_t err = ncclSuccess;
    ncclResult_t rc = api->CommGetAsyncError(c->comm, &err);
    if (rc != ncclSuccess) {
        return mt__nccl_raise(api, rc, "ncclCommGetAsyncError");
    }
    return PyLong_FromLong((long)err);
}

/* NCCL's type for a tensor's elements and their count (complex as pairs of reals, bool as
 * bytes); -1 with torch's error for a dtype NCCL does not have. */
static int
mt__nccl_type(const mt_tensor *t, ncclDataType_t *type, size_t *count)
{
    size_t n = (size_t)t->numel;
    switch (t->dtype) {
    case MT_BOOL: case MT_UINT8: *type = ncclUint8; break;
    case MT_INT8: *type = ncclInt8; break;
    case MT_INT32: *type = ncclInt32; break;
    case MT_INT64: *type = ncclInt64; break;
    case MT_UINT32: *type = ncclUint32; break;
    case MT_UINT64: *type = ncclUint64; break;
    case MT_FLOAT16: *type = ncclFloat16; break;
    case MT_BFLOAT16: *type = ncclBfloat16; break;
    case MT_FLOAT32: *type = ncclFloat32; break;
    case MT_FLOAT64: *type = ncclFloat64; break;
    case MT_COMPLEX64: *type = ncclFloat32; n *= 2; break;
    case MT_COMPLEX128: *type = ncclFloat64; n *= 2; break;
    default:
        PyErr_SetString(PyExc_RuntimeError, "Unsupported data type for NCCL process group");
        return -1;
    }
    *count = n;
    return 0;
}

enum { MT__ALLREDUCE, MT__BROADCAST, MT__REDUCE, MT__ALLGATHER, MT__REDUCESCATTER, MT__SEND,
       MT__RECV };

/* a tensor argument (None: NULL) of an NCCL operation: a contiguous CUDA tensor */
static int
mt__op_tensor(PyObject *o, mt_tensor **out)
{
    *out = NULL;
    if (o == Py_None) {
        return 0;
    }
    if (!mt__tensor_check(o)) {
        PyErr_SetString(PyExc_TypeError, "NCCL operations take tensors");
        return -1;
    }
    mt_tensor *t = mt__tensor_impl(o);
    if (mt_tensor_device(t).type != MT_CUDA) {
        PyErr_SetString(PyExc_ValueError, "Tensors must be CUDA and dense");
        return -1;
    }
    *out = t;
    return 0;
}

/* _nccl_op(comm, kind, send, recv, red_op, root_or_peer, stream) -> None: queues one NCCL
 * operation on `stream` (a stream handle of the comm's device); send/recv are contiguous CUDA
 * tensors or None where the operation has none.  The caller keeps them alive until it has
 * finished. */
static PyObject *
mt_py_nccl_op(PyObject *m, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 7) {
        PyErr_SetString(PyExc_TypeError, "_nccl_op() takes 7 arguments");
        return NULL;
    }
    const mt_nccl_api *api;
    mt__nccl_comm *c = mt__api_comm(args[0], &api);
    if (c == NULL) {
        return NULL;
    }
    int kind = PyLong_AsLong(args[1]), op = PyLong_AsLong(args[4]), root = PyLong_AsLong(args[5]);
    void *stream = PyLong_AsVoidPtr(args[6]);
    mt_tensor *s, *r;
    if (PyErr_Occurred() || mt__op_tensor(args[2], &s) < 0 || mt__op_tensor(args[3], &r) < 0) {
        return NULL;
    }
    /* the tensor whose size is the count NCCL takes */
    mt_tensor *sized = (kind == MT__REDUCE || kind == MT__ALLGATHER || kind == MT__SEND) ? s : r;
    if (sized == NULL) {
        sized = s != NULL ? s : r;
    }
    ncclDataType_t type;
    size_t count;
    if (sized == NULL || mt__nccl_type(sized, &type, &count) < 0) {
        if (!PyErr_Occurred()) {
            PyErr_SetString(PyExc_ValueError, "_nccl_op(): no tensor");
        }
        return NULL;
    }
    const void *sp = s != NULL ? mt_tensor_data(s) : NULL;
    void *rp = r != NULL ? mt_tensor_data(r) : NULL;
    cudaStream_t st = (cudaStream_t)stream;
    ncclRedOp_t rop = (ncclRedOp_t)op;
    int prev;
    if (mt__device_enter(c->device, &prev) < 0) {
        return mt__raise(0);
    }
    ncclResult_t rc;
    const char *what;
    Py_BEGIN_ALLOW_THREADS
    switch (kind) {
    case MT__ALLREDUCE: what = "ncclAllReduce"; rc = api->AllReduce(sp, rp, count, type, rop, c->comm, st); break;
    case MT__BROADCAST: what = "ncclBroadcast"; rc = api->Broadcast(sp, rp, count, type, root, c->comm, st); break;
    case MT__REDUCE: what = "ncclReduce"; rc = api->Reduce(sp, rp, count, type, rop, root, c->comm, st); break;
    case MT__ALLGATHER: what = "ncclAllGather"; rc = api->AllGather(sp, rp, count, type, c->comm, st); break;
    case MT__REDUCESCATTER: what = "ncclReduceScatter"; rc = api->ReduceScatter(sp, rp, count, type, rop, c->comm, st); break;
    case MT__SEND: what = "ncclSend"; rc = api->Send(sp, count, type, root, c->comm, st); break;
    case MT__RECV: what = "ncclRecv"; rc = api->Recv(rp, count, type, root, c->comm, st); break;
    default: what = "an NCCL operation"; rc = ncclInvalidArgument; break;
    }
    Py_END_ALLOW_THREADS
    mt__device_leave(c->device, prev);
    if (rc != ncclSuccess) {
        return mt__nccl_raise(api, rc, what);
    }
    Py_RETURN_NONE;
}

/* _nccl_group(start: bool): ncclGroupStart / ncclGroupEnd */
static PyObject *
mt_py_nccl_group(PyObject *m, PyObject *arg)
{
    const mt_nccl_api *api = mt__api();
    if (api == NULL) {
        return NULL;
    }
    int start = PyObject_IsTrue(arg);
    if (start < 0) {
        return NULL;
    }
    ncclResult_t rc;
    Py_BEGIN_ALLOW_THREADS
    rc = start ? api->GroupStart() : api->GroupEnd();
    Py_END_ALLOW_THREADS
    if (rc != ncclSuccess) {
        return mt__nccl_raise(api, rc, start ? "ncclGroupStart" : "ncclGroupEnd");
    }
    Py_RETURN_NONE;
}

/* Note [PreMulSum operators]
 * ReduceOp.PREMUL_SUM (torch.distributed._make_nccl_premul_sum) is an NCCL reduction operator
 * made per call: ncclRedOpCreatePreMulSum on the communicator with the factor, the collective,
 * then ncclRedOpDestroy (allowed as soon as the call that used it has returned).  A float
 * factor is a one-element CPU tensor of the data's type, read at creation
 * (ncclScalarHostImmediate); a tensor factor is a one-element CUDA tensor read when the
 * collective runs (ncclScalarDevice), kept alive by the caller until the work is done. */

/* _nccl_premul_create(comm, scalar) -> int: a PreMulSum operator of comm whose factor is the
 * one-element tensor `scalar` (a float type; CPU: read now, CUDA: read by the collective) */
static PyObject *
mt_py_nccl_premul_create(PyObject *m, PyObject *args)
{
    PyObject *cap, *obj;
    if (!PyArg_ParseTuple(args, "OO", &cap, &obj)) {
        return NULL;
    }
    const mt_nccl_api *api;
    mt__nccl_comm *c = mt__api_comm(cap, &api);
    if (c == NULL) {
        return NULL;
    }
    if (api->RedOpCreatePreMulSum == NULL || api->RedOpDestroy == NULL) {
        PyErr_Format(PyExc_NotImplementedError,
                     "ReduceOp.PREMUL_SUM needs NCCL 2.11 or later (the loaded library, %s, "
                     "lacks ncclRedOpCreatePreMulSum)", api->path);
        return NULL;
    }
    if (!mt__tensor_check(obj)) {
        PyErr_SetString(PyExc_TypeError, "_nccl_premul_create() takes a tensor");
        return NULL;
    }
    mt_tensor *t = mt__tensor_impl(obj);
    ncclDataType_t type;
    size_t count;
    if (mt__nccl_type(t, &type, &count) < 0) {
        return NULL;
    }
    if (count != 1 || (type != ncclFloat16 && type != ncclBfloat16 && type != ncclFloat32 &&
                       type != ncclFloat64) || mt_dtype_is_complex(t->dtype)) {
        PyErr_SetString(PyExc_TypeError, "PreMulSum Data type must be half, float, bfloat16 "
                                         "or double");
        return NULL;
    }
    bool on_device = mt_tensor_device(t).type == MT_CUDA;
    if (on_device && mt_tensor_device(t).index != c->device) {
        PyErr_SetString(PyExc_ValueError, "the PreMulSum factor must be on the communicator's "
                                          "device");
        return NULL;
    }
    ncclRedOp_t op;
    ncclResult_t rc = api->RedOpCreatePreMulSum(&op, mt_tensor_data(t), type,
                                                on_device ? ncclScalarDevice
                                                          : ncclScalarHostImmediate, c->comm);
    if (rc != ncclSuccess) {
        return mt__nccl_raise(api, rc, "ncclRedOpCreatePreMulSum");
    }
    return PyLong_FromLong((long)op);
}

/* _nccl_redop_destroy(comm, op): ncclRedOpDestroy */
static PyObject *
mt_py_nccl_redop_destroy(PyObject *m, PyObject *args)
{
    PyObject *cap;
    int op;
    if (!PyArg_ParseTuple(args, "Oi", &cap, &op)) {
        return NULL;
    }
    const mt_nccl_api *api;
    mt__nccl_comm *c = mt__api_comm(cap, &api);
    if (c == NULL) {
        return NULL;
    }
    if (api->RedOpDestroy == NULL) {
        PyErr_SetString(PyExc_NotImplementedError, "the loaded NCCL lacks ncclRedOpDestroy");
        return NULL;
    }
    ncclResult_t rc = api->RedOpDestroy((ncclRedOp_t)op, c->comm);
    if (rc != ncclSuccess) {
        return mt__nccl_raise(api, rc, "ncclRedOpDestroy");
    }
    Py_RETURN_NONE;
}

/* _nccl_can_split() -> whether the loaded NCCL has ncclCommSplit */
static PyObject *
mt_py_nccl_can_split(PyObject *m, PyObject *unused)
{
    const mt_nccl_api *api = mt__api();
    if (api == NULL) {
        return NULL;
    }
    return PyBool_FromLong(api->CommSplit != NULL);
}

static PyMethodDef mt_nccl_comm_functions[] = {
    {"_nccl_can_split", mt_py_nccl_can_split, METH_NOARGS, NULL},
    {"_nccl_comm_init", mt_py_nccl_comm_init, METH_VARARGS, NULL},
    {"_nccl_comm_split", mt_py_nccl_comm_split, METH_VARARGS, NULL},
    {"_nccl_comm_finish", mt_py_nccl_comm_finish, METH_VARARGS, NULL},
    {"_nccl_comm_async_error", mt_py_nccl_comm_async_error, METH_O, NULL},
    {"_nccl_op", (PyCFunction)(void (*)(void))mt_py_nccl_op, METH_FASTCALL, NULL},
    {"_nccl_group", mt_py_nccl_group, METH_O, NULL},
    {"_nccl_premul_create", mt_py_nccl_premul_create, METH_VARARGS, NULL},
    {"_nccl_redop_destroy", mt_py_nccl_redop_destroy, METH_VARARGS, NULL},
    {NULL},
};
#endif

int
mt__nccl_comm_binding_init(PyObject *module)
{
#ifdef MT_WITH_NCCL
    return PyModule_AddFunctions(module, mt_nccl_comm_functions);
#else
    (void)module;
    return 0;
#endif
}
