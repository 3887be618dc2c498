"""The store-based monitored barrier of a group (torch's monitored_barrier), shared by the
module function and the CPU backend's method."""
import time
import warnings
from datetime import timedelta

from .._C import _c10d

DistError = _c10d.DistError
DistBackendError = _c10d.DistBackendError


# Note [monitored_barrier]
# As gloo's: every other rank reports to group rank 0, which alone enforces `timeout` and names
# the ranks that did not arrive; then it releases them.  Here the reports and the release go
# through the group's store.  Rank 0's waits share the one `timeout` (with wait_all_ranks each
# rank gets all of it, so that every late rank can be named); it raises "[Rank 0]: Rank r failed
# to pass monitoredBarrier in N ms" (the first late rank; wait_all_ranks: "Ranks a, b").  The
# others wait for rank 0's verdict within the group's timeout, as gloo's do, and when rank 0
# failed raise "Rank r successfully reached monitoredBarrier, but received errors ..." with
# rank 0's error - at once, as rank 0 posts it, where gloo's learn of it from a timeout or a
# closed connection.  On success rank 0 returns once every rank has read the verdict (the store
# may be its server).  Ranks are the group's.


def timeout_arg(timeout, default):
    """monitored_barrier's timeout: a timedelta (seconds as a number, with a warning), or
    `default` for None."""
    if isinstance(timeout, (int, float)) and not isinstance(timeout, bool):
        warnings.warn("Please specify timeout arg as a timedelta. Converting current value of "
                      f"{timeout} assuming it represents seconds", stacklevel=3)
        timeout = timedelta(seconds=timeout)
    if timeout is None:
        return default
    if not isinstance(timeout, timedelta):
        raise TypeError("Expected timeout argument to be of type datetime.timedelta, got "
                        f"{type(timeout).__name__}")
    return timeout


def run(store, me, size, seq, timeout, group_timeout, wait_all_ranks=False):
    """The `seq`-th monitored barrier of the group of `size` ranks keeping its keys in
    `store`, on group rank `me`; see Note [monitored_barrier]."""
    ms = int(timeout.total_seconds() * 1000)
    base = f"monitored_barrier/{seq}"
    if me != 0:
        store.set(f"{base}/arrived/{me}", b"1")
        try:
            store.wait([f"{base}/done"], group_timeout)
            val = store.get(f"{base}/done")
            if val != b"ok":
                raise DistBackendError(val.decode(errors="replace"))
            if store.add(f"{base}/left", 1) == size - 1:  # the last to read the verdict
                store.set(f"{base}/all_left", b"1")
        except DistError as e:
            raise DistBackendError(
                f"Rank {me} successfully reached monitoredBarrier, but received errors while "
                "waiting for send/recv from rank 0. Please check rank 0 logs for faulty rank.\n"
                f" Original exception: \n{e}") from None
        return None
    start = time.monotonic()
    arrived, late = [], []
    for r in range(1, size):
        key = f"{base}/arrived/{r}"
        try:
            if wait_all_ranks:
                left = timeout.total_seconds()
            else:
                left = timeout.total_seconds() - (time.monotonic() - start)
                if left <= 0:
                    done = (f"Successfully processed ranks: {', '.join(map(str, arrived))}"
                            if arrived else "No ranks successfully processed in monitoredBarrier.")
                    raise DistBackendError(f"Rank {me} timed out in monitoredBarrier after {ms} "
                                           f"ms.\n{done}")
            store.wait([key], timedelta(seconds=left))
            arrived.append(r)
        except DistError as e:
            if wait_all_ranks:
                late.append(r)
                continue
            msg = f"[Rank 0]: Rank {r} failed to pass monitoredBarrier in {ms} ms"
            store.set(f"{base}/done", msg.encode())
            raise DistBackendError(f"{msg}\n Original exception: \n{e}") from None
    if late:
        msg = (f"[Rank 0]: Ranks {', '.join(map(str, late))} failed to pass monitoredBarrier in "
               f"{ms} ms")
        store.set(f"{base}/done", msg.encode())
        raise DistBackendError(msg)
    store.set(f"{base}/done", b"ok")
    if size > 1:
        # rank 0 may hold the store (a TCPStore's server): it leaves once every rank has read
        # the verdict, so that none finds the server gone
        store.wait([f"{base}/all_left"], group_timeout)
    return None
