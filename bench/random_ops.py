"""Random number timings of minitorch next to NumPy's Generator (PCG64) and PyTorch when installed.

    python bench/random_ops.py [--threads N] [--quick]

For rand/randn (float32 and float64), randint and randperm at 1K, 64K, 1M and 16M elements and a
multinomial over 1000 rows of 1000 categories it prints our time, NumPy's and the ratio ours/NumPy
(< 1 means minitorch is faster).  NumPy draws on one thread; minitorch fills in parallel
(set_num_threads) with the same numbers for any thread count.
"""
import argparse
import os
import platform
import timeit

import numpy as np

import minitorch

try:
    import torch
except ImportError:
    torch = None

SIZES = [1 << 10, 1 << 16, 1 << 20, 1 << 24]


def best_time(fn, budget=0.25):
    """Best per-call time over 5 repeats, each about `budget`/5 seconds."""
    t = timeit.Timer(fn)
    n, elapsed = 1, 0.0
    while True:
        elapsed = t.timeit(n)
        if elapsed > budget / 10 or n > 1 << 20:
            break
        n *= 4
    number = max(1, int(n * (budget / 5) / max(elapsed, 1e-9)))
    return min(t.repeat(repeat=5, number=number)) / number


def fmt(sec):
    if sec < 1e-6:
        return f"{sec * 1e9:7.0f} ns"
    if sec < 1e-3:
        return f"{sec * 1e6:7.2f} us"
    return f"{sec * 1e3:7.2f} ms"


def cases(n, rng):
    mt = minitorch
    c = {
        "rand f32": (lambda: mt.rand(n), lambda: rng.random(n, dtype=np.float32),
                     lambda: torch.rand(n)),
        "rand f64": (lambda: mt.rand(n, dtype=mt.float64), lambda: rng.random(n),
                     lambda: torch.rand(n, dtype=torch.float64)),
        "randn f32": (lambda: mt.randn(n), lambda: rng.standard_normal(n, dtype=np.float32),
                      lambda: torch.randn(n)),
        "randn f64": (lambda: mt.randn(n, dtype=mt.float64), lambda: rng.standard_normal(n),
                      lambda: torch.randn(n, dtype=torch.float64)),
        "randint": (lambda: mt.randint(0, 1000, (n,)), lambda: rng.integers(0, 1000, n),
                    lambda: torch.randint(0, 1000, (n,))),
        "randperm": (lambda: mt.randperm(n), lambda: rng.permutation(n), lambda: torch.randperm(n)),
    }
    return c


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--threads", type=int, default=None, help="minitorch threads (default: all cores)")
    ap.add_argument("--quick", action="store_true", help="shorter timing budget")
    args = ap.parse_args()
    if args.threads:
        minitorch.set_num_threads(args.threads)
        if torch is not None:
            torch.set_num_threads(args.threads)
    budget = 0.1 if args.quick else 0.25
    print(f"minitorch {minitorch.__version__} ({minitorch.get_num_threads()} threads), numpy {np.__version__}, "
          f"torch {torch.__version__ if torch else 'not installed'}, {platform.machine()}, {os.cpu_count()} cores")
    header = f"{'op':12} {'elements':>10} {'minitorch':>11} {'numpy':>11} {'ratio':>6}"
    if torch is not None:
        header += f" {'torch':>11} {'ratio':>6}"
    print(header)
    print("-" * len(header))
    rng = np.random.default_rng(0)
    for n in SIZES:
        for name, (ours, ref, tref) in cases(n, rng).items():
            t_ours, t_np = best_time(ours, budget), best_time(ref, budget)
            line = f"{name:12} {n:>10} {fmt(t_ours):>11} {fmt(t_np):>11} {t_ours / t_np:6.2f}"
            if torch is not None:
                t_torch = best_time(tref, budget)
                line += f" {fmt(t_torch):>11} {t_ours / t_torch:6.2f}"
            print(line)
    w = rng.random((1000, 1000))
    tw = minitorch.from_numpy(w)

    def np_multinomial(replace):
        # NumPy has no batched categorical draw: one Generator.choice per row
        return [rng.choice(1000, 10, replace=replace, p=row / row.sum()) for row in w]

    for repl in (True, False):
        name = "multinomial" + (" r" if repl else "")
        t_ours = best_time(lambda: minitorch.multinomial(tw, 10, repl), budget)
        t_np = best_time(lambda: np_multinomial(repl), budget)
        line = f"{name:12} {'1000x1000':>10} {fmt(t_ours):>11} {fmt(t_np):>11} {t_ours / t_np:6.2f}"
        if torch is not None:
            xw = torch.from_numpy(w)
            t_torch = best_time(lambda: torch.multinomial(xw, 10, repl), budget)
            line += f" {fmt(t_torch):>11} {t_ours / t_torch:6.2f}"
        print(line)


if __name__ == "__main__":
    main()
