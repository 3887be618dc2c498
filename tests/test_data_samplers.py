"""Samplers of minitorch.utils.data: Sampler, SequentialSampler, RandomSampler,
SubsetRandomSampler, WeightedRandomSampler, BatchSampler.

Orders that involve no randomness and all error messages were checked against torch 2.15; the
random ones are checked by their properties and their reproducibility (minitorch's random
streams are not torch's)."""
from collections import Counter

import pytest

import minitorch as torch
from minitorch.utils.data import (BatchSampler, RandomSampler, Sampler, SequentialSampler,
                                  SubsetRandomSampler, WeightedRandomSampler)


def gen(seed=0):
    return torch.Generator().manual_seed(seed)


def test_sampler_base():
    with pytest.raises(NotImplementedError):
        iter(Sampler())
    with pytest.raises(TypeError, match="has no len"):
        len(Sampler())
    with pytest.raises(TypeError, match="takes no arguments"):
        Sampler(range(3))


def test_sequential_sampler():
    s = SequentialSampler(range(5))
    assert list(s) == [0, 1, 2, 3, 4] == list(s) and len(s) == 5
    assert list(SequentialSampler([])) == []


# ---- RandomSampler --------------------------------------------------------------------------
def test_random_sampler_is_a_permutation_per_pass():
    s = RandomSampler(range(20), generator=gen())
    first, second = list(s), list(s)
    assert sorted(first) == sorted(second) == list(range(20)) and len(s) == 20
    assert first != second  # the generator moves on between passes


def test_random_sampler_more_samples_than_data():
    s = RandomSampler(range(3), num_samples=7, generator=gen())
    got = list(s)
    assert len(s) == 7 and len(got) == 7
    assert sorted(Counter(got).values()) == [2, 2, 3]  # two whole permutations and a cut one
    assert sorted(got[:3]) == sorted(got[3:6]) == [0, 1, 2]
    cut = list(RandomSampler(range(5), num_samples=2, generator=gen()))
    assert len(cut) == 2 and len(set(cut)) == 2 and set(cut) <= set(range(5))


def test_random_sampler_with_replacement():
    s = RandomSampler(range(3), replacement=True, num_samples=70, generator=gen())
    got = list(s)
    assert len(got) == 70 and set(got) == {0, 1, 2}
    assert list(RandomSampler(range(3), replacement=True, num_samples=70, generator=gen())) == got
    assert len(list(RandomSampler(range(4), replacement=True, generator=gen()))) == 4


def test_random_sampler_same_generator_seed_same_order():
    a = list(RandomSampler(range(50), generator=gen(3)))
    assert a == list(RandomSampler(range(50), generator=gen(3)))
    assert a != list(RandomSampler(range(50), generator=gen(4)))


def test_random_sampler_without_generator_follows_the_global_seed():
    torch.manual_seed(11)
    s = RandomSampler(range(30))
    a, b = list(s), list(s)
    torch.manual_seed(11)
    assert [list(s), list(s)] == [a, b]
    assert a != b


def test_random_sampler_without_generator_draws_one_seed_per_pass():
    torch.manual_seed(5)
    list(RandomSampler(range(30)))
    after_pass = torch.randint(0, 1000, (4,)).tolist()
    torch.manual_seed(5)
    torch.empty((), dtype=torch.int64).random_()
    assert torch.randint(0, 1000, (4,)).tolist() == after_pass


def test_random_sampler_draws_lazily():
    torch.manual_seed(5)
    it = iter(RandomSampler(range(30)))  # nothing drawn yet
    want = torch.randint(0, 1000, (4,)).tolist()
    torch.manual_seed(5)
    assert torch.randint(0, 1000, (4,)).tolist() == want
    assert sorted(it) == list(range(30))


def test_random_sampler_errors():
    with pytest.raises(TypeError, match="^replacement should be a boolean value, but got replacement=1$"):
        RandomSampler(range(3), replacement=1)
    for bad in (0, 2.0, -1):
        msg = f"^num_samples should be a positive integer value, but got num_samples={bad}$"
        with pytest.raises(ValueError, match=msg):
            RandomSampler(range(3), num_samples=bad)
    with pytest.raises(ValueError, match="but got num_samples=0$"):
        RandomSampler(range(0))
    assert RandomSampler(range(3), num_samples=True).num_samples is True  # as torch: bool is an int
    with pytest.raises(ZeroDivisionError):
        list(RandomSampler([], num_samples=3))


# ---- SubsetRandomSampler ------------------------------------------------------------------
def test_subset_random_sampler():
    s = SubsetRandomSampler([5, 7, 9, 11], generator=gen(1))
    got = list(s)
    assert sorted(got) == [5, 7, 9, 11] and len(s) == 4
    assert list(SubsetRandomSampler([5, 7, 9, 11], generator=gen(1))) == got
    assert list(SubsetRandomSampler([])) == []
    torch.manual_seed(2)
    a = list(SubsetRandomSampler(list(range(40))))
    torch.manual_seed(2)
    assert list(SubsetRandomSampler(list(range(40)))) == a


