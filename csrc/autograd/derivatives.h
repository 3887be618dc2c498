/* csrc/autograd/derivatives.h - the nodes of declared derivatives (Note [Declared nodes]) and
 * the vocabulary their generated formulas call. */
#ifndef CSRC_AUTOGRAD_DERIVATIVES_H
#define CSRC_AUTOGRAD_DERIVATIVES_H

#include "csrc/autograd/autograd.h"

#include "aten_lite/linalg.h"
#include "aten_lite/ops.h"

/* Note [Declared nodes]
 * An op-table row that declares its derivative (Note [Derivative declarations] in
 * python/minitorch/autograd/_dsl.py) is recorded in C: its binding's autograd wrapper binds the
 * call's arguments to the declaration's parameters (mt__drecord_begin), runs the op with grad
 * mode off, and makes the node (mt__drecord_end): an edge per tensor argument, a state
 * (mt_dstate) with every parameter's value, the shapes and dtypes of the tensor arguments, and
 * the tensors (arguments and results) whose values a formula of an argument that requires grad
 * reads, each with its storage's version.  No Python code runs.  A call the declaration does
 * not cover (an unexpected keyword, a value of another type) goes to the Python recorder,
 * which reads the same declaration.
 * In a backward pass without create_graph the engine runs the generated C formula of each
 * parameter whose edge needs a gradient (tools/gen_derivatives.py writes them from the
 * declaration's text), without the GIL, then sums each gradient to its input's shape and casts
 * it to its dtype (mt__dnode_run).  With create_graph, or when the node has Python hooks, the
 * node's fn runs the declaration's Python form over the saved values, now tensors with their
 * history, so that the pass records (autograd/_declared.py).
 * Ownership: the state owns its saved impls (released as soon as the node has run unless the
 * graph is retained: plain C) and the saved argument objects (for the Python form: released
 * with the GIL).  Results are kept as impls only (a node must not own its outputs' objects),
 * and made into tensor objects again, with this node as their history, when a Python formula
 * reads them. */

#define MT_DINLINE 6      /* dims of a shape or int list held without an allocation */
#define MT_DMAXPARAMS 16
#define MT_DMAXOUT 8

/* A list of ints as a formula reads it (a shape, dims): borrowed values; !present: None. */
typedef struct {
    int n;
    bool present;
    const int64_t *v;
} mt_dlist;

#define MT_DLIST_NONE ((mt_dlist){.n = 0, .present = false, .v = NULL})
#define MT_DLIST_EMPTY ((mt_dlist){.n = 0, .present = true, .v = NULL})
static inline mt_dlist
mt_dlist_n(int n, const int64_t *v)
{
    return (mt_dlist){.n = n, .present = true, .v = v};
}
/* (the array literal lives in the caller's block) */
#define mt_dlist_1(x) mt_dlist_n(1, (int64_t[]){(x)})

static inline mt_dlist
mt_dlist_of(const mt_tensor *t)
{
    return mt_dlist_n(t->ndim, t->sizes);
}

/* l[i] with Python's negative indices; 0 when out of range (formulas index valid dims). */
static inline int64_t
mt_dlist_at(mt_dlist l, int64_t i)
{
    if (i < 0) {
        i += l.n;
    }
    return i >= 0 && i < l.n ? l.v[i] : 0;
}

static inline int64_t
mt_dlist_prod(mt_dlist l)
{
    int64_t p = 1;
    for (int i = 0; i < l.n; i++) {
        p *= l.v[i];
    }
    return p;
}

/* A shape, dtype and device (of a tensor argument, or of an output). */
typedef struct {
    int ndim;
    mt_dtype dtype;
    mt_device device; /* a gradient on another device is moved to it (.cuda(), .to(), .cpu()) */
    int64_t *sizes; /* inline_ or owned (malloc) for more than MT_DINLINE dims */
    int64_t inline_[MT_DINLINE];
} mt_dmeta;

/* A tensor kept for a formula: its impl (owned), its storage's version when the op ran, and
 * for arguments the tensor object (owned; its history, for the Python form) and whether it
 * had a history then (one it lost since, by detach_(), is torch's error when read). */
typedef struct {
    mt_tensor *t;
    uint64_t version;
    PyObject *obj;
    bool had_grad_fn;
} mt_dsaved;

typedef enum {
    MT_DV_ANY,
    MT_DV_TENSOR, /* Tensor, Tensor?, Tensor|Scalar */
    MT_DV_SCALAR, /* Scalar, float */
    MT_DV_INT,
    MT_DV_LIST,   /* int[], int[]?, int[]... */
    MT_DV_BOOL,
    MT_DV_DTYPE,
    MT_DV_STR,
} mt_dv_kind;

