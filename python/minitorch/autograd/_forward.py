"""Forward-mode automatic differentiation: dual tensors and the propagation of their tangents
through every op (the machinery of autograd.forward_ad).

Note [Forward AD]
A dual level (one at a time, as torch) installs an op watcher (Note [Op watchers] in
csrc/autograd/autograd.h), so while it is open every op call comes here; with no level open
nothing is installed and ops cost what they did.  A tensor's tangent is kept on the tensor
object (attribute `_fw_tangent`), and the level keeps a weak reference to every tensor given
one, to take it away from those still alive when the level exits.  For an op with a dual
argument the watcher runs the op as usual (`proceed`, which also records it for reverse mode)
and computes the tangents of its outputs from the op's derivative (the op table's `grad` slot,
Note [Derivative declarations]) in one of these ways:
  - views (an output that shares an input's storage): the same op applied to the input's
    tangent, so that the tangent of a view is that view of the tangent (Note [Forward AD
    views]);
  - the Jacobian-vector products written out below (_RULES: products by the product rule,
    linear, softmax, log_softmax, logcumsumexp) and the rows linear in their tensors (_LINEAR:
    sum, cat, gather, conversions, ...: the op applied to the tangents), cheaper than the
    general way for the ops models use most;
  - rows whose declared formula for a parameter is the gradient times a factor (grad * cos(self),
    where(c, grad, 0), grad.masked_fill(m, 0), ...), with real dtypes and an output of the
    inputs' broadcast shape: the Jacobian is diagonal, so the formula applied to the tangent
    (broadcast to the output) is that input's share of the output's tangent;
  - every other row, by the double-vjp trick: the formula's vector-Jacobian product
    u -> J^T u is linear in u, so s(u) = sum over the dual inputs of Re<J^T u, t> has gradient
    J t with respect to u.  The formula runs once over a u that requires grad, and one
    backward pass through it gives the tangents of all the outputs.  This holds for complex
    dtypes too (the vector-Jacobian product torch defines is the adjoint of the Jacobian-vector
    product for the real inner product Re<a, b>), and needs only the row's reverse-mode
    formula, which every differentiable row has (tests/test_autograd_ops.py checks that these
    formulas are themselves differentiable).
The tangent computations are ordinary ops: with grad mode on, tangents or inputs that require
grad give tangents with a history (reverse over forward).  The backward passes run inside a
level are watched too (the engine runs every node in Python while a watcher is active), so the
gradients they compute from dual tensors carry tangents (forward over reverse).

Note [Forward AD views]
A view's tangent is the same view of its base's tangent.  The base here is the view's forward
root: `_fw_base` when the watcher set it, else the view's storage owner (`_base`).  The
tangent of a tensor that is its own root has the tensor's layout (sizes, strides, storage
offset and storage size: make_dual and the op outputs copy a tangent laid out otherwise), so
the tangent of any view of it is found with as_strided and the view's geometry, also for views
made before the tangent existed.  An in-place op writes the new tangent into the old one, so
the views of a dual tensor see it; an in-place op with a dual argument on a view of a tensor
without a tangent first gives the root a zero tangent.  make_dual's result, unpack_dual's
primal and detach() are views that are not forward-differentiable: each is its own root
(`_fw_base` None), as torch's."""
import ast
import threading
import weakref

from .. import _C
from . import _watch
from ._record import _FORMULA_NAMES, _entry, _lookup, _slots, _apply_formula, Ctx
from ._dsl import node_name

_level = -1          # the open dual level (-1: none); only level 0 exists, as in torch
_holders = {}        # id(tensor) -> weak reference to each tensor given a tangent at the level
_tls = threading.local()   # .enabled: forward grad mode of the thread (default on)
_UNSET = object()
_ZERO = object()     # an in-place op whose result does not depend on the values (a zero tangent)


def _no_fw_msg(name, why="it has not been implemented yet."):
    return f"Trying to use forward AD with {name} that does not support it because {why}"


# ---- levels and forward grad mode ----------------------------------------------------------

def enter_level():
    global _level
    if _level >= 0:
        raise RuntimeError("Nested forward mode AD is not supported at the moment")
    _level = 0
    _watch.add(_watcher)
    return _level


def exit_level(level):
    global _level
    if level < 0:
        raise RuntimeError("Dual level must be a positive number.")
    if level != _level:
        raise RuntimeError("Trying to exit a forward AD level that was not the last one that was "
                           "created. This is not supported.")
    _watch.remove(_watcher)
    _level = -1
    holders = list(_holders.values())
    _holders.clear()
    for ref in holders:
        t = ref()
        if t is not None:
            t.__dict__.pop("_fw_tangent", None)


class _unwatched:
    """The ops forward AD runs itself: unwatched; while __torch_dispatch__ tensors or modes
    are about (Note [Python dispatch] in minitorch/_python_dispatch.py), whose ops must reach
    their handlers, only hidden from forward AD itself."""

    def __enter__(self):
        from .. import _python_dispatch
        self._dispatch = _python_dispatch.active()
        if self._dispatch:
            self._prev = set_enabled(False)
        else:
            self._prev = _C._set_ag_unwatched(True)
        return self

    def __exit__(self, *exc):
        if self._dispatch:
            set_enabled(self._prev)
        else:
            _C._set_ag_unwatched(self._prev)
        return False


