"""DataLoader workers under `spawn` and `forkserver`: one process started through the user's
context loads the dataset once and forks the workers from itself.

Note [Worker zygote]
Users pick `spawn` (or `forkserver`) so that workers inherit nothing of the main process: not
its threads, locks or device state.  Starting every worker through the context costs, per
worker, an interpreter, the imports (minitorch, NumPy, the user's main module) and an unpickling
of the whole dataset: 16 workers over a 100 MB dataset object took seconds of CPU each on a
small machine.  Instead the loader starts ONE process through the context, the zygote, as soon
as the iterator is created, and meanwhile pickles the worker spec once into a memory file the
zygote reads as it is written (Note [One pickle for all workers]).  The zygote (fresh, started
by the context, and with no thread of its own beyond the idle pools of minitorch and NumPy,
which are fork-safe) imports what the workers need, unpickles the dataset once, freezes
the garbage collector's view of it (gc.freeze: the workers' collections do not write to the
shared pages) and os.fork()s the workers, which share that copy copy-on-write.  Each worker
then seeds itself as any worker does (base seed + worker id), so the zygote's generator state
is not what they draw from.

The workers are the zygote's children, not the main process's, so the main process learns of
them through the zygote's pipe: ("pid", worker id, pid) as it forks each (worker 0 starts on
its first batch while the others are forked), then ("exit", pid, exitcode) for each worker it
reaps (multiprocessing's exit codes: negative for a signal), which is how a worker killed by a
signal becomes torch's "DataLoader worker (pid N) is killed by signal".  The
main process sees each worker through a `ForkedWorker` with the Process methods it uses (pid,
is_alive, exitcode, join, terminate, kill); terminate/kill ask the zygote to signal the worker
(only it knows that the pid was not reaped and reused).  The zygote exits once its last worker
is gone.  When the main process dies its pipe ends: the zygote terminates the workers (then
kills what is left after a grace period), reaps them and exits; besides, the zygote dies with
the thread that started it when that is the main thread (PR_SET_PDEATHSIG), every worker dies
with the zygote, and an idle worker checks that the main process still runs."""
import gc
import os
import signal
import sys
import time
import traceback
from multiprocessing import connection as _connection
from multiprocessing import util as _mp_util

from ._shared_spec import SpecWriter, new_spec_file

__all__ = ["Zygote", "ForkedWorker", "zygote_main"]

_REAP_GRACE_S = 2.0     # the zygote's wait for workers it terminated before it kills them


def zygote_main(conn, spec_file, index_queues, result_conns, base_seed, init_fn, num_workers,
                main_pid, tie_to_parent, snapshots):
    """The zygote process (Note [Worker zygote]): loads the spec as the main process writes
    it, forks the workers, reports their pids and exits, then exits itself after the last one."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)   # Ctrl-C is the main process's to handle
    from ._shared_spec import MainGone, SpecReader
    from ._worker import _die_with_parent, worker_loop
    import minitorch as _mt
    if tie_to_parent:
        _die_with_parent()
    _mt.set_num_threads(1)        # as in every worker: the workers are the parallelism
    gc.disable()                  # no collection while the dataset is built; frozen below
    try:
        spec = SpecReader(spec_file.fd, conn).load()   # Note [One pickle for all workers]
    except MainGone:
        return                    # the main process failed to pickle it, or is gone
    finally:
        os.close(spec_file.fd)
    gc.freeze()                   # the workers' collections leave the shared pages alone
    pids = {}
    main_gone = None
    for i in range(num_workers):
        pid = os.fork()
        if pid == 0:
            _worker_main(conn, result_conns, i, worker_loop,
                         (spec, index_queues[i], result_conns[i], base_seed, init_fn, i,
                          num_workers, main_pid, True, snapshots[i]))
        pids[pid] = i
        result_conns[i].close()   # the worker holds it; the main process must see EOF
        if main_gone is None:
            try:                  # each pid at once: worker 0 loads while the others fork
                conn.send(("pid", i, pid))
            except OSError:
                main_gone = time.monotonic()
    if main_gone is not None:
        _signal_all(pids, signal.SIGTERM)
    _monitor(conn, pids, main_gone)


def _worker_main(conn, result_conns, worker_id, loop, args):
    """A forked worker: forget the zygote's pipes, run the worker loop, exit with its status
    (never returns)."""
    code = 1
    try:
        conn.close()
        for j, c in enumerate(result_conns):
            if j != worker_id:
                c.close()
        _mp_util._finalizer_registry.clear()      # as multiprocessing's forked children
        _mp_util._run_after_forkers()
        gc.enable()
        loop(*args)
        code = 0
    except SystemExit as e:
        code = e.code if isinstance(e.code, int) else (0 if e.code is None else 1)
    except BaseException:         # noqa: BLE001 - reported as the exit status
        traceback.print_exc()
    finally:
        try:
            _mp_util._exit_function()
        except BaseException:     # noqa: BLE001
            pass
        for f in (sys.stdout, sys.stderr):
            try:
                f.flush()
            except BaseException:  # noqa: BLE001
                pass
        os._exit(code)


def _exitcode(status):
    """multiprocessing's exit code of a wait status (negative: the signal)."""
    if os.WIFSIGNALED(status):
        return -os.WTERMSIG(status)
    return os.WEXITSTATUS(status)


