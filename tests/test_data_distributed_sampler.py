"""DistributedSampler of minitorch.utils.data: torch's padding and drop_last rules, shuffling
by seed + epoch, minitorch's pad=False shards, and weighted_mean across real processes.

The unshuffled shards and the error messages were checked against torch 2.15."""
import math

import pytest

import minitorch as torch
from minitorch.utils.data import BatchSampler, DistributedSampler, TensorDataset, default_collate
from minitorch.utils.data.distributed import weighted_mean
from test_distributed_support import run_ranks


def shards(n, world, **kw):
    return [list(DistributedSampler(range(n), num_replicas=world, rank=r, **kw)) for r in range(world)]


# (n, world, drop_last) -> every rank's indices, unshuffled, as torch 2.15 gives them
TORCH_SHARDS = {
    (10, 3, False): [[0, 3, 6, 9], [1, 4, 7, 0], [2, 5, 8, 1]],
    (10, 3, True): [[0, 3, 6], [1, 4, 7], [2, 5, 8]],
    (2, 4, False): [[0], [1], [0], [1]],
    (2, 5, True): [[], [], [], [], []],
    (1, 7, False): [[0]] * 7,
    (0, 2, False): [[], []],
    (0, 2, True): [[], []],
    (11, 4, True): [[0, 4], [1, 5], [2, 6], [3, 7]],
    (5, 5, True): [[0], [1], [2], [3], [4]],
    (3, 8, False): [[0], [1], [2], [0], [1], [2], [0], [1]],
}


@pytest.mark.parametrize("key", list(TORCH_SHARDS))
def test_unshuffled_shards_as_torch(key):
    n, world, drop_last = key
    assert shards(n, world, shuffle=False, drop_last=drop_last) == TORCH_SHARDS[key]
    s = DistributedSampler(range(n), num_replicas=world, rank=0, shuffle=False, drop_last=drop_last)
    assert len(s) == s.num_samples == len(TORCH_SHARDS[key][0])
    assert s.total_size == s.num_samples * world


def test_notes_example_90_samples_2_ranks_batch_30():
    data = TensorDataset(torch.randn(90, 5))
    for rank in range(2):
        sampler = DistributedSampler(data, num_replicas=2, rank=rank)
        assert len(sampler) == 45
        batches = list(BatchSampler(sampler, 30, False))
        shapes = [list(default_collate([data[i] for i in b])[0].shape) for b in batches]
        assert shapes == [[30, 5], [15, 5]]
    evens, odds = shards(90, 2, shuffle=False)
    assert evens == list(range(0, 90, 2)) and odds == list(range(1, 90, 2))


def test_attributes_and_defaults():
    s = DistributedSampler(range(90), num_replicas=2, rank=1)
    assert (s.epoch, s.seed, s.shuffle, s.drop_last, s.pad) == (0, 0, True, False, True)
    assert (s.num_replicas, s.rank, s.num_samples, s.total_size) == (2, 1, 45, 90)


def test_shuffle_is_one_permutation_shared_by_the_ranks():
    parts = shards(10, 3, seed=4)
    # the epoch's permutation is what a single replica sees
    perm = list(DistributedSampler(range(10), num_replicas=1, rank=0, seed=4))
    assert sorted(perm) == list(range(10))
    padded = perm + perm[:2]
    assert parts == [padded[r::3] for r in range(3)]
    assert sorted(i for p in parts for i in p) == sorted(list(range(10)) + perm[:2])


def test_set_epoch_changes_the_order_deterministically():
    s = DistributedSampler(range(40), num_replicas=2, rank=0, seed=7)
    e0 = list(s)
    assert list(s) == e0  # no set_epoch: the same order again
    s.set_epoch(1)
    e1 = list(s)
    assert e1 != e0 and s.epoch == 1
    other = DistributedSampler(range(40), num_replicas=2, rank=0, seed=7)
    other.set_epoch(1)
    assert list(other) == e1
    # the seed of a pass is seed + epoch
    shifted = DistributedSampler(range(40), num_replicas=2, rank=0, seed=8)
    assert list(shifted) == e1


@pytest.mark.parametrize("shuffle", [False, True])
@pytest.mark.parametrize("n,world", [(90, 2), (89, 2), (10, 3), (2, 5), (0, 3), (1, 1), (17, 4)])
def test_pad_false_covers_every_index_once(n, world, shuffle):
    parts = shards(n, world, shuffle=shuffle, pad=False)
    flat = [i for p in parts for i in p]
    assert sorted(flat) == list(range(n))
    assert [len(p) for p in parts] == [len(range(r, n, world)) for r in range(world)]
    for r in range(world):
        s = DistributedSampler(range(n), num_replicas=world, rank=r, shuffle=shuffle, pad=False)
        assert len(s) == s.num_samples == len(parts[r]) and s.total_size == n


