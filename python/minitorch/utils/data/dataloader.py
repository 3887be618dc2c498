"""DataLoader: batches of a dataset, loaded in the calling process or by a pool of worker
processes, with torch's arguments and behaviour.

Note [The worker pool]
With num_workers > 0 each worker builds whole batches (the notes' description): the main
process hands out (batch number, indices) round-robin, at most prefetch_factor per worker in
flight, and delivers batches strictly in sampler order (in_order=True) however they arrive, so
a worker that is ahead waits and the main process waits for a slow one.  Batches come back
through shared-memory slabs the workers reuse (Note [Batch slabs]): no copy and no system call
per batch beyond one small message.  A worker's exception is raised again in the main process
with its traceback and the sample it was loading; a worker that dies is an error naming its
pid as soon as it is gone (its process sentinel is watched with the pipes; under spawn and
forkserver the workers are forked by one process that reports their exits, Note [Worker
zygote] in _zygote.py); `timeout` bounds
each wait.  Breaking out of the loop, deleting the iterator, Ctrl-C and interpreter exit all
end the workers (finalizer, then terminate/kill after a grace period); their shared memory is
descriptor-backed, so nothing outlives them.

Seeds: each epoch draws a base seed from `generator` (or the global generator); worker i seeds
minitorch and `random` with base_seed + i and NumPy with a mix of both, as torch.

Note [Per-sample seeds]
Beyond torch, `per_sample_seed=True` seeds minitorch, `random` and NumPy before every sample
from (the epoch's base seed, the sample's index), so random augmentation gives the same
results whatever num_workers is and whichever worker loads the sample.

Beyond torch, `state_dict()` / `load_state_dict()` save and resume an epoch mid-way, as
torchdata's StatefulDataLoader (Note [Loader state] in _resume.py; `StatefulDataLoader` is
another name of this class).

Note [Thread workers]
Beyond torch, `worker_mode="thread"` runs the same worker pool (whole batches, sampler order,
prefetch bound, errors with the worker's traceback and sample, timeouts, get_worker_info(),
per-sample seeds, resuming) with threads of this process: no pickling, no shared memory, the
batch a worker built is the one the loop gets.  Each thread works on a shallow copy of the
dataset (its attributes its own, as a worker process's copy; the data they refer to shared),
which get_worker_info().dataset is.  It suits datasets whose work releases the GIL
(minitorch's ops and NumPy's do) and free-threaded Python.  Each worker thread draws from a
default generator of its own (Note [Thread default generators] in csrc/random_binding.c),
seeded as a worker process's and, with per_sample_seed, per sample; Python's `random` and
NumPy's global generator belong to the process and are not seeded by thread workers.  Deleting
the iterator (or an error) asks the threads to stop and joins them.

Beyond torch too, with num_workers=0 the loader warns once when loading takes most of the time
of the loop (and suggests num_workers)."""
import functools
import itertools
import multiprocessing as _pymp
import os
import queue
import threading
import time
import typing
import warnings
import weakref
from multiprocessing import connection as _connection

import minitorch as _mt
import minitorch.multiprocessing as _mp
from minitorch.autograd import _profiler_collection as _profiling
from minitorch.autograd.profiler import record_function as _record_function
from . import _collate
from . import _resume
from ._fetch import ExceptionWrapper, IterableFetcher, MapFetcher
from ._slabs import SlabMapper
from ._utils import signal_handling
from ._zygote import Zygote as _Zygote
from ._worker import (TOO_MANY_OPEN_FILES, _IterableEnd, _Resume, _ThreadDied, _WithState,
                      _out_of_descriptors, thread_worker_loop, worker_loop)
from .dataset import IterableDataset
from .sampler import BatchSampler, RandomSampler, SequentialSampler

__all__ = ["DataLoader", "StatefulDataLoader", "default_collate", "default_convert",
           "get_worker_info"]

from ._collate import default_collate, default_convert  # noqa: E402
from ._utils.worker import get_worker_info  # noqa: E402

_SHUTDOWN_GRACE_S = 5.0
_SLOW_LOAD_MIN_BATCHES = 20
_SLOW_LOAD_MIN_S = 2.0
_SLOW_LOAD_SHARE = 0.5


class _InfiniteConstantSampler:
    """The index sampler of an iterable dataset: None forever (the fetcher iterates)."""

    def __iter__(self):
        while True:
            yield None


_T_co = typing.TypeVar("_T_co", covariant=True)


def _cpu_count():
    """CPUs this process may run on (its affinity mask where the OS has one)."""
    if hasattr(os, "sched_getaffinity"):
        try:
            return len(os.sched_getaffinity(0))
        except OSError:
            pass
    return os.cpu_count()


