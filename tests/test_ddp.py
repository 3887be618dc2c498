"""DistributedDataParallel on 1-3 real processes: averaged gradients equal the single-process
gradient of the whole batch; construction syncs parameters; no_sync; unused parameters."""
import numpy as np
import pytest

import minitorch as torch
from test_distributed_support import RankFailed, run_ranks

BATCH = 12


def _model(seed):
    import minitorch.nn as nn
    torch.manual_seed(seed)
    return nn.Sequential(nn.Linear(6, 16), nn.Tanh(), nn.Linear(16, 16), nn.ReLU(),
                         nn.Linear(16, 3))


def _data():
    g = torch.Generator().manual_seed(42)
    return torch.randn(BATCH, 6, generator=g, dtype=torch.float64), \
        torch.randint(0, 3, (BATCH,), generator=g)


def _grads(model):
    return [p.grad.numpy().copy() for p in model.parameters()]


def _ddp_grads(rank, ws, init_method, bucket_cap_mb):
    import minitorch.distributed as dist
    import minitorch.nn as nn
    from minitorch.nn.parallel import DistributedDataParallel as DDP
    dist.init_process_group("gloo", init_method=init_method, rank=rank, world_size=ws)
    model = _model(seed=100 + rank).double()        # ranks start different: DDP syncs them
    ddp = DDP(model, bucket_cap_mb=bucket_cap_mb)
    params = [p.detach().numpy().copy() for p in model.parameters()]
    x, y = _data()
    per = BATCH // ws
    xs, ys = x[rank * per:(rank + 1) * per], y[rank * per:(rank + 1) * per]
    loss = nn.CrossEntropyLoss()(ddp(xs), ys)
    loss.backward()
    return params, _grads(model), len(ddp.reducer.buckets)


@pytest.mark.parametrize("ws", [1, 2, 3])
@pytest.mark.parametrize("bucket_cap_mb", [25, 0.0005])
def test_grads_equal_single_process_full_batch(ws, bucket_cap_mb):
    import minitorch.nn as nn
    results = run_ranks(_ddp_grads, ws, bucket_cap_mb, timeout=90)
    ref = _model(seed=100).double()                  # rank 0's initialisation
    x, y = _data()
    nn.CrossEntropyLoss()(ref(x), y).backward()
    want = _grads(ref)
    for params, grads, nbuckets in results:
        for p, q in zip(params, [p.detach().numpy() for p in ref.parameters()]):
            np.testing.assert_array_equal(p, q)      # broadcast from rank 0 at construction
        for g, w in zip(grads, want):
            np.testing.assert_allclose(g, w, rtol=1e-10, atol=1e-12)
        if bucket_cap_mb < 0.001:
            assert nbuckets > 1                      # several buckets, reduced in order


