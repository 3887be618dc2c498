/* csrc/autograd/record.c - recording the op-table ops that declare their derivative, and their
 * nodes' states (see Note [Declared nodes] in derivatives.h). */
#include "csrc/autograd/derivatives.h"

#include <stdlib.h>
#include <string.h>

/* graph.node_class(name) -> the Node subclass named as torch's (set at import; owned) */
static PyObject *mt__node_class_factory;
/* autograd._declared.node_apply(node, grads): the Python form of a declared node (owned) */
static PyObject *mt__dnode_apply;

/* ---- lookup ------------------------------------------------------------------------------ */

/* Operators ("o.<name>", see csrc/ops_binding.c) and the op whose declaration they use. */
static const char *const mt__operator_ops[][2] = {
    {"add", "add"},          {"subtract", "sub"},  {"multiply", "mul"}, {"true_divide", "div"},
    {"negative", "neg"},     {"power", "pow"},     {"absolute", "abs"}, {"matmul", "matmul"},
    {NULL, NULL},
};

const mt_derivative *
mt__deriv_lookup(const char *key)
{
    if (key == NULL || strlen(key) < 3 || key[1] != '.') {
        return NULL;
    }
    const char *name = key + 2;
    if (key[0] == 'o') {
        const char *op = NULL;
        for (int i = 0; mt__operator_ops[i][0] != NULL; i++) {
            if (strcmp(mt__operator_ops[i][0], name) == 0) {
                op = mt__operator_ops[i][1];
                break;
            }
        }
        if (op == NULL) {
            return NULL;
        }
        name = op;
    }
    else if (key[0] != 'm' && key[0] != 'f' && key[0] != 'p') {
        return NULL;
    }
    for (int i = 0; mt__derivatives[i] != NULL; i++) {
        if (strcmp(mt__derivatives[i]->op, name) == 0) {
            return mt__derivatives[i];
        }
    }
    return NULL;
}

int
mt__ag_begin(const char *key, const struct mt_derivative **cache, PyObject *self,
             PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames, mt_drecord *rec)
{
    const mt_derivative *d = *cache;
    if (d == MT__DUNSET) {
        d = *cache = mt__deriv_lookup(key);
    }
    if (d == NULL || mt__ag_python_only || mt__ag_watching()) {
        return -1;
    }
    return mt__drecord_begin(rec, d, self, args, nargs, kwnames);
}

/* ---- states ------------------------------------------------------------------------------- */

static int
mt__dmeta_set(mt_dmeta *m, const mt_tensor *t)
{
    const int ndim = t->ndim;
    const int64_t *sizes = t->sizes;
    m->ndim = ndim;
    m->dtype = t->dtype;
    m->device = mt_tensor_device(t);
    m->sizes = ndim <= MT_DINLINE ? m->inline_ : malloc((size_t)ndim * sizeof(int64_t));
    if (m->sizes == NULL) {
        return mt_error_set(MT_ENOMEM, "autograd: out of memory");
    }
    if (ndim > 0) {
        memcpy(m->sizes, sizes, (size_t)ndim * sizeof(int64_t));
    }
    return 0;
}

static void
mt__dmeta_free(mt_dmeta *m)
{
    if (m->sizes != NULL && m->sizes != m->inline_) {
        free(m->sizes);
    }
    m->sizes = NULL;
}

static void
mt__dsaved_drop_impl(mt_dsaved *s)
{
    mt_tensor_decref(s->t);
    s->t = NULL;
}

void
mt__dstate_release_impls(mt_dstate *st)
{
    if (st == NULL) {
        return;
    }
    for (int k = 0; k < st->decl->nparams; k++) {
        if (st->decl->params[k].kind == MT_DV_TENSOR) {
            mt__dsaved_drop_impl(&st->v[k].u.t.saved);
        }
    }
    for (int i = 0; i < MT_DMAXOUT; i++) {
        mt__dsaved_drop_impl(&st->results[i]);
    }
}

void
mt__dstate_free(mt_dstate *st)
{
    if (st == NULL) {
        return;
    }
    mt__dstate_release_impls(st);
    for (int k = 0; k < st->decl->nparams; k++) {
        mt_dval *v = &st->v[k];
        switch (st->decl->params[k].kind) {
        case MT_DV_TENSOR:
            Py_CLEAR(v->u.t.saved.obj);
            mt__dmeta_free(&v->u.t.meta);
            break;
        case MT_DV_LIST:
            if (v->u.l.v != NULL && v->u.l.v != v->u.l.inline_) {
                free(v->u.l.v);
            }
            break;
        default:
            break;
        }
    }
    for (int i = 0; i < MT_DMAXOUT; i++) {
        mt__dmeta_free(&st->out_meta[i]);
    }
    free(st);
}

bool
mt__dstate_saves(const mt_dstate *st)
{
    for (int k = 0; st != NULL && k < st->decl->nparams; k++) {
        if (st->decl->params[k].kind == MT_DV_TENSOR && st->v[k].u.t.saved.t != NULL) {
            return true;
        }
    }
    for (int i = 0; st != NULL && i < MT_DMAXOUT; i++) {
        if (st->results[i].t != NULL) {
            return true;
        }
    }
    return false;
}

