"""The shared-memory transport (Note [Shared-memory transport], Note [Choosing a transport]):
chosen for ranks on one host, every collective and point-to-point operation over it, dead
peers, stale segments, nothing left in /dev/shm."""
import os
import struct
import time
from datetime import timedelta
from multiprocessing import shared_memory

import pytest

import minitorch as torch
import minitorch.distributed as dist
from test_distributed_support import run_ranks


def _shm_entries():
    return {n for n in os.listdir("/dev/shm") if n.startswith("minitorch-shm-")}


def _job_transport(rank, ws, init_method):
    dist.init_process_group("gloo", init_method=init_method, rank=rank, world_size=ws)
    sub = dist.new_group(list(range(ws)))
    names = tuple(g._get_backend("cpu")._cgroup.transport()
                  for g in (dist.distributed_c10d._get_default_group(), sub))
    t = torch.ones(3)
    dist.all_reduce(t, group=sub)
    return names, t.tolist()


@pytest.mark.parametrize("mode,want", [(None, "shm"), ("auto", "shm"), ("shm", "shm"), ("tcp", "tcp")])
def test_ranks_on_one_host_use_shared_memory(mode, want):
    env = {} if mode is None else {"MINITORCH_TRANSPORT": mode}
    for names, t in run_ranks(_job_transport, 2, env=env):
        assert names == (want, want) and t == [2.0, 2.0, 2.0]


def test_naming_an_interface_asks_for_tcp():
    for names, _ in run_ranks(_job_transport, 2, env={"MINITORCH_SOCKET_IFNAME": "lo"}):
        assert names == ("tcp", "tcp")


def _job_bad_mode(rank, ws, init_method):
    try:
        dist.init_process_group("gloo", init_method=init_method, rank=rank, world_size=ws,
                                timeout=timedelta(seconds=5))
    except ValueError as e:
        return str(e)
    return "no error"


def test_unknown_transport_is_an_error():
    for msg in run_ranks(_job_bad_mode, 2, env={"MINITORCH_TRANSPORT": "rdma"}):
        assert "MINITORCH_TRANSPORT=rdma: expected auto, shm or tcp" in msg