def is_enabled():
    """Forward grad mode of this thread (torch._C._is_fwd_grad_enabled)."""
    return getattr(_tls, "enabled", True)


def set_enabled(mode):
    """Sets this thread's forward grad mode; returns the previous one."""
    prev = getattr(_tls, "enabled", True)
    _tls.enabled = bool(mode)
    return prev


def active():
    """Whether tangents propagate now: a level is open and forward grad mode is on."""
    return _level >= 0 and getattr(_tls, "enabled", True)


# ---- tangents --------------------------------------------------------------------------------

def _attach(t, tg):
    t.__dict__["_fw_tangent"] = tg
    key = id(t)
    if key not in _holders:
        _holders[key] = weakref.ref(t, lambda _, key=key: _holders.pop(key, None))


def _root(t):
    """The tensor whose tangent t's tangent is a view of (Note [Forward AD views]), or None."""
    r = t.__dict__.get("_fw_base", _UNSET)
    return t._base if r is _UNSET else r


def _tangent(t):
    """t's tangent at the open level: its own, or the view of its root's (then kept as its
    own); None when it has none."""
    d = t.__dict__
    tg = d.get("_fw_tangent")
    if tg is not None:
        return tg
    r = d.get("_fw_base", _UNSET)
    if r is _UNSET:
        r = t._base
    if r is None:
        return None
    rt = r.__dict__.get("_fw_tangent")
    if rt is None or not (t.element_size() == r.element_size() == rt.element_size()):
        return None                    # (a view of another element type: real/imag of complex)
    with _unwatched():
        tg = rt.as_strided(tuple(t.shape), t.stride(), t.storage_offset())
    _attach(t, tg)
    return tg


def tangent(t):
    """t's tangent, or None (also when no level is open or forward grad mode is off)."""
    if not active() or not isinstance(t, _C.TensorBase):
        return None
    return _tangent(t)


def _storage_numel(t):
    return t.untyped_storage().nbytes() // t.element_size()


def _same_layout(a, b):
    """Whether a has b's sizes, strides, storage offset and storage size (what a tangent must
    share with its primal: Note [Forward AD views])."""
    if tuple(a.shape) != tuple(b.shape):
        return False
    if a.numel() == 0:
        return True
    return a.stride() == b.stride() and a.storage_offset() == b.storage_offset() and \
        _storage_numel(a) * a.element_size() // b.element_size() == _storage_numel(b) and \
        a.element_size() == b.element_size()


def _like_layout(p, dtype):
    """Zeros of dtype laid out as p (its strides, storage offset and storage size)."""
    n = _storage_numel(p)
    shape, stride, offset = tuple(p.shape), p.stride(), p.storage_offset()
    if offset == 0 and p._base is None and n == p.numel() and \
            all(s > 0 for s, k in zip(stride, shape) if k > 1):
        out = _C.empty_strided(shape, stride, dtype=dtype)
        out.zero_()
        return out
    return _C.zeros((n,), dtype=dtype).as_strided(shape, stride, offset)


def _copy_like(p, src):
    """A new tensor laid out as p holding src's values (broadcast), in src's dtype."""
    out = _like_layout(p, src.dtype)
    out.copy_(src)
    return out


def _adopt(o, tg, avoid):
    """tg as the tangent of the op output o: used as is when it is a fresh tensor laid out as
    o, else copied (a tangent never aliases another tensor's)."""
    if tg._base is None and _same_layout(tg, o) and not any(tg is a for a in avoid):
        return tg
    return _copy_like(o, tg)


# ---- the public operations -----------------------------------------------------------------

def _check_level(level, what):
    if level != _level or level < 0:
        raise RuntimeError(f"Invalid level given to {what}")


def make_dual(tensor, tangent_, level):
    """A view of tensor (differentiable in reverse mode) whose tangent is tangent_, used as is
    when laid out as tensor, else copied (forward_ad.make_dual's checks done)."""
    _check_level(level, "_make_dual")
    if _tangent(tangent_) is not None:
        raise RuntimeError("Setting a forward grad that itself has a forward gradient at the same "
                           f"level{level} is not supported.")
    if _tangent(tensor) is not None:
        raise RuntimeError("Making a dual Tensor based on a Tensor that already has a forward "
                           f"gradient at the same level {level} is not supported.")
    _check_size(tensor, tangent_)
    from .grad_mode import is_inference_mode_enabled
    with _unwatched():
        if is_inference_mode_enabled():
            dual = tensor.detach()      # an inference tensor is aliased, not viewed (as torch)
        else:
            dual = _alias(tensor)
        tg = tangent_ if _same_layout(tangent_, tensor) else _copy_like(tensor, tangent_)
    dual.__dict__["_fw_base"] = None
    _attach(dual, tg)
    return dual


def _alias(t):
    """A view of all of t (recorded in reverse mode)."""
    return t.as_strided(tuple(t.shape), t.stride(), t.storage_offset())


def _check_size(tensor, tg):
    if tuple(tg.shape) != tuple(tensor.shape):
        raise RuntimeError("Trying to set a forward gradient that has a different size than that "
                           "of the original Tensor, this is not supported. Tensor is of size "
                           f"{list(tensor.shape)} while the given forward gradient is of size "
                           f"{list(tg.shape)}.")


