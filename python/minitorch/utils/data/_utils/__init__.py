"""``minitorch.utils.data._utils``: the private module layout of ``torch.utils.data._utils``,
which programs and tests import (``_utils.collate.default_collate``,
``_utils.worker.get_worker_info``, ``_utils.MP_STATUS_CHECK_INTERVAL`` ...).

Each submodule names minitorch's own machinery where torch has the same thing: collate.py
re-exports ../_collate.py, fetch.py the fetchers of ../_fetch.py, worker.py is where the worker
identity lives (get_worker_info), signal_handling.py the registry of worker pids and the
message for a worker that died, pin_memory.py pinning a batch.  Submodules load on first
use, so importing this package costs nothing."""
import importlib
import sys

from minitorch._utils import ExceptionWrapper  # noqa: F401  (as torch's _utils)

IS_WINDOWS = sys.platform == "win32"

# Seconds between checks of an idle worker that its main process is still alive (torch's name).
MP_STATUS_CHECK_INTERVAL = 5.0

try:
    import numpy  # noqa: F401
    HAS_NUMPY = True
except ImportError:  # pragma: no cover - NumPy is a dependency
    HAS_NUMPY = False

_SUBMODULES = frozenset({"collate", "fetch", "pin_memory", "signal_handling", "worker"})

__all__ = ["ExceptionWrapper", "HAS_NUMPY", "IS_WINDOWS", "MP_STATUS_CHECK_INTERVAL",
           "collate", "fetch", "pin_memory", "signal_handling", "worker"]


def __getattr__(name):
    if name in _SUBMODULES:
        return importlib.import_module(f"{__name__}.{name}")
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
