"""Turning indices into batches, the same in the main process and in workers: the fetchers of
map-style and iterable datasets and per-sample seeding.  A worker's exception travels to the
main process in an ExceptionWrapper (minitorch._utils, as torch's), with its traceback and the
sample it was loading."""
import hashlib
import random

import numpy as np

import minitorch as _mt
from minitorch._utils import ExceptionWrapper  # noqa: F401  (used by the worker loop)


def seed_everything(seed):
    """Seeds minitorch's default generator, `random` and NumPy's global generator from one
    integer (NumPy gets 32 bits of it)."""
    _mt.manual_seed(seed)
    random.seed(seed)
    np.random.seed(seed & 0xFFFFFFFF)


def sample_seed(base_seed, index):
    """The seed of one sample (Note [Per-sample seeds]): a hash of the epoch's base seed and the
    sample's index, so it does not depend on which worker loads it."""
    if isinstance(index, int):
        key = index & 0xFFFFFFFFFFFFFFFF
    else:                                   # str hashes differ between processes: hash the repr
        key = int.from_bytes(hashlib.blake2b(repr(index).encode(), digest_size=8).digest(), "little")
    h = (base_seed * 0x9E3779B97F4A7C15 + key * 0xBF58476D1CE4E5B9) & 0xFFFFFFFFFFFFFFFF
    h ^= h >> 31
    h = (h * 0x94D049BB133111EB) & 0xFFFFFFFFFFFFFFFF
    return (h ^ (h >> 29)) & 0x7FFFFFFFFFFFFFFF


class MapFetcher:
    """Batches of a map-style dataset: `fetch(indices)` loads every index (or the one index,
    without auto-collation) and collates.  `current` is the index being loaded (for errors)."""

    def __init__(self, dataset, auto_collation, collate_fn, drop_last, base_seed=None,
                 seed_fn=None):
        self.dataset = dataset
        self.seed_fn = seed_everything if seed_fn is None else seed_fn
        self.auto_collation = auto_collation
        self.collate_fn = collate_fn
        self.base_seed = base_seed                 # set: seed every sample (per_sample_seed)
        self.current = None
        getitems = getattr(dataset, "__getitems__", None)
        self.getitems = getitems if base_seed is None else None

    def _load(self, i):
        self.current = i
        if self.base_seed is not None:
            self.seed_fn(sample_seed(self.base_seed, i))
        return self.dataset[i]

    def fetch(self, index):
        if not self.auto_collation:
            return self.collate_fn(self._load(index))
        if self.getitems:
            self.current = index
            data = self.getitems(index)
        else:
            data = [self._load(i) for i in index]
        return self.collate_fn(data)


class IterableFetcher:
    """Batches of an iterable dataset: the next `batch_size` items of its iterator (one item
    without auto-collation); StopIteration once it is exhausted (or, with drop_last, when only
    a short batch is left).  Without `batch_size` a batch is as long as the index list it is
    fetched for (torch's _IterableDatasetFetcher)."""

    def __init__(self, dataset, auto_collation, collate_fn, drop_last, batch_size=None):
        self.dataset = dataset
        self.it = iter(dataset)
        self.items = 0                          # items taken from the iterator
        self.auto_collation = auto_collation
        self.collate_fn = collate_fn
        self.drop_last = drop_last
        self.batch_size = batch_size
        self.ended = False
        self.current = None

    def fetch(self, index):
        if self.ended:
            raise StopIteration
        if not self.auto_collation:
            self.current = "the next item"
            item = next(self.it)
            self.items += 1
            return self.collate_fn(item)
        data = []
        batch_size = len(index) if self.batch_size is None else self.batch_size
        for _ in range(batch_size):
            self.current = "the next item"
            try:
                data.append(next(self.it))
                self.items += 1
            except StopIteration:
                self.ended = True
                break
        if not data or (self.drop_last and len(data) < batch_size):
            raise StopIteration
        return self.collate_fn(data)
