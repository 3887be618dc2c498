"""Faults: dead and hung peers, timeouts, ports in use, wrong rank/world_size, use after destroy.

Survivors must raise (naming the peer) within the group's timeout, never hang.
"""
import os
import socket
import time
from datetime import timedelta

import pytest

import minitorch as torch
import minitorch.distributed as dist
from test_distributed_support import free_port, run_ranks


def _job_killed(rank, ws, init_method):
    dist.init_process_group("gloo", init_method=init_method, rank=rank, world_size=ws,
                            timeout=timedelta(seconds=20))
    t = torch.ones(1 << 16)
    dist.all_reduce(t)  # everybody is there once
    if rank == ws - 1:
        os._exit(3)  # dies without a goodbye
    t0 = time.monotonic()
    try:
        for _ in range(50):
            dist.all_reduce(t)
        raise AssertionError("all_reduce with a dead peer did not raise")
    except dist.DistBackendError as e:
        msg = str(e)
    took = time.monotonic() - t0
    # a later operation fails at once with the first error
    t1 = time.monotonic()
    try:
        dist.broadcast(t, 0)
        raise AssertionError("the broken group accepted more work")
    except dist.DistBackendError as e:
        later = str(e)
    return msg, took, later, time.monotonic() - t1


def test_killed_rank_makes_survivors_raise_in_time():
    ws = 3
    res = run_ranks(_job_killed, ws, expect_fail={ws - 1}, timeout=40)
    # the first survivor to notice names the dead rank; the others may see that
    # survivor leave first, and name it
    assert any(f"rank {ws - 1}" in r[0] for r in res[:-1]), res
    for msg, took, later, took2 in res[:-1]:
        assert "connection to rank" in msg or "timed out" in msg, msg
        assert took < 15, took  # well inside the 20 s group timeout: the closed socket is seen
        assert took2 < 1 and "earlier error" in later


def _job_hung(rank, ws, init_method):
    dist.init_process_group("gloo", init_method=init_method, rank=rank, world_size=ws,
                            timeout=timedelta(seconds=1))
    if rank == 1:
        time.sleep(3)  # never joins the collective
        return None
    t0 = time.monotonic()
    try:
        dist.all_reduce(torch.ones(4))
        raise AssertionError("all_reduce with a hung peer did not raise")
    except dist.DistBackendError as e:
        return str(e), time.monotonic() - t0


def test_hung_peer_times_out():
    res = run_ranks(_job_hung, 2, timeout=30)
    msg, took = res[0]
    assert "timed out" in msg and "rank 1" in msg, msg
    assert 0.8 < took < 5, took


def _job_wait_timeout(rank, ws, init_method):
    dist.init_process_group("gloo", init_method=init_method, rank=rank, world_size=ws,
                            timeout=timedelta(seconds=20))
    if rank == 1:
        time.sleep(1.5)
    t = torch.ones(8)
    w = dist.all_reduce(t, async_op=True)
    res = None
    if rank == 0:
        t0 = time.monotonic()
        try:
            w.wait(timeout=timedelta(milliseconds=200))
            res = "no timeout"
        except dist.DistError as e:
            res = (str(e), time.monotonic() - t0)
    w.wait()  # the operation itself still completes
    return res, t.tolist()


def test_work_wait_timeout():
    res = run_ranks(_job_wait_timeout, 2, timeout=30)
    (msg, took), vals = res[0]
    assert took < 1.2, took
    assert vals == [2.0] * 8 and res[1][1] == [2.0] * 8


def _job_mismatch(rank, ws, init_method):
    dist.init_process_group("gloo", init_method=init_method, rank=rank, world_size=ws,
                            timeout=timedelta(seconds=5))
    t = torch.ones(4 + rank)  # sizes disagree: detected, not silently mixed
    t0 = time.monotonic()
    try:
        dist.all_reduce(t)
        return "no error", 0.0
    except dist.DistError as e:
        return str(e), time.monotonic() - t0


def test_mismatched_sizes_raise():
    res = run_ranks(_job_mismatch, 2, timeout=30)
    for msg, took in res:
        assert msg != "no error" and took < 6, (msg, took)


def _job_wrong_world(rank, ws, init_method, port):
    os.environ.update(MASTER_ADDR="127.0.0.1", MASTER_PORT=str(port))
    t0 = time.monotonic()
    try:
        # rank 1 believes the job has 3 ranks
        dist.init_process_group("gloo", rank=rank, world_size=2 + rank,
                                timeout=timedelta(seconds=2))
        dist.all_reduce(torch.ones(1))
        return "no error", 0.0
    except (dist.DistError, RuntimeError, ValueError) as e:
        return type(e).__name__, time.monotonic() - t0


def test_wrong_world_size_fails_in_time():
    res = run_ranks(_job_wrong_world, 2, free_port(), timeout=30)
    for name, took in res:
        assert name != "no error" and took < 10, res


def _job_same_rank(rank, ws, init_method, port):
    os.environ.update(MASTER_ADDR="127.0.0.1", MASTER_PORT=str(port))
    t0 = time.monotonic()
    try:
        dist.init_process_group("gloo", rank=0, world_size=2, timeout=timedelta(seconds=2))
        dist.all_reduce(torch.ones(1))
        return "no error", 0.0
    except (dist.DistError, RuntimeError) as e:
        return str(e), time.monotonic() - t0


