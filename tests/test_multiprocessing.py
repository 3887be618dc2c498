"""minitorch.multiprocessing: spawn / start_processes (results, a child's exception, exit
codes, signals, join=False), argument checks and the standard library re-exports.  Tensors
crossing processes in shared memory: tests/test_shared_memory.py."""
import os
import pickle
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

import minitorch as torch
import minitorch.multiprocessing as mp
from helpers import PACKAGE_DIR, free_port

ROOT = Path(__file__).resolve().parents[1]


def _env():
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([PACKAGE_DIR, env.get("PYTHONPATH", "")])
    return env


# ---------------------------------------------------------------- child functions


def _write_result(i, outdir, tensor, scale):
    # the tensor arrives as the same view of the same (now shared) memory
    t = tensor * scale + i
    np.save(os.path.join(outdir, f"{i}.npy"), t.numpy())
    with open(os.path.join(outdir, f"{i}.txt"), "w") as f:
        f.write(f"{os.getpid()}|{tensor.dtype}|{tuple(tensor.shape)}|{tensor.stride()}")


def _raise_on_one(i, slow):
    if i == 1:
        raise ValueError(f"boom from child {i}")
    time.sleep(slow)


def _stubborn(i):
    if i == 0:
        signal.signal(signal.SIGTERM, signal.SIG_IGN)  # only SIGKILL stops this one
        time.sleep(60)
    time.sleep(0.3)
    raise KeyError("second")


def _exit_with(i, codes):
    if codes[i] == "kill":
        os.kill(os.getpid(), signal.SIGKILL)
    if codes[i]:
        sys.exit(codes[i])


def _sleep(i, seconds):
    time.sleep(seconds)


def _queue_echo(i, q_in, q_out):
    t = q_in.get(timeout=20)
    q_out.put((i, t, t.sum().item()))


# ---------------------------------------------------------------- tests


def test_spawn_runs_every_index_with_tensor_args(tmp_path):
    base = torch.arange(12, dtype=torch.float64).reshape(3, 4)
    view = base.t()[1:]  # non-contiguous view of base
    assert mp.spawn(_write_result, args=(str(tmp_path), view, 2.0), nprocs=3) is None
    pids = set()
    for i in range(3):
        got = np.load(tmp_path / f"{i}.npy")
        np.testing.assert_array_equal(got, view.numpy() * 2.0 + i)
        pid, dtype, shape, stride = (tmp_path / f"{i}.txt").read_text().split("|")
        pids.add(pid)
        assert dtype == str(torch.float64) and shape == "(3, 3)" and stride == str(view.stride())
    assert len(pids) == 3 and str(os.getpid()) not in pids
    # the parent's tensor is untouched
    np.testing.assert_array_equal(base.numpy(), np.arange(12.0).reshape(3, 4))


def test_spawn_child_exception_terminates_the_others():
    start = time.monotonic()
    with pytest.raises(mp.ProcessRaisedException) as info:
        mp.spawn(_raise_on_one, args=(60,), nprocs=3)
    elapsed = time.monotonic() - start
    e = info.value
    assert e.error_index == 1 and isinstance(e.pid, int)
    msg = str(e)
    assert "-- Process 1 terminated with the following error:" in msg
    assert "Traceback (most recent call last):" in msg
    assert "ValueError: boom from child 1" in msg and "_raise_on_one" in msg
    assert elapsed < 30  # the sleeping children were terminated, not waited for
    assert isinstance(e, mp.ProcessException) and isinstance(e, Exception)
    e2 = pickle.loads(pickle.dumps(e))
    assert type(e2) is mp.ProcessRaisedException and e2.error_index == 1 and str(e2) == msg


def test_spawn_exit_codes_and_signals():
    with pytest.raises(mp.ProcessExitedException, match="process 1 terminated with exit code 3") as info:
        mp.spawn(_exit_with, args=([0, 3],), nprocs=2)
    assert info.value.exit_code == 3 and info.value.error_index == 1 and info.value.signal_name is None
    with pytest.raises(mp.ProcessExitedException, match="process 0 terminated with signal SIGKILL") as info:
        mp.start_processes(_exit_with, args=(["kill"],), nprocs=1, start_method="fork")
    assert info.value.exit_code == -signal.SIGKILL and info.value.signal_name == "SIGKILL"
    # sys.exit(0) is a success
    assert mp.start_processes(_exit_with, args=([0, 0],), nprocs=2, start_method="fork") is None


def test_grace_period_then_kill():
    ctx = mp.start_processes(_stubborn, nprocs=2, join=False, start_method="fork")
    start = time.monotonic()
    with pytest.raises(mp.ProcessRaisedException, match="KeyError: 'second'"):
        while not ctx.join(grace_period=0.5):
            pass
    assert time.monotonic() - start < 20
    assert not ctx.processes[0].is_alive() and ctx.processes[0].exitcode == -signal.SIGKILL


