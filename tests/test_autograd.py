"""Autograd: the engine, grad mode, hooks, Function, in-place checks (torch's behaviour)."""
import gc
import warnings

import numpy as np
import pytest

import minitorch as torch
from minitorch import autograd


def leaf(*shape, dtype=torch.float64):
    return torch.randn(*shape, dtype=dtype).requires_grad_()


def test_leaf_and_nonleaf_state():
    x = torch.ones(3, requires_grad=True)
    assert x.is_leaf and x.requires_grad and x.grad_fn is None and x.grad is None
    y = x * 2
    assert not y.is_leaf and y.requires_grad and type(y.grad_fn).__name__ == "MulBackward0"
    assert y.grad_fn.name() == "MulBackward0"
    # (as torch, the number 2 is a wrapped operand: an edge to no node)
    (fn, nr), (none, _) = y.grad_fn.next_functions
    assert type(fn).__name__ == "AccumulateGrad" and fn.variable is x and nr == 0 and none is None
    assert repr(y) == "tensor([2., 2., 2.], grad_fn=<MulBackward0>)"
    assert repr(x) == "tensor([1., 1., 1.], requires_grad=True)"
    z = torch.ones(3)
    assert not (z * 2).requires_grad and (z * 2).grad_fn is None


def test_backward_accumulates_into_leaves():
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    (x * x).sum().backward()
    assert x.grad.tolist() == [2.0, 4.0, 6.0]
    (x * 3).sum().backward()
    assert x.grad.tolist() == [5.0, 7.0, 9.0]
    x.grad = None
    (x + x).sum().backward()
    assert x.grad.tolist() == [2.0, 2.0, 2.0]


def test_shared_leaf_used_twice_in_one_op_and_across_ops():
    x = torch.tensor([2.0], requires_grad=True)
    y = x * x + x * 3
    y.backward()
    assert x.grad.item() == 7.0


def test_broadcasting_grads_are_summed_to_the_input_shape():
    a = leaf(3, 1)
    b = leaf(4)
    (a * b).sum().backward()
    assert a.grad.shape == (3, 1) and b.grad.shape == (4,)
    np.testing.assert_allclose(a.grad.numpy()[:, 0], np.full(3, b.detach().numpy().sum()))
    np.testing.assert_allclose(b.grad.numpy(), np.full(4, a.detach().numpy().sum()))


def test_mixed_dtypes_grad_in_input_dtype():
    a = torch.ones(2, dtype=torch.float32, requires_grad=True)
    b = torch.ones(2, dtype=torch.float64, requires_grad=True)
    (a * b).sum().backward()
    assert a.grad.dtype == torch.float32 and b.grad.dtype == torch.float64


def test_second_backward_without_retain_graph_is_torchs_error():
    x = leaf(3)
    y = (x.exp()).sum()
    y.backward()
    with pytest.raises(RuntimeError, match="backward through the graph a second time"):
        y.backward()
    x.grad = None
    y = (x.exp()).sum()
    y.backward(retain_graph=True)
    g = x.grad.clone()
    y.backward()
    np.testing.assert_allclose(x.grad.numpy(), 2 * g.numpy())


def test_implicit_grad_only_for_scalars():
    x = leaf(3)
    with pytest.raises(RuntimeError, match="only for scalar outputs"):
        (x * 2).backward()
    (x * 2).backward(torch.ones(3, dtype=torch.float64))
    assert x.grad.tolist() == [2.0, 2.0, 2.0]
    with pytest.raises(RuntimeError, match="Mismatch in shape"):
        (x * 2).backward(torch.ones(4, dtype=torch.float64))


def test_backward_of_tensor_without_grad_is_an_error():
    with pytest.raises(RuntimeError, match="does not require grad and does not have a grad_fn"):
        torch.ones(2).sum().backward()


def test_no_grad_enable_grad_set_grad_enabled():
    x = leaf(2)
    with torch.no_grad():
        y = x * 2
        assert not torch.is_grad_enabled()
        with torch.enable_grad():
            z = x * 2
    assert not y.requires_grad and z.requires_grad and torch.is_grad_enabled()

    @torch.no_grad()
    def f(t):
        return t * 2
    assert not f(x).requires_grad
    torch.set_grad_enabled(False)
    assert not (x * 2).requires_grad
    torch.set_grad_enabled(True)
    with torch.set_grad_enabled(False):
        assert not (x * 2).requires_grad
    assert (x * 2).requires_grad
    with torch.inference_mode():
        assert not (x * 2).requires_grad


def test_grad_mode_is_per_thread():
    import threading
    seen = []
    with torch.no_grad():
        t = threading.Thread(target=lambda: seen.append(torch.is_grad_enabled()))
        t.start()
        t.join()
    assert seen == [True]


