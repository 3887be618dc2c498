"""Op watchers (Note [Op watchers] in csrc/autograd/autograd.h): forward-mode AD and the
profiler see every op call through here while one of them is active.

A watcher is a callable w(key, self, args, kwargs, proceed) -> result: key is the recorder's
"<kind>.<name>" (kind m: a Tensor method, whose self is its first argument; f: a minitorch._C
function; o: an operator; p: a Python form), and proceed(args, kwargs) runs the call (the
next watcher, or the op itself with autograd recording as usual).  Watchers run innermost
last: the first added sees the call first."""
import threading

from .. import _C

_watchers = []
_tls = threading.local()    # .off: this thread's calls are not watched (mirrors _C's flag)


def add(watcher):
    """Makes watcher see every op call from now on (until remove(watcher))."""
    _watchers.append(watcher)
    _C._set_ag_watchers(len(_watchers))


def remove(watcher):
    _watchers.remove(watcher)
    _C._set_ag_watchers(len(_watchers))


def active():
    """Whether a call reaching the recorder goes to the watchers: some are active and this
    thread is not inside unwatched (an op that requires grad reaches the recorder also
    there)."""
    return bool(_watchers) and not getattr(_tls, "off", False)


class unwatched:
    """Calls inside are not watched on this thread (a watcher running the op itself)."""

    def __enter__(self):
        self._prev = _C._set_ag_unwatched(True)
        self._prev_off = getattr(_tls, "off", False)
        _tls.off = True
        return self

    def __exit__(self, *exc):
        _C._set_ag_unwatched(self._prev)
        _tls.off = self._prev_off
        return False


def dispatch(key, self, args, kwargs, run):
    """The call through every watcher, then run(key, self, args, kwargs)."""
    chain = tuple(_watchers)

    def step(i, args, kwargs):
        if i == len(chain):
            return run(key, self, args, kwargs)
        return chain[i](key, self, args, kwargs, lambda a, k: step(i + 1, a, k))
    return step(0, args, kwargs)
