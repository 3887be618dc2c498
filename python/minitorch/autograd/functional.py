"""Higher-level differentiation of functions (as torch.autograd.functional): vjp, jvp, jacobian,
hessian, vhp, hvp.

Each takes a function of tensors and the point (a tensor or a tuple of tensors) and returns
results shaped like torch's: a tensor where the function's inputs/outputs were a tensor, a tuple
where they were a tuple, nested for jacobian (outputs outside, inputs inside).  Everything is
reverse mode: jvp and hvp use the double-vjp trick (the vjp is linear in its vector, so the vjp
of the vjp with respect to that vector is the jvp), as torch does.  jacobian(strategy=
"forward-mode") and hessian(outer_jacobian_strategy="forward-mode") use forward-mode AD
(autograd.forward_ad), one pass per input element.

strict=True turns an output that does not depend on an input (whose derivative is therefore
all zeros) into an error; create_graph=True keeps the graph of the results so that they can be
differentiated again."""
from .. import _C
from . import grad as _grad
from .grad_mode import enable_grad, set_grad_enabled

__all__ = ["vjp", "jvp", "jacobian", "hessian", "hvp", "vhp"]


def _tuple_of_tensors(x, what, fn):
    """(whether x was a tuple, x as a tuple), checking that it holds tensors only."""
    was_tuple = isinstance(x, tuple)
    items = x if was_tuple else (x,)
    for i, el in enumerate(items):
        if not isinstance(el, _C.TensorBase):
            where = f"value at index {i}" if was_tuple else f"given {what}"
            raise TypeError(f"The {what} given to {fn} must be either a Tensor or a tuple of "
                            f"Tensors but the {where} has type {type(el)}.")
    return was_tuple, items


def _zeros_like(t):
    return _C.zeros(tuple(t.shape), dtype=t.dtype)


def _unpack(res, was_tuple):
    """res (a tuple) as the caller gave its arguments: its single element for a non-tuple."""
    return res if was_tuple else res[0]


def _unpack2(res, outer, inner):
    """A tuple of tuples (jacobian, hessian) as the caller gave outputs and inputs."""
    if not inner:
        res = tuple(r[0] for r in res)
    return res if outer else res[0]


def _prepare(tensors, create_graph, need_graph):
    """Fresh tensors to differentiate with respect to: with create_graph, those that require
    grad stay connected to their history (a view of themselves); the others are detached
    leaves that require grad when need_graph."""
    out = []
    for t in tensors:
        if create_graph and t.requires_grad:
            out.append(t.view_as(t))
        else:
            out.append(t.detach().requires_grad_(need_graph))
    return tuple(out)


def _finish(tensors, create_graph):
    """Results detached unless create_graph (nested tuples too)."""
    if tensors and isinstance(tensors[0], _C.TensorBase):
        return tensors if create_graph else tuple(t.detach() for t in tensors)
    return tuple(_finish(t, create_graph) for t in tensors)


def _check_v(v, refs, refs_are_tuple):
    if len(v) != len(refs):
        if refs_are_tuple:
            raise RuntimeError(f"v is a tuple of invalid length: should be {len(refs)} but got "
                               f"{len(v)}.")
        raise RuntimeError("The given v should contain a single Tensor.")
    for i, (a, b) in enumerate(zip(v, refs)):
        if a.shape != b.shape:
            where = f"Entry {i} in " if refs_are_tuple else ""
            raise RuntimeError(f"{where}v has invalid size: should be {b.shape} but got "
                               f"{a.shape}.")


_STRICT_MSG = {
    "outputs": "Output {i} of the user-provided function does not require gradients. The outputs "
               "must be computed in a differentiable manner from the input when running in "
               "strict mode.",
    "grad_inputs": "The gradient with respect to input {i} is independent of the inputs of the "
                   "user-provided function. This is not allowed in strict mode.",
    "jacobian": "While computing the hessian, found that the jacobian of the user-provided "
                "function with respect to input {i} is independent of the input. This is not "
                "allowed in strict mode. You should ensure that your function is twice "
                "differentiable and that the jacobian depends on the inputs (this would be "
                "violated by a linear function for example).",
    "hessian": "The hessian of the user-provided function with respect to input {i} is "
               "independent of the input. This is not allowed in strict mode. You should ensure "
               "that your function is thrice differentiable and that the hessian depends on the "
               "inputs.",
}


