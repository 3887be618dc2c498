"""CUDA kernels of minitorch next to PyTorch's on the same GPU, measured in one run, alternating.

    python bench/cuda_ops.py [--quick] [--only add,sum,...]

Needs a GPU, minitorch built with CUDA (MINITORCH_CUDA=ON) and torch with CUDA.  Each figure is
the best of --repeat rounds that alternate the libraries (each round: synchronise, run the op
`number` times, synchronise); ratios are minitorch / torch in throughput (> 1: minitorch faster)
or in time per op where the line says so (< 1: minitorch faster).  Cases (issue targets in
brackets):
  add, mul   float32 c = a + b at 16M, 64M, 256M elements: GB/s (3 tensors moved), against
             torch's and against a device-to-device cudaMemcpy of the same bytes (torch's
             contiguous copy_)                                   [>= 1.0x torch, >= 90% memcpy]
  sum, amax  of 256M float32: GB/s                                 [>= torch]
  cast       float32 -> bfloat16 / float16 and back, 64M: GB/s     [>= torch]
  matmul     4096x4096 float32 (TF32 off and on) and bfloat16: TFLOP/s   [within 5% of torch]
  overhead   c = a + b on 1-element tensors, per op (host time)    [<= 0.5x torch's time]
  train      bench/train.py's mlp and cnn steps on the device: steps/s, and how many
             cudaMalloc calls the 1000 steps after the first made (allocator statistics) [>= torch]
On the emulated device (MINITORCH_CUDA=EMULATE) the figures mean nothing; it refuses to run there.
"""
import argparse
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "python"))

import minitorch  # noqa: E402

try:
    import torch
except ImportError:
    torch = None


def _sync(lib):
    lib.cuda.synchronize()


def best(lib, fn, number, repeat):
    """Best seconds per call over `repeat` rounds of `number` calls."""
    fn()
    _sync(lib)
    times = []
    for _ in range(repeat):
        _sync(lib)
        t0 = time.perf_counter()
        for _ in range(number):
            fn()
        _sync(lib)
        times.append((time.perf_counter() - t0) / number)
    return min(times)


def side_by_side(make, number, repeat):
    """{lib name: seconds per call}, the libraries alternating round by round.  make(lib) gives
    the callable for that library (inputs allocated once, outside the timing)."""
    libs = [("minitorch", minitorch)] + ([("torch", torch)] if torch is not None else [])
    fns = {name: make(lib) for name, lib in libs}
    out = {name: float("inf") for name, _ in libs}
    for _ in range(repeat):
        for name, lib in libs:
            out[name] = min(out[name], best(lib, fns[name], number, 1))
    return out


def line(label, ours, theirs, unit, extra=""):
    """One figure: ours, torch's and ours / torch's (a time ratio where the unit is a time)."""
    if theirs is None:
        print(f"{label:<34} {ours:10.2f} {unit:<8} {'n/a':>10}   {'':>6} {extra}")
        return
    print(f"{label:<34} {ours:10.2f} {unit:<8} {theirs:10.2f}   {ours / theirs:6.2f}x {extra}")


def _randn(lib, n, dtype="float32"):
    return lib.randn(n, device="cuda").to(getattr(lib, dtype))


def bench_elementwise(args):
    for n in ([1 << 24] if args.quick else [1 << 24, 1 << 26, 1 << 28]):
        for opname, op in (("add", lambda a, b: a + b), ("mul", lambda a, b: a * b)):
            def make(lib, op=op, n=n):
                a, b = _randn(lib, n), _randn(lib, n)
                return lambda: op(a, b)
            t = side_by_side(make, 10, args.repeat)

            def make_copy(lib, n=n):
                a, c = _randn(lib, n), lib.empty(n, device="cuda")
                return lambda: c.copy_(a)
            tc = best(torch, make_copy(torch), 10, args.repeat) if torch else None
            gb = 3 * 4 * n / 1e9
            ours, theirs = gb / t["minitorch"], (gb / t["torch"] if torch else None)
            memcpy = (2 * 4 * n / 1e9) / tc if tc else None
            line(f"{opname} float32 {n >> 20}M", ours, theirs, "GB/s",
                 extra=f"(memcpy d2d {memcpy:.0f} GB/s: {ours / memcpy:.0%})" if memcpy else "")


def bench_reduce(args):
    n = 1 << 24 if args.quick else 1 << 28
    for opname in ("sum", "amax"):
        def make(lib, opname=opname):
            a = _randn(lib, n)
            return lambda: getattr(a, opname)()
        t = side_by_side(make, 10, args.repeat)
        gb = 4 * n / 1e9
        line(f"{opname} float32 {n >> 20}M", gb / t["minitorch"],
             gb / t["torch"] if torch else None, "GB/s")


