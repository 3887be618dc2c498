"""The "mpi" backend (Note [The MPI backend] in distributed/_process_group_mpi.py) on Open MPI:
scripts started by `mpirun -np 3` run every collective, point-to-point operation, group, object
collective and DDP on it, and their results are compared with the same script run on the CPU
backend ("gloo", started by the same mpirun: env:// reads Open MPI's rank variables) and with
values worked out here.  Plus the errors (no library, not an MPI library, timeouts), and the
launcher variables env:// reads (Note [Launcher environments] in _launcher_env.py), which need no
MPI.  The MPI tests skip, saying why, where mpirun or an Open MPI library is missing."""
import json
import os
import shutil
import socket
import subprocess
import sys
import textwrap

import pytest

import minitorch as torch
import minitorch.distributed as dist
from minitorch.distributed import _launcher_env

_PYTHON_DIR = os.path.dirname(os.path.dirname(os.path.abspath(torch.__file__)))  # this minitorch


def _skip_reason():
    if shutil.which("mpirun") is None:
        return "mpirun not found (apt-get install openmpi-bin libopenmpi-dev)"
    from minitorch.distributed import _process_group_mpi
    why = _process_group_mpi.unavailable_reason()
    return None if why is None else f"no usable MPI library: {why}"


_SKIP = _skip_reason()
multiprocess = pytest.mark.multiprocess  # (tests/conftest.py) these start processes


def needs_mpi(fn):
    return multiprocess(pytest.mark.skipif(_SKIP is not None, reason=_SKIP or "")(fn))


def _env(**extra):
    env = dict(os.environ)
    env["PYTHONPATH"] = _PYTHON_DIR + os.pathsep + env.get("PYTHONPATH", "")
    env.update(OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
               # containers often forbid the cross-process copies of Open MPI's shared memory
               OMPI_MCA_btl_vader_single_copy_mechanism="none",
               MINITORCH_NUM_THREADS="1", OMP_NUM_THREADS="1")
    env.update(extra)
    return env


def _free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _mpirun(tmp_path, name, script, np, args=(), timeout=120, **env):
    path = tmp_path / name
    path.write_text(textwrap.dedent(script))
    cmd = ["mpirun", "--oversubscribe", "-np", str(np)]
    for k in env:  # exported to the ranks
        cmd += ["-x", k]
    cmd += [sys.executable, str(path), *map(str, args)]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=timeout,
                          env=_env(**env))


