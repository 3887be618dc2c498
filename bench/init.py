"""Start-up of a large group: init_process_group and a first all_reduce at 32 and 64 ranks.

    python bench/init.py                                     # 32 and 64 ranks
    python bench/init.py --ranks 16 32 --torch-python /path/to/python   # torch's gloo next to it
    python bench/init.py --transport tcp                     # minitorch's ranks over TCP

Every rank is a process on this machine started at once (env:// on one TCPStore, the ranks'
default transport); the time is from the start signal (every interpreter up and its library
imported) to the last rank's first all_reduce of 4 bytes, so it measures the store rendezvous,
the connections of the group and one collective, not Python's start-up.  torch's gloo runs in
the same invocation where a Python with torch is given, the two alternating (--repeat), best
of each.  Its memory is the sum over the ranks of their peak RSS after the first all_reduce.
"""
import argparse
import os
import socket
import subprocess
import sys
import textwrap
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

RANK = textwrap.dedent("""
    import os, sys, time, datetime
    impl = sys.argv[1]
    if impl == "minitorch":
        sys.path.insert(0, sys.argv[2])
        import minitorch as torch
    else:
        import torch
    import importlib
    dist = importlib.import_module(torch.__name__ + ".distributed")
    print("up", flush=True)
    sys.stdin.readline()
    dist.init_process_group("gloo", timeout=datetime.timedelta(seconds=600))
    t = torch.ones(1)
    dist.all_reduce(t)
    assert t.item() == dist.get_world_size()
    for line in open("/proc/self/status"):
        if line.startswith("VmHWM:"):
            rss = int(line.split()[1]) // 1024
    print("done", time.time(), rss, flush=True)
    dist.barrier()
    dist.destroy_process_group()
""")


def _free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _one(impl, python, n, transport=None):
    """(seconds from go to the last rank's first all_reduce, total peak RSS MiB)."""
    port = _free_port()
    procs = []
    for r in range(n):
        env = dict(os.environ, MASTER_ADDR="127.0.0.1", MASTER_PORT=str(port), RANK=str(r),
                   WORLD_SIZE=str(n), LOCAL_RANK=str(r), OMP_NUM_THREADS="1")
        if impl == "minitorch" and transport is not None:
            env["MINITORCH_TRANSPORT"] = transport
        procs.append(subprocess.Popen([python, "-c", RANK, impl, os.path.join(ROOT, "python")],
                                      env=env, text=True, stdin=subprocess.PIPE,
                                      stdout=subprocess.PIPE))
    for p in procs:
        if p.stdout.readline().strip() != "up":
            raise RuntimeError(f"{impl}: a rank failed to start")
    t0 = time.time()
    for p in procs:
        p.stdin.write("go\n")
        p.stdin.flush()
    last, rss = 0.0, 0
    for p in procs:
        word, t, m = p.stdout.readline().split()
        assert word == "done", word
        last, rss = max(last, float(t)), rss + int(m)
    for p in procs:
        p.stdin.close()
        if p.wait(300) != 0:
            raise RuntimeError(f"{impl}: a rank exited with {p.returncode}")
    return last - t0, rss


def _has_torch(python):
    return subprocess.run([python, "-c", "import torch.distributed"],
                          capture_output=True).returncode == 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--ranks", type=int, nargs="+", default=[32, 64])
    ap.add_argument("--repeat", type=int, default=2)
    ap.add_argument("--torch-python", default=sys.executable)
    ap.add_argument("--torch-max-ranks", type=int, default=32,
                    help="the largest group torch runs in (its ranks' memory)")
    ap.add_argument("--transport", choices=["auto", "shm", "tcp"], default=None,
                    help="minitorch's transport (MINITORCH_TRANSPORT; default: its choice, "
                         "shared memory on one host)")
    args = ap.parse_args()
    torch_ok = _has_torch(args.torch_python)
    if not torch_ok:
        print(f"torch is not importable by {args.torch_python}: minitorch only")
    print(f"{'ranks':>5} {'library':<10} {'init+all_reduce s':>18} {'peak RSS MiB (sum)':>19}")
    summary = []
    for n in args.ranks:
        best = {}
        for _ in range(args.repeat):
            runs = [("minitorch", sys.executable)]
            if torch_ok and n <= args.torch_max_ranks:
                runs.append(("torch", args.torch_python))
            for impl, python in runs:
                dt, rss = _one(impl, python, n, args.transport)
                if impl not in best or dt < best[impl][0]:
                    best[impl] = (dt, rss)
        for impl, (dt, rss) in best.items():
            print(f"{n:>5} {impl:<10} {dt:>18.3f} {rss:>19}", flush=True)
        if "torch" in best:
            summary.append(f"{n} ranks {best['minitorch'][0] / best['torch'][0]:.2f}x torch's time")
        else:
            summary.append(f"{n} ranks {best['minitorch'][0]:.2f} s")
    print("minitorch init + first all_reduce: " + ", ".join(summary))


if __name__ == "__main__":
    main()