def _no_sync(rank, ws, init_method):
    import minitorch.distributed as dist
    import minitorch.nn as nn
    from minitorch.nn.parallel import DistributedDataParallel as DDP
    dist.init_process_group("gloo", init_method=init_method, rank=rank, world_size=ws)
    model = _model(seed=1).double()
    ddp = DDP(model)
    x, y = _data()
    half = BATCH // 2
    lf = nn.CrossEntropyLoss(reduction="sum")
    xs, ys = x[rank::ws], y[rank::ws]
    with ddp.no_sync():
        lf(ddp(xs[:half // ws]), ys[:half // ws]).backward()
    local = _grads(model)
    lf(ddp(xs[half // ws:]), ys[half // ws:]).backward()
    return local, _grads(model)


def test_no_sync_accumulates_locally_then_averages_the_sum():
    import minitorch.nn as nn
    (l0, g0), (l1, g1) = run_ranks(_no_sync, 2, timeout=90)
    assert any(not np.allclose(a, b) for a, b in zip(l0, l1))   # no communication inside
    for a, b in zip(g0, g1):
        np.testing.assert_allclose(a, b, rtol=1e-12)
    ref = _model(seed=1).double()
    x, y = _data()
    nn.CrossEntropyLoss(reduction="sum")(ref(x), y).backward()
    for a, w in zip(g0, _grads(ref)):
        np.testing.assert_allclose(a * 2, w, rtol=1e-10, atol=1e-12)


def _unused(rank, ws, init_method, find_unused):
    import minitorch.distributed as dist
    import minitorch.nn as nn
    from minitorch.nn.parallel import DistributedDataParallel as DDP
    dist.init_process_group("gloo", init_method=init_method, rank=rank, world_size=ws)

    class TwoHeads(nn.Module):
        def __init__(self):
            super().__init__()
            self.a = nn.Linear(4, 2)
            self.b = nn.Linear(4, 2)

        def forward(self, x, use_b):
            return self.b(x) if use_b else self.a(x)
    torch.manual_seed(0)
    ddp = DDP(TwoHeads(), find_unused_parameters=find_unused)
    x = torch.ones(3, 4)
    ddp(x, use_b=(rank == 1)).sum().backward()
    out = {n: (p.grad.numpy().copy() if p.grad is not None else None)
           for n, p in ddp.module.named_parameters()}
    ddp(x, use_b=False).sum().backward()             # the next iteration works too
    return out


def test_find_unused_parameters():
    r0, r1 = run_ranks(_unused, 2, True, timeout=90)
    for name in r0:
        assert r0[name] is not None and np.allclose(r0[name], r1[name])
    np.testing.assert_allclose(r0["a.bias"], [1.5, 1.5])   # rank 0: 3, averaged with 0


def test_unused_parameters_without_find_unused_is_torchs_error():
    with pytest.raises(RankFailed, match="Expected to have finished reduction"):
        run_ranks(_unused, 2, False, timeout=90)


def test_ddp_needs_a_process_group():
    import minitorch.nn as nn
    from minitorch.nn.parallel import DistributedDataParallel as DDP
    with pytest.raises(RuntimeError, match="Default process group has not been initialized"):
        DDP(nn.Linear(2, 2))


def test_grads_over_the_tcp_transport():
    import minitorch.nn as nn
    results = run_ranks(_ddp_grads, 2, 0.0005, timeout=90, env={"MINITORCH_TRANSPORT": "tcp"})
    ref = _model(seed=100).double()
    x, y = _data()
    nn.CrossEntropyLoss()(ref(x), y).backward()
    for _, grads, _ in results:
        for g, w in zip(grads, _grads(ref)):
            np.testing.assert_allclose(g, w, rtol=1e-10, atol=1e-12)


def _ddp_hook_grads(rank, ws, init_method, hook_name):
    import minitorch.distributed as dist
    import minitorch.nn as nn
    from minitorch.distributed.algorithms.ddp_comm_hooks import default_hooks
    from minitorch.futures import Future
    from minitorch.nn.parallel import DistributedDataParallel as DDP
    dist.init_process_group("gloo", init_method=init_method, rank=rank, world_size=ws)
    model = _model(seed=100 + rank)
    if hook_name == "fp64_allreduce":
        model = model.double()
    ddp = DDP(model, bucket_cap_mb=0.0005)           # several buckets
    seen = []
    if hook_name in ("allreduce", "fp64_allreduce"):
        ddp.register_comm_hook(None, default_hooks.allreduce_hook)
    elif hook_name == "fp16":
        ddp.register_comm_hook(None, default_hooks.fp16_compress_hook)
    elif hook_name == "builtin_fp16":
        ddp.register_builtin_comm_hook(dist.BuiltinCommHookType.FP16_COMPRESS)
    elif hook_name == "bf16":
        ddp.register_comm_hook(None, default_hooks.bf16_compress_hook)
    elif hook_name == "local":                        # a hook that does not communicate
        def local(state, bucket):
            seen.append((bucket.index(), bucket.is_last(), len(bucket.parameters()),
                         [tuple(g.shape) for g in bucket.gradients()]))
            state.append(bucket.index())
            fut = Future()
            fut.set_result(bucket.buffer() * 0 + rank)
            return fut
        ddp.register_comm_hook([], local)
    try:
        ddp.register_comm_hook(None, default_hooks.allreduce_hook)
        again = "no error"
    except RuntimeError as e:
        again = str(e)
    x, y = _data()
    if hook_name != "fp64_allreduce":
        x = x.float()
    per = BATCH // ws
    xs, ys = x[rank * per:(rank + 1) * per], y[rank * per:(rank + 1) * per]
    nn.CrossEntropyLoss()(ddp(xs), ys).backward()
    return _grads(model), again, seen, len(ddp.reducer.buckets)


@pytest.mark.parametrize("hook_name,tol", [("fp64_allreduce", 1e-10), ("allreduce", 1e-5),
                                           ("fp16", 2e-3), ("builtin_fp16", 2e-3),
                                           ("bf16", 2e-2)])
def test_comm_hooks_average_the_gradients(hook_name, tol):
    # Note [Communication hooks]: the default hooks give the single-process gradient of the
    # whole batch (compressed ones within their precision)
    import minitorch.nn as nn
    results = run_ranks(_ddp_hook_grads, 2, hook_name, timeout=90)
    ref = _model(seed=100)
    x, y = _data()
    if hook_name == "fp64_allreduce":
        ref = ref.double()
    else:
        x = x.float()
    nn.CrossEntropyLoss()(ref(x), y).backward()
    for grads, again, _, _ in results:
        assert "can only be called once" in again
        for g, w in zip(grads, _grads(ref)):
            np.testing.assert_allclose(g, w, rtol=tol, atol=tol)


def test_a_hook_sees_every_bucket_and_sets_the_gradients():
    results = run_ranks(_ddp_hook_grads, 2, "local", timeout=90)
    for rank, (grads, _, seen, nbuckets) in enumerate(results):
        assert [s[0] for s in seen] == list(range(nbuckets)) and nbuckets > 1
        assert [s[1] for s in seen] == [i == nbuckets - 1 for i in range(nbuckets)]
        shapes = [s for b in seen for s in b[3]]
        assert sorted(shapes) == sorted(tuple(g.shape) for g in grads)
        for g in grads:                               # the hook's value became the gradient
            assert (g == rank).all()


def _bad_hook(rank, ws, init_method, kind):
    import minitorch.distributed as dist
    import minitorch.nn as nn
    from minitorch.futures import Future
    from minitorch.nn.parallel import DistributedDataParallel as DDP
    dist.init_process_group("gloo", init_method=init_method, rank=rank, world_size=ws)
    ddp = DDP(_model(seed=1))
    if kind == "not callable":
        try:
            ddp.register_comm_hook(None, 5)
        except TypeError as e:
            return str(e)
    def no_future(state, bucket):
        return bucket.buffer()
    def wrong_size(state, bucket):
        f = Future()
        f.set_result(torch.zeros(3))
        return f
    ddp.register_comm_hook(None, no_future if kind == "no future" else wrong_size)
    x, y = _data()
    try:
        nn.CrossEntropyLoss()(ddp(x.float()), y).backward()
    except (TypeError, RuntimeError) as e:
        return type(e).__name__ + ": " + str(e)
    return "no error"


@pytest.mark.parametrize("kind,words", [
    ("not callable", "hook must be callable"),
    ("no future", "TypeError: a communication hook must return a minitorch.futures.Future"),
    ("wrong size", "RuntimeError: the communication hook's future for bucket 0 gave Tensor of 3 "
                   "elements"),
])
def test_bad_hooks_are_errors(kind, words):
    for msg in run_ranks(_bad_hook, 1, kind, timeout=60):
        assert words in msg, msg