class DataLoader(typing.Generic[_T_co]):
    """Batches of `dataset`: see torch.utils.data.DataLoader (same arguments), and the notes
    above for the worker pool and minitorch's additions (`per_sample_seed`)."""

    __initialized = False

    def __init__(self, dataset, batch_size=1, shuffle=None, sampler=None, batch_sampler=None,
                 num_workers=0, collate_fn=None, pin_memory=False, drop_last=False, timeout=0,
                 worker_init_fn=None, multiprocessing_context=None, generator=None, *,
                 prefetch_factor=None, persistent_workers=False, pin_memory_device="",
                 in_order=True, per_sample_seed=False, worker_mode="process",
                 snapshot_every_n_steps=1):
        if num_workers < 0:
            raise ValueError("num_workers option should be non-negative; use num_workers=0 to "
                             "disable multiprocessing.")
        if timeout < 0:
            raise ValueError("timeout option should be non-negative")
        if num_workers == 0 and prefetch_factor is not None:
            raise ValueError("prefetch_factor option could only be specified in multiprocessing."
                             "let num_workers > 0 to enable multiprocessing, otherwise set "
                             "prefetch_factor to None.")
        if num_workers > 0 and prefetch_factor is None:
            prefetch_factor = 2
        elif prefetch_factor is not None and prefetch_factor < 0:
            raise ValueError("prefetch_factor option should be non-negative")
        if persistent_workers and num_workers == 0:
            raise ValueError("persistent_workers option needs num_workers > 0")
        if worker_mode not in ("process", "thread"):
            raise ValueError("worker_mode option should be 'process' or 'thread', but got "
                             f"worker_mode={worker_mode!r}")
        if worker_mode == "thread" and multiprocessing_context is not None:
            raise ValueError("multiprocessing_context option needs worker_mode='process'")
        self.worker_mode = worker_mode
        # torchdata's argument, accepted for its code: workers send their dataset state with
        # every batch that needs one, so a state is always exact
        if snapshot_every_n_steps is not None and (
                not isinstance(snapshot_every_n_steps, int) or snapshot_every_n_steps < 1):
            raise ValueError("snapshot_every_n_steps should be a positive integer, but got "
                             f"snapshot_every_n_steps={snapshot_every_n_steps}")
        self.snapshot_every_n_steps = snapshot_every_n_steps
        self.dataset = dataset
        self.num_workers = num_workers
        self.prefetch_factor = prefetch_factor
        self.pin_memory = pin_memory
        self.pin_memory_device = pin_memory_device
        self.timeout = timeout
        self.worker_init_fn = worker_init_fn
        self.in_order = in_order
        self.per_sample_seed = bool(per_sample_seed)

        if isinstance(dataset, IterableDataset):
            self._dataset_kind = "iterable"
            if shuffle not in (False, None):
                raise ValueError("DataLoader with IterableDataset: expected unspecified shuffle "
                                 f"option, but got shuffle={shuffle}")
            if sampler is not None:
                raise ValueError("DataLoader with IterableDataset: expected unspecified sampler "
                                 f"option, but got sampler={sampler}")
            if batch_sampler is not None:
                raise ValueError("DataLoader with IterableDataset: expected unspecified "
                                 f"batch_sampler option, but got batch_sampler={batch_sampler}")
        else:
            shuffle = bool(shuffle)
            self._dataset_kind = "map"
        if sampler is not None and shuffle:
            raise ValueError("sampler option is mutually exclusive with shuffle")
        if batch_sampler is not None:
            if batch_size != 1 or shuffle or sampler is not None or drop_last:
                raise ValueError("batch_sampler option is mutually exclusive with batch_size, "
                                 "shuffle, sampler, and drop_last")
            batch_size, drop_last = None, False
        elif batch_size is None and drop_last:
            raise ValueError("batch_size=None option disables auto-batching and is mutually "
                             "exclusive with drop_last")
        if sampler is None:
            if self._dataset_kind == "iterable":
                sampler = _InfiniteConstantSampler()
            elif shuffle:
                sampler = RandomSampler(dataset, generator=generator)
            else:
                sampler = SequentialSampler(dataset)
        if batch_size is not None and batch_sampler is None:
            batch_sampler = BatchSampler(sampler, batch_size, drop_last)
        self.batch_size = batch_size
        self.drop_last = drop_last
        self.sampler = sampler
        self.batch_sampler = batch_sampler
        self.generator = generator
        if collate_fn is None:
            collate_fn = default_collate if self._auto_collation else default_convert
        self.collate_fn = collate_fn
        self.persistent_workers = persistent_workers
        self.multiprocessing_context = multiprocessing_context
        self._iterator = None
        self._slow_warned = False
        self._IterableDataset_len_called = None   # len(dataset) once len(loader) was asked
        self._next_iter_state = None   # load_state_dict's state, for the next iterator
        self._progress = None          # the latest iterator's _resume.Progress
        self.__initialized = True
        self.check_worker_number_rationality()

    def check_worker_number_rationality(self):
        """Warns (as torch) when num_workers exceeds the CPUs this process may use."""
        if not self.num_workers:
            return
        cpus = _cpu_count()
        if cpus is not None and self.num_workers <= cpus:
            return
        if cpus is None:
            suggested = "DataLoader is not able to compute a suggested max number of worker in current system."
        else:
            cpuset = "" if hasattr(os, "sched_getaffinity") else " (`cpuset` is not taken into account)"
            suggested = (f"Our suggested max number of worker in current system is {cpus}{cpuset}, which "
                         "is smaller than what this DataLoader is going to create.")
        warnings.warn(f"This DataLoader will create {self.num_workers} worker processes in total. "
                      f"{suggested} Please be aware that excessive worker creation might get DataLoader "
                      "running slow or even freeze, lower the worker number to avoid potential "
                      "slowness/freeze if necessary.", stacklevel=2)

    # ---- torch's attribute rules
    @property
    def multiprocessing_context(self):
        return self.__multiprocessing_context

    @multiprocessing_context.setter
    def multiprocessing_context(self, ctx):
        if ctx is not None:
            if self.num_workers == 0:
                raise ValueError("multiprocessing_context can only be used with multi-process "
                                 f"loading (num_workers > 0), but got num_workers={self.num_workers}")
            if isinstance(ctx, str):
                methods = _mp.get_all_start_methods()
                if ctx not in methods:
                    raise ValueError("multiprocessing_context option should specify a valid start "
                                     f"method in {methods!r}, but got multiprocessing_context={ctx!r}")
                ctx = _mp.get_context(ctx)
            if not isinstance(ctx, _pymp.context.BaseContext):
                raise TypeError("multiprocessing_context option should be a valid context object or "
                                "a string specifying the start method, but got "
                                f"multiprocessing_context={ctx}")
        self.__multiprocessing_context = ctx

    def __setattr__(self, attr, val):
        if self.__initialized and attr in ("batch_size", "batch_sampler", "sampler", "drop_last",
                                           "dataset", "persistent_workers"):
            raise ValueError(f"{attr} attribute should not be set after {type(self).__name__} is "
                             "initialized")
        super().__setattr__(attr, val)

    @property
    def _auto_collation(self):
        return self.batch_sampler is not None

    @property
    def _index_sampler(self):
        return self.batch_sampler if self._auto_collation else self.sampler

    def __len__(self):
        if self._dataset_kind == "iterable":
            self._IterableDataset_len_called = len(self.dataset)
        return _num_batches(self._dataset_kind, self.dataset, self._index_sampler, self.batch_size,
                            self.drop_last)

    def _base_seed(self):
        return int(_mt.empty((), dtype=_mt.int64).random_(generator=self.generator).item())

    def __iter__(self):
        state, self._next_iter_state = self._next_iter_state, None
        if state is not None and state.get("_iterator_finished"):
            state = None                  # saved at the end of an epoch: a new one
        if self.num_workers == 0:
            return _SingleProcessIter(self, state=state)
        cls = _ThreadIter if self.worker_mode == "thread" else _MultiProcessIter
        if self.persistent_workers and self._iterator is not None:
            self._iterator._reset(self, state)       # no new workers: no warning (as torch)
            return self._iterator
        self.check_worker_number_rationality()      # once per new pool of workers, as torch
        it = cls(self, state)
        if self.persistent_workers:
            self._iterator = it
        return it

    # ---- resumable loading (Note [Loader state] in _resume.py)
    def state_dict(self):
        """The state of the latest iterator after the batches it delivered (a new epoch's when
        there was none): `load_state_dict` of it makes the next iterator go on from there."""
        if self._next_iter_state is not None:
            return dict(self._next_iter_state)
        if self.num_workers > 0 and not self.in_order:
            warnings.warn("DataLoader.state_dict() with in_order=False: batches are delivered "
                          "as they come, so the state may skip or repeat batches in flight",
                          stacklevel=2)
        if self._progress is None:
            return _resume.Progress(self._dataset_kind, self.num_workers, self._index_sampler,
                                    self.dataset, None,
                                    self._IterableDataset_len_called).state_dict()
        return self._progress.state_dict()

    def load_state_dict(self, state_dict):
        """The next `iter(self)` resumes from `state_dict` (one of `state_dict()`); `{}` starts
        afresh."""
        if not state_dict:
            self._next_iter_state = None
            return
        if "_num_yielded" not in state_dict:
            raise ValueError("DataLoader.load_state_dict: not a DataLoader state (it has no "
                             "'_num_yielded')")
        saved = state_dict.get("_num_workers", 0)
        if (self._dataset_kind == "iterable" and saved != self.num_workers and
                state_dict["_num_yielded"] and not state_dict.get("_iterator_finished")):
            raise ValueError(
                f"DataLoader.load_state_dict: the state of an IterableDataset was saved with "
                f"num_workers={saved}, and this loader has num_workers={self.num_workers}; each "
                "worker iterates its own copy of the dataset, so the state needs the same "
                "num_workers")
        self._next_iter_state = state_dict
        self._progress = None


