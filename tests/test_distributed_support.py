"""Helpers shared by the distributed tests: run a function on N spawned ranks.

``run_ranks(fn, world_size, *args)`` starts `world_size` processes (spawn
context), each calling ``fn(rank, world_size, init_method, *args)``, and
returns their results by rank; an exception in a rank fails the test with the
rank's traceback.  Every run is bounded in time.
"""
import multiprocessing as mp
import os
import tempfile
import traceback

import pytest
from helpers import free_port

__all__ = ["run_ranks", "free_port", "init_file", "RankFailed"]


class RankFailed(AssertionError):
    pass


def _child(fn, rank, world_size, init_method, args, q, env):
    os.environ.update(env)
    try:
        result = fn(rank, world_size, init_method, *args)
        q.put((rank, True, result))
    except BaseException:  # noqa: B902 - reported to the parent
        q.put((rank, False, traceback.format_exc()))
    finally:
        try:
            import minitorch.distributed as dist

            if dist.is_initialized():
                dist.destroy_process_group()
        except Exception:  # noqa: BLE001 - best effort at exit
            pass


def init_file(tmpdir):
    return "file://" + os.path.join(tmpdir, "store")


def run_ranks(fn, world_size, *args, timeout=45, env=None, expect_fail=(), init_method=None):
    """Runs fn on every rank; returns [result of rank 0, ...].

    Ranks in `expect_fail` may exit without a result (killed on purpose)."""
    ctx = mp.get_context("spawn")
    q = ctx.Queue()
    with tempfile.TemporaryDirectory() as d:
        im = init_method or init_file(d)
        procs = [ctx.Process(target=_child, args=(fn, r, world_size, im, args, q, env or {}),
                             daemon=True) for r in range(world_size)]
        for p in procs:
            p.start()
        results, errors = {}, {}
        try:
            want = world_size - len(expect_fail)
            got = 0
            import queue as _queue

            while got < world_size:
                try:
                    rank, ok, val = q.get(timeout=timeout if got < want else 1)
                except _queue.Empty:
                    if got >= want:
                        break
                    raise RankFailed(f"ranks timed out after {timeout} s; results so far: "
                                     f"{sorted(results)} errors: {errors}") from None
                got += 1
                (results if ok else errors)[rank] = val
        finally:
            for p in procs:
                p.join(5)
                if p.is_alive():
                    p.kill()
                    p.join()
    if errors:
        msg = "\n".join(f"--- rank {r} ---\n{tb}" for r, tb in sorted(errors.items()))
        raise RankFailed(msg)
    return [results.get(r) for r in range(world_size)]


def _echo(rank, world_size, init_method):
    import minitorch.distributed as dist

    dist.init_process_group("gloo", init_method=init_method, rank=rank, world_size=world_size)
    return dist.get_rank(), dist.get_world_size()


def test_run_ranks_reports_results():
    assert run_ranks(_echo, 2) == [(0, 2), (1, 2)]


def _boom(rank, world_size, init_method):
    if rank == 1:
        raise KeyError("boom on one")
    return rank


def test_run_ranks_reports_failures():
    with pytest.raises(RankFailed, match="boom on one"):
        run_ranks(_boom, 2)
