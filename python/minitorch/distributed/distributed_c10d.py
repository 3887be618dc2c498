"""torch.distributed's module functions: init_process_group, new_group, the collectives,
point to point, the object collectives (pickle), and the registry of this process's groups.

Each collective checks its arguments once, the way torch's module functions do, maps global
ranks to group ranks and calls the group's method with torch's option objects (Note [One path
for every group]); the group hands it to the backend serving the tensors' device (Note [One
backend per device type] in _process_group.py): minitorch's CPU backend (ProcessGroupGloo,
_process_group_gloo.py, over csrc/distributed), the MPI backend (ProcessGroupMPI,
_process_group_mpi.py: Note [The MPI backend]), or a user backend registered with
Backend.register_backend (_backend.py).

Differences from torch's gloo backend: ``ReduceOp.AVG`` is supported for
floating dtypes (gloo rejects it).  Operations of one group run in issue
order on one queue; sends overtake pending receives and a receive nobody
waits for yet does not hold the queue (Note [Lone receives] in
csrc/distributed/backend/process_group.c), so irecv-before-isend exchanges
work, but a receive issued before a collective runs before it: the peer must
send that message before entering the same collective.
"""
import difflib
import functools
import hashlib
import inspect
import io
import logging
import os
import pickle
import time
import warnings
from datetime import timedelta

import numpy as _np

import minitorch as _mt
from minitorch import Tensor as _Tensor

from .._C import _c10d
from . import _debug
from . import _monitored_barrier
from . import _options
from ._options import *  # noqa: F401,F403
from ._backend import (Backend, BackendConfig, BackendType, _DistributedBackendOptions,
                       _parse_backend_string, is_backend_available, is_gloo_available,
                       is_mpi_available, is_nccl_available, is_ucc_available, is_xccl_available)
from ._debug import DebugLevel, get_debug_level, set_debug_level, set_debug_level_from_env
from ._process_group import _OPERATIONS, ProcessGroup, _Backend
from ._process_group_gloo import ProcessGroupGloo, _GlooOptions, _check_timeout
from ._process_group_nccl import ProcessGroupNCCL
from ._process_group_mpi import ProcessGroupMPI
from . import _process_group_mpi
from ._reduce_op import (_OP_EXTRA, _SUM, ReduceOp, _RedOpType, _as_reduce_op,
                         _make_nccl_premul_sum, _op_value, reduce_op)
from ._store import FileStore, HashStore, PrefixStore, Store, TCPStore
from . import _auth
from ._work import Work

__all__ = [
    "Backend", "ReduceOp", "reduce_op", "GroupMember", "group", "Work", "P2POp",
    "DistError", "DistBackendError", "DistStoreError", "DistNetworkError",
    "is_available", "is_initialized", "is_gloo_available", "is_nccl_available",
    "is_mpi_available", "is_ucc_available", "is_xccl_available", "is_torchelastic_launched",
    "is_backend_available", "BackendConfig", "get_node_local_rank", "get_backend_impl",
    "get_backend_config",
    "init_process_group", "destroy_process_group", "new_group", "get_rank", "get_world_size",
    "get_backend", "get_process_group_ranks", "get_global_rank", "get_group_rank",
    "default_pg_timeout",
    "broadcast", "all_reduce", "reduce", "all_gather", "all_gather_into_tensor", "gather",
    "scatter", "reduce_scatter", "reduce_scatter_tensor", "all_to_all", "all_to_all_single",
    "all_reduce_multigpu", "broadcast_multigpu", "reduce_multigpu", "all_gather_multigpu",
    "reduce_scatter_multigpu",
    "barrier", "monitored_barrier", "send", "recv", "isend", "irecv", "batch_isend_irecv",
    "all_gather_object", "broadcast_object_list", "gather_object", "scatter_object_list",
    "DebugLevel", "get_debug_level", "set_debug_level", "set_debug_level_from_env",
    "all_reduce_coalesced", "all_gather_coalesced", "ProcessGroupGloo", "ProcessGroup",
    "set_timeout", "reduce_scatter_single", "all_gather_single", "ProcessGroupNCCL",
    "ProcessGroupMPI",
] + _options.__all__

DistError = _c10d.DistError
DistBackendError = _c10d.DistBackendError
DistStoreError = _c10d.DistStoreError
DistNetworkError = _c10d.DistNetworkError

default_pg_timeout = timedelta(minutes=30)

_logger = logging.getLogger("minitorch.distributed")


def is_available():
    return True


def is_torchelastic_launched():
    return os.getenv("TORCHELASTIC_RUN_ID") is not None


def get_node_local_rank(fallback_rank=None):
    """The rank of this process among those of its node: $LOCAL_RANK (set by torchrun), else
    mpirun's or srun's (Note [Launcher environments] in _launcher_env.py), else
    `fallback_rank`."""
    from . import _launcher_env
    v, _ = _launcher_env.lookup("LOCAL_RANK")
    if v is not None:
        return int(v)
    if fallback_rank is not None:
        return int(fallback_rank)
    raise RuntimeError("LOCAL_RANK is not in the environment. Consider passing fallback_rank to "
                       "allow `get_node_local_rank` to work, assuming you are not running in a "
                       "multi-device context and want the code to run locally instead.")


_Work = Work  # torch's name of the base class user-defined backends subclass


class _NonGroupMember:
    def __repr__(self):
        return "GroupMember.NON_GROUP_MEMBER"


class _WorldMeta(type):
    @property
    def WORLD(cls):
        return _world.default_pg

    @WORLD.setter
    def WORLD(cls, pg):
        _world.default_pg = pg


class GroupMember(metaclass=_WorldMeta):
    """``GroupMember.WORLD`` (the default group) and ``NON_GROUP_MEMBER``."""

    NON_GROUP_MEMBER = _NonGroupMember()


class group(metaclass=_WorldMeta):
    """``group.WORLD``: the default process group."""


class _World:
    def __init__(self):
        self.default_pg = None
        self.default_store = None
        self.groups = []      # every live ProcessGroup
        self.group_count = 0  # new_group calls since init
        self.init_count = 0   # default groups this process has made (Note [Re-initialising])
        self.pg_options = None
        self.hashed_names = {}  # Note [Locally synchronized groups]
        self.mpi_world = None   # the MPI backend new_group splits from (Note [The MPI backend])


_world = _World()


class _InitTwiceError(RuntimeError, ValueError):
    pass


def _get_default_group():
    return _default_pg()


def _get_default_store():
    _default_pg()
    return _world.default_store


def is_initialized():
    return _world.default_pg is not None


def _default_pg():
    if _world.default_pg is None:
        raise ValueError("Default process group has not been initialized, please make sure to "
                         "call init_process_group.")
    return _world.default_pg


def _resolve(group_):
    """The ProcessGroup for `group_` (None: WORLD); raises for aborted groups."""
    if group_ is None or group_ is GroupMember.WORLD:
        pg = _world.default_pg
        if pg is None:
            pg = _default_pg()  # raises
    elif isinstance(group_, ProcessGroup):
        pg = group_
    elif group_ is GroupMember.NON_GROUP_MEMBER:
        # reached in strict mode, or by calls torch also refuses (see Note [Non-members])
        me = -1 if _world.default_pg is None else _world.default_pg.rank()
        raise ValueError(f"Invalid process group specified: global rank {me} is not a member of "
                         "this group (new_group returned GroupMember.NON_GROUP_MEMBER to it); "
                         "only the group's members may call its collectives")
    else:
        raise TypeError(f"group must be a ProcessGroup, not {type(group_).__name__}")
    if not pg._alive():
        raise ValueError(f"Invalid process group specified: the group {pg._name!r} has been "
                         "aborted")
    return pg


def _rank_not_in_group(group_):
    return group_ is GroupMember.NON_GROUP_MEMBER


# Note [Non-members]
# A rank that new_group left out gets GroupMember.NON_GROUP_MEMBER; as in torch, its calls of
# collectives and send/recv on that "group" warn and do nothing (returning None, -1 for recv), so
# every rank may run `dist.all_reduce(t, group=sub)`.  That also hides a rank calling the wrong
# group by mistake, so the strict mode (MINITORCH_DISTRIBUTED_STRICT_GROUPS=1, or the DETAIL debug
# level) raises a ValueError there instead.
def _strict_groups():
    v = os.environ.get("MINITORCH_DISTRIBUTED_STRICT_GROUPS", "").strip().lower()
    return v in ("1", "true", "yes", "on") or _debug.level() == "DETAIL"


