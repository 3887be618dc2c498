"""``python -m minitorch.distributed.run``: torchrun for minitorch.

Starts ``--nproc_per_node`` copies of a script (or ``-m module``) on this node
with the environment that ``init_process_group("gloo")`` (env://) reads::

    python -m minitorch.distributed.run --nproc_per_node=2 train.py --epochs 3
    python -m minitorch.distributed.run --standalone --nproc_per_node=4 -m pkg.train
    # two nodes: the same command on each, --node_rank=0 and --node_rank=1
    python -m minitorch.distributed.run --nnodes=2 --node_rank=0 --nproc_per_node=8 \\
        --master_addr=192.168.1.1 --master_port=12355 train.py

Each worker gets RANK, LOCAL_RANK, WORLD_SIZE, LOCAL_WORLD_SIZE, GROUP_RANK,
ROLE_RANK, ROLE_WORLD_SIZE, ROLE_NAME, MASTER_ADDR, MASTER_PORT,
TORCHELASTIC_RESTART_COUNT, TORCHELASTIC_MAX_RESTARTS, TORCHELASTIC_RUN_ID and,
unless already set, OMP_NUM_THREADS=1.  When a worker fails the others are
terminated (SIGTERM, then SIGKILL after a grace period), the failing rank's
error output is printed and the launcher exits with status 1 (after
``--max_restarts`` restarts of the whole node's workers, if asked for).

Node ranks come from ``--node_rank``, or, with ``--rdzv_backend=c10d
--rdzv_endpoint=host:port`` and no ``--node_rank``, from a rendezvous of the
launchers at the endpoint (see Note [Static rendezvous]).  Elastic ranges of
nodes (``--nnodes=1:4``) are not supported.
"""
# Note [Static rendezvous]
# torchrun's agents meet in a rendezvous (a store) that hands out node ranks and can
# admit and drop nodes.  Here every node is told its rank (--node_rank) and the size
# of the job (--nnodes x --nproc_per_node), so the launcher needs no store of its own:
# the workers' init_process_group(env://) meets at MASTER_ADDR:MASTER_PORT, where
# global rank 0 serves the TCPStore.  --rdzv_endpoint host:port is accepted as
# another way to name that address.  --standalone picks a free local port.
#
# With --rdzv_backend=c10d, several nodes and no --node_rank, the launchers meet
# first in a TCPStore at --rdzv_endpoint (served by the launcher on that host; when
# several launchers run there, the first to bind the port): each takes the next node
# rank from a counter, node 0 picks a free port on its host and publishes
# MASTER_ADDR:MASTER_PORT (its address on the route to the endpoint), and every
# launcher waits until all --nnodes have joined.  Ranks are handed out once:
# nodes cannot join or leave a running job.

import argparse
import os
import signal
import socket
import subprocess
import sys
import threading
import time
import uuid
from collections import deque
from datetime import datetime

__all__ = ["main", "parse_args", "get_args_parser", "run", "LaunchConfig", "launch_agent",
           "ChildFailedError"]

OMP_BANNER = (
    "\n*****************************************\n"
    "Setting OMP_NUM_THREADS environment variable for each process to be {} in default, "
    "to avoid your system being overloaded, please further tune the variable for optimal "
    "performance in your application as needed. \n"
    "*****************************************"
)

# seconds workers get between SIGTERM and SIGKILL when the job is stopped
TERMINATE_GRACE = 5.0
# bytes of each worker's stderr kept to report its error
_STDERR_TAIL = 16 * 1024


class ChildFailedError(Exception):
    """A worker exited with a non-zero status; `failures` maps global rank -> description."""

    def __init__(self, name, failures):
        self.name = name
        self.failures = failures
        super().__init__(self.format_msg())

    def format_msg(self):
        bar, thin = "=" * 60, "-" * 60
        ranks = sorted(self.failures)
        root = self.failures[ranks[0]]
        others = [self.failures[r] for r in ranks[1:]]
        lines = [bar, f"{self.name} FAILED", thin, "Failures:"]
        lines += [_indent(f.describe(i + 1)) for i, f in enumerate(others)] or ["  <NO_OTHER_FAILURES>"]
        lines += [thin, "Root Cause (first observed failure):", _indent(root.describe(0)), bar]
        return "\n".join(lines)


