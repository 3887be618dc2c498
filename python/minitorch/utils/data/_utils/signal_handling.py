"""``torch.utils.data._utils.signal_handling``: the main process's registry of DataLoader
worker pids and the error for a worker that died.

The loader watches its workers' process sentinels (Note [The worker pool] in ../dataloader.py)
rather than a SIGCHLD handler; when one is gone, ``worker_failure_message`` words the error as
torch does (``DataLoader worker (pid N) is killed by signal: Segmentation fault.``).  Every
iterator with workers registers their pids here while they run, so
``_error_if_any_worker_fails()`` raises that error for any registered worker that has died
(without reaping it: the loader still joins it; a worker forked by the loader's zygote under
spawn/forkserver is not this process's child, and its exit code is the one the zygote
reported)."""
import os
import signal

__all__ = ["worker_failure_message"]

_worker_pids = {}          # key of a loader iterator -> tuple of its workers' pids
# pid -> the ForkedWorker of a worker that is not this process's child (spawn/forkserver
# workers are forked by the loader's zygote, Note [Worker zygote]): its exit code comes from
# the zygote's reports
_forked = {}


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


def _set_forked_workers(key, workers):
    """_set_worker_pids for workers the loader's zygote forked (their ForkedWorker objects)."""
    _set_worker_pids(key, [w.pid for w in workers])
    for w in workers:
        _forked[w.pid] = w


def _remove_worker_pids(key):
    pids = _worker_pids.pop(key, None)
    if pids is None:
        raise RuntimeError("Cannot find worker information for _BaseDataLoaderIter with id "
                           f"{key}")
    for pid in pids:
        _forked.pop(pid, None)


def _forget_worker_pids(key):
    """_remove_worker_pids when there may be nothing registered (shutdown)."""
    for pid in _worker_pids.pop(key, ()):
        _forked.pop(pid, None)


def _error_if_any_worker_fails():
    """Raises RuntimeError (worker_failure_message) when a registered worker has died."""
    for pids in list(_worker_pids.values()):
        for pid in pids:
            try:
                info = os.waitid(os.P_PID, pid, os.WEXITED | os.WNOHANG | os.WNOWAIT)
            except ChildProcessError:       # not our child (any more): reaped by its owner
                forked = _forked.get(pid)
                code = None if forked is None else forked.exitcode
                if code:
                    raise RuntimeError(worker_failure_message(pid, code)) from None
                continue
            if info is None:
                continue
            if info.si_code in (os.CLD_KILLED, os.CLD_DUMPED):
                raise RuntimeError(worker_failure_message(pid, -info.si_status))
            if info.si_code == os.CLD_EXITED and info.si_status != 0:
                raise RuntimeError(worker_failure_message(pid, info.si_status))
