"""Every collective on 1-4 real processes against a NumPy reference.

Each rank builds its inputs from a seeded generator, so every rank can compute
what every other rank sent and check its results locally.  Tolerances: exact
for integer and bool dtypes; float64 1e-12, float32 1e-5, float16 2e-3
(relative, combined in float and rounded after every step, order differing
between algorithms).
"""
import functools
import gc
import os
from datetime import timedelta

import numpy as np
import pytest

import minitorch as torch
import minitorch.distributed as dist
from test_distributed_support import run_ranks

R = dist.ReduceOp
DTYPES = ["float32", "float64", "float16", "int64", "int32", "int16", "int8", "uint8", "bool"]
TOL = {"float64": 1e-12, "float32": 1e-5, "float16": 2e-3}


def _data(seed, rank, shape, dt):
    rng = np.random.default_rng(seed * 1009 + rank)
    if dt == "bool":
        return rng.random(shape) < 0.5
    if dt.startswith("float"):
        return rng.uniform(0.5, 2.0, shape).astype(dt)  # positive: products stay tame
    if dt == "uint8":
        return rng.integers(0, 6, shape).astype(dt)
    return rng.integers(-4, 5, shape).astype(dt)


def _t(a):
    return torch.from_numpy(np.ascontiguousarray(a).copy())


def _ops_for(dt):
    ops = [R.SUM, R.PRODUCT, R.MIN, R.MAX]
    if not dt.startswith("float"):
        ops += [R.BAND, R.BOR, R.BXOR]
    else:
        ops += [R.AVG]
    return ops


def _np_reduce(arrs, op, dt):
    if dt == "bool":
        f = {R.SUM: np.logical_or, R.PRODUCT: np.logical_and, R.MIN: np.logical_and,
             R.MAX: np.logical_or, R.BAND: np.logical_and, R.BOR: np.logical_or,
             R.BXOR: np.logical_xor}[op]
        return functools.reduce(f, arrs)
    if op == R.AVG:
        acc = functools.reduce(np.add, [a.astype(np.float64) for a in arrs])
        return (acc / len(arrs)).astype(dt)
    f = {R.SUM: np.add, R.PRODUCT: np.multiply, R.MIN: np.minimum, R.MAX: np.maximum,
         R.BAND: np.bitwise_and, R.BOR: np.bitwise_or, R.BXOR: np.bitwise_xor}[op]
    with np.errstate(over="ignore"):
        if dt.startswith("float"):
            return functools.reduce(f, [a.astype(np.float64) for a in arrs]).astype(dt)
        return functools.reduce(f, arrs)


class _Checker:
    def __init__(self, rank):
        self.rank = rank
        self.failures = []

    def eq(self, what, got, want, dt):
        got = got.numpy() if hasattr(got, "numpy") else got
        want = np.asarray(want)
        if got.shape != want.shape:
            self.failures.append(f"rank {self.rank} {what}: shape {got.shape} != {want.shape}")
            return
        if dt in TOL:
            ok = np.allclose(got.astype(np.float64), want.astype(np.float64), rtol=TOL[dt],
                             atol=TOL[dt])
        else:
            ok = np.array_equal(got, want)
        if not ok:
            self.failures.append(f"rank {self.rank} {what} [{dt}]: got {got!r} want {want!r}")


