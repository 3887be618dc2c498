"""minitorch.distributed.elastic.multiprocessing: ``errors.record`` for workers."""
