"""Samplers, as ``torch.utils.data.sampler``: iterables of dataset keys (or of lists of keys,
for ``BatchSampler``) that decide the order in which a loader reads a map-style dataset.

Random samplers draw from minitorch generators: with ``generator=g`` the order is a function of
``g``'s state only; without one, ``RandomSampler`` draws its pass's seed from the global one at
the start of each pass and the others use the global generator directly, so
``minitorch.manual_seed`` makes every pass reproducible (the numbers are not PyTorch's).

Note [Resumable samplers]
The iterators of ``SequentialSampler``, ``RandomSampler`` and ``BatchSampler`` (and
``DistributedSampler``, distributed.py) have ``state_dict()`` / ``load_state_dict()``, the
protocol of torchdata's stateful samplers that ``DataLoader.state_dict()`` saves and restores:
a pass's state is its seed and the number of indices it has yielded, and loading it puts the
iterator at that position in O(1).  ``RandomSampler`` draws one 63-bit seed per pass and reads
its order from a random-access permutation of the seed (Note [Random-access permutations] in
_perm.py; with replacement, a counter-based hash), so index k of a pass is computed, not walked
to.  Iterators also hand out up to k indices at once (``_take``), which ``BatchSampler`` uses.
"""
import itertools
from typing import Generic, TypeVar

import minitorch as _mt

from . import _perm

__all__ = ["BatchSampler", "RandomSampler", "Sampler", "SequentialSampler", "SubsetRandomSampler",
           "WeightedRandomSampler"]

_T_co = TypeVar("_T_co", covariant=True)

_FIRST_CHUNK = 256      # a random pass computes its indices this many at first,
_MAX_CHUNK = 16384      # then twice as many each time, up to this


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
        return _RangeIter(len(self.data_source))

    def __len__(self):
        return len(self.data_source)


class _RangeIter:
    """0 .. n - 1, resumable (Note [Resumable samplers])."""

    __slots__ = ("n", "yielded")

    def __init__(self, n):
        self.n = n
        self.yielded = 0

    def __iter__(self):
        return self

    def __next__(self):
        k = self.yielded
        if k >= self.n:
            raise StopIteration
        self.yielded = k + 1
        return k

    def _take(self, count):
        k = self.yielded
        stop = min(self.n, k + count)
        self.yielded = max(k, stop)
        return list(range(k, stop))

    def state_dict(self):
        return {"yielded": self.yielded}

    def load_state_dict(self, state_dict):
        self.yielded = _yielded(state_dict)


def _yielded(state_dict):
    k = state_dict["yielded"]
    if not isinstance(k, int) or k < 0:
        raise ValueError(f"a sampler state needs a non-negative 'yielded', got {k!r}")
    return k


class _ChunkedIter:
    """Base of resumable iterators over positions 0 .. count - 1 of an order that computes
    any range of positions directly (`_values(start, stop)`, a NumPy array): it computes a
    growing chunk at a time and keeps `yielded`, its position."""

    def __init__(self, count):
        self.count = count
        self.yielded = 0
        self._buf = []
        self._pos = 0
        self._chunk = _FIRST_CHUNK

    def __iter__(self):
        return self

    def _refill(self):
        start = self.yielded
        stop = min(self.count, start + self._chunk)
        self._chunk = min(2 * self._chunk, _MAX_CHUNK)
        self._buf = self._values(start, stop).tolist()
        self._pos = 0

    def __next__(self):
        if self._pos >= len(self._buf):
            if self.yielded >= self.count:
                raise StopIteration
            self._refill()
        v = self._buf[self._pos]
        self._pos += 1
        self.yielded += 1
        return v

    def _take(self, count):
        out = []
        while len(out) < count:
            if self._pos >= len(self._buf):
                if self.yielded >= self.count:
                    break
                self._refill()
            got = self._buf[self._pos:self._pos + count - len(out)]
            self._pos += len(got)
            self.yielded += len(got)
            out += got
        return out

    def _seek(self, yielded):
        self.yielded = yielded
        self._buf = []
        self._pos = 0
        self._chunk = _FIRST_CHUNK


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

    def _pass_seed(self):
        """The seed of a new pass: one draw from `generator` or the global generator."""
        return int(_mt.empty((), dtype=_mt.int64).random_(generator=self.generator).item())

    def __iter__(self):
        return _RandomIter(self)

    def __len__(self):
        return self.num_samples


