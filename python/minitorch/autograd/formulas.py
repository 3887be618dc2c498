"""Derivative formulas, one per op: formulas.<name>(ctx, grad) -> gradients of the op's
positional arguments (see Note [Formulas] in _record.py).  The op table's `grad` slot names
the formula of each op (_op_table.py); EXTRA names those of the operators and properties that
are not rows of the table.  Formulas are written with same-shape operands: the recorder sums
each gradient down to its input's broadcast shape.

Formulas compute with ops that are themselves recorded (methods, out of place), so that with
create_graph=True their results have a history too.  ctx.args / ctx.saved() read tensors
whose values a formula needs (checked against in-place writes since the op); _arg() reads
numbers, flags, and tensors of which only the shape is used."""
import builtins
import math
import sys

from .. import _C

EXTRA = {"__getitem__": "getitem", "__setitem__": "setitem", "T": "T", "mT": "mT"}


def _is_t(x):
    return isinstance(x, _C.TensorBase)


def _c(x):
    """The conjugate of complex tensors and numbers (the gradient convention of torch), else
    x itself."""
    if _is_t(x):
        return x.conj() if x.dtype.is_complex else x
    return x.conjugate() if isinstance(x, complex) else x


def _mt():
    """The minitorch package (for the few function-only ops formulas call)."""
    return sys.modules["minitorch"]


def _dim_list(dim, ndim):
    if dim is None or (isinstance(dim, (list, tuple)) and len(dim) == 0):
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


def _scatter_flat(g, shape, positions):
    """Zeros of `shape` plus g added at the flat positions (a tensor of g's shape, or any
    shape with g's number of elements): the gradient of reading those positions."""
    return g.new_zeros(_numel(shape)).index_add(0, positions.reshape(-1), g.reshape(-1)).reshape(shape)


def _positions(shape):
    """The flat position of each element of a contiguous tensor of `shape`."""
    return _C.arange(_numel(shape)).reshape(shape)


def _to_src(gs, src):
    """The gradient of a scattered src, read back at the index (of the index's shape): zeros
    added for the elements of src past the index's extent, which are not used."""
    if gs.shape == src.shape:
        return gs
    r = gs.new_zeros(src.shape)
    r[tuple(slice(0, n) for n in gs.shape)] = gs
    return r


def _numel(shape):
    n = 1
    for s in shape:
        n *= s
    return n


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


def conj(ctx, g):
    return (_c(g),)


def abs(ctx, g):
    return (g * ctx.args[0].sgn(),)


def sgn(ctx, g):
    """Zero for real inputs; for complex z, (g - Re(g conj(sgn z)) sgn z) / |z| (zero at 0)."""
    x = ctx.args[0]
    if not x.dtype.is_complex:
        return (g * 0,)
    s = ctx.out
    a = x.abs()
    r = (g - (g * s.conj()).real * s) / a
    return (r.masked_fill(a == 0, 0),)


def angle(ctx, g):
    """Zero for real inputs; for complex z, g * i z / |z|^2 (zero at 0)."""
    x = ctx.args[0]
    if not x.dtype.is_complex:
        return (g * 0,)
    a2 = x.abs().square()
    return ((g * x * 1j / a2).masked_fill(a2 == 0, 0),)


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
        else:  # a number: as for a tensor base (0 ** e: -inf for e < 0, else 0; a < 0: NaN)
            la = math.log(a) if a > 0 else (-math.inf if a == 0 else math.nan)
            gb = g * out * la
            if a == 0:
                gb = gb.masked_fill(e >= 0, 0)
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


def softmax(ctx, g):
    """y * (g - sum(g * y)) along dim, y the softmax."""
    y, dim = ctx.out, _arg(ctx, 1, "dim")
    return (y * (g - (g * y).sum(dim, keepdim=True)),)


def log_softmax(ctx, g):
    """g - exp(y) * sum(g) along dim, y the log-softmax."""
    y, dim = ctx.out, _arg(ctx, 1, "dim")
    return (g - y.exp() * g.sum(dim, keepdim=True),)


def relu(ctx, g):
    return (g.masked_fill(ctx.out <= 0, 0),)  # 0 where the result is 0, even for a NaN g


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


def sinc(ctx, g):
    """(cos(pi x) - sinc(x)) / x, zero at x = 0."""
    x = ctx.args[0]
    d = ((math.pi * x).cos() - ctx.out) / x
    return ((g * d).masked_fill(x == 0, 0),)


def deg2rad(ctx, g):
    return (g * (math.pi / 180),)


def rad2deg(ctx, g):
    return (g * (180 / math.pi),)


