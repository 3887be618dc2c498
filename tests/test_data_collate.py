"""Batch collation of minitorch.utils.data: default_collate, default_convert, collate with a
custom collate_fn_map, and the output-allocator hook (Note [Collate output allocator]).

Output types, dtypes, values and error messages were checked against torch 2.15."""
import collections.abc
from collections import OrderedDict, defaultdict, namedtuple

import numpy as np
import pytest

import minitorch as torch
from minitorch.utils.data import _collate, default_collate, default_convert
from minitorch.utils.data._collate import collate, collate_tensors, default_collate_fn_map

P = namedtuple("P", "x y")
NOT_COLLATABLE = "default_collate: batch must contain tensors, numpy arrays, numbers, dicts or lists; found "


def is_tensor(t, values, dtype):
    return isinstance(t, torch.Tensor) and t.dtype == dtype and t.tolist() == values


class FrozenMap(collections.abc.Mapping):
    def __init__(self, d):
        self.d = dict(d)

    def __getitem__(self, k):
        return self.d[k]

    def __iter__(self):
        return iter(self.d)

    def __len__(self):
        return len(self.d)


class NeedsTwoArgs(FrozenMap):
    def __init__(self, d, extra):
        super().__init__(d)


class Seq(collections.abc.Sequence):
    def __init__(self, items):
        self.items = list(items)

    def __getitem__(self, i):
        return self.items[i]

    def __len__(self):
        return len(self.items)


# ---- default_collate: numbers and strings -------------------------------------------------
def test_numbers():
    assert is_tensor(default_collate([0, 1, 2]), [0, 1, 2], torch.int64)
    assert is_tensor(default_collate([0.5, 1, 2]), [0.5, 1.0, 2.0], torch.float64)
    assert is_tensor(default_collate([1, 0.5]), [1.0, 0.5], torch.float32)  # by the first: int rule
    assert is_tensor(default_collate([True, False]), [True, False], torch.bool)
    assert is_tensor(default_collate([True, 2]), [1, 2], torch.int64)


def test_strings_stay_lists():
    assert default_collate(["a", "b"]) == ["a", "b"]
    assert default_collate([b"a", b"b"]) == [b"a", b"b"]
    assert default_collate([np.str_("a"), np.str_("b")]) == ["a", "b"]
    batch = ["a", "b"]
    assert default_collate(batch) is batch
    assert default_collate("ab") == "ab"


# ---- tensors ------------------------------------------------------------------------------
def test_tensors_are_stacked():
    out = default_collate([torch.tensor([1, 2]), torch.tensor([3, 4])])
    assert is_tensor(out, [[1, 2], [3, 4]], torch.int64)
    assert is_tensor(default_collate([torch.tensor(1.0), torch.tensor(2.0)]), [1.0, 2.0], torch.float32)
    assert default_collate([torch.zeros(2, 3), torch.ones(2, 3)]).shape == (2, 2, 3)
    mixed = default_collate([torch.tensor([1, 2]), torch.tensor([3.0, 4])])
    assert is_tensor(mixed, [[1.0, 2.0], [3.0, 4.0]], torch.float32)


def test_tensor_shape_mismatch():
    msg = r"^stack expects each tensor to be equal size, but got \[2\] at entry 0 and \[3\] at entry 1$"
    with pytest.raises(RuntimeError, match=msg):
        default_collate([torch.tensor([1, 2]), torch.tensor([3, 4, 5])])


def test_a_tensor_is_not_a_batch():
    with pytest.raises(TypeError, match="must be tuple of Tensors, not Tensor"):
        default_collate(torch.tensor([1, 2]))


# ---- NumPy --------------------------------------------------------------------------------
def test_numpy_arrays_and_scalars():
    assert is_tensor(default_collate([np.array([1, 2]), np.array([3, 4])]), [[1, 2], [3, 4]], torch.int64)
    f32 = [np.array([1, 2], dtype=np.float32), np.array([3, 4], dtype=np.float32)]
    assert is_tensor(default_collate(f32), [[1.0, 2.0], [3.0, 4.0]], torch.float32)
    assert is_tensor(default_collate([np.float32(1.5), np.float32(2)]), [1.5, 2.0], torch.float32)
    assert is_tensor(default_collate([np.int16(1), np.int16(2)]), [1, 2], torch.int16)
    assert is_tensor(default_collate([np.bool_(1), np.bool_(0)]), [True, False], torch.bool)
    assert is_tensor(default_collate([np.float64(1.5), np.float64(2)]), [1.5, 2.0], torch.float64)
    assert is_tensor(default_collate([1.5, np.float64(2)]), [1.5, 2.0], torch.float64)


