"""Derivative declarations as Python formulas (see Note [Derivative declarations] in _dsl.py).

The C engine runs the C form of a declaration (compiled at build time); this module compiles
the same text to Python, evaluated over recorded ops, for what must be Python: passes with
create_graph=True (the derivative of the derivative is recorded as it runs), and ops that the
Python recorder handles (in-place forms, Python forms of the op table).  VOCAB gives the
Python meaning of the vocabulary's helper functions; tensor methods are the tensors' own."""
import math
import sys

from .. import _C
from . import _dsl


def _mt():
    return sys.modules["minitorch"]


def _is_t(x):
    return isinstance(x, _C.TensorBase)


def _conj(x):
    if _is_t(x):
        return x.conj() if x.dtype.is_complex else x
    return x.conjugate() if isinstance(x, complex) else x


def _dims(dim, ndim):
    """dim (None, an int or a sequence) as a sorted list of wrapped dims; None or () is every
    dim, as the reductions read it."""
    if dim is None or (isinstance(dim, (list, tuple)) and len(dim) == 0):
        return list(range(ndim))
    if isinstance(dim, int):
        dim = [dim]
    return sorted(d % ndim if ndim else 0 for d in dim)


def _sum_to(g, shape):
    """g summed over the dimensions broadcasting added or expanded, to `shape`."""
    shape = tuple(shape)
    if tuple(g.shape) == shape:
        return g
    lead = g.dim() - len(shape)
    dims = list(range(lead)) + [lead + i for i, n in enumerate(shape)
                                if n == 1 and g.shape[lead + i] != 1]
    if dims:
        g = g.sum(dims, keepdim=True)
    return g.reshape(shape) if tuple(g.shape) != shape else g


def _reduce_backward(g, shape, dim, keepdim):
    """The gradient g of a reduction over `dim` of a tensor of `shape`, broadcast back to it."""
    nd = len(shape)
    if not keepdim and nd and g.dim():  # (a full reduction's 0-d gradient expands as it is)
        for d in _dims(dim, nd):
            g = g.unsqueeze(d)
    return g.expand(tuple(shape))


def _embed(g, shape, dim, start):
    """Zeros of `shape` with g at [start, start + g.shape[dim]) along dim (the gradient of a
    slice), made with cat so that it is differentiable."""
    d = dim % len(shape)
    if start < 0:
        start += shape[d]
    n = g.shape[d]
    before, after = list(shape), list(shape)
    before[d], after[d] = start, shape[d] - start - n
    return _C.cat([g.new_zeros(before), g, g.new_zeros(after)], d)


def _permute_back(g, dims):
    """g permuted by the inverse of the permutation dims."""
    nd = g.dim()
    inv = [0] * nd
    for i, d in enumerate(dims):
        inv[d % nd] = i
    return g.permute(inv)


def _embedding_backward(g, num_weights, indices, padding_idx, scale_grad_by_freq):
    """The gradient of weight.index_select(0, indices): g's rows added at their indices (each
    divided by its index's count with scale_grad_by_freq); the row padding_idx (>= 0) gets
    none."""
    g = g.reshape(-1, g.shape[-1])
    if scale_grad_by_freq:
        counts = g.new_zeros(num_weights).index_add(0, indices, g.new_ones(indices.shape))
        g = g / counts.index_select(0, indices).unsqueeze(1)
    out = g.new_zeros((num_weights, g.shape[1])).index_add(0, indices, g)
    if padding_idx >= 0:
        out = out.index_fill(0, _C.tensor([padding_idx]), 0)
    return out


_SQRT1_2, _INV_SQRT_2PI, _SQRT_2_PI = 0.7071067811865476, 0.3989422804014327, 0.7978845608028654


def _gelu_backward(g, x, approximate):
    """g * gelu'(x), written with recorded ops (the C form is one fused pass)."""
    if approximate == "tanh":
        t = ((x + x * x * x * 0.044715) * _SQRT_2_PI).tanh()
        return g * (0.5 * (1 + t) + 0.5 * x * (1 - t * t) * (_SQRT_2_PI * (1 + 0.134145 * x * x)))
    return g * (0.5 * (1 + (x * _SQRT1_2).erf()) + x * (x * x * -0.5).exp() * _INV_SQRT_2PI)


def _softmax_backward(g, y, dim, log):
    """The derivative of softmax (log_softmax when log) from its result y."""
    if log:
        return g - y.exp() * g.sum(dim, keepdim=True)
    return y * (g - (g * y).sum(dim, keepdim=True))


