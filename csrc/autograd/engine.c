/* csrc/autograd/engine.c - the backward pass: runs the graph's nodes from the roots to the
 * leaves in dependency order. */
#include "csrc/autograd/autograd.h"
#include "csrc/autograd/derivatives.h"
#include "aten_lite/memory_format.h"

#include <string.h>

/* Note [The engine]
 * A pass has four steps.  Build (mt__graph_build) walks the graph from the roots: each node
 * reachable gets an entry in a table keyed by the node's address, its count of edges in, and
 * its edges' indices.  Mark (mt__graph_mark), when `inputs` are given (autograd.grad, or
 * backward(inputs=)): only nodes on a path to one of them must run; edges point to nodes made
 * earlier, so one pass in creation order decides every node after its children.  Seed
 * (mt__graph_seed) puts the roots' gradients in their buffers and queues the roots that are
 * ready.  Run (mt__graph_run): a node is ready when every edge into it has delivered (its
 * count is zero); ready nodes run latest-created first (AccumulateGrad before anything, as
 * torch), so a chain of ops runs in reverse order and gradient buffers are freed early.  A
 * node's gradients are summed in its buffer (one slot per output of its op) as they arrive,
 * and captured where they enter the inputs' nodes.
 * Grad mode is create_graph for the whole pass, so formulas are recorded only then.  Saved
 * state is dropped as each node finishes unless retain_graph: a second pass through such a
 * node is torch's "backward through the graph a second time" error.  Callbacks queued while
 * the pass runs (_queue_callback; DistributedDataParallel waits for its all-reduces that way)
 * run when it ends.
 *
 * The GIL: a pass that does not create a graph keeps gradients as impls and runs every node
 * with a declared C derivative (Note [Declared nodes]) without the GIL: the walk from node
 * to node, the formulas, the sums of gradients and the release of the saved impls are plain C.  It
 * takes the GIL back only for what is Python: a node with a Python formula (user Functions,
 * the less common ops), hooks, AccumulateGrad (the leaf's .grad is a Python attribute),
 * autograd.grad's captures and the callbacks; gradients cross to Python as new tensor objects
 * over the same impls.  The Python ctx of a node that ran in C is dropped when the GIL is next
 * taken (its saved impls are released at once).  A pass that creates a graph (create_graph=True)
 * runs the Python formulas, which record, with the GIL throughout; its gradients are tensor
 * objects.  As in torch, two threads may run passes at once, but over one graph only when both
 * retain it. */

typedef struct {
    MTNodeObject *node; /* owned reference: the pass holds every node of its graph */
    void **buffer;      /* owned (malloc) grads, one per node input, NULL where none arrived:
                         * tensor objects in a Python pass, else impls (Note [The engine]) */
    Py_ssize_t *child;  /* owned: the index of each edge's node, -1 for none */
    Py_ssize_t deps;
    char needed;
    char target;        /* a capture point or a backward(inputs=) accumulator */
    char capture;       /* has capture points (autograd.grad's inputs) */
    char queued;        /* pushed on the ready heap */
} mt__info;

typedef struct {
    Py_ssize_t *slots;  /* open addressing: node index + 1, 0 for empty (owned) */
    Py_ssize_t mask;    /* capacity - 1, capacity a power of two */
    mt__info *info;
    Py_ssize_t n, cap;
    Py_ssize_t *heap;   /* indices of ready nodes, max-heap on seq (room for every node) */
    Py_ssize_t heap_n;
    Py_ssize_t *deferred; /* nodes run without the GIL whose Python ctx is still to drop */
    Py_ssize_t n_deferred;
    int py;             /* a Python pass (create_graph, or op watchers active): grads are
                           tensor objects */
    int keep_graph, accumulate;
    PyObject *captures, *capture_at;
    PyThreadState *ts;  /* while the pass runs without the GIL: the saved thread state */
} mt__graph;

static const char mt__second_time[] =
    "Trying to backward through the graph a second time (or directly access saved tensors "
    "after they have already been freed). Saved intermediate values of the graph are freed "
    "when you call .backward() or autograd.grad(). Specify retain_graph=True if you need to "
    "backward through the graph a second time or if you need to access saved tensors after "
    "calling backward.";

/* the callbacks of the pass this thread runs (a list), else NULL; per thread, as two threads
 * may each run a pass (one waits for the GIL while the other's kernels run) */
static _Thread_local PyObject *mt__callbacks;
/* how many nodes the last pass of this thread ran without the GIL (_last_backward_c_nodes) */
static _Thread_local Py_ssize_t mt__c_nodes;
/* the pass this thread runs (the innermost, in reentrant passes) and the node of it that runs
 * with the GIL, for the introspection functions (_current_autograd_node, ...); else NULL */
static _Thread_local mt__graph *mt__current_graph;
/* autograd.function.FunctionCtx (set at import; owned) */
static PyTypeObject *mt__function_ctx_type;
static _Thread_local MTNodeObject *mt__current_node;

static void
mt__gil_drop(mt__graph *g)
{
    if (g->ts == NULL) {
        g->ts = PyEval_SaveThread();
    }
}

/* Takes the GIL back (when dropped) and drops the Python state of the nodes that ran without
 * it. */
static void
mt__gil_take(mt__graph *g)
{
    if (g->ts != NULL) {
        PyEval_RestoreThread(g->ts);
        g->ts = NULL;
    }
    for (Py_ssize_t i = 0; i < g->n_deferred; i++) {
        MTNodeObject *node = g->info[g->deferred[i]].node;
        Py_CLEAR(node->ctx);
        mt__dstate_free(node->dstate); /* its objects; the impls went already */
        node->dstate = NULL;
    }
    g->n_deferred = 0;
}

static void
mt__grads_free(mt__graph *g, void **grads, int n)
{
    if (grads == NULL) {
        return;
    }
    for (int j = 0; j < n; j++) {
        if (g->py) {
            Py_XDECREF((PyObject *)grads[j]);
        }
        else {
            mt_tensor_decref(grads[j]);
        }
    }
    free(grads);
}

static void
mt__graph_free(mt__graph *g)
{
    for (Py_ssize_t i = 0; i < g->n; i++) {
        mt__grads_free(g, g->info[i].buffer, g->info[i].node->n_inputs);
        PyMem_Free(g->info[i].child);
        Py_DECREF(g->info[i].node);
    }
    PyMem_Free(g->info);
    PyMem_Free(g->slots);
    PyMem_Free(g->heap);
    PyMem_Free(g->deferred);
}

/* The hash table slot of node (where it is, or the empty slot where it would go). */
static Py_ssize_t
mt__graph_probe(const mt__graph *g, const MTNodeObject *node)
{
    size_t h = ((uintptr_t)node >> 4) * 0x9E3779B97F4A7C15ull;
    Py_ssize_t i = (Py_ssize_t)(h >> 16) & g->mask;
    while (g->slots[i] != 0 && g->info[g->slots[i] - 1].node != node) {
        i = (i + 1) & g->mask;
    }
    return i;
}

static int
mt__graph_grow_table(mt__graph *g)
{
    Py_ssize_t cap = g->slots ? 2 * (g->mask + 1) : 256;
    Py_ssize_t *old = g->slots;
    g->slots = PyMem_Calloc((size_t)cap, sizeof(Py_ssize_t));
    if (g->slots == NULL) {
        g->slots = old;
        PyErr_NoMemory();
        return -1;
    }
    g->mask = cap - 1;
    for (Py_ssize_t i = 0; i < g->n; i++) {
        g->slots[mt__graph_probe(g, g->info[i].node)] = i + 1;
    }
    PyMem_Free(old);
    return 0;
}

/* The node's index, adding it (and a reference to it) when new (*added set).  -1 on error. */
static Py_ssize_t
mt__graph_add(mt__graph *g, PyObject *node, int *added)
{
    *added = 0;
    if (g->slots == NULL || 2 * (g->n + 1) > g->mask + 1) {
        if (mt__graph_grow_table(g) < 0) {
            return -1;
        }
    }
    Py_ssize_t slot = mt__graph_probe(g, (MTNodeObject *)node);
    if (g->slots[slot] != 0) {
        return g->slots[slot] - 1;
    }
    if (g->n == g->cap) {
        Py_ssize_t cap = g->cap ? 2 * g->cap : 64;
        mt__info *info = PyMem_Realloc(g->info, (size_t)cap * sizeof(*info));
        if (info == NULL) {
            PyErr_NoMemory();
            return -1;
        }
        g->info = info;
        g->cap = cap;
    }
    g->info[g->n] = (mt__info){.node = (MTNodeObject *)Py_NewRef(node), .needed = 1};
    g->slots[slot] = g->n + 1;
    *added = 1;
    return g->n++;
}

