"""Per-group methods as torch's ProcessGroupGloo: its error words (RuntimeError), several tensors
taking part as one, per-operation timeouts (opts.timeout) and set_timeout, 16-bit float sums
computed in float32, split_group, _broadcast_coalesced, the *_single forms."""
from datetime import timedelta

import pytest

import minitorch as torch
import minitorch.distributed as dist
from test_distributed_support import free_port, run_ranks


def _pg(rank, ws, init_method, timeout=20):
    port = int(init_method.rsplit(":", 1)[1])
    store = dist.TCPStore("127.0.0.1", port, ws, rank == 0, timeout=timedelta(seconds=20))
    return store, dist.ProcessGroupGloo(store, rank, ws, timedelta(seconds=timeout))


def _err(fn):
    try:
        fn()
    except Exception as e:  # noqa: BLE001 - the type and words are the point
        return ("RuntimeError" if isinstance(e, RuntimeError) else type(e).__name__), str(e)
    return None


def _checks_job(rank, ws, init_method):
    _, pg = _pg(rank, ws, init_method)
    out = {}
    f = torch.zeros(1)
    out["allreduce_empty"] = _err(lambda: pg.allreduce([]))
    out["allreduce_mixed"] = _err(lambda: pg.allreduce([f, torch.zeros(1, dtype=torch.float64)]))
    out["allreduce_sizes"] = _err(lambda: pg.allreduce([f, torch.zeros(2)]))
    out["bcast_root"] = _err(lambda: pg.broadcast([f], ws))
    out["reduce_two"] = _err(lambda: pg.reduce([f, torch.zeros(1)], 0))
    out["agc_empty"] = _err(lambda: pg.allgather_coalesced([[]] * ws, []))
    out["agc_lists"] = _err(lambda: pg.allgather_coalesced([[f]] * (ws + 1), [f]))
    out["agc_size"] = _err(lambda: pg.allgather_coalesced([[torch.zeros(3)]] * ws,
                                                          [torch.zeros(2)]))
    out["ags_size"] = _err(lambda: pg.all_gather_single(torch.zeros(ws + 1), torch.zeros(1)))
    out["rss_type"] = _err(lambda: pg.reduce_scatter_single(
        torch.zeros(1), torch.zeros(ws, dtype=torch.float64)))
    pg.barrier().wait()
    return out


def test_group_method_errors_are_gloos():
    res = run_ranks(_checks_job, 2, timeout=60, init_method=f"tcp://127.0.0.1:{free_port()}")
    for out in res:
        assert all(v is not None and v[0] == "RuntimeError" for v in out.values()), out
        assert out["allreduce_empty"][1] == \
            "ProcessGroupGloo::allreduce: requires non-empty tensor list"
        assert "invalid tensor type" in out["allreduce_mixed"][1]
        assert "invalid tensor size" in out["allreduce_sizes"][1]
        assert "invalid root rank" in out["bcast_root"][1]
        assert out["agc_size"][1] == ("ProcessGroupGloo::allgather_coalesced: invalid size of "
                                      "output tensor at index 0 (expected length (2), got (3))")


