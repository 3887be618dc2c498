"""torchrun's elastic options in python -m minitorch.distributed.run: elastic ranges of nodes
(--nnodes=MIN:MAX) with the c10d rendezvous and --rdzv-conf, --max-restarts across nodes (a
new rendezvous round), --tee / --redirects / --log-dir / --local-ranks-filter, --role and
--monitor-interval.  The "nodes" are launchers on this machine meeting at a local endpoint;
the workers are tiny scripts without process groups (test_distributed_netns.py runs
launchers on separate network namespaces with real training)."""
import json
import os
import subprocess
import sys
import textwrap
import time

import pytest

from minitorch.distributed import run as torchrun
from minitorch.distributed import _worker_logs
from minitorch.distributed._elastic_rendezvous import RendezvousConfig, parse_rendezvous_config
from helpers import PACKAGE_DIR, free_port


# writes its environment to $TEST_OUT/g<GROUP_WORLD_SIZE>_c<RESTART_COUNT>_<RANK>_<pid>.json, then
# does what argv asks: "grow" (sleep while the job has one node), "fail3" (rank 3 fails the
# first time, the others sleep until the restart), "print" (one line to each stream)
WORKER = textwrap.dedent('''
    import json, os, sys, time
    out = os.environ["TEST_OUT"]
    env = {k: v for k, v in os.environ.items() if k in (
        "RANK", "LOCAL_RANK", "WORLD_SIZE", "GROUP_RANK", "GROUP_WORLD_SIZE", "LOCAL_WORLD_SIZE",
        "ROLE_NAME", "MASTER_ADDR", "MASTER_PORT", "TORCHELASTIC_RESTART_COUNT",
        "TORCHELASTIC_MAX_RESTARTS", "TORCHELASTIC_RUN_ID")}
    rank = env["RANK"]
    name = f"g{env['GROUP_WORLD_SIZE']}_c{env['TORCHELASTIC_RESTART_COUNT']}_{rank}_{os.getpid()}.json"
    # "fail3" fails in the first attempt only: the marker names that attempt by its master
    # port (new in each round of the c10d rendezvous) and restart count (new on this node)
    attempt = env["MASTER_PORT"] + "/" + env["TORCHELASTIC_RESTART_COUNT"]
    marker = os.path.join(out, "failed_once")
    if "fail3" in sys.argv and rank == "3" and not os.path.exists(marker):
        with open(marker + ".tmp", "w") as f:
            f.write(attempt)
        os.rename(marker + ".tmp", marker)
    first = not os.path.exists(marker) or open(marker).read() == attempt
    with open(os.path.join(out, name + ".tmp"), "w") as f:
        json.dump({"env": env, "pid": os.getpid()}, f)
    os.rename(os.path.join(out, name + ".tmp"), os.path.join(out, name))
    if "grow" in sys.argv and env["GROUP_WORLD_SIZE"] == "1":
        time.sleep(60)
    if "fail3" in sys.argv and first:
        if rank == "3":
            time.sleep(0.5)
            sys.exit(3)
        time.sleep(60)
    if "failall" in sys.argv:
        if rank == "3":
            time.sleep(0.5)
            sys.exit(4)
        time.sleep(60)
    if "print" in sys.argv:
        sys.stdout.write(f"out {rank}\\n")
        sys.stderr.write(f"err {rank}\\n")
''')


@pytest.fixture
def job(tmp_path):
    (tmp_path / "worker.py").write_text(WORKER)
    out = tmp_path / "out"
    out.mkdir()
    base_env = dict(os.environ)
    base_env.pop("OMP_NUM_THREADS", None)
    base_env["PYTHONPATH"] = PACKAGE_DIR
    base_env["TEST_OUT"] = str(out)
    procs = []

    def start(*args, env=None):
        p = subprocess.Popen([sys.executable, "-m", "minitorch.distributed.run", *args],
                             cwd=tmp_path, env={**base_env, **(env or {})}, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True)
        procs.append(p)
        return p

    def finish(p, timeout=60):
        p.out, p.err = p.communicate(timeout=timeout)
        return p

    def results():
        """[(group world size, restart count, rank, {"env", "pid"})] of the workers so far"""
        found = []
        for p in out.glob("*.json"):
            g, c, r, _ = p.name[:-5].split("_")
            found.append((int(g[1:]), int(c[1:]), int(r), json.loads(p.read_text())))
        return found

    start.finish, start.results, start.dir, start.out = finish, results, tmp_path, out
    yield start
    for p in procs:
        if p.poll() is None:
            p.kill()
            p.wait()


