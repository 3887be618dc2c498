"""__torch_dispatch__: wrapper subclasses (Tensor._make_wrapper_subclass) and dispatch modes
(utils._python_dispatch.TorchDispatchMode).  The logs of op names were captured from torch 2.15
running the same programs (REF_LOGS); gradients are compared with the same computation on plain
tensors and with gradcheck."""
import gc

import pytest

import minitorch as torch
import minitorch.utils._pytree as pytree
from minitorch.utils._python_dispatch import TorchDispatchMode


class Logged(torch.Tensor):
    """Wraps a tensor, logs every op it takes part in and runs it on the wrapped tensors."""
    LOG = []

    @staticmethod
    def __new__(cls, elem, requires_grad=False):
        r = torch.Tensor._make_wrapper_subclass(
            cls, elem.size(), strides=elem.stride(), storage_offset=elem.storage_offset(),
            dtype=elem.dtype, device=elem.device, requires_grad=requires_grad)
        r.elem = elem.detach() if requires_grad else elem
        return r

    def __repr__(self):
        return super().__repr__(tensor_contents=f"{self.elem}")

    @classmethod
    def __torch_dispatch__(cls, func, types, args=(), kwargs=None):
        cls.LOG.append(str(func))

        def unwrap(e):
            return e.elem if isinstance(e, cls) else e

        def wrap(e):
            return cls(e) if isinstance(e, torch.Tensor) else e

        out = func(*pytree.tree_map(unwrap, args), **pytree.tree_map(unwrap, kwargs or {}))
        return pytree.tree_map(wrap, out)


@pytest.fixture(autouse=True)
def _no_wrapper_left():
    """The dispatch watcher stays on while a wrapper lives (Note [Python dispatch]): the
    wrappers a test made (some in reference cycles of the graph) go before the next test."""
    yield
    gc.collect()
    from minitorch import _python_dispatch
    assert not _python_dispatch.active()


def unwrap_all(r):
    return pytree.tree_map(lambda e: e.elem if isinstance(e, Logged) else e, r)


X = torch.tensor([[1., 2., 3.], [4., 5., 6.]], dtype=torch.float64)

# the ops and the names torch 2.15 logs for them
REF_LOGS = {
    "mul": (lambda a: a * 2, ["aten.mul.Tensor"]),
    "add": (lambda a: a + a, ["aten.add.Tensor"]),
    "radd": (lambda a: 1 + a, ["aten.add.Tensor"]),
    "sub": (lambda a: a - 1, ["aten.sub.Tensor"]),
    "div": (lambda a: a / 2, ["aten.div.Tensor"]),
    "neg": (lambda a: -a, ["aten.neg.default"]),
    "sum": (lambda a: a.sum(), ["aten.sum.default"]),
    "sum_dim": (lambda a: a.sum(1), ["aten.sum.dim_IntList"]),
    "exp": (lambda a: torch.exp(a), ["aten.exp.default"]),
    "t": (lambda a: a.t(), ["aten.t.default"]),
    "view": (lambda a: a.view(6), ["aten.view.default"]),
    "transpose": (lambda a: a.transpose(0, 1), ["aten.transpose.int"]),
    "unbind": (lambda a: a.unbind(0), ["aten.unbind.int"]),
    "pow": (lambda a: a ** 3, ["aten.pow.Tensor_Scalar"]),
    "eq_scalar": (lambda a: a == 2, ["aten.eq.Scalar"]),
    "eq_tensor": (lambda a: a == a, ["aten.eq.Tensor"]),
    "gt": (lambda a: a > 2, ["aten.gt.Scalar"]),
    "select": (lambda a: a[1], ["aten.select.int"]),
    "clone": (lambda a: a.clone(), ["aten.clone.default"]),
    "cat": (lambda a: torch.cat([a, a]), ["aten.cat.default"]),
    "item": (lambda a: a.sum().item(), ["aten.sum.default", "aten._local_scalar_dense.default"]),
}


