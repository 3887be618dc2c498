"""minitorch.func: torch.func's function transforms over minitorch's autograd.

functional_call runs a module with other tensors in place of its parameters and buffers.
grad, grad_and_value, vjp, jvp, linearize, jacrev, jacfwd and hessian are built on the
autograd engine: each call differentiates afresh through an alias of its inputs, with the graph
kept (create_graph) only where an enclosing transform or an outer backward needs it, so they
nest (grad(grad(f)), jacfwd(jacrev(f)), vmap(grad(f))).  jvp uses the double-vjp identity
(the vjp of the vjp), so every op with a derivative has one; jacfwd computes the same
Jacobian as jacrev.

vmap (Note [vmap by iteration]) maps a function over a batch dimension by calling it once per
slice and stacking the results: the values are those of torch's batching rules, but the cost
is one call per element (torch's vmap runs each op once on the whole batch), and code that
torch refuses inside vmap (.item(), data-dependent control flow) simply runs per sample."""
import contextlib
import functools

import minitorch
from minitorch.utils import _pytree as pytree

__all__ = ["functional_call", "stack_module_state", "grad", "grad_and_value", "vjp", "jvp",
           "linearize", "jacrev", "jacfwd", "hessian", "vmap", "functionalize",
           "replace_all_batch_norm_modules_"]


# ---- functional_call ---------------------------------------------------------------------

def _named_slots(module):
    names = {}
    for name, _ in module.named_parameters(remove_duplicate=False):
        names[name] = "_parameters"
    for name, _ in module.named_buffers(remove_duplicate=False):
        names[name] = "_buffers"
    return names


def _owner(module, name):
    *path, leaf = name.split(".")
    for p in path:
        module = getattr(module, p)
    return module, leaf


@contextlib.contextmanager
def _swapped(module, values, tie_weights, strict):
    slots = _named_slots(module)
    if strict:
        missing = [k for k in slots if k not in values]
        unexpected = [k for k in values if k not in slots]
        if missing or unexpected:
            lines = [f"Error(s) in reparametrizing for {type(module).__name__}:"]
            if unexpected:
                lines.append("\tUnexpected key(s): " + ", ".join(f"'{k}'" for k in unexpected) + ".")
            if missing:
                lines.append("\tMissing key(s): " + ", ".join(f"'{k}'" for k in sorted(missing))
                             + ".")
            raise RuntimeError("\n".join(lines))
    if tie_weights:
        # names of one tensor (tied weights) all take the value given for any of them
        by_tensor = {}
        for name, t in list(module.named_parameters(remove_duplicate=False)) + list(
                module.named_buffers(remove_duplicate=False)):
            by_tensor.setdefault(id(t), []).append(name)
        values = dict(values)
        for names in by_tensor.values():
            given = [n for n in names if n in values]
            if given:
                first = values[given[0]]
                for n in given[1:]:
                    if values[n] is not first:
                        raise ValueError(f"functional_call got multiple values for keys {given}, "
                                         "which are tied. Consider using tie_weights=False")
                for n in names:
                    values.setdefault(n, first)
    saved = []
    try:
        for name, value in values.items():
            if name in slots:
                owner, leaf = _owner(module, name)
                store = owner.__dict__[slots[name]]
                saved.append((store, leaf, store[leaf]))
                store[leaf] = value
            else:
                owner, leaf = _owner(module, name)
                saved.append((owner.__dict__, leaf, owner.__dict__.get(leaf, _MISSING)))
                owner.__dict__[leaf] = value
        yield
    finally:
        for store, leaf, old in reversed(saved):
            if old is _MISSING:
                store.pop(leaf, None)
            else:
                store[leaf] = old


_MISSING = object()


def functional_call(module, parameter_and_buffer_dicts, args=None, kwargs=None, *,
                    tie_weights=True, strict=False):
    """module(*args, **kwargs) with the given tensors in place of the named parameters and
    buffers (a dict, or a sequence of dicts with distinct keys); the module is unchanged after."""
    if isinstance(parameter_and_buffer_dicts, dict):
        values = parameter_and_buffer_dicts
    elif isinstance(parameter_and_buffer_dicts, (list, tuple)):
        values = {}
        for d in parameter_and_buffer_dicts:
            for k, v in d.items():
                if k in values:
                    raise ValueError(f"{k} appeared in multiple dictionaries; behavior of "
                                     "functional call is ambiguous")
                values[k] = v
    else:
        raise ValueError("Expected parameter_and_buffer_dicts to be a dict, or a list/tuple of "
                         f"dicts, but got {type(parameter_and_buffer_dicts)}")
    if args is None:
        args = ()
    elif not isinstance(args, tuple):
        args = (args,)
    with _swapped(module, values, tie_weights, strict):
        return module(*args, **(kwargs or {}))


