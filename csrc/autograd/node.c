/* csrc/autograd/node.c - the graph's nodes (see Note [Nodes]) and the edges into them. */
#include "csrc/autograd/autograd.h"
#include "csrc/autograd/derivatives.h"

#include <stddef.h>
#include <structmember.h>

PyTypeObject *mt__Node_Type;
static PyObject *mt__accumulate_grad_class; /* minitorch.autograd.graph.AccumulateGrad; owned */
static uint64_t mt__next_seq;

#define NODE(o) ((MTNodeObject *)(o))

uint64_t
mt__node_next_seq(void)
{
    return mt__next_seq++;
}

uint64_t
mt__node_peek_seq(void)
{
    return mt__next_seq;
}

/* _Node(fn, ctx, inputs, n_inputs): inputs is a sequence of tensors (or None); each becomes
 * an edge to where its gradient goes (no edge for those that do not require grad). */
static PyObject *
node_new(PyTypeObject *type, PyObject *args, PyObject *kwargs)
{
    PyObject *fn, *ctx, *inputs;
    int n_inputs;
    if (kwargs != NULL && PyDict_GET_SIZE(kwargs) != 0) {
        PyErr_SetString(PyExc_TypeError, "_Node() takes no keyword arguments");
        return NULL;
    }
    if (!PyArg_ParseTuple(args, "OOOi:_Node", &fn, &ctx, &inputs, &n_inputs)) {
        return NULL;
    }
    if (n_inputs < 0) {
        PyErr_SetString(PyExc_ValueError, "_Node(): n_inputs must be >= 0");
        return NULL;
    }
    PyObject *seq = PySequence_Fast(inputs, "_Node(): inputs must be a sequence");
    if (seq == NULL) {
        return NULL;
    }
    MTNodeObject *self = (MTNodeObject *)type->tp_alloc(type, 0);
    if (self == NULL) {
        Py_DECREF(seq);
        return NULL;
    }
    self->fn = fn == Py_None ? NULL : Py_NewRef(fn);
    self->ctx = ctx == Py_None ? NULL : Py_NewRef(ctx);
    self->n_inputs = n_inputs;
    /* an AccumulateGrad (no fn) takes no number: ready accumulators run first, and the next
     * op's node keeps the number the profiler gave the op (Note [Node events]) */
    self->seq = self->fn != NULL ? mt__next_seq++ : UINT64_MAX;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    if (n > 0) {
        self->edges = PyMem_Calloc((size_t)n, sizeof(mt_edge));
        if (self->edges == NULL) {
            PyErr_NoMemory();
            goto error;
        }
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *t = PySequence_Fast_GET_ITEM(seq, i);
        self->n_edges = (int)i + 1;
        if (t == Py_None) {
            continue;
        }
        if (!mt__tensor_check(t)) {
            PyErr_Format(PyExc_TypeError, "_Node(): input %zd is not a Tensor", i);
            goto error;
        }
        if (mt__grad_edge(t, &self->edges[i]) < 0) {
            goto error;
        }
    }
    Py_DECREF(seq);
    if (self->fn != NULL && mt__node_hook != NULL && mt__node_created((PyObject *)self) < 0) {
        Py_DECREF(self);
        return NULL;
    }
    return (PyObject *)self;
error:
    Py_DECREF(seq);
    Py_DECREF(self);
    return NULL;
}

static int
node_traverse(MTNodeObject *self, visitproc visit, void *arg)
{
    Py_VISIT(Py_TYPE(self));
    Py_VISIT(self->fn);
    Py_VISIT(self->ctx);
    Py_VISIT(self->variable);
    Py_VISIT(self->pre_hooks);
    Py_VISIT(self->hooks);
    Py_VISIT(self->metadata);
    Py_VISIT(self->dict);
    for (int i = 0; i < self->n_edges; i++) {
        Py_VISIT(self->edges[i].node);
    }
    return 0;
}

static int
node_clear(MTNodeObject *self)
{
    Py_CLEAR(self->fn);
    Py_CLEAR(self->ctx);
    Py_CLEAR(self->variable);
    Py_CLEAR(self->pre_hooks);
    Py_CLEAR(self->hooks);
    Py_CLEAR(self->metadata);
    Py_CLEAR(self->dict);
    for (int i = 0; i < self->n_edges; i++) {
        Py_CLEAR(self->edges[i].node);
    }
    return 0;
}

/* Long chains (a loop of a million adds) would recurse once per node when the last reference
 * goes; the trashcan keeps the C stack flat. */
static void
node_dealloc(MTNodeObject *self)
{
    PyTypeObject *tp = Py_TYPE(self);
    PyObject_GC_UnTrack(self);
    Py_TRASHCAN_BEGIN(self, node_dealloc)
    if (self->weakreflist != NULL) {
        PyObject_ClearWeakRefs((PyObject *)self);
    }
    node_clear(self);
    mt__dstate_free(self->dstate);
    self->dstate = NULL;
    PyMem_Free(self->edges);
    self->edges = NULL;
    tp->tp_free((PyObject *)self);
    Py_DECREF(tp);
    Py_TRASHCAN_END
}

