"""The user's notes' programs that put models and batches on GPUs (`.to(rank)`, `.cuda()`,
`DDP(model, device_ids=[rank])`, `map_location={'cuda:0': 'cuda:%d' % rank}`), run unchanged
with `import minitorch as torch` on CUDA devices: on the emulated build (two devices, one per
rank, the gloo backend moving CUDA tensors through host copies) in CI, on a GPU when there is
one (world size 1 there).  Skipped without a device."""
import pytest

import minitorch
from test_seeds import run_program

pytestmark = pytest.mark.skipif(minitorch.cuda.device_count() == 0,
                                reason="needs a CUDA device (a GPU, or the emulated build)")

NGPU = minitorch.cuda.device_count()

# "Gloo backend + MP start + saving and loading the model", as the notes write it
DDP_DEMOS = '''
import os
import torch
import torch.distributed as dist
import torch.nn as nn
import torch.optim as optim
import torch.multiprocessing as mp

from torch.nn.parallel import DistributedDataParallel as DDP


def setup(rank, world_size):
    os.environ['MASTER_ADDR'] = 'localhost'
    os.environ['MASTER_PORT'] = '12355'

    # initialize the process group
    dist.init_process_group("gloo", rank=rank, world_size=world_size)


class ToyModel(nn.Module):
    def __init__(self):
        super(ToyModel, self).__init__()
        self.net1 = nn.Linear(10, 10)
        self.relu = nn.ReLU()
        self.net2 = nn.Linear(10, 5)

    def forward(self, x):
        return self.net2(self.relu(self.net1(x)))


def cleanup():
    dist.destroy_process_group()


def demo_basic(rank, world_size):
    print(f"Running basic DDP example on rank {rank}.")
    setup(rank, world_size)

    model = ToyModel().to(rank)
    ddp_model = DDP(model, device_ids=[rank])

    loss_fn = nn.MSELoss()
    optimizer = optim.SGD(ddp_model.parameters(), lr=0.001)

    optimizer.zero_grad()
    outputs = ddp_model(torch.randn(20, 10))
    labels = torch.randn(20, 5).to(rank)
    loss_fn(outputs, labels).backward()
    optimizer.step()
    # the gradients were averaged: every rank holds the same weights
    w = model.net1.weight.detach()
    assert w.is_cuda and w.get_device() == rank
    everyone = [torch.zeros_like(w) for _ in range(world_size)]
    dist.all_gather(everyone, w)
    assert all(torch.equal(e.cpu(), w.cpu()) for e in everyone)
    print(f"rank {rank}: weights agree on cuda:{w.get_device()}")

    cleanup()


def demo_checkpoint(rank, world_size):
    print(f"Running DDP checkpoint example on rank {rank}.")
    setup(rank, world_size)

    model = ToyModel().to(rank)
    ddp_model = DDP(model, device_ids=[rank])

    loss_fn = nn.MSELoss()
    optimizer = optim.SGD(ddp_model.parameters(), lr=0.001)

    CHECKPOINT_PATH = "model.checkpoint"
    if rank == 0:
        torch.save(ddp_model.state_dict(), CHECKPOINT_PATH)

    dist.barrier()

    map_location = {'cuda:%d' % 0: 'cuda:%d' % rank}
    ddp_model.load_state_dict(
        torch.load(CHECKPOINT_PATH, map_location=map_location))

    optimizer.zero_grad()
    outputs = ddp_model(torch.randn(20, 10))
    labels = torch.randn(20, 5).to(rank)
    loss_fn = nn.MSELoss()
    loss_fn(outputs, labels).backward()
    optimizer.step()
    print(f"rank {rank}: checkpoint loaded on cuda:{model.net1.weight.get_device()}")

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
    run_demo(demo_basic, min(n_gpus, 2))
    run_demo(demo_checkpoint, min(n_gpus, 2))
'''


def test_ddp_demos_on_cuda_devices(tmp_path):
    proc = run_program(tmp_path, DDP_DEMOS, name="test.py")
    out = proc.stdout
    assert out.startswith(f"got {NGPU} gpus.\n")
    for rank in range(min(NGPU, 2)):
        assert f"rank {rank}: weights agree on cuda:{rank}" in out
        assert f"rank {rank}: checkpoint loaded on cuda:{rank}" in out
    assert not (tmp_path / "model.checkpoint").exists()