def _num_batches(kind, dataset, index_sampler, batch_size, drop_last):
    """len() of a loader and of its iterators."""
    if kind == "iterable":
        n = len(dataset)
        if batch_size is not None:
            n = n // batch_size if drop_last else -(-n // batch_size)
        return n
    return len(index_sampler)


class _BaseIter:
    """Note [Iterators do not hold their loader]: a loader with persistent workers keeps its
    iterator (loader._iterator); were the iterator to keep the loader, the two would outlive
    `del` until the cycle collector runs, and so would the workers.  The iterator keeps a weak
    reference and copies what it needs; torch's workers exit at once too."""

    def __init__(self, loader, base_seed=None, state=None):
        self._loader_ref = weakref.ref(loader)
        self._num_workers = loader.num_workers
        self._dataset = loader.dataset
        self._kind = loader._dataset_kind
        self._auto_collation = loader._auto_collation
        self._drop_last = loader.drop_last
        self._index_sampler = loader._index_sampler
        self._collate_fn = loader.collate_fn
        self._timeout = loader.timeout
        # batches are pinned as they are delivered when there is a device to copy them to
        # (Note [Pinned host memory] in c10_lite/cuda_host_alloc.h); without one, torch's warning
        self._pin = False
        if loader.pin_memory:
            from ... import cuda
            if cuda.device_count() > 0:
                self._pin = True
                self._pin_device = loader.pin_memory_device or None
            else:
                warnings.warn("'pin_memory' argument is set as true but no accelerator is found, "
                              "then device pinned memory won't be used.", stacklevel=3)
        if base_seed is None:
            base_seed = _state_seed(state)
        self._start(loader, loader._base_seed() if base_seed is None else base_seed, state)

    def _start(self, loader, base_seed, state=None):
        """A new epoch: the sampler starts over (or where `state` says, Note [Loader state]);
        base_seed seeds workers / samples."""
        if state is None:
            self._sampler_iter = iter(self._index_sampler)
        else:
            self._sampler_iter = _resume.restore_sampler(self._index_sampler, state,
                                                         self._kind == "iterable")
        self._base_seed = base_seed
        self._num_yielded = state["_num_yielded"] if state else 0
        self._batch_size = loader.batch_size
        self._IterableDataset_len_called = loader._IterableDataset_len_called
        if state is not None and state.get("_IterableDataset_len_called") is not None:
            self._IterableDataset_len_called = state["_IterableDataset_len_called"]
        progress = _resume.Progress(self._kind, self._num_workers, self._index_sampler,
                                    self._dataset, base_seed, self._IterableDataset_len_called)
        progress.num_yielded = self._num_yielded
        progress.sampler_iter_yielded = self._yielded0 = \
            state.get("_sampler_iter_yielded", 0) if state else 0
        self._progress = loader._progress = progress

    def _count_yielded(self):
        """One more batch delivered; warns (as torch) once an iterable dataset has given more
        than the length len(loader) reported for it."""
        self._num_yielded += 1
        self._progress.num_yielded = self._num_yielded
        reported = self._IterableDataset_len_called
        if self._kind == "iterable" and reported is not None and self._num_yielded > reported:
            msg = (f"Length of IterableDataset {self._dataset} was reported to be {reported}(when "
                   f"accessing len(dataloader)), but {self._num_yielded} samples have been fetched. ")
            if self._num_workers > 0:
                msg += ("For multiprocessing data-loading, this could be caused by not properly "
                        "configuring the IterableDataset replica at each worker. Please see "
                        "https://pytorch.org/docs/stable/data.html#torch.utils.data.IterableDataset "
                        "for examples.")
            warnings.warn(msg, stacklevel=3)

    def __iter__(self):
        return self

    def __len__(self):
        return _num_batches(self._kind, self._dataset, self._index_sampler, self._batch_size,
                            self._drop_last)

    def __next__(self):
        try:
            if _profiling.active() is not None:  # the profiler shows each batch, as torch's
                with _record_function(self._profile_name):
                    batch = self._next_batch()
            else:
                batch = self._next_batch()
        except StopIteration:
            self._progress.finished = True
            raise
        if self._pin:
            from ._utils.pin_memory import pin_memory
            batch = pin_memory(batch, self._pin_device)
        return batch

    def state_dict(self):
        """This iterator's state (Note [Loader state])."""
        return self._progress.state_dict()

    def _next_index(self):
        return next(self._sampler_iter)


