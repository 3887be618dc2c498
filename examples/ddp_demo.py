"""The notes' "Gloo backend + mp.spawn + checkpoint" DDP program (demo_basic and demo_checkpoint).

Only the import lines and the device lines differ from the notes: the notes run on GPUs
(`.to(rank)`, `device_ids=[rank]`); here each rank uses its GPU when there are two, else the
CPU (as torch, DDP takes device_ids only for GPU modules), so the program runs on any machine.

    python examples/ddp_demo.py
"""
import os
import tempfile

import minitorch as torch
import minitorch.distributed as dist
import minitorch.nn as nn
import minitorch.optim as optim
import minitorch.multiprocessing as mp

from minitorch.nn.parallel import DistributedDataParallel as DDP

GPUS = torch.cuda.device_count() >= 2


def device_of(rank):
    return rank if GPUS else "cpu"


def setup(rank, world_size):
    os.environ['MASTER_ADDR'] = 'localhost'
    os.environ['MASTER_PORT'] = os.environ.get('DEMO_PORT', '12355')
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

    model = ToyModel().to(device_of(rank))
    ddp_model = DDP(model, device_ids=[rank] if GPUS else None)

    loss_fn = nn.MSELoss()
    optimizer = optim.SGD(ddp_model.parameters(), lr=0.001)

    optimizer.zero_grad()
    outputs = ddp_model(torch.randn(20, 10))
    labels = torch.randn(20, 5).to(device_of(rank))
    loss_fn(outputs, labels).backward()
    optimizer.step()

    # every rank holds the same parameters after the step (the gradients were averaged)
    flat = torch.cat([p.detach().reshape(-1) for p in ddp_model.parameters()])
    gathered = [torch.empty_like(flat) for _ in range(world_size)]
    dist.all_gather(gathered, flat)
    assert all(torch.equal(g, gathered[0]) for g in gathered), "ranks disagree"
    zeros = torch.zeros(2, 5).to(device_of(rank))
    print(f"rank {rank}: loss {loss_fn(ddp_model(torch.ones(2, 10)), zeros).item():.6f}"
          " (the same on every rank)")
    cleanup()


def demo_checkpoint(rank, world_size):
    print(f"Running DDP checkpoint example on rank {rank}.")
    setup(rank, world_size)

    model = ToyModel().to(device_of(rank))
    ddp_model = DDP(model, device_ids=[rank] if GPUS else None)

    loss_fn = nn.MSELoss()
    optimizer = optim.SGD(ddp_model.parameters(), lr=0.001)

    CHECKPOINT_PATH = os.path.join(os.environ.get("DEMO_DIR", tempfile.gettempdir()),
                                   "model.checkpoint")
    if rank == 0:
        torch.save(ddp_model.state_dict(), CHECKPOINT_PATH)

    dist.barrier()

    map_location = {'cuda:%d' % 0: 'cuda:%d' % rank}
    ddp_model.load_state_dict(
        torch.load(CHECKPOINT_PATH, map_location=map_location))

    optimizer.zero_grad()
    outputs = ddp_model(torch.randn(20, 10))
    labels = torch.randn(20, 5).to(device_of(rank))
    loss_fn = nn.MSELoss()
    loss_fn(outputs, labels).backward()
    optimizer.step()

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
