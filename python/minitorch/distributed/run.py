"""``python -m minitorch.distributed.run``: torchrun for minitorch.

Starts ``--nproc_per_node`` copies of a script (or ``-m module``) on this node
with the environment that ``init_process_group("gloo")`` (env://) reads::

    python -m minitorch.distributed.run --nproc_per_node=2 train.py --epochs 3
    python -m minitorch.distributed.run --standalone --nproc_per_node=4 -m pkg.train
    # two nodes: the same command on each, --node_rank=0 and --node_rank=1
    python -m minitorch.distributed.run --nnodes=2 --node_rank=0 --nproc_per_node=8 \\
        --master_addr=192.168.1.1 --master_port=12355 train.py
    # one to four nodes, each started the same way, meeting at host1:29400
    python -m minitorch.distributed.run --nnodes=1:4 --nproc_per_node=8 --max_restarts=3 \\
        --rdzv_backend=c10d --rdzv_endpoint=host1:29400 --rdzv_id=job1 train.py

Each worker gets RANK, LOCAL_RANK, WORLD_SIZE, LOCAL_WORLD_SIZE, GROUP_RANK,
ROLE_RANK, ROLE_WORLD_SIZE, ROLE_NAME, MASTER_ADDR, MASTER_PORT,
TORCHELASTIC_RESTART_COUNT, TORCHELASTIC_MAX_RESTARTS, TORCHELASTIC_RUN_ID and,
unless already set, OMP_NUM_THREADS=1.  When a worker fails the others are
terminated (SIGTERM, then SIGKILL after a grace period), the failing rank's
error output is printed and the launcher exits with status 1 (after
``--max_restarts`` restarts of the node's workers, if asked for: with the c10d
rendezvous, of every node's workers).

Node ranks come from ``--node_rank``, or, with ``--rdzv_backend=c10d
--rdzv_endpoint=host:port`` and no ``--node_rank``, from a rendezvous of the
launchers at the endpoint.  An elastic range of nodes (``--nnodes=1:4``) needs the
c10d rendezvous: the job starts with MIN to MAX nodes, grows when a node arrives
later, and every node's workers restart together (a new round of the rendezvous)
when one fails, up to ``--max_restarts`` times (Note [Elastic rendezvous] in
_elastic_rendezvous.py).  ``--rdzv_conf join_timeout=600,last_call_timeout=30,
close_timeout=30`` tunes it.  ``--redirects``, ``--tee``, ``--log_dir`` and
``--local_ranks_filter`` choose where the workers' output goes (Note [Worker logs]
in _worker_logs.py).
"""
# Note [Static rendezvous]
# torchrun's agents meet in a rendezvous (a store) that hands out node ranks and can
# admit and drop nodes.  With a fixed --nnodes and --node_rank every node is told its
# rank and the size of the job (--nnodes x --nproc_per_node), so the launcher needs no
# store of its own: the workers' init_process_group(env://) meets at
# MASTER_ADDR:MASTER_PORT, where global rank 0 serves the TCPStore.  --rdzv_endpoint
# host:port is accepted as another way to name that address.  --standalone picks a
# free local port.  With --rdzv_backend=c10d and no --node_rank (or an elastic range)
# the launchers meet in the c10d rendezvous instead (Note [Elastic rendezvous]), which
# hands out node ranks in join order and the workers' master address (node 0's host,
# a free port).

import argparse
import json
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

from .distributed_c10d import DistError
from ._elastic_rendezvous import (Rendezvous, RendezvousClosedError, RendezvousConfig,
                                  RendezvousError, parse_rendezvous_config)
from ._worker_logs import LogsSpecs, parse_ranks_filter, parse_std

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
        # what the worker's @record wrote (Note [Worker logs]), if it did
        self.error_file, self.traceback = worker.error_file, None
        try:
            with open(self.error_file) as f:
                data = json.load(f)
            message = data.get("message", {})
            if isinstance(message, dict):
                self.traceback = message.get("extraInfo", {}).get("py_callstack") or message.get("message")
            else:
                self.traceback = str(message)
        except (OSError, TypeError, ValueError, AttributeError):
            pass

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
        if self.traceback:
            lines.append(f"  error_file: {self.error_file}")
            lines.append("  traceback :")
            lines += ["    " + line for line in self.traceback.rstrip().splitlines()]
        elif self.error.strip():
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
                 use_env=True, monitor_interval=0.1, name=None, max_nodes=None, logs=None,
                 rdzv_config=None):
        self.nnodes = nnodes
        # an elastic range: nnodes is the minimum until a rendezvous round sets it
        self.min_nodes = nnodes
        self.max_nodes = max_nodes or nnodes
        self.logs = logs if logs is not None else LogsSpecs()
        self.rdzv_config = rdzv_config if rdzv_config is not None else RendezvousConfig()
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


