"""Convolution, pooling and resampling timings of minitorch next to PyTorch (when importable),
measured in one run.

    PYTHONPATH=python /path/to/python-with-torch bench/conv.py [--threads 2] [--budget 2]
                                                               [--only conv3d,convT2d,...]

The layers of the CNN in bench/train.py, float32, batch 128:
  conv1  Conv2d(1, 32, 3, padding=1) on 128x1x28x28
  pool1  MaxPool2d(2) on 128x32x28x28
  conv2  Conv2d(32, 64, 3, padding=1) on 128x32x14x14
  pool2  MaxPool2d(2) on 128x64x14x14
  stack  conv1-ReLU-pool1-conv2-ReLU-pool2
and the spatial ops beyond them, float32:
  conv3d   Conv3d(16, 32, 3, padding=1) on 8x16x16x24x24
  c3d_s2   Conv3d(32, 64, 3, stride=2, padding=1) on 8x32x16x16x16
  convT2d  ConvTranspose2d(64, 32, 4, stride=2, padding=1) on 32x64x14x14 (a DCGAN layer)
  convT3d  ConvTranspose3d(32, 16, 4, stride=2, padding=1) on 4x32x8x8x8
  mpool3d  MaxPool3d(2) on 8x32x16x24x24
  up_near  interpolate(scale_factor=2, mode='nearest') of 16x32x32x32
  up_bil   interpolate(scale_factor=2, mode='bilinear') of 16x32x32x32
  up_bic   interpolate(scale_factor=2, mode='bicubic') of 16x32x32x32
  down_aa  interpolate(size=(21, 21), mode='bilinear', antialias=True) of 16x32x64x64
each timed forward only ("fwd") and forward + backward ("fwd+bwd": weights and biases require
grad, the input of conv1 does not, as in training; the backward gets a random output gradient).
It prints our time, torch's and the ratio ours/torch (< 1: minitorch is faster).  Both libraries
use --threads intra-op threads (default 2).  They take turns in blocks of calls (about 50 ms each,
repeated for --budget seconds per row) and each keeps its best call, so a busy machine penalises
both alike; torch's OpenMP threads spin for a while after each call, so strict call-by-call
alternation would have each library compete with the other's spinning threads.  On a machine
other processes load, --threads 1 --clock cpu compares CPU time per call instead.
"""
import argparse
import os
import platform
import time

import numpy as np

import minitorch

try:
    from minitorch.nn import functional as MF
    MF.conv2d, MF.max_pool2d  # noqa: B018  (the functional module may not have them yet)
except (ImportError, AttributeError):
    from minitorch.nn import _conv as MF

try:
    import torch
    import torch.nn.functional as TF
except ImportError:
    torch = TF = None


CLOCK = time.perf_counter


def best_of(fns, budget):
    """Best per-call time of each fn, about `budget` seconds in all (blocks of ~50 ms)."""
    best = [float("inf")] * len(fns)
    per_call = []
    for f in fns:
        f()
        t0 = CLOCK()
        f()
        per_call.append(CLOCK() - t0)
    reps = [max(1, int(0.05 / max(t, 1e-9))) for t in per_call]
    deadline = time.perf_counter() + budget
    rounds = 0
    while rounds < 3 or (time.perf_counter() < deadline and rounds < 50):
        for i, f in enumerate(fns):
            f()
            for _ in range(reps[i]):
                t0 = CLOCK()
                f()
                best[i] = min(best[i], CLOCK() - t0)
        rounds += 1
    return best


def fmt(sec):
    return f"{sec * 1e6:8.1f} us" if sec < 1e-3 else f"{sec * 1e3:8.2f} ms"


