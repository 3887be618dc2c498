"""The users' programs (the notes in the project's seeds) as integration tests.

Each program is kept as the users wrote it; only the imports are switched to
minitorch (``import minitorch as torch`` and ``minitorch.distributed`` /
``minitorch.multiprocessing`` for ``torch.distributed`` / ``torch.multiprocessing``)
and the fixed ports (29500, 12355) become free ones.  The programs that need nn,
optim, DataLoader or CUDA are not here; ``average_gradients`` runs on a stand-in
model whose parameters carry plain gradient tensors.  Every program runs in its
own Python process, started as the users start it: ``python prog.py`` (ranks from
Process or multiprocessing.spawn) or through the two launchers."""
import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from helpers import PACKAGE_DIR, free_port

ROOT = Path(__file__).resolve().parents[1]
# every program starts several interpreters; under AddressSanitizer each is several times slower
TIMEOUT = 180 if "asan" in os.environ.get("LD_PRELOAD", "") else 60


def as_minitorch(source, port):
    """The users' program with minitorch imported as torch, on a free port."""
    src = textwrap.dedent(source)
    src = re.sub(r"^(\s*)import torch$", r"\1import minitorch as torch", src, flags=re.M)
    src = re.sub(r"^(\s*)import torch\.(\w+) as (\w+)$", r"\1import minitorch.\2 as \3", src, flags=re.M)
    src = re.sub(r"^(\s*)from torch\.([\w.]+) import ", r"\1from minitorch.\2 import ", src, flags=re.M)
    assert not re.search(r"^\s*(import|from) torch\b", src, flags=re.M), "unconverted import"
    for fixed in ("'29500'", "'12355'"):
        src = src.replace(fixed, f"'{port}'")
    return src


def _env(extra=None):
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([PACKAGE_DIR, env.get("PYTHONPATH", "")])
    env.pop("OMP_NUM_THREADS", None)
    # buffered output: each rank's prints reach the shared pipe in one write at its exit
    # (print() with several arguments writes them one by one when unbuffered)
    env.pop("PYTHONUNBUFFERED", None)
    env.update(extra or {})
    return env


def run_program(tmp_path, source, *, launcher=None, launcher_args=(), script_args=(), name="prog.py",
                port=None):
    port = port or free_port()
    script = tmp_path / name
    script.write_text(as_minitorch(source, port))
    if launcher is None:
        cmd = [sys.executable, str(script), *script_args]
    else:
        cmd = [sys.executable, "-m", f"minitorch.distributed.{launcher}", *launcher_args,
               f"--master_port={port}", str(script), *script_args]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=TIMEOUT, env=_env(),
                          cwd=tmp_path)
    assert proc.returncode == 0, f"exit status {proc.returncode}\n{proc.stdout}\n{proc.stderr}"
    assert "Traceback" not in proc.stderr, proc.stderr
    return proc


def _lines(stdout, prefix):
    return sorted(line for line in stdout.splitlines() if line.startswith(prefix))


# ---------------------------------------------------------------- "Writing distributed
# applications": run.py, Process + init_process with the gloo backend


RUN_TEMPLATE = '''
"""run.py:"""
#!/usr/bin/env python
import os
import torch
import torch.distributed as dist
from torch.multiprocessing import Process

{run}

def init_process(rank, size, fn, backend='gloo'):
    """ Initialize the distributed environment. """
    os.environ['MASTER_ADDR'] = '127.0.0.1'
    os.environ['MASTER_PORT'] = '29500'
    dist.init_process_group(backend, rank=rank, world_size=size)
    fn(rank, size)


if __name__ == "__main__":
    size = 2
    processes = []
    for rank in range(size):
        p = Process(target=init_process, args=(rank, size, run))
        p.start()
        processes.append(p)

    for p in processes:
        p.join()
    assert [p.exitcode for p in processes] == [0] * size, [p.exitcode for p in processes]
'''

RUN_EMPTY = '''
def run(rank, size):
    """ Distributed function to be implemented later. """
    pass
'''