def _job_collectives(rank, ws, init_method, dtypes):
    dist.init_process_group("gloo", init_method=init_method, rank=rank, world_size=ws)
    c = _Checker(rank)
    last = ws - 1
    for di, dt in enumerate(dtypes):
        shape = (3, 5) if di % 2 else (7,)
        ins = [_data(di, r, shape, dt) for r in range(ws)]
        # all_reduce with every op; async for odd ops
        for k, op in enumerate(_ops_for(dt)):
            t = _t(ins[rank])
            w = dist.all_reduce(t, op=op, async_op=bool(k % 2))
            if w is not None:
                assert w.wait() and w.is_completed() and w.is_success() and w.exception() is None
            c.eq(f"all_reduce {op!r}", t, _np_reduce(ins, op, dt), dt)
        # reduce: only dst changes
        for op in (R.SUM, R.MAX):
            t = _t(ins[rank])
            dist.reduce(t, dst=last, op=op)
            c.eq(f"reduce {op!r}", t, _np_reduce(ins, op, dt) if rank == last else ins[rank], dt)
        # broadcast from the last rank
        t = _t(ins[rank])
        dist.broadcast(t, src=last)
        c.eq("broadcast", t, ins[last], dt)
        # all_gather / all_gather_into_tensor
        outs = [_t(np.zeros(shape, dt)) for _ in range(ws)]
        dist.all_gather(outs, _t(ins[rank]))
        for r in range(ws):
            c.eq(f"all_gather[{r}]", outs[r], ins[r], dt)
        big = _t(np.zeros((ws,) + shape, dt))
        dist.all_gather_into_tensor(big, _t(ins[rank]))
        c.eq("all_gather_into_tensor", big, np.stack(ins), dt)
        # gather to 0, scatter from the last rank
        gl = [_t(np.zeros(shape, dt)) for _ in range(ws)] if rank == 0 else None
        dist.gather(_t(ins[rank]), gl, dst=0)
        if rank == 0:
            for r in range(ws):
                c.eq(f"gather[{r}]", gl[r], ins[r], dt)
        pieces = [_data(di + 50, r, shape, dt) for r in range(ws)]
        out = _t(np.zeros(shape, dt))
        dist.scatter(out, [_t(p) for p in pieces] if rank == last else None, src=last)
        c.eq("scatter", out, pieces[rank], dt)
        # reduce_scatter / reduce_scatter_tensor: rank r's list entry j goes to rank j
        lists = [[_data(di + 100 * (j + 1), r, shape, dt) for j in range(ws)] for r in range(ws)]
        for op in (R.SUM, R.MIN):
            out = _t(np.zeros(shape, dt))
            dist.reduce_scatter(out, [_t(a) for a in lists[rank]], op=op)
            c.eq(f"reduce_scatter {op!r}", out, _np_reduce([lists[r][rank] for r in range(ws)],
                                                            op, dt), dt)
            out = _t(np.zeros(shape, dt))
            dist.reduce_scatter_tensor(out, _t(np.concatenate(lists[rank])), op=op)
            c.eq(f"reduce_scatter_tensor {op!r}", out,
                 _np_reduce([lists[r][rank] for r in range(ws)], op, dt), dt)
        # all_to_all: rank r sends rank j a block of j + r + 1 elements
        blocks = [[_data(di + 7, 10 * r + j, (j + r + 1,), dt) for j in range(ws)]
                  for r in range(ws)]
        outs = [_t(np.zeros((rank + r + 1,), dt)) for r in range(ws)]
        dist.all_to_all(outs, [_t(b) for b in blocks[rank]])
        for r in range(ws):
            c.eq(f"all_to_all[{r}]", outs[r], blocks[r][rank], dt)
        # all_to_all_single with split sizes, and with equal splits
        in_splits = [j + rank + 1 for j in range(ws)]
        out_splits = [rank + r + 1 for r in range(ws)]
        inp = np.concatenate(blocks[rank])
        out = _t(np.zeros((sum(out_splits),), dt))
        dist.all_to_all_single(out, _t(inp), out_splits, in_splits)
        c.eq("all_to_all_single splits", out, np.concatenate([blocks[r][rank] for r in range(ws)]),
             dt)
        eq_in = [_data(di + 9, r, (2 * ws, 3), dt) for r in range(ws)]
        out = _t(np.zeros((2 * ws, 3), dt))
        dist.all_to_all_single(out, _t(eq_in[rank]))
        c.eq("all_to_all_single", out,
             np.concatenate([eq_in[r][2 * rank:2 * rank + 2] for r in range(ws)]), dt)
        # point to point around the ring
        if ws > 1:
            right, left = (rank + 1) % ws, (rank - 1) % ws
            w = dist.isend(_t(ins[rank]), right, tag=di)
            got = _t(np.zeros(shape, dt))
            src = dist.recv(got, src=None if rank % 2 else left, tag=di)
            w.wait()
            c.eq("send/recv", got, ins[left], dt)
            if src != left:
                c.failures.append(f"rank {rank}: recv returned {src}, expected {left}")
            got2 = _t(np.zeros(shape, dt))
            works = dist.batch_isend_irecv([dist.P2POp(dist.irecv, got2, left, tag=5),
                                            dist.P2POp(dist.isend, _t(ins[rank]), right, tag=5)])
            for w in works:
                w.wait()
            c.eq("batch_isend_irecv", got2, ins[left], dt)
    dist.barrier()
    w = dist.barrier(async_op=True)
    w.wait()
    dist.destroy_process_group()
    return c.failures