def parse_min_max_nnodes(value):
    """'N' -> (N, N); 'MIN:MAX' -> (MIN, MAX)."""
    text = str(value)
    if ":" in text:
        lo, _, hi = text.partition(":")
        lo, hi = _positive_int("--nnodes", lo), _positive_int("--nnodes", hi)
        if lo > hi:
            raise ValueError(f"--nnodes={text}: the minimum is larger than the maximum")
        return lo, hi
    n = _positive_int("--nnodes", text)
    return n, n


def parse_nnodes(value):
    """'N' or 'MIN:MAX' with MIN == MAX -> N (the legacy launcher: no elastic ranges)."""
    lo, hi = parse_min_max_nnodes(value)
    if lo != hi:
        raise NotImplementedError(
            f"--nnodes={value}: elastic ranges of nodes need minitorch.distributed.run with "
            "--rdzv_backend=c10d")
    return lo


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


def _env_defaults(parser):
    """As torchrun's: every option's default may come from PET_<OPTION> in the environment
    (PET_NNODES, PET_NPROC_PER_NODE, PET_RDZV_ENDPOINT, ...; a flag from 0/1); an option on
    the command line still wins."""
    for action in parser._actions:
        if not action.option_strings or action.dest == "help":
            continue
        value = os.environ.get(f"PET_{action.dest.upper()}")
        if value is None:
            continue
        if isinstance(action, argparse._StoreTrueAction):
            action.default = bool(int(value))
        else:
            action.default = value  # argparse converts a str default with the option's type
            action.required = False


def _add_common_args(parser):
    """The options torchrun and the legacy launcher share (both spellings: _ and -); their
    defaults may come from PET_* variables (_env_defaults)."""
    parser.add_argument("--nnodes", type=str, default="1",
                        help="number of nodes, or MIN:MAX (an elastic range, c10d rendezvous)")
    parser.add_argument("--nproc_per_node", "--nproc-per-node", type=str, default="1",
                        help="number of workers per node (an integer, 'auto' or 'cpu')")
    parser.add_argument("--node_rank", "--node-rank", type=int, default=None,
                        help="rank of this node, 0 .. nnodes-1 (default 0)")
    parser.add_argument("--master_addr", "--master-addr", type=str, default="127.0.0.1",
                        help="address of the node running global rank 0")
    parser.add_argument("--master_port", "--master-port", type=int, default=29500,
                        help="free port on the master node for the rendezvous store")
    parser.add_argument("--max_restarts", "--max-restarts", type=int, default=0,
                        help="restart the workers of every node up to this many times when one fails")
    parser.add_argument("--monitor_interval", "--monitor-interval", type=float, default=0.1,
                        help="seconds between checks of the workers' states")
    _add_bool(parser, "-m", "--module",
              help="run the script as a module (python -m)")
    _add_bool(parser, "--no_python", "--no-python",
              help="run the script as an executable, not with python")
    parser.add_argument("training_script", type=str,
                        help="the script (or module with -m) each worker runs")
    parser.add_argument("training_script_args", nargs=argparse.REMAINDER)
    _env_defaults(parser)


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
    parser.add_argument("--rdzv_conf", "--rdzv-conf", type=str, default="",
                        help="options of the c10d rendezvous: join_timeout=600,last_call_timeout=30,"
                             "close_timeout=30 (seconds)")
    parser.add_argument("--log_dir", "--log-dir", type=str, default=None,
                        help="base directory of the workers' log files (a job directory per run "
                             "under it, named after --rdzv_id)")
    parser.add_argument("-r", "--redirects", type=str, default="0",
                        help="send the workers' streams to log files only: 0 none, 1 stdout, "
                             "2 stderr, 3 both, or per local rank (0:1,1:2)")
    parser.add_argument("-t", "--tee", type=str, default="0",
                        help="write the workers' streams to log files and to the console, "
                             "prefixed with [<role><local rank>]: (values as --redirects)")
    parser.add_argument("--local_ranks_filter", "--local-ranks-filter", type=str, default="",
                        help="only these local ranks' output reaches the console (e.g. 0,1)")
    _add_common_args(parser)
    return parser


