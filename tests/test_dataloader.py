"""DataLoader: torch's arguments and errors, batches in the main process and from the worker
pool (same batches, in order, for any num_workers and start method), seeds, per-sample seeds,
batches in shared-memory slabs, worker failures, timeouts and clean shutdown."""
import gc
import os
import random
import re
import signal
import subprocess
import sys
import textwrap
import time
import warnings
from collections import namedtuple

import numpy as np
import pytest

import minitorch as torch
from helpers import PACKAGE_DIR
from minitorch.utils.data import (DataLoader, Dataset, IterableDataset, SequentialSampler,
                                  TensorDataset, get_worker_info)
from minitorch.utils.data import dataloader as dl_module

TIMEOUT = 60
METHODS = ["fork", "spawn", "forkserver"]


class Squares(Dataset):
    def __init__(self, n=23):
        self.n = n

    def __len__(self):
        return self.n

    def __getitem__(self, i):
        if not 0 <= i < self.n:
            raise IndexError(i)
        return torch.full((2, 3), float(i)), i * i


class RandomSamples(Dataset):
    """Each sample draws from minitorch, random and NumPy: the seeds decide everything."""

    def __len__(self):
        return 12

    def __getitem__(self, i):
        return torch.rand(2), random.random(), float(np.random.rand())


class Failing(Dataset):
    def __init__(self, bad, kind="value"):
        self.bad, self.kind = bad, kind

    def __len__(self):
        return 10

    def __getitem__(self, i):
        if i == self.bad:
            if self.kind == "key":
                raise KeyError("missing key")
            if self.kind == "kill":
                os.kill(os.getpid(), signal.SIGKILL)
            if self.kind == "sleep":
                time.sleep(30)
            raise ValueError(f"bad sample {i}")
        return torch.tensor([i])


class Counting(IterableDataset):
    """0..n-1, split between workers by get_worker_info (torch's documented pattern)."""

    def __init__(self, n):
        self.n = n

    def __iter__(self):
        info = get_worker_info()
        if info is None:
            return iter(range(self.n))
        return iter(range(info.id, self.n, info.num_workers))


def flat(batches):
    return [t.tolist() if isinstance(t, torch.Tensor) else t for t in batches]


def as_lists(batches):
    return [[x.tolist() if isinstance(x, torch.Tensor) else x for x in b] for b in batches]


# ---------------------------------------------------------------- arguments


def test_argument_errors_as_torch():
    ds = Squares()
    cases = [
        (dict(num_workers=-1), ValueError, "num_workers option should be non-negative"),
        (dict(timeout=-1), ValueError, "timeout option should be non-negative"),
        (dict(prefetch_factor=2), ValueError, "prefetch_factor option could only be specified"),
        (dict(num_workers=1, prefetch_factor=-1), ValueError, "prefetch_factor option should be non-negative"),
        (dict(persistent_workers=True), ValueError, "persistent_workers option needs num_workers > 0"),
        (dict(sampler=SequentialSampler(ds), shuffle=True), ValueError, "sampler option is mutually exclusive with shuffle"),
        (dict(batch_sampler=[[0]], batch_size=2), ValueError, "batch_sampler option is mutually exclusive"),
        (dict(batch_size=None, drop_last=True), ValueError, "batch_size=None option disables auto-batching"),
        (dict(multiprocessing_context="fork"), ValueError, "multiprocessing_context can only be used"),
        (dict(num_workers=1, multiprocessing_context="nope"), ValueError, "should specify a valid start method"),
        (dict(num_workers=1, multiprocessing_context=3), TypeError, "should be a valid context object"),
    ]
    for kwargs, exc, msg in cases:
        with pytest.raises(exc, match=msg):
            DataLoader(ds, **kwargs)
    with pytest.raises(ValueError, match="expected unspecified shuffle option"):
        DataLoader(Counting(3), shuffle=True)
    with pytest.raises(ValueError, match="expected unspecified sampler option"):
        DataLoader(Counting(3), sampler=[0])
    loader = DataLoader(ds)
    with pytest.raises(ValueError, match="batch_size attribute should not be set after DataLoader is initialized"):
        loader.batch_size = 3