@pytest.mark.parametrize("ws", [1, 2, 3, 4])
def test_collectives_every_dtype(ws):
    dts = DTYPES if ws in (1, 3) else DTYPES[::2] if ws == 4 else DTYPES[1::2]
    res = run_ranks(_job_collectives, ws, dts, timeout=50)
    assert res == [[]] * ws


def _job_misc(rank, ws, init_method):
    """0-d/0-size/non-contiguous tensors, subgroups, object collectives."""
    dist.init_process_group("gloo", init_method=init_method, rank=rank, world_size=ws)
    c = _Checker(rank)
    # 0-d and 0-size
    t = torch.tensor(float(rank + 1))
    dist.all_reduce(t)
    c.eq("0-d", t, np.float32(ws * (ws + 1) / 2), "float32")
    e = torch.zeros(0, 3)
    dist.all_reduce(e)
    dist.broadcast(e, 0)
    outs = [torch.zeros(0, 3) for _ in range(ws)]
    dist.all_gather(outs, e)
    c.eq("0-size", e, np.zeros((0, 3), np.float32), "float32")
    # non-contiguous inputs and outputs (transposes, strided slices)
    base = np.arange(24, dtype=np.float64).reshape(4, 6) + rank
    t = _t(base).t()
    dist.all_reduce(t)
    c.eq("noncontig all_reduce", t, sum(np.arange(24.).reshape(4, 6) + r for r in range(ws)).T,
         "float64")
    t = _t(base)[:, ::2]
    dist.broadcast(t, src=ws - 1)
    c.eq("noncontig broadcast", t, (np.arange(24.).reshape(4, 6) + ws - 1)[:, ::2], "float64")
    holders = [torch.zeros(6, 4, dtype=torch.float64) for _ in range(ws)]
    outs = [h.t() for h in holders]
    dist.all_gather(outs, _t(base)[:, :].t().t())
    for r in range(ws):
        c.eq(f"noncontig all_gather[{r}]", holders[r],
             (np.arange(24.).reshape(4, 6) + r).T, "float64")
    w = dist.all_reduce(t := _t(base).t(), async_op=True)
    w.wait()
    c.eq("noncontig async", t, sum(np.arange(24.).reshape(4, 6) + r for r in range(ws)).T,
         "float64")
    big = torch.zeros(ws * 2, 4, dtype=torch.int64).t()  # noncontig output
    dist.all_gather_into_tensor(big, torch.full((4, 2), rank, dtype=torch.int64))
    # ranks' blocks fill the output in its logical (row-major) order
    c.eq("noncontig all_gather_into_tensor", big,
         np.repeat(np.arange(ws), 8).reshape(4, 2 * ws), "int64")
    # subgroups: even ranks, and a group of ranks 0 and the last
    evens = list(range(0, ws, 2))
    g = dist.new_group(evens)
    g2 = dist.new_group(sorted({0, ws - 1}))
    if rank in evens:
        t = torch.tensor([rank])
        dist.all_reduce(t, group=g)
        c.eq("subgroup all_reduce", t, np.array([sum(evens)]), "int64")
        assert dist.get_rank(g) == evens.index(rank) and dist.get_world_size(g) == len(evens)
        b = torch.tensor([rank * 10])
        dist.broadcast(b, src=evens[-1], group=g)
        c.eq("subgroup broadcast (global src)", b, np.array([evens[-1] * 10]), "int64")
        assert dist.get_process_group_ranks(g) == evens
        assert dist.get_global_rank(g, len(evens) - 1) == evens[-1]
        assert dist.get_group_rank(g, rank) == evens.index(rank)
    else:
        assert g is dist.GroupMember.NON_GROUP_MEMBER
        assert dist.get_rank(g) == -1 and dist.get_world_size(g) == -1
        # Note [Non-members]: as torch, a warning and nothing done (recv returns -1) ...
        import warnings
        calls = (lambda: dist.all_reduce(torch.ones(1), group=g),
                 lambda: dist.broadcast(torch.ones(1), src=0, group=g),
                 lambda: dist.barrier(group=g),
                 lambda: dist.send(torch.ones(1), dst=0, group=g),
                 lambda: dist.all_gather_object([None], 1, group=g))
        for call in calls:
            with warnings.catch_warnings(record=True) as w:
                warnings.simplefilter("always")
                assert call() is None
            assert any(f"on global rank {rank} which does not belong to the given group" in str(x.message)
                       for x in w), [str(x.message) for x in w]
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            assert dist.recv(torch.ones(1), src=0, group=g) == -1
            assert dist.all_reduce(torch.ones(1), dist.ReduceOp.SUM, g) is None
        # ... and the strict mode raises
        os.environ["MINITORCH_DISTRIBUTED_STRICT_GROUPS"] = "1"
        try:
            for call in calls:
                try:
                    call()
                    raise AssertionError("a collective on NON_GROUP_MEMBER did not raise")
                except ValueError as e:
                    assert f"global rank {rank} is not a member" in str(e), e
        finally:
            del os.environ["MINITORCH_DISTRIBUTED_STRICT_GROUPS"]
        try:
            dist.get_backend(g)
            raise AssertionError("get_backend(NON_GROUP_MEMBER) did not raise")
        except ValueError:
            pass
    if g2 is not dist.GroupMember.NON_GROUP_MEMBER:
        outs = [torch.zeros(1) for _ in range(dist.get_world_size(g2))]
        dist.all_gather(outs, torch.tensor([float(rank)]), group=g2)
        c.eq("subgroup all_gather", torch.cat(outs), np.array(sorted({0.0, ws - 1.0}),
                                                                np.float32), "float32")
        if ws > 1 and rank == ws - 1:
            try:
                dist.broadcast(torch.ones(1), src=1 if ws > 2 else 5, group=g2)
                raise AssertionError("broadcast from a non-member did not raise")
            except ValueError:
                pass
    # object collectives
    objs = [None] * ws
    dist.all_gather_object(objs, {"rank": rank, "pad": "x" * rank * 100})
    assert objs == [{"rank": r, "pad": "x" * r * 100} for r in range(ws)], objs
    lst = [("a", 1), None, [3.5]] if rank == ws - 1 else [None, None, None]
    dist.broadcast_object_list(lst, src=ws - 1)
    assert lst == [("a", 1), None, [3.5]], lst
    gl = [None] * ws if rank == 0 else None
    dist.gather_object(rank * 1.5, gl, dst=0)
    if rank == 0:
        assert gl == [r * 1.5 for r in range(ws)], gl
    out = [None]
    dist.scatter_object_list(out, [f"to{r}" * (r + 1) for r in range(ws)] if rank == 0 else None,
                             src=0)
    assert out == [f"to{rank}" * (rank + 1)], out
    dist.destroy_process_group(g2) if g2 is not dist.GroupMember.NON_GROUP_MEMBER else None
    dist.destroy_process_group()
    return c.failures


