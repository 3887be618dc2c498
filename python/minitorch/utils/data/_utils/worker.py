"""Which data-loading worker (if any) the current process is, ``get_worker_info()``, and the
NumPy seed of a worker, as ``torch.utils.data._utils.worker``.

Contract with the worker loop (../_worker.py): the module-level variable ``_worker_info`` of
THIS module (``minitorch.utils.data._utils.worker._worker_info``) is ``None`` in every process
except a DataLoader worker.  A worker process sets it once, before it calls ``worker_init_fn``
or touches the dataset, to ``WorkerInfo(id=..., num_workers=..., seed=..., dataset=...)``
describing itself, and never changes it afterwards.  ``get_worker_info()`` only reads it, and
so does default_collate (a batch built in a worker process goes to shared memory).  A worker
thread (``DataLoader(worker_mode="thread")``) sets ``_thread_state.info`` instead, for its own
thread only, while it runs; ``get_worker_info()`` prefers it.
"""
import threading

import numpy as np

from . import MP_STATUS_CHECK_INTERVAL  # noqa: F401  (torch's name here too)

__all__ = ["WorkerInfo", "get_worker_info"]


class WorkerInfo:
    """Read-only description of a data-loading worker: its ``id`` (0 to ``num_workers - 1``),
    ``num_workers``, the ``seed`` its random generators were seeded with, and ``dataset``, this
    process's own copy of the dataset."""

    __slots__ = ("id", "num_workers", "seed", "dataset")

    def __init__(self, *, id, num_workers, seed, dataset):  # noqa: A002 - torch's field name
        for name, value in (("id", id), ("num_workers", num_workers), ("seed", seed),
                            ("dataset", dataset)):
            object.__setattr__(self, name, value)

    def __setattr__(self, name, value):
        raise RuntimeError(f"Cannot assign attributes to {type(self).__name__} objects")

    def __delattr__(self, name):
        raise RuntimeError(f"Cannot assign attributes to {type(self).__name__} objects")

    def __repr__(self):
        fields = ", ".join(f"{k}={getattr(self, k)}" for k in self.__slots__)
        return f"{type(self).__name__}({fields})"


_worker_info = None  # a WorkerInfo in a worker process; see the module docstring
# a DataLoader worker thread (worker_mode="thread") has its WorkerInfo here (`info`) while it runs
_thread_state = threading.local()


def get_worker_info():
    """The WorkerInfo of the current DataLoader worker process or thread, or None outside
    workers."""
    info = getattr(_thread_state, "info", None)
    return _worker_info if info is None else info


def _generate_state(base_seed, worker_id):
    """The NumPy seed of worker `worker_id` for the epoch's `base_seed`: four 32-bit words of
    NumPy's SeedSequence over (worker_id, base_seed), the words torch seeds NumPy with."""
    return [int(w) for w in np.random.SeedSequence([worker_id, base_seed]).generate_state(4)]
