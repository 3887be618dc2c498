"""The quorum of a fault-tolerant job, kept in the job's store (no server of its own).

Note [Quorum in the store]
Every replica (one process, named by its replica id) publishes where it runs
(``alive/<id>``: host key, pid, the process's start time) and bumps a heartbeat counter
(``hb/<id>``) from a thread.  Membership changes by rounds numbered 1, 2, ...: round g's
decision (``q/<g>/decision``) names its members in order, each member's committed step, and
the join counter seen when it was made.  A participant of round g:
  1. registers: ``q/<g>/reg/<id>`` its step, pid and start time, then appends its id to
     ``q/<g>/who`` (one atomic operation); a replica that wants in from outside
     (a new or restarted process) then bumps ``join``, so that the members re-form at their
     next step boundary;
  2. polls (every 2 ms) until the round is decided, or decides it itself: the round is ready
     when every member of round g-1 has registered or is dead, and at least min_replica_size
     live replicas have registered (round 1, without predecessors: the expected number of
     replicas, or min_replica_size after join_timeout).  The proposal (the members of g-1 that
     registered, in their order, then the newcomers by id) is written with compare_set, so
     the first proposal wins and every participant follows the same decision;
  3. a participant left out (it registered after the decision) takes part in round g+1 as a
     newcomer.
Joining the running job: a replica that wants in takes part in the round after the latest
decided one, L + 1, with L's decision as its predecessor; L is read from the decisions
themselves (``gen`` is only a hint that the winner of a round raises, with compare_set, to
at most that round; it may lag behind a decision just made, never run ahead of one).  Round 1
is the only round without a predecessor, and the only one that may start a job: a round after
it is decided only when one of its members is a process of the round before (it carries the
job's state, from which the others are healed); a newcomer that finds every process of L gone
raises instead of starting a job of its own from step 0.  Each proposal names its proposer
(``by``), so that of several participants proposing the same members exactly one has won.
(A race once broke this: ``gen`` was raised by every participant whose proposal equalled the
stored decision, each by the difference it had read, so two of them could carry it past the
latest round; a replacement started during the survivors' recovery then took that undecided
round, whose predecessor it could not find, for round 1, asked nobody to re-form, and after
join_timeout formed a quorum of its own at step 0.)
A decision also names each member's process (host key, pid, start time): a restarted process
of a replica that an earlier process registered is not that member (it joins as a newcomer).
Dead means: the process said it left (Manager.shutdown writes ``left/<id>``); on this host
(same host name, boot id, pid and network namespaces, or the same MINITORCH_HOST_ID) the
process is gone, a zombie, or its pid now names another process (start time); on another host
(a network namespace is a host of its own, as for the transports), its heartbeat has not
moved for heartbeat_timeout as seen by the observer's own clock (no clock is compared across
hosts).  A live participant is always waited for; only a dead one is left out, so a slow
survivor is never dropped by mistake.
The store itself is the single point that must survive: the process hosting a TCPStore
server (or the file system of a FileStore) must outlive the job; losing it ends the job.
"""
import json
import os
import socket
import threading
import time

__all__ = []

_POLL_S = 0.002


def _read(path):
    try:
        with open(path) as f:
            return f.read().strip()
    except OSError:
        return ""


def host_key():
    """What identifies this host and pid namespace: pids compare only within one.  A network
    namespace is a host of its own, as for the transports (Note [Choosing a transport]);
    MINITORCH_HOST_ID, when set, stands for all of it: replicas with different ids are on
    different hosts to each other."""
    hid = os.environ.get("MINITORCH_HOST_ID")
    if hid:
        return f"id:{hid}"
    ns = []
    for kind in ("pid", "net"):
        try:
            ns.append(os.readlink(f"/proc/self/ns/{kind}"))
        except OSError:
            ns.append("")
    return f"{socket.gethostname()}|{_read('/proc/sys/kernel/random/boot_id')}|{'|'.join(ns)}"