def primal(tensor, level):
    """A view of tensor without its tangent (torch's _fw_primal; a level other than the open
    one is an error only for a dual tensor, as torch's)."""
    if level != _level and tangent(tensor) is not None:
        _check_level(level, "_fw_primal")
    with _unwatched():
        p = _alias(tensor)
    p.__dict__["_fw_base"] = None
    return p


def unpack(tensor, level):
    """(a view of tensor without tangent, tensor's tangent or None)."""
    p = primal(tensor, level)
    return p, (tangent(tensor) if level == _level else None)


# ---- the watcher -----------------------------------------------------------------------------

_NOT_OPS = frozenset({"requires_grad_", "retain_grad", "share_memory_", "pin_memory",
                      "record_stream"})
# in-place ops that change self's layout: the same change is made to its tangent
_LAYOUT_INPLACE = frozenset({"t_", "transpose_", "swapdims_", "swapaxes_", "squeeze_",
                             "unsqueeze_", "as_strided_"})
_RESIZE = frozenset({"resize_", "resize_as_", "set_"})


def _is_float(t):
    return t.dtype.is_floating_point or t.dtype.is_complex


def _duals(full, kwargs):
    """[(tensor, tangent)] of the arguments (top level, lists, keywords but out=) that have a
    tangent."""
    out = []
    for a in full:
        if isinstance(a, _C.TensorBase):
            tg = _tangent(a)
            if tg is not None:
                out.append((a, tg))
        elif type(a) in (list, tuple):
            for t in a:
                if isinstance(t, _C.TensorBase):
                    tg = _tangent(t)
                    if tg is not None:
                        out.append((t, tg))
    for k, a in kwargs.items():
        if k != "out" and isinstance(a, _C.TensorBase):
            tg = _tangent(a)
            if tg is not None:
                out.append((a, tg))
    return out


def _any_dual(x):
    if isinstance(x, _C.TensorBase):
        return _tangent(x) is not None
    if type(x) in (list, tuple):
        return any(_any_dual(t) for t in x)
    return False


def _watcher(key, self, args, kwargs, proceed):
    """Every op call while a level is open (Note [Forward AD])."""
    if not getattr(_tls, "enabled", True):
        return proceed(args, kwargs)
    kind, name = key[0], key[2:]
    full = (self,) + args if kind == "m" else args
    duals = _duals(full, kwargs)
    out_arg = kwargs.get("out")
    if out_arg is not None:
        if duals or _any_dual(out_arg):
            raise NotImplementedError(_no_fw_msg(name + "_out", "it is an out= function"))
        return proceed(args, kwargs)
    if name == "detach":
        out = proceed(args, kwargs)
        if isinstance(out, _C.TensorBase):
            out.__dict__["_fw_base"] = None     # not forward-differentiable
        return out
    if name == "detach_":
        out = proceed(args, kwargs)
        full[0].__dict__.pop("_fw_tangent", None)
        full[0].__dict__["_fw_base"] = None
        return out
    if name in _NOT_OPS:
        return proceed(args, kwargs)
    inplace = (kind in "mp" and name.endswith("_") and not name.endswith("__")) or \
        name.startswith("inplace_") or name == "setitem"
    if inplace:
        return _inplace(kind, name, full, args, kwargs, duals, proceed)
    out = proceed(args, kwargs)
    if not duals:
        _track_views(full, out)
        return out
    return _propagate(kind, name, full, kwargs, duals, out)


def _viewed(full, o):
    """The tensor argument o is a view of (shares the storage of), or None."""
    b = o._base
    if b is None:
        return None
    for a in full:
        if isinstance(a, _C.TensorBase):
            if a is b or a._base is b:
                return a
        elif type(a) in (list, tuple):
            for t in a:
                if isinstance(t, _C.TensorBase) and (t is b or t._base is b):
                    return t
    return None


def _mark_view(o, x):
    """o is a view of x: its forward root is x's (when that is not o's storage owner)."""
    r = x.__dict__.get("_fw_base", _UNSET)
    if r is not _UNSET and "_fw_base" not in o.__dict__:
        o.__dict__["_fw_base"] = x if r is None else r


def _track_views(full, out):
    for o in (out if isinstance(out, tuple) else (out,)):
        if isinstance(o, _C.TensorBase) and o._base is not None:
            x = _viewed(full, o)
            if x is not None and x is not o:
                _mark_view(o, x)


