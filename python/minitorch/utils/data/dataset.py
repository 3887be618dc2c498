"""Datasets, as ``torch.utils.data.dataset``: the map-style ``Dataset`` and stream-style
``IterableDataset`` bases, their combinators (``ConcatDataset``, ``ChainDataset``, ``Subset``,
``StackDataset``), ``TensorDataset`` and ``random_split``.

A map-style dataset answers ``ds[key]`` (and usually ``len(ds)``); it may also answer
``ds.__getitems__(list_of_keys)`` with a list of samples, which a loader prefers when present.
An iterable dataset answers ``iter(ds)``.
"""
import bisect
import collections.abc
import itertools
import math
import warnings
from typing import Generic, TypeVar

import minitorch as _mt

__all__ = ["Dataset", "IterableDataset", "TensorDataset", "StackDataset", "ConcatDataset",
           "ChainDataset", "Subset", "random_split"]

_T_co = TypeVar("_T_co", covariant=True)


class Dataset(Generic[_T_co]):
    """Base of map-style datasets: subclasses implement ``__getitem__`` and usually ``__len__``.

    There is deliberately no default ``__len__`` (``len()`` of a dataset without one is a
    TypeError, as for any object). ``a + b`` concatenates into a ConcatDataset."""

    def __getitem__(self, index):
        raise NotImplementedError("Subclasses of Dataset should implement __getitem__.")

    def __add__(self, other):
        return ConcatDataset([self, other])


class IterableDataset(Dataset[_T_co], collections.abc.Iterable):
    """Base of stream-style datasets: subclasses implement ``__iter__`` (abstract, so the base
    cannot be instantiated). ``a + b`` chains into a ChainDataset. In a DataLoader worker each
    process iterates its own copy; use ``get_worker_info()`` to shard the stream."""

    def __add__(self, other):
        return ChainDataset([self, other])


class TensorDataset(Dataset):
    """Sample ``i`` is ``tuple(t[i] for t in tensors)``; all tensors share their first size."""

    def __init__(self, *tensors):
        if any(tensors[0].size(0) != t.size(0) for t in tensors):
            raise AssertionError("Size mismatch between tensors")
        self.tensors = tensors

    def __getitem__(self, index):
        return tuple(t[index] for t in self.tensors)

    def __len__(self):
        return self.tensors[0].size(0)


class StackDataset(Dataset):
    """Zips equally long datasets: ``StackDataset(a, b)[i] == (a[i], b[i])`` and
    ``StackDataset(x=a, y=b)[i] == {"x": a[i], "y": b[i]}``."""

    def __init__(self, *args, **kwargs):
        if args and kwargs:
            raise ValueError("Supported either ``tuple``- (via ``args``) or"
                             "``dict``- (via ``kwargs``) like input/output, but both types are given.")
        if not args and not kwargs:
            raise ValueError("At least one dataset should be passed")
        parts = list(args) if args else list(kwargs.values())
        self._length = len(parts[0])
        if any(len(d) != self._length for d in parts):
            raise ValueError("Size mismatch between datasets")
        self.datasets = args if args else kwargs

    def __getitem__(self, index):
        if isinstance(self.datasets, dict):
            return {k: d[index] for k, d in self.datasets.items()}
        return tuple(d[index] for d in self.datasets)

    def __getitems__(self, indices):
        parts = self.datasets.values() if isinstance(self.datasets, dict) else self.datasets
        columns = []
        for d in parts:
            if callable(getattr(d, "__getitems__", None)):
                col = d.__getitems__(indices)
                if len(col) != len(indices):
                    raise ValueError("Nested dataset's output size mismatch."
                                     f" Expected {len(indices)}, got {len(col)}")
            else:
                col = [d[i] for i in indices]
            columns.append(col)
        rows = zip(*columns)
        if isinstance(self.datasets, dict):
            keys = list(self.datasets)
            return [dict(zip(keys, row)) for row in rows]
        return [tuple(row) for row in rows]

    def __len__(self):
        return self._length


