"""Feeding a device from a DataLoader: with pin_memory=True and worker processes the batch
slabs are page-locked where they lie (Note [Batch slabs]: no pin-memory copy, and a region goes
back to its worker only after the copies from it), and prefetch_to moves the next batch on a
side stream (Note [Prefetching to a device]).  Runs on a GPU or the emulated device (whose
streams run on their own threads, so a missing wait shows up as a wrong value); skipped
without one."""
import pytest

import minitorch as torch
from minitorch import _C
from minitorch.utils.data import DataLoader, Dataset, prefetch_to

pytestmark = pytest.mark.skipif(torch.cuda.device_count() == 0,
                                reason="needs a CUDA device (a GPU, or the emulated build)")


class Rows(Dataset):
    def __init__(self, n, width):
        self.n, self.width = n, width

    def __len__(self):
        return self.n

    def __getitem__(self, i):
        return torch.full((self.width,), float(i)), torch.tensor(i)   # both stacked in a slab


def _expected(batch_size, i, width):
    return [[float(batch_size * i + j)] * width for j in range(batch_size)]


def test_pinned_slabs_give_pinned_batches_without_a_copy():
    in_use = _C._cuda_host_memory_stats()[1]     # bytes of the pinned-block cache in use
    loader = DataLoader(Rows(32, 16), batch_size=4, num_workers=2, pin_memory=True)
    seen = []
    for i, (x, idx) in enumerate(loader):
        assert x.is_pinned() and idx.is_pinned()
        assert x.tolist() == _expected(4, i, 16)
        seen.append(x)
    # the batches lie in their slabs, page-locked in place: no block of the cache holds them
    assert len(seen) == 8 and _C._cuda_host_memory_stats()[1] == in_use
    # (without workers there are no slabs: each batch is copied into a pinned block)
    held = [x for x, _ in DataLoader(Rows(8, 16), batch_size=4, pin_memory=True)]
    assert all(x.is_pinned() for x in held) and _C._cuda_host_memory_stats()[1] > in_use


def test_slab_regions_wait_for_their_copies_before_reuse():
    # each batch is freed right after its asynchronous copy was queued behind device work;
    # were its region handed back to the worker at once, a later batch would overwrite it
    # before the copy ran and an earlier device tensor would see later values
    width = 20_000
    loader = DataLoader(Rows(24, width), batch_size=2, num_workers=2, pin_memory=True,
                        prefetch_factor=1)
    busy = torch.ones(500_000, device="cuda")
    outs = []
    for x, _ in loader:
        for _ in range(2):
            busy = busy * 1.5              # queued work the copy waits behind
        outs.append(x.cuda(non_blocking=True))
        del x
    torch.cuda.synchronize()
    for i, d in enumerate(outs):
        assert d.cpu().tolist() == _expected(2, i, width)


def test_register_and_unregister_a_storage():
    stats = _C._cuda_host_memory_stats()
    s = torch.zeros(1000).untyped_storage()
    t = torch.empty(0).set_(s)
    assert not t.is_pinned()
    _C._cuda_host_register(s)
    _C._cuda_host_register(s)             # already registered: nothing more to do
    assert t.is_pinned() and t[10:].is_pinned()
    assert _C._cuda_host_memory_stats() == stats    # registered memory is not the cache's
    d = t.cuda(non_blocking=True)
    _C._cuda_host_unregister(s)           # waits for the copy first
    assert not t.is_pinned()
    assert d.cpu().tolist() == [0.0] * 1000
    _C._cuda_host_unregister(s)           # not registered: nothing
    with pytest.raises(TypeError, match="expected a CPU Storage"):
        _C._cuda_host_register(torch.zeros(3, device="cuda").untyped_storage())
    with pytest.raises(TypeError):
        _C._cuda_host_register(3)


@pytest.mark.parametrize("workers", [0, 2])
def test_prefetch_to_moves_batches_ahead_on_a_side_stream(workers):
    width = 10_000
    loader = DataLoader(Rows(12, width), batch_size=3, num_workers=workers, pin_memory=True)
    results = []
    for i, (x, idx) in enumerate(prefetch_to(loader, "cuda")):
        assert x.device == torch.device("cuda", 0) and idx.device.type == "cuda"
        results.append(x * 2 + 1)         # on the current stream, after the side stream's copy
    torch.cuda.synchronize()
    assert len(results) == 4
    for i, r in enumerate(results):
        assert r.cpu().tolist() == [[2 * float(3 * i + j) + 1] * width for j in range(3)]


def test_prefetch_to_keeps_the_batch_structure_and_other_devices():
    data = [{"x": torch.full((4,), float(i)), "name": f"s{i}"} for i in range(3)]
    out = list(prefetch_to(data, "cuda:1" if torch.cuda.device_count() > 1 else "cuda"))
    assert [o["name"] for o in out] == ["s0", "s1", "s2"]
    assert all(o["x"].device.type == "cuda" for o in out)
    assert [o["x"].cpu().tolist() for o in out] == [[float(i)] * 4 for i in range(3)]
    cpu = list(prefetch_to([(torch.ones(2), 1)], "cpu"))
    assert cpu[0][0].device.type == "cpu" and cpu[0][1] == 1
