"""minitorch.futures.Future (as torch.futures) and Work.get_future()."""
import threading
import time
from datetime import timedelta

import pytest

import minitorch as torch
import minitorch.distributed as dist
from minitorch.futures import Future, collect_all, wait_all
from test_distributed_support import run_ranks


def test_set_result_then_wait_value():
    f = Future()
    assert not f.done()
    with pytest.raises(RuntimeError, match="before the future completed"):
        f.value()
    f.set_result(3)
    assert f.done() and f.wait() == 3 and f.value() == 3
    with pytest.raises(RuntimeError, match="completed once"):
        f.set_result(4)
    with pytest.raises(RuntimeError, match="completed once"):
        f.set_exception(ValueError("x"))
    assert f.value() == 3


def test_exception_is_raised_by_wait_and_value():
    f = Future()
    f.set_exception(KeyError("gone"))
    with pytest.raises(KeyError, match="gone"):
        f.wait()
    with pytest.raises(KeyError):
        f.value()
    with pytest.raises(TypeError, match="expects an exception"):
        Future().set_exception("not an exception")


def test_wait_blocks_until_another_thread_sets():
    f = Future()
    threading.Timer(0.1, f.set_result, args=("late",)).start()
    t0 = time.monotonic()
    assert f.wait() == "late"
    assert time.monotonic() - t0 >= 0.05


def test_then_chains_and_carries_exceptions():
    f = Future()
    g = f.then(lambda fut: fut.value() * 2)
    h = g.then(lambda fut: fut.value() + 1)
    bad = f.then(lambda fut: 1 / 0)
    assert not g.done()
    f.set_result(5)
    assert g.wait() == 10 and h.wait() == 11
    with pytest.raises(ZeroDivisionError):
        bad.wait()
    # registering on a completed future runs the callback at once
    assert f.then(lambda fut: fut.value() - 5).value() == 0
    # an exception flows through a callback that reads value()
    e = Future()
    passed = e.then(lambda fut: fut.value())
    e.set_exception(ValueError("first"))
    with pytest.raises(ValueError, match="first"):
        passed.wait()
    with pytest.raises(TypeError):
        f.then(3)


def test_add_done_callback_runs_once_and_swallows_errors(caplog):
    f = Future()
    seen = []
    f.add_done_callback(lambda fut: seen.append(fut.value()))
    f.add_done_callback(lambda fut: 1 / 0)  # logged, not raised by set_result
    f.set_result("v")
    f.add_done_callback(lambda fut: seen.append("late"))
    assert seen == ["v", "late"]
    assert "callback raised" in caplog.text
    with pytest.raises(TypeError):
        f.add_done_callback(None)


def test_collect_all_and_wait_all():
    fs = [Future() for _ in range(3)]
    allf = collect_all(fs)
    for i, f in enumerate(reversed(fs)):
        assert not allf.done()
        f.set_result(i)
    assert allf.wait() == fs
    assert wait_all(fs) == [2, 1, 0]
    assert collect_all([]).wait() == []
    fs[0:1] = [Future()]
    fs[0].set_exception(RuntimeError("bad"))
    with pytest.raises(RuntimeError, match="bad"):
        wait_all(fs)
    with pytest.raises(TypeError):
        collect_all([1, 2])


def test_devices_must_be_cpu():
    Future(devices=["cpu"])
    with pytest.raises(ValueError, match="CPU"):
        Future(devices=["cuda:0"])


def _job_future(rank, ws, init_method):
    dist.init_process_group("gloo", init_method=init_method, rank=rank, world_size=ws,
                            timeout=timedelta(seconds=20))
    t = torch.full((5,), float(rank + 1))
    w = dist.all_reduce(t, async_op=True)
    fut = w.get_future()
    assert w.get_future() is fut
    doubled = fut.then(lambda f: f.value()[0] * 2)
    out = fut.wait()
    assert len(out) == 1 and out[0] is t
    res = [t.tolist(), doubled.wait().tolist()]
    # a non-contiguous output is written back before the future completes
    nc = torch.zeros(4, 2).t()
    fut2 = dist.all_gather_into_tensor(nc, torch.full((1, 4), float(rank)),
                                       async_op=True).get_future()
    res.append(fut2.wait()[0].tolist())
    dist.destroy_process_group()
    return res


def test_work_get_future():
    res = run_ranks(_job_future, 2, timeout=30)
    for r in res:
        assert r[0] == [3.0] * 5 and r[1] == [6.0] * 5
        assert r[2] == [[0.0] * 4, [1.0] * 4]


def _job_future_error(rank, ws, init_method):
    dist.init_process_group("gloo", init_method=init_method, rank=rank, world_size=ws,
                            timeout=timedelta(seconds=1))
    if rank == 1:
        time.sleep(3)  # never joins the collective
        return None
    fut = dist.all_reduce(torch.ones(4), async_op=True).get_future()
    then = fut.then(lambda f: f.value())
    try:
        fut.wait()
        return "no error"
    except dist.DistBackendError as e:
        first = str(e)
    try:
        then.wait()
        return "no error in then"
    except dist.DistBackendError:
        pass
    return first


def test_work_future_carries_the_timeout():
    res = run_ranks(_job_future_error, 2, timeout=30)
    assert "timed out" in res[0] and "rank 1" in res[0], res


def test_future_is_generic_as_torch():
    # torch.futures.Future[T] names the value's type in annotations
    alias = Future[torch.Tensor]
    assert alias.__origin__ is Future

    def hook(bucket) -> Future[torch.Tensor]:
        f = Future()
        f.set_result(torch.ones(2))
        return f
    assert hook(None).wait().tolist() == [1.0, 1.0]