def stack_module_state(models):
    """(params, buffers): each name's tensors of the models stacked on a new first dimension
    (the parameters as new leaves), for vmap over an ensemble."""
    models = list(models)
    if not models:
        raise RuntimeError("stack_module_state: Expected at least one model, got 0.")
    if not (all(m.training for m in models) or all(not m.training for m in models)):
        raise RuntimeError("stack_module_state: Expected all models to have the same training/eval "
                           "mode.")
    first = type(models[0])
    if not all(type(m) is first for m in models):
        raise RuntimeError("stack_module_state: Expected all models to be of the same class.")
    params = {k: minitorch.stack([dict(m.named_parameters())[k].detach() for m in models])
              .requires_grad_(p.requires_grad)
              for k, p in models[0].named_parameters()}
    buffers = {k: minitorch.stack([dict(m.named_buffers())[k] for m in models])
               for k, _ in models[0].named_buffers()}
    return params, buffers


# ---- reverse and forward derivatives -------------------------------------------------------

def _alias(t):
    """A differentiable alias of t: a view when t is already in a graph an enclosing transform
    differentiates, else a fresh leaf."""
    if not isinstance(t, minitorch.Tensor):
        raise RuntimeError(f"Expected tensors as the differentiated arguments, got {type(t).__name__}")
    if t.requires_grad:
        return t.view_as(t), True
    return t.detach().requires_grad_(True), False


def _aliases(leaves):
    """(_alias of each leaf, whether any of them joins an enclosing graph)."""
    made, outer = [], False
    for leaf in leaves:
        a, o = _alias(leaf)
        made.append(a)
        outer = outer or o
    return made, outer


def _argnums_tuple(argnums, nargs, who):
    nums = argnums if isinstance(argnums, tuple) else (argnums,)
    if not nums:
        raise RuntimeError(f"{who}: argnums must be non-empty")
    for a in nums:
        if not isinstance(a, int):
            raise RuntimeError(f"{who}: argnums must be int or Tuple[int, ...], got: {type(a)}")
        if not -nargs <= a < nargs:
            raise RuntimeError(f"Got argnums={a}, but only {nargs} positional inputs")
    return tuple(a % nargs for a in nums)


def _prepare_args(args, argnums, who):
    """args with the differentiated ones (pytrees) replaced by aliases; (new args, their
    flattened aliases per argnum, their specs, whether any outer graph is involved)."""
    nums = _argnums_tuple(argnums, len(args), who)
    args = list(args)
    flat, specs, outer = [], [], False
    for a in nums:
        leaves, spec = pytree.tree_flatten(args[a])
        made, o = _aliases(leaves)
        outer = outer or o
        flat.append(made)
        specs.append(spec)
        args[a] = pytree.tree_unflatten(made, spec)
    return args, nums, flat, specs, outer


def _grads(outputs, inputs, grad_outputs, create_graph):
    got = minitorch.autograd.grad(outputs, inputs, grad_outputs, retain_graph=True,
                                  create_graph=create_graph, allow_unused=True)
    return [minitorch.zeros_like(i) if g is None else g for g, i in zip(got, inputs)]


def _finish(t, outer):
    return t if outer else t.detach()


def grad_and_value(func, argnums=0, has_aux=False):
    """f -> (x -> (gradient of f's scalar output w.r.t. the argnums arguments, f's output))."""
    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        with minitorch.enable_grad():
            new_args, nums, flat, specs, outer = _prepare_args(args, argnums, "grad_and_value")
            out = func(*new_args, **kwargs)
            aux = None
            if has_aux:
                if not (isinstance(out, tuple) and len(out) == 2):
                    raise RuntimeError("grad_and_value(f)(*args): output of function f should be "
                                       "a tuple: (output, aux) if has_aux is True")
                out, aux = out
            if not isinstance(out, minitorch.Tensor):
                raise RuntimeError("grad_and_value(f)(*args): Expected f(*args) to return a "
                                   f"Tensor, got {type(out)}")
            if out.dim() != 0:
                raise RuntimeError("grad_and_value(f)(*args): Expected f(*args) to return a scalar "
                                   f"Tensor, got tensor with {out.dim()} dims. Maybe you wanted "
                                   "to use the vjp or jacrev APIs instead?")
            every = [t for group in flat for t in group]
            gs = _grads([out], every, None, create_graph=True) if out.requires_grad else \
                [minitorch.zeros_like(t) for t in every]
            gs = [_finish(g, outer) for g in gs]
            it = iter(gs)
            per_arg = [pytree.tree_unflatten([next(it) for _ in group], spec)
                       for group, spec in zip(flat, specs)]
            g = per_arg[0] if not isinstance(argnums, tuple) else tuple(per_arg)
            value = _finish(out, outer)
            if has_aux:
                aux = pytree.tree_map(lambda x: _finish(x, outer) if isinstance(
                    x, minitorch.Tensor) else x, aux)
                return g, (value, aux)
            return g, value
    return wrapper


