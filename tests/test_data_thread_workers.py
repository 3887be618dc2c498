"""DataLoader(worker_mode="thread"): the worker pool's protocol with threads (whole batches in
sampler order, prefetch bound, errors with the worker's traceback and sample, timeouts,
get_worker_info(), per-sample seeds, worker_init_fn, iterable datasets, resuming), batches
handed over by reference, the threads' own default generators, and clean shutdown."""
import gc
import threading
import time
import warnings

import numpy as np
import pytest

import minitorch as torch
from minitorch import _C
from minitorch.utils.data import DataLoader, Dataset, IterableDataset, get_worker_info


@pytest.fixture(autouse=True)
def _no_threads_left():
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message="This DataLoader will create")
        yield
    gc.collect()
    deadline = time.monotonic() + 10
    while worker_threads() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert worker_threads() == []


def worker_threads():
    return [t for t in threading.enumerate() if t.name.startswith("DataLoader worker")]


def thread_loader(ds, **kw):
    kw.setdefault("num_workers", 2)
    return DataLoader(ds, worker_mode="thread", **kw)


class Squares(Dataset):
    def __init__(self, n=40):
        self.n = n

    def __len__(self):
        return self.n

    def __getitem__(self, i):
        return torch.tensor([i, i * i])


def batches(loader):
    return [b.tolist() for b in loader]


@pytest.mark.parametrize("workers", [1, 2, 3])
def test_same_batches_in_sampler_order(workers):
    want = batches(DataLoader(Squares(), batch_size=3, shuffle=True, generator=torch.Generator().manual_seed(2)))
    got = batches(thread_loader(Squares(), batch_size=3, shuffle=True, num_workers=workers,
                                generator=torch.Generator().manual_seed(2)))
    assert got == want


class Made(Dataset):
    """Remembers every sample it made, to check the loop gets the very objects."""

    def __init__(self):
        self.made = {}

    def __len__(self):
        return 12

    def __getitem__(self, i):
        self.made[i] = torch.full((2,), float(i))
        return self.made[i]


def test_batches_are_handed_over_by_reference():
    ds = Made()
    for batch in thread_loader(ds, batch_size=4, collate_fn=lambda samples: samples):
        for t in batch:
            assert t is ds.made[int(t[0].item())]
    stacked = next(iter(thread_loader(Made(), batch_size=4)))
    assert not stacked.is_shared()                          # no shared-memory slab


def test_worker_info_and_init_fn_in_threads():
    seen = []

    class Who(Dataset):
        def __len__(self):
            return 16

        def __getitem__(self, i):
            info = get_worker_info()
            return torch.tensor([info.id, info.num_workers, info.seed])

    loader = thread_loader(Who(), batch_size=2, worker_init_fn=seen.append,
                           generator=torch.Generator().manual_seed(4))
    out = torch.cat(list(loader))
    assert get_worker_info() is None                        # not in the main thread
    assert sorted(seen) == [0, 1]
    assert set(out[:, 0].tolist()) == {0, 1} and set(out[:, 1].tolist()) == {2}
    assert out[out[:, 0] == 1][:, 2].tolist()[0] == out[out[:, 0] == 0][:, 2].tolist()[0] + 1


class Failing(Dataset):
    def __len__(self):
        return 20

    def __getitem__(self, i):
        if i == 7:
            raise KeyError("no sample seven")
        return torch.tensor([i])


def test_error_carries_the_worker_traceback_and_sample():
    loader = thread_loader(Failing(), batch_size=2)
    got = []
    with pytest.raises(KeyError) as info:
        for b in loader:
            got.append(b)
    assert len(got) == 3
    msg = str(info.value)
    assert "in DataLoader worker thread" in msg and "while loading sample 7" in msg
    assert "no sample seven" in msg and "Traceback" in msg


def test_timeout():
    class Slow(Dataset):
        def __len__(self):
            return 4

        def __getitem__(self, i):
            time.sleep(1.5)
            return i

    with pytest.raises(RuntimeError, match=r"DataLoader timed out after 0\.3 seconds"):
        next(iter(thread_loader(Slow(), batch_size=1, num_workers=1, timeout=0.3)))


def test_prefetch_bound():
    loaded = []

    class Counting(Dataset):
        def __len__(self):
            return 60

        def __getitem__(self, i):
            loaded.append(i)
            return i

    loader = thread_loader(Counting(), batch_size=2, num_workers=2, prefetch_factor=3)
    for k, _ in enumerate(loader, 1):
        time.sleep(0.01)
        assert len(loaded) <= 2 * (k + 3 * 2)


class Noisy(Dataset):
    def __len__(self):
        return 30

    def __getitem__(self, i):
        return torch.rand(2) + i


def test_per_sample_seed_as_in_the_main_process_and_the_main_generator_untouched():
    want = batches(DataLoader(Noisy(), batch_size=4, per_sample_seed=True,
                              generator=torch.Generator().manual_seed(1)))
    torch.manual_seed(123)
    state = torch.get_rng_state()
    got = batches(thread_loader(Noisy(), batch_size=4, num_workers=3, per_sample_seed=True,
                                generator=torch.Generator().manual_seed(1)))
    assert got == want
    assert torch.equal(torch.get_rng_state(), state)        # the threads drew from their own