# Runs every operation; each rank writes its results (JSON) to <out>/<backend>_<rank>.json.
# Keys under "mpi_only/" are what only the MPI backend is asked.
_WORKER = r'''
import json, sys
import minitorch as torch
import minitorch.distributed as dist
import minitorch.nn as nn

from datetime import timedelta
backend, out = sys.argv[1], sys.argv[2]
dist.init_process_group(backend, timeout=timedelta(seconds=30))  # a hang fails, naming the call
r, n = dist.get_rank(), dist.get_world_size()
R = {}
def put(k, v):
    R[k] = v.tolist() if isinstance(v, torch.Tensor) else v
def name(x):
    return str(x).split(".")[-1]
def base(dt, k=5):
    return (torch.arange(k, dtype=torch.float64) * (r + 1) - r).to(dt)
Op = dist.ReduceOp
for dt in (torch.float32, torch.float64, torch.float16, torch.bfloat16, torch.int64, torch.int32,
           torch.int8, torch.uint8):
    ops = [Op.SUM, Op.PRODUCT, Op.MIN, Op.MAX]
    ops += [Op.AVG] if dt.is_floating_point else [Op.BAND, Op.BOR, Op.BXOR]
    for op in ops:
        t = base(dt) if dt != torch.uint8 else base(torch.int64).abs().to(dt)
        dist.all_reduce(t, op=op)
        put(f"allreduce/{name(dt)}/{name(op)}", t.to(torch.float64))
for op in (Op.SUM, Op.PRODUCT, Op.MIN, Op.MAX, Op.BAND, Op.BOR, Op.BXOR):
    t = torch.tensor([True, r == 0, r % 2 == 1, False])
    dist.all_reduce(t, op=op)
    put(f"allreduce/bool/{name(op)}", t)
c = torch.tensor([1 + 2j, r - 1j], dtype=torch.complex64)
dist.all_reduce(c); put("allreduce/complex", torch.view_as_real(c))
t = (torch.arange(12, dtype=torch.float32).reshape(3, 4) + r).t()
dist.all_reduce(t); put("allreduce/noncontig", t)
ts = [torch.full((3,), float(r + i)) for i in range(4)]
for w in [dist.all_reduce(x, async_op=True) for x in ts]:
    w.wait()
put("allreduce/async", [x.tolist() for x in ts])
big = torch.arange(100000, dtype=torch.float32) % 97 + r      # 400 KB: the MPI thread's way
dist.all_reduce(big); put("allreduce/big", [big.sum().item(), big[:3].tolist()])
bigh = torch.full((70000,), 0.5 + r, dtype=torch.bfloat16)
w = dist.all_reduce(bigh, op=Op.AVG, async_op=True); w.wait(); put("allreduce/big_bf16", bigh[:2].float())
t = base(torch.float32) if r == 1 else torch.zeros(5)
dist.broadcast(t, src=1); put("broadcast", t)
t = base(torch.float32); dist.reduce(t, dst=0, op=Op.SUM); put("reduce", t)
t = base(torch.float16); dist.reduce(t, dst=1, op=Op.MAX); put("reduce/f16max", t.float())
outs = [torch.zeros(5) for _ in range(n)]
dist.all_gather(outs, base(torch.float32)); put("all_gather", [o.tolist() for o in outs])
o = torch.zeros(n * 5, dtype=torch.int64)
dist.all_gather_into_tensor(o, base(torch.int64)); put("all_gather_into_tensor", o)
o = torch.zeros(n * 30000)
dist.all_gather_into_tensor(o, torch.full((30000,), float(r))); put("all_gather/big", o[::30000])
g = [torch.zeros(5) for _ in range(n)] if r == 0 else None
dist.gather(base(torch.float32), g, dst=0); put("gather", [x.tolist() for x in g] if g else None)
s = torch.zeros(3)
dist.scatter(s, [torch.full((3,), float(i * 10)) for i in range(n)] if r == 1 else None, src=1)
put("scatter", s)
rs = torch.zeros(2)
dist.reduce_scatter(rs, [torch.full((2,), float(r + 10 * i)) for i in range(n)])
put("reduce_scatter", rs)
rs = torch.zeros(2, dtype=torch.bfloat16)
dist.reduce_scatter(rs, [torch.full((2,), float(r + 10 * i), dtype=torch.bfloat16)
                         for i in range(n)], op=Op.AVG)
put("reduce_scatter/bf16avg", rs.float())
rt = torch.zeros(3)
dist.reduce_scatter_tensor(rt, torch.arange(3 * n, dtype=torch.float32) * (r + 1), op=Op.MAX)
put("reduce_scatter_tensor", rt)
ins = [torch.full((i + 1,), float(r * 100 + i)) for i in range(n)]
outs = [torch.zeros(r + 1) for _ in range(n)]
dist.all_to_all(outs, ins); put("all_to_all", [x.tolist() for x in outs])
o = torch.zeros(2 * n)
dist.all_to_all_single(o, torch.arange(2 * n, dtype=torch.float32) + 100 * r)
put("all_to_all_single", o)
isz, osz = [i + 1 for i in range(n)], [r + 1] * n
o = torch.zeros(sum(osz), dtype=torch.float64)
dist.all_to_all_single(o, torch.arange(sum(isz), dtype=torch.float64) + 100 * r,
                       output_split_sizes=osz, input_split_sizes=isz)
put("all_to_all_single/uneven", o)
nxt, prv = (r + 1) % n, (r - 1) % n
a, b = torch.zeros(4), torch.zeros(4)
w1 = dist.irecv(a, src=prv, tag=7)
w2 = dist.irecv(b, src=prv, tag=3)
dist.isend(torch.full((4,), float(r)), dst=nxt, tag=3).wait()
dist.send(torch.full((4,), float(r + 50)), dst=nxt, tag=7)
w1.wait(); w2.wait()
put("p2p/tag7", a); put("p2p/tag3", b)
if r == 0:
    got = []
    for _ in range(n - 1):
        x = torch.zeros(1, dtype=torch.int64)
        got.append((dist.recv(x), int(x.item())))
    put("p2p/anysource", sorted(got))
else:
    dist.send(torch.tensor([r * 11]), dst=0)
bb = torch.zeros(50000)
ops = [dist.P2POp(dist.isend, torch.full((50000,), float(r)), nxt, tag=5),
       dist.P2POp(dist.irecv, bb, prv, tag=5)]
for w in dist.batch_isend_irecv(ops):
    w.wait()
put("p2p/batch_big", [bb[0].item(), bb[-1].item()])
dist.barrier()
sub = dist.new_group([0, n - 1])
if r in (0, n - 1):
    t = torch.tensor([float(r + 1)]); dist.all_reduce(t, group=sub); put("group/allreduce", t)
    put("group/rank", dist.get_rank(sub))
    t = torch.tensor([float(r)]); dist.broadcast(t, src=n - 1, group=sub); put("group/broadcast", t)
else:
    put("group/nonmember", sub is dist.GroupMember.NON_GROUP_MEMBER)
rev = dist.new_group(list(reversed(range(n))), sort_ranks=False)
put("group/reversed_rank", dist.get_rank(rev))
t = torch.tensor([float(r)]); dist.all_reduce(t, op=Op.MAX, group=rev); put("group/reversed", t)
if r != 1:
    loc = dist.new_group([0, 2], use_local_synchronization=True)
    t = torch.tensor([float(r + 1)]); dist.all_reduce(t, group=loc); put("group/local", t)
objs = [None] * n
dist.all_gather_object(objs, {"rank": r, "s": "x" * r}); put("obj/all_gather", objs)
lst = [r, "a", {"k": r}] if r == 1 else [None, None, None]
dist.broadcast_object_list(lst, src=1); put("obj/broadcast", lst)
go = [None] * n if r == 0 else None
dist.gather_object((r, r * r), go, dst=0); put("obj/gather", go)
so = [None]
dist.scatter_object_list(so, [f"s{i}" for i in range(n)] if r == 0 else None, src=0)
put("obj/scatter", so)
torch.manual_seed(0)
m = nn.Linear(4, 2)
ddp = nn.parallel.DistributedDataParallel(m)
opt = torch.optim.SGD(ddp.parameters(), lr=0.1)
for step in range(3):
    x = torch.arange(8, dtype=torch.float32).reshape(2, 4) * (r + 1 + step)
    loss = ddp(x).pow(2).sum()
    opt.zero_grad(); loss.backward(); opt.step()
put("ddp/weight", m.weight.detach())
if backend == "mpi":
    put("mpi_only/backend", [dist.get_backend(), dist.get_backend(sub) if r in (0, n - 1) else None])
    try:
        dist.monitored_barrier()
    except ValueError as e:
        put("mpi_only/monitored_barrier", str(e))
    try:
        dist.new_group([0, 1], backend="gloo")
    except ValueError as e:
        put("mpi_only/gloo_group", str(e))
json.dump(R, open(f"{out}/{backend}_{r}.json", "w"))
dist.destroy_process_group()
'''

