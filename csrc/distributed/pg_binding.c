/* csrc/distributed/pg_binding.c - the ProcessGroup and Work types of minitorch._C._c10d. */
#include "csrc/distributed/binding.h"

#include <string.h>

#define FASTKW(name) (PyCFunction)(void (*)(void))name, METH_FASTCALL | METH_KEYWORDS
#define FAST(name) (PyCFunction)(void (*)(void))name, METH_FASTCALL

static PyTypeObject *mt__PG_Type;
static PyTypeObject *mt__Work_Type;

typedef struct {
    PyObject_HEAD
    mt_pg *pg; /* owned; NULL after destroy/abort */
} MTPGObject;

/* Note [Work keeps its tensors]
 * A Work holds references to the Python tensors of its operation (the C work
 * also holds the impls), so Python code may drop its own references while
 * the operation runs in the background. */
typedef struct {
    PyObject_HEAD
    mt_work *work; /* owned */
    PyObject *keep; /* tuple of the operation's Python objects */
} MTWorkObject;

/* ---- Work ---- */

/* New Work object; steals w (also on failure), keep is borrowed. */
static PyObject *
mt__work_wrap(mt_work *w, PyObject *keep)
{
    if (w == NULL) {
        return mt__raise(0);
    }
    MTWorkObject *o = PyObject_GC_New(MTWorkObject, mt__Work_Type);
    if (o == NULL) {
        mt_work_decref(w);
        return NULL;
    }
    o->work = w;
    o->keep = Py_XNewRef(keep);
    PyObject_GC_Track((PyObject *)o);
    return (PyObject *)o;
}

static void
mt_work_obj_dealloc(PyObject *self)
{
    MTWorkObject *o = (MTWorkObject *)self;
    PyTypeObject *tp = Py_TYPE(self);
    PyObject_GC_UnTrack(self);
    mt_work_decref(o->work);
    Py_CLEAR(o->keep);
    PyObject_GC_Del(self);
    Py_DECREF(tp);
}

static int
mt_work_obj_traverse(PyObject *self, visitproc visit, void *arg)
{
    Py_VISIT(Py_TYPE(self));
    Py_VISIT(((MTWorkObject *)self)->keep);
    return 0;
}

static int
mt_work_obj_clear(PyObject *self)
{
    Py_CLEAR(((MTWorkObject *)self)->keep);
    return 0;
}

/* wait(timeout_ms=-1) -> True; raises the operation's error. */
/* Waits for w (ms < 0: without limit, in slices so that Ctrl-C interrupts a
 * long wait); 0, or -1 with the Python exception set. */
static int
mt__wait_work(mt_work *w, int64_t ms)
{
    int rc;
    if ((rc = mt_work_result(w)) != MT_ETIMEOUT) {
        /* done already, e.g. run by the caller (Note [Issuing an operation]) */
    }
    else if (ms < 0) {
        for (;;) {
            Py_BEGIN_ALLOW_THREADS
            rc = mt_work_wait(w, 100);
            Py_END_ALLOW_THREADS
            if (rc != MT_ETIMEOUT) {
                break;
            }
            if (mt_work_is_completed(w)) {
                rc = mt_work_wait(w, 0); /* finished as the slice ended: its own status */
                break;
            }
            if (PyErr_CheckSignals() < 0) {
                return -1;
            }
        }
    }
    else {
        Py_BEGIN_ALLOW_THREADS
        rc = mt_work_wait(w, ms);
        Py_END_ALLOW_THREADS
    }
    if (rc < 0) {
        /* Whatever failed while running (sizes that disagree between ranks
         * included) is a backend error, as torch's. */
        if (rc == MT_ENOMEM || rc == MT_ENOTIMPL) {
            mt__raise(rc);
            return -1;
        }
        PyErr_SetString(mt__DistBackendError, mt_error_message());
        return -1;
    }
    return 0;
}

static PyObject *
mt_py_work_wait(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    int64_t ms = -1;
    if (nargs > 1) {
        PyErr_SetString(PyExc_TypeError, "wait() takes at most 1 argument");
        return NULL;
    }
    if (nargs == 1 && args[0] != Py_None &&
        mt__int64_from_py(args[0], &ms, "wait", "timeout") < 0) {
        return NULL;
    }
    if (mt__wait_work(((MTWorkObject *)self)->work, ms) < 0) {
        return NULL;
    }
    Py_RETURN_TRUE;
}