def test_pad_false_unshuffled_is_strided():
    assert shards(10, 3, shuffle=False, pad=False) == [[0, 3, 6, 9], [1, 4, 7], [2, 5, 8]]


def test_pad_false_with_shuffle_uses_the_same_permutation():
    padded = shards(10, 3, seed=2)
    plain = shards(10, 3, seed=2, pad=False)
    assert [p[:len(q)] for p, q in zip(padded, plain)] == plain


def test_pad_changes_nothing_with_drop_last():
    for n, world in ((10, 3), (11, 4), (2, 5)):
        assert shards(n, world, drop_last=True, pad=False) == shards(n, world, drop_last=True)


def test_pad_is_keyword_only():
    with pytest.raises(TypeError):
        DistributedSampler(range(4), 2, 0, True, 0, False, False)


def test_rank_errors():
    for rank in (2, -1):
        msg = rf"^Invalid rank {rank}, rank should be in the interval \[0, 1\]$"
        with pytest.raises(ValueError, match=msg):
            DistributedSampler(range(10), num_replicas=2, rank=rank)
    with pytest.raises(ValueError, match=r"^Invalid rank 0, rank should be in the interval \[0, -1\]$"):
        DistributedSampler(range(10), num_replicas=0, rank=0)


def test_needs_a_process_group_when_rank_or_size_missing():
    msg = "^Default process group has not been initialized"
    for kw in ({}, {"num_replicas": 2}, {"rank": 0}):
        with pytest.raises(ValueError, match=msg):
            DistributedSampler(range(10), **kw)


def test_weighted_mean_needs_a_process_group():
    with pytest.raises(ValueError, match="^Default process group has not been initialized"):
        weighted_mean(1.0, 3)


def test_weighted_mean_rejects_negative_counts():
    with pytest.raises(ValueError, match="count must be non-negative"):
        weighted_mean(1.0, -1)


# ---- across real processes ----------------------------------------------------------------
def _job_eval(rank, world_size, init_method):
    import minitorch as torch
    import minitorch.distributed as dist
    from minitorch.utils.data import DistributedSampler
    from minitorch.utils.data.distributed import weighted_mean

    dist.init_process_group("gloo", init_method=init_method, rank=rank, world_size=world_size)
    values = torch.arange(89, dtype=torch.float64) ** 2  # a per-sample metric

    def local_mean(sampler):
        idx = list(sampler)
        return sum(values[i].item() for i in idx) / len(idx), len(idx)

    default = DistributedSampler(range(89), shuffle=True, seed=3)  # rank and size from the group
    exact = DistributedSampler(range(89), shuffle=True, seed=3, pad=False)
    m_pad, n_pad = local_mean(default)
    m_exact, n_exact = local_mean(exact)
    empty_rank_value = math.nan if rank == 1 else 10.0
    return {
        "rank": (default.rank, default.num_replicas),
        "counts": (n_pad, n_exact),
        "padded": weighted_mean(m_pad, n_pad),
        "exact": weighted_mean(m_exact, n_exact),
        "tensor_value": weighted_mean(torch.tensor(m_exact, dtype=torch.float64), torch.tensor(n_exact)),
        "one_rank_empty": weighted_mean(empty_rank_value, 0 if rank == 1 else 4),
        "all_empty": weighted_mean(0.0, 0),
        "shard": list(exact),
    }


def test_weighted_mean_gives_the_exact_global_mean_with_pad_false():
    res = run_ranks(_job_eval, 2, timeout=60)
    true_mean = sum(float(i * i) for i in range(89)) / 89
    assert [r["rank"] for r in res] == [(0, 2), (1, 2)]
    assert [r["counts"] for r in res] == [(45, 45), (45, 44)]
    assert sorted(res[0]["shard"] + res[1]["shard"]) == list(range(89))
    for r in res:
        assert r["exact"] == pytest.approx(true_mean, rel=1e-15)
        assert r["tensor_value"] == pytest.approx(true_mean, rel=1e-15)
        assert r["padded"] != pytest.approx(true_mean, rel=1e-9)  # one sample counted twice
        assert r["one_rank_empty"] == 10.0
        assert math.isnan(r["all_empty"])
    assert res[0]["padded"] == res[1]["padded"]