def _multi_job(rank, ws, init_method):
    _, pg = _pg(rank, ws, init_method)
    out = {}
    # several tensors in one allreduce: the sum over ranks and over the list
    ts = [torch.full((2,), float(rank + 1)), torch.full((2,), 10.0)]
    pg.allreduce(ts).wait()
    out["allreduce"] = [t.tolist() for t in ts]
    # broadcast of several tensors: rootTensor's value everywhere
    o = dist.BroadcastOptions()
    o.rootRank, o.rootTensor = 1, 1
    bs = [torch.tensor([rank * 1.0]), torch.tensor([rank * 10.0 + 5])]
    pg.broadcast(bs, o).wait()
    out["bcast"] = [t.item() for t in bs]
    # allgather of two inputs: two output lists, each holding every rank's inputs in turn
    outs = [[torch.zeros(1) for _ in range(2 * ws)] for _ in range(2)]
    pg.allgather(outs, [torch.tensor([rank + 0.5]), torch.tensor([rank + 0.75])]).wait()
    out["allgather"] = [[t.item() for t in lst] for lst in outs]
    # the _single forms
    big = torch.zeros(ws * 2)
    pg.all_gather_single(big, torch.tensor([rank, rank + 0.25])).wait()
    out["ags"] = big.tolist()
    small = torch.zeros(2)
    pg.reduce_scatter_single(small, torch.arange(ws * 2, dtype=torch.float32)).wait()
    out["rss"] = small.tolist()
    # half-precision sums are computed in float32, then rounded once
    h = torch.tensor([1.0 + 2 ** -10], dtype=torch.float16)
    pg.allreduce([h]).wait()
    out["fp16"] = h.float().item()
    bf = torch.tensor([256.0], dtype=torch.bfloat16)
    pg.allreduce([bf]).wait()
    out["bf16"] = bf.float().item()
    # _broadcast_coalesced over a group: rank 0's values everywhere
    cs = [torch.full((3,), float(rank)), torch.tensor([rank * 7])]
    dist._broadcast_coalesced(pg, cs, 2 ** 20, 0)
    out["bcast_coalesced"] = [t.tolist() for t in cs]
    out["seq"] = pg._get_sequence_number_for_group()
    return out


def test_group_methods_take_several_tensors():
    ws = 3
    res = run_ranks(_multi_job, ws, timeout=60, init_method=f"tcp://127.0.0.1:{free_port()}")
    tot = ws * (ws + 1) / 2
    for out in res:
        assert out["allreduce"] == [[tot + 10 * ws] * 2] * 2
        assert out["bcast"] == [15.0, 15.0]
        assert out["allgather"] == [[v for r in range(ws) for v in (r + 0.5, r + 0.75)]] * 2
        assert out["ags"] == [v for r in range(ws) for v in (r, r + 0.25)]
        # fp16: 3 * (1 + 2**-10) rounds once, to a float16 neighbour
        assert abs(out["fp16"] - 3 * (1 + 2 ** -10)) <= 2 ** -9
        assert out["bf16"] == 768.0
        assert out["bcast_coalesced"] == [[0.0] * 3, [0]]
        assert out["seq"] >= 7
    for rank, out in enumerate(res):
        assert out["rss"] == [float(2 * rank * ws), float((2 * rank + 1) * ws)]


def _timeout_job(rank, ws, init_method):
    store, pg = _pg(rank, ws, init_method)
    out = {}
    pg.set_timeout(timedelta(seconds=7))
    out["opts_timeout"] = pg.options._timeout
    if rank == 0:
        # rank 1 never joins this allreduce: the per-operation timeout ends the wait
        o = dist.AllreduceOptions()
        o.timeout = timedelta(milliseconds=300)
        w = pg.allreduce([torch.ones(1)], o)
        out["op_timeout"] = _err(w.wait)
        store.set("rank0_done", "1")
    else:
        store.wait(["rank0_done"], timedelta(seconds=30))
    return out


def test_per_operation_timeout_and_set_timeout():
    res = run_ranks(_timeout_job, 2, timeout=60, init_method=f"tcp://127.0.0.1:{free_port()}")
    assert res[0]["opts_timeout"] == timedelta(seconds=7)
    kind, msg = res[0]["op_timeout"]
    assert kind == "RuntimeError" and msg.startswith("rank 0: Timed out waiting 300ms for "), msg


def _split_job(rank, ws, init_method):
    _, pg = _pg(rank, ws, init_method)
    sub = pg.split_group([0, 2], group_name="evens")
    if rank == 1:
        return sub is None
    t = torch.tensor([float(rank)])
    sub.allreduce([t]).wait()
    return (sub.size(), sub.rank(), t.item())


def test_split_group():
    res = run_ranks(_split_job, 3, timeout=60, init_method=f"tcp://127.0.0.1:{free_port()}")
    assert res == [(2, 0, 2.0), True, (2, 1, 2.0)]


def test_timeout_option_types():
    o = dist.ProcessGroupGloo._Options()
    o._timeout = timedelta(seconds=3)
    assert o._timeout == timedelta(seconds=3)
    with pytest.raises(TypeError):
        dist.ProcessGroupGloo(dist.HashStore(), 0, 1).set_timeout(5)