/* The node's index, or -1 when it is not in the graph. */
static Py_ssize_t
mt__graph_find(mt__graph *g, PyObject *node)
{
    if (g->slots == NULL) {
        return -1;
    }
    Py_ssize_t slot = mt__graph_probe(g, (MTNodeObject *)node);
    return g->slots[slot] - 1;
}

static int
mt__heap_less(mt__graph *g, Py_ssize_t a, Py_ssize_t b)
{
    return g->info[a].node->seq < g->info[b].node->seq;
}

/* (the heap has room for every node: a node is pushed once) */
static void
mt__heap_push(mt__graph *g, Py_ssize_t ix)
{
    g->info[ix].queued = 1;
    Py_ssize_t i = g->heap_n++;
    g->heap[i] = ix;
    while (i > 0 && mt__heap_less(g, g->heap[(i - 1) / 2], g->heap[i])) {
        Py_ssize_t p = (i - 1) / 2, t = g->heap[p];
        g->heap[p] = g->heap[i];
        g->heap[i] = t;
        i = p;
    }
}

static Py_ssize_t
mt__heap_pop(mt__graph *g)
{
    Py_ssize_t top = g->heap[0];
    g->heap[0] = g->heap[--g->heap_n];
    Py_ssize_t i = 0;
    for (;;) {
        Py_ssize_t l = 2 * i + 1, r = l + 1, m = i;
        if (l < g->heap_n && mt__heap_less(g, g->heap[m], g->heap[l])) {
            m = l;
        }
        if (r < g->heap_n && mt__heap_less(g, g->heap[m], g->heap[r])) {
            m = r;
        }
        if (m == i) {
            break;
        }
        Py_ssize_t t = g->heap[m];
        g->heap[m] = g->heap[i];
        g->heap[i] = t;
        i = m;
    }
    return top;
}

/* The slot for input `nr` of node ix, its buffer made on first use; NULL with the C error
 * set.  Plain C. */
static void **
mt__slot(mt__graph *g, Py_ssize_t ix, int nr)
{
    mt__info *in = &g->info[ix];
    if (nr < 0 || nr >= in->node->n_inputs) {
        mt_error_set(MT_ERUNTIME, "autograd: gradient for an output the node lacks");
        return NULL;
    }
    if (in->buffer == NULL) {
        in->buffer = calloc((size_t)in->node->n_inputs, sizeof(void *));
        if (in->buffer == NULL) {
            mt_error_set(MT_ENOMEM, "autograd: out of memory for a gradient buffer");
            return NULL;
        }
    }
    return &in->buffer[nr];
}

/* Note [Sparse plus dense gradients]
 * A sparse gradient (a custom Function's backward may return one for a dense input) meets a
 * dense one in a gradient buffer or a leaf's .grad.  add(sparse, dense) is refused (as
 * torch's), so such a sum is taken as dense + sparse, whichever arrived first, giving a dense
 * result, as torch's buffers and AccumulateGrad do.  Sparse tensors are Python objects of a
 * subclass, so only operands of different types are looked at. */

/* 1 when a is a sparse tensor and b is not (Note [Sparse plus dense gradients]), else 0; -1
 * with a Python exception. */
static int
mt__sparse_then_dense(PyObject *a, PyObject *b)
{
    if (Py_TYPE(a) == Py_TYPE(b)) {
        return 0;
    }
    int rc = 0;
    PyObject *sa = PyObject_GetAttrString(a, "is_sparse");
    if (sa == NULL) {
        return -1;
    }
    int a_sparse = PyObject_IsTrue(sa);
    Py_DECREF(sa);
    if (a_sparse == 1) {
        PyObject *sb = PyObject_GetAttrString(b, "is_sparse");
        if (sb == NULL) {
            return -1;
        }
        int b_sparse = PyObject_IsTrue(sb);
        Py_DECREF(sb);
        rc = b_sparse < 0 ? -1 : !b_sparse;
    }
    else if (a_sparse < 0) {
        rc = -1;
    }
    return rc;
}

/* a + b, a sparse a after a dense b (Note [Sparse plus dense gradients]).  New reference or
 * NULL. */
static PyObject *
mt__grad_sum(PyObject *a, PyObject *b)
{
    int swap = mt__sparse_then_dense(a, b);
    if (swap < 0) {
        return NULL;
    }
    return swap ? PyNumber_Add(b, a) : PyNumber_Add(a, b);
}

/* Python pass: adds grad (a tensor object, borrowed) into slot `nr` of node ix.  0, or -1 with
 * a Python exception. */
static int
mt__buffer_add_py(mt__graph *g, Py_ssize_t ix, int nr, PyObject *grad)
{
    PyObject **slot = (PyObject **)mt__slot(g, ix, nr);
    if (slot == NULL) {
        return mt__raise_int(mt_error_code());
    }
    if (*slot == NULL) {
        *slot = Py_NewRef(grad);
        return 0;
    }
    PyObject *sum = mt__grad_sum(*slot, grad);
    if (sum == NULL) {
        return -1;
    }
    Py_SETREF(*slot, sum);
    return 0;
}

/* Otherwise: adds grad (an impl, stolen) into the slot.  Plain C: 0 or a negative code with
 * the C error set. */
static int
mt__buffer_add_c(mt__graph *g, Py_ssize_t ix, int nr, mt_tensor *grad)
{
    mt_tensor **slot = (mt_tensor **)mt__slot(g, ix, nr);
    if (slot == NULL) {
        mt_tensor_decref(grad);
        return mt_error_code();
    }
    if (*slot == NULL) {
        *slot = grad;
        return 0;
    }
    /* in place into the slot when nothing else holds it or its memory (a fresh gradient of
     * the result's shape and dtype): no new tensor per addition */
    mt_tensor *acc = *slot;
    if (acc->contiguous && atomic_load_explicit(&acc->refcount, memory_order_relaxed) == 1 &&
        mt_storage_refcount(acc->storage) == 1 && acc->dtype == grad->dtype &&
        acc->ndim == grad->ndim && !mt_tensors_overlap(acc, grad) &&
        memcmp(acc->sizes, grad->sizes, (size_t)acc->ndim * sizeof(int64_t)) == 0) {
        mt_tensor *r = mt_binary(MT_OP_ADD, mt_arg_tensor(acc), mt_arg_tensor(grad), acc,
                                 mt_scalar_int(1));
        mt_tensor_decref(grad);
        if (r == NULL) {
            int code = mt_error_code();
            return code < 0 ? code : mt_error_set(MT_ERUNTIME, "autograd: adding gradients failed");
        }
        mt_tensor_decref(r);
        return 0;
    }
    mt_tensor *sum = mt_binary(MT_OP_ADD, mt_arg_tensor(*slot), mt_arg_tensor(grad), NULL,
                               mt_scalar_int(1));
    mt_tensor_decref(grad);
    if (sum == NULL) {
        int code = mt_error_code();
        return code < 0 ? code : mt_error_set(MT_ERUNTIME, "autograd: adding gradients failed");
    }
    mt_tensor_decref(*slot);
    *slot = sum;
    return 0;
}

/* Build: walks the graph from the roots; every node reachable gets an entry (holding a
 * reference), its count of edges in, and its edges' indices.  0 or -1. */