def _digamma(x):
    """psi(x) = d lgamma(x) / dx: the recurrence psi(y) = psi(y + 6) - sum 1/(y + k), then
    the asymptotic series at y + 6; x < 0.5 by reflection, psi(1 - x) - pi / tan(pi x)."""
    refl = x < 0.5
    y = (1 - x).where(refl, x)
    acc = 1 / y
    for k in range(1, 6):
        acc = acc + 1 / (y + k)
    z = y + 6
    z2 = 1 / (z * z)
    psi = z.log() - 0.5 / z - z2 * (1 / 12 - z2 * (1 / 120 - z2 * (1 / 252 - z2 * (
        1 / 240 - z2 / 132)))) - acc
    return (psi - math.pi / (math.pi * x).tan()).where(refl, psi)


def lgamma(ctx, g):
    return (g * _digamma(ctx.args[0]),)


def atan2(ctx, g):
    a, b = ctx.args[:2]
    d = a * a + b * b
    return g * b / d, -g * a / d


def hypot(ctx, g):
    a, b = ctx.args[:2]
    return g * a / ctx.out, g * b / ctx.out


def copysign(ctx, g):
    """|a| with b's sign: g * out / a for a (zero at a = 0); none for b (a step)."""
    a, b = ctx.args[:2]
    ga = (g * ctx.out / a).masked_fill(a == 0, 0)
    return ga, (g * 0 if _is_t(b) else None)


def logaddexp(ctx, g):
    a, b = ctx.args[:2]
    return g * (a - ctx.out).exp(), g * (b - ctx.out).exp()


def logaddexp2(ctx, g):
    a, b = ctx.args[:2]
    return g * (a - ctx.out).exp2(), g * (b - ctx.out).exp2()


def _pick(a, b, g, better):
    """maximum/minimum: the gradient goes to the chosen operand, split evenly on ties."""
    wa = better(a, b).to(g.dtype) + (a == b).to(g.dtype) * 0.5
    return g * wa, g * (1 - wa)


def maximum(ctx, g):
    return _pick(*ctx.args[:2], g, lambda a, b: a > b)


def minimum(ctx, g):
    return _pick(*ctx.args[:2], g, lambda a, b: a < b)


def fmax(ctx, g):
    a, b = ctx.args[:2]
    wa = ((a >= b) | b.isnan()).to(g.dtype)
    return g * wa, g * (1 - wa)


def fmin(ctx, g):
    a, b = ctx.args[:2]
    wa = ((a <= b) | b.isnan()).to(g.dtype)
    return g * wa, g * (1 - wa)


def _clamp_grads(ctx, g, lo, hi):
    """clamp(x, lo, hi) = min(max(x, lo), hi), either bound None or a number or a tensor: x
    takes the gradient where it lies strictly between the bounds; a tensor bound where x is
    beyond it, split evenly with x where they are equal (as maximum/minimum); where lo > hi,
    hi takes it."""
    x = ctx.saved(0, "input")
    gx, glo, ghi, m = g, None, None, x
    if lo is not None:
        m = x.clamp(min=lo)
        tie = (x == lo) * 0.5 if _is_t(lo) else 0
        gx = g * ((x > lo) + tie)
        if _is_t(lo):
            glo = g * ((x < lo) + tie)
    if hi is not None:
        tie = (m == hi) * 0.5 if _is_t(hi) else 0
        to_m = (m < hi) + tie
        gx = gx * to_m
        if glo is not None:
            glo = glo * to_m
        if _is_t(hi):
            ghi = g * ((m > hi) + tie)
    return gx, glo, ghi


def clamp(ctx, g):
    lo, hi = ctx.saved(1, "min"), ctx.saved(2, "max")
    gx, glo, ghi = _clamp_grads(ctx, g, lo, hi)
    return {0: gx, 1: glo, "min": glo, 2: ghi, "max": ghi}


def clamp_min(ctx, g):
    gx, glo, _ = _clamp_grads(ctx, g, ctx.saved(1, "min"), None)
    return {0: gx, 1: glo, "min": glo}


def clamp_max(ctx, g):
    gx, _, ghi = _clamp_grads(ctx, g, None, ctx.saved(1, "max"))
    return {0: gx, 1: ghi, "max": ghi}


def lerp(ctx, g):
    """input + weight * (end - input)."""
    x, end, w = ctx.saved(0), ctx.saved(1, "end"), ctx.saved(2, "weight")
    gx = g * _c(1 - w)
    ge = g * _c(w)
    gw = g * _c(end - x) if _is_t(w) else None
    return {0: gx, 1: ge, "end": ge, 2: gw, "weight": gw}