def _non_member_skips(op_name, result=None):
    """Decorator: when the call's `group` is NON_GROUP_MEMBER, warn and return `result` (torch),
    or raise in strict mode (Note [Non-members]).  The wrapper has the function's own signature
    (written out below), so the common call pays one comparison and one call, not the packing
    of *args/**kwargs."""
    def skip():
        if _strict_groups():
            return _NOT_SKIPPED
        me = -1 if _world.default_pg is None else _world.default_pg.rank()
        warnings.warn(f"Running {op_name} on global rank {me} which does not belong to the "
                      "given group.", stacklevel=3)
        return result

    def wrap(fn):
        code = fn.__code__
        assert not code.co_flags & (inspect.CO_VARARGS | inspect.CO_VARKEYWORDS), fn
        pos = code.co_varnames[:code.co_argcount]
        kwonly = code.co_varnames[code.co_argcount:code.co_argcount + code.co_kwonlyargcount]
        defaults = fn.__defaults__ or ()
        first_default = len(pos) - len(defaults)
        env = {"_fn": fn, "_skip": skip, "_NGM": GroupMember.NON_GROUP_MEMBER,
               "_NOT_SKIPPED": _NOT_SKIPPED}
        params = []
        for i, name in enumerate(pos):
            if i >= first_default:
                env[f"_d{i}"] = defaults[i - first_default]
                params.append(f"{name}=_d{i}")
            else:
                params.append(name)
        if kwonly:
            params.append("*")
            for name in kwonly:
                if name in (fn.__kwdefaults__ or {}):
                    env[f"_k_{name}"] = fn.__kwdefaults__[name]
                    params.append(f"{name}=_k_{name}")
                else:
                    params.append(name)
        args = ", ".join([*pos, *(f"{n}={n}" for n in kwonly)])
        src = (f"def {fn.__name__}({', '.join(params)}):\n"
               f"    if group is _NGM:\n"
               f"        r = _skip()\n"
               f"        if r is not _NOT_SKIPPED:\n"
               f"            return r\n"
               f"    return _fn({args})\n")
        exec(src, env)
        return functools.wraps(fn)(env[fn.__name__])
    return wrap


_NOT_SKIPPED = object()


def get_rank(group=None):
    """This process's rank in `group`, a registered group (-1 for a non-member)."""
    if _rank_not_in_group(group):
        return -1
    if group is None or group is GroupMember.WORLD:
        return _default_pg().rank()
    return _registered(group).rank()


def get_world_size(group=None):
    if _rank_not_in_group(group):
        return -1
    return _resolve(group).size()


def get_backend(group=None):
    return _resolve(group)._backend


def _get_process_group_name(pg):
    """The name of `pg` (its group_name)."""
    return _resolve(pg)._name


def get_backend_config(group=None):
    """The device:backend pairs of `group`, as torch's BackendConfig string."""
    pg = _resolve(group)
    return ",".join(f"{d}:{b}" for d, b in pg._config.items()) or f"cpu:{pg._backend}"


def _get_pg_config(group=None):
    """The configuration of `group` (None: the default group): name, description, backend
    configuration, size and global ranks."""
    pg = _resolve(group)
    return {"pg_name": pg._name, "pg_desc": pg.group_desc, "backend_config": get_backend_config(pg),
            "pg_size": pg.size(), "ranks": list(pg._ranks)}


def _get_process_group_store(pg):
    """The store `pg` keeps its keys in (a PrefixStore over the job's store)."""
    return _resolve(pg)._store


def get_process_group_ranks(group):
    return list(_resolve(group)._ranks)


def _registered(group):
    """The group, checked to be one of this process's groups (torch's "not registered")."""
    if isinstance(group, ProcessGroup) and group not in _world.groups:
        raise ValueError(f"Group {group} is not registered, please create group with "
                         "torch.distributed.new_group API")
    return _resolve(group)


def get_global_rank(group, group_rank):
    if group is GroupMember.WORLD and group is not None:
        return group_rank
    pg = _registered(group)
    if not 0 <= group_rank < pg.size():
        raise ValueError(f"Group rank {group_rank} is not part of group {pg}")
    return pg._ranks[group_rank]


def get_group_rank(group, global_rank):
    if group is GroupMember.WORLD and group is not None:
        return global_rank
    pg = _registered(group)
    if global_rank not in pg._group_rank:
        raise ValueError(f"Global rank {global_rank} is not part of group {pg}")
    return pg._group_rank[global_rank]


def _canonicalize_group_rank(group, global_rank=None, group_rank=None, return_global=False):
    """The group rank named by `global_rank` or `group_rank` (one of them), or with
    return_global the global rank."""
    if group_rank is not None:
        if global_rank is not None:
            raise ValueError("Can't specify both group_rank and global_rank")
        if return_global:
            return get_global_rank(group, group_rank)
        return group_rank
    if global_rank is None:
        raise ValueError("Must specify global_rank or group_rank")
    if return_global:
        return global_rank
    return get_group_rank(group, global_rank)


def get_backend_impl(group=None, device=None):
    """The backend implementation of `group` (a ProcessGroup, its name, or None for the default
    group) for `device`; a ProcessGroup subclass a user-defined backend made, serving itself,
    is its own."""
    if isinstance(group, str):
        pg = next((g for g in _world.groups if g._name == group), None)
        if pg is None:
            raise ValueError(f"Invalid process group specified: no group named {group!r}")
    else:
        if group is GroupMember.NON_GROUP_MEMBER:
            raise ValueError("Invalid process group specified")
        pg = _resolve(group)
    if not pg._backends:
        return pg
    return pg._get_backend(device if device is not None else _mt.device("cpu"))


def _group_peer(pg, global_rank, what):
    """Group rank of a global rank argument (src/dst)."""
    if isinstance(global_rank, bool) or not isinstance(global_rank, int):
        try:
            global_rank = global_rank.__index__()
        except AttributeError:
            raise TypeError(f"{what} must be an int, not {type(global_rank).__name__}") from None
    r = pg._group_rank.get(global_rank)
    if r is None:
        world = _world.default_pg.size() if _world.default_pg is not None else pg.size()
        if pg is _world.default_pg or not 0 <= global_rank < world:
            raise ValueError(f"Invalid {what} rank {global_rank}: it should be in the range "
                             f"[0, {pg.size() if pg is _world.default_pg else world}) "
                             f"of the group")
        raise ValueError(f"The global rank {global_rank} is not part of the group {pg._name!r}")
    return r


# ---------------------------------------------------------------------------
# init / destroy

_BACKEND_NAMES = ("gloo", "nccl", "ucc", "mpi")


def _parse_backend(backend):
    """(the group's backend name, {device type: backend name}) of init_process_group's or
    new_group's `backend`: a name ("gloo", a registered backend) for the devices it serves, or
    "device:name,..." pairs ("cpu:gloo,cuda:nccl"); the name is the CPU device's (else the
    first pair's).  A bare "nccl" is refused here; "cuda:nccl" in pairs gives the group a CUDA
    backend that refuses every call (Note [Backends not built])."""
    if backend is None:
        # torch's default: NCCL for CUDA tensors where it can run, the CPU backend for the rest
        backend = "cpu:gloo,cuda:nccl" if _mt.cuda.is_available() and is_nccl_available() \
            else Backend.GLOO
    if not isinstance(backend, str):
        raise TypeError(f"backend must be a str, not {type(backend).__name__}")
    spec = backend.lower().strip()
    if ":" in spec:
        pairs = {}
        for part in spec.split(","):
            dev, _, b = part.partition(":")
            pairs[dev.strip()] = _backend_name(b.strip(), backend, paired=True)
        return pairs.get("cpu", next(iter(pairs.values()))), pairs
    name = _backend_name(spec, backend, paired=False)
    return name, dict.fromkeys(Backend.backend_capability.get(name, ["cpu"]), name)


def _backend_name(name, backend, paired):
    """The backend `name` checked: built (gloo), registered (a plugin may register it now), or
    nccl in a device pair; errors say why not."""
    if name == Backend.GLOO:
        return Backend.GLOO
    Backend._ensure_backend_registered(name)  # a plugin may offer it (entry points)
    if name.upper() in Backend._plugins:
        return name
    if name == Backend.NCCL:
        if paired or _nccl_runs():
            return name
        raise _nccl_unavailable()
    if name == Backend.MPI:
        if not is_mpi_available():
            raise _process_group_mpi.unavailable_error()
        return name
    if name == "ucc":
        raise RuntimeError(f"Distributed package doesn't have {name.upper()} built in; use "
                           "backend='gloo'")
    msg = (f"Invalid backend: '{backend}'. Supported backends: gloo, mpi (nccl and ucc are not "
           "built)")
    close = difflib.get_close_matches(name, _BACKEND_NAMES, n=1, cutoff=0.5)
    if close:
        msg += f'; did you mean "{close[0]}"?'
    raise ValueError(msg)