def test_notes_pitfall_w_plus_dw_is_not_a_leaf():
    w = torch.randn(3, requires_grad=True)
    dw = torch.randn(3)
    w = w + dw
    assert not w.is_leaf
    (w * 2).sum().backward()
    with pytest.warns(UserWarning, match="not a leaf Tensor"):
        assert w.grad is None


def test_retain_grad_and_hooks():
    x = leaf(3)
    y = x * 2
    y.retain_grad()
    assert y.retains_grad
    seen = []
    h = y.register_hook(lambda g: seen.append(g.clone()))
    x.register_hook(lambda g: g * 10)
    (y * y).sum().backward()
    np.testing.assert_allclose(y.grad.numpy(), 2 * y.detach().numpy())
    np.testing.assert_allclose(seen[0].numpy(), y.grad.numpy())
    np.testing.assert_allclose(x.grad.numpy(), 10 * 2 * 2 * y.detach().numpy())
    h.remove()
    with pytest.raises(RuntimeError, match="doesn't require gradient"):
        torch.ones(2).register_hook(lambda g: g)


def test_post_accumulate_grad_hook():
    p = leaf(2)
    calls = []
    p.register_post_accumulate_grad_hook(lambda t: calls.append(t.grad.clone()))
    (p * 3).sum().backward()
    assert len(calls) == 1 and calls[0].tolist() == [3.0, 3.0]


def test_autograd_grad_does_not_touch_grad_fields():
    x, y = leaf(3), leaf(3)
    z = (x * y).sum()
    gx, gy = autograd.grad(z, (x, y))
    np.testing.assert_allclose(gx.numpy(), y.detach().numpy())
    assert x.grad is None and y.grad is None
    u = leaf(2)
    with pytest.raises(RuntimeError, match="not have been used in the graph"):
        autograd.grad((x * 2).sum(), (x, u))
    gx, gu = autograd.grad((x * 2).sum(), (x, u), allow_unused=True)
    assert gu is None


def test_create_graph_gives_second_derivatives():
    x = torch.tensor([3.0], dtype=torch.float64, requires_grad=True)
    y = x * x * x
    (g,) = autograd.grad(y, x, create_graph=True)
    assert g.item() == 27.0 and g.requires_grad
    (g2,) = autograd.grad(g, x)
    assert g2.item() == 18.0


def test_backward_inputs_accumulates_only_there():
    a, b = leaf(2), leaf(2)
    (a * b).sum().backward(inputs=[a])
    assert a.grad is not None and b.grad is None


def test_in_place_on_leaf_requiring_grad_is_an_error():
    x = leaf(3)
    with pytest.raises(RuntimeError, match="leaf Variable that requires grad"):
        x.add_(1)
    with torch.no_grad():
        x.add_(1)                         # what optimizers do


def test_in_place_on_saved_tensor_is_detected_at_backward():
    x = leaf(3)
    y = x * 1
    z = y.exp()                           # saves its output
    z.add_(1)
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        z.sum().backward()
    a = leaf(3)
    w = torch.ones(3, dtype=torch.float64)
    out = a * w                           # saves w
    w.mul_(2)
    with pytest.raises(RuntimeError, match="is at version 1; expected version 0"):
        out.sum().backward()


def test_in_place_ops_on_nonleaves_are_recorded():
    x = leaf(3)
    y = x * 2
    y.mul_(3)
    y += 1
    y[0] = 0
    y.sum().backward()
    assert x.grad.tolist() == [0.0, 6.0, 6.0]
    assert y._version == 3


def test_setitem_with_value_requiring_grad():
    v = leaf(2)
    t = torch.zeros(4, dtype=torch.float64)
    t[1:3] = v
    assert t.requires_grad and not t.is_leaf
    (t * torch.arange(4, dtype=torch.float64)).sum().backward()
    assert v.grad.tolist() == [1.0, 2.0]


def test_detach_and_requires_grad_flags():
    x = leaf(2)
    d = x.detach()
    assert not d.requires_grad and d.data_ptr() == x.data_ptr()
    y = x * 2
    with pytest.raises(RuntimeError, match="leaf variables"):
        y.requires_grad = False
    y.detach_()
    assert y.is_leaf and not y.requires_grad
    with pytest.raises(RuntimeError, match="floating point and complex"):
        torch.ones(2, dtype=torch.int64).requires_grad_()
    with pytest.raises(TypeError):
        x.requires_grad = "yes"


def test_grad_assignment_checks():
    x = leaf(2)
    with pytest.raises(RuntimeError, match=r"attempting to assign a gradient of size '\[3\]' to "
                                           r"a tensor of size '\[2\]'. Please ensure that the "
                                           "gradient and the tensor are the same size"):
        x.grad = torch.ones(3, dtype=torch.float64)
    with pytest.raises(RuntimeError, match="different type"):
        x.grad = torch.ones(2, dtype=torch.float32)
    with pytest.raises(TypeError):
        x.grad = 3
    x.grad = torch.ones(2, dtype=torch.float64)
    assert x.grad.tolist() == [1.0, 1.0]


