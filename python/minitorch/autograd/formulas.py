"""Derivative formulas, one per op: formulas.<name>(ctx, grad) -> gradients of the op's
positional arguments (see Note [Formulas] in _record.py).  The op table's `grad` slot names
the formula of each op (_op_table.py); EXTRA names those of the operators and properties that
are not rows of the table.  Formulas are written with same-shape operands: the recorder sums
each gradient down to its input's broadcast shape."""
import math

from .. import _C

EXTRA = {"__getitem__": "getitem", "__setitem__": "setitem", "T": "T", "mT": "mT"}


def _is_t(x):
    return isinstance(x, _C.TensorBase)


def _c(x):
    """conj() for complex tensors (the gradient convention of torch), else x."""
    return x.conj() if _is_t(x) and x.dtype.is_complex else x


def _dim_list(dim, ndim):
    if dim is None:
        return list(range(ndim))
    if isinstance(dim, int):
        dim = [dim]
    return sorted(d % ndim if ndim else 0 for d in dim)


def _expand_back(g, shape, dim, keepdim):
    """A reduction's gradient g (reduced over `dim`) broadcast back to the input's shape."""
    nd = len(shape)
    if not keepdim and nd:
        for d in _dim_list(dim, nd):
            g = g.unsqueeze(d)
    return g.expand(shape)


def _arg(ctx, i, name, default=None):
    """Argument i (or keyword `name`) of the op, read without the saved-tensor check (for
    numbers and flags)."""
    if len(ctx._args) > i:
        return ctx._args[i]
    return ctx.kwargs.get(name, default)


# ---- elementwise ---------------------------------------------------------------------------

def add(ctx, g):
    alpha = _arg(ctx, 2, "alpha", 1)
    return g, (g if alpha == 1 else g * alpha)


def sub(ctx, g):
    alpha = _arg(ctx, 2, "alpha", 1)
    return g, (-g if alpha == 1 else g * -alpha)


def mul(ctx, g):
    a, b = ctx.args[:2]
    return (g * _c(b) if ctx.needs(0) else None), (g * _c(a) if ctx.needs(1) else None)


def div(ctx, g):
    a, b = ctx.args[:2]
    if _arg(ctx, 2, "rounding_mode") is not None:
        return g * 0, (g * 0 if _is_t(b) else None)
    ga = g / _c(b) if ctx.needs(0) else None
    gb = -g * _c(ctx.out) / _c(b) if ctx.needs(1) else None
    return ga, gb


def neg(ctx, g):
    return (-g,)


def zeros(ctx, g):
    return (g * 0,)


def identity(ctx, g):
    return (g,)


def abs(ctx, g):
    return (g * ctx.args[0].sgn(),)


def pow(ctx, g):
    a, e = ctx.args[:2]
    ga = gb = None
    if ctx.needs(0):
        if _is_t(e):
            ga = g * e * a.pow(e - 1)
            ga = ga.masked_fill((e == 0) & (a == 0), 0) if ga.dtype.is_floating_point else ga
        elif e == 0:
            ga = g * 0
        else:
            ga = g * e * a.pow(e - 1)
    if ctx.needs(1):
        out = ctx.out
        if _is_t(a):
            gb = g * out * a.log()
            gb = gb.masked_fill((a == 0) & (e >= 0), 0)
        else:
            gb = g * out * math.log(a) if a > 0 else g * 0
    return ga, gb


def exp(ctx, g):
    return (g * _c(ctx.out),)


def exp2(ctx, g):
    return (g * ctx.out * math.log(2.0),)


def expm1(ctx, g):
    return (g * (ctx.out + 1),)


def log(ctx, g):
    return (g / _c(ctx.args[0]),)


def log2(ctx, g):
    return (g / (ctx.args[0] * math.log(2.0)),)


def log10(ctx, g):
    return (g / (ctx.args[0] * math.log(10.0)),)


def log1p(ctx, g):
    return (g / (ctx.args[0] + 1),)


def sqrt(ctx, g):
    return (g / (2 * _c(ctx.out)),)


def rsqrt(ctx, g):
    return (g * -0.5 * ctx.out.pow(3),)


def reciprocal(ctx, g):
    return (g * -_c(ctx.out * ctx.out),)


