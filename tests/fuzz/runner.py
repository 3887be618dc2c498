"""The fuzz runner: a pool of worker processes (worker.py) executing cases (seed, index).

A worker reports each case as it finishes, so when it dies (a signal such as SIGSEGV or
SIGABRT, or a sanitizer report) or stops answering (a case ran past the per-case timeout), the
case it was running is known exactly; it is recorded as a failure with its reproducer and a
fresh worker goes on with the next case.  A Python exception of any type is a pass (bad input
must raise), except SystemError (a C function that broke the error protocol)."""
import collections
import os
import select
import signal
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

Failure = collections.namedtuple("Failure", "seed index kind target detail")


class Worker:
    def __init__(self, cwd):
        import minitorch
        pkg_root = os.path.dirname(os.path.dirname(os.path.abspath(minitorch.__file__)))
        paths = [pkg_root] + [os.path.abspath(p) for p in
                              os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]
        env = dict(os.environ, MINITORCH_FUZZ_CWD=cwd, OMP_NUM_THREADS="1",
                   PYTHONFAULTHANDLER="1", PYTHONPATH=os.pathsep.join(paths))
        if "asan" in env.get("LD_PRELOAD", ""):
            # RLIMIT_AS cannot bound a sanitized process (its shadow memory is reserved up
            # front), so the sanitizer bounds single allocations instead
            env["ASAN_OPTIONS"] = (env.get("ASAN_OPTIONS", "") +
                                   ":allocator_may_return_null=1:max_allocation_size_mb=512")
        self.err = tempfile.TemporaryFile()   # a file: a full pipe would stall the worker
        self.p = subprocess.Popen([sys.executable, os.path.join(HERE, "worker.py")],
                                  stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=self.err, env=env, cwd=cwd, bufsize=0)
        self.buf = b""
        self.busy = None        # (seed, next index expected, end)

    def send(self, seed, start, count):
        self.p.stdin.write(f"{seed} {start} {count}\n".encode())
        self.p.stdin.flush()
        self.busy = [seed, start, start + count]

    def lines(self):
        data = os.read(self.p.stdout.fileno(), 65536)
        if not data:
            return None
        self.buf += data
        *done, self.buf = self.buf.split(b"\n")
        return [d.decode() for d in done]

    def kill(self, grace=0.0):
        try:
            self.p.wait(grace)        # a worker that is exiting gets to report how
        except subprocess.TimeoutExpired:
            self.p.kill()
        self.p.wait()
        self.err.seek(0)
        err = self.err.read().decode(errors="replace")
        self.err.close()
        # a sanitizer's report or a fatal error from its first line; else the end
        starts = [k for k in (err.find("ERROR: AddressSanitizer"), err.find("runtime error:"),
                              err.find("Fatal Python error")) if k >= 0]
        return err[min(starts):min(starts) + 3000] if starts else err[-3000:]


def _signal_name(rc):
    if rc is not None and rc < 0:
        try:
            return signal.Signals(-rc).name
        except ValueError:
            return f"signal {-rc}"
    return f"exit code {rc}"


def run(seed, calls, jobs=2, batch=200, timeout=10.0, progress=None):
    """Runs cases (seed, 0 .. calls-1).  Returns (outcome counts, [Failure]).  Under the
    sanitizers every case runs several times slower: the timeout is tripled there."""
    if "asan" in os.environ.get("LD_PRELOAD", ""):
        timeout *= 3
    import targets
    tlist = targets.all_targets()
    counts = collections.Counter()
    failures = []
    tmp = tempfile.mkdtemp(prefix="minitorch-fuzz-")
    pending = list(range(0, calls, batch))
    workers = [Worker(tmp) for _ in range(max(1, jobs))]
    last = {id(w): time.monotonic() for w in workers}

    def feed(w):
        if pending:
            start = pending.pop(0)
            w.send(seed, start, min(batch, calls - start))
            last[id(w)] = time.monotonic()
        else:
            w.busy = None

    for w in workers:
        feed(w)
    while any(w.busy for w in workers):
        live = {w.p.stdout.fileno(): w for w in workers if w.busy}
        ready, _, _ = select.select(list(live), [], [], 0.5)
        now = time.monotonic()
        for fd in ready:
            w = live[fd]
            got = w.lines()
            last[id(w)] = now
            if got is None:           # the worker died while running case w.busy[1]
                err = w.kill(grace=5.0)
                i = w.busy[1]
                failures.append(Failure(seed, i, _signal_name(w.p.returncode),
                                        _target_name(tlist, seed, i), err[-3000:]))
                counts["crash"] += 1
                _restart(workers, w, tmp, last, seed, i + 1, w.busy[2])
                continue
            for line in got:
                if line == "done":
                    feed(w)
                    continue
                i, outcome = line.split(" ", 1)
                w.busy[1] = int(i) + 1
                counts["ok" if outcome == "ok" else "raised" if ":" not in outcome
                       and outcome != "RecursionError" else outcome.split(":")[0]] += 1
                if outcome.startswith(("SystemError", "GeneratorError")):
                    failures.append(Failure(seed, int(i), outcome.split(":")[0],
                                            _target_name(tlist, seed, int(i)), outcome))
                if progress:
                    progress(sum(counts.values()))
        for w in workers:
            if w.busy and now - last[id(w)] > timeout:   # a case that does not finish
                err = w.kill()
                i = w.busy[1]
                failures.append(Failure(seed, i, f"timeout ({timeout:.0f} s)",
                                        _target_name(tlist, seed, i), err[-3000:]))
                counts["timeout"] += 1
                _restart(workers, w, tmp, last, seed, i + 1, w.busy[2])
    for w in workers:
        w.p.stdin.close()
        w.kill()
    return counts, failures


def _restart(workers, w, tmp, last, seed, start, end):
    k = workers.index(w)
    nw = Worker(tmp)
    workers[k] = nw
    last[id(nw)] = time.monotonic()
    # the rest of the batch (possibly nothing: the worker then answers "done" at once)
    nw.send(seed, start, max(0, end - start))


def _target_name(tlist, seed, i):
    import gen
    g = gen.Gen(seed, i)
    return tlist[g.r.randrange(len(tlist))][0]


def reproducer(f):
    """A self-contained snippet that rebuilds and runs case f alone."""
    return (f"cd {os.path.dirname(os.path.dirname(HERE))} && python -m tests.fuzz.run "
            f"--replay {f.seed}:{f.index}")