def _require_grads(tensors, kind, strict):
    """strict mode: every tensor must exist and require grad (kind names the message)."""
    if not strict:
        return
    for i, t in enumerate(tensors):
        if t is None:
            raise RuntimeError(f"The output of the user-provided function is independent of "
                               f"input {i}. This is not allowed in strict mode.")
        if not t.requires_grad:
            raise RuntimeError(_STRICT_MSG[kind].format(i=i))


def _vjp_of(outputs, inputs, grad_outputs=None, create_graph=False, retain_graph=None,
            is_grads_batched=False):
    """autograd.grad over the outputs that require grad (None for every input when none
    does), unused inputs giving None."""
    if grad_outputs is None:
        grad_outputs = (None,) * len(outputs)
    keep = [(o, g) for o, g in zip(outputs, grad_outputs) if o is not None and o.requires_grad]
    if not keep:
        return (None,) * len(inputs)
    return _grad(tuple(o for o, _ in keep), inputs, tuple(g for _, g in keep),
                 allow_unused=True, create_graph=create_graph, retain_graph=retain_graph,
                 is_grads_batched=is_grads_batched)


_ZERO_MSG = {
    "back": "The output of the user-provided function is independent of input {i}. This is not "
            "allowed in strict mode.",
    "back_trick": "The gradient with respect to the input is independent of entry {i} in the "
                  "grad_outputs when using the double backward trick to compute forward mode "
                  "gradients. This is not allowed in strict mode.",
    "double_back": "The jacobian of the user-provided function is independent of input {i}. "
                   "This is not allowed in strict mode.",
    "double_back_trick": "The hessian of the user-provided function is independent of entry {i} "
                         "in the grad_jacobian. This is not allowed in strict mode as it "
                         "prevents from using the double backward trick to replace forward "
                         "mode AD.",
}


def _zeros_for_none(grads, refs, strict, create_graph, stage):
    """grads with zeros (like refs) where None; strict mode makes None, or with create_graph a
    gradient without a graph, an error."""
    out = []
    for i, g in enumerate(grads):
        if g is None:
            if strict:
                raise RuntimeError(_ZERO_MSG[stage].format(i=i))
            g = _zeros_like(refs[i])
        elif strict and create_graph and not g.requires_grad:
            what = "hessian" if "double" in stage else "jacobian"
            raise RuntimeError(f"The {what} of the user-provided function is independent of "
                               f"input {i}. This is not allowed in strict mode when "
                               "create_graph=True.")
        out.append(g)
    return tuple(out)


def _vector(v, refs, refs_tuple, create_graph, fn):
    _, v = _tuple_of_tensors(v, "v", fn)
    v = _prepare(v, create_graph, need_graph=False)
    _check_v(v, refs, refs_tuple)
    return v


def vjp(func, inputs, v=None, create_graph=False, strict=False):
    """(func(inputs), v^T J): the vector-Jacobian product at inputs.  v may be None only for
    a function of one single-element output."""
    with enable_grad():
        in_tuple, inputs = _tuple_of_tensors(inputs, "inputs", "vjp")
        inputs = _prepare(inputs, create_graph, need_graph=True)
        outputs = func(*inputs)
        out_tuple, outputs = _tuple_of_tensors(outputs, "outputs of the user-provided function",
                                               "vjp")
        _require_grads(outputs, "outputs", strict)
        if v is not None:
            v = _vector(v, outputs, out_tuple, create_graph, "vjp")
        elif len(outputs) != 1 or outputs[0].numel() != 1:
            raise RuntimeError("The vector v can only be None if the user-provided function "
                               "returns a single Tensor with a single element.")
    with set_grad_enabled(True if create_graph else _C.is_grad_enabled()):
        res = _vjp_of(outputs, inputs, v, create_graph=create_graph)
        res = _zeros_for_none(res, inputs, strict, create_graph, "back")
    return (_unpack(_finish(outputs, create_graph), out_tuple),
            _unpack(_finish(res, create_graph), in_tuple))


