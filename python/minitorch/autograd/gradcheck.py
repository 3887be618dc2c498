"""gradcheck / gradgradcheck: compare the gradients autograd computes with finite differences
(as torch.autograd.gradcheck).

The slow mode builds both Jacobians in full: the numerical one column by column (each input
element moved by -eps and +eps, central differences; a complex input also along its imaginary
axis, giving the conjugate Wirtinger derivative as torch defines it), the analytical one row by
row (one vector-Jacobian product per output element).  The fast mode compares one number per
input/output pair instead: v^T J u for random unit vectors u (inputs) and v (outputs), the
numerical side one directional difference per input.  A complex output is checked as its real
and its imaginary part.  Then, as torch does: the analytical Jacobian must not change when
computed again (up to nondet_tol), zero grad_outputs must give zero gradients of the inputs'
dtypes and shapes, undefined (None) grad_outputs must give undefined or zero gradients
(check_undefined_grad), and batched vector-Jacobian products must match one-by-one ones
(check_batched_grad).  Finite differences move the inputs' values in place and restore them,
without changing their version counters (as torch's writes through .data), so functions that
read the inputs through closures see the moves too.  check_forward_ad=True compares the Jacobian
computed by forward-mode AD (autograd.forward_ad: one forward pass per input element, or J u in
fast mode) with the numerical one, complex inputs through their real and imaginary parts (as
torch), and checks that a zero tangent and no tangent give the same tangents
(check_undefined_grad).  check_batched_forward_grad checks, without vmap, that the tangents are
linear in the input's tangent."""
import warnings

from .. import _C

__all__ = ["gradcheck", "gradgradcheck", "GradcheckError", "get_numerical_jacobian",
           "get_analytical_jacobian"]


class GradcheckError(RuntimeError):
    """The analytical and numerical gradients disagree (or the backward misbehaves)."""


def _mt():
    import minitorch
    return minitorch


def _as_tuple(x):
    if isinstance(x, tuple):
        return x
    return tuple(x) if isinstance(x, list) else (x,)


def _is_t(x):
    return isinstance(x, _C.TensorBase)


def _is_float_or_complex(x):
    return _is_t(x) and (x.dtype.is_floating_point or x.dtype.is_complex)


def _differentiable_outputs(x):
    return tuple(o for o in _as_tuple(x) if o.requires_grad)


def _diff_indices(inputs):
    return [i for i, x in enumerate(inputs) if _is_t(x) and x.requires_grad]


def _real_dtype(dtype):
    return {_C.complex128: _C.float64, _C.complex64: _C.float32}.get(dtype, dtype)


def _allclose_promoted(a, b, rtol, atol):
    mt = _mt()
    dtype = mt.promote_types(a.dtype, b.dtype)
    return bool(mt.allclose(a.to(dtype), b.to(dtype), rtol, atol))


def _stack(ts, dim):
    from .._joining import stack
    return stack(ts, dim)


def _is_sparse(x):
    return x.is_sparse


def _check_inputs(inputs):
    found = False
    for idx, x in enumerate(inputs):
        if _is_t(x) and x.requires_grad:
            if x.dtype not in (_C.float64, _C.complex128):
                warnings.warn(f"Input #{idx} requires gradient and is not a double precision "
                              "floating point or complex. This check will likely fail if all the "
                              "inputs are not of double precision floating point or complex. ",
                              stacklevel=3)
            if not _is_sparse(x) and not all(st > 0 or sz <= 1
                                             for st, sz in zip(x.stride(), x.shape)):
                raise RuntimeError(f"The {idx}th input has a dimension with stride 0. gradcheck "
                                   "only supports inputs that are non-overlapping to be able to "
                                   "compute the numerical gradients correctly. You should call "
                                   ".contiguous on the input before passing it to gradcheck.")
            found = True
    if not found:
        raise ValueError("gradcheck expects at least one input tensor to require gradient, but "
                         "none of them have requires_grad=True.")


# ---- sparse inputs -----------------------------------------------------------------------------

# Note [Sparse inputs of gradcheck]
# A sparse COO input that requires grad is checked through a dense stand-in: a leaf of its
# dense shape holding its values, from which each call of the function rebuilds a sparse tensor
# at a pattern of positions (the values read from the stand-in by indexing, so gradients flow
# back to it).  The Jacobians are then those torch's gradcheck builds, one row per position of
# the dense shape.  The analytical side rebuilds the input's own (coalesced) pattern, so the
# gradient of an unspecified element is zero, as in a sparse gradient of the input's pattern.
# The numerical side perturbs the same pattern (masked=True: unspecified elements are ignored)
# or every position (masked=False, the default, as torch's densified inputs), so a function
# whose gradient drops the unspecified elements fails unmasked, as torch's does.  The fast mode
# moves the input along a direction that is zero at the unspecified elements whatever `masked`
# says (as torch's), which is what perturbing the input's own pattern does.

def _dense_stand_ins(func, inputs, masked):
    """(analytical func, numerical func, inputs) with every sparse input that requires grad
    replaced by its dense stand-in (Note [Sparse inputs of gradcheck])."""
    mt = _mt()
    own, moved, stand_ins = {}, {}, []
    for i, x in enumerate(inputs):
        if not (_is_t(x) and x.requires_grad and _is_sparse(x)):
            stand_ins.append(x)
            continue
        c = x.detach().coalesce()
        sd = c.sparse_dim()
        own[i] = c._indices()
        if masked:
            moved[i] = own[i]
        elif sd:
            moved[i] = mt.ones(tuple(c.shape[:sd]), dtype=mt.bool).nonzero().t().contiguous()
        else:
            moved[i] = mt.zeros((0, 1), dtype=mt.int64)
        stand_ins.append(c.to_dense().requires_grad_())

    def rebuilt(patterns):
        def f(*xs):
            xs = list(xs)
            for i, idx in patterns.items():
                d = xs[i]
                values = d[tuple(idx)] if idx.shape[0] else d.unsqueeze(0)
                xs[i] = mt.sparse_coo_tensor(idx, values, tuple(d.shape), is_coalesced=True)
            return func(*xs)
        return f

    return rebuilt(own), rebuilt(moved), tuple(stand_ins)