/* One parameter's value; present false: None (or, for Tensor|Scalar, see is_tensor). */
typedef struct {
    bool present;
    union {
        struct {
            mt_dsaved saved; /* saved.t NULL unless a formula that runs reads the values */
            mt_dmeta meta;
            bool is_tensor;  /* Tensor|Scalar: a tensor, else the number `num` */
            mt_scalar num;
            int edge;        /* the node's edge for this argument, -1 for none */
        } t;
        mt_scalar s;
        int64_t i;
        bool b;
        mt_dtype dt;
        struct {
            int n;
            int64_t *v; /* inline_ or owned (malloc) */
            int64_t inline_[MT_DINLINE];
        } l;
        char str[24];
    } u;
} mt_dval;

struct mt_derivative;

typedef struct mt_dstate {
    const struct mt_derivative *decl;
    int n_outputs;
    uint32_t out_diff;                /* bit i: output i is differentiable (floating) */
    mt_dsaved results[MT_DMAXOUT];    /* results[i].t: output i's impl when a formula reads it */
    mt_dmeta out_meta[MT_DMAXOUT];    /* each output's shape and dtype (zeros where no
                                         gradient arrived for a node of several outputs) */
    int n_edges;
    mt_dval v[];                      /* one per parameter */
} mt_dstate;

enum {
    MT_DP_OPTIONAL = 1, /* None allowed */
    MT_DP_KWONLY = 2,
    MT_DP_VARARGS = 4,  /* int[]...: the remaining positional arguments */
    MT_DP_NUMBER = 8,   /* Tensor|Scalar: a number allowed */
    MT_DP_FLOAT = 16,   /* float: a real number */
    MT_DP_DIFF = 32,    /* a tensor parameter with a formula: it has an edge (the others, as
                           gather's index or expand_as's other, are not differentiable) */
    MT_DP_JOINT = 64,   /* its gradient comes from a joint formula (mt_djoint) */
};

typedef struct {
    const char *name;
    uint8_t kind;             /* mt_dv_kind */
    uint8_t flags;            /* MT_DP_* */
    const char *default_repr; /* Python literal, or NULL: required */
    uint32_t reads;           /* bit q: parameter q's formula reads this one's values */
} mt_dparam;

/* A parameter's gradient from the outputs' gradients (zeros where none arrived; bit i of
 * `given`: output i's arrived): *out a new reference, or NULL for none.  0, or a negative code
 * with the C error set.  Plain C. */
typedef int (*mt_dformula)(const mt_dstate *st, mt_tensor *const *grads, uint32_t given,
                           mt_tensor **out);

static inline bool
mt_d_given(uint32_t given, int64_t i)
{
    return i >= 0 && i < 32 && (given & (1u << i)) != 0;
}

#define MT_DMAXJOINT 8

/* A joint formula: fills outs[i] (a new reference, or NULL) for each member i whose needs[i]
 * is set.  0, or a negative code with the C error set.  Plain C. */
typedef int (*mt_djformula)(const mt_dstate *st, mt_tensor *const *grads, uint32_t given,
                            const bool *needs, mt_tensor **outs);

typedef struct {
    int n;                      /* members */
    int params[MT_DMAXJOINT];   /* their parameters */
    mt_djformula fn;
} mt_djoint;

typedef struct mt_derivative {
    const char *op;
    const char *node_name;     /* "MulBackward0" */
    int nparams;
    const mt_dparam *params;
    mt_dformula *formulas;     /* per parameter; NULL: none */
    uint32_t result_reads;     /* bit q: parameter q's formula reads the results */
    uint32_t result_outs;      /* bit i: some formula reads output i's values (only those are
                                * saved: an in-place op on another output is no error) */
    uint32_t grads_read;       /* bit i: some formula reads output i's gradient (the others
                                * are never made zeros where none arrived) */
    const mt_djoint *joints;   /* formulas of several parameters at once */
    int njoints;
    PyObject *node_type;       /* the Node subclass (made on first use; owned) */
    signed char number_edge;   /* 1: a number for `other` still gets an edge (to no node), as
                                * torch's wrapped numbers of add/sub/mul/div do; -1: no; 0: not
                                * known yet (set with node_type) */
    PyObject *defaults[MT_DMAXPARAMS]; /* the defaults as objects (made on first use; owned) */
} mt_derivative;

/* every declaration, NULL-terminated (generated: mt_derivatives.c) */
extern mt_derivative *const mt__derivatives[];

/* ---- what generated formulas read --------------------------------------------------------- */
#define MT_DT(st, k) ((st)->v[k].u.t.saved.t)
#define MT_DA(st, k)                                                                             \
    ((st)->v[k].u.t.is_tensor ? mt_arg_tensor((st)->v[k].u.t.saved.t)                            \
                              : mt_arg_scalar((st)->v[k].u.t.num))
