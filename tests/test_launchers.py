"""The launchers: python -m minitorch.distributed.run (torchrun) and
python -m minitorch.distributed.launch (legacy): worker environments, --local_rank,
--use_env, -m module scripts, several nodes, restarts, a failing worker stopping the
others, exit statuses, error reports and argument errors.  The workers here are tiny
scripts without process groups (the seeds' distributed scripts are in test_seeds.py)."""
import json
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest


from minitorch.distributed import launch as legacy
from minitorch.distributed import run as torchrun
from helpers import PACKAGE_DIR, free_port

ROOT = Path(__file__).resolve().parents[1]
ENV_KEYS = ["RANK", "LOCAL_RANK", "WORLD_SIZE", "LOCAL_WORLD_SIZE", "GROUP_RANK", "ROLE_RANK",
            "ROLE_WORLD_SIZE", "MASTER_ADDR", "MASTER_PORT", "OMP_NUM_THREADS",
            "TORCHELASTIC_RESTART_COUNT", "TORCHELASTIC_MAX_RESTARTS"]
BANNER = ("Setting OMP_NUM_THREADS environment variable for each process to be 1 in default, "
          "to avoid your system being overloaded")

# writes its environment and argv to $OUT/<RANK>.json; "fail"/"exit7"/"sleep" change what it does
WORKER = textwrap.dedent('''
    import json, os, sys, time
    keys = %r
    out = os.environ["TEST_OUT"]
    rank = os.environ["RANK"]
    info = {"env": {k: os.environ.get(k) for k in keys}, "argv": sys.argv[1:], "pid": os.getpid(),
            "name": __name__, "file": os.path.basename(__file__)}
    with open(os.path.join(out, rank + ".json"), "w") as f:
        json.dump(info, f)
    if "fail" in sys.argv and rank == "1":
        time.sleep(0.3)
        raise RuntimeError("worker one broke")
    if "exit7" in sys.argv and rank == "0":
        sys.exit(7)
    if "flaky" in sys.argv and os.environ["TORCHELASTIC_RESTART_COUNT"] == "0" and rank == "0":
        sys.exit(3)
    if "fail" in sys.argv or "exit7" in sys.argv or "sleep" in sys.argv:
        time.sleep(60)
    sys.stdout.write(f"worker {rank} done\\n")  # one write: workers run unbuffered
''') % ENV_KEYS


@pytest.fixture
def job(tmp_path):
    (tmp_path / "worker.py").write_text(WORKER)
    pkg = tmp_path / "pkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "worker.py").write_text(WORKER)
    out = tmp_path / "out"
    out.mkdir()

    def launch(launcher, *args, env=None, timeout=60):
        e = dict(os.environ)
        e.pop("OMP_NUM_THREADS", None)
        e["PYTHONPATH"] = os.pathsep.join([PACKAGE_DIR, str(tmp_path)])
        e["TEST_OUT"] = str(out)
        e.update(env or {})
        start = time.monotonic()
        proc = subprocess.run([sys.executable, "-m", f"minitorch.distributed.{launcher}", *args],
                              capture_output=True, text=True, timeout=timeout, env=e,
                              cwd=tmp_path)
        proc.elapsed = time.monotonic() - start
        proc.ranks = {int(p.stem): json.loads(p.read_text()) for p in out.glob("*.json")}
        for p in out.glob("*.json"):
            p.unlink()
        return proc

    launch.dir = tmp_path
    return launch


def _pid_alive(pid):
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # a zombie not yet reaped by init counts as gone
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().split(") ")[1][0] != "Z"
    except OSError:
        return False


def test_torchrun_environment_and_args(job):
    port = free_port()
    p = job("run", "--nproc_per_node=3", "--master_addr=127.0.0.1", f"--master_port={port}",
            "worker.py", "--lr", "0.5", "x")
    assert p.returncode == 0, p.stderr
    assert BANNER in p.stderr
    assert sorted(p.ranks) == [0, 1, 2]
    for r, info in p.ranks.items():
        env = info["env"]
        assert env["RANK"] == env["LOCAL_RANK"] == env["ROLE_RANK"] == str(r)
        assert env["WORLD_SIZE"] == env["LOCAL_WORLD_SIZE"] == env["ROLE_WORLD_SIZE"] == "3"
        assert env["GROUP_RANK"] == "0" and env["OMP_NUM_THREADS"] == "1"
        assert env["MASTER_ADDR"] == "127.0.0.1" and env["MASTER_PORT"] == str(port)
        assert env["TORCHELASTIC_RESTART_COUNT"] == "0"
        assert info["argv"] == ["--lr", "0.5", "x"]  # torchrun passes no --local_rank
        assert info["name"] == "__main__"
    assert sorted(p.stdout.splitlines()) == [f"worker {r} done" for r in range(3)]


