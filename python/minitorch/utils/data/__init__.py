"""``minitorch.utils.data``: datasets, samplers and batch collation, as ``torch.utils.data``.

Files: dataset.py (Dataset and its combinators, random_split), sampler.py (index samplers,
resumable), distributed.py (DistributedSampler, weighted_mean), _perm.py (random-access
permutations of the samplers), _collate.py (default_collate, default_convert), _utils/ (torch's
private module layout: _utils.worker.get_worker_info, _utils.collate ...), dataloader.py
(DataLoader and its worker pool of processes or threads), _resume.py (the loader's state for
state_dict / load_state_dict), _worker.py (the worker loops), _fetch.py (loading batches),
_slabs.py (batches in shared memory), _zygote.py (spawn/forkserver workers forked from one
process), _shared_spec.py (the one pickle of the dataset it loads), shared.py (SharedList)."""
from ._collate import default_collate, default_convert
from .dataloader import DataLoader, StatefulDataLoader
from .shared import SharedList
from .prefetch import prefetch_to
from ._utils.worker import get_worker_info
from . import _utils  # noqa: F401  (torch.utils.data._utils)
from .dataset import (ChainDataset, ConcatDataset, Dataset, IterableDataset, StackDataset, Subset,
                      TensorDataset, random_split)
from .distributed import DistributedSampler
from .sampler import (BatchSampler, RandomSampler, Sampler, SequentialSampler, SubsetRandomSampler,
                      WeightedRandomSampler)

__all__ = [
    "prefetch_to",
    "BatchSampler",
    "DataLoader",
    "ChainDataset",
    "ConcatDataset",
    "Dataset",
    "DistributedSampler",
    "IterableDataset",
    "RandomSampler",
    "Sampler",
    "SequentialSampler",
    "SharedList",
    "StackDataset",
    "StatefulDataLoader",
    "Subset",
    "SubsetRandomSampler",
    "TensorDataset",
    "WeightedRandomSampler",
    "default_collate",
    "default_convert",
    "get_worker_info",
    "random_split",
]