/* torch's error for a saved tensor written in place since the op (as Ctx._check). */
static int
mt__dsaved_check(const mt_dsaved *s, const char *node_name, int output_nr)
{
    if (s->t == NULL) {
        return 0;
    }
    /* (a pointer read: detach_() runs with the GIL, this maybe not, as torch's check) */
    if (s->had_grad_fn && s->obj != NULL && ((MTTensorObject *)s->obj)->grad_fn == NULL) {
        return mt_error_set(MT_ERUNTIME,
                            "Trying to use a saved tensor that has been detached in-place, i.e. "
                            "with .detach_().This is not supported, please use out-of-place "
                            "`.detach()` instead");
    }
    uint64_t now = atomic_load_explicit(mt_storage_version(s->t->storage), memory_order_relaxed);
    if (now == s->version) {
        return 0;
    }
    char sizes[256];
    return mt_error_set(
        MT_ERUNTIME,
        "one of the variables needed for gradient computation has been modified by an inplace "
        "operation: [minitorch.%s %s], which is output %d of %s, is at version %llu; expected "
        "version %llu instead. Hint: the backtrace further above shows the operation that failed "
        "to compute its gradient. The variable in question was changed in there or anywhere "
        "later. Good luck!",
        mt__legacy_type_name(s->t->dtype),
        mt_format_sizes(sizes, sizeof(sizes), s->t->ndim, s->t->sizes), output_nr, node_name,
        (unsigned long long)now, (unsigned long long)s->version);
}

int
mt__dstate_check(const mt_dstate *st, const char *node_name)
{
    for (int k = 0; k < st->decl->nparams; k++) {
        if (st->decl->params[k].kind == MT_DV_TENSOR) {
            int rc = mt__dsaved_check(&st->v[k].u.t.saved, node_name, 0);
            if (rc < 0) {
                return rc;
            }
        }
    }
    for (int i = 0; i < MT_DMAXOUT; i++) {
        int rc = mt__dsaved_check(&st->results[i], node_name, i);
        if (rc < 0) {
            return rc;
        }
    }
    return 0;
}

/* ---- binding a call ------------------------------------------------------------------------ */

/* The default of parameter k as an object (borrowed; made once). NULL with an exception. */
static PyObject *
mt__ddefault(mt_derivative *d, int k)
{
    if (d->defaults[k] == NULL) {
        PyObject *globals = PyDict_New();
        if (globals == NULL) {
            return NULL;
        }
        d->defaults[k] = PyRun_String(d->params[k].default_repr, Py_eval_input, globals, globals);
        Py_DECREF(globals);
    }
    return d->defaults[k];
}

/* Converts argument o of parameter k into st->v[k].  0, or -1 with an exception (the call is
 * then not covered). */
static int
mt__dconvert(const mt_dparam *p, PyObject *o, mt_dval *v)
{
    v->present = o != Py_None;
    if (o == Py_None) {
        if (!(p->flags & MT_DP_OPTIONAL) && p->kind != MT_DV_ANY) {
            PyErr_SetString(PyExc_TypeError, "None for a required argument");
            return -1;
        }
        v->u.t.edge = -1;
        return 0;
    }
    switch ((mt_dv_kind)p->kind) {
    case MT_DV_ANY:
        return 0;
    case MT_DV_TENSOR:
        v->u.t.edge = -1;
        if (mt__tensor_check(o)) {
            mt_tensor *t = mt__tensor_impl(o);
            v->u.t.is_tensor = true;
            return mt__dmeta_set(&v->u.t.meta, t) < 0 ? mt__raise_int(0)
                                                                                 : 0;
        }
        if (p->flags & MT_DP_NUMBER) {
            return mt__scalar_from_py(o, &v->u.t.num, "autograd");
        }
        PyErr_SetString(PyExc_TypeError, "not a tensor");
        return -1;
    case MT_DV_SCALAR:
        if (mt__tensor_check(o)) {
            PyErr_SetString(PyExc_TypeError, "a tensor for a number");
            return -1;
        }
        if (mt__scalar_from_py(o, &v->u.s, "autograd") < 0) {
            return -1;
        }
        if ((p->flags & MT_DP_FLOAT) && v->u.s.kind == MT_SCALAR_COMPLEX) {
            PyErr_SetString(PyExc_TypeError, "a complex number for a float");
            return -1;
        }
        return 0;
    case MT_DV_INT:
        return mt__int64_from_py(o, &v->u.i, "autograd", p->name);
    case MT_DV_BOOL:
        if (!PyBool_Check(o)) {
            PyErr_SetString(PyExc_TypeError, "not a bool");
            return -1;
        }
        v->u.b = o == Py_True;
        return 0;
    case MT_DV_DTYPE:
        return mt__dtype_from_py(o, &v->u.dt, p->name);
    case MT_DV_STR: {
        if (!PyUnicode_Check(o)) {
            PyErr_SetString(PyExc_TypeError, "not a string");
            return -1;
        }
        Py_ssize_t n;
        const char *s = PyUnicode_AsUTF8AndSize(o, &n);
        if (s == NULL || n >= (Py_ssize_t)sizeof(v->u.str)) {
            if (s != NULL) {
                PyErr_SetString(PyExc_ValueError, "a long string");
            }
            return -1;
        }
        memcpy(v->u.str, s, (size_t)n + 1);
        return 0;
    }
    case MT_DV_LIST: {
        /* one int, or a list/tuple of ints of any length (batch sizes of many steps) */
        if (PyLong_Check(o) && !PyBool_Check(o)) {
            v->u.l.n = 1;
            v->u.l.v = v->u.l.inline_;
            return mt__int64_from_py(o, &v->u.l.v[0], "autograd", p->name);
        }
        if (!PyList_Check(o) && !PyTuple_Check(o)) {
            int64_t sizes[MT_MAX_DIMS];
            int n = mt__sizes_from_seq(o, sizes, "autograd", p->name);
            if (n < 0) {
                return -1;
            }
            v->u.l.n = n;
            v->u.l.v = n <= MT_DINLINE ? v->u.l.inline_ : malloc((size_t)n * sizeof(int64_t));
            if (v->u.l.v == NULL) {
                PyErr_NoMemory();
                return -1;
            }
            memcpy(v->u.l.v, sizes, (size_t)n * sizeof(int64_t));
            return 0;
        }
        Py_ssize_t n = PySequence_Fast_GET_SIZE(o);
        if (n > INT32_MAX) {
            PyErr_SetString(PyExc_ValueError, "a list too long");
            return -1;
        }
        v->u.l.v = n <= MT_DINLINE ? v->u.l.inline_ : malloc((size_t)n * sizeof(int64_t));
        if (v->u.l.v == NULL) {
            PyErr_NoMemory();
            return -1;
        }
        v->u.l.n = (int)n;
        return mt__int64s_from_seq(o, v->u.l.v, n, "autograd", p->name);
    }
    }
    return 0;
}

