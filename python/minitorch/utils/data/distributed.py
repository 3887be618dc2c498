"""``DistributedSampler`` (as ``torch.utils.data.distributed``) and ``weighted_mean``.

Note [Padding in DistributedSampler]
With the default ``pad=True`` every rank gets ``ceil(N / W)`` indices (W replicas, N samples):
the (shuffled) index list is extended to ``W * ceil(N / W)`` entries by repeating it from its
start, then rank r takes entries ``r, r + W, r + 2W, ...``. Every rank runs the same number of
steps, but up to ``W - 1`` samples are seen twice per epoch: 90 samples on 2 ranks give 45 each;
10 samples on 3 ranks give 4 each, with samples 0 and 1 twice. ``drop_last=True`` instead cuts the
list to ``W * floor(N / W)`` entries.

``pad=False`` (minitorch's addition, torch has no such option) skips the repetition: rank r gets
the entries ``r, r + W, ...`` of the unpadded list, so the shards are disjoint, cover every
sample exactly once, and their lengths differ by at most one (lower ranks get the extra ones).
That is what exact evaluation needs; combine per-rank results with ``weighted_mean``, which
weights each rank by the number of samples it really saw. Ranks then run different numbers of
steps, so a loop that calls collectives once per batch must not use ``pad=False``.

Note [Resharding a resumed epoch]
The epoch's order is a random-access permutation keyed by ``seed + epoch`` (Note [Random-access
permutations]); entry p of the (padded) list is ``order[p % N]``.  A pass that starts at list
position g (0 for a fresh epoch) gives rank r the entries ``g + r, g + r + W, ...``: the
remaining R = N - g samples are divided as a whole epoch of R samples would be (``ceil(R / W)``
per rank with padding from the start of the list, ``floor(R / W)`` with ``drop_last``,
``len(range(r, R, W))`` with ``pad=False``).  The state of a pass is (epoch, seed, W, g, the
number k of indices this rank has yielded); the ranks, moving in step, have consumed the list up
to ``g + k * W``, and a sampler loading that state resumes there whatever its own number of
replicas: the rest of the epoch is re-divided among the new ranks, none dropped or repeated
(beyond the padding of the division).  With the same W the resumed pass yields exactly what the
uninterrupted one would have.
"""
import math

import numpy as np

import minitorch as _mt

from . import _perm
from .sampler import Sampler, _ChunkedIter, _yielded

__all__ = ["DistributedSampler", "weighted_mean"]


def _dist():
    import minitorch.distributed as dist
    return dist


class DistributedSampler(Sampler):
    """Restricts a loader to this rank's share of `dataset`; see Note [Padding in
    DistributedSampler].

    `num_replicas` and `rank` default to the default process group's size and this process's rank.
    With ``shuffle=True`` every epoch's order is ``minitorch.randperm`` of a generator seeded with
    ``seed + epoch``: the same on every rank, different per epoch once ``set_epoch`` is called
    before each epoch. `pad` (keyword, default True) is minitorch's: ``pad=False`` gives uneven,
    duplicate-free shards; it changes nothing when ``drop_last=True``."""

    def __init__(self, dataset, num_replicas=None, rank=None, shuffle=True, seed=0, drop_last=False,
                 *, pad=True):
        if num_replicas is None:
            num_replicas = _dist().get_world_size()
        if rank is None:
            rank = _dist().get_rank()
        if rank >= num_replicas or rank < 0:
            raise ValueError(f"Invalid rank {rank}, rank should be in the interval [0, {num_replicas - 1}]")
        self.dataset = dataset
        self.num_replicas = num_replicas
        self.rank = rank
        self.epoch = 0
        self.drop_last = drop_last
        self.pad = pad
        n = len(dataset)
        if drop_last and n % num_replicas != 0:
            self.num_samples = math.ceil((n - num_replicas) / num_replicas)
        elif pad or drop_last:
            self.num_samples = math.ceil(n / num_replicas)
        else:
            self.num_samples = len(range(rank, n, num_replicas))
        # the length of the index list the ranks' shards are cut from
        self.total_size = self.num_samples * num_replicas if pad or drop_last else n
        self.shuffle = shuffle
        self.seed = seed
        self._resume_state = None       # set by load_state_dict, used by the next pass
        self._last_iter = None

    def __iter__(self):
        it = _DistributedIter(self, self._resume_state)
        self._resume_state = None
        self._last_iter = it
        return it

    def state_dict(self):
        """The state of the latest pass (the start of a new one when none began): see Note
        [Resharding a resumed epoch]."""
        it = self._last_iter
        if it is None or self._resume_state is not None:
            return dict(self._resume_state or {"epoch": self.epoch, "seed": self.seed,
                                               "num_replicas": self.num_replicas, "start": 0,
                                               "yielded": 0})
        return it.state_dict()

    def load_state_dict(self, state_dict):
        """The next pass resumes where the saved one was, re-divided among this sampler's
        num_replicas (Note [Resharding a resumed epoch])."""
        _check_state(state_dict)
        self.epoch = state_dict["epoch"]
        self.seed = state_dict["seed"]
        self._resume_state = dict(state_dict)

    def __len__(self):
        return self.num_samples

    def set_epoch(self, epoch):
        """Sets the epoch that, added to `seed`, seeds the next pass's shuffle.  A pending
        resume (load_state_dict) of another epoch is dropped."""
        if self._resume_state is not None and self._resume_state["epoch"] != epoch:
            self._resume_state = None
        self.epoch = epoch