class Net:
    """The layers of one library over the same data; fwd(name) / fwd_bwd(name) closures."""

    def __init__(self, lib, F, arrays, grads):
        self.lib, self.F = lib, F
        t = {k: lib.from_numpy(v.copy()) for k, v in arrays.items()}
        self.x, self.p1, self.y1, self.y2 = t["x"], t["p1"], t["y1"], t["y2"]
        self.params = [t[k].requires_grad_() for k in ("w1", "b1", "w2", "b2")]
        self.p1g = lib.from_numpy(arrays["p1"].copy()).requires_grad_()
        self.y1g = lib.from_numpy(arrays["y1"].copy()).requires_grad_()
        self.y2g = lib.from_numpy(arrays["y2"].copy()).requires_grad_()
        self.g = {k: lib.from_numpy(v) for k, v in grads.items()}

    def conv1(self):
        w1, b1 = self.params[:2]
        return self.F.conv2d(self.x, w1, b1, padding=1)

    def conv2(self, x=None):
        w2, b2 = self.params[2:]
        return self.F.conv2d(self.p1 if x is None else x, w2, b2, padding=1)

    def stack(self):
        F = self.F
        h = F.max_pool2d(F.relu(self.conv1()), 2)
        return F.max_pool2d(F.relu(self.conv2(h)), 2)

    def _clear(self):
        for p in self.params + [self.p1g, self.y1g, self.y2g]:
            p.grad = None

    def run(self, name, backward):
        lib, F = self.lib, self.F
        ops = {
            "conv1": (self.conv1, "c1"),
            "pool1": (lambda: F.max_pool2d(self.y1g if backward else self.y1, 2), "p1"),
            "conv2": (lambda: self.conv2(self.p1g if backward else None), "c2"),
            "pool2": (lambda: F.max_pool2d(self.y2g if backward else self.y2, 2), "p2"),
            "stack": (self.stack, "s"),
        }
        fn, gname = ops[name]
        if not backward:
            def fwd():
                with lib.no_grad():
                    return fn()
            return fwd

        def fwd_bwd():
            self._clear()
            fn().backward(self.g[gname])
        return fwd_bwd


# name -> (function name in nn.functional, input shape, weight shape or None, keyword arguments)
SPATIAL = {
    "conv3d": ("conv3d", (8, 16, 16, 24, 24), (32, 16, 3, 3, 3), {"padding": 1}),
    "c3d_s2": ("conv3d", (8, 32, 16, 16, 16), (64, 32, 3, 3, 3), {"stride": 2, "padding": 1}),
    "convT2d": ("conv_transpose2d", (32, 64, 14, 14), (64, 32, 4, 4), {"stride": 2, "padding": 1}),
    "convT3d": ("conv_transpose3d", (4, 32, 8, 8, 8), (32, 16, 4, 4, 4),
                {"stride": 2, "padding": 1}),
    "mpool3d": ("max_pool3d", (8, 32, 16, 24, 24), None, {"kernel_size": 2}),
    "up_near": ("interpolate", (16, 32, 32, 32), None, {"scale_factor": 2, "mode": "nearest"}),
    "up_bil": ("interpolate", (16, 32, 32, 32), None, {"scale_factor": 2, "mode": "bilinear"}),
    "up_bic": ("interpolate", (16, 32, 32, 32), None, {"scale_factor": 2, "mode": "bicubic"}),
    "down_aa": ("interpolate", (16, 32, 64, 64), None,
                {"size": (21, 21), "mode": "bilinear", "antialias": True}),
}


