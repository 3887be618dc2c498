"""The NCCL process group on CUDA tensors (Note [The NCCL backend] in
minitorch/distributed/_process_group_nccl.py), run between processes over the NCCL stand-in
(Note [The NCCL stand-in] in tools/nccl_standin/standin.h) on the emulated CUDA device: every
collective at world sizes 2 to 4 against the CPU backend's results in the same group
("cpu:gloo,cuda:nccl"), stream ordering, async_op, errors and timeouts, DDP, and the launch
program.  On a GPU (tools/gpu_check.sh) the library is the real NCCL and the world size 1.
Skipped without a CUDA device, without NCCL's header at build time, or when the stand-in cannot
be built."""
import os
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest

import minitorch as torch
from minitorch import _C
from helpers import free_port
from test_distributed_support import run_ranks

ROOT = Path(__file__).resolve().parents[1]
EMULATED = "emulated" in (torch.cuda.get_device_name(0) if torch.cuda.device_count() else "")

pytestmark = [
    pytest.mark.skipif(torch.cuda.device_count() == 0,
                       reason="needs a CUDA device (a GPU, or the emulated build)"),
    pytest.mark.skipif(not _C._c10d._nccl_built, reason="built without NCCL's header"),
]


@pytest.fixture(scope="module", autouse=True)
def nccl_library(tmp_path_factory):
    """The emulated build runs over the stand-in, built here into a temporary directory; the
    ranks (spawned) inherit the environment, set for this module's tests only.  A GPU build
    uses the real library."""
    if not EMULATED:
        yield None
        return
    d = tmp_path_factory.mktemp("nccl_standin")
    r = subprocess.run(["bash", str(ROOT / "tools" / "build_nccl_standin.sh"), str(d)],
                       capture_output=True, text=True, timeout=300)
    if r.returncode == 2:
        pytest.skip(f"the NCCL stand-in cannot be built here: {r.stderr.strip()}")
    assert r.returncode == 0, r.stderr
    saved = {k: os.environ.get(k) for k in ("MINITORCH_NCCL_LIBRARY", "MINITORCH_EMULATED_DEVICES",
                                            "MT_NCCL_STANDIN_TIMEOUT")}
    os.environ["MINITORCH_NCCL_LIBRARY"] = str(d / "libnccl.so.2")
    os.environ["MINITORCH_EMULATED_DEVICES"] = "4"
    os.environ["MT_NCCL_STANDIN_TIMEOUT"] = "60"
    yield str(d / "libnccl.so.2")
    for k, v in saved.items():
        if v is None:
            os.environ.pop(k, None)
        else:
            os.environ[k] = v


def _worlds():
    return [1] if not EMULATED else [2, 3, 4]


def _init(rank, world_size, init_method, backend="cpu:gloo,cuda:nccl", **kw):
    import minitorch as torch
    import minitorch.distributed as dist
    torch.cuda.set_device(rank)
    dist.init_process_group(backend, init_method=init_method, rank=rank, world_size=world_size,
                            **kw)
    return torch, dist, torch.device("cuda", rank)


# ---- every collective against the CPU backend ---------------------------------------------

def _values(torch, rank, n, dtype, shift=0):
    """Small integers (exact in every dtype), different on each rank."""
    x = (torch.arange(n, dtype=torch.int64) * (rank + 2) + shift + rank) % 7 - 2
    if dtype == torch.bool:
        return x > 0
    if dtype == torch.complex64:
        return torch.complex(x.float(), (x * 2).float())
    if dtype in (torch.uint8,):
        return (x + 2).to(dtype)
    return x.to(dtype)


