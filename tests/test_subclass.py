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
