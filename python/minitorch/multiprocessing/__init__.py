"""minitorch.multiprocessing: torch.multiprocessing on top of the standard library.

``spawn(fn, args, nprocs)`` starts `nprocs` processes calling ``fn(i, *args)``
and joins them; an exception in a child is re-raised in the parent as
``ProcessRaisedException`` carrying the child's traceback, a child that exits
with a non-zero status (or dies of a signal) as ``ProcessExitedException``, and
the other children are terminated as soon as one fails.

Tensors handed to other processes (``Process(args=...)``, ``Queue.put``,
``Pipe``, ``spawn(args=...)``, ``Pool``) travel in shared memory, as in torch:
their storage moves into shared memory and the other side maps the same bytes,
so in-place changes are seen by both (see Note [Tensors cross processes in
shared memory] in reductions.py).  Views of one storage stay views of one
storage, also under the spawn start method.

The standard library's process tools are re-exported unchanged: ``Process``,
``Queue``, ``Pool``, ``Manager``, ``set_start_method`` ...
"""
import multiprocessing as _mp
import os
import signal
import sys
import tempfile
import time
import traceback
import warnings
from multiprocessing import (  # noqa: F401  (re-exported)
    Array,
    Barrier,
    Condition,
    Event,
    JoinableQueue,
    Lock,
    Manager,
    Pipe,
    Pool,
    Process,
    Queue,
    RLock,
    Semaphore,
    SimpleQueue,
    Value,
    active_children,
    cpu_count,
    current_process,
    get_all_start_methods,
    get_context,
    get_start_method,
    parent_process,
    set_start_method,
)
from multiprocessing import connection as _connection

__all__ = [
    "spawn", "start_processes", "ProcessContext", "SpawnContext", "ProcessException",
    "ProcessRaisedException", "ProcessExitedException", "get_sharing_strategy",
    "set_sharing_strategy", "get_all_sharing_strategies",
    "Array", "Barrier", "Condition", "Event", "JoinableQueue", "Lock", "Manager", "Pipe",
    "Pool", "Process", "Queue", "RLock", "Semaphore", "SimpleQueue", "Value",
    "active_children", "cpu_count", "current_process", "get_all_start_methods",
    "get_context", "get_start_method", "parent_process", "set_start_method",
]

# seconds a failing job's other children get to exit after SIGTERM before SIGKILL
_TERMINATE_GRACE = 5.0


# ------------------------------------------------------------------ sharing strategy

_SHARING_STRATEGIES = ("file_descriptor", "file_system")
_sharing_strategy = "file_descriptor"


def get_all_sharing_strategies():
    """The strategies of set_sharing_strategy: file_descriptor (memfd segments whose
    descriptors are lent to the receiver) and file_system (named /dev/shm segments)."""
    return set(_SHARING_STRATEGIES)


def get_sharing_strategy():
    """The strategy set by set_sharing_strategy ("file_descriptor" by default)."""
    return _sharing_strategy


def set_sharing_strategy(new_strategy):
    """Chooses how tensors sent to other processes are shared (see Note [Shared memory] in
    c10_lite/shm.h): "file_descriptor" (default; nothing outlives the processes) or
    "file_system" (no descriptor stays open per storage)."""
    global _sharing_strategy
    if new_strategy not in _SHARING_STRATEGIES:
        raise AssertionError(f"invalid sharing strategy {new_strategy!r}; expected one of "
                             f"{', '.join(_SHARING_STRATEGIES)}")
    _sharing_strategy = new_strategy


# ------------------------------------------------------------------ exceptions


class ProcessException(Exception):
    """A spawned process failed; `error_index` is its index, `pid` its process id."""

    __slots__ = ["error_index", "pid"]

    def __init__(self, msg, error_index, pid):
        super().__init__(msg)
        self.msg = msg
        self.error_index = error_index
        self.pid = pid

    def __reduce__(self):
        return type(self), (self.msg, self.error_index, self.pid)