RUN_SEND_RECV = '''
"""Blocking point-to-point communication."""

def run(rank, size):
    tensor = torch.zeros(1)
    if rank == 0:
        tensor += 1
        # Send the tensor to process 1
        dist.send(tensor=tensor, dst=1)
    else:
        # Receive tensor from process 0
        dist.recv(tensor=tensor, src=0)
    print('Rank ', rank, ' has data ', tensor[0])
'''

RUN_ALL_REDUCE = '''
""" All-Reduce example."""
def run(rank, size):
    """ Simple point-to-point communication. """
    group = dist.new_group([0, 1])
    tensor = torch.ones(1)
    dist.all_reduce(tensor, op=dist.reduce_op.SUM, group=group)
    print('Rank ', rank, ' has data ', tensor[0])
'''

RUN_AVERAGE_GRADIENTS = '''
class Parameter:
    """A stand-in for nn.Parameter: what average_gradients touches (param.grad.data)."""
    def __init__(self, grad):
        self.grad = grad


class Model:
    def __init__(self, rank):
        self.params = [Parameter(torch.full((3,), rank + 1.0)),
                       Parameter(torch.arange(4.0).reshape(2, 2) * (rank + 1)),
                       Parameter(torch.tensor(10.0 * rank, dtype=torch.float64))]

    def parameters(self):
        return iter(self.params)


""" Gradient averaging. """
def average_gradients(model):
    size = float(dist.get_world_size())
    for param in model.parameters():
        dist.all_reduce(param.grad.data, op=dist.reduce_op.SUM)
        param.grad.data /= size


def run(rank, size):
    model = Model(rank)
    average_gradients(model)
    print('Rank ', rank, ' grads ', [p.grad.tolist() for p in model.parameters()])
'''


def test_run_template_and_blocking_send_recv(tmp_path):
    proc = run_program(tmp_path, RUN_TEMPLATE.replace("{run}", RUN_EMPTY), name="run.py")
    assert proc.stdout == ""
    proc = run_program(tmp_path, RUN_TEMPLATE.replace("{run}", RUN_SEND_RECV), name="run.py")
    assert _lines(proc.stdout, "Rank ") == ["Rank  0  has data  tensor(1.)",
                                           "Rank  1  has data  tensor(1.)"], proc.stdout


def test_all_reduce_with_new_group_and_average_gradients(tmp_path):
    proc = run_program(tmp_path, RUN_TEMPLATE.replace("{run}", RUN_ALL_REDUCE), name="run.py")
    assert _lines(proc.stdout, "Rank ") == ["Rank  0  has data  tensor(2.)",
                                           "Rank  1  has data  tensor(2.)"], proc.stdout
    proc = run_program(tmp_path, RUN_TEMPLATE.replace("{run}", RUN_AVERAGE_GRADIENTS), name="run.py")
    expected = "[[1.5, 1.5, 1.5], [[0.0, 1.5], [3.0, 4.5]], 5.0]"
    assert _lines(proc.stdout, "Rank ") == [f"Rank  0  grads  {expected}",
                                           f"Rank  1  grads  {expected}"], proc.stdout


# ---------------------------------------------------------------- "Gloo backend + mp start":
# setup/cleanup around the process group, mp.spawn(demo_fn, args=(world_size,), ...);
# the demos exchange plain tensors and a checkpoint instead of a DDP model