def _nccl_runs():
    """Whether NCCL process groups can be made here: the library loads and a device exists."""
    return is_nccl_available() and _mt.cuda.device_count() > 0


def _nccl_unavailable():
    """The error of a call that needs NCCL, naming the reason: no NCCL in the build, no loadable
    library, or no GPU or driver."""
    from ..cuda import nccl, device_count
    why = nccl._unavailable_reason()
    gloo = "; use backend='gloo' for CPU tensors"
    if why is not None:
        return RuntimeError(f"Distributed package doesn't have NCCL available: {why}{gloo}")
    return RuntimeError("the NCCL backend needs a CUDA device per rank, and none is "
                        f"available (device_count() is {device_count()}: no GPU, or no NVIDIA "
                        f"driver){gloo}")


# Note [Backends not built]
# "cpu:gloo,cuda:nccl" is a common backend string (and torch's default where CUDA is present).
# Its CPU tensors go to the CPU backend; where NCCL cannot run (not built, no library, no
# device), its CUDA device gets a backend that raises why for every operation, where a group
# without a CUDA backend would raise torch's "No backend type associated with device type
# cuda".
class _UnbuiltBackend(_Backend):
    def __init__(self, name, rank, size, error):
        super().__init__(rank, size)
        self._name = name
        self._error = error

    def getBackendName(self):
        return self._name

    def set_timeout(self, timeout):
        pass


def _refuse(method):
    def refuse(self, *args, **kwargs):
        raise self._error()
    refuse.__name__ = method
    return refuse


for _name in _OPERATIONS + ("monitored_barrier",):
    setattr(_UnbuiltBackend, _name, _refuse(_name))
del _name


def init_process_group(backend=None, init_method=None, timeout=None, world_size=-1, rank=-1,
                       store=None, group_name="", pg_options=None, device_id=None):
    """Joins the default process group (``env://`` unless ``init_method`` or ``store``)."""
    if _world.default_pg is not None:
        raise _InitTwiceError("trying to initialize the default process group twice!")
    timeout = _check_timeout(timeout)
    _world.pg_options = pg_options
    # Note [Job token] (csrc/distributed/common/auth.h): pg_options.token, else a given
    # TCPStore's token, else MINITORCH_DIST_TOKEN serves the job's store and transports
    token = getattr(pg_options, "token", None) if pg_options is not None else None
    if token is None and store is not None:
        token = _auth.store_token(store)
    _auth.set_job_token(token)
    _debug.read_level()  # a bad MINITORCH_DISTRIBUTED_DEBUG fails before anything starts
    if store is not None and init_method is not None:
        raise ValueError("Cannot specify both init_method and store.")
    for name, v in (("world_size", world_size), ("rank", rank)):
        if isinstance(v, bool) or not isinstance(v, int):
            raise TypeError(f"{name} must be an int, not {type(v).__name__}")
    backend = _parse_backend(backend)
    if store is not None:
        if not isinstance(store, _c10d.Store):
            raise TypeError(f"store must be a torch.distributed.Store, not {type(store).__name__}")
        if world_size <= 0:
            raise ValueError("world_size must be positive if using store")
        if rank < 0:
            raise ValueError("rank must be non-negative if using store")
        if rank >= world_size:
            raise ValueError(f"rank {rank} is out of range for world_size {world_size} "
                             f"(expected 0 <= rank < world_size)")
        pg = _make_default_group(store, rank, world_size, backend, group_name, timeout,
                                 device_id)
    elif all(b == Backend.MPI for b in backend[1].values()):
        # Note [The MPI backend]: MPI is the rendezvous; rank and size are MPI's
        world = ProcessGroupMPI._world(timeout)
        if (world_size != -1 and world_size != world.size()) or (rank != -1 and rank != world.rank()):
            warnings.warn(f"For MPI backend, world_size ({world_size}) and rank ({rank}) are "
                          "ignored since they are assigned by the MPI runtime.", stacklevel=2)
        rank, world_size = world.rank(), world.size()
        _world.mpi_world = world
        pg = _new_process_group(None, "", rank, range(world_size), backend[0], backend[1],
                                group_name or "default_pg", timeout, [], _world.pg_options,
                                mpi=world)
        pg._desc = "default_pg"
    else:
        pg, store = _rendezvous_default_group(init_method or "env://", rank, world_size,
                                              backend, group_name, timeout, device_id)
        rank, world_size = pg.rank(), pg.size()
    _world.init_count += 1
    _world.default_pg = pg
    _world.default_store = store
    _world.group_count = 0
    _debug.log_event("init_process_group", pg, f"rank {rank} of {world_size}")


# Note [Re-initialising]
# A job may destroy its default group and make a new one on the same MASTER_ADDR:PORT.  The
# ranks do not leave the old group at the same moment, so a rank can reach the old store
# server (rank 0 has not destroyed it yet) for its next init.  Two things make that safe:
# each default group's keys live under its own generation prefix (default_pg/<n>, n the
# process's count of earlier inits, the same on every rank of a job that inits in step), so
# a rank never reads an earlier group's addresses; and a rank whose store connection is lost
# while it joins (the old server going away under it) starts the rendezvous again until the
# timeout, reaching the new server.
def _make_default_group(store, rank, world_size, backend, group_name, timeout, device_id=None):
    store.set_timeout(timeout)
    name, devices = backend
    mpi = None
    if Backend.MPI in devices.values():  # MPI next to a backend that needs the store
        mpi = ProcessGroupMPI._world(timeout)
        if mpi.rank() != rank or mpi.size() != world_size:
            raise ValueError(f"init_process_group: MPI gives this process rank {mpi.rank()} of "
                             f"{mpi.size()}, the rendezvous rank {rank} of {world_size}")
        _world.mpi_world = mpi
    # torch's options of the default group name no global ranks (a creator gets them all)
    pg = _new_process_group(store, f"default_pg/{_world.init_count}", rank, range(world_size),
                            name, devices, group_name or "default_pg", timeout, [],
                            _world.pg_options, device_id, mpi=mpi)
    pg._desc = "default_pg"
    return pg


def _rendezvous_default_group(url, rank, world_size, backend, group_name, timeout,
                              device_id=None):
    """(default group, store) through the rendezvous at url; see Note [Re-initialising]."""
    from .rendezvous import rendezvous

    deadline = time.monotonic() + timeout.total_seconds()
    while True:
        try:
            store, r, ws = next(rendezvous(url, rank, world_size, timeout=timeout))
            return _make_default_group(store, r, ws, backend, group_name, timeout,
                                       device_id), store
        except DistError as e:
            if time.monotonic() >= deadline or not _connection_lost(e):
                raise
        store = None
        time.sleep(0.01)


def _connection_lost(e):
    text = str(e).lower()
    return any(w in text for w in ("reset by peer", "broken pipe", "connection closed",
                                   "closed the connection", "eof"))


# Note [User-defined backends]
# Backend.register_backend(name, creator, devices=...) makes a group whose backend string names
# it call the creator, with torch's two calling conventions (store, rank, size, timeout), or
# with extended_api (_DistributedBackendOptions, pg_options); the store is the group's, under
# "<device>/".  What the creator returns serves its devices, as minitorch's CPU backend does;
# a ProcessGroup subclass (torch's older user-defined groups, whose methods do the work) is
# instead the group itself.
def _new_process_group(store, prefix, group_rank, ranks, name, devices, group_name, timeout,
                       global_ranks=None, pg_options=None, device_id=None, nccl_comm=None,
                       mpi=None):
    """The group of `ranks` (global ranks; this process is `group_rank` among them) whose keys
    live under `prefix` in `store`, with one backend per device type of `devices` ({device
    type: backend name}, see _parse_backend); registered in this process's groups.  `mpi` is
    its MPI backend, made beforehand (Note [The MPI backend]); a group of MPI alone has no
    store."""
    ranks = list(ranks)
    size = len(ranks)
    pstore = PrefixStore(prefix, store) if store is not None else None
    pg = ProcessGroup(pstore, group_rank, size)
    made = {}  # backend name -> backend: one backend serves all of its devices
    for device, bname in devices.items():
        if bname == Backend.GLOO and device not in ("cpu", "cuda"):
            continue  # the CPU backend serves CPU tensors, and CUDA ones through host copies
        b = made.get(bname)
        if b is None:
            bstore = PrefixStore(f"{device}/", pstore) if pstore is not None else None
            if bname == Backend.MPI and mpi is not None:
                b = mpi
            elif bstore is None:
                raise ValueError(f"the {bname} backend needs a store, and this job's default "
                                 "group (MPI) has none: use backend='mpi'")
            elif bname.upper() in Backend._plugins:
                b = _make_plugin_backend(bname, bstore, group_rank, size, timeout, group_name,
                                         ranks, pg_options)
                if isinstance(b, ProcessGroup):
                    pg = b
                    break
            elif bname == Backend.GLOO:
                o = _GlooOptions()
                o._timeout = timeout
                o.group_name = group_name
                o.global_ranks_in_group = list(ranks if global_ranks is None else global_ranks)
                b = ProcessGroupGloo(bstore, group_rank, size, o)
            elif bname == Backend.NCCL and _nccl_runs():
                b = _make_nccl_backend(bstore, group_rank, size, timeout, group_name,
                                       ranks if global_ranks is None else global_ranks,
                                       pg_options, device_id, nccl_comm)
                pg._bound_device_id = b.bound_device_id
            else:
                b = _UnbuiltBackend(bname, group_rank, size, _nccl_unavailable)
            made[bname] = b
        pg._register_backend(device, Backend.backend_type_map.get(bname, BackendType.CUSTOM), b)
    if type(pg) is ProcessGroup and name in made:
        pg._set_default_backend(Backend.backend_type_map.get(name, BackendType.CUSTOM))
    pg._store = pstore
    pg._ranks = ranks
    pg._group_rank = {g: i for i, g in enumerate(ranks)}
    pg._backend = name
    pg._config = dict(devices)
    pg._name = group_name
    pg._timeout = timeout
    _world.groups.append(pg)
    return pg


