"""The loop of a DataLoader worker process.

A worker takes (batch number, indices) from its index queue, builds the whole batch (collated
straight into its slabs, Note [Batch slabs]) and sends it on its result pipe; the main process
keeps at most prefetch_factor batches per worker in flight, so a worker that is ahead waits.
Messages in: None (exit), _Resume (a new epoch of persistent workers), (idx, indices).
Messages out (one pickled message per batch): the batch, an ExceptionWrapper, or
_IterableEnd once an iterable dataset's copy in this worker is exhausted.  A worker exits on
None, when its parent is gone, or when its pipe breaks."""
import copy
import errno
import os
import queue
import signal
import sys

import numpy as np

import minitorch as _mt
from . import _collate
from ._utils import worker as _worker_info
from ._fetch import ExceptionWrapper, IterableFetcher, MapFetcher, seed_everything
from ._slabs import SlabRing
from . import _resume
from .sampler import _stateful

POLL_S = 1.0          # how often an idle worker checks that its parent still runs


class _IterableEnd:
    """Sent by a worker whose copy of an iterable dataset is exhausted."""

    def __init__(self, worker_id):
        self.worker_id = worker_id


class _Resume:
    """Sent to persistent workers at the start of a new epoch (with the worker's dataset
    state when the epoch resumes a saved one, Note [Loader state]); they answer with it."""

    def __init__(self, base_seed, state=None):
        self.base_seed = base_seed
        self.state = state


class _WithState:
    """A batch with the worker's dataset state after it (Note [Loader state])."""

    __slots__ = ("data", "state")

    def __init__(self, data, state):
        self.data = data
        self.state = state

    def __reduce__(self):
        return _WithState, (self.data, self.state)


def _fetch_with_state(fetcher, spec, index):
    """fetcher.fetch(index), with the dataset's state when it has one (Note [Loader state])."""
    data = fetcher.fetch(index)
    kind, dataset = spec[0], spec[1]
    if _stateful(dataset) or (kind == "iterable" and _stateful(fetcher.it)):
        return _WithState(data, _resume.fetcher_state(fetcher, kind, dataset))
    return data


def _new_fetcher(spec, base_seed, resume, seed_fn=None):
    """A fetcher for a new epoch, at the position `resume` (a worker's state) records."""
    _resume.load_dataset_state(spec[1], resume)
    fetcher = _make_fetcher(spec, base_seed, seed_fn)
    _resume.restore_fetcher(fetcher, spec[0], spec[1], resume)
    return fetcher


def _make_fetcher(spec, base_seed, seed_fn=None):
    kind, dataset, auto_collation, collate_fn, drop_last, batch_size, per_sample = spec
    if kind == "map":
        return MapFetcher(dataset, auto_collation, collate_fn, drop_last,
                          base_seed if per_sample else None, seed_fn)
    return IterableFetcher(dataset, auto_collation, collate_fn, drop_last, batch_size)


class _BatchMaker:
    """What a worker (process or thread) does with the messages of its index queue: builds
    whole batches, or the error / end-of-data answer to send instead."""

    def __init__(self, spec, base_seed, worker_id, where, resume, seed_fn=None):
        self.spec = spec
        self.base_seed = base_seed
        self.worker_id = worker_id
        self.where = where                       # "in DataLoader worker process 3"
        self.resume = resume
        self.seed_fn = seed_fn
        self.fetcher = None
        self.exhausted = False
        self.init_error = None

    def run_init(self, init_fn):
        if init_fn is not None:
            try:
                init_fn(self.worker_id)
            except Exception:                    # noqa: BLE001 - sent to the main process
                self.init_error = ExceptionWrapper(where=self.where)

    def new_epoch(self, msg):
        """A _Resume message: the next batch starts a new epoch (or the saved one)."""
        self.fetcher, self.exhausted = None, False
        self.resume = msg.state
        if self.spec[6]:
            self.base_seed = msg.base_seed

    def make(self, index):
        """The batch of `index`, an ExceptionWrapper, or _IterableEnd."""
        if self.init_error is not None:
            data, self.init_error = self.init_error, None
            return data
        if self.exhausted:
            return _IterableEnd(self.worker_id)
        fetcher = self.fetcher
        try:
            if fetcher is None:
                fetcher = self.fetcher = _new_fetcher(self.spec, self.base_seed, self.resume,
                                                      self.seed_fn)
                self.resume = None
            return _fetch_with_state(fetcher, self.spec, index)
        except StopIteration:
            self.exhausted = True
            return _IterableEnd(self.worker_id)
        except Exception:                        # noqa: BLE001 - sent to the main process
            where = self.where
            if fetcher is not None and fetcher.current is not None:
                where += f" while loading sample {fetcher.current!r}"
            return _wrap_error(where)


def _die_with_parent():
    """Linux: SIGTERM when the parent goes (PR_SET_PDEATHSIG), so a worker never outlives a
    killed main process, even one its own parent has not reaped yet.  (The parent is the
    thread that started the worker, the main process's main thread, or the forkserver, which
    exits with the main process.)"""
    try:
        import ctypes
        ctypes.CDLL(None, use_errno=True).prctl(1, int(signal.SIGTERM))
    except (OSError, AttributeError):
        pass


