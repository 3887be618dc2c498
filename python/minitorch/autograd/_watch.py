"""Op watchers (Note [Op watchers] in csrc/autograd/autograd.h): forward-mode AD and the
profiler see every op call through here while one of them is active.

A watcher is a callable w(key, self, args, kwargs, proceed) -> result: key is the recorder's
"<kind>.<name>" (kind m: a Tensor method, whose self is its first argument; f: a minitorch._C
function; o: an operator; p: a Python form; c: a composite Python form, see below), and
proceed(args, kwargs) runs the call (the next watcher, or the op itself with autograd recording
as usual).  Watchers run innermost last: the first added sees the call first.

Note [Watching inside ops]
Each op is seen once by a watcher: the calls an op makes while it runs are not watched.  A
watcher whose attribute `sees_inside` is true (the profiler) sees more: the calls of the
composite Python forms (op-table rows without a derivative, whose graph is made by the
recorded ops they call: key "c.<name>"; the other watchers see only the ops inside them), and
the op calls a Python form makes while it runs (the other watchers do not see those)."""
import threading

from .. import _C

_watchers = []
_inside = []                # the watchers that see inside ops
_tls = threading.local()    # .depth: Python forms running on this thread (Note [Watching inside
                            # ops]); whether its calls are watched is _C's flag (_ag_unwatched)


def add(watcher):
    """Makes watcher see every op call from now on (until remove(watcher)).  A watcher whose
    attribute `innermost` is true (__torch_dispatch__, which runs the op itself) sees calls
    after the others, whenever it was added."""
    at = len(_watchers)
    if not getattr(watcher, "innermost", False):
        while at and getattr(_watchers[at - 1], "innermost", False):
            at -= 1
    _watchers.insert(at, watcher)
    if getattr(watcher, "sees_inside", False):
        _inside.append(watcher)
    _C._set_ag_watchers(len(_watchers))


def remove(watcher):
    _watchers.remove(watcher)
    if watcher in _inside:
        _inside.remove(watcher)
    _C._set_ag_watchers(len(_watchers))


def active():
    """Whether a call reaching the recorder goes to the watchers: some are active and this
    thread is not inside unwatched (an op that requires grad reaches the recorder also
    there)."""
    return bool(_watchers) and not _C._ag_unwatched()


class unwatched:
    """Calls inside are not watched on this thread (a watcher running the op itself)."""

    def __enter__(self):
        self._prev = _C._set_ag_unwatched(True)
        return self

    def __exit__(self, *exc):
        _C._set_ag_unwatched(self._prev)
        return False


def sees_inside():
    """Whether a watcher that sees inside ops is active (Note [Watching inside ops])."""
    return bool(_inside)


class inside:
    """A Python form runs: the calls it makes are watched again (the recorder runs ops
    unwatched), but seen only by the watchers that see inside ops (Note [Watching inside
    ops]); nothing changes while there are none."""

    def __enter__(self):
        self._on = bool(_inside)
        if self._on:
            _tls.depth = getattr(_tls, "depth", 0) + 1
            self._prev = _C._set_ag_unwatched(False)
        return self

    def __exit__(self, *exc):
        if self._on:
            _C._set_ag_unwatched(self._prev)
            _tls.depth -= 1
        return False


def seen_inside(fn):
    """fn, run inside(): a Python form whose calls the watchers that see inside ops see."""
    def form(*args, **kwargs):
        with inside():
            return fn(*args, **kwargs)
    return form


def dispatch(key, self, args, kwargs, run):
    """The call through every watcher, then run(key, self, args, kwargs)."""
    if key[0] == "c" or getattr(_tls, "depth", 0):
        chain = tuple(_inside)
    else:
        chain = tuple(_watchers)

    def step(i, args, kwargs):
        if i == len(chain):
            return run(key, self, args, kwargs)
        return chain[i](key, self, args, kwargs, lambda a, k: step(i + 1, a, k))
    return step(0, args, kwargs)