def jvp(func, inputs, v=None, create_graph=False, strict=False):
    """(func(inputs), J v): the Jacobian-vector product at inputs (by the double-vjp trick).
    v may be None only for a function of one single-element input."""
    with enable_grad():
        in_tuple, inputs = _tuple_of_tensors(inputs, "inputs", "jvp")
        inputs = _prepare(inputs, create_graph, need_graph=True)
        if v is not None:
            v = _vector(v, inputs, in_tuple, create_graph, "jvp")
        elif len(inputs) != 1 or inputs[0].numel() != 1:
            raise RuntimeError("The vector v can only be None if the input to the user-provided "
                               "function is a single Tensor with a single element.")
        outputs = func(*inputs)
        out_tuple, outputs = _tuple_of_tensors(outputs, "outputs of the user-provided function",
                                               "jvp")
        _require_grads(outputs, "outputs", strict)
        # u -> u^T J is linear in u: differentiating it with respect to u at any point gives J v
        dummy = tuple(_zeros_like(o).requires_grad_() for o in outputs)
        u_j = _vjp_of(outputs, inputs, dummy, create_graph=True)
        _require_grads(u_j, "grad_inputs", strict)
    with set_grad_enabled(True) if create_graph else _noop():
        res = _vjp_of(u_j, dummy, v, create_graph=create_graph)
        res = _zeros_for_none(res, outputs, strict, create_graph, "back_trick")
    return (_unpack(_finish(outputs, create_graph), out_tuple),
            _unpack(_finish(res, create_graph), out_tuple))


class _noop:
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


def _basis(tensors, numels):
    """Per tensor, its block of the identity of size sum(numels): the rows of tensor k are the
    unit vectors of its elements (zeros for the other tensors' rows)."""
    total = sum(numels)
    out, start = [], 0
    for t, n in zip(tensors, numels):
        block = t.new_zeros((total, n))
        if n:
            block[start:start + n] = _C.eye(n, dtype=t.dtype)
        out.append(block)
        start += n
    return tuple(out)


_construct_standard_basis_for = _basis   # (torch's private name, used by its tests)


def jacobian(func, inputs, create_graph=False, strict=False, vectorize=False,
             strategy="reverse-mode"):
    """The Jacobian of func at inputs: J[i][j] of shape outputs[i].shape + inputs[j].shape
    (unwrapped where outputs/inputs were single tensors).  vectorize=True computes all rows in
    one batched vjp; strategy="forward-mode" (with vectorize=True, as torch) computes it with
    forward-mode AD, one pass per input element."""
    if strategy not in ("forward-mode", "reverse-mode"):
        raise AssertionError('Expected strategy to be either "forward-mode" or "reverse-mode". '
                             "Hint: If your function has more outputs than inputs, "
                             '"forward-mode" tends to be more performant. Otherwise, prefer to '
                             'use "reverse-mode".')
    if strategy == "forward-mode":
        if create_graph:
            raise NotImplementedError("torch.autograd.functional.jacobian: `create_graph=True` "
                                      'and `strategy="forward-mode"` are not supported together '
                                      "(yet). Please either set `create_graph=False` or "
                                      '`strategy="reverse-mode"`.')
        if strict:
            raise RuntimeError("torch.autograd.functional.jacobian: `strict=True` and "
                               '`strategy="forward-mode"` are not supported together (yet). '
                               "Please either set `strict=False` or "
                               '`strategy="reverse-mode"`.')
        _tuple_of_tensors(inputs, "inputs", "jacobian")
        if not vectorize:
            raise NotImplementedError("Computing Jacobian using forward-AD or forward-over-"
                                      "reverse Hessian isonly implemented for `vectorize=True`.")
        return _jacobian_forward(func, inputs)
    with enable_grad():
        in_tuple, inputs = _tuple_of_tensors(inputs, "inputs", "jacobian")
        inputs = _prepare(inputs, create_graph, need_graph=True)
        outputs = func(*inputs)
        out_tuple, outputs = _tuple_of_tensors(outputs, "outputs of the user-provided function",
                                               "jacobian")
        _require_grads(outputs, "outputs", strict)
        if vectorize:
            if strict:
                raise RuntimeError("torch.autograd.functional.jacobian: `strict=True` and "
                                   "`vectorized=True` are not supported together. Please either "
                                   "set `strict=False` or `vectorize=False`.")
            jac = _jacobian_batched(outputs, inputs, create_graph)
        else:
            jac = _jacobian_rows(outputs, inputs, create_graph, strict)
        return _unpack2(_finish(jac, create_graph), out_tuple, in_tuple)


