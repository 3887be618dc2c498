"""Several hosts without hosts: each "host" is a network namespace with its own addresses,
joined to the others by veth pairs on a bridge (in a namespace of its own, so that nothing
is added to this machine's network).  torchrun runs on each host (--nnodes/--node_rank, and
the c10d rendezvous); DDP across hosts trains to the weights of one process; a group of three
hosts with two ranks each uses shared memory inside a host and TCP between hosts (the host
identity includes the network namespace: no MINITORCH_HOST_ID); MINITORCH_SOCKET_IFNAME picks
the interface; and the faults: a link cut mid-collective, a host's processes killed, a link
cut and restored.  Needs root and iproute2's `ip`; skipped otherwise."""
import json
import os
import shutil
import signal
import subprocess
import sys
import textwrap
import time
import uuid

import numpy as np
import pytest

from helpers import PACKAGE_DIR, free_port

NET = ["10.200.0", "10.201.0"]  # one /24 per network, inside the namespaces only


def _why_not():
    if not sys.platform.startswith("linux"):
        return "network namespaces are Linux's"
    if os.geteuid() != 0:
        return "creating network namespaces needs root"
    if shutil.which("ip") is None:
        return "iproute2's `ip` is not installed"
    return None


def _ip(*args, check=True):
    p = subprocess.run(["ip", *args], capture_output=True, text=True, timeout=30)
    if check and p.returncode != 0:
        raise RuntimeError(f"ip {' '.join(args)}: {p.stderr.strip()}")
    return p


class Hosts:
    """`n` namespaces h0..h<n-1>, each with eth0 (and eth1 when nets=2) on a bridge per network
    living in a switch namespace; host i has address <NET[k]>.<i+1> on eth<k>."""

    def __init__(self, n, nets=1):
        self.tag = "mt" + uuid.uuid4().hex[:6]  # unique per run; interface names <= 15 chars
        self.switch = self.tag + "sw"
        self.names = [f"{self.tag}h{i}" for i in range(n)]
        self.nets = nets
        self.made = []
        try:
            for ns in [self.switch, *self.names]:
                _ip("netns", "add", ns)
                self.made.append(ns)
                _ip("-n", ns, "link", "set", "lo", "up")
            for k in range(nets):
                _ip("-n", self.switch, "link", "add", f"br{k}", "type", "bridge")
                _ip("-n", self.switch, "link", "set", f"br{k}", "up")
                for i, ns in enumerate(self.names):
                    port = self.port(i, k)
                    _ip("-n", ns, "link", "add", f"eth{k}", "type", "veth", "peer", "name", port,
                        "netns", self.switch)
                    _ip("-n", self.switch, "link", "set", port, "master", f"br{k}")
                    _ip("-n", self.switch, "link", "set", port, "up")
                    _ip("-n", ns, "addr", "add", f"{NET[k]}.{i + 1}/24", "dev", f"eth{k}")
                    _ip("-n", ns, "link", "set", f"eth{k}", "up")
            # `ip netns exec` needs to mount a /sys of the namespace: try it once
            probe = subprocess.run(self.cmd(0, ["true"]), capture_output=True, text=True, timeout=30)
            if probe.returncode != 0:
                raise RuntimeError(f"ip netns exec: {probe.stderr.strip()}")
        except BaseException:
            self.remove()
            raise

    def port(self, i, k=0):
        """The switch side of host i's link on network k."""
        return f"{self.tag}p{i}{k}"

    def addr(self, i, k=0):
        return f"{NET[k]}.{i + 1}"

    def cmd(self, i, argv):
        return ["ip", "netns", "exec", self.names[i], *argv]

    def set_link(self, i, up, k=0):
        """Cuts (or restores) host i's cable: the switch port goes down, the host sees no carrier."""
        _ip("-n", self.switch, "link", "set", self.port(i, k), "up" if up else "down")

    def pids(self, i):
        p = _ip("netns", "pids", self.names[i], check=False)
        return [int(x) for x in p.stdout.split()]

    def kill(self, i):
        for pid in self.pids(i):
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass

    def remove(self):
        for i in range(len(self.names)):
            if self.names[i] in self.made:
                self.kill(i)
        for ns in reversed(self.made):
            _ip("netns", "del", ns, check=False)
        self.made = []


