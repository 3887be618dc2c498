"""SharedList: a read-only list kept serialised in shared memory, so that DataLoader workers
reading it do not each copy it (copy-on-read)."""
import os
import pickle

import pytest

import minitorch as torch
import minitorch.multiprocessing as mp
from minitorch.utils.data import DataLoader, Dataset, SharedList


def test_items_round_trip():
    items = [{"id": 1, "tags": ["a", "b"]}, "text", b"bytes", 3, 2.5, None, (1, 2), [torch.tensor([1, 2])]]
    s = SharedList(items)
    assert len(s) == len(items)
    for i, item in enumerate(items[:-1]):
        assert s[i] == item and s[i - len(items)] == items[i - len(items)]
    assert s[-1][0].tolist() == [1, 2]
    assert s[1:4] == items[1:4] and s[::3] == items[::3]
    assert s[0] is not s[0]                          # each read is a fresh copy
    assert list(s)[:2] == items[:2]
    with pytest.raises(IndexError):
        s[len(items)]
    with pytest.raises(TypeError):
        s["x"]
    assert len(SharedList([])) == 0
    assert "8 items" in repr(s)


def test_pickles_by_value_and_as_shared_memory():
    s = SharedList(range(100))
    t = pickle.loads(pickle.dumps(s))
    assert list(t) == list(range(100))


def _read_all(s, q):
    q.put([s[i] for i in range(0, len(s), 97)])


@pytest.mark.parametrize("method", ["fork", "spawn"])
def test_other_processes_read_it(method):
    s = SharedList([{"k": i} for i in range(1000)])
    ctx = mp.get_context(method)
    q = ctx.Queue()
    p = ctx.Process(target=_read_all, args=(s, q))
    p.start()
    got = q.get(timeout=60)
    p.join(60)
    assert got == [{"k": i} for i in range(0, 1000, 97)]


class Records(Dataset):
    def __init__(self, items):
        self.items = items

    def __len__(self):
        return len(self.items)

    def __getitem__(self, i):
        return self.items[i]["label"]


def _private_mb(pid):
    total = 0
    try:
        with open(f"/proc/{pid}/smaps_rollup") as f:
            for line in f:
                if line.startswith(("Private_Clean:", "Private_Dirty:")):
                    total += int(line.split()[1])
    except OSError:                     # the worker has exited (the epoch is over)
        pass
    return total / 1024


def _peak_private(dataset):
    it = iter(DataLoader(dataset, batch_size=512, num_workers=2, shuffle=True,
                         multiprocessing_context="fork"))
    pids = [p.pid for p in it._workers]
    peak = 0.0
    for k, _ in enumerate(it):
        if k % 10 == 0:
            peak = max(peak, sum(_private_mb(p) for p in pids))
    return peak


@pytest.mark.skipif("asan" in os.environ.get("LD_PRELOAD", ""),
                    reason="AddressSanitizer's shadow memory and quarantine swamp the measurement")
def test_workers_do_not_copy_a_shared_list():
    items = [{"id": i, "path": f"/data/{i:09d}.jpg", "label": i % 10} for i in range(400_000)]
    plain = _peak_private(Records(items))
    shared = _peak_private(Records(SharedList(items)))
    # reading the plain list copies its pages into each worker (~100 MB of objects, read in
    # shuffled order by 2 workers); the shared one stays shared
    assert plain > 2 * shared and plain - shared > 30, (plain, shared)
