"""Autograd semantics that torch's own test_autograd.py checks: which nodes may run twice, what
is saved, where captured gradients go, the order of hooks and retain_grad, grad-mode
decorators on generators, and the errors of out=, numpy() and custom Functions."""
import pickle

import pytest

import minitorch as torch
from minitorch import _C


def test_a_graph_without_saved_tensors_runs_twice():
    b = torch.randn(3, requires_grad=True)
    c = b + 1
    c.backward(torch.ones(3))
    c.backward(torch.ones(3))
    assert torch.equal(b.grad, torch.full((3,), 2.0))
    d = (b * 2).sum()            # a product by a number keeps no tensor either
    d.backward()
    d.backward()
    assert torch.equal(b.grad, torch.full((3,), 6.0))
    e = (b * b).sum()            # this one does
    e.backward()
    with pytest.raises(RuntimeError, match="second time"):
        e.backward()


def test_grad_on_disjoint_inputs_of_one_graph():
    leaf = torch.zeros(3, requires_grad=True)
    i1, i2 = leaf * 2, leaf * leaf
    loss = (i1 * 3 + i2 * 4).sum()
    g1, = torch.autograd.grad(loss, [i1])
    g2, = torch.autograd.grad(loss, [i2])  # i1's node did not run: nothing was freed below
    assert torch.equal(g1, torch.full((3,), 3.0)) and torch.equal(g2, torch.full((3,), 4.0))


def test_only_what_a_gradient_needs_is_saved():
    mu = torch.ones(1, requires_grad=True)
    x = mu * 1
    y = x * torch.tensor([3.0])  # the constant is saved, x is not
    x.mul_(2)
    y.sum().backward()
    assert torch.equal(mu.grad, torch.tensor([3.0]))
    a = torch.ones(2, 2, requires_grad=True)
    w = torch.ones(2, 2)
    z = a.mm(w)                  # w is saved for a's gradient; a is not needed
    a_view = a.detach()
    a_view.add_(1)
    z.sum().backward()
    assert torch.equal(a.grad, torch.full((2, 2), 2.0))


def test_backward_inputs_that_are_not_leaves_get_grad():
    x = torch.ones(2, requires_grad=True)
    xn = x * 1
    (xn ** 2).sum().backward(inputs=[xn])
    assert torch.equal(xn.grad, torch.full((2,), 2.0))
    assert x.grad is None
    (xn ** 2).sum().backward(inputs=[xn, x])
    assert torch.equal(xn.grad, torch.full((2,), 4.0))
    assert torch.equal(x.grad, torch.full((2,), 2.0))


def test_retain_grad_sees_every_tensor_hook():
    a = torch.tensor(1.0, requires_grad=True)
    b = a.clone()
    b.register_hook(lambda g: g * 2)
    b.retain_grad()
    b.register_hook(lambda g: g * 2)
    b.clone().backward()
    assert b.grad.item() == 4.0
    assert a.grad.item() == 4.0


def test_tensor_hooks_run_before_node_prehooks():
    a = torch.tensor(1.0, requires_grad=True)
    b = a * 2
    order = []
    b.grad_fn.register_prehook(lambda gs: order.append("node"))
    b.register_hook(lambda g: order.append("tensor"))
    b.backward()
    assert order == ["tensor", "node"]
    seen = []
    c = a.clone()
    c.grad_fn.next_functions[0][0].register_prehook(lambda gs: seen.append(gs[0].item()))
    a.register_hook(lambda g: g * 2)
    c.backward()
    assert seen == [2.0]


def test_retain_grad_follows_inplace_ops():
    a = torch.tensor([1.0], requires_grad=True).clone()
    a.retain_grad()
    a.mul_(2)
    a.sum().backward()
    assert torch.equal(a.grad, torch.tensor([1.0]))
    base = torch.tensor([1.0], requires_grad=True).clone()
    view = base[:]
    view.retain_grad()
    view.mul_(2)
    view.sum().backward()
    assert torch.equal(view.grad, torch.tensor([1.0]))


