"""Autograd on small-op graphs: minitorch next to PyTorch, alternating, in one run.

    python bench/autograd.py                      # minitorch only (torch columns n/a)
    /path/to/python-with-torch bench/autograd.py  # both

Cases (float32, one intra-op thread per library unless --threads):
  chain16   y = (y * w + 1).tanh(), then y = y.sigmoid() * y - y.exp() / 4, repeated, on 16
            elements: recording and backward cost per op (us/op, lower is better)
  mixed8    on 8x8 tensors: y = (y @ w).relu(); s = y.sum(1, keepdim=True); y = y / (s + 1);
            y = y.t().reshape(8, 8) * 0.5 + y.mean(): matmuls, reductions, views and
            elementwise ops mixed (us/op)
  lstm      nn.LSTM(64, 64) over 100 steps, batch 8: forward + backward (steps/s)
  gpt       a GPT block stack (nanoGPT's CPU configuration: 4 layers, width 128, 4 heads,
            sequence 64, batch 12, vocabulary 65): forward + loss + backward + AdamW step
            (steps/s)
Each figure is the best of --repeat rounds that alternate the libraries, each library in its
own process; ratio is torch's time / minitorch's (> 1: minitorch faster).  On a machine that
other processes load, --threads 1 --clock cpu compares CPU time instead of wall time.
"""
import argparse
import json
import math
import os
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


CLOCK = time.perf_counter


def _best_time(fn, reps, inner):
    fn()
    best = math.inf
    for _ in range(reps):
        t0 = CLOCK()
        for _ in range(inner):
            fn()
        best = min(best, (CLOCK() - t0) / inner)
    return best


def chain16(torch, n_steps=100):
    x = torch.randn(16, requires_grad=True)
    w = torch.randn(16, requires_grad=True)

    def run():
        y = x
        for _ in range(n_steps):
            y = (y * w + 1).tanh()
            y = y.sigmoid() * y - y.exp() / 4
        y.sum().backward()
    # ops per step: mul, add, tanh, sigmoid, mul, exp, div, sub = 8; plus the sum
    return _best_time(run, 5, 3) / (8 * n_steps + 1) * 1e6


def mixed8(torch, n_steps=50):
    x = torch.randn(8, 8, requires_grad=True)
    w = (torch.randn(8, 8) / 3).requires_grad_()

    def run():
        y = x
        for _ in range(n_steps):
            y = (y @ w).relu()
            s = y.sum(1, keepdim=True)
            y = y / (s + 1)
            y = y.t().reshape(8, 8) * 0.5 + y.mean()
        y.sum().backward()
    # matmul, relu, sum, add, div, t, reshape, mul, mean, add = 10 per step; plus the sum
    return _best_time(run, 5, 3) / (10 * n_steps + 1) * 1e6


def lstm(torch):
    torch.manual_seed(0)
    m = torch.nn.LSTM(64, 64)
    x = torch.randn(100, 8, 64)

    def run():
        out, _ = m(x)
        out.sum().backward()
    return 1.0 / _best_time(run, 5, 2)


def gpt(torch, batch=12, block=64):
    torch.manual_seed(0)
    model = models.gpt(torch)
    opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
    idx = torch.randint(0, 65, (batch, block))
    tgt = torch.randint(0, 65, (batch, block))

    def run():
        opt.zero_grad(set_to_none=True)
        model(idx, tgt).backward()
        opt.step()
    return 1.0 / _best_time(run, 5, 3)


CASES = {"chain16": (chain16, "us/op", False), "mixed8": (mixed8, "us/op", False),
         "lstm": (lstm, "steps/s", True), "gpt": (gpt, "steps/s", True)}


def _run_worker(lib, case, threads, clock):
    env = dict(os.environ, OMP_NUM_THREADS=str(threads))
    out = subprocess.run([sys.executable, __file__, "--worker", lib, case, str(threads), clock],
                         env=env, capture_output=True, text=True, timeout=900)
    if out.returncode != 0:
        raise RuntimeError(f"worker {lib} {case} failed:\n{out.stderr[-3000:]}")
    return json.loads(out.stdout.strip().splitlines()[-1])


def main():
    if len(sys.argv) > 1 and sys.argv[1] == "--worker":
        global CLOCK
        lib, case, threads = sys.argv[2], sys.argv[3], int(sys.argv[4])
        if sys.argv[5] == "cpu":
            CLOCK = time.process_time
        torch = _lib(lib)
        torch.set_num_threads(threads)
        print(json.dumps(CASES[case][0](torch)))
        return
    ap = argparse.ArgumentParser()
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--cases", default=",".join(CASES))
    ap.add_argument("--clock", choices=("wall", "cpu"), default="wall",
                    help="cpu: CPU time of the process (meaningful with --threads 1)")
    a = ap.parse_args()
    try:
        import torch  # noqa: F401
        libs = ["minitorch", "torch"]
    except ImportError:
        libs = ["minitorch"]
    print(f"threads={a.threads}, {a.clock} clock, best of {a.repeat} alternating rounds")
    print(f"{'case':8} {'minitorch':>14} {'torch':>14} {'ratio':>7}")
    for case in a.cases.split(","):
        _, unit, higher = CASES[case]
        best = {}
        for _ in range(a.repeat):
            for lib in libs:
                v = _run_worker(lib, case, a.threads, a.clock)
                if lib not in best or (v > best[lib] if higher else v < best[lib]):
                    best[lib] = v
        m, t = best["minitorch"], best.get("torch")
        ratio = (m / t if higher else t / m) if t else None
        ts = f"{t:9.2f} {unit:>4}" if t else "n/a"
        rs = f"{ratio:6.2f}x" if ratio else "n/a"
        print(f"{case:8} {m:9.2f} {unit:>4} {ts:>14} {rs:>7}", flush=True)


if __name__ == "__main__":
    main()