static int
mt__graph_build(mt__graph *g, PyObject *const *roots, Py_ssize_t nroots)
{
    Py_ssize_t sp = 0, scap = 64;
    Py_ssize_t *stack = PyMem_Malloc((size_t)scap * sizeof(Py_ssize_t));
    int rc = -1;
    if (stack == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    for (Py_ssize_t i = 0; i < nroots; i++) {
        int added;
        Py_ssize_t ix = mt__graph_add(g, roots[i], &added);
        if (ix < 0) {
            goto done;
        }
        if (added) {
            if (sp == scap) {
                Py_ssize_t *st = PyMem_Realloc(stack, (size_t)(scap *= 2) * sizeof(Py_ssize_t));
                if (st == NULL) {
                    PyErr_NoMemory();
                    goto done;
                }
                stack = st;
            }
            stack[sp++] = ix;
        }
    }
    while (sp > 0) {
        Py_ssize_t ix = stack[--sp];
        MTNodeObject *n = g->info[ix].node;
        Py_ssize_t *child = PyMem_Malloc((size_t)(n->n_edges > 0 ? n->n_edges : 1) *
                                         sizeof(Py_ssize_t));
        if (child == NULL) {
            PyErr_NoMemory();
            goto done;
        }
        g->info[ix].child = child;
        for (int e = 0; e < n->n_edges; e++) {
            PyObject *c = n->edges[e].node;
            child[e] = -1;
            if (c == NULL) {
                continue;
            }
            int added;
            Py_ssize_t cix = mt__graph_add(g, c, &added);
            if (cix < 0) {
                goto done;
            }
            /* (info may have moved: re-read through the index) */
            g->info[ix].child[e] = cix;
            g->info[cix].deps++;
            if (added) {
                if (sp == scap) {
                    Py_ssize_t *st = PyMem_Realloc(stack,
                                                   (size_t)(scap *= 2) * sizeof(Py_ssize_t));
                    if (st == NULL) {
                        PyErr_NoMemory();
                        goto done;
                    }
                    stack = st;
                }
                stack[sp++] = cix;
            }
        }
    }
    g->heap = PyMem_Malloc((size_t)(g->n > 0 ? g->n : 1) * sizeof(Py_ssize_t));
    g->deferred = PyMem_Malloc((size_t)(g->n > 0 ? g->n : 1) * sizeof(Py_ssize_t));
    if (g->heap == NULL || g->deferred == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    rc = 0;
done:
    PyMem_Free(stack);
    return rc;
}

static int
mt__seq_cmp(const void *a, const void *b, void *arg)
{
    const mt__graph *g = arg;
    uint64_t x = g->info[*(const Py_ssize_t *)a].node->seq;
    uint64_t y = g->info[*(const Py_ssize_t *)b].node->seq;
    return x < y ? -1 : x > y;
}

/* Mark: with targets (autograd.grad's inputs, backward(inputs=)), a node must run when it is a
 * target or one of its edges leads to a node that must.  Edges point to nodes made earlier
 * (an op's inputs exist before it; leaves' accumulators have no edges), so one pass over the
 * nodes in creation order decides each after its children.  A graph that breaks the order (a
 * node given history by hand) is marked by repeating passes until nothing changes.  0 or -1. */
static int
mt__graph_mark(mt__graph *g)
{
    Py_ssize_t *order = PyMem_Malloc((size_t)(g->n > 0 ? g->n : 1) * sizeof(Py_ssize_t));
    if (order == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    for (Py_ssize_t i = 0; i < g->n; i++) {
        order[i] = i;
        g->info[i].needed = g->info[i].target;
    }
    qsort_r(order, (size_t)g->n, sizeof(Py_ssize_t), mt__seq_cmp, g);
    int changed = 1, ordered = 1;
    for (int pass = 0; changed; pass++) {
        changed = 0;
        for (Py_ssize_t k = 0; k < g->n; k++) {
            mt__info *in = &g->info[order[k]];
            if (in->needed) {
                continue;
            }
            for (int e = 0; e < in->node->n_edges; e++) {
                Py_ssize_t c = in->child[e];
                if (c < 0) {
                    continue;
                }
                if (pass == 0 && g->info[c].node->seq >= in->node->seq &&
                    g->info[c].node->variable == NULL) {
                    ordered = 0;
                }
                if (g->info[c].needed) {
                    in->needed = 1;
                    changed = 1;
                    break;
                }
            }
        }
        if (ordered) {
            break;
        }
    }
    PyMem_Free(order);
    return 0;
}

/* A node pre-hook: hook(grads as a tuple, None where none arrived); a non-None result, a
 * sequence of n tensors or None, replaces them.  0 or -1. */
static int
mt__run_node_pre_hook(PyObject *hook, PyObject **grads, int n)
{
    PyObject *tuple = PyTuple_New(n);
    if (tuple == NULL) {
        return -1;
    }
    for (int i = 0; i < n; i++) {
        PyTuple_SET_ITEM(tuple, i, Py_NewRef(grads[i] ? grads[i] : Py_None));
    }
    PyObject *r = PyObject_CallOneArg(hook, tuple);
    Py_DECREF(tuple);
    if (r == NULL) {
        return -1;
    }
    if (r == Py_None) {
        Py_DECREF(r);
        return 0;
    }
    PyObject *seq = PySequence_Fast(r, "a node pre-hook must return a sequence of gradients or None");
    Py_DECREF(r);
    if (seq == NULL) {
        return -1;
    }
    if (PySequence_Fast_GET_SIZE(seq) != n) {
        PyErr_Format(PyExc_RuntimeError, "hook returned %zd gradients, expected %d",
                     PySequence_Fast_GET_SIZE(seq), n);
        Py_DECREF(seq);
        return -1;
    }
    for (int i = 0; i < n; i++) {
        PyObject *gi = PySequence_Fast_GET_ITEM(seq, i);
        Py_XSETREF(grads[i], gi == Py_None ? NULL : Py_NewRef(gi));
    }
    Py_DECREF(seq);
    return 0;
}

/* Runs a list of pre-hooks on the gradients grads[0..n).  An entry (nr, hook) is a tensor's
 * hook: hook(grads[nr]), a non-None result replaces that gradient.  In a node's list
 * (only_nr < 0) another entry is a node pre-hook: hook(all gradients, None where none
 * arrived), a non-None result (a sequence of n) replaces them all.  `which` says which run:
 * MT__TENSOR_HOOKS, MT__NODE_HOOKS or both.  In a leaf's list (only_nr >= 0) every entry is a
 * hook of gradient only_nr.  0 or -1. */
enum { MT__TENSOR_HOOKS = 1, MT__NODE_HOOKS = 2 };
static int
mt__run_pre_hooks(PyObject *hooks, PyObject **grads, int n, int only_nr, int which)
{
    if (hooks == NULL) {
        return 0;
    }
    PyObject *copy = PySequence_List(hooks); /* hooks may remove themselves */
    if (copy == NULL) {
        return -1;
    }
    int rc = -1;
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(copy); i++) {
        PyObject *item = PyList_GET_ITEM(copy, i), *hook = item;
        int nr = only_nr;
        if (PyTuple_Check(item) && PyTuple_GET_SIZE(item) == 2) {
            if (!(which & MT__TENSOR_HOOKS)) {
                continue;
            }
            nr = (int)PyLong_AsLong(PyTuple_GET_ITEM(item, 0));
            hook = PyTuple_GET_ITEM(item, 1);
        }
        else if (only_nr < 0) {
            if ((which & MT__NODE_HOOKS) && mt__run_node_pre_hook(hook, grads, n) < 0) {
                goto done;
            }
            continue;
        }
        /* a tensor hook on an output of a node that runs sees None where no gradient arrived
         * for that output (the others of unbind, split, ...), as torch's; a leaf's only its
         * gradient */
        if (nr < 0 || nr >= n || (grads[nr] == NULL && only_nr >= 0)) {
            continue;
        }
        PyObject *r = PyObject_CallOneArg(hook, grads[nr] ? grads[nr] : Py_None);
        if (r == NULL) {
            goto done;
        }
        if (r != Py_None && grads[nr] == NULL) {
            Py_DECREF(r);
            PyErr_SetString(PyExc_RuntimeError,
                            "can't replace a None gradient with a non-None value");
            goto done;
        }
        if (r != Py_None) {
            Py_SETREF(grads[nr], r);
        }
        else {
            Py_DECREF(r);
        }
    }
    rc = 0;
done:
    Py_DECREF(copy);
    return rc;
}

/* A node's post hooks: hook(grad_inputs, grad_outputs) each in turn (gin, gout: tuples,
 * borrowed); a hook's non-None result, a sequence of as many gradients, replaces grad_inputs
 * for the hooks after it and, when `result` is given, for the node's edges (*result then a
 * new reference to the final grad_inputs tuple, which it replaces).  0 or -1. */
static int
mt__run_post_hooks(MTNodeObject *node, PyObject *gin, PyObject *gout, PyObject **result)
{
    PyObject *copy = PySequence_List(node->hooks); /* hooks may remove themselves */
    if (copy == NULL) {
        return -1;
    }
    Py_INCREF(gin);
    int rc = 0;
    for (Py_ssize_t k = 0; k < PyList_GET_SIZE(copy); k++) {
        PyObject *hr = PyObject_CallFunctionObjArgs(PyList_GET_ITEM(copy, k), gin, gout, NULL);
        if (hr == NULL) {
            rc = -1;
            break;
        }
        if (hr != Py_None && result != NULL) {
            PyObject *t = PySequence_Tuple(hr);
            Py_DECREF(hr);
            if (t == NULL) {
                rc = -1;
                break;
            }
            if (PyTuple_GET_SIZE(t) != PyTuple_GET_SIZE(gin)) {
                PyErr_Format(PyExc_RuntimeError, "hook returned %zd gradients, expected %zd",
                             PyTuple_GET_SIZE(t), PyTuple_GET_SIZE(gin));
                Py_DECREF(t);
                rc = -1;
                break;
            }
            Py_SETREF(gin, t);
        }
        else {
            Py_DECREF(hr);
        }
    }
    Py_DECREF(copy);
    if (rc == 0 && result != NULL) {
        Py_SETREF(*result, gin);
    }
    else {
        Py_DECREF(gin);
    }
    return rc;
}

/* Note [Gradient layout]
 * A leaf's first gradient follows the leaf's layout, as torch's AccumulateGrad (its "gradient
 * layout contract"): when the leaf is non-overlapping and dense (row-major, channels_last, any
 * permutation of its dimensions) .grad has the leaf's strides (dimensions of size 1 aside),
 * else .grad is row-major contiguous.  A gradient that does not obey (a broadcast one, one in
 * another layout) is copied into such a tensor: empty_strided with the leaf's strides, then
 * copy_, or a row-major clone.  Under create_graph the first gradient is always copied so (a
 * recorded copy: .grad's history starts with CopyBackwards, as torch's AccumulateGrad under
 * grad mode).  Later gradients are added into .grad, which keeps its layout. */

/* Whether grad (an impl of var's sizes) obeys var's layout (Note [Gradient layout]); 1 also
 * when the sizes differ (a sparse gradient's placeholder: not a matter of layout). */
static int
mt__obeys_layout(const mt_tensor *var, const mt_tensor *grad)
{
    if (grad->ndim != var->ndim ||
        (var->ndim > 0 && memcmp(grad->sizes, var->sizes, (size_t)var->ndim * sizeof(int64_t)))) {
        return 1;
    }
    if (grad->contiguous && var->contiguous) {
        return 1;
    }
    if (!mt_is_non_overlapping_and_dense(var)) {
        return grad->contiguous;
    }
    for (int i = 0; i < var->ndim; i++) {
        if (var->sizes[i] != 1 && grad->strides[i] != var->strides[i]) {
            return 0;
        }
    }
    return mt_is_non_overlapping_and_dense(grad);
}

/* Whether t's strides are exactly the row-major ones (size-1 dimensions included, which a
 * clone of any gradient has). */
static int
mt__row_major(const mt_tensor *t)
{
    int64_t strides[MT_MAX_DIMS];
    if (!t->contiguous || t->ndim > MT_MAX_DIMS ||
        mt_contiguous_strides(t->ndim, t->sizes, strides) != 0) {
        return 0;
    }
    return t->ndim == 0 || !memcmp(strides, t->strides, (size_t)t->ndim * sizeof(int64_t));
}

/* A copy of grad in the layout of the leaf v (Note [Gradient layout]).  New reference or
 * NULL. */
static PyObject *
mt__clone_in_layout(PyObject *v, PyObject *grad)
{
    PyObject *out = NULL, *mod = NULL, *size = NULL, *stride = NULL, *kw = NULL, *dtype = NULL,
             *device = NULL;
    mod = PyImport_ImportModule("minitorch");
    if (mod == NULL) {
        return NULL;
    }
    if (!mt_is_non_overlapping_and_dense(mt__tensor_impl(v))) {
        PyObject *fmt = PyObject_GetAttrString(mod, "contiguous_format");
        PyObject *clone = PyObject_GetAttrString(grad, "clone");
        PyObject *none = PyTuple_New(0);
        kw = fmt != NULL ? Py_BuildValue("{sO}", "memory_format", fmt) : NULL;
        if (clone != NULL && none != NULL && kw != NULL) {
            out = PyObject_Call(clone, none, kw);
        }
        Py_XDECREF(fmt);
        Py_XDECREF(clone);
        Py_XDECREF(none);
        goto done;
    }
    size = PyObject_CallMethod(v, "size", NULL);
    stride = PyObject_CallMethod(v, "stride", NULL);
    dtype = PyObject_GetAttrString(grad, "dtype");
    device = PyObject_GetAttrString(grad, "device");
    if (mod == NULL || size == NULL || stride == NULL || dtype == NULL || device == NULL) {
        goto done;
    }
    kw = Py_BuildValue("{sOsO}", "dtype", dtype, "device", device);
    if (kw == NULL) {
        goto done;
    }
    PyObject *empty_strided = PyObject_GetAttrString(mod, "empty_strided");
    if (empty_strided == NULL) {
        goto done;
    }
    PyObject *args = PyTuple_Pack(2, size, stride);
    PyObject *empty = args != NULL ? PyObject_Call(empty_strided, args, kw) : NULL;
    Py_XDECREF(args);
    Py_DECREF(empty_strided);
    if (empty != NULL) {
        out = PyObject_CallMethod(empty, "copy_", "O", grad);
        Py_DECREF(empty);
    }
done:
    Py_XDECREF(mod);
    Py_XDECREF(size);
    Py_XDECREF(stride);
    Py_XDECREF(kw);
    Py_XDECREF(dtype);
    Py_XDECREF(device);
    return out;
}

/* AccumulateGrad: variable.grad += grad (see Note [The engine]).  Steals grad. */
static int
mt__accumulate(MTNodeObject *node, PyObject *grad, int create_graph)
{
    MTTensorObject *v = (MTTensorObject *)node->variable; /* its hooks ran already */
    int sparse_grad = 0; /* Note [Sparse plus dense gradients] */
    if (v->grad == NULL || v->grad == Py_None) {
        PyObject *g = grad;
        mt_tensor *impl = mt__tensor_impl(grad), *var = mt__tensor_impl((PyObject *)v);
        if (create_graph) {
            /* a recorded copy, as torch's AccumulateGrad under grad mode: .grad's history
             * starts with the copy's node (CopyBackwards), whose input is the gradient's;
             * a sparse gradient (sizes of its placeholder) is cloned */
            int dense = var->ndim == impl->ndim &&
                        (var->ndim == 0 || !memcmp(var->sizes, impl->sizes,
                                                   (size_t)var->ndim * sizeof(int64_t)));
            g = dense ? mt__clone_in_layout((PyObject *)v, grad)
                      : PyObject_CallMethod(grad, "clone", NULL);
            Py_DECREF(grad);
            if (g == NULL) {
                return -1;
            }
        }
        else if (!mt__obeys_layout(var, impl)) {
            g = mt__clone_in_layout((PyObject *)v, grad);
            Py_DECREF(grad);
            if (g == NULL) {
                return -1;
            }
        }
        else if (!create_graph && (Py_REFCNT(grad) > 1 || ((MTTensorObject *)grad)->base != NULL ||
                              mt__tensor_requires_grad(grad) ||
                              atomic_load_explicit(&impl->refcount, memory_order_relaxed) > 1 ||
                              mt_storage_refcount(impl->storage) > 1 || !impl->contiguous)) {
            /* shared with another buffer or a view of something else: keep a copy (in the
             * leaf's strides, Note [Gradient layout]) */
            g = mt__row_major(var)
                    ? PyObject_CallMethod(grad, "clone", NULL)
                    : mt__clone_in_layout((PyObject *)v, grad);
            Py_DECREF(grad);
            if (g == NULL) {
                return -1;
            }
        }
        else if (mt__ag_watchers > 0) {
            /* the gradient itself, as a tensor object of its own: the watchers see a detach
             * (torch's AccumulateGrad, Note [Python dispatch] in minitorch/_python_dispatch.py) */
            g = PyObject_CallMethod(grad, "detach", NULL);
            Py_DECREF(grad);
            if (g == NULL) {
                return -1;
            }
        }
        Py_XSETREF(v->grad, g);
    }
    else if (!create_graph && (sparse_grad = mt__sparse_then_dense(v->grad, grad)) == 0) {
        PyObject *r = PyObject_CallMethod(v->grad, "add_", "O", grad);
        Py_DECREF(grad);
        if (r == NULL) {
            return -1;
        }
        Py_DECREF(r);
    }
    else {
        /* (also a sparse .grad meeting a dense gradient: a new dense .grad, as torch's) */
        PyObject *sum = sparse_grad < 0 ? NULL : mt__grad_sum(v->grad, grad);
        Py_DECREF(grad);
        if (sum == NULL) {
            return -1;
        }
        Py_XSETREF(v->grad, sum);
    }
    if (v->post_acc_hooks != NULL) {
        PyObject *copy = PySequence_List(v->post_acc_hooks);
        if (copy == NULL) {
            return -1;
        }
        for (Py_ssize_t i = 0; i < PyList_GET_SIZE(copy); i++) {
            PyObject *r = PyObject_CallOneArg(PyList_GET_ITEM(copy, i), node->variable);
            if (r == NULL) {
                Py_DECREF(copy);
                return -1;
            }
            if (r != Py_None) {
                Py_DECREF(r);
                Py_DECREF(copy);
                PyErr_SetString(PyExc_RuntimeError,
                                "Tensor post accumulate grad hooks should return None.");
                return -1;
            }
            Py_DECREF(r);
        }
        Py_DECREF(copy);
    }
    return 0;
}

/* Hands a node's results to its edges' nodes and queues those that became ready.  outs[e]:
 * the gradient for edge e (a tensor object or None in a Python pass, an impl or NULL
 * otherwise; taken over).  Plain C unless g->py: 0 or a negative code with the C error set
 * (Python pass: -1 with a Python exception). */
static int
mt__deliver(mt__graph *g, Py_ssize_t ix, void **outs)
{
    mt__info *in = &g->info[ix];
    MTNodeObject *node = in->node;
    int rc = 0;
    for (int e = 0; e < node->n_edges; e++) {
        Py_ssize_t cix = in->child[e];
        void *grad = outs ? outs[e] : NULL;
        if (outs) {
            outs[e] = NULL;
        }
        if (cix < 0 || rc < 0) {
            if (g->py) {
                Py_XDECREF((PyObject *)grad);
            }
            else {
                mt_tensor_decref(grad);
            }
            continue;
        }
        mt__info *c = &g->info[cix];
        if (g->py) {
            if (grad != NULL && grad != Py_None && c->needed) {
                rc = mt__buffer_add_py(g, cix, node->edges[e].input_nr, grad);
            }
            Py_XDECREF((PyObject *)grad);
        }
        else if (grad != NULL && c->needed) {
            rc = mt__buffer_add_c(g, cix, node->edges[e].input_nr, grad);
        }
        else {
            mt_tensor_decref(grad);
        }
        if (rc == 0 && --c->deps == 0 && c->needed) {
            mt__heap_push(g, cix);
        }
    }
    return rc;
}

/* Whether node ix runs its C formula without the GIL (Note [The engine]). */
static int
mt__runs_in_c(mt__graph *g, Py_ssize_t ix)
{
    MTNodeObject *node = g->info[ix].node;
    return !g->py && !mt__anomaly_enabled && !mt__ag_watchers && node->dstate != NULL &&
           node->variable == NULL && !node->python_only &&
           !g->info[ix].capture &&
           (node->pre_hooks == NULL || PyList_GET_SIZE(node->pre_hooks) == 0) &&
           (node->hooks == NULL || PyList_GET_SIZE(node->hooks) == 0);
}

/* Runs node ix's declared C derivative (Note [Declared nodes]); no Python, so callable
 * without the GIL.  0 or a negative code with the C error set. */
static int
mt__run_dnode(mt__graph *g, Py_ssize_t ix)
{
    mt__info *in = &g->info[ix];
    MTNodeObject *node = in->node;
    int n = node->n_inputs, ne = node->n_edges, rc = 0;
    mt_tensor **grads = (mt_tensor **)in->buffer;
    in->buffer = NULL;
    /* room for every edge, on the stack for nodes of up to MT__CNODE_SLOTS edges */
    enum { MT__CNODE_SLOTS = 8 };
    int cap = ne > MT__CNODE_SLOTS ? ne : MT__CNODE_SLOTS;
    mt_tensor *outs_small[MT__CNODE_SLOTS] = {NULL}, **outs = outs_small;
    bool needs_small[MT__CNODE_SLOTS] = {false}, *needs = needs_small;
    if (cap > MT__CNODE_SLOTS) {
        outs = calloc((size_t)cap, sizeof(*outs));
        needs = calloc((size_t)cap, sizeof(*needs));
        if (outs == NULL || needs == NULL) {
            rc = mt_error_set(MT_ENOMEM, "autograd: out of memory");
            goto done;
        }
    }
    /* a declared node's formulas read the gradient of every output */
    bool any = false;
    for (int i = 0; grads != NULL && i < n; i++) {
        any |= grads[i] != NULL;
    }
    if (any) {
        if (node->released) {
            rc = mt_error_set(MT_ERUNTIME, "%s", mt__second_time);
            goto done;
        }
        for (int e = 0; e < ne; e++) {
            needs[e] = in->child[e] >= 0 && g->info[in->child[e]].needed;
        }
        rc = mt__dnode_run(node, grads, needs, outs);
        if (rc < 0) {
            goto done;
        }
        if (!g->keep_graph && mt__dstate_saves(node->dstate)) {
            mt__dstate_release_impls(node->dstate);
            node->released = 1;
            g->deferred[g->n_deferred++] = ix; /* its Python ctx: when the GIL is back */
        }
    }
    rc = mt__deliver(g, ix, (void **)outs);
done:
    mt__impls_release(outs, outs ? cap : 0);
    if (outs != outs_small) {
        free(outs);
        free(needs);
    }
    mt__impls_release(grads, grads ? n : 0);
    free(grads);
    return rc;
}

PyObject *mt__node_event_hook;

/* Calls mt__node_event_hook(node, phase, grads) (Note [Node events]; grads may be NULL: None).
 * 0, or -1 with an exception.  An exception already set is kept: the hook runs with it saved,
 * and -1 is returned with it restored (one the hook raises meanwhile is unraisable). */
static int
mt__node_event(PyObject *node, int phase, PyObject *grads)
{
    PyObject *hook = mt__node_event_hook;
    if (hook == NULL) {
        return PyErr_Occurred() ? -1 : 0;
    }
    PyObject *type = NULL, *value = NULL, *tb = NULL;
    int pending = PyErr_Occurred() != NULL;
    if (pending) {
        PyErr_Fetch(&type, &value, &tb);
    }
    Py_INCREF(hook); /* the hook may unset itself */
    PyObject *r = PyObject_CallFunction(hook, "OiO", node, phase, grads ? grads : Py_None);
    if (r == NULL && pending) {
        PyErr_WriteUnraisable(hook);
    }
    Py_DECREF(hook);
    Py_XDECREF(r);
    if (pending) {
        PyErr_Restore(type, value, tb);
        return -1;
    }
    return r == NULL ? -1 : 0;
}

/* Runs one ready node with the GIL: hooks, its Python formula (or accumulation), then hands
 * the results to its edges.  0 or -1 with a Python exception. */
static int
mt__run_node(mt__graph *g, Py_ssize_t ix, int create_graph)
{
    mt__info *in = &g->info[ix];
    MTNodeObject *node = in->node;
    int n = node->n_inputs;
    PyObject **grads = PyMem_Calloc((size_t)(n > 0 ? n : 1), sizeof(PyObject *));
    PyObject *outs = NULL, *tuple = NULL;
    void **given = NULL;
    int rc = -1, had_post_hooks = 0;
    if (grads == NULL) {
        PyErr_NoMemory();
        mt__grads_free(g, in->buffer, n);
        in->buffer = NULL;
        return -1;
    }
    /* the gradients as tensor objects (taken over from the buffer) */
    for (int i = 0; in->buffer != NULL && i < n; i++) {
        void *v = in->buffer[i];
        in->buffer[i] = NULL;
        if (v != NULL) {
            grads[i] = g->py ? (PyObject *)v : mt__tensor_wrap((mt_tensor *)v);
            if (grads[i] == NULL) {
                goto done;
            }
        }
    }
    /* a capture point runs its formula only to reach another input; its node hooks run when
     * the formula does, or when the pass accumulates (backward(inputs=)), as torch's; an
     * AccumulateGrad's when it accumulates */
    int leads_on = !in->capture;
    for (int e = 0; e < node->n_edges && !leads_on; e++) {
        leads_on = in->child[e] >= 0 && g->info[in->child[e]].needed;
    }
    int accumulates = node->variable != NULL && g->accumulate &&
                      (g->capture_at == NULL || in->target);
    int node_hooks = node->variable != NULL ? accumulates : leads_on || g->accumulate;
    /* a leaf's own hooks first, then its AccumulateGrad's pre-hooks (Note [Hook order] in
     * minitorch/autograd/graph.py); a capture sees the gradient after the tensor hooks and
     * before the node's pre-hooks */
    if (node->variable != NULL && n > 0 && grads[0] != NULL &&
        mt__run_pre_hooks(((MTTensorObject *)node->variable)->hooks, &grads[0], 1, 0,
                          MT__TENSOR_HOOKS) < 0) {
        goto done;
    }
    if (mt__run_pre_hooks(node->pre_hooks, grads, n, -1, MT__TENSOR_HOOKS) < 0) {
        goto done;
    }
    if (in->capture) {
        /* capture_at: dict node -> list of (input_nr, capture index) */
        PyObject *list = PyDict_GetItemWithError(g->capture_at, (PyObject *)node);
        if (list == NULL && PyErr_Occurred()) {
            goto done;
        }
        for (Py_ssize_t k = 0; list != NULL && k < PyList_GET_SIZE(list); k++) {
            PyObject *pair = PyList_GET_ITEM(list, k);
            int nr = (int)PyLong_AsLong(PyTuple_GET_ITEM(pair, 0));
            PyObject *at = PyTuple_GET_ITEM(pair, 1);
            if (grads[nr] != NULL && PyObject_SetItem(g->captures, at, grads[nr]) < 0) {
                goto done;
            }
        }
    }
    if (node_hooks && mt__run_pre_hooks(node->pre_hooks, grads, n, -1, MT__NODE_HOOKS) < 0) {
        goto done;
    }
    if (node->variable != NULL) {
        if (accumulates && grads[0] != NULL) {
            PyObject *grad = grads[0], *seen = NULL;
            MTTensorObject *v = (MTTensorObject *)node->variable;
            int hooked = node->hooks != NULL && PyList_GET_SIZE(node->hooks) > 0;
            int fresh = v->grad == NULL || v->grad == Py_None;
            if (hooked && !fresh) {
                seen = Py_NewRef(grad);
            }
            grads[0] = NULL;
            if (mt__node_event_hook != NULL) { /* Note [Node events] */
                PyObject *given_grads = PyTuple_Pack(1, grad);
                int hrc = given_grads ? mt__node_event((PyObject *)node, 1, given_grads) : -1;
                Py_XDECREF(given_grads); /* before accumulating: a shared grad is copied */
                if (hrc < 0) {
                    Py_DECREF(grad);
                    Py_XDECREF(seen);
                    goto done;
                }
            }
            int arc = mt__accumulate(node, grad, create_graph);
            if (mt__node_event_hook != NULL) {
                arc = mt__node_event((PyObject *)node, 2, NULL) < 0 ? -1 : arc;
            }
            if (arc < 0) {
                Py_XDECREF(seen);
                goto done;
            }
            if (hooked) {
                /* its post hooks: hook((), (grad,)), after the post-accumulate-grad hooks; a
                 * first gradient is the .grad it became */
                if (seen == NULL) {
                    seen = Py_NewRef(v->grad != NULL ? v->grad : Py_None);
                }
                PyObject *gout = PyTuple_Pack(1, seen), *gin = PyTuple_New(0);
                Py_DECREF(seen);
                int bad = gout == NULL || gin == NULL ||
                          mt__run_post_hooks(node, gin, gout, NULL) < 0;
                Py_XDECREF(gout);
                Py_XDECREF(gin);
                if (bad) {
                    goto done;
                }
            }
        }
        rc = mt__deliver(g, ix, NULL);
        goto done;
    }
    int any = 0;
    for (int i = 0; i < n; i++) {
        any |= grads[i] != NULL;
    }
    /* a custom Function's backward runs also when no gradient arrived (it gets zeros, or None
     * with materialize_grads off), as torch's */
    if (!any && node->ctx != NULL && mt__function_ctx_type != NULL &&
        PyObject_TypeCheck(node->ctx, mt__function_ctx_type)) {
        any = 1;
    }
    if (any && leads_on) {
        if (node->released || node->fn == NULL) {
            PyErr_SetString(PyExc_RuntimeError, mt__second_time);
            goto done;
        }
        tuple = PyTuple_New(n);
        if (tuple == NULL) {
            goto done;
        }
        for (int i = 0; i < n; i++) {
            PyTuple_SET_ITEM(tuple, i, Py_NewRef(grads[i] ? grads[i] : Py_None));
        }
        if (mt__node_event_hook != NULL && mt__node_event((PyObject *)node, 1, tuple) < 0) {
            goto done;
        }
        /* post hooks registered while the node runs (by an unpack hook) get no grad_outputs,
         * as torch's, which keeps them only for hooks it knew of */
        had_post_hooks = node->hooks != NULL && PyList_GET_SIZE(node->hooks) > 0;
        PyObject *r = PyObject_CallFunctionObjArgs(node->fn, (PyObject *)node, tuple, NULL);
        if (mt__node_event_hook != NULL && mt__node_event((PyObject *)node, 2, NULL) < 0) {
            Py_XDECREF(r);
            goto done;
        }
        if (r == NULL) {
            goto done;
        }
        outs = PySequence_Fast(r, "a node's function must return a sequence of gradients");
        Py_DECREF(r);
        if (outs == NULL) {
            goto done;
        }
        if (PySequence_Fast_GET_SIZE(outs) != node->n_edges) {
            PyErr_Format(PyExc_RuntimeError,
                         "function %s returned an incorrect number of gradients (expected %d, "
                         "got %zd)",
                         Py_TYPE(node)->tp_name, node->n_edges, PySequence_Fast_GET_SIZE(outs));
            goto done;
        }
        if (mt__anomaly_enabled && mt__anomaly_check_nan && mt__anomaly_check != NULL) {
            /* Note [Anomaly mode and node hooks] */
            PyObject *cr = PyObject_CallFunctionObjArgs(mt__anomaly_check, (PyObject *)node, outs,
                                                        NULL);
            if (cr == NULL) {
                goto done;
            }
            Py_DECREF(cr);
        }
        if (!g->keep_graph && node->ctx != NULL && mt__function_ctx_type != NULL &&
            PyObject_TypeCheck(node->ctx, mt__function_ctx_type)) {
            /* a custom Function keeps its ctx: only what it saved goes (ctx._release() says
             * whether something did), so that a Function that saved nothing runs again */
            PyObject *rel = PyObject_CallMethod(node->ctx, "_release", NULL);
            if (rel == NULL) {
                goto done;
            }
            node->released = (char)PyObject_IsTrue(rel);
            Py_DECREF(rel);
        }
        else if (!g->keep_graph && !node->saves_nothing &&
                 (node->dstate == NULL || mt__dstate_saves(node->dstate) || node->ctx != NULL)) {
            Py_CLEAR(node->ctx);
            mt__dstate_free(node->dstate);
            node->dstate = NULL;
            node->released = 1;
        }
        if (node->hooks != NULL && PyList_GET_SIZE(node->hooks) > 0) {
            PyObject *gin = PySequence_Tuple(outs), *gout = tuple;
            if (gin != NULL && !had_post_hooks) {
                gout = PyTuple_New(n);
                for (int i = 0; gout != NULL && i < n; i++) {
                    PyTuple_SET_ITEM(gout, i, Py_NewRef(Py_None));
                }
            }
            else {
                Py_XINCREF(gout);
            }
            int bad = gin == NULL || gout == NULL || mt__run_post_hooks(node, gin, gout, &gin) < 0;
            Py_XDECREF(gout);
            if (!bad) {
                Py_SETREF(outs, PySequence_Fast(gin, "post hooks give a sequence"));
                bad = outs == NULL;
            }
            Py_XDECREF(gin);
            if (bad) {
                goto done;
            }
        }
        /* the results in the pass's form: tensor objects, or impls */
        given = calloc((size_t)(node->n_edges > 0 ? node->n_edges : 1), sizeof(void *));
        if (given == NULL) {
            PyErr_NoMemory();
            goto done;
        }
        for (int e = 0; e < node->n_edges; e++) {
            PyObject *o = PySequence_Fast_GET_ITEM(outs, e);
            if (g->py) {
                given[e] = Py_NewRef(o);
            }
            else if (o != Py_None) {
                if (!mt__tensor_check(o)) {
                    PyErr_Format(PyExc_TypeError, "function %s returned a gradient that is not a "
                                 "Tensor (%s)", Py_TYPE(node)->tp_name, Py_TYPE(o)->tp_name);
                    goto done;
                }
                given[e] = mt__tensor_impl_ref(o);
            }
        }
    }
    rc = mt__deliver(g, ix, given);
    if (rc < 0 && !g->py) {
        rc = mt__raise_int(rc);
    }
done:
    if (given != NULL) {
        mt__grads_free(g, given, node->n_edges); /* what deliver did not take (on errors) */
        given = NULL;
    }
    for (int i = 0; i < n; i++) {
        Py_XDECREF(grads[i]);
    }
    PyMem_Free(grads);
    free(in->buffer);
    in->buffer = NULL;
    Py_XDECREF(outs);
    Py_XDECREF(tuple);
    return rc;
}

static int
mt__run_callbacks(void)
{
    while (mt__callbacks != NULL && PyList_GET_SIZE(mt__callbacks) > 0) {
        PyObject *cb = Py_NewRef(PyList_GET_ITEM(mt__callbacks, 0));
        if (PyList_SetSlice(mt__callbacks, 0, 1, NULL) < 0) {
            Py_DECREF(cb);
            return -1;
        }
        PyObject *r = PyObject_CallNoArgs(cb);
        Py_DECREF(cb);
        if (r == NULL) {
            return -1;
        }
        Py_DECREF(r);
    }
    return 0;
}

/* The edge of a root or an input: a tensor's (mt__grad_edge), or a GradientEdge, a pair
 * (node, output_nr, ...) as autograd.graph.GradientEdge makes (edge->node a new reference).  0,
 * 1 when o is neither (nothing set), or -1 with an exception. */
static int
mt__edge_of(PyObject *o, mt_edge *edge)
{
    if (mt__tensor_check(o)) {
        return mt__grad_edge(o, edge);
    }
    if (!PyTuple_Check(o) || PyTuple_GET_SIZE(o) < 2 || !mt__node_check(PyTuple_GET_ITEM(o, 0))) {
        return 1;
    }
    PyObject *node = PyTuple_GET_ITEM(o, 0);
    long nr = PyLong_AsLong(PyTuple_GET_ITEM(o, 1));
    if (nr == -1 && PyErr_Occurred()) {
        return -1;
    }
    if (nr < 0 || nr >= ((MTNodeObject *)node)->n_inputs) {
        PyErr_SetString(PyExc_RuntimeError, "GradientEdge: output_nr out of range for its node");
        return -1;
    }
    edge->node = Py_NewRef(node);
    edge->input_nr = (int)nr;
    return 0;
}

/* The roots: each tensor's edge (a new reference in edges[i].node).  0, or -1 with the
 * references taken so far dropped. */
static int
mt__graph_roots(PyObject *tensors, Py_ssize_t n, mt_edge *edges)
{
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *t = PySequence_GetItem(tensors, i);
        int rc = t == NULL ? -1 : mt__edge_of(t, &edges[i]);
        int bad = rc != 0;
        if (!bad && edges[i].node == NULL) {
            PyErr_Format(PyExc_RuntimeError,
                         "element %zd of tensors does not require grad and does not have a grad_fn",
                         i);
            bad = 1;
        }
        Py_XDECREF(t);
        if (bad) {
            if (!PyErr_Occurred()) {
                PyErr_SetString(PyExc_TypeError,
                                "backward(): tensors must be Tensors or GradientEdges");
            }
            for (Py_ssize_t k = 0; k < i; k++) {
                Py_CLEAR(edges[k].node);
            }
            return -1;
        }
    }
    return 0;
}

/* autograd.grad's inputs: *capture_at (dict node -> list of (input_nr, capture index)), the
 * list of their edges' nodes *targets (before the walk, so that new accumulators are part of
 * the graph), *captures a list of None per input.  0 or -1. */
static int
mt__graph_inputs(PyObject *inputs, PyObject **capture_at, PyObject **targets,
                 PyObject **captures)
{
    Py_ssize_t ninputs = PySequence_Length(inputs);
    if (ninputs < 0) {
        return -1;
    }
    *capture_at = PyDict_New();
    *captures = PyList_New(ninputs);
    *targets = PyList_New(0);
    if (*capture_at == NULL || *captures == NULL || *targets == NULL) {
        return -1;
    }
    for (Py_ssize_t i = 0; i < ninputs; i++) {
        PyList_SET_ITEM(*captures, i, Py_NewRef(Py_None));
        PyObject *t = PySequence_GetItem(inputs, i);
        mt_edge e = {0};
        int erc = t == NULL ? -1 : mt__edge_of(t, &e);
        if (erc > 0) {
            PyErr_SetString(PyExc_TypeError, "inputs must be Tensors or GradientEdges");
            erc = -1;
        }
        if (erc < 0) {
            Py_XDECREF(t);
            return -1;
        }
        if (erc == 0 && e.node == NULL) {
            PyErr_SetString(PyExc_RuntimeError,
                            "One of the differentiated Tensors does not require grad");
            erc = -1;
        }
        Py_DECREF(t);
        if (erc < 0) {
            return -1;
        }
        PyObject *list = PyDict_GetItemWithError(*capture_at, e.node), *pair = NULL;
        if (list == NULL && !PyErr_Occurred()) {
            list = PyList_New(0);
            if (list != NULL && PyDict_SetItem(*capture_at, e.node, list) < 0) {
                Py_CLEAR(list);
            }
            Py_XDECREF(list); /* the dict holds it */
        }
        pair = list ? Py_BuildValue("(in)", e.input_nr, i) : NULL;
        int bad = pair == NULL || PyList_Append(list, pair) < 0 ||
                  PyList_Append(*targets, e.node) < 0;
        Py_XDECREF(pair);
        Py_DECREF(e.node);
        if (bad) {
            return -1;
        }
    }
    return 0;
}

/* Seeds the roots' gradients and queues the roots that are ready.  0 or -1. */
static int
mt__graph_seed(mt__graph *g, const mt_edge *roots, PyObject *grads, Py_ssize_t n)
{
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *grad = PySequence_GetItem(grads, i);
        Py_ssize_t ix = mt__graph_find(g, roots[i].node);
        int bad = grad == NULL || ix < 0;
        if (!bad && grad != Py_None) {
            if (g->py) {
                bad = mt__buffer_add_py(g, ix, roots[i].input_nr, grad) < 0;
            }
            else if (!mt__tensor_check(grad)) {
                PyErr_SetString(PyExc_TypeError, "backward(): grad_tensors must be Tensors");
                bad = 1;
            }
            else {
                int rc = mt__buffer_add_c(g, ix, roots[i].input_nr, mt__tensor_impl_ref(grad));
                bad = rc < 0 && mt__raise_int(rc) < 0;
            }
        }
        Py_XDECREF(grad);
        if (bad) {
            return -1;
        }
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        Py_ssize_t ix = mt__graph_find(g, roots[i].node);
        mt__info *in = &g->info[ix];
        if (in->deps == 0 && in->needed && !in->queued) {
            mt__heap_push(g, ix);
        }
    }
    return 0;
}

