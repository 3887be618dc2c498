/* csrc/autograd/autograd.h - reverse-mode autograd: grad mode, the graph's nodes, the engine. */
#ifndef CSRC_AUTOGRAD_AUTOGRAD_H
#define CSRC_AUTOGRAD_AUTOGRAD_H

#include "csrc/common.h"
#include "csrc/torch_function.h"

/* Note [Autograd state of a tensor]
 * A tensor object (MTTensorObject) carries its own autograd state; the impl below it knows
 * nothing of gradients.  A leaf that requires grad has requires_grad set and no grad_fn; a
 * tensor made by a recorded op has grad_fn (the node that made it) and output_nr (which of the
 * node's outputs it is) and requires grad through them.  A leaf's gradients reach it through
 * its AccumulateGrad node, made on first use and shared by every op that uses the leaf (the
 * tensor holds it weakly, the graph strongly, so it lives exactly as long as a graph uses it).
 * `tracked` says the tensor is counted in mt__ag_live: while that count is zero no tensor can
 * require grad, and every op skips autograd with one compare (see Note [Recording an op]). */

/* Note [Recording an op]
 * Every C entry point of the op table is wrapped (tools/gen_op_table.py): when grad mode is
 * on, some tensor requires grad and one of the call's tensor arguments (or a list of them)
 * requires grad, the call goes to minitorch.autograd._record instead, which runs the op with
 * grad mode off and, from the op table's formula for it, adds a node to the graph.  Otherwise
 * the wrapper calls the op directly.  Operators (+, -, ...), indexing and the T/mT/H/mH
 * properties take the same route.  In-place forms bump the storage's version counter
 * whether or not they are recorded (see Note [Saved tensors] in minitorch/autograd/). */

extern Py_ssize_t mt__ag_live;          /* tensors that require grad or have a grad_fn */
extern _Thread_local int mt__grad_off;  /* grad mode of this thread, 0: enabled (default), 1:
                                         * disabled (no_grad, inference_mode, backward),
                                         * MT__GRAD_OFF_RECORDING: disabled by a recorder */
/* mt__grad_off while a recorder runs the op it records: the views it makes are not views made
 * in no_grad mode (Note [Creation meta of views]) */
#define MT__GRAD_OFF_RECORDING 2

/* Note [Creation meta of views]
 * As torch's CreationMeta, a view (a tensor with a _base) remembers how it was made, because
 * an in-place op on it cannot always be recorded: a view made in no_grad mode or in inference
 * mode (while the in-place op runs with grad mode on), one of several views that one op
 * returns (unbind, split, chunk), or a view returned by a custom Function.  An in-place op
 * that autograd records on such a view (also one of its base made after it: "its base or
 * another view of its base") raises torch's error (mt__view_rebase_error).  A view of such a
 * view inherits the mark (an inference-mode mark wins), as torch propagates it. */
enum {
    MT_VIEW_DEFAULT = 0,
    MT_VIEW_IN_CUSTOM_FUNCTION,
    MT_VIEW_MULTI_OUTPUT,
    MT_VIEW_NO_GRAD,
    MT_VIEW_INFERENCE,
};

/* The mark of a new view of `src` made in the thread's current mode (Note [Creation meta of
 * views]); `made_as`: MT_VIEW_DEFAULT, or MT_VIEW_MULTI_OUTPUT for the outputs of unbind and
 * split. */
static inline char
mt__view_meta_for(PyObject *src, int made_as)
{
    MTTensorObject *s = (MTTensorObject *)src;
    int prev = s->base != NULL ? s->view_meta : MT_VIEW_DEFAULT;
    int now = mt_inference_mode ? MT_VIEW_INFERENCE
              : mt__grad_off == 1 ? MT_VIEW_NO_GRAD
                                  : made_as;
    return (char)(now == MT_VIEW_DEFAULT ? prev : prev == MT_VIEW_INFERENCE ? prev : now);
}

/* Sets torch's RuntimeError for an in-place op on the view t, whose mark is not
 * MT_VIEW_DEFAULT (directly, or through its base or another view: `indirect`).  Returns -1. */
int mt__view_rebase_error(PyObject *t, int indirect);

