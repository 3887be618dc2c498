"""MINITORCH_DISTRIBUTED_DEBUG / TORCH_DISTRIBUTED_DEBUG: INFO logs, DETAIL mismatch checks."""
import logging

import pytest

import minitorch as torch
import minitorch.distributed as dist
from test_distributed_support import run_ranks


class _Collect(logging.Handler):
    def __init__(self):
        super().__init__()
        self.lines = []

    def emit(self, record):
        self.lines.append(record.getMessage())


def _job_info(rank, ws, init_method):
    h = _Collect()
    log = logging.getLogger("minitorch.distributed")
    log.addHandler(h)
    log.setLevel(logging.INFO)
    dist.init_process_group("gloo", init_method=init_method, rank=rank, world_size=ws)
    dist.all_reduce(torch.ones(10))
    w = dist.broadcast(torch.ones(2, 3, dtype=torch.float64), 0, async_op=True)
    w.wait()
    dist.barrier()
    dist.destroy_process_group()
    return h.lines


def test_info_logs_every_collective():
    res = run_ranks(_job_info, 2, env={"MINITORCH_DISTRIBUTED_DEBUG": "INFO"})
    for rank, lines in enumerate(res):
        text = "\n".join(lines)
        assert f"[rank {rank}] init_process_group" in text
        ar = [x for x in lines if " all_reduce " in x]
        assert len(ar) == 1 and "bytes=40" in ar[0] and "float32[10]" in ar[0] \
            and "group=default_pg" in ar[0] and " ms" in ar[0] and "op=SUM" in ar[0], ar
        assert any(" broadcast " in x and "float64[2, 3]" in x and "src=0" in x for x in lines), lines
        assert any(" barrier " in x for x in lines), lines


def _job_detail(rank, ws, init_method):
    dist.init_process_group("gloo", init_method=init_method, rank=rank, world_size=ws)
    out = []
    # matching calls go through
    t = torch.ones(3)
    dist.all_reduce(t)
    out.append(t.tolist())
    # shapes disagree
    try:
        dist.all_reduce(torch.ones(4 + rank))
        out.append("no error")
    except RuntimeError as e:
        out.append(str(e))
    # different collectives
    try:
        if rank == 0:
            dist.all_reduce(torch.ones(2))
        else:
            dist.broadcast(torch.ones(2), 0)
        out.append("no error")
    except RuntimeError as e:
        out.append(str(e))
    # dtypes disagree
    try:
        dist.all_gather([torch.ones(2) for _ in range(ws)],
                        torch.ones(2, dtype=torch.float32 if rank else torch.float64))
        out.append("no error")
    except RuntimeError as e:
        out.append(str(e))
    # the group is still healthy: nothing mismatched was sent
    t = torch.full((2,), float(rank))
    dist.all_reduce(t, op=dist.ReduceOp.MAX)
    out.append(t.tolist())
    dist.destroy_process_group()
    return out


@pytest.mark.parametrize("var", ["MINITORCH_DISTRIBUTED_DEBUG", "TORCH_DISTRIBUTED_DEBUG"])
def test_detail_detects_mismatches(var):
    res = run_ranks(_job_detail, 2, env={var: "DETAIL"})
    for out in res:
        assert out[0] == [2.0] * 3
        assert "Detected mismatch" in out[1] and "shapes=[4]" in out[1] and "shapes=[5]" in out[1]
        assert "all_reduce" in out[2] and "broadcast" in out[2]
        assert "float64" in out[3] and "float32" in out[3]
        assert out[4] == [1.0, 1.0]


def test_bad_debug_level(monkeypatch):
    monkeypatch.setenv("MINITORCH_DISTRIBUTED_DEBUG", "LOUD")
    with pytest.raises(ValueError, match="OFF, INFO, or DETAIL"):
        dist.init_process_group("gloo", store=dist.HashStore(), rank=0, world_size=1)
    assert not dist.is_initialized()


def test_debug_level_api(monkeypatch):
    assert [m.name for m in dist.DebugLevel] == ["OFF", "INFO", "DETAIL"]
    assert int(dist.DebugLevel.DETAIL) == 2 and str(dist.DebugLevel.INFO) == "DebugLevel.INFO"
    monkeypatch.setenv("TORCH_DISTRIBUTED_DEBUG", "detail")
    monkeypatch.delenv("MINITORCH_DISTRIBUTED_DEBUG", raising=False)
    dist.set_debug_level_from_env()
    assert dist.get_debug_level() == dist.DebugLevel.DETAIL
    monkeypatch.setenv("MINITORCH_DISTRIBUTED_DEBUG", "INFO")   # ours wins over torch's
    dist.set_debug_level_from_env()
    assert dist.get_debug_level() is dist.DebugLevel.INFO
    dist.set_debug_level(dist.DebugLevel.OFF)
    assert dist.get_debug_level() == dist.DebugLevel.OFF
    with pytest.raises(TypeError):
        dist.set_debug_level("INFO")
    monkeypatch.setenv("MINITORCH_DISTRIBUTED_DEBUG", "loud")
    with pytest.raises(ValueError, match="must be OFF, INFO, or DETAIL"):
        dist.set_debug_level_from_env()
    monkeypatch.delenv("MINITORCH_DISTRIBUTED_DEBUG")
    monkeypatch.delenv("TORCH_DISTRIBUTED_DEBUG")
    dist.set_debug_level_from_env()
    assert dist.get_debug_level() == dist.DebugLevel.OFF


def test_reduce_op_members_are_reduce_ops():
    assert isinstance(dist.ReduceOp.SUM, dist.ReduceOp)
    assert isinstance(dist.ReduceOp.BXOR, dist.ReduceOp)
    assert isinstance(dist.ReduceOp(dist.ReduceOp.MAX), dist.ReduceOp)
    assert not isinstance(3, dist.ReduceOp) and not isinstance("SUM", dist.ReduceOp)
    assert dist.ReduceOp(dist.ReduceOp.MAX) == dist.ReduceOp.MAX
