"""Per-op timings of minitorch next to NumPy (and PyTorch when installed), measured in one run.

    python bench/ops.py [--threads N] [--quick]

For float32 add, mul, exp, sum at 1K, 64K, 1M and 16M elements, float32 + float64 and
int32 * float64 (mixed dtypes: inputs converted on the fly, see Note [Casting in blocks]) at
16M, and a 1024x1024 matmul it prints
our time, NumPy's time and the ratio ours/NumPy (< 1 means minitorch is faster).  NumPy runs
single-threaded elementwise kernels; minitorch uses its intra-op pool (set_num_threads).
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
    header = f"{'op':8} {'elements':>10} {'minitorch':>11} {'numpy':>11} {'ratio':>6}"
    if torch is not None:
        header += f" {'torch':>11} {'ratio':>6}"
    print(header)
    print("-" * len(header))
    rng = np.random.default_rng(0)
    for n in SIZES:
        a = rng.random(n, dtype=np.float32)
        b = rng.random(n, dtype=np.float32)
        ta, tb = minitorch.from_numpy(a), minitorch.from_numpy(b)
        cases = {
            "add": (lambda: ta + tb, lambda: a + b, "x + y"),
            "mul": (lambda: ta * tb, lambda: a * b, "x * y"),
            "exp": (lambda: ta.exp(), lambda: np.exp(a), "x.exp()"),
            "sum": (lambda: ta.sum(), lambda: a.sum(), "x.sum()"),
        }
        if torch is not None:
            xa, xb = torch.from_numpy(a), torch.from_numpy(b)
            torch_cases = {"add": lambda: xa + xb, "mul": lambda: xa * xb, "exp": lambda: xa.exp(),
                           "sum": lambda: xa.sum()}
        for name, (ours, ref, _) in cases.items():
            t_ours, t_np = best_time(ours, budget), best_time(ref, budget)
            line = f"{name:8} {n:>10} {fmt(t_ours):>11} {fmt(t_np):>11} {t_ours / t_np:6.2f}"
            if torch is not None:
                t_torch = best_time(torch_cases[name], budget)
                line += f" {fmt(t_torch):>11} {t_ours / t_torch:6.2f}"
            print(line)
    n = SIZES[-1]
    a32, a64 = rng.random(n, dtype=np.float32), rng.random(n)
    i32 = (a32 * 100).astype(np.int32)
    t32, t64, ti32 = minitorch.from_numpy(a32), minitorch.from_numpy(a64), minitorch.from_numpy(i32)
    mixed = {"f32+f64": (lambda: t32 + t64, lambda: a32 + a64),
             "i32*f64": (lambda: ti32 * t64, lambda: i32 * a64)}
    if torch is not None:
        x32, x64, xi32 = torch.from_numpy(a32), torch.from_numpy(a64), torch.from_numpy(i32)
        torch_mixed = {"f32+f64": lambda: x32 + x64, "i32*f64": lambda: xi32 * x64}
    for name, (ours, ref) in mixed.items():
        t_ours, t_np = best_time(ours, budget), best_time(ref, budget)
        line = f"{name:8} {n:>10} {fmt(t_ours):>11} {fmt(t_np):>11} {t_ours / t_np:6.2f}"
        if torch is not None:
            t_torch = best_time(torch_mixed[name], budget)
            line += f" {fmt(t_torch):>11} {t_ours / t_torch:6.2f}"
        print(line)
    if hasattr(minitorch, "matmul"):
        m = 1024
        a = rng.random((m, m), dtype=np.float32)
        b = rng.random((m, m), dtype=np.float32)
        ta, tb = minitorch.from_numpy(a), minitorch.from_numpy(b)
        t_ours, t_np = best_time(lambda: ta @ tb, 1.0), best_time(lambda: a @ b, 1.0)
        line = f"{'matmul':8} {str(m) + 'x' + str(m):>10} {fmt(t_ours):>11} {fmt(t_np):>11} {t_ours / t_np:6.2f}"
        if torch is not None:
            xa, xb = torch.from_numpy(a), torch.from_numpy(b)
            t_torch = best_time(lambda: xa @ xb, 1.0)
            line += f" {fmt(t_torch):>11} {t_ours / t_torch:6.2f}"
        print(line)
    else:
        print("matmul: minitorch.matmul not available in this build")


if __name__ == "__main__":
    main()