def nan_to_num(ctx, g):
    return (g * ctx.args[0].isfinite(),)


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
    """where(cond, a, b), or the method a.where(cond, b): g goes to the operand chosen."""
    args = ctx.args[:3]
    function_form = _is_t(args[0]) and args[0].dtype == _C.bool
    if function_form:
        cond, a, b = args
    else:
        a, cond, b = args
    ga = g.masked_fill(cond.logical_not(), 0) if _is_t(a) else None
    gb = g.masked_fill(cond, 0) if _is_t(b) else None
    return (None, ga, gb) if function_form else (ga, None, gb)


def masked_fill(ctx, g):
    mask, value = ctx.args[1], ctx.args[2]
    gv = g.masked_fill(mask.logical_not(), 0).sum() if _is_t(value) else None
    return g.masked_fill(mask, 0), None, gv


def copy_(ctx, g):
    return g * 0, g


def fill_(ctx, g):
    v = ctx.args[1]
    return g * 0, (g.sum() if _is_t(v) else None)


# ---- complex views -------------------------------------------------------------------------

def real(ctx, g):
    return (g,)                          # made complex (g + 0i) by the recorder


def imag(ctx, g):
    return (g * 1j,)


def view_as_real(ctx, g):
    return (_mt().view_as_complex(g.contiguous()),)


def view_as_complex(ctx, g):
    return (_mt().view_as_real(g),)


# ---- reductions ----------------------------------------------------------------------------

def sum(ctx, g):
    x = _arg(ctx, 0, "input")  # its shape only
    dim = _arg(ctx, 1, "dim")
    keepdim = _arg(ctx, 2, "keepdim", False)
    return (_expand_back(g, x.shape, dim, keepdim),)


def _amax_like(ctx, g):
    """g split evenly among the elements equal to the result."""
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


def _max_min(ctx, g, pick):
    """max(x): g split evenly among the maxima; max(x, dim): g to the index returned (as
    torch); max(x, other): as maximum."""
    x = ctx.saved(0, "input")
    if ctx.multi:
        return (_values_back(x, g[0], _arg(ctx, 1, "dim"), ctx.out[1],
                             _arg(ctx, 2, "keepdim", False)),)
    other = ctx.saved(1, "other")
    if _is_t(other):                     # max(x, other), also given as max(x, dim=other)
        gx, go = _pick(x, other, g, pick)
        return {0: gx, 1: go, "other": go}
    return (_evenly(g, x, ctx.out),)


def max(ctx, g):
    return _max_min(ctx, g, lambda a, b: a > b)


def min(ctx, g):
    return _max_min(ctx, g, lambda a, b: a < b)


def _std_back(ctx, g):
    """The gradient of std: g (x - mean) / (std (n - correction)), zero where std is 0."""
    from .._reductions import _correction, _numel_reduced
    x = ctx.saved(0, "input")
    dim, unbiased = _arg(ctx, 1, "dim"), _arg(ctx, 2, "unbiased")
    keepdim, correction = _arg(ctx, 3, "keepdim", False), ctx.kwargs.get("correction")
    if isinstance(dim, bool):            # std(x, unbiased)
        dim, unbiased = None, dim
    n = _numel_reduced(x, dim) - _correction(unbiased, correction)
    std = _expand_back(ctx.out[0] if ctx.multi else ctx.out, x.shape, dim, keepdim)
    d = x - x.mean(_dim_list(dim, x.dim()), keepdim=True)
    r = _expand_back(g, x.shape, dim, keepdim) * d / (std * n)
    return r.masked_fill(std == 0, 0), dim, keepdim


def std(ctx, g):
    return (_std_back(ctx, g)[0],)


def std_mean(ctx, g):
    gs, dim, keepdim = _std_back(ctx, g[0])
    x = _arg(ctx, 0, "input")
    from .._reductions import _numel_reduced
    return (gs + _expand_back(g[1], x.shape, dim, keepdim) / _numel_reduced(x, dim),)


def _evenly(g, x, out):
    """g split evenly among the elements of x equal to the 0-d result out (NaN: the NaNs)."""
    mask = (x == out) | (x.isnan() & out.isnan())
    return g * mask / mask.sum()


def _exclusive_prod(x, dim):
    """For each element, the product of the others along dim, without dividing (so zeros are
    fine): the products before it times the products after it."""
    n = x.shape[dim]
    if n <= 1:
        return x.new_ones(x.shape)
    shape = list(x.shape)
    shape[dim] = 1
    one = x.new_ones(shape)
    before = _C.cat([one, x.narrow(dim, 0, n - 1)], dim).cumprod(dim)
    after = _C.cat([one, x.flip([dim]).narrow(dim, 0, n - 1)], dim).cumprod(dim).flip([dim])
    return before * after