def _proc_start(pid):
    """(state, start time in clock ticks) of process pid, or None when there is none."""
    s = _read(f"/proc/{pid}/stat")
    if not s:
        return None
    rest = s[s.rfind(")") + 2:].split()
    try:
        return rest[0], int(rest[19])
    except (IndexError, ValueError):
        return None


def my_identity():
    st = _proc_start(os.getpid())
    return {"host": host_key(), "pid": os.getpid(), "start": st[1] if st else 0}


def process_alive(ident, here):
    """Whether the process described by ident ({host, pid, start}) runs, when it is on this
    host; None when it is elsewhere (the heartbeat decides then)."""
    if ident.get("host") != here:
        return None
    st = _proc_start(int(ident["pid"]))
    if st is None or st[0] in ("Z", "X", "x"):
        return False
    return not ident.get("start") or st[1] == int(ident["start"])


class Quorum:
    """The store protocol of Note [Quorum in the store] for one replica."""

    def __init__(self, store, replica_id, min_replica_size, expected, join_timeout_s,
                 heartbeat_interval_s, heartbeat_timeout_s, hb_store=None):
        self.store = store
        self.rid = replica_id
        self.min_size = min_replica_size
        self.expected = expected
        self.join_timeout = join_timeout_s
        self.hb_timeout = heartbeat_timeout_s
        self.here = host_key()
        self.me = my_identity()
        self.store.set(f"alive/{self.rid}", json.dumps(self.me))
        self._hb_seen = {}          # id -> (counter, when it last moved, by our clock)
        self.join_now = 0           # the join counter as the heartbeat thread last read it
        self._stop = threading.Event()
        self._hb_store = hb_store if hb_store is not None else store
        self._hb_interval = heartbeat_interval_s
        self._beat()
        self._thread = threading.Thread(target=self._heartbeat, name="ft-heartbeat", daemon=True)
        self._thread.start()

    # ------------------------------------------------------------------ liveness
    def _beat(self):
        self._hb_store.add(f"hb/{self.rid}", 1)
        self.join_now = self._hb_store.add("join", 0)

    def _heartbeat(self):
        while not self._stop.wait(self._hb_interval):
            try:
                self._beat()
            except Exception:  # noqa: BLE001 - the store is gone: nothing to tell anybody
                return

    def who(self):
        """This process, as a decision names its members' processes."""
        return _who(self.me)

    def stop(self):
        self._stop.set()

    def leave(self):
        """Tells the others that this process takes part in no more rounds."""
        self.stop()
        self.store.set(f"left/{self.rid}", json.dumps(self.who()))

    def _ident(self, rid, reg=None):
        if reg is not None:
            return reg
        try:
            if not self.store.check([f"alive/{rid}"]):
                return None
            return json.loads(self.store.get(f"alive/{rid}"))
        except Exception:  # noqa: BLE001
            return None

    def dead(self, rid, reg=None):
        ident = self._ident(rid, reg)
        if ident is not None and self.store.check([f"left/{rid}"]) and \
                json.loads(self.store.get(f"left/{rid}")) == _who(ident):
            return True     # that process left (Manager.shutdown)
        if ident is not None:
            alive = process_alive(ident, self.here)
            if alive is not None:
                return not alive
        v = self.store.add(f"hb/{rid}", 0)
        now = time.monotonic()
        seen = self._hb_seen.get(rid)
        if seen is None or seen[0] != v:
            self._hb_seen[rid] = (v, now)
            return False
        return now - seen[1] > self.hb_timeout

    # ------------------------------------------------------------------ rounds
    def latest(self):
        """The number of the latest decided round (0: none).  ``gen`` is only a hint (it may
        lag behind a decision just made); the decisions themselves say (rounds are decided
        in order: 1, 2, ...)."""
        g = int(self.store.add("gen", 0))
        while g > 0 and not self.store.check([f"q/{g}/decision"]):
            g -= 1
        while self.store.check([f"q/{g + 1}/decision"]):
            g += 1
        return g

    def _advance(self, g):
        """Raises the hint ``gen`` to g (an atomic maximum: never past a decided round)."""
        cur = int(self.store.add("gen", 0))
        while cur < g:
            got = self.store.compare_set("gen", str(cur), str(g))
            cur = int(got.decode() if isinstance(got, bytes) else got)

    def decision(self, g):
        key = f"q/{g}/decision"
        if g < 1 or not self.store.check([key]):
            return None
        return json.loads(self.store.get(key))

    def form(self, g, prev, step, newcomer, deadline):
        """Takes part in round g (prev: the decision of round g-1, None for round 1 only);
        returns the decision, which may leave this replica out."""
        if prev is None and g != 1:
            raise RuntimeError(f"replica {self.rid}: round {g} without the decision of round "
                               f"{g - 1}: a replica joins the running job, it never starts one")
        d = self.decision(g)
        if d is not None:
            return d
        reg = dict(self.me, step=int(step))
        self.store.set(f"q/{g}/reg/{self.rid}", json.dumps(reg))
        # one atomic append: a registrant that dies half-way leaves nothing half-written
        self.store.append(f"q/{g}/who", f"{self.rid};")
        if newcomer and prev is not None:
            self.store.add("join", 1)
        expected = list(prev["members"]) if prev is not None else []
        order, regs = [], {}
        first = time.monotonic()
        while True:
            d = self.decision(g)
            if d is not None:
                return d
            join = self.store.add("join", 0)
            listed = self.store.get(f"q/{g}/who").decode().split(";")[:-1]
            for r in listed[len(order):]:   # new registrations (a restarted one: again)
                order.append(r)
                regs[r] = json.loads(self.store.get(f"q/{g}/reg/{r}"))
            live = [r for r in dict.fromkeys(order) if not self.dead(r, regs[r])]
            missing = [e for e in expected if e not in regs and not self.dead(e)]
            # a round after the first carries the job on: one of its members at least is a
            # process of the round before (a newcomer, or a restarted process of a member,
            # never forms a round of newcomers alone from its own state)
            carried = prev is None or any(
                e in live and _who(regs[e]) == prev["who"][e] for e in expected)
            if not carried and all(self.dead(e, _ident(prev["who"][e])) for e in expected):
                raise RuntimeError(
                    f"replica {self.rid}: every process of round {g - 1} ({expected}) is gone, "
                    "and the job's state with them: a replica joins a running job, it does not "
                    "start one of its own (start a new job, with a new store)")
            ready = carried and not missing and len(live) >= self.min_size
            if ready and prev is None and len(live) < self.expected:
                ready = time.monotonic() - first >= self.join_timeout
            if ready:
                members = [e for e in expected if e in live]
                members += sorted((r for r in live if r not in expected), key=_id_key)
                # "by" makes every proposal differ: several participants may propose the same
                # members, and only the one whose text was stored has won
                prop = {"g": g, "members": members, "join": int(join),
                        "steps": {r: int(regs[r]["step"]) for r in members},
                        "who": {r: _who(regs[r]) for r in members}, "by": self.who()}
                mine = json.dumps(prop)
                got = self.store.compare_set(f"q/{g}/decision", "", mine)
                got = got.decode() if isinstance(got, bytes) else got
                if got == mine:   # this proposal won: the latest round is g now
                    self._advance(g)
                return json.loads(got)
            if time.monotonic() > deadline:
                raise TimeoutError(
                    f"replica {self.rid}: no quorum in round {g}: registered {sorted(regs)}, "
                    f"waiting for {missing} (alive but not registered) with min_replica_size "
                    f"{self.min_size}")
            time.sleep(_POLL_S)


def _id_key(rid):
    return (0, int(rid), "") if rid.isdigit() else (1, 0, rid)


def _ident(who):
    host, pid, start = who
    return {"host": host, "pid": pid, "start": start}


def _who(ident):
    return [ident["host"], int(ident["pid"]), int(ident["start"])]
