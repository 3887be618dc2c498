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


def _positions(shape, device=None):
    """The flat position of each element of a contiguous tensor of `shape` (on `device`)."""
    return _C.arange(_numel(shape), device=device).reshape(shape)


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

def zeros(ctx, g):
    return (g * 0,)


def identity(ctx, g):
    return (g,)


def conj(ctx, g):
    return (_c(g),)


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


def lgamma(ctx, g):
    """d lgamma(x) / dx = digamma(x) (the C kernel; its own derivative is polygamma(1, x))."""
    return (g * ctx.args[0].digamma(),)


def _pick(a, b, g, better):
    """maximum/minimum: the gradient goes to the chosen operand, split evenly on ties."""
    wa = better(a, b).to(g.dtype) + (a == b).to(g.dtype) * 0.5
    return g * wa, g * (1 - wa)


def _clamp_grads(ctx, g, lo, hi):
    """clamp(x, lo, hi). Number bounds: x takes the gradient where it lies strictly between
    them (zero at a bound, at NaN, and where the gradient is infinite outside). Tensor bounds:
    clamp is minimum(maximum(x, lo), hi) and its gradients are those of the two (split evenly
    on ties, NaN propagating to both operands, hi taking it where lo > hi)."""
    x = ctx.saved(0, "input")
    if not _is_t(lo) and not _is_t(hi):
        inside = None
        if lo is not None:
            inside = x > lo
        if hi is not None:
            inside = (x < hi) if inside is None else inside & (x < hi)
        return g.masked_fill(inside.logical_not(), 0), None, None
    gx, glo, ghi = g, None, None
    if hi is not None:
        m = x if lo is None else x.clamp(min=lo)
        split = (g / 2).where(m == hi, g)
        gx = split.masked_fill(m > hi, 0)
        if _is_t(hi):
            ghi = split.masked_fill(m < hi, 0)
    if lo is not None:
        split = (gx / 2).where(x == lo, gx)
        if _is_t(lo):
            glo = split.masked_fill(x > lo, 0)
        gx = split.masked_fill(x < lo, 0)
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


def _var_args(ctx):
    """(input, dim, keepdim, elements reduced, their count less the correction) of a recorded
    var/std/var_mean/std_mean call; (input, unbiased) is torch's older form."""
    from .._reductions import _correction, _numel_reduced
    x = ctx.saved(0, "input")
    dim, unbiased = _arg(ctx, 1, "dim"), _arg(ctx, 2, "unbiased")
    keepdim, correction = _arg(ctx, 3, "keepdim", False), ctx.kwargs.get("correction")
    if isinstance(dim, bool):
        dim, unbiased = None, dim
    n = _numel_reduced(x, dim)
    return x, dim, keepdim, n, n - _correction(unbiased, correction)


def _std_back(ctx, g):
    """The gradient of std: g (x - mean) / (std (n - correction)), zero where std is 0."""
    x, dim, keepdim, _, n = _var_args(ctx)
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
        return (g * _c(_exclusive_prod(x.reshape(-1), 0).reshape(x.shape)),)
    return (_expand_back(g, x.shape, dim, keepdim) * _c(_exclusive_prod(x, dim)),)


def cumprod(ctx, g):
    """d out_j / d x_i = prod of x_k, k <= j, k != i (j >= i): out_j / x_i without zeros;
    with zeros, one cumprod per position i with x_i set to 1."""
    x = ctx.args[0]
    dim = _arg(ctx, 1, "dim")
    if x.dim() == 0:
        return (g,)
    if not bool((x == 0).any()):
        return ((g * _c(ctx.out)).flip([dim]).cumsum(dim).flip([dim]) / _c(x),)
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
    if g.is_complex():  # no sign split: the complex logarithm of the conjugate gradient
        return ((reverse_lcse(_c(g).log() - out) + x).exp().conj(),)
    lg = g.abs().log() - out
    pos = reverse_lcse(lg.masked_fill(g <= 0, -math.inf))
    neg = reverse_lcse(lg.masked_fill(g >= 0, -math.inf))
    return ((x + pos).exp() - (x + neg).exp(),)


def linalg_vector_norm(ctx, g):
    """The vector p-norm's: g x |x|^(p-2) / norm^(p-1) (zero where the norm is 0); p = inf:
    g split evenly among the elements of largest modulus."""
    x = ctx.args[0]
    p = _arg(ctx, 1, "ord", 2)
    dim = _arg(ctx, 2, "dim")
    keepdim = _arg(ctx, 3, "keepdim", False)
    if _is_t(p):
        p = p.item()
    dtype = ctx.kwargs.get("dtype")
    if dtype is not None and x.dtype != dtype:
        x = x.to(dtype)
    out = _expand_back(_out(ctx, "linalg_vector_norm"), x.shape, dim, keepdim)
    g = _expand_back(g, x.shape, dim, keepdim)
    if p == 0:
        return (None,)  # the count of nonzeros has no gradient (torch leaves it undefined)
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
    hit = _C.zeros(x.shape, dtype=_C.bool, device=x.device).scatter_(dim, index, True)   # some index points here
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

        # the sum of the zero contributions: 0, but it differentiates to 1 in each of them
        zsum = xc.masked_fill(zx.logical_not(), 0).scatter_add(
            dim, index, src.masked_fill(zs.logical_not(), 0))

        def others(c, zc, p, z, o, t):
            """The product of the contributions other than c (p: of the non-zero ones, z: how
            many are zero, o: of all of them, the result, t: the sum of the zero ones): o / c
            for a non-zero c (which also differentiates right where another contribution is
            zero); for a zero c, p if it is the only zero, p times the other zero if there
            are two (0, differentiable in that zero), else 0."""
            return (p * ((z == 1) + (z == 2) * (t - c))).where(zc, o / c.masked_fill(zc, 1))
        gx = only_x(g * _c(others(xc, zx, nzprod, nzeros, out, zsum)))
        os = others(src, zs, nzprod.gather(dim, index), nzeros.gather(dim, index),
                    out.gather(dim, index), zsum.gather(dim, index))
        if _C.is_grad_enabled() and bool(
                zs.to(_C.int64).new_zeros(x.shape).scatter_add(dim, index, zs.to(_C.int64))
                .gt(1).any()):
            # two zeros of src at one place: the src gradient has no derivative in the inputs
            # (as torch; it stays linear in g, which forward-mode AD relies on)
            os = _C._functions.DelayedError(
                "scatter_reduce(): Double backward is unsupported for src when >1 zeros in src "
                "are scattered to the same position in self", 1)(os)
        gs = g.gather(dim, index) * _c(os)
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
    gv = None
    if _is_t(value):  # each filled position once, however often the index repeats it
        filled = g.new_zeros(g.shape, dtype=_mt().bool).index_fill(dim, index, True)
        gv = g.where(filled, 0).sum()
    return {0: g.index_fill(dim, index, 0), 3: gv, "value": gv}


