"""ft.DistributedSampler: each replica's share of a step's global batch, from the quorum.

Note [Shards follow the quorum]
The data order is a function of the committed step only, never of who is alive:
  - an epoch has S = N // B steps (N samples, global batch B; the N % B samples left over
    after the last full batch are not used, as with drop_last);
  - committed step t belongs to epoch e = t // S and is that epoch's batch j = t % S; the
    epoch's order is randperm(N) from a generator seeded with seed + e (shuffle) or 0..N-1;
    the step's global batch is order[j*B : (j+1)*B];
  - the replica at position p of a quorum of W takes the slice [p*B // W, (p+1)*B // W)
    of it (contiguous, sizes differing by at most one).
A failed step does not commit, so t does not move: the survivors redo the same global batch,
split among themselves.  Every sample of an epoch is therefore in exactly one committed step,
and within it in exactly one replica's share, whatever fails and whoever joins.  The
gradients are the participants' average of their share's losses (exactly the global batch's
mean when W divides B and each share's loss is a mean).
"""
import minitorch as _mt

__all__ = ["DistributedSampler"]


class DistributedSampler:
    """``DistributedSampler(dataset, manager, batch_size, shuffle=True, seed=0)`` (dataset: a
    sized object or the number of samples; batch_size: the global batch of a step).
    ``indices()`` is this replica's share of the current step's batch (call it after
    Optimizer.zero_grad / Manager.start_quorum); iterating starts each step's quorum and
    yields the share, step after step (a failed step again), until the epoch of the step the
    iteration started in is committed."""

    def __init__(self, dataset, manager, batch_size, shuffle=True, seed=0):
        n = dataset if isinstance(dataset, int) and not isinstance(dataset, bool) else len(dataset)
        if isinstance(batch_size, bool) or not isinstance(batch_size, int) or batch_size < 1:
            raise ValueError(f"DistributedSampler: batch_size must be a positive int, got "
                             f"{batch_size!r}")
        if n < batch_size:
            raise ValueError(f"DistributedSampler: {n} samples do not fill one global batch of "
                             f"{batch_size}")
        self.num_samples = n
        self.manager = manager
        self.batch_size = batch_size
        self.shuffle = shuffle
        self.seed = seed
        self._order = {}

    @property
    def steps_per_epoch(self):
        return self.num_samples // self.batch_size

    def __len__(self):
        return self.steps_per_epoch

    def epoch_of(self, step):
        return step // self.steps_per_epoch

    def _epoch_order(self, epoch):
        o = self._order.get(epoch)
        if o is None:
            if self.shuffle:
                g = _mt.Generator().manual_seed(self.seed + epoch)
                o = _mt.randperm(self.num_samples, generator=g).tolist()
            else:
                o = list(range(self.num_samples))
            self._order = {epoch: o}
        return o

    def global_batch(self, step=None):
        """The indices of step `step`'s global batch (default: the current step)."""
        t = self.manager.current_step() if step is None else step
        e, j = divmod(t, self.steps_per_epoch)
        b = self.batch_size
        return self._epoch_order(e)[j * b:(j + 1) * b]

    def shard(self, step=None, rank=None, world_size=None):
        """The share of the replica at position `rank` of `world_size` (default: this
        replica's in the current quorum) of step `step`'s batch (Note [Shards follow the
        quorum])."""
        if rank is None:
            rank = self.manager.participating_rank()
        if world_size is None:
            world_size = self.manager.num_participants()
        if rank is None or world_size < 1:
            raise RuntimeError("DistributedSampler: this replica is not in a quorum yet (call "
                               "Optimizer.zero_grad / Manager.start_quorum first)")
        batch = self.global_batch(step)
        b = len(batch)
        return batch[rank * b // world_size:(rank + 1) * b // world_size]

    indices = shard

    def __iter__(self):
        end = (self.epoch_of(self.manager.current_step()) + 1) * self.steps_per_epoch
        while self.manager.current_step() < end:
            self.manager.start_quorum()     # the share depends on the quorum of this step
            yield self.shard()
