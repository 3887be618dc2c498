"""Deterministic reductions (Note [Fixed reduction order], Note [Recursive halving],
Note [Deterministic DDP]): every floating all_reduce / reduce_scatter / reduce combines the ranks'
values by one pairwise tree over rank index whatever the message size, algorithm or transport
(bit for bit equal to a NumPy evaluation of that tree), and DistributedDataParallel(...,
deterministic=True) gives the same weights for W ranks x A accumulation steps whenever W * A is
the same."""
import numpy as np
import pytest

import minitorch as torch
import minitorch.distributed as dist
from test_distributed_support import run_ranks

# Sizes in bytes of the buffer the algorithms see (16-bit floats travel as float32): on both
# sides of the slot size (64 KiB less a header, shared memory only), and of the ring
# threshold (256 KiB, recursive doubling below, recursive halving above), and a few pieces
# (256 KiB) per chunk; element counts that are not multiples of the group size.
_BYTES = [4, 100, 65472 - 8, 65472 + 8, 262144 - 8, 262144 + 8, 1200000]
_DTYPES = {"float32": 4, "float64": 8, "bfloat16": 4}
_RS_COUNTS = [1, 999, 70001]


def _values(rank, n, salt):
    # magnitudes over 12 decades and mixed signs: any change of order shows in the low bits
    rng = np.random.default_rng(1000 * salt + rank)
    return rng.standard_normal(n) * 10.0 ** rng.uniform(-6, 6, n)


def _tensor(x, dtype):
    t = torch.tensor(x.astype(np.float64), dtype=torch.float64)
    return t.to(getattr(torch, dtype))


def _as_numpy(t):
    # bfloat16 through float32 (exact); the bytes are compared, not the values
    if t.dtype == torch.bfloat16:
        return t.float().numpy().copy()
    return t.numpy().copy()