def _make_nccl_backend(store, group_rank, size, timeout, group_name, ranks, pg_options,
                       device_id, comm=None):
    o = pg_options if isinstance(pg_options, ProcessGroupNCCL.Options) else \
        ProcessGroupNCCL.Options()
    o._timeout = timeout
    o.group_name = group_name
    o.global_ranks_in_group = list(ranks)
    if device_id is not None and not isinstance(device_id, _mt.device):
        device_id = _mt.device("cuda", int(device_id)) if isinstance(device_id, int) \
            else _mt.device(device_id)
    if device_id is not None and (device_id.type != "cuda" or device_id.index is None):
        raise ValueError(f"init_process_group: device_id must be a CUDA device with an index, "
                         f"got {device_id}")
    return ProcessGroupNCCL(store, group_rank, size, o, device_id=device_id, comm=comm)


def _make_plugin_backend(name, store, group_rank, size, timeout, group_name, ranks, pg_options):
    func, extended = Backend._plugins[name.upper()]
    if extended:
        b = func(_DistributedBackendOptions(store, group_rank, size, timeout, group_name, ranks),
                 pg_options)
    else:
        b = func(store, group_rank, size, timeout)
    if b is None:
        raise TypeError(f"the creator of backend {name!r} returned None, not a backend")
    return b


def new_group(ranks=None, timeout=None, backend=None, pg_options=None,
              use_local_synchronization=False, group_desc=None, device_id=None, sort_ranks=True):
    """A group of `ranks` (global ranks; None: every rank; sorted unless sort_ranks=False, the
    group ranks following their order).  Every rank must call new_group, in the same order;
    ranks outside get ``GroupMember.NON_GROUP_MEMBER``.  With use_local_synchronization only
    the members call it (the group is named after its ranks).  A default group of a
    user-defined backend whose class has a ``new_group`` method makes the group itself."""
    default = _default_pg()
    world = default.size()
    timeout = _check_timeout(timeout) if timeout is not None else default._timeout
    requested = Backend(backend) if backend else Backend(str(default._backend))
    bname, devices = _parse_backend(backend) if backend else (default._backend, default._config)
    if ranks is None:
        ranks = list(range(world))
    else:
        ranks = list(ranks)
        for r in ranks:
            if isinstance(r, bool) or not isinstance(r, int):
                raise TypeError("ranks must be a sequence of integers")
        if sort_ranks:
            ranks = sorted(ranks)
        if len(set(ranks)) != len(ranks):
            raise ValueError(f"ranks list must not contain duplicate entries, got {ranks}")
        if len(ranks) > world:
            raise ValueError("the new group's world size should be less or equal to the world "
                             "size set by init_process_group")
        for r in ranks:
            if not 0 <= r < world:
                raise ValueError(f"Rank {r} is out of range. Valid ranks are 0 to {world - 1} "
                                 f"(world_size={world})")
    me = default.rank()
    if use_local_synchronization:
        if me not in ranks:
            return GroupMember.NON_GROUP_MEMBER
        # Note [Locally synchronized groups]: only the members call new_group, so the name
        # cannot come from the count of calls; it is the ranks' hash, made unique within the
        # process for the n-th group of the same ranks (the members make them in the same order)
        base = hashlib.sha1(",".join(map(str, ranks)).encode()).hexdigest()
        n = _world.hashed_names.get(base, 0)
        _world.hashed_names[base] = n + 1
        name = base if n == 0 else f"{base}_{n}"
    else:
        _world.group_count += 1
        name = str(_world.group_count)
    delegate = getattr(default, "new_group", None)
    if callable(delegate):
        pg = delegate(ranks, timeout=timeout, backend=requested, pg_options=pg_options,
                      group_name=name, group_desc=group_desc)
        if pg is None or pg is GroupMember.NON_GROUP_MEMBER:
            return GroupMember.NON_GROUP_MEMBER
        if getattr(pg, "_backend", "undefined") == "undefined":
            pg._backend = bname
        pg._ranks = list(ranks)
        pg._group_rank = {g: i for i, g in enumerate(ranks)}
        pg._name = name
        pg._store = PrefixStore(f"group_{name}", _world.default_store)
        _world.groups.append(pg)
        return pg
    mpi = None
    if Backend.MPI in devices.values():
        # every rank takes part in the split (Note [The MPI backend]); use_local_synchronization:
        # only the members, which reached here
        world = _mpi_parent(default)
        if use_local_synchronization:
            mpi = world._create_members(ranks, timeout, name)
        else:
            mpi = world._split_members(ranks, timeout, name)
    nccl_comm = _nccl_split(default, devices, ranks, me, use_local_synchronization)
    if me not in ranks:
        return GroupMember.NON_GROUP_MEMBER
    pg = _new_process_group(_world.default_store, f"group_{name}", ranks.index(me), ranks, bname,
                            devices, name, timeout, pg_options=pg_options, device_id=device_id,
                            nccl_comm=nccl_comm, mpi=mpi)
    pg._desc = group_desc if group_desc is not None else "undefined"
    _debug.log_event("new_group", pg, f"ranks {ranks}")
    return pg


def _nccl_split(default, devices, ranks, me, local):
    """The new group's NCCL communicator split from the default group's (every rank calls
    new_group; see Note [The NCCL backend]), or None to make it through the store."""
    parent = default._backends.get("cuda") if isinstance(default, ProcessGroup) else None
    if local or devices.get("cuda") != Backend.NCCL or not isinstance(parent, ProcessGroupNCCL) \
            or not parent._can_split():
        return None
    member = me in ranks
    return parent._split(0 if member else -1, ranks.index(me) if member else 0)


def _mpi_parent(default):
    """The MPI group of the whole job that new groups are split from: the default group's, or
    one made now (every rank calls new_group) when the default group is of another backend."""
    if _world.mpi_world is None:
        world = ProcessGroupMPI._world(default._timeout)
        if world.rank() != default.rank() or world.size() != default.size():
            raise ValueError(f"new_group(backend='mpi'): MPI gives this process rank "
                             f"{world.rank()} of {world.size()}, the default group rank "
                             f"{default.rank()} of {default.size()}; start the job with mpirun "
                             "so that they agree")
        _world.mpi_world = world
    return _world.mpi_world


def _abort_process_group(group=None):
    """Aborts `group` (None: every group, the default one included): its pending operations
    fail, its connections close, a user-defined group's abort() is called."""
    if group is GroupMember.NON_GROUP_MEMBER:
        return
    targets = list(_world.groups) if group is None or group is _world.default_pg else [group]
    if group is not None and group is not _world.default_pg and group not in _world.groups:
        raise ValueError("Invalid process group specified or has been destroyed.")
    if not targets:
        raise ValueError("Default process group has not been initialized, please make sure to "
                         "call init_process_group.")
    for pg in reversed(targets):
        pg.abort()
        pg._destroyed = True
        if pg in _world.groups:
            _world.groups.remove(pg)
    if group is None or group is _world.default_pg:
        _world.default_pg = None
        _world.default_store = None
        _world.group_count = 0
        _world.hashed_names = {}
        _world.mpi_world = None