def index_put(ctx, g):
    indices = tuple(ctx.saved(1, "indices"))
    accumulate = _arg(ctx, 3, "accumulate", False)
    gv = g[indices]
    gx = g if accumulate else g.index_put(indices, g.new_zeros(()))
    return {0: gx, 2: gv, "values": gv}


# ---- linear algebra ------------------------------------------------------------------------

def vdot(ctx, g):
    a, b = ctx.args[:2]
    return g.conj() * b if g.dtype.is_complex else g * b, g * a


# ---- views and copies ----------------------------------------------------------------------

def split_pieces(ctx, g):
    """split and split_with_sizes: the pieces' gradients joined along dim (zeros for pieces
    without one)."""
    return (_mt().cat(list(g), _arg(ctx, 2, "dim", 0)),)


def unbind(ctx, g):
    return (_mt().stack(list(g), _arg(ctx, 1, "dim", 0)),)


def T(ctx, g):
    return (g.permute(list(range(g.dim()))[::-1]),)


def mT(ctx, g):
    return (g.mT,)


def _basic_key(key):
    items = key if isinstance(key, tuple) else (key,)
    return all(k is None or k is Ellipsis or isinstance(k, (int, slice)) and not isinstance(k, bool)
               for k in items)


def getitem_node_name(x, key):
    """The name of the node x[key] records, as torch's: indexing applies one op per item of
    the key from left to right, and the node is the last one's: an integer selects
    (SelectBackward0), None unsqueezes (UnsqueezeBackward0), a slice slices (SliceBackward0;
    within a tuple a slice from 0 with step 1 reaching the end of its dimension is skipped),
    and a key with no op (Ellipsis, full slices) gives AliasBackward0. Any other tensor than a
    0-d integer one, a list or a bool makes the key an advanced index (IndexBackward0)."""
    items = key if isinstance(key, tuple) else (key,)
    for k in items:
        if isinstance(k, (bool, list)) or (_is_t(k) and (
                k.dim() != 0 or k.dtype.is_floating_point or k.dtype.is_complex
                or k.dtype == _mt().bool)):
            return "IndexBackward0"
    consumed = builtins.sum(1 for k in items if k is not None and k is not Ellipsis)
    last, d = "Alias", 0                 # d: the input dimension the next item reads
    for k in items:
        if k is None:
            last = "Unsqueeze"
        elif k is Ellipsis:
            d += x.dim() - consumed
        elif isinstance(k, slice):
            full = (isinstance(key, tuple) and k.start in (None, 0) and k.step in (None, 1)
                    and (k.stop is None or (d < x.dim() and k.stop >= x.shape[d])))
            if not full:
                last = "Slice"
            d += 1
        else:                            # an integer (or a 0-d integer tensor)
            last = "Select"
            d += 1
    return last + "Backward0"


def getitem(ctx, g):
    x, key = _arg(ctx, 0, "input"), _arg(ctx, 1, "key")
    if _basic_key(key):
        gi = g.new_zeros(x.shape)
        gi[key] = g
        return (gi,)
    # advanced indexing may pick an element twice: add through the flat positions picked
    return (_scatter_flat(g, x.shape, _positions(x.shape, g.device)[key]),)


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
    return (_scatter_flat(g, x.shape, _positions(x.shape, g.device).unfold(dim, size, step)),)


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
    storage = _C.arange(n, device=g.device)
    owner = _C.full((n,), -1, dtype=_C.int64, device=g.device)  # storage position -> input element
    owner[storage.as_strided(x.shape, x.stride(), x.storage_offset()).reshape(-1)] = \
        _C.arange(x.numel(), device=g.device)
    src = owner[storage.as_strided(size, stride, offset).reshape(-1)]
    gflat = g.reshape(-1)
    inside = src >= 0
    if not bool(inside.all()):          # positions outside the input's elements: no gradient
        src, gflat = src[inside], gflat[inside]
    return (_scatter_flat(gflat, x.shape, src),)


def _diagonal_back(g, shape, offset, dim1, dim2):
    """Zeros of `shape` with g on its offset diagonal of (dim1, dim2)."""
    return _scatter_flat(g, shape, _positions(shape, g.device).diagonal(offset, dim1, dim2))


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


def rot90(ctx, g):
    return (g.rot90(-_arg(ctx, 1, "k", 1), _arg(ctx, 2, "dims", (0, 1))),)


# ---- attention -----------------------------------------------------------------------------

def sdpa_flash(ctx, g):
    """The fused attention's gradients of query, key and value (Note [Fused attention]): the
    fused backward kernel, or the same formulas with recorded ops under create_graph or when
    the logsumexp output has a gradient."""
    from .. import _attention
    q, k, v = ctx.args[:3]
    is_causal = _arg(ctx, 4, "is_causal", False)
    mask, scale = ctx.kwargs.get("attn_mask"), ctx.kwargs.get("scale")
    g_out, g_lse = g
    if _C.is_grad_enabled() or bool(g_lse.any()):   # (the logsumexp is rarely differentiated)
        return _attention._flash_backward_math(q, k, v, mask, is_causal, scale, g_out, g_lse)
    out, lse = ctx.out
    return _attention._flash_backward(q, k, v, mask, is_causal, scale, out, lse, g_out)
# ---- distributions (samplers with a reparameterised gradient) ---------------------------------

def _standard_gamma(ctx, g):
    """The implicit derivative of a gamma draw in its shape (see Note [Implicit
    reparameterisation] in _sampling.py)."""
    return (g * _mt()._standard_gamma_grad(ctx.args[0], ctx.out),)