class _SingleProcessIter(_BaseIter):
    _profile_name = "enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__"

    def _start(self, loader, base_seed, state=None):
        super()._start(loader, base_seed, state)
        ds_state = None
        if state is not None:
            ds_state = {"dataset_state": state.get("_dataset_state"),
                        "fetcher_state": state.get("_fetcher_state")}
            _resume.load_dataset_state(self._dataset, ds_state)
        if self._kind == "map":
            self._fetcher = MapFetcher(self._dataset, self._auto_collation, self._collate_fn,
                                       self._drop_last,
                                       self._base_seed if loader.per_sample_seed else None)
        else:
            self._fetcher = IterableFetcher(self._dataset, self._auto_collation, self._collate_fn,
                                            self._drop_last, loader.batch_size)
            _resume.restore_fetcher(self._fetcher, self._kind, self._dataset, ds_state)
        self._progress.sampler_iter = self._sampler_iter
        self._progress.fetcher = self._fetcher
        self._loading_s = 0.0
        self._t0 = time.perf_counter()

    def _next_batch(self):
        t = time.perf_counter()
        index = self._next_index()
        self._progress.sampler_iter_yielded += 1
        data = self._fetcher.fetch(index)
        self._loading_s += time.perf_counter() - t
        self._count_yielded()
        self._check_slow()
        return data

    def _check_slow(self):
        """Note [The worker pool]: one warning when loading dominates the loop."""
        loader = self._loader_ref()
        if loader is None or loader._slow_warned or self._num_yielded < _SLOW_LOAD_MIN_BATCHES:
            return
        elapsed = time.perf_counter() - self._t0
        if elapsed >= _SLOW_LOAD_MIN_S and self._loading_s > _SLOW_LOAD_SHARE * elapsed:
            loader._slow_warned = True
            warnings.warn(
                f"DataLoader: loading took {100 * self._loading_s / elapsed:.0f}% of the time of the "
                f"loop over the first {self._num_yielded} batches, with num_workers=0 (loading in "
                f"the main process). Worker processes would load while the loop computes: try "
                f"num_workers={max(1, min(4, (os.cpu_count() or 2) - 1))}.", stacklevel=2)