@pytest.mark.parametrize("ws", [1, 3])
def test_noncontiguous_subgroups_objects(ws):
    assert run_ranks(_job_misc, ws, timeout=50) == [[]] * ws


def _expect(exc, match, fn, *a, **k):
    import re

    try:
        fn(*a, **k)
    except exc as e:
        if not re.search(match, str(e)):
            raise AssertionError(f"{fn.__name__}: message {str(e)!r} does not match {match!r}")
        return
    raise AssertionError(f"{fn.__name__}{a} did not raise {exc.__name__}")


def _job_bad_args(rank, ws, init_method):
    dist.init_process_group("gloo", init_method=init_method, rank=rank, world_size=ws)
    x = torch.ones(4)
    _expect(TypeError, "Expected parameter `tensor` of type torch.Tensor", dist.all_reduce, [1.0])
    _expect(TypeError, "List\\[torch.Tensor\\]", dist.all_gather, x, x)
    _expect(TypeError, "op must be", dist.all_reduce, x, op="sum")
    _expect(ValueError, "Invalid src rank 5", dist.broadcast, x, src=5)
    _expect(ValueError, "Invalid dst rank -1", dist.reduce, x, dst=-1)
    _expect(ValueError, "Invalid dst rank 2", dist.send, x, 2)
    _expect(ValueError, "should not be the same as the", dist.send, x, rank)
    _expect(ValueError, "must contain 2 tensors", dist.all_gather, [x], x)
    _expect(ValueError, "elements, expected", dist.all_gather, [x, torch.ones(3)], x)
    _expect(TypeError, "dtype", dist.all_gather, [x, torch.ones(4, dtype=torch.int64)], x)
    _expect(TypeError, "(?i)float", dist.all_reduce, x, op=R.BXOR)
    _expect((TypeError, ValueError), "(?i)avg", dist.all_reduce, torch.ones(2, dtype=torch.int32),
            op=R.AVG)
    _expect(ValueError, "must be specified on destination", dist.gather, x, None, 0) \
        if rank == 0 else _expect(ValueError, "must NOT be specified", dist.gather, x, [x, x], 0)
    _expect(ValueError, "must be specified on source", dist.scatter, x, None, 1) \
        if rank == 1 else _expect(ValueError, "must NOT be specified", dist.scatter, x, [x, x], 1)
    _expect(ValueError, "scatter_list must contain 2 tensors", dist.scatter, x, [x], 1) \
        if rank == 1 else None
    _expect(ValueError, "output tensor size", dist.all_gather_into_tensor, torch.ones(5), x)
    _expect(ValueError, "input tensor size", dist.reduce_scatter_tensor, x, torch.ones(5))
    _expect(ValueError, "split sizes|not", dist.all_to_all_single, torch.ones(4), torch.ones(4),
            [1, 1], [3, 3])
    _expect(ValueError, "Tensors must be contiguous", dist.all_to_all_single, torch.ones(2, 2),
            torch.ones(2, 2).t())
    _expect(ValueError, "Tensors must be contiguous",
            dist.distributed_c10d._get_default_group().alltoall_base, torch.ones(2, 2),
            torch.ones(2, 2).t(), [], [])
    _expect(TypeError, "tag", dist.send, x, 1 - rank, tag="a")
    _expect(ValueError, "P2POp", dist.batch_isend_irecv, [])
    _expect(ValueError, "Invalid ``op``", dist.P2POp, dist.send, x, 1 - rank)
    _expect(TypeError, "group must be a ProcessGroup", dist.all_reduce, x, group="world")
    # the group still works after all those refusals
    dist.all_reduce(x)
    dist.destroy_process_group()
    return x.tolist()