@pytest.mark.parametrize("name", sorted(REF_LOGS))
def test_ops_reach_the_handler_with_torch_names(name):
    f, ref = REF_LOGS[name]
    Logged.LOG.clear()
    r = f(Logged(X))
    assert Logged.LOG == ref
    plain = f(X)
    got = unwrap_all(r)
    if isinstance(plain, tuple):
        assert all(isinstance(o, Logged) for o in r)
        assert all(torch.equal(a, b) for a, b in zip(got, plain))
    elif isinstance(plain, torch.Tensor):
        assert type(r) is Logged and r.shape == plain.shape and r.dtype == plain.dtype
        assert torch.equal(got, plain)
    else:
        assert got == plain


def test_wrapper_metadata():
    base = torch.arange(12.).reshape(3, 4)[:, 1:]
    w = Logged(base)
    assert type(w) is Logged and isinstance(w, torch.Tensor)
    assert w.shape == (3, 3) and w.stride() == base.stride()
    assert w.storage_offset() == base.storage_offset() and w.dtype == torch.float32
    assert not w.requires_grad and w.is_leaf and w.grad_fn is None
    w2 = torch.Tensor._make_wrapper_subclass(Logged, (2, 5), dtype=torch.float64,
                                             requires_grad=True)
    assert w2.stride() == (5, 1) and w2.dtype == torch.float64 and w2.requires_grad
    assert w2.data_ptr() == 0
    with pytest.raises(RuntimeError, match="numpy"):
        w.numpy()
    with pytest.raises(RuntimeError, match="tolist"):
        w.tolist()


def test_repr_is_torchs():
    w = Logged(torch.tensor([1., 2.]), requires_grad=True)
    assert repr(w) == "Logged(tensor([1., 2.]), requires_grad=True)"
    assert repr(w * 2) == "Logged(tensor([2., 4.]), grad_fn=<MulBackward0>)"
    assert repr(Logged(torch.tensor([1, 2], dtype=torch.int32))) == \
        "Logged(tensor([1, 2], dtype=torch.int32), dtype=torch.int32)".replace(
            "torch.", str(torch.int32).split(".")[0] + ".")


def test_numbers_go_through_the_handler():
    Logged.LOG.clear()
    w = Logged(torch.tensor([3.5]))
    assert float(w) == 3.5 and bool(w) and int(w) == 3
    assert Logged.LOG == ["aten._local_scalar_dense.default"] * 3


def test_backward_through_wrappers_matches_plain():
    def f(a):
        return (a * a).sin().sum()
    a = Logged(X, requires_grad=True)
    y = f(a)
    assert type(y) is Logged and y.grad_fn is not None
    Logged.LOG.clear()
    y.backward()
    assert type(a.grad) is Logged
    # the backward ops ran on wrappers: the handler saw them
    assert "aten.cos.default" in Logged.LOG and "aten.ones_like.default" in Logged.LOG
    p = X.clone().requires_grad_()
    f(p).backward()
    assert torch.allclose(a.grad.elem, p.grad)
    # a second backward accumulates (through the handler too)
    f(a).backward()
    assert torch.allclose(a.grad.elem, 2 * p.grad)


def test_autograd_grad_and_double_backward():
    a = Logged(X, requires_grad=True)
    b = Logged(X + 1, requires_grad=True)
    v = Logged(torch.tensor([1., 2., 3.], dtype=torch.float64))
    ga, gb = torch.autograd.grad((a * b + a.exp()).sum(0), (a, b), v)
    pa, pb = X.clone().requires_grad_(), (X + 1).requires_grad_()
    ra, rb = torch.autograd.grad((pa * pb + pa.exp()).sum(0), (pa, pb), v.elem)
    assert type(ga) is Logged and torch.allclose(ga.elem, ra) and torch.allclose(gb.elem, rb)
    g, = torch.autograd.grad((a ** 3).sum(), a, create_graph=True)
    assert type(g) is Logged and g.grad_fn is not None
    h, = torch.autograd.grad(g.sum(), a)
    assert torch.allclose(g.elem, 3 * X ** 2) and torch.allclose(h.elem, 6 * X)


def test_gradcheck_through_wrappers():
    a = Logged(torch.rand(2, 3, dtype=torch.float64), requires_grad=True)
    b = Logged(torch.rand(3, dtype=torch.float64), requires_grad=True)
    assert torch.autograd.gradcheck(lambda x, y: (x * y).exp().sum(1), (a, b))
    assert torch.autograd.gradgradcheck(lambda x, y: (x * y).tanh(), (a, b))


