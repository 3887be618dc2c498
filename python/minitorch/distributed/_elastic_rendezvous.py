"""The c10d rendezvous of ``minitorch.distributed.run``: launchers ("nodes") meet in a
TCPStore, agree on who takes part in a round, and learn their node rank, the number of
nodes and the master address of their workers (Note [Elastic rendezvous])."""
# Note [Elastic rendezvous]
# torchrun's agents meet at --rdzv-endpoint, where a TCPStore is served by the launcher on
# that host (the first to bind the port).  A job is a sequence of rounds; all of its keys
# live under minitorch/rdzv/<run id>/:
#   round          the number of the open round (created as "0" by the first launcher)
#   <r>/joined     a counter: a launcher joining round r takes the next index from it
#   <r>/size       written once (compare_set) when round r closes: its first `size`
#                  joiners take part, with node rank = join index; a later joiner waits
#   <r>/master     "addr:port" of the workers' store, published by index 0 (a free port
#                  on its host, its address on the route to the endpoint)
#   <r>/finished   a counter of nodes whose workers all succeeded (the exit barrier)
#   <r>/left       a counter of nodes whose launcher is about to exit
#   closed         the reason the job ended for good (a node gave up): everyone stops
# A round closes when MAX nodes have joined, or when at least MIN have joined and
# last_call_timeout seconds passed since a launcher first saw MIN of them (torch's
# rendezvous counts last_call from the moment the MIN-th node joined; here each launcher
# starts its clock when it sees MIN, and the first clock to run out closes the round for
# everyone through compare_set).  A launcher not admitted before join_timeout raises
# RendezvousTimeoutError.
# A new round starts when the "round" key moves on (compare_set r -> r+1): a launcher
# restarting after a worker failed does it, and so does a launcher that arrives after
# round r closed with fewer than MAX nodes (torch's wait list: the job grows).  Every
# agent's monitor loop reads "round"; when it moved, the agent stops its workers and
# joins the new round, so all workers of all nodes restart together with new ranks and
# sizes.  A latecomer to a round that already has MAX nodes waits for the next round
# (torch's redundancy list).
# The launcher serving the store leaves last: before exiting it waits (up to
# close_timeout) until every node of its round counted itself in <r>/left, so that the
# others can still read why the job ended.
import socket
import time
from datetime import timedelta

__all__ = ["RendezvousError", "RendezvousTimeoutError", "RendezvousClosedError", "RendezvousConfig",
           "parse_rendezvous_config", "Rendezvous"]

# torch's defaults (seconds)
JOIN_TIMEOUT = 600
LAST_CALL_TIMEOUT = 30
CLOSE_TIMEOUT = 30
# seconds between two looks at the store while waiting
_POLL = 0.05


class RendezvousError(Exception):
    """The rendezvous failed."""


class RendezvousTimeoutError(RendezvousError):
    """The rendezvous did not complete in time."""


class RendezvousClosedError(RendezvousError):
    """The job's rendezvous was closed: a node gave up."""


def parse_rendezvous_config(text):
    """'k1=v1,k2=v2' -> {k: v} (--rdzv-conf), with torch's errors for malformed items."""
    config = {}
    text = (text or "").strip()
    if not text:
        return config
    for item in text.split(","):
        key, sep, value = item.partition("=")
        key = key.strip()
        if not key:
            raise ValueError("The rendezvous configuration string must be in format "
                             "<key1>=<value1>,...,<keyN>=<valueN>.")
        value = value.strip() if sep else ""
        if not value:
            raise ValueError(f"The rendezvous configuration option '{key}' must have a value specified.")
        config[key] = value
    return config


def _int_option(config, key, default):
    value = config.get(key)
    if value is None:
        return default
    try:
        return int(value)
    except ValueError:
        raise ValueError(f"The rendezvous configuration option '{key}' does not represent a valid "
                         "integer value.") from None


class RendezvousConfig:
    """The options of the c10d rendezvous read from --rdzv-conf.  As torch's, it reads the
    keys it knows and ignores the others; the timeouts are whole seconds, positive."""

    def __init__(self, config=None):
        config = dict(config or {})
        self.join_timeout = _int_option(config, "join_timeout", JOIN_TIMEOUT)
        self.last_call_timeout = _int_option(config, "last_call_timeout", LAST_CALL_TIMEOUT)
        self.close_timeout = _int_option(config, "close_timeout", CLOSE_TIMEOUT)
        for name in ("join", "last_call", "close"):
            if getattr(self, name + "_timeout") <= 0:
                raise ValueError(f"The {name} timeout ({timedelta(seconds=getattr(self, name + '_timeout'))})"
                                 " must be positive.")
        # the workers' store timeout (torch's "timeout" key, seconds), kept for the store
        self.store_timeout = _int_option(config, "timeout", JOIN_TIMEOUT)
        self.raw = config


def _address_towards(host, port):
    """This node's address on the route to host:port (what other nodes can reach)."""
    try:
        family = socket.getaddrinfo(host, port)[0][0]
        with socket.socket(family, socket.SOCK_DGRAM) as sock:
            sock.connect((host, port))  # UDP: picks the route, sends nothing
            return sock.getsockname()[0]
    except OSError:
        return socket.getfqdn()


def _free_port(addr):
    family = socket.AF_INET6 if ":" in addr else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as s:
        try:
            s.bind((addr, 0))
        except OSError:
            s.bind(("", 0))
        return s.getsockname()[1]