def test_bad_arguments_raise_before_anything_is_sent():
    assert run_ranks(_job_bad_args, 2) == [[2.0] * 4] * 2


def _job_async_drop(rank, ws, init_method):
    """Works keep their tensors alive; results arrive in issue order."""
    dist.init_process_group("gloo", init_method=init_method, rank=rank, world_size=ws)
    works = []
    for i in range(20):
        works.append((i, dist.all_reduce(torch.full((1000,), float(i + rank)), async_op=True)))
    import gc

    gc.collect()
    for i, w in works:
        w.wait()
        assert w.is_completed() and w.is_success()
    # synchronous operations queued behind asynchronous ones keep issue order
    a = torch.full((4,), float(rank + 1))
    wa = dist.all_reduce(a, async_op=True)
    b = torch.full((4,), float(rank + 1))
    dist.all_reduce(b, op=dist.ReduceOp.PRODUCT)
    wa.wait()
    assert a.tolist() == [float(sum(range(1, ws + 1)))] * 4
    assert b.tolist() == [float(np.prod(range(1, ws + 1)))] * 4
    # a thread waiting on async work while the main thread runs blocking ones
    import threading

    c = torch.ones(1000)
    wc = dist.all_reduce(c, async_op=True)
    th = threading.Thread(target=wc.wait)
    th.start()
    for _ in range(10):
        dist.broadcast(torch.ones(5), 0)
    th.join(20)
    assert not th.is_alive() and c.tolist() == [float(ws)] * 1000
    keep = torch.full((3,), float(rank))
    w = dist.all_reduce(keep, async_op=True)
    w.wait()
    assert w.result()[0] is keep
    dist.destroy_process_group()
    return keep.tolist()


def test_async_ops_hold_their_tensors():
    assert run_ranks(_job_async_drop, 3) == [[3.0] * 3] * 3