/* Anomaly mode: hands the node that failed and its exception (set) to mt__anomaly_report,
 * which warns with the node's forward traceback (Note [Anomaly mode and node hooks]).  The
 * exception stays set; one the report raises (a warning made an error) replaces it, with the
 * original as its context. */
static void
mt__anomaly_failed(PyObject *node)
{
    if (mt__anomaly_report == NULL) {
        return;
    }
    PyObject *type, *value, *tb;
    PyErr_Fetch(&type, &value, &tb);
    PyErr_NormalizeException(&type, &value, &tb);
    if (tb != NULL && value != NULL) {
        PyException_SetTraceback(value, tb);
    }
    PyObject *r = PyObject_CallFunctionObjArgs(mt__anomaly_report, node,
                                               value ? value : Py_None, NULL);
    if (r != NULL) {
        Py_DECREF(r);
        PyErr_Restore(type, value, tb);
        return;
    }
    PyObject *t2, *v2, *tb2;
    PyErr_Fetch(&t2, &v2, &tb2);
    PyErr_NormalizeException(&t2, &v2, &tb2);
    if (v2 != NULL && value != NULL) {
        PyException_SetContext(v2, Py_NewRef(value)); /* steals */
    }
    Py_XDECREF(type);
    Py_XDECREF(value);
    Py_XDECREF(tb);
    PyErr_Restore(t2, v2, tb2);
}

