"""Activations, math functions, selects and casts of one 512K-element float32 tensor (an
activation map of a small CNN, 16x32x32x32): minitorch's time next to PyTorch's, measured in one
run, alternating op by op.

    python bench/activations.py [--threads N] [--ops elu,softplus,...]

Prints per op our time, torch's time and the ratio torch/ours (> 1 means minitorch is faster).
Needs PyTorch installed next to minitorch (its own virtual environment is fine).
"""
import argparse
import time

import minitorch

try:
    import torch
except ImportError:
    torch = None

SHAPE = (16, 32, 32, 32)


def ops(lib, x, y, m):
    F = lib.nn.functional
    return {
        "relu": lambda: F.relu(x), "leaky_relu": lambda: F.leaky_relu(x, 0.2),
        "elu": lambda: F.elu(x), "selu": lambda: F.selu(x), "celu": lambda: F.celu(x),
        "softplus": lambda: F.softplus(x), "logsigmoid": lambda: F.logsigmoid(x),
        "mish": lambda: F.mish(x), "gelu": lambda: F.gelu(x), "silu": lambda: F.silu(x),
        "sigmoid": lambda: x.sigmoid(), "tanh": lambda: x.tanh(), "hardtanh": lambda: F.hardtanh(x),
        "exp": lambda: x.exp(), "expm1": lambda: x.expm1(), "log": lambda: y.log(),
        "log1p": lambda: y.log1p(), "sqrt": lambda: y.sqrt(),
        "where": lambda: lib.where(m, x, y), "masked_fill": lambda: x.masked_fill(m, 0.0),
        "to_half": lambda: x.half(), "to_bfloat16": lambda: x.to(lib.bfloat16),
        "gt": lambda: x > y, "clamp": lambda: x.clamp(-0.5, 0.5),
    }


def best(fn, reps):
    b = float("inf")
    for _ in range(reps):
        t = time.perf_counter()
        fn()
        b = min(b, time.perf_counter() - t)
    return b


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--ops", default=None, help="comma-separated subset")
    ap.add_argument("--reps", type=int, default=20)
    args = ap.parse_args()
    minitorch.set_num_threads(args.threads)
    minitorch.manual_seed(0)
    x = minitorch.randn(*SHAPE)
    y = minitorch.rand(*SHAPE) + 0.1
    m = x > 0
    ours = ops(minitorch, x, y, m)
    theirs = None
    if torch is not None:
        torch.set_num_threads(args.threads)
        tx, ty = torch.from_numpy(x.numpy()), torch.from_numpy(y.numpy())
        theirs = ops(torch, tx, ty, tx > 0)
    names = args.ops.split(",") if args.ops else list(ours)
    print(f"float32 {SHAPE}, {args.threads} thread(s); torch "
          f"{torch.__version__ if torch else 'not installed'}")
    print(f"{'op':14s} {'minitorch':>11s} {'torch':>11s} {'torch/ours':>10s}")
    for name in names:
        a = b = float("inf")
        for _ in range(3):             # alternate: each side sees the same machine state
            a = min(a, best(ours[name], args.reps))
            if theirs is not None:
                b = min(b, best(theirs[name], args.reps))
        if theirs is None:
            print(f"{name:14s} {a * 1e3:9.3f}ms")
        else:
            print(f"{name:14s} {a * 1e3:9.3f}ms {b * 1e3:9.3f}ms {b / a:9.2f}x")


if __name__ == "__main__":
    main()