class Spatial:
    """One SPATIAL case for one library: fwd (no grad) and fwd+bwd (input and weight require
    grad, a random output gradient) closures over the same data as the other library's."""

    def __init__(self, lib, name, rng_seed=1):
        fname, xshape, wshape, self.kw = SPATIAL[name]
        rng = np.random.default_rng(rng_seed)
        self.lib = lib
        self.fn = getattr(lib.nn.functional, fname)
        self.x = lib.from_numpy(rng.standard_normal(xshape).astype(np.float32))
        self.w = None
        if wshape is not None:
            fan = int(np.prod(wshape[1:]))
            self.w = lib.from_numpy((rng.standard_normal(wshape) / np.sqrt(fan)).astype(np.float32))
        with lib.no_grad():
            out = self.call(self.x, self.w)
        self.g = lib.from_numpy(rng.standard_normal(tuple(out.shape)).astype(np.float32))
        self.xg = self.x.clone().requires_grad_()
        self.wg = self.w.clone().requires_grad_() if self.w is not None else None

    def call(self, x, w):
        return self.fn(x, w, **self.kw) if w is not None else self.fn(x, **self.kw)

    def run(self, backward):
        lib = self.lib
        if not backward:
            def fwd():
                with lib.no_grad():
                    return self.call(self.x, self.w)
            return fwd

        def fwd_bwd():
            self.xg.grad = None
            if self.wg is not None:
                self.wg.grad = None
            self.call(self.xg, self.wg).backward(self.g)
        return fwd_bwd


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--budget", type=float, default=2.0, help="seconds per row")
    ap.add_argument("--only", default="", help="comma-separated rows to run (default: all)")
    ap.add_argument("--clock", choices=("wall", "cpu"), default="wall",
                    help="cpu: the process's CPU time per call, which other processes on a busy "
                         "machine do not inflate (with --threads 1: it sums over threads)")
    args = ap.parse_args()
    global CLOCK
    CLOCK = time.process_time if args.clock == "cpu" else time.perf_counter
    only = set(filter(None, args.only.split(",")))
    minitorch.set_num_threads(args.threads)
    if torch is not None:
        torch.set_num_threads(args.threads)
    info = minitorch._C._blas_info()
    print(f"minitorch {minitorch.__version__} ({minitorch.get_num_threads()} threads, BLAS: "
          f"{info[1] if info else 'none (portable GEMM)'}), torch "
          f"{torch.__version__ + f' ({torch.get_num_threads()} threads)' if torch else 'not installed'}, "
          f"{platform.machine()}, {os.cpu_count()} cores")
    rng = np.random.default_rng(0)
    f32 = np.float32
    arrays = {
        "x": rng.standard_normal((128, 1, 28, 28)).astype(f32),
        "w1": (rng.standard_normal((32, 1, 3, 3)) / 3).astype(f32),
        "b1": rng.standard_normal(32).astype(f32) / 10,
        "w2": (rng.standard_normal((64, 32, 3, 3)) / 17).astype(f32),
        "b2": rng.standard_normal(64).astype(f32) / 10,
        "p1": rng.standard_normal((128, 32, 14, 14)).astype(f32),
        "y1": rng.standard_normal((128, 32, 28, 28)).astype(f32),
        "y2": rng.standard_normal((128, 64, 14, 14)).astype(f32),
    }
    grads = {
        "c1": rng.standard_normal((128, 32, 28, 28)).astype(f32),
        "p1": rng.standard_normal((128, 32, 14, 14)).astype(f32),
        "c2": rng.standard_normal((128, 64, 14, 14)).astype(f32),
        "p2": rng.standard_normal((128, 64, 7, 7)).astype(f32),
        "s": rng.standard_normal((128, 64, 7, 7)).astype(f32),
    }
    ours = Net(minitorch, _with_relu(MF, minitorch), arrays, grads)
    ref = Net(torch, TF, arrays, grads) if torch is not None else None
    if ref is not None:   # same results before timing them
        for name in ("conv1", "conv2", "stack"):
            a = ours.run(name, False)().numpy()
            b = ref.run(name, False)().numpy()
            assert np.allclose(a, b, rtol=1e-3, atol=1e-3), (name, np.abs(a - b).max())
    header = f"{'op':7} {'pass':8} {'minitorch':>11}"
    if ref is not None:
        header += f" {'torch':>11} {'ratio':>6}"
    print(header)
    for name in ("conv1", "pool1", "conv2", "pool2", "stack"):
        if only and name not in only:
            continue
        for backward in (False, True):
            fns = [ours.run(name, backward)]
            if ref is not None:
                fns.append(ref.run(name, backward))
            _report(name, backward, best_of(fns, args.budget), ref is not None)
    for name in SPATIAL:
        if only and name not in only:
            continue
        cases = [Spatial(minitorch, name)] + ([Spatial(torch, name)] if torch is not None else [])
        if len(cases) == 2:   # same results before timing them
            with minitorch.no_grad():
                a = cases[0].run(False)().numpy()
            with torch.no_grad():
                b = cases[1].run(False)().numpy()
            assert np.allclose(a, b, rtol=1e-3, atol=1e-3), (name, np.abs(a - b).max())
        for backward in (False, True):
            _report(name, backward, best_of([c.run(backward) for c in cases], args.budget),
                    len(cases) == 2)


def _report(name, backward, times, with_ref):
    line = f"{name:7} {'fwd+bwd' if backward else 'fwd':8} {fmt(times[0]):>11}"
    if with_ref:
        line += f" {fmt(times[1]):>11} {times[0] / times[1]:6.2f}"
    print(line, flush=True)


def _with_relu(F, lib):
    """The functional module, with relu taken from the library when the module has none."""
    if hasattr(F, "relu"):
        return F

    class _F:
        conv2d = staticmethod(F.conv2d)
        max_pool2d = staticmethod(F.max_pool2d)
        relu = staticmethod(lib.relu)
    return _F


if __name__ == "__main__":
    main()
