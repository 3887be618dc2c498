"""WorkNCCL, an operation of the NCCL backend in flight, and the watchdog that finishes, fails
and times out those operations.

Note [NCCL works and the watchdog]
An NCCL operation is queued on the group's internal stream of its device (after that stream
waited for the caller's current stream) and followed by an event.  Its Work, as torch's:
  - wait(): the caller's current stream waits for the event; the host does not block (unless
    TORCH_NCCL_BLOCKING_WAIT=1, then as synchronize());
  - synchronize(): the host blocks until the event has passed;
  - both raise the operation's error once the watchdog has recorded one.
The tensors stay referenced by the Work (and record_stream'd on the internal stream) until the
operation finished.  One watchdog thread per backend polls the pending operations while there
are any: an operation whose event passed is done; a communicator reporting an asynchronous
error (ncclCommGetAsyncError), or an operation running past its timeout, fails every pending
operation of the backend and aborts its communicators (ncclCommAbort), which makes their queued
work return, so no stream stays blocked; every later call on the backend raises that error.
"""
import os
import threading
import time

import minitorch as _mt

from .._C import _c10d
from ._work import Work

__all__ = ["WorkNCCL"]

_POLL_S = 0.01


class WorkNCCL(Work):
    def __init__(self, backend, op_type, event, tensors, outputs, numel_in, numel_out, timeout_s,
                 post=None):
        super().__init__(None, None, outputs)
        self._backend = backend
        self._op_type = op_type
        self._event = event
        self._tensors = tensors  # alive until the operation finished
        self._numel = (numel_in, numel_out)
        self._timeout_s = timeout_s
        self._start = time.monotonic()
        self._seq = backend._seq
        self._exc = None
        self._done = False
        self._post_host = post   # a host step after synchronize (barrier: none needed)

    def _describe(self):
        return (f"WorkNCCL(SeqNum={self._seq}, OpType={self._op_type}, NumelIn={self._numel[0]}, "
                f"NumelOut={self._numel[1]}, Timeout(ms)={int(self._timeout_s * 1000)})")

    def _raise_if_failed(self):
        exc = self._exc or self._backend._error
        if exc is not None:
            raise exc

    def wait(self, timeout=None):
        self._raise_if_failed()
        if _BLOCKING_WAIT or timeout is not None:
            return self.synchronize(timeout)
        self._event.wait(_mt.cuda.current_stream(self._event.device))
        return True

    def synchronize(self, timeout=None):
        limit = None if timeout is None else time.monotonic() + timeout.total_seconds()
        while not self._done:
            self._raise_if_failed()
            if self._event.query():
                self._backend._watchdog.finish(self)
                break
            if limit is not None and time.monotonic() > limit:
                raise _c10d.DistBackendError(f"[Rank {self._backend.rank()}] Work {self._describe()} "
                                             f"timed out in wait()")
            time.sleep(0.0005)
        self._raise_if_failed()
        return True

    def is_completed(self):
        if not self._done and self._exc is None and self._event.query():
            self._backend._watchdog.finish(self)
        return self._done or self._exc is not None

    def is_success(self):
        return self._exc is None and self._backend._error is None

    def exception(self):
        return self._exc

    def source_rank(self):
        raise RuntimeError("source_rank() is only available for a completed recv from any "
                           "source, which the NCCL backend does not support")

    _future_thread = "minitorch-nccl-future"

    def _finish_for_future(self):
        """get_future's Future completes once the operation finished on the device."""
        self.synchronize()

    def __repr__(self):
        return f"<{self._describe()} completed={self._done}>"


_BLOCKING_WAIT = os.environ.get("TORCH_NCCL_BLOCKING_WAIT", "0") in ("1", "true", "True")


class _Watchdog:
    """Polls a backend's pending WorkNCCLs (Note [NCCL works and the watchdog])."""

    def __init__(self, backend):
        self._backend = backend
        self._pending = []
        self._lock = threading.Lock()
        self._thread = None

    def add(self, work):
        with self._lock:
            self._pending.append(work)
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, daemon=True,
                                                name="minitorch-nccl-watchdog")
                self._thread.start()

    def finish(self, work):
        """`work`'s event has passed: done, unless its communicator reported an error (an
        aborted operation returns early, its stream moving on)."""
        code = self._backend._async_error()
        if code:
            self._backend._fail(_c10d.DistBackendError(
                f"[Rank {self._backend.rank()}] NCCL communicator encountered an error during "
                f"{work._describe()}: {self._backend._error_string(code)}"))
            return
        with self._lock:
            if work in self._pending:
                self._pending.remove(work)
        work._done = True
        work._tensors = None

    def fail_all(self, exc):
        with self._lock:
            pending, self._pending = self._pending, []
        for w in pending:
            if w._exc is None:
                w._exc = exc
            w._tensors = None

    def _run(self):
        b = self._backend
        while True:
            with self._lock:
                pending = list(self._pending)
                if not pending:
                    self._thread = None
                    return
            now = time.monotonic()
            for w in pending:
                if w._done or w._exc is not None:
                    continue
                if w._event.query():
                    self.finish(w)
                    continue
                if b._async_error():
                    self.finish(w)  # fails it
                    break
                if now - w._start > w._timeout_s:
                    ran = int((now - w._start) * 1000)
                    b._fail(_c10d.DistBackendError(
                        f"[Rank {b.rank()}] Watchdog caught collective operation timeout: "
                        f"{w._describe()} ran for {ran} milliseconds before timing out."))
                    break
            time.sleep(_POLL_S)
