"""``python -m minitorch.distributed.launch``: torch's legacy launcher.

Starts ``--nproc_per_node`` workers of a script on this node, as
``minitorch.distributed.run`` does (same environment: RANK, LOCAL_RANK,
WORLD_SIZE, LOCAL_WORLD_SIZE, MASTER_ADDR, MASTER_PORT, OMP_NUM_THREADS=1 ...),
and passes each worker ``--local_rank=N`` before the script's own arguments
unless ``--use_env`` (``--use-env``) is given::

    python -m minitorch.distributed.launch --nproc_per_node=2 train.py --lr 0.1
    # in train.py:  parser.add_argument("--local_rank", type=int)

A failing worker stops the others and the launcher exits with status 1,
printing the failing rank's error.
"""
import warnings

from .run import LaunchConfig, _add_common_args, _agent_or_exit, _cli
from .run import parse_nnodes, parse_nproc_per_node, worker_command

__all__ = ["main", "parse_args", "get_args_parser", "launch"]

_DEPRECATION = (
    "The module minitorch.distributed.launch is deprecated (as torch.distributed.launch)\n"
    "and will be removed in future. Use minitorch.distributed.run (torchrun).\n"
    "Note that --use-env is set by default in torchrun.\n"
    "If your script expects `--local_rank` argument to be set, please\n"
    "change it to read from `os.environ['LOCAL_RANK']` instead."
)


def get_args_parser():
    import argparse

    parser = argparse.ArgumentParser(
        prog="python -m minitorch.distributed.launch",
        description="Starts workers of a minitorch.distributed job on this node "
                    "(legacy launcher: passes --local_rank=N to each worker).")
    parser.add_argument("--use_env", "--use-env", action="store_true",
                        help="do not pass --local_rank; the workers read LOCAL_RANK instead")
    _add_common_args(parser)
    return parser


def parse_args(args):
    return get_args_parser().parse_args(args)


def config_from_args(args):
    nnodes = parse_nnodes(args.nnodes)
    nproc = parse_nproc_per_node(args.nproc_per_node)
    if args.node_rank is None:
        args.node_rank = 0
    if not 0 <= args.node_rank < nnodes:
        raise ValueError(f"--node_rank={args.node_rank} is out of range for --nnodes={nnodes} "
                         f"(expected 0 .. {nnodes - 1})")
    if not 0 < args.master_port < 65536:
        raise ValueError(f"--master_port={args.master_port} is not a valid port")
    if args.max_restarts < 0:
        raise ValueError(f"--max_restarts must be non-negative, got {args.max_restarts}")
    if args.no_python and not args.use_env:
        raise ValueError("When using the '--no_python' flag, you must also set the '--use_env' flag.")
    cmd, script_args = worker_command(args.no_python, args.module, args.training_script,
                                      args.training_script_args)
    return LaunchConfig(nnodes, nproc, args.node_rank, args.master_addr, args.master_port,
                        cmd, script_args, max_restarts=args.max_restarts,
                        local_rank_arg="--local_rank", use_env=args.use_env,
                        monitor_interval=args.monitor_interval, name=args.training_script)


def launch(args):
    """Runs the job described by the parsed arguments; exits 1 when a worker fails."""
    _agent_or_exit(config_from_args(args))


def main(args=None):
    warnings.warn(_DEPRECATION, FutureWarning, stacklevel=2)
    _cli(get_args_parser(), args, config_from_args, launch)


if __name__ == "__main__":
    main()