def grad(func, argnums=0, has_aux=False):
    """f -> (x -> gradient of f's scalar output w.r.t. the argnums arguments)."""
    gv = grad_and_value(func, argnums, has_aux)

    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        g, value = gv(*args, **kwargs)
        return (g, value[1]) if has_aux else g
    return wrapper


def vjp(func, *primals, has_aux=False):
    """(func(*primals), vjp_fn): vjp_fn(cotangents) gives the cotangents' products with the
    Jacobian, one per primal."""
    with minitorch.enable_grad():
        leaves, spec = pytree.tree_flatten(primals)
        made, outer = _aliases(leaves)
        out = func(*pytree.tree_unflatten(made, spec))
        aux = None
        if has_aux:
            out, aux = out
        out_leaves, out_spec = pytree.tree_flatten(out)

    def vjp_fn(cotangents, retain_graph=True, create_graph=None):
        ct_leaves, ct_spec = pytree.tree_flatten(cotangents)
        if ct_spec != out_spec:
            raise RuntimeError("Expected pytree structure of cotangents to be the same as pytree "
                               f"structure of outputs to the function. cotangents: {ct_spec}, "
                               f"primal output: {out_spec}")
        with minitorch.enable_grad():
            pairs = [(o, c) for o, c in zip(out_leaves, ct_leaves) if o.requires_grad]
            if pairs:
                gs = _grads([p[0] for p in pairs], made, [p[1] for p in pairs], True)
            else:
                gs = [minitorch.zeros_like(m) for m in made]
        return pytree.tree_unflatten([_finish(g, outer) for g in gs], spec)
    result = pytree.tree_unflatten([_finish(o, outer) for o in out_leaves], out_spec)
    if has_aux:
        return result, vjp_fn, aux
    return result, vjp_fn


def jvp(func, primals, tangents, *, strict=False, has_aux=False):
    """(func(*primals), the Jacobian's product with tangents), by the double-vjp identity."""
    if not isinstance(primals, tuple) or not isinstance(tangents, tuple):
        raise RuntimeError("jvp(f, primals, tangents): Expected primals to be a tuple. E.g. it "
                           "should be valid to call f(*primals).")
    p_leaves, p_spec = pytree.tree_flatten(primals)
    t_leaves, t_spec = pytree.tree_flatten(tangents)
    if p_spec != t_spec:
        raise RuntimeError("jvp(f, primals, tangents): Expected primals and tangents to have the "
                           f"same python structure. For example, if primals is a tuple of 3 "
                           f"tensors, tangents also must be. Got primals with structure {p_spec} "
                           f"and tangents with structure {t_spec}")
    for p, t in zip(p_leaves, t_leaves):
        if tuple(p.shape) != tuple(t.shape):
            raise RuntimeError("jvp(f, primals, tangents): Expected primals and tangents to have "
                               "the same shape")
    with minitorch.enable_grad():
        made, outer = _aliases(p_leaves)
        out = func(*pytree.tree_unflatten(made, p_spec))
        aux = None
        if has_aux:
            out, aux = out
        out_leaves, out_spec = pytree.tree_flatten(out)
        results = []
        for o in out_leaves:
            if not o.requires_grad:
                results.append(minitorch.zeros_like(o))
                continue
            u = minitorch.zeros_like(o).requires_grad_(True)
            g = minitorch.autograd.grad([o], made, [u], retain_graph=True, create_graph=True,
                                        allow_unused=True)
            pairs = [(gi, ti) for gi, ti in zip(g, t_leaves) if gi is not None and gi.requires_grad]
            if not pairs:
                results.append(minitorch.zeros_like(o))
                continue
            (d,) = minitorch.autograd.grad([p[0] for p in pairs], [u], [p[1] for p in pairs],
                                           retain_graph=True, create_graph=outer,
                                           allow_unused=True)
            results.append(minitorch.zeros_like(o) if d is None else d)
    primal_out = pytree.tree_unflatten([_finish(o, outer) for o in out_leaves], out_spec)
    tangent_out = pytree.tree_unflatten([_finish(r, outer) for r in results], out_spec)
    if has_aux:
        return primal_out, tangent_out, aux
    return primal_out, tangent_out