def _store_based_barrier(rank, store, group_name, rendezvous_count, timeout,
                         logging_interval=timedelta(seconds=10)):
    """Waits, through `store`, until `rendezvous_count` ranks have called it with the same
    group_name; DistStoreError once `timeout` has passed."""
    key = f"store_based_barrier_key:{group_name}"
    store.add(key, 1)
    last = f"{key}:last_worker"
    if store.add(key, 0) == rendezvous_count:
        store.set(last, "1")
    interval = max(logging_interval, timedelta(seconds=10 + rendezvous_count / 1000))
    start = time.monotonic()
    while True:
        try:
            store.wait([last], min(interval, max(timeout - timedelta(seconds=time.monotonic() - start),
                                                  timedelta(milliseconds=1))))
            return
        except RuntimeError as e:
            joined = store.add(key, 0)
            _logger.debug("rank %s: store based barrier for %s: %s/%s joined", rank, key, joined,
                          rendezvous_count)
            if timedelta(seconds=time.monotonic() - start) >= timeout:
                raise DistStoreError(
                    f"Timed out initializing process group in store based barrier on rank {rank}, "
                    f"for key: {key} (world_size={rendezvous_count}, num_workers_joined={joined}, "
                    f"timeout={timeout} error={e})") from None


def set_timeout(timeout, group=None):
    """The time each later operation of `group` (None: the default group) may take."""
    if group is GroupMember.NON_GROUP_MEMBER:
        raise ValueError("Invalid process group specified")
    pg = _resolve(group)
    pg.set_timeout(_check_timeout(timeout))


def _set_pg_timeout(timeout, group=None):
    """Deprecated: set_timeout."""
    warnings.warn("`torch.distributed.distributed_c10d._set_pg_timeout` is deprecated, please use "
                  "`torch.distributed.set_timeout` instead", FutureWarning, stacklevel=2)
    set_timeout(timeout, group)


def _broadcast_coalesced(process_group, tensors, buffer_size, src=0):
    """Broadcasts `tensors` from group rank `src` in messages of at most buffer_size bytes, each
    holding consecutive tensors of one dtype.  `process_group` is a group (None: the default
    one) or a backend (a ProcessGroupGloo), whose broadcast method it calls."""
    pg = process_group if isinstance(process_group, _Backend) else _resolve(process_group)
    tensors = list(tensors)
    i = 0
    while i < len(tensors):
        dt = tensors[i].dtype
        j, size = i, 0
        while j < len(tensors) and tensors[j].dtype == dt and \
                (j == i or size + tensors[j].numel() * tensors[j].element_size() <= buffer_size):
            size += tensors[j].numel() * tensors[j].element_size()
            j += 1
        bucket = tensors[i:j]
        flat = _mt.cat([t.reshape(-1) for t in bucket]) if pg.rank() == src else \
            _mt.empty(sum(t.numel() for t in bucket), dtype=dt)
        pg.broadcast([flat], _opts(_options.BroadcastOptions, False, rootRank=src)).wait()
        if pg.rank() != src:
            off = 0
            for t in bucket:
                t.copy_(flat[off:off + t.numel()].view(t.shape))
                off += t.numel()
        i = j


# Note [Destroyed groups]
# As torch's, destroy_process_group unregisters groups (None: all of them, the default group
# included): calls that look a group up (get_rank(group), new_group, the default group) no longer
# find it.  A group object still referenced keeps working - its collectives run, its connections
# stay open - until the object goes; then its queued operations finish (each within its timeout)
# and its connections close.  _abort_process_group closes at once instead.  A group written in
# Python has its shutdown() called.
def destroy_process_group(group=None):
    """Unregisters `group` (None: every group and the default group); see Note [Destroyed
    groups]."""
    if group is GroupMember.NON_GROUP_MEMBER:
        return
    if group is None or group is _world.default_pg:
        if _world.default_pg is None:
            raise ValueError("Default process group has not been initialized, please make sure "
                             "to call init_process_group.")
        for pg in reversed(_world.groups):
            pg.shutdown()
        _world.groups = []
        _world.default_pg = None
        _world.default_store = None
        _world.group_count = 0
        _world.hashed_names = {}
        _world.mpi_world = None
        _auth.set_job_token(None)
        return
    if not isinstance(group, ProcessGroup):
        raise TypeError(f"group must be a ProcessGroup, not {type(group).__name__}")
    if group not in _world.groups:
        raise ValueError("Invalid process group specified")
    group.shutdown()
    _world.groups.remove(group)


def _check_single_tensor(t, name):
    if type(t) is _Tensor:  # the common case, in one read
        return
    if not isinstance(t, _mt.Tensor):
        raise TypeError(f"Invalid function argument. Expected parameter `{name}` of type "
                        f"torch.Tensor but got {type(t)} instead.")


def _check_tensor_list(ts, name):
    if not isinstance(ts, (list, tuple)) or not all(isinstance(t, _mt.Tensor) for t in ts):
        raise TypeError(f"Invalid function argument. Expected parameter `{name}` of type "
                        f"List[torch.Tensor] but got {type(ts)} instead.")


def _enter(op_name, group_, tensors, extra=""):
    """Common entry: resolve the group, DETAIL fingerprint check, INFO log.  `extra` (the call's
    arguments for the log) may be a function, called only when a debug level is set."""
    pg = _resolve(group_)
    if _debug._level == "OFF":
        return pg, None
    return pg, _debug.before(op_name, pg, tensors, extra)


def _opts(cls, async_op, **fields):
    """torch's options object of a call: its fields, and asyncOp (a blocking call runs before
    the group's method returns, Note [ProcessGroup methods] in _process_group_gloo.py)."""
    o = cls()
    o.asyncOp = bool(async_op)
    for k, v in fields.items():
        setattr(o, k, v)
    return o


# Note [One path for every group]
# Each collective checks its arguments once (torch's words), resolves the group and calls the
# group's method with torch's option objects: the group hands it to the backend of the tensors'
# device (Note [One backend per device type] in _process_group.py), or, for a ProcessGroup
# subclass that a user-defined backend's creator returned, the subclass's own method runs.  The
# returned Work is waited for unless async_op (a blocking call was told so through
# opts.asyncOp, so that minitorch's backend has already run it).
def _issue(work, async_op, info):
    if work is None:
        return None
    if info is not None:
        work._info = info
    if async_op:
        return work
    work.wait()
    return None


# ---------------------------------------------------------------------------
# collectives


@_non_member_skips("broadcast")
def broadcast(tensor, src=None, group=None, async_op=False, group_src=None):
    _check_single_tensor(tensor, "tensor")
    pg, info = _enter("broadcast", group, [tensor], lambda: f"src={src}")
    root = _root(pg, src, group_src, "src")
    return _issue(pg.broadcast([tensor], _opts(_options.BroadcastOptions, async_op, rootRank=root)),
                  async_op, info)


def _root(pg, r, group_r, what, required=False):
    """Group rank named by a global rank `r` or a group rank `group_r`; neither means
    rank 0 unless `required` (a send's destination), then it is a ValueError."""
    if group_r is not None:
        if r is not None:
            raise ValueError(f"Can not specify both {what} and group_{what}")
        if isinstance(group_r, bool) or not isinstance(group_r, int):
            raise TypeError(f"group_{what} must be an int, not {type(group_r).__name__}")
        if not 0 <= group_r < pg.size():
            raise ValueError(f"Invalid group_{what} {group_r} (group size {pg.size()})")
        return group_r
    if r is None:
        if required:
            raise ValueError(f"Either {what} or group_{what} must be specified")
        r = 0
    return _group_peer(pg, r, what)


_COMPLEX_OPS = (_RedOpType.SUM, _RedOpType.AVG, _RedOpType.PREMUL_SUM)


def _check_complex_op(name, tensors, opv):
    """Complex tensors reduce as pairs of reals (SUM, AVG, PREMUL_SUM); the ordering and bitwise
    operations and PRODUCT are refused, as torch."""
    if opv not in _COMPLEX_OPS and any(t.is_complex() for t in tensors):
        raise ValueError(f"{name} does not support RedOpType.{opv.name} on complex tensors")