# ---- numerical side --------------------------------------------------------------------------

class _Values:
    """Writes into an input's values as torch's finite differences write into .data: through a
    NumPy view of its memory, or, for dtypes NumPy lacks and device tensors, through the tensor
    with its version counter put back after each write: either way the version is left alone
    (so graphs that saved the input stay valid)."""

    def __init__(self, x):
        self.x = x
        self.shape = tuple(x.shape)
        try:
            self.arr = x.detach().numpy()
        except (TypeError, RuntimeError):
            self.arr = None
            self.t = x.detach()

    def get(self, idx):
        return self.arr[idx].item() if self.arr is not None else self.t[idx].item()

    def set(self, idx, value):
        if self.arr is not None:
            self.arr[idx] = value
        else:
            v = self.t._version
            self.t[idx] = value
            _C._set_version(self.t, v)

    def snapshot(self):
        return self.arr.copy() if self.arr is not None else self.t.clone()

    def set_all(self, orig, delta):
        """The values orig + delta (delta: a tensor of the input's shape, or 0)."""
        if self.arr is not None:
            import numpy as np
            d = 0 if isinstance(delta, (int, float, complex)) else delta.numpy()
            np.copyto(self.arr, orig + d)
        else:
            v = self.t._version
            self.t.copy_(orig + delta)
            _C._set_version(self.t, v)


def _outputs(fn, inputs):
    return tuple(o.detach().clone() if _is_t(o) else o for o in _as_tuple(fn(*inputs)))


def _same_shape_and_dtype(a, b, eps, idx=None):
    on = f"on index {idx} " if idx is not None else ""
    if a.shape != b.shape:
        raise AssertionError(f"Expected `func` to return outputs with the same shape when inputs "
                             f"are perturbed {on}by {eps}, but got: shapes {a.shape} and "
                             f"{b.shape}.")
    if a.dtype != b.dtype:
        raise AssertionError(f"Expected `func` to return outputs with the same dtype when inputs "
                             f"are perturbed {on}by {eps}, but got: dtypes {a.dtype} and "
                             f"{b.dtype}.")


def _central(fn, inputs, set_to, delta, norm, idx, eps):
    """The central difference of fn's float outputs when set_to(+-delta) moves the input."""
    set_to(-delta)
    lo = _outputs(fn, inputs)
    set_to(delta)
    hi = _outputs(fn, inputs)
    set_to(0)
    out = []
    for a, b in zip(lo, hi):
        if not _is_float_or_complex(a):
            continue
        _same_shape_and_dtype(a, b, eps, idx)
        out.append(((b - a) / (2 * norm)).reshape(-1))
    return out


def _numerical_jacobians(fn, inputs, eps, forward=False):
    """{(input i, output o): J} with J of shape (numel of input i, numel of output o), over the
    inputs that require grad and the float outputs (each input element moved in place and
    restored).  Complex outputs only for the forward-mode check (forward=True)."""
    base = [o for o in _outputs(fn, inputs) if _is_float_or_complex(o)]
    if not forward and any(o.dtype.is_complex for o in base):
        raise ValueError("Expected output to be non-complex. get_numerical_jacobian no longer "
                         "supports functions that return complex outputs.")
    jac = {}
    for i in _diff_indices(inputs):
        x = inputs[i]
        vals = _Values(x)
        cols = [[] for _ in base]
        shape = tuple(x.shape)
        for k in range(x.numel()):
            idx = _unravel(k, shape)
            orig = vals.get(idx)

            def set_to(d, idx=idx, orig=orig):
                vals.set(idx, orig + d)

            col = _central(fn, inputs, set_to, eps, eps, idx, eps)
            if x.dtype.is_complex:
                col_im = _central(fn, inputs, set_to, eps * 1j, eps, idx, eps)
                col = [a + b * 1j for a, b in zip(col, col_im)]
            for o, c in enumerate(col):
                cols[o].append(c)
        for o, out in enumerate(base):
            dtype = x.dtype if x.dtype.is_complex else out.dtype
            if cols[o]:
                jac[i, o] = _stack(cols[o], 0).to(dtype)
            else:
                jac[i, o] = _C.zeros((0, out.numel()), dtype=dtype, device=out.device)
    return jac


def _unravel(k, shape):
    idx = []
    for n in reversed(shape):
        idx.append(k % n if n else 0)
        k = k // n if n else 0
    return tuple(reversed(idx))


# ---- analytical side -------------------------------------------------------------------------

def _vjps(output, diff_inputs, grad_output):
    from . import grad
    return grad(output, diff_inputs, grad_output, retain_graph=True, allow_unused=True)


def _analytical_jacobians(inputs, output, nondet_tol, check_grad_dtypes, v=None):
    """Per input that requires grad, its Jacobian against `output`: (numel of the input,
    numel of the output), or (numel, 1) for the vector v (fast mode), computed twice to check
    that the backward is deterministic (within nondet_tol)."""
    diff = [x for x in inputs if _is_t(x) and x.requires_grad]
    if v is not None:
        grad_outputs = [v.reshape(output.shape)]
    else:
        grad_outputs = _unit_vectors(output)

    first, second, sizes_ok, types_ok = _analytical_jacobian_twice(diff, output, grad_outputs)
    if not types_ok and check_grad_dtypes:
        raise GradcheckError("Gradient has dtype mismatch")
    if not sizes_ok:
        raise GradcheckError("Analytical gradient has incorrect size")
    if not _same_within(first, second, nondet_tol):
        raise GradcheckError("Backward is not reentrant, i.e., running backward with same "
                             "input and grad_output multiple times gives different values, "
                             "although analytical gradient matches numerical gradient.The "
                             f"tolerance for nondeterminism was {nondet_tol}.\n\nNOTE: a "
                             "backward that relies on nondeterministic operations may "
                             "legitimately fail this check; call gradcheck/gradgradcheck "
                             "with `nondet_tol=<tol>` then.")
    return first