def _jacobian_forward(func, inputs):
    """The Jacobian by forward-mode AD: one pass per input element, all inputs dual with the
    columns of the identity as tangents (torch runs these passes batched under vmap)."""
    from . import forward_ad as fwAD
    in_tuple, inputs = _tuple_of_tensors(inputs, "inputs", "jacobian")
    numels = tuple(x.numel() for x in inputs)
    basis = _basis(inputs, numels)
    columns, outputs, out_tuple = [], None, False
    for k in range(sum(numels)):
        with fwAD.dual_level():
            duals = tuple(fwAD.make_dual(x, b[k].view_as(x)) for x, b in zip(inputs, basis))
            out_tuple, outs = _tuple_of_tensors(func(*duals), "outputs", "jacobian")
            col, prim = [], []
            for o in outs:
                p, t = fwAD.unpack_dual(o)
                prim.append(p)
                col.append(t if t is not None else _zeros_like(p))
            columns.append(col)
            outputs = prim
    if not columns:                      # inputs without elements: one call for the outputs
        out_tuple, outputs = _tuple_of_tensors(func(*inputs), "outputs", "jacobian")
    jac = []
    for i, o in enumerate(outputs):
        if columns:
            stacked = _stack_rows([c[i] for c in columns], o)
            stacked = stacked.permute(*range(1, stacked.dim()), 0)   # the inputs' axis last
        else:
            stacked = o.new_zeros(tuple(o.shape) + (0,))
        row, start = [], 0
        for x, n in zip(inputs, numels):
            row.append(stacked.narrow(-1, start, n).reshape(tuple(o.shape) + tuple(x.shape)))
            start += n
        jac.append(tuple(row))
    return _unpack2(tuple(jac), out_tuple, in_tuple)


def _jacobian_rows(outputs, inputs, create_graph, strict):
    """One vjp per output element (torch's vectorize=False)."""
    jac = []
    for i, out in enumerate(outputs):
        rows = [[] for _ in inputs]
        flat = out.reshape(-1)
        for k in range(out.numel()):
            grads = _vjp_of((flat[k],), inputs, retain_graph=True, create_graph=create_graph)
            for j, (g, x) in enumerate(zip(grads, inputs)):
                if g is None:
                    if strict:
                        raise RuntimeError(f"Output {i} of the user-provided function is "
                                           f"independent of input {j}. This is not allowed in "
                                           "strict mode.")
                    g = _zeros_like(x)
                elif strict and create_graph and not g.requires_grad:
                    raise RuntimeError(f"The jacobian of the user-provided function is "
                                       f"independent of input {i}. This is not allowed in "
                                       "strict mode when create_graph=True.")
                rows[j].append(g)
        jac.append(tuple(_stack_rows(r, x).view(tuple(out.shape) + tuple(x.shape))
                         for r, x in zip(rows, inputs)))
    return tuple(jac)


def _stack_rows(rows, like):
    from .._joining import stack
    if rows:
        return stack(rows, 0)
    return like.new_zeros((0,) + tuple(like.shape))


def _jacobian_batched(outputs, inputs, create_graph):
    """All rows at once: one batched vjp of the flattened outputs against the identity."""
    numels = tuple(o.numel() for o in outputs)
    total = sum(numels)
    flat = tuple(o.reshape(-1) for o in outputs)
    grads = list(_vjp_of(flat, inputs, _basis(outputs, numels), create_graph=create_graph,
                         is_grads_batched=True))
    for j, g in enumerate(grads):
        if g is None:
            grads[j] = _zeros_like(inputs[j]).expand((total,) + tuple(inputs[j].shape))
    per_input = []
    for g, x in zip(grads, inputs):
        parts, start = [], 0
        for o, n in zip(outputs, numels):
            parts.append(g[start:start + n].view(tuple(o.shape) + tuple(x.shape)))
            start += n
        per_input.append(parts)
    return tuple(zip(*per_input))