GLOO_MP = '''
"""
test.py
$ python test.py
"""
import os
import torch
import torch.distributed as dist
import torch.multiprocessing as mp


def setup(rank, world_size):
    os.environ['MASTER_ADDR'] = 'localhost'
    os.environ['MASTER_PORT'] = '12355'

    # initialize the process group
    dist.init_process_group("gloo", rank=rank, world_size=world_size)


def cleanup():
    dist.destroy_process_group()


def demo_basic(rank, world_size):
    print(f"Running basic example on rank {rank}.")
    setup(rank, world_size)

    torch.manual_seed(rank)
    grads = torch.randn(20, 10)
    mean = grads.clone()
    dist.all_reduce(mean)
    mean /= world_size
    everyone = [torch.zeros(20, 10) for _ in range(world_size)]
    dist.all_gather(everyone, grads)
    assert torch.allclose(mean, torch.stack(everyone).mean(0), atol=1e-6)
    print(f"rank {rank}: mean of gradients checked")

    cleanup()


def demo_checkpoint(rank, world_size):
    print(f"Running checkpoint example on rank {rank}.")
    setup(rank, world_size)

    CHECKPOINT_PATH = "model.checkpoint"
    state = {"weight": torch.arange(6.0).reshape(2, 3) * (rank + 1), "step": rank}
    if rank == 0:
        torch.save(state, CHECKPOINT_PATH)

    # all ranks wait until rank 0 has written the checkpoint
    dist.barrier()

    map_location = {'cuda:%d' % 0: 'cuda:%d' % rank}
    loaded = torch.load(CHECKPOINT_PATH, map_location=map_location)
    assert loaded["step"] == 0 and loaded["weight"].tolist() == [[0., 1., 2.], [3., 4., 5.]]
    print(f"rank {rank}: checkpoint of rank 0 loaded")

    dist.barrier()
    if rank == 0:
        os.remove(CHECKPOINT_PATH)

    cleanup()


def run_demo(demo_fn, world_size):
    mp.spawn(demo_fn,
             args=(world_size,),
             nprocs=world_size,
             join=True)


if __name__ == "__main__":
    n_gpus = torch.cuda.device_count()
    print(f"got {n_gpus} gpus.")
    run_demo(demo_basic, 2)
    run_demo(demo_checkpoint, 2)
'''


def test_gloo_mp_spawn_demos(tmp_path):
    proc = run_program(tmp_path, GLOO_MP, name="test.py")
    out = proc.stdout
    assert out.startswith("got 0 gpus.\n")
    for rank in range(2):
        assert f"Running basic example on rank {rank}." in out
        assert f"rank {rank}: mean of gradients checked" in out
        assert f"Running checkpoint example on rank {rank}." in out
        assert f"rank {rank}: checkpoint of rank 0 loaded" in out
    assert not (tmp_path / "model.checkpoint").exists()


# ---------------------------------------------------------------- launch-style scripts:
# parse --local_rank (legacy launcher) or read LOCAL_RANK (torchrun), init from env://


LAUNCH_SCRIPT = '''
import argparse
import os
import torch
import torch.distributed as dist

parser = argparse.ArgumentParser()
parser.add_argument("--local_rank", type=int, default=int(os.environ.get("LOCAL_RANK", -1)))
parser.add_argument("--tag", type=str, default="")
args = parser.parse_args()

torch.distributed.init_process_group(backend='gloo',
                                     init_method='env://')
rank, world = dist.get_rank(), dist.get_world_size()
assert args.local_rank == int(os.environ["LOCAL_RANK"])

t = torch.tensor([rank + 1.0, 10.0 * rank])
dist.all_reduce(t, op=dist.ReduceOp.SUM)
src = torch.tensor([42, 7]) if rank == 0 else torch.zeros(2, dtype=torch.int64)
dist.broadcast(src, src=0)
gathered = [torch.zeros(1, dtype=torch.int32) for _ in range(world)]
dist.all_gather(gathered, torch.tensor([rank], dtype=torch.int32))
print(f"{args.tag} rank {rank}/{world} local_rank {args.local_rank} threads {torch.get_num_threads()} "
      f"sum {t.tolist()} bcast {src.tolist()} gather {[g.item() for g in gathered]}", flush=True)
dist.destroy_process_group()
'''


def _expect_launch_output(stdout, tag, world, local_of=lambda r: r):
    total = [float(sum(r + 1 for r in range(world))), float(sum(10 * r for r in range(world)))]
    expected = sorted(f"{tag} rank {r}/{world} local_rank {local_of(r)} threads 1 sum {total} "
                      f"bcast [42, 7] gather {list(range(world))}" for r in range(world))
    # the workers run unbuffered (python -u): print() writes the text and the newline
    # separately, so the lines of ranks may run together; find each record by its end
    got = sorted(re.findall(rf"{tag} rank [^\n]*?gather \[[^\]]*\]", stdout))
    assert got == expected, stdout


