"""Which data-loading worker (if any) the current process is: ``get_worker_info()``.

Contract with the worker loop: the module-level variable ``_worker_info`` of THIS module
(``minitorch.utils.data._worker_info._worker_info``) is ``None`` in every process except a
DataLoader worker. A worker process sets it once, before it calls ``worker_init_fn`` or touches
the dataset, to ``WorkerInfo(id=..., num_workers=..., seed=..., dataset=...)`` describing itself,
and never changes it afterwards. ``get_worker_info()`` only reads it. (Assigning to the package
attribute ``minitorch.utils.data._worker_info`` would replace the module object there and is not
the contract.)
"""
from dataclasses import dataclass

__all__ = ["WorkerInfo", "get_worker_info"]


@dataclass(frozen=True, slots=True)
class WorkerInfo:
    """Read-only description of a data-loading worker: its ``id`` (0 to ``num_workers - 1``),
    ``num_workers``, the ``seed`` its random generators were seeded with, and ``dataset``, this
    process's own copy of the dataset."""

    id: int
    num_workers: int
    seed: int
    dataset: object


_worker_info = None  # a WorkerInfo in a worker process; see the module docstring


def get_worker_info():
    """The WorkerInfo of the current DataLoader worker process, or None outside workers."""
    return _worker_info
