"""User-defined backends: Backend.register_backend + a ProcessGroup subclass, as torch's."""
import pytest

import minitorch as torch
import minitorch.distributed as dist
from test_distributed_support import run_ranks


class DummyWork(dist._Work):
    def wait(self, timeout=None):
        return True


class DummyProcessGroup(dist.ProcessGroup):
    """allreduce adds 2, allgather copies the input, barrier through the default store."""

    def getBackendName(self):
        return "Dummy"

    def allreduce(self, tensor_list, opts=None):
        for t in tensor_list:
            t.add_(2 if opts.reduceOp == dist.ReduceOp.SUM else 100)
        return DummyWork()

    def allgather(self, output_tensor_lists, input_tensor_list, opts=None):
        for outs, inp in zip(output_tensor_lists, input_tensor_list):
            for o in outs:
                o.copy_(inp)
        return DummyWork()

    def broadcast(self, tensor_list, opts=None):
        for t in tensor_list:
            t.fill_(opts.rootRank)
        return DummyWork()

    def barrier(self, opts=None):
        store = dist.distributed_c10d._get_default_store()
        store.add("TEST:barrier", 1)
        while int(store.get("TEST:barrier")) < self.size():
            pass
        return DummyWork()

    def send(self, tensor_list, dst, tag=0):
        self.sent = (tensor_list[0].tolist(), dst, tag)
        return DummyWork()

    def recv(self, tensor_list, src, tag=0):
        tensor_list[0].fill_(src + 0.5)
        return DummyWork()


def _create(store, rank, world_size, timeout):
    return DummyProcessGroup(rank, world_size)


def _create_extended(opts, pg_options):
    assert opts.group_size >= 1 and opts.global_ranks_in_group == list(range(opts.group_size))
    return DummyProcessGroup(opts.group_rank, opts.group_size)


def _job(rank, ws, init_method, name, extended):
    dist.Backend.register_backend(name, _create_extended if extended else _create,
                                  extended_api=extended, devices=["cpu"])
    dist.init_process_group(name, init_method=init_method, rank=rank, world_size=ws)
    out = {"backend": dist.get_backend(), "rank": dist.get_rank(), "size": dist.get_world_size()}
    t = torch.ones(3)
    dist.all_reduce(t)
    out["allreduce"] = t.tolist()
    t = torch.ones(1)
    w = dist.all_reduce(t, op=dist.ReduceOp.MAX, async_op=True)
    assert isinstance(w, DummyWork) and w.wait()
    out["max"] = t.item()
    outs = [torch.zeros(2) for _ in range(ws)]
    dist.all_gather(outs, torch.tensor([rank, 7.0]))
    out["allgather"] = [o.tolist() for o in outs]
    b = torch.zeros(1)
    dist.broadcast(b, src=ws - 1)
    out["bcast"] = b.item()
    dist.barrier()
    r = torch.zeros(1)
    if ws > 1:
        out["recv_from"] = dist.recv(r, src=1 - rank)
        out["recv"] = r.item()
        dist.send(torch.tensor([5.0]), dst=1 - rank, tag=3)
        out["sent"] = dist.distributed_c10d._get_default_group().sent
    dist.destroy_process_group()
    return out


@pytest.mark.parametrize("extended", [False, True])
def test_user_defined_backend(extended):
    ws = 2
    res = run_ranks(_job, ws, "dummy_ext" if extended else "dummy", extended, timeout=60)
    for rank, out in enumerate(res):
        assert out["backend"] == ("dummy_ext" if extended else "dummy")
        assert (out["rank"], out["size"]) == (rank, ws)
        assert out["allreduce"] == [3.0] * 3 and out["max"] == 101.0
        assert out["allgather"] == [[rank, 7.0]] * ws
        assert out["bcast"] == ws - 1
        assert out["recv_from"] == 1 - rank and out["recv"] == 1 - rank + 0.5
        assert out["sent"] == ([5.0], 1 - rank, 3)


def test_register_backend_errors():
    with pytest.raises(ValueError, match="GLOO c10d backend is built in and cannot be replaced"):
        dist.Backend.register_backend("gloo", _create)
    with pytest.raises(TypeError):
        dist.Backend.register_backend("x_not_callable", 3)
    with pytest.raises(ValueError):
        dist.ProcessGroup(2, 2)
    pg = DummyProcessGroup(1, 3)
    assert pg.rank() == 1 and pg.size() == 3
    w = dist._Work()
    assert w.wait() and w.is_completed() and w.is_success() and w.exception() is None