def test_join_false_context():
    ctx = mp.spawn(_sleep, args=(1.5,), nprocs=2, join=False)
    assert isinstance(ctx, mp.ProcessContext)
    pids = ctx.pids()
    assert len(pids) == 2 and all(isinstance(p, int) and p > 0 for p in pids)
    assert ctx.join(timeout=0.01) is False
    deadline = time.monotonic() + 30
    while not ctx.join(timeout=1):
        assert time.monotonic() < deadline
    assert ctx.join() is True  # joining again is a no-op
    with pytest.raises(TypeError, match="timeout"):
        ctx.join(timeout="1")
    with pytest.raises(TypeError, match="grace_period must be a number"):
        ctx.join(grace_period="1")


def test_argument_checks():
    for bad in (0, -2):
        with pytest.raises(ValueError, match="nprocs must be at least 1"):
            mp.spawn(_sleep, args=(0,), nprocs=bad)
    for bad in ("2", 2.0, True):
        with pytest.raises(TypeError, match="nprocs must be an int"):
            mp.spawn(_sleep, args=(0,), nprocs=bad)
    with pytest.raises(TypeError, match="args must be a tuple"):
        mp.spawn(_sleep, args=[0], nprocs=1)
    with pytest.raises(TypeError, match="fn must be callable"):
        mp.spawn(42, nprocs=1)
    with pytest.raises(ValueError, match="cannot find context for 'nope'"):
        mp.start_processes(_sleep, args=(0,), start_method="nope")
    with pytest.warns(FutureWarning, match="only supports start_method=spawn"):
        mp.spawn(_sleep, args=(0,), nprocs=1, start_method="fork")


def test_reexports_and_sharing_strategy():
    import multiprocessing as std

    for name in ("Process", "Queue", "Pool", "Manager", "set_start_method", "get_start_method",
                 "get_context", "cpu_count", "current_process"):
        assert getattr(mp, name) is getattr(std, name), name
        assert name in mp.__all__
    assert torch.multiprocessing is mp
    assert mp.get_all_sharing_strategies() == {"file_descriptor", "file_system"}
    old = mp.get_sharing_strategy()
    try:
        mp.set_sharing_strategy("file_system")
        assert mp.get_sharing_strategy() == "file_system"
        with pytest.raises(AssertionError, match="invalid sharing strategy"):
            mp.set_sharing_strategy("shm")
    finally:
        mp.set_sharing_strategy(old)


def test_queue_carries_views_both_ways():
    ctx = mp.get_context("spawn")
    q_in, q_out = ctx.Queue(), ctx.Queue()
    base = torch.arange(10, dtype=torch.int32)
    views = torch.split(base, 3)
    pctx = mp.start_processes(_queue_echo, args=(q_in, q_out), nprocs=len(views), join=False)
    for v in views:
        q_in.put(v)
    got = sorted((q_out.get(timeout=30) for _ in views), key=lambda r: r[2])
    while not pctx.join(timeout=30):
        pass
    sums = sorted(int(v.sum().item()) for v in views)
    assert [r[2] for r in got] == sums
    for (_, t, _), v in zip(got, sorted(views, key=lambda v: int(v.sum().item()))):
        assert t.dtype == torch.int32
        np.testing.assert_array_equal(t.numpy(), v.numpy())


FDS_TO_KEEP_PROGRAM = '''
import torch, os
import torch.distributed as dist
import torch.multiprocessing as mp

def run(rank, size):
    """ Distributed function to be implemented later. """
    print(f'rank {rank} of {size}')

def init_process(rank, size, data, fn, backend='gloo'):
    """ Initialize the distributed environment. """
    os.environ['MASTER_ADDR'] = '127.0.0.1'
    os.environ['MASTER_PORT'] = '29500'
    dist.init_process_group(backend, rank=rank, world_size=size)
    fn(rank, size)

def processes(data):
    size = len(data)
    processes = []
    for rank in range(size):
        p = mp.Process(target=init_process, args=(rank, size, data, run))
        p.start()
        processes.append(p)
    for p in processes:
        p.join()

if __name__ == "__main__":
    mp.set_start_method("spawn")
    size_vector = 133
    part = int(size_vector/8)
    indices = torch.arange(size_vector)
    split_data = torch.split(indices, part)
    print(split_data)
    processes(split_data)
'''


def test_fds_to_keep_program(tmp_path):
    # the users' notes' program, verbatim but for the imports and the port: torch.split views passed to
    # mp.Process with the spawn start method; nine ranks join one process group
    script = tmp_path / "fds_to_keep.py"
    program = (FDS_TO_KEEP_PROGRAM.replace("import torch, os", "import minitorch as torch, os")
               .replace("import torch.", "import minitorch.")
               .replace("'29500'", f"'{free_port()}'"))
    script.write_text(program)
    proc = subprocess.run([sys.executable, str(script)], capture_output=True, text=True,
                          timeout=90, env=_env(), cwd=tmp_path)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "fds_to_keep" not in proc.stderr and "Traceback" not in proc.stderr, proc.stderr
    lines = proc.stdout.splitlines()
    assert lines[0].startswith("(tensor([ 0,  1,  2,"), lines[0]
    ranks = sorted(re.findall(r"rank \d+ of \d+", proc.stdout))  # lines of ranks may interleave
    assert ranks == sorted(f"rank {r} of 9" for r in range(9)), proc.stdout