def linearize(func, *primals):
    """(func(*primals), jvp_fn): jvp_fn(*tangents) is the Jacobian at primals times tangents."""
    out = func(*primals)

    def jvp_fn(*tangents):
        return jvp(func, primals, tangents)[1]
    return out, jvp_fn


def _jacobian(func, argnums, has_aux, who):
    @functools.wraps(func)
    def wrapper(*args):
        with minitorch.enable_grad():
            new_args, nums, flat, specs, outer = _prepare_args(args, argnums, who)
            out = func(*new_args)
            aux = None
            if has_aux:
                if not (isinstance(out, tuple) and len(out) == 2):
                    raise RuntimeError(f"{who}(f, ...)(*args): output of function f should be a "
                                       "tuple: (output, aux) if has_aux is True")
                out, aux = out
            out_leaves, out_spec = pytree.tree_flatten(out)
            every = [t for group in flat for t in group]
            per_out = []
            for o in out_leaves:
                if not isinstance(o, minitorch.Tensor):
                    raise RuntimeError(f"{who}(f, ...): expected f(*args) to return only tensors, "
                                       f"got unsupported type {type(o)}")
                rows = []
                flat_o = o.reshape(-1)
                for i in range(flat_o.numel()):
                    if o.requires_grad:
                        rows.append(_grads([flat_o[i]], every, None, create_graph=True))
                    else:
                        rows.append([minitorch.zeros_like(t) for t in every])
                jac = []
                for j, t in enumerate(every):
                    if rows:
                        m = minitorch.stack([r[j] for r in rows]).reshape(
                            tuple(o.shape) + tuple(t.shape))
                    else:
                        m = minitorch.zeros(tuple(o.shape) + tuple(t.shape), dtype=t.dtype)
                    jac.append(_finish(m, outer))
                it = iter(jac)
                per_arg = [pytree.tree_unflatten([next(it) for _ in group], spec)
                           for group, spec in zip(flat, specs)]
                per_out.append(per_arg[0] if not isinstance(argnums, tuple) else tuple(per_arg))
            result = pytree.tree_unflatten(per_out, out_spec)
            if has_aux:
                return result, aux
            return result
    return wrapper


def jacrev(func, argnums=0, *, has_aux=False, chunk_size=None, _preallocate_and_copy=False):
    """f -> (x -> the Jacobian of f at x: output shape + input shape), row by row (reverse)."""
    if chunk_size is not None and chunk_size <= 0:
        raise ValueError("jacrev: `chunk_size` should be greater than 0.")
    return _jacobian(func, argnums, has_aux, "jacrev")


def jacfwd(func, argnums=0, has_aux=False, *, randomness="error"):
    """f -> (x -> the Jacobian of f at x); the same values as jacrev (computed the same way)."""
    if randomness not in ("error", "different", "same"):
        raise RuntimeError(f"Only allowed values for randomness are 'error', 'different', or "
                           f"'same'. Got {randomness}")
    return _jacobian(func, argnums, has_aux, "jacfwd")


def hessian(func, argnums=0):
    """f -> (x -> the Hessian of f's scalar output at x)."""
    return jacfwd(jacrev(func, argnums), argnums)


def functionalize(func, *, remove="mutations"):
    """Returns func: it already runs eagerly on real tensors, which is what the functionalized
    program computes (torch's functionalize only changes how a traced graph is written)."""
    if remove not in ("mutations", "mutations_and_views"):
        raise RuntimeError(f"functionalize(f, remove='mutations'): received invalid argument for "
                           f"remove={remove}. Valid options are:\n     remove='mutations': all "
                           "inplace and out= operators will be removed from the program, and "
                           "replaced with their out-of-place equivalents.\n     "
                           "remove='mutations_and_views': In addition to the above, all aliasing "
                           "operators {view} will be replaced with their non-aliasing "
                           "counterparts, {view}_copy.\n")
    return func


def replace_all_batch_norm_modules_(root):
    """Makes every batch norm of root stop tracking running statistics (as torch's, for vmap)."""
    for m in root.modules():
        if isinstance(m, minitorch.nn.modules.batchnorm._BatchNorm):
            m.running_mean = None
            m.running_var = None
            m.num_batches_tracked = None
            m.track_running_stats = False
    return root


from ._vmap import vmap  # noqa: E402