def hessian(func, inputs, create_graph=False, strict=False, vectorize=False,
            outer_jacobian_strategy="reverse-mode"):
    """The Hessian of a function of one single-element output: H[i][j] of shape
    inputs[i].shape + inputs[j].shape (unwrapped for a single input)."""
    in_tuple, inputs = _tuple_of_tensors(inputs, "inputs", "hessian")
    if outer_jacobian_strategy not in ("forward-mode", "reverse-mode"):
        raise AssertionError('Expected strategy to be either "forward-mode" or "reverse-mode".')

    def scalar_func(*xs):
        out = func(*xs)
        out_tuple, outs = _tuple_of_tensors(out, "outputs of the user-provided function",
                                            "hessian")
        _require_grads(outs, "outputs", strict)
        if out_tuple or not isinstance(out, _C.TensorBase):
            raise RuntimeError("The function given to hessian should return a single Tensor")
        if out.numel() != 1:
            raise RuntimeError("The Tensor returned by the function given to hessian should "
                               "contain a single element")
        return out.squeeze()

    def gradient(*xs):
        if outer_jacobian_strategy == "forward-mode":
            xs = tuple(t.requires_grad_(True) for t in xs)
        jac = jacobian(scalar_func, xs, create_graph=True)
        _require_grads(jac, "jacobian", strict)
        return jac

    res = jacobian(gradient, inputs, create_graph=create_graph, strict=strict,
                   vectorize=vectorize, strategy=outer_jacobian_strategy)
    return _unpack2(res, in_tuple, in_tuple)


def _scalar_output(outputs, out_tuple, fn):
    if out_tuple or not isinstance(outputs[0], _C.TensorBase):
        raise RuntimeError(f"The function given to {fn} should return a single Tensor")
    if outputs[0].numel() != 1:
        raise RuntimeError(f"The Tensor returned by the function given to {fn} should contain a "
                           "single element")


def _gradient_of_scalar(func, inputs, v, create_graph, strict, fn):
    """What vhp and hvp (named fn) share, under enable_grad: the checked inputs and vector v,
    func's single-element output and its gradient with a graph.  Returns (in_tuple, inputs, v,
    out_tuple, outputs, jac)."""
    in_tuple, inputs = _tuple_of_tensors(inputs, "inputs", fn)
    inputs = _prepare(inputs, create_graph, need_graph=True)
    if v is not None:
        v = _vector(v, inputs, in_tuple, create_graph, fn)
    elif len(inputs) != 1 or inputs[0].numel() != 1:
        raise RuntimeError("The vector v can only be None if the input to the user-provided "
                           "function is a single Tensor with a single element.")
    outputs = func(*inputs)
    out_tuple, outputs = _tuple_of_tensors(outputs, "outputs of the user-provided function", fn)
    _require_grads(outputs, "outputs", strict)
    _scalar_output(outputs, out_tuple, fn)
    jac = _vjp_of(outputs, inputs, create_graph=True)
    _require_grads(jac, "jacobian", strict)
    return in_tuple, inputs, v, out_tuple, outputs, jac


def vhp(func, inputs, v=None, create_graph=False, strict=False):
    """(func(inputs), v^T H) for a function of one single-element output."""
    with enable_grad():
        in_tuple, inputs, v, out_tuple, outputs, jac = _gradient_of_scalar(
            func, inputs, v, create_graph, strict, "vhp")
    with set_grad_enabled(True if create_graph else _C.is_grad_enabled()):
        res = _vjp_of(jac, inputs, v, create_graph=create_graph)
        res = _zeros_for_none(res, inputs, strict, create_graph, "double_back")
    return (_unpack(_finish(outputs, create_graph), out_tuple),
            _unpack(_finish(res, create_graph), in_tuple))


def hvp(func, inputs, v=None, create_graph=False, strict=False):
    """(func(inputs), H v) for a function of one single-element output (by the double-vjp
    trick; equal to vhp for a symmetric Hessian)."""
    with enable_grad():
        in_tuple, inputs, v, out_tuple, outputs, jac = _gradient_of_scalar(
            func, inputs, v, create_graph, strict, "hvp")
        dummy = tuple(_zeros_like(x).requires_grad_() for x in inputs)
        u_h = _vjp_of(jac, inputs, dummy, create_graph=True)
        _require_grads(jac, "hessian", strict)
    with set_grad_enabled(True if create_graph else _C.is_grad_enabled()):
        res = _vjp_of(u_h, dummy, v, create_graph=create_graph)
        res = _zeros_for_none(res, inputs, strict, create_graph, "double_back_trick")
    return (_unpack(_finish(outputs, create_graph), out_tuple),
            _unpack(_finish(res, create_graph), in_tuple))