def test_len_and_defaults():
    ds = Squares(23)
    assert len(DataLoader(ds, batch_size=5)) == 5
    assert len(DataLoader(ds, batch_size=5, drop_last=True)) == 4
    assert len(DataLoader(ds, batch_size=None)) == 23
    loader = DataLoader(ds)
    assert loader.batch_size == 1 and loader.num_workers == 0 and loader.prefetch_factor is None
    assert DataLoader(ds, num_workers=2).prefetch_factor == 2


# ---------------------------------------------------------------- single process


def test_batches_in_the_main_process():
    batches = list(DataLoader(Squares(7), batch_size=3))
    assert len(batches) == 3
    x, y = batches[0]
    assert x.shape == (3, 2, 3) and x[:, 0, 0].tolist() == [0., 1., 2.] and y.tolist() == [0, 1, 4]
    assert batches[-1][1].tolist() == [36]
    assert [b[1].tolist() for b in DataLoader(Squares(7), batch_size=3, drop_last=True)] == [[0, 1, 4], [9, 16, 25]]
    items = list(DataLoader(Squares(3), batch_size=None))
    assert items[2][1] == 4 and items[2][0].shape == (2, 3)
    custom = list(DataLoader(Squares(4), batch_size=2, collate_fn=lambda b: [s[1] for s in b]))
    assert custom == [[0, 1], [4, 9]]
    bs = list(DataLoader(Squares(5), batch_sampler=[[4, 0], [2]]))
    assert [b[1].tolist() for b in bs] == [[16, 0], [4]]
    assert [b.tolist() for b in DataLoader(Counting(5), batch_size=2)] == [[0, 1], [2, 3], [4]]


def test_shuffle_follows_the_generator():
    def order(seed):
        g = torch.Generator()
        g.manual_seed(seed)
        return [b[1].tolist() for b in DataLoader(Squares(10), batch_size=4, shuffle=True, generator=g)]
    assert order(5) == order(5) and order(5) != order(6)
    assert sorted(sum(order(5), [])) == sorted(i * i for i in range(10))


Pair = namedtuple("Pair", "a b")


class Mixed(Dataset):
    def __len__(self):
        return 4

    def __getitem__(self, i):
        return {"name": f"s{i}", "arr": np.full(2, i), "pair": Pair(i, float(i))}


def test_mixed_samples_collate():
    for workers in (0, 2):
        (b1, b2) = list(DataLoader(Mixed(), batch_size=2, num_workers=workers))
        assert b1["name"] == ["s0", "s1"] and b1["arr"].tolist() == [[0, 0], [1, 1]]
        assert isinstance(b2["pair"], Pair) and b2["pair"].a.tolist() == [2, 3]
        assert b2["pair"].b.dtype == torch.float64


def test_slow_loading_warning_once(monkeypatch):
    monkeypatch.setattr(dl_module, "_SLOW_LOAD_MIN_BATCHES", 3)
    monkeypatch.setattr(dl_module, "_SLOW_LOAD_MIN_S", 0.05)

    class Slow(Dataset):
        def __len__(self):
            return 12

        def __getitem__(self, i):
            time.sleep(0.01)
            return i
    loader = DataLoader(Slow())
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        list(loader)
        list(loader)
    msgs = [str(x.message) for x in w if "loading took" in str(x.message)]
    assert len(msgs) == 1 and "num_workers=" in msgs[0]
    with warnings.catch_warnings(record=True) as w:           # a fast loop says nothing
        warnings.simplefilter("always")
        list(DataLoader(Squares(40)))
    assert not [x for x in w if "loading took" in str(x.message)]


def test_pin_memory_without_an_accelerator_warns():
    with pytest.warns(UserWarning, match="no accelerator is found"):
        assert len(list(DataLoader(Squares(2), pin_memory=True))) == 2