# ---- linear algebra (minitorch.linalg over LAPACK) ------------------------------------------
# Note [Decomposition derivatives]
# The formulas below are written with recorded ops (minitorch.linalg among them), so that their
# own derivatives exist.  Outputs whose gradient did not arrive reach a formula as zeros; where
# the full formula would divide by gaps between singular values or eigenvalues (svd, eigh, eig)
# a formula whose vector gradients are all zero takes the short form that needs no gaps (so
# svdvals / eigvalsh of matrices with repeated values differentiate).  Losses of singular
# vectors and eigenvectors must not depend on their phase (gauge), as in torch.

def _la():
    return _mt().linalg


def _all_zero(t):
    return t is None or not bool(t.ne(0).any())


def _out(ctx, op):
    """ctx.out; under create_graph, when the outputs no longer live (so ctx.out has no
    history), the op run again on its saved arguments, recorded, so that the formula's own
    derivative reaches the inputs through the outputs it reads."""
    out = ctx.out
    if not _C.is_grad_enabled():
        return out
    outs = out if isinstance(out, tuple) else (out,)
    if all(not _is_t(o) or not (o.dtype.is_floating_point or o.dtype.is_complex) or
           o.requires_grad for o in outs):
        return out
    if not any(_is_t(a) and a.requires_grad for a in tuple(ctx.args) + tuple(ctx.kwargs.values())):
        return out
    from .._op_forms import FORMS
    return FORMS[op](*ctx.args, **ctx.kwargs)


def _eye_as(t, n):
    """The identity of t's dtype, n x n."""
    return _C.eye(n, dtype=t.dtype, device=t.device)


def _offdiag_inverse(E):
    """1 / E off the diagonal, 0 on it (E: gaps between spectral values, batched)."""
    n = E.shape[-1]
    mask = _C.eye(n, dtype=_C.bool, device=E.device)
    return (1 / E.masked_fill(mask, 1)).masked_fill(mask, 0)


def linalg_inv_ex(ctx, g):
    inv = _out(ctx, "linalg_inv_ex")[0]
    ih = _c(inv).mT
    return (-(ih @ g[0] @ ih),)


def linalg_solve_ex(ctx, g):
    A, B = ctx.args[0], ctx.args[1] if len(ctx.args) > 1 else ctx.kwargs["B"]
    left = ctx.kwargs.get("left", True)
    X = _out(ctx, "linalg_solve_ex")[0]
    gX = g[0]
    from .._linalg_solve import _is_vector_rhs
    vector = _is_vector_rhs(A, B)
    if vector:
        gX, X = gX.unsqueeze(-1), X.unsqueeze(-1)
    gB = _la().solve(_c(A).mT, gX, left=left)
    gA = -(gB @ _c(X).mT) if left else -(_c(X).mT @ gB)
    return gA if ctx.needs(0) else None, (gB.squeeze(-1) if vector else gB)


def _det_adjugate_h(A):
    """adj(A)^H through the SVD (defined for singular A): conj(det U det Vh) U adj(S) Vh, adj(S)
    the products of the other singular values."""
    U, S, Vh = _la().svd(A)
    n = S.shape[-1]
    ones = S.new_ones(tuple(S.shape[:-1]) + (1,))
    before = _mt().cat([ones, S[..., :-1]], -1).cumprod(-1)
    after = _mt().cat([S[..., 1:], ones], -1).flip(-1).cumprod(-1).flip(-1)
    adj = (before * after).to(A.dtype)
    phase = _c(_la().det(U) * _la().det(Vh))
    return phase.unsqueeze(-1).unsqueeze(-1) * ((U * adj.unsqueeze(-2)) @ Vh) if n else U


def linalg_det(ctx, g):
    """g * adj(A)^H: conj(g det) A^{-H} for invertible matrices, through the SVD for singular
    ones (the two mixed by a where over the batch)."""
    A = ctx.args[0]
    d = _out(ctx, "linalg_det")
    n = A.shape[-1]
    if n == 0:
        return (A.new_zeros(A.shape),)
    c = (g * _c(d)).unsqueeze(-1).unsqueeze(-1)
    singular = d.detach().eq(0)
    if not bool(singular.any()):
        return (c * _c(_la().inv(A)).mT,)
    mask = singular.unsqueeze(-1).unsqueeze(-1)
    safe = _mt().where(mask, _eye_as(A, n), A)
    regular = c * _c(_la().inv(safe)).mT
    return (_mt().where(mask, g.unsqueeze(-1).unsqueeze(-1) * _det_adjugate_h(A), regular),)


def linalg_slogdet(ctx, g):
    """c A^{-H} with c = g_logabsdet (real) or g_logabsdet - i Im(conj(g_sign) sign)."""
    A = ctx.args[0]
    sign = _out(ctx, "linalg_slogdet")[0]
    gs, gl = g
    c = gl
    if A.dtype.is_complex:
        c = gl - 1j * (_c(gs) * sign).imag
    c = c.to(A.dtype).unsqueeze(-1).unsqueeze(-1)
    return (c * _c(_la().inv(A)).mT,)


def linalg_cholesky_ex(ctx, g):
    """A = L L^H: gA = L^{-H} M L^{-1} with M = (P + tril(P, -1)^H) / 2, P = tril(L^H gL)
    (torch's form: Hermitian but for half the imaginary part of P's diagonal)."""
    upper = ctx.kwargs.get("upper", False)
    L = _out(ctx, "linalg_cholesky_ex")[0]
    gL = g[0]
    if upper:
        L, gL = _c(L).mT, _c(gL).mT
    Lh = _c(L).mT
    P = (Lh @ gL.tril()).tril()
    M = 0.5 * (P + _c(P.tril(-1)).mT)
    st = _la().solve_triangular
    return (st(L, st(Lh, M, upper=True), upper=False, left=False),)


def _syminvadj_triu(M):
    """triu(M, 1) + triu(M, 1)^H + Re(diag M): the Hermitian matrix read from M's upper
    triangle."""
    up = M.triu(1)
    d = M.diagonal(0, -2, -1)
    d = d.real.to(M.dtype) if M.dtype.is_complex else d
    return up + _c(up).mT + _mt().diag_embed(d)