class _MultiProcessIter(_BaseIter):
    _profile_name = "enumerate(DataLoader)#_MultiProcessingDataLoaderIter.__next__"

    def __init__(self, loader, state=None):
        self._num_workers = loader.num_workers
        self._prefetch = loader.prefetch_factor
        self._in_order = loader.in_order
        self._persistent = loader.persistent_workers
        ctx = loader.multiprocessing_context or _mp
        spec = (loader._dataset_kind, loader.dataset, loader._auto_collation, loader.collate_fn,
                loader.drop_last, loader.batch_size, loader.per_sample_seed)
        self._slabs = SlabMapper()
        self._workers, self._index_queues, self._conns = [], [], []
        self._shutdown = False
        self._first_seed = _state_seed(state)
        if self._first_seed is None:
            self._first_seed = loader._base_seed()
        # a worker started by another thread must not die with that thread (Note in _worker.py)
        method = ctx.get_start_method()
        tie = threading.current_thread() is threading.main_thread() or method == "forkserver"
        self._zygote = None
        ends = []                             # the workers' ends of the result pipes
        try:
            for i in range(self._num_workers):
                iq = ctx.Queue()
                iq.cancel_join_thread()       # never wait on a queue a dead worker will not drain
                self._index_queues.append(iq)
                r, w = ctx.Pipe(duplex=False)
                self._conns.append(r)
                ends.append(w)
            if method in ("spawn", "forkserver"):
                # one process started through the context forks the workers (Note [Worker
                # zygote]); it starts while the spec is pickled, once, and loads it as it is
                # written (Note [One pickle for all workers])
                try:
                    self._zygote = _Zygote(ctx, self._index_queues, ends, self._first_seed,
                                           loader.worker_init_fn, self._num_workers, tie,
                                           [_worker_snapshot(state, i)
                                            for i in range(self._num_workers)])
                finally:
                    for w in ends:
                        w.close()
                self._workers = self._zygote.workers
                self._zygote.send_spec(spec)
            else:
                for i, w in enumerate(ends):
                    p = ctx.Process(target=worker_loop, daemon=True,
                                    args=(spec, self._index_queues[i], w, self._first_seed,
                                          loader.worker_init_fn, i, self._num_workers,
                                          os.getpid(), tie, _worker_snapshot(state, i)))
                    try:
                        p.start()
                    finally:
                        w.close()
                    self._workers.append(p)
                ends.clear()
        except BaseException:
            for w in ends:
                w.close()
            _shutdown_workers(self._workers, self._index_queues, self._conns,
                              zygote=self._zygote)
            raise
        self._finalizer = weakref.finalize(self, _shutdown_workers, self._workers,
                                           self._index_queues, self._conns, id(self),
                                           self._zygote)
        super().__init__(loader, self._first_seed, state)
        if self._pin:
            self._slabs.pin()          # Note [Batch slabs]: batches pinned where they lie
        self._fill()
        if self._zygote is None:
            signal_handling._set_worker_pids(id(self), [p.pid for p in self._workers])
        else:                             # registered once the zygote has forked them all
            self._zygote.on_pids = functools.partial(signal_handling._set_forked_workers,
                                                     id(self))

    def _start(self, loader, base_seed, state=None):
        # the workers were seeded with the first epoch's seed; as torch, persistent workers keep
        # theirs (per-sample seeds follow each epoch's, Note [Per-sample seeds])
        super()._start(loader, base_seed if loader.per_sample_seed else self._first_seed, state)
        self._active = [True] * self._num_workers     # False once an iterable copy is exhausted
        self._outstanding = [0] * self._num_workers
        first = 0
        if state is not None and self._kind == "iterable":
            # the worker after the one that delivered last goes on (as the epoch would have)
            last = state.get("_last_yielded_worker_id")
            first = 0 if last is None else (last + 1) % self._num_workers
            progress = self._progress
            progress.last_worker = last
            for w in range(self._num_workers):
                fs = (_worker_snapshot(state, w) or {}).get("fetcher_state") or {}
                progress.worker_items[w] = fs.get("items", 0)
                if fs.get("fetcher_ended"):
                    progress.worker_ended.add(w)
        order = list(range(first, self._num_workers)) + list(range(first))
        self._worker_cycle = itertools.cycle(order)
        self._snapshots = {}              # batch number -> sampler state after drawing it
        self._snapshotting = _resume.snapshots_needed(self._index_sampler, self._sampler_iter)
        self._snapshot = _resume.snapshot_fn(self._index_sampler, self._sampler_iter)
        if self._snapshotting:            # the state before any batch: the epoch's start
            self._progress.snapshot = self._snapshot()
        if state is not None:             # the workers' states until they send new ones
            for w in range(self._num_workers):
                snap = _worker_snapshot(state, w)
                if snap is not None and (snap.get("dataset_state") is not None or
                                         (snap.get("fetcher_state") or {}).get("dataset_iter_state")
                                         is not None):
                    self._progress.worker_states[w] = snap
        self._send_idx = 0
        self._rcvd_idx = 0
        self._tasks = {}                  # batch number -> [worker id] or [worker id, data]
        self._sampler_done = False

    def _fill(self):
        for _ in range(self._prefetch * self._num_workers):
            self._put_index()

    def _reset(self, loader, state=None):
        """A new epoch of persistent workers: every worker resumes (and acknowledges), then
        the pipeline is refilled."""
        seed = _state_seed(state)
        self._start(loader, loader._base_seed() if seed is None else seed, state)
        waiting = set(range(self._num_workers))
        for i, iq in enumerate(self._index_queues):
            iq.put(_Resume(self._base_seed, _worker_snapshot(state, i)))
        while waiting:
            worker_id, (idx, data) = self._get_data()
            if idx is None and isinstance(data, _Resume):
                waiting.discard(worker_id)
        self._fill()

    def _put_index(self):
        if self._sampler_done:
            return
        for _ in range(self._num_workers):
            w = next(self._worker_cycle)
            if self._active[w] and self._outstanding[w] < self._prefetch:
                break
        else:
            return
        try:
            index = self._next_index()
        except StopIteration:
            self._sampler_done = True
            return
        if self._snapshotting:
            self._snapshots[self._send_idx] = self._snapshot()
        self._index_queues[w].put((self._send_idx, index))
        self._tasks[self._send_idx] = [w]
        self._outstanding[w] += 1
        self._send_idx += 1

    def _get_data(self):
        """(worker id, (idx, data)) of the next message from any worker; raises when a worker
        died or the timeout passed."""
        deadline = time.monotonic() + self._timeout if self._timeout > 0 else None
        conns = {c: i for i, c in enumerate(self._conns)}
        zygote = self._zygote
        # a worker's death: its process's sentinel, or the zygote's report (Note [Worker zygote])
        sentinels = zygote.sentinels if zygote is not None else [p.sentinel for p in self._workers]
        while True:
            wait_s = None if deadline is None else max(0.0, deadline - time.monotonic())
            ready = _connection.wait(list(conns) + sentinels, wait_s)
            if zygote is not None and any(obj in sentinels for obj in ready):
                zygote.poll(0.0)
                sentinels = zygote.sentinels
            for obj in ready:
                if obj in conns:
                    try:
                        message = obj.recv_bytes()
                    except (EOFError, OSError):
                        continue              # its worker died: the sentinel says so below
                    worker_id = conns[obj]
                    try:
                        return worker_id, self._slabs.decode(worker_id, message)
                    except OSError as e:
                        if _out_of_descriptors(e):
                            self._shutdown_now()
                            raise RuntimeError(TOO_MANY_OPEN_FILES) from None
                        raise
                    except RuntimeError:
                        # a new slab is lent by its worker: when that worker is dying, the
                        # batch is lost and its death is the error to report (below)
                        self._workers[worker_id].join(2.0)
                        if self._workers[worker_id].is_alive():
                            raise
            dead = [p for p in self._workers if not p.is_alive()]
            if dead:
                msg = signal_handling.worker_failure_message(dead[0].pid, dead[0].exitcode)
                self._shutdown_now()
                raise RuntimeError(msg)
            if deadline is not None and time.monotonic() >= deadline:
                self._shutdown_now()
                raise RuntimeError(f"DataLoader timed out after {self._timeout} seconds")

    def _next_batch(self):
        if self._shutdown:
            raise StopIteration
        while True:
            while self._rcvd_idx < self._send_idx:
                task = self._tasks.get(self._rcvd_idx)   # None: delivered out of order
                if task is not None and (len(task) == 2 or self._active[task[0]]):
                    break
                self._tasks.pop(self._rcvd_idx, None)   # or sent to a worker that ran out
                self._rcvd_idx += 1
            else:
                if not self._persistent:
                    self._shutdown_now()
                raise StopIteration
            task = self._tasks[self._rcvd_idx]
            if len(task) == 2:
                del self._tasks[self._rcvd_idx]
                self._rcvd_idx += 1
                return self._deliver(task[1], self._rcvd_idx - 1, task[0])
            worker_id, (idx, data) = self._get_data()
            if idx is None:
                continue                       # a late answer to a resume
            self._outstanding[worker_id] -= 1
            if isinstance(data, _IterableEnd):
                self._active[data.worker_id] = False   # its tasks are skipped above
                self._progress.worker_ended.add(data.worker_id)
                self._put_index()
                continue
            if idx != self._rcvd_idx:
                if self._in_order:
                    self._tasks[idx].append(data)
                    continue
                del self._tasks[idx]
                return self._deliver(data, idx, worker_id)
            del self._tasks[idx]
            self._rcvd_idx += 1
            return self._deliver(data, idx, worker_id)

    def _deliver(self, data, idx, worker_id):
        progress = self._progress
        if self._snapshotting:
            progress.snapshot = self._snapshots.pop(idx, progress.snapshot)
        progress.sampler_iter_yielded = self._yielded0 + idx + 1
        progress.last_worker = worker_id
        progress.worker_items[worker_id] += self._batch_size or 1
        if type(data) is _WithState:
            progress.worker_states[worker_id] = data.state
            data = data.data
        self._put_index()
        self._count_yielded()
        if isinstance(data, ExceptionWrapper):
            data.reraise()
        return data

    def _shutdown_now(self):
        if not self._shutdown:
            self._shutdown = True
            self._finalizer()

    def __del__(self):
        try:
            self._shutdown_now()
        except Exception:                 # noqa: BLE001 - interpreter shutdown
            pass


