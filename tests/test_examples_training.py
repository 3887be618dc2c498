"""The notes' training programs in examples/ (DDP with mp.spawn and a checkpoint, the
average_gradients loop, the launch-style DistributedSampler program), each run as users run it."""
import os
import re
import subprocess
import sys

from helpers import free_port
from test_seeds import ROOT, _env

TIMEOUT = 180


def _run(tmp_path, args, **extra):
    env = _env({"DEMO_PORT": str(free_port()), "DEMO_DIR": str(tmp_path), **extra})
    proc = subprocess.run([sys.executable, *args], capture_output=True, text=True,
                          timeout=TIMEOUT, env=env, cwd=tmp_path)
    assert proc.returncode == 0, f"exit status {proc.returncode}\n{proc.stdout}\n{proc.stderr}"
    assert "Traceback" not in proc.stderr, proc.stderr
    return proc.stdout


def test_ddp_demo_basic_and_checkpoint(tmp_path):
    out = _run(tmp_path, [str(ROOT / "examples" / "ddp_demo.py")])
    for rank in (0, 1):
        assert f"Running basic DDP example on rank {rank}." in out
        assert f"Running DDP checkpoint example on rank {rank}." in out
    losses = re.findall(r"rank \d: loss ([0-9.]+) \(the same on every rank\)", out)
    assert len(losses) == 2 and losses[0] == losses[1]
    assert not os.path.exists(tmp_path / "model.checkpoint")


def test_average_gradients_loop_trains(tmp_path):
    out = _run(tmp_path, [str(ROOT / "examples" / "ddp_average_gradients.py")], DEMO_EPOCHS="3")
    for rank in (0, 1):
        losses = [float(m) for m in re.findall(rf"Rank  {rank} , epoch  \d :  ([0-9.]+)", out)]
        assert len(losses) == 3, out
        assert losses[-1] < losses[0]                # the averaged gradients make progress


def test_launch_style_distributed_sampler_program(tmp_path):
    out = _run(tmp_path, ["-m", "minitorch.distributed.launch", "--nproc_per_node=2",
                          f"--master_port={free_port()}", "--use_env",
                          str(ROOT / "examples" / "ddp_launch.py")])
    # the ranks share one pipe: take each report wherever it starts
    reports = sorted(re.findall(r"Model \d, input size: minitorch\.Size\(\[\d+, 5\]\), output size: "
                                r"minitorch\.Size\(\[\d+, 2\]\)", out))
    assert reports == [f"Model {r}, input size: minitorch.Size([{n}, 5]), output size: "
                       f"minitorch.Size([{n}, 2])" for r in (0, 1) for n in (15, 30)], out