def square(ctx, g):
    return (g * 2 * _c(ctx.args[0]),)


def sin(ctx, g):
    return (g * _c(ctx.args[0].cos()),)


def cos(ctx, g):
    return (g * -_c(ctx.args[0].sin()),)


def tan(ctx, g):
    return (g * (1 + ctx.out * ctx.out),)


def tanh(ctx, g):
    return (g * _c(1 - ctx.out * ctx.out),)


def sigmoid(ctx, g):
    return (g * _c(ctx.out * (1 - ctx.out)),)


def relu(ctx, g):
    return (g * (ctx.out > 0),)


def asin(ctx, g):
    x = ctx.args[0]
    return (g / (1 - x * x).sqrt(),)


def acos(ctx, g):
    x = ctx.args[0]
    return (-g / (1 - x * x).sqrt(),)


def atan(ctx, g):
    x = ctx.args[0]
    return (g / (1 + x * x),)


def sinh(ctx, g):
    return (g * ctx.args[0].cosh(),)


def cosh(ctx, g):
    return (g * ctx.args[0].sinh(),)


def asinh(ctx, g):
    x = ctx.args[0]
    return (g / (x * x + 1).sqrt(),)


def acosh(ctx, g):
    x = ctx.args[0]
    return (g / (x * x - 1).sqrt(),)


def atanh(ctx, g):
    x = ctx.args[0]
    return (g / (1 - x * x),)


def erf(ctx, g):
    x = ctx.args[0]
    return (g * (2 / math.sqrt(math.pi)) * (-x * x).exp(),)


def erfc(ctx, g):
    x = ctx.args[0]
    return (g * (-2 / math.sqrt(math.pi)) * (-x * x).exp(),)


def erfinv(ctx, g):
    return (g * (math.sqrt(math.pi) / 2) * (ctx.out * ctx.out).exp(),)


def atan2(ctx, g):
    a, b = ctx.args[:2]
    d = a * a + b * b
    return g * b / d, -g * a / d


def hypot(ctx, g):
    a, b = ctx.args[:2]
    return g * a / ctx.out, g * b / ctx.out


def logaddexp(ctx, g):
    a, b = ctx.args[:2]
    return g * (a - ctx.out).exp(), g * (b - ctx.out).exp()


def logaddexp2(ctx, g):
    a, b = ctx.args[:2]
    return g * (a - ctx.out).exp2(), g * (b - ctx.out).exp2()


def _pick(ctx, g, better):
    """maximum/minimum: the gradient goes to the chosen operand, split evenly on ties."""
    a, b = ctx.args[:2]
    wa = better(a, b).to(g.dtype) + (a == b).to(g.dtype) * 0.5
    return g * wa, g * (1 - wa)


def maximum(ctx, g):
    return _pick(ctx, g, lambda a, b: a > b)


def minimum(ctx, g):
    return _pick(ctx, g, lambda a, b: a < b)


def fmax(ctx, g):
    a, b = ctx.args[:2]
    wa = ((a >= b) | b.isnan()).to(g.dtype)
    return g * wa, g * (1 - wa)


def fmin(ctx, g):
    a, b = ctx.args[:2]
    wa = ((a <= b) | b.isnan()).to(g.dtype)
    return g * wa, g * (1 - wa)


def xlogy(ctx, g):
    x, y = ctx.args[:2]
    gx = (g * y.log()).masked_fill((x == 0) & (y <= 0), 0) if _is_t(y) else g * math.log(y)
    gy = g * x / y if _is_t(y) else None
    return gx, gy


def frac(ctx, g):
    return (g,)


def fmod(ctx, g):
    a, b = ctx.args[:2]
    return g, (-g * (a / b).trunc() if _is_t(b) else None)


def remainder(ctx, g):
    a, b = ctx.args[:2]
    return g, (-g * (a / b).floor() if _is_t(b) else None)


def where(ctx, g):
    cond, a, b = ctx.args[:3]
    z = g.new_zeros(())
    return None, (_C.where(cond, g, z) if _is_t(a) else None), \
        (_C.where(cond, z, g) if _is_t(b) else None)


def masked_fill(ctx, g):
    mask, value = ctx.args[1], ctx.args[2]
    gv = g.masked_fill(mask.logical_not(), 0).sum() if _is_t(value) else None
    return g.masked_fill(mask, 0), None, gv


