"""TCP connections made on first use (Note [Lazy connections] in csrc/distributed/transport/tcp.c):
a rank opens only what its algorithms use, all-to-all and point-to-point open what they use,
a receive from any source sees every sender, the job token's handshake runs on every lazily
made connection, and a peer that cannot be dialed is an error naming it."""
import os
import time
from datetime import timedelta

import pytest

import minitorch as torch
import minitorch.distributed as dist
from test_distributed_support import run_ranks

TCP = {"MINITORCH_TRANSPORT": "tcp"}


def _conns(group=None):
    g = group if group is not None else dist.distributed_c10d._get_default_group()
    return g._get_backend("cpu")._cgroup.connections()


def _store_barrier(name):
    # through the store, not the transport: no rank's later operations dial a rank that has
    # not counted its connections yet
    store = dist.distributed_c10d._get_default_store()
    store.add(name, 1)
    while int(store.add(name, 0)) < dist.get_world_size():
        time.sleep(0.01)


def _job_large_group(rank, ws, init_method):
    dist.init_process_group("gloo", init_method=init_method, rank=rank, world_size=ws)
    out = {"init": _conns()}
    small = torch.full((8,), float(rank))
    dist.all_reduce(small)
    big = torch.ones(1 << 18)  # 1 MiB: recursive halving, then the all-gather
    dist.all_reduce(big)
    out["all_reduce"] = _conns()
    out["sums"] = (small[0].item(), big[0].item())
    _store_barrier("after_all_reduce")
    ins = [torch.full((3,), float(rank * ws + j)) for j in range(ws)]
    outs = [torch.zeros(3) for _ in range(ws)]
    dist.all_to_all(outs, ins)
    out["all_to_all"] = _conns()
    out["got"] = [o[0].item() for o in outs]
    return out


@pytest.mark.multiprocess
def test_a_large_group_opens_only_what_its_algorithms_use():
    ws = 16
    for rank, r in enumerate(run_ranks(_job_large_group, ws, env=TCP, timeout=120)):
        assert r["init"] == (0, 0)
        # recursive doubling and halving at 16 ranks: the partners r^1, r^2, r^4, r^8; two
        # partners that dial each other at once keep both connections (one each way)
        peers, sockets = r["all_reduce"]
        assert peers == 4 and 4 <= sockets <= 8, r
        assert r["sums"] == (sum(range(ws)), float(ws))
        assert r["all_to_all"][0] == ws - 1
        assert r["got"] == [float(j * ws + rank) for j in range(ws)]


def _job_p2p(rank, ws, init_method):
    dist.init_process_group("gloo", init_method=init_method, rank=rank, world_size=ws)
    out = {}
    if rank == 0:
        srcs = []
        for _ in range(ws - 1):
            t = torch.zeros(2)
            srcs.append(dist.recv(t))  # any source
            assert t.tolist() == [float(srcs[-1])] * 2
        out["srcs"] = sorted(srcs)
    else:
        time.sleep(0.05 * rank)
        dist.send(torch.full((2,), float(rank)), 0)
    _store_barrier("after_any_source")
    out["any_source"] = _conns()
    # a tagged exchange between two ranks that both send first
    if rank in (1, 2):
        peer = 3 - rank
        w = dist.isend(torch.full((4,), float(rank)), peer, tag=7)
        t = torch.zeros(4)
        dist.recv(t, peer, tag=7)
        w.wait()
        out["pair"] = t.tolist()
    _store_barrier("after_pair")
    out["end"] = _conns()
    # a new group connects its own members, on its own listeners
    sub = dist.new_group([1, 3])
    if rank in (1, 3):
        t = torch.full((2,), float(rank))
        dist.all_reduce(t, group=sub)
        out["sub"] = (t.tolist(), _conns(sub)[0])
    lst = [{"from": 0}] if rank == 0 else [None]
    dist.broadcast_object_list(lst, src=0)
    out["obj"] = lst[0]
    return out