def parse_args(args):
    return get_args_parser().parse_args(args)


def config_from_args(args):
    """A LaunchConfig from torchrun's parsed arguments (raises ValueError on bad ones)."""
    min_nodes, max_nodes = parse_min_max_nnodes(args.nnodes)
    nnodes = min_nodes
    rdzv_config = RendezvousConfig(parse_rendezvous_config(args.rdzv_conf))
    logs = LogsSpecs(args.log_dir, parse_std(args.redirects, "--redirects"), parse_std(args.tee, "--tee"),
                     parse_ranks_filter(args.local_ranks_filter))
    nproc = parse_nproc_per_node(args.nproc_per_node)
    master_addr, master_port = args.master_addr, args.master_port
    run_id = args.rdzv_id
    if args.rdzv_backend not in ("static", "c10d"):
        raise ValueError(f"--rdzv_backend={args.rdzv_backend!r} is not supported; use static or c10d")
    if args.standalone:
        if max_nodes != 1:
            raise ValueError(f"--standalone runs a single node, but --nnodes={args.nnodes}")
        master_addr, master_port = "127.0.0.1", _free_port()
        run_id = str(uuid.uuid4())
    elif args.rdzv_endpoint:
        master_addr, master_port = _split_endpoint(args.rdzv_endpoint, master_port)
    node_rank = args.node_rank
    elastic = min_nodes != max_nodes
    if elastic and (args.rdzv_backend != "c10d" or not args.rdzv_endpoint):
        raise ValueError(f"--nnodes={args.nnodes}: an elastic range of nodes needs the c10d rendezvous "
                         "(--rdzv_backend=c10d --rdzv_endpoint=host:port)")
    dynamic = args.rdzv_backend == "c10d" and (elastic or (node_rank is None and nnodes > 1))
    if dynamic and not args.rdzv_endpoint:
        raise ValueError("--rdzv_backend=c10d with several nodes needs --rdzv_endpoint=host:port "
                         "(or --node_rank for each node)")
    if dynamic:
        node_rank = None  # the rendezvous hands it out (as torch's c10d ignores --node_rank)
    if node_rank is None:
        node_rank = 0
    if not 0 <= node_rank < nnodes:
        raise ValueError(f"--node_rank={node_rank} is out of range for --nnodes={nnodes} "
                         f"(expected 0 .. {nnodes - 1})")
    if not 0 < master_port < 65536:
        raise ValueError(f"--master_port={master_port} is not a valid port")
    if args.max_restarts < 0:
        raise ValueError(f"--max_restarts must be non-negative, got {args.max_restarts}")
    if not args.monitor_interval > 0:
        raise ValueError(f"--monitor_interval must be positive, got {args.monitor_interval}")
    cmd, script_args = worker_command(args.no_python, args.module, args.training_script,
                                      args.training_script_args)
    config = LaunchConfig(nnodes, nproc, node_rank, master_addr, master_port,
                          cmd, script_args, max_restarts=args.max_restarts, run_id=run_id,
                          role=args.role, monitor_interval=args.monitor_interval,
                          name=args.training_script, max_nodes=max_nodes, logs=logs,
                          rdzv_config=rdzv_config)
    if dynamic:
        config.rdzv_endpoint = (master_addr, master_port)
    return config


# ------------------------------------------------------------------ c10d rendezvous

# seconds a node whose workers succeeded waits for the other nodes (torch's exit barrier)
EXIT_BARRIER_TIMEOUT = 300.0


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


def c10d_rendezvous(config):
    """A Rendezvous of this launcher in the TCPStore at config.rdzv_endpoint (served here when
    the endpoint is this host and no other launcher bound it first).  The store must stay
    alive while the job runs: the Rendezvous keeps it."""
    from datetime import timedelta

    from . import DistNetworkError, TCPStore

    host, port = config.rdzv_endpoint
    timeout = timedelta(seconds=max(config.rdzv_config.join_timeout, config.rdzv_config.store_timeout))
    store = None
    if _is_local_host(host):
        try:
            store = TCPStore(host, port, is_master=True, wait_for_workers=False, timeout=timeout)
        except DistNetworkError:
            store = None  # another launcher on this host serves it
    is_host = store is not None
    if store is None:
        store = TCPStore(host, port, is_master=False, timeout=timeout)
    return Rendezvous(store, (host, port), config.run_id, config.min_nodes, config.max_nodes,
                      config.rdzv_config, is_host=is_host)