def _same_within(first, second, nondet_tol):
    return all(not a.numel() or (a - b).abs().max().item() <= nondet_tol
               for a, b in zip(first, second))


def _unit_vectors(output):
    """One tensor of output's shape per element, that element 1 and the rest 0."""
    units = []
    for j in range(output.numel()):
        g = _C.zeros(tuple(output.shape), dtype=output.dtype, device=output.device)
        g.view(-1)[j] = 1
        units.append(g)
    return units


def _analytical_jacobian_twice(diff, output, grad_outputs):
    """The Jacobians of `output` against the tensors diff, one column per grad_output, computed
    twice; with whether every gradient had its input's shape, and its input's dtype."""

    def jacobians():
        cols = [[] for _ in diff]
        sizes_ok = types_ok = True
        for go in grad_outputs:
            for c, x, g in zip(cols, diff, _vjps(output, diff, go)):
                if g is None:
                    c.append(_C.zeros(x.numel(), dtype=x.dtype, device=x.device))
                    continue
                if g.shape != x.shape:
                    sizes_ok = False
                elif g.dtype != x.dtype:
                    types_ok = False
                c.append(g.reshape(-1).to(x.dtype))
        jac = [_stack(c, 1) if c else _C.zeros((x.numel(), 0), dtype=x.dtype, device=x.device)
               for c, x in zip(cols, diff)]
        return jac, sizes_ok, types_ok

    first, sizes_ok, types_ok = jacobians()
    second, _, _ = jacobians()
    return first, second, sizes_ok, types_ok


def _mismatch_msg(a, n, o, i, complex_indices, test_imag, forward=False):
    prefix = ""
    if complex_indices and (i if forward else o) in complex_indices:
        part = "imaginary" if test_imag else "real"
        prefix = (f"While considering the {part} part of complex "
                  f"{'inputs' if forward else 'outputs'} only, ")
    mode = "computed with forward mode " if forward else ""
    return (prefix + f"Jacobian {mode}mismatch for output {o:d} with respect to input {i:d},\n"
            f"numerical:{n}\nanalytical:{a}\n")


def _slow_check(func, func_out, inputs, outputs, eps, rtol, atol, check_grad_dtypes, nondet_tol,
                complex_indices=None, test_imag=False):
    func_out = _as_tuple(func_out)
    if not outputs:
        num = _numerical_jacobians(func, inputs, eps)
        for j in num.values():
            if j.numel() and bool((j != 0).any()):
                raise GradcheckError("Numerical gradient for function expected to be zero")
        return True
    num = _numerical_jacobians(func, inputs, eps)
    float_outs = [o for o in func_out if _is_float_or_complex(o)]
    diff = _diff_indices(inputs)
    # the numerical Jacobians of the outputs that require grad, in the order of `outputs`
    rows = [o for o, out in enumerate(float_outs) if out.requires_grad]
    for k, o_idx in enumerate(rows):
        analytical = _analytical_jacobians(inputs, outputs[k], nondet_tol, check_grad_dtypes)
        for j, (i, a) in enumerate(zip(diff, analytical)):
            n = num[i, o_idx]
            if not _allclose_promoted(a, n, rtol, atol):
                raise GradcheckError(_mismatch_msg(a, n, k, j, complex_indices, test_imag))
    return True


# ---- fast mode -------------------------------------------------------------------------------

def _unit_vector(x, generator, real=False):
    mt = _mt()
    dtype = _real_dtype(x.dtype) if real else x.dtype
    vec = mt.rand(x.numel(), generator=generator, dtype=_real_dtype(dtype)).to(
        device=x.device, dtype=dtype)
    norm = vec.norm()
    return vec / norm if norm.item() != 0 else vec


def _fast_check(func, func_out, inputs, outputs, eps, rtol, atol, check_grad_dtypes,
                nondet_tol, complex_indices=None, test_imag=False):
    mt = _mt()
    gen = mt.Generator()
    diff = _diff_indices(inputs)
    all_u = []
    for i in diff:
        ur = _unit_vector(inputs[i], gen, real=True)
        all_u.append((ur, _unit_vector(inputs[i], gen, real=True))
                     if inputs[i].dtype.is_complex else ur)
    all_v = [_unit_vector(o, gen) for o in outputs]
    func_out = _as_tuple(func_out)
    # numerical J u, one directional difference per input
    numerical = []
    for i, u in zip(diff, all_u):
        x = inputs[i]
        vals = _Values(x)
        orig = vals.snapshot()

        def set_to(d, vals=vals, orig=orig):
            vals.set_all(orig, d)

        def along(v):
            v = v.to(x.dtype).reshape(x.shape)
            return lambda d: set_to(v * d if d != 0 else 0)

        if isinstance(u, tuple):
            ju = _central(func, inputs, along(u[0]), eps, eps, None, eps)
            ju_im = _central(func, inputs, along(u[1]), eps * 1j, eps, None, eps)
            ju = [a + b * 1j for a, b in zip(ju, ju_im)]
        else:
            ju = _central(func, inputs, along(u), eps, eps, None, eps)
        if not outputs:
            for j in ju:
                if j.numel() and j.abs().max().item() > nondet_tol:
                    raise GradcheckError("Numerical gradient for function expected to be zero")
            continue
        float_outs = [o for o in func_out if _is_float_or_complex(o)]
        ju = [j for j, o in zip(ju, float_outs) if o.requires_grad]
        numerical.append([(v * j).sum() for v, j in zip(all_v, ju)])
    if not outputs:
        return True
    # analytical v^T J u
    analytical = []
    for o, v in zip(outputs, all_v):
        vj = _analytical_jacobians(inputs, o, nondet_tol, check_grad_dtypes, v=v)
        row = []
        for j, u in zip(vj, all_u):
            j = j.reshape(-1)
            if j.dtype.is_complex:
                jr = mt.view_as_real(j.resolve_conj())
                row.append(jr.select(-1, 0).dot(u[0]) + 1j * jr.select(-1, 1).dot(u[1]))
            else:
                row.append(j.dot(u))
        analytical.append(row)
    for i, per_input in enumerate(numerical):
        for j, n in enumerate(per_input):
            a = analytical[j][i]
            u = all_u[i]
            su = (u[0].sum().item() + u[1].sum().item()) if isinstance(u, tuple) else \
                u.sum().item()
            tol = atol * su * all_v[j].sum().item()
            if not _allclose_promoted(a, n, rtol, abs(tol)):
                raise GradcheckError(_mismatch_msg(a, n, j, i, complex_indices, test_imag) +
                                     _slow_mode_report(func, inputs, outputs, i, j, rtol, atol,
                                                       eps))
    return True