#define MT_DANUM(st, k) ((st)->v[k].u.t.num)
#define MT_DS(st, k) ((st)->v[k].u.s)
#define MT_DI(st, k) ((st)->v[k].u.i)
#define MT_DB(st, k) ((st)->v[k].u.b)
#define MT_DD(st, k) ((st)->v[k].u.dt)
#define MT_DSTR(st, k) ((st)->v[k].u.str)
#define MT_DL(st, k)                                                                             \
    ((mt_dlist){.n = (st)->v[k].u.l.n, .present = (st)->v[k].present, .v = (st)->v[k].u.l.v})
#define MT_DMETA(st, k) ((st)->v[k].u.t.meta)
#define MT_DSHAPE(st, k) mt_dlist_n(MT_DMETA(st, k).ndim, MT_DMETA(st, k).sizes)
#define MT_DRESULT(st, i) ((st)->results[i].t)
#define MT_DPRESENT(st, k) ((st)->v[k].present)

static inline bool
mt_dstr_eq(const char *a, const char *b)
{
    return strcmp(a, b) == 0;
}

/* ---- the vocabulary (derivative_ops.c): plain C over impls, each returning a new reference or
 * NULL with the C error set (tensors), or 0 / a negative code writing *out (mt_arg results:
 * the caller releases out->t).  Tensor arguments are borrowed; dims wrap as torch's. */
int mt_d_err(void);
/* sets the vocabulary's tables (once, at import) */
void mt_d_init(void);
int mt_d_conj_arg(mt_arg a, mt_arg *out);
int mt_d_neg_arg(mt_arg a, mt_arg *out);
/* a <op> b where either may be a number (both numbers: Python's arithmetic on them) */
int mt_d_binary_arg(mt_op op, mt_arg a, mt_arg b, mt_arg *out);
mt_scalar mt_d_scalar_op(mt_op op, mt_scalar a, mt_scalar b);
mt_scalar mt_d_scalar_neg(mt_scalar a);
/* log of a real number: -inf at 0, NaN below */
mt_scalar mt_d_scalar_log(mt_scalar a);
bool mt_d_scalar_cmp(mt_op op, mt_scalar a, mt_scalar b);
/* a as a tensor: itself (a new reference), or a 0-d tensor of the number */
mt_tensor *mt_d_arg_as_tensor(mt_arg a);

static inline mt_tensor *
mt_d_tensor_ref(mt_tensor *t)
{
    if (t != NULL) {
        mt_tensor_incref(t);
    }
    return t;
}
static inline mt_arg
mt_d_arg_ref(mt_arg a)
{
    mt_d_tensor_ref(a.t);
    return a;
}
static inline mt_arg
mt_d_arg_none(void)
{
    return mt_arg_scalar(mt_scalar_int(0));
}
static inline mt_tensor *
mt_d_take_tensor(mt_tensor **p)
{
    mt_tensor *t = *p;
    *p = NULL;
    return t;
}
static inline mt_arg
mt_d_take_arg(mt_arg *p)
{
    mt_arg a = *p;
    p->t = NULL;
    return a;
}

mt_tensor *mt_d_sum(mt_tensor *t, mt_dlist dim, bool keepdim);
mt_tensor *mt_d_mean(mt_tensor *t, mt_dlist dim, bool keepdim);
mt_tensor *mt_d_reshape(mt_tensor *t, mt_dlist shape);
mt_tensor *mt_d_view(mt_tensor *t, mt_dlist shape);
mt_tensor *mt_d_expand(mt_tensor *t, mt_dlist shape);
mt_tensor *mt_d_unsqueeze(mt_tensor *t, int64_t dim);
mt_tensor *mt_d_squeeze(mt_tensor *t, mt_dlist dim);
mt_tensor *mt_d_permute(mt_tensor *t, mt_dlist dims);
mt_tensor *mt_d_narrow(mt_tensor *t, int64_t dim, int64_t start, int64_t length);
mt_tensor *mt_d_select(mt_tensor *t, int64_t dim, int64_t index);
mt_tensor *mt_d_flip(mt_tensor *t, mt_dlist dims);
mt_tensor *mt_d_t(mt_tensor *t);
mt_tensor *mt_d_masked_fill(mt_tensor *t, mt_tensor *mask, mt_arg value);
mt_tensor *mt_d_matmul(mt_tensor *a, mt_tensor *b);
mt_tensor *mt_d_new_zeros(mt_tensor *like, mt_dlist shape);
/* zeros of `shape` (like's dtype) with `t` at [start, start + t.size(dim)) along dim */
mt_tensor *mt_d_embed(mt_tensor *t, mt_dlist shape, int64_t dim, int64_t start);
/* t permuted by the inverse of dims */
mt_tensor *mt_d_permute_back(mt_tensor *t, mt_dlist dims);
/* a copy of t with src added at index along dim (torch.scatter_add) */
mt_tensor *mt_d_scatter_add(mt_tensor *t, int64_t dim, mt_tensor *index, mt_tensor *src);
/* a copy of t with src written at index along dim (torch.scatter) */
mt_tensor *mt_d_scatter(mt_tensor *t, int64_t dim, mt_tensor *index, mt_tensor *src);
/* the last n dims (-n, ..., -1), and every dim of ndim but d: lists of static storage */
mt_dlist mt_d_last_dims(int64_t n);
mt_dlist mt_d_all_dims_but(int64_t ndim, int64_t d);
/* the gradient of weight.index_select(0, indices) for a weight of num_weights rows: g's rows
 * (g: (..., D)) added at their indices, each divided by its index's count when
 * scale_grad_by_freq; the row padding_idx (>= 0) gets none */
