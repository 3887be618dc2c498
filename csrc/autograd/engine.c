/* csrc/autograd/engine.c - the backward pass: runs the graph's nodes from the roots to the
 * leaves in dependency order. */
#include "csrc/autograd/autograd.h"

#include <string.h>

/* Note [The engine]
 * run_backward(roots, grads, ...) first walks the graph from the roots and counts, for each
 * node, the edges into it.  A node is ready when every edge into it has delivered (its count
 * is zero); ready nodes run latest-created first (AccumulateGrad before anything, as torch),
 * so a chain of ops runs in reverse order and gradient buffers are freed early.  A node's
 * gradients are summed in its buffer (one slot per output of its op) as they arrive.
 * When `inputs` are given (autograd.grad, or backward(inputs=)), only nodes on a path to one
 * of them run, and their gradients are captured where they enter the inputs' nodes.
 * Grad mode is create_graph for the whole pass, so formulas are recorded only then.  Saved
 * state is dropped as each node finishes unless retain_graph: a second pass through such a
 * node is torch's "backward through the graph a second time" error.  Callbacks queued while
 * the pass runs (_queue_callback; DistributedDataParallel waits for its all-reduces that way)
 * run when it ends.  Formulas are Python, so the pass holds the GIL. */

typedef struct {
    MTNodeObject *node; /* borrowed: graph[] holds nodes alive through `index` keys */
    PyObject **buffer;  /* owned grads, one per node input, NULL where none arrived */
    Py_ssize_t deps;
    char needed;
    char target;        /* a capture point or a backward(inputs=) accumulator */
} mt__info;

typedef struct {
    PyObject *index;    /* dict node -> int index into info (holds the nodes) */
    mt__info *info;
    Py_ssize_t n, cap;
    Py_ssize_t *heap;   /* indices of ready nodes, max-heap on seq */
    Py_ssize_t heap_n;
} mt__graph;

/* the callbacks of the pass this thread runs (a list), else NULL; per thread, as two threads
 * may each run a pass (one waits for the GIL while the other's kernels run) */
static _Thread_local PyObject *mt__callbacks;

static void
mt__graph_free(mt__graph *g)
{
    for (Py_ssize_t i = 0; i < g->n; i++) {
        if (g->info[i].buffer != NULL) {
            for (int j = 0; j < g->info[i].node->n_inputs; j++) {
                Py_XDECREF(g->info[i].buffer[j]);
            }
            PyMem_Free(g->info[i].buffer);
        }
    }
    PyMem_Free(g->info);
    PyMem_Free(g->heap);
    Py_XDECREF(g->index);
}