@pytest.mark.multiprocess
def test_send_receive_from_any_source_and_new_groups_open_what_they_use():
    ws = 4
    res = run_ranks(_job_p2p, ws, env=TCP)
    assert res[0]["srcs"] == [1, 2, 3]
    # senders dial: the receiver is connected to each, each sender to it alone
    assert res[0]["any_source"][0] == 3
    assert [r["any_source"][0] for r in res[1:]] == [1, 1, 1]
    assert res[1]["pair"] == [2.0] * 4 and res[2]["pair"] == [1.0] * 4
    assert [r["end"][0] for r in res] == [3, 2, 2, 1]
    assert res[1]["sub"] == res[3]["sub"] == ([4.0, 4.0], 1)
    assert all(r["obj"] == {"from": 0} for r in res)


def _job_token(rank, ws, init_method):
    dist.init_process_group("gloo", init_method=init_method, rank=rank, world_size=ws,
                            timeout=timedelta(seconds=30))
    t = torch.full((5,), float(rank + 1))
    dist.all_reduce(t)
    objs = [None] * ws
    dist.all_gather_object(objs, {"rank": rank})
    # the sender dials a peer busy elsewhere: the peer's acceptor answers the handshake
    if rank == 0:
        dist.send(torch.ones(3), ws - 1)
    elif rank == ws - 1:
        time.sleep(0.3)
        r = torch.zeros(3)
        dist.recv(r, 0)
        assert r.tolist() == [1.0] * 3
    ins = [torch.full((1,), float(rank)) for _ in range(ws)]
    outs = [torch.zeros(1) for _ in range(ws)]
    dist.all_to_all(outs, ins)
    return t[0].item(), objs, [o.item() for o in outs], _conns()[0]


@pytest.mark.multiprocess
def test_lazily_made_connections_run_the_job_token_handshake():
    ws = 4
    env = dict(TCP, MINITORCH_DIST_TOKEN="lazy-token-5c1e")
    for r in run_ranks(_job_token, ws, env=env):
        assert r == (10.0, [{"rank": i} for i in range(ws)], [0.0, 1.0, 2.0, 3.0], ws - 1)


def _job_gone(rank, ws, init_method, flag):
    dist.init_process_group("gloo", init_method=init_method, rank=rank, world_size=ws,
                            timeout=timedelta(seconds=60))
    if rank == 1:
        dist.destroy_process_group()  # its listener closes; nobody had dialed it
        with open(flag, "w") as f:
            f.write("gone")
        return "left"
    while not os.path.exists(flag):
        time.sleep(0.02)
    start = time.monotonic()
    try:
        dist.send(torch.ones(2), 1)
    except dist.DistBackendError as e:
        return str(e), time.monotonic() - start
    return "sent"


@pytest.mark.multiprocess
def test_a_peer_that_cannot_be_dialed_is_named(tmp_path):
    res = run_ranks(_job_gone, 2, str(tmp_path / "flag"), env=TCP)
    assert res[1] == "left"
    msg, took = res[0]
    assert "rank 0: connection to rank 1" in msg and "refused" in msg, msg
    assert took < 30  # a refusal, not the 60 s timeout


def _job_route(rank, ws, init_method):
    os.environ["MINITORCH_HOST_ID"] = f"host{rank // 2}"  # two "hosts" of two ranks
    dist.init_process_group("gloo", init_method=init_method, rank=rank, world_size=ws)
    name = dist.distributed_c10d._get_default_group()._get_backend("cpu")._cgroup.transport()
    t = torch.full((4,), float(rank))
    dist.all_reduce(t)
    _store_barrier("after_all_reduce")
    after_collective = _conns()[0]
    # point-to-point goes over TCP, to a peer on this host too
    if rank == 0:
        dist.send(torch.ones(1), 1)
    elif rank == 1:
        r = torch.zeros(1)
        dist.recv(r, 0)
    _store_barrier("after_p2p")
    return name, t[0].item(), after_collective, _conns()[0]


@pytest.mark.multiprocess
def test_shared_memory_and_tcp_connect_only_between_hosts():
    res = run_ranks(_job_route, 4)
    for rank, (name, total, coll, end) in enumerate(res):
        assert name == "shm+tcp" and total == 6.0
        # the collectives (the group's first barrier, recursive doubling) reach the peer on
        # this host through shared memory: TCP connects only the two ranks of the other host
        assert 1 <= coll <= 2
        # point-to-point with the peer on this host adds it
        assert end == coll + (1 if rank in (0, 1) else 0)
