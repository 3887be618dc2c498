"""Start-up of DataLoader workers under spawn and forkserver: one process started through the
context loads the dataset once and forks the workers (Note [Worker zygote]); the dataset is
pickled once, read by that process as it is written (Note [One pickle for all workers]); its
tensors travel as shared memory, one object per tensor however often the dataset names it."""
import gc
import os
import pickle
import signal
import subprocess
import sys
import textwrap
import time
import warnings

import pytest

import minitorch as torch
from minitorch.utils.data import DataLoader, Dataset, IterableDataset, SharedList, get_worker_info
from minitorch.utils.data._utils import signal_handling
from minitorch.utils.data._shared_spec import SpecReader, SpecWriter, new_spec_file

PICKLED = {"count": 0}


class Counted(Dataset):
    """Counts how often it is pickled (in this, the main, process)."""

    def __init__(self, n=12):
        self.n = n
        self.t = torch.arange(float(n))
        self.alias = self.t
        self.names = SharedList([f"item {i}" for i in range(n)])

    def __getstate__(self):
        PICKLED["count"] += 1
        return self.__dict__

    def __len__(self):
        return self.n

    def __getitem__(self, i):
        return torch.tensor([float(self.t[i]), float(self.t.is_shared()),
                             float(self.alias is self.t), float(self.names[i] == f"item {i}")])


class Big(Dataset):
    """A dataset object with a large pickle (rows of 100-byte strings) and few samples; each
    sample says which worker loaded it and what that worker's generators give."""

    def __init__(self, rows, n):
        self.rows = [f"{i:0100d}" for i in range(rows)]
        self.n = n

    def __len__(self):
        return self.n

    def __getitem__(self, i):
        info = get_worker_info()
        return torch.tensor([i, os.getpid(), info.id, info.seed, torch.initial_seed(),
                             len(self.rows[i]), INIT.get(info.id, -1)], dtype=torch.int64)


class Slow(Dataset):
    def __len__(self):
        return 1000

    def __getitem__(self, i):
        time.sleep(0.02)
        return i


class BadState(Dataset):
    def __init__(self):
        self.state = "saved"

    def __len__(self):
        return 4

    def __getitem__(self, i):
        return i

    def __setstate__(self, state):
        raise ValueError("this dataset cannot be loaded in a worker")


INIT = {}


def _init(worker_id):
    INIT[worker_id] = 100 + worker_id


@pytest.fixture(autouse=True)
def _quiet():
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message="This DataLoader will create")
        yield


def _ppid(pid):
    with open(f"/proc/{pid}/stat") as f:
        return int(f.read().rsplit(")", 1)[1].split()[1])


