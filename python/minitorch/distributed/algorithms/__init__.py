"""minitorch.distributed.algorithms: DistributedDataParallel communication hooks
(``ddp_comm_hooks``)."""
