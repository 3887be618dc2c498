"""Work: an operation of a process group in flight (torch's c10d Work), over the C work of a
backend, with the local steps that follow it (staged outputs copied back, a post step)."""
import threading

from minitorch import futures as _futures

from .._C import _c10d
from . import _debug
from ._store import _timeout_ms

__all__ = ["Work"]


class _DoneCWork:
    """The C work of an operation that has already run (or of none): done, successful.
    `source_rank` is the sender of a receive that ran before its call returned."""

    def __init__(self, source_rank=-1):
        self._src = source_rank

    def wait(self, ms=-1):
        return True

    def is_completed(self):
        return True

    def is_success(self):
        return True

    def error(self):
        return None

    def source_rank(self):
        return self._src

    def op_name(self):
        return "none"


_DONE = _DoneCWork()


class _MultiCWork:
    """Several C works as one (the parts of one operation, queued back to back)."""

    def __init__(self, works):
        self._works = works

    def wait(self, ms=-1):
        for w in self._works:
            w.wait(ms)
        return True

    def is_completed(self):
        return all(w.is_completed() for w in self._works)

    def is_success(self):
        return all(w.is_success() for w in self._works)

    def error(self):
        for w in self._works:
            e = w.error()
            if e is not None:
                return e
        return None

    def source_rank(self):
        return self._works[-1].source_rank()

    def op_name(self):
        return self._works[0].op_name() if self._works else "none"


def _complete(copies, post, info):
    """What follows a finished operation: staged outputs copied back, the post step, the log."""
    for orig, staged in copies:
        orig.copy_(staged)
    if post is not None:
        post()
    if info is not None:
        _debug.log_done(info)


class Work:
    """An operation in flight: ``wait(timeout=None)``, ``is_completed()``,
    ``is_success()``, ``exception()``, ``result()``, ``get_future()``.

    ``Work()`` with no operation (torch's base class, which user-defined backends subclass)
    is a completed, successful one.  `pending` is the list of unfinished Works with local
    steps of the issuing backend (a barrier finishes them); `info` is the debug log's record,
    set by the caller of the collective."""

    def __init__(self, cwork=None, pending=None, outputs=(), copies=(), post=None, info=None):
        self._w = cwork if cwork is not None else _DONE
        self._pending = pending
        self._outputs = outputs
        self._copies = list(copies)  # (original, contiguous staging tensor)
        self._post = post
        self._info = info
        self._finished = False
        self._lock = threading.Lock()  # wait() and a get_future() thread may finish together
        self._future = None

    def _finish(self):
        with self._lock:
            if self._finished:
                return
            self._finished = True
        copies, post, self._copies, self._post = self._copies, self._post, [], None
        pending = self._pending
        if pending and self in pending:
            pending.remove(self)
        _complete(copies, post, self._info)

    def wait(self, timeout=None):
        ms = -1 if timeout is None else _timeout_ms(timeout)
        self._w.wait(ms)
        self._finish()
        return True

    def is_completed(self):
        done = self._w.is_completed()
        if done and self._w.is_success():
            self._finish()
        return done

    def is_success(self):
        return self._w.is_success()

    def exception(self):
        err = self._w.error()
        return None if err is None else _c10d.DistBackendError(err[1])

    def source_rank(self):
        """The sender of a completed receive from any source, a rank of the work's group (as
        torch's; dist.recv translates it to a global rank)."""
        src = self._w.source_rank()
        if src < 0:
            raise RuntimeError("source_rank() is only available for a completed recv")
        return src

    _source_rank = source_rank

    def result(self):
        return list(self._outputs)

    def synchronize(self):
        pass

    def get_future(self):
        """A ``minitorch.futures.Future`` completed with ``result()`` (the output tensors) when
        the operation finishes, or with its error. A daemon thread waits for it, the GIL
        released; callbacks added with ``then`` run in that thread."""
        with self._lock:
            if self._future is not None:
                return self._future
            fut = self._future = _futures.Future()

        def waiter():
            try:
                self._finish_for_future()
            except BaseException as e:  # noqa: B036 -- handed to the future's waiters
                fut.set_exception(e)
            else:
                fut.set_result(self.result())
        threading.Thread(target=waiter, name=self._future_thread, daemon=True).start()
        return fut

    _future_thread = "minitorch-work-future"

    def _finish_for_future(self):
        """Blocks until the operation has finished (get_future's thread), raising its error."""
        self.wait()

    def __repr__(self):
        return f"<Work {self._w.op_name()} completed={self._w.is_completed()}>"


class _WorkList(Work):
    """The Work of several operations issued as one (the *_coalesced forms): done when all are."""

    def __init__(self, works, outputs):
        super().__init__(None, None, outputs)
        self._parts = works

    def wait(self, timeout=None):
        for w in self._parts:
            w.wait(timeout)
        self._finish()
        return True

    def is_completed(self):
        return all(w.is_completed() for w in self._parts)

    def is_success(self):
        return all(w.is_success() for w in self._parts)

    def exception(self):
        for w in self._parts:
            e = w.exception()
            if e is not None:
                return e
        return None
