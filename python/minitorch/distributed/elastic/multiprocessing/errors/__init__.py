"""``@record``: a worker's uncaught exception goes to the error file its launcher named
(TORCHELASTIC_ERROR_FILE), so that the launcher's failure report shows its traceback
(Note [Worker logs] in minitorch/distributed/_worker_logs.py).  The file is JSON, as
torch's: {"message": {"message": "Type: text", "extraInfo": {"py_callstack": traceback,
"timestamp": seconds}}}."""
import functools
import json
import os
import sys
import time
import traceback

from ....run import ChildFailedError

__all__ = ["record", "ErrorHandler", "get_error_handler", "ChildFailedError"]


class ErrorHandler:
    """Writes an exception to the file named by TORCHELASTIC_ERROR_FILE (or to stderr when
    there is none)."""

    def _get_error_file_path(self):
        return os.environ.get("TORCHELASTIC_ERROR_FILE")

    def initialize(self):
        """Kept for torch's API: Python-level faulthandler setup is not needed here."""

    def record_exception(self, e):
        data = {"message": {"message": f"{type(e).__name__}: {e}",
                            "extraInfo": {"py_callstack": "".join(traceback.format_exception(e)),
                                          "timestamp": str(int(time.time()))}}}
        path = self._get_error_file_path()
        if not path:
            print(json.dumps(data, indent=2), file=sys.stderr)
            return
        tmp = path + ".tmp"
        with open(tmp, "w") as f:
            json.dump(data, f)
        os.replace(tmp, path)  # the launcher never reads half a file


def get_error_handler():
    return ErrorHandler()


def record(fn=None, error_handler=None):
    """Decorates a worker's entry point: an exception it raises is written to the error file
    and raised again.  ``SystemExit(0)`` is a normal end (returns None)."""
    if fn is None:
        return functools.partial(record, error_handler=error_handler)
    handler = error_handler or get_error_handler()

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        handler.initialize()
        try:
            return fn(*args, **kwargs)
        except SystemExit as e:
            if e.code == 0:
                return None
            raise
        except BaseException as e:
            handler.record_exception(e)
            raise

    return wrapper
