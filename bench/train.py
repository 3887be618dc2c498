"""Training steps per second: minitorch next to PyTorch, single process and DDP on one host.

    python bench/train.py                      # minitorch only (torch columns n/a)
    /path/to/python-with-torch bench/train.py  # both, alternating, in the same run

Models (synthetic data, float32, cross-entropy loss):
  mlp   784-512-512-10 with ReLU, batch 128, SGD lr=0.01 momentum=0.9
  cnn   Conv2d(1,32,3,p=1)-ReLU-MaxPool2d(2)-Conv2d(32,64,3,p=1)-ReLU-MaxPool2d(2)-Linear(3136,10),
        batch 128 of 1x28x28, SGD lr=0.01 momentum=0.9
  gpt   a transformer block stack shaped as nanoGPT's CPU configuration (bench/models.py: 4
        layers, width 128, 4 heads, sequence 64, vocabulary 65), batch 12, AdamW lr=1e-3
A step is zero_grad + forward + loss + backward + optimizer step.  Single process: both libraries
use the same number of intra-op threads (--threads, default: the core count).  DDP: 2 ranks on
this host, each with threads/2 intra-op threads, the gloo backend for torch and minitorch's
default (shared memory between ranks on one host); per-rank batch 128.  Each figure is the
best of --repeat rounds that alternate the libraries; the ratio is minitorch / torch
(> 1: minitorch faster).

DDP modes (--modes, --ddp-ranks 2,4 for the group sizes, --accum A: each step is A
micro-batches of 128 per rank, the first A - 1 under no_sync()):
  ddp      DistributedDataParallel as torch's
  ddp-any  the same with MINITORCH_REDUCTION_ORDER=any: the collectives' order-agnostic
           algorithms instead of the fixed reduction order (minitorch only)
  ddp-det  DistributedDataParallel(..., deterministic=True) (minitorch only; Note
           [Deterministic DDP]); the last column is then its rate over plain ddp's
  ddp-pair plain and deterministic DDP in the same processes, taking turns in blocks of steps
           (minitorch only): on a busy host the fairest measure of what determinism costs;
           prints both rates and deterministic / plain
"""
import argparse
import json
import os
import socket
import subprocess
import sys
import time

import models  # bench/models.py (this directory is on sys.path when run as a script)

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def _lib(name):
    if name == "torch":
        import torch
        return torch
    sys.path.insert(0, os.path.join(ROOT, "python"))
    import minitorch
    return minitorch