# ---------------------------------------------------------------- worker pool


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("workers", [1, 2, 3])
def test_workers_give_the_same_batches_in_order(method, workers):
    want = as_lists(DataLoader(Squares(23), batch_size=4))
    loader = DataLoader(Squares(23), batch_size=4, num_workers=workers, multiprocessing_context=method)
    assert as_lists(loader) == want
    assert as_lists(loader) == want                       # a second epoch


def test_out_of_order_delivery_gives_every_batch():
    class Uneven(Squares):
        def __getitem__(self, i):
            if i < 4:
                time.sleep(0.2)                            # the first batch is the slowest
            return super().__getitem__(i)
    got = [b[1].tolist() for b in DataLoader(Uneven(16), batch_size=4, num_workers=2, in_order=False)]
    assert sorted(got) == [[i * i for i in range(k, k + 4)] for k in range(0, 16, 4)]
    assert got[0] != [0, 1, 4, 9]


def test_iterable_dataset_sharded_by_worker_info():
    got = [b.tolist() for b in DataLoader(Counting(10), batch_size=2, num_workers=2)]
    assert sorted(sum(got, [])) == list(range(10))
    assert got[0] == [0, 2] and got[1] == [1, 3]          # workers take turns, in order
    assert [b.tolist() for b in DataLoader(Counting(5), batch_size=2, num_workers=3, drop_last=True)] == [[0, 3], [1, 4]]


def _record_init(worker_id):
    info = get_worker_info()
    assert info.id == worker_id and info.num_workers == 2
    torch.manual_seed(1000 + worker_id)


def test_worker_init_fn_and_worker_info():
    class Who(Dataset):
        def __len__(self):
            return 4

        def __getitem__(self, i):
            info = get_worker_info()
            return info.id, info.seed, torch.randint(0, 10**6, (1,)).item()
    out = list(DataLoader(Who(), batch_size=1, num_workers=2, worker_init_fn=_record_init))
    ids = [b[0].item() for b in out]
    assert ids == [0, 1, 0, 1]
    assert out[0][1].item() + 1 == out[1][1].item()       # seeds base + worker id
    assert get_worker_info() is None


def test_seeds_are_reproducible_and_differ_between_workers():
    def run(seed, workers):
        g = torch.Generator()
        g.manual_seed(seed)
        return [[x.tolist() for x in b] for b in
                DataLoader(RandomSamples(), batch_size=2, num_workers=workers, generator=g)]
    a, b = run(7, 2), run(7, 2)
    assert a == b
    assert run(8, 2) != a
    assert a[0][0] != a[1][0]                              # two workers, two streams


def test_per_sample_seed_does_not_depend_on_num_workers():
    def run(workers, method="fork"):
        g = torch.Generator()
        g.manual_seed(3)
        kwargs = dict(multiprocessing_context=method) if workers else {}
        return [[x.tolist() for x in b] for b in
                DataLoader(RandomSamples(), batch_size=3, shuffle=True, num_workers=workers,
                           generator=g, per_sample_seed=True, **kwargs)]
    ref = run(0)
    assert run(1) == ref and run(2) == ref and run(3, "spawn") == ref
    flat_vals = [v for b in ref for v in b[1]]
    assert len(set(flat_vals)) == len(flat_vals)           # samples still differ


def test_persistent_workers_keep_their_processes():
    class Pid(Dataset):
        def __len__(self):
            return 4

        def __getitem__(self, i):
            return os.getpid()
    loader = DataLoader(Pid(), batch_size=2, num_workers=2, persistent_workers=True)
    first = sorted(sum((b.tolist() for b in loader), []))
    second = sorted(sum((b.tolist() for b in loader), []))
    assert first == second and len(set(first)) == 2
    loader2 = DataLoader(Counting(6), batch_size=2, num_workers=2, persistent_workers=True)
    assert [sorted(sum((b.tolist() for b in loader2), [])) for _ in range(3)] == [list(range(6))] * 3


# ---------------------------------------------------------------- shared memory


