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
"""
import math

import minitorch as _mt

from .sampler import Sampler

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

    def __iter__(self):
        n = len(self.dataset)
        if self.shuffle:
            g = _mt.Generator().manual_seed(self.seed + self.epoch)
            indices = _mt.randperm(n, generator=g).tolist()
        else:
            indices = list(range(n))
        if self.drop_last:
            indices = indices[:self.total_size]
        elif self.pad and indices:
            # repeat from the start until the list is total_size long
            repeats = math.ceil(self.total_size / n)
            indices = (indices * repeats)[:self.total_size]
        if len(indices) != self.total_size:
            raise AssertionError(f"Number of indices ({len(indices)}) does not match total_size "
                                 f"({self.total_size})")
        mine = indices[self.rank:self.total_size:self.num_replicas]
        if len(mine) != self.num_samples:
            raise AssertionError(f"Number of subsampled indices ({len(mine)}) does not match "
                                 f"num_samples ({self.num_samples})")
        return iter(mine)

    def __len__(self):
        return self.num_samples

    def set_epoch(self, epoch):
        """Sets the epoch that, added to `seed`, seeds the next pass's shuffle."""
        self.epoch = epoch


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