def _job_collectives(rank, ws, init_method, hosts):
    import os
    if hosts is not None:
        os.environ["MINITORCH_HOST_ID"] = hosts[rank]
    dist.init_process_group("gloo", init_method=init_method, rank=rank, world_size=ws)
    out = {"transport": dist.distributed_c10d._get_default_group()._get_backend("cpu")
           ._cgroup.transport()}
    salt = 0
    for dtype, isz in _DTYPES.items():
        for nbytes in _BYTES:
            salt += 1
            t = _tensor(_values(rank, max(1, nbytes // isz), salt), dtype)
            dist.all_reduce(t)
            out["ar", dtype, nbytes] = _as_numpy(t)
        for m in _RS_COUNTS:
            salt += 1
            x = _tensor(_values(rank, ws * m, salt), dtype)
            o = torch.empty(m, dtype=getattr(torch, dtype))
            dist.reduce_scatter_tensor(o, x)
            out["rs", dtype, m] = _as_numpy(o)
    for nbytes in (100, 262144 + 8):
        salt += 1
        t = _tensor(_values(rank, nbytes // 4, salt), "float32")
        dist.all_reduce(t, op=dist.ReduceOp.AVG)
        out["avg", nbytes] = _as_numpy(t)
        salt += 1
        t = _tensor(_values(rank, nbytes // 4, salt), "float32")
        dist.reduce(t, dst=ws - 1)
        out["reduce", nbytes] = _as_numpy(t) if rank == ws - 1 else None
    salt += 1
    t = _tensor(_values(rank, 25, salt), "float64")
    dist.reduce(t, dst=0)                      # at 3 ranks rank 0 folds into rank 1
    out["reduce0"] = _as_numpy(t) if rank == 0 else None
    return out


def _bf16_round(x):
    """float32 -> bfloat16 (round to nearest even) -> float32, as the narrowing does."""
    u = np.ascontiguousarray(x, dtype=np.float32).view(np.uint32).astype(np.uint64)
    u = ((u + 0x7FFF + ((u >> 16) & 1)) >> 16) << 16
    return u.astype(np.uint32).view(np.float32)


def _tree(xs):
    """Note [Fixed reduction order]: fold the first 2*rem ranks pairwise, then pairwise levels."""
    n = len(xs)
    p = 1 << (n.bit_length() - 1)
    rem = n - p
    ys = [xs[2 * v] + xs[2 * v + 1] for v in range(rem)] + list(xs[2 * rem:])
    while len(ys) > 1:
        ys = [ys[i] + ys[i + 1] for i in range(0, len(ys), 2)]
    return ys[0]


def _expected(ws, dtype, x_of_rank):
    """The fixed rule evaluated in NumPy on every rank's input (16-bit floats in float32,
    rounded once at the end)."""
    if dtype == "bfloat16":
        xs = [_bf16_round(x_of_rank(r).astype(np.float32)) for r in range(ws)]
        return _bf16_round(_tree(xs))
    npd = np.float32 if dtype == "float32" else np.float64
    return _tree([x_of_rank(r).astype(npd) for r in range(ws)])


def _check_against_numpy(ws, res):
    salt = 0
    for dtype, isz in _DTYPES.items():
        for nbytes in _BYTES:
            salt += 1
            n = max(1, nbytes // isz)
            want = _expected(ws, dtype, lambda r: _values(r, n, salt))
            for out in res:
                got = out["ar", dtype, nbytes]
                assert got.tobytes() == want.tobytes(), (dtype, nbytes)
        for m in _RS_COUNTS:
            salt += 1
            want = _expected(ws, dtype, lambda r: _values(r, ws * m, salt))
            for r, out in enumerate(res):
                assert out["rs", dtype, m].tobytes() == want[r * m:(r + 1) * m].tobytes(), \
                    (dtype, m)
    for nbytes in (100, 262144 + 8):
        salt += 1
        want = _expected(ws, "float32", lambda r: _values(r, nbytes // 4, salt)) / np.float32(ws)
        for out in res:
            assert out["avg", nbytes].tobytes() == want.tobytes(), nbytes
        salt += 1
        want = _expected(ws, "float32", lambda r: _values(r, nbytes // 4, salt))
        assert res[ws - 1]["reduce", nbytes].tobytes() == want.tobytes(), nbytes
    salt += 1
    want = _expected(ws, "float64", lambda r: _values(r, 25, salt))
    assert res[0]["reduce0"].tobytes() == want.tobytes()


_TRANSPORTS = {3: [("shm", None), ("tcp", None), ("shm+tcp", "aab")],
               4: [("shm", None), ("tcp", None), ("shm+tcp", "abab")]}


@pytest.mark.parametrize("ws", [3, 4])
def test_reductions_follow_the_fixed_tree_on_every_transport(ws):
    runs = {}
    for want, hosts in _TRANSPORTS[ws]:
        env = {"MINITORCH_TRANSPORT": want} if hosts is None else {}
        res = run_ranks(_job_collectives, ws, hosts, env=env, timeout=120)
        assert [out["transport"] for out in res] == [want] * ws
        _check_against_numpy(ws, res)
        runs[want] = res
    # and therefore bit-identical across transports (checked directly too)
    ref = runs["shm"]
    for name, res in runs.items():
        for r in range(ws):
            for key, v in ref[r].items():
                if isinstance(v, np.ndarray):
                    assert res[r][key].tobytes() == v.tobytes(), (name, key)


def _job_any_order(rank, ws, init_method):
    import os
    dist.init_process_group("gloo", init_method=init_method, rank=rank, world_size=ws)
    os.environ["MINITORCH_REDUCTION_ORDER"] = "any"    # read when a group is made
    loose = dist.new_group(list(range(ws)))
    del os.environ["MINITORCH_REDUCTION_ORDER"]
    out = []
    for nbytes in (100, 262144 + 8):                    # slots' left fold, the ring
        x = _values(rank, nbytes // 4, 99)
        a, b = _tensor(x, "float32"), _tensor(x, "float32")
        dist.all_reduce(a)
        dist.all_reduce(b, group=loose)
        out.append((a.numpy().copy(), b.numpy().copy()))
    return out


def test_a_group_made_with_any_order_uses_the_order_agnostic_algorithms():
    # MINITORCH_REDUCTION_ORDER=any (for measurements) opts a group out: same sums up to
    # rounding, other bits; the default group keeps the fixed tree
    ws = 4
    res = run_ranks(_job_any_order, ws, env={"MINITORCH_TRANSPORT": "shm"}, timeout=120)
    for i, nbytes in enumerate((100, 262144 + 8)):
        want = _expected(ws, "float32", lambda r: _values(r, nbytes // 4, 99))
        # any order of ws - 1 float32 additions is within (ws - 1) eps of the sum of |x_r|
        bound = (ws - 1) * 2.0 ** -23 * sum(np.abs(_values(r, nbytes // 4, 99).astype(np.float32)
                                              .astype(np.float64)) for r in range(ws))
        for out in res:
            fixed, loose = out[i]
            assert fixed.tobytes() == want.tobytes()
            assert (np.abs(loose.astype(np.float64) - want) <= bound).all()
        assert res[0][i][1].tobytes() != want.tobytes(), nbytes


# ---- DistributedDataParallel(deterministic=True) -------------------------------------------

_MICRO = 4          # micro-batches per step (W * A)
_MB = 8             # samples per micro-batch
_STEPS = 50


def _job_ddp(rank, ws, init_method, deterministic=True):
    from minitorch import nn
    from minitorch.nn.parallel import DistributedDataParallel as DDP
    dist.init_process_group("gloo", init_method=init_method, rank=rank, world_size=ws)
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(12, 32), nn.Tanh(), nn.Linear(32, 16), nn.ReLU(),
                          nn.Linear(16, 3))
    ddp = DDP(model, deterministic=deterministic, bucket_cap_mb=0.001)  # several buckets
    opt = torch.optim.SGD(ddp.parameters(), lr=0.05, momentum=0.9)
    accum = _MICRO // ws
    rng = np.random.default_rng(7)
    for _ in range(_STEPS):
        x = rng.standard_normal((_MICRO, _MB, 12)).astype(np.float32)
        y = rng.integers(0, 3, (_MICRO, _MB))
        opt.zero_grad()
        for a in range(accum):
            i = rank * accum + a            # this rank's micro-batches: rank*A .. rank*A + A-1
            xb, yb = torch.tensor(x[i]), torch.tensor(y[i])
            last = a == accum - 1
            ctx = ddp.no_sync() if not last else _nullcontext()
            with ctx:
                # 1/A: a power of two, exact (Note [Deterministic DDP])
                loss = nn.functional.cross_entropy(ddp(xb), yb) * (1.0 / accum)
                loss.backward()
        opt.step()
    transport = dist.distributed_c10d._get_default_group()._get_backend("cpu")._cgroup.transport()
    return transport, [p.detach().numpy().copy() for p in model.parameters()]


def _nullcontext():
    import contextlib
    return contextlib.nullcontext()


def test_ddp_deterministic_weights_do_not_depend_on_the_split_or_the_transport():
    runs = {}
    for mode in ("shm", "tcp"):
        for ws in (1, 2, 4):
            if ws == 1 and mode == "tcp":
                continue
            res = run_ranks(_job_ddp, ws, env={"MINITORCH_TRANSPORT": mode}, timeout=120)
            if ws > 1:
                assert [t for t, _ in res] == [mode] * ws
            for _, weights in res[1:]:      # ranks agree
                assert all(a.tobytes() == b.tobytes() for a, b in zip(weights, res[0][1]))
            runs[ws, mode] = res[0][1]
    ref = runs[1, "shm"]
    assert all(np.isfinite(w).all() for w in ref)
    for key, weights in runs.items():
        assert all(a.tobytes() == b.tobytes() for a, b in zip(weights, ref)), key


def test_ddp_without_deterministic_depends_on_the_split():
    # the property above is not a coincidence of the model: autograd's sequential accumulation
    # (1 rank x 4) and the all-reduce's tree (4 ranks x 1) round differently
    one = run_ranks(_job_ddp, 1, False, timeout=120)[0][1]
    four = run_ranks(_job_ddp, 4, False, timeout=120)[0][1]
    assert any(a.tobytes() != b.tobytes() for a, b in zip(one, four))
    assert all(np.allclose(a, b, rtol=1e-4, atol=1e-5) for a, b in zip(one, four))


def _tree_of_stack(items):
    """Note [Deterministic DDP]'s rule inside a rank: a binary-counter stack (older + newer),
    the levels left at the end combined lowest first."""
    st = {}
    for k, g in enumerate(items):
        j = 0
        while k >> j & 1:
            g = st.pop(j) + g
            j += 1
        st[j] = g
    cur = None
    for j in sorted(st):
        cur = st[j] if cur is None else st[j] + cur
    return cur


def _job_accumulation(rank, ws, init_method):
    from minitorch import nn
    from minitorch.nn.parallel import DistributedDataParallel as DDP
    dist.init_process_group("gloo", init_method=init_method, rank=rank, world_size=ws)
    torch.manual_seed(0)
    m = nn.Sequential(nn.Linear(5, 7), nn.Tanh(), nn.Linear(7, 2))
    ddp = DDP(m, deterministic=True)
    out = []
    for accum in (1, 2, 3, 4, 5, 8):
        xs = [torch.randn(4, 5) * 100 ** torch.rand(4, 5) for _ in range(accum)]
        per_batch = []                  # each micro-batch's gradient on its own
        for x in xs:
            m.zero_grad()
            m(x).pow(2).sum().backward()
            per_batch.append([p.grad.clone() for p in m.parameters()])
        want = [_tree_of_stack([g[i] for g in per_batch]) for i in range(len(per_batch[0]))]
        m.zero_grad()
        for a, x in enumerate(xs):
            if a < accum - 1:
                with ddp.no_sync():
                    ddp(x).pow(2).sum().backward()
                assert all(p.grad.numpy().tobytes() == g.numpy().tobytes()   # its own gradient
                           for p, g in zip(m.parameters(), per_batch[a]))
            else:
                ddp(x).pow(2).sum().backward()
        out.append(all(p.grad.numpy().tobytes() == w.numpy().tobytes()
                       for p, w in zip(m.parameters(), want)))
    return out


def test_ddp_deterministic_accumulates_by_the_binary_counter_tree():
    # one rank: .grad after the last backward is the stack's tree of the micro-batches'
    # gradients, also when the count is no power of two
    assert run_ranks(_job_accumulation, 1, timeout=60) == [[True] * 6]


def _run_schedule(inputs):
    """Every rank's steps of Note [The fixed order over point-to-point] on host arrays: sends
    are queued per (sender, receiver) with the sender's data when it reaches its step."""
    from minitorch.distributed._fixed_order import allreduce_steps
    n = len(inputs)
    bufs = [x.copy() for x in inputs]
    plans = [allreduce_steps(n, r, len(inputs[0])) for r in range(n)]
    pos, posted, queues = [0] * n, [False] * n, {}
    while any(pos[r] < len(plans[r]) for r in range(n)):
        moved = False
        for r in range(n):
            if pos[r] >= len(plans[r]):
                continue
            to, out, frm, into, combine = plans[r][pos[r]]
            if not posted[r]:
                if to is not None:
                    queues.setdefault((r, to), []).extend(bufs[r][o:o + c].copy() for o, c in out)
                posted[r] = moved = True
            if frm is not None:
                q = queues.get((frm, r), [])
                if len(q) < len(into):
                    continue
                for o, c in into:
                    m = q.pop(0)
                    assert len(m) == c
                    bufs[r][o:o + c] = bufs[r][o:o + c] + m if combine else m
            pos[r] += 1
            posted[r] = False
            moved = True
        assert moved, "the schedule deadlocks"
    assert not any(queues.values()), "messages left unreceived"
    return bufs


@pytest.mark.parametrize("ws", [2, 3, 4, 5, 6, 7, 8])
def test_point_to_point_schedule_computes_the_fixed_tree(ws):
    # what ProcessGroupNCCL's deterministic all-reduce runs (with device combines): every rank
    # ends with T's result, bit for bit, for element counts below, at and above the group size
    rng = np.random.default_rng(ws)
    for n in (0, 1, ws - 1, ws, ws + 1, 3 * ws + 2, 1000):
        xs = [(rng.standard_normal(n) * 10.0 ** rng.uniform(-6, 6, n)).astype(np.float32)
              for _ in range(ws)]
        want = _tree(xs)
        for got in _run_schedule(xs):
            assert got.tobytes() == want.tobytes(), (ws, n)