def bench_cast(args):
    n = 1 << 24 if args.quick else 1 << 26
    for src, dst in (("float32", "bfloat16"), ("float32", "float16"), ("bfloat16", "float32"),
                     ("float16", "float32")):
        def make(lib, src=src, dst=dst):
            a = _randn(lib, n, src)
            d = getattr(lib, dst)
            return lambda: a.to(d)
        t = side_by_side(make, 10, args.repeat)
        size = {"float32": 4, "bfloat16": 2, "float16": 2}
        gb = (size[src] + size[dst]) * n / 1e9
        line(f"cast {src}->{dst} {n >> 20}M", gb / t["minitorch"],
             gb / t["torch"] if torch else None, "GB/s")


def bench_matmul(args):
    n = 2048 if args.quick else 4096
    for label, dtype, tf32 in (("float32", "float32", False), ("tf32", "float32", True),
                               ("bfloat16", "bfloat16", False)):
        def make(lib, dtype=dtype, tf32=tf32):
            lib.backends.cuda.matmul.allow_tf32 = tf32
            a = lib.randn(n, n, device="cuda").to(getattr(lib, dtype))
            b = lib.randn(n, n, device="cuda").to(getattr(lib, dtype))

            def run():
                lib.backends.cuda.matmul.allow_tf32 = tf32
                return a @ b
            return run
        t = side_by_side(make, 10, args.repeat)
        tf = 2 * n ** 3 / 1e12
        line(f"matmul {n}^2 {label}", tf / t["minitorch"], tf / t["torch"] if torch else None,
             "TFLOP/s")


def bench_overhead(args):
    def make(lib):
        a, b = lib.ones(1, device="cuda"), lib.ones(1, device="cuda")
        return lambda: a + b
    t = side_by_side(make, 2000, args.repeat)
    line("overhead c = a + b, 1 element", t["minitorch"] * 1e6,
         t["torch"] * 1e6 if torch else None, "us/op", extra="(time ratio: < 1 is faster)")


def bench_train(args):
    import train  # bench/train.py: the same models
    steps = 50 if args.quick else 1000
    for kind in ("mlp", "cnn"):
        out, mallocs = {}, None
        for name, lib in [("minitorch", minitorch)] + ([("torch", torch)] if torch else []):
            lib.manual_seed(0)
            model = train._model(lib, kind).cuda()
            x = lib.randn(128, 1, 28, 28).cuda()
            y = lib.randint(0, 10, (128,)).cuda()
            opt = lib.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
            loss_fn = lib.nn.CrossEntropyLoss()

            def step():
                opt.zero_grad()
                loss_fn(model(x), y).backward()
                opt.step()
            step()
            _sync(lib)
            before = lib.cuda.memory_stats().get("num_device_alloc")
            t0 = time.perf_counter()
            for _ in range(steps):
                step()
            _sync(lib)
            out[name] = steps / (time.perf_counter() - t0)
            if name == "minitorch":
                mallocs = lib.cuda.memory_stats().get("num_device_alloc", 0) - (before or 0)
        line(f"train {kind} steps/s", out["minitorch"], out.get("torch"), "steps/s",
             extra=f"(cudaMalloc calls in {steps} steps after the first: {mallocs})")


CASES = {"add": bench_elementwise, "sum": bench_reduce, "cast": bench_cast,
         "matmul": bench_matmul, "overhead": bench_overhead, "train": bench_train}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true", help="smaller sizes and fewer steps")
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--only", default=",".join(CASES), help="comma-separated cases")
    args = ap.parse_args()
    if minitorch.cuda.device_count() == 0:
        sys.exit("bench/cuda_ops.py: no CUDA device for minitorch")
    if "emulated" in minitorch.cuda.get_device_name(0):
        sys.exit("bench/cuda_ops.py: the emulated device's timings mean nothing")
    if torch is not None and not torch.cuda.is_available():
        print("torch has no CUDA: minitorch's figures only")
        globals()["torch"] = None
    print(f"{minitorch.cuda.get_device_name(0)}; torch "
          f"{torch.__version__ if torch else 'not available'}")
    print(f"{'case':<34} {'minitorch':>10} {'unit':<8} {'torch':>10}   {'ratio':>6}")
    for name in args.only.split(","):
        try:
            CASES[name](args)
        except Exception as e:  # a missing kernel must not hide the other figures
            print(f"{name:<34} failed: {type(e).__name__}: {str(e)[:150]}")


if __name__ == "__main__":
    main()