def _indent(text, n=2):
    return "\n".join(" " * n + line for line in text.splitlines())


class _Failure:
    def __init__(self, worker):
        self.rank = worker.rank
        self.local_rank = worker.local_rank
        self.exitcode = worker.proc.returncode
        self.pid = worker.proc.pid
        self.time = datetime.now().strftime("%Y-%m-%d_%H:%M:%S")
        self.error = worker.stderr_tail()

    def describe(self, index):
        code = self.exitcode
        if code is not None and code < 0:
            try:
                code_text = f"{code} (pid: {self.pid}) (signal {signal.Signals(-code).name})"
            except ValueError:
                code_text = f"{code} (pid: {self.pid})"
        else:
            code_text = f"{code} (pid: {self.pid})"
        lines = [f"[{index}]:",
                 f"  time      : {self.time}",
                 f"  host      : {socket.gethostname()}",
                 f"  rank      : {self.rank} (local_rank: {self.local_rank})",
                 f"  exitcode  : {code_text}"]
        if self.error.strip():
            lines.append("  error     :")
            lines += ["    " + line for line in self.error.rstrip().splitlines()]
        else:
            lines.append("  error     : <N/A> (the worker wrote nothing to stderr)")
        return "\n".join(lines)


# ------------------------------------------------------------------ configuration


class LaunchConfig:
    """What one node's launcher starts: sizes, ranks, the rendezvous address and the command."""

    def __init__(self, nnodes, nproc_per_node, node_rank, master_addr, master_port, cmd,
                 script_args=(), max_restarts=0, run_id="none", role="default", local_rank_arg=None,
                 use_env=True, monitor_interval=0.1, name=None):
        self.nnodes = nnodes
        self.nproc_per_node = nproc_per_node
        self.node_rank = node_rank
        self.master_addr = master_addr
        self.master_port = master_port
        self.cmd = list(cmd)  # the program: [python, -u, script] or [python, -u, -m, module]
        self.script_args = list(script_args)
        self.max_restarts = max_restarts
        self.run_id = run_id
        self.role = role
        # legacy launch: the flag ("--local_rank") passed to each worker unless use_env
        self.local_rank_arg = local_rank_arg
        self.use_env = use_env
        self.monitor_interval = monitor_interval
        self.name = name or (cmd[-1] if cmd else "worker")
        # (host, port) of the c10d rendezvous that assigns node_rank, or None
        self.rdzv_endpoint = None

    @property
    def world_size(self):
        return self.nnodes * self.nproc_per_node


def _positive_int(name, value):
    try:
        n = int(value)
    except (TypeError, ValueError):
        raise ValueError(f"{name} must be an integer, got {value!r}") from None
    if n < 1:
        raise ValueError(f"{name} must be at least 1, got {n}")
    return n


def parse_nnodes(value):
    """'N' or 'MIN:MAX' with MIN == MAX -> N; an elastic range raises NotImplementedError."""
    text = str(value)
    if ":" in text:
        lo, _, hi = text.partition(":")
        lo, hi = _positive_int("--nnodes", lo), _positive_int("--nnodes", hi)
        if lo > hi:
            raise ValueError(f"--nnodes={text}: the minimum is larger than the maximum")
        if lo != hi:
            raise NotImplementedError(
                f"--nnodes={text}: elastic ranges of nodes are not supported; the rendezvous "
                "is static, pass a fixed number of nodes")
        return lo
    return _positive_int("--nnodes", text)


def parse_nproc_per_node(value):
    """An integer, or 'auto'/'cpu' (the number of CPUs); 'gpu' needs CUDA."""
    if value in ("auto", "cpu"):
        return os.cpu_count() or 1
    if value == "gpu":
        raise ValueError("--nproc_per_node=gpu: no CUDA devices are available")
    return _positive_int("--nproc_per_node", value)


