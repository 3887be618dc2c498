"""Turning indices into batches, the same in the main process and in workers: the fetchers of
map-style and iterable datasets, per-sample seeding, and the wrapper that carries a worker's
exception (with its traceback and the sample it was loading) to the main process."""
import hashlib
import random
import sys
import traceback

import numpy as np

import minitorch as _mt


class ExceptionWrapper:
    """An exception raised while loading, pickled to the main process and raised there again
    as the same type, its message holding the original traceback."""

    def __init__(self, exc_info=None, where="in background"):
        exc_type, exc, tb = exc_info if exc_info is not None else sys.exc_info()
        self.exc_type = exc_type
        self.exc_msg = "".join(traceback.format_exception(exc_type, exc, tb))
        self.where = where

    def reraise(self):
        msg = f"Caught {self.exc_type.__name__} {self.where}.\nOriginal {self.exc_msg}"
        if self.exc_type is KeyError:
            msg = _KeyErrorMessage(msg)         # KeyError would print the message's repr
        try:
            exc = self.exc_type(msg)
        except Exception:                       # noqa: BLE001 - a type that takes no message
            raise RuntimeError(msg) from None
        raise exc


class _KeyErrorMessage(str):
    def __repr__(self):
        return self


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

    def __init__(self, dataset, auto_collation, collate_fn, drop_last, base_seed=None):
        self.dataset = dataset
        self.auto_collation = auto_collation
        self.collate_fn = collate_fn
        self.base_seed = base_seed                 # set: seed every sample (per_sample_seed)
        self.current = None
        getitems = getattr(dataset, "__getitems__", None)
        self.getitems = getitems if base_seed is None else None

    def _load(self, i):
        self.current = i
        if self.base_seed is not None:
            seed_everything(sample_seed(self.base_seed, i))
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
    a short batch is left)."""

    def __init__(self, dataset, auto_collation, collate_fn, drop_last, batch_size):
        self.it = iter(dataset)
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
            return self.collate_fn(next(self.it))
        data = []
        for _ in range(self.batch_size):
            self.current = "the next item"
            try:
                data.append(next(self.it))
            except StopIteration:
                self.ended = True
                break
        if not data or (self.drop_last and len(data) < self.batch_size):
            raise StopIteration
        return self.collate_fn(data)