def test_torchrun_standalone_module_and_nodes(job):
    # --standalone: a free port, the same for every worker; -m runs a module
    p = job("run", "--standalone", "--nproc-per-node=2", "-m", "pkg.worker", "a")
    assert p.returncode == 0, p.stderr
    ports = {info["env"]["MASTER_PORT"] for info in p.ranks.values()}
    assert len(ports) == 1 and ports != {"29500"}
    assert all(info["argv"] == ["a"] and info["file"] == "worker.py" for info in p.ranks.values())
    # the second of two nodes: global ranks 2 and 3 of 4
    p = job("run", "--nnodes=2", "--node_rank=1", "--nproc_per_node=2",
            "--rdzv_endpoint=10.1.2.3:4567", "worker.py")
    assert p.returncode == 0, p.stderr
    assert sorted(p.ranks) == [2, 3]
    for r, info in p.ranks.items():
        env = info["env"]
        assert env["LOCAL_RANK"] == str(r - 2) and env["WORLD_SIZE"] == "4"
        assert env["LOCAL_WORLD_SIZE"] == "2" and env["GROUP_RANK"] == "1"
        assert (env["MASTER_ADDR"], env["MASTER_PORT"]) == ("10.1.2.3", "4567")
    # a user's OMP_NUM_THREADS is kept, and one worker needs no notice
    p = job("run", "--nproc_per_node=2", "worker.py", env={"OMP_NUM_THREADS": "3"})
    assert p.returncode == 0 and BANNER not in p.stderr
    assert {info["env"]["OMP_NUM_THREADS"] for info in p.ranks.values()} == {"3"}
    p = job("run", "worker.py")
    assert p.returncode == 0 and BANNER not in p.stderr and p.ranks[0]["env"]["OMP_NUM_THREADS"] is None


@pytest.mark.parametrize("launcher", ["run", "launch"])
def test_failing_worker_stops_the_others(job, launcher):
    p = job(launcher, "--nproc_per_node=3", "--use_env" if launcher == "launch" else "--role=w",
            "worker.py", "fail")
    assert p.returncode == 1, p.stderr
    assert p.elapsed < 30  # the sleeping workers were terminated, not waited for
    assert sorted(p.ranks) == [0, 1, 2]
    for info in p.ranks.values():
        assert not _pid_alive(info["pid"])
    err = p.stderr
    assert "ChildFailedError" in err and "worker.py FAILED" in err
    report = err[err.index("ChildFailedError"):]
    assert "rank      : 1 (local_rank: 1)" in report and "exitcode  : 1" in report
    assert "RuntimeError: worker one broke" in report and "Traceback" in report
    # the worker's own stderr went through as well
    assert err.count("RuntimeError: worker one broke") >= 2


def test_exit_status_and_restarts(job):
    p = job("run", "--nproc_per_node=2", "worker.py", "exit7")
    assert p.returncode == 1
    assert "rank      : 0 (local_rank: 0)" in p.stderr and "exitcode  : 7" in p.stderr
    assert "the worker wrote nothing to stderr" in p.stderr
    # rank 0 fails on the first attempt only: one restart makes the job succeed
    p = job("run", "--nproc_per_node=2", "--max_restarts=1", "worker.py", "flaky")
    assert p.returncode == 0, p.stderr
    assert "restarting the workers (1/1)" in p.stderr
    assert {info["env"]["TORCHELASTIC_RESTART_COUNT"] for info in p.ranks.values()} == {"1"}
    assert {info["env"]["TORCHELASTIC_MAX_RESTARTS"] for info in p.ranks.values()} == {"1"}
    p = job("run", "--nproc_per_node=2", "worker.py", "flaky")
    assert p.returncode == 1 and "exitcode  : 3" in p.stderr