class ProcessRaisedException(ProcessException):
    """The function of a spawned process raised; the message ends with the child's traceback."""

    def __init__(self, msg, error_index, error_pid):
        super().__init__(msg, error_index, error_pid)


class ProcessExitedException(ProcessException):
    """A spawned process exited with a non-zero status or was killed by a signal."""

    __slots__ = ["exit_code", "signal_name"]

    def __init__(self, msg, error_index, error_pid, exit_code, signal_name=None):
        super().__init__(msg, error_index, error_pid)
        self.exit_code = exit_code
        self.signal_name = signal_name

    def __reduce__(self):
        return type(self), (self.msg, self.error_index, self.pid, self.exit_code, self.signal_name)


# ------------------------------------------------------------------ the child side


def _wrap(fn, i, args, error_file):
    """Runs fn(i, *args) in a child; an exception's traceback goes to error_file, exit status 1."""
    try:
        fn(i, *args)
    except KeyboardInterrupt:
        pass  # the parent is terminating the job
    except Exception:  # noqa: BLE001 - reported to the parent
        with open(error_file, "w", encoding="utf-8") as f:
            f.write(traceback.format_exc())
        sys.exit(1)


# ------------------------------------------------------------------ the parent side


def _signal_name(code):
    try:
        return signal.Signals(-code).name
    except ValueError:
        return f"signal {-code}"


class ProcessContext:
    """The processes of a start_processes/spawn call; join() them and see their ids."""

    def __init__(self, processes, error_files):
        self.error_files = error_files
        self.processes = processes
        self.sentinels = {p.sentinel: i for i, p in enumerate(processes)}

    def pids(self):
        """The process ids, by index."""
        return [int(p.pid) for p in self.processes]

    def _terminate_all(self, grace_period=None):
        alive = [p for p in self.processes if p.is_alive()]
        for p in alive:
            p.terminate()
        grace = _TERMINATE_GRACE if grace_period is None else grace_period
        deadline = time.monotonic() + grace
        for p in alive:
            p.join(max(0.0, deadline - time.monotonic()))
        for p in alive:
            if p.is_alive():
                p.kill()
                p.join()

    def join(self, timeout=None, grace_period=None):
        """Waits up to `timeout` seconds (None: no limit) for the processes.

        Returns True when every process has exited successfully, False when some
        still run at the timeout.  When a process fails, the others are
        terminated and ProcessRaisedException (its function raised) or
        ProcessExitedException (it exited non-zero or died of a signal) is
        raised.  The others get `grace_period` seconds (default 5) to exit after
        SIGTERM before they are killed."""
        for name, value in (("timeout", timeout), ("grace_period", grace_period)):
            if value is not None and (isinstance(value, bool) or not isinstance(value, (int, float))):
                raise TypeError(f"join(): {name} must be a number or None, not {type(value).__name__}")
        if len(self.sentinels) == 0:
            return True
        ready = _connection.wait(self.sentinels.keys(), timeout=timeout)
        error_index = None
        for sentinel in ready:
            index = self.sentinels.pop(sentinel)
            process = self.processes[index]
            process.join()
            if process.exitcode != 0:
                error_index = index
                break
        if error_index is None:
            return len(self.sentinels) == 0

        self._terminate_all(grace_period)
        failed = self.processes[error_index]
        pid = failed.pid
        exitcode = failed.exitcode
        error_file = self.error_files[error_index]
        trace = ""
        if os.path.exists(error_file):
            with open(error_file, encoding="utf-8", errors="replace") as f:
                trace = f.read()
        self._remove_error_files()
        if not trace:
            if exitcode < 0:
                name = _signal_name(exitcode)
                raise ProcessExitedException(
                    f"process {error_index} terminated with signal {name}",
                    error_index=error_index, error_pid=pid, exit_code=exitcode, signal_name=name)
            raise ProcessExitedException(
                f"process {error_index} terminated with exit code {exitcode}",
                error_index=error_index, error_pid=pid, exit_code=exitcode)
        msg = f"\n\n-- Process {error_index} terminated with the following error:\n" + trace
        raise ProcessRaisedException(msg, error_index, pid)

    def _remove_error_files(self):
        for path in self.error_files:
            try:
                os.unlink(path)
            except OSError:
                pass

    def __del__(self):
        try:
            if all(not p.is_alive() for p in self.processes):
                self._remove_error_files()
        except Exception:  # noqa: BLE001 - interpreter shutdown
            pass


