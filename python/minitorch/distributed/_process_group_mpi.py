"""ProcessGroupMPI, the "mpi" backend (torch's ProcessGroupMPI): the process group's operations run
by the MPI library of the job (Open MPI), opened at run time (Note [Loading MPI] in
csrc/distributed/mpi/mpi_lib.h) and driven from C (csrc/distributed/backend/mpi_backend.c).

Note [The MPI backend]
The job is started by mpirun or srun: MPI is the rendezvous, so an MPI group needs no store,
no MASTER_ADDR, and its rank and size are MPI's (init_process_group("mpi") ignores rank and
world_size, as torch does).  The C group is the same machinery as the CPU backend's (queue,
worker thread, Work, timeouts, Note [Process group execution]) with MPI's non-blocking calls
underneath, so this class is ProcessGroupGloo's front end (argument checks, local steps,
async_op) over another C group.  Differences from torch's MPI backend: lists of several
tensors are accepted as gloo accepts them, and ReduceOp.AVG is a SUM divided by the size.

Groups: the default group is a duplicate of MPI_COMM_WORLD; new_group splits it
(MPI_Comm_split, every rank of the job calling, as new_group is called); a group made by its
members alone (use_local_synchronization, split_group) is MPI_Comm_create_group's.  MPI is
finalised at exit, after the MPI groups, when minitorch initialised it (mpi4py finalises the
MPI it initialised itself).
"""
import atexit
import weakref
import zlib
from datetime import timedelta

from .._C import _c10d
from ._process_group import _Backend
from ._process_group_gloo import ProcessGroupGloo, _check_timeout, _GlooOptions
from ._store import _timeout_ms

__all__ = ["ProcessGroupMPI"]

_live = weakref.WeakSet()   # the MPI backends of this process (finalised at exit)
_exit_hook = False


def unavailable_reason():
    """None when an MPI library of a supported ABI loads here, else why not."""
    return _c10d._mpi_unavailable_reason()


def unavailable_error():
    return RuntimeError(f"Distributed package doesn't have MPI available: {unavailable_reason()}")


def _finalize_at_exit():
    for b in list(_live):
        b._shutdown()
    _c10d._mpi_finalize()


class ProcessGroupMPI(ProcessGroupGloo):
    """The MPI backend of a group (see Note [The MPI backend]); made by init_process_group("mpi"),
    new_group, or ``ProcessGroupMPI.create(ranks)``."""

    def __init__(self, cgroup, timeout=None, group_name=""):
        if not isinstance(cgroup, _c10d.ProcessGroupGloo):
            raise TypeError("ProcessGroupMPI is made by init_process_group('mpi'), new_group "
                            "or ProcessGroupMPI.create()")
        timeout = _check_timeout(timeout)
        _Backend.__init__(self, cgroup.rank(), cgroup.size())
        self._cgroup = cgroup
        self._store = None
        self._timeout = timeout
        self._pending = []
        self._mb_seq = 0
        self._seq = 0
        self._options = _GlooOptions()
        self._options._timeout = timeout
        self._options.backend = "mpi"
        self._options.group_name = group_name
        _live.add(self)

    # ------------------------------------------------------------------ construction

    @classmethod
    def _world(cls, timeout=None):
        """The group of every process of the MPI job (initialises MPI)."""
        global _exit_hook
        if unavailable_reason() is not None:
            raise unavailable_error()
        timeout = _check_timeout(timeout)
        cgroup = _c10d._mpi_world(_timeout_ms(timeout))
        if not _exit_hook:
            atexit.register(_finalize_at_exit)
            _exit_hook = True
        return cls(cgroup, timeout, "mpi_world")

    @classmethod
    def create(cls, ranks=None):
        """torch's ProcessGroupMPI.create(ranks): the group of the job's ranks `ranks` (all when
        empty or None); every process of the job calls it.  None for the others."""
        world = cls._world()
        if not ranks:
            return world
        return world._split_members([int(r) for r in ranks], world._timeout, "")

    def _split_members(self, ranks, timeout, name):
        """MPI_Comm_split of this group: `ranks` (group ranks, in the new order) are the
        members; every rank of this group calls it.  None for the others."""
        me = self.rank()
        color, key = (0, ranks.index(me)) if me in ranks else (-1, 0)
        cg = _c10d._mpi_split(self._cgroup, color, key, _timeout_ms(timeout))
        return None if cg is None else ProcessGroupMPI(cg, timeout, name)

    def _create_members(self, ranks, timeout, name):
        """The group of `ranks` (group ranks, in order), which only they call."""
        tag = zlib.crc32((name + ":" + ",".join(map(str, ranks))).encode()) & 0x3fffffff
        cg = _c10d._mpi_create_group(self._cgroup, ranks, tag, _timeout_ms(timeout))
        return ProcessGroupMPI(cg, timeout, name)

    def split(self, store, ranks, opts=None):
        ranks = [int(r) for r in ranks]
        if self.rank() not in ranks:
            return None
        timeout = opts._timeout if opts is not None else self._timeout
        return self._create_members(ranks, timeout, getattr(opts, "group_name", "") or "")

    def split_group(self, ranks, timeout=None, opts=None, group_name=None, group_desc=None):
        ranks = [int(r) for r in ranks]
        if self.rank() not in ranks:
            return None
        if timeout is None and opts is not None:
            timeout = opts._timeout
        timeout = _check_timeout(timeout) if timeout is not None else self._timeout
        return self._create_members(ranks, timeout, group_name or "")

    # ------------------------------------------------------------------ the group

    def getBackendName(self):
        return "mpi"

    def monitored_barrier(self, timeout=None, wait_all_ranks=False):
        raise ValueError("monitored_barrier is only implemented for GLOO backend.")

    def _shutdown(self):
        """Finishes the queued operations and frees the communicators (before MPI_Finalize)."""
        if self._cgroup.is_alive():
            self._cgroup.destroy()

    def __repr__(self):
        return f"<ProcessGroupMPI rank={self._rank} size={self._size}>"


default_pg_timeout = timedelta(minutes=30)