/* Run: the ready nodes, latest made first, each in C without the GIL when it can (Note [The
 * engine]).  0 or -1 with an exception. */
static int
mt__graph_run(mt__graph *g, int create_graph)
{
    mt__c_nodes = 0;
    int failed = 0;
    while (g->heap_n > 0) {
        Py_ssize_t ix = mt__heap_pop(g);
        if (mt__runs_in_c(g, ix)) {
            mt__gil_drop(g);
            mt__c_nodes++;
            int rc = mt__run_dnode(g, ix);
            if (rc < 0) {
                mt__gil_take(g);
                mt__raise_int(rc);
                failed = 1;
                break;
            }
        }
        else {
            mt__gil_take(g);
            PyObject *node = (PyObject *)g->info[ix].node;
            MTNodeObject *outer = mt__current_node;
            mt__current_node = g->info[ix].node;
            int rc = 0;
            if (mt__node_event_hook != NULL) { /* Note [Node events] */
                rc = mt__node_event(node, 0, NULL);
            }
            if (rc == 0) {
                rc = mt__run_node(g, ix, create_graph);
                if (mt__node_event_hook != NULL && mt__node_event(node, 3, NULL) < 0) {
                    rc = -1;
                }
            }
            mt__current_node = outer;
            if (rc < 0) {
                if (mt__anomaly_enabled) {
                    mt__anomaly_failed((PyObject *)g->info[ix].node);
                }
                failed = 1;
                break;
            }
        }
    }
    mt__gil_take(g);
    return failed ? -1 : 0;
}