def _model(torch, kind):
    nn = torch.nn
    if kind == "gpt":
        return models.gpt(torch)
    if kind == "mlp":
        return nn.Sequential(nn.Flatten(), nn.Linear(784, 512), nn.ReLU(), nn.Linear(512, 512),
                             nn.ReLU(), nn.Linear(512, 10))
    return nn.Sequential(nn.Conv2d(1, 32, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
                         nn.Conv2d(32, 64, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
                         nn.Flatten(), nn.Linear(64 * 7 * 7, 10))


def _steps_per_s(torch, kind, model, steps, warmup, accum=1):
    g = torch.Generator().manual_seed(0)
    if kind == "gpt":
        x = torch.randint(0, 65, (12, 64), generator=g)
        y = torch.randint(0, 65, (12, 64), generator=g)
        opt = torch.optim.AdamW(model.parameters(), lr=1e-3)

        def loss_of(x, y):
            return model(x, y)
    else:
        x = torch.randn(128, 1, 28, 28, generator=g)
        y = torch.randint(0, 10, (128,), generator=g)
        opt = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
        loss_fn = torch.nn.CrossEntropyLoss()

        def loss_of(x, y):
            return loss_fn(model(x), y)

    def step():
        opt.zero_grad()
        for a in range(accum):  # gradient accumulation: all but the last under no_sync
            if a < accum - 1:
                with model.no_sync():
                    loss = loss_of(x, y)
                    loss.backward()
            else:
                loss = loss_of(x, y)
                loss.backward()
        opt.step()
        return loss
    for _ in range(warmup):
        step()
    t0 = time.perf_counter()
    for _ in range(steps):
        step()
    return steps / (time.perf_counter() - t0)


def single(lib, kind, threads, steps):
    torch = _lib(lib)
    torch.set_num_threads(threads)
    torch.manual_seed(0)
    return _steps_per_s(torch, kind, _model(torch, kind), steps, warmup=3)


def ddp_rank(lib, kind, threads, steps, rank, port, ws=2, accum=1, det=False):
    torch = _lib(lib)
    import importlib
    dist = importlib.import_module(lib + ".distributed")
    ddp = importlib.import_module(lib + ".nn.parallel").DistributedDataParallel
    torch.set_num_threads(threads)
    dist.init_process_group("gloo", init_method=f"tcp://127.0.0.1:{port}", rank=rank,
                            world_size=ws)
    torch.manual_seed(rank)
    model = ddp(_model(torch, kind), **({"deterministic": True} if det else {}))
    dist.barrier()
    r = _steps_per_s(torch, kind, model, steps, warmup=3, accum=accum)
    t = torch.tensor([r])
    dist.all_reduce(t, op=dist.ReduceOp.MIN)
    dist.destroy_process_group()
    return t.item()


def ddp_pair_rank(kind, threads, steps, rank, port, ws, accum):
    """Plain and deterministic DDP in the same processes, alternating blocks of steps: the
    best rate of each (slowest rank's)."""
    torch = _lib("minitorch")
    import minitorch.distributed as dist
    from minitorch.nn.parallel import DistributedDataParallel as DDP
    torch.set_num_threads(threads)
    dist.init_process_group("gloo", init_method=f"tcp://127.0.0.1:{port}", rank=rank,
                            world_size=ws)
    torch.manual_seed(rank)
    models = [DDP(_model(torch, kind)), DDP(_model(torch, kind), deterministic=True)]
    best = [0.0, 0.0]
    block = max(2, steps // 4)
    for turn in range(8):
        for i in ((0, 1) if turn % 2 == 0 else (1, 0)):
            dist.barrier()
            r = _steps_per_s(torch, kind, models[i], block, warmup=1, accum=accum)
            t = torch.tensor([r])
            dist.all_reduce(t, op=dist.ReduceOp.MIN)
            best[i] = max(best[i], t.item())
    dist.destroy_process_group()
    return best


def _free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _run_worker(args):
    env = dict(os.environ, OMP_NUM_THREADS=str(args[3]))
    out = subprocess.run([sys.executable, __file__, "--worker", *map(str, args)], env=env,
                         capture_output=True, text=True, timeout=600)
    if out.returncode != 0:
        raise RuntimeError(f"worker {args} failed:\n{out.stderr[-3000:]}")
    return json.loads(out.stdout.strip().splitlines()[-1])


def measure(lib, mode, kind, threads, steps, attempts=2, ws=2, accum=1):
    """One figure; a run whose ranks fail (a port taken meanwhile, a crash at exit) is retried
    once before the error is reported."""
    for i in range(attempts):
        try:
            return _measure(lib, mode, kind, threads, steps, ws, accum)
        except RuntimeError:
            if i == attempts - 1:
                raise


def _measure(lib, mode, kind, threads, steps, ws=2, accum=1):
    if mode == "single":
        return _run_worker([lib, "single", kind, threads, steps, 0, 0])
    port = _free_port()
    t = max(1, threads // ws)
    env = dict(os.environ, OMP_NUM_THREADS=str(t))
    if mode == "ddp-any":
        env["MINITORCH_REDUCTION_ORDER"] = "any"
    procs = [subprocess.Popen([sys.executable, __file__, "--worker", lib, mode, kind, str(t),
                               str(steps), str(r), str(port), str(ws), str(accum)], env=env,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
             for r in range(ws)]
    outs = [p.communicate(timeout=900) for p in procs]
    for p, (o, e) in zip(procs, outs):
        if p.returncode != 0:
            raise RuntimeError(f"{lib} ddp rank failed:\n{e[-3000:]}")
    return json.loads(outs[0][0].strip().splitlines()[-1])


def main():
    if len(sys.argv) > 1 and sys.argv[1] == "--worker":
        lib, mode, kind, threads, steps, rank, port = sys.argv[2:9]
        if mode == "single":
            r = single(lib, kind, int(threads), int(steps))
        elif mode == "ddp-pair":
            ws, accum = (int(v) for v in sys.argv[9:11])
            r = ddp_pair_rank(kind, int(threads), int(steps), int(rank), int(port), ws, accum)
        else:
            ws, accum = (int(v) for v in sys.argv[9:11])
            r = ddp_rank(lib, kind, int(threads), int(steps), int(rank), int(port), ws, accum,
                         det=mode == "ddp-det")
        print(json.dumps(r))
        return
    ap = argparse.ArgumentParser()
    ap.add_argument("--threads", type=int, default=os.cpu_count())
    ap.add_argument("--repeat", type=int, default=2)
    ap.add_argument("--steps", type=int, default=30)
    ap.add_argument("--models", default="mlp,cnn,gpt")
    ap.add_argument("--modes", default="single,ddp",
                    help="single, ddp, ddp-any, ddp-det, ddp-pair (comma-separated)")
    ap.add_argument("--ddp-ranks", default="2", help="DDP group sizes, e.g. 2,4")
    ap.add_argument("--accum", type=int, default=1, help="micro-batches per DDP step")
    a = ap.parse_args()
    try:
        import torch  # noqa: F401
        libs = ["minitorch", "torch"]
    except ImportError:
        libs = ["minitorch"]
    print(f"threads={a.threads}, steps={a.steps}, best of {a.repeat} alternating rounds"
          + (f", {a.accum} micro-batches per DDP step" if a.accum > 1 else ""))
    print(f"{'model':6} {'mode':10} {'minitorch':>12} {'torch':>12} {'ratio':>7}")
    modes = a.modes.split(",")
    rows = [(m, 1) for m in modes if m == "single"]
    rows += [(m, int(w)) for w in a.ddp_ranks.split(",") for m in modes if m != "single"]
    for kind in a.models.split(","):
        # the ddp modes of one group size alternate with each other, round by round
        for ws in sorted({w for _, w in rows}):
            group = [m for m, w in rows if w == ws]
            cols = [(lib, m) for m in group for lib in libs
                    if lib == "minitorch" or m in ("single", "ddp")]
            if "ddp-pair" in group:     # one run, two rates: printed on its own
                cols.remove(("minitorch", "ddp-pair"))
                pair = [0.0, 0.0]
                for _ in range(a.repeat):
                    r = measure("minitorch", "ddp-pair", kind, a.threads, a.steps, ws=ws,
                                accum=a.accum)
                    pair = [max(x, y) for x, y in zip(pair, r)]
                print(f"{kind:6} {'pair x' + str(ws):10} {pair[0]:10.1f}/s (plain) "
                      f"{pair[1]:10.1f}/s (deterministic) {pair[1] / pair[0]:6.2f}x", flush=True)
                group = [m for m in group if m != "ddp-pair"]
            best = {c: 0.0 for c in cols}
            for _ in range(a.repeat):
                for lib, m in cols:
                    best[lib, m] = max(best[lib, m], measure(lib, m, kind, a.threads, a.steps,
                                                             ws=ws, accum=a.accum))
            for m in group:
                v = best["minitorch", m]
                t = best.get(("torch", m))
                if m != "ddp" and ("minitorch", "ddp") in best and m != "single":
                    t, tt = best["minitorch", "ddp"], "(vs ddp)"
                else:
                    tt = f"{t:10.1f}/s" if t else "       n/a"
                ratio = f"{v / t:6.2f}x" if t else "    n/a"
                name = m if m == "single" else f"{m} x{ws}"
                print(f"{kind:6} {name:10} {v:10.1f}/s {tt:>12} {ratio:>7}", flush=True)


if __name__ == "__main__":
    main()
