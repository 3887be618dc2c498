"""The C forms of the declared derivatives (Note [Declared nodes]) and the engine that runs
them without the GIL: each C formula against the op's Python formula (create_graph=True runs
the Python one) and against finite differences, the saved-tensor checks, retain_graph, hooks,
and several threads running backward at once."""
import threading

import pytest

import minitorch as torch
import minitorch.nn as nn
import minitorch.nn.functional as F
from minitorch import _C
from minitorch.autograd import gradcheck


def _leaf(*shape, dtype=torch.float64, seed=0):
    g = torch.Generator().manual_seed(seed)
    return torch.randn(*shape, dtype=dtype, generator=g).requires_grad_()


def _kinds(t):
    """The C formula of every node of t's graph."""
    out, stack, seen = [], [t.grad_fn], set()
    while stack:
        f = stack.pop()
        if f is None or id(f) in seen:
            continue
        seen.add(id(f))
        out.append(f._cformula)
        stack += [n for n, _ in f.next_functions]
    return out


# name -> (function of the inputs, input shapes, the C formula it records)
CASES = {
    "add_broadcast": (lambda a, b: a + b, [(3, 1), (4,)], "add"),
    "add_alpha": (lambda a, b: torch.add(a, b, alpha=2.5), [(2, 3), (2, 3)], "add"),
    "sub_alpha": (lambda a, b: a.sub(b, alpha=-1.5), [(2, 3), (1, 3)], "sub"),
    "rsub_number": (lambda a: 2 - a, [(3,)], "sub"),
    "add_number": (lambda a: a + 1.5, [(2, 2)], "add"),
    "mul_broadcast": (lambda a, b: a * b, [(2, 3), (3,)], "mul"),
    "mul_number": (lambda a: a * 2.5, [(4,)], "mul"),
    "number_mul": (lambda a: 3 * a, [(4,)], "mul"),
    "relu": (lambda a: a.relu(), [(5, 4)], "relu"),
    "log_softmax_last": (lambda a: a.log_softmax(-1), [(3, 5)], "log_softmax"),
    "log_softmax_0": (lambda a: F.log_softmax(a, dim=0), [(3, 5)], "log_softmax"),
    "view": (lambda a: a.view(6, 2), [(3, 4)], "view"),
    "flatten": (lambda a: a.flatten(1), [(2, 3, 2)], "flatten"),
    "unsqueeze": (lambda a: a.unsqueeze(1), [(3, 2)], "unsqueeze"),
    "squeeze": (lambda a: a.squeeze(), [(3, 1, 2)], "squeeze"),
    "reshape_transposed": (lambda a: a.t().reshape(-1), [(3, 4)], "reshape"),
    "sum": (lambda a: a.sum(), [(3, 4)], "sum"),
    "sum_dims": (lambda a: a.sum((0, 2)), [(3, 4, 2)], "sum"),
    "sum_keepdim": (lambda a: torch.sum(a, -1, keepdim=True), [(3, 4)], "sum"),
    "mean": (lambda a: a.mean(), [(3, 4)], "mean"),
    "mean_dim": (lambda a: a.mean(1), [(3, 4)], "mean"),
    "div": (lambda a, b: a / b, [(2, 3), (3,)], "div"),
    "div_number": (lambda a: a / 4.0, [(2, 3)], "div"),
    "number_div": (lambda a: 2.0 / (a * a + 1), [(2, 3)], "reciprocal"),  # (a*a+1).reciprocal() * 2, as torch
    "neg": (lambda a: -a, [(2, 3)], "neg"),
    "exp": (lambda a: a.exp(), [(2, 3)], "exp"),
    "tanh": (lambda a: torch.tanh(a), [(2, 3)], "tanh"),
    "sigmoid": (lambda a: a.sigmoid(), [(2, 3)], "sigmoid"),
    "sqrt": (lambda a: (a * a + 1).sqrt(), [(2, 3)], "sqrt"),
    "log": (lambda a: (a * a + 1).log(), [(2, 3)], "log"),
    "square": (lambda a: a.square(), [(2, 3)], "square"),
    "pow": (lambda a: a ** 3, [(2, 3)], "pow"),
    "pow_fraction": (lambda a: (a * a + 1).pow(0.5), [(2, 3)], "pow"),
    "mm": (lambda a, b: a.mm(b), [(2, 3), (3, 4)], "mm"),
    "matmul": (lambda a, b: a @ b, [(2, 3), (3, 4)], "matmul"),
    "transpose": (lambda a: a.transpose(0, 2), [(2, 3, 4)], "transpose"),
    "t": (lambda a: a.t(), [(2, 3)], "t"),
    "linear_bias": (lambda x, w, b: F.linear(x, w, b), [(4, 3), (5, 3), (5,)], "linear"),
    "linear_3d": (lambda x, w: F.linear(x, w), [(2, 4, 3), (5, 3)], "linear"),
    "swapaxes": (lambda a: a.swapaxes(0, 2), [(2, 3, 4)], "swapaxes"),
    "gelu": (lambda x: F.gelu(x), [(3, 4)], "gelu"),
    "layer_norm": (lambda x, w, b: F.layer_norm(x, (3, 4), w, b), [(2, 3, 4), (3, 4), (3, 4)],
                   "layer_norm"),
    "layer_norm_plain": (lambda x: F.layer_norm(x, (4,)), [(2, 4)], "layer_norm"),
    "batch_norm": (lambda x, w, b: F.batch_norm(x, None, None, w, b, training=True),
                   [(4, 3, 2, 2), (3,), (3,)], "batch_norm"),
    "batch_norm1d_plain": (lambda x: F.batch_norm(x, None, None, training=True), [(5, 3)],
                           "batch_norm"),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_c_formula_matches_python_formula_and_finite_differences(name):
    fn, shapes, kind = CASES[name]
    xs = [_leaf(*s, seed=i) for i, s in enumerate(shapes)]
    out = fn(*xs)
    assert kind in _kinds(out)
    go = torch.randn(out.shape, dtype=out.dtype, generator=torch.Generator().manual_seed(9))
    py = torch.autograd.grad(out, xs, go, retain_graph=True, create_graph=True)  # Python
    out.backward(go)                                                             # C
    assert _C._last_backward_c_nodes() >= 1
    for x, p in zip(xs, py):
        assert x.grad.shape == x.shape and x.grad.dtype == x.dtype
        assert torch.allclose(x.grad, p.detach(), rtol=1e-12, atol=1e-12), name
    assert gradcheck(fn, [_leaf(*s, seed=i) for i, s in enumerate(shapes)])


@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
@pytest.mark.parametrize("weighted", [False, True])
def test_nll_c_formula(reduction, weighted):
    logits = _leaf(6, 4)
    target = torch.tensor([0, 3, 1, -100, 2, 3])
    weight = torch.tensor([1.0, 2.0, 0.5, 3.0], dtype=torch.float64) if weighted else None

    def fn(z):
        return F.cross_entropy(z, target, weight=weight, reduction=reduction, ignore_index=-100)
    out = fn(logits)
    assert "nll" in _kinds(out)
    go = torch.ones(out.shape, dtype=out.dtype) if reduction == "none" else None
    py, = torch.autograd.grad(out, [logits], go, retain_graph=True, create_graph=True)
    out.backward(go)
    assert torch.allclose(logits.grad, py.detach(), rtol=1e-12, atol=1e-12)
    assert gradcheck(fn, [_leaf(6, 4)])


def test_training_step_runs_its_nodes_in_c():
    torch.manual_seed(0)
    model = nn.Sequential(nn.Conv2d(1, 4, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
                          nn.Flatten(), nn.Linear(4 * 4 * 4, 10))
    x, y = torch.randn(8, 1, 8, 8), torch.randint(0, 10, (8,))
    loss = F.cross_entropy(model(x), y)
    kinds = [k for k in _kinds(loss) if k is not None]
    assert sorted(kinds) == ["flatten", "linear", "log_softmax", "nll", "relu"]  # (the
    # convolution and pooling derivatives are Python formulas, recorded ops themselves)
    loss.backward()
    assert _C._last_backward_c_nodes() == len(kinds)


def test_c_formula_checks_saved_tensors_against_inplace_writes():
    a = _leaf(3)
    b = torch.ones(3, dtype=torch.float64)
    y = a * b
    b.add_(1)
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        y.sum().backward()
    x = _leaf(4)
    r = (x * 2).relu()
    r.add_(1)  # relu's result, which its formula reads
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        r.sum().backward()


def test_c_formula_released_after_backward_unless_retained():
    x = _leaf(3)
    y = (x * 3).relu()
    s = y.sum()
    s.backward(retain_graph=True)
    assert y.grad_fn._cformula == "relu"
    s.backward()
    assert torch.allclose(x.grad, 2 * (3 * (x > 0).double()))
    assert y.grad_fn._cformula is None
    with pytest.raises(RuntimeError, match="backward through the graph a second time"):
        s.backward()


def test_hooks_see_the_gradients_of_c_nodes():
    x = _leaf(4)
    h = x * 2
    seen = []
    h.register_hook(lambda g: seen.append(g.clone()) or g * 10)
    (h.relu() * 1.0).sum().backward()
    assert len(seen) == 1
    assert torch.equal(seen[0], (h > 0).double())
    assert torch.equal(x.grad, 20 * (h > 0).double())


def test_leaf_gradients_do_not_alias_each_other():
    a, b = _leaf(3), _leaf(3, seed=1)
    (a + b).sum().backward()  # one gradient impl for both edges
    a.grad.add_(1)
    assert torch.equal(b.grad, torch.ones(3, dtype=torch.float64))
    x = _leaf(2, 3)
    x.sum().backward()        # an expanded gradient
    x.grad.add_(1)
    assert torch.equal(x.grad, torch.full((2, 3), 2.0, dtype=torch.float64))


def test_backward_in_several_threads_at_once():
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(20, 32), nn.ReLU(), nn.Linear(32, 5))
    xs = [torch.randn(16, 20, generator=torch.Generator().manual_seed(i)) for i in range(4)]
    ys = [torch.randint(0, 5, (16,), generator=torch.Generator().manual_seed(i)) for i in range(4)]
    params = list(model.parameters())

    def grads(i):
        loss = F.cross_entropy(model(xs[i]), ys[i])
        return torch.autograd.grad(loss, params)
    want = [grads(i) for i in range(4)]
    got, errors = {}, []

    def work(i):
        try:
            for _ in range(25):
                got[i] = grads(i)
        except Exception as e:  # reported below
            errors.append(e)
    threads = [threading.Thread(target=work, args=(i,)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    for i in range(4):
        for g, w in zip(got[i], want[i]):
            assert torch.equal(g, w)


def test_training_steps_keep_memory_flat():
    import gc
    from test_memory import rss          # 0 under AddressSanitizer (its quarantine keeps frees)
    torch.manual_seed(0)
    model = nn.Sequential(nn.Conv2d(1, 4, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
                          nn.Flatten(), nn.Linear(4 * 8 * 8, 32), nn.LayerNorm(32), nn.GELU(),
                          nn.Linear(32, 10))
    opt = torch.optim.SGD(model.parameters(), lr=0.01)
    x, y = torch.randn(16, 1, 16, 16), torch.randint(0, 10, (16,))

    def step():
        opt.zero_grad()
        F.cross_entropy(model(x), y).backward()
        opt.step()
    for _ in range(50):
        step()
    gc.collect()
    rss0 = rss()
    for _ in range(600):
        step()
    gc.collect()
    assert rss() - rss0 < 20 << 20