static PyObject *
mt_py_work_is_completed(PyObject *self, PyObject *unused)
{
    return PyBool_FromLong(mt_work_is_completed(((MTWorkObject *)self)->work));
}

static PyObject *
mt_py_work_is_success(PyObject *self, PyObject *unused)
{
    return PyBool_FromLong(mt_work_is_success(((MTWorkObject *)self)->work));
}

/* (code, message) of the failure, or None while running / on success. */
static PyObject *
mt_py_work_error(PyObject *self, PyObject *unused)
{
    mt_work *w = ((MTWorkObject *)self)->work;
    if (!mt_work_is_completed(w) || mt_work_is_success(w)) {
        Py_RETURN_NONE;
    }
    const char *m = mt_work_exception_message(w);
    return Py_BuildValue("(is)", mt_work_error(w), m != NULL ? m : "");
}

static PyObject *
mt_py_work_source_rank(PyObject *self, PyObject *unused)
{
    return PyLong_FromLong(mt_work_source_rank(((MTWorkObject *)self)->work));
}

static PyObject *
mt_py_work_op_name(PyObject *self, PyObject *unused)
{
    return PyUnicode_FromString(mt_work_op_name(((MTWorkObject *)self)->work));
}

static PyMethodDef mt_work_methods[] = {
    {"wait", FAST(mt_py_work_wait), "wait(timeout_ms=-1) -> True; raises the operation's error."},
    {"is_completed", mt_py_work_is_completed, METH_NOARGS, NULL},
    {"is_success", mt_py_work_is_success, METH_NOARGS, NULL},
    {"error", mt_py_work_error, METH_NOARGS, "(code, message) of a failed operation, or None."},
    {"source_rank", mt_py_work_source_rank, METH_NOARGS, NULL},
    {"op_name", mt_py_work_op_name, METH_NOARGS, NULL},
    {NULL},
};

static PyType_Slot mt_work_slots[] = {
    {Py_tp_dealloc, mt_work_obj_dealloc},
    {Py_tp_traverse, mt_work_obj_traverse},
    {Py_tp_clear, mt_work_obj_clear},
    {Py_tp_methods, mt_work_methods},
    {Py_tp_doc, "A queued operation of a process group."},
    {0, NULL},
};

static PyType_Spec mt_work_spec = {
    .name = "minitorch._C._c10d.Work",
    .basicsize = sizeof(MTWorkObject),
    .flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC | Py_TPFLAGS_DISALLOW_INSTANTIATION,
    .slots = mt_work_slots,
};

/* ---- argument helpers ---- */

static mt_pg *
mt__pg_of(PyObject *self, const char *fname)
{
    mt_pg *pg = ((MTPGObject *)self)->pg;
    if (pg == NULL) {
        PyErr_Format(mt__DistBackendError, "%s: the process group has been destroyed", fname);
    }
    return pg;
}

static mt_tensor *
mt__tensor_arg(PyObject *o, const char *fname, const char *what)
{
    if (!mt__tensor_check(o)) {
        PyErr_Format(PyExc_TypeError, "%s: %s must be a Tensor, not %s", fname, what,
                     Py_TYPE(o)->tp_name);
        return NULL;
    }
    return mt__tensor_impl(o);
}

/* A list/tuple of tensors into a PyMem array of borrowed impls (*n entries). */
static mt_tensor **
mt__tensor_list_arg(PyObject *o, int *n, const char *fname, const char *what)
{
    if (!PyList_Check(o) && !PyTuple_Check(o)) {
        PyErr_Format(PyExc_TypeError, "%s: %s must be a list of Tensors, not %s", fname, what,
                     Py_TYPE(o)->tp_name);
        return NULL;
    }
    Py_ssize_t m = PySequence_Fast_GET_SIZE(o);
    if (m > INT32_MAX) {
        PyErr_Format(PyExc_ValueError, "%s: too many tensors", fname);
        return NULL;
    }
    mt_tensor **arr = PyMem_Malloc(sizeof(mt_tensor *) * (size_t)(m + 1));
    if (arr == NULL) {
        PyErr_NoMemory();
        return NULL;
    }
    for (Py_ssize_t i = 0; i < m; i++) {
        PyObject *t = PySequence_Fast_GET_ITEM(o, i);
        if (!mt__tensor_check(t)) {
            PyErr_Format(PyExc_TypeError, "%s: %s[%zd] must be a Tensor, not %s", fname, what,
                         i, Py_TYPE(t)->tp_name);
            PyMem_Free(arr);
            return NULL;
        }
        arr[i] = mt__tensor_impl(t);
    }
    *n = (int)m;
    return arr;
}

