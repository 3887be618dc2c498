"""minitorch.distributed.elastic: the parts of torch.distributed.elastic that training
scripts use (``multiprocessing.errors.record``); the agent itself is
``python -m minitorch.distributed.run``."""
