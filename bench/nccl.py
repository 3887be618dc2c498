"""all_reduce latency and bus bandwidth of minitorch's NCCL backend next to torch's, on the same
GPUs in the same run, alternating.

    python bench/nccl.py                      # one rank per GPU
    python bench/nccl.py --world-size 1 --max-bytes 64M

Needs NVIDIA GPUs, minitorch built with CUDA and NCCL's header (MINITORCH_CUDA=ON), and NCCL's
library; it refuses to run without them, and on the emulated device (whose timings mean
nothing).  torch with CUDA adds its column (the same NCCL calls: the difference is each
library's own per-call work).  For each message size (4 B ... 1 GiB, float32 SUM, in place) every
rank runs warm-up calls, a barrier, then `iters` all_reduce calls followed by one device
synchronisation; the time reported is the slowest rank's mean, the best of --repeat runs that
alternate the libraries.  algbw = bytes / time, busbw = algbw * 2 (n - 1) / n as in nccl-tests
(at one rank busbw is 0: algbw is shown instead).  Goals: within 5% of torch at >= 1 MiB, less
time than torch at 4 B.
"""
import argparse
import multiprocessing as mp
import os
import socket
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.append(os.path.join(os.path.dirname(HERE), "python"))  # after PYTHONPATH

SIZES = [4 << (2 * i) for i in range(15)]  # 4 B, 16 B, ..., 1 GiB


def _iters(nbytes):
    return max(5, min(1000, int(4e9 / max(nbytes, 1 << 16))))


def _free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _rank(lib, rank, ws, port, sizes, q):
    if lib == "torch":
        import torch
        import torch.distributed as dist
    else:
        import minitorch as torch
        import minitorch.distributed as dist
    torch.cuda.set_device(rank)
    dev = torch.device("cuda", rank)
    dist.init_process_group("nccl", init_method=f"tcp://127.0.0.1:{port}", rank=rank,
                            world_size=ws)
    out = []
    for nbytes in sizes:
        t = torch.ones(max(1, nbytes // 4), device=dev)
        it = _iters(nbytes)
        for _ in range(max(2, it // 10)):
            dist.all_reduce(t)
        torch.cuda.synchronize()
        dist.barrier()
        t0 = time.perf_counter()
        for _ in range(it):
            dist.all_reduce(t)
        torch.cuda.synchronize()
        dt = (time.perf_counter() - t0) / it
        m = torch.tensor([dt], dtype=torch.float64, device=dev)
        dist.all_reduce(m, op=dist.ReduceOp.MAX)
        out.append(m.item())
        del t
    dist.destroy_process_group()
    if rank == 0:
        q.put(out)


def run(lib, ws, sizes):
    ctx = mp.get_context("spawn")
    q = ctx.Queue()
    port = _free_port()
    procs = [ctx.Process(target=_rank, args=(lib, r, ws, port, sizes, q)) for r in range(ws)]
    for p in procs:
        p.start()
    try:
        return q.get(timeout=600)
    finally:
        for p in procs:
            p.join(30)
            if p.is_alive():
                p.kill()


def _fmt_size(b):
    for unit, k in (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if b >= k:
            return f"{b // k} {unit}"
    return f"{b} B"


def _refusal():
    """Why this machine cannot run the benchmark, or None."""
    import minitorch
    if minitorch.cuda.device_count() == 0:
        return "needs an NVIDIA GPU and minitorch built with CUDA (MINITORCH_CUDA=ON)"
    if "emulated" in minitorch.cuda.get_device_name(0):
        return "the emulated device's timings mean nothing"
    why = minitorch.cuda.nccl._unavailable_reason()
    if why is not None:
        return f"NCCL is not available: {why}"
    return None


def _torch_cuda():
    try:
        import torch
    except ImportError:
        return "torch is not installed"
    if not torch.cuda.is_available() or not torch.distributed.is_nccl_available():
        return "torch has no CUDA or no NCCL"
    return None


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--world-size", type=int, default=0, help="ranks (default: one per GPU)")
    ap.add_argument("--max-bytes", type=int, default=1 << 30)
    ap.add_argument("--repeat", type=int, default=2)
    args = ap.parse_args(argv)
    why = _refusal()
    if why is not None:
        sys.exit(f"bench/nccl.py: {why}")
    import minitorch
    ws = args.world_size or minitorch.cuda.device_count()
    if ws > minitorch.cuda.device_count():
        sys.exit(f"bench/nccl.py: {ws} ranks need {ws} GPUs (NCCL takes one rank per GPU)")
    sizes = [s for s in SIZES if s <= args.max_bytes]
    no_torch = _torch_cuda()
    best = {"minitorch": [float("inf")] * len(sizes), "torch": [float("inf")] * len(sizes)}
    for _ in range(args.repeat):
        for lib in ("minitorch", "torch"):
            if lib == "torch" and no_torch:
                continue
            res = run(lib, ws, sizes)
            best[lib] = [min(a, b) for a, b in zip(best[lib], res)]
    factor = 2 * (ws - 1) / ws if ws > 1 else 1.0
    bw = "busbw" if ws > 1 else "algbw"
    print(f"{minitorch.cuda.get_device_name(0)}, {ws} rank(s), NCCL "
          f"{'.'.join(map(str, minitorch.cuda.nccl.version()))}"
          + (f"; torch: {no_torch}" if no_torch else ""))
    print(f"{'size':>8} {'minitorch us':>13} {bw + ' GB/s':>11} {'torch us':>10} "
          f"{bw + ' GB/s':>11} {'time ratio':>10}")
    for i, s in enumerate(sizes):
        m = best["minitorch"][i]
        t = best["torch"][i]
        has_t = t != float("inf")
        print(f"{_fmt_size(s):>8} {m * 1e6:13.1f} {s / m * factor / 1e9:11.2f} "
              + (f"{t * 1e6:10.1f} {s / t * factor / 1e9:11.2f} {m / t:10.2f}" if has_t else
                 f"{'n/a':>10} {'n/a':>11} {'n/a':>10}"))
    print("time ratio: minitorch / torch (< 1: minitorch faster)")


if __name__ == "__main__":
    main()