/* The node's index, adding it when new (*added set).  -1 on error. */
static Py_ssize_t
mt__graph_add(mt__graph *g, PyObject *node, int *added)
{
    PyObject *ix = PyDict_GetItemWithError(g->index, node);
    *added = 0;
    if (ix != NULL) {
        return PyLong_AsSsize_t(ix);
    }
    if (PyErr_Occurred()) {
        return -1;
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
    PyObject *v = PyLong_FromSsize_t(g->n);
    if (v == NULL || PyDict_SetItem(g->index, node, v) < 0) {
        Py_XDECREF(v);
        return -1;
    }
    Py_DECREF(v);
    g->info[g->n] = (mt__info){.node = (MTNodeObject *)node, .needed = 1};
    *added = 1;
    return g->n++;
}

static Py_ssize_t
mt__graph_find(mt__graph *g, PyObject *node)
{
    PyObject *ix = PyDict_GetItemWithError(g->index, node);
    return ix != NULL ? PyLong_AsSsize_t(ix) : -1;
}

static int
mt__heap_less(mt__graph *g, Py_ssize_t a, Py_ssize_t b)
{
    return g->info[a].node->seq < g->info[b].node->seq;
}

static int
mt__heap_push(mt__graph *g, Py_ssize_t ix)
{
    if (g->heap == NULL) {
        g->heap = PyMem_Malloc((size_t)(g->n > 0 ? g->n : 1) * sizeof(Py_ssize_t));
        if (g->heap == NULL) {
            PyErr_NoMemory();
            return -1;
        }
    }
    Py_ssize_t i = g->heap_n++;
    g->heap[i] = ix;
    while (i > 0 && mt__heap_less(g, g->heap[(i - 1) / 2], g->heap[i])) {
        Py_ssize_t p = (i - 1) / 2, t = g->heap[p];
        g->heap[p] = g->heap[i];
        g->heap[i] = t;
        i = p;
    }
    return 0;
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

/* Adds grad (borrowed) into slot `nr` of node ix's buffer.  0 or -1. */
static int
mt__buffer_add(mt__graph *g, Py_ssize_t ix, int nr, PyObject *grad)
{
    mt__info *in = &g->info[ix];
    if (nr < 0 || nr >= in->node->n_inputs) {
        PyErr_SetString(PyExc_RuntimeError, "autograd: gradient for an output the node lacks");
        return -1;
    }
    if (in->buffer == NULL) {
        in->buffer = PyMem_Calloc((size_t)in->node->n_inputs, sizeof(PyObject *));
        if (in->buffer == NULL) {
            PyErr_NoMemory();
            return -1;
        }
    }
    PyObject **slot = &in->buffer[nr];
    if (*slot == NULL) {
        *slot = Py_NewRef(grad);
        return 0;
    }
    PyObject *sum = PyNumber_Add(*slot, grad);
    if (sum == NULL) {
        return -1;
    }
    Py_SETREF(*slot, sum);
    return 0;
}

/* Walks the graph from the roots: every node reachable gets an entry and its count of edges
 * in. */
static int
mt__graph_build(mt__graph *g, PyObject *roots)
{
    Py_ssize_t nroots = PyList_GET_SIZE(roots);
    PyObject *stack = PyList_New(0);
    int rc = -1;
    if (stack == NULL) {
        goto done;
    }
    for (Py_ssize_t i = 0; i < nroots; i++) {
        int added;
        PyObject *node = PyList_GET_ITEM(roots, i);
        if (mt__graph_add(g, node, &added) < 0) {
            goto done;
        }
        if (added && PyList_Append(stack, node) < 0) {
            goto done;
        }
    }
    /* iterative DFS */
    while (PyList_GET_SIZE(stack) > 0) {
        Py_ssize_t last = PyList_GET_SIZE(stack) - 1;
        PyObject *node = Py_NewRef(PyList_GET_ITEM(stack, last));
        if (PyList_SetSlice(stack, last, last + 1, NULL) < 0) {
            Py_DECREF(node);
            goto done;
        }
        MTNodeObject *n = (MTNodeObject *)node;
        for (int e = 0; e < n->n_edges; e++) {
            PyObject *child = n->edges[e].node;
            if (child == NULL) {
                continue;
            }
            int added;
            Py_ssize_t cix = mt__graph_add(g, child, &added);
            if (cix < 0 || (added && PyList_Append(stack, child) < 0)) {
                Py_DECREF(node);
                goto done;
            }
            g->info[cix].deps++;
        }
        Py_DECREF(node);
    }
    rc = 0;
done:
    Py_XDECREF(stack);
    return rc;
}

/* Runs hook(grad) for each (nr, hook) of the list; a non-None result replaces the grad. */
static int
mt__run_pre_hooks(PyObject *hooks, PyObject **grads, int n, int only_nr)
{
    if (hooks == NULL) {
        return 0;
    }
    PyObject *copy = PySequence_List(hooks); /* hooks may remove themselves */
    if (copy == NULL) {
        return -1;
    }
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(copy); i++) {
        PyObject *item = PyList_GET_ITEM(copy, i), *hook = item;
        int nr = only_nr;
        if (PyTuple_Check(item) && PyTuple_GET_SIZE(item) == 2) {
            nr = (int)PyLong_AsLong(PyTuple_GET_ITEM(item, 0));
            hook = PyTuple_GET_ITEM(item, 1);
        }
        if (nr < 0 || nr >= n || grads[nr] == NULL) {
            continue;
        }
        PyObject *r = PyObject_CallOneArg(hook, grads[nr]);
        if (r == NULL) {
            Py_DECREF(copy);
            return -1;
        }
        if (r != Py_None) {
            Py_SETREF(grads[nr], r);
        }
        else {
            Py_DECREF(r);
        }
    }
    Py_DECREF(copy);
    return 0;
}

/* AccumulateGrad: variable.grad += grad (see Note [The engine]).  Steals grad. */
static int
mt__accumulate(MTNodeObject *node, PyObject *grad, int create_graph)
{
    MTTensorObject *v = (MTTensorObject *)node->variable;
    if (mt__run_pre_hooks(v->hooks, &grad, 1, 0) < 0) {
        Py_DECREF(grad);
        return -1;
    }
    if (v->grad == NULL || v->grad == Py_None) {
        PyObject *g = grad;
        if (!create_graph && (Py_REFCNT(grad) > 1 || ((MTTensorObject *)grad)->base != NULL ||
                              mt__tensor_requires_grad(grad))) {
            /* shared with another buffer or a view of something else: keep a copy */
            g = PyObject_CallMethod(grad, "clone", NULL);
            Py_DECREF(grad);
            if (g == NULL) {
                return -1;
            }
        }
        Py_XSETREF(v->grad, g);
    }
    else if (!create_graph) {
        PyObject *r = PyObject_CallMethod(v->grad, "add_", "O", grad);
        Py_DECREF(grad);
        if (r == NULL) {
            return -1;
        }
        Py_DECREF(r);
    }
    else {
        PyObject *sum = PyNumber_Add(v->grad, grad);
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
            Py_DECREF(r);
        }
        Py_DECREF(copy);
    }
    return 0;
}