def all_reduce(tensor, op=ReduceOp.SUM, group=None, async_op=False):
    # Note [The all_reduce fast path]
    # The commonest call (a group this rank is in, None for the default one, SUM, a contiguous
    # CPU tensor, blocking, no debug level) goes straight to the C entry of the group's CPU
    # backend when that is minitorch's (ProcessGroup._cpu_cgroup): every check of the general
    # path holds for it, and at a few bytes per message these Python lines are most of the
    # latency (0.7 us a call at 2 ranks against 10 us through the general path).
    pg = _world.default_pg if group is None else group
    if op is _SUM and async_op is False and type(tensor) is _Tensor \
            and isinstance(pg, ProcessGroup) and _debug._level == "OFF" \
            and tensor.is_cpu and tensor.is_contiguous():
        cgroup = pg._cpu_cgroup
        if cgroup is not None and cgroup.is_alive():
            pg._seq += 1
            cgroup.allreduce(tensor, 0, True)
            return None
    return _all_reduce(tensor, op, group, async_op)


@_non_member_skips("all_reduce")
def _all_reduce(tensor, op=ReduceOp.SUM, group=None, async_op=False):
    _check_single_tensor(tensor, "tensor")
    opv = op if op is _SUM else _op_value(op)
    if opv is not _SUM:
        _check_complex_op("all_reduce", [tensor], opv)
    pg, info = _enter("all_reduce", group, [tensor], _OP_EXTRA[opv])
    o = _opts(_options.AllreduceOptions, async_op, reduceOp=_as_reduce_op(op, opv))
    return _issue(pg.allreduce([tensor], o), async_op, info)


@_non_member_skips("reduce")
def reduce(tensor, dst=None, op=ReduceOp.SUM, group=None, async_op=False, group_dst=None):
    _check_single_tensor(tensor, "tensor")
    opv = _op_value(op)
    _check_complex_op("reduce", [tensor], opv)
    pg, info = _enter("reduce", group, [tensor], lambda: f"op={opv.name} dst={dst}")
    root = _root(pg, dst, group_dst, "dst")
    o = _opts(_options.ReduceOptions, async_op, rootRank=root, reduceOp=_as_reduce_op(op, opv))
    return _issue(pg.reduce([tensor], o), async_op, info)


@_non_member_skips("all_gather")
def all_gather(tensor_list, tensor, group=None, async_op=False):
    _check_tensor_list(tensor_list, "tensor_list")
    _check_single_tensor(tensor, "tensor")
    pg, info = _enter("all_gather", group, [tensor])
    _check_list_len(tensor_list, pg, "tensor_list")
    _check_like(tensor_list, tensor, "all_gather", "tensor_list")
    return _issue(pg.allgather([list(tensor_list)], [tensor],
                               _opts(_options.AllgatherOptions, async_op)), async_op, info)


def _check_list_len(ts, pg, name):
    if len(ts) != pg.size():
        raise ValueError(f"{name} must contain {pg.size()} tensors (the group size), got "
                         f"{len(ts)}")


def _check_like(ts, ref, op, what):
    """Each of `ts` has `ref`'s dtype (TypeError) and number of elements (ValueError)."""
    for i, t in enumerate(ts):
        if t.dtype != ref.dtype:
            raise TypeError(f"{op}: {what}[{i}] has dtype {t.dtype}, expected {ref.dtype}")
        if t.numel() != ref.numel():
            raise ValueError(f"{op}: {what}[{i}] has {t.numel()} elements, expected "
                             f"{ref.numel()}")


def _check_same_dtype(a, b, op):
    if a.dtype != b.dtype:
        raise TypeError(f"{op}: output tensor dtype {a.dtype} does not match input dtype "
                        f"{b.dtype}")


@_non_member_skips("all_gather_into_tensor")
def all_gather_into_tensor(output_tensor, input_tensor, group=None, async_op=False):
    _check_single_tensor(output_tensor, "output_tensor")
    _check_single_tensor(input_tensor, "input_tensor")
    pg, info = _enter("all_gather_into_tensor", group, [input_tensor])
    _check_same_dtype(output_tensor, input_tensor, "all_gather_into_tensor")
    n = pg.size()
    if output_tensor.numel() != n * input_tensor.numel():
        raise ValueError(f"all_gather_into_tensor: output tensor size {output_tensor.numel()} "
                         f"must equal world size ({n}) times input tensor size "
                         f"{input_tensor.numel()}")
    return _issue(pg.all_gather_single(output_tensor, input_tensor,
                                       _opts(_options.AllgatherOptions, async_op)), async_op, info)


def _ensure_same_dtype(tensors):
    """torch's rule for the coalesced collectives: one dtype (a complex type may be mixed with
    its real parts' type)."""
    last = None
    for t in tensors:
        dt = t.dtype
        if dt.is_complex:
            dt = _mt.float32 if dt == _mt.complex64 else _mt.float64
        if last is not None and dt != last:
            raise ValueError(f"Invalid usage of tensors with different dtypes: found {last} and "
                             f"{t.dtype}")
        last = dt


def _future_or_none(work, async_op, info):
    """The coalesced forms' result: the Work's future when async_op, as torch's."""
    if work is None:
        return None
    if info is not None:
        work._info = info
    if async_op:
        return work.get_future()
    work.wait()
    return None


@_non_member_skips("all_reduce_coalesced")
def all_reduce_coalesced(tensors, op=ReduceOp.SUM, group=None, async_op=False):
    """all_reduce of several tensors as one message (torch's deprecated coalesced form)."""
    if isinstance(tensors, _mt.Tensor):
        tensors = [tensors]
    _check_tensor_list(tensors, "tensor")
    _ensure_same_dtype(tensors)
    opv = _op_value(op)
    _check_complex_op("all_reduce", tensors, opv)
    pg, info = _enter("all_reduce_coalesced", group, list(tensors), lambda: f"op={opv.name}")
    o = _opts(_options.AllreduceCoalescedOptions, async_op, reduceOp=_as_reduce_op(op, opv))
    return _future_or_none(pg.allreduce_coalesced(list(tensors), o), async_op, info)


@_non_member_skips("all_gather_coalesced")
def all_gather_coalesced(output_tensor_lists, input_tensor_list, group=None, async_op=False):
    """output_tensor_lists[r][i] = input_tensor_list[i] of rank r, as one message per rank."""
    _check_tensor_list(input_tensor_list, "input_tensor_list")
    _ensure_same_dtype(input_tensor_list)
    if not isinstance(output_tensor_lists, list):
        raise TypeError("Invalid function argument: output_tensor_lists should be a list")
    for lst in output_tensor_lists:
        _check_tensor_list(lst, "output_tensor_lists")
        _ensure_same_dtype(lst)
    pg, info = _enter("all_gather_coalesced", group, list(input_tensor_list))
    # the backend checks the lists' lengths and sizes (gloo's words)
    w = pg.allgather_coalesced(output_tensor_lists, list(input_tensor_list),
                               _opts(_options.AllgatherOptions, async_op))
    return _future_or_none(w, async_op, info)


def _root_list(pg, root, lst, name, role):
    """Checks the tensor list of gather/scatter: given, one per rank, on the root (then True);
    absent elsewhere (then False)."""
    if pg.rank() == root:
        if lst is None:
            raise ValueError(f"Argument ``{name}`` must be specified on {role} rank.")
        _check_list_len(lst, pg, name)
        return True
    if lst:
        raise ValueError(f"Argument ``{name}`` must NOT be specified on non-{role} ranks.")
    return False


@_non_member_skips("gather")
def gather(tensor, gather_list=None, dst=None, group=None, async_op=False, group_dst=None):
    _check_single_tensor(tensor, "tensor")
    if gather_list is not None:
        _check_tensor_list(gather_list, "gather_list")
    pg, info = _enter("gather", group, [tensor], lambda: f"dst={dst}")
    root = _root(pg, dst, group_dst, "dst")
    outs = []
    if _root_list(pg, root, gather_list, "gather_list", "destination"):
        _check_like(gather_list, tensor, "gather", "gather_list")
        outs = [list(gather_list)]
    return _issue(pg.gather(outs, [tensor], _opts(_options.GatherOptions, async_op, rootRank=root)),
                  async_op, info)


@_non_member_skips("scatter")
def scatter(tensor, scatter_list=None, src=None, group=None, async_op=False, group_src=None):
    _check_single_tensor(tensor, "tensor")
    if scatter_list is not None:
        _check_tensor_list(scatter_list, "scatter_list")
    pg, info = _enter("scatter", group, [tensor], lambda: f"src={src}")
    root = _root(pg, src, group_src, "src")
    ins = []
    if _root_list(pg, root, scatter_list, "scatter_list", "source"):
        _check_like(scatter_list, tensor, "scatter", "scatter_list")
        ins = [list(scatter_list)]
    return _issue(pg.scatter([tensor], ins, _opts(_options.ScatterOptions, async_op, rootRank=root)),
                  async_op, info)