def test_out_argument_with_grad_is_refused():
    x = leaf(2)
    out = torch.empty(2, dtype=torch.float64)
    with pytest.raises(RuntimeError, match="out=... arguments don't support automatic"):
        torch.mul(x, 2, out=out.requires_grad_())


class Cube(autograd.Function):
    @staticmethod
    def forward(ctx, x, k):
        ctx.save_for_backward(x)
        ctx.k = k
        return x ** 3 * k

    @staticmethod
    def backward(ctx, g):
        (x,) = ctx.saved_tensors
        return g * 3 * x ** 2 * ctx.k, None


def test_custom_function():
    x = leaf(4)
    y = Cube.apply(x, 2.0)
    assert type(y.grad_fn).__name__ == "CubeBackward"
    y.sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), 6 * x.detach().numpy() ** 2)
    assert autograd.gradcheck(lambda t: Cube.apply(t, 1.5), (leaf(3),))
    with torch.no_grad():
        assert not Cube.apply(x, 1.0).requires_grad


def test_custom_function_wrong_number_of_grads():
    class Bad(autograd.Function):
        @staticmethod
        def forward(ctx, a, b):
            return a + b

        @staticmethod
        def backward(ctx, g):
            return (g,)
    with pytest.raises(RuntimeError, match="incorrect number of gradients"):
        Bad.apply(leaf(2), leaf(2)).sum().backward()


def test_gradcheck_catches_a_wrong_formula():
    class Wrong(autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * x

        @staticmethod
        def backward(ctx, g):
            return g
    with pytest.raises(autograd.GradcheckError, match="Jacobian mismatch"):
        autograd.gradcheck(Wrong.apply, (leaf(3),))
    assert autograd.gradcheck(Wrong.apply, (leaf(3),), raise_exception=False) is False


def test_mlp_gradients_match_numpy():
    rng = np.random.default_rng(0)
    xs, w1, w2 = rng.standard_normal((5, 4)), rng.standard_normal((3, 4)), rng.standard_normal((2, 3))
    W1 = torch.tensor(w1, requires_grad=True)
    W2 = torch.tensor(w2, requires_grad=True)
    h = (torch.tensor(xs) @ W1.T).relu()
    loss = ((h @ W2.T) ** 2).mean()
    loss.backward()
    hn = np.maximum(xs @ w1.T, 0)
    o = hn @ w2.T
    go = 2 * o / o.size
    np.testing.assert_allclose(W2.grad.numpy(), go.T @ hn, rtol=1e-12)
    gh = (go @ w2) * (hn > 0)
    np.testing.assert_allclose(W1.grad.numpy(), gh.T @ xs, rtol=1e-12)


def test_graphs_are_freed_and_nothing_leaks():
    from test_memory import rss          # 0 under AddressSanitizer (its quarantine keeps frees)
    x = leaf(256)
    for _ in range(200):
        y = (x * 2).exp().sum()
        y.backward()
    gc.collect()
    rss0 = rss()
    for _ in range(3000):
        y = ((x * 2).exp() + x).sin().sum()
        y.backward()
    gc.collect()
    assert rss() - rss0 < 20 << 20
    live = torch._C._ag_live()
    del x, y
    gc.collect()
    assert torch._C._ag_live() < live


def test_deep_chain_does_not_overflow_the_stack():
    x = leaf(1)
    y = x
    for _ in range(100_000):
        y = y + 1
    y.backward()
    assert x.grad.item() == 1.0
    del y


def test_deepcopy_keeps_requires_grad():
    import copy
    x = leaf(2)
    c = copy.deepcopy(x)
    assert c.requires_grad and c.is_leaf and c.data_ptr() != x.data_ptr()
    with pytest.raises(RuntimeError, match="graph leaves"):
        copy.deepcopy(x * 2)


def test_warnings_free_for_plain_tensors():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert torch.ones(2).grad is None


def test_requires_grad_flag_methods_are_not_in_place_ops():
    x = leaf(2)
    assert x.requires_grad_(False) is x and not x.requires_grad
    x.requires_grad_()
    y = x * 2
    assert not y.detach().requires_grad
    assert y.detach_() is y and y.is_leaf


def test_grad_of_an_unused_input_names_its_index():
    x = torch.ones(2, requires_grad=True)
    z = torch.ones(2, requires_grad=True)
    with pytest.raises(RuntimeError, match="Tensor at index 1 appears to not have been used"):
        torch.autograd.grad((x * 2).sum(), (x, z))