_NP = 3


def _results(out, backend):
    return [json.load(open(out / f"{backend}_{r}.json")) for r in range(_NP)]


@pytest.fixture(scope="module")
def cpu_results(tmp_path_factory):
    """The worker's results on the CPU backend, started by mpirun (env:// reads Open MPI's
    OMPI_COMM_WORLD_RANK/SIZE: Note [Launcher environments])."""
    if _SKIP is not None:
        pytest.skip(_SKIP)
    tmp = tmp_path_factory.mktemp("mpi_cpu")
    p = _mpirun(tmp, "worker.py", _WORKER, _NP, ("gloo", tmp), MASTER_ADDR="127.0.0.1",
                MASTER_PORT=str(_free_port()))
    assert p.returncode == 0, p.stdout + p.stderr
    return _results(tmp, "gloo")


def _check_against(cpu, got):
    for r in range(_NP):
        keys = {k for k in got[r] if not k.startswith("mpi_only/")}
        assert keys == set(cpu[r]), (r, keys ^ set(cpu[r]))
        for k in sorted(keys):
            assert got[r][k] == cpu[r][k], (r, k, got[r][k], cpu[r][k])


def _sum_base(k=5):
    return [sum(i * (q + 1) - q for q in range(_NP)) for i in range(k)]


@needs_mpi
@pytest.mark.parametrize("progress", ["", "thread", "poll", "caller"])
def test_every_operation_matches_the_cpu_backend(tmp_path, cpu_results, progress):
    # "": each operation by its size (Note [MPI thread hand-over]); thread / poll: all one way;
    # caller: blocking ones on the caller's thread (Note [MPI on the caller's thread])
    p = _mpirun(tmp_path, "worker.py", _WORKER, _NP, ("mpi", tmp_path),
                MINITORCH_MPI_PROGRESS=progress)
    assert p.returncode == 0, p.stdout + p.stderr
    got = _results(tmp_path, "mpi")
    _check_against(cpu_results, got)
    # values worked out here, not only the two backends agreeing
    r0, r1, r2 = got
    assert r0["allreduce/float32/SUM"] == _sum_base()
    assert r2["allreduce/int64/MAX"] == [max(i * (q + 1) - q for q in range(_NP))
                                                        for i in range(5)]
    assert r1["allreduce/float64/AVG"] == [s / _NP for s in _sum_base()]
    assert r0["allreduce/bool/SUM"] == [True, True, True, False]
    assert r0["allreduce/bool/PRODUCT"] == [True, False, False, False]
    assert r0["allreduce/big"][1] == [3.0, 6.0, 9.0]
    assert r2["broadcast"] == [i * 2 - 1 for i in range(5)]
    assert r0["reduce"] == _sum_base() and r1["reduce"] == [i * 2 - 1 for i in range(5)]
    assert r0["all_gather"] == [[i * (q + 1) - q for i in range(5)] for q in range(_NP)]
    assert r0["all_gather/big"] == [0.0, 1.0, 2.0]
    assert r2["scatter"] == [20.0] * 3
    assert r1["reduce_scatter"] == [33.0, 33.0]           # (0+10) + (1+10) + (2+10)
    assert r2["all_to_all"] == [[2.0] * 3, [102.0] * 3, [202.0] * 3]
    assert r0["p2p/tag3"] == [2.0] * 4 and r0["p2p/tag7"] == [52.0] * 4
    assert r0["p2p/anysource"] == [[1, 11], [2, 22]]
    assert r1["p2p/batch_big"] == [0.0, 0.0]
    assert r0["group/allreduce"] == [4.0] and r2["group/rank"] == 1 and r1["group/nonmember"]
    assert r0["group/reversed_rank"] == 2 and r0["group/reversed"] == [2.0]
    assert r2["group/local"] == [4.0]
    assert r1["obj/all_gather"][2] == {"rank": 2, "s": "xx"}
    assert r0["obj/gather"] == [[0, 0], [1, 1], [2, 4]] and r2["obj/scatter"] == ["s2"]
    assert r0["ddp/weight"] == r1["ddp/weight"] == r2["ddp/weight"]
    assert r0["mpi_only/backend"] == ["mpi", "mpi"]
    assert r1["mpi_only/monitored_barrier"] == "monitored_barrier is only implemented for GLOO " \
                                               "backend."
    assert "needs a store" in r0["mpi_only/gloo_group"]