class Rendezvous:
    """One launcher's side of the rendezvous of run `run_id` in `store` for MIN..MAX nodes."""

    def __init__(self, store, endpoint, run_id, min_nodes, max_nodes, config=None, is_host=False):
        self.store = store
        self.is_host = is_host  # this process serves the store
        self.endpoint = endpoint  # (host, port), for the messages and the master address
        self.min_nodes, self.max_nodes = min_nodes, max_nodes
        self.config = config or RendezvousConfig()
        self.prefix = f"minitorch/rdzv/{run_id}/"
        self.run_id = run_id
        self.round = None  # the round this launcher takes part in
        self.node_rank = self.nnodes = None
        self.master_addr = self.master_port = None
        store.compare_set(self._k("round"), "", "0")

    def _k(self, key):
        return self.prefix + key

    def _where(self):
        return f"{self.endpoint[0]}:{self.endpoint[1]}"

    def current_round(self):
        return int(self.store.get(self._k("round")))

    def closed_reason(self):
        """The reason the job was closed, or None while it runs."""
        if self.store.check([self._k("closed")]):
            return self.store.get(self._k("closed")).decode(errors="replace")
        return None

    def close(self, reason):
        """Ends the job for every node (a node gave up)."""
        self.store.compare_set(self._k("closed"), "", reason)

    def next_round(self):
        """Asks every node to meet again (the round after the one this launcher was in)."""
        self.store.compare_set(self._k("round"), str(self.round), str(self.round + 1))

    def join(self):
        """Waits until this launcher is admitted to a round; sets node_rank, nnodes, master_addr,
        master_port and round.  Raises RendezvousTimeoutError / RendezvousClosedError."""
        cfg = self.config
        deadline = time.monotonic() + cfg.join_timeout
        rnd = self.current_round()
        while True:
            admitted = self._join_round(rnd, deadline)
            if admitted:
                return
            # not admitted to rnd: it closed without us; ask for a new round if the job
            # has room, else wait for the next one
            size = int(self.store.get(self._k(f"{rnd}/size")))
            if size < self.max_nodes:
                self.store.compare_set(self._k("round"), str(rnd), str(rnd + 1))
            while self.current_round() == rnd:
                self._check(deadline, f"waiting for round {rnd + 1} (round {rnd} has {size} nodes)")
                time.sleep(_POLL)
            rnd = self.current_round()

    def _check(self, deadline, what):
        reason = self.closed_reason()
        if reason is not None:
            raise RendezvousClosedError(f"the rendezvous '{self.run_id}' at {self._where()} is closed: {reason}")
        if time.monotonic() > deadline:
            raise RendezvousTimeoutError(
                f"the rendezvous '{self.run_id}' at {self._where()} timed out after "
                f"{self.config.join_timeout} s (join_timeout) {what}")

    def _join_round(self, rnd, deadline):
        store, k = self.store, self._k
        index = store.add(k(f"{rnd}/joined"), 1) - 1
        if index == 0:
            addr = _address_towards(*self.endpoint)
            store.set(k(f"{rnd}/master"), f"{addr}:{_free_port(addr)}")
        saw_min = None
        while True:
            if store.check([k(f"{rnd}/size")]):
                size = int(store.get(k(f"{rnd}/size")))
                if index >= size:
                    return False
                store.wait([k(f"{rnd}/master")])
                addr, _, port = store.get(k(f"{rnd}/master")).decode().rpartition(":")
                self.round, self.node_rank, self.nnodes = rnd, index, size
                self.master_addr, self.master_port = addr, int(port)
                return True
            if self.current_round() != rnd:
                # the round moved on before it closed (a restart): join the new one
                return self._join_round(self.current_round(), deadline)
            joined = store.add(k(f"{rnd}/joined"), 0)
            if joined >= self.max_nodes:
                store.compare_set(k(f"{rnd}/size"), "", str(self.max_nodes))
                continue
            if joined >= self.min_nodes:
                now = time.monotonic()
                if saw_min is None:
                    saw_min = now
                elif now - saw_min >= self.config.last_call_timeout:
                    store.compare_set(k(f"{rnd}/size"), "", str(joined))
                    continue
            self._check(deadline, f"with {joined} of --nnodes={self.min_nodes}:{self.max_nodes} nodes "
                        f"in round {rnd}")
            time.sleep(_POLL)

    def leave(self):
        """Counts this launcher out of its round; the store's host then waits for the others
        (up to close_timeout).  Never raises: the launcher is exiting anyway."""
        if self.round is None and not self.is_host:
            return
        try:
            if self.round is not None:
                self.store.add(self._k(f"{self.round}/left"), 1)
            if not self.is_host:
                return
            deadline = time.monotonic() + self.config.close_timeout
            while time.monotonic() < deadline:
                rnd = self.current_round() if self.round is None else self.round
                size = self.store.get(self._k(f"{rnd}/size")) if self.store.check(
                    [self._k(f"{rnd}/size")]) else b"0"
                if self.store.add(self._k(f"{rnd}/left"), 0) >= int(size):
                    return
                time.sleep(_POLL)
        except Exception:
            pass

    def finish(self, timeout):
        """The exit barrier: this node's workers succeeded; waits (up to `timeout` s) until every
        node of the round finished, the job was closed or a new round began."""
        k = self._k
        self.store.add(k(f"{self.round}/finished"), 1)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.store.add(k(f"{self.round}/finished"), 0) >= self.nnodes:
                return
            if self.closed_reason() is not None or self.current_round() != self.round:
                return
            time.sleep(_POLL)