static int
mt__int_arg(PyObject *o, int *out, const char *fname, const char *what)
{
    int64_t v;
    if (mt__int64_from_py(o, &v, fname, what) < 0) {
        return -1;
    }
    if (v < INT32_MIN || v > INT32_MAX) {
        PyErr_Format(PyExc_ValueError, "%s: %s %lld is out of range", fname, what, (long long)v);
        return -1;
    }
    *out = (int)v;
    return 0;
}

static int
mt__op_arg(PyObject *o, mt_dist_op *out, const char *fname)
{
    int v;
    if (mt__int_arg(o, &v, fname, "op") < 0) {
        return -1;
    }
    if (v < 0 || v >= MT_DIST_NUM_OPS) {
        PyErr_Format(PyExc_ValueError, "%s: invalid reduce op %d", fname, v);
        return -1;
    }
    *out = (mt_dist_op)v;
    return 0;
}

static PyObject *
mt__keep(Py_ssize_t nargs, PyObject *const *args)
{
    PyObject *t = PyTuple_New(nargs);
    if (t == NULL) {
        return NULL;
    }
    for (Py_ssize_t i = 0; i < nargs; i++) {
        PyTuple_SET_ITEM(t, i, Py_NewRef(args[i]));
    }
    return t;
}

/* Every operation method takes its arguments, then optionally `now` and
 * `timeout_ms` (Note [Issuing an operation]): with now true the operation is
 * run before the method returns (on the calling thread when nothing else is
 * queued), and the method returns None (recv: the sender's rank) instead of
 * a Work; timeout_ms > 0 is its own time limit instead of the group's. */
#define MT__CALL_ARGS(fname, want)                                                         \
    if (nargs < (want) || nargs > (want) + 2) {                                            \
        PyErr_Format(PyExc_TypeError, "%s() takes %d to %d arguments (%zd given)", fname,  \
                     want, (want) + 2, nargs);                                             \
        return NULL;                                                                       \
    }                                                                                      \
    mt_pg_call call_ = {false, 0};                                                         \
    if (mt__call_arg(args + (want), nargs - (want), &call_, fname) < 0) {                  \
        return NULL;                                                                       \
    }

static int
mt__call_arg(PyObject *const *extra, Py_ssize_t n, mt_pg_call *call, const char *fname)
{
    if (n >= 1) {
        int now = PyObject_IsTrue(extra[0]);
        if (now < 0) {
            return -1;
        }
        call->now = now != 0;
    }
    if (n >= 2 && mt__int64_from_py(extra[1], &call->timeout_ms, fname, "timeout") < 0) {
        return -1;
    }
    return 0;
}

/* Declares `w` = the operation `expr`, issued as call_ says: without the GIL
 * when it may run on this thread. */
#define MT__ISSUE(w, expr)         \
    mt_work *w;                    \
    if (call_.now) {               \
        Py_BEGIN_ALLOW_THREADS     \
        w = (expr);                \
        Py_END_ALLOW_THREADS       \
    }                              \
    else {                         \
        w = (expr);                \
    }

/* The method's result for the work w (stolen; NULL: the issue failed): a
 * Work keeping the call's arguments alive, or, after a `now` call, None once
 * w has completed (the sender's rank when `source`). */
static PyObject *
mt__finish_work(mt_work *w, const mt_pg_call *call, bool source, Py_ssize_t nargs,
                PyObject *const *args)
{
    if (w == NULL) {
        return mt__raise(0);
    }
    if (call->now) {
        int rc = mt__wait_work(w, -1);
        int src = source ? mt_work_source_rank(w) : -1;
        mt_work_decref(w);
        if (rc < 0) {
            return NULL;
        }
        if (source) {
            return PyLong_FromLong(src);
        }
        Py_RETURN_NONE;
    }
    PyObject *keep = mt__keep(nargs, args);
    if (keep == NULL) {
        mt_work_decref(w);
        return NULL;
    }
    PyObject *r = mt__work_wrap(w, keep);
    Py_DECREF(keep);
    return r;
}