@_non_member_skips("reduce_scatter")
def reduce_scatter(output, input_list, op=ReduceOp.SUM, group=None, async_op=False):
    _check_single_tensor(output, "output")
    _check_tensor_list(input_list, "input_list")
    opv = _op_value(op)
    _check_complex_op("reduce_scatter", [output] + list(input_list), opv)
    pg, info = _enter("reduce_scatter", group, [output], lambda: f"op={opv.name}")
    _check_list_len(input_list, pg, "input_list")
    _check_like(input_list, output, "reduce_scatter", "input_list")
    o = _opts(_options.ReduceScatterOptions, async_op, reduceOp=_as_reduce_op(op, opv))
    return _issue(pg.reduce_scatter([output], [list(input_list)], o), async_op, info)


@_non_member_skips("reduce_scatter_tensor")
def reduce_scatter_tensor(output, input, op=ReduceOp.SUM, group=None, async_op=False):
    _check_single_tensor(output, "output")
    _check_single_tensor(input, "input")
    opv = _op_value(op)
    _check_complex_op("reduce_scatter_tensor", [output, input], opv)
    pg, info = _enter("reduce_scatter_tensor", group, [output], lambda: f"op={opv.name}")
    _check_same_dtype(output, input, "reduce_scatter_tensor")
    n = pg.size()
    if input.numel() != n * output.numel():
        raise ValueError(f"reduce_scatter_tensor: input tensor size {input.numel()} must equal "
                         f"world size ({n}) times output tensor size {output.numel()}")
    o = _opts(_options.ReduceScatterOptions, async_op, reduceOp=_as_reduce_op(op, opv))
    return _issue(pg.reduce_scatter_single(output, input, o), async_op, info)


def reduce_scatter_single(output, input, op=ReduceOp.SUM, group=None, async_op=False):
    """reduce_scatter_tensor's newer name (torch 2.15)."""
    return reduce_scatter_tensor(output, input, op, group, async_op)


def all_gather_single(output_tensor, input_tensor, group=None, async_op=False):
    """all_gather_into_tensor's newer name (torch 2.15)."""
    return all_gather_into_tensor(output_tensor, input_tensor, group, async_op)


@_non_member_skips("all_to_all")
def all_to_all(output_tensor_list, input_tensor_list, group=None, async_op=False):
    _check_tensor_list(output_tensor_list, "output_tensor_list")
    _check_tensor_list(input_tensor_list, "input_tensor_list")
    pg, info = _enter("all_to_all", group, list(input_tensor_list))
    _check_list_len(output_tensor_list, pg, "output_tensor_list")
    _check_list_len(input_tensor_list, pg, "input_tensor_list")
    return _issue(pg.alltoall(list(output_tensor_list), list(input_tensor_list),
                              _opts(_options.AllToAllOptions, async_op)), async_op, info)


@_non_member_skips("all_to_all_single")
def all_to_all_single(output, input, output_split_sizes=None, input_split_sizes=None,
                      group=None, async_op=False):
    _check_single_tensor(output, "output")
    _check_single_tensor(input, "input")
    pg, info = _enter("all_to_all_single", group, [input])
    return _issue(pg.alltoall_base(output, input, list(output_split_sizes or []),
                                   list(input_split_sizes or []),
                                   _opts(_options.AllToAllOptions, async_op)), async_op, info)


@_non_member_skips("barrier")
def barrier(group=None, async_op=False, device_ids=None):
    pg, info = _enter("barrier", group, [])
    o = _opts(_options.BarrierOptions, async_op)
    if device_ids is not None:
        o.device_ids = list(device_ids)
    return _issue(pg.barrier(o), async_op, info)


@_non_member_skips("monitored_barrier")
def monitored_barrier(group=None, timeout=None, wait_all_ranks=False):
    """A barrier that names the ranks that did not reach it within `timeout` (default: the
    group's timeout), through the group's store (Note [monitored_barrier] in
    _monitored_barrier.py: a protocol over the store, not an operation of a backend)."""
    pg = _resolve(group)
    if pg._store is None:  # an MPI group
        raise ValueError("monitored_barrier is only implemented for GLOO backend.")
    timeout = _monitored_barrier.timeout_arg(timeout, pg._timeout)
    seq = pg._mb_seq
    pg._mb_seq += 1
    _monitored_barrier.run(pg._store, pg.rank(), pg.size(), seq, timeout, pg._timeout,
                           wait_all_ranks)


# ---------------------------------------------------------------------------
# point to point


def _p2p_check(tensor, tag, op):
    _check_single_tensor(tensor, "tensor")
    if isinstance(tag, bool) or not isinstance(tag, int):
        raise TypeError(f"{op}: tag must be an int, not {type(tag).__name__}")


@_non_member_skips("isend")
def isend(tensor, dst=None, group=None, tag=0, group_dst=None):
    return _isend(tensor, dst, group, tag, group_dst, False)


def _isend(tensor, dst, group, tag, group_dst, now):
    """The Work of a send; with `now` (dist.send) the send is done before it returns None."""
    _p2p_check(tensor, tag, "isend")
    pg = _resolve(group)
    peer = _root(pg, dst, group_dst, "dst", required=True)
    if now and peer == pg.rank():  # torch checks the blocking send only
        raise ValueError("Invalid destination rank: destination rank should not be the same as "
                         "the rank of the current process.")
    info = _debug.before("send", pg, [tensor], f"dst={peer}", collective=False)
    return _issue(pg.send([tensor], peer, tag), not now, info)


@_non_member_skips("irecv")
def irecv(tensor, src=None, group=None, tag=0, group_src=None):
    return _irecv(tensor, src, group, tag, group_src)


def _irecv(tensor, src, group, tag, group_src):
    """The Work of a receive (from any source when neither src nor group_src is given)."""
    _p2p_check(tensor, tag, "irecv")
    pg = _resolve(group)
    info = _debug.before("recv", pg, [tensor], f"src={src}", collective=False)
    if src is None and group_src is None:
        w = pg.recv_anysource([tensor], tag)
    else:
        w = pg.recv([tensor], _root(pg, src, group_src, "src"), tag)
    if info is not None and w is not None:
        w._info = info
    return w


@_non_member_skips("send")
def send(tensor, dst=None, group=None, tag=0, group_dst=None):
    _isend(tensor, dst, group, tag, group_dst, True)


@_non_member_skips("recv", result=-1)
def recv(tensor, src=None, group=None, tag=0, group_src=None):
    """Receives into `tensor`; returns the sender's rank."""
    pg = _resolve(group)
    w = _irecv(tensor, src, group, tag, group_src)
    if w is not None:
        w.wait()
    if src is not None:
        return src
    if group_src is None:
        group_src = w.source_rank()
        if group_src == pg.rank():
            raise ValueError("Invalid source rank: source rank should not be the same as the rank "
                             "of the current process.")
    return pg._ranks[group_src]


class P2POp:
    """A point-to-point operation for batch_isend_irecv: ``P2POp(isend, tensor, peer)``."""

    def __init__(self, op, tensor, peer=None, group=None, tag=0, group_peer=None):
        if op not in (isend, irecv):
            raise ValueError("Invalid ``op``. Expected ``op`` to be of type "
                             "``torch.distributed.isend`` or ``torch.distributed.irecv``.")
        _check_single_tensor(tensor, "tensor")
        self.op = op
        self.tensor = tensor
        self.peer = peer
        self.group = group
        self.tag = tag
        self.group_peer = group_peer

    def __repr__(self):
        return f"P2POp(op={self.op.__name__}, peer={self.peer}, tag={self.tag})"


def batch_isend_irecv(p2p_op_list):
    """Issues the operations (sends first); returns their Works in list order."""
    if not isinstance(p2p_op_list, (list, tuple)) or not p2p_op_list:
        raise ValueError("Invalid ``p2p_op_list``. Each op is expected to to be of type "
                         "``torch.distributed.P2POp``.")
    if not all(isinstance(p, P2POp) for p in p2p_op_list):
        raise ValueError("Invalid ``p2p_op_list``. Each op is expected to to be of type "
                         "``torch.distributed.P2POp``.")
    groups = {id(p.group if p.group is not None else _world.default_pg) for p in p2p_op_list}
    if len(groups) != 1:
        raise ValueError("All ops need to use the same group.")
    batched = _batch_p2p(p2p_op_list)
    if batched is not None:
        return batched
    works = [None] * len(p2p_op_list)
    order = sorted(range(len(p2p_op_list)), key=lambda i: p2p_op_list[i].op is irecv)
    for i in order:
        p = p2p_op_list[i]
        if p.op is isend:
            works[i] = isend(p.tensor, p.peer, p.group, p.tag, p.group_peer)
        else:
            works[i] = irecv(p.tensor, p.peer, p.group, p.tag, p.group_peer)
    return works