def _qr_backward_tall(gQ, gR, Q, R):
    """A = Q R with m >= n (Q m x n): gA = [gQ + Q syminvadj(triu(gR R^H - Q^H gQ))] R^{-H}."""
    M = gR @ _c(R).mT - _c(Q).mT @ gQ
    b = gQ + Q @ _syminvadj_triu(M)
    return _la().solve_triangular(_c(R).mT, b, upper=False, left=False)


def linalg_qr(ctx, g):
    A = ctx.args[0]
    mode = _arg(ctx, 1, "mode", "reduced")
    m, n = A.shape[-2], A.shape[-1]
    if mode == "r":
        raise RuntimeError("The derivative of linalg.qr depends on Q, which is not computed when "
                           "mode='r'. Please use linalg.qr(A, mode='reduced') if you are going to "
                           "differentiate through linalg.qr.")
    if mode == "complete" and m > n:
        raise RuntimeError("The QR decomposition is not differentiable when mode='complete' and "
                           "nrows > ncols.")
    Q, R = _out(ctx, "linalg_qr")
    gQ, gR = g
    if m >= n:
        return (_qr_backward_tall(gQ, gR, Q, R),)
    # A = Q [R1 R2] with X = A[:, :m] = Q R1: R2 = Q^H Y moves part of Y's gradient onto Q
    Y = A[..., :, m:]
    gR1, gR2 = gR[..., :, :m], gR[..., :, m:]
    gX = _qr_backward_tall(gQ + Y @ _c(gR2).mT, gR1, Q, R[..., :, :m])
    gY = Q @ gR2
    return (_mt().cat([gX, gY], -1),)


def linalg_svd(ctx, g):
    """A = U diag(S) Vh (See Note [Decomposition derivatives]): with E_ij = S_j^2 - S_i^2,
    gA = U [(skew(U^H gU) / E) S + S (skew(V^H gV) / E) + diag(gS) (+ i Im diag(U^H gU) / S
    for complex)] Vh, plus the parts of gU and gV outside the spans of U and V."""
    A = ctx.args[0]
    full = _arg(ctx, 1, "full_matrices", True)
    U, S, Vh = _out(ctx, "linalg_svd")
    gU, gS, gVh = g
    m, n = A.shape[-2], A.shape[-1]
    k = S.shape[-1]
    if full and m != n:
        U, Vh = U[..., :, :k], Vh[..., :k, :]
        gU, gVh = gU[..., :, :k], gVh[..., :k, :]
    Sc = S.to(A.dtype)
    if _all_zero(gU) and _all_zero(gVh):
        return ((U * gS.to(A.dtype).unsqueeze(-2)) @ Vh,)
    UhgU = _c(U).mT @ gU
    VhgV = Vh @ _c(gVh).mT
    S2 = S * S
    F = _offdiag_inverse(S2.unsqueeze(-2) - S2.unsqueeze(-1)).to(A.dtype)
    inner = (F * (UhgU - _c(UhgU).mT)) * Sc.unsqueeze(-2) + \
        Sc.unsqueeze(-1) * (F * (VhgV - _c(VhgV).mT)) + _mt().diag_embed(gS.to(A.dtype))
    if A.dtype.is_complex:
        inner = inner + _mt().diag_embed(1j * UhgU.diagonal(0, -2, -1).imag / S)
    gA = U @ inner @ Vh
    if m > k:
        gA = gA + ((gU - U @ UhgU) / Sc.unsqueeze(-2)) @ Vh
    if n > k:
        gA = gA + U @ ((gVh - _c(VhgV).mT @ Vh) / Sc.unsqueeze(-1))
    return (gA,)


def linalg_eigh(ctx, g):
    """A = V diag(w) V^H: gA = V (diag(gw) + skew(V^H gV) / 2E) V^H, E_ij = w_j - w_i off the
    diagonal, Hermitian as torch's (See Note [Decomposition derivatives])."""
    w, V = _out(ctx, "linalg_eigh")
    gw, gV = g
    dt = V.dtype
    Vh = _c(V).mT
    if _all_zero(gV):
        return ((V * gw.to(dt).unsqueeze(-2)) @ Vh,)
    F = _offdiag_inverse(w.unsqueeze(-2) - w.unsqueeze(-1)).to(dt)
    X = Vh @ gV
    inner = F * (0.5 * (X - _c(X).mT)) + _mt().diag_embed(gw.to(dt))
    return (V @ inner @ Vh,)


def linalg_eig(ctx, g):
    """A V = V diag(w), unit columns: gA = V^{-H} (diag(gw) + (G - V^H V Re diag(G)) / conj(E))
    V^H with G = V^H gV, E_ij = w_j - w_i off the diagonal; real A takes the real part."""
    w, V = _out(ctx, "linalg_eig")
    gw, gV = g
    Vh = _c(V).mT
    if _all_zero(gV):
        inner = _mt().diag_embed(gw)
    else:
        G = Vh @ gV
        Gd = G.diagonal(0, -2, -1).real.to(G.dtype)
        F = _offdiag_inverse((w.unsqueeze(-2) - w.unsqueeze(-1)).conj())
        inner = F * (G - (Vh @ V) * Gd.unsqueeze(-2)) + _mt().diag_embed(gw)
    return (_la().solve(Vh, inner @ Vh),)


def _pinv_backward(gP, P, A):
    """P = pinv(A): gA = -P^H gP P^H + (I - A P) gP^H P P^H + P^H P gP^H (I - P A)."""
    Ph, gPh = _c(P).mT, _c(gP).mT
    m, n = A.shape[-2], A.shape[-1]
    AP = A @ P
    PA = P @ A
    return -(Ph @ gP @ Ph) + (_eye_as(A, m) - AP) @ gPh @ (P @ Ph) + \
        (Ph @ P) @ gPh @ (_eye_as(A, n) - PA)


def linalg_pinv(ctx, g):
    return (_pinv_backward(g, _out(ctx, "linalg_pinv"), ctx.args[0]),)


def linalg_lstsq(ctx, g):
    """Through X = pinv(A) B (only the solution is differentiable, as in torch)."""
    A, B = ctx.args[0], ctx.args[1] if len(ctx.args) > 1 else ctx.kwargs["B"]
    gX = g[0]
    vector = B.dim() == A.dim() - 1
    if vector:
        B, gX = B.unsqueeze(-1), gX.unsqueeze(-1)
    P = _la().pinv(A)
    gA = _pinv_backward(gX @ _c(B).mT, P, A) if ctx.needs(0) else None
    gB = _c(P).mT @ gX
    return gA, (gB.squeeze(-1) if vector else gB)


