"""Datasets of minitorch.utils.data: Dataset/IterableDataset and their + operators,
TensorDataset, ConcatDataset, ChainDataset, Subset, StackDataset, random_split.

Expected values and error messages were checked against torch 2.15."""
import subprocess
import sys
import warnings

import pytest

import minitorch as torch
from minitorch.utils.data import (ChainDataset, ConcatDataset, Dataset, IterableDataset, StackDataset,
                                  Subset, TensorDataset, random_split)


class Counting(IterableDataset):
    def __init__(self, n):
        self.n = n

    def __iter__(self):
        return iter(range(self.n))

    def __len__(self):
        return self.n


class Squares(Dataset):
    def __init__(self, n):
        self.n = n

    def __getitem__(self, i):
        return i * i

    def __len__(self):
        return self.n


def test_import_minitorch_does_not_import_utils_data():
    code = ("import sys, minitorch; assert 'minitorch.utils' not in sys.modules; "
            "import minitorch.utils; assert 'minitorch.utils.data' not in sys.modules; "
            "assert minitorch.utils.data.Dataset is not None")
    subprocess.run([sys.executable, "-c", code], check=True, timeout=60)


def test_utils_unknown_attribute():
    import minitorch.utils
    with pytest.raises(AttributeError, match="has no attribute 'nope'"):
        minitorch.utils.nope


def test_dataset_base():
    with pytest.raises(NotImplementedError, match="Subclasses of Dataset should implement __getitem__."):
        Dataset()[0]
    with pytest.raises(TypeError, match="has no len"):
        len(Dataset())
    assert Dataset[int] is not None  # generic, for annotations


def test_iterable_dataset_is_abstract():
    with pytest.raises(TypeError, match="abstract"):
        IterableDataset()


def test_add_operators():
    c = Squares(2) + Squares(3)
    assert type(c) is ConcatDataset and [c[i] for i in range(5)] == [0, 1, 0, 1, 4]
    ch = Counting(2) + Counting(3)
    assert type(ch) is ChainDataset and list(ch) == [0, 1, 0, 1, 2] and len(ch) == 5


def test_tensor_dataset():
    x = torch.arange(6).reshape(3, 2)
    y = torch.tensor([10, 11, 12])
    ds = TensorDataset(x, y)
    assert len(ds) == 3
    a, b = ds[1]
    assert a.tolist() == [2, 3] and b.item() == 11
    a, b = ds[-1]
    assert a.tolist() == [4, 5] and b.item() == 12
    assert ds.tensors[0] is x


def test_tensor_dataset_errors():
    with pytest.raises(AssertionError, match="^Size mismatch between tensors$"):
        TensorDataset(torch.zeros(3), torch.zeros(4))
    with pytest.raises(IndexError):
        TensorDataset(torch.tensor(1.0))  # a 0-d tensor has no first dimension
    empty = TensorDataset()  # as torch: accepted, but has no length
    with pytest.raises(IndexError):
        len(empty)


def test_concat_dataset():
    c = ConcatDataset([range(3), range(10, 14)])
    assert c.cumulative_sizes == [3, 7] and len(c) == 7
    assert [c[i] for i in range(-7, 7)] == [0, 1, 2, 10, 11, 12, 13] * 2
    assert ConcatDataset(iter([range(2), range(3)])).cumulative_sizes == [2, 5]
    assert ConcatDataset.cumsum([range(2), range(0), range(4)]) == [2, 2, 6]
    with pytest.warns(FutureWarning, match="renamed to `cumulative_sizes`"):
        assert c.cummulative_sizes == [3, 7]


def test_concat_dataset_errors():
    c = ConcatDataset([range(3), range(10, 14)])
    with pytest.raises(ValueError, match="^absolute value of index should not exceed dataset length$"):
        c[-8]
    with pytest.raises(IndexError):
        c[7]
    with pytest.raises(AssertionError, match="^datasets should not be an empty iterable$"):
        ConcatDataset([])
    with pytest.raises(AssertionError, match="^ConcatDataset does not support IterableDataset$"):
        ConcatDataset([range(2), Counting(2)])


def test_chain_dataset():
    ch = ChainDataset([Counting(2), Counting(0), Counting(3)])
    assert list(ch) == [0, 1, 0, 1, 2] and len(ch) == 5
    assert list(ChainDataset([])) == []


def test_chain_dataset_errors():
    ch = ChainDataset([Counting(2), range(3)])
    with pytest.raises(AssertionError, match="^ChainDataset only supports IterableDataset$"):
        list(ch)
    with pytest.raises(AssertionError, match="^ChainDataset only supports IterableDataset$"):
        len(ch)


def test_subset():
    s = Subset(range(10, 20), [3, 1, 4])
    assert (s[0], s[-1], len(s)) == (13, 14, 3)
    assert s.__getitems__([0, 2]) == [13, 14]


def test_subset_uses_getitems_of_its_dataset():
    class Batched(Squares):
        def __getitems__(self, keys):
            return [("batched", k) for k in keys]

    s = Subset(Batched(5), [4, 2])
    assert s.__getitems__([1, 0]) == [("batched", 2), ("batched", 4)]
    assert s[1] == 4