def prod(ctx, g):
    x = ctx.args[0]
    dim = _arg(ctx, 1, "dim")
    keepdim = _arg(ctx, 2, "keepdim", False)
    if x.dim() == 0:
        return (g,)
    if dim is None:
        return (g * _exclusive_prod(x.reshape(-1), 0).reshape(x.shape),)
    return (_expand_back(g, x.shape, dim, keepdim) * _exclusive_prod(x, dim),)


def cumsum(ctx, g):
    dim = _arg(ctx, 1, "dim")
    return (g.flip([dim]).cumsum(dim).flip([dim]),)


def cumprod(ctx, g):
    """d out_j / d x_i = prod of x_k, k <= j, k != i (j >= i): out_j / x_i without zeros;
    with zeros, one cumprod per position i with x_i set to 1."""
    x = ctx.args[0]
    dim = _arg(ctx, 1, "dim")
    if x.dim() == 0:
        return (g,)
    if not bool((x == 0).any()):
        return ((g * ctx.out).flip([dim]).cumsum(dim).flip([dim]) / _c(x),)
    n = x.shape[dim]
    parts = []
    for i in range(n):
        others = x.index_fill(dim, _C.tensor([i]), 1).cumprod(dim)
        parts.append((g * _c(others)).narrow(dim, i, n - i).sum(dim, keepdim=True))
    return (_C.cat(parts, dim),)


def logcumsumexp(ctx, g):
    """d out_j / d x_i = exp(x_i - out_j) for j >= i; the sums over j are taken in log
    space, separately for the positive and the negative parts of g, so nothing overflows."""
    x, out = ctx.args[0], ctx.out
    dim = _arg(ctx, 1, "dim")

    def reverse_lcse(t):
        return t.flip([dim]).logcumsumexp(dim).flip([dim])
    lg = g.abs().log() - out
    pos = reverse_lcse(lg.masked_fill(g <= 0, -math.inf))
    neg = reverse_lcse(lg.masked_fill(g >= 0, -math.inf))
    return ((x + pos).exp() - (x + neg).exp(),)


def norm(ctx, g):
    """The vector p-norm's: g x |x|^(p-2) / norm^(p-1) (zero where the norm is 0); p = inf:
    g split evenly among the elements of largest modulus."""
    x = ctx.args[0]
    p = _arg(ctx, 1, "p", "fro")
    dim = _arg(ctx, 2, "dim")
    keepdim = _arg(ctx, 3, "keepdim", False)
    if p == "fro" or p is None:
        p = 2
    out = _expand_back(ctx.out, x.shape, dim, keepdim)
    g = _expand_back(g, x.shape, dim, keepdim)
    if p == 0:
        return (g * 0,)
    if p == 1:
        return (g * x.sgn(),)
    if p in (math.inf, -math.inf):
        mask = (x.abs() == out).to(g.dtype)
        count = mask.sum(_dim_list(dim, x.dim()), keepdim=True) if x.dim() else mask
        return (g * x.sgn() * mask / count,)
    if p == 2:
        r = g * x / out
    else:
        r = g * x * x.abs().pow(p - 2) / out.pow(p - 1)
    return (r.masked_fill(out == 0, 0),)


# ---- values picked by index: sorting, order statistics, gather -----------------------------

def _values_back(x, g, dim, index, keepdim=True):
    """The gradient of values read from x along dim at `index` (sort, topk, kthvalue, mode,
    median, cummax): g added back at those positions."""
    if x.dim() == 0:
        return g.reshape(())
    if not keepdim:
        g, index = g.unsqueeze(dim), index.unsqueeze(dim)
    return g.new_zeros(x.shape).scatter_add(dim, index, g)


def sort(ctx, g):
    x = _arg(ctx, 0, "input")
    return (_values_back(x, g[0], _arg(ctx, 1, "dim", -1), ctx.out[1]),)


def topk(ctx, g):
    x = _arg(ctx, 0, "input")
    return (_values_back(x, g[0], _arg(ctx, 2, "dim", -1), ctx.out[1]),)


def kthvalue(ctx, g):
    x = _arg(ctx, 0, "input")
    return (_values_back(x, g[0], _arg(ctx, 2, "dim", -1), ctx.out[1],
                         _arg(ctx, 3, "keepdim", False)),)


def mode(ctx, g):
    x = _arg(ctx, 0, "input")
    return (_values_back(x, g[0], _arg(ctx, 1, "dim", -1), ctx.out[1],
                         _arg(ctx, 2, "keepdim", False)),)


def median(ctx, g):
    """Along a dim: g to the median's index; of everything: g split evenly among the
    elements equal to the median."""
    if not ctx.multi:
        return (_evenly(g, ctx.args[0], ctx.out),)
    x = _arg(ctx, 0, "input")
    return (_values_back(x, g[0], _arg(ctx, 1, "dim"), ctx.out[1],
                         _arg(ctx, 2, "keepdim", False)),)