# ------------------------------------------------------------------ workers

# one lock for the launcher's console, so that lines of different workers never mix
_CONSOLE = threading.Lock()


def _console_write(stream, data):
    out = getattr(stream, "buffer", None)
    with _CONSOLE:
        try:
            if out is not None:
                out.write(data)
                out.flush()
            else:
                stream.write(data.decode(errors="replace"))
                stream.flush()
        except (OSError, ValueError):
            pass


class _Worker:
    def __init__(self, config, local_rank, restart_count, dest=None):
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
        self._prefix = f"[{config.role}{local_rank}]:".encode()
        self.error_file = dest.error_file if dest is not None else None
        if self.error_file is not None:
            env["TORCHELASTIC_ERROR_FILE"] = self.error_file
        # (console mode, file path) per stream; stdout is inherited when nothing is asked of it
        self._dest = dest
        out_pipe = dest is not None and dest.needs_pipe(1)
        # a session of its own, so that stopping the worker also stops its children
        self.proc = subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE if out_pipe else None,
                                     stderr=subprocess.PIPE, start_new_session=True)
        self._readers = []
        if out_pipe:
            self._readers.append(threading.Thread(target=self._forward, args=(1,), daemon=True))
        self._readers.append(threading.Thread(target=self._forward, args=(2,), daemon=True))
        for t in self._readers:
            t.start()

    def _forward(self, bit):
        # one stream of the worker goes on to its file and/or our console; the last bytes
        # of stderr are kept for the failure report
        pipe = self.proc.stdout if bit == 1 else self.proc.stderr
        console = sys.stdout if bit == 1 else sys.stderr
        mode = self._dest.console[bit] if self._dest is not None else "plain"
        path = self._dest.files[bit] if self._dest is not None else None
        file = open(path, "ab") if path else None
        try:
            for chunk in iter(pipe.readline, b""):
                if file is not None:
                    try:
                        file.write(chunk)
                        file.flush()
                    except OSError:
                        pass
                if mode == "plain":
                    _console_write(console, chunk)
                elif mode == "prefixed":
                    _console_write(console, self._prefix + chunk)
                if bit == 2:
                    with self._lock:
                        self._tail.append(chunk)
                        self._tail_bytes += len(chunk)
                        while self._tail_bytes > _STDERR_TAIL and len(self._tail) > 1:
                            self._tail_bytes -= len(self._tail.popleft())
        finally:
            if file is not None:
                file.close()

    def stderr_tail(self):
        for t in self._readers:
            t.join(timeout=2.0)
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
    for w in workers:
        w.stderr_tail()  # let the forwarding finish (files closed)


class _Interrupted(Exception):
    def __init__(self, sig):
        super().__init__(f"Process {os.getpid()} got signal: {sig}")
        self.sig = sig


# outcomes of one attempt of a node's workers
_SUCCEEDED, _FAILED, _NEW_ROUND, _CLOSED = "succeeded", "failed", "new round", "closed"


def _run_once(config, restart_count, rdzv=None):
    """Runs the node's workers once.  Returns (outcome, failures): failures maps the failed
    global ranks to their reports (_FAILED); with a rendezvous the workers are also stopped
    when another node started a new round (_NEW_ROUND) or closed the job (_CLOSED)."""
    workers = []
    try:
        dests = config.logs.destinations(config.run_id, restart_count, config.nproc_per_node)
        for local_rank in range(config.nproc_per_node):
            workers.append(_Worker(config, local_rank, restart_count, dests[local_rank]))
        while True:
            failed = [w for w in workers if w.proc.poll() not in (None, 0)]
            if failed:
                _stop(workers)
                return _FAILED, {w.rank: _Failure(w) for w in failed}
            if all(w.proc.returncode == 0 for w in workers):
                for w in workers:
                    w.stderr_tail()  # let the forwarding finish
                return _SUCCEEDED, None
            if rdzv is not None:
                if rdzv.closed_reason() is not None:
                    _stop(workers)
                    return _CLOSED, None
                if rdzv.current_round() != rdzv.round:
                    _stop(workers)
                    return _NEW_ROUND, None
            time.sleep(config.monitor_interval)
    except BaseException:
        _stop(workers)
        raise


