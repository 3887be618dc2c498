"""minitorch.distributed.ft: training that survives dead and joining replicas without a
restart (in the spirit of torchft): a Manager keeps the quorum in the job's store
(Note [Quorum in the store]), a DistributedDataParallel averages gradients over it, an
Optimizer commits only the steps whose all-reduce succeeded (Note [Fault-tolerant steps]),
and a DistributedSampler shares each step's batch among the live replicas
(Note [Shards follow the quorum]).  Limits: one process per replica, the CPU backend, and the
store's host must survive."""
from .manager import Manager, WorldSizeMode
from .ddp import DistributedDataParallel
from .optim import Optimizer, OptimizerWrapper
from .data import DistributedSampler

__all__ = ["Manager", "WorldSizeMode", "DistributedDataParallel", "Optimizer",
           "OptimizerWrapper", "DistributedSampler"]