/* Binds positional and keyword arguments to the parameters (borrowed; *varargs a new tuple when
 * varargs were collected).  0, or -1 when the call does not fit (no exception set). */
static int
mt__dbind(mt_derivative *d, PyObject *self, PyObject *const *args, Py_ssize_t nargs,
          PyObject *kwnames, PyObject **bound, PyObject **varargs)
{
    enum { MT__DMAXPOS = MT_MAX_DIMS + MT_DMAXPARAMS };
    PyObject *pos[MT__DMAXPOS];
    Py_ssize_t total = nargs + (self != NULL);
    if (total > MT__DMAXPOS) {
        return -1;
    }
    Py_ssize_t npos = 0;
    if (self != NULL) {
        pos[npos++] = self;
    }
    for (Py_ssize_t i = 0; i < nargs; i++) {
        pos[npos++] = args[i];
    }
    Py_ssize_t i = 0;
    for (int k = 0; k < d->nparams; k++) {
        bound[k] = NULL;
    }
    for (int k = 0; k < d->nparams && !(d->params[k].flags & MT_DP_KWONLY); k++) {
        if (d->params[k].flags & MT_DP_VARARGS) {
            Py_ssize_t rest = total - i;
            if (rest == 1 && (PyTuple_Check(pos[i]) || PyList_Check(pos[i]))) {
                bound[k] = pos[i];
            }
            else if (rest > 0) {
                PyObject *t = PyTuple_New(rest);
                if (t == NULL) {
                    PyErr_Clear();
                    return -1;
                }
                for (Py_ssize_t j = 0; j < rest; j++) {
                    PyTuple_SET_ITEM(t, j, Py_NewRef(pos[i + j]));
                }
                *varargs = t;
                bound[k] = t;
            }
            i = total;
            continue;
        }
        if (i < total) {
            bound[k] = pos[i++];
        }
    }
    if (i < total) {
        return -1;
    }
    Py_ssize_t nkw = kwnames ? PyTuple_GET_SIZE(kwnames) : 0;
    for (Py_ssize_t j = 0; j < nkw; j++) {
        const char *name = PyUnicode_AsUTF8(PyTuple_GET_ITEM(kwnames, j));
        if (name == NULL) {
            PyErr_Clear();
            return -1;
        }
        int found = -1;
        for (int q = 0; q < d->nparams; q++) {
            if (strcmp(d->params[q].name, name) == 0) {
                found = q;
                break;
            }
        }
        /* the function forms name the first tensor `input` */
        if (found < 0 && d->nparams > 0 && strcmp(name, "input") == 0 &&
            strcmp(d->params[0].name, "self") == 0) {
            found = 0;
        }
        if (found < 0 || bound[found] != NULL) {
            return -1; /* out=, or an argument the declaration does not know */
        }
        bound[found] = args[nargs + j];
    }
    for (int q = 0; q < d->nparams; q++) {
        if (bound[q] == NULL) {
            if (d->params[q].default_repr == NULL) {
                return -1;
            }
            bound[q] = mt__ddefault(d, q);
            if (bound[q] == NULL) {
                PyErr_Clear();
                return -1;
            }
        }
    }
    return 0;
}