/* ---- ProcessGroup methods (positional arguments; minitorch.distributed checks them) ---- */

/* allreduce(tensors or one tensor, op) */
static PyObject *
mt_py_pg_allreduce(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    MT__CALL_ARGS("allreduce", 2);
    mt_pg *pg = mt__pg_of(self, "all_reduce");
    mt_dist_op op;
    int n;
    if (pg == NULL || mt__op_arg(args[1], &op, "all_reduce") < 0) {
        return NULL;
    }
    mt_tensor *one, **ts = &one; /* a bare tensor: the common call, without an array */
    if (mt__tensor_check(args[0])) {
        one = mt__tensor_impl(args[0]);
        n = 1;
    }
    else if ((ts = mt__tensor_list_arg(args[0], &n, "all_reduce", "tensors")) == NULL) {
        return NULL;
    }
    MT__ISSUE(w, mt_pg_allreduce(pg, &call_, ts, n, op));
    if (ts != &one) {
        PyMem_Free(ts);
    }
    return mt__finish_work(w, &call_, false, nargs, args);
}

/* broadcast(tensors, root) */
static PyObject *
mt_py_pg_broadcast(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    MT__CALL_ARGS("broadcast", 2);
    mt_pg *pg = mt__pg_of(self, "broadcast");
    int root, n;
    if (pg == NULL || mt__int_arg(args[1], &root, "broadcast", "src") < 0) {
        return NULL;
    }
    mt_tensor **ts = mt__tensor_list_arg(args[0], &n, "broadcast", "tensors");
    if (ts == NULL) {
        return NULL;
    }
    MT__ISSUE(w, mt_pg_broadcast(pg, &call_, ts, n, root));
    PyMem_Free(ts);
    return mt__finish_work(w, &call_, false, nargs, args);
}

/* reduce(tensor, root, op) */
static PyObject *
mt_py_pg_reduce(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    MT__CALL_ARGS("reduce", 3);
    mt_pg *pg = mt__pg_of(self, "reduce");
    int root;
    mt_dist_op op;
    mt_tensor *t;
    if (pg == NULL || mt__int_arg(args[1], &root, "reduce", "dst") < 0 ||
        mt__op_arg(args[2], &op, "reduce") < 0 ||
        (t = mt__tensor_arg(args[0], "reduce", "tensor")) == NULL) {
        return NULL;
    }
    MT__ISSUE(w, mt_pg_reduce(pg, &call_, t, root, op));
    return mt__finish_work(w, &call_, false, nargs, args);
}

/* The list must hold exactly the group's size of tensors. */
static mt_tensor **
mt__group_list(mt_pg *pg, PyObject *o, const char *fname, const char *what)
{
    int n;
    mt_tensor **ts = mt__tensor_list_arg(o, &n, fname, what);
    if (ts != NULL && n != mt_pg_size(pg)) {
        PyErr_Format(PyExc_ValueError, "%s: %s must contain %d tensors (the group size), got %d",
                     fname, what, mt_pg_size(pg), n);
        PyMem_Free(ts);
        return NULL;
    }
    return ts;
}

/* allgather(outputs, input) */
static PyObject *
mt_py_pg_allgather(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    MT__CALL_ARGS("allgather", 2);
    mt_pg *pg = mt__pg_of(self, "all_gather");
    mt_tensor *in;
    if (pg == NULL || (in = mt__tensor_arg(args[1], "all_gather", "tensor")) == NULL) {
        return NULL;
    }
    mt_tensor **outs = mt__group_list(pg, args[0], "all_gather", "tensor_list");
    if (outs == NULL) {
        return NULL;
    }
    MT__ISSUE(w, mt_pg_allgather(pg, &call_, outs, in));
    PyMem_Free(outs);
    return mt__finish_work(w, &call_, false, nargs, args);
}

