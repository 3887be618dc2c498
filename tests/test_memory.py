"""Memory: creating and dropping a million views / from_numpy tensors / arrays / storages keeps RSS flat."""
import gc
import os
import sys

import numpy as np
import pytest

import minitorch as torch

N = 1_000_000
WARMUP = 50_000
SLACK_BYTES = 20 * 1024 * 1024
PAGE = os.sysconf("SC_PAGE_SIZE")

pytestmark = pytest.mark.skipif(not os.path.exists("/proc/self/statm"), reason="needs /proc/self/statm")

# AddressSanitizer keeps freed memory in a quarantine (256 MiB by default), so RSS says nothing
# there; the reference-count checks still run.
UNDER_ASAN = "asan" in os.environ.get("LD_PRELOAD", "")


def rss():
    if UNDER_ASAN:
        return 0
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * PAGE


def run_flat(step, n=N):
    """Runs step() WARMUP times, then n times; returns RSS growth over the n runs."""
    for _ in range(WARMUP):
        step()
    gc.collect()
    before = rss()
    for _ in range(n):
        step()
    gc.collect()
    return rss() - before


def test_million_views():
    t = torch.ones((2, 2))
    count = t.untyped_storage()._refcount()
    grown = run_flat(lambda: t.view(4))
    assert grown < SLACK_BYTES, f"RSS grew {grown / 2**20:.1f} MiB over {N} views"
    assert t.untyped_storage()._refcount() == count  # every view released its storage reference


def test_million_mixed_views():
    t = torch.arange(24.0).view(2, 3, 4)

    def step():
        t[1, :, ::2].t().unsqueeze(0).expand(2, 2, 3)

    assert run_flat(step, n=N // 4) < SLACK_BYTES


def test_million_from_numpy():
    a = np.zeros((4, 4))
    refs = sys.getrefcount(a)
    grown = run_flat(lambda: torch.from_numpy(a))
    assert grown < SLACK_BYTES, f"RSS grew {grown / 2**20:.1f} MiB over {N} from_numpy tensors"
    assert sys.getrefcount(a) == refs  # every tensor dropped its reference to the array


def test_million_numpy_arrays():
    t = torch.zeros(4, 4)
    count = t.untyped_storage()._refcount()
    grown = run_flat(lambda: t.numpy())
    assert grown < SLACK_BYTES, f"RSS grew {grown / 2**20:.1f} MiB over {N} .numpy() arrays"
    assert t.untyped_storage()._refcount() == count


def test_million_storages():
    t = torch.zeros(4, 4)
    count = t.untyped_storage()._refcount()

    def step():
        t.storage()
        t.untyped_storage()

    grown = run_flat(step, n=N // 2)
    assert grown < SLACK_BYTES, f"RSS grew {grown / 2**20:.1f} MiB over {N} storages"
    assert t.untyped_storage()._refcount() == count


def test_round_trips_release_big_buffers():
    # a 64 MiB buffer made and dropped 40 times: leaking any one of them shows up
    def step():
        a = np.ones(8 * 1024 * 1024)
        t = torch.from_numpy(a)[::2]
        b = t.numpy()
        torch.from_numpy(b).storage()
        del a, t, b

    for _ in range(3):
        step()
    gc.collect()
    before = rss()
    for _ in range(40):
        step()
    gc.collect()
    assert rss() - before < 3 * 64 * 1024 * 1024


def test_tensor_allocations_are_freed():
    def step():
        torch.empty(1024 * 1024)  # 4 MiB
        torch.zeros(256, 256).t().contiguous()

    for _ in range(10):
        step()
    gc.collect()
    before = rss()
    for _ in range(500):
        step()
    gc.collect()
    assert rss() - before < SLACK_BYTES


def test_failed_calls_do_not_leak():
    t = torch.arange(12.0).view(3, 4)
    a = np.arange(5)[::-1]
    refs = sys.getrefcount(a)

    def step():
        for f in (lambda: t.t().view(12), lambda: t[5], lambda: torch.from_numpy(a), lambda: t.view(5, -1),
                  lambda: torch.tensor([[1, 2], [3]]), lambda: t.expand(2, 2)):
            try:
                f()
            except (RuntimeError, IndexError, ValueError):
                pass

    assert run_flat(step, n=50_000) < SLACK_BYTES
    assert sys.getrefcount(a) == refs


def minor_faults():
    import resource
    return resource.getrusage(resource.RUSAGE_SELF).ru_minflt


@pytest.mark.skipif(UNDER_ASAN, reason="no block cache under AddressSanitizer (Note [Block cache])")
def test_blocks_made_by_a_thread_and_freed_by_another_are_reused():
    # a thread builds 24 MiB tensors that the main thread frees, as a DataLoader worker thread's
    # batches: without the block cache each is mapped anew (about 4,400 page faults apiece)
    import queue
    import threading

    q = queue.Queue(maxsize=2)

    def produce(n):
        for _ in range(n):
            t = torch.empty(6 * 1024 * 1024)
            t.fill_(1.0)
            q.put(t)
        q.put(None)

    def run(n):
        th = threading.Thread(target=produce, args=(n,))
        th.start()
        while q.get() is not None:
            pass
        th.join()

    run(5)
    before = minor_faults()
    run(40)
    assert (minor_faults() - before) / 40 < 1000


def test_block_cache_is_bounded():
    # blocks of many sizes between 1 and 32 MiB, dropped at once: RSS stays within the cache's
    # bound (64 MiB) and the heap it pins, however many were made
    sizes = [(1 + (i * 7) % 31) * 256 * 1024 for i in range(200)]   # float32 elements
    for _ in range(2):
        for n in sizes:
            torch.empty(n).fill_(1.0)
    gc.collect()
    before = rss()
    for _ in range(3):
        for n in sizes:
            torch.empty(n).fill_(1.0)
    gc.collect()
    assert rss() - before < SLACK_BYTES