def _job_collectives(rank, ws, init_method):
    dist.init_process_group("gloo", init_method=init_method, rank=rank, world_size=ws)
    out = {}
    # sizes around and far beyond one ring (16 MiB per group: 1 MiB rings at 2-4 ranks)
    for n in (0, 1, 5, 4097, (1 << 18) + 3, 3 << 20):
        for dt in (torch.float32, torch.float64, torch.int64):
            t = torch.full((n,), rank + 1, dtype=dt)
            dist.all_reduce(t)
            assert bool((t == ws * (ws + 1) // 2).all()), (n, dt)
    t = torch.arange(6, dtype=torch.float32) * (rank + 1)
    dist.all_reduce(t, op=dist.ReduceOp.MAX)
    out["max"] = t.tolist()
    a = torch.full((3,), float(rank), dtype=torch.float64)
    dist.all_reduce(a, op=dist.ReduceOp.AVG)
    out["avg"] = a.tolist()
    # a dtype mismatch between ranks (same byte count) is an error, not mixed data
    try:
        dist.all_reduce(torch.ones(2, dtype=torch.float64 if rank == 0 else torch.int64))
        out["mismatch"] = "no error"
    except dist.DistError as e:
        out["mismatch"] = str(e)
    dist.destroy_process_group()
    dist.init_process_group("gloo", init_method=init_method + "-2", rank=rank, world_size=ws)
    x = torch.arange(1 << 20, dtype=torch.float32) if rank == 1 else torch.zeros(1 << 20)
    dist.broadcast(x, 1)
    out["bcast"] = bool(x.eq(torch.arange(1 << 20, dtype=torch.float32)).all())
    r = torch.full((3,), float(rank))
    dist.reduce(r, 0)
    out["reduce"] = r.tolist() if rank == 0 else None
    outs = [torch.zeros(2, 3) for _ in range(ws)]
    dist.all_gather(outs, torch.full((2, 3), float(rank)))
    out["all_gather"] = [o[0, 0].item() for o in outs]
    g = torch.zeros(ws * 4)
    dist.all_gather_into_tensor(g, torch.full((4,), float(rank)))
    out["agit"] = g.tolist()
    rs = torch.zeros(2)
    dist.reduce_scatter(rs, [torch.full((2,), float(rank + i)) for i in range(ws)])
    out["reduce_scatter"] = rs.tolist()
    a2a_in = torch.arange(ws, dtype=torch.float32) + 10 * rank
    a2a_out = torch.zeros(ws)
    dist.all_to_all_single(a2a_out, a2a_in)
    out["a2a"] = a2a_out.tolist()
    gl = [torch.zeros(2) for _ in range(ws)] if rank == 0 else None
    dist.gather(torch.full((2,), float(rank)), gl, dst=0)
    out["gather"] = [x[0].item() for x in gl] if rank == 0 else None
    sc = torch.zeros(2)
    dist.scatter(sc, [torch.full((2,), float(i)) for i in range(ws)] if rank == 0 else None, src=0)
    out["scatter"] = sc.tolist()
    # point to point: in order per pair, any source, a message larger than a ring
    if rank == 0:
        for i in range(3):
            dist.send(torch.full((1 << 19,), float(i)), 1)
        srcs = sorted(dist.recv(torch.zeros(1)) for _ in range(ws - 1))
        out["any_source"] = srcs
    else:
        if rank == 1:
            got = []
            for _ in range(3):
                y = torch.zeros(1 << 19)
                dist.recv(y, 0)
                got.append(y[0].item())
            out["p2p"] = got
        dist.send(torch.ones(1), 0)
    dist.barrier()
    return out


def _check_collectives(res):
    """The results of _job_collectives on every rank."""
    ws = len(res)
    for rank, out in enumerate(res):
        assert out["max"] == [x * ws for x in range(6)]
        assert out["avg"] == [sum(range(ws)) / ws] * 3
        assert out["bcast"]
        assert out["all_gather"] == [float(r) for r in range(ws)]
        assert out["agit"] == [float(r) for r in range(ws) for _ in range(4)]
        assert out["reduce_scatter"] == [float(sum(r + rank for r in range(ws)))] * 2
        assert out["a2a"] == [float(rank + 10 * r) for r in range(ws)]
        assert out["scatter"] == [float(rank)] * 2
    assert res[0]["reduce"] == [float(sum(range(ws)))] * 3
    assert res[0]["gather"] == [float(r) for r in range(ws)]
    assert res[0]["any_source"] == list(range(1, ws))
    assert res[1]["p2p"] == [0.0, 1.0, 2.0]


@pytest.mark.parametrize("ws", [2, 3])
def test_collectives_over_shared_memory(ws):
    before = _shm_entries()
    res = run_ranks(_job_collectives, ws, env={"MINITORCH_TRANSPORT": "shm"}, timeout=120)
    _check_collectives(res)
    for out in res:
        assert "different collectives or used tensors of different sizes" in out["mismatch"]
    assert _shm_entries() <= before  # the segment's name is removed once every rank has it


def _job_on_hosts(rank, ws, init_method, hosts, job):
    # MINITORCH_HOST_ID stands for the host's identity: ranks with different ids are on
    # different hosts as far as the transport choice goes
    os.environ["MINITORCH_HOST_ID"] = hosts[rank]
    out = job(rank, ws, init_method)
    name = None
    if dist.is_initialized():
        name = dist.distributed_c10d._get_default_group()._get_backend("cpu")._cgroup.transport()
    return name, out


@pytest.mark.parametrize("hosts,want", [
    ("aab", "shm+tcp"),   # two ranks share a host, one is elsewhere
    ("abab", "shm+tcp"),  # two hosts of two, ranks interleaved
    ("ab", "tcp"),        # nobody shares a host
])
def test_groups_over_several_hosts_route_by_peer(hosts, want):
    # Note [Routing by peer]: shared memory to the peers on the same host, TCP to the others;
    # every collective and point-to-point pattern gives the results it gives on one host
    ws = len(hosts)
    res = run_ranks(_job_on_hosts, ws, list(hosts), _job_collectives, timeout=180)
    assert [name for name, _ in res] == [want] * ws
    _check_collectives([out for _, out in res])


def test_a_killed_rank_on_a_shared_host_is_an_error_naming_it():
    # ranks 0 and 2 share a host, rank 1 is elsewhere; the last rank dies
    res = run_ranks(_job_on_hosts, 3, ["a", "b", "a"], _job_killed, expect_fail={2}, timeout=60)
    for name, (msg, took) in res[:2]:
        assert name == "shm+tcp"
        assert "lost" in msg or "closed" in msg or "rank 2" in msg, msg
        assert took < 25, took


def _job_misaligned(rank, ws, init_method):
    # messages of odd byte counts through the rings, so that later payloads start off their
    # element size and elements straddle the end of a ring: the reduce-scatter combines
    # straight from the ring (Note [Sinks]) and must see whole elements
    dist.init_process_group("gloo", init_method=init_method, rank=rank, world_size=ws)
    bad = 0
    for it in range(40):
        a = torch.full((16385 + it,), float(rank + 1))
        dist.all_reduce(a)
        bad += int((a != ws * (ws + 1) / 2).sum())
        b = torch.arange(70001 + 3 * it, dtype=torch.int64) * (rank + 1)
        dist.all_reduce(b)
        want = torch.arange(70001 + 3 * it, dtype=torch.int64) * (ws * (ws + 1) // 2)
        bad += int((b != want).sum())
        c = torch.full((33333 + it,), 0.5 * (rank + 1), dtype=torch.float64)
        dist.all_reduce(c, op=dist.ReduceOp.MAX)
        bad += int((c != 0.5 * ws).sum())
    return bad


@pytest.mark.parametrize("ws", [2, 3])
def test_elements_across_the_end_of_a_ring(ws):
    assert run_ranks(_job_misaligned, ws, env={"MINITORCH_TRANSPORT": "shm"}, timeout=120) == \
        [0] * ws


def _job_killed(rank, ws, init_method):
    dist.init_process_group("gloo", init_method=init_method, rank=rank, world_size=ws,
                            timeout=timedelta(seconds=30))
    t = torch.ones(1 << 16)
    dist.all_reduce(t)
    if rank == ws - 1:
        os._exit(3)
    t0 = time.monotonic()
    try:
        for _ in range(50):
            dist.all_reduce(t)
        return "no error", 0.0
    except dist.DistBackendError as e:
        return str(e), time.monotonic() - t0


def test_a_killed_rank_is_an_error_naming_it():
    before = _shm_entries()
    res = run_ranks(_job_killed, 3, env={"MINITORCH_TRANSPORT": "shm"}, expect_fail={2}, timeout=60)
    assert any("rank 2" in msg for msg, _ in res[:2]), res
    for msg, took in res[:2]:
        assert "connection to rank" in msg and "lost" in msg, msg
        assert took < 10, took  # seen through its released lock, far inside the 30 s timeout
    assert _shm_entries() <= before


def _job_cycles(rank, ws, init_method, n):
    fds = None
    for i in range(n):
        dist.init_process_group("gloo", init_method=f"{init_method}-{i}", rank=rank, world_size=ws)
        t = torch.ones(4)
        dist.all_reduce(t)
        assert t.tolist() == [2.0] * 4
        dist.destroy_process_group()
        if i == 1:
            fds = len(os.listdir("/proc/self/fd"))
    return fds, len(os.listdir("/proc/self/fd"))


def test_init_destroy_cycles_leave_nothing_behind():
    before = _shm_entries()
    for fds_early, fds_late in run_ranks(_job_cycles, 2, 40, env={"MINITORCH_TRANSPORT": "shm"},
                                         timeout=120):
        assert fds_late <= fds_early
    assert _shm_entries() <= before


def _fake_segment(nonce, valid_header):
    # the layout of shm.c (version 2) for 2 ranks: header page, rank page, ring page, two
    # 1 MiB rings, two 64 KiB slots per rank
    ring = 1 << 20
    seg = shared_memory.SharedMemory(create=True, size=3 * 4096 + 2 * ring + 4 * (64 << 10))
    if valid_header:
        seg.buf[:32] = struct.pack("<IIiiQQ", 0x4D545348, 2, 2, 0, ring, nonce)
    return seg


@pytest.mark.parametrize("valid_header,words", [
    (False, "is not the segment of this group of 2 ranks"),
    (True, "rank 0 has exited"),
])
def test_a_stale_segment_is_refused(valid_header, words):
    seg = _fake_segment(0x0123456789ABCDEF, valid_header)
    try:
        store = dist.HashStore()
        store.set("transport/choice", "shm")
        store.set("shm/name", f"/{seg.name} 0123456789abcdef")
        with pytest.raises(dist.DistNetworkError, match=words):
            dist.ProcessGroupGloo(store, 1, 2, timedelta(seconds=5))
        assert store.get("shm/attached/1") == b"0"  # rank 0 is told, not left waiting
    finally:
        seg.close()
        seg.unlink()


def test_all_reduce_common_call_and_its_fallbacks(tmp_path):
    # the blocking SUM of a contiguous CPU tensor on the default group goes straight to the C
    # entry (issued with now=True); every other call takes the general path, with the same
    # results and errors
    dist.init_process_group("gloo", init_method=f"file://{tmp_path}/store", rank=0, world_size=1)
    try:
        pg = dist.distributed_c10d._get_default_group()
        t = torch.arange(6.0).reshape(2, 3).t()  # not contiguous
        dist.all_reduce(t)
        assert t.tolist() == [[0.0, 3.0], [1.0, 4.0], [2.0, 5.0]]
        x = torch.ones(3)
        seq = pg._seq
        assert dist.all_reduce(x) is None and x.tolist() == [1.0] * 3 and pg._seq == seq + 1
        assert dist.all_reduce(x, op=dist.ReduceOp.MAX) is None and pg._seq == seq + 2
        w = dist.all_reduce(x, async_op=True)
        assert w.wait() and x.tolist() == [1.0] * 3
        with pytest.raises(TypeError):
            dist.all_reduce([x])
        with pytest.raises(TypeError):
            dist.all_reduce(5)
        # the C entry: a bare tensor or a list; now=True runs it and returns None, otherwise a
        # Work; a fourth argument is the operation's own time limit
        assert pg._get_backend("cpu")._cgroup.allreduce(x, 0, True) is None
        assert pg._get_backend("cpu")._cgroup.allreduce([x, x], 0, True, 5000) is None
        assert pg._get_backend("cpu")._cgroup.allreduce(x, 0).wait()
        assert pg._get_backend("cpu")._cgroup.barrier(True, 1000) is None
        with pytest.raises(TypeError, match="takes 2 to 4 arguments"):
            pg._get_backend("cpu")._cgroup.allreduce(x, 0, True, 0, 0)
        with pytest.raises(RuntimeError, match="does not fit in int64"):
            pg._get_backend("cpu")._cgroup.allreduce(x, 0, True, 1 << 70)
        with pytest.raises(TypeError, match="must be a list of Tensors"):
            pg._get_backend("cpu")._cgroup.allreduce(5, 0, True)
        with pytest.raises(ValueError, match="must be contiguous"):
            pg._get_backend("cpu")._cgroup.allreduce(t, 0, True)
    finally:
        dist.destroy_process_group()
    with pytest.raises(ValueError, match="not been initialized"):
        dist.all_reduce(torch.ones(1))


def test_all_reduce_on_an_aborted_default_group(tmp_path):
    dist.init_process_group("gloo", init_method=f"file://{tmp_path}/store", rank=0, world_size=1)
    try:
        dist.distributed_c10d._abort_process_group()
        with pytest.raises(ValueError, match="aborted|not been initialized"):
            dist.all_reduce(torch.ones(2))
    finally:
        if dist.is_initialized():
            dist.destroy_process_group()


def _job_no_room(rank, ws, init_method):
    import resource
    import signal

    if rank == 0:  # rank 0 cannot make a segment: files it writes are limited to 256 KiB
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (256 << 10, resource.RLIM_INFINITY))
    try:
        dist.init_process_group("gloo", init_method=init_method, rank=rank, world_size=ws,
                                timeout=timedelta(seconds=20))
    except dist.DistError as e:
        return "error", str(e)
    t = torch.ones(3)
    dist.all_reduce(t)
    return dist.distributed_c10d._get_default_group()._get_backend("cpu")._cgroup.transport(), t.tolist()


def test_no_room_for_shared_memory_falls_back_to_tcp():
    for name, t in run_ranks(_job_no_room, 2):
        assert (name, t) == ("tcp", [2.0] * 3)
    for kind, msg in run_ranks(_job_no_room, 2, env={"MINITORCH_TRANSPORT": "shm"}):
        assert kind == "error" and "cannot reserve" in msg and "/dev/shm" in msg, msg


def _job_disagree(rank, ws, init_method):
    os.environ["MINITORCH_TRANSPORT"] = "shm" if rank == 0 else "tcp"
    return _job_bad_mode(rank, ws, init_method)


def test_ranks_asking_for_different_transports_is_an_error():
    for msg in run_ranks(_job_disagree, 2):
        assert "MINITORCH_TRANSPORT=shm on one rank and tcp on another" in msg, msg