/* Note [Lazy view history]
 * A view's history is its base's, seen through the view.  When the base (or another view of
 * it) is written in place after the view's history was set, the view's history is stale; as
 * torch does, it is made again when it is next read (grad_fn, is_leaf, or an op that uses the
 * view): an as_strided of the base's current history (autograd/_record.py's regenerate_view).
 * view_version (the storage's version when the view's history was last set, or when it was
 * made) tells.  A view marked otherwise than MT_VIEW_DEFAULT raises torch's error instead
 * (Note [Creation meta of views]).  This applies to views whose base requires grad; 0, or -1
 * with an exception. */
int mt__view_refresh(PyObject *t);

/* Note [Anomaly mode and node hooks]
 * Anomaly mode (autograd.detect_anomaly, autograd/anomaly_mode.py) is process-wide, as torch's.
 * While it is on, the engine runs every node through its Python function (none runs in C),
 * hands a node that failed, with its exception, to mt__anomaly_report (which warns with the
 * traceback of the forward call that made the node) and, when NaN checks are on, each node's
 * results to mt__anomaly_check (which raises torch's error for a NaN).  mt__node_hook, when
 * set, is called with every node made (by the C recorder, or through _Node() by the Python
 * recorder and autograd.Function; not AccumulateGrad): anomaly mode keeps the forward
 * traceback in node.metadata through it.  Off, each costs one compare.
 * Saved-tensor hooks (autograd.graph.saved_tensors_hooks) must see every tensor a node saves:
 * while mt__ag_python_only is set on a thread, the C recorder hands every call to the Python
 * recorder (mt__ag_begin returns -1), which packs what the formulas read. */
extern int mt__anomaly_enabled;
extern int mt__anomaly_check_nan;
extern PyObject *mt__node_hook;         /* hook(node), or NULL; owned */
extern PyObject *mt__anomaly_report;    /* report(node, exception); owned */
extern PyObject *mt__anomaly_check;     /* check(node, grads); owned */
extern _Thread_local int mt__ag_python_only;

/* Note [Op watchers]
 * Forward-mode AD and the profiler must see every op call, whether or not an argument requires
 * grad and in any grad mode: while mt__ag_watchers is nonzero (process-wide: how many are
 * active, autograd/_watch.py), every wrapper hands its call to the Python recorder, which gives
 * it to the watchers, except on a thread whose mt__ag_unwatched is set: the recorder sets it
 * while it runs the op itself.  The engine then runs every node in Python too, so that the
 * watchers may see the backward pass.  Off, each costs one compare.  A watcher that sees
 * inside ops (the profiler: autograd/_watch.py) also gets the calls of composite Python forms
 * (rows without a derivative, key "c.<name>", see the _PyOp below) and the op calls a Python
 * form makes while it runs; the others see each op once, as before. */
extern int mt__ag_watchers;
extern _Thread_local int mt__ag_unwatched;

/* Note [Node events]
 * The profiler shows each node the engine runs as two nested events, as torch's: its whole
 * evaluation ("autograd::engine::evaluate_function: <node>": hooks, the function, handing the
 * results on) and the node's own call (its function, or a leaf's accumulation), both with the
 * node's sequence number, the number its forward op showed.  While mt__node_event_hook is set
 * (the profiler sets it only while its op watcher is active, so every node runs in Python,
 * with the GIL: Note [Op watchers]) the engine calls hook(node, phase, grads): phase 0 before
 * the evaluation, 1 before the call (grads: the tuple of gradients it is given), 2 after it,
 * 3 after the evaluation (grads None).  2 and 3 follow 1 and 0 also when the call failed: the
 * exception is kept (one the hook raises then is reported as unraisable).  Off, one compare
 * per phase. */
extern PyObject *mt__node_event_hook; /* owned, or NULL */

static inline int
mt__ag_watching(void)
{
    return mt__ag_watchers > 0 && !mt__ag_unwatched;
}

/* Calls mt__node_hook(node) when one is set.  0, or -1 with an exception. */
int mt__node_created(PyObject *node);

static inline int
mt__ag_maybe(void)
{
    return (mt__ag_live > 0 && !mt__grad_off) || mt__ag_watching();
}

