"""Full backward hooks of modules (Module.register_full_backward_hook / _pre_hook).

Note [Module backward hooks]
A call of a module with such hooks passes its positional tensor arguments that require grad
through one identity Function before forward, and its output tensors through another after
it.  When backward reaches the outputs' Function, the pre-hooks see (and may replace) the
gradients of the outputs; when it reaches the inputs' Function, the full hooks see the
gradients of the inputs (one entry per positional argument, None for those that are not
tensors requiring grad) and of the outputs, and may replace the former.  When no input
requires grad the full hooks run at the outputs, with grad_input all None, as torch does.
The global hooks (register_module_full_backward_(pre_)hook) run before the module's own."""
import warnings

from ...autograd.function import Function


class _CallState:
    """What the two Functions of one module call share."""
    __slots__ = ("module", "pre_hooks", "hooks", "n_args", "positions", "grad_output")

    def __init__(self, module, pre_hooks, hooks, n_args, positions):
        self.module, self.pre_hooks, self.hooks = module, pre_hooks, hooks
        self.n_args, self.positions = n_args, positions
        self.grad_output = None


def _views(ts):
    return tuple(t.view_as(t) for t in ts)


def _run_hooks(hooks, call, grads, what, name):
    """grads after call(hook, grads) of each hook (None: unchanged; else as many new ones)."""
    for hook in hooks:
        r = call(hook, grads)
        if r is not None:
            r = tuple(r) if isinstance(r, (tuple, list)) else (r,)
            if len(r) != len(grads):
                raise RuntimeError(f"Backward {what} returned an invalid number of {name}, got "
                                   f"{len(r)}, but expected {len(grads)}")
            grads = r
    return grads


def _run_full_hooks(st, grad_input):
    return _run_hooks(st.hooks, lambda hook, g: hook(st.module, g, st.grad_output), grad_input,
                      "hook", "grad_input")


class BackwardHookFunction(Function):
    """Views of the tensors given, in one node (named as torch's) whose backward runs the hooks
    of st: the full hooks at the module's inputs (at_inputs), the pre-hooks at its outputs."""

    @staticmethod
    def forward(ctx, st, at_inputs, *tensors):
        ctx.st, ctx.at_inputs = st, at_inputs
        ctx.set_materialize_grads(False)
        return _views(tensors)

    @staticmethod
    def backward(ctx, *grads):
        st = ctx.st
        if ctx.at_inputs:
            if st.grad_output is None:
                # the gradient reached the inputs without passing the outputs (a double
                # backward through the module's saved inputs): no hooks, as torch
                return (None, None) + tuple(grads)
            grad_input = [None] * st.n_args
            for pos, g in zip(st.positions, grads):
                grad_input[pos] = g
            grad_input = _run_full_hooks(st, tuple(grad_input))
            st.grad_output = None   # (not kept: with create_graph it would hold the graph)
            return (None, None) + tuple(grad_input[pos] for pos in st.positions)
        grads = _run_hooks(st.pre_hooks, lambda hook, g: hook(st.module, g), grads, "pre hook",
                           "grad_output")
        st.grad_output = tuple(grads)
        if not st.positions and st.hooks:
            warnings.warn("Full backward hook is firing when gradients are computed with respect "
                          "to module outputs since no inputs require gradients. See "
                          "https://docs.pytorch.org/docs/main/generated/torch.nn.Module.html"
                          "#torch.nn.Module.register_full_backward_hook for more details.",
                          stacklevel=2)
            _run_full_hooks(st, (None,) * st.n_args)
        return (None, None) + tuple(grads)


def call_with_backward_hooks(module, args, call, pre_hooks, hooks):
    """call(*args) with the module's full backward (pre-)hooks in place (Note [Module backward
    hooks]); returns its output."""
    from ..._tensor import Tensor
    positions = [i for i, a in enumerate(args) if isinstance(a, Tensor) and a.requires_grad]
    st = _CallState(module, pre_hooks, hooks, len(args), positions)
    if positions and hooks:
        wrapped = BackwardHookFunction.apply(st, True, *(args[i] for i in positions))
        args = list(args)
        for i, t in zip(positions, wrapped):
            args[i] = t
        args = tuple(args)
    out = call(*args)
    single = isinstance(out, Tensor)
    outs = (out,) if single else tuple(out) if isinstance(out, (tuple, list)) else None
    if outs is None or not all(isinstance(o, Tensor) for o in outs) or \
            not any(o.requires_grad for o in outs):
        return out          # nothing for backward to reach (torch does not hook other outputs)
    new = BackwardHookFunction.apply(st, False, *outs)
    if single:
        return new[0]
    return type(out)(new) if isinstance(out, tuple) and type(out) is not tuple else \
        (list(new) if isinstance(out, list) else tuple(new))