def _lu_backward(gL, gU, P, L, U):
    """A = P L U (L m x k unit lower, U k x n upper): gA from gL and gU."""
    m, n = L.shape[-2], U.shape[-1]
    st = _la().solve_triangular
    Lh, Uh = _c(L).mT, _c(U).mT
    if m == n:
        phi = (Lh @ gL).tril(-1) + (gU @ Uh).triu()
        X = st(Lh, phi, upper=True, unitriangular=True)          # L^{-H} phi
        return P @ st(Uh, X, upper=False, left=False)          # ... U^{-H}
    if m < n:   # A = P L [U1 U2]
        U1, U2 = U[..., :, :m], U[..., :, m:]
        gU1, gU2 = gU[..., :, :m], gU[..., :, m:]
        gA2 = st(Lh, gU2, upper=True, unitriangular=True)      # L^{-H} gU2
        gL1 = gL - gA2 @ _c(U2).mT
        gA1 = _lu_backward(gL1, gU1, _eye_as(L, m), L, U1)
        return P @ _mt().cat([gA1, gA2], -1)
    # m > n: P^T A = [L1; L2] U
    L1, L2 = L[..., :n, :], L[..., n:, :]
    gL1, gL2 = gL[..., :n, :], gL[..., n:, :]
    gB2 = st(Uh, gL2, upper=False, left=False)                 # gL2 U^{-H}
    gU1 = gU - _c(L2).mT @ gB2
    gB1 = _lu_backward(gL1, gU1, _eye_as(L, n), L1, U)
    return P @ _mt().cat([gB1, gB2], -2)


def linalg_lu(ctx, g):
    P, L, U = _out(ctx, "linalg_lu")
    return (_lu_backward(g[1], g[2], P, L, U),)


def linalg_lu_factor_ex(ctx, g):
    LU, piv = _out(ctx, "linalg_lu_factor_ex")[:2]
    P, L, U = _mt().lu_unpack(LU, piv)
    k = builtins.min(LU.shape[-2], LU.shape[-1])
    gLU = g[0]
    gL = gLU[..., :, :k].tril(-1)
    gU = gLU[..., :k, :].triu()
    return (_lu_backward(gL, gU, P, L, U),)


def linalg_lu_solve(ctx, g):
    """gB by the solve with the adjoint flipped; gA (A = P L U) mapped to the packed LU:
    tril(P^T gA U^H, -1) + triu(L^H P^T gA)."""
    LU, piv = ctx.args[0], ctx.args[1]
    left = ctx.kwargs.get("left", True)
    adjoint = ctx.kwargs.get("adjoint", False)
    X = _out(ctx, "linalg_lu_solve")
    gB = _la().lu_solve(LU, piv, g, left=left, adjoint=not adjoint)
    if not ctx.needs(0):
        return None, None, gB
    Xh, gBh = _c(X).mT, _c(gB).mT
    if left:
        gA = -(gB @ Xh) if not adjoint else -(X @ gBh)
    else:
        gA = -(Xh @ gB) if not adjoint else -(gBh @ X)
    P, L, U = _mt().lu_unpack(LU, piv)
    PtgA = P.mT @ gA
    gLU = (PtgA @ _c(U).mT).tril(-1) + (_c(L).mT @ PtgA).triu()
    return gLU, None, gB


def linalg_solve_triangular(ctx, g):
    A = ctx.args[0]
    upper = ctx.kwargs["upper"]
    left = ctx.kwargs.get("left", True)
    unit = ctx.kwargs.get("unitriangular", False)
    X = _out(ctx, "linalg_solve_triangular")
    gB = _la().solve_triangular(_c(A).mT, g, upper=not upper, left=left, unitriangular=unit)
    if not ctx.needs(0):
        return None, gB
    gA = -(gB @ _c(X).mT) if left else -(_c(X).mT @ gB)
    off = 1 if unit else 0
    gA = gA.triu(off) if upper else gA.tril(-off)
    return gA, gB


def linalg_cross(ctx, g):
    a, b = ctx.args[0], ctx.args[1] if len(ctx.args) > 1 else ctx.kwargs["other"]
    dim = ctx.kwargs.get("dim", -1)
    cross = _la().cross
    ga = cross(_c(b).expand(g.shape), g, dim=dim) if ctx.needs(0) else None
    gb = cross(g, _c(a).expand(g.shape), dim=dim) if ctx.needs(1) else None
    return ga, gb


def linalg_matrix_exp(ctx, g):
    """The top-right block of exp([[A^H, g], [0, A^H]])."""
    A = ctx.args[0]
    n = A.shape[-1]
    Ah = _c(A).mT
    top = _mt().cat([Ah, g], -1)
    bottom = _mt().cat([g.new_zeros(g.shape), Ah], -1)
    return (_la().matrix_exp(_mt().cat([top, bottom], -2))[..., :n, n:],)


def geqrf(ctx, g):
    raise NotImplementedError("the derivative for 'geqrf' is not implemented.")


def linalg_matrix_sqrth(ctx, g):
    """X = sqrt(A) solves X dX + dX X = dA: gA = V ((V^H g V) / (s_i + s_j)) V^H, (s, V) the
    square roots of A's eigenvalues and its eigenvectors, made Hermitian as torch's."""
    A = ctx.args[0]
    w, V = _la().eigh(A)
    s = w.clamp_min(0).sqrt()
    Vh = _c(V).mT
    denom = (s.unsqueeze(-1) + s.unsqueeze(-2)).to(A.dtype)
    G = V @ ((Vh @ g @ V) / denom) @ Vh
    return (0.5 * (G + _c(G).mT),)