def _job_irecv_first(rank, ws, init_method):
    """irecv posted before the isend its peer waits for (Note [Lone receives])."""
    dist.init_process_group("gloo", init_method=init_method, rank=rank, world_size=ws)
    right, left = (rank + 1) % ws, (rank - 1) % ws
    a, b = torch.zeros(3), torch.zeros(5)
    r1 = dist.irecv(a, src=left, tag=1)
    r2 = dist.irecv(b, src=left, tag=1)  # same peer and tag: matched in issue order
    s1 = dist.isend(torch.full((3,), float(rank)), right, tag=1)
    s2 = dist.isend(torch.full((5,), rank + 0.5), right, tag=1)
    for w in (r1, r2, s1, s2):
        w.wait()
    out = [a.tolist(), b.tolist()]
    # a receive from any source, completed by polling
    c = torch.zeros(1)
    r = dist.irecv(c)
    dist.isend(torch.tensor([float(rank)]), right)
    import time

    t0 = time.monotonic()
    while not r.is_completed():
        assert time.monotonic() - t0 < 10, "polled irecv never completed"
        time.sleep(0.001)
    out.append((c.item(), r.source_rank()))
    # a collective queued behind an irecv/isend pair
    d = torch.zeros(2)
    rd = dist.irecv(d, src=left, tag=9)
    sd = dist.isend(torch.full((2,), 7.0), right, tag=9)
    t = torch.ones(2)
    dist.all_reduce(t)
    rd.wait()
    sd.wait()
    out.append((d.tolist(), t.tolist()))
    dist.destroy_process_group()
    return out


@pytest.mark.parametrize("ws", [2, 3])
def test_irecv_before_isend(ws):
    res = run_ranks(_job_irecv_first, ws, timeout=40)
    for rank, out in enumerate(res):
        left = (rank - 1) % ws
        assert out[0] == [float(left)] * 3 and out[1] == [left + 0.5] * 5
        assert out[2] == (float(left), left)
        assert out[3] == ([7.0, 7.0], [float(ws)] * 2)


def _job_unwanted_sender(rank, ws, init_method):
    """Rank 1 sends rank 0 more than the socket buffers hold while rank 0 waits on rank 2, whose
    message depends on rank 1 finishing that send (Note [Lazy reads]: a waiting exchange reads
    everything after its spin budget, so this cannot deadlock)."""
    dist.init_process_group("gloo", init_method=init_method, rank=rank, world_size=ws,
                            timeout=timedelta(seconds=20))
    n = 16 << 20  # floats: 64 MiB, far beyond the 4 MiB socket buffers
    if rank == 0:
        r = torch.zeros(1)
        dist.recv(r, src=2, tag=7)
        big = torch.zeros(n)
        dist.recv(big, src=1, tag=5)
        out = (r.item(), big.sum().item())
    elif rank == 1:
        dist.send(torch.ones(n), 0, tag=5)
        dist.send(torch.ones(1), 2, tag=6)
        out = None
    else:
        x = torch.zeros(1)
        dist.recv(x, src=1, tag=6)
        dist.send(x * 3, 0, tag=7)
        out = None
    dist.destroy_process_group()
    return out


def test_a_sender_nobody_waits_for_is_drained():
    res = run_ranks(_job_unwanted_sender, 3, timeout=60)
    assert res[0] == (3.0, float(16 << 20))


def _rss_bytes():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def _job_rss(rank, ws, init_method):
    """Many collectives, async works, futures, point-to-point and object calls: RSS stays flat."""
    dist.init_process_group("gloo", init_method=init_method, rank=rank, world_size=ws)
    t = torch.ones(256)
    nc = torch.ones(64, 4).t()  # non-contiguous: staged copies every call
    peer = 1 - rank

    def burst(n):
        for i in range(n):
            dist.all_reduce(t)
            dist.all_reduce(nc, async_op=True).wait()
            dist.all_reduce(t, async_op=True).get_future().wait()
            r = dist.irecv(torch.empty(16), src=peer, tag=3)
            dist.send(torch.ones(16), peer, tag=3)
            r.wait()
            if i % 20 == 0:
                objs = [None, None]
                dist.all_gather_object(objs, {"i": i})
                dist.barrier()

    burst(500)
    gc.collect()
    before = _rss_bytes()
    burst(3000)
    gc.collect()
    growth = _rss_bytes() - before
    dist.destroy_process_group()
    return growth


@pytest.mark.skipif(not os.path.exists("/proc/self/statm") or
                    "asan" in os.environ.get("LD_PRELOAD", ""),
                    reason="needs /proc/self/statm; ASan's quarantine hides frees")
def test_rss_stays_flat_over_many_operations():
    growth = run_ranks(_job_rss, 2, timeout=120)
    # 3000 rounds of 5-6 calls: a leak of ~120 bytes per call would pass 2 MiB
    assert max(growth) < 2 << 20, growth