def _split_endpoint(endpoint, default_port):
    host, sep, port = endpoint.rpartition(":")
    if not sep:
        return endpoint, default_port
    if host.startswith("[") and host.endswith("]"):
        host = host[1:-1]
    try:
        return host, int(port)
    except ValueError:
        raise ValueError(f"--rdzv_endpoint={endpoint!r}: the port must be an integer") from None


def _free_port():
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def worker_command(no_python, module, script, script_args):
    """(program, script args) of a worker: [python, -u, (-m,) script] or [script]."""
    if no_python:
        if module:
            raise ValueError("Don't use both the '--no_python' flag and the '--module' flag at the same time.")
        cmd = [script]
    else:
        cmd = [sys.executable, "-u"]
        if module:
            cmd.append("-m")
        cmd.append(script)
    return cmd, list(script_args)


def _add_bool(parser, *names, help):
    parser.add_argument(*names, action="store_true", help=help)


def _add_common_args(parser):
    """The options torchrun and the legacy launcher share (both spellings: _ and -)."""
    parser.add_argument("--nnodes", type=str, default="1",
                        help="number of nodes, or MIN:MAX with MIN == MAX")
    parser.add_argument("--nproc_per_node", "--nproc-per-node", type=str, default="1",
                        help="number of workers per node (an integer, 'auto' or 'cpu')")
    parser.add_argument("--node_rank", "--node-rank", type=int, default=None,
                        help="rank of this node, 0 .. nnodes-1 (default 0)")
    parser.add_argument("--master_addr", "--master-addr", type=str, default="127.0.0.1",
                        help="address of the node running global rank 0")
    parser.add_argument("--master_port", "--master-port", type=int, default=29500,
                        help="free port on the master node for the rendezvous store")
    parser.add_argument("--max_restarts", "--max-restarts", type=int, default=0,
                        help="restart this node's workers up to this many times when one fails")
    parser.add_argument("--monitor_interval", "--monitor-interval", type=float, default=0.1,
                        help="seconds between checks of the workers' states")
    _add_bool(parser, "-m", "--module",
              help="run the script as a module (python -m)")
    _add_bool(parser, "--no_python", "--no-python",
              help="run the script as an executable, not with python")
    parser.add_argument("training_script", type=str,
                        help="the script (or module with -m) each worker runs")
    parser.add_argument("training_script_args", nargs=argparse.REMAINDER)


# torchrun options with no counterpart here yet: given one, the launcher raises NotImplementedError
_UNSUPPORTED = [("--log_dir", "--log-dir"), ("-r", "--redirects"), ("-t", "--tee"),
                ("--local_ranks_filter", "--local-ranks-filter"), ("--rdzv_conf", "--rdzv-conf")]


def get_args_parser():
    parser = argparse.ArgumentParser(
        prog="python -m minitorch.distributed.run",
        description="Starts workers of a minitorch.distributed job on this node (torchrun).")
    _add_bool(parser, "--standalone",
              help="a single-node job on a free local port (ignores --rdzv_endpoint)")
    parser.add_argument("--rdzv_endpoint", "--rdzv-endpoint", type=str, default="",
                        help="host[:port] of the rendezvous (the master's address)")
    parser.add_argument("--rdzv_backend", "--rdzv-backend", type=str, default="static",
                        help="static or c10d (both meet at the master's store)")
    parser.add_argument("--rdzv_id", "--rdzv-id", type=str, default="none",
                        help="a name of the job (TORCHELASTIC_RUN_ID)")
    parser.add_argument("--role", type=str, default="default", help="name of the workers' role")
    parser.add_argument("--start_method", "--start-method", type=str, default="spawn",
                        choices=["spawn", "fork", "forkserver"],
                        help="accepted for compatibility: workers are always new processes")
    for names in _UNSUPPORTED:
        parser.add_argument(*names, type=str, default=None, help="not supported (raises NotImplementedError)")
    _add_common_args(parser)
    return parser