def test_legacy_launch_local_rank_and_use_env(job):
    port = free_port()
    p = job("launch", "--nproc_per_node=2", f"--master_port={port}", "worker.py", "--epochs", "2")
    assert p.returncode == 0, p.stderr
    assert "FutureWarning" in p.stderr and "deprecated" in p.stderr and BANNER in p.stderr
    for r, info in p.ranks.items():
        assert info["argv"] == [f"--local_rank={r}", "--epochs", "2"]
        env = info["env"]
        assert env["LOCAL_RANK"] == env["RANK"] == str(r) and env["WORLD_SIZE"] == "2"
        assert env["MASTER_PORT"] == str(port) and env["MASTER_ADDR"] == "127.0.0.1"
        assert env["LOCAL_WORLD_SIZE"] == "2" and env["OMP_NUM_THREADS"] == "1"
    p = job("launch", "--nproc-per-node=2", "--use-env", "-m", "pkg.worker", "--epochs", "2")
    assert p.returncode == 0, p.stderr
    assert all(info["argv"] == ["--epochs", "2"] and info["env"]["LOCAL_RANK"] == str(r)
               for r, info in p.ranks.items())
    # two nodes, legacy form (as the users' notes: --nnodes=2 --node_rank=1)
    p = job("launch", "--nproc_per_node=2", "--nnodes=2", "--node_rank=1",
            "--master_addr=192.168.1.1", "--master_port=12355", "worker.py")
    assert p.returncode == 0, p.stderr
    assert {r: info["argv"] for r, info in p.ranks.items()} == {2: ["--local_rank=0"],
                                                                3: ["--local_rank=1"]}


def test_argument_errors(job):
    p = job("run", "--nnodes=2", "--node_rank=2", "worker.py")
    assert p.returncode == 2 and "--node_rank=2 is out of range for --nnodes=2" in p.stderr
    p = job("run", "--nproc_per_node=0", "worker.py")
    assert p.returncode == 2 and "--nproc_per_node must be at least 1, got 0" in p.stderr
    p = job("launch", "--nproc_per_node=two", "worker.py")
    assert p.returncode == 2 and "--nproc_per_node must be an integer, got 'two'" in p.stderr
    p = job("run", "--standalone", "--nnodes=2", "worker.py")
    assert p.returncode == 2 and "--standalone runs a single node" in p.stderr
    p = job("launch", "--no_python", "worker.py")
    assert p.returncode == 2 and "you must also set the '--use_env' flag" in p.stderr
    p = job("run")
    assert p.returncode == 2 and "training_script" in p.stderr
    assert p.ranks == {}


def test_config_parsing_in_process():
    args = torchrun.parse_args(["--nnodes=2:2", "--nproc_per_node=cpu", "s.py", "--x"])
    cfg = torchrun.config_from_args(args)
    assert cfg.nnodes == 2 and cfg.nproc_per_node == (os.cpu_count() or 1) and cfg.world_size == 2 * cfg.nproc_per_node
    assert cfg.cmd == [sys.executable, "-u", "s.py"] and cfg.script_args == ["--x"]
    with pytest.raises(ValueError, match="an elastic range of nodes needs the c10d rendezvous"):
        torchrun.config_from_args(torchrun.parse_args(["--nnodes=1:4", "s.py"]))
    with pytest.raises(NotImplementedError, match="elastic ranges of nodes need minitorch.distributed.run"):
        legacy.config_from_args(legacy.parse_args(["--nnodes=1:4", "s.py"]))
    with pytest.raises(ValueError, match="minimum is larger than the maximum"):
        torchrun.config_from_args(torchrun.parse_args(["--nnodes=3:2", "s.py"]))
    with pytest.raises(ValueError, match="no CUDA devices"):
        torchrun.config_from_args(torchrun.parse_args(["--nproc_per_node=gpu", "s.py"]))
    with pytest.raises(ValueError, match="c10d with several nodes needs --rdzv_endpoint"):
        torchrun.config_from_args(torchrun.parse_args(["--nnodes=2", "--rdzv-backend=c10d", "s.py"]))
    cfg = torchrun.config_from_args(torchrun.parse_args(["--nnodes=2", "--rdzv-backend=c10d",
                                                         "--rdzv-endpoint=h:1", "s.py"]))
    assert cfg.rdzv_endpoint == ("h", 1)
    cfg = torchrun.config_from_args(torchrun.parse_args(["--nnodes=2", "--rdzv-backend=c10d", "--node-rank=1",
                                                         "--rdzv-endpoint=h:1", "s.py"]))
    assert (cfg.node_rank, cfg.master_addr, cfg.master_port) == (1, "h", 1)
    with pytest.raises(ValueError, match="rdzv_backend='etcd' is not supported"):
        torchrun.config_from_args(torchrun.parse_args(["--rdzv_backend=etcd", "s.py"]))
    with pytest.raises(ValueError, match="master_port=70000 is not a valid port"):
        torchrun.config_from_args(torchrun.parse_args(["--master_port=70000", "s.py"]))
    cfg = torchrun.config_from_args(torchrun.parse_args(["--rdzv-endpoint=[::1]:29400", "--no-python", "prog"]))
    assert (cfg.master_addr, cfg.master_port, cfg.cmd) == ("::1", 29400, ["prog"])
    cfg = legacy.config_from_args(legacy.parse_args(["--master_addr=h", "s.py", "a"]))
    assert cfg.local_rank_arg == "--local_rank" and not cfg.use_env and cfg.master_addr == "h"
    with pytest.raises(ValueError, match="both the '--no_python' flag and the '--module' flag"):
        legacy.config_from_args(legacy.parse_args(["--use_env", "--no_python", "-m", "s"]))