def test_grad_mode_decorators_on_generators():
    @torch.no_grad()
    def gen():
        got = yield torch.is_grad_enabled()
        yield got, torch.is_grad_enabled()

    with torch.enable_grad():
        g = gen()
        assert next(g) is False
        assert torch.is_grad_enabled()          # the caller keeps its mode in between
        assert g.send("x") == ("x", False)

    @torch.enable_grad()
    def inner():
        try:
            yield torch.is_grad_enabled()
        except ValueError:
            yield "caught", torch.is_grad_enabled()

    with torch.no_grad():
        g = inner()
        assert next(g) is True
        assert g.throw(ValueError) == ("caught", True)
        g.close()
        assert not torch.is_grad_enabled()


def test_materialized_grads_can_be_differentiated_again():
    x = torch.ones(2, requires_grad=True)
    y = torch.ones(2, requires_grad=True)
    gx, gy = torch.autograd.grad((x * 2).sum(), [x, y], create_graph=True,
                                 materialize_grads=True)
    assert torch.equal(gy, torch.zeros(2)) and gy.requires_grad


def test_variable_is_a_new_leaf():
    x = torch.ones(2, requires_grad=True)
    v = torch.autograd.Variable(x, requires_grad=True)
    assert v is not x and v.is_leaf and v.data_ptr() == x.data_ptr()
    (v * 3).sum().backward()
    assert x.grad is None and torch.equal(v.grad, torch.full((2,), 3.0))


def test_pickling_keeps_requires_grad():
    t = pickle.loads(pickle.dumps(torch.randn(3, requires_grad=True)))
    assert t.requires_grad and t.is_leaf
    assert not pickle.loads(pickle.dumps(torch.randn(3))).requires_grad


def test_errors_as_torch():
    x = torch.ones(2, requires_grad=True)
    with pytest.raises(RuntimeError, match=r"Can't call numpy\(\) on Tensor that requires grad"):
        x.numpy()
    assert x.numpy(force=True).tolist() == [1.0, 1.0]
    with torch.no_grad():
        assert x.numpy().tolist() == [1.0, 1.0]
    with pytest.raises(RuntimeError, match="don't support automatic differentiation"):
        torch.mul(x, 2, out=torch.empty(2))
    out = torch.empty(2, dtype=torch.bool)
    torch.eq(x, 1, out=out)                     # no derivative: out= is fine
    assert out.tolist() == [True, True]
    with pytest.raises(RuntimeError, match="only for real scalar outputs"):
        (x.to(torch.complex64) * 1j).sum().backward()

    class Both(torch.autograd.Function):
        @staticmethod
        def forward(ctx, a):
            return a * 2

        @staticmethod
        def backward(ctx, g):
            return g

        @staticmethod
        def vjp(ctx, g):
            return g
    with pytest.raises(RuntimeError, match="Implementing both 'backward' and 'vjp'"):
        Both.apply(x).sum().backward()

    class VjpOnly(torch.autograd.Function):
        @staticmethod
        def forward(ctx, a):
            return a * 2

        @staticmethod
        def vjp(ctx, g):
            return g * 5
    y = torch.ones(2, requires_grad=True)
    VjpOnly.apply(y).sum().backward()
    assert torch.equal(y.grad, torch.full((2,), 5.0))
    assert _C._last_backward_c_nodes() >= 0



def test_double_backward_through_an_inplace_op_on_a_slice():
    a = torch.tensor([1.0, 2.0, 3.0, 4.0], requires_grad=True)
    b = torch.tensor([5.0, 7.0], requires_grad=True)
    x = a.clone()
    x[1:3].mul_(b)
    g, = torch.autograd.grad((x * x).sum(), b, create_graph=True)
    assert g.tolist() == [2 * 2 * 2 * 5, 2 * 3 * 3 * 7]
    # d/da of 2 a1^2 b0 + 2 a2^2 b1: through the new values and the old ones the formula read
    assert torch.autograd.grad(g.sum(), a)[0].tolist() == [0.0, 40.0, 84.0, 0.0]


