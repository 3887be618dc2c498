"""Matrix-product timings of minitorch next to NumPy (and PyTorch when installed), measured in one run.

    env -u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE python bench/matmul.py [--sizes 256 1024 4096]
        [--dtype float32] [--threads N] [--fallback]

For square n x n products it prints our time, NumPy's time and the ratio ours/NumPy (< 1 means
minitorch is faster), plus GFLOP/s.  The libraries take turns in short blocks of calls and each keeps
its best call, so a busy machine penalises both alike.  --fallback also times the portable
blocked GEMM (the BLAS turned off).  Both minitorch and NumPy use an OpenBLAS; the environment
variables OPENBLAS_CORETYPE / OPENBLAS_L2_SIZE (set on some machines for old OpenBLAS builds)
change its kernel choice, so unset them for a fair comparison -- this script reports whether
they are set.
"""
import argparse
import os
import platform
import time

import numpy as np

import minitorch

try:
    import torch
except ImportError:
    torch = None


def best_of(fns, budget):
    """Best per-call time of each fn, about `budget` seconds in all.

    The libraries take turns in blocks of calls (about 50 ms each, repeated): each OpenBLAS keeps
    its threads spinning for a moment after a call, so strict call-by-call alternation would have
    each library compete with the other's spinning threads."""
    best = [float("inf")] * len(fns)
    per_call = []
    for f in fns:  # warm-up (thread pools, page faults) and a first estimate
        f()
        t0 = time.perf_counter()
        f()
        per_call.append(time.perf_counter() - t0)
    reps = [max(1, int(0.05 / max(t, 1e-9))) for t in per_call]
    deadline = time.perf_counter() + budget
    rounds = 0
    while rounds < 3 or (time.perf_counter() < deadline and rounds < 50):
        for i, f in enumerate(fns):
            f()  # let the other library's threads go idle
            for _ in range(reps[i]):
                t0 = time.perf_counter()
                f()
                best[i] = min(best[i], time.perf_counter() - t0)
        rounds += 1
    return best


def fmt(sec):
    return f"{sec * 1e6:8.1f} us" if sec < 1e-3 else f"{sec * 1e3:8.2f} ms"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--sizes", type=int, nargs="+", default=[256, 1024, 4096])
    ap.add_argument("--dtype", default="float32", choices=["float32", "float64"])
    ap.add_argument("--threads", type=int, default=None, help="threads for minitorch (and its BLAS)")
    ap.add_argument("--fallback", action="store_true", help="also time the portable GEMM")
    ap.add_argument("--budget", type=float, default=2.0, help="seconds per size")
    args = ap.parse_args()
    if args.threads:
        minitorch.set_num_threads(args.threads)
        if torch is not None:
            torch.set_num_threads(args.threads)
    env = {k: os.environ[k] for k in ("OPENBLAS_CORETYPE", "OPENBLAS_L2_SIZE", "OPENBLAS_NUM_THREADS")
           if k in os.environ}
    info = minitorch._C._blas_info()
    print(f"minitorch {minitorch.__version__} ({minitorch.get_num_threads()} threads), numpy {np.__version__}, "
          f"torch {torch.__version__ if torch else 'not installed'}, {platform.machine()}, "
          f"{os.cpu_count()} cores")
    print(f"minitorch BLAS: {info[1] if info else 'none (portable GEMM)'}")
    try:
        cfg = np.show_config(mode="dicts")["Build Dependencies"]["blas"]
        print(f"numpy BLAS:     {cfg.get('name')} {cfg.get('version')}")
    except Exception:  # older NumPy: no dict mode
        pass
    print("OpenBLAS environment: " + (", ".join(f"{k}={v}" for k, v in env.items()) if env else
                                      "OPENBLAS_CORETYPE and OPENBLAS_L2_SIZE unset (fair comparison)"))
    header = f"{args.dtype:8} {'n':>5} {'minitorch':>11} {'numpy':>11} {'ratio':>6} {'GFLOP/s':>8}"
    if torch is not None:
        header += f" {'torch':>11} {'ratio':>6}"
    if args.fallback:
        header += f" {'fallback':>11} {'ratio':>6}"
    print(header)
    rng = np.random.default_rng(0)
    for n in args.sizes:
        a = rng.standard_normal((n, n)).astype(args.dtype)
        b = rng.standard_normal((n, n)).astype(args.dtype)
        ma, mb = minitorch.from_numpy(a), minitorch.from_numpy(b)
        fns = [lambda: ma @ mb, lambda: a @ b]
        if torch is not None:
            ta, tb = torch.from_numpy(a), torch.from_numpy(b)
            fns.append(lambda: ta @ tb)
        budget = args.budget if n <= 2048 else max(args.budget, 6.0)
        times = best_of(fns, budget)
        ours, ref = times[0], times[1]
        line = f"{'matmul':8} {n:5} {fmt(ours):>11} {fmt(ref):>11} {ours / ref:6.2f} {2 * n ** 3 / ours / 1e9:8.1f}"
        if torch is not None:
            line += f" {fmt(times[2]):>11} {ours / times[2]:6.2f}"
        if args.fallback:
            minitorch._C._blas_set_enabled(False)
            try:
                (tf,) = best_of([lambda: ma @ mb], budget / 2)
            finally:
                minitorch._C._blas_set_enabled(True)
            line += f" {fmt(tf):>11} {tf / ref:6.2f}"
        print(line, flush=True)
        err = np.abs((ma @ mb).numpy().astype(np.float64) - a.astype(np.float64) @ b).max()
        assert err < (1e-2 if args.dtype == "float32" else 1e-9) * np.sqrt(n), err


if __name__ == "__main__":
    main()
