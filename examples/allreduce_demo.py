"""A 2-process minitorch.distributed job on the CPU ("gloo", our TCP backend).

    python examples/allreduce_demo.py [--world-size N]

Spawns its ranks with minitorch.multiprocessing.spawn; they meet through env://
(MASTER_ADDR/MASTER_PORT on a free local port) and each prints what it sent and
received for broadcast, all_reduce and all_gather.  The same program runs under
the launcher with `python -m minitorch.distributed.run --nproc_per_node=2
examples/allreduce_demo.py --launched`."""
import argparse
import os
import socket

import minitorch as torch
import minitorch.distributed as dist
import minitorch.multiprocessing as mp


def report(rank, world_size, lines):
    # ranks take turns so that each one's lines stay together
    for turn in range(world_size):
        if turn == rank:
            print("\n".join(lines), flush=True)
        dist.barrier()


def demo(rank, world_size):
    dist.init_process_group("gloo")  # env://: MASTER_ADDR, MASTER_PORT, RANK, WORLD_SIZE
    lines = [f"[rank {rank}/{world_size}] backend={dist.get_backend()} pid={os.getpid()}"]

    # broadcast: rank 0's tensor overwrites everyone's
    t = torch.arange(4, dtype=torch.float32) * 10 if rank == 0 else torch.zeros(4)
    sent = t.tolist()
    dist.broadcast(t, src=0)
    lines.append(f"[rank {rank}] broadcast  sent {sent} -> received {t.tolist()}")

    # all_reduce: everyone ends with the elementwise sum (and max)
    t = torch.tensor([rank + 1, 10 * (rank + 1)], dtype=torch.int64)
    sent = t.tolist()
    dist.all_reduce(t, op=dist.ReduceOp.SUM)
    m = torch.tensor([float(rank)])
    dist.all_reduce(m, op=dist.ReduceOp.MAX)
    lines.append(f"[rank {rank}] all_reduce sent {sent} -> received SUM {t.tolist()}, "
                 f"MAX of ranks {m.item()}")

    # all_gather: everyone gets every rank's tensor
    mine = torch.full((2,), float(rank)) + torch.tensor([0.5, 0.25])
    out = [torch.empty(2) for _ in range(world_size)]
    dist.all_gather(out, mine)
    lines.append(f"[rank {rank}] all_gather sent {mine.tolist()} -> received "
                 f"{[o.tolist() for o in out]}")

    report(rank, world_size, lines)
    dist.destroy_process_group()


def spawned(rank, world_size, port):
    os.environ.update(MASTER_ADDR="127.0.0.1", MASTER_PORT=str(port), RANK=str(rank),
                      WORLD_SIZE=str(world_size))
    demo(rank, world_size)


def free_port():
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--world-size", type=int, default=2, help="number of ranks (default 2)")
    parser.add_argument("--launched", action="store_true",
                        help="started by minitorch.distributed.run/launch: read RANK etc. from the environment")
    args = parser.parse_args()
    if args.launched:
        demo(int(os.environ["RANK"]), int(os.environ["WORLD_SIZE"]))
        return
    if args.world_size < 1:
        parser.error("--world-size must be at least 1")
    mp.spawn(spawned, args=(args.world_size, free_port()), nprocs=args.world_size)


if __name__ == "__main__":
    main()