class _RandomIter(_ChunkedIter):
    """A pass of a RandomSampler (Note [Resumable samplers]): its seed is drawn at the first
    index (or state_dict()); without replacement, block j of n indices is the permutation
    keyed by (seed, j)."""

    def __init__(self, sampler):
        super().__init__(sampler.num_samples)
        self._sampler = sampler
        self._n = len(sampler.data_source)
        self._replacement = sampler.replacement
        self.seed = None
        self._perm = None

    def _values(self, start, stop):
        if self.seed is None:
            self.seed = self._sampler._pass_seed()
        n = self._n
        if self._replacement:
            return _perm.uniform(n, self.seed, start, stop)
        parts = []
        while start < stop:
            block = start // n
            if self._perm is None or self._perm[0] != block:
                self._perm = (block, _perm.Permutation(n, _perm.mix64(self.seed, block)))
            end = min(stop, (block + 1) * n)
            parts.append(self._perm[1].take(start - block * n, end - block * n))
            start = end
        return parts[0] if len(parts) == 1 else _perm.np.concatenate(parts)

    def state_dict(self):
        if self.seed is None:
            self.seed = self._sampler._pass_seed()
        return {"seed": self.seed, "yielded": self.yielded}

    def load_state_dict(self, state_dict):
        self.seed = int(state_dict["seed"])
        self._perm = None
        self._seek(_yielded(state_dict))


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
        return _BatchIter(self)

    def __len__(self):
        n = len(self.sampler)
        if self.drop_last:
            return n // self.batch_size
        return -(-n // self.batch_size)


class _BatchIter:
    """A pass of a BatchSampler, resumable (Note [Resumable samplers]): its state is the
    number of indices taken and the state of its sampler and of the sampler's iterator (those
    that have one); a sampler without state is fast-forwarded on load."""

    def __init__(self, batch_sampler):
        self.sampler = batch_sampler.sampler
        self.batch_size = batch_sampler.batch_size
        self.drop_last = batch_sampler.drop_last
        self.samples_yielded = 0
        self._set_iter(iter(self.sampler))

    def _set_iter(self, it):
        self.sampler_iter = it
        take = getattr(it, "_take", None)
        self._take = take if take is not None else \
            (lambda k, it=it: list(itertools.islice(it, k)))
        self._sampler_state = self.sampler.state_dict if _stateful(self.sampler) else None
        self._iter_state = it.state_dict if _stateful(it) else None

    def __iter__(self):
        return self

    def __next__(self):
        batch = self._take(self.batch_size)
        if not batch or (self.drop_last and len(batch) < self.batch_size):
            raise StopIteration
        self.samples_yielded += len(batch)
        return batch

    def state_dict(self):
        sd = {"samples_yielded": self.samples_yielded}
        if self._sampler_state is not None:
            sd["sampler_state"] = self._sampler_state()
        if self._iter_state is not None:
            sd["sampler_iter_state"] = self._iter_state()
        return sd

    def load_state_dict(self, state_dict):
        self.samples_yielded = state_dict["samples_yielded"]
        if "sampler_state" in state_dict and _stateful(self.sampler):
            self.sampler.load_state_dict(state_dict["sampler_state"])
        self._set_iter(iter(self.sampler))
        if "sampler_iter_state" in state_dict and _stateful(self.sampler_iter):
            self.sampler_iter.load_state_dict(state_dict["sampler_iter_state"])
        elif not _stateful(self.sampler):
            _skip(self.sampler_iter, self.samples_yielded)


def _stateful(obj):
    """Whether obj follows the state protocol (torchdata's Stateful: both methods)."""
    return callable(getattr(obj, "state_dict", None)) and \
        callable(getattr(obj, "load_state_dict", None))


def _skip(it, k):
    """Advances iterator `it` by k items (at C speed)."""
    if k > 0:
        next(itertools.islice(it, k - 1, k), None)
