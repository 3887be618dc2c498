"""Fault-tolerant training (minitorch.distributed.ft): recovery time and steady-state cost.

    python bench/ft.py [--ranks 4] [--steps 20] [--rounds 10] [--transport auto|shm|tcp]

Runs --ranks processes on this host training the MLP of bench/train.py (784-512-512-10, ReLU,
per-rank batch 128, SGD lr=0.01 momentum=0.9, cross-entropy, synthetic data, one intra-op
thread per rank), the test process hosting the job's TCPStore (the store's host must survive).
  - steady state: in the same processes, steps of plain nn.parallel.DistributedDataParallel
    (init_process_group "gloo") interleaved one by one with steps of
    ft.DistributedDataParallel + ft.Optimizer + ft.Manager (the same model and data),
    --steps x --rounds of each; each figure is the mean step time of the slowest rank;
    overhead = ft / plain - 1;
  - recovery: then the last rank kills itself (SIGKILL) at the start of a step, after writing
    the time into the store; recovery is the time from the kill to the moment every survivor
    has completed (committed) its next step: detection, the new quorum, the new process group
    and the redone step.
The last line reads ``recovery R s, steady-state overhead P %``.
"""
import argparse
import json
import os
import signal
import subprocess
import sys
import time
from datetime import timedelta

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(ROOT, "python"))


def _model(torch):
    nn = torch.nn
    return nn.Sequential(nn.Flatten(), nn.Linear(784, 512), nn.ReLU(), nn.Linear(512, 512),
                         nn.ReLU(), nn.Linear(512, 10))


def worker(rank, ws, store_port, pg_port, steps, rounds):
    import minitorch as torch
    import minitorch.distributed as dist
    from minitorch.distributed import ft
    from minitorch.nn.parallel import DistributedDataParallel as DDP

    torch.set_num_threads(1)
    store = dist.TCPStore("127.0.0.1", store_port, is_master=False,
                          timeout=timedelta(seconds=120))
    dist.init_process_group("gloo", init_method=f"tcp://127.0.0.1:{pg_port}", rank=rank,
                            world_size=ws, timeout=timedelta(seconds=120))
    g = torch.Generator().manual_seed(rank)
    x = torch.randn(128, 1, 28, 28, generator=g)
    y = torch.randint(0, 10, (128,), generator=g)
    loss_fn = torch.nn.CrossEntropyLoss()

    torch.manual_seed(0)
    plain = DDP(_model(torch))
    plain_opt = torch.optim.SGD(plain.parameters(), lr=0.01, momentum=0.9)

    torch.manual_seed(0)
    net = _model(torch)
    opt = torch.optim.SGD(net.parameters(), lr=0.01, momentum=0.9)

    def load(sd):
        net.load_state_dict(sd["model"])
        opt.load_state_dict(sd["optim"])

    manager = ft.Manager(load_state_dict=load,
                         state_dict=lambda: {"model": net.state_dict(), "optim": opt.state_dict()},
                         min_replica_size=1, timeout=timedelta(seconds=30), store=store,
                         replica_id=rank, expected_replicas=ws)
    model = ft.DistributedDataParallel(manager, net)
    ftopt = ft.Optimizer(manager, opt)

    def plain_step():
        plain_opt.zero_grad()
        loss_fn(plain(x), y).backward()
        plain_opt.step()

    def ft_step():
        ftopt.zero_grad()
        loss_fn(model(x), y).backward()
        ftopt.step()

    # steady state: plain and ft steps interleaved one by one, so that the load of the
    # machine weighs on both alike; per rank the summed time of each kind, then the slowest rank
    for _ in range(3):
        plain_step()
        ft_step()
    dist.barrier()
    total = {"plain": 0.0, "ft": 0.0}
    for i in range(steps * rounds):
        for name, fn in ((("plain", plain_step), ("ft", ft_step)) if i % 2 == 0
                         else (("ft", ft_step), ("plain", plain_step))):
            t0 = time.perf_counter()
            fn()
            total[name] += time.perf_counter() - t0
    t = torch.tensor([total["plain"], total["ft"]]) / (steps * rounds)
    dist.all_reduce(t, op=dist.ReduceOp.MAX)
    best = {"plain": t[0].item(), "ft": t[1].item()}
    dist.destroy_process_group()

    # recovery: the last rank dies at the start of a step
    s0 = manager.current_step()
    if rank == ws - 1:
        ftopt.zero_grad()
        store.set("bench/kill", repr(time.time()))
        os.kill(os.getpid(), signal.SIGKILL)
    while True:
        ftopt.zero_grad()
        loss_fn(model(x), y).backward()
        ftopt.step()
        if manager.current_step() > s0 and manager.num_participants() == ws - 1:
            break
    done = time.time()
    kill = float(store.get("bench/kill"))
    print(json.dumps({"rank": rank, "plain": best["plain"], "ft": best["ft"],
                      "recovery": done - kill}), flush=True)
    manager.shutdown()


def main():
    if len(sys.argv) > 1 and sys.argv[1] == "--worker":
        worker(*map(int, sys.argv[2:8]))
        return
    ap = argparse.ArgumentParser()
    ap.add_argument("--ranks", type=int, default=4)
    ap.add_argument("--steps", type=int, default=20)
    ap.add_argument("--rounds", type=int, default=10)
    ap.add_argument("--transport", default="auto", choices=["auto", "shm", "tcp"],
                    help="MINITORCH_TRANSPORT of the ranks (auto: shared memory on one host)")
    a = ap.parse_args()
    import minitorch.distributed as dist
    import socket

    store = dist.TCPStore("127.0.0.1", 0, is_master=True, wait_for_workers=False)
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        pg_port = s.getsockname()[1]
    env = dict(os.environ, OMP_NUM_THREADS="1", MINITORCH_TRANSPORT=a.transport)
    procs = [subprocess.Popen([sys.executable, __file__, "--worker", str(r), str(a.ranks),
                               str(store.port), str(pg_port), str(a.steps), str(a.rounds)],
                              env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
             for r in range(a.ranks)]
    outs = [p.communicate(timeout=600) for p in procs]
    res = []
    for r, (p, (o, e)) in enumerate(zip(procs, outs)):
        if r == a.ranks - 1:
            continue        # killed on purpose
        if p.returncode != 0:
            raise SystemExit(f"rank {r} failed:\n{e[-3000:]}")
        res.append(json.loads(o.strip().splitlines()[-1]))
    plain, ftt = res[0]["plain"], res[0]["ft"]
    rec = max(r["recovery"] for r in res)
    print(f"{a.ranks} ranks on {os.cpu_count()} cores ({a.transport} transport), MLP "
          f"784-512-512-10, batch 128 per rank")
    print(f"step time: plain DDP {plain * 1e3:.1f} ms, ft {ftt * 1e3:.1f} ms (mean of "
          f"{a.rounds * a.steps} steps of each, interleaved)")
    print("recovery per survivor: " + ", ".join(f"{r['recovery']:.3f} s" for r in res))
    print(f"recovery {rec:.2f} s, steady-state overhead {(ftt / plain - 1) * 100:.1f} %")


if __name__ == "__main__":
    main()