# Note [Non-full backward hooks]
# Module.register_backward_hook, torch's deprecated form, hooks the node that made the module's
# output (its first tensor, looking into tuples, lists and dicts): after each call the hooks
# are registered on that node, and see its gradients - grad_input those of the node's inputs
# (for a Linear, the bias, input and weight; for a module of several ops, the last op's inputs
# only), grad_output those of its outputs. torch warns (FutureWarning) when that cannot be the
# module's gradients, and so does minitorch, with the same messages.
_NON_FULL = "Using non-full backward hooks on a Module that does not "
_MISSING = "This hook will be missing some "
_DOCUMENTED = "Please use register_full_backward_hook to get the documented behavior."


def _first_tensor(result):
    from ... import _C
    var = result
    while not isinstance(var, _C.TensorBase):
        if isinstance(var, dict):
            var = next((v for v in var.values() if isinstance(v, _C.TensorBase)), None)
            if var is None:
                return None
        elif isinstance(var, (tuple, list)) and var:
            var = var[0]
        else:
            return None
    return var


def _tensor_tuple(x):
    """x as a tuple of tensors, or None when it is not a tensor or a tuple of tensors."""
    from ... import _C
    if isinstance(x, _C.TensorBase):
        return (x,)
    if isinstance(x, tuple) and all(isinstance(t, _C.TensorBase) for t in x):
        return x
    return None


def _warn_non_full(args, result, grad_fn):
    outs, ins = _tensor_tuple(result), _tensor_tuple(args)
    if outs is None:
        warnings.warn(_NON_FULL + "return a single Tensor or a tuple of Tensors is deprecated and "
                      "will be removed in future versions. " + _MISSING + "of the grad_output. "
                      + _DOCUMENTED, FutureWarning, stacklevel=4)
        return
    if ins is None:
        warnings.warn(_NON_FULL + "take as input a single Tensor or a tuple of Tensors is "
                      "deprecated and will be removed in future versions. " + _MISSING +
                      "of the grad_input. " + _DOCUMENTED, FutureWarning, stacklevel=4)
        return
    out_fns = {t.grad_fn for t in outs if t.grad_fn is not None}
    if not out_fns or (len(out_fns) == 1 and grad_fn not in out_fns):
        warnings.warn("Using a non-full backward hook when outputs are nested in python data "
                      "structure is deprecated and will be removed in future versions. " + _MISSING
                      + "grad_output.", FutureWarning, stacklevel=4)
    elif len(out_fns) > 1:
        warnings.warn("Using a non-full backward hook when outputs are generated by different "
                      "autograd Nodes is deprecated and will be removed in future versions. " +
                      _MISSING + "grad_output. " + _DOCUMENTED, FutureWarning, stacklevel=4)
    elif {t.grad_fn for t in ins if t.grad_fn is not None} != \
            {fn for fn, _ in grad_fn.next_functions}:
        warnings.warn("Using a non-full backward hook when the forward contains multiple autograd "
                      "Nodes is deprecated and will be removed in future versions. " + _MISSING +
                      "grad_input. " + _DOCUMENTED, FutureWarning, stacklevel=4)


def attach_non_full_hooks(module, args, result, hooks):
    """Registers hooks(module, grad_input, grad_output) on the node of result's first tensor
    (Note [Non-full backward hooks])."""
    var = _first_tensor(result)
    grad_fn = var.grad_fn if var is not None else None
    if grad_fn is None:
        return
    for hook in hooks:
        grad_fn.register_hook(lambda gi, go, hook=hook: hook(module, gi, go))
    _warn_non_full(args, result, grad_fn)