int
mt__drecord_begin(mt_drecord *rec, const mt_derivative *decl, PyObject *self,
                  PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    mt_derivative *d = (mt_derivative *)decl;
    PyObject *varargs = NULL;
    rec->decl = d;
    rec->st = NULL;
    rec->requires = 0;
    if (mt__dbind(d, self, args, nargs, kwnames, rec->bound, &varargs) < 0) {
        Py_XDECREF(varargs);
        return -1;
    }
    for (int k = 0; k < d->nparams; k++) {
        PyObject *o = rec->bound[k];
        if (d->params[k].kind == MT_DV_TENSOR && (d->params[k].flags & MT_DP_DIFF) &&
            mt__tensor_check(o) && mt__tensor_requires_grad(o)) {
            rec->requires |= 1u << k;
        }
    }
    if (rec->requires == 0) {
        Py_XDECREF(varargs);
        return 0;
    }
    mt_dstate *st = calloc(1, sizeof(mt_dstate) + (size_t)d->nparams * sizeof(mt_dval));
    if (st == NULL) {
        Py_XDECREF(varargs);
        return -1;
    }
    st->decl = d;
    rec->st = st;
    for (int k = 0; k < d->nparams; k++) {
        if (mt__dconvert(&d->params[k], rec->bound[k], &st->v[k]) < 0) {
            PyErr_Clear();
            Py_XDECREF(varargs);
            mt__dstate_free(st);
            rec->st = NULL;
            return -1;
        }
    }
    /* the tuple of collected varargs was converted: no parameter keeps it */
    for (int k = 0; k < d->nparams; k++) {
        if (rec->bound[k] == varargs) {
            rec->bound[k] = Py_None;
        }
    }
    Py_XDECREF(varargs);
    rec->prev_grad_off = mt__grad_off;
    mt__grad_off = MT__GRAD_OFF_RECORDING;
    return 1;
}

/* ---- the node ------------------------------------------------------------------------------- */

static PyObject *
mt__dnode_type(mt_derivative *d)
{
    if (d->node_type == NULL) {
        if (mt__node_class_factory == NULL) {
            PyErr_SetString(PyExc_RuntimeError, "minitorch.autograd is not initialised");
            return NULL;
        }
        d->node_type = PyObject_CallFunction(mt__node_class_factory, "s", d->node_name);
        static const char *const wrapped[] = {"add", "sub", "mul", "div", NULL};
        d->number_edge = -1;
        for (int i = 0; wrapped[i] != NULL; i++) {
            if (strcmp(d->op, wrapped[i]) == 0 && d->nparams >= 2) {
                d->number_edge = 1;
            }
        }
        if (d->node_type != NULL && (!PyType_Check(d->node_type) ||
                                     !PyType_IsSubtype((PyTypeObject *)d->node_type,
                                                       mt__Node_Type))) {
            Py_CLEAR(d->node_type);
            PyErr_SetString(PyExc_TypeError, "node_class() must make _Node subclasses");
        }
    }
    return d->node_type;
}

/* Whether a result gets a history: a floating or complex tensor that is not an inference
 * tensor (a view of one: Note [Inference storages]). */
static bool
mt__differentiable(PyObject *o)
{
    if (!mt__tensor_check(o)) {
        return false;
    }
    mt_tensor *t = mt__tensor_impl(o);
    if (mt_inference_live > 0 && t->storage->inference) {
        return false;
    }
    return mt_dtype_is_floating(t->dtype) || mt_dtype_is_complex(t->dtype);
}

int
mt__inference_saved_error(void)
{
    PyErr_SetString(PyExc_RuntimeError,
                    "Inference tensors cannot be saved for backward. Please do not use Tensors "
                    "created in inference mode in computation tracked by autograd. To work around "
                    "this, you can make a clone to get a normal tensor and use it in autograd, or "
                    "use `torch.no_grad()` instead of `torch.inference_mode()`.");
    return -1;
}

/* A callable that registers a view's history for in-place rebasing (autograd._record's
 * _register_view; owned). */
static PyObject *mt__register_view;