def _batch_p2p(p2p_op_list):
    """The Works of a batch whose tensors' backend issues a batch as one (NCCL: one group of
    sends and receives, as torch's), else None."""
    if _rank_not_in_group(p2p_op_list[0].group):
        return None
    pg = _resolve(p2p_op_list[0].group)
    b = pg._backends.get(p2p_op_list[0].tensor.device.type) if isinstance(pg, ProcessGroup) \
        else None
    fn = getattr(b, "_batch_p2p", None)
    if fn is None:
        return None
    ops = []
    for p in p2p_op_list:
        _p2p_check(p.tensor, p.tag, "batch_isend_irecv")
        what = "dst" if p.op is isend else "src"
        ops.append((p.op is isend, p.tensor, _root(pg, p.peer, p.group_peer, what, required=True)))
    works = fn(ops)
    pg._seq += 1
    return works


# ---------------------------------------------------------------------------
# object collectives (pickle into uint8 tensors)


def _obj_device(pg):
    """Where the object collectives' tensors live, as torch: the CPU when the group serves CPU
    tensors, else the current CUDA device (an NCCL-only group)."""
    if isinstance(pg, ProcessGroup) and "cpu" not in pg._backends and "cuda" in pg._backends:
        return _mt.device("cuda", _mt.cuda.current_device())
    return _mt.device("cpu")


def _obj_to_tensor(obj, dev=None):
    buf = io.BytesIO()
    pickle.Pickler(buf).dump(obj)
    data = _np.frombuffer(buf.getvalue(), dtype=_np.uint8).copy()
    t = _mt.from_numpy(data)
    return (t if dev is None or dev.type == "cpu" else t.to(dev)), data.size


def _tensor_to_obj(t, size):
    return pickle.loads(t[:size].cpu().numpy().tobytes())


def _sizes_tensor(n, dev=None):
    return _mt.zeros(n, dtype=_mt.int64, device=dev)


@_non_member_skips("all_gather_object")
def all_gather_object(object_list, obj, group=None):
    pg = _resolve(group)
    n = pg.size()
    if not isinstance(object_list, list) or len(object_list) != n:
        raise ValueError(f"all_gather_object: object_list must be a list of {n} elements "
                         "(the group size)")
    dev = _obj_device(pg)
    t, size = _obj_to_tensor(obj, dev)
    sizes = [_sizes_tensor(1, dev) for _ in range(n)]
    all_gather(sizes, _mt.tensor([size], dtype=_mt.int64, device=dev), group=group)
    sizes = [int(s.item()) for s in sizes]
    mx = max(sizes)
    padded = _mt.zeros(mx, dtype=_mt.uint8, device=dev)
    padded[:size] = t
    outs = [_mt.empty(mx, dtype=_mt.uint8, device=dev) for _ in range(n)]
    all_gather(outs, padded, group=group)
    for i in range(n):
        object_list[i] = _tensor_to_obj(outs[i], sizes[i])


@_non_member_skips("gather_object")
def gather_object(obj, object_gather_list=None, dst=None, group=None, group_dst=None):
    pg = _resolve(group)
    n = pg.size()
    root = _root(pg, dst, group_dst, "dst")
    me = pg.rank()
    if me == root:
        if not isinstance(object_gather_list, list) or len(object_gather_list) != n:
            raise ValueError(f"gather_object: object_gather_list must be a list of {n} elements "
                             "on the destination rank")
    elif object_gather_list is not None:
        raise ValueError("Argument ``gather_list`` must NOT be specified on non-destination ranks.")
    dev = _obj_device(pg)
    t, size = _obj_to_tensor(obj, dev)
    sizes = [_sizes_tensor(1, dev) for _ in range(n)]
    all_gather(sizes, _mt.tensor([size], dtype=_mt.int64, device=dev), group=group)
    sizes = [int(s.item()) for s in sizes]
    mx = max(sizes)
    padded = _mt.zeros(mx, dtype=_mt.uint8, device=dev)
    padded[:size] = t
    outs = [_mt.empty(mx, dtype=_mt.uint8, device=dev) for _ in range(n)] if me == root else None
    gather(padded, outs, group_dst=root, group=group)
    if me == root:
        for i in range(n):
            object_gather_list[i] = _tensor_to_obj(outs[i], sizes[i])


@_non_member_skips("broadcast_object_list")
def broadcast_object_list(object_list, src=None, group=None, device=None, group_src=None):
    if not isinstance(object_list, list):
        raise TypeError("broadcast_object_list: object_list must be a list")
    pg = _resolve(group)
    root = _root(pg, src, group_src, "src")
    k = len(object_list)
    dev = _mt.device(device) if device is not None else _obj_device(pg)
    if pg.rank() == root:
        parts = [_obj_to_tensor(o, dev) for o in object_list]
        sizes = _mt.tensor([s for _, s in parts], dtype=_mt.int64, device=dev)
    else:
        sizes = _sizes_tensor(k, dev)
    broadcast(sizes, group_src=root, group=group)
    total = int(sizes.sum().item()) if k else 0
    if pg.rank() == root:
        buf = _mt.cat([t for t, _ in parts]) if k else _mt.empty(0, dtype=_mt.uint8, device=dev)
    else:
        buf = _mt.empty(total, dtype=_mt.uint8, device=dev)
    broadcast(buf, group_src=root, group=group)
    if pg.rank() != root:
        off = 0
        for i in range(k):
            s = int(sizes[i].item())
            object_list[i] = _tensor_to_obj(buf[off:off + s], s)
            off += s


@_non_member_skips("scatter_object_list")
def scatter_object_list(scatter_object_output_list, scatter_object_input_list=None, src=None,
                        group=None, group_src=None):
    if not isinstance(scatter_object_output_list, list) or len(scatter_object_output_list) < 1:
        raise ValueError("Expected argument scatter_object_output_list to be a list of size at "
                         "least 1.")
    pg = _resolve(group)
    n = pg.size()
    root = _root(pg, src, group_src, "src")
    me = pg.rank()
    dev = _obj_device(pg)
    if me == root:
        if not isinstance(scatter_object_input_list, list) or len(scatter_object_input_list) != n:
            raise ValueError(f"scatter_object_list: scatter_object_input_list must be a list of "
                             f"{n} elements on the source rank")
        parts = [_obj_to_tensor(o, dev) for o in scatter_object_input_list]
        mx = max(s for _, s in parts)
        maxt = _mt.tensor([mx], dtype=_mt.int64, device=dev)
    else:
        maxt = _sizes_tensor(1, dev)
    broadcast(maxt, group_src=root, group=group)
    mx = int(maxt.item())
    ins = sizes_in = None
    if me == root:
        ins = []
        for t, s in parts:
            p = _mt.zeros(mx, dtype=_mt.uint8, device=dev)
            p[:s] = t
            ins.append(p)
        sizes_in = [_mt.tensor([s], dtype=_mt.int64, device=dev) for _, s in parts]
    out = _mt.empty(mx, dtype=_mt.uint8, device=dev)
    size = _sizes_tensor(1, dev)
    scatter(out, ins, group_src=root, group=group)
    scatter(size, sizes_in, group_src=root, group=group)
    scatter_object_output_list[0] = _tensor_to_obj(out, int(size.item()))


# ---------------------------------------------------------------------------
# the multi-device collectives of older torch releases


def _multigpu(name):
    base = name[:-len("_multigpu")]

    def fn(*args, **kwargs):
        raise NotImplementedError(
            f"{name}() is not supported: minitorch drives one device per process (torch 2.x "
            f"removed the *_multigpu collectives too); call {base}() in each process instead")
    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = f"Not supported: use {base}() with one device per process."
    return fn


all_reduce_multigpu = _multigpu("all_reduce_multigpu")
broadcast_multigpu = _multigpu("broadcast_multigpu")
reduce_multigpu = _multigpu("reduce_multigpu")
all_gather_multigpu = _multigpu("all_gather_multigpu")
reduce_scatter_multigpu = _multigpu("reduce_scatter_multigpu")


# ---- the default backend of a device type -------------------------------------------------

def get_default_backend_for_device(device):
    """The backend init_process_group uses by default for the device's type ("cpu": "gloo",
    "cuda": "nccl", ...); ValueError for a device type with none."""
    from .. import _C
    if isinstance(device, _C.device):
        kind = device.type
    else:
        try:
            kind = _C.device(device).type
        except RuntimeError:
            kind = None
    backend = Backend.default_device_backend_map.get(kind)
    if backend is None:
        raise ValueError(f"Default backend not registered for device : {device}")
    return backend


__all__ += ["get_default_backend_for_device"]
