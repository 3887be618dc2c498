"""minitorch's DataLoader next to torch's (when torch is installed), measured in one run,
alternating the libraries.

    python bench/dataloader.py [--batches N] [--rounds R] [--list-mb MB] [--skip-rss]
                               [--only throughput|overhead|rss|resume|threads|startup ...]
                               [--startup-mb MB] [--startup-workers N]
                               [--startup-context spawn|forkserver]

(a) 3x224x224 uint8 samples (each __getitem__ returns a fresh tensor), batch 64, num_workers
    0/1/2: batches/s, MB/s, time to the first batch (best of the rounds);
(b) a dataset whose __getitem__ burns ~1 ms of CPU: the loader's overhead beyond the dataset's
    own time (ideal: n_samples x 1 ms / max(1, num_workers));
(c) 4 workers reading a list of dicts (--list-mb of Python objects) in shuffled order: the
    workers' private memory (Private_Clean + Private_Dirty of /proc/PID/smaps_rollup, summed,
    peak over the epoch) for torch with the list, minitorch with the list, and minitorch with
    the list in a SharedList.
(d) resuming mid-epoch: a shuffled 10**7-sample epoch, batch 64, saved at sample 10**6:
    time of state_dict(), and of load_state_dict() + iter() + the first batch of a new loader
    (minitorch computes the sampler's position; torchdata's StatefulDataLoader, when
    installed, replays its sampler), num_workers 0 and 2; next to it the first batch of a
    fresh loader (worker start-up included, as in the resume);
(e) thread workers: a dataset whose per-sample work (~1 ms) is a GIL-releasing transform,
    batch 32, 2 workers: minitorch's thread and process workers and torch's process workers,
    alternating: batches/s and time to the first batch;
(f) start-up under spawn (or --startup-context forkserver): --startup-workers (16) workers over
    a dataset object whose pickle is --startup-mb (100) MB (a list of strings): time to the
    first batch, minitorch (one process started through the context unpickles the dataset once
    and forks the workers) and torch (one pickle per worker); each run in a fresh interpreter
    whose main module imports only the library it measures.
Ratios are minitorch / torch for times (< 1: minitorch faster) and torch / minitorch for
throughput (> 1: minitorch faster).
"""
import argparse
import gc
import os
import platform
import time

import minitorch
import minitorch.utils.data as mdata

try:
    import torch
    import torch.utils.data as tdata
except ImportError:
    torch = tdata = None
try:
    from torchdata.stateful_dataloader import StatefulDataLoader as TorchdataLoader
except ImportError:
    TorchdataLoader = None

SHAPE = (3, 224, 224)
BATCH = 64
MB = SHAPE[0] * SHAPE[1] * SHAPE[2] * BATCH / 1e6


def image_dataset(lib, base):
    class Images(base):
        def __len__(self):
            return 1 << 30

        def __getitem__(self, i):
            return lib.full(SHAPE, i % 256, dtype=lib.uint8)
    return Images()


def busy_dataset(lib, base, n, ms):
    class Busy(base):
        def __len__(self):
            return n

        def __getitem__(self, i):
            end = time.thread_time() + ms / 1e3
            while time.thread_time() < end:
                pass
            return lib.tensor([i])
    return Busy()


def run_loader(loader_cls, dataset, workers, batches, **kw):
    """(first batch s, batches/s after it) over `batches` batches."""
    kwargs = dict(batch_size=BATCH, num_workers=workers)
    kwargs.update(kw)
    if workers:
        kwargs["prefetch_factor"] = 2
    loader = loader_cls(dataset, **kwargs)
    t0 = time.perf_counter()
    it = iter(loader)
    next(it)
    first = time.perf_counter() - t0
    t1 = time.perf_counter()
    for _ in range(batches):
        next(it)
    rate = batches / (time.perf_counter() - t1)
    del it
    gc.collect()
    return first, rate