def msort(ctx, g):
    x = ctx.args[0]
    return (_values_back(x, g, 0, x.sort(0).indices),)


def cummax(ctx, g):
    x = _arg(ctx, 0, "input")
    return (_values_back(x, g[0], _arg(ctx, 1, "dim"), ctx.out[1]),)


cummin = cummax


def gather(ctx, g):
    x = _arg(ctx, 0, "input")
    dim, index = _arg(ctx, 1, "dim"), ctx.saved(2, "index")
    return (g.new_zeros(x.shape).scatter_add(dim, index, g),)


def index_select(ctx, g):
    x = _arg(ctx, 0, "input")
    dim, index = _arg(ctx, 1, "dim"), ctx.saved(2, "index")
    if x.dim() == 0:
        return (g.sum(),)
    return (g.new_zeros(x.shape).index_add(dim, index.reshape(-1), g),)


def take(ctx, g):
    x = _arg(ctx, 0, "input")
    index = ctx.saved(1, "index")
    n = x.numel()
    if n == 0:
        return (g.new_zeros(x.shape),)
    return (_scatter_flat(g, x.shape, index.remainder(n)),)


def scatter(ctx, g):
    if ctx.kwargs.get("reduce") is not None:
        raise NotImplementedError("the derivative for 'scatter' with reduce is not implemented")
    dim, index = _arg(ctx, 1, "dim"), ctx.saved(2, "index")
    src = _arg(ctx, 3, "src")
    gs = _to_src(g.gather(dim, index), src) if _is_t(src) else None
    return {0: g.scatter(dim, index, 0), 3: gs, "src": gs}


def scatter_add(ctx, g):
    dim, index = _arg(ctx, 1, "dim"), ctx.saved(2, "index")
    gs = _to_src(g.gather(dim, index), _arg(ctx, 3, "src"))
    return {0: g, 3: gs, "src": gs}


def scatter_reduce(ctx, g):
    """self's elements and the src scattered onto them reduced together: sum and mean pass
    g (divided by the count) through; prod gives each contribution the product of the
    others; amax/amin split g evenly among the contributions equal to the result.  Without
    include_self, self counts only where no index points."""
    x = ctx.saved(0, "input")
    dim, index, src = _arg(ctx, 1, "dim"), ctx.saved(2, "index"), ctx.saved(3, "src")
    reduce = _arg(ctx, 4, "reduce")
    include_self = ctx.kwargs.get("include_self", True)
    out = ctx.out
    if src.shape != index.shape:
        src = src[tuple(slice(0, n) for n in index.shape)]
    hit = _C.zeros(x.shape, dtype=_C.bool).scatter_(dim, index, True)   # some index points here
    from_x = hit.logical_not() if not include_self else None      # where x contributes

    def only_x(t):
        return t if from_x is None else t * from_x
    if reduce == "sum":
        gx, gs = only_x(g), g.gather(dim, index)
    elif reduce == "mean":
        n = g.new_zeros(x.shape).scatter_add(dim, index, g.new_ones(index.shape))
        n = n + 1 if include_self else n.masked_fill(n == 0, 1)
        gn = g / n
        gx, gs = only_x(gn), gn.gather(dim, index)
    elif reduce in ("amax", "amin"):
        at_x = only_x(x == out)
        at_src = src == out.gather(dim, index)
        count = at_x.to(g.dtype).scatter_add(dim, index, at_src.to(g.dtype))
        gc = g / count
        gx, gs = gc * at_x, gc.gather(dim, index) * at_src
    elif reduce == "prod":
        xc = x if include_self else x.masked_fill(hit, 1)            # x as 1 where it is not used
        zx, zs = xc == 0, src == 0
        nzeros = zx.to(_C.int64).scatter_add(dim, index, zs.to(_C.int64))
        nzprod = xc.masked_fill(zx, 1).scatter_reduce(dim, index, src.masked_fill(zs, 1), "prod")

        def others(c, zc, p, z):
            """The product of the contributions other than c (p: of the non-zero ones, z: how
            many are zero)."""
            return (p * (z == 1)).where(zc, p / c.masked_fill(zc, 1) * (z == 0))
        gx = only_x(g * _c(others(xc, zx, nzprod, nzeros)))
        gs = g.gather(dim, index) * _c(others(src, zs, nzprod.gather(dim, index),
                                              nzeros.gather(dim, index)))
    else:
        raise NotImplementedError(f"the derivative for 'scatter_reduce' with reduce={reduce!r} "
                                  "is not implemented")
    gs = _to_src(gs, ctx.saved(3, "src"))
    return {0: gx, 3: gs, "src": gs}