def test_inplace_on_wrapper_records_and_dispatches():
    a = Logged(X, requires_grad=True)
    Logged.LOG.clear()
    c = a.clone()
    c.mul_(3)
    # (minitorch's recorder keeps a copy of self's old values: a clone the handler sees too)
    assert Logged.LOG[0] == "aten.clone.default" and Logged.LOG[-1] == "aten.mul_.Tensor"
    assert c.grad_fn is not None and torch.equal(c.elem, 3 * X)
    c.sum().backward()
    assert torch.equal(a.grad.elem, torch.full_like(X, 3.))


def test_no_grad_and_requires_grad_stay_on_the_wrapper():
    a = Logged(X)
    a.requires_grad_()
    assert a.requires_grad and type(a) is Logged
    with torch.no_grad():
        y = a * 2
    assert not y.requires_grad and y.grad_fn is None
    d = (a * 2).detach()
    assert type(d) is Logged and not d.requires_grad


def test_functional_jacobian_and_hessian():
    import minitorch.autograd.functional as F
    x = Logged(torch.rand(3, dtype=torch.float64))

    def f(t):
        return (t ** 2).exp()
    j = F.jacobian(f, x)
    assert type(j) is Logged
    assert torch.allclose(j.elem, F.jacobian(f, x.elem))
    h = F.hessian(lambda t: (t ** 3).sum(), x)
    assert torch.allclose(h.elem, torch.diag(6 * x.elem))


class Refusing(Logged):
    @classmethod
    def __torch_dispatch__(cls, func, types, args=(), kwargs=None):
        return NotImplemented


def test_all_handlers_not_implemented_is_a_type_error():
    # torch 2.15's message
    with pytest.raises(TypeError, match=r"^Multiple dispatch failed for 'torch._ops.aten.exp."
                       r"default'; all __torch_dispatch__ handlers returned NotImplemented:\n\n"
                       r"  - tensor subclass <class '.*Refusing'>"):
        Refusing(X).exp()


def test_make_wrapper_subclass_errors():
    # torch 2.15's errors
    with pytest.raises(TypeError, match="Creating a Tensor subclass from a class that does not "
                                        "inherit from Tensor is not possible"):
        torch.Tensor._make_wrapper_subclass(int, (2,))

    class Plain(torch.Tensor):
        pass
    with pytest.raises(TypeError, match="Plain must define __torch_dispatch__"):
        torch.Tensor._make_wrapper_subclass(Plain, (2,))
    with pytest.raises(RuntimeError, match=r"dimensionality of sizes \(1\) must match "
                                           r"dimensionality of strides \(2\)"):
        torch.Tensor._make_wrapper_subclass(Logged, (2,), strides=(1, 1))


def test_handler_errors_propagate():
    class Failing(Logged):
        @classmethod
        def __torch_dispatch__(cls, func, types, args=(), kwargs=None):
            raise ValueError(f"no {func}")
    with pytest.raises(ValueError, match="no aten.exp.default"):
        Failing(X).exp()


def test_op_objects():
    seen = []

    class Spy(Logged):
        @classmethod
        def __torch_dispatch__(cls, func, types, args=(), kwargs=None):
            seen.append((func, types))
            return super().__torch_dispatch__(func, types, args, kwargs)
    Spy(X) + 1
    func, types = seen[0]
    assert str(func) == "aten.add.Tensor" and func.__name__ == "add.Tensor"
    assert func.name() == "aten::add.Tensor" and func._overloadname == "Tensor"
    assert str(func.overloadpacket) == "aten.add" and func.overloadpacket.__name__ == "add"
    assert func.overloadpacket.Tensor is func
    assert types == (Spy,)
    # callable on plain tensors
    assert torch.equal(func(X, X), X + X)


def test_watcher_goes_away_with_the_wrappers():
    from minitorch.autograd import _watch
    from minitorch import _python_dispatch
    import gc
    w = Logged(X)
    assert _watch.active() and _python_dispatch._watcher in _watch._watchers
    del w
    gc.collect()
    assert _python_dispatch._watcher not in _watch._watchers


class Recording(TorchDispatchMode):
    def __init__(self):
        super().__init__()
        self.log = []

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        self.log.append(str(func))
        return func(*args, **(kwargs or {}))


