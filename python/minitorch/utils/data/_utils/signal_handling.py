"""``torch.utils.data._utils.signal_handling``: the main process's registry of DataLoader
worker pids and the error for a worker that died.

The loader watches its workers' process sentinels (Note [The worker pool] in ../dataloader.py)
rather than a SIGCHLD handler; when one is gone, ``worker_failure_message`` words the error as
torch does (``DataLoader worker (pid N) is killed by signal: Segmentation fault.``).  Every
iterator with workers registers their pids here while they run, so
``_error_if_any_worker_fails()`` raises that error for any registered worker that has died
(without reaping it: the loader still joins it)."""
import os
import signal

__all__ = ["worker_failure_message"]

_worker_pids = {}          # key of a loader iterator -> tuple of its workers' pids


def worker_failure_message(pid, exitcode):
    """The error text for worker `pid` that exited with `exitcode` (multiprocessing's: negative
    for a signal)."""
    if exitcode is not None and exitcode < 0:
        try:
            name = signal.strsignal(-exitcode) or f"signal {-exitcode}"
        except ValueError:
            name = f"signal {-exitcode}"
        msg = f"DataLoader worker (pid {pid}) is killed by signal: {name}. "
        if -exitcode == signal.SIGBUS:
            msg += ("It is possible that dataloader's workers are out of shared memory. Please try "
                    "to raise your shared memory limit.")
        return msg
    return (f"DataLoader worker (pid {pid}) exited unexpectedly with exit code {exitcode}. Details "
            "are lost due to multiprocessing. Rerunning with num_workers=0 may give better error "
            "trace.")


def _set_worker_pids(key, pids):
    if key in _worker_pids:
        raise RuntimeError("_set_worker_pids should be called only once for each _BaseDataLoaderIter.")
    _worker_pids[key] = tuple(pids)


def _remove_worker_pids(key):
    if _worker_pids.pop(key, None) is None:
        raise RuntimeError("Cannot find worker information for _BaseDataLoaderIter with id "
                           f"{key}")


def _error_if_any_worker_fails():
    """Raises RuntimeError (worker_failure_message) when a registered worker has died."""
    for pids in list(_worker_pids.values()):
        for pid in pids:
            try:
                info = os.waitid(os.P_PID, pid, os.WEXITED | os.WNOHANG | os.WNOWAIT)
            except ChildProcessError:       # not our child (any more): reaped by its owner
                continue
            if info is None:
                continue
            if info.si_code in (os.CLD_KILLED, os.CLD_DUMPED):
                raise RuntimeError(worker_failure_message(pid, -info.si_status))
            if info.si_code == os.CLD_EXITED and info.si_status != 0:
                raise RuntimeError(worker_failure_message(pid, info.si_status))