PyObject *
mt__drecord_end(mt_drecord *rec, PyObject *r)
{
    mt__grad_off = rec->prev_grad_off;
    mt_dstate *st = rec->st;
    mt_derivative *d = (mt_derivative *)rec->decl;
    rec->st = NULL;
    if (r == NULL) {
        mt__dstate_free(st);
        return NULL;
    }
    PyObject *single[1] = {r};
    PyObject **outs = single;
    Py_ssize_t n = 1;
    if (PyTuple_Check(r)) {
        n = PyTuple_GET_SIZE(r);
        outs = &PyTuple_GET_ITEM(r, 0);
    }
    uint32_t diff = 0;
    for (Py_ssize_t i = 0; i < n && i < MT_DMAXOUT; i++) {
        if (mt__differentiable(outs[i])) {
            diff |= 1u << i;
        }
    }
    if (diff == 0) {
        mt__dstate_free(st);
        return r;
    }
    if (n > MT_DMAXOUT) {
        mt__dstate_free(st);
        Py_DECREF(r);
        PyErr_Format(PyExc_RuntimeError, "autograd: %s has more than %d outputs", d->op,
                     MT_DMAXOUT);
        return NULL;
    }
    /* an op that returned an input (x.contiguous() of a contiguous x): no new history */
    if (n == 1) {
        for (int k = 0; k < d->nparams; k++) {
            if (rec->bound[k] == r) {
                mt__dstate_free(st);
                return r;
            }
        }
    }
    PyTypeObject *type = (PyTypeObject *)mt__dnode_type(d);
    MTNodeObject *node = type ? (MTNodeObject *)type->tp_alloc(type, 0) : NULL;
    if (node == NULL) {
        mt__dstate_free(st);
        Py_DECREF(r);
        return NULL;
    }
    st->n_outputs = (int)n;
    st->out_diff = diff;
    node->n_inputs = (int)n;
    node->seq = mt__node_next_seq();
    node->fn = Py_XNewRef(mt__dnode_apply);
    node->dstate = st;
    /* the edges: one per differentiable tensor argument, in parameter order (and one to no
     * node for a number `other` of add, sub, mul and div: torch's wrapped number) */
    int ne = 0;
    for (int k = 0; k < d->nparams; k++) {
        if (d->params[k].kind == MT_DV_TENSOR && (d->params[k].flags & MT_DP_DIFF) &&
            st->v[k].present && st->v[k].u.t.is_tensor) {
            ne++;
        }
    }
    bool number_edge = d->number_edge > 0 && st->v[0].present && st->v[0].u.t.is_tensor &&
                       st->v[1].present && !st->v[1].u.t.is_tensor;
    ne += number_edge;
    if (ne > 0) {
        node->edges = PyMem_Calloc((size_t)ne, sizeof(mt_edge));
        if (node->edges == NULL) {
            PyErr_NoMemory();
            goto fail;
        }
    }
    for (int k = 0; k < d->nparams; k++) {
        mt_dval *v = &st->v[k];
        if (d->params[k].kind != MT_DV_TENSOR || !v->present || !v->u.t.is_tensor) {
            continue;
        }
        PyObject *o = rec->bound[k];
        if (d->params[k].flags & MT_DP_DIFF) {
            v->u.t.edge = node->n_edges;
            if (mt__grad_edge(o, &node->edges[node->n_edges]) < 0) {
                goto fail;
            }
            node->n_edges++;
        }
        if (d->params[k].reads & rec->requires) {
            if (mt_inference_live > 0 && mt__tensor_impl(o)->storage->inference) {
                mt__inference_saved_error();
                goto fail;
            }
            v->u.t.saved.t = mt__tensor_impl_ref(o);
            v->u.t.saved.version = atomic_load_explicit(
                mt_storage_version(v->u.t.saved.t->storage), memory_order_relaxed);
            v->u.t.saved.obj = Py_NewRef(o);
            v->u.t.saved.had_grad_fn = ((MTTensorObject *)o)->grad_fn != NULL;
        }
    }
    if (number_edge) {
        node->edges[node->n_edges++] = (mt_edge){.node = NULL, .input_nr = 0};
    }
    st->n_edges = node->n_edges;
    for (Py_ssize_t i = 0; i < n; i++) {
        if (!mt__tensor_check(outs[i])) {
            continue;
        }
        mt_tensor *t = mt__tensor_impl(outs[i]);
        if (mt__dmeta_set(&st->out_meta[i], t) < 0) {
            mt__raise(0);
            goto fail;
        }
        if ((d->result_reads & rec->requires) && (diff & (1u << i)) &&
            (d->result_outs & (1u << i))) {
            st->results[i].t = mt__tensor_impl_ref(outs[i]);
            st->results[i].version =
                atomic_load_explicit(mt_storage_version(t->storage), memory_order_relaxed);
        }
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        if (!(diff & (1u << i))) {
            continue;
        }
        MTTensorObject *o = (MTTensorObject *)outs[i];
        Py_XSETREF(o->grad_fn, Py_NewRef((PyObject *)node));
        o->output_nr = (int)i;
        o->requires_grad = 0;
        Py_CLEAR(o->grad_acc);
        mt__ag_retrack(outs[i]);
        if (o->base != NULL && ((MTTensorObject *)o->base)->grad_fn != NULL &&
            mt__register_view != NULL) {
            PyObject *x = PyObject_CallFunctionObjArgs(mt__register_view, o->base, outs[i], NULL);
            if (x == NULL) {
                Py_DECREF(node);
                Py_DECREF(r);
                return NULL;
            }
            Py_DECREF(x);
        }
    }
    if (mt__node_hook != NULL && mt__node_created((PyObject *)node) < 0) {
        Py_DECREF(node);
        Py_DECREF(r);
        return NULL;
    }
    Py_DECREF(node);
    return r;
fail:
    Py_DECREF(node); /* frees the state */
    Py_DECREF(r);
    return NULL;
}

/* ---- running a declared node -------------------------------------------------------------- */

/* g (stolen) summed to the shape and cast to the dtype of m (a real input takes the real part
 * of a complex gradient), on m's device (the input of a copy to another device gets its
 * gradient back where it lives, as torch's ToCopyBackward).  New reference or NULL. */
