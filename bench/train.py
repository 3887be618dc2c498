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


def _steps_per_s(torch, kind, model, steps, warmup):
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


def ddp_rank(lib, kind, threads, steps, rank, port):
    torch = _lib(lib)
    import importlib
    dist = importlib.import_module(lib + ".distributed")
    ddp = importlib.import_module(lib + ".nn.parallel").DistributedDataParallel
    torch.set_num_threads(threads)
    dist.init_process_group("gloo", init_method=f"tcp://127.0.0.1:{port}", rank=rank,
                            world_size=2)
    torch.manual_seed(rank)
    model = ddp(_model(torch, kind))
    dist.barrier()
    r = _steps_per_s(torch, kind, model, steps, warmup=3)
    t = torch.tensor([r])
    dist.all_reduce(t, op=dist.ReduceOp.MIN)
    dist.destroy_process_group()
    return t.item()


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


def measure(lib, mode, kind, threads, steps, attempts=2):
    """One figure; a run whose ranks fail (a port taken meanwhile, a crash at exit) is retried
    once before the error is reported."""
    for i in range(attempts):
        try:
            return _measure(lib, mode, kind, threads, steps)
        except RuntimeError:
            if i == attempts - 1:
                raise


def _measure(lib, mode, kind, threads, steps):
    if mode == "single":
        return _run_worker([lib, "single", kind, threads, steps, 0, 0])
    port = _free_port()
    t = max(1, threads // 2)
    env = dict(os.environ, OMP_NUM_THREADS=str(t))
    procs = [subprocess.Popen([sys.executable, __file__, "--worker", lib, "ddp", kind, str(t),
                               str(steps), str(r), str(port)], env=env, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True) for r in range(2)]
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
        else:
            r = ddp_rank(lib, kind, int(threads), int(steps), int(rank), int(port))
        print(json.dumps(r))
        return
    ap = argparse.ArgumentParser()
    ap.add_argument("--threads", type=int, default=os.cpu_count())
    ap.add_argument("--repeat", type=int, default=2)
    ap.add_argument("--steps", type=int, default=30)
    ap.add_argument("--models", default="mlp,cnn,gpt")
    ap.add_argument("--modes", default="single,ddp")
    a = ap.parse_args()
    try:
        import torch  # noqa: F401
        libs = ["minitorch", "torch"]
    except ImportError:
        libs = ["minitorch"]
    print(f"threads={a.threads}, steps={a.steps}, best of {a.repeat} alternating rounds")
    print(f"{'model':6} {'mode':7} {'minitorch':>12} {'torch':>12} {'ratio':>7}")
    for kind in a.models.split(","):
        for mode in a.modes.split(","):
            best = {lib: 0.0 for lib in libs}
            for _ in range(a.repeat):
                for lib in libs:
                    best[lib] = max(best[lib], measure(lib, mode, kind, a.threads, a.steps))
            m = best["minitorch"]
            t = best.get("torch")
            tt = f"{t:10.1f}/s" if t else "       n/a"
            ratio = f"{m / t:6.2f}x" if t else "    n/a"
            print(f"{kind:6} {mode:7} {m:10.1f}/s {tt:>12} {ratio:>7}", flush=True)


if __name__ == "__main__":
    main()