def test_numpy_string_and_object_arrays_are_refused():
    with pytest.raises(TypeError, match="^" + NOT_COLLATABLE + "<U1$"):
        default_collate([np.array(["a"]), np.array(["b"])])
    with pytest.raises(TypeError, match="^" + NOT_COLLATABLE + "object$"):
        default_collate([np.array([object()])])


# ---- containers ---------------------------------------------------------------------------
def test_mappings_keep_their_type():
    out = default_collate([{"A": 0, "B": 1.5}, {"A": 100, "B": 2.5}])
    assert type(out) is dict and list(out) == ["A", "B"]
    assert is_tensor(out["A"], [0, 100], torch.int64) and is_tensor(out["B"], [1.5, 2.5], torch.float64)
    od = default_collate([OrderedDict(a=1), OrderedDict(a=2)])
    assert type(od) is OrderedDict and is_tensor(od["a"], [1, 2], torch.int64)
    dd = default_collate([defaultdict(int, a=1), defaultdict(int, a=2)])
    assert type(dd) is defaultdict and dd.default_factory is int
    fm = default_collate([FrozenMap({"a": 1}), FrozenMap({"a": 2})])
    assert type(fm) is FrozenMap and is_tensor(fm["a"], [1, 2], torch.int64)
    plain = default_collate([NeedsTwoArgs({"a": 1}, 0), NeedsTwoArgs({"a": 2}, 0)])
    assert type(plain) is dict and is_tensor(plain["a"], [1, 2], torch.int64)
    nested = default_collate([{"a": [1, 2]}, {"a": [3, 4]}])
    assert [t.tolist() for t in nested["a"]] == [[1, 3], [2, 4]]


def test_mapping_keys_come_from_the_first_sample():
    with pytest.raises(KeyError):
        default_collate([{"a": 1}, {"b": 2}])


def test_namedtuples():
    out = default_collate([P(0, 0.5), P(1, 1.5)])
    assert type(out) is P
    assert is_tensor(out.x, [0, 1], torch.int64) and is_tensor(out.y, [0.5, 1.5], torch.float64)
    mixed = default_collate([P(np.array([1.0]), "s"), P(np.array([2.0]), "t")])
    assert is_tensor(mixed.x, [[1.0], [2.0]], torch.float64) and mixed.y == ("s", "t")


def test_sequences_are_transposed():
    for batch in ([(0, 1), (2, 3)], [[0, 1], [2, 3]]):
        out = default_collate(batch)
        assert type(out) is list and [t.tolist() for t in out] == [[0, 2], [1, 3]]
    out = default_collate([("a", 1), ("b", 2)])
    assert out[0] == ("a", "b") and is_tensor(out[1], [1, 2], torch.int64)
    out = default_collate([[1, "a"], [2, "b"]])
    assert is_tensor(out[0], [1, 2], torch.int64) and out[1] == ("a", "b")
    ranges = default_collate([range(2), range(2)])  # range() cannot be rebuilt: a list
    assert type(ranges) is list and [t.tolist() for t in ranges] == [[0, 0], [1, 1]]
    seq = default_collate([Seq([1, 2]), Seq([3, 4])])
    assert type(seq) is Seq and [t.tolist() for t in seq] == [[1, 3], [2, 4]]


def test_sequences_of_unequal_size():
    for batch in ([[0, 1], [2]], [(0, 1), (2,)]):
        with pytest.raises(RuntimeError, match="^each element in list of batch should be of equal size$"):
            default_collate(batch)


def test_other_types_are_refused():
    for batch, name in (([None, None], "<class 'NoneType'>"), ([object()], "<class 'object'>"),
                        ([1 + 2j, 3j], "<class 'complex'>")):
        with pytest.raises(TypeError, match="^" + NOT_COLLATABLE + name + "$"):
            default_collate(batch)
    with pytest.raises(IndexError):
        default_collate([])


