"""Shared-memory tensors: share_memory_/is_shared, tensors crossing processes in shared memory
(Queue, Pipe, Process and spawn arguments, Pool) under both sharing strategies, the notes'
"bad value(s) in fds_to_keep" program, lifetimes (no leaked descriptors or /dev/shm entries,
killed children) and running out of shared memory."""
import gc
import os
import pickle
import signal
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import minitorch as torch
from helpers import PACKAGE_DIR
import minitorch.multiprocessing as mp

TIMEOUT = 60
STRATEGIES = ["file_descriptor", "file_system"]


@pytest.fixture(params=STRATEGIES)
def strategy(request):
    old = mp.get_sharing_strategy()
    mp.set_sharing_strategy(request.param)
    yield request.param
    mp.set_sharing_strategy(old)


def _shm_entries():
    return {n for n in os.listdir("/dev/shm") if n.startswith("minitorch_")}


def _open_fds():
    return len(os.listdir("/proc/self/fd"))


# ---------------------------------------------------------------- in one process


def test_share_memory_in_place(strategy):
    base = torch.arange(12.).reshape(3, 4)
    view = base[1:, ::2]
    assert not base.is_shared() and not view.is_shared()
    before = base.data_ptr()
    assert base.share_memory_() is base
    assert base.is_shared() and view.is_shared()          # one storage, moved in place
    assert base.data_ptr() != before and view.untyped_storage().data_ptr() == base.data_ptr()
    assert base.tolist() == np.arange(12.).reshape(3, 4).tolist()
    view.fill_(-1)
    assert base[1].tolist() == [-1., 1 * 4 + 1, -1., 7.]
    assert base.share_memory_() is base and base.data_ptr() == base.untyped_storage().data_ptr()


def test_storage_share_memory_and_numpy_and_empty(strategy):
    s = torch.UntypedStorage(10)
    assert not s.is_shared() and s.share_memory_() is s and s.is_shared()
    typed = torch.arange(3).storage()
    assert typed.share_memory_().is_shared()
    a = np.arange(4.)
    t = torch.from_numpy(a)
    t.share_memory_()
    t.add_(1)                                            # the array keeps its own memory now
    assert a.tolist() == [0., 1., 2., 3.] and t.tolist() == [1., 2., 3., 4.]
    e = torch.empty(0).share_memory_()
    assert e.is_shared() and e.numel() == 0


def test_shared_tensors_cannot_grow(strategy):
    t = torch.zeros(4).share_memory_()
    with pytest.raises(RuntimeError):
        t.resize_(100)
    t.resize_(2)                                         # shrinking stays in the storage
    assert t.is_shared()


def test_ordinary_pickle_is_still_by_value():
    t = torch.arange(4.).share_memory_()
    u = pickle.loads(pickle.dumps(t))
    assert not u.is_shared() and u.tolist() == t.tolist()


# ---------------------------------------------------------------- across processes


def _add_hundred_and_report(views, q):
    for v in views:
        v.add_(100)
    q.put(([v.storage_offset() for v in views], len({v.untyped_storage().data_ptr() for v in views}),
           [v.is_shared() for v in views]))


@pytest.mark.parametrize("method", ["spawn", "fork", "forkserver"])
def test_split_views_to_a_spawned_process(strategy, method):
    # the notes' program: views of one tensor as Process arguments (torch: "bad value(s) in
    # fds_to_keep" under spawn)
    ctx = mp.get_context(method)
    data = torch.arange(10.)
    views = list(torch.split(data, 3))
    q = ctx.Queue()
    p = ctx.Process(target=_add_hundred_and_report, args=(views, q))
    p.start()
    offsets, storages, shared = q.get(timeout=TIMEOUT)
    p.join(TIMEOUT)
    assert p.exitcode == 0
    assert offsets == [0, 3, 6, 9] and storages == 1
    if method == "fork":
        # as torch: fork hands the child a copy-on-write image, nothing is pickled or shared
        assert not any(shared) and data.tolist() == [float(i) for i in range(10)]
    else:
        assert all(shared) and data.tolist() == [100. + i for i in range(10)]   # the change is seen