@pytest.fixture
def hosts():
    why = _why_not()
    if why:
        pytest.skip(why)
    made = []

    def make(n, nets=1):
        try:
            h = Hosts(n, nets)
        except RuntimeError as err:  # e.g. a container without CAP_SYS_ADMIN
            pytest.skip(f"cannot build network namespaces here: {err}")
        made.append(h)
        return h

    yield make
    for h in made:
        h.remove()


# Each worker runs one scenario (argv[1]) and writes its result to $TEST_OUT/<rank>.json.
WORKER = textwrap.dedent('''
    import json, os, sys, time
    from datetime import timedelta
    import numpy as np
    import minitorch as torch
    import minitorch.distributed as dist

    scenario = sys.argv[1]
    out = os.environ["TEST_OUT"]
    rank = int(os.environ["RANK"])
    timeout = float(os.environ.get("TEST_TIMEOUT", "60"))

    def report(**kw):
        with open(os.path.join(out, f"{rank}.json.tmp"), "w") as f:
            json.dump(kw, f)
        os.rename(os.path.join(out, f"{rank}.json.tmp"), os.path.join(out, f"{rank}.json"))

    def mark(name):
        open(os.path.join(out, f"{name}.{rank}"), "w").close()

    dist.init_process_group("gloo", timeout=timedelta(seconds=timeout))
    ws = dist.get_world_size()
    transport = dist.distributed_c10d._get_default_group()._get_backend("cpu")._cgroup.transport()

    if scenario == "ddp":
        import minitorch.nn as nn
        from minitorch.nn.parallel import DistributedDataParallel as DDP
        torch.manual_seed(0)
        model = nn.Sequential(nn.Linear(4, 8), nn.Tanh(), nn.Linear(8, 2)).double()
        ddp = DDP(model)
        opt = torch.optim.SGD(ddp.parameters(), lr=0.1)
        x = torch.from_numpy(np.linspace(-1, 1, 16 * 4).reshape(16, 4))
        y = torch.from_numpy(np.cos(np.arange(16 * 2).reshape(16, 2) * 0.3))
        per = 16 // ws
        for step in range(5):
            opt.zero_grad()
            xs, ys = x[rank * per:(rank + 1) * per], y[rank * per:(rank + 1) * per]
            ((ddp(xs) - ys) ** 2).mean().backward()
            opt.step()
            if os.environ.get("TEST_STEP_SLEEP") and ws > 1:
                mark("running")
                time.sleep(float(os.environ["TEST_STEP_SLEEP"]))
            flaky = os.path.join(out, "failed_once")
            if step == 1 and rank == 1 and os.environ.get("TEST_FLAKY") and not os.path.exists(flaky):
                open(flaky, "w").close()
                os._exit(5)  # dies mid-training, once: every node's workers restart
        report(transport=transport, restarts=os.environ["TORCHELASTIC_RESTART_COUNT"], ws=ws, weights=[p.detach().numpy().tolist() for p in model.parameters()],
               addr=os.environ["MASTER_ADDR"], group_rank=os.environ["GROUP_RANK"])

    elif scenario == "collectives":
        bad = []
        def check(name, got, want):
            if not np.array_equal(np.asarray(got), np.asarray(want)):
                bad.append(name)
        for n in (5, 300_000):  # small ones and ones through the ring algorithms
            base = np.arange(n, dtype=np.float32)
            t = torch.from_numpy(base + rank)
            dist.all_reduce(t)
            check(f"all_reduce sum {n}", t.numpy(), base * ws + ws * (ws - 1) / 2)
            t = torch.from_numpy((base % 7) * (rank + 1))
            dist.all_reduce(t, op=dist.ReduceOp.MAX)
            check(f"all_reduce max {n}", t.numpy(), (base % 7) * ws)
            t = torch.full((n,), float(rank), dtype=torch.float64)
            dist.broadcast(t, src=3)
            check(f"broadcast {n}", t.numpy(), np.full(n, 3.0))
            t = torch.full((n,), rank, dtype=torch.int64)
            g = torch.empty(n * ws, dtype=torch.int64)
            dist.all_gather_into_tensor(g, t)
            check(f"all_gather {n}", g.numpy(), np.repeat(np.arange(ws), n))
            t = torch.from_numpy(np.tile(base, ws) * (rank + 1))
            o = torch.empty(n, dtype=torch.float32)
            dist.reduce_scatter_tensor(o, t)
            check(f"reduce_scatter {n}", o.numpy(), base * (ws * (ws + 1) / 2))
            t = torch.from_numpy(np.arange(ws * n, dtype=np.int32) + 1000 * rank)
            o = torch.empty(ws * n, dtype=torch.int32)
            dist.all_to_all_single(o, t)
            want = np.concatenate([np.arange(rank * n, (rank + 1) * n, dtype=np.int32) + 1000 * r
                                   for r in range(ws)])
            check(f"all_to_all {n}", o.numpy(), want)
            t = torch.full((n,), float(rank))
            gl = [torch.empty(n) for _ in range(ws)] if rank == 5 else None
            dist.gather(t, gl, dst=5)
            if rank == 5:
                check(f"gather {n}", np.stack([x.numpy() for x in gl]), np.repeat(np.arange(ws, dtype=np.float32), n).reshape(ws, n))
            t = torch.from_numpy(base * (rank + 1))
            dist.reduce(t, dst=4)
            if rank == 4:
                check(f"reduce {n}", t.numpy(), base * (ws * (ws + 1) / 2))
            sl = [torch.full((n,), float(10 * r)) for r in range(ws)] if rank == 2 else None
            o = torch.empty(n)
            dist.scatter(o, sl, src=2)
            check(f"scatter {n}", o.numpy(), np.full(n, 10.0 * rank))
            t = torch.full((n,), float(rank))
            dist.send(t, (rank + 1) % ws) if rank % 2 == 0 else None
            r = torch.empty(n)
            dist.recv(r, (rank - 1) % ws)
            if rank % 2 == 1:
                dist.send(t, (rank + 1) % ws)
            check(f"send/recv {n}", r.numpy(), np.full(n, float((rank - 1) % ws)))
        dist.barrier()
        report(transport=transport, bad=bad, group_rank=os.environ["GROUP_RANK"])

    elif scenario == "ifname":
        def tx():
            return {k: int(open(f"/sys/class/net/{k}/statistics/tx_bytes").read()) for k in ("eth0", "eth1")}
        t = torch.ones(1)
        dist.all_reduce(t)
        before = tx()
        t = torch.ones(2 * 1024 * 1024)  # 8 MiB
        dist.all_reduce(t)
        after = tx()
        report(transport=transport, ok=bool((t.numpy() == ws).all()),
               delta={k: after[k] - before[k] for k in before})

    elif scenario == "loop":
        # all_reduce until a rank sees $TEST_OUT/stop (element 0 carries it, so that every
        # rank stops after the same collective); a failure is reported with its time
        t = torch.ones(256 * 1024)
        n, error, longest = 0, None, 0.0
        try:
            while True:
                t.fill_(rank + 1)
                t[0] = float(os.path.exists(os.path.join(out, "stop")))
                start = time.monotonic()
                dist.all_reduce(t)
                longest = max(longest, time.monotonic() - start)
                if not bool((t.numpy()[1:] == ws * (ws + 1) / 2).all()):
                    error = ["wrong", "wrong result", time.time()]
                    break
                if t[0].item() > 0:
                    break
                n += 1
                if n == 3:
                    mark("running")
        except Exception as e:
            error = [type(e).__name__, str(e), time.time()]
        store_error = None
        if error is not None and os.environ.get("TEST_STORE_AFTER"):
            # the store may be gone with its host: a store operation must fail, not hang
            try:
                dist.distributed_c10d._get_default_store().set("after", "1")
                dist.distributed_c10d._get_default_store().get("after")
            except Exception as e:
                store_error = [type(e).__name__, str(e), time.time()]
        report(transport=transport, n=n, error=error, longest=longest, store_error=store_error)
        os._exit(0)  # the group may be broken: no teardown through the store
''')