class _DistributedIter(_ChunkedIter):
    """A pass of a DistributedSampler from list position `start` (Note [Resharding a resumed
    epoch])."""

    def __init__(self, sampler, resume=None):
        super().__init__(0)
        self._n = len(sampler.dataset)
        self._world = sampler.num_replicas
        self._rank = sampler.rank
        self._shuffle = sampler.shuffle
        self._drop_last = sampler.drop_last
        self._pad = sampler.pad
        self._setup(resume or {"epoch": sampler.epoch, "seed": sampler.seed,
                               "num_replicas": self._world, "start": 0, "yielded": 0})

    def _setup(self, state):
        self._epoch, self._seed = state["epoch"], state["seed"]
        start, skip = state["start"], _yielded(state)
        if state["num_replicas"] != self._world:
            # a new division of the rest of the epoch (with the same one, the pass goes on,
            # and its length and state stay those of the division it began)
            start, skip = start + skip * state["num_replicas"], 0
        self._start = start
        self.count = _share_of(self._n, start, self._world, self._rank, self._drop_last,
                               self._pad)
        self._perm = (_perm.Permutation(self._n, _perm.mix64(self._seed + self._epoch))
                      if self._shuffle else None)
        self._seek(min(skip, self.count))

    def _values(self, start, stop):
        pos = self._start + self._rank + self._world * np.arange(start, stop, dtype=np.int64)
        if self._n:
            pos %= self._n                     # padding repeats the list from its start
        if self._perm is None:
            return pos
        return self._perm.at(pos)

    def state_dict(self):
        return {"epoch": self._epoch, "seed": self._seed, "num_replicas": self._world,
                "start": self._start, "yielded": self.yielded}

    def load_state_dict(self, state_dict):
        _check_state(state_dict)
        self._setup(state_dict)


def _share_of(n, start, world, rank, drop_last, pad):
    """How many entries of the list from position `start` rank `rank` gets when they are
    divided among `world` ranks (Note [Resharding a resumed epoch])."""
    rest = max(0, n - start)
    if drop_last:
        return rest // world
    if pad:
        return -(-rest // world)
    return len(range(rank, rest, world))


def _check_state(state_dict):
    _yielded(state_dict)
    for key in ("epoch", "seed", "num_replicas", "start"):
        if key not in state_dict:
            raise ValueError(f"DistributedSampler state has no {key!r}")


def weighted_mean(value, count, group=None):
    """The mean over all ranks of `group` of a metric each rank measured as the mean `value` of
    its own `count` samples: ``sum(value_r * count_r) / sum(count_r)``, as a Python float.

    One ``all_reduce`` (SUM, float64) of ``[value * count, count]``; every rank of the group must
    call it. With shards from ``DistributedSampler(..., pad=False)`` and true per-rank counts,
    the result is exactly the mean over the whole dataset. NaN when no rank saw any sample."""
    count = float(count)
    if count < 0:
        raise ValueError(f"weighted_mean(): count must be non-negative, got {count}")
    # a rank without samples adds nothing, even if its `value` is NaN (a mean of nothing)
    buf = _mt.tensor([float(value) * count if count else 0.0, count], dtype=_mt.float64)
    _dist().all_reduce(buf, group=group)
    total, n = buf.tolist()
    return total / n if n > 0 else math.nan