/* Runs one ready node: hooks, its formula (or accumulation), then hands the results to its
 * edges.  0 or -1. */
static int
mt__run_node(mt__graph *g, Py_ssize_t ix, int keep_graph, int create_graph, int accumulate,
             PyObject *captures, PyObject *capture_at)
{
    mt__info *in = &g->info[ix];
    MTNodeObject *node = in->node;
    int n = node->n_inputs;
    PyObject **grads = in->buffer;
    in->buffer = NULL;
    PyObject *outs = NULL, *tuple = NULL;
    int rc = -1;
    if (grads == NULL) {
        grads = PyMem_Calloc((size_t)(n > 0 ? n : 1), sizeof(PyObject *));
        if (grads == NULL) {
            PyErr_NoMemory();
            return -1;
        }
    }
    if (mt__run_pre_hooks(node->pre_hooks, grads, n, -1) < 0) {
        goto done;
    }
    if (capture_at != NULL) {
        /* capture_at: dict node -> list of (input_nr, capture index) */
        PyObject *list = PyDict_GetItemWithError(capture_at, (PyObject *)node);
        if (list == NULL && PyErr_Occurred()) {
            goto done;
        }
        for (Py_ssize_t k = 0; list != NULL && k < PyList_GET_SIZE(list); k++) {
            PyObject *pair = PyList_GET_ITEM(list, k);
            int nr = (int)PyLong_AsLong(PyTuple_GET_ITEM(pair, 0));
            PyObject *at = PyTuple_GET_ITEM(pair, 1);
            PyObject *grad = grads[nr];
            if (node->variable != NULL && grad != NULL &&
                mt__run_pre_hooks(((MTTensorObject *)node->variable)->hooks, &grads[nr], 1, 0) < 0) {
                goto done;
            }
            grad = grads[nr];
            if (grad != NULL && PyObject_SetItem(captures, at, grad) < 0) {
                goto done;
            }
        }
    }
    if (node->variable != NULL) {
        if (accumulate && (capture_at == NULL || in->target) && grads[0] != NULL) {
            PyObject *grad = grads[0];
            grads[0] = NULL;
            if (mt__accumulate(node, grad, create_graph) < 0) {
                goto done;
            }
        }
        rc = 0;
        goto done;
    }
    int any = 0;
    for (int i = 0; i < n; i++) {
        any |= grads[i] != NULL;
    }
    if (any) {
        if (node->released || node->fn == NULL) {
            PyErr_SetString(PyExc_RuntimeError,
                            "Trying to backward through the graph a second time (or directly access "
                            "saved tensors after they have already been freed). Saved intermediate "
                            "values of the graph are freed when you call .backward() or "
                            "autograd.grad(). Specify retain_graph=True if you need to backward "
                            "through the graph a second time or if you need to access saved tensors "
                            "after calling backward.");
            goto done;
        }
        tuple = PyTuple_New(n);
        if (tuple == NULL) {
            goto done;
        }
        for (int i = 0; i < n; i++) {
            PyTuple_SET_ITEM(tuple, i, Py_NewRef(grads[i] ? grads[i] : Py_None));
        }
        PyObject *r = PyObject_CallFunctionObjArgs(node->fn, (PyObject *)node, tuple, NULL);
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
        if (!keep_graph) {
            Py_CLEAR(node->ctx);
            node->released = 1;
        }
        if (node->hooks != NULL && PyList_GET_SIZE(node->hooks) > 0) {
            PyObject *gin = PySequence_Tuple(outs);
            PyObject *copy = gin ? PySequence_List(node->hooks) : NULL;
            for (Py_ssize_t k = 0; copy != NULL && k < PyList_GET_SIZE(copy); k++) {
                PyObject *hr = PyObject_CallFunctionObjArgs(PyList_GET_ITEM(copy, k), gin, tuple,
                                                            NULL);
                if (hr == NULL) {
                    Py_CLEAR(copy);
                    break;
                }
                Py_DECREF(hr);
            }
            Py_XDECREF(gin);
            if (copy == NULL) {
                goto done;
            }
            Py_DECREF(copy);
        }
    }
    for (int e = 0; e < node->n_edges; e++) {
        PyObject *child = node->edges[e].node;
        if (child == NULL) {
            continue;
        }
        Py_ssize_t cix = mt__graph_find(g, child);
        if (cix < 0) {
            if (!PyErr_Occurred()) {
                PyErr_SetString(PyExc_RuntimeError, "autograd: edge to a node outside the graph");
            }
            goto done;
        }
        PyObject *grad = outs ? PySequence_Fast_GET_ITEM(outs, e) : Py_None;
        if (grad != Py_None && g->info[cix].needed &&
            mt__buffer_add(g, cix, node->edges[e].input_nr, grad) < 0) {
            goto done;
        }
        if (--g->info[cix].deps == 0 && g->info[cix].needed && mt__heap_push(g, cix) < 0) {
            goto done;
        }
    }
    rc = 0;
done:
    for (int i = 0; i < n; i++) {
        Py_XDECREF(grads[i]);
    }
    PyMem_Free(grads);
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

/* _run_backward(tensors, grads, keep_graph, create_graph, inputs, accumulate) -> list or None
 * tensors, grads: sequences of the same length (grads are tensors, already checked);
 * inputs: a sequence of tensors or None; accumulate: add into leaves' .grad (backward) or
 * return the inputs' gradients (autograd.grad: a list, None where nothing arrived). */
static PyObject *
mt_py_run_backward(PyObject *module, PyObject *args)
{
    PyObject *tensors, *grads, *inputs;
    int keep_graph, create_graph, accumulate;
    if (!PyArg_ParseTuple(args, "OOppOp:_run_backward", &tensors, &grads, &keep_graph,
                          &create_graph, &inputs, &accumulate)) {
        return NULL;
    }
    mt__graph g = {0};
    PyObject *roots = NULL, *capture_at = NULL, *captures = NULL, *result = NULL;
    PyObject *saved_callbacks = mt__callbacks;
    int saved_mode = mt__grad_off;
    mt__callbacks = NULL;
    Py_ssize_t n = PySequence_Length(tensors);
    if (n < 0 || PySequence_Length(grads) != n) {
        if (!PyErr_Occurred()) {
            PyErr_SetString(PyExc_ValueError, "_run_backward(): tensors and grads differ in length");
        }
        goto done;
    }
    g.index = PyDict_New();
    roots = PyList_New(0);
    mt__callbacks = PyList_New(0);
    if (g.index == NULL || roots == NULL || mt__callbacks == NULL) {
        goto done;
    }
    mt_edge *root_edges = PyMem_Calloc((size_t)(n > 0 ? n : 1), sizeof(mt_edge));
    if (root_edges == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *t = PySequence_GetItem(tensors, i);
        int bad = t == NULL || !mt__tensor_check(t);
        if (!bad && mt__grad_edge(t, &root_edges[i]) < 0) {
            bad = 1;
        }
        else if (!bad && root_edges[i].node == NULL) {
            PyErr_Format(PyExc_RuntimeError,
                         "element %zd of tensors does not require grad and does not have a grad_fn",
                         i);
            bad = 1;
        }
        else if (!bad && PyList_Append(roots, root_edges[i].node) < 0) {
            bad = 1;
        }
        Py_XDECREF(t);
        if (bad) {
            if (!PyErr_Occurred()) {
                PyErr_SetString(PyExc_TypeError, "backward(): tensors must be Tensors");
            }
            for (Py_ssize_t k = 0; k <= i; k++) {
                Py_XDECREF(root_edges[k].node);
            }
            PyMem_Free(root_edges);
            goto done;
        }
    }
    /* the inputs' capture points, before the walk so new accumulators are in the graph */
    Py_ssize_t ninputs = 0;
    PyObject *input_edges = NULL;
    if (inputs != Py_None) {
        ninputs = PySequence_Length(inputs);
        capture_at = PyDict_New();
        captures = PyList_New(ninputs);
        input_edges = PyList_New(0);
        if (ninputs < 0 || capture_at == NULL || captures == NULL || input_edges == NULL) {
            Py_XDECREF(input_edges);
            goto roots_fail;
        }
        for (Py_ssize_t i = 0; i < ninputs; i++) {
            PyList_SET_ITEM(captures, i, Py_NewRef(Py_None));
            PyObject *t = PySequence_GetItem(inputs, i);
            mt_edge e = {0};
            if (t == NULL || !mt__tensor_check(t)) {
                Py_XDECREF(t);
                if (!PyErr_Occurred()) {
                    PyErr_SetString(PyExc_TypeError, "inputs must be Tensors");
                }
                Py_DECREF(input_edges);
                goto roots_fail;
            }
            int erc = mt__grad_edge(t, &e);
            if (erc == 0 && e.node == NULL) {
                PyErr_SetString(PyExc_RuntimeError, "One of the differentiated Tensors does not "
                                                    "require grad");
                erc = -1;
            }
            Py_DECREF(t);
            PyObject *list = NULL, *pair = NULL;
            if (erc == 0) {
                list = PyDict_GetItemWithError(capture_at, e.node);
                if (list == NULL && !PyErr_Occurred()) {
                    list = PyList_New(0);
                    if (list != NULL && PyDict_SetItem(capture_at, e.node, list) < 0) {
                        Py_CLEAR(list);
                    }
                    Py_XDECREF(list); /* the dict holds it */
                }
                pair = list ? Py_BuildValue("(in)", e.input_nr, i) : NULL;
            }
            if (erc < 0 || pair == NULL || PyList_Append(list, pair) < 0 ||
                PyList_Append(input_edges, e.node) < 0) {
                Py_XDECREF(pair);
                Py_XDECREF(e.node);
                Py_DECREF(input_edges);
                goto roots_fail;
            }
            Py_DECREF(pair);
            Py_DECREF(e.node);
        }
    }
    if (mt__graph_build(&g, roots) < 0) {
        Py_XDECREF(input_edges);
        goto roots_fail;
    }
    if (input_edges != NULL) {
        for (Py_ssize_t i = 0; i < PyList_GET_SIZE(input_edges); i++) {
            Py_ssize_t ix = mt__graph_find(&g, PyList_GET_ITEM(input_edges, i));
            if (ix >= 0) {
                g.info[ix].target = 1;
            }
            else if (PyErr_Occurred()) {
                Py_DECREF(input_edges);
                goto roots_fail;
            }
        }
        Py_DECREF(input_edges);
        /* needed: a target or leads to one (targets were unknown while building) */
        for (Py_ssize_t i = 0; i < g.n; i++) {
            g.info[i].needed = g.info[i].target;
        }
        int changed = 1;
        while (changed) {
            changed = 0;
            for (Py_ssize_t i = 0; i < g.n; i++) {
                if (g.info[i].needed) {
                    continue;
                }
                MTNodeObject *nd = g.info[i].node;
                for (int e = 0; e < nd->n_edges; e++) {
                    if (nd->edges[e].node != NULL &&
                        g.info[mt__graph_find(&g, nd->edges[e].node)].needed) {
                        g.info[i].needed = 1;
                        changed = 1;
                        break;
                    }
                }
            }
        }
    }
    /* the roots' gradients */
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *grad = PySequence_GetItem(grads, i);
        Py_ssize_t ix = mt__graph_find(&g, root_edges[i].node);
        int bad = grad == NULL || ix < 0 ||
                  (grad != Py_None && mt__buffer_add(&g, ix, root_edges[i].input_nr, grad) < 0);
        Py_XDECREF(grad);
        if (bad) {
            goto roots_fail;
        }
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        Py_ssize_t ix = mt__graph_find(&g, root_edges[i].node);
        int queued = 0;
        for (Py_ssize_t k = 0; k < g.heap_n; k++) {
            queued |= g.heap[k] == ix;
        }
        if (g.info[ix].deps == 0 && g.info[ix].needed && !queued && mt__heap_push(&g, ix) < 0) {
            goto roots_fail;
        }
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        Py_CLEAR(root_edges[i].node);
    }
    PyMem_Free(root_edges);
    root_edges = NULL;

    mt__grad_off = !create_graph;
    int failed = 0;
    while (g.heap_n > 0) {
        Py_ssize_t ix = mt__heap_pop(&g);
        if (mt__run_node(&g, ix, keep_graph, create_graph, accumulate, captures, capture_at) < 0) {
            failed = 1;
            break;
        }
    }
    mt__grad_off = saved_mode;
    if (failed || mt__run_callbacks() < 0) {
        goto done;
    }
    result = captures != NULL ? Py_NewRef(captures) : Py_NewRef(Py_None);
    goto done;
roots_fail:
    if (root_edges != NULL) {
        for (Py_ssize_t i = 0; i < n; i++) {
            Py_XDECREF(root_edges[i].node);
        }
        PyMem_Free(root_edges);
    }
done:
    mt__grad_off = saved_mode;
    mt__graph_free(&g);
    Py_XDECREF(roots);
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

static PyMethodDef mt_engine_functions[] = {
    {"_run_backward", mt_py_run_backward, METH_VARARGS, NULL},
    {"_queue_callback", mt_py_queue_callback, METH_O, NULL},
    {NULL},
};

int
mt__engine_init(PyObject *module)
{
    return PyModule_AddFunctions(module, mt_engine_functions);
}