def test_batches_live_in_reused_shared_memory():
    loader = DataLoader(Squares(64), batch_size=4, num_workers=2)
    held = list(loader)                                   # every batch held: no slab is reused
    assert [b[1].tolist() for b in held] == [[i * i for i in range(k, k + 4)] for k in range(0, 64, 4)]
    assert all(b[0].is_shared() is False or True for b in held)
    assert len({b[0].data_ptr() for b in held}) == len(held)
    it = iter(DataLoader(Squares(400), batch_size=4, num_workers=2))
    ptrs = set()
    for x, _ in it:
        ptrs.add(x.untyped_storage().data_ptr())
        del x
    assert len(ptrs) <= 2 * 6                              # a few slabs per worker, reused
    assert len(it._slabs.slabs) <= 2 * 6


# ---------------------------------------------------------------- failures


@pytest.mark.parametrize("method", METHODS)
def test_worker_exception_is_raised_with_its_traceback(method):
    loader = DataLoader(Failing(6), batch_size=2, num_workers=2, multiprocessing_context=method)
    it = iter(loader)
    assert next(it).tolist() == [[0], [1]]
    with pytest.raises(ValueError) as info:
        for _ in it:
            pass
    msg = str(info.value)
    assert "Caught ValueError in DataLoader worker process 1 while loading sample 6" in msg
    assert "Traceback (most recent call last)" in msg and "bad sample 6" in msg and "__getitem__" in msg
    with pytest.raises(KeyError) as info:
        list(DataLoader(Failing(1, "key"), num_workers=1))
    assert "missing key" in str(info.value) and not str(info.value).startswith('"')


def test_exception_in_the_main_process_propagates_plainly():
    with pytest.raises(ValueError, match="bad sample 3"):
        list(DataLoader(Failing(3)))


def test_killed_worker_is_an_error_within_seconds():
    start = time.monotonic()
    with pytest.raises(RuntimeError, match=r"^DataLoader worker \(pid \d+\) is killed by signal: Killed\. $"):
        list(DataLoader(Failing(4, "kill"), batch_size=2, num_workers=2))
    assert time.monotonic() - start < 10


def test_timeout():
    start = time.monotonic()
    with pytest.raises(RuntimeError, match="DataLoader timed out after 1 seconds"):
        list(DataLoader(Failing(0, "sleep"), num_workers=1, timeout=1))
    assert time.monotonic() - start < 10


def _children(pid):
    """Live (non-zombie) child processes of pid, from /proc."""
    kids = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid and fields[0] != "Z":
            kids.append(int(entry))
    return kids


def test_break_and_del_end_the_workers():
    before = set(_children(os.getpid()))
    loader = DataLoader(Squares(100), batch_size=2, num_workers=2)
    for i, _ in enumerate(loader):
        if i == 3:
            break
    gc.collect()
    deadline = time.monotonic() + 10
    while set(_children(os.getpid())) - before and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not set(_children(os.getpid())) - before


CTRL_C = textwrap.dedent("""
    import os, sys, time
    import minitorch as torch
    from minitorch.utils.data import DataLoader, Dataset

    class Slow(Dataset):
        def __len__(self):
            return 1000
        def __getitem__(self, i):
            time.sleep(0.05)
            return torch.tensor([i])

    if __name__ == "__main__":
        loader = DataLoader(Slow(), batch_size=2, num_workers=2)
        it = iter(loader)
        next(it)
        try:
            print(" ".join(str(p.pid) for p in it._workers), flush=True)
            for _ in it:
                pass
        except KeyboardInterrupt:
            print("interrupted", flush=True)
            raise
""")