/* gather(outputs or None, input, root) */
static PyObject *
mt_py_pg_gather(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    MT__CALL_ARGS("gather", 3);
    mt_pg *pg = mt__pg_of(self, "gather");
    mt_tensor *in;
    int root;
    if (pg == NULL || mt__int_arg(args[2], &root, "gather", "dst") < 0 ||
        (in = mt__tensor_arg(args[1], "gather", "tensor")) == NULL) {
        return NULL;
    }
    mt_tensor **outs = NULL;
    if (args[0] != Py_None &&
        (outs = mt__group_list(pg, args[0], "gather", "gather_list")) == NULL) {
        return NULL;
    }
    MT__ISSUE(w, mt_pg_gather(pg, &call_, outs, in, root));
    PyMem_Free(outs);
    return mt__finish_work(w, &call_, false, nargs, args);
}

/* scatter(output, inputs or None, root) */
static PyObject *
mt_py_pg_scatter(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    MT__CALL_ARGS("scatter", 3);
    mt_pg *pg = mt__pg_of(self, "scatter");
    mt_tensor *out;
    int root;
    if (pg == NULL || mt__int_arg(args[2], &root, "scatter", "src") < 0 ||
        (out = mt__tensor_arg(args[0], "scatter", "tensor")) == NULL) {
        return NULL;
    }
    mt_tensor **ins = NULL;
    if (args[1] != Py_None &&
        (ins = mt__group_list(pg, args[1], "scatter", "scatter_list")) == NULL) {
        return NULL;
    }
    MT__ISSUE(w, mt_pg_scatter(pg, &call_, out, ins, root));
    PyMem_Free(ins);
    return mt__finish_work(w, &call_, false, nargs, args);
}

/* reduce_scatter(output, inputs, op) */
static PyObject *
mt_py_pg_reduce_scatter(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    MT__CALL_ARGS("reduce_scatter", 3);
    mt_pg *pg = mt__pg_of(self, "reduce_scatter");
    mt_tensor *out;
    mt_dist_op op;
    if (pg == NULL || mt__op_arg(args[2], &op, "reduce_scatter") < 0 ||
        (out = mt__tensor_arg(args[0], "reduce_scatter", "output")) == NULL) {
        return NULL;
    }
    mt_tensor **ins = mt__group_list(pg, args[1], "reduce_scatter", "input_list");
    if (ins == NULL) {
        return NULL;
    }
    MT__ISSUE(w, mt_pg_reduce_scatter(pg, &call_, out, ins, op));
    PyMem_Free(ins);
    return mt__finish_work(w, &call_, false, nargs, args);
}

/* alltoall(outputs, inputs) */
static PyObject *
mt_py_pg_alltoall(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    MT__CALL_ARGS("alltoall", 2);
    mt_pg *pg = mt__pg_of(self, "all_to_all");
    if (pg == NULL) {
        return NULL;
    }
    mt_tensor **outs = mt__group_list(pg, args[0], "all_to_all", "output_tensor_list");
    if (outs == NULL) {
        return NULL;
    }
    mt_tensor **ins = mt__group_list(pg, args[1], "all_to_all", "input_tensor_list");
    if (ins == NULL) {
        PyMem_Free(outs);
        return NULL;
    }
    MT__ISSUE(w, mt_pg_alltoall(pg, &call_, outs, ins));
    PyMem_Free(outs);
    PyMem_Free(ins);
    return mt__finish_work(w, &call_, false, nargs, args);
}

/* Split sizes (None or a sequence of the group's size of ints) into buf. */
static int
mt__splits_arg(mt_pg *pg, PyObject *o, int64_t *buf, int64_t **out, const char *what)
{
    *out = NULL;
    if (o == Py_None) {
        return 0;
    }
    if (!PyList_Check(o) && !PyTuple_Check(o)) {
        PyErr_Format(PyExc_TypeError, "all_to_all_single: %s must be a list of ints, not %s",
                     what, Py_TYPE(o)->tp_name);
        return -1;
    }
    Py_ssize_t m = PySequence_Fast_GET_SIZE(o);
    if (m == 0) {
        return 0; /* torch: an empty list means equal splits */
    }
    if (m != mt_pg_size(pg)) {
        PyErr_Format(PyExc_ValueError,
                     "all_to_all_single: %s must have %d entries (the group size), got %zd", what,
                     mt_pg_size(pg), m);
        return -1;
    }
    if (mt__int64s_from_seq(o, buf, m, "all_to_all_single", what) < 0) {
        return -1;
    }
    *out = buf;
    return 0;
}