_TIMEOUT = r'''
import time
from datetime import timedelta
import minitorch as torch
import minitorch.distributed as dist
dist.init_process_group("mpi", timeout=timedelta(seconds=1))
if dist.get_rank() == 0:
    for size in (4, 100000):           # the polled way, then the MPI thread's
        t0 = time.monotonic()
        try:
            g = dist.new_group([0, 1])
            dist.all_reduce(torch.ones(size), group=g)
        except dist.DistBackendError as e:
            print("RAISED", size, round(time.monotonic() - t0), e, flush=True)
        try:
            dist.all_reduce(torch.ones(size), group=g)
        except dist.DistBackendError as e:
            print("BROKEN", size, flush=True)
else:
    dist.new_group([0, 1]); dist.new_group([0, 1])
    time.sleep(3)
print("EXIT", dist.get_rank(), flush=True)
'''


@needs_mpi
def test_a_collective_a_peer_never_joins_times_out(tmp_path):
    p = _mpirun(tmp_path, "timeout.py", _TIMEOUT, 2)
    out = p.stdout
    for size in (4, 100000):
        line = next(ln for ln in out.splitlines() if ln.startswith(f"RAISED {size} "))
        assert line.startswith(f"RAISED {size} 1 rank 0: Timed out waiting 1000ms for allreduce"), out
        assert "MPI has not completed it" in line
        assert f"BROKEN {size}" in out
    assert "EXIT 0" in out, out + p.stderr


