"""Tensor subclasses keep their class through methods, operators and tensor properties."""
import pickle

import pytest

import minitorch as torch


class Marked(torch.Tensor):
    def mark(self):
        return "marked"

    def sum(self, *args, **kwargs):          # a subclass's own override stays its own
        return "own sum"


class Deeper(Marked):
    pass


def make(cls=Marked):
    return torch.arange(6.).reshape(2, 3).as_subclass(cls)


def test_as_subclass_shares_the_tensor():
    t = torch.arange(6.).reshape(2, 3)
    m = t.as_subclass(Marked)
    assert type(m) is Marked and m.mark() == "marked"
    m[0, 0] = 100.
    assert t[0, 0].item() == 100. and m.data_ptr() == t.data_ptr()
    with pytest.raises(TypeError, match="must be a subclass of Tensor"):
        t.as_subclass(int)
    with pytest.raises(TypeError):
        t.as_subclass(3)


@pytest.mark.parametrize("op", [
    lambda m: m + 1, lambda m: 1 + m, lambda m: m * m, lambda m: -m, lambda m: m == 2,
    lambda m: m[0], lambda m: m[:, 1:], lambda m: m.view(6), lambda m: m.t(), lambda m: m.T,
    lambda m: m.clone(), lambda m: m.float(), lambda m: m.exp(), lambda m: m.amax(0),
    lambda m: m.add_(1), lambda m: m.data, lambda m: m.real, lambda m: m.contiguous(),
    lambda m: m.matmul(m.t()), lambda m: m @ m.t(),
])
def test_results_keep_the_subclass(op):
    for cls in (Marked, Deeper):
        r = op(make(cls))
        assert type(r) is cls


def test_containers_of_results_and_non_tensor_results():
    m = make()
    assert [type(x) for x in m.split(1)] == [Marked, Marked]
    assert [type(x) for x in m] == [Marked, Marked]
    v, i = m.max(1)
    assert type(v) is Marked and type(i) is Marked and type(m.max(1)).__name__ == "max"
    assert type(m.shape) is torch.Size and type(m.size()) is torch.Size
    assert m[0, 0].item() == 0.0 and isinstance(m.tolist(), list)
    assert m.sum() == "own sum"
    assert hash(m) == hash(m) and m in {m}


def test_plain_tensors_are_untouched():
    t = torch.ones(2)
    assert type(t + 1) is torch.Tensor
    assert "__add__" not in vars(torch.Tensor) or torch.Tensor.__add__ is not Marked.__add__
    assert type(pickle.loads(pickle.dumps(t))) is torch.Tensor


class Holder(torch.Tensor):
    """A subclass with its own __init__ and __torch_function__ (ops on it unwrap to the tensor
    it holds and wrap their results again)."""

    def __init__(self, data):
        super().__init__()
        self._data = data

    @classmethod
    def __torch_function__(cls, func, types, args=(), kwargs=None):
        args = tuple(a._data if isinstance(a, cls) else a for a in args)
        out = func(*args, **(kwargs or {}))
        return cls(out) if isinstance(out, torch.Tensor) else out


def test_constructing_a_subclass_gives_the_subclass():
    # (as torch: Sub(t) aliases t, Sub(data) copies data; both are Sub, then __init__ runs)
    t = torch.randn(2, 3)
    h = Holder(t)
    assert type(h) is Holder and h._data is t
    assert h.data_ptr() == t.data_ptr() and h.shape == (2, 3)
    assert type(Marked(t)) is Marked and Marked(t).data_ptr() == t.data_ptr()
    d = Marked([1.0, 2.0])
    assert type(d) is Marked and d.tolist() == [1.0, 2.0]
    assert type(Marked(3)) is Marked and tuple(Marked(3).shape) == (3,)
    assert type(torch.Tensor(t)) is torch.Tensor


def test_custom_function_returning_its_input_keeps_the_subclass():
    class Same(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x

        @staticmethod
        def backward(ctx, g):
            return g

    h = Holder(torch.randn(2, 3))
    out = Same.apply(h)
    assert isinstance(out, Holder) and out is not h
    m = make()
    assert type(Same.apply(m)) is Marked
    p = torch.randn(2, requires_grad=True)
    assert type(Same.apply(p)) is torch.Tensor


def test_legacy_constructor_of_a_tensor_that_requires_grad_stays_in_the_graph():
    # torch.Tensor(t) aliases t; when t requires grad the alias is recorded (torch: an
    # AliasBackward0 view of t), so gradients reach t, also through a subclass
    x = torch.ones(2, requires_grad=True)
    y = torch.Tensor(x)
    assert y.requires_grad and y._base is x and y.data_ptr() == x.data_ptr()

    class Sub(torch.Tensor):
        pass

    s = Sub(x)
    assert type(s) is Sub and s.requires_grad
    ((y * 2).sum() + (s * 3).sum()).backward()
    assert x.grad.tolist() == [5.0, 5.0]
    with torch.no_grad():
        assert not torch.Tensor(x).requires_grad