def _propagate(kind, name, full, kwargs, duals, out):
    """The tangents of an out-of-place op's outputs (Note [Forward AD])."""
    multi = isinstance(out, tuple)
    outs = out if multi else (out,)
    inputs = [t for t, _ in duals]
    diff = [isinstance(o, _C.TensorBase) and _is_float(o) and not _is_arg(o, full)
            for o in outs]
    if not any(diff):
        _track_views(full, out)
        return out
    opname = _FORMULA_NAMES.get(name, name) if kind == "o" else name
    formula = _lookup(opname)
    if formula == "nondiff":
        for o in outs:
            if isinstance(o, _C.TensorBase) and _viewed(full, o) is not None:
                o.__dict__["_fw_base"] = None
        return out
    if formula is None:
        raise NotImplementedError(_no_fw_msg(name))
    views = [_viewed(full, o) if d else None for o, d in zip(outs, diff)]
    if all(v is not None for v, d in zip(views, diff) if d):
        with _unwatched():
            touts = _call_on_tangents(kind, name, full, kwargs, duals)
        touts = touts if isinstance(touts, tuple) else (touts,)
        for o, d, v, tg in zip(outs, diff, views, touts):
            if d:
                _mark_view(o, v)
                if any(v is t for t in inputs) and isinstance(tg, _C.TensorBase):
                    _attach(o, tg)
        return out
    with _unwatched():
        tangents = _jvp(opname, formula, full, kwargs, outs, diff, {id(t): tg for t, tg in duals})
        avoid = [tg for _, tg in duals]
        for o, d, tg in zip(outs, diff, tangents):
            if d and tg is not None:
                _attach(o, _adopt(o, tg, avoid))
    return out


def _is_arg(o, full):
    for a in full:
        if a is o:
            return True
        if type(a) in (list, tuple) and any(t is o for t in a):
            return True
    return False


def _call_on_tangents(kind, name, full, kwargs, duals):
    """The op called with each dual argument replaced by its tangent (views: the same view of
    the tangents)."""
    tmap = {id(t): tg for t, tg in duals}

    def sub(a):
        if isinstance(a, _C.TensorBase):
            return tmap.get(id(a), a)
        if type(a) in (list, tuple):
            return type(a)(sub(t) for t in a)
        return a

    fargs = tuple(sub(a) for a in full)
    fkw = {k: sub(v) for k, v in kwargs.items()}
    fn = _entry(kind, name)
    if kind == "m":
        return fn(fargs[0], *fargs[1:], **fkw)
    return fn(*fargs, **fkw)


# ---- Jacobian-vector products ------------------------------------------------------------------

_fast = True   # False: every op by the double-vjp trick (tests compare the two)


def _jvp(opname, formula, full, kwargs, outs, diff, tmap):
    """The tangents of outs (None where not differentiable) given the tangents tmap (id of an
    argument -> its tangent) of the op's arguments `full`."""
    if _fast:
        rule = _RULES.get(opname)
        if rule is not None:
            r = rule(full, kwargs, outs, tmap)
            if r is not None:
                return r
        if opname in _LINEAR and kwargs.get("out") is None:
            return _linear(opname, full, kwargs, outs, tmap)
        if len(outs) == 1:
            r = _pointwise(opname, formula, full, kwargs, outs[0], tmap)
            if r is not None:
                return (r,)
    return _double_vjp(opname, formula, full, kwargs, outs, diff, tmap)


# ---- Jacobian-vector products written out (Note [Forward AD]): cheaper than the double-vjp
# trick for the ops models use most, and numerically better for logcumsumexp

# rows linear in their floating tensor arguments together, whose other arguments only say
# where elements go (dims, indices, sizes): the op applied to the tangents (zeros for the
# arguments without one) is the tangent
_LINEAR = frozenset({"sum", "mean", "cumsum", "flip", "fliplr", "flipud", "rot90", "tril",
                     "triu", "diag", "diag_embed", "cat", "index_select", "gather", "take",
                     "index_add", "scatter_add", "index_copy", "neg", "conj_physical",
                     "to", "type_as", "half", "bfloat16", "cpu"})


def _linear(opname, full, kwargs, outs, tmap):
    import sys

    def sub(a):
        if isinstance(a, _C.TensorBase) and _is_float(a):
            tg = tmap.get(id(a))
            return tg.to(a.dtype) if tg is not None else _C.zeros(tuple(a.shape), dtype=a.dtype)
        if type(a) in (list, tuple):
            return type(a)(sub(t) for t in a)
        return a

    args = tuple(sub(a) for a in full)
    kw = {k: sub(v) for k, v in kwargs.items() if k != "out"}
    if args and isinstance(args[0], _C.TensorBase) and hasattr(args[0], opname):
        r = getattr(args[0], opname)(*args[1:], **kw)
    else:
        r = getattr(sys.modules["minitorch"], opname)(*args, **kw)
    return r if isinstance(r, tuple) else (r,)


def _tg(tmap, a, like=None):
    """The tangent of argument a (in a's dtype), or None."""
    if not isinstance(a, _C.TensorBase):
        return None
    tg = tmap.get(id(a))
    if tg is not None and tg.dtype != a.dtype:
        tg = tg.to(a.dtype)
    return tg


def _plus(a, b):
    return b if a is None else (a if b is None else a + b)


def _bilinear(method):
    """Products linear in each operand: d(a b) = da b + a db."""
    def rule(full, kwargs, outs, tmap):
        if len(full) != 2 or any(k != "out" for k in kwargs):
            return None
        a, b = full
        ta, tb = _tg(tmap, a), _tg(tmap, b)
        r = None
        if ta is not None:
            r = getattr(ta, method)(b)
        if tb is not None:
            r = _plus(r, getattr(a, method)(tb))
        return (r,)
    return rule


