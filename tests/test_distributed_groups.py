"""Groups as torch's: new_group (order of ranks, local synchronization, a user-defined default
group making them), group/global rank translation, group names and stores, aborting, the
store-based barrier, send/recv to oneself, LOCAL_RANK, ReduceOp equality, destroyed groups."""
import os
from datetime import timedelta

import pytest

import minitorch as torch
import minitorch.distributed as dist
from minitorch.distributed import distributed_c10d as c10d
from test_distributed_support import run_ranks


def _groups_job(rank, ws, init_method):
    dist.init_process_group("gloo", init_method=init_method, rank=rank, world_size=ws)
    out = {}
    pg = c10d._get_default_group()
    out["name"] = pg.name()
    out["config"] = c10d._get_pg_config()
    store = c10d._get_process_group_store(pg)
    out["store"] = isinstance(store, dist.PrefixStore)
    # the order the caller gives, when not sorted
    rev = dist.new_group(ranks=[3, 2, 1, 0], sort_ranks=False)
    out["rev_rank"] = dist.get_group_rank(rev, rank)
    outs = [torch.tensor([-1]) for _ in range(ws)]
    dist.all_gather(outs, torch.tensor([rank]), group=rev)
    out["rev_gather"] = [o.item() for o in outs]
    # locally synchronized groups: only the members call new_group, twice for the same ranks
    mine = [rank // 2 * 2, rank // 2 * 2 + 1]
    other = [r for r in range(ws) if r not in mine]
    assert dist.new_group(ranks=other, use_local_synchronization=True) is \
        dist.GroupMember.NON_GROUP_MEMBER
    gathered = []
    for _ in range(2):
        g = dist.new_group(ranks=mine, use_local_synchronization=True)
        outs = [torch.tensor([-1]) for _ in range(2)]
        dist.all_gather(outs, torch.tensor([rank]), group=g)
        gathered.append([o.item() for o in outs])
    out["local"] = gathered
    out["recv_src"] = None
    if rank < 2:
        sub = dist.new_group([0, 1], use_local_synchronization=True)
        t = torch.zeros(1)
        if rank == 0:
            dist.send(torch.ones(1), group_dst=1, group=sub)
        else:
            out["recv_src"] = dist.recv(t, group_src=0, group=sub)  # the global rank
    with pytest.raises(ValueError, match="destination rank should not be the same"):
        dist.send(torch.ones(1), rank)
    with pytest.raises(ValueError, match="out of range"):
        dist.new_group([0, ws])
    with pytest.raises(ValueError, match="duplicate"):
        dist.new_group([0, 0])
    dist.destroy_process_group()
    return out


def test_new_group_orders_and_local_synchronization():
    res = run_ranks(_groups_job, 4, timeout=90)
    for rank, out in enumerate(res):
        assert out["name"] == "gloo" and out["store"]
        assert out["config"]["ranks"] == [0, 1, 2, 3] and out["config"]["pg_desc"] == "default_pg"
        assert out["rev_rank"] == 3 - rank and out["rev_gather"] == [3, 2, 1, 0]
        pair = [rank // 2 * 2, rank // 2 * 2 + 1]
        assert out["local"] == [pair, pair]
    assert res[1]["recv_src"] == 0


def test_rank_translation_needs_a_registered_group():
    stray = dist.ProcessGroup(0, 8)
    with pytest.raises(ValueError, match="is not registered"):
        dist.get_group_rank(stray, 0)
    with pytest.raises(ValueError, match="is not registered"):
        dist.get_global_rank(stray, 0)
    canon = c10d._canonicalize_group_rank
    assert canon(stray, group_rank=5) == 5 and canon(stray, global_rank=3, return_global=True) == 3
    with pytest.raises(ValueError, match="is not registered"):
        canon(stray, group_rank=5, return_global=True)
    with pytest.raises(ValueError, match="Can't specify both"):
        canon(stray, global_rank=1, group_rank=1)
    with pytest.raises(ValueError, match="Must specify"):
        canon(stray)


class _Aborting(dist.ProcessGroup):
    aborted = False

    def getBackendName(self):
        return "Aborting"

    def abort(self):
        type(self).aborted = True

    def new_group(self, ranks, timeout=None, backend=None, pg_options=None, group_name=None,
                  group_desc=None):
        if self.rank() not in ranks:
            return None
        g = _Aborting(ranks.index(self.rank()), len(ranks))
        g.made_with = (list(ranks), backend, group_name)
        return g


def _user_job(rank, ws, init_method):
    dist.Backend.register_backend("aborting", lambda st, r, s, t: _Aborting(r, s), devices=["cpu"])
    dist.init_process_group("aborting", init_method=init_method, rank=rank, world_size=ws)
    pg = c10d._get_default_group()
    out = {"name": pg.name(), "impl": dist.get_backend_impl() is pg,
           "by_name": dist.get_backend_impl(c10d._get_process_group_name(pg)) is pg}
    sub = dist.new_group([0])
    out["sub"] = None if sub is dist.GroupMember.NON_GROUP_MEMBER else sub.made_with[:2]
    c10d._abort_process_group()
    out["aborted"] = _Aborting.aborted and not dist.is_initialized()
    return out


def test_user_defined_default_group_makes_groups_and_aborts():
    res = run_ranks(_user_job, 2, timeout=60)
    assert all(o["name"] == "Aborting" and o["impl"] and o["by_name"] and o["aborted"] for o in res)
    assert res[0]["sub"] == ([0], "aborting") and res[1]["sub"] is None


def _barrier_job(rank, ws, init_method, path):
    store = dist.FileStore(path)
    if rank == ws - 1:
        return "absent"
    try:
        c10d._store_based_barrier(rank, store, "g", ws, timedelta(seconds=1))
    except dist.DistStoreError as e:
        return str(e)
    return "passed"


def test_store_based_barrier_times_out_without_everyone(tmp_path):
    res = run_ranks(_barrier_job, 3, str(tmp_path / "bar"), timeout=60)
    assert res[2] == "absent"
    assert all("Timed out initializing process group in store based barrier" in r for r in res[:2])


def test_node_local_rank(monkeypatch):
    monkeypatch.delenv("LOCAL_RANK", raising=False)
    with pytest.raises(RuntimeError, match="LOCAL_RANK is not in the environment"):
        dist.get_node_local_rank()
    assert dist.get_node_local_rank(fallback_rank=2) == 2
    monkeypatch.setenv("LOCAL_RANK", "3")
    assert dist.get_node_local_rank(fallback_rank=7) == 3


def test_reduce_op_equality_as_torch():
    for op in (dist.ReduceOp.SUM, dist.ReduceOp.MAX, dist.ReduceOp.BXOR):
        obj = dist.ReduceOp(op)
        assert obj == op and op == int(op) and obj == obj
        assert op != obj                     # the enum value is not equal to the object
        assert None not in (op, obj) and "abc" not in (op, obj)
    assert str(dist.ReduceOp.SUM) == "RedOpType.SUM"


def test_debug_level_error_names_torch_variable(monkeypatch):
    monkeypatch.delenv("MINITORCH_DISTRIBUTED_DEBUG", raising=False)
    for bad in ("foo", "0", "-1"):
        monkeypatch.setenv("TORCH_DISTRIBUTED_DEBUG", bad)
        with pytest.raises(ValueError, match="The value of TORCH_DISTRIBUTED_DEBUG must"):
            dist.set_debug_level_from_env()
    monkeypatch.setenv("TORCH_DISTRIBUTED_DEBUG", "dEtAiL")
    dist.set_debug_level_from_env()
    assert dist.get_debug_level() == dist.DebugLevel.DETAIL
    monkeypatch.delenv("TORCH_DISTRIBUTED_DEBUG")
    dist.set_debug_level_from_env()
    assert dist.get_debug_level() == dist.DebugLevel.OFF


def _late_job(rank, ws, init_method):
    # rank 0 leaves as soon as init returns: init must not return before every rank has
    # reached the store (the master waits for the workers, as torch's env:// and tcp://); a
    # user-defined backend makes no connections of its own that would wait instead
    import time
    dist.Backend.register_backend("quick", lambda st, r, s, t: dist.ProcessGroup(r, s),
                                  devices=["cpu"])
    if rank == 1:
        time.sleep(1.5)
    dist.init_process_group("quick", init_method=init_method, rank=rank, world_size=ws,
                            timeout=timedelta(seconds=10))
    return dist.get_world_size()


def test_tcp_rendezvous_waits_for_every_rank():
    from test_distributed_support import free_port
    assert run_ranks(_late_job, 2, init_method=f"tcp://127.0.0.1:{free_port()}", timeout=60) == [2, 2]


def _destroyed_job(rank, ws, init_method):
    dist.init_process_group("gloo", init_method=init_method, rank=rank, world_size=ws)
    world = dist.distributed_c10d._get_default_group()
    sub = dist.new_group([0, 1])
    dist.destroy_process_group(sub)
    out = {}
    # a destroyed group is unregistered ...
    try:
        dist.get_rank(sub)
    except ValueError as e:
        out["get_rank"] = str(e)
    # ... but a reference to it keeps working, as torch's
    t = torch.tensor([float(rank + 1)])
    dist.all_reduce(t, group=sub)
    out["sub"] = t.item()
    dist.destroy_process_group()
    u = torch.tensor([float(rank)])
    world.allreduce([u]).wait()
    out["world"] = u.item()
    out["initialized"] = dist.is_initialized()
    world.barrier().wait()
    return out


def test_destroyed_groups_are_unregistered_but_keep_working():
    res = run_ranks(_destroyed_job, 2, timeout=60)
    for out in res:
        assert "is not registered" in out["get_rank"]
        assert out["sub"] == 3.0 and out["world"] == 1.0 and out["initialized"] is False