@pytest.mark.parametrize("launcher", ["launch", "run"])
def test_launch_style_script(tmp_path, launcher):
    proc = run_program(tmp_path, LAUNCH_SCRIPT, launcher=launcher, launcher_args=["--nproc_per_node=3"],
                       script_args=["--tag", launcher])
    _expect_launch_output(proc.stdout, launcher, 3)
    assert "Setting OMP_NUM_THREADS environment variable for each process to be 1" in proc.stderr


@pytest.mark.parametrize("rendezvous", ["static", "c10d"])
def test_launch_two_nodes(tmp_path, rendezvous):
    # the notes' two-node command, both nodes on this machine: --nnodes=2 --node_rank=0/1;
    # or torchrun's c10d rendezvous handing out the node ranks
    port = free_port()
    script = tmp_path / "MNIST.py"
    script.write_text(as_minitorch(LAUNCH_SCRIPT, port))

    def command(node):
        if rendezvous == "static":
            return [sys.executable, "-m", "minitorch.distributed.launch", "--nproc_per_node=2",
                    "--nnodes=2", f"--node_rank={node}", "--master_addr=127.0.0.1",
                    f"--master_port={port}", str(script), "--tag", "nodes"]
        return [sys.executable, "-m", "minitorch.distributed.run", "--nproc_per_node=2", "--nnodes=2",
                "--rdzv_backend=c10d", f"--rdzv_endpoint=localhost:{port}", str(script), "--tag", "nodes"]

    nodes = [subprocess.Popen(command(node), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                              env=_env(), cwd=tmp_path) for node in range(2)]
    out = ""
    try:
        for p in nodes:
            try:
                stdout, stderr = p.communicate(timeout=TIMEOUT)
            except subprocess.TimeoutExpired:
                # what every launcher had said by then, so that a hang can be told apart
                said = []
                for q in nodes:
                    if q.poll() is None:
                        q.kill()
                    o, e = q.communicate()
                    said.append(f"--- launcher (exit {q.returncode}) ---\n{o}{e}")
                pytest.fail(f"the launchers did not finish in {TIMEOUT} s:\n" + "\n".join(said))
            assert p.returncode == 0, stdout + stderr
            out += stdout
    finally:
        for p in nodes:
            if p.poll() is None:
                p.kill()
                p.wait()
    _expect_launch_output(out, "nodes", 4, local_of=lambda r: r % 2)


# ---------------------------------------------------------------- README's demo


def test_allreduce_demo(tmp_path):
    demo = ROOT / "examples" / "allreduce_demo.py"
    proc = subprocess.run([sys.executable, str(demo)], capture_output=True, text=True,
                          timeout=TIMEOUT, env=_env(), cwd=tmp_path)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    lines = proc.stdout.splitlines()
    assert lines[0].startswith("[rank 0/2] backend=gloo") and lines[4].startswith("[rank 1/2] backend=gloo")
    assert lines[1] == "[rank 0] broadcast  sent [0.0, 10.0, 20.0, 30.0] -> received [0.0, 10.0, 20.0, 30.0]"
    assert lines[5] == "[rank 1] broadcast  sent [0.0, 0.0, 0.0, 0.0] -> received [0.0, 10.0, 20.0, 30.0]"
    assert lines[2] == "[rank 0] all_reduce sent [1, 10] -> received SUM [3, 30], MAX of ranks 1.0"
    assert lines[6] == "[rank 1] all_reduce sent [2, 20] -> received SUM [3, 30], MAX of ranks 1.0"
    gathered = "[[0.5, 0.25], [1.5, 1.25]]"
    assert lines[3] == f"[rank 0] all_gather sent [0.5, 0.25] -> received {gathered}"
    assert lines[7] == f"[rank 1] all_gather sent [1.5, 1.25] -> received {gathered}"
    assert len(lines) == 8
    # the same program under the launcher
    proc = subprocess.run([sys.executable, "-m", "minitorch.distributed.run", "--standalone",
                           "--nproc_per_node=2", str(demo), "--launched"], capture_output=True,
                          text=True, timeout=TIMEOUT, env=_env(), cwd=tmp_path)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert f"[rank 1] all_gather sent [1.5, 1.25] -> received {gathered}" in proc.stdout