def test_dispatch_mode_sees_ops_forward_and_backward():
    a = torch.tensor([1., 2.], requires_grad=True)
    with Recording() as m:
        y = (a * 3).exp().sum()
        y.backward()
    # torch 2.15: mul, exp, sum, then the backward's ones_like, expand, mul, mul (minitorch
    # makes the root gradient with ones and expands through unsqueeze)
    assert m.log[:3] == ["aten.mul.Tensor", "aten.exp.default", "aten.sum.default"]
    assert m.log.count("aten.mul.Tensor") == 3 and "aten.expand.default" in m.log
    assert torch.allclose(a.grad, 3 * (3 * a.detach()).exp())
    assert y.grad_fn is not None
    n = len(m.log)
    a * 2                               # outside the mode: not seen
    assert len(m.log) == n


def test_modes_nest_and_see_subclass_inner_ops():
    with Recording() as outer:
        with Recording() as inner:
            torch.ones(2).neg()
        Logged.LOG.clear()
        Logged(X).exp()
    # torch 2.15's logs: the inner mode's own calls of func reach the outer mode; the outer
    # mode is off while its handler runs the wrapper's op (whose handler logs it)
    assert inner.log == ["aten.ones.default", "aten.neg.default"]
    assert outer.log == ["aten.ones.default", "aten.neg.default", "aten.exp.default"]
    assert Logged.LOG == ["aten.exp.default"]


def test_mode_stack_helpers():
    from minitorch.utils import _python_dispatch as pd
    assert pd._get_current_dispatch_mode() is None
    with Recording() as m:
        assert pd._get_current_dispatch_mode() is m and pd._len_torch_dispatch_stack() == 1
    assert pd._len_torch_dispatch_stack() == 0
    with pytest.raises(NotImplementedError):
        with TorchDispatchMode():
            torch.ones(2) + 1


def test_aten_namespace_ops_equal_the_handlers_func():
    seen = []

    class Spy(Logged):
        @classmethod
        def __torch_dispatch__(cls, func, types, args=(), kwargs=None):
            seen.append(func)
            return super().__torch_dispatch__(func, types, args, kwargs)
    Spy(X) * 3
    Spy(X).exp()
    assert seen[0] == torch.ops.aten.mul.Tensor and seen[0] != torch.ops.aten.mul.Scalar
    assert seen[0].overloadpacket == torch.ops.aten.mul
    assert seen[1] in {torch.ops.aten.exp.default}
    assert torch.equal(torch.ops.aten.exp.default(X), X.exp())
    with pytest.raises(AttributeError):
        torch.ops.aten.no_such_op_here


def test_make_subclass_with_no_dispatch():
    from minitorch.utils._mode_utils import no_dispatch
    log = []

    class Holding(torch.Tensor):
        @staticmethod
        def __new__(cls, data, requires_grad=False):
            return torch.Tensor._make_subclass(cls, data, requires_grad)

        @classmethod
        def __torch_dispatch__(cls, func, types, args=(), kwargs=None):
            log.append(str(func))
            with no_dispatch():
                return func(*args, **(kwargs or {}))
    base = torch.tensor([1., 2., 3.])
    h = Holding(base, requires_grad=True)
    assert type(h) is Holding and h.requires_grad and h.is_leaf
    assert h.data_ptr() == base.data_ptr()        # it holds base's data
    y = (h * h).sum()
    assert log == ["aten.mul.Tensor"]               # its result is a plain tensor
    y.backward()
    assert torch.equal(h.grad, 2 * base)


def test_forward_ad_through_wrappers():
    import minitorch.autograd.forward_ad as fwAD
    x = torch.tensor([0.5, 1.5], dtype=torch.float64)
    with fwAD.dual_level():
        d = fwAD.make_dual(Logged(x), Logged(torch.ones(2, dtype=torch.float64)))
        Logged.LOG.clear()
        p, t = fwAD.unpack_dual((d * d).exp())
    assert type(p) is Logged and type(t) is Logged
    assert torch.allclose(p.elem, (x * x).exp())
    assert torch.allclose(t.elem, 2 * x * (x * x).exp())
    # the tangent's ops reached the handler too
    assert Logged.LOG.count("aten.mul.Tensor") > 1 and "aten.exp.default" in Logged.LOG