def _slow_mode_report(func, inputs, outputs, input_idx, output_idx, rtol, atol, eps):
    """What the slow mode finds for the failing pair, appended to a fast-mode failure."""
    diff = _diff_indices(inputs)
    num = _numerical_jacobians(func, inputs, eps)
    float_outs = [o for o in _as_tuple(func(*inputs)) if _is_float_or_complex(o)]
    rows = [o for o, out in enumerate(float_outs) if out.requires_grad]
    n = num[diff[input_idx], rows[output_idx]]
    a = _analytical_jacobians(inputs, outputs[output_idx], float("inf"), False)[input_idx]
    diff_max = (n - a.to(n.dtype)).abs().max().item() if n.numel() else 0.0
    msg = ("\nThe above quantities relating the numerical and analytical jacobians are computed "
           "\nin fast mode. Below, we recompute numerical and analytical jacobians in slow "
           f"mode:\n\nNumerical:\n {n}\nAnalytical:\n{a}\n\nThe max per-element difference "
           f"(slow mode) is: {diff_max}.\n")
    if _allclose_promoted(a, n, rtol, atol):
        msg += ("\nFast gradcheck failed but element-wise differences are small. This means "
                "that the\ntest might've passed in slow_mode! Call gradcheck/gradgradcheck with "
                "`fast_mode=False` then.")
    return msg


# ---- complex outputs, the further checks -------------------------------------------------------

def _real_and_imag_output(fn):
    def part(take):
        def wrapped(*inputs):
            return tuple(take(o) if _is_t(o) and o.dtype.is_complex else o
                         for o in _as_tuple(fn(*inputs)))
        return wrapped
    return part(lambda o: o.real), part(lambda o: o.imag)


def _check_real_imag(check, func, func_out, inputs, outputs, eps, rtol, atol, check_grad_dtypes,
                     nondet_tol, num_func=None):
    """num_func: the function the finite differences call, when not func (Note [Sparse
    inputs of gradcheck])."""
    num_func = func if num_func is None else num_func
    complex_indices = [i for i, o in enumerate(outputs) if o.dtype.is_complex]
    if any(_is_t(o) and o.dtype.is_complex for o in _as_tuple(func_out)):
        real_fn, imag_fn = _real_and_imag_output(func)
        real_num, imag_num = _real_and_imag_output(num_func)
        imag_out = imag_fn(*inputs)
        check(imag_num, imag_out, inputs, _differentiable_outputs(imag_out), eps, rtol, atol,
              check_grad_dtypes, nondet_tol, complex_indices=complex_indices, test_imag=True)
        real_out = real_fn(*inputs)
        check(real_num, real_out, inputs, _differentiable_outputs(real_out), eps, rtol, atol,
              check_grad_dtypes, nondet_tol, complex_indices=complex_indices)
    else:
        check(num_func, func_out, inputs, outputs, eps, rtol, atol, check_grad_dtypes,
              nondet_tol)


def _check_batched_grad(inputs, output, output_idx):
    """The vector-Jacobian products of a batch of two vectors (autograd.grad with
    is_grads_batched=True) must equal those of each vector."""
    from . import grad
    mt = _mt()
    diff = [x for x in inputs if _is_t(x) and x.requires_grad]

    def vjp(v, batched=False):
        res = grad(output, diff, v, retain_graph=True, allow_unused=True,
                   is_grads_batched=batched)
        shape = (v.shape[0],) if batched else ()
        return tuple(g if g is not None else
                     _C.zeros((), dtype=x.dtype, device=x.device).expand(shape + tuple(x.shape))
                     for g, x in zip(res, diff))

    vs = [mt.randn_like(output) for _ in range(2)]
    expected = [_stack(list(shards), 0) for shards in zip(*[vjp(v) for v in vs])]
    try:
        result = vjp(_stack(vs, 0), batched=True)
    except RuntimeError as ex:
        raise GradcheckError(f"While computing batched gradients, got: {ex}\n\ngradcheck or "
                             "gradgradcheck failed while testing batched gradient computation; "
                             "call it with `check_batched_grad=False` to skip this check.") \
            from ex
    for input_idx, (res, exp) in enumerate(zip(result, expected)):
        if not bool(mt.allclose(res, exp)):
            raise GradcheckError(f"For output {output_idx} and input {input_idx}:\n\ngradcheck or "
                                 "gradgradcheck failed while testing batched gradient "
                                 "computation; call it with `check_batched_grad=False` to skip "
                                 f"this check.\n\nGot:\n{res}\n\nExpected:\n{exp}")


def _check_mul_by_grad_output(outputs, inputs, masked):
    from . import grad
    mt = _mt()
    diff = [x for x in inputs if _is_t(x) and x.requires_grad]
    if not diff:
        raise GradcheckError("no Tensors requiring grad found in input")
    zeros = [_C.zeros(tuple(o.shape), dtype=o.dtype, device=o.device) for o in outputs]
    for gi, di in zip(grad(outputs, diff, zeros, allow_unused=True), diff):
        if gi is None:
            continue
        if masked:
            if not bool(mt.allclose(gi, mt.zeros_like(gi))):
                raise GradcheckError("backward not multiplied by grad_output")
        elif not bool(gi.eq(0).all()):
            raise GradcheckError("backward not multiplied by grad_output")
        if gi.dtype != di.dtype:
            raise GradcheckError("grad is incorrect type")
        if gi.device != di.device:
            raise GradcheckError("grad is incorrect device")
        if gi.shape != di.shape:
            raise GradcheckError("grad is incorrect size")
    return True