/* alltoall_single(output, input, output_splits, input_splits) */
static PyObject *
mt_py_pg_alltoall_single(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    MT__CALL_ARGS("alltoall_single", 4);
    mt_pg *pg = mt__pg_of(self, "all_to_all_single");
    if (pg == NULL) {
        return NULL;
    }
    int64_t *buf = PyMem_Malloc(sizeof(int64_t) * 2 * (size_t)mt_pg_size(pg));
    if (buf == NULL) {
        return PyErr_NoMemory();
    }
    /* the split lists first: their items' __index__ may swap the tensors' impls */
    int64_t *os, *is;
    mt_tensor *out, *in;
    if (mt__splits_arg(pg, args[2], buf, &os, "output_split_sizes") < 0 ||
        mt__splits_arg(pg, args[3], buf + mt_pg_size(pg), &is, "input_split_sizes") < 0 ||
        (out = mt__tensor_arg(args[0], "all_to_all_single", "output")) == NULL ||
        (in = mt__tensor_arg(args[1], "all_to_all_single", "input")) == NULL) {
        PyMem_Free(buf);
        return NULL;
    }
    MT__ISSUE(w, mt_pg_alltoall_single(pg, &call_, out, in, os, is));
    PyMem_Free(buf);
    return mt__finish_work(w, &call_, false, nargs, args);
}

static PyObject *
mt_py_pg_barrier(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    MT__CALL_ARGS("barrier", 0);
    mt_pg *pg = mt__pg_of(self, "barrier");
    if (pg == NULL) {
        return NULL;
    }
    MT__ISSUE(w, mt_pg_barrier(pg, &call_));
    return mt__finish_work(w, &call_, false, 0, NULL);
}

/* send(tensor, dst, tag) / recv(tensor, src (-1: any), tag) */
static PyObject *
mt__p2p(PyObject *self, PyObject *const *args, Py_ssize_t nargs, bool is_send)
{
    const char *fname = is_send ? "send" : "recv";
    MT__CALL_ARGS(fname, 3);
    mt_pg *pg = mt__pg_of(self, fname);
    mt_tensor *t;
    int peer, tag;
    if (pg == NULL || mt__int_arg(args[1], &peer, fname, is_send ? "dst" : "src") < 0 ||
        mt__int_arg(args[2], &tag, fname, "tag") < 0 ||
        (t = mt__tensor_arg(args[0], fname, "tensor")) == NULL) {
        return NULL;
    }
    MT__ISSUE(w, is_send ? mt_pg_send(pg, &call_, t, peer, tag)
                         : mt_pg_recv(pg, &call_, t, peer, tag));
    return mt__finish_work(w, &call_, !is_send, nargs, args);
}

static PyObject *
mt_py_pg_send(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    return mt__p2p(self, args, nargs, true);
}

static PyObject *
mt_py_pg_recv(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    return mt__p2p(self, args, nargs, false);
}

static PyObject *
mt_py_pg_rank(PyObject *self, PyObject *unused)
{
    mt_pg *pg = mt__pg_of(self, "rank");
    return pg == NULL ? NULL : PyLong_FromLong(mt_pg_rank(pg));
}

static PyObject *
mt_py_pg_transport(PyObject *self, PyObject *unused)
{
    mt_pg *pg = mt__pg_of(self, "transport");
    return pg == NULL ? NULL : PyUnicode_FromString(mt_pg_transport_name(pg));
}

static PyObject *
mt_py_pg_connections(PyObject *self, PyObject *unused)
{
    mt_pg *pg = mt__pg_of(self, "connections");
    if (pg == NULL) {
        return NULL;
    }
    int sockets = 0;
    int n = mt_pg_transport_connections(pg, &sockets);
    if (n < 0) {
        Py_RETURN_NONE;
    }
    return Py_BuildValue("(ii)", n, sockets);
}

static PyObject *
mt_py_pg_size(PyObject *self, PyObject *unused)
{
    mt_pg *pg = mt__pg_of(self, "size");
    return pg == NULL ? NULL : PyLong_FromLong(mt_pg_size(pg));
}

static PyObject *
mt_py_pg_timeout_ms(PyObject *self, PyObject *unused)
{
    mt_pg *pg = mt__pg_of(self, "timeout");
    return pg == NULL ? NULL : PyLong_FromLongLong(mt_pg_timeout_ms(pg));
}