class ConcatDataset(Dataset):
    """The datasets one after another; ``cumulative_sizes[k]`` is the total length of the first
    ``k + 1`` of them. Negative indices count from the end."""

    @staticmethod
    def cumsum(sequence):
        """Running totals of the lengths of `sequence`'s items."""
        return list(itertools.accumulate(len(d) for d in sequence))

    def __init__(self, datasets):
        super().__init__()
        self.datasets = list(datasets)
        if not self.datasets:
            raise AssertionError("datasets should not be an empty iterable")
        if any(isinstance(d, IterableDataset) for d in self.datasets):
            raise AssertionError("ConcatDataset does not support IterableDataset")
        self.cumulative_sizes = self.cumsum(self.datasets)

    def __len__(self):
        return self.cumulative_sizes[-1]

    def __getitem__(self, idx):
        if idx < 0:
            if -idx > len(self):
                raise ValueError("absolute value of index should not exceed dataset length")
            idx += len(self)
        which = bisect.bisect_right(self.cumulative_sizes, idx)
        start = self.cumulative_sizes[which - 1] if which > 0 else 0
        return self.datasets[which][idx - start]

    @property
    def cummulative_sizes(self):
        """Old misspelt name of ``cumulative_sizes`` (FutureWarning)."""
        warnings.warn("`cummulative_sizes` attribute is renamed to `cumulative_sizes`", FutureWarning,
                      stacklevel=2)
        return self.cumulative_sizes


def _only_iterable(d):
    if not isinstance(d, IterableDataset):
        raise AssertionError("ChainDataset only supports IterableDataset")
    return d


class ChainDataset(IterableDataset):
    """The streams of several IterableDatasets one after another, chained lazily."""

    def __init__(self, datasets):
        super().__init__()
        self.datasets = datasets

    def __iter__(self):
        for d in self.datasets:
            yield from _only_iterable(d)

    def __len__(self):
        return sum(len(_only_iterable(d)) for d in self.datasets)


class Subset(Dataset):
    """``dataset`` seen through ``indices``: ``Subset(ds, idx)[i] == ds[idx[i]]``.

    A subclass that overrides ``__getitem__`` must override ``__getitems__`` too (loaders call
    the latter), else construction raises NotImplementedError."""

    def __init__(self, dataset, indices):
        self.dataset = dataset
        self.indices = indices
        cls = type(self)
        if cls.__getitem__ is not Subset.__getitem__ and cls.__getitems__ is Subset.__getitems__:
            raise NotImplementedError(
                f"{cls.__name__} overrides __getitem__ but not __getitems__. "
                "When subclassing Subset and overriding __getitem__, you must also override "
                "__getitems__ to ensure DataLoader works correctly with your custom logic. "
                "A simple implementation:\n\n"
                "def __getitems__(self, indices):\n"
                "    return [self.__getitem__(idx) for idx in indices]")

    def __getitem__(self, idx):
        if isinstance(idx, list):
            return self.dataset[[self.indices[i] for i in idx]]
        return self.dataset[self.indices[idx]]

    def __getitems__(self, indices):
        keys = [self.indices[i] for i in indices]
        if callable(getattr(self.dataset, "__getitems__", None)):
            return self.dataset.__getitems__(keys)
        return [self.dataset[k] for k in keys]

    def __len__(self):
        return len(self.indices)


def _lengths_from_fractions(n, fractions):
    """floor(n * f) for each fraction, then the remainder handed out one by one from the first
    split on (round robin); warns about splits that end up empty."""
    lengths = []
    for i, f in enumerate(fractions):
        if f < 0 or f > 1:
            raise ValueError(f"Fraction at index {i} is not between 0 and 1")
        lengths.append(math.floor(n * f))
    for i in range(n - sum(lengths)):
        lengths[i % len(lengths)] += 1
    for i, length in enumerate(lengths):
        if length == 0:
            warnings.warn(f"Length of split at index {i} is 0. This might result in an empty dataset.",
                          stacklevel=3)
    return lengths


def random_split(dataset, lengths, generator=_mt.default_generator):
    """Splits `dataset` into non-overlapping random Subsets of the given `lengths`.

    `lengths` are either counts summing to ``len(dataset)`` or fractions summing to 1 (each split
    gets ``floor(f * len(dataset))`` items, the remainder goes one each to the splits in order).
    The permutation is ``minitorch.randperm(len(dataset), generator=generator)``: a generator
    seeded the same way gives the same split every run (the numbers are not PyTorch's)."""
    if math.isclose(sum(lengths), 1) and sum(lengths) <= 1:
        lengths = _lengths_from_fractions(len(dataset), lengths)
    if sum(lengths) != len(dataset):
        raise ValueError("Sum of input lengths does not equal the length of the input dataset!")
    perm = _mt.randperm(sum(lengths), generator=generator).tolist()
    return [Subset(dataset, perm[end - length:end])
            for end, length in zip(itertools.accumulate(lengths), lengths)]