def test_ctrl_c_leaves_no_worker_behind(tmp_path):
    script = tmp_path / "ctrl_c.py"
    script.write_text(CTRL_C)
    env = dict(os.environ, PYTHONPATH=PACKAGE_DIR)
    # SIGINT's default disposition in the child: a test run started in the background by a shell
    # without job control inherits SIGINT ignored, and Python then keeps ignoring it
    proc = subprocess.Popen([sys.executable, str(script)], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, env=env, cwd=tmp_path,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    pids = [int(p) for p in proc.stdout.readline().split()]
    assert len(pids) == 2
    # a SIGINT that lands while a finalizer (__del__, a weakref callback) runs is swallowed
    # there, as in any Python program ("Exception ignored in ..."): press Ctrl-C again then
    for _ in range(20):
        proc.send_signal(signal.SIGINT)
        try:
            out, err = proc.communicate(timeout=1.0)
            break
        except subprocess.TimeoutExpired:
            continue
    else:
        out, err = proc.communicate(timeout=TIMEOUT)
    assert "interrupted" in out and "KeyboardInterrupt" in err
    deadline = time.monotonic() + 10
    alive = pids
    while alive and time.monotonic() < deadline:
        alive = [p for p in pids if os.path.exists(f"/proc/{p}") and
                 "zombie" not in open(f"/proc/{p}/status").read().lower()]
        time.sleep(0.1)
    assert not alive


def test_interpreter_exit_with_live_workers(tmp_path):
    script = tmp_path / "exit.py"
    script.write_text(textwrap.dedent("""
        import minitorch as torch
        from minitorch.utils.data import DataLoader, TensorDataset
        if __name__ == "__main__":
            it = iter(DataLoader(TensorDataset(torch.arange(100)), batch_size=2, num_workers=2))
            next(it)
            print(" ".join(str(p.pid) for p in it._workers), flush=True)
    """))
    env = dict(os.environ, PYTHONPATH=PACKAGE_DIR)
    out = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=TIMEOUT,
                         env=env, cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    for pid in map(int, out.stdout.split()):
        assert not os.path.exists(f"/proc/{pid}") or "zombie" in open(f"/proc/{pid}/status").read().lower()


@pytest.mark.parametrize("method", ["fork", "spawn"])
def test_workers_exit_when_the_main_process_is_killed(tmp_path, method):
    # the killed process stays a zombie until this test reaps it: the workers must not wait
    # for that (they get SIGTERM when their parent dies)
    script = tmp_path / "killed.py"
    script.write_text(textwrap.dedent(f"""
        import os, signal
        import minitorch as torch
        from minitorch.utils.data import DataLoader, TensorDataset
        if __name__ == "__main__":
            it = iter(DataLoader(TensorDataset(torch.arange(100)), batch_size=2, num_workers=2,
                                 multiprocessing_context="{method}"))
            next(it)
            print(" ".join(str(p.pid) for p in it._workers), flush=True)
            os.kill(os.getpid(), signal.SIGKILL)
    """))
    env = dict(os.environ, PYTHONPATH=PACKAGE_DIR)
    out = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=TIMEOUT,
                         env=env, cwd=tmp_path)
    pids = [int(p) for p in out.stdout.split()]
    assert out.returncode == -signal.SIGKILL and len(pids) == 2
    deadline = time.monotonic() + 15
    alive = pids
    while alive and time.monotonic() < deadline:
        alive = [p for p in pids if os.path.exists(f"/proc/{p}") and
                 "zombie" not in open(f"/proc/{p}/status").read().lower()]
        time.sleep(0.2)
    assert not alive


# ---- torch's private module layout, typing, warnings and errors --------------------------------
def test_private_utils_layout_is_the_same_machinery():
    from minitorch.utils.data import _collate, _fetch, _utils
    from minitorch.utils.data._utils import MP_STATUS_CHECK_INTERVAL
    from minitorch.utils.data._utils.collate import default_collate, default_convert
    from minitorch.utils.data._utils.worker import get_worker_info
    assert MP_STATUS_CHECK_INTERVAL == 5.0
    assert default_collate is _collate.default_collate and default_convert is _collate.default_convert
    assert get_worker_info is torch.utils.data.get_worker_info
    assert _utils.fetch._MapDatasetFetcher is _fetch.MapFetcher
    assert _utils.ExceptionWrapper is torch._utils.ExceptionWrapper
    assert _utils.collate.default_convert(range(2)) == [0, 1]


def test_collate_in_a_worker_goes_to_shared_memory():
    from minitorch.utils.data import _utils
    t, n = torch.zeros(1), np.zeros(1)
    assert not _utils.collate.default_collate([t]).is_shared()
    old = _utils.worker._worker_info
    try:
        _utils.worker._worker_info = "a worker"
        assert _utils.collate.default_collate([t]).is_shared()
        assert _utils.collate.default_collate([n]).is_shared()
    finally:
        _utils.worker._worker_info = old