def _layer_norm_backward(g, gm, gr, x, mean, rstd, w, n):
    """layer_norm's gradients of (self, weight, bias), written with recorded ops (the C form
    is one fused pass, Note [Fused layer norm])."""
    dims = tuple(range(-n, 0))
    lead = tuple(range(x.dim() - n))
    xhat = (x - mean) * rstd
    gh = g if w is None else g * w
    dx = (gh - gh.mean(dims, keepdim=True) - xhat * (gh * xhat).mean(dims, keepdim=True)) * rstd
    if gm is not None or gr is not None:
        extra = 0
        if gm is not None:
            extra = gm
        if gr is not None:
            extra = extra - gr * rstd * rstd * xhat
        dx = dx + extra * (mean.numel() / x.numel())
    dw, db = g * xhat, g
    if lead:
        dw, db = dw.sum(lead), db.sum(lead)
    return dx, dw, db


def _lstm_backward(*args):
    from ..nn._rnn_ops import lstm_backward
    return lstm_backward(*args)


def _slog(x):
    """log of a real number: -inf at 0, NaN below."""
    return math.log(x) if x > 0 else (-math.inf if x == 0 else math.nan)


VOCAB = {
    "conj": _conj,
    "slog": _slog,
    "embed": _embed,
    "permute_back": _permute_back,
    "last_dims": lambda n: tuple(range(-n, 0)),
    "all_dims_but": lambda ndim, d: tuple(i for i in range(ndim) if i != d % max(ndim, 1)),
    "embedding_backward": _embedding_backward,
    "gelu_backward": _gelu_backward,
    "softmax_backward": _softmax_backward,
    "lstm_backward": _lstm_backward,
    "layer_norm_backward": _layer_norm_backward,
    "relu_backward": lambda g, result: g.masked_fill(result <= 0, 0),
    "leaky_relu_backward": lambda g, x, slope: _mt().where(x > 0, g, g * slope),
    "is_tensor": _is_t,
    "sum_to": _sum_to,
    "reduce_backward": _reduce_backward,
    "where": lambda cond, a, b: _mt().where(cond, a, b),
    "zeros_like": lambda t: t.new_zeros(t.shape),
    "pi": math.pi, "e": math.e, "inf": math.inf, "nan": math.nan,
}
# the vocabulary's tensor methods: the tensors' own (checked by tests/test_autograd_declared.py)
METHODS = _dsl.VOCAB_NAMES - set(VOCAB)


class _Meta:
    """The shape, dtype and device of a tensor parameter whose values the node did not keep."""
    __slots__ = ("shape", "dtype", "device")

    def __init__(self, shape, dtype, device):
        self.shape, self.dtype, self.device = shape, dtype, device

    @property
    def ndim(self):
        return len(self.shape)

    def dim(self):
        return len(self.shape)

    def numel(self):
        n = 1
        for s in self.shape:
            n *= s
        return n

    def size(self, d=None):
        return self.shape if d is None else self.shape[d]


class Compiled:
    """A declaration's Python formulas: code objects per differentiable parameter (a joint
    formula's members share one)."""

    def __init__(self, op, spec):
        self.decl = _dsl.Declaration(op, spec)
        self.code = {name: compile(text.strip(), f"<derivative of {op} for {name}>", "eval")
                     for name, text in self.decl.formulas.items() if text != "not_implemented"}
        self.reads = {name: self.decl.reads(name) for name in self.decl.formulas}

    def gradients(self, wanted, env):
        """{name: gradient} of the parameters named in wanted (a joint formula runs once)."""
        out, done = {}, set()
        for name in wanted:
            j = self.decl.joint_of.get(name)
            if j is None:
                out[name] = self.evaluate(name, env)
            elif j not in done:
                done.add(j)
                names = self.decl.joints[j][0]
                for n, g in zip(names, self.evaluate(name, env)):
                    out[n] = g if n in wanted else None
        return out

    def bind(self, args, kwargs):
        """The parameters' values from a call's positional and keyword arguments (None when the
        call does not fit the signature)."""
        params = self.decl.params
        values, i, by_keyword = {}, 0, None
        for p in params:
            if p.kwonly:
                break
            if p.type == "int[]...":
                rest = args[i:]
                if len(rest) == 1 and isinstance(rest[0], (list, tuple)):
                    rest = rest[0]
                if rest or p.name not in kwargs:
                    values[p.name] = tuple(rest)
                else:
                    values[p.name] = kwargs[p.name]      # x.permute(dims=(1, 0))
                    by_keyword = p.name
                i = len(args)
                continue
            if i < len(args):
                values[p.name] = args[i]
                i += 1
        if i < len(args):
            return None
        for k, v in kwargs.items():
            if k == "out" or k == by_keyword:
                continue
            if k == "input" and params and params[0].name == "self":
                k = "self"            # the function forms name the first tensor `input`
            if k not in self.decl.by_name or k in values:
                return None
            values[k] = v
        for p in params:
            if p.name not in values:
                if not p.has_default:
                    return None
                values[p.name] = p.default
        return values

    def evaluate(self, name, env):
        """The gradient of parameter `name` given the values in env (NotImplementedError for
        a 'not_implemented' formula)."""
        code = self.code.get(name)
        if code is None:
            raise NotImplementedError(f"the derivative of '{self.decl.op}' for '{name}' is not "
                                      "implemented")
        return eval(code, VOCAB, env)  # noqa: S307 - formulas are the op table's own text


