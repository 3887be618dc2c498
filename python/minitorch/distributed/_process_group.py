"""ProcessGroup, the front end of a group of ranks (torch's c10d ProcessGroup), and _Backend, the
base of what serves it.

Note [One backend per device type]
A ProcessGroup holds one backend per device type (``_register_backend(device, backend_type,
backend)``): minitorch's CPU backend (ProcessGroupGloo, over csrc/distributed), a user backend
made by a creator registered with Backend.register_backend, MPI's (ProcessGroupMPI), and in
time NCCL.  Each
operation method (allreduce, broadcast, ..., send, recv) finds the device of its tensors, hands
the call, unchanged, to that device's backend, and counts it (_get_sequence_number_for_group);
a device no backend serves raises torch's "No backend type associated with device type ...".
An operation without tensors (barrier, monitored_barrier) goes to the default backend
(``_set_default_backend``, else the first registered).  The module functions of
distributed_c10d.py check their arguments once, in torch's words, and call these methods; the
backends check what they alone know (gloo's words for the CPU backend).

A creator may also return a ProcessGroup subclass that implements the methods itself (torch's
older user-defined groups): that object is then the group, and its methods are called directly.
"""
from datetime import timedelta

import minitorch as _mt

from ._backend import BackendType

__all__ = ["ProcessGroup"]

# the operation methods handed to a backend, each counted as one issued operation
_OPERATIONS = ("allreduce", "allreduce_coalesced", "reduce", "reduce_scatter",
               "reduce_scatter_single", "reduce_scatter_tensor_coalesced", "broadcast",
               "allgather", "allgather_coalesced", "all_gather_single",
               "allgather_into_tensor_coalesced", "gather", "scatter", "alltoall",
               "alltoall_base", "barrier", "send", "recv", "recv_anysource")
# the same methods under torch's other names
_ALIASES = {"_reduce_scatter_base": "reduce_scatter_single", "_allgather_base": "all_gather_single",
            "reduce_scatter_single_coalesced": "reduce_scatter_tensor_coalesced",
            "all_gather_single_coalesced": "allgather_into_tensor_coalesced"}


class _Backend:
    """The base of a backend (torch's c10d Backend): a rank, a size and a name; a subclass
    implements the operations it supports with ProcessGroup's signatures."""

    def __init__(self, rank, size):
        for v, what in ((rank, "rank"), (size, "size")):
            if isinstance(v, bool) or not isinstance(v, int):
                raise TypeError(f"{type(self).__name__}(): {what} must be an int, not "
                                f"{type(v).__name__}")
        if size < 1 or not 0 <= rank < size:
            raise ValueError(f"{type(self).__name__}(): invalid rank {rank} for size {size}")
        self._rank = rank
        self._size = size

    def rank(self):
        return self._rank

    def size(self):
        return self._size

    def name(self):
        return self.getBackendName()

    def getBackendName(self):
        return "undefined"

    def _alive(self):
        return True


def _device_type(x):
    """The device type of the first tensor in `x` (a tensor, or lists of them), or None."""
    if isinstance(x, _mt.Tensor):
        return x.device.type
    if isinstance(x, (list, tuple)):
        for y in x:
            d = _device_type(y)
            if d is not None:
                return d
    return None


def _device_key(device):
    if isinstance(device, str):
        return _mt.device(device).type
    if isinstance(device, _mt.device):
        return device.type
    raise TypeError(f"device must be a torch.device or a str, not {type(device).__name__}")