def test_node_prehooks_see_every_gradient_and_skip_capture_points():
    class Two(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2, x * 3

        @staticmethod
        def backward(ctx, g1, g2):
            return g1 * 2 + g2 * 3

    x = torch.ones(2, requires_grad=True)
    p, q = Two.apply(x)
    seen = []
    p.grad_fn.register_prehook(lambda gs: seen.append(len(gs)) or (gs[0] * 10, gs[1]))
    (p.sum() + q.sum()).backward()
    assert seen == [2] and x.grad.tolist() == [23.0, 23.0]
    # autograd.grad at b: b's tensor hooks run (they shape the result), its node's do not
    a = torch.tensor(1.0, requires_grad=True)
    b = a * 2
    c = b * 3
    calls = []
    b.grad_fn.register_prehook(lambda gs: calls.append("pre"))
    b.grad_fn.register_hook(lambda gi, go: calls.append("post"))
    b.register_hook(lambda g: g * 2)
    gb, = torch.autograd.grad(c, (b,))
    assert gb.item() == 6.0 and calls == []


def test_inplace_on_outputs_of_multi_view_ops_is_an_error():
    x = torch.ones(4, requires_grad=True).clone()
    # (torch names the node without its "Backward0")
    for views, op in ((lambda: x.unbind(), "Unbind"), (lambda: x.split(2), "Split"),
                      (lambda: x.chunk(2), "Split"),
                      (lambda: x.split([1, 3]), "SplitWithSizes")):
        a = views()[0]
        with pytest.raises(RuntimeError, match=f"Output 0 of {op} is a view and is being "
                                               "modified inplace"):
            a.mul_(2)
    a, b = torch.ones(4).split(2)   # without a history: allowed
    a.mul_(2)
    with torch.no_grad():
        a, b = x.split(2)
        a.mul_(2)                    # grad mode off: not recorded, allowed
    assert (x.split(2)[1] * 2).requires_grad


def test_data_and_legacy_function_errors():
    a = torch.randn(2, requires_grad=True)
    with pytest.raises(RuntimeError, match="must be floating point or complex dtype"):
        a.data = torch.ones(2, dtype=torch.int64)
    with pytest.raises(RuntimeError, match="Deleting tensor data is not allowed"):
        del a.data
    b = torch.randn(2)
    b.data = torch.ones(2, dtype=torch.int64)  # without grad: any dtype
    assert b.dtype == torch.int64

    class Legacy(torch.autograd.Function):
        def forward(self, x):
            return x
    with pytest.raises(RuntimeError, match="Legacy autograd function with non-static forward"):
        Legacy()(a)


def test_once_differentiable_results_refuse_a_second_derivative():
    class F(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        @torch.autograd.function.once_differentiable
        def backward(ctx, g):
            return g * 2

    x = torch.ones(2, requires_grad=True)
    F.apply(x).sum().backward(torch.ones((), requires_grad=True), create_graph=True)
    assert x.grad.requires_grad and x.grad.tolist() == [2.0, 2.0]
    with pytest.raises(RuntimeError, match="marked with @once_differentiable"):
        x.grad.sum().backward()
    y = torch.ones(2, requires_grad=True)
    F.apply(y).sum().backward()               # a plain backward: nothing extra
    assert not y.grad.requires_grad


def test_resizing_keeps_counting_versions():
    x = torch.rand(1)
    x.resize_((1, 2))
    x.resize_as_(torch.randn(3))              # onto a larger storage
    assert x._version == 2


def test_inplace_on_a_view_leaves_no_reference_cycle():
    freed = []

    class Flag:
        def __del__(self):
            freed.append(1)

    def run():
        root = torch.randn(3, 3, requires_grad=True)
        copy = root.clone()
        copy.grad_fn.register_hook(Flag())
        torch.nn.functional.relu(copy.view(9), inplace=True)
    run()
    assert freed == [1]  # by reference counting, without the cycle collector


def test_power_of_a_number_base():
    for s, want in ((0, [-float("inf"), 0.0, 0.0]), (2.0, None)):
        b = torch.tensor([-1.0, 0.0, 1.0], requires_grad=True)
        torch.sum(s ** b).backward()
        if want is not None:
            assert b.grad.tolist() == want
        else:
            assert torch.allclose(b.grad, (2.0 ** b.detach()) * 0.6931471805599453)


def test_view_tracking_mode():
    """Views modified in place get an as_strided history (torch's default); view replay
    (mode True) is not implemented and says so."""
    torch.autograd._force_original_view_tracking(False)
    with torch.autograd._force_original_view_tracking(False):
        assert not torch.autograd.is_view_replay_enabled()
        x = torch.ones(2, 2, requires_grad=True)
        out = x.clone().view(-1)
        out.add_(1)
        assert "AsStridedBackward" in str(out.grad_fn)
    with pytest.raises(NotImplementedError, match="view replay"):
        torch.autograd._force_original_view_tracking(True)
    with pytest.raises(TypeError, match="must be bool"):
        torch.autograd._force_original_view_tracking(1)


def test_inplace_activation_after_a_normalisation():
    """Batch and layer norm save only the statistics their derivative reads, not their output,
    so an in-place activation on the output (BatchNorm -> ReLU(inplace=True), as DCGAN and
    ResNets do) is no error, as torch; double backward still differentiates them."""
    nn = torch.nn
    for norm in (nn.BatchNorm2d(3), nn.LayerNorm([3, 4, 4])):
        norm = norm.double()
        x = torch.randn(2, 3, 4, 4, dtype=torch.float64, requires_grad=True)
        y = nn.ReLU(inplace=True)(norm(x))
        y.sum().backward()
        want = torch.autograd.grad(torch.relu(norm(x)).sum(), x)[0]
        assert torch.allclose(x.grad, want)
    x = torch.randn(3, 4, dtype=torch.float64, requires_grad=True)
    y = x.sigmoid()
    y.mul_(2)   # sigmoid's derivative reads its result: torch's error
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        y.sum().backward()


def test_assigned_backward_hooks_dict_runs_its_hooks():
    # torch 2.15: the dict assigned to a leaf's _backward_hooks is kept (the same object) and
    # the hooks put in it later run; None removes them; a tensor not requiring grad accepts it
    from collections import OrderedDict
    x = torch.ones(2, requires_grad=True)
    d = OrderedDict()
    x._backward_hooks = d
    d["a"] = lambda g: g * 2
    (x * 3).sum().backward()
    assert x.grad.tolist() == [6.0, 6.0]
    assert x._backward_hooks is d
    x._backward_hooks = None
    assert x._backward_hooks is None
    x.grad = None
    (x * 3).sum().backward()
    assert x.grad.tolist() == [3.0, 3.0]
    z = torch.ones(2)
    z._backward_hooks = OrderedDict()
    z._backward_hooks["never"] = lambda g: 1 / 0
    (z * x).sum().backward()
    assert z._backward_hooks is not None and len(z._backward_hooks) == 1


def test_var_mean_is_one_node_for_both_outputs():
    # torch 2.15: one VarMeanBackward0 whose pre-hook sees two gradients; values from torch
    x = torch.tensor([[1.0, 2.0, 4.0], [0.5, -1.0, 3.0]], dtype=torch.float64,
                     requires_grad=True)
    v, m = torch.var_mean(x, 1)
    assert v.grad_fn is m.grad_fn and v.grad_fn.name() == "VarMeanBackward0"
    seen = []
    v.grad_fn.register_prehook(lambda go: seen.append(len(go)))
    (g,) = torch.autograd.grad((v * 2 + m * 3).sum(), x)
    assert seen == [2]
    ref = [[-1.666666666666667, 0.33333333333333304, 4.333333333333333],
           [0.33333333333333326, -2.666666666666667, 5.333333333333333]]
    assert torch.allclose(g, torch.tensor(ref, dtype=torch.float64))
    v, m = torch.var_mean(x, True)       # (input, unbiased)
    (g,) = torch.autograd.grad(v, x)
    ref = [[-0.2333333333333333, 0.1666666666666667, 0.9666666666666668],
           [-0.43333333333333335, -1.0333333333333332, 0.5666666666666668]]
    assert torch.allclose(g, torch.tensor(ref, dtype=torch.float64))


def test_post_hook_registered_while_unpacking_runs_on_that_node():
    # torch 2.15: var_mean saves its input once; a post hook the unpack hook registers halves
    # the gradient of that very pass (grad_outputs: None)
    a = torch.ones(3, 3, requires_grad=True)
    calls = []

    def unpack(t):
        node = torch._C._current_autograd_node()

        def hook(grad_inputs, grad_outputs):
            calls.append(all(o is None for o in grad_outputs))
            return tuple(g / 2.0 if g is not None else None for g in grad_inputs)

        node.register_hook(hook)
        return t

    with torch.autograd.graph.saved_tensors_hooks(lambda t: t, unpack):
        var, mean = torch.var_mean(a, dim=0)
        (var + mean).sum().backward()
    assert calls == [True]
    assert torch.allclose(a.grad, torch.full((3, 3), 1 / 6))


def test_custom_function_node_has_edges_for_its_tensor_arguments_only():
    # torch 2.15: next_functions ((AccumulateGrad, 0), (None, 0)) for apply("s", x, 3, y)
    class F(torch.autograd.Function):
        @staticmethod
        def forward(ctx, st, x, k, y):
            return x * 2 + y

        @staticmethod
        def backward(ctx, g):
            return None, g * k_factor, None, g

    k_factor = 3.0
    x = torch.ones(2, requires_grad=True)
    y = torch.ones(2)
    o = F.apply("s", x, 3, y)
    nf = o.grad_fn.next_functions
    assert len(nf) == 2
    assert nf[0][0].name().endswith("AccumulateGrad") and nf[1] == (None, 0)
    seen = []
    o.grad_fn.register_hook(lambda gi, go: seen.append(len(gi)))
    o.sum().backward()
    assert seen == [2]
    assert x.grad.tolist() == [3.0, 3.0]


def test_volatile_is_gone_with_torchs_warnings():
    # torch 2.15: reading warns "volatile was removed (Variable.volatile is always False)" and
    # gives False; setting warns and has no effect; torch.autograd.torch is the torch module
    import warnings
    v = torch.autograd.torch.randn(3, 3)
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        assert v.volatile is False
        v.volatile = True
        assert v.volatile is False
    msgs = [str(x.message) for x in w]
    assert msgs == ["volatile was removed (Variable.volatile is always False)",
                    "volatile was removed and now has no effect. Use `with torch.no_grad():` "
                    "instead.",
                    "volatile was removed (Variable.volatile is always False)"]
    assert torch.autograd.torch is torch


def test_function_vmap_defaults():
    # torch 2.15: generate_vmap_rule is False and the default vmap staticmethod raises
    class Sq(torch.autograd.Function):
        @staticmethod
        def forward(x):
            return x ** 2

        @staticmethod
        def setup_context(ctx, inputs, output):
            ctx.save_for_backward(inputs[0])

        @staticmethod
        def backward(ctx, g):
            (x,) = ctx.saved_tensors
            return g * 2 * x

    assert Sq.generate_vmap_rule is False
    with pytest.raises(NotImplementedError, match="must either override the vmap staticmethod"):
        Sq.vmap(None, (0,), torch.ones(2))
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    Sq.apply(x).sum().backward()
    assert x.grad.tolist() == [2.0, 4.0]
    assert torch.func.vmap(Sq.apply)(torch.tensor([[1.0], [3.0]])).tolist() == [[1.0], [9.0]]


def test_inplace_function_returning_its_dirty_input():
    # torch 2.15: InplaceFunction is a Function; the input it marked dirty comes back as is,
    # with the Function's node as its history
    from minitorch.autograd.function import InplaceFunction

    class Inplace(InplaceFunction):
        @staticmethod
        def forward(ctx, a, b):
            ctx.mark_dirty(a)
            return a.add_(b), b + 2

        @staticmethod
        def backward(ctx, grad_a, grad_b):
            return grad_a, grad_a + grad_b

    assert Inplace(inplace=True).inplace is True and Inplace().inplace is False
    x = torch.randn(5, 5)
    y = torch.randn(5, 5, requires_grad=True)
    q, p = Inplace.apply(x, y)
    assert q is x and type(q.grad_fn) is Inplace._backward_cls and q.requires_grad
    q.sum().backward()
    assert torch.equal(y.grad, torch.ones(5, 5))


def test_split_and_unbind_nodes_save_nothing_and_run_again():
    # torch 2.15: UnbindBackward0 / SplitBackward0 keep only sizes and dim, so each output's
    # backward may run through the shared node in turn, without retain_graph; the hook on
    # the first output sees its gradient in its own pass and None in the others' (the node
    # runs without a gradient for it); a node after them that saves still fails
    x = torch.arange(6.0).reshape(2, 3).requires_grad_()
    seen = []
    for f, grads in ((lambda: x.unbind(1), [[1.0, 2.0, 3.0], [1.0, 2.0, 3.0]]),
                     (lambda: x.split(1, 1), [[1.0, 2.0, 3.0], [1.0, 2.0, 3.0]]),
                     (lambda: x.split([1, 2], 1), [[1.0, 2.0, 2.0], [1.0, 2.0, 2.0]]),
                     (lambda: x.chunk(3, 1), [[1.0, 2.0, 3.0], [1.0, 2.0, 3.0]])):
        x.grad = None
        parts = f()
        parts[0].register_hook(seen.append)
        for i, p in enumerate(parts):
            (p * (i + 1)).sum().backward()
        assert x.grad.tolist() == grads
        assert seen[0].flatten().tolist() == [1.0, 1.0]
        assert seen[1:] == [None] * (len(parts) - 1)
        seen.clear()
    # retain_grad keeps None there; a hook may not put a gradient where none arrived
    p = (x * 2).unbind(1)
    p[0].retain_grad()
    x.grad = None
    p[1].sum().backward()
    assert p[0].grad is None and x.grad.tolist() == [[0.0, 2.0, 0.0], [0.0, 2.0, 0.0]]
    p = (x * 2).split(1, 1)
    p[0].register_hook(lambda g: torch.ones(2, 1) if g is None else g)
    with pytest.raises(RuntimeError, match="can't replace a None gradient with a non-None value"):
        p[1].sum().backward()
    y = x.unbind(0)
    z = y[0] * y[0]
    z.sum().backward()
    with pytest.raises(RuntimeError, match="backward through the graph a second time"):
        z.sum().backward()
    # no tensor of theirs goes through saved-tensor hooks (torch packs none)
    packed = []
    with torch.autograd.graph.saved_tensors_hooks(lambda t: packed.append(t) or t, lambda t: t):
        p = x.unbind(0)
    assert packed == []


# torch 2.15: the double backward of norm -> ReLU(inplace=True) -> pow(3).sum(), then the
# squared gradient summed (x below); instance and layer norm over the same elements agree
_NORM_DOUBLE_BACKWARD = {
    "instance": [0.7974997347, 14.6832255818, -18.7182891547, -8.38404928, 3.6983258395,
                 7.9232872788, 8.7602051703, 0.7165093969, -2.3639943647, -9.9798429382,
                 8.4189686809, -5.5518459452],
    "group": [-4.5196475338, 13.8543406584, -17.5275294099, 27.8635261334, -0.4240605831,
              5.0676322021, -18.6328819978, 3.969293645, -1.7538380092, -22.8933247965,
              22.6410491147, -7.6445594232],
}


def test_double_backward_of_a_normalisation_under_an_inplace_activation():
    """Instance, group and layer norm derive from their input and statistics, not from their
    output, so ReLU(inplace=True) on the output leaves double backward possible, as torch."""
    nn = torch.nn
    x = torch.tensor([[[[1.0, 1.0]]]], requires_grad=True)
    net = nn.Sequential(nn.InstanceNorm2d(2), nn.ReLU(True))
    with pytest.warns(UserWarning, match="num_features"):
        y = net(x)
    (g,) = torch.autograd.grad(y.pow(2), [x], grad_outputs=torch.ones(1, 1, 1, 2),
                               create_graph=True)
    assert torch.autograd.grad(g.sum(), [x])[0].tolist() == [[[[0.0, 0.0]]]]
    assert x.tolist() == [[[[1.0, 1.0]]]]
    x = torch.tensor([[[[0.3, -1.2, 0.7], [2.0, 0.1, -0.4]],
                       [[1.5, -0.3, 0.2], [0.9, -2.0, 0.4]]]], dtype=torch.float64,
                     requires_grad=True)
    for norm, key in ((nn.InstanceNorm2d(2), "instance"),
                      (nn.GroupNorm(1, 2, affine=False), "group"),
                      (nn.LayerNorm([2, 3], elementwise_affine=False), "instance")):
        net = nn.Sequential(norm, nn.ReLU(True))
        (g,) = torch.autograd.grad(net(x).pow(3).sum(), [x], create_graph=True)
        gg = torch.autograd.grad(g.pow(2).sum(), [x])[0]
        assert torch.allclose(gg.flatten(), torch.tensor(_NORM_DOUBLE_BACKWARD[key],
                                                         dtype=torch.float64), atol=1e-8)
        assert torch.autograd.gradgradcheck(lambda t: nn.ReLU(True)(norm(t)).pow(2), (x,))


_DETACHED_SAVED = ("Trying to use a saved tensor that has been detached in-place, i.e. with "
                   ".detach_().This is not supported, please use out-of-place `.detach()` "
                   "instead")


def test_a_saved_input_detached_in_place_is_an_error():
    # torch 2.15's message (exactly); a saved result detached in place, or a leaf saved, is
    # no error; the declared (C) path, its create_graph form and a Python formula agree
    import re
    a = torch.tensor(1.0, requires_grad=True).clone()
    b = a.sin()
    a.detach_()
    with pytest.raises(RuntimeError, match="^" + re.escape(_DETACHED_SAVED) + "$"):
        b.backward()
    leaf = torch.tensor(0.5, requires_grad=True)
    a = leaf.clone()
    b = a.sin()
    a.detach_()
    with pytest.raises(RuntimeError, match=re.escape(_DETACHED_SAVED)):
        torch.autograd.grad(b, leaf, create_graph=True)
    a = torch.tensor(1.0, requires_grad=True).clone()
    b = a.exp()
    a.detach_()
    b.backward()
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    a = x.clone()
    b = torch.vdot(a, x)
    a.detach_()
    with pytest.raises(RuntimeError, match=re.escape(_DETACHED_SAVED)):
        torch.autograd.grad(b, x)
    a = x * 1
    b = a * x
    a.detach_()
    with pytest.raises(RuntimeError, match=re.escape(_DETACHED_SAVED)):
        torch.autograd.grad(b.sum(), x)
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    b = x.sin()
    x.detach_()
    b.sum().backward()



def _graph_desc(fn):
    if fn is None:
        return "None"
    inner = ", ".join(_graph_desc(n) for n, _ in fn.next_functions)
    return f"{type(fn).__name__}({inner})"


def test_once_differentiable_graph_as_torch():
    # torch 2.15: the results go through one Error node whose edges reach detached leaves;
    # under create_graph .grad starts with the copy AccumulateGrad makes (CopyBackwards)
    class F(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x, k):
            return x * k

        @staticmethod
        @torch.autograd.function.once_differentiable
        def backward(ctx, g):
            assert not torch.is_grad_enabled()
            return g * ctx.needs_input_grad[0] * 2, None

    x = torch.ones(2, requires_grad=True)
    g, = torch.autograd.grad(F.apply(x, 2).sum(), x, torch.ones((), requires_grad=True),
                             create_graph=True)
    assert g.tolist() == [2.0, 2.0] and g.requires_grad and type(g.grad_fn).__name__ == "Error"
    x2 = torch.ones(2, requires_grad=True)
    F.apply(x2, 2).sum().backward(torch.ones((), requires_grad=True), create_graph=True)
    assert _graph_desc(x2.grad.grad_fn) == "CopyBackwards(None, Error(AccumulateGrad(), None))"
    with pytest.raises(RuntimeError, match="^trying to differentiate twice a function that was "
                                           "marked with @once_differentiable$"):
        x2.grad.sum().backward()
    x2.grad = None


def test_create_graph_grad_is_a_recorded_copy():
    # torch 2.15: x.grad's history under create_graph is CopyBackwards(None, <the gradient's>)
    x = torch.randn(3, 3, requires_grad=True)
    y = torch.randn(3, 3, requires_grad=True)
    (x * y + x).sum().backward(torch.ones((), requires_grad=True), create_graph=True)
    assert _graph_desc(x.grad.grad_fn) == (
        "CopyBackwards(None, AddBackward0(ExpandBackward0(AccumulateGrad()), "
        "MulBackward0(ExpandBackward0(AccumulateGrad()), AccumulateGrad())))")
    assert type(torch.empty(3, 3).copy_(x).grad_fn).__name__ == "CopyBackwards"
    # the copy is differentiable: d(sum(x.grad))/dy = 1 everywhere
    (gy,) = torch.autograd.grad(x.grad.sum(), y)
    assert gy.tolist() == [[1.0] * 3] * 3
    x.grad = y.grad = None