def bench_throughput(args):
    print(f"(a) {SHAPE} uint8 samples, batch {BATCH} ({MB:.1f} MB), {args.batches} batches, best of {args.rounds}")
    head = f"{'workers':>7} {'minitorch b/s':>14} {'MB/s':>7} {'first ms':>9}"
    if torch is not None:
        head += f" {'torch b/s':>10} {'MB/s':>7} {'first ms':>9} {'speed-up':>8}"
    print(head)
    for workers in (0, 1, 2):
        best = {"mt": (1e9, 0.0), "torch": (1e9, 0.0)}
        for _ in range(args.rounds):
            libs = [("mt", mdata.DataLoader, image_dataset(minitorch, mdata.Dataset))]
            if torch is not None:
                libs.append(("torch", tdata.DataLoader, image_dataset(torch, tdata.Dataset)))
            for name, cls, ds in libs:
                first, rate = run_loader(cls, ds, workers, args.batches)
                f0, r0 = best[name]
                best[name] = (min(f0, first), max(r0, rate))
        (f_m, r_m), (f_t, r_t) = best["mt"], best["torch"]
        line = f"{workers:>7} {r_m:>14.1f} {r_m * MB:>7.0f} {f_m * 1e3:>9.1f}"
        if torch is not None:
            line += f" {r_t:>10.1f} {r_t * MB:>7.0f} {f_t * 1e3:>9.1f} {r_m / r_t:>7.2f}x"
        print(line)


def bench_overhead(args):
    n, ms = 64 * 20, 1.0
    print(f"(b) {n} samples of {ms} ms CPU each, batch {BATCH}: time beyond n x {ms} ms / max(1, workers)")
    head = f"{'workers':>7} {'minitorch':>10}"
    if torch is not None:
        head += f" {'torch':>10}"
    print(head)
    for workers in (0, 1, 2):
        ideal = n * ms / 1e3 / max(1, workers)
        res = {}
        libs = [("mt", mdata.DataLoader, minitorch, mdata.Dataset)]
        if torch is not None:
            libs.append(("torch", tdata.DataLoader, torch, tdata.Dataset))
        for _ in range(args.rounds):
            for name, cls, lib, base in libs:
                loader = cls(busy_dataset(lib, base, n, ms), batch_size=BATCH, num_workers=workers)
                t0 = time.perf_counter()
                for _ in loader:
                    pass
                el = time.perf_counter() - t0
                res[name] = min(res.get(name, 1e9), el)
        line = f"{workers:>7} {100 * (res['mt'] / ideal - 1):>9.1f}%"
        if torch is not None:
            line += f" {100 * (res['torch'] / ideal - 1):>9.1f}%"
        print(line)


def private_kb(pid):
    total = 0
    try:
        with open(f"/proc/{pid}/smaps_rollup") as f:
            for line in f:
                if line.startswith(("Private_Clean:", "Private_Dirty:")):
                    total += int(line.split()[1])
    except OSError:
        pass
    return total


def records(mb):
    n = int(mb * 1e6 / 400)                     # ~400 bytes of Python objects per record
    return [{"id": i, "path": f"/data/images/{i:09d}.jpg", "label": i % 1000,
             "box": [i % 7, i % 11, i % 13, i % 17]} for i in range(n)]


class ListDataset:
    def __init__(self, items):
        self.items = items

    def __len__(self):
        return len(self.items)

    def __getitem__(self, i):
        r = self.items[i]
        return r["label"]


def peak_private_mb(loader):
    it = iter(loader)
    pids = [p.pid for p in it._workers]
    peak = 0
    for k, _ in enumerate(it):
        if k % 50 == 0:
            peak = max(peak, sum(private_kb(p) for p in pids))
    peak = max(peak, sum(private_kb(p) for p in pids))
    del it
    gc.collect()
    return peak / 1024


def bench_rss(args):
    print(f"(c) 4 workers, shuffled, over a list of dicts of ~{args.list_mb} MB: workers' private memory, peak")
    items = records(args.list_mb)
    shared = mdata.SharedList(items)
    rows = []
    kw = dict(batch_size=256, num_workers=4, shuffle=True)
    if torch is not None:
        rows.append(("torch, list", lambda: tdata.DataLoader(
            type("L", (ListDataset, tdata.Dataset), {})(items), **kw)))
    rows.append(("minitorch, list", lambda: mdata.DataLoader(
        type("L", (ListDataset, mdata.Dataset), {})(items), **kw)))
    rows.append(("minitorch, SharedList", lambda: mdata.DataLoader(
        type("L", (ListDataset, mdata.Dataset), {})(shared), **kw)))
    for name, make in rows:
        print(f"  {name:<24} {peak_private_mb(make()):8.0f} MB")


class IndexDataset:
    def __init__(self, n):
        self.n = n

    def __len__(self):
        return self.n

    def __getitem__(self, i):
        return i