def _env(tmp_path, **extra):
    env = dict(os.environ)
    env.pop("OMP_NUM_THREADS", None)
    for k in ("MINITORCH_HOST_ID", "MINITORCH_SOCKET_IFNAME", "GLOO_SOCKET_IFNAME", "MINITORCH_TRANSPORT"):
        env.pop(k, None)
    env["PYTHONPATH"] = PACKAGE_DIR
    env["TEST_OUT"] = str(tmp_path / "out")
    env.update(extra)
    return env


def _launch(h, tmp_path, scenario, nproc=1, rdzv="static", env=None, hosts=None, extra=()):
    """Starts torchrun on each host; returns the launchers."""
    (tmp_path / "out").mkdir(exist_ok=True)
    (tmp_path / "worker.py").write_text(WORKER)
    port = free_port()
    n = len(h.names)
    procs = []
    for i in (range(n) if hosts is None else hosts):
        if rdzv == "static":
            where = [f"--node_rank={i}", f"--master_addr={h.addr(0)}", f"--master_port={port}"]
        else:
            where = ["--rdzv-backend=c10d", f"--rdzv-endpoint={h.addr(0)}:{port}", "--rdzv-id=netns"]
        argv = [sys.executable, "-m", "minitorch.distributed.run", f"--nnodes={n}",
                f"--nproc-per-node={nproc}", *where, *extra, "worker.py", scenario]
        procs.append(subprocess.Popen(h.cmd(i, argv), cwd=tmp_path, env=env or _env(tmp_path),
                                      stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True))
    return procs