class _UndefinedGrad:
    """Wraps an output so that the gradient reaching it in a backward pass is undefined (None)
    whatever the gradient given for the wrapper."""
    _cls = None

    @classmethod
    def apply(cls, o):
        if cls._cls is None:
            from .function import Function

            class UndefinedGrad(Function):
                @staticmethod
                def forward(ctx, x):
                    return x.clone()

                @staticmethod
                def backward(ctx, g):
                    return None

            cls._cls = UndefinedGrad
        return cls._cls.apply(o)


def _check_undefined_grad(func, outputs, inputs):
    from . import grad
    diff = [x for x in inputs if _is_t(x) and x.requires_grad]
    if not diff:
        raise GradcheckError("no Tensors requiring grad found in input")

    def warn_bc():
        warnings.warn("Backwards compatibility: New undefined gradient support checking feature "
                      "is enabled by default, but it may break existing callers of this "
                      "function. If this is true for you, you can call this function with "
                      "\"check_undefined_grad=False\" to disable the feature", stacklevel=3)

    def check(outs):
        zeros = [_C.zeros(tuple(o.shape), dtype=o.dtype, device=o.device) for o in outs]
        try:
            got = grad(outs, diff, zeros, allow_unused=True)
        except RuntimeError as e:
            warn_bc()
            raise GradcheckError("Expected backward function to handle undefined output grads. "
                                 "Please look at \"Notes about undefined output gradients\" in "
                                 "\"tools/autograd/derivatives.yaml\"") from e
        for gi in got:
            if gi is not None and not bool(gi.eq(0).all()):
                warn_bc()
                raise GradcheckError("Expected all input grads to be undefined or zero when all "
                                     "output grads are undefined or zero. Please look at \"Notes "
                                     "about undefined output gradients\" in "
                                     "\"tools/autograd/derivatives.yaml\"")
        return True

    to_check = [[_UndefinedGrad.apply(o) for o in _differentiable_outputs(func(*inputs))
                 if _is_t(o)]]
    if len(to_check[0]) > 1:
        for k in range(len(outputs)):
            outs = _differentiable_outputs(func(*inputs))
            to_check.append([_UndefinedGrad.apply(o) if i == k else o
                             for i, o in enumerate(outs)])
    return all(check(outs) for outs in to_check)


# ---- forward mode -----------------------------------------------------------------------------

def _forward_ad_jacobians(func, inputs, check_grad_dtypes, all_u=None):
    """Per input that requires grad (real: complex inputs are checked through their real and
    imaginary parts), per float output: its Jacobian computed with forward-mode AD, of shape
    (numel of the input, numel of the output), one forward pass per input element; with all_u
    (a vector per input) J u instead, of shape (1, numel of the output)."""
    from . import forward_ad as fwAD
    mt = _mt()
    diff = _diff_indices(inputs)
    if any(inputs[i].dtype.is_complex for i in diff):
        raise ValueError("Expected inputs to be non-complex for _get_analytical_jacobian_forward_ad.")
    jac = []
    with fwAD.dual_level():
        duals, fw_grads = list(inputs), []
        for i in diff:
            d = fwAD.make_dual(inputs[i].detach(), mt.zeros_like(inputs[i]))
            fw_grads.append(fwAD.unpack_dual(d).tangent)  # (a copy when laid out otherwise)
            duals[i] = d

        def tangents():
            cols = []
            for o in _as_tuple(func(*duals)):
                if not _is_float_or_complex(o):
                    continue
                val, res = fwAD.unpack_dual(o)
                if check_grad_dtypes and res is not None and \
                        val.dtype.is_complex != res.dtype.is_complex:
                    raise GradcheckError("Forward AD gradient has dtype mismatch.")
                cols.append(res.reshape(-1).to(val.dtype).clone() if res is not None else
                            _C.zeros(val.numel(), dtype=val.dtype, device=val.device))
            return cols

        for k, (i, tg) in enumerate(zip(diff, fw_grads)):
            if all_u is not None:
                tg.copy_(all_u[k].reshape(tg.shape))
                jac.append([c.reshape(1, -1) for c in tangents()])
                tg.zero_()
                continue
            per_elem = []
            for lin in range(tg.numel()):
                idx = _unravel(lin, tuple(tg.shape))
                tg[idx] = 1
                per_elem.append(tangents())
                tg[idx] = 0
            if per_elem:
                jac.append([_stack(list(c), 0) for c in zip(*per_elem)])
            else:
                outs = [o for o in _as_tuple(func(*duals)) if _is_float_or_complex(o)]
                jac.append([_C.zeros((0, o.numel()), dtype=o.dtype, device=o.device) for o in outs])
    return jac


def _slow_forward_check(func, func_out, inputs, outputs, eps, rtol, atol, check_grad_dtypes,
                        nondet_tol, complex_indices=None, test_imag=False):
    func_out = _as_tuple(func_out)
    if not outputs:
        return _slow_check(func, func_out, inputs, outputs, eps, rtol, atol, check_grad_dtypes,
                           nondet_tol)
    num = _numerical_jacobians(func, inputs, eps, forward=True)
    float_outs = [o for o in func_out if _is_float_or_complex(o)]
    rows = [o for o, out in enumerate(float_outs) if out.requires_grad]
    analytical = _forward_ad_jacobians(func, inputs, check_grad_dtypes)
    for k, o_idx in enumerate(rows):
        for j, i in enumerate(_diff_indices(inputs)):
            a, n = analytical[j][o_idx], num[i, o_idx]
            if not _allclose_promoted(a, n, rtol, atol):
                raise GradcheckError(_mismatch_msg(a, n, k, j, complex_indices, test_imag,
                                                   forward=True))
    return True