static PyObject *
node_get_next_functions(PyObject *op, void *closure)
{
    MTNodeObject *self = NODE(op);
    PyObject *r = PyTuple_New(self->n_edges);
    if (r == NULL) {
        return NULL;
    }
    for (int i = 0; i < self->n_edges; i++) {
        PyObject *n = self->edges[i].node;
        PyObject *pair = Py_BuildValue("(Oi)", n ? n : Py_None, n ? self->edges[i].input_nr : 0);
        if (pair == NULL) {
            Py_DECREF(r);
            return NULL;
        }
        PyTuple_SET_ITEM(r, i, pair);
    }
    return r;
}

static PyObject **
node_slot(PyObject *op, void *closure)
{
    MTNodeObject *self = NODE(op);
    switch ((int)(intptr_t)closure) {
    case 0: return &self->pre_hooks;
    case 1: return &self->hooks;
    default: return &self->metadata;
    }
}

/* _pre_hooks, _hooks (lists) and metadata (a dict), made on first use */
static PyObject *
node_get_lazy(PyObject *op, void *closure)
{
    PyObject **slot = node_slot(op, closure);
    if (*slot == NULL) {
        *slot = (int)(intptr_t)closure == 2 ? PyDict_New() : PyList_New(0);
        if (*slot == NULL) {
            return NULL;
        }
    }
    return Py_NewRef(*slot);
}

static PyObject *
node_get_variable(PyObject *op, void *closure)
{
    PyObject *v = NODE(op)->variable;
    if (v == NULL) {
        PyErr_SetString(PyExc_AttributeError, "only AccumulateGrad nodes have a variable");
        return NULL;
    }
    return Py_NewRef(v);
}

static PyObject *
node_get_ctx(PyObject *op, void *closure)
{
    PyObject *c = NODE(op)->ctx;
    return Py_NewRef(c ? c : Py_None);
}

/* the node's function fn(node, grads) (None for AccumulateGrad) */
static PyObject *
node_get_fn(PyObject *op, void *closure)
{
    PyObject *f = NODE(op)->fn;
    return Py_NewRef(f ? f : Py_None);
}

static PyObject *
node_get_released(PyObject *op, void *closure)
{
    return PyBool_FromLong(NODE(op)->released);
}

static PyObject *
node_get_seq(PyObject *op, void *closure)
{
    return PyLong_FromUnsignedLongLong(NODE(op)->seq);
}

/* the op whose declared derivative the node runs in C (Note [Declared nodes]), or None */
static PyObject *
node_get_cformula(PyObject *op, void *closure)
{
    MTNodeObject *n = NODE(op);
    if (n->dstate == NULL) {
        Py_RETURN_NONE;
    }
    return PyUnicode_FromString(n->dstate->decl->op);
}

static PyGetSetDef node_getset[] = {
    {"_cformula", node_get_cformula, NULL, NULL, NULL},
    {"next_functions", node_get_next_functions, NULL,
     "((node, input_nr), ...) per input of the op: where its gradient goes.", NULL},
    {"_pre_hooks", node_get_lazy, NULL, NULL, (void *)0},
    {"_hooks", node_get_lazy, NULL, NULL, (void *)1},
    {"metadata", node_get_lazy, NULL, NULL, (void *)2},
    {"variable", node_get_variable, NULL, "The leaf an AccumulateGrad node adds into.", NULL},
    {"_ctx", node_get_ctx, NULL, NULL, NULL},
    {"_fn", node_get_fn, NULL, NULL, NULL},
    {"_released", node_get_released, NULL, NULL, NULL},
    {"_sequence_nr", node_get_seq, NULL, NULL, NULL},
    {NULL},
};

static PyMemberDef node_members[] = {
    {"__weaklistoffset__", T_PYSSIZET, offsetof(MTNodeObject, weakreflist), READONLY, NULL},
    {"__dictoffset__", T_PYSSIZET, offsetof(MTNodeObject, dict), READONLY, NULL},
    {"_n_inputs", T_INT, offsetof(MTNodeObject, n_inputs), READONLY, NULL},
    {"_saves_nothing", T_BOOL, offsetof(MTNodeObject, saves_nothing), 0, NULL},
    {NULL, 0, 0, 0, NULL},
};

static PyType_Slot node_slots[] = {
    {Py_tp_new, node_new},
    {Py_tp_dealloc, node_dealloc},
    {Py_tp_traverse, node_traverse},
    {Py_tp_clear, node_clear},
    {Py_tp_getset, node_getset},
    {Py_tp_members, node_members},
    {Py_tp_doc, "A node of the autograd graph (see minitorch.autograd.graph.Node)."},
    {0, NULL},
};

static PyType_Spec node_spec = {
    .name = "minitorch._C._Node",
    .basicsize = sizeof(MTNodeObject),
    .flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE | Py_TPFLAGS_HAVE_GC,
    .slots = node_slots,
};