def _note(text):
    print(f"[minitorch.distributed.run] {text}", file=sys.stderr, flush=True)


def _run_static(config):
    restart = 0
    while True:
        outcome, failures = _run_once(config, restart)
        if outcome == _SUCCEEDED:
            return
        if restart >= config.max_restarts:
            raise ChildFailedError(config.name, failures)
        restart += 1
        _note(f"a worker failed; restarting the workers ({restart}/{config.max_restarts})")


def _join(config, rdzv):
    rdzv.join()
    config.node_rank, config.nnodes = rdzv.node_rank, rdzv.nnodes
    config.master_addr, config.master_port = rdzv.master_addr, rdzv.master_port


def _run_elastic(config, rdzv):
    """The agent of an elastic job: the workers of every admitted node run together; a
    failure here restarts all of them (a new round) while restarts are left, and a new round
    started elsewhere (a failure or a node joining) restarts ours uncounted, as torch's."""
    restart = 0
    _join(config, rdzv)
    while True:
        outcome, failures = _run_once(config, restart, rdzv)
        if outcome == _SUCCEEDED:
            rdzv.finish(EXIT_BARRIER_TIMEOUT)
            return
        if outcome == _CLOSED:
            raise RendezvousClosedError(f"the job was stopped by another node: {rdzv.closed_reason()}")
        if outcome == _FAILED:
            if restart >= config.max_restarts:
                ranks = ", ".join(str(r) for r in sorted(failures))
                rdzv.close(f"worker(s) {ranks} of node {config.node_rank} failed after "
                           f"{restart} restart(s)")
                raise ChildFailedError(config.name, failures)
            restart += 1
            _note(f"a worker failed; restarting the workers of every node "
                  f"({restart}/{config.max_restarts})")
            rdzv.next_round()
        else:
            _note(f"the rendezvous moved to round {rdzv.current_round()} (a node failed, joined or "
                  "left); restarting the workers")
        _join(config, rdzv)
        _note(f"round {rdzv.round}: node rank {config.node_rank} of {config.nnodes} nodes")


def launch_agent(config, rdzv=None):
    """Runs the workers of config (with restarts); raises ChildFailedError when they fail.
    With a Rendezvous (c10d) the node ranks and sizes come from its rounds."""
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
        try:
            if rdzv is None:
                _run_static(config)
            else:
                _run_elastic(config, rdzv)
        finally:
            config.logs.cleanup()
    except _Interrupted as err:
        if rdzv is not None:
            _close_quietly(rdzv, f"the launcher of node {config.node_rank} got signal {int(err.sig)}")
        raise
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)


def _report_and_exit(err):
    print(f"minitorch.distributed.run.ChildFailedError: \n{err}", file=sys.stderr, flush=True)
    sys.exit(1)


def run(args):
    """Runs the job described by torchrun's parsed arguments; exits 1 when a worker fails."""
    config = config_from_args(args)
    try:
        rdzv = c10d_rendezvous(config) if config.rdzv_endpoint is not None else None
    except Exception as err:  # the store could not be reached
        print(f"minitorch.distributed.run: {type(err).__name__}: {err}", file=sys.stderr, flush=True)
        sys.exit(1)
    _agent_or_exit(config, rdzv)


def _agent_or_exit(config, rdzv=None):
    """Runs the workers; a failed worker or a signal ends this process with its status."""
    try:
        try:
            launch_agent(config, rdzv)
        finally:
            if rdzv is not None:
                rdzv.leave()
    except ChildFailedError as err:
        _report_and_exit(err)
    except _Interrupted as err:
        print(str(err), file=sys.stderr, flush=True)
        sys.exit(128 + int(err.sig))
    except RendezvousError as err:
        print(f"minitorch.distributed.run.{type(err).__name__}: {err}", file=sys.stderr, flush=True)
        sys.exit(1)
    except DistError as err:  # the rendezvous store went away
        print(f"minitorch.distributed.run: the rendezvous store failed: {type(err).__name__}: {err}",
              file=sys.stderr, flush=True)
        sys.exit(1)


def _close_quietly(rdzv, reason):
    try:
        rdzv.close(reason)
    except Exception:
        pass


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