class _ThreadIter(_MultiProcessIter):
    """The worker pool with threads (Note [Thread workers]): the protocol and bookkeeping of
    _MultiProcessIter; messages go through in-process queues, batches by reference."""

    _profile_name = "enumerate(DataLoader)#_ThreadDataLoaderIter.__next__"

    def __init__(self, loader, state=None):
        self._num_workers = loader.num_workers
        self._prefetch = loader.prefetch_factor
        self._in_order = loader.in_order
        self._persistent = loader.persistent_workers
        spec = (loader._dataset_kind, loader.dataset, loader._auto_collation, loader.collate_fn,
                loader.drop_last, loader.batch_size, loader.per_sample_seed)
        self._shutdown = False
        self._first_seed = _state_seed(state)
        if self._first_seed is None:
            self._first_seed = loader._base_seed()
        self._results = queue.SimpleQueue()
        self._index_queues = [queue.SimpleQueue() for _ in range(self._num_workers)]
        self._threads = [
            threading.Thread(target=thread_worker_loop, daemon=True,
                             name=f"DataLoader worker {i}",
                             args=(spec, self._index_queues[i], self._results, self._first_seed,
                                   loader.worker_init_fn, i, self._num_workers,
                                   _worker_snapshot(state, i)))
            for i in range(self._num_workers)]
        # the threads hold neither this iterator nor its loader: deleting it stops them
        self._finalizer = weakref.finalize(self, _stop_threads, self._threads, self._index_queues)
        for t in self._threads:
            t.start()
        _BaseIter.__init__(self, loader, self._first_seed, state)
        self._fill()

    def _get_data(self):
        deadline = time.monotonic() + self._timeout if self._timeout > 0 else None
        while True:
            wait_s = _THREAD_POLL_S if deadline is None else \
                min(_THREAD_POLL_S, max(0.0, deadline - time.monotonic()))
            try:
                worker_id, (idx, data) = self._results.get(timeout=wait_s)
            except queue.Empty:
                if deadline is not None and time.monotonic() >= deadline:
                    self._shutdown_now()
                    raise RuntimeError(f"DataLoader timed out after {self._timeout} seconds") from None
                dead = [i for i, t in enumerate(self._threads) if not t.is_alive()]
                if dead:
                    self._shutdown_now()
                    raise RuntimeError(f"DataLoader worker thread {dead[0]} exited unexpectedly") from None
                continue
            if isinstance(data, _ThreadDied):
                self._shutdown_now()
                data.error.reraise()
            return worker_id, (idx, data)