def _monitor(conn, pids, main_gone):
    """Reaps the workers and reports each exit; signals them when the main process asks, and
    ends them all when it is gone."""
    pidfds = {}
    if hasattr(os, "pidfd_open"):
        for pid in pids:
            try:
                pidfds[os.pidfd_open(pid)] = pid
            except OSError:               # reaped already, or no pidfds here: poll instead
                for fd in pidfds:
                    os.close(fd)
                pidfds = {}
                break
    # main_gone: when the main process's pipe ended (None: it still runs)
    while pids:
        if main_gone is None:
            wait_s = None if pidfds else 0.05
        else:
            wait_s = 0.05
        watch = list(pidfds) + ([conn] if main_gone is None else [])
        ready = _connection.wait(watch, wait_s)
        if conn in ready:
            try:
                msg = conn.recv()
            except (EOFError, OSError):
                msg = None
            if msg is None:       # the main process is gone: end the workers
                main_gone = time.monotonic()
                _signal_all(pids, signal.SIGTERM)
            else:
                _, sig, pid = msg             # ("signal", signum, pid)
                if pid in pids:
                    _kill(pid, sig)
        while pids:
            try:
                pid, status = os.waitpid(-1, os.WNOHANG)
            except ChildProcessError:
                pids.clear()
                break
            if pid == 0:
                break
            if pids.pop(pid, None) is None:
                continue
            for fd, p in list(pidfds.items()):
                if p == pid:
                    os.close(fd)
                    del pidfds[fd]
            if main_gone is None:
                try:
                    conn.send(("exit", pid, _exitcode(status)))
                except OSError:
                    main_gone = time.monotonic()
                    _signal_all(pids, signal.SIGTERM)
        if main_gone is not None and pids and time.monotonic() - main_gone > _REAP_GRACE_S:
            _signal_all(pids, signal.SIGKILL)
    for fd in pidfds:
        os.close(fd)


def _kill(pid, sig):
    try:
        os.kill(pid, sig)
    except ProcessLookupError:
        pass


def _signal_all(pids, sig):
    for pid in pids:
        _kill(pid, sig)