def _linear_rule(full, kwargs, outs, tmap):
    """linear(x, W, b) = x W^T + b."""
    names = ("input", "weight", "bias")
    args = list(full) + [None] * (3 - len(full))
    for i, n in enumerate(names):
        if n in kwargs:
            args[i] = kwargs[n]
    x, w, b = args
    tx, tw, tb = _tg(tmap, x), _tg(tmap, w), _tg(tmap, b)
    r = None
    if tx is not None:
        r = tx.matmul(w.mT)
    if tw is not None:
        r = _plus(r, x.matmul(tw.mT))
    if tb is not None:
        r = _plus(r, tb)
    return (r.expand(tuple(outs[0].shape)),)


def _addmm_like(product):
    """addmm / addmv / baddbmm: beta self + alpha product(m1, m2)."""
    def rule(full, kwargs, outs, tmap):
        if len(full) != 3 or any(k not in ("beta", "alpha") for k in kwargs):
            return None
        s, m1, m2 = full
        beta, alpha = kwargs.get("beta", 1), kwargs.get("alpha", 1)
        ts, t1, t2 = _tg(tmap, s), _tg(tmap, m1), _tg(tmap, m2)
        r = None
        if t1 is not None:
            r = getattr(t1, product)(m2)
        if t2 is not None:
            r = _plus(r, getattr(m1, product)(t2))
        if r is not None and alpha != 1:
            r = r * alpha
        if ts is not None:
            r = _plus(r, ts * beta if beta != 1 else ts)
        return (r.expand(tuple(outs[0].shape)),)
    return rule


def _softmax_dim(full, kwargs):
    dim = full[1] if len(full) > 1 else kwargs.get("dim")
    return dim if isinstance(dim, int) else None


def _softmax_rule(full, kwargs, outs, tmap):
    """softmax: y (t - sum(y t))."""
    dim, y = _softmax_dim(full, kwargs), outs[0]
    t = _tg(tmap, full[0])
    if dim is None or t is None or y.dtype.is_complex:
        return None
    t = t.to(y.dtype)
    return (y * (t - (y * t).sum(dim, keepdim=True)),)


def _log_softmax_rule(full, kwargs, outs, tmap):
    """log_softmax: t - sum(softmax t)."""
    dim, y = _softmax_dim(full, kwargs), outs[0]
    t = _tg(tmap, full[0])
    if dim is None or t is None or y.dtype.is_complex:
        return None
    t = t.to(y.dtype)
    return (t - (y.exp() * t).sum(dim, keepdim=True),)


def _logcumsumexp_rule(full, kwargs, outs, tmap):
    """out_t[j] = sum over i <= j of exp(x_i - out_j) t_i, the positive and negative parts of t
    summed in log space; zero where out is -inf (no element contributes)."""
    x, y = full[0], outs[0]
    dim = full[1] if len(full) > 1 else kwargs.get("dim")
    t = _tg(tmap, x)
    if t is None or y.dtype.is_complex or not isinstance(dim, int):
        return None
    pos = (x + t.clamp_min(0).log()).logcumsumexp(dim) - y
    neg = (x + (-t).clamp_min(0).log()).logcumsumexp(dim) - y
    r = pos.exp() - neg.exp()
    return (r.masked_fill(y == float("-inf"), 0),)


_RULES = {
    "mm": _bilinear("mm"), "bmm": _bilinear("bmm"), "matmul": _bilinear("matmul"),
    "mv": _bilinear("mv"), "dot": _bilinear("dot"),
    "linear": _linear_rule,
    "addmm": _addmm_like("mm"), "addmv": _addmm_like("mv"), "baddbmm": _addmm_like("bmm"),
    "softmax": _softmax_rule, "log_softmax": _log_softmax_rule,
    "logcumsumexp": _logcumsumexp_rule,
}


_linear_params = {}   # op -> the parameters whose declared formula is grad times a factor


def _mentions_grad(node):
    return any(isinstance(n, ast.Name) and n.id in ("grad", "grads") for n in ast.walk(node))


def _zero_const(node):
    return isinstance(node, ast.Constant) and node.value == 0


def _is_scaled_grad(node):
    """Whether the formula is elementwise-linear in grad: grad times (or divided by) factors
    that do not contain it, a choice between such terms, or such a term with elements zeroed."""
    if isinstance(node, ast.Name):
        return node.id == "grad"
    if isinstance(node, ast.BinOp):
        if isinstance(node.op, ast.Mult):
            return (_is_scaled_grad(node.left) and not _mentions_grad(node.right)) or \
                (_is_scaled_grad(node.right) and not _mentions_grad(node.left))
        if isinstance(node.op, ast.Div):
            return _is_scaled_grad(node.left) and not _mentions_grad(node.right)
        if isinstance(node.op, (ast.Add, ast.Sub)):
            return _is_scaled_grad(node.left) and _is_scaled_grad(node.right)
        return False
    if isinstance(node, ast.UnaryOp):
        return isinstance(node.op, (ast.USub, ast.UAdd)) and _is_scaled_grad(node.operand)
    if isinstance(node, ast.IfExp):
        return not _mentions_grad(node.test) and _is_scaled_grad(node.body) and \
            _is_scaled_grad(node.orelse)
    if isinstance(node, ast.Call) and not node.keywords:
        f, a = node.func, node.args
        if isinstance(f, ast.Name):
            if f.id == "where" and len(a) == 3:
                return not _mentions_grad(a[0]) and \
                    all(_is_scaled_grad(x) or _zero_const(x) for x in a[1:])
            if f.id in ("conj", "zeros_like") and len(a) == 1:
                return _is_scaled_grad(a[0])
            if f.id in _SCALING_HELPERS and a:    # elementwise: grad times a factor
                return _is_scaled_grad(a[0]) and not any(_mentions_grad(x) for x in a[1:])
        if isinstance(f, ast.Attribute) and f.attr == "masked_fill" and len(a) == 2:
            return _is_scaled_grad(f.value) and not _mentions_grad(a[0]) and _zero_const(a[1])
    return False