def index_add(ctx, g):
    dim, index = _arg(ctx, 1, "dim"), ctx.saved(2, "index")
    alpha = ctx.kwargs.get("alpha", 1)
    gs = g.index_select(dim, index)
    return {0: g, 3: gs if alpha == 1 else gs * alpha, "source": gs}


def index_copy(ctx, g):
    dim, index = _arg(ctx, 1, "dim"), ctx.saved(2, "index")
    gs = g.index_select(dim, index)
    return {0: g.index_fill(dim, index, 0), 3: gs, "source": gs}


def index_fill(ctx, g):
    dim, index, value = _arg(ctx, 1, "dim"), ctx.saved(2, "index"), _arg(ctx, 3, "value")
    gv = g.index_select(dim, index).sum() if _is_t(value) else None
    return {0: g.index_fill(dim, index, 0), 3: gv, "value": gv}


def index_put(ctx, g):
    indices = tuple(ctx.saved(1, "indices"))
    accumulate = _arg(ctx, 3, "accumulate", False)
    gv = g[indices]
    gx = g if accumulate else g.index_put(indices, g.new_zeros(()))
    return {0: gx, 2: gv, "values": gv}


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


def _times(t, k):
    """t * k, or t itself for k == 1 (no pass over t)."""
    return t if isinstance(k, (int, float)) and k == 1 else t * k


def addmm(ctx, g):
    m1, m2 = ctx.saved(1, "mat1"), ctx.saved(2, "mat2")
    beta, alpha = _beta_alpha(ctx)
    gi = _times(g, beta) if ctx.needs(0) else None
    g1 = _times(g @ _c(m2).mT, alpha) if ctx.needs(1) else None
    g2 = _times(_c(m1).mT @ g, alpha) if ctx.needs(2) else None
    return gi, g1, g2


def addmv(ctx, g):
    m, v = ctx.saved(1, "mat"), ctx.saved(2, "vec")
    beta, alpha = _beta_alpha(ctx)
    return g * beta, g.unsqueeze(1) * _c(v).unsqueeze(0) * alpha, (_c(m).mT @ g) * alpha


def baddbmm(ctx, g):
    b1, b2 = ctx.saved(1, "batch1"), ctx.saved(2, "batch2")
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
    dims = ctx._args[1:] if len(ctx._args) > 1 else ctx.kwargs.get("dims")
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
    start = int(start)
    if start < 0:
        start += x.shape[dim]
    gi = g.new_zeros(x.shape)
    gi[(slice(None),) * (dim % x.dim()) + (slice(start, start + length),)] = g
    return (gi,)


def select(ctx, g):
    x = _arg(ctx, 0, "input")  # its shape only
    dim, index = _arg(ctx, 1, "dim"), _arg(ctx, 2, "index")
    gi = g.new_zeros(x.shape)
    gi[(slice(None),) * (dim % x.dim()) + (index,)] = g
    return (gi,)


def _basic_key(key):
    items = key if isinstance(key, tuple) else (key,)
    return all(k is None or k is Ellipsis or isinstance(k, (int, slice)) and not isinstance(k, bool)
               for k in items)


def getitem(ctx, g):
    x, key = _arg(ctx, 0, "input"), _arg(ctx, 1, "key")
    if _basic_key(key):
        gi = g.new_zeros(x.shape)
        gi[key] = g
        return (gi,)
    # advanced indexing may pick an element twice: add through the flat positions picked
    return (_scatter_flat(g, x.shape, _positions(x.shape)[key]),)


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
    """Each window's gradient added back to the elements it covers (windows may overlap)."""
    x = _arg(ctx, 0, "input")  # its shape only
    dim, size, step = _arg(ctx, 1, "dimension"), _arg(ctx, 2, "size"), _arg(ctx, 3, "step")
    if x.dim() == 0:
        return (g.reshape(()),)
    return (_scatter_flat(g, x.shape, _positions(x.shape).unfold(dim, size, step)),)


def _extent(shape, stride, offset):
    """One past the last storage position a strided layout reaches (offset when empty)."""
    if any(n == 0 for n in shape):
        return offset
    return offset + 1 + builtins.sum((n - 1) * s for n, s in zip(shape, stride))


def as_strided(ctx, g):
    """Each element of the result is the input element at the same storage position: its
    gradient goes there (added up where the result repeats a position)."""
    x = _arg(ctx, 0, "input")  # its layout only
    size, stride = _arg(ctx, 1, "size"), _arg(ctx, 2, "stride")
    offset = _arg(ctx, 3, "storage_offset")
    if offset is None:
        offset = x.storage_offset()
    n = builtins.max(_extent(x.shape, x.stride(), x.storage_offset()), _extent(size, stride, offset))
    storage = _C.arange(n)
    owner = _C.full((n,), -1, dtype=_C.int64)     # storage position -> input element
    owner[storage.as_strided(x.shape, x.stride(), x.storage_offset()).reshape(-1)] = \
        _C.arange(x.numel())
    src = owner[storage.as_strided(size, stride, offset).reshape(-1)]
    gflat = g.reshape(-1)
    inside = src >= 0
    if not bool(inside.all()):          # positions outside the input's elements: no gradient
        src, gflat = src[inside], gflat[inside]
    return (_scatter_flat(gflat, x.shape, src),)


