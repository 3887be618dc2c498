"""Manager: per-step fault tolerance of a data-parallel job (in the spirit of torchft's).

Note [Fault-tolerant steps]
A step is: start_quorum (Optimizer.zero_grad), forward and backward on this replica's share
of the step's global batch (ft.DistributedSampler), the gradients' all-reduce
(ft.DistributedDataParallel, through Manager.allreduce), and should_commit (Optimizer.step),
which applies the optimizer only when the step's all-reduce succeeded everywhere it had to.
  - Steady state: the quorum is the one of the last round; start_quorum does nothing and costs
    nothing (no store round trip).  The gradients' all-reduce carries one more element, the
    commit vote: the replica at position 0 adds 1 when its heartbeat thread has seen a
    replica ask to join.  Every replica whose all-reduce succeeded sees the same total, so
    they agree, without another message, to re-form at the next step boundary.
  - A failure (a peer died: shared memory sees its lock gone, TCP its connection end; or a
    timeout) makes the replica's collective raise.  The replica records the error and aborts
    its process group at once: ProcessGroup.abort interrupts the running operation and closes
    the transport (the shared-memory lock is released, the TCP connections are closed), so
    the peers waiting on this replica fail at their next check (10 ms) as if it had died, and
    so on down the chain: every survivor learns of the death within milliseconds, not only
    those that waited on the dead rank.
    should_commit returns False: the optimizer does not run, the step is not counted.
  - start_quorum then forms a new round among the survivors (Note [Quorum in the store],
    _quorum.py), builds a new process group for it (generation g: ProcessGroupGloo over
    PrefixStore("minitorch_ft/pg/<g>", store), rank = position in the round, size = number of
    members) in the same processes, and the step is redone by the survivors: the sampler gives
    each its share of the same global batch, the gradients are summed and divided by the
    number of participants.
  - Healing: each member registered its committed step; when some member is behind the
    others (a new or restarted replica, or a survivor whose last all-reduce failed where the
    others' succeeded), the first member at the highest step broadcasts the state (every
    registered state_dict function, the step count) over the new group (minitorch.save's
    bytes, no file), and those behind load it.  In the first round (step 0) the replica at
    position 0 sends its state to all (init_sync), so replicas that initialised differently
    agree.
  - A replica left out of a round (it registered too late) is a newcomer of the next round;
    a round that fails to build its group (a member died during recovery) is followed by
    another without the dead.
The store's host must survive: it holds the quorum (see _quorum.py).
"""
import io
import os
import threading
import time
from datetime import timedelta
from enum import Enum

import numpy as np

import minitorch as _mt

from .. import _options
from .._process_group_gloo import ProcessGroupGloo
from .._reduce_op import ReduceOp
from .._store import PrefixStore, TCPStore
from ._quorum import Quorum

__all__ = ["Manager", "WorldSizeMode"]

_PREFIX = "minitorch_ft"
_BUILD_POLL_S = 0.01

# Note [Building a round's group]
# A round's ProcessGroupGloo is built on a thread of its own while the caller watches the
# round's members (their processes on this host, their heartbeats elsewhere): when one dies
# during the build, the others cannot finish it, so the caller gives it up at once and forms
# the next round instead of waiting for connect_timeout; the abandoned build fails at its own
# timeout, or, if it completes after all, its group is aborted.  The build talks to the store
# through a connection of its own (Store.clone), so that an abandoned build's waits hold up
# nobody else.


def _ident(who):
    host, pid, start = who
    return {"host": host, "pid": pid, "start": start}


class WorldSizeMode(Enum):
    """How the number of participants may change (torchft's names).  DYNAMIC: every live
    replica of the quorum participates, at least min_replica_size of them."""
    DYNAMIC = 0
    FIXED_WITH_SPARES = 1


def _seconds(t, what):
    if isinstance(t, timedelta):
        return t.total_seconds()
    if isinstance(t, (int, float)) and not isinstance(t, bool):
        return float(t)
    raise TypeError(f"Manager: {what} must be a timedelta, not {type(t).__name__}")


class _DoneWork:
    """The work of an all-reduce that did not run (the step already failed)."""

    def __init__(self, tensor):
        self._tensor = tensor

    def wait(self, timeout=None):
        return True

    def is_completed(self):
        return True

    def value(self):
        return self._tensor