# vocabulary functions that multiply their first argument (the gradient) elementwise by a
# factor of the others
_SCALING_HELPERS = frozenset({"gelu_backward"})


def _scaled_params(opname, c):
    names = _linear_params.get(opname)
    if names is None:
        names = frozenset(n for n, tree in c.decl.trees.items()
                          if n not in c.decl.joint_of and _is_scaled_grad(tree))
        _linear_params[opname] = names
    return names


def _broadcasts_to(shape, target):
    if len(shape) > len(target):
        return False
    return all(s == 1 or s == t for s, t in zip(reversed(shape), reversed(target)))


def _pointwise(opname, formula, full, kwargs, o, tmap):
    """The tangent of an elementwise op's output o from declared formulas that are grad times
    a factor (Note [Forward AD]), or None when the op is not one (then the double-vjp trick)."""
    c = getattr(formula, "declared", None)
    if c is None or o.dtype.is_complex:
        return None
    values = c.bind(full, kwargs)
    if values is None:
        return None
    scaled = _scaled_params(opname, c)
    shape = tuple(o.shape)
    terms = []
    for p in c.decl.params:
        v = values.get(p.name)
        if not p.is_tensor or not isinstance(v, _C.TensorBase):
            continue
        if v.dtype.is_complex or not _broadcasts_to(tuple(v.shape), shape):
            return None
        tg = tmap.get(id(v))
        if tg is None:
            continue
        if p.name not in scaled or tg.dtype.is_complex:
            return None
        terms.append((p.name, tg))
    if not terms:
        return None
    env = dict(values)
    env["has_grad"] = _always
    env["result"], env["results"] = o, (o,)
    total = None
    for name, tg in terms:
        g = tg if tuple(tg.shape) == shape else tg.expand(shape)
        env["grad"], env["grads"] = g, (g,)
        r = c.evaluate(name, env)
        if not isinstance(r, _C.TensorBase):
            return None
        total = r if total is None else total + r
    if tuple(total.shape) != shape:
        total = total.expand(shape)
    return total if total.dtype == o.dtype else total.to(o.dtype)


def _always(i):
    return True


def _inner(gi, tg):
    """Re<gi, tg> summed (a real scalar)."""
    if gi.dtype.is_complex:
        return (gi.conj() * tg).real.sum()
    if tg.dtype.is_complex:
        return (gi * tg.real).sum()
    return (gi * tg).sum()


def _double_vjp(opname, formula, full, kwargs, outs, diff, tmap):
    """Tangents by the double-vjp trick (Note [Forward AD])."""
    from . import grad as _grad
    slots = _slots(full, kwargs)
    tgs = [tmap.get(id(t)) for _, _, t in slots]
    create = _C.is_grad_enabled() and (any(tg is not None and tg.requires_grad for tg in tgs) or
                                       any(t.requires_grad for _, _, t in slots))
    multi = len(outs) > 1
    ctx = Ctx()
    ctx.name = node_name(opname)
    if create:
        ctx._args = full
        ctx._out_refs = [weakref.ref(o) if d else None for o, d in zip(outs, diff)]
    else:
        ctx._args = _detached(full, tmap)
        ctx._out_refs = [None] * len(outs)
    ctx.kwargs = {k: v for k, v in kwargs.items() if k != "out"}
    outs_d = tuple(o.detach() if isinstance(o, _C.TensorBase) else o for o in outs)
    ctx._out = outs_d if multi else outs_d[0]
    ctx.multi = multi
    ctx.formula = formula
    ctx.slots = [(p, s, t.shape, t.dtype, tg is not None) for (p, s, t), tg in zip(slots, tgs)]
    ctx.shapes = [(o.shape, o.dtype) if d else None for o, d in zip(outs, diff)]
    ctx._arg_versions = []
    ctx._out_versions = []
    # (u = ones: the derivative of a linear map is the same everywhere, and a formula written
    # with log|u| (logcumsumexp) is smooth there, not at 0)
    vs = [_C.ones(tuple(o.shape), dtype=o.dtype).requires_grad_() if d else None
          for o, d in zip(outs, diff)]
    prev = _C._set_grad_enabled(True)
    try:
        grads = _apply_formula(ctx, vs)
        s = None
        for gi, tg in zip(grads, tgs):
            if gi is None or tg is None:
                continue
            term = _inner(gi, tg)
            s = term if s is None else s + term
        wanted = [v for v in vs if v is not None]
        if s is None or not s.requires_grad:
            res = [None] * len(wanted)
        else:
            _C._set_grad_enabled(prev)
            res = list(_grad(s, wanted, allow_unused=True, create_graph=create))
    except NotImplementedError as e:
        # the formula is not differentiable (CTC's): no Jacobian-vector product either
        raise NotImplementedError(_no_fw_msg(opname)) from e
    finally:
        _C._set_grad_enabled(prev)
    out, k = [], 0
    for o, d in zip(outs, diff):
        if not d:
            out.append(None)
            continue
        r = res[k]
        k += 1
        out.append(r if r is not None else _C.zeros(tuple(o.shape), dtype=o.dtype))
    return out