/* _run_backward(tensors, grads, keep_graph, create_graph, inputs, accumulate) -> list or None
 * tensors, grads: sequences of the same length (grads are tensors, already checked);
 * inputs: a sequence of tensors or None; accumulate: add into leaves' .grad (backward) or
 * return the inputs' gradients (autograd.grad: a list, None where nothing arrived).
 * The pass: roots, build, mark, seed, run (Note [The engine]). */
static PyObject *
mt_py_run_backward(PyObject *module, PyObject *args)
{
    PyObject *tensors, *grads, *inputs;
    int keep_graph, create_graph, accumulate;
    if (!PyArg_ParseTuple(args, "OOppOp:_run_backward", &tensors, &grads, &keep_graph,
                          &create_graph, &inputs, &accumulate)) {
        return NULL;
    }
    /* while op watchers are active the gradients stay tensor objects too: a watcher may give
     * them a Python subclass whose identity matters (Note [Python dispatch] in
     * minitorch/_python_dispatch.py) */
    mt__graph g = {.py = create_graph || mt__ag_watchers > 0, .keep_graph = keep_graph,
                   .accumulate = accumulate};
    PyObject *capture_at = NULL, *captures = NULL, *targets = NULL, *result = NULL;
    PyObject *saved_callbacks = mt__callbacks;
    int saved_mode = mt__grad_off;
    mt_edge *roots = NULL;
    mt__callbacks = NULL;
    Py_ssize_t n = PySequence_Length(tensors);
    if (n < 0 || PySequence_Length(grads) != n) {
        if (!PyErr_Occurred()) {
            PyErr_SetString(PyExc_ValueError, "_run_backward(): tensors and grads differ in length");
        }
        goto done;
    }
    mt__callbacks = PyList_New(0);
    roots = PyMem_Calloc((size_t)(n > 0 ? n : 1), sizeof(mt_edge));
    if (mt__callbacks == NULL || roots == NULL) {
        if (roots == NULL) {
            PyErr_NoMemory();
        }
        goto done;
    }
    if (mt__graph_roots(tensors, n, roots) < 0) {
        PyMem_Free(roots);
        roots = NULL;
        goto done;
    }
    if (inputs != Py_None && mt__graph_inputs(inputs, &capture_at, &targets, &captures) < 0) {
        goto done;
    }
    PyObject *root_nodes[64], **rn = root_nodes;
    if (n > 64 && (rn = PyMem_Malloc((size_t)n * sizeof(PyObject *))) == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        rn[i] = roots[i].node;
    }
    int built = mt__graph_build(&g, rn, n);
    if (rn != root_nodes) {
        PyMem_Free(rn);
    }
    if (built < 0) {
        goto done;
    }
    if (targets != NULL) {
        for (Py_ssize_t i = 0; i < PyList_GET_SIZE(targets); i++) {
            Py_ssize_t ix = mt__graph_find(&g, PyList_GET_ITEM(targets, i));
            if (ix >= 0) {
                g.info[ix].target = 1;
            }
        }
        if (mt__graph_mark(&g) < 0) {
            goto done;
        }
        PyObject *key, *value;
        Py_ssize_t pos = 0;
        while (PyDict_Next(capture_at, &pos, &key, &value)) {
            Py_ssize_t ix = mt__graph_find(&g, key);
            if (ix >= 0) {
                g.info[ix].capture = 1;
            }
        }
    }
    if (mt__graph_seed(&g, roots, grads, n) < 0) {
        goto done;
    }
    g.captures = captures; /* borrowed */
    g.capture_at = capture_at;
    mt__grad_off = !create_graph;
    mt__graph *outer_graph = mt__current_graph;
    MTNodeObject *outer_node = mt__current_node;
    mt__current_graph = &g;
    mt__current_node = NULL;
    int failed = mt__graph_run(&g, create_graph);
    if (!failed) {
        failed = mt__run_callbacks() < 0;
    }
    mt__current_graph = outer_graph;
    mt__current_node = outer_node;
    mt__grad_off = saved_mode;
    if (failed) {
        goto done;
    }
    result = captures != NULL ? Py_NewRef(captures) : Py_NewRef(Py_None);
done:
    mt__grad_off = saved_mode;
    mt__graph_free(&g);
    if (roots != NULL) {
        for (Py_ssize_t i = 0; i < n; i++) {
            Py_XDECREF(roots[i].node);
        }
        PyMem_Free(roots);
    }
    Py_XDECREF(targets);
    Py_XDECREF(capture_at);
    Py_XDECREF(captures);
    Py_XSETREF(mt__callbacks, saved_callbacks);
    return result;
}