def worker_loop(spec, index_queue, result_conn, base_seed, init_fn, worker_id, num_workers,
                parent_pid, tie_to_parent, resume=None):
    signal.signal(signal.SIGINT, signal.SIG_IGN)   # Ctrl-C is the main process's to handle
    if tie_to_parent:
        _die_with_parent()
    _mt.set_num_threads(1)        # as torch: the workers are the parallelism
    seed = base_seed + worker_id
    _mt.manual_seed(seed)
    import random
    random.seed(seed)
    np.random.seed(_worker_info._generate_state(base_seed, worker_id))
    dataset = spec[1]
    _worker_info._worker_info = _worker_info.WorkerInfo(id=worker_id, num_workers=num_workers,
                                                        seed=seed, dataset=dataset)
    ring = SlabRing()
    _collate._collate_out_alloc = ring.alloc
    maker = _BatchMaker(spec, base_seed, worker_id, f"in DataLoader worker process {worker_id}",
                        resume)
    maker.run_init(init_fn)
    while True:
        try:
            msg = index_queue.get(timeout=POLL_S)
        except queue.Empty:
            if not _alive(parent_pid):
                return                           # the main process is gone
            continue
        except (EOFError, OSError):
            return
        if msg is None:
            return
        if isinstance(msg, _Resume):
            maker.new_epoch(msg)
            _send(result_conn, ring, (None, msg), [])
            continue
        idx, index = msg
        ring.begin_batch()
        data = maker.make(index)
        regions = ring.end_batch()
        if not _send(result_conn, ring, (idx, data), regions):
            return
        del data


class _ThreadDied:
    """Sent by a worker thread that ends on an exception outside any batch."""

    def __init__(self, error):
        self.error = error


def thread_worker_loop(spec, index_queue, results, base_seed, init_fn, worker_id, num_workers,
                       resume):
    """The loop of a worker thread (worker_mode="thread", Note [Thread workers] in
    dataloader.py): the protocol of worker_loop, with batches put on the shared `results`
    queue by reference.  The thread works on a shallow copy of the dataset (attributes of its
    own, as a worker process's copy; the data they refer to is shared) and draws from a
    default generator of its own, seeded as a
    worker process's; Python's `random` and NumPy's global generator are the process's and
    are left alone."""
    from minitorch import _C
    seed = base_seed + worker_id
    _C._set_thread_generator(_mt.Generator().manual_seed(seed))
    try:
        dataset = copy.copy(spec[1])   # its own object, as a process's copy (data shared)
    except Exception:                  # noqa: BLE001 - an uncopyable dataset is shared
        dataset = spec[1]
    spec = spec[:1] + (dataset,) + spec[2:]
    _worker_info._thread_state.info = _worker_info.WorkerInfo(
        id=worker_id, num_workers=num_workers, seed=seed, dataset=dataset)
    try:
        maker = _BatchMaker(spec, base_seed, worker_id, f"in DataLoader worker thread {worker_id}",
                            resume, _mt.manual_seed)
        maker.run_init(init_fn)
        while True:
            msg = index_queue.get()
            if msg is None:
                return
            if isinstance(msg, _Resume):
                maker.new_epoch(msg)
                results.put((worker_id, (None, msg)))
                continue
            idx, index = msg
            data = maker.make(index)
            if type(data) is _WithState:         # a snapshot, as a process's pickle is
                data.state = copy.deepcopy(data.state)
            results.put((worker_id, (idx, data)))
            del data
    except BaseException:                        # noqa: BLE001 - reported to the main thread
        results.put((worker_id, (None, _ThreadDied(
            ExceptionWrapper(where=f"in DataLoader worker thread {worker_id}")))))
    finally:
        _worker_info._thread_state.info = None
        _C._set_thread_generator(None)


TOO_MANY_OPEN_FILES = (
    "Too many open files. Communication with the workers is no longer possible. Please increase "
    "the limit using `ulimit -n` in the shell or change the sharing strategy by calling "
    "`minitorch.multiprocessing.set_sharing_strategy('file_system')` at the beginning of your code")


def _out_of_descriptors(exc):
    return (isinstance(exc, OSError) and exc.errno == errno.EMFILE) or \
        "Too many open files" in str(exc)


def _wrap_error(where):
    """The ExceptionWrapper of the exception being handled; running out of descriptors becomes
    torch's RuntimeError naming `ulimit -n` and set_sharing_strategy."""
    exc = sys.exc_info()[1]
    if _out_of_descriptors(exc):
        err = RuntimeError(TOO_MANY_OPEN_FILES)
        return ExceptionWrapper((RuntimeError, err, None), where=where)
    return ExceptionWrapper(where=where)


def _alive(pid):
    """Whether process pid still runs (the main process is not our parent under forkserver)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        pass
    return True


def _send(conn, ring, item, regions):
    idx, data = item
    try:
        conn.send_bytes(ring.encode(idx, data, regions))
    except (BrokenPipeError, EOFError, ConnectionResetError):
        return False
    except Exception:                            # noqa: BLE001 - an unpicklable batch
        ring.abandon(regions)
        err = _wrap_error(f"while sending batch {idx} from a DataLoader worker")
        try:
            conn.send_bytes(ring.encode(idx, err, []))
        except OSError:
            return False
    return True