def _fast_forward_check(func, func_out, inputs, outputs, eps, rtol, atol, check_grad_dtypes,
                        nondet_tol, complex_indices=None, test_imag=False):
    """J u for a random unit vector u per input, by forward-mode AD and by one directional
    difference, compared output by output."""
    mt = _mt()
    func_out = _as_tuple(func_out)
    if not outputs:
        return _fast_check(func, func_out, inputs, outputs, eps, rtol, atol, check_grad_dtypes,
                           nondet_tol)
    gen = mt.Generator()
    diff = _diff_indices(inputs)
    all_u = [_unit_vector(inputs[i], gen, real=True) for i in diff]
    analytical = _forward_ad_jacobians(func, inputs, check_grad_dtypes, all_u=all_u)
    for j, (i, u) in enumerate(zip(diff, all_u)):
        x = inputs[i]
        vals = _Values(x)
        orig = vals.snapshot()

        def set_to(d, vals=vals, orig=orig, u=u, x=x):
            vals.set_all(orig, u.to(x.dtype).reshape(x.shape) * d if d != 0 else 0)

        ju = _central(func, inputs, set_to, eps, eps, None, eps)
        tol = abs(atol * u.sum().item())
        for o, n in enumerate(ju):
            a = analytical[j][o].reshape(-1)
            if not _allclose_promoted(a, n, rtol, tol):
                raise GradcheckError(_mismatch_msg(a, n, o, j, complex_indices, test_imag,
                                                   forward=True) +
                                     _slow_forward_report(func, inputs, i, o, rtol, atol, eps))
    return True


def _slow_forward_report(func, inputs, input_idx, output_idx, rtol, atol, eps):
    """What the slow mode finds for the failing pair, appended to a fast-mode failure."""
    def one(x):
        args = list(inputs)
        args[input_idx] = x
        return [o for o in _as_tuple(func(*args)) if _is_float_or_complex(o)][output_idx]

    x = inputs[input_idx]
    n = _numerical_jacobians(one, (x,), eps, forward=True)[0, 0]
    a = _forward_ad_jacobians(one, (x,), False)[0][0]
    diff_max = (n - a.to(n.dtype)).abs().max().item() if n.numel() else 0.0
    msg = ("\nThe above quantities relating the numerical and analytical jacobians are computed "
           "\nin fast mode. Below, we recompute numerical and analytical jacobians in slow "
           f"mode:\n\nNumerical:\n {n}\nAnalytical:\n{a}\n\nThe max per-element difference "
           f"(slow mode) is: {diff_max}.\n")
    if _allclose_promoted(a, n, rtol, atol):
        msg += ("\nFast gradcheck failed but element-wise differences are small. This means "
                "that the\ntest might've passed in slow_mode! Call gradcheck/gradgradcheck with "
                "`fast_mode=False` then.")
    return msg


def _real_and_imag_input(fn, complex_indices, inputs):
    """fn as a function of the real parts of its complex inputs (imaginary parts fixed), and
    as one of their imaginary parts (real parts fixed)."""
    def part(make):
        def wrapped(*xs):
            xs = list(xs)
            for i in complex_indices:
                xs[i] = make(xs[i], inputs[i])
            return _as_tuple(fn(*xs))
        return wrapped
    return part(lambda x, orig: x + orig.imag * 1j), part(lambda x, orig: orig.real + x * 1j)


def _check_forward(check, func, func_out, inputs, outputs, eps, rtol, atol, check_grad_dtypes,
                   nondet_tol, check_undefined_grad):
    """The forward-mode check, a complex input through its real and imaginary parts (as
    torch)."""
    complex_indices = [i for i, x in enumerate(inputs) if _is_t(x) and x.dtype.is_complex]
    if not complex_indices:
        check(func, func_out, inputs, outputs, eps, rtol, atol, check_grad_dtypes, nondet_tol)
        if check_undefined_grad:
            _check_undefined_forward(func, inputs)
        return
    real_fn, imag_fn = _real_and_imag_input(func, complex_indices, inputs)
    imag_inputs = tuple(x.imag if _is_t(x) and x.dtype.is_complex else x for x in inputs)
    imag_out = imag_fn(*imag_inputs)
    check(imag_fn, imag_out, imag_inputs, _differentiable_outputs(imag_out), eps, rtol, atol,
          check_grad_dtypes, nondet_tol, complex_indices=complex_indices, test_imag=True)
    real_inputs = tuple(x.real if _is_t(x) and x.dtype.is_complex else x for x in inputs)
    real_out = real_fn(*real_inputs)
    check(real_fn, real_out, real_inputs, _differentiable_outputs(real_out), eps, rtol, atol,
          check_grad_dtypes, nondet_tol, complex_indices=complex_indices)
    if check_undefined_grad:
        _check_undefined_forward(imag_fn, imag_inputs)
        _check_undefined_forward(real_fn, real_inputs)


def _check_undefined_forward(func, inputs):
    """An input whose tangent is zero must give the tangents that an input without one (a
    plain tensor) gives."""
    from . import forward_ad as fwAD
    mt = _mt()
    gen = mt.Generator()
    with fwAD.dual_level():
        duals, tensor_idx = list(inputs), []
        for i, x in enumerate(inputs):
            if _is_t(x) and x.requires_grad:
                d = fwAD.make_dual(x.detach(), mt.zeros_like(x))
                fwAD.unpack_dual(d).tangent.copy_(_unit_vector(x, gen).reshape(x.shape))
                duals[i] = d
                tensor_idx.append(i)
        for i in tensor_idx:
            keep = duals[i]
            duals[i] = fwAD.make_dual(inputs[i].detach(), mt.zeros_like(inputs[i]))
            outs1 = [o for o in _as_tuple(func(*duals)) if _is_float_or_complex(o)]
            duals[i] = inputs[i].detach()
            outs2 = [o for o in _as_tuple(func(*duals)) if _is_float_or_complex(o)]
            duals[i] = keep
            for k, (o1, o2) in enumerate(zip(outs1, outs2)):
                r1, r2 = fwAD.unpack_dual(o1).tangent, fwAD.unpack_dual(o2).tangent
                if r1 is not None and r2 is not None and not bool(mt.allclose(r1, r2)):
                    raise GradcheckError(f"Mismatch in tangent values for output with index: {k} "
                                         f"when input: {inputs[i]} has an undefined tangent "
                                         f"value.  Got: {r1} but expected: {r2}")
    return True