def copy_(ctx, g):
    return g * 0, g


def fill_(ctx, g):
    v = ctx.args[1]
    return g * 0, (g.sum() if _is_t(v) else None)


# ---- reductions ----------------------------------------------------------------------------

def sum(ctx, g):
    x = _arg(ctx, 0, "input")  # its shape only
    dim = _arg(ctx, 1, "dim")
    keepdim = _arg(ctx, 2, "keepdim", False)
    return (_expand_back(g, x.shape, dim, keepdim),)


def _amax_like(ctx, g):
    x = ctx.args[0]
    dim = _arg(ctx, 1, "dim", ())
    keepdim = _arg(ctx, 2, "keepdim", False)
    if dim == () or dim == []:
        dim = None
    out = _expand_back(ctx.out, x.shape, dim, keepdim)
    mask = (x == out).to(g.dtype)
    count = mask.sum(_dim_list(dim, x.dim()), keepdim=True) if x.dim() else mask
    return (_expand_back(g, x.shape, dim, keepdim) * mask / count,)


amax = _amax_like
amin = _amax_like


def prod(ctx, g):
    x = ctx.args[0]
    dim = _arg(ctx, 1, "dim")
    keepdim = _arg(ctx, 2, "keepdim", False)
    if dim is None:
        out = ctx.out.reshape([1] * x.dim()).expand(x.shape) if x.dim() else ctx.out
        gg = g.reshape([1] * x.dim()).expand(x.shape) if x.dim() else g
    else:
        out = _expand_back(ctx.out, x.shape, dim, keepdim)
        gg = _expand_back(g, x.shape, dim, keepdim)
    return (gg * out / x,)


def cumsum(ctx, g):
    dim = _arg(ctx, 1, "dim")
    return (g.flip([dim]).cumsum(dim).flip([dim]),)


# ---- linear algebra ------------------------------------------------------------------------

def mm(ctx, g):
    a, b = ctx.args[:2]
    return (g @ _c(b).mT if ctx.needs(0) else None), (_c(a).mT @ g if ctx.needs(1) else None)


bmm = mm


def matmul(ctx, g):
    a, b = ctx.args[:2]
    a, b = _c(a), _c(b)
    if a.dim() == 1 and b.dim() == 1:
        return g * b, g * a
    if a.dim() == 1:
        ga = (g.unsqueeze(-2) @ b.mT).squeeze(-2) if ctx.needs(0) else None
        gb = a.unsqueeze(-1) @ g.unsqueeze(-2) if ctx.needs(1) else None
    elif b.dim() == 1:
        ga = g.unsqueeze(-1) @ b.unsqueeze(-2) if ctx.needs(0) else None
        gb = (a.mT @ g.unsqueeze(-1)).squeeze(-1) if ctx.needs(1) else None
    else:
        ga = g @ b.mT if ctx.needs(0) else None
        gb = a.mT @ g if ctx.needs(1) else None
    return ga, gb


def mv(ctx, g):
    a, v = ctx.args[:2]
    return (g.unsqueeze(1) * _c(v).unsqueeze(0)), (_c(a).mT @ g)


def dot(ctx, g):
    a, b = ctx.args[:2]
    return g * _c(b), g * _c(a)


def vdot(ctx, g):
    a, b = ctx.args[:2]
    return g.conj() * b if g.dtype.is_complex else g * b, g * a


def _beta_alpha(ctx):
    return ctx.kwargs.get("beta", 1), ctx.kwargs.get("alpha", 1)


def addmm(ctx, g):
    _, m1, m2 = ctx.args[:3]
    beta, alpha = _beta_alpha(ctx)
    gi = (g * beta if beta != 1 else g) if ctx.needs(0) else None
    g1 = (g @ _c(m2).mT) * alpha if ctx.needs(1) else None
    g2 = (_c(m1).mT @ g) * alpha if ctx.needs(2) else None
    return gi, g1, g2


def addmv(ctx, g):
    _, m, v = ctx.args[:3]
    beta, alpha = _beta_alpha(ctx)
    return g * beta, g.unsqueeze(1) * _c(v).unsqueeze(0) * alpha, (_c(m).mT @ g) * alpha


