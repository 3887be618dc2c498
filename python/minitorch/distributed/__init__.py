"""minitorch.distributed: torch.distributed; CPU tensors over minitorch's "gloo" backend.

``import minitorch.distributed as dist``; ``dist.init_process_group("gloo", ...)``
then the collectives of torch (see distributed_c10d.py).
"""
from ._store import FileStore, HashStore, PrefixStore, QueueEmptyError, Store, TCPStore
from .distributed_c10d import *  # noqa: F401,F403
from .distributed_c10d import ProcessGroup, _Work, _get_default_group, _get_default_store, _broadcast_coalesced, _make_nccl_premul_sum, __all__ as _c10d_all  # noqa: F401
from .rendezvous import rendezvous, register_rendezvous_handler
from ._grad_bucket import BuiltinCommHookType, GradBucket
from minitorch._C._c10d import _test_python_store  # noqa: F401

__all__ = list(_c10d_all) + ["Store", "TCPStore", "FileStore", "HashStore", "PrefixStore", "QueueEmptyError",
                             "ProcessGroup", "rendezvous", "register_rendezvous_handler",
                             "GradBucket", "BuiltinCommHookType"]