_compiled = {}
_specs = {}         # op -> its declaration (the op table's rows)


def compiled(op, spec=None):
    c = _compiled.get(op)
    if c is None:
        if spec is None:
            if not _specs:
                from .._op_table import OPS
                _specs.update((r["name"], r["grad"]) for r in OPS if isinstance(r["grad"], dict))
            spec = _specs[op]
        c = _compiled[op] = Compiled(op, spec)
    return c


def _fit(g, shape, dtype, device):
    """A formula's gradient for an input of this shape, dtype and device: summed to the shape
    (broadcasting), in the dtype (a real input takes the real part), on the device."""
    if g is None:
        return None
    if not _is_t(g):
        g = _C.full(shape, g, dtype=dtype, device=device)
    if tuple(g.shape) != tuple(shape):
        g = _sum_to(g, shape)
    if g.dtype != dtype:
        if g.dtype.is_complex and not dtype.is_complex:
            g = g.real
        g = g.to(dtype)
    if g.device != device:
        g = g.to(device)
    return g


def node_apply(node, grads):
    """The Python form of a node recorded in C (Note [Declared nodes] in
    csrc/autograd/derivatives.h): the engine calls it in passes that create a graph, and for
    nodes with Python hooks.  Its saved arguments are the tensors themselves, with their
    history, and its results come back with this node as theirs, so what the formulas compute
    is recorded."""
    op, values, results, edges, metas, outmetas = _C._dvalues(node)
    c = compiled(op)
    env = {}
    for p, v in zip(c.decl.params, values):
        env[p.name] = _Meta(*v) if p.is_tensor and type(v) is tuple else v
    given = tuple(g is not None for g in grads)
    if not any(given):
        return [None] * len(node.next_functions)
    env["has_grad"] = lambda i: given[i]
    if len(grads) > 1:
        grads = tuple(g if g is not None or m is None
                      else _C.zeros(m[0], dtype=m[1], device=m[2])
                      for g, m in zip(grads, outmetas))
    if node._ctx is not None:            # saved tensors with hooks (Note [Saved variables])
        from . import _saved_variables
        results = _saved_variables.node_apply_values(node, env, c, results)
    env["grads"], env["grad"] = grads, grads[0]
    env["results"], env["result"] = results, results[0]
    nexts = node.next_functions
    out = [None] * len(nexts)
    wanted = [p.name for p, e in zip(c.decl.params, edges) if e >= 0 and nexts[e][0] is not None]
    grads = c.gradients(wanted, env)
    for p, e, m in zip(c.decl.params, edges, metas):
        if e >= 0 and grads.get(p.name) is not None:
            out[e] = _fit(grads[p.name], *m)
    return out


def _always(i):
    return True


def recorder_formula(op, spec):
    """The formula(ctx, grad) of the Python recorder (Note [Formulas] in _record.py) for a
    declared op: the gradients of the parameters that need one, keyed by parameter name and
    position."""
    c = compiled(op, spec)
    params = c.decl.params

    def formula(ctx, g):
        values = c.bind(ctx._args, ctx.kwargs)
        if values is None:
            raise RuntimeError(f"the derivative of '{op}': the call does not match its "
                               f"declaration ({[p.name for p in params]})")
        env = dict(values)
        env["has_grad"] = _always        # _apply gave zeros for the missing gradients
        if ctx.multi:
            env["grads"], env["grad"] = g, g[0]
        else:
            env["grads"], env["grad"] = (g,), g
        out = {}
        wanted = [p for p in params if p.name in c.decl.formulas and _wants(ctx, p)]
        read = set().union(*(c.reads[p.name] for p in wanted)) if wanted else set()
        for n in read:
            if n in ("result", "results"):
                r = ctx.out_reading(c.decl.result_outputs())
                env["results"] = r if ctx.multi else (r,)
                env["result"] = env["results"][0]
            elif _is_t(values.get(n)):
                ctx._check([(t, v) for t, v in ctx._arg_versions if t is values[n]])
        grads = c.gradients([p.name for p in wanted], env)
        for p in wanted:
            out[p.name] = grads[p.name]
            if p.index < len(ctx._args):
                out[p.index] = out[p.name]
        return out
    formula.__name__ = op
    formula.declared = c
    return formula


def _wants(ctx, p):
    """Whether parameter p (a tensor argument of the call) needs a gradient."""
    for pos, _, _, _, req in ctx.slots:
        if req and (pos == p.index or pos == p.name):
            return True
    return False