def linalg_polar(ctx, g):
    """A = U H (U = W Vh, H = V S Vh from the SVD).  With M = U^H dA, Omega = U^H dU solves
    Omega H + H Omega = M - M^H and dH = M - Omega H: gA = U (gH + Y - Y^H) (+ the part of gU
    outside U's columns, times H^{-1}), Y solving H Y + Y H = U^H gU - gH H."""
    A = ctx.args[0]
    gU, gH = g
    U, H = _out(ctx, "linalg_polar")
    W, S, Vh = _la().svd(A, full_matrices=False)
    V = _c(Vh).mT
    Uh = _c(U).mT
    Z = Uh @ gU - gH @ H
    denom = (S.unsqueeze(-1) + S.unsqueeze(-2)).to(A.dtype)
    Y = V @ ((Vh @ Z @ V) / denom) @ Vh
    gA = U @ (gH + Y - _c(Y).mT)
    m, n = A.shape[-2], A.shape[-1]
    if m > n:
        Hinv = (V / S.to(A.dtype).unsqueeze(-2)) @ Vh
        gA = gA + (gU - U @ (Uh @ gU)) @ Hinv
    return (gA,)
# ---- nn: shuffles, padding, CTC, embedding bags, sampling grids ----------------------------

def pixel_shuffle(ctx, g):
    return (_mt().pixel_unshuffle(g, _arg(ctx, 1, "upscale_factor")),)


def pixel_unshuffle(ctx, g):
    return (_mt().pixel_shuffle(g, _arg(ctx, 1, "downscale_factor")),)