def parse_args(args):
    return get_args_parser().parse_args(args)


def config_from_args(args):
    """A LaunchConfig from torchrun's parsed arguments (raises ValueError on bad ones)."""
    for names in _UNSUPPORTED:
        if getattr(args, names[-1].lstrip("-").replace("-", "_")) is not None:
            why = ("the static rendezvous takes no options" if names[-1] == "--rdzv-conf" else
                   "the workers' output goes to the launcher's stdout and stderr")
            raise NotImplementedError(f"{names[-1]} is not supported by minitorch.distributed.run: {why}")
    nnodes = parse_nnodes(args.nnodes)
    nproc = parse_nproc_per_node(args.nproc_per_node)
    master_addr, master_port = args.master_addr, args.master_port
    run_id = args.rdzv_id
    if args.rdzv_backend not in ("static", "c10d"):
        raise ValueError(f"--rdzv_backend={args.rdzv_backend!r} is not supported; use static or c10d")
    if args.standalone:
        if nnodes != 1:
            raise ValueError(f"--standalone runs a single node, but --nnodes={args.nnodes}")
        master_addr, master_port = "127.0.0.1", _free_port()
        run_id = str(uuid.uuid4())
    elif args.rdzv_endpoint:
        master_addr, master_port = _split_endpoint(args.rdzv_endpoint, master_port)
    node_rank = args.node_rank
    dynamic = node_rank is None and args.rdzv_backend == "c10d" and nnodes > 1
    if dynamic and not args.rdzv_endpoint:
        raise ValueError("--rdzv_backend=c10d with several nodes needs --rdzv_endpoint=host:port "
                         "(or --node_rank for each node)")
    if node_rank is None:
        node_rank = 0
    if not 0 <= node_rank < nnodes:
        raise ValueError(f"--node_rank={node_rank} is out of range for --nnodes={nnodes} "
                         f"(expected 0 .. {nnodes - 1})")
    if not 0 < master_port < 65536:
        raise ValueError(f"--master_port={master_port} is not a valid port")
    if args.max_restarts < 0:
        raise ValueError(f"--max_restarts must be non-negative, got {args.max_restarts}")
    cmd, script_args = worker_command(args.no_python, args.module, args.training_script,
                                      args.training_script_args)
    config = LaunchConfig(nnodes, nproc, node_rank, master_addr, master_port,
                          cmd, script_args, max_restarts=args.max_restarts, run_id=run_id,
                          role=args.role, monitor_interval=args.monitor_interval,
                          name=args.training_script)
    if dynamic:
        config.rdzv_endpoint = (master_addr, master_port)
    return config


# ------------------------------------------------------------------ c10d rendezvous

RDZV_TIMEOUT = 600.0  # seconds the launchers wait for all nodes to join


def _is_local_host(host):
    if host in ("localhost", "", socket.gethostname(), socket.getfqdn()):
        return True
    try:
        addrs = {ai[4][0] for ai in socket.getaddrinfo(host, None)}
    except socket.gaierror:
        return False
    for addr in addrs:
        if addr.startswith("127.") or addr == "::1":
            return True
        family = socket.AF_INET6 if ":" in addr else socket.AF_INET
        try:
            with socket.socket(family, socket.SOCK_DGRAM) as sock:
                sock.bind((addr, 0))  # only this machine's addresses can be bound
                return True
        except OSError:
            pass
    return False


def _address_towards(host, port):
    """This node's address on the route to host:port (what other nodes can reach)."""
    try:
        family = socket.getaddrinfo(host, port)[0][0]
        with socket.socket(family, socket.SOCK_DGRAM) as sock:
            sock.connect((host, port))  # UDP: picks the route, sends nothing
            return sock.getsockname()[0]
    except OSError:
        return socket.getfqdn()


