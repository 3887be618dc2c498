"""TCPStore under thousands of clients: minitorch's server next to torch's (libuv) in one run.

    python bench/store.py                                   # 4096 clients: 8 processes x 512
    python bench/store.py --clients 1024 --procs 4 --repeat 3
    python bench/store.py --torch-python /path/to/python    # a Python that has torch

The rendezvous pattern of a large job, on one store: every client connects, sets its key, waits
until every client's key is there (`wait`) and reads them all with one `multi_get`.  Clients are
spread over --procs processes (a thread per --threads share of each process's clients, every
connection open before the start); the time runs from the start signal to the last client's
`multi_get`.  The server runs in a process of its own: its resident memory is reported once
the store is up (`RSS idle`, the interpreter and the library included) and at its peak during
the run (VmHWM).  The libraries alternate, --repeat times; each figure is the best run.  The
last line reads `minitorch/torch time T, server peak RSS M MiB (torch N MiB)`.
"""
import argparse
import os
import select
import socket
import subprocess
import sys
import textwrap
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

SERVER = textwrap.dedent("""
    import sys, datetime
    impl, port = sys.argv[1], int(sys.argv[2])
    if impl == "minitorch":
        sys.path.insert(0, sys.argv[3])
        import minitorch.distributed as dist
        kw = {}
    else:
        import torch.distributed as dist
        kw = {"use_libuv": True}
    store = dist.TCPStore("127.0.0.1", port, None, True, datetime.timedelta(seconds=600),
                          wait_for_workers=False, **kw)

    def mem(field):
        for line in open("/proc/self/status"):
            if line.startswith(field):
                return int(line.split()[1]) // 1024
    print("ready", mem("VmRSS:"), flush=True)
    sys.stdin.readline()                        # the run is over
    print("peak", mem("VmHWM:"), flush=True)
""")

CLIENT = textwrap.dedent("""
    import sys, threading, datetime
    impl, port, first, count, total, nthreads = sys.argv[1], *map(int, sys.argv[2:7])
    if impl == "minitorch":
        sys.path.insert(0, sys.argv[7])
        import minitorch.distributed as dist
        kw = {}
    else:
        import torch.distributed as dist
        kw = {"use_libuv": True}
    t = datetime.timedelta(seconds=600)
    stores = [dist.TCPStore("127.0.0.1", port, None, False, t, **kw) for _ in range(count)]
    keys = [f"rank/{r}" for r in range(total)]
    print("connected", flush=True)
    sys.stdin.readline()                        # go
    errors = []

    def work(mine):
        try:
            for i in mine:
                stores[i].set(keys[first + i], f"10.0.{(first + i) // 256}.{(first + i) % 256}:29500")
            for i in mine:
                stores[i].wait(keys)
                vals = stores[i].multi_get(keys)
                assert len(vals) == total
        except Exception as e:
            errors.append(repr(e))
    shares = [list(range(k, count, nthreads)) for k in range(nthreads)]
    threads = [threading.Thread(target=work, args=(s,)) for s in shares if s]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    print("done" if not errors else "error " + errors[0], flush=True)
""")


def _free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class _TimedOut(Exception):
    pass


def _readline(p, deadline):
    """The next line of p's output, or _TimedOut once `deadline` (time.monotonic) passed."""
    left = deadline - time.monotonic()
    if left <= 0 or not select.select([p.stdout], [], [], left)[0]:
        raise _TimedOut
    return p.stdout.readline().strip()


def _one(impl, python, args):
    """(seconds, idle RSS MiB, peak RSS MiB) of one run of `impl`; None when it did not finish
    within --deadline seconds (its processes are killed)."""
    procs = []
    try:
        return _run(impl, python, args, procs, time.monotonic() + args.deadline)
    except _TimedOut:
        return None
    finally:
        for q in procs:
            if q.poll() is None:
                q.kill()
                q.wait()


def _run(impl, python, args, procs, deadline):
    port = _free_port()
    extra = [os.path.join(ROOT, "python")] if impl == "minitorch" else []
    server = subprocess.Popen([python, "-c", SERVER, impl, str(port)] + extra, text=True,
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    procs.append(server)
    word, idle = _readline(server, deadline).split()
    assert word == "ready", word
    per = [args.clients // args.procs + (1 if p < args.clients % args.procs else 0)
           for p in range(args.procs)]
    clients, first = [], 0
    for n in per:
        clients.append(subprocess.Popen(
            [python, "-c", CLIENT, impl, str(port), str(first), str(n), str(args.clients),
             str(args.threads)] + extra, text=True, stdin=subprocess.PIPE,
            stdout=subprocess.PIPE))
        procs.append(clients[-1])
        first += n
    for c in clients:
        line = _readline(c, deadline)
        if line != "connected":
            raise RuntimeError(f"{impl}: a client process failed to connect: {line!r}")
    t0 = time.perf_counter()
    for c in clients:
        c.stdin.write("go\n")
        c.stdin.flush()
    for c in clients:
        line = _readline(c, deadline)
        if line != "done":
            raise RuntimeError(f"{impl}: {line}")
    dt = time.perf_counter() - t0
    for c in clients:
        c.stdin.close()
        c.wait(60)
    server.stdin.write("stop\n")
    server.stdin.flush()
    word, peak = _readline(server, deadline).split()
    server.stdin.close()
    server.wait(60)
    return dt, int(idle), int(peak)


def _has_torch(python):
    return subprocess.run([python, "-c", "import torch.distributed"], capture_output=True).returncode == 0


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--clients", type=int, default=4096)
    p.add_argument("--procs", type=int, default=8)
    p.add_argument("--threads", type=int, default=8, help="threads per client process")
    p.add_argument("--repeat", type=int, default=2)
    p.add_argument("--deadline", type=float, default=600,
                   help="seconds one run may take (connections included)")
    p.add_argument("--torch-python", default=sys.executable,
                   help="the Python whose torch is the reference (default: this one)")
    args = p.parse_args()
    impls = [("minitorch", sys.executable)]
    if _has_torch(args.torch_python):
        impls.append(("torch", args.torch_python))
    else:
        print(f"torch is not importable by {args.torch_python}: minitorch only")
    best = {}
    print(f"{args.clients} clients in {args.procs} processes x {args.threads} threads: "
          "set, wait for all, multi_get all")
    print(f"{'store':<10} {'run':>3} {'time s':>8} {'RSS idle MiB':>13} {'RSS peak MiB':>13}")
    for r in range(args.repeat):
        for impl, python in impls:
            got = _one(impl, python, args)
            if got is None:
                print(f"{impl:<10} {r:>3} did not finish within {args.deadline:.0f} s", flush=True)
                continue
            dt, idle, peak = got
            print(f"{impl:<10} {r:>3} {dt:>8.2f} {idle:>13} {peak:>13}", flush=True)
            b = best.get(impl)
            best[impl] = (min(dt, b[0]) if b else dt, idle, max(peak, b[2]) if b else peak)
    mt = best.get("minitorch")
    if mt is None:
        print("minitorch did not finish")
    elif "torch" in best:
        tt = best["torch"]
        print(f"minitorch/torch time {mt[0] / tt[0]:.2f}, server peak RSS {mt[2]} MiB "
              f"(torch {tt[2]} MiB)")
    else:
        print(f"minitorch time {mt[0]:.2f} s, server peak RSS {mt[2]} MiB (torch n/a)")


if __name__ == "__main__":
    main()
