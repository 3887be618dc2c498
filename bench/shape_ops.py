"""Timings of sorting, gathers and advanced indexing next to NumPy, measured in one run.

    python bench/shape_ops.py [--threads N]

Each row prints our time, NumPy's time for the same result and the ratio ours/NumPy (< 1 means
minitorch is faster).  Sorts are compared with NumPy's stable sort (ours is always stable).
"""
import argparse
import timeit

import numpy as np

import minitorch


def best_time(fn, budget=0.2):
    """Best per-call time over 5 repeats of about budget/5 seconds each."""
    t = timeit.Timer(fn)
    n = 1
    while t.timeit(n) < budget / 10 and n < 1 << 16:
        n *= 4
    return min(t.repeat(repeat=5, number=n)) / n


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--threads", type=int, default=None)
    args = ap.parse_args()
    if args.threads:
        minitorch.set_num_threads(args.threads)
    rng = np.random.default_rng(0)
    n = 1 << 20
    x = rng.standard_normal(n).astype(np.float32)
    m = x.reshape(1024, 1024)
    idx = rng.integers(0, n, size=n)
    col = rng.integers(0, 1024, size=1024)
    gidx = rng.integers(0, 1024, size=(1024, 1024))
    mask = x > 0
    bounds = np.sort(x[:1024])
    tx, tm, tidx, tcol = (minitorch.from_numpy(a) for a in (x, m, idx, col))
    tg, tmask, tb = minitorch.from_numpy(gidx), minitorch.from_numpy(mask), minitorch.from_numpy(bounds)

    def set_mask_t():
        y = tx.clone()
        y[tmask] = 0.0

    def set_mask_n():
        y = x.copy()
        y[mask] = 0.0

    rows = [
        ("sort 1M float32 (one line)", lambda: minitorch.sort(tx), lambda: np.sort(x, kind="stable")),
        ("argsort 1M float32 (one line)", lambda: minitorch.argsort(tx), lambda: np.argsort(x, kind="stable")),
        ("sort 1024x1024 along dim -1", lambda: minitorch.sort(tm), lambda: np.sort(m, -1, kind="stable")),
        ("sort 1024x1024 along dim 0", lambda: minitorch.sort(tm, 0), lambda: np.sort(m, 0, kind="stable")),
        ("topk 1M k=10", lambda: minitorch.topk(tx, 10), lambda: np.argpartition(x, -10)[-10:]),
        ("x[idx], 1M indices", lambda: tx[tidx], lambda: x[idx]),
        ("x[mask], 1M", lambda: tx[tmask], lambda: x[mask]),
        ("x[mask] = 0, 1M (with a copy)", set_mask_t, set_mask_n),
        ("m[:, idx] 1024x1024", lambda: tm[:, tcol], lambda: m[:, col]),
        ("index_select 1024x1024 dim 1", lambda: tm.index_select(1, tcol), lambda: np.take(m, col, 1)),
        ("gather 1024x1024 dim 1", lambda: minitorch.gather(tm, 1, tg), lambda: np.take_along_axis(m, gidx, 1)),
        ("nonzero 1M bool", lambda: minitorch.nonzero(tmask), lambda: np.argwhere(mask)),
        ("cat 2 x 1024x1024 dim 1", lambda: minitorch.cat([tm, tm], 1), lambda: np.concatenate([m, m], 1)),
        ("flip 1024x1024 dim 1", lambda: tm.flip(1), lambda: np.flip(m, 1).copy()),
        ("unique 1M int64", lambda: minitorch.unique(tidx), lambda: np.unique(idx)),
        ("searchsorted 1M in 1K", lambda: minitorch.searchsorted(tb, tx), lambda: np.searchsorted(bounds, x)),
    ]
    print(f"threads: {minitorch.get_num_threads()}")
    print(f"{'op':36s} {'minitorch':>11s} {'numpy':>11s} {'ratio':>7s}")
    for name, ours, ref in rows:
        a, b = best_time(ours), best_time(ref)
        print(f"{name:36s} {a * 1e3:9.3f}ms {b * 1e3:9.3f}ms {a / b:7.2f}")


if __name__ == "__main__":
    main()
