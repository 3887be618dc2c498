"""Where the workers of ``minitorch.distributed.run`` write: --redirects, --tee, --log-dir and
--local-ranks-filter (Note [Worker logs])."""
# Note [Worker logs]
# As torchrun's: a stream choice is 0 (none), 1 (stdout), 2 (stderr) or 3 (both), for every
# local rank ("3") or per local rank ("0:1,1:2"; ranks not named get 0).
#   --redirects  the chosen streams go to files only
#   --tee        the chosen streams go to files and to the launcher's console, each line
#                prefixed with "[<role><local rank>]:"
#   --local-ranks-filter=0,2  only those local ranks reach the console (their files are kept)
# The files are <log dir>/<run id>_<random>/attempt_<restart count>/<local rank>/stdout.log
# and stderr.log, one job directory per launcher (made once, by tempfile.mkdtemp); without
# --log-dir the base is a new temporary directory (minitorch_elastic_*), as torch's.  A
# restart after a failure counts up the attempt; a restart because nodes joined or
# left (not counted, as torch's) appends to the current attempt's files.  The launcher reads
# each piped stream line by line in a thread, so a worker's lines are never interleaved
# mid-line; the streams nobody asked about are inherited (stdout) or passed through
# unchanged (stderr, whose tail is kept for the failure report).
# Each worker is told TORCHELASTIC_ERROR_FILE: <rank dir>/error.json with a log directory,
# else a file in a scratch directory of the launcher (removed when it exits).  A worker's
# @record (minitorch.distributed.elastic.multiprocessing.errors) writes its exception
# there, and the launcher's failure report shows that traceback.
import os
import re
import shutil
import tempfile

__all__ = ["Std", "parse_std", "to_map", "LogsSpecs"]

_VALUE = re.compile(r"^[0123]$")
_MAPPING = re.compile(r"^(\d:[0123],)*(\d:[0123])$")


class Std:
    NONE, OUT, ERR, ALL = 0, 1, 2, 3


def parse_std(text, option):
    """'N' -> N, 'r:N,r:N' -> {r: N} (torch's forms); anything else raises ValueError."""
    text = str(text)
    if _VALUE.match(text):
        return int(text)
    if _MAPPING.match(text):
        return {int(r): int(v) for r, v in (m.split(":") for m in text.split(","))}
    raise ValueError(f"{option}={text}: does not match: <{_VALUE.pattern}> or <{_MAPPING.pattern}>")


def to_map(value, nprocs):
    """A choice for every local rank 0 .. nprocs-1."""
    if isinstance(value, dict):
        return {r: value.get(r, Std.NONE) for r in range(nprocs)}
    return dict.fromkeys(range(nprocs), value)


def parse_ranks_filter(text):
    if not text:
        return None
    try:
        ranks = {int(r) for r in text.split(",")}
    except ValueError:
        raise ValueError("--local_ranks_filter must be a comma-separated list of integers e.g. "
                         "--local_ranks_filter=0,1,2") from None
    return ranks


class LogsSpecs:
    """The launcher's choice of worker outputs; `destinations` says it per attempt and rank."""

    def __init__(self, log_dir=None, redirects=Std.NONE, tee=Std.NONE, local_ranks_filter=None):
        if log_dir is not None and os.path.isfile(log_dir):
            raise NotADirectoryError(f"log_dir: {log_dir} is a file")
        self.log_dir = log_dir
        self.redirects, self.tee = redirects, tee
        self.local_ranks_filter = local_ranks_filter
        self.run_log_dir = None  # made on the first attempt that writes files
        self._scratch = None  # error files when there is no log directory

    def cleanup(self):
        """Removes the launcher's scratch directory of error files."""
        if self._scratch is not None:
            shutil.rmtree(self._scratch, ignore_errors=True)
            self._scratch = None

    def _error_file(self, rank_dir, restart_count, local_rank):
        if rank_dir is not None:
            path = os.path.join(rank_dir, "error.json")
        else:
            if self._scratch is None:
                self._scratch = tempfile.mkdtemp(prefix="minitorch_elastic_errors_")
            path = os.path.join(self._scratch, f"attempt_{restart_count}_{local_rank}.json")
        try:
            os.unlink(path)  # from an earlier run of this attempt (a new round)
        except FileNotFoundError:
            pass
        return path

    def wants_files(self, nprocs):
        r, t = to_map(self.redirects, nprocs), to_map(self.tee, nprocs)
        return any(r[i] | t[i] for i in range(nprocs))

    def destinations(self, run_id, restart_count, nprocs):
        """{local_rank: Dest} for one attempt (creating the directories)."""
        redirects, tee = to_map(self.redirects, nprocs), to_map(self.tee, nprocs)
        attempt_dir = None
        if self.log_dir is not None or self.wants_files(nprocs):
            if self.run_log_dir is None:
                base = self.log_dir or tempfile.mkdtemp(prefix="minitorch_elastic_")
                os.makedirs(base, exist_ok=True)
                self.run_log_dir = tempfile.mkdtemp(prefix=f"{run_id}_", dir=base)
            attempt_dir = os.path.join(self.run_log_dir, f"attempt_{restart_count}")
        dests = {}
        for r in range(nprocs):
            shown = self.local_ranks_filter is None or r in self.local_ranks_filter
            rank_dir = None
            if attempt_dir is not None:
                rank_dir = os.path.join(attempt_dir, str(r))
                os.makedirs(rank_dir, exist_ok=True)
            dests[r] = Dest(rank_dir, redirects[r] | tee[r], tee[r], redirects[r], shown)
            dests[r].error_file = self._error_file(rank_dir, restart_count, r)
        return dests


class Dest:
    """One worker's outputs: for each stream (1 stdout, 2 stderr) a file or not, and how it
    reaches the console: "plain", "prefixed" or None."""

    def __init__(self, rank_dir, to_file, teed, redirected, shown):
        self.rank_dir = rank_dir
        self.error_file = None
        self.files = {}
        self.console = {}
        for bit, name in ((Std.OUT, "stdout"), (Std.ERR, "stderr")):
            self.files[bit] = os.path.join(rank_dir, f"{name}.log") if (to_file & bit and rank_dir) else None
            if not shown:
                self.console[bit] = None
            elif teed & bit:
                self.console[bit] = "prefixed"
            elif redirected & bit:
                self.console[bit] = None
            else:
                self.console[bit] = "plain"

    def needs_pipe(self, bit):
        return self.files[bit] is not None or self.console[bit] != "plain"