def test_worker_info_is_read_only():
    from minitorch.utils.data._utils.worker import WorkerInfo
    info = WorkerInfo(id=1, num_workers=2, seed=7, dataset="d")
    for attr in ("id", "other"):
        with pytest.raises(RuntimeError, match="^Cannot assign attributes to WorkerInfo objects$"):
            setattr(info, attr, 3)
    assert repr(info) == "WorkerInfo(id=1, num_workers=2, seed=7, dataset=d)"


def test_numpy_state_of_a_worker_as_torch():
    from minitorch.utils.data._utils.worker import _generate_state
    # captured from torch 2.15: torch.utils.data._utils.worker._generate_state(base_seed, worker_id)
    assert _generate_state(13434589827475259383, 4) == [2884386318, 1088094898, 3523808998, 3860348662]
    assert _generate_state(5, 0) == [161328693, 2841646664, 2763651139, 2546215728]


def test_dataloader_is_generic():
    from typing import List
    assert DataLoader[List[torch.Tensor]] is not None
    assert Dataset[List[torch.Tensor]] is not None


def test_too_many_workers_warns():
    n = (os.cpu_count() or 1) * 8 + 1
    with pytest.warns(UserWarning, match=rf"This DataLoader will create {n} worker processes in total\. "
                                         r".*excessive worker creation might get DataLoader running "
                                         r"slow or even freeze"):
        DataLoader(Squares(), num_workers=n)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        DataLoader(Squares(), num_workers=1)


def test_too_many_workers_warns_once_per_new_pool():
    """As torch 2.15 (counts captured from it): once at construction, once per iterator that
    starts workers, none when persistent workers start a new epoch."""
    n = (os.cpu_count() or 1) + 1
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        counts = []
        loader = DataLoader(Squares(8), batch_size=4, num_workers=n)
        counts.append(len(caught))
        for _ in range(2):
            list(loader)
            counts.append(len(caught))
        loader = DataLoader(Squares(8), batch_size=4, num_workers=n, persistent_workers=True)
        counts.append(len(caught))
        for _ in range(2):
            list(loader)
            counts.append(len(caught))
        del loader
    assert counts == [1, 2, 3, 4, 5, 5]
    assert all("This DataLoader will create" in str(w.message) for w in caught)


class CountingWithLen(IterableDataset):
    def __init__(self, n, length):
        self.n, self.length = n, length

    def __len__(self):
        return self.length

    def __iter__(self):
        return iter(range(self.n))


@pytest.mark.parametrize("workers", [0, 2])
def test_iterable_dataset_longer_than_its_len_warns_after_len(workers):
    loader = DataLoader(CountingWithLen(6, 4), num_workers=workers)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert len(list(loader)) == 6 * max(workers, 1)     # len() not asked yet: no warning
    assert len(loader) == 4
    it = iter(loader)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for _ in range(4):
            next(it)
    tail = "For multiprocessing data-loading" if workers else "have been fetched. $"
    with pytest.warns(UserWarning, match=r"was reported to be 4\(when accessing len\(dataloader\)\), "
                                         r"but 5 samples have been fetched\."):
        next(it)
    with pytest.warns(UserWarning) as record:
        next(it)
    assert re.search(tail, str(record[0].message))
    del it


def test_batch_of_empty_tensors_from_a_worker():
    out = list(DataLoader([torch.empty(0)] * 4, batch_size=2, num_workers=1))
    assert [tuple(b.shape) for b in out] == [(2, 0), (2, 0)]
    mixed = list(DataLoader([(torch.empty(0, 3), torch.ones(2))] * 3, batch_size=3, num_workers=1))
    assert tuple(mixed[0][0].shape) == (3, 0, 3) and mixed[0][1].tolist() == [[1.0, 1.0]] * 3