# ---- WeightedRandomSampler ----------------------------------------------------------------
def test_weighted_sampler_with_replacement():
    s = WeightedRandomSampler([0.0, 2.0, 0.0, 1.0], 200, generator=gen())
    got = list(s)
    assert len(s) == 200 and len(got) == 200 and set(got) == {1, 3}
    assert got.count(1) > got.count(3)
    assert list(WeightedRandomSampler([0.0, 2.0, 0.0, 0.0], 5)) == [1] * 5
    assert s.weights.dtype == torch.float64 and s.weights.tolist() == [0.0, 2.0, 0.0, 1.0]
    assert WeightedRandomSampler([1, 2], 3).weights.dtype == torch.float64


def test_weighted_sampler_without_replacement():
    got = list(WeightedRandomSampler([1.0, 2.0, 0.0, 4.0], 3, replacement=False, generator=gen()))
    assert sorted(got) == [0, 1, 3]
    assert list(WeightedRandomSampler(torch.tensor([1.0, 5.0]), 2, False, gen(2))) == \
        list(WeightedRandomSampler(torch.tensor([1.0, 5.0]), 2, False, gen(2)))


def test_weighted_sampler_errors():
    for bad in (0, True, 2.0):
        msg = f"^num_samples should be a positive integer value, but got num_samples={bad}$"
        with pytest.raises(ValueError, match=msg):
            WeightedRandomSampler([1.0, 2.0], bad)
    with pytest.raises(ValueError, match="^replacement should be a boolean value, but got replacement=0$"):
        WeightedRandomSampler([1.0, 2.0], 2, replacement=0)
    msg = r"^weights should be a 1d sequence but given weights have shape \(1, 2\)$"
    with pytest.raises(ValueError, match=msg):
        WeightedRandomSampler([[1.0, 2.0]], 2)
    with pytest.raises(ValueError, match=r"have shape \(\)$"):
        WeightedRandomSampler(torch.tensor(1.0), 2)
    with pytest.raises(RuntimeError, match="cannot sample n_sample > prob_dist.size"):
        list(WeightedRandomSampler([1.0, 2.0], 3, replacement=False))
    with pytest.raises(RuntimeError, match=r"invalid multinomial distribution \(sum of probabilities <= 0\)"):
        list(WeightedRandomSampler([0.0, 0.0], 3))


# ---- BatchSampler -------------------------------------------------------------------------
def test_batch_sampler():
    assert list(BatchSampler(range(10), 3, False)) == [[0, 1, 2], [3, 4, 5], [6, 7, 8], [9]]
    assert list(BatchSampler(range(10), 3, True)) == [[0, 1, 2], [3, 4, 5], [6, 7, 8]]
    assert list(BatchSampler(SequentialSampler(range(7)), 7, True)) == [[0, 1, 2, 3, 4, 5, 6]]
    assert list(BatchSampler(range(2), 3, True)) == []
    assert list(BatchSampler(iter(range(5)), 2, False)) == [[0, 1], [2, 3], [4]]
    lens = [len(BatchSampler(range(n), 3, d)) for n, d in ((10, False), (10, True), (9, False), (0, False))]
    assert lens == [4, 3, 3, 0]


def test_batch_sampler_over_a_random_sampler():
    batches = list(BatchSampler(RandomSampler(range(10), generator=gen()), 4, False))
    assert [len(b) for b in batches] == [4, 4, 2]
    assert sorted(i for b in batches for i in b) == list(range(10))


def test_batch_sampler_errors():
    for bad in (0, True, 3.0, -2):
        msg = f"^batch_size should be a positive integer value, but got batch_size={bad}$"
        with pytest.raises(ValueError, match=msg):
            BatchSampler(range(10), bad, False)
    for bad in (0, None):
        msg = f"^drop_last should be a boolean value, but got drop_last={bad}$"
        with pytest.raises(ValueError, match=msg):
            BatchSampler(range(10), 3, bad)
    with pytest.raises(TypeError, match="drop_last"):
        BatchSampler(range(10), 3)
    with pytest.raises(TypeError, match="has no len"):
        len(BatchSampler(iter(range(5)), 2, False))


def test_random_sampler_with_replacement_endless():
    # an "infinite" loader (makemore's): num_samples far beyond memory, drawn chunk by chunk
    it = iter(RandomSampler(range(7), replacement=True, num_samples=10 ** 15, generator=gen()))
    first = [next(it) for _ in range(100)]
    assert set(first) <= set(range(7)) and len(set(first)) > 1
    assert len(RandomSampler(range(7), replacement=True, num_samples=10 ** 15)) == 10 ** 15