def _diagonal_back(g, shape, offset, dim1, dim2):
    """Zeros of `shape` with g on its offset diagonal of (dim1, dim2)."""
    return _scatter_flat(g, shape, _positions(shape).diagonal(offset, dim1, dim2))


def diag(ctx, g):
    x = _arg(ctx, 0, "input")
    k = _arg(ctx, 1, "diagonal", 0)
    if x.dim() == 1:
        return (g.diagonal(k),)
    return (_diagonal_back(g, x.shape, k, 0, 1),)


def diagflat(ctx, g):
    x = _arg(ctx, 0, "input")
    return (g.diagonal(_arg(ctx, 1, "offset", 0)).reshape(x.shape),)


def diag_embed(ctx, g):
    return (g.diagonal(_arg(ctx, 1, "offset", 0), _arg(ctx, 2, "dim1", -2),
                       _arg(ctx, 3, "dim2", -1)),)


def tril(ctx, g):
    return (g.tril(_arg(ctx, 1, "diagonal", 0)),)


def triu(ctx, g):
    return (g.triu(_arg(ctx, 1, "diagonal", 0)),)


def flip(ctx, g):
    return (g.flip(_arg(ctx, 1, "dims")),)


def fliplr(ctx, g):
    return (g.fliplr(),)


def flipud(ctx, g):
    return (g.flipud(),)


def rot90(ctx, g):
    return (g.rot90(-_arg(ctx, 1, "k", 1), _arg(ctx, 2, "dims", (0, 1))),)



# ---- spatial: convolution, pooling, upsampling ----------------------------------------------
# (the ops of _convolution.py, _pooling.py and _upsampling.py: each linear kernel's backward is
# itself a recorded op whose derivative is the forward kernel again, so derivatives of every
# order are recorded ops)

def _conv_args(ctx):
    """(stride, padding, dilation, transposed, output_padding, groups) of convolution or
    _convolution_backward (their positions 3 to 8)."""
    return [_arg(ctx, i, n) for i, n in ((3, "stride"), (4, "padding"), (5, "dilation"),
                                         (6, "transposed"), (7, "output_padding"),
                                         (8, "groups"))]


def _tuple_n(v, n):
    if isinstance(v, (list, tuple)):
        return tuple(v) if len(v) != 1 else tuple(v) * n
    return (v,) * n


class _Conv:
    """One convolution's arguments and its plain convolution (Note [Transposed convolution] in
    aten_lite/conv.c): fwd, the plain forward, bin, the plain input gradient, and bw, the
    plain weight gradient, each a recorded op."""

    def __init__(self, w, stride, padding, dilation, transposed, output_padding, groups):
        n = w.dim() - 2
        self.n, self.k = n, tuple(w.shape[2:])
        self.s, self.p = _tuple_n(stride, n), _tuple_n(padding, n)
        self.d, self.op = _tuple_n(dilation, n), _tuple_n(output_padding, n)
        self.tr, self.groups = bool(transposed), groups
        self.w = w

    def fwd(self, a, w, size):
        """The plain convolution of a (the plain input's shape) with w, cut to `size`."""
        y = _mt().convolution(a, w, None, self.s, self.p, self.d, False, (0,) * self.n,
                              self.groups)
        for i, m in enumerate(size):
            if y.shape[2 + i] != m:
                y = y.narrow(2 + i, 0, m)
        return y

    def bin(self, b, w, size):
        """The plain input gradient of b (the plain output's shape) with w, of `size`."""
        op = tuple(m - ((b.shape[2 + i] - 1) * self.s[i] - 2 * self.p[i] +
                        self.d[i] * (self.k[i] - 1) + 1) for i, m in enumerate(size))
        return _mt().convolution(b, w, None, self.s, self.p, self.d, True, op, self.groups)

    def bw(self, plain_x, plain_gy):
        """The plain weight gradient of the plain input plain_x and output gradient plain_gy."""
        go, inp = (plain_gy, plain_x) if not self.tr else (plain_x, plain_gy)
        return _mt()._convolution_backward(go, inp, self.w, self.s, self.p, self.d, self.tr,
                                           self.op, self.groups, (False, True, False))[1]