mt_tensor *mt_d_embedding_backward(mt_tensor *g, int64_t num_weights, mt_tensor *indices,
                                   int64_t padding_idx, bool scale_grad_by_freq);
/* g * gelu'(x) (approximate: "none" or "tanh"), one fused pass */
mt_tensor *mt_d_gelu_backward(mt_tensor *g, mt_tensor *x, const char *approximate);
/* the derivative of softmax (log_softmax when log) along dim from its result y: one fused
 * pass per row along the last dim (Note [Fused softmax backward]), else op by op */
mt_tensor *mt_d_softmax_backward(mt_tensor *g, mt_tensor *y, int64_t dim, bool log);
/* the gradients of an LSTM layer's gx, h0, c0, w_hh, b_hh, w_hr (outs[i] where needs[i])
 * from those of its out, h_n, c_n (Note [Fused LSTM]) */
/* layer_norm's gradients of (self, weight, bias) from those of (out, mean, rstd) (gm, gr:
 * NULL when none arrived), one pass per row (Note [Fused layer norm]); half precision through
 * float32.  Fills outs[i] where needs[i]; 0 or a negative code. */
int mt_d_layer_norm_backward(mt_tensor *g, mt_tensor *gm, mt_tensor *gr, mt_tensor *x,
                             mt_tensor *mean, mt_tensor *rstd, mt_tensor *w, int64_t n,
                             const bool *needs, mt_tensor **outs);
int mt_d_lstm_backward(mt_tensor *g_out, mt_tensor *g_hn, mt_tensor *g_cn, mt_tensor *x,
                       mt_dlist batch_sizes, mt_tensor *h0, mt_tensor *c0, mt_tensor *w_ih,
                       mt_tensor *w_hh, mt_tensor *b_ih, mt_tensor *b_hh, mt_tensor *w_hr,
                       bool reverse, mt_tensor *out, mt_tensor *gates, mt_tensor *cells,
                       mt_tensor *hpre, const bool *needs, mt_tensor **outs);
/* g summed over the dims broadcasting added or expanded, to `shape` */
mt_tensor *mt_d_sum_to(mt_tensor *g, mt_dlist shape);
/* the gradient g of a reduction over `dim` (None: all) of a tensor of `shape`, broadcast back */
mt_tensor *mt_d_reduce_backward(mt_tensor *g, mt_dlist shape, mt_dlist dim, bool keepdim);

/* ---- the recorder and the nodes (record.c) ----------------------------------------------- */
/* The declaration of the op-table entry point `key` ("m.mul", "f.sum", "o.multiply"), or
 * NULL. */
const mt_derivative *mt__deriv_lookup(const char *key);

/* Binds a call to the declaration (mt__ag_begin, for a known declaration).  1: record it (run
 * the op, then mt__drecord_end), grad mode is now off; 0: no argument requires grad (run it
 * plainly); -1: the call is not covered (the Python recorder takes it); no exception is left
 * set. */
int mt__drecord_begin(mt_drecord *rec, const mt_derivative *decl, PyObject *self,
                      PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames);

/* Runs a declared node's formulas (engine: plain C, without the GIL). */
int mt__dnode_run(MTNodeObject *node, mt_tensor *const *grads, const bool *needs,
                  mt_tensor **out);
/* Drops the saved impls (plain C); the objects go with mt__dstate_free (GIL). */
void mt__dstate_release_impls(mt_dstate *st);
void mt__dstate_free(mt_dstate *st);
bool mt__dstate_saves(const mt_dstate *st);
/* The C error of a saved tensor written in place since the op, else 0 (plain C). */
int mt__dstate_check(const mt_dstate *st, const char *node_name);

#endif /* CSRC_AUTOGRAD_DERIVATIVES_H */