/* Whether a view requires grad through its base: as torch's differentiable views, a floating
 * or complex view of a base that requires grad does, however it was made (in no_grad mode
 * too, or before its base came to require grad). */
static inline int
mt__view_requires_grad(MTTensorObject *o)
{
    MTTensorObject *b = (MTTensorObject *)o->base;
    return (b->requires_grad || b->grad_fn != NULL) &&
           (mt_dtype_is_floating(o->impl->dtype) || mt_dtype_is_complex(o->impl->dtype));
}

/* Whether the tensor object requires grad (a leaf flag, a grad_fn, or a view's base). */
static inline int
mt__tensor_requires_grad(PyObject *t)
{
    MTTensorObject *o = (MTTensorObject *)t;
    return o->requires_grad || o->grad_fn != NULL ||
           (o->base != NULL && mt__view_requires_grad(o));
}

/* Updates the tensor's count in mt__ag_live after its requires_grad/grad_fn changed. */
void mt__ag_retrack(PyObject *tensor);

/* Note [Recording an op].  Returns 1 with *result set (a new reference, or NULL with an
 * exception) when the call was recorded, 0 when the caller should run the op itself.  `key`
 * is "m.<name>" (a Tensor method), "f.<name>" (a minitorch._C function) or "o.<name>" (an
 * operator).  self may be NULL (module functions); args/kwnames as METH_FASTCALL. */
int mt__ag_intercept(const char *key, PyObject *self, PyObject *const *args, Py_ssize_t nargs,
                     PyObject *kwnames, PyObject **result);
/* The same for an argument tuple and keyword dict (either may be NULL). */
int mt__ag_intercept_tuple(const char *key, PyObject *self, PyObject *args, PyObject *kwargs,
                           PyObject **result);

/* torch's error for an in-place write to an inference tensor outside inference mode (Note
 * [Inference storages] in c10_lite/storage.h).  Returns -1. */
int mt__inference_inplace_error(void);
/* torch's error for an inference tensor that a recorded op would save.  Returns -1. */
int mt__inference_saved_error(void);

/* In-place writes: bump the version of the tensor's storage (no-op for non-tensors).  As
 * torch's, the bump (after the write) is where a write to an inference tensor outside
 * inference mode fails: 0, or -1 with the exception set. */
static inline int
mt__bump_version(PyObject *t)
{
    if (t != NULL && mt__tensor_check(t)) {
        mt_storage *s = ((MTTensorObject *)t)->impl->storage;
        if (mt_inference_live > 0 && s->inference && !mt_inference_mode) {
            return mt__inference_inplace_error();
        }
        atomic_fetch_add_explicit(mt_storage_version(s), 1, memory_order_relaxed);
    }
    return 0;
}
/* After an op-table entry point `key` ran and returned `result` (borrowed): bumps self's
 * version for in-place methods ("m.<name>_") and out='s for a call that passed out=, and
 * makes the result require grad for requires_grad=True (the factories).  0, or -1 with an
 * exception. */
int mt__ag_after_call(const char *key, PyObject *self, PyObject *const *args, Py_ssize_t nargs,
                      PyObject *kwnames, PyObject *result);

/* requires_grad = flag with torch's checks (leaves only; floating and complex dtypes). */
int mt__tensor_set_requires_grad(PyObject *self, int flag);

/* Note [Declared nodes] (derivatives.h): a call of an op that declares its derivative is
 * recorded in C.  mt__ag_begin binds it: 1 when it is recorded (the caller runs the op, with
 * grad mode off, and hands the result to mt__drecord_end), 0 when no argument requires grad
 * (the caller runs the op plainly), -1 when the declaration does not cover the call (or the op
 * has none): the caller hands it to the Python recorder (mt__ag_intercept).  *cache holds the
 * declaration of `key` once looked up (MT__DUNSET before). */
