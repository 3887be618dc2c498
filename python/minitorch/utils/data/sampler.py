"""Samplers, as ``torch.utils.data.sampler``: iterables of dataset keys (or of lists of keys,
for ``BatchSampler``) that decide the order in which a loader reads a map-style dataset.

Random samplers draw from minitorch generators: with ``generator=g`` the order is a function of
``g``'s state only; without one, ``RandomSampler`` seeds a fresh generator from the global one at
the start of each pass and the others use the global generator directly, so
``minitorch.manual_seed`` makes every pass reproducible (the numbers are not PyTorch's).
"""
import itertools
from typing import Generic, TypeVar

import minitorch as _mt

__all__ = ["BatchSampler", "RandomSampler", "Sampler", "SequentialSampler", "SubsetRandomSampler",
           "WeightedRandomSampler"]

_T_co = TypeVar("_T_co", covariant=True)

_CHUNK = 32  # RandomSampler(replacement=True) draws its indices this many at a time


def _is_positive_int(x, allow_bool):
    return isinstance(x, int) and (allow_bool or not isinstance(x, bool)) and x > 0


class Sampler(Generic[_T_co]):
    """Base of samplers: subclasses implement ``__iter__`` and, when they can, ``__len__``
    (there is deliberately no default ``__len__``)."""

    def __iter__(self):
        raise NotImplementedError


class SequentialSampler(Sampler):
    """``0, 1, ..., len(data_source) - 1`` in order, every pass."""

    def __init__(self, data_source):
        self.data_source = data_source

    def __iter__(self):
        return iter(range(len(self.data_source)))

    def __len__(self):
        return len(self.data_source)


class RandomSampler(Sampler):
    """Random indices into `data_source`: a fresh permutation per full pass without replacement
    (``num_samples`` may exceed the length: whole permutations then a cut one), or
    ``num_samples`` independent uniform draws with ``replacement=True``."""

    def __init__(self, data_source, replacement=False, num_samples=None, generator=None):
        self.data_source = data_source
        self.replacement = replacement
        self._num_samples = num_samples
        self.generator = generator
        if not isinstance(replacement, bool):
            raise TypeError(f"replacement should be a boolean value, but got replacement={replacement}")
        if not _is_positive_int(self.num_samples, allow_bool=True):
            raise ValueError("num_samples should be a positive integer value, but got "
                             f"num_samples={self.num_samples}")

    @property
    def num_samples(self):
        """How many indices one pass yields (default: the length of the data source)."""
        return len(self.data_source) if self._num_samples is None else self._num_samples

    def _pass_generator(self):
        if self.generator is not None:
            return self.generator
        seed = int(_mt.empty((), dtype=_mt.int64).random_().item())
        return _mt.Generator().manual_seed(seed)

    def __iter__(self):
        n = len(self.data_source)
        g = self._pass_generator()
        count = self.num_samples
        if self.replacement:
            # chunk by chunk, never a list of the chunks: num_samples may be huge (an endless
            # loader's RandomSampler(..., replacement=True, num_samples=int(1e10)))
            for _ in range(count // _CHUNK):
                yield from _mt.randint(high=n, size=(_CHUNK,), dtype=_mt.int64, generator=g).tolist()
            if count % _CHUNK:
                yield from _mt.randint(high=n, size=(count % _CHUNK,), dtype=_mt.int64,
                                       generator=g).tolist()
        else:
            for _ in range(count // n):
                yield from _mt.randperm(n, generator=g).tolist()
            yield from _mt.randperm(n, generator=g).tolist()[:count % n]

    def __len__(self):
        return self.num_samples


class SubsetRandomSampler(Sampler):
    """The given `indices` in a random order (a new one per pass), without replacement."""

    def __init__(self, indices, generator=None):
        self.indices = indices
        self.generator = generator

    def __iter__(self):
        for i in _mt.randperm(len(self.indices), generator=self.generator).tolist():
            yield self.indices[i]

    def __len__(self):
        return len(self.indices)


class WeightedRandomSampler(Sampler):
    """``num_samples`` indices into ``weights``, index ``i`` drawn with probability proportional
    to ``weights[i]`` (``minitorch.multinomial``), with or without replacement."""

    def __init__(self, weights, num_samples, replacement=True, generator=None):
        if not _is_positive_int(num_samples, allow_bool=False):
            raise ValueError("num_samples should be a positive integer value, but got "
                             f"num_samples={num_samples}")
        if not isinstance(replacement, bool):
            raise ValueError(f"replacement should be a boolean value, but got replacement={replacement}")
        w = _mt.as_tensor(weights, dtype=_mt.double)
        if w.dim() != 1:
            raise ValueError(f"weights should be a 1d sequence but given weights have shape {tuple(w.shape)}")
        self.weights = w
        self.num_samples = num_samples
        self.replacement = replacement
        self.generator = generator

    def __iter__(self):
        drawn = _mt.multinomial(self.weights, self.num_samples, self.replacement, generator=self.generator)
        yield from drawn.tolist()

    def __len__(self):
        return self.num_samples


class BatchSampler(Sampler):
    """Groups the indices of `sampler` (any iterable) into lists of `batch_size`; the last,
    shorter list is dropped when `drop_last` is True."""

    def __init__(self, sampler, batch_size, drop_last):
        if not _is_positive_int(batch_size, allow_bool=False):
            raise ValueError("batch_size should be a positive integer value, but got "
                             f"batch_size={batch_size}")
        if not isinstance(drop_last, bool):
            raise ValueError(f"drop_last should be a boolean value, but got drop_last={drop_last}")
        self.sampler = sampler
        self.batch_size = batch_size
        self.drop_last = drop_last

    def __iter__(self):
        it = iter(self.sampler)
        while True:
            batch = list(itertools.islice(it, self.batch_size))
            if not batch or (self.drop_last and len(batch) < self.batch_size):
                return
            yield batch

    def __len__(self):
        n = len(self.sampler)
        if self.drop_last:
            return n // self.batch_size
        return -(-n // self.batch_size)