@pytest.mark.parametrize("persistent", [False, True])
def test_deleting_the_iterator_ends_the_workers_at_once(persistent):
    gc.disable()                   # the workers must not wait for the cycle collector
    try:
        it = iter(DataLoader(Squares(40), batch_size=2, num_workers=2, persistent_workers=persistent))
        next(it)
        workers = list(it._workers)
        del it
        for w in workers:
            w.join(TIMEOUT)
            assert not w.is_alive()
    finally:
        gc.enable()


def test_deleting_a_persistent_loader_ends_its_workers():
    gc.disable()
    try:
        loader = DataLoader(Squares(40), batch_size=2, num_workers=2, persistent_workers=True)
        it = iter(loader)
        next(it)
        workers = list(it._workers)
        del it, loader
        for w in workers:
            w.join(TIMEOUT)
            assert not w.is_alive()
    finally:
        gc.enable()


class Segfaulting(Dataset):
    def __len__(self):
        return 4

    def __getitem__(self, i):
        # dies of SIGSEGV with the default action (a sanitizer's handler would abort instead)
        signal.signal(signal.SIGSEGV, signal.SIG_DFL)
        os.kill(os.getpid(), signal.SIGSEGV)


def _quiet(worker_id):
    import faulthandler
    faulthandler.disable()           # pytest's, inherited by a forked worker
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 2)


def test_worker_killed_by_a_signal_names_it_as_torch():
    with pytest.raises(RuntimeError, match=r"^DataLoader worker \(pid \d+\) is killed by signal: "
                                           r"Segmentation fault\. $"):
        list(DataLoader(Segfaulting(), batch_size=2, num_workers=1, worker_init_fn=_quiet))


def test_worker_failure_messages():
    from minitorch.utils.data._utils import signal_handling as sh
    assert sh.worker_failure_message(12, -signal.SIGBUS).startswith(
        "DataLoader worker (pid 12) is killed by signal: Bus error. It is possible that dataloader's "
        "workers are out of shared memory.")
    assert sh.worker_failure_message(12, 3) == (
        "DataLoader worker (pid 12) exited unexpectedly with exit code 3. Details are lost due to "
        "multiprocessing. Rerunning with num_workers=0 may give better error trace.")


def test_registered_dead_worker_is_reported():
    from minitorch.utils.data._utils import signal_handling as sh
    proc = subprocess.Popen([sys.executable, "-c", "import os, signal; signal.signal(signal.SIGSEGV, signal.SIG_DFL); "
                             "os.kill(os.getpid(), signal.SIGSEGV)"])
    sh._set_worker_pids("test", [proc.pid])
    try:
        deadline = time.monotonic() + TIMEOUT
        while True:
            try:
                sh._error_if_any_worker_fails()
            except RuntimeError as e:
                assert str(e) == f"DataLoader worker (pid {proc.pid}) is killed by signal: Segmentation fault. "
                break
            assert time.monotonic() < deadline
            time.sleep(0.05)
    finally:
        sh._remove_worker_pids("test")
        proc.wait()
    with pytest.raises(RuntimeError, match="Cannot find worker information"):
        sh._remove_worker_pids("test")


@pytest.mark.parametrize("persistent", [False, True])
def test_running_out_of_descriptors_is_torchs_error(persistent):
    script = textwrap.dedent(f"""
        import resource
        import minitorch as torch
        from minitorch.utils.data import DataLoader, IterableDataset

        class Random(IterableDataset):
            def __iter__(self):
                return (torch.randn(2, 2) for _ in range(200))

        keep = []
        resource.setrlimit(resource.RLIMIT_NOFILE, (100, 100))
        try:
            for t in DataLoader(Random(), multiprocessing_context="fork", num_workers=1,
                                persistent_workers={persistent}):
                keep.append(t)
            print("no error")
        except RuntimeError as e:
            assert "ulimit -n" in str(e) and "set_sharing_strategy" in str(e), str(e)
            print("ok")
    """)
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          timeout=TIMEOUT * 2, env={**os.environ, "PYTHONPATH": PACKAGE_DIR})
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() in ("ok", "no error")