def _detached(full, tmap):
    """The arguments without their history; the dual ones require grad (as the arguments of a
    recorded op would: a formula may differentiate a recomputation, lstm_layer's)."""
    def det(a):
        if isinstance(a, _C.TensorBase):
            if id(a) in tmap:
                return a.detach().requires_grad_(True)
            return a.detach() if a.requires_grad else a
        if type(a) in (list, tuple) and any(isinstance(t, _C.TensorBase) for t in a):
            return type(a)(det(t) for t in a)
        return a
    return tuple(det(a) for a in full)


# ---- in-place ops ----------------------------------------------------------------------------

def _inplace_opname(name):
    if name == "setitem":
        return "__setitem__"
    if name.startswith("inplace_"):
        return _FORMULA_NAMES.get(name[8:], name[8:])
    return name if _lookup(name) is not None else name[:-1]


def _inplace(kind, name, full, args, kwargs, duals, proceed):
    """An in-place op: self's new tangent written into its tangent (Note [Forward AD views])."""
    self = full[0]
    if name in _LAYOUT_INPLACE:
        out = proceed(args, kwargs)
        tg = self.__dict__.get("_fw_tangent")
        if tg is not None:
            with _unwatched():
                fn = _entry(kind, name)
                if kind == "m":
                    fn(tg, *args, **kwargs)
                else:
                    fn(tg, *args[1:], **kwargs)
        return out
    if not duals:
        return proceed(args, kwargs)
    if name in _RESIZE:
        if name != "set_" and _tangent(self) is not None:
            raise RuntimeError("cannot resize variables that has a forward grad")
        if name == "set_":
            raise NotImplementedError(_no_fw_msg(name))
        return proceed(args, kwargs)
    if not isinstance(self, _C.TensorBase) or not _is_float(self):
        return proceed(args, kwargs)
    opname = _inplace_opname(name)
    formula = _lookup(opname)
    if formula is None:
        raise NotImplementedError(_no_fw_msg(name))
    tmap = {id(t): tg for t, tg in duals}
    if opname == "__setitem__":
        out = proceed(args, kwargs)
        value = full[2]
        tv = tmap.get(id(value)) if isinstance(value, _C.TensorBase) else None
        with _unwatched():
            tg = _ensure_tangent(self)
            tg[full[1]] = tv.to(tg.dtype) if tv is not None else 0
        return out
    if opname == "copy_":
        out = proceed(args, kwargs)
        src = full[1]
        ts = tmap.get(id(src)) if isinstance(src, _C.TensorBase) else None
        _write(self, ts if ts is not None else _ZERO)
        return out
    if formula == "nondiff":
        out = proceed(args, kwargs)
        _write(self, _ZERO)
        return out
    with _unwatched():
        old = self.clone()             # self's values before the op, for its formula
    records = _C.is_grad_enabled() and any(t.requires_grad for t in _tensor_args(full, kwargs))
    if records:
        before = (self.grad_fn, self._base.grad_fn if self._base is not None else None)
    out = proceed(args, kwargs)
    if records and tmap.get(id(self)) is not None:
        _tangent_for_saved_self(self, before, tmap[id(self)])
    t_self = tmap.pop(id(self), None)
    if t_self is not None:
        tmap[id(old)] = t_self
    sub = tuple(old if a is self else a for a in full)
    with _unwatched():
        nt = _jvp(opname, formula, sub, kwargs, (self,), [True], tmap)[0]
    _write(self, nt)
    return out


def _tensor_args(full, kwargs):
    for a in list(full) + list(kwargs.values()):
        if isinstance(a, _C.TensorBase):
            yield a
        elif type(a) in (list, tuple):
            yield from (t for t in a if isinstance(t, _C.TensorBase))


def _tangent_for_saved_self(self, before, t_old):
    """The recorder keeps a copy of self's old values for the in-place op's formula: with the
    old tangent, the formula's results carry the right tangents in a backward pass run inside
    the level (forward over reverse)."""
    nodes = (self.grad_fn, self._base.grad_fn if self._base is not None else None)
    for node, prev in zip(nodes, before):
        ctx = getattr(node, "_ctx", None) if node is not prev else None
        saved = getattr(ctx, "_args", None) if ctx is not None else None
        if saved and isinstance(saved[0], _C.TensorBase) and saved[0] is not self and \
                saved[0].__dict__.get("_fw_tangent") is None:
            with _unwatched():
                _attach(saved[0], t_old.clone())
            return


def _ensure_tangent(t):
    """t's tangent, made (zeros in t's dtype, for t's root when t is a view) when it has
    none."""
    tg = _tangent(t)
    if tg is not None:
        return tg
    r = _root(t)
    if r is not None and r.__dict__.get("_fw_tangent") is None and \
            t.element_size() == r.element_size():
        _attach(r, _like_layout(r, r.dtype))
        tg = _tangent(t)
        if tg is not None:
            return tg
    tg = _like_layout(t, t.dtype)
    _attach(t, tg)
    return tg