def bench_resume(args):
    n, pos, bs = 10 ** 7, 10 ** 6, 64
    print(f"(d) resume a shuffled epoch of {n} samples at sample {pos} (batch {bs}): "
          f"state_dict() and load_state_dict() + iter() + first batch, best of {args.rounds}")
    rows = [("minitorch", lambda **kw: mdata.DataLoader(IndexDataset(n), **kw))]
    if TorchdataLoader is not None:
        rows.append(("torchdata", lambda **kw: TorchdataLoader(IndexDataset(n), **kw)))
    else:
        print("  (torchdata is not installed: minitorch only)")
    print(f"{'':>10} {'workers':>7} {'state_dict ms':>14} {'resume ms':>10} {'fresh start ms':>15}")
    for workers in (0, 2):
        for name, make in rows:
            best_sd = best_res = best_fresh = 1e9
            for _ in range(args.rounds):
                fresh = make(batch_size=bs, shuffle=True, num_workers=workers)
                t0 = time.perf_counter()
                it = iter(fresh)
                next(it)
                best_fresh = min(best_fresh, time.perf_counter() - t0)
                del it, fresh
                loader = make(batch_size=bs, shuffle=True, num_workers=workers)
                it = iter(loader)
                for _ in range(pos // bs):
                    next(it)
                t0 = time.perf_counter()
                state = loader.state_dict()
                best_sd = min(best_sd, time.perf_counter() - t0)
                del it, loader
                gc.collect()
                fresh = make(batch_size=bs, shuffle=True, num_workers=workers)
                t0 = time.perf_counter()
                fresh.load_state_dict(state)
                it = iter(fresh)
                next(it)
                best_res = min(best_res, time.perf_counter() - t0)
                del it, fresh
                gc.collect()
            print(f"{name:>10} {workers:>7} {best_sd * 1e3:>14.2f} {best_res * 1e3:>10.1f} "
                  f"{best_fresh * 1e3:>15.1f}")


class Transform:
    """~1 ms of GIL-releasing NumPy work per sample (ufuncs over a float32 image, which release
    the GIL), returning the image subsampled by `step` (3x64x64 float32 by default; step 1: the
    whole 3x256x256) as a tensor of `lib`."""

    def __init__(self, lib, n, reps, step=4):
        import numpy as np
        self.np = np
        self.lib, self.n, self.reps, self.step = lib, n, reps, step
        self.base = np.linspace(0.0, 1.0, 3 * 256 * 256, dtype=np.float32).reshape(3, 256, 256)

    def __len__(self):
        return self.n

    def __getitem__(self, i):
        np = self.np
        x = self.base + np.float32(i % 7)
        for _ in range(self.reps):
            np.sqrt(x, out=x)
            np.multiply(x, np.float32(1.5), out=x)
        return self.lib.from_numpy(np.ascontiguousarray(x[:, ::self.step, ::self.step]))


class Trivial:
    def __init__(self, lib):
        self.lib = lib

    def __len__(self):
        return 1 << 20

    def __getitem__(self, i):
        return self.lib.full((3, 64, 64), float(i % 7))


def calibrate_reps(target_s=1e-3):
    """Rounds of the transform that take ~target_s, and the time they take (best of 5)."""
    def per_sample(reps):
        t = Transform(minitorch, 1, reps)
        best = 1e9
        for _ in range(5):
            t0 = time.perf_counter()
            for i in range(10):
                t[i]
            best = min(best, (time.perf_counter() - t0) / 10)
        return best
    reps = max(1, round(4 * target_s / per_sample(4)))
    return reps, per_sample(reps)


def bench_threads(args):
    bs, workers, nb = 32, 2, args.batches // 4 or 10
    reps, per = calibrate_reps()
    print(f"(e) {workers} workers, batch {bs}, a GIL-releasing NumPy transform of {per * 1e3:.2f} ms per "
          f"sample ({reps} rounds of sqrt/multiply over 3x256x256 float32), {nb} batches, best of "
          f"{args.rounds}, alternating: batches/s (ideal {workers / (bs * per):.1f}), first batch ms "
          "(its own work is one batch's), start ms (first batch of trivial samples)")
    rows = [("minitorch thread", mdata.DataLoader, minitorch, {"worker_mode": "thread"}),
            ("minitorch process", mdata.DataLoader, minitorch, {})]
    if torch is not None:
        rows.append(("torch process", tdata.DataLoader, torch, {}))
    # the transform's output subsampled to 3x64x64 (48 KiB), and whole (3x256x256, 768 KiB: a
    # 24 MiB batch that process workers must hand over through shared memory)
    for step in (4, 1):
        best = {name: [0.0, 1e9, 1e9] for name, *_ in rows}
        for _ in range(args.rounds):
            for name, cls, lib, kw in rows:
                first, rate = run_loader(cls, Transform(lib, (nb + 2) * bs, reps, step), workers,
                                         nb, batch_size=bs, **kw)
                start = min(run_loader(cls, Trivial(lib), workers, 1, batch_size=bs, **kw)[0]
                            for _ in range(3))
                b = best[name]
                best[name] = [max(b[0], rate), min(b[1], first), min(b[2], start)]
        side = 256 // step
        print(f"{'samples 3x%dx%d' % (side, side):>18} {'batches/s':>10} {'first ms':>9} "
              f"{'start ms':>9}")
        for name, (rate, first, start) in best.items():
            print(f"{name:>18} {rate:>10.1f} {first * 1e3:>9.1f} {start * 1e3:>9.1f}")


# (f) runs in a fresh interpreter per measurement: its main module imports only the library
# measured, as a user's script does (spawned workers import the main module again, so a bench
# module that imported both libraries would make every worker of either import both)
STARTUP_SCRIPT = """
import sys
import time

LIB, MB, WORKERS, METHOD = sys.argv[1], float(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
if LIB == "minitorch":
    import minitorch.utils.data as data
else:
    import torch.utils.data as data


class BigObject:
    # a dataset whose pickle is about MB megabytes: a list of 100-byte strings
    def __init__(self, mb):
        self.rows = [f"{i:0100d}" for i in range(int(mb * 1e6 / 100))]

    def __len__(self):
        return len(self.rows)

    def __getitem__(self, i):
        return len(self.rows[i])


if __name__ == "__main__":
    import warnings
    warnings.filterwarnings("ignore")
    ds = BigObject(MB)
    loader = data.DataLoader(ds, batch_size=8, num_workers=WORKERS, multiprocessing_context=METHOD)
    t0 = time.perf_counter()
    it = iter(loader)
    next(it)
    print(time.perf_counter() - t0, flush=True)
    del it
"""


def bench_startup(args):
    import importlib.util
    import subprocess
    import sys
    import tempfile
    w, method = args.startup_workers, args.startup_context
    print(f"(f) {method}, {w} workers, a dataset whose pickle is {args.startup_mb} MB: first batch s "
          f"(best of {args.rounds}, alternating; each in a fresh interpreter that imports only "
          f"its library)")
    libs = ["minitorch"]
    if importlib.util.find_spec("torch") is not None:
        libs.append("torch")
    best = {}
    with tempfile.TemporaryDirectory() as tmp:
        script = os.path.join(tmp, "startup_bench.py")
        with open(script, "w") as f:
            f.write(STARTUP_SCRIPT)
        for _ in range(args.rounds):
            for lib in libs:
                out = subprocess.run([sys.executable, script, lib, str(args.startup_mb), str(w),
                                      method], capture_output=True, text=True, timeout=600)
                if out.returncode != 0:
                    raise RuntimeError(f"{lib} start-up run failed:\n{out.stderr}")
                t = float(out.stdout.split()[0])
                best[lib] = min(best.get(lib, 1e9), t)
    for lib, t in best.items():
        print(f"  {lib:<10} {t:8.2f} s")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--batches", type=int, default=200)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--list-mb", type=int, default=1000)
    ap.add_argument("--skip-rss", action="store_true")
    ap.add_argument("--only", action="append",
                    choices=["throughput", "overhead", "rss", "resume", "threads", "startup"])
    ap.add_argument("--startup-mb", type=int, default=100)
    ap.add_argument("--startup-workers", type=int, default=16)
    ap.add_argument("--startup-context", default="spawn", choices=["spawn", "forkserver"])
    args = ap.parse_args()
    print(f"minitorch {minitorch.__version__}, torch {torch.__version__ if torch else 'not installed'}, "
          f"{platform.machine()}, {os.cpu_count()} cores")
    modes = args.only or ["throughput", "overhead", "rss", "resume", "threads", "startup"]
    if args.skip_rss and "rss" in modes:
        modes.remove("rss")
    for mode in modes:
        globals()["bench_" + mode](args)


if __name__ == "__main__":
    main()
