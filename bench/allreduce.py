"""all_reduce latency and bus bandwidth of minitorch.distributed, next to Open MPI and torch's gloo.

    python bench/allreduce.py --world-size 2
    python bench/allreduce.py --world-size 4 --max-bytes 16M
    <python with torch> bench/allreduce.py --mpi-python python3   # adds torch's gloo

For each message size (4 B ... 64 MiB, float32 SUM, in place) every rank runs
warm-up iterations, a barrier, then `iters` timed all_reduce calls; the time
reported is the slowest rank's mean (best of ROUNDS loops, and of --repeat runs that
alternate the libraries).  algbw = bytes / time, and as in nccl-tests
busbw = algbw * 2 (n - 1) / n.  Columns, all from the same invocation:
  minitorch       the default transport (shared memory for ranks on one host)
  minitorch tcp   MINITORCH_TRANSPORT=tcp (loopback TCP)
  MPI             Open MPI's default (shared memory, vader) through mpi4py
  minitorch mpi   minitorch's "mpi" backend on the same Open MPI, in the same processes as the
                  MPI column, the two alternating at every size: the difference is minitorch's
                  overhead (the "mpi/MPI" column: its time over mpi4py's; 1.00 = none)
  MPI tcp         Open MPI over loopback TCP (--mca btl tcp,self)
  gloo            torch.distributed's gloo backend, when torch is importable
  any order       with --any-order: "minitorch" (and "minitorch tcp") are then a new_group of
  any order tcp   every rank, and "any order" another in the same processes, made with
                  MINITORCH_REDUCTION_ORDER=any: the
                  order-agnostic algorithms (ring, left fold) instead of the fixed pairwise tree
                  (Note [Fixed reduction order]); the two groups alternate at every size, so
                  noise on the host hits both.  "fixed/any": the default's time over it (1.00:
                  the fixed order costs nothing; < 1: it is faster).  Without --any-order,
                  MINITORCH_REDUCTION_ORDER=any in the environment makes every minitorch
                  column use the order-agnostic algorithms
A library that is not installed shows n/a.  The last column is minitorch's busbw over
Open MPI's (shared memory against shared memory; > 1: minitorch faster).
"""
import argparse
import json
import multiprocessing as mp
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import textwrap
import time

SIZES = [4 << (2 * i) for i in range(13)]  # 4 B, 16 B, ..., 64 MiB
ROUNDS = 3  # each figure is the best of ROUNDS timed loops, for both libraries


def _parse_bytes(s):
    s = s.strip().upper()
    mult = {"K": 1 << 10, "M": 1 << 20, "G": 1 << 30}
    if s and s[-1] in mult:
        return int(float(s[:-1]) * mult[s[-1]])
    return int(s)


def _iters(nbytes, scale):
    # at least 50 calls per timed loop: a mean over a handful of calls is mostly noise
    return max(50, min(1000, int(scale * 1e9 / max(nbytes, 4096) / 10)))