def _finish(procs, timeout=90):
    try:
        for p in procs:
            p.out, p.err = p.communicate(timeout=timeout)
    finally:
        for p in procs:
            if p.poll() is None:
                p.kill()
                p.wait()
    return procs


def _results(tmp_path):
    return {int(p.name.split(".")[0]): json.loads(p.read_text()) for p in (tmp_path / "out").glob("*.json")}


def _reference_weights():
    """The DDP scenario's training in one process on the whole batch."""
    import minitorch as torch
    import minitorch.nn as nn
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(4, 8), nn.Tanh(), nn.Linear(8, 2)).double()
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    x = torch.from_numpy(np.linspace(-1, 1, 16 * 4).reshape(16, 4))
    y = torch.from_numpy(np.cos(np.arange(16 * 2).reshape(16, 2) * 0.3))
    for _ in range(5):
        opt.zero_grad()
        ((model(x) - y) ** 2).mean().backward()
        opt.step()
    return [p.detach().numpy() for p in model.parameters()]


@pytest.mark.parametrize("rdzv", ["static", "c10d"])
def test_torchrun_ddp_across_two_hosts(hosts, tmp_path, rdzv):
    h = hosts(2)
    procs = _finish(_launch(h, tmp_path, "ddp", rdzv=rdzv))
    for p in procs:
        assert p.returncode == 0, p.err
    res = _results(tmp_path)
    assert sorted(res) == [0, 1]
    ref = _reference_weights()
    for r, info in res.items():
        assert info["transport"] == "tcp"  # one rank per host
        # static: the given master; c10d: node 0's host, whichever joined first
        assert info["addr"] == h.addr(0) if rdzv == "static" else info["addr"] in (h.addr(0), h.addr(1))
        for got, want in zip(info["weights"], ref):
            np.testing.assert_allclose(np.array(got), want, rtol=1e-12, atol=1e-12)
    # the ranks agree bit for bit
    assert res[0]["weights"] == res[1]["weights"] and res[0]["addr"] == res[1]["addr"]


def test_a_failing_worker_restarts_every_host(hosts, tmp_path):
    # c10d rendezvous, --max-restarts=1: rank 1 dies after two steps; rank 0 loses its peer,
    # both hosts' workers start again in a new round and the training ends as in one process
    h = hosts(2)
    procs = _finish(_launch(h, tmp_path, "ddp", rdzv="c10d", env=_env(tmp_path, TEST_FLAKY="1"),
                            extra=["--max-restarts=1"]))
    for p in procs:
        assert p.returncode == 0, p.err
    assert (tmp_path / "out" / "failed_once").exists()
    assert any("restarting the workers of every node (1/1)" in p.err for p in procs)
    res = _results(tmp_path)
    assert sorted(res) == [0, 1]
    ref = _reference_weights()
    for info in res.values():
        for got, want in zip(info["weights"], ref):
            np.testing.assert_allclose(np.array(got), want, rtol=1e-12, atol=1e-12)


def test_elastic_job_goes_on_without_a_dead_host(hosts, tmp_path):
    # --nnodes=1:2: host 1 dies mid-training; host 0's worker loses its peer, its launcher
    # starts a new round, which closes with host 0 alone after the last call
    h = hosts(2)
    procs = _launch(h, tmp_path, "ddp", rdzv="c10d", env=_env(tmp_path, TEST_STEP_SLEEP="0.3"),
                    extra=["--nnodes=1:2", "--max-restarts=1", "--rdzv-conf=last_call_timeout=1"])
    _wait_running(tmp_path, [0, 1], procs)
    h.kill(1)
    _finish(procs)
    assert procs[0].returncode == 0, procs[0].err
    assert "round 1: node rank 0 of 1 nodes" in procs[0].err
    res = _results(tmp_path)
    assert res[0]["ws"] == 1 and res[0]["restarts"] == "1"
    for got, want in zip(res[0]["weights"], _reference_weights()):
        np.testing.assert_allclose(np.array(got), want, rtol=1e-12, atol=1e-12)