def _check_batched_forward_grad(func, inputs):
    """torch checks that tangents batched by vmap give the tangents of each; minitorch has no
    vmap, so this checks what that relies on: the tangents are linear in the input's tangent
    (those of t1 + 2 t2 against those of t1 and t2, for random t1, t2)."""
    from . import forward_ad as fwAD
    mt = _mt()
    for idx, x in enumerate(inputs):
        if not (_is_t(x) and x.requires_grad and _is_float_or_complex(x)):
            continue

        def jvp(tangent, idx=idx, x=x):
            with fwAD.dual_level():
                dual = fwAD.make_dual(x.detach(), tangent)
                args = tuple(dual if k == idx else (a.detach() if _is_t(a) else a)
                             for k, a in enumerate(inputs))
                ret = []
                for o in _as_tuple(func(*args)):
                    if o is None:
                        continue
                    p, t = fwAD.unpack_dual(o)
                    ret.append(t if t is not None else
                               _C.zeros((), dtype=p.dtype, device=p.device).expand(tuple(p.shape)))
                return tuple(ret)

        t1, t2 = mt.randn_like(x), mt.randn_like(x)
        e1, e2 = jvp(t1), jvp(t2)
        state = mt.default_generator.get_state()
        try:
            got = jvp(t1 + 2 * t2)
            if not mt.equal(state, mt.default_generator.get_state()):
                # (under torch's vmap, which this check stands for, random ops are refused)
                raise RuntimeError("vmap: We do not yet support calling random operations "
                                   "inside of vmap. Please perform random operations outside "
                                   "of vmap as a workaround")
        except RuntimeError as ex:
            raise GradcheckError(f"While computing batched gradients, got: {ex}\n\ngradcheck "
                                 "failed while testing batched forward gradients; call it with "
                                 "`check_batched_forward_grad=False` to skip this check.") from ex
        for k, (res, a, b) in enumerate(zip(got, e1, e2)):
            if not _is_float_or_complex(res):
                continue
            exp = a + 2 * b
            if not bool(mt.allclose(res, exp)):
                raise GradcheckError(f"For output {k} and input {idx}:\n\ngradcheck failed while "
                                     "testing batched forward gradients (the tangents are not "
                                     "linear in the input's tangent); call it with "
                                     "`check_batched_forward_grad=False` to skip this check.\n\n"
                                     f"Got:\n{res}\n\nExpected:\n{exp}")
    return True


def gradcheck(func, inputs, *, eps=1e-6, atol=1e-5, rtol=1e-3, raise_exception=True,
              nondet_tol=0.0, check_undefined_grad=True, check_grad_dtypes=False,
              check_batched_grad=False, check_batched_forward_grad=False, check_forward_ad=False,
              check_backward_ad=True, fast_mode=False, masked=None):
    """True when the gradients autograd computes for func at inputs match finite differences
    (see the module's docstring); a mismatch raises GradcheckError, or returns False with
    raise_exception=False.  Inputs that require grad should be float64 or complex128."""
    if not (check_forward_ad or check_backward_ad):
        raise AssertionError("Expected at least one of check_forward_ad or check_backward_ad to "
                             "be True")
    if check_batched_grad and not check_backward_ad:
        raise AssertionError("Setting check_batched_grad=True requires check_backward_ad to be "
                             "True")
    if check_batched_forward_grad and not check_forward_ad:
        raise AssertionError("Setting check_batched_forward_grad=True requires check_forward_ad "
                             "to be True")
    try:
        return _gradcheck(func, inputs, eps, atol, rtol, nondet_tol, check_undefined_grad,
                          check_grad_dtypes, check_batched_grad, check_batched_forward_grad,
                          check_forward_ad, check_backward_ad, fast_mode, masked)
    except GradcheckError:
        if raise_exception:
            raise
        return False


def _gradcheck(func, inputs, eps, atol, rtol, nondet_tol, check_undefined_grad,
               check_grad_dtypes, check_batched_grad, check_batched_forward_grad,
               check_forward_ad, check_backward_ad, fast_mode, masked):
    inputs = _as_tuple(inputs)
    _check_inputs(inputs)
    num_func = func
    if any(_is_t(x) and x.requires_grad and _is_sparse(x) for x in inputs):
        func, num_func, inputs = _dense_stand_ins(func, inputs, masked or fast_mode)
    func_out = func(*inputs)
    outputs = _differentiable_outputs(func_out)
    check = _fast_check if fast_mode else _slow_check
    if check_backward_ad:
        _check_real_imag(check, func, func_out, inputs, outputs, eps, rtol, atol,
                         check_grad_dtypes, nondet_tol, num_func=num_func)
    if check_forward_ad:
        _check_forward(_fast_forward_check if fast_mode else _slow_forward_check, func,
                       func_out, inputs, outputs, eps, rtol, atol, check_grad_dtypes,
                       nondet_tol, check_undefined_grad)
    if check_batched_forward_grad:
        _check_batched_forward_grad(func, inputs)
    if not check_backward_ad:
        return True
    for i, o in enumerate(outputs):
        if check_batched_grad:
            _check_batched_grad(inputs, o, i)
    _check_mul_by_grad_output(outputs, inputs, masked)
    if check_undefined_grad:
        _check_undefined_grad(func, outputs, inputs)
    return True