def test_fds_to_keep_data_arrives(tmp_path):
    # the same pattern, checking what each child received
    split = torch.split(torch.arange(133), 16)
    out = tmp_path / "out"
    out.mkdir()
    procs = [mp.get_context("spawn").Process(target=_write_result,
                                             args=(r, str(out), split[r], 1)) for r in range(3)]
    for p in procs:
        p.start()
    for p in procs:
        p.join(60)
        assert p.exitcode == 0
    for r in range(3):
        np.testing.assert_array_equal(np.load(out / f"{r}.npy"), split[r].numpy() + r)


# ---- requires_grad across processes (as torch) ---------------------------------------------------
def test_leaf_keeps_requires_grad_through_a_queue_pickle():
    from multiprocessing.reduction import ForkingPickler
    t = torch.arange(3.0).requires_grad_()
    back = pickle.loads(ForkingPickler.dumps(t))
    assert back.requires_grad and back.is_leaf and back.grad_fn is None
    assert not pickle.loads(ForkingPickler.dumps(torch.ones(2))).requires_grad
    p = torch.nn.Parameter(torch.tensor(0), requires_grad=False)
    q = pickle.loads(ForkingPickler.dumps(p))
    assert type(q) is torch.nn.Parameter and not q.requires_grad


def test_non_leaf_requiring_grad_is_refused():
    t = torch.arange(3.0).requires_grad_() * 2
    q = mp.SimpleQueue()
    with pytest.raises(RuntimeError, match=r"^Cowardly refusing to serialize non-leaf tensor which "
                                           r"requires_grad, since autograd does not support crossing "
                                           r"process boundaries\.  If you just want to transfer the "
                                           r"data, call detach\(\) on the tensor before serializing "
                                           r"\(e\.g\., putting it on the queue\)\.$"):
        q.put(t)
    q.put(t.detach())
    assert q.get().tolist() == [0.0, 2.0, 4.0]


def _report_requires_grad(queue, out):
    out.put(queue.get().requires_grad)


@pytest.mark.parametrize("method", ["fork", "spawn"])
def test_requires_grad_arrives_in_a_child(method):
    ctx = mp.get_context(method)
    queue, out = ctx.Queue(), ctx.Queue()
    p = ctx.Process(target=_report_requires_grad, args=(queue, out), daemon=True)
    p.start()
    queue.put(torch.ones(2, 2).requires_grad_())
    assert out.get(timeout=60) is True
    p.join(60)
    assert p.exitcode == 0


def _check_shared_variable(queue, ready, modified, is_parameter):
    var = queue.get()
    ready.set()
    modified.wait()
    expected = torch.arange(1.0, 26).view(5, 5)
    expected[0, 0] = 1000
    ok = var.data.equal(expected) and var.grad is None and not var._backward_hooks
    ok = ok and type(var) is (torch.nn.Parameter if is_parameter else torch.Tensor)
    var.data[:] = torch.ones(5, 5)
    var._grad = torch.ones(5, 5)                   # the child's own .grad
    queue.put(ok)


@pytest.mark.parametrize("is_parameter", [False, True])
def test_shared_variable_keeps_type_and_data_not_grad_or_hooks(is_parameter):
    var = torch.arange(1.0, 26).view(5, 5).requires_grad_()
    if is_parameter:
        var = torch.nn.Parameter(var.detach())
    var.register_hook(lambda g: g)
    assert list(var._backward_hooks) == [0]
    var._grad = torch.zeros(5, 5)
    assert var.grad is var._grad
    ctx = mp.get_context("fork")
    queue, ready, modified = ctx.Queue(), ctx.Event(), ctx.Event()
    p = ctx.Process(target=_check_shared_variable, args=(queue, ready, modified, is_parameter),
                    daemon=True)
    p.start()
    queue.put(var)
    assert ready.wait(60)
    var.data[0, 0] = 1000
    var.grad.data[:] = 4
    modified.set()
    assert queue.get(timeout=60) is True
    assert var.data.equal(torch.ones(5, 5)) and var.grad.equal(torch.full((5, 5), 4.0))
    p.join(60)
    assert p.exitcode == 0


def test_views_through_a_queue_keep_one_storage():
    x = torch.randn(5, 5)
    data = [x.storage(), x, x[2], x[:, 1]]
    q = mp.Queue()
    q.put(data)
    back = q.get(timeout=60)
    assert back[0]._cdata == data[0]._cdata
    assert all(t.storage()._cdata == data[0]._cdata for t in back[1:])
    assert back[1].equal(x) and back[3].equal(x[:, 1])


def _name_thread(out):
    mp._set_thread_name("loader thread x")
    out.append(mp._get_thread_name())


def test_thread_names():
    import threading
    out = []
    t = threading.Thread(target=_name_thread, args=(out,))
    t.start()
    t.join()
    assert out == ["loader thread x"]