class ProcessGroup:
    """A group of ranks: ``ProcessGroup(rank, size)`` or ``ProcessGroup(store, rank, size)``,
    served by one backend per device type (see Note [One backend per device type])."""

    BackendType = BackendType

    def __init__(self, *args):
        if len(args) == 3:
            store, rank, size = args
        elif len(args) == 2:
            store, (rank, size) = None, args
        else:
            raise TypeError(f"ProcessGroup() takes (rank, size) or (store, rank, size), got "
                            f"{len(args)} arguments")
        for v, what in ((rank, "rank"), (size, "size")):
            if isinstance(v, bool) or not isinstance(v, int):
                raise TypeError(f"ProcessGroup(): {what} must be an int, not {type(v).__name__}")
        if size < 1 or not 0 <= rank < size:
            raise ValueError(f"ProcessGroup(): invalid rank {rank} for size {size}")
        self._rank = rank
        self._size = size
        self._store = store
        self._backends = {}         # device type -> backend
        self._backend_types = {}    # device type -> BackendType
        self._default_type = None   # BackendType of barrier & co
        self._cpu_cgroup = None     # the C group of a CPU backend of ours (all_reduce's fast path)
        self._destroyed = False
        self._seq = 0               # operations issued (_get_sequence_number_for_group)
        # what distributed_c10d records about the group
        self._ranks = list(range(size))
        self._group_rank = {g: g for g in self._ranks}
        self._backend = "undefined"
        self._config = {}           # device type -> backend name, as requested
        self._name = f"pg_{id(self):x}"
        self._desc = "undefined"
        self._timeout = timedelta(minutes=30)
        self._mb_seq = 0

    # ---------------------------------------------------------------- backends

    def _register_backend(self, device, backend_type, backend):
        """`backend` serves the tensors of `device`'s type."""
        key = _device_key(device)
        self._backends[key] = backend
        self._backend_types[key] = BackendType(backend_type)
        if self._default_type is None:
            self._default_type = BackendType(backend_type)
        if key == "cpu":
            self._cpu_cgroup = getattr(backend, "_cgroup", None)

    def _set_default_backend(self, backend_type):
        self._default_type = BackendType(backend_type)

    def _get_backend(self, device):
        """The backend serving `device` (a torch.device or a device string)."""
        key = _device_key(device)
        b = self._backends.get(key)
        if b is None:
            raise RuntimeError(f"No backend type associated with device type {key}")
        return b

    def get_backend(self, device):
        return self._get_backend(device)

    def _default_backend(self):
        for key, t in self._backend_types.items():
            if t == self._default_type:
                return self._backends[key]
        raise RuntimeError("No backend type associated with device type cpu" if not self._backends
                           else "the group has no default backend")

    def _backend_of(self, method, args):
        key = _device_type(args)
        b = self._default_backend() if key is None else self._backends.get(key)
        if b is None:
            raise RuntimeError(f"No backend type associated with device type {key}")
        fn = getattr(b, method, None)
        if fn is None:
            raise NotImplementedError(f"the {b.name()} backend does not implement {method}")
        return fn

    @property
    def _device_types(self):
        return [_mt.device(k) for k in self._backends]

    def _get_backend_name(self):
        return self.getBackendName()

    def name(self):
        """The name of the group's default backend (torch's ProcessGroup.name())."""
        return self.getBackendName()

    def getBackendName(self):
        if not self._backends:
            return "undefined"
        return self._default_backend().name()

    # ---------------------------------------------------------------- the group

    def rank(self):
        return self._rank

    def size(self):
        return self._size

    @property
    def bound_device_id(self):
        """The device init_process_group(device_id=...) bound the group to, else None."""
        return getattr(self, "_bound_device_id", None)

    @property
    def group_name(self):
        return self._name

    @property
    def group_desc(self):
        """A description given at creation (new_group's group_desc; "default_pg")."""
        return self._desc

    @property
    def options(self):
        return self._default_backend().options

    def _get_sequence_number_for_group(self):
        return self._seq

    def _unique_backends(self):
        seen = []
        for b in self._backends.values():
            if all(b is not s for s in seen):
                seen.append(b)
        return seen

    def _alive(self):
        """False once aborted."""
        return not self._destroyed and all(b._alive() for b in self._unique_backends()
                                           if hasattr(b, "_alive"))

    def set_timeout(self, timeout):
        """The time each later operation of every backend may take (a timedelta)."""
        for b in self._unique_backends():
            fn = getattr(b, "set_timeout", None)
            if fn is None:
                raise NotImplementedError(f"the {b.name()} backend does not support set_timeout")
            fn(timeout)
        self._timeout = timeout

    _set_default_timeout = set_timeout

    def abort(self):
        """Fails the pending operations of every backend and closes its connections."""
        for b in self._unique_backends():
            fn = getattr(b, "abort", None)
            if callable(fn):
                fn()
        self._destroyed = True

    def shutdown(self):
        """destroy_process_group's part on the group: a backend with a shutdown() is shut down;
        minitorch's CPU backend finishes its queued operations when the group goes (Note
        [Destroyed groups] in distributed_c10d.py)."""
        for b in self._unique_backends():
            fn = getattr(b, "shutdown", None)
            if callable(fn):
                fn()

    def monitored_barrier(self, timeout=None, wait_all_ranks=False):
        return self._default_backend().monitored_barrier(timeout, wait_all_ranks)

    def split_group(self, ranks, timeout=None, opts=None, group_name=None, group_desc=None):
        """A group of `ranks` (ranks of this group, this rank among them) with each backend
        split (ProcessGroupGloo.split_group); None when this rank is not in `ranks`.  The other
        members call it with the same ranks and group_name."""
        ranks = [int(r) for r in ranks]
        if self.rank() not in ranks:
            return None
        made = {}
        pg = ProcessGroup(ranks.index(self.rank()), len(ranks))
        for key, b in self._backends.items():
            if id(b) not in made:
                made[id(b)] = b.split_group(ranks, timeout, opts, group_name, group_desc)
            pg._register_backend(key, self._backend_types[key], made[id(b)])
        pg._set_default_backend(self._default_type)
        pg._ranks = [self._ranks[r] for r in ranks]
        pg._group_rank = {g: i for i, g in enumerate(pg._ranks)}
        pg._backend = self._backend
        pg._config = dict(self._config)
        pg._name = group_name or pg._name
        pg._desc = group_desc if group_desc is not None else "undefined"
        pg._timeout = timeout if timeout is not None else self._timeout
        return pg

    def __repr__(self):
        return f"<ProcessGroup {self._name!r} backend={self._backend} ranks={self._ranks}>"


def _operation(method):
    def op(self, *args, **kwargs):
        fn = self._backend_of(method, (args, tuple(kwargs.values())))
        w = fn(*args, **kwargs)
        self._seq += 1
        return w
    op.__name__ = op.__qualname__ = method
    op.__doc__ = f"Hands {method} to the backend of its tensors' device (Note [One backend per " \
                 "device type])."
    return op


for _name in _OPERATIONS:
    setattr(ProcessGroup, _name, _operation(_name))
for _alias, _name in _ALIASES.items():
    setattr(ProcessGroup, _alias, getattr(ProcessGroup, _name))
del _name, _alias
