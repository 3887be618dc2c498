"""Collectives on complex64/complex128 tensors, on 1-3 real processes, against NumPy.

SUM and AVG treat a complex element as two reals (as torch, which views complex
tensors as real for gloo); PRODUCT, MIN, MAX and the bitwise operations raise
ValueError with torch's message.  Data movement (broadcast, gathers, scatters,
all_to_all, point to point) copies the 8- or 16-byte elements unchanged.
"""
import numpy as np
import pytest

import minitorch as torch
import minitorch.distributed as dist
from test_distributed_support import run_ranks

R = dist.ReduceOp
TOL = {"complex64": 1e-5, "complex128": 1e-12}


def _data(seed, rank, shape, dt):
    rng = np.random.default_rng(seed * 1009 + rank)
    return (rng.uniform(-2, 2, shape) + 1j * rng.uniform(-2, 2, shape)).astype(dt)


def _t(a):
    return torch.from_numpy(np.ascontiguousarray(a).copy())


def _job(rank, ws, init_method, dtypes):
    dist.init_process_group("gloo", init_method=init_method, rank=rank, world_size=ws)
    fails = []

    def eq(what, got, want, dt):
        got = got.numpy()
        if got.dtype != np.dtype(dt) or got.shape != np.shape(want) or not np.allclose(
                got, want, rtol=TOL[dt], atol=TOL[dt]):
            fails.append(f"rank {rank} {what} [{dt}]: got {got!r} want {want!r}")

    last = ws - 1
    for di, dt in enumerate(dtypes):
        shape = (3, 5) if di % 2 else (7,)
        ins = [_data(di, r, shape, dt) for r in range(ws)]
        total = np.sum(ins, axis=0)
        for k, op in enumerate((R.SUM, R.AVG)):
            t = _t(ins[rank])
            w = dist.all_reduce(t, op=op, async_op=bool(k))
            if w is not None:
                w.wait()
            eq(f"all_reduce {op!r}", t, total if op == R.SUM else total / ws, dt)
        # non-contiguous: staged through a contiguous copy
        t = _t(np.stack([ins[rank], ins[rank]], -1))[..., 1]
        dist.all_reduce(t)
        eq("all_reduce strided", t, total, dt)
        t = _t(ins[rank])
        dist.reduce(t, dst=last)
        eq("reduce", t, total if rank == last else ins[rank], dt)
        t = _t(ins[rank])
        dist.broadcast(t, src=last)
        eq("broadcast", t, ins[last], dt)
        outs = [_t(np.zeros(shape, dt)) for _ in range(ws)]
        dist.all_gather(outs, _t(ins[rank]))
        for r in range(ws):
            eq(f"all_gather[{r}]", outs[r], ins[r], dt)
        big = _t(np.zeros((ws,) + shape, dt))
        dist.all_gather_into_tensor(big, _t(ins[rank]))
        eq("all_gather_into_tensor", big, np.stack(ins), dt)
        gl = [_t(np.zeros(shape, dt)) for _ in range(ws)] if rank == 0 else None
        dist.gather(_t(ins[rank]), gl, dst=0)
        if rank == 0:
            for r in range(ws):
                eq(f"gather[{r}]", gl[r], ins[r], dt)
        pieces = [_data(di + 50, r, shape, dt) for r in range(ws)]
        out = _t(np.zeros(shape, dt))
        dist.scatter(out, [_t(p) for p in pieces] if rank == last else None, src=last)
        eq("scatter", out, pieces[rank], dt)
        lists = [[_data(di + 100 * (j + 1), r, shape, dt) for j in range(ws)] for r in range(ws)]
        want = np.sum([lists[r][rank] for r in range(ws)], axis=0)
        out = _t(np.zeros(shape, dt))
        dist.reduce_scatter(out, [_t(a) for a in lists[rank]])
        eq("reduce_scatter", out, want, dt)
        out = _t(np.zeros(shape, dt))
        dist.reduce_scatter_tensor(out, _t(np.concatenate(lists[rank])), op=R.AVG)
        eq("reduce_scatter_tensor AVG", out, want / ws, dt)
        blocks = [[_data(di + 7, 10 * r + j, (j + r + 1,), dt) for j in range(ws)] for r in range(ws)]
        outs = [_t(np.zeros((rank + r + 1,), dt)) for r in range(ws)]
        dist.all_to_all(outs, [_t(b) for b in blocks[rank]])
        for r in range(ws):
            eq(f"all_to_all[{r}]", outs[r], blocks[r][rank], dt)
        if ws > 1:
            right, left = (rank + 1) % ws, (rank - 1) % ws
            w = dist.isend(_t(ins[rank]), right)
            got = _t(np.zeros(shape, dt))
            dist.recv(got, src=left)
            w.wait()
            eq("send/recv", got, ins[left], dt)
        # refused operations: nothing is sent, every rank raises the same way
        for op in (R.PRODUCT, R.MIN, R.MAX, R.BAND, R.BOR, R.BXOR):
            t = _t(ins[rank])
            for name, call in (("all_reduce", lambda: dist.all_reduce(t, op=op)),
                               ("reduce", lambda: dist.reduce(t, dst=0, op=op)),
                               ("reduce_scatter", lambda: dist.reduce_scatter(
                                   t, [t.clone() for _ in range(ws)], op=op))):
                try:
                    call()
                    fails.append(f"rank {rank} {name} {op!r} on {dt} did not raise")
                except ValueError as e:
                    msg = f"{name} does not support RedOpType.{op.name} on complex tensors"
                    if str(e) != msg:
                        fails.append(f"rank {rank}: {e!s} != {msg}")
            if not np.array_equal(t.numpy(), ins[rank]):
                fails.append(f"rank {rank}: a refused {op!r} changed the tensor")
    dist.barrier()
    dist.destroy_process_group()
    return fails


@pytest.mark.parametrize("ws", [1, 2, 3])
def test_complex_collectives(ws):
    res = run_ranks(_job, ws, ["complex64", "complex128"], timeout=50)
    assert res == [[]] * ws