def baddbmm(ctx, g):
    _, b1, b2 = ctx.args[:3]
    beta, alpha = _beta_alpha(ctx)
    return g * beta, (g @ _c(b2).mT) * alpha, (_c(b1).mT @ g) * alpha


# ---- views and copies ----------------------------------------------------------------------

def reshape_back(ctx, g):
    return (g.reshape(_arg(ctx, 0, "input").shape),)


def transpose(ctx, g):
    d0 = _arg(ctx, 1, "dim0")
    d1 = _arg(ctx, 2, "dim1")
    return (g.transpose(d0, d1),)


def t(ctx, g):
    return (g.t(),)


def T(ctx, g):
    return (g.permute(list(range(g.dim()))[::-1]),)


def mT(ctx, g):
    return (g.mT,)


def permute(ctx, g):
    dims = ctx.args[1:] if len(ctx.args) > 1 else ctx.kwargs.get("dims")
    if len(dims) == 1 and isinstance(dims[0], (list, tuple)):
        dims = dims[0]
    nd = g.dim()
    inv = [0] * nd
    for i, d in enumerate(dims):
        inv[d % nd] = i
    return (g.permute(inv),)


def expand(ctx, g):
    return (g,)                          # the recorder sums g back to the input's shape


def narrow(ctx, g):
    x = _arg(ctx, 0, "input")  # its shape only
    dim, start = _arg(ctx, 1, "dim"), _arg(ctx, 2, "start")
    length = _arg(ctx, 3, "length")
    if _is_t(start):
        start = int(start)
    gi = g.new_zeros(x.shape)
    gi.narrow(dim, start, length).copy_(g)
    return (gi,)


def select(ctx, g):
    x = _arg(ctx, 0, "input")  # its shape only
    dim, index = _arg(ctx, 1, "dim"), _arg(ctx, 2, "index")
    gi = g.new_zeros(x.shape)
    gi.select(dim, index).copy_(g)
    return (gi,)


def _basic_key(key):
    items = key if isinstance(key, tuple) else (key,)
    return all(k is None or k is Ellipsis or isinstance(k, (int, slice)) and not isinstance(k, bool)
               for k in items)


def getitem(ctx, g):
    x, key = _arg(ctx, 0, "input"), _arg(ctx, 1, "key")
    gi = g.new_zeros(x.shape)
    if _basic_key(key):
        gi[key] = g
        return (gi,)
    # advanced indexing may pick an element twice: add through the flat positions picked
    pos = _C.arange(x.numel()).reshape(x.shape)[key]
    gi.view(-1).index_add_(0, pos.reshape(-1), g.reshape(-1))
    return (gi,)


def setitem(ctx, g):
    _, key, value = ctx.args[:3]
    gs = g.clone()
    gs[key] = 0
    gv = g[key] if _is_t(value) else None
    return gs, None, gv


def cat(ctx, g):
    tensors = _arg(ctx, 0, "tensors")  # their shapes only
    dim = _arg(ctx, 1, "dim", 0)
    grads, start = [], 0
    ref = next(t for t in tensors if t.dim() > 0 or t.numel() > 0)
    dim = dim % ref.dim() if ref.dim() else 0
    for t in tensors:
        if t.dim() == 1 and t.numel() == 0 and ref.dim() != 1:
            grads.append(None)
            continue
        n = t.shape[dim]
        grads.append(g.narrow(dim, start, n))
        start += n
    return (grads,)


def unfold(ctx, g):
    x = _arg(ctx, 0, "input")  # its shape only
    dim, size, step = _arg(ctx, 1, "dimension"), _arg(ctx, 2, "size"), _arg(ctx, 3, "step")
    gi = g.new_zeros(x.shape)
    # add each window back: positions of window w along dim are w*step .. w*step+size-1
    pos = _C.arange(x.numel()).reshape(x.shape).unfold(dim, size, step)
    gi.view(-1).index_add_(0, pos.reshape(-1), g.reshape(-1))
    return (gi,)


def cumprod(ctx, g):
    x = ctx.args[0]
    dim = _arg(ctx, 1, "dim")
    # d out_j / d x_i = out_j / x_i for j >= i (x without zeros)
    return ((g * ctx.out).flip([dim]).cumsum(dim).flip([dim]) / x,)