def test_subset_list_index_forwards_a_list():
    s = Subset(range(10, 20), [3, 1])
    with pytest.raises(TypeError, match="not list"):
        s[[0, 1]]  # range does not take a list, as in torch
    t = Subset(TensorDataset(torch.arange(10, 15)), [4, 0])
    (got,) = t[[0, 1]]
    assert got.tolist() == [14, 10]


def test_subset_subclass_must_override_getitems():
    class OnlyGetitem(Subset):
        def __getitem__(self, i):
            return 0

    with pytest.raises(NotImplementedError, match="^OnlyGetitem overrides __getitem__ but not __getitems__"):
        OnlyGetitem(range(3), [0])

    class Both(OnlyGetitem):
        def __getitems__(self, indices):
            return [0 for _ in indices]

    assert Both(range(3), [0, 1]).__getitems__([0, 1]) == [0, 0]


def test_stack_dataset_tuple_and_dict():
    t = StackDataset(range(2), range(10, 12))
    assert len(t) == 2 and t[1] == (1, 11)
    assert t.__getitems__([1, 0]) == [(1, 11), (0, 10)]
    d = StackDataset(a=range(2), b=range(10, 12))
    assert d[1] == {"a": 1, "b": 11}
    assert d.__getitems__([0, 1]) == [{"a": 0, "b": 10}, {"a": 1, "b": 11}]
    inner = Subset(range(100), [7, 8])
    assert StackDataset(inner, range(2)).__getitems__([1, 0]) == [(8, 1), (7, 0)]


def test_stack_dataset_errors():
    with pytest.raises(ValueError, match="^At least one dataset should be passed$"):
        StackDataset()
    with pytest.raises(ValueError, match="but both types are given"):
        StackDataset(range(2), a=range(2))
    with pytest.raises(ValueError, match="^Size mismatch between datasets$"):
        StackDataset(range(2), range(3))
    with pytest.raises(ValueError, match="^Size mismatch between datasets$"):
        StackDataset(a=range(2), b=range(3))

    class Short:
        def __len__(self):
            return 2

        def __getitem__(self, i):
            return i

        def __getitems__(self, idx):
            return [1]

    with pytest.raises(ValueError, match="^Nested dataset's output size mismatch. Expected 2, got 1$"):
        StackDataset(Short(), range(2)).__getitems__([0, 1])


def _split(n, lengths, seed=0):
    return random_split(range(n), lengths, generator=torch.Generator().manual_seed(seed))


@pytest.mark.parametrize("n,lengths,want", [
    (10, [3, 7], [3, 7]),
    (10, [0.3, 0.7], [3, 7]),
    (11, [0.3, 0.3, 0.4], [4, 3, 4]),
    (7, [0.25] * 4, [2, 2, 2, 1]),
    (10, [0, 10], [0, 10]),
    (10, [1.0], [10]),
    (10, (3, 7), [3, 7]),
])
def test_random_split_lengths(n, lengths, want):
    parts = _split(n, lengths)
    assert [len(p) for p in parts] == want
    assert sorted(i for p in parts for i in p) == list(range(n))
    assert all(type(p) is Subset for p in parts)


@pytest.mark.parametrize("n,fractions,want,empty", [
    (2, [0.1, 0.1, 0.8], [1, 0, 1], [1]),
    (3, [0.5, 0.5, 0.0], [2, 1, 0], [2]),
    (0, [0.5, 0.5], [0, 0], [0, 1]),
])
def test_random_split_warns_about_empty_splits(n, fractions, want, empty):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        parts = _split(n, fractions)
    assert [len(p) for p in parts] == want
    assert [str(w.message) for w in caught] == [
        f"Length of split at index {i} is 0. This might result in an empty dataset." for i in empty]
    assert all(w.category is UserWarning and w.filename == __file__ for w in caught)


def test_random_split_is_reproducible():
    a = [list(p) for p in _split(50, [0.2, 0.3, 0.5], seed=7)]
    b = [list(p) for p in _split(50, [0.2, 0.3, 0.5], seed=7)]
    c = [list(p) for p in _split(50, [0.2, 0.3, 0.5], seed=8)]
    assert a == b and a != c
    assert a[0] != list(range(10))  # shuffled
    torch.manual_seed(3)
    d = [list(p) for p in random_split(range(50), [25, 25])]
    torch.manual_seed(3)
    assert d == [list(p) for p in random_split(range(50), [25, 25], generator=None)]


def test_random_split_in_a_new_process_gives_the_same_split():
    code = ("import minitorch as t; from minitorch.utils.data import random_split; "
            "g = t.Generator().manual_seed(5); "
            "print([list(p) for p in random_split(range(20), [0.5, 0.5], generator=g)])")
    runs = {subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True,
                           timeout=60).stdout for _ in range(2)}
    assert runs == {repr([list(p) for p in _split(20, [0.5, 0.5], seed=5)]) + "\n"}


def test_random_split_errors():
    msg = "^Sum of input lengths does not equal the length of the input dataset!$"
    for lengths in ([3, 6], [0.5, 0.6], [], [0.3, 0.3, 0.4000000001]):
        with pytest.raises(ValueError, match=msg):
            _split(10, lengths)
    with pytest.raises(ValueError, match="^Fraction at index 0 is not between 0 and 1$"):
        _split(10, [1.5, -0.5])
    with pytest.raises(TypeError):
        _split(10, [3.0, 7.0])  # float counts: randperm takes an int
