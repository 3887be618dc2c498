"""Pinned host memory and asynchronous copies (Note [Pinned host memory]): pin_memory/is_pinned,
copies with non_blocking=True between pinned memory and a device ordered by streams, the
cache of pinned blocks (a block is not handed out again while a copy may use it), and
record_stream.  Runs on a GPU or on the emulated device (MINITORCH_CUDA=EMULATE,
.ci/cuda_emulated), whose streams run on their own threads, so a missing synchronisation
shows up as a wrong value; skipped without one."""
import pytest

import minitorch as torch
from minitorch import _C

pytestmark = pytest.mark.skipif(torch.cuda.device_count() == 0,
                                reason="needs a CUDA device (a GPU, or the emulated build)")


def test_pin_memory_copies_into_pinned_memory():
    x = torch.arange(12, dtype=torch.float32).reshape(3, 4)
    assert not x.is_pinned()
    p = x.pin_memory()
    assert p.is_pinned() and p.device.type == "cpu" and p.dtype == x.dtype
    assert p.tolist() == x.tolist() and p.data_ptr() != x.data_ptr()
    assert p.pin_memory() is p
    # views of pinned memory are pinned; a non-contiguous source gives a dense pinned copy
    assert p[1:].is_pinned() and p.t().is_pinned()
    q = x.t().pin_memory()
    assert q.is_pinned() and q.is_contiguous() and q.tolist() == x.t().tolist()


def test_pin_memory_of_a_cuda_tensor_raises():
    with pytest.raises(RuntimeError, match="only dense CPU tensors can be pinned"):
        torch.ones(2, device="cuda").pin_memory()
    assert not torch.ones(2, device="cuda").is_pinned()


def test_empty_tensor_pins():
    p = torch.empty(0).pin_memory()
    assert p.numel() == 0 and p.shape == (0,)


@pytest.mark.parametrize("move", ["cuda", "to", "copy_"])
def test_non_blocking_host_to_device(move):
    src = torch.arange(100_000, dtype=torch.float32).pin_memory()
    if move == "cuda":
        d = src.cuda(non_blocking=True)
    elif move == "to":
        d = src.to("cuda", non_blocking=True)
    else:
        d = torch.empty(100_000, device="cuda")
        d.copy_(src, non_blocking=True)
    d2 = d * 2                           # ordered after the copy on the current stream
    torch.cuda.synchronize()
    assert d2.cpu().tolist() == [2.0 * i for i in range(100_000)]


def test_non_blocking_device_to_pinned_host():
    d = torch.arange(50_000, dtype=torch.float64).cuda() * 3
    out = torch.empty(50_000, dtype=torch.float64).pin_memory()
    out.copy_(d, non_blocking=True)
    torch.cuda.current_stream().synchronize()
    assert out.tolist() == [3.0 * i for i in range(50_000)]


def test_non_blocking_from_pageable_memory_is_complete_on_return():
    src = torch.arange(10_000, dtype=torch.float32)
    d = src.cuda(non_blocking=True)
    src.fill_(-1)                        # pageable: the runtime staged it before returning
    assert d.cpu().tolist() == [float(i) for i in range(10_000)]


def test_freed_pinned_block_is_not_reused_under_a_pending_copy():
    # each source is freed right after its asynchronous copy was queued; were its block handed
    # to the next source before the copy ran, an earlier device tensor would see later values
    n = 20_000
    busy = torch.ones(1_000_000, device="cuda")
    for _ in range(4):                   # queued work the copies wait behind
        busy = busy * 1.5
    outs = []
    for i in range(12):
        src = torch.full((n,), float(i)).pin_memory()
        outs.append(src.cuda(non_blocking=True))
        del src
    torch.cuda.synchronize()
    for i, d in enumerate(outs):
        assert d.cpu().tolist() == [float(i)] * n
    assert busy[:3].cpu().tolist() == [1.5 ** 4] * 3


def test_pinned_blocks_are_cached():
    _C._cuda_host_empty_cache()
    a = torch.empty(1000).pin_memory()
    reserved, allocated = _C._cuda_host_memory_stats()
    assert allocated >= 4000 and reserved >= allocated
    ptr = a.data_ptr()
    del a
    torch.cuda.synchronize()
    b = torch.empty(900).pin_memory()     # the same size class: the cached block again
    assert b.data_ptr() == ptr
    del b
    _C._cuda_host_empty_cache()
    assert _C._cuda_host_memory_stats() == (0, 0)


def test_side_stream_copy_ordered_by_an_event():
    # the notes' prefetcher: the next batch copied on a side stream while the current trains
    batches = [torch.full((30_000,), float(i)).pin_memory() for i in range(4)]
    side = torch.cuda.Stream()
    main = torch.cuda.current_stream()
    results = []
    with torch.cuda.stream(side):
        nxt = batches[0].cuda(non_blocking=True)
    for i in range(4):
        main.wait_stream(side)
        cur = nxt
        cur.record_stream(main)
        if i + 1 < 4:
            with torch.cuda.stream(side):
                nxt = batches[i + 1].cuda(non_blocking=True)
        results.append(cur * 2 + 1)
    torch.cuda.synchronize()
    for i, r in enumerate(results):
        assert r.cpu().tolist() == [2.0 * i + 1] * 30_000


def test_record_stream_errors():
    with pytest.raises(RuntimeError):
        torch.ones(2).record_stream(torch.cuda.current_stream())
    t = torch.ones(4, device="cuda")
    t.record_stream(torch.cuda.Stream())   # another stream: the block waits for it when freed
    del t
    torch.cuda.synchronize()


def test_copy_on_a_side_stream_overlaps_a_kernel():
    # a long chain of kernels on one stream, then a small copy from pinned memory on another:
    # the copy completes while the kernels still run (the two streams overlap)
    emulated = "emulated" in torch.cuda.get_device_name(0)
    n, passes = (1 << 20, 8) if emulated else (1 << 26, 40)
    busy_stream, copy_stream = torch.cuda.Stream(), torch.cuda.Stream()
    src = torch.arange(1024, dtype=torch.float32).pin_memory()
    with torch.cuda.stream(busy_stream):
        x = torch.ones(n, device="cuda")
        busy_stream.synchronize()
        for _ in range(passes):
            x = x * 1.0001
        busy_done = torch.cuda.Event()
        busy_done.record()
    with torch.cuda.stream(copy_stream):
        d = src.cuda(non_blocking=True)
        copied = torch.cuda.Event()
        copied.record()
    copied.synchronize()
    assert not busy_done.query(), "the copy waited for the other stream's kernels"
    busy_done.synchronize()
    assert d.cpu().tolist() == src.tolist()