/* _queue_callback(fn): fn() runs when the current backward pass ends. */
static PyObject *
mt_py_queue_callback(PyObject *module, PyObject *fn)
{
    if (mt__callbacks == NULL) {
        PyErr_SetString(PyExc_RuntimeError,
                        "Final callbacks can only be installed during backward pass.");
        return NULL;
    }
    if (PyList_Append(mt__callbacks, fn) < 0) {
        return NULL;
    }
    Py_RETURN_NONE;
}

static PyObject *
mt_py_set_function_ctx_class(PyObject *module, PyObject *cls)
{
    if (!PyType_Check(cls)) {
        PyErr_SetString(PyExc_TypeError, "_set_function_ctx_class() expects a class");
        return NULL;
    }
    Py_XSETREF(mt__function_ctx_type, (PyTypeObject *)Py_NewRef(cls));
    Py_RETURN_NONE;
}

/* _current_autograd_node() -> the node the engine runs on this thread now (its Python part:
 * hooks, formulas, unpacking), or None */
static PyObject *
mt_py_current_autograd_node(PyObject *module, PyObject *unused)
{
    return Py_NewRef(mt__current_node ? (PyObject *)mt__current_node : Py_None);
}

/* _current_graph_task_keep_graph() -> whether the pass this thread runs keeps its graph */
static PyObject *
mt_py_current_graph_task_keep_graph(PyObject *module, PyObject *unused)
{
    if (mt__current_graph == NULL) {
        PyErr_SetString(PyExc_RuntimeError,
                        "_get_current_graph_task_keep_graph() can only be called during the "
                        "backward pass");
        return NULL;
    }
    return PyBool_FromLong(mt__current_graph->keep_graph);
}