/* A new AccumulateGrad node for the leaf `tensor`.  New reference or NULL. */
static PyObject *
mt__new_accumulator(PyObject *tensor)
{
    if (mt__accumulate_grad_class == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "minitorch.autograd is not initialised");
        return NULL;
    }
    PyObject *node = PyObject_CallFunction(mt__accumulate_grad_class, "OO()i", Py_None, Py_None, 1);
    if (node == NULL) {
        return NULL;
    }
    if (!mt__node_check(node)) {
        Py_DECREF(node);
        PyErr_SetString(PyExc_TypeError, "AccumulateGrad must make _Node objects");
        return NULL;
    }
    NODE(node)->variable = Py_NewRef(tensor);
    NODE(node)->seq = UINT64_MAX; /* ready accumulators run first */
    return node;
}

int
mt__grad_edge(PyObject *tensor, mt_edge *edge)
{
    MTTensorObject *t = (MTTensorObject *)tensor;
    edge->node = NULL;
    edge->input_nr = 0;
    if (t->base != NULL && mt__view_refresh(tensor) < 0) { /* Note [Lazy view history] */
        return -1;
    }
    if (t->grad_fn != NULL) {
        edge->node = Py_NewRef(t->grad_fn);
        edge->input_nr = t->output_nr;
        return 0;
    }
    if (!t->requires_grad) {
        return 0;
    }
    if (t->grad_acc != NULL) {
        PyObject *acc = PyWeakref_GetObject(t->grad_acc);
        if (acc != Py_None) {
            edge->node = Py_NewRef(acc);
            return 0;
        }
    }
    PyObject *acc = mt__new_accumulator(tensor);
    if (acc == NULL) {
        return -1;
    }
    PyObject *ref = PyWeakref_NewRef(acc, NULL);
    if (ref == NULL) {
        Py_DECREF(acc);
        return -1;
    }
    Py_XSETREF(t->grad_acc, ref);
    edge->node = acc;
    return 0;
}

/* _grad_accumulator(tensor): the leaf's AccumulateGrad node (None for a non-leaf or a tensor
 * that does not require grad). */
static PyObject *
mt_py_grad_accumulator(PyObject *module, PyObject *t)
{
    if (!mt__tensor_check(t)) {
        PyErr_SetString(PyExc_TypeError, "_grad_accumulator() expects a Tensor");
        return NULL;
    }
    if (((MTTensorObject *)t)->grad_fn != NULL) {
        Py_RETURN_NONE;
    }
    mt_edge e;
    if (mt__grad_edge(t, &e) < 0) {
        return NULL;
    }
    return e.node ? e.node : Py_NewRef(Py_None);
}

/* _set_history(tensor, node, output_nr): the tensor is output output_nr of node. */
static PyObject *
mt_py_set_history(PyObject *module, PyObject *args)
{
    PyObject *t, *node;
    int nr;
    if (!PyArg_ParseTuple(args, "O!Oi:_set_history", mt__TensorBase_Type, &t, &node, &nr)) {
        return NULL;
    }
    if (node != Py_None && !mt__node_check(node)) {
        PyErr_SetString(PyExc_TypeError, "_set_history(): node must be a graph node or None");
        return NULL;
    }
    if (node != Py_None && (nr < 0 || nr >= NODE(node)->n_inputs)) {
        PyErr_SetString(PyExc_ValueError, "_set_history(): output_nr out of range");
        return NULL;
    }
    MTTensorObject *o = (MTTensorObject *)t;
    Py_XSETREF(o->grad_fn, node == Py_None ? NULL : Py_NewRef(node));
    o->output_nr = node == Py_None ? 0 : nr;
    if (o->base != NULL) { /* a view's history is current (Note [Lazy view history]) */
        o->view_version = atomic_load_explicit(mt_storage_version(o->impl->storage),
                                               memory_order_relaxed);
    }
    if (node != Py_None) {
        o->requires_grad = 0;
        Py_CLEAR(o->grad_acc);
    }
    mt__ag_retrack(t);
    Py_RETURN_NONE;
}

static PyObject *
mt_py_set_accumulate_grad_class(PyObject *module, PyObject *cls)
{
    if (!PyType_Check(cls) || !PyType_IsSubtype((PyTypeObject *)cls, mt__Node_Type)) {
        PyErr_SetString(PyExc_TypeError, "expected a subclass of _Node");
        return NULL;
    }
    Py_XSETREF(mt__accumulate_grad_class, Py_NewRef(cls));
    Py_RETURN_NONE;
}

static PyMethodDef mt_node_functions[] = {
    {"_grad_accumulator", mt_py_grad_accumulator, METH_O, NULL},
    {"_set_history", mt_py_set_history, METH_VARARGS, NULL},
    {"_set_accumulate_grad_class", mt_py_set_accumulate_grad_class, METH_O, NULL},
    {NULL},
};

int
mt__node_types_init(PyObject *module)
{
    mt__Node_Type = (PyTypeObject *)PyType_FromModuleAndSpec(module, &node_spec, NULL);
    if (mt__Node_Type == NULL ||
        PyModule_AddObjectRef(module, "_Node", (PyObject *)mt__Node_Type) < 0) {
        return -1;
    }
    return PyModule_AddFunctions(module, mt_node_functions);
}
