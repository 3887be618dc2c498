"""gradcheck: compares autograd's gradients with central finite differences."""
from .. import _C

__all__ = ["gradcheck", "gradgradcheck", "GradcheckError"]


class GradcheckError(RuntimeError):
    """The analytical and numerical Jacobians differ."""


def _stack(ts, dim):
    from .._joining import stack
    return stack(ts, dim)


def _allclose(a, b, **kw):
    from .._ops import allclose
    return allclose(a, b, **kw)


def _tuple(x):
    return (x,) if isinstance(x, _C.TensorBase) else tuple(x)


def _outputs(func, inputs):
    # grad mode stays on: func may itself differentiate (gradgradcheck's first derivative)
    return [o.detach().clone() for o in _tuple(func(*inputs)) if isinstance(o, _C.TensorBase)]


def _numerical(func, inputs, diff, eps):
    """J[i][o]: (numel of output o) x (numel of input i) by central differences."""
    outs0 = _outputs(func, inputs)
    jac = {}
    for i in diff:
        x = inputs[i]
        flat = x.detach().view(-1) if x.is_contiguous() else None
        if flat is None:
            raise GradcheckError("gradcheck needs contiguous inputs")
        cols = [[] for _ in outs0]
        for k in range(x.numel()):
            v = flat[k].item()
            flat[k] = v - eps
            lo = _outputs(func, inputs)
            flat[k] = v + eps
            hi = _outputs(func, inputs)
            flat[k] = v
            for o in range(len(outs0)):
                cols[o].append(((hi[o] - lo[o]) / (2 * eps)).reshape(-1))
        for o in range(len(outs0)):
            n = outs0[o].numel()
            jac[i, o] = _stack(cols[o], 1) if cols[o] else _C.zeros((n, 0), dtype=x.dtype)
    return outs0, jac


def _analytical(func, inputs, diff, nondet_tol=0.0):
    from . import grad as ag_grad
    outs = [o for o in _tuple(func(*inputs)) if isinstance(o, _C.TensorBase)]
    jac = {}
    for o, out in enumerate(outs):
        n = out.numel()
        rows = {i: [] for i in diff}
        for k in range(n):
            go = _C.zeros(out.shape, dtype=out.dtype)
            go.view(-1)[k] = 1
            if out.requires_grad:
                gs = ag_grad([out], [inputs[i] for i in diff], [go], retain_graph=True,
                             allow_unused=True)
            else:
                gs = [None] * len(diff)
            for i, g in zip(diff, gs):
                rows[i].append(g.reshape(-1) if g is not None else
                               _C.zeros(inputs[i].numel(), dtype=inputs[i].dtype))
        for i in diff:
            jac[i, o] = _stack(rows[i], 0) if rows[i] else \
                _C.zeros((0, inputs[i].numel()), dtype=inputs[i].dtype)
    return jac


def gradcheck(func, inputs, *, eps=1e-6, atol=1e-5, rtol=1e-3, raise_exception=True,
              nondet_tol=0.0, check_undefined_grad=True, check_grad_dtypes=False,
              check_batched_grad=False, check_batched_forward_grad=False, check_forward_ad=False,
              check_backward_ad=True, fast_mode=False, masked=None):
    """True when the gradients autograd computes for func at inputs match finite differences
    (inputs that require grad should be float64)."""
    inputs = _tuple(inputs)
    diff = [i for i, x in enumerate(inputs) if isinstance(x, _C.TensorBase) and x.requires_grad]
    if not diff:
        raise ValueError("gradcheck expects at least one input tensor to require gradient, but "
                         "none of the them have requires_grad=True.")
    for i in diff:
        if inputs[i].dtype not in (_C.float64, _C.complex128):
            import warnings
            warnings.warn(f"Input #{i} requires gradient and is not a double precision floating "
                          "point or complex. This check will likely fail if all the inputs are "
                          "not of double precision floating point or complex. ")
    outs0, num = _numerical(func, inputs, diff, eps)
    ana = _analytical(func, inputs, diff)
    for (i, o), a in ana.items():
        n = num[i, o]
        if a.shape != n.shape or not _allclose(a, n.to(a.dtype), rtol=rtol, atol=atol):
            if not raise_exception:
                return False
            raise GradcheckError(f"Jacobian mismatch for output {o} with respect to input {i},\n"
                                 f"numerical:{n}\nanalytical:{a}\n")
    return True


def gradgradcheck(func, inputs, grad_outputs=None, **kwargs):
    """gradcheck of the first derivative (needs formulas that are themselves recorded)."""
    from . import grad as ag_grad
    inputs = _tuple(inputs)

    def first(*xs):
        outs = _tuple(func(*xs))
        gos = grad_outputs
        if gos is None:
            gos = [_C.ones(o.shape, dtype=o.dtype) for o in outs]
        return ag_grad(outs, [x for x in xs if isinstance(x, _C.TensorBase) and x.requires_grad],
                       gos, create_graph=True, allow_unused=True)
    return gradcheck(first, inputs, **kwargs)