struct mt_derivative;
struct mt_dstate;
typedef struct {
    struct mt_derivative *decl;
    struct mt_dstate *st;             /* owned until mt__drecord_end */
    PyObject *bound[16];              /* the arguments by parameter (borrowed) */
    uint32_t requires;                /* bit k: tensor argument k requires grad */
    int prev_grad_off;
} mt_drecord;
#define MT__DUNSET ((const struct mt_derivative *)(uintptr_t)1)
int mt__ag_begin(const char *key, const struct mt_derivative **cache, PyObject *self,
                 PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames, mt_drecord *rec);
/* Restores grad mode and makes the node for the op's result `r` (stolen; NULL: the op failed).
 * Returns r, or NULL with an exception. */
PyObject *mt__drecord_end(mt_drecord *rec, PyObject *r);

/* The autograd wrapper of an op-table entry point (tools/gen_op_table.py lists them; each
 * binding file expands its list with MT_AG_WRAPPER before its method tables, which name
 * fn##__ag).  Functions ("f.") have no self. */
#define MT_AG_WRAPPER(key, fn, conv) MT_AG_WRAP_##conv(key, fn)
#define MT__AG_SELF(key, self) ((key)[0] == 'f' ? NULL : (self))
#define MT__AG_INPLACE(key) ((key)[0] == 'm' && (key)[sizeof(key) - 2] == '_')
#define MT__AG_AFTER(key, self, args, nargs, kwnames, r)                                          \
    if (r != NULL && (kwnames != NULL || MT__AG_INPLACE(key)) &&                                  \
        mt__ag_after_call(key, MT__AG_SELF(key, self), args, nargs, kwnames, r) < 0) {            \
        Py_CLEAR(r);                                                                             \
    }
/* the recording prologue of a wrapper: `call` runs the op (after __torch_function__, Note
 * [Torch function]) */
#define MT__AG_RECORD(key, self, args, nargs, kwnames, call)                                      \
    MT__TF_CHECK(key, MT__AG_SELF(key, self), args, nargs, kwnames)                               \
    if (mt__ag_maybe()) {                                                                         \
        static const struct mt_derivative *decl_ = MT__DUNSET;                                    \
        mt_drecord rec_;                                                                          \
        int h_ = mt__ag_begin(key, &decl_, MT__AG_SELF(key, self), args, nargs, kwnames, &rec_);  \
        if (h_ == 1) {                                                                            \
            return mt__drecord_end(&rec_, call);                                                  \
        }                                                                                         \
        if (h_ < 0 &&                                                                             \
            mt__ag_intercept(key, MT__AG_SELF(key, self), args, nargs, kwnames, &r)) {            \
            return r;                                                                             \
        }                                                                                         \
    }
#define MT_AG_WRAP_FASTKW(key, fn)                                                                \
    static PyObject *fn##__ag(PyObject *self, PyObject *const *args, Py_ssize_t nargs,            \
                              PyObject *kwnames)                                                  \
    {                                                                                             \
        PyObject *r;                                                                              \
        MT__AG_RECORD(key, self, args, nargs, kwnames, fn(self, args, nargs, kwnames))            \
        r = fn(self, args, nargs, kwnames);                                                       \
        MT__TF_RETRY(key, MT__AG_SELF(key, self), args, nargs, kwnames, NULL, NULL, r)            \
        MT__AG_AFTER(key, self, args, nargs, kwnames, r)                                          \
        return r;                                                                                 \
    }
#define MT_AG_WRAP_NOARGS(key, fn)                                                                \
    static PyObject *fn##__ag(PyObject *self, PyObject *unused)                                   \
    {                                                                                             \
        PyObject *r;                                                                              \
        MT__AG_RECORD(key, self, NULL, 0, NULL, fn(self, unused))                                 \
        r = fn(self, unused);                                                                     \
        MT__AG_AFTER(key, self, NULL, 0, NULL, r)                                                 \
        return r;                                                                                 \
    }
#define MT_AG_WRAP_O(key, fn)                                                                     \
    static PyObject *fn##__ag(PyObject *self, PyObject *arg)                                      \
    {                                                                                             \
        PyObject *r;                                                                              \
        MT__AG_RECORD(key, self, &arg, 1, NULL, fn(self, arg))                                    \
        r = fn(self, arg);                                                                        \
        MT__AG_AFTER(key, self, &arg, 1, NULL, r)                                                 \
        return r;                                                                                 \
    }