def _gone(pid):
    """pid no longer runs (exited, reaped or a zombie left to init)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] in ("Z", "X")
    except FileNotFoundError:
        return True


def _wait_gone(pids, timeout=15.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and not all(_gone(p) for p in pids):
        time.sleep(0.05)
    return [p for p in pids if not _gone(p)]


def _shm_names(pids):
    return {n for n in os.listdir("/dev/shm") if any(f"-{p}-" in n for p in pids)}


@pytest.mark.parametrize("method", ["spawn", "forkserver"])
def test_dataset_is_pickled_once_for_all_workers(method):
    PICKLED["count"] = 0
    out = torch.cat(list(DataLoader(Counted(), batch_size=2, num_workers=3,
                                    multiprocessing_context=method)))
    assert PICKLED["count"] == 1
    assert out[:, 0].tolist() == [float(i) for i in range(12)]
    assert out[:, 1:].eq(1).all()            # shared tensor, one object per tensor, SharedList


@pytest.mark.parametrize("method,workers", [("spawn", 16), ("forkserver", 4)])
def test_workers_forked_by_one_process(method, workers):
    """Every sample once; the workers are distinct processes, children of one process that is
    not the main one; seeds per worker; worker_init_fn and get_worker_info in each; all gone,
    nothing left in /dev/shm, when the iterator goes."""
    n = 4 * workers
    gen = torch.Generator().manual_seed(7)
    it = iter(DataLoader(Big(200_000, n), batch_size=2, num_workers=workers, generator=gen,
                         multiprocessing_context=method, worker_init_fn=_init))
    first = next(it)
    pids = [w.pid for w in it._workers]
    zygote = it._zygote.process.pid
    assert len(set(pids)) == workers and os.getpid() not in pids and zygote not in pids
    assert {_ppid(p) for p in pids} == {zygote}              # not the main process's children
    out = torch.cat([first] + list(it))
    assert sorted(out[:, 0].tolist()) == list(range(n))
    by_worker = {}
    for i, pid, wid, seed, initial, length, init in out.tolist():
        assert length == 100 and init == 100 + wid and initial == seed
        assert pids[wid] == pid
        by_worker[wid] = seed
    base = by_worker[0]
    assert by_worker == {w: base + w for w in range(workers)}   # each its own seed
    del it
    gc.collect()
    assert _wait_gone(pids + [zygote]) == []
    assert not _shm_names(pids + [zygote])


def test_persistent_forked_workers_keep_distinct_seeds():
    loader = DataLoader(Big(10, 8), batch_size=1, num_workers=2, multiprocessing_context="spawn",
                        persistent_workers=True)
    seeds = [{(int(b[0, 2]), int(b[0, 3])) for b in loader} for _ in range(2)]
    for s in seeds:
        assert len({seed for _, seed in s}) == 2
    del loader
    gc.collect()


def test_worker_killed_by_a_signal_names_its_pid():
    it = iter(DataLoader(Slow(), batch_size=2, num_workers=2, multiprocessing_context="spawn"))
    next(it)
    victim = it._workers[1].pid
    os.kill(victim, signal.SIGKILL)
    deadline = time.monotonic() + 30
    with pytest.raises(RuntimeError, match=rf"DataLoader worker \(pid {victim}\) is killed"):
        while time.monotonic() < deadline:       # torch's check, from the zygote's report
            signal_handling._error_if_any_worker_fails()
            time.sleep(0.01)
    with pytest.raises(RuntimeError, match=rf"DataLoader worker \(pid {victim}\) is killed by "
                                           r"signal: Killed"):
        for _ in range(600):
            next(it)
    assert _wait_gone([w.pid for w in it._workers] + [it._zygote.process.pid]) == []


def test_a_dataset_that_fails_to_load_in_the_workers():
    with pytest.raises(RuntimeError, match=r"DataLoader worker \(pid \d+\) exited unexpectedly "
                                           r"with exit code 1"):
        next(iter(DataLoader(BadState(), num_workers=2, multiprocessing_context="spawn")))


def test_timeout_with_forked_workers():
    it = iter(DataLoader(Slow(), batch_size=25, num_workers=1, timeout=0.2,
                         multiprocessing_context="spawn"))
    with pytest.raises(RuntimeError, match="DataLoader timed out after 0.2 seconds"):
        next(it)


@pytest.mark.parametrize("method", ["spawn", "forkserver"])
def test_workers_and_their_parent_exit_with_the_main_process(tmp_path, method):
    script = tmp_path / "main.py"
    script.write_text(textwrap.dedent(f"""
        import os, sys, time
        import minitorch.utils.data as data

        class Slow(data.Dataset):
            def __len__(self):
                return 10 ** 6
            def __getitem__(self, i):
                time.sleep(0.01)
                return i

        if __name__ == "__main__":
            it = iter(data.DataLoader(Slow(), num_workers=3, multiprocessing_context="{method}"))
            next(it)
            pids = [w.pid for w in it._workers] + [it._zygote.process.pid]
            print(" ".join(map(str, pids)), flush=True)
            time.sleep(600)
    """))
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))   # where minitorch was found
    proc = subprocess.Popen([sys.executable, str(script)], stdout=subprocess.PIPE, text=True,
                            env=env)
    try:
        pids = [int(p) for p in proc.stdout.readline().split()]
        assert len(pids) == 4
        proc.kill()
        proc.wait()
        assert _wait_gone(pids) == []
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def test_persistent_spawned_workers_keep_their_copy():
    PICKLED["count"] = 0
    loader = DataLoader(Counted(), batch_size=4, num_workers=2, multiprocessing_context="spawn",
                        persistent_workers=True)
    first = [b.tolist() for b in loader]
    assert [b.tolist() for b in loader] == first and PICKLED["count"] == 1
    del loader
    gc.collect()


def test_unpicklable_dataset_fails_in_the_main_process():
    class Local(Dataset):
        def __len__(self):
            return 2

        def __getitem__(self, i):
            return i

    with pytest.raises((pickle.PicklingError, AttributeError, TypeError)):
        next(iter(DataLoader(Local(), num_workers=2, multiprocessing_context="spawn")))


def test_spec_stream_round_trip_in_one_process():
    import multiprocessing
    t = torch.arange(6.0).reshape(2, 3)
    obj = {"t": t, "alias": t, "view": t[1], "words": ["a", "b"] * 3,
           "big": [f"{i:050d}" for i in range(200_000)]}
    f = new_spec_file()
    a, b = multiprocessing.Pipe()
    try:
        SpecWriter(f.fd, a).dump(obj)
        again = SpecReader(f.fd, b).load()
    finally:
        os.close(f.fd)
        a.close()
        b.close()
    assert again["t"] is again["alias"] and again["t"].data_ptr() == t.data_ptr()
    assert again["view"].tolist() == [3.0, 4.0, 5.0] and t.is_shared()
    assert again["words"] == obj["words"] and again["big"] == obj["big"]


class Shards(IterableDataset):
    def __init__(self, n):
        self.n = n

    def __iter__(self):
        info = get_worker_info()
        return iter(range(info.id, self.n, info.num_workers))


def test_iterable_dataset_and_resume_with_forked_workers():
    out = torch.cat(list(DataLoader(Shards(20), batch_size=3, num_workers=2,
                                    multiprocessing_context="spawn")))
    assert sorted(out.tolist()) == list(range(20))
    ds = Big(30, 24)

    def loader():
        return DataLoader(ds, batch_size=4, shuffle=True, num_workers=2,
                          generator=torch.Generator().manual_seed(3),
                          multiprocessing_context="forkserver")
    full = [b[:, 0].tolist() for b in loader()]
    first = loader()
    it = iter(first)
    head = [next(it)[:, 0].tolist() for _ in range(2)]
    state = first.state_dict()
    del it
    resumed = loader()
    resumed.load_state_dict(state)
    assert head + [b[:, 0].tolist() for b in resumed] == full