def _collectives(rank, world_size, init_method):
    torch, dist, dev = _init(rank, world_size, init_method)
    R = dist.ReduceOp
    bad = []

    def same(what, got, want):
        got = got.cpu()
        if got.dtype != want.dtype or got.shape != want.shape or \
                not torch.equal(got.to(torch.float64) if not got.is_complex() else got,
                                want.to(torch.float64) if not want.is_complex() else want):
            bad.append(f"rank {rank}: {what}: {got.tolist()} != {want.tolist()}")

    def both(fn, *tensors):
        """fn on CPU tensors (the CPU backend) and on their CUDA copies (NCCL): outputs."""
        cpu = [t.clone() for t in tensors]
        cuda = [t.to(dev) for t in tensors]
        fn(*cpu)
        fn(*cuda)
        return cuda, cpu

    dtypes = [torch.float32, torch.float64, torch.int64, torch.int32, torch.int8, torch.uint8,
              torch.float16, torch.bfloat16, torch.bool, torch.complex64]
    for dt in dtypes:
        ops = [R.SUM, R.MAX, R.MIN, R.PRODUCT]
        if dt.is_floating_point or dt.is_complex:
            ops.append(R.AVG)
        if dt.is_complex:
            ops = [R.SUM, R.AVG]
        if dt == torch.bool:
            ops = [R.SUM, R.MAX, R.MIN]
        for op in ops:
            (g,), (w,) = both(lambda t: dist.all_reduce(t, op=op), _values(torch, rank, 7, dt))
            same(f"all_reduce {dt} {op}", g, w)
        (g,), (w,) = both(lambda t: dist.broadcast(t, src=world_size - 1),
                          _values(torch, rank, 5, dt))
        same(f"broadcast {dt}", g, w)
        if dt != torch.bool:
            (g,), (w,) = both(lambda t: dist.reduce(t, dst=0, op=R.SUM),
                              _values(torch, rank, 6, dt))
            if rank == 0:
                same(f"reduce {dt}", g, w)
        x = _values(torch, rank, 4, dt)
        gl = [torch.zeros(4, dtype=dt, device=dev) for _ in range(world_size)]
        dist.all_gather(gl, x.to(dev))
        wl = [torch.zeros(4, dtype=dt) for _ in range(world_size)]
        dist.all_gather(wl, x)
        for i in range(world_size):
            same(f"all_gather {dt} [{i}]", gl[i], wl[i])
        out_g = torch.zeros(4 * world_size, dtype=dt, device=dev)
        dist.all_gather_into_tensor(out_g, x.to(dev))
        same(f"all_gather_into_tensor {dt}", out_g, torch.cat(wl))
        if dt != torch.bool:
            xs = [_values(torch, rank, 3, dt, shift=i) for i in range(world_size)]
            og = torch.zeros(3, dtype=dt, device=dev)
            dist.reduce_scatter(og, [t.to(dev) for t in xs])
            ow = torch.zeros(3, dtype=dt)
            dist.reduce_scatter(ow, xs)
            same(f"reduce_scatter {dt}", og, ow)
            og = torch.zeros(3, dtype=dt, device=dev)
            dist.reduce_scatter_tensor(og, torch.cat(xs).to(dev))
            same(f"reduce_scatter_tensor {dt}", og, ow)
    # all_to_all_single: even and uneven splits; all_to_all of lists
    x = torch.arange(world_size * 2, dtype=torch.float32) + 100 * rank
    (o, _), (w, _) = both(lambda o, i: dist.all_to_all_single(o, i),
                          torch.zeros(world_size * 2), x)
    same("all_to_all_single", o, w)
    ins = [i + 1 for i in range(world_size)]           # rank sends i + 1 rows to rank i
    outs = [rank + 1] * world_size                     # and receives rank + 1 from each
    xi = torch.arange(sum(ins), dtype=torch.float64) + 1000 * rank
    og, ow = torch.zeros(sum(outs), dtype=torch.float64, device=dev), torch.zeros(sum(outs),
                                                                                 dtype=torch.float64)
    dist.all_to_all_single(og, xi.to(dev), outs, ins)
    dist.all_to_all_single(ow, xi, outs, ins)
    same("all_to_all_single uneven", og, ow)
    li = [torch.full((2,), float(rank * 10 + i)) for i in range(world_size)]
    lg = [torch.zeros(2, device=dev) for _ in range(world_size)]
    lw = [torch.zeros(2) for _ in range(world_size)]
    dist.all_to_all(lg, [t.to(dev) for t in li])
    dist.all_to_all(lw, li)
    for i in range(world_size):
        same(f"all_to_all [{i}]", lg[i], lw[i])
    # gather / scatter
    x = torch.full((3,), float(rank + 1))
    gg = [torch.zeros(3, device=dev) for _ in range(world_size)] if rank == 0 else None
    gw = [torch.zeros(3) for _ in range(world_size)] if rank == 0 else None
    dist.gather(x.to(dev), gg, dst=0)
    dist.gather(x, gw, dst=0)
    if rank == 0:
        for i in range(world_size):
            same(f"gather [{i}]", gg[i], gw[i])
    sl = [torch.full((2,), float(i * 3 + 1)) for i in range(world_size)]
    sg, sw = torch.zeros(2, device=dev), torch.zeros(2)
    src = world_size - 1
    dist.scatter(sg, [t.to(dev) for t in sl] if rank == src else None, src=src)
    dist.scatter(sw, sl if rank == src else None, src=src)
    same("scatter", sg, sw)
    # point to point: a ring, blocking and batched
    nxt, prv = (rank + 1) % world_size, (rank - 1) % world_size
    if world_size > 1:
        s = torch.full((5,), float(rank), device=dev)
        r = torch.zeros(5, device=dev)
        if rank % 2 == 0:
            dist.send(s, nxt)
            dist.recv(r, prv)
        else:
            dist.recv(r, prv)
            dist.send(s, nxt)
        same("send/recv", r, torch.full((5,), float(prv)))
        r2 = torch.zeros(300000, device=dev)  # larger than the stand-in's rings
        big = torch.arange(300000, dtype=torch.float32, device=dev) + rank
        works = dist.batch_isend_irecv([dist.P2POp(dist.isend, big, nxt),
                                        dist.P2POp(dist.irecv, r2, prv)])
        for w in works:
            w.wait()
        same("batch_isend_irecv", r2[:3], torch.tensor([0.0, 1.0, 2.0]) + prv)
        same("batch_isend_irecv (end)", r2[-1:], torch.tensor([299999.0 + prv]))
    # the coalesced form, async_op, a barrier
    ts = [_values(torch, rank, 3, torch.float32, shift=i) for i in range(3)]
    tg = [t.to(dev) for t in ts]
    fut = dist.all_reduce_coalesced(tg, async_op=True)
    fut.wait()
    dist.all_reduce_coalesced(ts)
    for i in range(3):
        same(f"all_reduce_coalesced [{i}]", tg[i], ts[i])
    pg = dist.group.WORLD  # the coalesced tensor forms, through the group's methods
    xs = [_values(torch, rank, 2, torch.float32, shift=i) for i in range(2)]
    og = [torch.zeros(2 * world_size, device=dev) for _ in xs]
    ow = [torch.zeros(2 * world_size) for _ in xs]
    pg.allgather_into_tensor_coalesced(og, [x.to(dev) for x in xs]).wait()
    pg.allgather_into_tensor_coalesced(ow, xs).wait()
    rg = [torch.zeros(2, device=dev) for _ in xs]
    rw = [torch.zeros(2) for _ in xs]
    pg.reduce_scatter_tensor_coalesced(rg, [o.clone() for o in og]).wait()
    pg.reduce_scatter_tensor_coalesced(rw, [o.clone() for o in ow]).wait()
    for i in range(2):
        same(f"allgather_into_tensor_coalesced [{i}]", og[i], ow[i])
        same(f"reduce_scatter_tensor_coalesced [{i}]", rg[i], rw[i])
    big = torch.ones(600000, device=dev) * (rank + 1)  # many stand-in chunks
    w = dist.all_reduce(big, async_op=True)
    assert w.wait() is True
    w.synchronize()
    assert w.is_completed() and w.is_success() and w.exception() is None
    same("all_reduce large", big[-2:], torch.full((2,), world_size * (world_size + 1) / 2.0))
    dist.barrier()
    return bad