def test_three_hosts_shared_memory_inside_tcp_between(hosts, tmp_path):
    h = hosts(3)
    procs = _finish(_launch(h, tmp_path, "collectives", nproc=2))
    for p in procs:
        assert p.returncode == 0, p.err
    res = _results(tmp_path)
    assert sorted(res) == list(range(6))
    for r, info in res.items():
        assert info["bad"] == [], (r, info["bad"])
        assert info["transport"] == "shm+tcp" and info["group_rank"] == str(r // 2)


@pytest.mark.parametrize("var", ["MINITORCH_SOCKET_IFNAME", "GLOO_SOCKET_IFNAME"])
def test_socket_ifname_picks_the_interface(hosts, tmp_path, var):
    h = hosts(2, nets=2)
    # the store is reached on eth0; the ranks' connections go through eth1
    procs = _finish(_launch(h, tmp_path, "ifname", env=_env(tmp_path, **{var: "eth1"})))
    for p in procs:
        assert p.returncode == 0, p.err
    res = _results(tmp_path)
    for r, info in res.items():
        assert info["ok"] and info["transport"] == "tcp"
        assert info["delta"]["eth1"] > 4 * 1024 * 1024, info["delta"]
        assert info["delta"]["eth0"] < 256 * 1024, info["delta"]
    # an interface the host lacks is an error naming the ones it has
    procs = _finish(_launch(h, tmp_path, "ifname", env=_env(tmp_path, TEST_TIMEOUT="10", **{var: "eth7"})))
    err = "".join(p.err for p in procs)
    assert all(p.returncode == 1 for p in procs)
    assert f"{var}=eth7: no interface of that name" in err and "eth1" in err


def _wait_running(tmp_path, ranks, procs, timeout=60):
    deadline = time.monotonic() + timeout
    while not all((tmp_path / "out" / f"running.{r}").exists() for r in ranks):
        for p in procs:
            if p.poll() is not None:
                raise AssertionError(f"a launcher ended early: {p.communicate()[1]}")
        assert time.monotonic() < deadline, "the workers did not start their collectives"
        time.sleep(0.05)


TIMEOUT = 4  # seconds: the process groups' timeout in the fault tests
STORE_GRACE = 1  # seconds a TCPStore client waits for a reply beyond the store's timeout


def test_link_cut_mid_collective(hosts, tmp_path):
    h = hosts(2)
    procs = _launch(h, tmp_path, "loop", env=_env(tmp_path, TEST_TIMEOUT=str(TIMEOUT), TEST_STORE_AFTER="1"))
    _wait_running(tmp_path, [0, 1], procs)
    cut = time.time()
    h.set_link(1, up=False)
    _finish(procs)
    res = _results(tmp_path)
    assert sorted(res) == [0, 1]
    for r, info in res.items():
        kind, msg, when = info["error"]
        assert kind == "DistBackendError", (r, info)
        assert f"rank {1 - r}" in msg, msg  # names the peer it waited for
        assert when - cut <= TIMEOUT + 5, (when - cut, msg)
    # the store is on host 0: its own rank still reaches it, host 1's client times out (after
    # the store's timeout and the client's grace for a slow server, STORE_GRACE)
    assert res[0]["store_error"] is None
    kind, msg, when = res[1]["store_error"]
    assert kind in ("DistNetworkError", "DistStoreError") and "10.200.0.1" in msg, (kind, msg)
    assert when - cut <= 2 * TIMEOUT + STORE_GRACE + 5


@pytest.mark.parametrize("victim", [1, 0], ids=["worker-host", "store-host"])
def test_host_processes_killed(hosts, tmp_path, victim):
    # host 0 also serves the store (rank 0 holds it): killing it leaves the other host's
    # store client without a server, which must fail within its timeout too
    h = hosts(2)
    procs = _launch(h, tmp_path, "loop", env=_env(tmp_path, TEST_TIMEOUT=str(TIMEOUT), TEST_STORE_AFTER="1"))
    _wait_running(tmp_path, [0, 1], procs)
    killed = time.time()
    h.kill(victim)
    _finish(procs)
    res = _results(tmp_path)
    survivor = 1 - victim
    assert sorted(res) == [survivor]
    kind, msg, when = res[survivor]["error"]
    assert kind == "DistBackendError" and f"rank {victim}" in msg, msg
    assert when - killed <= TIMEOUT + 5
    if victim == 0:
        kind, msg, when = res[survivor]["store_error"]
        assert kind in ("DistNetworkError", "DistStoreError"), (kind, msg)
        assert when - killed <= 2 * TIMEOUT + 5


def test_link_cut_and_restored_before_the_timeout(hosts, tmp_path):
    h = hosts(2)
    procs = _launch(h, tmp_path, "loop", env=_env(tmp_path, TEST_TIMEOUT="30"))
    _wait_running(tmp_path, [0, 1], procs)
    h.set_link(1, up=False)
    time.sleep(1.5)
    h.set_link(1, up=True)
    time.sleep(2.0)
    (tmp_path / "out" / "stop").touch()
    _finish(procs)
    res = _results(tmp_path)
    assert sorted(res) == [0, 1]
    for r, info in res.items():
        assert info["error"] is None, info
        assert info["n"] > 3
        assert info["longest"] > 1.0  # a collective waited through the cut, then completed


# fault-tolerant training (minitorch.distributed.ft) across hosts: the ranks run the replicas
# of tests/test_distributed_ft.py (its _job_kill, _reference and checks), two on each host
TESTS_DIR = os.path.dirname(os.path.abspath(__file__))
STORE_SERVER = textwrap.dedent('''
    import sys, minitorch.distributed as dist
    store = dist.TCPStore(sys.argv[1], int(sys.argv[2]), is_master=True, wait_for_workers=False)
    print("ready", flush=True)
    sys.stdin.read()  # serves until the test closes its input
''')


@pytest.mark.parametrize("rejoin", [False, True], ids=["survivors", "rejoin"])
def test_ft_training_across_hosts(hosts, tmp_path, rejoin):
    # 2 hosts x 2 replicas (shared memory inside a host, TCP between); replica 3, on host 1,
    # dies by SIGKILL at a step: replica 2 on its host sees its process gone, those on host 0
    # its heartbeat stop (Note [Quorum in the store]).  The three survivors go on in the same
    # processes and equal a three-replica run from the kill step bit for bit; with `rejoin`,
    # a restarted replica 3 (on host 1) enters, receives the state, and all four end equal.
    import pickle
    import test_distributed_ft as ftt
    h = hosts(2)
    port = free_port()
    env = _env(tmp_path, FT_TEST_STORE_ADDR=h.addr(0))
    (tmp_path / "out").mkdir()
    server = subprocess.Popen(h.cmd(0, [sys.executable, "-c", STORE_SERVER, h.addr(0), str(port)]),
                              env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert server.stdout.readline().strip() == "ready"
        save = str(tmp_path / "state_at_kill.pt")
        victim = 3
        procs = []
        for r in range(4):
            call = (f"import sys; sys.path.insert(0, {TESTS_DIR!r}); import test_distributed_ft as t; "
                    f"t._job_kill_to_file({r}, 4, {port}, {victim}, {save!r}, {0.2 if rejoin else None!r}, "
                    f"{str(tmp_path / 'out' / f'{r}.pkl')!r})")
            procs.append(subprocess.Popen(h.cmd(r // 2, [sys.executable, "-c", call]), env=env,
                                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True))
        _finish(procs, timeout=150)
    finally:
        server.stdin.close()
        server.wait(30)
    assert procs[victim].returncode == -signal.SIGKILL, procs[victim].err
    res = {}
    for r in range(4):
        if r != victim:
            assert procs[r].returncode == 0, procs[r].err
            res[r] = pickle.loads((tmp_path / "out" / f"{r}.pkl").read_bytes())
    for r in res.values():
        assert r["same_pid"] and r["step"] == ftt.STEPS
        assert [s for s, _ in r["failed"]] == [ftt._KILL_STEP]
        assert r["state"] == res[0]["state"]
    if not rejoin:
        for r in res.values():
            assert r["participants"] == 3
            assert [w for _, _, w in r["log"]] == [4] * ftt._KILL_STEP + [3] * (ftt.STEPS - ftt._KILL_STEP)
        assert res[0]["state"] == ftt._reference(save, 3)      # bit for bit
    else:
        # restarted on host 1 0.2 s after the kill: it joins the running job and all four end
        # bit-identical, every sample of the epoch in one committed share
        ftt._check_rejoined(save, [res[0], res[1], res[2]], ftt._KILL_STEP)
