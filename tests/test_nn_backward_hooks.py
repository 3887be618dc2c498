"""Full backward hooks of modules (Note [Module backward hooks]): what they see and what they
may replace, worked by hand (the same values as torch's), the global forms, handles, errors."""
import warnings

import pytest

import minitorch as torch
import minitorch.nn as nn
from minitorch.nn.modules.module import (register_module_full_backward_hook,
                                         register_module_full_backward_pre_hook)


class _Two(nn.Module):
    """(l(x) * k + y, sum(2x)) for a tensor x, a number k and a tensor y."""

    def __init__(self):
        super().__init__()
        self.l = nn.Linear(3, 2)
        with torch.no_grad():
            self.l.weight.copy_(torch.arange(6.0).view(2, 3) / 10)
            self.l.bias.copy_(torch.tensor([0.5, -0.5]))

    def forward(self, x, k, y):
        return self.l(x) * k + y, (x * 2).sum()


def test_pre_hook_and_full_hook_see_and_replace_gradients():
    m, log = _Two(), []

    def pre(mod, grad_output):
        log.append(("pre", mod, [g.tolist() for g in grad_output]))
        return (grad_output[0] * 2, grad_output[1])

    def full(mod, grad_input, grad_output):
        log.append(("full", [None if g is None else g.tolist() for g in grad_input],
                    [g.tolist() for g in grad_output]))
        return (grad_input[0] + 1, None, grad_input[2])

    h1 = m.register_full_backward_pre_hook(pre)
    h2 = m.register_full_backward_hook(full)
    x = torch.ones(2, 3, requires_grad=True)
    y = torch.full((2, 2), 3.0, requires_grad=True)
    a, b = m(x, 3.0, y)
    (a.sum() + b * 10).backward()
    # grad of a: ones, doubled by the pre-hook; of b: 10
    assert log[0] == ("pre", m, [[[1.0, 1.0], [1.0, 1.0]], 10.0])
    kind, gi, go = log[1]
    assert kind == "full" and go == [[[2.0, 2.0], [2.0, 2.0]], 10.0]
    # x: 2 * 3 * W summed over outputs (0.3,0.5,0.7)*... + 2 * 10 = [21.8, 23, 24.2]; k: None
    assert [round(v, 4) for v in gi[0][0]] == [21.8, 23.0, 24.2] and gi[1] is None
    assert gi[2] == [[2.0, 2.0], [2.0, 2.0]]
    assert [round(v, 4) for v in x.grad[0].tolist()] == [22.8, 24.0, 25.2]   # the hook's +1
    assert y.grad.tolist() == [[2.0, 2.0], [2.0, 2.0]]
    assert m.l.weight.grad.tolist() == [[12.0] * 3] * 2
    h1.remove()
    h2.remove()
    log.clear()
    m(x, 3.0, y)[0].sum().backward()
    assert log == []


def test_inputs_without_grad_fire_at_the_outputs_with_a_warning():
    m, seen = nn.Linear(2, 2), []
    m.register_full_backward_hook(lambda mod, gi, go: seen.append((gi, go[0].shape)))
    with pytest.warns(UserWarning, match="no inputs require gradients"):
        m(torch.ones(1, 2)).sum().backward()
    assert seen == [((None,), (1, 2))]


def test_global_hooks_run_for_every_module_innermost_first():
    seen = []
    h = register_module_full_backward_hook(lambda mod, gi, go: seen.append(type(mod).__name__))
    hp = register_module_full_backward_pre_hook(lambda mod, go: seen.append("pre"))
    try:
        seq = nn.Sequential(nn.Linear(2, 2), nn.ReLU())
        seq(torch.ones(1, 2, requires_grad=True)).sum().backward()
    finally:
        h.remove()
        hp.remove()
    assert seen == ["pre", "pre", "ReLU", "pre", "Linear", "Sequential"]
    seen.clear()
    nn.Linear(2, 2)(torch.ones(1, 2, requires_grad=True)).sum().backward()
    assert seen == []


def test_no_hooks_under_no_grad_and_wrong_results_raise():
    m = nn.Linear(2, 2)
    m.register_full_backward_hook(lambda mod, gi, go: (gi[0], gi[0]))
    with torch.no_grad():
        assert m(torch.ones(1, 2)).grad_fn is None
    with pytest.raises(RuntimeError, match="invalid number of grad_input, got 2, but expected 1"):
        m(torch.ones(1, 2, requires_grad=True)).sum().backward()
    p = nn.Linear(2, 2)
    p.register_full_backward_pre_hook(lambda mod, go: (go[0], go[0]))
    with pytest.raises(RuntimeError, match="invalid number of grad_output, got 2, but expected 1"):
        p(torch.ones(1, 2, requires_grad=True)).sum().backward()
    q = nn.Linear(2, 2)
    q.register_full_backward_hook(lambda *a: None)
    with pytest.raises(RuntimeError, match="^Cannot use both regular backward hooks and full backward "
                                           "hooks on a single Module. Please use only one of them.$"):
        q.register_backward_hook(lambda *a: None)


def test_hooks_do_not_change_results_or_other_gradients():
    torch.manual_seed(3)
    net = nn.Sequential(nn.Linear(4, 8), nn.Tanh(), nn.Linear(8, 3))
    x = torch.randn(5, 4, requires_grad=True)
    net(x).pow(2).sum().backward()
    want = [p.grad.clone() for p in net.parameters()] + [x.grad.clone()]
    net.zero_grad()
    x.grad = None
    for mod in net:
        mod.register_full_backward_hook(lambda mod, gi, go: None)
        mod.register_full_backward_pre_hook(lambda mod, go: None)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        out = net(x)
    out.pow(2).sum().backward()
    got = [p.grad for p in net.parameters()] + [x.grad]
    assert all(torch.equal(a, b) for a, b in zip(got, want))


