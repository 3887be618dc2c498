"""``minitorch.futures``: a value that arrives later, as ``torch.futures``.

A Future is completed once, by ``set_result`` or ``set_exception``; ``wait()`` blocks until then
and returns the value (or raises the exception); callbacks registered with ``then`` or
``add_done_callback`` run in the thread that completes the future, or at once in the caller's
thread when it is already complete. ``Work.get_future()`` of ``minitorch.distributed`` returns one
that completes with the operation's output tensors.
"""
import logging
import threading
from typing import Generic, TypeVar

__all__ = ["Future", "collect_all", "wait_all"]

_log = logging.getLogger(__name__)


T = TypeVar("T")


class Future(Generic[T]):
    """``Future()``: ``done``, ``wait``, ``value``, ``then``, ``add_done_callback``,
    ``set_result``, ``set_exception``.  Generic as torch's: ``Future[Tensor]`` names the
    type of its value in annotations."""

    def __init__(self, *, devices=None):
        if devices:
            if any(str(d) != "cpu" for d in devices):
                raise ValueError("minitorch futures hold CPU values only; devices must be 'cpu'")
        self._cv = threading.Condition()
        self._done = False
        self._value = None
        self._exc = None
        self._callbacks = []

    def done(self):
        """True once a result or an exception is set."""
        return self._done

    def _complete(self, value, exc):
        with self._cv:
            if self._done:
                raise RuntimeError("Future can only be marked completed once")
            self._value, self._exc, self._done = value, exc, True
            callbacks, self._callbacks = self._callbacks, []
            self._cv.notify_all()
        for cb in callbacks:
            self._run_callback(cb)

    def set_result(self, result):
        self._complete(result, None)

    def set_exception(self, result):
        if not isinstance(result, BaseException):
            raise TypeError(f"set_exception expects an exception, got {type(result).__name__}")
        self._complete(None, result)

    def wait(self):
        """Blocks until the future is complete; returns its value or raises its exception."""
        with self._cv:
            while not self._done:
                self._cv.wait()
        return self.value()

    def value(self):
        """The value of a completed future (raises its exception); does not block."""
        if not self._done:
            raise RuntimeError("Future.value() called before the future completed; use wait()")
        if self._exc is not None:
            raise self._exc
        return self._value

    def _add(self, cb):
        with self._cv:
            if not self._done:
                self._callbacks.append(cb)
                return
        self._run_callback(cb)

    def _run_callback(self, cb):
        try:
            cb(self)
        except Exception:  # a done-callback has nobody to raise to; torch logs it too
            _log.exception("a minitorch.futures.Future callback raised")

    def add_done_callback(self, callback):
        """Runs ``callback(self)`` when the future completes (at once if it has)."""
        if not callable(callback):
            raise TypeError("add_done_callback expects a callable")
        self._add(callback)

    def then(self, callback):
        """A new Future completed with ``callback(self)`` (or with the exception it raises)."""
        if not callable(callback):
            raise TypeError("then expects a callable")
        nxt = Future()

        def chain(fut):
            try:
                v = callback(fut)
            except Exception as e:
                nxt.set_exception(e)
            else:
                nxt.set_result(v)
        self._add(chain)
        return nxt

    def __repr__(self):
        if not self._done:
            return "Future(pending)"
        if self._exc is not None:
            return f"Future(exception={self._exc!r})"
        return f"Future(value={self._value!r})"


def collect_all(futures):
    """A Future completed with the list of `futures` once all of them are complete."""
    futures = list(futures)
    if not all(isinstance(f, Future) for f in futures):
        raise TypeError("collect_all expects a list of minitorch.futures.Future")
    out = Future()
    if not futures:
        out.set_result([])
        return out
    left = [len(futures)]
    lock = threading.Lock()

    def one_done(_):
        with lock:
            left[0] -= 1
            last = left[0] == 0
        if last:
            out.set_result(futures)
    for f in futures:
        f.add_done_callback(one_done)
    return out


def wait_all(futures):
    """Waits for every future; returns their values (raises the first exception met)."""
    return [f.wait() for f in collect_all(futures).wait()]