def _write(t, nt):
    """Makes nt (a tensor, or _ZERO) t's tangent, in place of the old one."""
    with _unwatched():
        tg = _tangent(t)
        if nt is _ZERO:
            if tg is not None:
                tg.zero_()
            return
        if tg is None:
            tg = _ensure_tangent(t)
        if nt is tg:
            return
        if nt.untyped_storage().data_ptr() == tg.untyped_storage().data_ptr():
            nt = nt.clone()
        tg.copy_(nt)


# ---- autograd.Function -----------------------------------------------------------------------

def function_tangents(args):
    """The tangents of a custom Function's arguments when a level is open and one of them is
    dual, else None."""
    if not active():
        return None
    tgs = [_tangent(a) if isinstance(a, _C.TensorBase) else None for a in args]
    return tgs if any(t is not None for t in tgs) else None


class disabled:
    """Forward grad mode off inside (a custom Function's forward and jvp run so)."""

    def __enter__(self):
        self._prev = set_enabled(False)
        return self

    def __exit__(self, *exc):
        set_enabled(self._prev)
        return False


def function_jvp(cls, ctx, args, in_tangents, outs, viewed):
    """Runs cls.jvp with the arguments' tangents and gives the outputs theirs, with torch's
    checks (viewed[k]: the index of the argument output k is a view of or is, else None)."""
    from .function import Function
    if cls.jvp is Function.jvp:
        raise NotImplementedError("You must implement the jvp function for custom "
                                  "autograd.Function to use it with forward mode AD.")
    given = []
    for a, tg in zip(args, in_tangents):
        if tg is None and isinstance(a, _C.TensorBase) and _is_float(a) and \
                ctx.materialize_grads:
            tg = _C.zeros(tuple(a.shape), dtype=a.dtype)
        given.append(tg)
    versions = [t._version if isinstance(t, _C.TensorBase) else None for t in given]
    ctx._in_jvp = True
    try:
        with disabled():
            r = cls.jvp(ctx, *given)
    finally:
        ctx._in_jvp = False
    r = r if isinstance(r, tuple) else (r,)
    if len(r) != len(outs):
        raise RuntimeError("Function's jvp returned an invalid number of forward gradients "
                           f"(expected {len(outs)} but got {len(r)})")
    for k, (o, g) in enumerate(zip(outs, r)):
        if g is None:
            continue
        if not isinstance(g, _C.TensorBase):
            raise RuntimeError(f"expected Variable or None (got {type(g).__name__}) for grad "
                               f"output {k}.")
        if not isinstance(o, _C.TensorBase) or not _is_float(o) or \
                any(o is n for n in ctx._non_differentiable):
            raise RuntimeError(f"Function's jvp returned a gradient at position {k}, but  the "
                               "corresponding forward output is not a differentiable Tensor."
                               "You should return None at that position instead.")
        _check_size(o, g)
        i = viewed[k]
        j = next((j for j, a in enumerate(args) if a is o), None)
        if j is not None and any(o is d for d in ctx._dirty):
            if g is not given[j] or g._version == versions[j]:
                raise RuntimeError("An inplace custom Function is not modifying the forward mode "
                                   "gradients inplace. If the forward is modifying an input "
                                   "inplace, then the jvp function must modify the corresponding "
                                   "gradient inplace.")
            if in_tangents[j] is None:
                _attach(o, g)
            continue
        if i is not None:
            tin = given[i]
            if g._base is None:
                raise RuntimeError("A custom Function's forward is returning a view (or an input "
                                   "as-is) but the jvp is not returning a view.")
            if tin is not None and tin._base is not None:
                if g._base is not tin._base:
                    raise RuntimeError("A custom Function is returning a view but the jvp is not "
                                       "returning a view of the same base as the given grad "
                                       "input.")
            elif g._base is not tin:
                raise RuntimeError("A custom Function is returning a view but the jvp is not "
                                   "returning a view of the given grad input.")
        _attach(o, g)


# ---- aten._new_zeros_with_same_feature_meta ---------------------------------------------------

def new_zeros_with_same_feature_meta(self, other, *, self_num_batch_dims=0):
    """torch.ops.aten._new_zeros_with_same_feature_meta: zeros laid out as `other` (its sizes,
    strides, storage offset and storage size, the way a tangent is laid out as its primal),
    with the first self_num_batch_dims sizes of self in front as batch dimensions, each batch
    element a whole copy of other's storage (so the slices are arranged contiguously)."""
    k = int(self_num_batch_dims)
    if not 0 <= k <= self.dim():
        raise RuntimeError(f"self_num_batch_dims must be in [0, {self.dim()}], but got {k}")
    batch = tuple(self.shape[:k])
    n = _storage_numel(other)
    strides = []
    for s in reversed(batch):
        strides.insert(0, n)
        n *= s
    with _unwatched():
        flat = _C.zeros((n,), dtype=other.dtype, device=other.device)
        return flat.as_strided(batch + tuple(other.shape), tuple(strides) + tuple(other.stride()),
                               other.storage_offset())
