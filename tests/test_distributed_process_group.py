"""ProcessGroup objects as torch's: ProcessGroupGloo(store, rank, size), per-group methods with
torch's option objects or plain arguments, each returning a Work."""
from datetime import timedelta

import pytest

import minitorch as torch
import minitorch.distributed as dist
from test_distributed_support import free_port, run_ranks


def _job(rank, ws, init_method):
    port = int(init_method.rsplit(":", 1)[1])
    store = dist.TCPStore("127.0.0.1", port, ws, rank == 0, timeout=timedelta(seconds=20))
    pg = dist.ProcessGroupGloo(store, rank, ws, timedelta(seconds=20))
    assert pg.rank() == rank and pg.size() == ws
    out = {}
    t = torch.tensor([float(rank + 1)])
    w = pg.allreduce([t])
    assert w.wait() in (True, None)
    out["allreduce"] = t.item()
    o = dist.AllreduceOptions()
    o.reduceOp = dist.ReduceOp.MAX
    t = torch.tensor([float(rank)])
    pg.allreduce([t], o).wait()
    out["max"] = t.item()
    t = torch.tensor([float(rank)])
    pg.allreduce(t, dist.ReduceOp.MIN).wait()
    out["min"] = t.item()
    b = torch.tensor([rank * 10])
    bo = dist.BroadcastOptions()
    bo.rootRank = ws - 1
    pg.broadcast([b], bo).wait()
    out["bcast"] = b.item()
    b = torch.tensor([rank * 10])
    pg.broadcast(b, 0).wait()
    out["bcast0"] = b.item()
    outs = [torch.zeros(1) for _ in range(ws)]
    pg.allgather([outs], [torch.tensor([float(rank)])]).wait()
    out["allgather"] = [x.item() for x in outs]
    r = torch.tensor([1.0])
    ro = dist.ReduceOptions()
    ro.rootRank = 0
    pg.reduce([r], ro).wait()
    out["reduce"] = r.item()
    g = [torch.zeros(1) for _ in range(ws)] if rank == 0 else []
    pg.gather([g] if rank == 0 else [], [torch.tensor([rank + 0.5])], dist.GatherOptions()).wait()
    out["gather"] = [x.item() for x in g]
    s = torch.zeros(1)
    pg.scatter([s], [[torch.tensor([10.0 + i]) for i in range(ws)]] if rank == 0 else [],
               dist.ScatterOptions()).wait()
    out["scatter"] = s.item()
    rs = torch.zeros(1)
    pg.reduce_scatter([rs], [[torch.tensor([float(i)]) for i in range(ws)]],
                      dist.ReduceScatterOptions()).wait()
    out["reduce_scatter"] = rs.item()
    a_out = torch.zeros(ws)
    pg.alltoall_base(a_out, torch.arange(ws, dtype=torch.float32) + 10 * rank, [], [],
                     dist.AllToAllOptions()).wait()
    out["alltoall"] = a_out.tolist()
    pg.barrier(dist.BarrierOptions()).wait()
    if ws > 1:
        if rank == 0:
            pg.send([torch.tensor([42.0])], 1, 7).wait()
        elif rank == 1:
            x = torch.zeros(1)
            w = pg.recv_anysource([x], 7)
            w.wait()
            out["p2p"] = (x.item(), w.source_rank())
    # several tensors take part as one (gloo's): reduced across ranks and within the list
    two = [torch.ones(1), torch.full((1,), 2.0)]
    pg.allreduce(two).wait()
    out["two"] = [t.item() for t in two]
    pg.monitored_barrier(timedelta(seconds=10))
    return out


@pytest.mark.parametrize("ws", [1, 3])
def test_process_group_gloo_methods(ws):
    res = run_ranks(_job, ws, timeout=60, init_method=f"tcp://127.0.0.1:{free_port()}")
    tot = ws * (ws + 1) / 2
    for rank, out in enumerate(res):
        assert out["allreduce"] == tot and out["max"] == ws - 1 and out["min"] == 0
        assert out["bcast"] == (ws - 1) * 10 and out["bcast0"] == 0
        assert out["allgather"] == [float(r) for r in range(ws)]
        if rank == 0:
            assert out["reduce"] == ws and out["gather"] == [r + 0.5 for r in range(ws)]
        assert out["scatter"] == 10.0 + rank
        assert out["reduce_scatter"] == rank * ws
        assert out["alltoall"] == [rank + 10.0 * r for r in range(ws)]
        if ws > 1 and rank == 1:
            assert out["p2p"] == (42.0, 0)
        assert out["two"] == [3.0 * ws, 3.0 * ws]


def test_options_objects_and_bad_construction():
    o = dist.AllreduceOptions()
    assert o.reduceOp == dist.ReduceOp.SUM and o.asyncOp is True
    assert dist.BroadcastOptions().rootRank == 0 and dist.ReduceOptions().rootTensor == 0
    b1, b2 = dist.BarrierOptions(), dist.BarrierOptions()
    b1.device_ids.append(3)
    assert b2.device_ids == []
    with pytest.raises(TypeError):
        dist.ProcessGroupGloo("not a store", 0, 1)
    with pytest.raises(ValueError):
        dist.ProcessGroupGloo(dist.HashStore(), 2, 2)
    with pytest.raises(TypeError):
        dist.ProcessGroupGloo(dist.HashStore(), 0, 1, timeout=5)
    assert "interface" in repr(dist.ProcessGroupGloo.create_device(interface="lo"))


def test_premul_sum_is_refused_by_the_cpu_backend():
    op = dist._make_nccl_premul_sum(2.0)
    assert op == dist.ReduceOp.PREMUL_SUM
    with pytest.raises(TypeError, match="float or a Tensor"):
        dist._make_nccl_premul_sum("x")
    store = dist.HashStore()
    pg = dist.ProcessGroupGloo(store, 0, 1)
    o = dist.AllreduceOptions()
    o.reduceOp = op
    with pytest.raises(RuntimeError, match="Cannot use ReduceOp.PREMUL_SUM with Gloo"):
        pg.allreduce([torch.ones(2)], o)