static mt_tensor *
mt__dfit(mt_tensor *g, const mt_dmeta *m)
{
    if (g == NULL) {
        return NULL;
    }
    mt_tensor *r = mt_d_sum_to(g, mt_dlist_n(m->ndim, m->sizes));
    mt_tensor_decref(g);
    if (r == NULL) {
        return NULL;
    }
    if (r->dtype != m->dtype) {
        if (mt_dtype_is_complex(r->dtype) && !mt_dtype_is_complex(m->dtype)) {
            mt_tensor *re = mt_complex_part(r, false);
            mt_tensor_decref(r);
            if (re == NULL) {
                return NULL;
            }
            r = re;
        }
        mt_tensor *c = mt_to_dtype(r, m->dtype, false);
        mt_tensor_decref(r);
        r = c;
    }
    if (r != NULL && !mt_device_eq(mt_tensor_device(r), m->device)) {
        mt_tensor *c = mt_tensor_empty(r->dtype, r->ndim, r->sizes, m->device);
        if (c != NULL && mt_copy_(c, r) < 0) {
            mt_tensor_decref(c);
            c = NULL;
        }
        mt_tensor_decref(r);
        r = c;
    }
    return r;
}

int
mt__dnode_run(MTNodeObject *node, mt_tensor *const *grads, const bool *needs, mt_tensor **out)
{
    const mt_dstate *st = node->dstate;
    const mt_derivative *d = st->decl;
    int rc = mt__dstate_check(st, Py_TYPE(node)->tp_name);
    if (rc < 0) {
        return rc;
    }
    mt_tensor *filled[MT_DMAXOUT] = {NULL};
    mt_tensor *const *g = grads;
    uint32_t given = 0;
    for (int i = 0; i < st->n_outputs; i++) {
        given |= grads[i] != NULL ? 1u << i : 0;
    }
    if (st->n_outputs > 1) {
        /* zeros for the outputs no gradient reached, where a formula reads that gradient */
        for (int i = 0; i < st->n_outputs; i++) {
            if (grads[i] != NULL) {
                filled[i] = mt_d_tensor_ref(grads[i]);
            }
            else if ((st->out_diff & (1u << i)) && (d->grads_read & (1u << i))) {
                const mt_dmeta *m = &st->out_meta[i];
                filled[i] = mt_tensor_empty(m->dtype, m->ndim, m->sizes, m->device);
                if (filled[i] == NULL || mt_fill_(filled[i], mt_scalar_int(0)) < 0) {
                    rc = mt_d_err();
                    goto done;
                }
            }
        }
        g = filled;
    }
    for (int j = 0; j < d->njoints && rc == 0; j++) {
        const mt_djoint *jt = &d->joints[j];
        bool jneeds[MT_DMAXJOINT] = {false}, any = false;
        mt_tensor *jouts[MT_DMAXJOINT] = {NULL};
        for (int i = 0; i < jt->n; i++) {
            const mt_dval *v = &st->v[jt->params[i]];
            int e = v->present && v->u.t.is_tensor ? v->u.t.edge : -1;
            jneeds[i] = e >= 0 && needs[e];
            any |= jneeds[i];
        }
        if (any) {
            rc = jt->fn(st, g, given, jneeds, jouts);
        }
        for (int i = 0; i < jt->n; i++) {
            const mt_dval *v = &st->v[jt->params[i]];
            if (rc == 0 && jneeds[i] && jouts[i] != NULL) {
                int e = v->u.t.edge;
                out[e] = mt__dfit(jouts[i], &v->u.t.meta);
                if (out[e] == NULL) {
                    rc = mt_d_err();
                }
            }
            else {
                mt_tensor_decref(jouts[i]);
            }
        }
    }
    for (int k = 0; k < d->nparams && rc == 0; k++) {
        if (d->params[k].kind != MT_DV_TENSOR || (d->params[k].flags & MT_DP_JOINT)) {
            continue;
        }
        int e = st->v[k].u.t.edge;
        if (e < 0 || !needs[e]) {
            continue;
        }
        if (d->formulas[k] == NULL) {
            rc = mt_error_set(MT_ENOTIMPL, "the derivative for '%s' with respect to '%s' is not "
                              "implemented", d->op, d->params[k].name);
            break;
        }
        mt_tensor *r = NULL;
        rc = d->formulas[k](st, g, given, &r);
        if (rc == 0 && r != NULL) {
            out[e] = mt__dfit(r, &st->v[k].u.t.meta);
            if (out[e] == NULL) {
                rc = mt_d_err();
            }
        }
    }
done:
    for (int i = 0; i < MT_DMAXOUT; i++) {
        mt_tensor_decref(filled[i]);
    }
    if (rc < 0) {
        for (int e = 0; e < st->n_edges; e++) {
            mt_tensor_decref(out[e]);
            out[e] = NULL;
        }
    }
    return rc;
}

/* ---- Python: the values of a declared node, for its Python form ---------------------------- */

static PyObject *
mt__dlist_tuple(int n, const int64_t *v)
{
    PyObject *t = PyTuple_New(n);
    for (int i = 0; t != NULL && i < n; i++) {
        PyObject *x = PyLong_FromLongLong(v[i]);
        if (x == NULL) {
            Py_CLEAR(t);
            break;
        }
        PyTuple_SET_ITEM(t, i, x);
    }
    return t;
}

/* A parameter's value as the Python form reads it: a tensor argument's object when it was
 * saved, else (shape, dtype, device); numbers, ints, tuples, dtypes, strings; None. */