def _python(code, **env):
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True,
                          text=True, timeout=60, env=_env(**env))


_NO_MPI = '''
import minitorch.distributed as dist
print("available", dist.is_mpi_available(), dist.is_backend_available("mpi"))
try:
    dist.init_process_group("mpi")
except RuntimeError as e:
    print("ERROR", e)
'''


@multiprocess
def test_a_missing_library_is_a_clear_error_when_asked_for():
    p = _python(_NO_MPI, MINITORCH_MPI_LIBRARY="/nonexistent/libmpi.so.40")
    assert p.returncode == 0, p.stderr
    assert "available False False" in p.stdout
    err = next(ln for ln in p.stdout.splitlines() if ln.startswith("ERROR"))
    assert "Distributed package doesn't have MPI available" in err
    assert "MINITORCH_MPI_LIBRARY=/nonexistent/libmpi.so.40 could not be opened" in err


@multiprocess
def test_a_library_that_is_not_mpi_is_refused():
    p = _python(_NO_MPI, MINITORCH_MPI_LIBRARY="libc.so.6")
    assert p.returncode == 0, p.stderr
    assert "available False False" in p.stdout
    assert "is not an MPI library" in p.stdout


@needs_mpi
def test_library_version():
    from minitorch._C import _c10d
    assert "Open MPI" in _c10d._mpi_version() and _c10d._mpi_library().endswith(".so.40")


# ---- launcher variables (no MPI needed) ----

def test_torch_variables_come_first():
    env = {"RANK": "3", "WORLD_SIZE": "8", "OMPI_COMM_WORLD_RANK": "1",
           "OMPI_COMM_WORLD_SIZE": "4", "SLURM_PROCID": "2"}
    assert _launcher_env.lookup("RANK", env) == ("3", "RANK")
    assert _launcher_env.lookup("WORLD_SIZE", env) == ("8", "WORLD_SIZE")


def test_one_launcher_in_precedence_order():
    ompi = {"OMPI_COMM_WORLD_RANK": "1", "OMPI_COMM_WORLD_SIZE": "4",
            "OMPI_COMM_WORLD_LOCAL_RANK": "1"}
    pmi = {"PMI_RANK": "5", "PMI_SIZE": "6"}
    slurm = {"SLURM_PROCID": "0", "SLURM_NTASKS": "2", "SLURM_LOCALID": "0",
             "SLURM_NODELIST": "node[07-09,12],gpu1"}
    # mpirun inside a Slurm allocation: Open MPI's values, none of Slurm's mixed in
    env = {**slurm, **ompi}
    assert _launcher_env.lookup("RANK", env) == ("1", "OMPI_COMM_WORLD_RANK")
    assert _launcher_env.lookup("WORLD_SIZE", env) == ("4", "OMPI_COMM_WORLD_SIZE")
    assert _launcher_env.lookup("LOCAL_RANK", env) == ("1", "OMPI_COMM_WORLD_LOCAL_RANK")
    assert _launcher_env.lookup("MASTER_ADDR", env) == (None, None)
    env = {**slurm, **pmi}
    assert _launcher_env.lookup("RANK", env) == ("5", "PMI_RANK")
    assert _launcher_env.lookup("WORLD_SIZE", env) == ("6", "PMI_SIZE")
    assert _launcher_env.lookup("LOCAL_RANK", env) == (None, None)
    assert _launcher_env.lookup("RANK", slurm) == ("0", "SLURM_PROCID")
    assert _launcher_env.lookup("WORLD_SIZE", slurm) == ("2", "SLURM_NTASKS")
    assert _launcher_env.lookup("LOCAL_RANK", slurm) == ("0", "SLURM_LOCALID")
    assert _launcher_env.lookup("MASTER_ADDR", slurm) == ("node07", "SLURM_NODELIST")
    assert _launcher_env.lookup("MASTER_ADDR", {**slurm, "MASTER_ADDR": "h"}) == ("h", "MASTER_ADDR")
    assert _launcher_env.lookup("RANK", {}) == (None, None)