def test_two_processes_claiming_rank_0():
    res = run_ranks(_job_same_rank, 2, free_port(), timeout=30)
    for msg, took in res:
        assert msg != "no error" and took < 10, res


def test_master_port_in_use(monkeypatch):
    with socket.socket() as sock:
        sock.bind(("0.0.0.0", 0))
        sock.listen()
        monkeypatch.setenv("MASTER_ADDR", "127.0.0.1")
        monkeypatch.setenv("MASTER_PORT", str(sock.getsockname()[1]))
        with pytest.raises(dist.DistNetworkError):
            dist.init_process_group("gloo", rank=0, world_size=1, timeout=timedelta(seconds=2))
    assert not dist.is_initialized()


def test_use_after_destroy():
    dist.init_process_group("gloo", store=dist.HashStore(), rank=0, world_size=1)
    g = dist.new_group()
    w = dist.all_reduce(torch.ones(3), async_op=True)
    dist.destroy_process_group()  # unregisters: the queued work goes on
    assert w.wait() and w.is_success()
    with pytest.raises(ValueError, match="is not registered"):
        dist.get_rank(g)
    with pytest.raises(ValueError, match="Invalid process group specified"):
        dist.destroy_process_group(g)
    with pytest.raises(ValueError, match="not been initialized"):
        dist.broadcast(torch.ones(1), 0)
    with pytest.raises(ValueError, match="not been initialized"):
        dist.get_world_size()
    # and a fresh init works again
    dist.init_process_group("gloo", store=dist.HashStore(), rank=0, world_size=1)
    t = torch.ones(2)
    dist.all_reduce(t)
    dist.destroy_process_group()
    assert t.tolist() == [1.0, 1.0]


def _job_monitored(rank, ws, init_method):
    dist.init_process_group("gloo", init_method=init_method, rank=rank, world_size=ws,
                            timeout=timedelta(seconds=10))
    dist.monitored_barrier(timeout=timedelta(seconds=5))  # everybody arrives
    import warnings
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        dist.monitored_barrier(timeout=5.0)               # seconds, with torch's warning
    assert any("Please specify timeout arg as a timedelta" in str(x.message) for x in w)
    out = []
    for wait_all in (True, False):
        if rank == 2:                                    # never arrives
            out.append(None)
        else:
            try:
                dist.monitored_barrier(timeout=timedelta(seconds=1), wait_all_ranks=wait_all)
                out.append("no error")
            except RuntimeError as e:
                out.append(str(e))
        dist.barrier()
    sub = dist.new_group([0, 1])  # every rank calls new_group
    if rank == 0:
        # rank 0 out of time before it hears from anybody
        try:
            sub.monitored_barrier(timedelta(seconds=0))
        except RuntimeError as e:
            out.append(str(e))
    return out


def test_monitored_barrier_names_missing_rank():
    res = run_ranks(_job_monitored, 3, timeout=30)
    all0, first0, zero0 = res[0]
    assert all0 == "[Rank 0]: Ranks 2 failed to pass monitoredBarrier in 1000 ms", res
    assert first0.startswith("[Rank 0]: Rank 2 failed to pass monitoredBarrier in 1000 ms\n"
                             " Original exception: \n"), res
    assert "Rank 0 timed out in monitoredBarrier after 0 ms.\n" \
           "No ranks successfully processed in monitoredBarrier." in zero0, res
    for msg in res[1]:
        assert msg.startswith("Rank 1 successfully reached monitoredBarrier, but received errors "
                              "while waiting for send/recv from rank 0."), res
        assert "failed to pass monitoredBarrier" in msg, res
    assert res[2] == [None, None]


def test_monitored_barrier_bad_timeout():
    dist.init_process_group("gloo", store=dist.HashStore(), rank=0, world_size=1)
    try:
        with pytest.raises(TypeError, match="timedelta"):
            dist.monitored_barrier(timeout="1s")
        dist.monitored_barrier(timeout=timedelta(seconds=0))  # nobody to wait for
    finally:
        dist.destroy_process_group()


def _job_interrupt(rank, ws, init_method):
    import signal

    dist.init_process_group("gloo", init_method=init_method, rank=rank, world_size=ws,
                            timeout=timedelta(seconds=10))
    if rank == 1:
        time.sleep(1.5)
        dist.all_reduce(torch.ones(2))
        return None

    def _alarm(signum, frame):
        raise KeyboardInterrupt

    signal.signal(signal.SIGALRM, _alarm)
    t = torch.ones(2)
    w = dist.all_reduce(t, async_op=True)
    signal.setitimer(signal.ITIMER_REAL, 0.3)
    t0 = time.monotonic()
    try:
        w.wait()
        interrupted = False
    except KeyboardInterrupt:
        interrupted = True
    took = time.monotonic() - t0
    w.wait()  # the operation still completes once the peer arrives
    return interrupted, took, t.tolist()


def test_ctrl_c_interrupts_a_wait():
    interrupted, took, vals = run_ranks(_job_interrupt, 2, timeout=30)[0]
    assert interrupted and took < 1.0, (interrupted, took)
    assert vals == [2.0, 2.0]