def _echo(q_in, q_out):
    while True:
        t = q_in.get(timeout=TIMEOUT)
        if t is None:
            return
        q_out.put(t)


def test_queue_round_trip_keeps_one_storage(strategy):
    ctx = mp.get_context("spawn")
    q_in, q_out = ctx.Queue(), ctx.Queue()
    p = ctx.Process(target=_echo, args=(q_in, q_out))
    p.start()
    try:
        t = torch.arange(6, dtype=torch.int32).reshape(2, 3)
        for x in (t, t.t(), t[1], torch.tensor(5.), torch.zeros(0, 3)):
            q_in.put(x)
            y = q_out.get(timeout=TIMEOUT)
            assert y.dtype == x.dtype and y.shape == x.shape and y.stride() == x.stride()
            assert y.storage_offset() == x.storage_offset() and y.tolist() == x.tolist()
            if x.numel():
                # it came back to the storage it left: the same memory, no second mapping
                assert y.untyped_storage().data_ptr() == x.untyped_storage().data_ptr()
        s = torch.arange(3.).storage()
        q_in.put(s)
        s2 = q_out.get(timeout=TIMEOUT)
        assert isinstance(s2, torch.TypedStorage) and s2.dtype == torch.float32 and s2.tolist() == [0., 1., 2.]
    finally:
        q_in.put(None)
        p.join(TIMEOUT)


def _fill_from_pipe(conn):
    t = conn.recv()
    t.fill_(7)
    conn.send("done")


def _pool_double(t):
    t.mul_(2)
    return t.sum().item()


def test_pipe_and_pool(strategy):
    ctx = mp.get_context("spawn")
    a, b = ctx.Pipe()
    p = ctx.Process(target=_fill_from_pipe, args=(b,))
    p.start()
    t = torch.zeros(5)
    a.send(t)
    assert a.recv() == "done"
    p.join(TIMEOUT)
    assert t.tolist() == [7.] * 5
    ts = [torch.full((3,), float(i)) for i in range(4)]
    pool = ctx.Pool(2)
    sums = pool.map(_pool_double, ts)
    pool.close()             # workers that exit normally give their segments back
    pool.join()              # (terminate() kills them: see Note [Shared memory])
    assert sums == [6. * i for i in range(4)]
    assert [x.tolist() for x in ts] == [[2. * i] * 3 for i in range(4)]


def _spawned_fill(i, t):
    t[i] = i + 1


def test_spawn_arguments_are_shared(strategy):
    t = torch.zeros(3)
    mp.spawn(_spawned_fill, args=(t,), nprocs=3)
    assert t.tolist() == [1., 2., 3.]


def _make_and_send(q, done):
    q.put(torch.arange(4.) * 10)        # the sender drops its tensor at once
    done.wait(TIMEOUT)


def test_a_tensor_made_in_the_child_outlives_its_reference_there(strategy):
    ctx = mp.get_context("spawn")
    q, done = ctx.Queue(), ctx.Event()
    p = ctx.Process(target=_make_and_send, args=(q, done))
    p.start()
    t = q.get(timeout=TIMEOUT)
    done.set()
    p.join(TIMEOUT)
    assert t.tolist() == [0., 10., 20., 30.] and t.is_shared()
    t.add_(1)                                           # still mapped after the child exited
    assert t.tolist() == [1., 11., 21., 31.]


# ---------------------------------------------------------------- lifetimes


def _drain(q, n, out):
    fds_before = None
    for i in range(n):
        t = q.get(timeout=TIMEOUT)
        assert t[0].item() == i
        del t
        if i == 100:
            fds_before = len(os.listdir("/proc/self/fd"))
    out.put((fds_before, len(os.listdir("/proc/self/fd"))))