def test_hook_nodes_are_named_as_torch():
    # torch 2.15: the nodes a full backward hook adds at the module's outputs and inputs are
    # both BackwardHookFunctionBackward, with edges for the tensors only
    lin = torch.nn.Linear(3, 2)
    lin.register_full_backward_hook(lambda m, gi, go: None)
    x = torch.randn(4, 3, requires_grad=True)
    out = lin(x)
    node = out.grad_fn
    assert node.name() == "BackwardHookFunctionBackward"
    assert len(node.next_functions) == 1
    names = []

    def walk(n):
        if n is None:
            return
        names.append(n.name())
        for nxt, _ in n.next_functions:
            walk(nxt)

    walk(node)
    assert names.count("BackwardHookFunctionBackward") == 2


def test_full_backward_hook_not_run_by_double_backward():
    # torch 2.15: the second backward reaches the module's inputs through the saved inputs,
    # not through its outputs: the hook does not run again (counter stays 1)
    x = torch.rand(1, requires_grad=True)
    y = torch.rand_like(x)
    loss = nn.MSELoss()
    counter = [0]

    def hook(module, grad_input, grad_output):
        counter[0] += 1

    loss.register_full_backward_hook(hook)
    (gx,) = torch.autograd.grad(loss(x, y), x, create_graph=True)
    assert counter[0] == 1
    (ggx,) = torch.autograd.grad(gx, x)
    assert counter[0] == 1
    assert torch.allclose(ggx, torch.tensor([2.0]))


def test_full_backward_hook_keeps_no_graph_alive():
    # torch 2.15: after a create_graph backward, the hook's grad_output is not kept, so the
    # graph (and what its nodes' metadata holds) is freed without the garbage collector
    import gc
    import weakref

    class Held:
        pass

    t = torch.randn(10, requires_grad=True)
    a = torch.tensor(1.0, requires_grad=True)

    class Sq(nn.Module):
        def forward(self, x):
            return x ** 2 * a ** 2

    mod = Sq()
    mod.register_full_backward_hook(lambda m, gi, go: None)
    was = gc.isenabled()
    gc.disable()
    try:
        out = mod(t)
        held = Held()
        ref = weakref.ref(held)
        out.grad_fn.metadata["a"] = held
        del held
        out.sum().backward(create_graph=True)
        del out
        t.grad = None
        a.grad = None
        assert ref() is None
    finally:
        if was:
            gc.enable()
# ---- the deprecated non-full hooks (Note [Non-full backward hooks]); torch 2.15's values ------
_MULTI = ("Using a non-full backward hook when the forward contains multiple autograd Nodes is "
          "deprecated and will be removed in future versions. This hook will be missing some "
          "grad_input. Please use register_full_backward_hook to get the documented behavior.")


def test_non_full_backward_hook_sees_the_last_node():
    r = nn.ReLU()
    seen = []

    def hook(m, gi, go):
        seen.append((type(m).__name__, [g.tolist() for g in gi], [g.tolist() for g in go]))
        return (gi[0] * 3,)
    handle = r.register_backward_hook(hook)
    x = torch.tensor([1.0, -1.0, 2.0], requires_grad=True)
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        y = r(x * 1)
    assert [str(i.message) for i in w] == [] and y.grad_fn.name() == "ReluBackward0"
    (y * torch.tensor([1.0, 2.0, 3.0])).sum().backward()
    assert seen == [("ReLU", [[1.0, 0.0, 3.0]], [[1.0, 2.0, 3.0]])]
    assert x.grad.tolist() == [3.0, 0.0, 9.0]            # the hook's grad_input replaced
    handle.remove()
    x.grad = None
    r(x * 1).sum().backward()
    assert len(seen) == 1 and x.grad.tolist() == [1.0, 0.0, 1.0]


def test_non_full_backward_hook_warnings_and_errors():
    seq = nn.Sequential(nn.Linear(3, 2), nn.Tanh())
    n = []
    seq.register_backward_hook(lambda m, gi, go: n.append(len(gi)))
    x = torch.tensor([[1.0, 0.0, -1.0]], requires_grad=True)
    with pytest.warns(FutureWarning) as w:
        out = seq(x)
    assert [str(i.message) for i in w] == [_MULTI]
    out.sum().backward()
    assert n == [1]                                       # TanhBackward0's one input

    class Dict(nn.Module):
        def forward(self, a):
            return {"k": a * 2}
    d = Dict()
    d.register_backward_hook(lambda m, gi, go: n.append(gi))
    with pytest.warns(FutureWarning, match="^Using non-full backward hooks on a Module that does not "
                                           "return a single Tensor or a tuple of Tensors"):
        o = d(x)
    o["k"].sum().backward()
    assert n[-1][1] is None and n[-1][0].tolist() == [[2.0, 2.0, 2.0]]   # MulBackward0: (self, 2)
    m = nn.Linear(2, 2)
    m.register_backward_hook(lambda *a: None)
    with pytest.raises(RuntimeError, match="Cannot use both regular backward hooks and full backward hooks"):
        m.register_full_backward_hook(lambda *a: None)
    with torch.no_grad():                                 # no node: nothing registered
        assert m(torch.ones(1, 2)).grad_fn is None