@pytest.mark.parametrize("world_size", _worlds())
def test_every_collective_matches_the_cpu_backend(world_size):
    res = run_ranks(_collectives, world_size, timeout=240)
    assert res == [[]] * world_size, "\n".join(sum(res, []))


# ---- streams -----------------------------------------------------------------------------

def _streams(rank, world_size, init_method):
    torch, dist, dev = _init(rank, world_size, init_method, backend="nccl")
    n = 200000
    side = torch.cuda.Stream(dev)
    got = []
    for _ in range(3):
        with torch.cuda.stream(side):
            # kernels queued on the current (side) stream; the collective must see their result
            x = torch.ones(n, device=dev)
            for _ in range(4):
                x = x * 2 + 1
            w = dist.all_reduce(x, async_op=True)
            w.wait()             # the side stream waits for the collective ...
            y = x * 2            # ... so this kernel reads the reduced values
        side.synchronize()
        got.append((x[:2].cpu().tolist(), y[-2:].cpu().tolist()))
    # blocking form on the default stream, then a kernel
    z = torch.full((n,), float(rank), device=dev)
    dist.all_reduce(z)
    got.append((z.add(1)[:1].cpu().tolist(), None))
    # a future completes once the operation finished on the device
    f = dist.all_reduce(torch.ones(3, device=dev), async_op=True).get_future()
    got.append((f.wait()[0].cpu().tolist(), None))
    # object collectives of a group without a CPU backend travel on the current device
    objs = [None] * world_size
    dist.all_gather_object(objs, {"rank": rank})
    lst = [("hello", rank)] if rank == 0 else [None]
    dist.broadcast_object_list(lst, src=0)
    got.append((objs, lst))
    # DDP finding unused parameters: its map of used parameters travels on the device too
    from minitorch.nn.parallel import DistributedDataParallel as DDP

    class Two(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.a, self.b = torch.nn.Linear(3, 2), torch.nn.Linear(3, 2)

        def forward(self, x):
            return self.a(x)

    m = DDP(Two().to(dev), device_ids=[rank], find_unused_parameters=True)
    m(torch.full((4, 3), float(rank + 1), device=dev)).sum().backward()
    got.append((m.module.a.weight.grad.cpu().tolist(), m.module.b.weight.grad))
    return got


@pytest.mark.parametrize("world_size", _worlds()[:1])
def test_collectives_follow_the_current_stream(world_size):
    res = run_ranks(_streams, world_size, timeout=180)
    want = 31.0 * world_size
    for got in res:
        for xs, ys in got[:3]:
            assert xs == [want, want] and ys == [2 * want, 2 * want]
        assert got[3][0] == [world_size * (world_size - 1) / 2 + 1]
        assert got[4][0] == [float(world_size)] * 3
        assert got[5] == ([{"rank": r} for r in range(world_size)], [("hello", 0)])
        mean = 4 * sum(range(1, world_size + 1)) / world_size  # 4 rows of rank + 1, averaged
        assert got[6] == ([[mean] * 3] * 2, None)


# ---- errors and timeouts ------------------------------------------------------------------

def _stall(rank, world_size, init_method):
    from datetime import timedelta
    torch, dist, dev = _init(rank, world_size, init_method, backend="nccl",
                             timeout=timedelta(seconds=3))
    t = torch.ones(4, device=dev)
    dist.all_reduce(t)
    if rank == 1:
        os.environ["MT_NCCL_STANDIN_FAULT"] = "stall:2"
    start = time.monotonic()
    w = dist.all_reduce(t, async_op=True)
    try:
        w.synchronize()
        out = "no error"
    except dist.DistBackendError as e:
        out = str(e)
    elapsed = time.monotonic() - start
    try:
        dist.all_reduce(t)
        later = "no error"
    except dist.DistBackendError as e:
        later = str(e)
    return out, elapsed, later


@pytest.mark.skipif(not EMULATED, reason="needs the stand-in's fault hook")
def test_a_stalled_rank_times_out_and_aborts_on_every_rank():
    res = run_ranks(_stall, 3, timeout=120)
    for rank, (out, elapsed, later) in enumerate(res):
        assert f"[Rank {rank}]" in out, out
        assert elapsed < 30, elapsed
        assert later == out
    # the ranks that waited for the stalled one caught the timeout (or, having learnt of the
    # abort first, the communicator's error)
    assert any("Watchdog caught collective operation timeout: WorkNCCL(SeqNum=2, "
               "OpType=ALLREDUCE, NumelIn=4, NumelOut=4, Timeout(ms)=3000)" in out
               for out, _, _ in res), res


def _faults(rank, world_size, init_method):
    torch, dist, dev = _init(rank, world_size, init_method, backend="nccl")
    t = torch.ones(4, device=dev)
    out = []
    if rank == 0:
        os.environ["MT_NCCL_STANDIN_FAULT"] = "call:1"
    try:
        dist.all_reduce(t)  # rank 0's call fails at once, so the others' never completes
    except dist.DistBackendError as e:
        out.append(str(e))
    os.environ["MT_NCCL_STANDIN_FAULT"] = ""
    if rank == 0:
        # the peers' first all_reduce is still waiting for rank 0's: this one matches it
        dist.all_reduce(t)
    dist.all_reduce(t)
    out.append(t.cpu().tolist())
    if rank == 1:
        os.environ["MT_NCCL_STANDIN_FAULT"] = "async:3"  # rank 1's next (third) operation
    w = dist.all_reduce(t, async_op=True)
    try:
        w.synchronize()
        out.append("no error")
    except dist.DistBackendError as e:
        out.append(str(e))
    try:
        dist.all_reduce(torch.ones(2), group=None)
    except RuntimeError as e:
        out.append(str(e))
    return out


@pytest.mark.skipif(not EMULATED, reason="needs the stand-in's fault hook")
def test_nccl_errors_become_exceptions_with_the_rank():
    r0, r1 = run_ranks(_faults, 2, timeout=120)
    assert re.match(r"\[Rank 0\] NCCL error in ncclAllReduce: internal error - please report "
                    r"this issue to the NCCL developers \(ncclResult_t 3\), NCCL version \d+",
                    r0[0]), r0
    assert r0[1] == [4.0] * 4 and r1[0] == [4.0] * 4
    assert "[Rank 1] NCCL communicator encountered an error" in r1[1]
    assert "unhandled system error" in r1[1]
    assert "[Rank 0] NCCL communicator encountered an error" in r0[2]
    assert "remote process exited or there was a network error" in r0[2]
    # CPU tensors given to a group without a CPU backend: torch's error
    assert r0[3] == r1[2] == "No backend type associated with device type cpu"


# ---- PreMulSum (Note [PreMulSum operators]) ------------------------------------------------

def _premul(rank, world_size, init_method):
    torch, dist, dev = _init(rank, world_size, init_method, backend="nccl")
    out = []
    n = world_size
    for dt in (torch.float32, torch.float64, torch.float16, torch.bfloat16):
        t = torch.full((5,), float(rank + 1), dtype=dt, device=dev)
        # a float factor: (1 + ... + n) * 0.5 on every rank
        dist.all_reduce(t, op=dist._make_nccl_premul_sum(0.5))
        out.append((str(dt), t.cpu().float().tolist()))
    # a tensor factor, read on the device when the collective runs, different on each rank:
    # sum over r of (r + 1) * (r + 1)
    f = torch.tensor([float(rank + 1)], device=dev)
    t = torch.full((3,), float(rank + 1), device=dev)
    dist.all_reduce(t, op=dist._make_nccl_premul_sum(f))
    out.append(("tensor", t.cpu().tolist()))
    # reduce_scatter_tensor and reduce with a factor; complex tensors as pairs of reals
    src = torch.arange(2 * n, dtype=torch.float32, device=dev) + rank
    dst = torch.empty(2, device=dev)
    dist.reduce_scatter_tensor(dst, src, op=dist._make_nccl_premul_sum(2.0))
    out.append(("reduce_scatter", dst.cpu().tolist()))
    z = torch.full((2,), complex(rank, 1), dtype=torch.complex64, device=dev)
    dist.reduce(z, dst=0, op=dist._make_nccl_premul_sum(3.0))
    if rank == 0:
        out.append(("complex", [(v.real, v.imag) for v in z.cpu().tolist()]))
    # errors: the op without a factor, and integer tensors
    for bad in (lambda: dist.all_reduce(t, op=dist.ReduceOp.PREMUL_SUM),
                lambda: dist.all_reduce(torch.ones(2, dtype=torch.int64, device=dev),
                                        op=dist._make_nccl_premul_sum(2.0))):
        try:
            bad()
            out.append("no error")
        except (RuntimeError, TypeError) as e:
            out.append(f"{type(e).__name__}: {e}")
    dist.barrier()
    return out


@pytest.mark.parametrize("world_size", [2, 3] if EMULATED else [1])
def test_premul_sum(world_size):
    res = run_ranks(_premul, world_size, timeout=120)
    n = world_size
    tri = n * (n + 1) / 2
    for rank, out in enumerate(res):
        for dt, got in out[:4]:
            assert got == [tri * 0.5] * 5, (dt, got)
        assert out[4] == ("tensor", [float(sum((r + 1) ** 2 for r in range(n)))] * 3)
        want = [2.0 * sum(2 * rank + i + r for r in range(n)) for i in range(2)]
        assert out[5] == ("reduce_scatter", want)
        errs = out[-2:]
        if rank == 0:
            c = 3.0 * sum(range(n))
            assert out[6] == ("complex", [(c, 3.0 * n)] * 2)
        assert errs[0].startswith("RuntimeError: ReduceOp.PREMUL_SUM needs a factor"), errs
        assert errs[1] == "TypeError: PreMulSum Data type must be half, float, bfloat16 or " \
            "double", errs


# ---- groups, mixed backends, initialisation ----------------------------------------------

def _groups(rank, world_size, init_method):
    import minitorch as torch
    import minitorch.distributed as dist
    torch.cuda.set_device(rank)
    dist.init_process_group(init_method=init_method, rank=rank, world_size=world_size,
                            device_id=torch.device("cuda", rank))
    dev = torch.device("cuda", rank)
    out = {"config": str(dist.get_backend_config()), "bound": str(dist.group.WORLD.bound_device_id),
           "available": dist.is_nccl_available()}
    sub = dist.new_group([0, 2], backend="nccl")
    t = torch.full((3,), float(rank + 1), device=dev)
    if sub is not dist.GroupMember.NON_GROUP_MEMBER:
        dist.all_reduce(t, group=sub)
        out["sub"] = t.cpu().tolist()
        out["sub_backend"] = dist.get_backend(sub)
        out["split"] = sub.bound_device_id is not None  # split from the default communicator
    late = dist.new_group([1, 2], use_local_synchronization=True) if rank else None
    if late is not None:  # not split (only the members call it): through the store
        dist.broadcast(t, group_src=1, group=late)
        out["late"] = t.cpu().tolist()
    pair = dist.group.WORLD.split_group([0, 1], group_name="pair") if rank < 2 else None
    if pair is not None:  # split_group: each backend split (NCCL: a communicator of its own)
        u = torch.full((2,), float(rank + 5), device=dev)
        dist.all_reduce(u, group=pair)
        out["pair"] = u.cpu().tolist()
    c = torch.full((2,), float(rank))  # a CPU tensor: the CPU backend of the same group
    dist.all_reduce(c)
    out["cpu"] = c.tolist()
    g = torch.full((2,), float(rank), device=dev)
    dist.all_reduce(g)
    out["cuda"] = g.cpu().tolist()
    return out


@pytest.mark.skipif(not EMULATED, reason="needs three devices")
def test_default_backend_groups_and_mixed_tensors():
    res = run_ranks(_groups, 3, timeout=120)
    for rank, out in enumerate(res):
        assert out["config"] == "cpu:gloo,cuda:nccl" and out["available"] is True
        assert out["bound"] == f"cuda:{rank}"
        assert out["cpu"] == [3.0, 3.0] and out["cuda"] == [3.0, 3.0]
        if rank in (0, 2):
            assert out["sub"] == [4.0] * 3 and out["sub_backend"] == "nccl" and out["split"]
        else:
            assert "sub" not in out
    assert res[1]["late"] == res[2]["late"] == [4.0] * 3
    assert res[0]["pair"] == res[1]["pair"] == [11.0, 11.0] and "pair" not in res[2]


# ---- DDP -----------------------------------------------------------------------------------

def _ddp(rank, world_size, init_method):
    torch, dist, dev = _init(rank, world_size, init_method)
    from minitorch.nn.parallel import DistributedDataParallel as DDP
    torch.manual_seed(0)
    base = torch.nn.Sequential(torch.nn.Linear(6, 16), torch.nn.Tanh(), torch.nn.Linear(16, 3))
    cpu_model = DDP(base)
    cuda_model = DDP(torch.nn.Sequential(torch.nn.Linear(6, 16), torch.nn.Tanh(),
                                         torch.nn.Linear(16, 3)).to(dev),
                     device_ids=[rank], bucket_cap_mb=0.0005)
    with torch.no_grad():
        for p, q in zip(cpu_model.parameters(), cuda_model.parameters()):
            q.copy_(p)
    opts = [torch.optim.SGD(m.parameters(), lr=0.1, momentum=0.9) for m in (cpu_model, cuda_model)]
    g = torch.Generator().manual_seed(100 + rank)
    for _ in range(20):
        x, y = torch.randn(8, 6, generator=g), torch.randn(8, 3, generator=g)
        for m, opt, d in ((cpu_model, opts[0], "cpu"), (cuda_model, opts[1], dev)):
            opt.zero_grad()
            torch.nn.functional.mse_loss(m(x.to(d)), y.to(d)).backward()
            opt.step()
    return [(p.detach().reshape(-1).tolist(), q.detach().cpu().reshape(-1).tolist()) for p, q in
            zip(cpu_model.parameters(), cuda_model.parameters())]


@pytest.mark.parametrize("world_size", _worlds()[:1])
def test_ddp_on_nccl_matches_ddp_on_the_cpu_backend(world_size):
    res = run_ranks(_ddp, world_size, timeout=240)
    for pairs in res:
        for p, q in pairs:
            assert torch.allclose(torch.tensor(p), torch.tensor(q), rtol=1e-4, atol=1e-5), (p, q)
    for (p0, q0), (p1, q1) in zip(res[0], res[-1]):  # the ranks agree
        assert p0 == p1 and q0 == q1


def test_the_launch_program_runs_with_device_ids():
    n = 1 if not EMULATED else 2
    port = free_port()
    r = subprocess.run([sys.executable, "-m", "minitorch.distributed.launch",
                        f"--nproc_per_node={n}", f"--master_port={port}", "--use_env",
                        str(ROOT / "examples" / "ddp_launch_nccl.py")],
                       capture_output=True, text=True, timeout=240, cwd=ROOT,
                       env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)})
    assert r.returncode == 0, r.stdout + r.stderr
    reports = sorted(re.findall(r"Model \d, input size: minitorch\.Size\(\[\d+, 5\]\)", r.stdout))
    per = 90 // n
    sizes = [30] * (per // 30) + ([per % 30] if per % 30 else [])
    assert reports == sorted(f"Model {k}, input size: minitorch.Size([{s}, 5])"
                             for k in range(n) for s in sizes), r.stdout


# ---- the deterministic all-reduce ------------------------------------------------------------
# Note [The fixed order over point-to-point]: with AllreduceOptions.deterministic the NCCL
# backend combines every element by the CPU backend's rule, so the two agree bit for bit, on
# either side of the CPU's algorithm thresholds (64 KiB slots, 256 KiB recursive doubling ->
# recursive halving; 16-bit floats travel as float32 there).

_DET_COUNTS = [1, 7, 5000, 16371, 65539]


def _det_values(torch, rank, n, dtype, salt):
    import numpy as np
    rng = np.random.default_rng(1000 * salt + rank)
    # magnitudes over 12 decades and mixed signs: any change of order shows in the low bits
    x = rng.standard_normal(n) * 10.0 ** rng.uniform(-6, 6, n)
    return torch.tensor(x, dtype=torch.float64).to(dtype)


def _deterministic_allreduce(rank, world_size, init_method):
    torch, dist, dev = _init(rank, world_size, init_method)
    from minitorch.distributed import AllreduceOptions
    pg = dist.distributed_c10d._get_default_group()
    bad, salt = [], 0
    for dt in (torch.float32, torch.float64, torch.bfloat16):
        for n in _DET_COUNTS:
            for op in ((dist.ReduceOp.SUM, dist.ReduceOp.AVG) if n in (7, 65539) else
                       (dist.ReduceOp.SUM,)):
                salt += 1
                x = _det_values(torch, rank, n, dt, salt)
                want = x.clone()
                dist.all_reduce(want, op=op)            # the CPU backend
                got = x.to(dev)
                o = AllreduceOptions()
                o.reduceOp = op
                o.deterministic = True
                pg.allreduce([got], o).wait()
                got = got.cpu()
                if dt == torch.bfloat16:    # through float32, exact; the bytes are compared
                    got, want = got.float(), want.float()
                if got.numpy().tobytes() != want.numpy().tobytes():
                    bad.append(f"{dt} {n} {op}")
    return bad


@pytest.mark.parametrize("world_size", _worlds())
def test_deterministic_allreduce_equals_the_cpu_backend_bit_for_bit(world_size):
    res = run_ranks(_deterministic_allreduce, world_size, timeout=400)
    assert res == [[]] * world_size, res


def _ddp_deterministic(rank, world_size, init_method, micro=4, steps=6):
    # one sample per micro-batch and an elementwise model: each micro-batch's gradients are
    # the same bits on the device and on the CPU (no reduction inside a micro-batch), so the
    # weights differ only if the all-reduces combine in different orders
    torch, dist, dev = _init(rank, world_size, init_method)
    import contextlib
    import numpy as np
    from minitorch.nn.parallel import DistributedDataParallel as DDP

    class Elementwise(torch.nn.Module):
        def __init__(self):
            super().__init__()
            g = torch.Generator().manual_seed(3)
            self.w = torch.nn.Parameter(torch.randn(300, generator=g))
            self.b = torch.nn.Parameter(torch.randn(300, generator=g))
            self.v = torch.nn.Parameter(torch.randn(300, generator=g))

        def forward(self, x):
            return (x * self.w + self.b) * self.v

    accum = micro // world_size
    models = {d: DDP(Elementwise().to(d), deterministic=True, bucket_cap_mb=0.002,
                     **({"device_ids": [rank]} if d != "cpu" else {})) for d in ("cpu", dev)}
    opts = {d: torch.optim.SGD(m.parameters(), lr=0.05) for d, m in models.items()}
    rng = np.random.default_rng(11)
    for _ in range(steps):
        x = rng.standard_normal((micro, 1, 300)) * 10.0 ** rng.uniform(-4, 4, (micro, 1, 300))
        y = rng.standard_normal((micro, 1, 300))
        for d, m in models.items():
            opts[d].zero_grad()
            for a in range(accum):
                i = rank * accum + a
                xb = torch.tensor(x[i], dtype=torch.float32).to(d)
                yb = torch.tensor(y[i], dtype=torch.float32).to(d)
                with m.no_sync() if a < accum - 1 else contextlib.nullcontext():
                    diff = m(xb) - yb
                    ((diff * diff).sum() * (1.0 / accum)).backward()
            opts[d].step()
    return {d if d == "cpu" else "cuda": [p.detach().cpu().numpy().tobytes()
                                          for p in m.module.parameters()]
            for d, m in models.items()}


def test_ddp_deterministic_on_nccl_equals_the_cpu_backend_bit_for_bit():
    # W ranks x A accumulation steps, W * A = 4 (Note [Deterministic DDP]): on NCCL as on the
    # CPU backend, and the same weights for every split
    worlds = [w for w in (1, 2, 4) if w <= (4 if EMULATED else 1)]
    runs = {}
    for w in worlds:
        res = run_ranks(_ddp_deterministic, w, timeout=300)
        for r in res:
            assert r["cuda"] == r["cpu"], f"{w} ranks: NCCL and the CPU backend differ"
            assert r == res[0]
        runs[w] = res[0]["cuda"]
    for w in worlds:
        assert runs[w] == runs[worlds[0]], f"{w} x {4 // w} differs from {worlds[0]} x 4"
