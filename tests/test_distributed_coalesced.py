"""all_reduce_coalesced / all_gather_coalesced (torch's coalesced forms)."""
import warnings

import numpy as np
import pytest

import minitorch as torch
import minitorch.distributed as dist
from test_distributed_support import run_ranks


def _job(rank, ws, init_method):
    dist.init_process_group("gloo", init_method=init_method, rank=rank, world_size=ws)
    out = {}
    a = torch.full((2, 3), float(rank + 1))
    b = torch.arange(4.0) * (rank + 1)
    c = torch.zeros(3, 4).t()                  # non-contiguous
    c.fill_(rank)
    assert dist.all_reduce_coalesced([a, b, c]) is None
    out["sum"] = (a.tolist(), b.tolist(), c.tolist())
    m = torch.tensor([float(rank)])
    fut = dist.all_reduce_coalesced(m, op=dist.ReduceOp.MAX, async_op=True)
    fut.wait()
    out["max"] = m.tolist()
    z = torch.tensor([1 + 1j * rank], dtype=torch.complex64)
    r = torch.tensor([2.0])
    dist.all_reduce_coalesced([z, r])          # complex with its real type: allowed
    out["complex"] = (complex(z.item()), r.item())
    ins = [torch.tensor([rank, rank]), torch.tensor([[10 * rank]])]
    outs = [[torch.zeros(2, dtype=torch.int64), torch.zeros(1, 1, dtype=torch.int64)] for _ in range(ws)]
    dist.all_gather_coalesced(outs, ins)
    out["gather"] = [[t.tolist() for t in lst] for lst in outs]
    errs = []
    for call in (lambda: dist.all_reduce_coalesced([torch.ones(1), torch.ones(1, dtype=torch.float64)]),
                 lambda: dist.all_reduce_coalesced([torch.ones(1, dtype=torch.complex64)],
                                                   op=dist.ReduceOp.MAX),
                 lambda: dist.all_gather_coalesced([[torch.zeros(3)]] * ws, [torch.zeros(2)]),
                 lambda: dist.all_gather_coalesced((torch.zeros(1),), [torch.zeros(1)]),
                 lambda: dist.all_reduce_coalesced("x")):
        try:
            call()
            errs.append(None)
        except (ValueError, TypeError, RuntimeError) as e:
            errs.append(type(e).__name__)
            if isinstance(e, RuntimeError):
                errs.append(str(e))
    out["errors"] = errs
    sub = dist.new_group([0])
    if rank != 0:
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            assert dist.all_reduce_coalesced([torch.ones(1)], group=sub) is None
        out["warned"] = any("does not belong to the given group" in str(x.message) for x in w)
    dist.destroy_process_group()
    return out


@pytest.mark.parametrize("ws", [1, 3])
def test_coalesced_collectives(ws):
    res = run_ranks(_job, ws, timeout=60)
    tot = ws * (ws + 1) / 2
    for rank, out in enumerate(res):
        a, b, c = out["sum"]
        assert a == [[tot] * 3] * 2
        assert b == (np.arange(4.0) * tot).tolist()
        assert c == [[ws * (ws - 1) / 2] * 3] * 4
        assert out["max"] == [ws - 1.0]
        assert out["complex"] == (complex(ws, ws * (ws - 1) / 2), 2.0 * ws)
        assert out["gather"] == [[[r, r], [[10 * r]]] for r in range(ws)]
        assert out["errors"] == [
            "ValueError", "ValueError", "RuntimeError",
            "ProcessGroupGloo::allgather_coalesced: invalid size of output tensor at index 0 "
            "(expected length (2), got (3))", "TypeError", "TypeError"]
        if rank:
            assert out["warned"]