#define MT_AG_WRAP_VARARGS(key, fn)                                                               \
    static PyObject *fn##__ag(PyObject *self, PyObject *args)                                     \
    {                                                                                             \
        PyObject *r;                                                                              \
        if (mt__tf_on && mt__tf_dispatch_tuple(key, MT__AG_SELF(key, self), args, NULL, &r)) {    \
            return r;                                                                             \
        }                                                                                         \
        if (mt__ag_maybe() &&                                                                     \
            mt__ag_intercept_tuple(key, MT__AG_SELF(key, self), args, NULL, &r)) {                \
            return r;                                                                             \
        }                                                                                         \
        r = fn(self, args);                                                                       \
        MT__TF_RETRY(key, MT__AG_SELF(key, self), NULL, 0, NULL, args, NULL, r)                   \
        if (r != NULL && MT__AG_INPLACE(key) && mt__bump_version(MT__AG_SELF(key, self)) < 0) {   \
            Py_CLEAR(r);                                                                          \
        }                                                                                         \
        return r;                                                                                 \
    }

/* ---- nodes (node.c) ---- */
typedef struct {
    PyObject *node; /* owned; NULL: no gradient flows along this edge */
    int input_nr;   /* which of node's inputs (its op's outputs) */
} mt_edge;

/* Note [Nodes]
 * A node is one recorded op, seen from the backward pass: it receives the gradients of the
 * op's n_inputs outputs and returns gradients for its edges (the op's tensor inputs that
 * require grad).  `fn(ctx, grads)` computes them (Python: the op table's formula, or an
 * autograd.Function's backward); ctx holds what the formula saved and is dropped after the
 * node runs unless the graph is retained (then `released` says a later run is an error).
 * An AccumulateGrad node has no fn: it adds its gradient into `variable.grad`. */
typedef struct {
    PyObject_HEAD
    struct mt_dstate *dstate; /* owned: a declared op's state (Note [Declared nodes]); NULL:
                               * the node's derivative is its Python fn */
    PyObject *fn;        /* owned; NULL for AccumulateGrad */
    PyObject *ctx;       /* owned; what fn needs, NULL once released */
    PyObject *variable;  /* owned; AccumulateGrad: the leaf tensor */
    PyObject *pre_hooks; /* owned list of (input_nr, hook) or NULL: hook(grad) -> grad or None */
    PyObject *hooks;     /* owned list or NULL: hook(grad_inputs, grad_outputs) -> None */
    PyObject *metadata;  /* owned dict or NULL */
    PyObject *dict;      /* owned instance dict or NULL (Python subclasses and attributes) */
    PyObject *weakreflist;
    mt_edge *edges;      /* owned array of n_edges */
    int n_edges;
    int n_inputs;
    uint64_t seq;        /* creation order: later nodes run first */
    char released;
    char python_only;    /* a declared node whose saved tensors went through hooks registered
                          * on them (autograd/_saved_variables.py): it runs its Python form,
                          * which finds them in ctx (a dict) */
    char saves_nothing;  /* a Python formula that reads no saved tensor (unbind, split): its
                          * ctx is kept after it runs, so it may run again, as torch's */
} MTNodeObject;

extern PyTypeObject *mt__Node_Type;

static inline int
mt__node_check(PyObject *o)
{
    return PyObject_TypeCheck(o, mt__Node_Type);
}

/* The edge a gradient for `tensor` flows along: (grad_fn, output_nr), or (the leaf's
 * AccumulateGrad node, 0), made on first use.  edge->node is a new reference, or NULL when
 * the tensor does not require grad.  0, or -1 with an exception. */
int mt__grad_edge(PyObject *tensor, mt_edge *edge);

/* The next node's creation number (nodes run latest first); peek: without taking it. */
uint64_t mt__node_next_seq(void);
uint64_t mt__node_peek_seq(void);


int mt__autograd_init(PyObject *module);
int mt__node_types_init(PyObject *module);
int mt__engine_init(PyObject *module);
int mt__record_init(PyObject *module);

#endif /* CSRC_AUTOGRAD_AUTOGRAD_H */