@pytest.mark.parametrize("nodes,first", [
    ("node[07-09,12],gpu1", "node07"), ("a1,a2", "a1"), ("gpu-[3-5]", "gpu-3"),
    ("single", "single"), ("rack[1-2]-n[001-004]", "rack1-n001"), ("x[5]", "x5"),
    ("127.0.0.[1-4]", "127.0.0.1"),
])
def test_first_host_of_a_slurm_node_list(nodes, first):
    assert _launcher_env.first_host(nodes) == first


_CLEAN = ("RANK", "WORLD_SIZE", "LOCAL_RANK", "MASTER_ADDR", "OMPI_COMM_WORLD_RANK",
          "OMPI_COMM_WORLD_SIZE", "OMPI_COMM_WORLD_LOCAL_RANK", "PMI_RANK", "PMI_SIZE",
          "SLURM_PROCID", "SLURM_NTASKS", "SLURM_LOCALID", "SLURM_NODELIST", "SLURM_JOB_NODELIST")


@pytest.fixture
def clean_env(monkeypatch):
    for k in _CLEAN:
        monkeypatch.delenv(k, raising=False)
    monkeypatch.setenv("MASTER_PORT", str(_free_port()))
    yield monkeypatch
    if dist.is_initialized():
        dist.destroy_process_group()


def test_env_init_under_srun(clean_env):
    clean_env.setenv("SLURM_PROCID", "0")
    clean_env.setenv("SLURM_NTASKS", "1")
    clean_env.setenv("SLURM_LOCALID", "0")
    clean_env.setenv("SLURM_NODELIST", "127.0.0.[1-4]")    # MASTER_ADDR from its first host
    dist.init_process_group("gloo")
    assert (dist.get_rank(), dist.get_world_size(), dist.get_node_local_rank()) == (0, 1, 0)
    t = torch.ones(3)
    dist.all_reduce(t)
    assert t.tolist() == [1.0, 1.0, 1.0]


def test_env_init_under_mpirun_and_pmi(clean_env):
    clean_env.setenv("MASTER_ADDR", "127.0.0.1")
    clean_env.setenv("OMPI_COMM_WORLD_RANK", "0")
    clean_env.setenv("OMPI_COMM_WORLD_SIZE", "1")
    clean_env.setenv("OMPI_COMM_WORLD_LOCAL_RANK", "0")
    dist.init_process_group("gloo")
    assert (dist.get_rank(), dist.get_world_size(), dist.get_node_local_rank()) == (0, 1, 0)
    dist.destroy_process_group()
    for k in ("OMPI_COMM_WORLD_RANK", "OMPI_COMM_WORLD_SIZE", "OMPI_COMM_WORLD_LOCAL_RANK"):
        clean_env.delenv(k)
    clean_env.setenv("MASTER_PORT", str(_free_port()))
    clean_env.setenv("PMI_RANK", "0")
    clean_env.setenv("PMI_SIZE", "1")
    dist.init_process_group("gloo")
    assert (dist.get_rank(), dist.get_world_size()) == (0, 1)
    assert dist.get_node_local_rank(fallback_rank=5) == 5


def test_env_errors_keep_torch_words(clean_env):
    with pytest.raises(ValueError, match="environment variable RANK expected, but not set"):
        dist.init_process_group("gloo")
    clean_env.setenv("SLURM_PROCID", "x")
    clean_env.setenv("SLURM_NTASKS", "2")
    with pytest.raises(ValueError, match="SLURM_PROCID must be an integer"):
        dist.init_process_group("gloo")
    clean_env.setenv("SLURM_PROCID", "0")
    with pytest.raises(ValueError, match="environment variable MASTER_ADDR expected"):
        dist.init_process_group("gloo")
