"""minitorch.func: functional_call, grad/vjp/jvp/jacobians/hessian (values as torch.func's, checked
against closed forms and autograd.functional), vmap by iteration, and utils._pytree."""
import collections
import math
import warnings

import pytest

import minitorch as torch
from minitorch.func import (functional_call, grad, grad_and_value, hessian, jacfwd, jacrev, jvp,
                            linearize, stack_module_state, vjp, vmap)
from minitorch.utils import _pytree as pytree


def test_functional_call_swaps_and_restores():
    torch.manual_seed(0)
    m = torch.nn.Sequential(torch.nn.Linear(2, 3), torch.nn.BatchNorm1d(3))
    w0 = m[0].weight
    p = {"0.weight": torch.ones(3, 2), "0.bias": torch.zeros(3)}
    x = torch.ones(4, 2)
    out = functional_call(m.eval(), p, (x,))
    assert torch.allclose(out, m[1](x @ torch.ones(2, 3)))
    assert m[0].weight is w0 and isinstance(m[0].weight, torch.nn.Parameter)
    assert functional_call(m, [{"0.weight": torch.ones(3, 2)}, {"0.bias": torch.ones(3)}],
                           x).shape == (4, 3)
    with pytest.raises(RuntimeError, match=r"Unexpected key\(s\): 'nope'"):
        functional_call(m, {"nope": torch.ones(1)}, (x,), strict=True)
    with pytest.raises(ValueError, match="appeared in multiple dictionaries"):
        functional_call(m, [{"0.bias": torch.ones(3)}, {"0.bias": torch.ones(3)}], (x,))
    with pytest.warns(FutureWarning, match="stateless.functional_call` is deprecated"):
        torch.nn.utils.stateless.functional_call(m, p, (x,))


def test_tied_weights_follow_the_given_value():
    lin = torch.nn.Linear(2, 2, bias=False)
    m = torch.nn.Sequential(lin, lin)
    out = functional_call(m, {"0.weight": torch.eye(2) * 2}, (torch.ones(1, 2),))
    assert out.tolist() == [[4.0, 4.0]]


def test_grad_and_friends():
    x = torch.tensor([1.0, 2.0], dtype=torch.float64)
    assert grad(lambda x: (x ** 3).sum())(x).tolist() == [3.0, 12.0]
    assert grad(grad(lambda x: x ** 3))(torch.tensor(2.0)).item() == 12.0
    g, (v, aux) = grad_and_value(lambda x: ((x ** 2).sum(), x.mean()), has_aux=True)(x)
    assert g.tolist() == [2.0, 4.0] and v.item() == 5.0 and aux.item() == 1.5
    gx, gy = grad(lambda a, b: (a * b).sum(), argnums=(0, 1))(x, x * 3)
    assert gx.tolist() == [3.0, 6.0] and gy.tolist() == [1.0, 2.0]
    assert not g.requires_grad and not x.requires_grad
    with pytest.raises(RuntimeError, match="Expected f\\(\\*args\\) to return a scalar Tensor, "
                                           "got tensor with 1 dims"):
        grad(lambda x: x ** 2)(x)
    # a dict of parameters as the differentiated argument
    d = grad(lambda p: (p["a"] * p["b"]).sum())({"a": x, "b": x + 1})
    assert d["a"].tolist() == [2.0, 3.0] and d["b"].tolist() == [1.0, 2.0]


def test_vjp_jvp_linearize():
    x = torch.tensor([0.5, 1.0], dtype=torch.float64)
    out, fn = vjp(lambda x: x.sin(), x)
    (ct,) = fn(torch.ones(2, dtype=torch.float64))
    assert torch.allclose(ct, x.cos())
    p, t = jvp(lambda x: x ** 2, (x,), (torch.ones(2, dtype=torch.float64),))
    assert p.tolist() == [0.25, 1.0] and t.tolist() == [1.0, 2.0]
    _, f = linearize(lambda x: x.exp(), x)
    assert torch.allclose(f(torch.ones(2, dtype=torch.float64)), x.exp())
    with pytest.raises(RuntimeError, match="same python structure"):
        jvp(lambda a, b: a + b, (x, x), (x,))