static PyObject *
mt__dval_to_py(const mt_dparam *p, const mt_dval *v)
{
    if (!v->present) {
        Py_RETURN_NONE;
    }
    switch ((mt_dv_kind)p->kind) {
    case MT_DV_ANY:
        Py_RETURN_NONE;
    case MT_DV_TENSOR:
        if (!v->u.t.is_tensor) {
            return mt__scalar_to_py(v->u.t.num);
        }
        if (v->u.t.saved.obj != NULL) {
            return Py_NewRef(v->u.t.saved.obj);
        }
        {
            PyObject *shape = mt__dlist_tuple(v->u.t.meta.ndim, v->u.t.meta.sizes);
            if (shape == NULL) {
                return NULL;
            }
            return Py_BuildValue("(NON)", shape, mt__dtype_object(v->u.t.meta.dtype),
                                 mt__device_object(v->u.t.meta.device));
        }
    case MT_DV_SCALAR:
        return mt__scalar_to_py(v->u.s);
    case MT_DV_INT:
        return PyLong_FromLongLong(v->u.i);
    case MT_DV_LIST:
        return mt__dlist_tuple(v->u.l.n, v->u.l.v);
    case MT_DV_BOOL:
        return PyBool_FromLong(v->u.b);
    case MT_DV_DTYPE:
        return Py_NewRef(mt__dtype_object(v->u.dt));
    case MT_DV_STR:
        return PyUnicode_FromString(v->u.str);
    }
    Py_RETURN_NONE;
}

/* _dvalues(node) -> (op, values, results, edges, metas, outmetas): the parameters' values
 * (see mt__dval_to_py), the results the formulas read (tensor objects whose history is this
 * node; None where not kept), each parameter's edge (-1: none), each tensor argument's
 * (shape, dtype, device) and each differentiable output's (None for the others). */
static PyObject *
mt_py_dvalues(PyObject *module, PyObject *arg)
{
    if (!mt__node_check(arg) || ((MTNodeObject *)arg)->dstate == NULL) {
        if (mt__node_check(arg) && ((MTNodeObject *)arg)->released) {
            PyErr_SetString(PyExc_RuntimeError,
                            "Trying to backward through the graph a second time (or directly "
                            "access saved tensors after they have already been freed). Saved "
                            "intermediate values of the graph are freed when you call "
                            ".backward() or autograd.grad(). Specify retain_graph=True if you "
                            "need to backward through the graph a second time or if you need to "
                            "access saved tensors after calling backward.");
            return NULL;
        }
        PyErr_SetString(PyExc_TypeError, "_dvalues() expects a node of a declared op");
        return NULL;
    }
    MTNodeObject *node = (MTNodeObject *)arg;
    mt_dstate *st = node->dstate;
    const mt_derivative *d = st->decl;
    int rc = mt__dstate_check(st, Py_TYPE(node)->tp_name);
    if (rc < 0) {
        return mt__raise(rc);
    }
    PyObject *values = PyTuple_New(d->nparams), *edges = PyTuple_New(d->nparams);
    PyObject *metas = PyTuple_New(d->nparams), *results = PyTuple_New(st->n_outputs);
    PyObject *outmetas = PyTuple_New(st->n_outputs);
    if (values == NULL || edges == NULL || metas == NULL || results == NULL || outmetas == NULL) {
        goto fail;
    }
    for (int k = 0; k < d->nparams; k++) {
        const mt_dval *v = &st->v[k];
        PyObject *x = mt__dval_to_py(&d->params[k], v);
        if (x == NULL) {
            goto fail;
        }
        PyTuple_SET_ITEM(values, k, x);
        int e = d->params[k].kind == MT_DV_TENSOR && v->present ? v->u.t.edge : -1;
        PyObject *ei = PyLong_FromLong(e);
        if (ei == NULL) {
            goto fail;
        }
        PyTuple_SET_ITEM(edges, k, ei);
        PyObject *m = Py_None;
        if (e >= 0) {
            PyObject *shape = mt__dlist_tuple(v->u.t.meta.ndim, v->u.t.meta.sizes);
            m = shape ? Py_BuildValue("(NON)", shape, mt__dtype_object(v->u.t.meta.dtype),
                                      mt__device_object(v->u.t.meta.device))
                      : NULL;
            if (m == NULL) {
                goto fail;
            }
        }
        else {
            Py_INCREF(m);
        }
        PyTuple_SET_ITEM(metas, k, m);
    }
    for (int i = 0; i < st->n_outputs; i++) {
        PyObject *x = Py_None;
        if (st->results[i].t != NULL) {
            mt_tensor_incref(st->results[i].t);
            x = mt__tensor_wrap(st->results[i].t);
            if (x == NULL) {
                goto fail;
            }
            MTTensorObject *o = (MTTensorObject *)x;
            o->grad_fn = Py_NewRef(arg);
            o->output_nr = i;
            mt__ag_retrack(x);
        }
        else {
            Py_INCREF(x);
        }
        PyTuple_SET_ITEM(results, i, x);
        PyObject *m = Py_None;
        if (st->out_diff & (1u << i)) {
            PyObject *shape = mt__dlist_tuple(st->out_meta[i].ndim, st->out_meta[i].sizes);
            m = shape ? Py_BuildValue("(NON)", shape, mt__dtype_object(st->out_meta[i].dtype),
                                      mt__device_object(st->out_meta[i].device))
                      : NULL;
            if (m == NULL) {
                goto fail;
            }
        }
        else {
            Py_INCREF(m);
        }
        PyTuple_SET_ITEM(outmetas, i, m);
    }
    return Py_BuildValue("(sNNNNN)", d->op, values, results, edges, metas, outmetas);
fail:
    Py_XDECREF(outmetas);
    Py_XDECREF(values);
    Py_XDECREF(edges);
    Py_XDECREF(metas);
    Py_XDECREF(results);
    return NULL;
}

