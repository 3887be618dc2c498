"""Per-call cost of zero-copy interop and view ops, next to NumPy (and PyTorch when installed).

Every operation only builds new metadata over the same memory, so its cost must not depend on
the size of the buffer: the table shows each op on a 1 KiB and a 1 GiB float64 array.

    python bench/interop.py [--repeat 7] [--target-seconds 0.05]
"""
import argparse
import platform
import timeit

import numpy as np

import minitorch

try:
    import torch
except ImportError:
    torch = None

SIZES = {"1 KiB": (8, 16), "1 GiB": (8192, 16384)}  # float64: 8 * 16 * 8 B and 8192 * 16384 * 8 B

# name: (minitorch statement, numpy statement, torch statement)
OPS = {
    "from_numpy": ("from_numpy(a)", "a.view()", "tfrom_numpy(a)"),
    ".numpy()": ("m.numpy()", "a.view()", "tt.numpy()"),
    "view": ("m.view(n)", "a.reshape(n)", "tt.view(n)"),
    "transpose": ("m.transpose(0, 1)", "a.transpose(1, 0)", "tt.transpose(0, 1)"),
    "t[1:, ::2]": ("m[1:, ::2]", "a[1:, ::2]", "tt[1:, ::2]"),
}


def per_call_ns(stmt, env, repeat, target):
    timer = timeit.Timer(stmt, globals=env)
    number, _ = timer.autorange()  # calls that take >= 0.2 s
    number = max(1, int(number * target / 0.2))
    return min(timer.repeat(repeat=repeat, number=number)) / number * 1e9


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--repeat", type=int, default=7, help="timing repeats; the minimum is reported")
    p.add_argument("--target-seconds", type=float, default=0.05, help="time per repeat")
    args = p.parse_args()

    print(f"minitorch {minitorch.__version__}, numpy {np.__version__}, "
          f"torch {torch.__version__ if torch else 'not installed'}, "
          f"Python {platform.python_version()} on {platform.machine()}")
    print(f"per-call cost in ns (min of {args.repeat} repeats); ratio = minitorch / numpy\n")
    head = f"{'op':<12} {'size':>6} {'minitorch':>10} {'numpy':>8} {'ratio':>6}"
    if torch:
        head += f" {'torch':>8} {'vs torch':>8}"
    print(head)
    print("-" * len(head))

    results = {}
    for label, shape in SIZES.items():
        a = np.empty(shape)  # untouched pages: the 1 GiB case costs no RAM until written
        m = minitorch.from_numpy(a)
        env = {"a": a, "m": m, "n": (shape[0] * shape[1],), "from_numpy": minitorch.from_numpy}
        if torch:
            env["tt"] = torch.from_numpy(a)
            env["tfrom_numpy"] = torch.from_numpy
        for name, (ours, ref, theirs) in OPS.items():
            ours_ns = per_call_ns(ours, env, args.repeat, args.target_seconds)
            ref_ns = per_call_ns(ref, env, args.repeat, args.target_seconds)
            results[name, label] = ours_ns
            line = f"{name:<12} {label:>6} {ours_ns:>10.0f} {ref_ns:>8.0f} {ours_ns / ref_ns:>6.2f}"
            if torch:
                torch_ns = per_call_ns(theirs, env, args.repeat, args.target_seconds)
                line += f" {torch_ns:>8.0f} {ours_ns / torch_ns:>8.2f}"
            print(line)
        del env, m, a

    print("\nO(1) check, minitorch cost at 1 GiB / cost at 1 KiB (1.00 = independent of size):")
    print("  " + ", ".join(f"{name} {results[name, '1 GiB'] / results[name, '1 KiB']:.2f}" for name in OPS))


if __name__ == "__main__":
    main()