def channel_shuffle(ctx, g):
    groups = _arg(ctx, 1, "groups")
    return (_mt().channel_shuffle(g, g.shape[1] // int(groups)),)


def ctc(ctx, g):
    """_ctc_loss: the gradient of its negative log likelihoods (its log alphas are not
    differentiated), by the backward kernel, in torch's form (Note [CTC gradient])."""
    nll, log_alpha = ctx.out
    return (_mt()._ctc_loss_backward(g[0], ctx.saved(0, "log_probs"), _arg(ctx, 1, "targets"),
                                     _arg(ctx, 2, "input_lengths"), _arg(ctx, 3, "target_lengths"),
                                     nll, log_alpha, _arg(ctx, 4, "blank", 0),
                                     _arg(ctx, 5, "zero_infinity", False)),)


def ctc_backward(ctx, g):
    # torch has no second derivative of the CTC loss either: its message (NotImplementedError
    # is a RuntimeError, which torch raises)
    raise NotImplementedError("derivative for aten::_ctc_loss_backward is not implemented")
# ---- special functions (aten_lite/special_math.h, minitorch.special) ---------------------

def _input_and_slot(ctx, names, tensor_first=True):
    """(tensor argument, its gradient's key) of an op called as f(n, input) or input.f(n):
    the tensor among the first two positional arguments or the keywords `names`."""
    for i, a in enumerate(ctx._args[:2]):
        if _is_t(a):
            return ctx.saved(i), i
    for k in names:
        if _is_t(ctx.kwargs.get(k)):
            return ctx.saved(0, k), k
    raise RuntimeError("no tensor argument")


def _number_arg(ctx, names):
    """The first non-tensor among the first two positional arguments or the keywords `names`."""
    for a in ctx._args[:2]:
        if not _is_t(a):
            return a
    for k in names:
        if k in ctx.kwargs and not _is_t(ctx.kwargs[k]):
            return ctx.kwargs[k]
    raise RuntimeError("no number argument")


def _pair(ctx, second):
    """The two operands of a binary op (tensors or numbers), positional or by keyword."""
    a = ctx.saved(0, "input")
    b = ctx.saved(1, second)
    return a, b


def digamma(ctx, g):
    return (g * _mt().polygamma(1, ctx.args[0]),)


def polygamma(ctx, g):
    """polygamma(n, x) or x.polygamma(n): d/dx = polygamma(n + 1, x)."""
    x, key = _input_and_slot(ctx, ("input",))
    n = _number_arg(ctx, ("n",))
    return {key: g * _mt().polygamma(n + 1, x)}


def mvlgamma(ctx, g):
    x = ctx.saved(0, "input")
    p = _arg(ctx, 1, "p")
    shifts = _C.arange(p, dtype=x.dtype, device=x.device) * -0.5
    return (g * (x.unsqueeze(-1) + shifts).digamma().sum(-1),)


def i0(ctx, g):
    return (g * _mt()._special_i1(ctx.args[0]),)


def special_i0e(ctx, g):
    x = ctx.args[0]
    return (g * (_mt()._special_i1e(x) - x.sgn() * ctx.out),)


def special_i1(ctx, g):
    """I_0(x) - I_1(x) / x, 1/2 at 0."""
    x = ctx.args[0]
    return (g * (_mt().i0(x) - ctx.out / x).masked_fill(x == 0, 0.5),)


def special_i1e(ctx, g):
    x = ctx.args[0]
    d = _mt()._special_i0e(x) - ctx.out * (x.sgn() + 1 / x)
    return (g * d.masked_fill(x == 0, 0.5),)


def special_modified_bessel_i0(ctx, g):
    return (g * _mt()._special_modified_bessel_i1(ctx.args[0]),)


def special_modified_bessel_i1(ctx, g):
    x = ctx.args[0]
    d = _mt()._special_modified_bessel_i0(x) - ctx.out / x
    return (g * d.masked_fill(x == 0, 0.5),)


def special_modified_bessel_k0(ctx, g):
    return (-g * _mt()._special_modified_bessel_k1(ctx.args[0]),)


def special_modified_bessel_k1(ctx, g):
    x = ctx.args[0]
    return (-g * (_mt()._special_modified_bessel_k0(x) + ctx.out / x),)


def special_bessel_j0(ctx, g):
    return (-g * _mt()._special_bessel_j1(ctx.args[0]),)


def special_bessel_j1(ctx, g):
    x = ctx.args[0]
    d = _mt()._special_bessel_j0(x) - ctx.out / x
    return (g * d.masked_fill(x == 0, 0.5),)


def special_bessel_y0(ctx, g):
    return (-g * _mt()._special_bessel_y1(ctx.args[0]),)


def special_bessel_y1(ctx, g):
    x = ctx.args[0]
    d = _mt()._special_bessel_y0(x) - ctx.out / x
    return (g * d.masked_fill(x == 0, math.inf),)


def special_erfcx(ctx, g):
    return (g * (2 * ctx.args[0] * ctx.out - 2 / math.sqrt(math.pi)),)


def special_ndtr(ctx, g):
    x = ctx.args[0]
    return (g * (x * x * -0.5).exp() / math.sqrt(2 * math.pi),)


def special_ndtri(ctx, g):
    return (g * math.sqrt(2 * math.pi) * (ctx.out * ctx.out / 2).exp(),)


def special_log_ndtr(ctx, g):
    x = ctx.args[0]
    return (g / math.sqrt(2 * math.pi) * (-(ctx.out + x * x / 2)).exp(),)


def special_entr(ctx, g):
    return (g * -(1 + ctx.args[0].log()),)


def special_zeta(ctx, g):
    """d/dq zeta(x, q) = -x zeta(x + 1, q); none for x (as torch)."""
    x, q = _pair(ctx, "other")
    if ctx.needs(0) or ctx.needs("input"):
        raise NotImplementedError("the derivative for 'zeta' is not implemented.")
    return {1: -g * x * _mt()._special_zeta(x + 1, q), "other": None} if _is_t(q) else {}


def special_xlog1py(ctx, g):
    x, y = _pair(ctx, "other")
    gx = gy = None
    if _is_t(x):
        if _is_t(y):
            gx = (g * y.log1p()).masked_fill((x == 0) & (y <= -1), 0)
        else:
            gx = g * (math.log1p(y) if y > -1 else (-math.inf if y == -1 else math.nan))
            if y <= -1:
                gx = gx.masked_fill(x == 0, 0)
    if _is_t(y):
        gy = g * x / (y + 1)
    return gx, gy


def _igamma_grad(ctx, g, sign, name):
    a, x = _pair(ctx, "other")
    if ctx.needs(0) or ctx.needs("input"):
        raise NotImplementedError(f"the derivative for '{name}: input' is not implemented.")
    return None, sign * g * ((a - 1) * x.log() - x - a.lgamma()).exp()


def igamma(ctx, g):
    """d/dx P(a, x) = x^(a-1) e^-x / Gamma(a); none for a (as torch)."""
    return _igamma_grad(ctx, g, 1, "igamma")


def igammac(ctx, g):
    return _igamma_grad(ctx, g, -1, "igammac")


def heaviside(ctx, g):
    # NotImplementedError is a RuntimeError, the type torch raises
    raise NotImplementedError("derivative for aten::heaviside is not implemented")


def nextafter(ctx, g):
    return g, g * 0


def frexp(ctx, g):
    """input = mantissa 2^exponent: d mantissa / d input = 2^-exponent."""
    return (g[0] / ctx.out[1].exp2(),)


# ---- distances -------------------------------------------------------------------------------

def cdist(ctx, g):
    """d ||x1_i - x2_j||_p / d x1_i (x2_j: its negative), summed over the other side's rows:
    p = 1 sign(d); p = 2 d / D; p = inf sign(d) where |d| = D; other p
    sign(d) |d|^(p-1) / D^(p-1); 0 where D = 0 (and where d = 0 for p < 1).  Zero distances
    and differences are replaced by 1 before they divide or take a negative power, so that the
    second derivative is not NaN there either."""
    x1, x2 = ctx.saved(0, "x1"), ctx.saved(1, "x2")
    p = float(_arg(ctx, 2, "p", 2.0))
    dist = ctx.out.unsqueeze(-1)
    d = x1.unsqueeze(-2) - x2.unsqueeze(-3)
    zero = dist == 0
    safe = dist.masked_fill(zero, 1)
    if p == 0:
        t = d * 0
    elif p == 1:
        t = d.sign()
    elif p == 2:
        t = (d / safe).masked_fill(zero, 0)
    elif math.isinf(p):
        t = d.sign() * (d.abs() == dist)
    elif p < 2:
        ad = d.abs().masked_fill(d == 0, 1)
        t = (d.sign() * ad.pow(p - 1) / safe.pow(p - 1)).masked_fill(zero, 0)
    else:
        t = (d * d.abs().pow(p - 2) / safe.pow(p - 1)).masked_fill(zero, 0)
    gt = g.unsqueeze(-1) * t
    return (gt.sum(-2) if ctx.needs(0) or ctx.needs("x1") else None,
            -gt.sum(-3) if ctx.needs(1) or ctx.needs("x2") else None)

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


def _pooling_formulas(nsp):
    """The derivatives of the nsp-d pooling rows (_pooling.py): each backward row's derivative
    is the forward again (averages) or a gather by the indices (max)."""
    d = f"{nsp}d"

    def max_pool_with_indices(ctx, grads):
        x, indices = _arg(ctx, 0, "input"), ctx.out[1]
        return (getattr(_mt(), f"_max_pool{d}_backward")(grads[0], x, indices,
                                                         *_pool_args(ctx, 1, *_MAXP)),)

    def max_pool_backward(ctx, gg):
        return (_gather_planes(gg, ctx.saved(2, "indices"), nsp),)

    def avg_pool(ctx, g):
        return (getattr(_mt(), f"_avg_pool{d}_backward")(g, _arg(ctx, 0, "input"),
                                                         *_pool_args(ctx, 1, *_AVGP)),)

    def avg_pool_backward(ctx, gg):
        return (getattr(_mt(), f"_avg_pool{d}")(gg, *_pool_args(ctx, 2, *_AVGP)),)

    def adaptive_avg_pool(ctx, g):
        return (getattr(_mt(), f"_adaptive_avg_pool{d}_backward")(g, _arg(ctx, 0, "input")),)

    def adaptive_avg_pool_backward(ctx, gg):
        return (getattr(_mt(), f"_adaptive_avg_pool{d}")(
            gg, tuple(_arg(ctx, 0, "grad_output").shape[-nsp:])),)

    def adaptive_max_pool(ctx, grads):
        x, indices = _arg(ctx, 0, "input"), ctx.out[1]
        return (getattr(_mt(), f"_adaptive_max_pool{d}_backward")(grads[0], x, indices),)

    return {f"_max_pool{d}_with_indices": max_pool_with_indices,
            f"_max_pool{d}_backward": max_pool_backward,
            f"_avg_pool{d}": avg_pool, f"_avg_pool{d}_backward": avg_pool_backward,
            f"_adaptive_avg_pool{d}": adaptive_avg_pool,
            f"_adaptive_avg_pool{d}_backward": adaptive_avg_pool_backward,
            f"_adaptive_max_pool{d}": adaptive_max_pool,
            f"_adaptive_max_pool{d}_backward": max_pool_backward}


globals().update(_pooling_formulas(2))
globals().update(_pooling_formulas(3))


_UPS = (("output_size", "mode", "align_corners", "scales", "antialias"),
        (None, None, False, None, False))


def _upsample(ctx, g):
    from .._formats import _channels_last_of, _in_format
    x = _arg(ctx, 0, "input")  # its shape and layout only
    gx = _mt()._upsample_backward(g, tuple(x.shape), *_pool_args(ctx, 1, *_UPS))
    return (_in_format(gx, _channels_last_of(x)),)


def _upsample_backward(ctx, gg):
    return (_mt()._upsample(gg, *_pool_args(ctx, 2, *_UPS)),)


# ---- discrete Fourier transforms (Note [FFT primitives] in _fft.py): each is the adjoint of
# another one ------------------------------------------------------------------------------

def _fft_c2c(ctx, g):
    """The adjoint of a scaled DFT is the same scaling of the DFT in the other direction."""
    dim, norm = _arg(ctx, 1, "dim"), _arg(ctx, 2, "normalization")
    return (_mt()._fft_c2c(g, dim, norm, not _arg(ctx, 3, "forward")),)


def _fft_r2c(ctx, g):
    """The real part of the inverse-direction transform of g, the onesided half's missing
    outputs taken as zeros."""
    shape = _arg(ctx, 0, "self").shape
    dim, norm = list(_arg(ctx, 1, "dim")), _arg(ctx, 2, "normalization")
    last = dim[-1] % len(shape)
    if _arg(ctx, 3, "onesided") and g.shape[last] < shape[last]:
        pad = list(g.shape)
        pad[last] = shape[last] - g.shape[last]
        g = _mt().cat([g, g.new_zeros(pad)], dim=last)
    return (_mt()._fft_c2c(g, dim, norm, False).real,)


def _fft_c2r(ctx, g):
    """The onesided forward transform of g; an input point also stands for its mirror image
    (the conjugate the Hermitian spectrum repeats), so points 1 .. n - (n // 2 + 1) count
    twice."""
    dim, norm = list(_arg(ctx, 1, "dim")), _arg(ctx, 2, "normalization")
    n = int(_arg(ctx, 3, "last_dim_size"))
    gi = _mt()._fft_r2c(g, dim, norm, True)
    last = dim[-1] % gi.dim()
    m = gi.shape[last]
    twice = n - m
    if twice > 0:
        w = [1.0] + [2.0] * twice + [1.0] * (m - 1 - twice)
        shape = [1] * gi.dim()
        shape[last] = m
        gi = gi * _C.tensor(w, dtype=gi.real.dtype, device=gi.device).reshape(shape)
    return (gi,)
# ---- sparse COO tensors: the products of _sparse_mm.py ---------------------------------------

def _coo_spmm(ctx, g):
    """out = S @ dense, S with values at (rows, cols): d values[e] = <g[rows[e]], dense[cols[e]]>,
    d dense = S^T @ g."""
    rows, cols = ctx.saved(0, "rows"), ctx.saved(1, "cols")
    gv = gd = None
    if ctx.needs(2) or ctx.needs("values"):
        gv = _mt()._coo_sampled_dot(rows, cols, g, ctx.saved(3, "dense"))
    if ctx.needs(3) or ctx.needs("dense"):
        dense = _arg(ctx, 3, "dense")
        gd = _mt()._coo_spmm(cols, rows, ctx.saved(2, "values"), g, dense.shape[0])
    return (None, None, gv, gd)


def _coo_sampled_dot(ctx, g):
    """out[e] = <a[rows[e]], b[cols[e]]>: d a = S @ b, d b = S^T @ a with S the values g at
    (rows, cols)."""
    rows, cols = ctx.saved(0, "rows"), ctx.saved(1, "cols")
    ga = gb = None
    if ctx.needs(2) or ctx.needs("a"):
        a = _arg(ctx, 2, "a")
        ga = _mt()._coo_spmm(rows, cols, g, ctx.saved(3, "b"), a.shape[0])
    if ctx.needs(3) or ctx.needs("b"):
        b = _arg(ctx, 3, "b")
        gb = _mt()._coo_spmm(cols, rows, g, ctx.saved(2, "a"), b.shape[0])
    return (None, None, ga, gb)


# ---- var_mean: one node for both outputs (as torch's VarMeanBackward0) ------------------------

def var_mean(ctx, g):
    """d x = g_var 2 (x - mean) / (n - correction) + g_mean / n."""
    x, dim, keepdim, n, dof = _var_args(ctx)
    gv, gm = g
    r = None
    if gv is not None:
        d = x - x.mean(_dim_list(dim, x.dim()), keepdim=True)
        r = _expand_back(gv, x.shape, dim, keepdim) * d * (2.0 / dof if dof else float("inf"))
    if gm is not None:
        m = _expand_back(gm, x.shape, dim, keepdim) / n
        r = m if r is None else r + m
    return (r,)


# ---- unique and its recorded forms: no derivative (as torch), an error when backward reaches it --

def _no_derivative(name):
    def formula(ctx, g):
        raise NotImplementedError(f"the derivative for '{name}' is not implemented.")
    return formula


_unique = _no_derivative("_unique")
_unique2 = _no_derivative("_unique2")
_unique_dim = _no_derivative("unique_dim")
unique_consecutive = _no_derivative("unique_consecutive")


# ---- formulas that read no saved tensor (their nodes may run again, as torch's) -------------
unbind.saves_nothing = True
split_pieces.saves_nothing = True


# ---- threshold: its gradient is the _threshold_backward op (torch's threshold_backward), so a
# create_graph pass records ThresholdBackwardBackward0 as torch's does ----------------------------

def _threshold_backward_op():
    from .._op_forms import nn_ops
    return nn_ops()["_threshold_backward"]


def threshold(ctx, g):
    return (_threshold_backward_op()(g, ctx.args[0], _arg(ctx, 1, "threshold")),)


def _threshold_backward(ctx, g):
    """Linear in grad_output; no gradient for the input (piecewise constant)."""
    return (_threshold_backward_op()(g, ctx.args[1], _arg(ctx, 2, "threshold")), None)
