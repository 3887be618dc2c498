"""Resumable loading: DataLoader.state_dict()/load_state_dict() (torchdata's StatefulDataLoader
protocol), the samplers' O(1) resume from random-access permutations, a DistributedSampler
epoch resumed on another number of replicas, datasets with their own state (in the main
process and in workers), and per-sample seeds giving bit-identical batches after a resume."""
import pickle
import warnings

import numpy as np
import pytest

import minitorch as torch
from minitorch.utils.data import (BatchSampler, DataLoader, Dataset, DistributedSampler,
                                  IterableDataset, RandomSampler, Sampler, SequentialSampler,
                                  StatefulDataLoader, get_worker_info)
from minitorch.utils.data import _perm

WORKERS = [0, 2, 3]


@pytest.fixture(autouse=True)
def _quiet_worker_count_warning():
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message="This DataLoader will create")
        yield


def gen(seed):
    return torch.Generator().manual_seed(seed)


# ---- random-access permutations -----------------------------------------------------------
@pytest.mark.parametrize("n", [1, 2, 3, 4, 5, 7, 16, 17, 100, 1000, 4097])
def test_permutation_is_a_permutation_with_random_access(n):
    for seed in range(4):
        p = _perm.Permutation(n, seed)
        whole = p.take(0, n).tolist()
        assert sorted(whole) == list(range(n))
        assert [p[k] for k in range(0, n, max(1, n // 9))] == whole[::max(1, n // 9)]
        assert p.take(n // 3, n // 2).tolist() == whole[n // 3:n // 2]
    if n >= 16:
        assert _perm.Permutation(n, 1).take(0, n).tolist() != _perm.Permutation(n, 2).take(0, n).tolist()


def test_permutation_positions_are_uniform():
    counts = np.zeros((6, 6), dtype=np.int64)
    for seed in range(6000):
        counts[np.arange(6), _perm.Permutation(6, seed).take(0, 6)] += 1
    assert counts.min() > 850 and counts.max() < 1150          # expected 1000 each


def test_uniform_draws_are_counter_based():
    a = _perm.uniform(10, 3, 0, 50000)
    assert a.min() == 0 and a.max() == 9
    assert np.abs(np.bincount(a) - 5000).max() < 300
    assert _perm.uniform(10, 3, 100, 200).tolist() == a[100:200].tolist()


# ---- samplers -----------------------------------------------------------------------------
def resumed_rest(sampler, k, fresh=None):
    """(the pass after k indices, the same rest from a fresh iterator loaded with the state)."""
    it = iter(sampler)
    head = [next(it) for _ in range(k)]
    state = pickle.loads(pickle.dumps(it.state_dict()))
    rest = list(it)
    other = iter(fresh if fresh is not None else sampler)
    other.load_state_dict(state)
    return head, rest, list(other)


@pytest.mark.parametrize("kwargs", [{}, {"replacement": True}, {"num_samples": 95},
                                    {"replacement": True, "num_samples": 200}])
def test_random_sampler_resumes_at_any_position(kwargs):
    s = RandomSampler(range(40), generator=gen(3), **kwargs)
    for k in (0, 1, 17, len(s) - 1, len(s)):
        head, rest, again = resumed_rest(s, k, RandomSampler(range(40), generator=gen(9), **kwargs))
        assert rest == again and len(head + rest) == len(s)
    whole = list(RandomSampler(range(40), generator=gen(3), **kwargs))
    if not kwargs.get("replacement"):
        for start in range(0, len(whole), 40):   # every block of n is a permutation
            block = whole[start:start + 40]
            assert len(set(block)) == len(block)


def test_random_sampler_resume_computes_only_what_it_yields(monkeypatch):
    n = 10 ** 7
    s = RandomSampler(range(n), generator=gen(1))
    it = iter(s)
    first = next(it)
    state = it.state_dict()
    state["yielded"] = 10 ** 6
    asked = []
    take = _perm.Permutation.take
    monkeypatch.setattr(_perm.Permutation, "take",
                        lambda self, a, b: asked.append(b - a) or take(self, a, b))
    resumed = iter(RandomSampler(range(n), generator=gen(2)))
    resumed.load_state_dict(state)
    got = [next(resumed) for _ in range(3)]
    assert sum(asked) <= 1024                       # one small chunk, not 10**6 positions
    assert got == _perm.Permutation(n, _perm.mix64(state["seed"], 0)).take(10 ** 6, 10 ** 6 + 3).tolist()
    assert first == _perm.Permutation(n, _perm.mix64(state["seed"], 0))[0]


def test_sequential_and_batch_sampler_resume():
    head, rest, again = resumed_rest(SequentialSampler(range(10)), 4)
    assert head == [0, 1, 2, 3] and rest == again == [4, 5, 6, 7, 8, 9]
    bs = BatchSampler(RandomSampler(range(23), generator=gen(5)), 4, False)
    head, rest, again = resumed_rest(bs, 3, BatchSampler(RandomSampler(range(23), generator=gen(6)), 4, False))
    assert rest == again and sorted(sum(head + rest, [])) == list(range(23))


class PlainSampler(Sampler):
    """A sampler without any state: resumed by fast-forwarding its iterator."""

    def __init__(self, n):
        self.n = n
        self.drawn = 0

    def __iter__(self):
        for i in range(self.n):
            self.drawn += 1
            yield (i * 7) % self.n

    def __len__(self):
        return self.n


def test_batch_sampler_over_a_stateless_sampler_fast_forwards():
    head, rest, again = resumed_rest(BatchSampler(PlainSampler(20), 3, True), 2)
    assert rest == again and head + rest == [[(i * 7) % 20 for i in range(j, j + 3)]
                                             for j in range(0, 18, 3)]


# ---- DistributedSampler -------------------------------------------------------------------
def shard_iters(n, world, **kw):
    return [iter(DistributedSampler(range(n), num_replicas=world, rank=r, **kw)) for r in range(world)]


@pytest.mark.parametrize("kw", [{}, {"pad": False}, {"drop_last": True}, {"shuffle": False}])
def test_distributed_sampler_resumes_on_the_same_world(kw):
    for n, world in ((50, 2), (17, 3), (10, 4)):
        for r in range(world):
            s = DistributedSampler(range(n), num_replicas=world, rank=r, seed=3, **kw)
            s.set_epoch(2)
            head, rest, again = resumed_rest(s, 2, DistributedSampler(range(n), num_replicas=world,
                                                                    rank=r, seed=99, **kw))
            assert rest == again and len(head) + len(rest) == len(s)


@pytest.mark.parametrize("old,new", [(2, 3), (3, 2), (4, 1), (1, 4), (3, 3)])
@pytest.mark.parametrize("pad", [False, True])
def test_distributed_sampler_resharded_epoch_covers_the_rest_once(old, new, pad):
    n, k = 53, 5
    its = shard_iters(n, old, seed=1, pad=pad)
    consumed = [i for it in its for i in (next(it) for _ in range(k))]
    state = its[0].state_dict()
    order = list(DistributedSampler(range(n), num_replicas=1, rank=0, seed=1))
    assert sorted(consumed) == sorted(order[:k * old])     # the ranks took the list's start
    rest = []
    lengths = []
    for r in range(new):
        s = DistributedSampler(range(n), num_replicas=new, rank=r, seed=7, pad=pad)
        s.load_state_dict(state)
        got = list(s)
        lengths.append(len(got))
        rest += got
    remaining = order[k * old:]
    if pad:
        # padding repeats entries from the start of the epoch's list, as a fresh epoch's does
        assert set(remaining) <= set(rest) and len(rest) - len(remaining) < new
        assert len(set(lengths)) == 1
    else:
        assert sorted(rest) == sorted(remaining)            # none dropped, none repeated
        assert max(lengths) - min(lengths) <= 1


def test_distributed_sampler_state_follows_the_epoch():
    s = DistributedSampler(range(30), num_replicas=2, rank=1, seed=4)
    s.set_epoch(3)
    it = iter(s)
    next(it)
    state = s.state_dict()
    assert (state["epoch"], state["seed"], state["num_replicas"], state["yielded"]) == (3, 4, 2, 1)
    t = DistributedSampler(range(30), num_replicas=2, rank=1, seed=4)
    t.load_state_dict(state)
    assert t.epoch == 3 and list(t) == list(it)
    t.load_state_dict(state)
    t.set_epoch(4)                                          # another epoch: the resume is dropped
    s.set_epoch(4)
    assert list(t) == list(s)


# ---- DataLoader ---------------------------------------------------------------------------
class Squares(Dataset):
    def __init__(self, n):
        self.n = n
        self.loaded = []

    def __len__(self):
        return self.n

    def __getitem__(self, i):
        self.loaded.append(i)
        return torch.tensor([i, i * i])


class Noisy(Dataset):
    """Random augmentation from the global generators (minitorch, NumPy)."""

    def __len__(self):
        return 60

    def __getitem__(self, i):
        return torch.rand(3) + i + float(np.random.rand())


def epoch(loader):
    return [b.tolist() if hasattr(b, "tolist") else b for b in loader]


@pytest.mark.parametrize("saved", WORKERS)
def test_loader_resumes_with_any_num_workers(saved):
    full = epoch(DataLoader(Squares(50), batch_size=4, shuffle=True, generator=gen(1)))
    loader = DataLoader(Squares(50), batch_size=4, shuffle=True, generator=gen(1), num_workers=saved)
    it = iter(loader)
    head = [next(it).tolist() for _ in range(5)]
    state = pickle.loads(pickle.dumps(loader.state_dict()))
    del it
    assert head == full[:5] and state["_num_yielded"] == 5
    for workers in WORKERS:
        resumed = DataLoader(Squares(50), batch_size=4, shuffle=True, num_workers=workers)
        resumed.load_state_dict(state)
        assert epoch(resumed) == full[5:]
        assert len(epoch(resumed)) == len(full)            # then whole epochs again


def test_resume_loads_no_skipped_sample():
    ds = Squares(100)
    loader = DataLoader(ds, batch_size=10, shuffle=True, generator=gen(2))
    it = iter(loader)
    head = [next(it) for _ in range(4)]
    state = loader.state_dict()
    ds2 = Squares(100)
    resumed = DataLoader(ds2, batch_size=10, shuffle=True)
    resumed.load_state_dict(state)
    rest = epoch(resumed)
    assert len(ds2.loaded) == 60 and len(rest) == 6
    assert sorted(ds2.loaded + [i for b in head for i in b[:, 0].tolist()]) == list(range(100))


def test_state_before_iterating_end_of_epoch_and_empty_state():
    loader = DataLoader(Squares(9), batch_size=4)
    state = loader.state_dict()
    assert state["_num_yielded"] == 0 and not state["_iterator_finished"]
    loader.load_state_dict(state)
    assert len(epoch(loader)) == 3
    done = loader.state_dict()
    assert done["_iterator_finished"] and done["_num_yielded"] == 3
    loader.load_state_dict(done)                            # saved at the end: a new epoch
    assert len(epoch(loader)) == 3
    it = iter(loader)
    next(it)
    loader.load_state_dict({})
    assert len(epoch(loader)) == 3
    with pytest.raises(ValueError, match="not a DataLoader state"):
        loader.load_state_dict({"x": 1})
    assert StatefulDataLoader is DataLoader
    assert StatefulDataLoader(Squares(4), snapshot_every_n_steps=5).snapshot_every_n_steps == 5
    with pytest.raises(ValueError, match="snapshot_every_n_steps should be a positive integer"):
        StatefulDataLoader(Squares(4), snapshot_every_n_steps=0)


@pytest.mark.parametrize("workers", WORKERS)
def test_per_sample_seed_resume_is_bit_identical(workers):
    full = epoch(DataLoader(Noisy(), batch_size=4, shuffle=True, generator=gen(3), per_sample_seed=True))
    loader = DataLoader(Noisy(), batch_size=4, shuffle=True, generator=gen(3), per_sample_seed=True,
                        num_workers=workers)
    it = iter(loader)
    head = [next(it).tolist() for _ in range(6)]
    state = loader.state_dict()
    del it
    assert head == full[:6]
    for resumed_workers in WORKERS:
        resumed = DataLoader(Noisy(), batch_size=4, shuffle=True, per_sample_seed=True,
                             num_workers=resumed_workers)
        resumed.load_state_dict(state)
        assert epoch(resumed) == full[6:]


def test_persistent_workers_resume():
    full = epoch(DataLoader(Squares(40), batch_size=3, shuffle=True, generator=gen(4)))
    loader = DataLoader(Squares(40), batch_size=3, shuffle=True, generator=gen(4), num_workers=2,
                        persistent_workers=True)
    it = iter(loader)
    head = [next(it).tolist() for _ in range(3)]
    state = loader.state_dict()
    resumed = DataLoader(Squares(40), batch_size=3, shuffle=True, num_workers=2,
                         persistent_workers=True)
    assert len(epoch(resumed)) == len(full)                 # its workers run an epoch first
    resumed.load_state_dict(state)
    assert head + epoch(resumed) == full
    assert len(epoch(resumed)) == len(full)


class StatefulSquares(Squares):
    """A map-style dataset with its own state (counts the samples it loaded)."""

    def __init__(self, n):
        super().__init__(n)
        self.count = 0

    def __getitem__(self, i):
        self.count += 1
        return torch.tensor([i, self.count])

    def state_dict(self):
        return {"count": self.count}

    def load_state_dict(self, state):
        self.count = state["count"]


def test_map_dataset_state_in_the_main_process():
    loader = DataLoader(StatefulSquares(20), batch_size=2)
    it = iter(loader)
    head = [next(it).tolist() for _ in range(3)]
    state = loader.state_dict()
    assert state["_dataset_state"] == {"count": 6}
    ds = StatefulSquares(20)
    resumed = DataLoader(ds, batch_size=2)
    resumed.load_state_dict(state)
    rest = epoch(resumed)
    assert head[-1] == [[4, 5], [5, 6]] and rest[0] == [[6, 7], [7, 8]]


def test_map_dataset_state_in_workers():
    loader = DataLoader(StatefulSquares(24), batch_size=2, num_workers=2)
    it = iter(loader)
    head = [next(it).tolist() for _ in range(4)]           # workers 0, 1, 0, 1
    state = loader.state_dict()
    del it
    assert {w: s["dataset_state"] for w, s in state["_worker_snapshots"].items()} == \
        {0: {"count": 4}, 1: {"count": 4}}
    resumed = DataLoader(StatefulSquares(24), batch_size=2, num_workers=2)
    resumed.load_state_dict(state)
    rest = epoch(resumed)
    assert head[:2] == [[[0, 1], [1, 2]], [[2, 1], [3, 2]]]
    assert rest[:2] == [[[8, 5], [9, 6]], [[10, 5], [11, 6]]]


class Stream(IterableDataset):
    """An iterable dataset sharded by worker, with its position as state."""

    def __init__(self, n, stateful=True):
        self.n = n
        self.i = 0
        self.stateful = stateful

    def __iter__(self):
        info = get_worker_info()
        wid, nw = (info.id, info.num_workers) if info else (0, 1)
        mine = list(range(wid, self.n, nw))
        while self.i < len(mine):
            self.i += 1
            yield mine[self.i - 1]
        self.i = 0

    def state_dict(self):
        return {"i": self.i}

    def load_state_dict(self, state):
        self.i = state["i"]


class PlainStream(IterableDataset):
    def __init__(self, n):
        self.n = n

    def __iter__(self):
        info = get_worker_info()
        wid, nw = (info.id, info.num_workers) if info else (0, 1)
        return iter(range(wid, self.n, nw))


@pytest.mark.parametrize("workers", [0, 2])
@pytest.mark.parametrize("make", [Stream, PlainStream])
def test_iterable_dataset_resumes_in_its_workers(workers, make):
    full = epoch(DataLoader(make(23), batch_size=3, num_workers=workers))
    loader = DataLoader(make(23), batch_size=3, num_workers=workers)
    it = iter(loader)
    head = [next(it).tolist() for _ in range(3)]
    state = pickle.loads(pickle.dumps(loader.state_dict()))
    del it
    assert head == full[:3]
    resumed = DataLoader(make(23), batch_size=3, num_workers=workers)
    resumed.load_state_dict(state)
    assert epoch(resumed) == full[3:]
    other = DataLoader(make(23), batch_size=3, num_workers=1)
    with pytest.raises(ValueError, match="needs the same num_workers"):
        other.load_state_dict(state)


def test_distributed_loaders_resume_on_another_world_size():
    n, bs = 61, 4
    old = [DataLoader(Squares(n), batch_size=bs, sampler=DistributedSampler(Squares(n), 2, r, seed=5, pad=False),
                      num_workers=w) for r, w in ((0, 0), (1, 2))]
    its = [iter(dl) for dl in old]
    seen = [i for it in its for _ in range(3) for i in next(it)[:, 0].tolist()]
    state = old[0].state_dict()
    del its
    rest = []
    for r in range(3):
        dl = DataLoader(Squares(n), batch_size=bs, num_workers=r % 2 * 2,
                        sampler=DistributedSampler(Squares(n), 3, r, seed=5, pad=False))
        dl.load_state_dict(state)
        rest += [i for b in dl for i in b[:, 0].tolist()]
    assert sorted(seen + rest) == list(range(n))


@pytest.mark.parametrize("workers", WORKERS)
def test_state_right_after_a_resume_is_the_resumed_one(workers):
    full = epoch(DataLoader(Squares(30), batch_size=4, shuffle=True, generator=gen(8)))
    loader = DataLoader(Squares(30), batch_size=4, shuffle=True, generator=gen(8), num_workers=workers)
    it = iter(loader)
    head = [next(it).tolist() for _ in range(2)]
    del it
    again = DataLoader(Squares(30), batch_size=4, shuffle=True, num_workers=workers)
    again.load_state_dict(loader.state_dict())
    it = iter(again)                                         # nothing delivered yet
    state = again.state_dict()
    del it
    third = DataLoader(Squares(30), batch_size=4, shuffle=True, num_workers=workers)
    third.load_state_dict(state)
    assert head + epoch(third) == full


def test_iterable_state_right_after_a_resume_keeps_the_workers_states():
    full = epoch(DataLoader(Stream(23), batch_size=3, num_workers=2))
    loader = DataLoader(Stream(23), batch_size=3, num_workers=2)
    it = iter(loader)
    head = [next(it).tolist() for _ in range(3)]
    del it
    again = DataLoader(Stream(23), batch_size=3, num_workers=2)
    again.load_state_dict(loader.state_dict())
    it = iter(again)
    state = again.state_dict()
    del it
    assert {w: s["dataset_state"] for w, s in state["_worker_snapshots"].items()} == \
        {0: {"i": 6}, 1: {"i": 3}}
    third = DataLoader(Stream(23), batch_size=3, num_workers=2)
    third.load_state_dict(state)
    assert head + epoch(third) == full