def c10d_rendezvous(config, timeout=RDZV_TIMEOUT):
    """Assigns config.node_rank, master_addr and master_port through a TCPStore at the
    rendezvous endpoint (Note [Static rendezvous]); returns the store, which must stay
    alive while the job runs (it may be served by this process)."""
    from datetime import timedelta

    from . import DistNetworkError, TCPStore

    host, port = config.rdzv_endpoint
    store = None
    if _is_local_host(host):
        try:
            store = TCPStore(host, port, is_master=True, wait_for_workers=False,
                             timeout=timedelta(seconds=timeout))
        except DistNetworkError:
            store = None  # another launcher on this host serves it
    if store is None:
        store = TCPStore(host, port, is_master=False, timeout=timedelta(seconds=timeout))
    prefix = f"minitorch/rdzv/{config.run_id}/"
    node_rank = store.add(prefix + "joined", 1) - 1
    if node_rank >= config.nnodes:
        raise RuntimeError(f"the rendezvous at {host}:{port} already has --nnodes={config.nnodes} "
                           f"nodes; this launcher would be node {node_rank + 1}")
    if node_rank == 0:
        store.set(prefix + "master", f"{_address_towards(host, port)}:{_free_port()}")
    deadline = time.monotonic() + timeout
    while store.add(prefix + "joined", 0) < config.nnodes:
        if time.monotonic() > deadline:
            raise RuntimeError(f"the rendezvous at {host}:{port} timed out after {timeout:.0f} s: "
                               f"{store.add(prefix + 'joined', 0)} of {config.nnodes} nodes joined")
        time.sleep(0.05)
    store.wait([prefix + "master"])
    addr, _, master_port = store.get(prefix + "master").decode().rpartition(":")
    config.node_rank, config.master_addr, config.master_port = node_rank, addr, int(master_port)
    return store


# ------------------------------------------------------------------ workers


class _Worker:
    def __init__(self, config, local_rank, restart_count):
        self.local_rank = local_rank
        self.rank = config.node_rank * config.nproc_per_node + local_rank
        env = dict(os.environ)
        env.update(
            RANK=str(self.rank), LOCAL_RANK=str(local_rank), GROUP_RANK=str(config.node_rank),
            ROLE_RANK=str(self.rank), ROLE_NAME=config.role,
            WORLD_SIZE=str(config.world_size), ROLE_WORLD_SIZE=str(config.world_size),
            LOCAL_WORLD_SIZE=str(config.nproc_per_node), GROUP_WORLD_SIZE=str(config.nnodes),
            MASTER_ADDR=config.master_addr, MASTER_PORT=str(config.master_port),
            TORCHELASTIC_RESTART_COUNT=str(restart_count),
            TORCHELASTIC_MAX_RESTARTS=str(config.max_restarts),
            TORCHELASTIC_RUN_ID=config.run_id, PYTHONUNBUFFERED="1",
        )
        if "OMP_NUM_THREADS" not in os.environ and config.nproc_per_node > 1:
            env["OMP_NUM_THREADS"] = "1"
        cmd = list(config.cmd)
        if config.local_rank_arg and not config.use_env:
            # the legacy launcher's flag goes right after the script, before its own args
            cmd.append(f"{config.local_rank_arg}={local_rank}")
        self.cmd = cmd = cmd + config.script_args
        self._tail = deque()
        self._tail_bytes = 0
        self._lock = threading.Lock()
        # a session of its own, so that stopping the worker also stops its children
        self.proc = subprocess.Popen(cmd, env=env, stderr=subprocess.PIPE, start_new_session=True)
        self._reader = threading.Thread(target=self._forward_stderr, daemon=True)
        self._reader.start()

    def _forward_stderr(self):
        # the worker's stderr goes on to ours; its last bytes are kept for the failure report
        out = getattr(sys.stderr, "buffer", None)
        for chunk in iter(lambda: self.proc.stderr.readline(), b""):
            try:
                if out is not None:
                    out.write(chunk)
                    out.flush()
                else:
                    sys.stderr.write(chunk.decode(errors="replace"))
            except (OSError, ValueError):
                pass
            with self._lock:
                self._tail.append(chunk)
                self._tail_bytes += len(chunk)
                while self._tail_bytes > _STDERR_TAIL and len(self._tail) > 1:
                    self._tail_bytes -= len(self._tail.popleft())

    def stderr_tail(self):
        self._reader.join(timeout=2.0)
        with self._lock:
            return b"".join(self._tail).decode(errors="replace")

    def signal(self, sig):
        try:
            os.killpg(self.proc.pid, sig)
        except (ProcessLookupError, PermissionError):
            pass