/* set_timeout_ms(ms): the time each later operation may take */
static PyObject *
mt_py_pg_set_timeout_ms(PyObject *self, PyObject *arg)
{
    mt_pg *pg = mt__pg_of(self, "set_timeout");
    int64_t ms;
    if (pg == NULL || mt__int64_from_py(arg, &ms, "set_timeout", "timeout") < 0) {
        return NULL;
    }
    if (mt_pg_set_timeout(pg, ms) < 0) {
        return mt__raise(0);
    }
    Py_RETURN_NONE;
}

static PyObject *
mt_py_pg_broken(PyObject *self, PyObject *unused)
{
    mt_pg *pg = mt__pg_of(self, "broken");
    if (pg == NULL) {
        return NULL;
    }
    const char *msg = NULL;
    if (!mt_pg_is_broken(pg, &msg)) {
        Py_RETURN_NONE;
    }
    return PyUnicode_FromString(msg != NULL ? msg : "the process group is broken");
}

static PyObject *
mt_py_pg_is_alive(PyObject *self, PyObject *unused)
{
    return PyBool_FromLong(((MTPGObject *)self)->pg != NULL);
}

static PyObject *
mt__pg_shutdown(PyObject *self, bool abort)
{
    mt_pg *pg = ((MTPGObject *)self)->pg;
    ((MTPGObject *)self)->pg = NULL;
    if (pg != NULL) {
        Py_BEGIN_ALLOW_THREADS
        if (abort) {
            mt_pg_abort(pg);
        }
        else {
            mt_pg_destroy(pg);
        }
        Py_END_ALLOW_THREADS
    }
    Py_RETURN_NONE;
}

static PyObject *
mt_py_pg_destroy(PyObject *self, PyObject *unused)
{
    return mt__pg_shutdown(self, false);
}

static PyObject *
mt_py_pg_abort(PyObject *self, PyObject *unused)
{
    return mt__pg_shutdown(self, true);
}

static void
mt_pg_obj_dealloc(PyObject *self)
{
    PyTypeObject *tp = Py_TYPE(self);
    mt_pg *pg = ((MTPGObject *)self)->pg;
    ((MTPGObject *)self)->pg = NULL;
    if (pg != NULL) {
        /* the last reference to a group: its queued operations finish (each within its
         * timeout), then its connections close (Note [Destroyed groups], distributed_c10d.py) */
        Py_BEGIN_ALLOW_THREADS
        mt_pg_destroy(pg);
        Py_END_ALLOW_THREADS
    }
    tp->tp_free(self);
    Py_DECREF(tp);
}

static PyMethodDef mt_pg_methods[] = {
    {"allreduce", FAST(mt_py_pg_allreduce), NULL},
    {"broadcast", FAST(mt_py_pg_broadcast), NULL},
    {"reduce", FAST(mt_py_pg_reduce), NULL},
    {"allgather", FAST(mt_py_pg_allgather), NULL},
    {"gather", FAST(mt_py_pg_gather), NULL},
    {"scatter", FAST(mt_py_pg_scatter), NULL},
    {"reduce_scatter", FAST(mt_py_pg_reduce_scatter), NULL},
    {"alltoall", FAST(mt_py_pg_alltoall), NULL},
    {"alltoall_single", FAST(mt_py_pg_alltoall_single), NULL},
    {"barrier", FAST(mt_py_pg_barrier), NULL},
    {"send", FAST(mt_py_pg_send), NULL},
    {"recv", FAST(mt_py_pg_recv), NULL},
    {"rank", mt_py_pg_rank, METH_NOARGS, NULL},
    {"size", mt_py_pg_size, METH_NOARGS, NULL},
    {"transport", mt_py_pg_transport, METH_NOARGS, "The group's transport: 'shm' or 'tcp'."},
    {"connections", mt_py_pg_connections, METH_NOARGS,
     "(peers, sockets): the TCP connections this rank has made or accepted so far (they are "
     "made on first use); None for a group without TCP."},
    {"timeout_ms", mt_py_pg_timeout_ms, METH_NOARGS, NULL},
    {"set_timeout_ms", mt_py_pg_set_timeout_ms, METH_O, "The time each later operation may take."},
    {"broken", mt_py_pg_broken, METH_NOARGS, "The first error of a broken group, or None."},
    {"is_alive", mt_py_pg_is_alive, METH_NOARGS, NULL},
    {"destroy", mt_py_pg_destroy, METH_NOARGS,
     "Waits for queued operations, closes the connections."},
    {"abort", mt_py_pg_abort, METH_NOARGS, "Fails queued operations, closes the connections."},
    {NULL},
};