class Zygote:
    """The main process's side of a zygote (Note [Worker zygote]): the Process started through
    the context, its pipe, and a ForkedWorker per worker."""

    def __init__(self, ctx, index_queues, result_conns, base_seed, init_fn, num_workers,
                 tie_to_parent, snapshots):
        self.conn, child_conn = ctx.Pipe(duplex=True)
        self.spec_file = new_spec_file()
        self.process = ctx.Process(
            target=zygote_main, daemon=True, name="DataLoader zygote",
            args=(child_conn, self.spec_file, index_queues, result_conns, base_seed, init_fn,
                  num_workers, os.getpid(), tie_to_parent, snapshots))
        self.workers = [ForkedWorker(self, i) for i in range(num_workers)]
        self.by_pid = {}
        self.pids_known = False
        self.on_pids = None          # called with the workers once all pids are known
        self.spec_sent = False       # False: the zygote may wait for a spec that will not come
        self.closed = False
        try:
            self.process.start()
        except BaseException:
            os.close(self.spec_file.fd)
            self.conn.close()
            self.closed = True
            raise
        finally:
            child_conn.close()

    def send_spec(self, spec):
        """Pickles the spec for the zygote, which loads it meanwhile (Note [One pickle for all
        workers])."""
        try:
            SpecWriter(self.spec_file.fd, self.conn).dump(spec)
            self.spec_sent = True
        except (BrokenPipeError, ConnectionResetError):
            self.process.join(5.0)             # the zygote died: its exit is the error
            from ._utils.signal_handling import worker_failure_message
            raise RuntimeError(worker_failure_message(self.process.pid,
                                                      self.process.exitcode)) from None
        finally:
            os.close(self.spec_file.fd)

    @property
    def sentinels(self):
        """What to wait on for news of the workers (then call poll())."""
        return [] if self.closed else [self.conn, self.process.sentinel]

    def poll(self, timeout=0.0):
        """Reads the zygote's reports, waiting up to `timeout` (None: for ever) for the first."""
        if self.closed:
            return
        deadline = None if timeout is None else time.monotonic() + timeout
        while True:
            wait_s = None if deadline is None else max(0.0, deadline - time.monotonic())
            ready = _connection.wait([self.conn, self.process.sentinel], wait_s)
            if not ready:
                return
            got = False
            while True:
                try:
                    if not self.conn.poll():
                        break
                    msg = self.conn.recv()
                except (EOFError, OSError):
                    self._zygote_gone()
                    return
                got = True
                self._handle(msg)
            if got:
                return
            if self.process.sentinel in ready:       # gone without a word left to read
                self._zygote_gone()
                return

    def _handle(self, msg):
        if msg[0] == "pid":
            w = self.workers[msg[1]]
            w._pid = msg[2]
            self.by_pid[msg[2]] = w
            if len(self.by_pid) == len(self.workers):
                self.pids_known = True
                if self.on_pids is not None:
                    self.on_pids(self.workers)
        elif msg[0] == "exit":
            w = self.by_pid.get(msg[1])
            if w is not None:
                w._exitcode = msg[2]

    def _zygote_gone(self):
        """The zygote exited: its workers died with it (Note [Worker zygote]); those it did not
        report get its exit code (1: it failed before forking them)."""
        self.process.join(1.0)
        code = self.process.exitcode
        if code is None or code == 0:
            code = -signal.SIGTERM
        for w in self.workers:
            if w._pid is None:
                w._pid = self.process.pid
            if w._exitcode is None:
                w._exitcode = code
        self.pids_known = True
        self.closed = True
        self.conn.close()

    def wait_pid(self, worker):
        """Waits until `worker` is forked (or the zygote failed)."""
        while worker._pid is None and not self.closed:
            self.poll(None)

    def signal(self, worker, sig):
        if self.closed or worker._exitcode is not None or worker._pid is None:
            return
        try:
            self.conn.send(("signal", int(sig), worker._pid))
        except OSError:
            pass

    def close(self, grace_s):
        """After the workers: waits up to grace_s for the zygote to exit (it does after its
        last worker), then ends it (closing its pipe ends its workers, then it is killed)."""
        deadline = time.monotonic() + grace_s
        while not self.closed and time.monotonic() < deadline:
            self.poll(max(0.0, deadline - time.monotonic()))
        p = self.process
        if not self.closed:
            self.closed = True
            try:
                self.conn.close()          # the zygote ends any worker left, then exits
            except OSError:
                pass
            p.join(_REAP_GRACE_S + 1.0)
        if p.is_alive():
            p.kill()                       # its workers die with it (PR_SET_PDEATHSIG)
        p.join()
        for w in self.workers:             # gone with the zygote, unreported
            if w._exitcode is None:
                w._exitcode = -signal.SIGKILL if p.exitcode == -signal.SIGKILL else -signal.SIGTERM


class ForkedWorker:
    """A worker the zygote forked, seen from the main process with the methods of
    multiprocessing.Process the loader (and its users) call."""

    def __init__(self, zygote, worker_id):
        self._zygote = zygote
        self.worker_id = worker_id
        self._pid = None
        self._exitcode = None

    @property
    def pid(self):
        if self._pid is None:
            self._zygote.wait_pid(self)
        return self._pid

    ident = pid

    @property
    def exitcode(self):
        if self._exitcode is None:
            self._zygote.poll(0.0)
        return self._exitcode

    def is_alive(self):
        return self.exitcode is None

    def join(self, timeout=None):
        deadline = None if timeout is None else time.monotonic() + timeout
        while self._exitcode is None and not self._zygote.closed:
            wait_s = None if deadline is None else deadline - time.monotonic()
            if wait_s is not None and wait_s <= 0:
                return
            self._zygote.poll(wait_s)

    def terminate(self):
        self._zygote.signal(self, signal.SIGTERM)

    def kill(self):
        self._zygote.signal(self, signal.SIGKILL)

    def __repr__(self):
        state = "started" if self._exitcode is None else f"stopped exitcode={self._exitcode}"
        return f"<ForkedWorker {self.worker_id} pid={self._pid} {state}>"