class _ManagedWork:
    """An all-reduce of the manager's group: wait() never raises; a failure is reported to
    the manager (the step will not commit); on success the tensor holds the average over the
    participants."""

    def __init__(self, manager, work, tensor, divisor, on_done=None):
        self._m = manager
        self._w = work
        self._tensor = tensor
        self._div = divisor
        self._on_done = on_done
        self._done = False

    def wait(self, timeout=None):
        if self._done:
            return True
        self._done = True
        try:
            self._w.wait()
        except Exception as e:  # noqa: BLE001 - a failed step, reported
            self._m.report_error(e)
            return True
        if self._on_done is not None:
            self._on_done(self._tensor)
        else:
            self._tensor.div_(self._div)
        return True

    def is_completed(self):
        return self._done

    def value(self):
        self.wait()
        return self._tensor

    def get_future(self):
        from ...futures import Future
        self.wait()
        f = Future()
        f.set_result(self._tensor)
        return f


class Manager:
    """Keeps a data-parallel job going when replicas die or join (Note [Fault-tolerant steps]).

    ``Manager(pg=None, load_state_dict=..., state_dict=..., min_replica_size=..., timeout=...,
    store=...)``: `store` is the job's store (or ``store_addr``/``store_port`` of a TCPStore
    server, or the MASTER_ADDR/MASTER_PORT environment); `replica_id` names this replica (the
    REPLICA_ID or RANK environment variable by default); the first round waits for
    `expected_replicas` replicas (WORLD_SIZE by default) or, after `join_timeout`, for at least
    `min_replica_size`.  `timeout` bounds every collective, `quorum_timeout` the forming of a
    quorum, `connect_timeout` the building of a round's process group.
    """

    def __init__(self, pg=None, load_state_dict=None, state_dict=None, min_replica_size=1,
                 use_async_quorum=True, timeout=timedelta(seconds=60),
                 quorum_timeout=timedelta(seconds=60), connect_timeout=timedelta(seconds=10),
                 rank=None, world_size=None, world_size_mode=WorldSizeMode.DYNAMIC,
                 store_addr=None, store_port=None, lighthouse_addr=None, replica_id=None,
                 port=None, hostname=None, heartbeat_interval=timedelta(milliseconds=100),
                 checkpoint_transport=None, init_sync=True, max_retries=None, quorum_retries=0,
                 *, store=None, expected_replicas=None, join_timeout=timedelta(seconds=30),
                 heartbeat_timeout=timedelta(seconds=5)):
        if pg is not None:
            raise NotImplementedError(
                "ft.Manager makes the process group of each quorum itself (minitorch's CPU "
                "backend over the job's store); pass pg=None")
        if lighthouse_addr is not None:
            raise NotImplementedError(
                "ft.Manager keeps the quorum in the job's store: there is no lighthouse server")
        if checkpoint_transport is not None:
            raise NotImplementedError(
                "ft.Manager sends the state to a recovering replica by a broadcast over the "
                "quorum's process group; other checkpoint transports are not implemented")
        if port is not None:
            raise NotImplementedError("ft.Manager runs no server of its own: port must be None")
        if world_size_mode != WorldSizeMode.DYNAMIC:
            raise NotImplementedError("ft.Manager: only WorldSizeMode.DYNAMIC is implemented")
        if (world_size not in (None, 1)) or (rank not in (None, 0)):
            raise NotImplementedError(
                "ft.Manager: a replica is one process here (rank=0, world_size=1); replica "
                "groups of several ranks (a model sharded inside each replica) are not "
                "implemented")
        if isinstance(min_replica_size, bool) or not isinstance(min_replica_size, int) \
                or min_replica_size < 1:
            raise ValueError(f"Manager: min_replica_size must be a positive int, got "
                             f"{min_replica_size!r}")
        if store is None:
            addr = store_addr or os.environ.get("MASTER_ADDR")
            port_ = store_port or os.environ.get("MASTER_PORT")
            if not addr or not port_:
                raise ValueError("Manager: give the job's store (store=...), or store_addr and "
                                 "store_port, or set MASTER_ADDR and MASTER_PORT")
            store = TCPStore(addr, int(port_), is_master=False,
                             timeout=timedelta(seconds=_seconds(connect_timeout,
                                                                "connect_timeout")))
        if replica_id is None:
            replica_id = os.environ.get("REPLICA_ID", os.environ.get("RANK"))
            if replica_id is None:
                raise ValueError("Manager: give replica_id (or set REPLICA_ID or RANK)")
        self._replica_id = str(replica_id)
        if expected_replicas is None:
            expected_replicas = int(os.environ.get("WORLD_SIZE", min_replica_size))
        self._timeout = timedelta(seconds=_seconds(timeout, "timeout"))
        self._quorum_timeout_s = _seconds(quorum_timeout, "quorum_timeout")
        self._connect_timeout = timedelta(seconds=_seconds(connect_timeout, "connect_timeout"))
        self._min_replica_size = min_replica_size
        self._use_async_quorum = bool(use_async_quorum)
        self._init_sync = bool(init_sync)
        self._max_retries = max_retries
        self._raw_store = store
        self._store = PrefixStore(_PREFIX, store)
        hb_store = None
        clone = getattr(store, "clone", None)
        if callable(clone):
            try:
                hb_store = PrefixStore(_PREFIX, clone())
            except Exception:  # noqa: BLE001 - the heartbeat shares the store then
                hb_store = None
        self._quorum = Quorum(self._store, self._replica_id, min_replica_size,
                              int(expected_replicas), _seconds(join_timeout, "join_timeout"),
                              _seconds(heartbeat_interval, "heartbeat_interval"),
                              _seconds(heartbeat_timeout, "heartbeat_timeout"), hb_store)
        self._load_fns, self._save_fns = {}, {}
        if load_state_dict is not None or state_dict is not None:
            self.set_state_dict_fns(load_state_dict, state_dict)
        self._pg = None
        self._decision = None       # the round this replica is a member of
        self._next_round = 0
        self._step = 0
        self._batches = 0
        self._errored = None
        self._reform = False
        self._pending = []          # works of this step
        self._vote = None           # the commit vote's total, when the gradients carried it
        self._failures = 0          # consecutive steps that did not commit
        self._closed = False

    # ---------------------------------------------------------------- state functions
    def set_state_dict_fns(self, load_state_dict, state_dict):
        """The user's state (model and optimizer) under the key "default"."""
        self.register_state_dict_fn("default", load_state_dict, state_dict)

    def register_state_dict_fn(self, key, load_state_dict, state_dict):
        if not callable(load_state_dict) or not callable(state_dict):
            raise TypeError("Manager: load_state_dict and state_dict must be callable")
        self._load_fns[key] = load_state_dict
        self._save_fns[key] = state_dict

    def state_dict(self):
        """The manager's own state: the committed step and batch counts."""
        return {"step": self._step, "batches_committed": self._batches}

    def load_state_dict(self, state_dict):
        self._step = int(state_dict["step"])
        self._batches = int(state_dict["batches_committed"])

    # ---------------------------------------------------------------- queries
    def current_step(self):
        """The number of committed steps."""
        return self._step

    def batches_committed(self):
        """The replicas' batches in the committed steps (participants summed per step)."""
        return self._batches

    def num_participants(self):
        return len(self._decision["members"]) if self._decision is not None else 0

    def participating_rank(self):
        """This replica's position in the quorum (its rank in the current process group)."""
        if self._decision is None:
            return None
        return self._decision["members"].index(self._replica_id)

    def is_participating(self):
        return self._decision is not None and self._pg is not None

    def replica_id(self):
        return self._replica_id

    def quorum_generation(self):
        """The round (process group generation) this replica is a member of; 0 before any."""
        return self._decision["g"] if self._decision is not None else 0

    def join_pending(self):
        """Whether a replica has asked to join since the current quorum was formed (it enters
        at a coming step boundary)."""
        return self._decision is not None and self._quorum.join_now > self._decision["join"]

    def errored(self):
        """The error of the current step, or None."""
        return self._errored

    # ---------------------------------------------------------------- the step
    def start_quorum(self, allow_heal=True, shrink_only=False, timeout=None):
        """At a step boundary: re-forms the quorum when the last step failed, a replica asked
        to join, or there is none yet (Note [Fault-tolerant steps]); a no-op otherwise."""
        if not allow_heal:
            raise NotImplementedError("ft.Manager: start_quorum(allow_heal=False) is not "
                                      "implemented: a replica behind is always healed")
        if shrink_only:
            raise NotImplementedError("ft.Manager: start_quorum(shrink_only=True) is not "
                                      "implemented")
        if self._closed:
            raise RuntimeError("ft.Manager: used after shutdown()")
        self._finish_pending()
        if self._pg is None or self._errored is not None or self._reform:
            limit = self._quorum_timeout_s if timeout is None else _seconds(timeout, "timeout")
            self._form(time.monotonic() + limit)
        self._errored = None
        self._vote = None
        self._pending = []

    def wait_quorum(self):
        """Returns at once: start_quorum forms the quorum before it returns (the steady state
        costs nothing to overlap, Note [Fault-tolerant steps]); use_async_quorum changes
        nothing."""
        return None

    def report_error(self, e):
        """Marks the step failed and aborts the group, so that the peers fail fast too."""
        if self._errored is None:
            self._errored = e
        if self._pg is not None:
            try:
                self._pg.abort()
            except Exception:  # noqa: BLE001
                pass

    def allreduce(self, tensor, should_quantize=False, _on_done=None):
        """Starts the sum of `tensor` over the quorum, divided by the number of participants
        (in place); returns a work whose wait() does not raise (a failure fails the step)."""
        if should_quantize:
            raise NotImplementedError("ft.Manager.allreduce: should_quantize is not implemented")
        if self._errored is not None or self._pg is None:
            return _DoneWork(tensor)
        opts = _options.AllreduceOptions()
        opts.reduceOp = ReduceOp(ReduceOp.SUM)
        try:
            w = self._pg.allreduce([tensor], opts)
        except Exception as e:  # noqa: BLE001
            self.report_error(e)
            return _DoneWork(tensor)
        mw = _ManagedWork(self, w, tensor, self.num_participants(), _on_done)
        self._pending.append(mw)
        return mw

    def wrap_future(self, fut, default, timeout=None):
        """A future of `fut`'s value, or of `default` when `fut` fails (the failure is
        reported: the step will not commit)."""
        from ...futures import Future
        out = Future()

        def done(f):
            try:
                out.set_result(f.value())
            except Exception as e:  # noqa: BLE001
                self.report_error(e)
                out.set_result(default)
        fut.add_done_callback(done)
        return out

    def _local_vote(self):
        """1 when this replica is at position 0 and a replica asked to join, else 0."""
        return 1.0 if self.participating_rank() == 0 and self.join_pending() else 0.0

    def _record_vote(self, total):
        self._vote = total

    def _finish_pending(self):
        pending, self._pending = self._pending, []
        for w in pending:
            w.wait()

    def should_commit(self, timeout=None):
        """Waits for the step's all-reduces; True when they all succeeded (the optimizer may
        step and the step counts), False when the step failed and will be redone."""
        self._finish_pending()
        if self._errored is None and self._pg is not None and self._vote is None:
            v = _mt.tensor([self._local_vote()])
            opts = _options.AllreduceOptions()
            opts.reduceOp = ReduceOp(ReduceOp.SUM)
            try:
                self._pg.allreduce([v], opts).wait()
                self._vote = float(v.item())
            except Exception as e:  # noqa: BLE001
                self.report_error(e)
        ok = self._errored is None and self._pg is not None
        if ok:
            self._step += 1
            self._batches += self.num_participants()
            self._failures = 0
            if self._vote:
                self._reform = True
        else:
            self._failures += 1
            if self._max_retries is not None and self._failures > self._max_retries:
                raise RuntimeError(f"ft.Manager: {self._failures} steps in a row failed "
                                   f"(max_retries={self._max_retries}); last error: "
                                   f"{self._errored}")
        self._vote = None
        return ok

    # ---------------------------------------------------------------- forming a quorum
    def _form(self, deadline):
        if self._pg is not None:
            self._pg.abort()
            self._pg = None
        while True:
            if self._decision is not None:
                prev, newcomer = self._decision, False
                g = prev["g"] + 1
            else:
                g = max(self._quorum.latest() + 1, self._next_round)
                prev, newcomer = self._quorum.decision(g - 1), True
            d = self._quorum.form(g, prev, self._step, newcomer, deadline)
            if self._replica_id not in d["members"] or d["who"][self._replica_id] != \
                    self._quorum.who():
                # left out, or the member of that name is an earlier process of this replica
                # (restarted): a newcomer of the next round
                self._decision = None
                self._next_round = d["g"] + 1
                continue
            self._decision = d
            rank = d["members"].index(self._replica_id)
            size = len(d["members"])
            try:
                pg = self._build(d, rank, size)
            except Exception:  # noqa: BLE001 - a member died while building: next round
                if time.monotonic() > deadline:
                    raise
                continue
            pg.set_timeout(self._timeout)
            try:
                self._heal(pg, d, rank)
            except Exception:  # noqa: BLE001 - the source or a receiver died: next round
                pg.abort()
                if time.monotonic() > deadline:
                    raise
                continue
            self._pg = pg
            self._reform = False
            self._errored = None
            return

    def _build(self, d, rank, size):
        """The process group of round d (Note [Building a round's group])."""
        g = d["g"]
        box = {"abandoned": False}
        lock = threading.Lock()

        clone = getattr(self._raw_store, "clone", None)
        # a connection of its own: an abandoned build's waits would hold up a shared one
        store = clone() if callable(clone) else self._raw_store

        def build():
            try:
                pg = ProcessGroupGloo(PrefixStore(f"{_PREFIX}/pg/{g}", store), rank, size,
                                      self._connect_timeout)
            except BaseException as e:  # noqa: BLE001 - handed to the caller
                box["error"] = e
                return
            with lock:
                if box["abandoned"]:
                    pg.abort()
                else:
                    box["pg"] = pg

        th = threading.Thread(target=build, name=f"ft-build-{g}", daemon=True)
        th.start()
        others = [m for m in d["members"] if m != self._replica_id]
        while True:
            th.join(_BUILD_POLL_S)
            if not th.is_alive():
                break
            gone = [m for m in others if self._quorum.dead(m, _ident(d["who"][m]))]
            if gone:
                with lock:
                    if "pg" not in box:
                        box["abandoned"] = True
                        raise RuntimeError(f"replica(s) {gone} of round {g} died while its "
                                           "process group was being built")
                break
        if "error" in box:
            raise box["error"]
        return box["pg"]

    def _heal(self, pg, d, rank):
        steps = d["steps"]
        top = max(steps.values())
        behind = [m for m in d["members"] if steps[m] < top]
        if not behind and not (top == 0 and self._init_sync and len(d["members"]) > 1):
            self._step = top
            return
        src = next(i for i, m in enumerate(d["members"]) if steps[m] == top)
        if rank == src:
            buf = io.BytesIO()
            _mt.save({"user": {k: fn() for k, fn in self._save_fns.items()},
                      "manager": self.state_dict()}, buf)
            payload = np.frombuffer(buf.getbuffer(), dtype=np.uint8).copy()
            n = _mt.tensor([payload.size], dtype=_mt.int64)
        else:
            n = _mt.zeros(1, dtype=_mt.int64)
        pg.broadcast([n], root=src).wait()
        data = _mt.from_numpy(payload) if rank == src else _mt.empty(int(n.item()),
                                                                        dtype=_mt.uint8)
        pg.broadcast([data], root=src).wait()
        if rank != src and (steps[self._replica_id] < top or top == 0):
            state = _mt.load(io.BytesIO(data.numpy().tobytes()), weights_only=False)
            for k, v in state["user"].items():
                fn = self._load_fns.get(k)
                if fn is not None:
                    fn(v)
            self.load_state_dict(state["manager"])
        self._step = top

    def shutdown(self, wait=True):
        """Leaves the job: the others form their next round without this replica at once
        (instead of waiting for it), and the group is aborted."""
        if self._closed:
            return
        self._closed = True
        try:
            self._quorum.leave()
        except Exception:  # noqa: BLE001 - the store is gone: nobody to tell
            self._quorum.stop()
        if self._pg is not None:
            self._pg.abort()
            self._pg = None

    def __repr__(self):
        return (f"<ft.Manager replica {self._replica_id} step {self._step} generation "
                f"{self.quorum_generation()} participants {self.num_participants()}>")