def _free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _rank(lib, transport, rank, ws, port, sizes, scale, q, any_order=False):
    """One rank of minitorch (transport: MINITORCH_TRANSPORT) or of torch's gloo backend; with
    any_order, also of a second group with MINITORCH_REDUCTION_ORDER=any (two lists of
    times)."""
    os.environ["MINITORCH_TRANSPORT"] = transport
    if lib == "torch":
        import torch
        import torch.distributed as dist
    else:
        import minitorch as torch
        import minitorch.distributed as dist

    torch.set_num_threads(1)
    dist.init_process_group("gloo", init_method=f"tcp://127.0.0.1:{port}", rank=rank,
                            world_size=ws)
    groups = [None]
    if any_order:  # the order is chosen when a group is made; both made alike (new_group)
        os.environ.pop("MINITORCH_REDUCTION_ORDER", None)
        groups = [dist.new_group(list(range(ws)))]
        os.environ["MINITORCH_REDUCTION_ORDER"] = "any"
        groups.append(dist.new_group(list(range(ws))))
        del os.environ["MINITORCH_REDUCTION_ORDER"]
    out = [[] for _ in groups]
    for nbytes in sizes:
        n = max(1, nbytes // 4)
        t = torch.ones(n)
        it = _iters(nbytes, scale)
        for g in groups:
            for _ in range(max(2, it // 10)):
                dist.all_reduce(t, group=g)
        dts = [float("inf")] * len(groups)
        for k in range(ROUNDS):  # best of ROUNDS: other processes' noise only adds time
            # the groups take turns going first
            for i, g in (list(enumerate(groups)) if k % 2 == 0 else
                         list(enumerate(groups))[::-1]):
                dist.barrier()
                t0 = time.perf_counter()
                for _ in range(it):
                    dist.all_reduce(t, group=g)
                dts[i] = min(dts[i], (time.perf_counter() - t0) / it)
        for i, dt in enumerate(dts):
            m = torch.tensor([dt], dtype=torch.float64)
            dist.all_reduce(m, op=dist.ReduceOp.MAX)
            out[i].append(m.item())
    dist.destroy_process_group()
    if rank == 0:
        q.put(out if any_order else out[0])


def run_ranks(ws, sizes, scale, lib="minitorch", transport="auto", any_order=False):
    ctx = mp.get_context("spawn")
    q = ctx.Queue()
    port = _free_port()
    procs = [ctx.Process(target=_rank,
                         args=(lib, transport, r, ws, port, sizes, scale, q, any_order))
             for r in range(ws)]
    for p in procs:
        p.start()
    res = q.get(timeout=900)
    for p in procs:
        p.join()
    return res


_MPI_SCRIPT = textwrap.dedent("""
    import json, sys, time
    import numpy as np
    from mpi4py import MPI
    sizes = json.loads(sys.argv[1]); scale = float(sys.argv[2])
    comm = MPI.COMM_WORLD
    ROUNDS = int(sys.argv[3])
    with_mt = sys.argv[4] == "1"
    if with_mt:  # minitorch's mpi backend on the MPI mpi4py initialised
        import minitorch as torch
        import minitorch.distributed as dist
        torch.set_num_threads(1)
        dist.init_process_group("mpi")
    def iters(nbytes):
        return max(50, min(1000, int(scale * 1e9 / max(nbytes, 4096) / 10)))
    out, out_mt = [], []
    for nbytes in sizes:
        buf = np.ones(max(1, nbytes // 4), dtype=np.float32)
        t = torch.ones(max(1, nbytes // 4)) if with_mt else None
        it = iters(nbytes)
        for _ in range(max(2, it // 10)):
            comm.Allreduce(MPI.IN_PLACE, buf, op=MPI.SUM)
            if with_mt:
                dist.all_reduce(t)
        dt = dt_mt = float("inf")
        for _ in range(ROUNDS):  # the two alternate: noise cannot hit only one of them
            comm.Barrier()
            t0 = time.perf_counter()
            for _ in range(it):
                comm.Allreduce(MPI.IN_PLACE, buf, op=MPI.SUM)
            dt = min(dt, (time.perf_counter() - t0) / it)
            if with_mt:
                comm.Barrier()
                t0 = time.perf_counter()
                for _ in range(it):
                    dist.all_reduce(t)
                dt_mt = min(dt_mt, (time.perf_counter() - t0) / it)
        out.append(comm.allreduce(dt, op=MPI.MAX))
        if with_mt:
            out_mt.append(comm.allreduce(dt_mt, op=MPI.MAX))
    if with_mt:
        dist.destroy_process_group()
    if comm.rank == 0:
        print("RESULT " + json.dumps([out, out_mt if with_mt else None]))
""")


def run_mpi(ws, sizes, scale, python, tcp):
    """(mpi4py's times, minitorch mpi's times or None), or (None, why)."""
    mpirun = shutil.which("mpirun")
    if mpirun is None:
        return None, "mpirun not found"
    if subprocess.run([python, "-c", "import mpi4py"], capture_output=True).returncode != 0:
        return None, f"mpi4py not importable by {python}"
    with_mt = not tcp and subprocess.run(
        [python, "-c", "import minitorch.distributed as d; assert d.is_mpi_available()"],
        capture_output=True).returncode == 0
    with tempfile.NamedTemporaryFile("w", suffix=".py", delete=False) as f:
        f.write(_MPI_SCRIPT)
        script = f.name
    cmd = [mpirun, "-np", str(ws), "--oversubscribe"]
    if tcp:
        cmd += ["--mca", "btl", "tcp,self", "--mca", "pml", "ob1", "--mca", "btl_tcp_if_include", "lo"]
    cmd += [python, script, json.dumps(sizes), str(scale), str(ROUNDS), "1" if with_mt else "0"]
    if os.geteuid() == 0:
        cmd.insert(1, "--allow-run-as-root")
    env = dict(os.environ)
    if tcp:
        env["OMPI_MCA_btl_vader_single_copy_mechanism"] = "none"
    return _run_script(cmd, env, script)


def _run_script(cmd, env, script):
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=900, env=env)
    except (OSError, subprocess.TimeoutExpired) as e:
        return None, f"{cmd[0]} failed: {e}"
    finally:
        os.unlink(script)
    for line in p.stdout.splitlines():
        if line.startswith("RESULT "):
            return json.loads(line[7:]), None
    errors = [ln for ln in p.stderr.splitlines() if "Error" in ln]  # a rank's exception first
    why = errors[0] if errors else p.stderr.strip()[-300:]
    return None, f"failed (rc {p.returncode}): {why}"


def _first(result):
    r, w = result
    return (r[0] if r is not None else None), w


def run_gloo(ws, sizes, scale):
    try:
        import torch  # noqa: F401
    except ImportError:
        return None, "torch not installed"
    return run_ranks(ws, sizes, scale, lib="torch"), None


def _fmt_size(b):
    for unit, k in (("MiB", 1 << 20), ("KiB", 1 << 10)):
        if b >= k:
            return f"{b // k} {unit}"
    return f"{b} B"


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--world-size", type=int, default=2)
    ap.add_argument("--min-bytes", default="4")
    ap.add_argument("--max-bytes", default="64M")
    ap.add_argument("--scale", type=float, default=1.0, help="multiplies the iteration counts")
    ap.add_argument("--no-mpi", action="store_true", help="skip the Open MPI columns")
    ap.add_argument("--no-tcp", action="store_true", help="skip the TCP columns")
    ap.add_argument("--mpi-python", default=sys.executable,
                    help="the Python that runs mpi4py (default: this one)")
    ap.add_argument("--any-order", action="store_true",
                    help="add columns for a group with MINITORCH_REDUCTION_ORDER=any in the "
                         "same processes (what the fixed reduction order costs)")
    ap.add_argument("--repeat", type=int, default=2,
                    help="alternate the libraries this many times and keep each one's best "
                         "(a burst of noise on the host then cannot hit only one of them)")
    args = ap.parse_args(argv)
    lo, hi = _parse_bytes(args.min_bytes), _parse_bytes(args.max_bytes)
    sizes = [s for s in SIZES if lo <= s <= hi]
    ws = args.world_size
    if ws < 1 or not sizes:
        ap.error("need --world-size >= 1 and at least one size in range")
    ao = args.any_order
    # with --any-order one run gives two columns: the default group's and the any-order one's
    libs = [("minitorch", lambda: (run_ranks(ws, sizes, args.scale, any_order=ao), None))]
    if ao:
        libs.append(("any order", None))
    if not args.no_tcp:
        libs.append(("minitorch tcp", lambda: (run_ranks(ws, sizes, args.scale, transport="tcp",
                                                         any_order=ao), None)))
        if ao:
            libs.append(("any order tcp", None))
    if not args.no_mpi:
        # one run gives two columns: mpi4py's and minitorch mpi's (None: not available)
        libs.append(("MPI", lambda: run_mpi(ws, sizes, args.scale, args.mpi_python, False)))
        libs.append(("minitorch mpi", None))
        if not args.no_tcp:
            libs.append(("MPI tcp", lambda: _first(run_mpi(ws, sizes, args.scale,
                                                           args.mpi_python, True))))
    libs.append(("gloo", lambda: run_gloo(ws, sizes, args.scale)))
    best, why = {}, {}
    for _ in range(max(1, args.repeat)):
        for name, run in libs:
            if name in why or run is None:
                continue
            r, w = run()
            if r is None:
                why[name] = w
                continue
            results = [(name, r)]
            if name == "MPI":
                r, r_mt = r
                results = [(name, r)]
                if r_mt is None:
                    why["minitorch mpi"] = ("minitorch's mpi backend is not available to "
                                            f"{args.mpi_python}")
                else:
                    results.append(("minitorch mpi", r_mt))
            if ao and name in ("minitorch", "minitorch tcp"):
                results = [(name, r[0]), (name.replace("minitorch", "any order"), r[1])]
            for n_, r_ in results:
                best[n_] = r_ if n_ not in best else [min(a, b) for a, b in zip(best[n_], r_)]
    factor = 2 * (ws - 1) / ws if ws > 1 else 1.0
    print(f"all_reduce float32 SUM, world size {ws}, {os.cpu_count()} CPUs, one host")
    print("time = slowest rank's mean per call in us, best of "
          f"{ROUNDS} loops x {max(1, args.repeat)} alternating runs; busbw = algbw * 2(n-1)/n")
    for name, w in why.items():
        print(f"{name}: n/a ({w})")
    cols = [name for name, _ in libs if name in best]
    hdr = f"{'size':>9} |" + "".join(f" {c:>13}" for c in cols)
    hdr += f" | {'busbw GB/s':>10}"
    if "MPI" in best:
        hdr += f" {'MPI busbw':>10} {'ratio':>7}"
    if "minitorch mpi" in best:
        hdr += f" {'mpi/MPI':>8}"
    orders = [(a, b) for a, b in (("minitorch", "any order"), ("minitorch tcp", "any order tcp"))
              if a in best and b in best]
    for a, _ in orders:
        hdr += f" {'fixed/any' + (' tcp' if 'tcp' in a else ''):>13}"
    print(hdr)
    print("-" * len(hdr))
    for i, nbytes in enumerate(sizes):
        line = f"{_fmt_size(nbytes):>9} |" + "".join(f" {best[c][i] * 1e6:13.1f}" for c in cols)
        bus = nbytes / best["minitorch"][i] / 1e9 * factor
        line += f" | {bus:10.3f}"
        if "MPI" in best:
            busm = nbytes / best["MPI"][i] / 1e9 * factor
            line += f" {busm:10.3f} {best['MPI'][i] / best['minitorch'][i]:6.2f}x"
        if "minitorch mpi" in best:
            line += f" {best['minitorch mpi'][i] / best['MPI'][i]:8.2f}"
        for a, b in orders:
            line += f" {best[a][i] / best[b][i]:13.2f}"
        print(line)
    sys.stdout.flush()


if __name__ == "__main__":
    main()