def test_sigterm_to_the_launcher_stops_the_workers(job):
    e = dict(os.environ)
    e["PYTHONPATH"] = PACKAGE_DIR
    e["TEST_OUT"] = str(job.dir / "out")
    launcher = subprocess.Popen([sys.executable, "-m", "minitorch.distributed.run", "--nproc_per_node=2",
                                 "worker.py", "sleep"], cwd=job.dir, env=e,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 30
        while len(list((job.dir / "out").glob("*.json"))) < 2:
            assert time.monotonic() < deadline, "workers did not start"
            time.sleep(0.05)
        time.sleep(0.2)  # the files are written before the workers sleep
        start = time.monotonic()
        launcher.send_signal(signal.SIGTERM)
        out, err = launcher.communicate(timeout=30)
    finally:
        if launcher.poll() is None:
            launcher.kill()
            launcher.wait()
    assert launcher.returncode == 128 + signal.SIGTERM, err
    assert time.monotonic() - start < 20
    assert "got signal: 15" in err
    for p in (job.dir / "out").glob("*.json"):
        assert not _pid_alive(json.loads(p.read_text())["pid"])


def test_c10d_rendezvous_assigns_node_ranks(job):
    # two launchers (two "nodes" on this machine) without --node_rank meet at the endpoint
    port = free_port()
    e = dict(os.environ)
    e.pop("OMP_NUM_THREADS", None)
    e["PYTHONPATH"] = PACKAGE_DIR
    e["TEST_OUT"] = str(job.dir / "out")
    cmd = [sys.executable, "-m", "minitorch.distributed.run", "--nnodes=2", "--nproc_per_node=2",
           "--rdzv-backend=c10d", f"--rdzv-endpoint=127.0.0.1:{port}", "--rdzv-id=job7", "worker.py"]
    nodes = [subprocess.Popen(cmd, cwd=job.dir, env=e, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              text=True) for _ in range(2)]
    try:
        for p in nodes:
            out, err = p.communicate(timeout=60)
            assert p.returncode == 0, err
    finally:
        for p in nodes:
            if p.poll() is None:
                p.kill()
                p.wait()
    ranks = {int(p.stem): json.loads(p.read_text())["env"] for p in (job.dir / "out").glob("*.json")}
    assert sorted(ranks) == [0, 1, 2, 3]
    for r, env in ranks.items():
        assert env["GROUP_RANK"] == str(r // 2) and env["LOCAL_RANK"] == str(r % 2)
        assert env["WORLD_SIZE"] == "4" and env["MASTER_ADDR"] == "127.0.0.1"
    ports = {env["MASTER_PORT"] for env in ranks.values()}
    assert len(ports) == 1 and ports != {str(port)}