class SpawnContext(ProcessContext):
    """The context spawn(join=False) returns (a ProcessContext)."""


def _check_nprocs(nprocs):
    if isinstance(nprocs, bool) or not isinstance(nprocs, int):
        raise TypeError(f"nprocs must be an int, not {type(nprocs).__name__}")
    if nprocs < 1:
        raise ValueError(f"nprocs must be at least 1, got {nprocs}")


def start_processes(fn, args=(), nprocs=1, join=True, daemon=False, start_method="spawn"):
    """Starts `nprocs` processes (start method `start_method`) calling fn(i, *args).

    join=True waits for all of them (see ProcessContext.join) and returns None;
    join=False returns the ProcessContext."""
    if not callable(fn):
        raise TypeError(f"fn must be callable, not {type(fn).__name__}")
    if not isinstance(args, tuple):
        raise TypeError(f"args must be a tuple, not {type(args).__name__}")
    _check_nprocs(nprocs)
    if start_method not in _mp.get_all_start_methods():
        raise ValueError(f"cannot find context for {start_method!r}; available start methods: "
                         f"{', '.join(_mp.get_all_start_methods())}")
    mp = _mp.get_context(start_method)
    error_files = []
    processes = []
    try:
        for i in range(nprocs):
            fd, error_file = tempfile.mkstemp(prefix="minitorch-mp-", suffix=".err")
            os.close(fd)
            os.unlink(error_file)  # the child creates it only when fn raises
            error_files.append(error_file)
            process = mp.Process(target=_wrap, args=(fn, i, args, error_file), daemon=daemon)
            process.start()
            processes.append(process)
    except BaseException:
        ProcessContext(processes, error_files)._terminate_all()
        raise
    context = ProcessContext(processes, error_files)
    if not join:
        return context
    try:
        while not context.join():
            pass
    except KeyboardInterrupt:
        context._terminate_all()
        raise
    return None


def spawn(fn, args=(), nprocs=1, join=True, daemon=False, start_method="spawn"):
    """torch.multiprocessing.spawn: start_processes with the spawn start method.

    Calls fn(i, *args) for i in range(nprocs) in new processes.  Another
    start_method warns (as torch) and is used."""
    if start_method != "spawn":
        warnings.warn(
            f"This method only supports start_method=spawn (got: {start_method}).\n"
            "To use a different start_method use:\n\t\t"
            " minitorch.multiprocessing.start_processes(...)", FutureWarning, stacklevel=2)
    return start_processes(fn, args, nprocs, join, daemon, start_method)


# ------------------------------------------------------------------ thread names (Linux)

_PR_SET_NAME, _PR_GET_NAME = 15, 16


def _prctl_name(option, buf):
    import ctypes
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(option, buf, 0, 0, 0) != 0:
        err = ctypes.get_errno()
        raise OSError(err, os.strerror(err))


def _set_thread_name(name):
    """Names the calling OS thread (what ps / top / a debugger show; at most 15 bytes kept)."""
    import ctypes
    _prctl_name(_PR_SET_NAME, ctypes.create_string_buffer(name.encode()[:15]))


def _get_thread_name():
    """The calling OS thread's name."""
    import ctypes
    buf = ctypes.create_string_buffer(16)
    _prctl_name(_PR_GET_NAME, buf)
    return buf.value.decode(errors="replace")


from .reductions import init_reductions as _init_reductions  # noqa: E402

_init_reductions()