def _random_grad_output(x, noncontiguous):
    """Uniform values in [-1, 1) shaped like x (float64 for an integer x), requiring grad; with
    noncontiguous, a strided view of a larger tensor."""
    mt = _mt()
    dtype = x.dtype if x.dtype.is_floating_point or x.dtype.is_complex else _C.float64
    shape = tuple(x.shape)
    if noncontiguous and len(shape) and x.numel() > 1:
        big = mt.rand(shape[:-1] + (2 * shape[-1],), dtype=_real_dtype(dtype)) * 2 - 1
        t = big.to(device=x.device, dtype=dtype)[..., ::2]
    else:
        t = (mt.rand(shape, dtype=_real_dtype(dtype)) * 2 - 1).to(dtype)
    if dtype.is_complex:
        t = t + 1j * (mt.rand(shape, dtype=_real_dtype(dtype)) * 2 - 1)
    return t.to(x.device).detach().requires_grad_(True)


def gradgradcheck(func, inputs, grad_outputs=None, *, eps=1e-6, atol=1e-5, rtol=1e-3,
                  gen_non_contig_grad_outputs=False, raise_exception=True, nondet_tol=0.0,
                  check_undefined_grad=True, check_grad_dtypes=False, check_batched_grad=False,
                  check_fwd_over_rev=False, check_rev_over_rev=True, fast_mode=False,
                  masked=False):
    """gradcheck of the gradients of func: the function (inputs, grad_outputs) -> the vjp of
    func (with create_graph), checked against finite differences of itself.  grad_outputs
    default to random values in [-1, 1)."""
    if not (check_fwd_over_rev or check_rev_over_rev):
        raise AssertionError("Expected at least one of check_fwd_over_rev or check_rev_over_rev "
                             "to be True")
    if check_undefined_grad and not check_rev_over_rev:
        raise AssertionError("Setting check_undefined_grad=True requires check_rev_over_rev to "
                             "be True")
    if check_batched_grad and not check_rev_over_rev:
        raise AssertionError("Setting check_batched_grad=True requires check_rev_over_rev to be "
                             "True")
    from . import grad
    inputs = _as_tuple(inputs)
    if grad_outputs is None:
        outs = _differentiable_outputs(func(*inputs))
        grad_outputs = tuple(_random_grad_output(o, gen_non_contig_grad_outputs) for o in outs)
    else:
        grad_outputs = _as_tuple(grad_outputs)
    n_out = len(grad_outputs)
    diff_in = {i for i, x in enumerate(inputs) if _is_t(x) and x.requires_grad}
    diff_go = {i for i, x in enumerate(grad_outputs) if x.requires_grad}

    def first_derivative(*args):
        xs = tuple(x.requires_grad_() if i in diff_in else x
                   for i, x in enumerate(args[:len(args) - n_out]))
        outs = _differentiable_outputs(func(*xs))
        gos = tuple(g.requires_grad_() if i in diff_go else g
                    for i, g in enumerate(args[len(args) - n_out:]))
        wrt = tuple(x for i, x in enumerate(xs) if i in diff_in)
        got = grad(outs, wrt, gos, create_graph=True, allow_unused=True)
        return tuple(g for g in got if g is not None)

    return gradcheck(first_derivative, inputs + grad_outputs, eps=eps, atol=atol, rtol=rtol,
                     raise_exception=raise_exception, nondet_tol=nondet_tol,
                     check_undefined_grad=check_undefined_grad,
                     check_grad_dtypes=check_grad_dtypes, check_batched_grad=check_batched_grad,
                     fast_mode=fast_mode, check_forward_ad=check_fwd_over_rev,
                     check_backward_ad=check_rev_over_rev, masked=masked)


# ---- the former helpers, kept (deprecated) as torch keeps them ------------------------------------

def _deprecated(name):
    warnings.warn(f"`{name}` was part of PyTorch's private API and not meant to be exposed. We "
                  "are deprecating it and it will be removed in a future version of PyTorch. If "
                  "you have a specific use for this or feature request for this to be a stable "
                  "API, please file us an issue at https://github.com/pytorch/pytorch/issues/new",
                  FutureWarning, stacklevel=3)


def _grad_out_is_one(name, grad_out):
    if grad_out != 1.0:
        raise ValueError(f"Expected grad_out to be 1.0. {name} no longer supports values of "
                         "grad_out != 1.0.")


def get_numerical_jacobian(fn, inputs, target=None, eps=1e-3, grad_out=1.0):
    """Deprecated: the finite-difference Jacobians of fn's first output (fn takes the tuple of
    inputs) against each tensor of target (default: the inputs) that requires grad, each of
    shape (numel of that tensor, numel of the output)."""
    _deprecated("get_numerical_jacobian")
    _grad_out_is_one("get_numerical_jacobian", grad_out)
    inputs = _as_tuple(inputs)
    targets = inputs if target is None else _as_tuple(target)
    # the targets are moved in place, so fn sees the moves through `inputs`
    jac = _numerical_jacobians(lambda *_: fn(inputs), targets, eps)
    return tuple(jac[i, 0] for i in _diff_indices(targets) if (i, 0) in jac)


def get_analytical_jacobian(inputs, output, nondet_tol=0.0, grad_out=1.0):
    """Deprecated: (the Jacobians of output against each input that requires grad, computed by
    backward, each (numel of the input, numel of output); whether backward is reentrant within
    nondet_tol; whether every gradient had its input's shape; and its input's dtype)."""
    _deprecated("get_analytical_jacobian")
    _grad_out_is_one("get_analytical_jacobian", grad_out)
    if output.is_complex():
        raise ValueError("Expected output to be non-complex. get_analytical_jacobian no longer "
                         "supports functions that return complex outputs.")
    diff = [x for x in _as_tuple(inputs) if _is_t(x) and x.requires_grad]
    grad_outputs = _unit_vectors(output)
    first, second, sizes_ok, types_ok = _analytical_jacobian_twice(diff, output, grad_outputs)
    return tuple(first), _same_within(first, second, nondet_tol), sizes_ok, types_ok