_THREAD_POLL_S = 1.0       # how often a waiting loop checks that its worker threads still run


def _stop_threads(threads, index_queues):
    """Asks every worker thread to stop after its current batch and joins it (up to a grace
    period; a thread stuck in the dataset is a daemon and goes with the process)."""
    for q in index_queues:
        q.put(None)
    deadline = time.monotonic() + _SHUTDOWN_GRACE_S
    me = threading.current_thread()
    for t in threads:
        if t is not me and t.ident is not None:
            t.join(max(0.0, deadline - time.monotonic()))
    threads.clear()


def _state_seed(state):
    """The base seed a loader state records (None: draw one)."""
    return None if state is None else state.get("_base_seed")


def _worker_snapshot(state, worker_id):
    """Worker `worker_id`'s dataset state in a loader state (None: none)."""
    if state is None:
        return None
    snaps = state.get("_worker_snapshots") or {}
    return snaps.get(worker_id, snaps.get(str(worker_id)))


StatefulDataLoader = DataLoader


def _shutdown_workers(workers, index_queues, conns, key=None, zygote=None):
    """Asks every worker to exit, waits up to a grace period, then terminates / kills the rest
    (and ends the zygote that forked them, Note [Worker zygote]); closes the queues and pipes.
    Safe to call twice and at interpreter exit."""
    if zygote is not None:
        zygote.on_pids = None             # the iterator is going: no registration any more
    if zygote is not None and not zygote.spec_sent:
        zygote.close(0.0)                 # it will not fork them: it stops
    for iq in index_queues:
        try:
            iq.put(None)
        except Exception:                 # noqa: BLE001 - a closed queue
            pass
    deadline = time.monotonic() + _SHUTDOWN_GRACE_S
    for p in workers:
        p.join(max(0.0, deadline - time.monotonic()))
    for p in workers:
        if p.is_alive():
            p.terminate()
            p.join(1.0)
        if p.is_alive():
            p.kill()
            p.join()
    if zygote is not None:
        zygote.close(1.0)
    for iq in index_queues:
        iq.close()
    for c in conns:
        c.close()
    index_queues.clear()
    conns.clear()
    workers.clear()
    if key is not None:
        signal_handling._forget_worker_pids(key)