def convolution(ctx, g):
    x, w = ctx.saved(0, "input"), ctx.saved(1, "weight")
    mask = (ctx.needs(0), ctx.needs(1), ctx.needs(2))
    gx, gw, gb = _mt()._convolution_backward(g, x, w, *_conv_args(ctx), mask)
    return gx, gw, gb


def _convolution_backward(ctx, grads):
    """Second derivatives of convolution (see _Conv): the gradients of grad_input, grad_weight
    and grad_bias with respect to grad_output, input and weight."""
    ggx, ggw, ggb = grads
    g, x, w = ctx.saved(0, "grad_output"), ctx.saved(1, "input"), ctx.saved(2, "weight")
    c = _Conv(w, *_conv_args(ctx))
    gsize, xsize = tuple(g.shape[2:]), tuple(x.shape[2:])
    d_g = d_x = d_w = None
    if ctx.needs(0):
        terms = []
        if ggx is not None:
            terms.append(c.fwd(ggx, w, gsize) if not c.tr else c.bin(ggx, w, gsize))
        if ggw is not None:
            terms.append(c.fwd(x, ggw, gsize) if not c.tr else c.bin(x, ggw, gsize))
        if ggb is not None:
            terms.append(ggb.reshape((1, -1) + (1,) * c.n).expand(g.shape))
        for t_ in terms:
            d_g = t_ if d_g is None else d_g + t_
    if ctx.needs(1) and ggw is not None:
        d_x = c.bin(g, ggw, xsize) if not c.tr else c.fwd(g, ggw, xsize)
    if ctx.needs(2) and ggx is not None:
        d_w = c.bw(ggx, g) if not c.tr else c.bw(g, ggx)
    return d_g, d_x, d_w


def _gather_planes(gg, indices, nsp):
    """gg (the pooled input's shape) read at the max-pooling indices (flat positions within
    each plane of nsp dims; -1 for a window that held no element: 0 there)."""
    flat = gg.flatten(-nsp) if gg.dim() > nsp else gg.reshape(-1)
    at = indices.clamp_min(0)
    r = flat.gather(-1, at.flatten(-nsp) if at.dim() > nsp else at.reshape(-1))
    return r.reshape(indices.shape).masked_fill(indices < 0, 0)


def _pool_args(ctx, first, names, defaults):
    return [_arg(ctx, first + i, n, d) for i, (n, d) in enumerate(zip(names, defaults))]


_MAXP = (("kernel_size", "stride", "padding", "dilation", "ceil_mode"),
         (None, None, 0, 1, False))
_AVGP = (("kernel_size", "stride", "padding", "ceil_mode", "count_include_pad",
          "divisor_override"), (None, None, 0, False, True, None))


def _max_pool3d_with_indices(ctx, grads):
    x, indices = _arg(ctx, 0, "input"), ctx.out[1]
    return (_mt()._max_pool3d_backward(grads[0], x, indices, *_pool_args(ctx, 1, *_MAXP)),)


def _max_pool3d_backward(ctx, gg):
    return (_gather_planes(gg, ctx.saved(2, "indices"), 3),)


def _avg_pool3d(ctx, g):
    return (_mt()._avg_pool3d_backward(g, _arg(ctx, 0, "input"), *_pool_args(ctx, 1, *_AVGP)),)


def _avg_pool3d_backward(ctx, gg):
    return (_mt()._avg_pool3d(gg, *_pool_args(ctx, 2, *_AVGP)),)


def _adaptive_avg_pool3d(ctx, g):
    return (_mt()._adaptive_avg_pool3d_backward(g, _arg(ctx, 0, "input")),)


def _adaptive_avg_pool3d_backward(ctx, gg):
    return (_mt()._adaptive_avg_pool3d(gg, tuple(_arg(ctx, 0, "grad_output").shape[-3:])),)


def _adaptive_max_pool3d(ctx, grads):
    x, indices = _arg(ctx, 0, "input"), ctx.out[1]
    return (_mt()._adaptive_max_pool3d_backward(grads[0], x, indices),)


def _adaptive_max_pool3d_backward(ctx, gg):
    return (_gather_planes(gg, ctx.saved(2, "indices"), 3),)


_UPS = (("output_size", "mode", "align_corners", "scales", "antialias"),
        (None, None, False, None, False))


def _upsample(ctx, g):
    from .._formats import _channels_last_of, _in_format
    x = _arg(ctx, 0, "input")  # its shape and layout only
    gx = _mt()._upsample_backward(g, tuple(x.shape), *_pool_args(ctx, 1, *_UPS))
    return (_in_format(gx, _channels_last_of(x)),)


def _upsample_backward(ctx, gg):
    return (_mt()._upsample(gg, *_pool_args(ctx, 2, *_UPS)),)