/* _dnode_hook_saved(node, which) -> dict: a hook pair is registered on a saved tensor of a
 * declared node (parameter `which`, or result -which-1): the node forgets the tensor (its
 * packed form lives in the returned dict, the node's ctx, made on first use; released with
 * it) and runs its Python form from now on (python_only). */
static PyObject *
mt_py_dnode_hook_saved(PyObject *module, PyObject *args)
{
    PyObject *arg;
    int which;
    if (!PyArg_ParseTuple(args, "Oi:_dnode_hook_saved", &arg, &which)) {
        return NULL;
    }
    if (!mt__node_check(arg) || ((MTNodeObject *)arg)->dstate == NULL) {
        PyErr_SetString(PyExc_TypeError, "_dnode_hook_saved() expects a node of a declared op");
        return NULL;
    }
    MTNodeObject *node = (MTNodeObject *)arg;
    mt_dstate *st = node->dstate;
    if (which >= 0) {
        if (which >= st->decl->nparams || st->decl->params[which].kind != MT_DV_TENSOR) {
            PyErr_SetString(PyExc_ValueError, "_dnode_hook_saved(): not a tensor parameter");
            return NULL;
        }
        mt__dsaved_drop_impl(&st->v[which].u.t.saved);
        Py_CLEAR(st->v[which].u.t.saved.obj);
    }
    else {
        if (-which - 1 >= st->n_outputs) {
            PyErr_SetString(PyExc_ValueError, "_dnode_hook_saved(): no such result");
            return NULL;
        }
        mt__dsaved_drop_impl(&st->results[-which - 1]);
    }
    if (node->ctx == NULL && (node->ctx = PyDict_New()) == NULL) {
        return NULL;
    }
    node->python_only = 1;
    return Py_NewRef(node->ctx);
}

/* _dnode_out_meta(node) -> ((shape, dtype) or None per output of the op) of a declared node
 * (None once its state is released) */
static PyObject *
mt_py_dnode_out_meta(PyObject *module, PyObject *arg)
{
    if (!mt__node_check(arg)) {
        PyErr_SetString(PyExc_TypeError, "_dnode_out_meta() expects a node");
        return NULL;
    }
    mt_dstate *st = ((MTNodeObject *)arg)->dstate;
    if (st == NULL) {
        Py_RETURN_NONE;
    }
    PyObject *r = PyTuple_New(st->n_outputs);
    for (int i = 0; r != NULL && i < st->n_outputs; i++) {
        PyObject *m = Py_None;
        if (st->out_meta[i].sizes != NULL) {
            PyObject *shape = mt__dlist_tuple(st->out_meta[i].ndim, st->out_meta[i].sizes);
            m = shape ? Py_BuildValue("(NO)", shape, mt__dtype_object(st->out_meta[i].dtype))
                      : NULL;
            if (m == NULL) {
                Py_CLEAR(r);
                break;
            }
        }
        else {
            Py_INCREF(m);
        }
        PyTuple_SET_ITEM(r, i, m);
    }
    return r;
}

static PyObject *
mt_py_set_declared_hooks(PyObject *module, PyObject *args)
{
    PyObject *factory, *apply, *register_view;
    if (!PyArg_ParseTuple(args, "OOO:_set_declared_hooks", &factory, &apply, &register_view)) {
        return NULL;
    }
    Py_XSETREF(mt__node_class_factory, Py_NewRef(factory));
    Py_XSETREF(mt__dnode_apply, Py_NewRef(apply));
    Py_XSETREF(mt__register_view, Py_NewRef(register_view));
    Py_RETURN_NONE;
}

/* _declared_ops() -> the names of the ops recorded in C */
static PyObject *
mt_py_declared_ops(PyObject *module, PyObject *unused)
{
    PyObject *l = PyList_New(0);
    for (int i = 0; l != NULL && mt__derivatives[i] != NULL; i++) {
        PyObject *s = PyUnicode_FromString(mt__derivatives[i]->op);
        if (s == NULL || PyList_Append(l, s) < 0) {
            Py_XDECREF(s);
            Py_CLEAR(l);
            break;
        }
        Py_DECREF(s);
    }
    return l;
}

static PyMethodDef mt_record_functions[] = {
    {"_dvalues", mt_py_dvalues, METH_O, NULL},
    {"_dnode_hook_saved", mt_py_dnode_hook_saved, METH_VARARGS, NULL},
    {"_dnode_out_meta", mt_py_dnode_out_meta, METH_O, NULL},
    {"_set_declared_hooks", mt_py_set_declared_hooks, METH_VARARGS, NULL},
    {"_declared_ops", mt_py_declared_ops, METH_NOARGS,
     "The ops whose derivative is declared and recorded in C."},
    {NULL},
};

int
mt__record_init(PyObject *module)
{
    mt_d_init();
    return PyModule_AddFunctions(module, mt_record_functions);
}