@pytest.mark.parametrize("strategy_name", STRATEGIES)
def test_ten_thousand_transfers_leak_nothing(strategy_name):
    old = mp.get_sharing_strategy()
    mp.set_sharing_strategy(strategy_name)
    try:
        ctx = mp.get_context("fork")
        q, out = ctx.Queue(), ctx.Queue()
        n = 10000
        p = ctx.Process(target=_drain, args=(q, n, out))
        p.start()
        shm_before, fds_before = _shm_entries(), _open_fds()
        for i in range(n):
            q.put(torch.full((16,), float(i)))
        child_fds_mid, child_fds_end = out.get(timeout=120)
        p.join(TIMEOUT)
        assert p.exitcode == 0
        assert child_fds_end <= child_fds_mid + 2
        assert _open_fds() <= fds_before + 2          # every loan came back
        assert _shm_entries() <= shm_before
    finally:
        mp.set_sharing_strategy(old)


def _hold_and_wait(t, ready):
    t.add_(1)
    ready.set()
    import time
    time.sleep(TIMEOUT)


def test_killed_children_leave_nothing_behind():
    ctx = mp.get_context("spawn")
    fds_before, shm_before = _open_fds(), _shm_entries()
    for _ in range(3):
        t = torch.zeros(1 << 16)
        ready = ctx.Event()
        p = ctx.Process(target=_hold_and_wait, args=(t, ready))
        p.start()
        assert ready.wait(TIMEOUT)
        os.kill(p.pid, signal.SIGKILL)
        p.join(TIMEOUT)
        assert p.exitcode == -signal.SIGKILL
        assert t[0].item() == 1.0
        p.close()                         # the Process object holds its arguments
        del t, p, ready
    gc.collect()
    assert _open_fds() <= fds_before + 2
    assert _shm_entries() <= shm_before


def test_receiving_after_the_sender_exited_is_a_clear_error(tmp_path):
    script = tmp_path / "gone.py"
    script.write_text(textwrap.dedent("""
        import minitorch as torch, minitorch.multiprocessing as mp

        def send_and_exit(w):
            w.send_bytes(mp.reductions.ForkingPickler.dumps(torch.ones(3)))

        if __name__ == "__main__":
            ctx = mp.get_context("spawn")
            r, w = ctx.Pipe(duplex=False)
            p = ctx.Process(target=send_and_exit, args=(w,))
            p.start()
            data = r.recv_bytes()
            p.join()
            import pickle
            try:
                pickle.loads(data)
            except RuntimeError as e:
                print("error:", e)
    """))
    env = dict(os.environ, PYTHONPATH=PACKAGE_DIR)
    out = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=TIMEOUT,
                         env=env, cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    assert "error: a shared tensor could not be received: the process that sent it has exited" in out.stdout


# ---------------------------------------------------------------- running out


def test_exhausted_shared_memory_is_an_error_naming_sizes():
    shm_before = _shm_entries()
    with pytest.raises(MemoryError, match=r"unable to allocate \d+ bytes of shared memory"):
        torch._C._shm_new(1 << 60, "file_descriptor")
    free = os.statvfs("/dev/shm")
    too_much = free.f_bavail * free.f_frsize + (1 << 30)
    with pytest.raises(MemoryError, match=rf"unable to allocate {too_much} bytes of shared memory: "
                                          r"/dev/shm has \d+ bytes free of \d+"):
        torch._C._shm_new(too_much, "file_system")
    assert _shm_entries() <= shm_before


def test_bad_arguments():
    with pytest.raises(ValueError, match="sharing strategy"):
        torch._C._share_storage_(torch.UntypedStorage(2), "nonsense")
    with pytest.raises(TypeError):
        torch._C._shm_info(torch.ones(2))
    with pytest.raises(ValueError):
        torch._C._shm_from_fd(0, -1)
    with pytest.raises(ValueError, match="not a shared-memory segment"):
        torch._C._shm_from_fd(0, 10)                 # stdin is no segment
    with pytest.raises((ValueError, RuntimeError)):
        torch._C._shm_open("../etc/passwd", 10)
    with pytest.raises(AssertionError):
        mp.set_sharing_strategy("bogus")