def _wait_for(pred, what, timeout=30):
    deadline = time.monotonic() + timeout
    while not pred():
        assert time.monotonic() < deadline, what
        time.sleep(0.05)


def _c10d(port, *extra):
    return ["--rdzv-backend=c10d", f"--rdzv-endpoint=127.0.0.1:{port}", "--rdzv-id=elastic", *extra]


def test_elastic_range_starts_with_min_then_grows(job):
    # one node of 1:2 starts alone after last_call_timeout; a second node arriving later
    # starts a new round, in which both nodes' workers run with the new sizes
    port = free_port()
    args = ["--nnodes=1:2", "--nproc-per-node=2", *_c10d(port), "--rdzv-conf=last_call_timeout=1",
            "--monitor-interval=0.05", "worker.py", "grow"]
    a = job(*args)
    _wait_for(lambda: len(job.results()) == 2, "the first node did not start alone")
    first = job.results()
    assert sorted((g, c, r) for g, c, r, _ in first) == [(1, 0, 0), (1, 0, 1)]
    assert {(i["env"]["WORLD_SIZE"], i["env"]["GROUP_RANK"]) for *_, i in first} == {("2", "0")}
    b = job(*args)
    for p in (a, b):
        job.finish(p)
        assert p.returncode == 0, p.err
    assert "the rendezvous moved to round 1" in a.err
    grown = {r: i["env"] for g, c, r, i in job.results() if g == 2}
    assert len(job.results()) == 6 and sorted(grown) == [0, 1, 2, 3]
    for r, env in grown.items():
        assert env["WORLD_SIZE"] == "4" and env["GROUP_RANK"] == str(r // 2)
        assert env["LOCAL_RANK"] == str(r % 2) and env["LOCAL_WORLD_SIZE"] == "2"
        # a restart for a membership change is not counted (as torch's agents)
        assert env["TORCHELASTIC_RESTART_COUNT"] == "0" and env["TORCHELASTIC_RUN_ID"] == "elastic"
    assert len({(env["MASTER_ADDR"], env["MASTER_PORT"]) for env in grown.values()}) == 1
    # the first round's workers were stopped
    for *_, info in first:
        pid = info["pid"]
        assert not os.path.exists(f"/proc/{pid}") or open(f"/proc/{pid}/stat").read().split(") ")[1][0] == "Z"


def test_max_nodes_joined_start_at_once_and_restart_together(job):
    # --nnodes=1:2 with the default 30 s last call: the second node completes the round at
    # once; rank 3 (node 1) fails the first time and --max-restarts=1 restarts both nodes
    port = free_port()
    args = ["--nnodes=1:2", "--nproc_per_node=2", *_c10d(port), "--max-restarts=1", "worker.py", "fail3"]
    nodes = [job(*args), job(*args)]
    start = time.monotonic()
    for p in nodes:
        job.finish(p)
        assert p.returncode == 0, p.err
    assert time.monotonic() - start < 30  # no 30 s last call: the round was full
    res = job.results()
    assert len(res) == 8 and all(g == 2 for g, *_ in res)  # every worker ran twice
    assert sorted(r for *_, r, _ in res) == [0, 0, 1, 1, 2, 2, 3, 3]
    assert all(i["env"]["TORCHELASTIC_MAX_RESTARTS"] == "1" for *_, i in res)
    # the failing node counts its restart; the other restarted for the new round, uncounted
    # (as torch's agents); node ranks may change between rounds
    counted = [i["env"] for g, c, r, i in res if c == 1]
    assert len(counted) == 2 and len({e["GROUP_RANK"] for e in counted}) == 1
    (failing,) = [p for p in nodes if "restarting the workers of every node (1/1)" in p.err]
    (other,) = [p for p in nodes if "the rendezvous moved to round 1" in p.err]
    assert failing is not other


def test_failure_without_restarts_stops_every_node(job):
    port = free_port()
    args = ["--nnodes=2", "--nproc_per_node=2", *_c10d(port), "worker.py", "failall"]
    nodes = [job(*args), job(*args)]
    start = time.monotonic()
    for p in nodes:
        job.finish(p)
        assert p.returncode == 1
    assert time.monotonic() - start < 30  # the sleeping workers were stopped
    failed = [p for p in nodes if "ChildFailedError" in p.err]
    stopped = [p for p in nodes if "RendezvousClosedError" in p.err]
    assert len(failed) == 1 and len(stopped) == 1
    assert "exitcode  : 4" in failed[0].err
    assert "worker(s) 3 of node 1 failed" in stopped[0].err


def test_join_timeout(job):
    port = free_port()
    p = job.finish(job("--nnodes=2:3", *_c10d(port), "--rdzv_conf=join_timeout=1", "worker.py"))
    assert p.returncode == 1
    assert "RendezvousTimeoutError" in p.err and "join_timeout" in p.err
    assert "1 of --nnodes=2:3 nodes" in p.err
    assert job.results() == []


def test_tee_redirects_log_dir_role(job):
    logs = job.dir / "logs"
    p = job.finish(job("--nproc_per_node=2", "--tee=1", "--redirects=0:2", f"--log-dir={logs}",
                       "--role=trainer", "--rdzv-id=myjob", "worker.py", "print"))
    assert p.returncode == 0, p.err
    # stdout teed (prefixed on the console, in the files); rank 0's stderr only in its file
    assert sorted(p.out.splitlines()) == ["[trainer0]:out 0", "[trainer1]:out 1"]
    assert "err 1" in p.err and "err 0" not in p.err
    (run_dir,) = logs.iterdir()
    assert run_dir.name.startswith("myjob_")
    attempt = run_dir / "attempt_0"
    assert (attempt / "0" / "stdout.log").read_text() == "out 0\n"
    assert (attempt / "1" / "stdout.log").read_text() == "out 1\n"
    assert (attempt / "0" / "stderr.log").read_text() == "err 0\n"
    assert not (attempt / "1" / "stderr.log").exists()
    assert {i["env"]["ROLE_NAME"] for *_, i in job.results()} == {"trainer"}
    # --redirects=3 without --log-dir: nothing on the console, files in a temporary directory;
    # --local-ranks-filter keeps rank 1's plain output only
    p = job.finish(job("--nproc_per_node=2", "--redirects=3", "worker.py", "print"))
    assert p.returncode == 0 and p.out == "" and "err" not in p.err
    p = job.finish(job("--nproc_per_node=2", "--local-ranks-filter=1", "worker.py", "print"))
    assert p.returncode == 0 and p.out == "out 1\n" and "err 1" in p.err and "err 0" not in p.err
    # a restart writes the next attempt's directory
    p = job.finish(job("--nproc_per_node=4", "-r", "3", f"--log_dir={logs}", "--max-restarts=1",
                       "--rdzv-id=again", "worker.py", "fail3", "print"))
    assert p.returncode == 0, p.err
    (run_dir,) = logs.glob("again_*")
    assert sorted(d.name for d in run_dir.iterdir()) == ["attempt_0", "attempt_1"]
    assert (run_dir / "attempt_0" / "3" / "stdout.log").read_text() == ""
    assert (run_dir / "attempt_1" / "3" / "stdout.log").read_text() == "out 3\n"


RECORDED = textwrap.dedent('''
    import os
    from minitorch.distributed.elastic.multiprocessing.errors import record

    @record
    def main():
        if os.environ["RANK"] == "1":
            raise ValueError("bad batch in rank one")

    main()
''')


def test_record_writes_the_error_file_the_report_shows(job):
    (job.dir / "recorded.py").write_text(RECORDED)
    logs = job.dir / "logs"
    p = job.finish(job("--nproc_per_node=2", f"--log-dir={logs}", "recorded.py"))
    assert p.returncode == 1
    (error_file,) = logs.glob("*/attempt_0/1/error.json")
    data = json.loads(error_file.read_text())["message"]
    assert data["message"] == "ValueError: bad batch in rank one"
    assert "Traceback" in data["extraInfo"]["py_callstack"] and int(data["extraInfo"]["timestamp"]) > 0
    report = p.err[p.err.index("ChildFailedError"):]
    assert f"error_file: {error_file}" in report
    assert "traceback :" in report and "ValueError: bad batch in rank one" in report
    assert not list(logs.glob("*/attempt_0/0/error.json"))
    # without --log-dir the error files live in a scratch directory, removed at the end
    scratch = job.dir / "tmp"
    scratch.mkdir()
    env = {"TMPDIR": str(scratch)}
    p = job.finish(job("--nproc_per_node=2", "recorded.py", env=env))
    assert p.returncode == 1 and "error_file: " + str(scratch) in p.err and "bad batch in rank one" in p.err
    assert list(scratch.iterdir()) == []


def test_options_from_pet_variables(monkeypatch):
    # torchrun's: PET_<OPTION> gives an option's default; the command line wins
    for k, v in {"PET_NNODES": "1:3", "PET_RDZV_BACKEND": "c10d", "PET_RDZV_ENDPOINT": "h:9",
                 "PET_MAX_RESTARTS": "4", "PET_TEE": "3", "PET_STANDALONE": "0",
                 "PET_NPROC_PER_NODE": "2"}.items():
        monkeypatch.setenv(k, v)
    cfg = torchrun.config_from_args(torchrun.parse_args(["--max-restarts=1", "s.py"]))
    assert (cfg.min_nodes, cfg.max_nodes, cfg.rdzv_endpoint) == (1, 3, ("h", 9))
    assert (cfg.max_restarts, cfg.logs.tee, cfg.nproc_per_node) == (1, 3, 2)
    monkeypatch.setenv("PET_STANDALONE", "1")
    monkeypatch.setenv("PET_NNODES", "1")
    cfg = torchrun.config_from_args(torchrun.parse_args(["s.py"]))
    assert cfg.rdzv_endpoint is None and cfg.master_addr == "127.0.0.1"


def test_options_parsing():
    parse = lambda *a: torchrun.config_from_args(torchrun.parse_args([*a, "s.py"]))
    cfg = parse("--nnodes=1:4", "--rdzv-backend=c10d", "--rdzv-endpoint=h:5", "--node-rank=3")
    assert (cfg.min_nodes, cfg.max_nodes, cfg.rdzv_endpoint, cfg.node_rank) == (1, 4, ("h", 5), 0)
    c = cfg.rdzv_config
    assert (c.join_timeout, c.last_call_timeout, c.close_timeout) == (600, 30, 30)
    c = RendezvousConfig(parse_rendezvous_config(" join_timeout = 5, last_call_timeout=2,close_timeout=7,x=y"))
    assert (c.join_timeout, c.last_call_timeout, c.close_timeout) == (5, 2, 7)
    with pytest.raises(ValueError, match="'join_timeout' must have a value specified"):
        parse("--rdzv-conf=join_timeout=", "--nnodes=2")
    with pytest.raises(ValueError, match="must be in format <key1>=<value1>"):
        parse("--rdzv-conf==3")
    with pytest.raises(ValueError, match="'last_call_timeout' does not represent a valid integer"):
        parse("--rdzv-conf=last_call_timeout=1.5")
    with pytest.raises(ValueError, match=r"The join timeout \(-1 day.*must be positive"):
        parse("--rdzv-conf=join_timeout=-1")
    with pytest.raises(ValueError, match="an elastic range of nodes needs the c10d rendezvous"):
        parse("--nnodes=1:2", "--rdzv-backend=c10d")
    assert _worker_logs.parse_std("3", "-r") == 3
    assert _worker_logs.parse_std("0:1,1:2", "-r") == {0: 1, 1: 2}
    assert _worker_logs.to_map({1: 2}, 3) == {0: 0, 1: 2, 2: 0}
    for bad in ("4", "0:4", "a", "0:1,", "10:1"):
        with pytest.raises(ValueError, match="does not match"):
            parse(f"--redirects={bad}")
    with pytest.raises(ValueError, match="--local_ranks_filter must be a comma-separated list"):
        parse("--local-ranks-filter=0,x")
    with pytest.raises(ValueError, match="--monitor_interval must be positive"):
        parse("--monitor-interval=0")
    cfg = parse("--tee=3", "--log-dir=/tmp/x", "--monitor_interval=0.5", "--role=r")
    assert (cfg.logs.tee, cfg.logs.log_dir, cfg.monitor_interval, cfg.role) == (3, "/tmp/x", 0.5, "r")