static PyType_Slot mt_pg_slots[] = {
    {Py_tp_dealloc, mt_pg_obj_dealloc},
    {Py_tp_methods, mt_pg_methods},
    {Py_tp_doc, "A TCP process group (the 'gloo' backend): queued collectives run in C."},
    {0, NULL},
};

static PyType_Spec mt_pg_spec = {
    .name = "minitorch._C._c10d.ProcessGroupGloo",
    .basicsize = sizeof(MTPGObject),
    .flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_DISALLOW_INSTANTIATION,
    .slots = mt_pg_slots,
};

/* _new_process_group(store, rank, size, timeout_ms): joins the mesh (blocking). */
static PyObject *
mt_py_new_process_group(PyObject *m, PyObject *const *args, Py_ssize_t nargs, PyObject *kw)
{
    static const char *const names[] = {"store", "rank", "size", "timeout_ms", NULL};
    PyObject *a[4];
    if (mt__parse_args("_new_process_group", args, nargs, kw, names, 4, 4, a) < 0) {
        return NULL;
    }
    int rank, size;
    int64_t tmo;
    if (mt__int_arg(a[1], &rank, "init_process_group", "rank") < 0 ||
        mt__int_arg(a[2], &size, "init_process_group", "world_size") < 0 ||
        mt__int64_from_py(a[3], &tmo, "init_process_group", "timeout") < 0) {
        return NULL;
    }
    mt_store *s = mt__store_ref_from_py(a[0], "init_process_group");
    if (s == NULL) {
        return NULL;
    }
    MTPGObject *o = PyObject_New(MTPGObject, mt__PG_Type);
    if (o == NULL) {
        mt_store_decref(s);
        return NULL;
    }
    o->pg = NULL;
    mt_pg *pg;
    Py_BEGIN_ALLOW_THREADS
    pg = mt_pg_new(s, rank, size, tmo);
    mt_store_decref(s); /* the group holds its own reference */
    Py_END_ALLOW_THREADS
    if (pg == NULL) {
        Py_DECREF(o);
        int code = mt_error_code();
        return mt__dist_raise(code, code == MT_ETIMEOUT || code == MT_ECONN ? mt__DistNetworkError
                                                                            : mt__DistBackendError);
    }
    o->pg = pg;
    return (PyObject *)o;
}

PyObject *
mt__pg_wrap(mt_pg *pg)
{
    MTPGObject *o = PyObject_New(MTPGObject, mt__PG_Type);
    if (o == NULL) {
        Py_BEGIN_ALLOW_THREADS
        mt_pg_destroy(pg);
        Py_END_ALLOW_THREADS
        return NULL;
    }
    o->pg = pg;
    return (PyObject *)o;
}

mt_pg *
mt__pg_from_py(PyObject *o, const char *fname)
{
    if (!PyObject_TypeCheck(o, mt__PG_Type)) {
        PyErr_Format(PyExc_TypeError, "%s: expected a C process group, not %s", fname,
                     Py_TYPE(o)->tp_name);
        return NULL;
    }
    return mt__pg_of(o, fname);
}

static PyMethodDef mt_pg_functions[] = {
    {"_new_process_group", FASTKW(mt_py_new_process_group),
     "_new_process_group(store, rank, size, timeout_ms) -> ProcessGroupGloo"},
    {NULL},
};

int
mt__pg_binding_init(PyObject *module)
{
    mt__Work_Type = (PyTypeObject *)PyType_FromModuleAndSpec(module, &mt_work_spec, NULL);
    if (mt__Work_Type == NULL ||
        PyModule_AddObjectRef(module, "Work", (PyObject *)mt__Work_Type) < 0) {
        return -1;
    }
    mt__PG_Type = (PyTypeObject *)PyType_FromModuleAndSpec(module, &mt_pg_spec, NULL);
    if (mt__PG_Type == NULL ||
        PyModule_AddObjectRef(module, "ProcessGroupGloo", (PyObject *)mt__PG_Type) < 0) {
        return -1;
    }
    return PyModule_AddFunctions(module, mt_pg_functions);
}