# ---- collate with a custom map ------------------------------------------------------------
def test_collate_with_a_custom_map():
    def as_sum(batch, *, collate_fn_map):
        return sum(batch)

    fmap = {**default_collate_fn_map, int: as_sum}
    assert collate([{"a": 1, "b": "x"}, {"a": 2, "b": "y"}], collate_fn_map=fmap) == {"a": 3, "b": ["x", "y"]}
    assert collate([True, True], collate_fn_map=fmap) == 2  # bool found through isinstance(…, int)

    def tag(batch, *, collate_fn_map):
        return ("seq", len(batch))

    assert collate([Seq([1]), Seq([2])], collate_fn_map={collections.abc.Sequence: tag}) == ("seq", 2)
    with pytest.raises(TypeError, match="^" + NOT_COLLATABLE):
        collate([1, 2])  # no map: numbers are not handled


# ---- default_convert ----------------------------------------------------------------------
def test_default_convert():
    assert default_convert(0) == 0 and default_convert(1.5) == 1.5
    assert is_tensor(default_convert(np.array([0, 1])), [0, 1], torch.int64)
    assert is_tensor(default_convert(np.float32(2)), 2.0, torch.float32)
    assert is_tensor(default_convert(np.array(3)), 3, torch.int64)
    strs = np.array(["x"])
    assert default_convert(strs) is strs
    assert default_convert(np.str_("x")) == "x" and type(default_convert(np.str_("x"))) is np.str_
    p = default_convert(P(np.array(0), 1))
    assert type(p) is P and is_tensor(p.x, 0, torch.int64) and p.y == 1
    out = default_convert([np.array([0, 1]), np.array([2, 3])])
    assert [t.tolist() for t in out] == [[0, 1], [2, 3]]
    out = default_convert((np.array([0, 1]), 3))
    assert type(out) is list and out[0].tolist() == [0, 1] and out[1] == 3
    d = default_convert({"a": np.array([1])})
    assert type(d) is dict and d["a"].tolist() == [1]
    fm = default_convert(FrozenMap({"a": np.array([1])}))
    assert type(fm) is FrozenMap and fm["a"].tolist() == [1]
    assert default_convert("abc") == "abc" and default_convert(b"abc") == b"abc"
    assert default_convert(None) is None
    t = torch.tensor(1)
    assert default_convert(t) is t
    assert default_convert(range(2)) == [0, 1]
    seq = default_convert(Seq([np.array(1)]))
    assert type(seq) is Seq and seq[0].tolist() == 1


# ---- the output allocator (Note [Collate output allocator]) --------------------------------
class Recorder:
    def __init__(self):
        self.calls = []
        self.given = []

    def __call__(self, shape, dtype):
        self.calls.append((tuple(shape), dtype))
        out = torch.full(shape, -1, dtype=dtype)
        self.given.append(out)
        return out


def test_collate_tensors_stacks_into_the_allocated_tensor():
    alloc = Recorder()
    batch = [torch.tensor([[1, 2]]), torch.tensor([[3, 4]]), torch.tensor([[5, 6]])]
    out = collate_tensors(batch, alloc)
    assert alloc.calls == [((3, 1, 2), torch.int64)]
    assert out is alloc.given[0] and out.tolist() == [[[1, 2]], [[3, 4]], [[5, 6]]]
    assert collate_tensors(batch).tolist() == out.tolist()  # no hook: plain stack


def test_collate_tensors_skips_the_hook_for_mixed_dtypes():
    alloc = Recorder()
    out = collate_tensors([torch.tensor([1, 2]), torch.tensor([3.0, 4])], alloc)
    assert alloc.calls == [] and is_tensor(out, [[1.0, 2.0], [3.0, 4.0]], torch.float32)


def test_collate_tensors_errors_with_a_hook():
    with pytest.raises(RuntimeError, match="stack expects each tensor to be equal size"):
        collate_tensors([torch.zeros(2), torch.zeros(3)], Recorder())


def test_default_collate_uses_the_module_hook(monkeypatch):
    alloc = Recorder()
    monkeypatch.setattr(_collate, "_collate_out_alloc", alloc)
    batch = [{"img": np.ones((2, 2), dtype=np.float32), "t": torch.tensor([i]), "y": i} for i in range(3)]
    out = default_collate(batch)
    assert alloc.calls == [((3, 2, 2), torch.float32), ((3, 1), torch.int64)]
    assert out["img"] is alloc.given[0] and out["t"] is alloc.given[1]
    assert out["t"].tolist() == [[0], [1], [2]] and is_tensor(out["y"], [0, 1, 2], torch.int64)
    monkeypatch.setattr(_collate, "_collate_out_alloc", None)
    assert default_collate([torch.tensor([1])]).tolist() == [[1]] and len(alloc.calls) == 2