def test_threads_have_their_own_default_generator():
    out = {}

    def body(name, seed):
        _C._set_thread_generator(torch.Generator().manual_seed(seed))
        try:
            torch.manual_seed(seed)
            out[name] = (torch.rand(3).tolist(), torch.initial_seed())
        finally:
            _C._set_thread_generator(None)

    torch.manual_seed(9)
    main_before = torch.get_rng_state()
    ts = [threading.Thread(target=body, args=(k, 40 + k)) for k in range(2)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    assert torch.equal(torch.get_rng_state(), main_before) and torch.initial_seed() == 9
    assert out[0][1] == 40 and out[1][1] == 41
    assert out[0][0] == torch.rand(3, generator=torch.Generator().manual_seed(40)).tolist()
    with pytest.raises(TypeError, match="expected a Generator or None"):
        _C._set_thread_generator(3)


class Stream(IterableDataset):
    def __iter__(self):
        info = get_worker_info()
        return iter(range(info.id, 21, info.num_workers))


def test_iterable_dataset_as_with_processes():
    want = batches(DataLoader(Stream(), batch_size=4, num_workers=2))
    assert batches(thread_loader(Stream(), batch_size=4)) == want


def test_resume_with_thread_workers():
    full = batches(DataLoader(Squares(), batch_size=3, shuffle=True, generator=torch.Generator().manual_seed(3)))
    loader = thread_loader(Squares(), batch_size=3, shuffle=True, generator=torch.Generator().manual_seed(3))
    it = iter(loader)
    head = [next(it).tolist() for _ in range(4)]
    state = loader.state_dict()
    del it
    resumed = thread_loader(Squares(), batch_size=3, shuffle=True, num_workers=3)
    resumed.load_state_dict(state)
    assert head + batches(resumed) == full


class Position(IterableDataset):
    """Keeps its position on the dataset object (torchdata's README pattern): each worker
    thread needs an object of its own, as each worker process has."""

    def __init__(self, n):
        self.n = n
        self.i = 0

    def __iter__(self):
        info = get_worker_info()
        mine = list(range(info.id, self.n, info.num_workers)) if info else list(range(self.n))
        while self.i < len(mine):
            self.i += 1
            yield mine[self.i - 1]
        self.i = 0

    def state_dict(self):
        return {"i": self.i}

    def load_state_dict(self, state):
        self.i = state["i"]


def test_each_thread_has_its_own_dataset_object_and_state():
    want = batches(DataLoader(Position(22), batch_size=3, num_workers=2))
    assert batches(thread_loader(Position(22), batch_size=3)) == want
    loader = thread_loader(Position(22), batch_size=3)
    it = iter(loader)
    head = [next(it).tolist() for _ in range(3)]
    state = loader.state_dict()
    del it
    assert {w: s["dataset_state"] for w, s in state["_worker_snapshots"].items()} == \
        {0: {"i": 6}, 1: {"i": 3}}
    resumed = thread_loader(Position(22), batch_size=3)
    resumed.load_state_dict(state)
    assert head + batches(resumed) == want


def test_shutdown_on_del_break_and_error():
    it = iter(thread_loader(Squares(), batch_size=2))
    next(it)
    assert len(worker_threads()) == 2
    del it
    assert worker_threads() == []
    for _ in thread_loader(Squares(), batch_size=2):
        break
    gc.collect()
    assert worker_threads() == []
    with pytest.raises(KeyError):
        list(thread_loader(Failing(), batch_size=2))
    gc.collect()
    assert worker_threads() == []


def test_persistent_thread_workers():
    loader = thread_loader(Squares(12), batch_size=4, persistent_workers=True)
    first = batches(loader)
    threads = worker_threads()
    assert batches(loader) == first and worker_threads() == threads
    del loader
    gc.collect()
    assert worker_threads() == []


def test_numpy_samples_from_threads():
    class Work(Dataset):
        def __len__(self):
            return 8

        def __getitem__(self, i):
            return np.sqrt(np.full((50, 50), float(i * i), dtype=np.float32))

    got = list(thread_loader(Work(), batch_size=2))
    assert [b.shape for b in got] == [(2, 50, 50)] * 4
    assert torch.cat(got)[:, 0, 0].tolist() == [float(i) for i in range(8)]


def test_argument_errors():
    with pytest.raises(ValueError, match="worker_mode option should be 'process' or 'thread'"):
        DataLoader(Squares(), worker_mode="fiber")
    with pytest.raises(ValueError, match="needs worker_mode='process'"):
        DataLoader(Squares(), num_workers=1, worker_mode="thread", multiprocessing_context="spawn")
    assert batches(DataLoader(Squares(4), batch_size=2, worker_mode="thread")) == \
        [[[0, 0], [1, 1]], [[2, 4], [3, 9]]]                # num_workers=0: the main process