def test_jacobians_and_hessian():
    x = torch.tensor([0.5, 1.0], dtype=torch.float64)
    for jac in (jacrev, jacfwd):
        assert torch.allclose(jac(lambda x: x.sin())(x), torch.diag(x.cos()))
    f = lambda x: (x.sin() * x).sum()  # noqa: E731
    h = hessian(f)(x)
    expect = torch.diag(2 * x.cos() - x * x.sin())
    assert torch.allclose(h, expect)
    assert torch.allclose(h, torch.autograd.functional.hessian(f, x))
    j = jacrev(lambda a, b: a * b, argnums=1)(x, x * 2)
    assert torch.allclose(j, torch.diag(x))
    m = jacrev(lambda x: x.reshape(2, 1) * x)(x)
    assert m.shape == (2, 2, 2)


def test_vmap_maps_by_iteration():
    assert vmap(lambda a, b: a @ b, in_dims=(0, None))(torch.ones(4, 2, 3), torch.ones(3)).shape \
        == (4, 2)
    assert vmap(torch.sum, in_dims=1)(torch.ones(2, 5)).tolist() == [2.0] * 5
    assert vmap(lambda x: x * 2, out_dims=1)(torch.ones(3, 4)).shape == (4, 3)
    a = torch.arange(6.0).reshape(2, 3)
    assert vmap(vmap(lambda u, v: u * v))(torch.ones(2, 3), a).tolist() == a.tolist()
    assert vmap(lambda d: d["a"] + d["b"])({"a": torch.ones(3, 2), "b": torch.ones(3, 2)}).shape \
        == (3, 2)
    with pytest.raises(ValueError, match=r"got sizes \[3, 4\]"):
        vmap(lambda x, y: x + y)(torch.ones(3), torch.ones(4))
    with pytest.raises(ValueError, match="At least one of the inputs must be mapped"):
        vmap(lambda x: x, in_dims=None)(torch.ones(3))
    with pytest.raises(RuntimeError, match="randomness error mode"):
        vmap(lambda x: x + torch.rand(()))(torch.ones(3))
    r = vmap(lambda x: x + torch.rand(()), randomness="same")(torch.zeros(3))
    assert bool((r == r[0]).all())
    r = vmap(lambda x: x + torch.rand(()), randomness="different")(torch.zeros(3))
    assert not bool((r == r[0]).all())


def test_per_sample_gradients():
    torch.manual_seed(0)
    model = torch.nn.Linear(3, 1)
    params = {k: v.detach() for k, v in model.named_parameters()}

    def loss(params, xb, yb):
        return ((functional_call(model, params, (xb.unsqueeze(0),)) - yb) ** 2).mean()
    X = torch.randn(4, 3)
    Y = torch.randn(4, 1)
    g = vmap(grad(loss), in_dims=(None, 0, 0))(params, X, Y)
    for i in range(4):
        model.zero_grad()
        ((model(X[i:i + 1]) - Y[i]) ** 2).mean().backward()
        assert torch.allclose(g["weight"][i], model.weight.grad)
        assert torch.allclose(g["bias"][i], model.bias.grad)


def test_stack_module_state_ensembles():
    torch.manual_seed(0)
    models = [torch.nn.Linear(2, 2) for _ in range(3)]
    params, buffers = stack_module_state(models)
    assert params["weight"].shape == (3, 2, 2) and params["weight"].requires_grad
    x = torch.randn(5, 2)
    base = models[0]
    out = vmap(lambda p: functional_call(base, p, (x,)))(params)
    for i, m in enumerate(models):
        assert torch.allclose(out[i], m(x))


def test_pytree_round_trip():
    Point = collections.namedtuple("Point", "x y")
    tree = {"a": [1, (2, None)], "b": Point(3, {"c": 4})}
    leaves, spec = pytree.tree_flatten(tree)
    assert leaves == [1, 2, 3, 4]
    assert pytree.tree_unflatten([10, 20, 30, 40], spec) == \
        {"a": [10, (20, None)], "b": Point(30, {"c": 40})}
    assert pytree.tree_map(lambda v: v * 2, tree)["b"].y["c"] == 8
    with pytest.raises(ValueError, match="has length 1"):
        pytree.tree_unflatten([1], spec)