/* _will_engine_execute_node(node) -> whether the pass this thread runs will run node (its
 * gradient is needed and has not all arrived yet, or it is about to run) */
static PyObject *
mt_py_will_engine_execute_node(PyObject *module, PyObject *node)
{
    mt__graph *g = mt__current_graph;
    if (!mt__node_check(node)) {
        PyErr_Format(PyExc_RuntimeError, "_will_engine_execute_node expects an grad_fn, but got %s",
                     mt__tensor_check(node) ? "Tensor" : Py_TYPE(node)->tp_name);
        return NULL;
    }
    if (g == NULL) {
        PyErr_SetString(PyExc_RuntimeError,
                        "_get_should_execute_nodes should only be called during the backward "
                        "pass");
        return NULL;
    }
    Py_ssize_t ix = mt__graph_find(g, node);
    if (ix < 0) {
        Py_RETURN_FALSE;
    }
    mt__info *in = &g->info[ix];
    if (in->node->variable != NULL && !g->accumulate) {
        /* autograd.grad captures at a leaf's accumulator and never runs it */
        if (in->capture) {
            PyErr_SetString(PyExc_RuntimeError,
                            "A leaf node was passed to _will_engine_execute_node but we are "
                            "currently running autograd.grad(). This is currently not "
                            "supported.");
            return NULL;
        }
        Py_RETURN_FALSE;
    }
    return PyBool_FromLong(in->needed);
}

static PyObject *
mt_py_last_backward_c_nodes(PyObject *module, PyObject *unused)
{
    return PyLong_FromSsize_t(mt__c_nodes);
}

static PyMethodDef mt_engine_functions[] = {
    {"_last_backward_c_nodes", mt_py_last_backward_c_nodes, METH_NOARGS, NULL},
    {"_run_backward", mt_py_run_backward, METH_VARARGS, NULL},
    {"_queue_callback", mt_py_queue_callback, METH_O, NULL},
    {"_current_autograd_node", mt_py_current_autograd_node, METH_NOARGS, NULL},
    {"_set_function_ctx_class", mt_py_set_function_ctx_class, METH_O, NULL},
    {"_current_graph_task_keep_graph", mt_py_current_graph_task_keep_graph, METH_NOARGS, NULL},
    {"_will_engine_execute_node", mt_py_will_engine_execute_node, METH_O, NULL},
    {NULL},
};

int
mt__engine_init(PyObject *module)
{
    return PyModule_AddFunctions(module, mt_engine_functions);
}