def _stop(workers, grace=TERMINATE_GRACE):
    """SIGTERM to every worker's process group, SIGKILL to those alive after `grace` s."""
    for w in workers:
        if w.proc.poll() is None:
            w.signal(signal.SIGTERM)
    deadline = time.monotonic() + grace
    for w in workers:
        try:
            w.proc.wait(max(0.0, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            pass
    for w in workers:
        if w.proc.poll() is None:
            w.signal(signal.SIGKILL)
            w.proc.wait()
        else:
            w.signal(signal.SIGKILL)  # children the worker left behind


class _Interrupted(Exception):
    def __init__(self, sig):
        super().__init__(f"Process {os.getpid()} got signal: {sig}")
        self.sig = sig


def _run_once(config, restart_count):
    """Runs the node's workers once; returns None on success or the failed ranks' reports."""
    workers = []
    try:
        for local_rank in range(config.nproc_per_node):
            workers.append(_Worker(config, local_rank, restart_count))
        while True:
            failed = [w for w in workers if w.proc.poll() not in (None, 0)]
            if failed:
                _stop(workers)
                return {w.rank: _Failure(w) for w in failed}
            if all(w.proc.returncode == 0 for w in workers):
                for w in workers:
                    w.stderr_tail()  # let the forwarding finish
                return None
            time.sleep(config.monitor_interval)
    except BaseException:
        _stop(workers)
        raise


def launch_agent(config):
    """Runs the workers of config (with restarts); raises ChildFailedError when they fail."""
    if "OMP_NUM_THREADS" not in os.environ and config.nproc_per_node > 1:
        print(OMP_BANNER.format(1), file=sys.stderr, flush=True)

    def on_signal(sig, frame):
        raise _Interrupted(sig)

    handled = (signal.SIGTERM, signal.SIGINT, signal.SIGHUP)
    previous = {}
    if threading.current_thread() is threading.main_thread():
        for sig in handled:
            previous[sig] = signal.signal(sig, on_signal)
    try:
        restart = 0
        while True:
            failures = _run_once(config, restart)
            if failures is None:
                return
            if restart >= config.max_restarts:
                raise ChildFailedError(config.name, failures)
            restart += 1
            print(f"[minitorch.distributed.run] a worker failed; restarting the workers "
                  f"({restart}/{config.max_restarts})", file=sys.stderr, flush=True)
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)


def _report_and_exit(err):
    print(f"minitorch.distributed.run.ChildFailedError: \n{err}", file=sys.stderr, flush=True)
    sys.exit(1)


def run(args):
    """Runs the job described by torchrun's parsed arguments; exits 1 when a worker fails."""
    config = config_from_args(args)
    # the rendezvous store (served by this launcher, maybe) stays alive while the job runs
    store = c10d_rendezvous(config) if config.rdzv_endpoint is not None else None  # noqa: F841
    _agent_or_exit(config)


def _agent_or_exit(config):
    """Runs the workers; a failed worker or a signal ends this process with its status."""
    try:
        launch_agent(config)
    except ChildFailedError as err:
        _report_and_exit(err)
    except _Interrupted as err:
        print(str(err), file=sys.stderr, flush=True)
        sys.exit(128 + int(err.sig))


def _cli(parser, args, check, runner):
    """Parses `args`; bad combinations (check raises ValueError) exit as usage errors."""
    parsed = parser.parse_args(args)
    try:
        check(parsed)
    except ValueError as err:
        parser.error(str(err))
    runner(parsed)


def main(args=None):
    _cli(get_args_parser(), args, config_from_args, run)


if __name__ == "__main__":
    main()
